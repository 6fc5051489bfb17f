//! Soundness on generated programs: random procs over int, bool, array and map
//! globals, with conditionals, `? :`, builtins, products and quotients, fun calls
//! (inlined and abstracted), loops, assertions, spawns, `await` and `yield`. For each
//! program, every constraint is checked by the validator ([`ic_synth::validate`]) on
//! sampled states, as in `soundness.rs` (and exact pairs are checked to be exact),
//! and re-proved as `ic-check --ics` does ([`ic_synth::recheck`]).

use ic_synth::validate::{validate, Options, Rng};

/// Generated programs checked (each is a few blocks); `IC_VALIDATE_PROGRAMS` overrides.
const PROGRAMS: u64 = 20;
/// Small generated programs checked; `IC_VALIDATE_SMALL` overrides (a campaign:
/// `IC_VALIDATE_SMALL=10000 cargo test --release -p ic-synth --test generated small`).
const SMALL_PROGRAMS: u64 = 300;

/// A count from the environment, or the default.
fn programs(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .map(|s| s.parse().unwrap_or_else(|_| panic!("{var}: a number")))
        .unwrap_or(default)
}
/// States sampled per pair of blocks.
const SAMPLES: usize = 100;

struct Gen {
    rng: Rng,
    depth: u32,
    /// Two procs of one or two statements each: cheap to synthesise, so many fit in
    /// a test run.
    small: bool,
}

impl Gen {
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.rng.below(xs.len() as u64) as usize]
    }

    fn small(&mut self) -> String {
        let n = self.rng.below(7) as i64 - 2;
        if n < 0 {
            format!("({n})")
        } else {
            n.to_string()
        }
    }

    fn index(&mut self) -> String {
        match self.rng.below(4) {
            0 => self.rng.below(3).to_string(),
            1 => self.pick(&["x", "y", "t"]).to_string(),
            2 => format!("({} + 1)", self.pick(&["x", "t"])),
            _ => format!("abs({}) % 3", self.pick(&["x", "y", "g0"])),
        }
    }

    fn int(&mut self) -> String {
        if self.depth > 2 {
            return match self.rng.below(4) {
                0 => self.small(),
                1 => self.pick(&["x", "y", "t"]).to_string(),
                2 => self.pick(&["g0", "g1", "P"]).to_string(),
                _ => format!("a[{}]", self.rng.below(3)),
            };
        }
        self.depth += 1;
        let e = match self.rng.below(20) {
            0..=2 => self.small(),
            3..=5 => self.pick(&["x", "y", "t"]).to_string(),
            6..=7 => self.pick(&["g0", "g1", "P"]).to_string(),
            8 => format!("a[{}]", self.index()),
            9 => format!("m[{}]", self.pick(&["x", "y", "1"])),
            10 => format!("({} + {})", self.int(), self.int()),
            11 => format!("({} - {})", self.int(), self.int()),
            12 => format!("({} * {})", self.int(), self.pick(&["2", "3", "x", "g0"])),
            13 => format!(
                "({} / {})",
                self.int(),
                self.pick(&["2", "(-3)", "y", "g1"])
            ),
            14 => format!("({} % {})", self.int(), self.pick(&["2", "3", "x"])),
            15 => format!("({} ? {} : {})", self.boolean(), self.int(), self.int()),
            16 => format!(
                "{}({}, {})",
                self.pick(&["min", "max"]),
                self.int(),
                self.int()
            ),
            17 => format!("abs({})", self.int()),
            18 => format!("f({}, {})", self.int(), self.int()),
            _ => format!("sum({})", self.pick(&["x", "y", "g0"])),
        };
        self.depth -= 1;
        e
    }

    fn boolean(&mut self) -> String {
        if self.depth > 2 {
            return self
                .pick(&["b", "!b", "x > 0", "g0 == g1", "t <= y"])
                .to_string();
        }
        self.depth += 1;
        let e = match self.rng.below(9) {
            0..=2 => format!(
                "{} {} {}",
                self.int(),
                self.pick(&["<", "<=", "==", "!=", ">", ">="]),
                self.int()
            ),
            3 => self.pick(&["b", "c[0]", "c[1]"]).to_string(),
            4 => format!("!({})", self.boolean()),
            5 => format!("({} && {})", self.boolean(), self.boolean()),
            6 => format!("({} || {})", self.boolean(), self.boolean()),
            7 => format!("has(m, {})", self.pick(&["x", "y", "0", "t"])),
            _ => format!("c[{}]", self.index()),
        };
        self.depth -= 1;
        e
    }

    fn stmt(&mut self, out: &mut String, indent: usize, nested: u32, procs: usize) {
        let pad = " ".repeat(indent);
        match self.rng.below(if nested < 2 { 17 } else { 12 }) {
            0..=2 => {
                let g = self.pick(&["g0", "g1"]);
                let e = self.int();
                out.push_str(&format!("{pad}{g} = {e};\n"));
            }
            3 => {
                let e = self.boolean();
                out.push_str(&format!("{pad}b = {e};\n"));
            }
            4 => {
                let (i, e) = (self.index(), self.int());
                out.push_str(&format!("{pad}a[{i}] = {e};\n"));
            }
            5 => {
                let (k, e) = (self.pick(&["x", "y", "t", "2"]), self.int());
                out.push_str(&format!("{pad}m[{k}] = {e};\n"));
            }
            6 => {
                let (l, e) = (self.pick(&["t", "x", "y"]), self.int());
                out.push_str(&format!("{pad}{l} = {e};\n"));
            }
            7 => {
                let (i, e) = (self.index(), self.boolean());
                out.push_str(&format!("{pad}c[{i}] = {e};\n"));
            }
            8 => out.push_str(&format!("{pad}yield;\n")),
            9 => {
                let c = self.boolean();
                out.push_str(&format!("{pad}await ({c});\n"));
            }
            10 => {
                let p = self.rng.below(procs as u64);
                let (x, y) = (self.int(), self.int());
                out.push_str(&format!("{pad}spawn p{p}({x}, {y});\n"));
            }
            11 => {
                let c = self.boolean();
                out.push_str(&format!("{pad}assert({c});\n"));
            }
            12 | 13 => {
                let c = self.boolean();
                out.push_str(&format!("{pad}if ({c}) {{\n"));
                for _ in 0..1 + self.rng.below(3) {
                    self.stmt(out, indent + 4, nested + 1, procs);
                }
                out.push_str(&format!("{pad}}} else {{\n"));
                for _ in 0..self.rng.below(3) {
                    self.stmt(out, indent + 4, nested + 1, procs);
                }
                out.push_str(&format!("{pad}}}\n"));
            }
            14 => {
                let bound = self.pick(&["2", "y", "g1"]);
                out.push_str(&format!("{pad}t = 0;\n{pad}while (t < {bound}) {{\n"));
                out.push_str(&format!("{pad}    t = t + 1;\n"));
                for _ in 0..1 + self.rng.below(2) {
                    self.stmt(out, indent + 4, nested + 1, procs);
                }
                out.push_str(&format!("{pad}}}\n"));
            }
            15 => {
                // A loop with constant bounds, unrolled exactly by the synthesis.
                let n = 1 + self.rng.below(3);
                out.push_str(&format!("{pad}for i{nested} in 0..{n} {{\n"));
                self.stmt(out, indent + 4, nested + 1, procs);
                out.push_str(&format!("{pad}}}\n"));
            }
            _ => {
                let c = self.boolean();
                out.push_str(&format!("{pad}if ({c}) {{\n"));
                self.stmt(out, indent + 4, nested + 1, procs);
                out.push_str(&format!("{pad}}}\n"));
            }
        }
    }

    fn program(&mut self) -> String {
        let procs = if self.small {
            2
        } else {
            2 + self.rng.below(2) as usize
        };
        let mut out = String::from(
            "param P = 2;\nglobal int g0;\nglobal int g1;\nglobal bool b;\n\
             global int[3] a;\nglobal bool[2] c;\nglobal map m;\n\
             fun f(int u, int v) -> int { return u > v ? u - v : v * 2; }\n\
             fun sum(int n) -> int { int s = 0; for i in 0..n { s = s + i; } return s; }\n",
        );
        for p in 0..procs {
            out.push_str(&format!("proc p{p}(int x, int y) {{\n    int t = 0;\n"));
            for _ in 0..1 + self.rng.below(if self.small { 2 } else { 5 }) {
                self.stmt(&mut out, 4, 0, procs);
            }
            out.push_str("}\n");
        }
        out.push_str("init { spawn p0(1, 2); }\n");
        out
    }
}

/// Generates, synthesises and validates programs `seeds`; returns the pairs with
/// constraints and the samples in which one held.
fn check_generated(seeds: std::ops::Range<u64>, small: bool, timeout_ms: u64) -> (usize, usize) {
    let mut held = 0;
    let mut with_constraints = 0;
    for seed in seeds {
        let mut g = Gen {
            rng: Rng::new(1000 + seed),
            depth: 0,
            small,
        };
        let source = g.program();
        let program = match frontend::load(&source, &[]) {
            Ok(p) => p,
            Err(d) => panic!("generated program does not load: {d:?}\n{source}"),
        };
        let options = ic_synth::Options {
            timeout: std::time::Duration::from_millis(timeout_ms),
            ..ic_synth::Options::default()
        };
        let s = ic_synth::synthesize(&program, &source, &options);
        with_constraints += s.pairs.iter().filter(|p| !p.constraints.is_empty()).count();
        let ics = ic_synth::to_ics(&program, &source, "gen.ic", &s);
        let resolved = ics
            .resolve(&program)
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
        // What ic-check does with a file: every claim is proved again (for a third
        // of the small programs, to keep the test's time).
        if !small || seed % 3 == 0 {
            let options = ic_synth::recheck::Options::default();
            if let Err(e) = ic_synth::recheck::recheck(&program, &source, &ics, &options) {
                panic!("seed {seed} (small: {small}): not re-proved: {e}\n{source}");
            }
        }
        let v = validate(
            &program,
            &resolved,
            &Options {
                seed,
                samples: SAMPLES,
                check_exact: true,
                ..Options::default()
            },
        );
        if let Some(c) = v.counterexample.as_ref().or(v.inexact.as_ref()) {
            panic!("seed {seed} (small: {small}): {c}\n{source}");
        }
        held += v.held;
    }
    (with_constraints, held)
}

/// Validates `n` generated programs (the count from `var` if set) and checks that the
/// test is not vacuous: many pairs have constraints, and they hold in many samples.
fn validate_generated(var: &str, default: u64, small: bool, timeout_ms: u64) {
    let n = programs(var, default);
    let (with_constraints, held) = check_generated(0..n, small, timeout_ms);
    assert!(
        with_constraints > n as usize,
        "only {with_constraints} pairs with constraints"
    );
    assert!(
        held > 20 * n as usize,
        "only {held} samples where a constraint held"
    );
}

#[test]
fn constraints_of_generated_programs_are_sound() {
    validate_generated("IC_VALIDATE_PROGRAMS", PROGRAMS, false, 2000);
}

#[test]
fn constraints_of_small_generated_programs_are_sound() {
    validate_generated("IC_VALIDATE_SMALL", SMALL_PROGRAMS, true, 1000);
}
