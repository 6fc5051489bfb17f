//! Records the tree while an exploration runs, from hooks in
//! [`crate::exploration::Exploration`]: every event run through it opens a node (its
//! failure, if any, marks it), every step back returns to the parent, and the ends of
//! executions mark the leaves. The DPOR searches add the sleep and backtrack sets of a
//! node when they leave it.
//!
//! Past the size limit no node is added, but the recorder still follows the depth of
//! the search (so that stepping back stays in step with the executor) and still learns
//! every process identity (a sleep sequence found deep down may be added to a node
//! recorded earlier).

use super::{
    Blocked, Change, End, Node, NodeId, Process, SleepEnding, Sleeping, Step, Tree, TreeConfig,
};
use crate::dpor::sleep::{Ending, SleepSet};
use crate::executor::Executor;
use crate::fingerprint::Fingerprint;
use crate::state::State;
use frontend::ir::{GlobalId, GlobalKind, Program};
use frontend::memory::{write_global, Memory};
use rustc_hash::FxHashMap;

pub struct Recorder {
    tree: Tree,
    config: TreeConfig,
    /// The node at each depth of the current execution (`None` past the limit).
    path: Vec<Option<NodeId>>,
    /// The memory at each recorded node of `path`, to tell what the next step changed.
    memories: Vec<Memory>,
    /// Identities by key, for naming the entries of sleep sets.
    processes: FxHashMap<Fingerprint, Process>,
    numbered: u32,
}

impl Recorder {
    /// A recorder whose root is the initial state.
    pub fn new(program: &Program, initial: &State, config: TreeConfig) -> Recorder {
        let root = Node {
            number: Some(0),
            changes: every_global(program, &initial.mem),
            ..Node::default()
        };
        Recorder {
            tree: Tree::new(program, root),
            config,
            path: vec![Some(0)],
            memories: vec![initial.mem.clone()],
            processes: FxHashMap::default(),
            numbered: 1,
        }
    }

    /// The tree of a program whose `init` failed: the initial memory, and the failure.
    pub fn failed_init(program: &Program, message: String) -> Tree {
        let root = Node {
            number: Some(0),
            changes: every_global(program, &Memory::initial(program)),
            failure: Some(message),
            ..Node::default()
        };
        Tree::new(program, root)
    }

    /// The executor has just run an event (failed with `failure`, if any): a child of
    /// the current node.
    pub fn step(&mut self, ex: &Executor<'_>, failure: Option<&str>) {
        let Some(event) = ex.events().last() else {
            return;
        };
        let process = &ex.state.procs[event.proc];
        self.processes
            .entry(process.pid_key)
            .or_insert_with(|| Process {
                pid: process.pid.clone(),
                proc: process.proc,
            });
        let parent = self.path.last().copied().flatten();
        let node = match parent {
            Some(parent) if self.tree.nodes.len() < self.config.limit => {
                let id = self.tree.nodes.len();
                let program = ex.program();
                let changes = match self.memories.last() {
                    Some(before) => changed(program, before, &ex.state.mem),
                    None => Vec::new(),
                };
                self.tree.nodes.push(Node {
                    parent: Some(parent),
                    step: Some(Step {
                        process: Process {
                            pid: process.pid.clone(),
                            proc: process.proc,
                        },
                        block: event.block,
                    }),
                    number: Some(self.numbered),
                    changes,
                    failure: failure.map(str::to_string),
                    ..Node::default()
                });
                self.tree.nodes[parent].children.push(id);
                self.numbered += 1;
                self.memories.push(ex.state.mem.clone());
                Some(id)
            }
            Some(parent) => {
                self.tree.nodes[parent].truncated = true;
                self.tree.truncated = Some(self.config.limit);
                None
            }
            None => None,
        };
        self.path.push(node);
    }

    /// The executor has stepped back its last event.
    pub fn back(&mut self) {
        if let Some(Some(_)) = self.path.pop() {
            self.memories.pop();
        }
    }

    fn current(&mut self) -> Option<&mut Node> {
        let id = self.path.last().copied().flatten()?;
        self.tree.nodes.get_mut(id)
    }

    /// The current execution ended.
    pub fn end(&mut self, end: End) {
        if let Some(node) = self.current() {
            node.end = Some(end);
        }
    }

    /// The algorithm abandoned the current execution.
    pub fn blocked(&mut self, why: Blocked) {
        if let Some(node) = self.current() {
            node.blocked = Some(why);
        }
    }

    /// The sleep and backtrack sets (process indices of `state`, the state at that node
    /// or a later one of the same execution) of the node at `depth` of the current execution.
    pub fn annotate(&mut self, depth: usize, sleep: &SleepSet, backtrack: &[usize], state: &State) {
        let Some(id) = self.path.get(depth).copied().flatten() else {
            return;
        };
        // Every process of a sleep entry ran in this execution, so it is known.
        let sleep = sleep
            .entries()
            .filter_map(|(steps, ending)| {
                let processes = steps
                    .iter()
                    .map(|s| self.processes.get(&s.process).cloned())
                    .collect::<Option<Vec<Process>>>()?;
                let ending = match ending {
                    Ending::Asleep | Ending::Elsewhere | Ending::Running | Ending::Settled => {
                        SleepEnding::Asleep
                    }
                    Ending::Blocks => SleepEnding::Blocks,
                    Ending::BlocksAt(_) => SleepEnding::BlocksIfReaching,
                };
                Some(Sleeping { processes, ending })
            })
            .collect();
        let backtrack = backtrack
            .iter()
            .filter_map(|&i| state.procs.get(i))
            .map(|p| Process {
                pid: p.pid.clone(),
                proc: p.proc,
            })
            .collect();
        let node = &mut self.tree.nodes[id];
        node.sleep = sleep;
        node.backtrack = backtrack;
    }

    /// The tree is full and the exploration should stop ([`TreeConfig::halt_when_full`]).
    pub fn halts(&self) -> bool {
        self.config.halt_when_full && self.tree.truncated.is_some()
    }

    pub fn finish(self) -> Tree {
        self.tree
    }
}

/// Every global with its value (the root's label).
fn every_global(program: &Program, mem: &Memory) -> Vec<Change> {
    program
        .globals
        .iter()
        .enumerate()
        .map(|(g, global)| {
            let mut value = String::new();
            // Writing to a String cannot fail.
            let _ = write_global(&mut value, mem, g as GlobalId, &global.kind);
            Change {
                location: global.name.clone(),
                value,
            }
        })
        .collect()
}

/// The locations whose values differ between `before` and `after`: scalars and lists
/// whole, arrays and maps element by element.
fn changed(program: &Program, before: &Memory, after: &Memory) -> Vec<Change> {
    let mut changes = Vec::new();
    for (i, global) in program.globals.iter().enumerate() {
        let g = i as GlobalId;
        let name = &global.name;
        match global.kind {
            GlobalKind::Scalar(_) => {
                if before.scalar(g) != after.scalar(g) {
                    changes.push(Change {
                        location: name.clone(),
                        value: after.scalar(g).to_string(),
                    });
                }
            }
            GlobalKind::Array { len, .. } => {
                for k in 0..len {
                    if before.element(g, k) != after.element(g, k) {
                        changes.push(Change {
                            location: format!("{name}[{k}]"),
                            value: after.element(g, k).to_string(),
                        });
                    }
                }
            }
            GlobalKind::Map => {
                // A step adds or changes keys, never removes one.
                let old = before.map(g);
                for (k, v) in after.map(g) {
                    if old.get(k) != Some(v) {
                        changes.push(Change {
                            location: format!("{name}[{k}]"),
                            value: v.to_string(),
                        });
                    }
                }
            }
        }
    }
    changes
}
