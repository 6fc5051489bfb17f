//! A set of fingerprints, each with a word beside it, that threads store into and
//! look up without locks: the table under [`super::shared_visited`]. Open
//! addressing with linear probing, as the single-threaded store
//! ([`crate::visited`]) but with one compare-and-swap to store a state, after
//! Laarman, van de Pol and Weber, "Boosting multi-core reachability performance
//! with shared hash tables" (FMCAD 2010), and a table that grows.
//!
//! Why without locks: behind a lock per shard, dl-spor's two threads spent a fifth
//! of their time on the store, most of it taking and releasing the shard's lock
//! (the lock's line passes between the cores, and the release is a full barrier).
//! Without them the two threads of the stateful reference and of spor take 13–20%
//! less time on the filter, bakery and ms_queue programs (BENCHMARKS.md).
//!
//! # The protocol
//!
//! A slot holds 16 bytes: the fingerprint's high word (`hi`), and its next 32 bits
//! above the word beside it plus one (`rest`, 0 until written). So the table keeps
//! 96 of a fingerprint's 128 bits: with `n` states, two of them share those bits
//! with probability at most `n² / 2^97`, about 6 · 10^-14 for 10^8 states and
//! 6 · 10^-10 for 10^10 (one thread's store keeps all 128: [`crate::visited`]); the
//! 24 bytes that all 128 and the word take made the table larger than the locked
//! shards' and cost more misses than the locks they saved. `hi` is 0 while the
//! slot is empty and [`FROZEN`] once a growth has closed it; a fingerprint's high
//! word is moved off those two values ([`key`]), which merges 2 of 2^64 high words
//! with their neighbours.
//! - *Store*: probe from the fingerprint's home (its high word); at an empty slot,
//!   compare-and-swap `hi` from 0, then write `rest` (release). A slot whose `hi`
//!   is set never changes again, so a thread that loses the swap to the same
//!   fingerprint waits for `rest` and finds it; one that loses it to another goes
//!   on probing.
//! - *Look up*: the same probe without storing; a state is absent once the probe
//!   meets an empty slot: a fingerprint is stored at the first empty slot of its
//!   probe, and slots are never emptied (a growth may close a slot after a probe
//!   met it empty: the state was absent then).
//! - *Grow* (one thread at a time, under its shard's `growing` lock; the states are
//!   spread over [`SHARDS`] tables by the top bits of their high word, each growing
//!   on its own): a table twice the size is hung on the old one (`next`), every
//!   empty slot of the old one is closed ([`FROZEN`]) and every state copied into
//!   the new one, then the new one becomes the table and the old one is freed once
//!   no thread can still be reading it (`crossbeam_epoch`). A look-up that meets a
//!   closed slot goes on in the new one: the state it looks for is not in the old
//!   one (it would sit before the first empty slot of its probe, which the closed
//!   one was). A store that meets a closed slot, or a table with a `next`, waits
//!   for the growth to end (it takes the lock) and probes the new table: so only
//!   the growth writes to a table being filled, which holds twice the states it
//!   copies and cannot fill up, and a state is never in both tables but as its
//!   copy. States are counted by the thread that stores them, by shard (`stored`,
//!   only that thread writes its counts); a thread looks at a shard's fill every
//!   64 of its stores there and grows the table past 3/4, and a store that finds
//!   the table full grows it too. What the tables take ([`SharedTable::bytes`])
//!   leaves out, during a growth, the table being filled and those not freed yet.

use crossbeam_epoch::{self as epoch, Atomic, Guard, Owned, Shared};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// `hi` of a slot a growth has closed.
const FROZEN: u64 = u64::MAX;

/// Slots of a shard's first table.
const FIRST: usize = 1 << 10;

/// A table grows once its states fill this many eighths of it.
const FILL_EIGHTHS: usize = 6;

/// A thread looks at the fill of a shard's table every this many states it stores
/// there.
const LOOK_EVERY: u64 = 64;

#[repr(align(16))]
#[derive(Default)]
struct Slot {
    hi: AtomicU64,
    /// The fingerprint's bits 32..64 above the word plus one (0 until written).
    rest: AtomicU64,
}

impl Slot {
    /// Stores the state `(hi, rest)` here if the slot is empty; else what `hi` holds.
    fn take(&self, hi: u64, rest: u64) -> Result<(), u64> {
        (self.hi).compare_exchange(0, hi, Ordering::AcqRel, Ordering::Acquire)?;
        self.rest.store(rest, Ordering::Release);
        Ok(())
    }
}

struct Slots {
    slots: Box<[Slot]>,
    /// The table the states are being copied into, while this one grows.
    next: Atomic<Slots>,
}

impl Slots {
    fn new(len: usize) -> Self {
        Slots {
            slots: (0..len).map(|_| Slot::default()).collect(),
            next: Atomic::null(),
        }
    }
}

/// Tables the states are spread over by the top bits of their high word, each
/// growing on its own: a growth copies a part of the states only, and the table it
/// replaces, freed a little later, is as small.
const SHARDS: usize = 64;

/// What a thread stored, by shard, on cache lines of its own (only it writes them).
#[repr(align(128))]
struct Stored([AtomicU64; SHARDS]);

impl Default for Stored {
    fn default() -> Self {
        Stored(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// One of the tables, on cache lines of its own.
#[repr(align(128))]
struct Shard {
    current: Atomic<Slots>,
    growing: Mutex<()>,
}

pub struct SharedTable {
    shards: Box<[Shard]>,
    /// By thread, the states it stored.
    stored: Box<[Stored]>,
}

/// A fingerprint as the table keeps it: its high word, off 0 and [`FROZEN`], and
/// the 32 bits below it.
fn key(state: u128) -> (u64, u64) {
    let hi = (state >> 64) as u64;
    (hi.clamp(1, FROZEN - 1), (state >> 32) as u32 as u64)
}

/// The shard of a high word: its top bits (the slots' home is in its low ones).
fn shard_of(hi: u64) -> usize {
    (hi >> (64 - SHARDS.ilog2())) as usize
}

impl SharedTable {
    /// The table of `threads` threads, each storing with its number.
    pub fn new(threads: usize) -> Self {
        SharedTable {
            shards: (0..SHARDS)
                .map(|_| Shard {
                    current: Atomic::new(Slots::new(FIRST)),
                    growing: Mutex::new(()),
                })
                .collect(),
            stored: (0..threads).map(|_| Stored::default()).collect(),
        }
    }

    /// Stores `state` with `word` (below `u32::MAX`) beside it by thread `me`, unless
    /// it is stored: then the word beside it.
    pub fn claim(&self, state: u128, word: u32, me: usize) -> Option<u32> {
        assert!(word < u32::MAX, "a word the table cannot keep");
        let (hi, mid) = key(state);
        let s = shard_of(hi);
        let guard = epoch::pin();
        let found = self.shards[s].probe((hi, mid), Some(word), &guard);
        if found.is_none() {
            // Only thread `me` writes its counts: no read-modify-write needed.
            let count = &self.stored[me].0[s];
            let mine = count.load(Ordering::Relaxed) + 1;
            count.store(mine, Ordering::Relaxed);
            if mine.is_multiple_of(LOOK_EVERY) {
                let states = self.stored.iter().map(|t| t.0[s].load(Ordering::Relaxed));
                self.shards[s].grow_if_full(states.sum(), &guard);
            }
        }
        found
    }

    /// The word beside `state`, if it is stored.
    pub fn get(&self, state: u128) -> Option<u32> {
        let (hi, mid) = key(state);
        let guard = epoch::pin();
        self.shards[shard_of(hi)].probe((hi, mid), None, &guard)
    }

    /// The states stored.
    pub fn len(&self) -> u64 {
        let by_thread = |t: &Stored| t.0.iter().map(|c| c.load(Ordering::Relaxed)).sum::<u64>();
        self.stored.iter().map(by_thread).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of the tables' slots.
    pub fn bytes(&self) -> u64 {
        let guard = epoch::pin();
        let slots: usize = (self.shards.iter())
            .map(|shard| {
                let current = shard.current.load(Ordering::Acquire, &guard);
                // SAFETY: a table is freed only once no pinned thread can read it.
                unsafe { current.deref() }.slots.len()
            })
            .sum();
        (slots * std::mem::size_of::<Slot>()) as u64
    }
}

impl Shard {
    /// The probe of the state `(hi, mid)` from its home, table after table while
    /// they grow: the word beside it if it is stored; else `None`, having stored it
    /// with `word` if given.
    fn probe(&self, (hi, mid): (u64, u64), word: Option<u32>, guard: &Guard) -> Option<u32> {
        let mut table = self.current.load(Ordering::Acquire, guard);
        loop {
            // SAFETY: `table` was read under `guard`, and a table is freed only
            // once no pinned thread can read it.
            let slots = unsafe { table.deref() };
            let mask = slots.slots.len() - 1;
            let mut i = hi as usize & mask;
            let mut closed = false;
            for _ in 0..slots.slots.len() {
                let slot = &slots.slots[i];
                let mut at = slot.hi.load(Ordering::Acquire);
                if at == 0 {
                    // Absent: a look-up ends here.
                    let rest = mid << 32 | u64::from(word? + 1);
                    match slot.take(hi, rest) {
                        Ok(()) => return None,
                        Err(now) => at = now,
                    }
                }
                if at == FROZEN {
                    closed = true;
                    break;
                }
                if at == hi {
                    let rest = written(slot);
                    if rest >> 32 == mid {
                        return Some(rest as u32 - 1);
                    }
                }
                i = (i + 1) & mask;
            }
            let next = slots.next.load(Ordering::Acquire, guard);
            if word.is_some() && (closed || !next.is_null()) {
                // A growth is under way: a state is stored in the table it makes
                // once it is made, so that only the growth writes to a table
                // being filled (which then cannot fill up).
                drop(self.growing.lock().expect("a growth panicked"));
                table = self.current.load(Ordering::Acquire, guard);
                continue;
            }
            if closed || !next.is_null() {
                table = next;
                continue;
            }
            // Every slot full and no growth under way (the fill is looked at only
            // every few stores): grow, and probe again.
            self.grow(table, guard);
            table = self.current.load(Ordering::Acquire, guard);
        }
    }

    /// Grows the table if `states` fill more than [`FILL_EIGHTHS`] of it.
    fn grow_if_full(&self, states: u64, guard: &Guard) {
        let table = self.current.load(Ordering::Acquire, guard);
        // SAFETY: as in `probe`.
        let len = unsafe { table.deref() }.slots.len();
        if states as usize * 8 > len * FILL_EIGHTHS {
            self.grow(table, guard);
        }
    }

    /// Replaces `table` by one twice its size with the same states, unless another
    /// thread has already.
    fn grow(&self, table: Shared<'_, Slots>, guard: &Guard) {
        // A growth that panicked left a table half copied: nothing may go on.
        let _one = self.growing.lock().expect("a growth panicked");
        if self.current.load(Ordering::Acquire, guard) != table {
            return;
        }
        // SAFETY: as in `probe`.
        let old = unsafe { table.deref() };
        let new = Owned::new(Slots::new(old.slots.len() * 2)).into_shared(guard);
        old.next.store(new, Ordering::Release);
        // SAFETY: `new` is alive: only this function frees a table, after it
        // replaced it.
        let into = unsafe { new.deref() };
        for slot in old.slots.iter() {
            let mut at = slot.hi.load(Ordering::Acquire);
            if at == 0 {
                match (slot.hi).compare_exchange(0, FROZEN, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => continue,
                    Err(now) => at = now,
                }
            }
            copy(into, at, written(slot));
        }
        self.current.store(new, Ordering::Release);
        // SAFETY: `table` is no longer reachable from `current`; threads pinned
        // before may still read it, and the collector waits for them.
        unsafe { guard.defer_destroy(table) };
        // Hand it to the collector now: a thread's deferred frees otherwise wait
        // in a batch of its own until 64 more come, and a table is large.
        guard.flush();
    }
}

/// A slot's `rest`, once the thread that stored its state has written it.
fn written(slot: &Slot) -> u64 {
    loop {
        let rest = slot.rest.load(Ordering::Acquire);
        if rest != 0 {
            return rest;
        }
        std::hint::spin_loop();
    }
}

/// Stores a state of the table that grows into `into`, which no other thread writes
/// until the growth is over.
fn copy(into: &Slots, hi: u64, rest: u64) {
    let mask = into.slots.len() - 1;
    let mut i = hi as usize & mask;
    for _ in 0..into.slots.len() {
        if into.slots[i].take(hi, rest).is_ok() {
            return;
        }
        i = (i + 1) & mask;
    }
    unreachable!("a table twice the size of the one it replaces holds its states");
}

impl Drop for SharedTable {
    fn drop(&mut self) {
        // SAFETY: no thread uses the tables any more (`&mut self`), and tables
        // replaced by growths were handed to the collector.
        unsafe {
            let guard = epoch::unprotected();
            for shard in self.shards.iter() {
                drop(shard.current.load(Ordering::Relaxed, guard).into_owned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(i: u128) -> u128 {
        i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) ^ (i << 7)
    }

    #[test]
    fn a_state_stored_once_is_found_with_its_word() {
        let table = SharedTable::new(1);
        let (seven, eight) = (7 << 64, 8 << 64);
        assert_eq!(table.claim(seven, 3, 0), None);
        assert_eq!(table.claim(seven, 5, 0), Some(3));
        assert_eq!(table.get(seven), Some(3));
        assert_eq!(table.get(eight), None);
        // The 32 lowest bits are not kept: a fingerprint that differs only there is
        // the same state.
        assert_eq!(table.get(seven | 0xffff_ffff), Some(3));
        assert_eq!(table.get(seven | 1 << 32), None);
        // Fingerprints whose high word is 0 or all ones are kept too.
        assert_eq!(table.claim(u128::MAX, 9, 0), None);
        assert_eq!(table.get(u128::MAX), Some(9));
        assert_eq!(table.claim(1 << 40, 1, 0), None);
        assert_eq!(table.get(1 << 40), Some(1));
        assert_eq!(table.len(), 3);
    }

    /// Many more states than the first table holds, stored by four threads at once,
    /// each state by two of them: each is new to exactly one, and every one is
    /// found afterwards with the word that thread gave it.
    #[test]
    fn threads_store_each_state_once_while_the_table_grows() {
        const STATES: u128 = 200_000;
        let table = SharedTable::new(4);
        let firsts: Vec<Vec<(u128, u32)>> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|t| {
                    let table = &table;
                    s.spawn(move || {
                        let mine = (0..STATES)
                            .filter(|i| (i % 4) as usize == t || (i % 4) as usize == (t + 1) % 4);
                        let mut new = Vec::new();
                        for i in mine {
                            let word = (i as u32) * 4 + t as u32;
                            match table.claim(spread(i), word, t) {
                                None => new.push((i, word)),
                                Some(w) => assert_eq!(w as u128 / 4, i, "another state's word"),
                            }
                        }
                        new
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let mut all: Vec<(u128, u32)> = firsts.into_iter().flatten().collect();
        all.sort_unstable();
        assert_eq!(all.len() as u128, STATES);
        assert!(all.iter().enumerate().all(|(k, &(i, _))| k as u128 == i));
        assert_eq!(table.len() as u128, STATES);
        for (i, word) in all {
            assert_eq!(table.get(spread(i)), Some(word));
        }
        assert!(table.bytes() >= (STATES as u64) * std::mem::size_of::<Slot>() as u64);
    }

    /// Eight threads store states that all fall in one shard, each state by two of
    /// them, and look up the states of the others as they go: that table grows
    /// nine times while states are stored and looked up, and every state is new to
    /// one thread, found by the other with its word, and found by every look-up
    /// that comes after it was stored.
    #[test]
    fn one_shard_grows_under_stores_and_look_ups() {
        const STATES: u64 = 300_000;
        // High words whose top bits are 0: shard 0.
        let state = |i: u64| {
            let hi = (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> SHARDS.ilog2()) | 1;
            u128::from(hi) << 64 | u128::from(i as u32) << 32
        };
        let table = SharedTable::new(8);
        let news: u64 = std::thread::scope(|s| {
            let threads: Vec<_> = (0..8u64)
                .map(|t| {
                    let table = &table;
                    s.spawn(move || {
                        let mut new = 0;
                        for i in (0..STATES).filter(|i| i % 8 == t || i % 8 == (t + 1) % 8) {
                            match table.claim(state(i), i as u32, t as usize) {
                                None => new += 1,
                                Some(w) => assert_eq!(u64::from(w), i, "another state's word"),
                            }
                            // What this thread stored earlier is found, with its word.
                            let back = i.saturating_sub(16);
                            if back % 8 == t {
                                assert_eq!(table.get(state(back)), Some(back as u32));
                            }
                        }
                        new
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).sum()
        });
        assert_eq!(news, STATES);
        assert_eq!(table.len(), STATES);
        for i in 0..STATES {
            assert_eq!(table.get(state(i)), Some(i as u32));
        }
        let guard = epoch::pin();
        let shard = table.shards[0].current.load(Ordering::Acquire, &guard);
        // SAFETY: pinned, and the table is not dropped.
        assert_eq!(unsafe { shard.deref() }.slots.len(), FIRST << 9);
    }
}
