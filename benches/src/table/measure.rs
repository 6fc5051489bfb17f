//! One measurement of the table: an algorithm explores a program in-process, as
//! `ic-check` would run it, with the timeout; and the synthesis CDPOR needs first,
//! timed apart (the papers' T^smt).

use super::families::Set;
use super::memory;
use explorer::cdpor::Constrained;
use explorer::csdpor::ContextSensitive;
use explorer::dpor::Dpor;
use explorer::fingerprint::Fingerprint;
use explorer::ocdpor::OptimalConstrained;
use explorer::odpor::OptimalDpor;
use explorer::odpor_cs::OptimalContextSensitive;
use explorer::odpor_cs_ob::OptimalContextSensitiveObservers;
use explorer::odpor_ob::OptimalObservers;
use explorer::sdpor::SourceDpor;
use explorer::{Algorithm, Config, Deps, Stop};
use frontend::ics::ResolvedIcs;
use frontend::ir::Program;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The algorithms the tables compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Sdpor,
    Odpor,
    OdporCs,
    OdporOb,
    /// `odpor-ob --violations-only`: the end of an execution observes nothing, the
    /// paper's equivalence (its final states are not all reached).
    OdporObVo,
    OdporCsOb,
    /// `odpor-cs-ob --violations-only`.
    OdporCsObVo,
    Csdpor,
    Cdpor,
    Ocdpor,
}

impl Algo {
    /// The CDPOR paper's Table 1, in its order: the `papers` and `classic` sets.
    pub const ALL: [Algo; 3] = [Algo::Sdpor, Algo::Csdpor, Algo::Cdpor];

    /// The `odpor` set's: the optimal algorithms beside the source-set ones, ODPOR with
    /// observers (the paper's ODPOR^ob, with the end as an observer), its
    /// context-sensitive version (ODPOR_cs^ob), each also with `--violations-only`
    /// (the paper's setting), and context-sensitive ODPOR (ODPOR_cs) after ODPOR.
    pub const OPTIMAL: [Algo; 10] = [
        Algo::Sdpor,
        Algo::Odpor,
        Algo::OdporOb,
        Algo::OdporObVo,
        Algo::OdporCsOb,
        Algo::OdporCsObVo,
        Algo::OdporCs,
        Algo::Csdpor,
        Algo::Cdpor,
        Algo::Ocdpor,
    ];

    /// The algorithms a set's table measures, in its columns' order.
    pub fn of_set(set: Set) -> &'static [Algo] {
        match set {
            Set::Papers | Set::Classic => &Algo::ALL,
            Set::Odpor => &Algo::OPTIMAL,
        }
    }

    /// The name `ic-check --algo` takes.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Sdpor => "sdpor",
            Algo::Odpor => "odpor",
            Algo::OdporCs => "odpor-cs",
            Algo::OdporOb | Algo::OdporObVo => "odpor-ob",
            Algo::OdporCsOb | Algo::OdporCsObVo => "odpor-cs-ob",
            Algo::Csdpor => "csdpor",
            Algo::Cdpor => "cdpor",
            Algo::Ocdpor => "ocdpor",
        }
    }

    /// The papers' name, for column headers.
    pub fn title(self) -> &'static str {
        match self {
            Algo::Sdpor => "SDPOR",
            Algo::Odpor => "ODPOR",
            Algo::OdporCs => "ODPOR_cs",
            Algo::OdporOb => "ODPOR-OB",
            Algo::OdporObVo => "ODPOR-OB vo",
            Algo::OdporCsOb => "ODPOR_cs-OB",
            Algo::OdporCsObVo => "ODPOR_cs-OB vo",
            Algo::Csdpor => "CSDPOR",
            Algo::Cdpor => "CDPOR",
            Algo::Ocdpor => "OCDPOR",
        }
    }

    /// Whether it runs with `--violations-only` (its final states are not all
    /// reached, and it is left out of the comparison of final states).
    pub fn violations_only(self) -> bool {
        matches!(self, Algo::OdporObVo | Algo::OdporCsObVo)
    }

    /// The option `ic-check` takes for it besides `--algo`, if any.
    pub fn flag(self) -> Option<&'static str> {
        self.violations_only().then_some("--violations-only")
    }

    /// Whether it needs the synthesised constraints.
    pub fn uses_ics(self) -> bool {
        matches!(self, Algo::Cdpor | Algo::Ocdpor)
    }
}

/// The name `ic-check --deps` takes.
pub fn deps_name(deps: Deps) -> &'static str {
    match deps {
        Deps::Static => "static",
        Deps::Dynamic => "dynamic",
    }
}

/// The synthesised constraints of a program, and how long they took.
pub struct Synthesised {
    pub ics: Arc<ResolvedIcs>,
    pub seconds: f64,
}

/// Synthesises the constraints of `program` as `ic-check` does without `--ics`; the
/// time includes turning them into the explorer's form.
pub fn synthesise(program: &Program, source: &str, file: &str) -> Result<Synthesised, String> {
    let started = Instant::now();
    let ics = ic_synth::resolved(program, source, file).map_err(|e| {
        format!(
            "the synthesised constraints do not fit the program: {}",
            e.0
        )
    })?;
    Ok(Synthesised {
        ics: Arc::new(ics),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What one exploration measured.
#[derive(Debug)]
pub struct Run {
    pub traces: u64,
    pub states: u64,
    /// Wall-clock seconds of the exploration alone.
    pub seconds: f64,
    pub stop: Stop,
    /// The first violation, deadlock or runtime error, described in one line: the
    /// programs are correct, so any is a bug to look at.
    pub violation: Option<String>,
    /// The distinct final states (sorted fingerprints), to compare algorithms.
    pub finals: Vec<Fingerprint>,
    /// How far the process's resident memory rose during the run, in MB.
    pub mem_mb: Option<f64>,
}

impl Run {
    pub fn timed_out(&self) -> bool {
        self.stop == Stop::Timeout
    }

    pub fn complete(&self) -> bool {
        self.stop == Stop::Complete
    }
}

/// Explores `program` with `algo`; cdpor and ocdpor need the constraints `ics`.
pub fn run(
    program: &Program,
    algo: Algo,
    deps: Deps,
    timeout: Duration,
    ics: Option<&Arc<ResolvedIcs>>,
) -> Result<Run, String> {
    let mut algorithm: Box<dyn Algorithm> = match (algo, ics) {
        (Algo::Sdpor, _) => Box::new(Dpor::new(SourceDpor)),
        (Algo::Odpor, _) => Box::new(Dpor::new(OptimalDpor)),
        (Algo::OdporCs, _) => Box::new(Dpor::new(OptimalContextSensitive::new(
            ContextSensitive::new(),
        ))),
        (Algo::OdporOb | Algo::OdporObVo, _) => Box::new(Dpor::new(OptimalObservers)),
        (Algo::OdporCsOb | Algo::OdporCsObVo, _) => Box::new(Dpor::new(
            OptimalContextSensitiveObservers::new(ContextSensitive::new()),
        )),
        (Algo::Csdpor, _) => Box::new(Dpor::new(ContextSensitive::new())),
        (Algo::Cdpor, Some(ics)) => Box::new(Dpor::new(Constrained::new(
            ics.clone(),
            ContextSensitive::new(),
        ))),
        (Algo::Ocdpor, Some(ics)) => Box::new(Dpor::new(OptimalConstrained::context_sensitive(
            ics.clone(),
            ContextSensitive::new(),
        ))),
        (Algo::Cdpor | Algo::Ocdpor, None) => {
            return Err(format!("{} needs constraints", algo.name()))
        }
    };
    // As ic-check runs it: its default --max-depth, which cdpor's ranges rest on.
    let config = Config {
        deps,
        timeout: Some(timeout),
        max_depth: Some(explorer::MAX_DEPTH),
        violations_only: algo.violations_only(),
        ..Config::default()
    };
    let ((report, seconds), mem_mb) = memory::growth_during(|| {
        let started = Instant::now();
        let report = explorer::explore(program, algorithm.as_mut(), config);
        (report, started.elapsed().as_secs_f64())
    });
    let violation = report
        .violations
        .first()
        .map(|v| format!("{} (in `{}`)", v.message, v.block));
    Ok(Run {
        traces: report.stats.traces,
        states: report.stats.states,
        seconds,
        stop: report.stop,
        violation,
        finals: report.finals,
        mem_mb,
    })
}
