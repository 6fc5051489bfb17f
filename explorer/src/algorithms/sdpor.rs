//! `sdpor`: Source-DPOR with source sets and sleep sets (Abdulla et al., POPL'14),
//! exactly the skeleton of [`crate::dpor`] with [`Parts::SOURCE_DPOR`] — the black
//! code of Alg. 1 in the CSDPOR and CDPOR papers. With sleep sets it explores one
//! complete execution per Mazurkiewicz trace.
//!
//! Where each line of Alg. 1 lives:
//!
//! | lines | what | where |
//! | --- | --- | --- |
//! | 1–3 | an enabled process not asleep starts `backtrack(E)` | `Dpor::explore` ([`crate::dpor`]) |
//! | 4–5 | each `p ∈ backtrack(E) \ sleep(E)` is explored | `Dpor::explore` |
//! | 6 | the races `e ⋖ n` of the new event | `Dpor::analyse_races` ([`crate::dpor::race_analysis`]), [`crate::dependency::races::races`] |
//! | 7–10 | `v = notdep(e, E).n`; an initial of it joins `backtrack(E')` unless one is there | `Dpor::analyse`, `add_initial` |
//! | 15–16 | the sleep set of `E.p`: entries independent of `p`'s event | [`crate::dpor::sleep::SleepSet::after`] |
//! | 19 | `p` goes to sleep at `E` once explored | `Dpor::close` |
//!
//! Beyond the paper, for the language's `await`s (the paper's processes are always
//! enabled): a process blocked at a guard races through probes of its guard, and an
//! `await` that cannot run before a write asks for the earlier steps that bring it
//! there ([`crate::dpor::awaits`]); a failed event ends its execution, and its races
//! are analysed as any event's.

use crate::dpor::{Parts, Reduction};

#[derive(Default)]
pub struct SourceDpor;

impl Reduction for SourceDpor {
    fn name(&self) -> &'static str {
        "sdpor"
    }

    fn parts(&self) -> Parts {
        Parts::SOURCE_DPOR
    }
}
