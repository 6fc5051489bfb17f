//! DL-S-POR's and DE-S-POR's summaries as the threads of one search share them
//! ([`crate::stateful::search`] on threads): a thread that finishes a component
//! publishes its summary once (a number here), and the store marks the component's
//! states finished with that number ([`super::shared_visited::Stored::Finished`]); a
//! thread that reaches one of them reads the summary back in its own numbering.
//!
//! Each thread numbers processes and locations in the order it meets them
//! ([`crate::stateful::graph`], [`crate::stateful::unions`]), so a summary is
//! published by what its numbers stand for: each process's identity key, and the
//! locations ([`Key`]) of the bits of its reads and writes, numbered here for all
//! threads. Reading one back sets the same locations in the reader's numbering: the
//! same union of footprints for each process, so the same answer to every question
//! DL-S-POR asks of it.
//!
//! Equal summaries are published once, and so are equal rows: a summary is kept as
//! the numbers of its rows. Summaries are many and rows few: ms_queue(4) on two
//! threads publishes half a million summaries; after its first 300,000, 1.36
//! million rows had been published, taking 245 MB kept whole, and 7,014 of them
//! were distinct (a process's row is what its blocks from one place on may touch,
//! and a process is at few places).

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
/// The order of the rows says nothing: a summary is read back as a set of them.
#[derive(Debug, Default)]
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

/// The summaries, each the numbers of its rows, and the rows, each once.
#[derive(Debug, Default)]
struct Numbered {
    /// Each summary by number: the numbers of its rows, in increasing order.
    list: Vec<Arc<[u32]>>,
    numbers: FxHashMap<Arc<[u32]>, u32>,
    /// Each row by number.
    rows: Vec<Arc<Row>>,
    row_numbers: FxHashMap<Arc<Row>, u32>,
    /// The bytes of the rows and of the summaries' row numbers, as allocated.
    allocated: u64,
}

/// The bytes a row allocates: itself beside its counts, and its numbers.
fn row_bytes((_, reads, writes): &Row) -> u64 {
    let numbers = (reads.capacity() + writes.capacity()) * 4;
    (2 * std::mem::size_of::<usize>() + std::mem::size_of::<Row>() + numbers) as u64
}

impl Numbered {
    /// The number of `row`, given now if it has none.
    fn row(&mut self, row: Row) -> u32 {
        if let Some(&number) = self.row_numbers.get(&row) {
            return number;
        }
        let number = self.rows.len() as u32;
        self.allocated += row_bytes(&row);
        let row = Arc::new(row);
        self.rows.push(row.clone());
        self.row_numbers.insert(row, number);
        number
    }
}

impl SharedSummaries {
    /// Publishes `summary`: its number (that of an equal one published before, by
    /// this thread or another, whatever the order of its rows).
    pub fn publish(&self, summary: Published) -> u32 {
        let mut all = self.all.write().unwrap_or_else(|e| e.into_inner());
        let mut rows: Vec<u32> = (summary.rows.into_iter()).map(|r| all.row(r)).collect();
        rows.sort_unstable();
        rows.dedup();
        if let Some(&number) = all.numbers.get(&rows[..]) {
            return number;
        }
        let number = all.list.len() as u32;
        all.allocated += (2 * std::mem::size_of::<usize>() + rows.len() * 4) as u64;
        let rows: Arc<[u32]> = rows.into();
        all.list.push(rows.clone());
        all.numbers.insert(rows, number);
        number
    }

    /// The rows of the summary published as `number`.
    pub fn get(&self, number: u32) -> Vec<Arc<Row>> {
        let all = self.all.read().unwrap_or_else(|e| e.into_inner());
        let rows = all.list[number as usize].iter();
        rows.map(|&r| all.rows[r as usize].clone()).collect()
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

    /// The bytes the summaries and the locations' numbers take: each row once and
    /// each summary's row numbers, each in the list and the table (a pointer, and a
    /// pointer, a number and a control byte, and the table's slack), and each
    /// location in the table and the list.
    pub fn bytes(&self) -> u64 {
        let (allocated, rows, summaries) = {
            let all = self.all.read().unwrap_or_else(|e| e.into_inner());
            let row = std::mem::size_of::<(Arc<Row>, u32)>() + 1;
            let rows = all.rows.capacity() * 8 + all.row_numbers.capacity() * row;
            let summary = std::mem::size_of::<(Arc<[u32]>, u32)>() + 1;
            let summaries = all.list.capacity() * 16 + all.numbers.capacity() * summary;
            (all.allocated, rows, summaries)
        };
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
        let key = std::mem::size_of::<Key>();
        let locations = keys.keys.capacity() * key + keys.numbers.capacity() * (key + 4);
        allocated + (rows + summaries + locations) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(rows: &[Row]) -> Published {
        Published {
            rows: rows.to_vec(),
        }
    }

    /// Two threads that number their processes differently publish one summary in
    /// two orders of its rows: one number, and the row they share is kept once.
    #[test]
    fn a_summary_and_a_row_are_kept_once_whatever_the_order_of_the_rows() {
        let shared = SharedSummaries::default();
        let (a, b, c): (Row, Row, Row) = (
            (1, vec![0, 1], vec![1]),
            (2, vec![2], vec![]),
            (3, vec![], vec![0]),
        );
        let first = shared.publish(summary(&[a.clone(), b.clone()]));
        let alone = shared.bytes();
        assert_eq!(shared.publish(summary(&[b.clone(), a.clone()])), first);
        assert_eq!(shared.bytes(), alone);
        let other = shared.publish(summary(&[a.clone(), c.clone()]));
        assert_ne!(other, first);
        let rows = |n: u32| -> Vec<Row> { shared.get(n).iter().map(|r| (**r).clone()).collect() };
        assert_eq!(rows(first), vec![a.clone(), b]);
        assert_eq!(rows(other), vec![a, c]);
        let all = shared.all.read().unwrap();
        assert_eq!((all.list.len(), all.rows.len()), (2, 3));
    }
}
