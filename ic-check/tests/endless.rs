//! Executions without end. A process that loops for ever across blocks is reported,
//! with its schedule, by every stateless algorithm: as a non-terminating execution
//! when its state recurs, as a depth limit when it does not. Without `--algo`, a state
//! that recurs switches to a stateful search (dl-spor), which explores each state once
//! and reports no false non-termination.

mod common;

use common::*;

/// `spin` flips `x` for ever: after `once` has run (or before), the state after two
/// `spin` steps is the state before them. The first states compared are at depth
/// 1,000, so the lasso is found at step 1,002 with the cycle 1,001..1,002.
const SPIN: &str = "global int x = 0;
proc spin() { while (true) { x = 1 - x; yield; } }
proc once() { x = 5; }
init { spawn spin(); spawn once(); }
";

/// `grow` counts for ever: no state recurs.
const GROW: &str = "global int x = 0;
proc grow() { while (true) { x = x + 1; yield; } }
init { spawn grow(); }
";

/// Exit 1, the finding on stdout, no panic.
fn finds(o: &std::process::Output, finding: &str) {
    assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
    assert!(stdout(o).contains(finding), "{}", clip(&stdout(o)));
    no_panic(o);
}

#[test]
fn a_recurring_state_is_a_non_terminating_execution_in_every_algorithm() {
    let spin = file("endless", "spin.ic", SPIN);
    for algo in ["naive", "sdpor", "odpor-cs", "csdpor", "cdpor"] {
        let o = ic_check(&["--algo", algo, spin.to_str().unwrap()]);
        finds(
            &o,
            "non-terminating execution: the state after step 1000 recurs after step 1002: \
             steps 1001 to 1002 can repeat for ever (block spin#1)",
        );
        let out = stdout(&o);
        let schedule = out
            .lines()
            .find_map(|l| l.strip_prefix("schedule: "))
            .expect("a schedule");
        // Printed compressed (`spin x1001`), it is 1,002 steps.
        let steps = explorer::schedule::parse(schedule).expect("the schedule parses");
        assert_eq!(steps.len(), 1002, "{algo}: {}", clip(schedule));
        assert!(
            schedule.len() < 40,
            "{algo}: not compressed: {}",
            clip(schedule)
        );
    }
}

#[test]
fn a_growing_execution_stops_at_max_depth() {
    let grow = file("endless", "grow.ic", GROW);
    let o = ic_check(&["--max-depth", "50", grow.to_str().unwrap()]);
    finds(
        &o,
        "depth limit: the execution reached 50 events (--max-depth) (block grow#1)",
    );
    let o = ic_check(&["--json", "--max-depth", "50", grow.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("\"kind\":\"depthlimit\""),
        "{}",
        clip(&stdout(&o))
    );
}

#[test]
fn a_witness_of_an_endless_execution_replays() {
    let spin = file("endless", "spin-witness.ic", SPIN);
    let witness = spin.with_extension("json");
    let o = ic_check(&[
        "--algo",
        "cdpor",
        "--witness",
        witness.to_str().unwrap(),
        spin.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = ic_check(&[
        "--replay",
        witness.to_str().unwrap(),
        spin.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", clip(&stderr(&o)));
    no_panic(&o);
}

#[test]
fn no_example_or_benchmark_reaches_the_default_depth() {
    // The deepest run of the suites is MS(220): 877 events, far below 10,000; the
    // differential and benchmark tests would report a depth limit otherwise.
    let o = ic_check(&[
        "--json",
        "-D",
        "N=220",
        repo("benches/programs/ms.ic").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", clip(&stdout(&o)));
}

/// The test-and-set spinlock of `benches/programs/cyclic/spinlock.ic` (two workers):
/// without `--algo`, cdpor finds a state that recurs (a worker spinning), says so on
/// stderr, and stores states instead (dl-spor): verified, exit 0, no false
/// non-termination, the reference's 19 states.
#[test]
fn without_algo_a_cycle_switches_to_a_stateful_search() {
    let spinlock = repo("benches/programs/cyclic/spinlock.ic");
    let o = ic_check(&[spinlock.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", clip(&stdout(&o)));
    let out = stdout(&o);
    assert!(
        out.contains("algorithm:    dl-spor\nresult:       ok\n"),
        "{out}"
    );
    assert!(out.contains("final states: 1\n"), "{out}");
    assert!(out.contains("stored:       19 ("), "{out}");
    assert!(
        stderr(&o).contains("note: cdpor found a cycle (the state after step 1000 recurs"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("storing states instead (--algo dl-spor)"),
        "{}",
        stderr(&o)
    );
    // With --algo, the choice stands: the stateless search stops at the cycle and
    // says which search explores it.
    let o = ic_check(&["--algo", "cdpor", spinlock.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", clip(&stdout(&o)));
    assert!(stdout(&o).contains("hint: the state space has a cycle; `--algo dl-spor`"));
    // A program that only loops has no final state: no finding without a liveness
    // check, and the summary says so.
    let spin = file("endless", "spin-only.ic", SPIN);
    let o = ic_check(&["--quiet", spin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", clip(&stdout(&o)));
    assert!(stdout(&o).contains("final states: 0\n"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "--quiet: {}", stderr(&o));
}

/// The locks of `benches/programs/cyclic/` with no flag but their size: each correct
/// one verified (exit 0) by the search `ic-check` switches to, with dl-spor's stored
/// states (the table of BENCHMARKS.md) and its final states; each buggy one's
/// violation found (exit 1) with a witness that `--replay` runs to the violation.
#[test]
fn without_algo_the_cyclic_locks_are_verified_and_their_bugs_found() {
    let correct: [(&str, Option<&str>, &str, &str); 6] = [
        ("spinlock.ic", Some("N=6"), "3583", "1"),
        ("peterson.ic", None, "96", "2"),
        ("dekker.ic", None, "101", "2"),
        ("filter.ic", Some("N=3"), "4735", "3"),
        ("ticket.ic", Some("N=4"), "3158", "1"),
        ("bakery.ic", Some("N=2"), "224", "1"),
    ];
    for (name, size, stored, finals) in correct {
        let path = repo(&format!("benches/programs/cyclic/{name}"));
        let mut args = vec!["--quiet"];
        args.extend(size.iter().flat_map(|s| ["-D", *s]));
        args.push(path.to_str().unwrap());
        let o = ic_check(&args);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", clip(&stdout(&o)));
        let out = stdout(&o);
        assert!(
            out.contains("algorithm:    dl-spor\nresult:       ok\n"),
            "{name}: {out}"
        );
        assert!(
            out.contains(&format!("final states: {finals}\n")),
            "{name}: {out}"
        );
        assert!(
            out.contains(&format!("stored:       {stored} (")),
            "{name}: {out}"
        );
    }
    let buggy: [(&str, Option<&str>); 5] = [
        ("spinlock_split.ic", Some("N=3")),
        ("peterson_swapped.ic", None),
        ("filter_buggy.ic", Some("N=3")),
        ("ticket_buggy.ic", Some("N=3")),
        ("bakery_buggy.ic", Some("N=2")),
    ];
    for (name, size) in buggy {
        let path = repo(&format!("benches/programs/cyclic/{name}"));
        let witness = file("endless", &format!("{name}.json"), "");
        let mut args = vec!["--quiet", "--witness", witness.to_str().unwrap()];
        args.extend(size.iter().flat_map(|s| ["-D", *s]));
        args.push(path.to_str().unwrap());
        let o = ic_check(&args);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", clip(&stdout(&o)));
        assert!(stdout(&o).contains("violation"), "{name}: {}", stdout(&o));
        let mut replay = vec!["--replay", witness.to_str().unwrap()];
        replay.extend(size.iter().flat_map(|s| ["-D", *s]));
        replay.push(path.to_str().unwrap());
        let o = ic_check(&replay);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", clip(&stderr(&o)));
        assert!(
            stdout(&o).contains("violation"),
            "{name} replayed: {}",
            stdout(&o)
        );
        no_panic(&o);
    }
}
