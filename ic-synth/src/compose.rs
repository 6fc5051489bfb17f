//! The formula of a pair (Def. 5 and 6 of the CDPOR paper, extended to the whole
//! state): `F = ∨_{i,j} (C_i ∧ C'_j ∧ same state)` over the paths `i` of `a·b` and
//! `j` of `b·a`, under the background "both blocks are enabled".
//!
//! Block `a` runs as the process in slot 0, block `b` as the process in slot 1 (its
//! locals are the primed ones). "Same state" is: every global equal (arrays and maps
//! element-wise), both processes at the same next block with equal live locals
//! there, and equal multisets of spawned processes (procedure and live arguments),
//! matched modulo any permutation (Def. 6, exactly rather than syntactically).

use frontend::interp::Next;
use frontend::ir::{BlockId, Program};
use frontend::symbolic::{
    atom_range, val_eq, Abort, Exec, Form, Fun, GlobalVal, IAtom, Lin, Slot, SpawnKind, Spawned,
    State, Val,
};

/// Disjuncts of F beyond which the pair is given up.
const MAX_DISJUNCTS: usize = 2_000;
/// Spawns of one procedure matched by trying every permutation up to this many.
const MAX_PERMUTED: usize = 5;

/// The formula of a pair, ready for AllSAT.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Assumed: both blocks enabled, and the program's axioms.
    pub background: Vec<Form>,
    /// The pair commutes.
    pub f: Form,
    /// No abstraction was used: a cube is then also necessary for its part.
    pub exact: bool,
    /// What abstraction was used, when one was.
    pub abstractions: Vec<String>,
}

/// How big a pair's formula may grow before an attempt is given up.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Paths of one composition `a·b`.
    pub paths: usize,
    /// Leaves of F.
    pub size: usize,
}

/// Beyond these, unrolling loops is not worth it (they are then abstracted at
/// once). The "no overflow" conditions of the arithmetic make F about two and a
/// half times as large as without them; the conditions that lists stay within
/// their length limit, up to a seventh more (`pc.ic`'s consumer against itself:
/// 929 leaves without them, 1,069 with them, which 1,000 would have abstracted).
pub const UNROLLED: Limits = Limits {
    paths: 512,
    size: 1200,
};
/// Beyond these, a pair is not worth the solver's time. A block with a few
/// `min`/`max` and map writes under a branch has dozens of paths, and two of them
/// composed thousands (PS's `process`, 2,880): most pairs of paths contradict each
/// other and cost nothing.
pub const LAST: Limits = Limits {
    paths: 4096,
    size: 10_000,
};

impl Problem {
    /// A measure of F's size: its leaves, counted with repetition.
    pub fn size(&self) -> usize {
        leaves(&self.f)
    }
}

fn leaves(f: &Form) -> usize {
    match f {
        Form::True | Form::False => 0,
        Form::Not(a) => leaves(a),
        Form::And(fs) | Form::Or(fs) => fs.iter().map(leaves).sum(),
        Form::Iff(a, b) => leaves(a) + leaves(b),
        _ => 1,
    }
}

/// One path of a composition.
struct Composed {
    state: State,
    /// Next block of the process in slot 0 and in slot 1.
    next: [Next; 2],
}

pub fn pair_problem(
    exec: &Exec<'_>,
    a: BlockId,
    b: BlockId,
    limits: Limits,
) -> Result<Problem, Abort> {
    let program = exec.program;
    let pa = program.blocks[a as usize].proc;
    let pb = program.blocks[b as usize].proc;
    exec.reset_inexact();
    let s0 = exec.initial_state(&[(0, pa), (1, pb)]);
    let enabled = |block: BlockId, slot: Slot| -> Result<Form, Abort> {
        let cases = exec.guard(block, slot, &s0)?;
        Ok(Form::or(cases.into_iter().map(|(mut c, g)| {
            c.push(g);
            Form::and(c)
        })))
    };
    let mut background = vec![enabled(a, 0)?, enabled(b, 1)?];
    background.extend(exec.axioms().iter().cloned());
    let ab = compose(exec, &s0, (a, 0), (b, 1), limits.paths)?;
    let ba = compose(exec, &s0, (b, 1), (a, 0), limits.paths)?;
    let mut spawn_exact = true;
    let mut disjuncts = Vec::new();
    let mut size = 0;
    // Each path's conditions once, sorted: pairs of paths are many, and a pair whose
    // conditions plainly contradict each other is skipped without building it.
    let conditions = |paths: &[Composed]| -> Vec<Vec<Form>> {
        paths
            .iter()
            .map(|p| match Form::and(p.state.path.iter().cloned()) {
                Form::And(fs) => fs,
                Form::True => Vec::new(),
                f => vec![f],
            })
            .collect()
    };
    let (ab_conds, ba_conds) = (conditions(&ab), conditions(&ba));
    for (p, pc) in ab.iter().zip(&ab_conds) {
        if pc.contains(&Form::False) {
            continue;
        }
        for (q, qc) in ba.iter().zip(&ba_conds) {
            if p.next != q.next || qc.contains(&Form::False) || contradict(pc, qc) {
                continue;
            }
            let mut parts: Vec<Form> = Vec::new();
            parts.extend(pc.iter().cloned());
            parts.extend(qc.iter().cloned());
            parts.push(same_state(program, p, q, &mut spawn_exact)?);
            let d = Form::and(parts);
            if d != Form::False {
                size += leaves(&d);
                disjuncts.push(d);
            }
            if disjuncts.len() > MAX_DISJUNCTS || size > limits.size {
                return Err(Abort::TooManyPaths);
            }
        }
    }
    let f = Form::or(disjuncts);
    let mut abstractions: Vec<String> = Vec::new();
    let mut atoms: Vec<IAtom> = Vec::new();
    {
        let mut visit = |node: frontend::symbolic::Node<'_>| match node {
            frontend::symbolic::Node::Fun(fun) => {
                let s = describe(program, fun);
                if !abstractions.contains(&s) {
                    abstractions.push(s);
                }
            }
            frontend::symbolic::Node::Int(a) if !atoms.contains(a) => {
                atoms.push(a.clone());
            }
            _ => {}
        };
        use frontend::symbolic::Visit;
        f.visit(&mut visit);
        for g in &background {
            g.visit(&mut visit);
        }
    }
    if !spawn_exact {
        abstractions.push("spawn multisets matched in one order".to_string());
    }
    if exec.inexact() && abstractions.is_empty() {
        abstractions.push("abstraction".to_string());
    }
    abstractions.sort();
    // What the state holds is 64-bit (and lists have no negative length): without
    // these facts the solver would need constraints to rule out values no state has,
    // such as `x + 1` overflowing for an `x` above `i64::MAX`.
    for a in atoms {
        if matches!(a, IAtom::DivC(..) | IAtom::ModC(..)) {
            // The solver computes these from their operand.
            continue;
        }
        if let Some((lo, hi)) = atom_range(&a) {
            let t = Lin::atom(a);
            background.push(Form::le(t.add_const(-hi)?));
            background.push(Form::le(t.neg()?.add_const(lo)?));
        }
    }
    Ok(Problem {
        background,
        f,
        exact: !exec.inexact() && spawn_exact,
        abstractions,
    })
}

/// Whether two sorted conjunctions hold a literal and its negation (what
/// [`Form::and`] of both would find).
fn contradict(x: &[Form], y: &[Form]) -> bool {
    let has = |fs: &[Form], f: &Form| fs.binary_search(f).is_ok();
    x.iter().any(|f| match f {
        Form::Not(g) => has(y, g),
        f => has(y, &f.clone().not()),
    }) || y.iter().any(|f| matches!(f, Form::Not(g) if has(x, g)))
}

fn describe(program: &Program, fun: &Fun) -> String {
    match fun {
        Fun::Mul | Fun::Div | Fun::Mod => "non-linear arithmetic".to_string(),
        Fun::List(_) => "list operations".to_string(),
        Fun::Call(f) | Fun::CallOk(f) => {
            format!("call of fun `{}`", program.funs[*f as usize].name)
        }
        Fun::Loop { proc, .. } => format!("loop in proc `{}`", program.procs[*proc as usize].name),
    }
}

/// The paths of `first·second` from `s0`, each with both processes' continuations.
fn compose(
    exec: &Exec<'_>,
    s0: &State,
    first: (BlockId, Slot),
    second: (BlockId, Slot),
    max_paths: usize,
) -> Result<Vec<Composed>, Abort> {
    let mut out = Vec::new();
    for s in exec.enabled(first.0, first.1, s0)? {
        for o in exec.run_block(first.0, first.1, s)? {
            for s2 in exec.enabled(second.0, second.1, &o.state)? {
                for o2 in exec.run_block(second.0, second.1, s2)? {
                    let mut next = [Next::End; 2];
                    next[first.1 as usize] = o.next;
                    next[second.1 as usize] = o2.next;
                    out.push(Composed {
                        state: o2.state,
                        next,
                    });
                    if out.len() > max_paths {
                        return Err(Abort::TooManyPaths);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The two final states are the same (their continuations are already equal).
fn same_state(
    program: &Program,
    p: &Composed,
    q: &Composed,
    spawn_exact: &mut bool,
) -> Result<Form, Abort> {
    let mut parts = Vec::new();
    for (x, y) in p.state.globals.iter().zip(&q.state.globals) {
        let f = match (x, y) {
            (GlobalVal::Scalar(x), GlobalVal::Scalar(y)) => val_eq(x, y)?,
            (x, y) => val_eq(&x.as_val(), &y.as_val())?,
        };
        if f == Form::False {
            return Ok(Form::False);
        }
        parts.push(f);
    }
    for slot in 0..2 {
        if let Next::Block(n) = p.next[slot] {
            for &l in &program.blocks[n as usize].live {
                let f = val_eq(
                    &p.state.locals[slot][l as usize],
                    &q.state.locals[slot][l as usize],
                )?;
                if f == Form::False {
                    return Ok(Form::False);
                }
                parts.push(f);
            }
        }
    }
    parts.push(same_spawns(
        program,
        &p.state.spawns,
        &q.state.spawns,
        spawn_exact,
    )?);
    Ok(Form::and(parts))
}

/// What identifies a spawned process for state equality: its procedure (or the bag
/// function) and the arguments that are live at its entry.
fn spawn_key(program: &Program, s: &Spawned) -> (String, Vec<Val>) {
    match &s.what {
        SpawnKind::Proc(p, args) => {
            let entry = program.procs[*p as usize].entry;
            let live = &program.blocks[entry as usize].live;
            let args = args
                .iter()
                .enumerate()
                .filter(|(i, _)| live.contains(&(*i as u32)))
                .map(|(_, v)| v.clone())
                .collect();
            (format!("proc {p}"), args)
        }
        SpawnKind::Bag(f, args) => (format!("{f:?}"), args.clone()),
    }
}

fn same_spawns(
    program: &Program,
    xs: &[Spawned],
    ys: &[Spawned],
    exact: &mut bool,
) -> Result<Form, Abort> {
    let mut left: Vec<(String, Vec<Val>)> = xs.iter().map(|s| spawn_key(program, s)).collect();
    let mut right: Vec<(String, Vec<Val>)> = ys.iter().map(|s| spawn_key(program, s)).collect();
    left.sort();
    right.sort();
    let names = |v: &[(String, Vec<Val>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    if names(&left) != names(&right) {
        return Ok(Form::False);
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < left.len() {
        let mut j = i;
        while j < left.len() && left[j].0 == left[i].0 {
            j += 1;
        }
        let l: Vec<&Vec<Val>> = left[i..j].iter().map(|(_, a)| a).collect();
        let r: Vec<&Vec<Val>> = right[i..j].iter().map(|(_, a)| a).collect();
        parts.push(multiset_eq(&l, &r, exact)?);
        i = j;
    }
    Ok(Form::and(parts))
}

fn args_eq(x: &[Val], y: &[Val]) -> Result<Form, Abort> {
    let mut parts = Vec::new();
    for (a, b) in x.iter().zip(y) {
        parts.push(val_eq(a, b)?);
    }
    Ok(Form::and(parts))
}

/// Equal multisets of argument lists: some bijection matches them.
fn multiset_eq(l: &[&Vec<Val>], r: &[&Vec<Val>], exact: &mut bool) -> Result<Form, Abort> {
    if l == r {
        return Ok(Form::True);
    }
    if l.len() > MAX_PERMUTED {
        // Sorted order only: sufficient, not necessary.
        *exact = false;
        let mut parts = Vec::new();
        for (x, y) in l.iter().zip(r) {
            parts.push(args_eq(x, y)?);
        }
        return Ok(Form::and(parts));
    }
    let mut options = Vec::new();
    let mut perm: Vec<usize> = (0..r.len()).collect();
    permutations(&mut perm, 0, &mut |p| {
        let mut parts = Vec::new();
        for (i, &j) in p.iter().enumerate() {
            match args_eq(l[i], r[j]) {
                Ok(f) => parts.push(f),
                Err(_) => parts.push(Form::False),
            }
        }
        options.push(Form::and(parts));
    });
    Ok(Form::or(options))
}

fn permutations(v: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, f);
        v.swap(k, i);
    }
}
