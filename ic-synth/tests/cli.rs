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
    assert_eq!(pq.constraints, ["z <= -1"]);
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
        out.contains("(res, res)  yes    {nr > 0, v == v'}"),
        "{out}"
    );
    assert!(out.contains("(fib, res)  yes    {true}"), "{out}");
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
