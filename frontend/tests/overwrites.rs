//! Dead globals, statically (`frontend::analysis::overwrites`): what a block surely overwrites
//! before reading it, and what a proc's processes may ever read.

use frontend::ir::{GlobalId, Program};

fn load(source: &str) -> Program {
    frontend::load(source, &[]).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Global ids as names.
fn names(p: &Program, globals: &[GlobalId]) -> Vec<String> {
    globals
        .iter()
        .map(|&g| p.globals[g as usize].name.clone())
        .collect()
}

/// The globals block `name` surely overwrites, by name.
fn overwrites(p: &Program, name: &str) -> Vec<String> {
    let b = p.block_by_name(name).expect("a block of that name");
    names(p, &p.blocks[b as usize].overwrites)
}

/// The globals proc `name`'s processes may read, by name.
fn reads(p: &Program, name: &str) -> Vec<String> {
    let proc = p.proc_by_name(name).expect("a proc of that name");
    names(p, &p.procs[proc as usize].reads)
}

const GLOBALS: &str = "global int x; global int y; global int z; global int[2] a; global map m;\n";

fn program(procs: &str) -> Program {
    load(&format!("{GLOBALS}{procs}\ninit {{ }}"))
}

/// Each case: a proc, one of its blocks, what that block surely overwrites.
#[test]
fn overwrites_are_the_writes_of_the_straight_line_prefix_before_any_read() {
    let none: &[&str] = &[];
    for (procs, block, expected) in [
        // Reads of other globals do not matter; locals neither.
        (
            "proc w(int i) { int t = y; x = i; z = t; }",
            "w",
            &["x", "z"][..],
        ),
        // A global read before its write is not overwritten.
        ("proc w() { bool t = x == 0; x = 1; y = 2; }", "w", &["y"]),
        // A branch may skip what follows it.
        (
            "proc w() { y = 1; if (y == 0) { x = 1; } z = 2; }",
            "w",
            &["y"],
        ),
        ("proc w() { while (y == 0) { x = 1; } }", "w", none),
        // A block that fails after its write undoes it, but an execution with a
        // failure records no final state: what may fail does not end the prefix.
        (
            "proc w() { x = z + 1; a[z] = 1; assert(z >= 0); y = -z; spawn w(); z = 1; }",
            "w",
            &["x", "y"],
        ),
        // A guarded block may never run; the block after a `yield` may.
        (
            "proc w() { await (y == 0); x = 1; yield; x = 2; }",
            "w",
            none,
        ),
        (
            "proc w() { await (y == 0); x = 1; yield; x = 2; }",
            "w#1",
            &["x"],
        ),
    ] {
        assert_eq!(
            overwrites(&program(procs), block),
            expected,
            "{block} of {procs}"
        );
    }
}

#[test]
fn reads_cover_guards_index_expressions_and_spawned_procs() {
    let p = program(
        "proc g() { await (z > 0); }
         proc i() { a[y] = 1; }
         proc r() { x = 0; spawn g(); }
         proc s() { spawn r(); spawn s(); }",
    );
    assert_eq!(reads(&p, "g"), ["z"]);
    assert_eq!(reads(&p, "i"), ["y"]);
    assert_eq!(reads(&p, "r"), ["z"]);
    assert_eq!(reads(&p, "s"), ["z"]);
}
