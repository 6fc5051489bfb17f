//! The examples of the CDPOR paper must come out as printed there (up to an
//! equivalent normal form of each constraint), plus the lost-update program.

mod common;

use common::*;
use frontend::ir::Program;
use std::collections::BTreeSet;

struct Synth {
    source: String,
    program: Program,
    result: ic_synth::Synthesis,
}

fn synth(path: &str) -> Synth {
    let (source, program) = load(&root().join(path));
    let result = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    Synth {
        source,
        program,
        result,
    }
}

impl Synth {
    fn block(&self, name: &str) -> u32 {
        self.program
            .block_by_name(name)
            .unwrap_or_else(|| panic!("no block {name}"))
    }

    fn pair(&self, a: &str, b: &str) -> &ic_synth::PairResult {
        let (p, swapped) = self
            .result
            .pair(self.block(a), self.block(b))
            .expect("pair listed");
        assert!(
            !swapped || a == b,
            "pair ({a}, {b}) is listed as ({b}, {a})"
        );
        p
    }

    /// The constraints of (a, b) are, one for one, equivalent to `expected`.
    fn assert_constraints(&self, a: &str, b: &str, expected: &[&str]) {
        let p = self.pair(a, b);
        let equiv = |x: &str, y: &str| {
            ic_synth::constraints_equivalent(&self.program, &self.source, p.a, p.b, x, y)
                .unwrap_or_else(|e| panic!("cannot compare `{x}` and `{y}`: {e}"))
        };
        assert_eq!(
            p.constraints.len(),
            expected.len(),
            "I({a},{b}) = {:?}, expected {expected:?}",
            p.constraints
        );
        for e in expected {
            assert!(
                p.constraints.iter().any(|c| equiv(c, e)),
                "I({a},{b}) = {:?} has nothing equivalent to `{e}`",
                p.constraints
            );
        }
        for c in &p.constraints {
            assert!(
                expected.iter().any(|e| equiv(c, e)),
                "I({a},{b}) has `{c}`, not in {expected:?}"
            );
        }
    }

    fn may_write(&self, block: &str) -> BTreeSet<String> {
        self.result.sets[self.block(block) as usize]
            .may_write
            .iter()
            .map(|g| self.program.globals[*g as usize].name.clone())
            .collect()
    }
}

#[test]
fn fig1_constraints_and_write_sets() {
    let s = synth("examples/fig1.ic");
    s.assert_constraints("q", "r", &["z >= 0", "z == x", "z <= -2"]);
    s.assert_constraints("p", "q", &["z <= -1"]);
    s.assert_constraints("p", "r", &["true"]);
    for (a, b) in [("q", "r"), ("p", "q"), ("p", "r")] {
        assert!(s.pair(a, b).exact, "I({a},{b}) is exact");
    }
    // As printed, where the normal form is the paper's.
    assert_eq!(s.pair("p", "q").constraints, ["z <= -1"]);
    assert_eq!(s.pair("p", "r").constraints, ["true"]);
    assert!(s.pair("q", "r").constraints.contains(&"z >= 0".to_string()));
    assert!(s
        .pair("q", "r")
        .constraints
        .contains(&"z <= -2".to_string()));
    assert_eq!(s.may_write("p"), BTreeSet::from(["x".to_string()]));
    assert_eq!(
        s.may_write("r"),
        BTreeSet::from(["x".to_string(), "z".to_string()])
    );
}

#[test]
fn fib_res_constraints() {
    let s = synth("examples/fib.ic");
    s.assert_constraints("res", "res", &["nr > 0", "v == v'"]);
    s.assert_constraints("fib", "res", &["true"]);
    s.assert_constraints("fib", "fib", &["true"]);
    let mut res = s.pair("res", "res").constraints.clone();
    res.sort();
    assert_eq!(res, ["nr > 0", "v == v'"]);
    for (a, b) in [("res", "res"), ("fib", "res"), ("fib", "fib")] {
        assert!(s.pair(a, b).exact, "I({a},{b}) is exact");
    }
}

#[test]
fn a_local_that_survives_a_yield_is_not_independent() {
    let s = synth("ic-synth/tests/programs/yield_writeback.ic");
    let p = s.pair("p", "p#1");
    assert_ne!(p.constraints, ["true"]);
    assert!(!p.constraints.is_empty());
    s.assert_constraints("p", "p#1", &["x == t' + 1"]);
    s.assert_constraints("p#1", "p#1", &["t == t'"]);
    s.assert_constraints("p", "p", &["true"]);
}

#[test]
fn constraints_hold_for_every_value_of_the_params() {
    // The same constraints whatever -D says: params are free in the synthesis.
    let path = root().join("ic-synth/tests/programs/arrays.ic");
    let source = std::fs::read_to_string(path).expect("readable");
    let run = |n: i64| {
        let program = frontend::load(&source, &[("N".to_string(), n)]).expect("loads");
        let s = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
        s.pairs
            .iter()
            .map(|p| p.constraints.clone())
            .collect::<Vec<_>>()
    };
    let four = run(4);
    assert_eq!(four, run(7));
    assert!(four.iter().flatten().any(|c| c.contains('N')), "{four:?}");
}

#[test]
fn loops_and_fun_calls_are_abstracted_not_exact() {
    let s = synth("ic-synth/tests/programs/misc.ic");
    let p = s.pair("s", "s");
    assert!(!p.exact);
    assert!(
        p.reason.as_deref().unwrap_or("").contains("loop"),
        "{:?}",
        p.reason
    );
    // `r` only touches `f` and `x` (through an inlined fun): it commutes with itself.
    assert_eq!(s.pair("r", "r").constraints, ["true"]);
}
