//! Walking terms: every atom-like node of a term or formula, for the questions asked
//! of them from outside ("does this constraint mention a loop output?", "which atoms
//! can be printed?").

use super::term::{ArrBase, Form, Fun, IAtom, Lin, ListT, MapBase, Val, Var};
use crate::ir::GlobalId;

/// Visits every sub-term: calls `f` on each atom-like node, for "does this mention …".
pub trait Visit {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>));
}

/// A node seen by [`Visit`].
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    /// An integer term (visited before its parts).
    Int(&'a IAtom),
    Var(Var),
    Fun(&'a Fun),
    ArrLen(GlobalId),
    ArrInit(GlobalId),
    MapInit(GlobalId),
    Div,
}

impl Visit for Lin {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        for (a, _) in &self.terms {
            a.visit(f);
        }
    }
}

impl Visit for IAtom {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        f(Node::Int(self));
        match self {
            IAtom::Var(v) => f(Node::Var(*v)),
            IAtom::Select(b, i) => {
                b.visit(f);
                i.visit(f);
            }
            IAtom::MapGet(m, k) => {
                m.visit(f);
                k.visit(f);
            }
            IAtom::ArrLen(g) => f(Node::ArrLen(*g)),
            IAtom::DivC(l, _) | IAtom::ModC(l, _) => {
                f(Node::Div);
                l.visit(f);
            }
            IAtom::App(fun, args) => {
                f(Node::Fun(fun));
                args.iter().for_each(|a| a.visit(f));
            }
        }
    }
}

impl Visit for ArrBase {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        match self {
            ArrBase::Init(g) => f(Node::ArrInit(*g)),
            ArrBase::App(fun, args) => {
                f(Node::Fun(fun));
                args.iter().for_each(|a| a.visit(f));
            }
        }
    }
}

impl Visit for MapBase {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        match self {
            MapBase::Init(g) => f(Node::MapInit(*g)),
            MapBase::App(fun, args) => {
                f(Node::Fun(fun));
                args.iter().for_each(|a| a.visit(f));
            }
        }
    }
}

impl Visit for ListT {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        match self {
            ListT::Var(v) => f(Node::Var(*v)),
            ListT::App(fun, args) => {
                f(Node::Fun(fun));
                args.iter().for_each(|a| a.visit(f));
            }
            ListT::Select(b, i) => {
                b.visit(f);
                i.visit(f);
            }
        }
    }
}

impl Visit for Val {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        match self {
            Val::Int(l) => l.visit(f),
            Val::Bool(b) => b.visit(f),
            Val::List(l) => l.visit(f),
            Val::Arr(a) => {
                a.base.visit(f);
                for (k, v) in &a.log {
                    k.visit(f);
                    v.visit(f);
                }
            }
            Val::Map(m) => {
                m.base.visit(f);
                for (k, v) in &m.log {
                    k.visit(f);
                    v.visit(f);
                }
            }
        }
    }
}

impl Visit for Form {
    fn visit(&self, f: &mut dyn FnMut(Node<'_>)) {
        match self {
            Form::True | Form::False => {}
            Form::Le(l) | Form::Eq(l) => l.visit(f),
            Form::BVar(v) => f(Node::Var(*v)),
            Form::BSelect(b, i) => {
                b.visit(f);
                i.visit(f);
            }
            Form::MapHas(m, k) => {
                m.visit(f);
                k.visit(f);
            }
            Form::BApp(fun, args) => {
                f(Node::Fun(fun));
                args.iter().for_each(|a| a.visit(f));
            }
            Form::ListEq(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Form::ArrEq(a, b) => {
                Val::Arr((**a).clone()).visit(f);
                Val::Arr((**b).clone()).visit(f);
            }
            Form::MapEq(a, b) => {
                Val::Map((**a).clone()).visit(f);
                Val::Map((**b).clone()).visit(f);
            }
            Form::Not(a) => a.visit(f),
            Form::And(fs) | Form::Or(fs) => fs.iter().for_each(|x| x.visit(f)),
            Form::Iff(a, b) => {
                a.visit(f);
                b.visit(f);
            }
        }
    }
}
