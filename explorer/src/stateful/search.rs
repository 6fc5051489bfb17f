//! The depth-first search that paper 003's source-set algorithms share (Alg. 2 and
//! Alg. 3 differ only in when they learn which steps depend on which): a path of
//! states, each expanded by the processes of its `backtrack` set until that set is
//! `done` ([`SourceSets`]); every transition taken stored in the explored graph
//! ([`Graph`], `L_r`); a state stored before not expanded again. A [`Tracking`]
//! fills the `current` sets: [`despor`](crate::algorithms::despor) as steps are taken,
//! [`dlspor`](crate::algorithms::dlspor) when the search backs up to a state.
//!
//! **Beyond the paper: failures.** A step that fails changes nothing but stops its
//! process; the search goes on from there with the others, as the stateless
//! searches' do (its execution is no complete one:
//! [`Exploration::complete_execution`]). Backing off instead would hide the
//! violations of the processes a source set postpones: `{t}`, where `t` fails, is
//! closed (nothing follows it), and the others' failures, which naive reaches by
//! running them first, would never run.
//!
//! **Beyond the paper: cycles.** The paper's state spaces are acyclic. On a cycle, a
//! continuation leads back to a state of the current path, whose own continuations
//! are not all explored yet: the `current` sets of the path's states from that one
//! on miss the steps that will follow it later, and an invisible step alone could
//! close the cycle for ever (the ignoring problem). Those states are expanded by
//! every enabled process ([`SourceSets::expand_whole`]), whether the cycle closes on
//! a step from the top or through the explored continuations of a state visited
//! before ([`Cycles`] finds both). The states below the cycle's entry stay on the
//! path while every continuation of the cycle is explored, so their `current` sets
//! see every step that follows them, as in the paper's argument; and every state on
//! a cycle of the explored graph is expanded whole.
//!
//! **Beyond the paper: processes that wait.** The paper assumes no deadlocks: every
//! action enabled in a state of a full execution occurs in it. Here a process may
//! wait at an `await` for ever, and a step that disables it is dependent on its step
//! (it writes what the guard reads) though that step never occurs after it: the
//! dependency would show in no `current` set, and a state where the waiting process
//! could still run first would be left with a source set that misses it (the
//! differential test found a deadlock lost so). Each process waiting in a state
//! therefore takes part as a *probe*: an action with its next block's whole
//! transition footprint (guard included), which the explored graph keeps at that
//! state (a state reached again replays it) and the tracking sees there, as the
//! stateless searches probe theirs.

use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use crate::pid::Pid;
use crate::stateful::cycles::Cycles;
use crate::stateful::graph::{Action, Graph, ProcessNumber, StateId};
use crate::stateful::safe_sets::invisible_step;
use crate::stateful::source_sets::{Processes, SourceSets};
use rustc_hash::FxHashMap;

/// What the search knows besides its path.
#[derive(Debug, Default)]
pub struct Explored {
    /// `L_r`, the transitions explored so far.
    pub graph: Graph,
    /// The identity of every process met, by its key (whose creators are whose).
    pub pids: FxHashMap<Fingerprint, Pid>,
    cycles: Cycles,
    /// The enabled processes of the state being opened (a buffer kept for the next).
    enabled: Vec<usize>,
}

/// A state on the current path.
#[derive(Debug)]
pub struct Node {
    pub state: StateId,
    pub sets: SourceSets,
    /// The step explored from here now: its process and its action.
    pub taken: Option<(ProcessNumber, Action)>,
    /// The state that step reached.
    pub reached: StateId,
    /// The processes that step spawned.
    pub spawned: Vec<Fingerprint>,
}

/// How an algorithm fills the `current` sets of the path's states.
pub trait Tracking {
    /// The bytes the tracking holds.
    fn bytes(&self) -> u64;

    /// `action` now follows the path: a step just taken from its top (not yet the
    /// top's `taken`), or a probe at its top. Nothing for a lazy tracking.
    fn followed(&mut self, explored: &Explored, path: &mut [Node], action: Action);

    /// The top of the path stepped to a state stored before, whose explored
    /// continuations now follow the path too.
    fn revisited(&mut self, explored: &Explored, path: &mut [Node], state: StateId);

    /// The search is back at `node` from the subtree of its step `node.taken`
    /// (explored, or stored before), before `UpdateBack`.
    fn backed_up(&mut self, explored: &Explored, node: &mut Node);

    /// The states of `component`, a strongly connected component of the explored
    /// graph, are finished: nothing will be added to what follows them. A tracking
    /// that reads no finished state's transitions again may forget them
    /// ([`Graph::forget`]).
    fn finished(&mut self, explored: &mut Explored, component: &[StateId]);
}

/// Runs the search with `tracking`.
pub fn search(run: &mut Exploration<'_, '_>, tracking: &mut impl Tracking) {
    let mut explored = Explored::default();
    let mut path: Vec<Node> = Vec::new();
    let (first, _) = run.store(run.identity());
    // Every other process is met first where a step of the search spawns it.
    for q in &run.ex.state.procs {
        explored.pids.insert(q.pid_key, q.pid.clone());
    }
    open(run, &mut explored, tracking, &mut path, first);
    while let Some(top) = path.last_mut() {
        if run.stopped() {
            break;
        }
        let Some(t) = top.sets.explore_next() else {
            let done = path.pop().expect("the path is not empty");
            if let Some(component) = explored.cycles.pop(done.state) {
                tracking.finished(&mut explored, &component);
            }
            if let Some(parent) = path.last_mut() {
                run.back();
                tracking.backed_up(&explored, parent);
                parent.taken = None;
                parent.sets.update_back();
            }
            continue;
        };
        let key = explored.graph.process(t);
        let Some(p) = (run.ex.state.procs.iter()).position(|q| q.pid_key == key) else {
            continue;
        };
        let _ = run.step(p);
        let event = run.ex.events().last().expect("a step was just run");
        let action = explored.graph.action(t, &event.footprint);
        let procs = &run.ex.state.procs;
        for q in &procs[event.spawned.0..event.spawned.1] {
            explored.pids.insert(q.pid_key, q.pid.clone());
        }
        let spawned = (event.spawned.0..event.spawned.1).map(|c| procs[c].pid_key);
        let from = top.state;
        let spawned = spawned.collect();
        let (to, new) = run.store(run.identity());
        tracking.followed(&explored, &mut path, action);
        let top = path.last_mut().expect("the node just stepped from");
        top.taken = Some((t, action));
        top.reached = to;
        top.spawned = spawned;
        explored.graph.record(from, action, Some(to));
        if new {
            open(run, &mut explored, tracking, &mut path, to);
            continue;
        }
        if let Some(entry) = explored.cycles.close(to) {
            for node in &mut path[entry..] {
                node.sets.expand_whole();
            }
        }
        tracking.revisited(&explored, &mut path, to);
        run.back();
        let top = path.last_mut().expect("the node just stepped from");
        tracking.backed_up(&explored, top);
        top.taken = None;
        top.sets.update_back();
    }
}

/// Pushes the node of the current state `state`, new: its sets, its report when it
/// is final, and the probes of its waiting processes.
fn open(
    run: &mut Exploration<'_, '_>,
    explored: &mut Explored,
    tracking: &mut impl Tracking,
    path: &mut Vec<Node>,
    state: StateId,
) {
    explored.cycles.push(state, path.len());
    let mut enabled = std::mem::take(&mut explored.enabled);
    run.ex.enabled(&mut enabled);
    path.push(node(run, &mut explored.graph, state, &enabled));
    let procs = &run.ex.state.procs;
    // Each live process is enabled or waiting: one transition each at most.
    let live = procs.iter().filter(|q| q.next.is_some()).count();
    explored.graph.open(state, live);
    for (r, q) in procs.iter().enumerate() {
        if q.next.is_none() || enabled.contains(&r) {
            continue;
        }
        let process = explored.graph.process_number(q.pid_key);
        let graph = &mut explored.graph;
        let probe = run.ex.with_next_transition(r, |f| graph.action(process, f));
        explored.graph.record(state, probe, None);
        tracking.followed(explored, path, probe);
    }
    explored.enabled = enabled;
    run.hold(explored.graph.bytes() + explored.cycles.bytes() + tracking.bytes());
}

/// The node of the current state, whose enabled processes are `enabled`: its sets,
/// and, when it is final, its report.
fn node(
    run: &mut Exploration<'_, '_>,
    graph: &mut Graph,
    state: StateId,
    enabled: &[usize],
) -> Node {
    if enabled.is_empty() {
        run.complete_execution();
    }
    let procs = &run.ex.state.procs;
    let mut number = |p: usize| graph.process_number(procs[p].pid_key);
    let enabled_numbers: Processes = enabled.iter().map(|&p| number(p)).collect();
    let safe: Processes = match invisible_step(run, enabled) {
        Some(t) => Processes::from_elem(graph.process_number(procs[t].pid_key), 1),
        None => enabled_numbers.clone(),
    };
    Node {
        state,
        sets: SourceSets::new(safe, enabled_numbers),
        taken: None,
        reached: state,
        spawned: Vec::new(),
    }
}
