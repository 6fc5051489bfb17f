//! Executions that do not end: a state that recurs on the current execution.
//!
//! A process that loops forever across blocks (`while (true) { x = 1; yield; }`)
//! gives executions without end; a stateless search would follow one for ever.
//! When the state after an event (globals, and every process's identity, next
//! block and live locals) equals the state after an earlier event of the same
//! execution, the steps between them can repeat without end: a lasso, its prefix
//! the steps up to the first occurrence and its cycle the steps after it. Comparing
//! states costs a fingerprint per event, so only events from depth [`FROM`] on are
//! compared: a cycle that recurs once recurs again past any depth. A loop whose
//! state never recurs (a counter that grows, a spawn per turn: new identities) is
//! caught by `--max-depth` instead.

use crate::fingerprint::Fingerprint;
use rustc_hash::FxHashMap;

/// The depth (events on the execution) from which states are compared.
pub const FROM: usize = 1_000;

/// The fingerprints of the states along the current execution, from depth [`FROM`].
#[derive(Debug, Default)]
pub struct Lasso {
    path: Vec<(usize, Fingerprint)>,
    at: FxHashMap<Fingerprint, usize>,
}

impl Lasso {
    /// The state reached after `depth` events: the depth of an earlier equal state of
    /// the execution, if there is one (the cycle is the events after it).
    pub fn reached(&mut self, depth: usize, state: Fingerprint) -> Option<usize> {
        if let Some(&earlier) = self.at.get(&state) {
            return Some(earlier);
        }
        self.path.push((depth, state));
        self.at.insert(state, depth);
        None
    }

    /// The execution stepped back to `depth` events.
    pub fn back_to(&mut self, depth: usize) {
        while let Some(&(d, state)) = self.path.last() {
            if d <= depth {
                break;
            }
            self.path.pop();
            self.at.remove(&state);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_the_first_occurrence_and_forgets_what_was_stepped_back() {
        let mut lasso = super::Lasso::default();
        assert_eq!(lasso.reached(1000, 7), None);
        assert_eq!(lasso.reached(1001, 8), None);
        assert_eq!(lasso.reached(1002, 7), Some(1000));
        lasso.back_to(1000);
        assert_eq!(lasso.reached(1001, 9), None);
        assert_eq!(lasso.reached(1002, 8), None);
        lasso.back_to(999);
        assert_eq!(lasso.reached(1000, 8), None);
    }
}
