//! The explored graph `L_r` of a stateful search (paper 003, Sec. 2): each stored
//! state's explored transitions, each as the process that took it, its *action*
//! (what it touched: its footprint, interned) and the state it reached (none for a
//! probe: the next step of a process that waits, which did not run). The
//! source-set searches read it back at a state reached again: every action that may
//! follow that state (`A_s`, Alg. 2 line 16, Alg. 3 line 27) is one that its
//! explored continuations took. States are named by their number in the store
//! ([`StateId`]), so every table of the graph is a vector; processes and footprints
//! are interned, so a transition takes 12 bytes. A state's transitions are
//! forgotten once its strongly connected component is finished and summarised
//! ([`Graph::forget`]; [`crate::stateful::summaries`]): the graph holds those of the
//! states still open alone.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use frontend::memory::Loc;
use rustc_hash::FxHashMap;

pub use crate::visited::StateId;

/// The `to` of a probe's transition.
const PROBE: StateId = StateId::MAX;

/// A process as the graph numbers it, from 0 in the order met
/// ([`Graph::process_number`]): the same in every path, as its identity key is.
pub type ProcessNumber = u32;

/// An action: a process and what its step touched ([`Graph::footprint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub process: ProcessNumber,
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
    /// The transitions from each state, by its number.
    edges: Vec<Vec<Edge>>,
    /// Each process's identity key, by number.
    processes: Vec<Fingerprint>,
    numbers: FxHashMap<Fingerprint, ProcessNumber>,
    footprints: Vec<Footprint>,
    interned: FxHashMap<Footprint, u32>,
    /// The bytes of the transitions and footprints stored.
    bytes: u64,
}

impl Graph {
    /// The number of the process whose identity key is `key`, which it gets now if
    /// it has none.
    pub fn process_number(&mut self, key: Fingerprint) -> ProcessNumber {
        let next = self.processes.len() as ProcessNumber;
        let number = *self.numbers.entry(key).or_insert(next);
        if number == next {
            self.processes.push(key);
        }
        number
    }

    /// The identity key of the process numbered `number`.
    pub fn process(&self, number: ProcessNumber) -> Fingerprint {
        self.processes[number as usize]
    }

    /// The action of `process` touching `footprint`.
    pub fn action(&mut self, process: ProcessNumber, footprint: &Footprint) -> Action {
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

    /// Forgets the transitions from `states` (their summaries hold what the
    /// searches read of them): they list none from then on.
    pub fn forget(&mut self, states: &[StateId]) {
        for &s in states {
            let edges = std::mem::take(&mut self.edges[s as usize]);
            self.bytes -= (edges.capacity() * std::mem::size_of::<Edge>()) as u64;
        }
    }

    /// Records the transition `from --action--> to`.
    pub fn record(&mut self, from: StateId, action: Action, to: Option<StateId>) {
        let to = to.unwrap_or(PROBE);
        self.edges[from as usize].push(Edge { action, to });
    }

    /// The transitions from `s`: each action, and the state reached (none for a
    /// probe).
    pub fn from(&self, s: StateId) -> impl Iterator<Item = (Action, Option<StateId>)> + '_ {
        let edges = self.edges.get(s as usize).map_or(&[][..], Vec::as_slice);
        edges
            .iter()
            .map(|e| (e.action, (e.to != PROBE).then_some(e.to)))
    }

    /// The transitions from `s` whose targets are `at_least` or more (a probe's
    /// aside): each one's index among them, and its target.
    pub fn targets_from(&self, s: StateId, at_least: StateId) -> Vec<(usize, StateId)> {
        let edges = self.edges.get(s as usize).map_or(&[][..], Vec::as_slice);
        (edges.iter().enumerate())
            .filter(|(_, e)| e.to >= at_least && e.to != PROBE)
            .map(|(i, e)| (i, e.to))
            .collect()
    }

    /// Gives the `i`-th transition from `s` the target `to`.
    pub fn set_target(&mut self, s: StateId, i: usize, to: StateId) {
        self.edges[s as usize][i].to = to;
    }

    /// How many processes the graph has numbered.
    pub fn processes(&self) -> usize {
        self.processes.len()
    }

    /// The bytes the graph holds: its transitions (room for every one a state may
    /// have), its lists of them and its footprints, not counting the allocator's
    /// slack.
    pub fn bytes(&self) -> u64 {
        let lists = self.edges.capacity() * std::mem::size_of::<Vec<Edge>>();
        self.bytes + lists as u64
    }
}
