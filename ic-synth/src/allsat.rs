//! AllSAT with generalisation (Sec. 4.1 of the CDPOR paper).
//!
//! Repeatedly: take a model of `B ∧ F ∧ ¬(cubes so far)` (`B` the background), read
//! off the truth value of every printable atom of F, shrink that cube to a minimal
//! set of literals that still implies F under B (an unsat core of the literals
//! against `B ∧ ¬F`, then deletion of each literal that is not needed), record it and
//! block it. Every recorded cube is checked to imply F: each is a sound constraint on
//! its own. When a model's printable cube does not imply F (F depends on something
//! the language cannot print, such as a loop's result), that cube is blocked without
//! a constraint and the result is marked incomplete.
//!
//! Such "gap" models can be most of F's models (a loop's result or its hidden
//! bound, a spawn argument the language cannot print), and each blocks only one
//! full assignment of the atoms: the model budget can run out on them before the
//! cubes that matter are found (issue 11: PS's `process`/`process`). So the search
//! runs in two phases. Phase 1 enumerates `∀u. F`, F with its unprintable atoms `u`
//! read as free propositions (the conjunction of F over their truth values). Since
//! every state gives those atoms *some* truth values, `∀u. F` implies F, and being
//! over printable atoms only, its models never leave a gap; it is exhausted first.
//! Phase 2 goes on over the whole of F with the usual budget, for the cubes that
//! imply F only through what the unprintable atoms mean.
use crate::print::{Lit, Printer};
use crate::smt::Smt;
use frontend::symbolic::Form;
use std::time::Instant;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

/// Cubes recorded per pair before giving up on completeness.
const MAX_CUBES: usize = 32;
/// Models looked at per pair before giving up on completeness.
const MAX_MODELS: usize = 256;

#[derive(Clone, Debug, Default)]
pub struct AllSat {
    pub cubes: Vec<Vec<Lit>>,
    /// Every model was covered by a recorded cube.
    pub complete: bool,
    /// The time budget ran out or the solver answered `unknown`.
    pub timed_out: bool,
    pub solver_calls: u64,
    /// Some models had no printable cube implying F: they are covered by no constraint.
    pub gaps: bool,
}

/// A solver for quantifier-free arrays, uninterpreted functions and linear integer
/// arithmetic: much cheaper per incremental check than the default portfolio solver.
pub(crate) fn new_solver() -> Solver {
    let solver = Solver::new_for_logic("QF_AUFLIA").unwrap_or_default();
    solver.set_params(&params());
    solver
}

/// The parameters every query runs with. z3 takes over SIGINT during a query unless
/// told not to (`ctrl_c`): Ctrl-C would then only cancel that one query (the pair
/// losing its constraints) instead of reaching the program's own handler, and
/// threads that install and restore z3's handler in turn could leave it in place.
pub(crate) fn params() -> Params {
    let mut p = Params::new();
    p.set_bool("ctrl_c", false);
    p
}

fn set_timeout(solver: &Solver, deadline: Instant) -> bool {
    let left = deadline
        .saturating_duration_since(Instant::now())
        .as_millis();
    if left == 0 {
        return false;
    }
    let mut p = params();
    p.set_u32("timeout", left.min(u32::MAX as u128) as u32);
    solver.set_params(&p);
    true
}

pub fn allsat(
    smt: &mut Smt<'_>,
    printer: &Printer<'_>,
    background: &[Form],
    f: &Form,
    deadline: Instant,
) -> AllSat {
    let mut out = AllSat::default();
    let mut atoms = Vec::new();
    f.atoms(&mut atoms);
    let (atoms, unprintable): (Vec<Form>, Vec<Form>) =
        atoms.into_iter().partition(|a| printer.printable(a));
    let z_atoms: Vec<Bool> = atoms.iter().map(|a| smt.form(a)).collect();
    let z_bg: Vec<Bool> = background.iter().map(|b| smt.form(b)).collect();
    let z_f = smt.form(f);

    let models = new_solver();
    for b in &z_bg {
        models.assert(b);
    }
    models.assert(&z_f);
    // Phase 1 asks for models under `printable_only`, which implies `∀u. F`;
    // phase 2 drops the assumption.
    let printable_only = Bool::new_const("printable_only!");
    models.assert(printable_only.implies(smt.form(&for_all(f, &unprintable))));
    let mut phase1 = true;

    let check = new_solver();
    for b in &z_bg {
        check.assert(b);
    }
    check.assert(z_f.not());
    // Indicators: pos[i] ⇒ atom i, neg[i] ⇒ ¬atom i; assumptions choose a cube.
    let pos: Vec<Bool> = (0..atoms.len())
        .map(|i| Bool::new_const(format!("pos!{i}")))
        .collect();
    let neg: Vec<Bool> = (0..atoms.len())
        .map(|i| Bool::new_const(format!("neg!{i}")))
        .collect();
    for i in 0..atoms.len() {
        check.assert(pos[i].implies(&z_atoms[i]));
        check.assert(neg[i].implies(z_atoms[i].not()));
    }
    let indicator = |(i, v): (usize, bool)| if v { pos[i].clone() } else { neg[i].clone() };

    let mut models_seen = 0;
    loop {
        if out.cubes.len() >= MAX_CUBES || models_seen >= MAX_MODELS {
            return out;
        }
        if !phase1 {
            models_seen += 1;
        }
        if !set_timeout(&models, deadline) {
            out.timed_out = true;
            return out;
        }
        out.solver_calls += 1;
        let result = if phase1 {
            models.check_assumptions(std::slice::from_ref(&printable_only))
        } else {
            models.check()
        };
        match result {
            SatResult::Unsat if phase1 => {
                phase1 = false;
                continue;
            }
            SatResult::Unsat => {
                out.complete = !out.gaps;
                return out;
            }
            SatResult::Unknown => {
                out.timed_out = true;
                return out;
            }
            SatResult::Sat => {}
        }
        let Some(model) = models.get_model() else {
            out.timed_out = true;
            return out;
        };
        let mut cube: Vec<(usize, bool)> = Vec::new();
        for (i, z) in z_atoms.iter().enumerate() {
            let v = model
                .eval(z, true)
                .and_then(|b| b.as_bool())
                .unwrap_or(false);
            cube.push((i, v));
        }
        if !set_timeout(&check, deadline) {
            out.timed_out = true;
            return out;
        }
        let assumptions: Vec<Bool> = cube.iter().copied().map(indicator).collect();
        out.solver_calls += 1;
        match check.check_assumptions(&assumptions) {
            SatResult::Unknown => {
                out.timed_out = true;
                return out;
            }
            SatResult::Sat => {
                // The printable atoms do not pin F down here: block without a constraint.
                out.gaps = true;
                let block: Vec<Bool> = cube
                    .iter()
                    .map(|&(i, v)| {
                        if v {
                            z_atoms[i].clone()
                        } else {
                            z_atoms[i].not()
                        }
                    })
                    .collect();
                models.assert(Bool::and(&block).not());
                continue;
            }
            SatResult::Unsat => {}
        }
        // Start from the core, then drop every literal that is not needed.
        let core = check.get_unsat_core();
        let mut kept: Vec<(usize, bool)> = cube
            .iter()
            .copied()
            .filter(|&l| core.contains(&indicator(l)))
            .collect();
        // Try to drop negative literals first: positive ones read better.
        kept.sort_by_key(|&(i, v)| (v, std::cmp::Reverse(i)));
        let mut i = 0;
        while i < kept.len() {
            let trial: Vec<(usize, bool)> = kept
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, l)| *l)
                .collect();
            if !set_timeout(&check, deadline) {
                out.timed_out = true;
                return out;
            }
            let assumptions: Vec<Bool> = trial.iter().copied().map(indicator).collect();
            out.solver_calls += 1;
            match check.check_assumptions(&assumptions) {
                SatResult::Unsat => {
                    // The new core may drop more than the one literal.
                    let core = check.get_unsat_core();
                    kept = trial
                        .into_iter()
                        .filter(|&l| core.contains(&indicator(l)))
                        .collect();
                }
                SatResult::Sat => i += 1,
                SatResult::Unknown => {
                    out.timed_out = true;
                    return out;
                }
            }
        }
        kept.sort();
        let block: Vec<Bool> = kept
            .iter()
            .map(|&(i, v)| {
                if v {
                    z_atoms[i].clone()
                } else {
                    z_atoms[i].not()
                }
            })
            .collect();
        models.assert(Bool::and(&block).not());
        out.cubes.push(
            kept.into_iter()
                .map(|(i, v)| (atoms[i].clone(), v))
                .collect(),
        );
    }
}

/// Unprintable atoms beyond which `∀u. F` is not built (it has `2^u` copies of F).
const MAX_PROJECTED: usize = 6;

/// `∀u. f` with the atoms `u` read as propositions; `false` (nothing for phase 1)
/// when they are too many.
fn for_all(f: &Form, u: &[Form]) -> Form {
    if u.len() > MAX_PROJECTED {
        return Form::False;
    }
    u.iter().fold(f.clone(), |g, atom| {
        Form::and([assign(&g, atom, true), assign(&g, atom, false)])
    })
}

/// `f` with `atom` replaced by `value`.
fn assign(f: &Form, atom: &Form, value: bool) -> Form {
    match f {
        _ if f == atom => {
            if value {
                Form::True
            } else {
                Form::False
            }
        }
        Form::Not(g) => assign(g, atom, value).not(),
        Form::And(fs) => Form::and(fs.iter().map(|g| assign(g, atom, value))),
        Form::Or(fs) => Form::or(fs.iter().map(|g| assign(g, atom, value))),
        Form::Iff(a, b) => Form::iff(assign(a, atom, value), assign(b, atom, value)),
        leaf => leaf.clone(),
    }
}
