//! Soundness of the synthesised constraints, checked independently of the synthesis:
//! for every pair of blocks of every program and many random concrete states in
//! which both blocks are enabled, run `a·b` and `b·a` with the interpreter. Whenever
//! a constraint holds, both orders must run normally and reach the same state; for a
//! pair marked exact, whenever no constraint holds they must not.
//!
//! States where an order overflows or exceeds the step limit are skipped: the
//! constraints assume unbounded integers and terminating loops (see the crate docs).

mod common;

use common::*;
use frontend::ics::Ics;
use frontend::ir::BlockId;
use std::path::Path;

/// Random states tried per pair.
const SAMPLES: usize = 600;

#[derive(Default, Debug)]
struct Counts {
    enabled: usize,
    held: usize,
    commuted: usize,
    skipped: usize,
}

fn check_program(path: &Path, seed: u64) -> Counts {
    let (source, program) = load(path);
    let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    // Through the JSON and back, as the explorer will read it.
    let ics = ic_synth::to_ics(&program, &source, "p.ic", &synthesis);
    let json = serde_json::to_string(&ics).expect("serialisable");
    let ics = Ics::from_json(&json).expect("parses back");
    assert!(ics.matches_source(&source));
    let resolved = ics.resolve(&program).expect("constraints resolve");
    let m = machine(&program);
    let mut rng = Rng::new(seed);
    let mut counts = Counts::default();
    let n = program.blocks.len() as BlockId;
    for a in 0..n {
        for b in a..n {
            let (pair, swapped) = resolved.pair(a, b).expect("every pair is listed");
            assert!(!swapped, "pairs are listed in block order");
            let procs = [
                program.blocks[a as usize].proc,
                program.blocks[b as usize].proc,
            ];
            for _ in 0..SAMPLES {
                let mem = random_memory(&program, &mut rng);
                let locals = [
                    random_locals(&program, procs[0], &mut rng),
                    random_locals(&program, procs[1], &mut rng),
                ];
                let en_a = m.enabled(a, &mem, &locals[0]);
                let en_b = m.enabled(b, &mem, &locals[1]);
                if !(matches!(en_a, Ok(true)) && matches!(en_b, Ok(true))) {
                    continue;
                }
                counts.enabled += 1;
                let ab = run_pair(&m, &mem, [a, b], &locals, 0);
                let ba = run_pair(&m, &mem, [a, b], &locals, 1);
                if matches!(ab, Run::Assumed) || matches!(ba, Run::Assumed) {
                    counts.skipped += 1;
                    continue;
                }
                let commute = same(&program, &ab, &ba);
                let holding = pair
                    .constraints
                    .iter()
                    .find(|c| c.holds(&program, &mem, &locals[0], &locals[1]));
                counts.held += usize::from(holding.is_some());
                counts.commuted += usize::from(commute);
                let name = |x: BlockId| &program.blocks[x as usize].name;
                if let Some(c) = holding {
                    assert!(
                        commute,
                        "{}: constraint `{}` of ({}, {}) holds but the orders differ\n\
                         memory: {}\nlocals of {}: {:?}\nlocals of {}: {:?}\na·b: {ab:?}\nb·a: {ba:?}",
                        path.display(),
                        c.text,
                        name(a),
                        name(b),
                        mem.show(&program),
                        name(a),
                        locals[0],
                        name(b),
                        locals[1],
                    );
                } else if pair.exact {
                    assert!(
                        !commute,
                        "{}: ({}, {}) is marked exact and no constraint holds, but the orders \
                         agree\nmemory: {}\nlocals of {}: {:?}\nlocals of {}: {:?}\nconstraints: {:?}",
                        path.display(),
                        name(a),
                        name(b),
                        mem.show(&program),
                        name(a),
                        locals[0],
                        name(b),
                        locals[1],
                        pair.constraints.iter().map(|c| &c.text).collect::<Vec<_>>(),
                    );
                }
            }
        }
    }
    counts
}

#[test]
fn constraints_are_sound_on_random_states() {
    let programs = all_programs();
    assert!(programs.len() >= 8, "examples and test programs are found");
    let mut total = Counts::default();
    for (i, path) in programs.iter().enumerate() {
        let c = check_program(path, 0x5eed + i as u64);
        eprintln!("{}: {c:?}", path.display());
        total.enabled += c.enabled;
        total.held += c.held;
        total.commuted += c.commuted;
        total.skipped += c.skipped;
    }
    // The test is not vacuous: constraints hold in many sampled states.
    assert!(total.held > 1000, "{total:?}");
    assert!(total.enabled > 5000, "{total:?}");
}
