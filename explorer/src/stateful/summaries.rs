//! What may follow a finished state of the explored graph, summarised once, so that
//! the searches that ask it at every back-up or every state reached again read a
//! summary rather than traverse the graph (each traversal costs the size of the
//! graph, quadratic in all). What a summary keeps of each action is its [`Kind`]'s:
//! for DL-S-POR, per process, the union of the footprints ([`crate::stateful::unions`]);
//! for DE-S-POR, the set of actions ([`crate::stateful::reachable`]).
//!
//! A summary is made once, when the strongly connected component of its state is
//! finished ([`crate::stateful::cycles`]): its states reach the same states, so they
//! share one summary, that of their transitions' actions and of the summaries of the
//! components their transitions leave to, which are finished before it (a component
//! finishes after every component it reaches). Nothing is added to what follows a
//! finished state, so the summary stays exact (on threads, a summary that another
//! thread's state or a branch given away adds to may hold more: see
//! [`crate::stateful::search`]). Equal summaries are stored once.
//!
//! A summary is rows of bits, as its kind lays them out: a union of summaries is an
//! `or`, which is all that making one takes.

use crate::stateful::graph::{Action, Graph, StateId};
use hashbrown::HashTable;
use rustc_hash::{FxHashSet, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// What a summary keeps of each action, as bits in its rows.
pub trait Kind {
    /// Makes what `action`'s bits need, if not yet made.
    fn prepare(&mut self, graph: &Graph, action: Action);
    /// The rows of a summary made now.
    fn rows(&self, graph: &Graph) -> usize;
    /// The bits a row may need now.
    fn width(&self) -> usize;
    /// Sets `action`'s bits, prepared.
    fn set(&self, action: Action, scratch: &mut Scratch);
    /// The bytes it holds.
    fn bytes(&self) -> u64;
}

/// A summary: rows of `stride` words (rows a kind adds later, and bits past a
/// row's end, are clear).
#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    stride: usize,
    words: Box<[u64]>,
}

impl Summary {
    /// Word `w` of row `row`.
    pub fn word(&self, row: usize, w: usize) -> u64 {
        if w >= self.stride {
            return 0;
        }
        self.words.get(row * self.stride + w).copied().unwrap_or(0)
    }

    /// Whether bit `bit` of row `row` is set.
    pub fn has(&self, row: usize, bit: u32) -> bool {
        self.word(row, bit as usize / 64) & (1 << (bit % 64)) != 0
    }

    /// The rows it has.
    pub fn rows(&self) -> usize {
        self.words.len() / self.stride.max(1)
    }

    /// The bits set in row `row`, in increasing order.
    pub fn bits(&self, row: usize) -> impl Iterator<Item = u32> + '_ {
        (0..self.stride).flat_map(move |w| {
            let mut word = self.word(row, w);
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros();
                    word &= word - 1;
                    w as u32 * 64 + b
                })
            })
        })
    }
}

/// The summary being made, rows of `stride` words like a [`Summary`]'s.
#[derive(Debug, Default)]
pub struct Scratch {
    stride: usize,
    words: Vec<u64>,
}

impl Scratch {
    fn reset(&mut self, rows: usize, stride: usize) {
        self.stride = stride;
        self.words.clear();
        self.words.resize(rows * stride, 0);
    }

    /// Sets `bits` in row `row`.
    pub fn set(&mut self, row: usize, bits: &[u32]) {
        for &b in bits {
            let (w, b) = (b as usize / 64, b % 64);
            self.words[row * self.stride + w] |= 1 << b;
        }
    }

    fn union(&mut self, summary: &Summary) {
        for row in 0..summary.rows() {
            for w in 0..summary.stride {
                self.words[row * self.stride + w] |= summary.word(row, w);
            }
        }
    }

    /// Whether `summary` holds every bit set here.
    fn within(&self, summary: &Summary) -> bool {
        let rows = self.words.chunks(self.stride.max(1));
        rows.enumerate().all(|(row, words)| {
            (words.iter().enumerate()).all(|(w, &x)| x & !summary.word(row, w) == 0)
        })
    }
}

fn hash(stride: usize, words: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    (stride, words).hash(&mut h);
    h.finish()
}

/// A state without a summary yet.
const NONE: u32 = u32::MAX;

/// A transition's target (from this up to [`PENDING`]) that names a summary, its
/// number added to this, rather than a state, on threads: one made from the
/// program text ([`Summaries::made`], [`crate::stateful::may_follow`]), one another
/// thread published and this one read back, or this thread's own of a state it
/// has finished with.
pub const SUMMARY: StateId = 1 << 31;

/// A transition's target (from this up) that a search has yet to give: a state
/// another thread has not finished with ([`crate::stateful::search`]). Every such
/// target is given before a summary is made of its source.
pub const PENDING: StateId = 3 << 30;

/// The summaries of the finished states, of kind `K`.
#[derive(Debug, Default)]
pub struct Summaries<K> {
    /// Each state's summary, by id ([`NONE`] before its component is finished).
    of: Vec<u32>,
    summaries: Vec<Summary>,
    /// The summaries, found by their words.
    interned: HashTable<u32>,
    pub kind: K,
    scratch: Scratch,
    bytes: u64,
}

impl<K: Kind> Summaries<K> {
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
                self.kind.prepare(graph, action);
                below.extend(to.filter(outside).and_then(|to| self.id(to)));
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.reset(self.kind.rows(graph), self.kind.width().div_ceil(64));
        for &s in component {
            for (action, _) in graph.from(s) {
                self.kind.set(action, &mut scratch);
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
                self.store(&scratch)
            }
        };
        self.scratch = scratch;
        for &s in component {
            let i = s as usize;
            if self.of.len() <= i {
                self.of.resize(i + 1, NONE);
            }
            self.of[i] = id;
        }
    }

    /// A summary made by `fill` rather than from the graph, as the target
    /// ([`SUMMARY`] and its number) of the transitions it follows.
    pub fn made(&mut self, graph: &Graph, fill: impl FnOnce(&K, &mut Scratch)) -> StateId {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.reset(self.kind.rows(graph), self.kind.width().div_ceil(64));
        fill(&self.kind, &mut scratch);
        let id = self.store(&scratch);
        self.scratch = scratch;
        SUMMARY + id
    }

    /// The number of the summary `scratch` holds, stored now if new.
    fn store(&mut self, scratch: &Scratch) -> u32 {
        let h = hash(scratch.stride, &scratch.words);
        let summaries = &self.summaries;
        let same = |&id: &u32| {
            let s = &summaries[id as usize];
            s.stride == scratch.stride && *s.words == scratch.words[..]
        };
        if let Some(&id) = self.interned.find(h, same) {
            return id;
        }
        let id = self.summaries.len() as u32;
        // Far more than memory holds; past it, a target could not name it.
        assert!(id < PENDING - SUMMARY, "too many distinct summaries");
        self.summaries.push(Summary {
            stride: scratch.stride,
            words: scratch.words.clone().into_boxed_slice(),
        });
        self.bytes += (scratch.words.len() * 8 + std::mem::size_of::<Summary>() + 4) as u64;
        let summaries = &self.summaries;
        let rehash = |&id: &u32| {
            let s = &summaries[id as usize];
            hash(s.stride, &s.words)
        };
        self.interned.insert_unique(h, id, rehash);
        id
    }

    /// The summary of `state`, once its component is finished (or the summary a
    /// [`SUMMARY`] target names).
    pub fn of(&self, state: StateId) -> Option<&Summary> {
        self.id(state).map(|id| &self.summaries[id as usize])
    }

    /// The summary numbered `id` here.
    pub fn get(&self, id: u32) -> &Summary {
        &self.summaries[id as usize]
    }

    /// The number of `state`'s summary here, once its component is finished.
    pub fn number(&self, state: StateId) -> Option<u32> {
        self.id(state)
    }

    fn id(&self, state: StateId) -> Option<u32> {
        if state >= PENDING {
            return None;
        }
        if state >= SUMMARY {
            return Some(state - SUMMARY);
        }
        self.of
            .get(state as usize)
            .copied()
            .filter(|&id| id != NONE)
    }

    /// The bytes held, roughly (the tables' slack aside).
    pub fn bytes(&self) -> u64 {
        self.bytes
            + self.kind.bytes()
            + self.of.capacity() as u64 * 4
            + self.interned.capacity() as u64 * 5
    }
}
