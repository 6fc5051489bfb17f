//! The program's `param`s as free variables: the checker replaces each `param` by its
//! value, so the executor finds in the source, once, which constants of the checked
//! code stand for a `param` or for `len(a)` of an array sized by params, and the
//! length of each array as a linear term over params.

use super::state::value_of;
use super::term::{Coef, Form, IAtom, Lin, Val, Var};
use super::Exec;
use crate::ast::{self, BinOp, UnOp};
use crate::ir::{Code, Expr, ExprKind, GlobalId, GlobalKind};
use crate::value::Value;
use std::collections::HashMap;

/// What a constant of the checked program stands for in the source.
#[derive(Clone, Debug)]
pub(super) enum ConstKind {
    /// The value of `param` number `i`.
    Param(u32),
    /// `len(a)` of an array whose size depends on params.
    Len(Lin),
}

impl Exec<'_> {
    pub(super) fn array_lengths(&mut self, source: Option<&str>) {
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
    pub(super) fn classify_consts(&mut self, source: &str) {
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

    pub(super) fn const_kind_lin(&self, k: &ConstKind) -> Lin {
        match k {
            ConstKind::Param(i) => Lin::var(Var::Param(*i)),
            ConstKind::Len(l) => l.clone(),
        }
    }

    pub(super) fn constant(&self, e: &Expr, v: &Value) -> Val {
        if let Value::Int(_) = v {
            if let Some(k) = self.consts.get(&(e.span.start, e.span.end)) {
                return Val::Int(self.const_kind_lin(k));
            }
        }
        value_of(v)
    }
}

pub(super) fn const_spans(e: &Expr, out: &mut Vec<(usize, usize)>) {
    e.walk(&mut |x| {
        if let ExprKind::Const(Value::Int(_)) = x.kind {
            out.push((x.span.start, x.span.end));
        }
    });
}
