//! The frontier of a parallel search: the top of the execution tree explored with
//! full branching and sleep sets down to a depth, each path that reaches it a
//! [`Unit`] for one worker.
//!
//! Why it is sound (every algorithm below it runs unchanged): above the frontier
//! every enabled process not asleep is a branch, so the sets the search would have
//! built there (backtrack sets, wakeup trees) are contained in what is explored,
//! and a race of a unit's event with an event above the frontier needs no reversal.
//! The sleep sets are Godefroid's: a process explored from a node sleeps in its
//! later siblings' subtrees until an event that conflicts with its step runs, so
//! every execution left out by them is Mazurkiewicz-equivalent to one explored
//! under an earlier sibling (JACM 2017, Sec. 4, the property of sleep sets Source-
//! DPOR's proof uses), and two units never both explore the same trace. A unit
//! starts its search with the sleep set of its frontier node, as the search would
//! have had there. Each search's own argument then holds below the frontier: it
//! explores every trace that extends the unit's path and does not start with a
//! sleeping step, whatever happens in other units (its proof is by induction over
//! the subtree, and the sets above the subtree only decide which subtrees exist).
//!
//! The sleep sets of the frontier are those of footprints alone: cdpor's `R`,
//! csdpor's state checks and the observers would keep more asleep. Fewer sleeping
//! steps explore more, never less.
//!
//! Above the units of naive ([`Algorithm::explores_every_interleaving`]) no process
//! sleeps: every interleaving is a path of the frontier or of one unit, once, so the
//! counts of the parts add up to one thread's. The frontier counts the Mazurkiewicz
//! traces of the executions that end above it as naive does; the traces of all the
//! parts are merged as a set (two interleavings in two parts may be one trace).

use crate::dependency::happens_before::HappensBefore;
use crate::dpor::sleep::{SleepSet, Step};
use crate::exploration::{Algorithm, Exploration};
use crate::tree::Blocked;
use crate::unit::Unit;

/// The units at `depth` of the search of `algorithm`, in the order a depth-first
/// search meets them. The executions that end (complete, sleep-blocked or failed)
/// above `depth` are those of `run`, which counts the states of the frontier.
pub fn units(run: &mut Exploration<'_, '_>, algorithm: &dyn Algorithm, depth: usize) -> Vec<Unit> {
    let mut frontier = Frontier {
        depth,
        every: algorithm.explores_every_interleaving(),
        hb: HappensBefore::default(),
        path: Vec::new(),
        units: Vec::new(),
    };
    frontier.branch(run, SleepSet::default());
    if frontier.every {
        run.stats.mazurkiewicz = Some(run.traces.len() as u64);
    }
    frontier.units
}

/// The frontier being explored: its depth, whether every interleaving is a path
/// (naive: no sleep sets, traces counted), the happens-before of the path and the
/// units found.
struct Frontier {
    depth: usize,
    every: bool,
    hb: HappensBefore,
    path: Vec<usize>,
    units: Vec<Unit>,
}

impl Frontier {
    fn branch(&mut self, run: &mut Exploration<'_, '_>, mut sleep: SleepSet) {
        if run.stopped() {
            return;
        }
        let mut enabled = Vec::new();
        run.ex.enabled(&mut enabled);
        if enabled.is_empty() {
            if run.complete_execution() && self.every {
                let trace = self
                    .hb
                    .trace_fingerprint(run.ex.events(), &run.ex.state.procs);
                run.traces.insert(trace);
            }
            return;
        }
        if self.path.len() == self.depth {
            self.units.push(Unit {
                path: self.path.clone(),
                sleep,
            });
            return;
        }
        let mut explored = false;
        for p in enabled {
            let process = run.ex.state.procs[p].pid_key;
            if sleep.asleep(process) {
                continue;
            }
            explored = true;
            // A failed event is reported here, and its process stops; the others go on.
            let failed = run.step(p).is_err();
            let footprint = (run.ex.events().last())
                .expect("an event was just run")
                .footprint
                .clone();
            let mut child = SleepSet::default();
            if !self.every {
                sleep.after(process, &footprint, (false, false), |_| None, &mut child);
            }
            // naive steps back from a failed event at once, and keeps the
            // happens-before of the path for its traces.
            if self.every && !failed {
                self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            }
            if !(self.every && failed) {
                self.path.push(p);
                self.branch(run, child);
                self.path.pop();
            }
            run.back();
            if self.every && !failed {
                self.hb.pop();
            }
            if run.stopped() {
                return;
            }
            if !self.every {
                sleep.insert_elsewhere(Step { process, footprint });
            }
        }
        if !explored {
            run.blocked(Blocked::Asleep);
        }
    }
}
