//! The checked program: names resolved, types known, every `proc` and `fun` compiled
//! to a flat list of instructions, and every `proc` split into atomic blocks.
//!
//! A flat instruction list (rather than the tree) is what lets a block start in the
//! middle of a loop body, right after an `await` or `yield`.

use crate::ast::{BinOp, Span, UnOp};
use crate::value::{Ty, Value};
use std::collections::BTreeSet;

/// The largest array the checker accepts (elements are explored states, not storage).
pub const MAX_ARRAY_LEN: i64 = 1 << 20;

/// The longest list a program may build: a longer list literal is a load error, and
/// a `++` or `append` that would make one a runtime error. Without it, a block that
/// doubles a list in a loop (`l = l ++ l`, forty times) ended the run by exhausting
/// memory, with no schedule to show for it.
pub const MAX_LIST_LEN: i64 = 1 << 20;

pub type GlobalId = u32;
pub type LocalId = u32;
pub type ProcId = u32;
pub type FunId = u32;
/// Index into [`Program::blocks`].
pub type BlockId = u32;
/// Index into a [`Code`]'s instructions.
pub type Pc = u32;

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub params: Vec<Param>,
    pub globals: Vec<Global>,
    pub procs: Vec<Proc>,
    pub funs: Vec<Fun>,
    pub blocks: Vec<Block>,
    pub init: Code,
    /// The read, write and transitive write sets of every block, indexed by block
    /// id ([`crate::analysis::write_sets`]).
    pub sets: Vec<BlockSets>,
}

/// A `param` with its value after `-D` overrides.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub value: i64,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalKind {
    Scalar(Ty),
    Array { elem: Ty, len: usize },
    Map,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub kind: GlobalKind,
    /// Initial contents: one value for a scalar, `len` for an array, none for a map.
    pub init: Vec<Value>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
    /// Introduced by the compiler (the bound of a `for`), not by the user.
    pub hidden: bool,
}

/// Compiled code of a `proc`, a `fun` or `init`, with its frame layout.
#[derive(Clone, Debug, Default)]
pub struct Code {
    pub instrs: Vec<Instr>,
    /// Every local of the frame; the parameters come first.
    pub locals: Vec<Local>,
}

#[derive(Clone, Debug)]
pub struct Proc {
    pub name: String,
    pub params: Vec<Ty>,
    pub code: Code,
    /// The entry block.
    pub entry: BlockId,
    /// The globals its process, or any process it may spawn, may ever read, in
    /// increasing order ([`crate::analysis::overwrites::proc_reads`]).
    pub reads: Vec<GlobalId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Fun {
    pub name: String,
    pub params: Vec<Ty>,
    pub ret: Ty,
    pub code: Code,
    pub span: Span,
}

/// An atomic block: the code from an entry point to the next `await`, `yield` or end.
#[derive(Clone, Debug)]
pub struct Block {
    /// The stable id of docs/language.md: `q`, `q#1`, `q#2`, …
    pub name: String,
    pub proc: ProcId,
    /// Where the block starts in its proc's code.
    pub pc: Pc,
    /// The `await` condition that must hold for the block to run.
    pub guard: Option<Expr>,
    /// The locals whose values may still be read from this entry point on (guard included),
    /// in increasing order: the only locals that matter when comparing states.
    pub live: Vec<LocalId>,
    /// The scalar globals the block surely overwrites before reading them, in
    /// increasing order ([`crate::analysis::overwrites::overwrites`]).
    pub overwrites: Vec<GlobalId>,
    /// The `await`/`yield` that opens the block, or the proc's name for an entry block.
    pub span: Span,
}

/// What a block may read and write ([`Program::sets`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockSets {
    /// The globals the block's code (its `await` guard included) may read, syntactically.
    pub reads: BTreeSet<GlobalId>,
    /// The globals it may write, syntactically.
    pub writes: BTreeSet<GlobalId>,
    /// The globals the block's `await` guard reads (a subset of `reads`): what a write
    /// must touch to enable or disable the block.
    pub guard_reads: BTreeSet<GlobalId>,
    /// `W(b)` of the CDPOR paper: every global that may be written in any
    /// continuation of the point where the block is enabled.
    pub may_write: BTreeSet<GlobalId>,
    /// Blocks the process may continue with after this one.
    pub next: BTreeSet<BlockId>,
    /// Procs this block may spawn.
    pub spawns: BTreeSet<ProcId>,
}

#[derive(Clone, Debug)]
pub struct Instr {
    pub kind: InstrKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum InstrKind {
    Assign(Place, Expr),
    Jump(Pc),
    /// Jump when the condition is false; fall through otherwise.
    JumpUnless(Expr, Pc),
    Spawn(ProcId, Vec<Expr>),
    Assert(Expr, Option<String>),
    /// End the block; the process continues with the given (guarded) block.
    Await(BlockId),
    /// End the block; the process continues with the given block.
    Yield(BlockId),
    /// End the process (a `proc`), or return a value (a `fun`).
    Return(Option<Expr>),
}

impl InstrKind {
    /// Calls `f` on every expression of the instruction (places' indices included),
    /// not on their sub-expressions ([`Expr::walk`] visits those).
    pub fn for_each_expr(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            InstrKind::Assign(place, e) => {
                f(e);
                match place {
                    Place::ArrayElem(_, i)
                    | Place::MapElem(_, i)
                    | Place::GlobalListElem(_, i)
                    | Place::LocalListElem(_, i) => f(i),
                    Place::Global(_) | Place::Local(_) => {}
                }
            }
            InstrKind::JumpUnless(c, _) | InstrKind::Assert(c, _) => f(c),
            InstrKind::Spawn(_, args) => args.iter().for_each(&mut *f),
            InstrKind::Return(Some(e)) => f(e),
            InstrKind::Jump(_)
            | InstrKind::Await(_)
            | InstrKind::Yield(_)
            | InstrKind::Return(None) => {}
        }
    }
}

#[derive(Clone, Debug)]
pub enum Place {
    Global(GlobalId),
    Local(LocalId),
    ArrayElem(GlobalId, Expr),
    MapElem(GlobalId, Expr),
    GlobalListElem(GlobalId, Expr),
    LocalListElem(LocalId, Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

impl Expr {
    /// The expressions this one is made of, in evaluation order (a call's arguments;
    /// a `fun`'s body is not part of the expression). The one place that knows the
    /// shape of every [`ExprKind`]: every walk over expressions goes through it.
    pub fn operands(&self) -> impl Iterator<Item = &Expr> {
        let none = [None, None, None];
        let (fixed, items): ([Option<&Expr>; 3], &[Expr]) = match &self.kind {
            ExprKind::Const(_) | ExprKind::Global(_) | ExprKind::Local(_) => (none, &[]),
            ExprKind::ArrayGet(_, i) | ExprKind::MapGet(_, i) | ExprKind::MapHas(_, i) => {
                ([Some(i), None, None], &[])
            }
            ExprKind::Unary(_, a) => ([Some(a), None, None], &[]),
            ExprKind::ListGet(a, b) | ExprKind::Binary(_, a, b) => ([Some(a), Some(b), None], &[]),
            ExprKind::Cond(c, a, b) => ([Some(c), Some(a), Some(b)], &[]),
            ExprKind::ListLit(items) | ExprKind::Builtin(_, items) | ExprKind::Call(_, items) => {
                (none, items)
            }
        };
        fixed.into_iter().flatten().chain(items)
    }

    /// Calls `f` on this expression, then on its operands' sub-expressions, in
    /// evaluation order.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        for operand in self.operands() {
            operand.walk(f);
        }
    }

    /// Adds the globals the expression reads to `out` (a `fun` reads none).
    pub fn globals_read(&self, out: &mut BTreeSet<GlobalId>) {
        self.walk(&mut |x| match &x.kind {
            ExprKind::Global(g)
            | ExprKind::ArrayGet(g, _)
            | ExprKind::MapGet(g, _)
            | ExprKind::MapHas(g, _) => {
                out.insert(*g);
            }
            _ => {}
        });
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Const(Value),
    /// A scalar or list global.
    Global(GlobalId),
    Local(LocalId),
    ArrayGet(GlobalId, Box<Expr>),
    MapGet(GlobalId, Box<Expr>),
    MapHas(GlobalId, Box<Expr>),
    ListGet(Box<Expr>, Box<Expr>),
    ListLit(Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Call(FunId, Vec<Expr>),
}

/// The builtin functions on values (`has` is [`ExprKind::MapHas`], `len` of an array a constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Len,
    Head,
    Tail,
    Append,
    Take,
    Drop,
    Min,
    Max,
    Abs,
}

impl Builtin {
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Len => "len",
            Builtin::Head => "head",
            Builtin::Tail => "tail",
            Builtin::Append => "append",
            Builtin::Take => "take",
            Builtin::Drop => "drop",
            Builtin::Min => "min",
            Builtin::Max => "max",
            Builtin::Abs => "abs",
        }
    }
}

impl Program {
    pub fn proc_by_name(&self, name: &str) -> Option<ProcId> {
        self.procs
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as ProcId)
    }

    pub fn block_by_name(&self, name: &str) -> Option<BlockId> {
        self.blocks
            .iter()
            .position(|b| b.name == name)
            .map(|i| i as BlockId)
    }

    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals
            .iter()
            .position(|g| g.name == name)
            .map(|i| i as GlobalId)
    }

    /// The pcs a block may execute: from its start to the next `await`, `yield` or end.
    pub fn block_pcs(&self, block: BlockId) -> BTreeSet<Pc> {
        let b = &self.blocks[block as usize];
        let code = &self.procs[b.proc as usize].code;
        let mut seen = BTreeSet::new();
        let mut stack = vec![b.pc];
        while let Some(pc) = stack.pop() {
            if pc as usize >= code.instrs.len() || !seen.insert(pc) {
                continue;
            }
            match &code.instrs[pc as usize].kind {
                InstrKind::Jump(t) => stack.push(*t),
                InstrKind::JumpUnless(_, t) => {
                    stack.push(pc + 1);
                    stack.push(*t);
                }
                InstrKind::Await(_) | InstrKind::Yield(_) | InstrKind::Return(_) => {}
                InstrKind::Assign(..) | InstrKind::Spawn(..) | InstrKind::Assert(..) => {
                    stack.push(pc + 1)
                }
            }
        }
        seen
    }

    /// The blocks of one proc, entry block first, then in source order.
    pub fn blocks_of(&self, proc: ProcId) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.blocks.len() as BlockId).filter(move |&b| self.blocks[b as usize].proc == proc)
    }
}
