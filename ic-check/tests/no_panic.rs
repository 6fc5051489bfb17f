//! Issue 13, item 5: no panic reaches the user. Invalid option values are usage errors
//! (exit 2), a closed stdout ends the output quietly with the run's exit status,
//! nesting beyond `MAX_NESTING` is a syntax error with file, line, column and caret,
//! and Ctrl-C stops the exploration and prints what it found.

mod common;

use common::*;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn timeout_must_be_a_finite_non_negative_number() {
    let fig1 = repo(FIG1);
    let fig1 = fig1.to_str().unwrap();
    for (value, says) in [
        ("inf", "`inf` is not a finite number of seconds"),
        ("infinity", "is not a finite number of seconds"),
        ("-inf", "is not a finite number of seconds"),
        ("NaN", "`NaN` is not a finite number of seconds"),
        ("-1", "`-1` is negative"),
        ("-0.5", "is negative"),
        ("1e30", "too long a timeout"),
        ("abc", "`abc` is not a number of seconds"),
        ("", "is not a number of seconds"),
    ] {
        let o = ic_check(&["--timeout", value, fig1]);
        fails_with(&o, 2, says);
        assert!(stderr(&o).contains("--timeout"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
        // The `=` form reaches the same parser.
        let o = ic_check(&[&format!("--timeout={value}"), fig1]);
        fails_with(&o, 2, says);
    }
    // What is allowed: 0 and fractions.
    for value in ["0", "0.25", "10"] {
        let o = ic_check(&["--algo", "naive", "--timeout", value, fig1]);
        no_panic(&o);
        assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
    }
}

#[test]
fn other_bad_option_values_are_usage_errors() {
    let fig1 = repo(FIG1);
    let fig1 = fig1.to_str().unwrap();
    for (args, says) in [
        (&["--max-traces", "-1"][..], "--max-traces"),
        (&["--max-traces", "lots"], "--max-traces"),
        (&["--max-steps", "-5"], "--max-steps"),
        (&["--max-steps", "99999999999999999999999"], "--max-steps"),
        (&["--tree-limit", "0", "--tree", "t.svg"], "--tree-limit"),
        (&["--algo", "optimal"], "--algo"),
        (&["--deps", "some"], "--deps"),
        (&["-D", "N"], "is not NAME=VALUE"),
        (&["-D", "N=9223372036854775808"], "is not a 64-bit integer"),
        (&["-D", "NOPE=1"], "NOPE"),
        (&["--completions", "tcsh"], "--completions"),
    ] {
        let mut all = args.to_vec();
        all.push(fig1);
        let o = ic_check(&all);
        fails_with(&o, 2, says);
    }
    // No program at all.
    fails_with(&ic_check(&[]), 2, "<PROGRAM>");
    // A program that cannot be read.
    fails_with(
        &ic_check(&["/nonexistent/prog.ic"]),
        2,
        "cannot read /nonexistent/prog.ic",
    );
    // A directory.
    fails_with(&ic_check(&["/"]), 2, "cannot read /");
}

/// `ic-check … | head -1`: the reader goes away after one line of a long output.
fn closed_after_one_line(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ic-check runs");
    let mut first = String::new();
    {
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        // Dropping the reader closes the pipe.
    }
    let o = child.wait_with_output().unwrap();
    (o.status.code(), first, stderr(&o))
}

#[test]
fn closed_stdout_ends_quietly() {
    let pc = repo("benches/programs/pc.ic");
    let pc = pc.to_str().unwrap();
    // 3,432 schedules of 20 to 90 characters (runs of a process print as `producer
    // x7`): more than a pipe holds.
    let (code, first, err) =
        closed_after_one_line(&["--algo", "naive", "--print-traces", "-D", "N=7", pc]);
    assert_eq!(code, Some(0), "{}", clip(&err));
    assert_eq!(first, "producer x7 consumer x7\n");
    assert!(err.is_empty(), "{}", clip(&err));
    // The same with --json, with the manual page, and with a violation (its status kept).
    let (code, _, err) = closed_after_one_line(&[
        "--algo",
        "naive",
        "--print-traces",
        "--json",
        "-D",
        "N=7",
        pc,
    ]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, _, err) = closed_after_one_line(&["--man"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let bad = file(
        "pipe",
        "bad.ic",
        "global int x = 0;\nproc p() { for i in 0..2000 { yield; } x = 1; }\n\
         proc q() { assert(x == 0); }\ninit { spawn p(); spawn q(); }\n",
    );
    let (code, _, err) = closed_after_one_line(&["--algo", "naive", bad.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (Some(1), ""));
}

/// Programs nested `depth` deep in each way there is to nest.
fn nested(depth: usize) -> Vec<(&'static str, String)> {
    let program = |body: String| {
        format!("global int x = 0;\nproc p() {{ {body} }}\nproc q() {{ x = 2; }}\ninit {{ spawn p(); spawn q(); }}\n")
    };
    vec![
        (
            "parentheses",
            program(format!("x = {}x{};", "(".repeat(depth), ")".repeat(depth))),
        ),
        (
            "negations",
            program(format!("x = {}x{};", "-(".repeat(depth), ")".repeat(depth))),
        ),
        (
            "unary minus",
            program(format!("x = {}x;", "- ".repeat(depth))),
        ),
        (
            "not",
            program(format!("assert({}true);", "!".repeat(depth))),
        ),
        ("sum", program(format!("x = x{};", " + x".repeat(depth)))),
        (
            "ternary",
            program(format!("x = {}0;", "x == 1 ? 1 : ".repeat(depth))),
        ),
        (
            "blocks",
            program(format!(
                "{}x = 1;{}",
                "{ ".repeat(depth),
                " }".repeat(depth)
            )),
        ),
        (
            "ifs",
            program(format!(
                "{}x = 1;{}",
                "if (x == 0) { ".repeat(depth),
                " }".repeat(depth)
            )),
        ),
        (
            "indexing",
            program(format!(
                "list l = [0]; x = {}0{};",
                "l[".repeat(depth),
                "]".repeat(depth)
            )),
        ),
    ]
}

#[test]
fn deep_nesting_is_a_syntax_error_with_a_location() {
    for depth in [1_001, 300_000] {
        for (what, src) in nested(depth) {
            let path = file("nesting", &format!("{}.ic", what.replace(' ', "_")), &src);
            let o = ic_check(&["--algo", "naive", path.to_str().unwrap()]);
            fails_with(&o, 2, "nested too deeply");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("{}:2:", path.display())),
                "{what}: no file:line:col in\n{}",
                clip(&err)
            );
            assert!(err.contains('^'), "{what}: no caret in\n{}", clip(&err));
            assert!(err.contains("limited to 1000 levels"), "{}", clip(&err));
        }
    }
}

/// Just below the limit, every way of nesting is checked, synthesised (cdpor, on
/// ic-synth's worker threads) and explored without running out of stack.
#[test]
fn nesting_below_the_limit_runs_everywhere() {
    for (what, src) in nested(990) {
        let path = file("shallow", &format!("{}.ic", what.replace(' ', "_")), &src);
        for algo in ["naive", "cdpor"] {
            let o = ic_check(&["--algo", algo, "--timeout", "60", path.to_str().unwrap()]);
            no_panic(&o);
            assert!(
                matches!(o.status.code(), Some(0 | 1 | 3)),
                "{what} under {algo}: {}",
                clip(&stderr(&o))
            );
        }
    }
}

#[test]
fn constraints_nested_too_deeply_are_refused() {
    let deep = format!("{}x{}", "(".repeat(5_000), ")".repeat(5_000));
    let e = frontend::parser::parse_expr(&deep).unwrap_err();
    assert_eq!(e.message, "brackets nested too deeply");
    let chain = format!("x{}", " + 1".repeat(5_000));
    let e = frontend::parser::parse_expr(&chain).unwrap_err();
    assert_eq!(e.message, "expression nested too deeply");
    assert!(frontend::parser::parse_expr(&format!("x{}", " + 1".repeat(500))).is_ok());
}

/// Brackets inside comments and strings do not count.
#[test]
fn brackets_in_comments_and_strings_do_not_nest() {
    let many = "(".repeat(5_000);
    let src = format!(
        "// {many}\n/* {many} */\nglobal int x = 0;\nproc p() {{ assert(x == 0, \"{many}\"); }}\ninit {{ spawn p(); }}\n"
    );
    let path = file("comments", "c.ic", &src);
    let o = ic_check(&["--algo", "naive", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", clip(&stderr(&o)));
}

/// Sends SIGINT to a run after `after`, as Ctrl-C in a terminal does. A run that
/// does not end within 30 s of it is killed and the test fails (rather than hangs).
fn interrupted(args: &[&str], after: Duration) -> std::process::Output {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ic-check runs");
    // Read while it runs, so that a full pipe does not stop it.
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = read(child.stdout.take().map(|p| Box::new(p) as _));
    let err = read(child.stderr.take().map(|p| Box::new(p) as _));
    std::thread::sleep(after);
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("Ctrl-C did not stop the run");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

#[test]
fn ctrl_c_stops_the_exploration_and_prints_the_summary() {
    let pc = repo("benches/programs/pc.ic");
    let pc = pc.to_str().unwrap();
    // Naive on 2^24-odd interleavings: minutes of work, stopped after two seconds.
    let o = interrupted(
        &["--algo", "naive", "-D", "N=12", pc],
        Duration::from_secs(2),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    no_panic(&o);
    let out = stdout(&o);
    assert!(
        out.contains("result:       incomplete (stopped by Ctrl-C)"),
        "{out}"
    );
    assert!(out.contains("traces:       >"), "{out}");
    // In JSON: stop "interrupted", counts as lower bounds.
    let o = interrupted(
        &["--json", "--algo", "sdpor", "-D", "N=14", pc],
        Duration::from_secs(2),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["stop"], "interrupted");
    assert_eq!(v["result"], "incomplete");
    assert_eq!(v["complete"], false);
}

#[test]
fn ctrl_c_keeps_what_was_found() {
    // A violation in the first execution of a long search: --all-violations goes on
    // after it, Ctrl-C stops the search, and what was found is reported (exit 1).
    let src = "param N = 12;\nglobal int x = 0;\n\
               proc w() { for i in 0..3 { x = x + 1; yield; } assert(x < 3 * N, \"all done\"); }\n\
               init { for i in 0..N { spawn w(); } }\n";
    let path = file("ctrlc", "found.ic", src);
    let o = interrupted(
        &[
            "--algo",
            "naive",
            "--all-violations",
            path.to_str().unwrap(),
        ],
        Duration::from_secs(2),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("result:       violation (stopped by Ctrl-C)"),
        "{out}"
    );
    assert!(
        out.contains("assertion violation: assertion failed: all done"),
        "{out}"
    );
}

#[test]
fn ctrl_c_during_synthesis_ends_the_run_with_a_line() {
    // 100 procs, all spawned: 5,050 pairs to synthesise, many seconds of z3. z3 must
    // not take Ctrl-C over (it would cancel one query and go on).
    let mut src = String::from("global int x = 0;\nglobal int y = 0;\n");
    for i in 0..100 {
        src.push_str(&format!(
            "proc p{i}() {{ if (x > {i}) {{ y = y + x * {}; }} else {{ x = x + {i}; }} }}\n",
            i + 1
        ));
    }
    src.push_str("init {");
    for i in 0..100 {
        src.push_str(&format!(" spawn p{i}();"));
    }
    src.push_str(" }\n");
    let path = file("ctrlc-synthesis", "many.ic", &src);
    let o = interrupted(&[path.to_str().unwrap()], Duration::from_millis(1500));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    no_panic(&o);
    assert_eq!(
        stderr(&o),
        "interrupted during the synthesis of the independence constraints\n"
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}
