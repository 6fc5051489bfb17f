//! ODPOR^ob's race detection (ISSTA'19 Fig. 1, `RaceDetection(E)`), for the
//! algorithms whose races are found where an execution ends ([`super::observed`]):
//! each race of the execution over `→ob` with the sequence that reverses it and is
//! observed (lines 2–8), and whether that sequence is redundant where it would be
//! inserted (line 9). The relation itself is [`crate::dependency::observers`].

use crate::dependency::footprint::intersects;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::observers::{observers, write_write_only, Observers};
use crate::dependency::races;
use crate::dependency::Dependency;
use crate::dpor::wakeup_tree::{first_unordered, Entry};
use crate::executor::Event;
use crate::fingerprint::Fingerprint;

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
/// (`tests/regressions/odpor_ob_a_covered_class_does_not_cover_its_neighbours.ic`), and lost
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
/// other subtree (`tests/regressions/odpor_ob_circular_coverage_misses_reads_from_classes.ic`,
/// 6 of 821 classes missed). Keeping ordered here a pair whose overwrite in the
/// prefix is read after it repaired that program, not others; the repair is in the
/// caller: a done process that an execution explored elsewhere shows to come first
/// does not judge that execution's later races redundant
/// (`Dpor::done_first_elsewhere`).
pub fn redundant(
    prefix: &[Entry],
    from: usize,
    v: &[&Entry],
    done: &[(usize, Vec<Fingerprint>)],
    dependency: &Dependency,
) -> bool {
    // `w'.v` for each `w` is a suffix of the longest one.
    let whole: Vec<&Entry> = prefix.iter().chain(v.iter().copied()).collect();
    done.iter().any(|(w, processes)| {
        if processes.is_empty() || *w < from {
            return false;
        }
        let seq = &whole[w - from..];
        let mut independent = |seq: &[&Entry], i: usize, k: usize| dependency.unobserved(seq, i, k);
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

/// ISSTA Fig. 1, `RaceDetection(E)` of ODPOR^ob, over `→ob` (`hb`, from [`order`](crate::dependency::observers::order)) of
/// the whole execution `events`: every race `e ⋖ e'` (line 2) with the sequence `v`
/// of lines 4–8 (line numbers as the paper's text gives them), `end` as in [`order`](crate::dependency::observers::order). Whether the race is reversible, whether `v` is redundant at
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
                // `tests/regressions/odpor_ob_an_observer_beside_the_end_reads_the_reversal.ic`).
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
                // (`tests/regressions/odpor_ob_misses_reads_from_classes_beside_failing_blocks.ic`).
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
    use crate::dependency::footprint::Footprint;
    use crate::dependency::observers::order;
    use crate::dependency::observers::tests::{event, loc, procs, three_writes_and_a_read};

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
            redundant(
                &[],
                0,
                &v,
                &done,
                &Dependency::observing(vec![guarded, false]),
            )
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
