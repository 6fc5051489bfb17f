//! `naive`: every interleaving, depth first — the reference semantics every reduced
//! algorithm is checked against. It also counts Mazurkiewicz traces: complete
//! executions grouped by their happens-before relation.

use crate::exploration::{Algorithm, Exploration};
use crate::fingerprint::Fingerprint;
use crate::happens_before::HappensBefore;
use rustc_hash::FxHashSet;

#[derive(Default)]
pub struct Naive {
    hb: HappensBefore,
    traces: FxHashSet<Fingerprint>,
}

/// A node of the depth-first search: the processes enabled there, and the next to try.
struct Node {
    enabled: Vec<usize>,
    next: usize,
}

impl Algorithm for Naive {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        let mut stack: Vec<Node> = Vec::new();
        let mut spare: Vec<Vec<usize>> = Vec::new();
        let mut enabled = spare.pop().unwrap_or_default();
        run.ex.enabled(&mut enabled);
        stack.push(Node { enabled, next: 0 });
        while let Some(node) = stack.last_mut() {
            if run.stopped() {
                break;
            }
            // A complete execution, counted unless it is one beyond --max-traces.
            if node.enabled.is_empty() && run.complete_execution() {
                self.traces.insert(self.hb.trace_fingerprint());
            }
            let Some(&proc) = node.enabled.get(node.next) else {
                // Done with this node: step back to its parent.
                if let Some(done) = stack.pop() {
                    spare.push(done.enabled);
                }
                if !stack.is_empty() {
                    run.back();
                    self.hb.pop();
                }
                continue;
            };
            node.next += 1;
            if run.step(proc).is_ok() {
                self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
                let mut enabled = spare.pop().unwrap_or_default();
                run.ex.enabled(&mut enabled);
                stack.push(Node { enabled, next: 0 });
            } else {
                run.back();
            }
        }
        run.stats.mazurkiewicz = Some(self.traces.len() as u64);
    }
}
