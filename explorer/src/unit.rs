//! Where one unit of a parallel search starts ([`crate::parallel`]).

use crate::dpor::sleep::SleepSet;

/// A subtree of the search: the processes (indices, as the frontier ran them) of the
/// path from the initial state to it, and the steps asleep where it starts.
#[derive(Clone, Debug)]
pub struct Unit {
    pub path: Vec<usize>,
    pub sleep: SleepSet,
}
