//! States: global memory and processes (docs/language.md, "State and processes").

use crate::fingerprint::{fingerprint, Fingerprint};
use crate::pid::Pid;
use frontend::interp::Next;
use frontend::ir::{BlockId, GlobalId, LocalId, ProcId, Program};
use frontend::memory::Memory;
use frontend::value::Value;
use std::fmt::{self, Write as _};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Process {
    pub pid: Pid,
    pub proc: ProcId,
    /// The next block, or `None` once the process has ended.
    pub next: Option<BlockId>,
    pub locals: Vec<Value>,
    /// How many processes this one has spawned (names the next child).
    pub spawned: u32,
    /// It stopped on an assertion or runtime error (DPOR searches go on past a
    /// failure; such a state is never equal to one without it).
    pub failed: bool,
    /// A fingerprint of `pid`, computed once at spawn.
    pub pid_key: Fingerprint,
    /// A fingerprint of what state equality sees of the process
    /// ([`Process::live_key`]), kept with it: a step changes one process, and a state's
    /// fingerprint, asked at every state, then sums the others' as they are.
    live_key: Fingerprint,
    /// A fingerprint of `pid_key` and `live_key` together, kept likewise.
    identity_key: Fingerprint,
}

/// The memory as a state check sees it: dead globals left out.
struct MemoryExcept<'a>(&'a Memory, &'a Program, &'a [GlobalId]);

impl Hash for MemoryExcept<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.hash_except(self.1, self.2, h);
    }
}

/// A process as state equality sees it: procedure, next block, live locals.
struct LiveProcess<'a> {
    proc: ProcId,
    block: BlockId,
    live: &'a [LocalId],
    locals: &'a [Value],
}

impl Hash for LiveProcess<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.proc.hash(h);
        self.block.hash(h);
        for &l in self.live {
            self.locals[l as usize].hash(h);
        }
    }
}

/// The fingerprint of a process of `proc` about to run `block` with `locals`, as
/// state equality sees it: its live locals only ([`Process::live_key`] of such a
/// process). What the block may touch is a function of it too: the block reads no
/// local that is not live at its entry.
pub fn live_key(program: &Program, proc: ProcId, block: BlockId, locals: &[Value]) -> Fingerprint {
    fingerprint(&LiveProcess {
        proc,
        block,
        live: &program.blocks[block as usize].live,
        locals,
    })
}

impl Process {
    /// Equal as state equality sees a process: ended alike (failed or not), or at
    /// the same block of the same proc with the same live locals.
    pub fn same_live(&self, other: &Process, program: &Program) -> bool {
        match (self.next, other.next) {
            (None, None) => self.failed == other.failed,
            (Some(b), Some(c)) => {
                b == c
                    && self.proc == other.proc
                    && program.blocks[b as usize]
                        .live
                        .iter()
                        .all(|&l| self.locals[l as usize] == other.locals[l as usize])
            }
            _ => false,
        }
    }

    /// A process about to run its proc's entry block.
    pub fn spawned(program: &Program, pid: Pid, proc: ProcId, locals: Vec<Value>) -> Process {
        let mut p = Process {
            pid_key: fingerprint(&pid),
            pid,
            proc,
            next: Some(program.procs[proc as usize].entry),
            locals,
            spawned: 0,
            failed: false,
            live_key: 0,
            identity_key: 0,
        };
        p.rehash(program);
        p
    }

    /// The fingerprint of the process as state equality sees it
    /// ([`Process::same_live`]): its proc, next block and live locals; or that it
    /// failed; 0 for a process that ended normally, which holds nothing.
    pub fn live_key(&self) -> Fingerprint {
        self.live_key
    }

    /// Computes [`Process::live_key`] again: after anything changed its next block,
    /// its locals or whether it failed (only the executor changes them).
    pub fn rehash(&mut self, program: &Program) {
        self.live_key = match self.next {
            _ if self.failed => fingerprint(&(self.proc, "failed")),
            None => 0,
            Some(block) => live_key(program, self.proc, block, &self.locals),
        };
        self.identity_key = fingerprint(&(self.pid_key, self.live_key));
    }

    /// Both kept fingerprints, for [`Process::restore_keys`].
    pub(crate) fn keys(&self) -> [Fingerprint; 2] {
        [self.live_key, self.identity_key]
    }

    /// Sets the kept fingerprints to those taken before with the same next block,
    /// locals and failure (the executor, stepping back).
    pub(crate) fn restore_keys(&mut self, [live, identity]: [Fingerprint; 2]) {
        self.live_key = live;
        self.identity_key = identity;
    }

    /// The live locals of the process at `block` as the user named them, `name = value`.
    pub fn live_locals(&self, program: &Program, block: BlockId) -> Vec<String> {
        let code = &program.procs[self.proc as usize].code;
        program.blocks[block as usize]
            .live
            .iter()
            .filter(|&&l| !code.locals[l as usize].hidden)
            .map(|&l| {
                format!(
                    "{} = {}",
                    code.locals[l as usize].name, self.locals[l as usize]
                )
            })
            .collect()
    }

    pub fn set_next(&mut self, next: Next) {
        self.next = match next {
            Next::Block(b) => Some(b),
            Next::End => None,
        };
    }
}

/// The processes in creation order along the current execution, and the memory.
/// (The default state, with no globals and no process, is only a placeholder.)
///
/// Each process is shared between the states copied from one another until one of
/// them changes it (`Arc::make_mut`): the DPOR searches copy the state at every
/// node of the path (for their state checks), and a step changes one process. On
/// Fib(14), 2,437 processes and a path of 2,438 nodes, copying each process took a
/// third of the search and 600 MB.
#[derive(Debug, Default)]
pub struct State {
    pub mem: Memory,
    pub procs: Vec<Arc<Process>>,
}

/// `clone_from` reuses the buffers of the memory's slots and of the list of
/// processes, which are shared.
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            mem: self.mem.clone(),
            procs: self.procs.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.mem.clone_from(&source.mem);
        self.procs.clone_from(&source.procs);
    }
}

impl State {
    /// The state identity of docs/language.md: global memory plus the multiset of live
    /// processes, each as (procedure, next block, live locals). Identities and dead
    /// locals are bookkeeping, not state; ended processes hold nothing.
    pub fn fingerprint(&self) -> Fingerprint {
        // Processes are combined by a commutative sum: a multiset, whatever their order
        // (an ended process adds 0: nothing).
        let live = (self.procs.iter())
            .map(|p| p.live_key())
            .fold(0u128, u128::wrapping_add);
        fingerprint(&(&self.mem, live))
    }

    /// Equality that also tells processes apart by identity: the globals and, for
    /// every process, its identity, next block and live locals. The stateful
    /// searches store states by it (their explored graph names processes by
    /// identity), and the lasso check of non-terminating executions and `--replay`'s
    /// of a cycle compare by it; state checks use [`State::check_fingerprint`].
    pub fn fingerprint_with_identities(&self) -> Fingerprint {
        let procs = (self.procs.iter())
            .map(|p| p.identity_key)
            .fold(0u128, u128::wrapping_add);
        fingerprint(&(&self.mem, procs))
    }

    /// The equality of the state checks (csdpor's, cdpor's, the don't-do sequences of
    /// odpor-cs): [`State::fingerprint`], the language's state equality, which sees
    /// processes as a multiset of (proc, next block, live locals), modulo the dead
    /// globals ([`State::dead_globals`], `end_reads` as there), whose values no
    /// continuation reads before the write that every continuation runs (or, where
    /// the end reads nothing, ever).
    ///
    /// Why identities may be left out: what a step does depends on its process's
    /// proc, next block and locals (the live ones: the others are written before
    /// they are read) and on the memory, never on the process's identity, which only
    /// names it and the processes it spawns. So between two states equal so, a
    /// bijection of their processes (extended to what they spawn) maps every
    /// execution of one to an execution of the other that runs the same blocks with
    /// the same values: the same final states (compared without identities), the
    /// same violations (kind, message, block) and the same deadlocks. A subtree
    /// explored from the one covers what the other's would reach, which is all a
    /// state check assumes. Where two states differ only in which process spawned a
    /// pending task, checks that compared identities explored both (issue 46;
    /// `tests/regressions/a_pending_task_spawned_by_either_of_two_equal_callers.ic`).
    pub fn check_fingerprint(&self, program: &Program, end_reads: bool) -> Fingerprint {
        let dead = self.dead_globals(program, end_reads);
        let live = (self.procs.iter())
            .map(|p| p.live_key())
            .fold(0u128, u128::wrapping_add);
        fingerprint(&(MemoryExcept(&self.mem, program, &dead), live))
    }

    /// The globals whose values are dead in this state (see
    /// [`frontend::analysis::overwrites`]): overwritten by the unguarded next block of a live
    /// process before it reads them, and read by no other live process nor any
    /// process one may spawn. In increasing order.
    ///
    /// Why a state check may ignore them: from this state, every complete execution
    /// runs that block (it stays enabled), and until it does nothing reads the value
    /// (its own straight-line prefix writes it before reading it; nobody else ever
    /// reads it), so two states that differ only there run the same events with the
    /// same reads and local states — the same footprints, enabled sets and failures —
    /// and are equal after the write, with every later read, the final memory
    /// included, the same. Should the block fail, its write is undone, but an
    /// execution with a failure records no final state or deadlock, and no violation
    /// reads the value.
    ///
    /// `end_reads`: whether the end of an execution reads the memory, as a final
    /// state does. Where it does not (`--violations-only` under observers: only
    /// violations and deadlocks are promised, [`crate::dependency::observers::end_reads`]), a
    /// global (scalar, array or map) that no live process, nor any it may spawn, may
    /// ever read is dead too, whole: no event of any continuation reads it, so two states that differ
    /// only there run the same events with the same reads, and reach the same
    /// violations and deadlocks (a deadlock is its stuck processes, not the memory).
    pub fn dead_globals(&self, program: &Program, end_reads: bool) -> Vec<GlobalId> {
        let mut dead = Vec::new();
        if !end_reads {
            let read = self.may_read(program);
            dead.extend((0..read.len()).filter(|&g| !read[g]).map(|g| g as GlobalId));
        }
        for (i, p) in self.procs.iter().enumerate() {
            // A process that failed has no next block.
            let Some(block) = p.next else {
                continue;
            };
            for &g in &program.blocks[block as usize].overwrites {
                let read_elsewhere = self.procs.iter().enumerate().any(|(j, q)| {
                    j != i
                        && q.next.is_some()
                        && program.procs[q.proc as usize]
                            .reads
                            .binary_search(&g)
                            .is_ok()
                });
                if !read_elsewhere {
                    dead.push(g);
                }
            }
        }
        dead.sort_unstable();
        dead.dedup();
        dead
    }

    /// Per global, whether a live process, or one it may spawn, may ever read it
    /// (`frontend::analysis::overwrites::proc_reads`).
    pub fn may_read(&self, program: &Program) -> Vec<bool> {
        self.live_reads(program, |_| true)
    }

    /// [`State::may_read`] as if process `ended` had ended (its step spawning none).
    pub fn may_read_but(&self, program: &Program, ended: usize) -> Vec<bool> {
        self.live_reads(program, |i| i != ended)
    }

    fn live_reads(&self, program: &Program, counted: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut out = vec![false; program.globals.len()];
        let live = self
            .procs
            .iter()
            .enumerate()
            .filter(|&(i, p)| p.next.is_some() && counted(i))
            .map(|(_, p)| p.proc);
        for proc in live {
            for &g in &program.procs[proc as usize].reads {
                out[g as usize] = true;
            }
        }
        out
    }

    /// The equality [`State::check_fingerprint`] stands for, decided exactly and
    /// without hashing everything: for two states run from a common one, whose
    /// untouched maps are shared and whose processes are mostly in the same order.
    pub fn same_with_identities(&self, other: &State, program: &Program, end_reads: bool) -> bool {
        // Equal processes have the same dead globals (they depend on the processes'
        // procs and next blocks only).
        self.procs.len() == other.procs.len()
            && self.procs.iter().enumerate().all(|(i, p)| {
                let q = match other.procs.get(i) {
                    Some(q) if q.pid_key == p.pid_key => Some(q),
                    _ => other.procs.iter().find(|q| q.pid_key == p.pid_key),
                };
                q.is_some_and(|q| p.same_live(q, program))
            })
            && self
                .mem
                .same_except(&other.mem, program, &self.dead_globals(program, end_reads))
    }

    /// The state as a user reads it: globals, then each process.
    pub fn show<'a>(&'a self, program: &'a Program) -> ShowState<'a> {
        ShowState {
            state: self,
            program,
        }
    }

    /// How reports name a process: its proc name, plus `@pid` when the name alone is ambiguous.
    pub fn process_name(&self, program: &Program, index: usize) -> String {
        let p = &self.procs[index];
        let name = &program.procs[p.proc as usize].name;
        let same = self.procs.iter().filter(|q| q.proc == p.proc).count();
        if same > 1 {
            format!("{name}@{}", p.pid)
        } else {
            name.clone()
        }
    }
}

pub struct ShowState<'a> {
    state: &'a State,
    program: &'a Program,
}

impl fmt::Display for ShowState<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let program = self.program;
        write!(f, "{}", self.state.mem.show(program))?;
        for (i, p) in self.state.procs.iter().enumerate() {
            let mut line = format!("\n    {}: ", self.state.process_name(program, i));
            match p.next {
                None => line.push_str("ended"),
                Some(b) => {
                    let block = &program.blocks[b as usize];
                    let _ = write!(line, "at {}", block.name);
                    let locals = p.live_locals(program, b);
                    if !locals.is_empty() {
                        let _ = write!(line, " {{{}}}", locals.join(", "));
                    }
                }
            }
            f.write_str(&line)?;
        }
        Ok(())
    }
}
