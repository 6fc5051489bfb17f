//! What makes two events dependent: the one place that answers it, for each relation
//! the algorithms use.
//!
//! - **Footprints** ([`footprint`]): two events of different processes conflict when
//!   one may write a location the other may read or write
//!   ([`Footprint::conflicts`](footprint::Footprint::conflicts)), with the footprint
//!   each event has from its process's local state. Happens-before
//!   ([`happens_before`]) is program order, creation and conflicts (less the pairs a
//!   search recorded independent); a race ([`races`]) is a conflict with no event
//!   ordered between. What a process may still touch is [`future`].
//! - **Observers** ([`observers`]): a write/write conflict counts only when a later
//!   read, or the end of the execution, observes which write came last (`→ob`, ISSTA'19
//!   Def. 2.1); writes of a global an `await` guard may read always count.
//! - **Constraints** ([`constraints`]): cdpor's relation `R` lifts a conflict of two
//!   events that a synthesised constraint proves to commute whatever the state.
//!
//! [`Dependency`] is the relation of one search, made of the parts its algorithm
//! declares ([`crate::dpor::Parts`]): the skeleton asks it, and no caller combines
//! the relations itself.

pub mod constraints;
pub mod footprint;
pub mod future;
pub mod guarded;
pub mod guarded_group;
pub mod happens_before;
pub mod observers;
pub mod races;

use crate::dpor::parts::{Independence, Parts};
use crate::dpor::wakeup_tree::{Carry, Entry, Independent};
use crate::executor::Event as ExEvent;
use crate::state::{Process, State};
use constraints::{Event, RelationR};
use frontend::ir::{GlobalId, Program};
use happens_before::HappensBefore;
use std::sync::Arc;

/// The dependency of one search.
#[derive(Default)]
pub struct Dependency {
    /// Whether write/write conflicts count only where observed.
    observers: bool,
    /// With observers: per global, whether an `await` guard may read it (its writes
    /// are then always ordered, [`observers::guarded`]); empty otherwise.
    guarded: Vec<bool>,
    /// With observers: `true` for every global, what the end of a wakeup sequence
    /// reads (it goes on, [`observers::end_reads`]); empty otherwise.
    every_global: Vec<bool>,
    /// cdpor's `R`, for a constrained search.
    r: Option<RelationR>,
}

impl Dependency {
    /// The dependency of a search with `parts` from `initial`, whose executions have
    /// at most `max_depth` events; `guards` gives, per block, the globals its guard
    /// reads.
    pub fn new(
        program: &Program,
        guards: &[Vec<GlobalId>],
        parts: &Parts,
        initial: &State,
        max_depth: Option<usize>,
    ) -> Dependency {
        let mut dependency = if parts.observers() {
            Dependency::observing(observers::guarded(program.globals.len(), guards))
        } else {
            Dependency::default()
        };
        if let Independence::Constrained(ics) = &parts.independence {
            dependency.r = Some(RelationR::new(ics.clone(), initial, max_depth));
        }
        dependency
    }

    /// Observers, with `guarded` (per global, whether an `await` guard may read it),
    /// and no constraints.
    pub fn observing(guarded: Vec<bool>) -> Dependency {
        Dependency {
            observers: true,
            every_global: vec![true; guarded.len()],
            guarded,
            r: None,
        }
    }

    /// With observers, per global, whether an `await` guard may read it; empty
    /// without.
    pub fn guarded(&self) -> &[bool] {
        &self.guarded
    }

    /// With observers, what the end of a sequence that goes on reads: every global.
    pub fn every_global(&self) -> &[bool] {
        &self.every_global
    }

    /// Whether `seq[i]` and `seq[k]` (`i < k`) of a sequence to run, whose footprints
    /// conflict, commute nevertheless: by `R`, or with observers because the sequence
    /// overwrites what they both write before reading it ([`observers::unobserved`],
    /// its end reading everything: it goes on). The wakeup trees' relation
    /// ([`crate::dpor::wakeup_tree::Independent`]).
    pub fn lifted(&mut self, program: &Program, seq: &[&Entry], i: usize, k: usize) -> bool {
        if self.observers {
            return self.unobserved(seq, i, k);
        }
        match (&seq[i].event, &seq[k].event) {
            (Some((bx, lx)), Some((by, ly))) => self.commute(program, (*bx, lx), (*by, ly)),
            _ => false,
        }
    }

    /// [`Self::lifted`] as the wakeup trees ask it, with the program it reads.
    pub fn lifting<'a>(&'a mut self, program: &'a Program) -> Lifting<'a> {
        Lifting {
            dependency: self,
            program,
        }
    }

    /// With observers, whether `seq[i]` and `seq[k]` write only what the sequence,
    /// which goes on, overwrites before reading it.
    pub fn unobserved(&self, seq: &[&Entry], i: usize, k: usize) -> bool {
        observers::unobserved(seq, i, k, &self.guarded, &self.every_global)
    }

    /// With observers, whether `seq[i]` and `seq[k]` write only what the rest of
    /// `seq` overwrites before reading it, its end reading the globals `end` marks.
    pub fn unobserved_at_end<A: observers::Accesses>(
        &self,
        seq: &[&A],
        i: usize,
        k: usize,
        end: &[bool],
    ) -> bool {
        observers::unobserved(seq, i, k, &self.guarded, end)
    }

    /// `→ob` of an execution (`events` with the processes `procs`), its end reading
    /// the globals `end` marks ([`observers::order`]).
    pub fn order(&self, events: &[ExEvent], procs: &[Arc<Process>], end: &[bool]) -> HappensBefore {
        observers::order(events, procs, &self.guarded, end)
    }

    /// What the steps of a sequence must carry for [`Self::lifted`] to judge them:
    /// their blocks and locals where cdpor's `R` decides, what they wrote where
    /// writes count only where observed. Copying both for every step of every
    /// sequence cost plain odpor, which reads neither, 2% of its time on FR-a(8).
    pub fn carry(&self) -> Carry {
        Carry {
            blocks: self.r.is_some(),
            written: self.observers,
        }
    }

    /// `x R y`: whether two events (block, locals at their start) of different
    /// processes commute whatever the state; never without constraints.
    pub fn commute(&mut self, program: &Program, x: Event<'_>, y: Event<'_>) -> bool {
        self.r.as_mut().is_some_and(|r| r.commute(program, x, y))
    }

    /// cdpor's `R`, for its line 9, if the search has constraints.
    pub fn relation_r(&mut self) -> Option<&mut RelationR> {
        self.r.as_mut()
    }
}

/// [`Dependency::lifted`] for the wakeup trees: it never lifts a conflict without
/// `R` or observers (plain Optimal-DPOR), which spares them building sequences to ask.
pub struct Lifting<'a> {
    dependency: &'a mut Dependency,
    program: &'a Program,
}

impl Independent for Lifting<'_> {
    fn lifts(&mut self, seq: &[&Entry], i: usize, k: usize) -> bool {
        self.dependency.lifted(self.program, seq, i, k)
    }

    fn never(&self) -> bool {
        self.dependency.r.is_none() && !self.dependency.observers
    }
}
