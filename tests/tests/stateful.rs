//! The stateful reference (`--algo stateful`): every reachable state once. Counts
//! are derived by hand in the comments, as states `(globals, each process's next
//! block)`: `stored` the distinct states, `states` 1 + every transition taken (to a
//! new state or an old one), `traces` the final states stored.

use explorer::algorithms::naive::Naive;
use explorer::algorithms::stateful::Stateful;
use explorer::{Config, Report, Stop, ViolationKind};
use tests::{explore_all, load};

fn stateful(source: &str, defines: &[(&str, i64)]) -> Report {
    explore_all(&load(source, defines), &mut Stateful)
}

/// (stored, states, traces, final states).
fn counts(r: &Report) -> (Option<u64>, u64, u64, u64) {
    let s = &r.stats;
    (s.stored, s.states, s.traces, s.final_states)
}

/// A spin on a flag another process sets: `spin` loops at `spin#1` while `x == 0`.
/// From s0 = (0, spin, set): spin → s1 = (0, spin#1, set), set → s2 = (1, spin, -).
/// From s1: spin → s1 again (the cycle), set → s3 = (1, spin#1, -). From s2 and from
/// s3: spin ends → s4 = (1, -, -), final. 5 states stored; 6 transitions (s0→s1,
/// s0→s2, s1→s1, s1→s3, s2→s4, s3→s4), so 7 states counted; 1 final state. A
/// stateless search follows spin's cycle for ever (naive reports a non-terminating
/// execution); this one stops where the state repeats.
#[test]
fn a_spin_on_a_flag_is_five_states() {
    let src = "global int x = 0;
proc spin() { while (x == 0) { yield; } }
proc set() { x = 1; }
init { spawn spin(); spawn set(); }
";
    let r = stateful(src, &[]);
    assert_eq!(r.stop, Stop::Complete);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(counts(&r), (Some(5), 7, 1, 1));
    let naive = explore_all(&load(src, &[]), &mut Naive::default());
    assert_eq!(naive.violations[0].kind, ViolationKind::NonTermination);
}

/// Two writes of different globals: (0, 0) → p → (1, 0) → q → (1, 1), and q first
/// meets the same (1, 1): 4 states stored, 4 transitions, 5 states counted, one
/// final state reached once.
#[test]
fn commuting_writes_meet_in_one_state() {
    let r = stateful(
        "global int x = 0; global int y = 0;
proc p() { x = 1; } proc q() { y = 1; }
init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (Some(4), 5, 1, 1));
}

/// Two writes of one global: the orders end in x = 2 and x = 1, two final states:
/// 5 states stored (initial, after p, after q, after p q, after q p), 4 transitions.
#[test]
fn two_orders_of_one_global_are_two_final_states() {
    let r = stateful(
        "global int x = 0;
proc p() { x = 1; } proc q() { x = 2; }
init { spawn p(); spawn q(); }",
        &[],
    );
    assert_eq!(counts(&r), (Some(5), 5, 2, 2));
}

/// The test-and-set spinlock of issue 43: each worker spins until it sees the lock
/// free and takes it in the same block, increments the counter in its critical
/// section, and releases the lock. Whatever the interleaving, the checker sees
/// `counter == N`: verified, with one final state (lock free, counter and done N).
fn spinlock() -> String {
    tests::benchmark("cyclic/spinlock.ic")
}

#[test]
fn the_spinlock_is_verified() {
    for n in 2..=4 {
        let program = load(&spinlock(), &[("N", n)]);
        let r = explore_all(&program, &mut Stateful);
        assert_eq!(r.stop, Stop::Complete, "N = {n}");
        assert!(r.violations.is_empty(), "N = {n}: {:?}", r.violations);
        let shown: Vec<String> = r.outcomes.iter().map(|o| o.show()).collect();
        assert_eq!(
            shown,
            [format!("lock = 0, counter = {n}, done = {n}")],
            "N = {n}"
        );
    }
}

/// The spinlock with its test and its set in two blocks (`spinlock_split.ic`): both
/// workers may see the lock free before either takes it, and both then increment a
/// counter each read before the other wrote it. The lost update is found, and its
/// schedule replays to the failed assertion.
#[test]
fn a_lock_whose_test_and_set_are_two_blocks_loses_an_update() {
    let src = tests::benchmark("cyclic/spinlock_split.ic");
    let program = load(&src, &[]);
    let r = explore_all(&program, &mut Stateful);
    let lost: Vec<_> = r
        .violations
        .iter()
        .filter(|v| v.kind == ViolationKind::Assert)
        .collect();
    assert_eq!(lost.len(), 1, "{:?}", r.violations);
    assert_eq!(lost[0].message, "assertion failed: lost update");
    let replay = explorer::replay::replay(&program, Default::default(), &lost[0].schedule)
        .expect("the schedule replays");
    assert!(
        matches!(replay.end, explorer::replay::End::Fault { .. }),
        "the replay of {} does not end in the failure",
        lost[0].schedule
    );
}

/// Where every execution ends, the stateful reference reaches naive's final states
/// and violations: on every example.
#[test]
fn stateful_agrees_with_naive_on_every_example() {
    for name in tests::example_names() {
        let program = load(&tests::example(&name), &[]);
        let naive = explore_all(&program, &mut Naive::default());
        let stateful = explore_all(&program, &mut Stateful);
        assert_eq!(stateful.finals, naive.finals, "{name}: final states");
        let kinds = |r: &Report| -> Vec<(ViolationKind, String)> {
            let mut v: Vec<_> = r
                .violations
                .iter()
                .map(|v| (v.kind, v.message.clone()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(kinds(&stateful), kinds(&naive), "{name}: violations");
        let stored = stateful.stats.stored.unwrap_or(u64::MAX);
        assert!(
            stored <= naive.stats.states,
            "{name}: {stored} states stored, naive's tree has {} nodes",
            naive.stats.states
        );
    }
}

/// `--max-memory`: the search stops once its stored states take more, and says so.
#[test]
fn the_memory_limit_stops_the_search() {
    let program = load(&spinlock(), &[("N", 4)]);
    let config = Config {
        max_memory: Some(1_000),
        ..Config::default()
    };
    let r = explorer::explore(&program, &mut Stateful, config);
    assert_eq!(r.stop, Stop::MemoryLimit);
    assert!(r.stats.stored_bytes > 1_000);
}

fn spor(source: &str, defines: &[(&str, i64)]) -> Report {
    explore_all(
        &load(source, defines),
        &mut explorer::algorithms::spor::Spor,
    )
}

/// Two processes, each a local step then a write of x. The whole graph, as (x, p's
/// block, q's block): s0 = (0, p, q); A = (0, p#1, q), B = (0, p, q#1), C = (1, -, q),
/// D = (0, p#1, q#1), E = (2, p, -), F = (1, -, q#1), G = (2, p#1, -), H = (2, -, -),
/// I = (1, -, -): 10 states, 12 transitions (s0→A, s0→B, A→C, A→D, B→D, B→E, C→F,
/// D→F, D→G, E→G, F→H, G→I), 13 states counted, 2 final states. S-POR takes the
/// first invisible step alone: s0→A (p's local step), A→D (q's), then D, where both
/// steps write x, whole: D→F, D→G, F→H, G→I. 7 states stored, 6 transitions.
const LOCAL_THEN_WRITE: &str = "global int x = 0;
proc p() { int a = 1; yield; x = a; }
proc q() { int b = 2; yield; x = b; }
init { spawn p(); spawn q(); }
";

#[test]
fn spor_takes_a_local_step_alone() {
    assert_eq!(
        counts(&stateful(LOCAL_THEN_WRITE, &[])),
        (Some(10), 13, 2, 2)
    );
    let r = spor(LOCAL_THEN_WRITE, &[]);
    assert_eq!(counts(&r), (Some(7), 7, 2, 2));
    assert_eq!(r.finals, stateful(LOCAL_THEN_WRITE, &[]).finals);
}

/// The ignoring problem: p spins without touching a global, so its step is always
/// invisible; taken alone for ever, q would never run. p's loop comes back to the
/// state on the current path, and the stack proviso expands that state whole: q
/// runs, and its assertion fails.
#[test]
fn spor_expands_a_state_whose_invisible_step_closes_a_cycle() {
    let r = spor(
        "proc p() { while (true) { yield; } }
proc q() { assert(false, \"q fails\"); }
init { spawn p(); spawn q(); }",
        &[],
    );
    let found: Vec<&str> = r.violations.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(found, ["assertion failed: q fails"]);
}

/// An invisible step that fails (a division by zero of locals) ends its execution:
/// taken alone, it would hide q's failure, which naive finds with q first. The state
/// is then expanded whole: both failures.
#[test]
fn spor_expands_a_state_whose_invisible_step_fails() {
    let src = "global int x = 0;
proc p() { int z = 0; int w = 1 / z; }
proc q() { x = 1; assert(x == 2, \"q fails\"); }
init { spawn p(); spawn q(); }";
    let mut found: Vec<String> = spor(src, &[])
        .violations
        .iter()
        .map(|v| v.message.clone())
        .collect();
    found.sort();
    assert_eq!(found, ["assertion failed: q fails", "division by zero"]);
    let naive = explore_all(&load(src, &[]), &mut Naive::default());
    assert_eq!(naive.violations.len(), 2);
    // p fails wherever it runs: no execution ends, no final state. (Taking the
    // state where only p is left for a final one, once its step failed, once
    // reported it as a deadlock: the differential test of the stateful searches.)
    assert_eq!(spor(src, &[]).stats.final_states, 0);
    assert_eq!(naive.stats.final_states, 0);
}

/// S-POR verifies the spinlock too, storing no more states than the reference.
#[test]
fn spor_verifies_the_spinlock() {
    for n in 2..=4 {
        let full = stateful(&spinlock(), &[("N", n)]);
        let r = spor(&spinlock(), &[("N", n)]);
        assert!(r.violations.is_empty(), "N = {n}: {:?}", r.violations);
        assert_eq!(r.finals, full.finals, "N = {n}");
        assert!(r.stats.stored <= full.stats.stored, "N = {n}");
    }
}

/// The source-set searches: DE-S-POR and DL-S-POR expand the same states in these
/// programs (their `current` sets differ only in when they are filled, and, for
/// DL-S-POR, by steps that do not run after the state's step).
const SOURCE_SET_SEARCHES: [&str; 2] = ["de-spor", "dl-spor"];

fn source_sets(name: &str, source: &str, defines: &[(&str, i64)]) -> Report {
    let spec = explorer::registry::named(name).expect("a registered algorithm");
    let mut algorithm = spec.build(false, || Err(())).expect("no constraints");
    explore_all(&load(source, defines), algorithm.as_mut())
}

/// Two writes of different globals: p first, then q; q's step depends on nothing
/// before it, so `current[p] = {p}` is closed and `{p}` is a source set of the
/// initial state: 3 states stored (initial, after p, after p q), 2 transitions. The
/// reference stores 4 (`commuting_writes_meet_in_one_state`).
#[test]
fn source_set_searches_explore_commuting_writes_once() {
    for name in SOURCE_SET_SEARCHES {
        let r = source_sets(
            name,
            "global int x = 0; global int y = 0;
proc p() { x = 1; } proc q() { y = 1; }
init { spawn p(); spawn q(); }",
            &[],
        );
        assert_eq!(counts(&r), (Some(3), 3, 1, 1), "{name}");
    }
}

/// Two writes of one global: q's write after p's puts q in `current[p]`, not closed,
/// so q goes first too: both orders, the reference's 5 states and 2 final states.
#[test]
fn source_set_searches_reverse_dependent_writes() {
    for name in SOURCE_SET_SEARCHES {
        let r = source_sets(
            name,
            "global int x = 0;
proc p() { x = 1; } proc q() { x = 2; }
init { spawn p(); spawn q(); }",
            &[],
        );
        assert_eq!(counts(&r), (Some(5), 5, 2, 2), "{name}");
    }
}

/// N workers each increment their own element of an array three times: no two steps
/// of different workers are dependent, so one order of them is explored: each
/// worker's 4 steps (3 increments, then the loop's exit, an invisible step), 4N + 1
/// states stored, where the reference stores 5^N.
#[test]
fn source_set_searches_explore_independent_workers_in_one_order() {
    let src = "param N = 4;
global int[8] a;
proc w(int i) { for k in 0..3 { a[i] = a[i] + 1; yield; } }
init { for i in 0..N { spawn w(i); } }";
    for n in 2..=5 {
        for name in SOURCE_SET_SEARCHES {
            let r = source_sets(name, src, &[("N", n)]);
            let stored = 4 * n as u64 + 1;
            assert_eq!(counts(&r), (Some(stored), stored, 1, 1), "{name}, N = {n}");
        }
        let full = stateful(src, &[("N", n)]);
        assert_eq!(full.stats.stored, Some(5u64.pow(n as u32)), "N = {n}");
    }
}

/// The source-set searches on the spinlocks: the correct one verified, the split
/// one's lost update found.
#[test]
fn source_set_searches_on_the_spinlocks() {
    for name in SOURCE_SET_SEARCHES {
        for n in 2..=4 {
            let full = stateful(&spinlock(), &[("N", n)]);
            let r = source_sets(name, &spinlock(), &[("N", n)]);
            assert!(
                r.violations.is_empty(),
                "{name}, N = {n}: {:?}",
                r.violations
            );
            assert_eq!(r.finals, full.finals, "{name}, N = {n}");
        }
        let r = source_sets(name, &tests::benchmark("cyclic/spinlock_split.ic"), &[]);
        let lost: Vec<&str> = r.violations.iter().map(|v| v.message.as_str()).collect();
        assert_eq!(lost, ["assertion failed: lost update"], "{name}");
    }
}

/// The cyclic benchmarks (`benches/programs/cyclic/`), at sizes CI affords: each
/// correct lock verified by every stateful search, with the reference's final states
/// and stored states in the order the reductions promise (dl-spor <= spor <=
/// stateful); each buggy variant's assertion found by each, with a schedule that
/// replays to it. The larger sizes are in BENCHMARKS.md (`cargo run --release -p
/// benches --bin table -- --set cyclic`).
#[test]
fn the_cyclic_benchmarks_are_verified_and_their_bugs_found() {
    let correct: [(&str, &[i64]); 11] = [
        ("spinlock.ic", &[2, 3, 4]),
        ("peterson.ic", &[2]),
        ("dekker.ic", &[2]),
        ("filter.ic", &[2, 3]),
        ("ticket.ic", &[2, 3, 4]),
        ("bakery.ic", &[2]),
        ("treiber.ic", &[2, 3]),
        ("coarse_list.ic", &[2, 3]),
        ("optimistic_list.ic", &[2]),
        ("ms_queue.ic", &[2]),
        ("striped_map.ic", &[2, 3]),
    ];
    let buggy: [(&str, &[i64]); 10] = [
        ("spinlock_split.ic", &[2]),
        ("peterson_swapped.ic", &[2]),
        ("filter_buggy.ic", &[3]),
        ("ticket_buggy.ic", &[2]),
        ("bakery_buggy.ic", &[2]),
        ("treiber_buggy.ic", &[2]),
        ("coarse_list_buggy.ic", &[2]),
        ("optimistic_list_buggy.ic", &[2]),
        ("ms_queue_buggy.ic", &[2]),
        ("striped_map_buggy.ic", &[2]),
    ];
    let stored = |r: &Report| r.stats.stored.expect("a stateful search stores states");
    // The two-process models have no `param N`.
    let sized = |source: &str, n: i64| -> Vec<(&'static str, i64)> {
        if source.contains("param N") {
            vec![("N", n)]
        } else {
            Vec::new()
        }
    };
    for (file, sizes) in correct {
        let source = tests::benchmark(&format!("cyclic/{file}"));
        for &n in sizes {
            let defines = sized(&source, n);
            let full = stateful(&source, &defines);
            assert!(
                full.violations.is_empty(),
                "{file} N = {n}: {:?}",
                full.violations
            );
            let spor = spor(&source, &defines);
            for name in ["spor", "de-spor", "dl-spor"] {
                let r = if name == "spor" {
                    spor.clone()
                } else {
                    source_sets(name, &source, &defines)
                };
                assert!(
                    r.violations.is_empty(),
                    "{name}, {file} N = {n}: {:?}",
                    r.violations
                );
                assert_eq!(r.finals, full.finals, "{name}, {file} N = {n}");
                assert!(stored(&r) <= stored(&spor), "{name}, {file} N = {n}");
            }
            assert!(stored(&spor) <= stored(&full), "{file} N = {n}");
        }
    }
    for (file, sizes) in buggy {
        let source = tests::benchmark(&format!("cyclic/{file}"));
        for &n in sizes {
            let program = load(&source, &sized(&source, n));
            for name in ["stateful", "spor", "de-spor", "dl-spor"] {
                let spec = explorer::registry::named(name).expect("a registered algorithm");
                let mut algorithm = spec.build(false, || Err(())).expect("no constraints");
                let r = explorer::explore(&program, algorithm.as_mut(), Config::default());
                let v = (r.violations.first()).unwrap_or_else(|| panic!("{name}, {file}: no bug"));
                assert_eq!(v.kind, ViolationKind::Assert, "{name}, {file}: {v:?}");
                let limits = Config::default().limits;
                let replay = explorer::replay::replay(&program, limits, &v.schedule)
                    .unwrap_or_else(|e| panic!("{name}, {file}: {e}"));
                assert!(
                    matches!(replay.end, explorer::replay::End::Fault { .. }),
                    "{name}, {file}: the schedule does not end in the assertion"
                );
            }
        }
    }
}
