//! `--jobs N` for Source-DPOR (`sdpor`): the top of the execution tree, down to
//! [`SPLIT`] events, is one search whose nodes every thread adds to; below it each
//! node is a subtree that one thread explores as the sequential search would.
//!
//! The full-branching frontier of [`super::frontier`] costs Source-DPOR what
//! backtrack sets save: every enabled process is a branch there, and the units
//! below it explore sleep-blocked executions that one thread never runs (Readers(18)
//! took 185% more states and ran 0.58 times as fast on two threads). Here the top
//! is explored by Alg. 1 itself: a node of the top starts with one branch (line 3),
//! and gets more only from the races that ask for them (line 10), whichever thread
//! finds those races.
//!
//! A job is one branch of a node of the top: a thread runs the path to the node
//! (its races analysed as the sequential search analyses them), then the branch's
//! step. If the node it reaches is above [`SPLIT`] and has a process to run, the
//! thread hands it to the top ([`Handed`]), which starts its first branch as a new
//! job; otherwise the thread explores below it, to the end. Every race whose
//! reversal belongs to a node of the top — a node of the job's path — is sent to
//! the top as the initials of its `v` ([`Exploration::ask_above`]); the top takes
//! line 10's decision there, on the node's backtrack set as it is then, and starts
//! the branch it adds as a new job.
//!
//! # Why it explores what Source-DPOR explores
//!
//! It is a run of Alg. 1 with particular choices, in which the branches of a node
//! of the top are explored at once instead of one after the other:
//! - A node of the top is never left: every process that joins its backtrack set,
//!   at any time, from any thread, is explored if it is not asleep there (line 4);
//!   the search ends only when no job is queued or running, so when every backtrack
//!   set is final and explored.
//! - Its branches are ordered by when they start, and each starts with the sleep set
//!   the node had then, holding the branches started before it ([`Ending::Elsewhere`]
//!   entries, Alg. 1 line 19 "once explored" read as "once started"): each of those
//!   is explored to its end by the time the search ends, which is all that the sleep
//!   sets' property (JACM 2017, Sec. 4; the one Source-DPOR's proof uses) asks of an
//!   earlier sibling. So Source-DPOR's property holds: one complete execution per
//!   Mazurkiewicz trace, as on one thread.
//! - Line 10 ("unless an initial of `v` is in `backtrack(E')`, add one") is decided
//!   where `backtrack(E')` lives, under its lock; backtrack sets only grow, so every
//!   race found anywhere ends with an initial of its reversal in its node's final
//!   backtrack set, which is what the proof needs of them (it reasons about the
//!   final sets, whatever order the races were met in).
//! - Below the top each subtree is Alg. 1 unchanged; only the races that reach
//!   above its root leave it, and they are decided as above.
//!
//! What changes against one thread is which initial line 10 adds when a race's
//! reversal has several (the first enabled one, on the backtrack set as the other
//! threads have left it), so blocked executions and states may differ a little;
//! complete executions do not.
//!
//! [`Ending::Elsewhere`]: crate::dpor::sleep

use super::{first_stop, lock, merge, on_threads};
use crate::dpor::sleep::{SleepSet, Step};
use crate::exploration::{Algorithm, Config, Exploration, Progress};
use crate::report::{Parallel, Report, Stats, Stop};
use frontend::ir::Program;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The depth of the top: the events a node has above it to be shared. Deeper tops
/// give more, smaller subtrees and cost each job the replay of a longer path;
/// where one subtree is most of the work, its job gives nodes away when a thread
/// waits, whatever the depth. 4, 6, 8 and 10 took the same time within noise on
/// lastzero(13), filesystem(22) and readers(18) (two threads); 20 took lastzero(13)
/// from 2.1 s to 17 s (739k jobs).
pub const SPLIT: usize = 6;

/// The top a search's threads share: its depth, and whether a job gives its nodes
/// away wherever an execution ends and nothing is queued, or only when a thread
/// also waits (the default; eagerly, the tests exercise giving on programs whose
/// jobs end before a thread has waited).
#[derive(Clone, Copy, Debug)]
pub struct TopSplit {
    pub depth: usize,
    pub eager: bool,
}

impl Default for TopSplit {
    fn default() -> Self {
        TopSplit {
            depth: SPLIT,
            eager: false,
        }
    }
}

/// One branch of a node of the top, for a thread to explore.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The processes (indices) from the initial state to the node, then the branch's.
    /// Empty for the first job: the initial state is the node.
    pub path: Vec<usize>,
    /// The node's sleep set when the branch started.
    pub before: SleepSet,
    /// Whether the node the branch reaches is in the top too: then it is handed to
    /// the top ([`Handed`]) rather than explored.
    pub splits: bool,
}

/// A node for the top, as the thread that reached it hands it over.
pub struct Handed {
    /// The processes (indices) from the initial state to it.
    pub path: Vec<usize>,
    /// The enabled processes (indices), and the step each runs there.
    pub enabled: Vec<usize>,
    pub steps: Vec<Step>,
    /// Its sleep set, with the branches explored from it so far.
    pub sleep: SleepSet,
    /// Its backtrack set: empty for a node no branch of which was explored yet.
    pub backtrack: Vec<usize>,
}

/// A thread's link to the top while it explores one job: what it sends there.
pub struct Link {
    top: Arc<SharedTop>,
    job: Job,
    /// Races for nodes of the path: the node's depth and the initials of `v`.
    asked: Vec<(usize, Vec<usize>)>,
    handed: Option<Handed>,
}

impl Link {
    /// The branch to explore.
    pub fn branch(&self) -> Branch {
        self.job.branch.clone()
    }

    /// Whether the node at `depth` of the current execution is in the top.
    pub fn above(&self, depth: usize) -> bool {
        depth < self.job.ancestors.len()
    }

    /// Whether another thread waits for work and none is queued.
    pub fn hungry(&self) -> bool {
        let waiting = self.top.eager || self.top.waiting.load(Ordering::Relaxed) > 0;
        waiting && self.top.queued.load(Ordering::Relaxed) == 0
    }

    /// Gives the nodes `given`, the job's from its root down, to the top: the job
    /// explores only below the last from now on.
    pub fn give(&mut self, given: Vec<Handed>) {
        self.flush();
        let mut top = lock(&self.top.inner);
        for node in given {
            let id = top.adopt(&self.job.ancestors, node);
            self.job.ancestors.push(id);
        }
        self.top.queued.store(top.queue.len(), Ordering::Relaxed);
        drop(top);
        self.top.ready.notify_all();
    }

    /// Line 10 for the node at `depth` of the path: `initials` are those of `v`.
    pub fn ask(&mut self, depth: usize, initials: Vec<usize>) {
        self.asked.push((depth, initials));
    }

    pub fn hand(&mut self, node: Handed) {
        self.handed = Some(node);
    }

    /// Sends what was asked so far (once per execution, so that other threads get
    /// the branches early).
    pub fn flush(&mut self) {
        if self.asked.is_empty() {
            return;
        }
        self.asked.sort_unstable();
        self.asked.dedup();
        let mut top = lock(&self.top.inner);
        for (depth, initials) in self.asked.drain(..) {
            top.ask(self.job.ancestors[depth], &initials);
        }
        self.top.queued.store(top.queue.len(), Ordering::Relaxed);
        drop(top);
        self.top.ready.notify_all();
    }
}

/// A job: a branch, and the top's nodes along its path (`ancestors[d]` is the node
/// at depth `d`).
#[derive(Clone, Debug)]
struct Job {
    branch: Branch,
    ancestors: Vec<usize>,
}

struct Node {
    path: Vec<usize>,
    /// The top's nodes from the root to this one, itself included.
    ancestors: Vec<usize>,
    enabled: Vec<usize>,
    steps: Vec<Step>,
    sleep: SleepSet,
    backtrack: Vec<usize>,
}

struct Top {
    /// The events above a node of the top.
    depth: usize,
    nodes: Vec<Node>,
    queue: Vec<Job>,
    running: usize,
    /// Jobs given out, for the report.
    given: usize,
}

impl Top {
    /// Alg. 1, line 10 at `node`: unless an initial of `v` is in its backtrack set,
    /// the first that is enabled there joins it, and is explored (line 4).
    fn ask(&mut self, node: usize, initials: &[usize]) {
        let n = &mut self.nodes[node];
        if initials.iter().any(|q| n.backtrack.contains(q)) {
            return;
        }
        if let Some(&q) = initials.iter().find(|q| n.enabled.contains(q)) {
            n.backtrack.push(q);
            self.start(node, q);
        }
    }

    /// Line 4 for `p` of `node`'s backtrack set: a job unless `p` is asleep there;
    /// it sleeps there for the branches started after it.
    fn start(&mut self, node: usize, p: usize) {
        let n = &mut self.nodes[node];
        let i = (n.enabled.iter().position(|&q| q == p)).expect("a backtrack entry is enabled");
        let step = n.steps[i].clone();
        if n.sleep.asleep(step.process) {
            return;
        }
        let mut path = n.path.clone();
        path.push(p);
        let job = Job {
            branch: Branch {
                splits: path.len() < self.depth,
                path,
                before: n.sleep.clone(),
            },
            ancestors: n.ancestors.clone(),
        };
        n.sleep.insert_elsewhere(step);
        self.queue.push(job);
    }

    /// A node handed over below the nodes `ancestors`; returns its id. One that
    /// comes without a backtrack set takes lines 1–3: its first enabled process not
    /// asleep (a thread hands over only a node that has one). Each process of its
    /// backtrack set not asleep there is explored (line 4).
    fn adopt(&mut self, ancestors: &[usize], handed: Handed) -> usize {
        let id = self.nodes.len();
        let mut backtrack = handed.backtrack;
        if backtrack.is_empty() {
            let first = (handed.enabled.iter().zip(&handed.steps))
                .find(|(_, s)| !handed.sleep.asleep(s.process))
                .map(|(&p, _)| p);
            backtrack.extend(first);
        }
        self.nodes.push(Node {
            path: handed.path,
            ancestors: ancestors.iter().copied().chain([id]).collect(),
            enabled: handed.enabled,
            steps: handed.steps,
            sleep: handed.sleep,
            backtrack: backtrack.clone(),
        });
        for p in backtrack {
            if self.nodes[id].enabled.contains(&p) {
                self.start(id, p);
            }
        }
        id
    }
}

/// The top, shared by the threads.
pub struct SharedTop {
    inner: Mutex<Top>,
    ready: Condvar,
    /// Threads waiting for a job, and jobs queued: read without the lock by threads
    /// that may give work away ([`Link::hungry`]).
    waiting: AtomicUsize,
    queued: AtomicUsize,
    eager: bool,
    /// Set when a thread's search stops the whole (a violation, a timeout).
    halt: Arc<AtomicBool>,
}

impl SharedTop {
    fn new(TopSplit { depth, eager }: TopSplit, halt: Arc<AtomicBool>) -> SharedTop {
        let root = Job {
            branch: Branch {
                path: Vec::new(),
                before: SleepSet::default(),
                splits: depth > 0,
            },
            ancestors: Vec::new(),
        };
        SharedTop {
            inner: Mutex::new(Top {
                depth,
                nodes: Vec::new(),
                queue: vec![root],
                running: 0,
                given: 0,
            }),
            ready: Condvar::new(),
            waiting: AtomicUsize::new(0),
            queued: AtomicUsize::new(1),
            eager,
            halt,
        }
    }

    /// The next job, waiting while other threads may still add some; `None` when
    /// the search is over.
    fn next(&self) -> Option<Job> {
        let mut top = lock(&self.inner);
        loop {
            if self.halt.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(job) = top.queue.pop() {
                top.running += 1;
                top.given += 1;
                self.queued.store(top.queue.len(), Ordering::Relaxed);
                return Some(job);
            }
            if top.running == 0 {
                return None;
            }
            self.waiting.fetch_add(1, Ordering::Relaxed);
            top = self.ready.wait(top).unwrap_or_else(|e| e.into_inner());
            self.waiting.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// `link`'s job is over: what it asked and handed over joins the top.
    fn done(&self, mut link: Link) {
        link.flush();
        let mut top = lock(&self.inner);
        if let Some(handed) = link.handed.take() {
            top.adopt(&link.job.ancestors, handed);
        }
        top.running -= 1;
        self.queued.store(top.queue.len(), Ordering::Relaxed);
        drop(top);
        self.ready.notify_all();
    }
}

/// A job being run: if its thread panics, the search is halted and the job counted
/// done, so that the other threads do not wait for it for ever (the panic is then
/// the search's outcome). A job that ends is [forgotten](std::mem::forget).
struct Turn<'a>(&'a SharedTop);

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.halt.store(true, Ordering::Relaxed);
        lock(&self.0.inner).running -= 1;
        self.0.ready.notify_all();
    }
}

/// Source-DPOR, which `make` builds ([`Algorithm::shares_backtrack_sets`]), on `jobs`
/// threads sharing the top of its tree as `split` says.
pub fn explore(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    config: Config,
    (jobs, split): (usize, TopSplit),
    progress: Option<Progress<'_>>,
) -> Report {
    let started = Instant::now();
    let max_outcomes = config.max_outcomes;
    let halt = Arc::new(AtomicBool::new(false));
    let top = Arc::new(SharedTop::new(split, halt.clone()));
    // The jobs' reports, by path: merged in depth-first order.
    let results: Mutex<Vec<(Vec<usize>, Report, bool)>> = Mutex::new(Vec::new());
    let done = Mutex::new(Stats::default());
    let current: Vec<Mutex<Stats>> = (0..jobs).map(|_| Mutex::default()).collect();
    let init_failed: Mutex<Option<Report>> = Mutex::new(None);
    let work = |w: usize| {
        let current = &current[w];
        while let Some(job) = top.next() {
            let turn = Turn(&top);
            let algorithm = make();
            let mut show = |s: &Stats| *lock(current) = s.clone();
            let progress: Option<Progress<'_>> = Some(&mut show);
            let mut run = match Exploration::new(program, &*algorithm, config.clone(), progress) {
                Ok(run) => run,
                Err(report) => {
                    // The initial block fails: the first job says so, and there is no other.
                    *lock(&init_failed) = Some(*report);
                    top.done(Link {
                        top: top.clone(),
                        job,
                        asked: Vec::new(),
                        handed: None,
                    });
                    std::mem::forget(turn);
                    continue;
                }
            };
            let path = job.branch.path.clone();
            let link = Link {
                top: top.clone(),
                job,
                asked: Vec::new(),
                handed: None,
            };
            run.for_branch(link, started, halt.clone());
            let mut algorithm = algorithm;
            algorithm.explore(&mut run);
            let link = run.take_link();
            let halted = run.halted();
            let report = run.finish(&*algorithm);
            if !halted && report.stop != Stop::Complete {
                halt.store(true, Ordering::Relaxed);
            }
            merge::add_stats(&mut lock(&done), &report.stats);
            *lock(current) = Stats::default();
            lock(&results).push((path, report, halted));
            if let Some(link) = link {
                top.done(link);
            }
            std::mem::forget(turn);
        }
        // Wake the others: the search may be over, or halted.
        top.ready.notify_all();
    };
    let counters = || {
        let mut all = lock(&done).clone();
        for c in &current {
            merge::add_stats(&mut all, &lock(c));
        }
        all
    };
    on_threads(jobs, &work, progress, &counters);
    if let Some(report) = init_failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return report;
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let stop = first_stop(results.iter().filter(|r| !r.2).map(|r| r.1.stop));
    let units = lock(&top.inner).given;
    let reports = results.into_iter().map(|(_, r, _)| r).collect();
    let mut report = merge::merge(reports, stop, max_outcomes);
    report.parallel = Some(Parallel {
        jobs,
        units,
        depth: split.depth,
        shard: None,
        shards: None,
        shared_top: true,
    });
    report
}
