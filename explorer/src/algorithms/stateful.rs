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
//! Counts: `stored states` are the distinct states; `states` is, as everywhere, 1 +
//! every event run (here, every transition taken, to a new state or an old one);
//! `traces` are the final states stored (each reached once).

use crate::exploration::{Algorithm, Exploration};

#[derive(Default)]
pub struct Stateful;

/// A state on the current path: its enabled processes and the next to run.
struct Node {
    enabled: Vec<usize>,
    next: usize,
}

impl Algorithm for Stateful {
    fn name(&self) -> &'static str {
        "stateful"
    }

    fn stores_states(&self) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        run.visit(run.identity());
        let mut stack: Vec<Node> = Vec::new();
        let mut spare: Vec<Vec<usize>> = Vec::new();
        let mut enabled = Vec::new();
        run.ex.enabled(&mut enabled);
        stack.push(Node { enabled, next: 0 });
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
            if run.step(proc).is_ok() && run.visit(run.identity()) {
                let mut enabled = spare.pop().unwrap_or_default();
                run.ex.enabled(&mut enabled);
                stack.push(Node { enabled, next: 0 });
            } else {
                run.back();
            }
        }
    }
}
