//! Shared helpers of the integration tests: load a program, run an algorithm.

pub mod differential;
pub mod futures;
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

/// The names of the programs of the repository's `examples/` directory, sorted.
pub fn example_names() -> Vec<String> {
    let dir = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".ic"))
        .collect();
    names.sort();
    names
}

/// Loads an example of the repository's `examples/` directory.
pub fn example(name: &str) -> String {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Reads a benchmark program of the repository's `benches/programs/` directory, e.g.
/// `classic/lastzero.ic`.
pub fn benchmark(path: &str) -> String {
    let path = format!("{}/../benches/programs/{path}", env!("CARGO_MANIFEST_DIR"));
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

/// [`explore_all`], also recording the reads-from classes reached
/// ([`Report::reads_from`]).
pub fn explore_classes(program: &frontend::ir::Program, algorithm: &mut dyn Algorithm) -> Report {
    let config = Config {
        all_violations: true,
        record_reads_from: true,
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

/// The state as docs/language.md compares states, in one line a test can spell out:
/// `x = 1, y = 0 | r at r {t = 2}` — the globals, then the multiset of live processes
/// (sorted; proc, next block and live locals, no identities), `ended` when every process
/// has ended. A process stopped by a failure is `p failed`.
pub fn show_state(program: &frontend::ir::Program, state: &explorer::state::State) -> String {
    let (globals, procs) = explorer::show_final(program, state);
    let procs = if procs.is_empty() {
        "ended".to_string()
    } else {
        procs.join("; ")
    };
    format!("{globals} | {procs}")
}

/// The final states the `schedules` end in (a report's [`Report::schedules`], recorded
/// with `Config::record_schedules`), by fingerprint, each shown by [`show_state`] (the
/// least text when several schedules reach it, so that the result does not depend on
/// the exploration order). A schedule that does not replay to its end (its last step
/// fails, or it names a process that cannot run) is left out.
pub fn final_states(
    program: &frontend::ir::Program,
    limits: frontend::interp::Limits,
    schedules: &[String],
) -> std::collections::BTreeMap<explorer::fingerprint::Fingerprint, String> {
    let mut out = std::collections::BTreeMap::new();
    'schedules: for text in schedules {
        let Ok(steps) = explorer::schedule::parse(text) else {
            continue;
        };
        let Ok(mut ex) = explorer::executor::Executor::new(program, limits) else {
            continue;
        };
        for step in &steps {
            let Ok(i) = explorer::schedule::resolve(program, &ex.state, step) else {
                continue 'schedules;
            };
            if ex.step(i).is_err() {
                continue 'schedules;
            }
        }
        let shown = show_state(program, &ex.state);
        out.entry(ex.state.fingerprint())
            .and_modify(|s: &mut String| {
                if shown < *s {
                    *s = shown.clone();
                }
            })
            .or_insert(shown);
    }
    out
}

/// Explores `program` with `algorithm` under `config`, recording schedules, and
/// returns the report with its final states shown ([`final_states`]).
pub fn explore_shown(
    program: &frontend::ir::Program,
    algorithm: &mut dyn Algorithm,
    config: Config,
) -> (
    Report,
    std::collections::BTreeMap<explorer::fingerprint::Fingerprint, String>,
) {
    let limits = config.limits;
    let report = explorer::explore(
        program,
        algorithm,
        Config {
            record_schedules: true,
            ..config
        },
    );
    let finals = final_states(program, limits, &report.schedules);
    (report, finals)
}
