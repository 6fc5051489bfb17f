//! The states stored by the threads of a parallel stateful search together: one
//! [`Visited`] store cut into shards by fingerprint, each behind its own lock (and
//! on its own cache lines), so that two threads storing states contend only when
//! they fall in the same shard (1 in [`SHARDS`] for uniform fingerprints). Nothing
//! else is shared on the way: a counter every insertion updated cost the threads a
//! fifth of their time, passing its cache line between the cores.

use super::shared_summaries::SharedSummaries;
use crate::fingerprint::Fingerprint;
use crate::visited::Visited;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// What a thread holds besides the store, on cache lines of its own.
#[repr(align(128))]
#[derive(Default)]
struct Held(AtomicU64);

pub struct SharedVisited {
    shards: Vec<Shard>,
    /// The summaries of the states finished, for a search that makes them.
    pub summaries: SharedSummaries,
    /// What each thread holds besides the store (the transitions it keeps, its
    /// summaries), by thread, as it last said ([`SharedVisited::hold`]).
    held: Vec<Held>,
}

impl SharedVisited {
    /// The store of `threads` threads.
    pub fn new(threads: usize) -> Self {
        SharedVisited {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            summaries: SharedSummaries::default(),
            held: (0..threads).map(|_| Held::default()).collect(),
        }
    }

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

    /// Thread `me` holds `bytes` besides the store.
    pub fn hold(&self, me: usize, bytes: u64) {
        self.held[me].0.store(bytes, Ordering::Relaxed);
    }

    /// The bytes of the search on every thread, as each thread last said what it
    /// holds, but `me`'s (`None`: every thread's): the store's tables, the published
    /// summaries and what the threads hold ([`Config::max_memory`] counts them all).
    ///
    /// [`Config::max_memory`]: crate::Config::max_memory
    pub fn weight_besides(&self, me: Option<usize>) -> u64 {
        let held: u64 = (self.held.iter().enumerate())
            .filter(|&(t, _)| Some(t) != me)
            .map(|(_, h)| h.0.load(Ordering::Relaxed))
            .sum();
        self.bytes() + self.summaries.bytes() + held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_is_new_once_whatever_thread_stores_it() {
        let store = SharedVisited::new(4);
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

    /// The search's weight is the store's tables, the published summaries and what
    /// each thread last said it holds; a thread weighs the others' with its own
    /// left out (it adds what it holds now).
    #[test]
    fn the_weight_counts_what_every_thread_holds_and_the_summaries() {
        let store = SharedVisited::new(2);
        store.insert(7);
        let tables = store.bytes();
        assert!(tables > 0);
        assert_eq!(store.weight_besides(None), tables);
        store.hold(0, 1_000);
        store.hold(1, 300);
        assert_eq!(store.weight_besides(Some(0)), tables + 300);
        assert_eq!(store.weight_besides(Some(1)), tables + 1_000);
        assert_eq!(store.weight_besides(None), tables + 1_300);
        store.hold(1, 100);
        assert_eq!(store.weight_besides(Some(0)), tables + 100);
        let summary = super::super::shared_summaries::Published {
            rows: vec![(1, vec![0, 1, 2], vec![3])],
        };
        store.summaries.publish(summary);
        let summaries = store.summaries.bytes();
        // The row (a key and two vectors, beside its counts) and its four numbers,
        // then the summary: the number of its row, beside its counts.
        assert!(summaries >= (16 + 64 + 16) + (16 + 4), "{summaries}");
        assert_eq!(store.weight_besides(None), tables + 1_100 + summaries);
    }

    #[test]
    fn a_state_is_open_with_its_word_until_finished_with_its_summary() {
        let store = SharedVisited::new(4);
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
