//! `await`s in races. A process blocked at a guard takes part in races through a
//! probe of its guard; a race of an `await` may be irreversible (the guard cannot
//! pass earlier), or need the process's earlier steps first (the climb); and an
//! `await` asks to run before the writes that disabled it, where the events between
//! make its guard true.

use super::alternatives::{memory_after, replayed_memory, virtual_memory};
use super::reduction::Reduction;
use super::wakeup::waits;
use super::Dpor;
use crate::dependency::footprint::{intersects, Footprint};
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::leaving_out::without_some_writes_of;
use crate::executor::{Event, Executor};
use crate::exploration::Exploration;
use crate::state::State;
use frontend::memory::Loc;

/// What a race of an `await` (or of a probe) with an earlier event can add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AwaitRace {
    /// The await can run before the earlier event: an ordinary race.
    Reversible,
    /// It cannot, and nothing is gained by trying.
    InVain,
    /// It cannot, but running the process's earlier steps sooner brings it to the
    /// `await` where a probe races with an earlier write.
    Climb,
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
/// (`tests/regressions/irreversible_await_race_still_climbs.ic`,
/// `tests/regressions/probe_two_falsifying_writes.ic`); and its initial may be an event of
/// another process that wrote what the guard reads, after which the process waits
/// at the guard in a state not yet probed
/// (`tests/regressions/sdpor_climbs_when_notdep_writes_what_the_guard_reads.ic`). So the
/// race is skipped only when neither can happen: no event of another process in
/// `notdep(e, E)` wrote what the guard reads, and every earlier step of the
/// process, and the event that created it, is in `E'` (it already waited at this
/// guard there, and was probed there; a process whose creator ran after `e` had
/// not: sdpor missed 2 of 4 traces so,
/// `tests/regressions/sdpor_climbs_with_the_creator_of_an_await.ic`), or no event of
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
/// (`tests/regressions/ocdpor_replays_notdep_where_r_hides_the_memory_of_an_await_race.ic`).
pub(super) fn await_race(
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
    // (`tests/regressions/sdpor_climbs_past_a_short_circuit_guard.ic`). That is a probe's
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
    // `tests/regressions/sdpor_climbs_when_notdep_writes_what_the_guard_reads.ic`). Also
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

impl<R: Reduction> Dpor<R> {
    /// Processes blocked on an `await` take part in races too: the event that made
    /// the guard false must be reversed so that the process may run before it. For
    /// each disabled process whose guard reads what the newest event wrote, or which
    /// has just reached its blocked block, a probe event (the guard's reads) is
    /// analysed like a real one, then stepped back.
    pub(super) fn probe_disabled(&mut self, run: &mut Exploration<'_, '_>) {
        let newest = run.ex.events().len() - 1;
        for r in 0..run.ex.state.procs.len() {
            // `enabled` is in increasing order (`Executor::enabled`).
            if run.ex.state.procs[r].next.is_none() || self.enabled.binary_search(&r).is_ok() {
                continue;
            }
            // Its races changed if the newest event wrote what the guard reads, or if
            // the process just arrived at this block (ran it, or was spawned at it).
            // They are also analysed again after an event the whole block conflicts
            // with: reversing the race that disabled it now needs that event first
            // (it joins `notdep`, and runs before the block). The whole block's
            // transition footprint holds what its guard may read, so that one
            // conflict decides both, before the probe is run.
            let last = &run.ex.events()[newest];
            let arrived = last.precedes_process(r);
            if !arrived
                && !run
                    .ex
                    .with_next_transition(r, |whole| last.footprint.conflicts(whole))
            {
                continue;
            }
            run.ex.probe(r);
            run.stats.pruning.probes += 1;
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            self.analyse_races(run, false);
            self.pass_disabling_writes(run);
            self.hb.pop();
            run.ex.back();
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
    /// (`tests/regressions/odpor_passes_only_writes_its_await_could_precede_generated.ic`).
    ///
    /// The race of `n` with the last such write is analysed as any race; the earlier
    /// ones are not races (the later writes stand between), yet reversing them is the
    /// only way to run `n` before them: after p@1's y = 2 and p@2's y = 0, an
    /// `await (y == 1)` of a process q creates after both is reached only by running
    /// q (and its spawn) before p@1 — every algorithm missed that final state
    /// (`tests/regressions/an_await_behind_two_writes_of_its_creator_s_rival.ic`). In optimal
    /// searches an `await` event that runs asks too: the probe right after `e0` asked
    /// with the `notdep` of that moment, and the events that enable `n` may come later
    /// (`tests/regressions/odpor_misses_a_trace_behind_a_disabling_write.ic`,
    /// `tests/regressions/odpor_probe_passes_the_writes_that_disabled_it.ic`). Each sequence
    /// goes through the usual redundancy checks, so only traces not covered yet are
    /// added. Failed `await` events too: a guard that fails (`head` of a list the
    /// write emptied) passes before the write that made it false, and only this asks
    /// for it — its race with the write that made it fail cannot pass there (odpor
    /// completed none of 2 traces, missing the final state:
    /// `tests/regressions/odpor_a_failed_await_passes_the_writes_that_disabled_it.ic`).
    pub(super) fn pass_disabling_writes(&mut self, run: &mut Exploration<'_, '_>) {
        let hb = std::mem::take(&mut self.hb);
        self.pass_disabling_writes_over(run, &hb);
        self.hb = hb;
    }

    /// [`Dpor::pass_disabling_writes`] over a given happens-before (the observers'
    /// order at the end of an execution, [`Dpor::observed_races`]).
    pub(super) fn pass_disabling_writes_over(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
    ) {
        let n = run.ex.events().len() - 1;
        self.pass_disabling_writes_at(run, hb, n);
    }

    /// [`Dpor::pass_disabling_writes_over`] for event `n` of the execution, which
    /// need not be its last: a real `await` of an ended execution, over `→ob`
    /// ([`Dpor::observed_races`]).
    pub(super) fn pass_disabling_writes_at(
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
        let anchor = events[..n].iter().rposition(|ev| ev.precedes_process(proc));
        let optimal = self.parts.optimal();
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
            // (`tests/regressions/ocdpor_leaves_out_a_write_r_moved_before_its_guard.ic`).
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
            // (`tests/regressions/sdpor_an_await_after_a_later_write_of_its_guard.ic`). So
            // does an event of `notdep` that conflicts with the block behind the
            // guard, which that probe, right after the write, did not have before
            // it: p's `await (x != 1); y = 0` after a q's `x = 1`, asleep there since
            // it ran at the node before, and r's read of y after that write: only
            // this asks for r before p's block
            // (`tests/regressions/sdpor_an_await_behind_a_reader_of_its_block.ic`).
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
            // `tests/regressions/sdpor_an_await_enabled_after_the_writes_that_follow.ic`).
            // In an optimal search, judged on `s[E'.v]` replayed from the snapshot
            // where `R` hides it from the undo log, as `await_race` judges the race
            // (without it, ocdpor lost a final state: the race took the replay, this
            // did not: `tests/regressions/ocdpor_replays_the_writes_that_disabled_it.ic`).
            let prefix = self.snapshots.get(e0).filter(|_| optimal);
            let mut replayed = 0;
            // A guard that faults there passes too: the block runs and fails, a
            // runtime error to report (odpor missed `head` of an empty list so:
            // `tests/regressions/odpor_an_await_whose_guard_faults_passes_the_writes.ic`).
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
            // (`tests/regressions/a_disabled_await_passes_after_every_write_it_can.ic`).
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
}

/// Whether leaving out some of `rewriters` (and what happens after them) from `v` may
/// change what a guard reads (`reads`, after the whole of `v`; `None`: unknown): an
/// event of `v` that can be left out may write there.
pub(super) fn leaving_out_matters(
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

impl<R: Reduction> Dpor<R> {
    /// CSDPOR lines 11–14 for an `await` event `n` (the newest) that ran after the
    /// event `d` that last disabled its process: `d` is the latest event after which
    /// the process, already at `n`'s block, was no longer enabled. A probe of the
    /// process raced with `d` and asked to run the process at `E' = pre(E, d)`; that
    /// reversal cannot be made in place (after `d` the process waits until some
    /// later event enables it), so the race's own state check, comparing `n` run
    /// right before `d` with the execution, never meets it. Here `n` has run, and the
    /// reduction may put `n.notdep(d, E).dep(d, E)` to sleep at `E'`, having run it
    /// from `s[E']` to `s[E.n]` ([`Reduction::sleep_before_disabler`]).
    ///
    /// Why this is sound: the sequence is every event of `E.n` after `E'`, reordered
    /// so that `d`, the first of them, no longer comes first; CSDPOR's Lemma 1 and
    /// Theorem 1 use nothing else of its `v.u` (an execution blocked after following
    /// it reaches `s[E.n]`, whose continuations `E.n` explores, and `E.n` lies to the
    /// left of every execution the entry blocks, as `E'.d` was explored first). The
    /// state is compared when the entry is made, by running the sequence (the entry
    /// is proved): an execution that follows it with events of other processes
    /// interleaved that commute with its steps reaches the same state after them.
    ///
    /// DBP's worker holds itself from `work`'s call to its return: a ping after that
    /// call waits for the return. Ping then work (getData first: DataNull) and work
    /// then ping reach one state, and csdpor explored both: 3^N executions where the
    /// paper's CDPOR explores 2^N.
    pub(super) fn sleep_before_disabler(&mut self, run: &mut Exploration<'_, '_>) {
        let events = run.ex.events();
        let n = events.len() - 1;
        let (proc, block) = (events[n].proc, events[n].block);
        if !waits(run.program(), block) || events[n].failed {
            return;
        }
        // The process is at `n`'s block from the event that created it or ran its
        // previous step on.
        let arrived = events[..n]
            .iter()
            .rposition(|ev| ev.precedes_process(proc))
            .map_or(0, |a| a + 1);
        // A node's `enabled` is in increasing order (`Executor::enabled`).
        let enabled = |k: usize| self.nodes[k].enabled.binary_search(&proc).is_ok();
        let Some(d) = (arrived..n).rev().find(|&k| enabled(k) && !enabled(k + 1)) else {
            return;
        };
        let reached = std::cell::OnceCell::new();
        self.sleep_at(run, (d, n), &reached, R::sleep_before_disabler);
    }
}
