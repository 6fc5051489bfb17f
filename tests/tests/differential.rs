//! Differential soundness: on small random programs over the whole language, every
//! reduced algorithm in every mode must agree with `naive` (LANGUAGE.md, "What each
//! tool promises"). `naive` is the reference semantics; a disagreement is a soundness
//! bug of the reduced algorithm (or of the constraints cdpor was given).
//!
//! The modes ([`modes`]): sdpor, odpor, odpor-ob, odpor-cs, odpor-cs-ob, ocdpor, csdpor
//! and cdpor, each with `--deps dynamic` and `--deps static`, odpor-cs, odpor-cs-ob,
//! ocdpor, csdpor and cdpor also with `--literal`, odpor-ob and odpor-cs-ob also with
//! `--violations-only`: thirty runs per program. cdpor's constraints are synthesised
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
//!   `sdpor.traces == naive.mazurkiewicz`, in both `--deps` modes (both give every
//!   event its transition footprint, with which naive counts);
//! - (d) the context-sensitive algorithms explore no more: `traces <= sdpor.traces`,
//!   against sdpor with the same dependencies;
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
//!   (`regressions::odpor_cs_ob_against_odpor_ob_where_a_blocked_end_observes`).
//! - (j) `sdpor`, `odpor` and `odpor-ob` reach the same SET of reads-from classes as
//!   `naive` ([`explorer::reads_from`]): which write every event read each location
//!   from. Each is complete for a dependency whose classes lie within reads-from
//!   classes, so missing one is missing a way the program can behave, even where no
//!   final state shows it: odpor-ob reached every final state of programs where it
//!   missed classes, and lost an assertion on one of the same shape
//!   (`regressions::odpor_ob_a_covered_class_does_not_cover_its_neighbours`).
//!
//! Programs come from [`tests::generator`] (an AST-like value that proptest shrinks,
//! printed to source); every one must load. The generator is steered towards the
//! shapes that broke a reduced algorithm before (`generator_produces_every_shape`
//! checks that each one is produced): loops around guarded writes, await-only and
//! deadlocking processes, the same proc spawned twice, equal-value writes, blocks that
//! spin on a global, arithmetic near `i64::MAX`/`i64::MIN`, arrays of lists.
//!
//! Environment:
//! - `IC_DIFF_SEED`: unset or `random`, a seed derived from the clock — every run
//!   explores new programs, so CI keeps searching; a number (decimal or `0x…` hex) to
//!   replay a run. The seed is written to stderr at the start of the run (also when
//!   the test passes) and is part of every failure message.
//! - `IC_DIFF_CASES`: programs per run (default 1000, every mode including cdpor). A
//!   long campaign: `IC_DIFF_CASES=20000 cargo test --release -p tests --test
//!   differential every_algorithm`.
//! - `IC_DIFF_TREE_CASES`: programs whose execution trees are checked against the
//!   counters (default 200; naive and every mode that needs no constraints).
//!
//! A failure prints the seed, the shrunk program, every disagreeing algorithm and mode,
//! and the final states or violations it misses or adds. Failing cases are persisted in
//! `tests/tests/regressions/differential.txt` and replayed first; shrunk programs are
//! kept as plain tests in `regressions/`.

mod mutants;
mod regressions;
mod small_scope;

use explorer::algorithms::naive::Naive;
use explorer::registry::{self, AlgorithmSpec};
use explorer::{Algorithm, Config, Deps, Report, Stop, Tree, TreeConfig, ViolationKind};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tests::generator::*;

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
        if self.deps == Deps::Static {
            name.push_str(" --deps static");
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
    for deps in [Deps::Dynamic, Deps::Static] {
        for &algo in registry::ALGORITHMS
            .iter()
            .filter(|&&a| a != &registry::NAIVE)
        {
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
/// (`regressions::ocdpor_leaves_out_a_write_r_moved_before_its_guard`: 4 traces for
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
/// and small, so that the ranges cdpor bounds counters with (`frontend::ranges`) are
/// tight enough for globals that start near `i64::MAX` to test them.
pub const MAX_DEPTH: usize = 100;

/// A violation as compared: kind, message, block, and the failing statement's span
/// (`naive` reports each distinct (kind, message, block, span) once).
type ViolationKey = (ViolationKind, String, String, Option<(usize, usize)>);

/// A deadlock's message names the stuck processes with their identities
/// (`q@1.1 at q, q@2.1 at q`); states are equal up to identities (LANGUAGE.md), so two
/// equal processes swapped are the same deadlock: `q at q, q at q`.
fn without_identities(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '@' {
            while chars.next_if(|c| c.is_ascii_digit() || *c == '.').is_some() {}
        } else {
            out.push(c);
        }
    }
    out
}

fn violation_set(report: &Report) -> BTreeSet<ViolationKey> {
    report
        .violations
        .iter()
        .map(|v| {
            let message = if v.kind == ViolationKind::Deadlock {
                without_identities(&v.message)
            } else {
                v.message.clone()
            };
            (
                v.kind,
                message,
                v.block.clone(),
                v.span.map(|s| (s.start, s.end)),
            )
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
    let (_, naive_shown) = tests::explore_shown(program, &mut Naive::default(), config());
    let other_shown = tests::final_states(program, limits, &rerun().schedules);
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

/// Runs `naive` and every mode on `source`; `Err` describes every disagreement, with
/// the program and the numbers.
pub fn differential(source: &str) -> Result<Outcome, String> {
    differential_with(source, &modes())
}

/// [`differential`] for the given modes.
pub fn differential_with(source: &str, modes: &[Mode]) -> Result<Outcome, String> {
    let program = frontend::load(source, &[]).map_err(|d| {
        format!(
            "a generated program does not load:\n{source}\n{}",
            frontend::diagnostic::render("generated.ic", source, &d, false)
        )
    })?;
    let with_classes = Config {
        record_reads_from: true,
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
    let mut outcome = Outcome {
        naive,
        reduced: Vec::new(),
    };
    let mut sdpor_traces = None;
    let mut odpor_traces = None;
    let awaits = program.blocks.iter().any(|b| b.guard.is_some());
    for mode in modes {
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
        if mode.algo == &registry::SDPOR {
            sdpor_traces = Some(report.stats.traces);
            if Some(report.stats.traces) != naive.stats.mazurkiewicz {
                errors.push(format!(
                    "sdpor: {} traces, but naive counts {:?} Mazurkiewicz traces",
                    report.stats.traces, naive.stats.mazurkiewicz
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
            odpor_traces = Some(report.stats.traces);
            // (f) Optimality: one execution per Mazurkiewicz trace, none blocked.
            if Some(report.stats.traces) != naive.stats.mazurkiewicz || report.stats.blocked != 0 {
                errors.push(format!(
                    "{name}: {} traces and {} blocked, but naive counts {:?} Mazurkiewicz traces",
                    report.stats.traces, report.stats.blocked, naive.stats.mazurkiewicz
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
            errors.push(format!(
                "{name}: {} traces, more than sdpor's {s}",
                report.stats.traces
            ));
        }
        outcome.reduced.push((name, report));
    }
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

// ---------------------------------------------------------------------------
// Strategies (here rather than in `tests::generator`: proptest is a dev-dependency).

mod strategy {
    use super::*;
    use proptest::collection::vec;
    use proptest::strategy::Union;

    fn small() -> impl Strategy<Value = i64> + Clone {
        -2i64..=2
    }

    fn var() -> impl Strategy<Value = u8> + Clone {
        0u8..8
    }

    fn arith() -> impl Strategy<Value = Arith> {
        prop_oneof![
            3 => Just(Arith::Add),
            2 => Just(Arith::Sub),
            1 => Just(Arith::Mul),
            1 => Just(Arith::Div),
            1 => Just(Arith::Mod),
        ]
    }

    fn cmp() -> impl Strategy<Value = Cmp> {
        prop_oneof![
            Just(Cmp::Eq),
            Just(Cmp::Ne),
            Just(Cmp::Lt),
            Just(Cmp::Le),
            Just(Cmp::Gt),
            Just(Cmp::Ge),
        ]
    }

    fn int_leaf() -> BoxedStrategy<IntExpr> {
        prop_oneof![
            4 => small().prop_map(IntExpr::Const),
            8 => var().prop_map(IntExpr::Var),
            1 => Just(IntExpr::Param),
            1 => Just(IntExpr::LoopVar),
        ]
        .boxed()
    }

    /// An index into an array of `len` elements (`a`: 3, `c`: 2): mostly in range (a
    /// constant, or `abs(e) % len`).
    fn index(len: i64, depth: u32) -> BoxedStrategy<IntExpr> {
        prop_oneof![
            4 => (0..len).prop_map(IntExpr::Const),
            3 => int_expr(depth).prop_map(move |e| IntExpr::Bin(
                Arith::Mod,
                Box::new(IntExpr::Abs(Box::new(e))),
                Box::new(IntExpr::Const(len))
            )),
            1 => int_expr(depth),
        ]
        .boxed()
    }

    pub fn int_expr(depth: u32) -> BoxedStrategy<IntExpr> {
        if depth == 0 {
            return int_leaf();
        }
        let sub = int_expr(depth - 1);
        prop_oneof![
            10 => int_leaf(),
            1 => Just(IntExpr::Len),
            1 => Just(IntExpr::Head),
            1 => (index(2, depth - 1), any::<bool>())
                .prop_map(|(i, h)| IntExpr::Cell(Box::new(i), h)),
            1 => (index(3, depth - 1), proptest::bool::weighted(0.8))
                .prop_map(|(i, g)| IntExpr::ListAt(Box::new(i), g)),
            3 => index(3, depth - 1).prop_map(|i| IntExpr::Array(Box::new(i))),
            1 => sub.clone().prop_map(|k| IntExpr::Map(Box::new(k))),
            5 => (arith(), sub.clone(), sub.clone())
                .prop_map(|(op, a, b)| IntExpr::Bin(op, Box::new(a), Box::new(b))),
            1 => (any::<bool>(), sub.clone(), sub.clone())
                .prop_map(|(m, a, b)| IntExpr::MinMax(m, Box::new(a), Box::new(b))),
            1 => sub.clone().prop_map(|a| IntExpr::Abs(Box::new(a))),
            1 => sub.clone().prop_map(|a| IntExpr::Neg(Box::new(a))),
            1 => (sub.clone(), sub.clone())
                .prop_map(|(a, b)| IntExpr::Call(Box::new(a), Box::new(b))),
            1 => (bool_expr(depth - 1), sub.clone(), sub)
                .prop_map(|(c, a, b)| IntExpr::Cond(Box::new(c), Box::new(a), Box::new(b))),
        ]
        .boxed()
    }

    pub fn bool_expr(depth: u32) -> BoxedStrategy<BoolExpr> {
        let leaf = prop_oneof![
            3 => (cmp(), var(), int_leaf())
                .prop_map(|(op, v, b)| BoolExpr::Cmp(op, IntExpr::Var(v), b)),
            3 => (cmp(), int_expr(depth.min(1)), int_leaf())
                .prop_map(|(op, a, b)| BoolExpr::Cmp(op, a, b)),
            1 => any::<bool>().prop_map(BoolExpr::Lit),
            1 => Just(BoolExpr::Flag),
            1 => int_leaf().prop_map(BoolExpr::Has),
        ]
        .boxed();
        if depth == 0 {
            return leaf;
        }
        let sub = bool_expr(depth - 1);
        prop_oneof![
            8 => leaf,
            1 => sub.clone().prop_map(|a| BoolExpr::Not(Box::new(a))),
            1 => (sub.clone(), sub.clone())
                .prop_map(|(a, b)| BoolExpr::And(Box::new(a), Box::new(b))),
            1 => (sub.clone(), sub).prop_map(|(a, b)| BoolExpr::Or(Box::new(a), Box::new(b))),
        ]
        .boxed()
    }

    /// An assertion's condition: mostly one that holds in most states (`!=`, `<=`, `>=`
    /// against a leaf), sometimes any condition.
    fn assertion() -> BoxedStrategy<BoolExpr> {
        let weak = prop_oneof![Just(Cmp::Ne), Just(Cmp::Le), Just(Cmp::Ge)];
        prop_oneof![
            3 => (weak, var(), int_leaf())
                .prop_map(|(op, v, b)| BoolExpr::Cmp(op, IntExpr::Var(v), b)),
            1 => bool_expr(1),
        ]
        .boxed()
    }

    fn bound() -> impl Strategy<Value = Bound> {
        prop_oneof![
            3 => (1u8..=2).prop_map(Bound::Const),
            1 => (var(), 1u8..=2).prop_map(|(v, n)| Bound::Min(v, n)),
        ]
    }

    /// A statement at nesting `depth` (0: no more nesting), inside a loop or not, at the
    /// top level of a proc body or not. Simplest alternatives first (they shrink there).
    pub fn stmt(depth: u32, in_loop: bool, top: bool) -> BoxedStrategy<Stmt> {
        let e = || int_expr(1);
        let c = || bool_expr(1);
        let mut options: Vec<(u32, BoxedStrategy<Stmt>)> = vec![
            (
                8,
                (var(), e()).prop_map(|(v, e)| Stmt::Assign(v, e)).boxed(),
            ),
            (4, Just(Stmt::Yield).boxed()),
            (2, c().prop_map(Stmt::Await).boxed()),
            (
                1,
                (assertion(), any::<bool>())
                    .prop_map(|(c, m)| Stmt::Assert(c, m))
                    .boxed(),
            ),
            (
                2,
                (index(3, 1), e())
                    .prop_map(|(i, e)| Stmt::ArrayWrite(i, e))
                    .boxed(),
            ),
            (
                1,
                (int_leaf(), e())
                    .prop_map(|(k, e)| Stmt::MapWrite(k, e))
                    .boxed(),
            ),
            (2, e().prop_map(Stmt::Append).boxed()),
            (1, any::<bool>().prop_map(Stmt::Tail).boxed()),
            (
                1,
                (index(2, 1), e())
                    .prop_map(|(i, e)| Stmt::CellAppend(i, e))
                    .boxed(),
            ),
            (1, index(2, 1).prop_map(Stmt::CellTail).boxed()),
            (
                1,
                (index(3, 1), e(), proptest::bool::weighted(0.8))
                    .prop_map(|(i, e, g)| Stmt::ListSet(i, e, g))
                    .boxed(),
            ),
            (
                1,
                (
                    prop_oneof![Just(ListOp::Take), Just(ListOp::Drop), Just(ListOp::Concat)],
                    e(),
                )
                    .prop_map(|(op, e)| Stmt::ListOp(op, e))
                    .boxed(),
            ),
            (1, c().prop_map(Stmt::SetFlag).boxed()),
            (1, c().prop_map(Stmt::Return).boxed()),
            (
                1,
                (0u8..4, e()).prop_map(|(p, e)| Stmt::Spawn(p, e)).boxed(),
            ),
        ];
        if top {
            options.push((4, e().prop_map(Stmt::Local).boxed()));
        }
        if in_loop {
            options.push((1, c().prop_map(Stmt::Break).boxed()));
            options.push((1, c().prop_map(Stmt::Continue).boxed()));
        }
        if depth > 0 {
            let then = vec(stmt(depth - 1, in_loop, false), 1..=3);
            let otherwise = vec(stmt(depth - 1, in_loop, false), 0..=2);
            options.push((
                4,
                (c(), then, otherwise)
                    .prop_map(|(c, a, b)| Stmt::If(c, a, b))
                    .boxed(),
            ));
            let body = || vec(stmt(depth - 1, true, false), 1..=3);
            options.push((
                2,
                (bound(), body()).prop_map(|(b, s)| Stmt::For(b, s)).boxed(),
            ));
            options.push((
                1,
                (proptest::option::weighted(0.5, c()), 1u8..=2, body())
                    .prop_map(|(c, n, s)| Stmt::While(c, n, s))
                    .boxed(),
            ));
        }
        Union::new_weighted(options).boxed()
    }

    /// `x`, `y` or `z` (the first three variables are the globals in every scope).
    fn global() -> impl Strategy<Value = u8> + Clone {
        0u8..3
    }

    /// `g op c` over a global: the guards of the shapes.
    fn global_cond(
        ops: Vec<Cmp>,
        constants: std::ops::RangeInclusive<i64>,
    ) -> BoxedStrategy<BoolExpr> {
        (proptest::sample::select(ops), global(), constants)
            .prop_map(|(op, g, c)| BoolExpr::Cmp(op, IntExpr::Var(g), IntExpr::Const(c)))
            .boxed()
    }

    /// A comparison of the shapes that test a value: often true of several values.
    fn test_cmp() -> impl Strategy<Value = Cmp> {
        prop_oneof![Just(Cmp::Eq), Just(Cmp::Ne), Just(Cmp::Gt)]
    }

    fn var_of(g: u8) -> Box<IntExpr> {
        Box::new(IntExpr::Var(g))
    }

    /// The statements that showed soundness bugs before (issues 11 and 16), as short
    /// idioms that [`proc_`] puts in front of (or after) a few random statements.
    pub fn shape() -> BoxedStrategy<Vec<Stmt>> {
        let value = || prop_oneof![2 => (0i64..=2).prop_map(IntExpr::Const), 1 => global().prop_map(IntExpr::Var)];
        prop_oneof![
            // `for i in 0..2 { if (i > 5) { x = 0; } }`, or the same with a `while`
            // counter: a loop whose guarded write happens in some iterations, or never.
            3 => (2u8..=3, any::<bool>(), prop_oneof![Just(0i64), Just(1), Just(5)], global(), value())
                .prop_map(|(n, for_, limit, g, v)| {
                    let body = vec![Stmt::If(
                        BoolExpr::Cmp(Cmp::Gt, IntExpr::LoopVar, IntExpr::Const(limit)),
                        vec![Stmt::Assign(g, v)],
                        vec![],
                    )];
                    vec![if for_ {
                        Stmt::For(Bound::Const(n), body)
                    } else {
                        Stmt::While(None, n, body)
                    }]
                }),
            // `if (y == 0) { x = 1; }`
            2 => (global_cond(vec![Cmp::Eq, Cmp::Ne], 0..=1), global(), 0i64..=1)
                .prop_map(|(c, g, v)| vec![Stmt::If(c, vec![Stmt::Assign(g, IntExpr::Const(v))], vec![])]),
            // `y = y + 1`
            2 => global().prop_map(|g| vec![Stmt::Assign(g, IntExpr::Bin(Arith::Add, var_of(g), Box::new(IntExpr::Const(1))))]),
            // `x = 1`: equal values written by several processes (mostly that very
            // write, so that two procs often share it).
            3 => prop_oneof![2 => Just((0u8, 1i64)), 1 => (global(), 0i64..=1)]
                .prop_map(|(g, v)| vec![Stmt::Assign(g, IntExpr::Const(v))]),
            // `y = x`
            1 => (global(), global()).prop_map(|(g, h)| vec![Stmt::Assign(g, IntExpr::Var(h))]),
            // `x = 1; yield; x = 2;`, maybe then `yield; x = 1;`, maybe then
            // `assert(x != 2);`: a write its own process overwrites in a later step,
            // read or not by the assertion — for odpor-ob, whether two writes of x
            // race depends on what reads x after them (abs's and lastwrite's
            // writers); with the third write, a window where a guard on x holds and
            // closes and opens again
            // (`regressions::sdpor_climbs_past_a_short_circuit_guard`).
            2 => (global(), 0i64..=2, 0i64..=2, proptest::option::weighted(0.3, 0i64..=2), any::<bool>()).prop_map(|(g, a, b, c, check)| {
                let mut s = vec![
                    Stmt::Assign(g, IntExpr::Const(a)),
                    Stmt::Yield,
                    Stmt::Assign(g, IntExpr::Const(b)),
                ];
                if let Some(c) = c {
                    s.extend([Stmt::Yield, Stmt::Assign(g, IntExpr::Const(c))]);
                }
                if check {
                    s.push(Stmt::Assert(BoolExpr::Cmp(Cmp::Ne, IntExpr::Var(g), IntExpr::Const(2)), true));
                }
                s
            }),
            // `int t0 = x; yield; spawn q(0); yield; if (t0 == 1) { y = z; }`: a value
            // read into a local and branched on in a later block of the same process,
            // maybe with a spawn between (whose process may overwrite what was read).
            // After a reversal, such a process's later events are other transitions
            // (`regressions::odpor_cs_ob_observers_after_a_reversed_race_are_other_events`).
            // The comparison is often true (or false) of several values: the read has
            // the same effect after either of two writes (Sec. 4.1's check).
            2 => (global(), any::<bool>(), test_cmp(), 0i64..=2, global(), global()).prop_map(|(g, spawn, op, v, h, k)| {
                let mut s = vec![Stmt::Local(IntExpr::Var(g)), Stmt::Yield];
                if spawn {
                    s.extend([Stmt::Spawn(0, IntExpr::Const(0)), Stmt::Yield]);
                }
                let test = BoolExpr::Cmp(op, IntExpr::Recent, IntExpr::Const(v));
                s.push(Stmt::If(test, vec![Stmt::Assign(h, IntExpr::Var(k))], vec![]));
                s
            }),
            // `assert(x != 2); spawn r(0);`: an observer with the same effect for most
            // values, maybe spawning a process that overwrites what it read, after
            // a write of its own (`int t = x; x = 1;` before it makes the chain
            // reader → observer → overwriter of
            // `regressions::odpor_cs_ob_observers_after_a_reversed_race_are_other_events`).
            2 => (global(), 0i64..=3, any::<bool>(), any::<bool>(), global()).prop_map(|(g, c, spawn, write, h)| {
                let mut s = Vec::new();
                if write {
                    s.extend([Stmt::Assign(h, IntExpr::Const(1)), Stmt::Yield]);
                }
                s.push(Stmt::Assert(BoolExpr::Cmp(Cmp::Ne, IntExpr::Var(g), IntExpr::Const(c)), true));
                if spawn {
                    s.push(Stmt::Spawn(0, IntExpr::Const(0)));
                }
                s
            }),
            // `x = 2; yield; y = x + z;`: a write its own process reads back in a later
            // block, beside writers of x that may overwrite it unread — the two orders
            // of overwritten writes are one class of `→ob` but not the same neighbours
            // (`regressions::odpor_ob_a_covered_class_does_not_cover_its_neighbours`).
            2 => (global(), 0i64..=2, global(), global()).prop_map(|(g, a, h, k)| {
                vec![
                    Stmt::Assign(g, IntExpr::Const(a)),
                    Stmt::Yield,
                    Stmt::Assign(h, IntExpr::Bin(Arith::Add, var_of(g), var_of(k))),
                ]
            }),
            // DBP's write tasks: `y = y + 1; x = 1;`, a counter's increment (two of
            // them commute in every state) raising a flag, which `await (x == 1)` or
            // `await (x != 0)` elsewhere waits for. Spawned twice, one increment is
            // kept asleep past the other by commutation and blocks where its flag
            // would enable another process (`Dpor::choose_after_blocked`).
            2 => global().prop_map(|h| {
                vec![
                    Stmt::Assign(h, IntExpr::Bin(Arith::Add, var_of(h), Box::new(IntExpr::Const(1)))),
                    Stmt::Assign(0, IntExpr::Const(1)),
                ]
            }),
            // `while (x == 0) { }`: "block did not terminate" in some orders.
            2 => global_cond(vec![Cmp::Eq, Cmp::Ne], 0..=1).prop_map(|c| vec![Stmt::Spin(c)]),
            // `await (x != 0);` in the middle of a proc.
            1 => global_cond(vec![Cmp::Eq, Cmp::Ne, Cmp::Gt], 0..=2).prop_map(|c| vec![Stmt::Await(c)]),
            // The classic DPOR benchmarks' accesses, whose location is decided by a
            // value read from a global in the same block (issue 12): lastzero's scan
            // (`while (n0 < 3 && (a[n0] != 0)) { .. }`, in one block or a step per
            // element), indexer's compare-and-swap (`if (m[x] == 0) { m[x] = y; }`),
            // filesystem's search for a free cell, and nested containers (`m[a[x]]`).
            3 => (0u8..5, global(), global()).prop_map(|(k, g, h)| {
                let at = |i: IntExpr| IntExpr::Array(Box::new(i));
                let zero = || IntExpr::Const(0);
                match k {
                    0 | 1 => vec![Stmt::While(
                        Some(BoolExpr::Cmp(Cmp::Ne, at(IntExpr::LoopVar), zero())),
                        3,
                        if k == 0 { vec![] } else { vec![Stmt::Yield] },
                    )],
                    2 => vec![Stmt::If(
                        BoolExpr::Cmp(Cmp::Eq, IntExpr::Map(var_of(g)), zero()),
                        vec![Stmt::MapWrite(IntExpr::Var(g), IntExpr::Var(h))],
                        vec![],
                    )],
                    3 => vec![Stmt::For(
                        Bound::Const(2),
                        vec![Stmt::If(
                            BoolExpr::Cmp(Cmp::Eq, at(IntExpr::LoopVar), zero()),
                            vec![
                                Stmt::ArrayWrite(IntExpr::LoopVar, IntExpr::Const(1)),
                                Stmt::MapWrite(IntExpr::LoopVar, IntExpr::Var(h)),
                            ],
                            vec![],
                        )],
                    )],
                    _ => vec![Stmt::MapWrite(at(IntExpr::Var(g)), IntExpr::Var(h))],
                }
            }),
            // Arithmetic that overflows near `i64::MAX`/`i64::MIN` (see [`globals`]):
            // `int t = y + x;`, `x = x + 2;`, `x = -y;`, `x = x * y;`.
            3 => (0u8..5, global(), global(), prop_oneof![Just(Arith::Add), Just(Arith::Sub), Just(Arith::Mul)])
                .prop_map(|(k, g, h, op)| vec![match k {
                    0 => Stmt::Local(IntExpr::Bin(Arith::Add, var_of(h), var_of(g))),
                    1 => Stmt::Assign(g, IntExpr::Bin(op, var_of(g), Box::new(IntExpr::Const(2)))),
                    2 => Stmt::Assign(g, IntExpr::Neg(var_of(h))),
                    3 => Stmt::Assign(g, IntExpr::Bin(op, var_of(g), var_of(h))),
                    // Overflows once g has grown past 1 (after an increment).
                    _ => Stmt::Local(IntExpr::Bin(Arith::Add, var_of(g), Box::new(IntExpr::Const(i64::MAX - 1)))),
                }]),
        ]
        .boxed()
    }

    /// A proc: mostly random statements; often one or two [`shape`]s with a few random
    /// statements around them; sometimes only an `await` on a global
    /// (`proc r() { await (x != 0); }`, which may wait forever).
    pub fn proc_() -> impl Strategy<Value = Proc> {
        let random = (
            proptest::bool::weighted(0.3),
            vec(stmt(2, false, true), 2..=6),
        )
            .prop_map(|(param, body)| Proc { param, body });
        let shaped = (
            proptest::bool::weighted(0.2),
            vec(shape(), 1..=2),
            vec(stmt(1, false, true), 0..=2),
            any::<bool>(),
        )
            .prop_map(|(param, shapes, rest, shapes_first)| {
                let shapes: Vec<Stmt> = shapes.into_iter().flatten().collect();
                let body = if shapes_first {
                    shapes.into_iter().chain(rest).collect()
                } else {
                    rest.into_iter().chain(shapes).collect()
                };
                Proc { param, body }
            });
        // A proc that only waits: on one global, or on two at once (`await (x == 1 &&
        // y != 0)`, a join; its guard short-circuits, so what it reads depends on the
        // state: `regressions::sdpor_climbs_past_a_short_circuit_guard`).
        let cond = || global_cond(vec![Cmp::Eq, Cmp::Ne, Cmp::Gt], 0..=2);
        let await_only = prop_oneof![
            2 => cond(),
            1 => (cond(), cond()).prop_map(|(a, b)| BoolExpr::And(Box::new(a), Box::new(b))),
        ]
        .prop_map(|c| Proc {
            param: false,
            body: vec![Stmt::Await(c)],
        });
        prop_oneof![5 => random, 4 => shaped, 1 => await_only]
    }

    /// Near the ends of `i64` (`i64::MIN` itself has no literal).
    fn extreme() -> impl Strategy<Value = i64> + Clone {
        prop_oneof![
            Just(i64::MAX),
            Just(i64::MAX - 1),
            Just(i64::MAX - 2),
            Just(i64::MIN + 1),
            Just(i64::MIN + 2),
        ]
    }

    /// A global's initial value: small, sometimes near the ends of `i64`.
    fn initial() -> impl Strategy<Value = i64> + Clone {
        prop_oneof![8 => small(), 1 => extreme()]
    }

    fn globals() -> impl Strategy<Value = Globals> {
        (
            0i64..=2,
            [initial(), initial(), initial()],
            any::<bool>(),
            proptest::option::weighted(0.5, [small(), small(), small()]),
            prop_oneof![1 => Just(vec![]), 4 => vec(small(), 1..=2)],
        )
            .prop_map(|(param, ints, flag, array, list)| Globals {
                param,
                ints,
                flag,
                array,
                list,
            })
    }

    /// Mostly the next proc (offset 0).
    fn offset() -> impl Strategy<Value = u8> {
        prop_oneof![4 => Just(0u8), 1 => 1u8..4]
    }

    fn init_spawn() -> impl Strategy<Value = InitSpawn> {
        prop_oneof![
            6 => (offset(), small()).prop_map(|(p, a)| InitSpawn::One(p, a)),
            1 => offset().prop_map(InitSpawn::Loop),
            2 => small().prop_map(InitSpawn::Again),
        ]
    }

    fn fun() -> impl Strategy<Value = Fun> {
        (0..FUN_TEMPLATES, small()).prop_map(|(template, k)| Fun { template, k })
    }

    /// A normalised program (small state space, valid by construction).
    pub fn program() -> impl Strategy<Value = Program> {
        (
            globals(),
            vec(proc_(), 2..=4),
            proptest::option::weighted(0.3, fun()),
            vec(init_spawn(), 2..=4),
            proptest::option::weighted(0.1, (global(), 0i64..=1)),
        )
            .prop_map(|(globals, mut procs, fun, spawns, shared)| {
                // Sometimes the first two procs both write the same value
                // (`x = 1;` in p and in q), which a proc alone rarely shares.
                if let Some((g, v)) = shared {
                    for proc in procs.iter_mut().take(2) {
                        proc.body.insert(0, Stmt::Assign(g, IntExpr::Const(v)));
                    }
                }
                let mut p = Program {
                    globals,
                    procs,
                    fun,
                    spawns,
                };
                p.normalize();
                p
            })
    }
}

/// The seed of this run: `IC_DIFF_SEED` when it is a number, else one from the clock
/// (a new one every run). Written to stderr once, past the test harness's capture, so
/// that every CI log has it.
fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        let fixed = std::env::var("IC_DIFF_SEED").ok().filter(|s| s != "random");
        let seed = match fixed {
            Some(s) => match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            }
            .unwrap_or_else(|_| panic!("IC_DIFF_SEED: a number or `random`, not {s:?}")),
            None => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                // Nanoseconds, mixed so that close clocks give unrelated seeds.
                (now.as_nanos() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    ^ u64::from(std::process::id())
            }
        };
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "differential: IC_DIFF_SEED={seed} (set it to replay this run)"
        );
        seed
    })
}

/// `var` as a number, `default` without it.
fn env_number(var: &str, default: u32) -> u32 {
    std::env::var(var)
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("{var}: a number, not {s:?}"))
        })
        .unwrap_or(default)
}

/// The seed of [`seed`], `IC_DIFF_CASES` programs (default 1000), failures persisted.
fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        cases: env_number("IC_DIFF_CASES", 1000),
        rng_seed: RngSeed::Fixed(seed()),
        // Shrinking re-synthesises at every step: bounded, so that a failing CI run
        // still ends in minutes (with a smaller, if not minimal, program).
        max_shrink_time: 180_000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/regressions/differential.txt"
        )))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    /// Every mode (cdpor's included) against naive on `IC_DIFF_CASES` programs.
    ///
    /// Cost, measured on the project's 2-core machine (busy with other builds) in the
    /// debug build CI uses, 1,000 programs: cdpor's synthesis about 125 s (per
    /// program: median 23 ms, 90% 0.3 s, 99% 1.5 s, max 8 s — a pair's composition
    /// is not bounded by its timeout), naive and the modes (ten then; fourteen now) about 6 s together.
    /// Synthesis is why frontend and ic-synth are built with `opt-level = 2` in the
    /// dev profile (root `Cargo.toml`) and why [`ics`] has a budget.
    #[test]
    fn every_algorithm_agrees_with_naive(program in strategy::program()) {
        let source = program.source();
        if let Err(e) = differential(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }
}

/// Every statement of `body`, nested ones included.
fn all_stmts(body: &[Stmt]) -> Vec<&Stmt> {
    let mut out = Vec::new();
    for s in body {
        out.push(s);
        match s {
            Stmt::If(_, a, b) => {
                out.extend(all_stmts(a));
                out.extend(all_stmts(b));
            }
            Stmt::For(_, a) | Stmt::While(_, _, a) => out.extend(all_stmts(a)),
            _ => {}
        }
    }
    out
}

/// `g = ..;` of a global (indices 0, 1, 2 are `x`, `y`, `z` in every scope).
fn writes_global(s: &Stmt) -> bool {
    matches!(s, Stmt::Assign(g, _) if *g < 3)
}

/// A loop of at least two iterations whose body writes a global under an `if`.
fn loop_around_guarded_write(s: &Stmt) -> bool {
    let (n, body) = match s {
        Stmt::For(bound, body) => (bound.max(), body),
        Stmt::While(_, n, body) => (u64::from(*n), body),
        _ => return false,
    };
    n >= 2
        && all_stmts(body)
            .iter()
            .any(|s| matches!(s, Stmt::If(_, then, _) if then.iter().any(writes_global)))
}

/// `if (i > 5) { .. }` on a loop variable of a loop with fewer iterations.
fn never_true_loop_guard(s: &Stmt) -> bool {
    matches!(s, Stmt::If(BoolExpr::Cmp(Cmp::Gt, IntExpr::LoopVar, IntExpr::Const(c)), ..) if *c >= 3)
}

/// `if (y == 0) { x = 1; }`: a test of a global guarding a write of one.
fn guarded_write(s: &Stmt) -> bool {
    matches!(s, Stmt::If(BoolExpr::Cmp(_, IntExpr::Var(g), IntExpr::Const(_)), then, _)
        if *g < 3 && then.iter().any(writes_global))
}

/// `y = y + 1;`
fn increment(s: &Stmt) -> bool {
    matches!(s, Stmt::Assign(g, IntExpr::Bin(Arith::Add, a, c))
        if *g < 3 && matches!(**a, IntExpr::Var(h) if h == *g) && matches!(**c, IntExpr::Const(1)))
}

/// `x = c;`: the (global, constant) written.
fn constant_write(s: &Stmt) -> Option<(u8, i64)> {
    match s {
        Stmt::Assign(g, IntExpr::Const(c)) if *g < 3 => Some((*g, *c)),
        _ => None,
    }
}

/// Whether a generated program (its value, its text, naive's report) has a shape.
type Shape = fn(&Program, &str, &Report) -> bool;

/// The shapes of the generator, each a predicate on a generated program (its value, its
/// text, and what naive finds in it). `generator_produces_every_shape` fails if one of
/// them never shows up.
fn shapes() -> Vec<(&'static str, Shape)> {
    fn live_stmts(p: &Program, pred: &dyn Fn(&Stmt) -> bool) -> bool {
        let live = p.instances();
        p.procs
            .iter()
            .enumerate()
            .any(|(j, proc)| live.contains(&j) && all_stmts(&proc.body).into_iter().any(pred))
    }
    /// A proc spawned at least twice by `init` has a statement `pred` selects.
    fn twice(p: &Program, pred: &dyn Fn(&Stmt) -> bool) -> bool {
        let counts = p.init_counts();
        p.procs
            .iter()
            .enumerate()
            .any(|(j, proc)| counts[j] >= 2 && all_stmts(&proc.body).into_iter().any(pred))
    }
    fn runtime(r: &Report, what: &str) -> bool {
        r.violations
            .iter()
            .any(|v| v.kind == ViolationKind::Runtime && v.message.contains(what))
    }
    vec![
        (
            "loop of 2+ iterations around a guarded global write",
            |p, _, _| live_stmts(p, &loop_around_guarded_write),
        ),
        (
            "never-true guard on the loop variable (`if (i0 > 5)`)",
            |p, _, _| live_stmts(p, &never_true_loop_guard),
        ),
        ("await-only process", |p, _, _| {
            let live = p.instances();
            p.procs.iter().enumerate().any(|(j, proc)| {
                live.contains(&j) && matches!(proc.body.as_slice(), [Stmt::Await(_)])
            })
        }),
        (
            "a global written, then overwritten after a `yield`",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    live.contains(&j)
                    && proc.body.windows(3).any(|w| {
                        matches!(w, [Stmt::Assign(g, _), Stmt::Yield, Stmt::Assign(h, _)] if g == h)
                    })
                })
            },
        ),
        ("the same proc spawned twice by init", |p, _, _| {
            p.init_counts().iter().any(|&n| n >= 2)
        }),
        ("`y = y + 1` in a proc spawned twice", |p, _, _| {
            twice(p, &increment)
        }),
        ("`x = c` in a proc spawned twice", |p, _, _| {
            twice(p, &|s| constant_write(s).is_some())
        }),
        ("the same `x = c` in two procs", |p, _, _| {
            let live = p.instances();
            let writes: Vec<BTreeSet<(u8, i64)>> = p
                .procs
                .iter()
                .enumerate()
                .map(|(j, proc)| {
                    if live.contains(&j) {
                        all_stmts(&proc.body)
                            .into_iter()
                            .filter_map(constant_write)
                            .collect()
                    } else {
                        BTreeSet::new()
                    }
                })
                .collect();
            (0..writes.len())
                .any(|i| (i + 1..writes.len()).any(|j| !writes[i].is_disjoint(&writes[j])))
        }),
        ("guarded write (`if (y == 0) { x = 1; }`)", |p, _, _| {
            live_stmts(p, &guarded_write)
        }),
        (
            "a global a block overwrites and no other proc reads (dead in state checks)",
            |_, s, _| {
                let program = tests::load(s, &[]);
                program.blocks.iter().any(|b| {
                    b.overwrites.iter().any(|g| {
                        program
                            .procs
                            .iter()
                            .enumerate()
                            .all(|(q, proc)| q == b.proc as usize || !proc.reads.contains(g))
                    })
                })
            },
        ),
        (
            "an array or map a live proc writes and no proc reads (dead whole under --violations-only)",
            |p, s, _| {
                let program = tests::load(s, &[]);
                let unread = |name: &str| {
                    program.globals.iter().enumerate().any(|(g, global)| {
                        global.name == name
                            && program.procs.iter().all(|proc| !proc.reads.contains(&(g as u32)))
                    })
                };
                (unread("a") && live_stmts(p, &|s| matches!(s, Stmt::ArrayWrite(..))))
                    || (unread("m") && live_stmts(p, &|s| matches!(s, Stmt::MapWrite(..))))
            },
        ),
        (
            "a block branches on what an earlier block of its process read",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    let body = &proc.body;
                    let at = |pred: &dyn Fn(&Stmt) -> bool| body.iter().position(pred);
                    let read = at(&|s| matches!(s, Stmt::Local(IntExpr::Var(_))));
                    let branch =
                        at(&|s| matches!(s, Stmt::If(BoolExpr::Cmp(_, IntExpr::Recent, _), ..)));
                    live.contains(&j)
                        && read.zip(branch).is_some_and(|(r, b)| {
                            r < b && body[r..b].iter().any(|s| matches!(s, Stmt::Yield))
                        })
                })
            },
        ),
        (
            "an assertion on a global, then a spawn (observer, then overwriter)",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    let body = &proc.body;
                    live.contains(&j)
                        && body.windows(2).any(|w| {
                            matches!(w[0], Stmt::Assert(BoolExpr::Cmp(_, IntExpr::Var(_), _), _))
                                && matches!(w[1], Stmt::Spawn(..))
                        })
                })
            },
        ),
        (
            "a counter's increment raising a flag, in a proc spawned twice (DBP)",
            |p, _, _| {
                let counts = p.init_counts();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    counts[j] >= 2
                        && proc.body.windows(2).any(|w| {
                            matches!(
                                w,
                                [
                                    Stmt::Assign(_, IntExpr::Bin(Arith::Add, ..)),
                                    Stmt::Assign(0, IntExpr::Const(1))
                                ]
                            )
                        })
                })
            },
        ),
        (
            "a write read back by its process in a later block (`x = 2; yield; y = x + z;`)",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    live.contains(&j)
                        && proc.body.windows(3).any(|w| match w {
                            [Stmt::Assign(g, IntExpr::Const(_)), Stmt::Yield, Stmt::Assign(_, IntExpr::Bin(Arith::Add, read, _))] => {
                                matches!(**read, IntExpr::Var(r) if r == *g)
                            }
                            _ => false,
                        })
                })
            },
        ),
        ("spin on a global (`while (x == 0) { }`)", |p, _, _| {
            live_stmts(p, &|s| matches!(s, Stmt::Spin(_)))
        }),
        ("a global near i64::MAX or i64::MIN", |p, _, _| {
            p.globals.ints.iter().any(|v| v.unsigned_abs() > 1 << 62)
        }),
        ("list operations", |_, s, _| {
            ["append(", "tail(", "head(", "take(", "drop(", "l["]
                .iter()
                .any(|w| s.contains(w))
        }),
        (
            "an array of lists (`c[i] = append(c[i], ..)`, `head(c[i])`)",
            |_, s, _| s.contains("(c["),
        ),
        ("map reads or writes", |_, s, _| {
            s.contains("m[") || s.contains("has(m")
        }),
        (
            "an access located by a global (`m[x]`, `a[a[..]]`, a scan of `a`)",
            |_, s, _| {
                ["[x]", "[y]", "[z]", "[a[", "[m["]
                    .iter()
                    .any(|w| s.contains(w))
                    || s.contains("&& (a[n")
            },
        ),
        ("assertions", |_, s, _| s.contains("assert(")),
        ("a fun", |_, s, _| s.contains("fun f")),
        ("naive: a deadlock", |_, _, r| {
            r.violations
                .iter()
                .any(|v| v.kind == ViolationKind::Deadlock)
        }),
        ("naive: a failed assertion", |_, _, r| {
            r.violations.iter().any(|v| v.kind == ViolationKind::Assert)
        }),
        ("naive: an integer overflow", |_, _, r| {
            runtime(r, "overflow")
        }),
        ("naive: a block that did not terminate", |_, _, r| {
            runtime(r, "did not terminate")
        }),
        (
            "naive: a violation in some orders and a final state in others",
            |_, _, r| !r.violations.is_empty() && r.stats.final_states > 0,
        ),
        ("naive: several final states", |_, _, r| {
            r.stats.final_states > 1
        }),
    ]
}

/// `all(a)` (a join: one block waiting for every flag) under every algorithm, on
/// programs the generator does not write (it declares no `bool` array): writers that
/// set their own flag where they write x (lastwrite), a flag set, cleared and set
/// again by its process so that the join may pass and close again, and two joins on
/// overlapping work. naive's numbers are derived in each comment; every mode must
/// agree with it.
#[test]
fn joins_by_all_agree_with_naive() {
    // Two writers, each one block (x then its flag), and an observer that passes once
    // both flags are set: the 2 orders of the writers, then the observer (x = 1 or 2
    // read by the assertion, which holds): 2 traces of 3 events, 1 + 2 + 2 + 2 = 7
    // states.
    let lastwrite = "global int x = 0;
global bool[2] done;
proc w(int i) { x = i + 1; done[i] = true; }
proc o() { await (all(done)); assert(x > 0, \"o reads a write\"); }
init { spawn w(0); spawn w(1); spawn o(); }
";
    let out = assert_agree(lastwrite);
    assert_eq!((out.naive.stats.traces, out.naive.stats.states), (2, 7));
    // p sets its flag, clears it and sets it again (three blocks); q's flag is set in
    // one block; r waits for both and then fails if it sees p's middle value y = 1.
    // r may pass after p's first block (y = 0) or after its last (y = 2) once q has
    // run, never while p's flag is clear: the assertion holds on every path, and no
    // execution deadlocks (p and q always finish, so r always passes).
    let toggle = "global int y = 0;
global bool[2] f;
proc p() { f[0] = true; yield; f[0] = false; y = 1; yield; y = 2; f[0] = true; }
proc q() { f[1] = true; }
proc r() { await (all(f)); assert(y != 1, \"r sees the middle value\"); }
init { spawn p(); spawn q(); spawn r(); }
";
    let out = assert_agree(toggle);
    assert!(
        out.naive.violations.is_empty(),
        "{:?}",
        out.naive.violations
    );
    // Two joins over the same two flags: whichever runs, both see both flags set.
    let joins = "global int n = 0;
global bool[2] f;
proc w(int i) { f[i] = true; }
proc j() { await (all(f)); n = n + 1; }
init { spawn w(0); spawn w(1); spawn j(); spawn j(); }
";
    let out = assert_agree(joins);
    assert_eq!(out.naive.stats.final_states, 1);
}

/// The generator produces every shape of [`shapes`]: over 1,000 programs of this run's
/// seed, each shape occurs at least 10 times (each is meant to be common, a few
/// percent of programs or more, so that a run of the differential test exercises it).
#[test]
fn generator_produces_every_shape() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..proptest_config()
    });
    let strategy = strategy::program();
    let shapes = shapes();
    let mut counts = vec![0u32; shapes.len()];
    let programs = 1000;
    for _ in 0..programs {
        let generated = strategy
            .new_tree(&mut runner)
            .expect("the strategy always generates")
            .current();
        let source = generated.source();
        let naive = explorer::explore(&tests::load(&source, &[]), &mut Naive::default(), config());
        for ((_, shape), count) in shapes.iter().zip(&mut counts) {
            if shape(&generated, &source, &naive) {
                *count += 1;
            }
        }
    }
    let mut table = format!("shapes in {programs} programs (IC_DIFF_SEED={}):\n", seed());
    for ((name, _), count) in shapes.iter().zip(&counts) {
        let _ = writeln!(table, "{count:>6}  {name}");
    }
    println!("{table}");
    let rare: Vec<&str> = shapes
        .iter()
        .zip(&counts)
        .filter(|(_, &n)| n < 10)
        .map(|((name, _), _)| *name)
        .collect();
    assert!(
        rare.is_empty(),
        "shapes seen fewer than 10 times: {rare:?}\n{table}"
    );
}

fn tree_config() -> ProptestConfig {
    ProptestConfig {
        cases: env_number("IC_DIFF_TREE_CASES", 200),
        ..proptest_config()
    }
}

proptest! {
    #![proptest_config(tree_config())]

    /// The execution trees (`ic-check --tree`) agree with the counters.
    #[test]
    fn trees_agree_with_counters(program in strategy::program()) {
        let source = program.source();
        if let Err(e) = trees(&source) {
            return Err(TestCaseError::fail(format!("{e}\n{source}")));
        }
    }
}

/// Records the tree of naive and of every reduced algorithm: each has as many complete
/// leaves as its run has traces and as many blocked marks as blocked executions, and
/// merged with naive's (`--tree-full`), as many complete leaves as naive has traces and
/// every node naive has.
fn trees(source: &str) -> Result<(), String> {
    let program = tests::load(source, &[]);
    let config = Config {
        tree: Some(TreeConfig {
            limit: usize::MAX,
            halt_when_full: false,
        }),
        ..config()
    };
    let naive = explorer::explore(&program, &mut Naive::default(), config.clone());
    if naive.stop != Stop::Complete {
        return Err(format!("naive did not complete ({:?})", naive.stop));
    }
    let naive_tree = naive.tree.as_ref().ok_or("naive recorded no tree")?;
    let check = |name: &str, report: &Report, tree: &Tree| -> Result<(), String> {
        let blocked = tree.nodes.iter().filter(|n| n.blocked.is_some()).count();
        let counted = (report.stats.traces, report.stats.blocked);
        let drawn = (tree.complete_leaves() as u64, blocked as u64);
        if counted != drawn {
            return Err(format!(
                "{name}: (traces, blocked) {counted:?}, the tree has {drawn:?}"
            ));
        }
        Ok(())
    };
    check("naive", &naive, naive_tree)?;
    for mode in modes().into_iter().filter(|m| !m.algo.uses_constraints) {
        let name = mode.name();
        let config = Config {
            deps: mode.deps,
            ..config.clone()
        };
        let report = explorer::explore(&program, &mut *mode.make(None), config);
        let tree = report.tree.clone().ok_or("no tree")?;
        check(&name, &report, &tree)?;
        let full = tree.with_pruned(naive_tree, usize::MAX);
        if full.complete_leaves() != naive_tree.complete_leaves() {
            return Err(format!(
                "{name}: the full tree has {} complete leaves, naive's {}",
                full.complete_leaves(),
                naive_tree.complete_leaves()
            ));
        }
        // Every path of naive's tree is in the full tree.
        let paths = |t: &Tree| -> BTreeSet<Vec<String>> {
            (0..t.nodes.len())
                .map(|id| {
                    t.path(id)
                        .iter()
                        .map(|s| format!("{}:{}", s.process.pid, s.block))
                        .collect()
                })
                .collect()
        };
        let missing = paths(naive_tree).difference(&paths(&full)).count();
        if missing > 0 {
            return Err(format!(
                "{name}: the full tree lacks {missing} of naive's nodes"
            ));
        }
    }
    Ok(())
}

/// What the generated programs exercise (run by hand: `cargo test -p tests --test
/// differential survey -- --ignored --nocapture`): how many programs reach each kind
/// of violation, the sizes of their state spaces, and the time of each algorithm.
#[test]
#[ignore = "a report, not a check"]
fn survey() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    use std::time::Instant;
    let settings = proptest_config();
    let cases = settings.cases;
    let mut runner = TestRunner::new(settings);
    let strategy = strategy::program();
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut states: Vec<u64> = Vec::new();
    // The synthesis time of each program.
    let mut synth: Vec<Duration> = Vec::new();
    let mut slowest: Option<(Duration, String)> = None;
    let mut time: BTreeMap<String, Duration> = BTreeMap::new();
    let mut bump = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    for _ in 0..cases {
        let generated = strategy.new_tree(&mut runner).unwrap().current();
        let source = generated.source();
        let instances = generated.instances();
        bump(&format!("processes: {}", instances.len()));
        let blocks: u64 = instances.iter().map(|&j| generated.blocks(j)).sum();
        bump(&format!("blocks (upper bound): {blocks:>2}"));
        let program = frontend::load(&source, &[]).expect("loads");
        let start = Instant::now();
        let naive = explorer::explore(&program, &mut Naive::default(), config());
        *time.entry("naive".into()).or_default() += start.elapsed();
        let start = Instant::now();
        let constraints = ics(&program, &source);
        let took = start.elapsed();
        *time.entry("cdpor synthesis".into()).or_default() += took;
        synth.push(took);
        if slowest.as_ref().is_none_or(|(t, _)| *t < took) {
            slowest = Some((took, source.clone()));
        }
        for mode in modes() {
            let start = Instant::now();
            let config = Config {
                deps: mode.deps,
                ..config()
            };
            let report = explorer::explore(&program, &mut *mode.make(Some(&constraints)), config);
            *time.entry(mode.name()).or_default() += start.elapsed();
            if mode.name() == "csdpor"
                && report.stats.traces < naive.stats.mazurkiewicz.unwrap_or(0)
            {
                bump("csdpor explores fewer traces than Mazurkiewicz");
            }
        }
        states.push(naive.stats.states);
        let s = &naive.stats;
        if s.traces == 0 {
            bump("no complete execution");
        }
        if s.final_states > 1 {
            bump("several final states");
        }
        if s.mazurkiewicz.unwrap_or(0) > 1 {
            bump("several Mazurkiewicz traces");
        }
        if s.mazurkiewicz.unwrap_or(0) < s.traces {
            bump("interleavings > Mazurkiewicz traces");
        }
        let mut kinds = BTreeSet::new();
        for v in &naive.violations {
            let what = match v.kind {
                ViolationKind::Assert => "assertion".to_string(),
                ViolationKind::Deadlock => "deadlock".to_string(),
                ViolationKind::NonTermination => "non-terminating".to_string(),
                ViolationKind::DepthLimit => "depth limit".to_string(),
                ViolationKind::Runtime => {
                    let m = &v.message;
                    let cut = m.find(|c: char| c.is_ascii_digit()).unwrap_or(m.len());
                    format!("runtime: {}", m[..cut].trim_end())
                }
            };
            kinds.insert(what);
        }
        for k in kinds {
            bump(&k);
        }
        for (word, name) in [
            ("take(", "has take"),
            ("drop(", "has drop"),
            ("l[", "has list index"),
            ("await", "has await"),
            ("yield;", "has yield"),
            ("while", "has while"),
            ("for i", "has for"),
            ("fun f", "has fun"),
            ("for k", "init spawns in a loop"),
        ] {
            if source.contains(word) {
                bump(name);
            }
        }
        let procs_text = &source[..source.find("\ninit {").unwrap_or(source.len())];
        if procs_text.contains("spawn ") {
            bump("a proc spawns");
        }
        let procs = source.matches("\nproc ").count();
        bump(&format!("procs: {procs}"));
    }
    states.sort_unstable();
    let n = states.len();
    println!(
        "{cases} programs; naive states: median {}, 90% {}, max {}, total {}",
        states[n / 2],
        states[n * 9 / 10],
        states[n - 1],
        states.iter().sum::<u64>()
    );
    for (k, v) in &time {
        println!("time {k}: {v:?}");
    }
    if let Some((took, source)) = &slowest {
        println!("slowest synthesis ({took:?}):\n{source}");
    }
    synth.sort_unstable();
    let m = synth.len();
    println!(
        "synthesis per program: median {:?}, 90% {:?}, 99% {:?}, max {:?}",
        synth[m / 2],
        synth[m * 9 / 10],
        synth[m * 99 / 100],
        synth[m - 1],
    );
    for (k, v) in &tally {
        println!("{v:>5}  {k}");
    }
}

/// A campaign (run by hand, best in release): `IC_DIFF_CASES` programs of `IC_DIFF_SEED`
/// through [`differential`], going on after a disagreement; each one is shrunk as
/// proptest would, and every distinct one (by the modes and checks that failed) is
/// printed with its shrunk program at the end.
///
/// `IC_DIFF_CASES=3000 cargo test --release -p tests --test differential campaign --
/// --ignored --nocapture`
#[test]
#[ignore = "a campaign that reports every disagreement; run by hand"]
fn campaign() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    let settings = proptest_config();
    let cases = settings.cases;
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..settings
    });
    let strategy = strategy::program();
    // What failed (each "mode: check" line) -> (how many programs, shrunk source, error).
    let mut found: BTreeMap<Vec<String>, (u32, String, String)> = BTreeMap::new();
    let signature = |error: &str| -> Vec<String> {
        let mut lines: Vec<String> = error
            .lines()
            .filter_map(|l| l.strip_prefix("  - "))
            .map(|l| {
                let end = l
                    .find(|c: char| c.is_ascii_digit() || c == '[' || c == '(')
                    .unwrap_or(l.len());
                l[..end].trim_end().to_string()
            })
            .collect();
        lines.sort();
        lines.dedup();
        lines
    };
    for case in 0..cases {
        let mut tree = strategy
            .new_tree(&mut runner)
            .expect("the strategy always generates");
        let Err(mut error) = differential(&tree.current().source()) else {
            continue;
        };
        let mut shrunk = tree.current().source();
        let mut simplify = true;
        for _ in 0..2000 {
            if simplify && !tree.simplify() {
                break;
            }
            let source = tree.current().source();
            match differential(&source) {
                Err(e) => {
                    shrunk = source;
                    error = e;
                    simplify = true;
                }
                Ok(_) => {
                    if !tree.complicate() {
                        break;
                    }
                    simplify = false;
                }
            }
        }
        let key = signature(&error);
        eprintln!("case {case}: {key:?}");
        let entry = found
            .entry(key)
            .or_insert((0, shrunk.clone(), error.clone()));
        entry.0 += 1;
        if shrunk.len() < entry.1.len() {
            entry.1 = shrunk;
            entry.2 = error;
        }
    }
    println!(
        "{cases} programs (IC_DIFF_SEED={}), {} distinct disagreements",
        seed(),
        found.len()
    );
    for (key, (n, _, error)) in &found {
        println!("\n=== {n} programs: {key:?}\n{error}");
    }
}

/// Runs the differential comparison on the program in the file `IC_DIFF_FILE` (by
/// hand: `IC_DIFF_FILE=prog.ic cargo test -p tests --test differential one_file --
/// --ignored --nocapture`), printing what disagrees.
#[test]
#[ignore = "run by hand on a file"]
fn one_file() {
    let Ok(path) = std::env::var("IC_DIFF_FILE") else {
        panic!("set IC_DIFF_FILE to a program");
    };
    let source = std::fs::read_to_string(&path).expect("IC_DIFF_FILE is readable");
    match differential(&source) {
        Ok(outcome) => println!("{path}: {} modes agree with naive", outcome.reduced.len()),
        Err(e) => panic!("{e}"),
    }
}
