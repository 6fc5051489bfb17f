//! The explored graph `L_r` of a stateful search (paper 003, Sec. 2): each stored
//! state's explored transitions, each as the process that took it, its *action*
//! (what it touched: its footprint, interned) and the state it reached (none for a
//! probe: the next step of a process that waits, which did not run). The
//! source-set searches read it back at a state reached again: every action that may
//! follow that state (`A_s`, Alg. 2 line 16, Alg. 3 line 27) is one that its
//! explored continuations took. States are named by their number in the store
//! ([`StateId`]), so every table of the graph is a vector; processes and footprints
//! are interned, so a transition takes 12 bytes.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use frontend::memory::Loc;
use rustc_hash::{FxHashMap, FxHashSet};

pub use crate::visited::StateId;

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
    /// The process, interned in the graph.
    process: u32,
    footprint: u32,
    /// The state reached; [`PROBE`] for a probe (a waiting process's next step).
    to: StateId,
}

/// `L_r`.
#[derive(Debug, Default)]
pub struct Graph {
    /// The transitions from each state, by its number.
    edges: Vec<Vec<Edge>>,
    processes: Vec<Fingerprint>,
    process_ids: FxHashMap<Fingerprint, u32>,
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

    /// `state`, new, will have at most `transitions` transitions (its enabled and
    /// waiting processes): room for them, made once.
    pub fn open(&mut self, state: StateId, transitions: usize) {
        let i = state as usize;
        if self.edges.len() <= i {
            self.edges.resize_with(i + 1, Vec::new);
        }
        self.edges[i].reserve_exact(transitions);
        self.bytes += (transitions * std::mem::size_of::<Edge>()) as u64;
    }

    /// What an action touched.
    pub fn footprint(&self, action: Action) -> &Footprint {
        self.footprint_by_number(action.footprint)
    }

    /// The footprint interned as `number` (an [`Action::footprint`]).
    pub fn footprint_by_number(&self, number: u32) -> &Footprint {
        &self.footprints[number as usize]
    }

    /// Records the transition `from --action--> to`.
    pub fn record(&mut self, from: StateId, action: Action, to: Option<StateId>) {
        let process = match self.process_ids.get(&action.process) {
            Some(&p) => p,
            None => {
                let p = self.processes.len() as u32;
                self.processes.push(action.process);
                self.process_ids.insert(action.process, p);
                p
            }
        };
        self.edges[from as usize].push(Edge {
            process,
            footprint: action.footprint,
            to: to.unwrap_or(PROBE),
        });
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
        edges.iter().map(|e| {
            let action = Action {
                process: self.processes[e.process as usize],
                footprint: e.footprint,
            };
            (action, (e.to != PROBE).then_some(e.to))
        })
    }

    /// The transitions from `s` as they are kept: each process by its number
    /// ([`Graph::process`]), its footprint by number, and the state reached (none
    /// for a probe).
    pub fn numbered_from(
        &self,
        s: StateId,
    ) -> impl Iterator<Item = (u32, u32, Option<StateId>)> + '_ {
        let edges = self.edges.get(s as usize).map_or(&[][..], Vec::as_slice);
        (edges.iter()).map(|e| (e.process, e.footprint, (e.to != PROBE).then_some(e.to)))
    }

    /// How many processes the graph has numbered.
    pub fn processes(&self) -> usize {
        self.processes.len()
    }

    /// The process numbered `number`, by its identity key.
    pub fn process(&self, number: u32) -> Fingerprint {
        self.processes[number as usize]
    }

    /// The bytes the graph holds: its transitions (room for every one a state may
    /// have), its lists of them and its footprints, not counting the allocator's
    /// slack.
    pub fn bytes(&self) -> u64 {
        let lists = self.edges.capacity() * std::mem::size_of::<Vec<Edge>>();
        self.bytes + lists as u64
    }
}
