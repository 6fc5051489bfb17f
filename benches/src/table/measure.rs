//! One measurement of the table: an algorithm explores a program in-process, as
//! `ic-check` would run it, with the timeout; and the synthesis CDPOR needs first,
//! timed apart (the papers' T^smt).

use super::families::Set;
use super::memory;
use explorer::fingerprint::Fingerprint;
use explorer::registry::{self, AlgorithmSpec};
use explorer::{Config, Deps, Stop, ViolationKind};
use frontend::ics::ResolvedIcs;
use frontend::ir::Program;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A column of the tables: an algorithm of [`registry::ALGORITHMS`], and whether it
/// runs with `--violations-only` (the papers' setting for the observer algorithms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algo {
    pub spec: &'static AlgorithmSpec,
    pub violations_only: bool,
}

impl Algo {
    const fn plain(spec: &'static AlgorithmSpec) -> Algo {
        Algo {
            spec,
            violations_only: false,
        }
    }

    pub const STATEFUL: Algo = Algo::plain(&registry::STATEFUL);
    pub const SPOR: Algo = Algo::plain(&registry::SPOR);
    pub const DE_SPOR: Algo = Algo::plain(&registry::DE_SPOR);
    pub const DL_SPOR: Algo = Algo::plain(&registry::DL_SPOR);
    pub const SDPOR: Algo = Algo::plain(&registry::SDPOR);
    pub const ODPOR: Algo = Algo::plain(&registry::ODPOR);
    pub const ODPOR_CS: Algo = Algo::plain(&registry::ODPOR_CS);
    pub const ODPOR_OB: Algo = Algo::plain(&registry::ODPOR_OB);
    /// `odpor-ob --violations-only`: the end of an execution observes nothing, the
    /// paper's equivalence (its final states are not all reached).
    pub const ODPOR_OB_VO: Algo = Algo {
        spec: &registry::ODPOR_OB,
        violations_only: true,
    };
    pub const ODPOR_CS_OB: Algo = Algo::plain(&registry::ODPOR_CS_OB);
    /// `odpor-cs-ob --violations-only`.
    pub const ODPOR_CS_OB_VO: Algo = Algo {
        spec: &registry::ODPOR_CS_OB,
        violations_only: true,
    };
    pub const CSDPOR: Algo = Algo::plain(&registry::CSDPOR);
    pub const CDPOR: Algo = Algo::plain(&registry::CDPOR);
    pub const OCDPOR: Algo = Algo::plain(&registry::OCDPOR);

    /// The CDPOR paper's Table 1, in its order: the `papers` and `classic` sets.
    pub const ALL: [Algo; 3] = [Algo::SDPOR, Algo::CSDPOR, Algo::CDPOR];

    /// The stateful searches of the cyclic set, the reference first.
    pub const STATEFUL_SEARCHES: [Algo; 4] =
        [Algo::STATEFUL, Algo::SPOR, Algo::DE_SPOR, Algo::DL_SPOR];

    /// The `odpor` set's: the optimal algorithms beside the source-set ones, ODPOR with
    /// observers (the paper's ODPOR^ob, with the end as an observer), its
    /// context-sensitive version (ODPOR_cs^ob), each also with `--violations-only`
    /// (the paper's setting), and context-sensitive ODPOR (ODPOR_cs) after ODPOR.
    pub const OPTIMAL: [Algo; 10] = [
        Algo::SDPOR,
        Algo::ODPOR,
        Algo::ODPOR_OB,
        Algo::ODPOR_OB_VO,
        Algo::ODPOR_CS_OB,
        Algo::ODPOR_CS_OB_VO,
        Algo::ODPOR_CS,
        Algo::CSDPOR,
        Algo::CDPOR,
        Algo::OCDPOR,
    ];

    /// The algorithms a set's table measures, in its columns' order.
    pub fn of_set(set: Set) -> &'static [Algo] {
        match set {
            Set::Papers | Set::Classic => &Algo::ALL,
            Set::Odpor => &Algo::OPTIMAL,
            Set::Cyclic => &Algo::STATEFUL_SEARCHES,
        }
    }

    /// The name `ic-check --algo` takes.
    pub fn name(self) -> &'static str {
        self.spec.name
    }

    /// The papers' name, for column headers.
    pub fn title(self) -> String {
        if self.violations_only {
            format!("{} vo", self.spec.title)
        } else {
            self.spec.title.to_string()
        }
    }

    /// Whether it runs with `--violations-only` (its final states are not all
    /// reached, and it is left out of the comparison of final states).
    pub fn violations_only(self) -> bool {
        self.violations_only
    }

    /// The option `ic-check` takes for it besides `--algo`, if any.
    pub fn flag(self) -> Option<&'static str> {
        self.violations_only.then_some("--violations-only")
    }

    /// Whether it needs the synthesised constraints.
    pub fn uses_ics(self) -> bool {
        self.spec.uses_constraints
    }
}

/// The name `ic-check --deps` takes.
pub fn deps_name(deps: Deps) -> &'static str {
    match deps {
        Deps::Static => "static",
        Deps::Dynamic => "dynamic",
        Deps::Accesses => "accesses",
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
    /// The states a stateful search stored; none for a stateless one.
    pub stored: Option<u64>,
    /// Whether the first violation is an assertion or a runtime error (not a
    /// deadlock).
    pub failed: bool,
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
    run_on(program, algo, deps, timeout, ics, 1)
}

/// [`run`] on `jobs` threads (`ic-check --jobs`).
pub fn run_on(
    program: &Program,
    algo: Algo,
    deps: Deps,
    timeout: Duration,
    ics: Option<&Arc<ResolvedIcs>>,
    jobs: usize,
) -> Result<Run, String> {
    let constraints = || {
        ics.cloned()
            .ok_or_else(|| format!("{} needs constraints", algo.name()))
    };
    let mut algorithm = algo.spec.build(false, constraints)?;
    let make = || -> Box<dyn explorer::Algorithm> {
        (algo.spec.build(false, constraints)).expect("it was built once")
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
        let report = match jobs {
            1 => explorer::explore(program, algorithm.as_mut(), config),
            _ => explorer::parallel::explore(program, &make, config, jobs, None),
        };
        (report, started.elapsed().as_secs_f64())
    });
    let violation = report
        .violations
        .first()
        .map(|v| format!("{} (in `{}`)", v.message, v.block));
    let failed = (report.violations.iter())
        .any(|v| matches!(v.kind, ViolationKind::Assert | ViolationKind::Runtime));
    Ok(Run {
        stored: report.stats.stored,
        failed,
        traces: report.stats.traces,
        states: report.stats.states,
        seconds,
        stop: report.stop,
        violation,
        finals: report.finals,
        mem_mb,
    })
}
