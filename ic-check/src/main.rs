//! `ic-check`: load a program, explore it with the chosen algorithm, report.

/// A line on stderr. Unlike `eprintln!`, a closed stderr is not a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;
mod format;
mod merge;
mod output;
mod shard;
mod tree;
mod witness;

use clap::{CommandFactory, Parser};
use cli::Cli;
use explorer::registry::{self, AlgorithmSpec};
use explorer::{Algorithm, Config, Report, Stop, TreeConfig, ViolationKind};
use frontend::ics::{Ics, ResolvedIcs};
use frontend::interp::Limits;
use ic_synth::cli::{finish, write_stdout};
use ic_synth::recheck::Unproved;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The explorers copy states, sleep entries and footprints at every step. jemalloc
/// serves these small, short-lived allocations faster than the system allocator, and
/// with its decay off it keeps the pages it freed for the next ones, instead of
/// returning them to the kernel and faulting in zeroed pages again: DB_backup(12) with
/// cdpor 0.93 s → 0.79 s on the 2-core machine (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main` (see [`ALLOCATOR`]).
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static MALLOC_CONF: &[u8; 36] = b"dirty_decay_ms:-1,muzzy_decay_ms:-1\0";

/// Exit statuses (documented in docs/cli.md and `--help`).
const FOUND: u8 = 1;
const BAD_INPUT: u8 = 2;
const INCOMPLETE: u8 = 3;
/// Ctrl-C outside the exploration (during synthesis, or a second time): the shell's
/// status for a process ended by SIGINT.
const INTERRUPTED: i32 = 130;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(code) = ic_synth::cli::generated(cli.completions, cli.man, Cli::command) {
        return ExitCode::from(code);
    }
    if let Some(cli::Command::Merge(args)) = &cli.command {
        return ExitCode::from(merge::run(args));
    }
    let Some(program) = cli.program.clone() else {
        // clap requires the program unless --completions or --man is given.
        return ExitCode::from(BAD_INPUT);
    };
    let algo = chosen(&cli);
    if cli.livelocks && algo != &registry::STATEFUL {
        let algo = algo.name;
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "--livelocks looks for fair cycles in the whole state graph, which only \
                     --algo stateful explores (--algo {algo} leaves transitions out, and cycles \
                     with them); leave out --algo, or use --algo stateful"
                ),
            )
            .exit();
    }
    if cli.ics.is_some() && !algo.uses_constraints {
        let algo = algo.name;
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "--ics gives cdpor's independence constraints; --algo {algo} does not use them \
                     (leave out --ics, or use --algo cdpor)"
                ),
            )
            .exit();
    }
    // Deeply nested programs recurse deeply in the checker and the interpreter.
    ExitCode::from(frontend::on_large_stack(|| run(&cli, &program)).unwrap_or(BAD_INPUT))
}

/// What the run is doing, for what Ctrl-C says and does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    Starting = 0,
    Synthesising = 1,
    Reproving = 2,
    Exploring = 3,
}

/// Ctrl-C: during the exploration it stops the search, which then reports what it
/// found, as `--timeout` does; at any other time, or pressed again, it ends the process
/// with a line saying what it interrupted.
struct CtrlC {
    phase: Arc<AtomicU8>,
    interrupt: Arc<AtomicBool>,
}

impl CtrlC {
    fn install() -> CtrlC {
        let phase = Arc::new(AtomicU8::new(Phase::Starting as u8));
        let interrupt = Arc::new(AtomicBool::new(false));
        let (p, i) = (phase.clone(), interrupt.clone());
        // Without a handler (it cannot be installed) Ctrl-C ends the process as usual.
        let _ = ctrlc::set_handler(move || {
            let phase = p.load(Ordering::SeqCst);
            if phase != Phase::Exploring as u8 || i.swap(true, Ordering::SeqCst) {
                let what = if phase == Phase::Synthesising as u8 {
                    " during the synthesis of the independence constraints"
                } else if phase == Phase::Reproving as u8 {
                    " while re-proving the constraints of --ics"
                } else {
                    ""
                };
                // A progress line may be on the terminal: the message replaces it.
                let clear = if std::io::stderr().is_terminal() {
                    "\r\x1b[2K"
                } else {
                    ""
                };
                say!("{clear}interrupted{what}");
                // Not `process::exit`: it runs the C library's exit handlers while z3's
                // worker threads may be mid-query, and z3's global destructors then
                // crash the process (a CI run saw a signal's status, not 130). stderr
                // is unbuffered; stdout is flushed first.
                let _ = std::io::stdout().flush();
                // SAFETY: `_exit` ends the process at once; nothing runs after it.
                unsafe { libc::_exit(INTERRUPTED) }
            }
        });
        CtrlC { phase, interrupt }
    }

    fn phase(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::SeqCst);
    }
}

/// The independence constraints for cdpor: from `--ics`, checked against the program
/// text, or synthesised now. `Err` is the exit status and the message.
fn constraints(
    cli: &Cli,
    file: &str,
    source: &str,
    program: &frontend::ir::Program,
    deadline: Option<Instant>,
    ctrl_c: &CtrlC,
) -> Result<ResolvedIcs, (u8, String)> {
    let bad = |message: String| (BAD_INPUT, message);
    let ics = match &cli.ics {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                bad(format!(
                    "cannot read the constraints {}: {e}",
                    path.display()
                ))
            })?;
            let ics =
                Ics::from_json(&text).map_err(|e| bad(format!("{}: {}", path.display(), e.0)))?;
            if !ics.matches_source(source) {
                return Err(bad(format!(
                    "{} was made for another program ({}): run `ic-synth {file} > {}` again",
                    path.display(),
                    ics.program.file,
                    path.display()
                )));
            }
            let resolved = ics
                .resolve(program)
                .map_err(|e| bad(format!("constraints do not fit the program: {}", e.0)))?;
            if !cli.trust_ics {
                // A constraint edited by hand, or made for other param values, would
                // make cdpor miss behaviours: each is re-proved against its two blocks.
                let options = ic_synth::recheck::Options {
                    max_steps: cli
                        .max_steps
                        .unwrap_or(cli::MAX_STEPS)
                        .min(ic_synth::recheck::Options::default().max_steps),
                    // `--timeout` covers the re-proof: running out of time is no proof.
                    deadline,
                    ..ic_synth::recheck::Options::default()
                };
                ctrl_c.phase(Phase::Reproving);
                let rechecked = noticed(cli, "re-proving the constraints of --ics", || {
                    ic_synth::recheck::recheck(program, source, &ics, &options)
                });
                rechecked.map_err(|unproved| match unproved {
                    Unproved::Refused(r) => bad(format!(
                        "{}: {r}\nnote: the constraints of an ics.json are re-proved before use; \
                         make the file again with `ic-synth {file} > {}`, or pass --trust-ics to use it unchecked",
                        path.display(),
                        path.display()
                    )),
                    Unproved::OutOfTime { proved, pairs } => (
                        INCOMPLETE,
                        format!(
                            "timeout: the re-proof of the constraints of {} did not finish within \
                             --timeout {} ({proved} of {pairs} pairs proved): nothing was explored, \
                             and no unproved constraint was used\nnote: give a longer --timeout, \
                             or pass --trust-ics to use the file unchecked",
                            path.display(),
                            cli.timeout.map_or(0.0, |t| t.as_secs_f64())
                        ),
                    ),
                })?;
            }
            return Ok(resolved);
        }
        None => {
            let options = ic_synth::Options {
                deadline,
                ..ic_synth::Options::default()
            };
            ctrl_c.phase(Phase::Synthesising);
            let synthesis = noticed(cli, "synthesising independence constraints", || {
                ic_synth::synthesize(program, source, &options)
            });
            ic_synth::to_ics(program, source, file, &synthesis)
        }
    };
    ics.resolve(program)
        .map_err(|e| bad(format!("constraints do not fit the program: {}", e.0)))
}

/// Runs `work`; on a terminal, a line on stderr says what is going on once it has
/// taken more than a second (never with --json or --quiet).
fn noticed<T>(cli: &Cli, what: &str, work: impl FnOnce() -> T) -> T {
    if !shows_progress(cli) {
        return work();
    }
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            if finished.recv_timeout(Duration::from_secs(1)).is_ok() {
                return;
            }
            let bar = spinner();
            bar.set_message(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            let _ = finished.recv();
            bar.finish_and_clear();
        });
        let out = work();
        let _ = done.send(());
        out
    })
}

/// Progress lines go to a terminal's stderr, never with --json or --quiet.
fn shows_progress(cli: &Cli) -> bool {
    !cli.json && !cli.quiet && std::io::stderr().is_terminal()
}

/// A progress line: spinner, elapsed time, message.
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar
}

/// The algorithm asked for, or the default: the stateful reference with
/// `--livelocks` (which needs the whole state graph).
fn chosen(cli: &Cli) -> &'static AlgorithmSpec {
    match cli.algo {
        Some(a) => a.0,
        None if cli.livelocks => &registry::STATEFUL,
        None => registry::DEFAULT,
    }
}

/// Reports why the constraints could not be had; the exit code.
fn constraints_failed((code, message): (u8, String)) -> u8 {
    if code == BAD_INPUT {
        say!("error: {message}");
    } else {
        say!("{message}");
    }
    code
}

/// Why a stateless run found the state space cyclic: the message of its first
/// non-terminating execution (a state that recurs).
fn recurrence(report: &Report) -> Option<&str> {
    report
        .violations
        .iter()
        .find(|v| v.kind == ViolationKind::NonTermination)
        .map(|v| v.message.as_str())
}

fn run(cli: &Cli, path: &Path) -> u8 {
    // `--timeout` counts from here: synthesis included.
    let started = Instant::now();
    let deadline = cli.timeout.map(|t| started + t);
    let file = path.display().to_string();
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            say!("error: cannot read {file}: {e}");
            return BAD_INPUT;
        }
    };
    // `--replay FILE`: a witness file, replayed with the params it was found with.
    let witness = match cli.replay.as_deref().filter(|arg| Path::new(arg).is_file()) {
        Some(arg) => match read_witness(arg, &file, &source) {
            Ok(w) => Some((arg, w)),
            Err(message) => {
                say!("error: {message}");
                return BAD_INPUT;
            }
        },
        None => None,
    };
    let (defines, max_steps) = match &witness {
        Some((arg, w)) => match w.settings(&cli.define, cli.max_steps, arg) {
            Ok(settings) => settings,
            Err(message) => {
                say!("error: {message}");
                return BAD_INPUT;
            }
        },
        None => (cli.define.clone(), cli.max_steps.unwrap_or(cli::MAX_STEPS)),
    };
    let color = frontend::diagnostic::use_color(std::io::stderr().is_terminal());
    let program = match frontend::load(&source, &defines) {
        Ok(p) => p,
        Err(diags) => {
            let _ = write!(
                std::io::stderr(),
                "{}",
                frontend::diagnostic::render(&file, &source, &diags, color)
            );
            return BAD_INPUT;
        }
    };
    let limits = Limits {
        max_steps,
        ..Limits::default()
    };
    let out = output::Output {
        file: &file,
        source: &source,
        program: &program,
        limits,
    };
    if let Some((arg, w)) = &witness {
        return replay_witness(&out, arg, w);
    }
    if let Some(schedule) = &cli.replay {
        return match explorer::replay::replay(&program, limits, schedule) {
            Ok(replay) => {
                let code = if matches!(
                    replay.end,
                    explorer::replay::End::Fault { .. }
                        | explorer::replay::End::InitFault(_)
                        | explorer::replay::End::Final { deadlock: true }
                        | explorer::replay::End::Cycle { .. }
                ) {
                    FOUND
                } else {
                    0
                };
                finish(
                    write_stdout(|w| w.write_all(out.replay(&replay).as_bytes())),
                    code,
                )
            }
            Err(e) => {
                say!("error: {e}");
                BAD_INPUT
            }
        };
    }
    let ctrl_c = CtrlC::install();
    let spec = chosen(cli);
    let ics = match spec.uses_constraints {
        true => match constraints(cli, &file, &source, &program, deadline, &ctrl_c) {
            Ok(ics) => Some(Arc::new(ics)),
            Err(e) => return constraints_failed(e),
        },
        false => None,
    };
    // Each thread of `--jobs` builds its own.
    let make = || -> Box<dyn Algorithm> {
        (spec.build(cli.literal, || ics.clone().ok_or(()))).expect("its constraints were loaded")
    };
    let mut algorithm = make();
    let jobs = match cli.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    ctrl_c.phase(Phase::Starting);
    // Created now, so that a path that cannot be written stops us before exploring.
    let tree_file = match cli.tree.as_deref().map(tree::TreeFile::create).transpose() {
        Ok(file) => file,
        Err(message) => {
            say!("error: {message}");
            return BAD_INPUT;
        }
    };
    if let Some(path) = cli.witness.as_deref() {
        if let Err(e) = std::fs::File::create(path) {
            say!(
                "error: cannot write the witness file {}: {e}",
                path.display()
            );
            return BAD_INPUT;
        }
    }
    let config = Config {
        all_violations: cli.all_violations,
        max_traces: cli.max_traces,
        timeout: cli.timeout.map(|t| t.saturating_sub(started.elapsed())),
        limits,
        record_schedules: cli.print_traces,
        record_reads_from: false,
        deps: cli.deps.into(),
        tree: tree_file.as_ref().map(|_| TreeConfig {
            limit: usize::try_from(cli.tree_limit).unwrap_or(usize::MAX),
            halt_when_full: false,
        }),
        interrupt: Some(ctrl_c.interrupt.clone()),
        max_depth: Some(cli.max_depth),
        max_memory: cli.max_memory.map(|mb| mb.saturating_mul(1_000_000)),
        max_outcomes: explorer::exploration::MAX_OUTCOMES,
        violations_only: cli.violations_only,
        livelocks: cli.livelocks,
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
    let exploring = Instant::now();
    let bar = shows_progress(cli).then(spinner);
    let mut show = |s: &explorer::Stats| {
        if let Some(bar) = &bar {
            // A stateful search counts the states it stores; a stateless one, events.
            let rate = s.stored.unwrap_or(s.states) as f64;
            let per_second = rate / exploring.elapsed().as_secs_f64().max(1e-3);
            let stored = s.stored.map_or(String::new(), |n| {
                format!("stored {n} ({:.0} MB)  ", s.stored_bytes as f64 / 1e6)
            });
            // A stateful search's path is no execution: no longest one to show.
            let depth = match s.stored {
                Some(_) => String::new(),
                None => format!("  max depth {}", s.pruning.max_depth),
            };
            bar.set_message(format!(
                "traces {}  blocked {}  {stored}states {}  ({:.0} states/s){depth}",
                s.traces, s.blocked, s.states, per_second
            ));
            bar.tick();
        }
    };
    let progress: Option<explorer::Progress<'_>> =
        if bar.is_some() { Some(&mut show) } else { None };
    if jobs > 1 && !explorer::parallel::spreads(&*algorithm, &config) && !cli.quiet {
        say!(
            "note: {} runs on one thread (--jobs spreads naive, sdpor, csdpor, cdpor, odpor, odpor-cs, ocdpor, stateful, spor, de-spor and dl-spor)",
            algorithm.name()
        );
    }
    ctrl_c.phase(Phase::Exploring);
    if let Some(shard) = cli.partition {
        let search = shard::Search {
            algorithm: algorithm.name().to_string(),
            deps: format!("{:?}", cli.deps).to_lowercase(),
            literal: cli.literal,
            violations_only: cli.violations_only,
            all_violations: cli.all_violations,
            max_steps,
            max_depth: cli.max_depth,
        };
        let split = explorer::parallel::Split {
            jobs,
            units: explorer::parallel::partition::Shard::units_wanted(shard.n),
            top: explorer::parallel::shared_top::TopSplit::default(),
        };
        let report = match explorer::parallel::partition::explore_shard(
            &program, &make, config, split, shard, progress,
        ) {
            Ok(report) => report,
            Err(why) => {
                say!("error: --partition: {why}");
                return BAD_INPUT;
            }
        };
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let time_ms = exploring.elapsed().as_micros() as f64 / 1000.0;
        let file = shard::ShardFile::of(&file, &source, &program, search, shard, &report, time_ms);
        if !cli.quiet {
            say!(
                "shard {shard}: {} traces, {} violations, {}, {:.3} s",
                report.stats.traces,
                report.violations.len(),
                if report.complete() {
                    "complete"
                } else {
                    "incomplete"
                },
                time_ms / 1000.0
            );
        }
        return finish(write_stdout(|w| writeln!(w, "{}", file.to_json())), 0);
    }
    let mut report = if jobs > 1 {
        explorer::parallel::explore(&program, &make, config.clone(), jobs, progress)
    } else {
        explorer::explore_with_progress(&program, algorithm.as_mut(), config.clone(), progress)
    };
    // Without --algo, a state that recurs switches to a stateful search: the state
    // space has cycles, and the stateless run can only stop at the first one (where it
    // would hide whatever lies behind it). With --algo, the user's choice stands.
    if let Some(why) = recurrence(&report).filter(|_| cli.algo.is_none()) {
        let cyclic = registry::DEFAULT_CYCLIC;
        if !cli.quiet {
            let note = format!(
                "note: {} found a cycle ({why}); storing states instead (--algo {})",
                algorithm.name(),
                cyclic.name
            );
            match &bar {
                Some(bar) => bar.suspend(|| say!("{note}")),
                None => say!("{note}"),
            }
        }
        algorithm =
            (cyclic.build(false, || Err(()))).expect("a stateful search needs no constraints");
        let config = Config {
            timeout: cli.timeout.map(|t| t.saturating_sub(started.elapsed())),
            ..config
        };
        let progress: Option<explorer::Progress<'_>> =
            if bar.is_some() { Some(&mut show) } else { None };
        report = explorer::explore_with_progress(&program, algorithm.as_mut(), config, progress);
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let elapsed = exploring.elapsed();
    let shown = Shown {
        json: cli.json,
        stats: cli.stats,
        finals: cli.finals,
        schedules: cli.print_traces,
    };
    let code = print_report(
        &out,
        algorithm.name(),
        &report,
        elapsed,
        shown,
        status(&report),
    );
    if let Some(path) = cli.witness.as_deref() {
        if let Err(code) = write_witness(path, &out, max_steps, algorithm.name(), &report) {
            return code;
        }
    }
    if let (Some(file), Some(recorded)) = (tree_file, report.tree.take()) {
        let naive = naive_config.map(|c| {
            explorer::explore(
                &program,
                &mut explorer::algorithms::naive::Naive::default(),
                c,
            )
        });
        if let Err(message) = draw(cli, path, file, recorded, algorithm.name(), &report, naive) {
            say!("error: {message}");
            return BAD_INPUT;
        }
    }
    code
}

/// The exit status a report gives: something found, stopped early, or nothing.
fn status(report: &Report) -> u8 {
    if !report.violations.is_empty() {
        FOUND
    } else if report.stop != Stop::Complete {
        INCOMPLETE
    } else {
        0
    }
}

/// What of a report is printed.
#[derive(Clone, Copy)]
struct Shown {
    json: bool,
    stats: bool,
    finals: bool,
    schedules: bool,
}

/// Prints `report` as the summary or the JSON object; `code`, unless stdout fails.
fn print_report(
    out: &output::Output<'_>,
    algorithm: &str,
    report: &Report,
    elapsed: Duration,
    shown: Shown,
    code: u8,
) -> u8 {
    let written = write_stdout(|w| {
        if shown.json {
            let json = out.json(algorithm, report, elapsed, shown.stats, shown.schedules);
            writeln!(w, "{json}")
        } else {
            if shown.schedules {
                for schedule in &report.schedules {
                    writeln!(w, "{schedule}")?;
                }
            }
            w.write_all(
                out.human(algorithm, report, elapsed, shown.stats, shown.finals)
                    .as_bytes(),
            )
        }
    });
    finish(written, code)
}

/// Writes the findings of `report` into the witness file `path`; `Err`: the exit
/// status, the message said.
fn write_witness(
    path: &Path,
    out: &output::Output<'_>,
    max_steps: u64,
    algorithm: &str,
    report: &Report,
) -> Result<(), u8> {
    let w = witness::Witness::of(
        out.file,
        out.source,
        out.program,
        max_steps,
        algorithm,
        report,
    );
    std::fs::write(path, w.to_json()).map_err(|e| {
        say!(
            "error: cannot write the witness file {}: {e}",
            path.display()
        );
        BAD_INPUT
    })
}

/// Reads the witness file `path` and checks that it was written for `source`.
fn read_witness(path: &str, file: &str, source: &str) -> Result<witness::Witness, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the witness file {path}: {e}"))?;
    let w = witness::Witness::from_json(&text).map_err(|e| {
        format!(
            "{path}: {e} (--replay reads an existing file as a witness file, \
             anything else as a schedule)"
        )
    })?;
    if !w.matches_source(source) {
        return Err(format!(
            "the witness file {path} was written for another program text ({}, sha256 {}); \
             {file} has sha256 {}: its schedules need not mean anything here",
            w.program.file,
            w.program.sha256,
            frontend::ics::sha256_hex(source.as_bytes())
        ));
    }
    Ok(w)
}

/// `--replay FILE`: replays every finding of the witness file `w`, printing the states
/// along each; 1 when they all reproduce, 2 (with a message) when one does not, 0
/// when the file records none.
fn replay_witness(out: &output::Output<'_>, path: &str, w: &witness::Witness) -> u8 {
    let params: Vec<String> = w.params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let mut text = format!(
        "witness: {path} ({} finding{} of {} on {}{}{})\n",
        w.findings.len(),
        if w.findings.len() == 1 { "" } else { "s" },
        w.algorithm,
        w.program.file,
        if params.is_empty() { "" } else { ", " },
        params.join(", ")
    );
    let mut failed = None;
    for (n, finding) in w.findings.iter().enumerate() {
        let replayed = match explorer::replay::replay(out.program, out.limits, &finding.schedule) {
            Ok(r) => r,
            Err(e) => {
                failed.get_or_insert(format!("finding {} does not replay: {e}", n + 1));
                continue;
            }
        };
        let span = match witness::reproduced(finding, &replayed) {
            Ok(span) => span,
            Err(instead) => {
                failed.get_or_insert(format!(
                    "finding {} ({}) does not reproduce: its schedule ends in {instead}",
                    n + 1,
                    finding.message
                ));
                None
            }
        };
        let v = explorer::Violation {
            kind: finding.kind,
            message: finding.message.clone(),
            block: finding.block.clone(),
            span,
            schedule: finding.schedule.clone(),
        };
        text.push('\n');
        text.push_str(&out.finding(&v, Some(&replayed)));
    }
    let code = if failed.is_some() {
        BAD_INPUT
    } else if w.findings.is_empty() {
        text.push_str("no finding: the run that wrote it found nothing\n");
        0
    } else {
        FOUND
    };
    let code = finish(write_stdout(|o| o.write_all(text.as_bytes())), code);
    if let Some(message) = failed {
        say!("error: {path}: {message}");
    }
    code
}

/// Writes the tree `recorded` by the run of `report` (with what `naive`'s run adds,
/// for `--tree-full`), titled with the run's counts.
fn draw(
    cli: &Cli,
    path: &Path,
    file: tree::TreeFile,
    recorded: explorer::Tree,
    algorithm: &str,
    report: &Report,
    naive: Option<Report>,
) -> Result<(), String> {
    let limit = usize::try_from(cli.tree_limit).unwrap_or(usize::MAX);
    let exact = report.complete();
    let s = &report.stats;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
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
        say!("note: {}", tree::truncated(limit));
    }
    file.write(&tree, &title)
}
