//! Atoms of the formula as expressions of the language, for the constraints of
//! `ics.json`: a local of the pair's first block is written plainly, one of the
//! second block with a prime.
//!
//! Only atoms the language can say *and* the explorer can evaluate are printable:
//! no loop or fun-call functions, no hidden locals, no array or map contents that a
//! loop produced. AllSAT builds cubes from printable atoms only.

use frontend::ast::{self, BinOp, Ident, Span, UnOp};
use frontend::ir::{BlockId, GlobalId, Program};
use frontend::symbolic::{
    ArrBase, Coef, Form, Fun, IAtom, Lin, ListOp, ListT, MapBase, Val, Var, INT_MAX, INT_MIN,
};

pub struct Printer<'p> {
    pub program: &'p Program,
    /// The pair's blocks (slot 0, slot 1).
    pub blocks: [BlockId; 2],
}

fn e(kind: ast::ExprKind) -> ast::Expr {
    ast::Expr {
        kind,
        span: Span::default(),
    }
}

fn var(name: String) -> ast::Expr {
    e(ast::ExprKind::Var(Ident {
        name,
        span: Span::default(),
    }))
}

/// A 64-bit constant as an expression (`None` beyond 64 bits). `i64::MIN` has no
/// literal (`9223372036854775808` does not fit), so it is written
/// `-9223372036854775807 - 1`, which evaluates without overflow.
fn int(k: Coef) -> Option<ast::Expr> {
    let n = i64::try_from(k).ok()?;
    if n == i64::MIN {
        return Some(bin(BinOp::Sub, int(k + 1)?, e(ast::ExprKind::Int(1))));
    }
    if n < 0 {
        Some(e(ast::ExprKind::Unary(
            UnOp::Neg,
            Box::new(e(ast::ExprKind::Int(-n))),
        )))
    } else {
        Some(e(ast::ExprKind::Int(n)))
    }
}

fn bin(op: BinOp, a: ast::Expr, b: ast::Expr) -> ast::Expr {
    e(ast::ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

fn call(f: &str, args: Vec<ast::Expr>) -> ast::Expr {
    e(ast::ExprKind::Call(
        Ident {
            name: f.to_string(),
            span: Span::default(),
        },
        args,
    ))
}

/// A literal of a cube: an atom or its negation.
pub type Lit = (Form, bool);

impl Printer<'_> {
    fn var_name(&self, v: &Var) -> Option<String> {
        match v {
            Var::Param(i) => Some(self.program.params[*i as usize].name.clone()),
            Var::Global(g) => Some(self.program.globals[*g as usize].name.clone()),
            Var::Local(slot, l) => {
                let block = self.blocks[*slot as usize];
                let proc = self.program.blocks[block as usize].proc;
                let local = &self.program.procs[proc as usize].code.locals[*l as usize];
                if local.hidden || local.name.contains('.') {
                    return None;
                }
                // The name must lead back to this very local when the constraint is read.
                match frontend::ics::local_by_name(self.program, block, &local.name) {
                    Ok((found, _)) if found == *l => {}
                    _ => return None,
                }
                Some(if *slot == 0 {
                    local.name.clone()
                } else {
                    format!("{}'", local.name)
                })
            }
        }
    }

    fn global(&self, g: GlobalId) -> ast::Expr {
        var(self.program.globals[g as usize].name.clone())
    }

    fn index(&self, base: ast::Expr, i: &Lin) -> Option<ast::Expr> {
        Some(e(ast::ExprKind::Index(
            Box::new(base),
            Box::new(self.lin(i)?),
        )))
    }

    /// `g[i]` for an element of a global array as the state before holds it; an
    /// array a loop left is unprintable.
    fn element(&self, base: &ArrBase, i: &Lin) -> Option<ast::Expr> {
        match base {
            ArrBase::Init(g) => self.index(self.global(*g), i),
            ArrBase::App(..) => None,
        }
    }

    fn val(&self, v: &Val) -> Option<ast::Expr> {
        match v {
            Val::Int(l) => self.lin(l),
            Val::Bool(f) => self.form(f),
            Val::List(l) => self.list(l),
            Val::Arr(_) | Val::Map(_) => None,
        }
    }

    fn list(&self, l: &ListT) -> Option<ast::Expr> {
        match l {
            ListT::Var(v) => Some(var(self.var_name(v)?)),
            ListT::App(Fun::List(op), args) => {
                let args: Vec<ast::Expr> =
                    args.iter().map(|a| self.val(a)).collect::<Option<_>>()?;
                Some(match op {
                    ListOp::Lit(_) => e(ast::ExprKind::List(args)),
                    ListOp::Concat => {
                        let mut it = args.into_iter();
                        let (a, b) = (it.next()?, it.next()?);
                        bin(BinOp::Concat, a, b)
                    }
                    ListOp::Tail | ListOp::Append | ListOp::Take | ListOp::Drop => {
                        call(op.name(), args)
                    }
                    ListOp::Set | ListOp::Len | ListOp::Head | ListOp::Get => return None,
                })
            }
            ListT::App(..) => None,
            ListT::Select(base, i) => self.element(base, i),
        }
    }

    fn iatom(&self, a: &IAtom) -> Option<ast::Expr> {
        match a {
            IAtom::Var(v) => Some(var(self.var_name(v)?)),
            IAtom::Select(base, i) => self.element(base, i),
            IAtom::MapGet(base, k) => match &**base {
                MapBase::Init(g) => self.index(self.global(*g), k),
                MapBase::App(..) => None,
            },
            IAtom::ArrLen(g) => Some(call("len", vec![self.global(*g)])),
            IAtom::DivC(x, c) => Some(bin(BinOp::Div, self.lin(x)?, int(*c as Coef)?)),
            IAtom::ModC(x, c) => Some(bin(BinOp::Mod, self.lin(x)?, int(*c as Coef)?)),
            IAtom::App(f, args) => {
                let xs: Vec<ast::Expr> = args.iter().map(|a| self.val(a)).collect::<Option<_>>()?;
                let mut it = xs.into_iter();
                match f {
                    Fun::Mul => Some(bin(BinOp::Mul, it.next()?, it.next()?)),
                    Fun::Div => Some(bin(BinOp::Div, it.next()?, it.next()?)),
                    Fun::Mod => Some(bin(BinOp::Mod, it.next()?, it.next()?)),
                    Fun::List(ListOp::Len) => Some(call("len", it.collect())),
                    Fun::List(ListOp::Head) => Some(call("head", it.collect())),
                    Fun::List(ListOp::Get) => {
                        let (l, i) = (it.next()?, it.next()?);
                        Some(e(ast::ExprKind::Index(Box::new(l), Box::new(i))))
                    }
                    _ => None,
                }
            }
        }
    }

    /// `c·t` as an expression, for `c > 0`.
    fn term(&self, a: &IAtom, c: Coef) -> Option<ast::Expr> {
        let t = self.iatom(a)?;
        Some(if c == 1 {
            t
        } else {
            bin(BinOp::Mul, int(c)?, t)
        })
    }

    /// A sum of terms with positive coefficients plus a constant (`None` for 0 terms
    /// and no constant gives `0`).
    fn sum(&self, terms: &[(IAtom, Coef)], k: Coef) -> Option<ast::Expr> {
        let mut acc: Option<ast::Expr> = None;
        for (a, c) in terms {
            let t = self.term(a, *c)?;
            acc = Some(match acc {
                None => t,
                Some(x) => bin(BinOp::Add, x, t),
            });
        }
        match (acc, k) {
            (None, k) => int(k),
            (Some(x), 0) => Some(x),
            (Some(x), k) if k > 0 || k == INT_MIN => Some(bin(BinOp::Add, x, int(k)?)),
            (Some(x), k) => Some(bin(BinOp::Sub, x, int(-k)?)),
        }
    }

    /// A linear term as an expression.
    pub fn lin(&self, l: &Lin) -> Option<ast::Expr> {
        let pos: Vec<(IAtom, Coef)> = l.terms.iter().filter(|(_, c)| *c > 0).cloned().collect();
        let neg: Vec<(IAtom, Coef)> = l
            .terms
            .iter()
            .filter(|(_, c)| *c < 0)
            .map(|(a, c)| (a.clone(), -c))
            .collect();
        let mut x = if pos.is_empty() {
            None
        } else {
            Some(self.sum(&pos, 0)?)
        };
        for (a, c) in &neg {
            let t = self.term(a, *c)?;
            x = Some(match x {
                None => e(ast::ExprKind::Unary(UnOp::Neg, Box::new(t))),
                Some(x) => bin(BinOp::Sub, x, t),
            });
        }
        match (x, l.k) {
            (None, k) => int(k),
            (Some(x), 0) => Some(x),
            (Some(x), k) if k > 0 => Some(bin(BinOp::Add, x, int(k)?)),
            (Some(x), k) => Some(bin(BinOp::Sub, x, int(-k)?)),
        }
    }

    /// `lin ⋈ 0` with the terms split over both sides: positive coefficients on the
    /// left, negative ones (negated) and the constant on the right.
    fn comparison(&self, l: &Lin, op: BinOp) -> Option<ast::Expr> {
        let pos: Vec<(IAtom, Coef)> = l.terms.iter().filter(|(_, c)| *c > 0).cloned().collect();
        let neg: Vec<(IAtom, Coef)> = l
            .terms
            .iter()
            .filter(|(_, c)| *c < 0)
            .map(|(a, c)| (a.clone(), -c))
            .collect();
        // A range condition of an operation with terms of both signs (`a - b <= MAX`)
        // is printed with the operation whole on the left, as the block computes it:
        // moving `b` to the right would evaluate `b + MAX`, which overflows where the
        // block does not (safe, as the constraint then does not hold, but not
        // necessary).
        if !pos.is_empty() && !neg.is_empty() && l.k.abs() > BIG {
            let bound = if l.k < 0 { INT_MAX } else { INT_MIN };
            let e = l.add_const(bound).ok()?;
            return Some(bin(op, self.lin(&e)?, int(bound)?));
        }
        // The constant goes to the right, as far as 64 bits allow: `x + 3 >= i64::MIN`
        // is not `x >= i64::MIN - 3`, which has no literal, but keeps its `+ 3`.
        let rhs_k = (-l.k).clamp(INT_MIN, INT_MAX);
        let lhs = self.sum(&pos, l.k.checked_add(rhs_k)?)?;
        let rhs = self.sum(&neg, rhs_k)?;
        Some(bin(op, lhs, rhs))
    }

    /// A formula as an expression, if the language can say it.
    pub fn form(&self, f: &Form) -> Option<ast::Expr> {
        match f {
            Form::True => Some(e(ast::ExprKind::Bool(true))),
            Form::False => Some(e(ast::ExprKind::Bool(false))),
            Form::Le(l) => {
                // `lin <= 0`; when the first coefficient is negative, read it as `-lin >= 0`.
                if l.terms.first().is_some_and(|(_, c)| *c < 0) {
                    let n = l.neg().ok()?;
                    // `x >= 1` reads better as `x > 0`.
                    let only_pos = n.terms.iter().all(|(_, c)| *c > 0);
                    if only_pos && n.k == -1 {
                        let m = n.add_const(1).ok()?;
                        return self.comparison(&m, BinOp::Gt);
                    }
                    self.comparison(&n, BinOp::Ge)
                } else {
                    self.comparison(l, BinOp::Le)
                }
            }
            Form::Eq(l) => self.comparison(l, BinOp::Eq),
            Form::BVar(v) => Some(var(self.var_name(v)?)),
            Form::BSelect(base, i) => self.element(base, i),
            Form::MapHas(base, k) => match &**base {
                MapBase::Init(g) => Some(call("has", vec![self.global(*g), self.lin(k)?])),
                MapBase::App(..) => None,
            },
            Form::ListEq(a, b) => Some(bin(BinOp::Eq, self.list(a)?, self.list(b)?)),
            Form::BApp(..) | Form::ArrEq(..) | Form::MapEq(..) => None,
            Form::Not(a) => Some(match self.form(a)? {
                ast::Expr {
                    kind: ast::ExprKind::Binary(BinOp::Eq, x, y),
                    ..
                } => bin(BinOp::Ne, *x, *y),
                x => e(ast::ExprKind::Unary(UnOp::Not, Box::new(x))),
            }),
            Form::And(fs) | Form::Or(fs) => {
                let op = if matches!(f, Form::And(_)) {
                    BinOp::And
                } else {
                    BinOp::Or
                };
                let mut acc: Option<ast::Expr> = None;
                for x in fs {
                    let x = self.form(x)?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) => bin(op, a, x),
                    });
                }
                acc
            }
            Form::Iff(a, b) => Some(bin(BinOp::Eq, self.form(a)?, self.form(b)?)),
        }
    }

    pub fn printable(&self, f: &Form) -> bool {
        self.form(f).is_some()
    }

    /// A literal in its most readable form: a negated comparison `!(l <= 0)` becomes
    /// `-l + 1 <= 0`.
    pub fn literal(&self, (atom, positive): &Lit) -> Form {
        match (atom, positive) {
            (a, true) => a.clone(),
            (Form::Le(l), false) => match l.neg().and_then(|n| n.add_const(1)) {
                Ok(n) => Form::le(n),
                Err(_) => atom.clone().not(),
            },
            (a, false) => a.clone().not(),
        }
    }

    /// A cube (conjunction of literals) as the text of a constraint.
    pub fn cube(&self, lits: &[Lit]) -> Option<String> {
        let forms: Vec<Form> = simplify_cube(lits.iter().map(|l| self.literal(l)).collect());
        if forms.is_empty() {
            return Some("true".to_string());
        }
        let mut acc: Option<ast::Expr> = None;
        for f in &forms {
            let x = self.form(f)?;
            acc = Some(match acc {
                None => x,
                Some(a) => bin(BinOp::And, a, x),
            });
        }
        acc.map(|x| frontend::pretty::expr(&x))
    }
}

/// Constants beyond this size only appear in range conditions (`e <= i64::MAX`).
const BIG: Coef = 1 << 62;

/// Merges `l <= 0` and `-l <= 0` into `l == 0`, and `e <= i64::MAX` and
/// `e >= i64::MIN` (the "no overflow" conditions of one operation) into the first.
///
/// The second merge relies on how constraints are evaluated: with the interpreter's
/// checked 64-bit arithmetic, an evaluation that overflows making the constraint not
/// hold (`ics::Constraint::holds`). `e <= i64::MAX` is printed so that it evaluates
/// `e` whole (`P <= MAX - c` for `e = P + c` with positive coefficients alone, whose
/// evaluation in range gives `e >= MIN + c >= MIN` when `c >= 0`, and `P - |c| <=
/// MAX` otherwise; the whole of `e`, or of `-e - 1` once negated, for mixed signs,
/// see [`Printer::comparison`]). Where it holds, `e` is thus in range, which implies
/// `e >= i64::MIN`: the printed constraint still implies the cube, and reads as "`e`
/// does not overflow". (All-negative `e` are left alone: their printed upper bound
/// does not bound `e` from below.)
fn simplify_cube(forms: Vec<Form>) -> Vec<Form> {
    let mut forms = merge_equalities(forms);
    let mut i = 0;
    while i < forms.len() {
        let redundant = match &forms[i] {
            Form::Le(low) => {
                // `low <= 0` is `e >= MIN` for `e = -low + MIN`: is `e - MAX <= 0` there
                // too? Only when `e` has positive coefficients alone is it printed as
                // `e <= MAX`, with `e` evaluated as a whole.
                let upper = low
                    .neg()
                    .and_then(|e| e.add_const(INT_MIN))
                    .and_then(|e| e.add_const(-INT_MAX));
                matches!(upper, Ok(u) if u.terms.iter().any(|(_, c)| *c > 0)
                    && forms.contains(&Form::Le(u.clone())))
            }
            _ => false,
        };
        if redundant {
            forms.remove(i);
        } else {
            i += 1;
        }
    }
    forms
}

fn merge_equalities(mut forms: Vec<Form>) -> Vec<Form> {
    let mut out = Vec::new();
    while let Some(f) = forms.pop() {
        if let Form::Le(l) = &f {
            if let Ok(n) = l.neg() {
                if let Some(i) = forms.iter().position(|g| *g == Form::Le(n.clone())) {
                    forms.remove(i);
                    out.push(Form::eq(l.clone()));
                    continue;
                }
            }
        }
        out.push(f);
    }
    out.reverse();
    out
}
