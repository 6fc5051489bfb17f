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

use crate::dpor::sleep::{SleepSet, Step};
use crate::exploration::Exploration;
use crate::tree::Blocked;
use crate::unit::Unit;

/// The units at `depth`, in the order a depth-first search meets them. The
/// executions that end (complete, sleep-blocked or failed) above `depth` are those
/// of `run`, which counts the states of the frontier.
pub fn units(run: &mut Exploration<'_, '_>, depth: usize) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut path = Vec::new();
    branch(run, depth, SleepSet::default(), &mut path, &mut units);
    units
}

fn branch(
    run: &mut Exploration<'_, '_>,
    depth: usize,
    mut sleep: SleepSet,
    path: &mut Vec<usize>,
    units: &mut Vec<Unit>,
) {
    if run.stopped() {
        return;
    }
    let mut enabled = Vec::new();
    run.ex.enabled(&mut enabled);
    if enabled.is_empty() {
        run.complete_execution();
        return;
    }
    if path.len() == depth {
        units.push(Unit {
            path: path.clone(),
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
        let _ = run.step(p);
        let footprint = (run.ex.events().last())
            .expect("an event was just run")
            .footprint
            .clone();
        let mut child = SleepSet::default();
        sleep.after(process, &footprint, (false, false), |_| None, &mut child);
        path.push(p);
        branch(run, depth, child, path, units);
        path.pop();
        run.back();
        if run.stopped() {
            return;
        }
        sleep.insert_elsewhere(Step { process, footprint });
    }
    if !explored {
        run.blocked(Blocked::Asleep);
    }
}
