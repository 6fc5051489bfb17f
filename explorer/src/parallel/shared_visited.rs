//! The states stored by the threads of a parallel stateful search together: one
//! [`Visited`] store cut into shards by fingerprint, each behind its own lock, so
//! that two threads storing states contend only when they fall in the same shard
//! (1 in [`SHARDS`] for uniform fingerprints).

use crate::fingerprint::Fingerprint;
use crate::visited::Visited;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Shards of the store: many more than threads, so that locks are rarely contended.
pub const SHARDS: usize = 256;

pub struct SharedVisited {
    shards: Vec<Mutex<Visited>>,
    stored: AtomicU64,
    bytes: AtomicU64,
}

impl Default for SharedVisited {
    fn default() -> Self {
        SharedVisited {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            stored: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        }
    }
}

impl SharedVisited {
    /// Stores `state`; whether it was new (to every thread: exactly one thread
    /// stores each state first).
    pub fn insert(&self, state: Fingerprint) -> bool {
        // The high bits: the shard's own table hashes by the low ones.
        let shard = &self.shards[(state >> 120) as usize % SHARDS];
        let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
        let before = shard.bytes();
        let (_, new) = shard.insert(state);
        if new {
            self.stored.fetch_add(1, Ordering::Relaxed);
        }
        // Also when it was not new: the table makes room for one more before it
        // looks.
        let after = shard.bytes();
        if after != before {
            self.bytes.fetch_add(after - before, Ordering::Relaxed);
        }
        new
    }

    /// The states stored.
    pub fn len(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the shards' tables hold ([`Visited::bytes`], added up).
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
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
}
