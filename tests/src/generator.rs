//! Small random `.ic` programs for the differential soundness test
//! (`tests/tests/differential.rs`): an AST-like value that shrinks well, a
//! normalisation that bounds its state space, and a printer to source text.
//!
//! Every [`Program`] prints to a program that `frontend::load` accepts, whatever the
//! field values: variables are chosen by index among those in scope (modulo their
//! number), spawned procs are chosen among the procs declared after the spawning one
//! (so spawning terminates), `break`/`continue` are printed only inside loops, and
//! every name is unique in its scope. Random strategies over these types live with the
//! test (proptest is a dev-dependency of this crate); any value they produce is valid.
//!
//! The fixed vocabulary of every program:
//!
//! ```text
//! param K = ..;
//! global int x, y, z;  global bool b;  global int[3] a;  global map m;  global list l;
//! global list[2] c;
//! fun f(int u, int w) -> int { .. }          // sometimes, from a few templates
//! proc p(..) { .. }  proc q(..)  proc r(..)  proc s(..)
//! init { spawn ..; for k in 0..2 { spawn ..(k); } }
//! ```
//!
//! Locals are `t0, t1, ..` (declared at the top level of a proc, so that they live
//! across `yield`/`await`), `for` variables `i0, i1, ..`, `while` counters `n0, n1, ..`
//! and a proc's parameter `v`.
//!
//! Besides the general statements, the vocabulary has what the soundness bugs of
//! issues 11 and 16 were made of, so that the strategies can produce them often: the
//! innermost loop's variable ([`IntExpr::LoopVar`], for `if (i0 > 5) { x = 0; }` in a
//! loop), negation ([`IntExpr::Neg`]) for overflows near `i64::MIN`, a block spinning
//! on a global ([`Stmt::Spin`]: `while (x == 0) { }`), and a second spawn of the
//! previous proc ([`InitSpawn::Again`]). Globals may start near `i64::MAX`/`i64::MIN`.
//!
//! Why one file of this length: the program type, its normalisation and its printer
//! change together whenever a construct is added to the generator.

use std::fmt::{self, Write as _};

/// At most this many processes, counted through every spawn (loops multiply).
pub const MAX_PROCESSES: usize = 4;

/// Upper bound on the interleavings of the blocks of all processes (a multinomial
/// coefficient over each process's maximal number of blocks): keeps `naive` small.
pub const MAX_INTERLEAVINGS: f64 = 20_000.0;

/// The proc names, in declaration order.
pub const PROC_NAMES: [&str; 4] = ["p", "q", "r", "s"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
pub enum IntExpr {
    Const(i64),
    /// The `param K`.
    Param,
    /// The `n`-th readable int variable in scope (modulo their number): `x`, `y`, `z`,
    /// then the proc's parameter, its locals, loop variables and counters.
    Var(u8),
    /// `a[i]` (out of range sometimes).
    Array(Box<IntExpr>),
    /// `m[k]`
    Map(Box<IntExpr>),
    /// `head(l)` (a runtime error on `[]`).
    Head,
    /// `len(l)`
    Len,
    /// `head(c[i])` (`true`, a runtime error on `[]`) or `len(c[i])`: an element of
    /// the array of lists (out of range sometimes).
    Cell(Box<IntExpr>, bool),
    /// `l[i]` (out of range sometimes), or, when guarded,
    /// `(len(l) > 0 ? l[abs(i) % len(l)] : 0)`.
    ListAt(Box<IntExpr>, bool),
    Bin(Arith, Box<IntExpr>, Box<IntExpr>),
    /// `min(e1, e2)` (`true`) or `max(e1, e2)`.
    MinMax(bool, Box<IntExpr>, Box<IntExpr>),
    Abs(Box<IntExpr>),
    /// `f(e1, e2)`; printed `(e1 + e2)` when the program has no fun.
    Call(Box<IntExpr>, Box<IntExpr>),
    Cond(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
    /// `-(e)`: overflows on `i64::MIN`.
    Neg(Box<IntExpr>),
    /// The newest local of the proc (`tN`, declared by [`Stmt::Local`]); `0` before
    /// any. Lets a later block branch on a value an earlier one read (`int t0 = x;
    /// yield; if (t0 == 1) { .. }`).
    Recent,
    /// The variable of the innermost enclosing `for` (or the counter of the innermost
    /// `while`); `0` outside loops. Lets a loop's body test its iteration
    /// (`if (i0 > 5) { .. }`, a guard that is never true).
    LoopVar,
}

#[derive(Clone, Debug)]
pub enum BoolExpr {
    Lit(bool),
    /// The global `b`.
    Flag,
    Cmp(Cmp, IntExpr, IntExpr),
    Not(Box<BoolExpr>),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
    /// `has(m, k)`
    Has(IntExpr),
}

#[derive(Clone, Copy, Debug)]
pub enum ListOp {
    Take,
    Drop,
    Concat,
}

/// The upper bound of a `for`: `0..n`, or `0..min(var, n)`.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    Const(u8),
    Min(u8, u8),
}

impl Bound {
    /// The most iterations the loop may run.
    pub fn max(self) -> u64 {
        match self {
            Bound::Const(n) | Bound::Min(_, n) => u64::from(n),
        }
    }
}

#[derive(Clone, Debug)]
pub enum Stmt {
    /// `int tN = e;` (printed only at the top level of a proc body; elsewhere as an
    /// assignment to the chosen variable).
    Local(IntExpr),
    /// `v = e;`: the `n`-th assignable int variable (globals, parameter, locals; not
    /// loop variables or counters).
    Assign(u8, IntExpr),
    /// `b = c;`
    SetFlag(BoolExpr),
    /// `a[i] = e;`
    ArrayWrite(IntExpr, IntExpr),
    /// `m[k] = e;`
    MapWrite(IntExpr, IntExpr),
    /// `l = append(l, e);`
    Append(IntExpr),
    /// `l[i] = e;`, or, when guarded, `if (len(l) > 0) { l[abs(i) % len(l)] = e; }`.
    ListSet(IntExpr, IntExpr, bool),
    /// `l = take(l, e);`, `l = drop(l, e);` or `l = l ++ [e];`
    ListOp(ListOp, IntExpr),
    /// `l = tail(l);` (a runtime error on `[]`), or, when guarded,
    /// `if (len(l) > 0) { l = tail(l); }`.
    Tail(bool),
    /// `c[i] = append(c[i], e);`
    CellAppend(IntExpr, IntExpr),
    /// `if (len(c[i]) > 0) { c[i] = tail(c[i]); }`
    CellTail(IntExpr),
    If(BoolExpr, Vec<Stmt>, Vec<Stmt>),
    /// `for iN in 0..bound { .. }`
    For(Bound, Vec<Stmt>),
    /// `int nN = 0; while (nN < max && c) { nN = nN + 1; .. }`
    While(Option<BoolExpr>, u8, Vec<Stmt>),
    /// `if (c) { break; }` (only inside a loop).
    Break(BoolExpr),
    /// `if (c) { continue; }` (only inside a loop).
    Continue(BoolExpr),
    /// `if (c) { return; }`
    Return(BoolExpr),
    /// `assert(c, "AN");` or `assert(c);`
    Assert(BoolExpr, bool),
    Yield,
    Await(BoolExpr),
    /// `spawn Q(e);` of a proc declared after this one, chosen by index.
    Spawn(u8, IntExpr),
    /// `while (c) { }`: spins inside one block while `c` holds — a runtime error
    /// ("block did not terminate") in the orders where nothing made `c` false before.
    Spin(BoolExpr),
    /// `while (c) { yield; }`: spins across blocks while `c` holds, a cycle of the
    /// state space where nothing else runs (the cyclic programs of the stateful
    /// searches only: a stateless search stops at it).
    SpinYield(BoolExpr),
    /// `while (true) { await (g != 0); g = 0; yield; }` over the `n`-th variable: a
    /// server that takes, for ever, each request the others raise in g (cyclic
    /// programs only). It resets g rather than counting it down, so that its states
    /// stay few whatever g holds (a countdown from near `i64::MAX` is not).
    Serve(u8),
    /// `int cN = g; yield; while (true) { if (g == cN) { g = (cN + 1) % 3; break; }
    /// cN = g; yield; }` over the `n`-th variable: a compare-and-swap retry loop,
    /// whose failed attempt reads the value it retries with (cyclic programs only).
    CasRetry(u8),
    /// `while (true) { a = 1; yield; if (b == 0) { break; } a = 0; yield; } a = 0;`
    /// over the variables `a` and `b`: raise a flag, back off while the other's is
    /// raised; two processes with the flags swapped can livelock (cyclic programs
    /// only).
    Backoff(u8, u8),
}

/// A spawn of `init`. The proc is given by an offset from the proc after the one the
/// previous spawn named (from `p` for the first): offsets 0 spawn `p, q, r, s` in order.
#[derive(Clone, Debug)]
pub enum InitSpawn {
    /// `spawn P(arg);`
    One(u8, i64),
    /// `for k in 0..2 { spawn P(k); }`
    Loop(u8),
    /// `spawn P(arg);` of the proc the previous spawn named (`p` for the first): two
    /// instances of the same proc, written as two spawns.
    Again(i64),
}

#[derive(Clone, Debug)]
pub struct Proc {
    /// Takes `int v`.
    pub param: bool,
    pub body: Vec<Stmt>,
}

/// `fun f(int u, int w) -> int`, from a template.
#[derive(Clone, Copy, Debug)]
pub struct Fun {
    pub template: u8,
    pub k: i64,
}

/// The number of fun templates (see [`Fun::source`]).
pub const FUN_TEMPLATES: u8 = 5;

#[derive(Clone, Debug)]
pub struct Globals {
    pub param: i64,
    /// `x`, `y`, `z` (any value but `i64::MIN`, which has no literal).
    pub ints: [i64; 3],
    pub flag: bool,
    /// `a`; zero-filled when `None`.
    pub array: Option<[i64; 3]>,
    pub list: Vec<i64>,
}

/// A generated program. Its `Debug` is its source text.
#[derive(Clone)]
pub struct Program {
    pub globals: Globals,
    /// 1 to 4 procs, named `p`, `q`, `r`, `s`.
    pub procs: Vec<Proc>,
    pub fun: Option<Fun>,
    /// At least one after [`Program::normalize`].
    pub spawns: Vec<InitSpawn>,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.source())
    }
}

// ---------------------------------------------------------------------------
// Normalisation: resolve indices, and bound the number of processes and blocks.

fn walk_mut(body: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Vec<Stmt>)) {
    f(body);
    for s in body.iter_mut() {
        match s {
            Stmt::If(_, a, b) => {
                walk_mut(a, f);
                walk_mut(b, f);
            }
            Stmt::For(_, a) | Stmt::While(_, _, a) => walk_mut(a, f),
            _ => {}
        }
    }
}

/// Sum over the statements `count` selects of their multiplicity (product of the
/// iteration bounds of the enclosing loops; both branches of an `if` count).
fn weighted(body: &[Stmt], count: &dyn Fn(&Stmt) -> u64) -> u64 {
    body.iter()
        .map(|s| {
            count(s)
                + match s {
                    Stmt::If(_, a, b) => weighted(a, count) + weighted(b, count),
                    Stmt::For(bound, a) => bound.max() * weighted(a, count),
                    Stmt::While(_, n, a) => u64::from(*n) * weighted(a, count),
                    _ => 0,
                }
        })
        .sum()
}

fn is_block_end(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Yield
            | Stmt::Await(_)
            | Stmt::SpinYield(_)
            | Stmt::Serve(_)
            | Stmt::CasRetry(_)
            | Stmt::Backoff(..)
    )
}

/// Removes the last statement (in source order, innermost last) that `pred` selects.
fn remove_last_vec(body: &mut Vec<Stmt>, pred: &dyn Fn(&Stmt) -> bool) -> bool {
    for i in (0..body.len()).rev() {
        let inner = match &mut body[i] {
            Stmt::If(_, a, b) => remove_last_vec(b, pred) || remove_last_vec(a, pred),
            Stmt::For(_, a) | Stmt::While(_, _, a) => remove_last_vec(a, pred),
            _ => false,
        };
        if inner {
            return true;
        }
        if pred(&body[i]) {
            body.remove(i);
            return true;
        }
    }
    false
}

impl Program {
    /// Makes the program printable as is and small: resolves proc indices, drops
    /// spawns that would make more than [`MAX_PROCESSES`] processes, then drops
    /// `yield`/`await`s until the interleavings are at most [`MAX_INTERLEAVINGS`].
    /// Deterministic, so that a shrunk value normalises the same way every time.
    pub fn normalize(&mut self) {
        if self.procs.is_empty() {
            self.procs.push(Proc {
                param: false,
                body: Vec::new(),
            });
        }
        self.procs.truncate(PROC_NAMES.len());
        let n = self.procs.len();
        // Spawns of procs: only of a proc declared later (index resolved here).
        for j in 0..n {
            let later = n - j - 1;
            walk_mut(&mut self.procs[j].body, &mut |body| {
                body.retain(|s| !matches!(s, Stmt::Spawn(..)) || later > 0);
                for s in body.iter_mut() {
                    if let Stmt::Spawn(c, _) = s {
                        if usize::from(*c) <= j || usize::from(*c) >= n {
                            *c = (j + 1 + usize::from(*c) % later) as u8;
                        }
                    }
                }
            });
        }
        if self.spawns.is_empty() {
            self.spawns.push(InitSpawn::One(0, 0));
        }
        while self.instances().len() > MAX_PROCESSES {
            let last = self.spawns.len() - 1;
            if self.spawns.len() > 1 {
                self.spawns.pop();
            } else if let InitSpawn::Loop(p) = self.spawns[last] {
                self.spawns[last] = InitSpawn::One(p, 0);
            } else {
                // One process at the root: drop the last spawn statement of the
                // earliest proc that has one.
                let j = (0..n)
                    .find(|&j| {
                        weighted(&self.procs[j].body, &|s| {
                            matches!(s, Stmt::Spawn(..)) as u64
                        }) > 0
                    })
                    .expect("more than one process needs a spawn statement");
                remove_last_vec(&mut self.procs[j].body, &|s| matches!(s, Stmt::Spawn(..)));
            }
        }
        loop {
            let instances = self.instances();
            let blocks: Vec<u64> = instances.iter().map(|&j| self.blocks(j)).collect();
            if multinomial(&blocks) <= MAX_INTERLEAVINGS {
                break;
            }
            // Drop a block end of the proc whose processes run the most blocks.
            let mut per_proc = vec![0u64; n];
            for (&j, &b) in instances.iter().zip(&blocks) {
                per_proc[j] += b;
            }
            let j = (0..n)
                .filter(|&j| self.blocks(j) > 1)
                .max_by_key(|&j| (per_proc[j], std::cmp::Reverse(j)))
                .expect("some process has more than one block");
            remove_last_vec(&mut self.procs[j].body, &is_block_end);
        }
    }

    /// The proc of every process the program may create (an upper bound: every spawn
    /// statement counted with its loop multiplicity, both branches of `if`s).
    pub fn instances(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo: Vec<usize> = Vec::new();
        for (s, j) in self.spawns.iter().zip(self.init_procs()) {
            match s {
                InitSpawn::One(..) | InitSpawn::Again(_) => todo.push(j),
                InitSpawn::Loop(_) => todo.extend([j; 2]),
            }
        }
        while let Some(j) = todo.pop() {
            out.push(j);
            if out.len() > 64 {
                break;
            }
            for c in j + 1..self.procs.len() {
                let k = weighted(&self.procs[j].body, &|s| {
                    matches!(s, Stmt::Spawn(x, _) if usize::from(*x) == c) as u64
                });
                todo.extend(std::iter::repeat_n(c, k as usize));
            }
        }
        out
    }

    /// The proc each spawn of `init` names.
    pub fn init_procs(&self) -> Vec<usize> {
        let n = self.procs.len().max(1);
        let mut next = 0;
        self.spawns
            .iter()
            .map(|s| {
                let j = match *s {
                    InitSpawn::One(o, _) | InitSpawn::Loop(o) => (next + usize::from(o)) % n,
                    InitSpawn::Again(_) => next.max(1) - 1,
                };
                next = j + 1;
                j
            })
            .collect()
    }

    /// How many processes of each proc `init` spawns (exactly: `init` has no branches).
    pub fn init_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.procs.len()];
        for (s, j) in self.spawns.iter().zip(self.init_procs()) {
            counts[j] += if matches!(s, InitSpawn::Loop(_)) {
                2
            } else {
                1
            };
        }
        counts
    }

    /// The most blocks a process of proc `j` may run.
    pub fn blocks(&self, j: usize) -> u64 {
        1 + weighted(&self.procs[j].body, &|s| is_block_end(s) as u64)
    }
}

/// `(Σ k)! / Π k!`, in floating point.
fn multinomial(ks: &[u64]) -> f64 {
    let mut total = 0u64;
    let mut result = 1f64;
    for &k in ks {
        for i in 1..=k {
            total += 1;
            result = result * total as f64 / i as f64;
        }
    }
    result
}

// ---------------------------------------------------------------------------
// Printing.

impl Fun {
    /// The templates: a guarded difference with a division, a loop, recursion, a
    /// missing `return` on some paths, a list built and read.
    pub fn source(&self) -> String {
        let k = lit(self.k);
        match self.template % FUN_TEMPLATES {
            0 => format!(
                "fun f(int u, int w) -> int {{\n    if (u > w) {{\n        return u - w;\n    }}\n    return w / (u + {k});\n}}\n"
            ),
            1 => format!(
                "fun f(int u, int w) -> int {{\n    int acc = {k};\n    for j in 0..2 {{\n        acc = acc + u * w;\n    }}\n    return acc;\n}}\n"
            ),
            2 => format!(
                "fun f(int u, int w) -> int {{\n    if (u <= 0) {{\n        return w;\n    }}\n    return f(u - 1, w + {k});\n}}\n"
            ),
            3 => format!(
                "fun f(int u, int w) -> int {{\n    if (u != w) {{\n        return u % (w - {k});\n    }}\n}}\n"
            ),
            _ => format!(
                "fun f(int u, int w) -> int {{\n    list acc = [u, w];\n    int j = 0;\n    while (j < 2 && len(acc) > 0) {{\n        acc = tail(acc);\n        j = j + 1;\n    }}\n    return len(acc) + {k};\n}}\n"
            ),
        }
    }
}

fn lit(n: i64) -> String {
    if n < 0 {
        format!("({n})")
    } else {
        n.to_string()
    }
}

fn plain(n: i64) -> String {
    n.to_string()
}

#[derive(Clone)]
struct Var {
    name: String,
    assignable: bool,
}

struct Printer<'a> {
    program: &'a Program,
    out: String,
    /// Readable int variables in scope, innermost last.
    vars: Vec<Var>,
    /// The variables of the enclosing loops, innermost last.
    loop_vars: Vec<String>,
    locals: usize,
    loops: usize,
    counters: usize,
    asserts: usize,
}

impl Program {
    /// The program's source text.
    pub fn source(&self) -> String {
        let g = &self.globals;
        let mut out = String::new();
        let _ = writeln!(out, "param K = {};", plain(g.param));
        for (name, v) in ["x", "y", "z"].iter().zip(g.ints) {
            let _ = writeln!(out, "global int {name} = {};", plain(v));
        }
        let _ = writeln!(out, "global bool b = {};", g.flag);
        match g.array {
            Some(a) => {
                let _ = writeln!(out, "global int[3] a = [{}, {}, {}];", a[0], a[1], a[2]);
            }
            None => out.push_str("global int[3] a;\n"),
        }
        out.push_str("global map m;\n");
        let list: Vec<String> = g.list.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(out, "global list l = [{}];", list.join(", "));
        out.push_str("global list[2] c;\n");
        if let Some(fun) = &self.fun {
            out.push('\n');
            out.push_str(&fun.source());
        }
        // Only procs some process may run (the others are dead code).
        let live = self.instances();
        for (j, proc) in self.procs.iter().enumerate() {
            if !live.contains(&j) {
                continue;
            }
            let mut p = Printer {
                program: self,
                out: String::new(),
                vars: ["x", "y", "z"]
                    .iter()
                    .map(|n| Var {
                        name: n.to_string(),
                        assignable: true,
                    })
                    .collect(),
                loop_vars: Vec::new(),
                locals: 0,
                loops: 0,
                counters: 0,
                asserts: 0,
            };
            let name = PROC_NAMES[j];
            if proc.param {
                p.vars.push(Var {
                    name: "v".into(),
                    assignable: true,
                });
                let _ = writeln!(p.out, "\nproc {name}(int v) {{");
            } else {
                let _ = writeln!(p.out, "\nproc {name}() {{");
            }
            p.body(&proc.body, 1, true, false);
            p.out.push_str("}\n");
            out.push_str(&p.out);
        }
        out.push_str("\ninit {\n");
        for (s, j) in self.spawns.iter().zip(self.init_procs()) {
            match *s {
                InitSpawn::One(_, arg) | InitSpawn::Again(arg) => {
                    let args = if self.procs[j].param {
                        lit(arg)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(out, "    spawn {}({args});", PROC_NAMES[j]);
                }
                InitSpawn::Loop(_) => {
                    let args = if self.procs[j].param { "k" } else { "" };
                    let _ = writeln!(
                        out,
                        "    for k in 0..2 {{\n        spawn {}({args});\n    }}",
                        PROC_NAMES[j]
                    );
                }
            }
        }
        out.push_str("}\n");
        out
    }
}

impl Printer<'_> {
    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn var(&self, n: u8) -> &str {
        &self.vars[usize::from(n) % self.vars.len()].name
    }

    fn assignable(&self, n: u8) -> String {
        let names: Vec<&Var> = self.vars.iter().filter(|v| v.assignable).collect();
        names[usize::from(n) % names.len()].name.clone()
    }

    /// A `{ .. }` body: its own scope.
    fn body(&mut self, stmts: &[Stmt], indent: usize, top: bool, in_loop: bool) {
        let mark = self.vars.len();
        for s in stmts {
            self.stmt(s, indent, top, in_loop);
        }
        self.vars.truncate(mark);
    }

    fn block(&mut self, head: &str, stmts: &[Stmt], indent: usize, in_loop: bool) {
        self.line(indent, &format!("{head} {{"));
        self.body(stmts, indent + 1, false, in_loop);
        self.line(indent, "}");
    }

    fn stmt(&mut self, s: &Stmt, indent: usize, top: bool, in_loop: bool) {
        match s {
            Stmt::Local(e) => {
                let e = self.int(e);
                if top {
                    let name = format!("t{}", self.locals);
                    self.locals += 1;
                    self.line(indent, &format!("int {name} = {e};"));
                    self.vars.push(Var {
                        name,
                        assignable: true,
                    });
                } else {
                    let target = self.assignable(self.locals as u8);
                    self.line(indent, &format!("{target} = {e};"));
                }
            }
            Stmt::Assign(v, e) => {
                let target = self.assignable(*v);
                let e = self.int(e);
                self.line(indent, &format!("{target} = {e};"));
            }
            Stmt::SetFlag(c) => {
                let c = self.bool(c);
                self.line(indent, &format!("b = {c};"));
            }
            Stmt::ArrayWrite(i, e) => {
                let (i, e) = (self.int(i), self.int(e));
                self.line(indent, &format!("a[{i}] = {e};"));
            }
            Stmt::MapWrite(k, e) => {
                let (k, e) = (self.int(k), self.int(e));
                self.line(indent, &format!("m[{k}] = {e};"));
            }
            Stmt::Append(e) => {
                let e = self.int(e);
                self.line(indent, &format!("l = append(l, {e});"));
            }
            Stmt::ListSet(i, e, guarded) => {
                let (i, e) = (self.int(i), self.int(e));
                if *guarded {
                    self.line(indent, "if (len(l) > 0) {");
                    self.line(indent + 1, &format!("l[abs({i}) % len(l)] = {e};"));
                    self.line(indent, "}");
                } else {
                    self.line(indent, &format!("l[{i}] = {e};"));
                }
            }
            Stmt::ListOp(op, e) => {
                let e = self.int(e);
                let text = match op {
                    ListOp::Take => format!("l = take(l, {e});"),
                    ListOp::Drop => format!("l = drop(l, {e});"),
                    ListOp::Concat => format!("l = l ++ [{e}];"),
                };
                self.line(indent, &text);
            }
            Stmt::CellAppend(i, e) => {
                let (i, e) = (self.int(i), self.int(e));
                self.line(indent, &format!("c[{i}] = append(c[{i}], {e});"));
            }
            Stmt::CellTail(i) => {
                let i = self.int(i);
                self.line(indent, &format!("if (len(c[{i}]) > 0) {{"));
                self.line(indent + 1, &format!("c[{i}] = tail(c[{i}]);"));
                self.line(indent, "}");
            }
            Stmt::Tail(false) => self.line(indent, "l = tail(l);"),
            Stmt::Tail(true) => {
                self.line(indent, "if (len(l) > 0) {");
                self.line(indent + 1, "l = tail(l);");
                self.line(indent, "}");
            }
            Stmt::If(c, then, otherwise) => {
                let c = self.bool(c);
                self.line(indent, &format!("if ({c}) {{"));
                self.body(then, indent + 1, false, in_loop);
                if otherwise.is_empty() {
                    self.line(indent, "}");
                } else {
                    self.line(indent, "} else {");
                    self.body(otherwise, indent + 1, false, in_loop);
                    self.line(indent, "}");
                }
            }
            Stmt::For(bound, body) => {
                let i = format!("i{}", self.loops);
                self.loops += 1;
                let hi = match *bound {
                    Bound::Const(n) => n.to_string(),
                    Bound::Min(v, n) => format!("min({}, {n})", self.var(v)),
                };
                let mark = self.vars.len();
                self.vars.push(Var {
                    name: i.clone(),
                    assignable: false,
                });
                self.loop_vars.push(i.clone());
                self.block(&format!("for {i} in 0..{hi}"), body, indent, true);
                self.loop_vars.pop();
                self.vars.truncate(mark);
            }
            Stmt::While(c, max, body) => {
                let n = format!("n{}", self.counters);
                self.counters += 1;
                self.line(indent, &format!("int {n} = 0;"));
                let cond = match c {
                    Some(c) => format!("{n} < {max} && ({})", self.bool(c)),
                    None => format!("{n} < {max}"),
                };
                // The counter is readable (not assignable) from here to the end of the
                // enclosing scope.
                self.vars.push(Var {
                    name: n.clone(),
                    assignable: false,
                });
                self.line(indent, &format!("while ({cond}) {{"));
                self.line(indent + 1, &format!("{n} = {n} + 1;"));
                self.loop_vars.push(n);
                self.body(body, indent + 1, false, true);
                self.loop_vars.pop();
                self.line(indent, "}");
            }
            Stmt::Spin(c) => {
                let c = self.bool(c);
                self.line(indent, &format!("while ({c}) {{ }}"));
            }
            Stmt::SpinYield(c) => {
                let c = self.bool(c);
                self.line(indent, &format!("while ({c}) {{ yield; }}"));
            }
            Stmt::Serve(g) => {
                let g = self.var(*g).to_string();
                self.line(
                    indent,
                    &format!("while (true) {{ await ({g} != 0); {g} = 0; yield; }}"),
                );
            }
            Stmt::CasRetry(g) => {
                let g = self.var(*g).to_string();
                let c = format!("c{}", self.counters);
                self.counters += 1;
                self.line(indent, &format!("int {c} = {g};"));
                self.line(indent, "yield;");
                self.line(indent, "while (true) {");
                self.line(
                    indent + 1,
                    &format!("if ({g} == {c}) {{ {g} = ({c} + 1) % 3; break; }}"),
                );
                self.line(indent + 1, &format!("{c} = {g};"));
                self.line(indent + 1, "yield;");
                self.line(indent, "}");
            }
            Stmt::Backoff(a, b) => {
                let (a, b) = (self.var(*a).to_string(), self.var(*b).to_string());
                self.line(indent, "while (true) {");
                self.line(indent + 1, &format!("{a} = 1;"));
                self.line(indent + 1, "yield;");
                self.line(indent + 1, &format!("if ({b} == 0) {{ break; }}"));
                self.line(indent + 1, &format!("{a} = 0;"));
                self.line(indent + 1, "yield;");
                self.line(indent, "}");
                self.line(indent, &format!("{a} = 0;"));
            }
            Stmt::Break(c) | Stmt::Continue(c) if in_loop => {
                let word = if matches!(s, Stmt::Break(_)) {
                    "break"
                } else {
                    "continue"
                };
                let c = self.bool(c);
                self.line(indent, &format!("if ({c}) {{"));
                self.line(indent + 1, &format!("{word};"));
                self.line(indent, "}");
            }
            Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::Return(c) => {
                let c = self.bool(c);
                self.line(indent, &format!("if ({c}) {{"));
                self.line(indent + 1, "return;");
                self.line(indent, "}");
            }
            Stmt::Assert(c, message) => {
                let c = self.bool(c);
                if *message {
                    let k = self.asserts;
                    self.asserts += 1;
                    self.line(indent, &format!("assert({c}, \"A{k}\");"));
                } else {
                    self.line(indent, &format!("assert({c});"));
                }
            }
            Stmt::Yield => self.line(indent, "yield;"),
            Stmt::Await(c) => {
                let c = self.bool(c);
                self.line(indent, &format!("await ({c});"));
            }
            Stmt::Spawn(c, arg) => {
                let c = usize::from(*c) % self.program.procs.len();
                let args = if self.program.procs[c].param {
                    self.int(arg)
                } else {
                    String::new()
                };
                self.line(indent, &format!("spawn {}({args});", PROC_NAMES[c]));
            }
        }
    }

    fn int(&self, e: &IntExpr) -> String {
        match e {
            IntExpr::Const(n) => lit(*n),
            IntExpr::Param => "K".into(),
            IntExpr::Var(v) => self.var(*v).to_string(),
            IntExpr::Array(i) => format!("a[{}]", self.int(i)),
            IntExpr::Map(k) => format!("m[{}]", self.int(k)),
            IntExpr::Head => "head(l)".into(),
            IntExpr::Len => "len(l)".into(),
            IntExpr::Cell(i, head) => {
                let f = if *head { "head" } else { "len" };
                format!("{f}(c[{}])", self.int(i))
            }
            IntExpr::ListAt(i, false) => format!("l[{}]", self.int(i)),
            IntExpr::ListAt(i, true) => {
                format!("(len(l) > 0 ? l[abs({}) % len(l)] : 0)", self.int(i))
            }
            IntExpr::Bin(op, a, b) => {
                let op = match op {
                    Arith::Add => "+",
                    Arith::Sub => "-",
                    Arith::Mul => "*",
                    Arith::Div => "/",
                    Arith::Mod => "%",
                };
                format!("({} {op} {})", self.int(a), self.int(b))
            }
            IntExpr::MinMax(min, a, b) => {
                let f = if *min { "min" } else { "max" };
                format!("{f}({}, {})", self.int(a), self.int(b))
            }
            IntExpr::Abs(a) => format!("abs({})", self.int(a)),
            IntExpr::Call(a, b) => {
                if self.program.fun.is_some() {
                    format!("f({}, {})", self.int(a), self.int(b))
                } else {
                    format!("({} + {})", self.int(a), self.int(b))
                }
            }
            IntExpr::Cond(c, a, b) => {
                format!("({} ? {} : {})", self.bool(c), self.int(a), self.int(b))
            }
            IntExpr::Neg(a) => format!("(-{})", self.int(a)),
            IntExpr::LoopVar => self.loop_vars.last().cloned().unwrap_or_else(|| "0".into()),
            IntExpr::Recent => self
                .vars
                .iter()
                .rev()
                .find(|v| v.name.starts_with('t'))
                .map_or_else(|| "0".into(), |v| v.name.clone()),
        }
    }

    fn bool(&self, e: &BoolExpr) -> String {
        match e {
            BoolExpr::Lit(v) => v.to_string(),
            BoolExpr::Flag => "b".into(),
            BoolExpr::Cmp(op, a, b) => {
                let op = match op {
                    Cmp::Eq => "==",
                    Cmp::Ne => "!=",
                    Cmp::Lt => "<",
                    Cmp::Le => "<=",
                    Cmp::Gt => ">",
                    Cmp::Ge => ">=",
                };
                format!("{} {op} {}", self.int(a), self.int(b))
            }
            BoolExpr::Not(a) => format!("!({})", self.bool(a)),
            BoolExpr::And(a, b) => format!("({}) && ({})", self.bool(a), self.bool(b)),
            BoolExpr::Or(a, b) => format!("({}) || ({})", self.bool(a), self.bool(b)),
            BoolExpr::Has(k) => format!("has(m, {})", self.int(k)),
        }
    }
}
