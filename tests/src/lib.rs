//! Shared helpers of the integration tests: load a program, run an algorithm.

pub mod generator;

use explorer::{Algorithm, Config, Report};

/// Loads `source` (with `-D` overrides) or panics with the rendered diagnostics.
pub fn load(source: &str, defines: &[(&str, i64)]) -> frontend::ir::Program {
    let defines: Vec<(String, i64)> = defines.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    frontend::load(source, &defines).unwrap_or_else(|d| {
        panic!(
            "{}",
            frontend::diagnostic::render("test.ic", source, &d, false)
        )
    })
}

/// Loads an example of the repository's `examples/` directory.
pub fn example(name: &str) -> String {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Explores every execution (all violations) with `algorithm`.
pub fn explore_all(program: &frontend::ir::Program, algorithm: &mut dyn Algorithm) -> Report {
    let config = Config {
        all_violations: true,
        ..Config::default()
    };
    explorer::explore(program, algorithm, config)
}

/// (traces, states, final states, Mazurkiewicz traces) of a report.
pub fn counts(report: &Report) -> (u64, u64, u64, Option<u64>) {
    let s = &report.stats;
    (s.traces, s.states, s.final_states, s.mazurkiewicz)
}

/// The independence constraints of a program, synthesised now (as `ic-check` does
/// without `--ics`).
pub fn constraints(
    source: &str,
    program: &frontend::ir::Program,
) -> std::sync::Arc<frontend::ics::ResolvedIcs> {
    let ics = ic_synth::resolved(program, source, "test.ic").unwrap_or_else(|e| panic!("{}", e.0));
    std::sync::Arc::new(ics)
}
