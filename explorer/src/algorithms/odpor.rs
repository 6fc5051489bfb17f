//! `odpor`: Optimal-DPOR (Abdulla, Aronis, Jonsson, Sagonas, JACM 2017, Alg. 2): the
//! skeleton of [`crate::dpor`] with wakeup trees instead of backtrack sets (see
//! [`crate::dpor::wakeup_tree`]). With sleep sets, it explores exactly one complete
//! execution per Mazurkiewicz trace and none that ends blocked in a sleep set —
//! Source-DPOR's `sdpor` may explore many of those.

use crate::dpor::parts::Frontier;
use crate::dpor::{Parts, Reduction};

#[derive(Default)]
pub struct OptimalDpor;

impl Reduction for OptimalDpor {
    fn name(&self) -> &'static str {
        "odpor"
    }

    fn parts(&self) -> Parts {
        Parts {
            frontier: Frontier::WakeupTrees,
            ..Parts::SOURCE_DPOR
        }
    }
}
