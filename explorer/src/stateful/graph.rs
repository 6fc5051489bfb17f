//! The explored graph `L_r` of a stateful search (paper 003, Sec. 2): each stored
//! state's explored transitions, each as the process that took it, its *action*
//! (what it touched: its footprint, interned) and the state it reached (none for a
//! probe: the next step of a process that waits, which did not run). The
//! source-set searches read it back at a state reached again: every action that may
//! follow that state (`A_s`, Alg. 2 line 16, Alg. 3 line 27) is one that its
//! explored continuations took. States are numbered in the order they are met
//! ([`StateId`]): one lookup of a state's fingerprint, and every other table of the
//! search is a vector.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use frontend::memory::Loc;
use rustc_hash::{FxHashMap, FxHashSet};

/// A state of the graph, numbered from 0 in the order the search met them.
pub type StateId = u32;

/// The `to` of a probe's transition.
const PROBE: StateId = StateId::MAX;

/// An action: a process and what its step touched ([`Graph::footprint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// The process, by its identity key.
    pub process: Fingerprint,
    /// The footprint, interned in the graph.
    pub footprint: u32,
}

/// One explored transition.
#[derive(Clone, Copy, Debug)]
struct Edge {
    action: Action,
    /// The state reached; [`PROBE`] for a probe (a waiting process's next step).
    to: StateId,
}

/// `L_r`.
#[derive(Debug, Default)]
pub struct Graph {
    ids: FxHashMap<Fingerprint, StateId>,
    /// The transitions from each state, by its id.
    edges: Vec<Vec<Edge>>,
    footprints: Vec<Footprint>,
    interned: FxHashMap<Footprint, u32>,
    /// The bytes of the transitions and footprints stored.
    bytes: u64,
}

impl Graph {
    /// The action of `process` touching `footprint`.
    pub fn action(&mut self, process: Fingerprint, footprint: &Footprint) -> Action {
        let id = match self.interned.get(footprint) {
            Some(&id) => id,
            None => {
                let id = self.footprints.len() as u32;
                let locations = footprint.reads.len() + footprint.writes.len();
                let size =
                    std::mem::size_of::<Footprint>() + locations * std::mem::size_of::<Loc>();
                // Once in the list, once as the key that interns it.
                self.bytes += 2 * size as u64;
                self.footprints.push(footprint.clone());
                self.interned.insert(footprint.clone(), id);
                id
            }
        };
        Action {
            process,
            footprint: id,
        }
    }

    /// The id of `state`, which it gets now if it has none.
    pub fn state(&mut self, state: Fingerprint) -> StateId {
        let next = self.edges.len() as StateId;
        let id = *self.ids.entry(state).or_insert(next);
        if id == next {
            self.edges.push(Vec::new());
        }
        id
    }

    /// What an action touched.
    pub fn footprint(&self, action: Action) -> &Footprint {
        &self.footprints[action.footprint as usize]
    }

    /// Records the transition `from --action--> to`.
    pub fn record(&mut self, from: StateId, action: Action, to: Option<StateId>) {
        self.bytes += std::mem::size_of::<Edge>() as u64;
        let to = to.unwrap_or(PROBE);
        self.edges[from as usize].push(Edge { action, to });
    }

    /// `A_s`: every action of a transition reachable from `s` in the graph, each
    /// once, in a fixed order; each transition is visited once (the paper's first
    /// optimisation of re-traversals, App. A).
    pub fn reachable(&self, s: StateId) -> Vec<Action> {
        let mut actions: FxHashSet<Action> = FxHashSet::default();
        let mut seen: FxHashSet<StateId> = FxHashSet::default();
        let mut todo = vec![s];
        seen.insert(s);
        while let Some(state) = todo.pop() {
            for (action, to) in self.from(state) {
                actions.insert(action);
                todo.extend(to.filter(|&to| seen.insert(to)));
            }
        }
        let mut actions: Vec<Action> = actions.into_iter().collect();
        actions.sort_unstable_by_key(|a| (a.process, a.footprint));
        actions
    }

    /// The transitions from `s`: each action, and the state reached (none for a
    /// probe).
    pub fn from(&self, s: StateId) -> impl Iterator<Item = (Action, Option<StateId>)> + '_ {
        let edges = self.edges.get(s as usize).map_or(&[][..], Vec::as_slice);
        edges
            .iter()
            .map(|e| (e.action, (e.to != PROBE).then_some(e.to)))
    }

    /// The bytes the graph holds: its transitions, its table of states (8 slots for
    /// each 7 it may fill) and its footprints, not counting the allocator's slack.
    pub fn bytes(&self) -> u64 {
        let slot = std::mem::size_of::<(Fingerprint, StateId)>() + 1;
        let table = self.ids.capacity() * 8 / 7 * slot;
        let lists = self.edges.capacity() * std::mem::size_of::<Vec<Edge>>();
        self.bytes + (table + lists) as u64
    }
}
