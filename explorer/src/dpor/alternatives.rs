//! Alternative runs: the states and memories of reordered executions, computed on
//! copies or read off the undo log, so that a race can be judged (a guard, a
//! constraint, a state comparison) without exploring the reordering.

use crate::dependency::footprint::intersects;
use crate::dependency::happens_before::HappensBefore;
use crate::dpor::sleep::Step;
use crate::executor::Executor;
use crate::fingerprint::Fingerprint;
use crate::state::State;
use frontend::memory::{Memory, Rewound};
use frontend::value::Value;
use std::sync::Arc;

/// Runs `processes` (by identity key) from a copy of `state`, counting each step in
/// `counter`. `None` when a step is not enabled or fails; otherwise the state reached
/// and each step with its footprint.
pub fn run_from(
    base: &Executor<'_>,
    state: &State,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<(State, Vec<Step>)> {
    let mut scratch = state.clone();
    let steps = run_in(base, &mut scratch, processes, counter)?;
    Some((scratch, steps))
}

/// [`run_from`] on `scratch`, a copy of the state to run from that the caller keeps
/// to reuse its buffers; it holds the state reached when the result is `Some`.
pub fn run_in(
    base: &Executor<'_>,
    scratch: &mut State,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<Vec<Step>> {
    let mut ex = base.fork(std::mem::take(scratch));
    let steps = run_steps(&mut ex, processes, counter);
    *scratch = ex.state;
    steps
}

pub(super) fn run_steps(
    ex: &mut Executor<'_>,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<Vec<Step>> {
    let mut steps = Vec::with_capacity(processes.len());
    for &key in processes {
        let i = ex.state.procs.iter().position(|q| q.pid_key == key)?;
        if !ex.is_enabled(i) {
            return None;
        }
        let event = ex.step(i).ok()?;
        *counter += 1;
        steps.push(Step {
            process: key,
            footprint: event.footprint.clone(),
        });
    }
    Some(steps)
}

/// The memory of `s[E'.w]`, where `E'` is the prefix before event `e` and `w` the
/// events `after` (indices after `e`, in order), computed from the undo log (see
/// [`Executor::rewound`]); `None` when that would not be exact: some event of
/// `w` was recorded independent (CDPOR line 9) of a conflicting event from `e` on
/// that is not in `w`, and may have read what that event wrote (and behave otherwise
/// without it). A pair that only writes the same locations (`odpor-ob`'s unobserved
/// writes) does not make it inexact. `w` must otherwise contain every event after `e`
/// that happens before one of its own (`notdep(e, E)` and `dep(E, e, n)` do).
pub fn virtual_memory(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    e: usize,
    after: &[usize],
) -> Option<Memory> {
    rewound(ex, hb, e, after).map(|mem| mem.memory())
}

/// [`virtual_memory`], read a location at a time where that suffices.
pub fn rewound<'a>(
    ex: &'a Executor<'_>,
    hb: &HappensBefore,
    e: usize,
    after: &[usize],
) -> Option<Rewound<'a>> {
    let member = |i: usize| after.binary_search(&i).is_ok();
    let events = ex.events();
    let reads =
        |j: usize, k: usize| intersects(&events[j].footprint.reads, &events[k].footprint.writes);
    let exact = after.iter().all(|&j| {
        hb.independent_of(j)
            .iter()
            .all(|&k| k < e || member(k) || !reads(j, k))
    });
    exact.then(|| ex.rewound(e, member))
}

/// The memory of `s[E'.w]` and event `n`'s locals there: read off the undo log where
/// that is exact ([`virtual_memory`], with `n`'s locals), else replayed from
/// `prefix`, a snapshot of `s[E']`, when there is one ([`replayed_memory`]).
pub(super) fn memory_after(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    (e, n): (usize, usize),
    w: &[usize],
    prefix: Option<&State>,
    replayed: &mut u64,
) -> Option<(Memory, Vec<Value>)> {
    match virtual_memory(ex, hb, e, w) {
        Some(mem) => Some((mem, ex.entry_locals(n).to_vec())),
        None => replayed_memory(ex, prefix?, n, w, replayed),
    }
}

/// The memory and event `n`'s locals after the events `w` replayed from `state` (each
/// step counted in `replayed`): `None` when `w` cannot run there or leaves `n`'s
/// process at another block.
pub(super) fn replayed_memory(
    ex: &Executor<'_>,
    state: &State,
    n: usize,
    w: &[usize],
    replayed: &mut u64,
) -> Option<(Memory, Vec<Value>)> {
    let (events, procs) = (ex.events(), &ex.state.procs);
    let keys: Vec<Fingerprint> = w.iter().map(|&i| procs[events[i].proc].pid_key).collect();
    let (after, _) = run_from(ex, state, &keys, replayed)?;
    let (key, block) = (procs[events[n].proc].pid_key, events[n].block);
    let q = after.procs.into_iter().find(|q| q.pid_key == key)?;
    (q.next == Some(block)).then(|| (after.mem, Arc::unwrap_or_clone(q).locals))
}
