//! Reachable ranges of scalar `int` globals, within a bound on the events of an
//! execution.
//!
//! The synthesised constraints carry 64-bit range conditions (`x <= 9223372036854775806`
//! for `x = x + 1`): they read a global that blocks write, so they are not a property
//! of the two events alone, and cdpor's back-set reduction cannot use them (see
//! `explorer::dependency::constraints`). Most globals a program does arithmetic on are counters
//! or sums that no execution takes anywhere near `i64::MAX`; this module bounds them.
//!
//! Each block is run symbolically once (`crate::symbolic`): on every path, a global
//! it writes ends as its old value plus a constant (`count = count + 1`: a step of 1),
//! as a constant (`x = 0`), as another global plus a constant (`z = x`: a copy), or
//! as something else (then the global has no range). A global whose every write is a
//! step of at most `d`, one of the constants `c_k` or a copy of globals `h_j` (with
//! ranges) lies, after at most `n` events from a state where it held `v0`, within
//! `[lo - n·d, hi + n·d]`, `[lo, hi]` the hull of `v0`, the `c_k` and the ranges of
//! the `h_j` shifted by their constants: its value is the last one assigned (or
//! `v0`) plus at most `n` steps; each event runs one block, and a block that fails
//! changes nothing. The explorer stops every execution at
//! `--max-depth` events, so with `n` that bound, the range holds in every state it
//! visits.
//!
//! A step may also be a sum of the block's locals and params (`acc = acc + p`, `p` a
//! task's argument): its size `d` is then the largest over the local states the block
//! may start with ([`LocalStates`]), when they are known. The same argument holds:
//! every event changes the global by at most `d`.
//!
//! **Lengths of lists.** The constraints also carry the condition that a list an
//! `append` or `++` makes stays within the length limit (`len(l) <= 1048575`), and
//! bounding a list global's length (of every element, for an array of lists) serves
//! them as bounding a counter does. The same argument bounds it from above: on every
//! path of a block, a list global ends as a list of the same global (each element as
//! one of the array's old elements), as a literal, or as another list global's
//! (element), each with at most so many elements more (`append`, `++` with a literal;
//! `tail`, `take`, `drop` and element writes only keep or shorten); otherwise (`l ++
//! l`, a local's list) it has no bound.

use crate::analysis::local_states::LocalStates;
use crate::ast::{BinOp, UnOp};
use crate::ics::{Constraint, Eval};
use crate::interp::{Limits, Machine};
use crate::ir::{BlockId, Builtin, Expr, ExprKind, GlobalId, GlobalKind, Param, Program};
use crate::memory::Memory;
use crate::symbolic::{ArrBase, Exec, Fun, GlobalVal, IAtom, Lin, ListOp, ListT, Val, Var};
use crate::value::{Ty, Value};
use std::cell::OnceCell;
use std::collections::BTreeSet;

/// The range of each global, or `None` (not a scalar `int`, or not bounded); and of
/// the length of each list global's lists.
#[derive(Clone, Debug, Default)]
pub struct Ranges {
    bounds: Vec<Option<(i64, i64)>>,
    /// By scalar list or array of lists: the lengths its lists (each element's) lie
    /// in, from 0, or `None`.
    lengths: Vec<Option<(i64, i64)>>,
}

/// What the blocks do to one scalar `int` global, or to the length of a list
/// global's lists (then `g` below stands for that length).
#[derive(Clone, Debug, Default)]
struct Writes {
    /// Some write is neither a constant step nor a constant.
    unbounded: bool,
    /// The largest `|c|` of a write `g = g + c`.
    step: i128,
    /// The constants written.
    constants: Vec<i128>,
    /// Writes `g = h + c` of another global `h`.
    copies: Vec<(GlobalId, i128)>,
}

impl Ranges {
    /// The ranges of the scalar `int` globals, and of the lengths of the list
    /// globals' lists, in every state reached by at most `events` events from the
    /// state with memory `initial` and processes at the blocks and local states
    /// `processes`.
    pub fn reachable(
        program: &Program,
        initial: &Memory,
        processes: &[(BlockId, Vec<Value>)],
        events: u64,
    ) -> Ranges {
        // Computed on first need: only a step that is not a constant asks for them.
        let starts: OnceCell<Option<LocalStates>> = OnceCell::new();
        let starts_of = |b: BlockId| {
            starts
                .get_or_init(|| {
                    let machine = Machine::new(program, Limits::default());
                    LocalStates::reachable(&machine, initial, processes, MAX_LOCAL_STATES)
                })
                .as_ref()
                .map(|s| s.of(b))
        };
        let scalar_int = |g: usize| matches!(program.globals[g].kind, GlobalKind::Scalar(Ty::Int));
        let mut writes = vec![Writes::default(); program.globals.len()];
        let mut lengths = vec![Writes::default(); program.globals.len()];
        let exec = Exec::new(program, None);
        for (b, block) in program.blocks.iter().enumerate() {
            let written: BTreeSet<GlobalId> = program.sets[b].writes.clone();
            if written.is_empty() {
                continue;
            }
            let s0 = exec.initial_state(&[(0, block.proc)]);
            let outcomes = exec.enabled(b as u32, 0, &s0).and_then(|states| {
                let mut all = Vec::new();
                for s in states {
                    all.extend(exec.run_block(b as u32, 0, s)?);
                }
                Ok(all)
            });
            for &g in &written {
                let (w, l) = (&mut writes[g as usize], &mut lengths[g as usize]);
                let Ok(outcomes) = &outcomes else {
                    w.unbounded = true;
                    l.unbounded = true;
                    continue;
                };
                let starts = || starts_of(b as BlockId);
                for o in outcomes {
                    match &o.state.globals[g as usize] {
                        GlobalVal::Scalar(Val::Int(lin)) => {
                            record(w, lin, g, &starts, &program.params)
                        }
                        GlobalVal::Scalar(Val::List(list)) => record_length(l, list, g),
                        GlobalVal::Array(array) if array.base == ArrBase::Init(g) => {
                            for (_, element) in &array.log {
                                match element {
                                    Val::List(list) => record_length(l, list, g),
                                    _ => l.unbounded = true,
                                }
                            }
                            w.unbounded = true;
                        }
                        _ => {
                            w.unbounded = true;
                            l.unbounded = true;
                        }
                    }
                }
            }
        }
        let bounds = settle(&writes, events, |g| {
            scalar_int(g).then(|| initial.scalar(g as GlobalId).clone())
        });
        let lengths = settle(&lengths, events, |g| {
            let longest = match program.globals[g].kind {
                GlobalKind::Scalar(Ty::List) => initial.scalar(g as GlobalId).list().len(),
                GlobalKind::Array {
                    elem: Ty::List,
                    len,
                } => (0..len)
                    .map(|i| initial.element(g as GlobalId, i).list().len())
                    .max()
                    .unwrap_or(0),
                _ => return None,
            };
            Some(Value::Int(longest as i64))
        });
        // A length is never below 0, however many steps.
        let lengths = (lengths.into_iter())
            .map(|r| r.map(|(_, hi)| (0, hi)))
            .collect();
        Ranges { bounds, lengths }
    }

    /// The range of global `g`, if it has one.
    pub fn get(&self, g: GlobalId) -> Option<(i64, i64)> {
        self.bounds.get(g as usize).copied().flatten()
    }

    /// The lengths the lists of list global `g` lie in (every element's, for an array
    /// of lists), if bounded.
    pub fn length(&self, g: GlobalId) -> Option<(i64, i64)> {
        self.lengths.get(g as usize).copied().flatten()
    }

    /// Whether global `g` has a range, or its lists a bound on their length.
    pub fn bounded(&self, g: GlobalId) -> bool {
        self.get(g).is_some() || self.length(g).is_some()
    }
}

/// The ranges of the globals whose writes are `writes` and whose initial values
/// `initial` gives (`None`: not bounded here), a global that copies another
/// getting that one's range: computed in rounds, each settling the globals whose
/// sources are settled (a cycle stays `None`).
fn settle(
    writes: &[Writes],
    events: u64,
    initial: impl Fn(usize) -> Option<Value>,
) -> Vec<Option<(i64, i64)>> {
    let mut bounds: Vec<Option<(i64, i64)>> = vec![None; writes.len()];
    let mut settled = vec![false; writes.len()];
    for _ in 0..=writes.len() {
        for (g, w) in writes.iter().enumerate() {
            if settled[g] || !w.copies.iter().all(|(h, _)| settled[*h as usize]) {
                continue;
            }
            settled[g] = true;
            if let Some(v0) = initial(g) {
                bounds[g] = range(w, &v0, &bounds, events);
            }
        }
    }
    bounds
}

/// One path's final list `list` of list global `g` (or of one of its elements), by
/// its length ([`length_of`]).
fn record_length(w: &mut Writes, list: &ListT, g: GlobalId) {
    match length_of(list) {
        Some((Some(h), c)) if h == g => w.step = w.step.max(c),
        Some((Some(h), c)) => w.copies.push((h, c)),
        Some((None, c)) => w.constants.push(c),
        None => w.unbounded = true,
    }
}

/// A bound on the length of `list`, a list a block made from the state before it:
/// at most that of list global `g`'s old value (or of one of its old elements) plus
/// `c`, as `(Some(g), c)`, or at most `c`, as `(None, c)`; `None` when neither.
fn length_of(list: &ListT) -> Option<(Option<GlobalId>, i128)> {
    match list {
        ListT::Var(Var::Global(g)) => Some((Some(*g), 0)),
        ListT::Select(base, _) => match **base {
            ArrBase::Init(g) => Some((Some(g), 0)),
            ArrBase::App(..) => None,
        },
        ListT::App(Fun::List(op), args) => match op {
            ListOp::Lit(n) => Some((None, *n as i128)),
            ListOp::Append => length_of(args[0].list()).map(|(of, c)| (of, c + 1)),
            ListOp::Concat => match (length_of(args[0].list())?, length_of(args[1].list())?) {
                ((of, a), (None, b)) | ((None, a), (of, b)) => Some((of, a + b)),
                // Two old lists (`l ++ l`): doubling, no bound by steps.
                _ => None,
            },
            ListOp::Set | ListOp::Tail | ListOp::Take | ListOp::Drop => length_of(args[0].list()),
            _ => None,
        },
        _ => None,
    }
}

impl Constraint {
    /// Whether the constraint holds in every state whose `mutable` globals lie within
    /// `ranges` (the others as in `mem`), for these locals: evaluated with intervals,
    /// and only where every value in them evaluates without failure, as
    /// [`Constraint::holds`] would (a 64-bit overflow, an index out of range: not
    /// holding).
    pub fn holds_within(
        &self,
        program: &Program,
        mem: &Memory,
        (a, b): (&[Value], &[Value]),
        ranges: &Ranges,
        mutable: &BTreeSet<GlobalId>,
    ) -> bool {
        let within = Within {
            eval: Eval {
                program,
                mem,
                a,
                b,
                split: self.split,
                reads: None,
            },
            ranges,
            mutable,
        };
        within.truth(&self.expr) == Some(true)
    }
}

/// Interval evaluation over [`Ranges`].
struct Within<'a> {
    eval: Eval<'a>,
    ranges: &'a Ranges,
    mutable: &'a BTreeSet<GlobalId>,
}

type Interval = (i128, i128);

impl Within<'_> {
    /// `e` reads no mutable global: its value is the same in every such state.
    fn fixed(&self, e: &Expr) -> bool {
        let here = match &e.kind {
            ExprKind::Global(g)
            | ExprKind::ArrayGet(g, _)
            | ExprKind::MapGet(g, _)
            | ExprKind::MapHas(g, _) => !self.mutable.contains(g),
            _ => true,
        };
        here && e.operands().all(|c| self.fixed(c))
    }

    /// The values `e` takes, each evaluated without failure; `None` when unknown.
    fn int(&self, e: &Expr) -> Option<Interval> {
        if self.fixed(e) {
            let n = i128::from(self.eval.int(e)?);
            return Some((n, n));
        }
        let (lo, hi) = match &e.kind {
            ExprKind::Global(g) => {
                let (lo, hi) = self.ranges.get(*g)?;
                (i128::from(lo), i128::from(hi))
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let (lo, hi) = self.int(x)?;
                (-hi, -lo)
            }
            ExprKind::Binary(BinOp::Add, x, y) => {
                let ((a, b), (c, d)) = (self.int(x)?, self.int(y)?);
                (a + c, b + d)
            }
            ExprKind::Binary(BinOp::Sub, x, y) => {
                let ((a, b), (c, d)) = (self.int(x)?, self.int(y)?);
                (a - d, b - c)
            }
            ExprKind::Binary(BinOp::Mul, x, y) => {
                let ((a, b), (c, d)) = (self.int(x)?, self.int(y)?);
                let corners = [
                    a.checked_mul(c)?,
                    a.checked_mul(d)?,
                    b.checked_mul(c)?,
                    b.checked_mul(d)?,
                ];
                (*corners.iter().min()?, *corners.iter().max()?)
            }
            // A list's length, when the list is a list global or an element of an
            // array of lists at an index that every such state evaluates alike
            // (and within the array, or the evaluation fails).
            ExprKind::Builtin(Builtin::Len, args) => {
                let (_, hi) = match &args[0].kind {
                    ExprKind::Global(g) => self.ranges.length(*g)?,
                    ExprKind::ArrayGet(g, i) if self.fixed(i) => {
                        let i = self.eval.int(i)?;
                        let GlobalKind::Array { len, .. } =
                            self.eval.program.globals[*g as usize].kind
                        else {
                            return None;
                        };
                        if usize::try_from(i).map_or(true, |i| i >= len) {
                            return None;
                        }
                        self.ranges.length(*g)?
                    }
                    _ => return None,
                };
                (0, i128::from(hi))
            }
            ExprKind::Builtin(Builtin::Min | Builtin::Max, args) => {
                let ((a, b), (c, d)) = (self.int(&args[0])?, self.int(&args[1])?);
                match &e.kind {
                    ExprKind::Builtin(Builtin::Min, _) => (a.min(c), b.min(d)),
                    _ => (a.max(c), b.max(d)),
                }
            }
            _ => return None,
        };
        // Every value must be a 64-bit result, or its evaluation may fail.
        (lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX)).then_some((lo, hi))
    }

    /// `Some(v)`: `e` evaluates to `v`, without failure, in every such state.
    fn truth(&self, e: &Expr) -> Option<bool> {
        if self.fixed(e) {
            return self.eval.boolean(e);
        }
        let compare = |x: &Expr, y: &Expr, op: BinOp| -> Option<bool> {
            let ((a, b), (c, d)) = (self.int(x)?, self.int(y)?);
            let (always, never) = match op {
                BinOp::Lt => (b < c, a >= d),
                BinOp::Le => (b <= c, a > d),
                BinOp::Gt => (a > d, b <= c),
                BinOp::Ge => (a >= d, b < c),
                BinOp::Eq => (a == b && b == c && c == d, b < c || d < a),
                BinOp::Ne => (b < c || d < a, a == b && b == c && c == d),
                _ => return None,
            };
            if always {
                Some(true)
            } else if never {
                Some(false)
            } else {
                None
            }
        };
        match &e.kind {
            ExprKind::Unary(UnOp::Not, x) => self.truth(x).map(|v| !v),
            ExprKind::Binary(BinOp::And, x, y) => match self.truth(x)? {
                false => Some(false),
                true => self.truth(y),
            },
            ExprKind::Binary(BinOp::Or, x, y) => match self.truth(x)? {
                true => Some(true),
                false => self.truth(y),
            },
            ExprKind::Binary(op, x, y) if x.ty == Ty::Int => compare(x, y, *op),
            _ => None,
        }
    }
}

/// Local states analysed at most, for the steps that are locals.
const MAX_LOCAL_STATES: usize = 10_000;

/// One path's final value `lin` of global `g`, in terms of the state before the block
/// (run by the process in slot 0), which starts in one of the local states `starts`
/// (`None`: unknown).
fn record<'a>(
    w: &mut Writes,
    lin: &Lin,
    g: GlobalId,
    starts: &dyn Fn() -> Option<&'a [Vec<Value>]>,
    params: &[Param],
) {
    if let Some(c) = lin.as_const() {
        w.constants.push(c);
        return;
    }
    if let Ok(d) = lin.sub(&Lin::var(Var::Global(g))) {
        if let Some(step) = largest(&d, starts, params) {
            w.step = w.step.max(step);
            return;
        }
    }
    // `g = h + c`: one term, a scalar global with coefficient 1.
    match lin.terms.as_slice() {
        [(IAtom::Var(Var::Global(h)), 1)] => w.copies.push((*h, lin.k)),
        _ => w.unbounded = true,
    }
}

/// The largest `|d|` of a step `d` over the block's locals and the params, over the
/// local states `starts` the block may start with (a constant needs none of them).
fn largest<'a>(
    d: &Lin,
    starts: &dyn Fn() -> Option<&'a [Vec<Value>]>,
    params: &[Param],
) -> Option<i128> {
    if let Some(c) = d.as_const() {
        return Some(c.abs());
    }
    let over_locals = d.terms.iter().all(|(atom, _)| {
        matches!(
            atom,
            IAtom::Var(Var::Local(0, _)) | IAtom::Var(Var::Param(_))
        )
    });
    if !over_locals {
        return None;
    }
    let mut largest = 0i128;
    for locals in starts()? {
        let mut v = d.k;
        for (atom, coef) in &d.terms {
            let x = match atom {
                IAtom::Var(Var::Local(0, l)) => match locals.get(*l as usize)? {
                    Value::Int(x) => i128::from(*x),
                    _ => return None,
                },
                IAtom::Var(Var::Param(p)) => i128::from(params.get(*p as usize)?.value),
                _ => return None,
            };
            v = v.checked_add(coef.checked_mul(x)?)?;
        }
        largest = largest.max(v.checked_abs()?);
    }
    Some(largest)
}

/// The range of a global initially `v0` whose writes are `w`, the ranges of the
/// globals it copies being in `bounds`.
fn range(w: &Writes, v0: &Value, bounds: &[Option<(i64, i64)>], events: u64) -> Option<(i64, i64)> {
    let Value::Int(v0) = v0 else {
        return None;
    };
    if w.unbounded {
        return None;
    }
    let mut hull = (i128::from(*v0), i128::from(*v0));
    let mut widen = |(lo, hi): (i128, i128)| hull = (hull.0.min(lo), hull.1.max(hi));
    for &c in &w.constants {
        widen((c, c));
    }
    for &(h, c) in &w.copies {
        let (lo, hi) = bounds[h as usize]?;
        widen((i128::from(lo) + c, i128::from(hi) + c));
    }
    let reach = w.step.checked_mul(i128::from(events))?;
    let lo = i64::try_from(hull.0.checked_sub(reach)?).ok()?;
    let hi = i64::try_from(hull.1.checked_add(reach)?).ok()?;
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(source: &str, events: u64) -> (Program, Ranges) {
        let program = crate::load(source, &[]).expect("loads");
        let machine = Machine::new(&program, Limits::default());
        let (memory, processes) = crate::analysis::local_states::tests::after_init(&machine);
        let ranges = Ranges::reachable(&program, &memory, &processes, events);
        (program, ranges)
    }

    #[test]
    fn counters_constants_and_the_rest() {
        let (p, r) = ranges(
            "global int count = 5;
global int flag = 0;
global int sum = 0;
global int twice = 0;
global int copy = 0;
proc a(int v) {
    copy = count + 1;
    copy = copy + 1;
    yield;
    copy = copy - 1;
    count = count + 1;
    flag = 7;
    sum = sum + v;
    twice = twice - 2;
    yield;
    count = count - 3;
    twice = twice + 1;
    twice = twice + 1;
    flag = -1;
}
init { spawn a(1); }
",
            100,
        );
        let g = |name: &str| p.global_by_name(name).expect("global");
        // Steps of 1 and 3: at most 3 per event.
        assert_eq!(r.get(g("count")), Some((5 - 300, 5 + 300)));
        // Constants only: their hull with the initial value.
        assert_eq!(r.get(g("flag")), Some((-1, 7)));
        // A step that is a local, 1 in every local state `a` starts with.
        assert_eq!(r.get(g("sum")), Some((-100, 100)));
        // Steps of 2 (one block adds 1 twice).
        assert_eq!(r.get(g("twice")), Some((-200, 200)));
        // `copy = count + 1; copy = copy + 1` in one block: a copy of `count` plus 2;
        // then steps of 1.
        assert_eq!(
            r.get(g("copy")),
            Some((5 - 300 + 2 - 100, 5 + 300 + 2 + 100))
        );
    }

    /// List globals' lengths are bounded from above as counters are: by steps of
    /// `append`s (and `++` of literals), by literals written, by copies; `tail`,
    /// `take` and element writes only keep or shorten; `l ++ l` leaves no bound.
    #[test]
    fn lengths_of_lists() {
        let (p, r) = ranges(
            "global list l = [1, 2];
global list fixed = [];
global list shrinking = [1, 2, 3];
global list copy = [];
global list doubled = [1];
global list[2] rows;
proc a(int i) {
    l = append(l, 1);
    l = l ++ [2, 3];
    yield;
    fixed = [4, 5, 6, 7];
    shrinking = tail(shrinking);
    shrinking[0] = 9;
    copy = take(l, 1);
    yield;
    doubled = doubled ++ doubled;
    rows[i] = append(rows[1 - i], 5);
}
init { rows[1] = [1, 1]; spawn a(0); }
",
            10,
        );
        let g = |name: &str| p.global_by_name(name).expect("global");
        // From 2 elements, at most 3 more per event.
        assert_eq!(r.length(g("l")), Some((0, 2 + 30)));
        assert_eq!(r.length(g("fixed")), Some((0, 4)));
        assert_eq!(r.length(g("shrinking")), Some((0, 3)));
        assert_eq!(r.length(g("copy")), Some((0, 32)));
        assert_eq!(r.length(g("doubled")), None);
        // The longest element, 2, and one more per event.
        assert_eq!(r.length(g("rows")), Some((0, 2 + 10)));
        // A length bound is no range of values.
        assert_eq!(r.get(g("l")), None);
        assert!(r.bounded(g("l")) && !r.bounded(g("doubled")));
    }

    #[test]
    fn steps_that_are_arguments() {
        // `p` takes the values 0, 3, 6, 9 (computed by the spawner from its locals);
        // `q` is read from a global: no local states, no range.
        let (p, r) = ranges(
            "param N = 4;
global int acc = 10;
global int other = 0;
global int src = 0;
fun triple(int i) -> int { return 3 * i; }
proc start() { for i in 0..N { spawn add(triple(i), -i); } }
proc add(int p, int m) { acc = acc + p; acc = acc + m - 1; }
proc read() { int q = src; yield; other = other + q; }
init { spawn start(); }
",
            10,
        );
        let g = |name: &str| p.global_by_name(name).expect("global");
        // One block adds p + m - 1 = 2i - 1: at most 5 (i = 3).
        assert_eq!(r.get(g("acc")), Some((10 - 50, 10 + 50)));
        // `read` is never spawned: no step.
        assert_eq!(r.get(g("other")), Some((0, 0)));
        let (p, r) = ranges(
            "global int src = 0;
global int other = 0;
proc read() { int q = src; yield; other = other + q; }
init { spawn read(); }
",
            10,
        );
        assert_eq!(r.get(p.global_by_name("other").expect("global")), None);
    }

    #[test]
    fn only_scalar_ints_have_ranges() {
        let (p, r) = ranges(
            "global map m;
global int[2] a;
global list l = [];
global int n = 0;
proc w() { m[0] = m[0] + 1; a[1] = 3; l = append(l, 1); n = n + 1; }
init { spawn w(); }
",
            10,
        );
        let g = |name: &str| p.global_by_name(name).expect("global");
        assert_eq!([g("m"), g("a"), g("l")].map(|x| r.get(x)), [None; 3]);
        assert_eq!(r.get(g("n")), Some((-10, 10)));
    }

    #[test]
    fn a_range_past_64_bits_is_none() {
        let (p, r) = ranges(
            "global int big = 9223372036854775000;
proc a() { big = big + 1; }
init { spawn a(); }
",
            10_000,
        );
        assert_eq!(r.get(p.global_by_name("big").expect("global")), None);
    }
}
