//! Dead globals, statically: which scalar globals a block surely overwrites before it
//! reads them, and which globals a proc's process (with every process it may spawn,
//! transitively) may ever read.
//!
//! A state's value of a global `g` is **dead** when some process's next block
//! overwrites `g` unguarded and no other live process may ever read `g`: nothing can
//! disable that block, so every complete execution from that state runs it; nothing
//! reads `g` before its write (the block's straight-line prefix writes `g` before
//! reading it; no other process reads `g` at all). If the block fails instead, its
//! write is undone, but an execution with a failure records no final state and no
//! deadlock (its violation reads nothing of `g`). Two states that differ only in dead
//! values then run the same events with the same reads, and are equal once the write
//! is done: the explorers' state checks compare states modulo dead values
//! (`State::check_fingerprint`).

use crate::ir::{Block, BlockSets, Code, GlobalId, InstrKind, Place};
use std::collections::BTreeSet;

/// The scalar globals `block` surely overwrites: assigned (as a whole) within its
/// straight-line prefix (up to its first branch, `await`, `yield` or `return`),
/// before the prefix reads them. Empty for a guarded block, which may never run. In
/// increasing order.
pub fn overwrites(code: &Code, block: &Block) -> Vec<GlobalId> {
    let mut written = BTreeSet::new();
    if block.guard.is_some() {
        return Vec::new();
    }
    let mut read = BTreeSet::new();
    for instr in &code.instrs[block.pc as usize..] {
        let kind = &instr.kind;
        if !matches!(
            kind,
            InstrKind::Assign(..) | InstrKind::Assert(..) | InstrKind::Spawn(..)
        ) {
            // A branch may skip what follows; the others end the block.
            break;
        }
        kind.for_each_expr(&mut |e| e.globals_read(&mut read));
        match kind {
            InstrKind::Assign(Place::Global(g), _) if !read.contains(g) => {
                written.insert(*g);
            }
            // Assigning one element of a global list reads the rest of it.
            InstrKind::Assign(Place::GlobalListElem(g, _), _) => {
                read.insert(*g);
            }
            _ => {}
        }
    }
    written.into_iter().collect()
}

/// The globals each proc's process may read in any of its blocks (guards included),
/// with those of every proc it may spawn, transitively; in increasing order. From
/// the blocks' read sets and spawns (`sets`, indexed by block, of `blocks`).
pub fn proc_reads(procs: usize, blocks: &[Block], sets: &[BlockSets]) -> Vec<Vec<GlobalId>> {
    let mut reads = vec![BTreeSet::new(); procs];
    let mut spawns = vec![BTreeSet::new(); procs];
    for (b, s) in blocks.iter().zip(sets) {
        reads[b.proc as usize].extend(s.reads.iter().copied());
        spawns[b.proc as usize].extend(s.spawns.iter().map(|&q| q as usize));
    }
    // The closure over spawns: a fixpoint, as spawns may be recursive.
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..procs {
            for &q in &spawns[p] {
                if q != p && !reads[q].is_subset(&reads[p]) {
                    let theirs = reads[q].clone();
                    reads[p].extend(theirs);
                    changed = true;
                }
            }
        }
    }
    reads.into_iter().map(|r| r.into_iter().collect()).collect()
}
