//! What a thread of a parallel source-set search ([`crate::stateful::search`])
//! exchanges with the others, whatever its summaries keep: it publishes the summary
//! of each state it finishes with once, reads each summary another thread published
//! once, and makes each summary from the program text once. A summary's kind says
//! how it is written for the others and read back ([`Exchanged`]: DL-S-POR's unions,
//! DE-S-POR's actions); the numbers on both sides are kept here.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::{fingerprint, Fingerprint};
use crate::parallel::shared_summaries::{Published, Row, SharedSummaries};
use crate::stateful::graph::{Graph, StateId};
use crate::stateful::summaries::{Kind, Summaries, SUMMARY};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The number of a state's summary, once its component is finished
/// ([`Summaries::number`], whatever their kind).
pub trait Numbered {
    fn number(&self, state: StateId) -> Option<u32>;
}

impl<K: Kind> Numbered for Summaries<K> {
    fn number(&self, state: StateId) -> Option<u32> {
        Summaries::number(self, state)
    }
}

/// Summaries that threads exchange.
pub trait Exchanged: Numbered {
    /// `state`'s summary, finished, as the other threads read it.
    fn published(
        &mut self,
        graph: &Graph,
        state: StateId,
        shared: &SharedSummaries,
    ) -> Option<Published>;
    /// A summary another thread published (its rows), as the target ([`SUMMARY`])
    /// of the transitions to its states.
    fn read_back(
        &mut self,
        graph: &mut Graph,
        rows: &[Arc<Row>],
        shared: &SharedSummaries,
    ) -> StateId;
    /// A summary of `rows` from the program text ([`crate::stateful::may_follow`]),
    /// as the target of the transitions it follows.
    fn may_follow(&mut self, graph: &mut Graph, rows: &[(Fingerprint, Footprint)]) -> StateId;
}

/// The summaries a thread has exchanged, by number on both sides.
#[derive(Debug, Default)]
pub struct Exchange {
    /// The number each summary of this thread's was published as, by its number
    /// here.
    published: FxHashMap<u32, u32>,
    /// The target (a [`SUMMARY`]) of each summary read back, by its published
    /// number.
    read: FxHashMap<u32, StateId>,
    /// The target of each summary made from the program text, by its rows'
    /// fingerprint.
    made: FxHashMap<Fingerprint, StateId>,
}

impl Exchange {
    /// Publishes the summary of `state`, finished: its number in `shared`.
    pub fn publish(
        &mut self,
        summaries: &mut dyn Exchanged,
        graph: &Graph,
        state: StateId,
        shared: &SharedSummaries,
    ) -> Option<u32> {
        let local = summaries.number(state)?;
        if let Some(&number) = self.published.get(&local) {
            return Some(number);
        }
        let published = summaries.published(graph, state, shared)?;
        // An equal summary another thread published has its number: read here as this.
        let number = shared.publish(published);
        self.published.insert(local, number);
        // Its own states, reached again, read it here.
        self.read.insert(number, SUMMARY + local);
        Some(number)
    }

    /// The summary another thread published as `number`, in this thread's numbering.
    pub fn read_back(
        &mut self,
        summaries: &mut dyn Exchanged,
        graph: &mut Graph,
        number: u32,
        shared: &SharedSummaries,
    ) -> StateId {
        if let Some(&to) = self.read.get(&number) {
            return to;
        }
        let rows = shared.get(number);
        let to = summaries.read_back(graph, &rows, shared);
        self.read.insert(number, to);
        to
    }

    /// The summary of `rows` from the program text.
    pub fn may_follow(
        &mut self,
        summaries: &mut dyn Exchanged,
        graph: &mut Graph,
        rows: &[(Fingerprint, Footprint)],
    ) -> StateId {
        let made = self.made.entry(fingerprint(rows));
        *made.or_insert_with(|| summaries.may_follow(graph, rows))
    }

    /// The bytes its tables hold.
    pub fn bytes(&self) -> u64 {
        let entry = 4 + std::mem::size_of::<StateId>().max(4) + 1;
        let maps = self.published.capacity() + self.read.capacity();
        (maps * entry + self.made.capacity() * (16 + 4 + 1)) as u64
    }
}
