//! Shared helpers of the ic-synth tests: the programs, and running two blocks in
//! both orders with the interpreter on random concrete states.

#![allow(dead_code)]

use frontend::interp::{Effects, ErrorKind, Fault, Limits, Machine, Next};
use frontend::ir::{BlockId, GlobalKind, ProcId, Program};
use frontend::memory::{Memory, UndoLog};
use frontend::value::{Ty, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Every `.ic` file of a directory of the workspace, sorted.
pub fn programs_in(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ic"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The examples, the benchmark programs and the test programs of this crate.
pub fn all_programs() -> Vec<PathBuf> {
    let mut out = programs_in("examples");
    out.extend(programs_in("benches/programs"));
    out.extend(programs_in("ic-synth/tests/programs"));
    out
}

pub fn load(path: &Path) -> (String, Program) {
    let source = std::fs::read_to_string(path).expect("readable program");
    let program = frontend::load(&source, &[]).unwrap_or_else(|d| {
        panic!("{} does not load: {d:?}", path.display());
    });
    (source, program)
}

/// A small deterministic PRNG (xorshift64*), so that failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Mostly small integers, so that equalities between values are frequent.
    pub fn int(&mut self) -> i64 {
        match self.below(10) {
            0 => self.below(41) as i64 - 20,
            _ => self.below(9) as i64 - 3,
        }
    }

    pub fn value(&mut self, ty: Ty) -> Value {
        match ty {
            Ty::Int => Value::Int(self.int()),
            Ty::Bool => Value::Bool(self.below(2) == 0),
            Ty::List => {
                let n = self.below(4) as usize;
                let items: Vec<i64> = (0..n).map(|_| self.int()).collect();
                Value::List(Arc::from(items))
            }
        }
    }
}

/// A random memory for the program.
pub fn random_memory(program: &Program, rng: &mut Rng) -> Memory {
    let mut mem = Memory::initial(program);
    let mut undo = UndoLog::default();
    for (g, global) in program.globals.iter().enumerate() {
        let g = g as u32;
        match global.kind {
            GlobalKind::Scalar(ty) => mem.set_scalar(g, rng.value(ty), &mut undo),
            GlobalKind::Array { elem, len } => {
                for i in 0..len {
                    mem.set_element(g, i, rng.value(elem), &mut undo);
                }
            }
            GlobalKind::Map => {
                for _ in 0..rng.below(4) {
                    let k = rng.below(7) as i64 - 2;
                    let v = rng.int();
                    mem.set_map(g, k, v, &mut undo);
                }
            }
        }
    }
    mem
}

/// Random values for every local of a proc's frame.
pub fn random_locals(program: &Program, proc: ProcId, rng: &mut Rng) -> Vec<Value> {
    program.procs[proc as usize]
        .code
        .locals
        .iter()
        .map(|l| rng.value(l.ty))
        .collect()
}

/// How running one block and then another ended.
#[derive(Clone, Debug)]
pub enum Run {
    Done {
        mem: Memory,
        /// Locals of the process at block `a` and of the one at block `b`.
        locals: [Vec<Value>; 2],
        next: [Next; 2],
        /// (proc, live arguments), sorted.
        spawns: Vec<(ProcId, Vec<Value>)>,
    },
    /// The second block was not enabled after the first.
    Blocked,
    /// A failure the synthesis models (assertion, division by zero, index, …).
    Fault,
    /// Overflow or a step/depth limit: outside what the constraints promise.
    Assumed,
}

fn classify(f: &Fault) -> Run {
    match f {
        Fault::Runtime(e) => match e.error {
            ErrorKind::Overflow(_) | ErrorKind::StepLimit(_) | ErrorKind::CallDepth(_) => {
                Run::Assumed
            }
            _ => Run::Fault,
        },
        Fault::Assert { .. } => Run::Fault,
    }
}

pub fn live_args(program: &Program, proc: ProcId, args: &[Value]) -> Vec<Value> {
    let entry = program.procs[proc as usize].entry;
    let live = &program.blocks[entry as usize].live;
    args.iter()
        .enumerate()
        .filter(|(i, _)| live.contains(&(*i as u32)))
        .map(|(_, v)| v.clone())
        .collect()
}

/// Runs `blocks[first]` then `blocks[1 - first]`; slot 0 is the process at `a`.
pub fn run_pair(
    m: &Machine<'_>,
    mem: &Memory,
    blocks: [BlockId; 2],
    locals: &[Vec<Value>; 2],
    first: usize,
) -> Run {
    let mut mem = mem.clone();
    let mut locals = locals.clone();
    let mut next = [Next::End; 2];
    let mut spawns = Vec::new();
    for step in 0..2 {
        let slot = if step == 0 { first } else { 1 - first };
        match m.enabled(blocks[slot], &mem, &locals[slot]) {
            Ok(true) => {}
            Ok(false) => return Run::Blocked,
            Err(f) => {
                return match classify(&f) {
                    Run::Assumed => Run::Assumed,
                    _ => Run::Blocked,
                }
            }
        }
        let mut undo = UndoLog::default();
        let mut fx = Effects::default();
        match m.run_block(
            blocks[slot],
            &mut mem,
            &mut locals[slot],
            &mut undo,
            &mut fx,
        ) {
            Ok(n) => next[slot] = n,
            Err(f) => return classify(&f),
        }
        for (p, args) in fx.spawns {
            spawns.push((p, live_args(m.program, p, &args)));
        }
    }
    spawns.sort();
    Run::Done {
        mem,
        locals,
        next,
        spawns,
    }
}

/// Whether both orders ran normally and reached the same state (LANGUAGE.md).
pub fn same(program: &Program, x: &Run, y: &Run) -> bool {
    let (
        Run::Done {
            mem: m1,
            locals: l1,
            next: n1,
            spawns: s1,
        },
        Run::Done {
            mem: m2,
            locals: l2,
            next: n2,
            spawns: s2,
        },
    ) = (x, y)
    else {
        return false;
    };
    if m1 != m2 || n1 != n2 || s1 != s2 {
        return false;
    }
    for slot in 0..2 {
        if let Next::Block(b) = n1[slot] {
            for &l in &program.blocks[b as usize].live {
                if l1[slot][l as usize] != l2[slot][l as usize] {
                    return false;
                }
            }
        }
    }
    true
}

pub fn machine(program: &Program) -> Machine<'_> {
    Machine::new(
        program,
        Limits {
            max_steps: 20_000,
            ..Limits::default()
        },
    )
}
