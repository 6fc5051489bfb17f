//! ISSTA'19 Sec. 4.1 (Alg. 2, lines 69–74) for `odpor-cs-ob`: an observed
//! write/write race `e ⋖ e'` whose reversal leaves its observers as they were.
//!
//! The paper's check: with `o` the last observer of the race in `E`, the sequence
//! `E'.v` that runs `e'` before `e` and then the observers is *equivalent modulo
//! observability* to `E` when each observer has the same effect in both (an
//! assertion the same outcome, an assignment the same value); `v` then joins
//! `dnd(E')`. Taken as the paper states it, it is unsound: the observers read
//! another value in `E'.v`, so they, and the later events of their processes, may be
//! other transitions than in `E`, whose races with what follows no exploration shows
//! (a state check after the last observer lost a final state so:
//! `tests/regressions/odpor_cs_ob_observers_after_a_reversed_race_are_other_events.ic`).
//!
//! What is checked here instead, on copies, before anything joins `dnd(E')`:
//!
//! - `Q` ([`sequences`]): `e`, `e'`, the observers, and every event after `e` that
//!   happens (`→ob`) before `e'` or an observer. It holds the predecessors of its
//!   events, so `E'.original` (`Q` in the order of `E`) runs every event as `E` runs
//!   it, and reaches a state of an execution that starts like `E` (with `e`, then the
//!   events of `Q`, the others of `E` commuting past them) — with `e` before `e'`,
//!   so not blocked by what is added here.
//! - `w`: `Q` with the race reversed — the events of `Q` not after `e`, then `e'`,
//!   `e`, then the others, each group in the order of `E`.
//! - Run from `s[E']`, every step of both is the same transition as its event in
//!   `E` ([`replay`]): it runs, does not fail, has the same footprint and wrote the
//!   same locations, and leaves its process as state equality sees it (next block,
//!   live locals) as in `E`. In `w`, what a step wrote may hold another value than
//!   in `E` only at a global that is dead at the end of `w`.
//! - The states at the ends of `w` and of `original` are equal modulo dead values
//!   ([`crate::state::State::dead_globals`]; with `--violations-only`, a global no
//!   live process may read is dead too): `x` itself must be dead there, or written
//!   the same value by `e` and `e'`.
//!
//! Then `w` joins `dnd(E')` as a sequence *proved* to reach a covered state, with the
//! footprints its steps had: an execution from `E'` that runs `w` (up to
//! independent events between) is blocked at its end. Why nothing is lost:
//!
//! 1. The state reached is that of `E'.original` up to dead values, whose
//!    continuations are explored from `E'` through `e` (the executions that run `e`
//!    before `e'` are not blocked by `w`); dead values are never read by any
//!    continuation (or are overwritten first by a block every continuation runs), so
//!    the same events follow with the same reads, and reach the same violations,
//!    deadlocks and (where the end reads the memory) final states — Lemma 3.3's
//!    argument of the don't-do sets, as in `odpor-cs`.
//! 2. Every step of `w` is the transition it was in `E`, footprint included: the
//!    races any continuation shows with them are the races `E`'s continuations show,
//!    which is what the paper's check leaves unchecked (its observers, and the steps
//!    of their processes after them, may be other transitions). The independence
//!    the entry travels down by is that of these very footprints.
//! 3. A value that differs while `w` runs (`x` itself, between `e'` and `e`, and any
//!    value written differently) is dead at its end: no process live there, nor any
//!    it may spawn, reads it before a write every continuation runs; so an execution
//!    that leaves `w` part-way can read it only in events of processes whose steps
//!    in `w` are all done — the same steps, placed elsewhere, whose races with the
//!    steps of `w` the blocked execution's race analysis shows.
//!
//! The check is stronger than the paper's (all of `w`'s steps, not only the
//! observers' effects), so it applies less often; where it fails, the race's
//! don't-do sequence of lines 75–78 is added instead (`odpor-cs`'s state check at
//! `e'`). The wakeup sequence `v` of the race is `odpor-ob`'s, as before. The
//! differential test checks all of it against `naive`, with programs built for it
//! (observers with the same effect for several values, spawns after them).

use crate::dependency::happens_before::HappensBefore;
use crate::dpor::sleep::Step;
use crate::dpor::Race;
use crate::executor::Event;
use crate::state::State;
use frontend::ir::GlobalId;

/// The events of the check for the race of `e` with `e2` (`e'`), `observers` being
/// its observers in `events` (which end at the last one): `Q`, `e`, `e2`, the
/// observers and every event after `e` that happens before one of them — in the
/// order of `events` (`original`) and with the race reversed (`w`: the events of `Q`
/// not after `e` in `hb`, then `e2`, `e`, then the others, each group in order).
///
/// `Q` holds every predecessor of its events after `e`, so `E'.original` runs each
/// event as `E` does (what it reads was last written by a predecessor); and `w` is a
/// sequence: an event not after `e` is not after `e2` either (`e →ob e2`, the pair
/// being observed), so none needs `e2` first.
pub fn sequences(
    events: &[Event],
    hb: &HappensBefore,
    e: usize,
    e2: usize,
    observers: &[usize],
) -> [Vec<usize>; 2] {
    let needed = |k: usize| {
        k == e2
            || hb.before(events, k, e2)
            || observers.iter().any(|&o| o == k || hb.before(events, k, o))
    };
    let q: Vec<usize> = (e + 1..events.len()).filter(|&k| needed(k)).collect();
    let after_e = |k: &usize| *k != e2 && hb.before(events, e, *k);
    let mut w: Vec<usize> = q
        .iter()
        .copied()
        .filter(|&k| k != e2 && !after_e(&k))
        .collect();
    w.push(e2);
    w.push(e);
    w.extend(q.iter().copied().filter(after_e));
    let original = std::iter::once(e).chain(q).collect();
    [original, w]
}

/// Runs `original` and `w` ([`sequences`]) from `s[E']` on copies and checks that
/// `w` reaches the state `original` reaches by the same transitions as `E` runs
/// (see the module's doc; `original`'s steps are checked so too). The steps of `w`
/// with their footprints when it does; the events run are counted as replayed.
pub fn replay(r: &mut Race<'_, '_>, original: &[usize], w: &[usize]) -> Option<Vec<Step>> {
    let program = r.program;
    let mut unrun = None;
    let covered = run_as_in_e(r, original, &mut unrun)?;
    let reversed = run_as_in_e(r, w, &mut unrun)?;
    let dead = reversed.state.dead_globals(program, r.end_reads);
    let all_dead = reversed
        .differ
        .iter()
        .all(|g| dead.binary_search(g).is_ok());
    let same = all_dead
        && covered.differ.is_empty()
        && reversed
            .state
            .same_with_identities(&covered.state, program, r.end_reads);
    same.then_some(reversed.steps)
}

/// A sequence run by [`run_as_in_e`].
struct Run {
    state: State,
    steps: Vec<Step>,
    /// The globals a step wrote another value to than its event in `E`.
    differ: Vec<GlobalId>,
}

/// The last observer as the copy of `original` ran it, where `E` holds it unrun
/// (odpor-cs-ob's settled steps, `Dpor::analyse_unrun_observed`): what the copy of `w`
/// must run it as.
struct Unrun {
    event: Event,
    after: State,
}

/// Runs the events `seq` of `E` from `s[E']` on a copy: `None` unless each runs and
/// is the transition it is in `E` but for the values it writes (same footprint,
/// locations written, and its process after it as state equality sees it). The last
/// event of `E`, when it was not run (recorded failed: a step that ran and failed
/// fails in the copy too, which returns `None`), is taken as the first copy runs it
/// (`unrun`), and the second must run it so.
fn run_as_in_e(r: &mut Race<'_, '_>, seq: &[usize], unrun: &mut Option<Unrun>) -> Option<Run> {
    let program = r.program;
    let o = r.n();
    let mut ex = r.ex.fork(r.snapshots[r.e].clone());
    let mut steps = Vec::with_capacity(seq.len());
    let mut differ = Vec::new();
    for &i in seq {
        let recorded = &r.events[i];
        let key = r.state.procs[recorded.proc].pid_key;
        let p = ex.state.procs.iter().position(|q| q.pid_key == key)?;
        if !ex.is_enabled(p) {
            return None;
        }
        r.stats.pruning.replayed_events += 1;
        // A failed block is an `Err`.
        let event = ex.step(p).ok()?;
        let unrun_here = i == o && recorded.failed;
        if unrun_here && unrun.is_none() {
            let event = event.clone();
            steps.push(Step {
                process: key,
                footprint: event.footprint.clone(),
            });
            *unrun = Some(Unrun {
                event,
                after: ex.state.clone(),
            });
            continue;
        }
        let (original, then) = match unrun.as_ref().filter(|_| unrun_here) {
            Some(u) => (&u.event, &u.after),
            // `s[E]` after event `i`.
            None if i == o => (recorded, r.state),
            None => (recorded, &r.snapshots[i + 1]),
        };
        if event.footprint != original.footprint || event.written != original.written {
            return None;
        }
        let footprint = event.footprint.clone();
        let was = then.procs.iter().find(|q| q.pid_key == key)?;
        if !ex.state.procs[p].same_live(was, program) {
            return None;
        }
        differ.extend(
            original
                .written
                .iter()
                .filter(|&&l| !ex.state.mem.same_at(&then.mem, program, l))
                .map(|l| l.global),
        );
        steps.push(Step {
            process: key,
            footprint,
        });
    }
    Some(Run {
        state: ex.state,
        steps,
        differ,
    })
}
