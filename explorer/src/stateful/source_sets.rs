//! The sets of paper 003's source-set searches at a state `s` (Fig. 2): `done`, the
//! processes whose step from `s` was explored; `current[t]`, the processes that take
//! a step dependent on `t`'s step from `s` after it in an explored execution; and
//! `backtrack`, which is a source set of `s` once it equals `done` (Theorem 1).
//!
//! Processes are named by their number in the explored graph ([`ProcessNumber`]):
//! the same in every path, as the graph's actions name them.

use crate::stateful::graph::ProcessNumber;
use smallvec::SmallVec;

/// A few processes, in order: kept inline, as the search makes and drops the sets
/// of a state at every state it stores.
pub type Processes = SmallVec<[ProcessNumber; 8]>;

/// The sets of one state.
#[derive(Debug, Default)]
pub struct SourceSets {
    /// `safeSet(s)`: one process with an invisible step, or every enabled one.
    safe: Processes,
    /// Every enabled process.
    enabled: Processes,
    backtrack: Processes,
    done: Processes,
    /// `current[t]` for each `t` of `done`: `t` first.
    current: SmallVec<[Processes; 2]>,
    /// Expanded by every enabled process whatever its sets say: the state lies on a
    /// cycle of the explored graph (see [`SourceSets::expand_whole`]).
    whole: bool,
}

impl SourceSets {
    /// The sets of a new state: `backtrack` starts as the first process of `safe`
    /// (Alg. 2, line 5).
    pub fn new(safe: Processes, enabled: Processes) -> SourceSets {
        SourceSets {
            backtrack: safe.first().copied().into_iter().collect(),
            safe,
            enabled,
            ..SourceSets::default()
        }
    }

    /// A process of `backtrack` not yet in `done` (Alg. 2, line 6), which becomes
    /// `done` with `current[t] = {t}` (lines 9–10).
    pub fn explore_next(&mut self) -> Option<ProcessNumber> {
        let t = self
            .backtrack
            .iter()
            .copied()
            .find(|t| !self.done.contains(t))?;
        self.done.push(t);
        self.current.push(SmallVec::from_elem(t, 1));
        Some(t)
    }

    /// Whether the state is expanded by an invisible step alone (its safe set), as
    /// long as it is not expanded whole.
    pub fn by_an_invisible_step(&self) -> bool {
        !self.whole && self.safe.len() == 1 && self.enabled.len() > 1
    }

    /// Whether some enabled process has not taken its step from here: `done` holds
    /// enabled processes only, each once (`backtrack` is within `safeSet(s)`, or
    /// `enabled`), so fewer than there are enabled ones. A thread waiting for work
    /// has the threads ask this of every state on their path at every state they
    /// store.
    pub fn has_untaken(&self) -> bool {
        self.done.len() < self.enabled.len()
    }

    /// The enabled processes that have not taken their step from here, now `done`
    /// as if they had, for another thread to take: the state is expanded whole
    /// from then on (its `current` sets miss what those steps lead to).
    pub fn give_untaken(&mut self) -> Processes {
        self.expand_whole();
        let given: Processes = (self.enabled.iter())
            .copied()
            .filter(|t| !self.done.contains(t))
            .collect();
        for &t in &given {
            self.done.push(t);
            self.current.push(SmallVec::from_elem(t, 1));
        }
        given
    }

    /// `UpdateCurr`'s effect on this state: process `u` takes, later, a step dependent
    /// on `t`'s step from here (`t` in `done`).
    pub fn add_current(&mut self, t: ProcessNumber, u: ProcessNumber) {
        if let Some(i) = self.done.iter().position(|&d| d == t) {
            if !self.current[i].contains(&u) {
                self.current[i].push(u);
            }
        }
    }

    /// The state lies on a cycle of the explored graph, whose continuations are not
    /// all explored yet: its `current` sets cannot be trusted, and it is expanded by
    /// every enabled process (which also keeps an invisible step from closing the
    /// cycle alone: the ignoring problem).
    pub fn expand_whole(&mut self) {
        self.whole = true;
        self.backtrack.clone_from(&self.enabled);
    }

    /// `UpdateBack` (Fig. 2), after the step of `t` from here was explored:
    /// - `safeSet(s)` when a `current` set holds a process outside it (a process the
    ///   state cannot run first: disabled, or not yet spawned). The paper asks this
    ///   of `current[t]` alone; a `current` set of an earlier step may have grown
    ///   since, and `backtrack` must stay within what can run here;
    /// - `done` when some non-empty `T ⊆ done` is closed (`T = ∪ current[t']` over
    ///   `t' ∈ T`): `T` is then a persistent set, and `done ⊇ T` a source set;
    /// - otherwise `∪ current[t']` over `done`.
    pub fn update_back(&mut self) {
        if self.whole {
            self.backtrack.clone_from(&self.enabled);
            return;
        }
        let outside = |set: &Processes| set.iter().any(|u| !self.safe.contains(u));
        if self.current.iter().any(outside) {
            self.backtrack.clone_from(&self.safe);
        } else if self.has_closed_subset() {
            self.backtrack.clone_from(&self.done);
        } else {
            let mut union = Processes::new();
            for u in self.current.iter().flatten() {
                if !union.contains(u) {
                    union.push(*u);
                }
            }
            self.backtrack = union;
        }
    }

    /// Whether some non-empty `T ⊆ done` has `∪ current[t'] = T`: the closure of one
    /// process of `done` under `current` stays within `done`.
    fn has_closed_subset(&self) -> bool {
        (0..self.done.len()).any(|start| {
            let mut closure = Processes::from_elem(self.done[start], 1);
            let mut k = 0;
            while let Some(&t) = closure.get(k) {
                k += 1;
                let Some(i) = self.done.iter().position(|&d| d == t) else {
                    return false;
                };
                for &u in &self.current[i] {
                    if !closure.contains(&u) {
                        closure.push(u);
                    }
                }
            }
            true
        })
    }

    /// Whether `UpdateBack` no longer reads the `current` sets: the state is
    /// expanded whole, or every process of `safeSet(s)` is done (Alg. 3, line 21's
    /// first disjunct).
    pub fn decided(&self) -> bool {
        self.whole || self.safe.iter().all(|t| self.done.contains(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_given_away_are_done_and_the_state_is_expanded_whole() {
        let enabled: Processes = [0, 1, 2].into_iter().collect();
        let mut sets = SourceSets::new(Processes::from_elem(0, 1), enabled);
        assert_eq!(sets.explore_next(), Some(0));
        assert!(sets.has_untaken());
        let given = sets.give_untaken();
        assert_eq!(given.as_slice(), &[1, 2]);
        assert!(!sets.has_untaken());
        // Nothing left to explore here, and nothing its `current` sets say changes it.
        assert_eq!(sets.explore_next(), None);
        sets.update_back();
        assert_eq!(sets.explore_next(), None);
        assert!(sets.decided());
    }
}
