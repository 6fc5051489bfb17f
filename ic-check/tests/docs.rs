//! Issue 13, item 1: the documentation lives in the repository, README links it, and
//! what it says is checked where a test can: the language reference's programs load,
//! the architecture's paths exist, the licences Cargo.toml names are there, every
//! `$ ic-check` example prints what it shows, every relative link leads to a file.

mod common;

use common::repo;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// README.md and every page under `docs/` (`docs/*.md`, `docs/algorithms/*.md`), as
/// paths from the repository's root.
fn markdown_pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    for dir in ["docs", "docs/algorithms"] {
        let mut found: Vec<String> = std::fs::read_dir(repo(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".md"))
            .map(|name| format!("{dir}/{name}"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

/// `markdown` without its fenced code blocks and inline code spans, which hold no
/// links (a code span such as `a[i](x)` only looks like one).
fn prose(markdown: &str) -> String {
    let mut text = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let spans_out: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
            text.push_str(&spans_out);
            text.push('\n');
        }
    }
    text
}

/// The targets of the links of `markdown`: `[text](target)` and `src="target"`.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    for piece in text.split("](").skip(1) {
        if let Some(end) = piece.find(')') {
            targets.push(piece[..end].trim().to_string());
        }
    }
    for piece in text.split("src=\"").skip(1) {
        if let Some(end) = piece.find('"') {
            targets.push(piece[..end].to_string());
        }
    }
    targets
}

/// The words of a command line, with double quotes grouping (`--replay "p q"`).
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "an unclosed quote in `{command}`");
    if in_word {
        words.push(word);
    }
    words
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
    assert_eq!(frontend::ir::MAX_ARRAY_LEN, 1_048_576);
}

/// Paths the architecture names (`crate/src/…`) exist.
#[test]
fn the_architecture_names_real_files() {
    let doc = read("docs/architecture.md");
    let checked = paths_exist("docs/architecture.md");
    assert!(checked >= 10, "only {checked} paths");
    // Module names in the tables exist in their crate.
    for module in [
        "registry.rs",
        "exploration.rs",
        "executor.rs",
        "dpor/mod.rs",
        "dpor/parts.rs",
        "dpor/reduction.rs",
        "dpor/sleep.rs",
        "algorithms/sdpor.rs",
        "algorithms/csdpor.rs",
        "algorithms/cdpor.rs",
        "algorithms/naive.rs",
        "dependency/races.rs",
        "dependency/constraints.rs",
        "dependency/footprint.rs",
    ] {
        assert!(repo(&format!("explorer/src/{module}")).exists(), "{module}");
        let file = module.rsplit('/').next().unwrap_or(module);
        assert!(doc.contains(file), "{module} not described");
    }
}

/// README links every page of `docs/`, says how to install, and keeps the test command
/// `.ci/run` runs ("the README's test command").
#[test]
fn readme_links_the_docs_in_the_repository() {
    let readme = read("README.md");
    assert!(
        !readme.contains("../shared"),
        "README links outside the repository"
    );
    let pages = markdown_pages();
    assert!(pages.len() >= 16, "{pages:?}");
    for doc in &pages[1..] {
        assert!(
            readme.contains(&format!("]({doc})")),
            "README does not link {doc}"
        );
    }
    assert!(readme.contains("cargo install --path ic-check"));
    assert!(readme.contains("apt-get install libz3-dev"));
    assert!(readme.contains("cargo test --workspace"));
    assert!(read(".ci/run").contains("\ncargo test --workspace\n"));
    assert!(readme.contains("--completions") && readme.contains("--man"));
    let cli = read("docs/cli.md");
    assert!(cli.contains("--completions") && cli.contains("--man"));
    assert!(cli.contains("NO_COLOR"));
}

/// Every relative link of README and of the pages of `docs/` names a file that exists,
/// without an anchor (headings move; a page is the unit a link points at).
#[test]
fn every_relative_link_points_to_a_file() {
    let mut checked = 0;
    for page in markdown_pages() {
        let dir = std::path::Path::new(&page)
            .parent()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        for target in link_targets(&read(&page)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            assert!(
                !target.contains('#'),
                "{page} links `{target}` with an anchor"
            );
            assert!(!target.is_empty(), "{page} has an empty link");
            let path = repo(&dir).join(&target);
            assert!(
                path.exists(),
                "{page} links `{target}`, which does not exist"
            );
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} links");
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

/// Whether `printed` is what `shown` shows, where a line `…` of `shown` stands for
/// any lines (none included).
fn fits(shown: &[String], printed: &[String]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=printed.len()).any(|k| fits(rest, &printed[k..]))
        }
        Some((first, rest)) => printed.first() == Some(first) && fits(rest, &printed[1..]),
    }
}

/// Every `$ ic-check …` example of README and of the pages of `docs/` prints what it
/// shows (the `time:` line aside; a line `…` of the output shown stands for lines left
/// out). Arguments are split at spaces, double quotes grouping.
#[test]
fn every_example_is_current() {
    let without_time = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("time:"))
            .map(str::to_string)
            .collect()
    };
    let mut in_docs = 0;
    for page in markdown_pages() {
        let examples: Vec<String> = code_blocks(&read(&page), "")
            .into_iter()
            .filter(|b| b.starts_with("$ ic-check "))
            .collect();
        if page == "README.md" {
            assert!(examples.len() >= 4, "README's examples: {examples:?}");
        } else {
            in_docs += examples.len();
        }
        for example in examples {
            let (command, shown) = example.split_once('\n').expect("a command line");
            let args = shell_words(&command["$ ic-check ".len()..]);
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_ic-check"))
                .args(&args)
                .current_dir(repo(""))
                .output()
                .expect("ic-check runs");
            let printed = String::from_utf8_lossy(&o.stdout).to_string();
            let (shown, printed) = (without_time(shown), without_time(&printed));
            assert!(
                fits(&shown, &printed),
                "{page}'s `{command}` has drifted: it shows\n{}\nand prints\n{}",
                shown.join("\n"),
                printed.join("\n")
            );
        }
    }
    assert!(in_docs >= 2, "the docs' examples: {in_docs}");
}

#[test]
fn shell_words_group_quoted_schedules() {
    assert_eq!(
        shell_words(r#"--replay "p q@1.2"  prog.ic"#),
        ["--replay", "p q@1.2", "prog.ic"]
    );
    assert_eq!(shell_words(r#"-D "N=1" """#), ["-D", "N=1", ""]);
}

/// Every path of the repository that `page` names in a code span (`explorer/src/…`,
/// `tests/regressions/…`) exists; how many it names.
fn paths_exist(page: &str) -> usize {
    let doc = read(page);
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
                "examples/",
                "docs/",
            ]
            .iter()
            .any(|c| piece.starts_with(c));
        // A file (with an extension) or a folder (ending in `/`), not a name such as
        // the format `ic-synth/1`.
        let last = piece.rsplit('/').next().unwrap_or("");
        if is_path && (last.is_empty() || last.contains('.')) {
            let path = piece.trim_end_matches([',', ':', ')']);
            assert!(repo(path).exists(), "{page} names {path}");
            checked += 1;
        }
    }
    checked
}

/// Every page of the documentation (and BENCHMARKS.md) names only paths that exist.
#[test]
fn the_docs_name_real_files() {
    let mut pages = markdown_pages();
    pages.push("BENCHMARKS.md".to_string());
    let checked: usize = pages.iter().map(|page| paths_exist(page)).sum();
    assert!(
        checked >= 50,
        "only {checked} paths in {} pages",
        pages.len()
    );
}
