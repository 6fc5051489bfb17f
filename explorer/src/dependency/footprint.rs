//! What an event touched: the global locations it read and wrote, or may touch from
//! its process's local state (its transition footprint). Dependency between events of
//! different processes is a conflict of footprints (docs/soundness.md, "Dependencies").

use crate::fingerprint::Fingerprint;
use frontend::interp::Machine;
use frontend::ir::{BlockId, Program};
use frontend::memory::{Loc, Memory};
use frontend::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Mutex;

pub use frontend::analysis::may_touch::WHOLE;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Footprint {
    /// Sorted, deduplicated locations read (an `await` guard's reads included).
    pub reads: Vec<Loc>,
    /// Sorted, deduplicated locations written.
    pub writes: Vec<Loc>,
}

impl Footprint {
    /// One writes what the other reads or writes.
    pub fn conflicts(&self, other: &Footprint) -> bool {
        intersects(&self.writes, &other.writes)
            || intersects(&self.writes, &other.reads)
            || intersects(&self.reads, &other.writes)
    }

    /// Whether this footprint touched everything `other` did.
    pub fn contains(&self, other: &Footprint) -> bool {
        let within =
            |small: &[Loc], big: &[Loc]| small.iter().all(|l| big.binary_search(l).is_ok());
        within(&other.reads, &self.reads) && within(&other.writes, &self.writes)
    }

    /// Adds what `other` touched to what this one did.
    pub fn absorb(&mut self, other: &Footprint) {
        merge(&mut self.reads, &other.reads);
        merge(&mut self.writes, &other.writes);
    }

    /// [`Footprint::conflicts`], two writes conflicting only on a global `observed`
    /// marks: writes of a global that nothing reads after them may come in either
    /// order (`odpor-ob`'s observers).
    pub fn conflicts_observed(&self, other: &Footprint, observed: &[bool]) -> bool {
        intersects(&self.writes, &other.reads)
            || intersects(&self.reads, &other.writes)
            || self.writes.iter().any(|l| {
                observed[l.global as usize] && intersects(std::slice::from_ref(l), &other.writes)
            })
    }
}

/// A footprint in three words per side, for a conflict test that needs no walk of
/// the locations where it answers no: the searches ask each new event whether it
/// conflicts with every earlier one it is not ordered with already, most of them
/// touching other locations (sdpor on filesystem(22): a fifth of its time in
/// [`Footprint::conflicts`]). Each location sets the bit of its global and, but for
/// [`WHOLE`], a bit of its own: two footprints that share a location share its bit, or
/// one touches the whole of a global the other touches. Other locations may share
/// bits too, and then the footprints are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sketch {
    reads: Bits,
    writes: Bits,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bits {
    /// A bit per location (not [`WHOLE`]), from a hash of it.
    locs: u64,
    /// A bit per global touched, and per global touched whole.
    globals: u64,
    whole: u64,
}

impl Bits {
    fn of(locs: &[Loc]) -> Bits {
        let mut bits = Bits::default();
        for l in locs {
            let global = 1 << (l.global % 64);
            bits.globals |= global;
            if l.elem == WHOLE {
                bits.whole |= global;
            } else {
                let h = (l.elem as u64 ^ (u64::from(l.global) << 32))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                bits.locs |= 1 << (h >> 58);
            }
        }
        bits
    }

    fn may_meet(self, other: Bits) -> bool {
        self.locs & other.locs != 0
            || self.whole & other.globals != 0
            || other.whole & self.globals != 0
    }
}

impl Sketch {
    pub fn of(footprint: &Footprint) -> Sketch {
        Sketch {
            reads: Bits::of(&footprint.reads),
            writes: Bits::of(&footprint.writes),
        }
    }

    /// False only where the footprints cannot conflict.
    pub fn may_conflict(&self, other: &Sketch) -> bool {
        self.writes.may_meet(other.writes)
            || self.writes.may_meet(other.reads)
            || self.reads.may_meet(other.writes)
    }
}

/// `into ∪ from`, both sorted and deduplicated.
fn merge(into: &mut Vec<Loc>, from: &[Loc]) {
    if from.iter().all(|l| into.binary_search(l).is_ok()) {
        return;
    }
    into.extend_from_slice(from);
    into.sort_unstable();
    into.dedup();
}

/// Whether two sorted location lists overlap, [`WHOLE`] overlapping every element
/// of its global (it sorts first among them).
pub(crate) fn intersects(a: &[Loc], b: &[Loc]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x.global != y.global {
            if x.global < y.global {
                i += 1;
            } else {
                j += 1;
            }
        } else if x.elem == WHOLE || y.elem == WHOLE || x.elem == y.elem {
            return true;
        } else if x.elem < y.elem {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

impl From<frontend::analysis::may_touch::Touched> for Footprint {
    fn from(t: frontend::analysis::may_touch::Touched) -> Self {
        Footprint {
            reads: t.reads,
            writes: t.writes,
        }
    }
}

/// What the footprint an event carries is: what happens-before, races and sleep
/// sets judge the event by in the execution that ran it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Carried {
    /// What the event touched: dependency is what events did, as Source-DPOR and
    /// Optimal-DPOR state it (events with their accesses in the execution) and as
    /// Nidhugg and GenMC run it. A compare-and-swap that fails only read.
    Accesses,
    /// Its transition footprint (see [`Policy`]): what its block may touch from its
    /// process's local state in any global state. The relation of the searches that
    /// judge events moved past others by what they may do there: cdpor's and
    /// ocdpor's `R` (a constraint relates transitions), the observers of odpor-ob and
    /// odpor-cs-ob, the stateful searches' summaries.
    #[default]
    Transitions,
}

/// How events get their footprints (see [`crate::Config::deps`] and [`Carried`]).
///
/// An event's *transition footprint* is what its block may touch from its process's
/// local state at entry, whatever the global state (see
/// [`frontend::analysis::may_touch`]). It is a property of the transition, so it
/// serves wherever the event runs in another position with the same local state (a
/// reversed race's `n`, a probe's block, a sleeping step of the constrained
/// searches). What the event touched is contained in it, and equal to it where its
/// block's control flow and indices depend on locals alone.
#[derive(Debug)]
pub struct Policy {
    /// Each block's syntactic footprint: the fallback of a block whose analysis
    /// exceeds its budget, and of events whose local state is not known.
    pub blocks: Vec<Footprint>,
    /// Per block: what its events touch *is* their transition footprint (its accesses
    /// depend on locals alone); all `false` with `Deps::Static`, which computes every
    /// footprint.
    local: Vec<bool>,
    /// What completed events carry.
    carried: Carried,
    /// Transition footprints computed so far, by the fingerprint of the block and the
    /// live locals it runs with ([`crate::state::live_key`]; the collision bound of
    /// [`crate::visited`]): a search meets the same transitions again and again
    /// (cleared when it grows past [`CACHED`] entries, so memory stays bounded).
    cache: Mutex<FxHashMap<Fingerprint, Footprint>>,
}

/// Most footprints a cache keeps ([`Policy`]'s transition footprints, and what
/// [`crate::Executor::accesses_at`] computed).
pub(crate) const CACHED: usize = 1 << 16;

impl Policy {
    /// With `Deps::Dynamic`, completed events carry their transition footprints,
    /// recorded where a block's accesses depend on locals alone (see
    /// [`frontend::analysis::locality`]: its control flow and indices depend on locals
    /// alone, so there is one path, and what it touched is the transition footprint)
    /// and computed for the others. With `Deps::Static`, every one is computed: a
    /// check of the recording shortcut. With `Deps::Accesses`, as `Dynamic`, except
    /// that where the search judges events by what they touched
    /// ([`Carried::Accesses`]) an event carries that if its block's other paths touch
    /// only locations it touched.
    pub fn new(program: &Program, deps: crate::Deps, carried: Carried) -> Policy {
        let local = || {
            frontend::analysis::locality::state_dependent_footprints(program)
                .into_iter()
                .map(|dependent| !dependent)
                .collect()
        };
        let (local, carried) = match deps {
            crate::Deps::Static => (vec![false; program.blocks.len()], Carried::Transitions),
            crate::Deps::Dynamic => (local(), Carried::Transitions),
            crate::Deps::Accesses => (local(), carried),
        };
        Policy {
            blocks: static_footprints(program),
            local,
            carried,
            cache: Mutex::default(),
        }
    }

    /// What completed events carry where they may.
    pub fn carried(&self) -> Carried {
        self.carried
    }

    /// Whether an event of `block` that completed (`!failed`) records what it touched
    /// as its transition footprint (its accesses depend on locals alone).
    pub fn records(&self, block: BlockId, failed: bool) -> bool {
        !failed && self.local[block as usize]
    }

    /// The transition footprint of `block` run with `locals` (`mem` is not read).
    pub fn transition(
        &self,
        machine: &Machine<'_>,
        mem: &Memory,
        block: BlockId,
        locals: &[Value],
    ) -> Footprint {
        self.with_transition(machine, mem, block, locals, Footprint::clone)
    }

    /// `f` of the transition footprint of `block` run with `locals`, without copying it.
    pub fn with_transition<R>(
        &self,
        machine: &Machine<'_>,
        mem: &Memory,
        block: BlockId,
        locals: &[Value],
        f: impl FnOnce(&Footprint) -> R,
    ) -> R {
        let proc = machine.program.blocks[block as usize].proc;
        let key = crate::state::live_key(machine.program, proc, block, locals);
        self.with_transition_keyed(machine, mem, block, locals, key, f)
    }

    /// [`Policy::with_transition`] for a process whose [`crate::state::live_key`] is
    /// `key`, known already (a process keeps its own).
    pub fn with_transition_keyed<R>(
        &self,
        machine: &Machine<'_>,
        mem: &Memory,
        block: BlockId,
        locals: &[Value],
        key: Fingerprint,
        f: impl FnOnce(&Footprint) -> R,
    ) -> R {
        // A poisoned lock only means a panic elsewhere: the cache is still consistent.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(footprint) = cache.get(&key) {
            return f(footprint);
        }
        let footprint = match frontend::analysis::may_touch::block(machine, mem, block, locals) {
            Some(touched) => touched.into(),
            None => self.blocks[block as usize].clone(),
        };
        let out = f(&footprint);
        if cache.len() >= CACHED {
            cache.clear();
        }
        cache.insert(key, footprint);
        out
    }

    /// What `block`'s guard may read with `locals`: a probe's footprint.
    pub fn guard(
        &self,
        machine: &Machine<'_>,
        mem: &Memory,
        block: BlockId,
        locals: &[Value],
    ) -> Vec<Loc> {
        if self.local[block as usize] {
            machine.guard_reads(block, mem, locals)
        } else {
            frontend::analysis::may_touch::guard(machine, mem, block, locals)
        }
    }
}

/// The syntactic footprint of every block (`--deps static`, the papers' baselines):
/// every global its code may read or write, guard included, as a whole.
pub fn static_footprints(program: &Program) -> Vec<Footprint> {
    let whole = |s: &frontend::ir::BlockSets| {
        let (reads, writes) = (s.reads.iter().copied(), s.writes.iter().copied());
        Footprint::from(frontend::analysis::may_touch::whole(reads, writes))
    };
    program.sets.iter().map(whole).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Up to four locations of three globals, some of them whole.
    fn locs() -> impl Strategy<Value = Vec<Loc>> {
        let loc = (0u32..3, prop_oneof![Just(WHOLE), -3i64..5, 60i64..70]);
        prop::collection::vec(loc.prop_map(|(global, elem)| Loc { global, elem }), 0..4).prop_map(
            |mut v| {
                v.sort_unstable();
                v.dedup();
                v
            },
        )
    }

    proptest! {
        /// The sketches never rule out a conflict there is.
        #[test]
        fn a_sketch_says_apart_only_of_footprints_that_do_not_conflict(
            (r1, w1, r2, w2) in (locs(), locs(), locs(), locs())
        ) {
            let (a, b) = (
                Footprint { reads: r1, writes: w1 },
                Footprint { reads: r2, writes: w2 },
            );
            if a.conflicts(&b) {
                prop_assert!(Sketch::of(&a).may_conflict(&Sketch::of(&b)));
            }
        }
    }

    /// Writes of two of an array's first 32 elements are told apart by their sketches
    /// alone: the hash gives each element its own bit (filesystem(N)'s locks and
    /// inodes are such arrays).
    #[test]
    fn writes_of_other_elements_are_told_apart() {
        let write = |elem| Footprint {
            reads: Vec::new(),
            writes: vec![Loc { global: 1, elem }],
        };
        for i in 0..32 {
            for j in i + 1..32 {
                let (a, b) = (write(i), write(j));
                assert!(!Sketch::of(&a).may_conflict(&Sketch::of(&b)), "{i} and {j}");
            }
            assert!(Sketch::of(&write(i)).may_conflict(&Sketch::of(&write(i))));
        }
    }
}
