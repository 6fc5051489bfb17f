//! The checked program: names resolved, types known, every `proc` and `fun` compiled
//! to a flat list of instructions, and every `proc` split into atomic blocks.
//!
//! A flat instruction list (rather than the tree) is what lets a block start in the
//! middle of a loop body, right after an `await` or `yield`.

use crate::ast::{BinOp, Span, UnOp};
use crate::value::{Ty, Value};

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
    /// increasing order ([`crate::overwrites::proc_reads`]).
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
    /// increasing order ([`crate::overwrites::overwrites`]).
    pub overwrites: Vec<GlobalId>,
    /// The `await`/`yield` that opens the block, or the proc's name for an entry block.
    pub span: Span,
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
    /// a `fun`'s body is not part of the expression).
    pub fn operands(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Const(_) | ExprKind::Global(_) | ExprKind::Local(_) => vec![],
            ExprKind::ArrayGet(_, i) | ExprKind::MapGet(_, i) | ExprKind::MapHas(_, i) => vec![i],
            ExprKind::Unary(_, a) => vec![a],
            ExprKind::ListGet(a, b) | ExprKind::Binary(_, a, b) => vec![a, b],
            ExprKind::Cond(c, a, b) => vec![c, a, b],
            ExprKind::ListLit(items) | ExprKind::Builtin(_, items) | ExprKind::Call(_, items) => {
                items.iter().collect()
            }
        }
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

    /// The blocks of one proc, entry block first, then in source order.
    pub fn blocks_of(&self, proc: ProcId) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.blocks.len() as BlockId).filter(move |&b| self.blocks[b as usize].proc == proc)
    }
}
