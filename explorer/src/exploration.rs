//! What every algorithm shares: the executor, the counters, violation bookkeeping and
//! the stopping rules. An [`Algorithm`] decides only which events to run.

use crate::dependency::footprint::Carried;
use crate::dpor::reduction::Equivalent;
use crate::dpor::sleep::SleepSet;
use crate::dpor::wakeup_tree::{Entry as WakeupEntry, Independent};
use crate::executor::{Event, Executor};
use crate::fingerprint::Fingerprint;
use crate::lasso::{self, Lasso};
use crate::livelock::FairCycle;
use crate::parallel::pool::{Job, Pool};
use crate::parallel::shared_top::{Branch, Choice, Handed, Link, Mailbox, SharedTop};
use crate::parallel::shared_visited::{SharedVisited, Stored, TooMany};
use crate::report::{Outcome, Report, Stats, Stop, Violation, ViolationKind};
use crate::schedule;
use crate::state::State;
use crate::tree::{Blocked, End, Recorder, Tree, TreeConfig};
use crate::unit::Unit;
use crate::visited::{StateId, Visited};
use frontend::interp::{Fault, Limits};
use frontend::ir::Program;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An exploration strategy. Each lives in its own module; their differences are
/// only in how they choose what to explore.
pub trait Algorithm {
    /// The name `--algo` takes.
    fn name(&self) -> &'static str;
    /// Explores from the executor's current (initial) state until done or stopped.
    fn explore(&mut self, run: &mut Exploration<'_, '_>);
    /// Whether the end of an execution is an observer it may leave out
    /// ([`Config::violations_only`]): then it may reach only some of the final states.
    fn observes_the_end(&self) -> bool {
        false
    }
    /// Whether it stores the states it reaches ([`Exploration::visit`]): it then never
    /// follows a state past its first visit, so no execution it follows repeats a
    /// state, and none is reported as non-terminating.
    fn stores_states(&self) -> bool {
        false
    }
    /// What its events carry as footprints under `--deps accesses`: what they touched,
    /// or their transition footprints (see [`Carried`]).
    fn carries(&self) -> Carried {
        Carried::Transitions
    }
    /// Whether its threads can share one store of states under `config`
    /// ([`crate::parallel::stateful`]): each state expanded by the thread that
    /// stored it first.
    fn shares_stored_states(&self, _config: &Config) -> bool {
        false
    }
    /// Whether it can explore one unit of a parallel search's frontier
    /// ([`Exploration::take_unit`], [`crate::parallel`]) under `deps`.
    fn explores_units(&self, _deps: Deps) -> bool {
        false
    }
    /// Whether it explores every interleaving (naive, the reference): a frontier above
    /// its units then puts no process to sleep, and counts the Mazurkiewicz traces of
    /// the executions that end above it ([`crate::parallel::frontier`]).
    fn explores_every_interleaving(&self) -> bool {
        false
    }
    /// Whether its threads can share the top of its tree and its backtrack sets
    /// ([`crate::parallel::shared_top`], [`Exploration::branch`]), and how it chooses
    /// among a node's candidates there.
    fn shares_top(&self) -> Option<Choice> {
        None
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Go on after a violation and report each distinct one once.
    pub all_violations: bool,
    /// Stop when an execution beyond this many complete ones is found: a program with
    /// exactly this many is explored completely.
    pub max_traces: Option<u64>,
    pub timeout: Option<Duration>,
    pub limits: Limits,
    /// Keep the schedule of every complete execution ([`Report::schedules`]).
    pub record_schedules: bool,
    /// Keep the reads-from class of every complete execution ([`Report::reads_from`]).
    pub record_reads_from: bool,
    pub deps: Deps,
    /// Record the execution tree ([`Report::tree`]).
    pub tree: Option<TreeConfig>,
    /// Set from outside (Ctrl-C) to stop the exploration, as `timeout` does.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Events one execution may have: an execution that reaches it is reported
    /// ([`ViolationKind::DepthLimit`]) and the exploration stops, like one whose
    /// state recurs ([`ViolationKind::NonTermination`]). `None`: no bound.
    pub max_depth: Option<usize>,
    /// How many distinct final states [`Report::outcomes`] shows (the first found);
    /// every one is counted whatever this is.
    pub max_outcomes: usize,
    /// Only violations and deadlocks matter, not every final state: the end of a
    /// complete execution observes no write, as in the papers, so `odpor-ob` and
    /// `odpor-cs-ob` reorder writes that no event reads after (see
    /// [`crate::dependency::observers::end_reads`]). The other algorithms ignore it; their
    /// final states stay exhaustive.
    pub violations_only: bool,
    /// The bytes a stateful search's stored states may take before it stops
    /// ([`Stop::MemoryLimit`]).
    pub max_memory: Option<u64>,
    /// The stateful reference records the state graph and reports its fair cycles
    /// ([`crate::livelock`]); the other searches ignore it.
    pub livelocks: bool,
}

/// The default of [`Config::max_outcomes`].
pub const MAX_OUTCOMES: usize = 1000;

/// `ic-check`'s default `--max-depth`: no example or benchmark comes near it, and it
/// bounds what cdpor's line 9 may assume of a counter (`frontend::analysis::ranges`).
pub const MAX_DEPTH: usize = 10_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            all_violations: false,
            max_traces: None,
            timeout: None,
            limits: Limits::default(),
            record_schedules: false,
            record_reads_from: false,
            deps: Deps::default(),
            tree: None,
            interrupt: None,
            max_depth: None,
            max_outcomes: MAX_OUTCOMES,
            violations_only: false,
            max_memory: None,
            livelocks: false,
        }
    }
}

/// Which footprints events are judged by (see [`crate::dependency::footprint::Policy`]):
/// two events are dependent when their footprints conflict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deps {
    /// Every event's transition footprint, recorded where its block's accesses depend
    /// on locals alone (elements individually) and computed otherwise (`--deps dynamic`).
    Dynamic,
    /// Every event's transition footprint, computed (`--deps static`): a check of the
    /// recording shortcut.
    Static,
    /// What each event touched, in the searches that judge events by it
    /// ([`Algorithm::carries`]), where its block's other paths touch only locations
    /// it touched (a compare-and-swap that fails only read); elsewhere as `Dynamic`
    /// (`--deps accesses`, the default).
    #[default]
    Accesses,
}

/// Called now and then during a long exploration with the counters so far.
pub type Progress<'a> = &'a mut dyn FnMut(&Stats);

pub struct Exploration<'p, 'a> {
    pub ex: Executor<'p>,
    pub config: Config,
    pub stats: Stats,
    violations: Vec<Violation>,
    schedules: Vec<String>,
    reads_from: FxHashSet<Fingerprint>,
    seen: FxHashSet<(ViolationKind, String, String, Option<frontend::ast::Span>)>,
    /// Every distinct final state.
    finals: FxHashSet<Fingerprint>,
    /// The first `max_outcomes` of them, shown, and their indices there.
    outcomes: Vec<Outcome>,
    outcome_index: FxHashMap<Fingerprint, u32>,
    stop: Option<Stop>,
    started: Instant,
    polls: u32,
    progress: Option<Progress<'a>>,
    reported: Instant,
    /// The execution tree, when asked for: `None` costs one branch per hook.
    tree: Option<Box<Recorder>>,
    /// The states along the current execution, to catch one that recurs.
    lasso: Lasso,
    /// The states a stateful search stored; `None` for a stateless search, whose
    /// executions are checked for a recurring state instead ([`lasso`]).
    visited: Option<Store>,
    /// The jobs of a parallel stateful search ([`Exploration::next_job`]); `None`
    /// for one thread, whose only job is the root, given once (`root_given`).
    pool: Option<Arc<Pool>>,
    root_given: bool,
    /// The bytes the algorithm holds besides the stored states ([`Exploration::hold`]).
    held: u64,
    /// Where this exploration starts, as one unit of a parallel search.
    unit: Option<Unit>,
    /// The Mazurkiewicz traces of the complete executions, where the algorithm
    /// counts them (naive, [`Stats::mazurkiewicz`]).
    pub traces: FxHashSet<Fingerprint>,
    /// Set when another unit of a parallel search stopped it ([`Exploration::halted`]).
    halt: Option<Arc<AtomicBool>>,
    halted: bool,
    /// Where this exploration starts and what it sends, as one job of a search on
    /// backtrack sets whose top the threads share ([`crate::parallel::shared_top`]).
    link: Option<Link>,
}

/// How many new states a thread of a parallel stateful search stores between two
/// weighings of the search's memory ([`Config::max_memory`]), which looks at every
/// table of the store.
/// Between two, a thread counts what the others hold as it was at the last: the
/// search may end some hundreds of kilobytes per thread above the limit.
const SHARED_ACCOUNT: u64 = 4096;

/// Whether a thread that has stored `stored` states weighs the search now: at its
/// first (what the others hold is then known, not 0) and every [`SHARED_ACCOUNT`].
fn weighs(stored: u64) -> bool {
    stored == 1 || stored.is_multiple_of(SHARED_ACCOUNT)
}

/// Where a stateful search stores the states it reaches: its own store, or the one
/// the threads of a parallel search share.
enum Store {
    Own(Visited),
    /// The threads' store, and the numbers of the states this thread stored first,
    /// for a search that numbers them ([`Exploration::store_owned`]).
    Shared {
        all: Arc<SharedVisited>,
        /// This thread's number among those that share `all`.
        me: u32,
        /// The states this thread stored first.
        stored: StateId,
        /// The search's bytes when last weighed ([`SHARED_ACCOUNT`]), but what this
        /// thread holds ([`SharedVisited::weight_besides`]).
        weighed: u64,
    },
}

/// A state reached by a stateful search that numbers the states it stores and may
/// run on threads ([`Exploration::store_owned`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reached {
    /// New: stored now, with this number.
    New(StateId),
    /// Stored before by this thread, with this number: on one thread, every state
    /// stored before; on several, one it has not finished with.
    Again(StateId),
    /// Stored by another thread, which has not finished with it.
    Open,
    /// A thread (this one too) has finished with it, and published its summary as
    /// this number ([`SharedVisited::finish`]).
    Finished(u32),
}

/// A state as final states are compared (docs/soundness.md, "What the counts mean"): its globals, and
/// the multiset of live processes, each `proc at block {live locals}` (sorted, no
/// identities; `proc failed` for one stopped by a failure). Ended processes hold
/// nothing and are left out.
pub fn show_final(program: &Program, state: &State) -> (String, Vec<String>) {
    let mut procs: Vec<String> = state
        .procs
        .iter()
        .filter_map(|p| {
            let name = &program.procs[p.proc as usize].name;
            if p.failed {
                return Some(format!("{name} failed"));
            }
            let next = p.next?;
            let block = &program.blocks[next as usize];
            let locals = p.live_locals(program, next);
            Some(if locals.is_empty() {
                format!("{name} at {}", block.name)
            } else {
                format!("{name} at {} {{{}}}", block.name, locals.join(", "))
            })
        })
        .collect();
    procs.sort();
    (state.mem.show(program).to_string(), procs)
}

/// Runs `algorithm` on `program`.
pub fn explore(program: &Program, algorithm: &mut dyn Algorithm, config: Config) -> Report {
    explore_with_progress(program, algorithm, config, None)
}

/// Runs `algorithm` on `program`, reporting progress about five times a second.
pub fn explore_with_progress(
    program: &Program,
    algorithm: &mut dyn Algorithm,
    config: Config,
    progress: Option<Progress<'_>>,
) -> Report {
    match Exploration::new(program, &*algorithm, config, progress) {
        Ok(mut run) => {
            algorithm.explore(&mut run);
            run.finish(&*algorithm)
        }
        Err(report) => *report,
    }
}

impl<'p, 'a> Exploration<'p, 'a> {
    /// An exploration of `program` by `algorithm` from its initial state; `Err`, the
    /// report, if the `init` block fails.
    pub fn new(
        program: &'p Program,
        algorithm: &dyn Algorithm,
        config: Config,
        progress: Option<Progress<'a>>,
    ) -> Result<Self, Box<Report>> {
        let mut ex = match Executor::new(program, config.limits) {
            Ok(ex) => ex,
            Err(fault) => {
                let tree = config
                    .tree
                    .map(|_| Recorder::failed_init(program, fault.to_string()));
                return Err(Box::new(init_failed(fault, tree)));
            }
        };
        ex.set_deps(config.deps, algorithm.carries());
        ex.keep_reads(config.record_reads_from);
        let tree = config
            .tree
            .map(|c| Box::new(Recorder::new(program, &ex.state, c)));
        Ok(Exploration {
            ex,
            config,
            stats: Stats {
                states: 1,
                ..Stats::default()
            },
            violations: Vec::new(),
            schedules: Vec::new(),
            reads_from: FxHashSet::default(),
            seen: FxHashSet::default(),
            finals: FxHashSet::default(),
            outcomes: Vec::new(),
            outcome_index: FxHashMap::default(),
            stop: None,
            started: Instant::now(),
            polls: 0,
            progress,
            reported: Instant::now(),
            tree,
            lasso: Lasso::default(),
            visited: (algorithm.stores_states()).then(|| Store::Own(Visited::default())),
            pool: None,
            root_given: false,
            held: 0,
            unit: None,
            traces: FxHashSet::default(),
            halt: None,
            halted: false,
            link: None,
        })
    }

    /// This exploration as one unit of a parallel search begun at `started` (its
    /// timeout counts from there): the algorithm starts at `unit`, and stops when
    /// `halt` is set. Its initial state was counted by the frontier.
    pub(crate) fn for_unit(&mut self, unit: Unit, started: Instant, halt: Arc<AtomicBool>) {
        self.unit = Some(unit);
        self.started = started;
        self.halt = Some(halt);
        self.stats.states = 0;
    }

    /// This exploration as one job of a search whose top the threads share, begun at
    /// `started`: the algorithm starts at the link's branch, and stops when `halt` is
    /// set. Only the first job counts the initial state.
    pub(crate) fn for_branch(&mut self, link: Link, started: Instant, halt: Arc<AtomicBool>) {
        let branch = link.branch();
        if !branch.path.is_empty() || branch.take {
            self.stats.states = 0;
        }
        self.link = Some(link);
        self.started = started;
        self.halt = Some(halt);
    }

    /// Where the algorithm starts, for a job of a search whose top the threads share
    /// ([`Algorithm::shares_top`]); `None` otherwise.
    pub fn branch(&self) -> Option<Branch> {
        self.link.as_ref().map(Link::branch)
    }

    /// Whether the node at `depth` of the current execution is in the shared top:
    /// line 10 for it is [asked](Exploration::ask_above) there.
    pub fn shares_above(&self, depth: usize) -> bool {
        self.link.as_ref().is_some_and(|l| l.above(depth))
    }

    /// The node at `depth` of the current execution, if it is in the shared top, for
    /// an optimal search to [hold](SharedTop::hold) while it works on its wakeup
    /// tree.
    pub fn shared_node(&self, depth: usize) -> Option<(Arc<SharedTop>, usize)> {
        self.link.as_ref()?.node(depth)
    }

    /// Where sequences are forwarded to this job of a search whose top the threads
    /// share ([`crate::dpor::forwarding`]).
    pub fn mailbox(&self) -> Option<Arc<Mailbox>> {
        self.link.as_ref().map(|l| l.mailbox().clone())
    }

    /// The sequences forwarded to this job since the last call, by depth.
    pub fn forwarded(&self) -> Vec<(usize, Vec<WakeupEntry>)> {
        (self.link.as_ref()).map_or_else(Vec::new, |l| l.mailbox().receive())
    }

    /// The sleep entries sent to this job since the last call, by the depth of their
    /// node ([`Mailbox::receive_sleeps`]).
    pub fn late_sleeps(&self) -> Vec<(usize, Equivalent)> {
        (self.link.as_ref()).map_or_else(Vec::new, |l| l.mailbox().receive_sleeps())
    }

    /// The job took branch `p` of its node's wakeup tree in the shared top.
    pub fn took(&mut self, p: usize) {
        if let Some(link) = &mut self.link {
            link.took(p);
        }
    }

    /// Alg. 1, line 10 for the node at `depth`, in the shared top: `initials` are
    /// those of the race's reversal.
    pub fn ask_above(&mut self, depth: usize, initials: Vec<usize>) {
        if let Some(link) = &mut self.link {
            link.ask(depth, initials);
        }
    }

    /// Lines 11–14 for the node at `depth`, in the shared top: `dont` joins its sleep
    /// set there.
    pub fn sleep_above(&mut self, depth: usize, dont: Equivalent) {
        if let Some(link) = &mut self.link {
            link.sleep(depth, dont);
        }
    }

    /// The job's branch ran its step and blocked (it reached a covered state): its
    /// node, in the shared top, goes on as a node where a step blocked does.
    pub fn branch_blocked(&mut self) {
        if let Some(link) = &mut self.link {
            link.blocked();
        }
    }

    /// Hands the node the job reached to the shared top (`independent` judges where
    /// the sequences forwarded to the job go, [`crate::dpor::forwarding`]).
    pub fn hand_over(&mut self, node: Handed, independent: &mut dyn Independent) {
        if let Some(link) = &mut self.link {
            link.hand(node, independent);
        }
    }

    /// A sequence forwarded to this job for its node at `depth`, given to the
    /// shared top since, goes there.
    pub fn forward_above(
        &mut self,
        depth: usize,
        v: Vec<WakeupEntry>,
        independent: &mut dyn Independent,
    ) {
        if let Some(link) = &mut self.link {
            link.forward_above(depth, v, independent);
        }
    }

    /// Whether another thread of a search whose top the threads share waits for work
    /// that nobody has queued: this one should [give](Exploration::give_nodes) some.
    pub fn hungry_for_branches(&self) -> bool {
        self.link.as_ref().is_some_and(Link::hungry)
    }

    /// Gives the nodes `given`, from the job's root down, to the shared top, with the
    /// process explored from each.
    pub fn give_nodes(&mut self, given: Vec<Handed>, branches: &[usize]) {
        if let Some(link) = &mut self.link {
            link.give(given, branches);
        }
    }

    pub(crate) fn take_link(&mut self) -> Option<Link> {
        self.link.take()
    }

    /// This exploration as one thread of a parallel stateful search begun at
    /// `started`: its states are stored in `store` with the other threads', it takes
    /// its jobs from `pool`, and it stops when the pool's search is over (another
    /// thread stopped it). The initial state is counted by the search.
    pub(crate) fn for_worker(
        &mut self,
        store: Arc<SharedVisited>,
        me: usize,
        pool: Arc<Pool>,
        started: Instant,
    ) {
        self.visited = Some(Store::Shared {
            all: store,
            me: me as u32,
            stored: 0,
            weighed: 0,
        });
        self.halt = Some(pool.over_flag());
        self.pool = Some(pool);
        self.started = started;
        self.stats.states = 0;
    }

    /// The next job of a stateful search ([`crate::parallel::pool`]): on one thread,
    /// the root once (or the state a unit of a split search starts at, to store and
    /// expand as a root); on several, what the pool gives, waiting for it. `None`: no
    /// more work.
    pub fn next_job(&mut self) -> Option<Job> {
        match &self.pool {
            Some(pool) => pool.take(),
            None if self.root_given => None,
            None => {
                self.root_given = true;
                Some(match self.unit.take() {
                    Some(unit) => Job {
                        path: unit.path,
                        branches: None,
                    },
                    None => Job::root(),
                })
            }
        }
    }

    /// Whether another thread of a parallel stateful search waits for work that
    /// nobody has offered: this one should [give](Exploration::give) some away.
    pub fn hungry(&self) -> bool {
        self.pool.as_ref().is_some_and(|p| p.hungry())
    }

    /// Hands `job` to another thread of a parallel stateful search.
    pub fn give(&self, job: Job) {
        if let Some(pool) = &self.pool {
            pool.give(job);
        }
    }

    /// Where the algorithm starts, for an exploration that is one unit of a parallel
    /// search ([`Algorithm::explores_units`]); `None` for a whole one.
    pub fn take_unit(&mut self) -> Option<Unit> {
        self.unit.take()
    }

    /// Whether another unit of a parallel search stopped this one: its own `stop` is
    /// then no reason of the search's.
    pub(crate) fn halted(&self) -> bool {
        self.halted
    }

    /// The report of the exploration `algorithm` made.
    pub fn finish(mut self, algorithm: &dyn Algorithm) -> Report {
        let dependency = self.ex.carried();
        let finals_exhaustive = !(self.config.violations_only && algorithm.observes_the_end());
        self.stats.final_states = self.finals.len() as u64;
        let mut finals: Vec<Fingerprint> = self.finals.into_iter().collect();
        finals.sort_unstable();
        let mut reads_from: Vec<Fingerprint> = self.reads_from.into_iter().collect();
        reads_from.sort_unstable();
        let mut mazurkiewicz_traces: Vec<Fingerprint> = self.traces.into_iter().collect();
        mazurkiewicz_traces.sort_unstable();
        let mut outcomes = self.outcomes;
        sort_outcomes(&mut outcomes);
        Report {
            stats: self.stats,
            violations: self.violations,
            stop: self.stop.unwrap_or(Stop::Complete),
            finals,
            outcomes,
            schedules: self.schedules,
            reads_from,
            mazurkiewicz_traces,
            tree: self.tree.map(|t| t.finish()),
            finals_exhaustive,
            dependency,
            parallel: None,
        }
    }
}

/// Outcomes in the order they print.
pub(crate) fn sort_outcomes(outcomes: &mut [Outcome]) {
    outcomes.sort_unstable_by(|a, b| {
        (&a.globals, &a.processes, a.fingerprint).cmp(&(&b.globals, &b.processes, b.fingerprint))
    });
}

fn init_failed(fault: Fault, tree: Option<Tree>) -> Report {
    let kind = match fault {
        Fault::Assert { .. } => ViolationKind::Assert,
        Fault::Runtime(_) => ViolationKind::Runtime,
    };
    Report {
        stats: Stats::default(),
        finals: Vec::new(),
        outcomes: Vec::new(),
        schedules: Vec::new(),
        reads_from: Vec::new(),
        mazurkiewicz_traces: Vec::new(),
        violations: vec![Violation {
            kind,
            message: fault.to_string(),
            block: "init".to_string(),
            span: Some(fault.span()),
            schedule: String::new(),
        }],
        stop: Stop::Violation,
        tree,
        finals_exhaustive: true,
        dependency: Carried::default(),
        parallel: None,
    }
}

impl<'p> Exploration<'p, '_> {
    pub fn program(&self) -> &'p Program {
        self.ex.program()
    }

    /// Runs the next block of process `proc`. A completed block counts a state; a
    /// fault is recorded as a violation and gives `Err` (see [`Executor::step`]). In
    /// both cases the event is on the executor's path until [`Exploration::back`].
    pub fn step(&mut self, proc: usize) -> Result<&Event, &Event> {
        let block = self.ex.state.procs[proc].next;
        match self.ex.step(proc) {
            Ok(_) => {
                self.stats.states += 1;
                self.record_step(None);
                self.check_end();
            }
            Err(fault) => {
                let block = block.map_or(String::new(), |b| {
                    self.program().blocks[b as usize].name.clone()
                });
                let kind = match fault {
                    Fault::Assert { .. } => ViolationKind::Assert,
                    Fault::Runtime(_) => ViolationKind::Runtime,
                };
                let message = fault.to_string();
                self.record_step(Some(&message));
                let schedule = self.schedule();
                self.violation(Violation {
                    kind,
                    message,
                    block,
                    span: Some(fault.span()),
                    schedule,
                });
            }
        }
        let event = self.ex.events().last().expect("an event was just recorded");
        if event.failed {
            Err(event)
        } else {
            Ok(event)
        }
    }

    /// Runs the next block of `proc` on the way to a unit of a parallel search
    /// ([`Exploration::take_unit`]), as the frontier ran it: its state, and its
    /// violation if it fails, were counted there.
    pub fn replay(&mut self, proc: usize) {
        let _ = self.ex.step(proc);
        self.check_end();
    }

    /// The tree, if recorded, gets a node for the event just run.
    #[inline]
    fn record_step(&mut self, failure: Option<&str>) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.step(&self.ex, failure);
            if tree.halts() {
                self.stop.get_or_insert(Stop::TreeFull);
            }
        }
    }

    /// After a completed event: an execution that has reached `max_depth` events, or
    /// whose state recurs, is reported with its schedule, and the search stops (it
    /// cannot go past an execution that does not end).
    fn check_end(&mut self) {
        let depth = self.ex.events().len();
        let message = if self.config.max_depth.is_some_and(|max| depth >= max) {
            Some((
                ViolationKind::DepthLimit,
                format!("the execution reached {depth} events (--max-depth)"),
            ))
        } else if depth >= lasso::FROM && self.visited.is_none() {
            let state = self.ex.state.fingerprint_with_identities();
            self.lasso.reached(depth, state).map(|first| {
                (
                    ViolationKind::NonTermination,
                    format!(
                        "the state after step {first} recurs after step {depth}: steps {} to \
                         {depth} can repeat for ever",
                        first + 1
                    ),
                )
            })
        } else {
            None
        };
        if let Some((kind, message)) = message {
            let last = self.ex.events().last().map(|e| e.block);
            let schedule = self.schedule();
            self.violation(Violation {
                kind,
                message,
                block: last.map_or(String::new(), |b| {
                    self.program().blocks[b as usize].name.clone()
                }),
                span: None,
                schedule,
            });
            self.stop = Some(Stop::Violation);
        }
    }

    #[inline]
    pub fn back(&mut self) {
        self.ex.back();
        self.lasso.back_to(self.ex.events().len());
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.back();
        }
    }

    /// The current state's identity for a stateful search: its globals and every
    /// process's identity, next block and live locals, as a fingerprint.
    pub fn identity(&self) -> Fingerprint {
        self.ex.state.fingerprint_with_identities()
    }

    /// A stateful search has reached `state` (its [`Exploration::identity`]): stores it,
    /// and says whether it is new (an old one's continuations are explored, or being
    /// explored, from its first visit). The search stops ([`Stop::MemoryLimit`]) once
    /// the stored states (and what it [holds](Exploration::hold)) take more than
    /// [`Config::max_memory`].
    pub fn visit(&mut self, state: Fingerprint) -> bool {
        self.insert(state)
    }

    /// [`Exploration::visit`], with the state's number: the order in which the
    /// search stored it, from 0.
    pub fn store(&mut self, state: Fingerprint) -> (StateId, bool) {
        let Some(Store::Own(visited)) = self.visited.as_mut() else {
            panic!("states are numbered by a search on one thread that stores them");
        };
        let (id, new) = visited.insert(state);
        if new {
            self.stats.stored = Some(visited.len());
            self.account();
        }
        (id, new)
    }

    /// [`Exploration::store`] for a search that may run on several threads sharing
    /// one store: on one thread, [`Reached::New`] or [`Reached::Again`]; on several,
    /// also what the thread that stored it first says of a state
    /// ([`Exploration::finish_shared`]).
    pub fn store_owned(&mut self, state: Fingerprint) -> Reached {
        let Some(Store::Shared {
            all, me, stored, ..
        }) = self.visited.as_mut()
        else {
            return match self.store(state) {
                (id, true) => Reached::New(id),
                (id, false) => Reached::Again(id),
            };
        };
        match all.claim(state, *me as usize, *stored) {
            Err(TooMany) => {
                // More states than the word beside them can number: as when they
                // take more memory than allowed.
                self.stop.get_or_insert(Stop::MemoryLimit);
                Reached::Open
            }
            Ok(Some(Stored::Finished(summary))) => Reached::Finished(summary),
            Ok(Some(Stored::Mine(id))) => Reached::Again(id),
            Ok(Some(Stored::Open)) => Reached::Open,
            Ok(None) => {
                let id = *stored;
                *stored += 1;
                self.stats.stored = Some(u64::from(*stored));
                if weighs(u64::from(*stored)) {
                    self.weigh();
                }
                Reached::New(id)
            }
        }
    }

    /// This thread has finished with its state number `id` ([`Reached::New`]), and
    /// published its summary as `summary` ([`Reached::Finished`]).
    pub fn finish_shared(&mut self, id: StateId, summary: u32) {
        if let Some(Store::Shared { all, me, .. }) = self.visited.as_mut() {
            all.finish(*me as usize, id, summary);
        }
    }

    /// The number of the summary published for `state`, if the thread that stored
    /// it first has finished with it (on threads: [`Reached::Finished`]).
    pub fn published(&self, state: Fingerprint) -> Option<u32> {
        let Some(Store::Shared { all, me, .. }) = &self.visited else {
            return None;
        };
        match all.stored(state, *me as usize) {
            Some(Stored::Finished(summary)) => Some(summary),
            _ => None,
        }
    }

    /// The store the threads of a parallel stateful search share, if this is one.
    pub fn shared(&self) -> Option<&SharedVisited> {
        match &self.visited {
            Some(Store::Shared { all, .. }) => Some(all),
            _ => None,
        }
    }

    /// [`Exploration::visit`], on one thread or several.
    fn insert(&mut self, state: Fingerprint) -> bool {
        match self.visited.as_mut().expect("a search that stores states") {
            Store::Own(visited) => {
                let new = visited.insert(state).1;
                if new {
                    self.stats.stored = Some(visited.len());
                    self.account();
                }
                new
            }
            // The states this thread stored first (the search adds them up); the
            // search's memory on every thread, which looks at every table, is
            // weighed against the limit once every [`SHARED_ACCOUNT`] of them.
            Store::Shared { all, me, .. } => {
                let new = all.insert(state, *me as usize);
                if new {
                    let mine = self.stats.stored.unwrap_or(0) + 1;
                    self.stats.stored = Some(mine);
                    if weighs(mine) {
                        self.weigh();
                    }
                }
                new
            }
        }
    }

    /// A stateful search holds `bytes` besides its stored states (what it keeps of
    /// the transitions it took, say): counted in the stored states' memory and
    /// against [`Config::max_memory`].
    pub fn hold(&mut self, bytes: u64) {
        self.held = bytes;
        if let Some(Store::Shared { all, me, .. }) = &self.visited {
            all.hold(*me as usize, bytes);
        }
        self.account();
    }

    fn account(&mut self) {
        let stored = match &self.visited {
            Some(Store::Own(visited)) => visited.bytes(),
            Some(Store::Shared { weighed, .. }) => *weighed,
            None => 0,
        };
        self.stats.stored_bytes = stored + self.held;
        if (self.config.max_memory).is_some_and(|m| self.stats.stored_bytes > m) {
            self.stop.get_or_insert(Stop::MemoryLimit);
        }
    }

    /// Weighs the search on every thread again, which looks at every table, and
    /// accounts.
    fn weigh(&mut self) {
        if let Some(Store::Shared {
            all, weighed, me, ..
        }) = &mut self.visited
        {
            *weighed = all.weight_besides(Some(*me as usize));
        }
        self.account();
    }

    /// A fair cycle of the state graph, reported as a livelock with its lasso, once
    /// the search is complete (which it stays: the counts are exact).
    pub fn livelock(&mut self, lasso: &FairCycle) {
        let k = lasso.prefix.len();
        let steps = match lasso.cycle.len() {
            1 => "the step in parentheses returns".to_string(),
            n => format!("the {n} steps in parentheses return"),
        };
        let message = format!(
            "after step {k}, {steps} to the same state, and every process enabled throughout \
             the cycle takes a step in it ({}): it can repeat for ever under weak fairness",
            lasso.stepping.join(", ")
        );
        self.violations.push(Violation {
            kind: ViolationKind::Livelock,
            message,
            block: String::new(),
            span: None,
            schedule: lasso.schedule(),
        });
    }

    /// The algorithm abandons the current execution: counted as `blocked`.
    #[inline]
    pub fn blocked(&mut self, why: Blocked) {
        self.stats.blocked += 1;
        if let Some(link) = &mut self.link {
            link.flush();
        }
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.blocked(why);
        }
    }

    /// For the tree: the sleep and backtrack sets (process indices) that the node at
    /// `depth` of the current execution is left with.
    #[inline]
    pub fn annotate(&mut self, depth: usize, sleep: &SleepSet, backtrack: &[usize]) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.annotate(depth, sleep, backtrack, &self.ex.state);
        }
    }

    /// The current execution is complete (no process enabled): count it, record its
    /// final state, and report a deadlock if some process has not ended. An execution
    /// with a failed event is no complete execution (its violation is reported).
    ///
    /// With `max_traces` N, the (N+1)-th complete execution is not counted: it only
    /// shows that the limit cut the exploration short, which then stops. Returns
    /// whether the execution was counted.
    pub fn complete_execution(&mut self) -> bool {
        if self.ex.failed() {
            if let Some(tree) = self.tree.as_deref_mut() {
                tree.end(End::AfterFailure);
            }
            return false;
        }
        if self
            .config
            .max_traces
            .is_some_and(|m| self.stats.traces >= m)
        {
            self.stop.get_or_insert(Stop::MaxTraces);
            return false;
        }
        self.stats.traces += 1;
        if let Some(link) = &mut self.link {
            link.flush();
        }
        if self.config.record_schedules {
            let schedule = self.schedule();
            self.schedules.push(schedule);
        }
        if self.config.record_reads_from {
            let class = crate::reads_from::class(self.ex.events(), &self.ex.state.procs);
            self.reads_from.insert(class);
        }
        self.record_final();
        let program = self.program();
        // Named in identity order: the same deadlock reads the same in every interleaving.
        let mut blocked: Vec<usize> = (0..self.ex.state.procs.len())
            .filter(|&i| self.ex.state.procs[i].next.is_some())
            .collect();
        blocked.sort_by(|&a, &b| self.ex.state.procs[a].pid.cmp(&self.ex.state.procs[b].pid));
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.end(if blocked.is_empty() {
                End::Complete
            } else {
                End::Deadlock
            });
        }
        if let Some(&first) = blocked.first() {
            let names: Vec<String> = blocked
                .iter()
                .map(|&i| {
                    let b = self.ex.state.procs[i].next.unwrap_or_default();
                    format!(
                        "{} at {}",
                        self.ex.state.process_name(program, i),
                        program.blocks[b as usize].name
                    )
                })
                .collect();
            let block = self.ex.state.procs[first].next.unwrap_or_default();
            let schedule = self.schedule();
            self.violation(Violation {
                kind: ViolationKind::Deadlock,
                message: format!("deadlock: {} waiting", names.join(", ")),
                block: program.blocks[block as usize].name.clone(),
                span: None,
                schedule,
            });
        }
        true
    }

    /// Counts the current (final) state: a new one gets an [`Outcome`] while there
    /// are fewer than `max_outcomes`, with the current schedule.
    fn record_final(&mut self) {
        let program = self.program();
        let fingerprint = self.ex.state.fingerprint();
        // A map beside the set, rather than one map of them all: the set of a
        // program with millions of final states stays as small as it was.
        if let Some(&i) = self.outcome_index.get(&fingerprint) {
            self.outcomes[i as usize].executions += 1;
        } else if self.finals.insert(fingerprint) && self.outcomes.len() < self.config.max_outcomes
        {
            let (globals, processes) = show_final(program, &self.ex.state);
            self.outcome_index
                .insert(fingerprint, self.outcomes.len() as u32);
            self.outcomes.push(Outcome {
                fingerprint,
                globals,
                processes,
                executions: 1,
                schedule: self.schedule(),
            });
        }
    }

    /// The schedule of the current execution, as a witness: the last event, failed or
    /// not, and every other completed event (earlier failed events change nothing and
    /// are left out, so the schedule replays).
    fn schedule(&self) -> String {
        let events = self.ex.events();
        let last = events.len().saturating_sub(1);
        let procs = events
            .iter()
            .enumerate()
            .filter(|(i, e)| !e.failed || *i == last)
            .map(|(_, e)| e.proc);
        schedule::format(self.program(), &self.ex.state, procs)
    }

    fn violation(&mut self, v: Violation) {
        if self
            .seen
            .insert((v.kind, v.message.clone(), v.block.clone(), v.span))
        {
            self.violations.push(v);
        }
        if !self.config.all_violations {
            self.stop.get_or_insert(Stop::Violation);
        }
    }

    /// Whether to stop now (a violation when stopping at the first, a limit).
    pub fn stopped(&mut self) -> bool {
        if self.stop.is_some() {
            return true;
        }
        self.polls = self.polls.wrapping_add(1);
        if self.polls.is_multiple_of(256) {
            if (self.halt.as_ref()).is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                self.halted = true;
                self.stop = Some(Stop::Interrupted);
                return true;
            }
            if let Some(flag) = &self.config.interrupt {
                if flag.load(Ordering::Relaxed) {
                    self.stop = Some(Stop::Interrupted);
                    return true;
                }
            }
            if let Some(t) = self.config.timeout {
                if self.started.elapsed() >= t {
                    self.stop = Some(Stop::Timeout);
                    return true;
                }
            }
            if let Some(progress) = self.progress.as_mut() {
                if self.reported.elapsed() >= Duration::from_millis(200) {
                    self.reported = Instant::now();
                    progress(&self.stats);
                }
            }
        }
        false
    }
}
