//! Happens-before of the current execution, by vector clocks kept incrementally as
//! events are pushed and popped.
//!
//! `e → e'` when `e` precedes `e'` and they are in program order (same process), or
//! `e` spawned the process of `e'`, or they conflict (one writes what the other reads
//! or writes), closed transitively. A clock entry `c[i] = k` says the first `k` events
//! of process `i` happen before (or are) this event.

use crate::dependency::footprint::intersects;
use crate::executor::Event;
use crate::fingerprint::{fingerprint, Fingerprint};
use crate::state::Process;
use frontend::memory::Loc;
use std::sync::Arc;

#[derive(Default)]
pub struct HappensBefore {
    /// The clocks of the events of the current execution, one after the other in one
    /// buffer ([`Self::clock`]). A small allocation per clock shared cache lines with
    /// what the other thread wrote: on two threads, odpor spent 2.3 times one
    /// thread's samples pushing the same clocks on FR-a(8); in one buffer (or in
    /// allocations of a whole cache line), 1.4 times.
    clocks: Vec<u32>,
    /// Per event: where its clock ends in `clocks` (entries past the depth are stale).
    ends: Vec<usize>,
    /// Per event: its position (1-based) among its process's events.
    nth: Vec<u32>,
    /// Per event: the earlier events it conflicts with that were recorded independent
    /// of it (it may read what they wrote without happening after them).
    independent: Vec<Vec<usize>>,
    /// Per event: the earlier events of its guarded independences
    /// ([`crate::dependency::guarded`]), each also in `independent`.
    guarded: Vec<Vec<usize>>,
    /// How many events of the execution have guarded independences.
    with_guarded: usize,
    /// How many events of the execution have two or more: each joined a group of
    /// them ([`crate::dependency::guarded_group`]).
    in_groups: usize,
    /// Per event: the earlier events it happens after because a guarded pair's
    /// second event spawned its process (the spawn belongs to the pair).
    forced: Vec<Vec<usize>>,
    /// Per event: the locations of its guarded independence that the earlier of the
    /// two may not read (see [`Self::closed_to`]).
    closed: Vec<Vec<Loc>>,
    /// How many events of the execution have a closed guarded independence.
    with_closed: usize,
    /// Per event pushed by [`Self::push_guarded`]: its races ([`Self::races_of`]).
    races: Vec<Vec<usize>>,
    depth: usize,
}

impl HappensBefore {
    /// Adds the clock of the newest of `events`; `procs` are the state's processes.
    /// Conflicts with the events listed in `independent` do not order them: CDPOR
    /// records there the conditional independences it proved (Sec. 3.3).
    pub fn push(&mut self, events: &[Event], procs: &[Arc<Process>], independent: &[usize]) {
        self.push_guarded(events, procs, independent, &[], &[]);
    }

    /// [`Self::push`], the newest event's guarded independences (each also in
    /// `independent`) recorded with it, and the locations of its pair's constraint
    /// that the earlier of the two may not read (see [`Self::closed_to`]).
    pub fn push_guarded(
        &mut self,
        events: &[Event],
        procs: &[Arc<Process>],
        independent: &[usize],
        guarded: &[usize],
        closed: &[Loc],
    ) {
        let d = events.len() - 1;
        let e = &events[d];
        let mut races = self
            .races
            .get_mut(d)
            .map(std::mem::take)
            .unwrap_or_default();
        races.clear();
        self.push_ordered(events, procs, independent, |i, earlier| {
            if earlier.precedes_in_program(e) {
                return true;
            }
            let conflicts = earlier.conflicts(e);
            if conflicts {
                races.push(i);
            }
            conflicts && !independent.contains(&i)
        });
        races.retain(|i| !self.forced[d].contains(i));
        races.reverse();
        self.races[d] = races;
        self.guarded[d].extend_from_slice(guarded);
        self.closed[d].extend_from_slice(closed);
        self.with_closed += usize::from(!closed.is_empty());
        self.with_guarded += usize::from(!guarded.is_empty());
        self.in_groups += usize::from(guarded.len() >= 2);
    }

    /// [`Self::push`] where the caller says which earlier events `i` the newest one
    /// directly happens after (`after(i, event)`), having decided the conflicts that
    /// `independent` lists itself (the observers' order, [`crate::dependency::observers::order`]).
    pub fn push_ordered(
        &mut self,
        events: &[Event],
        procs: &[Arc<Process>],
        independent: &[usize],
        mut after: impl FnMut(usize, &Event) -> bool,
    ) {
        let d = events.len() - 1;
        debug_assert_eq!(d, self.depth);
        let e = &events[d];
        if self.nth.len() == d {
            self.ends.push(0);
            self.nth.push(0);
            self.independent.push(Vec::new());
            self.guarded.push(Vec::new());
            self.forced.push(Vec::new());
            self.closed.push(Vec::new());
            self.races.push(Vec::new());
        }
        self.independent[d].clear();
        self.independent[d].extend_from_slice(independent);
        self.guarded[d].clear();
        self.closed[d].clear();
        let mut forced = std::mem::take(&mut self.forced[d]);
        forced.clear();
        if self.with_guarded > 0 {
            if let Some(m) =
                (0..d).find(|&m| events[m].precedes_in_program(e) && events[m].proc != e.proc)
            {
                forced.extend_from_slice(&self.guarded[m]);
            }
        }
        let start = Self::begin(&self.ends, d);
        self.clocks.truncate(start);
        self.clocks.resize(start + procs.len(), 0);
        self.ends[d] = self.clocks.len();
        let (done, clock) = self.clocks.split_at_mut(start);
        let mut nth = 1;
        // Latest first: an earlier event the clock covers already happens before `e`
        // through a later one, and its clock, within that one's, adds nothing.
        for (i, earlier) in events[..d].iter().enumerate().rev() {
            if earlier.proc == e.proc {
                nth += 1;
            }
            if clock[earlier.proc] >= self.nth[i] {
                continue;
            }
            if after(i, earlier) || forced.contains(&i) {
                let theirs = &done[Self::begin(&self.ends, i)..self.ends[i]];
                for (mine, theirs) in clock.iter_mut().zip(theirs) {
                    *mine = (*mine).max(*theirs);
                }
            }
        }
        clock[e.proc] = nth;
        self.nth[d] = nth;
        self.forced[d] = forced;
        self.depth += 1;
    }

    /// The races of event `i` with earlier events, in order, as
    /// [`crate::dependency::races::races`] finds them (`e ⋖ i`): for an event pushed by
    /// [`Self::push`] or [`Self::push_guarded`], found as its clock was computed. The
    /// clock is the join of its direct predecessors, latest first, skipping the events
    /// it already covers; the events it does not cover when they are met are those
    /// that no later predecessor happens after, and a race is one of them that
    /// conflicts with `i` and is not ordered with it otherwise. Scanning the execution
    /// again for them cost sdpor 12% of its time on filesystem(22).
    pub fn races_of(&self, i: usize) -> &[usize] {
        &self.races[i]
    }

    /// The earlier events recorded independent of event `i` though they conflict.
    pub fn independent_of(&self, i: usize) -> &[usize] {
        &self.independent[i]
    }

    /// The earlier events of event `i`'s guarded independences.
    pub fn guarded_of(&self, i: usize) -> &[usize] {
        &self.guarded[i]
    }

    /// Whether a later event that may write `writes` (sorted) must not be recorded
    /// a guarded independence of event `i`: `i` is an event of a guarded pair whose
    /// constraint read a location only the pair's later event may read
    /// ([`crate::dependency::guarded::read_by_later`]), and `writes` holds one. Such a
    /// write conflicts with that event alone: recorded independent of it, it could run
    /// before the pair in a linearisation, where the constraint need not hold.
    pub fn closed_to(&self, i: usize, writes: &[Loc]) -> bool {
        self.with_closed > 0
            && std::iter::once(i)
                .chain((i + 1..self.depth).filter(|&j| self.guarded[j].contains(&i)))
                .any(|j| intersects(&self.closed[j], writes))
    }

    /// How many events of the execution have guarded independences.
    pub fn with_guarded(&self) -> usize {
        self.with_guarded
    }

    /// How many events of the execution joined a group of guarded independences
    /// (have two or more).
    pub fn in_groups(&self) -> usize {
        self.in_groups
    }

    /// How many events the execution has.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The earlier events event `i` happens after because its process was spawned
    /// by the second event of a guarded pair: the pair's first.
    pub fn forced(&self, i: usize) -> &[usize] {
        &self.forced[i]
    }

    /// The clock of event `i`.
    fn clock(&self, i: usize) -> &[u32] {
        &self.clocks[Self::begin(&self.ends, i)..self.ends[i]]
    }

    /// Where the clock of event `i` begins in `clocks`, given `ends`.
    fn begin(ends: &[usize], i: usize) -> usize {
        i.checked_sub(1).map_or(0, |j| ends[j])
    }

    pub fn pop(&mut self) {
        self.depth -= 1;
        self.with_guarded -= usize::from(!self.guarded[self.depth].is_empty());
        self.in_groups -= usize::from(self.guarded[self.depth].len() >= 2);
        self.with_closed -= usize::from(!self.closed[self.depth].is_empty());
    }

    /// Whether event `a` happens before event `b` (indices into the execution).
    pub fn before(&self, events: &[Event], a: usize, b: usize) -> bool {
        a < b
            && self
                .clock(b)
                .get(events[a].proc)
                .is_some_and(|&c| c >= self.nth[a])
    }

    /// Joins the clock of event `k` into `clock`: afterwards [`Self::in_clock`] says
    /// whether an event happens before (or is) one of the events joined.
    pub fn join_clock(&self, clock: &mut Vec<u32>, k: usize) {
        let theirs = self.clock(k);
        if clock.len() < theirs.len() {
            clock.resize(theirs.len(), 0);
        }
        for (mine, theirs) in clock.iter_mut().zip(theirs) {
            *mine = (*mine).max(*theirs);
        }
    }

    /// Whether event `a` happens before, or is, an event joined into `clock`.
    pub fn in_clock(&self, clock: &[u32], events: &[Event], a: usize) -> bool {
        clock.get(events[a].proc).is_some_and(|&c| c >= self.nth[a])
    }

    /// Identifies the Mazurkiewicz trace of the current execution: equal for two
    /// executions exactly when they have the same events with the same happens-before
    /// relation (up to fingerprint collisions). It is the sum of one key per event,
    /// so it does not depend on the order of the events. Computed when asked (naive,
    /// once per complete execution), not at each push: the DPOR searches push an
    /// event for every step and probe and never ask (hashing every clock cost sdpor a
    /// sixth of its time on QS_shared(20)).
    pub fn trace_fingerprint(&self, events: &[Event], procs: &[Arc<Process>]) -> Fingerprint {
        (0..self.depth)
            .map(|d| event_key(procs, events[d].proc, self.nth[d], self.clock(d)))
            .fold(0u128, u128::wrapping_add)
    }
}

/// An event named by (process identity, position in its process) with its clock, the
/// clock read as a set of (identity, count): independent of process creation order.
fn event_key(procs: &[Arc<Process>], proc: usize, nth: u32, clock: &[u32]) -> Fingerprint {
    let clock_key = clock
        .iter()
        .zip(procs)
        .filter(|(c, _)| **c > 0)
        .map(|(c, p)| fingerprint(&(p.pid_key, *c)))
        .fold(0u128, u128::wrapping_add);
    fingerprint(&(procs[proc].pid_key, nth, clock_key))
}
