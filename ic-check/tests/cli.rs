//! The command line end to end: exit codes, JSON keys, witnesses, replay, diagnostics.

use std::path::PathBuf;
use std::process::{Command, Output};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

fn ic_check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ic-check"))
        .args(args)
        .output()
        .expect("ic-check runs")
}

/// Writes a program to a fresh temporary file.
fn program(name: &str, source: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ic-check-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const DEADLOCK: &str = "global int x = 0; global int y = 0;
proc p() { await (x == 1); y = 1; }
proc q() { x = 1; }
proc r() { x = 2; }
init { spawn p(); spawn q(); spawn r(); }
";

/// Runs ic-check with `args`, which must exit 0 with each of `lines` in its summary.
fn summary_has(args: &[&str], lines: &[&str]) {
    let o = ic_check(args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for line in lines {
        assert!(out.contains(line), "missing `{line}` in\n{out}");
    }
}

#[test]
fn fig1_summary_and_exit_zero() {
    let fig1 = repo("examples/fig1.ic");
    summary_has(
        &["--algo", "naive", fig1.to_str().unwrap()],
        &[
            "result:       ok",
            "traces:       6",
            "blocked:      0",
            "states:       16",
            "final states: 1",
            "mazurkiewicz: 6",
        ],
    );
}

/// `--algo odpor-ob`: lastwrite(4)'s 4! orders of the writes are 4 executions, one
/// per last writer (the only write the observer and the final memory see).
#[test]
fn odpor_ob_reaches_every_last_write() {
    let lastwrite = repo("benches/programs/classic/lastwrite.ic");
    summary_has(
        &[
            "--algo",
            "odpor-ob",
            "-D",
            "N=4",
            lastwrite.to_str().unwrap(),
        ],
        &[
            "algorithm:    odpor-ob",
            // N: see tests/tests/observers.rs, `lastwrite_benchmark`.
            "traces:       4",
            "final states: 4",
        ],
    );
}

/// With `--violations-only`, odpor-ob's end observes nothing: two writes nothing reads
/// are one trace (1 execution, not 2), and the summary and the JSON say that the final
/// states are not all reached.
#[test]
fn violations_only_says_final_states_are_not_all() {
    let writers = program(
        "writers.ic",
        "global int x = 0; proc p() { x = 1; } proc q() { x = 2; } init { spawn p(); spawn q(); }",
    );
    let path = writers.to_str().unwrap();
    summary_has(
        &["--algo", "odpor-ob", "--violations-only", path],
        &[
            "traces:       1",
            "final states: 1 (not all: --violations-only)",
        ],
    );
    summary_has(
        &["--algo", "odpor-ob", path],
        &["traces:       2", "final states: 2\n"],
    );
    let o = ic_check(&["--json", "--algo", "odpor-cs-ob", "--violations-only", path]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(
        (v["traces"].clone(), v["finals_exhaustive"].clone()),
        (1.into(), false.into())
    );
    // The other algorithms reach every final state whatever the option.
    let o = ic_check(&["--json", "--algo", "odpor", "--violations-only", path]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(
        (v["traces"].clone(), v["finals_exhaustive"].clone()),
        (2.into(), true.into())
    );
}

#[test]
fn json_has_every_key() {
    let fig1 = repo("examples/fig1.ic");
    let o = ic_check(&[
        "--json",
        "--algo",
        "naive",
        "-D",
        "Z0=-1",
        fig1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(v["algorithm"], "naive");
    assert_eq!(v["params"]["Z0"], -1);
    assert_eq!(v["params"]["X0"], -2);
    assert_eq!(v["result"], "ok");
    assert_eq!(v["traces"], 6);
    assert_eq!(v["blocked"], 0);
    assert_eq!(v["states"], 16);
    assert_eq!(v["final_states"], 2);
    assert_eq!(v["mazurkiewicz"], 6);
    assert_eq!(v["violations"], serde_json::json!([]));
    assert_eq!(v["complete"], true);
    assert_eq!(v["finals_exhaustive"], true);
    assert!(v["time_ms"].as_f64().is_some());
    assert!(v["program"].as_str().unwrap().ends_with("fig1.ic"));
}

#[test]
fn deadlock_reported_with_schedule_and_exit_one() {
    let path = program("deadlock.ic", DEADLOCK);
    let o = ic_check(&["--json", "--all-violations", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "violation");
    assert_eq!(
        v["violations"],
        serde_json::json!([{"kind": "deadlock", "message": "deadlock: p at p waiting", "block": "p", "schedule": "q r"}])
    );
    // The human report shows the schedule and every state along it.
    let o = ic_check(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("deadlock: deadlock: p at p waiting (block p)"),
        "{out}"
    );
    assert!(out.contains("schedule: q r"), "{out}");
    assert!(
        out.contains("  2. r runs r\n    x = 2, y = 0\n    p: at p\n    q: ended\n    r: ended"),
        "{out}"
    );
}

#[test]
fn assertion_points_at_the_source() {
    let path = program("assert.ic", "global int x = 0;\nproc p() { x = 1; }\nproc q() { assert(x == 0, \"x changed\"); }\ninit { spawn p(); spawn q(); }\n");
    let o = ic_check(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("assertion violation: assertion failed: x changed (block q)"),
        "{out}"
    );
    assert!(out.contains("assert.ic:3:12"), "{out}");
    assert!(out.contains("schedule: p q"), "{out}");
}

#[test]
fn replay_prints_every_state() {
    let path = program("replay.ic", DEADLOCK);
    let o = ic_check(&["--replay", "q p r", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "  0. initial\n    x = 0, y = 0\n    p: at p\n    q: at q\n    r: at r\n\
         \x20 1. q runs q\n    x = 1, y = 0\n    p: at p\n    q: ended\n    r: at r\n\
         \x20 2. p runs p\n    x = 1, y = 1\n    p: ended\n    q: ended\n    r: at r\n\
         \x20 3. r runs r\n    x = 2, y = 1\n    p: ended\n    q: ended\n    r: ended\n\
         \x20 final state: every process has ended\n"
    );
    // A deadlocking schedule exits 1; a step whose guard is false is bad input.
    assert_eq!(
        ic_check(&["--replay", "q r", path.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    let o = ic_check(&["--replay", "p", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("step 1 (`p`): p is not enabled here"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_exits_two_with_a_diagnostic() {
    let path = program(
        "bad.ic",
        "global int x = 0;\nproc p() { y = 1; }\ninit { spawn p(); }\n",
    );
    let o = ic_check(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown name `y`"), "{err}");
    assert!(err.contains("bad.ic:2:12"), "{err}");
    assert!(err.contains("^"), "{err}");
    // Unknown -D name, malformed -D, missing file, unknown flag.
    let fig1 = repo("examples/fig1.ic");
    let o = ic_check(&["-D", "NOPE=1", fig1.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("-D NOPE: the program has no `param NOPE`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        ic_check(&["-D", "X0", fig1.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(ic_check(&["/nonexistent/prog.ic"]).status.code(), Some(2));
    assert_eq!(
        ic_check(&["--frobnicate", fig1.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn limits_exit_three() {
    let fig1 = repo("examples/fig1.ic");
    let o = ic_check(&[
        "--json",
        "--algo",
        "naive",
        "--max-traces",
        "2",
        fig1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "incomplete");
    assert_eq!(v["complete"], false);
    assert_eq!(v["traces"], 2);
    let o = ic_check(&[
        "--algo",
        "naive",
        "--max-traces",
        "2",
        fig1.to_str().unwrap(),
    ]);
    assert!(stdout(&o).contains("traces:       >2"), "{}", stdout(&o));
}

#[test]
fn step_bound_is_a_runtime_error() {
    let path = program(
        "loop.ic",
        "global int x = 0;\nproc p() { while (true) { x = x + 0; } }\ninit { spawn p(); }\n",
    );
    let o = ic_check(&["--json", "--max-steps", "1000", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["violations"][0]["kind"], "runtime");
    assert_eq!(
        v["violations"][0]["message"],
        "block did not terminate (more than 1000 steps)"
    );
    assert_eq!(v["violations"][0]["schedule"], "p");
}

/// Writes the `ics.json` that `ic-synth` makes for `source` (named `file`).
fn ics_for(name: &str, file: &str, source: &str) -> PathBuf {
    let program = frontend::load(source, &[]).expect("the program loads");
    let synthesis = ic_synth::synthesize(&program, source, &ic_synth::Options::default());
    let ics = ic_synth::to_ics(&program, source, file, &synthesis);
    let dir = std::env::temp_dir().join(format!("ic-check-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(&ics).unwrap()).unwrap();
    path
}

/// `--ics` from `ic-synth` drives cdpor: Fig. 1 with static dependencies and the
/// paper's choices explores 1 complete trace, as in CDPOR Ex. 5 (the state count is
/// derived in `tests/tests/dpor.rs`).
#[test]
fn ics_file_is_used() {
    let fig1 = repo("examples/fig1.ic");
    let source = std::fs::read_to_string(&fig1).unwrap();
    let ics = ics_for("fig1.json", "fig1.ic", &source);
    let o = ic_check(&[
        "--json",
        "--literal",
        "--deps",
        "static",
        "--ics",
        ics.to_str().unwrap(),
        fig1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["algorithm"], "cdpor");
    assert_eq!(
        (
            v["traces"].as_u64(),
            v["states"].as_u64(),
            v["blocked"].as_u64()
        ),
        (Some(1), Some(4), Some(0))
    );
}

/// Constraints made for another program text are refused: they could be unsound for it.
#[test]
fn ics_for_another_program_is_refused() {
    let fig1 = repo("examples/fig1.ic");
    let other = "global int x = 0;\nproc p() { x = 1; }\ninit { spawn p(); }\n";
    let ics = ics_for("other.json", "other.ic", other);
    let o = ic_check(&["--ics", ics.to_str().unwrap(), fig1.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("was made for another program (other.ic)"),
        "{err}"
    );
    assert!(err.contains("run `ic-synth"), "{err}");
    // A file that is not ics.json at all.
    let junk = program("junk.json", "{\"format\": 3}");
    let o = ic_check(&["--ics", junk.to_str().unwrap(), fig1.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}
