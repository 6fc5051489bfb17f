//! The examples of the CDPOR paper must come out as printed there (up to an
//! equivalent normal form of each constraint), plus the lost-update program.
//!
//! The paper's integers are unbounded; ours are 64-bit and overflow is a runtime
//! error, so a constraint must also keep out the states where an increment
//! overflows in either order: each of the paper's constraints gains exactly the
//! bounds its blocks' arithmetic needs (`x` is incremented twice in `p·r`, so
//! `I(p,r) = {true}` becomes `{x <= 9223372036854775805 && z <= 9223372036854775806}`),
//! and nothing else.

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
    // The paper's {z >= 0, z == x, z <= -2}, {z <= -1} and {true}, with the bounds
    // that keep `x + 1` and `z + 1` from overflowing.
    let (max_1, max_2) = ("9223372036854775806", "9223372036854775805");
    s.assert_constraints(
        "q",
        "r",
        &[
            &format!("z >= 0 && z <= {max_1} && x <= {max_1}"),
            &format!("z == x && x <= {max_1}"),
            &format!("z <= -2 && x <= {max_1}"),
        ],
    );
    s.assert_constraints("p", "q", &[&format!("z <= -1 && x <= {max_1}")]);
    s.assert_constraints("p", "r", &[&format!("x <= {max_2} && z <= {max_1}")]);
    for (a, b) in [("q", "r"), ("p", "q"), ("p", "r")] {
        assert!(s.pair(a, b).exact, "I({a},{b}) is exact");
    }
    // As printed.
    assert_eq!(
        s.pair("p", "q").constraints,
        [format!("x <= {max_1} && z <= -1")]
    );
    assert_eq!(
        s.pair("p", "r").constraints,
        [format!("z <= {max_1} && x <= {max_2}")]
    );
    assert_eq!(
        s.pair("q", "r").constraints,
        [
            format!("x <= {max_1} && x == z"),
            format!("x <= {max_1} && z <= -2"),
            format!("x <= {max_1} && z <= {max_1} && z >= 0"),
        ]
    );
    assert_eq!(s.may_write("p"), BTreeSet::from(["x".to_string()]));
    assert_eq!(
        s.may_write("r"),
        BTreeSet::from(["x".to_string(), "z".to_string()])
    );
}

#[test]
fn fib_res_constraints() {
    let s = synth("examples/fib.ic");
    // The paper's {nr > 0, v == v'} and {true}: where `res` computes `r + v`, the sum
    // must not overflow (and `fib`'s `v - 1`, `v - 2` happen only for `v > 1`).
    let max = "9223372036854775807";
    s.assert_constraints(
        "res",
        "res",
        &[
            &format!("nr > 0 && v + v' <= {max}"),
            &format!("nr <= 0 && v == v' && r + v <= {max}"),
        ],
    );
    s.assert_constraints("fib", "res", &["nr > 0", &format!("r + v' <= {max}")]);
    s.assert_constraints("fib", "fib", &["true"]);
    assert_eq!(
        s.pair("res", "res").constraints,
        [
            format!("nr > 0 && v + v' <= {max}"),
            format!("r + v <= {max} && v == v' && nr <= 0"),
        ]
    );
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
    s.assert_constraints("p#1", "p#1", &["t == t' && t <= 9223372036854775806"]);
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
    // `r` only touches `f` and `x` (through an inlined fun): it commutes with itself
    // wherever `x + sq(k)` does not overflow.
    assert_eq!(
        s.pair("r", "r").constraints,
        [
            "x + k * k <= 9223372036854775807 && x + k' * k' <= 9223372036854775807 \
          && k * k <= 9223372036854775807 && k' * k' <= 9223372036854775807"
        ]
    );
    // `s` calls `total`, which loops: it may not terminate, so `s` commutes with
    // nothing, not even with blocks it shares no variable with.
    assert!(s.pair("s", "s").constraints.is_empty());
    assert!(s.pair("r", "s").constraints.is_empty());
}
