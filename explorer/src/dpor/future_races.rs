//! The races of a blocked step's future: where an execution stops at a covered
//! state, what its processes may still do is raced against the execution, as events
//! standing for steps yet unknown, so that the reversals that the covering
//! exploration shows only in another order are asked for here.

use super::reduction::Reduction;
use super::wakeup::Insertion;
use super::Dpor;
use crate::dependency::footprint::Footprint;
use crate::dependency::future::Futures;
use crate::dependency::happens_before::HappensBefore;
use crate::dependency::races;
use crate::executor::{Event, Executor};
use crate::exploration::Exploration;
use crate::fingerprint::Fingerprint;

impl<R: Reduction> Dpor<R> {
    /// An execution blocked where it reached a covered state, by a step of process
    /// `x` (the newest event: settled, run and blocked, or proved there): the races of
    /// what `x`'s process may still do after it — every block reachable from its next
    /// one, its spawns' included, from its locals where they tell
    /// ([`Futures::of_process`]) — with the execution, each as one event after the step,
    /// each race reversed as a probe's: `notdep(e, E)` then the process's next step,
    /// joining `wut(E')` in an optimal search, an initial of it joining
    /// `backtrack(E')` otherwise. No constraint or state check: the event stands for
    /// steps yet unknown.
    ///
    /// Why: the state after the step was proved equal to a covered one in the context
    /// of the events before it, and the covering subtree shows the races of what
    /// follows only reversed to other traces; a reversal that takes one of those
    /// events out may break the equality. p's `y = 1; yield; x = 0`, q's `await (x ==
    /// 1); yield; y = 1` and r's `x = x + 1; yield; y = y + 1`: after r q r, p's first
    /// step was settled (with q past its `await`, q's `y = 1` to come makes y dead, so
    /// p's and r's writes of it commute there); the race of q's `await` with p's
    /// `x = 0`, the only one to ask for r r p p (q waiting for good), lies past it, and
    /// in the covering executions (p first) the same race orders p's `y = 1` before
    /// r's `y = y + 1`, another final state. cdpor and odpor-cs-ob lost that state
    /// (`tests/regressions/a_covered_state_hides_the_races_of_what_follows.ic`, found by the
    /// small-scope test).
    ///
    /// An optimal search that blocks by state ([`Parts::blocks_by_state`]) also races
    /// the futures of the processes the step itself spawned, once it ran: they are
    /// its future as much as its process's next block (which, settled unrun, it
    /// reaches through [`Futures::of_process`]). q's `yield; y = 1; spawn r()` blocked
    /// after r q p q, in the state of p q q r (x dead in both: the spawned r writes it
    /// before anyone reads it). The race of p's `x = 2` with the spawned r's `x = 1`,
    /// which asks for r q q r p (x = 2 at the end), lay only past the block (in the
    /// covering execution the first r's write comes between them: the partners'
    /// argument below); q, ended, had no future, and odpor-cs's branch q q r of the
    /// root then kept p and the first r asleep by commutation (note 6 of
    /// [`crate::algorithms::odpor_cs`]) on the strength of r's subtree: it lost
    /// x = 2 (`tests/regressions/odpor_cs_a_blocked_step_spawns_a_racing_process.ic`,
    /// found by a review). It cost odpor-cs Fib_source(5) 285 → 2,154 states and
    /// MS_source(5) 61 → 324. csdpor and cdpor do not: no program is known where they
    /// lose a behaviour so (they found both final states there), and it cost csdpor
    /// Fib_source(6) 4,154 → 104,848 states, MS_source(10) 774 → 116,392
    /// (docs/known-gaps.md).
    ///
    /// odpor-cs-ob ([`Parts::chases_partners`]) analyses so the futures of the
    /// block's partners too, and of the processes chained to them ([`futures_to_race`];
    /// `chase`: the partners, and per global whether a write of it may be observed
    /// after the block): stateful DPOR's argument (Yang et al., 2008), narrowed to
    /// the races a block can hide. The covered sequence `u` reorders the steps of the
    /// covering one `u'` (each process's steps, in its order, with their transition
    /// footprints), so a race `g ⋖ f` of an event `g` of `E.u` with an event `f` of the
    /// covered continuations is one after `E.u'` too, unless an event between them
    /// there — after `g` in `u'`, before it in `u` — is missing here: a partner, or an
    /// event after one. So `f` is a later step of a partner's process, or of a process
    /// chained to one. Partners over-approximate (a step taken on the way down may
    /// have come before the blocked one in `u'` too), futures too, and each reversal
    /// is asked without a state check; the races themselves are found over plain
    /// happens-before, as for the blocked process's own future. Only odpor-cs-ob is
    /// known to have lost final states without it
    /// (`tests/regressions/odpor_cs_ob_a_settled_step_hides_a_race_with_another_process.ic`,
    /// `..._a_process_chained_to_a_partner_races_with_the_settled_step`), and odpor-cs
    /// where the process chained was one the blocked step spawned (above); csdpor,
    /// cdpor, odpor-cs and ocdpor agreed with naive on every other program of the
    /// campaigns without it, and csdpor took 8 times the states of Pi_shared(10)
    /// with it (2,048 to 16k): they do not analyse partners (docs/known-gaps.md).
    /// Cost to odpor-cs-ob: without `--violations-only` FR-a(8) 2,764 → 110k states
    /// (every write of x is observed by the end, so every writer chains); with it,
    /// none on FR, FR-a, LW, abs; DB_backup(8) 14k → 20k either way (docs/algorithms/odpor-cs-ob.md, BENCHMARKS.md).
    ///
    /// Analysing every live process's future instead (Yang et al.'s summaries,
    /// without the partners' narrowing) took odpor-cs-ob 110k states on FR-a(8) with
    /// `--violations-only` (2,757 with the narrowing, then) and csdpor 266k on Readers(12)
    /// (8,216 without).
    pub(super) fn future_races(
        &mut self,
        run: &mut Exploration<'_, '_>,
        x: usize,
        chase: Option<(&[Fingerprint], &[bool])>,
    ) {
        // With observers, what the end of the blocked execution may observe.
        let end = self.parts.observers().then(|| self.observed_at_block(run));
        let futures = self
            .futures
            .get_or_insert_with(|| Futures::new(run.ex.program()));
        // A write of a global some guard reads is always observed (`→ob`).
        let chase = chase.filter(|_| self.parts.chases_partners());
        let observed: Option<Vec<bool>> = chase.map(|(_, observed)| {
            let guarded = |g: usize| self.dependency.guarded().get(g).copied().unwrap_or(false);
            (0..observed.len())
                .map(|g| observed[g] || guarded(g))
                .collect()
        });
        let chase = chase.zip(observed.as_deref()).map(|((p, _), o)| (p, o));
        let spawned = self.parts.blocks_by_state();
        for (r, footprint) in futures_to_race(&run.ex, futures, (x, spawned), chase) {
            run.ex.unrun_future(r, footprint);
            self.hb.push(run.ex.events(), &run.ex.state.procs, &[]);
            let hb = std::mem::take(&mut self.hb);
            let n = run.ex.events().len() - 1;
            let whole = run.ex.event_transition(n);
            let plain = races::races(run.ex.events(), &hb);
            for &e in &plain {
                run.stats.pruning.races += 1;
                let v = races::notdep(run.ex.events(), &hb, e);
                self.ask_for_future(run, &hb, e, v, (n, &whole));
            }
            if let Some(end) = &end {
                self.future_observed_races(run, end, &plain, (n, &whole));
            }
            self.hb = hb;
            self.hb.pop();
            run.ex.back();
        }
    }
}

/// The live processes whose futures [`Dpor::future_races`] analyses at a block by
/// process `x`, each with its future's footprint: `x`'s, with `spawned` those of
/// the processes its step spawned (see [`Dpor::future_races`]), and with `chase` (the
/// block's partners, and per global whether a write of it may be observed after the
/// block), the partners' (and those they spawned) and, transitively, each whose
/// future may conflict with an event of one of them or with its future — what may
/// happen after a partner in the covering executions. Two writes conflict only on
/// a global `observed` marks (with observers, one a live process or the end may
/// read): under `→ob` nothing orders writes no read sees. `x`'s own events start no
/// chain: a race `g ⋖ f` hidden in the covering executions has a partner between
/// `g` and `f` there; if `g` is a partner's, `f` conflicts with it and is chained;
/// if `g` is `x`'s, the chain from it to `f` runs through a partner, whose events
/// and future are scanned.
pub(super) fn futures_to_race(
    ex: &Executor<'_>,
    futures: &Futures,
    (x, spawned): (usize, bool),
    chase: Option<(&[Fingerprint], &[bool])>,
) -> Vec<(usize, Footprint)> {
    let procs = &ex.state.procs;
    let live = |r: usize| procs[r].next.is_some();
    // `x`'s process, and with `spawned` those its step spawned: the step's own future.
    let spawned = ex
        .events()
        .last()
        .filter(|e| spawned && e.proc == x)
        .map_or(0..0, |e| e.spawned.0..e.spawned.1);
    let own: Vec<usize> = std::iter::once(x)
        .chain(spawned)
        .filter(|&r| live(r))
        .collect();
    let mut out: Vec<(usize, Footprint)> = own
        .iter()
        .map(|&r| (r, futures.of_process(ex, r)))
        .collect();
    let Some((partners, observed)) = chase.filter(|(partners, _)| !partners.is_empty()) else {
        return out;
    };
    let future: Vec<Option<Footprint>> = (0..procs.len())
        .map(|r| (!own.contains(&r) && live(r)).then(|| futures.of_process(ex, r)))
        .collect();
    let mut chained = vec![false; procs.len()];
    let mut todo: Vec<usize> = (0..procs.len())
        .filter(|&r| !own.contains(&r) && partners.contains(&procs[r].pid_key))
        .collect();
    for &c in &todo {
        chained[c] = true;
    }
    while let Some(c) = todo.pop() {
        let mine: Vec<&Event> = ex.events().iter().filter(|e| e.proc == c).collect();
        for (r, theirs) in future.iter().enumerate() {
            let Some(theirs) = theirs.as_ref().filter(|_| !chained[r]) else {
                continue;
            };
            let after = mine.iter().any(|e| {
                (e.spawned.0..e.spawned.1).contains(&r)
                    || e.footprint.conflicts_observed(theirs, observed)
            }) || future[c]
                .as_ref()
                .is_some_and(|f| f.conflicts_observed(theirs, observed));
            if after {
                chained[r] = true;
                todo.push(r);
            }
        }
        if let Some(f) = &future[c] {
            out.push((c, f.clone()));
        }
    }
    out
}

impl<R: Reduction> Dpor<R> {
    /// The races of a blocked step's future asked [`Dpor::ask_before`] for a
    /// sequence at node `e`: [`Dpor::delegate`] when it joined.
    pub(super) fn ask_for_future(
        &mut self,
        run: &mut Exploration<'_, '_>,
        hb: &HappensBefore,
        e: usize,
        v: Vec<usize>,
        n: (usize, &Footprint),
    ) {
        if self.ask_before(run, hb, e, v, n) == Some(Insertion::Joined) {
            self.delegate(run, e);
        }
    }

    /// A wakeup sequence joined `wut(E')` at node `e` for the races of a blocked
    /// step's future ([`Dpor::future_races`]): the process explored from `e`, whose
    /// subtree holds the block, is no longer done there at Fig. 1, line 9
    /// ([`Dpor::done`]).
    ///
    /// Why: line 9 trusts the subtree of a process `q` done at `w` to explore every
    /// class in which `q` is a weak initial after `w`. A subtree with a step blocked
    /// at a covered state does not: the states past the block are reached through
    /// the covering subtree, whose events may differ (a guarded write that ran in
    /// the blocked prefix and not in the covering one), and the neighbours of the
    /// classes past the block are asked for only by the block's analysis of its
    /// futures, as sequences of the path, some at `w` itself. Such a sequence is
    /// work of `q`'s subtree handed to a sibling; cutting its races because `q` is
    /// done at `w` is circular, and over `→ob` it happens, as weak initials grow
    /// when a sequence is extended: `q`, no weak initial of the sequence asked for,
    /// becomes one once a later write overwrites `q`'s unread. p's `y = 1; yield;
    /// y = 1`, q's `if (y == 0) { x = 2; } yield; t = x`, two r's `x = 1; yield; x =
    /// 1`: q's subtree at the root blocked at q p r@4 (the state of p q r@4, where
    /// q wrote nothing) and asked, for r@3's future, for r@4 r@3 at the root; in r@4
    /// r@3 q p p q r@3 r@4, the race of q's read with r@3's second write, the first
    /// step towards x = 2 (every r's write before q's), was judged covered by q
    /// done at the root (q is a weak initial of r@4 r@3 q p p r@3: r@3's write
    /// overwrites q's unread), and so was its mirror in r@4's subtree: odpor-cs-ob
    /// `--literal` lost the final state x = 2
    /// (`tests/regressions/odpor_cs_ob_literal_a_future_asked_for_is_not_covered_by_its_asker.ic`,
    /// found by the mutants test). Only the futures' sequences delegate: counting
    /// every sequence a blocked execution asked for, odpor-cs-ob with
    /// `--violations-only` took LW(10) from 66 to 1,536 states, with no program
    /// known to need it. That this reaches every class is not proved: the
    /// differential test checks it.
    pub(super) fn delegate(&mut self, run: &Exploration<'_, '_>, e: usize) {
        let node = &mut self.nodes[e];
        let current = node.current.and_then(|c| run.ex.state.procs.get(c));
        if let Some(key) = current.map(|c| c.pid_key) {
            if !node.delegated.contains(&key) {
                node.delegated.push(key);
            }
        }
    }
}
