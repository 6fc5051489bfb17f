//! A stateful search on N threads ([`Algorithm::shares_stored_states`]: the stateful
//! reference; S-POR, whose argument is [`crate::algorithms::spor`]'s; DL-S-POR, whose
//! argument is [`crate::stateful::search`]'s): the
//! threads store the states they reach in one store ([`super::shared_visited`]) and
//! hand each other the branches they have not taken ([`super::pool`]).
//!
//! Why the reference finds what one thread finds: a state is expanded (every enabled process
//! run from it) by the one thread that stores it first, whichever branches of it it
//! gives away, since the thread that takes them runs them; so, by induction on the
//! shortest path to a reachable state, every state on that path is stored and
//! expanded, and the state is reached. The counts are those of one thread: each
//! reachable state is stored once, each stored state expanded once (`states`, 1 +
//! every transition taken, and `traces`, the final states, are the same); only
//! which schedule reaches a finding first depends on the threads' timing.

use super::pool::Pool;
use super::shared_visited::SharedVisited;
use super::{gathered, lock, merge, on_threads};
use crate::exploration::{Algorithm, Config, Exploration, Progress};
use crate::report::{Parallel, Report, Stats, Stop};
use frontend::ir::Program;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The search of the algorithm `make` builds, on `jobs` threads sharing one store.
pub fn explore(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    config: Config,
    jobs: usize,
    progress: Option<Progress<'_>>,
) -> Report {
    let started = Instant::now();
    let first = make();
    // The initial block runs on every thread: if it fails, the report says so once.
    if let Err(report) = Exploration::new(program, &*first, config.clone(), None) {
        return *report;
    }
    let store = Arc::new(SharedVisited::new(jobs));
    let pool = Arc::new(Pool::new(jobs));
    let results: Vec<Mutex<Option<(Report, bool)>>> = (0..jobs).map(|_| Mutex::default()).collect();
    let current: Vec<Mutex<Stats>> = (0..jobs).map(|_| Mutex::default()).collect();
    let work = |w: usize| {
        let mut algorithm = make();
        let mut show = |s: &Stats| *lock(&current[w]) = s.clone();
        let progress: Option<Progress<'_>> = Some(&mut show);
        let Ok(mut run) = Exploration::new(program, &*algorithm, config.clone(), progress) else {
            unreachable!("the initial block ran once already");
        };
        run.for_worker(store.clone(), w, pool.clone(), started);
        algorithm.explore(&mut run);
        let halted = run.halted();
        let report = run.finish(&*algorithm);
        if !halted && report.stop != Stop::Complete {
            pool.end();
        }
        *lock(&results[w]) = Some((report, halted));
    };
    let counters = || {
        let mut all = Stats::default();
        for c in &current {
            merge::add_stats(&mut all, &lock(c));
        }
        shared_counts(&mut all, &store);
        all
    };
    on_threads(jobs, &work, progress, &counters);
    let (parts, stop) = gathered(results);
    let mut report = merge::merge(parts, stop, config.max_outcomes);
    shared_counts(&mut report.stats, &store);
    report.parallel = Some(Parallel {
        jobs,
        units: 0,
        depth: 0,
        shard: None,
        shards: None,
        shared_top: false,
    });
    report
}

/// The counts the threads share: the initial state (no thread counts it), the
/// store's states, and the bytes of the search (the store's, the summaries', what
/// the threads hold).
fn shared_counts(stats: &mut Stats, store: &SharedVisited) {
    stats.states += 1;
    stats.stored = Some(store.len());
    stats.stored_bytes = store.weight_besides(None);
}
