//! A search on backtrack sets (sdpor, csdpor, cdpor) as one job of a search whose
//! top the threads share ([`crate::parallel::shared_top`], where the argument is):
//! a job starts at a
//! branch of a node of the top, hands the node it reaches to the top when that node
//! is in it, and gives its own shallowest nodes to the top when another thread has
//! nothing to do.

use super::sleep::{SleepSet, Step};
use super::wakeup_tree::WakeupTree;
use super::{Dpor, Reduction};
use crate::exploration::Exploration;
use crate::parallel::shared_top::{Branch, Handed};

impl<R: Reduction> Dpor<R> {
    /// Starts a job: the path is run again with its races analysed as they were where
    /// it was first run (those whose reversal belongs to a node of the path, and what
    /// lines 11–14 add to such a node's sleep set, are sent to the top: see
    /// [`super::race_analysis::add_initial`], [`Dpor::sleep_at`]), its last step
    /// counted as new. If that step reaches a covered state (`before`, the node's
    /// sleep set, says so), the execution ends blocked there, as on one thread, and
    /// the top is told. Otherwise the node it reaches is opened with the sleep set
    /// `before` leaves after that step (Alg. 1, lines 15–17), its covered steps analysed;
    /// if it is in the top and has a process to run, it is handed over and `true` is
    /// returned: the job is done.
    pub(super) fn enter_branch(&mut self, run: &mut Exploration<'_, '_>, branch: Branch) -> bool {
        let Branch {
            path,
            before,
            splits,
        } = branch;
        let mut before = Some(before);
        for (i, &p) in path.iter().enumerate() {
            let last = i + 1 == path.len();
            // The node of the branch has the sleep set it had in the top.
            let sleep = if last { before.take() } else { None };
            self.open(run, sleep, WakeupTree::default());
            self.nodes[self.depth].started = true;
            let ends = last.then(|| {
                self.nodes[self.depth]
                    .sleep
                    .ends(run.ex.state.procs[p].pid_key)
            });
            if last {
                // A failed event is reported here, and its process stops.
                let _ = run.step(p);
            } else {
                run.replay(p);
            }
            self.after_event(run);
            if let Some(ends) = ends {
                let reached = || {
                    run.ex
                        .state
                        .check_fingerprint(run.ex.program(), self.end_reads)
                };
                if ends.always || (!ends.at.is_empty() && ends.at.contains(&reached())) {
                    self.end_covered(run, p, &ends.partners);
                    run.branch_blocked();
                    return true;
                }
            }
            self.depth += 1;
        }
        let mut sleep = SleepSet::default();
        if let Some(&p) = path.last() {
            let process = run.ex.state.procs[p].pid_key;
            self.sleep_after_step(run, self.depth - 1, process, &mut sleep);
        }
        self.floor = self.depth;
        self.open(run, Some(sleep), WakeupTree::default());
        if !splits {
            return false;
        }
        self.analyse_covered_steps(run, self.depth);
        let node = &self.nodes[self.depth];
        if run.stopped() || self.awake(run, node).is_empty() {
            return false;
        }
        let handed = Handed {
            path,
            enabled: node.enabled.clone(),
            steps: steps_here(run, &node.enabled),
            sleep: node.sleep.clone(),
            backtrack: Vec::new(),
        };
        run.hand_over(handed);
        true
    }

    /// Where an execution ends, if another thread waits for work and none is queued:
    /// the nodes from the job's root down to the shallowest one with a branch still
    /// to explore go to the top, which starts those branches as jobs, and the job
    /// goes on below that node only. A node of the top explores the same branches
    /// as here (its backtrack set and sleep set go with it, the branch being
    /// explored here sleeping there as started elsewhere), and races of this job
    /// that belong to those nodes are asked of the top from now on.
    pub(super) fn give_away(&mut self, run: &mut Exploration<'_, '_>) {
        if !run.hungry_for_branches() {
            return;
        }
        let pending = |d: usize| {
            let node = &self.nodes[d];
            node.backtrack.iter().any(|&p| {
                node.current != Some(p)
                    && node.enabled.contains(&p)
                    && !node.sleep.asleep(run.ex.state.procs[p].pid_key)
            })
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
        let mut given = Vec::new();
        for d in self.floor..=k {
            let node = &self.nodes[d];
            let steps = steps_here(run, &node.enabled);
            let mut sleep = node.sleep.clone();
            debug_assert_eq!(
                node.current,
                Some(path[d]),
                "the path is the current branches'"
            );
            let process = run.ex.state.procs[path[d]].pid_key;
            let footprint = run_step(run, path[d]);
            sleep.insert_elsewhere(Step { process, footprint });
            given.push(Handed {
                path: path[..d].to_vec(),
                enabled: node.enabled.clone(),
                steps,
                sleep,
                backtrack: node.backtrack.clone(),
            });
        }
        for &p in &path[k + 1..self.depth] {
            run_step(run, p);
        }
        run.give_nodes(given, &path[self.floor..=k]);
        self.floor = k + 1;
    }
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
