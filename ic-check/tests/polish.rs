//! Issue 13, item 7: `NO_COLOR`, `time_ms` without float noise, shell completions and
//! the manual page, no unused dependencies.

mod common;

use common::*;
use frontend::diagnostic::color_choice;
use std::ffi::OsStr;

#[test]
fn no_color_turns_colours_off() {
    assert!(color_choice(true, None));
    assert!(!color_choice(true, Some(OsStr::new("1"))));
    assert!(!color_choice(true, Some(OsStr::new("yes"))));
    // An empty NO_COLOR is as good as none (no-color.org).
    assert!(color_choice(true, Some(OsStr::new(""))));
    assert!(!color_choice(false, None));
}

#[test]
fn diagnostics_into_a_pipe_have_no_escape_codes() {
    let bad = file("colour", "bad.ic", "global int x = ;\ninit { }\n");
    for no_color in [None, Some("1")] {
        let mut cmd = bin();
        cmd.arg(&bad);
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let o = cmd.output().unwrap();
        fails_with(&o, 2, "bad.ic:1:16");
        assert!(!stderr(&o).contains('\u{1b}'), "{}", stderr(&o));
    }
}

#[test]
fn time_ms_has_at_most_three_decimals() {
    let pc = repo("benches/programs/pc.ic");
    for algo in ["naive", "sdpor", "cdpor"] {
        let o = ic_check(&["--json", "--algo", algo, "-D", "N=4", pc.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let at = out.find("\"time_ms\":").expect("time_ms") + "\"time_ms\":".len();
        let number: String = out[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
        assert!(decimals <= 3, "time_ms {number}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["time_ms"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = ic_check(&["--completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        assert!(script.contains("ic-check"), "{shell}");
        assert!(script.contains("max-traces"), "{shell}: {script}");
        assert!(stderr(&o).is_empty());
    }
    // It is the only thing a run does.
    let fig1 = repo(FIG1);
    fails_with(
        &ic_check(&["--completions", "bash", fig1.to_str().unwrap()]),
        2,
        "--completions",
    );
}

#[test]
fn manual_page() {
    let o = ic_check(&["--man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH ic-check 1"), "{page}");
    for option in ["timeout", "max\\-traces", "ics", "replay"] {
        assert!(page.contains(option), "{option} missing from\n{page}");
    }
    assert!(page.contains("Exit status"), "{page}");
}

#[test]
fn no_unused_dependencies_declared() {
    let manifests = [
        "Cargo.toml",
        "frontend/Cargo.toml",
        "explorer/Cargo.toml",
        "ic-check/Cargo.toml",
        "ic-synth/Cargo.toml",
    ];
    for manifest in manifests {
        let text = std::fs::read_to_string(repo(manifest)).unwrap();
        for unused in ["itertools", "thiserror"] {
            assert!(!text.contains(unused), "{manifest} declares {unused}");
        }
    }
}
