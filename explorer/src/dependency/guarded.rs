//! Independences that a constraint proves where two racing events meet, recorded in
//! happens-before only where every linearisation meets them in the same values:
//! cdpor's line 9 with constraints that read the global state.
//!
//! # The rule
//!
//! For a race `e ⋖ n` of an execution `E.p` (`n` the newest event, `E' = pre(E, e)`,
//! `û = dep(E, e, n)`, the events after `e` that happen before `n`), the pair is
//! recorded independent, *guarded by* the locations `L`, when:
//! 1. both may run in `s[E'.û]`, neither's guard reads what the other's block may
//!    write, and a constraint `C` of their blocks holds there; `L` are the global
//!    locations `C` read there ([`Independence::holding_at`]);
//! 2. both `e` and `n` may read every location of `L` (their footprints hold it:
//!    cdpor's events carry their transition footprints, what any path of their
//!    blocks may touch);
//! 3. it is the only independence recorded for `n`: none before it (so happens-before
//!    of `n` orders after every earlier event it conflicts with but `e`) and none
//!    after it;
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
//! writes a location of `L` conflicts with both (2.). An earlier one happens before
//! `n` (3.): it runs before the pair in `S` as in `s[E'.û]` (it is in `E'` or `û`).
//! A later one happens after `e` or after `n`, so after the pair in `S`, unless it
//! is independent of both, which only `R` makes it (3.: a guarded independence is
//! its only one); then it commutes with each in every state, and from any state `T`
//! where the pair commutes, `T.w.n.e = T.n.w.e = T.n.e.w = T.e.n.w = T.w.e.n`: the
//! pair commutes after it too. Otherwise the locations of `L` hold in `S` the values
//! they hold in `s[E'.û]` (the writes of one location are ordered by their
//! conflicts, or commute), `C` reads the same locations there and holds: by its
//! synthesis (CDPOR Def. 5 and 6) both orders run without failure to the same
//! globals, the same next blocks and live locals, and the same multiset of spawned
//! processes; by 1., neither enables or disables the other. The two orders may take
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
//! # Why each condition is needed
//!
//! - Conditions 2 and 3: CDPOR's Ex. 4 and issue 11's `a₁.a₂.b` (`a: x = 1` twice, `b: y =
//!   x`): `x == 1` holds after `a₁`, and `a₁` is independent of `a₂` by `true`; with
//!   `a₁`'s write no longer ordered before `b`, a linearisation runs `b` first,
//!   where `x == 0`. The paper's `U⇒` asks only of the processes enabled where `C` is
//!   evaluated. Without condition 3, cdpor lost a final state of
//!   `tests/regressions/a_guarded_independence_is_the_only_one_of_its_event.ic`.
//! - Condition 4: `p(v) { if (x <= v) { return; } x = 0; spawn q(); }` twice: the first to
//!   run spawns `q`, which may run before the second; without the condition cdpor
//!   lost a final state of `tests/regressions/the_first_of_a_guarded_pair_spawns_nothing.ic`
//!   (and, with `R` in place of the rule, of
//!   `r_is_not_taken_for_two_blocks_whose_spawns_the_state_decides`).
//!
//! [`Independence::holding_at`]: crate::dependency::constraints::Independence::holding_at
//! [`HappensBefore::forced`]: crate::dependency::happens_before::HappensBefore::forced

use crate::dependency::happens_before::HappensBefore;
use crate::executor::Event;
use frontend::memory::Loc;

/// Condition 2 for the race `e ⋖ n` (`n` the newest event) and the locations `l`
/// (sorted): both may read each. Then every earlier event that wrote one conflicts
/// with `n` and, 3. recording no other independence of `n`, happens before it: it
/// runs before the two wherever they meet.
pub fn read_by_both(
    events: &[Event],
    hb: &HappensBefore,
    (e, n): (usize, usize),
    l: &[Loc],
) -> bool {
    let reads = |i: usize, x: &Loc| events[i].footprint.reads.binary_search(x).is_ok();
    let read = l.iter().all(|x| reads(e, x) && reads(n, x));
    debug_assert!(
        !read
            || (0..n).all(|w| w == e
                || !events[w]
                    .footprint
                    .writes
                    .iter()
                    .any(|x| l.binary_search(x).is_ok())
                || hb.before(events, w, n)),
        "a write of a location a guarded independence reads is not ordered before it"
    );
    read
}
