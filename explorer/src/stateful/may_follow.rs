//! What may follow a state, read off the program text rather than off the explored
//! graph: for each live process, every global the blocks it may still run may read
//! or write, and the same for every process that may be spawned from there on. A
//! thread of a parallel DL-S-POR ([`crate::stateful::search`]) summarises so the
//! states it cannot read a summary of: those another thread stores
//! ([`crate::parallel::shared_visited`]), and the branches it gives away.
//!
//! Why it may stand for a summary: a summary names, for each process, what the
//! actions reachable from the state in the explored graph touch
//! ([`crate::stateful::unions`]); every such action is a run of a block the process
//! reaches from its next block (its proc's control flow, `await` and `yield`
//! edges), or of a block of a process spawned later, and touches only globals its
//! block's code names (funs read and write no global). So each row here holds the
//! summary's row for the same process, and the row of the processes not yet spawned
//! holds every row of theirs. DL-S-POR asks a summary which processes conflict with
//! a step (Alg. 3, line 28): a larger answer adds processes to `current[t]`, which
//! only adds branches (a process that does not exist in the asking state gives
//! `backtrack = safeSet(s)`, as one named by the exact summary would).
//!
//! Locations are whole globals here (an index depends on locals not yet computed).

use crate::fingerprint::Fingerprint;
use crate::state::Process;
use frontend::ir::{BlockId, GlobalId, ProcId, Program};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The identity key the processes not yet spawned share in a summary made here: a
/// row of their own, which no process of any state has (a fingerprint of a pid is
/// never all ones but with probability 2^-128).
pub const NOT_YET_SPAWNED: Fingerprint = Fingerprint::MAX;

/// The globals some blocks may read and write.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Touched {
    pub reads: Vec<GlobalId>,
    pub writes: Vec<GlobalId>,
}

impl Touched {
    fn from_sets(reads: BTreeSet<GlobalId>, writes: BTreeSet<GlobalId>) -> Touched {
        Touched {
            reads: reads.into_iter().collect(),
            writes: writes.into_iter().collect(),
        }
    }
}

/// For each block of a program: what its process may touch from there on, and what
/// the processes it may spawn from there on may touch.
#[derive(Debug, Default)]
pub struct MayFollow {
    after: Vec<Touched>,
    spawned: Vec<Touched>,
    /// Each proc's entry block.
    entries: Vec<BlockId>,
}

impl MayFollow {
    pub fn new(program: &Program) -> MayFollow {
        let blocks = program.blocks.len();
        let mut after = Vec::with_capacity(blocks);
        let mut spawns: Vec<BTreeSet<ProcId>> = Vec::with_capacity(blocks);
        for b in 0..blocks {
            let (mut reads, mut writes, mut procs) = Default::default();
            reach(program, b as BlockId, &mut reads, &mut writes, &mut procs);
            after.push(Touched::from_sets(reads, writes));
            spawns.push(procs);
        }
        // Each proc with everything it may spawn, transitively.
        let procs = program.procs.len();
        let mut closure: Vec<BTreeSet<ProcId>> = (0..procs)
            .map(|p| {
                let entry = program.procs[p].entry as usize;
                let mut c = spawns[entry].clone();
                c.insert(p as ProcId);
                c
            })
            .collect();
        loop {
            let mut grew = false;
            for p in 0..procs {
                let more: BTreeSet<ProcId> = (closure[p].iter())
                    .flat_map(|&q| closure[q as usize].iter().copied())
                    .collect();
                if !more.is_subset(&closure[p]) {
                    closure[p].extend(more);
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let union = |procs: &mut dyn Iterator<Item = ProcId>| {
            let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
            for q in procs {
                let entry = &after[program.procs[q as usize].entry as usize];
                reads.extend(entry.reads.iter().copied());
                writes.extend(entry.writes.iter().copied());
            }
            Touched::from_sets(reads, writes)
        };
        let spawned = (spawns.iter())
            .map(|s| union(&mut s.iter().flat_map(|&q| closure[q as usize].iter().copied())))
            .collect();
        MayFollow {
            after,
            spawned,
            entries: program.procs.iter().map(|p| p.entry).collect(),
        }
    }

    /// What may follow a state whose processes are `procs`: a row for each live
    /// process (by identity key), and one for those not yet spawned
    /// ([`NOT_YET_SPAWNED`]). With `from_entry`, each process's row is what its
    /// proc may touch from its entry on, ended processes included: what may follow
    /// any state on the path to this one, whose processes are among these.
    pub fn rows(&self, procs: &[Arc<Process>], from_entry: bool) -> Vec<(Fingerprint, Touched)> {
        let mut rows = Vec::new();
        let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
        for q in procs {
            let block = match from_entry {
                true => self.entries[q.proc as usize],
                false => match q.next {
                    Some(b) => b,
                    None => continue,
                },
            };
            let (own, spawned) = (&self.after[block as usize], &self.spawned[block as usize]);
            rows.push((q.pid_key, own.clone()));
            reads.extend(spawned.reads.iter().copied());
            writes.extend(spawned.writes.iter().copied());
        }
        rows.push((NOT_YET_SPAWNED, Touched::from_sets(reads, writes)));
        rows
    }
}

/// The blocks a process at `b` may run from there on (through `await` and `yield`),
/// and what they may touch and spawn.
fn reach(
    program: &Program,
    b: BlockId,
    reads: &mut BTreeSet<GlobalId>,
    writes: &mut BTreeSet<GlobalId>,
    procs: &mut BTreeSet<ProcId>,
) {
    let mut seen = BTreeSet::new();
    let mut todo = vec![b];
    while let Some(c) = todo.pop() {
        if !seen.insert(c) {
            continue;
        }
        let sets = &program.sets[c as usize];
        reads.extend(sets.reads.iter().copied());
        writes.extend(sets.writes.iter().copied());
        procs.extend(sets.spawns.iter().copied());
        todo.extend(sets.next.iter().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(source: &str) -> Program {
        frontend::load(source, &[]).unwrap_or_else(|_| panic!("a valid program"))
    }

    #[test]
    fn a_process_may_touch_what_its_later_blocks_and_its_children_touch() {
        let p = program(
            "global int a = 0; global int b = 0; global int c = 0; global int d = 0;
             proc child() { d = 1; }
             proc worker() { a = 1; yield; int x = b; yield; spawn child(); c = x; }
             init { spawn worker(); }",
        );
        let may = MayFollow::new(&p);
        let global = |name: &str| p.globals.iter().position(|g| g.name == name).unwrap() as u32;
        let (a, b, c, d) = (global("a"), global("b"), global("c"), global("d"));
        let worker = p.procs.iter().position(|q| q.name == "worker").unwrap();
        let entry = p.procs[worker].entry as usize;
        assert_eq!(may.after[entry].reads, vec![b]);
        assert_eq!(may.after[entry].writes, vec![a, c]);
        assert_eq!(may.spawned[entry].writes, vec![d]);
        // From the worker's last block on: c, and the child's d.
        let last = (0..p.blocks.len())
            .filter(|&k| p.blocks[k].proc as usize == worker)
            .max()
            .unwrap();
        assert_eq!(may.after[last].writes, vec![c]);
        assert!(may.after[last].reads.is_empty());
        assert_eq!(may.spawned[last].writes, vec![d]);
    }

    /// A summary made from a state's rows answers DL-S-POR's question (which
    /// processes take a step that conflicts with this one, Alg. 3 line 28) for every
    /// access a later block of a process, or a process it will spawn, may make: the
    /// worker at its entry conflicts with a step reading `b` (its second block
    /// writes nothing there, but reads it: no), writing `b` (yes), or reading `c`
    /// (its last block writes it: yes); a step writing `d` conflicts with the
    /// processes not yet spawned (the child writes it). A process that has ended
    /// takes part in none.
    #[test]
    fn a_summary_from_the_program_text_meets_what_later_blocks_and_children_do() {
        use crate::dependency::footprint::{Footprint, WHOLE};
        use crate::pid::Pid;
        use crate::stateful::exchange::Exchanged;
        use crate::stateful::graph::Graph;
        use crate::stateful::summaries::Summaries;
        use crate::stateful::unions::Unions;
        use frontend::memory::Loc;
        let p = program(
            "global int a = 0; global int b = 0; global int c = 0; global int[2] d;
             proc child() { d[1] = 1; }
             proc worker() { a = 1; yield; int x = b; yield; spawn child(); c = x; }
             init { spawn worker(); spawn worker(); }",
        );
        let global = |name: &str| p.globals.iter().position(|g| g.name == name).unwrap() as u32;
        let worker = p.procs.iter().position(|q| q.name == "worker").unwrap() as ProcId;
        let locals =
            vec![frontend::value::Value::Int(0); p.procs[worker as usize].code.locals.len()];
        let running = Process::spawned(&p, Pid::root(1), worker, locals.clone());
        let mut ended = Process::spawned(&p, Pid::root(2), worker, locals);
        ended.next = None;
        let procs = [Arc::new(running.clone()), Arc::new(ended.clone())];
        let rows = MayFollow::new(&p).rows(&procs, false);
        let mut graph = Graph::default();
        let mut summaries = Summaries::<Unions>::default();
        let target = summaries.may_follow(&mut graph, &rows);
        let step = |reads: &[(&str, i64)], writes: &[(&str, i64)]| {
            let locs = |l: &[(&str, i64)]| -> Vec<Loc> {
                l.iter()
                    .map(|&(g, elem)| Loc {
                        global: global(g),
                        elem,
                    })
                    .collect()
            };
            Footprint {
                reads: locs(reads),
                writes: locs(writes),
            }
        };
        let mut ask = |f: Footprint| -> Vec<Fingerprint> {
            let asker = graph.process_number(12_345);
            let a = graph.action(asker, &f);
            let found: Vec<_> = summaries
                .conflicting(&graph, target, a.footprint)
                .expect("a summary")
                .collect();
            found.into_iter().map(|q| graph.process(q)).collect()
        };
        let none: Vec<Fingerprint> = Vec::new();
        assert_eq!(ask(step(&[("b", WHOLE)], &[])), none);
        assert_eq!(ask(step(&[], &[("b", WHOLE)])), vec![running.pid_key]);
        assert_eq!(ask(step(&[("c", WHOLE)], &[])), vec![running.pid_key]);
        assert_eq!(ask(step(&[("d", 0)], &[])), vec![NOT_YET_SPAWNED]);
        assert_eq!(ask(step(&[], &[("a", WHOLE)])), vec![running.pid_key]);
        assert!(!ask(step(&[], &[("a", WHOLE)])).contains(&ended.pid_key));
    }
}
