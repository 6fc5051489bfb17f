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
