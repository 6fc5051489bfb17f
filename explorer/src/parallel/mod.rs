//! `--jobs N`: one search on N threads. The threads of the searches on backtrack
//! sets (sdpor, csdpor, cdpor) and of Optimal-DPOR (odpor, odpor-cs, ocdpor) share
//! the top of the tree and its backtrack sets or wakeup trees ([`shared_top`]); those
//! of the stateful searches share one store of states ([`stateful`]). naive's, and
//! the shards of `--partition` ([`partition`]), split the tree at a frontier: its
//! top is explored with full branching and sleep sets down to a depth where it has
//! [`UNITS`] paths or more ([`frontier`], with the argument that it is sound); each
//! path is a unit, a subtree the algorithm explores as it would below that node,
//! started with the node's sleep set. Workers take the units in order as they finish
//! the last (a shared counter: many more units than workers balance subtrees of
//! very different sizes), and the reports are merged in the units' order
//! ([`merge`]), so the counts and the witnesses shown do not depend on the number of
//! workers or on their timing, only the stop when one is asked for. naive's frontier
//! puts no process to sleep, and its traces are merged as a set: one thread's counts
//! exactly.
//!
//! The counts of units are those explored: full branching above the frontier
//! explores paths that a reduced search would not (one per Mazurkiewicz trace of the
//! frontier's paths, where Source-DPOR may take one), and the units do not share the
//! sets a sequential search carries from one subtree to the next (csdpor's state
//! checks, odpor-ob's done sets, the races it reverses above the frontier): which is
//! why `--jobs` splits no reduced search into units ([`spreads`]).

pub mod frontier;
pub mod merge;
pub mod partition;
pub mod pool;
pub mod shared_summaries;
pub mod shared_table;
pub mod shared_top;
pub mod shared_visited;
pub mod stateful;

use crate::exploration::{Algorithm, Config, Exploration, Progress};
use crate::report::{Parallel, Report, Stats, Stop};
use frontend::ir::Program;
use partition::Shard;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The units the frontier is deepened to reach, whatever the number of workers (the
/// counts are then the same for every `--jobs` above 1). More balance the threads
/// better, and cost more: the deeper the frontier, the more processes start a unit
/// asleep, and the more of its executions end blocked. On two threads (odpor,
/// lastzero(12), one thread 0.76 s): 2 units 0.42 s, 32 units 0.50 s, 256 units
/// 0.71 s (50,179 executions blocked, none on one thread).
pub const UNITS: usize = 32;

/// The frontier's deepest level: a program whose paths do not branch into
/// [`UNITS`] before it runs its units from there.
pub const MAX_FRONTIER: usize = 64;

/// How a search is split: its threads, the units its frontier is deepened to, and
/// for Source-DPOR the depth of the top its threads share instead
/// ([`shared_top::SPLIT`]).
#[derive(Clone, Copy, Debug)]
pub struct Split {
    pub jobs: usize,
    pub units: usize,
    pub top: shared_top::TopSplit,
}

/// The algorithm `make` builds, run on `program` by `jobs` threads over a frontier
/// of [`UNITS`] units.
pub fn explore(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    config: Config,
    jobs: usize,
    progress: Option<Progress<'_>>,
) -> Report {
    explore_split(
        program,
        make,
        config,
        Split {
            jobs,
            units: UNITS,
            top: shared_top::TopSplit::default(),
        },
        progress,
    )
}

/// [`explore`] with the given split (the differential test takes a few units, so that
/// the programs it generates, small, reach the frontier). One thread, an algorithm
/// that cannot start at a unit ([`Algorithm::explores_units`]) nor share its
/// backtrack sets ([`Algorithm::shares_top`]), a tree or `max_traces` (a
/// count over every unit) explore as [`crate::explore`] does.
/// `progress` gets the counters of every thread together, about five times a second.
pub fn explore_split(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    config: Config,
    Split { jobs, units, top }: Split,
    progress: Option<Progress<'_>>,
) -> Report {
    let mut first = make();
    let whole = config.tree.is_some() || config.max_traces.is_some();
    if jobs > 1 && !whole && first.shares_stored_states(&config) {
        return stateful::explore(program, make, config, jobs, progress);
    }
    if jobs > 1 && !whole && !config.livelocks && first.shares_top().is_some() {
        return shared_top::explore(program, make, config, (jobs, top), progress);
    }
    if jobs <= 1
        || !spreads(&*first, &config)
        || partition::unsplittable(&*first, &config).is_some()
    {
        return crate::explore_with_progress(program, first.as_mut(), config, progress);
    }
    explore_units(program, make, &*first, config, jobs, units, None, progress)
}

/// Whether `--jobs` spreads the search of `algorithm` over threads under `config`:
/// its threads share one store of states, or the top of its tree, or (naive alone)
/// they explore the units of a frontier. A reduced search that shares neither
/// (odpor-ob, odpor-cs-ob) runs on one thread: its units start with the processes
/// of the frontier's other branches asleep and share nothing a search carries from
/// one subtree to the next (odpor-ob's done sets, the states odpor-cs-ob compares),
/// so together they explore what one search prunes. odpor-ob on 32 units or more
/// took longer on two threads than on one on 10 of 11 rows (DBP(8): 412k states
/// against 132k, 1.66 s against 1.13 s; abs(4): 195 executions against 4; FR(9)
/// 97,920 against 9,234), and on 2 units too; cdpor on PS_shared(7) explored 1,470
/// executions where one thread explores 1, 158 times slower. Only the shards of
/// `--partition`, which share nothing anyway, split them into units ([`partition`]).
pub fn spreads(algorithm: &dyn Algorithm, config: &Config) -> bool {
    algorithm.shares_stored_states(config)
        || algorithm.shares_top().is_some()
        || (algorithm.explores_units(config.deps) && algorithm.explores_every_interleaving())
}

/// The units of a frontier of `wanted` units or more (those of `shard`, or all) on
/// `jobs` threads, with the frontier's own executions (where `shard` is the first
/// or none), merged into one report. `first`, one algorithm `make` built, runs the
/// frontier.
#[allow(clippy::too_many_arguments)]
fn explore_units(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    first: &dyn Algorithm,
    config: Config,
    jobs: usize,
    wanted: usize,
    shard: Option<Shard>,
    progress: Option<Progress<'_>>,
) -> Report {
    let started = Instant::now();
    let frontier_is_mine = shard.is_none_or(|s| s.k == 1);
    let (frontier_report, units, depth) = match frontier(program, first, &config, wanted) {
        Ok(frontier) => frontier,
        // The search stopped above the frontier: every shard ran the same, the first
        // reports it, the others stop with nothing.
        Err(report) if frontier_is_mine => return *report,
        Err(report) => return merge::merge(Vec::new(), report.stop, config.max_outcomes),
    };
    let total = units.len();
    let units: Vec<crate::unit::Unit> = (units.into_iter().enumerate())
        .filter(|(i, _)| shard.is_none_or(|s| s.takes(*i)))
        .map(|(_, u)| u)
        .collect();
    let frontier_report = match frontier_is_mine {
        true => frontier_report,
        false => merge::merge(Vec::new(), Stop::Complete, config.max_outcomes),
    };
    let max_outcomes = config.max_outcomes;
    let halt = Arc::new(AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<(Report, bool)>>> =
        units.iter().map(|_| Mutex::new(None)).collect();
    let workers = jobs.min(units.len());
    // The counters of the units done (and the frontier's), and of each thread's unit.
    let done = Mutex::new(frontier_report.stats.clone());
    let current: Vec<Mutex<Stats>> = (0..workers).map(|_| Mutex::default()).collect();
    let work = |w: usize| {
        let current = &current[w];
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= units.len() || halt.load(Ordering::Relaxed) {
                break;
            }
            let mut algorithm = make();
            let mut show = |s: &Stats| *lock(current) = s.clone();
            let progress: Option<Progress<'_>> = Some(&mut show);
            let Ok(mut run) = Exploration::new(program, &*algorithm, config.clone(), progress)
            else {
                unreachable!("the frontier ran the initial block");
            };
            run.for_unit(units[i].clone(), started, halt.clone());
            algorithm.explore(&mut run);
            let halted = run.halted();
            let report = run.finish(&*algorithm);
            if !halted && report.stop != Stop::Complete {
                halt.store(true, Ordering::Relaxed);
            }
            merge::add_stats(&mut lock(&done), &report.stats);
            *lock(current) = Stats::default();
            *lock(&results[i]) = Some((report, halted));
        }
    };
    on_threads(workers, &work, progress, &|| counters(&done, &current));
    let (unit_reports, stop) = gathered(results);
    let parts = std::iter::once(frontier_report)
        .chain(unit_reports)
        .collect();
    let mut report = merge::merge(parts, stop, max_outcomes);
    report.parallel = Some(Parallel {
        jobs,
        units: total,
        depth,
        shard,
        shards: None,
        shared_top: false,
    });
    report
}

/// The frontier of the search: its report (the executions that end above it), its
/// units and its depth. `Err`: the whole report, if the initial block fails or the
/// frontier stops the search (a violation when stopping at the first, a timeout).
fn frontier(
    program: &Program,
    algorithm: &dyn Algorithm,
    config: &Config,
    wanted: usize,
) -> Result<(Report, Vec<crate::unit::Unit>, usize), Box<Report>> {
    let mut depth = 1;
    loop {
        let mut run = Exploration::new(program, algorithm, config.clone(), None)?;
        let units = frontier::units(&mut run, algorithm, depth);
        if run.stopped() {
            return Err(Box::new(run.finish(algorithm)));
        }
        if units.len() >= wanted || units.is_empty() || depth >= MAX_FRONTIER {
            return Ok((run.finish(algorithm), units, depth));
        }
        depth += 1;
    }
}

/// Runs `work(0)` to `work(workers - 1)` on threads of their own; meanwhile
/// `progress` gets what `counters` says about five times a second.
fn on_threads(
    workers: usize,
    work: &(dyn Fn(usize) + Sync),
    progress: Option<Progress<'_>>,
    counters: &(dyn Fn() -> Stats + Sync),
) {
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..workers).map(|w| scope.spawn(move || work(w))).collect();
        if let Some(progress) = progress {
            let mut reported = Instant::now();
            while !threads.iter().all(|t| t.is_finished()) {
                std::thread::sleep(Duration::from_millis(20));
                if reported.elapsed() >= Duration::from_millis(200) {
                    reported = Instant::now();
                    progress(&counters());
                }
            }
        }
    });
}

/// The counters of the work `done` and of each thread's `current` work, together.
fn counters(done: &Mutex<Stats>, current: &[Mutex<Stats>]) -> Stats {
    let mut all = lock(done).clone();
    for c in current {
        merge::add_stats(&mut all, &lock(c));
    }
    all
}

/// The value behind `m`, also if a thread panicked holding it (the panic is then
/// the thread's report, and these are counters).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The reports the threads left in `results`, in order, and the search's stop: the
/// [first](first_stop) of those not halted by another thread's.
fn gathered(results: Vec<Mutex<Option<(Report, bool)>>>) -> (Vec<Report>, Stop) {
    let reports: Vec<(Report, bool)> = results
        .into_iter()
        .filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let stop = first_stop(reports.iter().filter(|(_, h)| !h).map(|(r, _)| r.stop));
    (reports.into_iter().map(|(r, _)| r).collect(), stop)
}

/// The stop of a search whose parts stopped for several reasons: what was found
/// before what was run out of ([`rank`]); complete if none stopped.
pub(crate) fn first_stop(stops: impl Iterator<Item = Stop>) -> Stop {
    stops.min_by_key(|&s| rank(s)).unwrap_or(Stop::Complete)
}

/// Which stop a merged report gives when units stopped for several reasons: what
/// was found before what was run out of.
fn rank(stop: Stop) -> u8 {
    match stop {
        Stop::Violation => 0,
        Stop::MemoryLimit => 1,
        Stop::MaxTraces => 2,
        Stop::Timeout => 3,
        Stop::Interrupted => 4,
        Stop::TreeFull => 5,
        Stop::Complete => 6,
    }
}
