//! The states a stateful search has stored, by hash compaction: each state is kept as
//! its 128-bit fingerprint ([`crate::fingerprint`]) with process identities
//! ([`crate::state::State::fingerprint_with_identities`]), never as the state itself.
//!
//! Two distinct states with the same fingerprint would make the search take the second
//! for the first and skip what follows it. With `n` states stored, the probability
//! that any two of them share a fingerprint is at most `n² / 2^129` (the birthday
//! bound over 128 bits): about 1.5 · 10^-23 for 10^8 states, 1.5 · 10^-19 for 10^10.
//! SPIN's default hash compaction keeps 64 bits or fewer. The store that threads
//! share keeps 96 of the bits ([`crate::parallel::shared_table`]).
//!
//! States are numbered in the order they are stored ([`StateId`]), so that a search
//! that keeps more about each (the explored graph of the source-set searches, the
//! state graph of the liveness check) keeps it in vectors, with no table of its own.
//! The table holds each fingerprint beside its number: a state found again costs one
//! probe of the table, not a second read elsewhere.

use crate::fingerprint::Fingerprint;
use hashbrown::HashTable;

/// A stored state, numbered from 0 in the order the search stored them.
pub type StateId = u32;

/// A fingerprint as four 32-bit words: 4-byte aligned, so that a slot of the table,
/// with the state's number, takes 20 bytes rather than the 32 of a 16-byte aligned
/// `u128`.
type Key = [u32; 4];

fn key(state: Fingerprint) -> Key {
    [0, 32, 64, 96].map(|shift| (state >> shift) as u32)
}

/// The table's hash of a key: its low 64 bits (a fingerprint is already uniform).
fn hash(k: &Key) -> u64 {
    u64::from(k[0]) | (u64::from(k[1]) << 32)
}

/// The fingerprints of the stored states.
#[derive(Debug, Default)]
pub struct Visited {
    /// Each state's fingerprint and number.
    table: HashTable<(Key, StateId)>,
}

impl Visited {
    /// Stores `state`: its number, and whether it was new.
    pub fn insert(&mut self, state: Fingerprint) -> (StateId, bool) {
        let k = key(state);
        let next = self.table.len() as StateId;
        let entry = self
            .table
            .entry(hash(&k), |(e, _)| *e == k, |(e, _)| hash(e));
        match entry {
            hashbrown::hash_table::Entry::Occupied(e) => (e.get().1, false),
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert((k, next));
                (next, true)
            }
        }
    }

    /// How many states are stored.
    pub fn len(&self) -> u64 {
        self.table.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The bytes the store holds: its table's slots (a fingerprint, a number and a
    /// control byte each; the table keeps 8 slots for each 7 it may fill), whatever
    /// is in them.
    pub fn bytes(&self) -> u64 {
        let slot = std::mem::size_of::<(Key, StateId)>() as u64 + 1;
        self.table.capacity() as u64 * 8 / 7 * slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_numbered_in_the_order_stored() {
        let mut v = Visited::default();
        assert_eq!(v.insert(7), (0, true));
        assert_eq!(v.insert(1 << 64), (1, true));
        assert_eq!(v.insert(7), (0, false));
        assert_eq!(v.insert((1 << 64) | 7), (2, true));
        assert_eq!(v.insert(1 << 64), (1, false));
        assert_eq!(v.len(), 3);
    }
}
