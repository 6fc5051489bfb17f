//! Observers (Aronis, Jonsson, Lång, Sagonas, *Optimal Dynamic Partial Order Reduction
//! with Observers*, TACAS 2018; Def. 2.1 and Fig. 1 of Albert et al., *Optimal
//! Context-Sensitive DPOR with Observers*, ISSTA 2019, cited below as "ISSTA") and the
//! observer-aware happens-before of a whole execution, for `odpor-ob`
//! ([`crate::algorithms::odpor_ob`]).
//!
//! Two writes of the same location are dependent only when the value the second one
//! leaves is *observed*: read by a later event before an event overwrites it. The
//! papers' executions end silently, so a write nobody reads after is unobserved, and
//! two executions that differ only in it are equivalent. Ours must reach the same set
//! of final states as `naive`, and a final state is the whole global memory: so the
//! end of a complete execution is an observer of every location (a virtual final
//! event reading everything, `END` below). A write/write pair is then unobserved only
//! when an event that did write the location comes after the second write before any
//! read of it and before the end. Where only violations matter, the end of a complete
//! execution reads nothing, as in the papers (see [`end_reads`]).
//!
//! Why the relation below may replace happens-before (the soundness of `odpor-ob`
//! rests on it): let `→ob` be the transitive closure of program order, creation, every
//! read/write conflict of footprints, and the write/write conflicts that are observed.
//! Take any location `l` and any event `k` that reads it (or `END`), and let `m` be the
//! last event before `k` that wrote `l` (`Event::written`, not a may-write). Every
//! earlier event that did write `l` is `→ob m` (their pair is observed by `k`, which
//! reads `m`'s value), `m →ob k` (read/write), and every may-writer of `l` is ordered
//! with `k` as in the execution (read/write, whether it wrote or not). So in every
//! linearisation of `→ob` each read of `l` still follows the same last write with no
//! write of `l` between: by induction along the linearisation, every event before
//! `k` reads the values it read, so it behaves, writes and spawns as it did (an
//! event's actual writes are a function of what it read and of its process's locals,
//! which are themselves what its process read); the may-writers of `l` before `k`
//! are the same, the same of them write it, and `m` is the last. An event that may
//! write `l` and did not (its path skipped the write) writes it in no linearisation:
//! its write/write pairs on `l` need no order, and `→ob` leaves them out (a pair is
//! observed only when both events did write; [`Accesses::exact`]). Every event fails
//! or passes the same assertions, and `END` reads the same memory. A process blocked
//! at the end has its guard read by `END` too: the same guards are false, the same
//! deadlocks (with the same live processes and locals) are reached. Two executions with the same events and `→ob` thus reach
//! the same final state, the same violations and the same deadlocks.
//!
//! Footprints are may-sets (what a block may touch from its local state, whatever the
//! global state): a may-read counts as a read, a may-write of an event that did not
//! run to its end (failed, or not run: its writes are not known) and of a step of a
//! wakeup sequence counts as a write, and a location touched as a whole container
//! ([`crate::dependency::footprint::WHOLE`]) or read by a guard is treated as observed. All err on
//! the side of more dependencies, never fewer. A may-write that an event which ran
//! did not make orders nothing (above): ordering it hid races. In p's `for i in
//! 0..min(y, 1) { a[0] = 0; }` with y = 0, two such blocks were ordered by their
//! may-writes of `a[0]` (the end observing it), which put one's write of y before the
//! other's read through them, and the race of that write and read was never
//! reversed: odpor-ob missed 3 of 96 reads-from classes
//! (`tests/regressions/odpor_ob_misses_reads_from_classes_generated.ic`).

use crate::dependency::footprint::{intersects, Footprint, WHOLE};
use crate::dependency::happens_before::HappensBefore;
use crate::dpor::wakeup_tree::Entry;
use crate::executor::Event;
use crate::state::{Process, State};
use frontend::memory::Loc;
use std::sync::Arc;

/// `observers(e, e', E)` of a write/write race (ISSTA Def. 2.1, "in the usual particular
/// case": the events that read the value `e'` wrote of a location both write).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Observers {
    /// The events after `e'` that read such a value, in order.
    pub readers: Vec<usize>,
    /// Whether the end of the execution reads one (no event overwrote it).
    pub end: bool,
}

impl Observers {
    pub fn is_empty(&self) -> bool {
        self.readers.is_empty() && !self.end
    }
}

/// What observers are computed from: the events of an execution, and the steps of a
/// wakeup sequence ([`Entry`]).
pub trait Accesses {
    /// What it may read and write.
    fn footprint(&self) -> &Footprint;
    /// What it did write (empty when unknown: then it overwrites nothing).
    fn written(&self) -> &[Loc];
    /// Whether [`Accesses::written`] is all it wrote: then a location it may write
    /// but did not is no write of it (see [`observers`]).
    fn exact(&self) -> bool;
}

impl Accesses for Event {
    fn footprint(&self) -> &Footprint {
        &self.footprint
    }
    fn written(&self) -> &[Loc] {
        &self.written
    }
    /// A block that ran to its end: it wrote what it wrote. A failed event wrote
    /// nothing, and an unrun one (a probe, a settled step) has unknown writes: both
    /// keep their may-writes.
    fn exact(&self) -> bool {
        !self.failed
    }
}

impl Accesses for Entry {
    fn footprint(&self) -> &Footprint {
        &self.footprint
    }
    fn written(&self) -> &[Loc] {
        &self.written
    }
    /// A step of a wakeup sequence may run elsewhere than where its writes were
    /// seen, or not have run: its may-writes count.
    fn exact(&self) -> bool {
        false
    }
}

/// Whether `a` and `b` conflict only by writing the same locations: neither reads what
/// the other may write (a whole container overlapping each of its elements).
pub(crate) fn write_write_only(a: &impl Accesses, b: &impl Accesses) -> bool {
    let (fa, fb) = (a.footprint(), b.footprint());
    fa.conflicts(fb) && !intersects(&fa.reads, &fb.writes) && !intersects(&fb.reads, &fa.writes)
}

/// Whether `seq[i]` and `seq[k]` (`i < k`) conflict only by writing locations that
/// the sequence overwrites after `seq[k]` before reading them: independent in `→ob`
/// of the sequence with its end observing everything, so in `→ob` of every execution
/// that extends it (the wakeup trees' weak initials of `odpor-ob`).
pub fn unobserved<A: Accesses>(
    seq: &[&A],
    i: usize,
    k: usize,
    guarded: &[bool],
    end: &[bool],
) -> bool {
    write_write_only(seq[i], seq[k]) && observers(seq, i, k, guarded, end).is_empty()
}

/// The observers of the write/write conflict of events `e < e2` of `events` (see
/// [`Observers`]). A location one of them may write as a whole container counts as
/// observed by the end (we do not follow overwrites element by element there), and so
/// does one of a global that an `await` guard may read (`guarded`, from [`guarded`]).
/// A location that one of them may write but did not, where its writes are known
/// ([`Accesses::exact`]), is no write/write pair at all (see the module
/// documentation). `end`: per global, whether the end of `events` reads what they
/// leave (see [`end_reads`]).
pub fn observers<A: Accesses>(
    events: &[&A],
    e: usize,
    e2: usize,
    guarded: &[bool],
    end: &[bool],
) -> Observers {
    let mut out = Observers::default();
    let (first, second) = (
        &events[e].footprint().writes,
        &events[e2].footprint().writes,
    );
    for &a in first {
        for &b in second {
            if a.global != b.global || (a.elem != b.elem && a.elem != WHOLE && b.elem != WHOLE) {
                continue;
            }
            if a.elem == WHOLE || b.elem == WHOLE || guarded[a.global as usize] {
                out.end = true;
                continue;
            }
            // A may-write its event did not make (a path that skipped it) orders
            // nothing: see the module documentation.
            let skipped =
                |k: usize, l: Loc| events[k].exact() && !intersects(events[k].written(), &[l]);
            if skipped(e, a) || skipped(e2, b) {
                continue;
            }
            observe(events, e2, a, end, &mut out);
        }
    }
    out.readers.sort_unstable();
    out.readers.dedup();
    out
}

/// Adds the readers of the value of `l` left by event `e2` until an event overwrites
/// it, or the end if none does and `end` reads it.
fn observe<A: Accesses>(events: &[&A], e2: usize, l: Loc, end: &[bool], out: &mut Observers) {
    for (k, event) in events.iter().enumerate().skip(e2 + 1) {
        if intersects(&event.footprint().reads, &[l]) {
            out.readers.push(k);
        }
        if event.written().binary_search(&l).is_ok() {
            return;
        }
    }
    out.end |= end[l.global as usize];
}

/// Per global, whether the end of an execution reads the value it leaves: every
/// global, but where only violations matter (`violations_only`,
/// [`crate::Config::violations_only`], the papers' executions, which end silently).
/// Then the end of a complete execution reads nothing, and the end of one that is
/// blocked (in a sleep set, or by a don't-do sequence), whose continuations are
/// explored elsewhere, reads what those may read: the globals that a process live in
/// its last state, or one it may spawn, may ever read ([`State::may_read`]). The end
/// of a wakeup sequence reads every global (its continuations are not known).
///
/// Why ignoring the end of a complete execution keeps every violation and deadlock:
/// the argument of the module documentation holds for every event, which reads the
/// values it read; only `END` may read other ones, and then only of locations that no
/// guard reads (`guarded` keeps those written in order, and a whole container counts
/// as observed as before). So the same assertions fail, the same runtime errors
/// happen, and the same processes are blocked at the end at the same blocks with the
/// same locals: the same violations and deadlocks, the final memory aside. For a
/// blocked execution, `END` stands for the reads of its continuations, which are
/// events of those processes: a global none of them may read is read by no
/// continuation, and the end of the complete executions they reach reads nothing.
pub fn end_reads(
    program: &frontend::ir::Program,
    state: &State,
    violations_only: bool,
    complete: bool,
) -> Vec<bool> {
    match (violations_only, complete) {
        (false, _) => vec![true; program.globals.len()],
        (true, true) => vec![false; program.globals.len()],
        (true, false) => state.may_read(program),
    }
}

/// Per global, whether some `await` guard of `program` may read it. Two writes of such
/// a global are always dependent for `odpor-ob`. An `await` whose guard is false reads
/// nothing, so it observes no pair: reordering two writes that nothing else reads can
/// disable a process, whose guard would have observed them in another order. That
/// order is then reached by no race. (First seen as a lost deadlock: p, q and p'
/// where `p: y = 1; await (head(l) >= y)` and `q: y = head(l)`; after p'.q.p'.p, p
/// waits forever: the wakeup sequence p'.q.p, in which p overwrites q's write unread,
/// was merged into the branch of q, where p' can no longer pass.) Writes of the other
/// globals change no guard: the processes enabled are the same in every order of
/// them, and an observer, once reached, runs.
/// `guards`: per block, the globals its guard reads (`frontend::ir::BlockSets::guard_reads`).
pub fn guarded(globals: usize, guards: &[Vec<frontend::ir::GlobalId>]) -> Vec<bool> {
    let mut out = vec![false; globals];
    for &g in guards.iter().flatten() {
        out[g as usize] = true;
    }
    out
}

/// The observer-aware happens-before `→ob` of a whole execution (see the module
/// documentation; `end`: per global, whether its end reads what it leaves,
/// [`end_reads`]): built with [`HappensBefore`], each event's unobserved
/// write/write conflicts passed as recorded independences.
pub fn order(
    events: &[Event],
    procs: &[Arc<Process>],
    guarded: &[bool],
    end: &[bool],
) -> HappensBefore {
    let seq: Vec<&Event> = events.iter().collect();
    let mut hb = HappensBefore::default();
    // Each pair's conflict is decided once: `ordered[i]`, whether `j` directly
    // happens after `i` in `→ob`.
    let mut ordered: Vec<bool> = Vec::with_capacity(events.len());
    let mut unobserved_pairs: Vec<usize> = Vec::new();
    for j in 0..events.len() {
        ordered.clear();
        unobserved_pairs.clear();
        let later = seq[j];
        for (i, earlier) in seq[..j].iter().enumerate() {
            let program = earlier.precedes_in_program(later);
            let conflicts = earlier.conflicts(later);
            let unobserved =
                conflicts && earlier.proc != later.proc && unobserved(&seq, i, j, guarded, end);
            if unobserved {
                unobserved_pairs.push(i);
            }
            ordered.push(program || (conflicts && !unobserved));
        }
        hb.push_ordered(&events[..=j], procs, &unobserved_pairs, |i, _| ordered[i]);
    }
    hb
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pid::Pid;
    use frontend::ir::Program;

    pub(crate) fn loc(elem: i64) -> Loc {
        Loc { global: 0, elem }
    }

    /// An event of process `proc` that may read `reads` and did write `writes` (of
    /// one array global).
    pub(crate) fn event(proc: usize, reads: &[i64], writes: &[i64]) -> Event {
        Event {
            proc,
            footprint: Footprint {
                reads: reads.iter().map(|&e| loc(e)).collect(),
                writes: writes.iter().map(|&e| loc(e)).collect(),
            },
            written: writes.iter().map(|&e| loc(e)).collect(),
            ..Event::default()
        }
    }

    /// `n` processes of a program with one empty proc.
    pub(crate) fn procs(n: u32) -> Vec<Arc<Process>> {
        let program = frontend::load("proc p() { } init { spawn p(); }", &[]).expect("loads");
        let program: &Program = &program;
        (1..=n)
            .map(|k| Arc::new(Process::spawned(program, Pid::root(k), 0, Vec::new())))
            .collect()
    }

    /// p: x = 1; q: x = 2; s: x = 3; r: reads x.
    pub(crate) fn three_writes_and_a_read() -> Vec<Event> {
        vec![
            event(0, &[], &[0]),
            event(1, &[], &[0]),
            event(2, &[], &[0]),
            event(3, &[0], &[]),
        ]
    }

    #[test]
    fn a_write_is_observed_by_a_read_or_by_the_end() {
        let events = three_writes_and_a_read();
        let events: Vec<&Event> = events.iter().collect();
        assert!(
            observers(&events, 0, 1, &[false], &[true]).is_empty(),
            "s overwrites q's 2 unread"
        );
        let o = observers(&events, 1, 2, &[false], &[true]);
        assert_eq!(o.readers, vec![3]);
        assert!(o.end, "nothing overwrites 3: the end reads it too");
        let o = observers(&events[..3], 1, 2, &[false], &[true]);
        assert!(o.readers.is_empty() && o.end, "without r, the end reads 3");
    }

    #[test]
    fn a_may_write_that_did_not_happen_overwrites_nothing() {
        let mut events = three_writes_and_a_read();
        events[2].written.clear();
        let events: Vec<&Event> = events.iter().collect();
        assert!(observers(&events, 0, 1, &[false], &[true]).readers == vec![3]);
    }
}
