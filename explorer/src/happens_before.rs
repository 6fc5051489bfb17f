//! Happens-before of the current execution, by vector clocks kept incrementally as
//! events are pushed and popped.
//!
//! `e → e'` when `e` precedes `e'` and they are in program order (same process), or
//! `e` spawned the process of `e'`, or they conflict (one writes what the other reads
//! or writes), closed transitively. A clock entry `c[i] = k` says the first `k` events
//! of process `i` happen before (or are) this event.

use crate::executor::Event;
use crate::fingerprint::{fingerprint, Fingerprint};
use crate::pid::Pid;
use crate::state::State;

#[derive(Default)]
pub struct HappensBefore {
    /// Clock of each event of the current execution (entries past the depth are reused).
    clocks: Vec<Vec<u32>>,
    /// Per event: its position (1-based) among its process's events.
    nth: Vec<u32>,
    depth: usize,
}

impl HappensBefore {
    /// Adds the clock of the newest event of `events`.
    pub fn push(&mut self, events: &[Event], procs: usize) {
        let d = events.len() - 1;
        debug_assert_eq!(d, self.depth);
        let e = &events[d];
        if self.clocks.len() == d {
            self.clocks.push(Vec::new());
            self.nth.push(0);
        }
        let (done, rest) = self.clocks.split_at_mut(d);
        let clock = &mut rest[0];
        clock.clear();
        clock.resize(procs, 0);
        let mut nth = 1;
        for (earlier, c) in events[..d].iter().zip(done.iter()) {
            let same = earlier.proc == e.proc;
            let spawner = (earlier.spawned.0..earlier.spawned.1).contains(&e.proc);
            if same {
                nth += 1;
            }
            if same || spawner || earlier.conflicts(e) {
                for (mine, theirs) in clock.iter_mut().zip(c) {
                    *mine = (*mine).max(*theirs);
                }
            }
        }
        clock[e.proc] = nth;
        self.nth[d] = nth;
        self.depth += 1;
    }

    pub fn pop(&mut self) {
        self.depth -= 1;
    }

    /// Whether event `a` happens before event `b` (indices into the execution).
    pub fn before(&self, events: &[Event], a: usize, b: usize) -> bool {
        a < b
            && self.clocks[b]
                .get(events[a].proc)
                .is_some_and(|&c| c >= self.nth[a])
    }

    /// Identifies the Mazurkiewicz trace of the current (complete) execution: equal
    /// for two executions exactly when they have the same events with the same
    /// happens-before relation. Events are named by (process identity, position), so
    /// the key does not depend on the order in which processes were created.
    pub fn trace_fingerprint(&self, events: &[Event], state: &State) -> Fingerprint {
        let pid = |i: usize| &state.procs[i].pid;
        let mut named: Vec<(&Pid, u32, Vec<(&Pid, u32)>)> = events
            .iter()
            .enumerate()
            .map(|(d, e)| {
                let mut clock: Vec<(&Pid, u32)> = self.clocks[d]
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(|(i, c)| (pid(i), *c))
                    .collect();
                clock.sort_unstable();
                (pid(e.proc), self.nth[d], clock)
            })
            .collect();
        named.sort_unstable();
        fingerprint(&named)
    }
}
