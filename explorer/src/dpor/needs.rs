//! What each unexplored entry of a backtrack set stands for. Source-DPOR's line 10
//! asks only that, once `E'` is left, `I_[E'](v) ∩ backtrack(E') ≠ ∅` for the
//! sequence `v` of every race reversed at `E'` (CSDPOR, Alg. 1, lines 9–10); an entry
//! added for some races is not needed once an explored entry is an initial of each
//! of them.
//!
//! # Why
//!
//! QuickSort as its source writes it (`benches/programs/qs_source.ic`) at QS(9): at a
//! node where two `done`s to one object race, `b` explored first and `a` its rival,
//! the race shows first in `b x a`, `x` a `done` to another object: `v = x.a`,
//! `I(v) = {x, a}`, and the guided choice (CSDPOR Sec. 5.3, opt. 2) takes `x`, which
//! heads the sequence the race put to sleep. Later in `b`'s subtree the same race
//! shows in `b a`: `v = a`, and `a` joins. Line 5's guided choice explores `a` first;
//! `x`'s branch, explored last, found `a` and `b` asleep after one step and ended
//! blocked. cdpor ended 32, 12, 48 and 192 executions so at QS(9, 10, 13, 15).
//!
//! # The rule
//!
//! Each requirement `S` (the initials `I_[E'](v)` of a race's `v`) that the set
//! meets only through entries that line 10 added and that are not yet *settled*
//! (explored, being explored, or asleep at `E'`) is recorded on those entries; the
//! entry line 10 adds for a requirement the set does not meet records it too. When
//! every unsettled entry has, for each requirement recorded on it, a settled member
//! other than itself, those entries are dropped: at line 5, and where a step blocked
//! at a covered state and the node goes on with a fresh process only if nothing is
//! pending (`Dpor::block_after_equivalent`). Entries no requirement put there (line
//! 3's choice, that fresh process) are kept. Only where every pending entry is so:
//! an entry explored before others sleeps in their branches
//! ([`super::parts::Parts::drops_unneeded`] says which searches drop, and why not
//! csdpor).
//!
//! # Why this is sound
//!
//! Line 10 adds *some* initial of `v`, and line 5 explores *some* pending entry:
//! Source-DPOR's completeness, on which CSDPOR's Theorem 1 rests, holds for every
//! resolution of both choices. A run that drops `x` is a run of Alg. 1 that chose,
//! for each requirement `S` recorded on `x`, a member `w` of `S` settled by the time
//! `x` is dropped (an initial of `v` enabled at `E'`, as every entry is: line 10
//! may take it), and that explored at line 5 what this run explored, in the same
//! order. That run may: its extra pending entries are such `w`s, explored or asleep
//! by the time this run would have had only `x` left. Where the requirement that
//! added `w` here came, `w` was there already and nothing was added; a requirement
//! met by `x` alone when it came is recorded on `x`, so it has its own `w`;
//! requirements met otherwise are met alike. The one place where this run looks at
//! what is pending besides line 5, the fresh process after a blocked step, drops
//! first, so it decides as that run does. `x` never ran, so the races found, the
//! sleep sets and the sequences lines 11–14 add are that run's. Settled entries
//! never leave the set.

use crate::dpor::sleep::SleepSet;
use crate::state::State;

/// Whether an entry of a node's backtrack set is settled: explored from the node now
/// (`current`), or asleep there (explored before, or covered).
pub fn settled<'a>(
    current: Option<usize>,
    sleep: &'a SleepSet,
    state: &'a State,
) -> impl Fn(usize) -> bool + Copy + 'a {
    move |q| current == Some(q) || sleep.asleep(state.procs[q].pid_key)
}

/// The requirements recorded on the unexplored entries of one backtrack set.
#[derive(Debug, Default)]
pub struct Needs {
    /// Each entry (process index) added for requirements, with them.
    records: Vec<(usize, Vec<Vec<usize>>)>,
}

impl Needs {
    pub fn clear(&mut self) {
        self.records.clear();
    }

    /// Whether `backtrack` meets the requirement `initials` already; if it does only
    /// through unsettled entries added for requirements, the requirement is recorded
    /// on each of them.
    pub fn holds(
        &mut self,
        backtrack: &[usize],
        initials: &[usize],
        settled: impl Fn(usize) -> bool,
    ) -> bool {
        let members: Vec<usize> = (initials.iter().copied())
            .filter(|q| backtrack.contains(q))
            .collect();
        if members.is_empty() {
            return false;
        }
        let pinned = |q: usize| settled(q) || !self.records.iter().any(|(p, _)| *p == q);
        if !members.iter().any(|&q| pinned(q)) {
            for (p, needs) in &mut self.records {
                if members.contains(p) {
                    needs.push(initials.to_vec());
                }
            }
        }
        true
    }

    /// Entry `q` joined the backtrack set for the requirement `initials`.
    pub fn add(&mut self, q: usize, initials: Vec<usize>) {
        self.records.push((q, vec![initials]));
    }

    /// Whether entry `x` is still needed: no requirement put it there (it is kept),
    /// or one of those recorded on it has no settled member but `x`.
    pub fn needed(&self, x: usize, settled: impl Fn(usize) -> bool) -> bool {
        self.records
            .iter()
            .find(|(p, _)| *p == x)
            .is_none_or(|(_, needs)| {
                needs
                    .iter()
                    .any(|s| !s.iter().any(|&w| w != x && settled(w)))
            })
    }

    /// Forgets entry `x`, dropped from the backtrack set.
    pub fn forget(&mut self, x: usize) {
        self.records.retain(|(p, _)| *p != x);
    }
}
