//! `cdpor`: Constrained DPOR (Albert, Gómez-Zamalloa, Isabel, Rubio, CAV'18, Alg. 1).
//! Independence constraints (ICs) synthesised before exploration prune at three
//! points of the Source-DPOR skeleton:
//! - line 9, back-set reduction: a race is not reversed when a constraint holds in
//!   `s[E'.û]` *uniformly* (`U⇒`, Def. 4), and the independence is recorded in
//!   happens-before;
//! - lines 11–13: when a constraint holds in `s[E'.û]`, `û.p.ê` joins `sleep(E')`
//!   without running anything; otherwise CSDPOR's state check (line 14), skipped for
//!   pairs whose constraints are exact (necessary as well as sufficient);
//! - line 17, sleep-set extension: a sleeping step stays asleep after `n` when it is
//!   uniformly independent of `n` in `s[E]`.
//!
//! Line 9 is sound only over an unconditional base dependency, as the paper assumes
//! (Thm. 2): with `--deps static`. Dynamic footprints are conditional independences
//! themselves — in Ex. 4 (z = -1), q reads only z in p.q.r, so p and q never race,
//! and Source-DPOR reaches r.q.p only through the reversal of (q, r) at `p`, which
//! line 9 would prune since q and r commute there uniformly. So with dynamic
//! dependencies every race is reversed; lines 11–13 and 17 rest on state equality
//! (like CSDPOR's Lemma 1) and apply in both modes.

use crate::csdpor::ContextSensitive;
use crate::dpor::{Around, Equivalent, Race, Reduction};
use crate::executor::Event;
use crate::footprint::Footprint;
use crate::sleep::{SleepSet, Step};
use crate::state::State;
use crate::Deps;
use frontend::ics::ResolvedIcs;
use frontend::ir::{BlockId, GlobalId, Program};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct Constrained {
    ics: Arc<ResolvedIcs>,
    /// CSDPOR's additions, used where no constraint decides.
    context: ContextSensitive,
    /// `s[E'.û]` of the race being analysed (by `e`) and the steps of `û`, computed
    /// once for lines 9 and 11.
    after_u: Option<(usize, State, Vec<Step>)>,
    /// Line 9's back-set reduction: only over static dependencies (see above).
    reduce_back_sets: bool,
}

impl Constrained {
    pub fn new(ics: Arc<ResolvedIcs>, context: ContextSensitive, deps: Deps) -> Self {
        Constrained {
            ics,
            context,
            after_u: None,
            reduce_back_sets: deps == Deps::Static,
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
    fn state_after_u(&mut self, r: &mut Race<'_, '_>) -> Option<(State, Vec<Step>)> {
        if let Some((e, state, steps)) = self.after_u.take() {
            if e == r.e {
                return Some((state, steps));
            }
        }
        let u = crate::race::dep_before(r.events, r.hb, r.e);
        let keys = r.processes(&u);
        let (state, _) = r.run_from_prefix(&keys)?;
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

    /// Line 9: reverse the race unless `U⇒(I_{ē,n̄}, e, n, s[E'.û])`.
    fn must_reverse(&mut self, r: &mut Race<'_, '_>) -> bool {
        self.after_u = None;
        if !self.reduce_back_sets {
            return true;
        }
        let Some((state, steps)) = self.state_after_u(r) else {
            return true;
        };
        let Some((e, n)) = Self::racing(r, &state) else {
            return true;
        };
        let mut enabled = Vec::new();
        let ex = r.ex.fork(state);
        ex.enabled(&mut enabled);
        let uniform = self.holds(r.program, &ex.state, (e, n), Some(&enabled));
        self.after_u = Some((r.e, ex.state, steps));
        r.stats.pruning.races_pruned_by_ics += u64::from(uniform);
        !uniform
    }

    /// Lines 11–14: with a constraint holding in `s[E'.û]`, `û.p.ê` joins `sleep(E')`;
    /// otherwise CSDPOR's check of the reversed race, unless the pair is exact.
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        let (state, mut steps) = self.state_after_u(r)?;
        let (e, n) = Self::racing(r, &state)?;
        if self.holds(r.program, &state, (e, n), None) {
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

    /// Line 17: a sleeping step `x` stays asleep after `n` when `U⇒(I_{n̄,m̄}, n, m,
    /// s[E])` for its next event `m`; its footprint from then on is its block's.
    /// Otherwise CSDPOR's commutation check, when enabled.
    fn keep_asleep(&mut self, a: &mut Around<'_, '_>, x: &Step) -> Option<Footprint> {
        let find = |k| a.before.procs.iter().position(|p| p.pid_key == k);
        let (n, m) = (find(a.p)?, find(x.process)?);
        if self.holds(a.program, a.before, (n, m), Some(a.enabled_before)) {
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
