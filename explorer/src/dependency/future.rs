//! Over-approximations of what processes may still do: for each block, the union of
//! the syntactic footprints of every block reachable from it — later blocks of its
//! process and blocks of the processes it may spawn, transitively. CSDPOR Sec. 5.3
//! (optimisation 1, "anticipating cuts") needs this set `O` of possible future steps.

use crate::dependency::footprint::Footprint;
use crate::dpor::sleep::SleepSet;
use crate::executor::{Event, Executor};
use crate::state::State;
use frontend::ir::{BlockId, Program};
use frontend::memory::Loc;
use frontend::value::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// Blocks of a process analysed from their locals by [`Futures::of_process`]; past
/// them, their syntactic reach.
const PRECISE_BLOCKS: usize = 32;

/// Most futures [`Futures::of_process`] keeps.
const CACHED: usize = 1 << 16;

/// [`Futures::of_process`]'s cache: by next block, then by locals (looked up without
/// copying them), with its number of entries.
#[derive(Default)]
struct Precise {
    by_block: HashMap<BlockId, HashMap<Vec<Value>, Footprint>>,
    len: usize,
}

pub struct Futures {
    /// Per block: what it and everything reachable from it may touch.
    reach: Vec<Footprint>,
    /// [`Futures::of_process`] per next block and locals, which alone decide it:
    /// odpor-cs-ob asks for every live process's future at every block, and spent a
    /// quarter of DB_backup(8)'s time analysing the same ones again (cleared past
    /// [`CACHED`] entries, so memory stays bounded).
    precise: RefCell<Precise>,
}

impl Futures {
    pub fn new(program: &Program) -> Self {
        let sets = &program.sets;
        let blocks = crate::dependency::footprint::static_footprints(program);
        let successors: Vec<Vec<BlockId>> = sets
            .iter()
            .map(|s| {
                let spawned = s.spawns.iter().map(|&p| program.procs[p as usize].entry);
                s.next.iter().copied().chain(spawned).collect()
            })
            .collect();
        let reach = (0..blocks.len())
            .map(|start| {
                let mut seen = vec![false; blocks.len()];
                let mut stack = vec![start];
                let (mut reads, mut writes): (Vec<Loc>, Vec<Loc>) = (Vec::new(), Vec::new());
                while let Some(b) = stack.pop() {
                    if std::mem::replace(&mut seen[b], true) {
                        continue;
                    }
                    reads.extend(&blocks[b].reads);
                    writes.extend(&blocks[b].writes);
                    stack.extend(successors[b].iter().map(|&n| n as usize));
                }
                for v in [&mut reads, &mut writes] {
                    v.sort_unstable();
                    v.dedup();
                }
                Footprint { reads, writes }
            })
            .collect();
        Futures {
            reach,
            precise: RefCell::default(),
        }
    }

    /// What process `q` may touch from now on, as precisely as its locals tell: the
    /// transition footprint of its next block and of each block it may go on to with
    /// locals the global state does not decide; the syntactic reach of a block
    /// reached otherwise, of a spawned process's, and of what lies past
    /// `PRECISE_BLOCKS` blocks (whole arrays and maps: a step that writes one
    /// element conflicts with every write of the array there).
    pub fn of_process(&self, ex: &Executor<'_>, q: usize) -> Footprint {
        let p = &ex.state.procs[q];
        let Some(next) = p.next else {
            return Footprint::default();
        };
        let cached = self.precise.borrow();
        if let Some(known) = cached
            .by_block
            .get(&next)
            .and_then(|m| m.get(&p.locals[..]))
        {
            return known.clone();
        }
        drop(cached);
        let footprint = self.analyse(ex, next, &p.locals);
        let mut precise = self.precise.borrow_mut();
        if precise.len >= CACHED {
            *precise = Precise::default();
        }
        precise.len += 1;
        let by_locals = precise.by_block.entry(next).or_default();
        by_locals.insert(p.locals.clone(), footprint.clone());
        footprint
    }

    /// [`Futures::of_process`] of a process at `next` with `locals`, analysed. The
    /// analysis reads no global ([`frontend::analysis::may_touch::successors`]), nor does a
    /// transition footprint.
    fn analyse(&self, ex: &Executor<'_>, next: BlockId, locals: &[Value]) -> Footprint {
        let mut reads: Vec<Loc> = Vec::new();
        let mut writes: Vec<Loc> = Vec::new();
        let coarse = |b: BlockId, reads: &mut Vec<Loc>, writes: &mut Vec<Loc>| {
            reads.extend(&self.reach[b as usize].reads);
            writes.extend(&self.reach[b as usize].writes);
        };
        let mut seen: Vec<(BlockId, Vec<Value>)> = Vec::new();
        let mut todo: Vec<(BlockId, Vec<Value>)> = vec![(next, locals.to_vec())];
        while let Some((block, locals)) = todo.pop() {
            if seen.contains(&(block, locals.clone())) {
                continue;
            }
            let after = (seen.len() < PRECISE_BLOCKS)
                .then(|| {
                    frontend::analysis::may_touch::successors(
                        &ex.machine,
                        &ex.state.mem,
                        block,
                        &locals,
                    )
                })
                .flatten();
            let Some(after) = after else {
                coarse(block, &mut reads, &mut writes);
                continue;
            };
            let touched = ex.transition(block, &locals);
            reads.extend(touched.reads);
            writes.extend(touched.writes);
            for (next, locals) in after.next {
                match locals.into_iter().collect::<Option<Vec<Value>>>() {
                    Some(known) => todo.push((next, known)),
                    None => coarse(next, &mut reads, &mut writes),
                }
            }
            for (proc, _) in after.spawns {
                coarse(
                    ex.program().procs[proc as usize].entry,
                    &mut reads,
                    &mut writes,
                );
            }
            seen.push((block, locals));
        }
        for v in [&mut reads, &mut writes] {
            v.sort_unstable();
            v.dedup();
        }
        Footprint { reads, writes }
    }

    /// CSDPOR Sec. 5.3, optimisation 1 (anticipating cuts), made sound: some enabled
    /// process is asleep and no possible future step of the other live processes may
    /// conflict with its sleeping step — it can neither wake nor be disabled, so every
    /// execution from `state` ends sleep-set blocked — *and* none of those future
    /// steps may conflict with an event of the current execution `events`.
    ///
    /// The paper cuts on the first condition alone, calling the blocked executions
    /// useless; but Source-DPOR uses the races found along them. The differential test
    /// found a program where q.a r.a r.b ends blocked (q.b asleep) yet its race
    /// (q.a, r.b) is the only way to reach r.a r.b q.a, whose `head([])` fails; with
    /// the second condition no such race can be lost (races inside the cut subtree
    /// only matter to the subtree, which is all blocked). An asleep but disabled
    /// process could end in a deadlock: never cut.
    pub fn stuck_asleep(
        &self,
        state: &State,
        enabled: &[usize],
        sleep: &SleepSet,
        events: &[Event],
    ) -> bool {
        enabled.iter().any(|&i| {
            let Some(step) = sleep.single(state.procs[i].pid_key) else {
                return false;
            };
            state.procs.iter().enumerate().all(|(j, q)| {
                j == i
                    || q.next.is_none_or(|b| {
                        let future = &self.reach[b as usize];
                        !future.conflicts(&step.footprint)
                            && !events.iter().any(|e| future.conflicts(&e.footprint))
                    })
            })
        })
    }
}
