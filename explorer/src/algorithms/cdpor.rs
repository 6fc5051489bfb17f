//! `cdpor`: Constrained DPOR (Albert, Gómez-Zamalloa, Isabel, Rubio, CAV'18, Alg. 1).
//! Independence constraints (ICs) synthesised before exploration prune at three
//! points of the Source-DPOR skeleton:
//! - line 9, back-set reduction: a race is not reversed when its two events commute
//!   whatever the state (a constraint over their locals and constant globals, see
//!   [`crate::dependency::constraints`] for why the paper's `U⇒` is not enough), or
//!   where a constraint holds in values every linearisation meets them in, or, where
//!   none holds, both orders run from there end alike
//!   ([`crate::dependency::guarded`]), and the independence is recorded in
//!   happens-before (Sec. 3.3);
//! - lines 11–13: when a constraint holds in `s[E'.û]` with both events enabled there
//!   (or line 9's runs of both orders ended alike), `û.p.ê` joins `sleep(E')` without
//!   running anything more; otherwise CSDPOR's state check (line 14), skipped for
//!   pairs whose constraints are exact (necessary as well as sufficient);
//! - line 17, sleep-set extension: a sleeping step stays asleep after `n` when both
//!   guards hold in `s[E]` and the two are uniformly independent there (`U⇒`).
//!
//! Lines 11–13 and 17 rest on state equality (`s[E.x.n] = s[E.n.x]`), as CSDPOR's
//! Lemma 1 does, and apply with any constraint; line 9 changes the dependency
//! relation itself and applies in both `--deps` modes, with the constraints that make
//! it a property of the two events.

use crate::algorithms::csdpor::ContextSensitive;
use crate::dependency::footprint::Footprint;
use crate::dependency::guarded;
use crate::dependency::guarded_group;
use crate::dependency::happens_before::HappensBefore;
use crate::dpor::parts::Independence;
use crate::dpor::sleep::{SleepSet, Step};
use crate::dpor::{virtual_memory, Equivalent, LineNine, NewEvent, Parts, Race, Reduction};
use crate::executor::Event;
use crate::report::Pruning;
use crate::state::State;
use frontend::ics::ResolvedIcs;
use frontend::ir::{BlockId, GlobalId, Program};
use frontend::memory::{Loc, Memory};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct Constrained {
    ics: Arc<ResolvedIcs>,
    /// CSDPOR's additions, used where no constraint decides.
    context: ContextSensitive,
    /// The `e` of the race line 9 just proved independent (`e R n`).
    proved: Option<usize>,
    /// Line 11's question for the race line 9 last decided, `(e, n, answer)`, where
    /// line 9 answered it on the way ([`Constrained::guarded_independence`]).
    after_u: Option<(usize, usize, Commute)>,
    /// The group of guarded independences the newest event joined while line 9
    /// analyses its races ([`guarded_group`]).
    joined: Option<Vec<usize>>,
    /// Line 9 also with constraints that read the state: globals private to the pair
    /// (see [`commute_as_events`]) and guarded independences: not in an optimal
    /// search (see [`Constrained::optimal`]).
    reads_state: bool,
}

impl Constrained {
    pub fn new(ics: Arc<ResolvedIcs>, context: ContextSensitive) -> Self {
        Constrained {
            ics,
            context,
            proved: None,
            after_u: None,
            joined: None,
            reads_state: true,
        }
    }

    /// For an optimal search (`ocdpor`): line 9 only with constraints that hold
    /// whatever the state, which its weak initials and sleep sets, which see no race,
    /// can use too (with the others, the races' relation would be finer than theirs,
    /// and its explorations would end blocked).
    pub fn optimal(ics: Arc<ResolvedIcs>, context: ContextSensitive) -> Self {
        Constrained {
            reads_state: false,
            ..Constrained::new(ics, context)
        }
    }

    /// `U⇒(I, x, y, state)` (Def. 4): some constraint of the pair (block of `x`, block
    /// of `y`) holds in `state`, where `x` and `y` are processes (indices into
    /// `state`) at those blocks, and no other enabled process (`enabled`) may
    /// invalidate it: `G(C) ∩ ⋃ W(t̄) = ∅`.
    fn holds_uniformly(
        &self,
        program: &Program,
        state: &State,
        (x, y): (usize, usize),
        enabled: &[usize],
    ) -> bool {
        let (Some(bx), Some(by)) = (state.procs[x].next, state.procs[y].next) else {
            return false;
        };
        let Some((pair, swapped)) = self.ics.pair(bx, by) else {
            return false;
        };
        let (a, b) = if swapped { (y, x) } else { (x, y) };
        let (la, lb) = (&state.procs[a].locals, &state.procs[b].locals);
        let others_write = self.written_by(state, enabled, x, y);
        pair.constraints.iter().any(|c| {
            let uniform = match &others_write {
                None => c.globals.is_empty(),
                Some(w) => c.globals.is_disjoint(w),
            };
            uniform && c.holds(program, &state.mem, la, lb)
        })
    }

    /// `⋃ W(t̄)` over the enabled processes other than `x` and `y` (`None`: some
    /// block's W is unknown, i.e. everything).
    fn written_by(
        &self,
        state: &State,
        enabled: &[usize],
        x: usize,
        y: usize,
    ) -> Option<BTreeSet<GlobalId>> {
        let mut all = BTreeSet::new();
        for &t in enabled.iter().filter(|&&t| t != x && t != y) {
            let block: BlockId = state.procs[t].next?;
            all.extend(self.ics.may_write.get(block as usize)?.as_ref()?);
        }
        Some(all)
    }

    /// The steps of `û`: the events after `e` that happen before `n` (`dep(E, e, n)`,
    /// line 8), with the footprints they had in `E`, then `n` and `e` with their
    /// transition footprints (their processes' local states are those of `E`: what
    /// happens before them is in `E'.û`).
    fn reversed_steps(r: &Race<'_, '_>, u: &[usize]) -> Vec<Step> {
        let footprints = u
            .iter()
            .map(|&i| r.events[i].footprint.clone())
            .chain([r.transition_footprint(r.n()), r.transition_footprint(r.e)]);
        let racing = [r.n(), r.e];
        u.iter()
            .chain(&racing)
            .map(|&i| r.events[i].proc)
            .zip(footprints)
            .map(|(proc, footprint)| Step {
                process: r.state.procs[proc].pid_key,
                footprint,
            })
            .collect()
    }

    /// Whether both racing events may run in `s[E'.û]` and a constraint of their
    /// blocks holds there (a constraint speaks of states where both may run, Def. 1
    /// (i2)), or, where line 9 ran both orders there, they ended alike. `e`'s and `n`'s
    /// processes are at their blocks with the locals the events started with. `None`
    /// when the memory cannot be had ([`memory_after_u`]).
    fn holds_after_u(&self, r: &mut Race<'_, '_>, u: &[usize]) -> Option<Commute> {
        if let Some((_, _, answer)) = self.after_u.filter(|a| (a.0, a.1) == (r.e, r.n())) {
            return Some(answer);
        }
        let (e, n) = (&r.events[r.e], &r.events[r.n()]);
        let (le, ln) = (r.ex.entry_locals(r.e), r.ex.entry_locals(r.n()));
        let mem = memory_after_u(r, u)?;
        let enabled = |block, locals| r.ex.machine.enabled(block, &mem, locals) == Ok(true);
        let holds = enabled(e.block, le)
            && enabled(n.block, ln)
            && (self.ics.holding(r.program, &mem, e.block, le, n.block, ln)).is_some();
        Some(match holds {
            true => Commute::ByConstraint,
            false => Commute::No,
        })
    }

    /// Whether the race `r` is a guarded independence ([`crate::dependency::guarded`],
    /// conditions 1, 2 and 4; the caller keeps 3): how it was shown, and the locations
    /// the pair is closed on ([`HappensBefore::closed_to`]), if it is.
    fn guarded_independence(&mut self, r: &mut Race<'_, '_>) -> Option<(Commute, Vec<Loc>)> {
        let (e, n) = (r.e, r.n());
        let (x, y) = (&r.events[e], &r.events[n]);
        // 4.: `e`, run first, spawned nothing; it ran so in `s[E'.û]` too (no event of
        // `û` conflicts with it). Events that carry what they touched may touch more
        // after the swap: not for this rule.
        if x.spawned.0 != x.spawned.1 || x.own_accesses || y.own_accesses {
            return None;
        }
        // 2., at the grain of globals, before any memory is computed: only constraints
        // over globals `n` may read can serve.
        let mut read: Vec<GlobalId> = y.footprint.reads.iter().map(|l| l.global).collect();
        read.dedup();
        let read_by_n = move |g: GlobalId| read.contains(&g);
        let blocks = (x.block, y.block);
        let relation = r.dependency.relation_r()?.relation(r.program);
        let may_hold = relation.may_hold(blocks.0, blocks.1, &read_by_n).is_some();
        // Without a constraint, both orders are run (condition 1 by running): only
        // where neither enables or disables the other, and where the pair's
        // constraints are not exact (exact ones hold wherever the two commute: where
        // none holds, running both orders would show only that they do not).
        // Condition 2 before running, at the grain of what the two conflict on: a
        // location one may write and the other may read is read by the second's run,
        // in all likelihood, so the first must be able to read it too. Giving up where
        // that fails is sound (the race is reversed), and spares the runs where it
        // would fail (DB_backup(10): 22% of cdpor's time without it).
        let writes_read = |a: &Footprint, b: &Footprint| {
            let read_by_b = |l: &&Loc| b.reads.binary_search(l).is_ok();
            (a.writes.iter().filter(read_by_b)).all(|l| a.reads.binary_search(l).is_ok())
        };
        let exact = (self.ics.pair(blocks.0, blocks.1)).is_some_and(|(pair, _)| pair.exact);
        let may_run = !exact
            && relation.guards_apart(blocks.0, blocks.1)
            && writes_read(&x.footprint, &y.footprint)
            && writes_read(&y.footprint, &x.footprint);
        if !may_hold && !may_run {
            return None;
        }
        let u = crate::dependency::races::dep_before(r.events, r.hb, e);
        let mem = memory_after_u(r, &u)?;
        let (x, y) = (&r.events[e], &r.events[n]);
        let (lx, ly) = (r.ex.entry_locals(e), r.ex.entry_locals(n));
        let enabled = |block, locals| r.ex.machine.enabled(block, &mem, locals) == Ok(true);
        if !(enabled(x.block, lx) && enabled(y.block, ly)) {
            self.after_u = Some((e, n, Commute::No));
            return None;
        }
        let relation = r.dependency.relation_r()?.relation(r.program);
        let held = may_hold
            .then(|| relation.holding_at(r.program, &mem, (x.block, lx), (y.block, ly), &read_by_n))
            .flatten();
        let run = || guarded::commute_by_running(&r.ex.machine, &mem, (x.block, lx), (y.block, ly));
        let shown = match held {
            Some(locations) => Some((Commute::ByConstraint, locations)),
            None => (may_run.then(run).flatten()).map(|locations| (Commute::ByRunning, locations)),
        };
        // Line 11's question (`holds_after_u`), answered once for both lines.
        let answer = match &shown {
            Some((how, _)) => *how,
            None if (self.ics.holding(r.program, &mem, x.block, lx, y.block, ly)).is_some() => {
                Commute::ByConstraint
            }
            None => Commute::No,
        };
        self.after_u = Some((e, n, answer));
        let (how, locations) = shown?;
        let closed = guarded::read_by_later(r.events, r.hb, (e, n), &locations)?;
        // 4.: `n`, run first there, spawns nothing (both orders ran so already).
        let first =
            how == Commute::ByRunning || r.ex.completes_without_spawning(mem, y.block, ly)?;
        first.then_some((how, closed))
    }
}

impl Constrained {
    /// Whether the race `r` may be recorded as `n` joining a group of guarded
    /// independences ([`guarded_group`]): the members, if it may. They are `n`, `e`
    /// and every event linked to either by guarded independences already recorded.
    fn group_independence(&self, r: &mut Race<'_, '_>) -> Option<Vec<usize>> {
        const MOST_MEMBERS: usize = 64;
        let (e, n) = (r.e, r.n());
        let mut members = vec![n];
        for &m in std::iter::once(&e).chain(&r.recorded.guarded) {
            linked(r.hb, n, m, &mut members);
        }
        members.sort_unstable();
        let events = r.events;
        let first = members[0];
        let reads = &events[first].footprint.reads;
        let own = members.len() <= MOST_MEMBERS
            && members.iter().all(|&m| {
                let x = &events[m];
                let writes_within = |l: &frontend::memory::Loc| {
                    crate::dependency::footprint::intersects(std::slice::from_ref(l), reads)
                };
                // 1. and 2.
                !x.failed
                    && !x.own_accesses
                    && x.footprint.reads == *reads
                    && !x.footprint.writes.is_empty()
                    && x.footprint.writes.iter().all(writes_within)
                    && members.iter().all(|&o| o == m || events[o].proc != x.proc)
            })
            // 3.
            && r.recorded.independent.iter().all(|i| members.contains(i))
            && (members.iter().filter(|&&m| m != n))
                .all(|&m| r.hb.independent_of(m).iter().all(|i| members.contains(i)));
        // 4.
        let apart = || {
            let touches = |x: &Event| {
                let f = &x.footprint;
                crate::dependency::footprint::intersects(&f.reads, reads)
                    || crate::dependency::footprint::intersects(&f.writes, reads)
            };
            (first..n).all(|i| members.contains(&i) || !touches(&events[i]))
        };
        if !own || !apart() {
            return None;
        }
        // 5., from `s[pre(E, g₁)]`.
        let steps: Vec<_> = (members.iter())
            .map(|&m| (events[m].block, r.ex.entry_locals(m)))
            .collect();
        let mem = &r.snapshots[first].mem;
        guarded_group::commute_as_group(&r.ex.machine, mem, &steps).then_some(members)
    }
}

/// Whether event `e` belongs to a group of guarded independences: linked by them to
/// an event recorded independent of two or more (a pair gives one to its event).
fn in_group(hb: &HappensBefore, e: usize) -> bool {
    if hb.in_groups() == 0 {
        return false;
    }
    let mut linked_to_e = Vec::new();
    linked(hb, hb.depth(), e, &mut linked_to_e);
    linked_to_e.iter().any(|&m| hb.guarded_of(m).len() >= 2)
}

/// Adds to `into` event `m` and every event before `end` linked to it by guarded
/// independences recorded in `hb`, in either direction.
fn linked(hb: &HappensBefore, end: usize, m: usize, into: &mut Vec<usize>) {
    let mut todo = vec![m];
    while let Some(x) = todo.pop() {
        if into.contains(&x) {
            continue;
        }
        into.push(x);
        todo.extend(hb.guarded_of(x));
        todo.extend((x + 1..end).filter(|&y| hb.guarded_of(y).contains(&x)));
    }
}

/// Whether two racing events commute in `s[E'.û]`, and what showed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Commute {
    No,
    /// A constraint of their blocks holds there.
    ByConstraint,
    /// Both orders ran from there and ended alike
    /// ([`guarded::commute_by_running`]): a state check, made eagerly.
    ByRunning,
}

impl Commute {
    /// Counts a sleep entry this proved: by a constraint, or by a state check.
    fn count_sleep(self, pruning: &mut Pruning) {
        match self {
            Commute::ByRunning => pruning.sleep_added_by_states += 1,
            _ => pruning.sleep_added_by_ics += 1,
        }
    }
}

impl Reduction for Constrained {
    fn name(&self) -> &'static str {
        "cdpor"
    }

    fn parts(&self) -> Parts {
        Parts {
            states: self.context.states(),
            independence: Independence::Constrained(self.ics.clone()),
            ..Parts::SOURCE_DPOR
        }
    }

    /// Line 9: reverse the race unless its two events commute whatever the state
    /// (`e R n`, see [`crate::dependency::constraints`]) or, outside an optimal
    /// search, a constraint holds in what every linearisation meets them in, or both
    /// orders run from there end alike ([`crate::dependency::guarded`]). Failed
    /// events and probes never commute.
    /// A guarded independence is the only one recorded for `n` (the rule's
    /// condition 3), or `n` joins a group of them ([`guarded_group`]).
    fn line_nine(&mut self, r: &mut Race<'_, '_>) -> LineNine {
        let (e, n) = (r.e, r.n());
        self.after_u = None;
        let failed = r.events[e].failed || r.events[n].failed;
        if r.recorded.guarded.is_empty() {
            self.joined = None;
        }
        // A group is formed once for `n`; its other members race with `n` in turn.
        let joined = self.joined.as_ref().is_some_and(|g| g.contains(&e));
        let grouped = self.reads_state && !failed && in_group(r.hb, e);
        let verdict = if failed {
            LineNine::Reverse
        } else if joined {
            r.stats.pruning.races_guarded_in_groups += 1;
            LineNine::Guarded { closed: Vec::new() }
        } else if grouped || !r.recorded.guarded.is_empty() {
            // Condition 3 of the pair rule, and of the group rule: the race is a
            // guarded independence only within a group ([`guarded_group`]).
            match self.group_independence(r) {
                Some(members) => {
                    r.stats.pruning.races_guarded_in_groups += 1;
                    self.after_u = Some((e, n, Commute::ByRunning));
                    self.joined = Some(members);
                    LineNine::Guarded { closed: Vec::new() }
                }
                None => LineNine::Reverse,
            }
        } else if commute_as_events(r, self.reads_state) {
            LineNine::Independent
        } else if self.reads_state
            && r.recorded.independent.is_empty()
            && !r.hb.closed_to(e, &r.events[n].footprint.writes)
        {
            match self.guarded_independence(r) {
                Some((how, closed)) => {
                    let ran = how == Commute::ByRunning;
                    r.stats.pruning.races_guarded_by_running += u64::from(ran);
                    LineNine::Guarded { closed }
                }
                None => LineNine::Reverse,
            }
        } else {
            LineNine::Reverse
        };
        let independent = verdict != LineNine::Reverse;
        r.stats.pruning.races_pruned_by_ics += u64::from(independent);
        r.stats.pruning.races_guarded_by_ics +=
            u64::from(matches!(verdict, LineNine::Guarded { .. }));
        self.proved = independent.then_some(e);
        verdict
    }

    /// Lines 11–14: with both events enabled in `s[E'.û]` and a constraint holding
    /// there, `û.p.ê` joins `sleep(E')`: the constraint proves `s[E'.û.p.ê] =
    /// s[E'.û.ê.p]`, and `E'.û.ê.p` is equivalent to a prefix of `E.p` (no event of
    /// `û` happens after `e`, or `e` would not race with `n`). Otherwise CSDPOR's
    /// check of the reversed race, unless the pair is exact.
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        if r.events[r.e].failed || r.events[r.n()].failed {
            return None;
        }
        let u = crate::dependency::races::dep_before(r.events, r.hb, r.e);
        // Line 9 proved them independent: `e R n` (they commute wherever both may run,
        // and both may in `s[E'.û]`: neither touches the other's guard), or a
        // constraint holds in `s[E'.û]` with both enabled (a guarded independence): no
        // state to compute.
        if self.proved == Some(r.e) {
            let ran = self.after_u == Some((r.e, r.n(), Commute::ByRunning));
            let how = if ran {
                Commute::ByRunning
            } else {
                Commute::ByConstraint
            };
            how.count_sleep(&mut r.stats.pruning);
            return Some(Equivalent::Proved(Self::reversed_steps(r, &u)));
        }
        r.stats.pruning.ic_checks_line11 += 1;
        match self.holds_after_u(r, &u)? {
            Commute::No => {}
            how => {
                how.count_sleep(&mut r.stats.pruning);
                return Some(Equivalent::Proved(Self::reversed_steps(r, &u)));
            }
        }
        // Where the pair's constraints are exact, none holding says the two do not
        // commute in `s[E'.û]`; csdpor's check, which compares where the reversed
        // sequence and `E.p` end, modulo dead values, could still find them equal.
        // Running it there too takes DBP(8) from 86,198 states to csdpor's 63,816, but
        // FR-a(N) (`tests/tests/dead_values.rs`) from N executions to csdpor's N!: the
        // reader's races, cut, leave it last, where the writes' dead x never meets a
        // check. Neither is a bound of the search; the check stays skipped.
        let blocks = (r.events[r.e].block, r.events[r.n()].block);
        if self
            .ics
            .pair(blocks.0, blocks.1)
            .is_some_and(|(pair, _)| pair.exact)
        {
            return None;
        }
        self.context.sleep_after_race(r)
    }

    /// CSDPOR's sequence ([`ContextSensitive`]): the pair is no race, and no
    /// constraint speaks of it.
    fn sleep_before_disabler(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        self.context.sleep_before_disabler(r)
    }

    /// Line 17: a sleeping step `x` stays asleep after `n` when both are enabled in
    /// `s[E]` and `U⇒(I_{n̄,m̄}, n, m, s[E])` for its next event `m` (the constraint
    /// proves `s[E.n.x] = s[E.x.n]`, and `E.x` is covered); its footprint from then
    /// on is its transition footprint (`n` does not change `x`'s locals). Otherwise CSDPOR's commutation check, when enabled.
    fn keep_asleep(&mut self, a: &mut NewEvent<'_, '_>, x: &Step) -> Option<Footprint> {
        let find = |k| a.before.procs.iter().position(|p| p.pid_key == k);
        let (n, m) = (find(a.p)?, find(x.process)?);
        a.stats.pruning.ic_checks_line17 += 1;
        // Both guards must hold in `s[E]` for the constraint to speak of them: a guard
        // that cannot be evaluated (`head([])`) lets its process run — and fail — but
        // the constraint was synthesised for runs without failure.
        let runs = |i: usize| {
            let p = &a.before.procs[i];
            p.next
                .is_some_and(|b| a.ex.machine.enabled(b, &a.before.mem, &p.locals) == Ok(true))
        };
        if runs(n) && runs(m) && self.holds_uniformly(a.program, a.before, (n, m), a.enabled_before)
        {
            let x = &a.before.procs[m];
            return Some(a.ex.transition(x.next?, &x.locals));
        }
        self.context.keep_asleep(a, x)
    }

    fn cut(
        &mut self,
        program: &Program,
        state: &State,
        enabled: &[usize],
        sleep: &SleepSet,
        events: &[Event],
    ) -> bool {
        self.context.cut(program, state, enabled, sleep, events)
    }
}

/// CDPOR Alg. 1, line 9, for the race `r` of two events that did not fail: whether
/// they commute whatever the state (`R`, [`crate::dependency::constraints`]), counted
/// in the statistics.
///
/// `private`: also with globals private to the pair (see the module's doc of
/// [`crate::dependency::constraints`]).
fn commute_as_events(r: &mut Race<'_, '_>, private: bool) -> bool {
    let (e, n) = (&r.events[r.e], &r.events[r.n()]);
    r.stats.pruning.ic_checks_line9 += 1;
    let n_index = r.n();
    let x = (e.block, r.ex.entry_locals(r.e));
    let y = (n.block, r.ex.entry_locals(n_index));
    let Some(relation) = r.dependency.relation_r() else {
        return false;
    };
    let independent = if private {
        let between = &r.events[r.e + 1..n_index];
        let written_between = |g: GlobalId| {
            between
                .iter()
                .any(|m| m.footprint.writes.iter().any(|l| l.global == g))
        };
        relation.relation(r.program).commute_where_they_meet(
            r.program,
            &r.snapshots[r.e].mem,
            x,
            y,
            &written_between,
        )
    } else {
        relation.commute(r.program, x, y)
    };
    independent
}

/// The memory of `s[E'.û]` for the race `r`: computed without running anything when
/// it can be (see [`virtual_memory`]), else `û` is replayed from the snapshot of `E'`.
/// `None` when the replay fails.
fn memory_after_u(r: &mut Race<'_, '_>, u: &[usize]) -> Option<Memory> {
    match virtual_memory(r.ex, r.hb, r.e, u) {
        Some(mem) => Some(mem),
        None => Some(r.replay_from_prefix(&r.processes(u))?.0.mem),
    }
}
