//! The `ic-synth` command line: JSON and text output, and bad input.

mod common;

use common::root;
use frontend::ics::Ics;
use std::process::{Command, Output};

fn ic_synth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ic-synth"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("ic-synth runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn writes_ics_json() {
    let o = ic_synth(&["examples/fig1.ic"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ics = Ics::from_json(&stdout(&o)).expect("valid ics.json");
    let source = std::fs::read_to_string(root().join("examples/fig1.ic")).expect("readable");
    assert_eq!(ics.format, "ic-synth/1");
    assert_eq!(ics.program.file, "fig1.ic");
    assert!(ics.matches_source(&source));
    assert!(!ics.matches_source("global int x;"));
    assert_eq!(ics.blocks.len(), 3);
    assert_eq!(ics.pairs.len(), 6);
    assert_eq!(ics.stats.pairs, 6);
    let r = ics.blocks.iter().find(|b| b.id == "r").expect("block r");
    assert_eq!(r.proc, "r");
    assert_eq!(r.reads, ["x", "z"]);
    assert_eq!(r.writes, ["x", "z"]);
    assert_eq!(r.may_write, ["x", "z"]);
    let pq = ics
        .pairs
        .iter()
        .find(|p| p.a == "p" && p.b == "q")
        .expect("pair (p, q)");
    assert!(pq.exact);
    assert_eq!(pq.constraints, ["x <= 9223372036854775806 && z <= -1"]);
    assert!(pq.reason.is_none());
    let program = frontend::load(&source, &[]).expect("loads");
    ics.resolve(&program).expect("constraints resolve");
    // One line unless --pretty.
    assert_eq!(stdout(&o).trim().lines().count(), 1);
    let pretty = ic_synth(&["--pretty", "examples/fig1.ic"]);
    assert!(stdout(&pretty).lines().count() > 10);
}

#[test]
fn text_format_is_a_table() {
    let o = ic_synth(&["--format", "text", "examples/fib.ic"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "(res, res)  yes    {nr > 0 && v + v' <= 9223372036854775807, \
             r + v <= 9223372036854775807 && v == v' && nr <= 0}"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "(fib, fib)  yes    {true}\n(fib, res)  yes    {nr > 0, r + v' <= 9223372036854775807}"
        ),
        "{out}"
    );
}

#[test]
fn defines_and_timeouts_are_accepted() {
    let o = ic_synth(&[
        "-D",
        "N=5",
        "--timeout-ms",
        "2000",
        "--jobs",
        "1",
        "examples/fib.ic",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn malformed_program_is_a_diagnostic() {
    let dir = std::env::temp_dir().join(format!("ic-synth-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.ic");
    std::fs::write(&bad, "global int x = ;\ninit { }\n").expect("written");
    let o = ic_synth(&[bad.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("error"), "{err}");
    assert!(err.contains("bad.ic:1:16"), "{err}");
    assert!(stdout(&o).is_empty());
    let unknown = dir.join("unknown.ic");
    std::fs::write(&unknown, "proc p() { y = 1; }\ninit { spawn p(); }\n").expect("written");
    let o = ic_synth(&[unknown.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown name `y`"), "{}", stderr(&o));
}

#[test]
fn unknown_define_is_a_diagnostic() {
    let o = ic_synth(&["-D", "NOPE=3", "examples/fib.ic"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("-D NOPE"), "{err}");
    assert!(err.contains("the program's params are N"), "{err}");
    let o = ic_synth(&["-D", "N", "examples/fib.ic"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("NAME=VALUE"), "{}", stderr(&o));
}

#[test]
fn missing_file_is_bad_input() {
    let o = ic_synth(&["no/such/file.ic"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

/// A scratch directory of its own for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ic-synth-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn validate_finds_no_counterexample_in_the_synthesised_constraints() {
    let o = ic_synth(&[
        "--validate",
        "--seed",
        "3",
        "--samples",
        "50",
        "examples/fig1.ic",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o)
            .lines()
            .next()
            .unwrap_or_default()
            .split(':')
            .next(),
        Some("ok")
    );
    assert!(
        stdout(&o).contains("6 pairs with constraints, 300 states with both blocks enabled"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("(seed 3, 50 samples per pair)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn validate_reports_a_wrong_constraint_of_an_ics_file() {
    let dir = scratch("validate");
    let source = "global int x = -9223372036854775806; global int y = 0;\n\
                  proc a() { int t = y + x; } proc b() { y = x; }\n\
                  init { spawn a(); spawn b(); }\n";
    let prog = dir.join("overflow.ic");
    std::fs::write(&prog, source).expect("written");
    let o = ic_synth(&[prog.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The old, wrong constraint of (a, b).
    let mut ics = Ics::from_json(&stdout(&o)).expect("valid ics.json");
    let ab = ics
        .pairs
        .iter_mut()
        .find(|p| p.a == "a" && p.b == "b")
        .expect("pair (a, b)");
    ab.constraints = vec!["true".to_string()];
    let file = dir.join("wrong.json");
    std::fs::write(&file, serde_json::to_string(&ics).expect("serialisable")).expect("written");
    let args = [
        "--validate",
        "--ics",
        file.to_str().expect("utf-8 path"),
        prog.to_str().expect("utf-8 path"),
    ];
    let o = ic_synth(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("counterexample: constraint `true` of (a, b) holds, but in order "),
        "{out}"
    );
    assert!(
        out.contains("block a fails: integer overflow in `+`"),
        "{out}"
    );
    assert!(out.contains("\n  state: x = "), "{out}");
    // Deterministic: the same report again.
    assert_eq!(stdout(&ic_synth(&args)), out);
    // An ics.json of another program is refused.
    let other = dir.join("other.ic");
    std::fs::write(
        &other,
        "global int x;\nproc p() { x = 1; }\ninit { spawn p(); }\n",
    )
    .expect("written");
    let o = ic_synth(&[
        "--validate",
        "--ics",
        file.to_str().expect("utf-8 path"),
        other.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("was made for another program"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn validate_options_need_validate() {
    let o = ic_synth(&["--seed", "3", "examples/fig1.ic"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_ics_reproves_a_file_and_refuses_a_wrong_constraint() {
    let dir = scratch("check-ics");
    let o = ic_synth(&["examples/fig1.ic"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let good = dir.join("fig1.json");
    std::fs::write(&good, stdout(&o)).expect("written");
    let o = ic_synth(&[
        "--check-ics",
        good.to_str().expect("utf-8 path"),
        "examples/fig1.ic",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "ok: 8 constraints of 6 pairs proved, 6 pairs proved exact; 14 solver queries"
        ),
        "{}",
        stdout(&o)
    );
    let mut ics = Ics::from_json(&stdout(&ic_synth(&["examples/fig1.ic"]))).expect("valid");
    let pq = ics
        .pairs
        .iter_mut()
        .find(|p| p.a == "p" && p.b == "q")
        .expect("pair (p, q)");
    pq.constraints = vec!["true".to_string()];
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, serde_json::to_string(&ics).expect("serialisable")).expect("written");
    let args = [
        "--check-ics",
        wrong.to_str().expect("utf-8 path"),
        "examples/fig1.ic",
    ];
    let o = ic_synth(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "not proved: constraint `true` of the pair (a: `p`, b: `q`) is not proved: "
        ),
        "{out}"
    );
    assert!(out.contains("\n  state: x = "), "{out}");
    // Deterministic: the same report again.
    assert_eq!(stdout(&ic_synth(&args)), out);
    // --check-ics goes alone.
    let o = ic_synth(&[
        "--validate",
        "--check-ics",
        good.to_str().expect("utf-8 path"),
        "examples/fig1.ic",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = ic_synth(&["--completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        assert!(script.contains("ic-synth"), "{shell}");
        assert!(script.contains("check-ics"), "{shell}: {script}");
        assert!(stderr(&o).is_empty());
    }
    // It is the only thing a run does; an unknown shell is a usage error.
    for args in [
        &["--completions", "bash", "examples/fig1.ic"][..],
        &["--completions", "tcsh"],
        &["--man", "examples/fig1.ic"],
    ] {
        let o = ic_synth(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    // Without either, the program is required.
    let o = ic_synth(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("<PROGRAM>"), "{}", stderr(&o));
}

#[test]
fn manual_page() {
    let o = ic_synth(&["--man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH ic-synth 1"), "{page}");
    for option in ["timeout\\-ms", "check\\-ics", "validate", "completions"] {
        assert!(page.contains(option), "{option} missing from\n{page}");
    }
    assert!(page.contains("Exit status"), "{page}");
}
