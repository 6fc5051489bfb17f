//! Alg. 1, lines 6–14 of the CSDPOR and CDPOR papers: the races `e ⋖ n` of each new
//! event and what each adds at `pre(E, e)`: an initial to the backtrack set
//! (Source-DPOR, line 10, `add_initial`) or the whole sequence to the wakeup tree
//! (Optimal-DPOR), after the reduction's line 9, then the reduction's sequence to the
//! sleep set (lines 11–14). Also the wakeup-tree steps (`entry`) events become.

use super::alternatives::rewound;
use super::awaits::{await_race, AwaitRace};
use super::disabling::{RaceAfter, Reversal};
use super::reduction::{race_at, race_view, Equivalent, LineNine, Race, Recorded, Reduction};
use super::wakeup::Insertion;
use super::{choose, Dpor, Node};
use crate::dependency::footprint::{Carried, Footprint};
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::sleep::SleepSet;
use crate::dpor::wakeup_tree::{Carry, Entry};
use crate::executor::Executor;
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use frontend::ir::BlockId;
use frontend::memory::Loc;
use frontend::value::Value;

impl<R: Reduction> Dpor<R> {
    /// Alg. 1, lines 6–14: the races of the newest event `n`, and what they add to the
    /// backtrack and sleep sets of earlier nodes. For a probe (`real == false`) only
    /// the backtrack sets: there is no state after it to compare.
    pub(super) fn analyse_races(&mut self, run: &mut Exploration<'_, '_>, real: bool) {
        // Sec. 3.3: an independence proved for a race is recorded in happens-before,
        // which may expose races that it hid (e → e' → n with e' now unordered with
        // n): analysed in turn, until no new independence is found.
        let mut analysed: Vec<usize> = Vec::new();
        let mut independent: Vec<usize> = Vec::new();
        let mut guarded: Vec<usize> = Vec::new();
        let mut closed: Vec<Loc> = Vec::new();
        loop {
            let n = run.ex.events().len() - 1;
            let races: Vec<usize> = (self.hb.races_of(n).iter())
                .filter(|e| !analysed.contains(e))
                .copied()
                .collect();
            if races.is_empty() {
                return;
            }
            analysed.extend(&races);
            let proved = self.analyse(run, real, &races, &mut guarded, &mut closed);
            if proved.is_empty() {
                return;
            }
            independent.extend(proved);
            self.hb.pop();
            let procs = &run.ex.state.procs;
            (self.hb).push_guarded(run.ex.events(), procs, &independent, &guarded, &closed);
        }
    }

    /// Alg. 1, lines 7–14 for the given races `e ⋖ n` of the newest event; returns
    /// those proved independent (not reversed, CDPOR line 9), and adds to `guarded`
    /// those of them that are guarded (its earlier rounds' are there).
    pub(super) fn analyse(
        &mut self,
        run: &mut Exploration<'_, '_>,
        real: bool,
        races: &[usize],
        guarded: &mut Vec<usize>,
        closed: &mut Vec<Loc>,
    ) -> Vec<usize> {
        let mut independent = Vec::new();
        let n = run.ex.events().len() - 1;
        let reached = std::cell::OnceCell::new();
        let climbs = !self.parts.optimal();
        for &e in races {
            run.stats.pruning.races += 1;
            let prefix = self.snapshots.get(e);
            let replayed = &mut run.stats.pruning.replayed_events;
            let await_race = await_race(&run.ex, &self.hb, (e, n), climbs, prefix, replayed);
            if await_race == AwaitRace::InVain {
                run.stats.pruning.irreversible_races += 1;
                continue;
            }
            // The sequence, and the events of `notdep` it runs before `n` where it
            // ends with `n` (see `crate::dpor::disabling`).
            let mut wakeup: Option<(Vec<Entry>, Option<Vec<usize>>)> = None;
            let n_moves = real && run.ex.carries_accesses(n);
            // Optimal-DPOR (JACM Alg. 2) reverses the races of an execution where it
            // ends, with `notdep(e, E)` over the whole of it; ours are reversed as `n`
            // runs, with the events before `n`. The two agree when `n` is the same
            // event wherever it runs. One that may do otherwise there (it carries what
            // it touched, or it failed) may conflict in the reversal with an event
            // after it in `E` that commutes with it in `E`, which the whole `notdep`
            // puts before it, and which linearisations of the same trace place on
            // either side: q's `z = 1`, then r's block failing on z = 1, then p's
            // reads and write of x that r's block writes where it does not fail; odpor
            // reversed only `q r` and missed `p p p r q`. Such a race is reversed where
            // each execution through `n` ends (`Dpor::reverse_moved_races`). Not one
            // whose `n` touched its whole transition footprint: it touches no more
            // anywhere, so what commutes with it in `E` commutes with it in the
            // reversal, and reversing as it runs is as good (only its step there may
            // touch less: `reversed` gives it). Deferred, BB(8)'s races cost odpor 4
            // times the wakeup insertions and 2.6 times the time. Nor one whose
            // `e` touched what `n` may touch more of (`meets_later_events`).
            let accesses = self.parts.optimal() && run.ex.carried() == Carried::Accesses;
            let moves = accesses
                && real
                && (run.ex.events()[n].failed
                    || (run.ex.touched_less(n) && meets_later_events(&run.ex, e, n)));
            if moves {
                self.moved_races.push((e, n));
                continue;
            }
            {
                let (before, _) = self.nodes.split_at_mut(n);
                let prefix = &mut before[e];
                let at = (e, n, None);
                let mut race = race_view(
                    run,
                    (&self.hb, &mut self.dependency),
                    &self.snapshots,
                    prefix,
                    at,
                    (&reached, self.end_reads),
                );
                let before = self.hb.independent_of(n).iter();
                race.recorded = Recorded {
                    independent: before.chain(&independent).copied().collect(),
                    guarded: guarded.clone(),
                };
                let reverse = match self.reduction.line_nine(&mut race) {
                    LineNine::Reverse => true,
                    LineNine::Independent => false,
                    LineNine::Guarded { closed: c } => {
                        guarded.push(e);
                        closed.extend(c);
                        closed.sort_unstable();
                        closed.dedup();
                        false
                    }
                };
                let in_wut = reverse && self.parts.optimal();
                let sequence = in_wut.then(|| self.reduction.wakeup_sequence(&race));
                if !reverse {
                    independent.push(e);
                } else if let Some((before_n, after_n)) = sequence {
                    // Optimal-DPOR: v = notdep(e, E).n joins wut(E') (see
                    // `insert_wakeup`; odpor-cs's v: `Reduction::wakeup_sequence`).
                    // A real `n`, or a probe's step, whose block takes its path by the
                    // global state joins with the footprint it carries where the
                    // reversal runs it, whichever it carries in `E` (see `reversed`);
                    // another step that did not run here with its block's footprint
                    // (it reads other values there). With its block's footprint, a
                    // probe's step that may write what it does not write there
                    // ordered a process before it in the tree that its own branch,
                    // explored first, commutes with: the step found it asleep (odpor
                    // ended an execution blocked:
                    // `tests/regressions/odpor_accesses_a_probe_reversed_carries_what_its_block_touches_there.ic`).
                    let reruns = match real {
                        true => run.ex.carries_by_path(n),
                        false => run.ex.events()[n].probe && run.ex.block_carries_by_path(n),
                    };
                    let carry = self.dependency.carry();
                    let last = match reruns {
                        true => reversed(&run.ex, &self.hb, (e, n), &before_n, carry),
                        false => entry(&run.ex, n, !real, carry),
                    };
                    let before = before_n.iter().map(|&i| entry(&run.ex, i, false, carry));
                    let after = after_n.iter().map(|&i| entry(&run.ex, i, false, carry));
                    let entries = before.chain([last]).chain(after).collect();
                    wakeup = Some((entries, after_n.is_empty().then_some(before_n)));
                } else {
                    // Source-DPOR: v = notdep(e, E).p; if I_[E'](v) ∩ backtrack(E') = ∅,
                    // add an initial of v. Only initials enabled at E' can be explored:
                    // if none is, `e` enabled `n` and the race is not reversible.
                    // (Races of an `await` that cannot pass here were left out above
                    // only where no probe needs them: see `await_race`.)
                    let mut v = races::notdep(run.ex.events(), &self.hb, e);
                    v.push(n);
                    let whole = (!real || n_moves).then(|| run.ex.event_transition(n));
                    let parts = &self.parts;
                    let choice = (parts.guided(), parts.drops_unneeded());
                    add_initial(run, &self.hb, (e, prefix), choice, &v, whole.as_ref());
                }
            }
            // ODPOR_cs Alg. 1, lines 40–42: a don't-do sequence joins dnd(E') only
            // with a wakeup sequence that is not redundant.
            // `e` runs after the reversal (see `sleeper_covers`): a probe's, or any
            // where `R` may keep a process asleep.
            let lifts = self.parts.lifts();
            let insertion = wakeup.map(|(entries, before_n)| {
                let race_write =
                    (!real || lifts).then(|| moved(&run.ex, e, self.dependency.carry()));
                let after = match (&race_write, &before_n) {
                    (Some(step), _) => RaceAfter::Step(step),
                    (None, Some(v)) => RaceAfter::Rerun(Reversal { e, v, n }),
                    (None, None) => RaceAfter::Nothing,
                };
                self.insert_wakeup(run, e, entries, after)
            });
            if real && insertion == Some(Insertion::Beside) {
                self.refused_beside.push((e, n));
            }
            let redundant = insertion.is_some_and(|i| i != Insertion::Joined);
            if !real || redundant {
                continue;
            }
            self.sleep_at(run, (e, n), &reached, R::sleep_after_race);
        }
        independent
    }

    /// Lines 11–14: what `ask` makes of events `e` and `n` (the newest, or a snapshot
    /// follows it), presented as a race, joins `sleep(pre(E, e))`; `reached` is shared
    /// by the asks about one `n`.
    pub(super) fn sleep_at(
        &mut self,
        run: &mut Exploration<'_, '_>,
        (e, n): (usize, usize),
        reached: &std::cell::OnceCell<Fingerprint>,
        ask: impl FnOnce(&mut R, &mut Race<'_, '_>) -> Option<Equivalent>,
    ) {
        let view = (
            &self.hb,
            &mut self.dependency,
            &self.snapshots[..],
            &self.nodes[e],
            self.end_reads,
        );
        let reduction = &mut self.reduction;
        let dont = race_at(run, view, (e, n), reached, |r| ask(reduction, r));
        match dont {
            // A node of the top that threads share keeps its sleep set there.
            Some(dont) if run.shares_above(e) => run.sleep_above(e, dont),
            dont => add_dont_do(&mut self.nodes[e].sleep, dont),
        }
    }
}

/// Source-DPOR (Alg. 1, line 10): unless an initial of `v` (event indices of the
/// current execution; `last`: the footprint its last event has when it runs, for a
/// probe) is in `backtrack(E')` already, one that is enabled at `E'` joins it. If
/// none is enabled, `v` cannot run there and nothing is added. Where an initial is
/// there only by cdpor's guarded independences, the same is done again without it
/// (see [`races::moved_by_guarded`]). `E'` is the node `prefix` at depth `e`; one in
/// the top that threads share decides there. `guided`: the choice among initials
/// follows sleep sequences ([`choose`]); `recorded`: what each entry stands for is
/// kept, for line 5 to drop the entries explored ones stand for ([`super::needs`]).
pub(super) fn add_initial(
    run: &mut Exploration<'_, '_>,
    hb: &HappensBefore,
    (e, prefix): (usize, &mut Node),
    (guided, recorded): (bool, bool),
    v: &[usize],
    last: Option<&Footprint>,
) {
    let initials = races::initials(run.ex.events(), hb, v, last);
    // An initial that a guarded independence alone put there may stand for no
    // reversal of the race: one of the others, or else the race's later event,
    // joins too (`races::moved_by_guarded`).
    let moved = races::moved_by_guarded(run.ex.events(), hb, e, v);
    let mut sure: Vec<usize> = Vec::new();
    if initials.iter().any(|q| moved.contains(q)) {
        sure = initials
            .iter()
            .filter(|q| !moved.contains(q))
            .copied()
            .collect();
        if sure.is_empty() {
            sure.extend(v.last().map(|&n| run.ex.events()[n].proc));
        }
    }
    for initials in [initials, sure] {
        if initials.is_empty() {
            continue;
        }
        if run.shares_above(e) {
            run.ask_above(e, initials);
            continue;
        }
        let candidates: Vec<usize> = (initials.iter().copied())
            .filter(|q| prefix.enabled.contains(q))
            .collect();
        let Node {
            backtrack,
            needs,
            sleep,
            current,
            ..
        } = &mut *prefix;
        let settled = super::needs::settled(*current, sleep, &run.ex.state);
        let holds = match recorded {
            true => needs.holds(backtrack, &initials, settled),
            false => initials.iter().any(|q| backtrack.contains(q)),
        };
        if holds {
            continue;
        }
        if let Some(q) = choose(guided, &run.ex.state, sleep, &candidates) {
            backtrack.push(q);
            if recorded {
                needs.add(q, initials);
            }
            run.stats.pruning.backtrack_added += 1;
        }
    }
}

/// Adds what [`Reduction::sleep_after_race`] returned to `sleep(E')`.
pub(crate) fn add_dont_do(sleep: &mut SleepSet, dont: Option<Equivalent>) {
    match dont {
        Some(Equivalent::Proved(steps)) => sleep.insert_equivalent(steps, &[]),
        Some(Equivalent::IfReaching(steps, state)) => sleep.insert_if_reaching(steps, state),
        None => {}
    }
}

/// Event `i` of the current execution as a step of a sequence that runs it after
/// other events than it followed: with its transition footprint if it carries what
/// it touched ([`Executor::carries_accesses`]).
///
/// The events of `notdep(e, E)` keep what they touched wherever a reversal of
/// `e ⋖ n` puts them before `n`: none of them conflicts with `e` or with an event
/// that happens after `e`, so the last write before each of their reads is the same
/// without those events, and each reads the values it read, takes the same path
/// and touches the same locations. `n` and `e` run after other events there (`n`
/// without `e` before it, `e` after `n`): what they read may differ, and only their
/// transition footprints contain what they touch then. (This is the property of
/// Source-DPOR's events, JACM'17 Sec. 3, that a reversal runs the same events of
/// `notdep(e, E)`; with transition footprints it holds of every step.)
pub(super) fn moved(ex: &Executor<'_>, i: usize, carry: Carry) -> Entry {
    entry(ex, i, ex.carries_accesses(i), carry)
}

/// Event `n` of a race `e ⋖ n` as the last step of its reversal `v.n`, `v` being
/// events of `notdep(e, E)` in order, where `n` may do otherwise than in `E` (it
/// carries what it touched, or failed, with `--deps accesses`; or its path depends on
/// the global state, [`Executor::carries_by_path`]): with the footprint it carries
/// when it runs in `s[E'.v]` ([`Executor::accesses_at`]). `v` runs there
/// as in `E` (see [`moved`]), so the memory is read off the undo log
/// ([`rewound`]), and `n` runs with the locals it had; where the memory is
/// not exact there, with its transition footprint.
///
/// Not its transition footprint wherever it may: a wakeup tree's steps are compared
/// with the events the search runs, and must be those events. With the larger
/// transition footprint for q's `if (y == 0) { x = 0; } else { y = 0; }`, which in
/// `E` read y and wrote x, odpor missed 16 of 900 traces
/// (`tests/regressions/odpor_ob_misses_reads_from_classes_generated.ic`, `--deps
/// accesses`); with what it touches there rather than what it carries (a path that
/// touches fewer locations than its block may carries its transition footprint),
/// 1 of 27 (`tests/regressions/odpor_cs_ob_a_process_chained_to_a_partner_races_with_the_settled_step.ic`).
/// Not only where `n` carried what it touched in `E`: one that carried its transition
/// footprint there, because its path left a location of it untouched, may take
/// another path after `v` and carry less, what it touches there. With its footprint
/// in `E` (p@2's then path writes w and leaves y unread), the branch p@2 at `E'`,
/// asked for by another race with that footprint, was no weak initial of `v.n` (`v`
/// is r's read of w), which joined as a branch of its own; p@2 ran at `E'` on its
/// else path, slept with what it touched there (no write of w), stayed asleep past
/// r, and that branch ended blocked (odpor explored a generated program's 20 traces
/// and 3 blocked executions so:
/// `tests/regressions/odpor_accesses_a_step_carrying_its_transition_footprint_may_carry_less_reversed.ic`).
pub(super) fn reversed(
    ex: &Executor<'_>,
    hb: &HappensBefore,
    (e, n): (usize, usize),
    v: &[usize],
    carry: Carry,
) -> Entry {
    let exact = rewound(ex, hb, e, v).and_then(|mem| ex.accesses_at(&mem, n));
    match exact {
        // What it surely overwrites there is not known: none (only the observers,
        // which do not move such events, read it).
        Some(footprint) => Entry {
            footprint,
            written: Vec::new(),
            ..entry(ex, n, false, carry)
        },
        None => entry(ex, n, true, carry),
    }
}

/// Whether `n`, which touched less than its transition footprint, may in the
/// reversal of `e ⋖ n` conflict with an event after it in `E` that happens after
/// neither: one that does not conflict with it in `E` but would with what it may
/// touch more, a write of a location `n` only read or a read or write of one it did
/// not touch. `e` stands in the way of each such event where `e` writes every
/// location `n` may write and did not, and touches every one `n` may touch and did
/// not: the event would conflict with `e`, and so happen after it. Then JACM's
/// sequence keeps no event after `n` ([`needed_before`](super::wakeup)) in any
/// continuation, and the race is reversed as `n` runs. A compare-and-swap that
/// failed on the value `e` wrote is one (indexer(16): odpor 1.6 times as fast).
fn meets_later_events(ex: &Executor<'_>, e: usize, n: usize) -> bool {
    let (did, other) = (&ex.events()[n].footprint, &ex.events()[e].footprint);
    let has = |set: &[Loc], l: &Loc| set.binary_search(l).is_ok();
    let touches = |f: &Footprint, l: &Loc| has(&f.reads, l) || has(&f.writes, l);
    ex.with_event_transition(n, |may| {
        may.writes
            .iter()
            .any(|l| !has(&did.writes, l) && !has(&other.writes, l))
            || (may.reads.iter().chain(&may.writes)).any(|l| !touches(did, l) && !touches(other, l))
    })
}

/// Event `i` of the current execution as a wakeup-tree entry; `whole`: with its
/// block's transition footprint (a probe, or an `await` that cannot run where the
/// sequence puts it), not what it touched; with what `carry` asks for beside.
pub(super) fn entry(ex: &Executor<'_>, i: usize, whole: bool, carry: Carry) -> Entry {
    Entry {
        event: entry_event(ex, i, carry),
        ..accesses(ex, i, whole, carry.written)
    }
}

/// The step of event `i` as [`entry`] makes it, without its block and locals and
/// always with what it wrote: what the accesses of a sequence are judged on
/// (observers, footprints).
pub(super) fn entry_accesses(ex: &Executor<'_>, i: usize, whole: bool) -> Entry {
    accesses(ex, i, whole, true)
}

/// [`entry_accesses`], with what event `i` wrote only if `written`.
fn accesses(ex: &Executor<'_>, i: usize, whole: bool, written: bool) -> Entry {
    let event = &ex.events()[i];
    let procs = &ex.state.procs;
    // Where a whole block stands for the event, it did not run there.
    Entry {
        process: procs[event.proc].pid_key,
        footprint: if whole {
            ex.event_transition(i)
        } else {
            event.footprint.clone()
        },
        spawns: (event.spawned.0..event.spawned.1)
            .map(|k| procs[k].pid_key)
            .collect(),
        event: None,
        written: if whole || !written {
            Vec::new()
        } else {
            event.written.clone()
        },
    }
}

/// The block and locals of event `i`'s step, for [`entry`], where `carry` asks for
/// them; none for a failed event (or a probe), which commutes by no constraint.
pub(super) fn entry_event(
    ex: &Executor<'_>,
    i: usize,
    carry: Carry,
) -> Option<(BlockId, Vec<Value>)> {
    let event = &ex.events()[i];
    (carry.blocks && !event.failed).then(|| (event.block, ex.entry_locals(i).to_vec()))
}
