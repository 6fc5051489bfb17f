//! `de-spor`: Eager Source Set POR (Cirisci, Enea, Farzan, Mutluergil, *A Pragmatic
//! Approach to Stateful Partial Order Reduction*, Alg. 2, "DE-S-POR"): a stateful
//! search that expands each state by a source set computed on the fly. A state with
//! an invisible step is expanded by it alone, as in [`spor`](super::spor); any other
//! state starts with one process and goes on with those that later steps show to
//! depend on it, until the explored processes hold a persistent subset.
//!
//! Alg. 2, line by line:
//!
//! | lines | what | where |
//! | --- | --- | --- |
//! | 3 | a state visited before is not expanded again | [`search`] |
//! | 4–5 | `backtrack` starts with one process of `safeSet(s)` | [`SourceSets::new`], [`crate::stateful::safe_sets`] |
//! | 6–10 | each process of `backtrack \ done` is explored, `current[t] = {t}` | [`SourceSets::explore_next`] |
//! | 11, 18–22 | `UpdateCurr(a)`: the last step of the current path dependent on `a`, of another process, gets `a`'s process in its `current` set | `update_curr` |
//! | 13 | `UpdateBack` once the step's subtree is explored | [`SourceSets::update_back`] |
//! | 15–17 | at a state visited before: `UpdateCurr` for every action its explored continuations take (`A_s`) | `Eager::revisited`, [`Actions`] |
//!
//! Actions are what a step touched (its footprint, as every search here judges
//! dependency: [`crate::dependency`]); two actions of different processes are
//! dependent when their footprints conflict. A step that enables or disables another
//! writes what the other's guard reads: a conflict, as the paper assumes.
//!
//! What the search does beyond the paper (failures, cycles, processes that wait) is
//! shared with [`dlspor`](super::dlspor) and argued in [`crate::stateful::search`].

use crate::dependency::footprint::Footprint;
use crate::exploration::{Algorithm, Config, Deps, Exploration};
use crate::fingerprint::fingerprint;
use crate::stateful::exchange::Exchanged;
use crate::stateful::graph::{Action, StateId};
use crate::stateful::reachable::Actions;
use crate::stateful::search::{search, Explored, Node, Tracking};
#[cfg(doc)]
use crate::stateful::source_sets::SourceSets;
use crate::stateful::summaries::Summaries;

#[derive(Default)]
pub struct Despor;

impl Algorithm for Despor {
    fn name(&self) -> &'static str {
        "de-spor"
    }

    fn stores_states(&self) -> bool {
        true
    }

    /// Its threads share one store ([`crate::stateful::search`] says why what each
    /// finds together is what one thread finds; `update_curr`, how a thread
    /// walks the actions of the summaries from the program text).
    fn shares_stored_states(&self, _config: &Config) -> bool {
        true
    }

    /// A unit's state is the root of a search of its own, with its own store, as the
    /// stateful reference's is ([`crate::algorithms::stateful`]): the argument is
    /// about the state a search starts from, whose processes are its "threads"
    /// (`update_curr` walks a line of creators up to them, not past them).
    fn explores_units(&self, _deps: Deps) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        search(run, &mut Eager::default());
    }
}

/// The `current` sets filled as steps are taken.
#[derive(Default)]
struct Eager {
    /// The actions reachable from each finished state.
    reachable: Summaries<Actions>,
}

impl Tracking for Eager {
    /// `UpdateCurr(a)` for a step just taken or a probe: see [`update_curr`].
    fn followed(&mut self, explored: &Explored, path: &mut [Node], a: Action) {
        update_curr(explored, path, a, After::TheTop);
    }

    /// Lines 15–17: `UpdateCurr` for every action the explored continuations of
    /// `state` take (`A_s`), as if they were taken again, after steps of theirs the
    /// path does not show (see [`update_curr`]).
    fn revisited(&mut self, explored: &Explored, path: &mut [Node], state: StateId) {
        let traversed = |to| explored.traversed(to);
        for a in (self.reachable).reachable(&explored.graph, state, traversed) {
            update_curr(explored, path, a, After::AContinuation);
        }
    }

    /// Nothing: the `current` sets are up to date.
    fn backed_up(&mut self, _: &Explored, _: &mut Node) {}

    /// Summarises the component: `A_s` of its states is read from the summary from
    /// then on (a traversal from a state not finished stops at them too), so the
    /// graph forgets their transitions.
    fn finished(&mut self, explored: &mut Explored, component: &[StateId]) {
        self.reachable.finish(&explored.graph, component);
        explored.graph.forget(component);
    }

    fn bytes(&self) -> u64 {
        self.reachable.bytes()
    }

    /// A summary from another thread or the program text is read as this thread's
    /// own ([`update_curr`] says why).
    fn summaries(&mut self) -> &mut dyn Exchanged {
        &mut self.reachable
    }
}

/// Where the action `UpdateCurr` walks back from is taken.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// Right after the path's top: a step just taken, or a probe there.
    TheTop,
    /// In an explored continuation of the top, a state stored before (lines
    /// 15–17), after steps of that continuation the path does not show.
    AContinuation,
}

/// `UpdateCurr(a)` (lines 18–22): the last step of the current path that is
/// dependent on `a`, of another process, and that `a` could overtake, gets `a`'s
/// process in its `current` set.
///
/// **Beyond the paper: steps `a` cannot overtake.** The paper takes the last
/// dependent step `b` whatever lies between it and `a`, and relies on exploring
/// `a` before `b` from `b`'s state (its induction, Proposition 4). When `b` also
/// happens before an earlier step of `a`'s process between them (it enables that
/// step: it writes what its `await` reads), `a` can never precede `b`: `b`'s state
/// has `a`'s process outside its safe set, `UpdateBack` expands it whole, and no
/// earlier race with `a` is ever recorded, so a state where a third process had to
/// go first was left with a source set too small (the differential test: a
/// server's write read by a process before the one that woke the server). Here
/// the walk back keeps the steps that happen before `a` through later steps
/// (Source-DPOR's happens-before: program order, and dependency with a step
/// already kept), passes over them, and records `a` at the last dependent step
/// that does not: a race of `a` in Source-DPOR's sense (Abdulla et al., JACM
/// 2017, Def. 3.3). Where `b` is the paper's step, it is that race, and the
/// record is the paper's; where it is passed over, the race of `b` with the step
/// of `a`'s process it reaches first was recorded when that step was taken.
///
/// **Beyond the paper: spawns.** The paper's threads all exist from the start;
/// here a process is spawned by a step of another, and cannot run before it. The
/// steps of its creators up to its creation happen before `a` as its own earlier
/// steps do, and are passed over the same way. (Recording `a` at its creator's
/// step instead, which `a` can never precede, lost a final state: the
/// differential test.) A creator that spawned the line in the continuation
/// (below) took every step of its on the path before that: they are kept too.
///
/// **Beyond the paper: an action of a continuation** (lines 15–17). Between the
/// path's top and such an action `a` lie steps of the continuation the walk does
/// not see. One of them may link a step of the path to `a`: it reads what the
/// step wrote, and `a`'s process (or a step it depends on) reads what it wrote.
/// The first dependent step the walk meets may then happen before `a`, no race,
/// and the race lie further back. So the walk records `a` at every dependent step
/// not known to happen before it: the race among them, and more, which only adds
/// branches. (Stopping at the first, de-spor recorded q's `x = 0; z = 0` at r's
/// `z = a[0]`, which q's `await (z == 0)` had read in the continuation, and never
/// at p's `x = a[2]` before it, the race: it lost the final state `x = 1`,
/// `tests/regressions/de_spor_misses_a_final_state_behind_an_await.ic`; and it
/// recorded a spawned r's `x = 1` at r's own `x = 1`, whose write q's
/// `await (x == 1)` read before spawning r in the continuation, and never its race
/// with p's `y = 1`: `tests/regressions/de_spor_a_process_spawned_past_a_stored_state.ic`.
/// Both were found by the differential tests.)
///
/// **On threads.** A summary another thread published, or one made from the
/// program text, is read as this thread's own: its actions are a continuation's.
/// An action another thread took is walked as one this thread took: `A_s` is what
/// the threads explored from `s`, whichever explored it, as on one thread it is
/// what an earlier visit explored, under another path. A summary from the program
/// text has one action per process (or per process not yet spawned), touching all
/// that the process may touch: each real action of that process is dependent on a
/// subset of the steps the summary's action is dependent on, and happens after at
/// least the steps the walk keeps (those of its process and creators, and through
/// them), so the walk records it at least wherever the real action's would. Its
/// process may be one this thread never met, whose creators it does not know:
/// only its own steps are kept.
fn update_curr(explored: &Explored, path: &mut [Node], a: Action, after: After) {
    let footprint = explored.graph.footprint(a);
    if footprint.reads.is_empty() && footprint.writes.is_empty() {
        return;
    }
    // The processes with a step kept: `a`'s, and its creators whose step that
    // spawned the next of the line is not on the path (it came after, in a
    // continuation: every step of theirs on the path is before it); the others
    // join where the path spawns the next of the line.
    let graph = &explored.graph;
    let mut before = vec![graph.process(a.process)];
    let mut line = explored.pids.get(&before[0]).cloned();
    while let Some(child) = line {
        let child_key = fingerprint(&child);
        // Its creators' steps on the path came after they spawned it.
        if explored.at_start.contains(&child_key) {
            break;
        }
        let parent = child.parent();
        if let Some(creator) = &parent {
            let spawned_here = |n: &Node| n.taken.is_some() && n.spawned.contains(&child_key);
            if !path.iter().any(spawned_here) {
                before.push(fingerprint(creator));
            }
        }
        line = parent;
    }
    // What the steps kept touched.
    let mut kept = Footprint::default();
    for node in path.iter_mut().rev() {
        let Some((number, b)) = node.taken else {
            continue;
        };
        let t = graph.process(number);
        let b_footprint = explored.graph.footprint(b);
        if node.spawned.iter().any(|c| before.contains(c)) && !before.contains(&t) {
            before.push(t);
        }
        let happens_before = before.contains(&t) || b_footprint.conflicts(&kept);
        if !happens_before && dependent(footprint, b_footprint) {
            node.sets.add_current(number, a.process);
            if after == After::TheTop {
                return;
            }
        }
        if happens_before {
            if !before.contains(&t) {
                before.push(t);
            }
            kept.absorb(b_footprint);
        }
    }
}

/// Whether two actions of different processes are dependent: their footprints
/// conflict.
fn dependent(a: &Footprint, b: &Footprint) -> bool {
    a.conflicts(b)
}
