//! The local states each block may start with, in every execution from a given
//! state: what an event of that block can be, as far as its process is concerned.
//!
//! From the processes of the initial state, every block is analysed with its local
//! state as [`crate::analysis::may_touch`] does (every value read from a global unknown): the
//! blocks its process may go on to and the processes it may spawn, with their local
//! states, are added in turn. The result is exact when the control flow that leads to
//! them and the values they carry depend on locals alone — the usual shape of the
//! actor programs (a task's arguments computed by its caller from its own arguments,
//! `for i in 0..N { spawn worker(i); }`). Where a live local or a spawn argument
//! depends on the global state, or the states exceed a limit, there is no result:
//! the callers then know nothing about the events.
//!
//! It is a superset of the local states the searches meet, since the analysis of a
//! block leads everywhere the block may lead in any global state (a failed block leads
//! nowhere, which the superset allows).

use crate::analysis::may_touch;
use crate::interp::Machine;
use crate::ir::{BlockId, Program};
use crate::memory::Memory;
use crate::value::Value;
use std::collections::HashSet;

/// Per block, the local states it may start with (every local, dead ones zero).
#[derive(Clone, Debug)]
pub struct LocalStates {
    blocks: Vec<Vec<Vec<Value>>>,
}

impl LocalStates {
    /// The local states from the processes `roots` (each at a block, with its locals),
    /// or `None` (see the module's doc); at most `limit` of them in all.
    pub fn reachable(
        machine: &Machine<'_>,
        mem: &Memory,
        roots: &[(BlockId, Vec<Value>)],
        limit: usize,
    ) -> Option<LocalStates> {
        let program = machine.program;
        let mut seen: HashSet<(BlockId, Vec<Value>)> = HashSet::new();
        let mut work: Vec<(BlockId, Vec<Value>)> = Vec::new();
        let mut add = |block: BlockId, locals: Vec<Value>, work: &mut Vec<_>| -> Option<()> {
            let key = (block, zero_dead(program, block, locals));
            if seen.len() >= limit {
                return None;
            }
            if seen.insert(key.clone()) {
                work.push(key);
            }
            Some(())
        };
        for (block, locals) in roots {
            add(*block, locals.clone(), &mut work)?;
        }
        while let Some((block, locals)) = work.pop() {
            let next = may_touch::successors(machine, mem, block, &locals)?;
            for (to, locals) in next.next {
                let live = &program.blocks[to as usize].live;
                let locals: Vec<Value> = locals
                    .into_iter()
                    .enumerate()
                    .map(|(l, v)| match v {
                        Some(v) => Some(v),
                        None if live.contains(&(l as u32)) => None,
                        // A dead local's value is never read: any will do.
                        None => Some(Value::Int(0)),
                    })
                    .collect::<Option<_>>()?;
                add(to, locals, &mut work)?;
            }
            for (proc, args) in next.spawns {
                let args = args.into_iter().collect::<Option<Vec<Value>>>()?;
                let entry = program.procs[proc as usize].entry;
                add(entry, machine.spawn_frame(proc, args), &mut work)?;
            }
        }
        let mut blocks = vec![Vec::new(); program.blocks.len()];
        for (block, locals) in seen {
            blocks[block as usize].push(locals);
        }
        Some(LocalStates { blocks })
    }

    /// The local states `block` may start with.
    pub fn of(&self, block: BlockId) -> &[Vec<Value>] {
        &self.blocks[block as usize]
    }
}

/// The locals with the dead ones (at `block`'s start) set to the zero of their type:
/// states that differ only there lead to the same events.
fn zero_dead(program: &Program, block: BlockId, mut locals: Vec<Value>) -> Vec<Value> {
    let live = &program.blocks[block as usize].live;
    for (l, v) in locals.iter_mut().enumerate() {
        if !live.contains(&(l as u32)) {
            *v = Value::zero(v.ty());
        }
    }
    locals
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::interp::Limits;

    /// The memory after `init` and the processes it spawned, at their entry blocks.
    pub(crate) fn after_init(machine: &Machine<'_>) -> (Memory, Vec<(BlockId, Vec<Value>)>) {
        let program = machine.program;
        let mut mem = Memory::initial(program);
        let spawned = machine.run_init(&mut mem).expect("init runs");
        let roots = spawned
            .into_iter()
            .map(|(proc, args)| {
                let entry = program.procs[proc as usize].entry;
                (entry, machine.spawn_frame(proc, args))
            })
            .collect();
        (mem, roots)
    }

    fn states(source: &str) -> (Program, Option<LocalStates>) {
        let program = crate::load(source, &[]).expect("loads");
        let machine = Machine::new(&program, Limits::default());
        let (mem, roots) = after_init(&machine);
        let states = LocalStates::reachable(&machine, &mem, &roots, 1000);
        (program, states)
    }

    fn ints(states: &LocalStates, program: &Program, block: &str, local: usize) -> Vec<i64> {
        let block = program.block_by_name(block).expect("block");
        let mut v: Vec<i64> = states.of(block).iter().map(|l| l[local].int()).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn spawn_arguments_computed_from_locals() {
        let (p, s) = states(
            "global int acc = 0;
             fun sq(int i) -> int { return i * i; }
             proc start() { for i in 0..4 { spawn work(i); } }
             proc work(int i) { int t = acc; acc = t + 1; spawn add(sq(i)); await (acc > 100); acc = i; }
             proc add(int p) { acc = acc + p; }
             init { spawn start(); }",
        );
        let s = s.expect("every live value comes from locals");
        assert_eq!(ints(&s, &p, "add", 0), [0, 1, 4, 9]);
        assert_eq!(ints(&s, &p, "work", 0), [0, 1, 2, 3]);
        // After the await: `i` as it was; `t`, read from a global, is dead there.
        let after = p
            .blocks
            .iter()
            .position(|b| {
                b.proc == p.blocks[p.block_by_name("work").expect("block") as usize].proc
                    && b.guard.is_some()
            })
            .expect("the await's block") as BlockId;
        let mut v: Vec<Vec<Value>> = s.of(after).to_vec();
        v.sort_by_key(|l| l[0].int());
        assert_eq!(v.len(), 4);
        assert!(v
            .iter()
            .enumerate()
            .all(|(k, l)| l[0] == Value::Int(k as i64) && l[1] == Value::Int(0)));
    }

    #[test]
    fn a_live_local_read_from_a_global_gives_no_result() {
        let (_, s) = states(
            "global int x = 0;
             proc p() { int v = x; yield; x = v + 1; }
             init { spawn p(); }",
        );
        assert!(s.is_none());
    }
}
