//! What an algorithm adds to the skeleton ([`Reduction`]), and what it is shown:
//! a race `e ⋖ n` with the execution and states around it ([`Race`]), or the event
//! just run with the states before and after it, when a sleeping step may stay
//! asleep past it ([`NewEvent`]), and the sequences it may put to sleep
//! ([`Equivalent`]).

use super::alternatives::run_from;
use super::parts::Parts;
use super::Node;
use crate::dependency::footprint::Footprint;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dependency::Dependency;
use crate::dpor::sleep::{SleepSet, Step};
use crate::executor::{Event, Executor};
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use crate::report::Stats;
use crate::state::State;
use frontend::ir::Program;
use frontend::memory::Loc;

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
    /// `s[E']` for every prefix `E'` of `E` (kept only when [`Parts::snapshots`]).
    pub snapshots: &'a [State],
    /// `sleep(E')`.
    pub sleep: &'a SleepSet,
    /// `enabled(s[E'])`, as process indices.
    pub prefix_enabled: &'a [usize],
    /// The exploration's counters: alternative runs count their events as states.
    pub stats: &'a mut Stats,
    /// What makes events dependent in this search.
    pub dependency: &'a mut Dependency,
    /// The most events an execution may have (`--max-depth`).
    pub max_depth: Option<usize>,
    /// [`State::check_fingerprint`] of `state`, computed once for all the
    /// races of `n`.
    pub reached: &'a std::cell::OnceCell<Fingerprint>,
    /// Whether the end of an execution reads the memory (see [`State::dead_globals`]).
    pub end_reads: bool,
    /// What line 9 recorded for `n` so far.
    pub recorded: Recorded,
}

/// What CDPOR's line 9 recorded for the newest event so far: the earlier events it
/// is independent of, and those of them that are guarded independences
/// ([`crate::dependency::guarded`]).
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub independent: Vec<usize>,
    pub guarded: Vec<usize>,
}

/// CDPOR's line 9 on a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineNine {
    /// Reverse it (`updateBack`).
    Reverse,
    /// The two events commute wherever they meet: independent in happens-before.
    Independent,
    /// They commute where every linearisation meets them: independent in
    /// happens-before, as the only independence of `n`, with what the second spawns
    /// ordered after both ([`crate::dependency::guarded`]); `closed`: the
    /// locations its constraint read that only the later of the two may read
    /// ([`crate::dependency::happens_before::HappensBefore::closed_to`]).
    Guarded { closed: Vec<Loc> },
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

/// The event `n` just run by process `p`, with the states before and after it:
/// `s[E]` and `s[E.p]`.
pub struct NewEvent<'a, 'p> {
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
#[derive(Clone)]
pub enum Equivalent {
    /// Proved to reach it (by a constraint).
    Proved(Vec<Step>),
    /// Reaches it if the exploration finds it does (CSDPOR's check, done lazily).
    IfReaching(Vec<Step>, Fingerprint),
}

/// The additions of an algorithm to the Source-DPOR skeleton (Alg. 1 of the papers).
pub trait Reduction {
    fn name(&self) -> &'static str;

    /// What the algorithm is made of ([`super::parts`]).
    fn parts(&self) -> Parts;

    /// CDPOR Alg. 1, line 9: whether the race must be reversed (`updateBack`), or
    /// how its events are independent. The skeleton always reverses.
    fn line_nine(&mut self, _race: &mut Race<'_, '_>) -> LineNine {
        LineNine::Reverse
    }

    /// CSDPOR lines 11–14 / CDPOR lines 11–14: a sequence to add to `sleep(E')` after
    /// the race, if any. The skeleton adds none.
    fn sleep_after_race(&mut self, _race: &mut Race<'_, '_>) -> Option<Equivalent> {
        None
    }

    /// CSDPOR lines 11–14 for an `await` event `n` that ran after the event `e` that
    /// last disabled its process (not a race of `n`: the events that enabled it again
    /// stand between; see `Dpor::sleep_before_disabler`): a sequence to add to
    /// `sleep(E')`, if any. The skeleton adds none.
    fn sleep_before_disabler(&mut self, _race: &mut Race<'_, '_>) -> Option<Equivalent> {
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
    /// reductions that keep [`Parts::snapshots`]). The entry is kept with the
    /// returned footprint: what `x` touches when run after `n`.
    fn keep_asleep(&mut self, _new: &mut NewEvent<'_, '_>, _x: &Step) -> Option<Footprint> {
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

    /// An optimal reduction's sequence `v` for a race `e ⋖ n`: the events that run
    /// before `n`, and after it. Optimal-DPOR's (JACM Alg. 2, line 10):
    /// `notdep(e, E)`, then `n`.
    fn wakeup_sequence(&self, r: &Race<'_, '_>) -> (Vec<usize>, Vec<usize>) {
        (races::notdep(r.events, r.hb, r.e), Vec::new())
    }
}

/// The race of event `e` with event `n` (`at = (e, n, state)`) as a [`Race`]: the
/// execution up to `n`, the node `prefix` before `e`, and the state after `n` (the
/// current one unless given: a snapshot, when `n` is not the newest event).
pub(super) fn race_view<'a, 'p>(
    run: &'a mut Exploration<'p, '_>,
    (hb, dependency): (&'a HappensBefore, &'a mut Dependency),
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
        dependency,
        max_depth: config.max_depth,
        reached,
        end_reads,
        recorded: Recorded::default(),
    }
}

/// What [`race_at`] shows of the search: happens-before, the dependency, the
/// snapshots, the node before `e`, and whether the end of an execution reads the
/// memory.
pub(super) type View<'a> = (
    &'a HappensBefore,
    &'a mut Dependency,
    &'a [State],
    &'a Node,
    bool,
);

/// What `ask` makes of the race of event `e` with event `n` of the current execution,
/// presented as [`race_view`] presents it, with the snapshot after `n` (or the current
/// state, when `n` is the newest event), the node `prefix` before `e`, and `reached`
/// (shared by the races of one `n`).
pub(super) fn race_at<'p>(
    run: &mut Exploration<'p, '_>,
    (hb, dependency, snapshots, prefix, end_reads): View<'_>,
    (e, n): (usize, usize),
    reached: &std::cell::OnceCell<Fingerprint>,
    ask: impl FnOnce(&mut Race<'_, 'p>) -> Option<Equivalent>,
) -> Option<Equivalent> {
    let len = run.ex.events().len();
    let state = snapshots.get(n + 1).filter(|_| n + 1 < len);
    let at = (e, n, state);
    let mut race = race_view(
        run,
        (hb, dependency),
        snapshots,
        prefix,
        at,
        (reached, end_reads),
    );
    ask(&mut race)
}
