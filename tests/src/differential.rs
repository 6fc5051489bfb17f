//! Differential soundness: on small random programs over the whole language, every
//! reduced algorithm in every mode must agree with `naive` (docs/language.md, "What each
//! tool promises"). `naive` is the reference semantics; a disagreement is a soundness
//! bug of the reduced algorithm (or of the constraints cdpor was given).
//!
//! The modes ([`modes`]): sdpor, odpor, odpor-ob, odpor-cs, odpor-cs-ob, ocdpor, csdpor
//! and cdpor, each with the default `--deps accesses` and `--deps static` (sdpor and
//! csdpor also with `--deps dynamic`), odpor-cs, odpor-cs-ob,
//! ocdpor, csdpor and cdpor also with `--literal`, odpor-ob and odpor-cs-ob also with
//! `--violations-only`: thirty-six runs per program. cdpor's constraints are synthesised
//! once per program (z3, [`ics`]) and shared by its four modes and ocdpor's four.
//!
//! Per program, with `all_violations`:
//! - (a) the same SET of final states as `naive` (identity-free fingerprints, as
//!   `final states` counts them; a disagreement shows each missing or extra state),
//!   but for the `--violations-only` modes, whose final states need not be all;
//! - (b) the same set of violations (kind, message, block, source span): assertion
//!   failures, runtime errors and deadlocks (a deadlock's message with process
//!   identities left out: which of two equal processes is stuck is not state);
//! - (c) `sdpor` explores exactly one complete execution per Mazurkiewicz trace:
//!   `sdpor.traces == naive.mazurkiewicz`, of the dependency its events carried
//!   (`Report::dependency`): transition footprints with `--deps dynamic` and
//!   `static`, naive's own count; what they touched with `--deps accesses`, counted
//!   by a second naive run with `--deps accesses`;
//! - (d) the context-sensitive algorithms explore no more: `traces <= sdpor.traces`,
//!   against sdpor with the same dependency;
//! - (e) the validator (`ic-synth --validate`) finds no counterexample to cdpor's
//!   synthesised constraints, on sampled states;
//! - (f) `odpor` is optimal: exactly one complete execution per Mazurkiewicz trace
//!   and no execution blocked in a sleep set, in both `--deps` modes, `await`s
//!   included; `ocdpor --literal` (no state checks) is optimal for its
//!   finer dependency: as many complete executions as naive counts traces of it
//!   ([`Naive::with_constraints`]: footprint conflicts minus cdpor's `R`), and none
//!   blocked in programs without `await` (with them, a reversal judged runnable on a
//!   memory that `R` leaves inexact may end at an `await` that cannot run, and the
//!   search after it blocked: `dpor::virtual_memory`), unless a wakeup sequence was
//!   inserted beside a sleeping process that commutes with it only by `R`
//!   (`wakeup_beside_commuting`: `wakeup_tree::sleeper_covers`); at most as many, and maybe some blocked,
//!   where two events that commute by `R` spawn processes
//!   (`Naive::identities_may_move`: the constraints compare spawns identities aside,
//!   naive's traces and the sleep sets name processes by identity);
//! - (g) `odpor-cs` explores no more complete executions than `odpor` with the same
//!   dependencies (ISSTA'19 Sec. 3.3: "ODPOR_cs never explores more traces than
//!   ODPOR"): its state checks only cut executions, and its shorter wakeup sequences
//!   must not cost any; `ocdpor`, with its state checks, no more than the traces of
//!   its finer dependency.
//! - (h) `odpor-ob` explores no more complete executions than `odpor` (with the same
//!   dependencies): observers only make more executions equivalent.
//! - (i) `odpor-cs-ob` explores no more complete executions than `odpor`. Not "no
//!   more than `odpor-ob`": an execution it blocks where a don't-do sequence reaches
//!   its state is analysed for races with its end observing every location, which
//!   may reverse write/write races a complete execution would have overwritten
//!   (`tests/regressions/odpor_cs_ob_against_odpor_ob_where_a_blocked_end_observes.ic`).
//! - (j) `sdpor`, `odpor` and `odpor-ob` reach the same SET of reads-from classes as
//!   `naive` ([`explorer::reads_from`]): which write every event read each location
//!   from. Each is complete for a dependency whose classes lie within reads-from
//!   classes, so missing one is missing a way the program can behave, even where no
//!   final state shows it: odpor-ob reached every final state of programs where it
//!   missed classes, and lost an assertion on one of the same shape
//!   (`tests/regressions/odpor_ob_a_covered_class_does_not_cover_its_neighbours.ic`).
//!
//! Used by the differential test on generated programs (`tests/tests/differential.rs`)
//! and by the regression runner on the programs of `tests/regressions/`
//! (`tests/tests/regressions.rs`).

use explorer::algorithms::naive::Naive;
use explorer::registry::{self, AlgorithmSpec};
use explorer::{Algorithm, Carried, Config, Deps, Report, Stop, ViolationKind};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

/// One reduced algorithm in one mode, as `ic-check` would run it.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    pub algo: &'static AlgorithmSpec,
    pub deps: Deps,
    /// `--literal` (where [`AlgorithmSpec::has_literal`]).
    pub literal: bool,
    /// `--violations-only` (where [`AlgorithmSpec::has_violations_only`]): compared
    /// with naive on violations and deadlocks only.
    pub violations_only: bool,
}

impl Mode {
    /// The `ic-check` options of this mode: `cdpor --deps static --literal`.
    pub fn name(&self) -> String {
        let mut name = self.algo.name.to_string();
        match self.deps {
            Deps::Static => name.push_str(" --deps static"),
            Deps::Dynamic => name.push_str(" --deps dynamic"),
            Deps::Accesses => {}
        }
        if self.literal {
            name.push_str(" --literal");
        }
        if self.violations_only {
            name.push_str(" --violations-only");
        }
        name
    }

    /// The algorithm; `ics` are cdpor's constraints.
    pub fn make(&self, ics: Option<&Arc<frontend::ics::ResolvedIcs>>) -> Box<dyn Algorithm> {
        let constraints = || ics.cloned().ok_or(self.algo.name);
        match self.algo.build(self.literal, constraints) {
            Ok(algorithm) => algorithm,
            Err(name) => panic!("{name} needs constraints"),
        }
    }
}

/// Every mode compared with `naive`: each reduced algorithm of the registry, in its
/// order (sdpor first, the baseline of (c) and (d); odpor before odpor-ob, odpor-cs
/// and odpor-cs-ob, the baseline of (g), (h) and (i)), with each option that changes
/// it, in each dependency mode.
pub fn modes() -> Vec<Mode> {
    let mut all = Vec::new();
    for deps in [Deps::Accesses, Deps::Dynamic, Deps::Static] {
        for &algo in registry::ALGORITHMS
            .iter()
            .filter(|&&a| a != &registry::NAIVE)
        {
            // `--deps dynamic` differs from the default only in the searches that judge
            // events by what they touched; `--deps static` checks every search's
            // recorded transition footprints against computed ones.
            let carries = algo
                .build(false, || Err(()))
                .is_ok_and(|a| a.carries() == Carried::Accesses);
            if deps == Deps::Dynamic && !carries {
                continue;
            }
            let mode = |literal, violations_only| Mode {
                algo,
                deps,
                literal,
                violations_only,
            };
            all.push(mode(false, false));
            if algo.has_literal {
                all.push(mode(true, false));
            }
            if algo.has_violations_only {
                all.push(mode(false, true));
            }
        }
    }
    all
}

/// The time budget of one pair of blocks when synthesising for a generated program. A
/// pair that runs out gets no constraint (it is dependent): sound, only less pruning.
pub const PAIR_TIMEOUT: Duration = Duration::from_millis(100);

/// The time budget of the synthesis of one generated program: the pairs left when it
/// is spent get no constraint (sound, as for a pair's timeout). Half the programs
/// synthesise within 35 ms; a few percent take seconds (arrays indexed by globals
/// compose into hundreds of cases, and composition is not bounded by the pair's
/// timeout), which made synthesis 97% of the test's time. A pair started within the
/// budget runs to its own timeout (plus its composition).
pub const SYNTHESIS_BUDGET: Duration = Duration::from_millis(300);

/// States the validator samples per constrained pair of each generated program.
const VALIDATION_SAMPLES: usize = 100;

/// Constraints synthesised for a generated program, pair by pair on this thread
/// (pairs of small blocks are cheaper than starting threads, and the test harness
/// already runs tests on every core), within [`SYNTHESIS_BUDGET`].
pub fn ics(program: &frontend::ir::Program, source: &str) -> Arc<frontend::ics::ResolvedIcs> {
    ics_within(program, source, SYNTHESIS_BUDGET, PAIR_TIMEOUT)
}

/// [`ics`] for a regression test that counts the traces of the finer dependency: its
/// program's few pairs synthesise in milliseconds, but on a loaded machine the
/// campaign's budget ran out and a constraint went missing, doubling the count
/// (`tests/regressions/ocdpor_leaves_out_a_write_r_moved_before_its_guard.ic`: 4 traces for
/// 2, with a differential campaign on the other core).
pub fn ics_unhurried(
    program: &frontend::ir::Program,
    source: &str,
) -> Arc<frontend::ics::ResolvedIcs> {
    ics_within(
        program,
        source,
        Duration::from_secs(60),
        Duration::from_secs(10),
    )
}

fn ics_within(
    program: &frontend::ir::Program,
    source: &str,
    budget: Duration,
    pair_timeout: Duration,
) -> Arc<frontend::ics::ResolvedIcs> {
    let started = std::time::Instant::now();
    let exec = frontend::symbolic::Exec::new(program, Some(source));
    let n = program.blocks.len() as frontend::ir::BlockId;
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a..n {
            let left = budget.saturating_sub(started.elapsed());
            pairs.push(if left.is_zero() {
                ic_synth::PairResult {
                    a,
                    b,
                    exact: false,
                    constraints: Vec::new(),
                    reason: Some("not synthesised: the differential test's budget is spent".into()),
                    solver_calls: 0,
                    timed_out: true,
                }
            } else {
                ic_synth::synthesize_pair(&exec, a, b, pair_timeout.min(left))
            });
        }
    }
    let synthesis = ic_synth::Synthesis {
        sets: program.sets.clone(),
        pairs,
        smt_ms: started.elapsed().as_millis() as u64,
    };
    let ics = ic_synth::to_ics(program, source, "generated.ic", &synthesis);
    Arc::new(
        ics.resolve(program)
            .expect("synthesised constraints fit their program"),
    )
}

/// Every exploration of the test: all violations; a step limit of 1,000 instructions
/// per block, so that a block spinning on a global (`while (x == 0) { }`) fails fast —
/// generated loops are bounded and far below it, so it changes nothing else; and a
/// generous safety timeout (a timeout is reported as a disagreement).
pub fn config() -> Config {
    Config {
        all_violations: true,
        limits: frontend::interp::Limits {
            max_steps: 1_000,
            ..Default::default()
        },
        timeout: Some(Duration::from_secs(60)),
        max_depth: Some(MAX_DEPTH),
        ..Config::default()
    }
}

/// `--max-depth` of every run: above the longest execution of a generated program,
/// and small, so that the ranges cdpor bounds counters with (`frontend::analysis::ranges`) are
/// tight enough for globals that start near `i64::MAX` to test them.
pub const MAX_DEPTH: usize = 100;

/// A violation as compared: kind, message, block, and the failing statement's span
/// (`naive` reports each distinct (kind, message, block, span) once).
pub type ViolationKey = (ViolationKind, String, String, Option<(usize, usize)>);

/// A deadlock's message names the stuck processes with their identities, in the
/// order of the state's processes (`q@1.1 at q, q@2.1 at q`); states are equal up
/// to identities (docs/language.md), so two equal processes swapped are the same
/// deadlock, whichever of them a search's state lists first: the processes without
/// identities, in order (`p at p#1, q at q`). Two searches that meet the one
/// state of `p@1 at p#1, q at q` and of `q at q, p@3 at p#1` (the processes created
/// first and last by `init`, either of which may be left at p#1) in different
/// executions report either.
fn deadlock_without_identities(message: &str) -> String {
    let mut plain = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '@' {
            while chars.next_if(|c| c.is_ascii_digit() || *c == '.').is_some() {}
        } else {
            plain.push(c);
        }
    }
    let Some(stuck) = plain
        .strip_prefix("deadlock: ")
        .and_then(|rest| rest.strip_suffix(" waiting"))
    else {
        return plain;
    };
    let mut processes: Vec<&str> = stuck.split(", ").collect();
    processes.sort_unstable();
    format!("deadlock: {} waiting", processes.join(", "))
}

/// (b) The violations of a report as compared: each distinct [`ViolationKey`], a
/// deadlock's without identities (its message's processes sorted, no block).
pub fn violation_set(report: &Report) -> BTreeSet<ViolationKey> {
    report
        .violations
        .iter()
        .map(|v| {
            // A deadlock's block is that of the first process its state lists: the
            // message has every stuck process's.
            let (message, block) = if v.kind == ViolationKind::Deadlock {
                (deadlock_without_identities(&v.message), String::new())
            } else {
                (v.message.clone(), v.block.clone())
            };
            (v.kind, message, block, v.span.map(|s| (s.start, s.end)))
        })
        .collect()
}

/// (a) The final states of `other` against naive's, as sets; on a difference, each
/// missing or extra state shown (by replaying the schedules of both explorations).
fn compare_final_states(
    program: &frontend::ir::Program,
    naive: &Report,
    other: &Report,
    rerun: &mut dyn FnMut() -> Report,
) -> Option<String> {
    if naive.finals == other.finals {
        // The same set; listed (`ic-check --finals`), it reads the same, and each
        // state's count of executions adds up to the traces.
        let shown =
            |r: &Report| -> BTreeSet<String> { r.outcomes.iter().map(|o| o.show()).collect() };
        let total = |r: &Report| -> u64 { r.outcomes.iter().map(|o| o.executions).sum() };
        if !naive.outcomes_capped() && !other.outcomes_capped() {
            if shown(naive) != shown(other) {
                return Some(format!(
                    "the same final states are listed differently: {:?} (naive: {:?})",
                    shown(other),
                    shown(naive)
                ));
            }
            if total(other) != other.stats.traces {
                return Some(format!(
                    "the listed final states count {} executions of {} traces",
                    total(other),
                    other.stats.traces
                ));
            }
        }
        return None;
    }
    let limits = config().limits;
    let (_, naive_shown) = crate::explore_shown(program, &mut Naive::default(), config());
    let other_shown = crate::final_states(program, limits, &rerun().schedules);
    let theirs: BTreeSet<_> = other.finals.iter().collect();
    let ours: BTreeSet<_> = naive.finals.iter().collect();
    let mut s = format!(
        "final states: {} (naive: {})",
        other.stats.final_states, naive.stats.final_states
    );
    for f in ours.difference(&theirs) {
        let shown = naive_shown.get(f).map_or("(not replayed)", |s| s.as_str());
        let _ = write!(s, "\n      missing: {shown}");
    }
    for f in theirs.difference(&ours) {
        let shown = other_shown.get(f).map_or("(not replayed)", |s| s.as_str());
        let _ = write!(s, "\n      not naive's: {shown}");
    }
    Some(s)
}

/// The results of every mode on one program.
pub struct Outcome {
    pub naive: Report,
    pub reduced: Vec<(String, Report)>,
}

/// A generated program, loaded; `Err` shows its text and the diagnostics (a
/// generator that writes a program the checker refuses is a bug of the test).
pub fn load_generated(source: &str) -> Result<frontend::ir::Program, String> {
    frontend::load(source, &[]).map_err(|d| {
        format!(
            "a generated program does not load:\n{source}\n{}",
            frontend::diagnostic::render("generated.ic", source, &d, false)
        )
    })
}

/// Runs `naive` and every mode on `source`; `Err` describes every disagreement, with
/// the program and the numbers.
pub fn differential(source: &str) -> Result<Outcome, String> {
    differential_with(source, &modes())
}

/// [`differential`] for the given modes.
pub fn differential_with(source: &str, modes: &[Mode]) -> Result<Outcome, String> {
    let program = load_generated(source)?;
    // The reference, whose Mazurkiewicz count is of transition footprints; the count
    // of what events touched is a second run below.
    let with_classes = Config {
        record_reads_from: true,
        deps: Deps::Dynamic,
        ..config()
    };
    let naive = explorer::explore(&program, &mut Naive::default(), with_classes);
    let mut errors: Vec<String> = Vec::new();
    if matches!(naive.stop, Stop::Timeout | Stop::MaxTraces) {
        errors.push(format!("naive did not complete ({:?})", naive.stop));
    }
    let naive_violations = violation_set(&naive);
    let ics = modes
        .iter()
        .any(|m| m.algo.uses_constraints)
        .then(|| ics(&program, source));
    // (e) Every synthesised constraint against execution (issue 16's validator): a
    // wrong constraint is caught at its source, before any exploration relies on it.
    if let Some(ics) = &ics {
        let options = ic_synth::validate::Options {
            samples: VALIDATION_SAMPLES,
            ..Default::default()
        };
        let v = ic_synth::validate::validate(&program, ics, &options);
        if let Some(c) = v.counterexample {
            errors.push(format!("ic-synth --validate: {c}"));
        }
    }
    // (f) The reference of ocdpor's optimality: naive's traces of the finer dependency.
    // `identities_may_move`: the count is then an upper bound (see there).
    let (constrained_mazurkiewicz, identities_may_move) = ics
        .as_ref()
        .filter(|_| modes.iter().any(|m| m.algo == &registry::OCDPOR))
        .map_or((None, false), |ics| {
            let mut naive = Naive::with_constraints(ics.clone());
            let count = explorer::explore(&program, &mut naive, config())
                .stats
                .mazurkiewicz;
            (count, naive.identities_may_move())
        });
    // The traces of what events touched, for the modes whose events carry it (the
    // default `--deps accesses`): naive's own count is of transition footprints.
    let accesses = modes
        .iter()
        .any(|m| m.deps == Deps::Accesses)
        .then(|| {
            let config = Config {
                deps: Deps::Accesses,
                ..config()
            };
            explorer::explore(&program, &mut Naive::default(), config)
                .stats
                .mazurkiewicz
        })
        .flatten();
    let mut outcome = Outcome {
        naive,
        reduced: Vec::new(),
    };
    let awaits = program.blocks.iter().any(|b| b.guard.is_some());
    let mut reports: Vec<(Mode, Report)> = Vec::new();
    for &mode in modes {
        // (j) The searches complete for a dependency finer than reads-from reach every
        // reads-from class naive reaches (the others may skip a class whose state is
        // reached otherwise).
        let every_class = [&registry::SDPOR, &registry::ODPOR, &registry::ODPOR_OB]
            .contains(&mode.algo)
            && !mode.violations_only;
        let config = Config {
            deps: mode.deps,
            record_reads_from: every_class,
            violations_only: mode.violations_only,
            ..config()
        };
        let report = explorer::explore(&program, &mut *mode.make(ics.as_ref()), config.clone());
        let naive = &outcome.naive;
        let name = mode.name();
        if report.stop != naive.stop {
            errors.push(format!(
                "{name}: stopped with {:?} (naive: {:?})",
                report.stop, naive.stop
            ));
        }
        let mut rerun = || {
            let config = Config {
                record_schedules: true,
                ..config.clone()
            };
            explorer::explore(&program, &mut *mode.make(ics.as_ref()), config)
        };
        let finals = report
            .finals_exhaustive
            .then(|| compare_final_states(&program, naive, &report, &mut rerun))
            .flatten();
        if let Some(e) = finals {
            errors.push(format!("{name}: {e}"));
        }
        if every_class && report.reads_from != naive.reads_from {
            let missed = naive
                .reads_from
                .iter()
                .filter(|c| report.reads_from.binary_search(c).is_err())
                .count();
            errors.push(format!(
                "{name}: misses {missed} of naive's {} reads-from classes",
                naive.reads_from.len()
            ));
        }
        let found = violation_set(&report);
        let missing: Vec<_> = naive_violations.difference(&found).collect();
        let extra: Vec<_> = found.difference(&naive_violations).collect();
        if !missing.is_empty() {
            errors.push(format!("{name}: misses violations {missing:?}"));
        }
        if !extra.is_empty() {
            errors.push(format!(
                "{name}: reports violations naive does not {extra:?}"
            ));
        }
        reports.push((mode, report));
    }
    // The counts, each against the run of the same dependency: naive's traces of what
    // events touched or of their transition footprints, sdpor's and odpor's with
    // events carrying the same footprints.
    let mazurkiewicz = |carried: Carried| match carried {
        Carried::Accesses => accesses,
        Carried::Transitions => outcome.naive.stats.mazurkiewicz,
    };
    let baseline = |algo: &AlgorithmSpec, carried: Carried| {
        reports
            .iter()
            .find(|(m, r)| {
                m.algo == algo && !m.literal && !m.violations_only && r.dependency == carried
            })
            .map(|(_, r)| r.stats.traces)
    };
    for (mode, report) in &reports {
        let name = mode.name();
        let carried = report.dependency;
        let naive_count = mazurkiewicz(carried);
        let sdpor_traces = baseline(&registry::SDPOR, carried);
        let odpor_traces = baseline(&registry::ODPOR, carried);
        if mode.algo == &registry::SDPOR {
            if Some(report.stats.traces) != naive_count {
                errors.push(format!(
                    "{name}: {} traces, but naive counts {naive_count:?} Mazurkiewicz traces",
                    report.stats.traces
                ));
            }
        } else if mode.algo == &registry::ODPOR_OB {
            // (h) Observers only make more executions equivalent: no more than odpor.
            if let Some(o) = odpor_traces.filter(|&o| report.stats.traces > o) {
                errors.push(format!(
                    "{name}: {} traces, more than odpor's {o}",
                    report.stats.traces
                ));
            }
        } else if mode.algo == &registry::ODPOR_CS_OB {
            // (i) No more than odpor.
            if let Some(o) = odpor_traces.filter(|&o| report.stats.traces > o) {
                errors.push(format!(
                    "{name}: {} traces, more than odpor's {o}",
                    report.stats.traces
                ));
            }
        } else if mode.algo == &registry::ODPOR {
            // (f) Optimality: one execution per Mazurkiewicz trace, none blocked.
            if Some(report.stats.traces) != naive_count || report.stats.blocked != 0 {
                errors.push(format!(
                    "{name}: {} traces and {} blocked, but naive counts {naive_count:?} \
                     Mazurkiewicz traces",
                    report.stats.traces, report.stats.blocked
                ));
            }
        } else if mode.algo == &registry::OCDPOR && !mode.literal {
            // (g) With its state checks, ocdpor explores no more than without them.
            if let Some(m) = constrained_mazurkiewicz.filter(|&m| report.stats.traces > m) {
                errors.push(format!(
                    "{name}: {} traces, more than the {m} traces of the dependency without R",
                    report.stats.traces
                ));
            }
        } else if mode.algo == &registry::OCDPOR {
            // (f) ocdpor --literal is optimal for its finer dependency: one complete
            // execution per trace of it, none blocked (without `await`s).
            let optimal = if identities_may_move {
                constrained_mazurkiewicz.is_some_and(|m| report.stats.traces <= m)
            } else {
                Some(report.stats.traces) == constrained_mazurkiewicz
            };
            let unblocked = awaits
                || identities_may_move
                || report.stats.pruning.wakeup_beside_commuting > 0
                || report.stats.blocked == 0;
            if !optimal || !unblocked {
                errors.push(format!(
                    "{name}: {} traces and {} blocked, but naive counts {:?} traces of \
                     the dependency without R",
                    report.stats.traces, report.stats.blocked, constrained_mazurkiewicz
                ));
            }
        } else if let Some(o) =
            odpor_traces.filter(|&o| mode.algo == &registry::ODPOR_CS && report.stats.traces > o)
        {
            // (g) odpor-cs explores no more than odpor.
            errors.push(format!(
                "{name}: {} traces, more than odpor's {o}",
                report.stats.traces
            ));
        } else if let Some(s) = sdpor_traces.filter(|&s| report.stats.traces > s) {
            // (d) The context-sensitive searches explore no more than sdpor.
            errors.push(format!(
                "{name}: {} traces, more than sdpor's {s}",
                report.stats.traces
            ));
        }
    }
    outcome.reduced = reports
        .into_iter()
        .map(|(mode, report)| (mode.name(), report))
        .collect();
    if errors.is_empty() {
        Ok(outcome)
    } else {
        Err(describe(source, &outcome, &errors))
    }
}

fn describe(source: &str, outcome: &Outcome, errors: &[String]) -> String {
    let mut s = String::from("reduced algorithms disagree with naive:\n");
    for e in errors {
        let _ = writeln!(s, "  - {e}");
    }
    let _ = writeln!(s, "program:\n{source}");
    let _ = writeln!(
        s,
        "{:<30} {:>7} {:>7} {:>7} {:>7} {:>12}",
        "algo", "traces", "blocked", "states", "finals", "mazurkiewicz"
    );
    let all = std::iter::once(("naive", &outcome.naive))
        .chain(outcome.reduced.iter().map(|(n, r)| (n.as_str(), r)));
    for (name, r) in all {
        let st = &r.stats;
        let _ = writeln!(
            s,
            "{name:<30} {:>7} {:>7} {:>7} {:>7} {:>12}",
            st.traces,
            st.blocked,
            st.states,
            st.final_states,
            st.mazurkiewicz.map_or("-".into(), |m| m.to_string())
        );
    }
    let _ = writeln!(s, "violations of naive:");
    for v in &outcome.naive.violations {
        let _ = writeln!(
            s,
            "  {:?} {:?} in {} after \"{}\"",
            v.kind, v.message, v.block, v.schedule
        );
    }
    s
}

/// Runs the comparison in every mode and panics with its description on a
/// disagreement.
pub fn assert_agree(source: &str) -> Outcome {
    differential(source).unwrap_or_else(|e| panic!("{e}"))
}

/// The explorations of the stateful searches: as [`config`], but with no bound on
/// an execution's depth (a stateful search's path is a simple path of the state
/// graph, which a cycle does not lengthen).
pub fn stateful_config() -> Config {
    Config {
        max_depth: None,
        ..config()
    }
}

/// Runs the stateful reference and every other stateful search of the registry on
/// `source` (a program whose state space may have cycles); `Err` describes every
/// disagreement: each must reach the reference's set of final states and of
/// violations, and stop as it does.
pub fn stateful_differential(source: &str) -> Result<(), String> {
    let program = load_generated(source)?;
    let reference = explorer::explore(
        &program,
        &mut explorer::algorithms::stateful::Stateful,
        stateful_config(),
    );
    let mut errors = Vec::new();
    if reference.stop != Stop::Complete {
        errors.push(format!("stateful did not complete ({:?})", reference.stop));
    }
    let violations = violation_set(&reference);
    for spec in registry::ALGORITHMS {
        let Ok(mut algorithm) = spec.build(false, || Err(())) else {
            continue;
        };
        if !algorithm.stores_states() || spec == &registry::STATEFUL {
            continue;
        }
        let report = explorer::explore(&program, algorithm.as_mut(), stateful_config());
        let name = spec.name;
        if report.stop != reference.stop {
            errors.push(format!(
                "{name}: stopped with {:?} (stateful: {:?})",
                report.stop, reference.stop
            ));
        }
        if report.finals != reference.finals {
            errors.push(format!(
                "{name}: {} final states (stateful: {})",
                report.finals.len(),
                reference.finals.len()
            ));
        }
        errors.extend(other_violations(name, &violations, &report));
    }
    // The reference on two threads sharing one store (`--jobs 2`): every state stored
    // and expanded once, so exactly its counts, final states and violations.
    let make =
        || -> Box<dyn explorer::Algorithm> { Box::new(explorer::algorithms::stateful::Stateful) };
    let two = explorer::parallel::explore(&program, &make, stateful_config(), 2, None);
    let counts = |r: &Report| (r.stop, r.stats.stored, r.stats.states, r.stats.traces);
    if counts(&two) != counts(&reference) || two.finals != reference.finals {
        errors.push(format!(
            "stateful --jobs 2: {:?} (stop, stored, states, traces) and {} final states; \
             one thread: {:?} and {}",
            counts(&two),
            two.finals.len(),
            counts(&reference),
            reference.finals.len()
        ));
    }
    errors.extend(other_violations("stateful --jobs 2", &violations, &two));
    // The reduced searches whose threads share one store (S-POR with the closed-set
    // proviso, DL-S-POR with its summaries: `explorer::algorithms::spor`,
    // `explorer::stateful::search`) on two threads, and every stateful search in 3
    // shards (`--partition K/3`, combined as `ic-check merge` does: each unit
    // explores what its state reaches, some states in several units, and the
    // frontier's states are run, not stored): the reference's final states and
    // violations.
    for spec in registry::ALGORITHMS {
        let make = || spec.build(false, || Err(())).expect("no constraints asked");
        let Ok(algorithm) = spec.build(false, || Err(())) else {
            continue;
        };
        if !algorithm.stores_states() {
            continue;
        }
        if spec != &registry::STATEFUL && algorithm.shares_stored_states(&stateful_config()) {
            let name = format!("{} --jobs 2", spec.name);
            let two = explorer::parallel::explore(&program, &make, stateful_config(), 2, None);
            errors.extend(other_outcomes(&name, &reference, &violations, &two));
        }
        if algorithm.explores_units(stateful_config().deps) {
            let shards = sharded(&program, &make, stateful_config(), PARALLEL_SHARDS);
            let name = format!("{} --partition K/3, merged", spec.name);
            errors.extend(other_outcomes(&name, &reference, &violations, &shards));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{source}", errors.join("\n")))
    }
}

/// How `report`, of the search `name`, differs from the stateful `reference` (whose
/// violations are `violations`) in its stop, final states and violations, if it does.
fn other_outcomes(
    name: &str,
    reference: &Report,
    violations: &BTreeSet<ViolationKey>,
    report: &Report,
) -> Vec<String> {
    let mut errors = Vec::new();
    if report.stop != reference.stop || report.finals != reference.finals {
        errors.push(format!(
            "{name}: stopped with {:?} and {} final states (stateful: {:?} and {})",
            report.stop,
            report.finals.len(),
            reference.stop,
            reference.finals.len()
        ));
    }
    errors.extend(other_violations(name, violations, report));
    errors
}

/// What `report` misses of the `expected` violations and reports beside them, if
/// anything, for the search `name`.
fn other_violations(
    name: &str,
    expected: &BTreeSet<ViolationKey>,
    report: &Report,
) -> Option<String> {
    let found = violation_set(report);
    (found != *expected).then(|| {
        let missing: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(expected).collect();
        format!("{name}: misses violations {missing:?}, reports others {extra:?}")
    })
}

/// Runs the stateful reference with `--livelocks` (every fair cycle) on `source`, and
/// checks each livelock's lasso on its own: the prefix and the cycle run, the cycle
/// returns to the state it starts from, and every process enabled in all the cycle's
/// states takes a step in it (weak fairness). `Err` says which does not hold.
pub fn livelocks_are_fair_cycles(source: &str) -> Result<(), String> {
    let program = frontend::load(source, &[]).map_err(|_| "does not load".to_string())?;
    let config = Config {
        livelocks: true,
        ..stateful_config()
    };
    let report = explorer::explore(
        &program,
        &mut explorer::algorithms::stateful::Stateful,
        config.clone(),
    );
    let lassos = report
        .violations
        .iter()
        .filter(|v| v.kind == ViolationKind::Livelock);
    for v in lassos {
        let fail = |why: String| Err(format!("{why}: {}\n{source}", v.schedule));
        let (steps, Some(from)) = explorer::schedule::parse_lasso(&v.schedule)? else {
            return fail("a livelock's schedule is no lasso".into());
        };
        let mut ex = explorer::executor::Executor::new(&program, config.limits)
            .map_err(|f| format!("init fails: {f}"))?;
        let mut start = None;
        // The processes enabled in every state of the cycle, and those that step.
        let mut always: Option<Vec<_>> = None;
        let mut stepping = Vec::new();
        let mut enabled = Vec::new();
        for (n, step) in steps.iter().enumerate() {
            if n == from {
                start = Some(ex.state.fingerprint_with_identities());
            }
            let i = explorer::schedule::resolve(&program, &ex.state, step)?;
            ex.enabled(&mut enabled);
            if !enabled.contains(&i) {
                return fail(format!("step {} is not enabled", n + 1));
            }
            if n >= from {
                let keys: Vec<_> = enabled.iter().map(|&p| ex.state.procs[p].pid_key).collect();
                match &mut always {
                    Some(a) => a.retain(|k| keys.contains(k)),
                    None => always = Some(keys),
                }
                stepping.push(ex.state.procs[i].pid_key);
            }
            if ex.step(i).is_err() {
                return fail(format!("step {} fails", n + 1));
            }
        }
        if start != Some(ex.state.fingerprint_with_identities()) {
            return fail("the cycle does not return to its first state".into());
        }
        let unfair = always
            .unwrap_or_default()
            .into_iter()
            .find(|k| !stepping.contains(k));
        if unfair.is_some() {
            return fail("a process enabled throughout the cycle takes no step in it".into());
        }
    }
    Ok(())
}

/// The shards [`parallel_differential`] splits each search into (`--partition K/3`).
pub const PARALLEL_SHARDS: usize = 3;

/// Every shard of the search of `make`, over a frontier of [`PARALLEL_UNITS`] units,
/// explored in turn and combined, as `ic-check merge` combines shard files.
fn sharded(
    program: &frontend::ir::Program,
    make: &(dyn Fn() -> Box<dyn explorer::Algorithm> + Sync),
    config: Config,
    n: usize,
) -> Report {
    let split = explorer::parallel::Split {
        jobs: 1,
        units: PARALLEL_UNITS,
        top: explorer::parallel::shared_top::TopSplit::default(),
    };
    let reports = (1..=n)
        .map(|k| {
            let shard = explorer::parallel::partition::Shard { k, n };
            explorer::parallel::partition::explore_shard(
                program,
                make,
                config.clone(),
                split,
                shard,
                None,
            )
            .expect("only searches that split are sharded")
        })
        .collect();
    explorer::parallel::partition::combine(reports, config.max_outcomes)
}

/// The units of [`parallel_differential`]'s frontier: few, so that on a generated
/// program (tens of events) the frontier is shallow and the units do the exploring.
pub const PARALLEL_UNITS: usize = 3;

/// The top that sdpor's, csdpor's, cdpor's and odpor's threads share in
/// [`parallel_differential`], by program (the parity of its text's length, so that
/// a seed replays): one event deep and given to eagerly, so that jobs explore below
/// it, ask races of it (odpor: forward sequences into branches started) and give it
/// their nodes, or two deep and given to only when a thread waits, so that branches
/// wait for their running siblings.
pub fn parallel_top(source: &str) -> explorer::parallel::shared_top::TopSplit {
    let (depth, eager) = match source.len() % 2 {
        0 => (1, true),
        _ => (2, false),
    };
    explorer::parallel::shared_top::TopSplit { depth, eager }
}

/// Every stateless search (in the default dependency and `--deps dynamic`, with
/// `--violations-only` where it has it) in 3 shards (`--partition K/3`, merged), and
/// on two threads where `--jobs` spreads it (`ic-check --jobs 2`,
/// [`explorer::parallel::spreads`]: sdpor, csdpor, cdpor, odpor, odpor-cs and
/// ocdpor sharing their top), against naive: the sets of
/// final states, violations and deadlocks, as [`differential`] compares them,
/// sdpor's, odpor's and odpor-ob's sets of reads-from classes (j), and sdpor's and
/// odpor's complete executions with naive's count of
/// Mazurkiewicz traces of their dependency: the frontier's sleep sets and the units'
/// searches each explore a trace at most once, and together every trace. And naive
/// itself on two threads against one: the same counts, traces and findings.
pub fn parallel_differential(source: &str) -> Result<(), String> {
    let program = frontend::load(source, &[]).map_err(|_| "does not load".to_string())?;
    let naive_config = Config {
        deps: Deps::Dynamic,
        record_reads_from: true,
        ..config()
    };
    let naive = explorer::explore(&program, &mut Naive::default(), naive_config);
    if naive.stop != Stop::Complete {
        return Err(format!(
            "naive did not complete ({:?})\n{source}",
            naive.stop
        ));
    }
    let accesses = explorer::explore(&program, &mut Naive::default(), config());
    let violations = violation_set(&naive);
    // The stateless searches that split: the stateful reference, whose threads share
    // one store rather than units, is checked on both in `stateful_differential`.
    let splits = |m: &Mode| {
        let constraints = || Ok::<_, ()>(Arc::new(frontend::ics::ResolvedIcs::default()));
        (m.algo.build(m.literal, constraints))
            .is_ok_and(|a| a.explores_units(m.deps) && !a.stores_states())
    };
    let modes: Vec<Mode> = modes()
        .into_iter()
        .filter(|m| m.deps != Deps::Static && splits(m))
        .collect();
    let ics = modes
        .iter()
        .any(|m| m.algo.uses_constraints)
        .then(|| ics(&program, source));
    let split = explorer::parallel::Split {
        jobs: 2,
        units: PARALLEL_UNITS,
        top: parallel_top(source),
    };
    let mut errors = Vec::new();
    for mode in &modes {
        let make = || mode.make(ics.as_ref());
        // (j), on threads and in shards.
        let every_class = [&registry::SDPOR, &registry::ODPOR, &registry::ODPOR_OB]
            .contains(&mode.algo)
            && !mode.violations_only;
        let config = Config {
            deps: mode.deps,
            record_reads_from: every_class,
            violations_only: mode.violations_only,
            ..config()
        };
        let threads =
            |c: Config| explorer::parallel::explore_split(&program, &make, c, split, None);
        let shards = |c: Config| sharded(&program, &make, c, PARALLEL_SHARDS);
        let mut runs: Vec<(&str, &dyn Fn(Config) -> Report)> = Vec::new();
        if explorer::parallel::spreads(&*make(), &config) {
            runs.push(("--jobs 2", &threads));
        }
        runs.push(("--partition K/3, merged", &shards));
        let mut counts = Vec::new();
        for (how, run) in runs {
            let report = run(config.clone());
            let name = format!("{} {how}", mode.name());
            if report.stop != Stop::Complete {
                errors.push(format!("{name}: stopped with {:?}", report.stop));
            }
            if !mode.violations_only {
                let mut rerun = || {
                    run(Config {
                        record_schedules: true,
                        ..config.clone()
                    })
                };
                if let Some(e) = compare_final_states(&program, &naive, &report, &mut rerun) {
                    errors.push(format!("{name}: {e}"));
                }
            }
            errors.extend(other_violations(&name, &violations, &report));
            if every_class && report.reads_from != naive.reads_from {
                let missed = (naive.reads_from.iter())
                    .filter(|c| report.reads_from.binary_search(c).is_err())
                    .count();
                errors.push(format!(
                    "{name}: misses {missed} of naive's {} reads-from classes",
                    naive.reads_from.len()
                ));
            }
            if [&registry::SDPOR, &registry::ODPOR].contains(&mode.algo) {
                let traces = match report.dependency {
                    Carried::Accesses => accesses.stats.mazurkiewicz,
                    Carried::Transitions => naive.stats.mazurkiewicz,
                };
                if Some(report.stats.traces) != traces {
                    errors.push(format!(
                        "{name}: {} traces, but naive counts {traces:?} Mazurkiewicz traces",
                        report.stats.traces
                    ));
                }
            }
            let s = &report.stats;
            counts.push((s.traces, s.blocked, s.states, report.finals));
        }
        // The shards explore the units of the same frontier that the threads share
        // out: the same counts. sdpor's and odpor's threads share the top of their
        // tree instead, and explore the same complete executions (one per
        // Mazurkiewicz trace, checked above); csdpor's and cdpor's share it too, and
        // what their state checks prune depends on what each part explored first.
        if make().shares_top().is_some() {
            if [&registry::SDPOR, &registry::ODPOR].contains(&mode.algo) {
                for c in &mut counts {
                    (c.1, c.2) = (0, 0);
                }
            } else {
                counts.clear();
            }
        }
        if counts.len() == 2 && counts[0] != counts[1] {
            errors.push(format!(
                "{}: the shards merged explored {:?} (traces, blocked, states), the threads {:?}",
                mode.name(),
                (counts[1].0, counts[1].1, counts[1].2),
                (counts[0].0, counts[0].1, counts[0].2)
            ));
        }
    }
    // naive on two threads: every interleaving once, its counts, Mazurkiewicz traces,
    // final states and violations one thread's exactly.
    let naive_threads = explorer::parallel::explore_split(
        &program,
        &|| Box::new(Naive::default()),
        config(),
        split,
        None,
    );
    let (one, two) = (&accesses, &naive_threads);
    let counts = |r: &Report| {
        let s = &r.stats;
        (s.traces, s.blocked, s.states, s.mazurkiewicz, r.stop)
    };
    if counts(one) != counts(two)
        || one.finals != two.finals
        || one.mazurkiewicz_traces != two.mazurkiewicz_traces
        || violation_set(one) != violation_set(two)
    {
        errors.push(format!(
            "naive --jobs 2: {:?} (traces, blocked, states, Mazurkiewicz, stop), one thread {:?}, or other final states, traces or violations",
            counts(two),
            counts(one)
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{source}", errors.join("\n")))
    }
}
