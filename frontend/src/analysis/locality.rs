//! Which blocks touch globals that depend on the global state, rather than on their
//! process's local state alone.
//!
//! Dynamic partial order reduction with the locations an event actually touched is
//! sound when that set is a property of the transition — of the process's local
//! state and its block — as it is for the single memory accesses of classic DPOR.
//! An atomic block that branches on a global it just read, indexes with it, or
//! short-circuits on it touches different locations in different global states: its
//! observed footprint is then a *conditional* independence, which Source-DPOR may not
//! rely on: relying on it misses traces on such blocks (the differential test
//! against naive shows them). The explorer gives the events of these blocks their
//! syntactic footprint instead.
//!
//! A taint analysis per block: values read from globals, and locals assigned from
//! them within the block, are tainted; locals hold their values from earlier blocks
//! untainted (they are local state). A block depends on the global state when a
//! tainted value decides a branch or loop, an index or key of a global access, or a
//! short-circuit or conditional whose skipped side reads globals.

use crate::ast::BinOp;
use crate::ir::{Block, Code, Expr, ExprKind, InstrKind, Place, Program};

/// For each block: its footprint may depend on the global state.
pub fn state_dependent_footprints(program: &Program) -> Vec<bool> {
    program
        .blocks
        .iter()
        .map(|b| depends_on_globals(&program.procs[b.proc as usize].code, b))
        .collect()
}

fn depends_on_globals(code: &Code, block: &Block) -> bool {
    let clean = vec![false; code.locals.len()];
    if let Some(g) = &block.guard {
        if controls(g, &clean) {
            return true;
        }
    }
    // Tainted locals on entry to each instruction of the block, to a fixed point.
    let mut at: Vec<Option<Vec<bool>>> = vec![None; code.instrs.len()];
    at[block.pc as usize] = Some(clean);
    let mut work = vec![block.pc as usize];
    while let Some(pc) = work.pop() {
        let Some(taint) = at[pc].clone() else {
            continue;
        };
        let mut out = taint.clone();
        let successors: Vec<usize> = match &code.instrs[pc].kind {
            InstrKind::Assign(place, e) => {
                if controls(e, &taint) || place_controls(place, &taint) {
                    return true;
                }
                match place {
                    Place::Local(l) => out[*l as usize] = tainted(e, &taint),
                    Place::LocalListElem(l, i) => {
                        out[*l as usize] |= tainted(e, &taint) || tainted(i, &taint);
                    }
                    _ => {}
                }
                vec![pc + 1]
            }
            InstrKind::JumpUnless(c, t) => {
                if tainted(c, &taint) || controls(c, &taint) {
                    return true;
                }
                vec![pc + 1, *t as usize]
            }
            InstrKind::Jump(t) => vec![*t as usize],
            InstrKind::Spawn(_, es) => {
                if es.iter().any(|e| controls(e, &taint)) {
                    return true;
                }
                vec![pc + 1]
            }
            InstrKind::Assert(c, _) => {
                if controls(c, &taint) {
                    return true;
                }
                vec![pc + 1]
            }
            InstrKind::Await(_) | InstrKind::Yield(_) | InstrKind::Return(_) => vec![],
        };
        for s in successors {
            let merged = match &at[s] {
                None => out.clone(),
                Some(old) => old.iter().zip(&out).map(|(a, b)| *a || *b).collect(),
            };
            if at[s].as_ref() != Some(&merged) {
                at[s] = Some(merged);
                work.push(s);
            }
        }
    }
    false
}

/// The place's index or key into a global is tainted: which element it writes depends
/// on the global state. (A list element write touches the whole list either way.) Or
/// the index, whatever it indexes, reads globals the global state decides (`l[c ? y :
/// z]`): what the index expression reads is part of the footprint too.
fn place_controls(place: &Place, taint: &[bool]) -> bool {
    match place {
        Place::ArrayElem(_, i) | Place::MapElem(_, i) => tainted(i, taint) || controls(i, taint),
        Place::GlobalListElem(_, i) | Place::LocalListElem(_, i) => controls(i, taint),
        Place::Global(_) | Place::Local(_) => false,
    }
}

/// The value of `e` depends on globals read in this block.
fn tainted(e: &Expr, taint: &[bool]) -> bool {
    match &e.kind {
        ExprKind::Global(_)
        | ExprKind::ArrayGet(..)
        | ExprKind::MapGet(..)
        | ExprKind::MapHas(..) => true,
        ExprKind::Local(l) => taint[*l as usize],
        ExprKind::Const(_) => false,
        _ => e.operands().any(|c| tainted(c, taint)),
    }
}

/// Which globals `e` reads depends on the global state.
fn controls(e: &Expr, taint: &[bool]) -> bool {
    let here = match &e.kind {
        ExprKind::ArrayGet(_, i) | ExprKind::MapGet(_, i) | ExprKind::MapHas(_, i) => {
            tainted(i, taint)
        }
        ExprKind::Binary(BinOp::And | BinOp::Or, l, r) => tainted(l, taint) && reads_globals(r),
        ExprKind::Cond(c, a, b) => tainted(c, taint) && (reads_globals(a) || reads_globals(b)),
        _ => false,
    };
    here || e.operands().any(|c| controls(c, taint))
}

fn reads_globals(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Global(_) | ExprKind::ArrayGet(..) | ExprKind::MapGet(..) | ExprKind::MapHas(..)
    ) || e.operands().any(reads_globals)
}

#[cfg(test)]
mod tests {
    fn flags(src: &str) -> Vec<(String, bool)> {
        let program = crate::load(src, &[]).unwrap();
        let flags = super::state_dependent_footprints(&program);
        program
            .blocks
            .iter()
            .map(|b| b.name.clone())
            .zip(flags)
            .collect()
    }

    #[test]
    fn what_an_index_reads_may_depend_on_the_state() {
        // `y` is read only where `z != z` (never, but the analysis does not know):
        // the element written is 0 either way, what the index reads is not. (The
        // array's index reads `y` whenever `i > 0`: which element is written depends
        // on it.)
        let src = "global int y = 0; global int z = 0; global list l = [0]; global int[2] a;
            proc list_elem() { l[abs(z != z ? y : z) % 1] = 0; }
            proc array_elem() { int i = 0; a[i + (i > 0 && y > 0 ? 1 : 0)] = 1; }
            proc plain() { l[0] = y; }
            init { }";
        assert_eq!(
            flags(src),
            [
                ("list_elem".to_string(), true),
                ("array_elem".to_string(), true),
                ("plain".to_string(), false),
            ]
        );
    }

    #[test]
    fn branches_on_globals_are_state_dependent() {
        let src = "global int x = 0; global int y = 0; global int[3] a; global map m;
            proc straight(int i) { x = y + 1; a[i] = x; m[i] = 2; }
            proc branch() { if (x > 0) { y = 1; } }
            proc via_local() { int t = x; yield; if (t > 0) { y = 1; } }
            proc tainted_local() { int t = x; if (t > 0) { y = 1; } }
            proc index() { a[x] = 1; }
            proc short() { await (x > 0 && y > 0); }
            proc short_local(bool c) { await (c && y > 0); }
            proc loop_on_global() { while (x < 3) { x = x + 1; } }
            init { }";
        let expected: Vec<(String, bool)> = [
            ("straight", false),
            ("branch", true),
            ("via_local", false),
            ("via_local#1", false),
            ("tainted_local", true),
            ("index", true),
            ("short", true),
            ("short_local", false),
            ("loop_on_global", true),
        ]
        .iter()
        .map(|(n, f)| (n.to_string(), *f))
        .collect();
        assert_eq!(flags(src), expected);
    }
}
