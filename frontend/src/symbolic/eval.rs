//! Expressions, evaluated symbolically: each split into cases, a condition under which
//! it evaluates without failing and its value, the failing cases left out.

use super::state::{value_of, GlobalVal, State};
use super::term::{
    array_read, list_eq, map_read, no_overflow, val_eq, Coef, Form, Fun, IAtom, Lin, ListOp, ListT,
    Val, Var, INT_MIN,
};
use super::{Abort, Analysed, Cases, Exec, MAX_PATHS};
use crate::ast::{BinOp, UnOp};
use crate::ir::{Expr, ExprKind, GlobalId, GlobalKind};
use crate::value::Value;
use std::collections::HashMap;

impl Exec<'_> {
    pub(super) fn in_bounds(&self, g: GlobalId, idx: &Lin) -> Analysed<Vec<Form>> {
        let len = self.array_len[g as usize]
            .clone()
            .unwrap_or_else(|| Lin::atom(IAtom::ArrLen(g)));
        Ok(vec![Form::le(idx.neg()?), Form::int_lt(idx, &len)?])
    }

    pub(super) fn eval_all(
        &self,
        es: &[Expr],
        env: &Env<'_>,
        depth: u32,
    ) -> Analysed<Cases<Vec<Val>>> {
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
    pub(super) fn eval(&self, e: &Expr, env: &Env<'_>, depth: u32) -> Analysed<Cases<Val>> {
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
                GlobalVal::Scalar(v) => one(v.clone()),
                other => unreachable!("scalar read of a non-scalar global {other:?}"),
            },
            ExprKind::ArrayGet(g, i) => {
                let GlobalKind::Array { elem, .. } = self.program.globals[*g as usize].kind else {
                    unreachable!("array read of a non-array")
                };
                let GlobalVal::Array(arr) = &env.globals[*g as usize] else {
                    unreachable!("array read of a non-array")
                };
                let mut out = Vec::new();
                for (c, iv) in self.eval(i, env, depth)? {
                    let idx = iv.int();
                    let bounds = self.in_bounds(*g, idx)?;
                    for (c2, v) in array_read(arr, idx, elem)? {
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
                let GlobalVal::Map(m) = &env.globals[*g as usize] else {
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

    fn binary(
        &self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        env: &Env<'_>,
        depth: u32,
    ) -> Analysed<Cases<Val>> {
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

    fn binary_values(&self, op: BinOp, a: &Val, b: &Val) -> Analysed<Cases<Val>> {
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
            BinOp::Concat => self.grown_list(ListOp::Concat, vec![a.clone(), b.clone()]),
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
}

pub(super) struct Env<'a> {
    pub(super) globals: &'a [GlobalVal],
    pub(super) locals: &'a [Val],
    /// Constants come from the program's source (and may stand for params).
    pub(super) from_source: bool,
    /// Constants of an expression from elsewhere that stand for params, by span.
    pub(super) params: Option<&'a HashMap<(usize, usize), u32>>,
}

pub(super) fn env_of(st: &State, slot: usize) -> Env<'_> {
    Env {
        globals: &st.globals,
        locals: &st.locals[slot],
        from_source: true,
        params: None,
    }
}

/// The result of a 64-bit operation of the interpreter, with the condition that it
/// does not overflow ([`no_overflow`]); no case when it certainly does.
pub(super) fn int_result(r: Lin) -> Analysed<Cases<Val>> {
    let conds = no_overflow(&r)?;
    if conds.contains(&Form::False) {
        return Ok(Vec::new());
    }
    Ok(vec![(conds, Val::Int(r))])
}

/// Drops cases whose conditions are plainly contradictory.
pub(super) fn prune<T>(cases: Cases<T>) -> Cases<T> {
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
