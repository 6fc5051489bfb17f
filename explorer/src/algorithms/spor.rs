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
//!
//! **Beyond the paper: threads** (`--jobs N`). The threads share one store of
//! states and hand each other the branches they have not taken, as the stateful
//! reference's do ([`crate::parallel::stateful`]): each state is expanded, by its
//! safe set, by the thread that stores it first, and the branches of a state
//! expanded whole may be run by another thread; a reduced state keeps its one step.
//! A thread sees the states the others stored but not their paths, so a cycle of
//! reduced states may run through several threads' paths, where no thread's stack
//! proviso sees it. On threads a reduced expansion is therefore kept only where its
//! step stores the state it reaches (the closed-set proviso, [`Proviso::Closed`]):
//! every cycle of the explored graph again holds a fully expanded state, and the
//! argument above applies unchanged. It expands more states whole than the stack
//! proviso (every state whose invisible step reaches a state stored before), so its
//! stored states may exceed one thread's.

use crate::exploration::{Algorithm, Config, Deps, Exploration};
use crate::fingerprint::Fingerprint;
use crate::parallel::pool::Job;
use crate::stateful::safe_sets::invisible_step;
use rustc_hash::FxHashSet;

#[derive(Default)]
pub struct Spor;

/// A state on the current path.
struct Node {
    /// Its fingerprint (on the [`Proviso::Stack`] while the node is on the path).
    state: Fingerprint,
    /// Every enabled process (those of this thread: branches given away are not).
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
    /// The process whose step the path takes from here, once it has taken one.
    taken: Option<usize>,
}

impl Node {
    /// The node of the current state: its enabled processes and its safe step.
    fn new(run: &Exploration<'_, '_>, state: Fingerprint) -> Node {
        let mut enabled = Vec::new();
        run.ex.enabled(&mut enabled);
        let safe = invisible_step(run, &enabled);
        Node {
            safe,
            reduced: safe.is_some(),
            ..Node::whole(state, enabled)
        }
    }

    /// A node expanded whole by `branches`.
    fn whole(state: Fingerprint, branches: Vec<usize>) -> Node {
        Node {
            state,
            enabled: branches,
            safe: None,
            reduced: false,
            next: 0,
            safe_done: false,
            taken: None,
        }
    }

    /// The next process to run from here, if any is left.
    fn next_process(&mut self) -> Option<usize> {
        match self.safe {
            Some(t) if !self.safe_done => {
                self.safe_done = true;
                Some(t)
            }
            // The safe step ran: the state is done unless it is expanded whole.
            _ if self.reduced => None,
            _ => {
                let ran = self.safe.filter(|_| self.safe_done);
                while (self.enabled.get(self.next)).is_some_and(|&p| Some(p) == ran) {
                    self.next += 1;
                }
                let p = self.enabled.get(self.next).copied();
                self.next += 1;
                p
            }
        }
    }
}

/// When a reduced expansion must become a full one, so that every cycle of the
/// explored graph holds a fully expanded state (the ignoring problem, above).
enum Proviso {
    /// On one thread, where the invisible step leads to a state on the current
    /// path: the stack proviso (C3'). The path's states.
    Stack(FxHashSet<Fingerprint>),
    /// On several threads, where it leads to a state stored before, by any thread:
    /// the closed-set proviso (Evangelista and Pajault, *Solving the ignoring
    /// problem for partial order reduction*, STTT 2010). A thread sees the others'
    /// states but not their paths, so a cycle may run through several threads'
    /// paths, where the stack proviso would not see it. A reduced state is expanded
    /// by the thread that stored it, after storing it, and its expansion is kept
    /// only when its step stores the state it reaches: along the explored graph's
    /// edges from reduced states each state is stored strictly after the one
    /// before it (by the same thread, later), so no cycle is made of such edges
    /// alone.
    Closed,
}

impl Proviso {
    fn enter(&mut self, state: Fingerprint) {
        if let Proviso::Stack(path) = self {
            path.insert(state);
        }
    }

    fn leave(&mut self, state: Fingerprint) {
        if let Proviso::Stack(path) = self {
            path.remove(&state);
        }
    }

    /// Whether a reduced expansion whose step reached `state`, stored by it if `new`,
    /// stays reduced.
    fn keeps_reduced(&self, state: Fingerprint, new: bool) -> bool {
        match self {
            Proviso::Stack(path) => !path.contains(&state),
            Proviso::Closed => new,
        }
    }
}

impl Algorithm for Spor {
    fn name(&self) -> &'static str {
        "spor"
    }

    fn stores_states(&self) -> bool {
        true
    }

    /// Its threads share one store ([`crate::parallel::stateful`]); each state is
    /// expanded by the thread that stores it first, with [`Proviso::Closed`].
    fn shares_stored_states(&self, _config: &Config) -> bool {
        true
    }

    /// A unit's state is the root of a search of its own, with its own store and
    /// stack proviso, as the stateful reference's is
    /// ([`crate::algorithms::stateful`]): the argument above holds from whatever
    /// state the search starts at.
    fn explores_units(&self, _deps: Deps) -> bool {
        true
    }

    fn explore(&mut self, run: &mut Exploration<'_, '_>) {
        let mut proviso = match run.shared() {
            Some(_) => Proviso::Closed,
            None => Proviso::Stack(FxHashSet::default()),
        };
        // One job on one thread, the root; on several, what the threads give each
        // other.
        while let Some(job) = run.next_job() {
            for &p in &job.path {
                run.replay(p);
            }
            let state = run.identity();
            let base = match job.branches {
                Some(branches) => Node::whole(state, branches),
                None => {
                    run.visit(state);
                    Node::new(run, state)
                }
            };
            search(run, base, &job.path, &mut proviso);
            for _ in &job.path {
                run.back();
            }
            if run.stopped() {
                break;
            }
        }
    }
}

/// Depth first from `base`, the state at the end of `path`, by safe sets.
fn search(run: &mut Exploration<'_, '_>, base: Node, path: &[usize], proviso: &mut Proviso) {
    proviso.enter(base.state);
    let mut stack = vec![base];
    while let Some(top) = stack.last_mut() {
        if run.stopped() {
            break;
        }
        if top.enabled.is_empty() {
            run.complete_execution();
        }
        let Some(proc) = top.next_process() else {
            if let Some(done) = stack.pop() {
                proviso.leave(done.state);
            }
            if !stack.is_empty() {
                run.back();
            }
            continue;
        };
        top.taken = Some(proc);
        let reduced = top.reduced;
        let reached = run.step(proc).is_ok().then(|| run.identity());
        let new = reached.is_some_and(|state| run.visit(state));
        // A reduced expansion that fails, or closes a cycle, becomes a full one.
        if reduced && !reached.is_some_and(|state| proviso.keeps_reduced(state, new)) {
            top.reduced = false;
            run.back();
            continue;
        }
        match reached {
            Some(state) if new => {
                proviso.enter(state);
                stack.push(Node::new(run, state));
                if run.hungry() {
                    give_away(run, &mut stack, path);
                }
            }
            _ => run.back(),
        }
    }
}

/// Gives another thread the branches not yet taken of the shallowest state on the
/// path that is expanded whole and has taken a branch: that state is stored, and
/// whoever runs a branch from it stores what it reaches, so each state is still
/// expanded by exactly one thread. A reduced state keeps its one step.
fn give_away(run: &Exploration<'_, '_>, stack: &mut [Node], path: &[usize]) {
    let left = |n: &Node| {
        let ran = n.safe.filter(|_| n.safe_done);
        (n.enabled.iter().skip(n.next)).any(|&p| Some(p) != ran)
    };
    let Some(at) = (stack.iter()).position(|n| !n.reduced && n.taken.is_some() && left(n)) else {
        return;
    };
    let mut to = path.to_vec();
    to.extend(
        stack[..at]
            .iter()
            .map(|n| n.taken.expect("a node below the top took a step")),
    );
    let node = &mut stack[at];
    let ran = node.safe.filter(|_| node.safe_done);
    let mut branches = node.enabled.split_off(node.next);
    branches.retain(|&p| Some(p) != ran);
    run.give(Job {
        path: to,
        branches: Some(branches),
    });
}
