//! `--jobs N` for the searches on backtrack sets (sdpor, csdpor, cdpor) and for
//! Optimal-DPOR (odpor, odpor-cs, ocdpor): the top of the execution tree, down to
//! [`SPLIT`] events, is one search whose nodes every thread adds to; below it each
//! node is a subtree that one thread explores as the sequential search would. What
//! follows is written for backtrack sets; [With wakeup trees](#with-wakeup-trees)
//! says what differs.
//!
//! The full-branching frontier of [`super::frontier`] costs these searches what
//! backtrack sets save: every enabled process is a branch there, and the units
//! below it explore sleep-blocked executions that one thread never runs (Readers(18)
//! took 185% more states and ran 0.58 times as fast on two threads), and share no
//! state checks (cdpor on PS_shared(7): 1,470 executions where one thread explores
//! 1). Here the top is explored by Alg. 1 itself: a node of the top starts with one
//! branch (line 3), and gets more only from the races that ask for them (line 10),
//! whichever thread finds those races.
//!
//! A job is one branch of a node of the top: a thread runs the path to the node
//! (its races analysed as the sequential search analyses them), then the branch's
//! step. If the node it reaches is above [`SPLIT`] and has a process to run, and
//! the threads have fewer than two jobs each waiting, the thread hands it to the top
//! ([`Handed`]), which starts its first branch as a new job; otherwise the thread
//! explores below it, to the end. Every race whose
//! reversal belongs to a node of the top — a node of the job's path — is sent to
//! the top as the initials of its `v` ([`Exploration::ask_above`]), and so is what
//! lines 11–14 add to such a node's sleep set ([`Exploration::sleep_above`]); the
//! top takes line 10's decision there, on the node's backtrack set as it is then.
//! A branch it adds starts as a job once no other branch of its node is being
//! explored, as on one thread, so that it starts with what those added to the
//! node's sleep set; a thread with nothing else to do takes such a branch early,
//! the deepest node's (`Top::launch_deferred`), and it takes what the branches
//! started before it add to the node's sleep set as they send it (`Top::deliver`).
//! A job that runs long gives the shallowest of its own nodes with branches left,
//! and those above it, to the top when another thread waits and nothing is queued
//! (`crate::dpor::split`).
//!
//! # Why it explores what one thread explores
//!
//! It is a run of Alg. 1 with particular choices, in which branches of a node of
//! the top may be explored at once instead of one after the other:
//! - A node of the top is never left: every process that joins its backtrack set,
//!   at any time, from any thread, is explored if it is not asleep there (line 4);
//!   the search ends only when no job is queued, deferred or running, so when every
//!   backtrack set is final and explored.
//! - Its branches are ordered by when they start, and each starts with the sleep set
//!   the node has then, holding the branches started before it ([`Ending::Elsewhere`]
//!   entries, Alg. 1 line 19 "once explored" read as "once started"): each of those
//!   is explored to its end by the time the search ends, which is all that the sleep
//!   sets' property (JACM 2017, Sec. 4; the one Source-DPOR's proof uses) asks of an
//!   earlier sibling. So Source-DPOR's property holds: one complete execution per
//!   Mazurkiewicz trace, as on one thread.
//! - Line 10 ("unless an initial of `v` is in `backtrack(E')`, add one") is decided
//!   where `backtrack(E')` lives, under its lock, with the search's own choice
//!   ([`Choice`]); backtrack sets only grow, so every race found anywhere ends with
//!   an initial of its reversal in its node's final backtrack set, which is what the
//!   proof needs of them (it reasons about the final sets, whatever order the races
//!   were met in).
//! - What lines 11–14 (and csdpor's sequences before a disabler, CDPOR's line 17)
//!   add to a node's sleep set reaches the branches that start after it, and those
//!   started after the branch it was found under that are being explored, which
//!   take it from then on (`Top::deliver`): fewer entries explore more, never
//!   less. Each entry stands for a state reached under a branch of the node started
//!   before, by the job that found it; that branch's subtree is explored to its end
//!   by someone, and none of its sleep sets holds an entry found under a branch
//!   started after it (those go to that branch's own nodes, to the branches started
//!   after that one, and to the node and above, where it started later), so the
//!   entries are ordered as on one thread, where they only point to earlier
//!   branches (CSDPOR's Lemma 1 and Theorem 1 use nothing else of the order).
//! - A branch whose step reaches a covered state (its sleep entry says so) ends
//!   blocked in its job, as on one thread, and its node then goes on with another
//!   process if no other branch of it is left to explore (queued, deferred or
//!   running: `Top::blocked`), as one thread does once the others are explored.
//! - Below the top each subtree is Alg. 1 unchanged; only the races and sleep
//!   additions that reach above its root leave it, and they are decided as above.
//!
//! A node's deferred branches start in the order the search chooses them once the
//! running one has ended (line 5, guided by the node's sleep set as that branch left
//! it: `Top::launch_first`), so a search whose threads take the branches in turn
//! explores one thread's executions, blocked executions and states exactly. What
//! changes against one thread is which branch meets which sleep entries: a branch
//! taken early by a waiting thread starts without what its running siblings will
//! add, and takes it only as they send it, so it may explore what one thread would
//! block (DBP(10) under cdpor: 1,536 complete executions where one thread
//! completes 1,024 and blocks the rest, in 4% fewer states; about 1,900 when the
//! entries reached only the branches started after them). sdpor's complete
//! executions are one thread's exactly.
//!
//! # With wakeup trees
//!
//! A node of odpor's top holds its wakeup tree (the branches not started) and the
//! branches started from it, in order ([`Pending::Wakeup`]). A job takes the
//! leftmost branch when it gets to the node, under the top's lock, as Alg. 2's line
//! 4 does on one thread: it works on the node's tree with the same code as on its
//! own nodes ([`Held`]), on the state the node's checks read (its execution goes
//! through the node). Its races insert at a node of its path there, as its branch
//! met the node: with the sleep set that branch started with, and the branches
//! started after it as the ones one thread would explore after it, into whose
//! subtrees a sequence is forwarded ([`crate::dpor::forwarding`], which has the
//! argument). A branch still being explored sleeps in the ones started after it as
//! [`Ending::Running`](crate::dpor::sleep::Ending::Running): it covers only the
//! sequences it runs in. A branch taken when everything left of it is explored for
//! good (`Top::left_ended`) has the branches started before it asleep as on one
//! thread ([`Ending::Settled`](crate::dpor::sleep::Ending::Settled)), unless its
//! tree has a leaf that a job inserted while one of them was running; below a
//! branch taken with something left of it still running, settled ones cover only
//! what they run in again ([`Held::lend`] says why). A new branch waits for the
//! running ones, as on backtrack sets, unless a thread has nothing else to do:
//! then it starts with those asleep as running, and its executions may end blocked
//! where one thread's do not (lastzero(12): 4,673 to 9,168 blocked, 27 to 56% more
//! states, where every branch taken by a job slept as running before: 14,593, 87%;
//! readers(18), filesystem(22): none). Its complete executions are one thread's,
//! one per Mazurkiewicz trace.
//!
//! # States compared
//!
//! odpor-cs's nodes hold more than a wakeup tree and a sleep set: the steps run
//! (or settled) and blocked there, the steps kept asleep into them by commutation,
//! and the fresh processes chosen after blocked branches (odpor-cs's notes 3, 5 and
//! 6, `crate::algorithms::odpor_cs`). A node of the top keeps them too
//! ([`ByState`]), and a job that holds the node works on them with the same code as
//! on its own nodes (they are swapped into the job's node at that depth, as its
//! tree and sleep set are lent). What changes against one thread is only when:
//! - The don't-do sequences a job's races add to a node of the top join its sleep
//!   set there, as csdpor's do, and reach the branches started after (fewer entries
//!   explore more, never less).
//! - A branch whose step reaches a covered state, or is confirmed in `dnd(E)` and
//!   settled unrun, ends blocked in its job, as on one thread, and the top records
//!   the step as one thread does (`Dpor::block_after_equivalent`): confirmed in
//!   `dnd(E)` for the branches started after, one of the node's blocked steps, and
//!   no sleeper ([`Route::Blocked`]: it was not explored, note 3). Whether it blocks
//!   is decided when the job takes it, under the lock (its step is run there), so
//!   that no branch taken meanwhile meets it as running, covering what it would
//!   explore.
//! - One thread chooses a fresh process at a node whose tree is spent after a
//!   blocked branch (note 5); here the node, once no branch of it is left to
//!   explore, gets a job that makes that choice on the node (`Dpor::choose_after_blocked`,
//!   the same count of fresh processes per blocked branch), and again after each
//!   branch it so chose, until none is owed.
//! - A sequence that reaches the node for a branch already started is forwarded
//!   below it ([`crate::dpor::forwarding`]); below a blocked one it is dropped, as
//!   one thread drops the subtree of `wut(E)` below a step that blocks (ODPOR_cs
//!   Alg. 1, lines 26 and 33), and one that starts with a step blocked at the node
//!   is judged as `Dpor::insert_wakeup` judges it there (it would only repeat it).
//! - A node a job hands to the top carries the steps kept asleep into it by
//!   commutation, first in its tree (`Dpor::run_commuted`), and one it gives away
//!   its blocked steps and fresh choices.
//!
//! # With cdpor's `R`
//!
//! ocdpor is odpor (`--literal`) or odpor-cs (by default) over a finer dependency:
//! footprints' conflicts minus `R` (`crate::algorithms::ocdpor`). `R` is a relation
//! of the two events, not of the path they are met on
//! (`crate::dependency::constraints`, "Why these are sound"): every thread builds
//! it from the same constraints, initial state and depth bound, and judges a pair
//! as one thread would. Nothing above uses which relation judges weak initials and
//! sleepers; it needs only that a job judge a node's tree and sleep set as one
//! thread would at that node, which it does with the same code
//! (`Dpor::insert_wakeup`, its `sleeper_covers`, `Dependency::lifted`). Where
//! `R` makes a sleeper cover less on one thread (at an `await` the race's write may
//! disable; beside a sequence it commutes with only by `R`), a job judges it so
//! too, from the same execution; a sleeper still being explored ([`Held::lend`])
//! covers only the sequences it runs in, which its own subtree, optimal for the
//! finer dependency, explores. The two-thread differential test runs ocdpor and
//! `ocdpor --literal` against naive; `tests/tests/parallel.rs` checks that
//! `--literal` completes one thread's executions, one per trace of its dependency.
//!
//! odpor-cs-ob (observers: races found where executions end) does not share a top:
//! it runs on one thread.
//!
//! [`Ending::Elsewhere`]: crate::dpor::sleep

use super::{counters, first_stop, lock, merge, on_threads};
use crate::dpor::race_analysis::add_dont_do;
use crate::dpor::reduction::Equivalent;
use crate::dpor::sleep::{SleepSet, Step};
use crate::dpor::wakeup_tree::{Entry, Independent, Leaves, WakeupTree};
use crate::exploration::{Algorithm, Config, Exploration, Progress};
use crate::fingerprint::Fingerprint;
use crate::report::{Parallel, Report, Stats, Stop};
use frontend::ir::Program;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// The depth of the top: the events a node has above it to be shared. Deeper tops
/// give more, smaller subtrees and cost each job the replay of a longer path;
/// where one subtree is most of the work, its job gives nodes away when a thread
/// waits, whatever the depth. 4, 6, 8 and 10 took the same time within noise on
/// lastzero(13), filesystem(22) and readers(18) (two threads); 20 took lastzero(13)
/// from 2.1 s to 17 s (739k jobs). Where executions are short, a deep top leaves
/// subtrees of a few executions, and each job costs its setup and its path's replay:
/// FR-a(8) under odpor (9 events an execution) ran 7,800 jobs in 0.84 s at depth 6,
/// 1,434 in 0.75 s at depth 4 (one thread: 1.34 s); 3 was no faster. On 19 rows
/// where threads matter (the tables' rows that take a second or more on one thread,
/// lastzero(12), filesystem(22), PS_shared(8)), 4 was within 4% of 6 or faster.
pub const SPLIT: usize = 4;

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

/// How the search chooses among a node's candidates (Alg. 1, lines 3 and 10), as
/// it does on one thread (`crate::dpor`'s `choose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The first, in spawn order.
    First,
    /// The one heading the shortest sequence of the node's sleep set (CSDPOR Sec.
    /// 5.3, optimisation 2).
    ShortestSleep,
}

/// One branch of a node of the top, for a thread to explore.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The processes (indices) from the initial state to the node, then the branch's
    /// (once it is known: see `take`). Empty for the first job: the initial state is
    /// the node.
    pub path: Vec<usize>,
    /// The node's sleep set when the branch started.
    pub before: SleepSet,
    /// Whether the node the branch reaches is in the top too: then it is handed to
    /// the top ([`Handed`]) rather than explored.
    pub splits: bool,
    /// Whether the branch is the leftmost of the node's wakeup tree when the job gets
    /// there (an optimal search: [`Link::take`]); `path` is then the node's.
    pub take: bool,
}

/// A node for the top, as the thread that reached it hands it over.
pub struct Handed {
    /// The processes (indices) from the initial state to it.
    pub path: Vec<usize>,
    /// Its sleep set, with the branches explored from it so far.
    pub sleep: SleepSet,
    /// Its branches still to explore.
    pub pending: Pending,
}

/// The branches of a node of the top still to explore.
pub enum Pending {
    /// Alg. 1's: the enabled processes (indices) and the step each runs there, the
    /// backtrack set (empty for a node no branch of which was explored yet), its
    /// branches waiting for the running ones to end ([`Top::start`]), and whether a
    /// branch blocked while others were running, so that the node chooses a fresh
    /// process once none is ([`Top::blocked`]).
    Backtrack {
        enabled: Vec<usize>,
        steps: Vec<Step>,
        backtrack: Vec<usize>,
        deferred: Vec<usize>,
        recheck: bool,
    },
    /// Optimal-DPOR's: the branches of the wakeup tree not started yet, whether a
    /// job that takes the leftmost is queued, the branches started, in order, and
    /// what a search that compares states keeps of the node ([`ByState`]).
    Wakeup {
        wut: WakeupTree,
        turn: bool,
        started: Vec<Started>,
        by_state: ByState,
    },
}

/// What an optimal search that compares states (odpor-cs) keeps at a node besides
/// its wakeup tree and sleep set, as its own nodes keep it (`crate::dpor`'s `Node`):
/// the steps run (or settled) and blocked there, the steps kept asleep into it by
/// commutation, the fresh processes chosen after blocked branches, and whether the
/// node is to choose one again once its branches are explored (odpor-cs's note 5,
/// `Dpor::choose_after_blocked`).
#[derive(Clone, Debug, Default)]
pub struct ByState {
    pub blocked: Vec<Fingerprint>,
    pub commuted: Vec<Fingerprint>,
    pub fresh: usize,
    pub recheck: bool,
}

/// A branch of a node's wakeup tree that a job took.
pub struct Started {
    /// Its process (index), its step as the tree held it, and as it ran (asleep
    /// there for the branches taken after it).
    pub p: usize,
    pub entry: Entry,
    pub step: Step,
    /// The node's sleep set when it was taken, with the branches taken before it
    /// asleep ([`Held::lend`]).
    pub before: SleepSet,
    /// Where a sequence forwarded to it goes.
    pub route: Route,
    /// Whether a branch taken before it slept in `before` as running: the leaves
    /// its insertions leave at the node are provisional ([`Leaves`]).
    pub provisional: bool,
}

/// A node of the top as a job's branch there met it, or meets it as it is taken
/// ([`Held::lend`]), read where the node is held: a job inserts a sequence there for
/// each race it finds, and copying them out for each, under the top's lock, cost
/// ocdpor on two threads 7% of its time on BB_many(7) and most of its waits for the
/// lock (BENCHMARKS.md).
pub struct Lent<'a> {
    /// The sleep set the branch started with.
    pub sleep: Cow<'a, SleepSet>,
    /// The steps of the branches started after it, in order.
    pub after: Vec<&'a Entry>,
    /// [`Started::provisional`].
    pub provisional: bool,
    /// For a branch being taken: whether the branches taken before it sleep in
    /// `sleep` as settled ([`crate::dpor::sleep::Ending::Settled`]). A branch whose
    /// tree has a provisional leaf ([`WakeupTree::provisional_leaves`]), which may
    /// have swallowed what they asked for, distrusts them, and is provisional.
    pub settles: bool,
}

impl Started {
    /// Branch `p`, whose step was `entry`, explored to its end by a job that gives
    /// or leaves its node to the top: it covers what is forwarded below it.
    pub fn done(p: usize, entry: Entry) -> Started {
        Started {
            p,
            step: Step {
                process: entry.process,
                footprint: entry.footprint.clone(),
            },
            entry,
            before: SleepSet::default(),
            route: Route::Done,
            provisional: false,
        }
    }
}

/// Where the subtree of a started branch is explored.
#[derive(Clone)]
pub enum Route {
    /// From a node of the top.
    Node(usize),
    /// By a job, from the node at this depth.
    Job(Arc<Mailbox>, usize),
    /// Nowhere any more: it was explored to its end from a node that no sequence
    /// forwarded reaches (an ended job's node's branch), and covers it.
    Done,
    /// Nowhere: its step reached a covered state and was blocked (odpor-cs), so
    /// nothing below it is explored, and it sleeps in no later branch (a blocked
    /// step is no `done(E)`: odpor-cs's note 3); a sequence forwarded below it is
    /// dropped, as one thread drops the subtree of `wut(E)` below a step that blocks
    /// (ODPOR_cs Alg. 1, lines 26 and 33).
    Blocked,
}

/// The sequences forwarded to a job, for the nodes of its own
/// ([`crate::dpor::forwarding`]), by depth; and, for a search on backtrack sets, what
/// lines 11–14 added to the sleep set of a node of the top that the job's branch
/// there started after ([`Top::deliver`]).
#[derive(Default)]
pub struct Mailbox {
    /// Whether some wait, read without the lock at each step of the job.
    full: AtomicBool,
    sequences: Mutex<Vec<(usize, Vec<Entry>)>>,
    /// Whether sleep entries wait, read without the lock at each step of the job.
    late: AtomicBool,
    sleeps: Mutex<Vec<(usize, Equivalent)>>,
}

impl Mailbox {
    fn send(&self, depth: usize, v: Vec<Entry>) {
        lock(&self.sequences).push((depth, v));
        self.full.store(true, Ordering::Release);
    }

    /// The sequences received since the last call.
    pub fn receive(&self) -> Vec<(usize, Vec<Entry>)> {
        if !self.full.load(Ordering::Relaxed) || !self.full.swap(false, Ordering::Acquire) {
            return Vec::new();
        }
        std::mem::take(&mut *lock(&self.sequences))
    }

    fn send_sleep(&self, depth: usize, dont: Equivalent) {
        lock(&self.sleeps).push((depth, dont));
        self.late.store(true, Ordering::Release);
    }

    /// The sleep entries received since the last call, with the depth of their node.
    pub fn receive_sleeps(&self) -> Vec<(usize, Equivalent)> {
        if !self.late.load(Ordering::Relaxed) || !self.late.swap(false, Ordering::Acquire) {
            return Vec::new();
        }
        std::mem::take(&mut *lock(&self.sleeps))
    }
}

impl Pending {
    pub fn backtrack(enabled: Vec<usize>, steps: Vec<Step>, backtrack: Vec<usize>) -> Pending {
        Pending::Backtrack {
            enabled,
            steps,
            backtrack,
            deferred: Vec::new(),
            recheck: false,
        }
    }

    /// A node of an optimal search: its wakeup tree, the branches started from it
    /// (by the job that gives it to the top), and what a search that compares
    /// states keeps of it.
    pub fn wakeup(wut: WakeupTree, started: Vec<Started>, by_state: ByState) -> Pending {
        Pending::Wakeup {
            wut,
            turn: false,
            started,
            by_state,
        }
    }
}

/// A thread's link to the top while it explores one job: what it sends there.
pub struct Link {
    top: Arc<SharedTop>,
    job: Job,
    /// Races for nodes of the path: the node's depth and the initials of `v`.
    asked: Vec<(usize, Vec<usize>)>,
    /// What lines 11–14 add to the sleep sets of nodes of the path, by depth.
    sleeps: Vec<(usize, Equivalent)>,
    /// The branch's step reached a covered state and its execution ended there.
    blocked: bool,
    /// The sequences forwarded to the job (an optimal search).
    mailbox: Arc<Mailbox>,
}

impl Link {
    fn new(top: Arc<SharedTop>, job: Job) -> Link {
        let mailbox = job.mailbox.clone();
        Link {
            top,
            job,
            asked: Vec::new(),
            sleeps: Vec::new(),
            blocked: false,
            mailbox,
        }
    }

    /// Where sequences are forwarded to the job.
    pub fn mailbox(&self) -> &Arc<Mailbox> {
        &self.mailbox
    }

    /// The branch to explore.
    pub fn branch(&self) -> Branch {
        self.job.branch.clone()
    }

    /// Whether the node at `depth` of the current execution is in the top.
    pub fn above(&self, depth: usize) -> bool {
        depth < self.job.ancestors.len()
    }

    /// The top's node at `depth` of the current execution, if it is in the top, for
    /// an optimal search to [hold](SharedTop::hold).
    pub fn node(&self, depth: usize) -> Option<(Arc<SharedTop>, usize)> {
        let id = *self.job.ancestors.get(depth)?;
        Some((self.top.clone(), id))
    }

    /// The job took branch `p` of its node's wakeup tree ([`Held::took`]): it
    /// explores that branch, in flight there until the job ends.
    pub fn took(&mut self, p: usize) {
        let node = *(self.job.ancestors.last()).expect("a job that takes a branch has a node");
        self.job.through.push((node, p));
        self.job.branch.path.push(p);
    }

    /// Whether another thread waits for work and none is queued.
    pub fn hungry(&self) -> bool {
        let waiting = self.top.eager || self.top.waiting.load(Ordering::Relaxed) > 0;
        waiting && self.top.queued.load(Ordering::Relaxed) == 0
    }

    /// Gives the nodes `given`, the job's from its root down, to the top, with the
    /// branch the job explores from each: the job explores only below the last from
    /// now on.
    pub fn give(&mut self, given: Vec<Handed>, branches: &[usize]) {
        self.flush();
        let mut top = lock(&self.top.inner);
        for (node, &branch) in given.into_iter().zip(branches) {
            let id = top.adopt(&self.job.ancestors, node, Some(branch));
            if let Some(&parent) = self.job.ancestors.last() {
                top.reroute(parent, &self.mailbox, id);
            }
            self.job.ancestors.push(id);
            self.job.through.push((id, branch));
            top.went_through(&self.mailbox, (id, branch));
        }
        self.top.publish(&top);
    }

    /// Line 10 for the node at `depth` of the path: `initials` are those of `v`.
    pub fn ask(&mut self, depth: usize, initials: Vec<usize>) {
        self.asked.push((depth, initials));
    }

    /// Lines 11–14 for the node at `depth` of the path.
    pub fn sleep(&mut self, depth: usize, dont: Equivalent) {
        self.sleeps.push((depth, dont));
    }

    pub fn blocked(&mut self) {
        self.blocked = true;
    }

    /// Hands the node the job reached to the top, where it is explored from now on:
    /// the sequences forwarded to the job for it go there too.
    pub fn hand(&mut self, node: Handed, independent: &mut dyn Independent) {
        self.flush();
        let mut top = lock(&self.top.inner);
        let id = top.adopt(&self.job.ancestors, node, None);
        self.moved(&mut top, id, independent);
    }

    /// The job's node is the top's `id` from now on: the branch that reached it is
    /// routed there, and the sequences forwarded to the job so far go there (or, for a
    /// node it gave to the top, to that node).
    fn moved(&self, top: &mut Top, id: usize, independent: &mut dyn Independent) {
        let floor = self.job.ancestors.len();
        if let Some(&parent) = self.job.ancestors.last() {
            top.reroute(parent, &self.mailbox, id);
        }
        for (depth, v) in self.mailbox.receive() {
            let node = match depth.cmp(&floor) {
                std::cmp::Ordering::Equal => id,
                std::cmp::Ordering::Less => self.job.ancestors[depth],
                std::cmp::Ordering::Greater => continue,
            };
            top.forward_into(node, v, independent);
        }
        self.top.publish(top);
    }

    /// A sequence forwarded to the job for its node at `depth`, which it has given
    /// to the top since: it goes there.
    pub fn forward_above(
        &mut self,
        depth: usize,
        v: Vec<Entry>,
        independent: &mut dyn Independent,
    ) {
        let mut top = lock(&self.top.inner);
        top.forward_into(self.job.ancestors[depth], v, independent);
        self.top.publish(&top);
    }

    /// Sends what was asked so far (once per execution, so that other threads get
    /// the branches early).
    pub fn flush(&mut self) {
        if self.asked.is_empty() && self.sleeps.is_empty() {
            return;
        }
        self.asked.sort_unstable();
        self.asked.dedup();
        let mut top = lock(&self.top.inner);
        for (depth, dont) in self.sleeps.drain(..) {
            let node = self.job.ancestors[depth];
            if let Some(&(at, branch)) = self.job.through.get(depth) {
                debug_assert_eq!(at, node, "a job's branches are by depth");
                top.deliver((node, branch), depth, &dont);
            }
            add_dont_do(&mut top.nodes[node].sleep, Some(dont));
        }
        for (depth, initials) in self.asked.drain(..) {
            top.ask(self.job.ancestors[depth], &initials);
        }
        self.top.publish(&top);
    }
}

/// The nodes of the top a job goes through, with its branch at each, by depth.
type Through = Vec<(usize, usize)>;

/// A job: a branch, and the top's nodes along its path (`ancestors[d]` is the node
/// at depth `d`).
struct Job {
    branch: Branch,
    ancestors: Vec<usize>,
    /// The nodes of the top whose branch this job explores part of, and that branch:
    /// it is in flight there until the job is done.
    through: Through,
    /// Where what is sent to the job waits, from when it is queued.
    mailbox: Arc<Mailbox>,
}

struct Node {
    path: Vec<usize>,
    /// The top's nodes from the root to this one, itself included.
    ancestors: Vec<usize>,
    sleep: SleepSet,
    pending: Pending,
    /// Per branch, the jobs queued or running below it: while there are, it is not
    /// explored yet.
    inflight: Vec<(usize, usize)>,
    /// The node's work waiting for its running branches to end, as counted in
    /// [`Top::deferred`].
    waiting: usize,
    /// The branches of a backtrack set in the order they started (the giver's first,
    /// for a node given away), for [`Top::deliver`].
    launched: Vec<usize>,
}

impl Node {
    fn in_flight(&self, p: usize) -> bool {
        self.inflight.iter().any(|&(q, n)| q == p && n > 0)
    }

    fn idle(&self) -> bool {
        self.inflight.iter().all(|&(_, count)| count == 0)
    }

    fn count(&mut self, p: usize, by: isize) {
        match self.inflight.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n = n.saturating_add_signed(by),
            None => self.inflight.push((p, by.max(0) as usize)),
        }
    }

    /// The branches that wait for the running ones to end: the deferred ones of a
    /// backtrack set; the rest of a wakeup tree, if no job is queued to take it.
    fn waits(&self) -> usize {
        match &self.pending {
            Pending::Backtrack { deferred, .. } => deferred.len(),
            Pending::Wakeup {
                wut,
                turn,
                by_state,
                ..
            } => usize::from((!wut.is_empty() || (by_state.recheck && self.idle())) && !turn),
        }
    }
}

struct Top {
    /// The events above a node of the top.
    depth: usize,
    /// The jobs queued or deferred that keep the threads busy: a branch launched
    /// while there are as many explores its subtree itself rather than hand its node
    /// to the top (twice the threads: DB_backup_shared(12) under csdpor took 37,823
    /// jobs and 1.47 times one thread's speed when every node above the depth was
    /// handed over, 1.90 so; BB_many(7)'s extra states fell from 54% to 28%; the
    /// sdpor rows measured did not change). A job that runs long gives nodes away
    /// when a thread waits, so the top still grows where the work is.
    enough: usize,
    choice: Choice,
    nodes: Vec<Node>,
    queue: Vec<Job>,
    /// The jobs queued or running: where each receives what is sent to it, and the
    /// nodes of the top it goes through, with its branch at each, as queued and as
    /// given away (`Link::give`). A branch of a wakeup tree that a job takes at its
    /// node (`Link::took`, under that node's hold) is not added: [`Top::deliver`]
    /// reads only backtrack sets' branches.
    jobs: Vec<(Arc<Mailbox>, Through)>,
    /// Branches waiting for their running siblings ([`Node::waits`]), over every node.
    deferred: usize,
    running: usize,
    /// Jobs given out, for the report.
    given: usize,
}

impl Top {
    /// Whether everything left of a branch taken now at `node` is explored for
    /// good ([`Held::lend`]): no branch started at the node, nor any started
    /// before the path's own at one of its ancestors, has a job queued or
    /// running, so none can ask for a sequence or forward one any more.
    fn left_ended(&self, node: usize) -> bool {
        let n = &self.nodes[node];
        // Whether the branches of `id` started before `upto`'s (all, for `None`)
        // are out of flight.
        let ended = |id: usize, upto: Option<usize>| -> bool {
            let a = &self.nodes[id];
            let Pending::Wakeup { started, .. } = &a.pending else {
                return false;
            };
            let end = match upto {
                Some(p) => started.iter().position(|s| s.p == p),
                None => Some(started.len()),
            };
            end.is_some_and(|end| started[..end].iter().all(|s| !a.in_flight(s.p)))
        };
        (n.ancestors.iter().zip(&n.path)).all(|(&id, &p)| ended(id, Some(p))) && ended(node, None)
    }

    /// What lines 11–14 added to the sleep set of `node` under its branch `branch`
    /// (at `depth`) goes to the jobs queued or running below the branches of `node`
    /// started after it, which started without it (a thread with nothing else to
    /// do took them early, [`Top::launch_deferred`]): each adds it to its own nodes,
    /// carried down its path as one thread carries a sleep set
    /// (`Dpor::receive_late_sleeps`), and its choices from then on are those of a
    /// branch that started with it. Sound as on one thread (see the module's
    /// argument): the entry stands for a state reached below `branch`, explored to
    /// its end by someone, and it reaches only branches started after `branch`, so
    /// entries still point only to branches started before the ones that hold them.
    /// Taken late, it explores what the branch explored without it so far, more than
    /// one thread, never less.
    fn deliver(&self, (node, branch): (usize, usize), depth: usize, dont: &Equivalent) {
        let order = &self.nodes[node].launched;
        let Some(started) = order.iter().position(|&q| q == branch) else {
            return;
        };
        for (mailbox, through) in &self.jobs {
            let later = (through.iter().find(|&&(n, _)| n == node))
                .and_then(|&(_, q)| order.iter().position(|&r| r == q))
                .is_some_and(|i| i > started);
            if later {
                mailbox.send_sleep(depth, dont.clone());
            }
        }
    }

    /// The job of `mailbox` goes through `node` by `branch` from now on.
    fn went_through(&mut self, mailbox: &Arc<Mailbox>, (node, branch): (usize, usize)) {
        if let Some((_, through)) = (self.jobs.iter_mut()).find(|(m, _)| Arc::ptr_eq(m, mailbox)) {
            through.push((node, branch));
        }
    }

    /// Recounts what `node` has waiting ([`Node::waits`]) after a change.
    fn settle(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        let waits = n.waits();
        self.deferred = self.deferred + waits - n.waiting;
        n.waiting = waits;
    }

    /// Alg. 1, line 10 at `node`: unless an initial of `v` is in its backtrack set,
    /// the first that is enabled there joins it, and is explored (line 4).
    fn ask(&mut self, node: usize, initials: &[usize]) {
        let Pending::Backtrack {
            enabled, backtrack, ..
        } = &self.nodes[node].pending
        else {
            return;
        };
        if initials.iter().any(|q| backtrack.contains(q)) {
            return;
        }
        let candidates: Vec<usize> = (initials.iter().copied())
            .filter(|q| enabled.contains(q))
            .collect();
        if let Some(q) = self.choose(node, &candidates) {
            if let Pending::Backtrack { backtrack, .. } = &mut self.nodes[node].pending {
                backtrack.push(q);
            }
            self.start(node, q);
        }
    }

    /// The search's choice among `candidates`, enabled processes of `node`.
    fn choose(&self, node: usize, candidates: &[usize]) -> Option<usize> {
        let n = &self.nodes[node];
        match (self.choice, &n.pending) {
            (Choice::ShortestSleep, Pending::Backtrack { enabled, steps, .. }) => {
                candidates.iter().copied().min_by_key(|&p| {
                    let i = enabled.iter().position(|&q| q == p);
                    let key = i.map(|i| steps[i].process);
                    let len = key.and_then(|k| n.sleep.shortest_headed_by(k));
                    (len.unwrap_or(usize::MAX), p)
                })
            }
            _ => candidates.first().copied(),
        }
    }

    /// Awake processes of `node` not in its backtrack set: line 3's candidates.
    fn awake(&self, node: usize) -> Vec<usize> {
        let n = &self.nodes[node];
        let Pending::Backtrack {
            enabled,
            steps,
            backtrack,
            ..
        } = &n.pending
        else {
            return Vec::new();
        };
        (enabled.iter().zip(steps))
            .filter(|(q, s)| !backtrack.contains(q) && !n.sleep.asleep(s.process))
            .map(|(&q, _)| q)
            .collect()
    }

    /// Line 4 for `p` of `node`'s backtrack set, unless `p` is asleep there: a job
    /// now if no branch of the node is being explored, else once none is, as on one
    /// thread, or when a thread has nothing else to do ([`Top::launch_deferred`]).
    /// Deferred, the branch starts with the sleep set the node has then: a search
    /// that compares states adds to it what the branches explored before found (lines
    /// 11–14), which a branch started at once would do without.
    fn start(&mut self, node: usize, p: usize) {
        let n = &mut self.nodes[node];
        if !n.idle() {
            if let Pending::Backtrack { deferred, .. } = &mut n.pending {
                if !deferred.contains(&p) {
                    deferred.push(p);
                }
            }
            self.settle(node);
            return;
        }
        self.launch(node, p);
    }

    /// `p` of `node` becomes a job, with the node's sleep set, unless it is asleep
    /// there now; it sleeps there for the branches launched after it. Whether it
    /// became a job.
    fn launch(&mut self, node: usize, p: usize) -> bool {
        let n = &mut self.nodes[node];
        let Pending::Backtrack { enabled, steps, .. } = &n.pending else {
            return false;
        };
        let i = (enabled.iter().position(|&q| q == p)).expect("a backtrack entry is enabled");
        let step = steps[i].clone();
        if n.sleep.asleep(step.process) {
            return false;
        }
        let before = n.sleep.clone();
        n.sleep.insert_elsewhere(step);
        n.launched.push(p);
        let mut path = n.path.clone();
        path.push(p);
        self.queue_job(node, path, before, false);
        true
    }

    /// A job for a branch of `node`, along `path` (the node's, then the branch's
    /// process, unless the job `take`s the leftmost of the node's wakeup tree): in
    /// flight below the nodes of the path it goes through.
    fn queue_job(&mut self, node: usize, path: Vec<usize>, before: SleepSet, take: bool) {
        let ancestors = self.nodes[node].ancestors.clone();
        let through: Vec<(usize, usize)> = (ancestors.iter().copied())
            .zip(path.iter().copied())
            .collect();
        for &(node, branch) in &through {
            self.nodes[node].count(branch, 1);
        }
        let reached = path.len() + usize::from(take);
        let mailbox = Arc::<Mailbox>::default();
        self.jobs.push((mailbox.clone(), through.clone()));
        self.queue.push(Job {
            branch: Branch {
                splits: reached < self.depth && self.queue.len() + self.deferred < self.enough,
                path,
                before,
                take,
            },
            ancestors,
            through,
            mailbox,
        });
    }

    /// The next branch of `node` that waits becomes a job: of a backtrack set, the
    /// deferred one the search chooses ([`Top::choose`]) among those not asleep
    /// there (those asleep are dropped, as line 4 passes them over); of a wakeup
    /// tree, the leftmost, taken by the job when it gets there. Whether one did.
    fn launch_first(&mut self, node: usize) -> bool {
        let idle = self.nodes[node].idle();
        let launched = loop {
            match &mut self.nodes[node].pending {
                Pending::Backtrack { deferred, .. } => {
                    // Line 5's choice, as one thread makes it once the branches
                    // before are explored: guided by the sleep set the node has now,
                    // with what they added to it. In the order they were asked for,
                    // a branch that one thread starts later would start first,
                    // without what the one it overtook adds there (cdpor on
                    // BB_many(7): 28% more states on two threads).
                    let waiting = deferred.clone();
                    let Some(p) = self.choose(node, &waiting) else {
                        break false;
                    };
                    if let Pending::Backtrack { deferred, .. } = &mut self.nodes[node].pending {
                        deferred.retain(|&q| q != p);
                    }
                    if self.launch(node, p) {
                        break true;
                    }
                }
                Pending::Wakeup {
                    wut,
                    turn,
                    by_state,
                    ..
                } => {
                    // A spent tree after a blocked branch, once no branch of the node
                    // is being explored: the job chooses a fresh process there, if
                    // one is owed (`Dpor::choose_after_blocked`), as one thread does
                    // once the others are explored.
                    if (wut.is_empty() && !(by_state.recheck && idle)) || *turn {
                        break false;
                    }
                    by_state.recheck &= !wut.is_empty();
                    *turn = true;
                    let path = self.nodes[node].path.clone();
                    self.queue_job(node, path, SleepSet::default(), true);
                    break true;
                }
            }
        };
        self.settle(node);
        launched
    }

    /// The sequence `v` goes below the branch `index` of `node`, started: to the job
    /// exploring it, or into the node of the top it reached
    /// ([`crate::dpor::forwarding`]).
    fn forward(
        &mut self,
        node: usize,
        index: usize,
        v: Vec<Entry>,
        independent: &mut dyn Independent,
    ) {
        let Pending::Wakeup { started, .. } = &self.nodes[node].pending else {
            return;
        };
        match started.get(index).map(|branch| &branch.route) {
            Some(Route::Job(mailbox, depth)) => mailbox.send(*depth, v),
            Some(&Route::Node(child)) => self.forward_into(child, v, independent),
            Some(Route::Done | Route::Blocked) | None => {}
        }
    }

    /// The sequence `v` forwarded to `node`: below the leftmost of its started
    /// branches whose process is a weak initial of it, or into its tree (JACM's
    /// `insert_[E](v, wut)`, [`WakeupTree::insert_beside_started`]).
    ///
    /// A step blocked at the node (odpor-cs) is no branch a sequence goes below: it
    /// was not explored. A sequence that starts with it would only repeat it, as
    /// `Dpor::insert_wakeup` judges it on one thread ("repeats"): it is left out, or,
    /// where that step commutes with the rest, the rest is inserted.
    fn forward_into(&mut self, node: usize, mut v: Vec<Entry>, independent: &mut dyn Independent) {
        let Pending::Wakeup {
            wut,
            started,
            by_state,
            ..
        } = &mut self.nodes[node].pending
        else {
            return;
        };
        let live: Vec<usize> = (0..started.len())
            .filter(|&i| !matches!(started[i].route, Route::Blocked))
            .collect();
        let entries: Vec<Entry> = live.iter().map(|&i| started[i].entry.clone()).collect();
        if let [first, rest @ ..] = &v[..] {
            if by_state.blocked.contains(&first.process) && wut.branches_at_root(&v, independent) {
                let apart = rest.iter().all(|x| {
                    x.process != first.process
                        && !first.spawns.contains(&x.process)
                        && !first.footprint.conflicts(&x.footprint)
                });
                if by_state.commuted.contains(&first.process) || !apart {
                    return;
                }
                v.remove(0);
            }
        }
        if v.is_empty() {
            return;
        }
        match wut.insert_beside_started(&entries, v, independent, Leaves::default()) {
            // A node whose branches are all explored gets a job for the new one.
            Ok(_) if self.nodes[node].idle() => {
                self.launch_first(node);
            }
            Ok(_) => self.settle(node),
            Err((i, rest)) => self.forward(node, live[i], rest, independent),
        }
    }

    /// The branch of `node` explored by the job of `mailbox` is explored from the
    /// top's node `to` from now on.
    fn reroute(&mut self, node: usize, mailbox: &Arc<Mailbox>, to: usize) {
        if let Pending::Wakeup { started, .. } = &mut self.nodes[node].pending {
            for branch in started.iter_mut() {
                if matches!(&branch.route, Route::Job(m, _) if Arc::ptr_eq(m, mailbox)) {
                    branch.route = Route::Node(to);
                }
            }
        }
    }

    /// For a thread with nothing to do: the first waiting branch of the deepest
    /// node that has one, as a job. A branch taken early starts without the sleep
    /// entries its running siblings will add (they reach it only as they are sent),
    /// and explores what one thread would have blocked meanwhile; the deepest node's
    /// branch has the least below it, and its running siblings the least left to
    /// find. Taking the shallowest, cdpor and csdpor explored 61% more states than
    /// one thread on PS_shared(8) and ran 1.2 times as fast; taking the deepest, 5
    /// to 7% fewer and 2.1 times as fast (BENCHMARKS.md).
    fn launch_deferred(&mut self) {
        while self.deferred > 0 {
            let node = (0..self.nodes.len())
                .filter(|&i| self.nodes[i].waiting > 0)
                .max_by_key(|&i| self.nodes[i].path.len());
            match node {
                Some(node) if self.launch_first(node) => return,
                Some(_) => {}
                None => return,
            }
        }
    }

    /// The branch `p` of `node` blocked where its step ran (it reached a covered
    /// state): as Source-DPOR does where a step blocks (CSDPOR Sec. 6.2;
    /// [`crate::dpor`]'s `block_after_equivalent`), a node with no other branch
    /// still to explore goes on with an enabled process not asleep there. One with
    /// other branches running does so once they have ended ([`Top::rechecked`]): on
    /// one thread a branch started before `p` would have ended, and its process
    /// would be asleep at the node, not pending. (Choosing none then, csdpor
    /// `--literal` on two threads lost a final state in most runs with a top of
    /// depth 2: `tests/tests/parallel.rs`,
    /// `csdpor_literal_on_a_shared_top_reaches_every_final_state`.) A branch of a
    /// wakeup tree that blocks is recorded when a job takes it ([`Held::block`]).
    fn blocked(&mut self, node: usize, p: usize) {
        let n = &self.nodes[node];
        let Pending::Backtrack { backtrack, .. } = &n.pending else {
            return;
        };
        let running = backtrack.iter().any(|&q| q != p && n.in_flight(q));
        let Pending::Backtrack {
            deferred, recheck, ..
        } = &mut self.nodes[node].pending
        else {
            return;
        };
        if !deferred.is_empty() || running {
            *recheck = true;
            return;
        }
        self.choose_fresh(node);
    }

    /// A node none of whose branches is running or deferred any more chooses the
    /// fresh process a branch that blocked meanwhile owes it ([`Top::blocked`]).
    fn rechecked(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        if !n.idle() {
            return;
        }
        if let Pending::Backtrack {
            deferred, recheck, ..
        } = &mut n.pending
        {
            if deferred.is_empty() && std::mem::take(recheck) {
                self.choose_fresh(node);
            }
        }
    }

    /// An enabled process of `node` not asleep there and not in its backtrack set,
    /// if any, joins it and is explored.
    fn choose_fresh(&mut self, node: usize) {
        if let Some(q) = self.choose(node, &self.awake(node)) {
            if let Pending::Backtrack { backtrack, .. } = &mut self.nodes[node].pending {
                backtrack.push(q);
            }
            self.start(node, q);
        }
    }

    /// A node handed over below the nodes `ancestors`; returns its id. One that
    /// comes without a backtrack set takes lines 1–3: its first enabled process not
    /// asleep (a thread hands over only a node that has one). Each process of its
    /// backtrack set not asleep there is explored (line 4). One with a wakeup tree
    /// (never empty: the thread that reached it chose line 3's process) has its
    /// leftmost branch taken by a job.
    fn adopt(&mut self, ancestors: &[usize], handed: Handed, running: Option<usize>) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            path: handed.path,
            ancestors: ancestors.iter().copied().chain([id]).collect(),
            sleep: handed.sleep,
            pending: handed.pending,
            inflight: Vec::new(),
            waiting: 0,
            launched: Vec::from_iter(running),
        });
        // The branch the giver goes on with is in flight before any other is
        // launched: a wakeup tree's first job waits for it (a fresh choice too), and
        // a backtrack set's other branches start once it has ended, as on one thread,
        // with what it adds to the node's sleep set (started at once, they did
        // without: cdpor on DBP(3) with one thread giving eagerly explored 12
        // executions, 15 blocked, 243 states, where the search explores 8, 19, 228),
        // or when a thread has nothing else to do (`Top::launch_deferred`).
        if let Some(branch) = running {
            self.nodes[id].count(branch, 1);
        }
        let backtrack = match &mut self.nodes[id].pending {
            Pending::Backtrack { backtrack, .. } => backtrack.clone(),
            Pending::Wakeup { .. } => {
                self.launch_first(id);
                return id;
            }
        };
        let backtrack = match backtrack.is_empty() {
            true => {
                let first = self.choose(id, &self.awake(id));
                if let Pending::Backtrack { backtrack, .. } = &mut self.nodes[id].pending {
                    backtrack.extend(first);
                }
                Vec::from_iter(first)
            }
            false => backtrack,
        };
        for p in backtrack {
            let n = &self.nodes[id].pending;
            if matches!(n, Pending::Backtrack { enabled, .. } if enabled.contains(&p)) {
                self.start(id, p);
            }
        }
        id
    }
}

/// A node of the top held under the top's lock by a job's thread (an optimal
/// search), which works on its wakeup tree and sleep set as on those of its own
/// node at that depth ([`Held::swap`]): with the same code, and the state the
/// node's checks read.
pub struct Held<'a> {
    shared: &'a SharedTop,
    top: MutexGuard<'a, Top>,
    node: usize,
    /// The first of the node's started branches lent as started after the job's.
    after: usize,
}

impl Held<'_> {
    /// Lends the node's wakeup tree (swapped with `wut`, to be given back) to a job
    /// whose branch there is `through`'s process, with the sleep set that branch
    /// started with and the steps of the branches started after it, which one
    /// thread would explore after it ([`crate::dpor::forwarding`]). `None`: a job
    /// that takes a branch, which meets every branch started before asleep:
    /// - One that the job that gave the node explored there before ([`Route::Done`])
    ///   covers what it covers on one thread.
    /// - Where everything left of the taken branch is explored for good
    ///   (`Top::left_ended`: no job left of it, at the node or at an ancestor), the
    ///   others too ([`Ending::Settled`]). A sleeper covers a sequence it is beside
    ///   because the exploration left of the branch has the race that asks for the
    ///   sequence's trace where the sleeper comes later (see [`sleeper_covers`]),
    ///   which one thread inserts into the branch's subtree before it starts: here
    ///   too, everything left of it has asked all it will, and no job can forward
    ///   anything into it any more. The asking may go through any subtree left of
    ///   the branch (the sleeper's own races ask for a sequence whose exploration,
    ///   in a sibling's subtree, asks for the one needed), so a settled step stays
    ///   trusted below only where every branch is taken so; below a branch taken
    ///   with something left of it running, it covers only what it runs in
    ///   ([`SleepSet::distrust_settled`]). And only where the taken branch follows
    ///   what was asked: JACM's insertion stops at a leaf, whose subtree is explored
    ///   unguided, and a leaf inserted by a job that had a sibling running, judged
    ///   with it covering nothing beside, is marked ([`Leaves::provisional`]); a
    ///   branch with such a leaf distrusts its settled steps. Trusting every branch
    ///   whose subtree had ended lost 1 to 13 of lastzero(8)'s 704 traces in about
    ///   1% of runs on 2 and 3 threads; trusting those settled at the node alone,
    ///   without the mark, 54 or 108 of a 4-process program's 360 traces in about 1
    ///   run in 40 on two threads, and with it, 1 of lastzero(5)'s 64 in 1% of runs
    ///   on three (`tests/tests/parallel.rs`).
    /// - Otherwise one covers only a sequence it runs in ([`Ending::Running`]),
    ///   whose traces start with it and are explored in its subtree, and not one it
    ///   is beside: the race that asks for that sequence's trace reaches the taken
    ///   branch, started, as a forwarded sequence, when its nodes the sequence
    ///   needed may be explored already.
    ///
    /// [`Ending::Settled`]: crate::dpor::sleep::Ending::Settled
    /// [`SleepSet::distrust_settled`]: crate::dpor::sleep::SleepSet::distrust_settled
    /// [`Ending::Running`]: crate::dpor::sleep::Ending::Running
    /// [`sleeper_covers`]: crate::dpor::wakeup_tree::sleeper_covers
    pub fn lend(&mut self, through: Option<Fingerprint>, wut: &mut WakeupTree) -> Lent<'_> {
        let trusted = self.top.left_ended(self.node);
        let Node { pending, sleep, .. } = &mut self.top.nodes[self.node];
        let Pending::Wakeup {
            wut: tree, started, ..
        } = pending
        else {
            return Lent {
                sleep: Cow::Borrowed(sleep),
                after: Vec::new(),
                provisional: false,
                settles: false,
            };
        };
        std::mem::swap(tree, wut);
        let at = through.and_then(|key| started.iter().position(|s| s.step.process == key));
        match at {
            Some(i) => {
                self.after = i + 1;
                let later = started[i + 1..].iter().map(|s| &s.entry);
                Lent {
                    sleep: Cow::Borrowed(&started[i].before),
                    after: later.collect(),
                    provisional: started[i].provisional,
                    settles: false,
                }
            }
            None => {
                self.after = started.len();
                let mut sleep = sleep.clone();
                if !trusted {
                    sleep.distrust_settled();
                }
                let (mut provisional, mut settles) = (false, false);
                for s in started.iter() {
                    match s.route {
                        Route::Blocked => {}
                        Route::Done => sleep.insert(vec![s.step.clone()]),
                        _ if trusted => {
                            sleep.insert_settled(s.step.clone());
                            settles = true;
                        }
                        _ => {
                            sleep.insert_running(s.step.clone());
                            provisional = true;
                        }
                    }
                }
                Lent {
                    sleep: Cow::Owned(sleep),
                    after: Vec::new(),
                    provisional,
                    settles,
                }
            }
        }
    }

    /// Swaps what the node keeps for a search that compares states (its blocked and
    /// commuted steps, its fresh choices) with the job's own node's, to work on them
    /// with the same code, and back.
    pub fn swap_by_state(
        &mut self,
        blocked: &mut Vec<Fingerprint>,
        commuted: &mut Vec<Fingerprint>,
        fresh: &mut usize,
    ) {
        if let Pending::Wakeup { by_state, .. } = &mut self.top.nodes[self.node].pending {
            std::mem::swap(&mut by_state.blocked, blocked);
            std::mem::swap(&mut by_state.commuted, commuted);
            std::mem::swap(&mut by_state.fresh, fresh);
        }
    }

    /// The processes (indices) of the branches taken from the node, blocked or not:
    /// those explored from it (an optimal node's `backtrack`, which
    /// `Dpor::choose_after_blocked` reads).
    pub fn taken(&self) -> Vec<usize> {
        match &self.top.nodes[self.node].pending {
            Pending::Wakeup { started, .. } => started.iter().map(|s| s.p).collect(),
            Pending::Backtrack { .. } => Vec::new(),
        }
    }

    /// The branch the job takes, `step`, blocks there (odpor-cs: it reaches a covered
    /// state, or is confirmed in `dnd(E)` and settled unrun; `partners`: see
    /// [`crate::dpor::sleep::Ends::partners`]). Recorded as `Dpor::block_after_equivalent`
    /// records it on one thread, at once, under the lock: confirmed in `dnd(E)` for
    /// the branches taken after it, one of the node's blocked steps, and no sleeper
    /// ([`Route::Blocked`], which [`Held::took`] gets): no branch taken meanwhile
    /// meets it as running, covering what it would explore. Once no branch of the
    /// node is being explored, the node chooses a fresh process ([`ByState::recheck`]).
    pub fn block(&mut self, step: Step, partners: &[Fingerprint]) {
        let n = &mut self.top.nodes[self.node];
        if let Pending::Wakeup { by_state, .. } = &mut n.pending {
            by_state.blocked.push(step.process);
            by_state.recheck = true;
            n.sleep.insert_equivalent(vec![step], partners);
        }
    }

    /// The job chose a fresh process for the node after blocked branches: once its
    /// branches are explored, it is asked again whether another is owed.
    pub fn chose_fresh(&mut self) {
        if let Pending::Wakeup { by_state, .. } = &mut self.top.nodes[self.node].pending {
            by_state.recheck = true;
        }
    }

    /// Gives the node's wakeup tree back ([`Held::lend`]).
    pub fn give_back(&mut self, wut: &mut WakeupTree) {
        if let Pending::Wakeup { wut: tree, .. } = &mut self.top.nodes[self.node].pending {
            std::mem::swap(tree, wut);
        }
    }

    /// The job queued to take the node's leftmost branch took `p`, `started` (or
    /// none, `None`: the tree had none that can run there): it is in flight until
    /// the job ends.
    pub fn took(&mut self, p: Option<(usize, Started)>) {
        let n = &mut self.top.nodes[self.node];
        if let Pending::Wakeup { turn, started, .. } = &mut n.pending {
            *turn = false;
            if let Some((p, branch)) = p {
                started.push(branch);
                n.count(p, 1);
            }
        }
    }

    /// The sequence `v` goes below the `i`-th of the branches [lent](Held::lend) as
    /// started after the job's ([`crate::dpor::forwarding`]).
    pub fn forward(&mut self, i: usize, v: Vec<Entry>, independent: &mut dyn Independent) {
        let (node, after) = (self.node, self.after);
        self.top.forward(node, after + i, v, independent);
    }
}

impl Drop for Held<'_> {
    /// What the node has waiting is counted again, for the threads that wait.
    fn drop(&mut self) {
        self.top.settle(self.node);
        self.shared.publish(&self.top);
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
    fn new(
        TopSplit { depth, eager }: TopSplit,
        (choice, workers): (Choice, usize),
        halt: Arc<AtomicBool>,
    ) -> SharedTop {
        let root = Job {
            branch: Branch {
                path: Vec::new(),
                before: SleepSet::default(),
                splits: depth > 0,
                take: false,
            },
            ancestors: Vec::new(),
            through: Vec::new(),
            mailbox: Arc::default(),
        };
        SharedTop {
            inner: Mutex::new(Top {
                depth,
                enough: 2 * workers,
                choice,
                nodes: Vec::new(),
                jobs: vec![(root.mailbox.clone(), Vec::new())],
                queue: vec![root],
                deferred: 0,
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

    /// The top's node `node` (of [`Link::node`]), held under the top's lock.
    pub fn hold(&self, node: usize) -> Held<'_> {
        Held {
            shared: self,
            top: lock(&self.inner),
            node,
            after: 0,
        }
    }

    /// Publishes the work `top` holds, under its lock, for the threads that read it
    /// without the lock, and wakes those that wait for a job, if any waits. A thread
    /// counts itself waiting under the lock, then waits, releasing it: one counted
    /// before is seen here, and one not counted yet looks at the top after this
    /// change. Waking no one costs a system call all the same, and jobs hold a node
    /// of the top for every sequence they insert there: ocdpor on BB_many(7) took
    /// 7.4 s on two threads with it, 5.9 s without (one thread: 7.9 s).
    fn publish(&self, top: &Top) {
        (self.queued).store(top.queue.len() + top.deferred, Ordering::Relaxed);
        if self.waiting.load(Ordering::Relaxed) > 0 {
            self.ready.notify_all();
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
            if top.queue.is_empty() {
                top.launch_deferred();
            }
            if let Some(job) = top.queue.pop() {
                top.running += 1;
                top.given += 1;
                self.publish(&top);
                return Some(job);
            }
            if top.running == 0 {
                return None;
            }
            // `launch_deferred` may have dropped branches asleep at their node
            // without queueing any: a running job must see that nothing waits for it,
            // or it keeps its nodes while this thread waits.
            self.publish(&top);
            self.waiting.fetch_add(1, Ordering::Relaxed);
            top = self.ready.wait(top).unwrap_or_else(|e| e.into_inner());
            self.waiting.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// `link`'s job is over: what it asked and handed over joins the top.
    fn done(&self, mut link: Link) {
        link.flush();
        let mut top = lock(&self.inner);
        if link.blocked {
            if let (Some(&node), Some(&p)) =
                (link.job.ancestors.last(), link.job.branch.path.last())
            {
                top.blocked(node, p);
            }
        }
        for &(node, branch) in &link.job.through {
            top.nodes[node].count(branch, -1);
        }
        top.jobs
            .retain(|(mailbox, _)| !Arc::ptr_eq(mailbox, &link.mailbox));
        // The deepest first, as one thread would go back up.
        for &(node, _) in link.job.through.iter().rev() {
            if top.nodes[node].idle() {
                top.launch_first(node);
                top.rechecked(node);
            }
        }
        top.running -= 1;
        self.publish(&top);
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

/// The search `make` builds, on backtrack sets ([`Algorithm::shares_top`]), on `jobs`
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
    let choice = make().shares_top().unwrap_or(Choice::First);
    let top = Arc::new(SharedTop::new(split, (choice, jobs), halt.clone()));
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
                    top.done(Link::new(top.clone(), job));
                    std::mem::forget(turn);
                    continue;
                }
            };
            let link = Link::new(top.clone(), job);
            run.for_branch(link, started, halt.clone());
            let mut algorithm = algorithm;
            algorithm.explore(&mut run);
            let link = run.take_link();
            // The branch's path, once a job that takes one knows it.
            let path = link.as_ref().map(|l| l.job.branch.path.clone());
            let halted = run.halted();
            let report = run.finish(&*algorithm);
            if !halted && report.stop != Stop::Complete {
                halt.store(true, Ordering::Relaxed);
            }
            merge::add_stats(&mut lock(&done), &report.stats);
            *lock(current) = Stats::default();
            lock(&results).push((path.unwrap_or_default(), report, halted));
            if let Some(link) = link {
                top.done(link);
            }
            std::mem::forget(turn);
        }
        // Wake the others: the search may be over, or halted.
        top.ready.notify_all();
    };
    on_threads(jobs, &work, progress, &|| counters(&done, &current));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dependency::footprint::Footprint;

    fn step(process: u128) -> Step {
        Step {
            process,
            footprint: Footprint::default(),
        }
    }

    /// A node of the root with processes 0, 1, 2 enabled (keys 10, 11, 12), 1 asleep
    /// there from the start; 0 is its first branch.
    fn top_with_root() -> Top {
        let mut sleep = SleepSet::default();
        sleep.insert(vec![step(11)]);
        top_of(Choice::First, 3, sleep)
    }

    /// The job of the root's branch `first` ends: its count goes, and the root's
    /// next deferred branch becomes a job, which is returned.
    fn after(top: &mut Top, first: &Job) -> Job {
        for &(node, branch) in &first.through {
            top.nodes[node].count(branch, -1);
        }
        assert!(top.launch_first(0));
        top.queue.pop().expect("a deferred branch is a job")
    }

    /// A top whose root has processes `0..n` enabled (keys 10, 11, ...) and `sleep`;
    /// 0 is its first branch.
    fn top_of(choice: Choice, n: usize, sleep: SleepSet) -> Top {
        let mut top = Top {
            depth: 2,
            enough: 4,
            choice,
            nodes: Vec::new(),
            queue: Vec::new(),
            jobs: Vec::new(),
            deferred: 0,
            running: 0,
            given: 0,
        };
        let keys = (0..n).map(|i| step(10 + i as u128)).collect();
        let pending = Pending::backtrack((0..n).collect(), keys, Vec::new());
        let handed = Handed {
            path: Vec::new(),
            sleep,
            pending,
        };
        top.adopt(&[], handed, None);
        top
    }

    /// Branches asked for while another is explored wait for it, then start in the
    /// order asked, each with the earlier ones asleep; one asleep at the node is
    /// passed over, and the next starts in its place (lost once: a deferred branch
    /// found asleep ended the search's deferred work with 7 branches never explored,
    /// `tests/tests/parallel.rs` saw 279 of 300 traces).
    #[test]
    fn deferred_branches_start_in_order_once_the_running_one_ends() {
        let mut top = top_with_root();
        let backtrack = |top: &Top| match &top.nodes[0].pending {
            Pending::Backtrack { backtrack, .. } => backtrack.clone(),
            Pending::Wakeup { .. } => Vec::new(),
        };
        let deferred = |top: &Top| match &top.nodes[0].pending {
            Pending::Backtrack { deferred, .. } => deferred.clone(),
            Pending::Wakeup { .. } => Vec::new(),
        };
        assert_eq!(backtrack(&top), vec![0]);
        let first = top.queue.pop().expect("the first branch is a job");
        assert_eq!(first.branch.path, vec![0]);
        top.ask(0, &[1]);
        top.ask(0, &[2]);
        assert!(top.queue.is_empty());
        assert_eq!((deferred(&top), top.deferred), (vec![1, 2], 2));
        // The first branch ends: its count goes, and the deferred ones may start.
        let next = after(&mut top, &first);
        assert_eq!(
            next.branch.path,
            vec![2],
            "1 is asleep at the node: passed over"
        );
        assert!(
            next.branch.before.asleep(10),
            "the branch started before sleeps"
        );
        assert_eq!(top.deferred, 0);
    }

    /// Guided (csdpor, cdpor), deferred branches start as one thread would take them
    /// once the branch before has ended: the one heading the shortest sequence of the
    /// node's sleep set as that branch left it, not the first asked for (cdpor on
    /// BB_many(7) explored 28% more states on two threads than on one, and as many
    /// with the threads taking the branches in turn).
    #[test]
    fn deferred_branches_start_in_the_order_the_search_chooses() {
        let mut top = top_of(Choice::ShortestSleep, 3, SleepSet::default());
        let first = top.queue.pop().expect("the first branch is a job");
        top.ask(0, &[1]);
        top.ask(0, &[2]);
        assert!(top.queue.is_empty(), "both wait for the first branch");
        // What lines 11–14 found under the first branch: 2 then 1 reaches a state
        // explored.
        add_dont_do(
            &mut top.nodes[0].sleep,
            Some(Equivalent::Proved(vec![step(12), step(11)])),
        );
        let next = after(&mut top, &first);
        assert_eq!(
            next.branch.path,
            vec![2],
            "2 heads a sequence of the sleep set"
        );
        assert!(next.branch.before.asleep(10), "the first branch sleeps");
    }

    /// What lines 11–14 add to a node's sleep set under one of its branches reaches
    /// the jobs of the branches started after it (taken early by a thread with
    /// nothing else to do), never the branch's own jobs or those of branches started
    /// before it: entries keep pointing to branches started before the ones that
    /// hold them.
    #[test]
    fn a_sleep_entry_reaches_the_branches_started_after_its_own() {
        let mut top = top_of(Choice::First, 3, SleepSet::default());
        let first = top.queue.pop().expect("the first branch is a job");
        top.ask(0, &[1]);
        assert!(top.queue.is_empty(), "1 waits for the first branch");
        top.launch_deferred();
        let early = top
            .queue
            .pop()
            .expect("a thread with nothing to do takes 1");
        assert_eq!(early.branch.path, vec![1]);
        let dont = || Equivalent::Proved(vec![step(12), step(11)]);
        top.deliver((0, 0), 0, &dont());
        assert_eq!(first.mailbox.receive_sleeps().len(), 0, "its own branch's");
        assert_eq!(early.mailbox.receive_sleeps().len(), 1, "started after it");
        top.deliver((0, 1), 0, &dont());
        assert_eq!(first.mailbox.receive_sleeps().len(), 0, "started before it");
        assert_eq!(early.mailbox.receive_sleeps().len(), 0, "its own branch's");
    }

    /// A step settled at the root (its branch and everything left of it explored
    /// when the branch below was taken) covers what it is beside in a branch taken
    /// further down only once nothing left of that branch is explored any more: its
    /// cover rests on what was asked for left of the branch, through any subtree.
    #[test]
    fn a_settled_step_covers_beside_only_where_nothing_left_runs() {
        let halt = Arc::new(AtomicBool::new(false));
        let shared = SharedTop::new(TopSplit::default(), (Choice::First, 2), halt);
        let entry = |process: u128| Entry {
            process,
            footprint: Footprint::default(),
            spawns: Vec::new(),
            event: None,
            written: Vec::new(),
        };
        let started = |p: usize, key: u128, route: Route| Started {
            p,
            entry: entry(key),
            step: step(key),
            before: SleepSet::default(),
            route,
            provisional: false,
        };
        {
            let mut top = lock(&shared.inner);
            // The root: branches 0 (key 10, explored there before it was given) and 1
            // (key 11, to node 1), out of flight.
            let branches = vec![started(0, 10, Route::Done), started(1, 11, Route::Node(1))];
            let pending = Pending::wakeup(WakeupTree::default(), branches, ByState::default());
            let path = Vec::new();
            let sleep = SleepSet::default();
            top.adopt(
                &[],
                Handed {
                    path,
                    sleep,
                    pending,
                },
                None,
            );
            // Below branch 1, taken once 0 had ended: 10 settled; its branch 2 (key
            // 12) still explored by a job, and 13 to take.
            let mut sleep = SleepSet::default();
            sleep.insert_settled(step(10));
            let branch = started(2, 12, Route::Job(Arc::default(), 2));
            let wut = WakeupTree::chain(vec![entry(13)], false);
            let pending = Pending::wakeup(wut, vec![branch], ByState::default());
            top.adopt(
                &[0],
                Handed {
                    path: vec![1],
                    sleep,
                    pending,
                },
                Some(2),
            );
        }
        let covers_beside = |lent: &Lent, key: u128| {
            let mut steps = lent.sleep.covering_steps();
            steps
                .find(|(s, _)| s.process == key)
                .map(|(_, beside)| beside)
        };
        {
            let mut held = shared.hold(1);
            let lent = held.lend(None, &mut WakeupTree::default());
            assert_eq!(covers_beside(&lent, 10), Some(false), "2 runs left of 13");
            assert_eq!(covers_beside(&lent, 12), Some(false));
            assert!(lent.provisional && !lent.settles);
        }
        lock(&shared.inner).nodes[1].count(2, -1);
        let mut held = shared.hold(1);
        let lent = held.lend(None, &mut WakeupTree::default());
        assert_eq!(
            covers_beside(&lent, 10),
            Some(true),
            "nothing runs left of 13"
        );
        assert_eq!(covers_beside(&lent, 12), Some(true));
        assert!(!lent.provisional && lent.settles);
    }

    /// A thread that finds only branches asleep at their node (dropped, no job
    /// queued) waits with nothing queued, and says so to the running jobs, which
    /// give it nodes ([`Link::hungry`]). Said too late, the last job of cdpor on
    /// filesystem(22) kept its nodes for the last 0.21 s of a 2.5 s run while the
    /// other thread waited.
    #[test]
    fn a_thread_that_waits_tells_the_running_jobs_that_nothing_is_queued() {
        let mut top = top_with_root();
        let _first = top.queue.pop().expect("the first branch is a job");
        top.running = 1;
        top.ask(0, &[1]);
        assert_eq!((top.queue.len(), top.deferred), (0, 1), "1 waits for 0");
        let shared = SharedTop {
            inner: Mutex::new(top),
            ready: Condvar::new(),
            waiting: AtomicUsize::new(0),
            queued: AtomicUsize::new(0),
            eager: false,
            halt: Arc::new(AtomicBool::new(false)),
        };
        shared.publish(&lock(&shared.inner));
        assert_eq!(shared.queued.load(Ordering::Relaxed), 1);
        let queued = std::thread::scope(|s| {
            let waiter = s.spawn(|| shared.next().is_none());
            while shared.waiting.load(Ordering::Relaxed) == 0 {
                std::thread::yield_now();
            }
            let queued = shared.queued.load(Ordering::Relaxed);
            // The search stops: the waiting thread gets no job.
            shared.halt.store(true, Ordering::Relaxed);
            drop(lock(&shared.inner));
            shared.ready.notify_all();
            assert!(waiter.join().expect("the waiting thread"));
            queued
        });
        assert_eq!(
            queued, 0,
            "1 is asleep at the root: dropped, nothing queued"
        );
    }

    /// A thread with nothing to do takes a deferred branch, of the deepest node
    /// that has one.
    #[test]
    fn a_waiting_thread_takes_a_deferred_branch() {
        let mut top = top_with_root();
        top.ask(0, &[2]);
        assert!(top.queue.len() == 1 && top.deferred == 1);
        top.queue.clear();
        top.launch_deferred();
        assert_eq!(top.queue.pop().map(|j| j.branch.path), Some(vec![2]));
        assert_eq!(top.deferred, 0);
        // Below the root's branch 0, still running: a node whose first branch, 0,
        // starts at once.
        let keys = (0..3).map(|i| step(20 + i as u128)).collect();
        let pending = Pending::backtrack((0..3).collect(), keys, Vec::new());
        let handed = Handed {
            path: vec![0],
            sleep: SleepSet::default(),
            pending,
        };
        let below = top.adopt(&[0], handed, None);
        top.ask(0, &[1]);
        top.ask(below, &[1]);
        assert_eq!(top.deferred, 2);
        top.queue.clear();
        top.launch_deferred();
        let job = top.queue.pop().map(|j| j.branch.path);
        assert_eq!(job, Some(vec![0, 1]), "the deeper node's branch");
        assert_eq!(top.deferred, 1);
    }
}
