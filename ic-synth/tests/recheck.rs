//! Re-proving (`ic_synth::recheck`): every file ic-synth writes for the examples,
//! the benchmarks and the test programs is proved again, with their default params
//! and with others (`-D`), and with one worker or several.

mod common;

use common::{all_programs, root};
use ic_synth::recheck::{recheck, Options, Unproved};

#[test]
fn every_synthesised_file_is_reproved() {
    let mut proved = 0;
    for path in all_programs() {
        let source = std::fs::read_to_string(&path).expect("readable");
        let program = frontend::load(&source, &[]).expect("loads");
        let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
        let ics = ic_synth::to_ics(&program, &source, "prog.ic", &synthesis);
        for jobs in [1, 2] {
            let options = Options {
                jobs,
                ..Options::default()
            };
            let r = recheck(&program, &source, &ics, &options)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(
                r.constraints,
                ics.pairs.iter().map(|p| p.constraints.len()).sum::<usize>(),
                "{}",
                path.display()
            );
            assert_eq!(r.exact, ics.pairs.iter().filter(|p| p.exact).count());
            proved += r.constraints;
        }
    }
    assert!(proved > 50, "only {proved} constraints proved");
}

#[test]
fn files_hold_under_other_params() {
    for (file, defines) in [
        ("examples/fig1.ic", vec![("Z0", -1), ("X0", 5)]),
        ("benches/programs/qs.ic", vec![("N", 4)]),
        ("benches/programs/fib.ic", vec![("N", 3)]),
    ] {
        let source = std::fs::read_to_string(root().join(file)).expect("readable");
        let program = frontend::load(&source, &[]).expect("loads");
        let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
        let ics = ic_synth::to_ics(&program, &source, "prog.ic", &synthesis);
        let defines: Vec<(String, i64)> = defines
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        let other = frontend::load(&source, &defines).expect("loads");
        recheck(&other, &source, &ics, &Options::default())
            .unwrap_or_else(|e| panic!("{file} {defines:?}: {e}"));
    }
}

#[test]
fn a_refusal_names_the_pair_the_constraint_and_a_state() {
    let source = "global int x = 0;\nproc p() { x = x + 1; }\nproc q() { x = 2; }\n\
                  init { spawn p(); spawn q(); }\n";
    let program = frontend::load(source, &[]).expect("loads");
    let synthesis = ic_synth::synthesize(&program, source, &ic_synth::Options::default());
    let mut ics = ic_synth::to_ics(&program, source, "prog.ic", &synthesis);
    let pq = ics
        .pairs
        .iter_mut()
        .find(|p| p.a == "p" && p.b == "q")
        .expect("pair (p, q)");
    assert!(pq.constraints.is_empty());
    pq.constraints = vec!["x >= 0".to_string()];
    let unproved = recheck(&program, source, &ics, &Options::default()).expect_err("refused");
    let r = unproved.refusal().expect("a refusal").clone();
    assert_eq!((r.a.as_str(), r.b.as_str()), ("p", "q"));
    assert_eq!(r.constraint.as_deref(), Some("x >= 0"));
    assert!(r.problem.contains("global x differs"), "{r}");
    let state = r.state.expect("a state");
    assert!(state.starts_with("x = "), "{state}");
}

#[test]
fn a_deadline_that_passed_proves_nothing() {
    let source = std::fs::read_to_string(root().join("examples/fig1.ic")).expect("readable");
    let program = frontend::load(&source, &[]).expect("loads");
    let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    let ics = ic_synth::to_ics(&program, &source, "fig1.ic", &synthesis);
    let pairs = ics
        .pairs
        .iter()
        .filter(|p| p.exact || !p.constraints.is_empty())
        .count();
    assert!(pairs > 0);
    let now = std::time::Instant::now();
    for jobs in [1, 2] {
        let passed = Options {
            jobs,
            deadline: Some(now),
            ..Options::default()
        };
        let e = recheck(&program, &source, &ics, &passed).expect_err("out of time");
        assert_eq!(e, Unproved::OutOfTime { proved: 0, pairs });
        assert!(e.refusal().is_none());
        assert!(
            e.to_string()
                .contains("did not finish in the time given (0 of"),
            "{e}"
        );
    }
    // A deadline far away changes nothing.
    let far = Options {
        deadline: Some(now + std::time::Duration::from_secs(600)),
        ..Options::default()
    };
    let with = recheck(&program, &source, &ics, &far).expect("proved");
    let without = recheck(&program, &source, &ics, &Options::default()).expect("proved");
    assert_eq!(
        (with.pairs, with.constraints, with.exact),
        (without.pairs, without.constraints, without.exact)
    );
}
