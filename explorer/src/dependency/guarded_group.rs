//! Groups of guarded independences: events that pairwise commute in every state the
//! others leave, recorded independent of one another (cdpor's line 9).
//!
//! The pair rule of [`crate::dependency::guarded`] records one independence per event
//! (its condition 3). Pi as its source writes it (`benches/programs/pi_source.ic`)
//! needs more: N `sum`s each do `counter = counter + 1`, and the one that makes the
//! count N spawns the stops. Any two commute wherever they meet (the second to run
//! spawns, in either order), but where they meet depends on how many others ran:
//! with one independence per `sum`, cdpor explored N − 2 executions where one
//! suffices.
//!
//! # The rule
//!
//! The newest event `n` joins a group `G` (`n ∈ G`, its other members earlier events
//! of the execution `E`, `g₁` the first) when:
//! 1. every member ran without failure, carries its transition footprint (what any
//!    path of its block may touch), and is of a process of its own;
//! 2. every member's footprint reads the same locations `L`, and writes some of them
//!    and nothing else: any two members conflict, and every write of `L` conflicts
//!    with every member;
//! 3. every independence recorded for a member is with another member, and none will
//!    be recorded later with an event outside the group (cdpor reverses such races);
//! 4. no event between `g₁` and `n` but the members touches `L`;
//! 5. from `s[pre(E, g₁)]`, in every state reached by running some of the members in
//!    some order, any two not yet run end alike in either order, the first to run
//!    spawning nothing (`commute_by_running`, which also asks that both run without
//!    failure, write the same locations and spawn the same processes)
//!    ([`commute_as_group`]). So a member spawns only where it runs last.
//!
//! `n` is then recorded independent of every member (all conflict with it, and none
//! happens before it: see below), as guarded pairs, so what `n` spawns happens after
//! every member ([`HappensBefore::forced`]).
//!
//! # Why Source-DPOR stays sound
//!
//! As for a pair: each linearisation of happens-before of an explored execution must
//! be an execution to the same state. It is reached from `E` by swapping adjacent
//! events that happens-before leaves unordered, each sequence on the way a
//! linearisation; a swap of two events that are not two members is justified as
//! before (footprints, `R`, or a pair). Take two members `a` and `b` adjacent in such
//! a sequence, after the state `X`.
//!
//! An event outside `G` that writes a location of `L` conflicts with every member
//! (2.) and is recorded independent of none (3.), so it happens before every member
//! if it is earlier in `E` than `g₁`, and after every member if it is later than `n`
//! (between them there is none, 4.). So in `X`, `L` holds what the members run
//! before `a` and `b` made of its values before `g₁`, with nothing else between. By
//! 5., the state that a set `S` of members run in any order leaves is one and the
//! same, `σ(S)` (by induction on `S`: two orders ending with different members `a`
//! and `b` both continue some order of `S ∖ {a, b}`, where `a` and `b` end alike in
//! either order). The members read only `L`: in `X` each takes the path it takes
//! from `σ(S)` and writes only `L`, and `a` and `b` end alike in either order there
//! as from `σ(S)`.
//!
//! The members run without spawning but for the last of them (5.), which spawns what
//! `n` spawned in `E`, from another process. Those processes happen after every
//! member: no member happens before `n` (a path from one to `n` would cross an event
//! that conflicts with a member, which touches `L`, which none between `g₁` and `n`
//! does (4.), and no member is of `n`'s process (1.) or spawned it (5.)), so each
//! is a race of `n` and recorded as a guarded independence of `n`, whose spawns
//! [`HappensBefore::forced`] orders after them. Only their spawner differs, which
//! names a process but changes nothing it does (process identities are not state,
//! [`crate::state::State::check_fingerprint`]).
//!
//! Condition 3 keeps `L`'s other writers ordered with the whole group: a later event
//! recorded independent of one member by `R` or as a pair could run before that
//! member and after the others, and change `L` between two members. Condition 2
//! makes every such writer conflict with every member, so that it is ordered with
//! each.
//!
//! # Tests
//!
//! `tests/tests/guarded_groups/` builds 672 programs around a counter (tasks whose
//! updates commute or not, whose spawn carries their own argument or not, another
//! process that touches the counter or counts with another footprint); cdpor forms
//! groups on 342 of them and agrees with naive on all. Conditions 2, 3 and 4 come
//! from the argument above: with any one of them left out, those programs still
//! agree (with condition 2 left out, groups form on 3 more), so no test shows them
//! needed; with condition 5 left out, they do not.
//!
//! [`HappensBefore::forced`]: crate::dependency::happens_before::HappensBefore::forced

use crate::dependency::constraints::Event as Step;
use crate::dependency::guarded::{commute_by_running, run_step};
use frontend::interp::{Effects, Machine};
use frontend::memory::Memory;
use std::collections::HashSet;

/// The most states of a group [`commute_as_group`] visits before it gives up (the
/// members then stay ordered): groups whose members leave few distinct states, as
/// counters do, are the ones it serves.
const MOST_STATES: usize = 256;

/// Condition 5 of the rule: from `mem`, in every state that running some of
/// `members` (their blocks and the locals they start with) in some order reaches,
/// any two not yet run end alike in either order, the first spawning nothing.
/// Members with the same block and locals stand for each other, and a state is
/// visited once with the same ones left.
pub fn commute_as_group(machine: &Machine<'_>, mem: &Memory, members: &[Step<'_>]) -> bool {
    let mut kinds: Vec<Step<'_>> = Vec::new();
    let mut left: Vec<u32> = Vec::new();
    for &m in members {
        match kinds.iter().position(|&k| k == m) {
            Some(k) => left[k] += 1,
            None => {
                kinds.push(m);
                left.push(1);
            }
        }
    }
    let mut seen: HashSet<(Memory, Vec<u32>)> = HashSet::new();
    let mut todo = vec![(mem.clone(), left)];
    while let Some((mem, left)) = todo.pop() {
        if left.iter().sum::<u32>() < 2 || seen.contains(&(mem.clone(), left.clone())) {
            continue;
        }
        if seen.len() == MOST_STATES {
            return false;
        }
        for a in (0..kinds.len()).filter(|&a| left[a] > 0) {
            let Some(after) = run(machine, &mem, kinds[a]) else {
                return false;
            };
            for b in (a..kinds.len()).filter(|&b| left[b] > u32::from(a == b)) {
                if commute_by_running(machine, &mem, kinds[a], kinds[b]).is_none() {
                    return false;
                }
            }
            let mut rest = left.clone();
            rest[a] -= 1;
            todo.push((after, rest));
        }
        seen.insert((mem, left));
    }
    true
}

/// The memory `step` leaves when run from `mem`: `None` if it is disabled there or
/// fails.
fn run(machine: &Machine<'_>, mem: &Memory, step: Step<'_>) -> Option<Memory> {
    let mut mem = mem.clone();
    run_step(machine, &mut mem, step, &mut Effects::default())?;
    Some(mem)
}
