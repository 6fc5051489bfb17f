//! `dl-spor`: Lazy Source Set POR (Cirisci, Enea, Farzan, Mutluergil, *A Pragmatic
//! Approach to Stateful Partial Order Reduction*, Alg. 3, "DL-S-POR"): the search of
//! [`despor`](super::despor), which learns the steps that depend on a state's step
//! only when it backs up to that state, from the explored graph, rather than at
//! every step for every state of the path.
//!
//! Alg. 3, line by line:
//!
//! | lines | what | where |
//! | --- | --- | --- |
//! | 1–12 | depth first; a state visited before is not expanded again | [`search`] |
//! | 5–8 | the next process: of `backtrack \ done`, first of `safeSet(s)` | [`SourceSets::explore_next`] |
//! | 13–16, 30–32 | back at `s`: done when `backtrack = done` | [`SourceSets::update_back`], [`SourceSets::explore_next`] |
//! | 19–21 | `done = safeSet(s)`: no re-traversal (App. A, first optimisation) | `Lazy::backed_up`, [`SourceSets::decided`] |
//! | 26–28 | `current[t]`: `t`, and the process of every action reachable from `s'` in the graph that is dependent on `t`'s | `Lazy::backed_up`, [`Unions`] |
//! | 29 | `UpdateBack` | [`SourceSets::update_back`] |
//!
//! `done` holds `t` from the moment `t`'s step is explored (DE-S-POR's place, Alg. 2
//! line 9) rather than from line 19: nothing reads `done` between the two, so the
//! sets are the same when `UpdateBack` runs.
//!
//! **The re-traversal** (lines 27–28) is not run: each finished state of the graph
//! keeps a summary of what may follow it (for each process, the union of its
//! footprints), made once when its strongly connected component is finished, which
//! gives exactly the processes of line 28 ([`Unions`] says why). The paper
//! re-traverses the graph from `s'` at every back-up, visiting each transition once
//! and stopping early (App. A); that is linear in the graph each time, and took more
//! than a minute on the filter lock at N = 4 where the summaries take under 2 s. Line 28
//! takes every dependent action reachable, not the last one before each, so
//! `current[t]` holds at least what Alg. 2's does for the same graph: the paper's
//! Theorem 2 then carries over, and what the search does beyond the paper
//! (failures, cycles, processes that wait) is argued once, in
//! [`crate::stateful::search`].
//!
//! **Beyond the paper: spawns.** A process that does not exist in `s` is outside
//! `safeSet(s)`: an action of its that depends on `t`'s step gives `backtrack =
//! safeSet(s)` (`UpdateBack`'s first case, the paper's rule for a process that `s`
//! cannot run first).
//!
//! Not done: the second disjunct of line 21 (every process of `safeSet(s)` not yet
//! explored leads to a stored state), which needs each of their steps run to know.

use crate::exploration::{Algorithm, Config, Deps, Exploration};
use crate::stateful::exchange::Exchanged;
use crate::stateful::graph::{Action, StateId};
use crate::stateful::search::{search, Explored, Node, Tracking};
#[cfg(doc)]
use crate::stateful::source_sets::SourceSets;
use crate::stateful::summaries::Summaries;
use crate::stateful::unions::Unions;

#[derive(Default)]
pub struct Dlspor;

impl Algorithm for Dlspor {
    fn name(&self) -> &'static str {
        "dl-spor"
    }

    fn stores_states(&self) -> bool {
        true
    }

    /// Its threads share one store ([`crate::stateful::search`] says why what each
    /// finds together is what one thread finds).
    fn shares_stored_states(&self, _config: &Config) -> bool {
        true
    }

    /// A unit's state is the root of a search of its own, with its own store, as the
    /// stateful reference's is ([`crate::algorithms::stateful`]): the search finds
    /// what is reachable from whatever state it starts at (its argument is about the
    /// state it starts from, not the initial one), so the units together find what
    /// is reachable from the frontier's nodes.
    fn explores_units(&self, _deps: Deps) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        search(run, &mut Lazy::default());
    }
}

/// The `current` sets filled when the search backs up.
#[derive(Default)]
struct Lazy {
    summaries: Summaries<Unions>,
}

impl Tracking for Lazy {
    /// Nothing: the graph keeps the action.
    fn followed(&mut self, _: &Explored, _: &mut [Node], _: Action) {}

    /// Nothing: the graph keeps the state's continuations.
    fn revisited(&mut self, _: &Explored, _: &mut [Node], _: StateId) {}

    /// Summarises the component; its transitions are then read no more (a back-up
    /// to a finished state reads its summary), and the graph forgets them: what
    /// DL-S-POR keeps of a state is its summary's number.
    fn finished(&mut self, explored: &mut Explored, component: &[StateId]) {
        self.summaries.finish(&explored.graph, component);
        explored.graph.forget(component);
    }

    fn bytes(&self) -> u64 {
        self.summaries.bytes()
    }

    fn summaries(&mut self) -> &mut dyn Exchanged {
        &mut self.summaries
    }

    /// `IsComplete(s)`'s update of `current[t]` for the step `t` took from `node`
    /// (lines 19–28), to the state `s'` it reached: from `s'`'s summary. A state
    /// whose sets are not decided is on no cycle of the explored graph, so `s'` is
    /// finished and summarised ([`crate::stateful::search`]: a step to a state whose
    /// component is not finished closes a cycle, and the path's states from its
    /// entry on, this one among them, are expanded whole).
    fn backed_up(&mut self, explored: &Explored, node: &mut Node) {
        let Some((t, a)) = node.taken else {
            return;
        };
        if node.sets.decided() {
            return;
        }
        let found = self
            .summaries
            .conflicting(&explored.graph, node.reached, a.footprint);
        let Some(found) = found else {
            // Not finished: the state is on a cycle after all (see above), and is
            // expanded whole.
            node.sets.expand_whole();
            return;
        };
        for u in found {
            if u != t {
                node.sets.add_current(t, u);
            }
        }
    }
}
