//! DL-S-POR's summaries as the threads of one search share them
//! ([`crate::stateful::search`] on threads): a thread that finishes a component
//! publishes its summary once (a number here), and the store marks the component's
//! states finished with that number ([`super::shared_visited::Stored::Finished`]); a
//! thread that reaches one of them reads the summary back in its own numbering.
//!
//! Each thread numbers processes and locations in the order it meets them
//! ([`crate::stateful::graph`], [`crate::stateful::unions`]), so a summary is
//! published by what its numbers stand for: each process's identity key, and the
//! locations ([`Key`]) of the bits of its reads and writes, numbered here for all
//! threads (4 bytes each: ms_queue(4) publishes half a million summaries). Reading
//! one back sets the same locations in the reader's numbering: the same union of
//! footprints for each process, so the same answer to every question DL-S-POR asks
//! of it. Equal summaries are published once.

use crate::fingerprint::Fingerprint;
use crate::stateful::unions::Key;
use rustc_hash::FxHashMap;
use std::sync::{Arc, RwLock};

/// A row of a published summary: a process's identity key, and the numbers of the
/// locations it reads and writes.
pub type Row = (Fingerprint, Vec<u32>, Vec<u32>);

/// A summary by what its numbers stand for: rows of a process's identity key and
/// the locations of its reads' and of its writes' bits, each location ([`Key`]) by
/// its number here ([`SharedSummaries::number`]). DL-S-POR's: a row per process with
/// an action in it. DE-S-POR's: a row per action ([`crate::stateful::reachable`]).
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Published {
    pub rows: Vec<Row>,
}

/// The locations numbered for the threads together.
#[derive(Debug, Default)]
struct Keys {
    numbers: FxHashMap<Key, u32>,
    keys: Vec<Key>,
}

/// The summaries published so far, by number, each once; and the locations their
/// rows name.
#[derive(Debug, Default)]
pub struct SharedSummaries {
    all: RwLock<Numbered>,
    keys: RwLock<Keys>,
}

/// The summaries, and the number of each.
#[derive(Debug, Default)]
struct Numbered {
    list: Vec<Arc<Published>>,
    numbers: FxHashMap<Arc<Published>, u32>,
    /// The bytes of the summaries' rows, as allocated.
    rows: u64,
}

impl Published {
    /// The bytes it allocates: its rows, and the numbers in each.
    fn bytes(&self) -> u64 {
        let row = std::mem::size_of::<Row>();
        let numbers: usize = (self.rows.iter())
            .map(|(_, r, w)| (r.capacity() + w.capacity()) * 4)
            .sum();
        (std::mem::size_of::<Self>() + self.rows.capacity() * row + numbers) as u64
    }
}

impl SharedSummaries {
    /// Publishes `summary`: its number (that of an equal one published before).
    pub fn publish(&self, summary: Published) -> u32 {
        let mut all = self.all.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&number) = all.numbers.get(&summary) {
            return number;
        }
        let number = all.list.len() as u32;
        all.rows += summary.bytes();
        let summary = Arc::new(summary);
        all.list.push(summary.clone());
        all.numbers.insert(summary, number);
        number
    }

    /// The summary published as `number`.
    pub fn get(&self, number: u32) -> Arc<Published> {
        let all = self.all.read().unwrap_or_else(|e| e.into_inner());
        all.list[number as usize].clone()
    }

    /// The number of location `key`, given now if it has none.
    pub fn number(&self, key: Key) -> u32 {
        let found = self.keys.read().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = found.numbers.get(&key) {
            return n;
        }
        drop(found);
        let mut keys = self.keys.write().unwrap_or_else(|e| e.into_inner());
        let next = keys.keys.len() as u32;
        let n = *keys.numbers.entry(key).or_insert(next);
        if n == next {
            keys.keys.push(key);
        }
        n
    }

    /// The location numbered `number`.
    pub fn key(&self, number: u32) -> Key {
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
        keys.keys[number as usize]
    }

    /// The bytes the summaries and the locations' numbers take: each summary's rows,
    /// its entries in the list and the table (a pointer and a number, and the
    /// table's slack), and each location in the table and the list.
    pub fn bytes(&self) -> u64 {
        let (rows, summaries) = {
            let all = self.all.read().unwrap_or_else(|e| e.into_inner());
            (all.rows, all.list.capacity() + all.numbers.capacity())
        };
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
        let key = std::mem::size_of::<Key>();
        let locations = keys.keys.capacity() * key + keys.numbers.capacity() * (key + 4);
        rows + (summaries * 16 + locations) as u64
    }
}
