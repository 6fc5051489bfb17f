//! Terms and formulas of `frontend::symbolic` as z3 terms.
//!
//! Integers are z3's unbounded integers; lists and spawn bags are values of
//! uninterpreted sorts; arrays are z3 arrays from Int; a map is two arrays (its
//! values, 0 when absent, and which keys are present); every [`Fun`] is an
//! uninterpreted function. One [`Smt`] per thread: z3 objects live in the thread's
//! context.

use frontend::ir::{GlobalId, GlobalKind, Program};
use frontend::symbolic::{
    ArrBase, ArrVal, Form, Fun, IAtom, Lin, ListT, MapBase, MapVal, Val, Var,
};
use frontend::value::Ty;
use std::collections::HashMap;
use z3::ast::{Array, Ast, Bool, Dynamic, Int};
use z3::{FuncDecl, Sort, Symbol};

pub struct Smt<'p> {
    program: &'p Program,
    funs: HashMap<String, FuncDecl>,
    list_sort: Sort,
}

impl<'p> Smt<'p> {
    pub fn new(program: &'p Program) -> Self {
        Smt {
            program,
            funs: HashMap::new(),
            list_sort: Sort::uninterpreted(Symbol::String("List".to_string())),
        }
    }

    fn var_name(&self, v: &Var) -> String {
        match v {
            Var::Param(i) => format!("param!{}", self.program.params[*i as usize].name),
            Var::Global(g) => format!("g!{}", self.program.globals[*g as usize].name),
            Var::Local(s, l) => format!("l{s}!{l}"),
        }
    }

    fn arr_sort(range: &Sort) -> Sort {
        Sort::array(&Sort::int(), range)
    }

    fn apply(&mut self, f: &Fun, suffix: &str, args: &[Val], range: &Sort) -> Dynamic {
        let mut zs: Vec<Dynamic> = Vec::new();
        for a in args {
            zs.extend(self.val(a));
        }
        let sorts: Vec<Sort> = zs.iter().map(|z| z.get_sort()).collect();
        let name = format!("{f:?}{suffix}");
        let key = format!("{name}:{sorts:?}->{range:?}");
        let decl = self.funs.entry(key).or_insert_with(|| {
            let d: Vec<&Sort> = sorts.iter().collect();
            FuncDecl::new(name, &d, range)
        });
        let refs: Vec<&dyn Ast> = zs.iter().map(|z| z as &dyn Ast).collect();
        decl.apply(&refs)
    }

    /// A value as z3 terms (a map is two).
    pub fn val(&mut self, v: &Val) -> Vec<Dynamic> {
        match v {
            Val::Int(l) => vec![Dynamic::from_ast(&self.lin(l))],
            Val::Bool(f) => vec![Dynamic::from_ast(&self.form(f))],
            Val::List(l) => vec![self.list(l)],
            Val::Arr(a) => vec![Dynamic::from_ast(&self.arr(a))],
            Val::Map(m) => {
                let (v, h) = self.map(m);
                vec![Dynamic::from_ast(&v), Dynamic::from_ast(&h)]
            }
        }
    }

    pub fn lin(&mut self, l: &Lin) -> Int {
        let mut parts: Vec<Int> = Vec::new();
        for (a, c) in &l.terms {
            let t = self.iatom(a);
            parts.push(if *c == 1 {
                t
            } else {
                Int::mul(&[Int::from_i128(*c), t])
            });
        }
        if l.k != 0 || parts.is_empty() {
            parts.push(Int::from_i128(l.k));
        }
        if parts.len() == 1 {
            parts.pop().unwrap_or_else(|| Int::from_i64(0))
        } else {
            Int::add(&parts)
        }
    }

    fn trunc_div(x: &Int, c: i64) -> Int {
        let m = Int::from_i128(i128::from(c).abs());
        let zero = Int::from_i64(0);
        let q = x
            .ge(&zero)
            .ite(&x.div(&m), &x.unary_minus().div(&m).unary_minus());
        if c < 0 {
            q.unary_minus()
        } else {
            q
        }
    }

    fn iatom(&mut self, a: &IAtom) -> Int {
        match a {
            IAtom::Var(v) => Int::new_const(self.var_name(v)),
            IAtom::Select(base, i) => {
                let arr = self.arr_base(base);
                let i = self.lin(i);
                arr.select(&i).as_int().expect("int array")
            }
            IAtom::MapGet(base, k) => {
                let (vals, _) = self.map_base(base);
                let k = self.lin(k);
                vals.select(&k).as_int().expect("int map")
            }
            IAtom::ArrLen(g) => {
                Int::new_const(format!("len!{}", self.program.globals[*g as usize].name))
            }
            IAtom::DivC(x, c) => {
                let x = self.lin(x);
                Self::trunc_div(&x, *c)
            }
            IAtom::ModC(x, c) => {
                let x = self.lin(x);
                let q = Self::trunc_div(&x, *c);
                Int::sub(&[x, Int::mul(&[Int::from_i64(*c), q])])
            }
            IAtom::App(f, args) => self
                .apply(f, "", args, &Sort::int())
                .as_int()
                .expect("int function"),
        }
    }

    fn list(&mut self, l: &ListT) -> Dynamic {
        match l {
            ListT::Var(v) => Dynamic::new_const(self.var_name(v), &self.list_sort.clone()),
            ListT::App(f, args) => {
                let sort = self.list_sort.clone();
                self.apply(f, "", args, &sort)
            }
            ListT::Select(base, i) => {
                let arr = self.arr_base(base);
                let i = self.lin(i);
                arr.select(&i)
            }
        }
    }

    /// The sort of the elements of global `g`, an array (of a loop's output for an
    /// array when `g` is given, of ints otherwise).
    fn elem_sort(&self, g: Option<GlobalId>) -> Sort {
        match g.map(|g| &self.program.globals[g as usize].kind) {
            Some(GlobalKind::Array { elem: Ty::Bool, .. }) => Sort::bool(),
            Some(GlobalKind::Array { elem: Ty::List, .. }) => self.list_sort.clone(),
            _ => Sort::int(),
        }
    }

    fn arr_base(&mut self, b: &ArrBase) -> Array {
        match b {
            ArrBase::Init(g) => Array::new_const(
                format!("arr!{}", self.program.globals[*g as usize].name),
                &Sort::int(),
                &self.elem_sort(Some(*g)),
            ),
            ArrBase::App(f, args) => {
                let g = match f {
                    Fun::Loop {
                        out: frontend::symbolic::LoopOut::Global(g),
                        ..
                    } => Some(*g),
                    _ => None,
                };
                let sort = Self::arr_sort(&self.elem_sort(g));
                self.apply(f, "", args, &sort)
                    .as_array()
                    .expect("array function")
            }
        }
    }

    pub fn arr(&mut self, a: &ArrVal) -> Array {
        let mut arr = self.arr_base(&a.base);
        for (i, v) in &a.log {
            let i = self.lin(i);
            let v = self.val(v).remove(0);
            arr = arr.store(&i, &v);
        }
        arr
    }

    fn map_base(&mut self, b: &MapBase) -> (Array, Array) {
        match b {
            MapBase::Init(g) => {
                let name = &self.program.globals[*g as usize].name;
                (
                    Array::new_const(format!("mapv!{name}"), &Sort::int(), &Sort::int()),
                    Array::new_const(format!("maph!{name}"), &Sort::int(), &Sort::bool()),
                )
            }
            MapBase::App(f, args) => {
                let v = self
                    .apply(f, "#val", args, &Self::arr_sort(&Sort::int()))
                    .as_array()
                    .expect("map values");
                let h = self
                    .apply(f, "#has", args, &Self::arr_sort(&Sort::bool()))
                    .as_array()
                    .expect("map keys");
                (v, h)
            }
        }
    }

    pub fn map(&mut self, m: &MapVal) -> (Array, Array) {
        let (mut v, mut h) = self.map_base(&m.base);
        for (k, x) in &m.log {
            let k = self.lin(k);
            let x = self.lin(x);
            v = v.store(&k, &x);
            h = h.store(&k, &Bool::from_bool(true));
        }
        (v, h)
    }

    pub fn form(&mut self, f: &Form) -> Bool {
        match f {
            Form::True => Bool::from_bool(true),
            Form::False => Bool::from_bool(false),
            Form::Le(l) => self.lin(l).le(Int::from_i64(0)),
            Form::Eq(l) => {
                // Σ positive terms == Σ negative terms − k reads better in models and cores.
                self.lin(l).eq(Int::from_i64(0))
            }
            Form::BVar(v) => Bool::new_const(self.var_name(v)),
            Form::BSelect(base, i) => {
                let arr = self.arr_base(base);
                let i = self.lin(i);
                arr.select(&i).as_bool().expect("bool array")
            }
            Form::MapHas(base, k) => {
                let (_, has) = self.map_base(base);
                let k = self.lin(k);
                has.select(&k).as_bool().expect("map keys")
            }
            Form::BApp(fun, args) => self
                .apply(fun, "", args, &Sort::bool())
                .as_bool()
                .expect("bool function"),
            Form::ListEq(a, b) => {
                let (a, b) = (self.list(a), self.list(b));
                a.eq(&b)
            }
            Form::ArrEq(a, b) => {
                let (a, b) = (self.arr(a), self.arr(b));
                a.eq(&b)
            }
            Form::MapEq(a, b) => {
                let (av, ah) = self.map(a);
                let (bv, bh) = self.map(b);
                Bool::and(&[av.eq(&bv), ah.eq(&bh)])
            }
            Form::Not(a) => self.form(a).not(),
            Form::And(fs) => {
                let zs: Vec<Bool> = fs.iter().map(|x| self.form(x)).collect();
                Bool::and(&zs)
            }
            Form::Or(fs) => {
                let zs: Vec<Bool> = fs.iter().map(|x| self.form(x)).collect();
                Bool::or(&zs)
            }
            Form::Iff(a, b) => {
                let (a, b) = (self.form(a), self.form(b));
                a.iff(&b)
            }
        }
    }
}
