//! Issue 13, item 2: an `ics.json` is refused unless it is of this format version and
//! made for this program text, `--ics` goes with cdpor only, and a missing file is a
//! clear error. docs/ics-format.md names every field ic-synth writes. Every claim of
//! the file is re-proved before use (a constraint edited by hand is refused, naming
//! the pair and a state where the blocks do not commute), unless `--trust-ics`.

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

/// fig1.ic's `ics.json` as ic-synth writes it, with `edit` applied to it.
fn fig1_ics(test: &str, edit: impl FnOnce(&mut serde_json::Value)) -> std::path::PathBuf {
    let source = std::fs::read_to_string(repo(FIG1)).unwrap();
    let program = frontend::load(&source, &[]).unwrap();
    let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    let mut ics =
        serde_json::to_value(ic_synth::to_ics(&program, &source, "fig1.ic", &synthesis)).unwrap();
    edit(&mut ics);
    file(test, "fig1.json", &ics.to_string())
}

/// The pair `(a, b)` of an ics.json value.
fn pair<'v>(ics: &'v mut serde_json::Value, a: &str, b: &str) -> &'v mut serde_json::Value {
    ics["pairs"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["a"] == a && p["b"] == b)
        .unwrap_or_else(|| panic!("no pair ({a}, {b})"))
}

/// Runs cdpor on fig1.ic with `-D Z0=-1` (the paper's Ex. 4: two final states).
fn fig1_with(ics: &std::path::Path, more: &[&str]) -> std::process::Output {
    let fig1 = repo(FIG1);
    let mut args = vec!["-D", "Z0=-1", "--ics", ics.to_str().unwrap()];
    args.extend_from_slice(more);
    args.push(fig1.to_str().unwrap());
    ic_check(&args)
}

#[test]
fn the_unedited_file_is_reproved_and_used() {
    let ics = fig1_ics("reproved", |_| {});
    let o = fig1_with(&ics, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("final states: 2"), "{}", stdout(&o));
    no_panic(&o);
}

#[test]
fn a_constraint_edited_to_true_is_refused() {
    let edited = fig1_ics("edited", |ics| {
        pair(ics, "p", "q")["constraints"] = serde_json::json!(["true"]);
    });
    let o = fig1_with(&edited, &[]);
    fails_with(
        &o,
        2,
        "constraint `true` of the pair (a: `p`, b: `q`) is not proved: in this state it holds \
         and both blocks are enabled, but global z differs",
    );
    let err = stderr(&o);
    // The state: both globals, with values from the solver's model.
    assert!(err.contains("\n  state: x = "), "{err}");
    assert!(err.contains(", z = "), "{err}");
    assert!(
        err.contains("pass --trust-ics to use it unchecked"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    // Without -D too: the file is checked for the program as loaded.
    let fig1 = repo(FIG1);
    let o = ic_check(&["--ics", edited.to_str().unwrap(), fig1.to_str().unwrap()]);
    fails_with(&o, 2, "constraint `true` of the pair (a: `p`, b: `q`)");
}

#[test]
fn trust_ics_uses_the_edited_file_unchecked() {
    let edited = fig1_ics("trusted", |ics| {
        pair(ics, "p", "q")["constraints"] = serde_json::json!(["true"]);
    });
    let o = fig1_with(&edited, &["--trust-ics"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // What the check is for: trusted, the wrong constraint loses one of the two final
    // states naive reaches.
    assert!(stdout(&o).contains("final states: 1"), "{}", stdout(&o));
    let fig1 = repo(FIG1);
    let naive = ic_check(&["--algo", "naive", "-D", "Z0=-1", fig1.to_str().unwrap()]);
    assert!(
        stdout(&naive).contains("final states: 2"),
        "{}",
        stdout(&naive)
    );
}

#[test]
fn trust_ics_needs_ics() {
    let fig1 = repo(FIG1);
    let o = ic_check(&["--trust-ics", fig1.to_str().unwrap()]);
    fails_with(&o, 2, "--ics");
}

#[test]
fn other_wrong_claims_are_refused() {
    // A pair marked exact whose constraints are not all there: (q, r) commutes where
    // `x == z` and no other constraint holds.
    let fewer = fig1_ics("fewer", |ics| {
        let qr = pair(ics, "q", "r");
        let kept: Vec<serde_json::Value> = qr["constraints"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !c.as_str().unwrap().contains("x == z"))
            .cloned()
            .collect();
        qr["constraints"] = serde_json::Value::Array(kept);
    });
    let o = fig1_with(&fewer, &[]);
    fails_with(
        &o,
        2,
        "the pair (a: `q`, b: `r`) is marked exact, but in this state both blocks are enabled, \
         no constraint holds, and both orders run normally to the same state",
    );
    assert!(stderr(&o).contains("state: x = "), "{}", stderr(&o));
    // Not marked exact, the same constraints are fine (they are sufficient).
    let inexact = fig1_ics("inexact", |ics| {
        let qr = pair(ics, "q", "r");
        qr["constraints"] = serde_json::json!([qr["constraints"][0].clone()]);
        qr["exact"] = serde_json::json!(false);
    });
    let o = fig1_with(&inexact, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A write set smaller than the program's.
    let may_write = fig1_ics("may_write", |ics| {
        ics["blocks"][0]["may_write"] = serde_json::json!([]);
    });
    fails_with(
        &fig1_with(&may_write, &[]),
        2,
        "block `p`: `may_write` lacks `x`, which the block or what may run after it writes",
    );
    // A constraint whose blocks cannot be analysed can be no synthesised one; one
    // that overflows is refused with the overflow.
    let overflow = fig1_ics("overflow", |ics| {
        pair(ics, "p", "p")["constraints"] = serde_json::json!(["x >= 0"]);
    });
    fails_with(
        &fig1_with(&overflow, &[]),
        2,
        "constraint `x >= 0` of the pair (a: `p`, b: `p`) is not proved: in this state it holds \
         and both blocks are enabled, but in order p·p, block p fails: integer overflow",
    );
}

/// `--timeout` covers the re-proof of `--ics`: when it runs out first, the run stops
/// (exit 3) saying so, and the file is not used unproved. `--timeout 0` has run out
/// before the first query, whatever the machine's speed.
#[test]
fn the_timeout_covers_the_reproof() {
    let good = fig1_ics("reproof-timeout", |_| {});
    let wrong = fig1_ics("reproof-timeout-wrong", |ics| {
        pair(ics, "p", "q")["constraints"] = serde_json::json!(["true"]);
    });
    for ics in [&good, &wrong] {
        for more in [&["--timeout", "0"][..], &["--timeout", "0", "--json"]] {
            let o = fig1_with(ics, more);
            fails_with(&o, 3, "timeout: the re-proof of the constraints of ");
            let err = stderr(&o);
            assert!(
                err.contains("did not finish within --timeout 0 (0 of 6 pairs proved)"),
                "{err}"
            );
            assert!(err.contains("nothing was explored"), "{err}");
            assert!(err.contains("--trust-ics"), "{err}");
            assert!(!err.contains("error:"), "{err}");
            assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        }
    }
    // With time enough the deadline changes nothing: the good file is used, the
    // wrong one refused.
    let o = fig1_with(&good, &["--timeout", "600"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("final states: 2"), "{}", stdout(&o));
    fails_with(
        &fig1_with(&wrong, &["--timeout", "600"]),
        2,
        "constraint `true` of the pair (a: `p`, b: `q`) is not proved",
    );
    // --trust-ics skips the re-proof: the exploration runs (and may finish fig1.ic
    // before it first looks at the clock).
    let o = fig1_with(&good, &["--timeout", "0", "--trust-ics"]);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
    assert!(!stderr(&o).contains("re-proof"), "{}", stderr(&o));
    assert!(stdout(&o).contains("algorithm:    cdpor"), "{}", stdout(&o));
}
