//! Running flat code symbolically, path by path: each instruction on each path,
//! branches splitting them, until the block (or an inlined `fun`) ends.

use super::eval::env_of;
use super::state::{GlobalVal, LoopVisits, SpawnKind, Spawned, State};
use super::term::{Form, Slot, Val};
use super::{within_budget, Abort, Analysed, Exec, Visit, MAX_CONCRETE_ITERATIONS, MAX_PATHS};
use crate::ir::{BlockId, Code, Expr, InstrKind, Pc, Place, ProcId};

impl Exec<'_> {
    pub(super) fn exec(
        &self,
        code: &Code,
        proc: Option<ProcId>,
        start: Pc,
        slot: Slot,
        st: State,
        depth: u32,
    ) -> Analysed<Vec<(State, Exit)>> {
        let mut work = vec![(start, st)];
        let mut done = Vec::new();
        while let Some((pc, st)) = work.pop() {
            if work.len() + done.len() > MAX_PATHS {
                return Err(Abort::TooManyPaths);
            }
            let mut st = st;
            if let Some(p) = proc {
                if let Some(&l) = self.loops[p as usize].of_pc.get(&pc) {
                    self.loop_seen.set(true);
                    let path_len = st.path.len();
                    let v = match st.visits.iter_mut().find(|v| v.pc == pc) {
                        Some(v) => {
                            v.total += 1;
                            if v.path_len != path_len {
                                v.symbolic += 1;
                            }
                            v.path_len = path_len;
                            *v
                        }
                        None => {
                            let v = LoopVisits {
                                pc,
                                total: 1,
                                symbolic: 1,
                                path_len,
                            };
                            st.visits.push(v);
                            v
                        }
                    };
                    let unroll = self.unroll.get();
                    if unroll == 0 || v.symbolic > unroll || v.total > MAX_CONCRETE_ITERATIONS {
                        for (mut s, next) in self.abstract_loop(p, l, pc, slot, st)? {
                            // Leaving the loop: a later loop starts afresh.
                            let pcs = &self.loops[p as usize].loops[l].pcs;
                            s.visits.retain(|v| !pcs.contains(&v.pc));
                            work.push((next, s));
                        }
                        continue;
                    }
                }
            }
            let instr = &code.instrs[pc as usize];
            let locals = slot as usize;
            match &instr.kind {
                InstrKind::Assign(place, e) => {
                    for (s, ()) in self.assign(place, e, slot, st, depth)? {
                        work.push((pc + 1, s));
                    }
                }
                InstrKind::Jump(t) => work.push((*t, st)),
                InstrKind::JumpUnless(c, t) => {
                    let cases = self.eval(c, &env_of(&st, locals), depth)?;
                    for (conds, v) in cases {
                        let f = v.bool().clone();
                        let mut yes = st.clone();
                        let mut cy = conds.clone();
                        cy.push(f.clone());
                        if yes.assume(cy) {
                            work.push((pc + 1, yes));
                        }
                        let mut no = st.clone();
                        let mut cn = conds;
                        cn.push(f.not());
                        if no.assume(cn) {
                            work.push((*t, no));
                        }
                    }
                }
                InstrKind::Spawn(p, args) => {
                    let cases = self.eval_all(args, &env_of(&st, locals), depth)?;
                    for (conds, vals) in cases {
                        let mut s = st.clone();
                        if s.assume(conds) {
                            s.spawns.push(Spawned {
                                by: slot,
                                what: SpawnKind::Proc(*p, vals),
                            });
                            work.push((pc + 1, s));
                        }
                    }
                }
                InstrKind::Assert(c, _) => {
                    let cases = self.eval(c, &env_of(&st, locals), depth)?;
                    for (mut conds, v) in cases {
                        conds.push(v.bool().clone());
                        let mut s = st.clone();
                        if s.assume(conds) {
                            work.push((pc + 1, s));
                        }
                    }
                }
                InstrKind::Await(b) | InstrKind::Yield(b) => done.push((st, Exit::Block(*b))),
                InstrKind::Return(None) => {
                    if proc.is_some() {
                        done.push((st, Exit::End));
                    }
                    // In a fun: it ended without `return e;`, a runtime error.
                }
                InstrKind::Return(Some(e)) => {
                    let cases = self.eval(e, &env_of(&st, locals), depth)?;
                    for (conds, v) in cases {
                        within_budget([&v as &dyn Visit])?;
                        let mut s = st.clone();
                        if s.assume(conds) {
                            done.push((s, Exit::Value(v)));
                        }
                    }
                }
            }
        }
        st_drop_false(&mut done);
        Ok(done)
    }

    fn assign(
        &self,
        place: &Place,
        e: &Expr,
        slot: Slot,
        st: State,
        depth: u32,
    ) -> Analysed<Vec<(State, ())>> {
        let l = slot as usize;
        let mut out = Vec::new();
        for (conds, v) in self.eval(e, &env_of(&st, l), depth)? {
            within_budget([&v as &dyn Visit])?;
            let mut st = st.clone();
            if !st.assume(conds) {
                continue;
            }
            match place {
                Place::Local(x) => {
                    st.locals[l][*x as usize] = v;
                    out.push((st, ()));
                }
                Place::Global(g) => {
                    st.globals[*g as usize] = GlobalVal::Scalar(v);
                    out.push((st, ()));
                }
                Place::ArrayElem(g, i) => {
                    for (c, iv) in self.eval(i, &env_of(&st, l), depth)? {
                        let idx = iv.int().clone();
                        within_budget([&idx as &dyn Visit])?;
                        let mut s = st.clone();
                        let mut c = c;
                        c.extend(self.in_bounds(*g, &idx)?);
                        if !s.assume(c) {
                            continue;
                        }
                        if let GlobalVal::Array(a) = &mut s.globals[*g as usize] {
                            a.log.retain(|(k, _)| *k != idx);
                            a.log.push((idx, v.clone()));
                        }
                        out.push((s, ()));
                    }
                }
                Place::MapElem(g, k) => {
                    for (c, kv) in self.eval(k, &env_of(&st, l), depth)? {
                        let key = kv.int().clone();
                        within_budget([&key as &dyn Visit])?;
                        let mut s = st.clone();
                        if !s.assume(c) {
                            continue;
                        }
                        if let GlobalVal::Map(m) = &mut s.globals[*g as usize] {
                            m.log.retain(|(k, _)| *k != key);
                            m.log.push((key, v.int().clone()));
                        }
                        out.push((s, ()));
                    }
                }
                Place::GlobalListElem(g, i) | Place::LocalListElem(g, i) => {
                    let global = matches!(place, Place::GlobalListElem(..));
                    for (c, iv) in self.eval(i, &env_of(&st, l), depth)? {
                        let list = if global {
                            match &st.globals[*g as usize] {
                                GlobalVal::Scalar(v) => v.list().clone(),
                                _ => unreachable!("list global"),
                            }
                        } else {
                            st.locals[l][*g as usize].list().clone()
                        };
                        for (c2, new) in self.list_set(&list, iv.int(), &v)? {
                            within_budget([&new as &dyn Visit])?;
                            let mut s = st.clone();
                            let mut cs = c.clone();
                            cs.extend(c2);
                            if !s.assume(cs) {
                                continue;
                            }
                            if global {
                                s.globals[*g as usize] = GlobalVal::Scalar(Val::List(new));
                            } else {
                                s.locals[l][*g as usize] = Val::List(new);
                            }
                            out.push((s, ()));
                        }
                    }
                }
            }
        }
        if out.len() > MAX_PATHS {
            return Err(Abort::TooManyPaths);
        }
        Ok(out)
    }
}

/// How a run of code ended.
#[derive(Clone, Debug)]
pub(super) enum Exit {
    Block(BlockId),
    End,
    Value(Val),
}

fn st_drop_false(done: &mut Vec<(State, Exit)>) {
    done.retain(|(s, _)| !s.path.contains(&Form::False));
}
