//! Calls: builtins, with list operations as uninterpreted functions (simplified where
//! literals allow), and `fun`s, inlined when they neither loop nor recurse, otherwise
//! uninterpreted functions of their arguments.

use super::eval::{int_result, prune};
use super::paths::Exit;
use super::state::{app_of, value_of, State};
use super::term::{list_fits, Coef, Form, Fun, IAtom, Lin, ListOp, ListT, Val};
use super::{within_budget, Abort, Analysed, Cases, Exec, Visit, MAX_INLINE_DEPTH};
use crate::ir::{Builtin, Code, Expr, ExprKind, FunId, InstrKind};
use crate::value::Value;
use std::collections::BTreeSet;

impl Exec<'_> {
    /// A list operation as an uninterpreted function, with the simplifications that
    /// literals allow.
    pub(super) fn list_app(&self, op: ListOp, args: Vec<Val>) -> ListT {
        let lit = |v: &Val| match v {
            Val::List(ListT::App(Fun::List(ListOp::Lit(_)), items)) => Some(items.clone()),
            _ => None,
        };
        match op {
            ListOp::Append => {
                if let Some(mut items) = lit(&args[0]) {
                    items.push(args[1].clone());
                    return self.list_app(ListOp::Lit(items.len()), items);
                }
            }
            ListOp::Concat => {
                if let (Some(mut xs), Some(ys)) = (lit(&args[0]), lit(&args[1])) {
                    xs.extend(ys);
                    return self.list_app(ListOp::Lit(xs.len()), xs);
                }
            }
            _ => {}
        }
        self.abstracted();
        ListT::App(Fun::List(op), args)
    }

    /// A list that `++` or `append` made, with the condition that it is no longer
    /// than the interpreter allows ([`list_fits`]); no case when it certainly is
    /// longer.
    pub(super) fn grown_list(&self, op: ListOp, args: Vec<Val>) -> Analysed<Cases<Val>> {
        let list = self.list_app(op, args);
        let conds = list_fits(&self.list_len(&list)?)?;
        if conds.contains(&Form::False) {
            return Ok(Vec::new());
        }
        Ok(vec![(conds, Val::List(list))])
    }

    fn list_len(&self, l: &ListT) -> Analysed<Lin> {
        Ok(match l {
            ListT::App(Fun::List(ListOp::Lit(n)), _) => Lin::constant(*n as Coef),
            ListT::App(Fun::List(ListOp::Append), args) => {
                self.list_len(args[0].list())?.add_const(1)?
            }
            ListT::App(Fun::List(ListOp::Concat), args) => self
                .list_len(args[0].list())?
                .add(&self.list_len(args[1].list())?)?,
            ListT::App(Fun::List(ListOp::Set), args) => self.list_len(args[0].list())?,
            _ => {
                self.abstracted();
                Lin::atom(IAtom::App(
                    Fun::List(ListOp::Len),
                    vec![Val::List(l.clone())],
                ))
            }
        })
    }

    pub(super) fn list_get(&self, l: &ListT, i: &Lin) -> Analysed<Cases<Val>> {
        if let (ListT::App(Fun::List(ListOp::Lit(n)), items), Some(k)) = (l, i.as_const()) {
            return Ok(if k >= 0 && (k as usize) < *n {
                vec![(Vec::new(), items[k as usize].clone())]
            } else {
                Vec::new()
            });
        }
        let len = self.list_len(l)?;
        self.abstracted();
        let conds = vec![Form::le(i.neg()?), Form::int_lt(i, &len)?];
        // Reading back the element just written (`l[i] = -l[i]` twice).
        if let ListT::App(Fun::List(ListOp::Set), args) = l {
            if args[1].int() == i {
                return Ok(vec![(conds, args[2].clone())]);
            }
        }
        let v = Lin::atom(IAtom::App(
            Fun::List(ListOp::Get),
            vec![Val::List(l.clone()), Val::Int(i.clone())],
        ));
        Ok(vec![(conds, Val::Int(v))])
    }

    pub(super) fn list_set(&self, l: &ListT, i: &Lin, v: &Val) -> Analysed<Cases<ListT>> {
        if let (ListT::App(Fun::List(ListOp::Lit(n)), items), Some(k)) = (l, i.as_const()) {
            return Ok(if k >= 0 && (k as usize) < *n {
                let mut items = items.clone();
                items[k as usize] = v.clone();
                vec![(Vec::new(), ListT::App(Fun::List(ListOp::Lit(*n)), items))]
            } else {
                Vec::new()
            });
        }
        let len = self.list_len(l)?;
        self.abstracted();
        let conds = vec![Form::le(i.neg()?), Form::int_lt(i, &len)?];
        let new = ListT::App(
            Fun::List(ListOp::Set),
            vec![Val::List(l.clone()), Val::Int(i.clone()), v.clone()],
        );
        Ok(vec![(conds, new)])
    }

    pub(super) fn builtin(&self, b: Builtin, args: &[Val]) -> Analysed<Cases<Val>> {
        let one = |v: Val| Ok(vec![(Vec::new(), v)]);
        match b {
            Builtin::Min | Builtin::Max => {
                let (x, y) = (args[0].int(), args[1].int());
                let le = Form::int_le(x, y)?;
                let (first, second) = if b == Builtin::Min { (x, y) } else { (y, x) };
                Ok(prune(vec![
                    (vec![le.clone()], Val::Int(first.clone())),
                    (vec![le.not()], Val::Int(second.clone())),
                ]))
            }
            Builtin::Abs => {
                let x = args[0].int();
                let nonneg = Form::le(x.neg()?);
                let mut out = vec![(vec![nonneg.clone()], Val::Int(x.clone()))];
                // `abs(MIN)` overflows.
                for (mut c, v) in int_result(x.neg()?)? {
                    c.push(nonneg.clone().not());
                    out.push((c, v));
                }
                Ok(prune(out))
            }
            Builtin::Len => one(Val::Int(self.list_len(args[0].list())?)),
            Builtin::Head | Builtin::Tail => {
                let l = args[0].list();
                if let ListT::App(Fun::List(ListOp::Lit(n)), items) = l {
                    if *n == 0 {
                        return Ok(Vec::new());
                    }
                    return one(if b == Builtin::Head {
                        items[0].clone()
                    } else {
                        Val::List(self.list_app(ListOp::Lit(n - 1), items[1..].to_vec()))
                    });
                }
                let nonempty = Form::le(Lin::constant(1).sub(&self.list_len(l)?)?);
                self.abstracted();
                let v = if b == Builtin::Head {
                    Val::Int(Lin::atom(IAtom::App(
                        Fun::List(ListOp::Head),
                        vec![args[0].clone()],
                    )))
                } else {
                    Val::List(ListT::App(Fun::List(ListOp::Tail), vec![args[0].clone()]))
                };
                Ok(vec![(vec![nonempty], v)])
            }
            Builtin::Append => self.grown_list(ListOp::Append, args.to_vec()),
            Builtin::Take => one(Val::List(self.list_app(ListOp::Take, args.to_vec()))),
            Builtin::Drop => one(Val::List(self.list_app(ListOp::Drop, args.to_vec()))),
        }
    }

    pub(super) fn call(&self, f: FunId, args: Vec<Val>, depth: u32) -> Analysed<Cases<Val>> {
        within_budget(args.iter().map(|a| a as &dyn Visit))?;
        let fun = &self.program.funs[f as usize];
        if self.inlinable[f as usize] {
            if depth >= MAX_INLINE_DEPTH {
                return Err(Abort::InlineTooDeep);
            }
            let mut frame = args;
            frame.extend(
                fun.code.locals[frame.len()..]
                    .iter()
                    .map(|l| value_of(&Value::zero(l.ty))),
            );
            let st = State {
                globals: Vec::new(),
                locals: [frame, Vec::new()],
                spawns: Vec::new(),
                path: Vec::new(),
                visits: Vec::new(),
            };
            let exits = self.exec(&fun.code, None, 0, 0, st, depth + 1)?;
            return Ok(exits
                .into_iter()
                .filter_map(|(s, exit)| match exit {
                    Exit::Value(v) => Some((s.path, v)),
                    _ => None,
                })
                .collect());
        }
        // A fun that loops or recurses may fail, recurse past the depth limit or never
        // end, whatever its code says: `CallOk` is always a condition.
        self.abstracted();
        let conds = vec![Form::BApp(Fun::CallOk(f), args.clone())];
        let v = app_of(fun.ret, Fun::Call(f), args);
        Ok(vec![(conds, v)])
    }

    pub(super) fn analyse_funs(&mut self) {
        let funs = &self.program.funs;
        let n = funs.len();
        let calls: Vec<BTreeSet<FunId>> = funs
            .iter()
            .map(|f| {
                let mut out = BTreeSet::new();
                for i in &f.code.instrs {
                    i.kind.for_each_expr(&mut |e| calls_in(e, &mut out));
                }
                out
            })
            .collect();
        // Recursive: reaches itself through calls.
        let reaches = |from: usize| -> BTreeSet<FunId> {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<FunId> = calls[from].iter().copied().collect();
            while let Some(f) = stack.pop() {
                if seen.insert(f) {
                    stack.extend(calls[f as usize].iter().copied());
                }
            }
            seen
        };
        let has_loop = |code: &Code| {
            code.instrs.iter().enumerate().any(|(pc, i)| match i.kind {
                InstrKind::Jump(t) | InstrKind::JumpUnless(_, t) => t as usize <= pc,
                _ => false,
            })
        };
        let mut inlinable = vec![false; n];
        for (f, fun) in funs.iter().enumerate() {
            let reach = reaches(f);
            let recursive = reach.contains(&(f as FunId));
            let loops =
                has_loop(&fun.code) || reach.iter().any(|g| has_loop(&funs[*g as usize].code));
            inlinable[f] = !recursive && !loops;
        }
        self.inlinable = inlinable;
    }
}

fn calls_in(e: &Expr, out: &mut BTreeSet<FunId>) {
    e.walk(&mut |x| {
        if let ExprKind::Call(f, _) = x.kind {
            out.insert(f);
        }
    });
}
