//! `odpor-cs-ob`: Optimal Context-Sensitive DPOR with Observers (Albert, García de la
//! Banda, Gómez-Zamalloa, Isabel, Stuckey, ISSTA 2019, Sec. 4, Alg. 2): `odpor-ob`'s
//! observer-aware races, found where an execution ends ([`crate::odpor_ob`]), with
//! `odpor-cs`'s context-sensitive check of each reversed race kept in don't-do sets
//! ([`crate::odpor_cs`]).
//!
//! What is implemented of Alg. 2:
//!
//! - Lines 43–65 (`Explore`) are `odpor-cs`'s, the don't-do sets being sleep entries
//!   (see [`crate::odpor_cs`], notes 2–5); lines 66–81 (`RaceDetection`) are
//!   `odpor-ob`'s over the whole execution, `→ob` of [`crate::observers`] with the end
//!   of the execution observing every location (so equivalent executions reach the
//!   same final states, as `naive` does), unless only violations matter and the
//!   execution is complete ([`crate::observers::end_observes`], the paper's case).
//! - Lines 75–78 for every race `e ⋖ e'` whose reversal joins `wut(E')` (line 79):
//!   `odpor-cs`'s sequence `ance(e, e', E).e'.I_fut.rest.dep(e, E)` up to `e'`, with
//!   the state `s[pre⁺(E, e')]` it must reach, checked lazily
//!   ([`crate::dpor::Dpor`]`::dont_do_after_observed_race`). The paper applies that
//!   check to the races no observer reads; we apply it to the observed write/write
//!   races too (the "union" algorithm of Sec. 4's first paragraph), where the paper
//!   applies the refined check of lines 69–74 instead.
//! - An execution blocked after a don't-do sequence reached its state is analysed for
//!   races like one blocked in a sleep set: its end observes every location.
//!
//! - Sec. 4.2's refined inheritance of don't-do sequences (line 62), its first case: a
//!   sequence `u.p.w` goes down past `p` as `u.w` when `p` commutes with every step
//!   of `u` ([`crate::sleep::SleepSet::after`], shared with `odpor-cs`). Its second
//!   case (`p` and a step of `u` write the same variables and a later step of `w`
//!   overwrites them before anyone reads them) is not implemented.
//!
//! Not implemented (so `odpor-cs-ob` may explore more than the paper's algorithm,
//! never less than what it must): the check modulo observability of Sec. 4.1 (lines
//! 69–74: an observed write/write race whose observers see the same values in both
//! orders). Where the end of an execution observes a location, equivalence modulo
//! observability is state equality of that location, so Sec. 4.1 gains only on races
//! whose value a later write of the execution overwrites.
//!
//! Why not Sec. 4.1: the paper proves Alg. 2 sound modulo observability (Theorem
//! 4.5), which lets final values nobody reads differ; our contract is `naive`'s final
//! states exactly (but for `--violations-only`), and the end-of-execution observer is
//! not an event that proof covers. Nor as a state check after the last observer (the don't-do sequence
//! continued to the observer, blocking where the state after it is reached modulo
//! dead values): the observers read another value there, so they and the events of
//! their processes after them are other transitions than in `E`, with other races
//! with what follows, which a blocked execution never shows. It lost a final state
//! (`regressions::odpor_cs_ob_observers_after_a_reversed_race_are_other_events`).
//!
//! Sec. 4.2's first case needs no observability: `E.p.u.w` is Mazurkiewicz-equivalent
//! to `E.u.p.w` and ends in the same state.
//!
//! Soundness: the races and wakeup sequences are `odpor-ob`'s; a don't-do entry blocks
//! an execution only in a state identical (with process identities) to one explored
//! with its continuations, Lemma 3.3's argument as in `odpor-cs`. The differential
//! test checks it against `naive`, and that it never explores more complete
//! executions than `odpor`. It may explore more than `odpor-ob`: a blocked execution's
//! end observes every location, so its write/write races that a complete execution
//! would overwrite are reversed too
//! (`regressions::odpor_cs_ob_against_odpor_ob_where_a_blocked_end_observes`: 9
//! executions against 6).

use crate::csdpor::ContextSensitive;
use crate::dpor::{Around, Equivalent, Race, Reduction};
use crate::footprint::Footprint;
use crate::odpor_cs::OptimalContextSensitive;
use crate::sleep::Step;

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

    /// The check of a reversed race needs the states of the path.
    fn snapshots(&self) -> bool {
        true
    }

    /// Alg. 2, lines 75–78: `odpor-cs`'s don't-do sequence, for a race presented as
    /// `pre⁺(E, e')` (see the module's doc).
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        self.cs.sleep_after_race(r)
    }

    /// Line 53 guided by the don't-do sequences (`odpor-cs`'s note 4).
    fn guided(&self) -> bool {
        true
    }

    fn optimal(&self) -> bool {
        true
    }

    /// Its don't-do sequences block executions (see `WakeupTree::insert`).
    fn blocks_by_state(&self) -> bool {
        true
    }

    fn observers(&self) -> bool {
        true
    }

    /// `odpor-cs`'s commutation of sleeping steps (its note 6).
    fn keep_asleep(&mut self, a: &mut Around<'_, '_>, x: &Step) -> Option<Footprint> {
        self.cs.keep_asleep(a, x)
    }
}
