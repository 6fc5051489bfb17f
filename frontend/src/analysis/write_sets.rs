//! Read and write sets of blocks, and the transitive write sets `W(b)` of the CDPOR
//! paper (Sec. 3.2).
//!
//! `reads`/`writes` are the globals a block's code (its `await` guard included) may
//! read or write, syntactically. `may_write` is `W(b)`: every global that may be
//! written in any continuation of the point where `b` is enabled — by `b`, by the
//! later blocks of its process, by the processes it spawns, and by the blocks whose
//! `await` a write of it may unblock, transitively (a fixed point over the graph of
//! those relations). It over-approximates: under-approximating it is a soundness bug.

use crate::ir::{BlockId, BlockSets, GlobalId, InstrKind, Place, Program};
use std::collections::BTreeSet;

/// The read, write and transitive write sets of every block, indexed by block id:
/// [`Program::sets`], which the checker fills in with them.
pub(crate) fn write_sets(program: &Program) -> Vec<BlockSets> {
    let mut sets: Vec<BlockSets> = program
        .blocks
        .iter()
        .enumerate()
        .map(|(id, b)| {
            let code = &program.procs[b.proc as usize].code;
            let mut s = BlockSets::default();
            if let Some(g) = &b.guard {
                g.globals_read(&mut s.guard_reads);
                s.reads.extend(s.guard_reads.iter().copied());
            }
            for pc in program.block_pcs(id as BlockId) {
                let kind = &code.instrs[pc as usize].kind;
                kind.for_each_expr(&mut |e| e.globals_read(&mut s.reads));
                match kind {
                    InstrKind::Assign(place, _) => match place {
                        Place::Global(g) | Place::ArrayElem(g, _) | Place::MapElem(g, _) => {
                            s.writes.insert(*g);
                        }
                        Place::GlobalListElem(g, _) => {
                            s.reads.insert(*g);
                            s.writes.insert(*g);
                        }
                        Place::Local(_) | Place::LocalListElem(..) => {}
                    },
                    InstrKind::Spawn(p, _) => {
                        s.spawns.insert(*p);
                    }
                    InstrKind::Await(n) | InstrKind::Yield(n) => {
                        s.next.insert(*n);
                    }
                    _ => {}
                }
            }
            s
        })
        .collect();
    // Guard reads of each block, for "a write may unblock it".
    let guard_reads: Vec<BTreeSet<GlobalId>> = sets.iter().map(|s| s.guard_reads.clone()).collect();
    let successors: Vec<BTreeSet<BlockId>> = sets
        .iter()
        .map(|s| {
            let mut out = s.next.clone();
            out.extend(s.spawns.iter().map(|p| program.procs[*p as usize].entry));
            for (c, reads) in guard_reads.iter().enumerate() {
                if !reads.is_disjoint(&s.writes) {
                    out.insert(c as BlockId);
                }
            }
            out
        })
        .collect();
    for b in 0..sets.len() {
        let mut seen = BTreeSet::new();
        let mut stack = vec![b as BlockId];
        let mut w = BTreeSet::new();
        while let Some(c) = stack.pop() {
            if !seen.insert(c) {
                continue;
            }
            w.extend(sets[c as usize].writes.iter().copied());
            stack.extend(successors[c as usize].iter().copied());
        }
        sets[b].may_write = w;
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fig1() {
        let src = "global int x = -2; global int z = -2;
            proc p() { x = x + 1; }
            proc q() { if (z >= 0) { z = x; } }
            proc r() { x = x + 1; z = z + 1; }
            init { spawn p(); spawn q(); spawn r(); }";
        let p = crate::load(src, &[]).expect("loads");
        let sets = &p.sets;
        assert_eq!(sets[0].may_write, BTreeSet::from([0]));
        assert_eq!(sets[1].reads, BTreeSet::from([0, 1]));
        assert_eq!(sets[1].writes, BTreeSet::from([1]));
        assert_eq!(sets[2].may_write, BTreeSet::from([0, 1]));
    }

    #[test]
    fn follows_spawns_later_blocks_and_unblocked_awaits() {
        let src = "global int a; global int b; global int c; global int d;
            proc p() { a = 1; yield; spawn s(); }
            proc s() { b = 1; }
            proc w() { await (a == 1); c = 1; }
            proc u() { d = 1; }
            init { spawn p(); spawn w(); spawn u(); }";
        let p = crate::load(src, &[]).expect("loads");
        let sets = &p.sets;
        let pb = p.block_by_name("p").expect("block p");
        assert_eq!(sets[pb as usize].may_write, BTreeSet::from([0, 1, 2]));
    }
}
