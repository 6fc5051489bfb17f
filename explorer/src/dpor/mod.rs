//! The Source-DPOR skeleton that `sdpor`, `csdpor` and `cdpor` share: the black
//! code of Alg. 1 in the CSDPOR and CDPOR papers. What each algorithm adds lives
//! behind [`Reduction`], in its own module, so that the differences are visible.
//!
//! The search is depth first and iterative (no recursion on execution length). Each
//! node of the current path keeps `enabled`, `backtrack` and `sleep` of Alg. 1; the
//! executor holds the one mutable state and steps back with its undo log.
//!
//! An optimal reduction ([`Reduction::optimal`], `odpor`) keeps a wakeup tree per node
//! instead of a backtrack set (Optimal-DPOR, JACM 2017, Alg. 2): a reversed race
//! inserts its whole sequence `notdep(e, E).n` (see [`crate::dpor::wakeup_tree`]), the node
//! follows its tree's branches leftmost first, and a child inherits the subtree of
//! the branch it was reached by.

pub mod leaving_out;
pub mod sleep;
pub mod wakeup_tree;

use crate::dependency::footprint::{intersects, Footprint, WHOLE};
use crate::dependency::future::Futures;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::leaving_out::without_some_writes_of;
use crate::dpor::sleep::{Kept, SleepSet, Step};
use crate::dpor::wakeup_tree::{sleeper_covers, Cover, Entry, WakeupTree};
use crate::executor::{Event, Executor};
use crate::exploration::{Algorithm, Exploration};
use crate::fingerprint::Fingerprint;
use crate::report::Stats;
use crate::state::State;
use crate::tree::Blocked;
use frontend::ir::{BlockId, GlobalId, Program};
use frontend::may_touch::Successors;
use frontend::memory::{Loc, Memory};
use frontend::value::Value;
use std::borrow::Cow;

/// What a race `e ⋖ n` looks like to a [`Reduction`]: the execution `E.p` (its last
/// event is `n`), the race's `e`, and the states of the path.
pub struct Race<'a, 'p> {
    pub program: &'p Program,
    /// The main executor (for forking alternative runs with the same dependencies).
    pub ex: &'a Executor<'p>,
    pub events: &'a [Event],
    pub hb: &'a HappensBefore,
    /// Index of `e` in `events`; `E' = pre(E, e)` is the prefix before it.
    pub e: usize,
    /// `s[E.p]`: the state after `n`.
    pub state: &'a State,
    /// `s[E']` for every prefix `E'` of `E` (kept only when [`Reduction::snapshots`]).
    pub snapshots: &'a [State],
    /// `sleep(E')`.
    pub sleep: &'a SleepSet,
    /// `enabled(s[E'])`, as process indices.
    pub prefix_enabled: &'a [usize],
    /// The exploration's counters: alternative runs count their events as states.
    pub stats: &'a mut Stats,
    /// The most events an execution may have (`--max-depth`).
    pub max_depth: Option<usize>,
    /// [`State::check_fingerprint`] of `state`, computed once for all the
    /// races of `n`.
    pub reached: &'a std::cell::OnceCell<Fingerprint>,
    /// Whether the end of an execution reads the memory (see [`State::dead_globals`]).
    pub end_reads: bool,
}

impl Race<'_, '_> {
    /// The index of `n`.
    pub fn n(&self) -> usize {
        self.events.len() - 1
    }

    /// Identity keys of the processes of some events.
    pub fn processes(&self, events: &[usize]) -> Vec<Fingerprint> {
        events
            .iter()
            .map(|&i| self.state.procs[self.events[i].proc].pid_key)
            .collect()
    }

    /// The syntactic footprint of event `i`'s block: what it may touch from any
    /// local state (for an event that runs elsewhere after other reads).
    pub fn block_footprint(&self, i: usize) -> Footprint {
        self.ex.block_footprint(self.events[i].block).clone()
    }

    /// Event `i`'s transition footprint: what it may touch wherever its process runs
    /// it with the same local state.
    pub fn transition_footprint(&self, i: usize) -> Footprint {
        self.ex.event_transition(i)
    }

    /// The identity fingerprint of `s[E.p]`.
    pub fn reached(&self) -> Fingerprint {
        *self
            .reached
            .get_or_init(|| self.state.check_fingerprint(self.program, self.end_reads))
    }

    /// Runs `processes` from `s[E']` on a copy (see [`run_from`]) to evaluate
    /// something in the state reached: its events are counted apart, not as states.
    pub fn replay_from_prefix(&mut self, processes: &[Fingerprint]) -> Option<(State, Vec<Step>)> {
        let counter = &mut self.stats.pruning.replayed_events;
        run_from(self.ex, &self.snapshots[self.e], processes, counter)
    }
}

/// Runs `processes` (by identity key) from a copy of `state`, counting each step in
/// `counter`. `None` when a step is not enabled or fails; otherwise the state reached
/// and each step with its footprint.
pub fn run_from(
    base: &Executor<'_>,
    state: &State,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<(State, Vec<Step>)> {
    let mut scratch = state.clone();
    let steps = run_in(base, &mut scratch, processes, counter)?;
    Some((scratch, steps))
}

/// [`run_from`] on `scratch`, a copy of the state to run from that the caller keeps
/// to reuse its buffers; it holds the state reached when the result is `Some`.
pub fn run_in(
    base: &Executor<'_>,
    scratch: &mut State,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<Vec<Step>> {
    let mut ex = base.fork(std::mem::take(scratch));
    let steps = run_steps(&mut ex, processes, counter);
    *scratch = ex.state;
    steps
}

fn run_steps(
    ex: &mut Executor<'_>,
    processes: &[Fingerprint],
    counter: &mut u64,
) -> Option<Vec<Step>> {
    let mut steps = Vec::with_capacity(processes.len());
    for &key in processes {
        let i = ex.state.procs.iter().position(|q| q.pid_key == key)?;
        if !ex.is_enabled(i) {
            return None;
        }
        let event = ex.step(i).ok()?;
        *counter += 1;
        steps.push(Step {
            process: key,
            footprint: event.footprint.clone(),
        });
    }
    Some(steps)
}

/// The memory of `s[E'.w]`, where `E'` is the prefix before event `e` and `w` the
/// events `after` (indices after `e`, in order), computed from the undo log (see
/// [`Executor::virtual_memory`]); `None` when that would not be exact: some event of
/// `w` was recorded independent (CDPOR line 9) of a conflicting event from `e` on
/// that is not in `w`, and may have read what that event wrote (and behave otherwise
/// without it). A pair that only writes the same locations (`odpor-ob`'s unobserved
/// writes) does not make it inexact. `w` must otherwise contain every event after `e`
/// that happens before one of its own (`notdep(e, E)` and `dep(E, e, n)` do).
pub fn virtual_memory(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    e: usize,
    after: &[usize],
) -> Option<Memory> {
    let member = |i: usize| after.binary_search(&i).is_ok();
    let events = ex.events();
    let reads =
        |j: usize, k: usize| intersects(&events[j].footprint.reads, &events[k].footprint.writes);
    let exact = after.iter().all(|&j| {
        hb.independent_of(j)
            .iter()
            .all(|&k| k < e || member(k) || !reads(j, k))
    });
    exact.then(|| ex.virtual_memory(e, member))
}

/// The states around a newly run event `n` of process `p`: `s[E]` and `s[E.p]`.
pub struct Around<'a, 'p> {
    pub program: &'p Program,
    pub ex: &'a Executor<'p>,
    pub before: &'a State,
    /// `enabled(s[E])`, as process indices.
    pub enabled_before: &'a [usize],
    pub after: &'a State,
    pub p: Fingerprint,
    pub stats: &'a mut Stats,
    /// Whether the end of an execution reads the memory (see [`State::dead_globals`]).
    pub end_reads: bool,
}

/// A sequence reaching the state of `E.p` from `E'` (see [`crate::dpor::sleep`]).
pub enum Equivalent {
    /// Proved to reach it (by a constraint).
    Proved(Vec<Step>),
    /// Reaches it if the exploration finds it does (CSDPOR's check, done lazily).
    IfReaching(Vec<Step>, Fingerprint),
}

/// What a race of an `await` (or of a probe) with an earlier event can add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AwaitRace {
    /// The await can run before the earlier event: an ordinary race.
    Reversible,
    /// It cannot, and nothing is gained by trying.
    InVain,
    /// It cannot, but running the process's earlier steps sooner brings it to the
    /// `await` where a probe races with an earlier write.
    Climb,
}

/// The additions of an algorithm to the Source-DPOR skeleton (Alg. 1 of the papers).
pub trait Reduction {
    fn name(&self) -> &'static str;

    /// Whether the algorithm needs `s[E']` for every prefix `E'` (for alternative runs).
    fn snapshots(&self) -> bool {
        false
    }

    /// CDPOR Alg. 1, line 9: whether the race must be reversed (`updateBack`). The
    /// skeleton always reverses.
    fn must_reverse(&mut self, _race: &mut Race<'_, '_>) -> bool {
        true
    }

    /// CSDPOR lines 11–14 / CDPOR lines 11–14: a sequence to add to `sleep(E')` after
    /// the race, if any. The skeleton adds none.
    fn sleep_after_race(&mut self, _race: &mut Race<'_, '_>) -> Option<Equivalent> {
        None
    }

    /// ISSTA'19 Alg. 2, lines 69–74 (`odpor-cs-ob`): a sequence to add to `sleep(E')`
    /// for an observed write/write race of `e` with `e'`, presented up to its last
    /// observer (`race.n()`, with the state after it); `(e', observers)`. `None` falls
    /// back on [`Reduction::sleep_after_race`] at `e'`.
    fn sleep_after_observed_race(
        &mut self,
        _race: &mut Race<'_, '_>,
        _observed: (usize, &[usize]),
    ) -> Option<Equivalent> {
        None
    }

    /// CDPOR Alg. 1, line 17: keep a single-step sleep entry `x` that conflicts with
    /// `n` because it is conditionally independent of `n` in `s[E]` (asked only of
    /// reductions that keep [`Reduction::snapshots`]). The entry is kept with the
    /// returned footprint: what `x` touches when run after `n`.
    fn keep_asleep(&mut self, _around: &mut Around<'_, '_>, _x: &Step) -> Option<Footprint> {
        None
    }

    /// CSDPOR Sec. 5.3, optimisation 1: whether the node (whose sleep set is given) can
    /// only lead to sleep-set-blocked executions, so its exploration is cut now.
    fn cut(
        &mut self,
        _program: &Program,
        _state: &State,
        _enabled: &[usize],
        _sleep: &SleepSet,
        _events: &[Event],
    ) -> bool {
        false
    }

    /// Guide the three arbitrary choices of Alg. 1 by sleep sequences (Sec. 5.3, opt. 2).
    fn guided(&self) -> bool {
        false
    }

    /// Wakeup trees instead of backtrack sets (Optimal-DPOR).
    fn optimal(&self) -> bool {
        false
    }

    /// An optimal reduction with don't-do sequences, which blocks an execution where
    /// it reaches a state covered elsewhere: a wakeup sequence extends a leaf of the
    /// wakeup tree that covers it, rather than being left out (see
    /// [`WakeupTree::insert`]).
    fn blocks_by_state(&self) -> bool {
        false
    }

    /// A block at a covered state also analyses the futures of the block's partners
    /// ([`crate::dpor::sleep::Ends::partners`]) and of the processes chained to them
    /// (`Dpor::future_races`).
    fn chases_partners(&self) -> bool {
        false
    }

    /// An optimal reduction with don't-do sequences: the races of a step confirmed in
    /// `dnd(E)` are analysed without running it (see `Dpor::settle_blocked`), where
    /// ODPOR_cs runs it and blocks (Alg. 1, lines 25–26).
    fn settles_dont_do(&self) -> bool {
        false
    }

    /// An optimal reduction's sequence `v` for a race `e ⋖ n`: the events that run
    /// before `n`, and after it. Optimal-DPOR's (JACM Alg. 2, line 10):
    /// `notdep(e, E)`, then `n`.
    fn wakeup_sequence(&self, r: &Race<'_, '_>) -> (Vec<usize>, Vec<usize>) {
        (races::notdep(r.events, r.hb, r.e), Vec::new())
    }

    /// Optimal-DPOR with observers (`odpor-ob`, with [`Reduction::optimal`]): the races
    /// of real events are found once an execution ends, over the observer-aware
    /// happens-before ([`crate::dependency::observers`]) — whether two writes of a location race
    /// depends on what reads it later — rather than after each event. Probes of
    /// blocked processes are still analysed as they happen.
    fn observers(&self) -> bool {
        false
    }

    /// Whether two events (block, locals at their start) of different processes whose
    /// footprints conflict commute nevertheless, as a property of the events (cdpor's
    /// line 9 relation): an optimal reduction uses it for weak initials and sleep sets,
    /// as it uses the races' `must_reverse`. `initial` is the search's first state
    /// (kept when [`Reduction::snapshots`]).
    fn independent(
        &mut self,
        _program: &Program,
        _initial: &State,
        _max_depth: Option<usize>,
        _x: (BlockId, &[Value]),
        _y: (BlockId, &[Value]),
    ) -> bool {
        false
    }

    /// Whether [`Reduction::independent`] may hold of events whose footprints
    /// conflict (ocdpor's `R`): a sleeping process then stays asleep past events it
    /// conflicts with, and one waiting at an `await` covers a wakeup sequence beside
    /// it only if the race's first event, which runs after the sequence, cannot
    /// disable it (see [`sleeper_covers`]).
    fn lifts(&self) -> bool {
        false
    }
}

/// One of the three arbitrary choices of Alg. 1 (lines 3, 5, 10) among `candidates`
/// (process indices): guided, the one heading the shortest sequence of `sleep`
/// (CSDPOR Sec. 5.3, optimisation 2); otherwise the first, in spawn order.
fn choose(guided: bool, state: &State, sleep: &SleepSet, candidates: &[usize]) -> Option<usize> {
    if !guided {
        return candidates.first().copied();
    }
    candidates.iter().copied().min_by_key(|&i| {
        let key = state.procs[i].pid_key;
        (sleep.shortest_headed_by(key).unwrap_or(usize::MAX), i)
    })
}

/// A node of the current path: the state `s[E]` after its depth's prefix.
#[derive(Default)]
struct Node {
    enabled: Vec<usize>,
    backtrack: Vec<usize>,
    /// `wut(E)`, for an optimal reduction (its backtrack set stays empty).
    wut: WakeupTree,
    sleep: SleepSet,
    /// The process explored from this node now (its event is at this depth).
    current: Option<usize>,
    started: bool,
    /// The processes whose step ran here and was blocked after reaching a covered
    /// state (odpor-cs, odpor-cs-ob, ocdpor): the node goes on with a fresh process
    /// once its wakeup tree is spent (see `Dpor::block_after_equivalent`), and a new
    /// wakeup branch that starts with one of them would only repeat it (see
    /// `Dpor::insert_wakeup`).
    blocked_steps: Vec<Fingerprint>,
    /// The steps kept asleep into this node by commutation in its state, run first
    /// for their races (see `Dpor::run_commuted`): sleeping steps, whose block does
    /// not make the node go on (see `Dpor::choose_after_blocked`).
    commuted: Vec<Fingerprint>,
    /// The processes explored from this node whose subtree asked for a wakeup
    /// sequence here for the races of a blocked step's future: not done at Fig. 1,
    /// line 9 from then on (see `Dpor::delegate`).
    delegated: Vec<Fingerprint>,
    /// Fresh processes chosen after blocked branches (`Dpor::choose_after_blocked`).
    fresh_after_blocked: usize,
}

pub struct Dpor<R> {
    reduction: R,
    hb: HappensBefore,
    nodes: Vec<Node>,
    depth: usize,
    snapshots: Vec<State>,
    /// The enabled set of the state after the newest event, before it becomes a node's.
    enabled: Vec<usize>,
    /// Steps held by the wakeup trees of the current path (optimal reductions).
    wakeup_steps: usize,
    /// Per global, whether an `await` guard may read it ([`crate::dependency::observers::guarded`]),
    /// for a reduction with [`Reduction::observers`].
    guarded: Vec<bool>,
    /// Whether the end of an execution reads the memory: not for a reduction with
    /// observers under `--violations-only` (see [`State::dead_globals`]).
    end_reads: bool,
    /// `true` for every global, for a reduction with observers: what the end of a
    /// wakeup sequence reads ([`crate::dependency::observers::end_reads`]).
    every_global: Vec<bool>,
    /// Per block, the globals its `await` guard reads (`BlockSets::guard_reads`), for
    /// [`leaves_a_raced_waiter`].
    guards: Vec<Vec<GlobalId>>,
    /// The races `(e, n)` of the current path whose reversal was refused so, judged
    /// again on the whole of each execution through `n`, where it ends
    /// ([`Dpor::recheck_beside`]).
    beside: Vec<(usize, usize)>,
    /// What each block and everything after it may touch ([`Dpor::future_races`]).
    futures: Option<Futures>,
}

impl<R: Reduction> Dpor<R> {
    pub fn new(reduction: R) -> Self {
        Dpor {
            reduction,
            hb: HappensBefore::default(),
            nodes: Vec::new(),
            depth: 0,
            snapshots: Vec::new(),
            enabled: Vec::new(),
            wakeup_steps: 0,
            guarded: Vec::new(),
            end_reads: true,
            every_global: Vec::new(),
            guards: Vec::new(),
            beside: Vec::new(),
            futures: None,
        }
    }

    /// Makes node `depth` the top, reusing its buffers, with the given sleep set and
    /// wakeup tree and the enabled set of the current state (in `self.enabled`).
    fn open(&mut self, run: &Exploration<'_, '_>, sleep: Option<SleepSet>, wut: WakeupTree) {
        if self.nodes.len() == self.depth {
            self.nodes.push(Node::default());
        }
        let node = &mut self.nodes[self.depth];
        std::mem::swap(&mut node.enabled, &mut self.enabled);
        node.backtrack.clear();
        node.wut = wut;
        node.current = None;
        node.started = false;
        node.blocked_steps.clear();
        node.commuted.clear();
        node.delegated.clear();
        node.fresh_after_blocked = 0;
        match sleep {
            Some(s) => node.sleep = s,
            None => node.sleep.clear(),
        }
        if self.reduction.snapshots() {
            if self.snapshots.len() == self.depth {
                self.snapshots.push(run.ex.state.clone());
            } else {
                self.snapshots[self.depth].clone_from(&run.ex.state);
            }
        }
    }

    /// A process to explore from `node` among `candidates` (see [`choose`]).
    fn choose(
        &self,
        run: &Exploration<'_, '_>,
        node: &Node,
        candidates: &[usize],
    ) -> Option<usize> {
        choose(
            self.reduction.guided(),
            &run.ex.state,
            &node.sleep,
            candidates,
        )
    }

    fn asleep(&self, run: &Exploration<'_, '_>, node: &Node, proc: usize) -> bool {
        node.sleep.asleep(run.ex.state.procs[proc].pid_key)
    }

    /// Alg. 1, lines 6–14: the races of the newest event `n`, and what they add to the
    /// backtrack and sleep sets of earlier nodes. For a probe (`real == false`) only
    /// the backtrack sets: there is no state after it to compare.
    fn analyse_races(&mut self, run: &mut Exploration<'_, '_>, real: bool) {
        // Sec. 3.3: an independence proved for a race is recorded in happens-before,
        // which may expose races that it hid (e → e' → n with e' now unordered with
        // n): analysed in turn, until no new independence is found.
        let mut analysed: Vec<usize> = Vec::new();
        let mut independent: Vec<usize> = Vec::new();
        loop {
            let races: Vec<usize> = races::races(run.ex.events(), &self.hb)
                .into_iter()
                .filter(|e| !analysed.contains(e))
                .collect();
            if races.is_empty() {
                return;
            }
            analysed.extend(&races);
            let proved = self.analyse(run, real, &races);
            if proved.is_empty() {
                return;
            }
            independent.extend(proved);
            self.hb.pop();
            self.hb
                .push(run.ex.events(), &run.ex.state.procs, &independent);
        }
    }

    /// Alg. 1, lines 7–14 for the given races `e ⋖ n` of the newest event; returns
    /// those proved independent (not reversed, CDPOR line 9).
    fn analyse(
        &mut self,
        run: &mut Exploration<'_, '_>,
        real: bool,
        races: &[usize],
    ) -> Vec<usize> {
        let mut independent = Vec::new();
        let n = run.ex.events().len() - 1;
        let reached = std::cell::OnceCell::new();
        let climbs = !self.reduction.optimal();
        for &e in races {
            run.stats.pruning.races += 1;
            let prefix = self.snapshots.get(e);
            let replayed = &mut run.stats.pruning.replayed_events;
            let await_race = await_race(&run.ex, &self.hb, (e, n), climbs, prefix, replayed);
            if await_race == AwaitRace::InVain {
                run.stats.pruning.irreversible_races += 1;
                continue;
            }
            let mut wakeup: Option<Vec<Entry>> = None;
            {
                let (before, _) = self.nodes.split_at_mut(n);
                let prefix = &mut before[e];
                let at = (e, n, None);
                let mut race = race_view(
                    run,
                    &self.hb,
                    &self.snapshots,
                    prefix,
                    at,
                    (&reached, self.end_reads),
                );
                let reverse = self.reduction.must_reverse(&mut race);
                let in_wut = reverse && self.reduction.optimal();
                let sequence = in_wut.then(|| self.reduction.wakeup_sequence(&race));
                if !reverse {
                    independent.push(e);
                } else if let Some((before_n, after_n)) = sequence {
                    // Optimal-DPOR: v = notdep(e, E).n joins wut(E') (see
                    // `insert_wakeup`; odpor-cs's v: `Reduction::wakeup_sequence`); a
                    // probe's step with its block's footprint (it reads other values
                    // there).
                    let whole_n = !real;
                    wakeup = Some(
                        before_n
                            .into_iter()
                            .chain([n])
                            .chain(after_n)
                            .map(|i| entry(&run.ex, i, whole_n && i == n))
                            .collect(),
                    );
                } else {
                    // Source-DPOR: v = notdep(e, E).p; if I_[E'](v) ∩ backtrack(E') = ∅,
                    // add an initial of v. Only initials enabled at E' can be explored:
                    // if none is, `e` enabled `n` and the race is not reversible.
                    // (Races of an `await` that cannot pass here were left out above
                    // only where no probe needs them: see `await_race`.)
                    let mut v = races::notdep(run.ex.events(), &self.hb, e);
                    v.push(n);
                    let whole = (!real).then(|| run.ex.event_transition(n));
                    let guided = self.reduction.guided();
                    add_initial(run, &self.hb, prefix, guided, &v, whole.as_ref());
                }
            }
            // ODPOR_cs Alg. 1, lines 40–42: a don't-do sequence joins dnd(E') only
            // with a wakeup sequence that is not redundant.
            // `e` runs after the reversal (see `sleeper_covers`): a probe's, or any
            // where `R` may keep a process asleep.
            let lifts = self.reduction.lifts();
            let insertion = wakeup.map(|entries| {
                let race_write = (!real || lifts).then(|| entry(&run.ex, e, false));
                self.insert_wakeup(run, e, entries, race_write.as_ref())
            });
            if real && insertion == Some(Insertion::Beside) {
                self.beside.push((e, n));
            }
            let redundant = insertion.is_some_and(|i| i != Insertion::Joined);
            if !real || redundant {
                continue;
            }
            let view = (
                &self.hb,
                &self.snapshots[..],
                &self.nodes[e],
                self.end_reads,
            );
            let reduction = &mut self.reduction;
            let dont = race_at(run, view, (e, n), &reached, |r| {
                reduction.sleep_after_race(r)
            });
            add_dont_do(&mut self.nodes[e].sleep, dont);
        }
        independent
    }

    /// Optimal-DPOR (JACM Alg. 2, lines 7–8): the sequence `entries` joins
    /// `wut(pre(E, e))` unless it is redundant there (ODPOR_cs Alg. 1, line 40): a
    /// process asleep there is a weak initial of it (its trace is covered there).
    /// Only processes explored from `E'` (`done(E')`) and steps passed down to it
    /// count: not odpor-cs's don't-do sequences, whose executions stop after their
    /// last step (see `block_after_equivalent`). `race_write`: for a probe's reversal
    /// (and any reversal where [`Reduction::lifts`]), the race's first event, which
    /// runs after it (see [`sleeper_covers`]). Whether it joined.
    fn insert_wakeup(
        &mut self,
        run: &mut Exploration<'_, '_>,
        e: usize,
        entries: Vec<Entry>,
        race_write: Option<&Entry>,
    ) -> Insertion {
        let reduction = &mut self.reduction;
        let (program, max_depth) = (run.ex.program(), run.config.max_depth);
        let initial = self.snapshots.first();
        let observers = reduction.observers();
        // Whether a state may cut an exploration below: then a leaf covers `v` only
        // where `→ob` does not prune below it either (see `WakeupTree::insert`), and a
        // sleeper beside `v` does not cover it (see `sleeper_covers`).
        let cut = reduction.blocks_by_state();
        let extend_leaves = cut || observers;
        let (guarded, everything) = (&self.guarded, &self.every_global);
        let mut independent = |seq: &[&Entry], i: usize, k: usize| {
            if observers {
                // A wakeup sequence goes on: its end reads every global.
                return crate::dependency::observers::unobserved(seq, i, k, guarded, everything);
            }
            match (&seq[i].event, &seq[k].event, initial) {
                (Some((bx, lx)), Some((by, ly)), Some(initial)) => {
                    reduction.independent(program, initial, max_depth, (*bx, lx), (*by, ly))
                }
                _ => false,
            }
        };
        // A sleeping step is its process's next event in `s[E']` (kept when
        // the reduction keeps snapshots).
        let at_prefix = self.snapshots.get(e);
        let prefix = &mut self.nodes[e];
        let mut commutes = false;
        let mut beside = false;
        let covered = prefix.sleep.asleep_steps().any(|step| {
            let event = at_prefix
                .and_then(|st| st.procs.iter().find(|q| q.pid_key == step.process))
                .and_then(|q| Some((q.next?, q.locals.clone())));
            // Only an `await` can be disabled by the race's write (see `sleeper_covers`).
            let after = race_write.filter(|_| {
                next_block(&run.ex, e, step.process).is_none_or(|block| waits(program, block))
            });
            let sleeping = Entry {
                process: step.process,
                footprint: step.footprint.clone(),
                spawns: Vec::new(),
                event,
                written: Vec::new(),
            };
            match sleeper_covers(&entries, after, &sleeping, cut, &mut independent) {
                Cover::Yes => true,
                Cover::Beside => {
                    beside = true;
                    true
                }
                Cover::No => false,
                Cover::Commutes => {
                    commutes = true;
                    false
                }
            }
        });
        // ODPOR_cs Alg. 1, lines 25–26 run a step of dnd(E') for its races whenever a
        // branch starts with it (odpor-cs and ocdpor analyse them without running it:
        // `Dpor::settle_blocked`). A new branch that starts with a step already run
        // (or settled) and blocked at E' would only repeat that — the same events, whose races were
        // analysed then — so it is redundant too, and so is its don't-do sequence (it
        // starts with that step). Not a step that is only kept at E' as a confirmed
        // don't-do step (`Ending::Blocks`) because it commutes in context with the
        // event before (odpor-cs's note 6): it never ran here, and its races with the
        // events of E' are seen only when it does (taking it as run, odpor-cs lost a
        // final state: `regressions::odpor_cs_a_step_kept_by_commutation_never_ran`).
        let repeats = entries.first().is_some_and(|first| {
            prefix.blocked_steps.contains(&first.process)
                && prefix.wut.branches_at_root(&entries, &mut independent)
        });
        // A repeat whose blocked first step commutes with the rest of the sequence
        // (no conflict of footprints, not its process, not spawned by it) still asks
        // for the rest's order, without that step, which can run later: in `--literal`
        // (odpor-cs-ob), p run and blocked at q's first block hid r there, and the
        // covering subtree, p first, never had r before q's first block
        // (`regressions::odpor_cs_ob_literal_a_blocked_branch_hides_a_reader_first`).
        // (Not a step only kept asleep into the node by commutation, which owes
        // nothing: see `Dpor::choose_after_blocked`.)
        if let [first, rest @ ..] = &entries[..] {
            let apart = rest.iter().all(|x| {
                x.process != first.process
                    && !first.spawns.contains(&x.process)
                    && !first.footprint.conflicts(&x.footprint)
            });
            let commuted = prefix.commuted.contains(&first.process);
            if !covered && repeats && !commuted && !rest.is_empty() && apart {
                return self.insert_wakeup(run, e, rest.to_vec(), race_write);
            }
        }
        if covered && beside {
            return Insertion::Beside;
        }
        if covered || repeats || entries.is_empty() {
            return Insertion::Redundant;
        }
        self.wakeup_steps += prefix.wut.insert(entries, &mut independent, extend_leaves);
        let pruning = &mut run.stats.pruning;
        pruning.wakeup_inserted += 1;
        pruning.wakeup_beside_commuting += u64::from(commutes);
        pruning.max_wakeup = pruning.max_wakeup.max(self.wakeup_steps as u64);
        Insertion::Joined
    }

    /// JACM Alg. 2 reverses the races of an execution where it ends, with `v =
    /// notdep(e, E).n` over the whole of it; ours are reversed as `n` runs, with the
    /// events before `n` only. A process asleep at `pre(E, e)` beside that shorter `v`
    /// (commuting with all of it, [`Cover::Beside`]) covers it, but may conflict with
    /// an event after `n` that does not depend on `e`, which JACM's `v` holds: the
    /// trace with that event before the sleeper is then covered by nothing. Two p's
    /// `f0 = true; yield; f0 = false`, q's `f1 = true` and r's `f1 = false` before an
    /// `await`: below p@2, the race of r's write with q asked for q first, refused
    /// beside p@1 asleep there, and p@2's second step then came before p@1's only
    /// after r's write (odpor explored 23 of 24 traces:
    /// `regressions::odpor_judges_a_sleeper_beside_on_the_whole_execution`). So
    /// each race refused so is judged again where the execution ends, with JACM's `v`;
    /// its don't-do sequence (odpor-cs) is left out. In each execution through `n`:
    /// which events follow `n` independently of `e` depends on the continuation.
    fn recheck_beside(&mut self, run: &mut Exploration<'_, '_>) {
        for (e, n) in self.beside.clone() {
            let events = run.ex.events();
            let entries: Vec<Entry> = races::notdep(events, &self.hb, e)
                .into_iter()
                .chain([n])
                .map(|i| entry(&run.ex, i, false))
                .collect();
            let race_write = self.reduction.lifts().then(|| entry(&run.ex, e, false));
            self.insert_wakeup(run, e, entries, race_write.as_ref());
        }
    }

    /// ODPOR^ob (ISSTA 2019, Alg. 1, line 14, and Fig. 1) for a reduction with
    /// [`Reduction::observers`]: the races of the execution that ends here (complete,
    /// or blocked), over the observer-aware happens-before of [`crate::dependency::observers`],
    /// each reversal inserted as [`Dpor::insert_wakeup`] inserts those of the
    /// incremental analysis (which such a reduction does not run on real events).
    /// `complete`: no process can run (otherwise it is blocked in a sleep set, and
    /// its end reads what its continuations may: see [`crate::dependency::observers::end_reads`]).
    fn observed_races(&mut self, run: &mut Exploration<'_, '_>, complete: bool) {
        if !self.reduction.observers() {
            return;
        }
        let (events, procs) = (run.ex.events(), &run.ex.state.procs);
        let vo = run.config.violations_only;
        let end =
            crate::dependency::observers::end_reads(run.ex.program(), &run.ex.state, vo, complete);
        let mut order = crate::dependency::observers::order(events, procs, &self.guarded, &end);
        // Only a complete execution is a class of its own: a blocked one stands for
        // its continuations, explored (or covered) elsewhere.
        let owed = if complete {
            self.owed_elsewhere(run, &order)
        } else {
            Vec::new()
        };
        self.observed_races_up_to(run, &order, &end, Last::Ran, &owed);
        // A real `await` asks to run before the writes that disabled it, over `→ob`:
        // its probes in the middle of the execution were judged by footprints, where a
        // pair of writes that a later one overwrites unread still orders them
        // (`regressions::odpor_ob_a_wait_in_the_middle_is_probed_by_footprints`). A
        // failed `await` too, as the incremental analysis asks for it
        // ([`Dpor::pass_disabling_writes`]): its guard held, and running it before the
        // writes that disabled it may pass or fail otherwise. (Left out until stop 36
        // for no stated reason; no program is known where it changes what is found,
        // and every sequence asked for goes through the redundancy check.)
        for n in 0..run.ex.events().len() {
            if waits(run.program(), run.ex.events()[n].block) {
                self.pass_disabling_writes_at(run, &order, n);
            }
        }
        let blocked: Vec<usize> = (0..run.ex.state.procs.len())
            .filter(|&r| run.ex.state.procs[r].next.is_some() && !run.ex.is_enabled(r))
            .collect();
        self.observed_probes(run, &mut order, &end, &blocked, &owed);
    }

    /// The processes done at a node `w` of the path that come first in the rest of
    /// the execution that just completed, over its `→ob` (`hb`): their first event
    /// after `w` has no predecessor after `w`. The execution is then one of the
    /// classes that Fig. 1, line 9 trusts the subtree of such a process `d` at `w`
    /// to explore, yet it was reached in another branch of `w`: the sequence that led
    /// here was inserted there when `d` did not come first in it. Over `→ob` weak
    /// initials grow as a sequence is extended (a write that the end of the sequence
    /// observes is unobserved once a later step overwrites it unread), so with
    /// observers this happens; with plain happens-before it cannot (`d` would be
    /// asleep). The races of this execution from `d`'s event on then lead to the
    /// classes that `d`'s subtree, which may never have reached this one, would have
    /// asked for from its own representative of it; a reversal of such a race is
    /// not judged redundant by `d` at `w` ([`trusted`]).
    ///
    /// Before this, two such judgements covered each other's classes: at `w = p@1
    /// p@4 p@2 q`, the subtree of p@4 cut the reversals that put q's check before the
    /// others' as covered by p@1's and p@2's subtrees, whose own races led to the
    /// class where p@4's check precedes q's last write and p@1's and p@2's follow it,
    /// through a sequence inserted into q's branch (p@4's check wrote b, which the
    /// end of that sequence read, so p@4 did not come first); there the race of the
    /// last two writes of b was judged covered by p@4, done: odpor-ob missed 2 of
    /// 2,043 reads-from classes
    /// (`regressions::odpor_ob_misses_the_last_writer_of_a_check_after_circular_coverage`),
    /// and 3 of 74 in a 3-process program
    /// (`regressions::odpor_ob_a_class_reached_outside_the_done_subtree`). That this
    /// reaches every class is not proved: the differential test checks it.
    fn owed_elsewhere(&self, run: &Exploration<'_, '_>, hb: &HappensBefore) -> Vec<Owed> {
        let events = run.ex.events();
        let procs = &run.ex.state.procs;
        let mut owed = Vec::new();
        for (node, processes) in self.done(run, events.len()) {
            for process in processes {
                let first =
                    (node..events.len()).find(|&k| procs[events[k].proc].pid_key == process);
                if let Some(first) = first.filter(|&k| (node..k).all(|i| !hb.before(events, i, k)))
                {
                    owed.push(Owed {
                        node,
                        process,
                        first,
                    });
                }
            }
        }
        owed
    }

    /// odpor-cs-ob's [`Dpor::settle_blocked`]: the races of a step `x` confirmed in
    /// `dnd(E)` at node `d`, over `→ob`, without running it (odpor-cs's note 7 with
    /// observers); its transition footprint. Running it, the execution `E.x` would end
    /// blocked and [`Dpor::observed_races`] would analyse its races, with its end
    /// reading what the continuations may. Here `x` is an event of its transition
    /// footprint that writes only what its block surely overwrites
    /// ([`Executor::unrun_overwriting`]: it runs normally there, reaching a covered
    /// state), in `s[E]`, whose live processes include `x`'s, at `x`'s block: so the
    /// end reads what it read after `E.x` and more, every event at least what it read
    /// there, and no write hides an earlier one that it did not hide there — every
    /// pair of writes ordered there is ordered here, and `x` conflicts with every
    /// event it did. As for a
    /// probe, `x`'s reversals run its whole block and no don't-do sequence follows
    /// them (there is no state after it); the other races get theirs as at any end.
    /// An `await` step asks to run before the writes that disabled it, as one that
    /// runs does (the climb of the race analysis alone missed a class:
    /// `regressions::odpor_ob_an_await_passes_the_writes_that_disabled_it`). The
    /// processes blocked in `s[E]` are probed, and those whose `await` reads what
    /// `x` may write (it may disable them), as [`Dpor::settle`] probes them. The
    /// processes that could wait after `x` only because of it (its own, at an
    /// `await` after it, or one it spawns) are not known without running it: a step
    /// that may leave one is not settled but run ([`settled_successors`]). Where `x`
    /// observes a write/write race, Sec. 4.1's check runs it on its copies: the
    /// reversal's copy must run it as the original order's copy does
    /// ([`crate::algorithms::odpor_cs_ob::modulo_observers`]).
    fn settle_observed(
        &mut self,
        run: &mut Exploration<'_, '_>,
        x: usize,
        ends: bool,
        partners: &[Fingerprint],
    ) -> Footprint {
        let end = settled_end_reads(&run.ex, x, run.config.violations_only, ends);
        let footprint = run.ex.unrun_overwriting(x).footprint.clone();
        let (events, procs) = (run.ex.events(), &run.ex.state.procs);
        let mut order = crate::dependency::observers::order(events, procs, &self.guarded, &end);
        run.stats.pruning.covered_unrun += 1;
        self.observed_races_up_to(run, &order, &end, Last::Settled, &[]);
        self.pass_disabling_writes_over(run, &order);
        let probed: Vec<usize> = (0..run.ex.state.procs.len())
            .filter(|&r| {
                let live = r != x && run.ex.state.procs[r].next.is_some();
                live && (!run.ex.is_enabled(r) || guard_reads_written(&run.ex, r, &footprint))
            })
            .collect();
        self.observed_probes(run, &mut order, &end, &probed, &[]);
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.future_races(run, x, Some((partners, &end)));
        self.hb.pop();
        run.ex.back();
        footprint
    }

    /// The probes of [`Dpor::observed_races`], of processes `probed`.
    fn observed_probes(
        &mut self,
        run: &mut Exploration<'_, '_>,
        order: &mut HappensBefore,
        end: &[bool],
        probed: &[usize],
        owed: &[Owed],
    ) {
        // A process blocked at the end is probed, one at a time, so that the writes
        // that disabled it are reversed over →ob too: the incremental probes judge
        // them by footprints, where two writes of a location that a later write
        // overwrites unread still order its earlier steps after the disabling write
        // (odpor-ob lost a final state so:
        // `regressions::odpor_ob_probes_the_processes_blocked_at_the_end`). The
        // probe also asks to run before each earlier write that disabled it, over
        // the same order (its direct race is with the last one only). The probe
        // leaves the order of the execution as it is: it writes nothing, and reads
        // only what a guard reads, whose writes are always ordered (`guarded`); so
        // its clock is pushed onto that order, with no pair of writes unobserved.
        for &r in probed {
            run.ex.probe(r);
            order.push(run.ex.events(), &run.ex.state.procs, &[]);
            self.observed_races_up_to(run, order, end, Last::Probe, owed);
            self.pass_disabling_writes_over(run, order);
            order.pop();
            run.ex.back();
        }
    }

    /// The races of [`Dpor::observed_races`]: those of the execution, or only those of
    /// its last event when it is a probe of a blocked process (see [`Last`]); `owed`:
    /// the done processes the execution shows to come first elsewhere
    /// ([`Dpor::owed_elsewhere`]).
    fn observed_races_up_to(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        end: &[bool],
        last: Last,
        owed: &[Owed],
    ) {
        let events = run.ex.events();
        let len = events.len();
        let later = if last == Last::Probe {
            len - 1..len
        } else {
            0..len
        };
        // Whether a reversal ends with the last event unrun: its whole block.
        let unrun = |later: usize| last != Last::Ran && later == len - 1;
        // Fig. 1, line 9's `done` of every prefix, taken once, at the first race that
        // asks: the races below change wakeup trees and don't-do sets, not what was
        // explored.
        let mut done: Option<Vec<(usize, Vec<Fingerprint>)>> = None;
        // The accesses of the execution's events (no locals: what the redundancy
        // check reads of a step), built once per execution as far as a race needs.
        let mut steps: Vec<Entry> = Vec::new();
        for mut reversal in
            crate::dependency::observers::reversals(events, hb, &self.guarded, end, later)
        {
            run.stats.pruning.races += 1;
            // Only a reversible race is reversed (`e ≲ e'`, ISSTA Sec. 2.1): an
            // `await` that cannot run first is handled as the incremental analysis
            // handles it, over →ob.
            // Unlike odpor's, the climb stays: the races of real `await` events are
            // analysed here, at the end, where `pass_disabling_writes` asks for them
            // only since stop 35 (`Dpor::observed_races`; without the climb,
            // odpor-ob explored 11 of dining(4)'s 14 traces before that).
            let replayed = &mut run.stats.pruning.replayed_events;
            let how = await_race(
                &run.ex,
                hb,
                (reversal.e, reversal.later),
                true,
                None,
                replayed,
            );
            if how == AwaitRace::InVain {
                run.stats.pruning.irreversible_races += 1;
                continue;
            }
            let climb = how == AwaitRace::Climb;
            if climb {
                // The branch ends at the step that cannot run (see `AwaitRace::Climb`).
                reversal.v.truncate(
                    reversal
                        .v
                        .iter()
                        .position(|&i| i == reversal.later)
                        .map_or(0, |k| k + 1),
                );
            }
            let needed = reversal.v.iter().max().map_or(0, |&i| i + 1);
            for i in steps.len()..needed.max(reversal.e) {
                steps.push(entry_accesses(&run.ex, i, false));
            }
            // The steps as inserted, their blocks and locals added once they are: an
            // `await` that cannot run there, or an unrun step, with its whole block; a
            // last step that may read other values there (`Reversal::rereads`), whose
            // writes are not known, overwriting nothing for the weak initials.
            let last_k = reversal.v.len() - 1;
            let own: Vec<(usize, Entry)> = (reversal.v.iter().enumerate())
                .filter_map(|(k, &i)| {
                    let whole = (climb || unrun(i)) && i == reversal.later;
                    let unknown = reversal.rereads && k == last_k;
                    (whole || unknown).then(|| {
                        let mut step = entry_accesses(&run.ex, i, whole);
                        if unknown {
                            step.written.clear();
                        }
                        (k, step)
                    })
                })
                .collect();
            let v: Vec<&Entry> = (reversal.v.iter().enumerate())
                .map(|(k, &i)| {
                    own.iter()
                        .find(|(j, _)| *j == k)
                        .map_or(&steps[i], |(_, s)| s)
                })
                .collect();
            // Fig. 1, line 9: not when a process done at a prefix of E' comes first. A
            // step that ran there and was blocked at a covered state is not done:
            // nothing below it was explored (as for the wakeup insertion's sleep
            // sets, `block_after_equivalent`); over `→ob` it may come first where it
            // never did over plain happens-before (odpor-cs-ob lost a final state so:
            // `regressions::odpor_cs_ob_a_blocked_step_is_not_done`). A step whose
            // own executions below were blocked counts as done, as in odpor-cs (the
            // node where they were blocked went on with fresh processes).
            let done = done.get_or_insert_with(|| self.done(run, len));
            let done = trusted(&done[..=reversal.e], owed, reversal.e);
            let redundant = self.redundant(&done, &steps, &v);
            if redundant {
                run.stats.pruning.redundant_races += 1;
                continue;
            }
            let entries: Vec<Entry> = (v.into_iter().zip(&reversal.v))
                .map(|(step, &i)| Entry {
                    event: entry_event(&run.ex, i),
                    ..step.clone()
                })
                .collect();
            // ISSTA Alg. 2, lines 79–81: a don't-do sequence joins dnd(E') only with a
            // wakeup sequence that is not redundant.
            let race_write = (last == Last::Probe).then(|| entry(&run.ex, reversal.e, false));
            // No state follows an unrun event.
            let after_unrun = unrun(reversal.later);
            let joined = self.insert_wakeup(run, reversal.e, entries, race_write.as_ref());
            if joined == Insertion::Joined && !after_unrun {
                self.dont_do_after_observed_race(run, hb, &reversal);
            }
        }
    }

    /// Fig. 1, line 9's `done` of the prefixes of the current path up to length
    /// `len`: per node, the processes (by identity) whose subtrees from it were
    /// explored (see `observed_races_up_to` for which count).
    fn done(&self, run: &Exploration<'_, '_>, len: usize) -> Vec<(usize, Vec<Fingerprint>)> {
        let procs = &run.ex.state.procs;
        let nodes = self.nodes.iter().take(len).enumerate();
        nodes
            .map(|(w, node)| {
                let keys = node.backtrack.iter().filter_map(|&p| {
                    let key = procs.get(p)?.pid_key;
                    let explored = Some(p) != node.current
                        && !node.blocked_steps.contains(&key)
                        && !node.delegated.contains(&key);
                    explored.then_some(key)
                });
                (w, keys.collect())
            })
            .collect()
    }

    /// Fig. 1, line 9: whether the sequence `v` is redundant at the node `done.len() -
    /// 1`, whose prefix's steps are `steps` (at least up to that node), given `done`
    /// ([`Dpor::done`]) of the prefixes up to it ([`crate::dependency::observers::redundant`]).
    fn redundant(&self, done: &[(usize, Vec<Fingerprint>)], steps: &[Entry], v: &[&Entry]) -> bool {
        let at = done.len() - 1;
        done.iter()
            .position(|(_, p)| !p.is_empty())
            .is_some_and(|from| {
                crate::dependency::observers::redundant(
                    &steps[from..at],
                    from,
                    v,
                    done,
                    &self.guarded,
                    &self.every_global,
                )
            })
    }

    /// ISSTA Alg. 2, lines 75–78 (`odpor-cs-ob`): the context-sensitive check of a race
    /// `e ⋖ e'` found once the execution ended, over `→ob` (`hb`). The race is
    /// presented to [`Reduction::sleep_after_race`] as the incremental analysis
    /// presents it when `e'` has just run: the execution `pre⁺(E, e')` and its state
    /// (the snapshot after `e'`). Whatever the order `→ob` gives the sequence, the
    /// check is one of state identity, done lazily: an execution that follows the
    /// don't-do sequence is blocked only where it reaches `s[pre⁺(E, e')]`, a state
    /// whose continuations were explored from `E` (odpor-cs's note 2).
    fn dont_do_after_observed_race(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        reversal: &crate::dependency::observers::Reversal,
    ) {
        if !self.reduction.snapshots() {
            return;
        }
        let (e, later) = (reversal.e, reversal.later);
        let view = (hb, &self.snapshots[..], &self.nodes[e], self.end_reads);
        let reduction = &mut self.reduction;
        // Lines 69–74, through the last observer, first.
        let modulo_observers = reversal.observers.last().and_then(|&o| {
            let observed = (later, &reversal.observers[..]);
            let reached = std::cell::OnceCell::new();
            race_at(run, view, (e, o), &reached, |r| {
                reduction.sleep_after_observed_race(r, observed)
            })
        });
        let dont = if modulo_observers.is_some() {
            run.stats.pruning.sleep_added_modulo_observers += 1;
            modulo_observers
        } else {
            let reached = std::cell::OnceCell::new();
            race_at(run, view, (e, later), &reached, |r| {
                reduction.sleep_after_race(r)
            })
        };
        add_dont_do(&mut self.nodes[e].sleep, dont);
    }
}

/// What `ask` makes of the race of event `e` with event `n` of the current execution,
/// presented as [`race_view`] presents it, with the snapshot after `n` (or the current
/// state, when `n` is the newest event), the node `prefix` before `e`, and `reached`
/// (shared by the races of one `n`).
fn race_at<'p>(
    run: &mut Exploration<'p, '_>,
    (hb, snapshots, prefix, end_reads): (&HappensBefore, &[State], &Node, bool),
    (e, n): (usize, usize),
    reached: &std::cell::OnceCell<Fingerprint>,
    ask: impl FnOnce(&mut Race<'_, 'p>) -> Option<Equivalent>,
) -> Option<Equivalent> {
    let len = run.ex.events().len();
    let state = snapshots.get(n + 1).filter(|_| n + 1 < len);
    let at = (e, n, state);
    let mut race = race_view(run, hb, snapshots, prefix, at, (reached, end_reads));
    ask(&mut race)
}

/// Whether the race of `e` with event `n` (an `await` block or the probe of a
/// disabled one; the newest event, or for `odpor-ob` any of a whole execution) is
/// reversible: `n` can run in `s[E'.notdep(e, E)]`.
/// When it cannot (`e ⋖ n` of CSDPOR Sec. 3 and CDPOR line 6 does not hold), the
/// race adds nothing ([`AwaitRace::InVain`]) unless a probe could use the
/// backtrack point ([`AwaitRace::Climb`]) — where the search `climbs`.
///
/// Following such a race anyway is not only waste: its initial may be an earlier
/// step of `n`'s process, which brings the process to its guard earlier, where a
/// probe races with an *earlier* event that falsified the guard — the only way the
/// search climbs past several falsifying writes
/// (`regressions::irreversible_await_race_still_climbs`,
/// `regressions::probe_two_falsifying_writes`); and its initial may be an event of
/// another process that wrote what the guard reads, after which the process waits
/// at the guard in a state not yet probed
/// (`regressions::sdpor_climbs_when_notdep_writes_what_the_guard_reads`). So the
/// race is skipped only when neither can happen: no event of another process in
/// `notdep(e, E)` wrote what the guard reads, and every earlier step of the
/// process, and the event that created it, is in `E'` (it already waited at this
/// guard there, and was probed there; a process whose creator ran after `e` had
/// not: sdpor missed 2 of 4 traces so,
/// `regressions::sdpor_climbs_with_the_creator_of_an_await`), or no event of
/// another process before `e` wrote what the guard reads (a probe would have
/// nothing to race with). Checked by the differential campaign; not a theorem of
/// the papers.
///
/// odpor, odpor-cs and ocdpor do not climb: an `await` event that runs asks there to run
/// before each earlier write that disabled it, with the process's earlier steps
/// that do not depend on the write in `notdep` ([`Dpor::pass_disabling_writes`]),
/// which is what the probe at the end of the climb asked. The climb only added an
/// execution blocked at that guard: odpor ended 151 of its executions on dining(8)
/// blocked with it, 32 without, the same 254 complete.
///
/// Where the memory of `s[E'.notdep(e, E)]` cannot be read off the undo log, a search
/// that does not climb and keeps the snapshot `prefix` of `s[E']` judges the guard by
/// replaying `notdep` ([`memory_after`]). Taking such a race as reversible made ocdpor
/// follow a sequence whose `await` could not run, and end it blocked
/// (`regressions::ocdpor_replays_notdep_where_r_hides_the_memory_of_an_await_race`).
fn await_race(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    (e, n): (usize, usize),
    climbs: bool,
    prefix: Option<&State>,
    replayed: &mut u64,
) -> AwaitRace {
    let events = &ex.events()[..=n];
    let (proc, block) = (events[n].proc, events[n].block);
    if ex.program().blocks[block as usize].guard.is_none() {
        return AwaitRace::Reversible;
    }
    let v = races::notdep(events, hb, e);
    let Some(mem) = virtual_memory(ex, hb, e, &v) else {
        let prefix = prefix.filter(|_| !climbs);
        let replayed = prefix.and_then(|state| replayed_memory(ex, state, n, &v, replayed));
        return match replayed.map(|(mem, locals)| ex.machine.enabled(block, &mem, &locals)) {
            Some(Ok(false)) => AwaitRace::InVain,
            _ => AwaitRace::Reversible,
        };
    };
    let locals = ex.entry_locals(n);
    if ex.machine.enabled(block, &mem, locals) != Ok(false) {
        return AwaitRace::Reversible;
    }
    if !climbs {
        return AwaitRace::InVain;
    }
    // What the guard may read in any state, not what it read in `mem`: a guard that
    // short-circuits there (`f[0] && f[1]` with f[0] false) still waits for the
    // other locations, and a write of one of them in `notdep` is the one that lets
    // the process pass earlier. With the reads of `mem` alone, sdpor, csdpor and
    // cdpor missed the class (and the assertion) where `await (f[0] && f[1])` passes
    // between two writes of f[0] by one process, after f[1]'s writer
    // (`regressions::sdpor_climbs_past_a_short_circuit_guard`). That is a probe's
    // footprint ([`Executor::guard_reads`]).
    let guard = Footprint {
        reads: ex.guard_reads(block, locals),
        writes: Vec::new(),
    };
    let other = |i: usize| events[i].proc != proc && events[i].footprint.conflicts(&guard);
    // An event of another process in `notdep(e, E)` wrote what the guard reads:
    // running it before `e` shows the process blocked at this guard in a state the
    // search has not probed, whose probe races with the earlier events that
    // falsified the guard with that event in its `notdep` — an initial the probe
    // at the guard's first falsification did not have (sdpor missed 2 of 74 traces
    // of two `await (y != x)` q's, an `x = 1` and two writes of `y` so:
    // `regressions::sdpor_climbs_when_notdep_writes_what_the_guard_reads`). Also
    // for odpor-ob's races found at the end (`Dpor::observed_races_up_to` climbs).
    if v.iter().any(|&i| other(i)) {
        return AwaitRace::Climb;
    }
    if !v.iter().any(|&i| events[i].precedes_in_program(&events[n])) {
        return AwaitRace::InVain;
    }
    // An earlier step of the process (or the event that created it) runs after `e`:
    // bringing it forward brings the process to this guard earlier, where a probe
    // races with the events of
    // other processes that wrote what the guard reads. With no such event before
    // `e`, there is nothing for that probe to race with (its own process's writes
    // are in program order before it, never in a race).
    if (0..e).any(other) {
        AwaitRace::Climb
    } else {
        AwaitRace::InVain
    }
}

/// The memory of `s[E'.w]` and event `n`'s locals there: read off the undo log where
/// that is exact ([`virtual_memory`], with `n`'s locals), else replayed from
/// `prefix`, a snapshot of `s[E']`, when there is one ([`replayed_memory`]).
fn memory_after(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    (e, n): (usize, usize),
    w: &[usize],
    prefix: Option<&State>,
    replayed: &mut u64,
) -> Option<(Memory, Vec<Value>)> {
    match virtual_memory(ex, hb, e, w) {
        Some(mem) => Some((mem, ex.entry_locals(n).to_vec())),
        None => replayed_memory(ex, prefix?, n, w, replayed),
    }
}

/// The memory and event `n`'s locals after the events `w` replayed from `state` (each
/// step counted in `replayed`): `None` when `w` cannot run there or leaves `n`'s
/// process at another block.
fn replayed_memory(
    ex: &Executor<'_>,
    state: &State,
    n: usize,
    w: &[usize],
    replayed: &mut u64,
) -> Option<(Memory, Vec<Value>)> {
    let (events, procs) = (ex.events(), &ex.state.procs);
    let keys: Vec<Fingerprint> = w.iter().map(|&i| procs[events[i].proc].pid_key).collect();
    let (after, _) = run_from(ex, state, &keys, replayed)?;
    let (key, block) = (procs[events[n].proc].pid_key, events[n].block);
    let q = after.procs.into_iter().find(|q| q.pid_key == key)?;
    (q.next == Some(block)).then_some((after.mem, q.locals))
}

impl<R: Reduction> Dpor<R> {
    /// Whether node `d`'s wakeup tree has a branch to follow: its leftmost steps whose
    /// process cannot run here (disabled, or asleep) are dropped first. Optimal-DPOR
    /// never meets one; with `await`s, a sequence judged runnable on a memory that
    /// is not exact ([`virtual_memory`]) may end in a step that cannot run, and the
    /// node then goes on as Source-DPOR would.
    ///
    /// What the tree holds below a dropped step is not dropped with it: the
    /// sequences there were merged below it because it was a weak initial of them
    /// (commuting with their first steps), not because they need it, and they join
    /// the tree again without it, through the usual redundancy checks. Dropping them
    /// lost a reads-from class of odpor-ob: p@4.p@1 went below q's `await`, which
    /// could not run there (`regressions::odpor_ob_keeps_what_a_dropped_step_held`).
    fn runnable_branch(&mut self, run: &mut Exploration<'_, '_>, d: usize) -> bool {
        loop {
            let node = &self.nodes[d];
            let Some(entry) = node.wut.first() else {
                return false;
            };
            let p = run
                .ex
                .state
                .procs
                .iter()
                .position(|q| q.pid_key == entry.process);
            if p.is_some_and(|p| node.enabled.contains(&p) && !self.asleep(run, node, p)) {
                return true;
            }
            let dropped = self.nodes[d].wut.take_first().unwrap_or_default();
            self.wakeup_steps -= 1 + dropped.size();
            run.stats.pruning.wakeup_dropped += 1;
            for v in dropped.sequences() {
                self.insert_wakeup(run, d, v, None);
            }
        }
    }

    /// Process `p`'s next step as a wakeup-tree entry.
    fn next_step(&self, run: &Exploration<'_, '_>, p: usize) -> Entry {
        let proc = &run.ex.state.procs[p];
        Entry {
            process: proc.pid_key,
            footprint: proc
                .next
                .map(|b| run.ex.transition(b, &proc.locals))
                .unwrap_or_default(),
            spawns: Vec::new(),
            event: proc.next.map(|b| (b, proc.locals.clone())),
            written: Vec::new(),
        }
    }

    /// Processes blocked on an `await` take part in races too: the event that made
    /// the guard false must be reversed so that the process may run before it. For
    /// each disabled process whose guard reads what the newest event wrote, or which
    /// has just reached its blocked block, a probe event (the guard's reads) is
    /// analysed like a real one, then stepped back.
    fn probe_disabled(&mut self, run: &mut Exploration<'_, '_>) {
        let newest = run.ex.events().len() - 1;
        for r in 0..run.ex.state.procs.len() {
            if run.ex.state.procs[r].next.is_none() || self.enabled.contains(&r) {
                continue;
            }
            run.ex.probe(r);
            let events = run.ex.events();
            let (last, probe) = (&events[newest], &events[newest + 1]);
            // Its races changed if the newest event wrote what the guard reads, or if
            // the process just arrived at this block (ran it, or was spawned at it).
            // They are also analysed again after an event the whole block conflicts
            // with: reversing the race that disabled it now needs that event first
            // (it joins `notdep`, and runs before the block).
            let arrived = last.proc == r || (last.spawned.0..last.spawned.1).contains(&r);
            if arrived
                || last.conflicts(probe)
                || run
                    .ex
                    .with_event_transition(newest + 1, |whole| last.footprint.conflicts(whole))
            {
                run.stats.pruning.probes += 1;
                self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
                self.analyse_races(run, false);
                self.pass_disabling_writes(run);
                self.hb.pop();
            }
            run.ex.back();
        }
    }
}

/// The race of event `e` with event `n` (`at = (e, n, state)`) as a [`Race`]: the
/// execution up to `n`, the node `prefix` before `e`, and the state after `n` (the
/// current one unless given: a snapshot, when `n` is not the newest event).
fn race_view<'a, 'p>(
    run: &'a mut Exploration<'p, '_>,
    hb: &'a HappensBefore,
    snapshots: &'a [State],
    prefix: &'a Node,
    (e, n, state): (usize, usize, Option<&'a State>),
    (reached, end_reads): (&'a std::cell::OnceCell<Fingerprint>, bool),
) -> Race<'a, 'p> {
    let Exploration {
        ex, stats, config, ..
    } = run;
    Race {
        program: ex.program(),
        ex,
        events: &ex.events()[..=n],
        hb,
        e,
        state: state.unwrap_or(&ex.state),
        snapshots,
        sleep: &prefix.sleep,
        prefix_enabled: &prefix.enabled,
        stats,
        max_depth: config.max_depth,
        reached,
        end_reads,
    }
}

/// Source-DPOR (Alg. 1, line 10): unless an initial of `v` (event indices of the
/// current execution; `last`: the footprint its last event has when it runs, for a
/// probe) is in `backtrack(E')` already, one that is enabled at `E'` joins it. If
/// none is enabled, `v` cannot run there and nothing is added.
fn add_initial(
    run: &mut Exploration<'_, '_>,
    hb: &HappensBefore,
    prefix: &mut Node,
    guided: bool,
    v: &[usize],
    last: Option<&Footprint>,
) {
    let initials = races::initials(run.ex.events(), hb, v, last);
    if initials.iter().any(|q| prefix.backtrack.contains(q)) {
        return;
    }
    let candidates: Vec<usize> = initials
        .into_iter()
        .filter(|q| prefix.enabled.contains(q))
        .collect();
    if let Some(q) = choose(guided, &run.ex.state, &prefix.sleep, &candidates) {
        prefix.backtrack.push(q);
        run.stats.pruning.backtrack_added += 1;
    }
}

/// Whether `→ob` of `events`, the end observing `end`, may leave unordered a pair
/// of writes before the last event `n` (a process's future) that plain
/// happens-before orders, so that a race of `n` hides behind it: a location `l`
/// whose last write before `n` is blind (its event does not read `l`) and read by
/// nothing after it, with an earlier blind write of `l`, where `n` surely
/// overwrites `l` or the end does not read it. (A pair unobserved because a later
/// event of the prefix overwrites it is left unordered in the blocked execution's
/// own `→ob` too; its races with `n` are left to the plain ones, as before.) A cheap
/// test that spares [`Dpor::future_observed_races`] computing `→ob` where it
/// cannot find one (DBP(8): 2.2 s without it, 1.3 s before that function).
fn may_leave_a_write_unobserved(events: &[Event], end: &[bool]) -> bool {
    let Some((n, prefix)) = events.split_last() else {
        return false;
    };
    let blind = |e: &Event, l: Loc| {
        l.elem != WHOLE
            && intersects(&e.footprint.writes, &[l])
            && !intersects(&e.footprint.reads, &[l])
    };
    let last_blind_unread = |l: Loc| {
        let Some(j) = prefix
            .iter()
            .rposition(|e| intersects(&e.footprint.writes, &[l]))
        else {
            return false;
        };
        blind(&prefix[j], l)
            && !prefix[j + 1..]
                .iter()
                .any(|e| intersects(&e.footprint.reads, &[l]))
            && prefix[..j].iter().any(|e| blind(e, l))
    };
    // Each location once: a prefix writes the same ones again and again.
    let mut locations: Vec<Loc> = n.written.clone();
    let unread_at_end = |l: &&Loc| !end[l.global as usize];
    locations.extend(
        prefix
            .iter()
            .flat_map(|e| e.footprint.writes.iter().filter(unread_at_end)),
    );
    locations.sort_unstable();
    locations.dedup();
    locations.into_iter().any(last_blind_unread)
}

/// The live processes whose futures [`Dpor::future_races`] analyses at a block by
/// process `x`, each with its future's footprint: `x`'s, and with `chase` (the
/// block's partners, and per global whether a write of it may be observed after the
/// block), the partners' (and those they spawned) and, transitively, each whose
/// future may conflict with an event of one of them or with its future — what may
/// happen after a partner in the covering executions. Two writes conflict only on
/// a global `observed` marks (with observers, one a live process or the end may
/// read): under `→ob` nothing orders writes no read sees. `x`'s own events start no
/// chain: a race `g ⋖ f` hidden in the covering executions has a partner between
/// `g` and `f` there; if `g` is a partner's, `f` conflicts with it and is chained;
/// if `g` is `x`'s, the chain from it to `f` runs through a partner, whose events
/// and future are scanned.
fn chained(
    ex: &Executor<'_>,
    futures: &Futures,
    x: usize,
    chase: Option<(&[Fingerprint], &[bool])>,
) -> Vec<(usize, Footprint)> {
    let procs = &ex.state.procs;
    let live = |r: usize| procs[r].next.is_some();
    let mut out: Vec<(usize, Footprint)> = Vec::new();
    if live(x) {
        out.push((x, futures.of_process(ex, x)));
    }
    let Some((partners, observed)) = chase.filter(|(partners, _)| !partners.is_empty()) else {
        return out;
    };
    let future: Vec<Option<Footprint>> = (0..procs.len())
        .map(|r| (r != x && live(r)).then(|| futures.of_process(ex, r)))
        .collect();
    let mut chained = vec![false; procs.len()];
    let mut todo: Vec<usize> = (0..procs.len())
        .filter(|&r| r != x && partners.contains(&procs[r].pid_key))
        .collect();
    for &c in &todo {
        chained[c] = true;
    }
    while let Some(c) = todo.pop() {
        let mine: Vec<&Event> = ex.events().iter().filter(|e| e.proc == c).collect();
        for (r, theirs) in future.iter().enumerate() {
            let Some(theirs) = theirs.as_ref().filter(|_| !chained[r]) else {
                continue;
            };
            let after = mine.iter().any(|e| {
                (e.spawned.0..e.spawned.1).contains(&r)
                    || e.footprint.conflicts_observed(theirs, observed)
            }) || future[c]
                .as_ref()
                .is_some_and(|f| f.conflicts_observed(theirs, observed));
            if after {
                chained[r] = true;
                todo.push(r);
            }
        }
        if let Some(f) = &future[c] {
            out.push((c, f.clone()));
        }
    }
    out
}

/// Adds what [`Reduction::sleep_after_race`] returned to `sleep(E')`.
fn add_dont_do(sleep: &mut SleepSet, dont: Option<Equivalent>) {
    match dont {
        Some(Equivalent::Proved(steps)) => sleep.insert_equivalent(steps, &[]),
        Some(Equivalent::IfReaching(steps, state)) => sleep.insert_if_reaching(steps, state),
        None => {}
    }
}

/// Event `i` of the current execution as a wakeup-tree entry; `whole`: with its
/// block's transition footprint (a probe, or an `await` that cannot run where the
/// sequence puts it), not what it touched.
fn entry(ex: &Executor<'_>, i: usize, whole: bool) -> Entry {
    Entry {
        event: entry_event(ex, i),
        ..entry_accesses(ex, i, whole)
    }
}

/// Where process `x`'s next step may lead ([`frontend::may_touch::successors`]), when
/// it spawns nothing and surely leaves no process at an `await` whose probe may race
/// with `E` ([`leaves_a_raced_waiter`]; `None` otherwise). Only such a step confirmed
/// in `dnd(E)` is settled unrun in an optimal search ([`Dpor::settle_blocked`]): run,
/// it would end an execution where each process blocked at an `await` is probed, and
/// its probe asks to pass the writes of `E` that disabled it; unrun, the processes
/// the step would leave at an `await` are not probed. A step that spawns runs too:
/// settling takes its process as ended where the step ends it, which a spawn would
/// not leave the end's reads as they are ([`settled_end_reads`]). csdpor's and
/// cdpor's `settle_covered` run a covered step by [`leaves_a_raced_waiter`] alone.
fn settled_successors(ex: &Executor<'_>, x: usize, guards: &[Vec<GlobalId>]) -> Option<Successors> {
    let after = successors(ex, x)?;
    (after.spawns.is_empty() && !leaves_a_raced_waiter(ex, x, &after, guards)).then_some(after)
}

/// [`frontend::may_touch::successors`] of process `x`'s next step.
fn successors(ex: &Executor<'_>, x: usize) -> Option<Successors> {
    let p = &ex.state.procs[x];
    frontend::may_touch::successors(&ex.machine, &ex.state.mem, p.next?, &p.locals)
}

/// Whether `after`, where process `x`'s next step may lead, may leave a process at
/// an `await` (its own, or one it spawns) whose guard reads a global that an event of
/// `E` by another process may have written: the probe of that process right after
/// the step may race with that write, and ask to pass it ([`Dpor::probe_disabled`],
/// [`Dpor::pass_disabling_writes`]; a probe writes nothing, and the events of `x`'s
/// process, or of `x`'s creators, happen before it). Where none can, running the
/// step adds no such probe to what settling it analyses ([`Dpor::settle`]); where one
/// can, settling would miss its races. Guards are read as whole globals (`guards`:
/// per block, the globals its guard reads, [`Dpor::guards`]), which covers the
/// elements a guard reads through locals.
fn leaves_a_raced_waiter(
    ex: &Executor<'_>,
    x: usize,
    after: &Successors,
    guards: &[Vec<GlobalId>],
) -> bool {
    let program = ex.program();
    let entries = after
        .spawns
        .iter()
        .map(|(proc, _)| program.procs[*proc as usize].entry);
    let guard: Vec<GlobalId> = (after.next.iter().map(|(b, _)| *b).chain(entries))
        .flat_map(|b| guards[b as usize].iter().copied())
        .collect();
    !guard.is_empty()
        && ex
            .events()
            .iter()
            .any(|e| e.proc != x && e.footprint.writes.iter().any(|l| guard.contains(&l.global)))
}

/// Whether process `r` waits at an `await` whose guard reads what `step` may write
/// (a step that may disable it).
fn guard_reads_written(ex: &Executor<'_>, r: usize, step: &Footprint) -> bool {
    let process = &ex.state.procs[r];
    let Some(block) = process.next.filter(|&block| waits(ex.program(), block)) else {
        return false;
    };
    intersects(&step.writes, &ex.guard_reads(block, &process.locals))
}

/// What the end of an execution blocked right after process `x`'s next step reads,
/// the step not run ([`Dpor::settle_observed`]): [`crate::dependency::observers::end_reads`] of
/// `s[E]`, without `x`'s process where that step ends it on every path (`ends`, from
/// [`settled_successors`]: such a step spawns nothing). (With `x`'s
/// process live, an assertion settled as the last step of its process read what it
/// asserts on at the end: FR-a's reader made every reversal of two writes observed by
/// the end, and the `--violations-only` search of `observers::an_overwrite_to_come_makes_the_raced_value_dead`
/// completed 2 executions instead of 1.)
fn settled_end_reads(ex: &Executor<'_>, x: usize, violations_only: bool, ends: bool) -> Vec<bool> {
    let (program, state) = (ex.program(), &ex.state);
    if violations_only && ends {
        state.may_read_but(program, x)
    } else {
        crate::dependency::observers::end_reads(program, state, violations_only, false)
    }
}

/// A process done at node `node` of the path whose first event after it, `first`,
/// comes first there in the execution being analysed ([`Dpor::owed_elsewhere`]).
struct Owed {
    node: usize,
    process: Fingerprint,
    first: usize,
}

/// Fig. 1, line 9's `done` for a reversal at node `e` (`done` of the prefixes up to
/// it): without the processes `owed` whose first event is at or before `e`, at the
/// node where they were done ([`Dpor::owed_elsewhere`]). Only for the races from
/// that event on: leaving `d` out for every race of the execution missed no class
/// either in the campaign that measured both (3,000 generated programs), and
/// explored more (1.28 times the complete executions of before, against 1.25).
fn trusted<'a>(
    done: &'a [(usize, Vec<Fingerprint>)],
    owed: &[Owed],
    e: usize,
) -> Cow<'a, [(usize, Vec<Fingerprint>)]> {
    // `first` is at or after `node`: `done[o.node]` is in the slice.
    let mut applying = owed.iter().filter(|o| o.first <= e).peekable();
    if applying.peek().is_none() {
        return Cow::Borrowed(done);
    }
    let mut done = done.to_vec();
    for o in applying {
        done[o.node].1.retain(|&p| p != o.process);
    }
    Cow::Owned(done)
}

/// The last event of an execution whose races [`Dpor::observed_races_up_to`]
/// analyses at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// An event that ran.
    Ran,
    /// The probe of a blocked process: only its races are analysed (the others were,
    /// without it).
    Probe,
    /// A step confirmed in `dnd(E)`, not run ([`Dpor::settle_observed`]).
    Settled,
}

/// The block that `process` runs next after the first `e` events of the current
/// execution: its first event from there on, or, when it has none, the block it
/// waits at in the end (`None` when it has none: it ended).
fn next_block(ex: &Executor<'_>, e: usize, process: Fingerprint) -> Option<BlockId> {
    let procs = &ex.state.procs;
    let ran = ex.events()[e..]
        .iter()
        .find(|event| procs[event.proc].pid_key == process);
    match ran {
        Some(event) => Some(event.block),
        None => procs.iter().find(|q| q.pid_key == process)?.next,
    }
}

/// The step of event `i` as [`entry`] makes it, without its block and locals: what
/// the accesses of a sequence are judged on (observers, footprints).
fn entry_accesses(ex: &Executor<'_>, i: usize, whole: bool) -> Entry {
    let event = &ex.events()[i];
    let procs = &ex.state.procs;
    // Where a whole block stands for the event, it did not run there.
    Entry {
        process: procs[event.proc].pid_key,
        footprint: if whole {
            ex.event_transition(i)
        } else {
            event.footprint.clone()
        },
        spawns: (event.spawned.0..event.spawned.1)
            .map(|k| procs[k].pid_key)
            .collect(),
        event: None,
        written: if whole {
            Vec::new()
        } else {
            event.written.clone()
        },
    }
}

/// The block and locals of event `i`'s step, for [`entry`]; none for a failed event
/// (or a probe), which commutes by no constraint.
fn entry_event(ex: &Executor<'_>, i: usize) -> Option<(BlockId, Vec<Value>)> {
    let event = &ex.events()[i];
    (!event.failed).then(|| (event.block, ex.entry_locals(i).to_vec()))
}

/// Whether `block` starts with an `await`: a process there may be disabled (see
/// [`crate::dpor::wakeup_tree::WeakInitial`]).
fn waits(program: &Program, block: BlockId) -> bool {
    program.blocks[block as usize].guard.is_some()
}

/// What [`Dpor::insert_wakeup`] made of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Insertion {
    /// It joined the wakeup tree.
    Joined,
    /// Redundant there.
    Redundant,
    /// Covered only by a process asleep beside it ([`Cover::Beside`]), which a longer
    /// reversal of the same race may not be ([`Dpor::recheck_beside`]).
    Beside,
}

/// Whether leaving out some of `rewriters` (and what happens after them) from `v` may
/// change what a guard reads (`reads`, after the whole of `v`; `None`: unknown): an
/// event of `v` that can be left out may write there.
fn leaving_out_matters(
    events: &[Event],
    hb: &HappensBefore,
    rewriters: &[usize],
    v: &[usize],
    reads: Option<&[Loc]>,
) -> bool {
    let Some(reads) = reads else {
        return true;
    };
    v.iter().any(|&j| {
        let leavable = rewriters.contains(&j) || rewriters.iter().any(|&r| hb.before(events, r, j));
        leavable && intersects(&events[j].footprint.writes, reads)
    })
}

/// Whether process `i`'s step is confirmed in `dnd(E)` at `node`: it blocks whenever
/// it runs there (`Ending::Blocks`).
fn blocks_here(run: &Exploration<'_, '_>, node: &Node, i: usize) -> bool {
    node.sleep.ends(run.ex.state.procs[i].pid_key).always
}

impl<R: Reduction> Algorithm for Dpor<R> {
    fn name(&self) -> &'static str {
        self.reduction.name()
    }

    fn observes_the_end(&self) -> bool {
        self.reduction.observers()
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        self.depth = 0;
        self.guards = frontend::write_sets::write_sets(run.program())
            .into_iter()
            .map(|sets| sets.guard_reads.into_iter().collect())
            .collect();
        if self.reduction.observers() {
            let globals = run.program().globals.len();
            self.guarded = crate::dependency::observers::guarded(globals, &self.guards);
            self.every_global = vec![true; globals];
        }
        self.end_reads = !(run.config.violations_only && self.observes_the_end());
        run.ex.enabled(&mut self.enabled);
        self.wakeup_steps = 0;
        self.open(run, None, WakeupTree::default());
        let mut child_sleep = SleepSet::default();
        let optimal = self.reduction.optimal();
        let mut child_wut = WakeupTree::default();
        loop {
            if run.stopped() {
                // The tree shows the sets of the unfinished nodes as they are now.
                for (d, node) in self.nodes[..=self.depth].iter().enumerate() {
                    run.annotate(d, &node.sleep, &node.backtrack);
                }
                break;
            }
            let d = self.depth;
            if !self.nodes[d].started {
                self.nodes[d].started = true;
                if self.nodes[d].enabled.is_empty() {
                    self.measure_path(run);
                    run.complete_execution();
                    self.recheck_beside(run);
                    self.observed_races(run, true);
                    if !self.close(run) {
                        break;
                    }
                    continue;
                }
                if !optimal {
                    self.settle_covered(run, d);
                    if run.stopped() {
                        continue;
                    }
                }
                // Optimal-DPOR: an inherited branch is followed (what cannot run of it
                // is dropped first); only an empty tree needs the choice of line 3.
                if optimal && self.runnable_branch(run, d) {
                    continue;
                }
                let node = &self.nodes[d];
                // Alg. 1, lines 1–3: an enabled process not asleep starts backtrack(E).
                // The probes of `settle_covered` may have put one there already (a
                // race with the covered step): that one is the choice.
                let awake = self.awake(run, node);
                let chosen = node
                    .backtrack
                    .iter()
                    .copied()
                    .find(|&i| node.enabled.contains(&i) && !self.asleep(run, node, i));
                let cut = self.reduction.cut(
                    run.program(),
                    &run.ex.state,
                    &node.enabled,
                    &node.sleep,
                    run.ex.events(),
                );
                match chosen.or_else(|| self.choose(run, node, &awake)) {
                    Some(p) if !cut && optimal => self.choose_fresh(run, d, p),
                    Some(p) if !cut => {
                        if !self.nodes[d].backtrack.contains(&p) {
                            self.nodes[d].backtrack.push(p);
                        }
                    }
                    chosen => {
                        self.measure_path(run);
                        run.blocked(match chosen {
                            Some(_) => Blocked::Cut,
                            None => Blocked::Asleep,
                        });
                        run.stats.pruning.cuts += u64::from(cut);
                        self.recheck_beside(run);
                        self.observed_races(run, false);
                        if !self.close(run) {
                            break;
                        }
                        continue;
                    }
                }
            }
            // Line 4: some p ∈ backtrack(E) \ sleep(E); Optimal-DPOR: the leftmost
            // branch of wut(E), whose subtree the child inherits.
            let chosen = if optimal {
                self.runnable_branch(run, d)
                    .then(|| {
                        let node = &mut self.nodes[d];
                        let key = node.wut.first().map(|entry| entry.process);
                        let p = run
                            .ex
                            .state
                            .procs
                            .iter()
                            .position(|q| Some(q.pid_key) == key);
                        child_wut = node.wut.take_first().unwrap_or_default();
                        self.wakeup_steps -= 1;
                        // The backtrack set of an optimal node is only shown (`--tree`):
                        // the processes explored from it.
                        node.backtrack.extend(p);
                        p
                    })
                    .flatten()
            } else {
                let node = &self.nodes[d];
                let pending: Vec<usize> = node
                    .backtrack
                    .iter()
                    .copied()
                    .filter(|&i| node.enabled.contains(&i) && !self.asleep(run, node, i))
                    .collect();
                self.choose(run, node, &pending)
            };
            let Some(p) = chosen else {
                let blocked_step = !self.nodes[d].blocked_steps.is_empty();
                if optimal && blocked_step && self.choose_after_blocked(run, d) {
                    continue;
                }
                if !self.close(run) {
                    break;
                }
                continue;
            };
            self.nodes[d].current = Some(p);
            let p_key = run.ex.state.procs[p].pid_key;
            let ends = self.nodes[d].sleep.ends(p_key);
            let settled = (optimal && ends.always && self.reduction.settles_dont_do())
                .then(|| settled_successors(&run.ex, p, &self.guards))
                .flatten();
            if let Some(after) = settled {
                // ODPOR_cs Alg. 1, lines 25–26: a step confirmed in dnd(E) is run for
                // its races and its branch removed; they are analysed without running
                // it, as csdpor settles a covered step (`Dpor::settle_blocked`).
                self.wakeup_steps -= child_wut.size();
                child_wut = WakeupTree::default();
                self.settle_blocked(run, d, p, after.next.is_empty(), &ends.partners);
                continue;
            }
            // A failed event stops its process; the search goes on with the others.
            let _ = run.step(p);
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            if !self.reduction.observers() {
                self.analyse_races(run, true);
            }
            // odpor-ob too: its races are found at the end, but an `await` that ran
            // before the end asks here, over plain happens-before (a valid sequence,
            // if a less reduced one), to run before the writes that disabled it; at
            // the end only the processes still blocked are probed (odpor-ob missed a
            // trace so: `regressions::odpor_ob_an_await_passes_the_writes_that_disabled_it`).
            if optimal {
                self.pass_disabling_writes(run);
            }
            run.ex.enabled(&mut self.enabled);
            self.probe_disabled(run);
            let reached = || {
                run.ex
                    .state
                    .check_fingerprint(run.ex.program(), self.end_reads)
            };
            // A step proved to end in a covered state was settled without running
            // (`settle_covered`, `settle_blocked`), except with `--literal`, which
            // blocks it here, in an optimal search where it spawns or may leave a
            // raced waiter (`settled_successors`), and where it blocks only if it
            // reaches a given state.
            if ends.always || (!ends.at.is_empty() && ends.at.contains(&reached())) {
                // ODPOR_cs Alg. 1, lines 26 and 33: the subtree of wut(E) below p is
                // not followed.
                self.wakeup_steps -= child_wut.size();
                child_wut = WakeupTree::default();
                self.block_after_equivalent(run, d, p, &ends.partners);
                continue;
            }
            // Lines 15–17: the sleep set of E.p.
            let chase = self.reduction.chases_partners();
            let reduction = &mut self.reduction;
            let (initial, max_depth) = (self.snapshots.first(), run.config.max_depth);
            let n_block = run.ex.events()[d].block;
            let mut around = self.snapshots.get(d).map(|before| Around {
                program: run.ex.program(),
                ex: &run.ex,
                before,
                enabled_before: &self.nodes[d].enabled,
                after: &run.ex.state,
                p: p_key,
                stats: &mut run.stats,
                end_reads: self.end_reads,
            });
            let mut commuted = Vec::new();
            let mut keep = |x: &Step| {
                let a = around.as_mut()?;
                // The sleeping step and `n` commute as events (`R`: it sleeps on), or
                // in `s[E]` (CDPOR line 17: it ends as proved sequences do). A failed event
                // commutes by no constraint.
                let independent = !a.ex.events()[d].failed
                    && a.before
                        .procs
                        .iter()
                        .find(|q| q.pid_key == x.process)
                        .and_then(|m| Some((m.next?, m.locals.as_slice())))
                        .zip(initial)
                        .is_some_and(|(x, initial)| {
                            let n = (n_block, a.ex.entry_locals(d));
                            reduction.independent(a.program, initial, max_depth, x, n)
                        });
                let kept = if independent {
                    Some(Kept::Independent)
                } else {
                    let kept = reduction.keep_asleep(a, x);
                    if kept.is_some() {
                        commuted.push(x.process);
                    }
                    kept.map(Kept::Equivalent)
                };
                a.stats.pruning.sleep_extensions += u64::from(kept.is_some());
                kept
            };
            let n = &run.ex.events()[d];
            self.nodes[d].sleep.after(
                p_key,
                &n.footprint,
                (optimal, chase),
                &mut keep,
                &mut child_sleep,
            );
            let pruning = &mut run.stats.pruning;
            pruning.max_sleep = pruning.max_sleep.max(child_sleep.len() as u64);
            pruning.max_depth = pruning.max_depth.max(d as u64 + 1);
            self.depth += 1;
            let sleep = std::mem::take(&mut child_sleep);
            self.open(run, Some(sleep), std::mem::take(&mut child_wut));
            if optimal {
                self.run_commuted(run, &commuted);
            }
        }
    }
}

impl<R: Reduction> Dpor<R> {
    /// An optimal search puts first, right after `n`, each sleeping step it kept
    /// asleep past `n` because the two commute in that state (`commuted`, odpor-cs's
    /// note 6): the leftmost branch of the new node, alone (merged below another
    /// branch, it went with that branch when a don't-do sequence blocked it), whose
    /// races are analysed there — without running it (`Dpor::settle_blocked`), or,
    /// with `--literal`, by running it and blocking. Those races, of `x` run after `n`
    /// with the events before,
    /// are what the subtree of `E.x` never shows: with p first, r kept q (a no-op
    /// there) asleep, and no execution ran q after r — the race of p's `y = -1` with
    /// q's read of y, which asks for r.q at the root, was never seen (odpor-cs,
    /// odpor-cs-ob and ocdpor lost a final state:
    /// `regressions::odpor_cs_runs_a_step_kept_by_commutation`). csdpor analyses them
    /// the same way (`Dpor::settle_covered`).
    fn run_commuted(&mut self, run: &mut Exploration<'_, '_>, commuted: &[Fingerprint]) {
        for &key in commuted {
            let Some(x) = run.ex.state.procs.iter().position(|q| q.pid_key == key) else {
                continue;
            };
            let step = self.next_step(run, x);
            let node = &mut self.nodes[self.depth];
            if node.wut.run_first(step) {
                self.wakeup_steps += 1;
                node.commuted.push(key);
            }
        }
    }

    /// `await`s and the writes that disable them: the newest event `n`, of an `await`
    /// block (or the probe of a process blocked at one), could also
    /// have run before an earlier write `e0` of another process that made its guard
    /// false, if the events after `e0` that do not depend on it make it true there:
    /// `v = notdep(e0, E).n` is asked for at `pre(E, e0)`, with `n`'s whole footprint
    /// (it reads other values there) — joining `wut(E')` in an optimal search, one of
    /// its initials joining `backtrack(E')` otherwise. Only where `n`'s process
    /// reaches its block without `e0`: the event that created it or ran its last step
    /// is neither `e0` nor after it
    /// (`regressions::odpor_passes_only_writes_its_await_could_precede_generated`).
    ///
    /// The race of `n` with the last such write is analysed as any race; the earlier
    /// ones are not races (the later writes stand between), yet reversing them is the
    /// only way to run `n` before them: after p@1's y = 2 and p@2's y = 0, an
    /// `await (y == 1)` of a process q creates after both is reached only by running
    /// q (and its spawn) before p@1 — every algorithm missed that final state
    /// (`regressions::an_await_behind_two_writes_of_its_creator_s_rival`). In optimal
    /// searches an `await` event that runs asks too: the probe right after `e0` asked
    /// with the `notdep` of that moment, and the events that enable `n` may come later
    /// (`regressions::odpor_misses_a_trace_behind_a_disabling_write`,
    /// `regressions::odpor_probe_passes_the_writes_that_disabled_it`). Each sequence
    /// goes through the usual redundancy checks, so only traces not covered yet are
    /// added. Failed `await` events too: a guard that fails (`head` of a list the
    /// write emptied) passes before the write that made it false, and only this asks
    /// for it — its race with the write that made it fail cannot pass there (odpor
    /// completed none of 2 traces, missing the final state:
    /// `regressions::odpor_a_failed_await_passes_the_writes_that_disabled_it`).
    fn pass_disabling_writes(&mut self, run: &mut Exploration<'_, '_>) {
        let hb = std::mem::take(&mut self.hb);
        self.pass_disabling_writes_over(run, &hb);
        self.hb = hb;
    }

    /// [`Dpor::pass_disabling_writes`] over a given happens-before (the observers'
    /// order at the end of an execution, [`Dpor::observed_races`]).
    fn pass_disabling_writes_over(&mut self, run: &mut Exploration<'_, '_>, hb: &HappensBefore) {
        let n = run.ex.events().len() - 1;
        self.pass_disabling_writes_at(run, hb, n);
    }

    /// [`Dpor::pass_disabling_writes_over`] for event `n` of the execution, which
    /// need not be its last: a real `await` of an ended execution, over `→ob`
    /// ([`Dpor::observed_races`]).
    fn pass_disabling_writes_at(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        n: usize,
    ) {
        let events = &run.ex.events()[..=n];
        let (proc, block) = (events[n].proc, events[n].block);
        if !waits(run.program(), block) {
            return;
        }
        let locals = run.ex.entry_locals(n).to_vec();
        let guard = Footprint {
            reads: run.ex.guard_reads(block, &locals),
            writes: Vec::new(),
        };
        // `n`'s process must reach `n`'s block without `e0`: the event that created it
        // or ran its last step is not `e0` and does not happen after it (it is in
        // `E'` or in `notdep(e0, E)`, which runs before `n`).
        let anchor = events[..n]
            .iter()
            .rposition(|ev| ev.proc == proc || (ev.spawned.0..ev.spawned.1).contains(&proc));
        let optimal = self.reduction.optimal();
        // The events that may write what the guard reads, found once: the candidates
        // for `e0`.
        let guard_writers: Vec<usize> = (0..n)
            .filter(|&j| events[j].footprint.conflicts(&guard))
            .collect();
        // Of those, the events that did write what the guard reads: the only ones
        // whose presence in `v` changes the guard's value there (an event of `v`
        // writes there what it wrote in `E`: it reads nothing that `e0`, or an event
        // left out with what happens after it, wrote). A transition footprint may
        // write more: every `cell` of PS_shared may increment the `settled` that
        // `check` awaits, and leaving out the cells that did not searched in vain.
        let guard_written: Vec<usize> = guard_writers
            .iter()
            .copied()
            .filter(|&j| intersects(&events[j].written, &guard.reads))
            .collect();
        // What the block behind the guard may touch (its transition footprint).
        let whole = run.ex.event_transition(n);
        for &e0 in &guard_writers {
            let events = &run.ex.events()[..=n];
            if events[e0].proc == proc {
                continue;
            }
            if anchor.is_some_and(|a| a == e0 || (a > e0 && hb.before(events, e0, a))) {
                continue;
            }
            let at_block = anchor.is_none_or(|a| a < e0);
            let enabled_before = self.nodes[e0].enabled.contains(&proc);
            // The events of `notdep(e0, E)` that may write what the guard reads where
            // `v` puts them: those that did, and those that commute with `e0` only by
            // `R` (their footprints conflict), which may write there what they did not
            // in `E`, having read `e0`'s writes there. With `q: if (z != 0) z = 0`
            // twice, the first disabling `await (z >= 1)`, the second writes only
            // before it: ocdpor lost a final state while only the first was left out
            // (`regressions::ocdpor_leaves_out_a_write_r_moved_before_its_guard`).
            // Without `R`, `notdep(e0, E)` has no event in conflict with `e0`.
            let writes_guard = |j: &usize| guard_written.binary_search(j).is_ok();
            let rewriters: Vec<usize> = guard_writers
                .iter()
                .copied()
                .filter(|&j| {
                    j > e0
                        && !hb.before(events, e0, j)
                        && (writes_guard(&j)
                            || events[j].footprint.conflicts(&events[e0].footprint))
                })
                .collect();
            let writers = rewriters.len();
            // Source-DPOR skips a write before which the process was enabled at this
            // block and after which nothing in `notdep` wrote what its guard reads:
            // the probe right after the write asked to run the process before it,
            // with the same guard value, and sleep sets do the rest (scanning every
            // write made sdpor up to 20% slower on Reg, whose guards count logins).
            // A later write of the guard makes running after it another trace:
            // sdpor missed q@3 r q@2 p p, r's `z = z` between two `await (z != y)`,
            // where p's `y = 0` disables both
            // (`regressions::sdpor_an_await_after_a_later_write_of_its_guard`). So
            // does an event of `notdep` that conflicts with the block behind the
            // guard, which that probe, right after the write, did not have before
            // it: p's `await (x != 1); y = 0` after a q's `x = 1`, asleep there since
            // it ran at the node before, and r's read of y after that write: only
            // this asks for r before p's block
            // (`regressions::sdpor_an_await_behind_a_reader_of_its_block`).
            // Disabled before `e0` already, the process can pass only after a `v` that
            // writes what its guard reads (cheap tests before computing memories):
            // leaving writes out then needs one to leave out and one to keep. (sdpor
            // missed 4 of 54 traces where the two y = 2 of p@1 and p@2 followed their
            // x = 1 and r's x = 0 came last, for an `await (y == x)`, while it skipped
            // these writes.)
            let disabled_before = at_block && !enabled_before;
            if disabled_before && writers == 0 {
                continue;
            }
            let notdep = races::notdep(events, hb, e0);
            let conflicting = || {
                notdep
                    .iter()
                    .any(|&j| events[j].footprint.conflicts(&whole))
            };
            if !optimal && at_block && enabled_before && writers == 0 && !conflicting() {
                continue;
            }
            // `v = notdep(e0, E)`, or, where a later write of what the guard reads
            // disables it again, `v` without some of the events that write it (and
            // what happens after them): each of two writes that both disable the
            // guard (commuting, on two elements or by `R`) is in the other's `notdep`,
            // and only both passed let `n` run, while a write that enables it must
            // stay (ocdpor missed a trace of its finer dependency so:
            // `regressions::sdpor_an_await_enabled_after_the_writes_that_follow`).
            // In an optimal search, judged on `s[E'.v]` replayed from the snapshot
            // where `R` hides it from the undo log, as `await_race` judges the race
            // (without it, ocdpor lost a final state: the race took the replay, this
            // did not: `regressions::ocdpor_replays_the_writes_that_disabled_it`).
            let prefix = self.snapshots.get(e0).filter(|_| optimal);
            let mut replayed = 0;
            // A guard that faults there passes too: the block runs and fails, a
            // runtime error to report (odpor missed `head` of an empty list so:
            // `regressions::odpor_an_await_whose_guard_faults_passes_the_writes`).
            let block = run.ex.events()[n].block;
            let mut passes = |v: &[usize]| {
                let after = memory_after(&run.ex, hb, (e0, n), v, prefix, &mut replayed);
                let guard = after.map(|(mem, locals)| run.ex.machine.enabled(block, &mem, &locals));
                matches!(guard, Some(Ok(true) | Err(_)))
            };
            let to_leave_out = writers > usize::from(disabled_before);
            // An optimal search asks for every largest such `v`, not the first found:
            // each puts before `n` a different set of the writes kept, another trace,
            // and leaving out one writer leaves out what happens after it too. Two q's
            // `z = 1; yield; y = 1` and r's `await (y != z)`: after q@1's `z = 1`,
            // leaving out q@2's `z = 1` (and with it its `y = 1`) lets r pass, and so
            // does leaving out its `y = 1` alone, the only way to r passing after both
            // `z = 1`: the race of r with q@2's `z = 1` cannot ask for it there, where
            // q@1's `y = 1` sleeps beside it and is taken to cover it on the strength
            // of this probe (`wakeup_tree::sleeper_covers`). `ocdpor --literal` missed
            // that trace of its dependency so
            // (`regressions::a_disabled_await_passes_after_every_write_it_can`).
            // Source-DPOR's backtrack sets take the race's initial whatever sleeps
            // beside it, and keep the first, smallest subsets left out first.
            // Leaving writers out changes the guard only through what it reads: where
            // no event that can be left out (a writer, or an event after one) may
            // write what the guard read after the whole of `notdep`, every such `v`
            // agrees with `notdep` there (the events kept write what they wrote in
            // `E`), the guard reads and decides the same, and none passes. A join of
            // N workers, `await (all(done))`: the guard stops at e0's own `done[i]`,
            // which no `v` sets, and the 2^(N - 1 - i) sets of the later workers are
            // not tried (odpor on 18 workers took 1.0 s instead of 0.006 s).
            let mut replayed_reads = 0;
            let mut may_pass_without_some = || {
                let after =
                    memory_after(&run.ex, hb, (e0, n), &notdep, prefix, &mut replayed_reads);
                let reads =
                    after.map(|(mem, locals)| run.ex.machine.guard_reads(block, &mem, &locals));
                leaving_out_matters(events, hb, &rewriters, &notdep, reads.as_deref())
            };
            let found: Vec<Vec<usize>> = if passes(&notdep) {
                vec![notdep]
            } else if to_leave_out && may_pass_without_some() {
                let candidates = without_some_writes_of(events, hb, proc, &rewriters, &notdep)
                    .filter(|pruned| !disabled_before || pruned.iter().any(writes_guard));
                if optimal {
                    let mut candidates: Vec<Vec<usize>> = candidates.collect();
                    candidates.sort_by_key(|kept| std::cmp::Reverse(kept.len()));
                    let mut found: Vec<Vec<usize>> = Vec::new();
                    for pruned in candidates {
                        // Longest first: a kept superset has been seen already.
                        let within = |kept: &Vec<usize>| pruned.iter().all(|j| kept.contains(j));
                        if !found.iter().any(within) && passes(&pruned) {
                            found.push(pruned);
                        }
                    }
                    found
                } else {
                    candidates.filter(|pruned| passes(pruned)).take(1).collect()
                }
            } else {
                Vec::new()
            };
            run.stats.pruning.replayed_events += replayed + replayed_reads;
            for v in found {
                self.ask_before(run, hb, e0, v, (n, &whole));
            }
        }
    }

    /// Asks to run the events `v` of the execution, then event `n` with its block's
    /// whole footprint (`n = (n, whole)`: a probe, an `await` that cannot run where
    /// `v` puts it, or an event standing for a process's future), at `pre(E, e)`:
    /// `v.n` joins `wut(E')` in an optimal search, an initial of it joins
    /// `backtrack(E')` otherwise.
    fn ask_before(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        e: usize,
        mut v: Vec<usize>,
        (n, whole): (usize, &Footprint),
    ) -> Option<Insertion> {
        if self.reduction.optimal() {
            let entries: Vec<Entry> = (v.iter().map(|&i| entry(&run.ex, i, false)))
                .chain([entry(&run.ex, n, true)])
                .collect();
            let race_write = entry(&run.ex, e, false);
            Some(self.insert_wakeup(run, e, entries, Some(&race_write)))
        } else {
            v.push(n);
            let guided = self.reduction.guided();
            add_initial(run, hb, &mut self.nodes[e], guided, &v, Some(whole));
            None
        }
    }

    /// The races of a blocked step's future asked [`Dpor::ask_before`] for a
    /// sequence at node `e`: [`Dpor::delegate`] when it joined.
    fn ask_for_future(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        e: usize,
        v: Vec<usize>,
        n: (usize, &Footprint),
    ) {
        if self.ask_before(run, hb, e, v, n) == Some(Insertion::Joined) {
            self.delegate(run, e);
        }
    }

    /// A wakeup sequence joined `wut(E')` at node `e` for the races of a blocked
    /// step's future ([`Dpor::future_races`]): the process explored from `e`, whose
    /// subtree holds the block, is no longer done there at Fig. 1, line 9
    /// ([`Dpor::done`]).
    ///
    /// Why: line 9 trusts the subtree of a process `q` done at `w` to explore every
    /// class in which `q` is a weak initial after `w`. A subtree with a step blocked
    /// at a covered state does not: the states past the block are reached through
    /// the covering subtree, whose events may differ (a guarded write that ran in
    /// the blocked prefix and not in the covering one), and the neighbours of the
    /// classes past the block are asked for only by the block's analysis of its
    /// futures, as sequences of the path, some at `w` itself. Such a sequence is
    /// work of `q`'s subtree handed to a sibling; cutting its races because `q` is
    /// done at `w` is circular, and over `→ob` it happens, as weak initials grow
    /// when a sequence is extended: `q`, no weak initial of the sequence asked for,
    /// becomes one once a later write overwrites `q`'s unread. p's `y = 1; yield;
    /// y = 1`, q's `if (y == 0) { x = 2; } yield; t = x`, two r's `x = 1; yield; x =
    /// 1`: q's subtree at the root blocked at q p r@4 (the state of p q r@4, where
    /// q wrote nothing) and asked, for r@3's future, for r@4 r@3 at the root; in r@4
    /// r@3 q p p q r@3 r@4, the race of q's read with r@3's second write, the first
    /// step towards x = 2 (every r's write before q's), was judged covered by q
    /// done at the root (q is a weak initial of r@4 r@3 q p p r@3: r@3's write
    /// overwrites q's unread), and so was its mirror in r@4's subtree: odpor-cs-ob
    /// `--literal` lost the final state x = 2
    /// (`regressions::odpor_cs_ob_literal_a_future_asked_for_is_not_covered_by_its_asker`,
    /// found by the mutants test). Only the futures' sequences delegate: counting
    /// every sequence a blocked execution asked for, odpor-cs-ob with
    /// `--violations-only` took LW(10) from 66 to 1,536 states, with no program
    /// known to need it. That this reaches every class is not proved: the
    /// differential test checks it.
    fn delegate(&mut self, run: &Exploration<'_, '_>, e: usize) {
        let node = &mut self.nodes[e];
        let current = node.current.and_then(|c| run.ex.state.procs.get(c));
        if let Some(key) = current.map(|c| c.pid_key) {
            if !node.delegated.contains(&key) {
                node.delegated.push(key);
            }
        }
    }

    /// At the end of an execution: the sleep entries of its nodes, counted together
    /// (ISSTA'19's M_D, the memory of the don't-do sets along one execution).
    fn measure_path(&self, run: &mut Exploration<'_, '_>) {
        let entries: usize = self.nodes[..=self.depth]
            .iter()
            .map(|n| n.sleep.len())
            .sum();
        let pruning = &mut run.stats.pruning;
        pruning.max_sleep_path = pruning.max_sleep_path.max(entries as u64);
    }

    /// CDPOR line 12 (and the sleeping steps kept by state equality, line 17): a
    /// sequence proved to reach a state already covered ends, at node `d`, with the
    /// step of a process `x` ([`crate::dpor::sleep::Ending::Blocks`]). As in the paper, `x`
    /// is asleep here: it is not run. What running it would add is its races with the
    /// execution so far — which the covered state's exploration need not show (the
    /// differential test found a final state lost without them; see
    /// [`crate::dpor::sleep`]) — so they are analysed without running it: an event with its
    /// transition footprint (all it may touch from its local state) and no effect,
    /// then a probe for each other process at an `await` (enabled or waiting) whose
    /// guard reads what it may write (it may disable them, or keep them waiting;
    /// their races with it are a probe's). Only the
    /// backtrack sets take the races (as for a probe: there is no state after it);
    /// the step then sleeps (line 19). Nothing is run, so no state is counted: the
    /// paper's Ex. 5 explores 6 states, as here.
    ///
    /// Sound as running it was: the execution would be blocked right after `x`, so
    /// nothing else depends on the step; its races are found with a footprint that
    /// contains what it would touch, so a superset of them; and the step cannot fail
    /// there (a constraint or a state comparison proved it runs normally). What the
    /// run adds besides is chiefly the probe of each process the step leaves at an
    /// `await` (its own, or one it spawns), not known without running it (the run
    /// would also probe again a waiting process whose whole block conflicts with the
    /// step: a review campaign of stop 32 ran every step this test settles, too, and
    /// the run added no backtrack point in 450,000 programs): a step
    /// that may leave one whose probe may race with `E` ([`leaves_a_raced_waiter`])
    /// runs for its races and blocks ([`Dpor::run_covered`]). Settled, such a step
    /// left those probes out: a gap in theory that no campaign had shown. Run, it
    /// changes the exploration of generated programs (csdpor and cdpor take 6 and 2
    /// more states on `dpor::csdpor_runs_a_covered_step_that_may_leave_a_raced_waiter`,
    /// no final state lost either way); it costs 7 states of `buffer.ic`.
    fn settle_covered(&mut self, run: &mut Exploration<'_, '_>, d: usize) {
        let node = &self.nodes[d];
        if !node.sleep.has_proved_step() {
            return;
        }
        let covered: Vec<usize> = node
            .enabled
            .iter()
            .copied()
            .filter(|&x| {
                let key = run.ex.state.procs[x].pid_key;
                node.sleep.ends(key).always && !node.sleep.asleep(key)
            })
            .collect();
        for x in covered {
            let settles = successors(&run.ex, x)
                .is_some_and(|after| !leaves_a_raced_waiter(&run.ex, x, &after, &self.guards));
            let footprint = if settles {
                self.settle(run, x)
            } else {
                self.run_covered(run, x)
            };
            // Running it may have hit a limit (`--max-depth`, a state that recurs).
            if run.stopped() {
                return;
            }
            let process = run.ex.state.procs[x].pid_key;
            self.nodes[d]
                .sleep
                .insert(vec![Step { process, footprint }]);
        }
    }

    /// An execution blocked where it reached a covered state, by a step of process
    /// `x` (the newest event: settled, run and blocked, or proved there): the races of
    /// what `x`'s process may still do after it — every block reachable from its next
    /// one, its spawns' included, from its locals where they tell
    /// ([`Futures::of_process`]) — with the execution, as one event after the step,
    /// each race reversed as a probe's: `notdep(e, E)` then the process's next step,
    /// joining `wut(E')` in an optimal search, an initial of it joining
    /// `backtrack(E')` otherwise. No constraint or state check: the event stands for
    /// steps yet unknown.
    ///
    /// Why: the state after the step was proved equal to a covered one in the context
    /// of the events before it, and the covering subtree shows the races of what
    /// follows only reversed to other traces; a reversal that takes one of those
    /// events out may break the equality. p's `y = 1; yield; x = 0`, q's `await (x ==
    /// 1); yield; y = 1` and r's `x = x + 1; yield; y = y + 1`: after r q r, p's first
    /// step was settled (with q past its `await`, q's `y = 1` to come makes y dead, so
    /// p's and r's writes of it commute there); the race of q's `await` with p's
    /// `x = 0`, the only one to ask for r r p p (q waiting for good), lies past it, and
    /// in the covering executions (p first) the same race orders p's `y = 1` before
    /// r's `y = y + 1`, another final state. cdpor and odpor-cs-ob lost that state
    /// (`regressions::a_covered_state_hides_the_races_of_what_follows`, found by the
    /// small-scope test).
    ///
    /// odpor-cs-ob ([`Reduction::chases_partners`]) analyses so the futures of the
    /// block's partners too, and of the processes chained to them ([`chained`];
    /// `chase`: the partners, and per global whether a write of it may be observed
    /// after the block): stateful DPOR's argument (Yang et al., 2008), narrowed to
    /// the races a block can hide. The covered sequence `u` reorders the steps of the
    /// covering one `u'` (each process's steps, in its order, with their transition
    /// footprints), so a race `g ⋖ f` of an event `g` of `E.u` with an event `f` of the
    /// covered continuations is one after `E.u'` too, unless an event between them
    /// there — after `g` in `u'`, before it in `u` — is missing here: a partner, or an
    /// event after one. So `f` is a later step of a partner's process, or of a process
    /// chained to one. Partners over-approximate (a step taken on the way down may
    /// have come before the blocked one in `u'` too), futures too, and each reversal
    /// is asked without a state check; the races themselves are found over plain
    /// happens-before, as for the blocked process's own future. Only odpor-cs-ob is
    /// known to have lost final states without it
    /// (`regressions::odpor_cs_ob_a_settled_step_hides_a_race_with_another_process`,
    /// `..._a_process_chained_to_a_partner_races_with_the_settled_step`); csdpor,
    /// cdpor, odpor-cs and ocdpor agreed with naive on every program of the
    /// campaigns without it, and csdpor took 8 times the states of Pi_shared(10)
    /// with it (2,048 to 16k): they do not analyse partners (README, "Known gaps").
    /// Cost to odpor-cs-ob: without `--violations-only` FR-a(8) 2,764 → 110k states
    /// (every write of x is observed by the end, so every writer chains); with it,
    /// none on FR, FR-a, LW, abs; DBP(8) 14k → 20k either way (README, BENCHMARKS.md).
    ///
    /// Analysing every live process's future instead (Yang et al.'s summaries,
    /// without the partners' narrowing) took odpor-cs-ob 110k states on FR-a(8) with
    /// `--violations-only` (2,757 with the narrowing, then) and csdpor 266k on Readers(12)
    /// (8,216 without).
    fn future_races(
        &mut self,
        run: &mut Exploration<'_, '_>,
        x: usize,
        chase: Option<(&[Fingerprint], &[bool])>,
    ) {
        // With observers, what the end of the blocked execution may observe.
        let end = self
            .reduction
            .observers()
            .then(|| self.observed_at_block(run));
        let futures = self
            .futures
            .get_or_insert_with(|| Futures::new(run.ex.program()));
        // A write of a global some guard reads is always observed (`→ob`).
        let chase = chase.filter(|_| self.reduction.chases_partners());
        let observed: Option<Vec<bool>> = chase.map(|(_, observed)| {
            let guarded = |g: usize| self.guarded.get(g).copied().unwrap_or(false);
            (0..observed.len())
                .map(|g| observed[g] || guarded(g))
                .collect()
        });
        let chase = chase.zip(observed.as_deref()).map(|((p, _), o)| (p, o));
        for (r, footprint) in chained(&run.ex, futures, x, chase) {
            run.ex.unrun_future(r, footprint);
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            let hb = std::mem::take(&mut self.hb);
            let n = run.ex.events().len() - 1;
            let whole = run.ex.event_transition(n);
            let plain = races::races(run.ex.events(), &hb);
            for &e in &plain {
                run.stats.pruning.races += 1;
                let v = races::notdep(run.ex.events(), &hb, e);
                self.ask_for_future(run, &hb, e, v, (n, &whole));
            }
            if let Some(end) = &end {
                self.future_observed_races(run, end, &plain, (n, &whole));
            }
            self.hb = hb;
            self.hb.pop();
            run.ex.back();
        }
    }

    /// With observers, the races over `→ob` of the event `n` standing for a
    /// process's future (the last event; its next block's sure overwrites taken as
    /// written, [`Executor::overwrite_as_its_block`]), the end observing `end`, that
    /// plain happens-before hides: a write `e` of the prefix that `n` overwrites,
    /// observed after `n`, with a write between them that `n` overwrites before
    /// anything reads it. `→ob` leaves that write unordered with `e`; plain
    /// happens-before chains `e` to `n` through it. Each is reversed as a probe's race
    /// is, `notdep(e, E)` (over `→ob`) then `n`.
    ///
    /// Why: the step blocked where the state was proved equal to a covered one, but a
    /// state check compares states, not transitions: an event of the blocked prefix
    /// may write where its counterpart in the covering prefix did not. q's `if (y ==
    /// 0) { x = 2; }` wrote x in the blocked q p r, and nothing in the covering p q r
    /// (after p's `y = 1`). Its race with r's second `x = 1`, past the block, r's
    /// first one overwritten unread, asks for r r first; it is in no covering
    /// execution, and the reversals that reach r r q elsewhere were judged covered by
    /// q's subtree at the root, which holds this blocked branch: odpor-cs-ob
    /// `--literal` lost the final state x = 2
    /// (`regressions::odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race`,
    /// found by the small-scope test).
    fn future_observed_races(
        &mut self,
        run: &mut Exploration<'_, '_>,
        end: &[bool],
        plain: &[usize],
        (n, whole): (usize, &Footprint),
    ) {
        run.ex.overwrite_as_its_block();
        let events = run.ex.events();
        if !may_leave_a_write_unobserved(events, end) {
            return;
        }
        let order =
            crate::dependency::observers::order(events, &run.ex.state.procs, &self.guarded, end);
        let seq: Vec<&Event> = events.iter().collect();
        let hidden: Vec<usize> = races::races(events, &order)
            .into_iter()
            .filter(|e| !plain.contains(e))
            .filter(|&e| !crate::dependency::observers::unobserved(&seq, e, n, &self.guarded, end))
            .collect();
        for e in hidden {
            run.stats.pruning.races += 1;
            let v = races::notdep(run.ex.events(), &order, e);
            self.ask_for_future(run, &order, e, v, (n, whole));
        }
    }

    /// Per global, whether its order of writes may be observed after a block: by a
    /// live process or the end ([`crate::dependency::observers::end_reads`]) with observers,
    /// always without.
    fn observed_at_block(&self, run: &Exploration<'_, '_>) -> Vec<bool> {
        let (program, state) = (run.ex.program(), &run.ex.state);
        if self.reduction.observers() {
            crate::dependency::observers::end_reads(
                program,
                state,
                run.config.violations_only,
                false,
            )
        } else {
            vec![true; program.globals.len()]
        }
    }

    /// A covered step that may leave a process at an `await` whose probe may race
    /// with `E` ([`leaves_a_raced_waiter`]) runs for its races — those probes'
    /// among them ([`Dpor::probe_disabled`]) — and steps back: a blocked execution.
    /// Its transition footprint.
    fn run_covered(&mut self, run: &mut Exploration<'_, '_>, x: usize) -> Footprint {
        self.measure_path(run);
        let _ = run.step(x);
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.analyse_races(run, false);
        run.ex.enabled(&mut self.enabled);
        self.probe_disabled(run);
        run.blocked(Blocked::Covered);
        self.future_races(run, x, None);
        let footprint = run.ex.events()[run.ex.events().len() - 1].footprint.clone();
        self.hb.pop();
        run.back();
        footprint
    }

    /// The races of process `x`'s next step, analysed without running it
    /// (see [`Dpor::settle_covered`]); its transition footprint. An optimal search
    /// also asks, for an `await` step, to run it before the writes that disabled it
    /// (it does not climb: see `await_race`), as it asks for a step that runs; and
    /// every search probes the processes waiting at an `await` whose guard reads what
    /// the step may write too (`probe_disabled` would after the step), not only the
    /// enabled ones it may disable (csdpor and cdpor probed only those before stop
    /// 32; no count of the papers' tables changed).
    fn settle(&mut self, run: &mut Exploration<'_, '_>, x: usize) -> Footprint {
        run.stats.pruning.covered_unrun += 1;
        let footprint = run.ex.unrun(x).footprint.clone();
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.analyse_races(run, false);
        if self.reduction.optimal() {
            self.pass_disabling_writes(run);
        }
        let others: Vec<usize> = (0..run.ex.state.procs.len())
            .filter(|&r| r != x)
            .filter(|&r| guard_reads_written(&run.ex, r, &footprint))
            .collect();
        for r in others {
            run.stats.pruning.probes += 1;
            run.ex.probe(r);
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            self.analyse_races(run, false);
            self.pass_disabling_writes(run);
            self.hb.pop();
            run.ex.back();
        }
        self.future_races(run, x, None);
        self.hb.pop();
        run.ex.back();
        footprint
    }

    /// `p` ran the last step of a sequence that reaches a state already reached (its
    /// races are analysed): the execution is blocked there (everything after `E.p` is
    /// covered by the state reached). Source-DPOR: `p` sleeps at the node and, as
    /// when the step is asleep, the node goes on with another enabled process if it
    /// has no other (Sec. 6.2). An optimal reduction records `p` in `dnd(E)` and goes
    /// on with the rest of its wakeup tree (ODPOR_cs Alg. 1, lines 25–26 and 33: `p ∈
    /// dnd(E)` is run for its races and its branch removed) and, once none is left,
    /// with a fresh enabled process, as Source-DPOR does (`Dpor::choose_after_blocked`;
    /// asking only when the tree is empty at the moment of the block lost a final
    /// state of odpor-cs-ob: `regressions::odpor_cs_ob_goes_on_after_its_tree_is_spent`).
    ///
    /// The paper ends a node whose wakeup tree is spent, and chooses again only for
    /// its own choice of line 21 (lines 17–21). That loses final states
    /// (`regressions::state_dependent_block_extent_loses_a_final_state`): r's first
    /// step, then p, reached the state of p.r and blocked, and r's node, reached by
    /// the branch r.p, ended there — but r.r.q.p, which never passes through that
    /// state, was to be found from the races of executions below r.p, and no other
    /// race asked for it. Going on with another process finds those races.
    fn block_after_equivalent(
        &mut self,
        run: &mut Exploration<'_, '_>,
        d: usize,
        p: usize,
        partners: &[Fingerprint],
    ) {
        self.measure_path(run);
        run.blocked(Blocked::Covered);
        self.recheck_beside(run);
        // With observers, the races of real events are found where an execution ends.
        self.observed_races(run, false);
        let observed = self.observed_at_block(run);
        self.future_races(run, p, Some((partners, &observed)));
        let footprint = run.ex.events()[d].footprint.clone();
        self.hb.pop();
        run.back();
        let process = run.ex.state.procs[p].pid_key;
        let step = Step { process, footprint };
        self.nodes[d].current = None;
        if self.reduction.optimal() {
            // `p ∈ dnd(E)`, confirmed: it blocks whenever it runs here, and E.q
            // inherits it for each q independent of it (lines 29–30). It is not
            // `done(E)`: nothing below `E.p` was explored, so it must not make a
            // sequence redundant at line 40 — the races of the executions it stands
            // for were never seen (`regressions::odpor_cs_blocked_step_covers_no_race`).
            self.nodes[d].sleep.insert_equivalent(vec![step], partners);
            self.nodes[d].blocked_steps.push(process);
            return;
        }
        self.nodes[d].sleep.insert(vec![step]);
        let node = &self.nodes[d];
        let pending = node
            .backtrack
            .iter()
            .any(|&i| i != p && node.enabled.contains(&i) && !self.asleep(run, node, i));
        if !pending {
            let extra = self.choose(run, node, &self.awake(run, node));
            self.nodes[d].backtrack.extend(extra);
        }
    }

    /// ODPOR_cs Alg. 1, lines 25–26 for a step `p` confirmed in `dnd(E)` at node `d`
    /// (it blocks whenever it runs there, `Ending::Blocks`): the paper runs it for its
    /// races and blocks; they are analysed without running it ([`Dpor::settle`]), and
    /// the step is then recorded as [`Dpor::block_after_equivalent`] records one that
    /// ran and blocked. Sound as running it was, by `settle_covered`'s argument: the
    /// execution would be blocked right after the step, so nothing depends on it; its
    /// races are found with a footprint that contains what it would touch (a superset
    /// of them, its wakeup sequences with its block's whole footprint, as a probe's);
    /// and it cannot fail there (it reaches a covered state). No state is counted and
    /// no execution ends blocked: odpor-cs and ocdpor count what csdpor and cdpor
    /// count for the same step. With observers, whose races are found where an
    /// execution ends, over an order that the end decides, the races are those of
    /// the execution blocked after the step ([`Dpor::settle_observed`]).
    /// `ends`: the step ends its process on every path.
    fn settle_blocked(
        &mut self,
        run: &mut Exploration<'_, '_>,
        d: usize,
        p: usize,
        ends: bool,
        partners: &[Fingerprint],
    ) {
        let footprint = if self.reduction.observers() {
            self.settle_observed(run, p, ends, partners)
        } else {
            self.settle(run, p)
        };
        let process = run.ex.state.procs[p].pid_key;
        let node = &mut self.nodes[d];
        node.current = None;
        node.sleep
            .insert_equivalent(vec![Step { process, footprint }], partners);
        node.blocked_steps.push(process);
    }

    /// The candidates of Alg. 1, line 3 (CSDPOR, CDPOR): enabled processes not asleep
    /// nor explored from the node yet. An optimal reduction prefers those not in
    /// `dnd(E)` (ODPOR_cs Alg. 1, line 21: a process that blocks when it runs here);
    /// when every one is, they are all candidates, each run (or settled) for its
    /// races in turn (lines 17–19).
    fn awake(&self, run: &Exploration<'_, '_>, node: &Node) -> Vec<usize> {
        let awake: Vec<usize> = node
            .enabled
            .iter()
            .copied()
            .filter(|&i| !node.backtrack.contains(&i) && !self.asleep(run, node, i))
            .collect();
        let dont = |i: &usize| blocks_here(run, node, *i);
        if !self.reduction.optimal() || awake.iter().all(dont) {
            return awake;
        }
        awake.into_iter().filter(|i| !dont(i)).collect()
    }

    /// A node where a step was blocked, its wakeup tree spent: a fresh process not
    /// explored from it and not asleep, as Source-DPOR's node would go on (odpor-cs's
    /// note 5), preferably one not confirmed in `dnd(E)` ([`Dpor::awake`]). When only
    /// confirmed ones are left, each is run (or settled) for its races, as Alg. 1,
    /// lines 17–19 run every step of `dnd(E)` where nothing else is enabled: such a
    /// step never ran here, and its races with `E` are seen nowhere else. Left out,
    /// odpor-cs-ob `--literal` lost a final state: q.p.r was a proved don't-do
    /// sequence at the root, r was never run at q.p, and its race with p's write, the
    /// only one to ask for r at q, never showed
    /// (`regressions::odpor_cs_ob_runs_the_dont_do_steps_left_for_their_races`).
    ///
    /// One per blocked branch, as csdpor adds one process per step blocked at its
    /// node (`Dpor::block_after_equivalent`); a step confirmed in `dnd(E)` and run or
    /// settled so is such a branch, so every one of them left gets its turn. Going on
    /// until no fresh process was left explored every enabled process there: FR-a(8)
    /// `--violations-only` took 11,073 states, 3,849 with one per branch (the
    /// regressions that asked for the rule,
    /// `regressions::state_dependent_block_extent_loses_a_final_state` and
    /// `regressions::odpor_cs_ob_goes_on_after_its_tree_is_spent`, pass with both).
    /// Line 3's choice, made here when only commuted steps ran (below), pays for no
    /// branch (counted as one, it lost a final state:
    /// `regressions::odpor_cs_a_choice_of_line_3_pays_for_no_blocked_branch`).
    ///
    /// With observers, not a process that no race could ask for first here: one
    /// whose step alone is redundant at the node (Fig. 1, line 9: a process done at a
    /// prefix is a weak initial of it, [`Dpor::redundant`]). Any sequence `q.u` the
    /// races below the blocked branch could have asked for is redundant too: with the
    /// end of the sequence observing every global, a pair of writes of `q`'s step and
    /// an earlier one is observed in `q` alone, and appending `u` can only leave it
    /// unobserved (an overwrite before any read); read/write conflicts stay. So the
    /// step's predecessors only shrink, and a weak initial of `w'.q` is one of
    /// `w'.q.u`. `done` only grows later. A race of an execution that shows a done
    /// process to come first elsewhere escapes that cut ([`Dpor::owed_elsewhere`]);
    /// such a race asks for its sequence itself, inserted at this node, which is on
    /// the path: not choosing `q` now leaves nothing unasked. FR-a(8) `--violations-only`: 3,849 → 2,043
    /// states; FR(9) 9,738 → 4,602 (2,757 and 6,324 from stop 35 to stop 39, while the
    /// redundancy check kept ordered a pair overwritten in the prefix by a value read
    /// later).
    ///
    /// Only after a branch that blocked: not after a step kept asleep into the node by
    /// commutation ([`Dpor::run_commuted`]), which runs first for its races and
    /// blocks. That step is asleep, as csdpor's (`s[E.n.x] = s[E.x.n]`, and `E.x` is
    /// covered): no subtree the node owed was cut, so nothing is owed but the choice
    /// of line 3 when the node explored nothing else — csdpor settles such a step
    /// and chooses as for any node. Going on after it too took odpor-cs to a state
    /// csdpor never needs (`regressions::odpor_cs_a_step_kept_by_commutation_never_ran`,
    /// 20 states where csdpor has 19), and cost DBP(8) 56k states in odpor-cs (14k
    /// without, csdpor's) and 110k in odpor-cs-ob (38k without, before its steps
    /// confirmed in don't-do sets were settled). Whether one was chosen.
    fn choose_after_blocked(&mut self, run: &Exploration<'_, '_>, d: usize) -> bool {
        let node = &self.nodes[d];
        let procs = &run.ex.state.procs;
        let branches_blocked = node
            .blocked_steps
            .iter()
            .filter(|k| !node.commuted.contains(k))
            .count();
        let explored = node
            .backtrack
            .iter()
            .any(|&i| !node.commuted.contains(&procs[i].pid_key));
        if explored && node.fresh_after_blocked >= branches_blocked {
            return false;
        }
        let mut fresh = self.awake(run, node);
        if self.reduction.observers() && !fresh.is_empty() {
            // Only a process that a race could still ask for first here.
            let done = self.done(run, d + 1);
            let steps: Vec<Entry> = (0..d).map(|i| entry_accesses(&run.ex, i, false)).collect();
            fresh.retain(|&q| !self.redundant(&done, &steps, &[&self.next_step(run, q)]));
        }
        let node = &self.nodes[d];
        match self.choose(run, node, &fresh) {
            Some(q) => {
                self.choose_fresh(run, d, q);
                // Line 3's choice, where only commuted steps ran, owes no branch.
                self.nodes[d].fresh_after_blocked += usize::from(explored);
                true
            }
            None => false,
        }
    }

    /// Optimal-DPOR's choice for a node whose wakeup tree is empty (JACM Alg. 2,
    /// line 3; ODPOR_cs Alg. 1, lines 21–22): `wut(E)` becomes the single step of `p`.
    fn choose_fresh(&mut self, run: &Exploration<'_, '_>, d: usize, p: usize) {
        let entry = self.next_step(run, p);
        self.nodes[d].wut = WakeupTree::chain(vec![entry]);
        self.wakeup_steps += 1;
    }

    /// Leaves the top node: steps back to its parent and puts the process explored
    /// from the parent to sleep there (Alg. 1, line 19). `false` at the root. The
    /// node's sets are final now: the tree, if recorded, shows them.
    fn close(&mut self, run: &mut Exploration<'_, '_>) -> bool {
        let top = &mut self.nodes[self.depth];
        run.annotate(self.depth, &top.sleep, &top.backtrack);
        self.wakeup_steps -= top.wut.size();
        top.wut = WakeupTree::default();
        if self.depth == 0 {
            return false;
        }
        self.depth -= 1;
        let d = self.depth;
        let footprint: Footprint = run.ex.events()[d].footprint.clone();
        self.hb.pop();
        run.back();
        // A race stays to judge again in every execution through its later event.
        self.beside.retain(|&(_, n)| n < d);
        let node = &mut self.nodes[d];
        if let Some(p) = node.current.take() {
            let process = run.ex.state.procs[p].pid_key;
            node.sleep.insert(vec![Step { process, footprint }]);
        }
        true
    }
}
