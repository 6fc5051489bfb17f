//! The full tree: an algorithm's tree with what naive explored and the algorithm did
//! not, so that a picture shows the reduction (the dotted parts of CDPOR Fig. 1).
//! Nodes are matched by their path from the root — the steps, each a process identity
//! and a block — which is the same in both runs since identities are spawn paths.

use super::{NodeId, Tree};

impl Tree {
    /// Adds the nodes of `naive` (the tree of a naive run of the same program) that this
    /// tree lacks, unnumbered ([`super::Node::pruned`]), up to `limit` nodes in all.
    /// Children are put in naive's order, so that every algorithm's full tree has the
    /// same shape; the algorithm's own nodes that naive lacks (past a failure, where the
    /// DPOR searches go on and naive does not) come last.
    ///
    /// A final state where the algorithm stopped because the state was covered is a
    /// complete execution of the full tree, as naive counts it; the full tree thus has
    /// naive's `traces` complete leaves.
    pub fn with_pruned(mut self, naive: &Tree, limit: usize) -> Tree {
        if naive.truncated.is_some() {
            self.truncated = Some(limit);
        }
        let mut pairs: Vec<(NodeId, NodeId)> = vec![(0, 0)];
        while let Some((mine, theirs)) = pairs.pop() {
            let own = std::mem::take(&mut self.nodes[mine].children);
            let mut children = Vec::with_capacity(naive.nodes[theirs].children.len());
            for &c in &naive.nodes[theirs].children {
                let step = &naive.nodes[c].step;
                if let Some(&m) = own.iter().find(|&&m| self.nodes[m].step == *step) {
                    if self.nodes[m].end.is_none() {
                        self.nodes[m].end = naive.nodes[c].end;
                    }
                    pairs.push((m, c));
                    children.push(m);
                } else if self.nodes[mine].truncated {
                    // The algorithm's children here were not all recorded: what naive
                    // has may have been explored.
                } else {
                    children.extend(self.graft(mine, naive, c, limit));
                }
            }
            let unmatched: Vec<NodeId> =
                own.into_iter().filter(|m| !children.contains(m)).collect();
            children.extend(unmatched);
            self.nodes[mine].children = children;
        }
        self
    }

    /// Copies the subtree of `naive` at `root` under `parent`, unnumbered, as far as
    /// `limit` allows; the copy of `root`, or `None` when there is no room at all.
    fn graft(
        &mut self,
        parent: NodeId,
        naive: &Tree,
        root: NodeId,
        limit: usize,
    ) -> Option<NodeId> {
        let mut top = None;
        let mut todo = vec![(parent, root)];
        while let Some((under, theirs)) = todo.pop() {
            if self.nodes.len() >= limit {
                self.nodes[under].truncated = true;
                self.truncated = Some(limit);
                continue;
            }
            let id = self.nodes.len();
            let node = &naive.nodes[theirs];
            self.nodes.push(super::Node {
                parent: Some(under),
                step: node.step.clone(),
                number: None,
                changes: node.changes.clone(),
                children: Vec::new(),
                end: node.end,
                failure: node.failure.clone(),
                blocked: None,
                truncated: node.truncated,
                sleep: Vec::new(),
                backtrack: Vec::new(),
            });
            if under == parent {
                top = Some(id);
            } else {
                self.nodes[under].children.push(id);
            }
            // Reversed: the stack pops them in naive's order.
            todo.extend(node.children.iter().rev().map(|&c| (id, c)));
        }
        top
    }
}
