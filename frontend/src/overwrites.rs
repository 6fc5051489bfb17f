//! Dead globals, statically: which scalar globals a block surely overwrites before it
//! reads them, and which globals a proc's process (with every process it
//! may spawn, transitively) may ever read.
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

use crate::ir::{Block, Code, Expr, ExprKind, GlobalId, InstrKind, Place, Proc};

/// The scalar globals `block` surely overwrites: assigned (as a whole) within its
/// straight-line prefix (up to its first branch, `await`, `yield` or `return`),
/// before the prefix reads them. Empty for a guarded block, which may never run. In
/// increasing order.
pub fn overwrites(code: &Code, block: &Block) -> Vec<GlobalId> {
    let mut written = Vec::new();
    if block.guard.is_some() {
        return written;
    }
    let mut read = Vec::new();
    for instr in &code.instrs[block.pc as usize..] {
        match &instr.kind {
            InstrKind::Assign(Place::Global(g), e) => {
                expr_reads(e, &mut read);
                if !read.contains(g) && !written.contains(g) {
                    written.push(*g);
                }
            }
            kind @ (InstrKind::Assign(..) | InstrKind::Assert(..) | InstrKind::Spawn(..)) => {
                instr_reads(kind, &mut read)
            }
            // A branch may skip what follows; the others end the block.
            _ => break,
        }
    }
    written.sort_unstable();
    written
}

/// The globals each proc's process may read in any of its blocks (guards included),
/// with those of every proc it may spawn, transitively; in increasing order.
pub fn proc_reads(procs: &[Proc], blocks: &[Block]) -> Vec<Vec<GlobalId>> {
    let mut reads: Vec<Vec<GlobalId>> = procs
        .iter()
        .enumerate()
        .map(|(id, p)| {
            let mut r = Vec::new();
            for b in blocks.iter().filter(|b| b.proc as usize == id) {
                if let Some(g) = &b.guard {
                    expr_reads(g, &mut r);
                }
            }
            for instr in &p.code.instrs {
                instr_reads(&instr.kind, &mut r);
            }
            r
        })
        .collect();
    let spawns: Vec<Vec<usize>> = procs
        .iter()
        .map(|p| {
            p.code
                .instrs
                .iter()
                .filter_map(|i| match &i.kind {
                    InstrKind::Spawn(q, _) => Some(*q as usize),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // The closure over spawns: a fixpoint, as spawns may be recursive.
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..procs.len() {
            for &q in &spawns[p] {
                let theirs = reads[q].clone();
                for g in theirs {
                    if !reads[p].contains(&g) {
                        reads[p].push(g);
                        changed = true;
                    }
                }
            }
        }
    }
    for r in &mut reads {
        r.sort_unstable();
        r.dedup();
    }
    reads
}

/// The globals an instruction may read.
fn instr_reads(kind: &InstrKind, out: &mut Vec<GlobalId>) {
    match kind {
        InstrKind::Assign(place, e) => {
            expr_reads(e, out);
            match place {
                Place::Global(_) | Place::Local(_) => {}
                Place::ArrayElem(_, i) | Place::MapElem(_, i) | Place::LocalListElem(_, i) => {
                    expr_reads(i, out)
                }
                // Assigning one element of a global list reads the rest of it.
                Place::GlobalListElem(g, i) => {
                    out.push(*g);
                    expr_reads(i, out);
                }
            }
        }
        InstrKind::JumpUnless(e, _) | InstrKind::Assert(e, _) | InstrKind::Return(Some(e)) => {
            expr_reads(e, out)
        }
        InstrKind::Spawn(_, args) => args.iter().for_each(|a| expr_reads(a, out)),
        InstrKind::Jump(_)
        | InstrKind::Await(_)
        | InstrKind::Yield(_)
        | InstrKind::Return(None) => {}
    }
}

/// The globals an expression reads (a `fun` reads none: docs/language.md, "Funs").
fn expr_reads(e: &Expr, out: &mut Vec<GlobalId>) {
    match &e.kind {
        ExprKind::Global(g)
        | ExprKind::ArrayGet(g, _)
        | ExprKind::MapGet(g, _)
        | ExprKind::MapHas(g, _) => out.push(*g),
        _ => {}
    }
    for o in e.operands() {
        expr_reads(o, out);
    }
}
