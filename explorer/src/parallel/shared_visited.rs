//! The states stored by the threads of a parallel stateful search together, in one
//! table without locks ([`SharedTable`]): exactly one thread stores each state
//! first. Nothing else is shared on the way: a counter every insertion updated cost
//! the threads a fifth of their time, passing its cache line between the cores.
//!
//! A search that must know whether the thread that stored a state has finished with
//! it ([`SharedVisited::claim`]) stores beside the state, once, which thread stored
//! it and under which number; that thread says it has finished in an array of its
//! own ([`Finishes`]), which only it writes. So the word beside a state never
//! changes, and a new state costs one probe of the table.

use super::shared_summaries::SharedSummaries;
use super::shared_table::SharedTable;
use crate::fingerprint::Fingerprint;
use crate::stateful::summaries::SUMMARY;
use crate::visited::StateId;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

/// What a thread finds of a state stored before ([`SharedVisited::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// This thread stored it first, under this number, finished with it or not (its
    /// own graph tells which, as on one thread).
    Mine(StateId),
    /// Another thread stored it first and may still add to what follows it.
    Open,
    /// Another thread stored it first, and everything that follows it is explored,
    /// or given to other threads; its summary was published as this number
    /// ([`SharedSummaries`]).
    Finished(u32),
}

/// More states than the word beside a state can tell apart, with the thread that
/// stored each ([`SharedVisited::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany;

/// Words of the array a segment holds, for the first; each next one holds twice
/// the one before.
const FIRST_SEGMENT: u32 = 1 << 10;

/// Segments enough for every number a state may have (below `u32::MAX`).
const SEGMENTS: usize = 23;

/// One thread's word for each state it stored first, by the number it stored it
/// under: 0 while the state is open, its summary's number plus one once the thread
/// has finished with it. Only that thread writes it; every thread reads it. It grows
/// by segments that never move, each made (zeroed) by the thread before it stores a
/// state whose number falls in it: a reader that found the state finds its word,
/// never one being moved.
#[repr(align(128))]
#[derive(Default)]
struct Finishes {
    segments: [OnceLock<Box<[AtomicU32]>>; SEGMENTS],
}

impl Finishes {
    /// The segment of number `id`, and its place there.
    fn locate(id: StateId) -> (usize, usize) {
        let j = u64::from(id) + u64::from(FIRST_SEGMENT);
        let segment = (j.ilog2() - FIRST_SEGMENT.ilog2()) as usize;
        (
            segment,
            (j - (u64::from(FIRST_SEGMENT) << segment)) as usize,
        )
    }

    fn word(&self, id: StateId) -> Option<&AtomicU32> {
        let (segment, at) = Self::locate(id);
        self.segments[segment].get().map(|words| &words[at])
    }

    /// Makes the word of number `id` (by its thread alone).
    fn make(&self, id: StateId) {
        let (segment, _) = Self::locate(id);
        self.segments[segment].get_or_init(|| {
            let len = (FIRST_SEGMENT as usize) << segment;
            (0..len).map(|_| AtomicU32::new(0)).collect()
        });
    }

    /// The summary the thread published for state `id`, if it has finished with it.
    fn finished(&self, id: StateId) -> Option<u32> {
        let word = self.word(id)?.load(Ordering::Acquire);
        word.checked_sub(1)
    }

    fn bytes(&self) -> u64 {
        let words: usize = (self.segments.iter())
            .filter_map(|s| s.get().map(|words| words.len()))
            .sum();
        (words * std::mem::size_of::<AtomicU32>()) as u64
    }
}

/// What a thread holds besides the store, on cache lines of its own.
#[repr(align(128))]
#[derive(Default)]
struct Held(AtomicU64);

pub struct SharedVisited {
    table: SharedTable,
    /// By thread, whether it has finished with the states it stored first.
    finishes: Vec<Finishes>,
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
            table: SharedTable::new(threads),
            finishes: (0..threads).map(|_| Finishes::default()).collect(),
            summaries: SharedSummaries::default(),
            held: (0..threads).map(|_| Held::default()).collect(),
        }
    }

    /// Stores `state` by thread `me`; whether it was new (to every thread: exactly
    /// one thread stores each state first). For the searches that need no more
    /// (the reference, spor): the word it stores beside the state means nothing,
    /// so a store is used through this or through [`SharedVisited::claim`], not
    /// both.
    pub fn insert(&self, state: Fingerprint, me: usize) -> bool {
        self.table.claim(state, 0, me).is_none()
    }

    /// Stores `state` as thread `me`'s state number `id` (its numbers counting from
    /// 0, each stored once), unless it is stored: then what it is. For the searches
    /// that must know which thread stored a state and whether it has finished with
    /// it ([`crate::stateful::search`] on threads).
    pub fn claim(
        &self,
        state: Fingerprint,
        me: usize,
        id: StateId,
    ) -> Result<Option<Stored>, TooMany> {
        let threads = self.finishes.len() as u32;
        let word = id
            .checked_mul(threads)
            .and_then(|w| w.checked_add(me as u32));
        // Below the numbers a thread's graph keeps for other targets than its
        // states (`SUMMARY` on): the word, and so the state's number, stays a state.
        let word = word.filter(|&w| w < SUMMARY).ok_or(TooMany)?;
        // Made before the state is stored, so that whoever finds the state finds
        // its word.
        self.finishes[me].make(id);
        let found = self.table.claim(state, word, me);
        Ok(found.map(|word| self.what(word, me)))
    }

    /// What `state` is to thread `me`, if stored ([`SharedVisited::claim`] without
    /// storing it).
    pub fn stored(&self, state: Fingerprint, me: usize) -> Option<Stored> {
        let found = self.table.get(state);
        found.map(|word| self.what(word, me))
    }

    /// What the word stored beside a state says to thread `me`. Of its own states a
    /// thread knows itself whether it has finished with them: their word in
    /// [`Finishes`] is not read, a second miss for most states found again (a
    /// thread finds its own states again far more often than another's).
    fn what(&self, word: u32, me: usize) -> Stored {
        let threads = self.finishes.len() as u32;
        let (owner, id) = ((word % threads) as usize, word / threads);
        if owner == me {
            return Stored::Mine(id);
        }
        match self.finishes[owner].finished(id) {
            Some(summary) => Stored::Finished(summary),
            None => Stored::Open,
        }
    }

    /// Thread `me` has finished with its state number `id`, and published its
    /// summary as `summary`.
    pub fn finish(&self, me: usize, id: StateId, summary: u32) {
        let word = self.finishes[me]
            .word(id)
            .expect("a state this thread stored");
        let finished = (summary.checked_add(1)).expect("a summary's number below u32::MAX");
        word.store(finished, Ordering::Release);
    }

    /// The states stored.
    pub fn len(&self) -> u64 {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of the table's slots and of the threads' finishes.
    pub fn bytes(&self) -> u64 {
        self.table.bytes() + self.finishes.iter().map(Finishes::bytes).sum::<u64>()
    }

    /// Thread `me` holds `bytes` besides the store.
    pub fn hold(&self, me: usize, bytes: u64) {
        self.held[me].0.store(bytes, Ordering::Relaxed);
    }

    /// The bytes of the search on every thread, as each thread last said what it
    /// holds, but `me`'s (`None`: every thread's): the store's table, the published
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
                .map(|t| {
                    let store = &store;
                    s.spawn(move || {
                        (0..10_000u128)
                            .filter(|&i| {
                                store.insert(
                                    i.wrapping_mul(0x9e37_79b9_7f4a_7c15) << 64 | i << 32,
                                    t,
                                )
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

    /// The search's weight is the store's table, the published summaries and what
    /// each thread last said it holds; a thread weighs the others' with its own
    /// left out (it adds what it holds now).
    #[test]
    fn the_weight_counts_what_every_thread_holds_and_the_summaries() {
        let store = SharedVisited::new(2);
        store.insert(7 << 64, 0);
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

    /// A state is its thread's, finished with or not; to the others it is open until
    /// that thread has finished with it, and then its summary's number.
    #[test]
    fn a_state_is_its_thread_s_and_the_others_see_its_summary_once_finished() {
        let store = SharedVisited::new(4);
        let [seven, eight, nine, ten] = [7u128, 8, 9, 10].map(|x| x << 64);
        assert_eq!(store.claim(seven, 3, 0), Ok(None));
        assert_eq!(store.stored(seven, 3), Some(Stored::Mine(0)));
        assert_eq!(store.claim(seven, 1, 0), Ok(Some(Stored::Open)));
        assert_eq!(store.claim(seven, 3, 1), Ok(Some(Stored::Mine(0))));
        assert_eq!(store.stored(eight, 3), None);
        assert_eq!(store.claim(eight, 1, 0), Ok(None));
        assert_eq!(store.claim(nine, 3, 1), Ok(None));
        store.finish(3, 0, 0);
        assert_eq!(store.claim(seven, 1, 1), Ok(Some(Stored::Finished(0))));
        assert_eq!(store.stored(seven, 0), Some(Stored::Finished(0)));
        assert_eq!(store.stored(seven, 3), Some(Stored::Mine(0)));
        assert_eq!(store.stored(nine, 0), Some(Stored::Open));
        store.finish(3, 1, 41);
        assert_eq!(store.stored(nine, 0), Some(Stored::Finished(41)));
        assert_eq!(store.stored(eight, 1), Some(Stored::Mine(0)));
        // Past what the word can tell apart with 4 threads.
        assert_eq!(store.claim(ten, 0, SUMMARY / 4), Err(TooMany));
        assert_eq!(store.claim(ten, 3, SUMMARY / 4 - 1), Ok(None));
    }

    /// Numbers fall in segments of 1,024, 2,048, ... words, each in one place.
    #[test]
    fn every_number_has_one_word() {
        assert_eq!(Finishes::locate(0), (0, 0));
        assert_eq!(Finishes::locate(1_023), (0, 1_023));
        assert_eq!(Finishes::locate(1_024), (1, 0));
        assert_eq!(Finishes::locate(3_071), (1, 2_047));
        assert_eq!(Finishes::locate(3_072), (2, 0));
        let (last, at) = Finishes::locate(u32::MAX - 1);
        assert!(last < SEGMENTS && at < (FIRST_SEGMENT as usize) << last);
        let finishes = Finishes::default();
        // One number in each of the first three segments: each is made on demand.
        for id in [0, 1_024, 5_000] {
            assert!(finishes.word(id).is_none());
            finishes.make(id);
            finishes.word(id).unwrap().store(id + 1, Ordering::Release);
        }
        finishes
            .word(1_023)
            .unwrap()
            .store(1_024, Ordering::Release);
        for id in [0, 1_023, 1_024, 5_000] {
            assert_eq!(finishes.finished(id), Some(id));
        }
        assert_eq!(finishes.finished(1), None);
        assert_eq!(finishes.bytes(), 4 * (1_024 + 2_048 + 4_096));
    }
}
