//! `ic-synth`: synthesise the independence constraints and write sets of a `.ic`
//! program and print them as `ics.json` (DESIGN.md "ICs") or as a table.

use clap::{Parser, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Synthesise the independence constraints (ICs) of every pair of atomic blocks of a
/// `.ic` program with an SMT solver, and the write sets W(b) of its blocks.
///
/// Exit status: 0 written, 2 bad input or usage (a diagnostic is printed on stderr).
#[derive(Parser, Debug)]
#[command(name = "ic-synth", version)]
struct Cli {
    /// The program.
    program: PathBuf,

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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `ics.json`, the input of `ic-check --ics`.
    Json,
    /// A table: pair, exact, constraints; then W(b) of each block.
    Text,
}

const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested programs recurse deeply in the checker and the analysis.
    ExitCode::from(frontend::on_large_stack(|| run(&cli)).unwrap_or(BAD_INPUT))
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
    let program = match frontend::load(&source, &cli.define) {
        Ok(p) => p,
        Err(diags) => {
            let color = std::io::stderr().is_terminal();
            eprint!(
                "{}",
                frontend::diagnostic::render(&file, &source, &diags, color)
            );
            return BAD_INPUT;
        }
    };
    let options = ic_synth::Options {
        timeout: Duration::from_millis(cli.timeout_ms),
        jobs: cli.jobs,
    };
    let synthesis = ic_synth::synthesize(&program, &source, &options);
    match cli.format {
        Format::Text => print!("{}", ic_synth::text_table(&program, &synthesis)),
        Format::Json => {
            let name = cli
                .program
                .file_name()
                .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
            let ics = ic_synth::to_ics(&program, &source, &name, &synthesis);
            let json = if cli.pretty {
                serde_json::to_string_pretty(&ics)
            } else {
                serde_json::to_string(&ics)
            };
            match json {
                Ok(j) => println!("{j}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return BAD_INPUT;
                }
            }
        }
    }
    0
}
