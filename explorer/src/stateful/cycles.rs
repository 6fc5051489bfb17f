//! Where a step closes a cycle of the explored graph, found as the search goes: the
//! strongly connected components of the graph explored so far, maintained by Gabow's
//! path-based algorithm (*Path-based depth-first search for strong and biconnected
//! components*, IPL 74, 2000) over the search's own depth-first order.
//!
//! A state is *open* while its component is: it reaches, through explored
//! transitions, a state of the current path at or below it. A step to an open state
//! therefore closes a cycle through the path, and the cycle's states on the path are
//! those from the component's root up: [`Cycles::close`] merges the components on
//! the way and says from which depth of the path. A step to a closed state (a
//! component finished before) closes no cycle, now or later: nothing reachable from
//! it is on the path, and no transition is ever added from a finished state. This
//! replaces a traversal of the explored graph at every state reached again by a
//! lookup.

use crate::stateful::graph::StateId;

/// The preorder number of a state not open.
const CLOSED: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Cycles {
    /// Each state's preorder number while it is open, [`CLOSED`] otherwise, by id.
    open: Vec<u32>,
    /// Gabow's stack `S`: the open states, in preorder.
    states: Vec<StateId>,
    /// Gabow's stack `B`: the root of each open component, as its preorder number
    /// and its depth on the path (a root is always on the path).
    roots: Vec<(u32, usize)>,
    preorder: u32,
}

impl Cycles {
    /// `state`, new, joins the path at `depth`.
    pub fn push(&mut self, state: StateId, depth: usize) {
        let number = self.preorder;
        self.preorder += 1;
        let i = state as usize;
        if self.open.len() <= i {
            self.open.resize(i + 1, CLOSED);
        }
        self.open[i] = number;
        self.states.push(state);
        self.roots.push((number, depth));
    }

    /// `state`'s preorder number, if it is open.
    fn number(&self, state: StateId) -> Option<u32> {
        self.open
            .get(state as usize)
            .copied()
            .filter(|&n| n != CLOSED)
    }

    /// The top of the path took a step to `to`, a state stored before: when `to` is
    /// open, the step closes a cycle, and the depth of the path from which the
    /// cycle's states lie on it is returned.
    pub fn close(&mut self, to: StateId) -> Option<usize> {
        let number = self.number(to)?;
        while self.roots.last().is_some_and(|&(root, _)| number < root) {
            self.roots.pop();
        }
        self.roots.last().map(|&(_, depth)| depth)
    }

    /// `state` leaves the path, its continuations explored: when it is its
    /// component's root, the component is finished, its states closed, and returned.
    pub fn pop(&mut self, state: StateId) -> Option<Vec<StateId>> {
        let number = self.number(state)?;
        if self.roots.last().is_none_or(|&(root, _)| root != number) {
            return None;
        }
        self.roots.pop();
        let mut component = Vec::new();
        while let Some(s) = self.states.pop() {
            self.open[s as usize] = CLOSED;
            component.push(s);
            if s == state {
                break;
            }
        }
        Some(component)
    }

    /// The bytes it holds.
    pub fn bytes(&self) -> u64 {
        (self.open.capacity() * 4 + self.states.capacity() * 4 + self.roots.capacity() * 16) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(n: StateId) -> StateId {
        n
    }

    #[test]
    fn a_step_back_to_the_path_closes_a_cycle_from_its_target() {
        let mut c = Cycles::default();
        c.push(f(0), 0);
        c.push(f(1), 1);
        c.push(f(2), 2);
        assert_eq!(c.close(f(1)), Some(1));
        // 2 is in 1's component: a later step to 2 closes a cycle from 1 too.
        assert_eq!(c.pop(f(2)), None);
        assert_eq!(c.close(f(2)), Some(1));
        assert_eq!(c.pop(f(1)), Some(vec![f(2), f(1)]));
        // The component {1, 2} is finished: no step to it closes a cycle.
        assert_eq!(c.close(f(2)), None);
        assert_eq!(c.close(f(1)), None);
        assert_eq!(c.close(f(0)), Some(0));
    }

    #[test]
    fn components_merge_down_to_the_lowest_state_reached() {
        let mut c = Cycles::default();
        c.push(f(0), 0);
        c.push(f(1), 1);
        c.push(f(2), 2);
        c.push(f(3), 3);
        assert_eq!(c.close(f(2)), Some(2));
        assert_eq!(c.close(f(0)), Some(0));
        c.pop(f(3));
        c.pop(f(2));
        c.pop(f(1));
        assert_eq!(c.close(f(3)), Some(0));
        assert_eq!(c.pop(f(0)).map(|c| c.len()), Some(4));
    }
}
