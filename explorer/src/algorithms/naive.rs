//! `naive`: every interleaving, depth first — the reference semantics every reduced
//! algorithm is checked against. It also counts Mazurkiewicz traces: complete
//! executions grouped by their happens-before relation, over what each event touched
//! (with `--deps static`, over transition footprints; with constraints, see
//! [`Naive::with_constraints`]).

use crate::dependency::constraints::RelationR;
use crate::dependency::footprint::Carried;
use crate::dependency::happens_before::HappensBefore;
use crate::exploration::{Algorithm, Deps, Exploration};
use frontend::ics::ResolvedIcs;
use std::sync::Arc;

#[derive(Default)]
pub struct Naive {
    hb: HappensBefore,
    /// The constraints whose relation `R` (see [`crate::dependency::constraints`])
    /// refines the dependency the traces are counted by (see
    /// [`Naive::with_constraints`]).
    ics: Option<Arc<ResolvedIcs>>,
    /// Some pair of events that commute by `R` spawned a process (see
    /// [`Naive::identities_may_move`]).
    spawning_commutes: bool,
}

impl Naive {
    /// Counts the Mazurkiewicz traces of the dependency `ocdpor` explores with:
    /// conflicting transition footprints, minus the pairs of events that commute whatever the
    /// state (`R`, from the constraints `ics`). Optimal-DPOR on that dependency
    /// explores exactly one complete execution per such trace: the reference of
    /// ocdpor's optimality test. The exploration itself is unchanged.
    pub fn with_constraints(ics: Arc<ResolvedIcs>) -> Self {
        Naive {
            ics: Some(ics),
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
    fn independent_of_newest(
        &mut self,
        run: &Exploration<'_, '_>,
        r: &mut RelationR,
    ) -> Vec<usize> {
        let events = run.ex.events();
        let d = events.len() - 1;
        let n = &events[d];
        let program = run.ex.program();
        let spawns = |i: usize| events[i].spawned.0 < events[i].spawned.1;
        let commuting: Vec<usize> = (0..d)
            .filter(|&i| {
                let e = &events[i];
                !e.failed
                    && !n.failed
                    && e.proc != n.proc
                    && e.conflicts(n)
                    && r.commute(
                        program,
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

    /// The traces of sdpor's and odpor's dependency; with constraints, ocdpor's,
    /// whose `R` relates transitions.
    fn carries(&self) -> Carried {
        if self.ics.is_some() {
            Carried::Transitions
        } else {
            Carried::Accesses
        }
    }

    /// Without constraints: a unit's subtree is explored whole below its path, as
    /// the frontier explored every interleaving above it (with constraints, the
    /// events of the path would need `R` too).
    fn explores_units(&self, _deps: Deps) -> bool {
        self.ics.is_none()
    }

    fn explores_every_interleaving(&self) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        // A unit of a split search: its path, as the frontier ran it, then every
        // interleaving below it (the search never backs up above its first node).
        if let Some(unit) = run.take_unit() {
            for p in unit.path {
                run.replay(p);
                self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            }
        }
        let mut r =
            (self.ics.clone()).map(|ics| RelationR::new(ics, &run.ex.state, run.config.max_depth));
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
                let trace = self
                    .hb
                    .trace_fingerprint(run.ex.events(), &run.ex.state.procs);
                run.traces.insert(trace);
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
                let independent = match &mut r {
                    Some(r) => self.independent_of_newest(run, r),
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
        run.stats.mazurkiewicz = Some(run.traces.len() as u64);
    }
}
