//! The states a stateful search has stored, by hash compaction: each state is kept as
//! its 128-bit fingerprint ([`crate::fingerprint`]) with process identities
//! ([`crate::state::State::fingerprint_with_identities`]), never as the state itself.
//!
//! Two distinct states with the same fingerprint would make the search take the second
//! for the first and skip what follows it. With `n` states stored, the probability
//! that any two of them share a fingerprint is at most `n² / 2^129` (the birthday
//! bound over 128 bits): about 1.5 · 10^-23 for 10^8 states, 1.5 · 10^-19 for 10^10.
//! SPIN's default hash compaction keeps 64 bits or fewer.

use crate::fingerprint::Fingerprint;
use rustc_hash::FxHashSet;

/// The fingerprints of the stored states.
#[derive(Debug, Default)]
pub struct Visited {
    set: FxHashSet<Fingerprint>,
}

impl Visited {
    /// Stores `state`; whether it was new.
    pub fn insert(&mut self, state: Fingerprint) -> bool {
        self.set.insert(state)
    }

    /// How many states are stored.
    pub fn len(&self) -> u64 {
        self.set.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The bytes the store holds: its table's slots (a fingerprint and a control
    /// byte each; the table keeps 8 slots for each 7 it may fill), whatever is in
    /// them.
    pub fn bytes(&self) -> u64 {
        let slot = std::mem::size_of::<Fingerprint>() as u64 + 1;
        self.set.capacity() as u64 * 8 / 7 * slot
    }
}
