//! `spor`: Safe Set POR (Cirisci, Enea, Farzan, Mutluergil, *A Pragmatic Approach to
//! Stateful Partial Order Reduction*, Alg. 1, "S-POR"): the stateful search of
//! [`stateful`](super::stateful), which expands each state by a *safe set*: one
//! process whose next step is *invisible* when there is one, every enabled process
//! otherwise.
//!
//! Alg. 1, line by line:
//!
//! | lines | what | where |
//! | --- | --- | --- |
//! | 3 | a state already visited is not explored again | [`Exploration::visit`] |
//! | 4 | `safeSet(s)`: `{t}` for a `t` whose next step is invisible, else `enabled(s)` | [`invisible_step`] |
//! | 5–8 | each step of the safe set, depth first | `Spor::explore` |
//!
//! **Invisible steps** are those whose block may touch no global location
//! ([`crate::stateful::safe_sets`] says why `{t}` is then a persistent set).
//!
//! **Beyond the paper: a step that fails.** Our executions end where a step fails
//! (`naive` explores no further), so a failing invisible step of `t`, explored
//! alone, would hide the violations of the others (whose executions end before `t`
//! runs). A step whose failure depends on its locals only fails in every order; the
//! state is then expanded by every enabled process.
//!
//! **Beyond the paper: cycles.** The paper assumes an acyclic state space; ours has
//! cycles (a spin loop). A reduced expansion that closes a cycle could ignore the
//! other processes for ever (a process spinning without touching a global, another
//! about to fail): the *ignoring problem*. The stack proviso (Peled, *All from one,
//! one for all*, CAV'93, condition C3'; Godefroid's thesis, LNCS 1032, Sec. 6.3):
//! when the invisible step leads to a state on the current path, the state is
//! expanded by every enabled process. Every cycle of the explored graph then holds a
//! fully expanded state, and with persistent sets that preserves every reachable
//! final state (deadlocks among them) and every reachable failing step: a step of
//! another process that a reduced state postpones stays enabled and independent
//! until it runs, and it runs at the latest at the fully expanded state of the
//! cycle, or where the execution ends (a final state has no enabled process).

use crate::exploration::{Algorithm, Exploration};
use crate::fingerprint::Fingerprint;
use crate::stateful::safe_sets::invisible_step;
use rustc_hash::FxHashSet;

#[derive(Default)]
pub struct Spor;

/// A state on the current path.
struct Node {
    /// Its fingerprint, on [`Spor`]'s stack set while the node is on the path.
    state: Fingerprint,
    /// Every enabled process.
    enabled: Vec<usize>,
    /// The invisible step explored first (alone, while `reduced`).
    safe: Option<usize>,
    /// Whether the state is expanded by its safe step alone.
    reduced: bool,
    /// The next index of `enabled` to run once the state is expanded whole (the safe
    /// step, run already, is passed over).
    next: usize,
    /// Whether the safe step was run.
    safe_done: bool,
}

impl Algorithm for Spor {
    fn name(&self) -> &'static str {
        "spor"
    }

    fn stores_states(&self) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        let mut on_path: FxHashSet<Fingerprint> = FxHashSet::default();
        let first = run.identity();
        run.visit(first);
        let mut stack = vec![node(run, first)];
        on_path.insert(first);
        while let Some(top) = stack.last_mut() {
            if run.stopped() {
                break;
            }
            if top.enabled.is_empty() {
                run.complete_execution();
            }
            let proc = match top.safe {
                Some(t) if !top.safe_done => {
                    top.safe_done = true;
                    Some(t)
                }
                // The safe step ran: the state is done unless it is expanded whole.
                _ if top.reduced => None,
                _ => {
                    let ran = top.safe.filter(|_| top.safe_done);
                    while top.enabled.get(top.next).is_some_and(|&p| Some(p) == ran) {
                        top.next += 1;
                    }
                    let p = top.enabled.get(top.next).copied();
                    top.next += 1;
                    p
                }
            };
            let Some(proc) = proc else {
                if let Some(done) = stack.pop() {
                    on_path.remove(&done.state);
                }
                if !stack.is_empty() {
                    run.back();
                }
                continue;
            };
            let reduced = top.reduced;
            let ran = run.step(proc).is_ok();
            let reached = ran.then(|| run.identity());
            // A reduced expansion that fails, or closes a cycle, becomes a full one.
            if reduced && reached.is_none_or(|s| on_path.contains(&s)) {
                let top = stack.last_mut().expect("the node just stepped from");
                top.reduced = false;
                run.back();
                continue;
            }
            match reached {
                Some(state) if run.visit(state) => {
                    on_path.insert(state);
                    let next = node(run, state);
                    stack.push(next);
                }
                _ => run.back(),
            }
        }
    }
}

/// The node of the current state: its enabled processes and its safe step.
fn node(run: &Exploration<'_, '_>, state: Fingerprint) -> Node {
    let mut enabled = Vec::new();
    run.ex.enabled(&mut enabled);
    let safe = invisible_step(run, &enabled);
    Node {
        state,
        enabled,
        safe,
        reduced: safe.is_some(),
        next: 0,
        safe_done: false,
    }
}
