//! `cdpor`: Constrained DPOR (Albert, Gómez-Zamalloa, Isabel, Rubio, CAV'18, Alg. 1).
//! Independence constraints (ICs) synthesised before exploration prune at three
//! points of the Source-DPOR skeleton:
//! - line 9, back-set reduction: a race is not reversed when its two events commute
//!   whatever the state (a constraint over their locals and constant globals, see
//!   [`crate::independence`] for why the paper's `U⇒` is not enough), and the
//!   independence is recorded in happens-before (Sec. 3.3);
//! - lines 11–13: when a constraint holds in `s[E'.û]` with both events enabled there,
//!   `û.p.ê` joins `sleep(E')` without running anything; otherwise CSDPOR's state check
//!   (line 14), skipped for pairs whose constraints are exact (necessary as well as
//!   sufficient);
//! - line 17, sleep-set extension: a sleeping step stays asleep after `n` when both
//!   are enabled in `s[E]` and uniformly independent there (`U⇒`).
//!
//! Lines 11–13 and 17 rest on state equality (`s[E.x.n] = s[E.n.x]`), as CSDPOR's
//! Lemma 1 does, and apply with any constraint; line 9 changes the dependency
//! relation itself and applies in both `--deps` modes, with the constraints that make
//! it a property of the two events.

use crate::csdpor::ContextSensitive;
use crate::dpor::{Around, Equivalent, Race, Reduction};
use crate::executor::Event;
use crate::footprint::Footprint;
use crate::independence::Independence;
use crate::sleep::{SleepSet, Step};
use crate::state::State;
use frontend::ics::ResolvedIcs;
use frontend::ir::{BlockId, GlobalId, Program};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct Constrained {
    ics: Arc<ResolvedIcs>,
    /// CSDPOR's additions, used where no constraint decides.
    context: ContextSensitive,
    /// Line 9's relation: events that commute whatever the state (built on first use).
    independence: Option<Independence>,
}

impl Constrained {
    pub fn new(ics: Arc<ResolvedIcs>, context: ContextSensitive) -> Self {
        Constrained {
            ics,
            context,
            independence: None,
        }
    }

    /// Some constraint of the pair (block of `x`, block of `y`) holds in `state`, where
    /// `x` and `y` are processes (indices into `state`) at those blocks; with
    /// `uniform`, only a constraint that no other enabled process (`enabled`) may
    /// invalidate counts: `G(C) ∩ ⋃ W(t̄) = ∅` (Def. 4, `U⇒`).
    fn holds(
        &self,
        program: &Program,
        state: &State,
        (x, y): (usize, usize),
        uniform: Option<&[usize]>,
    ) -> bool {
        let (Some(bx), Some(by)) = (state.procs[x].next, state.procs[y].next) else {
            return false;
        };
        let Some((pair, swapped)) = self.ics.pair(bx, by) else {
            return false;
        };
        let (a, b) = if swapped { (y, x) } else { (x, y) };
        let (la, lb) = (&state.procs[a].locals, &state.procs[b].locals);
        let others_write = uniform.map(|enabled| self.written_by(state, enabled, x, y));
        pair.constraints.iter().any(|c| {
            let uniform_ok = match &others_write {
                None => true,
                Some(None) => c.globals.is_empty(),
                Some(Some(w)) => c.globals.is_disjoint(w),
            };
            uniform_ok && c.holds(program, &state.mem, la, lb)
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

    /// `s[E'.û]` for the race and the steps of `û`: the events after `e` that happen
    /// before `n` (`dep(E, e, n)`, line 8), with the footprints they had in `E`.
    fn state_after_u(r: &mut Race<'_, '_>) -> Option<(State, Vec<Step>)> {
        let u = crate::race::dep_before(r.events, r.hb, r.e);
        let keys = r.processes(&u);
        let (state, _) = r.replay_from_prefix(&keys)?;
        let steps = u
            .iter()
            .zip(keys)
            .map(|(&i, process)| Step {
                process,
                footprint: r.events[i].footprint.clone(),
            })
            .collect();
        Some((state, steps))
    }

    /// The processes of `e` and `n` in `state`.
    fn racing(r: &Race<'_, '_>, state: &State) -> Option<(usize, usize)> {
        let key = |i: usize| r.state.procs[r.events[i].proc].pid_key;
        let find = |k| state.procs.iter().position(|p| p.pid_key == k);
        Some((find(key(r.e))?, find(key(r.n()))?))
    }
}

impl Reduction for Constrained {
    fn name(&self) -> &'static str {
        "cdpor"
    }

    fn snapshots(&self) -> bool {
        true
    }

    /// Line 9: reverse the race unless its two events commute whatever the state
    /// (`e R n`, see [`crate::independence`]). Failed events and probes never do.
    fn must_reverse(&mut self, r: &mut Race<'_, '_>) -> bool {
        let (e, n) = (&r.events[r.e], &r.events[r.n()]);
        if e.failed || n.failed {
            return true;
        }
        r.stats.pruning.ic_checks_line9 += 1;
        let ics = &self.ics;
        let independence = self
            .independence
            .get_or_insert_with(|| Independence::new(r.program, ics.clone()));
        let independent = independence.commute(
            r.program,
            &r.state.mem,
            (e.block, r.ex.entry_locals(r.e)),
            (n.block, r.ex.entry_locals(r.n())),
        );
        r.stats.pruning.races_pruned_by_ics += u64::from(independent);
        !independent
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
        let (state, mut steps) = Self::state_after_u(r)?;
        let (e, n) = Self::racing(r, &state)?;
        r.stats.pruning.ic_checks_line11 += 1;
        // A constraint speaks of states where both blocks may run (Def. 1, (i2)).
        let enabled = |i: usize| {
            let p = &state.procs[i];
            p.next
                .is_some_and(|b| r.ex.machine.enabled(b, &state.mem, &p.locals) == Ok(true))
        };
        if enabled(e) && enabled(n) && self.holds(r.program, &state, (e, n), None) {
            for i in [r.n(), r.e] {
                let event = &r.events[i];
                steps.push(Step {
                    process: r.state.procs[event.proc].pid_key,
                    // Its footprint in that position was never observed: its block's.
                    footprint: r.block_footprint(i),
                });
            }
            r.stats.pruning.sleep_added_by_ics += 1;
            return Some(Equivalent::Proved(steps));
        }
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

    /// Line 17: a sleeping step `x` stays asleep after `n` when both are enabled in
    /// `s[E]` and `U⇒(I_{n̄,m̄}, n, m, s[E])` for its next event `m` (the constraint
    /// proves `s[E.n.x] = s[E.x.n]`, and `E.x` is covered); its footprint from then
    /// on is its block's. Otherwise CSDPOR's commutation check, when enabled.
    fn keep_asleep(&mut self, a: &mut Around<'_, '_>, x: &Step) -> Option<Footprint> {
        let find = |k| a.before.procs.iter().position(|p| p.pid_key == k);
        let (n, m) = (find(a.p)?, find(x.process)?);
        a.stats.pruning.ic_checks_line17 += 1;
        // Both must be able to run in `s[E]` for the constraint to speak of them.
        let both = a.enabled_before.contains(&n) && a.enabled_before.contains(&m);
        if both && self.holds(a.program, a.before, (n, m), Some(a.enabled_before)) {
            let block = a.before.procs[m].next?;
            return Some(a.ex.block_footprint(block).clone());
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

    fn guided(&self) -> bool {
        true
    }
}
