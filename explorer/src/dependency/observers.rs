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
//! may-writes of a[0] (the end observing it), which put one's write of y before the
//! other's read through them, and the race of that write and read was never
//! reversed: odpor-ob missed 3 of 96 reads-from classes
//! (`regressions::odpor_ob_misses_reads_from_classes_generated`).

use crate::dependency::footprint::{intersects, Footprint, WHOLE};
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::wakeup_tree::{first_unordered, Entry};
use crate::executor::Event;
use crate::fingerprint::Fingerprint;
use crate::state::{Process, State};
use frontend::memory::Loc;

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
fn write_write_only(a: &impl Accesses, b: &impl Accesses) -> bool {
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
/// `guards`: per block, the globals its guard reads (`BlockSets::guard_reads`).
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
pub fn order(events: &[Event], procs: &[Process], guarded: &[bool], end: &[bool]) -> HappensBefore {
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

/// ISSTA Fig. 1, line 9: whether the reversal's `v` is redundant at `E' = pre(E, e)`:
/// `E' = w.w'` and a process of `done(w)` is a weak initial of `w'.v`. `done` lists,
/// for prefixes `w` (by length, at most `e`, at least `from`), the processes (by
/// identity) whose subtrees from `w` are explored; `prefix` holds the steps of
/// `E'` from `from` on, `v` those of the reversal, each as it is inserted into the
/// wakeup tree (a last step that did not run there, or may read other values, with
/// its writes not known: it overwrites nothing).
///
/// A process counts when its first step in `w'.v` has no predecessor there
/// ([`first_unordered`]) in `→ob` of the sequence itself, its end observing every
/// global (`every_global`: it goes on), as the wakeup trees' weak initials: a pair of
/// writes is unordered only where the sequence overwrites the value before anything
/// reads it, which stays so in every extension. The paper's weak initials also take
/// a process with no step in the sequence that commutes with all of it: left out,
/// it is only less pruning. Then every complete `E'.v.u` is `→ob`-equivalent to one
/// that starts `w.q`, whose class the subtree of `q` at `w` explored.
///
/// That covers the class, not its neighbours: the covering execution may order two
/// overwritten writes the other way, and a later reversal that puts a reader before
/// the overwrite exposes that order, each order leading to another class. The
/// neighbour of the other order is asked for by the covering subtree's own races (the
/// two writes are observed there), as a wakeup sequence at a node of its path; with
/// the paper's wakeup trees, a leaf at that node took it as covered and its own
/// exploration went the other way: odpor-ob missed 1 of a 3-process program's 10
/// classes and the assertion that reads it, with and without `--violations-only`
/// (`regressions::odpor_ob_a_covered_class_does_not_cover_its_neighbours`), and lost
/// reads-from classes in 8 of 10,000 generated programs. A wakeup sequence now
/// extends the leaf that covers it
/// ([`WakeupTree::insert`](crate::dpor::wakeup_tree::WakeupTree::insert)). That it then
/// reaches every neighbour is not proved here: it is what the differential test
/// checks, comparing odpor-ob's set of reads-from classes with naive's. It found one
/// more shape of the same kind in 63,000 generated programs, where a race's reversal
/// stopped before its observer ([`reversals`]), and none in 28,000 since. For a while
/// the check was over plain happens-before instead, at a cost: LW(10) 512 executions
/// instead of the paper's 10.
///
/// Two such judgements once covered each other's classes, each cut resting on the
/// other subtree (`regressions::odpor_ob_circular_coverage_misses_reads_from_classes`,
/// 6 of 821 classes missed). From stop 35 to stop 39 a pair whose overwrite in the
/// prefix was read after it stayed ordered here; the repair that replaced it,
/// for that program and others, is in the caller: a done process that an execution
/// explored elsewhere shows to come first no longer judges that execution's later
/// races redundant (`Dpor::owed_elsewhere`).
pub fn redundant(
    prefix: &[Entry],
    from: usize,
    v: &[&Entry],
    done: &[(usize, Vec<Fingerprint>)],
    guarded: &[bool],
    every_global: &[bool],
) -> bool {
    // `w'.v` for each `w` is a suffix of the longest one.
    let whole: Vec<&Entry> = prefix.iter().chain(v.iter().copied()).collect();
    done.iter().any(|(w, processes)| {
        if processes.is_empty() || *w < from {
            return false;
        }
        let seq = &whole[w - from..];
        let mut independent =
            |seq: &[&Entry], i: usize, k: usize| unobserved(seq, i, k, guarded, every_global);
        processes
            .iter()
            .any(|&q| first_unordered(seq, q, &mut independent).is_some())
    })
}

/// A race `e ⋖ e'` and the sequence that reverses it (event indices).
#[derive(Debug, PartialEq, Eq)]
pub struct Reversal {
    pub e: usize,
    /// `e'`.
    pub later: usize,
    /// `v`, to insert into `wut(pre(E, e))`. Its events behave in `E'.v` as in `E`
    /// (each has its `→ob`-predecessors before it, and `ê` reads nothing `e'` writes),
    /// except perhaps its last one (see `rereads`).
    pub v: Vec<usize>,
    /// The last event of `v` may read other values there than in `E`: `e'` without
    /// `e` before it, or the observer `o` that now reads `e`'s value. It may then
    /// write elsewhere (within its footprint, a property of its process's local
    /// state): what it writes is not known.
    pub rereads: bool,
    /// For an observed write/write race whose observers are all events (not the
    /// end): `observers(e, e', E)`, in order (the last is line 5's `o`; `v` ends with
    /// it where it can run there, with an earlier one otherwise), for the check
    /// modulo observability ([`crate::algorithms::odpor_cs_ob::modulo_observers`]).
    pub observers: Vec<usize>,
}

/// ISSTA Fig. 1, `RaceDetection(E)` of ODPOR^ob, over `→ob` (`hb`, from [`order`]) of
/// the whole execution `events`: every race `e ⋖ e'` (line 2) with the sequence `v`
/// of lines 4–8 (line numbers as the paper's text gives them), `end` as in [`order`]. Whether the race is reversible, whether `v` is redundant at
/// `pre(E, e)` (line 9) and its insertion (line 10) are the caller's. Only the races
/// whose later event `e'` is in `later` (all of them: `0..events.len()`).
pub fn reversals(
    events: &[Event],
    hb: &HappensBefore,
    guarded: &[bool],
    end: &[bool],
    later: std::ops::Range<usize>,
) -> Vec<Reversal> {
    let mut out = Vec::new();
    let seq: Vec<&Event> = events.iter().collect();
    for j in later.start.max(1)..later.end.min(events.len()) {
        let upto = &events[..=j];
        // Line 2: e ⋖_E e' over →ob: `races::races` finds the footprint conflicts with
        // no event between in →ob; the unobserved write/write ones are no dependency.
        for e in races::races(upto, hb) {
            if hb.independent_of(j).contains(&e) {
                continue;
            }
            let mut v = races::notdep(upto, hb, e);
            v.push(j);
            // Without `e` before it, `e'` reads other values only if it reads what `e`
            // may write.
            let mut rereads = intersects(&events[j].footprint.reads, &events[e].footprint.writes);
            let mut observers_of = Vec::new();
            if write_write_only(&events[e], &events[j]) {
                // Line 4: an observed write/write race (an unobserved one is no race
                // of →ob) is reversed *and observed*. Line 5: o = max_E(observers);
                // line 6: v = notdep*(e, e', E).ê'.ê.(notobs*(e, e', E) \ ê').ô. With
                // the end among the observers, o is the last event that observes, if
                // any: the end is no process step, and a `v` that stopped at ê left
                // the observer's read to the continuation, which may overwrite ê's
                // value first — then no race asked for the class where the observer
                // reads ê, except through a reversal that a covered class made
                // redundant (odpor-ob lost 2 of 20 reads-from classes so:
                // `regressions::odpor_ob_an_observer_beside_the_end_reads_the_reversal`).
                let obs = observers(&seq, e, j, guarded, end);
                v.push(e);
                extend_notobs(events, hb, e, j, &obs, &mut v);
                rereads = false;
                if !obs.end {
                    observers_of.clone_from(&obs.readers);
                }
                // `ô`: the last observer that can run after `v` (its predecessors
                // after `e` all in `v`). An observer may read what an earlier one
                // wrote (a block reads and writes several locations, the paper's
                // events one), and the paper's `notobs*` leaves the earlier one out.
                // Stopping `v` before any observer instead left the reversal
                // unobserved, and its exploration ran another process first: odpor-ob
                // missed 2 of 30 reads-from classes
                // (`regressions::odpor_ob_misses_reads_from_classes_beside_failing_blocks`).
                let mut observers = obs.readers.iter().rev();
                if let Some(&o) = observers.find(|&&o| executable(hb, events, e, &v, o)) {
                    v.push(o);
                    rereads = true;
                }
            }
            // Line 8 otherwise: v = notdep*(e, e', E).ê'.
            out.push(Reversal {
                e,
                later: j,
                v,
                rereads,
                observers: observers_of,
            });
        }
    }
    out
}

/// `notobs*(e, e', E) \ ê'` (ISSTA Sec. 2.2): the events after `e` in `→ob` that are
/// neither observers of the race nor after one, in the order of `E`. An event one of
/// whose predecessors after `e` is left out is left out too, so that `v` stays an
/// execution.
fn extend_notobs(
    events: &[Event],
    hb: &HappensBefore,
    e: usize,
    e2: usize,
    obs: &Observers,
    v: &mut Vec<usize>,
) {
    for k in e + 1..events.len() {
        // Before `e'`, the events not after `e` are `notdep`'s, already in `v`; after
        // it, they are taken as well: an observer may need one of them (a read of
        // its process's earlier step) to be executable.
        if k == e2
            || (k < e2 && !hb.before(events, e, k))
            || obs.readers.contains(&k)
            || obs.readers.iter().any(|&r| hb.before(events, r, k))
        {
            continue;
        }
        if executable(hb, events, e, v, k) {
            v.push(k);
        }
    }
}

/// Whether every `→ob`-predecessor of event `k` after `e` is already in `v`.
fn executable(hb: &HappensBefore, events: &[Event], e: usize, v: &[usize], k: usize) -> bool {
    (e + 1..k).all(|i| !hb.before(events, i, k) || v.contains(&i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pid::Pid;
    use frontend::ir::Program;

    fn loc(elem: i64) -> Loc {
        Loc { global: 0, elem }
    }

    /// An event of process `proc` that may read `reads` and did write `writes` (of
    /// one array global).
    fn event(proc: usize, reads: &[i64], writes: &[i64]) -> Event {
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
    fn procs(n: u32) -> Vec<Process> {
        let program = frontend::load("proc p() { } init { spawn p(); }", &[]).expect("loads");
        let program: &Program = &program;
        (1..=n)
            .map(|k| Process::spawned(program, Pid::root(k), 0, Vec::new()))
            .collect()
    }

    /// p: x = 1; q: x = 2; s: x = 3; r: reads x.
    fn three_writes_and_a_read() -> Vec<Event> {
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

    #[test]
    fn a_last_observer_before_an_overwrite_ends_the_sequence() {
        // p: x = 1; q: x = 2; r: reads x; s: x = 3 (the end sees 3, not q's 2).
        let events = vec![
            event(0, &[], &[0]),
            event(1, &[], &[0]),
            event(2, &[0], &[]),
            event(3, &[], &[0]),
        ];
        let hb = order(&events, &procs(4), &[false], &[true]);
        let seq: Vec<&Event> = events.iter().collect();
        let o = observers(&seq, 0, 1, &[false], &[true]);
        assert_eq!((o.readers.clone(), o.end), (vec![2], false));
        // p ⋖ q observed by r: v = q̂.p̂.r̂ (s comes after the observer: left out).
        assert!(
            reversals(&events, &hb, &[false], &[true], 0..events.len()).contains(&Reversal {
                e: 0,
                later: 1,
                v: vec![1, 0, 2],
                rereads: true,
                observers: vec![2],
            })
        );
    }

    #[test]
    fn the_order_leaves_out_unobserved_write_pairs_only() {
        let events = three_writes_and_a_read();
        let hb = order(&events, &procs(4), &[false], &[true]);
        let ordered: Vec<(usize, usize)> = (0..4)
            .flat_map(|j| (0..j).map(move |i| (i, j)))
            .filter(|&(i, j)| hb.before(&events, i, j))
            .collect();
        assert_eq!(ordered, vec![(0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]);
        // Races: p ⋖ s and q ⋖ s, observed by r and by the end (the end is no step:
        // o is r, the last event that observes; v = notdep.ŝ.p̂.r̂ with notdep(p) = q,
        // v = ŝ.q̂.r̂), and s ⋖ r (v = r̂); p and q do not race.
        let reversals: Vec<(usize, usize, Vec<usize>)> =
            reversals(&events, &hb, &[false], &[true], 0..events.len())
                .into_iter()
                .map(|r| (r.e, r.later, r.v))
                .collect();
        assert_eq!(
            reversals,
            vec![
                (0, 2, vec![1, 2, 0, 3]),
                (1, 2, vec![2, 1, 3]),
                (2, 3, vec![3])
            ]
        );
    }

    #[test]
    fn a_done_process_first_in_the_sequence_makes_it_redundant() {
        // w0: x = 1; w1: x = 2; w2: x = 3; u: y = 1, as wakeup steps of processes 0..4
        // after an empty E', with w0 or u done at the root.
        let step = |process: u128, global: i64| Entry {
            process,
            footprint: Footprint {
                reads: Vec::new(),
                writes: vec![loc(global)],
            },
            spawns: Vec::new(),
            event: None,
            written: vec![loc(global)],
        };
        let (w0, w1, w2, u) = (step(0, 0), step(1, 0), step(2, 0), step(3, 1));
        let redundant = |v: &[Entry], done: u128, guarded: bool| {
            let done = [(0, vec![done])];
            let v: Vec<&Entry> = v.iter().collect();
            redundant(&[], 0, &v, &done, &[guarded, false], &[true, true])
        };
        // In v = ŵ1.ŵ2.ŵ0 the end observes w0's write, so w1 → w0: not redundant.
        assert!(!redundant(&[w1.clone(), w2.clone(), w0.clone()], 0, false));
        // In v = ŵ1.ŵ0.ŵ2, w2 overwrites w0's value and w1's unread: w1 and w0 are
        // unordered in →ob, and w0, done, could go first: redundant.
        let overwritten = [w1.clone(), w0.clone(), w2.clone()];
        assert!(redundant(&overwritten, 0, false));
        // Not when a guard may read x (its writes are always ordered), nor when the
        // last step's writes are not known (it may read other values there, or did
        // not run: it overwrites nothing).
        assert!(!redundant(&overwritten, 0, true));
        let mut unknown = overwritten.clone();
        unknown[2].written.clear();
        assert!(!redundant(&unknown, 0, false));
        // u writes y only: first with no predecessor in ŵ1.û, and done: redundant.
        assert!(redundant(&[w1, u], 3, false));
    }
}
