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
use crate::stateful::graph::{Graph, StateId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Each process that may step after a state, with the union of its footprints.
pub type Summary = Vec<(Fingerprint, Footprint)>;

/// A state without a summary yet.
const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Summaries {
    /// Each state's summary, by id ([`NONE`] before its component is finished).
    of: Vec<u32>,
    summaries: Vec<Summary>,
    interned: FxHashMap<Summary, u32>,
    bytes: u64,
}

impl Summaries {
    /// Summarises the states of `component`, finished.
    pub fn finish(&mut self, graph: &Graph, component: &[StateId]) {
        // Most components are one state: a set of them only for the others.
        let inside: FxHashSet<StateId> = match component {
            [_] => FxHashSet::default(),
            _ => component.iter().copied().collect(),
        };
        let outside = |to: &StateId| match component {
            [only] => to != only,
            _ => !inside.contains(to),
        };
        // A few processes: a vector, sorted by process, is the cheapest union.
        let mut summary: Summary = Vec::new();
        let mut below: Vec<u32> = Vec::new();
        for &s in component {
            for (action, to) in graph.from(s) {
                absorb(&mut summary, action.process, graph.footprint(action));
                let next = to.filter(outside);
                below.extend(next.and_then(|to| self.id(to)));
            }
        }
        below.sort_unstable();
        below.dedup();
        // The common case, a chain: one summary below that already holds every
        // action taken here, which is then this component's too.
        if let [only] = below[..] {
            let holds = |(p, footprint): &(Fingerprint, Footprint)| {
                let below = &self.summaries[only as usize];
                (below.binary_search_by_key(p, |(q, _)| *q).ok())
                    .is_some_and(|i| below[i].1.contains(footprint))
            };
            if summary.iter().all(holds) {
                self.assign(component, only);
                return;
            }
        }
        for id in below {
            for (p, footprint) in &self.summaries[id as usize] {
                absorb(&mut summary, *p, footprint);
            }
        }
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
        self.assign(component, id);
    }

    /// The states of `component` have summary `id`.
    fn assign(&mut self, component: &[StateId], id: u32) {
        for &s in component {
            let i = s as usize;
            if self.of.len() <= i {
                self.of.resize(i + 1, NONE);
            }
            self.of[i] = id;
        }
    }

    fn id(&self, state: StateId) -> Option<u32> {
        self.of
            .get(state as usize)
            .copied()
            .filter(|&id| id != NONE)
    }

    /// The summary of `state`, once its component is finished.
    pub fn of(&self, state: StateId) -> Option<&Summary> {
        self.id(state).map(|id| &self.summaries[id as usize])
    }

    /// The bytes held, roughly (the tables' slack aside).
    pub fn bytes(&self) -> u64 {
        self.bytes + self.of.capacity() as u64 * 4
    }
}

/// Adds `footprint` to `process`'s union in `summary` (sorted by process).
fn absorb(summary: &mut Summary, process: Fingerprint, footprint: &Footprint) {
    match summary.binary_search_by_key(&process, |(p, _)| *p) {
        Ok(i) => summary[i].1.absorb(footprint),
        Err(i) => summary.insert(i, (process, footprint.clone())),
    }
}
