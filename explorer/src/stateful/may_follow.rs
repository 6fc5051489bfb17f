//! What may follow a state, read off the program rather than off the explored
//! graph: for each live process, what the blocks it may still run may read or
//! write, and, whole globals, what every process that may be spawned from there on
//! may. A thread of a parallel DL-S-POR or DE-S-POR ([`crate::stateful::search`])
//! summarises so the states it cannot read a summary of: those another thread
//! stores ([`crate::parallel::shared_visited`]), and the branches it gives away.
//!
//! Why it may stand for a summary: a summary names, for each process, what the
//! actions reachable from the state in the explored graph touch
//! ([`crate::stateful::unions`]); every such action is a run of a block the process
//! reaches from its next block (its proc's control flow, `await` and `yield`
//! edges), or of a block of a process spawned later, and touches only globals its
//! block's code names (funs read and write no global). A live process's row is
//! [`may_touch::process`]'s analysis from its next block and its locals, which
//! holds what every run of those blocks touches, in any interleaving (its doc says
//! why); where the analysis gives up, the globals every block it may reach names,
//! whole. So each row here holds the summary's row for the same process, and the
//! row of the processes not yet spawned holds every row of theirs. DL-S-POR asks a
//! summary which processes conflict with a step (Alg. 3, line 28): a larger answer
//! adds processes to `current[t]`, which only adds branches (a process that does
//! not exist in the asking state gives `backtrack = safeSet(s)`, as one named by the
//! exact summary would).
//!
//! Why the elements matter: the whole globals of the text make every two processes
//! of an array-indexed lock conflict, and a summary made so holds more than the
//! state's own, so every state that reaches it, on the thread's path and on the
//! other thread's through what it publishes, adds the branches that conflict. With
//! whole globals, two threads of dl-spor took 14% more transitions than one on the
//! filter lock at N = 4 (BENCHMARKS.md).

use crate::dependency::footprint::{Footprint, CACHED};
use crate::executor::Executor;
use crate::fingerprint::Fingerprint;
use frontend::analysis::may_touch;
use frontend::ir::{BlockId, GlobalId, ProcId, Program};
use frontend::value::Value;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// The identity key the processes not yet spawned share in a summary made here: a
/// row of their own, which no process of any state has (a fingerprint of a pid is
/// never all ones but with probability 2^-128).
pub const NOT_YET_SPAWNED: Fingerprint = Fingerprint::MAX;

/// For each block of a program: what its process may touch from there on, and what
/// the processes it may spawn from there on may touch, whole globals each; and the
/// rows analysed from processes' locals so far.
#[derive(Debug, Default)]
pub struct MayFollow {
    after: Vec<Footprint>,
    spawned: Vec<Footprint>,
    /// Each proc's entry block.
    entries: Vec<BlockId>,
    /// Per block: its footprint may depend on the global state
    /// ([`frontend::analysis::locality`]).
    dependent: Vec<bool>,
    /// What a process at a block may touch from there on, by its locals there (at
    /// most [`CACHED`] rows, cleared past it, so memory stays bounded).
    analysed: FxHashMap<BlockId, FxHashMap<Vec<Option<Value>>, Footprint>>,
    cached: usize,
}

impl MayFollow {
    pub fn new(program: &Program) -> MayFollow {
        let blocks = program.blocks.len();
        let mut after = Vec::with_capacity(blocks);
        let mut spawns: Vec<BTreeSet<ProcId>> = Vec::with_capacity(blocks);
        for b in 0..blocks {
            let (mut reads, mut writes, mut procs) = Default::default();
            reach(program, b as BlockId, &mut reads, &mut writes, &mut procs);
            after.push(whole(reads, writes));
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
                reads.extend(entry.reads.iter().map(|l| l.global));
                writes.extend(entry.writes.iter().map(|l| l.global));
            }
            whole(reads, writes)
        };
        let spawned = (spawns.iter())
            .map(|s| union(&mut s.iter().flat_map(|&q| closure[q as usize].iter().copied())))
            .collect();
        MayFollow {
            after,
            spawned,
            entries: program.procs.iter().map(|p| p.entry).collect(),
            dependent: frontend::analysis::locality::state_dependent_footprints(program),
            analysed: FxHashMap::default(),
            cached: 0,
        }
    }

    /// What may follow the current state of `ex`: a row for each live process (by
    /// identity key), and one for those not yet spawned ([`NOT_YET_SPAWNED`]). A live
    /// process's row is what it may touch from its next block on, as precisely as
    /// its locals tell ([`may_touch::process`]: elements where the locals decide
    /// an index), or else whole globals. With `from_entry`, each process's row is
    /// what its proc may touch from its entry on, ended processes included, whole
    /// globals: what may follow any state on the path to this one, whose processes
    /// are among these.
    pub fn rows(&mut self, ex: &Executor<'_>, from_entry: bool) -> Vec<(Fingerprint, Footprint)> {
        let mut rows = Vec::new();
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        for q in &ex.state.procs {
            let block = match (from_entry, q.next) {
                (true, _) => self.entries[q.proc as usize],
                (false, Some(next)) => next,
                (false, None) => continue,
            };
            let row = match from_entry {
                true => self.after[block as usize].clone(),
                false => self.analysed(ex, block, &q.locals),
            };
            let spawned = &self.spawned[block as usize];
            reads.extend_from_slice(&spawned.reads);
            writes.extend_from_slice(&spawned.writes);
            rows.push((q.pid_key, row));
        }
        for v in [&mut reads, &mut writes] {
            v.sort_unstable();
            v.dedup();
        }
        rows.push((NOT_YET_SPAWNED, Footprint { reads, writes }));
        rows
    }

    /// What a process at `next` with `locals` may touch from there on: analysed
    /// from its locals, or, past the analysis's bounds, the text's whole globals.
    /// Kept by the locals `next` may read (the analysis forgets the others).
    fn analysed(&mut self, ex: &Executor<'_>, next: BlockId, locals: &[Value]) -> Footprint {
        let key = may_touch::live_locals(ex.program(), next, locals.iter().cloned().map(Some));
        if let Some(known) = self.analysed.get(&next).and_then(|m| m.get(&key)) {
            return known.clone();
        }
        let (machine, mem) = (&ex.machine, &ex.state.mem);
        let row = match may_touch::process(machine, mem, &self.dependent, next, &key) {
            Some(touched) => Footprint::from(touched),
            None => self.after[next as usize].clone(),
        };
        if self.cached >= CACHED {
            self.analysed.clear();
            self.cached = 0;
        }
        self.cached += 1;
        self.analysed
            .entry(next)
            .or_default()
            .insert(key, row.clone());
        row
    }
}

/// A footprint of whole globals.
fn whole(reads: BTreeSet<GlobalId>, writes: BTreeSet<GlobalId>) -> Footprint {
    Footprint::from(may_touch::whole(reads, writes))
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
    use crate::dependency::footprint::WHOLE;
    use frontend::memory::Loc;

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
        let global = |name: &str| Loc {
            global: p.globals.iter().position(|g| g.name == name).unwrap() as u32,
            elem: WHOLE,
        };
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
    /// workers at their entry conflict with a step reading `b` (their second block
    /// writes nothing there, but reads it: no), writing `b` (yes), or reading `c`
    /// (their last block writes it: yes); a step writing `d` conflicts with the
    /// processes not yet spawned (the child writes it, and their row is the text's,
    /// whole globals). A process that has ended takes part in none. The element of
    /// `e` a worker writes is known from its locals: a step reading `e[1]` conflicts
    /// with worker 1 alone.
    #[test]
    fn a_summary_of_what_may_follow_meets_what_later_blocks_and_children_do() {
        use crate::stateful::exchange::Exchanged;
        use crate::stateful::graph::Graph;
        use crate::stateful::summaries::Summaries;
        use crate::stateful::unions::Unions;
        let p = program(
            "global int a = 0; global int b = 0; global int c = 0; global int[2] d;
             global int[3] e;
             proc child() { d[1] = 1; }
             proc worker(int me) {
                 a = 1; yield; int x = b; yield; spawn child(); c = x; e[me] = x;
             }
             init { spawn worker(0); spawn worker(1); spawn worker(2); }",
        );
        let global = |name: &str| p.globals.iter().position(|g| g.name == name).unwrap() as u32;
        let mut ex = Executor::new(&p, Default::default()).expect("runs");
        std::sync::Arc::make_mut(&mut ex.state.procs[2]).next = None;
        let key = |i: usize| ex.state.procs[i].pid_key;
        let (zero, one) = (key(0), key(1));
        let rows = MayFollow::new(&p).rows(&ex, false);
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
            let mut found: Vec<_> = found.into_iter().map(|q| graph.process(q)).collect();
            found.sort_unstable();
            found
        };
        let mut both = vec![zero, one];
        both.sort_unstable();
        assert_eq!(ask(step(&[("b", WHOLE)], &[])), vec![]);
        assert_eq!(ask(step(&[], &[("b", WHOLE)])), both);
        assert_eq!(ask(step(&[("c", WHOLE)], &[])), both);
        assert_eq!(ask(step(&[("d", 0)], &[])), vec![NOT_YET_SPAWNED]);
        assert_eq!(ask(step(&[], &[("a", WHOLE)])), both);
        assert_eq!(ask(step(&[("e", 1)], &[])), vec![one]);
        assert_eq!(ask(step(&[("e", 2)], &[])), vec![]);
    }
}
