//! `ocdpor`: Optimal-DPOR with cdpor's independence constraints — beyond both
//! papers (issue 14). The dependency is the transition footprints' conflicts minus
//! `R` (see [`crate::independence`]): two events whose footprints conflict but whose
//! blocks have a constraint that holds whatever the state (or throughout the ranges
//! the search's states stay in) commute, as a property of the two events. With that
//! finer dependency, Optimal-DPOR's argument (JACM 2017, Thm. 6.7) applies as is:
//! `R` is used where Optimal-DPOR uses independence — races (line 9: not reversed,
//! recorded in happens-before), weak initials in the wakeup trees, and sleep sets
//! (a sleeping step stays asleep after an event it commutes with) — but not to take a
//! sleeping process as a weak initial beside a wakeup sequence, which footprints alone
//! decide (see [`crate::wakeup_tree::weak_initial`]: with `R`, ocdpor lost a final
//! state). Nothing rests on
//! state equality, so none of cdpor's sleep sequences (lines 11–17) are used: one
//! complete execution per trace of the finer relation, and none blocked (in programs
//! without `await`).

use crate::dpor::{Race, Reduction};
use crate::independence::LineNine;
use crate::state::State;
use frontend::ics::ResolvedIcs;
use frontend::ir::{BlockId, Program};
use frontend::value::Value;
use std::sync::Arc;

pub struct OptimalConstrained {
    line9: LineNine,
}

impl OptimalConstrained {
    pub fn new(ics: Arc<ResolvedIcs>) -> Self {
        OptimalConstrained {
            line9: LineNine::new(ics),
        }
    }
}

impl Reduction for OptimalConstrained {
    fn name(&self) -> &'static str {
        "ocdpor"
    }

    /// For the initial state, which the ranges of `R` start from.
    fn snapshots(&self) -> bool {
        true
    }

    fn must_reverse(&mut self, r: &mut Race<'_, '_>) -> bool {
        !self.line9.race(r, false)
    }

    fn independent(
        &mut self,
        program: &Program,
        initial: &State,
        max_depth: Option<usize>,
        x: (BlockId, &[Value]),
        y: (BlockId, &[Value]),
    ) -> bool {
        self.line9.commute(program, initial, max_depth, x, y)
    }

    fn optimal(&self) -> bool {
        true
    }
}
