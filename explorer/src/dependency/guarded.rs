//! Independences that a constraint proves where two racing events meet, or that
//! running both orders there shows, recorded in happens-before only where every
//! linearisation meets them in the same values: cdpor's line 9 with constraints that
//! read the global state, and where no constraint speaks.
//!
//! # The rule
//!
//! For a race `e ⋖ n` of an execution `E.p` (`n` the newest event, `E' = pre(E, e)`,
//! `û = dep(E, e, n)`, the events after `e` that happen before `n`), the pair is
//! recorded independent, *guarded by* the locations `L`, when:
//! 1. both may run in `s[E'.û]`, neither's guard reads what the other's block may
//!    write, and a constraint `C` of their blocks holds there; `L` are the global
//!    locations `C` read there ([`Independence::holding_at`]). Where none holds (no
//!    constraint over what `n` reads, none synthesised for the states they meet in:
//!    a merge by a recursive fun) and the pair's constraints are
//!    not exact, both orders are run from `s[E'.û]` and must end alike, each
//!    writing the same locations; `L` is then every location either order read
//!    ([`commute_by_running`]);
//! 2. `n` may read every location of `L` (its footprint holds it: cdpor's events
//!    carry their transition footprints, what any path of their blocks may touch).
//!    Where `e` may not read some, the pair is *closed* on them: no later event that
//!    may write one is recorded a guarded independence of either
//!    ([`HappensBefore::closed_to`]);
//! 3. it is the only independence recorded for `n`: none before it (so happens-before
//!    of `n` orders after every earlier event it conflicts with but `e`) and none
//!    after it (unless `n` joins a group of them: [`crate::dependency::guarded_group`]);
//! 4. whichever of the two runs first spawns nothing: `e` spawned nothing in `E`, and
//!    `n` spawns nothing where it runs first, in `s[E'.û]`; what the second spawns
//!    happens after both ([`HappensBefore::forced`]).
//!
//! # Why Source-DPOR stays sound
//!
//! Its proof needs each linearisation of happens-before of an explored execution to
//! be an execution that ends in the same state (JACM'17, Sec. 3; CDPOR Sec. 3.2
//! shows that independences proved in one state break this). A linearisation is
//! reached from `E.p` by swapping adjacent events unordered by happens-before. Two
//! events whose footprints do not conflict commute in any state; two in `R`
//! ([`crate::dependency::constraints`]) too. For a guarded pair, take a state `S` in
//! which a linearisation runs `e` and `n` next to each other; what runs before them
//! there includes every event that happens before either. Every other event `w` that
//! writes a location of `L` conflicts with `n` (2.), and with `e` where `e` may read
//! it. An earlier one happens before `n` (3.): it runs before the pair in `S` as in
//! `s[E'.û]` (it is in `E'` or `û`). A later one happens after each event of the
//! pair it conflicts with and is not recorded independent of: after the pair in
//! `S`, unless it is independent of both. A guarded independence is its only one
//! (3.), and it is none of either where the pair is closed on the location (2.), so
//! only `R` makes it independent of `n`, and of `e` too or `e` touches nothing it
//! does; then it commutes with each in every state, and from any state `T`
//! where the pair commutes, `T.w.n.e = T.n.w.e = T.n.e.w = T.e.n.w = T.w.e.n`: the
//! pair commutes after it too. Otherwise the locations of `L` hold in `S` the values
//! they hold in `s[E'.û]` (the writes of one location are ordered by their
//! conflicts, or commute), `C` reads the same locations there and holds: by its
//! synthesis (CDPOR Def. 5 and 6) both orders run without failure to the same
//! globals, the same next blocks and live locals, and the same multiset of spawned
//! processes; by 1., neither enables or disables the other. Where both orders ran
//! instead, each reads in `S` the values it read from `s[E'.û]` (`L` holds all it
//! read), so it takes the same path and writes the same values to the same
//! locations: the two orders end alike from `S` as they did there. That is why they
//! must write the same locations: a location one wrote and the other did not would
//! keep, from `S`, a value `s[E'.û]` need not hold. The two orders may take
//! different paths (Fib's `result`: the first to run only counts, the second sums and
//! sends), but each event carries what any path of its block may touch, so every
//! event that would conflict with it after the swap is ordered with it already.
//! Nothing either spawns can run between them (4.: the first spawns nothing; in `S`
//! each reads what it reads in `s[E'.û]` but for writes of events in `R` with it,
//! and `R` leaves out a block that spawns as the state decides with one that writes
//! what it reads), and what the second spawns is ordered after both; only its spawner differs, which
//! names it but changes nothing it does (process identities are not state,
//! [`crate::state::State::check_fingerprint`]).
//!
//! # Reversals move the pair
//!
//! The argument above is about the linearisations of an explored execution. A
//! reversal of another race is not one: it moves events, and a guarded pair moved
//! with it may meet in other values, where it does not commute. Source-DPOR builds a
//! reversal's sequence from `notdep(e, E)` and adds one of its initials unless one
//! is in the backtrack set already; with the pair's independence in happens-before,
//! an event of the pair can be that initial, run where its partner has not, and the
//! branch it stands for may reverse nothing: `p` and `q₂` commute at `y = 0` (`p`
//! returns), the race of `q₂` with `r` (`y = 1`) was reversed with `p` first, and
//! `q₁ r q₂ p`, where `p` reads 3 and fails, was missed by `cdpor --literal`
//! (`tests/regressions/cdpor_a_reversal_moves_a_guarded_pair.ic`, found by the
//! generator). So where an initial is there only by a guarded independence
//! ([`crate::dependency::races::moved_by_guarded`]), another initial, or else the
//! race's later event, joins the backtrack set beside it (`add_initial`): branches
//! are only added. Building the sequence as if the pair conflicted, or taking the
//! other initial in its place, lost a final state of another generated program
//! (`tests/regressions/cdpor_a_reversal_keeps_the_events_its_race_needs.ic`).
//! Source-DPOR's completeness proof (JACM'17) assumes one relation; with guarded
//! independences it does not apply as it stands, and this repair is checked, not
//! proved (`docs/known-gaps.md`).
//!
//! # Why each condition is needed
//!
//! - Conditions 2 and 3: CDPOR's Ex. 4 and issue 11's `a₁.a₂.b` (`a: x = 1` twice, `b: y =
//!   x`): `x == 1` holds after `a₁`, and `a₁` is independent of `a₂` by `true`; with
//!   `a₁`'s write no longer ordered before `b`, a linearisation runs `b` first,
//!   where `x == 0`. The paper's `U⇒` asks only of the processes enabled where `C` is
//!   evaluated. Without condition 3, cdpor lost a final state of
//!   `tests/regressions/a_guarded_independence_is_the_only_one_of_its_event.ic`.
//! - Condition 2 asks it of `n`, not of `e`. A location of `L` that only `e` may
//!   read would do for the linearisations of the execution where the pair is
//!   recorded, with the earlier writes of it ordered with the two, but not for the
//!   search. `tests/regressions/state_pruning_loses_a_race.ic`: `p: x = 2 + z` and
//!   `r: x = 0` commute at `z = -2`, which only `p` reads. Recorded independent
//!   after `q`'s `z = -2`, the pair is never reversed in that branch, while the race
//!   of the execution that ran `p` first, at `z = 0`, was left to it (its sequence's
//!   initial `q` was in the backtrack set already): `cdpor --literal` lost `x = 2`,
//!   and cdpor lost final states of two `odpor_cs_ob_*` regressions (tried on
//!   2026-12-06). Where `n` reads `L`, every earlier write of it happens before `n`,
//!   so `L` holds the same values wherever `n` runs after the events it happens
//!   after, as in every reversal that keeps `n`: where the pair did not commute, it
//!   does not commute where a branch meets it again. That is an argument, not a
//!   proof: Source-DPOR's completeness with guarded independences is open
//!   (`docs/known-gaps.md`). CDPOR's Fig. 1 reaches one execution in 4 states with
//!   it, where the paper's CDPOR takes 6 (`tests/tests/dpor.rs`, `cdpor_example_5`),
//!   and BB(6) 488 states where it took 568.
//! - Condition 1 by running: no constraint speaks of MergeSort's two `done`s at one
//!   object (`benches/programs/ms_source.ic`: a recursive merge of two lists);
//!   they read the same locations, and the first stores its list, the second merges
//!   and sends, alike in either order. cdpor explores MS(10..220) in one execution
//!   and the CDPOR paper's states (38 .. 878), where it blocked 181 executions at
//!   MS(10) and did not finish MS(30) before (`tests/tests/dpor.rs`,
//!   `line_9_runs_both_orders_where_no_constraint_speaks`).
//! - Condition 4: `p(v) { if (x <= v) { return; } x = 0; spawn q(); }` twice: the first to
//!   run spawns `q`, which may run before the second; without the condition cdpor
//!   lost a final state of `tests/regressions/the_first_of_a_guarded_pair_spawns_nothing.ic`
//!   (and, with `R` in place of the rule, of
//!   `r_is_not_taken_for_two_blocks_whose_spawns_the_state_decides`).
//!
//! [`Independence::holding_at`]: crate::dependency::constraints::Independence::holding_at
//! [`HappensBefore::forced`]: crate::dependency::happens_before::HappensBefore::forced

use crate::dependency::constraints::Event as Step;
use crate::dependency::happens_before::HappensBefore;
use crate::executor::Event;
use frontend::interp::{Effects, Machine, Next};
use frontend::ir::ProcId;
use frontend::memory::{Loc, Memory, UndoLog};
use frontend::value::Value;

/// Condition 2 for the race `e ⋖ n` (`n` the newest event) and the locations `l`
/// (sorted): `n` may read each. Then every earlier event that wrote one conflicts
/// with `n` and, 3. recording no other independence of `n`, happens before it: it
/// runs before the two wherever they meet. `Some` of those `e` may not read
/// ([`HappensBefore::closed_to`]).
pub fn read_by_later(
    events: &[Event],
    hb: &HappensBefore,
    (e, n): (usize, usize),
    l: &[Loc],
) -> Option<Vec<Loc>> {
    let reads = |i: usize, x: &Loc| events[i].footprint.reads.binary_search(x).is_ok();
    if !l.iter().all(|x| reads(n, x)) {
        return None;
    }
    debug_assert!(
        (0..n).all(|w| w == e
            || !events[w]
                .footprint
                .writes
                .iter()
                .any(|x| l.binary_search(x).is_ok())
            || hb.before(events, w, n)),
        "a write of a location a guarded independence reads is not ordered before it"
    );
    Some(l.iter().copied().filter(|x| !reads(e, x)).collect())
}

/// Condition 1 without a constraint: both orders of `x` and `y` run from `mem`, and
/// `L` is every location either order read (sorted). Each order must run both
/// blocks without failure (the second still enabled after the first), the first to
/// run must spawn nothing (condition 4), and the two orders must write the same
/// locations and end with the same memory, the same next block and locals for each
/// process, and the same multiset of spawned processes. In a state that holds in `L`
/// what `mem` holds, each order reads the same values, takes the same paths and
/// writes the same values to the same locations as from `mem`, so the two orders
/// end in the same state there too (a location one order wrote and the other did
/// not would keep there a value `mem` may not hold): all the rule's argument asks
/// of `C`.
pub fn commute_by_running(
    machine: &Machine<'_>,
    mem: &Memory,
    x: Step<'_>,
    y: Step<'_>,
) -> Option<Vec<Loc>> {
    let mut reads = Vec::new();
    let xy = run_in_order(machine, mem, [x, y], &mut reads)?;
    let yx = run_in_order(machine, mem, [y, x], &mut reads)?;
    let same = xy.mem == yx.mem
        && xy.writes == yx.writes
        && xy.ends[0] == yx.ends[1]
        && xy.ends[1] == yx.ends[0]
        && xy.spawns == yx.spawns;
    reads.sort_unstable();
    reads.dedup();
    same.then_some(reads)
}

/// What running two blocks one after the other left: the memory, the locations
/// written (sorted), each block's next block and its process's locals (in the order
/// run), and the processes spawned, sorted.
struct InOrder {
    mem: Memory,
    writes: Vec<Loc>,
    ends: [(Next, Vec<Value>); 2],
    spawns: Vec<(ProcId, Vec<Value>)>,
}

/// Runs `order[0]` then `order[1]` on a copy of `mem`, adding what they read to
/// `reads`: `None` if one is disabled or fails, or the first spawns.
fn run_in_order(
    machine: &Machine<'_>,
    mem: &Memory,
    order: [Step<'_>; 2],
    reads: &mut Vec<Loc>,
) -> Option<InOrder> {
    let mut mem = mem.clone();
    let mut fx = Effects::default();
    let mut ends = Vec::with_capacity(2);
    for (i, step) in order.into_iter().enumerate() {
        ends.push(run_step(machine, &mut mem, step, &mut fx)?);
        if i == 0 && !fx.spawns.is_empty() {
            return None;
        }
    }
    reads.append(&mut fx.reads);
    let mut writes = fx.writes;
    writes.sort_unstable();
    writes.dedup();
    let mut spawns = fx.spawns;
    spawns.sort_unstable();
    let [first, second] = <[_; 2]>::try_from(ends).ok()?;
    Some(InOrder {
        mem,
        writes,
        ends: [first, second],
        spawns,
    })
}

/// Runs `step` on `mem`, adding its effects to `fx`: its next block and its
/// process's locals after it, `None` if it is disabled there or fails.
pub(crate) fn run_step(
    machine: &Machine<'_>,
    mem: &mut Memory,
    (block, locals): Step<'_>,
    fx: &mut Effects,
) -> Option<(Next, Vec<Value>)> {
    if machine.enabled(block, mem, locals) != Ok(true) {
        return None;
    }
    let mut locals = locals.to_vec();
    let next = machine
        .run_block(block, mem, &mut locals, &mut UndoLog::default(), fx)
        .ok()?;
    // An ended process holds no locals ([`crate::executor::Executor`] clears them):
    // the second `sum` of Pi's, which walks the list of workers, leaves others than
    // the first.
    if next == Next::End {
        locals.clear();
    }
    Some((next, locals))
}
