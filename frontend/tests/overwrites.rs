//! Dead globals, statically (`frontend::overwrites`): what a block surely overwrites
//! before reading it or failing, and what a proc's processes may ever read.

use frontend::ir::Program;

fn load(source: &str) -> Program {
    frontend::load(source, &[]).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The globals block `name` surely overwrites, by name.
fn overwrites(p: &Program, name: &str) -> Vec<String> {
    let b = p.block_by_name(name).expect("a block of that name");
    p.blocks[b as usize]
        .overwrites
        .iter()
        .map(|&g| p.globals[g as usize].name.clone())
        .collect()
}

/// The globals proc `name`'s processes may read, by name.
fn reads(p: &Program, name: &str) -> Vec<String> {
    let proc = p.proc_by_name(name).expect("a proc of that name");
    p.procs[proc as usize]
        .reads
        .iter()
        .map(|&g| p.globals[g as usize].name.clone())
        .collect()
}

const GLOBALS: &str = "global int x; global int y; global int z; global int[2] a; global map m;\n";

fn program(procs: &str) -> Program {
    load(&format!("{GLOBALS}{procs}\ninit {{ }}"))
}

#[test]
fn a_straight_line_write_of_a_value_read_elsewhere_is_an_overwrite() {
    let p = program("proc w(int i) { int t = y; x = i; z = t; }");
    assert_eq!(overwrites(&p, "w"), ["x", "z"]);
}

#[test]
fn a_write_after_a_read_of_the_same_global_is_none() {
    let p = program("proc w() { bool t = x == 0; x = 1; y = 2; }");
    assert_eq!(overwrites(&p, "w"), ["y"]);
}

#[test]
fn the_prefix_stops_at_a_branch() {
    let p = program("proc w() { y = 1; if (y == 0) { x = 1; } z = 2; }");
    assert_eq!(overwrites(&p, "w"), ["y"]);
    let p = program("proc w() { while (y == 0) { x = 1; } }");
    assert_eq!(overwrites(&p, "w"), Vec::<String>::new());
}

/// A block that fails after its write undoes it, but an execution with a failure
/// records no final state: what may fail does not end the prefix.
#[test]
fn what_may_fail_does_not_end_the_prefix() {
    let p = program("proc w() { x = z + 1; a[z] = 1; assert(z >= 0); y = -z; spawn w(); z = 1; }");
    assert_eq!(overwrites(&p, "w"), ["x", "y"]);
}

#[test]
fn a_guarded_block_may_never_run_and_overwrites_nothing() {
    let p = program("proc w() { await (y == 0); x = 1; yield; x = 2; }");
    assert_eq!(overwrites(&p, "w"), Vec::<String>::new());
    assert_eq!(overwrites(&p, "w#1"), ["x"]);
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
