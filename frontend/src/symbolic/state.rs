//! Symbolic states, and what a block run makes of one.

use super::term::{ArrVal, Coef, Form, Fun, IAtom, Lin, ListOp, ListT, MapVal, Slot, Val, Var};
use crate::interp::Next;
use crate::ir::{BlockId, Pc, ProcId, MAX_LIST_LEN};
use crate::value::{Ty, Value};

/// The value of one global in a symbolic state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalVal {
    Scalar(Val),
    Array(ArrVal),
    Map(MapVal),
}

impl GlobalVal {
    pub fn as_val(&self) -> Val {
        match self {
            GlobalVal::Scalar(v) => v.clone(),
            GlobalVal::Array(a) => Val::Arr(a.clone()),
            GlobalVal::Map(m) => Val::Map(m.clone()),
        }
    }
}

/// A process created by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spawned {
    /// The slot of the process that spawned it.
    pub by: Slot,
    pub what: SpawnKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpawnKind {
    /// `spawn P(args)`
    Proc(ProcId, Vec<Val>),
    /// Whatever an abstracted loop spawned: an opaque multiset.
    Bag(Fun, Vec<Val>),
}

/// A symbolic state: values as terms over the state before the first run.
#[derive(Clone, Debug)]
pub struct State {
    pub globals: Vec<GlobalVal>,
    /// The locals of the process in each slot (empty when the slot is unused).
    pub locals: [Vec<Val>; 2],
    pub spawns: Vec<Spawned>,
    /// Conjunction of the conditions taken so far.
    pub path: Vec<Form>,
    /// How often this path has entered each pc of a loop in the current block run
    /// (loops are unrolled a few times before they are abstracted).
    pub visits: Vec<LoopVisits>,
}

/// How often a path entered one pc of a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopVisits {
    pub pc: Pc,
    /// Entries in all.
    pub total: u32,
    /// Entries after which the path condition had grown since the previous entry:
    /// the iterations that were not decided by constants.
    pub symbolic: u32,
    /// Length of the path condition at the last entry.
    pub path_len: usize,
}

impl State {
    /// Adds `conds` to the path condition: false when one is plainly false.
    ///
    /// The condition that a list an `append` or `++` made fits (`len(l) + 2 <=
    /// MAX_LIST_LEN`: [`super::term::list_fits`]) tightens the one the path already
    /// has on the same lengths, if any, rather than adding one: a loop that appends
    /// at every turn then adds no condition of its own at each turn, and its turns
    /// count as decided by constants ([`LoopVisits`]), as they did before lists had
    /// a length limit. A program's own test of a length (`while (len(l) < 100)`)
    /// is added as any branch is: it decides the turn.
    pub(super) fn assume(&mut self, conds: Vec<Form>) -> bool {
        for c in conds {
            match c {
                Form::True => {}
                Form::False => return false,
                Form::Le(bound) if is_fit_condition(&bound) => {
                    let same = |f: &Form| matches!(f, Form::Le(old) if old.terms == bound.terms);
                    match self.path.iter_mut().find(|f| same(f)) {
                        // `terms + k <= 0`: the larger `k`, the tighter.
                        Some(Form::Le(old)) => old.k = old.k.max(bound.k),
                        _ => self.path.push(Form::Le(bound)),
                    }
                }
                c => self.path.push(c),
            }
        }
        true
    }
}

/// Whether `lin <= 0` is the condition that a list fits ([`super::term::list_fits`]):
/// it bounds a sum of lengths of lists, each with a positive coefficient, by at
/// least half the limit. A bound that large is what a list that grows needs (a
/// program that tests a length against such a number is not told apart, and
/// tightening two bounds of one sum is only the same conjunction, shorter).
fn is_fit_condition(lin: &Lin) -> bool {
    let length = |a: &IAtom| matches!(a, IAtom::App(Fun::List(ListOp::Len), _));
    let near_the_limit = -lin.k >= MAX_LIST_LEN as Coef / 2;
    near_the_limit && !lin.terms.is_empty() && (lin.terms.iter()).all(|(a, c)| length(a) && *c > 0)
}

/// One path through a block: its condition, the state after it, the continuation.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub state: State,
    pub next: Next,
}

/// A block as a transition system over the state before it (slot 0): one
/// transition per path that ends normally. The guard includes the `await` condition.
#[derive(Clone, Debug)]
pub struct TransitionSystem {
    pub block: BlockId,
    pub transitions: Vec<Outcome>,
    /// No abstraction was used.
    pub exact: bool,
}

/// A variable of the given type as a value.
pub fn var_of(ty: Ty, v: Var) -> Val {
    match ty {
        Ty::Int => Val::Int(Lin::var(v)),
        Ty::Bool => Val::Bool(Form::BVar(v)),
        Ty::List => Val::List(ListT::Var(v)),
    }
}

pub(super) fn app_of(ty: Ty, f: Fun, args: Vec<Val>) -> Val {
    match ty {
        Ty::Int => Val::Int(Lin::atom(IAtom::App(f, args))),
        Ty::Bool => Val::Bool(Form::BApp(f, args)),
        Ty::List => Val::List(ListT::App(f, args)),
    }
}

/// A concrete value as a term.
pub fn value_of(v: &Value) -> Val {
    match v {
        Value::Int(n) => Val::Int(Lin::constant(*n as Coef)),
        Value::Bool(b) => Val::Bool(Form::from_bool(*b)),
        Value::List(items) => Val::List(ListT::App(
            Fun::List(ListOp::Lit(items.len())),
            items
                .iter()
                .map(|n| Val::Int(Lin::constant(*n as Coef)))
                .collect(),
        )),
    }
}
