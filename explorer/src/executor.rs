//! The executor: runs events on one mutable state and steps back, so an exploration
//! needs no copy of the state per event. Memory writes are undone through the
//! interpreter's undo log; the running process's locals are saved in a reused buffer;
//! spawned processes are appended and truncated.

use crate::dependency::footprint::{Carried, Footprint, Policy, Sketch, CACHED};
use crate::fingerprint::Fingerprint;
use crate::pid::Pid;
use crate::state::{Process, State};
use crate::Deps;
use frontend::interp::{Effects, Fault, Limits, Machine, Next};
use frontend::ir::{BlockId, GlobalId, Program};
use frontend::memory::{Loc, Memory, Rewound, UndoLog};
use frontend::value::Value;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::Arc;

/// One block run by one process.
#[derive(Clone, Debug, Default)]
pub struct Event {
    /// Index of the process in [`State::procs`].
    pub proc: usize,
    pub block: BlockId,
    pub footprint: Footprint,
    /// Processes this event spawned: indices `spawned.0 .. spawned.1` of [`State::procs`].
    pub spawned: (usize, usize),
    /// The block failed (assertion or runtime error): the state is unchanged, and the
    /// footprint holds what it touched before failing. Such an event ends its execution.
    pub failed: bool,
    /// The locations it did write (not a may-set: empty for a failed event, but for
    /// an unrun one that surely writes them, [`Executor::unrun_overwriting`]). A write
    /// overwrites a location for the observers of `odpor-ob` ([`crate::dependency::observers`])
    /// only when it happened; the footprint's writes may include writes its path
    /// skipped.
    pub written: Vec<Loc>,
    /// The locations it did read (before failing, for a failed event; none for an
    /// unrun one), kept only when asked ([`Executor::keep_reads`]): what
    /// [`crate::reads_from`] classes executions by.
    pub read: Vec<Loc>,
    /// Its footprint is what it touched, and its block's path depends on the global
    /// state: elsewhere it may touch otherwise ([`Executor::carries_accesses`]).
    pub own_accesses: bool,
    /// Where it carries what it touched (`own_accesses`), its transition footprint,
    /// which the searches ask for at every race of it (kept here rather than looked
    /// up again); else stale, unread (the buffer is reused).
    pub(crate) transition: Footprint,
    /// It carries what it touched, and touched fewer locations than its block may
    /// ([`Executor::touched_less`]).
    pub touched_less: bool,
    /// A probe ([`Executor::probe`]): the guard of a process waiting at an `await`,
    /// read where its block cannot run.
    pub probe: bool,
    /// Its footprint's [`Sketch`], set with the footprint by the executor (`None` for
    /// an event built otherwise: its conflicts are found by the footprints alone).
    pub(crate) sketch: Option<Sketch>,
}

impl Event {
    /// Dependent by data (see [`Footprint::conflicts`]).
    pub fn conflicts(&self, other: &Event) -> bool {
        let apart =
            matches!((&self.sketch, &other.sketch), (Some(a), Some(b)) if !a.may_conflict(b));
        !apart && self.footprint.conflicts(&other.footprint)
    }

    /// Ordered before `later` whatever the data: the same process, or `later`'s
    /// process is one this event spawned.
    #[inline]
    pub fn precedes_in_program(&self, later: &Event) -> bool {
        self.precedes_process(later.proc)
    }

    /// Ordered before every later event of process `proc` whatever the data: an
    /// event of `proc`, or the one that spawned it.
    #[inline]
    pub fn precedes_process(&self, proc: usize) -> bool {
        self.proc == proc || (self.spawned.0..self.spawned.1).contains(&proc)
    }
}

/// What stepping back an event needs.
#[derive(Default)]
struct Saved {
    undo_mark: usize,
    next: Option<BlockId>,
    locals: Vec<Value>,
    spawned: u32,
    /// The process's kept fingerprints ([`Process::keys`]).
    keys: [Fingerprint; 2],
    /// The event ran its block and so changed its process; one only recorded
    /// ([`Executor::unrun`], [`Executor::probe`]) left it as it was, and stepping it
    /// back need not touch it (a state copied at a node shares it: restoring it
    /// would copy it).
    ran: bool,
}

pub struct Executor<'p> {
    pub machine: Machine<'p>,
    pub state: State,
    undo: UndoLog,
    /// The events of the current execution; entries past `depth` are reused buffers.
    events: Vec<Event>,
    saved: Vec<Saved>,
    depth: usize,
    fx: Effects,
    /// Which events carry what they touched, and the blocks' syntactic footprints.
    policy: Arc<Policy>,
    /// Events keep the locations they read ([`Event::read`]).
    keep_reads: bool,
    /// What events carry where a search runs them again in another state, by what
    /// decides it ([`Executor::accesses_at`]): one per thread, unlocked, as the
    /// searches ask at almost every race (bounded as [`Policy`]'s cache is).
    carried_at: RefCell<FxHashMap<Fingerprint, Option<Footprint>>>,
}

impl<'p> Executor<'p> {
    /// An executor continuing from `state` with dynamic dependencies.
    pub fn from_state(program: &'p Program, limits: Limits, state: State) -> Self {
        let policy = Arc::new(Policy::new(program, Deps::Dynamic, Carried::Transitions));
        Self::with_policy(program, limits, state, policy)
    }

    fn with_policy(
        program: &'p Program,
        limits: Limits,
        state: State,
        policy: Arc<Policy>,
    ) -> Self {
        Executor {
            machine: Machine::new(program, limits),
            state,
            undo: UndoLog::default(),
            events: Vec::new(),
            saved: Vec::new(),
            depth: 0,
            fx: Effects::default(),
            policy,
            keep_reads: false,
            carried_at: Default::default(),
        }
    }

    /// The syntactic footprint of a block: what it may touch from any local state.
    pub fn block_footprint(&self, block: BlockId) -> &Footprint {
        &self.policy.blocks[block as usize]
    }

    /// The transition footprint of `block` run with `locals` (see [`Policy`]).
    pub fn transition(&self, block: BlockId, locals: &[Value]) -> Footprint {
        self.policy
            .transition(&self.machine, &self.state.mem, block, locals)
    }

    /// `f` of the transition footprint of process `p`'s next block (see [`Policy`]).
    pub fn with_next_transition<R>(&self, p: usize, f: impl FnOnce(&Footprint) -> R) -> R {
        let q = &self.state.procs[p];
        let block = q.next.expect("a process with a next block");
        let (machine, mem) = (&self.machine, &self.state.mem);
        (self.policy).with_transition_keyed(machine, mem, block, &q.locals, q.live_key(), f)
    }

    /// Whether process `p`'s next block may touch no global location at all (its
    /// transition footprint is empty): at once when its syntactic footprint is.
    pub fn touches_nothing(&self, p: usize) -> bool {
        let empty = |f: &Footprint| f.reads.is_empty() && f.writes.is_empty();
        let block = self.state.procs[p]
            .next
            .expect("a process with a next block");
        empty(&self.policy.blocks[block as usize]) || self.with_next_transition(p, empty)
    }

    /// Event `i`'s transition footprint: what it carries, unless it carries what it
    /// touched ([`Executor::carries_accesses`]; then kept beside that), failed or was
    /// a probe (those carry what they touched before stopping, and run whole
    /// elsewhere: then computed from the locals it started with).
    pub fn event_transition(&self, i: usize) -> Footprint {
        self.with_event_transition(i, Footprint::clone)
    }

    /// `f` of event `i`'s transition footprint (see [`Executor::event_transition`]),
    /// without copying it.
    pub fn with_event_transition<R>(&self, i: usize, f: impl FnOnce(&Footprint) -> R) -> R {
        let event = &self.events[i];
        if event.own_accesses {
            f(&event.transition)
        } else if event.failed {
            let saved = &self.saved[i];
            let (machine, mem) = (&self.machine, &self.state.mem);
            let [key, _] = saved.keys;
            (self.policy).with_transition_keyed(machine, mem, event.block, &saved.locals, key, f)
        } else {
            f(&event.footprint)
        }
    }

    /// Whether completed event `i` carries what it touched in this execution and its
    /// block's path depends on the global state ([`Carried::Accesses`]): what it
    /// touched holds wherever what it reads has the values it read, its transition
    /// footprint wherever its process has the same local state. A step that a
    /// sequence moves before events it followed takes the latter.
    pub fn carries_accesses(&self, i: usize) -> bool {
        self.events[i].own_accesses
    }

    /// Whether completed event `i` may carry another footprint where it runs after
    /// other events ([`Carried::Accesses`]): its block's path depends on the global
    /// state, and its transition footprint reads and writes one location.
    ///
    /// A path carries what it touched where it touched every location of the
    /// transition footprint, else the footprint. Touching them all, it writes each
    /// location the footprint only writes (a path that read it would make the
    /// footprint read it) and reads each it only reads: it carries the whole
    /// footprint unless it only read, or only wrote, a location the footprint both
    /// reads and writes (a failed compare-and-swap). Without such a location the
    /// event carries its transition footprint everywhere, as in `E`, and computing
    /// what it carries in a reversal (`race_analysis::reversed`) is waste: for every
    /// block whose path depends on the state, it made odpor twice as slow on
    /// lastzero(10), whose scans take paths by values.
    pub fn carries_by_path(&self, i: usize) -> bool {
        !self.events[i].failed && self.block_carries_by_path(i)
    }

    /// [`Executor::carries_by_path`] of the block of event `i`, whether or not it
    /// completed: a probe's block carries by its path where a reversal runs it.
    pub fn block_carries_by_path(&self, i: usize) -> bool {
        let event = &self.events[i];
        self.policy.carried() == Carried::Accesses
            && !self.policy.records(event.block, false)
            && self.with_event_transition(i, |t| {
                crate::dependency::footprint::intersects(&t.reads, &t.writes)
            })
    }

    /// Whether completed event `i` carries what it touched and that is less than its
    /// transition footprint: elsewhere it may touch more. One that touched its whole
    /// transition footprint touches no more anywhere (it may touch less).
    pub fn touched_less(&self, i: usize) -> bool {
        self.events[i].touched_less
    }

    /// The footprint event `i` (completed, or failed) carries run again, with the
    /// locals it started with, on `mem` (a memory computed for a reordering): what
    /// it touches where it completes and its other paths touch nothing else, else
    /// its transition footprint. `None` where its guard does not hold.
    ///
    /// Kept by the fingerprint of its live locals (which names the block) and of the
    /// values `mem` holds at the locations its transition footprint reads (the
    /// collision bound of [`crate::visited`]), which decide the answer: the run of a
    /// block is a function of its live locals (the others are written before they
    /// are read) and of the values of the globals it reads, and every location any
    /// of its paths may read, its guard's included, is a read of its transition
    /// footprint ([`frontend::analysis::may_touch`]). Two runs that agree there take
    /// the same path to the same end and touch the same locations. A reversal runs a
    /// race's later event on the memory before the earlier one, and races meet the
    /// same values again and again (odpor on BB(10): 390 distinct keys among 360,000
    /// runs); `mem` is read a location at a time, and copied whole only to run the
    /// block.
    pub fn accesses_at(&self, mem: &Rewound<'_>, i: usize) -> Option<Footprint> {
        let program = self.machine.program;
        let [live_key, _] = self.saved[i].keys;
        let key = self.with_event_transition(i, |t| {
            crate::fingerprint::fingerprint(&ValuesAt {
                live_key,
                program,
                mem,
                at: &t.reads,
            })
        });
        let (block, locals) = (self.events[i].block, &self.saved[i].locals);
        if let Some(carried) = self.carried_at.borrow().get(&key) {
            return carried.clone();
        }
        let carried = self.run_accesses(mem.memory(), block, locals);
        let mut cache = self.carried_at.borrow_mut();
        if cache.len() >= CACHED {
            cache.clear();
        }
        cache.insert(key, carried.clone());
        carried
    }

    /// [`Executor::accesses_at`], computed.
    fn run_accesses(&self, mem: Memory, block: BlockId, locals: &[Value]) -> Option<Footprint> {
        let (run, fx) = self.run_at(mem, block, locals)?;
        let transition = self.transition(block, locals);
        // What the event would carry there (as `Executor::step` gives it): what it
        // touched where it completes and its other paths touch nothing else (see
        // `only_touches`), else its transition footprint (a failed event's too).
        Some(
            if run.is_ok() && only_touches(&transition, &fx.reads, &fx.writes) {
                Footprint {
                    reads: fx.reads,
                    writes: fx.writes,
                }
            } else {
                transition
            },
        )
    }

    /// Whether an event of `block` run with `locals` on `mem` (spent here) completes
    /// without spawning a process. `None` where its guard does not hold.
    pub fn completes_without_spawning(
        &self,
        mem: Memory,
        block: BlockId,
        locals: &[Value],
    ) -> Option<bool> {
        let (run, fx) = self.run_at(mem, block, locals)?;
        Some(run.is_ok() && fx.spawns.is_empty())
    }

    /// Runs event `i` again, with the locals it started with, on `mem` (a memory
    /// computed for a reordering), leaving there what it writes; a run that faults
    /// leaves `mem` as it was, as [`Executor::step`] does. `false` where its guard does
    /// not hold (it cannot run there).
    pub fn rerun_on(&self, mem: &mut Memory, i: usize) -> bool {
        let (block, locals) = (self.events[i].block, &self.saved[i].locals);
        if self.machine.enabled(block, mem, locals) == Ok(false) {
            return false;
        }
        let mut undo = UndoLog::default();
        let mut fx = Effects::default();
        let run = (self.machine).run_block(block, mem, &mut locals.to_vec(), &mut undo, &mut fx);
        if run.is_err() {
            mem.undo_to(&mut undo, 0);
        }
        true
    }

    /// Whether a process at `block` with `locals` waits on `mem`: its guard is false
    /// there (one that faults lets the block run, and fail).
    pub fn waits_on(&self, mem: &Memory, block: BlockId, locals: &[Value]) -> bool {
        self.machine.enabled(block, mem, locals) == Ok(false)
    }

    /// Runs an event of `block` with `locals` on `mem`, where its guard holds: how it
    /// ends, and what it did.
    fn run_at(
        &self,
        mut mem: Memory,
        block: BlockId,
        locals: &[Value],
    ) -> Option<(Result<Next, Fault>, Effects)> {
        if self.machine.enabled(block, &mem, locals) != Ok(true) {
            return None;
        }
        let mut locals = locals.to_vec();
        let mut fx = Effects::default();
        let run = self.machine.run_block(
            block,
            &mut mem,
            &mut locals,
            &mut UndoLog::default(),
            &mut fx,
        );
        Some((run, fx))
    }

    /// Whether events keep the locations they read, for reads-from classes (a copy
    /// per step the other searches need not pay).
    pub fn keep_reads(&mut self, keep: bool) {
        self.keep_reads = keep;
    }

    /// What completed events carry in this exploration.
    pub fn carried(&self) -> Carried {
        self.policy.carried()
    }

    /// Switches the dependency notion (see [`crate::Config::deps`] and [`Carried`]).
    pub fn set_deps(&mut self, deps: Deps, carried: Carried) {
        self.policy = Arc::new(Policy::new(self.machine.program, deps, carried));
    }

    /// An executor for alternative runs from `state` with the same dependency notion.
    pub fn fork(&self, state: State) -> Executor<'p> {
        Self::with_policy(
            self.machine.program,
            self.machine.limits,
            state,
            self.policy.clone(),
        )
    }

    /// The initial state: globals initialised, `init` run, its spawns as processes `1, 2, …`.
    pub fn new(program: &'p Program, limits: Limits) -> Result<Self, Fault> {
        let machine = Machine::new(program, limits);
        let mut mem = Memory::initial(program);
        let spawns = machine.run_init(&mut mem)?;
        let procs = spawns
            .into_iter()
            .enumerate()
            .map(|(i, (proc, args))| {
                let locals = machine.spawn_frame(proc, args);
                Arc::new(Process::spawned(
                    program,
                    Pid::root(i as u32 + 1),
                    proc,
                    locals,
                ))
            })
            .collect();
        Ok(Executor::from_state(program, limits, State { mem, procs }))
    }

    pub fn program(&self) -> &'p Program {
        self.machine.program
    }

    /// The events executed so far, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events[..self.depth]
    }

    /// Processes that may run now, in creation order. A process whose guard cannot be
    /// evaluated (a runtime error in the `await` condition) counts as enabled: running
    /// it reports the error.
    pub fn enabled(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend((0..self.state.procs.len()).filter(|&i| self.is_enabled(i)));
    }

    /// [`Executor::enabled`] after the newest event, from `before`, the processes
    /// enabled (sorted) in the state it ran from. Only the event's own process, those
    /// it spawned, and those whose guard reads a global it wrote are evaluated again:
    /// every other process has the next block and locals it had, and its guard, which
    /// reads only the globals [`frontend::ir::BlockSets::guard_reads`] lists (a `fun`
    /// reads none), reads the values it read there (a failed or unrun event writes
    /// nothing). Evaluating every guard after every event took sdpor a fifth of its
    /// time on filesystem(22), where most processes wait at a lock.
    pub fn enabled_after(&self, before: &[usize], out: &mut Vec<usize>) {
        let Some(e) = self.depth.checked_sub(1).map(|d| &self.events[d]) else {
            return self.enabled(out);
        };
        let program = self.machine.program;
        let wrote = |g: &GlobalId| e.written.iter().any(|l| l.global == *g);
        out.clear();
        out.extend((0..self.state.procs.len()).filter(|&i| {
            let Some(b) = self.state.procs[i].next else {
                return false;
            };
            if program.blocks[b as usize].guard.is_none() {
                return true;
            }
            let reads = &program.sets[b as usize].guard_reads;
            match i == e.proc || i >= e.spawned.0 || reads.iter().any(wrote) {
                true => self.is_enabled(i),
                false => before.binary_search(&i).is_ok(),
            }
        }));
        debug_assert_eq!(*out, {
            let mut all = Vec::new();
            self.enabled(&mut all);
            all
        });
    }

    /// Whether process `i` may run now (see [`Executor::enabled`]).
    pub fn is_enabled(&self, i: usize) -> bool {
        let p = &self.state.procs[i];
        p.next
            .is_some_and(|b| self.machine.enabled(b, &self.state.mem, &p.locals) != Ok(false))
    }

    /// Runs the next block of process `proc`. On a fault the memory is left unchanged,
    /// the process stops (it has no next block), and a `failed` event is recorded all
    /// the same, with what the block touched before failing. The naive search steps it
    /// back at once (its execution ends there); the DPOR searches go on with the other
    /// processes: a failed event is a no-op on the state, so whatever they reach is
    /// reachable without it, and their coverage arguments need every process to go on.
    pub fn step(&mut self, proc: usize) -> Result<&Event, Fault> {
        let program = self.machine.program;
        let first_child = self.state.procs.len();
        let p = Arc::make_mut(&mut self.state.procs[proc]);
        let Some(block) = p.next else {
            unreachable!("stepping an ended process");
        };
        if self.saved.len() == self.depth {
            self.saved.push(Saved::default());
            self.events.push(Event::default());
        }
        let saved = &mut self.saved[self.depth];
        saved.undo_mark = self.undo.len();
        saved.next = p.next;
        saved.locals.clone_from(&p.locals);
        saved.spawned = p.spawned;
        saved.keys = p.keys();
        saved.ran = true;
        self.fx.clear();
        let result = self.machine.run_block(
            block,
            &mut self.state.mem,
            &mut p.locals,
            &mut self.undo,
            &mut self.fx,
        );
        let outcome = match result {
            Ok(next) => {
                p.set_next(next);
                // An ended process holds nothing (its locals are in `saved` for the
                // step back).
                if p.next.is_none() {
                    p.locals.clear();
                }
                for (proc_id, args) in self.fx.spawns.drain(..) {
                    let parent = Arc::make_mut(&mut self.state.procs[proc]);
                    parent.spawned += 1;
                    let pid = parent.pid.child(parent.spawned);
                    let locals = self.machine.spawn_frame(proc_id, args);
                    self.state
                        .procs
                        .push(Arc::new(Process::spawned(program, pid, proc_id, locals)));
                }
                Ok(())
            }
            Err(fault) => {
                // A failed block changes nothing but stops its process.
                self.state.mem.undo_to(&mut self.undo, saved.undo_mark);
                p.locals.clone_from(&saved.locals);
                p.next = None;
                p.failed = true;
                Err(fault)
            }
        };
        Arc::make_mut(&mut self.state.procs[proc]).rehash(program);
        let event = &mut self.events[self.depth];
        event.proc = proc;
        event.block = block;
        event.own_accesses = false;
        event.touched_less = false;
        event.probe = false;
        if self.policy.records(block, outcome.is_err()) {
            event.footprint.reads.clone_from(&self.fx.reads);
            event.footprint.writes.clone_from(&self.fx.writes);
        } else {
            let saved = &self.saved[self.depth];
            let [key, _] = saved.keys;
            let (machine, mem) = (&self.machine, &self.state.mem);
            let accesses = outcome.is_ok() && self.policy.carried() == Carried::Accesses;
            let fx = &self.fx;
            (self.policy).with_transition_keyed(machine, mem, block, &saved.locals, key, |t| {
                if accesses && only_touches(t, &fx.reads, &fx.writes) {
                    event.footprint.reads.clone_from(&fx.reads);
                    event.footprint.writes.clone_from(&fx.writes);
                    event.transition.clone_from(t);
                    event.own_accesses = true;
                    event.touched_less = t.reads != fx.reads || t.writes != fx.writes;
                } else {
                    event.footprint.clone_from(t)
                }
            });
        }
        event.sketch = Some(Sketch::of(&event.footprint));
        event.spawned = (first_child, self.state.procs.len());
        event.failed = outcome.is_err();
        event.written.clear();
        if !event.failed {
            event.written.extend_from_slice(&self.fx.writes);
        }
        event.read.clear();
        if self.keep_reads {
            event.read.extend_from_slice(&self.fx.reads);
        }
        self.depth += 1;
        outcome.map(|()| &self.events[self.depth - 1])
    }

    /// What `block`'s `await` guard may read with `locals`, in any global state.
    pub fn guard_reads(&self, block: BlockId, locals: &[Value]) -> Vec<Loc> {
        self.policy
            .guard(&self.machine, &self.state.mem, block, locals)
    }

    /// Records a probe for the disabled process `proc`: an event that reads what its
    /// guard reads now and changes nothing, so that DPOR can find the races of the
    /// event that disabled it. Stepped back with [`Executor::back`] like any event.
    pub fn probe(&mut self, proc: usize) -> &Event {
        let p = &self.state.procs[proc];
        let block = p.next.expect("only a process with a next block is probed");
        let footprint = Footprint {
            reads: self.guard_reads(block, &p.locals),
            writes: Vec::new(),
        };
        self.record_unrun(proc, footprint);
        let probe = self.depth - 1;
        self.events[probe].probe = true;
        &self.events[probe]
    }

    /// Records process `proc`'s next block as an event that has not run: with the
    /// block's transition footprint (what it may touch from its local state, in any
    /// global state) and no effect, so that DPOR can find the races it would have
    /// where it is known to lead to a state already covered. Stepped back with
    /// [`Executor::back`] like any event.
    pub fn unrun(&mut self, proc: usize) -> &Event {
        let p = &self.state.procs[proc];
        let block = p
            .next
            .expect("only a process with a next block is recorded");
        let footprint = self.transition(block, &p.locals);
        self.record_unrun(proc, footprint)
    }

    /// Records process `proc`'s next block as an event that has not run, with the
    /// given footprint: what its process may touch from now on
    /// ([`crate::dependency::future::Futures`]), for the races of a future the execution does not
    /// show. Stepped back with [`Executor::back`] like any event.
    pub fn unrun_future(&mut self, proc: usize, footprint: Footprint) -> &Event {
        self.record_unrun(proc, footprint)
    }

    /// [`Executor::unrun`], the event writing the scalar globals its block surely
    /// overwrites (`Block::overwrites`, none for a guarded block): for a step known to
    /// run normally there (odpor-cs-ob's settled steps), whose writes hide the earlier
    /// ones from the end of the execution as if it had run.
    pub fn unrun_overwriting(&mut self, proc: usize) -> &Event {
        self.unrun(proc);
        self.overwrite_as_its_block()
    }

    /// The newest event, unrun, writes the scalar globals its block surely overwrites
    /// (`Block::overwrites`): for an event whose block surely runs normally in every
    /// continuation ([`Executor::unrun_overwriting`]; a process's future, whose next
    /// block does), for the observers of the writes before it.
    pub fn overwrite_as_its_block(&mut self) -> &Event {
        let program = self.machine.program;
        let event = &mut self.events[self.depth - 1];
        let block = &program.blocks[event.block as usize];
        event
            .written
            .extend(block.overwrites.iter().map(|&g| Loc::whole(g)));
        &self.events[self.depth - 1]
    }

    /// A probe or an unrun event: no effect, counted as failed (a failed event's
    /// transition footprint is computed again from its locals wherever it is asked).
    fn record_unrun(&mut self, proc: usize, footprint: Footprint) -> &Event {
        if self.saved.len() == self.depth {
            self.saved.push(Saved::default());
            self.events.push(Event::default());
        }
        let p = &self.state.procs[proc];
        let saved = &mut self.saved[self.depth];
        saved.undo_mark = self.undo.len();
        saved.next = p.next;
        saved.locals.clone_from(&p.locals);
        saved.spawned = p.spawned;
        saved.keys = p.keys();
        saved.ran = false;
        let event = &mut self.events[self.depth];
        event.proc = proc;
        event.block = p
            .next
            .expect("only a process with a next block is recorded");
        event.sketch = Some(Sketch::of(&footprint));
        event.footprint = footprint;
        event.written.clear();
        event.read.clear();
        event.own_accesses = false;
        event.touched_less = false;
        event.probe = false;
        event.spawned = (self.state.procs.len(), self.state.procs.len());
        event.failed = true;
        self.depth += 1;
        &self.events[self.depth - 1]
    }

    /// Steps back the last event.
    pub fn back(&mut self) {
        self.depth -= 1;
        let event = &self.events[self.depth];
        let saved = &mut self.saved[self.depth];
        self.state.procs.truncate(event.spawned.0);
        self.state.mem.undo_to(&mut self.undo, saved.undo_mark);
        if !saved.ran {
            return;
        }
        let p = Arc::make_mut(&mut self.state.procs[event.proc]);
        p.next = saved.next;
        p.failed = false;
        p.spawned = saved.spawned;
        p.restore_keys(saved.keys);
        std::mem::swap(&mut p.locals, &mut saved.locals);
    }

    /// The memory after the events before `first` followed by those after it that
    /// `member` selects, in their order: the "virtual state" in which CDPOR evaluates
    /// a constraint or a guard (`s[E'.û]`, `s[E'.notdep(e, E)]`), computed from the
    /// undo log without running anything, whole ([`Rewound::memory`]) or a location
    /// at a time. Exact when the selected events behave as they did in the
    /// execution, i.e. when every event that happens before a selected one is in the
    /// subsequence (then each reads and writes what it did).
    pub fn rewound(&self, first: usize, member: impl Fn(usize) -> bool) -> Rewound<'_> {
        let events = (first..self.depth).rev().map(|i| {
            let end = match self.saved.get(i + 1) {
                Some(next) if i + 1 < self.depth => next.undo_mark,
                _ => self.undo.len(),
            };
            (self.saved[i].undo_mark..end, member(i))
        });
        Rewound::new(&self.state.mem, &self.undo, events.collect())
    }

    /// The locals event `i` of the current execution started with.
    pub fn entry_locals(&self, i: usize) -> &[Value] {
        &self.saved[i].locals
    }

    /// Whether some event of the current execution failed.
    pub fn failed(&self) -> bool {
        self.events().iter().any(|e| e.failed)
    }
}

/// What [`Executor::accesses_at`] keys its answers by: a block's live locals (their
/// fingerprint, which names the block) and the values at the locations it may read.
struct ValuesAt<'a> {
    live_key: Fingerprint,
    program: &'a Program,
    mem: &'a Rewound<'a>,
    at: &'a [Loc],
}

impl std::hash::Hash for ValuesAt<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.live_key.hash(state);
        for &loc in self.at {
            self.mem.hash_at(self.program, loc, state);
        }
    }
}

/// Whether every location a transition footprint `t` reads or writes, the event read
/// or wrote (`reads`, `writes`: what it touched). Then what it touched may stand for
/// it: its other paths only write locations it read, as a compare-and-swap that fails
/// reads the location it would write, and it loses only its conflicts with events
/// that merely read those (see docs/soundness.md, "Dependencies"). A block that
/// writes or reads elsewhere on another path keeps its transition footprint: a
/// reversal that changes its path there makes it conflict with events that were
/// independent of it (`tests/regressions/state_dependent_block_extent.ic`).
fn only_touches(t: &Footprint, reads: &[Loc], writes: &[Loc]) -> bool {
    let touched = |l: &Loc| reads.binary_search(l).is_ok() || writes.binary_search(l).is_ok();
    t.reads.iter().chain(&t.writes).all(touched)
}
