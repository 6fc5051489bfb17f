//! Expressions: names resolved, types checked, builtins and calls with their
//! arguments.

use super::{
    article, closest, constant, conversion_help, local, plural, Body, Checker, Context, Top,
    BUILTINS, MAX_ALL_LEN,
};
use crate::ast::{self, BinOp, Span, UnOp};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Builtin, ExprKind, GlobalId, GlobalKind};
use crate::value::{Ty, Value};

impl Checker {
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
    pub(super) fn args(
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

    /// Checks `e` and requires type `ty`.
    pub(super) fn expect(&mut self, body: &mut Body, e: &ast::Expr, ty: Ty) -> Option<ir::Expr> {
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

    pub(super) fn expr(&mut self, body: &mut Body, e: &ast::Expr) -> Option<ir::Expr> {
        let span = e.span;
        let (kind, ty) = match &e.kind {
            ast::ExprKind::Int(n) => (ExprKind::Const(Value::Int(*n)), Ty::Int),
            ast::ExprKind::Bool(b) => (ExprKind::Const(Value::Bool(*b)), Ty::Bool),
            ast::ExprKind::Var(name) => return self.var(body, name),
            ast::ExprKind::List(items) => {
                if items.len() as i64 > ir::MAX_LIST_LEN {
                    self.error(
                        Diagnostic::error(span, "list literal is too long")
                            .with_label(format!("{} elements", items.len()))
                            .with_help(format!(
                                "a list holds at most {} elements",
                                ir::MAX_LIST_LEN
                            )),
                    );
                    return None;
                }
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
