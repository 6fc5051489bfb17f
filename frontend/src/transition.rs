//! Blocks as deterministic transition systems (CDPOR paper, Sec. 4.1), by symbolic
//! execution of the flat code.
//!
//! [`Exec::run_block`] runs one block of one process on a symbolic [`State`] and
//! returns one outcome per path: the path condition (over the state before the run),
//! the new state (globals, the process's locals, spawned processes) and where the
//! process continues. Running a second block on each outcome composes the two
//! (`T_{a·b}` of the paper) without substitution.
//!
//! - `if`/`else`, `? :`, `&&`/`||` (short-circuit), `min`/`max`/`abs`, and the
//!   aliasing of array and map indices split paths; the result is exact.
//! - A path that would fail (assertion, division by zero, index out of range, `head`
//!   of an empty list, 64-bit overflow, …) is dropped: what remains are the runs
//!   that end normally, and the complement of their conditions is where the block
//!   fails. Independence constraints (Def. 5/6 of the CDPOR paper) promise that both
//!   orders *run normally*, so every failure the interpreter can raise must be
//!   among these conditions, or an independence is claimed where an order fails.
//! - Integers are the solver's unbounded integers, but every `+`, `-`, `*`, unary
//!   `-`, `abs` and `/` carries the condition that its result fits in 64 bits
//!   ([`no_overflow`]), exactly where the interpreter (`interp.rs`) raises
//!   "integer overflow" (`%` never overflows there: `i64::MIN % -1` is 0).
//! - Loops inside a block are unrolled: iterations whose branches are all decided by
//!   constants (`for i in 0..3`) up to [`MAX_CONCRETE_ITERATIONS`], the others up to
//!   [`Exec::set_unroll`] times. The rest of a loop becomes uninterpreted functions
//!   of everything it reads *and writes* (Def. 7): one per variable it may write,
//!   its exit, its spawns, and `Ok`, "it ends normally". `Ok` is always there: the
//!   loop may fail inside, or run past the step limit ("block did not terminate"),
//!   and whether it does is not decided here. Being uninterpreted and unprintable,
//!   `Ok` keeps every constraint out of the states where an order reaches the
//!   abstracted rest of a loop: constraints only claim independence where both
//!   orders provably end within the unrolled iterations.
//! - A call of a `fun` that loops or recurses (loop-free funs are inlined) is
//!   likewise an uninterpreted function of its arguments with an `Ok` condition
//!   (it may fail, recurse past the depth limit or not terminate). List operations
//!   and products, quotients and remainders of two non-constants are uninterpreted
//!   functions too. [`Exec::inexact`] then says so.
//! - The unrolled paths are assumed to fit in the step limit (they run at most a few
//!   thousand instructions; the default limit is 1,000,000) and inlined calls nest at
//!   most 16 deep (the depth limit is 1,000).
//! - `param`s are free variables, so what is derived holds for every value of them.

pub mod term;

use crate::ast::{self, BinOp, UnOp};
use crate::interp::Next;
use crate::ir::{
    BlockId, Builtin, Code, Expr, ExprKind, FunId, GlobalId, GlobalKind, InstrKind, LocalId, Pc,
    Place, ProcId, Program,
};
use crate::value::{Ty, Value};
use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
pub use term::*;

/// Paths one block run (or one expression) may split into before giving up.
pub const MAX_PATHS: usize = 1024;
/// Times a path may enter the same pc of a loop inside a block, on iterations that
/// added a condition to the path, before the rest of the loop is abstracted (the
/// default of [`Exec::set_unroll`]).
pub const UNROLL: u32 = 2;
/// Times a path may enter the same pc of a loop in all before the rest of the loop is
/// abstracted: iterations decided by constants add no path, so a loop with constant
/// bounds (`for i in 0..2`) is unrolled completely and analysed exactly, up to this
/// many iterations. A loop that never ends on constants (`while (true) {}`) is
/// abstracted here, and its `Ok` is then unknown.
pub const MAX_CONCRETE_ITERATIONS: u32 = 64;
/// Nesting of inlined fun calls.
const MAX_INLINE_DEPTH: u32 = 16;

/// Why a block has no transition system here. Callers treat the block as
/// unanalysable (dependent on everything), which is sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Abort {
    TooManyPaths,
    TooLarge,
    InlineTooDeep,
    /// The block reads or writes an array of lists, which the encoding has no sort for.
    ListArray,
}

impl std::fmt::Display for Abort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Abort::TooManyPaths => "too many paths",
            Abort::TooLarge => "arithmetic coefficients too large",
            Abort::InlineTooDeep => "fun calls nested too deep to inline",
            Abort::ListArray => "an array of lists",
        })
    }
}

impl From<TooLarge> for Abort {
    fn from(_: TooLarge) -> Self {
        Abort::TooLarge
    }
}

type R<T> = Result<T, Abort>;
/// Alternatives: each a list of conditions (a conjunction) and a result.
type Cases<T> = Vec<(Vec<Form>, T)>;

/// The value of one global in a symbolic state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GVal {
    Scalar(Val),
    Array(ArrVal),
    Map(MapVal),
}

impl GVal {
    pub fn as_val(&self) -> Val {
        match self {
            GVal::Scalar(v) => v.clone(),
            GVal::Array(a) => Val::Arr(a.clone()),
            GVal::Map(m) => Val::Map(m.clone()),
        }
    }
}

/// A process created by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spawned {
    /// The slot of the process that spawned it.
    pub by: Slot,
    pub what: SpawnKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpawnKind {
    /// `spawn P(args)`
    Proc(ProcId, Vec<Val>),
    /// Whatever an abstracted loop spawned: an opaque multiset.
    Bag(Fun, Vec<Val>),
}

/// A symbolic state: values as terms over the state before the first run.
#[derive(Clone, Debug)]
pub struct State {
    pub globals: Vec<GVal>,
    /// The locals of the process in each slot (empty when the slot is unused).
    pub locals: [Vec<Val>; 2],
    pub spawns: Vec<Spawned>,
    /// Conjunction of the conditions taken so far.
    pub path: Vec<Form>,
    /// How often this path has entered each pc of a loop in the current block run
    /// (loops are unrolled a few times before they are abstracted).
    pub visits: Vec<LoopVisits>,
}

/// How often a path entered one pc of a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopVisits {
    pub pc: Pc,
    /// Entries in all.
    pub total: u32,
    /// Entries after which the path condition had grown since the previous entry:
    /// the iterations that were not decided by constants.
    pub symbolic: u32,
    /// Length of the path condition at the last entry.
    pub path_len: usize,
}

impl State {
    fn assume(&mut self, conds: Vec<Form>) -> bool {
        for c in conds {
            match c {
                Form::True => {}
                Form::False => return false,
                c => self.path.push(c),
            }
        }
        true
    }
}

/// One path through a block: its condition, the state after it, the continuation.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub state: State,
    pub next: Next,
}

/// A block as a transition system over the state before it (slot 0): one
/// transition per path that ends normally. The guard includes the `await` condition.
#[derive(Clone, Debug)]
pub struct TransitionSystem {
    pub block: BlockId,
    pub transitions: Vec<Outcome>,
    /// No abstraction was used.
    pub exact: bool,
}

/// What a constant of the checked program stands for in the source.
#[derive(Clone, Debug)]
enum ConstKind {
    /// The value of `param` number `i`.
    Param(u32),
    /// `len(a)` of an array whose size depends on params.
    Len(Lin),
}

/// Loop regions (strongly connected parts of a proc's code between block ends).
#[derive(Clone, Debug, Default)]
struct Loops {
    /// For each pc, the loop it belongs to.
    of_pc: HashMap<Pc, usize>,
    loops: Vec<LoopInfo>,
}

#[derive(Clone, Debug, Default)]
struct LoopInfo {
    pcs: BTreeSet<Pc>,
    read_locals: BTreeSet<LocalId>,
    read_globals: BTreeSet<GlobalId>,
    /// Spans of param-dependent constants read.
    read_consts: BTreeSet<(usize, usize)>,
    written_locals: BTreeSet<LocalId>,
    written_globals: BTreeSet<GlobalId>,
    spawns: bool,
}

/// The symbolic executor for one program.
pub struct Exec<'p> {
    pub program: &'p Program,
    consts: HashMap<(usize, usize), ConstKind>,
    /// Length of each array global: a constant, a linear term over params, or
    /// [`IAtom::ArrLen`].
    array_len: Vec<Option<Lin>>,
    axioms: Vec<Form>,
    loops: Vec<Loops>,
    inlinable: Vec<bool>,
    inexact: Cell<bool>,
    unroll: Cell<u32>,
    loop_seen: Cell<bool>,
}

impl<'p> Exec<'p> {
    /// `source` is the program's text: with it, `param`s (which the checker replaces
    /// by their values) become free variables again.
    pub fn new(program: &'p Program, source: Option<&str>) -> Self {
        let mut exec = Exec {
            program,
            consts: HashMap::new(),
            array_len: Vec::new(),
            axioms: Vec::new(),
            loops: Vec::new(),
            inlinable: Vec::new(),
            inexact: Cell::new(false),
            unroll: Cell::new(UNROLL),
            loop_seen: Cell::new(false),
        };
        exec.array_lengths(source);
        if let Some(source) = source {
            exec.classify_consts(source);
        }
        exec.analyse_funs();
        exec.loops = program
            .procs
            .iter()
            .map(|p| exec.find_loops(&p.code))
            .collect();
        exec
    }

    /// Facts true in every state of every run of the program (array lengths in range).
    pub fn axioms(&self) -> &[Form] {
        &self.axioms
    }

    /// Whether an abstraction was used since the last [`Exec::reset_inexact`].
    pub fn inexact(&self) -> bool {
        self.inexact.get()
    }

    /// How many times a path may enter the same pc of a loop before the rest of the
    /// loop becomes uninterpreted functions (0: abstract loops at once).
    pub fn set_unroll(&self, n: u32) {
        self.unroll.set(n);
    }

    pub fn reset_inexact(&self) {
        self.inexact.set(false);
        self.loop_seen.set(false);
    }

    /// Whether a loop inside a block was met since the last [`Exec::reset_inexact`].
    pub fn saw_loop(&self) -> bool {
        self.loop_seen.get()
    }

    fn abstracted(&self) {
        self.inexact.set(true);
    }

    // ---------------------------------------------------------------- analysis

    fn array_lengths(&mut self, source: Option<&str>) {
        let sizes: HashMap<String, ast::Expr> = source
            .and_then(|s| crate::parser::parse_program(s).ok())
            .map(|p| {
                p.items
                    .into_iter()
                    .filter_map(|i| match i {
                        ast::Item::Global(g) => match g.ty.kind {
                            ast::TypeKind::Array(_, size) => Some((g.name.name, *size)),
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (i, g) in self.program.globals.iter().enumerate() {
            let GlobalKind::Array { len, .. } = g.kind else {
                self.array_len.push(None);
                continue;
            };
            let lin = match sizes.get(&g.name) {
                None => Lin::constant(len as Coef),
                Some(size) => match self.param_lin(size) {
                    Some(l) => l,
                    None => Lin::atom(IAtom::ArrLen(i as GlobalId)),
                },
            };
            if lin.as_const().is_none() {
                self.axioms.push(Form::le(lin.neg().unwrap_or_default()));
                if let Ok(l) = lin.add_const(-(crate::ir::MAX_ARRAY_LEN as Coef)) {
                    self.axioms.push(Form::le(l));
                }
            }
            self.array_len.push(Some(lin));
        }
    }

    /// A constant expression of the source as a linear term over params.
    fn param_lin(&self, e: &ast::Expr) -> Option<Lin> {
        match &e.kind {
            ast::ExprKind::Int(n) => Some(Lin::constant(*n as Coef)),
            ast::ExprKind::Var(v) => self
                .program
                .params
                .iter()
                .position(|p| p.name == v.name)
                .map(|i| Lin::var(Var::Param(i as u32))),
            ast::ExprKind::Unary(UnOp::Neg, a) => self.param_lin(a)?.neg().ok(),
            ast::ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.param_lin(a)?, self.param_lin(b)?);
                match op {
                    BinOp::Add => a.add(&b).ok(),
                    BinOp::Sub => a.sub(&b).ok(),
                    BinOp::Mul => match (a.as_const(), b.as_const()) {
                        (Some(k), _) => b.scale(k).ok(),
                        (_, Some(k)) => a.scale(k).ok(),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Finds the constants of the checked code that stand for params or `len(a)`.
    fn classify_consts(&mut self, source: &str) {
        let mut spans = Vec::new();
        let mut collect = |code: &Code| {
            for instr in &code.instrs {
                instr
                    .kind
                    .for_each_expr(&mut |e| const_spans(e, &mut spans));
            }
        };
        for p in &self.program.procs {
            collect(&p.code);
        }
        for f in &self.program.funs {
            collect(&f.code);
        }
        for b in &self.program.blocks {
            if let Some(g) = &b.guard {
                const_spans(g, &mut spans);
            }
        }
        for (start, end) in spans {
            let Some(text) = source.get(start..end) else {
                continue;
            };
            let text = text.trim();
            if let Some(i) = self.program.params.iter().position(|p| p.name == text) {
                self.consts.insert((start, end), ConstKind::Param(i as u32));
                continue;
            }
            if !text.starts_with("len") {
                continue;
            }
            if let Ok(e) = crate::parser::parse_expr(text) {
                if let ast::ExprKind::Call(f, args) = &e.kind {
                    if let (true, [a]) = (f.name == "len", args.as_slice()) {
                        if let ast::ExprKind::Var(a) = &a.kind {
                            if let Some(g) = self.program.global_by_name(&a.name) {
                                if let Some(Some(l)) = self.array_len.get(g as usize) {
                                    if l.as_const().is_none() {
                                        self.consts.insert((start, end), ConstKind::Len(l.clone()));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn analyse_funs(&mut self) {
        let funs = &self.program.funs;
        let n = funs.len();
        let calls: Vec<BTreeSet<FunId>> = funs
            .iter()
            .map(|f| {
                let mut out = BTreeSet::new();
                for i in &f.code.instrs {
                    i.kind.for_each_expr(&mut |e| calls_in(e, &mut out));
                }
                out
            })
            .collect();
        // Recursive: reaches itself through calls.
        let reaches = |from: usize| -> BTreeSet<FunId> {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<FunId> = calls[from].iter().copied().collect();
            while let Some(f) = stack.pop() {
                if seen.insert(f) {
                    stack.extend(calls[f as usize].iter().copied());
                }
            }
            seen
        };
        let has_loop = |code: &Code| {
            code.instrs.iter().enumerate().any(|(pc, i)| match i.kind {
                InstrKind::Jump(t) | InstrKind::JumpUnless(_, t) => t as usize <= pc,
                _ => false,
            })
        };
        let mut inlinable = vec![false; n];
        for (f, fun) in funs.iter().enumerate() {
            let reach = reaches(f);
            let recursive = reach.contains(&(f as FunId));
            let loops =
                has_loop(&fun.code) || reach.iter().any(|g| has_loop(&funs[*g as usize].code));
            inlinable[f] = !recursive && !loops;
        }
        self.inlinable = inlinable;
    }

    fn find_loops(&self, code: &Code) -> Loops {
        let n = code.instrs.len();
        let succ = |pc: usize| -> Vec<usize> {
            match &code.instrs[pc].kind {
                InstrKind::Assign(..) | InstrKind::Spawn(..) | InstrKind::Assert(..) => {
                    vec![pc + 1]
                }
                InstrKind::Jump(t) => vec![*t as usize],
                InstrKind::JumpUnless(_, t) => vec![pc + 1, *t as usize],
                InstrKind::Await(_) | InstrKind::Yield(_) | InstrKind::Return(_) => vec![],
            }
        };
        let sccs = tarjan(n, &succ);
        let mut out = Loops::default();
        for comp in sccs {
            let cyclic = comp.len() > 1 || succ(comp[0]).contains(&comp[0]);
            if !cyclic {
                continue;
            }
            let id = out.loops.len();
            let mut info = LoopInfo {
                pcs: comp.iter().map(|&p| p as Pc).collect(),
                ..LoopInfo::default()
            };
            for &pc in &comp {
                out.of_pc.insert(pc as Pc, id);
                let kind = &code.instrs[pc].kind;
                kind.for_each_expr(&mut |e| {
                    reads_in(e, &mut info.read_locals, &mut info.read_globals);
                    let mut spans = Vec::new();
                    const_spans(e, &mut spans);
                    for s in spans {
                        if self.consts.contains_key(&s) {
                            info.read_consts.insert(s);
                        }
                    }
                });
                match kind {
                    InstrKind::Assign(place, _) => match place {
                        Place::Local(l) => {
                            info.written_locals.insert(*l);
                        }
                        Place::LocalListElem(l, _) => {
                            info.read_locals.insert(*l);
                            info.written_locals.insert(*l);
                        }
                        Place::Global(g) => {
                            info.written_globals.insert(*g);
                        }
                        Place::ArrayElem(g, _)
                        | Place::MapElem(g, _)
                        | Place::GlobalListElem(g, _) => {
                            info.read_globals.insert(*g);
                            info.written_globals.insert(*g);
                        }
                    },
                    InstrKind::Spawn(..) => info.spawns = true,
                    _ => {}
                }
            }
            out.loops.push(info);
        }
        out
    }

    // ---------------------------------------------------------------- states

    /// The state before any run: every global and every local of the processes in
    /// the slots is a variable.
    pub fn initial_state(&self, slots: &[(Slot, ProcId)]) -> State {
        let globals = self
            .program
            .globals
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let i = i as GlobalId;
                match g.kind {
                    GlobalKind::Scalar(ty) => GVal::Scalar(var_of(ty, Var::Global(i))),
                    GlobalKind::Array { .. } => GVal::Array(ArrVal {
                        base: ArrBase::Init(i),
                        log: Vec::new(),
                    }),
                    GlobalKind::Map => GVal::Map(MapVal {
                        base: MapBase::Init(i),
                        log: Vec::new(),
                    }),
                }
            })
            .collect();
        let mut locals = [Vec::new(), Vec::new()];
        for &(slot, proc) in slots {
            locals[slot as usize] = self.program.procs[proc as usize]
                .code
                .locals
                .iter()
                .enumerate()
                .map(|(l, local)| var_of(local.ty, Var::Local(slot, l as LocalId)))
                .collect();
        }
        State {
            globals,
            locals,
            spawns: Vec::new(),
            path: Vec::new(),
            visits: Vec::new(),
        }
    }

    /// The block's `await` condition in a state, as alternatives (conditions under
    /// which evaluating it does not fail, and its value).
    pub fn guard(&self, block: BlockId, slot: Slot, st: &State) -> R<Vec<(Vec<Form>, Form)>> {
        self.encodable(block)?;
        let Some(g) = &self.program.blocks[block as usize].guard else {
            return Ok(vec![(Vec::new(), Form::True)]);
        };
        let env = env_of(st, slot as usize);
        let cases = self.eval(g, &env, 0)?;
        Ok(cases
            .into_iter()
            .map(|(c, v)| (c, v.bool().clone()))
            .collect())
    }

    /// The states in which the block is enabled, split by the guard's cases.
    pub fn enabled(&self, block: BlockId, slot: Slot, st: &State) -> R<Vec<State>> {
        let mut out = Vec::new();
        for (mut conds, g) in self.guard(block, slot, st)? {
            conds.push(g);
            let mut s = st.clone();
            if s.assume(conds) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// Runs one block of the process in `slot` (whose guard the caller has assumed).
    pub fn run_block(&self, block: BlockId, slot: Slot, st: State) -> R<Vec<Outcome>> {
        self.encodable(block)?;
        let b = &self.program.blocks[block as usize];
        let code = &self.program.procs[b.proc as usize].code;
        let mut st = st;
        st.visits.clear();
        let exits = self.exec(code, Some(b.proc), b.pc, slot, st, 0)?;
        Ok(exits
            .into_iter()
            .map(|(state, exit)| Outcome {
                state,
                next: match exit {
                    Exit::Block(b) => Next::Block(b),
                    Exit::End | Exit::Value(_) => Next::End,
                },
            })
            .collect())
    }

    /// Refuses a block that touches an array of lists (its guard or code indexes one).
    fn encodable(&self, block: BlockId) -> R<()> {
        let b = &self.program.blocks[block as usize];
        let code = &self.program.procs[b.proc as usize].code;
        let lists = |g: GlobalId| {
            matches!(
                self.program.globals[g as usize].kind,
                GlobalKind::Array { elem: Ty::List, .. }
            )
        };
        let mut read = false;
        let mut visit = |e: &Expr| {
            e.walk(&mut |x| {
                if let ExprKind::ArrayGet(g, _) = x.kind {
                    read |= lists(g);
                }
            })
        };
        if let Some(g) = &b.guard {
            visit(g);
        }
        let mut written = false;
        for pc in self.program.block_pcs(block) {
            let kind = &code.instrs[pc as usize].kind;
            kind.for_each_expr(&mut visit);
            if let InstrKind::Assign(Place::ArrayElem(g, _), _) = kind {
                written |= lists(*g);
            }
        }
        if read || written {
            Err(Abort::ListArray)
        } else {
            Ok(())
        }
    }

    /// The block alone, from the state before it, guard included.
    pub fn transition_system(&self, block: BlockId) -> R<TransitionSystem> {
        self.reset_inexact();
        let proc = self.program.blocks[block as usize].proc;
        let st = self.initial_state(&[(0, proc)]);
        let mut transitions = Vec::new();
        for s in self.enabled(block, 0, &st)? {
            transitions.extend(self.run_block(block, 0, s)?);
        }
        Ok(TransitionSystem {
            block,
            transitions,
            exact: !self.inexact(),
        })
    }

    /// The value of an expression of the checked language over the given globals and
    /// frame, split into cases (conditions under which it does not fail, and value).
    pub fn eval_expr(
        &self,
        e: &Expr,
        globals: &[GVal],
        locals: &[Val],
    ) -> R<Vec<(Vec<Form>, Val)>> {
        let env = Env {
            globals,
            locals,
            from_source: false,
            params: None,
        };
        self.eval(e, &env, 0)
    }

    /// [`Exec::eval_expr`] for an expression that is not part of the program's source,
    /// such as a constraint, whose constants at the spans `params` stand for those
    /// `param`s (as constants of the source do when the executor was made with it).
    pub fn eval_expr_with_params(
        &self,
        e: &Expr,
        globals: &[GVal],
        locals: &[Val],
        params: &HashMap<(usize, usize), u32>,
    ) -> R<Vec<(Vec<Form>, Val)>> {
        let env = Env {
            globals,
            locals,
            from_source: false,
            params: Some(params),
        };
        self.eval(e, &env, 0)
    }

    // ---------------------------------------------------------------- execution

    fn exec(
        &self,
        code: &Code,
        proc: Option<ProcId>,
        start: Pc,
        slot: Slot,
        st: State,
        depth: u32,
    ) -> R<Vec<(State, Exit)>> {
        let mut work = vec![(start, st)];
        let mut done = Vec::new();
        while let Some((pc, st)) = work.pop() {
            if work.len() + done.len() > MAX_PATHS {
                return Err(Abort::TooManyPaths);
            }
            let mut st = st;
            if let Some(p) = proc {
                if let Some(&l) = self.loops[p as usize].of_pc.get(&pc) {
                    self.loop_seen.set(true);
                    let path_len = st.path.len();
                    let v = match st.visits.iter_mut().find(|v| v.pc == pc) {
                        Some(v) => {
                            v.total += 1;
                            if v.path_len != path_len {
                                v.symbolic += 1;
                            }
                            v.path_len = path_len;
                            *v
                        }
                        None => {
                            let v = LoopVisits {
                                pc,
                                total: 1,
                                symbolic: 1,
                                path_len,
                            };
                            st.visits.push(v);
                            v
                        }
                    };
                    let unroll = self.unroll.get();
                    if unroll == 0 || v.symbolic > unroll || v.total > MAX_CONCRETE_ITERATIONS {
                        for (mut s, next) in self.abstract_loop(p, l, pc, slot, st)? {
                            // Leaving the loop: a later loop starts afresh.
                            let pcs = &self.loops[p as usize].loops[l].pcs;
                            s.visits.retain(|v| !pcs.contains(&v.pc));
                            work.push((next, s));
                        }
                        continue;
                    }
                }
            }
            let instr = &code.instrs[pc as usize];
            let locals = slot as usize;
            match &instr.kind {
                InstrKind::Assign(place, e) => {
                    for (s, ()) in self.assign(place, e, slot, st, depth)? {
                        work.push((pc + 1, s));
                    }
                }
                InstrKind::Jump(t) => work.push((*t, st)),
                InstrKind::JumpUnless(c, t) => {
                    let cases = self.eval(c, &env_of(&st, locals), depth)?;
                    for (conds, v) in cases {
                        let f = v.bool().clone();
                        let mut yes = st.clone();
                        let mut cy = conds.clone();
                        cy.push(f.clone());
                        if yes.assume(cy) {
                            work.push((pc + 1, yes));
                        }
                        let mut no = st.clone();
                        let mut cn = conds;
                        cn.push(f.not());
                        if no.assume(cn) {
                            work.push((*t, no));
                        }
                    }
                }
                InstrKind::Spawn(p, args) => {
                    let cases = self.eval_all(args, &env_of(&st, locals), depth)?;
                    for (conds, vals) in cases {
                        let mut s = st.clone();
                        if s.assume(conds) {
                            s.spawns.push(Spawned {
                                by: slot,
                                what: SpawnKind::Proc(*p, vals),
                            });
                            work.push((pc + 1, s));
                        }
                    }
                }
                InstrKind::Assert(c, _) => {
                    let cases = self.eval(c, &env_of(&st, locals), depth)?;
                    for (mut conds, v) in cases {
                        conds.push(v.bool().clone());
                        let mut s = st.clone();
                        if s.assume(conds) {
                            work.push((pc + 1, s));
                        }
                    }
                }
                InstrKind::Await(b) | InstrKind::Yield(b) => done.push((st, Exit::Block(*b))),
                InstrKind::Return(None) => {
                    if proc.is_some() {
                        done.push((st, Exit::End));
                    }
                    // In a fun: it ended without `return e;`, a runtime error.
                }
                InstrKind::Return(Some(e)) => {
                    let cases = self.eval(e, &env_of(&st, locals), depth)?;
                    for (conds, v) in cases {
                        let mut s = st.clone();
                        if s.assume(conds) {
                            done.push((s, Exit::Value(v)));
                        }
                    }
                }
            }
        }
        st_drop_false(&mut done);
        Ok(done)
    }

    fn assign(
        &self,
        place: &Place,
        e: &Expr,
        slot: Slot,
        st: State,
        depth: u32,
    ) -> R<Vec<(State, ())>> {
        let l = slot as usize;
        let mut out = Vec::new();
        for (conds, v) in self.eval(e, &env_of(&st, l), depth)? {
            let mut st = st.clone();
            if !st.assume(conds) {
                continue;
            }
            match place {
                Place::Local(x) => {
                    st.locals[l][*x as usize] = v;
                    out.push((st, ()));
                }
                Place::Global(g) => {
                    st.globals[*g as usize] = GVal::Scalar(v);
                    out.push((st, ()));
                }
                Place::ArrayElem(g, i) => {
                    for (c, iv) in self.eval(i, &env_of(&st, l), depth)? {
                        let idx = iv.int().clone();
                        let mut s = st.clone();
                        let mut c = c;
                        c.extend(self.in_bounds(*g, &idx)?);
                        if !s.assume(c) {
                            continue;
                        }
                        if let GVal::Array(a) = &mut s.globals[*g as usize] {
                            a.log.retain(|(k, _)| *k != idx);
                            a.log.push((idx, v.clone()));
                        }
                        out.push((s, ()));
                    }
                }
                Place::MapElem(g, k) => {
                    for (c, kv) in self.eval(k, &env_of(&st, l), depth)? {
                        let key = kv.int().clone();
                        let mut s = st.clone();
                        if !s.assume(c) {
                            continue;
                        }
                        if let GVal::Map(m) = &mut s.globals[*g as usize] {
                            m.log.retain(|(k, _)| *k != key);
                            m.log.push((key, v.int().clone()));
                        }
                        out.push((s, ()));
                    }
                }
                Place::GlobalListElem(g, i) | Place::LocalListElem(g, i) => {
                    let global = matches!(place, Place::GlobalListElem(..));
                    for (c, iv) in self.eval(i, &env_of(&st, l), depth)? {
                        let list = if global {
                            match &st.globals[*g as usize] {
                                GVal::Scalar(v) => v.list().clone(),
                                _ => unreachable!("list global"),
                            }
                        } else {
                            st.locals[l][*g as usize].list().clone()
                        };
                        for (c2, new) in self.list_set(&list, iv.int(), &v)? {
                            let mut s = st.clone();
                            let mut cs = c.clone();
                            cs.extend(c2);
                            if !s.assume(cs) {
                                continue;
                            }
                            if global {
                                s.globals[*g as usize] = GVal::Scalar(Val::List(new));
                            } else {
                                s.locals[l][*g as usize] = Val::List(new);
                            }
                            out.push((s, ()));
                        }
                    }
                }
            }
        }
        if out.len() > MAX_PATHS {
            return Err(Abort::TooManyPaths);
        }
        Ok(out)
    }

    /// Replaces the rest of a loop by uninterpreted functions (Def. 7) of the state
    /// at `entry`: of every variable the loop reads, and of every variable it may
    /// write. A written variable is an input too: where the loop does not write it
    /// (a write under a condition, or zero iterations) its value afterwards is its
    /// value before, so the outputs depend on it even when the loop never reads it.
    /// Leaving it out made `for i in 0..n { if (c) { x = 0; } }` look as if it set `x`
    /// to a value independent of the `x` before, and a block that then read `x`
    /// commute with a write of `x`.
    ///
    /// The path also assumes `Ok(inputs)`, "the rest of the loop ends normally": it
    /// may fail inside or never end, and the interpreter then raises "block did not
    /// terminate". See the module documentation for what this does to constraints.
    fn abstract_loop(
        &self,
        proc: ProcId,
        l: usize,
        entry: Pc,
        slot: Slot,
        st: State,
    ) -> R<Vec<(State, Pc)>> {
        self.abstracted();
        let info = &self.loops[proc as usize].loops[l];
        let code = &self.program.procs[proc as usize].code;
        let locals = &st.locals[slot as usize];
        let mut inputs: Vec<Val> = Vec::new();
        for x in info.read_locals.union(&info.written_locals) {
            inputs.push(locals[*x as usize].clone());
        }
        for g in info.read_globals.union(&info.written_globals) {
            inputs.push(st.globals[*g as usize].as_val());
        }
        for span in &info.read_consts {
            if let Some(k) = self.consts.get(span) {
                inputs.push(Val::Int(self.const_kind_lin(k)));
            }
        }
        let f = |out| Fun::Loop {
            proc,
            pc: entry,
            out,
        };
        let mut st = st;
        st.path.push(Form::BApp(f(LoopOut::Ok), inputs.clone()));
        for x in &info.written_locals {
            let ty = code.locals[*x as usize].ty;
            st.locals[slot as usize][*x as usize] =
                app_of(ty, f(LoopOut::Local(*x)), inputs.clone());
        }
        for g in &info.written_globals {
            let fun = f(LoopOut::Global(*g));
            st.globals[*g as usize] = match self.program.globals[*g as usize].kind {
                GlobalKind::Scalar(ty) => GVal::Scalar(app_of(ty, fun, inputs.clone())),
                GlobalKind::Array { .. } => GVal::Array(ArrVal {
                    base: ArrBase::App(fun, inputs.clone()),
                    log: Vec::new(),
                }),
                GlobalKind::Map => GVal::Map(MapVal {
                    base: MapBase::App(fun, inputs.clone()),
                    log: Vec::new(),
                }),
            };
        }
        if info.spawns {
            st.spawns.push(Spawned {
                by: slot,
                what: SpawnKind::Bag(f(LoopOut::Spawns), inputs.clone()),
            });
        }
        // Where the loop may be left: edges out of it.
        let mut exits = BTreeSet::new();
        for &pc in &info.pcs {
            let targets: Vec<Pc> = match &code.instrs[pc as usize].kind {
                InstrKind::Jump(t) => vec![*t],
                InstrKind::JumpUnless(_, t) => vec![pc + 1, *t],
                InstrKind::Assign(..) | InstrKind::Spawn(..) | InstrKind::Assert(..) => {
                    vec![pc + 1]
                }
                _ => vec![],
            };
            exits.extend(targets.into_iter().filter(|t| !info.pcs.contains(t)));
        }
        let exits: Vec<Pc> = exits.into_iter().collect();
        if exits.len() == 1 {
            return Ok(vec![(st, exits[0])]);
        }
        let which = Lin::atom(IAtom::App(f(LoopOut::Exit), inputs));
        let mut out = Vec::new();
        for (i, t) in exits.iter().enumerate() {
            let mut s = st.clone();
            if s.assume(vec![Form::eq(which.add_const(-(i as Coef))?)]) {
                out.push((s, *t));
            }
        }
        Ok(out)
    }

    // ---------------------------------------------------------------- expressions

    fn const_kind_lin(&self, k: &ConstKind) -> Lin {
        match k {
            ConstKind::Param(i) => Lin::var(Var::Param(*i)),
            ConstKind::Len(l) => l.clone(),
        }
    }

    fn constant(&self, e: &Expr, v: &Value) -> Val {
        if let Value::Int(_) = v {
            if let Some(k) = self.consts.get(&(e.span.start, e.span.end)) {
                return Val::Int(self.const_kind_lin(k));
            }
        }
        value_of(v)
    }

    fn in_bounds(&self, g: GlobalId, idx: &Lin) -> R<Vec<Form>> {
        let len = self.array_len[g as usize]
            .clone()
            .unwrap_or_else(|| Lin::atom(IAtom::ArrLen(g)));
        Ok(vec![Form::le(idx.neg()?), Form::int_lt(idx, &len)?])
    }

    fn eval_all(&self, es: &[Expr], env: &Env<'_>, depth: u32) -> R<Cases<Vec<Val>>> {
        let mut acc: Cases<Vec<Val>> = vec![(Vec::new(), Vec::new())];
        for e in es {
            let cases = self.eval(e, env, depth)?;
            let mut next = Vec::new();
            for (c, vals) in &acc {
                for (c2, v) in &cases {
                    let mut cs = c.clone();
                    cs.extend(c2.iter().cloned());
                    let mut vs = vals.clone();
                    vs.push(v.clone());
                    next.push((cs, vs));
                }
            }
            if next.len() > MAX_PATHS {
                return Err(Abort::TooManyPaths);
            }
            acc = next;
        }
        Ok(acc)
    }

    /// The value of an expression, split into cases; cases in which evaluation fails
    /// are left out.
    fn eval(&self, e: &Expr, env: &Env<'_>, depth: u32) -> R<Cases<Val>> {
        let one = |v: Val| Ok(vec![(Vec::new(), v)]);
        match &e.kind {
            ExprKind::Const(v) if env.from_source => one(self.constant(e, v)),
            ExprKind::Const(v) if env.params.is_some() => {
                let param = env.params.and_then(|p| p.get(&(e.span.start, e.span.end)));
                one(match (param, v) {
                    (Some(&i), Value::Int(_)) => Val::Int(Lin::var(Var::Param(i))),
                    _ => value_of(v),
                })
            }
            ExprKind::Const(v) => one(value_of(v)),
            ExprKind::Local(l) => one(env.locals[*l as usize].clone()),
            ExprKind::Global(g) => match &env.globals[*g as usize] {
                GVal::Scalar(v) => one(v.clone()),
                other => unreachable!("scalar read of a non-scalar global {other:?}"),
            },
            ExprKind::ArrayGet(g, i) => {
                let bool_elems = matches!(
                    self.program.globals[*g as usize].kind,
                    GlobalKind::Array { elem: Ty::Bool, .. }
                );
                let GVal::Array(arr) = &env.globals[*g as usize] else {
                    unreachable!("array read of a non-array")
                };
                let mut out = Vec::new();
                for (c, iv) in self.eval(i, env, depth)? {
                    let idx = iv.int();
                    let bounds = self.in_bounds(*g, idx)?;
                    for (c2, v) in array_read(arr, idx, bool_elems)? {
                        let mut cs = c.clone();
                        cs.extend(bounds.iter().cloned());
                        cs.extend(c2);
                        out.push((cs, v));
                    }
                }
                Ok(prune(out))
            }
            ExprKind::MapGet(g, k) | ExprKind::MapHas(g, k) => {
                let has = matches!(e.kind, ExprKind::MapHas(..));
                let GVal::Map(m) = &env.globals[*g as usize] else {
                    unreachable!("map read of a non-map")
                };
                let mut out = Vec::new();
                for (c, kv) in self.eval(k, env, depth)? {
                    for (c2, v) in map_read(m, kv.int(), has)? {
                        let mut cs = c.clone();
                        cs.extend(c2);
                        out.push((cs, v));
                    }
                }
                Ok(prune(out))
            }
            ExprKind::ListGet(l, i) => {
                let mut out = Vec::new();
                for (c, vals) in self.eval_all(&[(**l).clone(), (**i).clone()], env, depth)? {
                    for (c2, v) in self.list_get(vals[0].list(), vals[1].int())? {
                        let mut cs = c.clone();
                        cs.extend(c2);
                        out.push((cs, v));
                    }
                }
                Ok(prune(out))
            }
            ExprKind::ListLit(items) => {
                let cases = self.eval_all(items, env, depth)?;
                Ok(cases
                    .into_iter()
                    .map(|(c, vals)| (c, Val::List(self.list_app(ListOp::Lit(vals.len()), vals))))
                    .collect())
            }
            ExprKind::Unary(op, a) => {
                let mut out = Vec::new();
                for (c, v) in self.eval(a, env, depth)? {
                    match op {
                        UnOp::Neg => {
                            for (c2, r) in int_result(v.int().neg()?)? {
                                let mut cs = c.clone();
                                cs.extend(c2);
                                out.push((cs, r));
                            }
                        }
                        UnOp::Not => out.push((c, Val::Bool(v.bool().clone().not()))),
                    }
                }
                Ok(prune(out))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, env, depth),
            ExprKind::Cond(c, a, b) => {
                let mut out = Vec::new();
                for (cc, vc) in self.eval(c, env, depth)? {
                    let f = vc.bool().clone();
                    if f != Form::False {
                        for (ca, va) in self.eval(a, env, depth)? {
                            let mut cs = cc.clone();
                            cs.push(f.clone());
                            cs.extend(ca);
                            out.push((cs, va));
                        }
                    }
                    if f != Form::True {
                        for (cb, vb) in self.eval(b, env, depth)? {
                            let mut cs = cc.clone();
                            cs.push(f.clone().not());
                            cs.extend(cb);
                            out.push((cs, vb));
                        }
                    }
                }
                Ok(prune(out))
            }
            ExprKind::Builtin(b, args) => {
                let mut out = Vec::new();
                for (c, vals) in self.eval_all(args, env, depth)? {
                    for (c2, v) in self.builtin(*b, &vals)? {
                        let mut cs = c.clone();
                        cs.extend(c2);
                        out.push((cs, v));
                    }
                }
                Ok(prune(out))
            }
            ExprKind::Call(f, args) => {
                let mut out = Vec::new();
                for (c, vals) in self.eval_all(args, env, depth)? {
                    for (c2, v) in self.call(*f, vals, depth)? {
                        let mut cs = c.clone();
                        cs.extend(c2);
                        out.push((cs, v));
                    }
                }
                Ok(prune(out))
            }
        }
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr, env: &Env<'_>, depth: u32) -> R<Cases<Val>> {
        let mut out = Vec::new();
        if matches!(op, BinOp::And | BinOp::Or) {
            let right = self.eval(b, env, depth)?;
            let total = right.len() == 1 && right[0].0.is_empty();
            for (ca, va) in self.eval(a, env, depth)? {
                let fa = va.bool().clone();
                // `a && b`: b is evaluated only when a holds (its failures too).
                let decided = if op == BinOp::And {
                    fa.clone().not()
                } else {
                    fa.clone()
                };
                if total {
                    let fb = right[0].1.bool().clone();
                    let v = if op == BinOp::And {
                        Form::and([fa, fb])
                    } else {
                        Form::or([fa, fb])
                    };
                    out.push((ca, Val::Bool(v)));
                    continue;
                }
                let mut cs = ca.clone();
                cs.push(decided.clone());
                out.push((cs, Val::Bool(Form::from_bool(op == BinOp::Or))));
                for (cb, vb) in &right {
                    let mut cs = ca.clone();
                    cs.push(decided.clone().not());
                    cs.extend(cb.iter().cloned());
                    out.push((cs, vb.clone()));
                }
            }
            return Ok(prune(out));
        }
        let left = self.eval(a, env, depth)?;
        let right = self.eval(b, env, depth)?;
        for (ca, va) in &left {
            for (cb, vb) in &right {
                let mut cs = ca.clone();
                cs.extend(cb.iter().cloned());
                for (c3, v) in self.binary_values(op, va, vb)? {
                    let mut cs = cs.clone();
                    cs.extend(c3);
                    out.push((cs, v));
                }
            }
        }
        if out.len() > MAX_PATHS {
            return Err(Abort::TooManyPaths);
        }
        Ok(prune(out))
    }

    fn binary_values(&self, op: BinOp, a: &Val, b: &Val) -> R<Cases<Val>> {
        let one = |v: Val| Ok(vec![(Vec::new(), v)]);
        match op {
            BinOp::Add => int_result(a.int().add(b.int())?),
            BinOp::Sub => int_result(a.int().sub(b.int())?),
            BinOp::Mul => {
                let (x, y) = (a.int(), b.int());
                if let Some(k) = x.as_const() {
                    if let Ok(v) = y.scale(k) {
                        return int_result(v);
                    }
                }
                if let Some(k) = y.as_const() {
                    if let Ok(v) = x.scale(k) {
                        return int_result(v);
                    }
                }
                self.abstracted();
                let mut args = vec![a.clone(), b.clone()];
                args.sort();
                // The product is unbounded in the solver: its range is the condition.
                int_result(Lin::atom(IAtom::App(Fun::Mul, args)))
            }
            BinOp::Div | BinOp::Mod => {
                let div = op == BinOp::Div;
                let (x, y) = (a.int(), b.int());
                if let Some(d) = y.as_const() {
                    if d == 0 {
                        return Ok(Vec::new());
                    }
                    if let Some(n) = x.as_const() {
                        // As the interpreter: `MIN / -1` overflows, `MIN % -1` is 0.
                        return if div {
                            int_result(Lin::constant(n / d))
                        } else {
                            one(Val::Int(Lin::constant(n % d)))
                        };
                    }
                    if let Ok(d) = i64::try_from(d) {
                        if d == 1 || d == -1 {
                            return if div {
                                int_result(x.scale(d as Coef)?)
                            } else {
                                one(Val::Int(Lin::constant(0)))
                            };
                        }
                        let atom = if div {
                            IAtom::DivC(x.clone(), d)
                        } else {
                            IAtom::ModC(x.clone(), d)
                        };
                        return one(Val::Int(Lin::atom(atom)));
                    }
                }
                self.abstracted();
                let fun = if div { Fun::Div } else { Fun::Mod };
                let mut conds = vec![Form::eq(y.clone()).not()];
                if div {
                    // `MIN / -1` overflows.
                    conds.push(Form::or([
                        Form::eq(x.add_const(-INT_MIN)?).not(),
                        Form::eq(y.add_const(1)?).not(),
                    ]));
                }
                let conds: Vec<Form> = conds.into_iter().filter(|c| *c != Form::True).collect();
                if conds.contains(&Form::False) {
                    return Ok(Vec::new());
                }
                Ok(vec![(
                    conds,
                    Val::Int(Lin::atom(IAtom::App(fun, vec![a.clone(), b.clone()]))),
                )])
            }
            BinOp::Concat => one(Val::List(
                self.list_app(ListOp::Concat, vec![a.clone(), b.clone()]),
            )),
            BinOp::Eq | BinOp::Ne => {
                let eq = match (a, b) {
                    (Val::List(x), Val::List(y)) => {
                        let f = list_eq(x, y)?;
                        if let Form::ListEq(ListT::App(..), _) | Form::ListEq(_, ListT::App(..)) =
                            &f
                        {
                            self.abstracted();
                        }
                        f
                    }
                    _ => val_eq(a, b)?,
                };
                one(Val::Bool(if op == BinOp::Eq { eq } else { eq.not() }))
            }
            BinOp::Lt => one(Val::Bool(Form::int_lt(a.int(), b.int())?)),
            BinOp::Le => one(Val::Bool(Form::int_le(a.int(), b.int())?)),
            BinOp::Gt => one(Val::Bool(Form::int_lt(b.int(), a.int())?)),
            BinOp::Ge => one(Val::Bool(Form::int_le(b.int(), a.int())?)),
            BinOp::And | BinOp::Or => unreachable!("short-circuit operators are split above"),
        }
    }

    /// A list operation as an uninterpreted function, with the simplifications that
    /// literals allow.
    fn list_app(&self, op: ListOp, args: Vec<Val>) -> ListT {
        let lit = |v: &Val| match v {
            Val::List(ListT::App(Fun::List(ListOp::Lit(_)), items)) => Some(items.clone()),
            _ => None,
        };
        match op {
            ListOp::Append => {
                if let Some(mut items) = lit(&args[0]) {
                    items.push(args[1].clone());
                    return self.list_app(ListOp::Lit(items.len()), items);
                }
            }
            ListOp::Concat => {
                if let (Some(mut xs), Some(ys)) = (lit(&args[0]), lit(&args[1])) {
                    xs.extend(ys);
                    return self.list_app(ListOp::Lit(xs.len()), xs);
                }
            }
            _ => {}
        }
        self.abstracted();
        ListT::App(Fun::List(op), args)
    }

    fn list_len(&self, l: &ListT) -> R<Lin> {
        Ok(match l {
            ListT::App(Fun::List(ListOp::Lit(n)), _) => Lin::constant(*n as Coef),
            ListT::App(Fun::List(ListOp::Append), args) => {
                self.list_len(args[0].list())?.add_const(1)?
            }
            ListT::App(Fun::List(ListOp::Concat), args) => self
                .list_len(args[0].list())?
                .add(&self.list_len(args[1].list())?)?,
            ListT::App(Fun::List(ListOp::Set), args) => self.list_len(args[0].list())?,
            _ => {
                self.abstracted();
                Lin::atom(IAtom::App(
                    Fun::List(ListOp::Len),
                    vec![Val::List(l.clone())],
                ))
            }
        })
    }

    fn list_get(&self, l: &ListT, i: &Lin) -> R<Cases<Val>> {
        if let (ListT::App(Fun::List(ListOp::Lit(n)), items), Some(k)) = (l, i.as_const()) {
            return Ok(if k >= 0 && (k as usize) < *n {
                vec![(Vec::new(), items[k as usize].clone())]
            } else {
                Vec::new()
            });
        }
        let len = self.list_len(l)?;
        self.abstracted();
        let conds = vec![Form::le(i.neg()?), Form::int_lt(i, &len)?];
        // Reading back the element just written (`l[i] = -l[i]` twice).
        if let ListT::App(Fun::List(ListOp::Set), args) = l {
            if args[1].int() == i {
                return Ok(vec![(conds, args[2].clone())]);
            }
        }
        let v = Lin::atom(IAtom::App(
            Fun::List(ListOp::Get),
            vec![Val::List(l.clone()), Val::Int(i.clone())],
        ));
        Ok(vec![(conds, Val::Int(v))])
    }

    fn list_set(&self, l: &ListT, i: &Lin, v: &Val) -> R<Cases<ListT>> {
        if let (ListT::App(Fun::List(ListOp::Lit(n)), items), Some(k)) = (l, i.as_const()) {
            return Ok(if k >= 0 && (k as usize) < *n {
                let mut items = items.clone();
                items[k as usize] = v.clone();
                vec![(Vec::new(), ListT::App(Fun::List(ListOp::Lit(*n)), items))]
            } else {
                Vec::new()
            });
        }
        let len = self.list_len(l)?;
        self.abstracted();
        let conds = vec![Form::le(i.neg()?), Form::int_lt(i, &len)?];
        let new = ListT::App(
            Fun::List(ListOp::Set),
            vec![Val::List(l.clone()), Val::Int(i.clone()), v.clone()],
        );
        Ok(vec![(conds, new)])
    }

    fn builtin(&self, b: Builtin, args: &[Val]) -> R<Cases<Val>> {
        let one = |v: Val| Ok(vec![(Vec::new(), v)]);
        match b {
            Builtin::Min | Builtin::Max => {
                let (x, y) = (args[0].int(), args[1].int());
                let le = Form::int_le(x, y)?;
                let (first, second) = if b == Builtin::Min { (x, y) } else { (y, x) };
                Ok(prune(vec![
                    (vec![le.clone()], Val::Int(first.clone())),
                    (vec![le.not()], Val::Int(second.clone())),
                ]))
            }
            Builtin::Abs => {
                let x = args[0].int();
                let nonneg = Form::le(x.neg()?);
                let mut out = vec![(vec![nonneg.clone()], Val::Int(x.clone()))];
                // `abs(MIN)` overflows.
                for (mut c, v) in int_result(x.neg()?)? {
                    c.push(nonneg.clone().not());
                    out.push((c, v));
                }
                Ok(prune(out))
            }
            Builtin::Len => one(Val::Int(self.list_len(args[0].list())?)),
            Builtin::Head | Builtin::Tail => {
                let l = args[0].list();
                if let ListT::App(Fun::List(ListOp::Lit(n)), items) = l {
                    if *n == 0 {
                        return Ok(Vec::new());
                    }
                    return one(if b == Builtin::Head {
                        items[0].clone()
                    } else {
                        Val::List(self.list_app(ListOp::Lit(n - 1), items[1..].to_vec()))
                    });
                }
                let nonempty = Form::le(Lin::constant(1).sub(&self.list_len(l)?)?);
                self.abstracted();
                let v = if b == Builtin::Head {
                    Val::Int(Lin::atom(IAtom::App(
                        Fun::List(ListOp::Head),
                        vec![args[0].clone()],
                    )))
                } else {
                    Val::List(ListT::App(Fun::List(ListOp::Tail), vec![args[0].clone()]))
                };
                Ok(vec![(vec![nonempty], v)])
            }
            Builtin::Append => one(Val::List(self.list_app(ListOp::Append, args.to_vec()))),
            Builtin::Take => one(Val::List(self.list_app(ListOp::Take, args.to_vec()))),
            Builtin::Drop => one(Val::List(self.list_app(ListOp::Drop, args.to_vec()))),
        }
    }

    fn call(&self, f: FunId, args: Vec<Val>, depth: u32) -> R<Cases<Val>> {
        let fun = &self.program.funs[f as usize];
        if self.inlinable[f as usize] {
            if depth >= MAX_INLINE_DEPTH {
                return Err(Abort::InlineTooDeep);
            }
            let mut frame = args;
            frame.extend(
                fun.code.locals[frame.len()..]
                    .iter()
                    .map(|l| value_of(&Value::zero(l.ty))),
            );
            let st = State {
                globals: Vec::new(),
                locals: [frame, Vec::new()],
                spawns: Vec::new(),
                path: Vec::new(),
                visits: Vec::new(),
            };
            let exits = self.exec(&fun.code, None, 0, 0, st, depth + 1)?;
            return Ok(exits
                .into_iter()
                .filter_map(|(s, exit)| match exit {
                    Exit::Value(v) => Some((s.path, v)),
                    _ => None,
                })
                .collect());
        }
        // A fun that loops or recurses may fail, recurse past the depth limit or never
        // end, whatever its code says: `CallOk` is always a condition.
        self.abstracted();
        let conds = vec![Form::BApp(Fun::CallOk(f), args.clone())];
        let v = app_of(fun.ret, Fun::Call(f), args);
        Ok(vec![(conds, v)])
    }
}

/// How a run of code ended.
#[derive(Clone, Debug)]
enum Exit {
    Block(BlockId),
    End,
    Value(Val),
}

struct Env<'a> {
    globals: &'a [GVal],
    locals: &'a [Val],
    /// Constants come from the program's source (and may stand for params).
    from_source: bool,
    /// Constants of an expression from elsewhere that stand for params, by span.
    params: Option<&'a HashMap<(usize, usize), u32>>,
}

fn env_of(st: &State, slot: usize) -> Env<'_> {
    Env {
        globals: &st.globals,
        locals: &st.locals[slot],
        from_source: true,
        params: None,
    }
}

fn st_drop_false(done: &mut Vec<(State, Exit)>) {
    done.retain(|(s, _)| !s.path.contains(&Form::False));
}

/// The result of a 64-bit operation of the interpreter, with the condition that it
/// does not overflow ([`no_overflow`]); no case when it certainly does.
fn int_result(r: Lin) -> R<Cases<Val>> {
    let conds = no_overflow(&r)?;
    if conds.contains(&Form::False) {
        return Ok(Vec::new());
    }
    Ok(vec![(conds, Val::Int(r))])
}

/// Drops cases whose conditions are plainly contradictory.
fn prune<T>(cases: Cases<T>) -> Cases<T> {
    cases
        .into_iter()
        .filter_map(|(c, v)| {
            let f = Form::and(c.iter().cloned());
            if f == Form::False {
                None
            } else {
                Some((c.into_iter().filter(|x| *x != Form::True).collect(), v))
            }
        })
        .collect()
}

/// A variable of the given type as a value.
pub fn var_of(ty: Ty, v: Var) -> Val {
    match ty {
        Ty::Int => Val::Int(Lin::var(v)),
        Ty::Bool => Val::Bool(Form::BVar(v)),
        Ty::List => Val::List(ListT::Var(v)),
    }
}

fn app_of(ty: Ty, f: Fun, args: Vec<Val>) -> Val {
    match ty {
        Ty::Int => Val::Int(Lin::atom(IAtom::App(f, args))),
        Ty::Bool => Val::Bool(Form::BApp(f, args)),
        Ty::List => Val::List(ListT::App(f, args)),
    }
}

/// A concrete value as a term.
pub fn value_of(v: &Value) -> Val {
    match v {
        Value::Int(n) => Val::Int(Lin::constant(*n as Coef)),
        Value::Bool(b) => Val::Bool(Form::from_bool(*b)),
        Value::List(items) => Val::List(ListT::App(
            Fun::List(ListOp::Lit(items.len())),
            items
                .iter()
                .map(|n| Val::Int(Lin::constant(*n as Coef)))
                .collect(),
        )),
    }
}

fn const_spans(e: &Expr, out: &mut Vec<(usize, usize)>) {
    e.walk(&mut |x| {
        if let ExprKind::Const(Value::Int(_)) = x.kind {
            out.push((x.span.start, x.span.end));
        }
    });
}

fn calls_in(e: &Expr, out: &mut BTreeSet<FunId>) {
    e.walk(&mut |x| {
        if let ExprKind::Call(f, _) = x.kind {
            out.insert(f);
        }
    });
}

fn reads_in(e: &Expr, locals: &mut BTreeSet<LocalId>, globals: &mut BTreeSet<GlobalId>) {
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) => {
            locals.insert(*l);
        }
        ExprKind::Global(g)
        | ExprKind::ArrayGet(g, _)
        | ExprKind::MapGet(g, _)
        | ExprKind::MapHas(g, _) => {
            globals.insert(*g);
        }
        _ => {}
    });
}

/// Strongly connected components (Tarjan, iterative), each as a list of nodes.
fn tarjan(n: usize, succ: &dyn Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, Vec<usize>, usize)> = vec![(root, succ(root), 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((v, succs, i)) = call.last_mut() {
            let v = *v;
            if *i < succs.len() {
                let w = succs[*i];
                *i += 1;
                if w >= n {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, succ(w), 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some((u, _, _)) = call.last() {
                    low[*u] = low[*u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(src: &str) -> Program {
        crate::load(src, &[]).expect("program loads")
    }

    #[test]
    fn fig1_q_has_two_transitions() {
        let src = "global int x = -2; global int z = -2;
            proc q() { if (z >= 0) { z = x; } }
            init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        assert!(ts.exact);
        assert_eq!(ts.transitions.len(), 2);
    }

    #[test]
    fn loops_are_abstracted() {
        let src = "global int x; proc q() { int i = 0; while (i < x) { i = i + 1; } x = i; }
            init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        // Unrolled twice: leaves after 0, 1 or 2 iterations, or the abstracted rest.
        let ts = exec.transition_system(0).expect("analysable");
        assert!(!ts.exact);
        assert_eq!(ts.transitions.len(), 3);
        exec.set_unroll(0);
        let ts = exec.transition_system(0).expect("analysable");
        assert!(!ts.exact);
        assert_eq!(ts.transitions.len(), 1);
    }

    /// The loop outputs of the only loop abstracted in `ts`, and its `Ok` condition.
    fn loop_apps(ts: &TransitionSystem) -> (Vec<Val>, bool) {
        let mut inputs = Vec::new();
        let mut ok = false;
        for t in &ts.transitions {
            for g in &t.state.globals {
                if let GVal::Scalar(Val::Int(l)) = g {
                    for (a, _) in &l.terms {
                        if let IAtom::App(Fun::Loop { .. }, args) = a {
                            inputs = args.clone();
                        }
                    }
                }
            }
            ok |= t.state.path.iter().any(|c| {
                matches!(
                    c,
                    Form::BApp(
                        Fun::Loop {
                            out: LoopOut::Ok,
                            ..
                        },
                        _
                    )
                )
            });
        }
        (inputs, ok)
    }

    #[test]
    fn a_loop_is_a_function_of_what_it_may_write_too() {
        // `x` is written under a condition and never read by the loop: after the
        // loop it still depends on the `x` before it.
        let src = "global int x; global int n;
            proc q() { for i in 0..n { if (i > 5) { x = 0; } } }
            init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        exec.set_unroll(0);
        let ts = exec.transition_system(0).expect("analysable");
        let (inputs, ok) = loop_apps(&ts);
        assert!(
            inputs.contains(&Val::Int(Lin::var(Var::Global(0)))),
            "{inputs:?}"
        );
        assert!(ok, "the abstracted loop may not end normally");
    }

    #[test]
    fn loops_with_constant_bounds_are_unrolled_exactly() {
        let src = "global int x = 1; global int y;
            proc q() { for i in 0..5 { if (i > 5) { x = 0; } } y = x; }
            init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        assert!(ts.exact);
        assert_eq!(ts.transitions.len(), 1);
        let GVal::Scalar(Val::Int(y)) = &ts.transitions[0].state.globals[1] else {
            panic!("y is an int")
        };
        assert_eq!(*y, Lin::var(Var::Global(0)));
    }

    #[test]
    fn a_loop_that_never_ends_on_constants_is_abstracted_with_ok() {
        let src = "global int x; proc q() { while (true) { x = x; } } init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        assert!(!ts.exact);
        assert!(ts
            .transitions
            .iter()
            .all(|t| t.state.path.iter().any(|c| matches!(
                c,
                Form::BApp(
                    Fun::Loop {
                        out: LoopOut::Ok,
                        ..
                    },
                    _
                )
            ))));
    }

    #[test]
    fn calls_of_looping_funs_may_fail() {
        let src = "global int x;
            fun f(int n) -> int { int s = 0; while (s < n) { s = s + 1; } return s; }
            proc q() { x = f(x); } init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        assert_eq!(ts.transitions.len(), 1);
        assert!(ts.transitions[0]
            .state
            .path
            .iter()
            .any(|c| matches!(c, Form::BApp(Fun::CallOk(0), _))));
    }

    /// The path conditions of the block of `src`'s only proc, one list per path.
    fn paths(src: &str) -> Vec<Vec<Form>> {
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        ts.transitions.into_iter().map(|t| t.state.path).collect()
    }

    #[test]
    fn arithmetic_carries_its_no_overflow_condition() {
        let x = || Lin::var(Var::Global(0));
        let y = || Lin::var(Var::Global(1));
        let at_most = |l: Lin, k: Coef| Form::le(l.add_const(-k).expect("small"));
        let at_least =
            |l: Lin, k: Coef| Form::le(l.neg().and_then(|n| n.add_const(k)).expect("small"));
        let src = |body: &str| {
            format!("global int x; global int y; proc q() {{ {body} }} init {{ spawn q(); }}")
        };
        // Only the side that can be exceeded.
        assert_eq!(paths(&src("x = x + 1;")), [vec![at_most(x(), INT_MAX - 1)]]);
        assert_eq!(
            paths(&src("x = x - 1;")),
            [vec![at_least(x(), INT_MIN + 1)]]
        );
        assert_eq!(paths(&src("x = -x;")), [vec![at_least(x(), INT_MIN + 1)]]);
        let sum = x().add(&y()).expect("small");
        assert_eq!(
            paths(&src("x = x + y;")),
            [vec![at_most(sum.clone(), INT_MAX), at_least(sum, INT_MIN)]]
        );
        let twice = x().scale(2).expect("small");
        assert_eq!(
            paths(&src("x = 2 * x;")),
            [vec![
                at_most(twice.clone(), INT_MAX),
                at_least(twice, INT_MIN)
            ]]
        );
        // abs(MIN) overflows; x / -1 is -x.
        let mut abs = paths(&src("y = abs(x);"));
        abs.sort();
        assert_eq!(
            abs,
            [
                vec![at_least(x(), INT_MIN + 1), at_least(x(), 0).not()],
                vec![at_least(x(), 0)],
            ]
        );
        assert_eq!(
            paths(&src("x = x / -1;")),
            [vec![at_least(x(), INT_MIN + 1)]]
        );
        // Remainders never overflow, not even MIN % -1.
        assert_eq!(paths(&src("x = x % -1;")), [Vec::<Form>::new()]);
        assert_eq!(
            paths(&src("x = -9223372036854775807 - 1; y = x % -1;")),
            [Vec::<Form>::new()]
        );
        // Constants that overflow leave no path; so does MIN / -1.
        assert!(paths(&src("x = 9223372036854775807 + 1;")).is_empty());
        assert!(paths(&src("x = -9223372036854775807 - 1; y = x / -1;")).is_empty());
        // Quotients of two variables: not by zero, and not MIN / -1.
        let quotient = paths(&src("x = x / y;"));
        assert_eq!(quotient.len(), 1);
        assert!(quotient[0].contains(&Form::eq(y()).not()));
        assert!(quotient[0].contains(&Form::or([
            Form::eq(x().add_const(-INT_MIN).expect("small")).not(),
            Form::eq(y().add_const(1).expect("small")).not(),
        ])));
    }

    #[test]
    fn params_are_free() {
        let src = "param N = 3; global int x; proc q() { x = x + N; } init { spawn q(); }";
        let p = load(src);
        let exec = Exec::new(&p, Some(src));
        let ts = exec.transition_system(0).expect("analysable");
        let GVal::Scalar(Val::Int(x)) = &ts.transitions[0].state.globals[0] else {
            panic!("x is an int")
        };
        assert!(x.terms.iter().any(|(a, _)| *a == IAtom::Var(Var::Param(0))));
    }
}
