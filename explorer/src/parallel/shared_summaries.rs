//! DL-S-POR's summaries as the threads of one search share them
//! ([`crate::stateful::search`] on threads): a thread that finishes a component
//! publishes its summary once (a number here), and the store marks the component's
//! states finished with that number ([`super::shared_visited::Stored::Finished`]); a
//! thread that reaches one of them reads the summary back in its own numbering.
//!
//! Each thread numbers processes and locations in the order it meets them
//! ([`crate::stateful::graph`], [`crate::stateful::unions`]), so a summary is
//! published by what its numbers stand for: each process's identity key, and the
//! keys of the bits of its reads and writes. Reading one back sets the same keys in
//! the reader's numbering: the same union of footprints for each process, so the
//! same answer to every question DL-S-POR asks of it.

use crate::fingerprint::Fingerprint;
use crate::stateful::unions::Key;
use std::sync::{Arc, RwLock};

/// A summary by what its numbers stand for: for each process with an action in it,
/// its identity key and the keys of its reads' and of its writes' bits.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Published {
    pub rows: Vec<(Fingerprint, Vec<Key>, Vec<Key>)>,
}

/// The summaries published so far, by number.
#[derive(Debug, Default)]
pub struct SharedSummaries {
    all: RwLock<Vec<Arc<Published>>>,
}

impl SharedSummaries {
    /// Publishes `summary`: its number.
    pub fn publish(&self, summary: Published) -> u32 {
        let mut all = self.all.write().unwrap_or_else(|e| e.into_inner());
        all.push(Arc::new(summary));
        (all.len() - 1) as u32
    }

    /// The summary published as `number`.
    pub fn get(&self, number: u32) -> Arc<Published> {
        let all = self.all.read().unwrap_or_else(|e| e.into_inner());
        all[number as usize].clone()
    }
}
