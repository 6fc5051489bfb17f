//! Steps that reach a covered state. A state check (csdpor, cdpor) or a don't-do
//! sequence (odpor-cs, ISSTA'19 Alg. 1, lines 17–33) proves that a step leads to a
//! state explored elsewhere: the step is not explored past, but its races with the
//! execution so far are analysed (run and stepped back, or settled without running),
//! and the node goes on with another process.

use super::race_analysis::entry_accesses;
use super::reduction::Reduction;
use super::wakeup::waits;
use super::{Dpor, Node};
use crate::dependency::footprint::{intersects, Footprint};
use crate::dpor::sleep::Step;
use crate::dpor::wakeup_tree::Entry;
use crate::executor::Executor;
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use crate::tree::Blocked;
use frontend::analysis::may_touch::Successors;
use frontend::ir::GlobalId;

impl<R: Reduction> Dpor<R> {
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
    /// step: a review campaign ran every step this test analyses unrun, too, and the
    /// run added no backtrack point in 450,000 programs): a step
    /// that may leave one whose probe may race with `E` ([`leaves_a_raced_waiter`])
    /// runs for its races and blocks ([`Dpor::run_covered`]). Settled, such a step
    /// left those probes out: a gap in theory that no campaign had shown. Run, it
    /// changes the exploration of generated programs (csdpor and cdpor take 6 and 2
    /// more states on `dpor::csdpor_runs_a_covered_step_that_may_leave_a_raced_waiter`,
    /// no final state lost either way); it costs 7 states of `buffer.ic`.
    pub(super) fn analyse_covered_steps(&mut self, run: &mut Exploration<'_, '_>, d: usize) {
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
                self.analyse_unrun(run, x)
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

    /// A covered step that may leave a process at an `await` whose probe may race
    /// with `E` ([`leaves_a_raced_waiter`]) runs for its races — those probes'
    /// among them ([`Dpor::probe_disabled`]) — and steps back: a blocked execution.
    /// Its transition footprint.
    pub(super) fn run_covered(&mut self, run: &mut Exploration<'_, '_>, x: usize) -> Footprint {
        self.measure_path(run);
        let _ = run.step(x);
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.analyse_races(run, false);
        run.ex.enabled(&mut self.enabled);
        self.probe_disabled(run);
        run.blocked(Blocked::Covered);
        self.reverse_moved_races(run);
        self.future_races(run, x, None);
        let footprint = run.ex.events()[run.ex.events().len() - 1].footprint.clone();
        self.hb.pop();
        run.back();
        footprint
    }

    /// The races of process `x`'s next step, analysed without running it
    /// (see [`Dpor::analyse_covered_steps`]); its transition footprint. An optimal search
    /// also asks, for an `await` step, to run it before the writes that disabled it
    /// (it does not climb: see `await_race`), as it asks for a step that runs; and
    /// every search probes the processes waiting at an `await` whose guard reads what
    /// the step may write too (`probe_disabled` would after the step), not only the
    /// enabled ones it may disable (for csdpor and cdpor too: probing these changes no
    /// count of the papers' tables).
    pub(super) fn analyse_unrun(&mut self, run: &mut Exploration<'_, '_>, x: usize) -> Footprint {
        run.stats.pruning.covered_unrun += 1;
        let footprint = run.ex.unrun(x).footprint.clone();
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.analyse_races(run, false);
        if self.parts.optimal() {
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
    /// state of odpor-cs-ob: `tests/regressions/odpor_cs_ob_goes_on_after_its_tree_is_spent.ic`).
    ///
    /// The paper ends a node whose wakeup tree is spent, and chooses again only for
    /// its own choice of line 21 (lines 17–21). That loses final states
    /// (`tests/regressions/state_dependent_block_extent_loses_a_final_state.ic`): r's first
    /// step, then p, reached the state of p.r and blocked, and r's node, reached by
    /// the branch r.p, ended there — but r.r.q.p, which never passes through that
    /// state, was to be found from the races of executions below r.p, and no other
    /// race asked for it. Going on with another process finds those races.
    pub(super) fn block_after_equivalent(
        &mut self,
        run: &mut Exploration<'_, '_>,
        d: usize,
        p: usize,
        partners: &[Fingerprint],
    ) {
        self.end_covered(run, p, partners);
        let footprint = run.ex.events()[d].footprint.clone();
        self.hb.pop();
        run.back();
        let process = run.ex.state.procs[p].pid_key;
        let step = Step { process, footprint };
        self.nodes[d].current = None;
        if self.parts.optimal() {
            // `p ∈ dnd(E)`, confirmed: it blocks whenever it runs here, and E.q
            // inherits it for each q independent of it (lines 29–30). It is not
            // `done(E)`: nothing below `E.p` was explored, so it must not make a
            // sequence redundant at line 40 — the races of the executions it stands
            // for were never seen (`tests/regressions/odpor_cs_blocked_step_covers_no_race.ic`).
            self.nodes[d].sleep.insert_equivalent(vec![step], partners);
            self.nodes[d].blocked_steps.push(process);
            return;
        }
        self.nodes[d].sleep.insert(vec![step]);
        // Entries that explored ones stand for are not pending: the run of Alg. 1
        // that chose those at line 10 goes on here with a fresh process too.
        if self.parts.drops_unneeded() {
            self.drop_unneeded(run, d);
        }
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

    /// The execution ends blocked right after `p`'s step, which reached a covered
    /// state: it is counted, and its races and those of what follows the step are
    /// analysed ([`Dpor::future_races`]).
    pub(super) fn end_covered(
        &mut self,
        run: &mut Exploration<'_, '_>,
        p: usize,
        partners: &[Fingerprint],
    ) {
        self.measure_path(run);
        run.blocked(Blocked::Covered);
        self.reverse_at_the_end(run);
        // With observers, the races of real events are found where an execution ends.
        self.observed_races(run, false);
        let observed = self.observed_at_block(run);
        self.future_races(run, p, Some((partners, &observed)));
    }

    /// ODPOR_cs Alg. 1, lines 25–26 for a step `p` confirmed in `dnd(E)` at node `d`
    /// (it blocks whenever it runs there, `Ending::Blocks`): the paper runs it for its
    /// races and blocks; they are analysed without running it ([`Dpor::analyse_unrun`]), and
    /// the step is then recorded as [`Dpor::block_after_equivalent`] records one that
    /// ran and blocked. Sound as running it was, by `analyse_covered_steps`'s argument: the
    /// execution would be blocked right after the step, so nothing depends on it; its
    /// races are found with a footprint that contains what it would touch (a superset
    /// of them, its wakeup sequences with its block's whole footprint, as a probe's);
    /// and it cannot fail there (it reaches a covered state). No state is counted and
    /// no execution ends blocked: odpor-cs and ocdpor count what csdpor and cdpor
    /// count for the same step. With observers, whose races are found where an
    /// execution ends, over an order that the end decides, the races are those of
    /// the execution blocked after the step ([`Dpor::analyse_unrun_observed`]).
    /// `ends`: the step ends its process on every path.
    pub(super) fn block_unrun(
        &mut self,
        run: &mut Exploration<'_, '_>,
        d: usize,
        p: usize,
        ends: bool,
        partners: &[Fingerprint],
    ) {
        let footprint = if self.parts.observers() {
            self.analyse_unrun_observed(run, p, ends, partners)
        } else {
            self.analyse_unrun(run, p)
        };
        // The execution ends here as if the step had run and blocked.
        self.reverse_moved_races(run);
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
    pub(super) fn awake(&self, run: &Exploration<'_, '_>, node: &Node) -> Vec<usize> {
        let awake: Vec<usize> = node
            .enabled
            .iter()
            .copied()
            .filter(|&i| !node.backtrack.contains(&i) && !self.asleep(run, node, i))
            .collect();
        let dont = |i: &usize| blocks_here(run, node, *i);
        if !self.parts.optimal() || awake.iter().all(dont) {
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
    /// (`tests/regressions/odpor_cs_ob_runs_the_dont_do_steps_left_for_their_races.ic`).
    ///
    /// One per blocked branch, as csdpor adds one process per step blocked at its
    /// node (`Dpor::block_after_equivalent`); a step confirmed in `dnd(E)` and run or
    /// settled so is such a branch, so every one of them left gets its turn. Going on
    /// until no fresh process was left explored every enabled process there: FR-a(8)
    /// `--violations-only` took 11,073 states, 3,849 with one per branch (the
    /// regressions that asked for the rule,
    /// `tests/regressions/state_dependent_block_extent_loses_a_final_state.ic` and
    /// `tests/regressions/odpor_cs_ob_goes_on_after_its_tree_is_spent.ic`, pass with both).
    /// Line 3's choice, made here when only commuted steps ran (below), pays for no
    /// branch (counted as one, it lost a final state:
    /// `tests/regressions/odpor_cs_a_choice_of_line_3_pays_for_no_blocked_branch.ic`).
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
    /// process to come first elsewhere escapes that cut ([`Dpor::done_first_elsewhere`]);
    /// such a race asks for its sequence itself, inserted at this node, which is on
    /// the path: not choosing `q` now leaves nothing unasked. FR-a(8) `--violations-only`: 3,849 → 2,043
    /// states; FR(9) 9,738 → 4,602 (2,757 and 6,324 where the redundancy check keeps
    /// ordered a pair overwritten in the prefix by a value read later).
    ///
    /// Only after a branch that blocked: not after a step kept asleep into the node by
    /// commutation ([`Dpor::run_commuted`]), which runs first for its races and
    /// blocks. That step is asleep, as csdpor's (`s[E.n.x] = s[E.x.n]`, and `E.x` is
    /// covered): no subtree the node owed was cut, so nothing is owed but the choice
    /// of line 3 when the node explored nothing else — csdpor settles such a step
    /// and chooses as for any node. Going on after it too took odpor-cs to a state
    /// csdpor never needs (`tests/regressions/odpor_cs_a_step_kept_by_commutation_never_ran.ic`,
    /// 20 states where csdpor has 19), and cost DB_backup(8) 56k states in odpor-cs (14k
    /// without, csdpor's) and 110k in odpor-cs-ob (38k without, before its steps
    /// confirmed in don't-do sets were settled). Whether one was chosen.
    pub(super) fn choose_after_blocked(&mut self, run: &Exploration<'_, '_>, d: usize) -> bool {
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
        if self.parts.observers() && !fresh.is_empty() {
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
}

/// Whether process `i`'s step is confirmed in `dnd(E)` at `node`: it blocks whenever
/// it runs there (`Ending::Blocks`).
pub(super) fn blocks_here(run: &Exploration<'_, '_>, node: &Node, i: usize) -> bool {
    node.sleep.ends(run.ex.state.procs[i].pid_key).always
}

/// Where process `x`'s next step may lead ([`frontend::analysis::may_touch::successors`]), when
/// it spawns nothing and surely leaves no process at an `await` whose probe may race
/// with `E` ([`leaves_a_raced_waiter`]; `None` otherwise). Only such a step confirmed
/// in `dnd(E)` is settled unrun in an optimal search ([`Dpor::block_unrun`]): run,
/// it would end an execution where each process blocked at an `await` is probed, and
/// its probe asks to pass the writes of `E` that disabled it; unrun, the processes
/// the step would leave at an `await` are not probed. A step that spawns runs too:
/// settling takes its process as ended where the step ends it, which a spawn would
/// not leave the end's reads as they are ([`end_reads_after_unrun`]). csdpor's and
/// cdpor's `analyse_covered_steps` run a covered step by [`leaves_a_raced_waiter`] alone.
pub(super) fn unrun_successors(
    ex: &Executor<'_>,
    x: usize,
    guards: &[Vec<GlobalId>],
) -> Option<Successors> {
    let after = successors(ex, x)?;
    (after.spawns.is_empty() && !leaves_a_raced_waiter(ex, x, &after, guards)).then_some(after)
}

/// [`frontend::analysis::may_touch::successors`] of process `x`'s next step.
pub(super) fn successors(ex: &Executor<'_>, x: usize) -> Option<Successors> {
    let p = &ex.state.procs[x];
    frontend::analysis::may_touch::successors(&ex.machine, &ex.state.mem, p.next?, &p.locals)
}

/// Whether `after`, where process `x`'s next step may lead, may leave a process at
/// an `await` (its own, or one it spawns) whose guard reads a global that an event of
/// `E` by another process may have written: the probe of that process right after
/// the step may race with that write, and ask to pass it ([`Dpor::probe_disabled`],
/// [`Dpor::pass_disabling_writes`]; a probe writes nothing, and the events of `x`'s
/// process, or of `x`'s creators, happen before it). Where none can, running the
/// step adds no such probe to what settling it analyses ([`Dpor::analyse_unrun`]); where one
/// can, settling would miss its races. Guards are read as whole globals (`guards`:
/// per block, the globals its guard reads, [`Dpor::guards`]), which covers the
/// elements a guard reads through locals.
pub(super) fn leaves_a_raced_waiter(
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
pub(super) fn guard_reads_written(ex: &Executor<'_>, r: usize, step: &Footprint) -> bool {
    let process = &ex.state.procs[r];
    let Some(block) = process.next.filter(|&block| waits(ex.program(), block)) else {
        return false;
    };
    intersects(&step.writes, &ex.guard_reads(block, &process.locals))
}
