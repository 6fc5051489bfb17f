//! `ic-synth`: synthesise the independence constraints and write sets of a `.ic`
//! program and print them as `ics.json` (docs/ics-format.md) or as a table.

use clap::{CommandFactory, Parser, ValueEnum};
use ic_synth::cli::{finish, write_stdout};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Synthesise the independence constraints (ICs) of every pair of atomic blocks of a
/// `.ic` program with an SMT solver, and the write sets W(b) of its blocks.
///
/// With `--validate`, check the constraints instead against the interpreter on many
/// sampled states, and report the first counterexample.
///
/// Exit status: 0 written (with `--validate`: no counterexample; with `--check-ics`:
/// every claim proved), 1 a counterexample was found (`--validate`) or a claim is not
/// proved (`--check-ics`), 2 bad input or usage (a diagnostic is printed on stderr).
#[derive(Parser, Debug)]
#[command(name = "ic-synth", version)]
struct Cli {
    /// The program.
    #[arg(required_unless_present_any = ["completions", "man"])]
    program: Option<PathBuf>,

    /// Set a `param` of the program: `-D N=10` (repeatable). Constraints hold for
    /// every value of the params; the values matter only for array sizes given as
    /// literals and for checking the program.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = frontend::parse_define)]
    define: Vec<(String, i64)>,

    /// Indent the JSON.
    #[arg(long)]
    pretty: bool,

    /// Time budget of one pair, in milliseconds; a pair that runs out gets no
    /// constraint (it is treated as dependent).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    timeout_ms: u64,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,

    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    jobs: usize,

    /// Check the constraints instead of printing them: for every pair with a
    /// constraint, run both orders with the interpreter from many sampled states
    /// (random, boundary and program-constant values) and report the first state
    /// where a constraint holds, both blocks are enabled, and the orders fail,
    /// disable each other or reach different states.
    #[arg(long)]
    validate: bool,

    /// Re-prove the claims of this ics.json (made for the same program text) with one
    /// SMT query per constraint, as `ic-check --ics` does, instead of synthesising:
    /// exit 0 when all are proved, 1 with the first claim that is not.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["validate", "ics"])]
    check_ics: Option<PathBuf>,

    /// With --validate: check the constraints of this ics.json (made for the same
    /// program text) instead of synthesising them.
    #[arg(long, value_name = "FILE", requires = "validate")]
    ics: Option<PathBuf>,

    /// With --validate: seed of the state sampler (the same seed samples the same
    /// states).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "validate")]
    seed: u64,

    /// With --validate: states sampled per pair of blocks.
    #[arg(long, value_name = "N", default_value_t = 300, requires = "validate")]
    samples: usize,

    /// With --validate: instructions one block may run before "block did not
    /// terminate".
    #[arg(
        long,
        value_name = "N",
        default_value_t = 100_000,
        requires = "validate"
    )]
    max_steps: u64,

    /// Print a completion script for SHELL on stdout and exit (see docs/cli.md, "Shell completions and manual page").
    #[arg(long, value_name = "SHELL", exclusive = true)]
    completions: Option<clap_complete::Shell>,

    /// Print the manual page (roff) on stdout and exit: `ic-synth --man > ic-synth.1`.
    #[arg(long, exclusive = true)]
    man: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `ics.json`, the input of `ic-check --ics`.
    Json,
    /// A table: pair, exact, constraints; then W(b) of each block.
    Text,
}

/// A line on stderr. Unlike `eprintln!`, a closed stderr is not a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

const FOUND: u8 = 1;
const BAD_INPUT: u8 = 2;

/// Writes `text` to stdout and gives `code`; a reader that went away (`| head`) ends
/// the output quietly, any other failure to write is an error.
fn emit(text: &str, code: u8) -> u8 {
    finish(write_stdout(|out| out.write_all(text.as_bytes())), code)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(code) = ic_synth::cli::generated(cli.completions, cli.man, Cli::command) {
        return ExitCode::from(code);
    }
    let Some(program) = cli.program.clone() else {
        // clap requires the program unless --completions or --man is given.
        return ExitCode::from(BAD_INPUT);
    };
    // Deeply nested programs recurse deeply in the checker and the analysis.
    ExitCode::from(frontend::on_large_stack(|| run(&cli, &program)).unwrap_or(BAD_INPUT))
}

fn run(cli: &Cli, path: &std::path::Path) -> u8 {
    let file = path.display().to_string();
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            say!("error: cannot read {file}: {e}");
            return BAD_INPUT;
        }
    };
    let program = match frontend::load(&source, &cli.define) {
        Ok(p) => p,
        Err(diags) => {
            let color = frontend::diagnostic::use_color(std::io::stderr().is_terminal());
            let _ = write!(
                std::io::stderr(),
                "{}",
                frontend::diagnostic::render(&file, &source, &diags, color)
            );
            return BAD_INPUT;
        }
    };
    let options = ic_synth::Options {
        timeout: Duration::from_millis(cli.timeout_ms),
        jobs: cli.jobs,
        deadline: None,
    };
    if cli.validate {
        return validate(cli, &file, &source, &program, &options);
    }
    if let Some(path) = &cli.check_ics {
        return check_ics(cli, path, &file, &source, &program);
    }
    let synthesis = ic_synth::synthesize(&program, &source, &options);
    match cli.format {
        Format::Text => emit(&ic_synth::text_table(&program, &synthesis), 0),
        Format::Json => {
            let name = path
                .file_name()
                .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
            let ics = ic_synth::to_ics(&program, &source, &name, &synthesis);
            let json = if cli.pretty {
                serde_json::to_string_pretty(&ics)
            } else {
                serde_json::to_string(&ics)
            };
            match json {
                Ok(j) => emit(&format!("{j}\n"), 0),
                Err(e) => {
                    say!("error: {e}");
                    BAD_INPUT
                }
            }
        }
    }
}

/// Reads an ics.json made for `source`; `Err` is the message.
fn read_ics(
    path: &std::path::Path,
    file: &str,
    source: &str,
) -> Result<frontend::ics::Ics, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let ics = frontend::ics::Ics::from_json(&text).map_err(|e| format!("{shown}: {e}"))?;
    if !ics.matches_source(source) {
        return Err(format!("{shown} was made for another program than {file}"));
    }
    Ok(ics)
}

/// `--check-ics FILE`: every claim of the file re-proved (`ic_synth::recheck`).
fn check_ics(
    cli: &Cli,
    path: &std::path::Path,
    file: &str,
    source: &str,
    program: &frontend::ir::Program,
) -> u8 {
    let ics = match read_ics(path, file, source) {
        Ok(i) => i,
        Err(e) => {
            say!("error: {e}");
            return BAD_INPUT;
        }
    };
    if let Err(e) = ics.resolve(program) {
        say!("error: {e}");
        return BAD_INPUT;
    }
    let options = ic_synth::recheck::Options {
        timeout: Duration::from_millis(cli.timeout_ms),
        jobs: cli.jobs,
        ..ic_synth::recheck::Options::default()
    };
    match ic_synth::recheck::recheck(program, source, &ics, &options) {
        Ok(r) => emit(
            &format!(
                "ok: {} constraints of {} pairs proved, {} pairs proved exact; {} solver queries, {} ms\n",
                r.constraints, r.pairs, r.exact, r.queries, r.ms
            ),
            0,
        ),
        Err(refusal) => emit(&format!("not proved: {refusal}\n"), FOUND),
    }
}

/// `--validate`: the constraints of `--ics FILE`, or freshly synthesised ones, against
/// the interpreter.
fn validate(
    cli: &Cli,
    file: &str,
    source: &str,
    program: &frontend::ir::Program,
    options: &ic_synth::Options,
) -> u8 {
    let ics = match &cli.ics {
        Some(path) => match read_ics(path, file, source) {
            Ok(i) => i,
            Err(e) => {
                say!("error: {e}");
                return BAD_INPUT;
            }
        },
        None => {
            let synthesis = ic_synth::synthesize(program, source, options);
            ic_synth::to_ics(program, source, file, &synthesis)
        }
    };
    let resolved = match ics.resolve(program) {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return BAD_INPUT;
        }
    };
    let v = ic_synth::validate::validate(
        program,
        &resolved,
        &ic_synth::validate::Options {
            seed: cli.seed,
            samples: cli.samples,
            max_steps: cli.max_steps,
            check_exact: false,
        },
    );
    match &v.counterexample {
        Some(c) => {
            emit(&format!("counterexample: {c}\n"), FOUND)
        }
        None => {
            emit(&format!(
                "ok: {} pairs with constraints, {} states with both blocks enabled, {} where a constraint held; no counterexample (seed {}, {} samples per pair)\n",
                v.pairs_checked, v.enabled, v.held, cli.seed, cli.samples
            ), 0)
        }
    }
}
