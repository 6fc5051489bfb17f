//! The states stored by the threads of a parallel stateful search together: one
//! [`Visited`] store cut into shards by fingerprint, each behind its own lock (and
//! on its own cache lines), so that two threads storing states contend only when
//! they fall in the same shard (1 in [`SHARDS`] for uniform fingerprints). Nothing
//! else is shared on the way: a counter every insertion updated cost the threads a
//! fifth of their time, passing its cache line between the cores.

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

pub struct SharedVisited {
    shards: Vec<Shard>,
}

impl Default for SharedVisited {
    fn default() -> Self {
        SharedVisited {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

impl SharedVisited {
    /// Stores `state`; whether it was new (to every thread: exactly one thread
    /// stores each state first).
    pub fn insert(&self, state: Fingerprint) -> bool {
        // The high bits: the shard's own table hashes by the low ones.
        let shard = &self.shards[(state >> 120) as usize % SHARDS];
        shard.lock().insert(state).1
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
}
