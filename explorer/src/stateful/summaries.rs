//! What may follow a finished state of the explored graph, summarised: for each
//! process, the union of the footprints of every action reachable from the state.
//! DL-S-POR asks, when it backs up to a state `s` after `t`'s step to `s'`, which
//! processes take an action reachable from `s'` that is dependent on `t`'s (Alg. 3,
//! lines 27–28); a traversal of the graph from `s'` at every back-up costs the size
//! of the graph each time, quadratic in all. A union answers exactly: a footprint
//! conflicts with a union of footprints iff it conflicts with one of them (it writes
//! what one reads or writes, or reads what one writes).
//!
//! A summary is made once, when the strongly connected component of its state is
//! finished ([`crate::stateful::cycles`]): its states reach the same states, so they
//! share one summary, the union of their transitions' actions and of the summaries
//! of the components their transitions leave to, which are finished before it (a
//! component finishes after every component it reaches). Nothing is added to what
//! follows a finished state, so the summary stays exact. Equal summaries are stored
//! once.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use crate::stateful::graph::Graph;
use rustc_hash::{FxHashMap, FxHashSet};

/// Each process that may step after a state, with the union of its footprints.
pub type Summary = Vec<(Fingerprint, Footprint)>;

#[derive(Debug, Default)]
pub struct Summaries {
    of: FxHashMap<Fingerprint, u32>,
    summaries: Vec<Summary>,
    interned: FxHashMap<Summary, u32>,
    bytes: u64,
}

impl Summaries {
    /// Summarises the states of `component`, finished.
    pub fn finish(&mut self, graph: &Graph, component: &[Fingerprint]) {
        let inside: FxHashSet<Fingerprint> = component.iter().copied().collect();
        let mut union: FxHashMap<Fingerprint, Footprint> = FxHashMap::default();
        let mut below: FxHashSet<u32> = FxHashSet::default();
        for &s in component {
            for (action, to) in graph.from(s) {
                let footprint = graph.footprint(action);
                union.entry(action.process).or_default().absorb(footprint);
                let next = to.filter(|to| !inside.contains(to));
                below.extend(next.and_then(|to| self.of.get(&to).copied()));
            }
        }
        for id in below {
            for (p, footprint) in &self.summaries[id as usize] {
                union.entry(*p).or_default().absorb(footprint);
            }
        }
        let mut summary: Summary = union.into_iter().collect();
        summary.sort_unstable_by_key(|(p, _)| *p);
        let id = match self.interned.get(&summary) {
            Some(&id) => id,
            None => {
                let id = self.summaries.len() as u32;
                let locations: usize = (summary.iter())
                    .map(|(_, f)| f.reads.len() + f.writes.len())
                    .sum();
                let size = std::mem::size_of::<(Fingerprint, Footprint)>() * summary.len()
                    + locations * std::mem::size_of::<frontend::memory::Loc>();
                self.bytes += 2 * size as u64;
                self.interned.insert(summary.clone(), id);
                self.summaries.push(summary);
                id
            }
        };
        for &s in component {
            self.of.insert(s, id);
        }
        self.bytes +=
            component.len() as u64 * (std::mem::size_of::<(Fingerprint, u32)>() as u64 + 1);
    }

    /// The summary of `state`, once its component is finished.
    pub fn of(&self, state: Fingerprint) -> Option<&Summary> {
        self.of.get(&state).map(|&id| &self.summaries[id as usize])
    }

    /// The bytes held, roughly (the tables' slack aside).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}
