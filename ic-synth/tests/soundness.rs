//! Soundness of the synthesised constraints, checked independently of the synthesis
//! by the validator ([`ic_synth::validate`]): for every pair of blocks of every
//! example, benchmark and test program, on many sampled states (random, boundary
//! and program-constant values) in which both blocks are enabled, wherever a
//! constraint holds both orders run normally and reach the same state; and for a
//! pair marked exact, wherever none holds they do not.

mod common;

use common::*;
use ic_synth::validate::{validate, Options, Validation};

/// States sampled per pair.
const SAMPLES: usize = 600;

fn options(seed: u64) -> Options {
    Options {
        seed,
        samples: SAMPLES,
        check_exact: true,
        ..Options::default()
    }
}

fn assert_clean(what: &str, v: &Validation) {
    if let Some(c) = &v.counterexample {
        panic!("{what}: {c}");
    }
    if let Some(c) = &v.inexact {
        panic!("{what}: {c}");
    }
}

#[test]
fn constraints_are_sound_on_sampled_states() {
    let programs = all_programs();
    assert!(programs.len() >= 8, "examples and test programs are found");
    let (mut enabled, mut held) = (0, 0);
    for (i, path) in programs.iter().enumerate() {
        let (source, program) = load(path);
        let resolved = synthesised_ics(&program, &source)
            .resolve(&program)
            .expect("constraints resolve");
        let v = validate(&program, &resolved, &options(0x5eed + i as u64));
        eprintln!(
            "{}: {} pairs, {} enabled, {} held",
            path.display(),
            v.pairs_checked,
            v.enabled,
            v.held
        );
        assert_clean(&path.display().to_string(), &v);
        enabled += v.enabled;
        held += v.held;
    }
    // The test is not vacuous: constraints hold in many sampled states.
    assert!(held > 5000, "only {held} samples where a constraint held");
    assert!(
        enabled > 10_000,
        "only {enabled} samples with both blocks enabled"
    );
}

/// Constraints hold for every value of the params: check them where the params are
/// small, which changes array sizes and loop bounds (one synthesis per program; the
/// constraints are resolved against each setting).
#[test]
fn constraints_are_sound_at_small_param_values() {
    let mut settings = 0;
    for path in all_programs() {
        let (source, program) = load(&path);
        if program.params.is_empty() {
            continue;
        }
        let ics = synthesised_ics(&program, &source);
        for param in &program.params {
            for value in [1, 2] {
                let defines = [(param.name.clone(), value)];
                let Ok(small) = frontend::load(&source, &defines) else {
                    continue;
                };
                let resolved = ics.resolve(&small).expect("constraints resolve");
                let v = validate(&small, &resolved, &options(value as u64));
                assert_clean(
                    &format!("{} with -D {}={value}", path.display(), param.name),
                    &v,
                );
                settings += 1;
            }
        }
    }
    assert!(settings >= 20, "only {settings} param settings checked");
}
