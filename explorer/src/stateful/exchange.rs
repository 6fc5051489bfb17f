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
    published: Dense,
    /// The target (a [`SUMMARY`]) of each summary read back, by its published
    /// number.
    read: Dense,
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
        if let Some(number) = self.published.get(local) {
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
        if let Some(to) = self.read.get(number) {
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
        let dense = (self.published.0.capacity() + self.read.0.capacity()) * 4;
        (dense + self.made.capacity() * (16 + 4 + 1)) as u64
    }
}

/// Numbers by numbers that are given densely from 0 (a thread's summaries, the
/// published ones): a vector, where a hash map took a probe with a miss of its own
/// for each of the half a million summaries ms_queue(4) exchanges.
#[derive(Debug, Default)]
struct Dense(Vec<u32>);

impl Dense {
    const ABSENT: u32 = u32::MAX;

    fn get(&self, key: u32) -> Option<u32> {
        let value = *self.0.get(key as usize)?;
        (value != Self::ABSENT).then_some(value)
    }

    fn insert(&mut self, key: u32, value: u32) {
        debug_assert_ne!(value, Self::ABSENT);
        let k = key as usize;
        if self.0.len() <= k {
            self.0.resize(k + 1, Self::ABSENT);
        }
        self.0[k] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::Dense;

    #[test]
    fn dense_numbers_are_found_where_given_and_nowhere_else() {
        let mut d = Dense::default();
        assert_eq!(d.get(0), None);
        d.insert(3, 7);
        d.insert(0, 1 << 31);
        assert_eq!(
            (d.get(0), d.get(1), d.get(3), d.get(4)),
            (Some(1 << 31), None, Some(7), None)
        );
        d.insert(3, 8);
        assert_eq!(d.get(3), Some(8));
    }
}
