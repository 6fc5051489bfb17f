//! Races found where an execution ends, over the observer-aware happens-before `→ob`
//! (ISSTA'19, Alg. 1, line 14, and Fig. 1), for the reductions whose
//! [`Parts::races`](super::parts::Parts) are [`Races::AtTheEnd`](super::parts::Races):
//! whether two writes race depends on what reads after them. The reversals and
//! their redundancy are [`super::observed_reversals`]; this module drives them over
//! each execution, its probes and its blocked steps.

use super::awaits::{await_race, AwaitRace};
use super::covered::guard_reads_written;
use super::disabling::RaceAfter;
use super::race_analysis::{add_dont_do, entry_accesses, entry_event, moved};
use super::reduction::{race_at, Reduction};
use super::wakeup::{waits, Insertion};
use super::Dpor;
use crate::dependency::footprint::{intersects, Footprint, WHOLE};
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::dpor::wakeup_tree::Entry;
use crate::executor::{Event, Executor};
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;
use frontend::memory::Loc;
use std::borrow::Cow;

impl<R: Reduction> Dpor<R> {
    /// ODPOR^ob (ISSTA 2019, Alg. 1, line 14, and Fig. 1) for a reduction with
    /// [`Parts::observers`]: the races of the execution that ends here (complete,
    /// or blocked), over the observer-aware happens-before of [`crate::dependency::observers`],
    /// each reversal inserted as [`Dpor::insert_wakeup`] inserts those of the
    /// incremental analysis (which such a reduction does not run on real events).
    /// `complete`: no process can run (otherwise it is blocked in a sleep set, and
    /// its end reads what its continuations may: see [`crate::dependency::observers::end_reads`]).
    pub(super) fn observed_races(&mut self, run: &mut Exploration<'_, '_>, complete: bool) {
        if !self.parts.observers() {
            return;
        }
        let (events, procs) = (run.ex.events(), &run.ex.state.procs);
        let vo = run.config.violations_only;
        let end =
            crate::dependency::observers::end_reads(run.ex.program(), &run.ex.state, vo, complete);
        let mut order = self.dependency.order(events, procs, &end);
        // Only a complete execution is a class of its own: a blocked one stands for
        // its continuations, explored (or covered) elsewhere.
        let owed = if complete {
            self.done_first_elsewhere(run, &order)
        } else {
            Vec::new()
        };
        self.observed_races_up_to(run, &order, &end, LastEvent::Ran, &owed);
        // A real `await` asks to run before the writes that disabled it, over `→ob`:
        // its probes in the middle of the execution were judged by footprints, where a
        // pair of writes that a later one overwrites unread still orders them
        // (`tests/regressions/odpor_ob_a_wait_in_the_middle_is_probed_by_footprints.ic`). A
        // failed `await` too, as the incremental analysis asks for it
        // ([`Dpor::pass_disabling_writes`]): its guard held, and running it before the
        // writes that disabled it may pass or fail otherwise. (No program is known
        // where leaving it out changes what is found; every sequence asked for goes
        // through the redundancy check.)
        for n in 0..run.ex.events().len() {
            if waits(run.program(), run.ex.events()[n].block) {
                self.pass_disabling_writes_at(run, &order, n);
            }
        }
        let blocked: Vec<usize> = (0..run.ex.state.procs.len())
            .filter(|&r| run.ex.state.procs[r].next.is_some() && !run.ex.is_enabled(r))
            .collect();
        self.observed_probes(run, &mut order, &end, &blocked, &owed);
    }

    /// The processes done at a node `w` of the path that come first in the rest of
    /// the execution that just completed, over its `→ob` (`hb`): their first event
    /// after `w` has no predecessor after `w`. The execution is then one of the
    /// classes that Fig. 1, line 9 trusts the subtree of such a process `d` at `w`
    /// to explore, yet it was reached in another branch of `w`: the sequence that led
    /// here was inserted there when `d` did not come first in it. Over `→ob` weak
    /// initials grow as a sequence is extended (a write that the end of the sequence
    /// observes is unobserved once a later step overwrites it unread), so with
    /// observers this happens; with plain happens-before it cannot (`d` would be
    /// asleep). The races of this execution from `d`'s event on then lead to the
    /// classes that `d`'s subtree, which may never have reached this one, would have
    /// asked for from its own representative of it; a reversal of such a race is
    /// not judged redundant by `d` at `w` ([`done_for_reversal_at`]).
    ///
    /// Before this, two such judgements covered each other's classes: at `w = p@1
    /// p@4 p@2 q`, the subtree of p@4 cut the reversals that put q's check before the
    /// others' as covered by p@1's and p@2's subtrees, whose own races led to the
    /// class where p@4's check precedes q's last write and p@1's and p@2's follow it,
    /// through a sequence inserted into q's branch (p@4's check wrote b, which the
    /// end of that sequence read, so p@4 did not come first); there the race of the
    /// last two writes of b was judged covered by p@4, done: odpor-ob missed 2 of
    /// 2,043 reads-from classes
    /// (`tests/regressions/odpor_ob_misses_the_last_writer_of_a_check_after_circular_coverage.ic`),
    /// and 3 of 74 in a 3-process program
    /// (`tests/regressions/odpor_ob_a_class_reached_outside_the_done_subtree.ic`). That this
    /// reaches every class is not proved: the differential test checks it.
    pub(super) fn done_first_elsewhere(
        &self,
        run: &Exploration<'_, '_>,
        hb: &HappensBefore,
    ) -> Vec<DoneFirstElsewhere> {
        let events = run.ex.events();
        let procs = &run.ex.state.procs;
        let mut owed = Vec::new();
        for (node, processes) in self.done(run, events.len()) {
            for process in processes {
                let first =
                    (node..events.len()).find(|&k| procs[events[k].proc].pid_key == process);
                if let Some(first) = first.filter(|&k| (node..k).all(|i| !hb.before(events, i, k)))
                {
                    owed.push(DoneFirstElsewhere {
                        node,
                        process,
                        first,
                    });
                }
            }
        }
        owed
    }
}

/// A process done at node `node` of the path whose first event after it, `first`,
/// comes first there in the execution being analysed ([`Dpor::done_first_elsewhere`]).
pub(super) struct DoneFirstElsewhere {
    node: usize,
    process: Fingerprint,
    first: usize,
}

/// Fig. 1, line 9's `done` for a reversal at node `e` (`done` of the prefixes up to
/// it): without the processes `owed` whose first event is at or before `e`, at the
/// node where they were done ([`Dpor::done_first_elsewhere`]). Only for the races from
/// that event on: leaving `d` out for every race of the execution missed no class
/// either in the campaign that measured both (3,000 generated programs), and
/// explored more (1.28 times the complete executions of before, against 1.25).
pub(super) fn done_for_reversal_at<'a>(
    done: &'a [(usize, Vec<Fingerprint>)],
    owed: &[DoneFirstElsewhere],
    e: usize,
) -> Cow<'a, [(usize, Vec<Fingerprint>)]> {
    // `first` is at or after `node`: `done[o.node]` is in the slice.
    let mut applying = owed.iter().filter(|o| o.first <= e).peekable();
    if applying.peek().is_none() {
        return Cow::Borrowed(done);
    }
    let mut done = done.to_vec();
    for o in applying {
        done[o.node].1.retain(|&p| p != o.process);
    }
    Cow::Owned(done)
}

impl<R: Reduction> Dpor<R> {
    /// The probes of [`Dpor::observed_races`], of processes `probed`.
    pub(super) fn observed_probes(
        &mut self,
        run: &mut Exploration<'_, '_>,
        order: &mut HappensBefore,
        end: &[bool],
        probed: &[usize],
        owed: &[DoneFirstElsewhere],
    ) {
        // A process blocked at the end is probed, one at a time, so that the writes
        // that disabled it are reversed over →ob too: the incremental probes judge
        // them by footprints, where two writes of a location that a later write
        // overwrites unread still order its earlier steps after the disabling write
        // (odpor-ob lost a final state so:
        // `tests/regressions/odpor_ob_probes_the_processes_blocked_at_the_end.ic`). The
        // probe also asks to run before each earlier write that disabled it, over
        // the same order (its direct race is with the last one only). The probe
        // leaves the order of the execution as it is: it writes nothing, and reads
        // only what a guard reads, whose writes are always ordered (`guarded`); so
        // its clock is pushed onto that order, with no pair of writes unobserved.
        for &r in probed {
            run.ex.probe(r);
            order.push(run.ex.events(), &run.ex.state.procs, &[]);
            self.observed_races_up_to(run, order, end, LastEvent::Probe, owed);
            self.pass_disabling_writes_over(run, order);
            order.pop();
            run.ex.back();
        }
    }

    /// The races of [`Dpor::observed_races`]: those of the execution, or only those of
    /// its last event when it is a probe of a blocked process (see [`LastEvent`]); `owed`:
    /// the done processes the execution shows to come first elsewhere
    /// ([`Dpor::done_first_elsewhere`]).
    pub(super) fn observed_races_up_to(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        end: &[bool],
        last: LastEvent,
        owed: &[DoneFirstElsewhere],
    ) {
        let events = run.ex.events();
        let len = events.len();
        let later = if last == LastEvent::Probe {
            len - 1..len
        } else {
            0..len
        };
        // Whether a reversal ends with the last event unrun: its whole block.
        let unrun = |later: usize| last != LastEvent::Ran && later == len - 1;
        // Fig. 1, line 9's `done` of every prefix, taken once, at the first race that
        // asks: the races below change wakeup trees and don't-do sets, not what was
        // explored.
        let mut done: Option<Vec<(usize, Vec<Fingerprint>)>> = None;
        // The accesses of the execution's events (no locals: what the redundancy
        // check reads of a step), built once per execution as far as a race needs.
        let mut steps: Vec<Entry> = Vec::new();
        for mut reversal in crate::dpor::observed_reversals::reversals(
            events,
            hb,
            self.dependency.guarded(),
            end,
            later,
        ) {
            run.stats.pruning.races += 1;
            // Only a reversible race is reversed (`e ≲ e'`, ISSTA Sec. 2.1): an
            // `await` that cannot run first is handled as the incremental analysis
            // handles it, over →ob.
            // Unlike odpor's, the climb stays: the races of real `await` events are
            // analysed here, at the end, beside what `pass_disabling_writes` asks for
            // them (`Dpor::observed_races`); with neither, odpor-ob explored 11 of
            // dining(4)'s 14 traces.
            let replayed = &mut run.stats.pruning.replayed_events;
            let how = await_race(
                &run.ex,
                hb,
                (reversal.e, reversal.later),
                true,
                None,
                replayed,
            );
            if how == AwaitRace::InVain {
                run.stats.pruning.irreversible_races += 1;
                continue;
            }
            let climb = how == AwaitRace::Climb;
            if climb {
                // The branch ends at the step that cannot run (see `AwaitRace::Climb`).
                reversal.v.truncate(
                    reversal
                        .v
                        .iter()
                        .position(|&i| i == reversal.later)
                        .map_or(0, |k| k + 1),
                );
            }
            let needed = reversal.v.iter().max().map_or(0, |&i| i + 1);
            for i in steps.len()..needed.max(reversal.e) {
                steps.push(entry_accesses(&run.ex, i, false));
            }
            // The steps as inserted, with their blocks and locals where the search
            // reads them (`Carry`): an `await` that cannot run there, or an unrun
            // step, with its whole block; a last step that may read other values
            // there (`Reversal::rereads`), whose writes are not known, overwriting
            // nothing for the weak initials.
            let last_k = reversal.v.len() - 1;
            let own: Vec<(usize, Entry)> = (reversal.v.iter().enumerate())
                .filter_map(|(k, &i)| {
                    let whole = (climb || unrun(i)) && i == reversal.later;
                    let unknown = reversal.rereads && k == last_k;
                    (whole || unknown).then(|| {
                        let mut step = entry_accesses(&run.ex, i, whole);
                        if unknown {
                            step.written.clear();
                        }
                        (k, step)
                    })
                })
                .collect();
            let v: Vec<&Entry> = (reversal.v.iter().enumerate())
                .map(|(k, &i)| {
                    own.iter()
                        .find(|(j, _)| *j == k)
                        .map_or(&steps[i], |(_, s)| s)
                })
                .collect();
            // Fig. 1, line 9: not when a process done at a prefix of E' comes first. A
            // step that ran there and was blocked at a covered state is not done:
            // nothing below it was explored (as for the wakeup insertion's sleep
            // sets, `block_after_equivalent`); over `→ob` it may come first where it
            // never did over plain happens-before (odpor-cs-ob lost a final state so:
            // `tests/regressions/odpor_cs_ob_a_blocked_step_is_not_done.ic`). A step whose
            // own executions below were blocked counts as done, as in odpor-cs (the
            // node where they were blocked went on with fresh processes).
            let done = done.get_or_insert_with(|| self.done(run, len));
            let done = done_for_reversal_at(&done[..=reversal.e], owed, reversal.e);
            let redundant = self.redundant(&done, &steps, &v);
            if redundant {
                run.stats.pruning.redundant_races += 1;
                continue;
            }
            let carry = self.dependency.carry();
            let entries: Vec<Entry> = (v.into_iter().zip(&reversal.v))
                .map(|(step, &i)| Entry {
                    event: entry_event(&run.ex, i, carry),
                    ..step.clone()
                })
                .collect();
            // ISSTA Alg. 2, lines 79–81: a don't-do sequence joins dnd(E') only with a
            // wakeup sequence that is not redundant.
            let race_write = (last == LastEvent::Probe).then(|| moved(&run.ex, reversal.e, carry));
            // No state follows an unrun event.
            let after_unrun = unrun(reversal.later);
            let joined = self.insert_wakeup(
                run,
                reversal.e,
                entries,
                race_write
                    .as_ref()
                    .map_or(RaceAfter::Nothing, RaceAfter::Step),
            );
            if joined == Insertion::Joined && !after_unrun {
                self.dont_do_after_observed_race(run, hb, &reversal);
            }
        }
    }
}

/// The last event of an execution whose races [`Dpor::observed_races_up_to`]
/// analyses at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LastEvent {
    /// An event that ran.
    Ran,
    /// The probe of a blocked process: only its races are analysed (the others were,
    /// without it).
    Probe,
    /// A step confirmed in `dnd(E)`, not run ([`Dpor::analyse_unrun_observed`]).
    Settled,
}

impl<R: Reduction> Dpor<R> {
    /// Fig. 1, line 9's `done` of the prefixes of the current path up to length
    /// `len`: per node, the processes (by identity) whose subtrees from it were
    /// explored (see `observed_races_up_to` for which count).
    pub(super) fn done(
        &self,
        run: &Exploration<'_, '_>,
        len: usize,
    ) -> Vec<(usize, Vec<Fingerprint>)> {
        let procs = &run.ex.state.procs;
        let nodes = self.nodes.iter().take(len).enumerate();
        nodes
            .map(|(w, node)| {
                let keys = node.backtrack.iter().filter_map(|&p| {
                    let key = procs.get(p)?.pid_key;
                    let explored = Some(p) != node.current
                        && !node.blocked_steps.contains(&key)
                        && !node.delegated.contains(&key);
                    explored.then_some(key)
                });
                (w, keys.collect())
            })
            .collect()
    }

    /// Fig. 1, line 9: whether the sequence `v` is redundant at the node `done.len() -
    /// 1`, whose prefix's steps are `steps` (at least up to that node), given `done`
    /// ([`Dpor::done`]) of the prefixes up to it ([`crate::dpor::observed_reversals::redundant`]).
    pub(super) fn redundant(
        &self,
        done: &[(usize, Vec<Fingerprint>)],
        steps: &[Entry],
        v: &[&Entry],
    ) -> bool {
        let at = done.len() - 1;
        done.iter()
            .position(|(_, p)| !p.is_empty())
            .is_some_and(|from| {
                crate::dpor::observed_reversals::redundant(
                    &steps[from..at],
                    from,
                    v,
                    done,
                    &self.dependency,
                )
            })
    }

    /// ISSTA Alg. 2, lines 75–78 (`odpor-cs-ob`): the context-sensitive check of a race
    /// `e ⋖ e'` found once the execution ended, over `→ob` (`hb`). The race is
    /// presented to [`Reduction::sleep_after_race`] as the incremental analysis
    /// presents it when `e'` has just run: the execution `pre⁺(E, e')` and its state
    /// (the snapshot after `e'`). Whatever the order `→ob` gives the sequence, the
    /// check is one of state identity, done lazily: an execution that follows the
    /// don't-do sequence is blocked only where it reaches `s[pre⁺(E, e')]`, a state
    /// whose continuations were explored from `E` (odpor-cs's note 2).
    pub(super) fn dont_do_after_observed_race(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        reversal: &crate::dpor::observed_reversals::Reversal,
    ) {
        if !self.parts.snapshots() {
            return;
        }
        let (e, later) = (reversal.e, reversal.later);
        let (snapshots, node, end_reads) = (&self.snapshots[..], &self.nodes[e], self.end_reads);
        let (reduction, dependency) = (&mut self.reduction, &mut self.dependency);
        // Lines 69–74, through the last observer, first.
        let modulo_observers = reversal.observers.last().and_then(|&o| {
            let observed = (later, &reversal.observers[..]);
            let reached = std::cell::OnceCell::new();
            let view = (hb, &mut *dependency, snapshots, node, end_reads);
            race_at(run, view, (e, o), &reached, |r| {
                reduction.sleep_after_observed_race(r, observed)
            })
        });
        let dont = if modulo_observers.is_some() {
            run.stats.pruning.sleep_added_modulo_observers += 1;
            modulo_observers
        } else {
            let reached = std::cell::OnceCell::new();
            let view = (hb, dependency, snapshots, node, end_reads);
            race_at(run, view, (e, later), &reached, |r| {
                reduction.sleep_after_race(r)
            })
        };
        add_dont_do(&mut self.nodes[e].sleep, dont);
    }

    /// odpor-cs-ob's [`Dpor::block_unrun`]: the races of a step `x` confirmed in
    /// `dnd(E)` at node `d`, over `→ob`, without running it (odpor-cs's note 7 with
    /// observers); its transition footprint. Running it, the execution `E.x` would end
    /// blocked and [`Dpor::observed_races`] would analyse its races, with its end
    /// reading what the continuations may. Here `x` is an event of its transition
    /// footprint that writes only what its block surely overwrites
    /// ([`Executor::unrun_overwriting`]: it runs normally there, reaching a covered
    /// state), in `s[E]`, whose live processes include `x`'s, at `x`'s block: so the
    /// end reads what it read after `E.x` and more, every event at least what it read
    /// there, and no write hides an earlier one that it did not hide there — every
    /// pair of writes ordered there is ordered here, and `x` conflicts with every
    /// event it did. As for a
    /// probe, `x`'s reversals run its whole block and no don't-do sequence follows
    /// them (there is no state after it); the other races get theirs as at any end.
    /// An `await` step asks to run before the writes that disabled it, as one that
    /// runs does (the climb of the race analysis alone missed a class:
    /// `tests/regressions/odpor_ob_an_await_passes_the_writes_that_disabled_it.ic`). The
    /// processes blocked in `s[E]` are probed, and those whose `await` reads what
    /// `x` may write (it may disable them), as [`Dpor::analyse_unrun`] probes them. The
    /// processes that could wait after `x` only because of it (its own, at an
    /// `await` after it, or one it spawns) are not known without running it: a step
    /// that may leave one is not settled but run ([`unrun_successors`]). Where `x`
    /// observes a write/write race, Sec. 4.1's check runs it on its copies: the
    /// reversal's copy must run it as the original order's copy does
    /// ([`crate::algorithms::odpor_cs_ob::modulo_observers`]).
    pub(super) fn analyse_unrun_observed(
        &mut self,
        run: &mut Exploration<'_, '_>,
        x: usize,
        ends: bool,
        partners: &[Fingerprint],
    ) -> Footprint {
        let end = end_reads_after_unrun(&run.ex, x, run.config.violations_only, ends);
        let footprint = run.ex.unrun_overwriting(x).footprint.clone();
        let (events, procs) = (run.ex.events(), &run.ex.state.procs);
        let mut order = self.dependency.order(events, procs, &end);
        run.stats.pruning.covered_unrun += 1;
        self.observed_races_up_to(run, &order, &end, LastEvent::Settled, &[]);
        self.pass_disabling_writes_over(run, &order);
        let probed: Vec<usize> = (0..run.ex.state.procs.len())
            .filter(|&r| {
                let live = r != x && run.ex.state.procs[r].next.is_some();
                live && (!run.ex.is_enabled(r) || guard_reads_written(&run.ex, r, &footprint))
            })
            .collect();
        self.observed_probes(run, &mut order, &end, &probed, &[]);
        self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
        self.future_races(run, x, Some((partners, &end)));
        self.hb.pop();
        run.ex.back();
        footprint
    }
}

/// What the end of an execution blocked right after process `x`'s next step reads,
/// the step not run ([`Dpor::analyse_unrun_observed`]): [`crate::dependency::observers::end_reads`] of
/// `s[E]`, without `x`'s process where that step ends it on every path (`ends`, from
/// [`unrun_successors`]: such a step spawns nothing). (With `x`'s
/// process live, an assertion settled as the last step of its process read what it
/// asserts on at the end: FR-a's reader made every reversal of two writes observed by
/// the end, and the `--violations-only` search of `observers::an_overwrite_to_come_makes_the_raced_value_dead`
/// completed 2 executions instead of 1.)
pub(super) fn end_reads_after_unrun(
    ex: &Executor<'_>,
    x: usize,
    violations_only: bool,
    ends: bool,
) -> Vec<bool> {
    let (program, state) = (ex.program(), &ex.state);
    if violations_only && ends {
        state.may_read_but(program, x)
    } else {
        crate::dependency::observers::end_reads(program, state, violations_only, false)
    }
}

impl<R: Reduction> Dpor<R> {
    /// With observers, the races over `→ob` of the event `n` standing for a
    /// process's future (the last event; its next block's sure overwrites taken as
    /// written, [`Executor::overwrite_as_its_block`]), the end observing `end`, that
    /// plain happens-before hides: a write `e` of the prefix that `n` overwrites,
    /// observed after `n`, with a write between them that `n` overwrites before
    /// anything reads it. `→ob` leaves that write unordered with `e`; plain
    /// happens-before chains `e` to `n` through it. Each is reversed as a probe's race
    /// is, `notdep(e, E)` (over `→ob`) then `n`.
    ///
    /// Why: the step blocked where the state was proved equal to a covered one, but a
    /// state check compares states, not transitions: an event of the blocked prefix
    /// may write where its counterpart in the covering prefix did not. q's `if (y ==
    /// 0) { x = 2; }` wrote x in the blocked q p r, and nothing in the covering p q r
    /// (after p's `y = 1`). Its race with r's second `x = 1`, past the block, r's
    /// first one overwritten unread, asks for r r first; it is in no covering
    /// execution, and the reversals that reach r r q elsewhere were judged covered by
    /// q's subtree at the root, which holds this blocked branch: odpor-cs-ob
    /// `--literal` lost the final state x = 2
    /// (`tests/regressions/odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race.ic`,
    /// found by the small-scope test).
    pub(super) fn future_observed_races(
        &mut self,
        run: &mut Exploration<'_, '_>,
        end: &[bool],
        plain: &[usize],
        (n, whole): (usize, &Footprint),
    ) {
        run.ex.overwrite_as_its_block();
        let events = run.ex.events();
        if !may_leave_a_write_unobserved(events, end) {
            return;
        }
        let order = self.dependency.order(events, &run.ex.state.procs, end);
        let seq: Vec<&Event> = events.iter().collect();
        let hidden: Vec<usize> = races::races(events, &order)
            .into_iter()
            .filter(|e| !plain.contains(e))
            .filter(|&e| !self.dependency.unobserved_at_end(&seq, e, n, end))
            .collect();
        for e in hidden {
            run.stats.pruning.races += 1;
            let v = races::notdep(run.ex.events(), &order, e);
            self.ask_for_future(run, &order, e, v, (n, whole));
        }
    }
}

/// Whether `→ob` of `events`, the end observing `end`, may leave unordered a pair
/// of writes before the last event `n` (a process's future) that plain
/// happens-before orders, so that a race of `n` hides behind it: a location `l`
/// whose last write before `n` is blind (its event does not read `l`) and read by
/// nothing after it, with an earlier blind write of `l`, where `n` surely
/// overwrites `l` or the end does not read it. (A pair unobserved because a later
/// event of the prefix overwrites it is left unordered in the blocked execution's
/// own `→ob` too; its races with `n` are left to the plain ones, as before.) A cheap
/// test that spares [`Dpor::future_observed_races`] computing `→ob` where it
/// cannot find one (DB_backup(8): 2.2 s without it, 1.3 s before that function).
pub(super) fn may_leave_a_write_unobserved(events: &[Event], end: &[bool]) -> bool {
    let Some((n, prefix)) = events.split_last() else {
        return false;
    };
    let blind = |e: &Event, l: Loc| {
        l.elem != WHOLE
            && intersects(&e.footprint.writes, &[l])
            && !intersects(&e.footprint.reads, &[l])
    };
    let last_blind_unread = |l: Loc| {
        let Some(j) = prefix
            .iter()
            .rposition(|e| intersects(&e.footprint.writes, &[l]))
        else {
            return false;
        };
        blind(&prefix[j], l)
            && !prefix[j + 1..]
                .iter()
                .any(|e| intersects(&e.footprint.reads, &[l]))
            && prefix[..j].iter().any(|e| blind(e, l))
    };
    // Each location once: a prefix writes the same ones again and again.
    let mut locations: Vec<Loc> = n.written.clone();
    let unread_at_end = |l: &&Loc| !end[l.global as usize];
    locations.extend(
        prefix
            .iter()
            .flat_map(|e| e.footprint.writes.iter().filter(unread_at_end)),
    );
    locations.sort_unstable();
    locations.dedup();
    locations.into_iter().any(last_blind_unread)
}

impl<R: Reduction> Dpor<R> {
    /// Per global, whether its order of writes may be observed after a block: by a
    /// live process or the end ([`crate::dependency::observers::end_reads`]) with observers,
    /// always without.
    pub(super) fn observed_at_block(&self, run: &Exploration<'_, '_>) -> Vec<bool> {
        let (program, state) = (run.ex.program(), &run.ex.state);
        if self.parts.observers() {
            crate::dependency::observers::end_reads(
                program,
                state,
                run.config.violations_only,
                false,
            )
        } else {
            vec![true; program.globals.len()]
        }
    }
}
