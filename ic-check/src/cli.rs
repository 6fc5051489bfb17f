//! The command line, declared with clap's derive API.

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use explorer::parallel::partition::Shard;
use explorer::registry::{self, AlgorithmSpec};
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Duration;

/// Explore every behaviour of a `.ic` program: final states, deadlocks, assertion
/// violations and runtime errors, each with a schedule that reproduces it.
///
/// Exit status: 0 nothing found, 1 a violation, deadlock or runtime error was found,
/// 2 bad input or usage, 3 stopped early (--timeout, --max-traces, Ctrl-C) with nothing
/// found, 130 Ctrl-C before the exploration started.
#[derive(Parser, Debug)]
#[command(
    name = "ic-check",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The program to check.
    #[arg(required_unless_present_any = ["completions", "man"])]
    pub program: Option<PathBuf>,

    /// The exploration algorithm [default: cdpor, and dl-spor once a state recurs:
    /// the state space has cycles, which a stateless search cannot finish].
    #[arg(long, value_enum)]
    pub algo: Option<Algo>,

    /// Independence constraints from `ic-synth` (cdpor only); without it they are
    /// synthesised in-process. Refused when it was made for another program text or
    /// is of another format version.
    /// Every constraint of the file is re-proved first, one SMT query each (see
    /// --trust-ics).
    #[arg(long, value_name = "ICS.json")]
    pub ics: Option<PathBuf>,

    /// With --ics: use the file's constraints without re-proving them. A wrong
    /// constraint then makes cdpor miss behaviours.
    #[arg(long, requires = "ics")]
    pub trust_ics: bool,

    /// What makes two events dependent: what they touched where that may stand for them
    /// (`accesses`), or their blocks' transition footprints, recorded (`dynamic`) or
    /// computed (`static`).
    #[arg(long, value_enum, default_value_t = DepsArg::Accesses)]
    pub deps: DepsArg,

    /// Follow the papers' algorithms to the letter: no commutation of sleeping steps in
    /// csdpor, cdpor, odpor-cs and odpor-cs-ob (reproduces the worked examples; Table
    /// 1's 2^N needs the default); ocdpor without state checks (optimal for its finer
    /// dependency).
    #[arg(long)]
    pub literal: bool,

    /// Only violations and deadlocks matter: the end of an execution observes no
    /// write, as in the ISSTA'19 paper, so odpor-ob and odpor-cs-ob reorder writes that
    /// nothing reads after. The same violations and deadlocks are found (the
    /// differential test checks them against naive); final states are then not all
    /// reported (the other algorithms ignore this option).
    #[arg(long)]
    pub violations_only: bool,

    /// Set a `param` of the program: `-D N=10` (repeatable).
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = frontend::parse_define)]
    pub define: Vec<(String, i64)>,

    /// Print one JSON object instead of the human summary.
    #[arg(long)]
    pub json: bool,

    /// Explore everything and report each distinct violation once (default: stop at the first).
    #[arg(long)]
    pub all_violations: bool,

    /// Stop after this many seconds and report what was found (lower bounds); a
    /// finite number, 0 or more (fractions allowed). Counts from the start: cdpor's
    /// synthesis, and the re-proof of --ics (which stops the run when it does not
    /// finish in time), included.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,

    /// Explore at most this many complete executions: the run stops (incomplete) when
    /// it finds one more; a program with exactly N is explored completely.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_traces: Option<u64>,

    /// Explore on N threads (0: one per core). sdpor's, csdpor's, cdpor's, odpor's,
    /// odpor-cs's and ocdpor's threads share the top of the execution tree and its
    /// backtrack sets or wakeup trees, and explore the subtrees below it: sdpor's,
    /// odpor's and ocdpor --literal's complete executions are one thread's; blocked
    /// executions and states (and csdpor's, cdpor's, odpor-cs's and ocdpor's
    /// executions) may differ from one thread's and from run to run.
    /// naive splits the tree into units, each interleaving explored once: one
    /// thread's counts.
    /// stateful's threads share one store of states: one thread's counts. spor's
    /// share it too, and expand whole every state whose invisible step reaches a
    /// state stored before: the same final states and findings, stored states that
    /// may exceed one thread's. dl-spor's and de-spor's
    /// share one store and the summaries of what follows the states each finished:
    /// the same final states and findings, stored states that may exceed one
    /// thread's and differ from run to run. odpor-ob and odpor-cs-ob (whose races are
    /// found where executions end, so they share no top; units of a frontier would
    /// explore what each prunes for the others), --livelocks, --tree and
    /// --max-traces run on one thread; --partition still shards them.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,

    /// Explore only the K-th of N shards of the search (1 <= K <= N) and print its
    /// result as one JSON object (a shard file) for `ic-check merge`; every shard of a
    /// run is given the same program, params and options. The exit status is 0 once
    /// the shard file is written, whatever it found: the merge gives the verdict.
    /// Every --algo but naive is sharded (the searches that compare states, in
    /// shards that share no state, may explore many more executions than one run).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["tree", "max_traces", "replay", "livelocks", "witness"])]
    pub partition: Option<Shard>,

    /// Instructions one block may run before it is a runtime error ("block did not
    /// terminate"); default 1000000.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_steps: Option<u64>,

    /// Events one execution may have: an execution that reaches it is reported with
    /// its schedule, and the exploration stops.
    #[arg(long, value_name = "N", default_value_t = explorer::MAX_DEPTH)]
    pub max_depth: usize,

    /// Report livelocks: cycles of the state graph that an execution can follow for
    /// ever under weak fairness (every process enabled throughout the cycle takes a
    /// step in it), each with a lasso schedule `prefix ( cycle )` that --replay runs.
    /// Runs the stateful reference (the default with this flag, and the only
    /// algorithm it accepts).
    #[arg(long)]
    pub livelocks: bool,

    /// Megabytes a stateful search (stateful, spor, de-spor, dl-spor) may take for its
    /// stored states and what it keeps beside them (the `stored:` line): past them the
    /// search stops and reports what it found, as --timeout does.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory: Option<u64>,

    /// No progress line on stderr (there is none with --json or off a terminal).
    #[arg(long)]
    pub quiet: bool,

    /// Also print the counters of each pruning (races pruned, sleep entries added…).
    #[arg(long)]
    pub stats: bool,

    /// List the schedule of every explored complete execution, one per line (with
    /// --json: as the list `schedules`).
    #[arg(long)]
    pub print_traces: bool,

    /// Draw the execution tree of the run into FILE: `.dot` (Graphviz) or `.svg`. Nodes
    /// are states numbered in exploration order with the globals that changed, edges
    /// the blocks run; each node shows the sleep and backtrack sets it was left with and
    /// how its execution ended.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub tree: Option<PathBuf>,

    /// With --tree: also draw, dotted, what naive explores and this algorithm pruned
    /// (runs naive as well, with the same limits).
    #[arg(long, requires = "tree")]
    pub tree_full: bool,

    /// With --tree: the picture stops growing at N nodes; the exploration goes on.
    #[arg(long, value_name = "N", default_value_t = 5000, requires = "tree", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub tree_limit: u64,

    /// List each distinct final state with how many explored executions reached it
    /// and a schedule to replay (the first 1000 found).
    #[arg(long)]
    pub finals: bool,

    /// Write every finding (violation, deadlock, runtime error) into FILE as a witness
    /// file for --replay: program hash, params, algorithm, and each finding's schedule.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub witness: Option<PathBuf>,

    /// Run this schedule (as printed in a witness, e.g. "p q r") and print every state;
    /// or, when the argument names an existing file, replay the findings of that
    /// witness file (written by --witness) with its params.
    #[arg(long, value_name = "SCHEDULE|FILE")]
    pub replay: Option<String>,

    /// Print a completion script for SHELL on stdout and exit (see docs/cli.md, "Shell completions and manual page").
    #[arg(long, value_name = "SHELL", exclusive = true)]
    pub completions: Option<clap_complete::Shell>,

    /// Print the manual page (roff) on stdout and exit: `ic-check --man > ic-check.1`.
    #[arg(long, exclusive = true)]
    pub man: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Put the shard files of a `--partition` run together: the summary, `--json`
    /// and exit status of the whole run. Refuses shards of another program text,
    /// params, algorithm, options, ic-check version or number of shards, and a
    /// missing or repeated shard.
    Merge(Merge),
}

#[derive(Args, Debug)]
pub struct Merge {
    /// The shard files, one per shard, in any order.
    #[arg(required = true, value_name = "SHARD.json")]
    pub shards: Vec<PathBuf>,

    /// Where the program the shards explored is now (default: the path they record);
    /// its text must be the one they were made from.
    #[arg(long, value_name = "FILE")]
    pub program: Option<PathBuf>,

    /// Print one JSON object instead of the human summary.
    #[arg(long)]
    pub json: bool,

    /// Also print the counters of each pruning.
    #[arg(long)]
    pub stats: bool,

    /// List each distinct final state with how many explored executions reached it
    /// and a schedule to replay (the first 1000 found).
    #[arg(long)]
    pub finals: bool,

    /// Write every finding into FILE as a witness file for `ic-check --replay`.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
}

/// The default of `--max-steps`.
pub const MAX_STEPS: u64 = 1_000_000;

/// `--timeout SECS`: a finite, non-negative number of seconds that a [`Duration`] holds.
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !secs.is_finite() {
        return Err(format!(
            "`{s}` is not a finite number of seconds (leave --timeout out to run without one)"
        ));
    }
    if secs < 0.0 {
        return Err(format!("`{s}` is negative: a timeout is 0 seconds or more"));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{s}` seconds is too long a timeout"))
}

/// `--algo`: one of [`explorer::registry::ALGORITHMS`], by name, each with its line
/// of `--help`; without it, [`registry::DEFAULT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algo(pub &'static AlgorithmSpec);

impl ValueEnum for Algo {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: LazyLock<Vec<Algo>> = LazyLock::new(|| {
            registry::ALGORITHMS
                .iter()
                .map(|&spec| Algo(spec))
                .collect()
        });
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name).help(self.0.summary))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DepsArg {
    /// What events touched (sdpor, csdpor, odpor, naive's count), where their blocks' other
    /// paths touch nothing else: a failed compare-and-swap only reads.
    Accesses,
    /// What events' blocks may touch from their process's local state (transition
    /// footprints), recorded where that is what they touched.
    Dynamic,
    /// Transition footprints, every one computed: explores what `dynamic` does.
    Static,
}

impl From<DepsArg> for explorer::Deps {
    fn from(d: DepsArg) -> Self {
        match d {
            DepsArg::Dynamic => explorer::Deps::Dynamic,
            DepsArg::Static => explorer::Deps::Static,
            DepsArg::Accesses => explorer::Deps::Accesses,
        }
    }
}
