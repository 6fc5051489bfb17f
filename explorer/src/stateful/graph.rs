//! The explored graph `L_r` of a stateful search (paper 003, Sec. 2): each stored
//! state's explored transitions, each as the process that took it, its *action*
//! (what it touched: its footprint, interned) and the state it reached (none for a
//! probe: the next step of a process that waits, which did not run). The source-set searches read it back at a state reached
//! again: every action that may follow that state (`A_s`, Alg. 2 line 16, Alg. 3
//! line 27) is one that its explored continuations took.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use frontend::memory::Loc;
use rustc_hash::{FxHashMap, FxHashSet};

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
    /// The state reached; `None` for a probe (a waiting process's next step).
    to: Option<Fingerprint>,
}

/// `L_r`.
#[derive(Debug, Default)]
pub struct Graph {
    edges: FxHashMap<Fingerprint, Vec<Edge>>,
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

    /// What an action touched.
    pub fn footprint(&self, action: Action) -> &Footprint {
        &self.footprints[action.footprint as usize]
    }

    /// Records the transition `from --action--> to`.
    pub fn record(&mut self, from: Fingerprint, action: Action, to: Option<Fingerprint>) {
        self.bytes += std::mem::size_of::<Edge>() as u64;
        self.edges
            .entry(from)
            .or_default()
            .push(Edge { action, to });
    }

    /// `A_s`: every action of a transition reachable from `s` in the graph, each
    /// once, in a fixed order; each transition is visited once (the paper's first
    /// optimisation of re-traversals, App. A).
    pub fn reachable(&self, s: Fingerprint) -> Vec<Action> {
        let mut actions: FxHashSet<Action> = FxHashSet::default();
        let mut seen: FxHashSet<Fingerprint> = FxHashSet::default();
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
    pub fn from(&self, s: Fingerprint) -> impl Iterator<Item = (Action, Option<Fingerprint>)> + '_ {
        let edges = self.edges.get(&s).map_or(&[][..], Vec::as_slice);
        edges.iter().map(|e| (e.action, e.to))
    }

    /// The bytes the graph holds: its transitions, its table of states (8 slots for
    /// each 7 it may fill) and its footprints, not counting the allocator's slack.
    pub fn bytes(&self) -> u64 {
        let slot = std::mem::size_of::<(Fingerprint, Vec<Edge>)>() + 1;
        let table = self.edges.capacity() * 8 / 7 * slot;
        self.bytes + table as u64
    }
}
