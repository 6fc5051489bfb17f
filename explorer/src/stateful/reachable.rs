//! DE-S-POR's summaries ([`crate::stateful::summaries`]): the set of actions
//! reachable from a finished state. DE-S-POR, at a state `s` stored before, runs
//! `UpdateCurr` for every action its explored continuations take (`A_s`, Alg. 2
//! lines 15–17); for a finished `s` that set is its summary, read in one pass over
//! its bits, where a traversal of the graph from `s` would visit every transition
//! reachable. A state not finished yet (on a cycle still open) is traversed, up to
//! the finished states it reaches, whose summaries stand for what follows them.
//!
//! On threads ([`crate::stateful::search`]) a summary also comes from another
//! thread (published as one row per action: its process's identity key and its
//! footprint's locations, numbered for all threads) or from the program text
//! ([`crate::stateful::may_follow`]: an action per process, touching all that the
//! process may touch, which stands for every step it may take). Another thread's
//! actions that some thread took are read as this thread's own.

use crate::dependency::footprint::{Footprint, WHOLE};
use crate::fingerprint::Fingerprint;
use crate::parallel::shared_summaries::{Published, Row, SharedSummaries};
use crate::stateful::exchange::Exchanged;
use crate::stateful::graph::{Action, Graph, StateId};
use crate::stateful::summaries::{Kind, Scratch, Summaries};
use crate::stateful::unions::Key;
use frontend::memory::Loc;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The kind of DE-S-POR's summaries: one row, a bit per action.
#[derive(Debug, Default)]
pub struct Actions {
    ids: FxHashMap<Action, u32>,
    /// Each action, by its bit.
    actions: Vec<Action>,
}

impl Actions {
    /// The bit of `action`, made now if new.
    fn bit(&mut self, action: Action) -> u32 {
        let next = self.actions.len() as u32;
        let bit = *self.ids.entry(action).or_insert(next);
        if bit == next {
            self.actions.push(action);
        }
        bit
    }
}

impl Kind for Actions {
    fn prepare(&mut self, _: &Graph, action: Action) {
        self.bit(action);
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
        let action = std::mem::size_of::<Action>();
        (self.actions.len() * (action * 2 + 4 + 1)) as u64
    }
}

impl Summaries<Actions> {
    /// `A_s`: every action of a transition reachable from `s` in the graph, each
    /// once, ordered by process identity key, then footprint. `traversed` gives what
    /// a target stands for (on threads, a state another thread has not finished
    /// with: [`crate::stateful::search::Explored::traversed`]).
    pub fn reachable(
        &self,
        graph: &Graph,
        s: StateId,
        traversed: impl Fn(StateId) -> StateId,
    ) -> Vec<Action> {
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
                todo.extend(to.map(&traversed).filter(|&to| seen.insert(to)));
            }
        }
        let mut actions: Vec<Action> = actions.into_iter().collect();
        actions.sort_unstable_by_key(|a| (graph.process(a.process), a.footprint));
        actions
    }

    /// A summary of `actions`, as the target of the transitions it follows.
    fn summary_of(&mut self, graph: &Graph, actions: Vec<Action>) -> StateId {
        let bits: Vec<u32> = actions.into_iter().map(|a| self.kind.bit(a)).collect();
        self.made(graph, |_, scratch| scratch.set(0, &bits))
    }
}

impl Exchanged for Summaries<Actions> {
    /// The summary of `state`, finished, for the other threads: a row per action,
    /// its process's identity key and the shared numbers of the locations it read
    /// and wrote, in order.
    fn published(
        &mut self,
        graph: &Graph,
        state: StateId,
        shared: &SharedSummaries,
    ) -> Option<Published> {
        let summary = self.of(state)?;
        let numbers = |locs: &[Loc]| -> Vec<u32> {
            (locs.iter())
                .map(|&l| shared.number(Key::Elem(l)))
                .collect()
        };
        let rows: Vec<Row> = (summary.bits(0))
            .map(|b| {
                let action = self.kind.actions[b as usize];
                let footprint = graph.footprint(action);
                (
                    graph.process(action.process),
                    numbers(&footprint.reads),
                    numbers(&footprint.writes),
                )
            })
            .collect();
        Some(Published { rows })
    }

    fn read_back(
        &mut self,
        graph: &mut Graph,
        rows: &[Arc<Row>],
        shared: &SharedSummaries,
    ) -> StateId {
        let loc = |n: &u32| match shared.key(*n) {
            Key::Elem(l) => l,
            Key::Global(global) | Key::Whole(global) => Loc {
                global,
                elem: WHOLE,
            },
        };
        let actions: Vec<Action> = (rows.iter())
            .map(|row| {
                let (key, reads, writes) = &**row;
                let mut footprint = Footprint {
                    reads: reads.iter().map(loc).collect(),
                    writes: writes.iter().map(loc).collect(),
                };
                footprint.reads.sort_unstable();
                footprint.writes.sort_unstable();
                let process = graph.process_number(*key);
                graph.action(process, &footprint)
            })
            .collect();
        self.summary_of(graph, actions)
    }

    /// A summary of `rows` ([`crate::stateful::may_follow`]): for each process (by
    /// identity key, numbered in `graph` now if new), one action touching what it
    /// may read and write. Its target.
    fn may_follow(&mut self, graph: &mut Graph, rows: &[(Fingerprint, Footprint)]) -> StateId {
        let actions: Vec<Action> = (rows.iter())
            .map(|(key, footprint)| {
                let process = graph.process_number(*key);
                graph.action(process, footprint)
            })
            .collect();
        self.summary_of(graph, actions)
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
        assert_eq!(reachable.reachable(&graph, 0, |to| to), vec![a, b, c]);
        assert_eq!(reachable.reachable(&graph, 1, |to| to), vec![b, c]);
        // The components {2}, then {1}, are finished and forgotten by the graph.
        for component in [[2], [1]] {
            reachable.finish(&graph, &component);
            graph.forget(&component);
        }
        assert_eq!(reachable.reachable(&graph, 1, |to| to), vec![b, c]);
        assert_eq!(reachable.reachable(&graph, 2, |to| to), vec![]);
        // 0 is not finished: its own transition, then 1's summary.
        assert_eq!(reachable.reachable(&graph, 0, |to| to), vec![a, b, c]);
    }
}
