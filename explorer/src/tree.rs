//! The execution tree of a run, as the papers draw it (CDPOR Fig. 1, ODPOR_cs^ob
//! Fig. 2): states as nodes numbered in exploration order, the block each process ran
//! on the edges, the sleep and backtrack sets each node was left with, and how each
//! execution ended. People learning, teaching and debugging DPOR read that picture
//! more easily than counters.
//!
//! A tree is recorded only when asked ([`crate::Config::tree`]): the recorder
//! (`recorder.rs`) hangs off the exploration as an `Option`, so a run without a tree
//! pays one branch per event. [`Tree::with_pruned`] (in
//! `merge.rs`) adds what naive explores and an algorithm pruned, so that the
//! reduction is visible. Drawing is the command line's business.

mod merge;
mod recorder;

pub(crate) use recorder::Recorder;

use crate::pid::Pid;
use frontend::ir::{BlockId, ProcId, Program};
use rustc_hash::FxHashSet;

/// Index of a node in [`Tree::nodes`]; the root is 0.
pub type NodeId = usize;

/// What to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeConfig {
    /// The tree stops growing at this many nodes; the exploration goes on (see
    /// [`Tree::truncated`]).
    pub limit: usize,
    /// Stop the exploration once the tree is full: for a run made only for its
    /// picture (the naive reference run of `ic-check --tree-full`).
    pub halt_when_full: bool,
}

/// A process as the tree names it. Identities are the same in every interleaving and
/// in every algorithm's run, so trees of different runs can be merged by them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Process {
    pub pid: Pid,
    pub proc: ProcId,
}

/// An edge: `process` ran `block`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub process: Process,
    pub block: BlockId,
}

/// An entry of a sleep set: a sequence of processes (see [`crate::dpor::sleep`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sleeping {
    pub processes: Vec<Process>,
    pub ending: SleepEnding,
}

/// What the last step of a sleep entry does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SleepEnding {
    /// It is asleep.
    Asleep,
    /// It runs, then the execution is blocked: the state is covered (proved equal).
    Blocks,
    /// It runs, then the execution is blocked if it reaches the state it was recorded
    /// with (csdpor's lazy state check).
    BlocksIfReaching,
}

/// How an execution ended at a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A complete execution (a trace): no process is enabled and all have ended.
    Complete,
    /// A complete execution in which some process has not ended.
    Deadlock,
    /// A final state of an execution with an earlier failed event: no trace (the DPOR
    /// searches go on past a failure, see [`crate::executor::Executor::step`]).
    AfterFailure,
}

/// Why the algorithm abandoned an execution (counted as `blocked`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Every enabled process was asleep.
    Asleep,
    /// An anticipating cut (CSDPOR Sec. 5.3): a sleeping step can never wake.
    Cut,
    /// The step into this node ended a sleep sequence justified by state equality.
    Covered,
}

/// One global location whose value differs from the parent's (`x`, `a[2]`, `m[7]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub location: String,
    pub value: String,
}

#[derive(Clone, Debug, Default)]
pub struct Node {
    pub parent: Option<NodeId>,
    /// The event into this node (`None` at the root).
    pub step: Option<Step>,
    /// Position in exploration order (root 0); `None` for a node the algorithm did not
    /// explore (added by [`Tree::with_pruned`]).
    pub number: Option<u32>,
    /// The globals the step changed; at the root, every global's initial value.
    pub changes: Vec<Change>,
    pub children: Vec<NodeId>,
    pub end: Option<End>,
    /// The step into this node failed with this message (assertion or runtime error).
    pub failure: Option<String>,
    pub blocked: Option<Blocked>,
    /// Children past the tree's size limit were not recorded.
    pub truncated: bool,
    /// The sleep set the algorithm left the node with.
    pub sleep: Vec<Sleeping>,
    /// The backtrack set the algorithm left the node with.
    pub backtrack: Vec<Process>,
}

impl Node {
    /// Explored by naive only: the algorithm pruned it.
    pub fn pruned(&self) -> bool {
        self.number.is_none()
    }

    /// A leaf that ends a complete execution (deadlocks included).
    pub fn complete(&self) -> bool {
        matches!(self.end, Some(End::Complete | End::Deadlock))
    }
}

#[derive(Clone, Debug)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// Procedure names by [`ProcId`], block names by [`BlockId`].
    pub procs: Vec<String>,
    pub blocks: Vec<String>,
    /// The tree stopped growing at this many nodes (the exploration went on).
    pub truncated: Option<usize>,
}

impl Tree {
    /// A tree of one node, the root, for the names and values of `program`.
    fn new(program: &Program, root: Node) -> Tree {
        Tree {
            nodes: vec![root],
            procs: program.procs.iter().map(|p| p.name.clone()).collect(),
            blocks: program.blocks.iter().map(|b| b.name.clone()).collect(),
            truncated: None,
        }
    }

    /// Complete executions in the tree: as many as the run's `traces` (naive's, with
    /// [`Tree::with_pruned`]).
    pub fn complete_leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.complete()).count()
    }

    /// How to name processes in this tree (see [`Names`]).
    pub fn names(&self) -> Names<'_> {
        let mut pids: FxHashSet<&Process> = FxHashSet::default();
        for node in &self.nodes {
            pids.extend(node.step.as_ref().map(|s| &s.process));
            pids.extend(node.backtrack.iter());
            pids.extend(node.sleep.iter().flat_map(|s| &s.processes));
        }
        let mut runs = vec![0u32; self.procs.len()];
        for p in pids {
            if let Some(n) = runs.get_mut(p.proc as usize) {
                *n += 1;
            }
        }
        Names {
            tree: self,
            ambiguous: runs.iter().map(|&n| n > 1).collect(),
        }
    }

    /// The steps from the root to `id`, oldest first.
    pub fn path(&self, id: NodeId) -> Vec<&Step> {
        let mut steps = Vec::new();
        let mut at = id;
        while let Some(node) = self.nodes.get(at) {
            steps.extend(node.step.as_ref());
            match node.parent {
                Some(p) => at = p,
                None => break,
            }
        }
        steps.reverse();
        steps
    }
}

/// Names as schedules write them (`p`, `worker@1.2`), decided once for the whole tree:
/// a proc's name alone when only one process runs it anywhere in the tree.
pub struct Names<'t> {
    tree: &'t Tree,
    ambiguous: Vec<bool>,
}

impl Names<'_> {
    fn proc_name(&self, proc: ProcId) -> &str {
        self.tree
            .procs
            .get(proc as usize)
            .map_or("?", String::as_str)
    }

    fn qualified(&self, p: &Process) -> bool {
        self.ambiguous.get(p.proc as usize).copied().unwrap_or(true)
    }

    /// A process, as a schedule step.
    pub fn process(&self, p: &Process) -> String {
        let name = self.proc_name(p.proc);
        if self.qualified(p) {
            format!("{name}@{}", p.pid)
        } else {
            name.to_string()
        }
    }

    /// An edge: the block run (`q#1`), with the process when the name alone is ambiguous.
    pub fn step(&self, s: &Step) -> String {
        let block = self
            .tree
            .blocks
            .get(s.block as usize)
            .map_or("?", String::as_str);
        if self.qualified(&s.process) {
            format!("{block}@{}", s.process.pid)
        } else {
            block.to_string()
        }
    }

    /// A schedule that `ic-check --replay` takes.
    pub fn schedule(&self, steps: &[&Step]) -> String {
        steps
            .iter()
            .map(|s| self.process(&s.process))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
