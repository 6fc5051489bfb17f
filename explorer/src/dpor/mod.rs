//! The DPOR skeleton every reduced algorithm shares: the black code of Alg. 1 in
//! the CSDPOR and CDPOR papers (Source-DPOR, POPL'14), and with wakeup trees that
//! of Optimal-DPOR (JACM'17, Alg. 2). An algorithm is the skeleton with the parts it
//! declares ([`Parts`]) and its paper's additions behind [`Reduction`], in its own
//! module of [`crate::algorithms`], so that the differences are visible.
//!
//! The search is depth first and iterative (no recursion on execution length). Each
//! node of the current path keeps `enabled`, `backtrack` (or the wakeup tree `wut`)
//! and `sleep` of Alg. 1; the executor holds the one mutable state and steps back
//! with its undo log. This file holds the nodes and the loop; the rest, by concept:
//!
//! | module | what |
//! | --- | --- |
//! | [`parts`] | what an algorithm is made of |
//! | [`reduction`] | what it adds, and what it is shown of a race or a step |
//! | [`race_analysis`] | Alg. 1, lines 6–14: races of a new event, backtrack sets |
//! | [`wakeup`], [`wakeup_tree`] | Optimal-DPOR's wakeup trees |
//! | [`sleep`] | sleep sets of sequences, don't-do sets |
//! | [`split`], [`forwarding`] | a job of a search whose top the threads share; sequences forwarded into its branches |
//! | [`awaits`], [`leaving_out`], [`disabling`] | `await`s in races: probes, climbs, disabling writes, sleepers a race disables |
//! | [`observed`], [`observed_reversals`] | races found at the end over `→ob` (observers) |
//! | [`covered`], [`future_races`] | steps that reach a covered state, and what follows them |
//! | [`alternatives`] | states and memories of reordered executions |

pub mod alternatives;
pub mod awaits;
pub mod covered;
pub mod disabling;
pub mod forwarding;
pub mod future_races;
pub mod leaving_out;
pub mod needs;
pub mod observed;
pub mod observed_reversals;
pub mod parts;
pub mod race_analysis;
pub mod reduction;
pub mod sleep;
pub mod split;
pub mod wakeup;
pub mod wakeup_tree;

use crate::dependency::footprint::{Carried, Footprint};
use crate::dependency::future::Futures;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::Dependency;
use crate::dpor::sleep::{Ends, Kept, SleepSet, Step};
use crate::dpor::wakeup_tree::WakeupTree;
use crate::exploration::{Algorithm, Deps, Exploration};
use crate::fingerprint::Fingerprint;
use crate::parallel::shared_top::Choice;
use crate::state::State;
use crate::tree::Blocked;
use crate::unit::Unit;
pub use alternatives::{run_from, run_in, virtual_memory};
use covered::unrun_successors;
use frontend::ir::GlobalId;
pub use parts::Parts;
use parts::{Races, States};
pub use reduction::{Equivalent, LineNine, NewEvent, Race, Recorded, Reduction};

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
    /// What the unexplored entries of `backtrack` stand for (Source-DPOR's line 10).
    needs: needs::Needs,
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
    /// Whether the node's wakeup tree and sleep set are, for now, those of the node
    /// of the shared top at its depth, held under the top's lock
    /// ([`Dpor::take_shared_branch`]): what is inserted at it goes into them here.
    shared: bool,
    /// The steps explored from this node, in order, in a job of an optimal search
    /// whose top the threads share: where a sequence forwarded to the job goes
    /// ([`Dpor::receive_forwarded`]).
    explored: Vec<wakeup_tree::Entry>,
}

pub struct Dpor<R> {
    reduction: R,
    /// What the reduction is made of, read once.
    parts: Parts,
    hb: HappensBefore,
    nodes: Vec<Node>,
    depth: usize,
    snapshots: Vec<State>,
    /// The enabled set of the state after the newest event, before it becomes a node's.
    enabled: Vec<usize>,
    /// Steps held by the wakeup trees of the current path (optimal reductions).
    wakeup_steps: usize,
    /// What makes events dependent in this search.
    dependency: Dependency,
    /// Whether the end of an execution reads the memory: not for a reduction with
    /// observers under `--violations-only` (see [`State::dead_globals`]).
    end_reads: bool,
    /// Per block, the globals its `await` guard reads
    /// (`frontend::ir::BlockSets::guard_reads`), for `covered::leaves_a_raced_waiter`
    /// and the observers' guarded globals.
    guards: Vec<Vec<GlobalId>>,
    /// The races `(e, n)` of the current path whose reversal was refused because a
    /// process asleep beside it covered it, judged again on the whole of each
    /// execution through `n`, where it ends ([`Dpor::recheck_refused_beside`]).
    refused_beside: Vec<(usize, usize)>,
    /// The races `(e, n)` of the current path whose `n` may do otherwise where their
    /// reversal runs it (it carries what it touched, or failed, with `--deps
    /// accesses`): an optimal search reverses them on the whole of each execution
    /// through `n`, where it ends ([`Dpor::reverse_moved_races`]).
    moved_races: Vec<(usize, usize)>,
    /// What each block and everything after it may touch ([`Dpor::future_races`]).
    futures: Option<Futures>,
    /// The depth the search starts at: a unit's frontier node in a parallel search
    /// ([`Dpor::enter`]), else 0. The nodes above it are closed to the search.
    floor: usize,
    /// Whether sequences may be forwarded to this search: a job of an optimal search
    /// whose top the threads share ([`forwarding`]).
    forwards: bool,
    /// Whether sleep entries may reach this job late: a job of a search on backtrack
    /// sets that compares states, whose top the threads share ([`Dpor::receive_late_sleeps`]).
    late_sleeps: bool,
}

impl<R: Reduction> Dpor<R> {
    pub fn new(reduction: R) -> Self {
        Dpor {
            parts: reduction.parts(),
            reduction,
            hb: HappensBefore::default(),
            nodes: Vec::new(),
            depth: 0,
            snapshots: Vec::new(),
            enabled: Vec::new(),
            wakeup_steps: 0,
            dependency: Dependency::default(),
            end_reads: true,
            guards: Vec::new(),
            refused_beside: Vec::new(),
            moved_races: Vec::new(),
            futures: None,
            floor: 0,
            forwards: false,
            late_sleeps: false,
        }
    }

    /// A unit of a parallel search ([`crate::parallel`]): its path is run again as the
    /// frontier ran it, its last node opened with the unit's sleep set. The nodes of
    /// the path are closed to the search (`floor`): the frontier branched on every
    /// process there, so what a race of the unit's events would add above the floor
    /// is explored already (the argument is in [`crate::parallel::frontier`]). The
    /// races among the path's own events are not analysed, for the same reason.
    fn enter(&mut self, run: &mut Exploration<'_, '_>, unit: Unit) {
        for &p in &unit.path {
            self.open(run, None, WakeupTree::default());
            self.nodes[self.depth].started = true;
            run.replay(p);
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            run.ex.enabled(&mut self.enabled);
            self.depth += 1;
        }
        self.floor = self.depth;
        self.open(run, Some(unit.sleep), WakeupTree::default());
    }

    /// Alg. 1, lines 15–17: into `child`, the sleep set of `E.p` after the event of
    /// process `p_key` just run from node `d`: the entries of `sleep(E)` independent of
    /// it, and those the reduction keeps asleep (by `R`, or by commutation in `s[E]`);
    /// returns the processes kept so by commutation.
    fn sleep_after_step(
        &mut self,
        run: &mut Exploration<'_, '_>,
        d: usize,
        p_key: Fingerprint,
        child: &mut SleepSet,
    ) -> Vec<Fingerprint> {
        let optimal = self.parts.optimal();
        let chase = self.parts.chases_partners();
        let reduction = &mut self.reduction;
        let dependency = &mut self.dependency;
        let n_block = run.ex.events()[d].block;
        let mut around = self.snapshots.get(d).map(|before| NewEvent {
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
                    .is_some_and(|x| {
                        let n = (n_block, a.ex.entry_locals(d));
                        dependency.commute(a.program, x, n)
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
        self.nodes[d]
            .sleep
            .after(p_key, &n.footprint, (optimal, chase), &mut keep, child);
        commuted
    }

    /// What follows each event the search runs (a job of a split search runs its
    /// path's events so too, `split`): its happens-before and races (as it runs,
    /// unless observers find them at the end), the reduction's sequences for an
    /// `await` that ran after its disabler, and the probes of the processes left
    /// disabled; the enabled set of the new state is in `self.enabled`.
    fn after_event(&mut self, run: &mut Exploration<'_, '_>) {
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        if !self.parts.observers() {
            self.analyse_races(run, true);
        }
        // csdpor and cdpor: an `await` that waited for the events after the write
        // that disabled it (odpor-cs's don't-do sets have their own sequences).
        if !self.parts.optimal() && self.parts.states != States::Unchecked {
            self.sleep_before_disabler(run);
        }
        // odpor-ob too: its races are found at the end, but an `await` that ran
        // before the end asks here, over plain happens-before (a valid sequence,
        // if a less reduced one), to run before the writes that disabled it; at
        // the end only the processes still blocked are probed (odpor-ob missed a
        // trace so: `tests/regressions/odpor_ob_an_await_passes_the_writes_that_disabled_it.ic`).
        if self.parts.optimal() {
            self.pass_disabling_writes(run);
        }
        debug_assert_eq!(run.ex.events().len(), self.depth + 1);
        (run.ex).enabled_after(&self.nodes[self.depth].enabled, &mut self.enabled);
        self.probe_disabled(run);
    }

    /// Runs `p`'s next event and what follows it ([`Dpor::after_event`]), and says
    /// whether the step is one its sleep entry `ends` covers: always, or where it
    /// reaches one of the states given. A failed event stops its process (it is
    /// reported as it runs); the search goes on with the others.
    fn step_reaches_cover(&mut self, run: &mut Exploration<'_, '_>, p: usize, ends: &Ends) -> bool {
        let _ = run.step(p);
        self.after_event(run);
        ends.always
            || (!ends.at.is_empty()
                && ends.at.contains(
                    &run.ex
                        .state
                        .check_fingerprint(run.ex.program(), self.end_reads),
                ))
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
        node.needs.clear();
        node.wut = wut;
        node.current = None;
        node.started = false;
        node.blocked_steps.clear();
        node.commuted.clear();
        node.delegated.clear();
        node.fresh_after_blocked = 0;
        node.shared = false;
        node.explored.clear();
        match sleep {
            Some(s) => node.sleep = s,
            None => node.sleep.clear(),
        }
        if self.parts.snapshots() {
            if self.snapshots.len() == self.depth {
                self.snapshots.push(run.ex.state.clone());
            } else {
                self.snapshots[self.depth].clone_from(&run.ex.state);
            }
        }
    }

    /// Line 5 of Alg. 1 at node `d`: when every entry of its backtrack set not yet
    /// explored is one that explored entries stand for ([`needs`]), those entries are
    /// dropped and the node is left.
    pub(super) fn drop_unneeded(&mut self, run: &mut Exploration<'_, '_>, d: usize) {
        let Node {
            backtrack,
            needs,
            sleep,
            current,
            ..
        } = &mut self.nodes[d];
        let settled = needs::settled(*current, sleep, &run.ex.state);
        let pending: Vec<usize> = backtrack.iter().copied().filter(|&x| !settled(x)).collect();
        if pending.is_empty() || pending.iter().any(|&x| needs.needed(x, settled)) {
            return;
        }
        backtrack.retain(|x| !pending.contains(x));
        for &x in &pending {
            needs.forget(x);
        }
        run.stats.pruning.backtrack_dropped += pending.len() as u64;
    }

    /// A process to explore from `node` among `candidates` (see [`choose`]).
    fn choose(
        &self,
        run: &Exploration<'_, '_>,
        node: &Node,
        candidates: &[usize],
    ) -> Option<usize> {
        choose(self.parts.guided(), &run.ex.state, &node.sleep, candidates)
    }

    fn asleep(&self, run: &Exploration<'_, '_>, node: &Node, proc: usize) -> bool {
        node.sleep.asleep(run.ex.state.procs[proc].pid_key)
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

    /// Leaves the top node: steps back to its parent and puts the process explored
    /// from the parent to sleep there (Alg. 1, line 19). `false` at the root. The
    /// node's sets are final now: the tree, if recorded, shows them.
    fn close(&mut self, run: &mut Exploration<'_, '_>) -> bool {
        let top = &mut self.nodes[self.depth];
        run.annotate(self.depth, &top.sleep, &top.backtrack);
        self.wakeup_steps -= top.wut.size();
        top.wut = WakeupTree::default();
        if self.depth == self.floor {
            return false;
        }
        self.depth -= 1;
        let d = self.depth;
        let footprint: Footprint = run.ex.events()[d].footprint.clone();
        let explored = self
            .forwards
            .then(|| race_analysis::entry(&run.ex, d, false, self.dependency.carry()));
        self.hb.pop();
        run.back();
        // A race stays to judge again in every execution through its later event.
        self.refused_beside.retain(|&(_, n)| n < d);
        self.moved_races.retain(|&(_, n)| n < d);
        let node = &mut self.nodes[d];
        if let Some(p) = node.current.take() {
            let process = run.ex.state.procs[p].pid_key;
            node.sleep.insert(vec![Step { process, footprint }]);
            node.explored.extend(explored);
        }
        true
    }
}

impl<R: Reduction> Algorithm for Dpor<R> {
    fn name(&self) -> &'static str {
        self.reduction.name()
    }

    fn observes_the_end(&self) -> bool {
        self.parts.observers()
    }

    fn carries(&self) -> Carried {
        self.parts.carries()
    }

    /// Every search of the skeleton can start at a unit: the nodes above it are
    /// closed (`floor`), and what its races, sleep additions or blocked steps would
    /// add there is dropped, explored already by the frontier's full branching
    /// ([`crate::parallel::frontier`]).
    fn explores_units(&self, _deps: Deps) -> bool {
        true
    }

    /// Races as they run, on backtrack sets (sdpor, csdpor, cdpor) or on wakeup trees
    /// (odpor; odpor-cs and ocdpor, whose nodes of the top keep their blocked steps
    /// and steps kept by commutation: `shared_top`, "States compared"; ocdpor's `R`
    /// judged by every thread alike: `shared_top`, "With cdpor's `R`"). Not
    /// odpor-cs-ob, whose races are found where executions end.
    fn shares_top(&self) -> Option<Choice> {
        let shares = self.parts.races == Races::AsTheyRun;
        shares.then_some(match self.parts.guided() {
            true => Choice::ShortestSleep,
            false => Choice::First,
        })
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        self.depth = 0;
        self.guards = run
            .program()
            .sets
            .iter()
            .map(|sets| sets.guard_reads.iter().copied().collect())
            .collect();
        self.dependency = Dependency::new(
            run.program(),
            &self.guards,
            &self.parts,
            &run.ex.state,
            run.config.max_depth,
        );
        self.end_reads = !(run.config.violations_only && self.observes_the_end());
        run.ex.enabled(&mut self.enabled);
        self.wakeup_steps = 0;
        self.floor = 0;
        self.forwards = self.parts.optimal() && run.mailbox().is_some();
        self.late_sleeps = !self.parts.optimal()
            && self.parts.states != States::Unchecked
            && run.mailbox().is_some();
        if let Some(branch) = run.branch() {
            if self.enter_branch(run, branch) {
                return;
            }
        } else {
            match run.take_unit() {
                Some(unit) => self.enter(run, unit),
                None => self.open(run, None, WakeupTree::default()),
            }
        }
        let mut child_sleep = SleepSet::default();
        let optimal = self.parts.optimal();
        let mut child_wut = WakeupTree::default();
        loop {
            if self.forwards {
                self.receive_forwarded(run);
            }
            if self.late_sleeps {
                self.receive_late_sleeps(run);
            }
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
                    self.reverse_at_the_end(run);
                    self.observed_races(run, true);
                    self.give_away(run);
                    if !self.close(run) {
                        break;
                    }
                    continue;
                }
                if !optimal {
                    self.analyse_covered_steps(run, d);
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
                // The probes of `analyse_covered_steps` may have put one there already (a
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
                        self.reverse_at_the_end(run);
                        self.observed_races(run, false);
                        self.give_away(run);
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
                if self.parts.drops_unneeded() {
                    self.drop_unneeded(run, d);
                }
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
            let settled = (optimal && ends.always && self.parts.settles_dont_do())
                .then(|| unrun_successors(&run.ex, p, &self.guards))
                .flatten();
            if let Some(after) = settled {
                // ODPOR_cs Alg. 1, lines 25–26: a step confirmed in dnd(E) is run for
                // its races and its branch removed; they are analysed without running
                // it, as csdpor settles a covered step (`Dpor::block_unrun`).
                self.wakeup_steps -= child_wut.size();
                child_wut = WakeupTree::default();
                self.block_unrun(run, d, p, after.next.is_empty(), &ends.partners);
                continue;
            }
            // A step proved to end in a covered state was settled without running
            // (`analyse_covered_steps`, `block_unrun`), except with `--literal`, which
            // blocks it here, in an optimal search where it spawns or may leave a
            // raced waiter (`unrun_successors`), and where it blocks only if it
            // reaches a given state.
            if self.step_reaches_cover(run, p, &ends) {
                // ODPOR_cs Alg. 1, lines 26 and 33: the subtree of wut(E) below p is
                // not followed.
                self.wakeup_steps -= child_wut.size();
                child_wut = WakeupTree::default();
                self.block_after_equivalent(run, d, p, &ends.partners);
                continue;
            }
            // Lines 15–17: the sleep set of E.p.
            let commuted = self.sleep_after_step(run, d, p_key, &mut child_sleep);
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
