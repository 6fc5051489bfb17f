//! Mutants of shrunk regression programs against naive: the differential test of
//! [`super::every_algorithm_agrees_with_naive`] on random edits of a few programs that
//! broke a reduced algorithm, rather than on fresh programs.
//!
//! Why: a bug found once sits in a family of programs of the same shape, which the
//! generator reaches rarely. odpor-ob's circular coverage (campaign seed 9002) was 1
//! program in 49,000 generated ones; 65 of 300 edits of its shrunk program lost
//! reads-from classes, and one of them still did after the first fix
//! (`tests/regressions/odpor_ob_an_overwrite_read_after_the_sequence.ic`). So each run
//! edits the seeds below: a statement replaced, added or deleted, a block split or
//! dropped, a spawn dropped, doubled or moved. proptest shrinks the list of edits.
//!
//! A seed lists its procs' blocks (between `yield`s) as statements, with a pool of
//! statements over its globals and parameters to insert. Mutants with more than
//! [`MAX_INTERLEAVINGS`] interleavings of their steps, or on which naive explores
//! more than [`MAX_NAIVE_TRACES`] traces, are skipped (naive explores them all, in
//! the debug build CI runs).
//!
//! Environment: `IC_DIFF_MUTANTS`, mutants per run (default 40); the seed is
//! `IC_DIFF_SEED`'s, as for the other runs of this test.

use super::{config, differential, env_number, proptest_config, seed};
use explorer::algorithms::naive::Naive;
use explorer::{Config, Stop};
use proptest::prelude::*;

/// A program to edit: its declarations, its procs (signature, blocks of statements),
/// its spawns (calls), and the statements an edit may insert.
struct Seed {
    globals: &'static str,
    procs: &'static [(&'static str, &'static [&'static [&'static str]])],
    spawns: &'static [&'static str],
    pool: &'static [&'static str],
}

/// Programs of soundness and completeness bugs found before: odpor-ob's (writes
/// overwritten unread, readers of both globals, the same proc spawned three times),
/// odpor-cs-ob's, the `await` climb of sdpor's family, cdpor's first ones, odpor's
/// failing awaits over a list, odpor-ob's probes at the end, ocdpor's awaits beside
/// commuting writes, the state checks' blocked branches (csdpor, odpor-cs), and
/// the observers' benchmarks FR-a and lastwrite, odpor-ob's checks whose classes a
/// done subtree was trusted with, odpor-cs-ob's blocked prefix with a write its
/// covering prefix did not make, and the same with two overwriters, whose sequences
/// asked for at a block were judged covered by the subtree that asked, and odpor's
/// sleeper at an `await` that the race it was beside disables.
const SEEDS: &[Seed] = &[
    // tests/regressions/odpor_ob_circular_coverage_misses_reads_from_classes.ic
    Seed {
        globals: "global int y = 0;\nglobal int z = 0;\nglobal bool b = false;\n",
        procs: &[
            ("p()", &[&["z = 0;", "y = 0;"], &["y = z;"]]),
            ("q()", &[&["z = 0;"], &["y = 0;"], &["b = y == z;"]]),
        ],
        spawns: &["p()", "p()", "q()", "p()"],
        pool: &[
            "y = 0;",
            "z = 0;",
            "y = 1;",
            "z = 1;",
            "y = z;",
            "z = y;",
            "z = z + 1;",
            "b = y == z;",
            "assert(y == z || b);",
        ],
    },
    // tests/regressions/odpor_ob_a_covered_class_does_not_cover_its_neighbours.ic (q's 9 a
    // parameter, so that every proc has a `v`)
    Seed {
        globals: "global int x = 0;\nglobal int o = 0;\nglobal int c = 0;\n",
        procs: &[
            ("p(int v)", &[&["x = v;", "c = c * 10 + v;"]]),
            ("q(int v)", &[&["x = v;"], &["o = x * 100 + c;"]]),
        ],
        spawns: &["p(1)", "q(9)", "p(2)"],
        pool: &[
            "x = v;",
            "x = 9;",
            "c = c * 10 + v;",
            "o = x * 100 + c;",
            "assert(o != 902);",
            "x = c;",
        ],
    },
    // tests/regressions/odpor_cs_ob_circular_coverage_loses_a_final_state.ic
    Seed {
        globals: "global int y = 0;\nglobal int[1] m;\nglobal int l = 0;\n",
        procs: &[
            ("p()", &[&["y = l;"]]),
            ("q()", &[&["y = 1;"], &["m[0] = y;"]]),
            ("r()", &[&["l = 1;"]]),
        ],
        spawns: &["p()", "q()", "q()", "r()"],
        pool: &[
            "y = l;",
            "y = 1;",
            "m[0] = y;",
            "l = 1;",
            "l = m[0];",
            "assert(m[0] != 1);",
        ],
    },
    // tests/regressions/sdpor_climbs_past_a_short_circuit_guard.ic: a flag set, cleared and set
    // again, and a join on two flags
    Seed {
        globals: "global int y = 0;\nglobal bool[2] f;\n",
        procs: &[
            (
                "p()",
                &[
                    &["f[0] = true;"],
                    &["f[0] = false;", "y = 1;"],
                    &["y = 2;", "f[0] = true;"],
                ],
            ),
            ("q()", &[&["f[1] = true;"]]),
            ("r()", &[&["await (f[0] && f[1]);", "assert(y != 0);"]]),
        ],
        spawns: &["p()", "q()", "r()"],
        pool: &[
            "f[0] = true;",
            "f[1] = false;",
            "y = 1;",
            "y = y + 1;",
            "assert(y != 1);",
        ],
    },
    // cdpor's first bugs (tests/regressions/a_reader_before_two_equal_writes.ic and
    // a_guarded_write_before_two_increments.ic): the
    // same proc spawned twice, equal-value writes, a guarded write, increments
    Seed {
        globals: "global int x = 0;\nglobal int y = 0;\n",
        procs: &[
            ("a()", &[&["x = 1;"]]),
            ("inc()", &[&["y = y + 1;"]]),
            ("r()", &[&["if (y == 0) { x = 1; }"]]),
        ],
        spawns: &["a()", "a()", "inc()", "inc()", "r()"],
        pool: &[
            "x = 1;",
            "y = x;",
            "y = y + 1;",
            "if (y == 0) { x = 1; }",
            "if (x == 1) { y = 0; }",
            "assert(x != 1 || y != 1);",
        ],
    },
    // tests/regressions/odpor_a_failed_await_passes_the_writes_that_disabled_it.ic and
    // odpor_an_await_whose_guard_faults_passes_the_writes: guards over a list that
    // may fault, awaits that fail
    Seed {
        globals: "global list l = [1, 0];\nglobal int y = 0;\n",
        procs: &[
            ("p()", &[&["l = tail(l);"]]),
            ("q()", &[&["y = 1;"], &["await (head(l) > 0);"]]),
        ],
        spawns: &["p()", "p()", "q()"],
        pool: &[
            "l = tail(l);",
            "l = l ++ [y];",
            "l = [0];",
            "y = head(l);",
            "await (len(l) > y);",
            "await (head(l) < 1);",
            "assert(len(l) != 1);",
        ],
    },
    // tests/regressions/odpor_ob_probes_the_processes_blocked_at_the_end.ic and
    // an_await_behind_two_writes_of_its_creator_s_rival: writes overwritten unread
    // before a disabling write, an await spawned by a rival
    Seed {
        globals: "global int x = 0;\nglobal int y = 0;\nglobal int z = 0;\n",
        procs: &[
            ("p()", &[&["y = 0;", "await (x != 1);"]]),
            (
                "q()",
                &[&["y = 0;", "x = 1;", "z = 1;"], &["spawn r();", "z = 2;"]],
            ),
            ("r()", &[&["await (z == 1);"]]),
        ],
        spawns: &["p()", "q()", "q()", "p()"],
        pool: &[
            "x = 1;",
            "x = 0;",
            "y = 0;",
            "z = y;",
            "await (y != x);",
            "assert(z != 2);",
        ],
    },
    // tests/regressions/ocdpor_two_awaits_behind_commuting_writes.ic and
    // ocdpor_a_sleeping_first_await_hides_the_second: equal-value writes that commute
    // by `R`, two awaits in a row
    Seed {
        globals: "global int x = 0;\nglobal int y = -1;\nglobal int z = 0;\n",
        procs: &[
            ("p()", &[&["z = 1;", "await (x != 1);"]]),
            ("q()", &[&["z = 1;", "x = 1;"], &["z = 2;"]]),
            ("r()", &[&["await (z != 1);", "await (y != z);"]]),
        ],
        spawns: &["p()", "q()", "q()", "r()"],
        pool: &[
            "z = 1;",
            "y = 0;",
            "y = 1;",
            "if (y == 0) { y = 0; }",
            "x = 1;",
            "await (y != z);",
            "assert(x != 1 || z != 2);",
        ],
    },
    // tests/regressions/state_dependent_block_extent_loses_a_final_state.ic and
    // odpor_cs_ob_goes_on_after_its_tree_is_spent: the state checks' blocked
    // branches, a block whose extent depends on the state
    Seed {
        globals: "global int z = 0;\nglobal int w = 0;\nglobal int y = 0;\n",
        procs: &[
            ("p()", &[&["z = 1;"]]),
            (
                "q()",
                &[&["if (z != 0) { yield; y = 1; }", "w = w * 3 + 2;"]],
            ),
            ("r()", &[&["int t = z;"], &["w = w * 3 + 1;"]]),
        ],
        spawns: &["p()", "q()", "r()"],
        pool: &[
            "z = 1;",
            "y = y + 1;",
            "y = 0;",
            "w = 0;",
            "if (y == 0) { w = w * 3 + 1; }",
            "z = w;",
            "assert(w != 7);",
        ],
    },
    // tests/regressions/odpor_ob_a_class_reached_outside_the_done_subtree.ic: checks that read
    // some globals and write another (b), whose classes a done subtree was trusted
    // with (the family of tests/scripts/checks_campaign.py)
    Seed {
        globals: "global int y = 0;\nglobal int z = 0;\nglobal bool b = false;\n",
        procs: &[
            (
                "p()",
                &[&["y = 1;"], &["b = z != 0;", "z = y;"], &["b = y == z;"]],
            ),
            ("q()", &[&["b = y != y;"]]),
        ],
        spawns: &["p()", "p()", "q()"],
        pool: &[
            "y = 0;",
            "z = 1;",
            "y = z;",
            "b = y == z;",
            "b = z != 0;",
            "if (y == z) { z = 1; }",
        ],
    },
    // tests/regressions/odpor_cs_a_step_kept_by_commutation_never_ran.ic: a guarded write of
    // an equal value, kept asleep by commutation in context
    Seed {
        globals: "global int x = 0;\nglobal int y = 1;\n",
        procs: &[
            ("p()", &[&["x = 1;"]]),
            ("q()", &[&["if (x == 0) { y = 1; }"]]),
            ("r()", &[&["y = 0;"]]),
        ],
        spawns: &["p()", "q()", "r()", "p()"],
        pool: &[
            "x = 1;",
            "x = 0;",
            "y = 1;",
            "y = x;",
            "if (y == 0) { x = 1; }",
            "assert(x + y != 2);",
        ],
    },
    // tests/regressions/odpor_cs_ob_a_process_chained_to_a_partner_races_with_the_settled_step.ic
    // and odpor_cs_ob_partners_of_a_targeted_program: a dead read before a settled
    // guarded write, what follows the read (in its process or one chained to it)
    Seed {
        globals: "global int x = 0;\nglobal int y = 0;\nglobal int z = 0;\nglobal int w = 0;\n",
        procs: &[
            ("p()", &[&["if (y == 0) { x = 2; }"], &["y = x;"]]),
            ("q()", &[&["int t0 = x;", "z = 1;"], &["x = 1;"]]),
            ("s()", &[&["if (z == 1) { x = 1; w = 1; }"]]),
            ("r()", &[&["y = 1;"]]),
        ],
        spawns: &["p()", "q()", "s()", "r()"],
        pool: &[
            "if (x == 3) { w = 3; }",
            "x = 1;",
            "w = w + 1;",
            "if (w == 2) { y = 1; x = 1; }",
            "if (y == 2) { z = 2; w = 1; }",
            "z = 1;",
            "y = 2;",
        ],
    },
    // benches/programs/odpor/fr.ic (FR-a(3)) and classic/lastwrite.ic: writers of one
    // global and an observer, odpor-cs-ob's check modulo observers (Sec. 4.1) with
    // and without `--violations-only` (every proc has an `i`, for the pool)
    Seed {
        globals: "global int x = 0;\nglobal int o = -1;\nglobal bool[4] written;\n",
        procs: &[
            ("writer(int i)", &[&["x = i;", "written[i] = true;"]]),
            ("reader(int i)", &[&["assert(x <= 3);"]]),
        ],
        spawns: &["writer(1)", "writer(2)", "writer(3)", "reader(0)"],
        pool: &[
            "x = i;",
            "x = x + i;",
            "o = x;",
            "x = o;",
            "o = i;",
            "await (written[i] || i == 0);",
            "await (written[1] && written[2]);",
            "assert(x <= 3);",
            "assert(o != 2);",
        ],
    },
    // tests/regressions/odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race.ic
    Seed {
        globals: "global int x = 0;\nglobal int y = 0;\n",
        procs: GUARDED_WRITE_OVERWRITTEN,
        spawns: &["p()", "q()", "r()"],
        pool: &[
            "x = 1;",
            "y = 1;",
            "y = y + 1;",
            "x = 0;",
            "if (y == 0) { x = 2; }",
            "if (x == 2) { y = 2; }",
            "assert(x != 2 || y != 1);",
        ],
    },
    // tests/regressions/odpor_cs_ob_literal_a_future_asked_for_is_not_covered_by_its_asker.ic
    Seed {
        globals: "global int x = 0;\nglobal int y = 0;\n",
        procs: GUARDED_WRITE_OVERWRITTEN,
        spawns: &["p()", "q()", "r()", "r()"],
        pool: &[
            "x = 1;",
            "y = 1;",
            "x = x + 1;",
            "if (y == 0) { x = 2; }",
            "if (x == 1) { y = 0; }",
            "y = x;",
            "assert(x != 2 || y != 1);",
        ],
    },
    // tests/regressions/odpor_a_sleeper_disabled_by_the_race_covers_nothing_beside.ic: a
    // write that disables two awaits for good and races with a reader
    Seed {
        globals: "global int x = -2;\nglobal int y = 1;\nglobal int z = -2;\n",
        procs: &[
            ("p()", &[&["int t0 = y;"]]),
            ("q()", &[&["await (x != 0);", "if (z == 1) { z = 0; }"]]),
            ("r()", &[&["x = 0;", "y = 0;"]]),
        ],
        spawns: &["r()", "p()", "q()", "q()"],
        pool: &[
            "x = 0;",
            "y = 0;",
            "x = 1;",
            "z = 1;",
            "y = x;",
            "await (x != 0);",
            "if (z == 1) { z = 0; }",
        ],
    },
];

/// The procs of the last two seeds (those of
/// `tests/regressions/odpor_cs_ob_literal_a_blocked_prefix_hides_an_observed_race.ic`):
/// q's guarded write of x, which r's writes overwrite, p's writes of y deciding it.
const GUARDED_WRITE_OVERWRITTEN: &[(&str, &[&[&str]])] = &[
    ("p()", &[&["y = 1;"], &["y = 1;"]]),
    ("q()", &[&["if (y == 0) { x = 2; }"], &["int t1 = x;"]]),
    ("r()", &[&["x = 1;"], &["x = 1;"]]),
];

/// At most this many interleavings of a mutant's steps (the multinomial of the steps
/// of its processes): a bound from above on naive's traces, cheap to compute, that
/// spares loading and running a mutant sure to be skipped for [`MAX_NAIVE_TRACES`].
/// It is loose where `await`s block: a seed's 226,800 interleavings are 428 traces.
const MAX_INTERLEAVINGS: u64 = 1_000_000;

/// At most this many traces of naive on a mutant, found by running it (as many as
/// the interleavings this test allowed before it counted blocks as the language cuts
/// them, [`steps`]).
const MAX_NAIVE_TRACES: u64 = 40_000;

/// Whether naive completes `source` within [`MAX_NAIVE_TRACES`] traces (a mutant
/// that does not load is for [`differential`] to report).
fn small_enough(source: &str) -> bool {
    let Ok(program) = frontend::load(source, &[]) else {
        return true;
    };
    let bounded = Config {
        max_traces: Some(MAX_NAIVE_TRACES),
        ..config()
    };
    explorer::explore(&program, &mut Naive::default(), bounded).stop != Stop::MaxTraces
}

/// One edit: its kind and where (each index taken modulo what is there).
#[derive(Clone, Copy, Debug)]
struct Edit {
    kind: u8,
    proc: u8,
    block: u8,
    stmt: u8,
    pool: u8,
}

/// A mutant of a seed: its procs and spawns after the edits.
struct Mutant {
    procs: Vec<(&'static str, Vec<Vec<&'static str>>)>,
    spawns: Vec<&'static str>,
}

impl Mutant {
    fn of(seed: &Seed, edits: &[Edit]) -> Mutant {
        let mut m = Mutant {
            procs: (seed.procs.iter())
                .map(|(name, blocks)| (*name, blocks.iter().map(|b| b.to_vec()).collect()))
                .collect(),
            spawns: seed.spawns.to_vec(),
        };
        for e in edits {
            m.apply(seed, e);
        }
        m
    }

    fn apply(&mut self, seed: &Seed, e: &Edit) {
        let statement = seed.pool[usize::from(e.pool) % seed.pool.len()];
        if e.kind % 7 == 6 {
            // A spawn moved to the front, dropped (one left at least), or doubled (the
            // same proc spawned once more, a shape of several bugs).
            let k = usize::from(e.stmt) % self.spawns.len();
            let spawn = self.spawns.remove(k);
            match e.pool % 3 {
                1 if !self.spawns.is_empty() => {}
                2 => {
                    self.spawns.insert(k, spawn);
                    self.spawns.insert(k, spawn);
                }
                _ => self.spawns.insert(0, spawn),
            }
            return;
        }
        let procs = self.procs.len();
        let blocks = &mut self.procs[usize::from(e.proc) % procs].1;
        let b = usize::from(e.block) % blocks.len();
        let (n_blocks, len) = (blocks.len(), blocks[b].len());
        let s = usize::from(e.stmt) % (len + 1);
        match e.kind % 7 {
            0 if s < len => blocks[b][s] = statement,
            0 | 1 => blocks[b].insert(s, statement),
            2 if len > 1 && s < len => {
                blocks[b].remove(s);
            }
            3 => blocks.insert(b + 1, vec![statement]),
            4 if n_blocks > 1 => {
                blocks.remove(b);
            }
            5 if s > 0 && s < len => {
                // The block split in two at `s`.
                let rest = blocks[b].split_off(s);
                blocks.insert(b + 1, rest);
            }
            _ => {}
        }
    }

    fn source(&self, seed: &Seed) -> String {
        let mut out = seed.globals.to_string();
        for (signature, blocks) in &self.procs {
            let blocks: Vec<String> = blocks.iter().map(|b| b.join(" ")).collect();
            out += &format!("proc {signature} {{ {} }}\n", blocks.join(" yield; "));
        }
        let spawns: Vec<String> = self.spawns.iter().map(|p| format!("spawn {p};")).collect();
        out + &format!("init {{ {} }}\n", spawns.join(" "))
    }

    /// The interleavings of the spawned processes' steps: (Σ n)! / Π n!, with the
    /// processes that a spawned one spawns (no pool statement spawns, so a mutant
    /// spawns no more than its seed).
    fn interleavings(&self) -> u64 {
        // A call `p(1)` is of the proc whose signature is `p(int v)`.
        let name = |s: &str| s.split('(').next().unwrap_or(s).trim().to_string();
        let proc = |call: &str| self.procs.iter().find(|(n, _)| name(n) == name(call));
        let blocks = |p: &str| proc(p).map_or(0, |(_, b)| steps(b));
        let mut processes: Vec<&str> = Vec::new();
        for p in &self.spawns {
            processes.push(p);
            let statements = proc(p).into_iter().flat_map(|(_, b)| b.iter().flatten());
            let children = statements.filter_map(|s| s.strip_prefix("spawn "));
            processes.extend(children.map(|c| c.trim_end_matches(';')));
        }
        let mut total = 0u64;
        let mut count = 1u64;
        for p in processes {
            for k in 1..=blocks(p) as u64 {
                total += 1;
                // count · total / k stays an integer: a running binomial product.
                count = count.saturating_mul(total) / k;
            }
        }
        count
    }
}

/// The steps of a process whose statements, between `yield`s, are `blocks`, as the
/// language cuts them (docs/language.md, "Blocks"): one per `yield`-separated block,
/// and one more per `await`, which ends the block it is in — but for an `await` that
/// is the first thing the process does, which guards its entry block. `yield; await
/// (c);` so runs an empty block between the two. Counted as two steps, a mutant of
/// four writers of three steps each passed for 7,560 interleavings; it has 4.8
/// million, and naive timed out on it (`IC_DIFF_SEED=171`). Every `await` and
/// `yield` a statement holds is counted, taken or not: a bound from above.
fn steps(blocks: &[Vec<&str>]) -> usize {
    let inner = |s: &&str| s.matches("await").count() + s.matches("yield").count();
    let counted: usize = blocks.iter().flatten().map(inner).sum();
    let first_awaits = blocks
        .first()
        .and_then(|b| b.first())
        .is_some_and(|s| s.trim_start().starts_with("await"));
    blocks.len() + counted - usize::from(first_awaits)
}

fn edit() -> impl Strategy<Value = Edit> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<u8>(),
        any::<u8>(),
        any::<u8>(),
    )
        .prop_map(|(kind, proc, block, stmt, pool)| Edit {
            kind,
            proc,
            block,
            stmt,
            pool,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: env_number("IC_DIFF_MUTANTS", 40),
        failure_persistence: None,
        ..proptest_config()
    })]

    /// Every mode against naive on `IC_DIFF_MUTANTS` mutants of [`SEEDS`].
    #[test]
    fn mutants_of_regressions_agree_with_naive(
        which in 0..SEEDS.len(),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let seed_program = &SEEDS[which];
        let mutant = Mutant::of(seed_program, &edits);
        prop_assume!(mutant.interleavings() <= MAX_INTERLEAVINGS);
        let source = mutant.source(seed_program);
        prop_assume!(small_enough(&source));
        if let Err(e) = differential(&source) {
            return Err(TestCaseError::fail(format!("IC_DIFF_SEED={}: {e}", seed())));
        }
    }
}

#[test]
fn the_seeds_load_and_count_their_interleavings() {
    // The first seed: p's 2 blocks three times and q's 3: 9! / (2! 2! 2! 3!) = 7,560.
    let first = Mutant::of(&SEEDS[0], &[]);
    assert_eq!(first.interleavings(), 7560);
    // The second: p(1), q(9), p(2) with 1, 2, 1 blocks: 4! / 2! = 12.
    assert_eq!(Mutant::of(&SEEDS[1], &[]).interleavings(), 12);
    // The seventh: p, q, q, p with 2 steps each (p's `await` ends its first block)
    // and each q's r with 1: 10! / (2! 2! 2! 2!) = 226,800 (naive: 428 traces).
    assert_eq!(Mutant::of(&SEEDS[6], &[]).interleavings(), 226_800);
    // An `await` ends the block it is in, and after a `yield` an empty block runs
    // before it: 1, 3 and 2 steps, the first `await` guarding the entry block.
    let steps_of = |b: &[&[&'static str]]| steps(&b.iter().map(|s| s.to_vec()).collect::<Vec<_>>());
    assert_eq!(steps_of(&[&["await (x == 1);", "x = 2;"]]), 1);
    assert_eq!(steps_of(&[&["x = 1;"], &["await (x == 1);"]]), 3);
    assert_eq!(steps_of(&[&["x = 1;", "await (x == 1);"]]), 2);
    for s in SEEDS {
        let source = Mutant::of(s, &[]).source(s);
        tests::load(&source, &[]);
    }
}
