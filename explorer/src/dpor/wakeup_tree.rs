//! Wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, *Source Sets: A Foundation for
//! Optimal Dynamic Partial Order Reduction*, JACM 2017, Sec. 6; summarised in Sec. 2.1
//! of the ODPOR_cs^ob paper, ISSTA 2019).
//!
//! Source-DPOR reverses a race `e ⋖ n` by adding *one* initial of `v = notdep(e, E).n`
//! to the backtrack set of `E' = pre(E, e)`, and lets the search run on from there:
//! the continuation it picks may differ from `v`, and end blocked in a sleep set.
//! Optimal DPOR keeps the whole sequence `v` instead, in a tree of sequences to follow
//! from `E'` (the wakeup tree `wut(E')`): the search then follows `v`, and every
//! execution it completes is a new Mazurkiewicz trace — none ends blocked.
//!
//! A tree is an ordered forest of steps: each node is a process's next step, and a
//! path from the root is a sequence to run. The leftmost child is explored first.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use frontend::ir::BlockId;
use frontend::memory::Loc;
use frontend::value::Value;

/// One step of a sequence to follow: a process, and what its event touches (the
/// transition footprint of its next block, the same wherever it runs: the process's
/// locals are those of the explored execution) and which processes it creates.
#[derive(Clone, Debug)]
pub struct Entry {
    pub process: Fingerprint,
    pub footprint: Footprint,
    pub spawns: Vec<Fingerprint>,
    /// Its block and its process's locals at its start, when known and the search
    /// reads them ([`Carry`]): what a finer independence than footprints
    /// ([`Independent`]) is decided on.
    pub event: Option<(BlockId, Vec<Value>)>,
    /// The locations its event did write, when it ran and the search reads them
    /// ([`Carry`]; empty otherwise): whether a write is overwritten unobserved in a
    /// sequence ([`crate::dependency::observers`]).
    pub written: Vec<Loc>,
}

/// What the entries of a search's sequences carry beside their process, footprint
/// and spawns ([`crate::dependency::Dependency::carry`]).
#[derive(Clone, Copy, Debug)]
pub struct Carry {
    /// Each step's block and locals ([`Entry::event`]).
    pub blocks: bool,
    /// What each step wrote ([`Entry::written`]).
    pub written: bool,
}

/// Whether events `i < k` of a sequence, whose footprints conflict, commute
/// nevertheless: by a property of the two events (cdpor's `R`), or in that sequence
/// (`odpor-ob`: two writes of a location it overwrites before reading it); never, for
/// plain Optimal-DPOR.
pub trait Independent {
    fn lifts(&mut self, seq: &[&Entry], i: usize, k: usize) -> bool;

    /// Whether it never lifts a conflict: then a conflict of footprints orders two
    /// steps, and no sequence needs to be built to ask.
    fn never(&self) -> bool {
        false
    }
}

impl<F: FnMut(&[&Entry], usize, usize) -> bool> Independent for F {
    fn lifts(&mut self, seq: &[&Entry], i: usize, k: usize) -> bool {
        self(seq, i, k)
    }
}

/// Whether `seq[i]`, run before `seq[k]`, must stay before it in every equivalent
/// sequence: program order, creation, or a conflict of footprints that `independent`
/// does not lift.
fn orders(seq: &[&Entry], i: usize, k: usize, independent: &mut dyn Independent) -> bool {
    let (x, later) = (seq[i], seq[k]);
    sequenced(x, later)
        || (x.footprint.conflicts(&later.footprint) && !independent.lifts(seq, i, k))
}

/// Whether `x` stays before `later` whatever they touch: program order or creation.
fn sequenced(x: &Entry, later: &Entry) -> bool {
    x.process == later.process || x.spawns.contains(&later.process)
}

/// Whether `process` has an event in `seq` and its first one has no predecessor there:
/// the first form of weak initial ([`WeakInitial::At`]).
pub fn first_unordered(
    seq: &[&Entry],
    process: Fingerprint,
    independent: &mut dyn Independent,
) -> Option<usize> {
    let k = seq.iter().position(|x| x.process == process)?;
    (!(0..k).any(|i| orders(seq, i, k, independent))).then_some(k)
}

/// How a process is a weak initial of a sequence `v` (`WI_[E](v)`, JACM Def. 6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeakInitial {
    /// Its first event in `v`, at this index, has no predecessor in `v`.
    At(usize),
    /// It has no event in `v`, and its next step commutes with all of `v`.
    Beside,
}

/// Whether the process whose next step is `p` is a weak initial of `v`, as JACM
/// defines it, with `independent` lifting conflicts (see [`sleeper_covers`] for a
/// sleeping process, and [`WakeupTree::insert`]).
fn weak_initial_in_order(
    v: &[Entry],
    p: &Entry,
    independent: &mut dyn Independent,
) -> Option<WeakInitial> {
    match v.iter().position(|x| x.process == p.process) {
        // Its step in `v` is the sleeping step, judged with the footprint it sleeps
        // with: what it touched where it ran, which holds until an event writes what
        // it read, and such an event orders it anyway. With the footprint the
        // sequence's entry carries there (a block that touched less carries its
        // transition footprint), a sleeper that commutes with the events before it
        // was no weak initial, the sequence joined beside it, and its branch ended
        // blocked with the sleeper still asleep (odpor, `--deps accesses`, the
        // differential test's seed 52052: 2 of 18 executions).
        Some(k) => {
            // Most steps before `k` touch nothing the sleeping step does: then nothing
            // orders them before it ([`orders`]), and the sequence with the sleeping
            // step in place, which only `independent` reads, need not be built; nor
            // where one does and `independent` lifts nothing.
            let before = &v[..k];
            if before.iter().any(|x| sequenced(x, p)) {
                return None;
            }
            if !before.iter().any(|x| x.footprint.conflicts(&p.footprint)) {
                return Some(WeakInitial::At(k));
            }
            if independent.never() {
                return None;
            }
            let sleeping = Entry {
                footprint: p.footprint.clone(),
                ..v[k].clone()
            };
            let seq: Vec<&Entry> = (v.iter().enumerate())
                .map(|(i, x)| if i == k { &sleeping } else { x })
                .collect();
            first_unordered(&seq, p.process, independent).map(WeakInitial::At)
        }
        // `p` would run first: each pair is judged as the sequences `p.x` and `x.p`
        // ([`orders`] both ways; a conflict of footprints goes both ways, so it is
        // computed once).
        None => (!v.iter().any(|x| {
            sequenced(p, x)
                || sequenced(x, p)
                || (x.footprint.conflicts(&p.footprint)
                    && (!independent.lifts(&[p, x], 0, 1) || !independent.lifts(&[x, p], 0, 1)))
        }))
        .then_some(WeakInitial::Beside),
    }
}

/// Whether the process whose next step is `p`, asleep before `v` (explored from there
/// already), is a weak initial of `v`: whether the exploration that started with `p`
/// covered `v`'s traces.
///
/// A sleeping process is a weak initial beside `v` only when its step conflicts with
/// no event of `v` by footprints: `R` (ocdpor's commutations) does not count here.
/// JACM's argument for `Beside` is that a trace of `v` where the process does not run
/// first is reached by a race of its step, in its own subtree, with the first event
/// that conflicts with it; with `R`, the footprints of that subtree's events may order
/// the events differently from what `R` lifted, and the race that leads back to the
/// trace may be hidden behind a conflict of footprints that `R` does not lift. ocdpor
/// lost a final state so: q slept beside `v = s`, commuting with it by `R` (`x != -1`:
/// s only loops), while p's write of y stood before s by a may-read of s's footprint,
/// so the race of p with s's later read of y, which no other branch asked for, never
/// showed (`tests/regressions/ocdpor_a_sleeping_process_is_beside_by_footprints_only.ic`).
/// The same held for processes waiting at an `await`, whose later disabling write
/// went unraced (ocdpor missed 2 of 9 traces:
/// `tests/regressions/ocdpor_a_sleeping_await_is_no_weak_initial_beside.ic`). By footprints
/// alone, a waiting process is beside too: an event that disables it writes what its
/// guard reads, a conflict of footprints whose race its subtree reversed (refusing
/// it made a branch where it sleeps, and odpor ended executions blocked there:
/// `tests/regressions/odpor_a_sleeping_await_beside_by_footprints_covers.ic`).
///
/// The race's first event `e`, which runs after `v` in the reversal, may be an `await`
/// that a process beside `v` disables for good: no exploration that starts with that
/// process runs `v` then `e`. That trace is not lost: in those explorations `e`'s
/// process is blocked behind the write, and its probe asks to run before it
/// ([`crate::dpor`]'s `pass_disabling_writes`, which leaves out the other writes that
/// disable it again, `tests/regressions/ocdpor_a_weak_initial_beside_may_disable_the_race.ic`).
/// Refusing such a process as a weak initial here (tried) lost a trace elsewhere
/// (`tests/regressions/ocdpor_two_awaits_behind_commuting_writes.ic`). The other way round
/// is another matter:
///
/// `after` is, for the reversal of a race of a disabled `await` (a probe, the last
/// step of `v`), the race's first event: the write its guard reads, which runs after
/// `v` in the trace asked for. A process beside `v` must be beside that write too.
/// JACM's argument for `Beside` (above) needs the sleeping process to run in every
/// continuation of `v`, where its race with the first event that conflicts with it
/// leads back to the trace; a write that disables it for good leaves it out of them
/// (any write of what its step reads may).
/// Two `s` at `await (b)` and p's `b = false`: after both s's first blocks, the probe
/// of the second asked to pass before p, and the first, asleep there (explored
/// before the second's first block) and beside it by footprints (both only read b),
/// was taken to cover it; the trace where the second passes and p then disables the
/// first was never explored (`ocdpor --literal` completed 8 of the 9 traces of its
/// dependency: `tests/regressions/ocdpor_literal_completes_every_trace_of_its_dependency.ic`).
/// The caller passes `after` only for a sleeper at an `await`: a step without one
/// stays enabled through every continuation, so JACM's argument holds for it whatever
/// the write (refusing it, odpor ended an execution blocked where p's failing
/// `assert(x == 5)` slept beside q: `tests/regressions/odpor_blocks_none_where_every_execution_fails.ic`).
/// In ocdpor (`Parts::lifts`), for the reversal of every race, not only a
/// probe's: a process stays asleep there past events it commutes with only by `R`,
/// and the leaf of the tree that its own subtree's race was absorbed by led back to
/// the sequence it was taken to cover. ocdpor `--literal` explored 7 of the 8 traces
/// of its dependency so: `q` and `q'` (`await (z <= 1)`, both writing b the same
/// value: they commute by `R`), p (z = 2, disabling both) and r racing with p; at `q'`,
/// the race of p with r asked for r first, refused as covered by `q` asleep beside
/// it — although p, after r, disables `q` for good
/// (`tests/regressions/ocdpor_a_sleeper_disabled_after_the_sequence_covers_nothing.ic`). In
/// odpor the same holds (it lost a trace so), but there the caller judges it by
/// running the race's first event again after the reversal, not by footprints, and
/// passes no `after` ([`crate::dpor::disabling`]): by footprints, odpor ended an
/// execution blocked (`tests/regressions/odpor_a_sleeping_await_beside_by_footprints_covers.ic`:
/// r's may-write of x, which never happens, may disable p).
///
/// `cut`: the sleeper's exploration may have stopped at states covered elsewhere
/// (the don't-do sequences of `odpor-cs`, `odpor-cs-ob` and `ocdpor`). Then it is no
/// weak initial beside `v`. JACM's argument above needs the race of its step with
/// the first event that conflicts with it, in its own subtree; where that subtree was
/// cut at a covered state, the events after the cut were never run there, and the
/// race is not seen. The subtree that covers the state has another history, where it
/// need not lead back either: coverage became circular. odpor-cs-ob lost a final
/// state so (`tests/regressions/odpor_cs_ob_circular_coverage_loses_a_final_state.ic`): at
/// `q q' q'#`, the race of `p` with `q#` asked for `q#` first and was refused as
/// covered by the sleeper `r` (beside it, explored at `q`), whose subtree had `q#`
/// and `p` as confirmed don't-do steps; the race that would have led back there asked
/// for the branch `q q#` where `q'` had been kept asleep by commutation (odpor-cs's
/// note 6), trusting `q q'` — where the class was never reached. A sleeper that runs in `v` (`At`) still covers it: its subtree
/// reached the class itself, or a state whose continuations are explored.
/// Measured: no count of `table --set odpor` changed.
pub fn sleeper_covers(
    v: &[Entry],
    after: Option<&Entry>,
    p: &Entry,
    cut: bool,
    independent: &mut dyn Independent,
) -> Cover {
    let conflicts = |x: &Entry| x.footprint.conflicts(&p.footprint);
    match weak_initial_in_order(v, p, independent) {
        None => Cover::No,
        Some(WeakInitial::At(_)) => Cover::Yes,
        Some(WeakInitial::Beside) if v.iter().any(conflicts) => Cover::Commutes,
        Some(WeakInitial::Beside) if cut || after.is_some_and(conflicts) => Cover::No,
        Some(WeakInitial::Beside) => Cover::Beside,
    }
}

/// What a sleeping process is to a sequence (see [`sleeper_covers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// A weak initial: its exploration covered the sequence's traces.
    Yes,
    /// A weak initial beside the sequence: it covers the sequence as given, not
    /// necessarily a longer reversal of the same race (JACM's `notdep` over the whole
    /// execution, with the events after the race that do not depend on its first
    /// event), with which the sleeping process may conflict: see
    /// [`crate::dpor`]'s `recheck_refused_beside`.
    Beside,
    /// Not a weak initial.
    No,
    /// Not a weak initial, although it commutes with every event of the sequence,
    /// with some only by what `independent` lifts (cdpor's `R`, odpor-ob's unobserved
    /// writes). In `ocdpor --literal`, such a sequence may end executions blocked: the
    /// process stays asleep through it, by `R`, to its end.
    Commutes,
}

/// An ordered forest of steps.
#[derive(Clone, Debug, Default)]
pub struct WakeupTree {
    children: Vec<(Entry, WakeupTree)>,
    /// Empty below a leaf that an insertion [`Leaves::provisional`] left, or that
    /// extends one.
    provisional: bool,
}

/// How an insertion treats the leaves of the tree ([`WakeupTree::insert`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leaves {
    /// A leaf covers nothing: what remains of the sequence becomes its subtree.
    pub extend: bool,
    /// The sequence was judged at a node of a shared top with a branch started
    /// before the inserter's still being explored, which covered nothing beside it
    /// then ([`crate::dpor::sleep::Ending::Running`]): the leaf it leaves may cover
    /// (swallow) what that branch asks for later, so the branch taken from it must
    /// not trust that branch as one explored to its end on one thread
    /// (`shared_top::Held::lend`). Marked, and kept by the leaves that extend it.
    pub provisional: bool,
}

impl WakeupTree {
    /// A tree of one sequence, whose leaf is `provisional` ([`Leaves`]).
    pub fn chain(v: Vec<Entry>, provisional: bool) -> Self {
        let leaf = WakeupTree {
            children: Vec::new(),
            provisional,
        };
        v.into_iter().rev().fold(leaf, |sub, entry| WakeupTree {
            children: vec![(entry, sub)],
            provisional: false,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// Steps stored, all branches together.
    pub fn size(&self) -> usize {
        self.children.iter().map(|(_, sub)| 1 + sub.size()).sum()
    }

    /// Whether a leaf of the tree is provisional ([`Leaves::provisional`]); for an
    /// empty tree, whether it is below such a leaf.
    pub fn provisional_leaves(&self) -> bool {
        match self.children.is_empty() {
            true => self.provisional,
            false => (self.children.iter()).any(|(_, sub)| sub.provisional_leaves()),
        }
    }

    /// The leftmost child's step.
    pub fn first(&self) -> Option<&Entry> {
        self.children.first().map(|(entry, _)| entry)
    }

    /// Every sequence of the tree, root to leaf (what it asks its node to explore).
    pub fn sequences(&self) -> Vec<Vec<Entry>> {
        let mut out = Vec::new();
        for (entry, sub) in &self.children {
            let below = sub.sequences();
            if below.is_empty() {
                out.push(vec![entry.clone()]);
            }
            for rest in below {
                out.push(std::iter::once(entry.clone()).chain(rest).collect());
            }
        }
        out
    }

    /// Makes `step` the leftmost child, alone (not merged with the others, which are
    /// not weak initials of it here but sequences of their own), unless a child is
    /// of its process already. Whether it was added.
    pub fn run_first(&mut self, step: Entry) -> bool {
        if self.children.iter().any(|(c, _)| c.process == step.process) {
            return false;
        }
        self.children.insert(0, (step, WakeupTree::default()));
        true
    }

    /// Removes the leftmost child and returns the tree below it: what its node
    /// follows next.
    pub fn take_first(&mut self) -> Option<WakeupTree> {
        (!self.children.is_empty()).then(|| self.children.remove(0).1)
    }

    /// The leftmost child whose process is a weak initial of `v`, and how.
    fn child_for(
        &self,
        v: &[Entry],
        independent: &mut dyn Independent,
    ) -> Option<(usize, WeakInitial)> {
        self.children
            .iter()
            .enumerate()
            .find_map(|(i, (c, _))| weak_initial_in_order(v, c, independent).map(|w| (i, w)))
    }

    /// Whether inserting `v` makes a new branch at the root, which starts with `v`'s
    /// first step: no child's process is a weak initial of `v`.
    pub fn branches_at_root(&self, v: &[Entry], independent: &mut dyn Independent) -> bool {
        self.child_for(v, independent).is_none()
    }

    /// [`WakeupTree::insert`] at a node some of whose branches left the tree to be
    /// explored while `v` was found, by a search that explores branches at once
    /// ([`crate::parallel::shared_top`]): `started`, their steps, in the order they
    /// started, which is the tree's order (each was its leftmost child then). Below
    /// the leftmost of them whose process is a weak initial of `v`, as the insertion
    /// would go had it come before that branch started: `Err` with its index and
    /// what remains of `v` there. Otherwise into the tree: `Ok` with the steps added.
    pub fn insert_beside_started<'s>(
        &mut self,
        started: impl IntoIterator<Item = &'s Entry>,
        mut v: Vec<Entry>,
        independent: &mut dyn Independent,
        leaves: Leaves,
    ) -> Result<usize, (usize, Vec<Entry>)> {
        for (i, c) in started.into_iter().enumerate() {
            if let Some(how) = weak_initial_in_order(&v, c, independent) {
                if let WeakInitial::At(k) = how {
                    v.remove(k);
                }
                return Err((i, v));
            }
        }
        Ok(self.insert(v, independent, leaves))
    }

    /// `insert_[E](v, wut)` (JACM Sec. 6.2): walks down from the root, into the
    /// leftmost child whose process is a weak initial of what remains of `v` (that
    /// process's event leaves `v`); reaching a leaf, `v` is covered by the leaf's
    /// sequence and nothing changes (unless `extend_leaves`, below); where no child is a weak initial, the rest of `v`
    /// becomes a new rightmost branch. Returns the number of steps added.
    ///
    /// A child beside `v` counts even when it waits at an `await`, or commutes with
    /// `v` only by `R` (unlike a sleeping process: [`sleeper_covers`]): `v` goes below
    /// it, as JACM's insertion does. The
    /// traces that start with `v` where its process runs before any event that
    /// conflicts with its step are explored below it, equivalent to ones that start
    /// with it. In the others, a first such event `d` comes after `v` (none of `v`
    /// conflicts), and may disable it for good; below the child, `d` then runs after
    /// the child's step with no conflicting event between: a race, whose reversal
    /// `v.u.d` (`u` all that ran between, none in conflict with the child) joins the
    /// tree at this node as a branch of its own, where `d` wakes the child. So no
    /// trace needs `v` right of the child. Putting it there, as this insertion did
    /// while it refused a waiting child (for what it is as a sleeping process), made a
    /// branch where the child sleeps: no exploration ran it after `v` (ocdpor missed 2
    /// of 10 traces: `tests/regressions/ocdpor_a_sleeping_first_await_hides_the_second.ic`),
    /// and the executions where it ran at the end were blocked (odpor on dining(8):
    /// 32, none now).
    ///
    /// `leaves.extend`: a leaf does not cover `v`; what remains of `v` becomes the
    /// leaf's subtree. For a search that blocks executions where they reach a covered
    /// state (odpor-cs's don't-do sequences): the leaf's own exploration may be
    /// blocked before it reaches the race that would ask for `v` again there — its
    /// executions reach states whose continuations were explored elsewhere, by the
    /// very exploration whose race asked for `v` (odpor-cs `--literal` lost a final
    /// state so: `tests/regressions/odpor_cs_a_leaf_does_not_cover_a_wakeup_sequence.ic`).
    /// And for a search with observers (odpor-ob, odpor-cs-ob), whose redundancy
    /// check trusts `→ob` ([`crate::dpor::observed_reversals::redundant`]): the leaf's exploration
    /// may order two overwritten writes the other way from the execution whose race
    /// asked for `v`, and then reach the other neighbour of their class, never `v`'s
    /// (odpor-ob lost an assertion so, with the paper's leaves:
    /// `tests/regressions/odpor_ob_a_covered_class_does_not_cover_its_neighbours.ic`).
    /// The branch only directs the leaf's first choices: no execution is explored
    /// that the leaf's subtree could not reach. Optimality is not claimed: the leaf's
    /// own choices then come beside the branch, and may explore more.
    pub fn insert(
        &mut self,
        mut v: Vec<Entry>,
        independent: &mut dyn Independent,
        leaves: Leaves,
    ) -> usize {
        // The steps of `v` not yet met in the tree are `v[start..]`. A step met leaves
        // it by moving the steps before it one place right: where it is the first
        // step (the usual case), none moves.
        let mut start = 0;
        let mut node = self;
        loop {
            if start == v.len() {
                return 0;
            }
            let Some((i, how)) = node.child_for(&v[start..], independent) else {
                v.drain(..start);
                let added = v.len();
                let branch = WakeupTree::chain(v, leaves.provisional);
                node.children.extend(branch.children);
                return added;
            };
            if let WeakInitial::At(k) = how {
                v[start..=start + k].rotate_right(1);
                start += 1;
            }
            let leaf = &node.children[i].1;
            if leaf.is_empty() {
                if !leaves.extend || start == v.len() {
                    return 0;
                }
                v.drain(..start);
                let added = v.len();
                let provisional = leaves.provisional || leaf.provisional;
                node.children[i].1 = WakeupTree::chain(v, provisional);
                return added;
            }
            node = &mut node.children[i].1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(process: u128, reads: &[u32], writes: &[u32]) -> Entry {
        let loc = |g: &u32| Loc {
            global: *g,
            elem: 0,
        };
        Entry {
            process,
            footprint: Footprint {
                reads: reads.iter().map(loc).collect(),
                writes: writes.iter().map(loc).collect(),
            },
            spawns: Vec::new(),
            event: None,
            written: Vec::new(),
        }
    }

    fn never(_: &[&Entry], _: usize, _: usize) -> bool {
        false
    }

    /// A relation that lifts nothing and says so ([`Independent::never`]), as
    /// `Dependency::lifting` does for plain Optimal-DPOR.
    struct Never;

    impl Independent for Never {
        fn lifts(&mut self, _: &[&Entry], _: usize, _: usize) -> bool {
            false
        }

        fn never(&self) -> bool {
            true
        }
    }

    #[test]
    fn weak_initials_of_a_sequence() {
        // v = a: w(x) . b: r(x) . c: w(y)
        let v = vec![
            entry(1, &[], &[0]),
            entry(2, &[0], &[]),
            entry(3, &[], &[1]),
        ];
        assert_eq!(
            weak_initial_in_order(&v, &v[0], &mut never),
            Some(WeakInitial::At(0))
        );
        assert_eq!(
            weak_initial_in_order(&v, &v[1], &mut never),
            None,
            "b reads what a wrote"
        );
        assert_eq!(
            weak_initial_in_order(&v, &v[2], &mut never),
            Some(WeakInitial::At(2))
        );
        // d, not in v, touching z: beside; e, not in v, reading y: not.
        assert_eq!(
            weak_initial_in_order(&v, &entry(4, &[2], &[2]), &mut never),
            Some(WeakInitial::Beside)
        );
        assert_eq!(
            weak_initial_in_order(&v, &entry(5, &[1], &[]), &mut never),
            None
        );
        // A relation that says it lifts nothing answers alike without being asked.
        for p in v
            .iter()
            .chain([&entry(4, &[2], &[2]), &entry(5, &[1], &[])])
        {
            assert_eq!(
                weak_initial_in_order(&v, p, &mut Never),
                weak_initial_in_order(&v, p, &mut never)
            );
        }
    }

    const EXTEND: Leaves = Leaves {
        extend: true,
        provisional: false,
    };

    #[test]
    fn insertion_follows_weak_initials_and_stops_at_leaves() {
        let (a, b, c) = (
            entry(1, &[], &[0]),
            entry(2, &[0], &[]),
            entry(3, &[], &[1]),
        );
        let mut wut = WakeupTree::chain(vec![c.clone(), a.clone()], false);
        // a.b: c commutes with both (beside), then a is an initial, and the leaf
        // after c.a covers what is left (b).
        assert_eq!(
            wut.insert(vec![a.clone(), b.clone()], &mut never, Leaves::default()),
            0
        );
        assert_eq!(wut.size(), 2);
        // b.a: c is beside again; a is no weak initial of b.a (b reads what a
        // writes): b.a becomes a new branch under c.
        assert_eq!(
            wut.insert(vec![b.clone(), a.clone()], &mut never, Leaves::default()),
            2
        );
        assert_eq!(wut.size(), 4);
        // The same again changes nothing: its branch is a leaf now.
        assert_eq!(
            wut.insert(vec![b.clone(), a.clone()], &mut never, Leaves::default()),
            0
        );
        assert_eq!(wut.size(), 4);
        // Extending leaves (a search that blocks by states): a.b leaves b below
        // the leaf after c.a, which is a leaf no more.
        assert_eq!(
            wut.insert(vec![a.clone(), b.clone()], &mut never, EXTEND),
            1
        );
        assert_eq!(wut.size(), 5);
        let processes = |seq: &Vec<Entry>| seq.iter().map(|e| e.process).collect::<Vec<_>>();
        let sequences: Vec<Vec<u128>> = wut.sequences().iter().map(processes).collect();
        assert!(sequences.contains(&vec![c.process, a.process, b.process]));
    }

    /// A leaf that a provisional insertion left (a job of a shared top that judged
    /// it with a sibling still running) stays marked: when it swallows a sequence,
    /// and when a sequence extends it, its branch still has a provisional leaf.
    #[test]
    fn a_provisional_leaf_stays_marked() {
        // c reads what a writes: neither is a weak initial of the other's sequences.
        let (a, b, c) = (
            entry(1, &[], &[0]),
            entry(2, &[0], &[]),
            entry(3, &[0], &[1]),
        );
        let provisional = Leaves {
            extend: false,
            provisional: true,
        };
        let mut wut = WakeupTree::default();
        assert_eq!(
            wut.insert(vec![c.clone()], &mut never, Leaves::default()),
            1
        );
        assert!(!wut.provisional_leaves());
        assert_eq!(wut.insert(vec![a.clone()], &mut never, provisional), 1);
        assert!(wut.provisional_leaves());
        // Swallowed by the leaf after c (not provisional: c's branch has none).
        assert_eq!(
            wut.insert(vec![c.clone(), b.clone()], &mut never, Leaves::default()),
            0
        );
        assert_eq!(
            wut.insert(vec![a.clone(), b.clone()], &mut never, Leaves::default()),
            0
        );
        assert_eq!(wut.insert(vec![a, b], &mut never, EXTEND), 1);
        let below_c = wut.take_first().expect("c's branch");
        assert!(!below_c.provisional_leaves());
        let a = wut.take_first().expect("a's branch");
        assert!(
            a.provisional_leaves(),
            "the leaf that extends it is provisional"
        );
    }

    /// A child whose process runs later in the sequence takes the sequence below it
    /// without that step, the others in their order; where a step before it conflicts,
    /// only a commutation that `independent` lifts lets it.
    #[test]
    fn a_step_met_inside_the_sequence_leaves_the_others_in_order() {
        // a reads x, b reads y, c (the child) writes z, d writes w.
        let (a, b, c, d) = (
            entry(1, &[0], &[]),
            entry(2, &[1], &[]),
            entry(3, &[], &[2]),
            entry(4, &[], &[3]),
        );
        let mut wut = WakeupTree::chain(vec![c.clone()], false);
        let v = vec![a.clone(), b.clone(), c.clone(), d.clone()];
        assert_eq!(wut.insert(v, &mut never, Leaves::default()), 0, "c's leaf");
        let v = vec![a.clone(), b.clone(), c.clone(), d.clone()];
        assert_eq!(wut.insert(v, &mut never, EXTEND), 3);
        let processes = |seq: &Vec<Entry>| seq.iter().map(|e| e.process).collect::<Vec<_>>();
        let sequences: Vec<Vec<u128>> = wut.sequences().iter().map(processes).collect();
        assert_eq!(sequences, vec![vec![3, 1, 2, 4]]);
        // e writes x, which a reads: e after a is no weak initial, unless lifted.
        let e = entry(5, &[], &[0]);
        let mut wut = WakeupTree::chain(vec![e.clone()], false);
        assert_eq!(
            wut.insert(vec![a.clone(), e.clone()], &mut never, Leaves::default()),
            2
        );
        let mut always = |_: &[&Entry], _: usize, _: usize| true;
        let mut wut = WakeupTree::chain(vec![e.clone()], false);
        assert_eq!(wut.insert(vec![a, e], &mut always, EXTEND), 1);
        assert_eq!(wut.size(), 2);
    }

    #[test]
    fn a_child_beside_a_sequence_takes_it_below_it() {
        // q reads z (an `await` or not); a: w(x) then b: w(y), of another process.
        let q = entry(1, &[2], &[]);
        let (a, b) = (entry(2, &[], &[0]), entry(2, &[], &[1]));
        let mut wut = WakeupTree::chain(vec![q.clone(), entry(1, &[0], &[])], false);
        // As a branch still to explore, a.b goes below it (after q's step; its
        // second step reads x).
        assert!(!wut.branches_at_root(&[a.clone(), b.clone()], &mut never));
        assert_eq!(wut.insert(vec![a, b], &mut never, Leaves::default()), 2);
        assert_eq!(wut.children.len(), 1, "no branch of its own at the root");
        assert_eq!(wut.size(), 4);
    }

    #[test]
    fn a_sleeping_process_is_beside_by_footprints_only() {
        // q reads x (an `await` or not); a writes x, b writes y.
        let q = entry(1, &[0], &[]);
        let (a, b) = (entry(2, &[], &[0]), entry(3, &[], &[1]));
        let b_alone = std::slice::from_ref(&b);
        assert_eq!(
            sleeper_covers(b_alone, None, &q, false, &mut never),
            Cover::Beside
        );
        // Not where q's subtree may have been cut at covered states.
        assert_eq!(
            sleeper_covers(b_alone, None, &q, true, &mut never),
            Cover::No
        );
        // a conflicts with q's read: a commutation that lifts it (`R`) does not make
        // q a weak initial beside it; running in the sequence, it is.
        let mut always = |_: &[&Entry], _: usize, _: usize| true;
        assert_eq!(
            sleeper_covers(std::slice::from_ref(&a), None, &q, false, &mut always),
            Cover::Commutes
        );
        assert_eq!(
            sleeper_covers(&[a.clone(), q.clone()], None, &q, true, &mut always),
            Cover::Yes
        );
        // A probe's reversal b, after which a (the race's write) runs: q reads what
        // a writes, so it is no longer beside b.
        assert_eq!(
            sleeper_covers(b_alone, Some(&a), &q, false, &mut never),
            Cover::No
        );
    }

    /// A sequence goes below the leftmost started branch that is a weak initial of
    /// it, in order of start, without that branch's event; otherwise into the tree.
    #[test]
    fn a_started_branch_takes_what_it_is_a_weak_initial_of() {
        // p writes x; q reads x; r writes y; s writes y.
        let (p, q, r, s) = (
            entry(1, &[], &[0]),
            entry(2, &[0], &[]),
            entry(3, &[], &[1]),
            entry(4, &[], &[1]),
        );
        let mut tree = WakeupTree::default();
        // q then r: p is no weak initial (q reads what it writes), r is, at index 1.
        let started = [p.clone(), r.clone()];
        let below = tree.insert_beside_started(
            &started,
            vec![q.clone(), r.clone()],
            &mut never,
            Leaves::default(),
        );
        assert!(matches!(below, Err((1, rest)) if rest.len() == 1 && rest[0].process == 2));
        // s then q: s conflicts with r (both write y), and p is no weak initial: the
        // sequence joins the tree, both steps.
        let joined =
            tree.insert_beside_started(&started, vec![s, q], &mut never, Leaves::default());
        assert!(matches!(joined, Ok(2)));
        assert!(tree.first().is_some_and(|e| e.process == 4));
    }
}
