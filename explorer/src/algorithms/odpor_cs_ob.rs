//! `odpor-cs-ob`: Optimal Context-Sensitive DPOR with Observers (Albert, García de la
//! Banda, Gómez-Zamalloa, Isabel, Stuckey, ISSTA 2019, Sec. 4, Alg. 2): `odpor-ob`'s
//! observer-aware races, found where an execution ends ([`crate::algorithms::odpor_ob`]), with
//! `odpor-cs`'s context-sensitive check of each reversed race kept in don't-do sets
//! ([`crate::algorithms::odpor_cs`]).
//!
//! What is implemented of Alg. 2:
//!
//! - Lines 43–65 (`Explore`) are `odpor-cs`'s, the don't-do sets being sleep entries
//!   (see [`crate::algorithms::odpor_cs`], notes 2–5); lines 66–81 (`RaceDetection`) are
//!   `odpor-ob`'s over the whole execution, `→ob` of [`crate::dependency::observers`] with the end
//!   of the execution observing every location (so equivalent executions reach the
//!   same final states, as `naive` does), unless only violations matter and the
//!   execution is complete ([`crate::dependency::observers::end_reads`], the paper's case).
//! - Lines 69–74 (Sec. 4.1) for an observed write/write race whose observers are
//!   all events: the reversal through them is checked on copies, step by step, to
//!   reach the state the race's original order reaches by the same transitions,
//!   modulo dead values; then it joins `dnd(E')` as a proved sequence
//!   ([`crate::algorithms::odpor_cs_ob::modulo_observers`], which says why the paper's check, on the
//!   observers' effects alone, loses a final state, and why this one does not).
//!   With `--violations-only`, a global no live process may read is dead (the end
//!   reads nothing), so a reversal whose observers see the other value to the same
//!   effect is cut: FR-a(N), lastwrite(N), abs(N) and FR(N) explore one complete
//!   execution. Without it, the raced location must be overwritten by a pending
//!   block before anyone reads it.
//! - Lines 75–78 for every other race `e ⋖ e'` whose reversal joins `wut(E')` (line
//!   79), and for the observed ones where that check fails:
//!   `odpor-cs`'s sequence `ance(e, e', E).e'.I_fut.rest.dep(e, E)` up to `e'`, with
//!   the state `s[pre⁺(E, e')]` it must reach, checked lazily
//!   ([`crate::dpor::Dpor`]`::dont_do_after_observed_race`).
//! - An execution blocked after a don't-do sequence reached its state is analysed for
//!   races like one blocked in a sleep set: its end observes every location (with
//!   `--violations-only`, every location a live process may read:
//!   [`crate::dependency::observers::end_reads`]).
//! - Not in the paper: wherever a step blocks (settled, or run and blocked), the
//!   futures of the processes the covered sequence ran before it (its partners) and
//!   of those chained to them are analysed for races with the execution
//!   ([`crate::dpor::Dpor`]`::future_races`): in the covering executions what
//!   follows a partner happened after the step, here it may race with it. Without
//!   them odpor-cs-ob lost final states of four small-scope programs
//!   (`tests/regressions/odpor_cs_ob_a_settled_step_hides_a_race_with_another_process.ic`).
//!   Their races are found over `→ob` too, where plain happens-before chains a write
//!   of the blocked prefix to the future through a write nothing reads
//!   ([`crate::dpor::Dpor`]`::future_observed_races`: the blocked prefix need not
//!   run the covering one's transitions; `--literal` lost a final state without it).
//!
//! - Sec. 4.2's refined inheritance of don't-do sequences (line 62), its first case: a
//!   sequence `u.p.w` goes down past `p` as `u.w` when `p` commutes with every step
//!   of `u` ([`crate::dpor::sleep::SleepSet::after`], shared with `odpor-cs`). Its second
//!   case (`p` and a step of `u` write the same variables and a later step of `w`
//!   overwrites them before anyone reads them) is not implemented: a prototype
//!   (taking a step that may write them for one that surely does, so lifting more
//!   than the case allows) changed no count on FR(5, 7) and FR-a(4, 6,
//!   8) with `--violations-only`, nor on LW(10), abs(5), Lam, DB_backup(8), BB(8), Fib, QS
//!   and MS with or without it.
//!
//! Not as the paper: its wakeup sequences of observed races keep `odpor-ob`'s
//! `notdep*` whole (Sec. 3.2's shorter one explored more states on DB_backup and
//! lastwrite in our trials), a wakeup sequence extends the leaf that covers it (as
//! odpor-cs's and odpor-ob's, [`crate::dpor::observed_reversals::redundant`] says why), a step run
//! and blocked at a node is not in its `done` set for the redundancy check (nothing
//! below it was explored: `tests/regressions/odpor_cs_ob_a_blocked_step_is_not_done.ic`),
//! and a node whose wakeup tree is spent after a branch was blocked goes on with a
//! fresh process, one per such branch ([`crate::dpor::Dpor`]'s
//! `choose_after_blocked`: the paper's algorithm lost final states without it). The
//! last one costs the most: the paper explores FR-a(8) in 270 states, ours in 2,043
//! (`--violations-only`; 2,757 where the redundancy check keeps ordered a pair
//! overwritten in the prefix by a value read later instead of
//! `Dpor::done_first_elsewhere`; 3,849 where a process whose step alone is redundant
//! there is still chosen), 1,281 without the rule (13 regression programs then
//! disagree with naive). Alg. 2 followed to
//! the letter on FR-a(N) (`benches/scripts/issta19_alg2.py`) explores exactly 2,043
//! and 1,281, with `I_fut` as Sec. 3.2 defines it and as its parenthesis reads: the
//! paper's 270 is not its printed algorithm's on our FR-a.
//!
//! A step confirmed in a don't-do set (lines 25–26) is not run: its races are those
//! of the execution that would end blocked right after it, analysed over `→ob` with
//! the step unrun (`Dpor::analyse_unrun_observed` says why that finds the races running it
//! would, and which probes it leaves out, as `odpor-cs` does), as `odpor-cs`
//! settles such a step (its note 7); `--literal` runs it and blocks, as Alg. 2
//! does. These steps were all of the blocked executions on the benchmarks (FR-a(8):
//! 11,578 in 22,658 states; none in 11,080 settled).
//!
//! Sec. 4.2's first case needs no observability: `E.p.u.w` is Mazurkiewicz-equivalent
//! to `E.u.p.w` and ends in the same state.
//!
//! Soundness: the races and wakeup sequences are `odpor-ob`'s; a don't-do entry blocks
//! an execution only in a state identical (with process identities, modulo dead
//! values) to one explored with its continuations, Lemma 3.3's argument as in
//! `odpor-cs` (and, for Sec. 4.1's, reached by the same transitions). The differential
//! test checks it against `naive`, and that it never explores more complete
//! executions than `odpor`. It may explore more than `odpor-ob`: a blocked execution's
//! end observes every location, so its write/write races that a complete execution
//! would overwrite are reversed too
//! (`tests/regressions/odpor_cs_ob_against_odpor_ob_where_a_blocked_end_observes.ic`: 9
//! executions against 6).

pub mod modulo_observers;

use crate::algorithms::csdpor::ContextSensitive;
use crate::algorithms::odpor_cs::OptimalContextSensitive;
use crate::dependency::footprint::Footprint;
use crate::dpor::parts::Races;
use crate::dpor::sleep::Step;
use crate::dpor::{Equivalent, NewEvent, Parts, Race, Reduction};

pub struct OptimalContextSensitiveObservers {
    /// `odpor-cs`, for its don't-do sequences and its commutation of sleeping steps.
    cs: OptimalContextSensitive,
}

impl OptimalContextSensitiveObservers {
    /// With `context`'s commutation of sleeping steps, if it has one (`odpor-cs`'s
    /// note 6).
    pub fn new(context: ContextSensitive) -> Self {
        OptimalContextSensitiveObservers {
            cs: OptimalContextSensitive::new(context),
        }
    }
}

impl Reduction for OptimalContextSensitiveObservers {
    fn name(&self) -> &'static str {
        "odpor-cs-ob"
    }

    fn parts(&self) -> Parts {
        Parts {
            races: Races::AtTheEnd,
            ..self.cs.parts()
        }
    }

    /// Alg. 2, lines 75–78: `odpor-cs`'s don't-do sequence, for a race presented as
    /// `pre⁺(E, e')` (see the module's doc).
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        self.cs.sleep_after_race(r)
    }

    /// Lines 69–74, checked on every step of the reversal (see
    /// [`crate::algorithms::odpor_cs_ob::modulo_observers`]).
    fn sleep_after_observed_race(
        &mut self,
        r: &mut Race<'_, '_>,
        (e2, observers): (usize, &[usize]),
    ) -> Option<Equivalent> {
        let [original, w] = modulo_observers::sequences(r.events, r.hb, r.e, e2, observers);
        modulo_observers::replay(r, &original, &w).map(Equivalent::Proved)
    }

    /// `odpor-cs`'s commutation of sleeping steps (its note 6).
    fn keep_asleep(&mut self, a: &mut NewEvent<'_, '_>, x: &Step) -> Option<Footprint> {
        self.cs.keep_asleep(a, x)
    }
}
