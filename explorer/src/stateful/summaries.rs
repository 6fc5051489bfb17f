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
//!
//! Unions are sets of bits ([`Key`]), one row of words per process and per kind of
//! access: a union is an `or`, a conflict an `and`.

use crate::dependency::footprint::{Footprint, WHOLE};
use crate::stateful::graph::{Graph, ProcessNumber, StateId};
use frontend::ir::GlobalId;
use frontend::memory::Loc;
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// What a bit stands for. A union of footprints sets, for each location `g[e]` it
/// touched, `Elem(g[e])` and `Global(g)`; for a whole global `g` ([`WHOLE`]),
/// `Global(g)` and `Whole(g)`. A footprint asks, for each `g[e]` it touched, for
/// `Elem(g[e])` or `Whole(g)`; for a whole `g`, for `Global(g)`. It meets the union's
/// bits exactly when one of its locations overlaps one of the union's (a whole
/// global overlapping each of its elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Elem(Loc),
    Global(GlobalId),
    Whole(GlobalId),
}

/// The bits of a footprint's reads or writes, as bit numbers.
type Bits = SmallVec<[u32; 4]>;

/// A footprint as bits: as a member of a union, and as a question to one.
#[derive(Debug, Default)]
struct Interned {
    member_reads: Bits,
    member_writes: Bits,
    question_reads: Bits,
    question_writes: Bits,
}

/// Each process's union, as rows of `stride` words: for the process numbered `p`
/// in the graph, its reads at row `2p`, its writes at row `2p + 1` (processes
/// numbered after it was made have none).
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    stride: usize,
    words: Box<[u64]>,
}

impl Summary {
    /// Word `w` of the row of `process`'s reads (`write` false) or writes.
    fn word(&self, process: usize, write: bool, w: usize) -> u64 {
        if w >= self.stride {
            return 0;
        }
        let row = 2 * process + usize::from(write);
        self.words.get(row * self.stride + w).copied().unwrap_or(0)
    }

    fn processes(&self) -> usize {
        self.words.len() / (2 * self.stride).max(1)
    }
}

/// The summary being made, rows of `stride` words like a [`Summary`]'s.
#[derive(Debug, Default)]
struct Scratch {
    stride: usize,
    words: Vec<u64>,
}

impl Scratch {
    fn reset(&mut self, processes: usize, stride: usize) {
        self.stride = stride;
        self.words.clear();
        self.words.resize(2 * processes * stride, 0);
    }

    fn set(&mut self, process: ProcessNumber, write: bool, bits: &[u32]) {
        let row = 2 * process as usize + usize::from(write);
        for &b in bits {
            let (w, b) = (b as usize / 64, b % 64);
            self.words[row * self.stride + w] |= 1 << b;
        }
    }

    fn union(&mut self, summary: &Summary) {
        for p in 0..summary.processes() {
            for write in [false, true] {
                let row = 2 * p + usize::from(write);
                for w in 0..summary.stride {
                    self.words[row * self.stride + w] |= summary.word(p, write, w);
                }
            }
        }
    }

    /// Whether `summary` holds every bit set here.
    fn within(&self, summary: &Summary) -> bool {
        let rows = self.words.chunks(self.stride.max(1));
        rows.enumerate().all(|(row, words)| {
            let (p, write) = (row / 2, row % 2 == 1);
            (words.iter().enumerate()).all(|(w, &x)| x & !summary.word(p, write, w) == 0)
        })
    }

    fn hash(&self) -> u64 {
        let mut h = FxHasher::default();
        (self.stride, &self.words).hash(&mut h);
        h.finish()
    }
}

/// A state without a summary yet.
const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Summaries {
    /// Each state's summary, by id ([`NONE`] before its component is finished).
    of: Vec<u32>,
    summaries: Vec<Summary>,
    /// The summaries, found by their words.
    interned: HashTable<u32>,
    /// Each key's bit.
    bits: FxHashMap<Key, u32>,
    /// The graph's footprints as bits, by their number in the graph.
    footprints: Vec<Interned>,
    scratch: Scratch,
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
        let mut below: SmallVec<[u32; 8]> = SmallVec::new();
        for &s in component {
            for (action, to) in graph.from(s) {
                self.intern(graph, action.footprint);
                below.extend(to.filter(outside).and_then(|to| self.id(to)));
            }
        }
        let stride = self.bits.len().div_ceil(64);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.reset(graph.processes(), stride);
        for &s in component {
            for (action, _) in graph.from(s) {
                let f = &self.footprints[action.footprint as usize];
                scratch.set(action.process, false, &f.member_reads);
                scratch.set(action.process, true, &f.member_writes);
            }
        }
        below.sort_unstable();
        below.dedup();
        // The common case, a chain: one summary below that already holds every
        // action taken here, which is then this component's too.
        let id = match below[..] {
            [only] if scratch.within(&self.summaries[only as usize]) => only,
            _ => {
                for &id in &below {
                    scratch.union(&self.summaries[id as usize]);
                }
                self.summary(&scratch)
            }
        };
        self.scratch = scratch;
        self.assign(component, id);
    }

    /// The number of the summary `scratch` holds, stored now if new.
    fn summary(&mut self, scratch: &Scratch) -> u32 {
        let hash = scratch.hash();
        let summaries = &self.summaries;
        let same = |&id: &u32| {
            let s = &summaries[id as usize];
            s.stride == scratch.stride && *s.words == scratch.words[..]
        };
        if let Some(&id) = self.interned.find(hash, same) {
            return id;
        }
        let id = self.summaries.len() as u32;
        self.summaries.push(Summary {
            stride: scratch.stride,
            words: scratch.words.clone().into_boxed_slice(),
        });
        self.bytes += (scratch.words.len() * 8 + std::mem::size_of::<Summary>() + 4) as u64;
        let summaries = &self.summaries;
        let rehash = |&id: &u32| {
            let s = &summaries[id as usize];
            let mut h = FxHasher::default();
            (s.stride, &s.words[..]).hash(&mut h);
            h.finish()
        };
        self.interned.insert_unique(hash, id, rehash);
        id
    }

    /// The processes (by number in `graph`) whose union in `state`'s summary
    /// conflicts with the footprint numbered `footprint` in `graph`; none before the
    /// state's component is finished.
    pub fn conflicting(
        &mut self,
        graph: &Graph,
        state: StateId,
        footprint: u32,
    ) -> Option<impl Iterator<Item = ProcessNumber> + '_> {
        let id = self.id(state)?;
        self.intern(graph, footprint);
        let f = &self.footprints[footprint as usize];
        let summary = &self.summaries[id as usize];
        let meets = move |p: usize, write: bool, bits: &Bits| {
            (bits.iter()).any(|&b| summary.word(p, write, b as usize / 64) & (1 << (b % 64)) != 0)
        };
        Some((0..summary.processes()).filter_map(move |p| {
            let conflicts = meets(p, false, &f.question_writes)
                || meets(p, true, &f.question_writes)
                || meets(p, true, &f.question_reads);
            conflicts.then_some(p as ProcessNumber)
        }))
    }

    /// Makes the bits of the graph's footprint numbered `footprint`, if not yet made.
    fn intern(&mut self, graph: &Graph, footprint: u32) {
        while self.footprints.len() <= footprint as usize {
            let f: &Footprint = graph.footprint_by_number(self.footprints.len() as u32);
            let mut interned = Interned::default();
            for &l in &f.reads {
                let [m1, m2, q1, q2] = self.keys(l);
                interned.member_reads.extend([m1, m2]);
                interned.question_reads.extend([q1, q2]);
            }
            for &l in &f.writes {
                let [m1, m2, q1, q2] = self.keys(l);
                interned.member_writes.extend([m1, m2]);
                interned.question_writes.extend([q1, q2]);
            }
            self.bytes += std::mem::size_of::<Interned>() as u64;
            self.footprints.push(interned);
        }
    }

    /// The bits of location `l`: two for a union, two for a question (the same
    /// twice for a whole global, which asks one).
    fn keys(&mut self, l: Loc) -> [u32; 4] {
        let global = self.bit(Key::Global(l.global));
        let whole = self.bit(Key::Whole(l.global));
        if l.elem == WHOLE {
            [global, whole, global, global]
        } else {
            let elem = self.bit(Key::Elem(l));
            [elem, global, elem, whole]
        }
    }

    fn bit(&mut self, key: Key) -> u32 {
        let next = self.bits.len() as u32;
        *self.bits.entry(key).or_insert(next)
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

    /// The bytes held, roughly (the tables' slack aside).
    pub fn bytes(&self) -> u64 {
        self.bytes + self.of.capacity() as u64 * 4 + self.interned.capacity() as u64 * 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::Fingerprint;
    use crate::stateful::graph::Action;

    fn loc(global: GlobalId, elem: i64) -> Loc {
        Loc { global, elem }
    }

    /// A graph of one state with one transition per footprint, each of its own
    /// process, to a second state with none.
    fn summarised(footprints: &[Footprint]) -> (Graph, Summaries) {
        let mut graph = Graph::default();
        graph.open(0, footprints.len());
        graph.open(1, 0);
        for (p, f) in footprints.iter().enumerate() {
            let p = graph.process_number(p as Fingerprint);
            let a = graph.action(p, f);
            graph.record(0, a, Some(1));
        }
        let mut summaries = Summaries::default();
        summaries.finish(&graph, &[1]);
        summaries.finish(&graph, &[0]);
        (graph, summaries)
    }

    fn conflicting(
        graph: &mut Graph,
        summaries: &mut Summaries,
        f: &Footprint,
    ) -> Vec<Fingerprint> {
        let asker = graph.process_number(99);
        let Action { footprint, .. } = graph.action(asker, f);
        let found = summaries
            .conflicting(graph, 0, footprint)
            .expect("finished");
        let found: Vec<u32> = found.collect();
        found.into_iter().map(|p| graph.process(p)).collect()
    }

    #[test]
    fn a_union_conflicts_with_what_one_of_its_footprints_does() {
        let reads = |l: Vec<Loc>| Footprint {
            reads: l,
            writes: vec![],
        };
        let writes = |l: Vec<Loc>| Footprint {
            reads: vec![],
            writes: l,
        };
        let (mut graph, mut summaries) = summarised(&[
            reads(vec![loc(0, 0)]),
            writes(vec![loc(1, 3)]),
            reads(vec![loc(2, WHOLE)]),
        ]);
        let mut ask = |f: Footprint| conflicting(&mut graph, &mut summaries, &f);
        // Reads meet only writes.
        assert_eq!(ask(reads(vec![loc(0, 0)])), Vec::<Fingerprint>::new());
        assert_eq!(ask(writes(vec![loc(0, 0)])), vec![0]);
        // An element meets the same element, or the whole global.
        assert_eq!(ask(reads(vec![loc(1, 3)])), vec![1]);
        assert_eq!(ask(reads(vec![loc(1, 4)])), Vec::<Fingerprint>::new());
        assert_eq!(ask(reads(vec![loc(1, WHOLE)])), vec![1]);
        assert_eq!(ask(writes(vec![loc(2, 7)])), vec![2]);
        assert_eq!(ask(writes(vec![loc(2, WHOLE)])), vec![2]);
        assert_eq!(ask(writes(vec![loc(3, WHOLE)])), Vec::<Fingerprint>::new());
    }
}
