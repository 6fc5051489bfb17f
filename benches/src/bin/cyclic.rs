//! `cyclic`: the cyclic set (`benches::table::cyclic`), programs that loop, explored
//! by the stateful searches (stateful, S-POR, DE-S-POR, DL-S-POR) at increasing
//! sizes, with SPIN on the Promela translations beside them when `spin` and `gcc`
//! are installed. Prints markdown with the machine and the command; progress goes to
//! stderr.

use benches::table::cyclic::{self, CYCLIC};
use benches::table::machine::Machine;
use benches::table::spin;
use clap::Parser;
use std::process::ExitCode;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Measure the stateful searches (and SPIN) on the cyclic set.
#[derive(Parser, Debug)]
#[command(
    name = "cyclic",
    after_help = "Exit status: 0 every verdict was the expected one and nothing looked \
                  wrong; 1 something was flagged (listed under the table); 2 bad usage."
)]
struct Cli {
    /// Seconds each search may take before it is stopped.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,

    /// Run only these models (comma-separated).
    #[arg(long, value_name = "MODEL", value_delimiter = ',')]
    only: Vec<String>,

    /// Leave SPIN out.
    #[arg(long)]
    no_spin: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(unknown) = cli
        .only
        .iter()
        .find(|n| !CYCLIC.iter().any(|f| f.name == **n))
    {
        let known: Vec<&str> = CYCLIC.iter().map(|f| f.name).collect();
        eprintln!(
            "error: unknown model `{unknown}`; the models are: {}",
            known.join(", ")
        );
        return ExitCode::from(2);
    }
    let with_spin = !cli.no_spin && spin::available();
    let machine = Machine::describe();
    println!("# The stateful searches on the cyclic set\n");
    println!("- command: `{}`", machine.command);
    println!("- date: {}", machine.date);
    println!("- machine: {} cores, {}", machine.cores, machine.cpu);
    println!("- timeout: {} s per search", cli.timeout);
    println!(
        "- stored: distinct states stored (`>X`: stopped, by the timeout or, in a buggy \
         model, at the bug, marked `(bug)`); T: seconds of the search; SPIN: \
         `benches/promela/run_spin.sh MODEL.pml N`, its `states, stored` and the seconds \
         of `spin -a`, `gcc` and `pan` together.{}\n",
        if with_spin { "" } else { " SPIN was not run." }
    );
    let timeout = Duration::from_secs_f64(cli.timeout);
    let mut rows = Vec::new();
    let mut flagged = false;
    for family in CYCLIC
        .iter()
        .filter(|f| cli.only.is_empty() || cli.only.iter().any(|n| n == f.name))
    {
        for &n in family.sizes {
            eprintln!("{} N = {n}", family.name);
            match cyclic::measure(family, n, timeout, with_spin) {
                Ok(row) => rows.push(row),
                Err(e) => {
                    eprintln!("error: {e}");
                    flagged = true;
                }
            }
        }
    }
    let (table, problems) = cyclic::report(&rows);
    print!("{table}");
    if flagged || problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
