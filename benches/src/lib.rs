//! Benchmark programs of `benches/programs/`, loaded by name, and the paper-table
//! harness ([`table`]).

pub mod table;

/// Where the benchmark programs are.
pub const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/programs");

/// Loads `benches/programs/<name>` with `-D` overrides; the programs are part of the
/// repository, so a failure here is a bug in them.
pub fn program(name: &str, defines: &[(&str, i64)]) -> frontend::ir::Program {
    let path = format!("{PROGRAMS}/{name}");
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let defines: Vec<(String, i64)> = defines.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    frontend::load(&source, &defines).unwrap_or_else(|d| {
        panic!(
            "{}",
            frontend::diagnostic::render(&path, &source, &d, false)
        )
    })
}
