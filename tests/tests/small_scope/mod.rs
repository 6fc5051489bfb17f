//! Every small program of a tiny grammar against naive, in a fixed order: the
//! differential test of [`super::every_algorithm_agrees_with_naive`] enumerated
//! rather than drawn at random.
//!
//! Why: the bugs the campaigns found were in programs of three processes of one or
//! two blocks over two globals, built from a few shapes: writes of equal and of
//! other values, reads into a local nobody reads again (what the state checks find
//! equal), guarded writes, `await`s, assertions. Random programs reach each such
//! combination rarely; here every program of three processes, each one or two of
//! [`ATOMS`] separated by `yield`, has an index, visited in an order that spreads
//! the first ones over the whole space ([`STRIDE`]). Each program comes three
//! times ([`PLACEMENTS`]): as it is, and with `q` spawning a second `r` at the end
//! of its first or of its last block, a process born of a step: the futures of
//! the processes a blocked step spawned hid a race from odpor-cs
//! (`tests/regressions/odpor_cs_a_blocked_step_spawns_a_racing_process.ic`).
//!
//! `small_scope_agrees_with_naive` runs a fixed slice in CI; by hand,
//! `IC_SCOPE_FROM=k IC_SCOPE_COUNT=n cargo test --release -p tests --test
//! differential small_scope_campaign -- --ignored --nocapture` runs `n` programs from
//! the `k`-th, printing each disagreement and going on.

use super::{differential, env_number};

/// What a block of a process may be (`{t}` is a local of its own).
const ATOMS: &[&str] = &[
    "x = 1;",
    "x = x + 1;",
    "y = x;",
    "int {t} = x;",
    "if (x != 0) { y = 1; }",
    "await (x == 1);",
    "x = 0;",
    "y = 1;",
    "assert(y != 1 || x != 0);",
    "if (y == 0) { x = 2; }",
    "await (y != x);",
    "y = y + 1;",
];

/// Processes: one atom, or two separated by `yield`.
const KINDS: u64 = (ATOMS.len() + ATOMS.len() * ATOMS.len()) as u64;

/// Three processes, in order.
const PROCESSES: u64 = KINDS * KINDS * KINDS;

/// Where `q` spawns a second `r`: nowhere, after its first block, after its last.
const PLACEMENTS: u64 = 3;

/// Programs: three processes and a placement. The first [`PROCESSES`] indices are
/// the programs without a spawn, numbered as before placements were added.
const TOTAL: u64 = PROCESSES * PLACEMENTS;

/// The `k`-th program visited is the `(k * STRIDE) % TOTAL`-th: a prime that does
/// not divide [`TOTAL`], so every program is visited once, the first ones far apart.
const STRIDE: u64 = 1_000_003;
const _: () = assert!(!TOTAL.is_multiple_of(STRIDE));

/// The body of process `name` of kind `kind`; with `spawn_after`, `spawn r();`
/// closes its block of that number (the last one if it has fewer).
fn process(name: &str, kind: u64, spawn_after: Option<usize>) -> String {
    let n = ATOMS.len() as u64;
    let atoms: Vec<u64> = if kind < n {
        vec![kind]
    } else {
        vec![(kind - n) / n, (kind - n) % n]
    };
    let last = atoms.len() - 1;
    let blocks: Vec<String> = atoms
        .iter()
        .enumerate()
        .map(|(k, &a)| {
            let block = ATOMS[a as usize].replace("{t}", &format!("t{k}"));
            match spawn_after.map(|b| b.min(last)) == Some(k) {
                true => block + " spawn r();",
                false => block,
            }
        })
        .collect();
    format!("proc {name}() {{ {} }}\n", blocks.join(" yield; "))
}

/// The `index`-th program (`index < TOTAL`).
fn program(index: u64) -> String {
    let (placement, index) = (index / PROCESSES, index % PROCESSES);
    let kinds = [index % KINDS, index / KINDS % KINDS, index / KINDS / KINDS];
    let spawn_after = match placement {
        0 => None,
        1 => Some(0),
        _ => Some(1),
    };
    let mut source = String::from("global int x = 0;\nglobal int y = 0;\n");
    for (name, kind) in ["p", "q", "r"].iter().zip(kinds) {
        let spawn_after = spawn_after.filter(|_| *name == "q");
        source += &process(name, kind, spawn_after);
    }
    source + "init { spawn p(); spawn q(); spawn r(); }\n"
}

/// The programs visited `from`, `count` of them, each with its index.
fn visited(from: u64, count: u64) -> impl Iterator<Item = (u64, String)> {
    (from..from + count).map(|k| {
        let index = (k * STRIDE) % TOTAL;
        (index, program(index))
    })
}

/// Each disagreement of the programs visited `from`, `count` of them.
fn disagreements(from: u64, count: u64) -> Vec<String> {
    visited(from, count)
        .filter_map(|(index, source)| {
            differential(&source)
                .err()
                .map(|e| format!("program {index}: {e}"))
        })
        .collect()
}

#[test]
fn the_grammar_counts_its_programs() {
    assert_eq!(KINDS, 156);
    assert_eq!(TOTAL, 3 * 3_796_416);
    assert_eq!(
        process("p", 12 + 3 * 12 + 3, None),
        "proc p() { int t0 = x; yield; int t1 = x; }\n"
    );
    assert_eq!(
        process("q", 12 + 3 * 12 + 3, Some(0)),
        "proc q() { int t0 = x; spawn r(); yield; int t1 = x; }\n"
    );
    assert_eq!(process("q", 7, Some(1)), "proc q() { y = 1; spawn r(); }\n");
    // The programs of the campaigns keep their numbers (864186:
    // `tests/regressions/a_covered_state_hides_the_races_of_what_follows.ic`).
    assert_eq!(
        program(864_186),
        "global int x = 0;\nglobal int y = 0;\n\
         proc p() { y = 1; yield; x = 0; }\n\
         proc q() { await (x == 1); yield; y = 1; }\n\
         proc r() { x = x + 1; yield; y = y + 1; }\n\
         init { spawn p(); spawn q(); spawn r(); }\n"
    );
    // Every program loads.
    for (_, source) in visited(0, 200) {
        tests::load(&source, &[]);
    }
}

/// A fixed slice, in CI.
#[test]
fn small_scope_agrees_with_naive() {
    let failed = disagreements(0, 200);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// By hand: `IC_SCOPE_COUNT` programs from the `IC_SCOPE_FROM`-th.
#[test]
#[ignore = "a campaign, run by hand"]
fn small_scope_campaign() {
    let from = u64::from(env_number("IC_SCOPE_FROM", 0));
    let count = u64::from(env_number("IC_SCOPE_COUNT", 1000));
    let mut failed = 0;
    for (index, source) in visited(from, count) {
        if let Err(e) = differential(&source) {
            failed += 1;
            println!("program {index}:\n{e}\n");
        }
    }
    println!("{failed} of {count} programs disagree with naive");
    assert_eq!(failed, 0);
}
