//! `ic-check`: load a program, explore it with the chosen algorithm, report.

mod cli;
mod output;
mod tree;

use clap::Parser;
use cli::{Algo, Cli};
use explorer::cdpor::Constrained;
use explorer::csdpor::ContextSensitive;
use explorer::dpor::Dpor;
use explorer::naive::Naive;
use explorer::sdpor::SourceDpor;
use explorer::{Algorithm, Config, Report, Stop, TreeConfig};
use frontend::ics::{Ics, ResolvedIcs};
use frontend::interp::Limits;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit statuses (documented in the README and `--help`).
const FOUND: u8 = 1;
const BAD_INPUT: u8 = 2;
const INCOMPLETE: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested programs recurse deeply in the checker and the interpreter.
    ExitCode::from(frontend::on_large_stack(|| run(&cli)).unwrap_or(BAD_INPUT))
}

/// The independence constraints for cdpor: from `--ics`, checked against the program
/// text, or synthesised now.
fn constraints(
    cli: &Cli,
    file: &str,
    source: &str,
    program: &frontend::ir::Program,
) -> Result<ResolvedIcs, String> {
    let ics = match &cli.ics {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let ics = Ics::from_json(&text).map_err(|e| format!("{}: {}", path.display(), e.0))?;
            if !ics.matches_source(source) {
                return Err(format!(
                    "{} was made for another program ({}): run `ic-synth {file} > {}` again",
                    path.display(),
                    ics.program.file,
                    path.display()
                ));
            }
            ics
        }
        None => {
            let synthesis = ic_synth::synthesize(program, source, &ic_synth::Options::default());
            ic_synth::to_ics(program, source, file, &synthesis)
        }
    };
    ics.resolve(program)
        .map_err(|e| format!("constraints do not fit the program: {}", e.0))
}

fn run(cli: &Cli) -> u8 {
    let file = cli.program.display().to_string();
    let source = match std::fs::read_to_string(&cli.program) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {file}: {e}");
            return BAD_INPUT;
        }
    };
    let color = std::io::stderr().is_terminal();
    let program = match frontend::load(&source, &cli.define) {
        Ok(p) => p,
        Err(diags) => {
            eprint!(
                "{}",
                frontend::diagnostic::render(&file, &source, &diags, color)
            );
            return BAD_INPUT;
        }
    };
    let limits = Limits {
        max_steps: cli.max_steps,
        ..Limits::default()
    };
    let out = output::Output {
        file: &file,
        source: &source,
        program: &program,
        limits,
    };
    if let Some(schedule) = &cli.replay {
        return match explorer::replay::replay(&program, limits, schedule) {
            Ok(replay) => {
                print!("{}", out.replay(&replay));
                if matches!(
                    replay.end,
                    explorer::replay::End::Fault { .. }
                        | explorer::replay::End::InitFault(_)
                        | explorer::replay::End::Final { deadlock: true }
                ) {
                    FOUND
                } else {
                    0
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                BAD_INPUT
            }
        };
    }
    let context = if cli.literal {
        ContextSensitive::literal()
    } else {
        ContextSensitive::new()
    };
    let mut algorithm: Box<dyn Algorithm> = match cli.algo {
        Algo::Naive => Box::new(Naive::default()),
        Algo::Sdpor => Box::new(Dpor::new(SourceDpor)),
        Algo::Csdpor => Box::new(Dpor::new(context)),
        Algo::Cdpor => match constraints(cli, &file, &source, &program) {
            Ok(ics) => Box::new(Dpor::new(Constrained::new(Arc::new(ics), context))),
            Err(message) => {
                eprintln!("error: {message}");
                return BAD_INPUT;
            }
        },
    };
    // Created now, so that a path that cannot be written stops us before exploring.
    let tree_file = match cli.tree.as_deref().map(tree::TreeFile::create).transpose() {
        Ok(file) => file,
        Err(message) => {
            eprintln!("error: {message}");
            return BAD_INPUT;
        }
    };
    let config = Config {
        all_violations: cli.all_violations,
        max_traces: cli.max_traces,
        timeout: cli.timeout.map(|s| Duration::from_secs_f64(s.max(0.0))),
        limits,
        record_schedules: cli.print_traces,
        deps: cli.deps.into(),
        tree: tree_file.as_ref().map(|_| TreeConfig {
            limit: usize::try_from(cli.tree_limit).unwrap_or(usize::MAX),
            halt_when_full: false,
        }),
    };
    // --tree-full runs naive on the same terms.
    let naive_config = cli.tree_full.then(|| Config {
        record_schedules: false,
        tree: config.tree.map(|t| TreeConfig {
            halt_when_full: true,
            ..t
        }),
        ..config.clone()
    });
    let started = Instant::now();
    // A progress line on a terminal only: never in --json output or into a pipe.
    let bar = (!cli.json && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    });
    let mut show = |s: &explorer::Stats| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "traces {}  blocked {}  states {}",
                s.traces, s.blocked, s.states
            ));
            bar.tick();
        }
    };
    let progress: Option<explorer::Progress<'_>> =
        if bar.is_some() { Some(&mut show) } else { None };
    let mut report =
        explorer::explore_with_progress(&program, algorithm.as_mut(), config, progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed();
    if cli.print_traces && !cli.json {
        for schedule in &report.schedules {
            println!("{schedule}");
        }
    }
    if cli.json {
        println!(
            "{}",
            out.json(
                algorithm.name(),
                &report,
                elapsed,
                cli.stats,
                cli.print_traces
            )
        );
    } else {
        print!(
            "{}",
            out.human(algorithm.name(), &report, elapsed, cli.stats)
        );
    }
    if let (Some(file), Some(recorded)) = (tree_file, report.tree.take()) {
        let naive = naive_config.map(|c| explorer::explore(&program, &mut Naive::default(), c));
        if let Err(message) = draw(cli, file, recorded, algorithm.name(), &report, naive) {
            eprintln!("error: {message}");
            return BAD_INPUT;
        }
    }
    if !report.violations.is_empty() {
        FOUND
    } else if report.stop != Stop::Complete {
        INCOMPLETE
    } else {
        0
    }
}

/// Writes the tree `recorded` by the run of `report` (with what `naive`'s run adds,
/// for `--tree-full`), titled with the run's counts.
fn draw(
    cli: &Cli,
    file: tree::TreeFile,
    recorded: explorer::Tree,
    algorithm: &str,
    report: &Report,
    naive: Option<Report>,
) -> Result<(), String> {
    let limit = usize::try_from(cli.tree_limit).unwrap_or(usize::MAX);
    let exact = report.complete();
    let s = &report.stats;
    let name = cli.program.file_name().map_or_else(
        || cli.program.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut options: Vec<String> = cli
        .define
        .iter()
        .map(|(n, v)| format!("-D {n}={v}"))
        .collect();
    if cli.deps == cli::DepsArg::Static {
        options.push("--deps static".to_string());
    }
    if cli.literal {
        options.push("--literal".to_string());
    }
    let count = |n: u64, exact: bool, what: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{} {what}{s}", output::count(n, exact))
    };
    let mut title = format!(
        "{algorithm} on {name}{}{}: {}, {} blocked, {}",
        if options.is_empty() { "" } else { " " },
        options.join(" "),
        count(s.traces, exact, "trace"),
        output::count(s.blocked, exact),
        count(s.states, exact, "state"),
    );
    let tree = match naive {
        Some(Report {
            tree: Some(naive_tree),
            ref stats,
            stop,
            ..
        }) => {
            title.push_str(&format!(
                "; naive: {}",
                count(stats.traces, stop == Stop::Complete, "trace")
            ));
            recorded.with_pruned(&naive_tree, limit)
        }
        _ => recorded,
    };
    if let Some(limit) = tree.truncated {
        eprintln!("note: {}", tree::truncated(limit));
    }
    file.write(&tree, &title)
}
