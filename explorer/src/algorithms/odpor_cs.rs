//! `odpor-cs`: Optimal Context-Sensitive DPOR (Albert, García de la Banda,
//! Gómez-Zamalloa, Isabel, Stuckey, ISSTA 2019, Sec. 3, Alg. 1 `ODPOR_cs`): `odpor`'s
//! wakeup trees (the black code of Alg. 1) plus csdpor's context-sensitive check of
//! reversed races, kept in don't-do sets `dnd(E)` (the blue code).
//!
//! How Alg. 1 maps onto the skeleton of [`crate::dpor`]:
//!
//! - `dnd(E)` are sleep entries of [`crate::dpor::sleep`] beside the sleeping processes of
//!   `done` (Def. 3.2 derives `Sleep(E)` from both): a reversed race's sequence with
//!   the ending [`Ending::BlocksAt`](crate::dpor::sleep::Ending::BlocksAt) (line 38's state
//!   not yet seen), a step seen to reach it with
//!   [`Ending::Blocks`](crate::dpor::sleep::Ending::Blocks) (see note 3). Lines 29–30 (what
//!   `Explore(E.p, …)` inherits: the entries independent of `p`, and `v` for each
//!   `p.v`) are [`SleepSet::after`](crate::dpor::sleep::SleepSet::after), with Sec. 4.2's
//!   refinement of line 29 in its first case (ISSTA'19 Alg. 2, line 62): `u.p.v` is
//!   inherited as `u.v` when `p` commutes with every step of `u` (`E.p.u.v` and
//!   `E.u.p.v` are Mazurkiewicz-equivalent and end in the same state).
//! - Lines 25–26 (`p ∈ dnd(E)`: run `p` for its races, do not explore below it) and 33
//!   (its branch leaves `wut(E)`): the last step of an entry runs, its races are
//!   analysed, and the execution is blocked after it
//!   ([`Dpor`](crate::dpor::Dpor)`::block_after_equivalent`; lines 17–21 and note
//!   5) — or, for a step confirmed in `dnd(E)`, its races are analysed without
//!   running it (note 7).
//! - Lines 35–42 (race detection): a race `e ⋖ n` inserts `v` into `wut(E')` as in
//!   `odpor`; when `v` is not redundant (line 40: no process of `done(E')` is a weak
//!   initial of it), [`Reduction::sleep_after_race`] adds the don't-do sequence
//!   (line 42).
//!
//! Where our skeleton differs from the paper, and why it stays sound:
//!
//! 1. **Races are detected per event**, when `e' = n` has just run, not on the whole
//!    maximal execution (the paper's Problem I, Sec. 3.1, solved by not delaying).
//!    `E` then ends at `e'`: `pre⁺(E, e') = E` and `s[pre⁺(E, e')]` is the current
//!    state, with nothing to store or recompute. Line 37's `v` is Sec. 3.2's
//!    `ance(e, e', E).e'.I_fut(E', v, E)` ([`races::ance_split`]), with `I_fut` taken
//!    among the events up to `e'`, the only ones known: the first events of
//!    `notdep(e, E)` that do not happen before `e'`. This is Optimal-DPOR's sequence
//!    `notdep(e, E).e'` with `e'` moved before the events it does not depend on
//!    (they commute with it: earlier, and not happening before it) and the
//!    non-initial ones left out; leaving them out is what Sec. 3.2 does to the
//!    events after `e'`. `E'.v` is still a sequence (whatever happens before an event
//!    of `v` is in `E'` or earlier in `v`) that runs `e'` before `e`, as
//!    Optimal-DPOR's needs; the shorter sequence is covered by more of the tree
//!    (line 41's `insert`) and leaves the order of the rest to the guided choice.
//! 2. **The check of line 38 is lazy**, as csdpor's (CSDPOR Sec. 6.2), and the
//!    don't-do sequence is the whole reversal `(v.suc(e, E))_{≤e'}` with the other
//!    events of `notdep(e, E)` after `v` — `ance.e'.I_fut.rest.dep(e, E)` — rather than
//!    `v.ê`. With `E` ending at `e'`, `suc(e, E)_{≤e'}` is `dep(e, E)` (`e` and the
//!    events after it that happen after it), so the sequence runs exactly the events
//!    of `pre⁺(E, e')` with the race reversed (the rest commute with `e'`, and happen
//!    after none of `dep(e, E)`), and it carries the state `s[pre⁺(E, e')]` of line
//!    38's left-hand side. An execution that follows it is blocked after its last step
//!    only if it reaches that very state (processes compared with their identities):
//!    then every continuation is one of that state, explored from the node where it
//!    was reached — Lemma 3.3's argument, with the equality observed rather than
//!    computed ahead. Where the state differs, the paper's check fails, it adds
//!    nothing, and the execution goes on: the same exploration. Nothing is run only to
//!    compare states. Stopping at `E'.v.ê`, as the paper's entry `v.ê` does, would also
//!    cut continuations that run other processes before the rest of `dep(e, E)`; ours
//!    cuts only the state seen equal, at the cost of running `dep(e, E)` first.
//! 3. **A step that blocked stays in `dnd(E)`**, confirmed (`Ending::Blocks`): it
//!    blocks again whenever it runs at `E`, and `E.q` inherits it for every `q`
//!    independent of it (lines 29–30, as the paper inherits `dnd`). As in the paper
//!    it is not added to `done(E)`: nothing below `E.p` was explored, so the races of
//!    the executions it stands for were never seen, and it must not make a sequence
//!    redundant at line 40 (counted as explored, it made odpor-cs miss a final state:
//!    `tests/regressions/odpor_cs_blocked_step_covers_no_race.ic`). A new branch of `wut(E)`
//!    that would start with it is redundant, though (the paper inserts it and runs the
//!    step again at line 26): the run would repeat the same events and their races,
//!    analysed the first time. That also bounds the search: without it, the race of
//!    an execution below `E` could insert the branch again each time it blocked.
//!    Only a step run (or settled, note 7) and blocked at `E` itself counts so (see
//!    note 6).
//! 4. **Line 21 chooses blindly**: it avoids the confirmed entries of `dnd(E)` but
//!    cannot avoid those not checked yet; the choice is guided to the heads of the
//!    shortest sleep and don't-do sequences (CSDPOR Sec. 5.3, opt. 2), which follows
//!    them as soon as possible (the aim of Sec. 3.2).
//! 5. **A node goes on after a blocked step** with another enabled process when its
//!    wakeup tree is spent, as csdpor's Source-DPOR does (CSDPOR Sec. 6.2), where
//!    the paper ends the node (lines 23–33; it chooses again only instead of its own
//!    line-21 choice, lines 17–21). Ending it lost a final state of an existing
//!    regression program (`tests/regressions/state_dependent_block_extent_loses_a_final_state.ic`):
//!    the executions below the blocked step would have shown races that put other
//!    processes first at that node, and those executions do not all pass through the
//!    state that covers the step (see `Dpor::block_after_equivalent`).
//!
//! 6. **A sleeping step stays asleep past an event it commutes with in its state**,
//!    csdpor's rule ([`ContextSensitive`]'s `keep_asleep`: `x` asleep at `E`, `n`
//!    conflicting with it by footprints, `s[E.x.n] = s[E.n.x]` with process
//!    identities), which is not in Alg. 1. At `E.n`, `x` is a don't-do step
//!    (`Ending::Blocks`): when it runs there it blocks after its races are analysed,
//!    and it makes no sequence redundant as a sleeping weak initial would (line 40).
//!    Why no final state is lost: `x` sleeps at `E` because `E.x` was explored (or,
//!    inherited, by the same argument at an ancestor); every `E.n.x.w` is in
//!    `s[E.x.n]` after `x`, a state that `E.x.n.w` reaches too, and `E.x`'s subtree
//!    explores an execution equivalent to `E.x.n.w` or one reaching a state it covers
//!    — Lemma 3.3's argument of the don't-do sets, with the state equality seen where
//!    the two steps meet rather than after a race. What `E.x`'s subtree does not see
//!    are the races of `x` *after* `n` with the events of `E`: so `x` comes right
//!    after `n`, as the first branch of `E.n`, where they are analysed
//!    (`Dpor::run_commuted`; without it odpor-cs lost a final state:
//!    `tests/regressions/odpor_cs_runs_a_step_kept_by_commutation.ic`) — analysed without
//!    running it, by note 7, as csdpor does (`--literal` runs it and blocks). Until it has run or been settled there, a race that asks for `x` at
//!    `E.n` (or below) is followed — unlike note 3's step, which ran and blocked at
//!    that very node (taking it as run lost a final state too:
//!    `tests/regressions/odpor_cs_a_step_kept_by_commutation_never_ran.ic`). `--literal`
//!    leaves the rule out (the paper's worked examples). Without it, Alg. 1 explores
//!    the producer–consumer in 10, 62, 408 executions for N = 3, 5, 7 (as csdpor
//!    `--literal`) where csdpor takes 2^N, and DB_backup(5) in 95 (2^N = 32 with it).
//! 7. **A confirmed don't-do step is not run** (not with `--literal`): where lines
//!    25–26 run a step of `dnd(E)` for its races and block, its races are analysed
//!    without running it (`Dpor::block_unrun`), as csdpor settles a step proved
//!    to reach a covered state: an event with its transition footprint (all it may
//!    touch) and no effect, its wakeup sequences with its block's whole footprint,
//!    and a probe of each other process at an `await` (enabled or waiting) whose
//!    guard reads what it may write.
//!    The run would end blocked right after the step, so nothing depends on what it
//!    did; its races with the events before are a subset of those found. What the
//!    run would add besides is the probe of a process the step leaves at an
//!    `await` (its own, or one it spawns), unknown without running it: a step that
//!    may leave one whose guard reads what another process of `E` wrote, or that
//!    spawns, runs and blocks instead (`unrun_successors`).
//!    No state is counted and no execution ends blocked for a confirmed step: on
//!    the producer–consumer (N = 3) 43 states where the step runs cost 52 (9
//!    blocked), on DB_backup(8) 56k where they cost 109k. A step settled so counts as run
//!    at its node (note 3). odpor-cs-ob settles its steps too, with races found over
//!    →ob (`Dpor::analyse_unrun_observed`).
//!
//! On several threads (`--jobs`) the threads share the top of the tree, with what
//! its nodes keep for the notes above ([`crate::parallel::shared_top`], "States
//! compared").
//!
//! `odpor` explores one complete execution per Mazurkiewicz trace; `odpor-cs`, as
//! Sec. 3.3 claims of ODPOR_cs, never more (the differential test checks it on every
//! program), plus the blocked prefixes of the ones it cuts. Not included: the
//! observers of Sec. 4 (`ODPOR_cs^ob`).

use crate::algorithms::csdpor::{reversal_if_reaching, ContextSensitive};
use crate::dependency::footprint::Footprint;
use crate::dependency::races;
use crate::dpor::parts::Frontier;
use crate::dpor::sleep::Step;
use crate::dpor::{Equivalent, NewEvent, Parts, Race, Reduction};

pub struct OptimalContextSensitive {
    /// csdpor, for its commutation of sleeping steps (note 6; none when it is
    /// [`ContextSensitive::literal`]: Alg. 1 to the letter).
    context: ContextSensitive,
}

impl OptimalContextSensitive {
    pub fn new(context: ContextSensitive) -> Self {
        OptimalContextSensitive { context }
    }
}

impl Reduction for OptimalContextSensitive {
    fn name(&self) -> &'static str {
        "odpor-cs"
    }

    fn parts(&self) -> Parts {
        Parts {
            frontier: Frontier::WakeupTrees,
            states: self.context.states(),
            ..Parts::SOURCE_DPOR
        }
    }

    /// Alg. 1, lines 36–39 and 42: `dont = v.suc(e, E)_{≤e'}` with the state
    /// `s[pre⁺(E, e')]` it must reach (see the module's note 2).
    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Equivalent> {
        let [ance, initials, rest] = races::ance_split(r.events, r.hb, r.e);
        let after: Vec<usize> = initials.into_iter().chain(rest).collect();
        reversal_if_reaching(r, &ance, &after)
    }

    /// Alg. 1, line 37: `v = ance(e, n, E).n.I_fut(E', v, E)` (Sec. 3.2).
    fn wakeup_sequence(&self, r: &Race<'_, '_>) -> (Vec<usize>, Vec<usize>) {
        let [ance, initials, _] = races::ance_split(r.events, r.hb, r.e);
        (ance, initials)
    }

    /// csdpor's commutation of sleeping steps (the module's note 6).
    fn keep_asleep(&mut self, a: &mut NewEvent<'_, '_>, x: &Step) -> Option<Footprint> {
        self.context.keep_asleep(a, x)
    }
}
