//! Programs built for the futures of the processes a blocked step spawns
//! (`Dpor::future_races`): a step that spawns a writer blocks at a state where the
//! global it writes is dead, and the race of an earlier write with the spawned
//! process's lies only past the block.
//! `tests/regressions/odpor_cs_a_blocked_step_spawns_a_racing_process.ic` is one of
//! them. Every combination of [`P`], [`Q`], [`R`] and [`INIT`] has an index; before
//! those futures were raced, odpor-cs lost a final state on 16 of the 900.
//!
//! `spawned_futures_agree_with_naive` runs, in CI, the 30 programs whose `r` and
//! `init` are the regression's (the 16 among them); by hand,
//! `cargo test --release -p tests --test differential spawned_futures_campaign --
//! --ignored --nocapture` runs all 900.

use super::{differential, entries};

/// `p`: a write of x that a spawned `r` may come after, or before.
const P: &[&str] = &[
    "x = 2;",
    "x = 2; yield; int t = y;",
    "int t = y; x = 2;",
    "x = x + 2;",
    "y = 2; yield; x = 2;",
];

/// `q`: spawns a second `r`, at the end of a step or before a write.
const Q: &[&str] = &[
    "yield; y = 1; spawn r();",
    "y = 1; yield; spawn r();",
    "yield; spawn r(); y = 1;",
    "yield; y = 1; spawn r(); yield; x = 3;",
    "y = 1; spawn r();",
    "yield; y = 1; spawn r(); spawn r();",
];

/// `r`: writes x, which makes it dead wherever an `r` is still to run.
const R: &[&str] = &[
    "x = 1; yield; int t = y;",
    "x = 1; int t = y;",
    "int t = y; yield; x = 1;",
    "x = 1; yield; y = 2;",
    "x = 1;",
    "int t = y; if (t == 1) { x = 1; }",
];

const INIT: &[&str] = &[
    "spawn p(); spawn q(); spawn r();",
    "spawn q(); spawn p(); spawn r();",
    "spawn r(); spawn q(); spawn p();",
    "spawn p(); spawn q();",
    "spawn q(); spawn r(); spawn p(); spawn r();",
];

/// The `index`-th program (`index < P.len() * Q.len() * R.len() * INIT.len()`).
fn program(index: usize) -> String {
    let [p, q, r, init] = entries(index, [P.len(), Q.len(), R.len(), INIT.len()]);
    format!(
        "global int x = 0;\nglobal int y = 0;\nproc p() {{ {} }}\nproc q() {{ {} }}\n\
         proc r() {{ {} }}\ninit {{ {} }}\n",
        P[p], Q[q], R[r], INIT[init]
    )
}

/// Each disagreement among the programs of `indices`.
fn disagreements(indices: impl Iterator<Item = usize>) -> Vec<String> {
    indices
        .filter_map(|i| {
            differential(&program(i))
                .err()
                .map(|e| format!("program {i}: {e}"))
        })
        .collect()
}

#[test]
fn the_family_holds_the_regression() {
    let regression =
        include_str!("../../regressions/odpor_cs_a_blocked_step_spawns_a_racing_process.ic");
    assert!(regression.ends_with(&program(0)), "{}", program(0));
}

/// The programs with the regression's `r` and `init`, in CI.
#[test]
fn spawned_futures_agree_with_naive() {
    let failed = disagreements(0..P.len() * Q.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// By hand: all of them.
#[test]
#[ignore = "a campaign, run by hand"]
fn spawned_futures_campaign() {
    let failed = disagreements(0..P.len() * Q.len() * R.len() * INIT.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
