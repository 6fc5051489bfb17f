//! `ocdpor`: Optimal-DPOR with cdpor's independence constraints — beyond both
//! papers (issue 14). Two parts:
//!
//! 1. **The finer dependency** (all of `ocdpor --literal`): the transition
//!    footprints' conflicts minus `R` (see [`crate::dependency::constraints`]): two events whose
//!    footprints conflict but whose blocks have a constraint that holds whatever the
//!    state (or throughout the ranges the search's states stay in) commute, as a
//!    property of the two events. With that finer dependency, Optimal-DPOR's argument
//!    (JACM 2017, Thm. 6.7) applies as is: `R` is used where Optimal-DPOR uses
//!    independence — races (line 9: not reversed, recorded in happens-before), weak
//!    initials in the wakeup trees, and sleep sets (a sleeping step stays asleep after
//!    an event it commutes with) — but not to take a sleeping process as a weak
//!    initial beside a wakeup sequence, which footprints alone decide (see
//!    `crate::dpor::wakeup_tree::weak_initial_in_order`: with `R`, ocdpor lost a final state).
//!    Nothing rests on state equality: one complete execution per trace of the finer
//!    relation, and none blocked (in programs without `await`).
//! 2. **The state checks** (by default): cdpor's lines 11–14 for each reversed race
//!    (a constraint that holds in `s[E'.û]` proves the reversal reaches a state of
//!    `E.p`; otherwise csdpor's lazy check), kept as odpor-cs keeps its don't-do
//!    sequences, and cdpor's line 17 with csdpor's commutation of sleeping steps,
//!    as odpor-cs's note 6 (a step kept so is a don't-do step, whose races right
//!    after the event it was kept past are analysed without running it, note 7). What they block is a state reached before with
//!    its continuations, Lemma 3.3's argument as in [`crate::algorithms::odpor_cs`]; they never
//!    add a complete execution to part 1's (the differential test checks it). On the
//!    producer–consumer this gives cdpor's 2^N executions where part 1 alone explores
//!    C(2N, N): the constraints of a producer and a consumer hold only in some states.

use crate::algorithms::cdpor::Constrained;
use crate::algorithms::csdpor::ContextSensitive;
use crate::dependency::footprint::Footprint;
use crate::dpor::parts::{Frontier, States};
use crate::dpor::sleep::Step;
use crate::dpor::{Equivalent, LineNine, NewEvent, Parts, Race, Reduction};
use frontend::ics::ResolvedIcs;
use std::sync::Arc;

pub struct OptimalConstrained {
    /// cdpor: its line 9 (without private globals), and its state checks when
    /// `states`.
    cdpor: Constrained,
    /// cdpor's lines 11–17 and odpor-cs's don't-do sequences (the module's second
    /// part); without them, the search is optimal for the finer dependency.
    states: bool,
}

impl OptimalConstrained {
    /// Optimal-DPOR with `R` only (`--literal`): one complete execution per trace of
    /// the finer dependency.
    pub fn new(ics: Arc<ResolvedIcs>) -> Self {
        OptimalConstrained {
            cdpor: Constrained::optimal(ics, ContextSensitive::literal()),
            states: false,
        }
    }

    /// With cdpor's state checks and `context`'s commutation of sleeping steps, if it
    /// has one (the default).
    pub fn context_sensitive(ics: Arc<ResolvedIcs>, context: ContextSensitive) -> Self {
        OptimalConstrained {
            cdpor: Constrained::optimal(ics, context),
            states: true,
        }
    }
}

impl Reduction for OptimalConstrained {
    fn name(&self) -> &'static str {
        "ocdpor"
    }

    fn parts(&self) -> Parts {
        let states = if self.states {
            self.cdpor.parts().states
        } else {
            States::Unchecked
        };
        Parts {
            frontier: Frontier::WakeupTrees,
            states,
            ..self.cdpor.parts()
        }
    }

    fn line_nine(&mut self, r: &mut Race<'_, '_>) -> LineNine {
        self.cdpor.line_nine(r)
    }

    /// cdpor's lines 11–14: a reversed race proved or checked to reach a state of
    /// `E.p` joins `dnd(E')`, as odpor-cs's don't-do sequences do.
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        self.states
            .then(|| self.cdpor.sleep_after_race(r))
            .flatten()
    }

    /// cdpor's line 17 and csdpor's commutation: a sleeping step that commutes with
    /// `n` in `s[E]` stays, as a confirmed don't-do step (odpor-cs's note 6).
    fn keep_asleep(&mut self, a: &mut NewEvent<'_, '_>, x: &Step) -> Option<Footprint> {
        self.states.then(|| self.cdpor.keep_asleep(a, x)).flatten()
    }
}
