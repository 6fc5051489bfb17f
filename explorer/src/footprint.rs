//! What an event touched: the global locations it read and wrote. Dependency between
//! events of different processes is a conflict of footprints (DESIGN.md, "Explorer").

use frontend::memory::Loc;

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

/// Whether two sorted slices share an element.
fn intersects(a: &[Loc], b: &[Loc]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}
