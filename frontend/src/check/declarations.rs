//! Declarations: the top-level names (params with their `-D` overrides, globals with
//! their initial values, the signatures of procs and funs), and the constants they
//! are computed from.

use super::{Body, Checker, Context, Top, BUILTINS};
use crate::ast::{self, Span, TypeKind};
use crate::diagnostic::Diagnostic;
use crate::interp;
use crate::ir::{self, FunId, Global, GlobalId, GlobalKind, ProcId, MAX_ARRAY_LEN};
use crate::value::{Ty, Value};

impl Checker {
    pub(super) fn declare(&mut self, program: &ast::Program, defines: &[(String, i64)]) {
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

    pub(super) fn value_type(&mut self, t: &ast::TypeExpr, what: &str) -> Option<Ty> {
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
}
