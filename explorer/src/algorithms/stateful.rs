//! `stateful`: every reachable state once, depth first, with no reduction — the
//! reference for programs whose state space has cycles (spin loops, retry loops,
//! servers), as [`naive`](super::naive) is for those whose executions all end.
//!
//! A stateless search follows executions, and an execution that loops (a spin on a
//! global another process will set) has no end: such a search can only give up on
//! it. This one stores each state it reaches ([`crate::visited`]: 128-bit
//! fingerprints, with process identities) and does not go past a state it has
//! stored: its continuations are explored, or being explored, from its first visit.
//! A cycle is then a step back to a state on the current path, and nothing more.
//!
//! What it finds is what the program can do: every reachable state is stored (by
//! induction on the shortest path to it, every state on that path is expanded, and
//! expanding a state runs every enabled process), so every reachable final state
//! (with the deadlocks among them: processes left waiting), and every failing step
//! from a reachable state (assertions, runtime errors), are reported, each with the
//! path that reached it as its schedule. Two states are the same when their globals
//! and every process's identity, next block and live locals are: what follows a
//! state depends on nothing else.
//!
//! With [`Config::livelocks`](crate::Config::livelocks) it also records the state
//! graph (each state's enabled processes and every transition) and reports its fair
//! cycles once the search is complete ([`crate::livelock`]).
//!
//! Counts: `stored states` are the distinct states; `states` is, as everywhere, 1 +
//! every event run (here, every transition taken, to a new state or an old one);
//! `traces` are the final states stored (each reached once).

use crate::exploration::{Algorithm, Config, Deps, Exploration};
use crate::livelock::StateGraph;
use crate::parallel::pool::Job;
use crate::visited::StateId;

#[derive(Default)]
pub struct Stateful;

/// A state on the current path: its enabled processes (those of this thread: a
/// parallel search gives the others away), the next to run, and its number in the
/// store (with the state graph only).
struct Node {
    enabled: Vec<usize>,
    next: usize,
    id: Option<StateId>,
}

impl Algorithm for Stateful {
    fn name(&self) -> &'static str {
        "stateful"
    }

    fn stores_states(&self) -> bool {
        true
    }

    fn shares_stored_states(&self, config: &Config) -> bool {
        // The state graph of `--livelocks` numbers the states of one store.
        !config.livelocks
    }

    /// A unit's state is stored and expanded as a root ([`Exploration::next_job`]):
    /// every state reachable from it is reached, so the units together reach every
    /// state reachable from the frontier's nodes, which (sleep sets changing only
    /// which of two equivalent paths is taken, and equivalent paths reaching the same
    /// state) are every state the frontier's depth reaches. Its sleep set is not
    /// used: states reachable from several units are explored in each.
    fn explores_units(&self, _deps: Deps) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        let mut graph = run.config.livelocks.then(StateGraph::default);
        let mut spare: Vec<Vec<usize>> = Vec::new();
        // One job on one thread, the root; on several, what the threads give each
        // other ([`crate::parallel::stateful`]).
        while let Some(job) = run.next_job() {
            for &p in &job.path {
                run.replay(p);
            }
            let base = match job.branches {
                Some(enabled) => Node {
                    enabled,
                    next: 0,
                    id: None,
                },
                None => {
                    let mut enabled = Vec::new();
                    run.ex.enabled(&mut enabled);
                    let id = store(run, graph.is_some()).0;
                    record_state(run, graph.as_mut(), &enabled, id, None);
                    Node {
                        enabled,
                        next: 0,
                        id,
                    }
                }
            };
            search(run, graph.as_mut(), base, &job.path, &mut spare);
            for _ in &job.path {
                run.back();
            }
            if run.stopped() {
                break;
            }
        }
        if let Some(g) = graph {
            if !run.stopped() {
                let all = run.config.all_violations;
                for cycle in g
                    .fair_cycles()
                    .iter()
                    .take(if all { usize::MAX } else { 1 })
                {
                    run.livelock(cycle);
                }
            }
        }
    }
}

/// Depth first from `base`, the state at the end of `path`, through every state not
/// stored before; the unexplored branches of the shallowest state on the way go to
/// another thread whenever one waits for work ([`Exploration::hungry`]).
fn search(
    run: &mut Exploration<'_, '_>,
    mut graph: Option<&mut StateGraph>,
    base: Node,
    path: &[usize],
    spare: &mut Vec<Vec<usize>>,
) {
    let mut stack = vec![base];
    while let Some(node) = stack.last_mut() {
        if run.stopped() {
            break;
        }
        if node.enabled.is_empty() {
            run.complete_execution();
        }
        let Some(&proc) = node.enabled.get(node.next) else {
            if let Some(done) = stack.pop() {
                spare.push(done.enabled);
            }
            if !stack.is_empty() {
                run.back();
            }
            continue;
        };
        node.next += 1;
        let from = node.id;
        let process = graph.as_deref_mut().map(|g| process(run, g, proc));
        if run.step(proc).is_err() {
            run.back();
            continue;
        }
        let (to, new) = store(run, graph.is_some());
        let mut enabled = Vec::new();
        if new {
            enabled = spare.pop().unwrap_or_default();
            run.ex.enabled(&mut enabled);
        }
        if let (Some(g), Some(p), Some(from), Some(to)) = (graph.as_deref_mut(), process, from, to)
        {
            if new {
                record_state(run, Some(&mut *g), &enabled, Some(to), Some((from, p)));
            }
            g.edge(from, to, p);
        }
        if new {
            stack.push(Node {
                enabled,
                next: 0,
                id: to,
            });
            if run.hungry() {
                give_away(run, &mut stack, path);
            }
        } else {
            run.back();
        }
    }
}

/// Gives another thread the branches not yet taken of the shallowest state on the
/// path that has some and has taken one (so that it keeps work, and is not taken
/// for a final state): that state is stored, and whoever runs a branch from it
/// stores what it reaches, so each state is still expanded by exactly one thread.
fn give_away(run: &Exploration<'_, '_>, stack: &mut [Node], path: &[usize]) {
    let Some(at) = (stack.iter()).position(|n| n.next >= 1 && n.next < n.enabled.len()) else {
        return;
    };
    let mut to = path.to_vec();
    to.extend(stack[..at].iter().map(|n| n.enabled[n.next - 1]));
    let node = &mut stack[at];
    let branches = node.enabled.split_off(node.next);
    run.give(Job {
        path: to,
        branches: Some(branches),
    });
}

/// Stores the current state: its number when the state graph needs it, and
/// whether it is new.
fn store(run: &mut Exploration<'_, '_>, numbered: bool) -> (Option<StateId>, bool) {
    let state = run.identity();
    if numbered {
        let (id, new) = run.store(state);
        (Some(id), new)
    } else {
        (None, run.visit(state))
    }
}

/// Records the current state, new, numbered `id`, in the state graph if there is one.
fn record_state(
    run: &mut Exploration<'_, '_>,
    graph: Option<&mut StateGraph>,
    enabled: &[usize],
    id: Option<StateId>,
    parent: Option<(u32, u32)>,
) {
    let (Some(g), Some(id)) = (graph, id) else {
        return;
    };
    for p in 0..run.ex.state.procs.len() {
        process(run, g, p);
    }
    let ids = enabled.iter().map(|&p| process(run, g, p)).collect();
    g.state(id, ids, parent);
    run.hold(g.bytes());
}

/// The id in `graph` of process `p` of the current state.
fn process(run: &Exploration<'_, '_>, graph: &mut StateGraph, p: usize) -> u32 {
    let q = &run.ex.state.procs[p];
    let proc = || run.program().procs[q.proc as usize].name.clone();
    graph.process(q.pid_key, || (proc(), q.pid.to_string()))
}
