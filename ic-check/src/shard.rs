//! Shard files: what `ic-check --partition K/N` prints, one JSON object of format
//! `ic-check-shard/1`, and what `ic-check merge` reads back (docs/cli.md,
//! "Spreading a run over machines"). A shard file holds everything the merge needs
//! to give the whole run's summary: the counters, the fingerprints of the distinct
//! final states (to count them across shards), the first final states found with
//! their schedules, the violations with theirs, and what identifies the search, so
//! that shards of different runs are refused.

use explorer::parallel::partition::Shard;
use explorer::{Outcome, Report, Stats, Stop, Violation, ViolationKind};
use frontend::ast::Span;
use frontend::ics::{sha256_hex, ProgramRef};
use frontend::ir::Program;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the `format` field.
pub const FORMAT: &str = "ic-check-shard/1";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    pub format: String,
    /// The ic-check that made it: the frontier, and so which units are a shard's,
    /// is its own.
    pub version: String,
    pub program: ProgramRef,
    /// Every `param` with the value in force (`-D` overrides included).
    pub params: BTreeMap<String, i64>,
    pub search: Search,
    pub shard: Shard,
    /// The frontier the units were taken from; `None` when the search stopped above
    /// it (every shard then ran the same, and the first reports it).
    pub frontier: Option<Frontier>,
    /// The threads this shard ran on.
    pub jobs: usize,
    pub stop: Stop,
    pub time_ms: f64,
    pub stats: Stats,
    /// The fingerprints of the distinct final states reached, in hex.
    pub finals: Vec<String>,
    pub finals_exhaustive: bool,
    /// The first distinct final states found, with their schedules.
    pub outcomes: Vec<ShardOutcome>,
    pub violations: Vec<ShardViolation>,
    /// Every complete execution's schedule, with `--print-traces`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedules: Vec<String>,
}

/// What decides the executions a shard explores and what it reports: shards of one
/// run have the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Search {
    pub algorithm: String,
    pub deps: String,
    pub literal: bool,
    pub violations_only: bool,
    pub all_violations: bool,
    pub max_steps: u64,
    pub max_depth: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frontier {
    pub units: usize,
    pub depth: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardOutcome {
    pub fingerprint: String,
    pub globals: String,
    pub processes: Vec<String>,
    pub executions: u64,
    pub schedule: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardViolation {
    pub kind: ViolationKind,
    pub message: String,
    pub block: String,
    pub schedule: String,
    /// The failing statement's byte range in the program text, `[start, end]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
}

impl ShardFile {
    /// The shard file of `report`, shard `shard` of a run of `search` on `program`
    /// (loaded from `source`, read from `file`).
    pub fn of(
        file: &str,
        source: &str,
        program: &Program,
        search: Search,
        shard: Shard,
        report: &Report,
        time_ms: f64,
    ) -> ShardFile {
        let parallel = report.parallel.as_ref();
        ShardFile {
            format: FORMAT.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            program: ProgramRef {
                sha256: sha256_hex(source.as_bytes()),
                file: file.to_string(),
            },
            params: program
                .params
                .iter()
                .map(|p| (p.name.clone(), p.value))
                .collect(),
            search,
            shard,
            frontier: parallel.map(|p| Frontier {
                units: p.units,
                depth: p.depth,
            }),
            jobs: parallel.map_or(1, |p| p.jobs),
            stop: report.stop,
            time_ms,
            stats: report.stats.clone(),
            finals: report.finals.iter().map(|f| format!("{f:032x}")).collect(),
            finals_exhaustive: report.finals_exhaustive,
            outcomes: report
                .outcomes
                .iter()
                .map(|o| ShardOutcome {
                    fingerprint: format!("{:032x}", o.fingerprint),
                    globals: o.globals.clone(),
                    processes: o.processes.clone(),
                    executions: o.executions,
                    schedule: o.schedule.clone(),
                })
                .collect(),
            violations: report
                .violations
                .iter()
                .map(|v| ShardViolation {
                    kind: v.kind,
                    message: v.message.clone(),
                    block: v.block.clone(),
                    schedule: v.schedule.clone(),
                    span: v.span.map(|s| [s.start, s.end]),
                })
                .collect(),
            schedules: report.schedules.clone(),
        }
    }

    pub fn to_json(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a shard file. Its `format` is checked before anything else.
    pub fn from_json(text: &str) -> Result<ShardFile, String> {
        crate::format::read(text, FORMAT, "shard file")
    }

    /// The report this shard file was made of (what [`ShardFile::of`] kept: no tree,
    /// no reads-from classes). `Err`: a fingerprint or span that does not fit
    /// `source`, the text the file was checked to be made from.
    pub fn report(&self, source: &str) -> Result<Report, String> {
        let fingerprint = |hex: &str| {
            u128::from_str_radix(hex, 16).map_err(|_| format!("`{hex}` is not a fingerprint"))
        };
        let finals = (self.finals.iter())
            .map(|f| fingerprint(f))
            .collect::<Result<Vec<_>, _>>()?;
        let outcomes = (self.outcomes.iter())
            .map(|o| {
                Ok(Outcome {
                    fingerprint: fingerprint(&o.fingerprint)?,
                    globals: o.globals.clone(),
                    processes: o.processes.clone(),
                    executions: o.executions,
                    schedule: o.schedule.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let violations = (self.violations.iter())
            .map(|v| {
                let span = match v.span {
                    Some([start, end]) if start <= end && end <= source.len() => {
                        Some(Span { start, end })
                    }
                    Some([start, end]) => {
                        return Err(format!("span {start}..{end} is not in the program text"))
                    }
                    None => None,
                };
                Ok(Violation {
                    kind: v.kind,
                    message: v.message.clone(),
                    block: v.block.clone(),
                    span,
                    schedule: v.schedule.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut stats = self.stats.clone();
        stats.final_states = finals.len() as u64;
        Ok(Report {
            stats,
            violations,
            stop: self.stop,
            finals,
            outcomes,
            schedules: self.schedules.clone(),
            reads_from: Vec::new(),
            mazurkiewicz_traces: Vec::new(),
            tree: None,
            finals_exhaustive: self.finals_exhaustive,
            dependency: Default::default(),
            parallel: self.frontier.map(|f| explorer::report::Parallel {
                jobs: self.jobs,
                units: f.units,
                depth: f.depth,
                shard: Some(self.shard),
                shards: None,
                shared_top: false,
            }),
        })
    }

    /// Whether it was made from this program text.
    pub fn matches_source(&self, source: &str) -> bool {
        self.program
            .sha256
            .eq_ignore_ascii_case(&sha256_hex(source.as_bytes()))
    }
}
