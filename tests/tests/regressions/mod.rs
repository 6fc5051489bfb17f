//! Shrunk programs on which a reduced algorithm disagreed with `naive`, each with the
//! exact numbers `naive` derives for it (checked first, so that a change of `naive`
//! shows up here too), then the full differential comparison: every algorithm in every
//! mode ([`super::modes`], cdpor's four included) against naive.
//!
//! The programs of issues 11 and 16 (`issue_*`) state naive's result as the set of its
//! final states, each as [`tests::show_state`] prints it, and its violations.

use super::assert_agree;
use explorer::ViolationKind::{self, Assert, Deadlock, Runtime};
use std::collections::BTreeSet;

/// `naive`'s (traces, states, final states, Mazurkiewicz traces) and violations
/// (kind, message, block, schedule), then every reduced algorithm against it.
/// ocdpor on `src` beside naive's traces of its finer dependency
/// ([`explorer::algorithms::naive::Naive::with_constraints`]): naive's report, whether
/// identities may move there, and ocdpor's report.
fn ocdpor_against_finer(src: &str) -> (explorer::Report, bool, explorer::Report) {
    let program = tests::load(src, &[]);
    let ics = crate::ics_unhurried(&program, src);
    let mut naive = explorer::algorithms::naive::Naive::with_constraints(ics.clone());
    let finer = tests::explore_all(&program, &mut naive);
    let report = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::ocdpor::OptimalConstrained::new(ics)),
    );
    (finer, naive.identities_may_move(), report)
}

/// odpor-ob on `src` reaches every reads-from class naive reaches (`classes` of
/// them), in `explored` (complete, blocked) executions; then every algorithm against
/// naive. naive's report, for further checks.
fn odpor_ob_reaches_every_class(
    src: &str,
    classes: usize,
    explored: (u64, u64),
) -> explorer::Report {
    let naive = odpor_ob_reaches_the_classes(src, classes, explored);
    assert_agree(src);
    naive
}

/// The first half of [`odpor_ob_reaches_every_class`], for a program too large to
/// run every algorithm on in the test suite.
fn odpor_ob_reaches_the_classes(
    src: &str,
    classes: usize,
    explored: (u64, u64),
) -> explorer::Report {
    let program = tests::load(src, &[]);
    let naive =
        tests::explore_classes(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(naive.reads_from.len(), classes);
    let ob = tests::explore_classes(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor_ob::OptimalObservers),
    );
    assert_eq!((ob.stats.traces, ob.stats.blocked), explored);
    assert_eq!(ob.reads_from, naive.reads_from);
    naive
}

fn check(
    source: &str,
    counts: (u64, u64, u64, u64),
    violations: &[(ViolationKind, &str, &str, &str)],
) {
    let naive = tests::explore_all(
        &tests::load(source, &[]),
        &mut explorer::algorithms::naive::Naive::default(),
    );
    let s = &naive.stats;
    assert_eq!(
        (s.traces, s.states, s.final_states, s.mazurkiewicz),
        (counts.0, counts.1, counts.2, Some(counts.3)),
        "naive's counts"
    );
    let mut found: Vec<(ViolationKind, &str, &str, &str)> = naive
        .violations
        .iter()
        .map(|v| (v.kind, &*v.message, &*v.block, &*v.schedule))
        .collect();
    found.sort();
    let mut expected = violations.to_vec();
    expected.sort();
    assert_eq!(found, expected, "naive's violations");
    assert_agree(source);
}

/// odpor-cs-ob's report on `program` (every violation).
fn odpor_cs_ob(program: &frontend::ir::Program) -> explorer::Report {
    tests::explore_all(
        program,
        &mut explorer::dpor::Dpor::new(
            explorer::algorithms::odpor_cs_ob::OptimalContextSensitiveObservers::new(
                explorer::algorithms::csdpor::ContextSensitive::new(),
            ),
        ),
    )
}

/// naive's and odpor's reports on `src` (every violation).
fn naive_and_odpor(src: &str) -> (explorer::Report, explorer::Report) {
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    let odpor = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor::OptimalDpor),
    );
    (naive, odpor)
}

/// Found by the generator (seed 0x1cd9072018, first case), shrunk by proptest to:
/// q fails (`tail([])`), and each p fails (division by zero) whenever it runs. Naive:
/// no complete execution (every one ends in a failure), 1 state, both errors reported.
///
/// sdpor and csdpor run q first, record its failure, put q to sleep at the root and
/// stop: the failing event ends its execution, so no later event races with it and
/// nothing adds p to the root's backtrack set. They miss p's division by zero.
#[test]
fn failed_event_hides_other_processes_generated() {
    check(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    int t0 = (0 / 0);
}

proc q() {
    l = tail(l);
}

init {
    spawn q();
    for k in 0..2 {
        spawn p();
    }
}
",
        (0, 1, 0, 0),
        &[
            (Runtime, "`tail` of an empty list", "q", "q"),
            (Runtime, "division by zero", "p", "p@2"),
        ],
    );
}

/// The same bug, minimised by hand: two failing assertions; the reduced algorithms
/// report only p's.
#[test]
fn failed_event_hides_other_processes() {
    check(
        "proc p() { assert(false, \"p\"); }
         proc q() { assert(false, \"q\"); }
         init { spawn p(); spawn q(); }",
        (0, 1, 0, 0),
        &[
            (Assert, "assertion failed: p", "p", "p"),
            (Assert, "assertion failed: q", "q", "q"),
        ],
    );
}

/// The same bug loses final states and deadlocks too: p fails if it runs first; after
/// q it waits forever (a deadlock, the only final state). The reduced algorithms see
/// p fail at the root and stop there: 0 traces, 0 final states, no deadlock.
#[test]
fn failed_event_hides_a_deadlock() {
    check(
        "global int x = 0;
         proc p() { await (x == 0); assert(false, \"p\"); }
         proc q() { x = 1; }
         init { spawn p(); spawn q(); }",
        (1, 2, 1, 1),
        &[
            (Assert, "assertion failed: p", "p", "p"),
            (Deadlock, "deadlock: p at p waiting", "p", "q"),
        ],
    );
}

/// Found by the generator (seed 0x1cd9072018, first case after the fix above), shrunk
/// by proptest: q may set z = -1, which disables r's `await`. Naive: r then q (both
/// end), or q then r stuck (a deadlock): 2 traces, 2 final states, 2 Mazurkiewicz
/// traces (r's guard reads z, q writes it).
///
/// sdpor and csdpor explore only q r: r never runs after q, so no race between q's
/// write and r's guard is ever seen and r is never tried first. They miss the final
/// state where r ended and explore 1 trace for 2 Mazurkiewicz traces.
#[test]
fn disabled_await_is_a_race_generated() {
    check(
        "param K = 0;
global int x = 0;
global int y = -2;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [0];

proc q(int v) {
    if (a[0] > y) {
        z = (0 == 0 ? (-1) : 0);
    }
}

proc r() {
    await (head(l) <= z);
}

init {
    spawn q(0);
    spawn r();
}
",
        (2, 4, 2, 2),
        &[(Deadlock, "deadlock: r at r waiting", "r", "q")],
    );
}

/// The same, minimised by hand.
#[test]
fn disabled_await_is_a_race() {
    check(
        "global int z = 0;
         proc q() { z = 1; }
         proc r() { await (z == 0); }
         init { spawn q(); spawn r(); }",
        (2, 4, 2, 2),
        &[(Deadlock, "deadlock: r at r waiting", "r", "q")],
    );
}

/// The same with the `await` after a `yield` (r's blocks: r, r#1, then r#2 guarded):
/// naive has 4 traces (q before r, between r and r#1, between r#1 and r#2, after),
/// 2 final states, 2 Mazurkiewicz traces; the reduced algorithms explore 1.
#[test]
fn disabled_await_after_yield_is_a_race() {
    check(
        "global int z = 0;
         proc q() { z = 1; }
         proc r() { yield; await (z == 0); }
         init { spawn q(); spawn r(); }",
        (4, 11, 2, 2),
        &[(Deadlock, "deadlock: r at r#2 waiting", "r#2", "q r r")],
    );
}

/// Found by the generator (seed 0x1cd9072018, with the two bugs above fixed), shrunk by
/// proptest: p divides by y, q sets y = -1. p first fails (no complete execution); q
/// first, then p and q#1 in either order: 2 traces (1 Mazurkiewicz trace), 6 states,
/// 1 final state (x = -1, y = -1, all ended).
///
/// csdpor explores p (fails) then q: the race between p's failed read of y and q's
/// write is reversed, and line 13 compares s[p q] with s[q p]: equal, because a
/// process stopped by a failure (no next block) looks exactly like one that ended. So
/// `q p` goes to the root's sleep set and the only complete execution is lost
/// (0 final states). A failed event must make its state differ from every state
/// without the failure (or its executions must not take part in state comparisons).
#[test]
fn failed_process_is_not_an_ended_one_generated() {
    check(
        "param K = 0;
global int x = -1;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    int t0 = (0 / y);
    x = x;
}

proc q() {
    y = (0 + (-1));
    yield;
}

init {
    spawn p();
    spawn q();
}
",
        (2, 6, 1, 1),
        &[(Runtime, "division by zero", "p", "p")],
    );
}

/// The same, minimised by hand: p first fails; q then p ends (1 trace, 3 states).
#[test]
fn failed_process_is_not_an_ended_one() {
    check(
        "global int y = 0;
         proc p() { int t = 1 / y; }
         proc q() { y = 1; }
         init { spawn p(); spawn q(); }",
        (1, 3, 1, 1),
        &[(Runtime, "division by zero", "p", "p")],
    );
}

/// Found by the generator (with the bugs above fixed), shrunk by proptest: two p's each
/// spawn a q that waits forever. Naive: 2 interleavings of the independent p's, 1
/// Mazurkiewicz trace, 1 final state — a deadlock, which naive reported twice while the
/// message listed the blocked processes in creation order (`q@2.1 at q, q@1.1 at q`
/// after `p@2 p@1`); now they are listed by identity and every algorithm reports one.
#[test]
fn deadlock_message_is_a_function_of_the_state_generated() {
    check(
        "param K = 0;
global int x = -1;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    spawn q();
    yield;
}

proc q() {
    await (x == y);
    x = 0;
}

init {
    spawn p();
    spawn p();
}
",
        (6, 19, 1, 1),
        &[(
            Deadlock,
            "deadlock: q@1.1 at q, q@2.1 at q waiting",
            "q",
            "p@1 p@1 p@2 p@2",
        )],
    );
}

/// The same, minimised by hand.
#[test]
fn deadlock_message_is_a_function_of_the_state() {
    check(
        "proc p() { spawn q(); }
         proc q() { await (false); }
         init { spawn p(); spawn p(); }",
        (2, 5, 1, 1),
        &[(
            Deadlock,
            "deadlock: q@1.1 at q, q@2.1 at q waiting",
            "q",
            "p@1 p@2",
        )],
    );
}

/// Found by the generator (with the bugs above fixed), shrunk by proptest; the final
/// state x = 2 (r before p before q's `z = -2`) is missed by csdpor.
#[test]
fn state_pruning_loses_a_race_generated() {
    check(
        "param K = 0;
global int x = 2;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    if (false) {
        x = 0;
    } else {
        for i0 in 0..1 {
            x = (2 + z);
        }
    }
    l = append(l, a[(abs(x) % 3)]);
}

proc q() {
    if (x != 0) {
        z = (-1);
        for i0 in 0..1 {
            x = 0;
            spawn r();
        }
    }
    yield;
    if (a[0] == (-1)) {
        x = 0;
    } else {
        yield;
    }
    z = (-2);
}

proc r() {
    a[1] = 0;
    x = a[0];
}

init {
    spawn p();
    spawn q();
}

",
        (15, 46, 2, 11),
        &[],
    );
}

/// The same, minimised by hand. Blocks: p (x = 2 + z), q (empty, yield), q' (z = -2),
/// r (x = 0). x ends at 2 exactly when r < p < q'; otherwise at 0. Naive: 12 traces,
/// 35 states, 2 final states, 4 Mazurkiewicz traces; sdpor: p q q' r, q q' p r,
/// q q' r p, q r p q' (x = 2). csdpor (also `--literal`): p q q' r, then under q (p
/// asleep) q q' p r; its race p ⋖ r at [q q'] passes line 13 (s[q q' p r] =
/// s[q q' r p]: x = 0 both, since 2 + (-2) = 0), so `r p` sleeps at [q q'] and
/// q q' r p is blocked. That pruned execution carried the race q' ⋖ p with v = r p,
/// whose initial r had to go to backtrack([q]); the kept execution's version of the
/// race (v = p) offers only p, asleep at [q]. q r p q' is never explored: csdpor has
/// 1 final state (x = 0) instead of 2.
#[test]
fn state_pruning_loses_a_race() {
    check(
        "global int x = 2;
         global int z = 0;
         proc p() { x = 2 + z; }
         proc q() { yield; z = -2; }
         proc r() { x = 0; }
         init { spawn p(); spawn q(); spawn r(); }",
        (12, 35, 2, 4),
        &[],
    );
}

/// Found by the generator (with the bugs above fixed), shrunk by proptest: q's guard
/// `(y / x) == 0` divides by zero while x = 0 (so q counts as enabled and fails), and
/// is false once a p has set x = y = -1 (q then waits forever). Naive: 2 Mazurkiewicz
/// traces (the p's write x in either order, q stuck); sdpor explores 1.
///
/// Cause: `Machine::run_block` (frontend/src/interp.rs) returns early with `?` when the
/// guard fails, before `fx.normalize()`: the failed event's reads stay in access order
/// ([y, x]), and `Footprint::conflicts`, a merge of sorted lists, misses its conflict
/// with the p's writes of x. With a guard reading one global only, it works.
#[test]
fn failing_guard_footprint_generated() {
    check(
        "param K = 0;
global int x = 0;
global int y = -1;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    int n0 = 0;
    while (n0 < 1) {
        n0 = n0 + 1;
        int n1 = 0;
        while (n1 < 1) {
            n1 = n1 + 1;
            x = y;
            l = append(l, 0);
        }
    }
    yield;
}

proc q(int v) {
    int t0 = (y == 0 ? 0 : K);
    int t1 = a[0];
    if (a[0] > 0) {
        x = 0;
    } else {
        await ((y / x) == 0);
    }
}

init {
    spawn p();
    spawn q(0);
    spawn p();
}
",
        (30, 90, 1, 6),
        &[
            (
                Deadlock,
                "deadlock: q at q#1 waiting",
                "q#1",
                "p@1 p@1 q p@3 p@3",
            ),
            (Runtime, "division by zero", "q#1", "q q"),
        ],
    );
}

/// The same, minimised by hand, where it also loses a final state: p sets x = -1, r
/// sets x = -2; q's guard `y / x == 5` fails while x = 0 and is false after either.
/// Naive: 6 traces, 16 states, 2 final states (x = -1 or -2, q stuck), 2 Mazurkiewicz
/// traces. sdpor and csdpor: p q r only (1 trace, 1 final state): in q q#1(failed) …,
/// the failed event reads [y, x] unsorted and seems independent of p and r.
#[test]
fn failing_guard_footprint() {
    check(
        "global int x = 0;
         global int y = -1;
         proc p() { x = y; }
         proc r() { x = y - 1; }
         proc q() { int t = 0; await (y / x == 5); }
         init { spawn p(); spawn q(); spawn r(); }",
        (6, 16, 2, 2),
        &[
            (Deadlock, "deadlock: q at q#1 waiting", "q#1", "p q r"),
            (Runtime, "division by zero", "q#1", "q q"),
        ],
    );
}

/// Found by the generator (with the bugs above fixed), shrunk by proptest: each q
/// yields only if `v != z`, so whether its first block also writes `a[0]` depends on
/// whether a p (z = -1) ran before it. With transition footprints each q's first
/// block may read z and write a[0] whatever z holds, q#1 writes a[0], each p reads x
/// and writes z: 58 Mazurkiewicz traces among naive's 110 executions (counted again
/// by a separate enumeration of the 110 with those footprints).
#[test]
fn state_dependent_block_extent_generated() {
    check(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    z = (-1);
    assert(x >= 0);
}

proc q(int v) {
    int n0 = 0;
    while (n0 < 1 && (v != z)) {
        n0 = n0 + 1;
        yield;
    }
    a[0] = 0;
}

init {
    spawn p();
    spawn q(0);
    spawn p();
    spawn q(1);
}
",
        (110, 327, 1, 58),
        &[],
    );
}

/// The same, minimised by hand. q's first block reads z and, if p has not run
/// (z == 0), also writes w; after p it yields and q#1 writes w. r reads z, yields, and
/// r#1 writes w. Naive: 16 traces, 50 states, 1 final state, 7 Mazurkiewicz traces;
/// sdpor explores 6: never `r r#1 q p` (q's single block after r#1, before p).
///
/// sdpor's executions: p q q r r, p q r r q, q p r r, q r p r, r p q q r, r p q r q.
/// The race q ⋖ r#1 (in q r p r#1, on w) is reversed at the root by r, already there.
/// Under [r], q is asleep (explored at the root, independent of r), and every
/// execution starts with p, which does not conflict with r#1: no race ever puts r#1
/// in backtrack([r]). With instruction-level events q's read of z and write of w
/// would be two events, and the sleeping q (its read only) would cover the trace; here
/// they form one event only when p has not run.
#[test]
fn state_dependent_block_extent() {
    check(
        "global int z = 0;
         global int w = 0;
         proc p() { z = -1; }
         proc q() { if (z != 0) { yield; } w = 0; }
         proc r() { int t = z; yield; w = 0; }
         init { spawn p(); spawn q(); spawn r(); }",
        (16, 50, 1, 9),
        &[],
    );
}

/// The same trace made visible in the final state: `r r#1 q p` is the only one
/// ending with y = 0 (q did not yield) and w = 5 (r#1 wrote before q). Naive: 4 final
/// states, 7 Mazurkiewicz traces; sdpor: 3 final states, 6 traces.
#[test]
fn state_dependent_block_extent_loses_a_final_state() {
    check(
        "global int z = 0;
         global int w = 0;
         global int y = 0;
         proc p() { z = 1; }
         proc q() { if (z != 0) { yield; y = 1; } w = w * 3 + 2; }
         proc r() { int t = z; yield; w = w * 3 + 1; }
         init { spawn p(); spawn q(); spawn r(); }",
        (16, 50, 4, 9),
        &[],
    );
}

/// Found by the generator (with the failed-event, probe, failing-guard and csdpor
/// state-check bugs patched out), shrunk by proptest: q succeeds only before r's
/// `l = take(l, head(l))` empties the list. Naive: 18 Mazurkiewicz traces; sdpor 14.
#[test]
fn order_dependent_failure_generated() {
    check(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = -1;
global bool b = false;
global int[3] a;
global map m;
global list l = [0];

proc p() {
    x = 0;
    x = 0;
}

proc q() {
    x = head(l);
    y = 0;
}

proc r() {
    if (x <= 0) {
        for i0 in 0..1 {
            yield;
        }
        yield;
    }
    l = take(l, head(l));
}

proc s() {
    for i0 in 0..min(x, 1) {
        x = 0;
    }
    a[0] = 0;
}

init {
    spawn p();
    spawn q();
    spawn r();
    spawn s();
}

",
        (90, 323, 1, 24),
        &[(Runtime, "`head` of an empty list", "q", "p r r r q")],
    );
}

/// The same, minimised by hand. q (x = head(l)) succeeds before r#1 (l = []) and fails
/// after it; s reads x. Naive: 8 traces, 30 states, 1 final state, 2 Mazurkiewicz
/// traces (s before or after q); sdpor explores only q r r#1 s.
///
/// The race q ⋖ s (on x) is reversed at the root with v = r s, and sdpor picks the
/// initial r. Under [r], q is asleep until r#1 runs, and after r#1 q's block fails:
/// it reads l and writes nothing, so it no longer conflicts with s. No race ever puts
/// s in backtrack([r]), and `r s q r#1` (s before q) is lost. Same family as
/// `state_dependent_block_extent`: the reversal relies on the chosen initial's
/// subtree re-detecting a race whose event is different there (with instruction-level
/// events the reversal point would be after q's read of l). Following the whole
/// reversed sequence `v` from E' (like a wakeup sequence) would avoid it.
#[test]
fn order_dependent_failure() {
    check(
        "global int x = 0;
         global list l = [0];
         proc q() { x = head(l); }
         proc r() { yield; l = []; }
         proc s() { int t = x; }
         init { spawn q(); spawn r(); spawn s(); }",
        (8, 30, 1, 2),
        &[(Runtime, "`head` of an empty list", "q", "r r q")],
    );
}

/// The same with s copying x: the lost trace is the only one ending with y = 0.
/// Naive: 2 final states; sdpor and csdpor: 1.
#[test]
fn order_dependent_failure_loses_a_final_state() {
    check(
        "global int x = 0;
         global int y = 0;
         global list l = [0];
         proc q() { x = head(l) + 1; }
         proc r() { yield; l = []; }
         proc s() { y = x; }
         init { spawn q(); spawn r(); spawn s(); }",
        (8, 30, 2, 2),
        &[(Runtime, "`head` of an empty list", "q", "r r q")],
    );
}

/// naive's final states (as [`tests::show_state`] shows them) and violations (kind,
/// message, block, schedule), exactly, with the differential test's limits (a block
/// fails after 1,000 steps); then every mode against naive.
fn check_finals(source: &str, finals: &[&str], violations: &[(ViolationKind, &str, &str, &str)]) {
    let program = tests::load(source, &[]);
    let (naive, shown) = tests::explore_shown(
        &program,
        &mut explorer::algorithms::naive::Naive::default(),
        super::config(),
    );
    assert_eq!(
        shown.len() as u64,
        naive.stats.final_states,
        "every final state of naive replays"
    );
    let found: BTreeSet<&str> = shown.values().map(String::as_str).collect();
    let expected: BTreeSet<&str> = finals.iter().copied().collect();
    assert_eq!(found, expected, "naive's final states");
    let mut found: Vec<(ViolationKind, &str, &str, &str)> = naive
        .violations
        .iter()
        .map(|v| (v.kind, &*v.message, &*v.block, &*v.schedule))
        .collect();
    found.sort();
    let mut expected = violations.to_vec();
    expected.sort();
    assert_eq!(found, expected, "naive's violations");
    assert_agree(source);
}

/// Issue 11, "aab": two instances of `x = 1` and a reader. y ends 0 when b runs before
/// both a's, 1 otherwise; x always ends 1.
#[test]
fn issue_aab() {
    check_finals(
        "global int x = 0;
         global int y = 0;
         proc a() { x = 1; }
         proc b() { y = x; }
         init { spawn a(); spawn a(); spawn b(); }",
        &["x = 1, y = 0 | ended", "x = 1, y = 1 | ended"],
        &[],
    );
}

/// "aab" with an assertion: b fails when it runs before both a's (naive finds it last,
/// on `b` alone); every complete execution ends with x = y = 1.
#[test]
fn issue_aab_assert() {
    check_finals(
        "global int x = 0;
         global int y = 0;
         proc a() { x = 1; }
         proc b() { y = x; assert(y == 1); }
         init { spawn a(); spawn a(); spawn b(); }",
        &["x = 1, y = 1 | ended"],
        &[(Assert, "assertion failed", "b", "b")],
    );
}

/// Class 1: a loop of two iterations around a write that never happens (`i > 5`), then
/// `y = x`; b copies y into x. b first: x = y = 0; a first: x = y = 1.
#[test]
fn issue_class1_loop_around_dead_write() {
    check_finals(
        "global int x = 1;
         global int y = 0;
         proc a() { for i in 0..2 { if (i > 5) { x = 0; } } y = x; }
         proc b() { x = y; }
         init { spawn b(); spawn a(); }",
        &["x = 0, y = 0 | ended", "x = 1, y = 1 | ended"],
        &[],
    );
}

/// Class 2: r waits for x != 0; a and b write 1 and 2. r always runs eventually; x ends
/// as the last writer left it.
#[test]
fn issue_class2_await_only() {
    check_finals(
        "global int x = 0;
         proc a() { x = 1; }
         proc b() { x = 2; }
         proc r() { await (x != 0); }
         init { spawn a(); spawn r(); spawn b(); }",
        &["x = 1 | ended", "x = 2 | ended"],
        &[],
    );
}

/// Class 3: two instances of `y = y + 1`; r sets x only if it runs before both.
#[test]
fn issue_class3_two_increments() {
    check_finals(
        "global int x = 0;
         global int y = 0;
         proc inc() { y = y + 1; }
         proc r() { if (y == 0) { x = 1; } }
         init { spawn inc(); spawn inc(); spawn r(); }",
        &["x = 0, y = 2 | ended", "x = 1, y = 2 | ended"],
        &[],
    );
}

/// Class 4: a spins while x == 0. a first: it leaves at once, then b sets x = 0;
/// b first: a never terminates (a runtime error after 1,000 steps).
const CLASS4: &str = "global int x = 1;
     proc a() { while (x == 0) { } }
     proc b() { x = 0; }
     init { spawn b(); spawn a(); }";

#[test]
fn issue_class4_spin() {
    check_finals(
        CLASS4,
        &["x = 0 | ended"],
        &[(
            Runtime,
            "block did not terminate (more than 1000 steps)",
            "a",
            "b a",
        )],
    );
}

/// Class 4 with the spawns the other way round.
#[test]
fn issue_class4_spin_other_spawn_order() {
    check_finals(
        &CLASS4.replace("spawn b(); spawn a();", "spawn a(); spawn b();"),
        &["x = 0 | ended"],
        &[(
            Runtime,
            "block did not terminate (more than 1000 steps)",
            "a",
            "b a",
        )],
    );
}

/// Class 5: x = i64::MIN + 2. a sums y + x: fine while y = 0, an overflow once b has
/// copied x into y.
#[test]
fn issue_class5_overflow() {
    check_finals(
        "global int x = -9223372036854775806;
         global int y = 0;
         proc a() { int t = y + x; }
         proc b() { y = x; }
         init { spawn a(); spawn b(); }",
        &["x = -9223372036854775806, y = -9223372036854775806 | ended"],
        &[(Runtime, "integer overflow in `+`", "a", "b a")],
    );
}

/// One producer and one consumer as actors: for each item the producer spawns a
/// `store(k)` task and waits for its future (`done[k] == 1`, written by the task's
/// last block), the consumer likewise a `remove(k)` task (`done[N + k]`). A remove
/// takes the buffer's head, or records -1 when it is empty. The stores run in order,
/// the removes too; remove k succeeds exactly when more stores than successful removes
/// came before it, and every pattern of successes is reachable (run a store just
/// before each remove that should succeed), so naive finds 2^N final states: `taken`
/// holds -1 for each failed remove and 1, 2, … in order for the others, `buffer` the
/// items not taken.
fn actors(n: u32) -> String {
    format!(
        "param N = {n};
         global list buffer = [];
         global list taken = [];
         global map done;
         proc store(int k) {{ buffer = append(buffer, k + 1); done[k] = 1; }}
         proc remove(int k) {{
             if (len(buffer) > 0) {{
                 taken = append(taken, head(buffer));
                 buffer = tail(buffer);
             }} else {{
                 taken = append(taken, -1);
             }}
             done[N + k] = 1;
         }}
         proc producer() {{ for i in 0..N {{ spawn store(i); await (done[i] == 1); }} }}
         proc consumer() {{ for i in 0..N {{ spawn remove(i); await (done[N + i] == 1); }} }}
         init {{ spawn producer(); spawn consumer(); }}"
    )
}

#[test]
fn issue_actor_producer_consumer_2() {
    let done = "done = {0: 1, 1: 1, 2: 1, 3: 1}";
    check_finals(
        &actors(2),
        &[
            &format!("buffer = [1, 2], taken = [-1, -1], {done} | ended"),
            &format!("buffer = [2], taken = [-1, 1], {done} | ended"),
            &format!("buffer = [2], taken = [1, -1], {done} | ended"),
            &format!("buffer = [], taken = [1, 2], {done} | ended"),
        ],
        &[],
    );
}

#[test]
fn issue_actor_producer_consumer_3() {
    let done = "done = {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}";
    check_finals(
        &actors(3),
        &[
            &format!("buffer = [1, 2, 3], taken = [-1, -1, -1], {done} | ended"),
            &format!("buffer = [2, 3], taken = [-1, -1, 1], {done} | ended"),
            &format!("buffer = [2, 3], taken = [-1, 1, -1], {done} | ended"),
            &format!("buffer = [2, 3], taken = [1, -1, -1], {done} | ended"),
            &format!("buffer = [3], taken = [-1, 1, 2], {done} | ended"),
            &format!("buffer = [3], taken = [1, -1, 2], {done} | ended"),
            &format!("buffer = [3], taken = [1, 2, -1], {done} | ended"),
            &format!("buffer = [], taken = [1, 2, 3], {done} | ended"),
        ],
        &[],
    );
}

/// Found by the first campaign (IC_DIFF_SEED=20240611, 3,000 programs; 9 programs
/// shrank to it): issue 11's "aab" exactly, as the generator writes it. cdpor with
/// `--deps static` (both `--literal` settings) explores one trace and misses y = 0.
#[test]
fn campaign_aab_generated() {
    check_finals(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    x = 1;
}

proc q() {
    y = x;
}

init {
    spawn p();
    spawn p();
    spawn q();
}
",
        &[
            "x = 1, y = 0, z = 0, b = false, a = [0, 0, 0], m = {}, l = [] | ended",
            "x = 1, y = 1, z = 0, b = false, a = [0, 0, 0], m = {}, l = [] | ended",
        ],
        &[],
    );
}

/// Found by the first campaign (9 programs): class 4 with a negation. p sets z = -y = 1;
/// q spins while z == 1. q first: it leaves at once, then p (the only final state);
/// p first: q never terminates. cdpor in every mode explores no complete execution.
#[test]
fn campaign_spin_negation_generated() {
    check_finals(
        "param K = 2;
global int x = 0;
global int y = -1;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    z = (-y);
}

proc q() {
    while (z == 1) { }
}

init {
    spawn p();
    spawn q();
}
",
        &["x = 0, y = -1, z = 1, b = false, a = [0, 0, 0], m = {}, l = [] | ended"],
        &[(
            Runtime,
            "block did not terminate (more than 1000 steps)",
            "q",
            "p q",
        )],
    );
}

/// Found by the first campaign (6 programs): class 4 itself. q first makes p spin
/// forever; cdpor with `--deps static` (both `--literal` settings) misses that
/// runtime error.
#[test]
fn campaign_spin_generated() {
    check_finals(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = 1;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    while (z == 0) { }
}

proc q() {
    z = 0;
}

init {
    spawn p();
    spawn q();
}
",
        &["x = 0, y = 0, z = 0, b = false, a = [0, 0, 0], m = {}, l = [] | ended"],
        &[(
            Runtime,
            "block did not terminate (more than 1000 steps)",
            "p",
            "q p",
        )],
    );
}

/// Found by the first campaign (2 programs): two q's write x = 1 (equal values by the
/// same proc spawned twice), p writes z under `if (x == 0)` (a guarded write), r copies
/// x into z after a loop of awaits. cdpor with `--deps static` (not `--literal`) misses
/// a final state: the aab and class 3 shapes together. Naive: x ends 1; z ends as r
/// copied x (1 when a q ran before r); l holds z as p found it (1 only for q < r < p).
#[test]
fn campaign_two_writers_guarded_write_generated() {
    check_finals(
        "param K = 0;
global int x = 0;
global int y = 0;
global int z = 0;
global bool b = false;
global int[3] a;
global map m;
global list l = [];

proc p() {
    l = append(l, z);
    if (x == 0) {
        z = 0;
    }
}

proc q() {
    x = 1;
    int t0 = (x + z);
}

proc r() {
    for i0 in 0..min(x, 1) {
        await ((x >= x) || (z < 1));
    }
    z = x;
}

init {
    spawn p();
    spawn q();
    spawn q();
    spawn r();
}
",
        &[
            "x = 1, y = 0, z = 0, b = false, a = [0, 0, 0], m = {}, l = [0] | ended",
            "x = 1, y = 0, z = 1, b = false, a = [0, 0, 0], m = {}, l = [0] | ended",
            "x = 1, y = 0, z = 1, b = false, a = [0, 0, 0], m = {}, l = [1] | ended",
        ],
        &[],
    );
}

/// Found by a 10,000-program campaign (`IC_DIFF_SEED=11111`), hand-minimised: two
/// events falsify r's guard (`z = 0` twice). Restricting probes to reversible races
/// lost the order where r passes its `await` before both writes: at the probe, only
/// the last write races with it, and z is 0 without it too. Every mode now reverses
/// every race of a probe (`explorer/src/dpor.rs`, `reversible`).
#[test]
fn probe_two_falsifying_writes() {
    check_finals(
        "global int z = 1;
proc p() { z = 0; }
proc r() { yield; await (z != 0); }
init { spawn p(); spawn p(); spawn r(); }
",
        &["z = 0 | ended", "z = 0 | r at r#2"],
        &[(Deadlock, "deadlock: r at r#2 waiting", "r#2", "p@1 p@2 r r")],
    );
}

/// Found by a 10,000-program campaign (`IC_DIFF_SEED=22222`), hand-minimised: the same
/// with a guard comparing two globals, falsified by two equal writes of y.
#[test]
fn probe_two_equal_writes_to_a_compared_global() {
    check_finals(
        "global int y = 1; global int z = 1;
proc p() { y = 0; }
proc q() { int t0 = z; await (z == y); }
init { spawn p(); spawn p(); spawn q(); }
",
        &["y = 0, z = 1 | ended", "y = 0, z = 1 | q at q#1"],
        &[(Deadlock, "deadlock: q at q#1 waiting", "q#1", "p@1 p@2 q")],
    );
}

/// Found by a 10,000-program campaign (`IC_DIFF_SEED=33333` and `44444`): sdpor
/// explored 5 of naive's 7 Mazurkiewicz traces (the two where r passes its `await`
/// before p and q) when races whose `await` could not pass in `s[E'.notdep(e,E)]`
/// were skipped: the race p ⋖ r#2 after `r q p r` is such a race, yet its initial
/// r#1 brings r to its guard early, where the probe climbs to q's write.
#[test]
fn irreversible_await_race_still_climbs() {
    check_finals(
        "global int x = 0; global int z = 1;
proc p() { z = 0; z = 1; }
proc q() { z = 0; x = 0; x = 1; }
proc r() { int t0 = x; yield; await (z != 0); }
init { spawn p(); spawn q(); spawn r(); }
",
        &[
            "x = 1, z = 0 | ended",
            "x = 1, z = 0 | r at r#2",
            "x = 1, z = 1 | ended",
        ],
        &[(Deadlock, "deadlock: r at r#2 waiting", "r#2", "p q r r")],
    );
}

/// Found by a 10,000-program campaign (`IC_DIFF_SEED=66666`), hand-minimised: p's
/// `await (head(l) >= 0)` cannot be evaluated while `l` is empty, so p may run there
/// and fail; cdpor's line 17 kept p asleep after q because `I(p#1, q)` held in that
/// state, but a constraint speaks only of states where both guards hold. cdpor then
/// explored no complete execution.
#[test]
fn constraint_where_a_guard_cannot_be_evaluated() {
    check_finals(
        "global int x = 0; global list l = [];
proc p() { if (x == 1) { x = 0; } else { await (head(l) >= 0); } }
proc q() { x = 0; l = l ++ [x]; }
init { spawn p(); spawn q(); }
",
        &["x = 0, l = [0] | ended"],
        &[(Runtime, "`head` of an empty list", "p#1", "p p")],
    );
}

/// Found by the differential test in CI (seed 11605175261934495728), shrunk by
/// proptest: both p's read `x` once `b` holds, q falsifies `b`, r writes `x`. The 9
/// Mazurkiewicz traces: both p's before q, each before or after r (4); one p before
/// q, before or after r, the other blocked (2 + 2); both blocked (1). sdpor explored
/// 8: never p@2, r, p@1. From [p@2], p@1 is asleep and q's probe of p@1 asked for
/// p@1 — an initial already in the backtrack set — so r was never tried there. The
/// probe stands for p's whole block, which reads `x`: the reversal needs r first
/// (`race::initials` with the block's footprint, and the probe analysed again after
/// r).
#[test]
fn probe_reversal_behind_a_write_it_reads() {
    check(
        "global int x = -1;
global int y = 0;
global int z = -1;
global bool b = true;

proc p() {
    await (b);
    int t0 = (x + y);
}

proc q() {
    b = z != z;
    yield;
}

proc r() {
    x = (x + 1);
}

init {
    for k in 0..2 {
        spawn p();
    }
    spawn q();
    spawn r();
}
",
        (21, 63, 3, 9),
        &[
            (
                ViolationKind::Deadlock,
                "deadlock: p@2 at p waiting",
                "p",
                "p@1 q q r",
            ),
            (
                ViolationKind::Deadlock,
                "deadlock: p@1 at p waiting",
                "p",
                "p@2 q q r",
            ),
            (
                ViolationKind::Deadlock,
                "deadlock: p@1 at p, p@2 at p waiting",
                "p",
                "q q r",
            ),
        ],
    );
}

/// Found by the generator (seed 18100252334715379911), shrunk by proptest (unused
/// globals left out): three p's each set `x = 1` (their loop writes 0 first, in the
/// same block), and q can pass `await (x <= 0)` only before all of them. odpor missed
/// q's ending: the race of the last p with q's probe cannot be reversed (the other
/// p's wrote `x` before it), so its sequence only brings q's first block forward, for
/// a probe to race with the earlier writes. Inserted without the probe's step, that
/// sequence (`q`) looked covered by the branch `p@2` already in the tree (`p@2` and
/// `q`'s first block commute), whose continuation runs q's first block after a write
/// to `x`: the probe never met a state with `x <= 0`. With the await's step kept at
/// the end of the sequence (its block's footprint reads `x`), no branch that writes
/// `x` first covers it. Naive: 30 executions, 12 Mazurkiewicz traces; the deadlock
/// after every p is the only violation.
#[test]
fn odpor_climb_is_not_covered_by_a_write_first() {
    check(
        "global int x = -1;
global int y = 0;
global list[2] c;

proc p() {
    int n0 = 0;
    while (n0 < 2) {
        n0 = n0 + 1;
        if (n0 > 0) {
            x = 0;
        }
    }
    x = 1;
}

proc q(int v) {
    y = len(c[0]);
    await (!(x > 0));
}

init {
    spawn p();
    spawn p();
    spawn p();
    spawn q(0);
}
",
        (30, 81, 2, 12),
        &[(
            ViolationKind::Deadlock,
            "deadlock: q at q#1 waiting",
            "q#1",
            "p@1 p@2 p@3 q",
        )],
    );
}

/// Found by the differential test on odpor-cs (seed 2), shrunk by hand to the part
/// that matters: a appends z to c, b appends z if it is -1 and then yields (an empty
/// block `b#1`), q doubles z, r sets it to -1. odpor-cs missed z = -2, c = [0, -1]
/// (a r b b q). After a.b, `b#1` ran and reached a state already reached (b.b.a): that
/// execution was blocked, and `b` was put to sleep at a.b as if explored. The race of
/// a.b.q.r between q and r then asked for `r` at a.b, and the sleeping `b` (its empty
/// `b#1` commutes with r) made that sequence look redundant — but nothing below a.b.b
/// was explored, so the race of b with r it leads to (r before b, at a) was never
/// seen. A step whose execution stopped at a state already reached is now recorded
/// in `dnd(E)` (it blocks again, and passes to independent siblings), not in
/// `done(E)` (ISSTA'19 Alg. 1, lines 26 and 40). Naive: 60 executions, 24
/// Mazurkiewicz traces, 10 final states.
#[test]
fn odpor_cs_blocked_step_covers_no_race() {
    check(
        "global int z = 0;
global list c = [];
proc a() { c = append(c, z); }
proc b() { if (z == -1) { c = append(c, z); } yield; }
proc q() { z = z * 2; }
proc r() { z = -1; }
init { spawn b(); spawn q(); spawn a(); spawn r(); }
",
        (60, 171, 10, 24),
        &[],
    );
}

/// Found by the campaign `IC_DIFF_SEED=134` on odpor-cs with csdpor's commutation of
/// sleeping steps (its note 6), shrunk by hand: two p's set x = 1, q sets y = 1 (its
/// initial value) while x = 0, r sets y = 0. odpor-cs missed y = 1 (r q p p). Below
/// p@1 r, q (asleep at p@1) was kept asleep past r, and past p@4, because they
/// commute in those states (q writes nothing once x = 1), as a confirmed don't-do
/// step. When q finally ran at p@1 r r p@4 and blocked, its race with p@4 asked for q
/// at p@1 r r — refused as "repeating a step already run and blocked there", which q
/// had never been: its race with p@1, which reaches r q p p from the root, was never
/// seen. Only a step run and blocked at the node makes a new branch there redundant.
/// Naive: 24 executions, 65 states, 2 final states, 12 Mazurkiewicz traces; odpor-cs
/// 2 complete, 0 blocked, 19 states, csdpor's (7 and 25 before a step kept so was
/// also run right after the event it was kept past:
/// `odpor_cs_runs_a_step_kept_by_commutation`; 12 and 32 while such steps ran and
/// blocked, before they were settled unrun, odpor-cs's note 7; 20 while the node q,
/// where p@1 was kept asleep so, went on after r with p@4, a fresh process, as after a
/// branch that blocked: `Dpor::choose_after_blocked`).
#[test]
fn odpor_cs_a_step_kept_by_commutation_never_ran() {
    let src = "global int x = 0;
global int y = 1;
proc p() {
    x = 1;
}
proc q() {
    if (x == 0) {
        y = 1;
    }
}
proc r() {
    y = 0;
}
init {
    spawn p();
    spawn q();
    spawn r();
    spawn p();
}
";
    let context = explorer::algorithms::csdpor::ContextSensitive::new();
    assert_eq!(odpor_cs_counts(src, context), (2, 0, 19, 2));
    check(src, (24, 65, 2, 12), &[]);
}

/// odpor-cs's complete executions, blocked executions, states and final states on
/// `src`, with `context`'s commutation of sleeping steps (or none, `literal()`).
fn odpor_cs_counts(
    src: &str,
    context: explorer::algorithms::csdpor::ContextSensitive,
) -> (u64, u64, u64, u64) {
    let program = tests::load(src, &[]);
    let cs = explorer::algorithms::odpor_cs::OptimalContextSensitive::new(context);
    let report = tests::explore_all(&program, &mut explorer::dpor::Dpor::new(cs));
    let s = &report.stats;
    (s.traces, s.blocked, s.states, s.final_states)
}

/// Found by a 3,000-program campaign (`IC_DIFF_SEED=24`), shrunk by proptest: p writes
/// an element of the list `l` at an index that reads `y` only where `z != z`. The
/// locality analysis checked the index of a list element write only for taint, not for
/// a conditional whose skipped side reads globals, so `--deps dynamic` gave p's event
/// what it touched (no `y`) where `--deps static` gave its transition footprint (`y`
/// read): naive counted 1 Mazurkiewicz trace in one mode and 2 in the other, and sdpor
/// (static) explored 2 against naive's 1. Now p is state-dependent in both: 2 traces
/// (p reads `y`, q writes it), 3 interleavings of p's two blocks with q's one.
#[test]
fn state_dependent_read_in_a_list_index_generated() {
    check(
        "global int y = 0;
global int z = 0;
global list l = [0];
global list[2] c;
global int[3] a;

proc p(int v) {
    l[(abs((z != z ? y : z)) % 3)] = 0;
    yield;
}

proc q(int v) {
    y = 0;
    c[0] = append(c[0], a[0]);
}

init {
    spawn p(0);
    spawn q(0);
}
",
        (3, 9, 1, 2),
        &[],
    );
}

/// odpor-ob, first version (IC_DIFF_SEED=101, shrunk by hand): it reversed every race
/// of a whole execution, also those whose later event is an `await` that cannot run
/// before the earlier one (odpor leaves them out in `await_race`). Such a branch is
/// dropped when its `await` turns out disabled, but by then it may have covered, as a
/// weak initial, a reversal inserted after it — as on `examples/philosophers.ic`, where
/// the branch of a philosopher's blocked second `await` hid the third one's first step
/// and lost the deadlock. Here odpor-ob explored 2 executions and lost the final state
/// z = 2 with every process ended (q's two steps, p, then s). Races of the whole
/// execution now go through `await_race` as odpor's do.
#[test]
fn odpor_ob_irreversible_await_race_covers_nothing() {
    check(
        "global int x = -1;
global int w = 0;
global int z = 0;

proc p() {
    x = 0;
    w = x;
    z = 2;
}

proc q() {
    x = 0;
    yield;
    z = x;
}

proc s() {
    await (z == 2);
}

init {
    spawn s();
    spawn p();
    spawn q();
}
",
        (6, 17, 3, 5),
        &[(Deadlock, "deadlock: s at s waiting", "s", "p q q")],
    );
}

/// odpor-ob (IC_DIFF_SEED=107, shrunk): two writes of y that a guard reads. After
/// p@3.q.p@3.p@1 (p@3 writes y = 1, q y = 0, p@3 passes its `await`, p@1 writes y = 1
/// and waits forever), the wakeup sequence p@3.q.p@1 — where p@1 overwrites q's write
/// unread — was merged into the branch of q, as if q could go first: there p@3 can no
/// longer pass, nothing observes the two writes, and the deadlock of p@1 and q was lost
/// (the one of q and p@3, its mirror, was found). Writes of a global an `await` guard
/// reads are now always dependent (`explorer::dependency::observers::guarded`).
#[test]
fn odpor_ob_a_disabled_guard_observes_nothing() {
    check(
        "global int y = 0;
global list l = [0];
global int z = 0;

proc p() {
    y = 1;
    await (head(l) >= y);
}

proc q() {
    y = head(l);
    await (z != z);
}

init {
    spawn p();
    spawn q();
    spawn p();
}
",
        (10, 28, 3, 8),
        &[
            (
                Deadlock,
                "deadlock: q at q#1, p@3 at p#1 waiting",
                "q#1",
                "p@1 q p@1 p@3",
            ),
            (
                Deadlock,
                "deadlock: p@1 at p#1, q at q#1, p@3 at p#1 waiting",
                "p#1",
                "p@1 q p@3",
            ),
            (
                Deadlock,
                "deadlock: q at q#1 waiting",
                "q#1",
                "p@1 p@3 q p@1 p@3",
            ),
            (
                Deadlock,
                "deadlock: p@1 at p#1, q at q#1 waiting",
                "p#1",
                "p@3 q p@3 p@1",
            ),
        ],
    );
}

/// Found by a 3,000-program campaign (`IC_DIFF_SEED=25`), shrunk by hand: odpor
/// explored 65 executions where naive counts 66 Mazurkiewicz traces (sdpor: 66; the
/// final state was found either way). The trace it missed is p@2 p@2 p@2 q p@1 p@1
/// p@1. In p@2 p@2 q p@1 p@1 p@2 p@1 the race of q with p@2's last step reverses to v =
/// p@2 at p@2 p@2, where p@1 sleeps and is a weak initial of v, so v is redundant —
/// the witness p@2 p@2 p@1 p@1 p@2 q p@1 has p@2's step before q, as Optimal-DPOR
/// asks. What was then missing is q before p@1's first write, which disables it: that
/// reversal was asked for only by the probe of q right after that write, whose
/// `notdep` did not yet hold p@2's last step. Now the `await` event, when it runs,
/// asks again for the reversal with each earlier write that disabled it
/// (`Dpor::pass_disabling_writes`).
#[test]
fn odpor_misses_a_trace_behind_a_disabling_write() {
    let src = "global int x = 0;
global bool b = false;
proc p() { x = -5; yield; x = 0; yield; b = true; }
proc q() { await (x >= 0); b = true; }
init { spawn p(); spawn p(); spawn q(); }
";
    let report = tests::explore_all(
        &tests::load(src, &[]),
        &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor::OptimalDpor),
    );
    assert_eq!(report.stats.traces, 66);
}

/// Found by the campaign `IC_DIFF_SEED=37` (5,000 programs), shrunk by proptest: every
/// reduced algorithm reached 1 of naive's 2 final states. p writes y = 2, then y = 0;
/// q spawns r in its second block; r waits for y == 1, true only before p's first
/// write. r runs only in q q r …, before p; elsewhere it deadlocks. r's probe races
/// with p's second write only (the first is behind it), which r cannot precede (y is
/// 2 there); and r did not exist when the first write ran. Now a probe also asks to run
/// before each earlier write that disabled it when its creator can run before that
/// write too (`Dpor::pass_disabling_writes`, for every algorithm).
#[test]
fn an_await_behind_two_writes_of_its_creator_s_rival() {
    let src = "global int y = 1;
proc p() {
    y = 2;
    yield;
    y = 0;
}
proc q() {
    yield;
    spawn r();
}
proc r() {
    await (y == 1);
}
init {
    spawn p();
    spawn q();
}
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(
        (naive.stats.final_states, naive.stats.mazurkiewicz),
        (2, Some(2))
    );
    let sdpor = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, 2);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=30` once the differential test asked ocdpor for
/// one execution per trace of its finer dependency (footprints minus cdpor's `R`),
/// shrunk by hand: ocdpor explored 7 of naive's 9 such traces. Each r passes its
/// `await` twice and writes a[0] = 0 (the two r's commute by `R`); p's y = 1 conflicts
/// with every guard and disables r(1) for good: a trace is how many of each r's
/// awaits come before p, 3 × 3. Missed: r(-1) twice before p with r(1) stopped at its
/// first or second await. The branch putting r(-1)'s second await before p was judged
/// redundant: r(1) slept there, at its `await`, and commutes with that step by `R` —
/// a weak initial "beside" the sequence, as if every execution after it could start
/// with r(1). But p disables r(1) in those executions. A process waiting at an
/// `await` is now a weak initial only by running in the sequence.
#[test]
fn ocdpor_a_sleeping_await_is_no_weak_initial_beside() {
    let src = "global int y = 0;
global int[1] a;
proc p() { y = 1; }
proc r(int v) {
    int n = 0;
    while (n < 2) {
        n = n + 1;
        await (y != v);
        a[0] = 0;
    }
}
init { spawn p(); spawn r(1); spawn r(-1); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(9));
    assert_eq!(report.stats.traces, 9);
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=47` (its third run), shrunk by hand: ocdpor
/// explored 54 of the 55 traces of its finer dependency (the z = 1 writes, and the
/// x = 1 writes, commute by `R`). Missed: p@1 q@3 p@4 q@3 q@2 q@2 (both `await`s stay
/// blocked). No final state was lost (5 of 5). It was a side effect of the first fix of
/// `ocdpor_a_weak_initial_beside_may_disable_the_race`, which refused as a weak
/// initial "beside" a sequence any process whose step writes what the race's first
/// `await` reads: the wakeup trees then made branches where none was needed, and the
/// branch that inherited the missed trace's sequence ran another one. That program's
/// trace is now found by the probes (see its test); the refusal is gone.
#[test]
fn ocdpor_two_awaits_behind_commuting_writes() {
    let src = "global int x = 0;
global int z = 0;
proc p() { z = 1; await (x != 1); }
proc q() { z = 1; x = 1; z = 1; yield; z = 2; }
init { spawn p(); spawn q(); spawn q(); spawn p(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(55));
    assert_eq!(report.stats.traces, 55);
    assert_eq!(report.finals, finer.finals);
}

/// Found by the mutants test (stop 36, `IC_DIFF_SEED=22` and `23`, the seed of
/// ocdpor's awaits beside equal-value writes), shrunk by hand: `ocdpor --literal`
/// explored 4 of the 5 traces of its dependency (the two q's commute by `R`, both
/// writing the same values). r passes `await (y != z)` until a q's `y = 1`. Missed:
/// r passing after both `z = 1` and before both `y = 1`. After q@1 q@1 q@2 q@2, r's
/// probe asked to run before q@1's `y = 1` with `notdep` = q@2's two steps, without
/// q@2's `y = 1`, which disables it again; of the ways to leave it out, the first
/// taken left out q@2's `z = 1`, and its `y = 1` with it (r then passes after q@1's
/// `z = 1` only, a trace asked for at the root too). Leaving out the `y = 1` alone
/// was the only way to the missed trace, and the race of r with q@2's `z = 1` in
/// q@1 r r r ... could not ask for it: q@1's `y = 1`, asleep there and beside it,
/// disables r. The probe now asks for every largest `v` that lets it pass.
#[test]
fn a_disabled_await_passes_after_every_write_it_can() {
    let src = "global int y = -1;
global int z = 0;
proc q() { z = 1; yield; y = 1; }
proc r() { yield; await (y != z); }
init { spawn q(); spawn q(); spawn r(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(5));
    assert_eq!(report.stats.traces, 5);
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=47` (20,000 programs), shrunk by proptest and
/// by hand: odpor-ob and odpor-cs-ob reached 2 of naive's 3 final states, missing the
/// one where both p's pass their `await` before q's x = 1 (since f3619cd). The writes
/// of z are overwritten unread, so the observers never reorder them; the incremental
/// probe of p@3, blocked after q's x = 1, judged p@3's z = 0 to happen after q's (a
/// footprint conflict), so it could not ask to run before it. A process blocked at
/// the end of an execution is now probed there, over the observer-aware order. The
/// same seed then found the second program (two q's, each writing x = 1): the end's
/// probe races only with the last x = 1, so it also asks to run before each earlier
/// write that disabled it (`Dpor::pass_disabling_writes`), over that order.
#[test]
fn odpor_ob_probes_the_processes_blocked_at_the_end() {
    // odpor-ob reaches naive's 3 final states.
    let reaches_naive = |src: &str| {
        let program = tests::load(src, &[]);
        let naive =
            tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
        assert_eq!(naive.stats.final_states, 3);
        let ob = tests::explore_all(
            &program,
            &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor_ob::OptimalObservers),
        );
        assert_eq!(ob.finals, naive.finals);
        assert_agree(src);
    };
    reaches_naive(
        "global int x = 0;
global int z = 0;
proc p() { z = 0; await (x != 1); }
proc q() { z = 0; x = 1; yield; z = 0; }
init { spawn p(); spawn q(); spawn p(); }
",
    );
    reaches_naive(
        "global int x = 0;
global int y = 0;
global int z = 0;
proc p() { y = 0; await (x != 1); }
proc q() { y = 0; x = 1; z = 1; yield; z = 2; }
init { spawn p(); spawn q(); spawn q(); spawn p(); }
",
    );
}

/// Found by the campaign `IC_DIFF_SEED=44` (its second run), shrunk by proptest and by
/// hand: sdpor explored 50 of naive's 54 Mazurkiewicz traces, ocdpor 29 of the 30 of
/// its finer dependency, since the first commit that checked them (f3619cd). Missed:
/// both p's x = 1; y = 0, then r's x = 0, then s (`await (y == x)` holds: 0 == 0),
/// then both y = 2. Explored: the two y = 2 before r, s blocked for good. Its probe
/// asks to run before each write that disabled it, `notdep(e0, E)` first; but for
/// p@1's y = 2 that holds p@2's y = 2 (ocdpor: they commute by `R`), after which s
/// still cannot run, and sdpor scanned only the writes before s's creation. Now sdpor
/// scans every write before which s was not enabled, and a `v` where s cannot run
/// leaves out some of its other writes of what the guard reads (not r's, which enables
/// it: smallest subsets first).
#[test]
fn sdpor_an_await_enabled_after_the_writes_that_follow() {
    let src = "global int x = 0;
global int y = 0;
global int z = 0;
proc p() { x = 1; y = 0; yield; y = 2; }
proc r() { x = z; }
proc s() { await (y == x); x = 0; }
init { spawn p(); spawn p(); spawn r(); spawn s(); }
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(naive.stats.mazurkiewicz, Some(54));
    let sdpor = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, 54);
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(30));
    assert_eq!(report.stats.traces, 30);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=44`, shrunk by proptest and by hand: ocdpor
/// explored 22 of the 23 traces of its finer dependency. The two p's `y = 0` commute
/// by `R`, and so do their `y = 1`. Missed: both `y = 0`, then r's `x = z`, then s
/// (whose `await (y == z)` holds and which reads x), then both `y = 1`. Its branch at
/// p@1 p@2 (the race of s with r: v = r) was judged covered by p@1, explored there
/// first: its next step, `y = 1`, commutes with r — a weak initial "beside" v. But
/// `y = 1` disables s for good, so no execution below p@1 runs r before s. Below p@1,
/// s is blocked behind p@1's `y = 1`, and its probe asks to run before that write with
/// `v = notdep = r . p@2's y = 1`, after which s is still disabled: the probe now
/// leaves out p@2's write (`without_some_writes_of`, the fix of
/// `sdpor_an_await_enabled_after_the_writes_that_follow`) and asks for r.s. (The first
/// fix refused p@1 as a weak initial beside r; it lost a trace of
/// `ocdpor_two_awaits_behind_commuting_writes` and is gone.)
#[test]
fn ocdpor_a_weak_initial_beside_may_disable_the_race() {
    let src = "global int x = 0;
global int y = 0;
global int z = 0;
global list l = [];
proc p() { y = 0; yield; y = 1; }
proc r() { x = z; }
proc s() { await (y == z); l = append(l, x); }
init { spawn p(); spawn p(); spawn r(); spawn s(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(23));
    assert_eq!(report.stats.traces, 23);
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=30` (20,000 programs), shrunk by proptest:
/// odpor-cs-ob reached 2 of naive's 3 final states, missing x = 3, y = 1 (r r q p: p
/// increments the 0 q wrote after r's -1). Below r, r.p reaches the state of p.r and is
/// blocked; r's node still had the branch q of its wakeup tree, so it did not go on
/// with another process then, and ended once q was explored. r r q p was to come from
/// the race of p with q in r p r q, below the blocked step (as in
/// `state_dependent_block_extent_loses_a_final_state`, which odpor-cs met). Now a node
/// where a step was blocked goes on with fresh processes whenever its tree is spent.
#[test]
fn odpor_cs_ob_goes_on_after_its_tree_is_spent() {
    let src = "global int x = 2;
global int y = 0;
proc p() {
    y = (y + 1);
    x = (x + 1);
}
proc q() {
    int n0 = 0;
    while (n0 < 2) {
        n0 = n0 + 1;
        if (n0 > 0) {
            y = 0;
        }
    }
}
proc r() {
    y = x;
    yield;
    y = (-1);
}
init {
    spawn p();
    spawn q();
    spawn r();
}
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    let report = odpor_cs_ob(&program);
    assert_eq!(naive.stats.final_states, 3);
    assert_eq!(report.finals, naive.finals);
    // Measured: 7 complete before odpor-ob's redundancy check was made over plain
    // happens-before (`regressions::odpor_ob_a_covered_class_does_not_cover_its_neighbours`),
    // then 9 and 2 blocked; 6 and 5 since the state checks leave out dead values (y,
    // once p, its only reader, has ended and r has a write of it to run); 6 and 0
    // since the steps confirmed in don't-do sets are settled unrun
    // (`Dpor::analyse_unrun_observed`), the 5 blocked executions having run one each.
    assert_eq!((report.stats.traces, report.stats.blocked), (6, 0));
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=30` when the differential test asked odpor-cs-ob
/// for no more complete executions than odpor-ob: 7 against 6 (measured; naive: 12
/// Mazurkiewicz traces, 6 traces of the observer-aware relation, which odpor-ob
/// explores one each). odpor-cs-ob's guided choices put r r p@3 p@2 second; it
/// reaches r r p@2 p@3's state and is blocked, and a blocked execution is analysed
/// with its end observing every location: r's first write of z and a p's write of z
/// count as observed there (in a complete execution r's second write overwrites z
/// unread), so the root gets branches p@2 and p@3, and r p@2 r p@3 and p@2 r r p@3 —
/// one trace of `→ob` — are both explored. Sound (final states as naive's), not
/// optimal: the differential test now bounds odpor-cs-ob by odpor. (9 complete, 32
/// states while the redundancy check of both was over plain happens-before:
/// `regressions::odpor_ob_a_covered_class_does_not_cover_its_neighbours`; the same
/// with odpor-cs's commutation of sleeping steps, and with `--literal`.) Since the
/// state checks leave out dead values, 4 complete and 6 blocked in 23 states: no
/// process reads z, so wherever r's or a p's next block writes it, the value z holds
/// is dead, and more reversed races reach the state they must (naive's 2 final states,
/// z = 0 in both). The 6 blocked executions ran a step confirmed in a don't-do set;
/// settled unrun since (`Dpor::analyse_unrun_observed`): 4 complete, none blocked, 17 states.
#[test]
fn odpor_cs_ob_against_odpor_ob_where_a_blocked_end_observes() {
    let src = "global int x = 0;
global int y = 0;
global int z = 0;
global int[3] a = [0, 0, -1];
proc p() {
    z = a[0];
    if (x == 0) {
        y = 0;
    }
}
proc r() {
    z = 1;
    yield;
    z = 0;
    y = (y + 2);
}
init {
    spawn r();
    spawn p();
    spawn p();
}
";
    let program = tests::load(src, &[]);
    let count = |algorithm: &mut dyn explorer::Algorithm| {
        let r = tests::explore_all(&program, algorithm);
        (r.stats.traces, r.stats.blocked, r.stats.states)
    };
    use explorer::dpor::Dpor;
    assert_eq!(
        count(&mut Dpor::new(explorer::algorithms::odpor::OptimalDpor)),
        (12, 0, 35)
    );
    assert_eq!(
        count(&mut Dpor::new(
            explorer::algorithms::odpor_ob::OptimalObservers
        )),
        (6, 0, 17)
    );
    assert_eq!(
        count(&mut Dpor::new(
            explorer::algorithms::odpor_cs_ob::OptimalContextSensitiveObservers::new(
                explorer::algorithms::csdpor::ContextSensitive::new(),
            )
        )),
        (4, 0, 17)
    );
    assert_agree(src);
}

/// Found by the 20,000-program campaign `IC_DIFF_SEED=30` (odpor explored 16 of
/// naive's 18 Mazurkiewicz traces), shrunk by hand: both p's disable both q's, and a
/// q's second block reads the x the other q's first block writes. Missing: q@4 q@4
/// q@2 q@2 p@1 p@3, a q whole before the other. Its reversal (q@4's second block
/// before q@2's first, at q@4) was found in q@4 q@2 p@1 p@3 q@4 q@2 and judged
/// redundant: p@1 sleeps there and commutes with that block — but p@1 disables q@2,
/// so no execution below q@4 p@1 runs q@2 and the race that would have asked for it
/// again. Under q@4 p@1, q@2 is probed; right after p@1 the probe asked to run q@2
/// before p@1 with an empty `notdep`, and once q@4's second block had run, p@3 stood
/// between p@1 and the probe (no race of p@1 any more). Now a probe, like a running
/// `await`, asks again to run before each earlier write that disabled it
/// (`Dpor::pass_disabling_writes`), with the `notdep` of the moment: q@4 q@4 q@2.
#[test]
fn odpor_probe_passes_the_writes_that_disabled_it() {
    let src = "global int x = 0;
global bool d = false;
global int c = 0;
proc p() { d = true; }
proc q() { await (!d); x = 0; yield; c = c + x; }
init { spawn p(); spawn q(); spawn p(); spawn q(); }
";
    let (naive, report) = naive_and_odpor(src);
    assert_eq!(naive.stats.mazurkiewicz, Some(18));
    assert_eq!((report.stats.traces, report.stats.blocked), (18, 0));
    assert_agree(src);
}

/// Found by a 3,000-program campaign (`IC_DIFF_SEED=26`) on the first version of
/// `Dpor::pass_disabling_writes`, shrunk by proptest: odpor explored 6 executions of
/// naive's 9 Mazurkiewicz traces. An `await` of r (spawned by p or q) was sent before
/// p's write of x in p's own block — the block that spawns r, so r did not exist there
/// — and the branch, dropped when it could not run, covered other reversals as a
/// weak initial. Now only writes after the `await`'s process was created and took its
/// last step count.
#[test]
fn odpor_passes_only_writes_its_await_could_precede_generated() {
    let src = "global int x = 1;
proc p() {
    if (x == 0) {
        x = 0;
    }
    spawn r();
}
proc q() {
    spawn r();
    yield;
    if (!(x == 0)) {
        if (x == 0) {
            x = 0;
        }
    }
}
proc r() {
    await (x != 0);
}
init {
    spawn p();
    spawn q();
}
";
    let report = tests::explore_all(
        &tests::load(src, &[]),
        &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor::OptimalDpor),
    );
    assert_eq!(report.stats.traces, 9);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=47` (after 7,449 programs), shrunk by hand:
/// ocdpor explored 1 execution where naive counts 2 traces of its finer dependency.
/// The two `p`s commute by `R` (`true`: the constraints compare the processes both
/// blocks spawn as one multiset, identities aside, CDPOR Def. 6), but whichever runs
/// second spawns `q`: the executions p@1 p@2 and p@2 p@1 are one trace up to the
/// names of processes, two for naive, whose events are named by identity. No
/// behaviour is lost (1 final state of 1). Comparing spawns per process instead
/// would make the count exact but cost PS its constraints (PS(7) cdpor: 32,768
/// traces instead of 1), so the differential test takes naive's count as an upper
/// bound where such a pair occurs (`Naive::identities_may_move`).
#[test]
fn ocdpor_commutes_spawns_identities_aside() {
    let src = "global int x = 0;
global int y = 0;
proc p() { if (y < 0) { spawn q(); } y = -1; }
proc q() { x = 1; }
init { spawn p(); spawn p(); }
";
    let (finer, identities_may_move, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(2));
    assert!(identities_may_move);
    assert_eq!(report.stats.traces, 1);
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
    // Seed 54 (after 5,632 programs): the two p's spawn q(2) and q(3) in either
    // order; ocdpor explores 2 executions, one more ends blocked in a sleep set
    // (its entries name q@1.1 and q@2.1, whose arguments the swap exchanged), where
    // naive counts 4 traces of that dependency. Same final states.
    let src = "param K = 0;
global int y = 0;
global int z = 0;
global int[3] a;
global list l = [];
proc p(int v) { z = 1; a[1] = 1; v = a[1]; l = l ++ [a[(abs(1) % 3)]]; spawn q(len(l)); }
proc q(int v) { z = 1; if (max(K, 0) != 1) { assert(y > (-1)); } z = (v % 2); }
init { spawn p(0); spawn p(0); }
";
    let (finer, identities_may_move, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(4));
    assert!(identities_may_move);
    assert_eq!((report.stats.traces, report.stats.blocked), (2, 1));
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
    // Without a spawn moved, the count is exact and the flag down.
    let src = "global int x = 0;
global int y = 0;
proc p() { if (y < 0) { x = 1; } y = -1; }
init { spawn p(); spawn p(); }
";
    let program = tests::load(src, &[]);
    let mut naive =
        explorer::algorithms::naive::Naive::with_constraints(crate::ics_unhurried(&program, src));
    tests::explore_all(&program, &mut naive);
    assert!(!naive.identities_may_move());
}

/// Found by the CI's random-seed differential test (seed 6371666062118455362), shrunk
/// by proptest and by hand: sdpor explored 8 of 9 Mazurkiewicz traces (since f3619cd
/// at least). Missed: q@3 r q@2 p p, where r's `z = z` runs between the two
/// `await (z != y)` and p's `y = 0` disables both. Below q@3, the only execution run
/// was q@3 p p r with q@2 blocked; its probe, after r, asks to run after r and before
/// p's first `y = 0`, but that write was skipped: q@2 was enabled before it, so its
/// probe right after the write had asked already — with nothing before it then, not
/// r, which writes what the guard reads. Such a write is now skipped only when
/// nothing after it in `notdep` writes what the guard reads.
#[test]
fn sdpor_an_await_after_a_later_write_of_its_guard() {
    let src = "global int y = 1;
global int z = 0;
proc p() { y = 0; yield; y = 0; }
proc q() { await (z != y); }
proc r() { z = z; }
init { spawn p(); spawn q(); spawn q(); spawn r(); }
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    // Each q passes before r, passes after r, or never (p's y = 0 comes first).
    assert_eq!(naive.stats.mazurkiewicz, Some(9));
    let sdpor = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, 9);
    assert_agree(src);
}

/// Found by the mutants test (stop 36, `IC_DIFF_SEED=71`, second run), pre-existing
/// (present at the start of stop 36), shrunk by hand: `odpor-cs-ob --literal` reached
/// 1 of naive's 2 final states (the default odpor-cs-ob reached both). Missed: x = 1,
/// y = 1, only after r q q p (r's `y = 0` before q's first block, which then sets
/// y = 1 as x is 0). At q (q's first block), p runs and is blocked, its state that of
/// p q; the race of q's second block with r in q q p r asked for p r there, refused
/// as a repeat of that blocked branch (`Dpor::insert_wakeup`); q's node went on with
/// q's second block once, never with r, and the covering subtree below p q has r
/// before q's first block only after p. The default mode settles p unrun and runs r
/// at q. A repeat whose blocked first step commutes with the rest now asks for the
/// rest: r at q, whose race with q's first block asks for r at the root.
#[test]
fn odpor_cs_ob_literal_a_blocked_branch_hides_a_reader_first() {
    let src = "global int x = 0;
global int y = 1;
proc p() { x = 1; }
proc q() { if (x == 0) { y = 1; } yield; if (y == 0) { x = 1; } }
proc r() { y = 0; }
init { spawn p(); spawn q(); spawn r(); }
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(naive.stats.final_states, 2);
    let literal = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(
            explorer::algorithms::odpor_cs_ob::OptimalContextSensitiveObservers::new(
                explorer::algorithms::csdpor::ContextSensitive::literal(),
            ),
        ),
    );
    assert_eq!(literal.finals, naive.finals);
    assert_agree(src);
}

/// Found by the mutants test (stop 36, `IC_DIFF_SEED=71`), pre-existing, shrunk by
/// hand: odpor explored 23 of the 24 Mazurkiewicz traces (52 of 68 on the mutant; its
/// final states all found), odpor-ob all 24. r's `await` needs f[0] and f[1] true
/// after its own `f[1] = false`. Missed: p@2's two steps, then p@1's, with q before
/// r's first step (r then waits for good). Below p@2, the race of r's write with q
/// (p@2 r q ...) asked for q first and was refused, p@1 asleep there beside it; in
/// p@1's subtree p@1's first step comes before p@2's second, and the race of those two
/// was reversed below r's branch, after r's write. JACM reverses a race where the
/// execution ends, with `notdep` over all of it: in p@2 r q p@2 p@1 p@1, that is p@2's
/// second step, p@1's two, then q, which p@1 is not beside. Each race so refused is
/// now judged again with that `v` wherever an execution through it ends
/// (`Dpor::recheck_refused_beside`).
#[test]
fn odpor_judges_a_sleeper_beside_on_the_whole_execution() {
    let src = "global bool[2] f;
proc p() { f[0] = true; yield; f[0] = false; }
proc q() { f[1] = true; }
proc r() { f[1] = false; await (f[0] && f[1]); }
init { spawn p(); spawn p(); spawn q(); spawn r(); }
";
    let (naive, odpor) = naive_and_odpor(src);
    assert_eq!(naive.stats.mazurkiewicz, Some(24));
    assert_eq!((odpor.stats.traces, odpor.stats.blocked), (24, 0));
    assert_agree(src);
}

/// Found by the mutants test (stop 36, `IC_DIFF_SEED=41`), pre-existing, shrunk by
/// hand: sdpor explored 8 of 10 Mazurkiewicz traces and reached 8 of naive's 10
/// reads-from classes. r's `await (y != z)` always holds and reads y; p's
/// `await (x != 1); y = 0` is disabled by either q's `x = 1`. Missed: p's `z = 1`,
/// both q's first (empty) blocks, r, then p's second block before both `x = 1`. At
/// p q@2 q@3, p's second block sleeps (it ran at p first); below, p q@2 q@3 q@3 q@2 r
/// ends with p blocked, and its probe asks to run after r and before q@3's `x = 1`
/// — but that write was skipped: p was enabled before it and nothing after it wrote
/// what the guard reads, so the probe right after the write had asked already, for
/// p alone, which sleeps there. r, which reads what p's block writes, was not before
/// it then. Such a write is now skipped only when no event of `notdep` conflicts with
/// the block either.
#[test]
fn sdpor_an_await_behind_a_reader_of_its_block() {
    let src = "global int x = 0;
global int y = -1;
global int z = 0;
proc p() { z = 1; await (x != 1); y = 0; }
proc q() { yield; x = 1; }
proc r() { await (y != z); }
init { spawn p(); spawn q(); spawn q(); spawn r(); }
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    // p's second block passes (the two x = 1 in either order, r before p's z = 1,
    // between its blocks or after them) or never (r before or after p's z = 1).
    assert_eq!(naive.stats.mazurkiewicz, Some(10));
    let sdpor = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, 10);
    assert_agree(src);
}

/// Found by an oracle of naive's classes of `→ob` (2 of 1,000 generated programs, the
/// first version of the reads-from check (j)), shrunk by hand: odpor-ob and
/// odpor-cs-ob explored 9 executions of the 10 classes, and with an assertion on what
/// q reads they missed it (since they were written). p@1: x = 1, c = c*10+1; p@3:
/// x = 2, c = c*10+2; q: x = 9, then o = x*100 + c. Missed: p@3 q q p@1 (q reads its
/// own 9 after p@3: o = 902). Below p@3 at the root the search ran p@3 p@1 q q, whose
/// reversal p@3 q p@1 q was judged redundant over `→ob`: q, done at the root, has no
/// predecessor there (p@1 overwrites the x's of p@3 and q unread). The class is
/// explored indeed, as q p@3 p@1 q; but its reversal of p@1 with q's read gives
/// q p@3 q p@1, not p@3 q q p@1. That one's race of q's write with p@3's (now observed
/// by q's read) asks for p@3.q.q at the root — where the branch p@3 was a leaf, which
/// "covered" it, as in the paper (and p@3's own exploration went the other way). The
/// same happens with `--violations-only`, the paper's setting: the paper's ODPOR^ob
/// misses this assertion. For a while the redundancy check was over plain
/// happens-before (12 executions here, LW(10) 512); now it is over `→ob` again and a
/// wakeup sequence extends the leaf that covers it
/// (`explorer::dpor::wakeup_tree::WakeupTree::insert`): 10 executions, one per class.
///
/// The classes, derived by hand: p@1 and p@3 are ordered (both read and write c), and
/// q's read with both; a class is their order (2) times where q's read falls (before
/// both: 1 class; between: q's write before or after the first p, 2; after both: q's
/// write last, or not — before or between the p's, one class as the second p
/// overwrites it unread: 2): 2 × 5 = 10, each with its own final state (and its own
/// reads-from class).
#[test]
fn odpor_ob_a_covered_class_does_not_cover_its_neighbours() {
    let src = "global int x = 0;
global int o = 0;
global int c = 0;
proc p(int v) { x = v; c = c * 10 + v; }
proc q() { x = 9; yield; o = x * 100 + c; }
init { spawn p(1); spawn q(); spawn p(2); }
";
    let program = tests::load(src, &[]);
    let naive =
        tests::explore_classes(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!((naive.stats.traces, naive.stats.final_states), (12, 10));
    assert_eq!(naive.reads_from.len(), 10);
    let ob = tests::explore_classes(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::odpor_ob::OptimalObservers),
    );
    assert_eq!((ob.stats.traces, ob.stats.blocked), (10, 0));
    assert_eq!(ob.reads_from, naive.reads_from);
    assert_eq!(ob.finals, naive.finals);
    assert_agree(src);
    // The same with an assertion on the missed read: every algorithm reports it.
    check(
        &src.replace("o = x * 100 + c; }", "o = x * 100 + c; assert(o != 902); }"),
        (11, 33, 9, 11),
        &[(Assert, "assertion failed", "q#1", "p@3 q q")],
    );
}

/// Found by the campaign `IC_DIFF_SEED=101` when the reads-from oracle first ran,
/// shrunk by proptest (the unused globals and `q`'s list dropped by hand): the oracle
/// itself was wrong. p's second block reads `a[abs(x) % 3]`, an index the footprint
/// cannot know, so it reads the whole array; the two writes before it (p's `a[0]`, q's
/// `a[1]`) commute, and "the last writer of any element" named either one: sdpor,
/// odpor and odpor-ob seemed to miss 6 of 18 classes. A read of a whole container now
/// names the last writer of each of its locations written so far: the same set in
/// every execution of a Mazurkiewicz trace.
#[test]
fn reads_from_of_a_whole_container_read() {
    let src = "global int x = 0;
global int[3] a;
proc p() { a[0] = 0; yield; x = a[abs(x) % 3]; }
proc q() { a[1] = 0; }
init { spawn p(); spawn q(); spawn p(); }
";
    let program = tests::load(src, &[]);
    let naive =
        tests::explore_classes(&program, &mut explorer::algorithms::naive::Naive::default());
    let sdpor = tests::explore_classes(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, naive.stats.mazurkiewicz.unwrap_or(0));
    assert_eq!(sdpor.reads_from, naive.reads_from);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=107` (5,000 programs), shrunk by hand; also in
/// a63d39b: ocdpor explored 8 of the 10 traces of its finer dependency. The two p's
/// `y = 0` commute by `R`, and so do their `y = 1`; q's second `await (y != z)` passes
/// only while y is not 0. Traces (by hand): the writes' orders a1 b1 a2 b2, a2 b2 a1 b1,
/// and the two a's then the two b's, with q's await wherever y != 0: 3 + 3 + 4 = 10.
/// Missed were a2 b2 q q a1 b1 and a2 b2 a1 b1 q q: the race of p@1's `y = 0` with
/// p@2's `y = 1` asked for `a2 b2` at the root, where q's branch (not yet explored)
/// was refused as a weak initial beside it because q waits at an `await`: `a2 b2`
/// became a root branch of its own, where q sleeps, and q's subtree never ran it.
/// `WakeupTree::insert` now puts it below q, as JACM's insertion does; none is blocked.
#[test]
fn ocdpor_a_sleeping_first_await_hides_the_second() {
    let src = "global int y = -1;
global int z = 0;
proc p() { y = 0; yield; y = 1; }
proc q() { await (z != 1); await (y != z); }
init { spawn p(); spawn p(); spawn q(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(10));
    assert_eq!((report.stats.traces, report.stats.blocked), (10, 0));
}

/// Found by a campaign (`IC_DIFF_SEED=120`) that required ocdpor to end no execution
/// blocked even with `await`s, shrunk by proptest (unused globals dropped by hand): q
/// waits for y = 1, which never comes; the two p's `if (y == 0) { y = 0; }` commute
/// by `R`. naive counts 2 interleavings, 1 trace of the finer dependency (a deadlock).
/// The race of p@1 with q's probe looked reversible: the memory after `notdep` =
/// p@3 could not be read off the undo log (p@3, recorded independent of p@1, reads
/// y, which p@1 wrote), so the sequence p@3.q joined the tree, q could not run there,
/// and the search after p@3 ended blocked (p@1 asleep). `await_race` now replays
/// `notdep` from the snapshot of `E'` and finds q's guard false: nothing to reverse.
#[test]
fn ocdpor_replays_notdep_where_r_hides_the_memory_of_an_await_race() {
    let src = "global int y = 0;
proc p() { if (y == 0) { y = 0; } }
proc q() { await (y == 1); }
init { spawn p(); spawn q(); spawn p(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(1));
    assert_eq!((report.stats.traces, report.stats.blocked), (1, 0));
    let deadlocks = report.violations.iter().filter(|v| v.kind == Deadlock);
    assert_eq!(deadlocks.count(), 1);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=123` once the differential test required odpor
/// to end no execution blocked with `await`s, shrunk by proptest (simplified by hand):
/// p's `await (x != 0)` always passes, q's write of b disables r for good when it comes
/// first, and r may write x (a may-write: p and r are dependent). Three Mazurkiewicz
/// traces: p q with r blocked (q p is the same), p r q, r p q. The race of r with q
/// asked for q at the root, where p slept; p waits at an `await`, so it was refused
/// as a weak initial beside q, q became a branch of its own, p slept there and the
/// search ended blocked. p's step conflicts with q by no footprint: it is a weak
/// initial beside q now (`wakeup_tree::weak_initial`), and q's branch is p's.
#[test]
fn odpor_a_sleeping_await_beside_by_footprints_covers() {
    let src = "global int x = 1;
global bool b = true;
proc p() { await (x != 0); }
proc q() { b = (x == 0); }
proc r() { await (b); if (x == 0) { x = 0; } }
init { spawn p(); spawn q(); spawn r(); }
";
    let (naive, odpor) = naive_and_odpor(src);
    assert_eq!(naive.stats.mazurkiewicz, Some(3));
    assert_eq!((odpor.stats.traces, odpor.stats.blocked), (3, 0));
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=123` right after `await_race` began to replay
/// `notdep` where `R` hides its memory, shrunk by proptest and by hand: ocdpor lost
/// the final state where r passes. r's `await (z > y)` holds only before p's `y = 1`;
/// r's first block reads y only when x is -2 (never), and commutes with p's blocks by
/// `R`, which leaves the memory of `notdep` inexact. The probe after p p r raced with
/// p's `y = 0`: replayed, the `await` cannot pass after p's `y = 1` (no sequence, rightly);
/// the sequence that runs r before `y = 1` is `pass_disabling_writes`'s, which judged
/// it on the undo log only and gave up. Both now replay: 2 traces, as naive counts of
/// the finer dependency, and both final states.
#[test]
fn ocdpor_replays_the_writes_that_disabled_it() {
    let src = "global int x = 0;
global int y = -2;
global int z = 0;
proc p() { y = 1; yield; y = 0; }
proc r() { z = ((-2) != x ? 0 : y); await (z > y); }
init { spawn p(); spawn r(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(2));
    assert_eq!((report.stats.traces, report.stats.blocked), (2, 0));
    assert_eq!(report.finals, finer.finals);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=125` (the reads-from check (j)), shrunk by
/// proptest: sdpor explored 2 of 4 Mazurkiewicz traces (s's `await (y > 0)` before
/// both negations of y or after both, times their order), no final state lost. In
/// p@1 p@2 q s, the race of p@2 with s's `await` cannot be reversed (after p@1 alone
/// y is -2), and `await_race` left it out: no earlier step of s ran after p@2 — but
/// its creator q did, and running q sooner brings s to its guard before p@2, where
/// its probe races with p@1. Climbing now counts the creator as an earlier step.
#[test]
fn sdpor_climbs_with_the_creator_of_an_await() {
    let src = "global int y = 2;
proc p() { y = (-y); }
proc q() { spawn s(); }
proc s() { await (y > 0); }
init { spawn p(); spawn p(); spawn q(); }
";
    let program = tests::load(src, &[]);
    let naive =
        tests::explore_classes(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(naive.stats.mazurkiewicz, Some(4));
    let sdpor = tests::explore_classes(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    assert_eq!(sdpor.stats.traces, 4);
    assert_eq!(sdpor.reads_from, naive.reads_from);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=123` (the reads-from check (j)), shrunk by
/// proptest and by hand: odpor-ob explored 3 of the 4 classes; missed q r p p, where
/// r's `await (z >= y)` passes before p's `y = 1` after q read the l that r then
/// writes. odpor asks for it when r's `await` runs after p's two steps (it asks to run
/// before each earlier write that disabled it, with q: `pass_disabling_writes`);
/// odpor-ob analysed its races only at the end, where only processes still blocked
/// were probed. It now asks as odpor does, over plain happens-before.
#[test]
fn odpor_ob_an_await_passes_the_writes_that_disabled_it() {
    let src = "global int y = -2;
global int z = 0;
global list l = [];
global list[2] c;
proc p() { y = 1; yield; z = 1; }
proc q() {
    if (len(c[(abs((len(l) > 0 ? l[abs(0) % len(l)] : 0)) % 2)]) > 0) { c[0] = tail(c[0]); }
}
proc r() { await (z >= y); l = take(l, 0); }
init { spawn p(); spawn q(); spawn r(); }
";
    odpor_ob_reaches_every_class(src, 4, (4, 0));
}

/// Found by the campaign `IC_DIFF_SEED=123` (on the final code of issue 14's stop 25,
/// and in 63e4e57 before it), shrunk by proptest: ocdpor lost the final state
/// z = 0 where s's `z = y` runs before p's and q's `y = 1`. q commutes with s's first
/// block by `R` (`x != -1`: s only loops and yields), while p's `y = 1` conflicts with
/// it by footprints (s may read y, were the loop skipped) and `R` cannot lift that
/// (p's constraint also reads the list l). Below r r, p's race with s asked for s
/// alone, and q, asleep there, was taken as a weak initial beside it by `R`; q's own
/// subtree could not reach the trace (s's read of y comes before q), and the race of
/// p with that read was hidden behind p → s. A sleeping process is now beside a
/// sequence by footprints only.
#[test]
fn ocdpor_a_sleeping_process_is_beside_by_footprints_only() {
    let src = "global int x = 0;
global int y = 0;
global int z = 0;
global bool b = true;
global map m;
global list l = [];
global list[2] c;
proc p() {
    if (len(l) > 0) { l[abs(0) % len(l)] = 0; }
    y = 1;
    b = y != 1;
}
proc q() {
    z = z;
    int n0 = 0;
    while (n0 < 2) { n0 = n0 + 1; if (n0 > 0) { y = 1; } }
}
proc r() {
    if (len(c[0]) > 0) { c[0] = tail(c[0]); }
    await (b);
    z = m[0];
    spawn s();
}
proc s() {
    for i0 in 0..1 {
        int n0 = 0;
        while (n0 < 1 && (((-1) != x) || (x == 0))) { n0 = n0 + 1; yield; }
    }
    z = y;
}
init { spawn p(); spawn q(); spawn r(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.final_states, 3);
    assert_eq!(report.finals, finer.finals);
    assert_eq!(
        (report.stats.traces, report.stats.blocked),
        (finer.stats.mazurkiewicz.unwrap_or(0), 0)
    );
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=135`, shrunk by hand: ocdpor (with and without
/// its state checks, and before them) lost the final state where p passes its
/// `await (z >= 1)` before both q's reset z. The two q's commute by `R` (both leave
/// z = 0), so after q@1 q@2 p p the probe's race with q@1 asked to pass notdep(q@1)
/// = q@2 p first — where q@2, which wrote nothing in `E` (z was 0 already), writes
/// z = 0 before the guard: the replay said it cannot pass, and only writes that did
/// write in `E` were candidates to leave out. Events that commute with the disabling
/// write only by `R` are candidates too. Naive: 14 executions, 2 final states (one a
/// deadlock), 2 traces of the finer dependency; ocdpor 2 complete, 1 blocked.
#[test]
fn ocdpor_leaves_out_a_write_r_moved_before_its_guard() {
    let src = "global int z = 2;
proc p() { yield; await (!(1 > z)); }
proc q() { if (z != 0) { z = 0; } }
init { spawn q(); spawn q(); spawn p(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(2));
    assert_eq!((report.stats.traces, report.stats.blocked), (2, 1));
    assert_eq!(report.finals, finer.finals);
    let naive = tests::explore_all(
        &tests::load(src, &[]),
        &mut explorer::algorithms::naive::Naive::default(),
    );
    assert_eq!((naive.stats.traces, naive.stats.final_states), (14, 2));
    assert_agree(src);
}

/// Found by a CI run of the differential test (seed 7285782177869546859, the
/// reads-from check (j)), shrunk by hand; pre-existing (present in cb28e4e): odpor-ob
/// explored 36 of naive's 37 reads-from classes, missing r r q p@4 p@1 (both p's read
/// q's x = 2, p@1's y = 0 last). Its race's sequence p@4.p@1 at r r q went below a
/// branch q.p@4.p@1 that a probe had asked for there (q's `await`, judged runnable on
/// a memory `→ob` leaves inexact): q was a weak initial of it. q could not run at r r
/// q, and the wakeup tree dropped it with all it held. Now what a dropped step held
/// joins the tree again without it. Naive: 80 executions, 253 states, 2 final states,
/// 48 Mazurkiewicz traces, 37 reads-from classes; odpor-ob 47 executions, 0 blocked
/// (48 while its redundancy check was over plain happens-before, 44 before stop 35's
/// rule on overwrites in the prefix, `observers::redundant`, 46 with it, 47 since
/// stop 39's `Dpor::done_first_elsewhere` replaced it).
#[test]
fn odpor_ob_keeps_what_a_dropped_step_held() {
    let src = "global int x = 0;
global int y = 0;
proc p() { y = x; y = 0; }
proc q() { x = 2; await (x <= 1); }
proc r() { y = 0; yield; assert(y != 2, \"A0\"); x = 1; }
init { spawn p(); spawn q(); spawn r(); spawn p(); }
";
    let naive = odpor_ob_reaches_every_class(src, 37, (47, 0));
    let s = &naive.stats;
    assert_eq!(
        (s.traces, s.states, s.final_states, s.mazurkiewicz),
        (80, 253, 2, Some(48))
    );
}

/// Found by the campaign `IC_DIFF_SEED=137`: odpor-cs, odpor-cs-ob and ocdpor (with
/// the commutation of sleeping steps) lost the final state of r q p p. After p's
/// `y = -1`, q is a no-op (x = max(y, -1) = -1 already) and commutes with r there, so
/// it was kept asleep past r — and no execution ran q after r below p: the race of
/// p's `y = -1` with q's read of y that asks for r.q at the root was never seen. A
/// step kept so now comes right after the event it was kept past, where its races are
/// analysed (`Dpor::run_commuted`: settled unrun, or run and blocked in odpor-cs-ob).
/// Naive: 12 executions, 35 states, 3 final states.
#[test]
fn odpor_cs_runs_a_step_kept_by_commutation() {
    let src = "global int x = -1;
global int y = 2;
global list l = [0];
global list[2] c;
proc p() { y = -1; yield; l = tail(l); }
proc q() { x = max(y, (-1)); }
proc r() {
    l = append(l, len(c[0]));
    c[(abs(x) % 2)] = append(c[(abs(x) % 2)], l[0]);
}
init { spawn p(); spawn q(); spawn r(); }
";
    let program = tests::load(src, &[]);
    let context = explorer::algorithms::csdpor::ContextSensitive::new();
    let cs = explorer::algorithms::odpor_cs::OptimalContextSensitive::new(context);
    let report = tests::explore_all(&program, &mut explorer::dpor::Dpor::new(cs));
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!((naive.stats.traces, naive.stats.final_states), (12, 3));
    assert_eq!(report.finals, naive.finals);
    assert_agree(src);
}

/// Found by `joins_by_all_agree_with_naive` (stop 34), pre-existing (the explicit
/// `f[0] && f[1]` fails the same way at 5774036): sdpor, csdpor and cdpor missed the
/// assertion, which r fails when it passes after `p q`, before p clears its flag.
/// They ran `p p p q r`; the race of p's last step (it sets f[0] again) with r's
/// await is not reversible (before it, after `notdep` = q, f[0] is false) and was
/// dropped as in vain: the guard, evaluated there, short-circuits on f[0] and read
/// nothing q wrote. Taken by what the guard may read (f[0] and f[1]), q in `notdep`
/// wrote one of them: the race climbs (`AwaitRace::Climb`), q runs before p's middle
/// step, r waits there after f[0] was cleared, and its probe asks for q before that
/// step, where r passes.
#[test]
fn sdpor_climbs_past_a_short_circuit_guard() {
    let src = "global int y = 0;
global bool[2] f;
proc p() { f[0] = true; yield; f[0] = false; y = 1; yield; y = 2; f[0] = true; }
proc q() { f[1] = true; }
proc r() { await (f[0] && f[1]); assert(y != 0, \"r passes before p clears its flag\"); }
init { spawn p(); spawn q(); spawn r(); }
";
    check(
        src,
        (4, 18, 1, 1),
        &[(
            Assert,
            "assertion failed: r passes before p clears its flag",
            "r",
            "p q r",
        )],
    );
    let report = tests::explore_all(
        &tests::load(src, &[]),
        &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
    );
    // Measured: the violation, 1 complete execution and 2 blocked in 11 states (1
    // complete in 6 states, no violation, before).
    assert_eq!(
        (
            report.stats.traces,
            report.stats.blocked,
            report.stats.states
        ),
        (1, 2, 11)
    );
    assert_eq!(report.violations.len(), 1);
}

/// Found by the campaign `IC_DIFF_SEED=139` (check (c)), pre-existing (the tests of
/// cb28e4e fail on it too): sdpor explored 286 of naive's 288 Mazurkiewicz traces
/// (no final state lost). Shrunk by hand to `shrunk` below, where it explored 72 of
/// 74: two q's write `x = 1` and `await (y != x)`, r writes `x = 1`, p writes
/// `y = 1` then `y = 0`. Missed: `q@3 q@2 q@3 r q@2 p p` (and its twin with the
/// two first steps swapped): q@2's await passes reading r's x, before p's `y = 1`.
/// sdpor ran `q@3 q@2 q@3 p p r q@2` (q@2 waits after `y = 1`); the probe there
/// asks q@2 to run before `y = 1`, at a node where q@2 is asleep. The race of
/// `y = 0` with q@2's await is not reversible (its guard is false after r, which is
/// independent of `y = 0`) and was dropped; followed (`AwaitRace::Climb`), it runs
/// r before `y = 0`, where q@2 waits again and its probe asks for r first, before
/// `y = 1`.
#[test]
fn sdpor_climbs_when_notdep_writes_what_the_guard_reads() {
    let src = "param K = 1;
global int x = 0;
global int y = 2;
global int z = 0;
global int[3] a = [2, 0, 0];
proc p() {
    spawn q();
    int n0 = 0;
    while (n0 < 3 && (a[0] != 0)) {
        n0 = n0 + 1;
        yield;
    }
    y = 1;
    yield;
    y = 0;
}
proc q() {
    x = (z + K);
    await (y != x);
}
proc r() {
    int n0 = 0;
    while (n0 < 2) {
        n0 = n0 + 1;
        if (n0 > 0) {
            x = 1;
        }
    }
}
init {
    spawn p();
    spawn q();
    spawn r();
}
";
    let shrunk = "global int x = 0;
global int y = 2;
proc p() {
    y = 1;
    yield;
    y = 0;
}
proc q() {
    x = 1;
    await (y != x);
}
proc r() {
    x = 1;
}
init {
    spawn p();
    spawn q();
    spawn q();
    spawn r();
}
";
    for (src, traces) in [(shrunk, 74), (src, 288)] {
        let program = tests::load(src, &[]);
        let naive =
            tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
        assert_eq!(naive.stats.mazurkiewicz, Some(traces));
        let sdpor = tests::explore_all(
            &program,
            &mut explorer::dpor::Dpor::new(explorer::algorithms::sdpor::SourceDpor),
        );
        assert_eq!(sdpor.stats.traces, traces);
        assert_agree(src);
    }
}

/// Found by the campaign `IC_DIFF_SEED=146` on `odpor-cs --literal` (pre-existing: the
/// ODPOR_cs of cb28e4e, before the commutation of sleeping steps, loses it too), shrunk
/// by hand: p sets y = -z, then z = 0; q reads y; r reads x, then sets z = 1. Naive:
/// 3 final states; odpor-cs `--literal` missed y = -1, z = 0 (r's z = 1 before p's
/// y = -z). Its race with p's first step, seen below p.r.q, asked for r.r at the root,
/// where the leaf q (from the race of p and q) covered it: "explore q, and its races
/// will ask for r.r there". Below q, q.p.r reached the state of p.r.q and was blocked,
/// whose continuations were explored — by the exploration whose race asked for r.r.
/// No execution below q ran r's second step after p's first, so nothing asked for it
/// again. A wakeup sequence now extends the leaf that covers it, in a search that
/// blocks by states (`WakeupTree::insert`): 3 complete executions, 4 blocked, 23
/// states; 5 blocked and 25 states since the races of a blocked step's future are
/// analysed (`Dpor::future_races`).
#[test]
fn odpor_cs_a_leaf_does_not_cover_a_wakeup_sequence() {
    let src = "global int x = 0;
global int y = -1;
global int z = -1;
global int[3] a;
proc p() {
    y = -z;
    yield;
    z = 0;
}
proc q() {
    while (y == 0) { }
}
proc r() {
    if (x == x) {
        yield;
        z = 1;
    }
    a[0] = z + 1;
}
init {
    spawn p();
    spawn q();
    spawn r();
}
";
    let literal = explorer::algorithms::csdpor::ContextSensitive::literal();
    assert_eq!(odpor_cs_counts(src, literal), (3, 5, 25, 3));
    check(src, (30, 90, 3, 8), &[]);
}

/// Found by the campaign `IC_DIFF_SEED=1827551185718912605` (12,000 programs), shrunk
/// by proptest: `ocdpor --literal` (both `--deps` modes) completes naive's 1 trace of
/// its finer dependency but also ends 2 executions blocked in a sleep set, in a program
/// without `await`. No final state or violation is lost (naive's 1 final state, r's
/// runtime error). r returns early when it runs before q's first write, and p's
/// second block (y = 0) commutes with r's first block by `R` only (r may write y, were
/// `a[0] > -1` false). After p, p's second block is asleep; the race of q with r asks
/// for r alone there, and p is no weak initial beside it (a sleeping process is beside
/// by footprints only: `ocdpor_a_sleeping_process_is_beside_by_footprints_only`, and
/// beside by `R` it lost a final state there). So `p r q q` runs, with p asleep to
/// its end by `R`: blocked. The differential test allows blocked executions where
/// the search counts such an insertion (`wakeup_beside_commuting`); this pins the
/// counts, so that a change to either rule shows here.
#[test]
fn ocdpor_literal_blocks_only_beside_a_process_commuting_by_r() {
    let src = "global int x = -1;
global int y = 0;
global int[3] a;
global list l = [];
proc p() { y = 0; yield; y = 0; }
proc q() { x = 0; yield; x = 0; }
proc r(int v) {
    for i0 in 0..1 {
        if (a[0] > (-1)) {
            if (x != 0) {
                return;
            }
            yield;
        }
        y = ((-1) + 0);
    }
    l[0] = 0;
}
init { spawn p(); spawn q(); spawn r(0); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(1));
    assert_eq!((report.stats.traces, report.stats.blocked), (1, 2));
    assert_eq!(report.stats.pruning.wakeup_beside_commuting, 4);
    assert_agree(src);
}

/// Found in review of a state check after the last observer of a write/write race
/// (ISSTA'19 Sec. 4.1 as a don't-do sequence continued up to the observer, blocking
/// where the state after it is reached modulo dead values; not kept). The first
/// execution is a q q q o p (q's third block does nothing: it read 2); the race of a
/// with q's first write is observed by q's second block and by o, and after o, p is
/// to overwrite x and y. Continued to o, the reversal q a q q o reaches that state
/// (z is 0 either way, x and y are dead), but there q read 1 and its third block read
/// y: a different event, whose race with p's write of y (naive: q a q o p q, z = 5)
/// only its continuations would show. odpor-cs-ob lost that final state; naive has 3.
#[test]
fn odpor_cs_ob_observers_after_a_reversed_race_are_other_events() {
    let src = "global int x = 0; global int y = 0; global int z = 0;
proc a() { x = 1; }
proc q() { x = 2; yield; int r = x; spawn o(); yield; if (r == 1) { z = y; } }
proc o() { assert(x != 7); spawn p(); }
proc p() { x = 0; y = 5; }
init { spawn a(); spawn q(); }
";
    let program = tests::load(src, &[]);
    let naive = tests::explore_all(&program, &mut explorer::algorithms::naive::Naive::default());
    assert_eq!(naive.stats.final_states, 3);
    let report = odpor_cs_ob(&program);
    assert_eq!(report.finals, naive.finals);
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=10858713412587904125` (15,000 programs; unused
/// globals left out): `ocdpor --literal` (both `--deps` modes) completed 8 executions
/// where naive counts 9 traces of its finer dependency (footprint conflicts minus
/// cdpor's `R`); no final state or deadlock was lost here only because the two `s`
/// are alike. Both processes of `s` come to `await (b)`, which they pass only before
/// p's write of `b` (which disables them for good). After both first blocks, the
/// probe of s@3's `await` asked to pass before p; s@2's `await`, asleep there and
/// beside it by footprints (both only read b), was taken to cover it, but p disables
/// it, so no continuation of s@2's exploration reaches the trace where s@3 passes and
/// then p runs (`s@2 s@3 s@3 p`). A process beside a probe's reversal must now be
/// beside the race's write too (`wakeup_tree::sleeper_covers`).
#[test]
fn ocdpor_literal_completes_every_trace_of_its_dependency() {
    let src = "global int x = 0;
global bool b = true;
global int[3] a;
global map m;
global list l = [];

proc p() {
    b = false;
    l = append(l, max(0, 0));
}

proc s() {
    if (x > 0) {
        yield;
    } else {
        if (has(m, 0)) {
            a[(abs(len(l)) % 3)] = a[0];
            if (len(l) > 0) {
                l[abs((abs(x) % 3)) % len(l)] = l[0];
            }
        }
        await (b);
    }
    int t0 = a[0];
}

init {
    spawn p();
    spawn s();
    spawn s();
}
";
    // The constraints as the differential test's time budget synthesised them when
    // the bug was found (a fuller set merges the traces that showed it, and the
    // budget's reach depends on the machine's load: 13 traces once, under load).
    let program = tests::load(src, &[]);
    let ics = frontend::ics::Ics::from_json(include_str!("ocdpor_literal_dependency.ics.json"))
        .and_then(|ics| ics.resolve(&program))
        .expect("the stored constraints fit the program");
    let ics = std::sync::Arc::new(ics);
    let finer = tests::explore_all(
        &program,
        &mut explorer::algorithms::naive::Naive::with_constraints(ics.clone()),
    );
    let report = tests::explore_all(
        &program,
        &mut explorer::dpor::Dpor::new(explorer::algorithms::ocdpor::OptimalConstrained::new(ics)),
    );
    assert_eq!(finer.stats.mazurkiewicz, Some(9));
    assert_eq!((report.stats.traces, report.stats.blocked), (9, 0));
    assert_agree(src);
}

/// Found in review of stop 28 (a campaign of 20,000 generated programs): `odpor-ob`
/// (both `--deps` modes) reached 84 of naive's 93 reads-from classes (check (j)),
/// pre-existing. The same cause as
/// `odpor_ob_an_observer_may_need_an_event_after_the_race`: an observed write/write
/// race's sequence `v` left out an event after `e'` not ordered after `e`, which the
/// observer's process needed first. odpor-ob: 105 executions, none blocked (measured;
/// 106 while a may-write an event did not make ordered it in `→ob`, 111 while its
/// redundancy check was over plain happens-before).
#[test]
fn odpor_ob_reaches_every_class_around_a_spawn_between_writes() {
    let src = "global int x;
global int y;
global int g;
proc p0(int v) { g = 1; g = v; }
proc p1() { y = 2; await (g != 0); x = x + 1; }
proc p2() { if (x == 0) { y = 2; } spawn p3(); yield; y = 0; }
proc p3() { assert(x != 2); await (g != 1); x = x + 1; int t0 = y; }
init { spawn p0(1); spawn p1(); spawn p2(); spawn p3(); }
";
    let naive = odpor_ob_reaches_every_class(src, 93, (105, 0));
    assert_eq!(naive.stats.final_states, 6);
}

/// Found in review of stop 28: odpor-ob and odpor-cs-ob (every mode) missed an
/// assertion naive finds (schedule `p1 p2 p1 p3 p1 p0 p1`), pre-existing. p1's first
/// write of x (`x = 0`, its second block) and p2's `x = 2` race, observed by p1's last
/// block; in the execution found, p1's third block reads y after p3's `y = 1`, which
/// comes after p2 and is not ordered after p1's write. ISSTA Fig. 1's `v` took the
/// events before `e'` not after `e` (`notdep*`) and those after `e` that no observer
/// precedes (`notobs*`), so p3 was in neither, the observer's process could not run
/// there, and `v` stopped before it: `p2 . x = 0`, which p0 (`g = 1`, asleep there)
/// was taken to cover beside it — but after p0, p1's third block writes x again.
/// `notobs*` now also takes the events after `e'` not ordered after `e`.
#[test]
fn odpor_ob_an_observer_may_need_an_event_after_the_race() {
    let src = "global int x; global int y; global int g; global int q;
proc p0() { g = 1; }
proc p1() { int t = x; yield; x = 0; yield; if (g == 1) { x = 2; } int u = y; yield;
    assert(!(t == 0 && u == 1 && x == 0 && q == 1), \"missed\"); }
proc p2() { x = 2; q = 1; }
proc p3() { y = 1; }
init { spawn p0(); spawn p1(); spawn p2(); spawn p3(); }
";
    let naive = assert_agree(src).naive;
    assert_eq!(naive.violations.len(), 1);
    let final_state_form = "global int x; global int y; global int g; global int z; global int w;
proc p0() { g = 1; }
proc p1() { z = x; yield; x = 0; yield; if (g == 1) { x = 2; } w = y; }
proc p2() { x = 2; }
proc p3() { y = 1; }
init { spawn p0(); spawn p1(); spawn p2(); spawn p3(); }
";
    assert_eq!(assert_agree(final_state_form).naive.stats.final_states, 8);
}

/// Found by the campaign `IC_DIFF_SEED=97531` once odpor-ob's redundancy check was over
/// `→ob` again, shrunk by hand: odpor-cs-ob reached 2 of naive's 3 final states,
/// missing a = 0, l = 0 (q r@3 r@2.1 p p: both r's write before p's `a = c`). At q, p
/// ran first and was blocked (q.p reaches p.q's state). Below q r@3, q r@3 p p r@2.1's
/// race of p's read with r@2.1 asked for r@2.1 at q r@3 p; its sequence r@3 p r@2.1
/// from q has p first over `→ob` (r@2.1 overwrites the a that p and r@3 wrote, unread)
/// and p in q's `done` — but p was only run and blocked there, nothing below it
/// explored: judged redundant, the reversal was dropped, and with it the race that
/// leads to r@3 r@2.1 p. Over plain happens-before p never came first (it conflicts
/// with r@3), which hid this. A step blocked at a node is no longer in its `done`.
/// Naive: 30 executions, 90 states, 3 final states, 20 Mazurkiewicz traces.
const SRC_BLOCKED_STEP: &str = "global int a = 0;
global int l = 5;
global int c = 0;
proc p() { a = c; yield; l = a; }
proc q() { spawn r(); c = c; }
proc r() { a = -1; }
init { spawn p(); spawn q(); spawn r(); }
";

#[test]
fn odpor_cs_ob_a_blocked_step_is_not_done() {
    check(SRC_BLOCKED_STEP, (30, 90, 3, 20), &[]);
    // odpor-cs-ob itself (measured): naive's 3 final states in 7 complete executions
    // and 2 blocked (4 complete, 8 blocked, 2 final states before; 7 and 8 while the
    // steps confirmed in don't-do sets ran and blocked, before
    // `Dpor::analyse_unrun_observed`; 7 and 0 while it settled them all: q's spawns r, so
    // it runs, `unrun_successors`).
    let program = tests::load(SRC_BLOCKED_STEP, &[]);
    let report = odpor_cs_ob(&program);
    assert_eq!((report.stats.traces, report.stats.blocked), (7, 2));
    assert_eq!(report.stats.final_states, 3);
}

/// Found by a CI-sized run of the differential test (seed 13461653086325970877),
/// pre-existing (present at 9dc6b76), shrunk by hand: odpor-cs-ob `--literal` reached 1
/// of naive's 2 final states, missing z = 0 (q r p p p p: r's `z = z + 1` before p's
/// `z = 0`). q.p.r was a proved don't-do sequence at the root (it reaches p.q.r's
/// state). Below q, q.p ran p's next step, which was blocked (a covered state); q.p's
/// tree was spent, and the only step left, r, was confirmed in dnd(q.p), so the node
/// ended — r never ran there, and its race with p's `z = 0`, the one race that asks
/// for r at q, never showed. A node whose tree is spent after a blocked step now runs
/// the confirmed don't-do steps left, for their races (as ISSTA'19 Alg. 1, lines
/// 17–19, where nothing else is enabled). Naive: 15 executions, 55 states, 2 final
/// states, 4 Mazurkiewicz traces, one deadlock (p waits at its last `await`).
#[test]
fn odpor_cs_ob_runs_the_dont_do_steps_left_for_their_races() {
    check(
        "global int x = 0;
global int z = 0;
proc p(int v) { z = 0; yield; await (v < x); v = x; yield; await (v < x); }
proc q() { z = 0; x = x; spawn r(); }
proc r() { z = z + 1; }
init { spawn p(-1); spawn q(); }
",
        (15, 55, 2, 4),
        &[(Deadlock, "deadlock: p at p#4 waiting", "p#4", "p p p p q r")],
    );
}

/// Found by the campaign `IC_DIFF_SEED=9191` (the reads-from check (j)), shrunk by
/// hand: odpor-ob reached 18 of naive's 20 reads-from classes, missing p@2 p@1 q p@1
/// p@2 and p@2 p@1 q p@2 p@1 (q reads m[-1] from p@1's first write, after p@2's). In
/// p@1 p@2 q p@1 p@2 the race of the two first writes is observed by q and by the end
/// (m[-1] keeps p@2's value); its reversal stopped at p̂@1 — the end is no step — so
/// the branch p@2.p@1 went on with p@1's second write, which overwrites m[-1] before q
/// reads it. From there the class was one reversal away (q before that write), and
/// that reversal was judged redundant: p@1, done at the root, comes first once the
/// overwrite hides the two first writes' order — covered as a class, not with this
/// neighbour (see `odpor_ob_a_covered_class_does_not_cover_its_neighbours`). The
/// reversal of a race observed by events and by the end now ends with the last of the
/// events, q: it asks for the class itself. odpor-ob: 30 executions (measured; 28
/// before stop 35's rule on overwrites in the prefix, `observers::redundant`), naive's
/// 30 Mazurkiewicz traces (all writes of m write 0: 2 final states).
#[test]
fn odpor_ob_an_observer_beside_the_end_reads_the_reversal() {
    let src = "global int y = -1;
global map m;
global list l = [];
proc p() { m[-1] = 0; yield; m[y] = 0; }
proc q() { l = append(l, m[-1]); y = 0; }
init { spawn p(); spawn p(); spawn q(); }
";
    let naive = odpor_ob_reaches_every_class(src, 20, (30, 0));
    assert_eq!(
        (
            naive.stats.traces,
            naive.stats.final_states,
            naive.stats.mazurkiewicz
        ),
        (30, 2, Some(30))
    );
}

/// Found by the campaign `IC_DIFF_SEED=3202`, pre-existing (present at 9dc6b76),
/// shrunk by hand: two p's take the tail of l = [1, 0], and q, after a `yield`,
/// awaits `head(l) > 0`. Naive: 2 Mazurkiewicz traces (q passes before both p's, one
/// final state; or it fails after both, `head` of an empty list). odpor completed
/// none: q's failing `await` after p@1 p@2 races with p@2 only, before which its guard
/// is false (l = [0]), and a failed `await` was not passed before the earlier writes
/// that disabled it (`Dpor::pass_disabling_writes`), which alone asks for q q q at
/// the root.
#[test]
fn odpor_a_failed_await_passes_the_writes_that_disabled_it() {
    let src = "global list l = [1, 0];
proc p() { l = tail(l); }
proc q() { yield; await (head(l) > 0); }
init { spawn p(); spawn p(); spawn q(); }
";
    let (naive, odpor) = naive_and_odpor(src);
    let s = &naive.stats;
    assert_eq!((s.traces, s.final_states, s.mazurkiewicz), (2, 1, Some(2)));
    assert_eq!((odpor.stats.traces, odpor.stats.blocked), (2, 0));
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=3707`, pre-existing (present at 9dc6b76),
/// shrunk by hand: two p's append to l, which starts empty, and q, after a `yield`,
/// awaits `head(l) < 0`. Naive: q deadlocks after both appends (2 Mazurkiewicz
/// traces), and its guard faults (`head` of an empty list) when it comes first. odpor
/// missed the runtime error: the probe of q after p@1 p@2 asked to pass the writes
/// that disabled it only where its guard holds (`Dpor::pass_disabling_writes`), and
/// before p@1 it faults. A guard that faults there passes now: the block runs and
/// fails.
#[test]
fn odpor_an_await_whose_guard_faults_passes_the_writes() {
    let src = "global list l = [];
proc p() { l = l ++ [0]; }
proc q() { yield; await (head(l) < 0); }
init { spawn p(); spawn p(); spawn q(); }
";
    let (naive, odpor) = naive_and_odpor(src);
    assert_eq!(naive.stats.mazurkiewicz, Some(2));
    let kinds = |r: &explorer::Report| -> Vec<ViolationKind> {
        let mut k: Vec<ViolationKind> = r.violations.iter().map(|v| v.kind).collect();
        k.sort_by_key(|k| format!("{k:?}"));
        k
    };
    assert_eq!(kinds(&naive), [Deadlock, Runtime]);
    assert_eq!(kinds(&odpor), kinds(&naive));
    assert_eq!((odpor.stats.traces, odpor.stats.blocked), (2, 0));
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=4212` on a first version of the rule that a
/// node goes on with one fresh process per blocked branch (`Dpor::choose_after_blocked`;
/// it went on until none was left before), as generated: odpor-cs and odpor-cs-ob
/// missed naive's only final state (r s p q, p failing on its division by zero). At
/// r, q (kept asleep past r by commutation) was settled, and p, the choice of line 3
/// that this leaves to make, was run and blocked; the fresh process p was counted as
/// the one owed to a blocked branch, so s, owed to p's block, was never run. Only a
/// choice made after a blocked branch pays for it now.
#[test]
fn odpor_cs_a_choice_of_line_3_pays_for_no_blocked_branch() {
    let src = "param K = 0;
global int x = 1;
global list l = [0, 0];
global list[2] c;
proc p() { if (len(l) > 0) { l[abs((abs((0 / K)) % 3)) % len(l)] = 0; } x = len(c[0]); }
proc q() { l = append(l, 0); x = 0; }
proc r() { l = tail(l); x = 0; }
proc s() { int n0 = 0; while (n0 < 1) { n0 = n0 + 1; l = tail(l); } x = 0; }
init { spawn p(); spawn q(); spawn r(); spawn s(); }
";
    let context = explorer::algorithms::csdpor::ContextSensitive::new();
    assert_eq!(odpor_cs_counts(src, context), (1, 4, 19, 1));
    assert_agree(src);
}

/// Found by the campaign `IC_DIFF_SEED=121212` (the optimality check: odpor explores
/// naive's Mazurkiewicz count with none blocked), pre-existing (present at 9dc6b76),
/// shrunk by hand. Every execution ends in p's failing assertion, so naive counts 0
/// complete executions and 0 Mazurkiewicz traces; odpor ended 1 execution blocked:
/// p q, where p's failing step sleeps (explored at p, where it failed, and
/// independent of q) and r is disabled (q set z = -1). q was asked for at p by the
/// probe of q's `await` after p r (r's `x = 0` disabled it). The sleeping step was
/// not taken as covering it because it conflicts with the race's write `x = 0`: a
/// rule for sleepers that write can disable, which a step without `await` is not
/// (`wakeup_tree::sleeper_covers`).
#[test]
fn odpor_blocks_none_where_every_execution_fails() {
    let src = "global int x = 0;
global int z = 2;
proc p() { x = 1; yield; assert(x == 5); }
proc q() { await (x != 0); z = -1; }
proc r() { await (z > 0); x = 0; }
init { spawn p(); spawn q(); spawn r(); }
";
    let (naive, odpor) = naive_and_odpor(src);
    assert_eq!(
        (
            naive.stats.traces,
            naive.stats.states,
            naive.stats.mazurkiewicz
        ),
        (0, 7, Some(0))
    );
    assert_eq!((odpor.stats.traces, odpor.stats.blocked), (0, 0));
}

/// Found by a campaign of stop 33 (`IC_DIFF_SEED=6030`), pre-existing (present at
/// b8437c7), shrunk by a script and by hand: ocdpor `--literal` explored 7 of the 8
/// traces of its dependency (naive's count with `R`), missing q@3 r p (q@2 never
/// runs: p disables it). The two q's commute by `R` (both write b = true), so q@2,
/// explored first at the root, stays asleep at q@3 past that conflict of footprints.
/// Below q@3, the race of p with r (p reads l, which r may write) asked for r first
/// and was refused as covered by q@2, asleep beside r. JACM's argument for that
/// needs q@2's own subtree to lead back: there the race of q@2 with p asked for
/// q@3 r p at the root, which the leaf q@3 of the tree took as covered — the very
/// exploration that refused it. And q@2 does not run in the trace asked for: p,
/// after r, disables it. In ocdpor a sleeper at an `await` no longer covers a
/// reversal whose first event (running after it) may disable it
/// (`wakeup_tree::sleeper_covers`, `Reduction::lifts`).
#[test]
fn ocdpor_a_sleeper_disabled_after_the_sequence_covers_nothing() {
    let src = "global int x = 0;
global int z = 0;
global bool b = false;
global list l = [];
proc p() {
    z = 2;
    x = (len(l) > 0 ? l[0] : 0);
}
proc q() {
    await (z <= 1);
    b = true;
}
proc r() {
    if (len(l) > 0) {
        l[0] = head(l);
    }
}
init { spawn p(); spawn q(); spawn q(); spawn r(); }
";
    let (finer, _, report) = ocdpor_against_finer(src);
    assert_eq!(finer.stats.mazurkiewicz, Some(8));
    assert_eq!((report.stats.traces, report.stats.blocked), (8, 0));
    assert_agree(src);
}

/// Found by a review campaign of stop 32 (every mode but cdpor and ocdpor, seed 777),
/// pre-existing (present at c4b73d1), shrunk by hand: odpor-cs-ob misses the final
/// state y = 0, m = [1], l = 1 (q@2 q@3 q@3# q@2# p r: both q's store m[0] = 1, then p
/// reads l = 0). `--literal` finds it; settling don't-do steps unrun is not the cause
/// (running them, it is still missed); the commutation of sleeping steps (odpor-cs's
/// note 6) is involved. The coverage is circular:
/// - at q@2 q@2# the step q@3 is kept asleep (s[q@2 q@3 q@2#] = s[q@2 q@2# q@3]),
///   trusting q@2 q@3's subtree to explore q@2 q@3 q@2# …;
/// - below q@2 q@3 q@3#, the race of p with q@2# (v = q@2#) is refused as covered by
///   a sleeper (`Dpor::insert_wakeup`): r sleeps there (explored at q@2) and commutes
///   with q@2#, so r's subtree is trusted;
/// - below q@2 r q@3 q@3#, q@2# and p are confirmed don't-do steps (their states were
///   reached under q@2 r q@2#), so the race of r with p after q@2# never shows there;
/// - under q@2 r q@2# q@3 q@3# p, that race asks for q@2# q@3 q@3# p at q@2 — which
///   is the branch where q@3 was kept asleep.
///
/// Each argument holds alone (a state covered, a sleeper covering); together they
/// cover each other and no execution reaches the class. Fixed in stop 33: in a search
/// that blocks by states, a sleeper beside `v` (with no step in it) no longer covers
/// it (`wakeup_tree::sleeper_covers`): JACM's argument for it needs the race its
/// subtree would see, and r's subtree was cut before it.
#[test]
fn odpor_cs_ob_circular_coverage_loses_a_final_state() {
    let src = "global int y = 0;
global int[1] m;
global int l = 0;
proc p() { y = l; }
proc q() { y = 1; yield; m[0] = y; }
proc r() { l = 1; }
init { spawn p(); spawn q(); spawn q(); spawn r(); }
";
    // Measured: naive's 3 final states in 8 complete executions and 2 blocked (6
    // and 2, with 2 final states, before).
    let report = odpor_cs_ob(&tests::load(src, &[]));
    assert_eq!(
        (
            report.stats.traces,
            report.stats.blocked,
            report.stats.final_states
        ),
        (8, 2, 3)
    );
    assert_agree(src);
}

/// Found by the same review campaign, pre-existing (present at c4b73d1), shrunk by
/// hand: odpor-ob misses 2 of naive's 30 reads-from classes (check (j) of the
/// differential test); its final states and its violation (a block that does not
/// terminate: `while (y == 0) { }` once the first y = x + y wrote 0) are naive's.
/// The classes missed have no failing block: p@3 p@2 p@2# p@3# p@1 p@1# and p@3 p@2
/// p@3# p@2# p@1 p@1# (p@1's loop reads y = 1 after both others' last block;
/// p@2# and p@3# read x from p@2's write, the later of the two). odpor-ob reaches the
/// classes with the two x writes the other way. With `int t = y;` in place of the
/// loop (no block can fail) every class is reached: the executions where a block
/// fails are involved. Traced with a debug build: below p@3 p@2 only p@1 is explored;
/// in p@3 p@2 p@1 p@1# p@2# p@3# the race of p@1# with p@2# asks for p@2# at p@3 p@2
/// p@1, and is judged redundant — p@2, done at the root, is a weak initial of p@3 p@2
/// p@1 p@2# over →ob, its x write being overwritten there before anyone reads it —
/// although in the classes missed p@2's write is read.
///
/// Fixed in stop 33. Where it went wrong first: in p@2 p@3 p@2# p@3# p@1 p@1#, the race
/// of p@2 with p@3 (x) is observed by p@2# and p@3#, and its sequence `v` (ISSTA
/// Fig. 1, line 6) ends with the last observer, p@3# — which reads y from p@2#, so it
/// cannot run without it, and `v` stopped at p@3 p@2, whose exploration went on with
/// p@1 first. `v` now ends with the last observer that can run there, p@2#
/// (`observers::reversals`): p@3 p@2 p@2# is explored, p@1's block fails after it (y =
/// 0), and the race of that failing read with p@3#'s write asks for p@3# first.
#[test]
fn odpor_ob_misses_reads_from_classes_beside_failing_blocks() {
    // Measured: 30 classes in 48 complete executions (33 before stop 35's rule on
    // overwrites in the prefix, `observers::redundant`, which this program's
    // argument above is an instance of; 31 and 28 classes before stop 33).
    odpor_ob_reaches_every_class(
        "global int x = 0;
global int y = -1;
proc p() {
    while (y == 0) { }
    x = 1;
    yield;
    y = (x + y);
}
init { spawn p(); spawn p(); spawn p(); }
",
        30,
        (48, 0),
    );
}

/// Found by the clock-seeded run of the differential test in stop 32 (seed
/// 5251059173844117505), pre-existing (present at c4b73d1), shrunk by proptest:
/// odpor-ob misses 3 of naive's 96 reads-from classes, with no block that fails —
/// the bug of `odpor_ob_misses_reads_from_classes_beside_failing_blocks` does not
/// need one. Final states and violations are naive's. Kept here rather than in
/// `differential.txt`, which would fail every run until it is fixed.
///
/// Fixed in stop 33. p's second block may write a[0] (`for i0 in 0..min(y, 1)`) and
/// never does (y stays 0), but its may-write ordered every two of them in `→ob`
/// (the end observing a[0]). That order hid the race of p@1's `y = len(l)` with p@2's
/// read of y behind p@1's second block; the race found instead, of the two second
/// blocks, put p@2's read after p@1's write, a sequence made redundant by a process
/// done at the root whose class does not lead back (the covered-class problem of
/// `observers::redundant`). A may-write an event did not make orders nothing now
/// (`observers::observers`, with the argument in `observers`' module documentation).
#[test]
fn odpor_ob_misses_reads_from_classes_generated() {
    // Measured: 96 classes in 938 complete executions since stop 39's
    // `Dpor::done_first_elsewhere` (392 with stop 35's rule on overwrites in the prefix,
    // which it replaced, 386 before that rule; 528 and 93 classes before).
    odpor_ob_reaches_every_class(
        "global int x = 0;
global int y = 0;
global int[3] a;
global list l = [];
proc p() {
    x = 0;
    y = len(l);
    yield;
    for i0 in 0..min(y, 1) {
        a[0] = 0;
    }
}
proc q() {
    x = 0;
    yield;
    if (y == 0) {
        x = abs(0);
    } else {
        y = max(0, 0);
    }
}
init {
    for k in 0..2 {
        spawn p();
    }
    spawn p();
    spawn q();
}
",
        96,
        (938, 0),
    );
}

/// Found by the campaign `IC_DIFF_SEED=9002` (check (j)), pre-existing (the generator
/// changed this stop, not odpor-ob), shrunk by hand (values, then lines: every one is
/// needed, and the order of the spawns): odpor-ob misses 6 of naive's 821 reads-from
/// classes, all of them `q q p@2 q …` (q's check reads y and z from p@2's first step).
/// No final state or violation is lost here; the same mechanism lost an assertion in
/// `odpor_ob_a_covered_class_does_not_cover_its_neighbours`. The coverage is circular
/// (`--stats`' redundant reversals, traced):
/// - under `q q p@2`, the only execution is `q q p@2 p@1 p@1 p@2 q p@4 p@4`; its race
///   of p@2's second step with q's check asks for `q` at `q q p@2 p@1 p@1`, redundant
///   by the root's `done` p@2: in `q q p@2 p@1 p@1 q` p@2's first step overwrites
///   q's writes of z and y, p@1 overwrites it before anyone reads, so p@2 comes first
///   in `→ob` and the class is that of `p@2 q q p@1 p@1 q …`, explored at the root;
/// - there, `p@2 q q q …` asks for `q p@2 q q` at the root (not redundant), and in
///   `q p@2 q q …` the race of p@2 with q's second step asks for `q p@2 q` at `q`,
///   redundant by `q`'s `done` q: the class `q q p@2 q …`, which the subtree of `q q`
///   was trusted to explore — and it had cut its p@2 branch by the first argument.
///
/// Each argument covers the class of the reversal; neither covers its neighbour where
/// q's check reads p@2's values.
///
/// Fixed in stop 35: the first argument rests on p@1's first step, in the prefix,
/// overwriting p@2's writes unread, and the reversal `q` reads p@1's values: the race
/// of that overwrite with q's check (hidden behind p@2's second step in the execution
/// explored) leads to the neighbour, at a node of the current path, where the
/// subtree of p@2 at the root has p@2 first and cannot. Such a pair was no longer
/// unordered for the check (`observers::redundant`). Measured: 821 classes in 2,375
/// complete executions.
///
/// Since stop 39 that rule is gone, replaced by a repair of the general cause
/// (`odpor_ob_misses_the_last_writer_of_a_check_after_circular_coverage` below,
/// `Dpor::done_first_elsewhere`): the 821 classes in 3,029 complete executions.
#[test]
fn odpor_ob_circular_coverage_misses_reads_from_classes() {
    let src = "global int y = 0;
global int z = 0;
global bool b = false;
proc p() { z = 0; y = 0; yield; y = z; }
proc q() { z = 0; yield; y = 0; yield; b = y == z; }
init { spawn p(); spawn p(); spawn q(); spawn p(); }
";
    // 815 of the 821 classes, in 2,196 complete executions, before.
    odpor_ob_reaches_every_class(src, 821, (3029, 0));
}

/// Found in stop 38 by the mutants test
/// (`IC_DIFF_SEED=251`, an edit of `odpor_ob_circular_coverage_misses_reads_from_classes`:
/// q's check moved before its last write), pre-existing (present at 3b066f3), shrunk
/// by deleting statements: odpor-ob misses 2 of naive's 2,043 reads-from classes, in
/// 4,308 complete executions. No final state or violation is lost here (one final
/// state). The two classes are `p@1 p@4 p@2 q q p@4 q p@2 p@1` and the same with p@1
/// and p@2's first steps swapped: p@4's check reads q's first y, p@2's and p@1's
/// checks read q's last, and p@1's check writes b last (the end observes b). The
/// exploration reaches `p@1 p@4 p@2 q q p@4 q` and runs only p@1 there (`p@1 p@4 p@2
/// q q p@4 q p@1 p@2`); the race of the two last writes of b asks for p@2 at that
/// node and is judged redundant (Fig. 1, line 9, over `→ob`): at `p@1 p@4 p@2 q`,
/// p@4 is done and a weak initial of `q p@4 q p@2` (q's and p@4's checks both write
/// b, which p@2's check overwrites unread, so they are unordered). But p@4's subtree
/// there, explored before q's, ran one execution, `p@4 p@1 p@2 q q` (its checks all
/// read q's first y), and none of its races led to the class: circular coverage
/// again, as in the test above (traced from `--tree`, stop 38).
///
/// The cause, found in stop 39: p@4's subtree cut its reversals that put q's check
/// first as covered by p@1's and p@2's subtrees. Their races led on to the class
/// `p@4 q q p@1 p@2` (p@4's check reads q's first y, the others q's last), but
/// through a sequence `q p@4 q` inserted into q's branch at `p@1 p@4 p@2 q`: the
/// end of that sequence read p@4's b, so p@4 did not come first in it. Once
/// explored, that execution has p@4 first over its `→ob` (p@1's check overwrites
/// p@4's b unread): the class was p@4's subtree's, which never reached it. Now such
/// an execution's races after p@4's event are not judged redundant by p@4 there
/// (`Dpor::done_first_elsewhere`). Measured: the 2,043 classes in 4,684 complete
/// executions (4,308 before).
#[test]
fn odpor_ob_misses_the_last_writer_of_a_check_after_circular_coverage() {
    let src = "global int y = 0;
global int z = 0;
global bool b = false;
proc p() { z = 0; y = 0; yield; b = y == z; }
proc q() { y = 0; yield; b = y == z; yield; y = 0; }
init { spawn p(); spawn p(); spawn q(); spawn p(); }
";
    odpor_ob_reaches_every_class(src, 2043, (4684, 0));
}

/// Found in stop 39 by a generator of programs of the shape above (two procedures
/// over y, z and b, blocks of checks that read and write; 4 of 3,000 programs of its
/// seed 2 lost classes, none of those nor of 3,000 at seed 3 since), pre-existing, shrunk by
/// deleting statements: odpor-ob missed 3 of naive's 74 reads-from classes, in 77
/// complete executions (odpor: 140), with no final state lost. The same cause as
/// above: a class that came first for a done process, reached in another branch,
/// whose neighbours were cut as that process's (`Dpor::done_first_elsewhere`). Measured:
/// the 74 classes in 87 complete executions.
#[test]
fn odpor_ob_a_class_reached_outside_the_done_subtree() {
    let src = "global int y = 0;
global int z = 0;
global bool b = false;
proc p() { y = 1; yield; b = z != 0; z = y; yield; b = y == z; }
proc q() { b = y != y; }
init { spawn p(); spawn p(); spawn q(); }
";
    odpor_ob_reaches_every_class(src, 74, (87, 0));
}

/// Found in stop 35 by the mutants test (`IC_DIFF_SEED=12`, an edit of
/// `sdpor_climbs_past_a_short_circuit_guard`: q also writes y), pre-existing (present
/// at c75c294): odpor-ob explores 2 of naive's 3 reads-from classes, missing `p q r p
/// p` (r passes after p's first block and q, before p clears f[0]); no final state or
/// violation is lost here (the assertion holds on every path).
///
/// Traced from the counters: r's probe after `p p q` (disabled by p's `f[0] = false`)
/// is analysed incrementally, by footprints, where q's `y = 1` conflicts with p's `y =
/// 1` before it: `notdep` of p's second block is empty, and `r` alone at `p` cannot
/// pass (f[1] is false). Over `→ob` of the complete execution `p p q p r`, p's third
/// block overwrites both y's unread, q commutes with p's second block, and `q r` at
/// `p` passes: the class missed. The end's re-probing
/// (`odpor_ob_probes_the_processes_blocked_at_the_end`) covers only processes still
/// blocked at the end; r ran, and the race of the real `await` (with p's third block)
/// is judged in vain.
///
/// Fixed in the same stop: once an execution ends, each of its real `await` events
/// asks to run before the writes that disabled it, over `→ob`, as a probe at the end
/// does (`Dpor::observed_races`, `Dpor::pass_disabling_writes_at`). Measured: the 3
/// classes in 4 complete executions and 1 blocked (odpor's 4 Mazurkiewicz traces).
#[test]
fn odpor_ob_a_wait_in_the_middle_is_probed_by_footprints() {
    let src = "global int y = 0;
global bool[2] f;
proc p() { f[0] = true; yield; f[0] = false; y = 1; yield; y = 2; f[0] = true; }
proc q() { f[1] = true; y = 1; }
proc r() { await (f[0] && f[1]); assert(y != 0); }
init { spawn p(); spawn q(); spawn r(); }
";
    // 2 of the 3 classes, in 2 complete executions, before.
    odpor_ob_reaches_every_class(src, 3, (4, 1));
}

/// Found in stop 35 among 300 variants of the program above (statements changed,
/// added and removed at random by a script of that stop), pre-existing, shrunk by
/// deleting lines (none can go): odpor-ob missed 216 of naive's 38,705 reads-from
/// classes, with the rule of `observers::redundant` for an overwrite in the prefix
/// read by a step of the reversal only. Its overwrite's value was read after the
/// reversal, by the continuation (the end of the sequence reads every global): the
/// same neighbour is lost through a race of the overwrite with a later reader. The
/// rule then counted that reader too. Measured: 38,705 classes in 91,275 complete
/// executions (every algorithm agrees with naive on it: `one_file` of the
/// differential test, 11 s in a release build); in 104,904 since stop 39, where
/// `Dpor::done_first_elsewhere` replaced that rule.
#[test]
fn odpor_ob_an_overwrite_read_after_the_sequence() {
    let src = "global int y = 0;
global int z = 0;
global bool b = false;
proc p() { z = 0; y = 0; yield; z = z + 1; yield; y = z; }
proc q() { z = 0; yield; y = 0; yield; b = y == z; }
init { spawn p(); spawn p(); spawn q(); spawn p(); }
";
    odpor_ob_reaches_the_classes(src, 38705, (104904, 0));
}

/// Built by hand to test the bound on the writes a disabled `await`'s probe left
/// out (the last four writers of `notdep`): odpor explored 24 of the 48 Mazurkiewicz
/// traces and ocdpor 1 of 2, both missing the final state where p passes first
/// (z = 1). The first execution runs a's `x = 1`, the four `y = y + 1`, d's `w = 1`,
/// then p's `await` fails. Only p before a, after d, passes early; the probe of
/// p's race with a puts `notdep` (the increments and `w = 1`) first and must leave
/// out the first increment, with the three after it — the fifth writer from the
/// end. The probe now tries every antichain of the writers
/// (`explorer::dpor::leaving_out`).
#[test]
fn a_probe_leaves_out_a_writer_far_from_the_end() {
    check(
        "global int x = 0;
         global int y = 0;
         global int z = 0;
         global int w = 0;
         proc d() { w = 1; }
         proc a() { x = 1; }
         proc b() { y = y + 1; }
         proc p() { await (w == 1 && (x == 0 && y == 0 || x == 1 && y == 4)); z = 1 + x; }
         init {
             spawn a();
             spawn b(); spawn b(); spawn b(); spawn b();
             spawn d();
             spawn p();
         }",
        (840, 3003, 2, 48),
        &[],
    );
}

/// Found by the small-scope test (program 864186): cdpor and odpor-cs-ob (and
/// `--literal`) lost the final state x = 0, y = 1 with q waiting, reached only by r
/// r p p. After r q r, p's `y = 1` was settled: with q past its `await`, q's `y = 1`
/// to come makes y dead, so p's and r's writes of it commute there. But the race of
/// q's `await` with p's second step, `x = 0`, is the only one to ask for r before q
/// after r, and it lies past the settled step; in the covering executions (p first)
/// the same race puts p's steps before q's `await` with p's `y = 1` before r's, another
/// final state. The races of the blocked step's future are now analysed
/// (`Dpor::future_races`). Naive: 41 traces, 10 Mazurkiewicz traces.
#[test]
fn a_covered_state_hides_the_races_of_what_follows() {
    check(
        "global int x = 0;
         global int y = 0;
         proc p() { y = 1; yield; x = 0; }
         proc q() { await (x == 1); yield; y = 1; }
         proc r() { x = x + 1; yield; y = y + 1; }
         init { spawn p(); spawn q(); spawn r(); }",
        (41, 117, 6, 10),
        &[(Deadlock, "deadlock: q at q waiting", "q", "p r p r")],
    );
}

/// Found by the small-scope test (program 177962, with three more of its shape):
/// odpor-cs-ob reached 3 of naive's 5 final states, missing the two with x = 2 (q's
/// two steps first, then p's guarded write). After q's dead read of x, p's `if (y ==
/// 0) { x = 2; }` is settled: both orders reach one state, modulo q's dead `t0`. In
/// the covering executions (p first) q's `x = 1` happens after p's write through
/// q's read; after q's read and p's step it does not, and the race of the two writes,
/// the only one to ask for q's two steps first, was seen nowhere. q is the block's
/// partner (`sleep::Ends::partners`): its future is now analysed there
/// (`Dpor::future_races`).
#[test]
fn odpor_cs_ob_a_settled_step_hides_a_race_with_another_process() {
    check(
        "global int x = 0;
         global int y = 0;
         proc p() { if (y == 0) { x = 2; } yield; y = x; }
         proc q() { int t0 = x; yield; x = 1; }
         proc r() { y = 1; }
         init { spawn p(); spawn q(); spawn r(); }",
        (30, 90, 5, 15),
        &[],
    );
}

/// Found by the small-scope test (program 2063563, shrunk by hand): odpor-cs-ob
/// `--literal` reached 1 of naive's 2 final states, missing x = 2 (r's two writes,
/// then q's guarded write while y is 0). After q then p, r's `x = 1` blocks: q p r
/// reaches the state of p q r, where q, run after p's `y = 1`, wrote nothing. Here
/// q wrote x = 2, which r's second `x = 1` may overwrite past the block, r's first
/// write in between read by nothing: a race over `→ob` that plain happens-before
/// hides (q → r → r through x), in no covering execution; and the reversals that
/// would reach x = 2 from the r-first branch (r's second write before q's read) were
/// judged covered by q's subtree at the root, which holds this blocked branch. The
/// races of a blocked step's future are now also found over `→ob`
/// (`Dpor::future_observed_races`). The default mode reached both: it orders its
/// branches otherwise.
#[test]
fn odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race() {
    let src = format!("{SRC_GUARDED_WRITE_OVERWRITTEN}init {{ spawn p(); spawn q(); spawn r(); }}");
    check(&src, (90, 271, 2, 18), &[]);
}

/// The procs of `odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race` and
/// `odpor_cs_ob_literal_a_future_asked_for_is_not_covered_by_its_asker`, which spawn them.
const SRC_GUARDED_WRITE_OVERWRITTEN: &str = "global int x = 0;
global int y = 0;
proc p() { y = 1; yield; y = 1; }
proc q() { if (y == 0) { x = 2; } yield; int t1 = x; }
proc r() { x = 1; yield; x = 1; }
";

/// Found by the mutants test (seed 341) from the program above with r spawned
/// twice: odpor-cs-ob `--literal` reached 1 of naive's 2 final states, missing x = 2
/// again (both r's writes before q's guarded one while y is 0); the default mode
/// reached both. q's subtree at the root blocked at q p r@4, the state of p q r@4
/// (where q wrote nothing), and asked, for r@3's future, for r@4 r@3 at the root;
/// there the race of q's read with r@3's second write, the first step towards x = 2,
/// was judged covered by q done at the root (r@3's write overwrites q's unread, so
/// q is a weak initial), and so was its mirror with r@4. A process whose subtree
/// asked for a sequence at a node for a blocked step's future is no longer done
/// there (`Dpor::delegate`).
#[test]
fn odpor_cs_ob_literal_a_future_asked_for_is_not_covered_by_its_asker() {
    let src = format!(
        "{SRC_GUARDED_WRITE_OVERWRITTEN}init {{ spawn p(); spawn q(); spawn r(); spawn r(); }}"
    );
    check(&src, (2520, 7365, 2, 270), &[]);
}

/// `odpor_cs_ob_a_settled_step_hides_a_race_with_another_process` one process
/// further: q's dead read of x also writes z, and s's `x = 1` depends on z. In the
/// covering executions (p first) s's write happens after p's through q's read and
/// s's read of z; after q, then p settled, it does not, and neither q's future (it
/// has none) nor p's shows the race. s is chained to the partner q by its read of
/// what q wrote (`dpor::chained`); odpor-cs-ob reached 6 of 8 final states with
/// the partners' futures alone, missing x = 2 with w = 1.
#[test]
fn odpor_cs_ob_a_process_chained_to_a_partner_races_with_the_settled_step() {
    check(
        "global int x = 0;
         global int y = 0;
         global int z = 0;
         global int w = 0;
         proc p() { if (y == 0) { x = 2; } yield; y = x; }
         proc q() { int t0 = x; z = 1; }
         proc s() { if (z == 1) { x = 1; w = 1; } }
         proc r() { y = 1; }
         init { spawn p(); spawn q(); spawn s(); spawn r(); }",
        (60, 171, 8, 27),
        &[],
    );
}

/// Found by a generator of four processes with compound blocks built for the class
/// of `odpor_cs_ob_a_settled_step_hides_a_race_with_another_process` (1 program of
/// 1,500 before the fix, none after; shrunk by hand): odpor-cs-ob reached 8 of
/// naive's 9 final states, missing x = 1, y = 1, z = 0, w = 1 (the mutants of
/// `mutants::SEEDS` vary its shape).
#[test]
fn odpor_cs_ob_partners_of_a_targeted_program() {
    check(
        "global int x = 0;
         global int y = 0;
         global int z = 0;
         global int w = 0;
         proc p() { if (w == 2) { y = 1; x = 1; } yield; if (y == 2) { z = 2; w = 1; } }
         proc q() { w = w + 1; yield; int t1 = x; }
         proc r() { w = 1; yield; w = 1; }
         proc s() { y = 2; }
         init { spawn p(); spawn q(); spawn r(); spawn s(); }",
        (630, 1841, 9, 120),
        &[],
    );
}
