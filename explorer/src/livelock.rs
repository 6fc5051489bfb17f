//! Livelocks (`ic-check --livelocks`): the cycles of the state graph that an
//! execution can follow for ever under *weak fairness*, where every process that is
//! enabled in every state of the cycle takes a step in it. A spinlock's waiter
//! spinning while the holder could release is no such cycle (the holder is enabled
//! throughout and never steps); two processes that raise a flag, see the other's and
//! back off, in turn and for ever, are one. SPIN's non-progress cycles with `-f`
//! (weak fairness) ask the same question of a Promela model.
//!
//! The stateful reference records the whole graph it explores (every state, the
//! processes enabled in it, every transition), and the check runs on it afterwards:
//!
//! - A cycle lies within one strongly connected component (found by Tarjan's
//!   algorithm, iteratively). A component `C` with a transition inside it holds a
//!   weakly fair cycle **iff** every process enabled in all of `C`'s states takes a
//!   step inside `C`. If: the closed walk through all of `C`'s states and those steps
//!   is a cycle in which each process either steps or, being disabled in some state
//!   of `C`, is not enabled throughout. Only if: a process enabled in every state of
//!   `C` and taking no step inside it is enabled throughout every cycle of `C`, and
//!   steps in none.
//! - The witness is a lasso `prefix ( cycle )`: the path by which the search first
//!   reached the component's first state, then a closed walk from it that takes one
//!   step inside `C` of each process that steps there and passes a state where each
//!   other process enabled somewhere in `C` is disabled: a fair cycle by the argument
//!   above. `--replay` runs it and checks that the cycle returns to its first state.
//!
//! The check is exact for the graph explored, so only the unreduced search has it: a
//! reduced search leaves transitions out, and with them cycles.

use crate::fingerprint::Fingerprint;
use crate::visited::StateId;
use rustc_hash::{FxHashMap, FxHashSet};

/// The state graph, as the stateful reference explores it.
#[derive(Debug, Default)]
pub struct StateGraph {
    /// Each state, by its number in the store ([`crate::visited::StateId`]).
    states: Vec<Node>,
    /// Process identity keys, interned.
    processes: FxHashMap<Fingerprint, u32>,
    /// Each process's proc and identity, by interned id.
    names: Vec<(String, String)>,
    /// The bytes of the states' lists of processes and transitions.
    bytes: u64,
}

#[derive(Debug, Default)]
struct Node {
    /// The processes enabled here, sorted.
    enabled: Vec<u32>,
    /// The transitions from here: the state reached and the process that stepped.
    edges: Vec<(u32, u32)>,
    /// The transition by which the search first reached this state.
    parent: Option<(u32, u32)>,
}

/// A fair cycle: the steps to reach it, and the steps of the cycle, as schedule
/// names.
#[derive(Debug, PartialEq, Eq)]
pub struct FairCycle {
    pub prefix: Vec<String>,
    pub cycle: Vec<String>,
    /// The processes that step in the cycle, sorted.
    pub stepping: Vec<String>,
}

impl FairCycle {
    /// `prefix ( cycle )`, as `--replay` takes it.
    pub fn schedule(&self) -> String {
        let mut out: Vec<&str> = self.prefix.iter().map(String::as_str).collect();
        out.push("(");
        out.extend(self.cycle.iter().map(String::as_str));
        out.push(")");
        out.join(" ")
    }
}

impl StateGraph {
    /// The id of process `key`, of the proc and identity `name` gives.
    pub fn process(&mut self, key: Fingerprint, name: impl FnOnce() -> (String, String)) -> u32 {
        let next = self.names.len() as u32;
        let id = *self.processes.entry(key).or_insert(next);
        if id == next {
            self.names.push(name());
        }
        id
    }

    /// Stores state `id`, new (the store numbers states in the order this graph
    /// meets them), with its enabled processes and the transition (from a stored
    /// state, by a process) that reached it.
    pub fn state(&mut self, id: StateId, mut enabled: Vec<u32>, parent: Option<(u32, u32)>) {
        debug_assert_eq!(
            id as usize,
            self.states.len(),
            "states come in the store's order"
        );
        enabled.sort_unstable();
        self.bytes += (std::mem::size_of::<Node>() + enabled.capacity() * 4) as u64;
        self.states.push(Node {
            enabled,
            edges: Vec::new(),
            parent,
        });
    }

    /// Records the transition `from --process--> to`.
    pub fn edge(&mut self, from: u32, to: u32, process: u32) {
        self.bytes += 8;
        self.states[from as usize].edges.push((to, process));
    }

    /// The bytes it holds, roughly (its lists' slack aside).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// A lasso for each strongly connected component that holds a weakly fair cycle,
    /// in the order of their first states.
    pub fn fair_cycles(&self) -> Vec<FairCycle> {
        let mut lassos: Vec<(u32, FairCycle)> = components(self)
            .into_iter()
            .filter_map(|c| self.fair_cycle(&c).map(|l| (c[0], l)))
            .collect();
        lassos.sort_by_key(|(first, _)| *first);
        lassos.into_iter().map(|(_, l)| l).collect()
    }

    /// The lasso of component `c` (its states sorted), if it holds a fair cycle.
    fn fair_cycle(&self, c: &[u32]) -> Option<FairCycle> {
        let inside = |s: u32| c.binary_search(&s).is_ok();
        // The first step inside `c` of each process that steps there.
        let mut steps: Vec<(u32, u32, u32)> = Vec::new();
        for &s in c {
            for &(to, p) in &self.states[s as usize].edges {
                if inside(to) && !steps.iter().any(|&(_, _, q)| q == p) {
                    steps.push((s, to, p));
                }
            }
        }
        if steps.is_empty() {
            return None;
        }
        let steps_in = |p: u32| steps.iter().any(|&(_, _, q)| q == p);
        let mut always = self.states[c[0] as usize].enabled.clone();
        let mut sometimes: FxHashSet<u32> = always.iter().copied().collect();
        for &s in &c[1..] {
            let enabled = &self.states[s as usize].enabled;
            always.retain(|p| enabled.binary_search(p).is_ok());
            sometimes.extend(enabled.iter().copied());
        }
        if !always.iter().all(|&p| steps_in(p)) {
            return None;
        }
        let mut sometimes: Vec<u32> = sometimes.into_iter().collect();
        sometimes.sort_unstable();
        // A state where each process enabled somewhere in `c`, and stepping nowhere
        // in it, is disabled.
        let mut visits: Vec<u32> = Vec::new();
        for &p in sometimes.iter().filter(|&&p| !steps_in(p)) {
            let off = c.iter().copied().find(|&s| {
                let enabled = &self.states[s as usize].enabled;
                enabled.binary_search(&p).is_err()
            });
            visits.extend(off.filter(|s| !visits.contains(s)));
        }
        let start = c[0];
        let mut cycle: Vec<u32> = Vec::new();
        let mut at = start;
        for &(from, to, p) in &steps {
            cycle.extend(self.walk(c, at, from));
            cycle.push(p);
            at = to;
        }
        for &s in &visits {
            cycle.extend(self.walk(c, at, s));
            at = s;
        }
        cycle.extend(self.walk(c, at, start));
        let mut prefix = Vec::new();
        let mut s = start;
        while let Some((from, p)) = self.states[s as usize].parent {
            prefix.push(p);
            s = from;
        }
        prefix.reverse();
        let name = |p: &u32| self.name(*p);
        let mut stepping: Vec<String> = steps.iter().map(|(_, _, p)| name(p)).collect();
        stepping.sort();
        Some(FairCycle {
            prefix: prefix.iter().map(name).collect(),
            cycle: cycle.iter().map(name).collect(),
            stepping,
        })
    }

    /// Process `p` as schedules name it: its proc, and its identity when another
    /// process of the graph runs the same proc (as [`crate::schedule`] does).
    fn name(&self, p: u32) -> String {
        let (proc, pid) = &self.names[p as usize];
        if self.names.iter().filter(|(q, _)| q == proc).count() > 1 {
            format!("{proc}@{pid}")
        } else {
            proc.clone()
        }
    }

    /// The processes of a shortest path from `from` to `to` within component `c`
    /// (breadth first).
    fn walk(&self, c: &[u32], from: u32, to: u32) -> Vec<u32> {
        // Each state reached, with the transition that reached it first.
        let mut back: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            if s == to {
                break;
            }
            for &(next, p) in &self.states[s as usize].edges {
                let inside = c.binary_search(&next).is_ok();
                if inside && next != from && !back.contains_key(&next) {
                    back.insert(next, (s, p));
                    queue.push_back(next);
                }
            }
        }
        let mut path = Vec::new();
        let mut s = to;
        while s != from {
            let (prev, p) = back[&s];
            path.push(p);
            s = prev;
        }
        path.reverse();
        path
    }
}

/// The strongly connected components of `graph`, each sorted (Tarjan's algorithm,
/// with an explicit stack).
fn components(graph: &StateGraph) -> Vec<Vec<u32>> {
    const NONE: u32 = u32::MAX;
    let n = graph.states.len();
    let mut number = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut out = Vec::new();
    for root in 0..n as u32 {
        if number[root as usize] != NONE {
            continue;
        }
        // (state, index of its next edge)
        let mut calls: Vec<(u32, usize)> = vec![(root, 0)];
        number[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut i)) = calls.last_mut() {
            let edges = &graph.states[v as usize].edges;
            if let Some(&(w, _)) = edges.get(*i) {
                *i += 1;
                if number[w as usize] == NONE {
                    number[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    calls.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(number[w as usize]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[v as usize]);
            }
            if low[v as usize] == number[v as usize] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                out.push(component);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Processes 0 and 1; `edges` as (from, to, process); `enabled` per state.
    fn graph(enabled: &[&[u32]], edges: &[(u32, u32, u32)]) -> StateGraph {
        let mut g = StateGraph::default();
        for p in 0..2u128 {
            g.process(p, || (format!("p{p}"), format!("{}", p + 1)));
        }
        for (s, e) in enabled.iter().enumerate() {
            let parent = (s > 0).then(|| (s as u32 - 1, 0));
            g.state(s as StateId, e.to_vec(), parent);
        }
        for &(from, to, p) in edges {
            g.edge(from, to, p);
        }
        g
    }

    #[test]
    fn a_spin_while_another_could_release_is_no_livelock() {
        // State 0: p0 holds the lock, p1 spins (a self-loop); p0 is enabled
        // throughout and never steps in the cycle.
        let g = graph(&[&[0, 1], &[1]], &[(0, 0, 1), (0, 1, 0)]);
        assert_eq!(g.fair_cycles(), vec![]);
    }

    #[test]
    fn a_spin_that_nobody_can_release_is_a_livelock() {
        // State 1: p0 has ended, p1 spins for ever.
        let g = graph(&[&[0, 1], &[1]], &[(0, 0, 1), (0, 1, 0), (1, 1, 1)]);
        let lasso = FairCycle {
            prefix: vec!["p0".into()],
            cycle: vec!["p1".into()],
            stepping: vec!["p1".into()],
        };
        assert_eq!(g.fair_cycles(), vec![lasso]);
        assert_eq!(g.fair_cycles()[0].schedule(), "p0 ( p1 )");
    }

    #[test]
    fn a_back_off_in_turn_is_a_livelock_through_both() {
        // 0 -p0-> 1 -p1-> 2 -p0-> 3 -p1-> 0, both enabled everywhere.
        let g = graph(
            &[&[0, 1], &[0, 1], &[0, 1], &[0, 1]],
            &[(0, 1, 0), (1, 2, 1), (2, 3, 0), (3, 0, 1)],
        );
        let cycles = g.fair_cycles();
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].schedule(), "( p0 p1 p0 p1 )");
    }

    #[test]
    fn a_process_disabled_somewhere_on_the_cycle_need_not_step() {
        // p1 spins in states 0 and 1; p0 is enabled in 0 only and never steps.
        let g = graph(&[&[0, 1], &[1]], &[(0, 1, 1), (1, 0, 1)]);
        assert_eq!(g.fair_cycles()[0].schedule(), "( p1 p1 )");
    }
}
