//! A search as one job of a search whose top the threads share
//! ([`crate::parallel::shared_top`], where the argument is): a job starts at a
//! branch of a node of the top, hands the node it reaches to the top when that node
//! is in it, and gives its own shallowest nodes to the top when another thread has
//! nothing to do. On backtrack sets (sdpor, csdpor, cdpor) the top decides line 10
//! for the races a job sends it; with wakeup trees (odpor, odpor-cs) the job works on the
//! top's node itself, under the top's lock ([`Dpor::take_shared_branch`],
//! `Dpor::insert_wakeup`).

use super::covered::unrun_successors;
use super::race_analysis::{add_dont_do, entry};
use super::sleep::{SleepSet, Step};
use super::wakeup_tree::{Entry, WakeupTree};
use super::{Dpor, Node, Reduction};
use crate::exploration::Exploration;
use crate::parallel::shared_top::{Branch, ByState, Handed, Held, Pending, Route, Started};

impl<R: Reduction> Dpor<R> {
    /// What lines 11–14 added to the sleep set of a node of the top after this job's
    /// branch there started, under a branch started before it (the top's
    /// `Top::deliver`, which has the argument): it is carried down the job's path
    /// as a sleep set is from a node to its child (lines 15–16: a sequence loses a
    /// head the path ran, and is dropped at a step that conflicts with it; what
    /// line 17 keeps by state equality is not kept, so it reaches fewer nodes than
    /// it would have), and joins the sleep sets of the job's own nodes on the way.
    pub(super) fn receive_late_sleeps(&mut self, run: &mut Exploration<'_, '_>) {
        let chase = self.parts.chases_partners();
        for (depth, dont) in run.late_sleeps() {
            let mut carried = SleepSet::default();
            add_dont_do(&mut carried, Some(dont));
            for d in depth..self.depth {
                let event = &run.ex.events()[d];
                let p = run.ex.state.procs[event.proc].pid_key;
                let mut below = SleepSet::default();
                carried.after(p, &event.footprint, (false, chase), |_| None, &mut below);
                carried = below;
                if carried.is_empty() {
                    break;
                }
                if !run.shares_above(d + 1) {
                    self.nodes[d + 1].sleep.join(&carried);
                }
            }
        }
    }

    /// Starts a job: the path is run again with its races analysed as they were where
    /// it was first run (those whose reversal belongs to a node of the path, and what
    /// lines 11–14 add to such a node's sleep set, are sent to the top: see
    /// [`super::race_analysis::add_initial`], [`Dpor::sleep_at`]), its last step
    /// counted as new (with wakeup trees, the step of the branch the job takes at
    /// the node: [`Dpor::take_shared_branch`]). If that step reaches a covered state
    /// (`before`, the node's sleep set, says so), the execution ends blocked there,
    /// as on one thread, and the top is told. Otherwise the node it reaches is opened
    /// with the sleep set `before` leaves after that step (Alg. 1, lines 15–17), its
    /// covered steps analysed; if it is in the top and has a process to run, it is
    /// handed over and `true` is returned: the job is done.
    pub(super) fn enter_branch(&mut self, run: &mut Exploration<'_, '_>, branch: Branch) -> bool {
        let Branch {
            mut path,
            before,
            splits,
            take,
        } = branch;
        let node = path.len() - usize::from(!take && !path.is_empty());
        for &p in &path[..node] {
            self.open(run, None, WakeupTree::default());
            self.nodes[self.depth].started = true;
            run.replay(p);
            self.after_event(run);
            self.depth += 1;
        }
        let mut child_wut = WakeupTree::default();
        let step = match take {
            true => {
                self.open(run, None, WakeupTree::default());
                let Some((p, before, wut)) = self.take_shared_branch(run) else {
                    return true;
                };
                path.push(p);
                child_wut = wut;
                Some((p, before))
            }
            false => (path.last()).map(|&p| {
                self.open(run, None, WakeupTree::default());
                (p, before)
            }),
        };
        let mut sleep = SleepSet::default();
        let mut commuted = Vec::new();
        if let Some((p, before)) = step {
            let d = self.depth;
            let node = &mut self.nodes[d];
            node.sleep = before;
            node.started = true;
            node.current = Some(p);
            let process = run.ex.state.procs[p].pid_key;
            let ends = node.sleep.ends(process);
            // odpor-cs's note 7: a step confirmed in `dnd(E)` is settled unrun, as
            // the main loop settles it.
            let settled = (ends.always && self.parts.settles_dont_do())
                .then(|| unrun_successors(&run.ex, p, &self.guards))
                .flatten();
            if let Some(after) = settled {
                self.block_unrun(run, d, p, after.next.is_empty(), &ends.partners);
                run.branch_blocked();
                return true;
            }
            if self.step_reaches_cover(run, p, &ends) {
                self.end_covered(run, p, &ends.partners);
                run.branch_blocked();
                return true;
            }
            commuted = self.sleep_after_step(run, d, process, &mut sleep);
            self.depth += 1;
        }
        self.floor = self.depth;
        self.wakeup_steps += child_wut.size();
        self.open(run, Some(sleep), child_wut);
        if self.parts.optimal() {
            self.run_commuted(run, &commuted);
        }
        if !splits || run.stopped() {
            return false;
        }
        let d = self.depth;
        let pending = match self.parts.optimal() {
            true => {
                // Optimal-DPOR, line 3: an empty tree takes one awake process.
                if !self.runnable_branch(run, d) {
                    let node = &self.nodes[d];
                    match self.choose(run, node, &self.awake(run, node)) {
                        Some(p) => self.choose_fresh(run, d, p),
                        None => return false,
                    }
                }
                let node = &mut self.nodes[d];
                let wut = std::mem::take(&mut node.wut);
                self.wakeup_steps -= wut.size();
                let by_state = ByState {
                    commuted: node.commuted.clone(),
                    ..ByState::default()
                };
                Pending::wakeup(wut, Vec::new(), by_state)
            }
            false => {
                self.analyse_covered_steps(run, d);
                let node = &self.nodes[d];
                if run.stopped() || self.awake(run, node).is_empty() {
                    return false;
                }
                let steps = steps_here(run, &node.enabled);
                Pending::backtrack(node.enabled.clone(), steps, Vec::new())
            }
        };
        let handed = Handed {
            path,
            sleep: self.nodes[d].sleep.clone(),
            pending,
        };
        let program = run.ex.program();
        let dependency = &mut self.dependency;
        run.hand_over(handed, &mut |seq: &[&Entry], i: usize, k: usize| {
            dependency.lifted(program, seq, i, k)
        });
        true
    }

    /// Optimal-DPOR's line 4 at the node of the top the job stands at: its leftmost
    /// branch that can run (what cannot is dropped first, [`Dpor::runnable_branch`]),
    /// taken out of the node's wakeup tree under the top's lock, with the subtree
    /// below it and the node's sleep set then; it sleeps there, started, for the
    /// branches taken after it. `None` if the tree has no branch left.
    fn take_shared_branch(
        &mut self,
        run: &mut Exploration<'_, '_>,
    ) -> Option<(usize, SleepSet, WakeupTree)> {
        let d = self.depth;
        let (top, id) = run.shared_node(d)?;
        let mut held = top.hold(id);
        let node = &mut self.nodes[d];
        let lent = held.lend(None, &mut node.wut);
        let (mut provisional, lent_settles) = (lent.provisional, lent.settles);
        node.sleep = lent.sleep.into_owned();
        swap_by_state(&mut held, node);
        node.shared = true;
        // The count of steps held along the path, which `runnable_branch` keeps,
        // holds the top's tree for as long as it is here.
        let steps = self.wakeup_steps;
        self.wakeup_steps += node.wut.size();
        let mut runnable = self.runnable_branch(run, d);
        if !runnable && !self.nodes[d].blocked_steps.is_empty() {
            // The tree is spent after blocked branches: a fresh process, if one is
            // owed, as the main loop chooses one (odpor-cs's note 5), among those
            // not taken from the node yet, blocked ones included (also those run
            // before the node was given to the top).
            let node = &mut self.nodes[d];
            node.backtrack = held.taken();
            node.needs.clear();
            for key in &node.blocked_steps {
                let i = run.ex.state.procs.iter().position(|q| q.pid_key == *key);
                node.backtrack
                    .extend(i.filter(|i| !node.backtrack.contains(i)));
            }
            runnable = self.choose_after_blocked(run, d);
            self.nodes[d].backtrack.clear();
            if runnable {
                held.chose_fresh();
            }
        }
        let taken = runnable.then(|| {
            let node = &mut self.nodes[d];
            let entry = node.wut.first()?.clone();
            let p = (run.ex.state.procs.iter()).position(|q| q.pid_key == entry.process)?;
            let below = node.wut.take_first().unwrap_or_default();
            // A provisional leaf may have swallowed what a settled branch asked for.
            if below.provisional_leaves() {
                node.sleep.distrust_settled();
                provisional |= lent_settles;
            }
            Some((p, entry, below))
        });
        self.wakeup_steps = steps;
        let before = self.nodes[d].sleep.clone();
        let end_reads = self.end_reads;
        let settles = self.parts.settles_dont_do();
        let guards = &self.guards;
        let taken = taken.flatten().map(|(p, entry, below)| {
            let process = run.ex.state.procs[p].pid_key;
            // Whether the step blocks here (odpor-cs: confirmed in `dnd(E)`, or
            // reaching a covered state), decided as `Dpor::enter_branch` will, and the
            // step it then leaves in `dnd(E)`: one settled unrun with its transition
            // footprint (`Dpor::block_unrun`), one run with its event's.
            let ends = before.ends(process);
            let settled = ends.always && settles && unrun_successors(&run.ex, p, guards).is_some();
            let footprint = run_step(run, p);
            let blocks = ends.always
                || (!ends.at.is_empty()
                    && (ends.at)
                        .contains(&run.ex.state.check_fingerprint(run.ex.program(), end_reads)));
            run.ex.back();
            let blocked = blocks.then(|| {
                let footprint = match settled {
                    true => {
                        let footprint = run.ex.unrun(p).footprint.clone();
                        run.ex.back();
                        footprint
                    }
                    false => footprint.clone(),
                };
                (Step { process, footprint }, ends.partners)
            });
            let route = match blocked {
                Some(_) => Route::Blocked,
                None => Route::Job(run.mailbox().unwrap_or_default(), d + 1),
            };
            let started = Started {
                p,
                entry,
                step: Step { process, footprint },
                before: before.clone(),
                route,
                provisional,
            };
            (p, started, below, blocked)
        });
        let node = &mut self.nodes[d];
        held.give_back(&mut node.wut);
        swap_by_state(&mut held, node);
        node.shared = false;
        let (p, started, below, blocked) = match taken {
            Some((p, started, below, blocked)) => (p, Some(started), below, blocked),
            None => {
                held.took(None);
                return None;
            }
        };
        held.took(started.map(|s| (p, s)));
        if let Some((step, partners)) = blocked {
            held.block(step, &partners);
        }
        drop(held);
        run.took(p);
        Some((p, before, below))
    }

    /// Where an execution ends, if another thread waits for work and none is queued:
    /// the nodes from the job's root down to the shallowest one with a branch still
    /// to explore go to the top, which starts those branches as jobs, and the job
    /// goes on below that node only. A node of the top explores the same branches
    /// as here (its backtrack set or wakeup tree and its sleep set go with it, the
    /// branch being explored here sleeping there as started elsewhere), and races of
    /// this job that belong to those nodes are asked of the top from now on.
    pub(super) fn give_away(&mut self, run: &mut Exploration<'_, '_>) {
        if !run.hungry_for_branches() {
            return;
        }
        let optimal = self.parts.optimal();
        let pending = |d: usize| {
            let node = &self.nodes[d];
            match optimal {
                true => !node.wut.is_empty(),
                false => node.backtrack.iter().any(|&p| {
                    node.current != Some(p)
                        && node.enabled.contains(&p)
                        && !node.sleep.asleep(run.ex.state.procs[p].pid_key)
                }),
            }
        };
        let Some(k) = (self.floor..self.depth).find(|&d| pending(d)) else {
            return;
        };
        // The steps of the enabled processes at each node given: the executor goes
        // back to the job's root and forward again along the same events.
        let path: Vec<usize> = run.ex.events().iter().map(|e| e.proc).collect();
        for _ in self.floor..self.depth {
            run.ex.back();
        }
        let mailbox = run.mailbox().unwrap_or_default();
        let mut given = Vec::new();
        for d in self.floor..=k {
            let steps = (!optimal).then(|| steps_here(run, &self.nodes[d].enabled));
            let node = &self.nodes[d];
            debug_assert_eq!(
                node.current,
                Some(path[d]),
                "the path is the current branches'"
            );
            let mut sleep = node.sleep.clone();
            let process = run.ex.state.procs[path[d]].pid_key;
            let footprint = run_step(run, path[d]);
            let step = Step { process, footprint };
            let node = &mut self.nodes[d];
            let pending = match steps {
                Some(steps) => {
                    sleep.insert_elsewhere(step);
                    Pending::backtrack(node.enabled.clone(), steps, node.backtrack.clone())
                }
                None => {
                    // The branches explored here, then the one being explored:
                    // sequences for it come to this job, or to the node below it
                    // once that is given too.
                    let wut = std::mem::take(&mut node.wut);
                    self.wakeup_steps -= wut.size();
                    let state = &run.ex.state;
                    let mut started: Vec<Started> = (node.explored.iter())
                        .filter_map(|e| {
                            let p = state.procs.iter().position(|q| q.pid_key == e.process)?;
                            Some(Started::done(p, e.clone()))
                        })
                        .collect();
                    started.push(Started {
                        p: path[d],
                        entry: entry(&run.ex, d, false, self.dependency.carry()),
                        step,
                        before: sleep.clone(),
                        route: Route::Job(mailbox.clone(), d + 1),
                        provisional: false,
                    });
                    let by_state = ByState {
                        blocked: node.blocked_steps.clone(),
                        commuted: node.commuted.clone(),
                        fresh: node.fresh_after_blocked,
                        recheck: !node.blocked_steps.is_empty(),
                    };
                    Pending::wakeup(wut, started, by_state)
                }
            };
            given.push(Handed {
                path: path[..d].to_vec(),
                sleep,
                pending,
            });
        }
        for &p in &path[k + 1..self.depth] {
            run_step(run, p);
        }
        run.give_nodes(given, &path[self.floor..=k]);
        self.floor = k + 1;
    }
}

/// Swaps what a node of the top keeps for a search that compares states (its
/// blocked and commuted steps, its fresh choices, [`ByState`]) with this search's
/// own node at its depth, which stands for it while it is held: the same code reads
/// them there. Swapped again, each has its own back.
pub(super) fn swap_by_state(held: &mut Held<'_>, node: &mut Node) {
    held.swap_by_state(
        &mut node.blocked_steps,
        &mut node.commuted,
        &mut node.fresh_after_blocked,
    );
}

/// The step each of `enabled` runs in the current state, run and undone.
fn steps_here(run: &mut Exploration<'_, '_>, enabled: &[usize]) -> Vec<Step> {
    (enabled.iter())
        .map(|&p| {
            let process = run.ex.state.procs[p].pid_key;
            let footprint = run_step(run, p);
            run.ex.back();
            Step { process, footprint }
        })
        .collect()
}

/// Runs the next block of `p` again, as it ran before (counted then), and returns
/// its footprint.
fn run_step(run: &mut Exploration<'_, '_>, p: usize) -> crate::dependency::footprint::Footprint {
    let _ = run.ex.step(p);
    (run.ex.events().last())
        .expect("the step ran")
        .footprint
        .clone()
}
