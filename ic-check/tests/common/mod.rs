//! What the bad-input test files share: running `ic-check`, temporary programs, and
//! the check that a failure is a message, never a panic.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub const FIG1: &str = "examples/fig1.ic";

pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ic-check"))
}

pub fn ic_check(args: &[&str]) -> Output {
    bin().args(args).output().expect("ic-check runs")
}

/// Writes `contents` to a fresh file of this test process's temporary directory.
pub fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ic-check-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run ended with `code`, its stderr says `says`, and nothing panicked.
pub fn fails_with(o: &Output, code: i32, says: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr:\n{}", clip(&err));
    assert!(
        err.contains(says),
        "`{says}` missing from stderr:\n{}",
        clip(&err)
    );
    no_panic(o);
}

pub fn no_panic(o: &Output) {
    let err = stderr(o);
    for sign in [
        "panicked",
        "RUST_BACKTRACE",
        "stack overflow",
        "fatal runtime error",
    ] {
        assert!(!err.contains(sign), "`{sign}` in stderr:\n{}", clip(&err));
    }
}

/// At most the first 2,000 characters of `s` (a diagnostic may quote a huge line).
pub fn clip(s: &str) -> &str {
    match s.char_indices().nth(2000) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}
