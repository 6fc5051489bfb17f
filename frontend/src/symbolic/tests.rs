//! The executor on small programs: paths, loops, calls, overflow conditions, params.

use super::*;
use crate::ir::Program;

fn load(src: &str) -> Program {
    crate::load(src, &[]).expect("program loads")
}

#[test]
fn fig1_q_has_two_transitions() {
    let src = "global int x = -2; global int z = -2;
        proc q() { if (z >= 0) { z = x; } }
        init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    assert!(ts.exact);
    assert_eq!(ts.transitions.len(), 2);
}

#[test]
fn loops_are_abstracted() {
    let src = "global int x; proc q() { int i = 0; while (i < x) { i = i + 1; } x = i; }
        init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    // Unrolled twice: leaves after 0, 1 or 2 iterations, or the abstracted rest.
    let ts = exec.transition_system(0).expect("analysable");
    assert!(!ts.exact);
    assert_eq!(ts.transitions.len(), 3);
    exec.set_unroll(0);
    let ts = exec.transition_system(0).expect("analysable");
    assert!(!ts.exact);
    assert_eq!(ts.transitions.len(), 1);
}

/// The loop outputs of the only loop abstracted in `ts`, and its `Ok` condition.
fn loop_apps(ts: &TransitionSystem) -> (Vec<Val>, bool) {
    let mut inputs = Vec::new();
    let mut ok = false;
    for t in &ts.transitions {
        for g in &t.state.globals {
            if let GlobalVal::Scalar(Val::Int(l)) = g {
                for (a, _) in &l.terms {
                    if let IAtom::App(Fun::Loop { .. }, args) = a {
                        inputs = args.clone();
                    }
                }
            }
        }
        ok |= t.state.path.iter().any(|c| {
            matches!(
                c,
                Form::BApp(
                    Fun::Loop {
                        out: LoopOut::Ok,
                        ..
                    },
                    _
                )
            )
        });
    }
    (inputs, ok)
}

#[test]
fn a_loop_is_a_function_of_what_it_may_write_too() {
    // `x` is written under a condition and never read by the loop: after the
    // loop it still depends on the `x` before it.
    let src = "global int x; global int n;
        proc q() { for i in 0..n { if (i > 5) { x = 0; } } }
        init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    exec.set_unroll(0);
    let ts = exec.transition_system(0).expect("analysable");
    let (inputs, ok) = loop_apps(&ts);
    assert!(
        inputs.contains(&Val::Int(Lin::var(Var::Global(0)))),
        "{inputs:?}"
    );
    assert!(ok, "the abstracted loop may not end normally");
}

#[test]
fn loops_with_constant_bounds_are_unrolled_exactly() {
    let src = "global int x = 1; global int y;
        proc q() { for i in 0..5 { if (i > 5) { x = 0; } } y = x; }
        init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    assert!(ts.exact);
    assert_eq!(ts.transitions.len(), 1);
    let GlobalVal::Scalar(Val::Int(y)) = &ts.transitions[0].state.globals[1] else {
        panic!("y is an int")
    };
    assert_eq!(*y, Lin::var(Var::Global(0)));
}

#[test]
fn a_loop_that_never_ends_on_constants_is_abstracted_with_ok() {
    let src = "global int x; proc q() { while (true) { x = x; } } init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    assert!(!ts.exact);
    assert!(ts
        .transitions
        .iter()
        .all(|t| t.state.path.iter().any(|c| matches!(
            c,
            Form::BApp(
                Fun::Loop {
                    out: LoopOut::Ok,
                    ..
                },
                _
            )
        ))));
}

#[test]
fn calls_of_looping_funs_may_fail() {
    let src = "global int x;
        fun f(int n) -> int { int s = 0; while (s < n) { s = s + 1; } return s; }
        proc q() { x = f(x); } init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    assert_eq!(ts.transitions.len(), 1);
    assert!(ts.transitions[0]
        .state
        .path
        .iter()
        .any(|c| matches!(c, Form::BApp(Fun::CallOk(0), _))));
}

/// The path conditions of the block of `src`'s only proc, one list per path.
fn paths(src: &str) -> Vec<Vec<Form>> {
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    ts.transitions.into_iter().map(|t| t.state.path).collect()
}

/// `++` and `append` fail past `MAX_LIST_LEN` elements, as the interpreter's do:
/// each carries the condition that the list it makes fits, unless the lengths'
/// bounds already show it (a literal; a list's length is at most the limit).
#[test]
fn a_list_that_grows_carries_its_length_condition() {
    let len = |g: u32| {
        Lin::atom(IAtom::App(
            Fun::List(ListOp::Len),
            vec![Val::List(ListT::Var(Var::Global(g)))],
        ))
    };
    let max = crate::ir::MAX_LIST_LEN as Coef;
    let fits = |l: Lin| Form::le(l.add_const(-max).expect("small"));
    let src = |body: &str| {
        format!("global list l; global list m; global int n; proc q() {{ {body} }} init {{ spawn q(); }}")
    };
    assert_eq!(
        paths(&src("l = append(l, 1);")),
        [vec![fits(len(0).add_const(1).expect("small"))]]
    );
    let both = len(0).add(&len(1)).expect("small");
    assert_eq!(paths(&src("l = l ++ m;")), [vec![fits(both)]]);
    // Lengths are at most the limit, so `len(l) + 1` cannot overflow.
    assert_eq!(paths(&src("n = len(l) + 1;")), [Vec::<Form>::new()]);
    // Literals fold, and their length is known.
    assert_eq!(
        paths(&src("l = append([1], 2) ++ [3];")),
        [Vec::<Form>::new()]
    );
    // A loop that appends at every turn tightens one bound: its turns are decided by
    // constants, and the loop is unrolled whole (not abstracted).
    assert_eq!(
        paths(&src("for i in 0..5 { l = append(l, i); }")),
        [vec![fits(len(0).add_const(5).expect("small"))]]
    );
    // A program's own test of a length is a branch, added as one; where it bounds
    // the length more tightly, it holds the condition that the list fits.
    let guard = Form::le(len(0).add_const(-99).expect("small"));
    let mut guarded = paths(&src("if (len(l) < 100) { l = append(l, 0); }"));
    guarded.sort();
    assert_eq!(guarded, [vec![guard.clone()], vec![guard.not()]]);
}

#[test]
fn arithmetic_carries_its_no_overflow_condition() {
    let x = || Lin::var(Var::Global(0));
    let y = || Lin::var(Var::Global(1));
    let at_most = |l: Lin, k: Coef| Form::le(l.add_const(-k).expect("small"));
    let at_least = |l: Lin, k: Coef| Form::le(l.neg().and_then(|n| n.add_const(k)).expect("small"));
    let src = |body: &str| {
        format!("global int x; global int y; proc q() {{ {body} }} init {{ spawn q(); }}")
    };
    // Only the side that can be exceeded.
    assert_eq!(paths(&src("x = x + 1;")), [vec![at_most(x(), INT_MAX - 1)]]);
    assert_eq!(
        paths(&src("x = x - 1;")),
        [vec![at_least(x(), INT_MIN + 1)]]
    );
    assert_eq!(paths(&src("x = -x;")), [vec![at_least(x(), INT_MIN + 1)]]);
    let sum = x().add(&y()).expect("small");
    assert_eq!(
        paths(&src("x = x + y;")),
        [vec![at_most(sum.clone(), INT_MAX), at_least(sum, INT_MIN)]]
    );
    let twice = x().scale(2).expect("small");
    assert_eq!(
        paths(&src("x = 2 * x;")),
        [vec![
            at_most(twice.clone(), INT_MAX),
            at_least(twice, INT_MIN)
        ]]
    );
    // abs(MIN) overflows; x / -1 is -x.
    let mut abs = paths(&src("y = abs(x);"));
    abs.sort();
    assert_eq!(
        abs,
        [
            vec![at_least(x(), INT_MIN + 1), at_least(x(), 0).not()],
            vec![at_least(x(), 0)],
        ]
    );
    assert_eq!(
        paths(&src("x = x / -1;")),
        [vec![at_least(x(), INT_MIN + 1)]]
    );
    // Remainders never overflow, not even MIN % -1.
    assert_eq!(paths(&src("x = x % -1;")), [Vec::<Form>::new()]);
    assert_eq!(
        paths(&src("x = -9223372036854775807 - 1; y = x % -1;")),
        [Vec::<Form>::new()]
    );
    // Constants that overflow leave no path; so does MIN / -1.
    assert!(paths(&src("x = 9223372036854775807 + 1;")).is_empty());
    assert!(paths(&src("x = -9223372036854775807 - 1; y = x / -1;")).is_empty());
    // Quotients of two variables: not by zero, and not MIN / -1.
    let quotient = paths(&src("x = x / y;"));
    assert_eq!(quotient.len(), 1);
    assert!(quotient[0].contains(&Form::eq(y()).not()));
    assert!(quotient[0].contains(&Form::or([
        Form::eq(x().add_const(-INT_MIN).expect("small")).not(),
        Form::eq(y().add_const(1).expect("small")).not(),
    ])));
}

#[test]
fn params_are_free() {
    let src = "param N = 3; global int x; proc q() { x = x + N; } init { spawn q(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    let ts = exec.transition_system(0).expect("analysable");
    let GlobalVal::Scalar(Val::Int(x)) = &ts.transitions[0].state.globals[0] else {
        panic!("x is an int")
    };
    assert!(x.terms.iter().any(|(a, _)| *a == IAtom::Var(Var::Param(0))));
}

/// A list that doubles at every turn of a loop unrolled 64 times: its term, a tree,
/// would double too (2^40 nodes). The block is given up once a value it stores is
/// past `MAX_TERM` nodes; with the loop abstracted at once, it is analysed. (With
/// the default unrolling, the conditions that the list fits, a tighter one at each
/// turn, make the turns symbolic and the loop is abstracted after two.)
#[test]
fn a_term_past_its_budget_gives_the_block_up() {
    let src = "global list l = [1];
        proc p() { for i in 0..40 { l = l ++ l; } }
        init { spawn p(); }";
    let p = load(src);
    let exec = Exec::new(&p, Some(src));
    exec.set_unroll(64);
    assert_eq!(exec.transition_system(0).err(), Some(Abort::TermTooLarge));
    // After k turns the term has 2^(k+1) - 1 nodes: eight stay within the budget
    // (511), nine do not.
    for (turns, within) in [(8, true), (9, false)] {
        let src = src.replace("0..40", &format!("0..{turns}"));
        let p = load(&src);
        let exec = Exec::new(&p, Some(&src));
        exec.set_unroll(64);
        assert_eq!(exec.transition_system(0).is_ok(), within, "{turns} turns");
    }
    exec.set_unroll(0);
    let ts = exec.transition_system(0).expect("the loop abstracted");
    assert!(!ts.exact);
}

/// The same from a literal, which `++` folds into a longer literal rather than a
/// larger term: counted by its elements, the list of 2^9 is past the budget too
/// (uncounted, the executor built the 2^40 elements).
#[test]
fn a_literal_list_counts_its_elements() {
    for (turns, within) in [(8, true), (9, false), (40, false)] {
        let src = format!(
            "global int x = 0;
            proc p() {{ list m = [1]; for i in 0..{turns} {{ m = m ++ m; }} x = len(m); }}
            init {{ spawn p(); }}"
        );
        let p = load(&src);
        let ts = Exec::new(&p, Some(&src)).transition_system(0);
        assert_eq!(ts.is_ok(), within, "{turns} turns");
    }
}
