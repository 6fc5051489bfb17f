//! `--partition K/N`: the K-th of N deterministic shards of a split search, for a
//! batch engine (Slurm job arrays, Kubernetes Indexed Jobs, GNU parallel) to run
//! anywhere, and [`combine`] to put back together.
//!
//! Every shard computes the same frontier ([`super::frontier`]: the program, the
//! algorithm and its options decide it, not the machine), deepened to at least one
//! unit per shard, and explores the units whose index is `K - 1` modulo `N`. Dealt
//! out so rather than in runs: units are numbered in depth-first order, so the
//! units below one top-level branch, which a large subtree makes large together,
//! are neighbours; dealing them spreads them over the shards. The executions that
//! end above the frontier are shard 1's. The shards together therefore explore
//! exactly what one shard of one explores over the same frontier (the same counts,
//! for `N` up to [`super::UNITS`], on any number of threads each), and the
//! soundness argument of the frontier covers them: which thread or machine
//! explores a unit changes nothing in it.

use super::{explore_units, first_stop, Split, UNITS};
use crate::exploration::{Algorithm, Config, Progress};
use crate::report::Report;
use frontend::ir::Program;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The `k`-th of `n` shards, counted from 1 (cargo-nextest's `--partition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Whether the unit with this index (in the frontier's order) is this shard's.
    pub fn takes(&self, unit: usize) -> bool {
        unit % self.n == self.k - 1
    }

    /// The units the frontier is deepened to reach for `n` shards: one per shard at
    /// least, so that every shard has work where the tree branches enough.
    pub fn units_wanted(n: usize) -> usize {
        UNITS.max(n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N (the K-th of N shards, e.g. 2/8)"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{t}` in `{s}` is not a whole number"))
        };
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 {
            return Err(format!("`{s}`: a run has at least one shard"));
        }
        if k == 0 || k > n {
            return Err(format!("`{s}`: shards are numbered from 1 to {n}"));
        }
        Ok(Shard { k, n })
    }
}

/// Why a search cannot be sharded: the message for the user.
pub fn unsplittable(algorithm: &dyn Algorithm, config: &Config) -> Option<String> {
    if !algorithm.explores_units(config.deps) {
        Some(format!(
            "{} with constraints cannot start at a unit of the execution tree (the \
             events of the unit's path would need the constraints too): every other \
             search is sharded",
            algorithm.name()
        ))
    } else if config.livelocks {
        Some(
            "--livelocks looks for cycles in the whole state graph: it cannot be sharded"
                .to_string(),
        )
    } else if config.max_traces.is_some() {
        Some("--max-traces counts over the whole search: it cannot be sharded".to_string())
    } else if config.tree.is_some() {
        Some("--tree draws one search: it cannot be sharded".to_string())
    } else {
        None
    }
}

/// Shard `shard` of the search of the algorithm `make` builds, on `split.jobs`
/// threads over a frontier of `split.units` units or more (`ic-check` takes
/// [`Shard::units_wanted`]). `Err`: why it cannot be sharded ([`unsplittable`]).
pub fn explore_shard(
    program: &Program,
    make: &(dyn Fn() -> Box<dyn Algorithm> + Sync),
    config: Config,
    split: Split,
    shard: Shard,
    progress: Option<Progress<'_>>,
) -> Result<Report, String> {
    let first = make();
    if let Some(why) = unsplittable(&*first, &config) {
        return Err(why);
    }
    if first.explores_every_interleaving() {
        return Err(format!(
            "{} counts Mazurkiewicz traces as a set over the whole search, which a shard \
             file does not carry: it is not sharded (--jobs spreads it over the cores)",
            first.name()
        ));
    }
    Ok(explore_units(
        program,
        make,
        &*first,
        config,
        split.jobs.max(1),
        split.units,
        Some(shard),
        progress,
    ))
}

/// The report of the whole search from the reports of all its shards, in shard
/// order: what [`super::merge::merge`] makes of parts, stopped as the shard that
/// stopped [first](first_stop) (a violation before a timeout).
pub fn combine(shards: Vec<Report>, max_outcomes: usize) -> Report {
    let stop = first_stop(shards.iter().map(|r| r.stop));
    let n = shards.len();
    // No shard has a frontier when the search stopped above it: then none has units.
    let (units, depth, jobs) = match shards.iter().find_map(|r| r.parallel.clone()) {
        Some(p) => (p.units, p.depth, p.jobs),
        None => (0, 0, 1),
    };
    let jobs = (shards.iter())
        .filter_map(|r| r.parallel.as_ref().map(|p| p.jobs))
        .fold(jobs, usize::max);
    let mut report = super::merge::merge(shards, stop, max_outcomes);
    report.parallel = Some(super::Parallel {
        jobs,
        units,
        depth,
        shard: None,
        shards: Some(n),
        shared_top: false,
    });
    report
}
