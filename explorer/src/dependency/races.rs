//! Races and the sequences DPOR builds from them, as the papers define them. Events
//! are indices into the current execution `E.p`; the newest event `n = next_[E](p)`
//! is the last one (index `d`).

use crate::dependency::footprint::Footprint;
use crate::dependency::happens_before::HappensBefore;
use crate::executor::Event;

/// Events `e` in race with `n` (CSDPOR Alg. 1, line 6: `e ⋖_{E.p} n`): of another
/// process, `e → n` directly — they conflict and no event between them happens after
/// `e` and before `n` — and `e` did not create `n`'s process (a spawn is ordered like
/// program order, never reversible; so is the first event of a guarded pair whose
/// second created it, [`HappensBefore::forced`]).
///
/// An event `j` between them with `e → j → n` exists exactly when `e` happens before
/// one of `n`'s direct predecessors after `e` (program order, creation, or a conflict
/// not recorded independent: the events whose clocks `n`'s clock joins): `j → n`
/// runs through one of them, and each happens before `n`. Scanning backwards and
/// joining their clocks answers that for every `e` in one pass, where testing each
/// `j` cost sdpor an eighth of its time on QS_shared(20).
pub fn races(events: &[Event], hb: &HappensBefore) -> Vec<usize> {
    let d = events.len() - 1;
    let n = &events[d];
    let (recorded, forced) = (hb.independent_of(d), hb.forced(d));
    let mut later_predecessors: Vec<u32> = Vec::new();
    let mut races = Vec::new();
    for i in (0..d).rev() {
        let e = &events[i];
        let ordered = e.precedes_in_program(n) || forced.contains(&i);
        let conflicts = e.conflicts(n);
        if !ordered && conflicts && !hb.in_clock(&later_predecessors, events, i) {
            races.push(i);
        }
        if ordered || (conflicts && !recorded.contains(&i)) {
            hb.join_clock(&mut later_predecessors, i);
        }
    }
    races.reverse();
    races
}

/// `notdep(e, E)` (CSDPOR Sec. 5.1): the events after `e` in `E` that do not happen
/// after `e`, in order (`n` excluded).
pub fn notdep(events: &[Event], hb: &HappensBefore, e: usize) -> Vec<usize> {
    let d = events.len() - 1;
    (e + 1..d).filter(|&j| !hb.before(events, e, j)).collect()
}

/// The processes whose first event in `v` (a reversal's sequence for a race of `e`)
/// is there only by a guarded independence of cdpor's: it happens after `e` when
/// those count as the conflicts they are. Such an event commutes with its partner
/// where the execution's linearisations meet them, not where the reversal runs it:
/// there a branch it heads may stand for no branch that reverses the race
/// (`tests/regressions/cdpor_a_reversal_moves_a_guarded_pair.ic`).
pub fn moved_by_guarded(events: &[Event], hb: &HappensBefore, e: usize, v: &[usize]) -> Vec<usize> {
    if hb.with_guarded() == 0 {
        return Vec::new();
    }
    let Some(&end) = v.last() else {
        return Vec::new();
    };
    // Whether each event from `e` to the last of `v` happens after `e` so.
    let mut after = vec![false; end + 1 - e];
    after[0] = true;
    for j in e + 1..=end {
        let guarded = hb.guarded_of(j);
        after[j - e] =
            (e..j).any(|k| after[k - e] && (guarded.contains(&k) || hb.before(events, k, j)));
    }
    let mut moved = Vec::new();
    let mut seen = Vec::new();
    for &x in v {
        let proc = events[x].proc;
        if seen.contains(&proc) {
            continue;
        }
        seen.push(proc);
        if after[x - e] && !hb.before(events, e, x) {
            moved.push(proc);
        }
    }
    moved
}

/// `notdep(e, E)` of a whole execution `E` (JACM Alg. 2, where an execution ends):
/// the events after `e` that do not happen after `e`, in order, to the last.
pub fn notdep_whole(events: &[Event], hb: &HappensBefore, e: usize) -> Vec<usize> {
    (e + 1..events.len())
        .filter(|&j| !hb.before(events, e, j))
        .collect()
}

/// `notdep(e, E)` split as ODPOR_cs redefines the sequence of a race `e ⋖ n` (ISSTA'19
/// Sec. 3.2, Alg. 1 line 37): `ance(e, n, E)`, the events after `e` that happen before
/// `n`; the future initials `I_fut`, the other events of `notdep(e, E)` that none of
/// those others happens before; and the rest. Each in order.
pub fn ance_split(events: &[Event], hb: &HappensBefore, e: usize) -> [Vec<usize>; 3] {
    let d = events.len() - 1;
    let (ance, others): (Vec<usize>, Vec<usize>) = notdep(events, hb, e)
        .into_iter()
        .partition(|&j| hb.before(events, j, d));
    let (initials, rest) = others
        .iter()
        .partition(|&&j| !others.iter().any(|&k| hb.before(events, k, j)));
    [ance, initials, rest]
}

/// `dep(e, E)` of CSDPOR (Alg. 1, line 11): `e` and the events after it in `E` that
/// happen after `e`, in order (`n` excluded).
pub fn dep_after(events: &[Event], hb: &HappensBefore, e: usize) -> Vec<usize> {
    let d = events.len() - 1;
    std::iter::once(e)
        .chain((e + 1..d).filter(|&j| hb.before(events, e, j)))
        .collect()
}

/// `dep(E, e, n)` of CDPOR (Alg. 1, line 8): the events after `e` in `E` that happen
/// before `n`, in order.
pub fn dep_before(events: &[Event], hb: &HappensBefore, e: usize) -> Vec<usize> {
    let d = events.len() - 1;
    (e + 1..d).filter(|&j| hb.before(events, j, d)).collect()
}

/// `I_[E'](v)` (Source-DPOR's initials): the processes whose first event in the
/// sequence `v` (event indices, in order) has no happens-before predecessor in `v`.
///
/// `last`, when given, is the footprint the last event of `v` has when it runs: a
/// probe stands for a blocked process's next block and carries only its guard's
/// reads, but in the reversed sequence the block runs whole, after every event of
/// `v` it conflicts with. Taking the probe's footprint instead made an initial of
/// the probe's process, already in a backtrack set but asleep, hide the initial that
/// had to be added (`tests/regressions/probe_reversal_behind_a_write_it_reads.ic`).
pub fn initials(
    events: &[Event],
    hb: &HappensBefore,
    v: &[usize],
    last: Option<&Footprint>,
) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for (k, &x) in v.iter().enumerate() {
        let proc = events[x].proc;
        if seen.contains(&proc) {
            continue;
        }
        seen.push(proc);
        let before = &v[..k];
        let ordered = before.iter().any(|&y| hb.before(events, y, x))
            || (k + 1 == v.len())
                && last.is_some_and(|f| before.iter().any(|&y| events[y].footprint.conflicts(f)));
        if !ordered {
            out.push(proc);
        }
    }
    out
}
