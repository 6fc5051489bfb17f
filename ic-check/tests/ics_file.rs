//! Issue 13, item 2: an `ics.json` is refused unless it is of this format version and
//! made for this program text, `--ics` goes with cdpor only, and a missing file is a
//! clear error. docs/ics-format.md names every field ic-synth writes.

mod common;

use common::*;
use std::collections::BTreeSet;

const PROGRAM: &str = "global int x = 0;\nproc p() { x = x + 1; }\nproc q() { x = 2; }\n\
                       init { spawn p(); spawn q(); }\n";

/// The `ics.json` ic-synth writes for `PROGRAM`, as a JSON value.
fn synthesised() -> serde_json::Value {
    let program = frontend::load(PROGRAM, &[]).unwrap();
    let synthesis = ic_synth::synthesize(&program, PROGRAM, &ic_synth::Options::default());
    let ics = ic_synth::to_ics(&program, PROGRAM, "prog.ic", &synthesis);
    serde_json::to_value(&ics).unwrap()
}

fn check_with(test: &str, ics: &str, algo: &str) -> std::process::Output {
    let prog = file(test, "prog.ic", PROGRAM);
    let ics = file(test, "ics.json", ics);
    ic_check(&[
        "--algo",
        algo,
        "--ics",
        ics.to_str().unwrap(),
        prog.to_str().unwrap(),
    ])
}

#[test]
fn the_file_ic_synth_writes_is_accepted() {
    let o = check_with("good", &synthesised().to_string(), "cdpor");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(synthesised()["format"], frontend::ics::FORMAT);
    assert_eq!(frontend::ics::FORMAT, "ic-synth/1");
}

#[test]
fn another_format_version_is_refused() {
    for (format, says) in [
        (
            serde_json::json!("ic-synth/2"),
            "unsupported ics.json format `ic-synth/2`: this version reads `ic-synth/1` only",
        ),
        (
            serde_json::json!("ic-synth/0"),
            "unsupported ics.json format `ic-synth/0`",
        ),
        (serde_json::json!(""), "unsupported ics.json format ``"),
        (serde_json::json!(1), "not an ics.json: `format` is 1"),
        (serde_json::json!(null), "not an ics.json: `format` is null"),
    ] {
        let mut ics = synthesised();
        ics["format"] = format;
        let o = check_with("version", &ics.to_string(), "cdpor");
        fails_with(&o, 2, says);
        assert!(stdout(&o).is_empty());
    }
    // A later version that also changed the fields is refused for its version, not
    // for a field it lacks.
    let later = serde_json::json!({"format": "ic-synth/2", "checks": []}).to_string();
    fails_with(
        &check_with("later", &later, "cdpor"),
        2,
        "unsupported ics.json format `ic-synth/2`",
    );
}

#[test]
fn files_that_are_no_ics_json_are_refused() {
    let mut no_format = synthesised();
    no_format.as_object_mut().unwrap().remove("format");
    let mut no_pairs = synthesised();
    no_pairs.as_object_mut().unwrap().remove("pairs");
    let mut bad_constraint = synthesised();
    bad_constraint["pairs"][0]["constraints"] = serde_json::json!(["x +"]);
    let mut unknown_block = synthesised();
    unknown_block["pairs"][0]["a"] = serde_json::json!("nope");
    for (text, says) in [
        (no_format.to_string(), "not an ics.json: no `format` field"),
        (
            no_pairs.to_string(),
            "not an ics.json: missing field `pairs`",
        ),
        (
            "[1, 2]".to_string(),
            "not an ics.json: expected a JSON object",
        ),
        ("{".to_string(), "not an ics.json: EOF while parsing"),
        (String::new(), "not an ics.json"),
        ("ic-synth/1".to_string(), "not an ics.json"),
        (
            bad_constraint.to_string(),
            "constraints do not fit the program: constraint `x +`",
        ),
        (
            unknown_block.to_string(),
            "constraints do not fit the program: unknown block `nope`",
        ),
    ] {
        fails_with(&check_with("junk", &text, "cdpor"), 2, says);
    }
}

#[test]
fn ics_goes_with_cdpor_only() {
    let good = synthesised().to_string();
    for algo in ["naive", "sdpor", "csdpor"] {
        let o = check_with("algo", &good, algo);
        fails_with(
            &o,
            2,
            &format!(
                "--ics gives cdpor's independence constraints; --algo {algo} does not use them"
            ),
        );
        assert!(stdout(&o).is_empty());
        // Also when the file does not exist: the usage is wrong before the file is read.
        let fig1 = repo(FIG1);
        let o = ic_check(&[
            "--algo",
            algo,
            "--ics",
            "/nonexistent/ics.json",
            fig1.to_str().unwrap(),
        ]);
        fails_with(&o, 2, "--ics gives cdpor's independence constraints");
    }
}

#[test]
fn a_missing_ics_file_is_a_clear_error() {
    let fig1 = repo(FIG1);
    let o = ic_check(&["--ics", "/nonexistent/ics.json", fig1.to_str().unwrap()]);
    fails_with(
        &o,
        2,
        "error: cannot read the constraints /nonexistent/ics.json: No such file or directory",
    );
    let o = ic_check(&["--ics", "/", fig1.to_str().unwrap()]);
    fails_with(&o, 2, "error: cannot read the constraints /");
}

/// Every key of the ics.json ic-synth writes, nested ones included.
fn keys(value: &serde_json::Value, into: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                into.insert(k.clone());
                keys(v, into);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, into)),
        _ => {}
    }
}

#[test]
fn the_format_document_names_every_field() {
    let doc = std::fs::read_to_string(repo("docs/ics-format.md")).unwrap();
    let mut all = BTreeSet::new();
    keys(&synthesised(), &mut all);
    // A pair that is not exact carries `reason`.
    let src = "global list l;\nproc p() { l = append(l, 1); }\ninit { spawn p(); }\n";
    let program = frontend::load(src, &[]).unwrap();
    let synthesis = ic_synth::synthesize(&program, src, &ic_synth::Options::default());
    keys(
        &serde_json::to_value(ic_synth::to_ics(&program, src, "l.ic", &synthesis)).unwrap(),
        &mut all,
    );
    assert!(all.contains("reason"), "{all:?}");
    for key in &all {
        assert!(
            doc.contains(&format!("`{key}`")),
            "docs/ics-format.md does not describe `{key}`"
        );
    }
    assert!(doc.contains(frontend::ics::FORMAT));
}
