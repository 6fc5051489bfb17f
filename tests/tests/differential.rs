//! Differential soundness on generated programs: on small random programs over the
//! whole language, every reduced algorithm in every mode must agree with `naive`
//! ([`tests::differential`] says how they are compared, and in which modes).
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
//! - `IC_DIFF_PARALLEL_CASES`: programs on which the searches that split over threads
//!   (`--jobs 2`) are compared with naive (default 200).
//! - `IC_DIFF_TREE_CASES`: programs whose execution trees are checked against the
//!   counters (default 200; naive and every mode that needs no constraints).
//! - `IC_DIFF_FUTURES_CASES`: programs, with cycles and without, on whose random
//!   schedules each process's analysed future is checked against its later steps
//!   (default 500 each: [`tests::futures`]).
//!
//! A failure prints the seed, the shrunk program, every disagreeing algorithm and mode,
//! and the final states or violations it misses or adds. Failing cases are persisted in
//! `tests/regressions/differential.txt` and replayed first; shrunk programs are kept
//! as regressions, one file each in `tests/regressions/` (its README says how).

mod guarded_groups;
mod mutants;
mod small_scope;
mod spawned_futures;

use explorer::algorithms::naive::Naive;
use explorer::{Config, Report, Stop, Tree, TreeConfig, ViolationKind};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::Duration;
use tests::differential::*;
use tests::futures::futures_hold_every_step;
use tests::generator::*;

mod campaigns;
mod shapes;
mod strategy;

/// Which entry of each of a family's lists its `index`-th program takes (the first
/// list's entry changes fastest): `index`'s digits in the mixed radix of `lens`.
fn entries<const N: usize>(mut index: usize, lens: [usize; N]) -> [usize; N] {
    lens.map(|len| {
        let entry = index % len;
        index /= len;
        entry
    })
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
            "/regressions/differential.txt"
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

fn parallel_config() -> ProptestConfig {
    ProptestConfig {
        cases: env_number("IC_DIFF_PARALLEL_CASES", 200),
        ..proptest_config()
    }
}

proptest! {
    #![proptest_config(parallel_config())]

    /// Every reduced algorithm on two threads over a frontier of a few units
    /// (`--jobs 2`), against naive: `IC_DIFF_PARALLEL_CASES` programs (default 200).
    #[test]
    fn every_algorithm_on_two_threads_agrees_with_naive(program in strategy::program()) {
        let source = program.source();
        if let Err(e) = parallel_differential(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }
}

fn cyclic_config() -> ProptestConfig {
    ProptestConfig {
        cases: env_number("IC_DIFF_CYCLIC_CASES", 1000),
        ..proptest_config()
    }
}

proptest! {
    #![proptest_config(cyclic_config())]

    /// The stateful searches on programs with cycles (a spin across blocks, a server
    /// loop: `strategy::cyclic_program`), against the stateful reference, sets
    /// compared: every final state, violation and deadlock.
    #[test]
    fn stateful_searches_agree_with_the_stateful_reference(program in strategy::cyclic_program()) {
        let source = program.source();
        if let Err(e) = stateful_differential(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }

    /// Every livelock the stateful reference reports on a program with cycles is a
    /// fair cycle, checked on its own by running its lasso.
    #[test]
    fn livelocks_are_fair_cycles_that_replay(program in strategy::cyclic_program()) {
        let source = program.source();
        if let Err(e) = livelocks_are_fair_cycles(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }
}

fn futures_config() -> ProptestConfig {
    ProptestConfig {
        cases: env_number("IC_DIFF_FUTURES_CASES", 500),
        ..proptest_config()
    }
}

proptest! {
    #![proptest_config(futures_config())]

    /// What a process may touch from its next block on, analysed from its locals
    /// (the summaries dl-spor's and de-spor's threads make of a state another thread
    /// is expanding), holds every later step of it on random schedules
    /// ([`tests::futures`]): on programs with cycles and without.
    #[test]
    fn process_futures_hold_every_later_step(program in strategy::cyclic_program()) {
        let source = program.source();
        if let Err(e) = futures_hold_every_step(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }

    #[test]
    fn process_futures_hold_every_later_step_without_cycles(program in strategy::program()) {
        let source = program.source();
        if let Err(e) = futures_hold_every_step(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }
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
