//! Symbolic execution of blocks: each block as a deterministic transition system
//! (CDPOR paper, Sec. 4.1), for the SMT queries of ic-synth and for
//! [`crate::analysis::ranges`].
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
//!   "integer overflow" (`%` never overflows there: `i64::MIN % -1` is 0). Likewise
//!   every `++` and `append` carries the condition that the list it makes has at
//!   most `MAX_LIST_LEN` elements ([`list_fits`]).
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
//!
//! The executor's files, each one concept:
//!
//! - `term.rs`: the terms and formulas states are made of, with their smart
//!   constructors; `visit.rs`: walking them ("does this term mention …").
//! - `state.rs`: symbolic states and what a block run produces.
//! - `params.rs`: what the executor learns of the program's source once, so that
//!   `param`s (replaced by their values in the checked program) are free variables.
//! - `paths.rs`: running flat code path by path (assignments, branches, spawns,
//!   assertions, block ends).
//! - `loops.rs`: the loops inside blocks, found once per proc, and the abstraction
//!   of the rest of a loop (Def. 7).
//! - `eval.rs`: expressions, split into cases, with their failure conditions.
//! - `calls.rs`: builtins (list operations as uninterpreted functions) and `fun`
//!   calls, inlined or abstracted.

mod calls;
mod eval;
mod loops;
mod params;
mod paths;
mod state;
pub mod term;
#[cfg(test)]
mod tests;
pub mod visit;

use crate::interp::Next;
use crate::ir::{BlockId, Expr, GlobalId, GlobalKind, LocalId, ProcId, Program};
use eval::{env_of, Env};
use loops::Loops;
use params::ConstKind;
use paths::Exit;
pub use state::*;
use std::cell::Cell;
use std::collections::HashMap;
pub use term::*;
pub use visit::*;

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
/// Nodes a value may have ([`within_budget`]: what a block stores, what an inlined
/// `fun` takes and returns, what the rest of a loop is abstracted over) before the
/// block is given up ([`Abort::TermTooLarge`]). Terms are trees: `l = l ++ l` in a
/// loop of 40 turns, unrolled, doubles the term of `l` at each turn, and ic-synth ran
/// out of memory on it (and on a generated program whose list writes copied a list
/// into itself, 1,024 paths of such states, 24 GB). The synthesis of `examples/` and
/// `benches/programs/` is unchanged with this bound (the largest value their blocks
/// store: 102 nodes, `ms_shared.ic`, literal lists counted as one).
pub const MAX_TERM: usize = 512;

/// Why a block has no transition system here. Callers treat the block as
/// unanalysable (dependent on everything), which is sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Abort {
    TooManyPaths,
    TooLarge,
    InlineTooDeep,
    /// A value past [`MAX_TERM`].
    TermTooLarge,
}

impl std::fmt::Display for Abort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Abort::TooManyPaths => "too many paths",
            Abort::TooLarge => "arithmetic coefficients too large",
            Abort::InlineTooDeep => "fun calls nested too deep to inline",
            Abort::TermTooLarge => "terms too large",
        })
    }
}

impl From<TooLarge> for Abort {
    fn from(_: TooLarge) -> Self {
        Abort::TooLarge
    }
}

/// `Err` if `terms` together are past [`MAX_TERM`] nodes, counted as [`Visit`] walks
/// them, a literal list with its elements (constants are no nodes of their own, and
/// `[1] ++ [1]` folds into one literal): the block is given up, as it is past
/// [`MAX_PATHS`] paths. Asked of what a block stores, what an inlined `fun` takes and
/// returns, and what the rest of a loop is abstracted over: every way a term can be
/// copied into a larger one.
fn within_budget<'t>(terms: impl IntoIterator<Item = &'t dyn Visit>) -> Analysed<()> {
    let mut nodes = 0;
    for term in terms {
        term.visit(&mut |node| {
            nodes += match node {
                Node::Fun(Fun::List(ListOp::Lit(elements))) => 1 + elements,
                _ => 1,
            }
        });
    }
    match nodes > MAX_TERM {
        true => Err(Abort::TermTooLarge),
        false => Ok(()),
    }
}

/// What a step of the symbolic execution gives, unless the block is beyond it.
type Analysed<T> = Result<T, Abort>;
/// Alternatives: each a list of conditions (a conjunction) and a result.
type Cases<T> = Vec<(Vec<Form>, T)>;

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
                    GlobalKind::Scalar(ty) => GlobalVal::Scalar(var_of(ty, Var::Global(i))),
                    GlobalKind::Array { .. } => GlobalVal::Array(ArrVal {
                        base: ArrBase::Init(i),
                        log: Vec::new(),
                    }),
                    GlobalKind::Map => GlobalVal::Map(MapVal {
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
    pub fn guard(
        &self,
        block: BlockId,
        slot: Slot,
        st: &State,
    ) -> Analysed<Vec<(Vec<Form>, Form)>> {
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
    pub fn enabled(&self, block: BlockId, slot: Slot, st: &State) -> Analysed<Vec<State>> {
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
    pub fn run_block(&self, block: BlockId, slot: Slot, st: State) -> Analysed<Vec<Outcome>> {
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

    /// The block alone, from the state before it, guard included.
    pub fn transition_system(&self, block: BlockId) -> Analysed<TransitionSystem> {
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
        globals: &[GlobalVal],
        locals: &[Val],
    ) -> Analysed<Vec<(Vec<Form>, Val)>> {
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
        globals: &[GlobalVal],
        locals: &[Val],
        params: &HashMap<(usize, usize), u32>,
    ) -> Analysed<Vec<(Vec<Form>, Val)>> {
        let env = Env {
            globals,
            locals,
            from_source: false,
            params: Some(params),
        };
        self.eval(e, &env, 0)
    }
}
