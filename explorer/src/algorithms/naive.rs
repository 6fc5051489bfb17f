//! `naive`: every interleaving, depth first — the reference semantics every reduced
//! algorithm is checked against. It also counts Mazurkiewicz traces: complete
//! executions grouped by their happens-before relation.

use crate::dependency::constraints::LineNine;
use crate::dependency::happens_before::HappensBefore;
use crate::exploration::{Algorithm, Exploration};
use crate::fingerprint::Fingerprint;
use crate::state::State;
use frontend::ics::ResolvedIcs;
use rustc_hash::FxHashSet;
use std::sync::Arc;

#[derive(Default)]
pub struct Naive {
    hb: HappensBefore,
    traces: FxHashSet<Fingerprint>,
    /// cdpor's relation `R` (see [`crate::dependency::constraints`]), when the traces are those
    /// of the finer dependency (see [`Naive::with_constraints`]).
    line9: Option<LineNine>,
    /// Some pair of events that commute by `R` spawned a process (see
    /// [`Naive::identities_may_move`]).
    spawning_commutes: bool,
}

impl Naive {
    /// Counts the Mazurkiewicz traces of the dependency `ocdpor` explores with:
    /// conflicting footprints, minus the pairs of events that commute whatever the
    /// state (`R`, from the constraints `ics`). Optimal-DPOR on that dependency
    /// explores exactly one complete execution per such trace: the reference of
    /// ocdpor's optimality test. The exploration itself is unchanged.
    pub fn with_constraints(ics: Arc<ResolvedIcs>) -> Self {
        Naive {
            line9: Some(LineNine::new(ics)),
            ..Naive::default()
        }
    }

    /// Whether two events that commute by `R` spawned a process, one of them or both,
    /// in the executions explored. The constraints compare the processes the two
    /// blocks spawn as one multiset, identities aside (CDPOR Def. 6): two `p`s whose
    /// `spawn q()` depends on which runs first commute, `q` being spawned by either.
    /// Such executions are then one trace of `ocdpor`'s dependency up to the names of
    /// processes, and two here (whose events are named by process identity): the
    /// count is an upper bound of ocdpor's executions, not their number.
    pub fn identities_may_move(&self) -> bool {
        self.spawning_commutes
    }

    /// The earlier events of the newest one's execution that conflict with it but
    /// commute with it by `R` (none without constraints), as `ocdpor` records them.
    fn independent_of_newest(&mut self, run: &Exploration<'_, '_>, initial: &State) -> Vec<usize> {
        let Some(line9) = self.line9.as_mut() else {
            return Vec::new();
        };
        let events = run.ex.events();
        let d = events.len() - 1;
        let n = &events[d];
        let (program, max_depth) = (run.ex.program(), run.config.max_depth);
        let spawns = |i: usize| events[i].spawned.0 < events[i].spawned.1;
        let commuting: Vec<usize> = (0..d)
            .filter(|&i| {
                let e = &events[i];
                !e.failed
                    && !n.failed
                    && e.proc != n.proc
                    && e.conflicts(n)
                    && line9.commute(
                        program,
                        initial,
                        max_depth,
                        (e.block, run.ex.entry_locals(i)),
                        (n.block, run.ex.entry_locals(d)),
                    )
            })
            .collect();
        self.spawning_commutes |=
            !commuting.is_empty() && (spawns(d) || commuting.iter().any(|&i| spawns(i)));
        commuting
    }
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
        let initial = self.line9.is_some().then(|| run.ex.state.clone());
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
                self.traces.insert(
                    self.hb
                        .trace_fingerprint(run.ex.events(), &run.ex.state.procs),
                );
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
                let independent = match &initial {
                    Some(initial) => self.independent_of_newest(run, initial),
                    None => Vec::new(),
                };
                self.hb
                    .push(run.ex.events(), &run.ex.state.procs, &independent);
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
