//! The interpreter: the concrete semantics of the language.
//!
//! [`Machine::run_block`] runs one atomic block of one process on a state, in place:
//! global writes go through an [`UndoLog`] so that the caller can step back, and the
//! [`Effects`] record exactly which globals were read and written (array and map
//! elements individually, the `await` guard's reads included) and which processes
//! were spawned. A runtime error or a failed assertion is a [`Fault`] value, never a
//! panic.

use crate::ast::{BinOp, Span, UnOp};
use crate::ir::{
    BlockId, Builtin, Code, Expr, ExprKind, GlobalId, InstrKind, Place, ProcId, Program,
    MAX_LIST_LEN,
};
use crate::memory::{Loc, Memory, UndoLog};
use crate::value::Value;
use std::fmt;
use std::sync::Arc;

/// Bounds that turn a run-away block into a runtime error.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions one block may execute (docs/language.md: default 1,000,000).
    pub max_steps: u64,
    /// Nested `fun` calls.
    pub max_call_depth: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000,
            max_call_depth: 1_000,
        }
    }
}

/// What went wrong at run time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    Overflow(&'static str),
    DivisionByZero,
    IndexOutOfRange { index: i64, len: usize },
    EmptyList(&'static str),
    ListTooLong(&'static str),
    StepLimit(u64),
    CallDepth(u32),
    NoReturn(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Overflow(op) => write!(f, "integer overflow in `{op}`"),
            ErrorKind::DivisionByZero => write!(f, "division by zero"),
            ErrorKind::IndexOutOfRange { index, len } => {
                write!(f, "index {index} out of range for length {len}")
            }
            ErrorKind::EmptyList(op) => write!(f, "`{op}` of an empty list"),
            ErrorKind::ListTooLong(op) => {
                write!(f, "`{op}` makes a list longer than {MAX_LIST_LEN} elements")
            }
            ErrorKind::StepLimit(n) => write!(f, "block did not terminate (more than {n} steps)"),
            ErrorKind::CallDepth(n) => write!(f, "fun calls nested more than {n} deep"),
            ErrorKind::NoReturn(name) => write!(f, "fun `{name}` ended without `return`"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeError {
    pub error: ErrorKind,
    pub span: Span,
}

/// Why a block stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    Assert { message: Option<String>, span: Span },
    Runtime(RuntimeError),
}

impl Fault {
    pub fn span(&self) -> Span {
        match self {
            Fault::Assert { span, .. } => *span,
            Fault::Runtime(e) => e.span,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Assert {
                message: Some(m), ..
            } => write!(f, "assertion failed: {m}"),
            Fault::Assert { message: None, .. } => write!(f, "assertion failed"),
            Fault::Runtime(e) => write!(f, "{}", e.error),
        }
    }
}

impl From<RuntimeError> for Fault {
    fn from(e: RuntimeError) -> Self {
        Fault::Runtime(e)
    }
}

/// Where a process goes after a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    Block(BlockId),
    End,
}

/// What one block run did besides changing the state.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    /// Globals read, in order of access (may repeat; see [`Effects::normalize`]).
    pub reads: Vec<Loc>,
    pub writes: Vec<Loc>,
    /// Spawned processes in spawn order: the proc and its arguments.
    pub spawns: Vec<(ProcId, Vec<Value>)>,
}

impl Effects {
    pub fn clear(&mut self) {
        self.reads.clear();
        self.writes.clear();
        self.spawns.clear();
    }

    /// Sorts and deduplicates the read and write sets.
    pub fn normalize(&mut self) {
        self.reads.sort_unstable();
        self.reads.dedup();
        self.writes.sort_unstable();
        self.writes.dedup();
    }
}

/// Runs blocks of one program.
#[derive(Clone, Copy)]
pub struct Machine<'p> {
    pub program: &'p Program,
    pub limits: Limits,
}

/// A fresh frame for `code` with the given parameters in its first slots.
pub fn frame(code: &Code, args: Vec<Value>) -> Vec<Value> {
    let mut locals = args;
    locals.extend(
        code.locals[locals.len()..]
            .iter()
            .map(|l| Value::zero(l.ty)),
    );
    locals
}

impl<'p> Machine<'p> {
    pub fn new(program: &'p Program, limits: Limits) -> Self {
        Machine { program, limits }
    }

    /// Runs `init` on the memory; returns the processes it spawned, in order.
    pub fn run_init(&self, mem: &mut Memory) -> Result<Vec<(ProcId, Vec<Value>)>, Fault> {
        let mut undo = UndoLog::default();
        let mut fx = Effects::default();
        let code = &self.program.init;
        let mut locals = frame(code, Vec::new());
        Run::new(self, &mut fx, true).exec(
            code,
            0,
            &mut Mem::ReadWrite(mem, &mut undo),
            &mut locals,
        )?;
        Ok(fx.spawns)
    }

    /// The initial locals of a process running `proc` with these arguments.
    pub fn spawn_frame(&self, proc: ProcId, args: Vec<Value>) -> Vec<Value> {
        frame(&self.program.procs[proc as usize].code, args)
    }

    /// Whether `block` may run: its `await` guard holds (reads are not recorded).
    pub fn enabled(&self, block: BlockId, mem: &Memory, locals: &[Value]) -> Result<bool, Fault> {
        let Some(guard) = &self.program.blocks[block as usize].guard else {
            return Ok(true);
        };
        let mut fx = Effects::default();
        Ok(Run::new(self, &mut fx, false)
            .eval(guard, mem, locals)?
            .bool())
    }

    /// The globals `block`'s guard reads in this state (sorted; empty without a guard).
    pub fn guard_reads(&self, block: BlockId, mem: &Memory, locals: &[Value]) -> Vec<Loc> {
        let mut fx = Effects::default();
        if let Some(guard) = &self.program.blocks[block as usize].guard {
            // A guard that fails to evaluate still read what it read before failing.
            let _ = Run::new(self, &mut fx, true).eval(guard, mem, locals);
        }
        fx.normalize();
        fx.reads
    }

    /// Evaluates an expression that reads no global (constants, locals, `fun` calls):
    /// `mem` is never read. The known values of [`crate::analysis::may_touch`].
    pub fn eval_local(&self, e: &Expr, mem: &Memory, locals: &[Value]) -> Result<Value, Fault> {
        let mut fx = Effects::default();
        Run::new(self, &mut fx, false).eval(e, mem, locals)
    }

    /// Runs one block of a process whose next block it is and whose guard holds.
    pub fn run_block(
        &self,
        block: BlockId,
        mem: &mut Memory,
        locals: &mut [Value],
        undo: &mut UndoLog,
        fx: &mut Effects,
    ) -> Result<Next, Fault> {
        let b = &self.program.blocks[block as usize];
        let code = &self.program.procs[b.proc as usize].code;
        let mut run = Run::new(self, fx, true);
        // The guard is evaluated again so that its reads belong to this event.
        let guard = match &b.guard {
            Some(guard) => run.eval(guard, mem, locals).map(drop),
            None => Ok(()),
        };
        let exit =
            guard.and_then(|()| run.exec(code, b.pc, &mut Mem::ReadWrite(mem, undo), locals));
        // Sorted on every path, failures included: footprints are compared as sorted sets.
        fx.normalize();
        match exit? {
            Exit::Block(next) => Ok(Next::Block(next)),
            Exit::End => Ok(Next::End),
            Exit::Value(_) => unreachable!("checker refuses `return e;` in a proc"),
        }
    }
}

/// Evaluates a constant expression (no globals, no calls): params, array sizes, initialisers.
pub fn eval_const(e: &Expr) -> Result<Value, RuntimeError> {
    let program = Program::default();
    let machine = Machine::new(&program, Limits::default());
    let mem = Memory::initial(&program);
    match machine.eval_local(e, &mem, &[]) {
        Ok(v) => Ok(v),
        Err(Fault::Runtime(e)) => Ok(Err(e)?),
        Err(Fault::Assert { .. }) => {
            unreachable!("constants contain no calls, hence no assertions")
        }
    }
}

/// Global memory as running code sees it: funs and guards only read it.
enum Mem<'a> {
    ReadWrite(&'a mut Memory, &'a mut UndoLog),
    ReadOnly(&'a Memory),
}

impl Mem<'_> {
    fn view(&self) -> &Memory {
        match self {
            Mem::ReadWrite(m, _) => m,
            Mem::ReadOnly(m) => m,
        }
    }

    fn writable(&mut self) -> (&mut Memory, &mut UndoLog) {
        match self {
            Mem::ReadWrite(m, undo) => (m, undo),
            Mem::ReadOnly(_) => unreachable!("the checker lets no fun write a global"),
        }
    }
}

enum Exit {
    Block(BlockId),
    End,
    Value(Value),
}

/// One block run in progress.
struct Run<'m, 'p> {
    machine: &'m Machine<'p>,
    fx: &'m mut Effects,
    /// Record reads and writes (off when only testing a guard).
    track: bool,
    steps: u64,
    depth: u32,
    /// The call depth at which the current thread's stack took over.
    stack_base: u32,
}

fn err<T>(error: ErrorKind, span: Span) -> Result<T, Fault> {
    Err(Fault::Runtime(RuntimeError { error, span }))
}

fn checked_index(index: i64, len: usize, span: Span) -> Result<usize, Fault> {
    if index >= 0 && (index as u64) < len as u64 {
        Ok(index as usize)
    } else {
        err(ErrorKind::IndexOutOfRange { index, len }, span)
    }
}

impl<'m, 'p> Run<'m, 'p> {
    fn new(machine: &'m Machine<'p>, fx: &'m mut Effects, track: bool) -> Self {
        Run {
            machine,
            fx,
            track,
            steps: 0,
            depth: 0,
            stack_base: 0,
        }
    }

    fn read(&mut self, loc: Loc) {
        if self.track {
            self.fx.reads.push(loc);
        }
    }

    fn program(&self) -> &'p Program {
        self.machine.program
    }

    fn exec(
        &mut self,
        code: &Code,
        mut pc: u32,
        mem: &mut Mem<'_>,
        locals: &mut [Value],
    ) -> Result<Exit, Fault> {
        loop {
            self.steps += 1;
            let instr = &code.instrs[pc as usize];
            if self.steps > self.machine.limits.max_steps {
                return err(
                    ErrorKind::StepLimit(self.machine.limits.max_steps),
                    instr.span,
                );
            }
            pc += 1;
            // As in `eval`, arms that need temporaries are functions of their own.
            match &instr.kind {
                InstrKind::Assign(place, e) => self.assign(place, e, mem, locals)?,
                InstrKind::Jump(t) => pc = *t,
                InstrKind::JumpUnless(c, t) => {
                    if !self.eval_bool(c, mem.view(), locals)? {
                        pc = *t;
                    }
                }
                InstrKind::Spawn(proc, args) => self.spawn(*proc, args, mem.view(), locals)?,
                InstrKind::Assert(c, message) => {
                    if !self.eval_bool(c, mem.view(), locals)? {
                        return Err(assert_failed(message, instr.span));
                    }
                }
                InstrKind::Await(b) | InstrKind::Yield(b) => return Ok(Exit::Block(*b)),
                InstrKind::Return(None) => return Ok(Exit::End),
                InstrKind::Return(Some(e)) => {
                    return self.eval(e, mem.view(), locals).map(Exit::Value)
                }
            }
        }
    }

    fn spawn(
        &mut self,
        proc: ProcId,
        args: &[Expr],
        mem: &Memory,
        locals: &[Value],
    ) -> Result<(), Fault> {
        let args = self.eval_all(args, mem, locals)?;
        self.fx.spawns.push((proc, args));
        Ok(())
    }

    fn assign(
        &mut self,
        place: &Place,
        e: &Expr,
        mem: &mut Mem<'_>,
        locals: &mut [Value],
    ) -> Result<(), Fault> {
        let v = self.eval(e, mem.view(), locals)?;
        match place {
            Place::Local(l) => locals[*l as usize] = v,
            Place::Global(g) => {
                self.fx.writes.push(Loc::whole(*g));
                let (mem, undo) = mem.writable();
                mem.set_scalar(*g, v, undo);
            }
            Place::ArrayElem(g, i) => {
                let index = self.eval(i, mem.view(), locals)?.int();
                let len = self.array_len(*g);
                let at = checked_index(index, len, i.span)?;
                self.fx.writes.push(Loc {
                    global: *g,
                    elem: index,
                });
                let (mem, undo) = mem.writable();
                mem.set_element(*g, at, v, undo);
            }
            Place::MapElem(g, k) => {
                let key = self.eval(k, mem.view(), locals)?.int();
                self.fx.writes.push(Loc {
                    global: *g,
                    elem: key,
                });
                let (mem, undo) = mem.writable();
                mem.set_map(*g, key, v.int(), undo);
            }
            Place::GlobalListElem(g, i) => {
                let index = self.eval(i, mem.view(), locals)?.int();
                self.read(Loc::whole(*g));
                let list = with_element(mem.view().scalar(*g).list(), index, v.int(), i.span)?;
                self.fx.writes.push(Loc::whole(*g));
                let (mem, undo) = mem.writable();
                mem.set_scalar(*g, list, undo);
            }
            Place::LocalListElem(l, i) => {
                let index = self.eval(i, mem.view(), locals)?.int();
                let list = with_element(locals[*l as usize].list(), index, v.int(), i.span)?;
                locals[*l as usize] = list;
            }
        }
        Ok(())
    }

    fn array_len(&self, g: GlobalId) -> usize {
        match self.program().globals[g as usize].kind {
            crate::ir::GlobalKind::Array { len, .. } => len,
            _ => unreachable!("checker resolves indexing of non-arrays elsewhere"),
        }
    }

    fn eval_all(
        &mut self,
        es: &[Expr],
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Vec<Value>, Fault> {
        let mut values = Vec::with_capacity(es.len());
        for e in es {
            values.push(self.eval(e, mem, locals)?);
        }
        Ok(values)
    }

    fn eval_int(&mut self, e: &Expr, mem: &Memory, locals: &[Value]) -> Result<i64, Fault> {
        Ok(self.eval(e, mem, locals)?.int())
    }

    fn eval_bool(&mut self, e: &Expr, mem: &Memory, locals: &[Value]) -> Result<bool, Fault> {
        Ok(self.eval(e, mem, locals)?.bool())
    }

    // `eval` recurses through fun calls, so its frame is kept small: every arm that
    // needs temporaries is a function of its own (unoptimised builds give each
    // temporary of a function its own stack slot).
    fn eval(&mut self, e: &Expr, mem: &Memory, locals: &[Value]) -> Result<Value, Fault> {
        match &e.kind {
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Local(l) => Ok(locals[*l as usize].clone()),
            ExprKind::Global(g) => {
                self.read(Loc::whole(*g));
                Ok(mem.scalar(*g).clone())
            }
            ExprKind::ArrayGet(g, i) => self.array_get(*g, i, mem, locals),
            ExprKind::MapGet(g, k) => self.map_get(*g, k, false, mem, locals),
            ExprKind::MapHas(g, k) => self.map_get(*g, k, true, mem, locals),
            ExprKind::ListGet(l, i) => self.list_get(l, i, e.span, mem, locals),
            ExprKind::ListLit(items) => self.list_lit(items, mem, locals),
            ExprKind::Unary(op, a) => self.unary(*op, a, e.span, mem, locals),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span, mem, locals),
            ExprKind::Cond(c, a, b) => {
                let branch = if self.eval_bool(c, mem, locals)? {
                    a
                } else {
                    b
                };
                self.eval(branch, mem, locals)
            }
            ExprKind::Builtin(b, args) => self.builtin(*b, args, e.span, mem, locals),
            ExprKind::Call(f, args) => {
                let args = self.eval_all(args, mem, locals)?;
                self.call(*f, args, mem, e.span)
            }
        }
    }

    fn array_get(
        &mut self,
        g: GlobalId,
        i: &Expr,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        let index = self.eval_int(i, mem, locals)?;
        let at = checked_index(index, self.array_len(g), i.span)?;
        self.read(Loc {
            global: g,
            elem: index,
        });
        Ok(mem.element(g, at).clone())
    }

    fn map_get(
        &mut self,
        g: GlobalId,
        k: &Expr,
        has: bool,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        let key = self.eval_int(k, mem, locals)?;
        self.read(Loc {
            global: g,
            elem: key,
        });
        let value = mem.map(g).get(&key).copied();
        Ok(if has {
            Value::Bool(value.is_some())
        } else {
            Value::Int(value.unwrap_or(0))
        })
    }

    fn list_get(
        &mut self,
        l: &Expr,
        i: &Expr,
        span: Span,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        let list = self.eval(l, mem, locals)?;
        let index = self.eval_int(i, mem, locals)?;
        let list = list.list();
        Ok(Value::Int(list[checked_index(index, list.len(), span)?]))
    }

    fn list_lit(&mut self, items: &[Expr], mem: &Memory, locals: &[Value]) -> Result<Value, Fault> {
        let mut values = Vec::with_capacity(items.len());
        for i in items {
            values.push(self.eval_int(i, mem, locals)?);
        }
        Ok(Value::List(Arc::from(values)))
    }

    fn unary(
        &mut self,
        op: UnOp,
        a: &Expr,
        span: Span,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        match op {
            UnOp::Not => Ok(Value::Bool(!self.eval_bool(a, mem, locals)?)),
            UnOp::Neg => match self.eval_int(a, mem, locals)?.checked_neg() {
                Some(v) => Ok(Value::Int(v)),
                None => err(ErrorKind::Overflow("-"), span),
            },
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        match op {
            BinOp::And => Ok(Value::Bool(
                self.eval_bool(a, mem, locals)? && self.eval_bool(b, mem, locals)?,
            )),
            BinOp::Or => Ok(Value::Bool(
                self.eval_bool(a, mem, locals)? || self.eval_bool(b, mem, locals)?,
            )),
            _ => {
                let a = self.eval(a, mem, locals)?;
                let b = self.eval(b, mem, locals)?;
                binary(op, a, b, span)
            }
        }
    }

    fn builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        span: Span,
        mem: &Memory,
        locals: &[Value],
    ) -> Result<Value, Fault> {
        let args = self.eval_all(args, mem, locals)?;
        builtin(b, &args, span)
    }

    fn call(&mut self, f: u32, args: Vec<Value>, mem: &Memory, span: Span) -> Result<Value, Fault> {
        let fun = &self.program().funs[f as usize];
        if self.depth >= self.machine.limits.max_call_depth {
            return err(
                ErrorKind::CallDepth(self.machine.limits.max_call_depth),
                span,
            );
        }
        self.depth += 1;
        let mut locals = frame(&fun.code, args);
        let exit = if self.depth - self.stack_base >= CALLS_PER_STACK {
            self.exec_on_fresh_stack(&fun.code, mem, &mut locals)
        } else {
            self.exec(&fun.code, 0, &mut Mem::ReadOnly(mem), &mut locals)
        };
        self.depth -= 1;
        match exit? {
            Exit::Value(v) => Ok(v),
            Exit::Block(_) | Exit::End => err(ErrorKind::NoReturn(fun.name.clone()), span),
        }
    }

    /// Runs a fun body on a new thread with a stack of its own, so that deep recursion
    /// ends in [`ErrorKind::CallDepth`] rather than overflowing the caller's stack,
    /// whatever its size (test threads have 2 MiB; unoptimised frames are large).
    fn exec_on_fresh_stack(
        &mut self,
        code: &Code,
        mem: &Memory,
        locals: &mut [Value],
    ) -> Result<Exit, Fault> {
        let outer_base = std::mem::replace(&mut self.stack_base, self.depth);
        let joined = std::thread::scope(|scope| {
            let run = &mut *self;
            let locals = &mut *locals;
            std::thread::Builder::new()
                .name("ic-fun-calls".to_string())
                .stack_size(FRESH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    run.exec(code, 0, &mut Mem::ReadOnly(mem), locals)
                })
                .map(|handle| handle.join())
        });
        self.stack_base = outer_base;
        match joined {
            Ok(Ok(exit)) => exit,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            // No thread to be had: carry on with the stack there is.
            Err(_) => self.exec(code, 0, &mut Mem::ReadOnly(mem), locals),
        }
    }
}

/// Nested fun calls that run on one stack before the next call moves to a fresh one.
const CALLS_PER_STACK: u32 = 100;
/// The stack of each fresh thread: ample for `CALLS_PER_STACK` calls even unoptimised.
const FRESH_STACK_BYTES: usize = 16 << 20;

fn assert_failed(message: &Option<String>, span: Span) -> Fault {
    Fault::Assert {
        message: message.clone(),
        span,
    }
}

pub(crate) fn with_element(
    list: &Arc<[i64]>,
    index: i64,
    v: i64,
    span: Span,
) -> Result<Value, Fault> {
    let at = checked_index(index, list.len(), span)?;
    let mut items = list.to_vec();
    items[at] = v;
    Ok(Value::List(Arc::from(items)))
}

fn binary(op: BinOp, a: Value, b: Value, span: Span) -> Result<Value, Fault> {
    let int = |r: Option<i64>, sym| match r {
        Some(v) => Ok(Value::Int(v)),
        None => err(ErrorKind::Overflow(sym), span),
    };
    match op {
        BinOp::Add => int(a.int().checked_add(b.int()), "+"),
        BinOp::Sub => int(a.int().checked_sub(b.int()), "-"),
        BinOp::Mul => int(a.int().checked_mul(b.int()), "*"),
        BinOp::Div | BinOp::Mod if b.int() == 0 => err(ErrorKind::DivisionByZero, span),
        BinOp::Div => int(a.int().checked_div(b.int()), "/"),
        // The remainder always fits: `i64::MIN % -1` is 0, not an overflow.
        BinOp::Mod => Ok(Value::Int(a.int().wrapping_rem(b.int()))),
        BinOp::Concat => {
            if a.list().len() + b.list().len() > MAX_LIST_LEN as usize {
                return err(ErrorKind::ListTooLong("++"), span);
            }
            let mut items = a.list().to_vec();
            items.extend_from_slice(b.list());
            Ok(Value::List(Arc::from(items)))
        }
        BinOp::Eq => Ok(Value::Bool(a == b)),
        BinOp::Ne => Ok(Value::Bool(a != b)),
        BinOp::Lt => Ok(Value::Bool(a.int() < b.int())),
        BinOp::Le => Ok(Value::Bool(a.int() <= b.int())),
        BinOp::Gt => Ok(Value::Bool(a.int() > b.int())),
        BinOp::Ge => Ok(Value::Bool(a.int() >= b.int())),
        BinOp::And | BinOp::Or => unreachable!("short-circuit operators are evaluated lazily"),
    }
}

/// `take`/`drop` count: clamped to the list, as in Haskell.
fn clamp_count(n: i64, len: usize) -> usize {
    n.clamp(0, len as i64) as usize
}

fn builtin(b: Builtin, args: &[Value], span: Span) -> Result<Value, Fault> {
    let list = |l: &[i64]| Value::List(Arc::from(l));
    Ok(match (b, args) {
        (Builtin::Len, [l]) => Value::Int(l.list().len() as i64),
        (Builtin::Head, [l]) => match l.list().first() {
            Some(v) => Value::Int(*v),
            None => return err(ErrorKind::EmptyList("head"), span),
        },
        (Builtin::Tail, [l]) => match l.list().split_first() {
            Some((_, rest)) => list(rest),
            None => return err(ErrorKind::EmptyList("tail"), span),
        },
        (Builtin::Append, [l, v]) => {
            if l.list().len() >= MAX_LIST_LEN as usize {
                return err(ErrorKind::ListTooLong("append"), span);
            }
            let mut items = l.list().to_vec();
            items.push(v.int());
            Value::List(Arc::from(items))
        }
        (Builtin::Take, [l, n]) => {
            let l = l.list();
            list(&l[..clamp_count(n.int(), l.len())])
        }
        (Builtin::Drop, [l, n]) => {
            let l = l.list();
            list(&l[clamp_count(n.int(), l.len())..])
        }
        (Builtin::Min, [a, c]) => Value::Int(a.int().min(c.int())),
        (Builtin::Max, [a, c]) => Value::Int(a.int().max(c.int())),
        (Builtin::Abs, [a]) => match a.int().checked_abs() {
            Some(v) => Value::Int(v),
            None => return err(ErrorKind::Overflow("abs"), span),
        },
        _ => unreachable!("checker verified the arity of builtin `{}`", b.name()),
    })
}
