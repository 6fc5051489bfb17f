//! What an event touched: the global locations it read and wrote. Dependency between
//! events of different processes is a conflict of footprints (DESIGN.md, "Explorer").

use frontend::ir::{GlobalId, Program};
use frontend::memory::Loc;

/// The element of a [`Loc`] that stands for every element of its global: static
/// footprints name globals, not elements. (A map key `i64::MIN` is taken for the whole
/// map too: an over-approximation, hence sound.)
pub const WHOLE: i64 = i64::MIN;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
}

/// Whether two sorted location lists overlap, [`WHOLE`] overlapping every element
/// of its global (it sorts first among them).
fn intersects(a: &[Loc], b: &[Loc]) -> bool {
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

/// How events get their footprints (see [`crate::Config::deps`]).
#[derive(Debug)]
pub struct Policy {
    /// Each block's syntactic footprint.
    pub blocks: Vec<Footprint>,
    /// Per block: its events carry what they actually touched.
    observed: Vec<bool>,
}

impl Policy {
    /// With `Deps::Dynamic`, a block's events carry the locations they touched when
    /// those are a property of the process's local state (see
    /// [`frontend::locality`]); events of other blocks, and failed events (which stop
    /// early depending on the global state), carry their block's syntactic footprint.
    /// With `Deps::Static`, every event carries its block's.
    pub fn new(program: &Program, deps: crate::Deps) -> Policy {
        let observed = match deps {
            crate::Deps::Static => vec![false; program.blocks.len()],
            crate::Deps::Dynamic => frontend::locality::state_dependent_footprints(program)
                .into_iter()
                .map(|dependent| !dependent)
                .collect(),
        };
        Policy {
            blocks: static_footprints(program),
            observed,
        }
    }

    /// Whether an event of `block` that completed (`!failed`) uses what it touched.
    pub fn observed(&self, block: u32, failed: bool) -> bool {
        !failed && self.observed[block as usize]
    }
}

/// The syntactic footprint of every block (`--deps static`, the papers' baselines):
/// every global its code may read or write, guard included, as a whole.
pub fn static_footprints(program: &Program) -> Vec<Footprint> {
    let whole = |set: &std::collections::BTreeSet<GlobalId>| -> Vec<Loc> {
        set.iter()
            .map(|&global| Loc {
                global,
                elem: WHOLE,
            })
            .collect()
    };
    frontend::write_sets::write_sets(program)
        .iter()
        .map(|s| Footprint {
            reads: whole(&s.reads),
            writes: whole(&s.writes),
        })
        .collect()
}
