//! Bodies and statements: scopes and locals, control flow emitted as flat code
//! (forward jumps patched once their target is known, `break` and `continue` at the
//! end of their loop), and the split of a proc into atomic blocks at each `await`
//! and `yield`.

use super::{article, binary, constant, end_of, local, Body, Checker, Context, Loop, Scope, Top};
use crate::analysis::liveness;
use crate::ast::{self, BinOp, Span, StmtKind};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Block, BlockId, GlobalKind, InstrKind, LocalId, Place, ProcId};
use crate::value::{Ty, Value};

impl Checker {
    pub(super) fn bodies(&mut self, program: &ast::Program) {
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
}
