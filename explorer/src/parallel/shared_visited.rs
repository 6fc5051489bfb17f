//! The states stored by the threads of a parallel stateful search together: one
//! [`Visited`] store cut into shards by fingerprint, each behind its own lock (and
//! on its own cache lines), so that two threads storing states contend only when
//! they fall in the same shard (1 in [`SHARDS`] for uniform fingerprints). Nothing
//! else is shared on the way: a counter every insertion updated cost the threads a
//! fifth of their time, passing its cache line between the cores.

use super::shared_summaries::SharedSummaries;
use crate::fingerprint::Fingerprint;
use crate::visited::Visited;
use std::sync::{Mutex, MutexGuard};

/// Shards of the store: many more than threads, so that locks are rarely contended.
pub const SHARDS: usize = 256;

/// A shard on cache lines of its own.
#[repr(align(128))]
#[derive(Default)]
struct Shard(Mutex<Visited>);

impl Shard {
    fn lock(&self) -> MutexGuard<'_, Visited> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a thread finds of a state stored before ([`SharedVisited::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// The thread that stored it first may still add to what follows it; the word
    /// it stored beside it (below [`FINISHED`]).
    Open(u32),
    /// Everything that follows it is explored, or given to other threads; its
    /// summary was published as this number ([`SharedSummaries`]).
    Finished(u32),
}

/// The word beside a finished state is its summary's number plus this; an open
/// state's, what the thread that stored it put there (less than this).
pub const FINISHED: u32 = 1 << 31;

/// What the word beside a state says.
fn stored(word: u32) -> Stored {
    match word.checked_sub(FINISHED) {
        Some(summary) => Stored::Finished(summary),
        None => Stored::Open(word),
    }
}

pub struct SharedVisited {
    shards: Vec<Shard>,
    /// The summaries of the states finished, for a search that makes them.
    pub summaries: SharedSummaries,
}

impl Default for SharedVisited {
    fn default() -> Self {
        SharedVisited {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            summaries: SharedSummaries::default(),
        }
    }
}

impl SharedVisited {
    /// Stores `state`; whether it was new (to every thread: exactly one thread
    /// stores each state first).
    pub fn insert(&self, state: Fingerprint) -> bool {
        self.shard(state).lock().insert(state).1
    }

    /// Stores `state` as open, with `word` (less than [`FINISHED`]) beside it, unless
    /// it is stored: then what it is. For the searches that must know which thread
    /// stored a state and whether it has finished with it
    /// ([`crate::stateful::search`] on threads).
    pub fn claim(&self, state: Fingerprint, word: u32) -> Option<Stored> {
        let found = self.shard(state).lock().claim(state, word);
        found.map(stored)
    }

    /// What `state` is, if stored ([`SharedVisited::claim`] without storing it).
    pub fn stored(&self, state: Fingerprint) -> Option<Stored> {
        let found = self.shard(state).lock().get(state);
        found.map(stored)
    }

    /// The thread that stored `state` has finished with it, and published its
    /// summary as `summary`.
    pub fn finish(&self, state: Fingerprint, summary: u32) {
        self.shard(state).lock().set(state, FINISHED + summary);
    }

    fn shard(&self, state: Fingerprint) -> &Shard {
        // The high bits: the shard's own table hashes by the low ones.
        &self.shards[(state >> 120) as usize % SHARDS]
    }

    /// The states stored (each shard locked in turn: for reports, not for every step).
    pub fn len(&self) -> u64 {
        self.shards.iter().map(|s| s.lock().len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the shards' tables hold ([`Visited::bytes`], added up).
    pub fn bytes(&self) -> u64 {
        self.shards.iter().map(|s| s.lock().bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_is_new_once_whatever_thread_stores_it() {
        let store = SharedVisited::default();
        let news = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..10_000u128)
                            .filter(|&i| {
                                store.insert(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) << 7 | i)
                            })
                            .count()
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().unwrap())
                .sum::<usize>()
        });
        assert_eq!(news, 10_000);
        assert_eq!(store.len(), 10_000);
        assert!(store.bytes() > 0);
    }

    #[test]
    fn a_state_is_open_with_its_word_until_finished_with_its_summary() {
        let store = SharedVisited::default();
        assert_eq!(store.claim(7, 3), None);
        assert_eq!(store.stored(7), Some(Stored::Open(3)));
        assert_eq!(store.claim(7, 5), Some(Stored::Open(3)));
        assert_eq!(store.stored(8), None);
        store.finish(7, 0);
        assert_eq!(store.claim(7, 5), Some(Stored::Finished(0)));
        store.finish(7, 41);
        assert_eq!(store.stored(7), Some(Stored::Finished(41)));
    }
}
