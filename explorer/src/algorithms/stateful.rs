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

use crate::exploration::{Algorithm, Exploration};
use crate::livelock::StateGraph;
use crate::visited::StateId;

#[derive(Default)]
pub struct Stateful;

/// A state on the current path: its enabled processes, the next to run, and its
/// number in the store.
struct Node {
    enabled: Vec<usize>,
    next: usize,
    id: StateId,
}

impl Algorithm for Stateful {
    fn name(&self) -> &'static str {
        "stateful"
    }

    fn stores_states(&self) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        let mut graph = run.config.livelocks.then(StateGraph::default);
        let mut stack: Vec<Node> = Vec::new();
        let mut spare: Vec<Vec<usize>> = Vec::new();
        let mut enabled = Vec::new();
        run.ex.enabled(&mut enabled);
        let (first, _) = run.store(run.identity());
        record_state(run, graph.as_mut(), &enabled, first, None);
        stack.push(Node {
            enabled,
            next: 0,
            id: first,
        });
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
            let process = graph.as_mut().map(|g| process(run, g, proc));
            if run.step(proc).is_err() {
                run.back();
                continue;
            }
            let (to, new) = run.store(run.identity());
            let mut enabled = Vec::new();
            if new {
                enabled = spare.pop().unwrap_or_default();
                run.ex.enabled(&mut enabled);
            }
            if let (Some(g), Some(p)) = (graph.as_mut(), process) {
                if new {
                    record_state(run, Some(&mut *g), &enabled, to, Some((from, p)));
                }
                g.edge(from, to, p);
            }
            if new {
                stack.push(Node {
                    enabled,
                    next: 0,
                    id: to,
                });
            } else {
                run.back();
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

/// Records the current state, new, numbered `id`, in the state graph if there is one.
fn record_state(
    run: &mut Exploration<'_, '_>,
    graph: Option<&mut StateGraph>,
    enabled: &[usize],
    id: StateId,
    parent: Option<(u32, u32)>,
) {
    let Some(g) = graph else {
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
