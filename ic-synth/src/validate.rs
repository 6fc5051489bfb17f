//! The constraint validator: checks synthesised independence constraints against the
//! concrete semantics, independently of the synthesis.
//!
//! A constraint `C` of the pair `(a, b)` promises (CDPOR paper, Sec. 4, Def. 5–7;
//! docs/language.md "What each tool promises"): in every state where `C` holds and both
//! blocks are enabled, `a·b` and `b·a` are both possible, neither fails (assertion,
//! division by zero, index out of range, `head([])`, overflow, non-termination, fun
//! depth, …), and they reach the same state: the same globals, for both processes
//! the same next block and the same values of the locals live there, and the same
//! multiset of spawned processes (procedure and live arguments).
//!
//! [`validate`] runs both orders with the interpreter ([`frontend::interp`]) from many
//! states per pair: random values, the boundary values `0`, `±1`, `i64::MIN`,
//! `i64::MAX`, `MIN + 1`, `MAX - 1`, the constants of the program (and their
//! neighbours), lists and maps of 0 to 3 elements, in one boundary sample of 32 one
//! list (any of the sample's) at the length limit
//! ([`frontend::ir::MAX_LIST_LEN`], past which `++` and `append` fail) or one
//! element short of it, and random values of both
//! processes' locals at the entry of the blocks. Wherever a constraint holds and
//! both blocks are enabled, a difference is a [`Counterexample`]. Sampling is
//! deterministic given [`Options::seed`].
//!
//! Optionally ([`Options::check_exact`]) it also checks the other half of `exact`:
//! on samples drawn without boundary values, a pair marked exact whose constraints
//! all fail must not commute. (Boundary samples are left out there: a printed
//! constraint may overflow while being evaluated where the blocks do not, which
//! makes it not hold — safe, but not necessary.)

use frontend::analysis::may_touch::WHOLE;
use frontend::ics::{Constraint, ResolvedIcs};
use frontend::interp::{Effects, Fault, Limits, Machine, Next};
use frontend::ir::{BlockId, ExprKind, GlobalKind, ProcId, Program, MAX_LIST_LEN};
use frontend::memory::{write_global, Loc, Memory, UndoLog};
use frontend::value::{Ty, Value};
use std::fmt;
use std::sync::Arc;

/// How to validate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the state sampler: the same seed samples the same states.
    pub seed: u64,
    /// States sampled per pair of blocks (not all of them enable both blocks).
    pub samples: usize,
    /// Instructions one block may run before "block did not terminate". The
    /// constraints hold for any limit above the length of the paths the synthesis
    /// analysed exactly (a few thousand instructions at most), so a lower limit than
    /// the interpreter's default keeps non-terminating samples cheap.
    pub max_steps: u64,
    /// Also check that pairs marked exact have no commuting sample outside their
    /// constraints (see the module documentation).
    pub check_exact: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            samples: 300,
            max_steps: 100_000,
            check_exact: false,
        }
    }
}

/// What [`validate`] found.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// Pairs with at least one constraint (or exact pairs, with `check_exact`).
    pub pairs_checked: usize,
    /// Samples in which both blocks were enabled.
    pub enabled: usize,
    /// Of those, samples in which a constraint held.
    pub held: usize,
    /// The first unsound constraint found, if any.
    pub counterexample: Option<Counterexample>,
    /// The first sample showing a pair marked exact is not (with `check_exact`).
    pub inexact: Option<Counterexample>,
}

impl Validation {
    /// No counterexample, and nothing inexact when that was checked.
    pub fn ok(&self) -> bool {
        self.counterexample.is_none() && self.inexact.is_none()
    }
}

/// A state in which a pair's constraint holds (or, for exactness, none does) and the
/// two orders of the pair do not behave as promised.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub a: String,
    pub b: String,
    /// The constraint that holds; `None` when none holds (an exactness finding).
    pub constraint: Option<String>,
    /// The state, as readable assignments: globals, then the locals of `a` plain and
    /// those of `b` primed.
    pub state: String,
    /// What went wrong.
    pub problem: String,
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.constraint {
            Some(c) => writeln!(
                f,
                "constraint `{c}` of ({}, {}) holds, but {}",
                self.a, self.b, self.problem
            )?,
            None => writeln!(
                f,
                "({}, {}) is marked exact and none of its constraints holds, but {}",
                self.a, self.b, self.problem
            )?,
        }
        write!(f, "  state: {}", self.state)
    }
}

/// Checks every pair of `ics` on sampled states (see the module documentation).
/// Stops at the first counterexample.
pub fn validate(program: &Program, ics: &ResolvedIcs, options: &Options) -> Validation {
    let machine = Machine::new(
        program,
        Limits {
            max_steps: options.max_steps,
            ..Limits::default()
        },
    );
    let pool = interesting_ints(program);
    let mut out = Validation::default();
    let n = program.blocks.len() as BlockId;
    for a in 0..n {
        for b in a..n {
            let Some((pair, swapped)) = ics.pair(a, b) else {
                continue;
            };
            // The pair's own order: its first block's locals are the plain ones.
            let (a, b) = if swapped { (b, a) } else { (a, b) };
            let check_exact = options.check_exact && pair.exact;
            if pair.constraints.is_empty() && !check_exact {
                continue;
            }
            out.pairs_checked += 1;
            let mut sampler = Sampler {
                rng: Rng::new(options.seed ^ (u64::from(a) << 32 | u64::from(b))),
                pool: &pool,
                boundary: false,
                long_list: None,
                lists: lists_drawn(program, [a, b]),
            };
            for i in 0..options.samples {
                // Half the samples use small values only: constraints often relate
                // values (`x == y`), which small values hit.
                sampler.boundary = i % 2 == 1;
                sampler.long_list = sampler.long_list_at();
                let finding = check_sample(
                    &machine,
                    [a, b],
                    &pair.constraints,
                    check_exact,
                    &mut sampler,
                    &mut out,
                );
                match finding {
                    Some(Finding::Unsound(c)) => {
                        out.counterexample = Some(c);
                        return out;
                    }
                    Some(Finding::Inexact(c)) if out.inexact.is_none() => {
                        out.inexact = Some(c);
                    }
                    Some(Finding::Inexact(_)) | None => {}
                }
            }
        }
    }
    out
}

enum Finding {
    Unsound(Counterexample),
    Inexact(Counterexample),
}

fn check_sample(
    m: &Machine<'_>,
    blocks: [BlockId; 2],
    constraints: &[Constraint],
    check_exact: bool,
    sampler: &mut Sampler<'_>,
    out: &mut Validation,
) -> Option<Finding> {
    let program = m.program;
    let procs = blocks.map(|b| program.blocks[b as usize].proc);
    let mem = sampler.memory(program);
    let locals = [
        sampler.locals(program, procs[0]),
        sampler.locals(program, procs[1]),
    ];
    for slot in 0..2 {
        if !matches!(m.enabled(blocks[slot], &mem, &locals[slot]), Ok(true)) {
            return None;
        }
    }
    out.enabled += 1;
    let holding = constraints
        .iter()
        .find(|c| c.holds(program, &mem, &locals[0], &locals[1]));
    // Exactness is only checked on samples without boundary values.
    let exactness = check_exact && !sampler.boundary;
    if holding.is_none() && !exactness {
        return None;
    }
    out.held += usize::from(holding.is_some());
    let ab = run_pair(m, &mem, blocks, &locals, 0);
    let ba = run_pair(m, &mem, blocks, &locals, 1);
    let difference = difference(program, blocks, &ab, &ba);
    let name = |b: BlockId| program.blocks[b as usize].name.clone();
    let report = |constraint: Option<String>, problem: String| Counterexample {
        a: name(blocks[0]),
        b: name(blocks[1]),
        constraint,
        state: show_state(program, blocks, &mem, &locals),
        problem,
    };
    match (holding, difference) {
        (Some(c), Some(problem)) => Some(Finding::Unsound(report(Some(c.text.clone()), problem))),
        (None, None) => Some(Finding::Inexact(report(
            None,
            "both orders run normally and reach the same state".to_string(),
        ))),
        _ => None,
    }
}

/// What goes wrong when the blocks `blocks` (slot 0 the process at `a`, its locals
/// `locals[0]`) run in both orders from one concrete state: `None` when both are
/// enabled there and both orders run normally to the same state, or when one of the
/// blocks is not enabled (nothing is promised then). Used by [`crate::recheck`] to
/// explain a state the solver found.
pub fn concrete_problem(
    program: &Program,
    blocks: [BlockId; 2],
    mem: &Memory,
    locals: &[Vec<Value>; 2],
    max_steps: u64,
) -> Option<String> {
    let m = Machine::new(
        program,
        Limits {
            max_steps,
            ..Limits::default()
        },
    );
    for slot in 0..2 {
        if !matches!(m.enabled(blocks[slot], mem, &locals[slot]), Ok(true)) {
            return None;
        }
    }
    let ab = run_pair(&m, mem, blocks, locals, 0);
    let ba = run_pair(&m, mem, blocks, locals, 1);
    difference(program, blocks, &ab, &ba)
}

/// How running one block and then the other ended.
#[derive(Clone, Debug)]
enum Run {
    Done {
        mem: Memory,
        /// Locals of the process at block `a` and of the one at block `b`.
        locals: [Vec<Value>; 2],
        next: [Next; 2],
        /// (proc, live arguments), sorted: a multiset.
        spawns: Vec<(ProcId, Vec<Value>)>,
    },
    /// The second block was not enabled after the first (or its guard failed).
    Disabled { second: usize },
    /// A block failed.
    Failed { slot: usize, fault: Fault },
}

/// The arguments of a spawn that are live at the entry of its proc: what state
/// equality compares (docs/language.md "State and processes").
fn live_args(program: &Program, proc: ProcId, args: &[Value]) -> Vec<Value> {
    let entry = program.procs[proc as usize].entry;
    let live = &program.blocks[entry as usize].live;
    args.iter()
        .enumerate()
        .filter(|(i, _)| live.contains(&(*i as u32)))
        .map(|(_, v)| v.clone())
        .collect()
}

/// Runs `blocks[first]` then `blocks[1 - first]`; slot 0 is the process at `a`.
fn run_pair(
    m: &Machine<'_>,
    mem: &Memory,
    blocks: [BlockId; 2],
    locals: &[Vec<Value>; 2],
    first: usize,
) -> Run {
    let mut mem = mem.clone();
    let mut locals = locals.clone();
    let mut next = [Next::End; 2];
    let mut spawns = Vec::new();
    for step in 0..2 {
        let slot = if step == 0 { first } else { 1 - first };
        if !matches!(m.enabled(blocks[slot], &mem, &locals[slot]), Ok(true)) {
            return Run::Disabled { second: slot };
        }
        let mut undo = UndoLog::default();
        let mut fx = Effects::default();
        match m.run_block(
            blocks[slot],
            &mut mem,
            &mut locals[slot],
            &mut undo,
            &mut fx,
        ) {
            Ok(n) => next[slot] = n,
            Err(fault) => return Run::Failed { slot, fault },
        }
        for (p, args) in fx.spawns {
            spawns.push((p, live_args(m.program, p, &args)));
        }
    }
    spawns.sort();
    Run::Done {
        mem,
        locals,
        next,
        spawns,
    }
}

/// What keeps the two runs from being "both normal, same state", if anything.
fn difference(program: &Program, blocks: [BlockId; 2], ab: &Run, ba: &Run) -> Option<String> {
    let name = |slot: usize| program.blocks[blocks[slot] as usize].name.as_str();
    let order = |first: usize| format!("{}·{}", name(first), name(1 - first));
    for (first, run) in [(0, ab), (1, ba)] {
        match run {
            Run::Done { .. } => {}
            Run::Disabled { second } => {
                return Some(format!(
                    "in order {}, {} is not enabled after {}",
                    order(first),
                    name(*second),
                    name(1 - second)
                ))
            }
            Run::Failed { slot, fault } => {
                return Some(format!(
                    "in order {}, block {} fails: {fault}",
                    order(first),
                    name(*slot)
                ))
            }
        }
    }
    let (
        Run::Done {
            mem: m1,
            locals: l1,
            next: n1,
            spawns: s1,
        },
        Run::Done {
            mem: m2,
            locals: l2,
            next: n2,
            spawns: s2,
        },
    ) = (ab, ba)
    else {
        return None;
    };
    let (ab_name, ba_name) = (order(0), order(1));
    for (g, global) in program.globals.iter().enumerate() {
        let whole = Loc {
            global: g as u32,
            elem: WHOLE,
        };
        if !m1.same_at(m2, program, whole) {
            let (x, y) = (
                show_global(m1, g as u32, &global.kind),
                show_global(m2, g as u32, &global.kind),
            );
            return Some(format!(
                "global {} differs: {x} after {ab_name}, {y} after {ba_name}",
                global.name
            ));
        }
    }
    for slot in 0..2 {
        if n1[slot] != n2[slot] {
            let show = |n: Next| match n {
                Next::Block(b) => program.blocks[b as usize].name.clone(),
                Next::End => "the end".to_string(),
            };
            return Some(format!(
                "the process at {} goes on at {} after {ab_name}, at {} after {ba_name}",
                name(slot),
                show(n1[slot]),
                show(n2[slot])
            ));
        }
        if let Next::Block(b) = n1[slot] {
            let code = &program.procs[program.blocks[b as usize].proc as usize].code;
            for &l in &program.blocks[b as usize].live {
                let (x, y) = (&l1[slot][l as usize], &l2[slot][l as usize]);
                if x != y {
                    return Some(format!(
                        "local {}{} (live at {}) differs: {x} after {ab_name}, {y} after {ba_name}",
                        code.locals[l as usize].name,
                        if slot == 1 { "'" } else { "" },
                        program.blocks[b as usize].name
                    ));
                }
            }
        }
    }
    if s1 != s2 {
        let show = |s: &[(ProcId, Vec<Value>)]| {
            let items: Vec<String> = s
                .iter()
                .map(|(p, args)| {
                    let args: Vec<String> = args.iter().map(|v| v.to_string()).collect();
                    format!("{}({})", program.procs[*p as usize].name, args.join(", "))
                })
                .collect();
            format!("[{}]", items.join(", "))
        };
        return Some(format!(
            "the spawned processes differ: {} after {ab_name}, {} after {ba_name}",
            show(s1),
            show(s2)
        ));
    }
    // Memories compare equal global by global above; the whole must agree too.
    (m1 != m2).then(|| "the memories differ".to_string())
}

/// A global's value as the user writes it, [`brief`].
fn show_global(mem: &Memory, g: u32, kind: &GlobalKind) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_global(&mut s, mem, g, kind);
    brief(s)
}

/// A value as shown, cut after 120 characters: a list at the length limit, which the
/// sampler draws, has a million elements.
fn brief(shown: String) -> String {
    const SHOWN: usize = 120;
    if shown.len() <= SHOWN {
        return shown;
    }
    let cut = (0..=SHOWN).rev().find(|&i| shown.is_char_boundary(i));
    format!(
        "{}… ({} characters)",
        &shown[..cut.unwrap_or(0)],
        shown.len()
    )
}

/// `x = 1, a = [0, 2]; a: i = 3; b: i' = 4`
fn show_state(
    program: &Program,
    blocks: [BlockId; 2],
    mem: &Memory,
    locals: &[Vec<Value>; 2],
) -> String {
    let globals = (program.globals.iter().enumerate()).map(|(g, global)| {
        format!(
            "{} = {}",
            global.name,
            show_global(mem, g as u32, &global.kind)
        )
    });
    let mut out = globals.collect::<Vec<_>>().join(", ");
    for slot in 0..2 {
        let block = &program.blocks[blocks[slot] as usize];
        let code = &program.procs[block.proc as usize].code;
        let vars: Vec<String> = block
            .live
            .iter()
            .map(|&l| {
                let local = &code.locals[l as usize];
                format!(
                    "{}{} = {}",
                    local.name,
                    if slot == 1 { "'" } else { "" },
                    brief(locals[slot][l as usize].to_string())
                )
            })
            .collect();
        if !vars.is_empty() {
            out.push_str(&format!("; {}: {}", block.name, vars.join(", ")));
        }
    }
    out
}

/// The integers worth trying besides small random ones: the 64-bit boundaries, and
/// every constant of the program (params and array sizes included) with its
/// neighbours.
fn interesting_ints(program: &Program) -> Vec<i64> {
    let mut out = vec![0, 1, -1, i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1];
    let mut constants = Vec::new();
    let mut visit = |e: &frontend::ir::Expr| {
        e.walk(&mut |x| {
            if let ExprKind::Const(Value::Int(n)) = x.kind {
                constants.push(n);
            }
        })
    };
    let codes = program
        .procs
        .iter()
        .map(|p| &p.code)
        .chain(program.funs.iter().map(|f| &f.code))
        .chain(std::iter::once(&program.init));
    for code in codes {
        for instr in &code.instrs {
            instr.kind.for_each_expr(&mut visit);
        }
    }
    for b in &program.blocks {
        if let Some(g) = &b.guard {
            visit(g);
        }
    }
    for g in &program.globals {
        if let GlobalKind::Array { len, .. } = g.kind {
            constants.push(len as i64);
        }
    }
    for n in constants {
        out.extend(
            [Some(n), n.checked_sub(1), n.checked_add(1)]
                .into_iter()
                .flatten(),
        );
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Draws states.
struct Sampler<'a> {
    rng: Rng,
    pool: &'a [i64],
    /// Whether this sample may use the interesting values.
    boundary: bool,
    /// How many lists this sample draws before its list at the length limit, if it
    /// has one.
    long_list: Option<u64>,
    /// How many lists a sample draws.
    lists: u64,
}

/// One boundary sample in this many has a list at the length limit (it is 8 MB, and
/// each order copies it).
const LONG_LIST_ODDS: u64 = 32;

/// How many lists a sample of the pair of blocks `blocks` draws: one per list
/// global, per element of an array of lists, and per list local of both procs.
fn lists_drawn(program: &Program, blocks: [BlockId; 2]) -> u64 {
    let globals = program.globals.iter().map(|g| match g.kind {
        GlobalKind::Scalar(Ty::List) => 1,
        GlobalKind::Array {
            elem: Ty::List,
            len,
        } => len as u64,
        _ => 0,
    });
    let locals = blocks.iter().map(|&b| {
        let code = &program.procs[program.blocks[b as usize].proc as usize].code;
        code.locals.iter().filter(|l| l.ty == Ty::List).count() as u64
    });
    globals.chain(locals).sum()
}

impl Sampler<'_> {
    fn int(&mut self) -> i64 {
        if self.boundary && self.rng.below(3) == 0 {
            return self.pool[self.rng.below(self.pool.len() as u64) as usize];
        }
        match self.rng.below(10) {
            0 => self.rng.below(41) as i64 - 20,
            _ => self.rng.below(9) as i64 - 3,
        }
    }

    fn value(&mut self, ty: Ty) -> Value {
        match ty {
            Ty::Int => Value::Int(self.int()),
            Ty::Bool => Value::Bool(self.rng.below(2) == 0),
            Ty::List if self.long_list_now() => {
                let n = MAX_LIST_LEN as u64 - self.rng.below(2);
                Value::List(Arc::from(vec![self.int(); n as usize]))
            }
            Ty::List => {
                let n = self.rng.below(4) as usize;
                let items: Vec<i64> = (0..n).map(|_| self.int()).collect();
                Value::List(Arc::from(items))
            }
        }
    }

    /// Where this sample's list at the length limit is, among the lists it draws
    /// (globals in their order, then both processes' locals): one boundary sample
    /// in [`LONG_LIST_ODDS`] has one, any of its lists as likely. A pair without
    /// lists draws nothing for it.
    fn long_list_at(&mut self) -> Option<u64> {
        let has = self.boundary && self.lists > 0 && self.rng.below(LONG_LIST_ODDS) == 0;
        has.then(|| self.rng.below(self.lists))
    }

    /// Whether the list drawn now is the sample's list at the length limit.
    fn long_list_now(&mut self) -> bool {
        let now = self.long_list == Some(0);
        self.long_list = self.long_list.and_then(|n| n.checked_sub(1));
        now
    }

    fn memory(&mut self, program: &Program) -> Memory {
        let mut mem = Memory::initial(program);
        let mut undo = UndoLog::default();
        for (g, global) in program.globals.iter().enumerate() {
            let g = g as u32;
            match global.kind {
                GlobalKind::Scalar(ty) => mem.set_scalar(g, self.value(ty), &mut undo),
                GlobalKind::Array { elem, len } => {
                    for i in 0..len {
                        mem.set_element(g, i, self.value(elem), &mut undo);
                    }
                }
                GlobalKind::Map => {
                    for _ in 0..self.rng.below(4) {
                        let (k, v) = (self.int(), self.int());
                        mem.set_map(g, k, v, &mut undo);
                    }
                }
            }
        }
        mem
    }

    fn locals(&mut self, program: &Program, proc: ProcId) -> Vec<Value> {
        program.procs[proc as usize]
            .code
            .locals
            .iter()
            .map(|l| self.value(l.ty))
            .collect()
    }
}

/// A small deterministic PRNG (xorshift64*), so that findings reproduce.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough below `n` (`0` for `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}
