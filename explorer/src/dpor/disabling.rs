//! Whether the first event of a race, run after the reversal a wakeup sequence asks
//! for, disables a process asleep beside that sequence at an `await`. Such a process
//! covers nothing beside the sequence (see [`crate::dpor::wakeup_tree::sleeper_covers`]).
//!
//! JACM's argument for a sleeper beside `v` needs it to run in every continuation of
//! `v`: its race with the first event that conflicts with it, in its own subtree,
//! leads back to the trace. In the trace that the reversal of `e ⋖ n` asks for, `e`
//! runs after `v.n`. A sleeper at an `await` that `e` disables never runs there, and
//! that trace may be covered by nothing: the race of the sleeper with `e` asks for
//! `v.n.e` at the same node, where a leaf can swallow it whose subtree refuses the
//! reversal beside the sleeper again. odpor explored 7 of 8 traces so, `--deps
//! accesses`: r's `x = 0; y = 0` disables two q's `await (x != 0)` and races with p's
//! read of y; below q@4, with q@3 asleep, the reversal `p` of `r ⋖ p` was refused
//! beside q@3, and `q@4 p r`, where q@3 never runs, was explored nowhere
//! (`tests/regressions/odpor_a_sleeper_disabled_by_the_race_covers_nothing_beside.ic`).
//!
//! Judged by running `e` again after `v.n` on the memory of `s[E'.v]` (read off the
//! undo log) and evaluating the sleeper's guard there, not by footprints: an `e`
//! that may write what the guard reads without falsifying it leaves the sleeper
//! enabled, and refusing the sleeper there made odpor end an execution blocked with
//! it asleep (`tests/regressions/odpor_a_sleeping_await_beside_by_footprints_covers.ic`,
//! where r's write of x never happens and q disables r itself). Where that memory is
//! not exact, by footprints: a write of what the sleeper reads may disable it.

use super::alternatives::virtual_memory;
use super::race_analysis::entry_accesses;
use super::wakeup::{next_step, waits};
use super::wakeup_tree::Entry;
use crate::dependency::footprint::Footprint;
use crate::dependency::happens_before::HappensBefore;
use crate::executor::Executor;
use crate::fingerprint::Fingerprint;
use frontend::memory::Memory;
use std::cell::OnceCell;

/// The reversal `v.n` of a race `e ⋖ n`, asked for at `E' = pre(E, e)`, which `e`
/// follows in the trace it asks for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reversal<'v> {
    pub e: usize,
    /// The events of `notdep(e, E)` that the sequence runs before `n`, in order.
    pub v: &'v [usize],
    pub n: usize,
}

/// A [`Reversal`] with what `e` leaves after it, computed when first asked.
pub(super) struct AfterReversal<'v> {
    reversal: Reversal<'v>,
    after: OnceCell<After>,
}

/// What `e` does when it runs after `v.n`.
enum After {
    /// It cannot run there (its guard is false): it disables nothing.
    Waits,
    /// It runs, leaving this memory.
    Leaves(Memory),
    /// The memory of `s[E'.v]` is not exact, or `n` cannot run there.
    Unknown,
}

impl<'v> AfterReversal<'v> {
    pub fn new(reversal: Reversal<'v>) -> Self {
        AfterReversal {
            reversal,
            after: OnceCell::new(),
        }
    }

    /// The reversal with what `e` leaves after it computed now, on `hb`: for a caller
    /// that holds the execution's happens-before apart from the search while it asks
    /// (a probe's sequences, `Dpor::ask_before`).
    pub fn judged(reversal: Reversal<'v>, ex: &Executor<'_>, hb: &HappensBefore) -> Self {
        let judged = AfterReversal::new(reversal);
        let _ = judged.after.set(judged.run(ex, hb));
        judged
    }

    /// Whether `e`, run after the reversal, leaves `process` (asleep at `E'` with the
    /// footprint `sleeping`, beside the sequence) waiting at an `await`: its guard
    /// false. A step without one stays enabled whatever `e` does.
    pub fn disables(
        &self,
        ex: &Executor<'_>,
        hb: &HappensBefore,
        (process, sleeping): (Fingerprint, &Footprint),
    ) -> bool {
        let Reversal { e, .. } = self.reversal;
        let Some((block, locals)) = next_step(ex, e, process) else {
            return false;
        };
        if !waits(ex.program(), block) {
            return false;
        }
        match self.after.get_or_init(|| self.run(ex, hb)) {
            After::Waits => false,
            After::Leaves(mem) => ex.waits_on(mem, block, locals),
            After::Unknown => {
                (entry_accesses(ex, e, ex.carries_accesses(e)).footprint).conflicts(sleeping)
            }
        }
    }

    /// `n`, then `e`, run again on the memory of `s[E'.v]`.
    fn run(&self, ex: &Executor<'_>, hb: &HappensBefore) -> After {
        let Reversal { e, v, n } = self.reversal;
        let Some(mut mem) = virtual_memory(ex, hb, e, v) else {
            return After::Unknown;
        };
        if !ex.rerun_on(&mut mem, n) {
            return After::Unknown;
        }
        match ex.rerun_on(&mut mem, e) {
            true => After::Leaves(mem),
            false => After::Waits,
        }
    }
}

/// What a wakeup insertion knows of the race's first event `e`, which follows its
/// sequence in the trace asked for.
#[derive(Clone, Copy)]
pub(super) enum RaceAfter<'a> {
    /// Nothing: every sleeper beside the sequence covers it as JACM's do.
    Nothing,
    /// `e` as a step ([`moved`]): a sleeper at an `await` whose step conflicts with it
    /// covers nothing beside the sequence. For the reversal of a probe, and of every
    /// race where `R` may keep a process asleep (see `sleeper_covers`).
    Step(&'a Entry),
    /// The reversal: a sleeper at an `await` that `e` disables after it covers nothing
    /// beside the sequence ([`AfterReversal::disables`]).
    Rerun(Reversal<'a>),
    /// The same, judged already ([`AfterReversal::judged`]).
    Judged(&'a AfterReversal<'a>),
}

impl<'a> RaceAfter<'a> {
    /// The step to judge sleepers by footprints with, if any.
    pub fn step(self) -> Option<&'a Entry> {
        match self {
            RaceAfter::Step(entry) => Some(entry),
            _ => None,
        }
    }
}
