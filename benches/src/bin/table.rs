//! `table`: the papers' Table 1, measured here. Every family of
//! `benches::table::families` at increasing sizes, explored by SDPOR, CSDPOR and
//! CDPOR under static then dynamic dependencies, printed as markdown with the
//! machine, the command and the papers' numbers. Progress goes to stderr.

use benches::table::cyclic;
use benches::table::families::{self, Family, Set};
use benches::table::machine::Machine;
use benches::table::measure::{self, deps_name, Algo};
use benches::table::report::{self, Cell, Row};
use benches::table::threads;
use clap::Parser;
use explorer::Deps;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// `ic-check`'s allocator and options, so that the table measures what users run.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[unsafe(export_name = "_rjem_malloc_conf")]
pub static MALLOC_CONF: &[u8; 36] = b"dirty_decay_ms:-1,muzzy_decay_ms:-1\0";

/// Exit statuses (also in `--help`).
const FLAGGED: u8 = 1;
const USAGE: u8 = 2;

/// Measure SDPOR, CSDPOR and CDPOR on the benchmark families and print markdown tables
/// in the shape of the CDPOR paper's Table 1, next to the papers' own numbers.
#[derive(Parser, Debug)]
#[command(
    name = "table",
    after_help = "Exit status: 0 all ran and nothing looked wrong; 1 a run reported a \
                  violation, algorithms disagreed on the final states, a run failed, or a \
                  program is missing or does not load; 2 bad usage."
)]
struct Cli {
    /// Seconds each run may take before it is stopped (the papers used 60).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = positive_seconds)]
    timeout: f64,

    /// Run this set of families.
    #[arg(long, value_enum, default_value_t = Set::Papers, conflicts_with = "only")]
    set: Set,

    /// Run only these families, of any set (comma-separated or repeated).
    #[arg(long, value_name = "FAMILY", value_delimiter = ',')]
    only: Vec<String>,

    /// Run these sizes N (comma-separated) instead of each family's own.
    #[arg(long, value_name = "N", value_delimiter = ',')]
    sizes: Vec<i64>,

    /// Leave SPIN out of the cyclic set's table.
    #[arg(long)]
    no_spin: bool,

    /// Also run each search that splits (`ic-check --jobs`) on this many threads and
    /// on one, the two in turn, the fastest of several runs each, where its table run
    /// took more than a second,
    /// and print the speed-ups (in the cyclic set: the searches whose threads share
    /// one store, the stateful reference and dl-spor).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    jobs: Option<u64>,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let cyclic_only = !cli.only.is_empty() && cli.only.iter().all(|n| cyclic::is_model(n));
    if cli.set == Set::Cyclic || cyclic_only {
        if !cli.sizes.is_empty() {
            eprintln!("error: --sizes is not taken by the cyclic set (each model has its own)");
            return ExitCode::from(USAGE);
        }
        let timeout = Duration::from_secs_f64(cli.timeout);
        let jobs = cli.jobs.map(|j| j as usize);
        return ExitCode::from(cyclic::run(timeout, &cli.only, !cli.no_spin, jobs));
    }
    let families = match families::select(cli.set, &cli.only) {
        Ok(families) => families,
        Err(message) => {
            let cyclic: Vec<&str> = cyclic::CYCLIC.iter().map(|f| f.name).collect();
            eprintln!(
                "error: {message}; the cyclic set's models (not to be mixed with them): {}",
                cyclic.join(", ")
            );
            return ExitCode::from(USAGE);
        }
    };
    // Deeply nested programs recurse deeply in the checker and the explorer, as in ic-check.
    match frontend::on_large_stack(|| run(&cli, &families)) {
        Ok(code) => ExitCode::from(code),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A family's program text, read once.
struct Source {
    /// As printed: relative to the repository.
    file: String,
    text: String,
}

fn run(cli: &Cli, families: &[&'static Family]) -> u8 {
    let timeout = Duration::from_secs_f64(cli.timeout);
    let machine = Machine::describe();
    // The families in groups that measure the same algorithms, in table order: one
    // group (hence one table) for any one set.
    let mut groups: Vec<(&'static [Algo], Vec<&'static Family>)> = Vec::new();
    for family in families {
        let algos = Algo::of_set(family.set);
        match groups.iter_mut().find(|(a, _)| *a == algos) {
            Some((_, members)) => members.push(family),
            None => groups.push((algos, vec![family])),
        }
    }
    let optimal_only = groups.iter().all(|(algos, _)| *algos != Algo::ALL);
    if optimal_only {
        println!(
            "# SDPOR, ODPOR, ODPOR-OB, ODPOR_cs-OB, ODPOR_cs, CSDPOR, CDPOR and OCDPOR on the benchmark families
"
        );
    } else {
        println!("# SDPOR, CSDPOR and CDPOR on the benchmark families\n");
    }
    println!("- command: `{}`", machine.command);
    println!("- date: {}", machine.date);
    println!("- machine: {} cores, {}", machine.cores, machine.cpu);
    if optimal_only {
        println!(
            "- timeout: {} s per run (the ISSTA 2019 paper: 120 s)",
            cli.timeout
        );
        println!(
            "- Tr: complete traces; S: states (1 + every event run); T: seconds of the \
             exploration; T^smt: seconds of the synthesis at that size (for CDPOR and \
             OCDPOR, which share it)."
        );
    } else {
        println!(
            "- timeout: {} s per run (the papers: 60 s for CDPOR Table 1, 120 s for CSDPOR Table 2)",
            cli.timeout
        );
        println!(
            "- Tr: complete traces; S: states (1 + every event run); T: seconds of the \
             exploration; Mem: how far the process's resident memory rose during the run, at its peak (MB: \
             VmHWM after the run minus the resident size at its start); T^smt: \
             seconds of the synthesis at that size; G^s = T(SDPOR)/T(CDPOR), G^cs = \
             T(CSDPOR)/T(CDPOR), G^smt = T(CSDPOR)/(T(CDPOR) + T^smt)."
        );
    }
    println!(
        "- Counts are exact below 10,000, then thousands (`26k`) and millions (`3.1M`); \
         `>X`: stopped by the timeout after X (rounded down); `<x`: CDPOR itself timed out."
    );
    let mut flagged = false;
    for (algos, families) in &groups {
        flagged |= run_group(cli, timeout, algos, families);
    }
    if flagged {
        FLAGGED
    } else {
        0
    }
}

/// Measures and prints one group of families: our table, then the papers' numbers.
/// Says whether anything was flagged.
fn run_group(
    cli: &Cli,
    timeout: Duration,
    algos: &'static [Algo],
    families: &[&'static Family],
) -> bool {
    let sources: Vec<Result<Source, String>> = families.iter().map(|f| read(f)).collect();
    // The default dependency, as a user runs `ic-check`: what events touched in
    // sdpor and odpor's searches, transition footprints in the others.
    let deps = Deps::default();
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    let mut on_threads = Vec::new();
    for (family, source) in families.iter().zip(&sources) {
        match source {
            Ok(source) => measure_family(
                cli,
                timeout,
                family,
                source,
                deps,
                algos,
                &mut rows,
                &mut problems,
                &mut on_threads,
            ),
            Err(message) => problems.push(message.clone()),
        }
    }
    let (table, flagged) = report::measured(&rows, &problems);
    let deps = deps_name(deps);
    print!("\n## Measured (`--deps {deps}`, the default)\n\n{table}");
    if let Some(jobs) = cli.jobs {
        print!(
            "\n## On {jobs} threads (`--jobs {jobs}`)\n\nEach search that splits, where its run \
             above took more than {} s, on one thread and on {jobs}, the fastest of {} runs \
             each, the two alternating; S +%: the states the split explores beyond one \
             thread's.\n\n{}",
            threads::LONGER_THAN,
            threads::RUNS,
            threads::table(jobs as usize, &on_threads)
        );
    }
    let _ = std::io::stdout().flush();
    print!("\n## The papers' numbers\n\n{}", report::paper(families));
    flagged
}

fn read(family: &Family) -> Result<Source, String> {
    let file = format!("benches/programs/{}", family.file);
    let path = format!("{}/{}", benches::PROGRAMS, family.file);
    std::fs::read_to_string(&path)
        .map(|text| Source {
            file: file.clone(),
            text,
        })
        .map_err(|e| format!("{}: cannot read {file}: {e}", family.label))
}

/// Measures one family at each size in one deps mode with `algos`, adding its rows, or
/// a problem for a size whose program does not load.
#[allow(clippy::too_many_arguments)]
fn measure_family(
    cli: &Cli,
    timeout: Duration,
    family: &'static Family,
    source: &Source,
    deps: Deps,
    algos: &'static [Algo],
    rows: &mut Vec<Row>,
    problems: &mut Vec<String>,
    on_threads: &mut Vec<threads::Measured>,
) {
    // Smallest first: a timeout skips the larger sizes.
    let mut sizes = if cli.sizes.is_empty() {
        family.sizes.to_vec()
    } else {
        cli.sizes.clone()
    };
    sizes.sort_unstable();
    sizes.dedup();
    let mut timed_out = vec![false; algos.len()];
    let with_ics: Vec<usize> = (0..algos.len()).filter(|&i| algos[i].uses_ics()).collect();
    for n in sizes {
        let mut defines: Vec<(String, i64)> = family
            .defines
            .iter()
            .map(|(name, v)| (name.to_string(), *v))
            .collect();
        defines.push((family.param.to_string(), n));
        let label = format!("{}({n})", family.label);
        let program = match frontend::load(&source.text, &defines) {
            Ok(program) => program,
            Err(diagnostics) => {
                let text =
                    frontend::diagnostic::render(&source.file, &source.text, &diagnostics, false);
                problems.push(format!(
                    "{label}: the program does not load:\n\n```\n{}```",
                    text
                ));
                continue;
            }
        };
        // Synthesised once a size, while some algorithm that uses it still runs.
        let synthesis = with_ics.iter().any(|&i| !timed_out[i]).then(|| {
            eprintln!("{} {label}: synthesis…", deps_name(deps));
            measure::synthesise(&program, &source.text, &source.file)
        });
        let mut cells = Vec::with_capacity(algos.len());
        for (i, &algo) in algos.iter().enumerate() {
            cells.push(measure_cell(
                &program,
                algo,
                deps,
                timeout,
                &synthesis,
                &label,
                &mut timed_out[i],
            ));
        }
        if let Some(jobs) = cli.jobs {
            for (&algo, cell) in algos.iter().zip(&cells) {
                let Cell::Ran(run) = cell else { continue };
                let ics = match (algo.uses_ics(), &synthesis) {
                    (true, Some(Ok(s))) => Some(&s.ics),
                    _ => None,
                };
                let config = explorer::Config {
                    deps,
                    ..Default::default()
                };
                let splits = (algo.spec.build(false, || ics.cloned().ok_or(())))
                    .is_ok_and(|a| explorer::parallel::spreads(&*a, &config));
                if !splits || !run.complete() || run.seconds <= threads::LONGER_THAN {
                    continue;
                }
                eprintln!(
                    "{} {label} {} on 1 and {jobs} threads…",
                    deps_name(deps),
                    algo.name()
                );
                match threads::measure(&program, algo, deps, timeout, ics, jobs as usize) {
                    Ok((one, many)) => on_threads.push(threads::Measured {
                        label: label.clone(),
                        algo,
                        one,
                        many,
                    }),
                    Err(message) => problems.push(format!("{label} on {jobs} threads: {message}")),
                }
            }
        }
        rows.push(Row {
            family,
            n,
            deps,
            algos,
            cells,
            smt: synthesis.and_then(|s| s.ok()).map(|s| s.seconds),
        });
    }
}

/// One algorithm at one size: skipped after a timeout at a smaller size (`timed_out`,
/// set by a run that times out).
fn measure_cell(
    program: &frontend::ir::Program,
    algo: Algo,
    deps: Deps,
    timeout: Duration,
    synthesis: &Option<Result<measure::Synthesised, String>>,
    label: &str,
    timed_out: &mut bool,
) -> Cell {
    if *timed_out {
        return Cell::Skipped;
    }
    let ics = match (algo.uses_ics(), synthesis) {
        (true, Some(Ok(s))) => Some(&s.ics),
        (true, Some(Err(message))) => return Cell::Failed(message.clone()),
        _ => None,
    };
    let flag = algo.flag().map_or(String::new(), |f| format!(" {f}"));
    eprintln!("{} {label} {}{flag}…", deps_name(deps), algo.name());
    match measure::run(program, algo, deps, timeout, ics) {
        Ok(run) => {
            *timed_out = run.timed_out();
            eprintln!(
                "  {} traces, {} states, {:.2} s{}",
                run.traces,
                run.states,
                run.seconds,
                if run.timed_out() { " (timeout)" } else { "" }
            );
            Cell::Ran(run)
        }
        Err(message) => Cell::Failed(message),
    }
}
