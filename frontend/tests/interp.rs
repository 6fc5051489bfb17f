//! The interpreter, block by block, with exact expected values: statements,
//! builtins and operators, runtime errors, read/write sets, undo, liveness and
//! block splitting. At the end, a tiny exhaustive explorer checks what the
//! comments of `examples/*.ic` promise.
//!
//! Why one file of this length: each test is a short program and its exact values, in
//! the order of docs/language.md, and they share the run helpers at the top; split, a
//! reader would look for a construct in several files.

use frontend::ast::Span;
use frontend::diagnostic::render;
use frontend::interp::{Effects, ErrorKind, Fault, Limits, Machine, Next, RuntimeError};
use frontend::ir::{BlockId, ProcId, Program};
use frontend::memory::{Loc, Memory, UndoLog};
use frontend::value::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

// ------------------------------------------------------------------ helpers

fn load(source: &str) -> Program {
    match frontend::load(source, &[]) {
        Ok(p) => p,
        Err(diags) => panic!("{}", render("test.ic", source, &diags, false)),
    }
}

fn int(n: i64) -> Value {
    Value::Int(n)
}

fn list(items: &[i64]) -> Value {
    Value::List(Arc::from(items))
}

fn block(p: &Program, name: &str) -> BlockId {
    p.block_by_name(name)
        .unwrap_or_else(|| panic!("no block `{name}`"))
}

fn proc_id(p: &Program, name: &str) -> ProcId {
    p.proc_by_name(name)
        .unwrap_or_else(|| panic!("no proc `{name}`"))
}

/// One process of a test: its locals, and what the last block did.
struct Process<'p> {
    machine: Machine<'p>,
    proc: ProcId,
    locals: Vec<Value>,
    undo: UndoLog,
    fx: Effects,
}

impl<'p> Process<'p> {
    fn new(machine: Machine<'p>, proc: &str, args: Vec<Value>) -> Self {
        let id = proc_id(machine.program, proc);
        Process {
            machine,
            proc: id,
            locals: machine.spawn_frame(id, args),
            undo: UndoLog::default(),
            fx: Effects::default(),
        }
    }

    /// Runs block `name` (whose guard the caller has checked).
    fn run(&mut self, mem: &mut Memory, name: &str) -> Result<Next, Fault> {
        let b = block(self.machine.program, name);
        self.fx.clear();
        self.machine
            .run_block(b, mem, &mut self.locals, &mut self.undo, &mut self.fx)
    }

    fn enabled(&self, mem: &Memory, name: &str) -> bool {
        let b = block(self.machine.program, name);
        self.machine
            .enabled(b, mem, &self.locals)
            .expect("the guard evaluates")
    }

    /// A local by name (the last one declared with that name).
    fn local(&self, name: &str) -> Value {
        let code = &self.machine.program.procs[self.proc as usize].code;
        let i = code
            .locals
            .iter()
            .rposition(|l| l.name == name)
            .unwrap_or_else(|| panic!("no local `{name}`"));
        self.locals[i].clone()
    }
}

/// Memory after the global initialisers and `init`.
fn initial(p: &Program) -> Memory {
    let mut mem = Memory::initial(p);
    Machine::new(p, Limits::default())
        .run_init(&mut mem)
        .expect("init runs");
    mem
}

fn show(p: &Program, mem: &Memory) -> String {
    mem.show(p).to_string()
}

fn global(p: &Program, mem: &Memory, name: &str) -> Value {
    let g = p
        .global_by_name(name)
        .unwrap_or_else(|| panic!("no global `{name}`"));
    mem.scalar(g).clone()
}

/// Runs the entry block of `proc p()` in a program, with the given limits.
fn run_p(source: &str, limits: Limits) -> (Program, Memory, Result<Next, Fault>, Effects) {
    let p = load(source);
    let mut mem = initial(&p);
    let result;
    let fx;
    {
        let machine = Machine::new(&p, limits);
        let mut proc = Process::new(machine, "p", Vec::new());
        result = proc.run(&mut mem, "p");
        fx = proc.fx.clone();
    }
    (p, mem, result, fx)
}

/// The value of one expression of type `ty`, computed in a proc.
fn eval(ty: &str, e: &str) -> Result<Value, Fault> {
    let source = format!(
        "global {ty} out;\nglobal int min64 = -9223372036854775807 - 1;\n\
         global int zero = 0;\nglobal list empty;\n\
         proc p() {{ out = {e}; }}\ninit {{ }}\n"
    );
    let (p, mem, result, _) = run_p(&source, Limits::default());
    result.map(|_| global(&p, &mem, "out"))
}

fn eval_int(e: &str) -> i64 {
    match eval("int", e) {
        Ok(v) => v.int(),
        Err(f) => panic!("`{e}` failed: {f}"),
    }
}

fn eval_bool(e: &str) -> bool {
    match eval("bool", e) {
        Ok(v) => v.bool(),
        Err(f) => panic!("`{e}` failed: {f}"),
    }
}

fn eval_list(e: &str) -> Value {
    match eval("list", e) {
        Ok(v) => v,
        Err(f) => panic!("`{e}` failed: {f}"),
    }
}

/// The runtime error of a statement list in `proc p`, and the source text it points at.
fn runtime_error(decls: &str, body: &str, limits: Limits) -> (ErrorKind, String) {
    let source = format!("{decls}\nproc p() {{ {body} }}\ninit {{ }}\n");
    let (_, _, result, _) = run_p(&source, limits);
    match result {
        Err(Fault::Runtime(RuntimeError { error, span })) => {
            (error, source[span.start..span.end].to_string())
        }
        other => panic!("expected a runtime error from `{body}`, got {other:?}"),
    }
}

fn expr_error(ty: &str, e: &str) -> (ErrorKind, String) {
    runtime_error(
        &format!(
            "global {ty} out;\nglobal int min64 = -9223372036854775807 - 1;\n\
             global int zero = 0;\nglobal list empty;"
        ),
        &format!("out = {e};"),
        Limits::default(),
    )
}

fn loc(p: &Program, name: &str, elem: i64) -> Loc {
    Loc {
        global: p.global_by_name(name).expect("a global"),
        elem,
    }
}

fn locs(p: &Program, list: &[(&str, i64)]) -> Vec<Loc> {
    let mut v: Vec<Loc> = list.iter().map(|(n, e)| loc(p, n, *e)).collect();
    v.sort_unstable();
    v
}

// ------------------------------------------------------------------ statements

#[test]
fn assignment_to_every_kind_of_place() {
    let source = r#"
        global int x = 1;
        global bool f;
        global int[3] a = [5, 1, 4];
        global bool[2] b;
        global map m;
        global list l = [1, 2, 3];
        proc p(int k) {
            int t = 10;
            list mine = [7, 8];
            bool g = true;
            t = t + k;
            mine[1] = 9;
            g = !g;
            x = t;
            f = true;
            a[2] = a[0] + a[1];
            b[1] = true;
            m[k] = 42;
            m[-k] = m[k] + 1;
            l[0] = 100;
        }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", vec![int(3)]);
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::End));
    assert_eq!(
        show(&p, &mem),
        "x = 13, f = true, a = [5, 1, 6], b = [false, true], m = {-3: 43, 3: 42}, l = [100, 2, 3]"
    );
    assert_eq!(proc.local("t"), int(13));
    assert_eq!(proc.local("mine"), list(&[7, 9]));
    assert_eq!(proc.local("g"), Value::Bool(false));
}

#[test]
fn lists_are_values_copied_on_assignment() {
    let source = r#"
        global list l = [1, 2];
        global list saved;
        proc p() {
            list mine = l;
            mine[0] = 5;
            saved = l;
            l[1] = 7;
        }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(show(&p, &mem), "l = [1, 7], saved = [1, 2]");
}

#[test]
fn locals_start_at_zero_and_declarations_reinitialise() {
    let source = r#"
        global int out;
        global bool ob = true;
        global list ol = [1];
        proc p() {
            int n;
            bool b;
            list l;
            ob = b;
            ol = l;
            for i in 0..3 {
                int acc;            // zero again on every iteration
                acc = acc + i;
                n = n + acc;
            }
            out = n;
        }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(show(&p, &mem), "out = 3, ob = false, ol = []");
}

#[test]
fn if_else_and_else_if() {
    let source = r#"
        global int out;
        proc p(int v) {
            if (v < 0) {
                out = -1;
            } else if (v == 0) {
                out = 0;
            } else if (v < 10) {
                out = 1;
            } else {
                out = 2;
            }
            if (v == 5) { out = out * 100; }
        }
        init { }
    "#;
    let p = load(source);
    for (v, expected) in [(-4, -1), (0, 0), (3, 1), (5, 100), (10, 2), (99, 2)] {
        let mut mem = initial(&p);
        let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", vec![int(v)]);
        assert_eq!(proc.run(&mut mem, "p"), Ok(Next::End));
        assert_eq!(global(&p, &mem, "out"), int(expected), "v = {v}");
    }
}

#[test]
fn while_with_break_and_continue() {
    let source = r#"
        global int sum;
        global int last;
        global int outer;
        proc p() {
            int i = 0;
            while (true) {
                i = i + 1;
                if (i % 2 == 0) { continue; }
                if (i > 7) { break; }
                sum = sum + i;      // 1 + 3 + 5 + 7
            }
            last = i;
            int j = 0;
            while (j < 3) {         // break and continue act on the innermost loop
                j = j + 1;
                int k = 0;
                while (k < 10) {
                    k = k + 1;
                    if (k == 2) { break; }
                }
                outer = outer + k;
            }
        }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(show(&p, &mem), "sum = 16, last = 9, outer = 6");
}

#[test]
fn for_loops() {
    let source = r#"
        global int sum;
        global int count;
        global list seen;
        global int after;
        proc p() {
            int n = 4;
            for i in 0..n {
                n = n - 1;          // the bounds were evaluated once
                count = count + 1;
            }
            for i in -2..2 {
                seen = append(seen, i);
            }
            for i in 5..5 { count = count + 100; }
            for i in 5..2 { count = count + 100; }
            for i in 0..10 {
                if (i == 1) { continue; }
                if (i == 4) { break; }
                sum = sum + i;      // 0 + 2 + 3
            }
            for i in 0..2 {
                for j in 0..3 {
                    after = after + 10 * i + j;
                }
            }
        }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(
        show(&p, &mem),
        "sum = 5, count = 4, seen = [-2, -1, 0, 1], after = 36"
    );
}

#[test]
fn spawns_are_recorded_in_order_with_their_arguments() {
    let source = r#"
        global int x = 3;
        proc child(int a, bool b, list l) { }
        proc other() { }
        proc p() {
            spawn child(x, x > 2, [x, 1]);
            x = 7;
            spawn other();
            for i in 0..2 { spawn child(i, false, []); }
        }
        init { spawn p(); spawn other(); }
    "#;
    let p = load(source);
    let mut mem = Memory::initial(&p);
    let machine = Machine::new(&p, Limits::default());
    let from_init = machine.run_init(&mut mem).expect("init runs");
    let (pp, child, other) = (proc_id(&p, "p"), proc_id(&p, "child"), proc_id(&p, "other"));
    assert_eq!(from_init, vec![(pp, vec![]), (other, vec![])]);

    let mut proc = Process::new(machine, "p", Vec::new());
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::End));
    assert_eq!(
        proc.fx.spawns,
        vec![
            (child, vec![int(3), Value::Bool(true), list(&[3, 1])]),
            (other, vec![]),
            (child, vec![int(0), Value::Bool(false), list(&[])]),
            (child, vec![int(1), Value::Bool(false), list(&[])]),
        ]
    );
    // The spawned frame holds the arguments, then zeroed locals.
    let frame = machine.spawn_frame(child, vec![int(1), Value::Bool(true), list(&[2])]);
    assert_eq!(frame, vec![int(1), Value::Bool(true), list(&[2])]);
}

#[test]
fn failed_assertions_are_faults_with_their_message() {
    let source = r#"
        global int x;
        proc p() {
            x = 1;
            assert(x == 1, "never fails");
            assert(x == 2, "x is not \"two\"\n");
            x = 5;
        }
        proc q() { assert(x > 100); }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let machine = Machine::new(&p, Limits::default());
    let mut proc = Process::new(machine, "p", Vec::new());
    let fault = proc.run(&mut mem, "p").expect_err("the assertion fails");
    let Fault::Assert { message, span } = &fault else {
        panic!("expected an assertion failure, got {fault:?}");
    };
    assert_eq!(message.as_deref(), Some("x is not \"two\"\n"));
    assert_eq!(
        &source[span.start..span.end],
        r#"assert(x == 2, "x is not \"two\"\n");"#
    );
    assert_eq!(fault.to_string(), "assertion failed: x is not \"two\"\n");
    // The block stopped at the assertion: x = 5 did not run; the write before it did.
    assert_eq!(global(&p, &mem, "x"), int(1));

    let mut q = Process::new(machine, "q", Vec::new());
    let fault = q.run(&mut mem, "q").expect_err("the assertion fails");
    assert!(matches!(fault, Fault::Assert { message: None, .. }));
    assert_eq!(fault.to_string(), "assertion failed");
}

#[test]
fn await_ends_a_block_and_guards_the_next() {
    let source = r#"
        global int x;
        global int y;
        proc p() {
            x = 1;
            await (y > 0);
            x = 2;
            await (y > x);
            x = 3;
        }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", Vec::new());
    assert!(proc.enabled(&mem, "p"), "the entry block has no guard");
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(block(&p, "p#1"))));
    assert_eq!(show(&p, &mem), "x = 1, y = 0");
    assert!(!proc.enabled(&mem, "p#1"));
    let y = p.global_by_name("y").expect("y");
    let mut undo = UndoLog::default();
    mem.set_scalar(y, int(1), &mut undo);
    assert!(proc.enabled(&mem, "p#1"));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::Block(block(&p, "p#2"))));
    assert_eq!(show(&p, &mem), "x = 2, y = 1");
    assert!(!proc.enabled(&mem, "p#2"), "y > x is 1 > 2");
    mem.set_scalar(y, int(3), &mut undo);
    assert!(proc.enabled(&mem, "p#2"));
    assert_eq!(proc.run(&mut mem, "p#2"), Ok(Next::End));
    assert_eq!(show(&p, &mem), "x = 3, y = 3");
}

#[test]
fn an_await_that_opens_a_proc_guards_its_entry_block() {
    let source = r#"
        global int x;
        proc p(int k) {
            await (x >= k);
            x = x + 1;
        }
        init { }
    "#;
    let p = load(source);
    let names: Vec<&str> = p.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["p"], "no empty block runs before the guard");
    assert!(p.blocks[0].guard.is_some());
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", vec![int(1)]);
    assert!(!proc.enabled(&mem, "p"));
    let x = p.global_by_name("x").expect("x");
    mem.set_scalar(x, int(1), &mut UndoLog::default());
    assert!(proc.enabled(&mem, "p"));
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::End));
    assert_eq!(show(&p, &mem), "x = 2");
    // The guard read x: it is part of the event.
    assert_eq!(proc.fx.reads, locs(&p, &[("x", 0)]));
}

#[test]
fn yield_ends_a_block_and_the_next_is_always_enabled() {
    let source = r#"
        global int x;
        proc p() {
            for i in 0..3 {
                x = x + 1;
                yield;
            }
            x = x * 10;
        }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", Vec::new());
    let again = block(&p, "p#1");
    assert!(p.blocks[again as usize].guard.is_none());
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(again)));
    assert_eq!(global(&p, &mem, "x"), int(1));
    assert!(proc.enabled(&mem, "p#1"));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::Block(again)));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::Block(again)));
    assert_eq!(global(&p, &mem, "x"), int(3));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::End));
    assert_eq!(global(&p, &mem, "x"), int(30));
}

#[test]
fn return_ends_the_process() {
    let source = r#"
        global int x;
        proc p(int stop) {
            while (true) {
                x = x + 1;
                if (x == stop) { return; }
                yield;
            }
        }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", vec![int(2)]);
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(block(&p, "p#1"))));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::End));
    assert_eq!(global(&p, &mem, "x"), int(2));
}

#[test]
fn init_runs_to_completion_with_locals_loops_and_global_writes() {
    let source = r#"
        global int[4] a;
        global map m;
        global list l;
        proc w(int i) { }
        init {
            int n = 0;
            for i in 0..4 {
                a[i] = i * i;
                m[i] = -i;
                l = append(l, i);
                n = n + 1;
            }
            spawn w(n);
        }
    "#;
    let p = load(source);
    let mut mem = Memory::initial(&p);
    let spawns = Machine::new(&p, Limits::default())
        .run_init(&mut mem)
        .expect("init runs");
    assert_eq!(spawns, vec![(proc_id(&p, "w"), vec![int(4)])]);
    assert_eq!(
        show(&p, &mem),
        "a = [0, 1, 4, 9], m = {0: 0, 1: -1, 2: -2, 3: -3}, l = [0, 1, 2, 3]"
    );
}

#[test]
fn init_faults_are_reported() {
    let p = load("global int x;\ninit { x = 1; assert(x == 0, \"bad start\"); }\n");
    let mut mem = Memory::initial(&p);
    let fault = Machine::new(&p, Limits::default())
        .run_init(&mut mem)
        .expect_err("the assertion in init fails");
    assert!(matches!(fault, Fault::Assert { message: Some(ref m), .. } if m == "bad start"));
}

#[test]
fn params_and_global_initialisers() {
    let source = r#"
        param N = 3;
        param M = N * 2 + 1;
        global int[N] a;
        global bool[M - 5] b = [true, false];
        global int[3] c = [N, -N, max(N, 10)];
        global int x = M % 4;
        global list l = [N, M];
        global bool f = N > 2 && !(M == 0);
        global map m;
        init { }
    "#;
    let p = load(source);
    let mem = Memory::initial(&p);
    assert_eq!(
        show(&p, &mem),
        "a = [0, 0, 0], b = [true, false], c = [3, -3, 10], x = 3, l = [3, 7], f = true, m = {}"
    );
    // M follows an overridden N, and so does the size of b.
    let diags = frontend::load(source, &[("N".to_string(), 4)]).expect_err("b has 4 elements");
    assert_eq!(diags[0].message, "the array has 4 elements but 2 are given");
    let diags = frontend::load(source, &[("N".to_string(), 2)]).expect_err("b has 0 elements");
    assert_eq!(diags[0].message, "the array has 0 elements but 2 are given");
}

// ------------------------------------------------------------------ expressions

#[test]
fn arithmetic() {
    assert_eq!(eval_int("1 + 2 * 3 - 4"), 3);
    assert_eq!(eval_int("(1 + 2) * 3"), 9);
    assert_eq!(eval_int("10 - 3 - 2"), 5, "left associative");
    assert_eq!(eval_int("-5 + 2"), -3);
    assert_eq!(eval_int("- -5"), 5);
    assert_eq!(eval_int("-(2 * 3)"), -6);
    assert_eq!(eval_int("9223372036854775807"), i64::MAX);
    assert_eq!(eval_int("min64"), i64::MIN);
    assert_eq!(eval_int("min64 + 9223372036854775807"), -1);
}

#[test]
fn division_truncates_toward_zero_and_remainder_takes_the_sign_of_the_dividend() {
    assert_eq!(eval_int("7 / 2"), 3);
    assert_eq!(eval_int("-7 / 2"), -3);
    assert_eq!(eval_int("7 / -2"), -3);
    assert_eq!(eval_int("-7 / -2"), 3);
    assert_eq!(eval_int("0 / 5"), 0);
    assert_eq!(eval_int("7 % 2"), 1);
    assert_eq!(eval_int("-7 % 2"), -1);
    assert_eq!(eval_int("7 % -2"), 1);
    assert_eq!(eval_int("-7 % -2"), -1);
    assert_eq!(eval_int("6 % 3"), 0);
    assert_eq!(eval_int("10 / 3 * 3 + 10 % 3"), 10);
    assert_eq!(eval_int("min64 / 1"), i64::MIN);
    assert_eq!(eval_int("min64 % 1"), 0);
    // The remainder of i64::MIN by -1 is 0: it fits, so it is not an overflow.
    assert_eq!(eval_int("min64 % -1"), 0);
}

#[test]
fn comparisons_and_booleans() {
    assert!(eval_bool("1 < 2"));
    assert!(!eval_bool("2 < 2"));
    assert!(eval_bool("2 <= 2"));
    assert!(!eval_bool("3 <= 2"));
    assert!(eval_bool("3 > 2"));
    assert!(!eval_bool("2 > 2"));
    assert!(eval_bool("2 >= 2"));
    assert!(!eval_bool("1 >= 2"));
    assert!(eval_bool("2 == 2"));
    assert!(!eval_bool("2 != 2"));
    assert!(eval_bool("true == true"));
    assert!(eval_bool("false != true"));
    assert!(eval_bool("[1, 2] == [1, 2]"));
    assert!(eval_bool("[1, 2] != [2, 1]"));
    assert!(eval_bool("[] == empty"));
    assert!(eval_bool("true && true"));
    assert!(!eval_bool("true && false"));
    assert!(eval_bool("false || true"));
    assert!(!eval_bool("false || false"));
    assert!(eval_bool("!false"));
    assert!(!eval_bool("!(1 < 2)"));
    assert!(eval_bool("true || false && false"), "&& binds tighter");
    assert!(eval_bool("1 + 1 == 2 && 2 * 2 > 3"));
}

#[test]
fn short_circuit_and_the_conditional_are_lazy() {
    assert!(!eval_bool("false && (1 / 0 == 0)"));
    assert!(eval_bool("true || (1 / 0 == 0)"));
    assert!(!eval_bool("zero != 0 && 10 / zero > 1"));
    assert_eq!(eval_int("true ? 1 : 1 / 0"), 1);
    assert_eq!(eval_int("false ? head(empty) : 2"), 2);
    assert_eq!(eval_int("1 > 2 ? 10 : 3 < 4 ? 20 : 30"), 20);
    assert_eq!(eval_list("true ? [1] : []"), list(&[1]));
    // The other operand does run when it is needed.
    let (e, _) = expr_error("bool", "true && (1 / 0 == 0)");
    assert_eq!(e, ErrorKind::DivisionByZero);
    let (e, _) = expr_error("bool", "false || (1 / 0 == 0)");
    assert_eq!(e, ErrorKind::DivisionByZero);
}

#[test]
fn list_builtins() {
    assert_eq!(eval_int("len([4, 5, 6])"), 3);
    assert_eq!(eval_int("len([])"), 0);
    assert_eq!(eval_int("head([4, 5, 6])"), 4);
    assert_eq!(eval_list("tail([4, 5, 6])"), list(&[5, 6]));
    assert_eq!(eval_list("tail([4])"), list(&[]));
    assert_eq!(eval_list("append([4, 5], 6)"), list(&[4, 5, 6]));
    assert_eq!(eval_list("append([], -1)"), list(&[-1]));
    assert_eq!(eval_list("[1, 2] ++ [3] ++ []"), list(&[1, 2, 3]));
    assert_eq!(eval_list("[] ++ []"), list(&[]));
    assert_eq!(eval_int("[7, 8, 9][2]"), 9);
    assert_eq!(eval_int("[7, 8, 9][0] + [1 + 1][0]"), 9);
    assert_eq!(eval_list("take([1, 2, 3], 2)"), list(&[1, 2]));
    assert_eq!(eval_list("take([1, 2, 3], 0)"), list(&[]));
    assert_eq!(eval_list("take([1, 2, 3], 5)"), list(&[1, 2, 3]), "clamped");
    assert_eq!(eval_list("take([1, 2, 3], -1)"), list(&[]), "clamped");
    assert_eq!(eval_list("drop([1, 2, 3], 2)"), list(&[3]));
    assert_eq!(eval_list("drop([1, 2, 3], 0)"), list(&[1, 2, 3]));
    assert_eq!(eval_list("drop([1, 2, 3], 9)"), list(&[]), "clamped");
    assert_eq!(
        eval_list("drop([1, 2, 3], -4)"),
        list(&[1, 2, 3]),
        "clamped"
    );
    assert_eq!(eval_list("[-1, 2 * 3]"), list(&[-1, 6]));
}

#[test]
fn integer_builtins() {
    assert_eq!(eval_int("min(3, -4)"), -4);
    assert_eq!(eval_int("min(2, 2)"), 2);
    assert_eq!(eval_int("max(3, -4)"), 3);
    assert_eq!(eval_int("max(min64, 0)"), 0);
    assert_eq!(eval_int("abs(-5)"), 5);
    assert_eq!(eval_int("abs(5)"), 5);
    assert_eq!(eval_int("abs(0)"), 0);
    assert_eq!(eval_int("abs(min64 + 1)"), i64::MAX);
}

#[test]
fn arrays_and_maps_in_expressions() {
    let source = r#"
        param N = 3;
        global int[N] a = [10, 20, 30];
        global bool[2] b = [false, true];
        global map m;
        global int out;
        global bool found;
        global bool absent;
        proc p() {
            m[2] = 7;
            m[-1] = 0;
            out = a[1] + a[N - 1] + len(a) + m[2] + m[99];
            found = has(m, -1) && b[1];
            absent = has(m, 99) || b[0];
        }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(global(&p, &mem, "out"), int(20 + 30 + 3 + 7));
    assert_eq!(global(&p, &mem, "found"), Value::Bool(true));
    assert_eq!(global(&p, &mem, "absent"), Value::Bool(false));
    assert_eq!(
        show(&p, &mem),
        "a = [10, 20, 30], b = [false, true], m = {-1: 0, 2: 7}, out = 60, found = true, absent = false"
    );
}

/// `all(a)`: every element of a global `bool` array holds (`true` for none), reading
/// each element once.
#[test]
fn all_of_a_bool_array() {
    let source = r#"
        global bool[3] done = [true, false, true];
        global bool[0] none;
        global bool[5] five = [true, true, true, true, true];
        global bool before;
        global bool after;
        global bool empty;
        global bool full;
        proc p() {
            before = all(done);
            done[1] = true;
            after = all(done);
            empty = all(none);
            full = all(five) && all(done);
        }
        init { }
    "#;
    let (p, mem, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(global(&p, &mem, "before"), Value::Bool(false));
    assert_eq!(global(&p, &mem, "after"), Value::Bool(true));
    assert_eq!(global(&p, &mem, "empty"), Value::Bool(true));
    assert_eq!(global(&p, &mem, "full"), Value::Bool(true));
    // The two calls of `all(done)` and the one of `all(five)` read their arrays whole
    // (the `&&`s stop at the first false element: `before` reads done[0] and done[1]).
    let done = locs(&p, &[("done", 0), ("done", 1), ("done", 2)]);
    for l in &done {
        assert!(fx.reads.contains(l), "{l:?} unread: {fx:?}");
    }
    for i in 0..5 {
        assert!(fx.reads.contains(&loc(&p, "five", i)));
    }
}

#[test]
fn funs_with_recursion_loops_and_lists() {
    let source = r#"
        global int out;
        global list sorted;
        fun fact(int n) -> int {
            if (n <= 1) { return 1; }
            return n * fact(n - 1);
        }
        fun sum(list l) -> int {
            int s = 0;
            for i in 0..len(l) { s = s + l[i]; }
            return s;
        }
        fun rev(list l) -> list {
            list acc = [];
            while (len(l) > 0) {
                acc = [head(l)] ++ acc;
                l = tail(l);
            }
            return acc;
        }
        fun even(int n) -> bool { return n == 0 ? true : odd(n - 1); }
        fun odd(int n) -> bool { return n == 0 ? false : even(n - 1); }
        proc p() {
            out = fact(5) + sum([1, 2, 3]) + (even(10) ? 1000 : 0) + (odd(7) ? 10000 : 0);
            sorted = rev([1, 2, 3]);
        }
        init { }
    "#;
    let (p, mem, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(show(&p, &mem), "out = 11126, sorted = [3, 2, 1]");
    // Calls read nothing global: the only writes are the two globals.
    assert!(fx.reads.is_empty());
    assert_eq!(fx.writes, locs(&p, &[("out", 0), ("sorted", 0)]));
}

#[test]
fn deep_recursion_within_the_default_limit() {
    let source = r#"
        global int out;
        fun down(int n) -> int {
            if (n == 0) { return 0; }
            return 1 + down(n - 1);
        }
        proc p() { out = down(990); }
        init { }
    "#;
    let (p, mem, result, _) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(global(&p, &mem, "out"), int(990));
}

// ------------------------------------------------------------------ runtime errors

#[test]
fn overflow_is_a_runtime_error() {
    let max = "9223372036854775807";
    assert_eq!(
        expr_error("int", &format!("{max} + 1")),
        (ErrorKind::Overflow("+"), format!("{max} + 1"))
    );
    assert_eq!(
        expr_error("int", "min64 - 1"),
        (ErrorKind::Overflow("-"), "min64 - 1".to_string())
    );
    assert_eq!(
        expr_error("int", &format!("{max} * 2")),
        (ErrorKind::Overflow("*"), format!("{max} * 2"))
    );
    assert_eq!(
        expr_error("int", "min64 * -1"),
        (ErrorKind::Overflow("*"), "min64 * -1".to_string())
    );
    assert_eq!(
        expr_error("int", "-min64"),
        (ErrorKind::Overflow("-"), "-min64".to_string())
    );
    assert_eq!(
        expr_error("int", "abs(min64)"),
        (ErrorKind::Overflow("abs"), "abs(min64)".to_string())
    );
    assert_eq!(
        expr_error("int", "min64 / -1"),
        (ErrorKind::Overflow("/"), "min64 / -1".to_string())
    );
    let (e, at) = expr_error("int", "1 + (min64 - 1)");
    assert_eq!((e, at.as_str()), (ErrorKind::Overflow("-"), "min64 - 1"));
    assert_eq!(
        ErrorKind::Overflow("+").to_string(),
        "integer overflow in `+`"
    );
}

#[test]
fn division_by_zero_is_a_runtime_error() {
    assert_eq!(
        expr_error("int", "7 / zero"),
        (ErrorKind::DivisionByZero, "7 / zero".to_string())
    );
    assert_eq!(
        expr_error("int", "7 % zero"),
        (ErrorKind::DivisionByZero, "7 % zero".to_string())
    );
    assert_eq!(
        expr_error("int", "min64 % (1 - 1)"),
        (ErrorKind::DivisionByZero, "min64 % (1 - 1)".to_string())
    );
    assert_eq!(ErrorKind::DivisionByZero.to_string(), "division by zero");
}

#[test]
fn array_index_out_of_range() {
    let decls = "global int[3] a;\nglobal int out;";
    assert_eq!(
        runtime_error(decls, "out = a[3];", Limits::default()),
        (
            ErrorKind::IndexOutOfRange { index: 3, len: 3 },
            "3".to_string()
        )
    );
    assert_eq!(
        runtime_error(decls, "int i = -1; out = a[i];", Limits::default()),
        (
            ErrorKind::IndexOutOfRange { index: -1, len: 3 },
            "i".to_string()
        )
    );
    assert_eq!(
        runtime_error(decls, "a[1 + 2] = 5;", Limits::default()),
        (
            ErrorKind::IndexOutOfRange { index: 3, len: 3 },
            "1 + 2".to_string()
        )
    );
    assert_eq!(
        runtime_error(decls, "a[-7] = 5;", Limits::default()).0,
        ErrorKind::IndexOutOfRange { index: -7, len: 3 }
    );
    assert_eq!(
        runtime_error(
            "global bool[0] b;\nglobal bool out;",
            "out = b[0];",
            Limits::default()
        )
        .0,
        ErrorKind::IndexOutOfRange { index: 0, len: 0 }
    );
    assert_eq!(
        ErrorKind::IndexOutOfRange { index: 3, len: 3 }.to_string(),
        "index 3 out of range for length 3"
    );
}

#[test]
fn list_index_out_of_range() {
    let decls = "global list l = [1, 2];\nglobal int out;";
    assert_eq!(
        runtime_error(decls, "out = l[2];", Limits::default()),
        (
            ErrorKind::IndexOutOfRange { index: 2, len: 2 },
            "l[2]".to_string()
        )
    );
    assert_eq!(
        runtime_error(decls, "out = l[-1];", Limits::default()).0,
        ErrorKind::IndexOutOfRange { index: -1, len: 2 }
    );
    assert_eq!(
        runtime_error(decls, "l[5] = 1;", Limits::default()),
        (
            ErrorKind::IndexOutOfRange { index: 5, len: 2 },
            "5".to_string()
        )
    );
    assert_eq!(
        runtime_error(decls, "list mine = [3]; mine[1] = 0;", Limits::default()).0,
        ErrorKind::IndexOutOfRange { index: 1, len: 1 }
    );
    assert_eq!(
        runtime_error(decls, "out = [][0];", Limits::default()).0,
        ErrorKind::IndexOutOfRange { index: 0, len: 0 }
    );
}

#[test]
fn head_and_tail_of_an_empty_list() {
    assert_eq!(
        expr_error("int", "head(empty)"),
        (ErrorKind::EmptyList("head"), "head(empty)".to_string())
    );
    assert_eq!(
        expr_error("list", "tail([])"),
        (ErrorKind::EmptyList("tail"), "tail([])".to_string())
    );
    assert_eq!(
        expr_error("int", "head(tail([1]))").0,
        ErrorKind::EmptyList("head")
    );
    assert_eq!(
        ErrorKind::EmptyList("head").to_string(),
        "`head` of an empty list"
    );
}

/// A list is at most `MAX_LIST_LEN` (2^20) elements long: a `++` or `append` past it
/// is a runtime error at the operator, not an allocation that exhausts memory.
#[test]
fn a_list_longer_than_the_limit_is_a_runtime_error() {
    let decls = "global list l = [1];\nglobal int out;";
    // Doubled 20 times, the list has exactly 2^20 elements: within the limit.
    let doubled = |times: u32| format!("for i in 0..{times} {{ l = l ++ l; }} out = len(l);");
    let source = format!("{decls}\nproc p() {{ {} }}\ninit {{ }}\n", doubled(20));
    let (p, mem, result, _) = run_p(&source, Limits::default());
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(global(&p, &mem, "out"), Value::Int(1 << 20));
    // Once more is 2^21, and forty times more than memory holds.
    for times in [21, 40] {
        assert_eq!(
            runtime_error(decls, &doubled(times), Limits::default()),
            (ErrorKind::ListTooLong("++"), "l ++ l".to_string())
        );
    }
    // One element past the limit by `append`.
    assert_eq!(
        runtime_error(
            decls,
            &format!("{} l = append(l, 0);", doubled(20)),
            Limits::default()
        ),
        (ErrorKind::ListTooLong("append"), "append(l, 0)".to_string())
    );
    assert_eq!(
        ErrorKind::ListTooLong("append").to_string(),
        "`append` makes a list longer than 1048576 elements"
    );
}

#[test]
fn the_step_bound_stops_a_block_that_does_not_terminate() {
    let limits = Limits {
        max_steps: 50,
        ..Limits::default()
    };
    let (e, _) = runtime_error("global int x;", "while (true) { x = x + 1; }", limits);
    assert_eq!(e, ErrorKind::StepLimit(50));
    assert_eq!(
        e.to_string(),
        "block did not terminate (more than 50 steps)"
    );
    // Fun bodies count too.
    let (e, _) = runtime_error(
        "global int x;\nfun spin(int n) -> int { while (n >= 0) { n = n + 1; } return n; }",
        "x = spin(0);",
        limits,
    );
    assert_eq!(e, ErrorKind::StepLimit(50));
    // A block that needs exactly as many steps as allowed runs.
    let source = "global int x;\nproc p() { x = 1; x = 2; x = 3; }\ninit { }\n";
    let exact = Limits {
        max_steps: 4, // three assignments and the end of the proc
        ..Limits::default()
    };
    let (_, _, result, _) = run_p(source, exact);
    assert_eq!(result, Ok(Next::End));
    let short = Limits {
        max_steps: 3,
        ..Limits::default()
    };
    let (_, _, result, _) = run_p(source, short);
    assert!(matches!(
        result,
        Err(Fault::Runtime(RuntimeError {
            error: ErrorKind::StepLimit(3),
            ..
        }))
    ));
    // The count restarts with every block.
    let source = "global int x;\nproc p() { x = 1; yield; x = 2; x = 3; }\ninit { }\n";
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, exact), "p", Vec::new());
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(block(&p, "p#1"))));
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::End));
}

#[test]
fn fun_call_depth_is_bounded() {
    let decls = "global int x;\nfun forever(int n) -> int { return forever(n + 1); }\n\
                 fun down(int n) -> int { return n == 0 ? 0 : down(n - 1); }";
    let limits = Limits {
        max_call_depth: 10,
        ..Limits::default()
    };
    let (e, at) = runtime_error(decls, "x = forever(0);", limits);
    assert_eq!(e, ErrorKind::CallDepth(10));
    assert_eq!(at, "forever(n + 1)");
    assert_eq!(e.to_string(), "fun calls nested more than 10 deep");
    // Ten nested calls are allowed, eleven are not.
    let source = format!("{decls}\nproc p() {{ x = down(9); }}\ninit {{ }}\n");
    let (_, _, result, _) = run_p(&source, limits);
    assert_eq!(result, Ok(Next::End));
    let (e, _) = runtime_error(decls, "x = down(10);", limits);
    assert_eq!(e, ErrorKind::CallDepth(10));
    // With the default limit, infinite recursion is an error, not a stack overflow.
    let (e, _) = runtime_error(decls, "x = forever(0);", Limits::default());
    assert_eq!(e, ErrorKind::CallDepth(Limits::default().max_call_depth));
}

#[test]
fn a_fun_that_ends_without_return_is_a_runtime_error() {
    let decls = "global int x;\nfun sign(int n) -> int { if (n > 0) { return 1; } }";
    let source = format!("{decls}\nproc p() {{ x = sign(5); }}\ninit {{ }}\n");
    let (p, mem, result, _) = run_p(&source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(global(&p, &mem, "x"), int(1));
    let (e, at) = runtime_error(decls, "x = sign(-5);", Limits::default());
    assert_eq!(e, ErrorKind::NoReturn("sign".to_string()));
    assert_eq!(at, "sign(-5)");
    assert_eq!(e.to_string(), "fun `sign` ended without `return`");
}

#[test]
fn a_runtime_error_in_a_guard() {
    let source = "global int x;\nproc p() { await (10 / x > 1); }\ninit { }\n";
    let p = load(source);
    let mem = initial(&p);
    let machine = Machine::new(&p, Limits::default());
    let locals = machine.spawn_frame(proc_id(&p, "p"), Vec::new());
    let fault = machine
        .enabled(block(&p, "p"), &mem, &locals)
        .expect_err("division by zero in the guard");
    assert!(matches!(
        fault,
        Fault::Runtime(RuntimeError {
            error: ErrorKind::DivisionByZero,
            ..
        })
    ));
    assert_eq!(&source[fault.span().start..fault.span().end], "10 / x");
}

// ------------------------------------------------------------------ read and write sets

#[test]
fn array_elements_and_map_keys_are_separate_locations() {
    let source = r#"
        global int[4] a;
        global map m;
        global int x;
        proc p() {
            a[1] = a[2] + a[2] + len(a);
            m[5] = m[3];
            x = has(m, 7) ? 1 : 0;
            m[-2] = 1;
        }
        init { }
    "#;
    let (p, _, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(fx.reads, locs(&p, &[("a", 2), ("m", 3), ("m", 7)]));
    assert_eq!(
        fx.writes,
        locs(&p, &[("a", 1), ("m", 5), ("m", -2), ("x", 0)])
    );
    assert!(fx.spawns.is_empty());
    assert_eq!(loc(&p, "a", 2).display(&p), "a[2]");
    assert_eq!(loc(&p, "m", -2).display(&p), "m[-2]");
    assert_eq!(loc(&p, "x", 0).display(&p), "x");
}

#[test]
fn scalars_and_lists_are_whole_locations_and_locals_are_not_recorded() {
    let source = r#"
        global int x = 1;
        global int y;
        global list l = [1, 2, 3];
        proc p() {
            int t = x;
            list mine = l;
            mine[0] = 4;
            t = t + mine[0];
            y = t + head(l);
        }
        init { }
    "#;
    let (p, mem, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(global(&p, &mem, "y"), int(6));
    assert_eq!(fx.reads, locs(&p, &[("x", 0), ("l", 0)]));
    assert_eq!(fx.writes, locs(&p, &[("y", 0)]));
}

#[test]
fn a_list_element_write_reads_and_writes_the_list() {
    let source = "global list l = [1, 2];\nproc p() { l[1] = 5; }\ninit { }\n";
    let (p, mem, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(show(&p, &mem), "l = [1, 5]");
    assert_eq!(fx.reads, locs(&p, &[("l", 0)]));
    assert_eq!(fx.writes, locs(&p, &[("l", 0)]));
}

#[test]
fn guard_reads_belong_to_the_block_that_runs() {
    let source = r#"
        global int x = 1;
        global int[3] a;
        global int y;
        proc p(int i) {
            await (x > 0 && a[i] == 0);
            y = 1;
            await (y == 1 || x == 99);
            y = 2;
        }
        init { }
    "#;
    let p = load(source);
    let mut mem = initial(&p);
    let mut proc = Process::new(Machine::new(&p, Limits::default()), "p", vec![int(2)]);
    assert!(proc.enabled(&mem, "p"));
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(block(&p, "p#1"))));
    assert_eq!(proc.fx.reads, locs(&p, &[("x", 0), ("a", 2)]));
    assert_eq!(proc.fx.writes, locs(&p, &[("y", 0)]));
    assert_eq!(
        proc.fx.reads.len(),
        2,
        "the guard of p#1 belongs to the next event"
    );
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::End));
    // `y == 1 || x == 99` stopped after `y == 1`: x was not read.
    assert_eq!(proc.fx.reads, locs(&p, &[("y", 0)]));
    assert_eq!(proc.fx.writes, locs(&p, &[("y", 0)]));
}

#[test]
fn unevaluated_operands_read_nothing() {
    let source = r#"
        global int x;
        global int y;
        global int z;
        global bool out;
        proc p() {
            out = x == 1 && y > 0;
            out = x == 0 || z > 0;
            out = x == 0 ? out : y == z;
            if (x == 1) { out = z == 0; }
        }
        init { }
    "#;
    let (p, _, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(fx.reads, locs(&p, &[("x", 0), ("out", 0)]));
    assert_eq!(fx.writes, locs(&p, &[("out", 0)]));
}

#[test]
fn effects_are_sorted_and_deduplicated() {
    let source = r#"
        global int[3] a;
        global int x;
        proc p() {
            for i in 0..3 { x = x + a[2 - i]; a[i] = x; }
            x = a[0];
        }
        init { }
    "#;
    let (p, _, result, fx) = run_p(source, Limits::default());
    assert_eq!(result, Ok(Next::End));
    assert_eq!(
        fx.reads,
        locs(&p, &[("a", 0), ("a", 1), ("a", 2), ("x", 0)])
    );
    assert_eq!(
        fx.writes,
        locs(&p, &[("a", 0), ("a", 1), ("a", 2), ("x", 0)])
    );
}

// ------------------------------------------------------------------ undo

#[test]
fn undo_restores_the_memory_exactly() {
    let source = r#"
        global int x = 1;
        global bool f;
        global int[3] a = [1, 2, 3];
        global map m;
        global list l = [9];
        proc p() {
            x = x + 1;
            m[1] = 10;
            yield;
            a[0] = 7;
            a[0] = 8;
            m[1] = 11;
            m[2] = 20;
            l = append(l, 3);
            l[0] = 0;
            f = true;
            x = 100;
        }
        proc q() {
            x = 5;
            a[1] = 0;
            m[1] = 1;
            assert(false);
        }
        init { m[0] = 0; }
    "#;
    let p = load(source);
    let machine = Machine::new(&p, Limits::default());
    let mut mem = initial(&p);
    let start = mem.clone();
    let mut proc = Process::new(machine, "p", Vec::new());
    assert_eq!(proc.run(&mut mem, "p"), Ok(Next::Block(block(&p, "p#1"))));
    let middle = mem.clone();
    let mark = proc.undo.len();
    assert_eq!(mark, 2);
    assert_eq!(proc.run(&mut mem, "p#1"), Ok(Next::End));
    assert_eq!(
        show(&p, &mem),
        "x = 100, f = true, a = [8, 2, 3], m = {0: 0, 1: 11, 2: 20}, l = [0, 3]"
    );
    mem.undo_to(&mut proc.undo, mark);
    assert_eq!(mem, middle);
    assert_eq!(proc.undo.len(), mark);
    mem.undo_to(&mut proc.undo, 0);
    assert_eq!(mem, start);
    assert!(proc.undo.is_empty());
    assert_eq!(
        show(&p, &mem),
        "x = 1, f = false, a = [1, 2, 3], m = {0: 0}, l = [9]"
    );

    // A block that faults leaves its writes in the log: undo removes them.
    let mut q = Process::new(machine, "q", Vec::new());
    assert!(q.run(&mut mem, "q").is_err());
    assert_ne!(mem, start);
    mem.undo_to(&mut q.undo, 0);
    assert_eq!(mem, start);
}

// ------------------------------------------------------------------ blocks and liveness

fn block_names(p: &Program) -> Vec<&str> {
    p.blocks.iter().map(|b| b.name.as_str()).collect()
}

/// The live locals of a block, by name.
fn live(p: &Program, name: &str) -> Vec<String> {
    let b = &p.blocks[block(p, name) as usize];
    let code = &p.procs[b.proc as usize].code;
    b.live
        .iter()
        .map(|&l| code.locals[l as usize].name.clone())
        .collect()
}

#[test]
fn blocks_are_named_after_their_proc_in_source_order() {
    let source = r#"
        global int x;
        proc q(int n) {
            await (x > 0);          // guards q itself
            x = 1;
            if (n > 0) {
                await (x == 2);     // q#1
                x = 3;
            } else {
                yield;              // q#2
            }
            while (x < 10) {
                x = x + 1;
                yield;              // q#3
            }
        }
        proc r() {
            x = 0;
            yield;                  // r#1
            await (x == 0);         // r#2
        }
        proc s() { }
        init { }
    "#;
    let p = load(source);
    assert_eq!(
        block_names(&p),
        ["q", "q#1", "q#2", "q#3", "r", "r#1", "r#2", "s"]
    );
    let guarded: Vec<bool> = p.blocks.iter().map(|b| b.guard.is_some()).collect();
    assert_eq!(
        guarded,
        [true, true, false, false, false, false, true, false]
    );
    let q = proc_id(&p, "q");
    let of_q: Vec<BlockId> = p.blocks_of(q).collect();
    assert_eq!(of_q, [0, 1, 2, 3]);
    assert_eq!(p.procs[q as usize].entry, 0);
    assert_eq!(p.procs[proc_id(&p, "r") as usize].entry, 4);
    assert_eq!(p.procs[proc_id(&p, "s") as usize].entry, 7);
    for (i, b) in p.blocks.iter().enumerate() {
        assert_eq!(p.block_by_name(&b.name), Some(i as BlockId));
    }
    // Block spans point at the `await`/`yield` that opens them, or the proc's name.
    let text = |b: &str| {
        let span: Span = p.blocks[block(&p, b) as usize].span;
        source[span.start..span.end].to_string()
    };
    assert_eq!(text("q"), "q");
    assert_eq!(text("q#1"), "await (x == 2);");
    assert_eq!(text("r#1"), "yield;");
}

#[test]
fn an_await_that_is_not_first_starts_a_block() {
    // A statement before the `await`, even in a nested `{ }`, makes the entry block
    // run first: the `await` then opens `p#1`.
    let p = load("global int x;\nproc p() { { await (x > 0); } x = 1; }\ninit { }\n");
    assert_eq!(block_names(&p), ["p", "p#1"]);
    assert!(p.blocks[0].guard.is_none());
    assert!(p.blocks[1].guard.is_some());
    let p = load("global int x;\nproc p() { await (x > 0); await (x > 1); }\ninit { }\n");
    assert_eq!(block_names(&p), ["p", "p#1"]);
    assert!(p.blocks[0].guard.is_some() && p.blocks[1].guard.is_some());
}

#[test]
fn live_locals_at_block_entry() {
    let source = r#"
        global int x;
        proc q(int a, int b, int unused) {
            int t = a + 1;
            yield;                  // q#1: t and b are read later
            x = t;
            int dead = 7;
            await (x > b);          // q#2: only b, in the guard
            int u = 5;
            x = u;
        }
        proc w(int n) {
            list l = [1, 2];
            for i in 0..n {
                yield;              // w#1: the loop variable, its bound, and l
                x = x + i + l[0];
            }
            x = 0;
        }
        proc g(int k) {
            await (x == k);         // the entry guard reads k
            x = 0;
        }
        init { }
    "#;
    let p = load(source);
    assert_eq!(live(&p, "q"), ["a", "b"]);
    assert_eq!(live(&p, "q#1"), ["b", "t"]);
    assert_eq!(live(&p, "q#2"), ["b"]);
    assert_eq!(live(&p, "w"), ["n"]);
    assert_eq!(live(&p, "w#1"), ["l", "i", "i.end"]);
    assert_eq!(live(&p, "g"), ["k"]);
    // Sorted by local id.
    for b in &p.blocks {
        assert!(b.live.windows(2).all(|w| w[0] < w[1]), "{}", b.name);
    }
}

#[test]
fn a_local_overwritten_before_use_is_dead() {
    let source = r#"
        global int x;
        proc p(int v) {
            int t = 1;
            yield;                  // p#1: t is reassigned before use
            t = x;
            yield;                  // p#2: t is read
            x = t + v;
            yield;                  // p#3: nothing is read any more
            x = 0;
        }
        init { }
    "#;
    let p = load(source);
    assert_eq!(live(&p, "p"), ["v"]);
    assert_eq!(live(&p, "p#1"), ["v"]);
    assert_eq!(live(&p, "p#2"), ["v", "t"]);
    assert!(live(&p, "p#3").is_empty());
}

// ------------------------------------------------------------------ the examples

/// What exhaustive exploration of a program found.
#[derive(Debug, Default)]
struct Outcome {
    interleavings: usize,
    deadlocks: usize,
    /// Distinct violations: the block and the fault.
    violations: BTreeSet<String>,
    /// Distinct final states without deadlock: the memory (all processes ended).
    finals: BTreeSet<String>,
}

#[derive(Clone)]
struct Proc {
    next: Option<BlockId>,
    locals: Vec<Value>,
}

fn explore(p: &Program) -> Outcome {
    let machine = Machine::new(p, Limits::default());
    let mut mem = Memory::initial(p);
    let spawned = machine.run_init(&mut mem).expect("init runs");
    let procs: Vec<Proc> = spawned
        .into_iter()
        .map(|(id, args)| Proc {
            next: Some(p.procs[id as usize].entry),
            locals: machine.spawn_frame(id, args),
        })
        .collect();
    let mut out = Outcome::default();
    let mut undo = UndoLog::default();
    dfs(&machine, &mut mem, procs, &mut undo, &mut out);
    out
}

fn dfs(m: &Machine, mem: &mut Memory, procs: Vec<Proc>, undo: &mut UndoLog, out: &mut Outcome) {
    assert!(
        out.interleavings < 100_000,
        "the example is too big to explore"
    );
    let mut any = false;
    for i in 0..procs.len() {
        let Some(b) = procs[i].next else { continue };
        if !m
            .enabled(b, mem, &procs[i].locals)
            .expect("guards evaluate")
        {
            continue;
        }
        any = true;
        let mark = undo.len();
        let mut next = procs.clone();
        let mut fx = Effects::default();
        match m.run_block(b, mem, &mut next[i].locals, undo, &mut fx) {
            Ok(n) => {
                next[i].next = match n {
                    Next::Block(b) => Some(b),
                    Next::End => None,
                };
                for (id, args) in fx.spawns {
                    next.push(Proc {
                        next: Some(m.program.procs[id as usize].entry),
                        locals: m.spawn_frame(id, args),
                    });
                }
                dfs(m, mem, next, undo, out);
            }
            Err(f) => {
                out.interleavings += 1;
                out.violations
                    .insert(format!("{}: {f}", m.program.blocks[b as usize].name));
            }
        }
        mem.undo_to(undo, mark);
    }
    if !any {
        out.interleavings += 1;
        if procs.iter().any(|p| p.next.is_some()) {
            out.deadlocks += 1;
        } else {
            out.finals.insert(mem.show(m.program).to_string());
        }
    }
}

fn example(name: &str) -> Program {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).expect("the example exists");
    load(&source)
}

fn finals(o: &Outcome) -> Vec<&str> {
    o.finals.iter().map(String::as_str).collect()
}

#[test]
fn example_fig1() {
    let o = explore(&example("fig1.ic"));
    assert_eq!(o.interleavings, 6);
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty());
    assert_eq!(finals(&o), ["x = 0, z = -1"]);
}

#[test]
fn example_mutex() {
    let o = explore(&example("mutex.ic"));
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(
        finals(&o),
        ["locked = false, busy = false, count = 3, finished = 3"]
    );
    // The lock serialises the workers: one interleaving per order of entry.
    assert_eq!(o.interleavings, 6);
}

#[test]
fn example_mutex_without_its_await() {
    let path = format!("{}/../examples/mutex.ic", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("the example exists");
    let unguarded = source.replace("await (!locked);", "");
    assert_ne!(unguarded, source);
    let o = explore(&load(&unguarded));
    assert_eq!(
        o.violations.iter().map(String::as_str).collect::<Vec<_>>(),
        ["worker: assertion failed: two workers in the critical section"]
    );
}

#[test]
fn example_buffer() {
    let o = explore(&example("buffer.ic"));
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(o.interleavings, 844);
    assert!(o
        .finals
        .iter()
        .all(|f| f.starts_with("buf = [], taken = [")));
    assert!(o.finals.iter().all(|f| f.ends_with("sum = 22")));
    // Each producer's items stay in order; the two producers interleave freely.
    assert_eq!(o.finals.len(), 6);
}

#[test]
fn example_bank() {
    let o = explore(&example("bank.ic"));
    assert_eq!(o.deadlocks, 0);
    assert_eq!(
        o.violations.iter().map(String::as_str).collect::<Vec<_>>(),
        ["auditor: assertion failed: money was created or lost"]
    );
    assert_eq!(o.interleavings, 11);
    assert_eq!(
        finals(&o),
        ["balance = [6, 14, 10], done = [true, true], refused = 1"]
    );
}

#[test]
fn example_fib() {
    let o = explore(&example("fib.ic"));
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(finals(&o), ["nr = 0, r = 2"]);
    assert_eq!(o.interleavings, 278);
}

#[test]
fn example_philosophers() {
    let o = explore(&example("philosophers.ic"));
    // Deadlock: all three hold their left fork, in any of 3! orders.
    assert_eq!((o.interleavings, o.deadlocks), (30, 6));
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(finals(&o), ["fork = [false, false, false], meals = 3"]);
    // With one philosopher, the fork is needed twice.
    let source = std::fs::read_to_string(format!(
        "{}/../examples/philosophers.ic",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the example exists");
    let one = frontend::load(&source, &[("N".to_string(), 1)]).expect("loads with N = 1");
    let o = explore(&one);
    assert_eq!((o.interleavings, o.deadlocks), (1, 1));
}

#[test]
fn example_kvstore() {
    let o = explore(&example("kvstore.ic"));
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(
        finals(&o),
        ["store = {1: 1, 2: 3, 3: 2}, writes = 4, log = [0, 1, 2, 1]"]
    );
    assert_eq!(o.interleavings, 52);
}

#[test]
fn example_sort() {
    let o = explore(&example("sort.ic"));
    assert_eq!(o.deadlocks, 0);
    assert!(o.violations.is_empty(), "{:?}", o.violations);
    assert_eq!(o.interleavings, 2);
    assert_eq!(
        finals(&o),
        [
            "data = [5, -3, -9, 1], sorted = [-3, 1, 5, 9], g = 6, stats = [-3, 9, 6]",
            "data = [5, -3, -9, 1], sorted = [-9, -3, 1, 5], g = 6, stats = [-9, 5, 7]",
        ]
    );
}

#[test]
fn example_buffer_deadlocks_without_room() {
    let path = format!("{}/../examples/buffer.ic", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("the example exists");
    let p = frontend::load(&source, &[("CAP".to_string(), 0)]).expect("loads");
    let o = explore(&p);
    // The three entry blocks run in any order, then everybody waits.
    assert_eq!((o.interleavings, o.deadlocks), (6, 6));
    assert!(o.finals.is_empty() && o.violations.is_empty());
}

/// An array of lists holds one list per element: written and read whole, an element
/// of a list read through a local.
#[test]
fn arrays_of_lists() {
    let src = "global list[3] r = [[], [1], [2, 3]];
        global int n = 0;
        proc p() { r[0] = append(r[2], 4); list l = r[0]; n = l[2] + len(r[1]); }
        init { spawn p(); }";
    let program = frontend::load(src, &[]).expect("loads");
    let mut mem = frontend::memory::Memory::initial(&program);
    let machine = frontend::interp::Machine::new(&program, frontend::interp::Limits::default());
    let spawns = machine.run_init(&mut mem).expect("init runs");
    let (proc, args) = spawns.into_iter().next().expect("one spawn");
    let mut locals = machine.spawn_frame(proc, args);
    let mut undo = frontend::memory::UndoLog::default();
    let mut fx = frontend::interp::Effects::default();
    let block = program.block_by_name("p").expect("block p");
    machine
        .run_block(block, &mut mem, &mut locals, &mut undo, &mut fx)
        .expect("runs");
    let list = |v: &[i64]| frontend::value::Value::List(v.into());
    assert_eq!(mem.element(0, 0), &list(&[2, 3, 4]));
    assert_eq!(mem.scalar(1), &frontend::value::Value::Int(5));
}
