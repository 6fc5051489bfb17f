//! Issue 13, item 1: the documentation lives in the repository, README links it, and
//! what it says is checked where a test can: the language reference's programs load,
//! the architecture's paths exist, the licences Cargo.toml names are there.

mod common;

use common::repo;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The bodies of the fenced code blocks of `markdown` whose info string is `lang`.
fn code_blocks(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) if info.trim() == lang => current = Some(String::new()),
            (Some(body), Some(_)) => {
                blocks.push(std::mem::take(body));
                current = None;
            }
            (Some(body), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_language_reference_programs_load() {
    let doc = read("docs/language.md");
    let programs = code_blocks(&doc, "ic");
    assert!(programs.len() >= 3, "{} programs", programs.len());
    for src in programs {
        if let Err(diags) = frontend::load(&src, &[]) {
            panic!(
                "a program of docs/language.md does not load:\n{src}\n{}",
                frontend::diagnostic::render("language.md", &src, &diags, false)
            );
        }
    }
}

/// Every keyword and builtin of the checker is in the reference.
#[test]
fn the_language_reference_names_every_keyword_and_builtin() {
    let doc = read("docs/language.md");
    // The words of the document's code spans.
    let words: std::collections::BTreeSet<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split(|c: char| !c.is_ascii_alphanumeric() && c != '_'))
        .collect();
    for word in [
        "param", "global", "proc", "fun", "init", "int", "bool", "list", "map", "if", "else",
        "while", "for", "in", "break", "continue", "spawn", "assert", "await", "yield", "return",
        "true", "false", "len", "head", "tail", "append", "take", "drop", "min", "max", "abs",
        "has",
    ] {
        assert!(words.contains(word), "`{word}` missing");
    }
    assert!(doc.contains(
        &frontend::parser::MAX_NESTING
            .to_string()
            .replace("000", ",000")
    ));
    assert!(doc.contains("1,048,576"));
    assert_eq!(frontend::check::MAX_ARRAY_LEN, 1_048_576);
}

/// Paths the architecture names (`crate/src/…`) exist.
#[test]
fn the_architecture_names_real_files() {
    let doc = read("docs/architecture.md");
    let mut checked = 0;
    for piece in doc.split('`').skip(1).step_by(2) {
        let is_path = piece.contains('/')
            && !piece.contains(' ')
            && [
                "frontend/",
                "explorer/",
                "ic-synth/",
                "ic-check/",
                "tests/",
                "benches/",
            ]
            .iter()
            .any(|c| piece.starts_with(c));
        if is_path {
            assert!(repo(piece).exists(), "docs/architecture.md names {piece}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} paths");
    // Module names in the tables exist in their crate.
    for module in [
        "exploration.rs",
        "executor.rs",
        "dpor.rs",
        "sdpor.rs",
        "csdpor.rs",
        "cdpor.rs",
        "naive.rs",
        "sleep.rs",
        "race.rs",
        "independence.rs",
        "footprint.rs",
    ] {
        assert!(repo(&format!("explorer/src/{module}")).exists(), "{module}");
        assert!(doc.contains(module), "{module} not described");
    }
}

#[test]
fn readme_links_the_docs_in_the_repository() {
    let readme = read("README.md");
    assert!(
        !readme.contains("../shared"),
        "README links outside the repository"
    );
    for doc in [
        "docs/language.md",
        "docs/ics-format.md",
        "docs/architecture.md",
    ] {
        assert!(
            readme.contains(&format!("]({doc})")),
            "README does not link {doc}"
        );
        assert!(repo(doc).exists());
    }
    assert!(readme.contains("cargo install --path ic-check"));
    assert!(readme.contains("apt-get install libz3-dev"));
    assert!(readme.contains("--completions") && readme.contains("--man"));
    assert!(readme.contains("NO_COLOR"));
}

#[test]
fn the_licences_cargo_toml_names_are_there() {
    assert!(read("Cargo.toml").contains(r#"license = "MIT OR Apache-2.0""#));
    let mit = read("LICENSE-MIT");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    assert!(mit.contains(r#"THE SOFTWARE IS PROVIDED "AS IS""#));
    let apache = read("LICENSE-APACHE");
    assert!(apache.contains("Apache License"));
    assert!(apache.contains("Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    let readme = read("README.md");
    assert!(readme.contains("(LICENSE-MIT)") && readme.contains("(LICENSE-APACHE)"));
}

/// Every `$ ic-check …` example of README prints what README shows (the `time:` line
/// aside; a block that starts its output with `…` shows the end of the output).
#[test]
fn every_readme_example_is_current() {
    let readme = read("README.md");
    let examples: Vec<String> = code_blocks(&readme, "")
        .into_iter()
        .filter(|b| b.starts_with("$ ic-check "))
        .collect();
    assert!(examples.len() >= 2, "README's examples: {examples:?}");
    let without_time = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("time:"))
            .map(str::to_string)
            .collect()
    };
    for example in examples {
        let (command, shown) = example.split_once('\n').expect("a command line");
        let args: Vec<&str> = command["$ ic-check ".len()..].split_whitespace().collect();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ic-check"))
            .args(&args)
            .current_dir(repo(""))
            .output()
            .expect("ic-check runs");
        let printed = String::from_utf8_lossy(&o.stdout).to_string();
        let (shown, printed) = match shown.strip_prefix("…\n") {
            Some(tail) => {
                let tail_lines = without_time(tail);
                let all = without_time(&printed);
                let from = all.len().saturating_sub(tail_lines.len());
                (tail_lines, all[from..].to_vec())
            }
            None => (without_time(shown), without_time(&printed)),
        };
        assert_eq!(printed, shown, "README's `{command}` has drifted");
    }
}
