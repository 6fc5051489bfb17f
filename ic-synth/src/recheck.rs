//! Re-proving an `ics.json` against its program: what `ic-check --ics FILE` does
//! before it trusts a file (docs/ics-format.md, "Re-proving").
//!
//! Synthesis searches for constraints (AllSAT: many solver calls per pair); checking
//! one is a single validity query. For a constraint `C` of the pair `(a, b)` it asks
//! z3 whether `B ∧ C ∧ ¬F` is satisfiable, with `F` the pair's formula "both orders run
//! normally and reach the same state" and `B` "both blocks are enabled" — the very
//! formula synthesis proved its cubes against ([`crate::pair_formula`]), so a file
//! `ic-synth` wrote always passes. `unsat` proves `C`; a model is a state where `C`
//! holds and the blocks do not commute, shown with its values (and, when the state
//! is concrete enough, what the interpreter sees go wrong in it); `unknown` is
//! refused with z3's reason. A pair marked `exact` also claims that its constraints
//! are necessary: `B ∧ F ∧ ¬C_1 ∧ … ∧ ¬C_n` must be unsat too (one more query), and
//! its formula must use no abstraction. As synthesis means it, necessity leaves out
//! the states where evaluating a constraint fails: a cube is proved over unbounded
//! integers, and its printed form may overflow where the blocks do not (the
//! validator leaves boundary values out of its exactness samples for that reason). Every `may_write` must contain the `W(b)` the
//! program's analysis computes (no solver needed).
//!
//! The file is checked for the program as loaded: its `param`s, which stay free
//! variables in the formula as in synthesis, are fixed to their values (`-D`
//! included), which is what the constraints' `param` names were resolved to.

use crate::allsat::new_solver;
use crate::smt::Smt;
use crate::validate::concrete_problem;
use frontend::ics::{self, Constraint, Ics, PairEntry};
use frontend::ir::{BlockId, GlobalId, GlobalKind, Program};
use frontend::memory::{Memory, UndoLog};
use frontend::symbolic::{var_of, Exec, Form, IAtom, Lin, MapBase, Node, State, Val, Var, Visit};
use frontend::value::{Ty, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int};
use z3::{Model, SatResult, Solver};

/// How to re-prove.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time budget of one query; running out is a refusal.
    pub timeout: Duration,
    /// Worker threads (pairs are independent); 0 picks the number of cores.
    pub jobs: usize,
    /// Instructions one block may run when a counterexample is replayed concretely.
    pub max_steps: u64,
    /// No pair starts after it and no query runs past it: the re-proof then stops
    /// with [`Unproved::OutOfTime`] (the file is not trusted). `ic-check --timeout`
    /// covers the re-proof.
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(10),
            jobs: 0,
            max_steps: 100_000,
            deadline: None,
        }
    }
}

/// What a successful re-check did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rechecked {
    /// Pairs with something to prove (a constraint, or `exact`).
    pub pairs: usize,
    /// Constraints proved.
    pub constraints: usize,
    /// Pairs whose exactness was proved.
    pub exact: usize,
    /// Solver queries made.
    pub queries: u64,
    /// Wall time, milliseconds.
    pub ms: u64,
}

/// Why a file is refused: what claim (`subject`) failed, why, and a state that
/// shows it when the solver gave one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The pair's first block (`a` in the file), or the block whose `may_write` is wrong.
    pub a: String,
    /// The pair's second block (`b`); empty for a `may_write` refusal.
    pub b: String,
    /// The constraint not proved; `None` for a claim of the pair as a whole.
    pub constraint: Option<String>,
    pub problem: String,
    /// The globals and both processes' live locals, as `x = 1, a = [0, 2]; p: v = 1; q: v' = 2`.
    pub state: Option<String>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.constraint, self.b.is_empty()) {
            (Some(c), _) => write!(
                f,
                "constraint `{c}` of the pair (a: `{}`, b: `{}`) is not proved: {}",
                self.a, self.b, self.problem
            )?,
            (None, false) => write!(
                f,
                "the pair (a: `{}`, b: `{}`) {}",
                self.a, self.b, self.problem
            )?,
            (None, true) => write!(f, "block `{}`: {}", self.a, self.problem)?,
        }
        if let Some(state) = &self.state {
            write!(f, "\n  state: {state}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}

/// Why a file is not re-proved: a claim is refused, or the time given ran out first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unproved {
    Refused(Refusal),
    /// The deadline passed before every pair was checked (none was refused).
    OutOfTime {
        /// Pairs whose claims were proved in time.
        proved: usize,
        /// Pairs with something to prove.
        pairs: usize,
    },
}

impl Unproved {
    /// The refusal, when a claim was refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Unproved::Refused(r) => Some(r),
            Unproved::OutOfTime { .. } => None,
        }
    }
}

impl fmt::Display for Unproved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unproved::Refused(r) => r.fmt(f),
            Unproved::OutOfTime { proved, pairs } => write!(
                f,
                "the re-proof of the constraints did not finish in the time given \
                 ({proved} of {pairs} pairs proved)"
            ),
        }
    }
}

impl std::error::Error for Unproved {}

impl From<Refusal> for Unproved {
    fn from(r: Refusal) -> Self {
        Unproved::Refused(r)
    }
}

/// How one pair's check ended short of success.
enum PairFail {
    Refused(Refusal),
    OutOfTime,
}

impl From<Refusal> for PairFail {
    fn from(r: Refusal) -> Self {
        PairFail::Refused(r)
    }
}

/// Re-proves every claim of `ics` (made for `source`, see [`Ics::matches_source`])
/// against `program`; the first refused claim, in file order, is the error, and
/// when none is refused but the deadline passed before all were proved, that is.
pub fn recheck(
    program: &Program,
    source: &str,
    ics: &Ics,
    options: &Options,
) -> Result<Rechecked, Unproved> {
    let started = Instant::now();
    check_may_write(program, ics)?;
    let work: Vec<&PairEntry> = ics
        .pairs
        .iter()
        .filter(|p| p.exact || !p.constraints.is_empty())
        .collect();
    let results = crate::workers::each(program, source, &work, options.jobs, |exec, pair| {
        if options.deadline.is_some_and(|end| Instant::now() >= end) {
            return Err(PairFail::OutOfTime);
        }
        recheck_pair(exec, pair, options)
    });
    let mut out = Rechecked {
        pairs: work.len(),
        ..Rechecked::default()
    };
    let mut proved = 0;
    for (r, pair) in results.into_iter().zip(&work) {
        let r = r.unwrap_or_else(|| {
            Err(PairFail::Refused(Refusal {
                a: pair.a.clone(),
                b: pair.b.clone(),
                constraint: None,
                problem: "was not re-proved (a worker stopped)".to_string(),
                state: None,
            }))
        });
        match r {
            Ok(done) => {
                proved += 1;
                out.constraints += done.constraints;
                out.exact += usize::from(done.exact);
                out.queries += done.queries;
            }
            Err(PairFail::Refused(refusal)) => return Err(Unproved::Refused(refusal)),
            Err(PairFail::OutOfTime) => {}
        }
    }
    if proved < work.len() {
        return Err(Unproved::OutOfTime {
            proved,
            pairs: work.len(),
        });
    }
    out.ms = started.elapsed().as_millis() as u64;
    Ok(out)
}

/// Every block's `may_write` holds the `W(b)` computed from the program: a smaller
/// set would let cdpor skip constraint checks it needs.
fn check_may_write(program: &Program, ics: &Ics) -> Result<(), Refusal> {
    let sets = &program.sets;
    for entry in &ics.blocks {
        let Some(id) = program.block_by_name(&entry.id) else {
            continue; // `resolve` refuses it
        };
        let listed: BTreeSet<&str> = entry.may_write.iter().map(String::as_str).collect();
        let missing: Vec<String> = ics::global_names(program, &sets[id as usize].may_write)
            .into_iter()
            .filter(|g| !listed.contains(g.as_str()))
            .map(|g| format!("`{g}`"))
            .collect();
        if !missing.is_empty() {
            return Err(Refusal {
                a: entry.id.clone(),
                b: String::new(),
                constraint: None,
                problem: format!(
                    "`may_write` lacks {}, which the block or what may run after it writes",
                    missing.join(", ")
                ),
                state: None,
            });
        }
    }
    Ok(())
}

#[derive(Clone, Debug, Default)]
struct PairDone {
    constraints: usize,
    exact: bool,
    queries: u64,
}

fn recheck_pair(
    exec: &Exec<'_>,
    pair: &PairEntry,
    options: &Options,
) -> Result<PairDone, PairFail> {
    let program = exec.program;
    let refuse = |constraint: Option<&String>, problem: String, state: Option<String>| Refusal {
        a: pair.a.clone(),
        b: pair.b.clone(),
        constraint: constraint.cloned(),
        problem,
        state,
    };
    let block = |name: &str| {
        program
            .block_by_name(name)
            .ok_or_else(|| refuse(None, format!("names an unknown block `{name}`"), None))
    };
    let (a, b) = (block(&pair.a)?, block(&pair.b)?);
    let mut problem = crate::pair_formula(exec, a, b).map_err(|e| {
        let what = match pair.constraints.first() {
            Some(c) => format!("has the constraint `{c}`"),
            None => "is marked exact".to_string(),
        };
        refuse(
            None,
            format!("{what}, but its blocks cannot be analysed ({e}): ic-synth gives such a pair no constraint"),
            None,
        )
    })?;
    if pair.exact && !problem.exact {
        return Err(PairFail::Refused(refuse(
            None,
            format!(
                "is marked exact, but its formula abstracts ({}): its constraints cannot be shown necessary",
                problem.abstractions.join(", ")
            ),
            None,
        )));
    }
    // The params take the values the program was loaded with.
    for (i, p) in program.params.iter().enumerate() {
        let lin = Lin::var(Var::Param(i as u32))
            .add_const(-i128::from(p.value))
            .map_err(|_| refuse(None, "a param is out of range".to_string(), None))?;
        problem.background.push(Form::eq(lin));
    }
    let pa = program.blocks[a as usize].proc;
    let pb = program.blocks[b as usize].proc;
    let s0 = exec.initial_state(&[(0, pa), (1, pb)]);
    let mut constraints = Vec::new();
    for text in &pair.constraints {
        let c = Constraint::parse(program, a, b, text).map_err(|e| refuse(Some(text), e, None))?;
        let f = constraint_formula(exec, &s0, &c, a)
            .map_err(|e| refuse(Some(text), format!("it cannot be encoded ({e})"), None))?;
        constraints.push((text, f.holds, f.fails));
    }
    let mut keys = MapKeys::default();
    keys.collect(&problem.f);
    problem.background.iter().for_each(|g| keys.collect(g));
    constraints.iter().for_each(|(_, f, _)| keys.collect(f));
    let abstracted = if problem.abstractions.is_empty() {
        String::new()
    } else {
        format!(
            " (with {} abstracted, as in synthesis)",
            problem.abstractions.join(", ")
        )
    };
    // Building the formula may take a while: the deadline may have passed since.
    if options.deadline.is_some_and(|end| Instant::now() >= end) {
        return Err(PairFail::OutOfTime);
    }
    let timeout = options.timeout;
    let unknown = |solver: &Solver| match solver.get_reason_unknown() {
        Some(r) if r.contains("timeout") || r.contains("canceled") => {
            format!(
                "z3 ran out of the {} ms a query may take ({r})",
                timeout.as_millis()
            )
        }
        Some(r) => format!("z3 answered unknown ({r})"),
        None => "z3 answered unknown".to_string(),
    };
    // A fresh z3 context per pair, as in synthesis: what a refusal shows does not
    // depend on which thread checked which pairs before.
    z3::with_z3_config(&z3::Config::new(), || {
        let mut smt = Smt::new(program);
        let z_bg: Vec<Bool> = problem.background.iter().map(|g| smt.form(g)).collect();
        let z_f = smt.form(&problem.f);
        let z_cs: Vec<Bool> = constraints.iter().map(|(_, f, _)| smt.form(f)).collect();
        let z_fails: Vec<Bool> = constraints.iter().map(|(_, _, f)| smt.form(f)).collect();
        let small = small_values(&mut smt, &problem, constraints.iter().map(|(_, f, _)| f));
        let mut done = PairDone::default();
        let show = |smt: &mut Smt<'_>, model: &Model| {
            model_state(program, smt, model, [a, b], &s0, &keys, options.max_steps)
        };
        // Sufficiency: B ∧ C ∧ ¬F unsat, one query per constraint.
        let solver = new_solver();
        z_bg.iter().for_each(|g| solver.assert(g));
        solver.assert(z_f.not());
        for ((text, _, _), z_c) in constraints.iter().zip(&z_cs) {
            let Some(cut) = limit(&solver, options) else {
                return Err(PairFail::OutOfTime);
            };
            done.queries += 1;
            solver.push();
            solver.assert(z_c);
            let answer = solver.check();
            match answer {
                SatResult::Unsat => done.constraints += 1,
                SatResult::Sat => {
                    let model = readable_model(&solver, &small);
                    let (state, concrete) = match model {
                        Some(m) => show(&mut smt, &m),
                        None => (None, None),
                    };
                    let why = concrete.unwrap_or_else(|| {
                        format!(
                            "the two orders do not both run normally to the same state{abstracted}"
                        )
                    });
                    return Err(PairFail::Refused(refuse(
                        Some(text),
                        format!("in this state it holds and both blocks are enabled, but {why}"),
                        state,
                    )));
                }
                SatResult::Unknown if out_of_time(&solver, cut, options) => {
                    return Err(PairFail::OutOfTime)
                }
                SatResult::Unknown => {
                    return Err(PairFail::Refused(refuse(
                        Some(text),
                        unknown(&solver),
                        None,
                    )))
                }
            }
            solver.pop(1);
        }
        // Necessity, for a pair marked exact: B ∧ F ∧ ¬C_1 ∧ … ∧ ¬C_n unsat.
        if pair.exact {
            let solver = new_solver();
            z_bg.iter().for_each(|g| solver.assert(g));
            solver.assert(&z_f);
            // A constraint whose evaluation fails there (an overflow the printed form
            // has and the solver's unbounded cube had not) does not count against it.
            for (c, fails) in z_cs.iter().zip(&z_fails) {
                solver.assert(Bool::or(&[c.clone(), fails.clone()]).not());
            }
            let Some(cut) = limit(&solver, options) else {
                return Err(PairFail::OutOfTime);
            };
            done.queries += 1;
            match solver.check() {
                SatResult::Unsat => done.exact = true,
                SatResult::Sat => {
                    let state = readable_model(&solver, &small).and_then(|m| show(&mut smt, &m).0);
                    return Err(PairFail::Refused(refuse(
                        None,
                        "is marked exact, but in this state both blocks are enabled, no constraint \
                         holds, and both orders run normally to the same state"
                            .to_string(),
                        state,
                    )));
                }
                SatResult::Unknown if out_of_time(&solver, cut, options) => {
                    return Err(PairFail::OutOfTime)
                }
                SatResult::Unknown => {
                    return Err(PairFail::Refused(refuse(
                        None,
                        format!("is marked exact, which is not proved: {}", unknown(&solver)),
                        None,
                    )))
                }
            }
        }
        Ok(done)
    })
}

/// At most `options.timeout` for each query of `solver`, and not past the deadline
/// (at least a millisecond: z3 reads 0 as "no limit"). `None` when the deadline has
/// passed; else whether the deadline is what cuts the time short.
fn limit(solver: &Solver, options: &Options) -> Option<bool> {
    let (budget, cut) = match options.deadline {
        Some(end) => {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            (options.timeout.min(left), left < options.timeout)
        }
        None => (options.timeout, false),
    };
    let mut p = crate::allsat::params();
    p.set_u32(
        "timeout",
        budget.as_millis().clamp(1, u128::from(u32::MAX)) as u32,
    );
    solver.set_params(&p);
    Some(cut)
}

/// Whether an `unknown` from `solver`, whose time was `cut` short by the deadline,
/// means that the time given ran out (rather than a claim z3 cannot decide).
fn out_of_time(solver: &Solver, cut: bool, options: &Options) -> bool {
    let passed = options.deadline.is_some_and(|end| Instant::now() >= end);
    let timed_out = solver
        .get_reason_unknown()
        .is_some_and(|r| r.contains("timeout") || r.contains("canceled"));
    cut && (passed || timed_out)
}

/// Bounds within which a counterexample reads better: every integer variable of the
/// formulas between -10 and 10, else between -100 and 100.
fn small_values<'f>(
    smt: &mut Smt<'_>,
    problem: &crate::compose::Problem,
    constraints: impl Iterator<Item = &'f Form>,
) -> Vec<Vec<Bool>> {
    let mut vars: Vec<IAtom> = Vec::new();
    let mut visit = |n: Node<'_>| {
        if let Node::Int(a @ IAtom::Var(_)) = n {
            if !vars.contains(a) {
                vars.push(a.clone());
            }
        }
    };
    problem.f.visit(&mut visit);
    problem.background.iter().for_each(|g| g.visit(&mut visit));
    constraints.for_each(|c| c.visit(&mut visit));
    let zs: Vec<Int> = vars.into_iter().map(|v| smt.lin(&Lin::atom(v))).collect();
    [10, 100]
        .into_iter()
        .map(|bound| {
            zs.iter()
                .flat_map(|z| [z.le(Int::from_i64(bound)), z.ge(Int::from_i64(-bound))])
                .collect()
        })
        .collect()
}

/// The model of a satisfiable `solver`, with small values when it has such a one
/// (a query or two more, on a refusal only).
fn readable_model(solver: &Solver, small: &[Vec<Bool>]) -> Option<Model> {
    let any = solver.get_model();
    for bounds in small.iter().filter(|b| !b.is_empty()) {
        solver.push();
        bounds.iter().for_each(|b| solver.assert(b));
        let better = (solver.check() == SatResult::Sat)
            .then(|| solver.get_model())
            .flatten();
        solver.pop(1);
        if better.is_some() {
            return better;
        }
    }
    any
}

/// A constraint over the state before both blocks, as formulas: where it evaluates
/// without failing and is true, and where its evaluation fails (an overflow, an index
/// out of range). The params it names stay symbolic, as in the pair's formula (a
/// product `K * f` is then the same term in both).
struct ConstraintForm {
    holds: Form,
    fails: Form,
}

fn constraint_formula(
    exec: &Exec<'_>,
    s0: &State,
    c: &Constraint,
    a: BlockId,
) -> Result<ConstraintForm, String> {
    let mut frame = s0.locals[0].clone();
    frame.extend(s0.locals[1].iter().cloned());
    let params = c.param_spans(exec.program, a);
    let cases = exec
        .eval_expr_with_params(&c.expr, &s0.globals, &frame, &params)
        .map_err(|e| e.to_string())?;
    let evaluates = Form::or(
        cases
            .iter()
            .map(|(conds, _)| Form::and(conds.iter().cloned())),
    );
    Ok(ConstraintForm {
        holds: Form::or(cases.into_iter().map(|(mut conds, v)| {
            conds.push(v.bool().clone());
            Form::and(conds)
        })),
        fails: evaluates.not(),
    })
}

/// The keys of each map global the formulas read in the initial state: the keys a
/// counterexample's maps are shown (and rebuilt) with.
#[derive(Default)]
struct MapKeys(BTreeMap<GlobalId, Vec<Lin>>);

impl MapKeys {
    fn add(&mut self, g: GlobalId, k: &Lin) {
        let keys = self.0.entry(g).or_default();
        if !keys.contains(k) {
            keys.push(k.clone());
        }
    }

    fn collect(&mut self, f: &Form) {
        match f {
            Form::MapHas(m, k) => {
                if let MapBase::Init(g) = **m {
                    self.add(g, k);
                }
            }
            Form::Not(x) => self.collect(x),
            Form::And(xs) | Form::Or(xs) => xs.iter().for_each(|x| self.collect(x)),
            Form::Iff(x, y) => {
                self.collect(x);
                self.collect(y);
            }
            _ => {}
        }
        let mut found = Vec::new();
        f.visit(&mut |n| {
            if let Node::Int(IAtom::MapGet(m, k)) = n {
                if let MapBase::Init(g) = **m {
                    found.push((g, k.clone()));
                }
            }
        });
        for (g, k) in found {
            self.add(g, &k);
        }
    }
}

/// Elements of an array a refusal shows at most.
const SHOWN_ELEMENTS: usize = 32;

/// The state of a model: its text, and what the interpreter finds wrong in it when
/// every value in it is concrete (no list, which the solver sees as uninterpreted).
fn model_state(
    program: &Program,
    smt: &mut Smt<'_>,
    model: &Model,
    blocks: [BlockId; 2],
    s0: &State,
    keys: &MapKeys,
    max_steps: u64,
) -> (Option<String>, Option<String>) {
    let int = |smt: &mut Smt<'_>, l: &Lin| -> Option<i64> {
        let z: Int = smt.lin(l);
        model.eval(&z, true)?.as_i64()
    };
    let value = |smt: &mut Smt<'_>, v: &Val| -> Option<Value> {
        match v {
            Val::Int(l) => int(smt, l).map(Value::Int),
            Val::Bool(f) => {
                let z = smt.form(f);
                model.eval(&z, true)?.as_bool().map(Value::Bool)
            }
            _ => None,
        }
    };
    let show = |v: &Option<Value>| v.as_ref().map_or("?".to_string(), |v| v.to_string());
    let mut concrete = true;
    let mut mem = Memory::initial(program);
    let mut undo = UndoLog::default();
    let mut parts = Vec::new();
    for (g, global) in program.globals.iter().enumerate() {
        let g = g as GlobalId;
        let text = match global.kind {
            GlobalKind::Scalar(Ty::List) => {
                concrete = false;
                "(a list: lists are uninterpreted in the proof)".to_string()
            }
            GlobalKind::Scalar(ty) => {
                let v = value(smt, &var_of(ty, Var::Global(g)));
                match &v {
                    Some(x) => mem.set_scalar(g, x.clone(), &mut undo),
                    None => concrete = false,
                }
                show(&v)
            }
            GlobalKind::Array { elem, len } => {
                let arr = smt.arr(&frontend::symbolic::ArrVal {
                    base: frontend::symbolic::ArrBase::Init(g),
                    log: Vec::new(),
                });
                let mut items = Vec::new();
                // A long array is shown (and rebuilt) in part only.
                let shown = len.min(SHOWN_ELEMENTS);
                if shown < len {
                    concrete = false;
                }
                for i in 0..shown {
                    let x = arr.select(&Int::from_i64(i as i64));
                    let v = match elem {
                        Ty::Int => model
                            .eval(&x, true)
                            .and_then(|x| x.as_int())
                            .and_then(|x| x.as_i64())
                            .map(Value::Int),
                        Ty::Bool => model
                            .eval(&x, true)
                            .and_then(|x| x.as_bool())
                            .and_then(|x| x.as_bool())
                            .map(Value::Bool),
                        Ty::List => None,
                    };
                    match &v {
                        Some(x) => mem.set_element(g, i, x.clone(), &mut undo),
                        None => concrete = false,
                    }
                    items.push(show(&v));
                }
                if shown < len {
                    items.push(format!("… ({len} elements)"));
                }
                format!("[{}]", items.join(", "))
            }
            GlobalKind::Map => {
                let (vals, has) = smt.map(&frontend::symbolic::MapVal {
                    base: MapBase::Init(g),
                    log: Vec::new(),
                });
                let mut entries = BTreeMap::new();
                for k in keys.0.get(&g).into_iter().flatten() {
                    let Some(k) = int(smt, k) else {
                        concrete = false;
                        continue;
                    };
                    let key = Int::from_i64(k);
                    let present = model
                        .eval(&has.select(&key), true)
                        .and_then(|x| x.as_bool())
                        .and_then(|x| x.as_bool());
                    let v = model
                        .eval(&vals.select(&key), true)
                        .and_then(|x| x.as_int())
                        .and_then(|x| x.as_i64());
                    match (present, v) {
                        (Some(true), Some(v)) => {
                            entries.insert(k, v);
                        }
                        (Some(false), _) => {}
                        _ => concrete = false,
                    }
                }
                for (&k, &v) in &entries {
                    mem.set_map(g, k, v, &mut undo);
                }
                let items: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                format!("{{{}}}", items.join(", "))
            }
        };
        parts.push(format!("{} = {text}", global.name));
    }
    let mut text = parts.join(", ");
    let sep = |text: &String| if text.is_empty() { "" } else { "; " };
    let mut locals: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
    for slot in 0..2 {
        let block = &program.blocks[blocks[slot] as usize];
        let code = &program.procs[block.proc as usize].code;
        let mut shown = Vec::new();
        for (l, local) in code.locals.iter().enumerate() {
            let live = block.live.contains(&(l as u32));
            let v = value(smt, &s0.locals[slot][l]);
            if live {
                if v.is_none() {
                    concrete = false;
                }
                let name = format!("{}{}", local.name, if slot == 1 { "'" } else { "" });
                shown.push(match (&v, local.ty) {
                    (None, Ty::List) => format!("{name} = (a list)"),
                    _ => format!("{name} = {}", show(&v)),
                });
            }
            // A dead local is written before it is read: any value will do.
            locals[slot].push(v.unwrap_or_else(|| Value::zero(local.ty)));
        }
        if !shown.is_empty() {
            text = format!("{text}{}{}: {}", sep(&text), block.name, shown.join(", "));
        }
    }
    let problem = if concrete {
        concrete_problem(program, blocks, &mem, &locals, max_steps)
    } else {
        None
    };
    (Some(text), problem)
}
