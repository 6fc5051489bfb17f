//! Shared helpers of the ic-synth tests: where the programs are, and loading them.
//! Running blocks on sampled states is the library's validator
//! ([`ic_synth::validate`]), which the soundness tests call.

#![allow(dead_code)]

use frontend::ir::Program;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Every `.ic` file of a directory of the workspace, sorted.
pub fn programs_in(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ic"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The examples, the benchmark programs and the test programs of this crate.
pub fn all_programs() -> Vec<PathBuf> {
    let mut out = programs_in("examples");
    out.extend(programs_in("benches/programs"));
    out.extend(programs_in("ic-synth/tests/programs"));
    out
}

pub fn load(path: &Path) -> (String, Program) {
    let source = std::fs::read_to_string(path).expect("readable program");
    let program = frontend::load(&source, &[]).unwrap_or_else(|d| {
        panic!("{} does not load: {d:?}", path.display());
    });
    (source, program)
}

/// The constraints of a program as the explorer reads them: synthesised, written
/// to `ics.json` text and parsed back.
pub fn synthesised_ics(program: &Program, source: &str) -> frontend::ics::Ics {
    let synthesis = ic_synth::synthesize(program, source, &ic_synth::Options::default());
    let ics = ic_synth::to_ics(program, source, "p.ic", &synthesis);
    let json = serde_json::to_string(&ics).expect("serialisable");
    let ics = frontend::ics::Ics::from_json(&json).expect("parses back");
    assert!(ics.matches_source(source));
    ics
}
