//! The `ics.json` format (version `ic-synth/1`, docs/ics-format.md): independence
//! constraints of block pairs and write sets of blocks, and its loading against a
//! program.
//!
//! Constraints are expressions of the language. In the constraints of a pair
//! `(a, b)`, a local of block `a` is written plainly and a local of block `b` with a
//! prime (`v == v'`); globals and `param`s are plain. [`Ics::resolve`] parses every
//! constraint with [`crate::parser::parse_expr`] and resolves its names against the
//! program; [`Constraint::holds`] evaluates it on a concrete state. Nothing here
//! needs an SMT solver.

use crate::ast::{self, BinOp, Span, UnOp};
use crate::ir::{
    BlockId, Builtin, Expr, ExprKind, GlobalId, GlobalKind, LocalId, Program, MAX_LIST_LEN,
};
use crate::memory::{Loc, Memory};
use crate::value::{Ty, Value};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

/// The value of the `format` field.
pub const FORMAT: &str = "ic-synth/1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ics {
    pub format: String,
    pub program: ProgramRef,
    pub blocks: Vec<BlockEntry>,
    pub pairs: Vec<PairEntry>,
    pub stats: Stats,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramRef {
    /// SHA-256 of the program's source text, lowercase hex.
    pub sha256: String,
    pub file: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockEntry {
    pub id: String,
    pub proc: String,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    /// `W(b)` of the CDPOR paper.
    pub may_write: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairEntry {
    pub a: String,
    pub b: String,
    /// The constraints are necessary as well as sufficient.
    pub exact: bool,
    /// A disjunction: the pair commutes where one of them holds.
    pub constraints: Vec<String>,
    /// Why the result is not exact (abstraction, timeout, …), when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub pairs: usize,
    pub smt_ms: u64,
    #[serde(default)]
    pub solver_calls: u64,
    /// Pairs whose synthesis was cut by the timeout.
    #[serde(default)]
    pub timeouts: usize,
}

/// Why an `ics.json` cannot be used with a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IcsError(pub String);

impl fmt::Display for IcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IcsError {}

impl Ics {
    /// Reads an `ics.json`. Its `format` (the format version) is checked before
    /// anything else, so that a file of another version is refused as such rather
    /// than for a field it has or lacks.
    pub fn from_json(text: &str) -> Result<Ics, IcsError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| IcsError(format!("not an ics.json: {e}")))?;
        match value.get("format") {
            Some(serde_json::Value::String(f)) if f == FORMAT => {}
            Some(serde_json::Value::String(f)) => {
                return Err(IcsError(format!(
                    "unsupported ics.json format `{f}`: this version reads `{FORMAT}` only; \
                     make the file again with this version's `ic-synth`"
                )))
            }
            Some(other) => {
                return Err(IcsError(format!(
                    "not an ics.json: `format` is {other}, expected \"{FORMAT}\""
                )))
            }
            None if value.is_object() => {
                return Err(IcsError(format!(
                    "not an ics.json: no `format` field (expected \"{FORMAT}\")"
                )))
            }
            None => {
                return Err(IcsError(
                    "not an ics.json: expected a JSON object".to_string(),
                ))
            }
        }
        serde_json::from_value(value).map_err(|e| IcsError(format!("not an ics.json: {e}")))
    }

    /// Whether the file was made for this source text.
    pub fn matches_source(&self, source: &str) -> bool {
        self.program
            .sha256
            .eq_ignore_ascii_case(&sha256_hex(source.as_bytes()))
    }

    /// Parses and resolves every constraint and write set against the program (after
    /// its `-D` overrides: `param`s in constraints take the program's values).
    pub fn resolve(&self, program: &Program) -> Result<ResolvedIcs, IcsError> {
        let block = |name: &str| {
            program
                .block_by_name(name)
                .ok_or_else(|| IcsError(format!("unknown block `{name}`")))
        };
        let global = |name: &str| {
            program
                .global_by_name(name)
                .ok_or_else(|| IcsError(format!("unknown global `{name}`")))
        };
        let n = program.blocks.len();
        let mut may_write = vec![None; n];
        for b in &self.blocks {
            let id = block(&b.id)?;
            let set = b
                .may_write
                .iter()
                .map(|g| global(g))
                .collect::<Result<BTreeSet<_>, _>>()?;
            may_write[id as usize] = Some(set);
        }
        let mut pairs = HashMap::new();
        for p in &self.pairs {
            let (a, b) = (block(&p.a)?, block(&p.b)?);
            let constraints = p
                .constraints
                .iter()
                .map(|text| {
                    Constraint::parse(program, a, b, text).map_err(|e| {
                        IcsError(format!("constraint `{text}` of ({}, {}): {e}", p.a, p.b))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            pairs.insert(
                (a, b),
                ResolvedPair {
                    a,
                    b,
                    exact: p.exact,
                    constraints,
                },
            );
        }
        Ok(ResolvedIcs { may_write, pairs })
    }
}

/// An `ics.json` resolved against a program.
#[derive(Clone, Debug, Default)]
pub struct ResolvedIcs {
    /// `W(b)` per block; `None` for a block the file does not list (treat as "writes
    /// everything").
    pub may_write: Vec<Option<BTreeSet<GlobalId>>>,
    pairs: HashMap<(BlockId, BlockId), ResolvedPair>,
}

#[derive(Clone, Debug)]
pub struct ResolvedPair {
    /// The block whose locals are written plainly.
    pub a: BlockId,
    /// The block whose locals are primed.
    pub b: BlockId,
    pub exact: bool,
    pub constraints: Vec<Constraint>,
}

impl ResolvedIcs {
    /// The pair of two blocks in either order, and whether it is stored swapped
    /// (`(y, x)` for a question about `(x, y)`).
    pub fn pair(&self, x: BlockId, y: BlockId) -> Option<(&ResolvedPair, bool)> {
        if let Some(p) = self.pairs.get(&(x, y)) {
            return Some((p, false));
        }
        self.pairs.get(&(y, x)).map(|p| (p, true))
    }

    /// The first constraint that holds for a process at block `x` with locals
    /// `x_locals` and another at block `y` with `y_locals`, in memory `mem`.
    pub fn holding(
        &self,
        program: &Program,
        mem: &Memory,
        x: BlockId,
        x_locals: &[Value],
        y: BlockId,
        y_locals: &[Value],
    ) -> Option<&Constraint> {
        let (pair, swapped) = self.pair(x, y)?;
        let (la, lb) = if swapped {
            (y_locals, x_locals)
        } else {
            (x_locals, y_locals)
        };
        pair.constraints
            .iter()
            .find(|c| c.holds(program, mem, la, lb))
    }
}

/// One constraint, resolved: an expression of the checked language over a frame
/// made of the locals of `a` followed by the locals of `b`.
#[derive(Clone, Debug)]
pub struct Constraint {
    pub text: String,
    pub expr: Expr,
    /// How many locals the first block's proc has: locals from here on are `b`'s.
    pub split: u32,
    /// `G(C)`: the globals the constraint reads.
    pub globals: BTreeSet<GlobalId>,
}

impl Constraint {
    /// Parses and resolves a constraint of the pair `(a, b)`.
    pub fn parse(
        program: &Program,
        a: BlockId,
        b: BlockId,
        text: &str,
    ) -> Result<Constraint, String> {
        let ast = crate::parser::parse_expr(text).map_err(|d| match d.span {
            Some(s) => format!("{} at column {}", d.message, s.start + 1),
            None => d.message,
        })?;
        let r = Resolver::new(program, a, b);
        let expr = r.expr(&ast)?;
        if expr.ty != Ty::Bool {
            return Err(format!("a constraint is a bool, this is {}", expr.ty));
        }
        let mut globals = BTreeSet::new();
        expr.globals_read(&mut globals);
        Ok(Constraint {
            text: text.to_string(),
            expr,
            split: r.split,
            globals,
        })
    }

    /// Where the constraint names a `param`: the spans (in its text) of the
    /// constants the names were resolved to, with the param's index. The SMT encoding
    /// keeps those params symbolic, as synthesis does.
    pub fn param_spans(&self, program: &Program, a: BlockId) -> HashMap<(usize, usize), u32> {
        let mut out = HashMap::new();
        let Ok(ast) = crate::parser::parse_expr(&self.text) else {
            return out;
        };
        let mut visit = |e: &ast::Expr| {
            if let ast::ExprKind::Var(v) = &e.kind {
                // The resolver's order: primed and plain locals, globals, params.
                let param = !v.name.ends_with('\'')
                    && local_by_name(program, a, &v.name).is_err()
                    && program.global_by_name(&v.name).is_none();
                if let Some(i) = program.params.iter().position(|p| p.name == v.name) {
                    if param {
                        out.insert((e.span.start, e.span.end), i as u32);
                    }
                }
            }
        };
        walk_ast(&ast, &mut visit);
        out
    }

    /// Evaluates the constraint; an evaluation that fails (index out of range, …)
    /// counts as "does not hold".
    pub fn holds(&self, program: &Program, mem: &Memory, a: &[Value], b: &[Value]) -> bool {
        let ev = Eval {
            program,
            mem,
            a,
            b,
            split: self.split,
            reads: None,
        };
        matches!(ev.eval(&self.expr), Some(Value::Bool(true)))
    }

    /// Where the constraint holds in `mem`, the locations its evaluation read there
    /// (sorted, deduplicated): in any memory that has the same values at those
    /// locations, it reads the same ones and holds.
    pub fn holds_reading(
        &self,
        program: &Program,
        mem: &Memory,
        a: &[Value],
        b: &[Value],
    ) -> Option<Vec<Loc>> {
        let reads = RefCell::new(Vec::new());
        let ev = Eval {
            program,
            mem,
            a,
            b,
            split: self.split,
            reads: Some(&reads),
        };
        matches!(ev.eval(&self.expr), Some(Value::Bool(true))).then(|| {
            let mut reads = reads.into_inner();
            reads.sort_unstable();
            reads.dedup();
            reads
        })
    }
}

/// The local a name means in a constraint about `block`: the one of that name live at
/// the block, or the only one of that name in the block's proc.
pub fn local_by_name(
    program: &Program,
    block: BlockId,
    name: &str,
) -> Result<(LocalId, Ty), String> {
    let b = &program.blocks[block as usize];
    let code = &program.procs[b.proc as usize].code;
    let candidates: Vec<LocalId> = (0..code.locals.len() as LocalId)
        .filter(|l| code.locals[*l as usize].name == name)
        .collect();
    let live: Vec<LocalId> = candidates
        .iter()
        .copied()
        .filter(|l| b.live.contains(l))
        .collect();
    let pick = match (live.as_slice(), candidates.as_slice()) {
        ([one], _) => *one,
        ([], [one]) => *one,
        ([], []) => return Err(format!("block `{}` has no local `{name}`", b.name)),
        _ => {
            return Err(format!(
                "the name `{name}` is ambiguous in block `{}`",
                b.name
            ))
        }
    };
    Ok((pick, code.locals[pick as usize].ty))
}

struct Resolver<'p> {
    program: &'p Program,
    a: BlockId,
    b: BlockId,
    split: u32,
}

impl<'p> Resolver<'p> {
    fn new(program: &'p Program, a: BlockId, b: BlockId) -> Self {
        let pa = program.blocks[a as usize].proc;
        let split = program.procs[pa as usize].code.locals.len() as u32;
        Resolver {
            program,
            a,
            b,
            split,
        }
    }

    fn mk(kind: ExprKind, ty: Ty, span: Span) -> Expr {
        Expr { kind, ty, span }
    }

    fn expect(&self, e: &ast::Expr, ty: Ty) -> Result<Expr, String> {
        let x = self.expr(e)?;
        if x.ty != ty {
            return Err(format!("expected {ty}, found {}", x.ty));
        }
        Ok(x)
    }

    fn expr(&self, e: &ast::Expr) -> Result<Expr, String> {
        let span = e.span;
        Ok(match &e.kind {
            ast::ExprKind::Int(n) => Self::mk(ExprKind::Const(Value::Int(*n)), Ty::Int, span),
            ast::ExprKind::Bool(b) => Self::mk(ExprKind::Const(Value::Bool(*b)), Ty::Bool, span),
            ast::ExprKind::Var(v) => self.var(&v.name, span)?,
            ast::ExprKind::List(items) => {
                let items = items
                    .iter()
                    .map(|i| self.expect(i, Ty::Int))
                    .collect::<Result<_, _>>()?;
                Self::mk(ExprKind::ListLit(items), Ty::List, span)
            }
            ast::ExprKind::Index(base, i) => {
                let i = Box::new(self.expect(i, Ty::Int)?);
                if let ast::ExprKind::Var(v) = &base.kind {
                    if let Some(g) = self.program.global_by_name(&v.name) {
                        match self.program.globals[g as usize].kind {
                            GlobalKind::Array { elem, .. } => {
                                return Ok(Self::mk(ExprKind::ArrayGet(g, i), elem, span))
                            }
                            GlobalKind::Map => {
                                return Ok(Self::mk(ExprKind::MapGet(g, i), Ty::Int, span))
                            }
                            GlobalKind::Scalar(_) => {}
                        }
                    }
                }
                let l = self.expect(base, Ty::List)?;
                Self::mk(ExprKind::ListGet(Box::new(l), i), Ty::Int, span)
            }
            ast::ExprKind::Call(f, args) => self.call(&f.name, args, span)?,
            ast::ExprKind::Unary(op, a) => {
                let ty = if *op == UnOp::Neg { Ty::Int } else { Ty::Bool };
                let a = self.expect(a, ty)?;
                Self::mk(ExprKind::Unary(*op, Box::new(a)), ty, span)
            }
            ast::ExprKind::Binary(op, l, r) => {
                let (operand, result) = match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                        (Some(Ty::Int), Ty::Int)
                    }
                    BinOp::Concat => (Some(Ty::List), Ty::List),
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Some(Ty::Int), Ty::Bool),
                    BinOp::And | BinOp::Or => (Some(Ty::Bool), Ty::Bool),
                    BinOp::Eq | BinOp::Ne => (None, Ty::Bool),
                };
                let (l, r) = match operand {
                    Some(t) => (self.expect(l, t)?, self.expect(r, t)?),
                    None => {
                        let l = self.expr(l)?;
                        let r = self.expect(r, l.ty)?;
                        (l, r)
                    }
                };
                Self::mk(
                    ExprKind::Binary(*op, Box::new(l), Box::new(r)),
                    result,
                    span,
                )
            }
            ast::ExprKind::Cond(c, a, b) => {
                let c = self.expect(c, Ty::Bool)?;
                let a = self.expr(a)?;
                let b = self.expect(b, a.ty)?;
                let ty = a.ty;
                Self::mk(
                    ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                    ty,
                    span,
                )
            }
        })
    }

    fn var(&self, name: &str, span: Span) -> Result<Expr, String> {
        if let Some(plain) = name.strip_suffix('\'') {
            let (l, ty) = local_by_name(self.program, self.b, plain)?;
            return Ok(Self::mk(ExprKind::Local(self.split + l), ty, span));
        }
        if let Ok((l, ty)) = local_by_name(self.program, self.a, name) {
            return Ok(Self::mk(ExprKind::Local(l), ty, span));
        }
        if let Some(g) = self.program.global_by_name(name) {
            return match self.program.globals[g as usize].kind {
                GlobalKind::Scalar(ty) => Ok(Self::mk(ExprKind::Global(g), ty, span)),
                _ => Err(format!("`{name}` is an array or map: index it")),
            };
        }
        if let Some(p) = self.program.params.iter().find(|p| p.name == name) {
            return Ok(Self::mk(
                ExprKind::Const(Value::Int(p.value)),
                Ty::Int,
                span,
            ));
        }
        Err(format!("unknown name `{name}`"))
    }

    fn call(&self, f: &str, args: &[ast::Expr], span: Span) -> Result<Expr, String> {
        use Ty::{Bool, Int, List};
        if let ("len" | "has", [m, ..]) = (f, args) {
            if let ast::ExprKind::Var(v) = &m.kind {
                if let Some(g) = self.program.global_by_name(&v.name) {
                    match (f, &self.program.globals[g as usize].kind, args) {
                        ("len", GlobalKind::Array { len, .. }, [_]) => {
                            return Ok(Self::mk(
                                ExprKind::Const(Value::Int(*len as i64)),
                                Int,
                                span,
                            ))
                        }
                        ("has", GlobalKind::Map, [_, k]) => {
                            let k = self.expect(k, Int)?;
                            return Ok(Self::mk(ExprKind::MapHas(g, Box::new(k)), Bool, span));
                        }
                        _ => {}
                    }
                }
            }
        }
        let (b, params, ret): (Builtin, &[Ty], Ty) = match f {
            "len" => (Builtin::Len, &[List], Int),
            "head" => (Builtin::Head, &[List], Int),
            "tail" => (Builtin::Tail, &[List], List),
            "append" => (Builtin::Append, &[List, Int], List),
            "take" => (Builtin::Take, &[List, Int], List),
            "drop" => (Builtin::Drop, &[List, Int], List),
            "min" => (Builtin::Min, &[Int, Int], Int),
            "max" => (Builtin::Max, &[Int, Int], Int),
            "abs" => (Builtin::Abs, &[Int], Int),
            other => return Err(format!("`{other}` cannot be called in a constraint")),
        };
        if args.len() != params.len() {
            return Err(format!("`{f}` takes {} arguments", params.len()));
        }
        let args = args
            .iter()
            .zip(params)
            .map(|(a, t)| self.expect(a, *t))
            .collect::<Result<_, _>>()?;
        Ok(Self::mk(ExprKind::Builtin(b, args), ret, span))
    }
}

/// Evaluation of a resolved constraint on concrete values; `None` when it fails.
/// A constraint's concrete evaluation: `None` where the interpreter would fail.
pub(crate) struct Eval<'a> {
    pub program: &'a Program,
    pub mem: &'a Memory,
    pub a: &'a [Value],
    pub b: &'a [Value],
    pub split: u32,
    /// Where given, every global location the evaluation reads is pushed there.
    pub reads: Option<&'a RefCell<Vec<Loc>>>,
}

impl Eval<'_> {
    fn read(&self, global: GlobalId, elem: i64) {
        if let Some(reads) = self.reads {
            reads.borrow_mut().push(Loc { global, elem });
        }
    }

    pub(crate) fn int(&self, e: &Expr) -> Option<i64> {
        match self.eval(e)? {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn boolean(&self, e: &Expr) -> Option<bool> {
        match self.eval(e)? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn list(&self, e: &Expr) -> Option<Arc<[i64]>> {
        match self.eval(e)? {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    fn eval(&self, e: &Expr) -> Option<Value> {
        Some(match &e.kind {
            ExprKind::Const(v) => v.clone(),
            ExprKind::Local(l) => {
                if *l < self.split {
                    self.a.get(*l as usize)?.clone()
                } else {
                    self.b.get((*l - self.split) as usize)?.clone()
                }
            }
            ExprKind::Global(g) => {
                self.read(*g, 0);
                self.mem.scalar(*g).clone()
            }
            ExprKind::ArrayGet(g, i) => {
                let i = self.int(i)?;
                let GlobalKind::Array { len, .. } = self.program.globals[*g as usize].kind else {
                    return None;
                };
                if i < 0 || i as u64 >= len as u64 {
                    return None;
                }
                self.read(*g, i);
                self.mem.element(*g, i as usize).clone()
            }
            ExprKind::MapGet(g, k) => {
                let k = self.int(k)?;
                self.read(*g, k);
                Value::Int(self.mem.map(*g).get(&k).copied().unwrap_or(0))
            }
            ExprKind::MapHas(g, k) => {
                let k = self.int(k)?;
                self.read(*g, k);
                Value::Bool(self.mem.map(*g).contains_key(&k))
            }
            ExprKind::ListGet(l, i) => {
                let l = self.list(l)?;
                let i = self.int(i)?;
                if i < 0 {
                    return None;
                }
                Value::Int(*l.get(i as usize)?)
            }
            ExprKind::ListLit(items) => Value::List(
                items
                    .iter()
                    .map(|i| self.int(i))
                    .collect::<Option<Vec<_>>>()?
                    .into(),
            ),
            ExprKind::Unary(UnOp::Neg, a) => Value::Int(self.int(a)?.checked_neg()?),
            ExprKind::Unary(UnOp::Not, a) => Value::Bool(!self.boolean(a)?),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b)?,
            ExprKind::Cond(c, a, b) => {
                if self.boolean(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ExprKind::Builtin(b, args) => self.builtin(*b, args)?,
            ExprKind::Call(..) => return None,
        })
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<Value> {
        Some(match op {
            BinOp::And => Value::Bool(self.boolean(a)? && self.boolean(b)?),
            BinOp::Or => Value::Bool(self.boolean(a)? || self.boolean(b)?),
            BinOp::Eq => Value::Bool(self.eval(a)? == self.eval(b)?),
            BinOp::Ne => Value::Bool(self.eval(a)? != self.eval(b)?),
            BinOp::Concat => {
                let (a, b) = (self.list(a)?, self.list(b)?);
                // Beyond the limit the program's `++` fails: no value, as for overflow.
                if a.len() + b.len() > MAX_LIST_LEN as usize {
                    return None;
                }
                let mut l = a.to_vec();
                l.extend_from_slice(&b);
                Value::List(l.into())
            }
            _ => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                match op {
                    BinOp::Add => Value::Int(x.checked_add(y)?),
                    BinOp::Sub => Value::Int(x.checked_sub(y)?),
                    BinOp::Mul => Value::Int(x.checked_mul(y)?),
                    BinOp::Div => Value::Int(x.checked_div(y)?),
                    BinOp::Mod => Value::Int(x.checked_rem(y)?),
                    BinOp::Lt => Value::Bool(x < y),
                    BinOp::Le => Value::Bool(x <= y),
                    BinOp::Gt => Value::Bool(x > y),
                    BinOp::Ge => Value::Bool(x >= y),
                    _ => return None,
                }
            }
        })
    }

    fn builtin(&self, b: Builtin, args: &[Expr]) -> Option<Value> {
        Some(match b {
            Builtin::Len => Value::Int(self.list(&args[0])?.len() as i64),
            Builtin::Head => Value::Int(*self.list(&args[0])?.first()?),
            Builtin::Tail => Value::List(self.list(&args[0])?.get(1..)?.into()),
            Builtin::Append => {
                let l = self.list(&args[0])?;
                if l.len() >= MAX_LIST_LEN as usize {
                    return None;
                }
                let mut l = l.to_vec();
                l.push(self.int(&args[1])?);
                Value::List(l.into())
            }
            Builtin::Take | Builtin::Drop => {
                let l = self.list(&args[0])?;
                let n = self.int(&args[1])?.clamp(0, l.len() as i64) as usize;
                Value::List(if b == Builtin::Take {
                    l[..n].into()
                } else {
                    l[n..].into()
                })
            }
            Builtin::Min => Value::Int(self.int(&args[0])?.min(self.int(&args[1])?)),
            Builtin::Max => Value::Int(self.int(&args[0])?.max(self.int(&args[1])?)),
            Builtin::Abs => Value::Int(self.int(&args[0])?.checked_abs()?),
        })
    }
}

/// Calls `f` on every sub-expression of `e`: a constraint as parsed, before its names
/// are resolved (the checked tree has its own walker, [`Expr::walk`]).
fn walk_ast(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    match &e.kind {
        ast::ExprKind::Int(_) | ast::ExprKind::Bool(_) | ast::ExprKind::Var(_) => {}
        ast::ExprKind::List(items) | ast::ExprKind::Call(_, items) => {
            items.iter().for_each(|i| walk_ast(i, f))
        }
        ast::ExprKind::Index(x, y) | ast::ExprKind::Binary(_, x, y) => {
            walk_ast(x, f);
            walk_ast(y, f);
        }
        ast::ExprKind::Unary(_, x) => walk_ast(x, f),
        ast::ExprKind::Cond(c, x, y) => {
            walk_ast(c, f);
            walk_ast(x, f);
            walk_ast(y, f);
        }
    }
}

/// The names of a set of globals, in declaration order.
pub fn global_names(program: &Program, set: &BTreeSet<GlobalId>) -> Vec<String> {
    set.iter()
        .map(|g| program.globals[*g as usize].name.clone())
        .collect()
}

/// SHA-256 of some bytes, as lowercase hex: what ties an `ics.json` to its program.
pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn constraints_resolve_and_evaluate() {
        let src = "global int nr = 1; global int r;
            proc res(int v) { if (nr > 0) { nr = 0; r = v; } else { spawn res(r + v); r = 0; nr = 1; } }
            init { spawn res(1); }";
        let p = crate::load(src, &[]).expect("loads");
        let res = p.block_by_name("res").expect("res");
        let c = Constraint::parse(&p, res, res, "nr > 0 || v == v'").expect("resolves");
        assert_eq!(c.globals, BTreeSet::from([0]));
        let mut mem = Memory::initial(&p);
        let mut undo = crate::memory::UndoLog::default();
        assert!(c.holds(&p, &mem, &[Value::Int(1)], &[Value::Int(2)]));
        mem.set_scalar(0, Value::Int(0), &mut undo);
        assert!(!c.holds(&p, &mem, &[Value::Int(1)], &[Value::Int(2)]));
        assert!(c.holds(&p, &mem, &[Value::Int(2)], &[Value::Int(2)]));
        assert!(Constraint::parse(&p, res, res, "w == 1").is_err());
        assert!(Constraint::parse(&p, res, res, "nr +").is_err());
    }
}
