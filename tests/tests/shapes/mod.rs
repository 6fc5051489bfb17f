//! The shapes the generator is steered towards, each one that broke a reduced
//! algorithm before, and the test that the generator produces every one of them.

use super::*;

/// Every statement of `body`, nested ones included.
fn all_stmts(body: &[Stmt]) -> Vec<&Stmt> {
    let mut out = Vec::new();
    for s in body {
        out.push(s);
        match s {
            Stmt::If(_, a, b) => {
                out.extend(all_stmts(a));
                out.extend(all_stmts(b));
            }
            Stmt::For(_, a) | Stmt::While(_, _, a) => out.extend(all_stmts(a)),
            _ => {}
        }
    }
    out
}

/// `g = ..;` of a global (indices 0, 1, 2 are `x`, `y`, `z` in every scope).
fn writes_global(s: &Stmt) -> bool {
    matches!(s, Stmt::Assign(g, _) if *g < 3)
}

/// A loop of at least two iterations whose body writes a global under an `if`.
fn loop_around_guarded_write(s: &Stmt) -> bool {
    let (n, body) = match s {
        Stmt::For(bound, body) => (bound.max(), body),
        Stmt::While(_, n, body) => (u64::from(*n), body),
        _ => return false,
    };
    n >= 2
        && all_stmts(body)
            .iter()
            .any(|s| matches!(s, Stmt::If(_, then, _) if then.iter().any(writes_global)))
}

/// `if (i > 5) { .. }` on a loop variable of a loop with fewer iterations.
fn never_true_loop_guard(s: &Stmt) -> bool {
    matches!(s, Stmt::If(BoolExpr::Cmp(Cmp::Gt, IntExpr::LoopVar, IntExpr::Const(c)), ..) if *c >= 3)
}

/// `if (y == 0) { x = 1; }`: a test of a global guarding a write of one.
fn guarded_write(s: &Stmt) -> bool {
    matches!(s, Stmt::If(BoolExpr::Cmp(_, IntExpr::Var(g), IntExpr::Const(_)), then, _)
        if *g < 3 && then.iter().any(writes_global))
}

/// `y = y + 1;`
fn increment(s: &Stmt) -> bool {
    matches!(s, Stmt::Assign(g, IntExpr::Bin(Arith::Add, a, c))
        if *g < 3 && matches!(**a, IntExpr::Var(h) if h == *g) && matches!(**c, IntExpr::Const(1)))
}

/// `x = c;`: the (global, constant) written.
fn constant_write(s: &Stmt) -> Option<(u8, i64)> {
    match s {
        Stmt::Assign(g, IntExpr::Const(c)) if *g < 3 => Some((*g, *c)),
        _ => None,
    }
}

/// Whether a generated program (its value, its text, naive's report) has a shape.
type Shape = fn(&Program, &str, &Report) -> bool;

/// The shapes of the generator, each a predicate on a generated program (its value, its
/// text, and what naive finds in it). `generator_produces_every_shape` fails if one of
/// them never shows up.
fn shapes() -> Vec<(&'static str, Shape)> {
    fn live_stmts(p: &Program, pred: &dyn Fn(&Stmt) -> bool) -> bool {
        let live = p.instances();
        p.procs
            .iter()
            .enumerate()
            .any(|(j, proc)| live.contains(&j) && all_stmts(&proc.body).into_iter().any(pred))
    }
    /// A proc spawned at least twice by `init` has a statement `pred` selects.
    fn twice(p: &Program, pred: &dyn Fn(&Stmt) -> bool) -> bool {
        let counts = p.init_counts();
        p.procs
            .iter()
            .enumerate()
            .any(|(j, proc)| counts[j] >= 2 && all_stmts(&proc.body).into_iter().any(pred))
    }
    fn runtime(r: &Report, what: &str) -> bool {
        r.violations
            .iter()
            .any(|v| v.kind == ViolationKind::Runtime && v.message.contains(what))
    }
    vec![
        (
            "loop of 2+ iterations around a guarded global write",
            |p, _, _| live_stmts(p, &loop_around_guarded_write),
        ),
        (
            "never-true guard on the loop variable (`if (i0 > 5)`)",
            |p, _, _| live_stmts(p, &never_true_loop_guard),
        ),
        ("await-only process", |p, _, _| {
            let live = p.instances();
            p.procs.iter().enumerate().any(|(j, proc)| {
                live.contains(&j) && matches!(proc.body.as_slice(), [Stmt::Await(_)])
            })
        }),
        (
            "a global written, then overwritten after a `yield`",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    live.contains(&j)
                    && proc.body.windows(3).any(|w| {
                        matches!(w, [Stmt::Assign(g, _), Stmt::Yield, Stmt::Assign(h, _)] if g == h)
                    })
                })
            },
        ),
        ("the same proc spawned twice by init", |p, _, _| {
            p.init_counts().iter().any(|&n| n >= 2)
        }),
        ("`y = y + 1` in a proc spawned twice", |p, _, _| {
            twice(p, &increment)
        }),
        ("`x = c` in a proc spawned twice", |p, _, _| {
            twice(p, &|s| constant_write(s).is_some())
        }),
        ("the same `x = c` in two procs", |p, _, _| {
            let live = p.instances();
            let writes: Vec<BTreeSet<(u8, i64)>> = p
                .procs
                .iter()
                .enumerate()
                .map(|(j, proc)| {
                    if live.contains(&j) {
                        all_stmts(&proc.body)
                            .into_iter()
                            .filter_map(constant_write)
                            .collect()
                    } else {
                        BTreeSet::new()
                    }
                })
                .collect();
            (0..writes.len())
                .any(|i| (i + 1..writes.len()).any(|j| !writes[i].is_disjoint(&writes[j])))
        }),
        ("guarded write (`if (y == 0) { x = 1; }`)", |p, _, _| {
            live_stmts(p, &guarded_write)
        }),
        (
            "a global a block overwrites and no other proc reads (dead in state checks)",
            |_, s, _| {
                let program = tests::load(s, &[]);
                program.blocks.iter().any(|b| {
                    b.overwrites.iter().any(|g| {
                        program
                            .procs
                            .iter()
                            .enumerate()
                            .all(|(q, proc)| q == b.proc as usize || !proc.reads.contains(g))
                    })
                })
            },
        ),
        (
            "an array or map a live proc writes and no proc reads (dead whole under --violations-only)",
            |p, s, _| {
                let program = tests::load(s, &[]);
                let unread = |name: &str| {
                    program.globals.iter().enumerate().any(|(g, global)| {
                        global.name == name
                            && program.procs.iter().all(|proc| !proc.reads.contains(&(g as u32)))
                    })
                };
                (unread("a") && live_stmts(p, &|s| matches!(s, Stmt::ArrayWrite(..))))
                    || (unread("m") && live_stmts(p, &|s| matches!(s, Stmt::MapWrite(..))))
            },
        ),
        (
            "a block branches on what an earlier block of its process read",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    let body = &proc.body;
                    let at = |pred: &dyn Fn(&Stmt) -> bool| body.iter().position(pred);
                    let read = at(&|s| matches!(s, Stmt::Local(IntExpr::Var(_))));
                    let branch =
                        at(&|s| matches!(s, Stmt::If(BoolExpr::Cmp(_, IntExpr::Recent, _), ..)));
                    live.contains(&j)
                        && read.zip(branch).is_some_and(|(r, b)| {
                            r < b && body[r..b].iter().any(|s| matches!(s, Stmt::Yield))
                        })
                })
            },
        ),
        (
            "an assertion on a global, then a spawn (observer, then overwriter)",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    let body = &proc.body;
                    live.contains(&j)
                        && body.windows(2).any(|w| {
                            matches!(w[0], Stmt::Assert(BoolExpr::Cmp(_, IntExpr::Var(_), _), _))
                                && matches!(w[1], Stmt::Spawn(..))
                        })
                })
            },
        ),
        (
            "a counter's increment raising a flag, in a proc spawned twice (DB_backup)",
            |p, _, _| {
                let counts = p.init_counts();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    counts[j] >= 2
                        && proc.body.windows(2).any(|w| {
                            matches!(
                                w,
                                [
                                    Stmt::Assign(_, IntExpr::Bin(Arith::Add, ..)),
                                    Stmt::Assign(0, IntExpr::Const(1))
                                ]
                            )
                        })
                })
            },
        ),
        (
            "a write read back by its process in a later block (`x = 2; yield; y = x + z;`)",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    live.contains(&j)
                        && proc.body.windows(3).any(|w| match w {
                            [Stmt::Assign(g, IntExpr::Const(_)), Stmt::Yield, Stmt::Assign(_, IntExpr::Bin(Arith::Add, read, _))] => {
                                matches!(**read, IntExpr::Var(r) if r == *g)
                            }
                            _ => false,
                        })
                })
            },
        ),
        (
            "a flag held across a yield (`await (x == 0); x = 1; yield; .. x = 0;`)",
            |p, _, _| {
                let live = p.instances();
                p.procs.iter().enumerate().any(|(j, proc)| {
                    live.contains(&j)
                        && proc.body.windows(3).any(|w| {
                            matches!(
                                w,
                                [
                                    Stmt::Await(BoolExpr::Cmp(Cmp::Eq, IntExpr::Var(g), IntExpr::Const(0))),
                                    Stmt::Assign(h, IntExpr::Const(1)),
                                    Stmt::Yield
                                ] if g == h
                            )
                        })
                })
            },
        ),
        ("spin on a global (`while (x == 0) { }`)", |p, _, _| {
            live_stmts(p, &|s| matches!(s, Stmt::Spin(_)))
        }),
        ("a global near i64::MAX or i64::MIN", |p, _, _| {
            p.globals.ints.iter().any(|v| v.unsigned_abs() > 1 << 62)
        }),
        ("list operations", |_, s, _| {
            ["append(", "tail(", "head(", "take(", "drop(", "l["]
                .iter()
                .any(|w| s.contains(w))
        }),
        (
            "an array of lists (`c[i] = append(c[i], ..)`, `head(c[i])`)",
            |_, s, _| s.contains("(c["),
        ),
        ("map reads or writes", |_, s, _| {
            s.contains("m[") || s.contains("has(m")
        }),
        (
            "an access located by a global (`m[x]`, `a[a[..]]`, a scan of `a`)",
            |_, s, _| {
                ["[x]", "[y]", "[z]", "[a[", "[m["]
                    .iter()
                    .any(|w| s.contains(w))
                    || s.contains("&& (a[n")
            },
        ),
        ("assertions", |_, s, _| s.contains("assert(")),
        ("a fun", |_, s, _| s.contains("fun f")),
        ("naive: a deadlock", |_, _, r| {
            r.violations
                .iter()
                .any(|v| v.kind == ViolationKind::Deadlock)
        }),
        ("naive: a failed assertion", |_, _, r| {
            r.violations.iter().any(|v| v.kind == ViolationKind::Assert)
        }),
        ("naive: an integer overflow", |_, _, r| {
            runtime(r, "overflow")
        }),
        ("naive: a block that did not terminate", |_, _, r| {
            runtime(r, "did not terminate")
        }),
        (
            "naive: a violation in some orders and a final state in others",
            |_, _, r| !r.violations.is_empty() && r.stats.final_states > 0,
        ),
        ("naive: several final states", |_, _, r| {
            r.stats.final_states > 1
        }),
    ]
}

/// The generator produces every shape of [`shapes`]: over 1,000 programs of this run's
/// seed, each shape occurs at least 10 times (each is meant to be common, a few
/// percent of programs or more, so that a run of the differential test exercises it).
#[test]
fn generator_produces_every_shape() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..proptest_config()
    });
    let strategy = strategy::program();
    let shapes = shapes();
    let mut counts = vec![0u32; shapes.len()];
    let programs = 1000;
    for _ in 0..programs {
        let generated = strategy
            .new_tree(&mut runner)
            .expect("the strategy always generates")
            .current();
        let source = generated.source();
        let naive = explorer::explore(&tests::load(&source, &[]), &mut Naive::default(), config());
        for ((_, shape), count) in shapes.iter().zip(&mut counts) {
            if shape(&generated, &source, &naive) {
                *count += 1;
            }
        }
    }
    let mut table = format!("shapes in {programs} programs (IC_DIFF_SEED={}):\n", seed());
    for ((name, _), count) in shapes.iter().zip(&counts) {
        let _ = writeln!(table, "{count:>6}  {name}");
    }
    println!("{table}");
    let rare: Vec<&str> = shapes
        .iter()
        .zip(&counts)
        .filter(|(_, &n)| n < 10)
        .map(|((name, _), _)| *name)
        .collect();
    assert!(
        rare.is_empty(),
        "shapes seen fewer than 10 times: {rare:?}\n{table}"
    );
}

/// The cyclic programs of the stateful searches' differential test
/// (`strategy::cyclic_program`) have the cycles they are made for: over 300
/// programs of this run's seed, a process that spins across blocks, a server loop,
/// a compare-and-swap retry loop, a back-off, a cycle the program can reach
/// (naive, a stateless search, reports a non-terminating execution), and a livelock
/// (a fair cycle: `--livelocks`), each at least 10 times.
#[test]
fn the_cyclic_generator_produces_reachable_cycles() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..proptest_config()
    });
    let strategy = strategy::cyclic_program();
    let (mut spins, mut servers, mut retries, mut backoffs) = (0, 0, 0, 0);
    let (mut reached, mut livelocks) = (0, 0);
    let programs = 300;
    for _ in 0..programs {
        let generated = strategy
            .new_tree(&mut runner)
            .expect("the strategy always generates")
            .current();
        let has = |pred: &dyn Fn(&Stmt) -> bool| {
            (generated.procs.iter()).any(|p| all_stmts(&p.body).into_iter().any(pred))
        };
        spins += u32::from(has(&|s| matches!(s, Stmt::SpinYield(_))));
        servers += u32::from(has(&|s| matches!(s, Stmt::Serve(_))));
        retries += u32::from(has(&|s| matches!(s, Stmt::CasRetry(_))));
        backoffs += u32::from(has(&|s| matches!(s, Stmt::Backoff(..))));
        // No depth bound: naive runs into the recurring state, reported from depth
        // 1,000 on, rather than into `config`'s depth limit.
        let program = tests::load(&generated.source(), &[]);
        let naive = explorer::explore(&program, &mut Naive::default(), stateful_config());
        let found = |r: &explorer::Report, kind| r.violations.iter().any(|v| v.kind == kind);
        reached += u32::from(found(&naive, ViolationKind::NonTermination));
        let config = explorer::Config {
            livelocks: true,
            ..stateful_config()
        };
        let stateful = explorer::explore(
            &program,
            &mut explorer::algorithms::stateful::Stateful,
            config,
        );
        livelocks += u32::from(found(&stateful, ViolationKind::Livelock));
    }
    let table = format!(
        "cyclic programs (IC_DIFF_SEED={}): {spins} spin across blocks, {servers} serve, \
         {retries} retry a compare-and-swap, {backoffs} back off, {reached} reach a cycle, \
         {livelocks} have a livelock, of {programs}",
        seed()
    );
    println!("{table}");
    let shapes = [spins, servers, retries, backoffs, reached, livelocks];
    assert!(shapes.iter().all(|&n| n >= 10), "{table}");
}
