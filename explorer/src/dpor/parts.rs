//! The parts a DPOR algorithm is composed of. Each algorithm declares its parts once
//! ([`Reduction::parts`](super::Reduction::parts)); the skeleton reads them, and the
//! code of each part lives in its own module of [`crate::dpor`]. What is left to the
//! algorithm is what its paper adds to the parts: the hooks of
//! [`Reduction`](super::Reduction).
//!
//! | algorithm | frontier | races | states | independence | events carry |
//! | --- | --- | --- | --- | --- | --- |
//! | sdpor | backtrack sets | as they run | unchecked | footprints | accesses |
//! | odpor | wakeup trees | as they run | unchecked | footprints | accesses |
//! | odpor-ob | wakeup trees | at the end | unchecked | footprints | transitions |
//! | csdpor | backtrack sets | as they run | checked | footprints | accesses |
//! | cdpor | backtrack sets | as they run | checked | constrained | transitions |
//! | odpor-cs | wakeup trees | as they run | checked | footprints | accesses |
//! | odpor-cs-ob | wakeup trees | at the end | checked | footprints | transitions |
//! | ocdpor | wakeup trees | as they run | checked | constrained | transitions |
//!
//! (`--literal` makes "checked" [`States::Literal`], and ocdpor's states
//! [`States::Unchecked`]; "events carry" is with `--deps accesses`, where every
//! other mode gives every event its transition footprint: [`Parts::carries`].)

use crate::dependency::footprint::Carried;
use frontend::ics::ResolvedIcs;
use std::sync::Arc;

/// What an algorithm is made of.
#[derive(Clone, Debug)]
pub struct Parts {
    pub frontier: Frontier,
    pub races: Races,
    pub states: States,
    pub independence: Independence,
}

/// How a reversed race is remembered at `pre(E, e)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontier {
    /// Source-DPOR (POPL'14; CSDPOR and CDPOR Alg. 1, line 10): one initial of the
    /// reversal joins `backtrack(E')` ([`super::race_analysis`]); executions may end
    /// blocked in a sleep set.
    BacktrackSets,
    /// Optimal-DPOR (JACM'17, Alg. 2): the whole reversal joins `wut(E')`, unless a
    /// process asleep or done there covers it ([`super::wakeup`]).
    WakeupTrees,
}

/// When the races of an event are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Races {
    /// As each event runs, over happens-before of footprints (Alg. 1, line 6;
    /// [`super::race_analysis`]).
    AsTheyRun,
    /// Where an execution ends, over the observer-aware happens-before `→ob`
    /// (ISSTA'19, Alg. 1, line 14, Fig. 1; [`super::observed`]): whether two writes
    /// race depends on what reads them later. Probes of blocked processes are still
    /// analysed as they happen.
    AtTheEnd,
}

/// Whether reversed races are checked for state equality (CSDPOR's context
/// sensitivity; ODPOR_cs's don't-do sequences).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum States {
    /// No state is compared.
    Unchecked,
    /// As the papers' algorithms do (`--literal`): a step that reaches a covered
    /// state runs for its races and blocks.
    Literal,
    /// Beyond the papers: a sleeping step that commutes in context with the next
    /// event stays asleep, and a step proved to reach a covered state has its races
    /// analysed without running it ([`super::covered`]).
    Checked,
}

/// What makes two events dependent.
#[derive(Clone, Debug)]
pub enum Independence {
    /// A conflict of their footprints ([`crate::dependency`]).
    Footprints,
    /// A conflict of footprints that cdpor's constraints do not prove to commute
    /// whatever the state (the relation `R` of CDPOR's line 9,
    /// [`crate::dependency::constraints`]): races proved so are not reversed, and
    /// sleeping processes stay asleep past the events they commute with.
    Constrained(Arc<ResolvedIcs>),
}

impl Parts {
    /// Source-DPOR: the parts every other algorithm changes some of.
    pub const SOURCE_DPOR: Parts = Parts {
        frontier: Frontier::BacktrackSets,
        races: Races::AsTheyRun,
        states: States::Unchecked,
        independence: Independence::Footprints,
    };

    /// Whether the skeleton keeps `s[E']` for every prefix `E'`: state checks compare
    /// and replay from them, and the constraints are evaluated in them.
    pub fn snapshots(&self) -> bool {
        self.states != States::Unchecked
            || matches!(self.independence, Independence::Constrained(_))
    }

    /// Whether line 5 leaves a node whose unexplored backtrack entries explored ones
    /// stand for ([`super::needs`]): cdpor's. csdpor's lazy state checks profit from
    /// the sequences that such branches, explored only to end blocked, put to sleep
    /// above them (its PS(7) took 6,420 states instead of 3,693 without them). cdpor
    /// keeps csdpor's checks where its constraints do not speak, but on the three
    /// tables and the sources as written its counts only fell (BENCHMARKS.md).
    pub fn drops_unneeded(&self) -> bool {
        self.frontier == Frontier::BacktrackSets
            && matches!(self.independence, Independence::Constrained(_))
    }

    /// Whether the three arbitrary choices of Alg. 1 (lines 3, 5, 10) are guided by
    /// sleep sequences (CSDPOR Sec. 5.3, opt. 2): only state checks put sequences of
    /// more than one step to sleep.
    pub fn guided(&self) -> bool {
        self.states != States::Unchecked
    }

    /// Whether wakeup trees are kept (an optimal search).
    pub fn optimal(&self) -> bool {
        self.frontier == Frontier::WakeupTrees
    }

    /// Whether races are found where executions end, over `→ob`.
    pub fn observers(&self) -> bool {
        self.races == Races::AtTheEnd
    }

    /// An optimal search that blocks an execution where it reaches a covered state:
    /// a wakeup sequence extends a leaf of the tree that covers it rather than being
    /// left out (see [`WakeupTree::insert`](super::wakeup_tree::WakeupTree::insert)).
    pub fn blocks_by_state(&self) -> bool {
        self.optimal() && self.states != States::Unchecked
    }

    /// An optimal search with state checks and observers (odpor-cs-ob): a block at a
    /// covered state also analyses the futures of the block's partners and of the
    /// processes chained to them ([`super::future_races`]).
    pub fn chases_partners(&self) -> bool {
        self.blocks_by_state() && self.observers()
    }

    /// An optimal search with state checks beyond the papers: the races of a step
    /// confirmed in `dnd(E)` are analysed without running it
    /// ([`super::covered`]), where ODPOR_cs runs it and blocks (Alg. 1, lines 25–26).
    pub fn settles_dont_do(&self) -> bool {
        self.optimal() && self.states == States::Checked
    }

    /// Whether conflicts of footprints may be lifted by cdpor's `R`: a process asleep
    /// then stays asleep past events it conflicts with, and one waiting at an `await`
    /// covers a wakeup sequence beside it only if the race's first event, which runs
    /// after the sequence, cannot disable it (see
    /// [`sleeper_covers`](super::wakeup_tree::sleeper_covers)).
    pub fn lifts(&self) -> bool {
        matches!(self.independence, Independence::Constrained(_))
    }

    /// What events carry as footprints with `--deps accesses`: what they touched
    /// (Source-DPOR's and Optimal-DPOR's events), except where `R` or observers
    /// judge a step moved past other events by its footprint. `R` is a relation of
    /// transitions (a constraint speaks of two blocks with their locals, in any
    /// state), and an event that commutes with `e` only by `R` may have read `e`'s
    /// writes: without `e` it does something else, within its transition footprint
    /// but not within what it touched. The observers' overwriting arguments
    /// ([`super::observed`]) are written for transition footprints too. ODPOR_cs
    /// adds a don't-do sequence with each reversal (Alg. 1, lines 40–42), and a race
    /// whose `n` carries what it touched is reversed where the execution ends,
    /// without one (`Dpor::reverse_moved_races`): with what events touched odpor-cs
    /// explored 12 executions of `examples/fib.ic` where it explores 3, and its
    /// `--literal` 20 of the producer–consumer at N = 3 (odpor's count) where Alg. 1
    /// explores 10; so it keeps transition footprints. Plain odpor carries what
    /// events touched: its `await`s' requests to pass the writes of their guards
    /// give the step what it would touch there (`Dpor::ask_before`; with the block's
    /// transition footprint it explored 55 of the 56 traces of
    /// `tests/tests/parallel.rs`, `odpor_with_accesses_explores_every_trace`).
    ///
    /// cdpor (non-optimal, but with `R`) keeps them too: with what events touched, a
    /// race its line 9 dropped was recorded independent in happens-before by what
    /// the two events touched in `E`, while in the reordering the later one does
    /// otherwise (r's `if (y == 1) { y = 0; }` only read y after p's `y = 2z`, and
    /// wrote it before): the race of that write with q's earlier read of y was never
    /// seen, and cdpor missed a final state (`tests/tests/dpor.rs`,
    /// `a_race_dropped_by_line_9_must_not_hide_the_races_behind_it`).
    pub fn carries(&self) -> Carried {
        let plain_odpor =
            self.optimal() && self.races == Races::AsTheyRun && self.states == States::Unchecked;
        if self.lifts() || (self.optimal() && !plain_odpor) {
            Carried::Transitions
        } else {
            Carried::Accesses
        }
    }
}
