//! The three classes of wrong constraints found in the synthesis, each as a program:
//! the constraints now printed, the validator finding nothing wrong with them, and
//! the validator finding the counterexample when handed the old wrong constraint
//! (`true`), which shows it can fail. Plus a pair that disables itself, which the
//! validator must catch as well.

use frontend::ir::Program;
use ic_synth::validate::{validate, Counterexample, Options};

/// A loop of two iterations around a conditional write of `x`; the other block
/// reads `x` through `y`. The old abstraction of the loop ignored `x`'s value
/// before the loop and gave I(a, b) = {true}.
const LOOP_WRITE: &str = "global int x = 1; global int y = 0;
proc a() { for i in 0..2 { if (i > 5) { x = 0; } } y = x; }
proc b() { x = y; }
init { spawn b(); spawn a(); }";

/// The same loop with a bound read from the state: abstracted after two
/// iterations, so the rest of the loop may not end normally.
const LOOP_WRITE_SYMBOLIC: &str = "global int x = 1; global int y = 0; global int n = 9;
proc a() { for i in 0..n { if (i > 5) { x = 0; } } y = x; }
proc b() { x = y; }
init { spawn b(); spawn a(); }";

/// A loop that never ends in the order b·a. Constraints assumed termination and
/// gave I(a, b) = {true}.
const NON_TERMINATION: &str = "global int x = 1;
proc a() { while (x == 0) { } }  proc b() { x = 0; }
init { spawn b(); spawn a(); }";

/// `y + x` overflows in the order b·a. Integers were unbounded and gave
/// I(a, b) = {true}.
const OVERFLOW: &str = "global int x = -9223372036854775806; global int y = 0;
proc a() { int t = y + x; } proc b() { y = x; }
init { spawn a(); spawn b(); }";

/// `b` disables `a`.
const DISABLES: &str = "global int x = 0;
proc a() { await (x == 0); x = 2; } proc b() { x = 1; }
init { spawn a(); spawn b(); }";

fn load(source: &str) -> Program {
    frontend::load(source, &[]).unwrap_or_else(|d| panic!("loads: {d:?}"))
}

/// The synthesised constraints of every pair, by block names.
fn constraints(program: &Program, source: &str) -> Vec<(String, String, Vec<String>, bool)> {
    let s = ic_synth::synthesize(program, source, &ic_synth::Options::default());
    let name = |b: u32| program.blocks[b as usize].name.clone();
    s.pairs
        .iter()
        .map(|p| (name(p.a), name(p.b), p.constraints.clone(), p.exact))
        .collect()
}

fn pair(program: &Program, source: &str, a: &str, b: &str) -> (Vec<String>, bool) {
    constraints(program, source)
        .into_iter()
        .find(|(x, y, _, _)| x == a && y == b)
        .map(|(_, _, c, exact)| (c, exact))
        .unwrap_or_else(|| panic!("pair ({a}, {b}) listed"))
}

/// The validator on the synthesised constraints, or on them with `(a, b)`'s
/// replaced by `replace`.
fn validation(
    program: &Program,
    source: &str,
    replace: Option<(&str, &str, &str)>,
) -> Option<Counterexample> {
    let s = ic_synth::synthesize(program, source, &ic_synth::Options::default());
    let mut ics = ic_synth::to_ics(program, source, "p.ic", &s);
    if let Some((a, b, constraint)) = replace {
        let p = ics
            .pairs
            .iter_mut()
            .find(|p| p.a == a && p.b == b)
            .expect("pair listed");
        p.constraints = vec![constraint.to_string()];
        p.exact = false;
    }
    let resolved = ics.resolve(program).expect("constraints resolve");
    let v = validate(program, &resolved, &Options::default());
    assert!(v.enabled > 0, "some samples enable both blocks");
    v.counterexample
}

/// The validator's counterexample to `true` for `(a, b)`, whose problem is that
/// block `a` fails, with `end` (in either order).
fn fails_in_one_order(program: &Program, source: &str, end: &str) -> Counterexample {
    let c = validation(program, source, Some(("a", "b", "true"))).expect("found");
    let end = format!("block a fails: {end}");
    assert!(
        c.problem == format!("in order b·a, {end}") || c.problem == format!("in order a·b, {end}"),
        "{c}"
    );
    c
}

#[test]
fn a_conditional_write_in_a_loop_keeps_the_value_before() {
    let program = load(LOOP_WRITE);
    // The loop has constant bounds: unrolled, the analysis is exact.
    assert_eq!(
        pair(&program, LOOP_WRITE, "a", "b"),
        (vec!["x == y".to_string()], true)
    );
    assert!(validation(&program, LOOP_WRITE, None).is_none());
    let c = validation(&program, LOOP_WRITE, Some(("a", "b", "true"))).expect("found");
    assert_eq!((c.a.as_str(), c.b.as_str()), ("a", "b"));
    assert_eq!(c.constraint.as_deref(), Some("true"));
    assert!(c.problem.starts_with("global x differs: "), "{c}");
}

#[test]
fn an_abstracted_loop_claims_nothing_about_the_states_that_reach_it() {
    let program = load(LOOP_WRITE_SYMBOLIC);
    let (c, exact) = pair(&program, LOOP_WRITE_SYMBOLIC, "a", "b");
    assert!(!exact);
    // Only where the loop ends within the unrolled iterations (n <= 2), and x == y.
    assert!(!c.is_empty(), "{c:?}");
    assert!(c.iter().all(|c| c.contains("x == y")), "{c:?}");
    assert!(validation(&program, LOOP_WRITE_SYMBOLIC, None).is_none());
    let c = validation(&program, LOOP_WRITE_SYMBOLIC, Some(("a", "b", "true"))).expect("found");
    assert!(c.problem.starts_with("global x differs: "), "{c}");
}

#[test]
fn a_loop_that_may_not_terminate_is_dependent() {
    let program = load(NON_TERMINATION);
    assert_eq!(
        constraints(&program, NON_TERMINATION),
        [
            (
                "a".to_string(),
                "a".to_string(),
                vec!["x != 0".to_string()],
                false
            ),
            ("a".to_string(), "b".to_string(), vec![], false),
            (
                "b".to_string(),
                "b".to_string(),
                vec!["true".to_string()],
                true
            ),
        ]
    );
    assert!(validation(&program, NON_TERMINATION, None).is_none());
    fails_in_one_order(
        &program,
        NON_TERMINATION,
        "block did not terminate (more than 100000 steps)",
    );
}

#[test]
fn overflow_is_a_failure() {
    let program = load(OVERFLOW);
    assert_eq!(
        constraints(&program, OVERFLOW),
        [
            (
                "a".to_string(),
                "a".to_string(),
                vec!["x + y <= 9223372036854775807".to_string()],
                true
            ),
            (
                "a".to_string(),
                "b".to_string(),
                vec!["x + y <= 9223372036854775807 && x >= -4611686018427387904 \
                     && x <= 4611686018427387903"
                    .to_string()],
                true
            ),
            (
                "b".to_string(),
                "b".to_string(),
                vec!["true".to_string()],
                true
            ),
        ]
    );
    assert!(validation(&program, OVERFLOW, None).is_none());
    let c = fails_in_one_order(&program, OVERFLOW, "integer overflow in `+`");
    // The state is shown as assignments of the globals.
    assert!(c.state.starts_with("x = "), "{c}");
    assert!(c.state.contains(", y = "), "{c}");
}

/// `a` appends to `m` and `b` writes another list: they commute wherever `a` runs
/// normally, which is where `m` is shorter than the length limit (`append` fails
/// past it). Lists were unbounded, and the pair's constraint was `true`. (`m` is
/// the second list: the validator draws its list at the limit among all.)
const LONG_LIST: &str = "global list l = []; global list m = [];
proc a() { m = append(m, 1); } proc b() { l = []; }
init { spawn a(); spawn b(); }";

#[test]
fn a_list_past_the_length_limit_is_a_failure() {
    let program = load(LONG_LIST);
    assert_eq!(
        pair(&program, LONG_LIST, "a", "b"),
        (vec!["len(m) <= 1048575".to_string()], false)
    );
    assert!(validation(&program, LONG_LIST, None).is_none());
    let c = fails_in_one_order(
        &program,
        LONG_LIST,
        "`append` makes a list longer than 1048576 elements",
    );
    // The list of a million elements is shown cut short.
    assert!(c.state.contains(", m = ["), "{c}");
    assert!(c.state.len() < 400, "{c}");
}

#[test]
fn the_operations_that_overflow_are_those_of_the_interpreter() {
    // Each block fails at the boundary the interpreter checks: constraints must
    // keep those states out, and the validator samples them.
    for body in [
        "x = x + 1;",
        "x = x - 1;",
        "x = x * 2;",
        "x = x * y;",
        "x = -x;",
        "x = abs(x);",
        "x = x / y;",
        "x = x / -1;",
        "y = y + 1; x = x + y;",
    ] {
        let source =
            format!("global int x; global int y; proc a() {{ {body} }} proc b() {{ y = 3; }} init {{ spawn a(); spawn b(); }}");
        let program = load(&source);
        assert!(
            validation(&program, &source, None).is_none(),
            "{body}: the synthesised constraints are sound"
        );
        let c = validation(&program, &source, Some(("a", "a", "true")))
            .unwrap_or_else(|| panic!("{body}: `true` for (a, a) is caught"));
        assert!(
            c.problem.contains("block a fails: integer overflow")
                || c.problem.contains("block a fails: division by zero"),
            "{body}: {c}"
        );
    }
}

#[test]
fn a_pair_that_disables_itself_is_caught() {
    let program = load(DISABLES);
    assert_eq!(pair(&program, DISABLES, "a", "b"), (vec![], true));
    assert!(validation(&program, DISABLES, None).is_none());
    let c = validation(&program, DISABLES, Some(("a", "b", "true"))).expect("found");
    assert_eq!(c.problem, "in order b·a, a is not enabled after b");
    assert_eq!(c.state, "x = 0");
}

#[test]
fn validation_is_deterministic_given_a_seed() {
    let program = load(OVERFLOW);
    let s = ic_synth::synthesize(&program, OVERFLOW, &ic_synth::Options::default());
    let resolved = ic_synth::to_ics(&program, OVERFLOW, "p.ic", &s)
        .resolve(&program)
        .expect("resolves");
    let run = |seed| {
        let v = validate(
            &program,
            &resolved,
            &Options {
                seed,
                ..Options::default()
            },
        );
        (v.pairs_checked, v.enabled, v.held)
    };
    let first = run(7);
    assert_eq!(first, run(7));
    assert_eq!((first.0, first.1), (3, 900));
}

/// Blocks that read or write an array of lists get constraints (its elements are
/// values of the uninterpreted list sort, in an array from Int): which elements two
/// blocks touch, and what their lists are, decide. Two appends of the same value
/// commute wherever they land; an append and a read of a length, where the indices
/// differ. Each append also needs its list shorter than the length limit (two
/// appends to one element, two elements shorter).
#[test]
fn an_array_of_lists_is_analysed() {
    let src = "global list[2] r; global int x = 0;
        proc a() { r[0] = [1]; }  proc b() { x = len(r[1]); }
        proc d(int i) { r[i] = append(r[i], 7); }  proc e(int j) { x = len(r[j]); }
        init { spawn a(); spawn b(); spawn d(0); spawn e(1); }";
    let program = load(src);
    let one = |c: &str| (vec![c.to_string()], false);
    assert_eq!(pair(&program, src, "a", "b"), one("true"));
    assert_eq!(
        pair(&program, src, "a", "d"),
        one("len(r[i']) <= 1048575 && i' <= 1 && i' >= 0 && i' != 0")
    );
    assert_eq!(
        pair(&program, src, "d", "d"),
        (
            vec![
                "i <= 1 && i >= 0 && i == i' && len(r[i]) <= 1048574".to_string(),
                "len(r[i]) <= 1048575 && len(r[i']) <= 1048575 && i <= 1 && i' <= 1 \
                 && i >= 0 && i' >= 0 && i != i'"
                    .to_string()
            ],
            false
        )
    );
    assert_eq!(
        pair(&program, src, "d", "e"),
        one("len(r[i]) <= 1048575 && i <= 1 && j' <= 1 && i >= 0 && j' >= 0 && i != j'")
    );
}

/// Pairs are synthesised only for blocks of procs some run spawns (from `init`,
/// through the spawns of spawned procs): `u` is never spawned.
#[test]
fn procs_never_spawned_have_no_pairs() {
    let src = "global int x = 0;
        proc a() { spawn b(); }  proc b() { x = 1; }  proc u() { x = 2; }
        init { spawn a(); }";
    let program = load(src);
    let names: Vec<(String, String)> = constraints(&program, src)
        .into_iter()
        .map(|(a, b, _, _)| (a, b))
        .collect();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(names, vec![pair("a", "a"), pair("a", "b"), pair("b", "b")]);
}

/// A deadline already past leaves every pair without constraint (`timed_out`, with
/// the reason), which is sound: `ic-check --timeout` covers synthesis this way.
#[test]
fn a_past_deadline_leaves_pairs_unanalysed() {
    let src = "global int x = 0; proc a() { x = 1; } init { spawn a(); spawn a(); }";
    let program = load(src);
    let options = ic_synth::Options {
        deadline: Some(std::time::Instant::now()),
        ..ic_synth::Options::default()
    };
    let s = ic_synth::synthesize(&program, src, &options);
    assert_eq!(s.pairs.len(), 1);
    let pair = &s.pairs[0];
    assert!(pair.timed_out && pair.constraints.is_empty());
    assert_eq!(
        pair.reason.as_deref(),
        Some("not analysed: the time given ran out")
    );
}

/// A list that doubles at every turn of a loop on constants (`l = l ++ l`, 40
/// turns): unrolled, its term doubled at every turn, and the synthesis ran out of
/// memory (2.3 GB within 3 s under a 4 GB limit; a generated program of the
/// differential test took 24 GB). The block is now given up past
/// `frontend::symbolic::MAX_TERM` nodes, then analysed with its loop abstracted:
/// each pair has its answer, and `q`, which only reads the list, commutes with
/// itself (`len` is an uninterpreted function: not exact).
#[test]
fn a_list_that_doubles_in_a_loop_is_abstracted_not_unrolled() {
    let source = "global list l = [1]; global int x = 0;
        proc p() { for i in 0..40 { l = l ++ l; } }
        proc q() { x = len(l); }
        init { spawn p(); spawn q(); }";
    let program = load(source);
    let pairs = constraints(&program, source);
    let of = |a: &str, b: &str| {
        let (_, _, c, exact) = (pairs.iter())
            .find(|(x, y, _, _)| x == a && y == b)
            .unwrap_or_else(|| panic!("pair ({a}, {b})"));
        (c.clone(), *exact)
    };
    assert_eq!(of("p", "p"), (vec![], false));
    assert_eq!(of("p", "q"), (vec![], false));
    assert_eq!(of("q", "q"), (vec!["true".to_string()], false));
}
