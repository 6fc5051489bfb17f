//! Loops inside blocks: the strongly connected parts of a proc's code, found once,
//! and the abstraction of the rest of a loop once a path has unrolled it enough.

use super::params::const_spans;
use super::state::{app_of, GlobalVal, SpawnKind, Spawned, State};
use super::term::{
    ArrBase, ArrVal, Coef, Form, Fun, IAtom, Lin, LoopOut, MapBase, MapVal, Slot, Val,
};
use super::{within_budget, Analysed, Exec, Visit};
use crate::ir::{
    Code, Expr, ExprKind, GlobalId, GlobalKind, InstrKind, LocalId, Pc, Place, ProcId,
};
use std::collections::{BTreeSet, HashMap};

/// Loop regions (strongly connected parts of a proc's code between block ends).
#[derive(Clone, Debug, Default)]
pub(super) struct Loops {
    /// For each pc, the loop it belongs to.
    pub(super) of_pc: HashMap<Pc, usize>,
    pub(super) loops: Vec<LoopInfo>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct LoopInfo {
    pub(super) pcs: BTreeSet<Pc>,
    read_locals: BTreeSet<LocalId>,
    read_globals: BTreeSet<GlobalId>,
    /// Spans of param-dependent constants read.
    read_consts: BTreeSet<(usize, usize)>,
    written_locals: BTreeSet<LocalId>,
    written_globals: BTreeSet<GlobalId>,
    spawns: bool,
}

impl Exec<'_> {
    pub(super) fn find_loops(&self, code: &Code) -> Loops {
        let n = code.instrs.len();
        let succ = |pc: usize| -> Vec<usize> {
            match &code.instrs[pc].kind {
                InstrKind::Assign(..) | InstrKind::Spawn(..) | InstrKind::Assert(..) => {
                    vec![pc + 1]
                }
                InstrKind::Jump(t) => vec![*t as usize],
                InstrKind::JumpUnless(_, t) => vec![pc + 1, *t as usize],
                InstrKind::Await(_) | InstrKind::Yield(_) | InstrKind::Return(_) => vec![],
            }
        };
        let sccs = tarjan(n, &succ);
        let mut out = Loops::default();
        for comp in sccs {
            let cyclic = comp.len() > 1 || succ(comp[0]).contains(&comp[0]);
            if !cyclic {
                continue;
            }
            let id = out.loops.len();
            let mut info = LoopInfo {
                pcs: comp.iter().map(|&p| p as Pc).collect(),
                ..LoopInfo::default()
            };
            for &pc in &comp {
                out.of_pc.insert(pc as Pc, id);
                let kind = &code.instrs[pc].kind;
                kind.for_each_expr(&mut |e| {
                    reads_in(e, &mut info.read_locals, &mut info.read_globals);
                    let mut spans = Vec::new();
                    const_spans(e, &mut spans);
                    for s in spans {
                        if self.consts.contains_key(&s) {
                            info.read_consts.insert(s);
                        }
                    }
                });
                match kind {
                    InstrKind::Assign(place, _) => match place {
                        Place::Local(l) => {
                            info.written_locals.insert(*l);
                        }
                        Place::LocalListElem(l, _) => {
                            info.read_locals.insert(*l);
                            info.written_locals.insert(*l);
                        }
                        Place::Global(g) => {
                            info.written_globals.insert(*g);
                        }
                        Place::ArrayElem(g, _)
                        | Place::MapElem(g, _)
                        | Place::GlobalListElem(g, _) => {
                            info.read_globals.insert(*g);
                            info.written_globals.insert(*g);
                        }
                    },
                    InstrKind::Spawn(..) => info.spawns = true,
                    _ => {}
                }
            }
            out.loops.push(info);
        }
        out
    }

    /// Replaces the rest of a loop by uninterpreted functions (Def. 7) of the state
    /// at `entry`: of every variable the loop reads, and of every variable it may
    /// write. A written variable is an input too: where the loop does not write it
    /// (a write under a condition, or zero iterations) its value afterwards is its
    /// value before, so the outputs depend on it even when the loop never reads it.
    /// Without it, `for i in 0..n { if (c) { x = 0; } }` would look as if it set `x`
    /// to a value independent of the `x` before, and a block that then reads `x`
    /// would commute with a write of `x`.
    ///
    /// The path also assumes `Ok(inputs)`, "the rest of the loop ends normally": it
    /// may fail inside or never end, and the interpreter then raises "block did not
    /// terminate". See the module documentation for what this does to constraints.
    pub(super) fn abstract_loop(
        &self,
        proc: ProcId,
        l: usize,
        entry: Pc,
        slot: Slot,
        st: State,
    ) -> Analysed<Vec<(State, Pc)>> {
        self.abstracted();
        let info = &self.loops[proc as usize].loops[l];
        let code = &self.program.procs[proc as usize].code;
        let locals = &st.locals[slot as usize];
        let mut inputs: Vec<Val> = Vec::new();
        for x in info.read_locals.union(&info.written_locals) {
            inputs.push(locals[*x as usize].clone());
        }
        for g in info.read_globals.union(&info.written_globals) {
            inputs.push(st.globals[*g as usize].as_val());
        }
        for span in &info.read_consts {
            if let Some(k) = self.consts.get(span) {
                inputs.push(Val::Int(self.const_kind_lin(k)));
            }
        }
        // Every output of the rest of the loop takes all of them.
        within_budget(inputs.iter().map(|v| v as &dyn Visit))?;
        let f = |out| Fun::Loop {
            proc,
            pc: entry,
            out,
        };
        let mut st = st;
        st.path.push(Form::BApp(f(LoopOut::Ok), inputs.clone()));
        for x in &info.written_locals {
            let ty = code.locals[*x as usize].ty;
            st.locals[slot as usize][*x as usize] =
                app_of(ty, f(LoopOut::Local(*x)), inputs.clone());
        }
        for g in &info.written_globals {
            let fun = f(LoopOut::Global(*g));
            st.globals[*g as usize] = match self.program.globals[*g as usize].kind {
                GlobalKind::Scalar(ty) => GlobalVal::Scalar(app_of(ty, fun, inputs.clone())),
                GlobalKind::Array { .. } => GlobalVal::Array(ArrVal {
                    base: ArrBase::App(fun, inputs.clone()),
                    log: Vec::new(),
                }),
                GlobalKind::Map => GlobalVal::Map(MapVal {
                    base: MapBase::App(fun, inputs.clone()),
                    log: Vec::new(),
                }),
            };
        }
        if info.spawns {
            st.spawns.push(Spawned {
                by: slot,
                what: SpawnKind::Bag(f(LoopOut::Spawns), inputs.clone()),
            });
        }
        // Where the loop may be left: edges out of it.
        let mut exits = BTreeSet::new();
        for &pc in &info.pcs {
            let targets: Vec<Pc> = match &code.instrs[pc as usize].kind {
                InstrKind::Jump(t) => vec![*t],
                InstrKind::JumpUnless(_, t) => vec![pc + 1, *t],
                InstrKind::Assign(..) | InstrKind::Spawn(..) | InstrKind::Assert(..) => {
                    vec![pc + 1]
                }
                _ => vec![],
            };
            exits.extend(targets.into_iter().filter(|t| !info.pcs.contains(t)));
        }
        let exits: Vec<Pc> = exits.into_iter().collect();
        if exits.len() == 1 {
            return Ok(vec![(st, exits[0])]);
        }
        let which = Lin::atom(IAtom::App(f(LoopOut::Exit), inputs));
        let mut out = Vec::new();
        for (i, t) in exits.iter().enumerate() {
            let mut s = st.clone();
            if s.assume(vec![Form::eq(which.add_const(-(i as Coef))?)]) {
                out.push((s, *t));
            }
        }
        Ok(out)
    }
}

fn reads_in(e: &Expr, locals: &mut BTreeSet<LocalId>, globals: &mut BTreeSet<GlobalId>) {
    e.globals_read(globals);
    e.walk(&mut |x| {
        if let ExprKind::Local(l) = x.kind {
            locals.insert(l);
        }
    });
}

/// Strongly connected components (Tarjan, iterative), each as a list of nodes.
fn tarjan(n: usize, succ: &dyn Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, Vec<usize>, usize)> = vec![(root, succ(root), 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((v, succs, i)) = call.last_mut() {
            let v = *v;
            if *i < succs.len() {
                let w = succs[*i];
                *i += 1;
                if w >= n {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, succ(w), 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some((u, _, _)) = call.last() {
                    low[*u] = low[*u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
    }
    out
}
