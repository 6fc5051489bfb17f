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
//!
//! **On threads** (`--jobs`: DL-S-POR and DE-S-POR, [`Tracking::summaries`]). The
//! threads share one store of states ([`crate::parallel::shared_visited`]) and hand
//! each other jobs ([`crate::parallel::pool`]). Each state is expanded, by its source
//! sets, by the thread that stores it first, which keeps its transitions, cycles
//! and summaries to itself; what changes is what a thread knows of a state
//! another thread stored:
//! 1. *finished there*: that thread published its summary
//!    ([`crate::parallel::shared_summaries`]), which this one reads back and treats
//!    as one of its own finished states';
//! 2. *open there*: not everything that follows it is explored yet. The state the
//!    step left is expanded whole, and the step's target waits ([`PENDING`]) until
//!    that state's component finishes: then it is the other thread's summary if
//!    that thread has finished with the state, or else a summary made from the
//!    program text and the locals of the state's processes
//!    ([`crate::stateful::may_follow`]), which holds at least what any summary of
//!    the state could (an eager tracking, which learns what follows a
//!    state when the step reaches it, reads that one at once, and a traversal of
//!    the graph reads it for the target until it is given:
//!    [`Explored::traversed`]);
//! 3. *given*: a thread whose partner waits gives it the branches not yet taken of
//!    the shallowest state on its path that has some: that state is expanded
//!    whole, and the given steps' target is a summary from the program text of
//!    everything the path's processes, and any they may spawn, may do (which an
//!    eager tracking reads at once, for the states above it). The thread that takes
//!    them starts a path of its own at their targets, whose processes were spawned
//!    before it ([`Explored::at_start`]: a creator's steps on that path do not
//!    happen before its child's, which de-spor took them to, and lost a final
//!    state: `tests/tests/parallel.rs`).
//!
//! Why the threads find what one thread finds (every reachable final state,
//! deadlock and failing step):
//! - *Source sets.* Every summary read holds what follows its state in the graph
//!   the threads explored together: by induction on the order components finish,
//!   a component's transitions are its own thread's, each with a target whose
//!   summary holds what follows it (finished before, case 1, or a summary from the
//!   program text, cases 2 and 3). So `current` sets hold at least what Alg. 3,
//!   line 28, asks, and a state whose sets may miss a step (cases 2 and 3) is
//!   expanded whole; both only add branches, and Theorem 2's argument holds at
//!   each state, whichever thread expands it. DE-S-POR's `UpdateCurr` (Alg. 2,
//!   lines 15–17) reads the same summaries, as actions: another thread's actions
//!   as its own (what the threads explored from a state is what one thread's
//!   earlier visit would have), and those of the program text, which stand for
//!   actions it cannot place exactly (footprints over-approximated, processes
//!   whose creators it does not know), wherever any action they stand for would
//!   be recorded (`crate::algorithms::despor`, `update_curr`); the states above a
//!   given branch learn what it may do when it is given: again only more
//!   branches, and Theorem 1's argument.
//! - *Cycles.* Every cycle of the explored graph has a state expanded whole. A
//!   step to a state new to the store finishes its target no later than its
//!   source (depth first, one thread; together only within one component); a step
//!   to a state finished before finishes it before its source, which is still
//!   being expanded. A cycle made only of such steps would lie in one component,
//!   which its thread closed by a step to a state of its own path (whose source
//!   and the path's states from the cycle's entry are expanded whole, as on one
//!   thread); otherwise finishing times would decrease all the way round. So a
//!   cycle has a step to a state open at that step, and that step's source is
//!   expanded whole: the thread's own path (as on one thread), case 2, or a given
//!   branch (case 3, which no thread's finishing order covers).
//!
//! The counts are explored ones: each state is stored once, but the threads'
//! order of exploration differs from one thread's, and cases 2 and 3 may add
//! branches, so `stored` and `states` may exceed one thread's and vary from run to
//! run; the final states and findings do not.

use crate::dependency::footprint::Footprint;
use crate::exploration::{Exploration, Reached};
use crate::fingerprint::Fingerprint;
use crate::parallel::pool::Job;
use crate::pid::Pid;
use crate::stateful::cycles::Cycles;
use crate::stateful::exchange::{Exchange, Exchanged};
use crate::stateful::graph::{Action, Graph, ProcessNumber, StateId};
use crate::stateful::may_follow::MayFollow;
use crate::stateful::safe_sets::invisible_step;
use crate::stateful::source_sets::{Processes, SourceSets};
use crate::stateful::summaries::PENDING;
use rustc_hash::{FxHashMap, FxHashSet};

/// What the search knows besides its path.
#[derive(Debug, Default)]
pub struct Explored {
    /// `L_r`, the transitions explored so far.
    pub graph: Graph,
    /// The identity of every process met, by its key (whose creators are whose).
    pub pids: FxHashMap<Fingerprint, Pid>,
    /// The processes of the state the current path starts from (the initial state,
    /// a unit's of a split search, [`crate::parallel::frontier`], or on threads the
    /// target of a branch another thread gave): whatever spawned them ran before
    /// the path began.
    pub at_start: FxHashSet<Fingerprint>,
    cycles: Cycles,
    /// The enabled processes of the state being opened (a buffer kept for the next).
    enabled: Vec<usize>,
    /// On threads: what may follow a state another thread explores (made on first
    /// use).
    may_follow: Option<MayFollow>,
    /// On threads: the states of other threads that transitions lead to, not
    /// finished when reached ([`PENDING`] targets), each with a summary from the
    /// program text; emptied when the thread's path is.
    pending: Vec<(Fingerprint, StateId)>,
    /// On threads: the summaries exchanged with the other threads.
    exchange: Exchange,
}

impl Explored {
    /// What a transition's target `to` stands for when the graph is traversed: a
    /// [`PENDING`] target, not given yet, is the summary from the program text of
    /// the state it leads to (it holds at least what the other thread's will).
    pub fn traversed(&self, to: StateId) -> StateId {
        match to.checked_sub(PENDING) {
            Some(i) => self.pending[i as usize].1,
            None => to,
        }
    }

    fn may_follow(&mut self, run: &Exploration<'_, '_>) -> &mut MayFollow {
        self.may_follow
            .get_or_insert_with(|| MayFollow::new(run.program()))
    }

    /// The bytes it holds besides the graph and the cycles.
    fn bytes(&self) -> u64 {
        let pending = std::mem::size_of::<(Fingerprint, StateId)>();
        (self.pending.capacity() * pending) as u64 + self.exchange.bytes()
    }
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

    /// Its summaries, as threads exchange them (`Explored`, its `exchange`).
    fn summaries(&mut self) -> &mut dyn Exchanged;
}

/// Runs the search with `tracking`: from the initial state on one thread; on
/// several, each thread from the states the jobs it takes reach (the first, the
/// initial state).
pub fn search(run: &mut Exploration<'_, '_>, tracking: &mut impl Tracking) {
    let mut explored = Explored::default();
    while let Some(job) = run.next_job() {
        for &p in &job.path {
            run.replay(p);
        }
        match job.branches {
            None => from_here(run, &mut explored, tracking, &job.path),
            Some(branches) => {
                for p in branches {
                    if run.stopped() {
                        break;
                    }
                    let _ = run.step(p);
                    let mut path = job.path.clone();
                    path.push(p);
                    from_here(run, &mut explored, tracking, &path);
                    run.back();
                }
            }
        }
        for _ in &job.path {
            run.back();
        }
        if run.stopped() {
            break;
        }
    }
}

/// Depth first from the current state, the end of `prefix`, unless it is stored
/// already (it is then explored, or being explored, from its first visit).
fn from_here(
    run: &mut Exploration<'_, '_>,
    explored: &mut Explored,
    tracking: &mut impl Tracking,
    prefix: &[usize],
) {
    let state = run.identity();
    let Reached::New(first) = run.store_owned(state) else {
        return;
    };
    // Every other process is met first where a step of the path spawns it (a
    // tracking that follows a line of creators stops at these: `at_start`).
    explored.at_start.clear();
    for q in &run.ex.state.procs {
        explored.pids.insert(q.pid_key, q.pid.clone());
        explored.at_start.insert(q.pid_key);
    }
    let mut path: Vec<Node> = Vec::new();
    // The states of the path below this one have no branch to give away
    // ([`give_away`]): a state's `done` and `enabled` change only while it is the top
    // or where it gives its branches away (this is then at it), and whether an
    // invisible step alone expands it only where a cycle closes through it.
    let mut floor = 0;
    open(run, explored, tracking, &mut path, first);
    while let Some(top) = path.last_mut() {
        if run.stopped() {
            break;
        }
        let Some(t) = top.sets.explore_next() else {
            let done = path.pop().expect("the path is not empty");
            floor = floor.min(path.len().saturating_sub(1));
            if let Some(component) = explored.cycles.pop(done.state) {
                let from_text = resolve_pending(run, explored, tracking, &component);
                run.stats.pruning.summarised_from_text += from_text;
                tracking.finished(explored, &component);
                if let Some(shared) = run.shared() {
                    let (graph, summaries) = (&explored.graph, tracking.summaries());
                    let shared = &shared.summaries;
                    let number = (explored.exchange).publish(summaries, graph, done.state, shared);
                    let number = number.expect("a finished state has a summary");
                    for &id in &component {
                        run.finish_shared(id, number);
                    }
                }
            }
            if let Some(parent) = path.last_mut() {
                run.back();
                tracking.backed_up(explored, parent);
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
        let state = run.identity();
        // What the step's continuations are read from when it reached a state
        // stored before: its target, or what may follow a state another thread has
        // not finished with.
        let mut revisit = None;
        let (to, new) = match run.store_owned(state) {
            Reached::New(to) => (to, true),
            Reached::Again(to) => (to, false),
            Reached::Finished(number) => {
                let shared = &run.shared().expect("a summary published").summaries;
                let (graph, summaries) = (&mut explored.graph, tracking.summaries());
                (
                    explored
                        .exchange
                        .read_back(summaries, graph, number, shared),
                    false,
                )
            }
            Reached::Open => {
                run.stats.pruning.met_open += 1;
                let top = path.last_mut().expect("the node just stepped from");
                top.sets.expand_whole();
                floor = floor.min(path.len() - 1);
                let (to, made) = foreign(run, explored, tracking, state);
                revisit = Some(made);
                (to, false)
            }
        };
        tracking.followed(explored, &mut path, action);
        let top = path.last_mut().expect("the node just stepped from");
        top.taken = Some((t, action));
        top.reached = to;
        top.spawned = spawned;
        explored.graph.record(from, action, Some(to));
        if new {
            open(run, explored, tracking, &mut path, to);
            if run.hungry() {
                give_away(run, explored, tracking, &mut path, &mut floor, prefix);
            }
            continue;
        }
        if let Some(entry) = explored.cycles.close(to) {
            floor = floor.min(entry);
            for node in &mut path[entry..] {
                node.sets.expand_whole();
            }
        }
        tracking.revisited(explored, &mut path, revisit.unwrap_or(to));
        run.back();
        let top = path.last_mut().expect("the node just stepped from");
        tracking.backed_up(explored, top);
        top.taken = None;
        top.sets.update_back();
    }
    // Every component is finished (or the search stopped): nothing is pending.
    explored.pending.clear();
}

/// The target of a step to `state`, which another thread stored and has not
/// finished with: [`PENDING`] until the component of the step's state finishes;
/// then the summary that thread published of it, if it has finished with it by
/// then, or else a summary of what may follow it, from the program text
/// ([`resolve_pending`]). With it, that summary from the program text, which an
/// eager tracking reads at once.
fn foreign(
    run: &Exploration<'_, '_>,
    explored: &mut Explored,
    tracking: &mut impl Tracking,
    state: Fingerprint,
) -> (StateId, StateId) {
    let rows = explored.may_follow(run).rows(&run.ex, false);
    let graph = &mut explored.graph;
    let made = (explored.exchange).may_follow(tracking.summaries(), graph, &rows);
    match StateId::try_from(explored.pending.len()) {
        Ok(i) if i < StateId::MAX - PENDING => {
            explored.pending.push((state, made));
            (PENDING + i, made)
        }
        // More than the targets can number: the summary from the program text.
        _ => (made, made),
    }
}

/// Gives the transitions from `component`'s states to states of other threads
/// their targets, before the component is summarised ([`foreign`]): how many of
/// them got the summary from the program text.
fn resolve_pending(
    run: &Exploration<'_, '_>,
    explored: &mut Explored,
    tracking: &mut impl Tracking,
    component: &[StateId],
) -> u64 {
    let Some(shared) = run.shared().filter(|_| !explored.pending.is_empty()) else {
        return 0;
    };
    let mut from_text = 0;
    for &s in component {
        for (i, to) in explored.graph.targets_from(s, PENDING) {
            let (state, made) = explored.pending[(to - PENDING) as usize];
            let to = match run.published(state) {
                Some(number) => {
                    let (graph, summaries) = (&mut explored.graph, tracking.summaries());
                    (explored.exchange).read_back(summaries, graph, number, &shared.summaries)
                }
                None => {
                    from_text += 1;
                    made
                }
            };
            explored.graph.set_target(s, i, to);
        }
    }
    from_text
}

/// Gives another thread the branches not yet taken of the shallowest state on the
/// path that has some and has taken one, as [`crate::algorithms::stateful`] does,
/// unless an invisible step alone expands it (that step is a persistent set there,
/// and expanding the state whole for another thread interleaves the other processes
/// with every local step: on a process's loop of 3,000 local steps, two threads
/// stored 3 to 7 times one thread's states): that state is expanded whole from then
/// on, and what follows the branches given,
/// which this thread will not see, is summarised from the program text as what may
/// follow any state on the path (the processes of the current state, from their
/// entries). So the states above it, which read its component's summary when the
/// search backs up to them, see at least what the given branches do.
fn give_away(
    run: &Exploration<'_, '_>,
    explored: &mut Explored,
    tracking: &mut impl Tracking,
    path: &mut [Node],
    floor: &mut usize,
    prefix: &[usize],
) {
    let gives =
        |n: &Node| n.taken.is_some() && n.sets.has_untaken() && !n.sets.by_an_invisible_step();
    let Some(at) = (path[*floor..].iter().position(gives)).map(|i| *floor + i) else {
        // The top has taken no step yet: it is looked at again once it has.
        *floor = path.len().saturating_sub(1);
        return;
    };
    *floor = at;
    let procs = &run.ex.state.procs;
    let index = |t: ProcessNumber| {
        let key = explored.graph.process(t);
        procs.iter().position(|q| q.pid_key == key)
    };
    let mut to = prefix.to_vec();
    for node in &path[..at] {
        let (t, _) = node.taken.expect("a state below the top has taken a step");
        to.push(index(t).expect("a process that took a step on the path"));
    }
    let node = &mut path[at];
    let given = node.sets.give_untaken();
    let branches = given.iter().filter_map(|&t| index(t)).collect();
    let rows = explored.may_follow(run).rows(&run.ex, true);
    let graph = &mut explored.graph;
    let everything = (explored.exchange).may_follow(tracking.summaries(), graph, &rows);
    let nothing = Footprint::default();
    for &t in &given {
        let action = explored.graph.action(t, &nothing);
        explored.graph.record(node.state, action, Some(everything));
    }
    // An eager tracking learns now what the given branches may do after the states
    // above (a lazy one reads it when it backs up to them).
    tracking.revisited(explored, &mut path[..at], everything);
    run.give(Job {
        path: to,
        branches: Some(branches),
    });
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
    run.hold(
        explored.graph.bytes() + explored.cycles.bytes() + explored.bytes() + tracking.bytes(),
    );
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
