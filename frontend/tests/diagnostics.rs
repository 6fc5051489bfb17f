//! Diagnostics of wrong programs, as the user sees them.
//!
//! Every file in `tests/bad/` holds one mistake; its rendered diagnostic (without
//! colour) is a snapshot in `tests/snapshots/`. Review a changed message with
//! `cargo insta review`, or re-record with `INSTA_UPDATE=always cargo test`.

use frontend::diagnostic::render;
use frontend::Diagnostic;
use std::path::Path;

/// The diagnostics of a program, or an empty list when it loads.
fn diagnostics(source: &str, defines: &[(String, i64)]) -> Vec<Diagnostic> {
    match frontend::load(source, defines) {
        Ok(_) => Vec::new(),
        Err(diags) => diags,
    }
}

/// `bad/name.ic` for a file under `tests/`.
fn relative(path: &Path) -> String {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let tests = tests.canonicalize().unwrap_or(tests);
    path.strip_prefix(&tests)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn bad_programs() {
    insta::glob!("bad/*.ic", |path| {
        let source = std::fs::read_to_string(path).expect("a readable test file");
        let name = relative(path);
        let diags = diagnostics(&source, &[]);
        let rendered = render(&name, &source, &diags, false);
        assert_eq!(
            diags.len(),
            1,
            "{name} has one mistake and should get exactly one diagnostic:\n{rendered}"
        );
        let d = &diags[0];
        assert!(d.span.is_some(), "{name}: the diagnostic has no place");
        assert!(!d.label.is_empty(), "{name}: the diagnostic has no label");
        assert!(
            d.help.is_some(),
            "{name}: the diagnostic says nothing to do"
        );
        insta::assert_snapshot!(rendered);
    });
}

#[test]
fn bad_programs_are_many_and_named_by_their_mistake() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/bad exists")
        .map(|e| {
            e.expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".ic"))
        .collect();
    assert!(names.len() >= 25, "only {} bad programs", names.len());
    for n in &names {
        assert!(
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.'),
            "{n}: name files after their mistake, in snake_case"
        );
    }
}

#[test]
fn every_example_loads_without_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/ exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "ic") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("a readable example");
        let diags = diagnostics(&source, &[]);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        assert!(
            diags.is_empty(),
            "{}",
            render(&format!("examples/{name}"), &source, &diags, false)
        );
        assert!(
            source.starts_with("//"),
            "examples/{name} should start with a comment saying what it shows"
        );
        count += 1;
    }
    assert!(count >= 7, "only {count} examples");
}

const WITH_PARAMS: &str = "param N = 2;\nparam M = 3;\nglobal int[N] a;\ninit { a[0] = M; }\n";

#[test]
fn define_of_unknown_param() {
    let defines = [("K".to_string(), 4)];
    let diags = diagnostics(WITH_PARAMS, &defines);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].span, None, "a -D option has no place in the file");
    insta::assert_snapshot!(render("prog.ic", WITH_PARAMS, &diags, false));
}

#[test]
fn define_in_a_program_without_params() {
    let source = "global int x = 0;\ninit { x = 1; }\n";
    let diags = diagnostics(source, &[("N".to_string(), 4)]);
    assert_eq!(diags.len(), 1);
    insta::assert_snapshot!(render("prog.ic", source, &diags, false));
}

#[test]
fn define_of_a_global_is_refused() {
    let source = "global int x = 0;\nparam N = 1;\ninit { x = N; }\n";
    let diags = diagnostics(source, &[("x".to_string(), 4)]);
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("-D x"), "{}", diags[0].message);
}

#[test]
fn defines_override_params() {
    let program = frontend::load(WITH_PARAMS, &[("N".to_string(), 5)]).expect("loads");
    assert_eq!(program.params[0].value, 5);
    assert_eq!(program.params[1].value, 3);
    assert_eq!(
        program.globals[0].kind,
        frontend::ir::GlobalKind::Array {
            elem: frontend::value::Ty::Int,
            len: 5
        }
    );
    // The last -D of a name wins.
    let program =
        frontend::load(WITH_PARAMS, &[("M".to_string(), 1), ("M".to_string(), 7)]).expect("loads");
    assert_eq!(program.params[1].value, 7);
}

#[test]
fn a_define_can_make_an_array_size_invalid() {
    let diags = diagnostics(WITH_PARAMS, &[("N".to_string(), -3)]);
    assert_eq!(diags.len(), 1);
    insta::assert_snapshot!(render("prog.ic", WITH_PARAMS, &diags, false));
}

/// A list literal holds at most `MAX_LIST_LEN` elements, as any list does (a longer
/// one would be a list no `++` or `append` could have made).
#[test]
fn a_list_literal_longer_than_the_limit_is_refused() {
    let literal = |n: i64| {
        let items = vec!["0"; n as usize].join(",");
        format!("global list l = [{items}];\ninit {{ }}\n")
    };
    let max = frontend::ir::MAX_LIST_LEN;
    assert!(diagnostics(&literal(max), &[]).is_empty());
    let source = literal(max + 1);
    let diags = diagnostics(&source, &[]);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "list literal is too long");
    assert_eq!(diags[0].label, "1048577 elements");
    assert_eq!(
        diags[0].help.as_deref(),
        Some("a list holds at most 1048576 elements")
    );
    let span = diags[0].span.expect("a place in the file");
    assert_eq!(&source[span.start..span.start + 3], "[0,");
    assert!(source[..span.end].ends_with("0]"));
}

/// Independent mistakes in different bodies are all reported, each once, in source order.
const SEVERAL_MISTAKES: &str = r#"// Four independent mistakes.
global int x = 0;
global list l = [];

fun f(int a) -> int {
    yield;
    return a;
}

proc p() {
    x = y + 1;
    if (x) { x = 2; }
}

proc q() {
    l = append(l, true);
}

init {
    break;
    spawn p();
    spawn q();
}
"#;

#[test]
fn several_mistakes_are_all_reported() {
    let diags = diagnostics(SEVERAL_MISTAKES, &[]);
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`yield` in a fun",
            "unknown name `y`",
            "expected a bool, found an int",
            "expected an int, found a bool",
            "`break` outside a loop",
        ]
    );
    insta::assert_snapshot!(render("several.ic", SEVERAL_MISTAKES, &diags, false));
}

/// Several declaration mistakes are reported together too.
#[test]
fn several_declaration_mistakes_are_all_reported() {
    let source = "global map m = 1;\nglobal int[2] a = [1];\nglobal int m = 0;\n";
    let diags = diagnostics(source, &[("Z".to_string(), 1)]);
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "a map cannot be initialised",
            "the array has 2 elements but 1 are given",
            "`m` is declared twice",
            "the program has no `init`",
            "-D Z: the program has no `param Z`",
        ]
    );
}

/// A mistake inside an expression is reported once, not again by every enclosing expression.
#[test]
fn no_follow_on_errors() {
    let source = "global int x = 0;\nproc p() { x = (zz + 1) * 2 + (true ? zz : 3); }\ninit { spawn p(); }\n";
    let diags = diagnostics(source, &[]);
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["unknown name `zz`", "unknown name `zz`"]);
}

#[test]
fn colour_is_optional() {
    let source = "init { break; }\n";
    let diags = diagnostics(source, &[]);
    let plain = render("c.ic", source, &diags, false);
    let coloured = render("c.ic", source, &diags, true);
    assert!(!plain.contains('\u{1b}'));
    assert!(coloured.contains('\u{1b}'));
    assert!(plain.contains("c.ic:1:8"), "{plain}");
}
