//! The checker: names, types, arity, shadowing, where `await`/`yield`/`spawn` may
//! appear, `fun` purity, `break` outside a loop, `init` rules — and, for a program
//! that passes, its compiled form ([`ir::Program`]): resolved expressions, flat code,
//! and the split into atomic blocks with the stable ids of docs/language.md.
//!
//! Checking and code emission share one walk so that scopes are resolved once.
//! Independent mistakes are all reported; an expression that failed to check yields
//! `None`, and its users stay silent rather than report a follow-on error.

use crate::analysis::{liveness, overwrites, write_sets};
use crate::ast::{self, BinOp, Span, StmtKind, TypeKind, UnOp};
use crate::code::CodeBuilder;
use crate::diagnostic::Diagnostic;
use crate::interp;
use crate::ir::{
    self, Block, BlockId, Builtin, ExprKind, FunId, Global, GlobalId, GlobalKind, InstrKind,
    LocalId, Place, ProcId, MAX_ARRAY_LEN,
};
use crate::value::{Ty, Value};
use rustc_hash::FxHashMap;

const BUILTINS: &[&str] = &[
    "len", "head", "tail", "append", "take", "drop", "min", "max", "abs", "has", "all",
];

/// The longest array `all(a)` takes: it stands for one read per element.
pub const MAX_ALL_LEN: usize = 4096;

/// Checks a parsed program with `-D` overrides applied to its `param`s.
pub fn check(
    program: &ast::Program,
    defines: &[(String, i64)],
) -> Result<ir::Program, Vec<Diagnostic>> {
    let mut checker = Checker::default();
    checker.declare(program, defines);
    if !checker.diags.is_empty() {
        return Err(checker.diags);
    }
    checker.bodies(program);
    if checker.diags.is_empty() {
        let mut out = checker.out;
        overwrites_and_reads(&mut out);
        Ok(out)
    } else {
        Err(checker.diags)
    }
}

/// Fills in what state checks need to compare states modulo dead globals
/// ([`overwrites`]): each block's sure overwrites, each proc's reads.
fn overwrites_and_reads(program: &mut ir::Program) {
    let sets = write_sets::write_sets(program);
    let reads = overwrites::proc_reads(program.procs.len(), &program.blocks, &sets);
    for (proc, reads) in program.procs.iter_mut().zip(reads) {
        proc.reads = reads;
    }
    for block in &mut program.blocks {
        block.overwrites = overwrites::overwrites(&program.procs[block.proc as usize].code, block);
    }
}

/// What a top-level name stands for.
#[derive(Clone, Copy)]
enum Top {
    Param(i64),
    Global(GlobalId),
    Proc(ProcId),
    Fun(FunId),
}

#[derive(Default)]
struct Checker {
    diags: Vec<Diagnostic>,
    top: FxHashMap<String, (Top, Span)>,
    out: ir::Program,
}

/// Where code is being checked: what it may do depends on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Proc(ProcId),
    Fun(FunId),
    Init,
    /// A `param` value, array size or global initialiser: only `param`s and literals.
    Const,
}

struct Scope {
    vars: Vec<(String, LocalId, Span)>,
}

struct Loop {
    breaks: Vec<ir::Pc>,
    continues: Vec<ir::Pc>,
}

/// The state of the walk over one body.
struct Body {
    context: Context,
    scopes: Vec<Scope>,
    code: CodeBuilder,
    loops: Vec<Loop>,
    /// Loop variables of enclosing `for`s: not assignable.
    loop_vars: Vec<LocalId>,
    /// Blocks of this proc after the entry block, in source order.
    blocks: Vec<Block>,
}

impl Body {
    fn new(context: Context) -> Self {
        Body {
            context,
            scopes: vec![Scope { vars: Vec::new() }],
            code: CodeBuilder::default(),
            loops: Vec::new(),
            loop_vars: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn lookup(&self, name: &str) -> Option<(LocalId, Span)> {
        self.scopes.iter().rev().find_map(|s| {
            s.vars
                .iter()
                .rev()
                .find(|(n, _, _)| n == name)
                .map(|(_, id, span)| (*id, *span))
        })
    }

    fn local_ty(&self, id: LocalId) -> Ty {
        self.code.local(id).ty
    }
}

impl Checker {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ---------------------------------------------------------------- declarations

    fn declare(&mut self, program: &ast::Program, defines: &[(String, i64)]) {
        // Declarations come in any order; params first (in their own order), since
        // array sizes and initialisers may use them.
        for item in &program.items {
            if let ast::Item::Param(p) = item {
                self.declare_param(p, defines);
            }
        }
        let mut inits = Vec::new();
        for item in &program.items {
            match item {
                ast::Item::Param(_) => {}
                ast::Item::Global(g) => self.declare_global(g),
                ast::Item::Proc(p) => {
                    let id = self.out.procs.len() as ProcId;
                    let params = self.signature(&p.params);
                    self.define(&p.name, Top::Proc(id));
                    self.out.procs.push(ir::Proc {
                        name: p.name.name.clone(),
                        params,
                        code: ir::Code::default(),
                        entry: 0,
                        reads: Vec::new(),
                        span: p.name.span,
                    });
                }
                ast::Item::Fun(f) => {
                    let id = self.out.funs.len() as FunId;
                    let params = self.signature(&f.params);
                    let ret = self.value_type(&f.ret, "a fun's result");
                    self.define(&f.name, Top::Fun(id));
                    self.out.funs.push(ir::Fun {
                        name: f.name.name.clone(),
                        params,
                        ret: ret.unwrap_or(Ty::Int),
                        code: ir::Code::default(),
                        span: f.name.span,
                    });
                }
                ast::Item::Init(i) => inits.push(i.span),
            }
        }
        match inits.as_slice() {
            [] => self.error(
                Diagnostic::error(Span::new(0, 0), "the program has no `init`")
                    .with_label("expected an `init { … }` declaration")
                    .with_help("add `init { spawn p(); }` to start processes"),
            ),
            [_] => {}
            [first, rest @ ..] => {
                for span in rest {
                    self.error(
                        Diagnostic::error(Span::new(span.start, span.start + 4), "a second `init`")
                            .with_label("only one `init` is allowed")
                            .with_secondary(
                                Span::new(first.start, first.start + 4),
                                "the first `init`",
                            )
                            .with_help("merge the two `init` blocks into one"),
                    );
                }
            }
        }
        for (name, _) in defines {
            if !matches!(self.top.get(name), Some((Top::Param(_), _))) {
                let known: Vec<&str> = program
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        ast::Item::Param(p) => Some(p.name.name.as_str()),
                        _ => None,
                    })
                    .collect();
                let help = if known.is_empty() {
                    "this program declares no `param`".to_string()
                } else {
                    format!("the program's params are {}", known.join(", "))
                };
                self.error(
                    Diagnostic::global(format!("-D {name}: the program has no `param {name}`"))
                        .with_help(help),
                );
            }
        }
    }

    /// Registers a top-level name; reports a clash with an earlier one or a builtin.
    fn define(&mut self, name: &ast::Ident, what: Top) {
        if BUILTINS.contains(&name.name.as_str()) {
            self.error(
                Diagnostic::error(name.span, format!("`{}` is a builtin function", name.name))
                    .with_label("this name is taken")
                    .with_help("choose another name"),
            );
            return;
        }
        if let Some((_, first)) = self.top.get(&name.name) {
            let first = *first;
            self.error(
                Diagnostic::error(name.span, format!("`{}` is declared twice", name.name))
                    .with_label("second declaration")
                    .with_secondary(first, "first declared here")
                    .with_help("top-level names (params, globals, procs, funs) must be distinct"),
            );
            return;
        }
        self.top.insert(name.name.clone(), (what, name.span));
    }

    fn declare_param(&mut self, p: &ast::ParamDecl, defines: &[(String, i64)]) {
        let value = self.const_value(&p.value, Ty::Int).map(|v| v.int());
        let overridden = defines.iter().rev().find(|(n, _)| *n == p.name.name);
        let value = match (overridden, value) {
            (Some((_, v)), _) => *v,
            (None, Some(v)) => v,
            (None, None) => 0,
        };
        self.define(&p.name, Top::Param(value));
        self.out.params.push(ir::Param {
            name: p.name.name.clone(),
            value,
            span: p.name.span,
        });
    }

    fn declare_global(&mut self, g: &ast::GlobalDecl) {
        let (kind, init) = match &g.ty.kind {
            TypeKind::Int | TypeKind::Bool | TypeKind::List => {
                let ty = self.value_type(&g.ty, "a global").unwrap_or(Ty::Int);
                let v = match &g.init {
                    None => Some(Value::zero(ty)),
                    Some(e) => self.const_value(e, ty),
                };
                (GlobalKind::Scalar(ty), vec![v.unwrap_or(Value::zero(ty))])
            }
            TypeKind::Map => {
                if let Some(e) = &g.init {
                    self.error(
                        Diagnostic::error(e.span, "a map cannot be initialised")
                            .with_label("maps start empty")
                            .with_help("fill it in `init`: `m[k] = v;`"),
                    );
                }
                (GlobalKind::Map, Vec::new())
            }
            TypeKind::Array(elem, size) => {
                let elem_ty = match elem.kind {
                    TypeKind::Int => Ty::Int,
                    TypeKind::Bool => Ty::Bool,
                    TypeKind::List => Ty::List,
                    _ => {
                        self.error(
                            Diagnostic::error(elem.span, "arrays hold `int`, `bool` or `list`")
                                .with_label("not an element type")
                                .with_help("use `int[N]`, `bool[N]` or `list[N]`"),
                        );
                        Ty::Int
                    }
                };
                let len = match self.const_value(size, Ty::Int).map(|v| v.int()) {
                    Some(n) if (0..=MAX_ARRAY_LEN).contains(&n) => n as usize,
                    Some(n) => {
                        self.error(
                            Diagnostic::error(size.span, format!("array size {n} is out of range"))
                                .with_label("the size of this array")
                                .with_help(format!("sizes range from 0 to {MAX_ARRAY_LEN}")),
                        );
                        0
                    }
                    None => 0,
                };
                let values = match &g.init {
                    None => vec![Value::zero(elem_ty); len],
                    Some(e) => self.array_init(e, elem_ty, len),
                };
                (GlobalKind::Array { elem: elem_ty, len }, values)
            }
        };
        let id = self.out.globals.len() as GlobalId;
        self.define(&g.name, Top::Global(id));
        self.out.globals.push(Global {
            name: g.name.name.clone(),
            kind,
            init,
            span: g.name.span,
        });
    }

    fn array_init(&mut self, e: &ast::Expr, elem: Ty, len: usize) -> Vec<Value> {
        let ast::ExprKind::List(items) = &e.kind else {
            self.error(
                Diagnostic::error(e.span, "an array is initialised with a literal `[…]`")
                    .with_label("not a list literal")
                    .with_help(format!("write the {len} elements: `[e1, e2, …]`")),
            );
            return vec![Value::zero(elem); len];
        };
        if items.len() != len {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!("the array has {len} elements but {} are given", items.len()),
                )
                .with_label(format!("{} elements", items.len()))
                .with_help(format!("give exactly {len} values, or none for all zero")),
            );
            return vec![Value::zero(elem); len];
        }
        items
            .iter()
            .map(|item| self.const_value(item, elem).unwrap_or(Value::zero(elem)))
            .collect()
    }

    /// Checks and evaluates a constant expression of type `ty`.
    fn const_value(&mut self, e: &ast::Expr, ty: Ty) -> Option<Value> {
        let mut body = Body::new(Context::Const);
        let expr = self.expect(&mut body, e, ty)?;
        match interp::eval_const(&expr) {
            Ok(v) => Some(v),
            Err(err) => {
                self.error(
                    Diagnostic::error(
                        err.span,
                        format!("this constant cannot be computed: {}", err.error),
                    )
                    .with_label("evaluated when the program is loaded")
                    .with_help(
                        "change the expression, or the `param` values (`-D`) it is computed with",
                    ),
                );
                None
            }
        }
    }

    fn value_type(&mut self, t: &ast::TypeExpr, what: &str) -> Option<Ty> {
        match &t.kind {
            TypeKind::Int => Some(Ty::Int),
            TypeKind::Bool => Some(Ty::Bool),
            TypeKind::List => Some(Ty::List),
            TypeKind::Map | TypeKind::Array(..) => {
                self.error(
                    Diagnostic::error(t.span, format!("{what} cannot be an array or a map"))
                        .with_label("only `int`, `bool` and `list` are values")
                        .with_help("arrays and maps exist only as globals"),
                );
                None
            }
        }
    }

    fn signature(&mut self, params: &[ast::ParamSig]) -> Vec<Ty> {
        params
            .iter()
            .map(|p| self.value_type(&p.ty, "a parameter").unwrap_or(Ty::Int))
            .collect()
    }

    // ---------------------------------------------------------------- bodies

    fn bodies(&mut self, program: &ast::Program) {
        let (mut proc_id, mut fun_id) = (0, 0);
        for item in &program.items {
            match item {
                ast::Item::Proc(p) => {
                    self.proc_body(proc_id, p);
                    proc_id += 1;
                }
                ast::Item::Fun(f) => {
                    let mut body = Body::new(Context::Fun(fun_id));
                    self.params(
                        &mut body,
                        &f.params,
                        &self.out.funs[fun_id as usize].params.clone(),
                    );
                    self.stmts(&mut body, &f.body.stmts);
                    body.code.emit(InstrKind::Return(None), end_of(f.body.span));
                    self.out.funs[fun_id as usize].code = body.code.finish();
                    fun_id += 1;
                }
                ast::Item::Init(i) => {
                    let mut body = Body::new(Context::Init);
                    self.stmts(&mut body, &i.body.stmts);
                    body.code.emit(InstrKind::Return(None), end_of(i.body.span));
                    self.out.init = body.code.finish();
                }
                ast::Item::Param(_) | ast::Item::Global(_) => {}
            }
        }
    }

    fn params(&mut self, body: &mut Body, params: &[ast::ParamSig], types: &[Ty]) {
        for (p, ty) in params.iter().zip(types) {
            self.declare_local(body, &p.name, *ty, false);
        }
    }

    fn proc_body(&mut self, id: ProcId, p: &ast::ProcDecl) {
        let mut body = Body::new(Context::Proc(id));
        let types = self.out.procs[id as usize].params.clone();
        self.params(&mut body, &p.params, &types);
        // An `await` that opens the proc guards the entry block (docs/language.md, "Blocks").
        let (guard, rest) = match p.body.stmts.split_first() {
            Some((first, rest)) => match &first.kind {
                StmtKind::Await(c) => (self.expect(&mut body, c, Ty::Bool), rest),
                _ => (None, p.body.stmts.as_slice()),
            },
            None => (None, p.body.stmts.as_slice()),
        };
        self.stmts(&mut body, rest);
        body.code.emit(InstrKind::Return(None), end_of(p.body.span));
        let entry = Block {
            name: p.name.name.clone(),
            proc: id,
            pc: 0,
            guard,
            live: Vec::new(),
            overwrites: Vec::new(),
            span: p.name.span,
        };
        let code = body.code.finish();
        let first = self.out.blocks.len() as BlockId;
        let mut blocks: Vec<Block> = std::iter::once(entry).chain(body.blocks).collect();
        let live = liveness::live_at_blocks(&code, &blocks);
        for (block, live) in blocks.iter_mut().zip(live) {
            block.live = live;
        }
        // Continuation block ids were numbered from 1 within the proc: make them global.
        let mut code = code;
        for instr in &mut code.instrs {
            if let InstrKind::Await(b) | InstrKind::Yield(b) = &mut instr.kind {
                *b += first;
            }
        }
        self.out.blocks.extend(blocks);
        let proc = &mut self.out.procs[id as usize];
        proc.entry = first;
        proc.code = code;
    }

    fn declare_local(
        &mut self,
        body: &mut Body,
        name: &ast::Ident,
        ty: Ty,
        hidden: bool,
    ) -> LocalId {
        if let Some((what, span)) = self.shadowed(body, &name.name) {
            self.error(
                Diagnostic::error(name.span, format!("`{}` shadows {what}", name.name))
                    .with_label("declared again here")
                    .with_secondary(span, "already declared here")
                    .with_help("locals may not reuse the name of a global, a param or a local in scope: rename it"),
            );
        }
        let id = body.code.new_local(&name.name, ty, hidden);
        if let Some(scope) = body.scopes.last_mut() {
            scope.vars.push((name.name.clone(), id, name.span));
        }
        id
    }

    fn shadowed(&self, body: &Body, name: &str) -> Option<(&'static str, Span)> {
        if let Some((_, span)) = body.lookup(name) {
            return Some(("a local in scope", span));
        }
        match self.top.get(name) {
            Some((Top::Global(_), span)) => Some(("a global", *span)),
            Some((Top::Param(_), span)) => Some(("a param", *span)),
            _ => None,
        }
    }

    fn stmts(&mut self, body: &mut Body, stmts: &[ast::Stmt]) {
        for s in stmts {
            self.stmt(body, s);
        }
    }

    fn scoped(&mut self, body: &mut Body, block: &ast::Block) {
        body.scopes.push(Scope { vars: Vec::new() });
        self.stmts(body, &block.stmts);
        body.scopes.pop();
    }

    fn stmt(&mut self, body: &mut Body, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Local { ty, name, init } => {
                let ty = self.value_type(ty, "a local");
                let value = match (init, ty) {
                    (Some(e), Some(ty)) => self.expect(body, e, ty),
                    (Some(e), None) => self.expr(body, e),
                    (None, Some(ty)) => Some(constant(Value::zero(ty), s.span)),
                    (None, None) => None,
                };
                let id = self.declare_local(body, name, ty.unwrap_or(Ty::Int), false);
                if let Some(value) = value {
                    body.code
                        .emit(InstrKind::Assign(Place::Local(id), value), s.span);
                }
            }
            StmtKind::Assign { target, value } => {
                if let Some((place, ty)) = self.place(body, target) {
                    if let Some(value) = self.expect(body, value, ty) {
                        body.code.emit(InstrKind::Assign(place, value), s.span);
                    }
                } else {
                    self.expr(body, value);
                }
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self
                    .expect(body, cond, Ty::Bool)
                    .unwrap_or_else(|| constant(Value::Bool(true), s.span));
                let branch = body.code.emit(InstrKind::JumpUnless(cond, 0), s.span);
                self.scoped(body, then);
                match otherwise {
                    None => {
                        let end = body.code.here();
                        body.code.patch(branch, end);
                    }
                    Some(other) => {
                        let skip = body.code.emit(InstrKind::Jump(0), end_of(then.span));
                        let start = body.code.here();
                        body.code.patch(branch, start);
                        self.scoped(body, other);
                        let end = body.code.here();
                        body.code.patch(skip, end);
                    }
                }
            }
            StmtKind::While { cond, body: inner } => {
                let head = body.code.here();
                let cond = self
                    .expect(body, cond, Ty::Bool)
                    .unwrap_or_else(|| constant(Value::Bool(false), s.span));
                let exit = body.code.emit(InstrKind::JumpUnless(cond, 0), s.span);
                self.loop_body(body, inner);
                let back = body.code.emit(InstrKind::Jump(head), end_of(inner.span));
                self.close_loop(body, exit, head, back + 1);
            }
            StmtKind::For {
                var,
                lo,
                hi,
                body: inner,
            } => {
                let lo = self.expect(body, lo, Ty::Int);
                let hi = self.expect(body, hi, Ty::Int);
                body.scopes.push(Scope { vars: Vec::new() });
                let i = self.declare_local(body, var, Ty::Int, false);
                let bound = body
                    .code
                    .new_local(&format!("{}.end", var.name), Ty::Int, true);
                let zero = || constant(Value::Int(0), var.span);
                body.code.emit(
                    InstrKind::Assign(Place::Local(i), lo.unwrap_or_else(zero)),
                    s.span,
                );
                body.code.emit(
                    InstrKind::Assign(Place::Local(bound), hi.unwrap_or_else(zero)),
                    s.span,
                );
                let head = body.code.here();
                let test = binary(
                    BinOp::Lt,
                    local(i, Ty::Int, var.span),
                    local(bound, Ty::Int, var.span),
                    Ty::Bool,
                );
                let exit = body.code.emit(InstrKind::JumpUnless(test, 0), var.span);
                body.loop_vars.push(i);
                self.loop_body(body, inner);
                body.loop_vars.pop();
                let step = body.code.here();
                let next = binary(
                    BinOp::Add,
                    local(i, Ty::Int, var.span),
                    constant(Value::Int(1), var.span),
                    Ty::Int,
                );
                body.code
                    .emit(InstrKind::Assign(Place::Local(i), next), var.span);
                let back = body.code.emit(InstrKind::Jump(head), end_of(inner.span));
                self.close_loop(body, exit, step, back + 1);
                body.scopes.pop();
            }
            StmtKind::Break | StmtKind::Continue => {
                let is_break = matches!(s.kind, StmtKind::Break);
                let at = body.code.emit(InstrKind::Jump(0), s.span);
                match body.loops.last_mut() {
                    Some(l) if is_break => l.breaks.push(at),
                    Some(l) => l.continues.push(at),
                    None => {
                        let word = if is_break { "break" } else { "continue" };
                        self.error(
                            Diagnostic::error(s.span, format!("`{word}` outside a loop"))
                                .with_label("no enclosing `while` or `for`")
                                .with_help(format!("`{word}` may appear only inside a loop body")),
                        );
                    }
                }
            }
            StmtKind::Spawn { proc, args } => self.spawn(body, s.span, proc, args),
            StmtKind::Assert { cond, message } => {
                if let Some(cond) = self.expect(body, cond, Ty::Bool) {
                    body.code
                        .emit(InstrKind::Assert(cond, message.clone()), s.span);
                }
            }
            StmtKind::Await(cond) => {
                let guard = self.expect(body, cond, Ty::Bool);
                self.block_end(body, s.span, "await", guard);
            }
            StmtKind::Yield => self.block_end(body, s.span, "yield", None),
            StmtKind::Return(value) => self.ret(body, s.span, value.as_ref()),
            StmtKind::Expr(e) => {
                // `p();` for a proc is a forgotten `spawn`: the call's own error says so.
                let proc_call = matches!(&e.kind, ast::ExprKind::Call(name, _)
                    if matches!(self.top.get(&name.name), Some((Top::Proc(_), _))));
                self.expr(body, e);
                if !proc_call {
                    self.error(
                        Diagnostic::error(e.span, "a call cannot be a statement")
                            .with_label("its result would be thrown away")
                            .with_help(
                                "funs and builtins have no effects: use the result, \
                                 e.g. `int r = f(x);` or `l = append(l, v);`",
                            ),
                    );
                }
            }
            StmtKind::Block(b) => self.scoped(body, b),
        }
    }

    fn loop_body(&mut self, body: &mut Body, inner: &ast::Block) {
        body.loops.push(Loop {
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        self.scoped(body, inner);
    }

    fn close_loop(&mut self, body: &mut Body, exit: ir::Pc, continue_to: ir::Pc, end: ir::Pc) {
        body.code.patch(exit, end);
        if let Some(l) = body.loops.pop() {
            for at in l.breaks {
                body.code.patch(at, end);
            }
            for at in l.continues {
                body.code.patch(at, continue_to);
            }
        }
    }

    fn spawn(&mut self, body: &mut Body, span: Span, name: &ast::Ident, args: &[ast::Expr]) {
        let target = match self.top.get(&name.name) {
            Some((Top::Proc(p), _)) => Some(*p),
            Some((Top::Fun(_), _)) => {
                self.error(
                    Diagnostic::error(name.span, format!("`{}` is a fun, not a proc", name.name))
                        .with_label("only procs can be spawned")
                        .with_help("call a fun inside an expression instead"),
                );
                None
            }
            _ => {
                self.error(
                    Diagnostic::error(name.span, format!("no proc named `{}`", name.name))
                        .with_label("unknown proc")
                        .with_help(
                            self.suggest_top(&name.name, |t| matches!(t, Top::Proc(_)))
                                .unwrap_or_else(|| {
                                    format!("declare it: `proc {}() {{ … }}`", name.name)
                                }),
                        ),
                );
                None
            }
        };
        if let Context::Fun(_) = body.context {
            self.error(
                Diagnostic::error(span, "a fun cannot spawn processes")
                    .with_label("funs are pure")
                    .with_help("spawn from a proc or from `init`"),
            );
        }
        let Some(proc) = target else {
            for a in args {
                self.expr(body, a);
            }
            return;
        };
        let types = self.out.procs[proc as usize].params.clone();
        if let Some(args) = self.args(body, span, &name.name, "proc", &types, args) {
            if !matches!(body.context, Context::Fun(_)) {
                body.code.emit(InstrKind::Spawn(proc, args), span);
            }
        }
    }

    /// The diagnostic of a call with `given` arguments where `callee` (`fun `f``,
    /// `builtin `has``, …) takes `expected`.
    fn wrong_arity(
        &mut self,
        span: Span,
        callee: &str,
        (expected, given): (usize, usize),
        help: String,
    ) {
        self.error(
            Diagnostic::error(
                span,
                format!(
                    "{callee} takes {expected} argument{}, {given} given",
                    plural(expected)
                ),
            )
            .with_label("wrong number of arguments")
            .with_help(help),
        );
    }

    /// Checks call or spawn arguments against parameter types.
    fn args(
        &mut self,
        body: &mut Body,
        span: Span,
        name: &str,
        what: &str,
        types: &[Ty],
        args: &[ast::Expr],
    ) -> Option<Vec<ir::Expr>> {
        if args.len() != types.len() {
            let params: Vec<String> = types.iter().map(|t| t.to_string()).collect();
            self.wrong_arity(
                span,
                &format!("{what} `{name}`"),
                (types.len(), args.len()),
                format!("its parameters are ({})", params.join(", ")),
            );
            for a in args {
                self.expr(body, a);
            }
            return None;
        }
        let checked: Vec<Option<ir::Expr>> = args
            .iter()
            .zip(types)
            .map(|(a, t)| self.expect(body, a, *t))
            .collect();
        checked.into_iter().collect()
    }

    /// `await`/`yield`: ends the block; the code after it is a new block of the proc.
    fn block_end(&mut self, body: &mut Body, span: Span, word: &str, guard: Option<ir::Expr>) {
        let Context::Proc(proc) = body.context else {
            let place = if body.context == Context::Init {
                "`init`"
            } else {
                "a fun"
            };
            self.error(
                Diagnostic::error(span, format!("`{word}` in {place}"))
                    .with_label(format!("`{word}` may appear only in a proc"))
                    .with_help("`init` and funs run to completion without interleaving"),
            );
            return;
        };
        let k = body.blocks.len() as BlockId + 1;
        let name = format!("{}#{k}", self.out.procs[proc as usize].name);
        let kind = if word == "await" {
            InstrKind::Await(k)
        } else {
            InstrKind::Yield(k)
        };
        body.code.emit(kind, span);
        body.blocks.push(Block {
            name,
            proc,
            pc: body.code.here(),
            guard,
            live: Vec::new(),
            overwrites: Vec::new(),
            span,
        });
    }

    fn ret(&mut self, body: &mut Body, span: Span, value: Option<&ast::Expr>) {
        match (body.context, value) {
            (Context::Fun(f), Some(e)) => {
                let ty = self.out.funs[f as usize].ret;
                if let Some(v) = self.expect(body, e, ty) {
                    body.code.emit(InstrKind::Return(Some(v)), span);
                }
            }
            (Context::Fun(f), None) => {
                let ty = self.out.funs[f as usize].ret;
                self.error(
                    Diagnostic::error(span, "`return` without a value in a fun")
                        .with_label(format!("this fun returns {}", article(&ty.to_string())))
                        .with_help("write `return e;`"),
                );
            }
            (_, Some(e)) => {
                self.expr(body, e);
                self.error(
                    Diagnostic::error(e.span, "only funs return a value")
                        .with_label("procs and `init` end with a plain `return;`")
                        .with_help("store the value in a global instead"),
                );
            }
            (_, None) => {
                body.code.emit(InstrKind::Return(None), span);
            }
        }
    }

    /// The place an assignment writes, and the type of value it takes.
    fn place(&mut self, body: &mut Body, target: &ast::LValue) -> Option<(Place, Ty)> {
        let name = &target.name;
        if let Some((id, _)) = body.lookup(&name.name) {
            if body.loop_vars.contains(&id) && target.index.is_none() {
                self.error(
                    Diagnostic::error(
                        target.span,
                        format!("cannot assign to loop variable `{}`", name.name),
                    )
                    .with_label("changed inside its `for`")
                    .with_help("use a `while` loop to control the counter yourself"),
                );
                return None;
            }
            let ty = body.local_ty(id);
            return match (&target.index, ty) {
                (None, ty) => Some((Place::Local(id), ty)),
                (Some(i), Ty::List) => {
                    let i = self.expect(body, i, Ty::Int)?;
                    Some((Place::LocalListElem(id, i), Ty::Int))
                }
                (Some(_), ty) => {
                    self.not_indexable(target.span, &name.name, ty.to_string());
                    None
                }
            };
        }
        match self.top.get(&name.name).copied() {
            Some((Top::Global(g), _)) => {
                self.global_access(body, name)?;
                let kind = self.out.globals[g as usize].kind.clone();
                match (&target.index, kind) {
                    (None, GlobalKind::Scalar(ty)) => Some((Place::Global(g), ty)),
                    (None, _) => {
                        self.error(
                            Diagnostic::error(
                                target.span,
                                format!("cannot assign to the whole of `{}`", name.name),
                            )
                            .with_label("an array or map is not a value")
                            .with_help("assign its elements one by one: `a[i] = e;`"),
                        );
                        None
                    }
                    (Some(i), kind) => {
                        let i = self.expect(body, i, Ty::Int)?;
                        match kind {
                            GlobalKind::Array { elem, .. } => Some((Place::ArrayElem(g, i), elem)),
                            GlobalKind::Map => Some((Place::MapElem(g, i), Ty::Int)),
                            GlobalKind::Scalar(Ty::List) => {
                                Some((Place::GlobalListElem(g, i), Ty::Int))
                            }
                            GlobalKind::Scalar(ty) => {
                                self.not_indexable(target.span, &name.name, ty.to_string());
                                None
                            }
                        }
                    }
                }
            }
            Some((Top::Param(_), span)) => {
                self.error(
                    Diagnostic::error(
                        target.span,
                        format!("cannot assign to param `{}`", name.name),
                    )
                    .with_label("params are constants")
                    .with_secondary(span, "declared here")
                    .with_help("use a global for a value that changes, or `-D` to set the param"),
                );
                None
            }
            Some((Top::Proc(_) | Top::Fun(_), _)) => {
                self.error(
                    Diagnostic::error(name.span, format!("cannot assign to `{}`", name.name))
                        .with_label("a proc or fun, not a variable")
                        .with_help("assign to a local or a global"),
                );
                None
            }
            None => {
                self.unknown(body, name);
                None
            }
        }
    }

    fn not_indexable(&mut self, span: Span, name: &str, ty: String) {
        self.error(
            Diagnostic::error(
                span,
                format!("`{name}` is {}, it cannot be indexed", article(&ty)),
            )
            .with_label("indexed here")
            .with_help("only lists, arrays and maps have elements"),
        );
    }

    /// Globals are off limits in funs and constants.
    fn global_access(&mut self, body: &Body, name: &ast::Ident) -> Option<()> {
        match body.context {
            Context::Fun(f) => {
                let fun = self.out.funs[f as usize].name.clone();
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("fun `{fun}` uses global `{}`", name.name),
                    )
                    .with_label("funs may use only their arguments and locals")
                    .with_help("pass the value as an argument"),
                );
                None
            }
            Context::Const => {
                self.error(
                    Diagnostic::error(name.span, format!("global `{}` in a constant", name.name))
                        .with_label("not known when the program is loaded")
                        .with_help(
                            "constants may use only literals and `param`s declared before them",
                        ),
                );
                None
            }
            Context::Proc(_) | Context::Init => Some(()),
        }
    }

    fn unknown(&mut self, body: &Body, name: &ast::Ident) {
        let locals = body
            .scopes
            .iter()
            .flat_map(|s| &s.vars)
            .map(|(n, _, _)| n.as_str());
        let wanted = |t: Top| match body.context {
            // Funs and constants cannot use globals: suggesting one would lead to the next error.
            Context::Fun(_) | Context::Const => matches!(t, Top::Param(_)),
            Context::Proc(_) | Context::Init => matches!(t, Top::Global(_) | Top::Param(_)),
        };
        let tops = self
            .top
            .iter()
            .filter(|(_, (t, _))| wanted(*t))
            .map(|(n, _)| n.as_str());
        let n = &name.name;
        let help = closest(n, locals.chain(tops)).unwrap_or_else(|| match body.context {
            Context::Fun(_) => {
                format!("declare it first (`int {n} = 0;`) or pass it as a parameter")
            }
            Context::Const => format!("declare it: `param {n} = 0;`"),
            Context::Proc(_) | Context::Init => format!(
                "declare it first: a local `int {n} = 0;` or a global `global int {n} = 0;`"
            ),
        });
        self.error(
            Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                .with_label("not declared")
                .with_help(help),
        );
    }

    /// A "did you mean" for a misspelt top-level name of the wanted kind.
    fn suggest_top(&self, name: &str, wanted: impl Fn(Top) -> bool) -> Option<String> {
        let names = self
            .top
            .iter()
            .filter(|(_, (t, _))| wanted(*t))
            .map(|(n, _)| n.as_str());
        closest(name, names)
    }

    // ---------------------------------------------------------------- expressions

    /// Checks `e` and requires type `ty`.
    fn expect(&mut self, body: &mut Body, e: &ast::Expr, ty: Ty) -> Option<ir::Expr> {
        let checked = self.expr(body, e)?;
        if checked.ty != ty {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "expected {}, found {}",
                        article(&ty.to_string()),
                        article(&checked.ty.to_string())
                    ),
                )
                .with_label(format!("this is {}", article(&checked.ty.to_string())))
                .with_help(conversion_help(checked.ty, ty)),
            );
            return None;
        }
        Some(checked)
    }

    fn expr(&mut self, body: &mut Body, e: &ast::Expr) -> Option<ir::Expr> {
        let span = e.span;
        let (kind, ty) = match &e.kind {
            ast::ExprKind::Int(n) => (ExprKind::Const(Value::Int(*n)), Ty::Int),
            ast::ExprKind::Bool(b) => (ExprKind::Const(Value::Bool(*b)), Ty::Bool),
            ast::ExprKind::Var(name) => return self.var(body, name),
            ast::ExprKind::List(items) => {
                let items: Vec<Option<ir::Expr>> = items
                    .iter()
                    .map(|i| self.expect(body, i, Ty::Int))
                    .collect();
                (
                    ExprKind::ListLit(items.into_iter().collect::<Option<_>>()?),
                    Ty::List,
                )
            }
            ast::ExprKind::Index(base, index) => return self.index(body, span, base, index),
            ast::ExprKind::Call(name, args) => return self.call(body, span, name, args),
            ast::ExprKind::Unary(op, inner) => {
                let ty = match op {
                    UnOp::Neg => Ty::Int,
                    UnOp::Not => Ty::Bool,
                };
                let inner = self.expect(body, inner, ty)?;
                (ExprKind::Unary(*op, Box::new(inner)), ty)
            }
            ast::ExprKind::Binary(op, l, r) => {
                let (l, r, ty) = self.binary(body, *op, l, r)?;
                (ExprKind::Binary(*op, Box::new(l), Box::new(r)), ty)
            }
            ast::ExprKind::Cond(c, a, b) => {
                let c = self.expect(body, c, Ty::Bool);
                let a = self.expr(body, a);
                let b = match &a {
                    Some(a) => self.expect(body, b, a.ty),
                    None => self.expr(body, b),
                };
                let (c, a, b) = (c?, a?, b?);
                let ty = a.ty;
                (ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), ty)
            }
        };
        Some(ir::Expr { kind, ty, span })
    }

    fn binary(
        &mut self,
        body: &mut Body,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
    ) -> Option<(ir::Expr, ir::Expr, Ty)> {
        let (operand, result) = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                (Some(Ty::Int), Ty::Int)
            }
            BinOp::Concat => (Some(Ty::List), Ty::List),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Some(Ty::Int), Ty::Bool),
            BinOp::And | BinOp::Or => (Some(Ty::Bool), Ty::Bool),
            // Equality works on any two values of the same type.
            BinOp::Eq | BinOp::Ne => (None, Ty::Bool),
        };
        match operand {
            Some(ty) => {
                let l = self.expect(body, l, ty);
                let r = self.expect(body, r, ty);
                Some((l?, r?, result))
            }
            None => {
                let l = self.expr(body, l)?;
                let r = self.expect(body, r, l.ty)?;
                Some((l, r, result))
            }
        }
    }

    fn var(&mut self, body: &mut Body, name: &ast::Ident) -> Option<ir::Expr> {
        let span = name.span;
        if let Some((id, _)) = body.lookup(&name.name) {
            return Some(local(id, body.local_ty(id), span));
        }
        match self.top.get(&name.name).copied() {
            Some((Top::Param(v), _)) => Some(constant(Value::Int(v), span)),
            Some((Top::Global(g), _)) => {
                self.global_access(body, name)?;
                match self.out.globals[g as usize].kind {
                    GlobalKind::Scalar(ty) => Some(ir::Expr {
                        kind: ExprKind::Global(g),
                        ty,
                        span,
                    }),
                    ref kind @ (GlobalKind::Array { .. } | GlobalKind::Map) => {
                        let n = &name.name;
                        let (label, help) = match kind {
                            GlobalKind::Map => (
                                "a map must be indexed",
                                format!("use one entry `{n}[k]`, or test a key with `has({n}, k)`"),
                            ),
                            _ => (
                                "an array must be indexed",
                                format!("use one element `{n}[i]`, or its length `len({n})`"),
                            ),
                        };
                        self.error(
                            Diagnostic::error(span, format!("`{n}` is not a value"))
                                .with_label(label)
                                .with_help(help),
                        );
                        None
                    }
                }
            }
            Some((Top::Proc(_) | Top::Fun(_), _)) => {
                self.error(
                    Diagnostic::error(span, format!("`{}` is not a variable", name.name))
                        .with_label("a proc or fun")
                        .with_help("funs are called with arguments: `f(x)`; procs are spawned"),
                );
                None
            }
            None => {
                self.unknown(body, name);
                None
            }
        }
    }

    /// The array or map global a name refers to, if any.
    fn container(&self, body: &Body, e: &ast::Expr) -> Option<(GlobalId, GlobalKind)> {
        let ast::ExprKind::Var(name) = &e.kind else {
            return None;
        };
        if body.lookup(&name.name).is_some() {
            return None;
        }
        match self.top.get(&name.name) {
            Some((Top::Global(g), _)) => match &self.out.globals[*g as usize].kind {
                k @ (GlobalKind::Array { .. } | GlobalKind::Map) => Some((*g, k.clone())),
                GlobalKind::Scalar(_) => None,
            },
            _ => None,
        }
    }

    fn index(
        &mut self,
        body: &mut Body,
        span: Span,
        base: &ast::Expr,
        index: &ast::Expr,
    ) -> Option<ir::Expr> {
        if let Some((g, kind)) = self.container(body, base) {
            if let ast::ExprKind::Var(name) = &base.kind {
                self.global_access(body, name)?;
            }
            let i = Box::new(self.expect(body, index, Ty::Int)?);
            return Some(match kind {
                GlobalKind::Array { elem, .. } => ir::Expr {
                    kind: ExprKind::ArrayGet(g, i),
                    ty: elem,
                    span,
                },
                _ => ir::Expr {
                    kind: ExprKind::MapGet(g, i),
                    ty: Ty::Int,
                    span,
                },
            });
        }
        let b = self.expr(body, base);
        let i = self.expect(body, index, Ty::Int);
        let b = b?;
        if b.ty != Ty::List {
            self.error(
                Diagnostic::error(
                    base.span,
                    format!("{} cannot be indexed", article(&b.ty.to_string())),
                )
                .with_label(format!("this is {}", article(&b.ty.to_string())))
                .with_help("only lists, arrays and maps have elements"),
            );
            return None;
        }
        Some(ir::Expr {
            kind: ExprKind::ListGet(Box::new(b), Box::new(i?)),
            ty: Ty::Int,
            span,
        })
    }

    fn call(
        &mut self,
        body: &mut Body,
        span: Span,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<ir::Expr> {
        let builtin = match name.name.as_str() {
            "len" => Some(Builtin::Len),
            "head" => Some(Builtin::Head),
            "tail" => Some(Builtin::Tail),
            "append" => Some(Builtin::Append),
            "take" => Some(Builtin::Take),
            "drop" => Some(Builtin::Drop),
            "min" => Some(Builtin::Min),
            "max" => Some(Builtin::Max),
            "abs" => Some(Builtin::Abs),
            "has" => return self.has(body, span, args),
            "all" => return self.all(body, span, args),
            _ => None,
        };
        if let Some(b) = builtin {
            return self.builtin(body, span, b, args);
        }
        let top = self.top.get(&name.name).copied();
        if body.context == Context::Const && !matches!(top, Some((Top::Proc(_), _))) {
            // Whether or not the fun is declared (params are computed before funs are
            // even known), a constant cannot call one.
            self.error(
                Diagnostic::error(span, "a fun call in a constant")
                    .with_label("constants are computed when the program is loaded")
                    .with_help("constants may use only literals, `param`s and builtins"),
            );
            return None;
        }
        match top {
            Some((Top::Fun(f), _)) => {
                let fun = &self.out.funs[f as usize];
                let (params, ret, fname) = (fun.params.clone(), fun.ret, fun.name.clone());
                let args = self.args(body, span, &fname, "fun", &params, args)?;
                Some(ir::Expr {
                    kind: ExprKind::Call(f, args),
                    ty: ret,
                    span,
                })
            }
            Some((Top::Proc(_), _)) => {
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` is a proc: it is spawned, not called", name.name),
                    )
                    .with_label("procs have no result")
                    .with_help(format!("write `spawn {}(…);` as a statement", name.name)),
                );
                None
            }
            _ => {
                self.error(
                    Diagnostic::error(name.span, format!("no fun named `{}`", name.name))
                        .with_label("unknown function")
                        .with_help(self.unknown_fun_help(&name.name)),
                );
                for a in args {
                    self.expr(body, a);
                }
                None
            }
        }
    }

    fn unknown_fun_help(&self, name: &str) -> String {
        let funs = self
            .top
            .iter()
            .filter(|(_, (t, _))| matches!(t, Top::Fun(_)))
            .map(|(n, _)| n.as_str());
        closest(name, funs.chain(BUILTINS.iter().copied())).unwrap_or_else(|| {
            format!(
                "declare it: `fun {name}(int x) -> int {{ … }}`; the builtins are {}",
                BUILTINS.join(", ")
            )
        })
    }

    fn builtin(
        &mut self,
        body: &mut Body,
        span: Span,
        b: Builtin,
        args: &[ast::Expr],
    ) -> Option<ir::Expr> {
        use Ty::{Int, List};
        if b == Builtin::Len && args.len() == 1 {
            if let Some((_, GlobalKind::Array { len, .. })) = self.container(body, &args[0]) {
                if let ast::ExprKind::Var(name) = &args[0].kind {
                    self.global_access(body, name)?;
                }
                return Some(constant(Value::Int(len as i64), span));
            }
        }
        let (params, ret): (&[Ty], Ty) = match b {
            Builtin::Len | Builtin::Head => (&[List], Int),
            Builtin::Tail => (&[List], List),
            Builtin::Append | Builtin::Take | Builtin::Drop => (&[List, Int], List),
            Builtin::Min | Builtin::Max => (&[Int, Int], Int),
            Builtin::Abs => (&[Int], Int),
        };
        let args = self.args(body, span, b.name(), "builtin", params, args)?;
        Some(ir::Expr {
            kind: ExprKind::Builtin(b, args),
            ty: ret,
            span,
        })
    }

    fn has(&mut self, body: &mut Body, span: Span, args: &[ast::Expr]) -> Option<ir::Expr> {
        let [m, k] = args else {
            let help = "write `has(m, k)` for a global map `m`".to_string();
            self.wrong_arity(span, "builtin `has`", (2, args.len()), help);
            return None;
        };
        match self.container(body, m) {
            Some((g, GlobalKind::Map)) => {
                if let ast::ExprKind::Var(name) = &m.kind {
                    self.global_access(body, name)?;
                }
                let k = self.expect(body, k, Ty::Int)?;
                Some(ir::Expr {
                    kind: ExprKind::MapHas(g, Box::new(k)),
                    ty: Ty::Bool,
                    span,
                })
            }
            _ => {
                self.error(
                    Diagnostic::error(m.span, "`has` needs a global map")
                        .with_label("not a map")
                        .with_help("declare one with `global map m;`"),
                );
                None
            }
        }
    }

    /// `all(a)` for a global `bool` array `a`: whether every element holds, as the
    /// conjunction `a[0] && … && a[len - 1]` (balanced, so that evaluating it nests
    /// log2(len) deep), `true` for an empty array. It reads every element, so a block
    /// that waits for it (`await (all(done));`, a join of the processes that set
    /// `done`) conflicts with each write of an element and with nothing else: the
    /// writers of distinct elements stay independent.
    fn all(&mut self, body: &mut Body, span: Span, args: &[ast::Expr]) -> Option<ir::Expr> {
        let [a] = args else {
            let help = "write `all(a)` for a global `bool` array `a`".to_string();
            self.wrong_arity(span, "builtin `all`", (1, args.len()), help);
            return None;
        };
        let len = match self.container(body, a) {
            Some((
                _,
                GlobalKind::Array {
                    elem: Ty::Bool,
                    len,
                },
            )) => len,
            _ => {
                self.error(
                    Diagnostic::error(a.span, "`all` needs a global `bool` array")
                        .with_label("not a `bool` array")
                        .with_help("declare one with `global bool[N] done;`"),
                );
                return None;
            }
        };
        if len > MAX_ALL_LEN {
            self.error(
                Diagnostic::error(
                    a.span,
                    format!("`all` of an array of {len} elements (at most {MAX_ALL_LEN})"),
                )
                .with_label("too long")
                .with_help("`all(a)` reads every element: keep the array short"),
            );
            return None;
        }
        let element = |i: usize| ast::Expr {
            kind: ast::ExprKind::Index(
                Box::new(a.clone()),
                Box::new(ast::Expr {
                    kind: ast::ExprKind::Int(i as i64),
                    span,
                }),
            ),
            span,
        };
        fn conjunction(
            range: std::ops::Range<usize>,
            element: &dyn Fn(usize) -> ast::Expr,
            span: Span,
        ) -> ast::Expr {
            match range.len() {
                0 => ast::Expr {
                    kind: ast::ExprKind::Bool(true),
                    span,
                },
                1 => element(range.start),
                n => {
                    let mid = range.start + n / 2;
                    ast::Expr {
                        kind: ast::ExprKind::Binary(
                            ast::BinOp::And,
                            Box::new(conjunction(range.start..mid, element, span)),
                            Box::new(conjunction(mid..range.end, element, span)),
                        ),
                        span,
                    }
                }
            }
        }
        let conj = conjunction(0..len, &element, span);
        self.expect(body, &conj, Ty::Bool)
    }
}

fn constant(v: Value, span: Span) -> ir::Expr {
    let ty = v.ty();
    ir::Expr {
        kind: ExprKind::Const(v),
        ty,
        span,
    }
}

fn local(id: LocalId, ty: Ty, span: Span) -> ir::Expr {
    ir::Expr {
        kind: ExprKind::Local(id),
        ty,
        span,
    }
}

fn binary(op: BinOp, l: ir::Expr, r: ir::Expr, ty: Ty) -> ir::Expr {
    let span = l.span.to(r.span);
    ir::Expr {
        kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
        ty,
        span,
    }
}

fn end_of(span: Span) -> Span {
    Span::new(span.end.saturating_sub(1), span.end)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn article(ty: &str) -> String {
    match ty {
        "int" => "an int".to_string(),
        other => format!("a {other}"),
    }
}

fn conversion_help(found: Ty, wanted: Ty) -> String {
    match (found, wanted) {
        (Ty::Int, Ty::Bool) => "compare it to get a bool, e.g. `x != 0`".to_string(),
        (Ty::Bool, Ty::Int) => "use a conditional to get an int, e.g. `b ? 1 : 0`".to_string(),
        (Ty::List, Ty::Int) => {
            "take an element with `l[i]` or `head(l)`, or its length with `len(l)`".to_string()
        }
        (Ty::Int, Ty::List) => "make a one-element list with `[x]`".to_string(),
        _ => format!("write an expression of type {wanted}"),
    }
}

/// "did you mean `n`?" for the candidate closest to a misspelt name, if any is close.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|n| (edit_distance(n, name), n))
        .filter(|(d, n)| *d <= 2 && *d < n.chars().count() && *n != name)
        .min()
        .map(|(_, n)| format!("did you mean `{n}`?"))
}

/// Levenshtein distance, for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
