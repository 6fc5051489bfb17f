//! Shrunk programs on which a reduced algorithm disagreed with `naive`, each with the
//! exact numbers `naive` derives for it (checked first, so that a change of `naive`
//! shows up here too), then the full differential comparison.

use super::assert_agree;
use explorer::ViolationKind::{self, Assert, Deadlock, Runtime};

/// `naive`'s (traces, states, final states, Mazurkiewicz traces) and violations
/// (kind, message, block, schedule), then every reduced algorithm against it.
fn check(
    source: &str,
    counts: (u64, u64, u64, u64),
    violations: &[(ViolationKind, &str, &str, &str)],
) {
    let naive = tests::explore_all(&tests::load(source, &[]), &mut explorer::naive::Naive::default());
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
#[ignore = "bug: an `await` reached after the write that disables it is never probed (the newest event writes nothing)"]
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
#[ignore = "bug: csdpor's state comparison takes a process stopped by a failure for one that ended"]
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
#[ignore = "bug: csdpor's state comparison takes a process stopped by a failure for one that ended"]
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
/// Mazurkiewicz trace, 1 final state — a deadlock, reported twice, because the
/// message lists the blocked processes in their creation order along the execution:
/// `q@1.1 at q, q@2.1 at q` after `p@1 p@2`, `q@2.1 at q, q@1.1 at q` after `p@2 p@1`.
/// sdpor and csdpor explore one order and report one message.
///
/// The deadlock is the same; its text should be a function of the final state (list
/// the blocked processes sorted by identity) so that every algorithm reports it alike.
#[test]
#[ignore = "bug: a deadlock's message depends on the interleaving (blocked processes in creation order)"]
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
        &[
            (
                Deadlock,
                "deadlock: q@1.1 at q, q@2.1 at q waiting",
                "q",
                "p@1 p@1 p@2 p@2",
            ),
            (
                Deadlock,
                "deadlock: q@2.1 at q, q@1.1 at q waiting",
                "q",
                "p@2 p@1 p@1 p@2",
            ),
        ],
    );
}

/// The same, minimised by hand.
#[test]
#[ignore = "bug: a deadlock's message depends on the interleaving (blocked processes in creation order)"]
fn deadlock_message_is_a_function_of_the_state() {
    check(
        "proc p() { spawn q(); }
         proc q() { await (false); }
         init { spawn p(); spawn p(); }",
        (2, 5, 1, 1),
        &[
            (Deadlock, "deadlock: q@1.1 at q, q@2.1 at q waiting", "q", "p@1 p@2"),
            (Deadlock, "deadlock: q@2.1 at q, q@1.1 at q waiting", "q", "p@2 p@1"),
        ],
    );
}
