//! Which writes a disabled `await`'s probe leaves out ([`crate::dpor::Dpor`]'s
//! `pass_disabling_writes_at`): to run the `await` before a write `e0` that disabled
//! it, the probe puts `notdep(e0, E)` first, and where a later write there disables
//! the guard again, `notdep` without that write and without what happens after it.
//!
//! Each set of events so left out is closed under happens-after, and is the closure
//! of exactly one antichain of the writers (writers none of which happens after
//! another: its minimal ones). So every such set is tried once by trying every
//! antichain, smallest first.
//!
//! Every one, not a bounded number: the probe used to try the subsets of the last
//! four writers only, and odpor and ocdpor lost a final state where the writer to
//! leave out was the fifth from the end — an `await` on `w == 1 && x == 0 && y == 0`
//! after `x = 1`, four `y = y + 1` and `w = 1`, where only leaving out the first
//! increment (and with it the three after it) lets the `await` pass before `x = 1`
//! (`tests/regressions/a_probe_leaves_out_a_writer_far_from_the_end.ic`). The number of
//! antichains is that of the ways to place the `await` among its writers that are
//! not ordered: 1 + m for m writers in one chain, 2^m for m independent ones, and as
//! many Mazurkiewicz traces put the `await` after each subset. None is tried where no
//! event that can be left out may write what the guard read after all of them
//! (`leaving_out_matters` in [`crate::dpor`]): a join of independent workers.

use crate::dependency::happens_before::HappensBefore;
use crate::executor::Event;

/// `v` without a nonempty set of its events in `written` (sorted: those that may
/// write what the guard reads there) and the events that happen after them, smallest
/// antichains of writers first; none where an event of process `proc`, or the one
/// that spawned it, would have to go: without it the process never reaches its
/// `await` (a sequence that asked for it there ended blocked, its last step unable to
/// run, where odpor is optimal:
/// `tests/regressions/odpor_a_probe_keeps_the_spawner_of_its_process.ic`).
pub fn without_some_writes_of<'a>(
    events: &'a [Event],
    hb: &'a HappensBefore,
    proc: usize,
    written: &[usize],
    v: &'a [usize],
) -> impl Iterator<Item = Vec<usize>> + 'a {
    let is_writer = |j: usize| events[j].proc != proc && written.binary_search(&j).is_ok();
    let writers: Vec<usize> = v.iter().copied().filter(|&j| is_writer(j)).collect();
    // `goes[b][k]`: event `v[k]` is writer `b` or happens after it.
    let goes: Vec<Vec<bool>> = writers
        .iter()
        .map(|&w| {
            v.iter()
                .map(|&j| j == w || hb.before(events, w, j))
                .collect()
        })
        .collect();
    // Writers in execution order: a later one may happen after an earlier one only.
    let after: Vec<Vec<bool>> = writers
        .iter()
        .map(|&w| writers.iter().map(|&u| hb.before(events, w, u)).collect())
        .collect();
    Antichains::new(after).filter_map(move |antichain| {
        let mut kept = Vec::with_capacity(v.len());
        for (k, &j) in v.iter().enumerate() {
            if !antichain.iter().any(|&b| goes[b][k]) {
                kept.push(j);
            } else if events[j].precedes_process(proc) {
                return None;
            }
        }
        Some(kept)
    })
}

/// The nonempty antichains of `n` elements ordered as listed, `after[i][j]` (for
/// `i < j`) saying `j` comes after `i`: by size, then lexicographically.
struct Antichains {
    after: Vec<Vec<bool>>,
    /// The size being enumerated.
    size: usize,
    /// The antichain being built.
    chosen: Vec<usize>,
    /// The next element to try at the top of `chosen`.
    next: usize,
}

impl Antichains {
    fn new(after: Vec<Vec<bool>>) -> Self {
        Antichains {
            after,
            size: 1,
            chosen: Vec::new(),
            next: 0,
        }
    }

    fn fits(&self, j: usize) -> bool {
        self.chosen.iter().all(|&i| !self.after[i][j])
    }
}

impl Iterator for Antichains {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let n = self.after.len();
        loop {
            if self.size > n {
                return None;
            }
            if self.chosen.len() == self.size {
                let found = self.chosen.clone();
                self.next = self.chosen.pop().map_or(n, |last| last + 1);
                return Some(found);
            }
            match (self.next..n).find(|&j| self.fits(j)) {
                Some(j) => {
                    self.chosen.push(j);
                    self.next = j + 1;
                }
                None => match self.chosen.pop() {
                    Some(last) => self.next = last + 1,
                    None => {
                        self.size += 1;
                        self.next = 0;
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Antichains;

    /// `after` for `n` elements where `j` comes after `i` when `edge(i, j)`.
    fn order(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<Vec<bool>> {
        (0..n)
            .map(|i| (0..n).map(|j| i < j && edge(i, j)).collect())
            .collect()
    }

    #[test]
    fn a_chain_has_one_antichain_per_element() {
        let all: Vec<Vec<usize>> = Antichains::new(order(4, |_, _| true)).collect();
        assert_eq!(all, vec![vec![0], vec![1], vec![2], vec![3]]);
    }

    #[test]
    fn independent_elements_give_every_subset_smallest_first() {
        let all: Vec<Vec<usize>> = Antichains::new(order(3, |_, _| false)).collect();
        assert_eq!(
            all,
            vec![
                vec![0],
                vec![1],
                vec![2],
                vec![0, 1],
                vec![0, 2],
                vec![1, 2],
                vec![0, 1, 2]
            ]
        );
    }

    #[test]
    fn a_chain_beside_an_independent_element() {
        // 0 → 1 → 2, and 3 unordered: 4 singletons, then each of 0, 1, 2 with 3.
        let all: Vec<Vec<usize>> = Antichains::new(order(4, |i, j| j < 3 && i < 3)).collect();
        assert_eq!(
            all,
            vec![
                vec![0],
                vec![1],
                vec![2],
                vec![3],
                vec![0, 3],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert_eq!(Antichains::new(Vec::new()).count(), 0);
    }

    #[test]
    fn sixteen_independent_elements_give_two_to_the_sixteen_minus_one() {
        assert_eq!(
            Antichains::new(order(16, |_, _| false)).count(),
            (1 << 16) - 1
        );
    }
}
