//! `ic-synth`: SMT-based synthesis of independence constraints (ICs) between the
//! atomic blocks of a `.ic` program, and of their write sets (CDPOR paper, Sec. 3.2
//! and 4; docs/ics-format.md).
//!
//! For every unordered pair of blocks `(a, b)`, self-pairs included, the two
//! compositions `a·b` and `b·a` are built by symbolic execution
//! ([`frontend::symbolic`]), the formula "both orders run normally and reach the
//! same state" ([`compose`]) is handed to z3, and AllSAT with generalisation
//! ([`allsat`]) turns it into a disjunction of cubes, each printed as an expression of
//! the language ([`print`]).
//!
//! Soundness: every constraint is a cube that z3 proved to imply the formula under
//! "both blocks are enabled", for all values of the globals, the locals, the params
//! and of every uninterpreted function. The formula says that both orders *run
//! normally* — no failure the interpreter can raise: assertions, division by zero,
//! indices, `head([])`, 64-bit overflow (each arithmetic operation carries its
//! range condition), and neither the rest of an abstracted loop nor a call of a
//! looping or recursive fun, which may not terminate (their `Ok` is unknown, so no
//! constraint covers the states that reach them) — and reach the same state. The
//! paper's integers are unbounded; here they are 64-bit, so some of its constraints
//! gain bounds (Fig. 1's `I(p,r) = {true}` is
//! `{z <= 9223372036854775806 && x <= 9223372036854775805}`: `x` is incremented twice).
//! One assumption remains: the paths analysed exactly (a few thousand instructions
//! at most, inlined calls at most 16 deep) fit within the interpreter's step and
//! depth limits. A pair whose synthesis times out, hits `unknown`, or cannot be
//! analysed gets no constraint. [`validate`] checks constraints against the
//! interpreter.

pub mod allsat;
pub mod cli;
pub mod compose;
pub mod print;
pub mod recheck;
pub mod smt;
pub mod validate;
mod workers;

use frontend::ics::{self, BlockEntry, Ics, PairEntry, ProgramRef, Stats};
use frontend::ir::{BlockId, BlockSets, InstrKind, ProcId, Program};
use frontend::symbolic::Exec;
use std::time::{Duration, Instant};

/// How to synthesise.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time budget of one pair (composition, solving and AllSAT).
    pub timeout: Duration,
    /// Worker threads (pairs are independent); 0 picks the number of cores.
    pub jobs: usize,
    /// No pair starts after it, and none runs past it: the pairs left have no
    /// constraint (`timed_out`), which is sound. `ic-check --timeout` covers synthesis.
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(10),
            jobs: 0,
            deadline: None,
        }
    }
}

/// The synthesised constraints of one pair.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// Its locals are written plainly.
    pub a: BlockId,
    /// Its locals are primed.
    pub b: BlockId,
    pub exact: bool,
    /// A disjunction of constraints (sorted).
    pub constraints: Vec<String>,
    pub reason: Option<String>,
    pub solver_calls: u64,
    pub timed_out: bool,
}

impl PairResult {
    /// A pair with no constraint, and why.
    fn unanalysed(a: BlockId, b: BlockId, reason: String) -> Self {
        PairResult {
            a,
            b,
            exact: false,
            constraints: Vec::new(),
            reason: Some(reason),
            solver_calls: 0,
            timed_out: false,
        }
    }
}

/// Everything `ics.json` holds about a program.
#[derive(Clone, Debug)]
pub struct Synthesis {
    pub sets: Vec<BlockSets>,
    pub pairs: Vec<PairResult>,
    /// Wall-clock time of the pair synthesis.
    pub smt_ms: u64,
}

impl Synthesis {
    pub fn solver_calls(&self) -> u64 {
        self.pairs.iter().map(|p| p.solver_calls).sum()
    }

    pub fn timeouts(&self) -> usize {
        self.pairs.iter().filter(|p| p.timed_out).count()
    }

    /// The result of a pair given in either order (`swapped` when stored as `(b, a)`).
    pub fn pair(&self, a: BlockId, b: BlockId) -> Option<(&PairResult, bool)> {
        self.pairs.iter().find_map(|p| {
            if (p.a, p.b) == (a, b) {
                Some((p, false))
            } else if (p.a, p.b) == (b, a) {
                Some((p, true))
            } else {
                None
            }
        })
    }
}

/// Synthesises the constraints of every pair of blocks and the write sets.
/// `source` is the program's text (for its `param`s to stay free).
pub fn synthesize(program: &Program, source: &str, options: &Options) -> Synthesis {
    let started = Instant::now();
    let n = program.blocks.len() as BlockId;
    let sets = program.sets.clone();
    // Blocks of procs that no run spawns never meet: their pairs are not synthesised
    // (a program of many procs spawns few of them).
    let spawned = spawned_procs(program, &sets);
    let runs = |b: BlockId| spawned[program.blocks[b as usize].proc as usize];
    let pairs: Vec<(BlockId, BlockId)> = (0..n)
        .flat_map(|a| (a..n).map(move |b| (a, b)))
        .filter(|&(a, b)| runs(a) && runs(b))
        .collect();
    let pairs = crate::workers::each(program, source, &pairs, options.jobs, |exec, &(a, b)| {
        let budget = match options.deadline {
            Some(end) => options
                .timeout
                .min(end.saturating_duration_since(Instant::now())),
            None => options.timeout,
        };
        if budget.is_zero() {
            PairResult {
                timed_out: true,
                ..PairResult::unanalysed(a, b, "not analysed: the time given ran out".to_string())
            }
        } else {
            synthesize_pair(exec, a, b, budget)
        }
    })
    .into_iter()
    .flatten()
    .collect();
    Synthesis {
        sets,
        pairs,
        smt_ms: started.elapsed().as_millis() as u64,
    }
}

/// For each proc: whether some run spawns it, from `init` through the spawns of the
/// blocks of spawned procs.
fn spawned_procs(program: &Program, sets: &[BlockSets]) -> Vec<bool> {
    let mut spawned = vec![false; program.procs.len()];
    let mut work: Vec<ProcId> = program
        .init
        .instrs
        .iter()
        .filter_map(|i| match i.kind {
            InstrKind::Spawn(p, _) => Some(p),
            _ => None,
        })
        .collect();
    while let Some(p) = work.pop() {
        if std::mem::replace(&mut spawned[p as usize], true) {
            continue;
        }
        for (b, block) in program.blocks.iter().enumerate() {
            if block.proc == p {
                work.extend(sets[b].spawns.iter().copied());
            }
        }
    }
    spawned
}

/// The formula of the pair `(a, b)` as synthesis hands it to AllSAT (and
/// [`recheck`] re-proves constraints against): loops are unrolled a little for
/// precision, and abstracted at once when that makes the formula too big.
pub fn pair_formula(
    exec: &Exec<'_>,
    a: BlockId,
    b: BlockId,
) -> Result<compose::Problem, frontend::symbolic::Abort> {
    let mut last_error = frontend::symbolic::Abort::TooManyPaths;
    let mut unroll = frontend::symbolic::UNROLL;
    let mut problem = None;
    for limits in [compose::UNROLLED, compose::LAST] {
        exec.set_unroll(unroll);
        match compose::pair_problem(exec, a, b, limits) {
            Ok(p) => {
                problem = Some(p);
                break;
            }
            Err(e) => last_error = e,
        }
        if exec.saw_loop() {
            unroll = 0;
        }
    }
    exec.set_unroll(frontend::symbolic::UNROLL);
    problem.ok_or(last_error)
}

/// Synthesises the constraints of one pair.
pub fn synthesize_pair(exec: &Exec<'_>, a: BlockId, b: BlockId, timeout: Duration) -> PairResult {
    let program = exec.program;
    let started = Instant::now();
    let deadline = started + timeout;
    let failed = |reason: String| PairResult::unanalysed(a, b, reason);
    let debug = std::env::var_os("IC_SYNTH_DEBUG").is_some();
    let problem = match pair_formula(exec, a, b) {
        Ok(p) => p,
        Err(e) => return failed(format!("not analysed: {e}")),
    };
    if debug {
        let mut atoms = Vec::new();
        problem.f.atoms(&mut atoms);
        let disjuncts = match &problem.f {
            frontend::symbolic::Form::Or(v) => v.len(),
            _ => 1,
        };
        eprintln!(
            "pair ({}, {}): {} disjuncts, {} atoms, size {}, built in {} ms",
            program.blocks[a as usize].name,
            program.blocks[b as usize].name,
            disjuncts,
            atoms.len(),
            problem.size(),
            started.elapsed().as_millis()
        );
    }
    let printer = print::Printer {
        program,
        blocks: [a, b],
    };
    // A fresh z3 context per pair: results do not depend on which thread ran what.
    let result = z3::with_z3_config(&z3::Config::new(), || {
        let mut smt = smt::Smt::new(program);
        allsat::allsat(
            &mut smt,
            &printer,
            &problem.background,
            &problem.f,
            deadline,
        )
    });
    if debug {
        eprintln!(
            "pair ({}, {}): {} solver calls, done in {} ms",
            program.blocks[a as usize].name,
            program.blocks[b as usize].name,
            result.solver_calls,
            started.elapsed().as_millis()
        );
    }
    if result.timed_out {
        return PairResult {
            solver_calls: result.solver_calls,
            timed_out: true,
            ..failed(format!(
                "timeout or unknown after {} ms: no constraint",
                timeout.as_millis()
            ))
        };
    }
    // Drop cubes that contain another (they add nothing to the disjunction).
    let mut cubes = result.cubes.clone();
    cubes.sort_by_key(|c| c.len());
    let mut kept: Vec<Vec<print::Lit>> = Vec::new();
    for c in cubes {
        if !kept.iter().any(|k| k.iter().all(|l| c.contains(l))) {
            kept.push(c);
        }
    }
    let mut constraints = Vec::new();
    let mut unprintable = false;
    for c in &kept {
        match printer.cube(c) {
            Some(text) if ics::Constraint::parse(program, a, b, &text).is_ok() => {
                constraints.push(text)
            }
            _ => unprintable = true,
        }
    }
    constraints.sort();
    constraints.dedup();
    let exact = problem.exact && result.complete && !unprintable;
    let mut why = Vec::new();
    if !problem.abstractions.is_empty() {
        why.push(format!("abstracted: {}", problem.abstractions.join(", ")));
    }
    if !result.complete {
        why.push("some commuting states have no constraint the language can say".to_string());
    }
    if unprintable {
        why.push("a constraint could not be printed".to_string());
    }
    PairResult {
        a,
        b,
        exact,
        constraints,
        reason: (!exact).then(|| why.join("; ")).filter(|s| !s.is_empty()),
        solver_calls: result.solver_calls,
        timed_out: false,
    }
}

/// Synthesises the constraints of `program` and resolves them for the explorer: what
/// `ic-check` does for cdpor without `--ics`.
pub fn resolved(
    program: &Program,
    source: &str,
    file: &str,
) -> Result<ics::ResolvedIcs, ics::IcsError> {
    let synthesis = synthesize(program, source, &Options::default());
    to_ics(program, source, file, &synthesis).resolve(program)
}

/// The `ics.json` document.
pub fn to_ics(program: &Program, source: &str, file: &str, s: &Synthesis) -> Ics {
    let blocks = program
        .blocks
        .iter()
        .zip(&s.sets)
        .map(|(b, sets)| BlockEntry {
            id: b.name.clone(),
            proc: program.procs[b.proc as usize].name.clone(),
            reads: ics::global_names(program, &sets.reads),
            writes: ics::global_names(program, &sets.writes),
            may_write: ics::global_names(program, &sets.may_write),
        })
        .collect();
    let name = |b: BlockId| program.blocks[b as usize].name.clone();
    let pairs = s
        .pairs
        .iter()
        .map(|p| PairEntry {
            a: name(p.a),
            b: name(p.b),
            exact: p.exact,
            constraints: p.constraints.clone(),
            reason: p.reason.clone(),
        })
        .collect();
    Ics {
        format: ics::FORMAT.to_string(),
        program: ProgramRef {
            sha256: ics::sha256_hex(source.as_bytes()),
            file: file.to_string(),
        },
        blocks,
        pairs,
        stats: Stats {
            pairs: s.pairs.len(),
            smt_ms: s.smt_ms,
            solver_calls: s.solver_calls(),
            timeouts: s.timeouts(),
        },
    }
}

/// A human table: one line per pair, then the write sets.
pub fn text_table(program: &Program, s: &Synthesis) -> String {
    let name = |b: BlockId| program.blocks[b as usize].name.clone();
    let mut rows: Vec<[String; 3]> = vec![[
        "pair".to_string(),
        "exact".to_string(),
        "constraints".to_string(),
    ]];
    for p in &s.pairs {
        let cs = if p.constraints.is_empty() {
            "(dependent)".to_string()
        } else {
            format!("{{{}}}", p.constraints.join(", "))
        };
        rows.push([
            format!("({}, {})", name(p.a), name(p.b)),
            if p.exact { "yes" } else { "no" }.to_string(),
            cs,
        ]);
    }
    let w0 = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r[1].chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for r in &rows {
        out.push_str(&format!("{:<w0$}  {:<w1$}  {}\n", r[0], r[1], r[2]));
    }
    out.push('\n');
    out.push_str("block  W(b)\n");
    for (b, sets) in program.blocks.iter().zip(&s.sets) {
        out.push_str(&format!(
            "{}  {{{}}}\n",
            b.name,
            ics::global_names(program, &sets.may_write).join(", ")
        ));
    }
    out.push_str(&format!(
        "\n{} pairs, {} solver calls, {} ms\n",
        s.pairs.len(),
        s.solver_calls(),
        s.smt_ms
    ));
    out
}

/// Whether two constraints of the pair `(a, b)` (as in `ics.json`) are equivalent
/// for every state: how tests compare with constraints written by hand, whatever
/// their normal form.
pub fn constraints_equivalent(
    program: &Program,
    source: &str,
    a: BlockId,
    b: BlockId,
    x: &str,
    y: &str,
) -> Result<bool, String> {
    use frontend::symbolic::Form;
    let exec = Exec::new(program, Some(source));
    let pa = program.blocks[a as usize].proc;
    let pb = program.blocks[b as usize].proc;
    let st = exec.initial_state(&[(0, pa), (1, pb)]);
    let mut frame = st.locals[0].clone();
    frame.extend(st.locals[1].iter().cloned());
    let formula = |text: &str| -> Result<Form, String> {
        let c = ics::Constraint::parse(program, a, b, text)?;
        let cases = exec
            .eval_expr(&c.expr, &st.globals, &frame)
            .map_err(|e| e.to_string())?;
        Ok(Form::or(cases.into_iter().map(|(mut conds, v)| {
            conds.push(v.bool().clone());
            Form::and(conds)
        })))
    };
    let (fx, fy) = (formula(x)?, formula(y)?);
    Ok(z3::with_z3_config(&z3::Config::new(), || {
        let mut smt = smt::Smt::new(program);
        let (zx, zy) = (smt.form(&fx), smt.form(&fy));
        let s = z3::Solver::new();
        s.set_params(&allsat::params());
        s.assert(zx.xor(&zy));
        s.check() == z3::SatResult::Unsat
    }))
}
