//! `naive` on small programs whose counts are derived by hand in the comments.
//! Counting conventions (docs/soundness.md, "What the counts mean"): `states` = 1 + every event that completed;
//! an execution that ends in an assertion or runtime error is not a complete trace.

use explorer::algorithms::naive::Naive;
use explorer::{Config, Stop, ViolationKind};
use tests::{counts, example, explore_all, load};

fn naive(source: &str, defines: &[(&str, i64)]) -> explorer::Report {
    explore_all(&load(source, defines), &mut Naive::default())
}

/// CDPOR paper, Fig. 1, from x = z = -2: 3! = 6 interleavings; the tree has
/// 1 + 3 + 6 + 6 = 16 nodes. z stays negative, so q never writes: every run ends in
/// x = 0, z = -1 (1 final state). q branches on z, a global it reads, so which
/// globals it touches depends on the global state: its events carry its block's
/// footprint (reads x and z, writes z; see `frontend::analysis::locality`). Then every pair of
/// blocks conflicts (p–q on x, p–r on x, q–r on z): 6 Mazurkiewicz traces.
#[test]
fn fig1_from_minus_two() {
    let r = naive(&example("fig1.ic"), &[]);
    assert_eq!(counts(&r), (6, 16, 1, Some(6)));
    assert!(r.violations.is_empty());
    assert_eq!(r.stop, Stop::Complete);
}

/// Ex. 4 of the paper (z = -1). q before r: q does nothing, r makes z = 0. r before
/// q: q copies x into z — 0 when p ran before q (p r q, r p q), -1 otherwise (r q p);
/// p q r and q p r also end at z = 0. Final states (x is always 0): z ∈ {0, -1}.
/// As above, every pair of blocks conflicts: 6 Mazurkiewicz traces.
#[test]
fn fig1_from_minus_one() {
    let r = naive(&example("fig1.ic"), &[("Z0", -1)]);
    assert_eq!(counts(&r), (6, 16, 2, Some(6)));
}

/// Two writers of different globals: 2 interleavings, 1 + 2 + 2 states, one trace.
#[test]
fn independent_writers() {
    let r = naive(
        "global int x = 0; global int y = 0;
         proc p() { x = 1; } proc q() { y = 1; }
         init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (2, 5, 1, Some(1)));
}

/// Array elements and map keys are locations of their own: writes to a[0] and a[1],
/// or m[1] and m[2], are independent.
#[test]
fn elements_are_separate_locations() {
    let r = naive(
        "global int[2] a; global map m;
         proc p() { a[0] = 1; m[1] = 1; } proc q() { a[1] = 1; m[2] = 2; }
         init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (2, 5, 1, Some(1)));
    let r = naive(
        "global int[2] a;
         proc p() { a[0] = 1; } proc q() { a[0] = 2; }
         init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (2, 5, 2, Some(2)));
}

/// p has two blocks (x = 1 | x = 2), q reads x once: q goes before, between or
/// after p's blocks → 3 interleavings, reading 0, 1 or 2 (3 final states, 3 traces).
/// States: 1 + 2 (p, q) + 3 + 3 = 9.
#[test]
fn yield_splits_blocks() {
    let r = naive(
        "global int x = 0; global int y = -1;
         proc p() { x = 1; yield; x = 2; } proc q() { y = x; }
         init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (3, 9, 3, Some(3)));
}

/// p spawns q@1.1 and q@1.2, which both add to x: the two children race (2 orders),
/// each child runs after p: states 1 + 1 + 2 + 2 = 6; x = 3 always.
#[test]
fn spawned_children_race() {
    let r = naive(
        "global int x = 0;
         proc p() { spawn q(1); spawn q(2); } proc q(int v) { x = x + v; }
         init { spawn p(); }",
        &[],
    );
    assert_eq!(counts(&r), (2, 6, 1, Some(2)));
}

/// p waits for x == 1; q sets x = 1, r sets x = 2. Executions: q p r, q r (p stuck:
/// deadlock), r q p → 3 traces, 1 + 2 + 3 + 2 = 8 states, 3 final states, one deadlock
/// reached by the schedule `q r`.
#[test]
fn deadlock_in_one_interleaving() {
    let r = naive(
        "global int x = 0; global int y = 0;
         proc p() { await (x == 1); y = 1; } proc q() { x = 1; } proc r() { x = 2; }
         init { spawn p(); spawn q(); spawn r(); }",
        &[],
    );
    assert_eq!(counts(&r), (3, 8, 3, Some(3)));
    assert_eq!(r.violations.len(), 1);
    let v = &r.violations[0];
    assert_eq!(v.kind, ViolationKind::Deadlock);
    assert_eq!(v.schedule, "q r");
    assert_eq!(v.block, "p");
    assert_eq!(v.message, "deadlock: p at p waiting");
}

/// q asserts x == 0; after p it fails. p q fails (not a complete trace), q p completes:
/// 1 trace, states 1 + 2 + 1 = 4 (the failing event is not a state).
#[test]
fn assertion_with_schedule() {
    let src = "global int x = 0;
         proc p() { x = 1; } proc q() { assert(x == 0, \"x changed\"); }
         init { spawn p(); spawn q(); }";
    let r = naive(src, &[]);
    assert_eq!(counts(&r), (1, 4, 1, Some(1)));
    assert_eq!(r.violations.len(), 1);
    let v = &r.violations[0];
    assert_eq!(v.kind, ViolationKind::Assert);
    assert_eq!(v.message, "assertion failed: x changed");
    assert_eq!(v.schedule, "p q");
    assert_eq!(v.block, "q");
    // Without --all-violations, exploration stops at the first violation.
    let r = explorer::explore(&load(src, &[]), &mut Naive::default(), Config::default());
    assert_eq!(r.stop, Stop::Violation);
    assert_eq!(r.violations.len(), 1);
}

/// Runtime errors are violations with schedules; distinct ones are reported once each.
#[test]
fn runtime_errors_reported_once() {
    let r = naive(
        "global int d = 1; global int[2] a;
         proc p() { d = 0; } proc q() { int v = 10 / d; } proc s() { a[d + 1] = 1; }
         init { spawn p(); spawn q(); spawn s(); }",
        &[],
    );
    let mut found: Vec<(ViolationKind, String, String, String)> = r
        .violations
        .iter()
        .map(|v| {
            (
                v.kind,
                v.message.clone(),
                v.block.clone(),
                v.schedule.clone(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (
                ViolationKind::Runtime,
                "division by zero".into(),
                "q".into(),
                "p q".into()
            ),
            (
                ViolationKind::Runtime,
                "index 2 out of range for length 2".into(),
                "s".into(),
                "q s".into()
            ),
        ]
    );
}

/// A failing `init` is a violation with an empty schedule.
#[test]
fn init_failure() {
    let r = naive(
        "global int x = 0; proc p() { } init { x = 1 / x; spawn p(); }",
        &[],
    );
    assert_eq!(r.violations.len(), 1);
    assert_eq!(r.violations[0].block, "init");
    assert_eq!(r.violations[0].schedule, "");
}

/// `--max-traces` stops early and says so.
#[test]
fn max_traces_stops() {
    let config = Config {
        max_traces: Some(2),
        ..Config::default()
    };
    let r = explorer::explore(
        &load(&example("fig1.ic"), &[]),
        &mut Naive::default(),
        config,
    );
    assert_eq!(r.stop, Stop::MaxTraces);
    assert_eq!(r.stats.traces, 2);
}

/// `--max-traces N` with exactly N executions (fig1 has six) is a complete run; the
/// final states are listed with their counts, which add up to the traces.
#[test]
fn max_traces_of_exactly_all_is_complete() {
    for (limit, stop) in [
        (5, Stop::MaxTraces),
        (6, Stop::Complete),
        (7, Stop::Complete),
    ] {
        let config = Config {
            max_traces: Some(limit),
            ..Config::default()
        };
        let r = explorer::explore(
            &load(&example("fig1.ic"), &[]),
            &mut Naive::default(),
            config,
        );
        assert_eq!(r.stop, stop, "--max-traces {limit}");
        assert_eq!(r.stats.traces, limit.min(6));
        assert_eq!(r.stats.mazurkiewicz, Some(limit.min(6)));
        assert_eq!(r.outcomes.len(), 1);
        assert_eq!(r.outcomes[0].globals, "x = 0, z = -1");
        assert_eq!(r.outcomes[0].executions, limit.min(6));
        assert_eq!(r.outcomes[0].schedule, "p q r");
    }
}

/// Processes with the same proc are named `name@pid` in schedules, and the schedule replays.
#[test]
fn ambiguous_names_in_schedules() {
    let src = "global int x = 0;
         proc w(int v) { x = x + v; assert(x != 3); }
         init { spawn w(1); spawn w(2); }";
    let r = naive(src, &[]);
    let schedules: Vec<&str> = r.violations.iter().map(|v| v.schedule.as_str()).collect();
    assert_eq!(schedules, vec!["w@1 w@2"]);
    let program = load(src, &[]);
    let replay = explorer::replay::replay(&program, Default::default(), "w@1 w@2").unwrap();
    assert_eq!(replay.steps.len(), 1);
    assert!(matches!(replay.end, explorer::replay::End::Fault { .. }));
}
