//! `csdpor`: context-sensitive DPOR (Albert et al., CAV'17, Alg. 1). On top of
//! Source-DPOR: when a race `e ⋖ n` is found, the reversed sequence `v.u` goes to
//! `sleep(E')` with the state `E.p` reached; an execution that follows it and reaches
//! that state is blocked (lines 11–14, checked lazily as in Sec. 6.2). Sleep entries
//! are sequences, consumed step by step (line 16, in
//! [`crate::dpor::sleep::SleepSet::after`]).

use crate::dependency::footprint::Footprint;
use crate::dependency::future::Futures;
use crate::dependency::races;
use crate::dpor::parts::States;
use crate::dpor::sleep::SleepSet;
use crate::dpor::sleep::Step;
use crate::dpor::{run_in, Equivalent, NewEvent, Parts, Race, Reduction};
use crate::executor::Event;
use crate::state::State;
use frontend::ir::Program;

pub struct ContextSensitive {
    /// [`States::Checked`]: sleeping steps that commute with the new event in its
    /// context stay asleep (see [`Reduction::keep_asleep`] below);
    /// [`States::Literal`]: the paper's Alg. 1 to the letter (`ic-check --literal`).
    states: States,
    /// What processes may still do, for anticipating cuts (built on first use).
    futures: Option<Futures>,
    /// Buffers for the two orders [`Reduction::keep_asleep`] runs.
    scratch: [State; 2],
}

impl ContextSensitive {
    /// With the commutation of sleeping steps: Table 1's 2^N on the producer–consumer.
    pub fn new() -> Self {
        ContextSensitive {
            states: States::Checked,
            futures: None,
            scratch: Default::default(),
        }
    }

    /// The paper's Alg. 1 to the letter: its worked examples' counts (Ex. 1, Fig. 2).
    pub fn literal() -> Self {
        ContextSensitive {
            states: States::Literal,
            futures: None,
            scratch: Default::default(),
        }
    }
}

impl ContextSensitive {
    /// How its state checks go: [`States::Checked`], or [`States::Literal`].
    pub fn states(&self) -> States {
        self.states
    }
}

impl Default for ContextSensitive {
    fn default() -> Self {
        Self::new()
    }
}

impl Reduction for ContextSensitive {
    fn name(&self) -> &'static str {
        "csdpor"
    }

    fn parts(&self) -> Parts {
        Parts {
            states: self.states(),
            ..Parts::SOURCE_DPOR
        }
    }

    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        // Line 11: v = notdep(e, E).p.
        let v = races::notdep(r.events, r.hb, r.e);
        reversal_if_reaching(r, &v, &[])
    }

    /// Lines 11–14 with `e` the write that last disabled `n`'s `await`: `n.v.u`,
    /// `v = notdep(e, E)`, `u = dep(e, E)`, runs `n` first, where `n`'s process was
    /// enabled (the probe's race with `e` put it in `backtrack(E')`, and csdpor takes
    /// sleep sequences at their first step only). Checked now, by running it from
    /// `s[E']` (the paper's line 13; Sec. 6.2's lazy check compares where the
    /// sequence ends, and an execution that follows this one interleaves other
    /// events before its end: `n` waited for events after `e`, and the others went
    /// on meanwhile).
    fn sleep_before_disabler(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        let v = races::notdep(r.events, r.hb, r.e);
        let u = races::dep_after(r.events, r.hb, r.e);
        let mut sequence = vec![r.state.procs[r.events[r.n()].proc].pid_key];
        sequence.extend(r.processes(&v));
        sequence.extend(r.processes(&u));
        if r.sleep.has_prefix_of(&sequence) {
            return None;
        }
        let (reached, steps) = r.replay_from_prefix(&sequence)?;
        if !reached.same_with_identities(r.state, r.program, r.end_reads) {
            return None;
        }
        r.stats.pruning.sleep_added_by_states += 1;
        Some(Equivalent::Proved(steps))
    }

    /// Keeps `x` asleep after `n` when `x` and `n` commute in `s[E]`: `s[E.x.n] =
    /// s[E.n.x]`. This is line 14's rule applied to the pair: `E.x` is covered (`x` is
    /// asleep), so `n.x` may join `sleep(E)`, and line 16 hands `x` down to `E.n` —
    /// with the footprint `x` has after `n`, which may differ from the one it had.
    ///
    /// Not in the paper's Alg. 1. Read literally, Alg. 1 explores 10, 62 and 408
    /// executions of the producer–consumer of Sec. 4 for N = 3, 5, 7, where Table 1
    /// reports 2^N = 8, 32, 128 (no order of its arbitrary choices does better than 56
    /// for N = 5 in our trials); with this rule it explores exactly 2^N.
    fn keep_asleep(&mut self, a: &mut NewEvent<'_, '_>, x: &Step) -> Option<Footprint> {
        if self.states == States::Literal {
            return None;
        }
        // Computing states to compare them is not exploring them: not counted as states.
        let states = &mut a.stats.pruning.replayed_events;
        let [n_then_x, x_then_n] = &mut self.scratch;
        n_then_x.clone_from(a.after);
        let steps = run_in(a.ex, n_then_x, &[x.process], states)?;
        x_then_n.clone_from(a.before);
        run_in(a.ex, x_then_n, &[x.process, a.p], states)?;
        let same = n_then_x.same_with_identities(x_then_n, a.program, a.end_reads);
        same.then(|| {
            steps
                .into_iter()
                .next()
                .map(|s| s.footprint)
                .unwrap_or_default()
        })
    }

    /// Sec. 5.3, optimisation 1 (anticipating cuts): stop where a sleeping step can
    /// never be woken by any possible future step (see [`Futures::stuck_asleep`]).
    fn cut(
        &mut self,
        program: &Program,
        state: &State,
        enabled: &[usize],
        sleep: &SleepSet,
        events: &[Event],
    ) -> bool {
        !sleep.is_empty()
            && self
                .futures
                .get_or_insert_with(|| Futures::new(program))
                .stuck_asleep(state, enabled, sleep, events)
    }
}

/// CSDPOR lines 11–14 for a race `e ⋖ n`: the reversed sequence `v.u`, `v` being the
/// events `before` (`notdep(e, E)`), `n` and the events `after` it (none: odpor-cs
/// moves some of `notdep(e, E)` there), `u = dep(e, E)`, with the state `s[E.p]` it must
/// reach (checked lazily, Sec. 6.2), unless `sleep(E')` already blocks a prefix of it.
/// `before` and `after` together must be `notdep(e, E)`, each in order, and none of
/// `after` may happen before `n`: then `v.u` runs the events of `E.p` from `E'`, with
/// `n` before `e`. `odpor-cs` adds the sequence to its don't-do sets
/// ([`crate::algorithms::odpor_cs`]).
pub fn reversal_if_reaching(
    r: &mut Race<'_, '_>,
    before: &[usize],
    after: &[usize],
) -> Option<Equivalent> {
    // Line 11: u = dep(e, E); v = notdep(e, E).p.
    let u = races::dep_after(r.events, r.hb, r.e);
    let mut sequence = r.processes(before);
    sequence.push(r.state.procs[r.events[r.n()].proc].pid_key);
    sequence.extend(r.processes(after));
    sequence.extend(r.processes(&u));
    // Line 12: nothing to do when sleep(E') already blocks a prefix of v.u.
    if r.sleep.has_prefix_of(&sequence) {
        return None;
    }
    // Lines 13–14, lazily (Sec. 6.2): v.u joins sleep(E') with the state s[E.p];
    // an execution that follows it is blocked if it reaches that state. Processes
    // are compared with their identities: the soundness argument (Lemma 1)
    // continues both states with the same steps. The steps of notdep(e, E) keep
    // their footprints (what they read is written by none of e, n and u); n keeps
    // its local state (what happens before it is in v): its transition footprint;
    // u runs without e, with locals that may differ: its blocks' syntactic
    // footprints.
    r.stats.pruning.sleep_added_by_states += 1;
    let own = |i: &usize| r.events[*i].footprint.clone();
    let steps = before
        .iter()
        .map(own)
        .chain(std::iter::once(r.transition_footprint(r.n())))
        .chain(after.iter().map(own))
        .chain(u.iter().map(|&i| r.block_footprint(i)))
        .zip(sequence)
        .map(|(footprint, process)| Step { process, footprint })
        .collect();
    Some(Equivalent::IfReaching(steps, r.reached()))
}
