//! Issue 13, items 6 and 8: witness files (`--witness FILE`, `--replay FILE`),
//! `--max-traces N` on a program with exactly N executions, and the final states
//! themselves (`--finals`, `finals` in `--json`).

mod common;

use common::*;
use serde_json::{json, Value};
use std::path::Path;

/// Two processes each read `x`, yield, and write back what they read plus `N`.
///
/// Hand-derived, naive: each process runs two blocks (`p`: `t = x`; `p#1`: `x = t + N`),
/// so there are C(4, 2) = 6 interleavings. The two serial ones (p@1 p@1 p@2 p@2 and
/// p@2 p@2 p@1 p@1) end in `x = 2N`; in the 4 others both read 0 and the last write
/// wins: `x = N`. Naive explores depth first in spawn order, so the first execution
/// reaching `x = 2N` is `p@1 p@1 p@2 p@2`, and the first reaching `x = N` is
/// `p@1 p@2 p@1 p@2`. Mazurkiewicz traces: the two reads commute, so 4.
const LOST_UPDATE: &str = "\
param N = 1;
global int x = 0;
proc p() { int t = x; yield; x = t + N; }
init { spawn p(); spawn p(); }
";

/// `a` increments, `b` doubles, `c` waits for `x == 2` and then sets 7.
///
/// Hand-derived: `c` can run only where `x == 2`. `a b` gives 0 → 1 → 2, then `c`
/// runs: `x = 7`, every process ended (schedule `a b c`). `b a` gives 0 → 0 → 1, and
/// `c` waits forever: the final state `x = 1` with `c` still at its block `c`, a
/// deadlock (schedule `b a`). `c` is enabled nowhere else, so these are the only two
/// executions, one each.
const DEADLOCK: &str = "\
global int x = 0;
proc a() { x = x + 1; }
proc b() { x = x * 2; }
proc c() { await (x == 2); x = 7; }
init { spawn a(); spawn b(); spawn c(); }
";

/// `q` asserts that both `p`s added: it fails when a write is lost, or when it runs
/// after one `p` only. Every finding needs `N` to read as its message says.
const ASSERTS: &str = "\
param N = 1;
global int x = 0;
proc p() { int t = x; yield; x = t + N; }
proc q() { await (x > 0); assert(x == 2 * N); }
init { spawn p(); spawn p(); spawn q(); }
";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json_of(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn sha256(text: &str) -> String {
    frontend::ics::sha256_hex(text.as_bytes())
}

#[test]
fn witness_file_round_trip() {
    let prog = file("witness-trip", "asserts.ic", ASSERTS);
    let w = prog.with_file_name("w.json");
    // With N = 2 (not the default): the replay must apply it.
    let o = ic_check(&["--witness", s(&w), "-D", "N=2", "--algo", "naive", s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    no_panic(&o);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&w).unwrap()).unwrap();
    // Naive's first failing execution, depth first in spawn order: p@1 p@1 p@2 p@2 q
    // passes (x = 4), then p@1 p@1 p@2 q: q finds x = 2 ≠ 4.
    assert_eq!(
        written,
        json!({
            "format": "ic-check-witness/1",
            "program": {"sha256": sha256(ASSERTS), "file": s(&prog)},
            "params": {"N": 2},
            "max_steps": 1000000,
            "algorithm": "naive",
            "findings": [{
                "kind": "assert",
                "message": "assertion failed",
                "block": "q",
                "schedule": "p@1 p@1 p@2 q",
                "line": 4,
                "column": 27,
            }],
        })
    );

    let o = ic_check(&["--replay", s(&w), s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!(
            "witness: {} (1 finding of naive on {}, N = 2)\n\nassertion violation: assertion failed (block q)\n",
            s(&w),
            s(&prog)
        )),
        "{out}"
    );
    assert!(out.contains("schedule: p@1 p@1 p@2 q\n"), "{out}");
    // The states along it (x = 2 after p@1's write: N = 2 was applied), ending with the finding.
    assert!(
        out.contains("  2. p@1 runs p#1\n    x = 2\n"),
        "N = 2 not applied:\n{out}"
    );
    assert!(
        out.ends_with(&format!(
            "  4. q runs q: assertion failed at {}:4:27\n",
            s(&prog)
        )),
        "{out}"
    );
    // The same -D and --max-steps as the witness's are allowed.
    let o = ic_check(&[
        "--replay",
        s(&w),
        "-D",
        "N=2",
        "--max-steps",
        "1000000",
        s(&prog),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), out);
}

#[test]
fn witness_file_of_every_kind_of_finding() {
    // A deadlock, found by each algorithm.
    let prog = file("witness-kinds", "deadlock.ic", DEADLOCK);
    for algo in ["naive", "sdpor", "csdpor", "cdpor"] {
        let w = prog.with_file_name(format!("{algo}.json"));
        let o = ic_check(&["--witness", s(&w), "--algo", algo, s(&prog)]);
        assert_eq!(o.status.code(), Some(1), "{algo}: {}", stderr(&o));
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&w).unwrap()).unwrap();
        assert_eq!(written["algorithm"], algo);
        assert_eq!(written["params"], json!({}));
        assert_eq!(
            written["findings"],
            json!([{"kind": "deadlock", "message": "deadlock: c at c waiting",
                    "block": "c", "schedule": "b a"}])
        );
        let o = ic_check(&["--replay", s(&w), s(&prog)]);
        assert_eq!(o.status.code(), Some(1), "{algo}: {}", stderr(&o));
        assert!(
            stdout(&o).ends_with(
                "  2. a runs a\n    x = 1\n    a: ended\n    b: ended\n    c: at c\n  \
                 deadlock: no process can run, and not all have ended\n"
            ),
            "{algo}: {}",
            stdout(&o)
        );
    }

    // A runtime error in init: an empty schedule.
    let init = file(
        "witness-kinds",
        "init.ic",
        "param N = 0;\nglobal int x = 0;\ninit { x = 10 / N; }\n",
    );
    let w = init.with_file_name("init.json");
    let o = ic_check(&["--witness", s(&w), s(&init)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = ic_check(&["--replay", s(&w), s(&init)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("schedule: (in init)\ninit fails: division by zero\n"),
        "{}",
        stdout(&o)
    );

    // Several findings (--all-violations): each replays, in order.
    let prog = file("witness-kinds", "asserts.ic", ASSERTS);
    let w = prog.with_file_name("all.json");
    let o = ic_check(&["--witness", s(&w), "--all-violations", s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&w).unwrap()).unwrap();
    let n = written["findings"].as_array().unwrap().len();
    assert!(n >= 1, "{written}");
    let o = ic_check(&["--replay", s(&w), s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).matches("assertion violation: ").count(),
        n,
        "{}",
        stdout(&o)
    );

    // Nothing found: the file says so, and replaying it finds nothing.
    let ok = file("witness-kinds", "ok.ic", LOST_UPDATE);
    let w = ok.with_file_name("none.json");
    let o = ic_check(&["--witness", s(&w), s(&ok)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&w).unwrap()).unwrap();
    assert_eq!(written["findings"], json!([]));
    let o = ic_check(&["--replay", s(&w), s(&ok)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("no finding: the run that wrote it found nothing\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_witness_of_another_program_text_is_refused() {
    let prog = file("witness-tamper", "asserts.ic", ASSERTS);
    let w = prog.with_file_name("w.json");
    let o = ic_check(&["--witness", s(&w), s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // One character changed: the schedules may mean something else now.
    let tampered = ASSERTS.replace("2 * N", "3 * N");
    std::fs::write(&prog, &tampered).unwrap();
    let o = ic_check(&["--replay", s(&w), s(&prog)]);
    fails_with(
        &o,
        2,
        &format!(
            "error: the witness file {} was written for another program text ({}, sha256 {}); \
             {} has sha256 {}",
            s(&w),
            s(&prog),
            sha256(ASSERTS),
            s(&prog),
            sha256(&tampered)
        ),
    );
    assert_eq!(stdout(&o), "");
}

#[test]
fn a_witness_is_replayed_with_its_params_only() {
    let prog = file("witness-params", "asserts.ic", ASSERTS);
    let w = prog.with_file_name("w.json");
    let o = ic_check(&["--witness", s(&w), "-D", "N=2", s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = ic_check(&["--replay", s(&w), "-D", "N=3", s(&prog)]);
    fails_with(
        &o,
        2,
        &format!(
            "error: -D N=3 contradicts the witness file {}, whose findings were found with \
             N = 2: leave out -D N",
            s(&w)
        ),
    );
    let o = ic_check(&["--replay", s(&w), "--max-steps", "10", s(&prog)]);
    fails_with(
        &o,
        2,
        &format!(
            "error: --max-steps 10 contradicts the witness file {}, whose findings were found \
             with --max-steps 1000000: leave out --max-steps",
            s(&w)
        ),
    );
    // --witness and --replay do not go together.
    fails_with(
        &ic_check(&["--replay", s(&w), "--witness", s(&w), s(&prog)]),
        2,
        "--witness",
    );
}

#[test]
fn bad_witness_files() {
    let prog = file("witness-bad", "asserts.ic", ASSERTS);
    let cases = [
        ("empty.json", "", "not a witness file"),
        (
            "other.json",
            r#"{"format": "ic-synth/1"}"#,
            "unsupported witness format `ic-synth/1`",
        ),
        (
            "fields.json",
            r#"{"format": "ic-check-witness/1", "findings": []}"#,
            "not a witness file: missing field",
        ),
    ];
    for (name, text, says) in cases {
        let w = file("witness-bad", name, text);
        let o = ic_check(&["--replay", s(&w), s(&prog)]);
        fails_with(&o, 2, says);
        fails_with(
            &o,
            2,
            "(--replay reads an existing file as a witness file, anything else as a schedule)",
        );
    }
    // An argument that names no file is a schedule, as before.
    let o = ic_check(&["--replay", "p@1 p@2 p@1 p@2 q", s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).ends_with(&format!(
        "  5. q runs q: assertion failed at {}:4:27\n",
        s(&prog)
    )));
    // A witness file that cannot be written stops the run before it explores.
    let o = ic_check(&["--witness", "/nonexistent-dir/w.json", s(&prog)]);
    fails_with(
        &o,
        2,
        "error: cannot write the witness file /nonexistent-dir/w.json",
    );
    assert_eq!(stdout(&o), "");
    // A finding whose schedule no longer reaches it (edited by hand) is reported.
    let w = prog.with_file_name("w.json");
    let o = ic_check(&["--witness", s(&w), "--algo", "naive", s(&prog)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let edited = std::fs::read_to_string(&w)
        .unwrap()
        .replace("\"p@1 p@1 p@2 q\"", "\"p@1 p@1 p@2\"");
    std::fs::write(&w, edited).unwrap();
    let o = ic_check(&["--replay", s(&w), s(&prog)]);
    fails_with(
        &o,
        2,
        &format!(
            "error: {}: finding 1 (assertion failed) does not reproduce: its schedule ends in \
             no finding: the schedule ends while p@2 q can still run",
            s(&w)
        ),
    );
}

#[test]
fn max_traces_of_exactly_all_executions_is_complete() {
    let prog = file("max-traces", "lost.ic", LOST_UPDATE);
    // naive: 6 executions (see LOST_UPDATE); sdpor: one per Mazurkiewicz trace, 4.
    for (algo, all) in [("naive", 6u64), ("sdpor", 4)] {
        for limit in [all, all + 1, 1000] {
            let o = ic_check(&[
                "--json",
                "--algo",
                algo,
                "--max-traces",
                &limit.to_string(),
                s(&prog),
            ]);
            assert_eq!(o.status.code(), Some(0), "{algo} {limit}: {}", stderr(&o));
            let v = json_of(&o);
            assert_eq!(v["complete"], true, "{algo} {limit}");
            assert_eq!(v["stop"], "complete");
            assert_eq!(v["result"], "ok");
            assert_eq!(v["traces"], all);
            assert_eq!(v["final_states"], 2);
        }
        let o = ic_check(&[
            "--algo",
            algo,
            "--max-traces",
            &(all - 1).to_string(),
            s(&prog),
        ]);
        assert_eq!(o.status.code(), Some(3), "{algo}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("result:       incomplete (stopped by --max-traces)\n"),
            "{out}"
        );
        assert!(
            out.contains(&format!("traces:       >{}\n", all - 1)),
            "{algo}: {out}"
        );
        let o = ic_check(&["--algo", algo, "--max-traces", &all.to_string(), s(&prog)]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("result:       ok\n"), "{}", stdout(&o));
        assert!(stdout(&o).contains(&format!("traces:       {all}\n")));
    }
    // fig1 under cdpor: one complete execution, none blocked.
    let fig1 = repo(FIG1);
    let o = ic_check(&["--json", "--max-traces", "1", s(&fig1)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_of(&o)["complete"], true);
    // Zero executions allowed: a program with one stops at once.
    let o = ic_check(&["--json", "--max-traces", "0", s(&fig1)]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json_of(&o)["traces"], 0);
}

#[test]
fn finals_of_fig1() {
    // The file's comment: all six interleavings reach x = 0, z = -1; naive explores
    // p q r first. cdpor explores one execution.
    let fig1 = repo(FIG1);
    for (algo, executions) in [("naive", 6), ("cdpor", 1)] {
        let o = ic_check(&["--finals", "--algo", algo, s(&fig1)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.ends_with(&format!(
                "\nfinal states (1):\n  1. x = 0, z = -1\n     executions: {executions}, schedule: p q r\n"
            )),
            "{algo}: {out}"
        );
    }
    // Ex. 4 of the paper, -D Z0=-1: r makes z = 0 and q may then copy x. Hand-derived
    // (x ends at 0 whatever the order; q copies only when it runs after r): q before
    // r leaves z = 0 (3 orders: q p r, q r p, p q r), q after r copies x, which is 0
    // after p and r (p r q, r p q) and -1 after r alone (r q p). So z = -1 once, and
    // z = 0 five times.
    let o = ic_check(&["--finals", "--algo", "naive", "-D", "Z0=-1", s(&fig1)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.ends_with(
            "\nfinal states (2):\n  \
             1. x = 0, z = -1\n     executions: 1, schedule: r q p\n  \
             2. x = 0, z = 0\n     executions: 5, schedule: p q r\n"
        ),
        "{out}"
    );
    // Without --finals, no list.
    let o = ic_check(&["--algo", "naive", s(&fig1)]);
    assert!(!stdout(&o).contains("final states ("), "{}", stdout(&o));
}

#[test]
fn finals_of_a_lost_update() {
    let prog = file("finals-lost", "lost.ic", LOST_UPDATE);
    let o = ic_check(&["--finals", "--algo", "naive", s(&prog)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with(
            "\nfinal states (2):\n  \
             1. x = 1\n     executions: 4, schedule: p@1 p@2 p@1 p@2\n  \
             2. x = 2\n     executions: 2, schedule: p@1 p@1 p@2 p@2\n"
        ),
        "{}",
        stdout(&o)
    );
    // With N = 5: x = 5 or 10. Every algorithm lists the same states; its counts add
    // up to the executions it explored, and each schedule replays to its state.
    for algo in ["naive", "sdpor", "csdpor", "cdpor"] {
        let o = ic_check(&["--json", "--algo", algo, "-D", "N=5", s(&prog)]);
        assert_eq!(o.status.code(), Some(0), "{algo}: {}", stderr(&o));
        let v = json_of(&o);
        assert_eq!(v["finals_capped"], false);
        let finals = v["finals"].as_array().unwrap();
        let globals: Vec<&str> = finals
            .iter()
            .map(|f| f["globals"].as_str().unwrap())
            .collect();
        assert_eq!(globals, ["x = 10", "x = 5"], "{algo}");
        let total: u64 = finals
            .iter()
            .map(|f| f["executions"].as_u64().unwrap())
            .sum();
        assert_eq!(total, v["traces"].as_u64().unwrap(), "{algo}");
        for f in finals {
            assert_eq!(f["processes"], json!([]));
            let schedule = f["schedule"].as_str().unwrap();
            let o = ic_check(&["--replay", schedule, "-D", "N=5", s(&prog)]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{algo} {schedule}: {}",
                stderr(&o)
            );
            let out = stdout(&o);
            let want = format!(
                "    {}\n    p@1: ended\n    p@2: ended\n  final state",
                f["globals"].as_str().unwrap()
            );
            assert!(out.contains(&want), "{algo} {schedule}: {out}");
        }
    }
}

#[test]
fn finals_with_a_deadlock_in_json() {
    let prog = file("finals-deadlock", "deadlock.ic", DEADLOCK);
    for algo in ["naive", "sdpor", "csdpor", "cdpor"] {
        let o = ic_check(&["--json", "--all-violations", "--algo", algo, s(&prog)]);
        assert_eq!(o.status.code(), Some(1), "{algo}: {}", stderr(&o));
        let v = json_of(&o);
        assert_eq!(v["final_states"], 2);
        assert_eq!(
            v["finals"],
            json!([
                {"globals": "x = 1", "processes": ["c at c"], "executions": 1, "schedule": "b a"},
                {"globals": "x = 7", "processes": [], "executions": 1, "schedule": "a b c"},
            ]),
            "{algo}"
        );
        assert_eq!(v["finals_capped"], false);
    }
    let o = ic_check(&["--finals", "--all-violations", "--algo", "naive", s(&prog)]);
    assert!(
        stdout(&o).contains(
            "\nfinal states (2):\n  \
             1. x = 1 | c at c\n     executions: 1, schedule: b a\n  \
             2. x = 7\n     executions: 1, schedule: a b c\n"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn finals_are_capped_at_a_thousand() {
    // Seven processes each record in `a[i]` how many wrote before them: every order
    // of the 7 is its own final state, 7! = 5,040 of them, all dependent on `turn`.
    let prog = file(
        "finals-cap",
        "orders.ic",
        "global int turn = 0;\nglobal int[7] a;\n\
         proc w(int i) { a[i] = turn; turn = turn + 1; }\n\
         init { for i in 0..7 { spawn w(i); } }\n",
    );
    let o = ic_check(&["--json", "--algo", "sdpor", s(&prog)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["final_states"], 5040);
    assert_eq!(v["finals"].as_array().unwrap().len(), 1000);
    assert_eq!(v["finals_capped"], true);
    let o = ic_check(&["--finals", "--algo", "sdpor", s(&prog)]);
    assert!(
        stdout(&o).contains("\nfinal states (1000 of 5040 listed, the first found):\n"),
        "{}",
        stdout(&o)
    );
}
