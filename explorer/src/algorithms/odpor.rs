//! `odpor`: Optimal-DPOR (Abdulla, Aronis, Jonsson, Sagonas, JACM 2017, Alg. 2): the
//! skeleton of [`crate::dpor`] with wakeup trees instead of backtrack sets
//! ([`Frontier::WakeupTrees`]). With sleep sets, it explores exactly one complete
//! execution per Mazurkiewicz trace and none that ends blocked in a sleep set —
//! Source-DPOR's `sdpor` may explore many of those.
//!
//! Where each line lives, numbered as the black code of Alg. 1 of the ISSTA'19
//! paper (Albert et al., *Optimal Context-Sensitive DPOR with Observers*), which is
//! Optimal-DPOR written out:
//!
//! | lines | what | where |
//! | --- | --- | --- |
//! | 13–14 | a complete execution: `RaceDetection(E)` | `Dpor::explore` ([`crate::dpor`]); ours as each event runs, see below |
//! | 15–16 | a node inherits the subtree of the branch it was reached by | `Dpor::explore`, `Dpor::open` |
//! | 20–22 | an empty tree takes one enabled process | `Dpor::choose_fresh` ([`crate::dpor::wakeup`]) |
//! | 23–24, 33 | the leftmost branch is followed, then leaves the tree | `Dpor::explore`, `Dpor::runnable_branch` |
//! | 27–31 | the child's subtree and sleep set (processes independent of `p`) | `Dpor::explore`, [`crate::dpor::sleep::SleepSet::after`] |
//! | 32 | `p` joins `done(E)`: it sleeps at `E` | `Dpor::close` |
//! | 35–37 | each race `e ⋖ e'` and `v = notdep(e, E).ê'` | `Dpor::analyse` ([`crate::dpor::race_analysis`]), [`crate::dependency::races`] |
//! | 40 | `v` redundant: a process asleep at `E'` is a weak initial of it | `Dpor::insert_wakeup`, [`crate::dpor::wakeup_tree::sleeper_covers`] |
//! | 41 | `v` joins `wut(E')` | [`crate::dpor::wakeup_tree::WakeupTree::insert`] |
//!
//! Not in the paper: races are reversed as each event runs, with the events before
//! it (JACM reverses them where the execution ends, over the whole of it), so a race
//! refused beside a sleeping process is judged again where the execution ends
//! (`Dpor::recheck_refused_beside`); an `await` asks to run before the writes that
//! disabled it ([`crate::dpor::awaits`]) instead of climbing; and a step of a branch
//! that cannot run (a guard judged on a memory that was not exact) is dropped, with
//! what the tree held below it inserted again (`Dpor::runnable_branch`).
//!
//! On several threads (`--jobs`) the threads share the top of the tree and its
//! wakeup trees ([`crate::parallel::shared_top`]); a sequence whose weak initial is a
//! branch already started follows it into its subtree ([`crate::dpor::forwarding`]).

use crate::dpor::parts::Frontier;
use crate::dpor::{Parts, Reduction};

#[derive(Default)]
pub struct OptimalDpor;

impl Reduction for OptimalDpor {
    fn name(&self) -> &'static str {
        "odpor"
    }

    fn parts(&self) -> Parts {
        Parts {
            frontier: Frontier::WakeupTrees,
            ..Parts::SOURCE_DPOR
        }
    }
}
