//! DE-S-POR's summaries ([`crate::stateful::summaries`]): the set of actions
//! reachable from a finished state. DE-S-POR, at a state `s` stored before, runs
//! `UpdateCurr` for every action its explored continuations take (`A_s`, Alg. 2
//! lines 15–17); for a finished `s` that set is its summary, read in one pass over
//! its bits, where a traversal of the graph from `s` would visit every transition
//! reachable. A state not finished yet (on a cycle still open) is traversed, up to
//! the finished states it reaches, whose summaries stand for what follows them.

use crate::stateful::graph::{Action, Graph, StateId};
use crate::stateful::summaries::{Kind, Scratch, Summaries};
use rustc_hash::{FxHashMap, FxHashSet};

/// The kind of DE-S-POR's summaries: one row, a bit per action.
#[derive(Debug, Default)]
pub struct Actions {
    ids: FxHashMap<Action, u32>,
    /// Each action, by its bit.
    actions: Vec<Action>,
}

impl Kind for Actions {
    fn prepare(&mut self, _: &Graph, action: Action) {
        let next = self.actions.len() as u32;
        if *self.ids.entry(action).or_insert(next) == next {
            self.actions.push(action);
        }
    }

    fn rows(&self, _: &Graph) -> usize {
        1
    }

    fn width(&self) -> usize {
        self.actions.len()
    }

    fn set(&self, action: Action, scratch: &mut Scratch) {
        scratch.set(0, &[self.ids[&action]]);
    }

    fn bytes(&self) -> u64 {
        (self.actions.len() * (std::mem::size_of::<Action>() * 2 + 4 + 1)) as u64
    }
}

impl Summaries<Actions> {
    /// `A_s`: every action of a transition reachable from `s` in the graph, each
    /// once, ordered by process identity key, then footprint.
    pub fn reachable(&self, graph: &Graph, s: StateId) -> Vec<Action> {
        let mut actions: FxHashSet<Action> = FxHashSet::default();
        let mut seen: FxHashSet<StateId> = FxHashSet::default();
        let mut todo = vec![s];
        seen.insert(s);
        while let Some(state) = todo.pop() {
            if let Some(summary) = self.of(state) {
                actions.extend(summary.bits(0).map(|b| self.kind.actions[b as usize]));
                continue;
            }
            for (action, to) in graph.from(state) {
                actions.insert(action);
                todo.extend(to.filter(|&to| seen.insert(to)));
            }
        }
        let mut actions: Vec<Action> = actions.into_iter().collect();
        actions.sort_unstable_by_key(|a| (graph.process(a.process), a.footprint));
        actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dependency::footprint::Footprint;
    use frontend::memory::Loc;

    /// `0 -a-> 1 -b-> 2`, `1 -c-> 1`: each action a process of its own, touching a
    /// global of its own.
    fn graph() -> (Graph, [Action; 3]) {
        let mut graph = Graph::default();
        let action = |g: &mut Graph, n: u32| {
            let p = g.process_number(u128::from(n));
            let writes = vec![Loc { global: n, elem: 0 }];
            g.action(
                p,
                &Footprint {
                    reads: vec![],
                    writes,
                },
            )
        };
        for s in 0..3 {
            graph.open(s, 2);
        }
        let [a, b, c] = [0, 1, 2].map(|n| action(&mut graph, n));
        graph.record(0, a, Some(1));
        graph.record(1, b, Some(2));
        graph.record(1, c, Some(1));
        (graph, [a, b, c])
    }

    #[test]
    fn the_actions_reachable_are_read_from_summaries_once_finished() {
        let (mut graph, [a, b, c]) = graph();
        let mut reachable = Summaries::<Actions>::default();
        // Nothing finished: a traversal.
        assert_eq!(reachable.reachable(&graph, 0), vec![a, b, c]);
        assert_eq!(reachable.reachable(&graph, 1), vec![b, c]);
        // The components {2}, then {1}, are finished and forgotten by the graph.
        for component in [[2], [1]] {
            reachable.finish(&graph, &component);
            graph.forget(&component);
        }
        assert_eq!(reachable.reachable(&graph, 1), vec![b, c]);
        assert_eq!(reachable.reachable(&graph, 2), vec![]);
        // 0 is not finished: its own transition, then 1's summary.
        assert_eq!(reachable.reachable(&graph, 0), vec![a, b, c]);
    }
}
