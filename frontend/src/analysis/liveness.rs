//! Live locals at block entry points: the locals whose current value may still be
//! read before being overwritten. Two processes at the same block that differ only
//! in dead locals behave the same, so state comparison looks at live locals only.
//!
//! Classic backward data-flow over a proc's flat code; `await`/`yield` continue at
//! their block's entry, whose guard reads count as uses there.

use crate::ir::{Block, Code, Expr, ExprKind, InstrKind, LocalId, Place};

/// For each block of one proc (indexed as the proc's own `Await`/`Yield` targets:
/// entry block 0, then `#1`, `#2`, …), its live locals, in increasing order.
pub fn live_at_blocks(code: &Code, blocks: &[Block]) -> Vec<Vec<LocalId>> {
    let n = code.instrs.len();
    let mut live_in: Vec<Vec<bool>> = vec![vec![false; code.locals.len()]; n + 1];
    let guard_uses: Vec<Vec<LocalId>> = blocks
        .iter()
        .map(|b| {
            let mut uses = Vec::new();
            if let Some(g) = &b.guard {
                expr_uses(g, &mut uses);
            }
            uses
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for pc in (0..n).rev() {
            let instr = &code.instrs[pc];
            let mut out = vec![false; code.locals.len()];
            let mut join = |from: &[bool]| {
                for (o, f) in out.iter_mut().zip(from) {
                    *o |= *f;
                }
            };
            let mut uses = Vec::new();
            let mut def = None;
            match &instr.kind {
                InstrKind::Assign(place, e) => {
                    join(&live_in[pc + 1]);
                    expr_uses(e, &mut uses);
                    match place {
                        Place::Local(l) => def = Some(*l),
                        Place::LocalListElem(l, i) => {
                            uses.push(*l);
                            expr_uses(i, &mut uses);
                        }
                        Place::ArrayElem(_, i)
                        | Place::MapElem(_, i)
                        | Place::GlobalListElem(_, i) => expr_uses(i, &mut uses),
                        Place::Global(_) => {}
                    }
                }
                InstrKind::Jump(t) => join(&live_in[*t as usize]),
                InstrKind::JumpUnless(c, t) => {
                    join(&live_in[pc + 1]);
                    join(&live_in[*t as usize]);
                    expr_uses(c, &mut uses);
                }
                InstrKind::Spawn(_, args) => {
                    join(&live_in[pc + 1]);
                    args.iter().for_each(|a| expr_uses(a, &mut uses));
                }
                InstrKind::Assert(c, _) => {
                    join(&live_in[pc + 1]);
                    expr_uses(c, &mut uses);
                }
                InstrKind::Await(b) | InstrKind::Yield(b) => {
                    join(&live_in[blocks[*b as usize].pc as usize]);
                    uses.extend(&guard_uses[*b as usize]);
                }
                InstrKind::Return(e) => {
                    if let Some(e) = e {
                        expr_uses(e, &mut uses);
                    }
                }
            }
            if let Some(d) = def {
                out[d as usize] = false;
            }
            for u in uses {
                out[u as usize] = true;
            }
            if out != live_in[pc] {
                live_in[pc] = out;
                changed = true;
            }
        }
    }
    blocks
        .iter()
        .zip(&guard_uses)
        .map(|(b, guard)| {
            let mut live: Vec<LocalId> = live_in[b.pc as usize]
                .iter()
                .enumerate()
                .filter(|(_, l)| **l)
                .map(|(i, _)| i as LocalId)
                .collect();
            live.extend(guard);
            live.sort_unstable();
            live.dedup();
            live
        })
        .collect()
}

/// The locals an expression reads.
fn expr_uses(e: &Expr, out: &mut Vec<LocalId>) {
    e.walk(&mut |x| {
        if let ExprKind::Local(l) = x.kind {
            out.push(l);
        }
    });
}
