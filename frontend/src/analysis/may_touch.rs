//! The *transition footprint*: the global locations a block may read and write when
//! its process runs it from a given local state, whatever the global state.
//!
//! Partial order reduction needs the dependency of two transitions to be a property
//! of the transitions — of each process's block and local state — as it is for the
//! single memory accesses of classic DPOR. What a block actually touched is such a
//! property only when its control flow and indices depend on locals alone (see
//! [`crate::analysis::locality`]); a block that branches on a global it read, or indexes with
//! one, touches different locations in different global states. Widening those to
//! the syntactic footprint (every global the code mentions, as a whole) is sound but
//! makes every two such blocks conflict: Source-DPOR then explores orders of
//! magnitude more than one execution per Mazurkiewicz trace on the classic DPOR
//! benchmarks (lastzero, indexer, filesystem).
//!
//! This analysis runs the block on its local state with every value read from a
//! global *unknown*: known values are computed exactly (by the interpreter, on
//! expressions that read no global), so loops with local bounds unroll into the
//! locations they touch; a branch on an unknown value follows both sides; an index or
//! key that is unknown touches the whole container ([`WHOLE`]); a short-circuit or
//! conditional with an unknown condition touches what either side touches. The result
//! is the union of what every path may touch: a superset of what the block touches
//! in any global state in which it runs, and the same set whatever that state is.
//! A path ends where the block ends (`await`, `yield`, `return`), at a certain fault
//! (an assertion that is known false, an index known out of range, an overflow of
//! known values — the block fails there in every global state), and where it reaches
//! a point and local state already explored.
//!
//! A branch point whose condition stays undecided while known locals change on (a
//! loop over a list read from a global) is widened after [`WIDEN_AFTER`] visits: the
//! locals that differ become unknown, and the paths from it converge. A block whose
//! paths still do not end within [`BUDGET`] instructions gets `None`: the caller
//! falls back to the syntactic footprint.

use crate::ast::BinOp;
use crate::interp::{with_element, Machine};
use crate::ir::{BlockId, Code, Expr, ExprKind, GlobalId, InstrKind, Place, ProcId, Program};
use crate::memory::{Loc, Memory};
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{HashMap, HashSet};

/// The element of a [`Loc`] that stands for every element of an array or map: an
/// access whose index is not known from the local state. (A map key `i64::MIN` is
/// taken for the whole map too: an over-approximation, hence sound.)
pub const WHOLE: i64 = i64::MIN;

/// Instructions the analysis of one block may interpret, over all its paths.
pub const BUDGET: u32 = 20_000;

/// Local states a block may be entered in by the analysis of a process from one of
/// its blocks on ([`process`]) before it is entered from their join instead: a
/// counter that runs on without bound becomes unknown. Loops with local bounds
/// (a lock's levels and the processes it scans, in a filter lock) stay exact well
/// within it.
pub const PROCESS_WIDEN_AFTER: u32 = 64;

/// Blocks, each with the local state it is entered in, that the analysis of a
/// process from one of its blocks on ([`process`]) may explore.
pub const PROCESS_BLOCKS: usize = 1024;

/// Undecided visits of a branch point after which its states are joined (a local
/// that differs between them becomes unknown). A loop whose exit depends on the
/// global state while a known counter runs on (`for i in 0..len(m)`, `m` read from a
/// global) would otherwise unroll without end; joined, the counter becomes unknown
/// and what it indexes is touched whole. Each join makes a local unknown for good,
/// so a widened branch point is passed at most once per local.
pub const WIDEN_AFTER: u32 = 8;

/// What a block may touch: sorted, deduplicated locations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Touched {
    /// Locations read, the `await` guard's included.
    pub reads: Vec<Loc>,
    pub writes: Vec<Loc>,
}

/// What touches every global of `reads` and of `writes`, each as a whole: a
/// block's syntactic footprint, or the union of several.
pub fn whole(
    reads: impl IntoIterator<Item = GlobalId>,
    writes: impl IntoIterator<Item = GlobalId>,
) -> Touched {
    let locs = |set: &mut dyn Iterator<Item = GlobalId>| -> Vec<Loc> {
        set.map(|global| Loc {
            global,
            elem: WHOLE,
        })
        .collect()
    };
    Touched {
        reads: locs(&mut reads.into_iter()),
        writes: locs(&mut writes.into_iter()),
    }
}

/// `locals` of a process entering `block`, those the block may read before writing
/// them (its `live` set) as they are, the others unknown: all a block's analysis
/// depends on.
pub fn live_locals(
    program: &Program,
    block: BlockId,
    locals: impl IntoIterator<Item = Option<Value>>,
) -> Vec<Option<Value>> {
    let live = &program.blocks[block as usize].live;
    (locals.into_iter().enumerate())
        .map(|(l, v)| v.filter(|_| live.binary_search(&(l as u32)).is_ok()))
        .collect()
}

/// The transition footprint of `block` run with `locals`, or `None` when its paths
/// exceed [`BUDGET`]. `mem` is never read (only expressions that read no global are
/// evaluated); any memory of the program will do. The locals outside the block's
/// `live` set, which it writes before reading, are taken as unknown: otherwise
/// their values, which no path reads, would still tell apart the states where
/// paths meet again, and so where the analysis joins them (the explorer keeps
/// these footprints by the live locals alone, [`process`] relies on it too).
pub fn block(machine: &Machine<'_>, mem: &Memory, block: u32, locals: &[Value]) -> Option<Touched> {
    let program = machine.program;
    let code = &program.procs[program.blocks[block as usize].proc as usize].code;
    let live = live_locals(program, block, locals.iter().cloned().map(Some));
    let mut run = Abstract::new(machine, mem, code);
    run.enter(block, State::partial(&live, code))?;
    Some(run.touched())
}

/// Where a block may lead from a local state, whatever the global state: every path's
/// end (see [`successors`]). A value is `None` where the global state decides it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Successors {
    /// The blocks the process may go on to (`await`, `yield`), with its locals there.
    pub next: Vec<(BlockId, Vec<Option<Value>>)>,
    /// The processes it may spawn: procedure and arguments.
    pub spawns: Vec<(ProcId, Vec<Option<Value>>)>,
}

/// The [`Successors`] of `block` run with `locals`, or `None` when its paths exceed
/// [`BUDGET`]: a superset of where it leads in any global state, as [`block`] is of
/// what it touches (the same paths).
pub fn successors(
    machine: &Machine<'_>,
    mem: &Memory,
    block: u32,
    locals: &[Value],
) -> Option<Successors> {
    Some(analyse(machine, mem, block, locals)?.exits)
}

/// What a process may touch from `block` on, entered with `locals` (`None` where
/// the global state decides a local), as the stateful searches record what its
/// steps touch: the union, over `block` and every block it may go on to
/// ([`successors`]) with the locals it may have there, of the block's transition
/// footprint ([`block`], or its syntactic footprint where that exceeds its budget).
/// `dependent` is [`crate::analysis::locality::state_dependent_footprints`]. `None`
/// past [`PROCESS_BLOCKS`] blocks and local states, or where a block's analysis
/// exceeds [`BUDGET`]. What the processes it spawns touch is left out.
///
/// Why it holds every step's footprint, in any interleaving. Each block's analysis
/// over-approximates the paths the block takes from any local state its known
/// locals agree with, and where they lead; so, by induction on the blocks of a
/// run, every block the process runs from here is entered here in a local state
/// that agrees with the one it runs from. A block adds:
/// - where that state knows every local the block may read before writing it (its
///   `live` set), its analysis, which is [`block`]'s from those locals, what a step
///   records ([`block`] takes the other locals as unknown, as this does);
/// - else, where the block's paths and indices depend on its locals alone
///   (`dependent` false) and no path of its analysis met a branch point in a state
///   explored already, its analysis too: the analysis is then a finite tree of
///   paths, each ended by the block's end, a certain fault or a return, and from
///   known locals [`block`] follows one path and decides every branch (so it joins
///   nothing), a path of that tree (a fault certain here is certain there): what
///   it touches is within the tree's, and its length within the instructions the
///   tree took, so within the budget;
/// - else its syntactic footprint, which holds any footprint a step of it records
///   (a join made after more undecided visits than this analysis makes, or a
///   budget exceeded where this analysis does not, may touch what no path here
///   does).
///
/// Locals outside the `live` set are forgotten where a block is entered, and a block
/// met in more than [`PROCESS_WIDEN_AFTER`] local states is entered from their join
/// (known only where they all agree): both only forget, which widens, and the join
/// ends a counter that runs on without bound.
pub fn process(
    machine: &Machine<'_>,
    mem: &Memory,
    dependent: &[bool],
    block: BlockId,
    locals: &[Option<Value>],
) -> Option<Touched> {
    let program = machine.program;
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let mut seen: FxHashMap<BlockId, FxHashSet<Vec<Option<Value>>>> = FxHashMap::default();
    let mut analysed = 0;
    let mut met: FxHashMap<BlockId, (u32, Vec<Option<Value>>)> = FxHashMap::default();
    let mut todo = vec![(block, locals.to_vec())];
    while let Some((b, locals)) = todo.pop() {
        let entered = &program.blocks[b as usize];
        let mut locals = live_locals(program, b, locals);
        let met_here = |seen: &FxHashMap<_, FxHashSet<_>>, locals: &Vec<Option<Value>>| {
            seen.get(&b).is_some_and(|set| set.contains(locals))
        };
        if met_here(&seen, &locals) {
            continue;
        }
        let (visits, join) = met.entry(b).or_insert_with(|| (0, locals.clone()));
        for (j, v) in join.iter_mut().zip(&locals) {
            if *j != *v {
                *j = None;
            }
        }
        *visits += 1;
        if *visits > PROCESS_WIDEN_AFTER {
            locals = join.clone();
            if met_here(&seen, &locals) {
                continue;
            }
        }
        if analysed >= PROCESS_BLOCKS {
            return None;
        }
        analysed += 1;
        let code = &program.procs[entered.proc as usize].code;
        let mut run = Abstract::new(machine, mem, code);
        run.enter(b, State::partial(&locals, code))?;
        let known = (entered.live.iter()).all(|&l| locals[l as usize].is_some());
        if known || (!dependent[b as usize] && !run.cut) {
            reads.append(&mut run.reads);
            writes.append(&mut run.writes);
        } else {
            let sets = &program.sets[b as usize];
            let mut syntactic = whole(sets.reads.iter().copied(), sets.writes.iter().copied());
            reads.append(&mut syntactic.reads);
            writes.append(&mut syntactic.writes);
        }
        todo.append(&mut run.exits.next);
        seen.entry(b).or_default().insert(locals);
    }
    normalise(&mut reads);
    normalise(&mut writes);
    Some(Touched { reads, writes })
}

/// Runs the analysis of `block` from `locals` (see the module's doc).
fn analyse<'a, 'p>(
    machine: &'a Machine<'p>,
    mem: &'a Memory,
    block: u32,
    locals: &[Value],
) -> Option<Abstract<'a, 'p>> {
    let program = machine.program;
    let b = &program.blocks[block as usize];
    let code = &program.procs[b.proc as usize].code;
    let mut run = Abstract::new(machine, mem, code);
    run.enter(block, State::entry(locals))?;
    Some(run)
}

/// The locations `block`'s `await` guard may read with `locals` (empty without one):
/// what a write must touch to enable or disable the block.
pub fn guard(machine: &Machine<'_>, mem: &Memory, block: u32, locals: &[Value]) -> Vec<Loc> {
    let program = machine.program;
    let b = &program.blocks[block as usize];
    let code = &program.procs[b.proc as usize].code;
    let mut run = Abstract::new(machine, mem, code);
    if let Some(guard) = &b.guard {
        let state = State::entry(locals);
        let _ = run.eval(guard, &state);
    }
    run.touched().reads
}

/// Sorts `set` and leaves each location once, a whole container covering its
/// elements (it sorts first among them).
fn normalise(set: &mut Vec<Loc>) {
    set.sort_unstable();
    set.dedup();
    let mut whole = None;
    set.retain(|l| {
        if l.elem == WHOLE {
            whole = Some(l.global);
        }
        l.elem == WHOLE || whole != Some(l.global)
    });
}

/// A certain fault: the path ends there in every global state.
struct Fault;

/// A point of one path: the locals, each known or not. An unknown local holds the
/// zero of its value's type, so that equal states compare equal.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    pc: u32,
    locals: Vec<Value>,
    known: Vec<bool>,
}

impl State {
    /// With every local known (its `pc` set where it is entered).
    fn entry(locals: &[Value]) -> State {
        State {
            pc: 0,
            locals: locals.to_vec(),
            known: vec![true; locals.len()],
        }
    }

    /// With the locals of `code`'s frame known where `locals` says (its `pc` set
    /// where it is entered).
    fn partial(locals: &[Option<Value>], code: &Code) -> State {
        let value = |(l, v): (usize, &Option<Value>)| match v {
            Some(v) => (v.clone(), true),
            None => (Value::zero(code.locals[l].ty), false),
        };
        let (locals, known) = locals.iter().enumerate().map(value).unzip();
        State {
            pc: 0,
            locals,
            known,
        }
    }

    /// Keeps what both states know alike; forgets the rest.
    fn join(&mut self, other: &State) {
        for l in 0..self.locals.len() {
            if self.known[l] && !(other.known[l] && other.locals[l] == self.locals[l]) {
                self.set(l, None);
            }
        }
    }

    fn set(&mut self, l: usize, v: Option<Value>) {
        match v {
            Some(v) => {
                self.locals[l] = v;
                self.known[l] = true;
            }
            None => {
                self.locals[l] = Value::zero(self.locals[l].ty());
                self.known[l] = false;
            }
        }
    }
}

/// One analysis in progress: what the paths explored so far touched.
struct Abstract<'a, 'p> {
    machine: &'a Machine<'p>,
    mem: &'a Memory,
    code: &'a Code,
    reads: Vec<Loc>,
    writes: Vec<Loc>,
    exits: Successors,
    budget: u32,
    /// Whether a path met a branch point in a state explored already, and was cut
    /// there ([`process`] asks).
    cut: bool,
}

impl<'a, 'p> Abstract<'a, 'p> {
    fn new(machine: &'a Machine<'p>, mem: &'a Memory, code: &'a Code) -> Self {
        Abstract {
            machine,
            mem,
            code,
            reads: Vec::new(),
            writes: Vec::new(),
            exits: Successors::default(),
            budget: BUDGET,
            cut: false,
        }
    }

    fn touched(mut self) -> Touched {
        normalise(&mut self.reads);
        normalise(&mut self.writes);
        Touched {
            reads: self.reads,
            writes: self.writes,
        }
    }

    /// Follows every path of `block` from `start`'s locals, its guard first: a guard
    /// known false leaves the block touching what it read. `None` past the budget.
    fn enter(&mut self, block: u32, mut start: State) -> Option<()> {
        let b = &self.program().blocks[block as usize];
        start.pc = b.pc;
        if let Some(guard) = &b.guard {
            let never = self.eval(guard, &start);
            if matches!(never, Ok(Some(Value::Bool(false))) | Err(Fault)) {
                return Some(());
            }
        }
        self.explore(start)
    }

    /// Follows every path from `start` to its end; `None` past the budget.
    fn explore(&mut self, start: State) -> Option<()> {
        let mut seen: HashSet<State> = HashSet::new();
        // Per branch point: how often its condition was undecided, and the join of
        // the states it was undecided in (explored instead once that exceeds
        // `WIDEN_AFTER`).
        let mut undecided: HashMap<u32, u32> = HashMap::new();
        let mut widened: HashMap<u32, State> = HashMap::new();
        let mut paths = vec![start];
        while let Some(mut s) = paths.pop() {
            loop {
                self.budget = self.budget.checked_sub(1)?;
                let instr = &self.code.instrs[s.pc as usize];
                let at = s.pc;
                s.pc += 1;
                let go_on = match &instr.kind {
                    InstrKind::Assign(place, e) => self.assign(place, e, &mut s).is_ok(),
                    InstrKind::Jump(t) => {
                        s.pc = *t;
                        true
                    }
                    InstrKind::JumpUnless(c, t) => {
                        // Branch points are where paths meet again: explore each
                        // (point, locals) once.
                        let mut here = s.clone();
                        here.pc = at;
                        if !seen.insert(here.clone()) {
                            self.cut = true;
                            break;
                        }
                        let mut condition = self.eval(c, &s);
                        if matches!(condition, Ok(None)) {
                            let visits = undecided.entry(at).or_insert(0);
                            *visits += 1;
                            let widened = widened.entry(at).or_insert_with(|| here.clone());
                            widened.join(&here);
                            if *visits > WIDEN_AFTER {
                                if !seen.insert(widened.clone()) {
                                    self.cut = true;
                                    break;
                                }
                                s = widened.clone();
                                s.pc = at + 1;
                                condition = self.eval(c, &s);
                            }
                        }
                        match condition {
                            Ok(Some(v)) => {
                                if !v.bool() {
                                    s.pc = *t;
                                }
                                true
                            }
                            Ok(None) => {
                                let mut other = s.clone();
                                other.pc = *t;
                                paths.push(other);
                                true
                            }
                            Err(Fault) => false,
                        }
                    }
                    InstrKind::Spawn(proc, args) => {
                        let args: Result<Vec<_>, Fault> =
                            args.iter().map(|a| self.eval(a, &s)).collect();
                        args.map(|args| self.exits.spawns.push((*proc, args)))
                            .is_ok()
                    }
                    InstrKind::Assert(c, _) => {
                        !matches!(self.eval(c, &s), Ok(Some(Value::Bool(false))) | Err(Fault))
                    }
                    InstrKind::Await(next) | InstrKind::Yield(next) => {
                        let locals = s.locals.iter().zip(&s.known);
                        let locals = locals.map(|(v, &k)| k.then(|| v.clone())).collect();
                        self.exits.next.push((*next, locals));
                        false
                    }
                    InstrKind::Return(_) => false,
                };
                if !go_on {
                    break;
                }
            }
        }
        Some(())
    }

    fn assign(&mut self, place: &Place, e: &Expr, s: &mut State) -> Result<(), Fault> {
        let v = self.eval(e, s)?;
        match place {
            Place::Local(l) => s.set(*l as usize, v),
            Place::Global(g) => self.writes.push(Loc::whole(*g)),
            Place::ArrayElem(g, i) => {
                let at = self.element(*g, i, s)?;
                self.writes.push(at);
            }
            Place::MapElem(g, k) => {
                let at = self.element(*g, k, s)?;
                self.writes.push(at);
            }
            Place::GlobalListElem(g, i) => {
                self.eval(i, s)?;
                self.reads.push(Loc::whole(*g));
                self.writes.push(Loc::whole(*g));
            }
            Place::LocalListElem(l, i) => {
                let l = *l as usize;
                let index = self.eval(i, s)?;
                let updated = match (v, index, s.known[l]) {
                    (Some(v), Some(index), true) => Some(
                        with_element(s.locals[l].list(), index.int(), v.int(), i.span)
                            .map_err(|_| Fault)?,
                    ),
                    _ => None,
                };
                s.set(l, updated);
            }
        }
        Ok(())
    }

    /// The location `g[i]` of an array or map: [`WHOLE`] when `i` is unknown; a
    /// fault when it is known to be out of an array's range.
    fn element(&mut self, g: u32, i: &Expr, s: &State) -> Result<Loc, Fault> {
        let Some(index) = self.eval(i, s)? else {
            return Ok(Loc {
                global: g,
                elem: WHOLE,
            });
        };
        let index = index.int();
        if let crate::ir::GlobalKind::Array { len, .. } = self.program().globals[g as usize].kind {
            if index < 0 || index as u64 >= len as u64 {
                return Err(Fault);
            }
        }
        Ok(Loc {
            global: g,
            elem: index,
        })
    }

    fn program(&self) -> &'p Program {
        self.machine.program
    }

    /// The value of `e` if the local state determines it, recording what it may read.
    fn eval(&mut self, e: &Expr, s: &State) -> Result<Option<Value>, Fault> {
        if known(e, s) {
            return match self.machine.eval_local(e, self.mem, &s.locals) {
                Ok(v) => Ok(Some(v)),
                Err(_) => Err(Fault),
            };
        }
        match &e.kind {
            ExprKind::Global(g) => self.reads.push(Loc::whole(*g)),
            ExprKind::ArrayGet(g, i) | ExprKind::MapGet(g, i) | ExprKind::MapHas(g, i) => {
                let at = self.element(*g, i, s)?;
                self.reads.push(at);
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let decided = Value::Bool(*op == BinOp::Or);
                match self.eval(a, s)? {
                    Some(v) if v == decided => return Ok(Some(v)),
                    Some(_) => return self.eval(b, s),
                    // `b` may or may not run: its fault is not certain.
                    None => drop(self.eval(b, s)),
                }
            }
            ExprKind::Cond(c, a, b) => match self.eval(c, s)? {
                Some(v) => return self.eval(if v.bool() { a } else { b }, s),
                None => {
                    drop(self.eval(a, s));
                    drop(self.eval(b, s));
                }
            },
            // Operands are evaluated in order, each to the end: a certain fault of one
            // ends the path.
            _ => {
                for child in e.operands() {
                    self.eval(child, s)?;
                }
            }
        }
        Ok(None)
    }
}

/// `e` reads no global and only known locals: its value is known.
fn known(e: &Expr, s: &State) -> bool {
    match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::Local(l) => s.known[*l as usize],
        ExprKind::Global(_)
        | ExprKind::ArrayGet(..)
        | ExprKind::MapGet(..)
        | ExprKind::MapHas(..) => false,
        _ => e.operands().all(|c| known(c, s)),
    }
}

#[cfg(test)]
mod tests {
    use super::WHOLE;
    use crate::interp::{Limits, Machine};
    use crate::memory::Memory;
    use crate::value::Value;

    /// The footprint of block `name` run with the given locals (in declaration order,
    /// parameters first; the rest zero), as `reads | writes` with each location shown
    /// as `g` or `g[i]` (`g[*]` for the whole container).
    fn touched(src: &str, name: &str, args: &[Value]) -> String {
        let program = crate::load(src, &[]).expect("loads");
        let machine = Machine::new(&program, Limits::default());
        let mem = Memory::initial(&program);
        let block = program.block_by_name(name).expect("block");
        let proc = program.blocks[block as usize].proc;
        let locals = machine.spawn_frame(proc, args.to_vec());
        let t = super::block(&machine, &mem, block, &locals).expect("within budget");
        show(&program, &t)
    }

    /// `reads | writes`, each location as `g` or `g[i]` (`g[*]` for the whole
    /// container).
    fn show(program: &crate::ir::Program, t: &super::Touched) -> String {
        let show = |locs: &[crate::memory::Loc]| {
            locs.iter()
                .map(|l| {
                    if l.elem == WHOLE {
                        format!("{}[*]", program.globals[l.global as usize].name)
                    } else {
                        l.display(program)
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!("{} | {}", show(&t.reads), show(&t.writes))
    }

    /// What a process may touch from block `name` on ([`super::process`]), entered
    /// with its spawn frame for `args`, the locals named in `set` changed (`None`:
    /// unknown), shown as [`touched`] shows a block's.
    fn future(src: &str, name: &str, args: &[Value], set: &[(&str, Option<Value>)]) -> String {
        let program = crate::load(src, &[]).expect("loads");
        let machine = Machine::new(&program, Limits::default());
        let mem = Memory::initial(&program);
        let block = program.block_by_name(name).expect("block");
        let proc = program.blocks[block as usize].proc;
        let frame = machine.spawn_frame(proc, args.to_vec());
        let mut locals: Vec<Option<Value>> = frame.into_iter().map(Some).collect();
        let names = &program.procs[proc as usize].code.locals;
        for (n, v) in set {
            let l = names.iter().position(|l| l.name == *n).expect("a local");
            locals[l] = v.clone();
        }
        let dependent = crate::analysis::locality::state_dependent_footprints(&program);
        let t = super::process(&machine, &mem, &dependent, block, &locals).expect("within bounds");
        show(&program, &t)
    }

    const GLOBALS: &str = "global int x = 0; global int y = 0; global int[4] a; global map m;";

    fn with(procs: &str) -> String {
        format!("{GLOBALS} {procs} init {{ }}")
    }

    #[test]
    fn a_branch_on_a_global_touches_both_sides() {
        let src = with("proc p(int i) { if (x > 0) { a[i] = 1; } else { m[i + 1] = 2; } }");
        assert_eq!(touched(&src, "p", &[Value::Int(2)]), "x | a[2] m[3]");
    }

    #[test]
    fn an_index_read_from_a_global_touches_the_whole_container() {
        let src = with("proc p(int i) { a[x] = i; y = m[a[i]]; }");
        assert_eq!(touched(&src, "p", &[Value::Int(1)]), "x a[1] m[*] | y a[*]");
    }

    #[test]
    fn local_loops_unroll_into_their_locations() {
        let src = with("proc p(int k) { for i in 0..k { if (a[i] == 0) { m[i] = 1; } } }");
        assert_eq!(
            touched(&src, "p", &[Value::Int(3)]),
            "a[0] a[1] a[2] | m[0] m[1] m[2]"
        );
    }

    #[test]
    fn a_scan_that_stops_on_a_global_reads_up_to_the_end_of_the_array() {
        // lastzero's scan written as one block: every path stops at a zero, or at the
        // index that leaves the array (a certain fault).
        let src = with("proc p(int i) { while (a[i] != 0) { i = i - 1; } x = i; }");
        assert_eq!(
            touched(&src, "p", &[Value::Int(3)]),
            "a[0] a[1] a[2] a[3] | x"
        );
    }

    #[test]
    fn a_loop_over_a_list_read_from_globals_is_widened() {
        // `len(l)` is unknown: after a few undecided visits `i` is joined to unknown,
        // so the writes it indexes touch the whole map.
        let src = with(
            "proc p(int f) { list l = []; for j in 0..3 { l = append(l, m[j]); }
             int n = len(l); int i = 0; while (i < x) { m[10 + i] = 1; i = i + 1; } a[f] = n; }",
        );
        assert_eq!(
            touched(&src, "p", &[Value::Int(1)]),
            "x m[0] m[1] m[2] | a[1] m[*]"
        );
    }

    #[test]
    fn short_circuits_and_conditionals_decided_by_locals_touch_one_side() {
        let src = with("proc p(bool c) { y = (c && x > 0) ? a[0] : a[1]; }");
        assert_eq!(touched(&src, "p", &[Value::Bool(false)]), "a[1] | y");
        let src = with("proc p(int c) { y = (c > 0 && x > 0) ? a[0] : a[1]; }");
        assert_eq!(touched(&src, "p", &[Value::Int(1)]), "x a[0] a[1] | y");
    }

    #[test]
    fn the_guard_counts_and_a_certain_fault_ends_the_path() {
        let src = with("proc p(int i) { await (m[i] == 1); assert(i > 5); y = 1; }");
        assert_eq!(touched(&src, "p", &[Value::Int(2)]), "m[2] | ");
        assert_eq!(touched(&src, "p", &[Value::Int(7)]), "m[7] | y");
    }

    /// A filter lock's worker, with its levels and the processes it scans as loops
    /// with local bounds.
    const FILTER: &str = "global int[3] level; global int[3] victim; global int done = 0;
        proc worker(int me) {
            for L in 1..3 {
                level[me] = L; yield;
                victim[L] = me; yield;
                for k in 0..3 { if (k != me) { int lk = level[k]; yield; if (lk >= L) { break; } } }
            }
            done = done + 1;
        }
        init { }";

    #[test]
    fn a_process_touches_the_elements_its_locals_index_from_its_block_on() {
        let me = [Value::Int(1)];
        assert_eq!(
            future(FILTER, "worker", &me, &[]),
            "level[0] level[2] done | level[1] victim[1] victim[2] done"
        );
        // At its last level, past its own write of `level`.
        assert_eq!(
            future(FILTER, "worker#1", &me, &[("L", Some(Value::Int(2)))]),
            "level[0] level[2] done | victim[2] done"
        );
        // A level the global state decided: the whole of `victim` (each block
        // depends on its locals alone, and none goes round the loop over levels).
        assert_eq!(
            future(FILTER, "worker#1", &me, &[("L", None)]),
            "level[0] level[2] done | level[1] victim[*] done"
        );
    }

    /// What a step records is [`super::block`]'s footprint from its locals, or its
    /// block's syntactic one past the budget: a process's analysis holds it where
    /// the analysis of fewer known locals would take fewer paths. Past the budget
    /// from known locals, the process's analysis gives up too; a block whose paths
    /// depend on the global state, entered with a local the global state decided,
    /// adds its syntactic footprint (from `c = 0`, [`super::block`] joins the
    /// loop's states after a few undecided visits, and then writes `y`, which no
    /// run does).
    #[test]
    fn a_process_holds_what_its_steps_record() {
        let long = with(
            "proc p(int k) { int s = 0; for i in 0..6000 { s = s + 1; }
                         if (k == 7) { y = 1; } a[k] = s; }",
        );
        let program = crate::load(&long, &[]).expect("loads");
        let machine = Machine::new(&program, Limits::default());
        let mem = Memory::initial(&program);
        let dependent = crate::analysis::locality::state_dependent_footprints(&program);
        let p = program.block_by_name("p").expect("block");
        let locals = machine.spawn_frame(0, vec![Value::Int(0)]);
        assert_eq!(super::block(&machine, &mem, p, &locals), None);
        let known: Vec<Option<Value>> = locals.into_iter().map(Some).collect();
        assert_eq!(super::process(&machine, &mem, &dependent, p, &known), None);
        let joined = with(
            "proc p() { int c = x; yield; int n = 0;
                           while (y == 0) { c = c + 1; n = 1 - n; } if (n == 5) { y = 1; } }",
        );
        assert_eq!(future(&joined, "p", &[], &[]), "x y[*] | y[*]");
        // A loop this analysis cuts after one turn (`k` unknown: its state comes
        // back), where the step's own locals run it 10,000 times, past the budget:
        // the step records the block's whole globals.
        let counted = "global int x = 10000; global int[2] a;
            proc p() { int k = x; yield; int j = 0;
                       while (j == 0) { if (k == 0) { j = 1; } else { k = k - 1; } }
                       a[0] = 1; }
            init { }";
        assert_eq!(future(counted, "p", &[], &[]), "x | a[*]");
    }

    /// A local the block writes before reading (`d`) does not tell apart the states
    /// where paths meet again: known or not on entry, the loop's states come back
    /// after eight turns, and nothing is joined (joined, `n == 100` would be
    /// undecided and `y` written).
    #[test]
    fn a_block_depends_on_its_live_locals_alone() {
        let src = "global int x = 0; global int y = 0;
            proc p() { int n = 0; while (x == 0) { int d = x; n = (n + 1) % 8; }
                       if (n == 100) { y = 1; } }
            init { }";
        assert_eq!(touched(src, "p", &[]), "x | ");
        assert_eq!(future(src, "p", &[], &[]), "x | ");
    }

    #[test]
    fn a_counter_without_bound_is_joined_to_unknown() {
        let src = with("proc p() { int i = 0; while (x == 0) { m[i] = 1; i = i + 1; yield; } }");
        assert_eq!(future(&src, "p", &[], &[]), "x[*] | m[*]");
    }
}
