//! Robustness of the front end (issue 13, item 9): whatever the text,
//! `frontend::load` — the parser and the checker — returns (a program or
//! diagnostics) without panicking, every diagnostic has a location inside the source
//! (only a bad `-D` option, which is not in the file, has none), and rendering the
//! diagnostics does not panic either.
//!
//! Inputs are arbitrary strings, soups of the language's tokens, and valid programs
//! — the seeds below and every program of `examples/` and `benches/programs/` — with
//! a few tokens or characters deleted, inserted, duplicated, swapped or replaced (so
//! that most of them still parse and reach the checker).
//!
//! 10,000 inputs a run (20% arbitrary text, 20% token soups, 60% mutated programs);
//! `IC_FUZZ_CASES=N` sets the total, e.g. a campaign of a million:
//! `IC_FUZZ_CASES=1000000 cargo test --release -p frontend --test no_panic`.

use frontend::ast::Span;
use frontend::diagnostic::render;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Inputs of one run, all tests together (`IC_FUZZ_CASES` overrides).
const CASES: u64 = 10_000;

/// This share (in percent) of the run's inputs.
fn cases(percent: u64) -> u32 {
    let total = std::env::var("IC_FUZZ_CASES")
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("IC_FUZZ_CASES: a number"))
        })
        .unwrap_or(CASES);
    u32::try_from((total * percent / 100).max(1)).unwrap_or(u32::MAX)
}

/// Loads `src`; on diagnostics, checks their spans and renders them.
fn survives(src: &str, defines: &[(String, i64)]) -> Result<(), TestCaseError> {
    let Err(diagnostics) = frontend::load(src, defines) else {
        return Ok(());
    };
    prop_assert!(!diagnostics.is_empty(), "an error without diagnostics");
    for d in &diagnostics {
        // Every mistake in the file has a place in it; only a `-D` option has none.
        prop_assert!(
            d.span.is_some() || d.message.starts_with("-D "),
            "a diagnostic without a location: {d:?}"
        );
        let spans = d.span.iter().chain(d.secondary.iter().map(|(s, _)| s));
        for span in spans {
            within(src, *span).map_err(|e| TestCaseError::fail(format!("{e} in {d:?}")))?;
        }
    }
    render("fuzz.ic", src, &diagnostics, false);
    render("fuzz.ic", src, &diagnostics, true);
    Ok(())
}

fn within(src: &str, span: Span) -> Result<(), String> {
    let inside = span.start <= span.end
        && span.end <= src.len()
        && src.is_char_boundary(span.start)
        && src.is_char_boundary(span.end);
    if inside {
        Ok(())
    } else {
        Err(format!(
            "span {span:?} is not within a source of {} bytes",
            src.len()
        ))
    }
}

/// Tokens of the language and near misses: keywords, names (some declared by the
/// seeds, some builtins), punctuation, literals at the limits, strings, comments.
const TOKENS: &[&str] = &[
    "param",
    "global",
    "proc",
    "fun",
    "init",
    "int",
    "bool",
    "list",
    "map",
    "if",
    "else",
    "while",
    "for",
    "in",
    "break",
    "continue",
    "spawn",
    "assert",
    "await",
    "yield",
    "return",
    "true",
    "false",
    "x",
    "z",
    "y",
    "p",
    "q",
    "r",
    "N",
    "a",
    "l",
    "m",
    "f",
    "i",
    "sum",
    "len",
    "head",
    "tail",
    "append",
    "take",
    "drop",
    "min",
    "max",
    "abs",
    "has",
    "_",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "++",
    "&&",
    "||",
    "!",
    "?",
    ":",
    "->",
    "..",
    "0",
    "1",
    "2",
    "7",
    "-1",
    "1048576",
    "1048577",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999",
    "\"msg\"",
    "\"a\\\"b\"",
    "\"\\q\"",
    "\"open",
    "//",
    "// c\n",
    "/*",
    "*/",
    "/* c */",
    " ",
    "\n",
    "\t",
    "x'",
    "@",
    "é",
    "\u{0}",
    "#",
    "'",
    ".",
];

/// Valid programs (checked by `seeds_are_valid`), the starting points of mutation.
const SEEDS: &[&str] = &[
    "// The working example of the CDPOR paper (Fig. 1).
global int x = -2;
global int z = -2;

proc p() { x = x + 1; }
proc q() { if (z >= 0) { z = x; } }
proc r() { x = x + 1; z = z + 1; }

init { spawn p(); spawn q(); spawn r(); }",
    "param N = 3;
global int[N] a = [1, 2, 3];
global bool[2] flags;
global list l = [1, 2];
global map m;
global bool done = false;

fun sum(list xs, int acc) -> int {
    if (len(xs) == 0) { return acc; } else if (head(xs) < 0) { return -1; }
    return sum(tail(xs), acc + head(xs));
}

proc worker(int id, list todo) {
    await (!done || id > 0);
    int i = 0;
    list seen;
    while (i < 3) {
        for k in 0..len(todo) {
            if (k % 2 == 1) { continue; }
            seen = append(seen, k);
        }
        i = i + 1;
        if (i > 100) { break; }
        yield;
    }
    { int v = a[id % N]; a[id % N] = v + 1; m[id] = has(m, id) ? m[id] + 1 : 1; }
    flags[0] = !flags[1];
    assert(sum(seen, 0) >= 0, \"sums are \\\"non-negative\\\"\");
    l = take(l ++ seen, 3) ++ drop(seen, min(1, max(0, abs(id))));
    return;
}

init {
    int k = 0;
    while (k < 2) { spawn worker(k, [k, k + 1] ++ l); k = k + 1; }
    done = true;
}",
    "param K = 2;
global int c;
proc inc() { int t = c; yield; c = t + 1; }
proc check() { await (c == K); assert(c == K, \"lost update\"); }
init { for i in 0..K { spawn inc(); } spawn check(); }",
];

/// Tokens that can stand for each other in the same place, so that swapping one for
/// another keeps a program parsing and gives the checker something to check.
const CLASSES: &[&[&str]] = &[
    &[
        "x",
        "z",
        "p",
        "q",
        "r",
        "N",
        "K",
        "a",
        "l",
        "m",
        "c",
        "k",
        "i",
        "id",
        "xs",
        "acc",
        "v",
        "t",
        "seen",
        "todo",
        "done",
        "flags",
        "sum",
        "worker",
        "inc",
        "check",
        "len",
        "head",
        "tail",
        "append",
        "take",
        "drop",
        "min",
        "max",
        "abs",
        "has",
        "undeclared",
    ],
    &[
        "0",
        "1",
        "2",
        "3",
        "1048576",
        "1048577",
        "9223372036854775807",
    ],
    &[
        "+", "-", "*", "/", "%", "++", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
    ],
    &["int", "bool", "list", "map"],
    &["true", "false"],
    &["if", "while"],
    &["await", "assert"],
    &["break", "continue", "yield", "return"],
    &["proc", "fun", "init", "global", "param"],
];

/// The seeds cut into tokens: runs of name characters, string literals, the
/// two-character operators, whitespace runs, single characters.
fn tokens(src: &str) -> Vec<String> {
    const PAIRS: &[&str] = &[
        "==", "!=", "<=", ">=", "&&", "||", "++", "->", "..", "//", "/*", "*/",
    ];
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_ascii_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else if c.is_whitespace() {
            rest.find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len())
        } else if c == '"' {
            rest[1..].find('"').map_or(rest.len(), |end| end + 2)
        } else if PAIRS.iter().any(|p| rest.starts_with(p)) {
            2
        } else {
            c.len_utf8()
        };
        out.push(rest[..len].to_string());
        rest = &rest[len..];
    }
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Insert(Index, &'static str),
    Replace(Index, &'static str),
    Duplicate(Index),
    Swap(Index, Index),
    /// Replaces one of the tokens that belong to a class by a token of that class.
    Respell(Index, Index),
    /// Removes one character of a token.
    DeleteChar(Index, Index),
    /// Puts a character inside a token.
    InsertChar(Index, Index, char),
    /// Doubles one character of the text.
    DuplicateChar(Index),
    /// Swaps one character of the text with the next.
    SwapChars(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let token = || select(TOKENS);
    let idx = any::<Index>;
    let odd_char = prop_oneof![
        select(&['"', '/', '*', '\\', '{', '}', '(', ')', ';', '-', '0', 'x', ' ', '\n'][..]),
        any::<char>(),
    ];
    prop_oneof![
        1 => idx().prop_map(Mutation::Delete),
        1 => (idx(), token()).prop_map(|(i, t)| Mutation::Insert(i, t)),
        1 => (idx(), token()).prop_map(|(i, t)| Mutation::Replace(i, t)),
        1 => idx().prop_map(Mutation::Duplicate),
        1 => (idx(), idx()).prop_map(|(i, j)| Mutation::Swap(i, j)),
        8 => (idx(), idx()).prop_map(|(i, j)| Mutation::Respell(i, j)),
        1 => (idx(), idx()).prop_map(|(i, j)| Mutation::DeleteChar(i, j)),
        1 => (idx(), idx(), odd_char).prop_map(|(i, j, c)| Mutation::InsertChar(i, j, c)),
        1 => idx().prop_map(Mutation::DuplicateChar),
        1 => idx().prop_map(Mutation::SwapChars),
    ]
}

fn mutate(seed: &str, mutations: &[Mutation]) -> String {
    let mut toks = tokens(seed);
    for m in mutations {
        if toks.is_empty() {
            toks.push(String::new());
        }
        let n = toks.len();
        match m {
            Mutation::Delete(i) => {
                toks.remove(i.index(n));
            }
            Mutation::Insert(i, t) => toks.insert(i.index(n + 1), t.to_string()),
            Mutation::Replace(i, t) => toks[i.index(n)] = t.to_string(),
            Mutation::Duplicate(i) => {
                let i = i.index(n);
                toks.insert(i, toks[i].clone());
            }
            Mutation::Swap(i, j) => toks.swap(i.index(n), j.index(n)),
            Mutation::Respell(i, j) => {
                let classed: Vec<(usize, &[&str])> = toks
                    .iter()
                    .enumerate()
                    .filter_map(|(at, t)| {
                        Some((at, *CLASSES.iter().find(|c| c.contains(&t.as_str()))?))
                    })
                    .collect();
                if !classed.is_empty() {
                    let (at, class) = classed[i.index(classed.len())];
                    toks[at] = class[j.index(class.len())].to_string();
                }
            }
            Mutation::DeleteChar(i, j) => {
                let t = &mut toks[i.index(n)];
                if let Some((at, _)) = t.char_indices().nth(j.index(t.chars().count().max(1))) {
                    t.remove(at);
                }
            }
            Mutation::InsertChar(i, j, c) => {
                let t = &mut toks[i.index(n)];
                let boundaries: Vec<usize> = t
                    .char_indices()
                    .map(|(at, _)| at)
                    .chain([t.len()])
                    .collect();
                t.insert(boundaries[j.index(boundaries.len())], *c);
            }
            Mutation::DuplicateChar(i) | Mutation::SwapChars(i) => {
                // On the text: the result is cut into tokens again.
                let mut chars: Vec<char> = toks.concat().chars().collect();
                if !chars.is_empty() {
                    let at = i.index(chars.len());
                    if matches!(m, Mutation::DuplicateChar(_)) {
                        chars.insert(at, chars[at]);
                    } else if at + 1 < chars.len() {
                        chars.swap(at, at + 1);
                    }
                }
                toks = tokens(&String::from_iter(chars));
            }
        }
    }
    toks.concat()
}

/// The programs of `examples/` and `benches/programs/`, read once.
fn repo_programs() -> &'static [String] {
    static PROGRAMS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut paths = Vec::new();
        for dir in ["examples", "benches/programs"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("readable directory") {
                let path = entry.expect("directory entry").path();
                if path.extension().is_some_and(|e| e == "ic") {
                    paths.push(path);
                }
            }
        }
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("readable program"))
            .collect()
    })
}

/// `-D` settings, most of them empty; some name no param, some are extreme.
fn defines() -> impl Strategy<Value = Vec<(String, i64)>> {
    let define = (
        select(&["N", "K", "x", "Q"][..]),
        prop_oneof![
            Just(0i64),
            Just(-1),
            Just(5),
            Just(1 << 21),
            Just(i64::MAX),
            Just(i64::MIN)
        ],
    )
        .prop_map(|(name, v)| (name.to_string(), v));
    prop_oneof![3 => Just(Vec::new()), 1 => vec(define, 1..3)]
}

#[test]
fn repo_programs_are_valid_seeds() {
    assert!(repo_programs().len() >= 20, "{}", repo_programs().len());
    for src in repo_programs() {
        if let Err(d) = frontend::load(src, &[]) {
            panic!("{d:?} in\n{src}");
        }
        assert_eq!(tokens(src).concat(), *src);
    }
}

#[test]
fn seeds_are_valid() {
    for seed in SEEDS {
        if let Err(d) = frontend::load(seed, &[]) {
            panic!("{d:?} in\n{seed}");
        }
        assert_eq!(tokens(seed).concat(), *seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(20)))]

    #[test]
    fn arbitrary_text(src in prop_oneof![
        vec(any::<char>(), 0..64).prop_map(String::from_iter),
        "[ -~\n\t]{0,120}",
    ]) {
        survives(&src, &[])?;
    }

    #[test]
    fn token_soup(
        toks in vec(select(TOKENS), 0..60),
        glue in vec(select(&["", " ", "\n"][..]), 60),
        defines in defines(),
    ) {
        let src: String = toks.iter().zip(&glue).flat_map(|(t, g)| [*t, *g]).collect();
        survives(&src, &defines)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(20)))]

    #[test]
    fn mutated_seeds(
        seed in select(SEEDS),
        mutations in vec(mutation(), 1..5),
        defines in defines(),
    ) {
        survives(&mutate(seed, &mutations), &defines)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(40)))]

    #[test]
    fn mutated_examples_and_benchmarks(
        program in any::<Index>(),
        mutations in vec(mutation(), 1..5),
        defines in defines(),
    ) {
        let programs = repo_programs();
        let seed = &programs[program.index(programs.len())];
        survives(&mutate(seed, &mutations), &defines)?;
    }
}

fn nested(depth: usize) -> [String; 5] {
    [
        format!(
            "global int x = {}1{}; init {{ }}",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
        format!("global int x = {}1; init {{ }}", "-".repeat(depth)),
        format!("global int x; init {{ x = 1{}; }}", " + 1".repeat(depth)),
        format!("init {{ {}{} }}", "{ ".repeat(depth), "} ".repeat(depth)),
        format!(
            "global int x; init {{ {}x = 1;{} }}",
            "if (x == 0) { ".repeat(depth),
            " }".repeat(depth)
        ),
    ]
}

/// Nesting as deep as people write does not overflow the stack of a test thread.
#[test]
fn deep_nesting() {
    for depth in [10, 100, 200] {
        for src in nested(depth) {
            survives(&src, &[]).unwrap_or_else(|e| panic!("{e}"));
            assert!(frontend::load(&src, &[]).is_ok(), "{src}");
        }
    }
}

/// Nesting far deeper than people write: `load` checks on a thread with a large
/// stack, so a 2 MiB test thread survives it.
#[test]
fn very_deep_nesting() {
    for src in nested(10_000) {
        survives(&src, &[]).unwrap_or_else(|e| panic!("{e}"));
    }
}
