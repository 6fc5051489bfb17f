//! Sequences forwarded into branches already being explored, in an optimal search
//! whose threads share the top of its tree ([`crate::parallel::shared_top`]).
//!
//! On one thread, Optimal-DPOR explores the branches of a node one after the other:
//! a sequence that a race in the subtree of one branch inserts at the node, and
//! whose weak initial is a later branch, joins that branch's subtree in the wakeup
//! tree before the branch starts, and guides its exploration (JACM Alg. 2, lines
//! 7–8, 14 and 17; `insert_[E](v, wut)`, Sec. 6.2). Here the later branch may have
//! started: each job inserts at a node of the top as its own branch there met the
//! node (the sleep set it started with, `Held::lend`), and a sequence that goes
//! below a branch started after it follows that branch down, as the insertion
//! would have gone had it come first: through the nodes of the top it reached
//! (`Top::forward_into`), then to the job exploring below them, which walks its own
//! path ([`Dpor::receive_forwarded`]).
//!
//! Why it explores every trace: forwarding only guides. A branch started while an
//! earlier sibling is still explored has that sibling asleep as
//! [`Ending::Running`](super::sleep::Ending::Running): it covers the sequences it
//! runs in (their traces start with it: its own subtree explores them, whatever
//! reaches it from elsewhere), not those it is beside, whose coverage needs the very
//! sequences its subtree forwards (`shared_top::Held::lend` says why). So a branch's
//! subtree explores every trace that starts with it and that no process asleep at
//! its node, on those terms, is a weak initial of, with or without what is
//! forwarded to it; a forwarded sequence that finds a branch explored to its end
//! where it should go is dropped, as that branch's subtree covers it.
//! The sleep sets still hold every branch started before: no trace is completed
//! twice (the differential test compares odpor's complete executions with naive's
//! count of traces on two threads).

use super::race_analysis::entry;
use super::wakeup_tree::Leaves;
use super::{Dpor, Reduction};
use crate::exploration::Exploration;

impl<R: Reduction> Dpor<R> {
    /// The sequences forwarded to this job (for the node its branch reached, at
    /// their depth): each goes down the current path from there as JACM's
    /// `insert_[E](v, wut)` would have gone had it come before that node's branches
    /// were explored ([`WakeupTree::insert_beside_started`], over the branches
    /// explored from each node, then the one being explored): below the leftmost
    /// whose process is a weak initial of what remains of it — where that branch is
    /// explored to its end, its subtree covers the sequence and it is dropped; where
    /// it is the branch being explored, it goes on down — or, if none is, into the
    /// node's tree. One for a node this job gave to the top since it was sent goes
    /// there.
    ///
    /// [`WakeupTree::insert_beside_started`]: super::wakeup_tree::WakeupTree::insert_beside_started
    pub(super) fn receive_forwarded(&mut self, run: &mut Exploration<'_, '_>) {
        let program = run.ex.program();
        let carry = self.dependency.carry();
        for (depth, mut v) in run.forwarded() {
            let mut independent = self.dependency.lifting(program);
            if depth < self.floor {
                run.forward_above(depth, v, &mut independent);
                continue;
            }
            for d in depth..=self.depth {
                let node = &mut self.nodes[d];
                // The branches explored from node `d`, then the one being explored
                // (its event is the `d`-th), read in place rather than copied for each
                // sequence forwarded: a node may have explored many.
                let current = (d < self.depth).then(|| entry(&run.ex, d, false, carry));
                let children = node.explored.len() + usize::from(current.is_some());
                match node.wut.insert_beside_started(
                    node.explored.iter().chain(&current),
                    v,
                    &mut independent,
                    Leaves::default(),
                ) {
                    Ok(added) => {
                        self.wakeup_steps += added;
                        run.stats.pruning.wakeup_inserted += 1;
                    }
                    Err((i, rest)) if i + 1 == children && d < self.depth => {
                        v = rest;
                        continue;
                    }
                    Err(_) => {}
                }
                break;
            }
        }
    }
}
