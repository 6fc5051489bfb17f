//! The independence relation that cdpor's back-set reduction (CDPOR Alg. 1, line 9)
//! records in happens-before: two events whose footprints conflict are nevertheless
//! independent when a synthesised constraint of their blocks holds **whatever the
//! global state**, i.e. a constraint over the two processes' locals, the `param`s and
//! globals that no block ever writes ("trace-invariant" constraints).
//!
//! # Why only those
//!
//! The paper's line 9 accepts any constraint `C` that holds in `s[E'.û]` under `U⇒`
//! (Def. 4: no *enabled* process other than `e`'s and `n`'s may write `G(C)`), and
//! records the independence in happens-before (Sec. 3.3). That is unsound here: the
//! recorded independence lets the search treat as equivalent linearizations in which
//! `e` and `n` meet in other states, where `C` may be false. Smallest case (issue 11):
//! `a: x = 1` spawned twice and `b: y = x`. In `a₁.a₂.b`, `I(a,b) = {x == 1}` holds in
//! `s[a₁]` with nothing else enabled, so `a₂ ∥ b`; `I(a,a) = {true}` gives `a₁ ∥ a₂`;
//! and `a₁ ∥ b` follows in `s[a₂]`. The happens-before of `a₁.a₂.b` is then empty —
//! it claims all six orders equivalent — and `b.a₁.a₂` (`y = 0`) is never explored.
//! `W(b)` only speaks of the processes enabled where the constraint was evaluated,
//! not of the events before that point which other linearizations move after it.
//!
//! # Why these are sound
//!
//! For a constraint `C` that reads no global that any block writes, `C`'s value
//! depends only on the locals of the two processes at the start of their events. In
//! every linearization of one trace, each event starts with the same locals (program
//! order is kept, and so is the order of every pair of events that do not commute),
//! so `C` holds for the pair `(e, n)` in all of them or in none: whether `e` and `n`
//! are independent is a property of the two events, not of the state in which they
//! are compared. Call `e R n` when their footprints conflict, such a constraint holds,
//! and neither block's `await` guard reads a global the other block may write. Then:
//! - (i2) wherever both are enabled, `C` holds and the synthesis proves (Def. 5/6)
//!   that both orders run without failure to the same state;
//! - (i1) neither enables or disables the other, since neither writes what the
//!   other's guard reads.
//!
//! So `R` is an unconditional independence relation over events (a property of the
//! transitions, like footprints), and dependency := "conflict and not `R`" satisfies
//! the axioms Source-DPOR's soundness proof needs (Abdulla et al., JACM 2017, the
//! seven properties of happens-before; CDPOR Sec. 3.2 notes that its conditional
//! version breaks the seventh). cdpor with line 9 restricted to `R` is Source-DPOR
//! with a finer dependency, plus CSDPOR's and CDPOR's sleep additions (lines 11–14,
//! 17), which rest on state equality and need no uniformity.
//!
//! # Spawns decided by the state
//!
//! The argument takes the events of a trace to be the same in each of its
//! linearizations. A block whose path depends on the global state and that may
//! spawn breaks that: `p(v) { if (x <= v) { return; } x = 0; spawn q(); }` twice,
//! from x = 2, commutes with itself whatever the state (either order leaves x = 0
//! and one q, up to which p spawned it), but the second p to run spawns nothing, so
//! `p(1) q p(0) q` (z = 2 where q counts into z) has events that no execution
//! starting with p(0) has, and nothing but the race of the two p's asks for p(1)
//! first: cdpor and ocdpor missed that final state (`tests/tests/dpor.rs`,
//! `r_is_not_taken_for_two_blocks_whose_spawns_the_state_decides`). Such a block is
//! in `R` with no block that may write what it reads ([`Independence::spawns_by_state`]):
//! with one that writes none of it, it reads the same values in both orders, takes
//! the same path and spawns the same processes, and the argument holds.
//!
//! # Bounded globals
//!
//! A constraint may also read mutable globals if it holds for *every* value they
//! can have in the states the search visits: it then holds wherever `e` and `n`
//! meet, in every linearization, and the argument above applies unchanged. The
//! explorer stops each execution at `--max-depth` events, and [`Ranges`] bounds the
//! scalar `int` globals that only ever change by constant steps or to constants
//! within that many events from the initial state; [`frontend::ics::Constraint::holds_within`]
//! evaluates the constraint with intervals over those ranges. That is what the
//! synthesis's 64-bit conditions need (`count <= 9223372036854775806` for
//! `count = count + 1`): a counter stays far from `i64::MAX` in 10,000 events. It
//! bounds the lengths of list globals likewise, for the conditions that lists stay
//! within their length limit (`len(l) <= 1048575` for `l = append(l, v)`).
//!
//! # Globals private to the pair
//!
//! At line 9 (not for sleep sets or weak initials, which see no race), a constraint
//! may also read a global `g` that only `e`'s and `n`'s processes write: every block
//! writing `g` belongs to their two procs, each of which has one process in any
//! execution (spawned once, by `init`, outside its loops). Wherever `e` and `n` meet,
//! in any linearization, the events before them that wrote `g` are those of the two
//! processes before `e` and `n` — in program order, and in the order of their own
//! conflicts, which every linearization keeps (or, if a constraint made two of them
//! independent, ends in the same state either way). So `g` has the same value
//! wherever they meet: its value in `s[E']`, the state before `e`, when no event
//! between `e` and `n` wrote it (else the rule is not used). The constraint is
//! evaluated there. This is CDPOR Ex. 5's pruning of `(q, r)` after `p`: `z <= -2`,
//! and only `q` and `r` write `z`.
//!
//! A constraint that does read a mutable global otherwise still serves lines 11–12
//! and 17, where it only proves `s[E'.û.e.n] = s[E'.û.n.e]` for the state it is
//! evaluated in.

use crate::fingerprint::{fingerprint, Fingerprint};
use crate::state::State;
use frontend::analysis::ranges::Ranges;
use frontend::ics::ResolvedIcs;
use frontend::ir::{BlockId, BlockSets, GlobalId, InstrKind, ProcId, Program};
use frontend::memory::{Loc, Memory};
use frontend::value::Value;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::sync::Arc;

/// `R` for one search, built on first use: it needs the search's initial state and
/// depth bound.
pub struct RelationR {
    ics: Arc<ResolvedIcs>,
    initial: State,
    max_events: Option<usize>,
    relation: Option<Independence>,
}

impl RelationR {
    /// `R` of the constraints `ics` for a search from `initial` whose executions have
    /// at most `max_events` events.
    pub fn new(ics: Arc<ResolvedIcs>, initial: &State, max_events: Option<usize>) -> Self {
        RelationR {
            ics,
            initial: initial.clone(),
            max_events,
            relation: None,
        }
    }

    /// The relation, built now if it was not.
    pub fn relation(&mut self, program: &Program) -> &mut Independence {
        let (ics, initial, max_events) = (&self.ics, &self.initial, self.max_events);
        self.relation
            .get_or_insert_with(|| Independence::new(program, ics.clone(), initial, max_events))
    }

    /// `x R y` (see [`Independence::commute`]), evaluated over the search's initial
    /// memory.
    pub fn commute(&mut self, program: &Program, x: Event<'_>, y: Event<'_>) -> bool {
        let (ics, initial, max_events) = (&self.ics, &self.initial, self.max_events);
        self.relation
            .get_or_insert_with(|| Independence::new(program, ics.clone(), initial, max_events))
            .commute(program, &initial.mem, x, y)
    }

    /// The search's initial state.
    pub fn initial(&self) -> &State {
        &self.initial
    }
}

/// The relation `R` above, for one program and its constraints.
pub struct Independence {
    ics: Arc<ResolvedIcs>,
    /// Globals some block may write: a constraint reading one is not trace-invariant.
    mutable: BTreeSet<GlobalId>,
    /// Per block: its guard's reads and its writes.
    sets: Vec<BlockSets>,
    /// The ranges of the mutable globals in the states the search may visit.
    ranges: Ranges,
    /// Per global: the procs with a block that writes it.
    writers: Vec<BTreeSet<ProcId>>,
    /// Per proc: at most one process in any execution.
    singleton: Vec<bool>,
    /// Per block: it may spawn, and its path depends on the global state (see
    /// "Spawns decided by the state" above): in `R` with no block that may write
    /// what it reads.
    spawns_by_state: Vec<bool>,
    /// [`Independence::commute`]'s answers by the two events' fingerprint: it depends
    /// on the events alone, and the searches ask it again for every race and every
    /// sleeping step of the same two events (up to [`MEMO_LIMIT`] answers).
    memo: FxHashMap<Fingerprint, bool>,
}

/// Answers [`Independence::commute`] remembers at most.
const MEMO_LIMIT: usize = 1 << 20;

impl Independence {
    /// `initial`: the search's initial state; `max_events`: the most
    /// events an execution may have (`None`: no bound, and no ranges).
    pub fn new(
        program: &Program,
        ics: Arc<ResolvedIcs>,
        initial: &State,
        max_events: Option<usize>,
    ) -> Self {
        let sets = program.sets.clone();
        let mutable = sets.iter().flat_map(|s| s.writes.iter().copied()).collect();
        let processes: Vec<(BlockId, Vec<Value>)> = initial
            .procs
            .iter()
            .filter_map(|p| Some((p.next?, p.locals.clone())))
            .collect();
        let ranges = max_events
            .map(|n| Ranges::reachable(program, &initial.mem, &processes, n as u64))
            .unwrap_or_default();
        let mut writers = vec![BTreeSet::new(); program.globals.len()];
        for (set, block) in sets.iter().zip(&program.blocks) {
            for &g in &set.writes {
                writers[g as usize].insert(block.proc);
            }
        }
        Independence {
            ics,
            mutable,
            sets,
            ranges,
            writers,
            singleton: singletons(program),
            spawns_by_state: spawns_by_state(program),
            memo: FxHashMap::default(),
        }
    }

    /// Whether an event of block `x` started with locals `lx` and an event of block
    /// `y` started with `ly` (of two different processes) are independent whatever
    /// the state: `x R y` above. `mem` is any state's memory: only globals that never
    /// change are read from it.
    pub fn commute(&mut self, program: &Program, mem: &Memory, x: Event<'_>, y: Event<'_>) -> bool {
        let key = fingerprint(&(x, y));
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let answer = self.holds(program, mem, x, y, &|_| false);
        if self.memo.len() < MEMO_LIMIT {
            self.memo.insert(key, answer);
        }
        answer
    }

    /// [`Independence::commute`], or a constraint that also reads globals *private to
    /// the pair* (see the module's doc), read in `before`: the state before the
    /// earlier event, when none of the events between the two wrote them
    /// (`written_between`, asked only of globals that could be private).
    pub fn commute_where_they_meet(
        &mut self,
        program: &Program,
        before: &Memory,
        x: Event<'_>,
        y: Event<'_>,
        written_between: &dyn Fn(GlobalId) -> bool,
    ) -> bool {
        let proc = |b: BlockId| program.blocks[b as usize].proc;
        let (px, py) = (proc(x.0), proc(y.0));
        let pair_of_singletons =
            px != py && self.singleton[px as usize] && self.singleton[py as usize];
        if !pair_of_singletons {
            // No global is private to the pair.
            return self.commute(program, before, x, y);
        }
        let private = |g: GlobalId| {
            self.writers[g as usize].iter().all(|&p| p == px || p == py) && !written_between(g)
        };
        self.holds(program, before, x, y, &private)
    }

    /// Where the two events may meet in `mem` without enabling or disabling each
    /// other (neither's guard reads what the other may write: (i1) of CDPOR Def. 1),
    /// and some constraint of the pair holds there: the locations that constraint
    /// read. That proves them independent in `mem` only; what makes it an
    /// independence of the two events is [`crate::dependency::guarded`]'s to decide.
    /// Only constraints that read no global but those `readable` accepts are tried.
    pub fn holding_at(
        &self,
        program: &Program,
        mem: &Memory,
        (x, lx): Event<'_>,
        (y, ly): Event<'_>,
        readable: &dyn Fn(GlobalId) -> bool,
    ) -> Option<Vec<Loc>> {
        let (pair, swapped) = self.ics.pair(x, y)?;
        let (la, lb) = if swapped { (ly, lx) } else { (lx, ly) };
        if !self.guards_apart(x, y) {
            return None;
        }
        pair.constraints
            .iter()
            .filter(|c| c.globals.iter().all(|&g| readable(g)))
            .find_map(|c| c.holds_reading(program, mem, la, lb))
    }

    /// Whether [`Independence::holding_at`] may find a constraint of blocks `x` and
    /// `y` (`None` if not), before any memory is computed for it.
    pub fn may_hold(
        &self,
        x: BlockId,
        y: BlockId,
        readable: &dyn Fn(GlobalId) -> bool,
    ) -> Option<()> {
        let (pair, _) = self.ics.pair(x, y)?;
        let some = (pair.constraints.iter()).any(|c| c.globals.iter().all(|&g| readable(g)));
        (self.guards_apart(x, y) && some).then_some(())
    }

    /// Neither block's guard reads what the other may write: neither enables or
    /// disables the other ((i1) of CDPOR Def. 1).
    pub fn guards_apart(&self, x: BlockId, y: BlockId) -> bool {
        let (sx, sy) = (&self.sets[x as usize], &self.sets[y as usize]);
        sx.guard_reads.is_disjoint(&sy.writes) && sy.guard_reads.is_disjoint(&sx.writes)
    }

    /// Some constraint of the pair holds in `mem` and keeps its value wherever the two
    /// events meet: the globals it reads are constant, `fixed` (their value in `mem`
    /// is the one where they meet), or bounded, and it holds throughout the bounds.
    fn holds(
        &self,
        program: &Program,
        mem: &Memory,
        (x, lx): Event<'_>,
        (y, ly): Event<'_>,
        fixed: &dyn Fn(GlobalId) -> bool,
    ) -> bool {
        if !self.guards_apart(x, y) {
            return false;
        }
        let steered = |spawner: BlockId, by: &BlockSets| {
            self.spawns_by_state[spawner as usize]
                && !self.sets[spawner as usize].reads.is_disjoint(&by.writes)
        };
        let (sx, sy) = (&self.sets[x as usize], &self.sets[y as usize]);
        if steered(x, sy) || steered(y, sx) {
            return false;
        }
        let Some((pair, swapped)) = self.ics.pair(x, y) else {
            return false;
        };
        let (la, lb) = if swapped { (ly, lx) } else { (lx, ly) };
        let varies = |g: &GlobalId| self.mutable.contains(g) && !fixed(*g);
        pair.constraints.iter().any(|c| {
            if !c.globals.iter().any(varies) {
                return c.holds(program, mem, la, lb);
            }
            // Only where every global that may vary has a range: a cube that reads one
            // without (an array, a sum of locals) cannot hold throughout.
            let varying: BTreeSet<GlobalId> = c.globals.iter().copied().filter(varies).collect();
            varying.iter().all(|g| self.ranges.bounded(*g))
                && c.holds_within(program, mem, (la, lb), &self.ranges, &varying)
        })
    }
}

/// An event as `R` sees it: its block, and its process's locals at its start.
pub type Event<'a> = (BlockId, &'a [Value]);

/// Per block: it may spawn and its path depends on the global state.
fn spawns_by_state(program: &Program) -> Vec<bool> {
    let by_state = frontend::analysis::locality::state_dependent_footprints(program);
    (program.sets.iter().zip(by_state))
        .map(|(set, by_state)| by_state && !set.spawns.is_empty())
        .collect()
}

/// Procs of which every execution has at most one process: spawned at exactly one
/// place, in `init`, outside its loops.
fn singletons(program: &Program) -> Vec<bool> {
    let mut sites = vec![0u32; program.procs.len()];
    let mut once = vec![false; program.procs.len()];
    let codes = program.procs.iter().map(|p| (&p.code, false));
    for (code, init) in codes.chain([(&program.init, true)]) {
        for (pc, instr) in code.instrs.iter().enumerate() {
            if let InstrKind::Spawn(p, _) = instr.kind {
                sites[p as usize] += 1;
                let in_loop = code.instrs[pc..].iter().any(|i| {
                    matches!(i.kind, InstrKind::Jump(t) | InstrKind::JumpUnless(_, t) if (t as usize) <= pc)
                });
                once[p as usize] = init && !in_loop;
            }
        }
    }
    sites
        .iter()
        .zip(once)
        .map(|(&n, once)| n == 1 && once)
        .collect()
}
