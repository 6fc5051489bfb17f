//! Snapshots of the synthesised constraints of every example and benchmark
//! program: any change in a constraint shows up in review.

mod common;

use common::*;
use std::fmt::Write;
use std::path::Path;

fn render(path: &Path) -> String {
    let (source, program) = load(path);
    let s = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    let name = |b: u32| program.blocks[b as usize].name.clone();
    let mut out = String::new();
    for p in &s.pairs {
        let _ = writeln!(
            out,
            "I({}, {}) = {{{}}}{}",
            name(p.a),
            name(p.b),
            p.constraints.join(", "),
            if p.exact { "  exact" } else { "" }
        );
        if let Some(r) = &p.reason {
            let _ = writeln!(out, "    ({r})");
        }
    }
    for (b, sets) in program.blocks.iter().zip(&s.sets) {
        let names = |set: &std::collections::BTreeSet<u32>| {
            frontend::ics::global_names(&program, set).join(", ")
        };
        let _ = writeln!(
            out,
            "{}: reads {{{}}} writes {{{}}} W {{{}}}",
            b.name,
            names(&sets.reads),
            names(&sets.writes),
            names(&sets.may_write)
        );
    }
    out
}

#[test]
fn examples() {
    insta::glob!("../../examples", "*.ic", |path| {
        insta::assert_snapshot!(render(path));
    });
}

#[test]
fn benchmark_programs() {
    insta::glob!("../../benches/programs", "*.ic", |path| {
        insta::assert_snapshot!(render(path));
    });
}

#[test]
fn test_programs() {
    insta::glob!("programs", "*.ic", |path| {
        insta::assert_snapshot!(render(path));
    });
}
