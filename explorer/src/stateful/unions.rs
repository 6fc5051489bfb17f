//! DL-S-POR's summaries ([`crate::stateful::summaries`]): for each process, the union
//! of the footprints of every action reachable from a finished state. DL-S-POR asks,
//! when it backs up to a state `s` after `t`'s step to `s'`, which processes take an
//! action reachable from `s'` that is dependent on `t`'s (Alg. 3, lines 27–28). A
//! union answers exactly: a footprint conflicts with a union of footprints iff it
//! conflicts with one of them (it writes what one reads or writes, or reads what one
//! writes).
//!
//! A union is a set of bits (`Key`, below): each process has a row for its reads and a row
//! for its writes.

use crate::dependency::footprint::{Footprint, WHOLE};
use crate::fingerprint::Fingerprint;
use crate::parallel::shared_summaries::{Published, Row, SharedSummaries};
use crate::stateful::exchange::Exchanged;
use crate::stateful::graph::{Action, Graph, ProcessNumber, StateId};
use crate::stateful::summaries::{Kind, Scratch, Summaries, Summary};
use frontend::ir::GlobalId;
use frontend::memory::Loc;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::Arc;

/// What a bit stands for. A union of footprints sets, for each location `g[e]` it
/// touched, `Elem(g[e])` and `Global(g)`; for a whole global `g` ([`WHOLE`]),
/// `Global(g)` and `Whole(g)`. A footprint asks, for each `g[e]` it touched, for
/// `Elem(g[e])` or `Whole(g)`; for a whole `g`, for `Global(g)`. It meets the union's
/// bits exactly when one of its locations overlaps one of the union's (a whole
/// global overlapping each of its elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Elem(Loc),
    Global(GlobalId),
    Whole(GlobalId),
}

/// A bit whose key has no number for all threads yet, or the reverse.
const UNKNOWN: u32 = u32::MAX;

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

/// The kind of DL-S-POR's summaries: a process's reads at row `2p`, its writes at
/// row `2p + 1`, for the process numbered `p` in the graph.
#[derive(Debug, Default)]
pub struct Unions {
    /// Each key's bit.
    bits: FxHashMap<Key, u32>,
    /// Each bit's key.
    keys: Vec<Key>,
    /// On threads: each bit's key's number for all threads
    /// ([`SharedSummaries::number`]; [`UNKNOWN`] before it is asked), and each
    /// such number's bit here.
    shared_of_bit: Vec<u32>,
    bit_of_shared: Vec<u32>,
    /// The graph's footprints as bits, by their number in the graph.
    footprints: Vec<Interned>,
}

impl Kind for Unions {
    fn prepare(&mut self, graph: &Graph, action: Action) {
        self.intern(graph, action.footprint);
    }

    fn rows(&self, graph: &Graph) -> usize {
        2 * graph.processes()
    }

    fn width(&self) -> usize {
        self.bits.len()
    }

    fn set(&self, action: Action, scratch: &mut Scratch) {
        let f = &self.footprints[action.footprint as usize];
        let row = 2 * action.process as usize;
        scratch.set(row, &f.member_reads);
        scratch.set(row + 1, &f.member_writes);
    }

    fn bytes(&self) -> u64 {
        (self.footprints.len() * std::mem::size_of::<Interned>()) as u64
    }
}

impl Unions {
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

    /// Bit `bit`'s key's number for all threads.
    fn shared_number(&mut self, bit: u32, shared: &SharedSummaries) -> u32 {
        let b = bit as usize;
        if self.shared_of_bit.len() <= b {
            self.shared_of_bit.resize(b + 1, UNKNOWN);
        }
        if self.shared_of_bit[b] == UNKNOWN {
            let n = shared.number(self.keys[b]);
            self.shared_of_bit[b] = n;
            self.note_shared(n, bit);
        }
        self.shared_of_bit[b]
    }

    /// The bit here of the key numbered `number` for all threads.
    fn local_bit(&mut self, number: u32, shared: &SharedSummaries) -> u32 {
        match self.bit_of_shared.get(number as usize) {
            Some(&b) if b != UNKNOWN => b,
            _ => {
                let bit = self.bit(shared.key(number));
                self.note_shared(number, bit);
                bit
            }
        }
    }

    fn note_shared(&mut self, number: u32, bit: u32) {
        let n = number as usize;
        if self.bit_of_shared.len() <= n {
            self.bit_of_shared.resize(n + 1, UNKNOWN);
        }
        self.bit_of_shared[n] = bit;
    }

    fn bit(&mut self, key: Key) -> u32 {
        let next = self.bits.len() as u32;
        let bit = *self.bits.entry(key).or_insert(next);
        if bit == next {
            self.keys.push(key);
        }
        bit
    }
}

impl Exchanged for Summaries<Unions> {
    /// `state`'s summary by what its numbers stand for, for other threads
    /// ([`crate::parallel::shared_summaries`]); `None` before its component is
    /// finished.
    fn published(
        &mut self,
        graph: &Graph,
        state: StateId,
        shared: &SharedSummaries,
    ) -> Option<Published> {
        let id = self.number(state)?;
        let summary = self.get(id);
        let rows: Vec<(usize, Vec<u32>, Vec<u32>)> = (0..summary.rows() / 2)
            .map(|p| {
                (
                    p,
                    summary.bits(2 * p).collect(),
                    summary.bits(2 * p + 1).collect(),
                )
            })
            .filter(|(_, reads, writes): &(usize, Vec<u32>, Vec<u32>)| {
                !reads.is_empty() || !writes.is_empty()
            })
            .collect();
        let unions = &mut self.kind;
        let mut shared_of = |bits: Vec<u32>| -> Vec<u32> {
            bits.into_iter()
                .map(|b| unions.shared_number(b, shared))
                .collect()
        };
        let rows = (rows.into_iter())
            .map(|(p, r, w)| {
                (
                    graph.process(p as ProcessNumber),
                    shared_of(r),
                    shared_of(w),
                )
            })
            .collect();
        Some(Published { rows })
    }

    fn read_back(
        &mut self,
        graph: &mut Graph,
        rows: &[Arc<Row>],
        shared: &SharedSummaries,
    ) -> StateId {
        let mut bits: Vec<(usize, Bits, Bits)> = Vec::with_capacity(rows.len());
        for row in rows {
            let (key, reads, writes) = &**row;
            let p = graph.process_number(*key) as usize;
            let mut of = |numbers: &[u32]| -> Bits {
                numbers
                    .iter()
                    .map(|&n| self.kind.local_bit(n, shared))
                    .collect()
            };
            bits.push((p, of(reads), of(writes)));
        }
        self.made(graph, |_, scratch| {
            for (p, reads, writes) in &bits {
                scratch.set(2 * p, reads);
                scratch.set(2 * p + 1, writes);
            }
        })
    }

    /// A summary of `rows` ([`crate::stateful::may_follow`]): for each process (by
    /// identity key, numbered in `graph` now if new), the locations it may read and
    /// write. Its target ([`crate::stateful::summaries::SUMMARY`]).
    fn may_follow(&mut self, graph: &mut Graph, rows: &[(Fingerprint, Footprint)]) -> StateId {
        let mut bits: Vec<(usize, Bits, Bits)> = Vec::with_capacity(rows.len());
        for (key, touched) in rows {
            let p = graph.process_number(*key) as usize;
            let mut member = |locs: &[Loc]| -> Bits {
                (locs.iter())
                    .flat_map(|&l| {
                        let [m1, m2, _, _] = self.kind.keys(l);
                        [m1, m2]
                    })
                    .collect()
            };
            bits.push((p, member(&touched.reads), member(&touched.writes)));
        }
        self.made(graph, |_, scratch| {
            for (p, reads, writes) in &bits {
                scratch.set(2 * p, reads);
                scratch.set(2 * p + 1, writes);
            }
        })
    }
}

impl Summaries<Unions> {
    /// The processes (by number in `graph`) whose union in `state`'s summary
    /// conflicts with the footprint numbered `footprint` in `graph`; none before the
    /// state's component is finished.
    pub fn conflicting(
        &mut self,
        graph: &Graph,
        state: StateId,
        footprint: u32,
    ) -> Option<impl Iterator<Item = ProcessNumber> + '_> {
        self.kind.intern(graph, footprint);
        let f = &self.kind.footprints[footprint as usize];
        let summary: &Summary = self.of(state)?;
        let meets = move |row: usize, bits: &Bits| bits.iter().any(|&b| summary.has(row, b));
        Some((0..summary.rows() / 2).filter_map(move |p| {
            let conflicts = meets(2 * p, &f.question_writes)
                || meets(2 * p + 1, &f.question_writes)
                || meets(2 * p + 1, &f.question_reads);
            conflicts.then_some(p as ProcessNumber)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::Fingerprint;

    fn loc(global: GlobalId, elem: i64) -> Loc {
        Loc { global, elem }
    }

    /// A graph of one state with one transition per footprint, each of its own
    /// process, to a second state with none, both summarised.
    fn summarised(footprints: &[Footprint]) -> (Graph, Summaries<Unions>) {
        let mut graph = Graph::default();
        graph.open(0, footprints.len());
        graph.open(1, 0);
        for (p, f) in footprints.iter().enumerate() {
            let p = graph.process_number(p as Fingerprint);
            let a = graph.action(p, f);
            graph.record(0, a, Some(1));
        }
        let mut summaries = Summaries::<Unions>::default();
        summaries.finish(&graph, &[1]);
        summaries.finish(&graph, &[0]);
        (graph, summaries)
    }

    fn conflicting(graph: &mut Graph, unions: &mut Summaries<Unions>, f: &Footprint) -> Vec<u32> {
        let asker = graph.process_number(99);
        let Action { footprint, .. } = graph.action(asker, f);
        let found = unions.conflicting(graph, 0, footprint).expect("finished");
        found.collect()
    }

    fn reads(l: Vec<Loc>) -> Footprint {
        Footprint {
            reads: l,
            writes: vec![],
        }
    }

    fn writes(l: Vec<Loc>) -> Footprint {
        Footprint {
            reads: vec![],
            writes: l,
        }
    }

    #[test]
    fn a_union_conflicts_with_what_one_of_its_footprints_does() {
        let (mut graph, mut unions) = summarised(&[
            reads(vec![loc(0, 0)]),
            writes(vec![loc(1, 3)]),
            reads(vec![loc(2, WHOLE)]),
        ]);
        let mut ask = |f: Footprint| conflicting(&mut graph, &mut unions, &f);
        let none: Vec<u32> = Vec::new();
        // Reads meet only writes.
        assert_eq!(ask(reads(vec![loc(0, 0)])), none);
        assert_eq!(ask(writes(vec![loc(0, 0)])), vec![0]);
        // An element meets the same element, or the whole global.
        assert_eq!(ask(reads(vec![loc(1, 3)])), vec![1]);
        assert_eq!(ask(reads(vec![loc(1, 4)])), none);
        assert_eq!(ask(reads(vec![loc(1, WHOLE)])), vec![1]);
        assert_eq!(ask(writes(vec![loc(2, 7)])), vec![2]);
        assert_eq!(ask(writes(vec![loc(2, WHOLE)])), vec![2]);
        assert_eq!(ask(writes(vec![loc(3, WHOLE)])), none);
    }

    /// A summary published by one thread and read back by another, which numbers
    /// processes and locations in another order, answers every question as it did.
    #[test]
    fn a_summary_read_back_in_another_numbering_answers_as_the_original() {
        let footprints = [
            reads(vec![loc(0, 0)]),
            writes(vec![loc(1, 3)]),
            reads(vec![loc(2, WHOLE)]),
        ];
        let (mut graph, mut unions) = summarised(&footprints);
        let shared = SharedSummaries::default();
        // The reader's thread numbered a location first, for all threads.
        shared.number(Key::Global(9));
        let published = unions.published(&graph, 0, &shared).expect("finished");
        let published = shared.get(shared.publish(published));
        // The reader met the processes in reverse order, and other locations first.
        let mut other = Graph::default();
        for p in (0..5).rev() {
            other.process_number(p as Fingerprint);
        }
        let mut read = Summaries::<Unions>::default();
        let first = other.action(0, &writes(vec![loc(7, 1), loc(2, 4)]));
        read.kind.intern(&other, first.footprint);
        let target = read.read_back(&mut other, &published, &shared);
        let questions = [
            reads(vec![loc(0, 0)]),
            writes(vec![loc(0, 0)]),
            reads(vec![loc(1, 3)]),
            reads(vec![loc(1, 4)]),
            reads(vec![loc(1, WHOLE)]),
            writes(vec![loc(2, 7)]),
            writes(vec![loc(3, WHOLE)]),
        ];
        for q in questions {
            let asked = conflicting(&mut graph, &mut unions, &q);
            let keys_then: Vec<Fingerprint> = asked.iter().map(|&p| graph.process(p)).collect();
            let asker = other.process_number(99);
            let a = other.action(asker, &q);
            let now: Vec<Fingerprint> = (read.conflicting(&other, target, a.footprint))
                .expect("a summary")
                .map(|p| other.process(p))
                .collect();
            let (mut then, mut now) = (keys_then, now);
            then.sort();
            now.sort();
            assert_eq!(then, now, "{q:?}");
        }
    }

    #[test]
    fn a_state_not_finished_has_no_answer() {
        let mut graph = Graph::default();
        graph.open(0, 1);
        let p = graph.process_number(1);
        let a = graph.action(p, &Footprint::default());
        graph.record(0, a, None);
        let mut unions = Summaries::<Unions>::default();
        assert!(unions.conflicting(&graph, 0, a.footprint).is_none());
    }
}
