//! The cyclic set: programs that loop (locks that spin, a livelock-prone back-off),
//! explored by the stateful searches and, beside them, by SPIN on the Promela
//! translations of `benches/promela/`. Each row says what was expected (verified, or
//! the bug found), what each search stored and how long it took, and what SPIN
//! stored and took end to end; anything unexpected is flagged under the table. With
//! `--jobs N`, the searches whose threads share one store are measured on N threads
//! too ([`threads`]).

use super::machine::Machine;
use super::markdown::{count, seconds};
use super::measure::{self, Algo, Run};
use super::speedup::{Bound, Value};
use super::spin::{self, SpinRun};
use super::threads::{self, Measured};
use explorer::Deps;
use frontend::ir::Program;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// One model of the cyclic set, run at increasing sizes.
#[derive(Debug)]
pub struct CyclicFamily {
    pub name: &'static str,
    /// The program, under `benches/programs/cyclic/`.
    pub file: &'static str,
    /// Its Promela translation, under `benches/promela/`.
    pub promela: &'static str,
    /// The `param` the sizes set; none for a model of two processes.
    pub param: Option<&'static str>,
    pub sizes: &'static [i64],
    /// Whether the model has a bug that the searches must report.
    pub buggy: bool,
}

/// A model sized by its `param N`.
const fn sized(
    name: &'static str,
    file: &'static str,
    promela: &'static str,
    sizes: &'static [i64],
    buggy: bool,
) -> CyclicFamily {
    CyclicFamily {
        name,
        file,
        promela,
        param: Some("N"),
        sizes,
        buggy,
    }
}

/// A model of two processes: no size to set.
const fn pair(
    name: &'static str,
    file: &'static str,
    promela: &'static str,
    buggy: bool,
) -> CyclicFamily {
    CyclicFamily {
        param: None,
        ..sized(name, file, promela, &[2], buggy)
    }
}

/// The cyclic set, correct models before their buggy variants.
pub const CYCLIC: &[CyclicFamily] = &[
    sized(
        "spinlock",
        "spinlock.ic",
        "spinlock.pml",
        &[2, 3, 4, 5, 6],
        false,
    ),
    sized(
        "spinlock-split",
        "spinlock_split.ic",
        "spinlock_split.pml",
        &[2, 3, 4],
        true,
    ),
    pair("peterson", "peterson.ic", "peterson.pml", false),
    pair(
        "peterson-swapped",
        "peterson_swapped.ic",
        "peterson_swapped.pml",
        true,
    ),
    pair("dekker", "dekker.ic", "dekker.pml", false),
    // At N = 5 no search finishes in a minute, and SPIN's pan ran out of 12 GB
    // after 6 minutes: BENCHMARKS.md gives the long runs.
    sized("filter", "filter.ic", "filter.pml", &[2, 3, 4], false),
    sized(
        "filter-buggy",
        "filter_buggy.ic",
        "filter_buggy.pml",
        &[2, 3, 4],
        true,
    ),
    sized("ticket", "ticket.ic", "ticket.pml", &[2, 3, 4, 5, 6], false),
    sized(
        "ticket-buggy",
        "ticket_buggy.ic",
        "ticket_buggy.pml",
        &[2, 3, 4, 5],
        true,
    ),
    sized("bakery", "bakery.ic", "bakery.pml", &[2, 3, 4], false),
    sized(
        "bakery-buggy",
        "bakery_buggy.ic",
        "bakery_buggy.pml",
        &[2, 3, 4],
        true,
    ),
    sized("treiber", "treiber.ic", "treiber.pml", &[2, 3], false),
    sized(
        "treiber-buggy",
        "treiber_buggy.ic",
        "treiber_buggy.pml",
        &[2, 3],
        true,
    ),
    sized(
        "coarse-list",
        "coarse_list.ic",
        "coarse_list.pml",
        &[2, 3, 4],
        false,
    ),
    sized(
        "coarse-list-buggy",
        "coarse_list_buggy.ic",
        "coarse_list_buggy.pml",
        &[2, 3, 4],
        true,
    ),
    // At N = 4 stateful stores 1.5M states (17 s) and de-spor does not finish in a
    // minute.
    sized(
        "optimistic-list",
        "optimistic_list.ic",
        "optimistic_list.pml",
        &[2, 3],
        false,
    ),
    sized(
        "optimistic-list-buggy",
        "optimistic_list_buggy.ic",
        "optimistic_list_buggy.pml",
        &[2, 3, 4],
        true,
    ),
    // At N = 4 stateful stores 9.1M states (79 s), dl-spor 6.9M (62 s, 2.5 GB).
    sized("ms-queue", "ms_queue.ic", "ms_queue.pml", &[2, 3], false),
    sized(
        "ms-queue-buggy",
        "ms_queue_buggy.ic",
        "ms_queue_buggy.pml",
        &[2, 3, 4],
        true,
    ),
    sized(
        "striped-map",
        "striped_map.ic",
        "striped_map.pml",
        &[2, 3, 4],
        false,
    ),
    sized(
        "striped-map-buggy",
        "striped_map_buggy.ic",
        "striped_map_buggy.pml",
        &[2, 3, 4],
        true,
    ),
];

/// The stateful searches, the reference first.
const ALGOS: [Algo; 4] = Algo::STATEFUL_SEARCHES;

/// One row: a model at one size.
pub struct CyclicRow {
    pub family: &'static CyclicFamily,
    pub n: i64,
    pub program: Program,
    /// One per algorithm of [`ALGOS`].
    pub runs: Vec<Result<Run, String>>,
    /// `None` where the model has no translation or SPIN is not installed.
    pub spin: Option<Result<SpinRun, String>>,
}

/// Measures `family` at size `n`: each search, then SPIN when `with_spin`.
pub fn measure(
    family: &'static CyclicFamily,
    n: i64,
    timeout: Duration,
    with_spin: bool,
) -> Result<CyclicRow, String> {
    let path = format!("{}/cyclic/{}", crate::PROGRAMS, family.file);
    let source = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let defines: Vec<(String, i64)> = (family.param.map(|p| (p.to_string(), n)))
        .into_iter()
        .collect();
    let program = frontend::load(&source, &defines)
        .map_err(|_| format!("{}: does not load at N = {n}", family.file))?;
    let runs = ALGOS
        .iter()
        .map(|&algo| measure::run(&program, algo, Deps::default(), timeout, None))
        .collect();
    let promela = Path::new(crate::PROGRAMS).join("../promela");
    let spin = (with_spin && !family.promela.is_empty())
        .then(|| spin::run(&promela, family.promela, family.param.map(|_| n)));
    Ok(CyclicRow {
        family,
        n,
        program,
        runs,
        spin,
    })
}

/// `table --set cyclic --jobs N`: each search of `row` whose threads share one
/// store (the stateful reference, spor, dl-spor), where its run in the row took more than
/// [`threads::LONGER_THAN`] seconds and finished, on one thread and on `jobs`.
fn on_threads(row: &CyclicRow, jobs: usize, timeout: Duration) -> Vec<Result<Measured, String>> {
    let shares = |algo: Algo| {
        (algo.spec.build(false, || Err(())))
            .is_ok_and(|a| a.shares_stored_states(&explorer::Config::default()))
    };
    (ALGOS.iter().zip(&row.runs))
        .filter(|(&algo, run)| {
            shares(algo)
                && run
                    .as_ref()
                    .is_ok_and(|r| r.complete() && r.seconds > threads::LONGER_THAN)
        })
        .map(|(&algo, _)| {
            eprintln!("{} {} on 1 and {jobs} threads…", row.label(), algo.name());
            let deps = Deps::default();
            let (one, many) = threads::measure(&row.program, algo, deps, timeout, None, jobs)?;
            Ok(Measured {
                label: row.label(),
                algo,
                one,
                many,
            })
        })
        .collect()
}

impl CyclicRow {
    fn label(&self) -> String {
        match self.family.param {
            Some(_) => format!("{}({})", self.family.name, self.n),
            None => self.family.name.to_string(),
        }
    }

    /// What is wrong with the row: a verdict other than expected, searches that
    /// disagree, stored states out of the order the reductions promise.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let label = self.label();
        for (algo, run) in ALGOS.iter().zip(&self.runs) {
            let name = algo.name();
            match run {
                Err(e) => out.push(format!("{label}, {name}: {e}")),
                Ok(run) if run.timed_out() => {}
                Ok(run) if run.failed != self.family.buggy => out.push(format!(
                    "{label}, {name}: {}",
                    match &run.violation {
                        Some(v) => format!("reports {v} in a correct model"),
                        None => "finds no bug in a buggy model".to_string(),
                    }
                )),
                Ok(run) if !run.complete() && !self.family.buggy => {
                    out.push(format!("{label}, {name}: stopped ({:?})", run.stop))
                }
                Ok(_) => {}
            }
        }
        let complete: Vec<&Run> = (self.runs.iter().flatten())
            .filter(|r| r.complete() && r.violation.is_none())
            .collect();
        if complete.windows(2).any(|w| w[0].finals != w[1].finals) {
            out.push(format!(
                "{label}: the searches reach different final states"
            ));
        }
        let stored = |i: usize| {
            (self.runs[i].as_ref().ok())
                .filter(|r| r.complete() && r.violation.is_none())
                .and_then(|r| r.stored)
        };
        // stateful >= spor >= dl-spor, where all three completed.
        if let (Some(full), Some(spor), Some(dl)) = (stored(0), stored(1), stored(3)) {
            if !(dl <= spor && spor <= full) {
                out.push(format!(
                    "{label}: stored states out of order: stateful {full}, spor {spor}, \
                     dl-spor {dl}"
                ));
            }
        }
        if let Some(Ok(spin)) = &self.spin {
            if spin.violation != self.family.buggy {
                out.push(format!(
                    "{label}, SPIN: its verdict is not the expected one"
                ));
            }
        }
        if let Some(Err(e)) = &self.spin {
            out.push(format!("{label}, SPIN: {e}"));
        }
        out
    }
}

/// The table of `rows`, then the problems found in them; whether there were any.
pub fn report(rows: &[CyclicRow]) -> (String, bool) {
    let mut out = String::from("| Bench | expected |");
    for algo in ALGOS {
        let _ = write!(out, " {} stored | T |", algo.title());
    }
    out.push_str(" SPIN stored | SPIN T (end to end) |\n|---|---|");
    for _ in 0..ALGOS.len() + 1 {
        out.push_str("---:|---:|");
    }
    out.push('\n');
    let mut problems = Vec::new();
    for row in rows {
        let expected = if row.family.buggy { "bug" } else { "ok" };
        let _ = write!(out, "| {} | {expected} |", row.label());
        for run in &row.runs {
            match run {
                Ok(run) => {
                    let mark = if run.violation.is_some() {
                        " (bug)"
                    } else {
                        ""
                    };
                    let stopped = !run.complete();
                    let stored = run.stored.map_or(String::new(), |s| count(s, stopped));
                    let bound = if run.timed_out() {
                        Bound::AtLeast
                    } else {
                        Bound::Exact
                    };
                    let t = seconds(Value {
                        value: run.seconds,
                        bound,
                    });
                    let _ = write!(out, " {stored}{mark} | {t} |");
                }
                Err(_) => out.push_str(" error | |"),
            }
        }
        match &row.spin {
            Some(Ok(s)) => {
                let mark = if s.violation { " (bug)" } else { "" };
                let t = seconds(Value::exact(s.seconds));
                let _ = write!(out, " {}{mark} | {t} |", count(s.stored, false));
            }
            Some(Err(_)) => out.push_str(" error | |"),
            None => out.push_str(" | |"),
        }
        out.push('\n');
        problems.extend(row.problems());
    }
    if !problems.is_empty() {
        out.push_str("\nProblems:\n\n");
        for p in &problems {
            let _ = writeln!(out, "- {p}");
        }
    }
    (out, !problems.is_empty())
}

/// Whether `name` is a model of the cyclic set.
pub fn is_model(name: &str) -> bool {
    CYCLIC.iter().any(|f| f.name == name)
}

/// `table --set cyclic`: measures the models named in `only` (every one when it is
/// empty) at each of their sizes, SPIN beside the searches when `with_spin` and
/// installed, and prints the table as markdown with the machine and the command;
/// progress goes to stderr. The exit status: 0, or 1 when something was flagged
/// (listed under the table).
pub fn run(timeout: Duration, only: &[String], with_spin: bool, jobs: Option<usize>) -> u8 {
    let with_spin = with_spin && spin::available();
    let machine = Machine::describe();
    println!("# The stateful searches on the cyclic set\n");
    println!("- command: `{}`", machine.command);
    println!("- date: {}", machine.date);
    println!("- machine: {} cores, {}", machine.cores, machine.cpu);
    println!("- timeout: {} s per search", timeout.as_secs_f64());
    println!(
        "- stored: distinct states stored (`>X`: stopped, by the timeout or, in a buggy \
         model, at the bug, marked `(bug)`); T: seconds of the search; SPIN: \
         `benches/promela/run_spin.sh MODEL.pml N`, its `states, stored` and the seconds \
         of `spin -a`, `gcc` and `pan` together.{}\n",
        if with_spin { "" } else { " SPIN was not run." }
    );
    let mut rows = Vec::new();
    let mut flagged = false;
    let chosen = |f: &&CyclicFamily| only.is_empty() || only.iter().any(|n| n == f.name);
    for family in CYCLIC.iter().filter(chosen) {
        for &n in family.sizes {
            eprintln!("{} N = {n}", family.name);
            match measure(family, n, timeout, with_spin) {
                Ok(row) => rows.push(row),
                Err(e) => {
                    eprintln!("error: {e}");
                    flagged = true;
                }
            }
        }
    }
    let (table, problems) = report(&rows);
    print!("{table}");
    if let Some(jobs) = jobs {
        let mut measured = Vec::new();
        for result in rows.iter().flat_map(|row| on_threads(row, jobs, timeout)) {
            match result {
                Ok(m) => measured.push(m),
                Err(e) => {
                    eprintln!("error: {e}");
                    flagged = true;
                }
            }
        }
        print!(
            "\n## On {jobs} threads (`--jobs {jobs}`)\n\nEach search whose threads share one \
             store, where its run above took more than {} s, on one thread and on {jobs}, the \
             fastest of {} runs each, the two alternating; S: 1 + the transitions taken; S \
             +%: those beyond one thread's.\n\n{}",
            threads::LONGER_THAN,
            threads::RUNS,
            threads::table(jobs, &measured)
        );
    }
    u8::from(flagged || problems)
}
