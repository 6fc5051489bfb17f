//! `--livelocks`: the fair cycles of the state graph, each a lasso that `--replay`
//! runs; no cycle that some process enabled throughout it could leave (a spinning
//! waiter) is reported.

mod common;

use common::*;

/// `benches/programs/cyclic/backoff.ic`: `left` raises a, `right` raises b, and from
/// there each in turn lowers and raises its flag again (`left left right right`),
/// returning to the state where both are raised and both look: the lasso
/// `left right ( left left right right )`, found by the stateful reference (the
/// default with --livelocks), exit 1; its witness replays the cycle.
#[test]
fn a_back_off_livelock_is_reported_with_a_lasso_that_replays() {
    let backoff = repo("benches/programs/cyclic/backoff.ic");
    let backoff = backoff.to_str().unwrap();
    let witness = file("livelocks", "backoff.json", "");
    let witness = witness.to_str().unwrap();
    let o = ic_check(&["--livelocks", "--witness", witness, backoff]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("algorithm:    stateful\nresult:       violation\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "livelock: after step 2, the 4 steps in parentheses return to the same state, and \
             every process enabled throughout the cycle takes a step in it (left, right)"
        ),
        "{out}"
    );
    assert!(
        out.contains("schedule: left right ( left left right right )\n"),
        "{out}"
    );
    assert!(
        out.contains("cycle: steps 3 to 6 return to the state after step 2"),
        "{out}"
    );
    let o = ic_check(&["--replay", witness, backoff]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("1 finding of stateful"),
        "{}",
        stdout(&o)
    );
    // Without --livelocks, nothing is wrong: no assertion fails, no deadlock.
    let o = ic_check(&["--algo", "stateful", backoff]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A spinning waiter while the holder could release is no livelock: the holder is
/// enabled throughout the waiter's cycle and never steps in it. The spinlock of
/// `benches/programs/cyclic/spinlock.ic`, N = 2..4: verified, exit 0.
#[test]
fn a_spinlock_has_no_livelock() {
    let spinlock = repo("benches/programs/cyclic/spinlock.ic");
    for n in 2..=4 {
        let o = ic_check(&[
            "--livelocks",
            "-D",
            &format!("N={n}"),
            spinlock.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "N = {n}: {}", stdout(&o));
    }
}

/// A process that spins on a flag nobody will set: from s0, `spin` enters its loop
/// (s1 = spin at spin#1), and from s1 its step returns to s1. The only process,
/// enabled throughout and stepping: `spin ( spin )`.
#[test]
fn a_spin_nobody_ends_is_a_livelock() {
    let src = file(
        "livelocks",
        "spin.ic",
        "global int x = 0;\nproc spin() { while (x == 0) { yield; } }\ninit { spawn spin(); }\n",
    );
    let o = ic_check(&["--livelocks", src.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("livelock: after step 1, the step in parentheses returns"),
        "{out}"
    );
    assert!(out.contains("schedule: spin ( spin )\n"), "{out}");
}

/// Only the unreduced search sees every cycle: another --algo is refused (exit 2); a
/// lasso whose cycle does not return is refused by --replay.
#[test]
fn livelocks_need_the_stateful_reference_and_lassos_must_close() {
    let backoff = repo("benches/programs/cyclic/backoff.ic");
    let backoff = backoff.to_str().unwrap();
    let o = ic_check(&["--livelocks", "--algo", "dl-spor", backoff]);
    fails_with(
        &o,
        2,
        "--livelocks looks for fair cycles in the whole state graph",
    );
    let o = ic_check(&["--replay", "left right ( left left right )", backoff]);
    fails_with(
        &o,
        2,
        "the cycle (steps 3 to 5) does not return to the state after step 2",
    );
    let o = ic_check(&["--replay", "left ( right", backoff]);
    fails_with(&o, 2, "`(` with no `)`");
}
