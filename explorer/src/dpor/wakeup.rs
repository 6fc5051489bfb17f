//! Optimal-DPOR's wakeup trees in the skeleton (JACM'17, Alg. 2): a sequence joins
//! `wut(E')` unless a process asleep or done there covers it, a node follows its
//! leftmost branch, and an empty tree chooses one fresh step (line 3).

use super::race_analysis::{add_initial, entry, moved, reversed};
use super::reduction::Reduction;
use super::split::swap_by_state;
use super::Dpor;
use crate::dependency::footprint::Footprint;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::disabling::{AfterReversal, RaceAfter, Reversal};
use crate::dpor::sleep::SleepSet;
use crate::dpor::wakeup_tree::{sleeper_covers, Cover, Entry, Leaves, WakeupTree};
use crate::executor::Executor;
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use frontend::ir::{BlockId, Program};
use frontend::value::Value;

impl<R: Reduction> Dpor<R> {
    /// Optimal-DPOR (JACM Alg. 2, lines 7–8): the sequence `entries` joins
    /// `wut(pre(E, e))` unless it is redundant there (ODPOR_cs Alg. 1, line 40): a
    /// process asleep there is a weak initial of it (its trace is covered there).
    /// Only processes explored from `E'` (`done(E')`) and steps passed down to it
    /// count: not odpor-cs's don't-do sequences, whose executions stop after their
    /// last step (see `block_after_equivalent`). `after`: what is known of the race's
    /// first event, which runs after the sequence (see [`sleeper_covers`] and
    /// [`crate::dpor::disabling`]). Whether it joined.
    ///
    /// A node of a shared top ([`crate::parallel::shared_top`]) is held under the
    /// top's lock for it, its tree and sleep set in place of this search's own at
    /// that depth (the same code, on the same state: the execution goes through the
    /// node).
    pub(super) fn insert_wakeup(
        &mut self,
        run: &mut Exploration<'_, '_>,
        e: usize,
        entries: Vec<Entry>,
        after: RaceAfter<'_>,
    ) -> Insertion {
        let shared = (!self.nodes[e].shared)
            .then(|| run.shared_node(e))
            .flatten();
        let Some((top, id)) = shared else {
            return self
                .insert_here(run, e, entries, after, (None, &[], false))
                .0;
        };
        // The node as this job's branch there met it: the branches started after it
        // are the ones one thread would explore after it.
        let through = run.ex.state.procs[run.ex.events()[e].proc].pid_key;
        let mut held = top.hold(id);
        let node = &mut self.nodes[e];
        swap_by_state(&mut held, node);
        node.shared = true;
        let steps = self.wakeup_steps;
        let lent = held.lend(Some(through), &mut node.wut);
        let met = (Some(&*lent.sleep), &lent.after[..], lent.provisional);
        let (insertion, below) = self.insert_here(run, e, entries, after, met);
        drop(lent);
        self.wakeup_steps = steps;
        let node = &mut self.nodes[e];
        held.give_back(&mut node.wut);
        swap_by_state(&mut held, node);
        node.shared = false;
        if let Some((i, rest)) = below {
            let program = run.ex.program();
            let dependency = &mut self.dependency;
            held.forward(i, rest, &mut |seq: &[&Entry], i: usize, k: usize| {
                dependency.lifted(program, seq, i, k)
            });
        }
        insertion
    }

    /// [`Dpor::insert_wakeup`] at this search's node `e`, some of whose branches
    /// may have `started` after the one explored here ([`crate::dpor::forwarding`]):
    /// a sequence that goes below one of those is returned, with the branch's index
    /// and what remains of it. `sleep`: the node's sleep set as the job's branch met
    /// it, at a node of a shared top (else the node's own).
    fn insert_here(
        &mut self,
        run: &mut Exploration<'_, '_>,
        e: usize,
        entries: Vec<Entry>,
        after: RaceAfter<'_>,
        (sleep, started, provisional): (Option<&SleepSet>, &[&Entry], bool),
    ) -> (Insertion, Option<(usize, Vec<Entry>)>) {
        let program = run.ex.program();
        let observers = self.parts.observers();
        // Whether a state may cut an exploration below: then a leaf covers `v` only
        // where `→ob` does not prune below it either (see `WakeupTree::insert`), and a
        // sleeper beside `v` does not cover it (see `sleeper_covers`).
        let cut = self.parts.blocks_by_state();
        let mut independent = self.dependency.lifting(program);
        // A sleeping step is its process's next event in `s[E']` (kept when
        // the reduction keeps snapshots).
        let at_prefix = self.snapshots.get(e);
        let prefix = &mut self.nodes[e];
        let met = sleep.unwrap_or(&prefix.sleep);
        // A leaf whose process sleeps because another unit explores it cannot run
        // here: `runnable_branch` drops it, and what it covered must be below it to
        // be inserted again (as for a search that blocks by state, below).
        let leaves = Leaves {
            extend: cut || observers || met.has_elsewhere(),
            provisional,
        };
        let mut commutes = false;
        let mut beside = false;
        let made;
        let rerun = match after {
            RaceAfter::Rerun(reversal) => {
                made = AfterReversal::new(reversal);
                Some(&made)
            }
            RaceAfter::Judged(judged) => Some(judged),
            _ => None,
        };
        let (ex, hb) = (&run.ex, &self.hb);
        let covered = met.covering_steps().any(|(step, covers_beside)| {
            let event = at_prefix
                .and_then(|st| st.procs.iter().find(|q| q.pid_key == step.process))
                .and_then(|q| Some((q.next?, q.locals.clone())));
            // Only an `await` can be disabled by the race's first event (see
            // `sleeper_covers` and `crate::dpor::disabling`).
            let waiting = || next_step(ex, e, step.process).is_none_or(|(b, _)| waits(program, b));
            let sleeping = Entry {
                process: step.process,
                footprint: step.footprint.clone(),
                spawns: Vec::new(),
                event,
                written: Vec::new(),
            };
            let by_step = after.step().filter(|_| waiting());
            match sleeper_covers(&entries, by_step, &sleeping, cut, &mut independent) {
                Cover::Yes => true,
                Cover::Beside if !covers_beside => false,
                Cover::Beside
                    if rerun
                        .is_some_and(|r| r.disables(ex, hb, (step.process, &step.footprint))) =>
                {
                    false
                }
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
        // `Dpor::block_unrun`). A new branch that starts with a step already run
        // (or settled) and blocked at E' would only repeat that — the same events, whose races were
        // analysed then — so it is redundant too, and so is its don't-do sequence (it
        // starts with that step). Not a step that is only kept at E' as a confirmed
        // don't-do step (`Ending::Blocks`) because it commutes in context with the
        // event before (odpor-cs's note 6): it never ran here, and its races with the
        // events of E' are seen only when it does (taking it as run, odpor-cs lost a
        // final state: `tests/regressions/odpor_cs_a_step_kept_by_commutation_never_ran.ic`).
        let repeats = entries.first().is_some_and(|first| {
            prefix.blocked_steps.contains(&first.process)
                && prefix.wut.branches_at_root(&entries, &mut independent)
        });
        // A repeat whose blocked first step commutes with the rest of the sequence
        // (no conflict of footprints, not its process, not spawned by it) still asks
        // for the rest's order, without that step, which can run later: in `--literal`
        // (odpor-cs-ob), p run and blocked at q's first block hid r there, and the
        // covering subtree, p first, never had r before q's first block
        // (`tests/regressions/odpor_cs_ob_literal_a_blocked_branch_hides_a_reader_first.ic`).
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
                let met = (sleep, started, provisional);
                return self.insert_here(run, e, rest.to_vec(), after, met);
            }
        }
        if covered && beside {
            return (Insertion::Beside, None);
        }
        if covered || repeats || entries.is_empty() {
            return (Insertion::Redundant, None);
        }
        let below = match (prefix.wut).insert_beside_started(
            started.iter().copied(),
            entries,
            &mut independent,
            leaves,
        ) {
            Ok(added) => {
                self.wakeup_steps += added;
                None
            }
            Err(below) => Some(below),
        };
        let pruning = &mut run.stats.pruning;
        pruning.wakeup_inserted += 1;
        pruning.wakeup_beside_commuting += u64::from(commutes);
        pruning.max_wakeup = pruning.max_wakeup.max(self.wakeup_steps as u64);
        (Insertion::Joined, below)
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
    /// `tests/regressions/odpor_judges_a_sleeper_beside_on_the_whole_execution.ic`). So
    /// each race refused so is judged again where the execution ends, with JACM's `v`;
    /// its don't-do sequence (odpor-cs) is left out. In each execution through `n`:
    /// which events follow `n` independently of `e` depends on the continuation.
    pub(super) fn recheck_refused_beside(&mut self, run: &mut Exploration<'_, '_>) {
        let carry = self.dependency.carry();
        for (e, n) in self.refused_beside.clone() {
            let v = races::notdep(run.ex.events(), &self.hb, e);
            let last = match run.ex.carries_by_path(n) {
                true => reversed(&run.ex, &self.hb, (e, n), &v, carry),
                false => entry(&run.ex, n, false, carry),
            };
            self.insert_reversal(run, (e, n), &v, last);
        }
    }

    /// JACM Alg. 2's reversal of each race `e ⋖ n` of [`Dpor::moved_races`] on the
    /// whole execution that ends here: `v = notdep(e, E)` to its last event, then `n`
    /// with the footprint it carries after `v` ([`reversed`]), `v` cut to the events
    /// that must come before `n` ([`needed_before`]). In each execution through `n`:
    /// which events follow `n` independently of `e` depends on the continuation.
    /// Races of a step run for its races and stepped back ([`Dpor::run_covered`])
    /// were reversed where that step's execution ended.
    pub(super) fn reverse_moved_races(&mut self, run: &mut Exploration<'_, '_>) {
        let len = run.ex.events().len();
        self.moved_races.retain(|&(_, n)| n < len);
        for (e, n) in self.moved_races.clone() {
            let v = races::notdep_whole(run.ex.events(), &self.hb, e);
            let last = reversed(&run.ex, &self.hb, (e, n), &v, self.dependency.carry());
            let v = needed_before(&run.ex, &self.hb, n, v, &last.footprint);
            self.insert_reversal(run, (e, n), &v, last);
        }
    }

    /// The races reversed where an execution ends: those refused beside a sleeper
    /// ([`Dpor::recheck_refused_beside`]) and those whose later event may do
    /// otherwise where reversed ([`Dpor::reverse_moved_races`]).
    pub(super) fn reverse_at_the_end(&mut self, run: &mut Exploration<'_, '_>) {
        self.recheck_refused_beside(run);
        self.reverse_moved_races(run);
    }

    /// The events `v` of the execution, then `last` (the race's `n`), join `wut(E')`
    /// for a race `e ⋖ n` judged where the execution ends.
    fn insert_reversal(
        &mut self,
        run: &mut Exploration<'_, '_>,
        (e, n): (usize, usize),
        v: &[usize],
        last: Entry,
    ) {
        let carry = self.dependency.carry();
        let mut entries: Vec<Entry> = (v.iter())
            .map(|&i| entry(&run.ex, i, false, carry))
            .collect();
        entries.push(last);
        let race_write = self.parts.lifts().then(|| moved(&run.ex, e, carry));
        let after = match &race_write {
            Some(step) => RaceAfter::Step(step),
            None => RaceAfter::Rerun(Reversal { e, v, n }),
        };
        self.insert_wakeup(run, e, entries, after);
    }
}

/// The events of JACM's `v = notdep(e, E)` that must come before `n` (which carries
/// `carried` after all of `v`): those before `n` in `E`, and those after it that
/// conflict with `carried` or happen before one that does. The others commute in the
/// reversal with `n` and with every kept event after them, so `v` is equivalent to
/// the kept events, then `n`, then the others, and a sequence that ends in `n` leaves
/// them out, as a race reversed as `n` runs leaves out what follows `n` (the
/// sequences are compared up to equivalence). Why each commutes: an event `f` of
/// `notdep(e, E)` reads in the reversal the values it read in `E` (what happens
/// before it does not happen after `e`), so it carries there what it carried in `E`;
/// `f` and a kept `g` after it that `f` does not happen before do not conflict in
/// `E`, hence not in the reversal; and `f` does not conflict with `carried`. `n`
/// reads nothing such an `f` writes (`carried` holds what it reads), so it takes the
/// same path, and carries the same footprint, after the kept events alone.
///
/// JACM's whole `v` made each race reversed at every execution through `n` another
/// sequence (its tail is the continuation's): indexer(16)'s wakeup trees held 164,220
/// steps at once where transition footprints need 9,261, and odpor took 2.3 times as
/// long.
fn needed_before(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    n: usize,
    v: Vec<usize>,
    carried: &Footprint,
) -> Vec<usize> {
    let split = v.partition_point(|&i| i < n);
    let mut kept_after: Vec<usize> = Vec::new();
    for &f in v[split..].iter().rev() {
        if ex.events()[f].footprint.conflicts(carried)
            || kept_after.iter().any(|&g| hb.before(ex.events(), f, g))
        {
            kept_after.push(f);
        }
    }
    let mut v = v;
    v.truncate(split);
    v.extend(kept_after.into_iter().rev());
    v
}

/// What [`Dpor::insert_wakeup`] made of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Insertion {
    /// It joined the wakeup tree.
    Joined,
    /// Redundant there.
    Redundant,
    /// Covered only by a process asleep beside it ([`Cover::Beside`]), which a longer
    /// reversal of the same race may not be ([`Dpor::recheck_refused_beside`]).
    Beside,
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
    /// could not run there (`tests/regressions/odpor_ob_keeps_what_a_dropped_step_held.ic`).
    pub(super) fn runnable_branch(&mut self, run: &mut Exploration<'_, '_>, d: usize) -> bool {
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
                self.insert_wakeup(run, d, v, RaceAfter::Nothing);
            }
        }
    }

    /// Process `p`'s next step as a wakeup-tree entry.
    pub(super) fn next_step(&self, run: &Exploration<'_, '_>, p: usize) -> Entry {
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

    /// An optimal search puts first, right after `n`, each sleeping step it kept
    /// asleep past `n` because the two commute in that state (`commuted`, odpor-cs's
    /// note 6): the leftmost branch of the new node, alone (merged below another
    /// branch, it went with that branch when a don't-do sequence blocked it), whose
    /// races are analysed there — without running it (`Dpor::block_unrun`), or,
    /// with `--literal`, by running it and blocking. Those races, of `x` run after `n`
    /// with the events before,
    /// are what the subtree of `E.x` never shows: with p first, r kept q (a no-op
    /// there) asleep, and no execution ran q after r — the race of p's `y = -1` with
    /// q's read of y, which asks for r.q at the root, was never seen (odpor-cs,
    /// odpor-cs-ob and ocdpor lost a final state:
    /// `tests/regressions/odpor_cs_runs_a_step_kept_by_commutation.ic`). csdpor analyses them
    /// the same way (`Dpor::analyse_covered_steps`).
    pub(super) fn run_commuted(&mut self, run: &mut Exploration<'_, '_>, commuted: &[Fingerprint]) {
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

    /// Optimal-DPOR's choice for a node whose wakeup tree is empty (JACM Alg. 2,
    /// line 3; ODPOR_cs Alg. 1, lines 21–22): `wut(E)` becomes the single step of `p`.
    pub(super) fn choose_fresh(&mut self, run: &Exploration<'_, '_>, d: usize, p: usize) {
        let entry = self.next_step(run, p);
        self.nodes[d].wut = WakeupTree::chain(vec![entry], false);
        self.wakeup_steps += 1;
    }

    /// Asks to run the events `v` of the execution, then event `n` with its block's
    /// whole footprint (`n = (n, whole)`: a probe, an `await` that cannot run where
    /// `v` puts it, or an event standing for a process's future), at `pre(E, e)`:
    /// `v.n` joins `wut(E')` in an optimal search, an initial of it joins
    /// `backtrack(E')` otherwise.
    pub(super) fn ask_before(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        e: usize,
        mut v: Vec<usize>,
        (n, whole): (usize, &Footprint),
    ) -> Option<Insertion> {
        if self.parts.optimal() {
            // A real event whose path depends on the global state (`--deps
            // accesses`: [`Executor::carries_by_path`]) joins with what it would
            // carry after `v` ([`reversed`]), as a race's `n` does, not its block's
            // transition footprint: the tree orders its
            // branches (JACM Def. 6.1: `u.p ≺ u.w` only if `p ∉ WI[E.u](w)`) by the
            // footprints of its entries, while the sleep set of the node reached
            // (Alg. 2, `Sleep' = {q ∈ sleep(E) | E ⊨ p ◊ q}`) is judged by what the
            // step touches when it runs. With the larger footprint, q's `await (z !=
            // 2)` (then `if (len(c[0]) > 0) ...`, which only read c[0]) became a
            // branch right of the other q's, which commutes with what it touches; that
            // one, asleep below it, refused the reversal of p's race with r there, and
            // the leaf had covered the reversal at its own node that needed it (odpor
            // explored 55 of 56 traces: `tests/tests/parallel.rs`,
            // `odpor_with_accesses_explores_every_trace`).
            let carry = self.dependency.carry();
            let last = match run.ex.carries_by_path(n) {
                true => reversed(&run.ex, hb, (e, n), &v, carry),
                false => entry(&run.ex, n, true, carry),
            };
            let entries: Vec<Entry> = (v.iter().map(|&i| entry(&run.ex, i, false, carry)))
                .chain([last])
                .collect();
            // A sleeper beside the sequence must stay beside `e`, which runs after it
            // in the trace asked for (`sleeper_covers`). odpor judges that as for a
            // race's reversal, by running `n` and then `e` again there
            // ([`crate::dpor::disabling`]); by footprints, `e` conflicted with a
            // sleeper it could not reach, `e` being an `await` that `n` disables for
            // good, and odpor explored the sequence again and ended it blocked
            // (`tests/regressions/odpor_a_probe_s_writer_disabled_for_good_disables_no_sleeper.ic`).
            // ocdpor, whose sleepers stay asleep past events by `R`, judges by
            // footprints (`Parts::lifts`).
            let race_write = moved(&run.ex, e, self.dependency.carry());
            let judged;
            let after = match self.parts.lifts() {
                true => RaceAfter::Step(&race_write),
                false => {
                    judged = AfterReversal::judged(Reversal { e, v: &v, n }, &run.ex, hb);
                    RaceAfter::Judged(&judged)
                }
            };
            Some(self.insert_wakeup(run, e, entries, after))
        } else {
            v.push(n);
            let choice = (self.parts.guided(), self.parts.drops_unneeded());
            add_initial(run, hb, (e, &mut self.nodes[e]), choice, &v, Some(whole));
            None
        }
    }
}

/// The block that `process` runs next after the first `e` events of the current
/// execution, and the locals it runs it with: its first event from there on, or,
/// when it has none, the block it waits at in the end (`None` when it has none: it
/// ended).
pub(super) fn next_step<'x>(
    ex: &'x Executor<'_>,
    e: usize,
    process: Fingerprint,
) -> Option<(BlockId, &'x [Value])> {
    let procs = &ex.state.procs;
    let ran = (e..ex.events().len()).find(|&i| procs[ex.events()[i].proc].pid_key == process);
    match ran {
        Some(i) => Some((ex.events()[i].block, ex.entry_locals(i))),
        None => {
            let q = procs.iter().find(|q| q.pid_key == process)?;
            Some((q.next?, &q.locals[..]))
        }
    }
}

/// Whether `block` starts with an `await`: a process there may be disabled (see
/// [`crate::dpor::wakeup_tree::WeakInitial`]).
pub(super) fn waits(program: &Program, block: BlockId) -> bool {
    program.blocks[block as usize].guard.is_some()
}
