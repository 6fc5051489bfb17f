//! The generator's strategies (here rather than in `tests::generator`: proptest is a
//! dev-dependency).

use super::*;
use proptest::collection::vec;
use proptest::strategy::Union;

fn small() -> impl Strategy<Value = i64> + Clone {
    -2i64..=2
}

fn var() -> impl Strategy<Value = u8> + Clone {
    0u8..8
}

fn arith() -> impl Strategy<Value = Arith> {
    prop_oneof![
        3 => Just(Arith::Add),
        2 => Just(Arith::Sub),
        1 => Just(Arith::Mul),
        1 => Just(Arith::Div),
        1 => Just(Arith::Mod),
    ]
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![
        Just(Cmp::Eq),
        Just(Cmp::Ne),
        Just(Cmp::Lt),
        Just(Cmp::Le),
        Just(Cmp::Gt),
        Just(Cmp::Ge),
    ]
}

fn int_leaf() -> BoxedStrategy<IntExpr> {
    prop_oneof![
        4 => small().prop_map(IntExpr::Const),
        8 => var().prop_map(IntExpr::Var),
        1 => Just(IntExpr::Param),
        1 => Just(IntExpr::LoopVar),
    ]
    .boxed()
}

/// An index into an array of `len` elements (`a`: 3, `c`: 2): mostly in range (a
/// constant, or `abs(e) % len`).
fn index(len: i64, depth: u32) -> BoxedStrategy<IntExpr> {
    prop_oneof![
        4 => (0..len).prop_map(IntExpr::Const),
        3 => int_expr(depth).prop_map(move |e| IntExpr::Bin(
            Arith::Mod,
            Box::new(IntExpr::Abs(Box::new(e))),
            Box::new(IntExpr::Const(len))
        )),
        1 => int_expr(depth),
    ]
    .boxed()
}

pub fn int_expr(depth: u32) -> BoxedStrategy<IntExpr> {
    if depth == 0 {
        return int_leaf();
    }
    let sub = int_expr(depth - 1);
    prop_oneof![
        10 => int_leaf(),
        1 => Just(IntExpr::Len),
        1 => Just(IntExpr::Head),
        1 => (index(2, depth - 1), any::<bool>())
            .prop_map(|(i, h)| IntExpr::Cell(Box::new(i), h)),
        1 => (index(3, depth - 1), proptest::bool::weighted(0.8))
            .prop_map(|(i, g)| IntExpr::ListAt(Box::new(i), g)),
        3 => index(3, depth - 1).prop_map(|i| IntExpr::Array(Box::new(i))),
        1 => sub.clone().prop_map(|k| IntExpr::Map(Box::new(k))),
        5 => (arith(), sub.clone(), sub.clone())
            .prop_map(|(op, a, b)| IntExpr::Bin(op, Box::new(a), Box::new(b))),
        1 => (any::<bool>(), sub.clone(), sub.clone())
            .prop_map(|(m, a, b)| IntExpr::MinMax(m, Box::new(a), Box::new(b))),
        1 => sub.clone().prop_map(|a| IntExpr::Abs(Box::new(a))),
        1 => sub.clone().prop_map(|a| IntExpr::Neg(Box::new(a))),
        1 => (sub.clone(), sub.clone())
            .prop_map(|(a, b)| IntExpr::Call(Box::new(a), Box::new(b))),
        1 => (bool_expr(depth - 1), sub.clone(), sub)
            .prop_map(|(c, a, b)| IntExpr::Cond(Box::new(c), Box::new(a), Box::new(b))),
    ]
    .boxed()
}

pub fn bool_expr(depth: u32) -> BoxedStrategy<BoolExpr> {
    let leaf = prop_oneof![
        3 => (cmp(), var(), int_leaf())
            .prop_map(|(op, v, b)| BoolExpr::Cmp(op, IntExpr::Var(v), b)),
        3 => (cmp(), int_expr(depth.min(1)), int_leaf())
            .prop_map(|(op, a, b)| BoolExpr::Cmp(op, a, b)),
        1 => any::<bool>().prop_map(BoolExpr::Lit),
        1 => Just(BoolExpr::Flag),
        1 => int_leaf().prop_map(BoolExpr::Has),
    ]
    .boxed();
    if depth == 0 {
        return leaf;
    }
    let sub = bool_expr(depth - 1);
    prop_oneof![
        8 => leaf,
        1 => sub.clone().prop_map(|a| BoolExpr::Not(Box::new(a))),
        1 => (sub.clone(), sub.clone())
            .prop_map(|(a, b)| BoolExpr::And(Box::new(a), Box::new(b))),
        1 => (sub.clone(), sub).prop_map(|(a, b)| BoolExpr::Or(Box::new(a), Box::new(b))),
    ]
    .boxed()
}

/// An assertion's condition: mostly one that holds in most states (`!=`, `<=`, `>=`
/// against a leaf), sometimes any condition.
fn assertion() -> BoxedStrategy<BoolExpr> {
    let weak = prop_oneof![Just(Cmp::Ne), Just(Cmp::Le), Just(Cmp::Ge)];
    prop_oneof![
        3 => (weak, var(), int_leaf())
            .prop_map(|(op, v, b)| BoolExpr::Cmp(op, IntExpr::Var(v), b)),
        1 => bool_expr(1),
    ]
    .boxed()
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![
        3 => (1u8..=2).prop_map(Bound::Const),
        1 => (var(), 1u8..=2).prop_map(|(v, n)| Bound::Min(v, n)),
    ]
}

/// A statement at nesting `depth` (0: no more nesting), inside a loop or not, at the
/// top level of a proc body or not. Simplest alternatives first (they shrink there).
pub fn stmt(depth: u32, in_loop: bool, top: bool) -> BoxedStrategy<Stmt> {
    let e = || int_expr(1);
    let c = || bool_expr(1);
    let mut options: Vec<(u32, BoxedStrategy<Stmt>)> = vec![
        (
            8,
            (var(), e()).prop_map(|(v, e)| Stmt::Assign(v, e)).boxed(),
        ),
        (4, Just(Stmt::Yield).boxed()),
        (2, c().prop_map(Stmt::Await).boxed()),
        (
            1,
            (assertion(), any::<bool>())
                .prop_map(|(c, m)| Stmt::Assert(c, m))
                .boxed(),
        ),
        (
            2,
            (index(3, 1), e())
                .prop_map(|(i, e)| Stmt::ArrayWrite(i, e))
                .boxed(),
        ),
        (
            1,
            (int_leaf(), e())
                .prop_map(|(k, e)| Stmt::MapWrite(k, e))
                .boxed(),
        ),
        (2, e().prop_map(Stmt::Append).boxed()),
        (1, any::<bool>().prop_map(Stmt::Tail).boxed()),
        (
            1,
            (index(2, 1), e())
                .prop_map(|(i, e)| Stmt::CellAppend(i, e))
                .boxed(),
        ),
        (1, index(2, 1).prop_map(Stmt::CellTail).boxed()),
        (
            1,
            (index(3, 1), e(), proptest::bool::weighted(0.8))
                .prop_map(|(i, e, g)| Stmt::ListSet(i, e, g))
                .boxed(),
        ),
        (
            1,
            (
                prop_oneof![Just(ListOp::Take), Just(ListOp::Drop), Just(ListOp::Concat)],
                e(),
            )
                .prop_map(|(op, e)| Stmt::ListOp(op, e))
                .boxed(),
        ),
        (1, c().prop_map(Stmt::SetFlag).boxed()),
        (1, c().prop_map(Stmt::Return).boxed()),
        (
            1,
            (0u8..4, e()).prop_map(|(p, e)| Stmt::Spawn(p, e)).boxed(),
        ),
    ];
    if top {
        options.push((4, e().prop_map(Stmt::Local).boxed()));
    }
    if in_loop {
        options.push((1, c().prop_map(Stmt::Break).boxed()));
        options.push((1, c().prop_map(Stmt::Continue).boxed()));
    }
    if depth > 0 {
        let then = vec(stmt(depth - 1, in_loop, false), 1..=3);
        let otherwise = vec(stmt(depth - 1, in_loop, false), 0..=2);
        options.push((
            4,
            (c(), then, otherwise)
                .prop_map(|(c, a, b)| Stmt::If(c, a, b))
                .boxed(),
        ));
        let body = || vec(stmt(depth - 1, true, false), 1..=3);
        options.push((
            2,
            (bound(), body()).prop_map(|(b, s)| Stmt::For(b, s)).boxed(),
        ));
        options.push((
            1,
            (proptest::option::weighted(0.5, c()), 1u8..=2, body())
                .prop_map(|(c, n, s)| Stmt::While(c, n, s))
                .boxed(),
        ));
    }
    Union::new_weighted(options).boxed()
}

/// `x`, `y` or `z` (the first three variables are the globals in every scope).
fn global() -> impl Strategy<Value = u8> + Clone {
    0u8..3
}

/// `g op c` over a global: the guards of the shapes.
fn global_cond(ops: Vec<Cmp>, constants: std::ops::RangeInclusive<i64>) -> BoxedStrategy<BoolExpr> {
    (proptest::sample::select(ops), global(), constants)
        .prop_map(|(op, g, c)| BoolExpr::Cmp(op, IntExpr::Var(g), IntExpr::Const(c)))
        .boxed()
}

/// A comparison of the shapes that test a value: often true of several values.
fn test_cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![Just(Cmp::Eq), Just(Cmp::Ne), Just(Cmp::Gt)]
}

fn var_of(g: u8) -> Box<IntExpr> {
    Box::new(IntExpr::Var(g))
}

/// The statements that showed soundness bugs before (issues 11 and 16), as short
/// idioms that [`proc_`] puts in front of (or after) a few random statements.
pub fn shape() -> BoxedStrategy<Vec<Stmt>> {
    let value = || prop_oneof![2 => (0i64..=2).prop_map(IntExpr::Const), 1 => global().prop_map(IntExpr::Var)];
    prop_oneof![
        // `for i in 0..2 { if (i > 5) { x = 0; } }`, or the same with a `while`
        // counter: a loop whose guarded write happens in some iterations, or never.
        3 => (2u8..=3, any::<bool>(), prop_oneof![Just(0i64), Just(1), Just(5)], global(), value())
            .prop_map(|(n, for_, limit, g, v)| {
                let body = vec![Stmt::If(
                    BoolExpr::Cmp(Cmp::Gt, IntExpr::LoopVar, IntExpr::Const(limit)),
                    vec![Stmt::Assign(g, v)],
                    vec![],
                )];
                vec![if for_ {
                    Stmt::For(Bound::Const(n), body)
                } else {
                    Stmt::While(None, n, body)
                }]
            }),
        // `if (y == 0) { x = 1; }`
        2 => (global_cond(vec![Cmp::Eq, Cmp::Ne], 0..=1), global(), 0i64..=1)
            .prop_map(|(c, g, v)| vec![Stmt::If(c, vec![Stmt::Assign(g, IntExpr::Const(v))], vec![])]),
        // `y = y + 1`
        2 => global().prop_map(|g| vec![Stmt::Assign(g, IntExpr::Bin(Arith::Add, var_of(g), Box::new(IntExpr::Const(1))))]),
        // `x = 1`: equal values written by several processes (mostly that very
        // write, so that two procs often share it).
        3 => prop_oneof![2 => Just((0u8, 1i64)), 1 => (global(), 0i64..=1)]
            .prop_map(|(g, v)| vec![Stmt::Assign(g, IntExpr::Const(v))]),
        // `y = x`
        1 => (global(), global()).prop_map(|(g, h)| vec![Stmt::Assign(g, IntExpr::Var(h))]),
        // `x = 1; yield; x = 2;`, maybe then `yield; x = 1;`, maybe then
        // `assert(x != 2);`: a write its own process overwrites in a later step,
        // read or not by the assertion — for odpor-ob, whether two writes of x
        // race depends on what reads x after them (abs's and lastwrite's
        // writers); with the third write, a window where a guard on x holds and
        // closes and opens again
        // (`tests/regressions/sdpor_climbs_past_a_short_circuit_guard.ic`).
        2 => (global(), 0i64..=2, 0i64..=2, proptest::option::weighted(0.3, 0i64..=2), any::<bool>()).prop_map(|(g, a, b, c, check)| {
            let mut s = vec![
                Stmt::Assign(g, IntExpr::Const(a)),
                Stmt::Yield,
                Stmt::Assign(g, IntExpr::Const(b)),
            ];
            if let Some(c) = c {
                s.extend([Stmt::Yield, Stmt::Assign(g, IntExpr::Const(c))]);
            }
            if check {
                s.push(Stmt::Assert(BoolExpr::Cmp(Cmp::Ne, IntExpr::Var(g), IntExpr::Const(2)), true));
            }
            s
        }),
        // `int t0 = x; yield; spawn q(0); yield; if (t0 == 1) { y = z; }`: a value
        // read into a local and branched on in a later block of the same process,
        // maybe with a spawn between (whose process may overwrite what was read).
        // After a reversal, such a process's later events are other transitions
        // (`tests/regressions/odpor_cs_ob_observers_after_a_reversed_race_are_other_events.ic`).
        // The comparison is often true (or false) of several values: the read has
        // the same effect after either of two writes (Sec. 4.1's check).
        2 => (global(), any::<bool>(), test_cmp(), 0i64..=2, global(), global()).prop_map(|(g, spawn, op, v, h, k)| {
            let mut s = vec![Stmt::Local(IntExpr::Var(g)), Stmt::Yield];
            if spawn {
                s.extend([Stmt::Spawn(0, IntExpr::Const(0)), Stmt::Yield]);
            }
            let test = BoolExpr::Cmp(op, IntExpr::Recent, IntExpr::Const(v));
            s.push(Stmt::If(test, vec![Stmt::Assign(h, IntExpr::Var(k))], vec![]));
            s
        }),
        // `assert(x != 2); spawn r(0);`: an observer with the same effect for most
        // values, maybe spawning a process that overwrites what it read, after
        // a write of its own (`int t = x; x = 1;` before it makes the chain
        // reader → observer → overwriter of
        // `tests/regressions/odpor_cs_ob_observers_after_a_reversed_race_are_other_events.ic`).
        2 => (global(), 0i64..=3, any::<bool>(), any::<bool>(), global()).prop_map(|(g, c, spawn, write, h)| {
            let mut s = Vec::new();
            if write {
                s.extend([Stmt::Assign(h, IntExpr::Const(1)), Stmt::Yield]);
            }
            s.push(Stmt::Assert(BoolExpr::Cmp(Cmp::Ne, IntExpr::Var(g), IntExpr::Const(c)), true));
            if spawn {
                s.push(Stmt::Spawn(0, IntExpr::Const(0)));
            }
            s
        }),
        // `x = 2; yield; y = x + z;`: a write its own process reads back in a later
        // block, beside writers of x that may overwrite it unread — the two orders
        // of overwritten writes are one class of `→ob` but not the same neighbours
        // (`tests/regressions/odpor_ob_a_covered_class_does_not_cover_its_neighbours.ic`).
        2 => (global(), 0i64..=2, global(), global()).prop_map(|(g, a, h, k)| {
            vec![
                Stmt::Assign(g, IntExpr::Const(a)),
                Stmt::Yield,
                Stmt::Assign(h, IntExpr::Bin(Arith::Add, var_of(g), var_of(k))),
            ]
        }),
        // DB_backup's write tasks: `y = y + 1; x = 1;`, a counter's increment (two of
        // them commute in every state) raising a flag, which `await (x == 1)` or
        // `await (x != 0)` elsewhere waits for. Spawned twice, one increment is
        // kept asleep past the other by commutation and blocks where its flag
        // would enable another process (`Dpor::choose_after_blocked`).
        2 => global().prop_map(|h| {
            vec![
                Stmt::Assign(h, IntExpr::Bin(Arith::Add, var_of(h), Box::new(IntExpr::Const(1)))),
                Stmt::Assign(0, IntExpr::Const(1)),
            ]
        }),
        // `await (x == 0); x = 1; yield; y = ..; x = 0;`: a process that holds a flag
        // across a block boundary, as DBP's `work` holds its worker from its call to
        // its return; another process's `await (x == 0)` waits for the release, and
        // running it before the hold reaches the same state as after the release
        // when the held block does not touch what it writes
        // (`Dpor::sleep_before_disabler`).
        2 => (global(), global(), value()).prop_map(|(g, h, v)| {
            vec![
                Stmt::Await(BoolExpr::Cmp(Cmp::Eq, IntExpr::Var(g), IntExpr::Const(0))),
                Stmt::Assign(g, IntExpr::Const(1)),
                Stmt::Yield,
                Stmt::Assign(h, v),
                Stmt::Assign(g, IntExpr::Const(0)),
            ]
        }),
        // `while (x == 0) { }`: "block did not terminate" in some orders.
        2 => global_cond(vec![Cmp::Eq, Cmp::Ne], 0..=1).prop_map(|c| vec![Stmt::Spin(c)]),
        // `await (x != 0);` in the middle of a proc.
        1 => global_cond(vec![Cmp::Eq, Cmp::Ne, Cmp::Gt], 0..=2).prop_map(|c| vec![Stmt::Await(c)]),
        // The classic DPOR benchmarks' accesses, whose location is decided by a
        // value read from a global in the same block (issue 12): lastzero's scan
        // (`while (n0 < 3 && (a[n0] != 0)) { .. }`, in one block or a step per
        // element), indexer's compare-and-swap (`if (m[x] == 0) { m[x] = y; }`),
        // filesystem's search for a free cell, and nested containers (`m[a[x]]`).
        3 => (0u8..5, global(), global()).prop_map(|(k, g, h)| {
            let at = |i: IntExpr| IntExpr::Array(Box::new(i));
            let zero = || IntExpr::Const(0);
            match k {
                0 | 1 => vec![Stmt::While(
                    Some(BoolExpr::Cmp(Cmp::Ne, at(IntExpr::LoopVar), zero())),
                    3,
                    if k == 0 { vec![] } else { vec![Stmt::Yield] },
                )],
                2 => vec![Stmt::If(
                    BoolExpr::Cmp(Cmp::Eq, IntExpr::Map(var_of(g)), zero()),
                    vec![Stmt::MapWrite(IntExpr::Var(g), IntExpr::Var(h))],
                    vec![],
                )],
                3 => vec![Stmt::For(
                    Bound::Const(2),
                    vec![Stmt::If(
                        BoolExpr::Cmp(Cmp::Eq, at(IntExpr::LoopVar), zero()),
                        vec![
                            Stmt::ArrayWrite(IntExpr::LoopVar, IntExpr::Const(1)),
                            Stmt::MapWrite(IntExpr::LoopVar, IntExpr::Var(h)),
                        ],
                        vec![],
                    )],
                )],
                _ => vec![Stmt::MapWrite(at(IntExpr::Var(g)), IntExpr::Var(h))],
            }
        }),
        // Arithmetic that overflows near `i64::MAX`/`i64::MIN` (see [`globals`]):
        // `int t = y + x;`, `x = x + 2;`, `x = -y;`, `x = x * y;`.
        3 => (0u8..5, global(), global(), prop_oneof![Just(Arith::Add), Just(Arith::Sub), Just(Arith::Mul)])
            .prop_map(|(k, g, h, op)| vec![match k {
                0 => Stmt::Local(IntExpr::Bin(Arith::Add, var_of(h), var_of(g))),
                1 => Stmt::Assign(g, IntExpr::Bin(op, var_of(g), Box::new(IntExpr::Const(2)))),
                2 => Stmt::Assign(g, IntExpr::Neg(var_of(h))),
                3 => Stmt::Assign(g, IntExpr::Bin(op, var_of(g), var_of(h))),
                // Overflows once g has grown past 1 (after an increment).
                _ => Stmt::Local(IntExpr::Bin(Arith::Add, var_of(g), Box::new(IntExpr::Const(i64::MAX - 1)))),
            }]),
    ]
    .boxed()
}

/// A proc: mostly random statements; often one or two [`shape`]s with a few random
/// statements around them; sometimes only an `await` on a global
/// (`proc r() { await (x != 0); }`, which may wait forever).
pub fn proc_() -> impl Strategy<Value = Proc> {
    let random = (
        proptest::bool::weighted(0.3),
        vec(stmt(2, false, true), 2..=6),
    )
        .prop_map(|(param, body)| Proc { param, body });
    let shaped = (
        proptest::bool::weighted(0.2),
        vec(shape(), 1..=2),
        vec(stmt(1, false, true), 0..=2),
        any::<bool>(),
    )
        .prop_map(|(param, shapes, rest, shapes_first)| {
            let shapes: Vec<Stmt> = shapes.into_iter().flatten().collect();
            let body = if shapes_first {
                shapes.into_iter().chain(rest).collect()
            } else {
                rest.into_iter().chain(shapes).collect()
            };
            Proc { param, body }
        });
    // A proc that only waits: on one global, or on two at once (`await (x == 1 &&
    // y != 0)`, a join; its guard short-circuits, so what it reads depends on the
    // state: `tests/regressions/sdpor_climbs_past_a_short_circuit_guard.ic`).
    let cond = || global_cond(vec![Cmp::Eq, Cmp::Ne, Cmp::Gt], 0..=2);
    let await_only = prop_oneof![
        2 => cond(),
        1 => (cond(), cond()).prop_map(|(a, b)| BoolExpr::And(Box::new(a), Box::new(b))),
    ]
    .prop_map(|c| Proc {
        param: false,
        body: vec![Stmt::Await(c)],
    });
    prop_oneof![5 => random, 4 => shaped, 1 => await_only]
}

/// Near the ends of `i64` (`i64::MIN` itself has no literal).
fn extreme() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(i64::MAX - 2),
        Just(i64::MIN + 1),
        Just(i64::MIN + 2),
    ]
}

/// A global's initial value: small, sometimes near the ends of `i64`.
fn initial() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![8 => small(), 1 => extreme()]
}

fn globals() -> impl Strategy<Value = Globals> {
    (
        0i64..=2,
        [initial(), initial(), initial()],
        any::<bool>(),
        proptest::option::weighted(0.5, [small(), small(), small()]),
        prop_oneof![1 => Just(vec![]), 4 => vec(small(), 1..=2)],
    )
        .prop_map(|(param, ints, flag, array, list)| Globals {
            param,
            ints,
            flag,
            array,
            list,
        })
}

/// Mostly the next proc (offset 0).
fn offset() -> impl Strategy<Value = u8> {
    prop_oneof![4 => Just(0u8), 1 => 1u8..4]
}

fn init_spawn() -> impl Strategy<Value = InitSpawn> {
    prop_oneof![
        6 => (offset(), small()).prop_map(|(p, a)| InitSpawn::One(p, a)),
        1 => offset().prop_map(InitSpawn::Loop),
        2 => small().prop_map(InitSpawn::Again),
    ]
}

fn fun() -> impl Strategy<Value = Fun> {
    (0..FUN_TEMPLATES, small()).prop_map(|(template, k)| Fun { template, k })
}

/// A normalised program (small state space, valid by construction).
pub fn program() -> impl Strategy<Value = Program> {
    (
        globals(),
        vec(proc_(), 2..=4),
        proptest::option::weighted(0.3, fun()),
        vec(init_spawn(), 2..=4),
        proptest::option::weighted(0.1, (global(), 0i64..=1)),
    )
        .prop_map(|(globals, mut procs, fun, spawns, shared)| {
            // Sometimes the first two procs both write the same value
            // (`x = 1;` in p and in q), which a proc alone rarely shares.
            if let Some((g, v)) = shared {
                for proc in procs.iter_mut().take(2) {
                    proc.body.insert(0, Stmt::Assign(g, IntExpr::Const(v)));
                }
            }
            let mut p = Program {
                globals,
                procs,
                fun,
                spawns,
            };
            p.normalize();
            p
        })
}

/// A program of [`program`] with a cycle in its state space: a process that spins
/// across blocks on a global (`while (x == 0) { yield; }`) until another writes it, a
/// server that consumes, for ever, what the others add to a global, a
/// compare-and-swap retry loop, or two processes that raise a flag each and back off
/// while the other's is raised (a livelock). For the stateful searches, against the
/// stateful reference: a stateless search stops at the cycle.
pub fn cyclic_program() -> impl Strategy<Value = Program> {
    let cycle = prop_oneof![
        3 => global_cond(vec![Cmp::Eq, Cmp::Ne], 0..=1).prop_map(Stmt::SpinYield),
        1 => global().prop_map(Stmt::Serve),
        2 => global().prop_map(Stmt::CasRetry),
        2 => (global(), global()).prop_map(|(a, b)| Stmt::Backoff(a, b)),
    ];
    (program(), 0usize..4, cycle, any::<bool>()).prop_map(|(mut p, at, cycle, first)| {
        let i = at % p.procs.len();
        // A back-off livelocks with its mirror in the next proc.
        let mirror = match cycle {
            Stmt::Backoff(a, b) if p.procs.len() > 1 => {
                Some(((i + 1) % p.procs.len(), Stmt::Backoff(b, a)))
            }
            _ => None,
        };
        for (j, stmt) in std::iter::once((i, cycle)).chain(mirror) {
            let body = &mut p.procs[j].body;
            if first {
                body.insert(0, stmt);
            } else {
                body.push(stmt);
            }
        }
        p
    })
}
