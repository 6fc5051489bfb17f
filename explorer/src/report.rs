//! What an exploration found: counters, violations with their schedules, and why it stopped.

use frontend::ast::Span;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViolationKind {
    Assert,
    Runtime,
    Deadlock,
    /// A state recurs on an execution: it can go on for ever (see [`crate::lasso`]).
    NonTermination,
    /// An execution reached [`crate::Config::max_depth`] events.
    DepthLimit,
    /// A cycle of the state graph that is fair: every process enabled throughout it
    /// takes a step in it (`--livelocks`, [`crate::livelock`]). Its schedule is a
    /// lasso, `prefix ( cycle )`.
    Livelock,
}

/// A failed assertion, a runtime error or a deadlock, with a schedule that reaches it.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    pub kind: ViolationKind,
    pub message: String,
    /// The block that failed (for a deadlock: the first blocked block).
    pub block: String,
    /// The failing statement (none for a deadlock).
    #[serde(skip)]
    pub span: Option<Span>,
    /// The processes to run, in order, from the initial state, as `ic-check --replay`
    /// takes them; the last step fails (for a deadlock: the state after it is stuck).
    pub schedule: String,
}

/// The counters of the papers' tables (docs/soundness.md, "What the counts mean").
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Complete executions explored (ending in a final state, deadlocks included).
    pub traces: u64,
    /// Executions abandoned because every enabled process was asleep.
    pub blocked: u64,
    /// 1 + every event executed, including events run only to compare states.
    pub states: u64,
    /// Distinct final states, compared as docs/language.md says.
    pub final_states: u64,
    /// Mazurkiewicz traces among the complete executions (computed by `naive`).
    pub mazurkiewicz: Option<u64>,
    /// The distinct states a stateful search stored ([`crate::visited`]); none for a
    /// stateless search.
    pub stored: Option<u64>,
    /// The memory those stored states take, in bytes, with what the search keeps of
    /// the transitions between them (the source-set searches' explored graph).
    pub stored_bytes: u64,
    /// What each pruning of the DPOR algorithms did (`ic-check --stats`).
    pub pruning: Pruning,
}

/// Counters of the DPOR prunings, by the line of Alg. 1 (CDPOR/CSDPOR papers) they
/// come from, and the peak sizes of what a stateless search keeps.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Pruning {
    /// Races found (line 6).
    pub races: u64,
    /// Races of an `await` that cannot pass before the earlier event (not `⋖`, line 6),
    /// so nothing is added for them.
    pub irreversible_races: u64,
    /// Processes added to backtrack sets (line 10).
    pub backtrack_added: u64,
    /// Of those, the ones dropped unexplored because an explored entry stood for
    /// every race they were added for ([`crate::dpor::needs`]).
    #[serde(default)]
    pub backtrack_dropped: u64,
    /// Races whose events were checked for independence whatever the state (CDPOR line 9).
    pub ic_checks_line9: u64,
    /// Races not reversed because their events commute whatever the state, or where
    /// every linearisation meets them (CDPOR line 9).
    pub races_pruned_by_ics: u64,
    /// Of those, the races whose events commute where every linearisation meets them
    /// ([`crate::dependency::guarded`]).
    #[serde(default)]
    pub races_guarded_by_ics: u64,
    /// Of those, the races where no constraint held and both orders were run
    /// ([`crate::dependency::guarded::commute_by_running`]).
    #[serde(default)]
    pub races_guarded_by_running: u64,
    /// Of those, the races of an event that joined a group of guarded
    /// independences with the members ([`crate::dependency::guarded_group`]).
    #[serde(default)]
    pub races_guarded_in_groups: u64,
    /// Constraints checked in `s[E'.û]` (CDPOR line 11).
    pub ic_checks_line11: u64,
    /// Events run on a copy only to compute a state to compare or to evaluate a
    /// constraint in (csdpor's commutation check, cdpor's `s[E'.û]`): not explored,
    /// so not states (docs/soundness.md, "What the counts mean").
    pub replayed_events: u64,
    /// Sleeping steps checked against a constraint (CDPOR line 17).
    pub ic_checks_line17: u64,
    /// Sleep sequences added because a constraint holds (CDPOR lines 11–12).
    pub sleep_added_by_ics: u64,
    /// Sleep sequences added because the reversed race may reach the same state (CSDPOR
    /// line 14; odpor-cs's don't-do sequences, ODPOR_cs line 42), checked lazily.
    pub sleep_added_by_states: u64,
    /// Don't-do sequences added for an observed write/write race whose reversal was
    /// run through its last observer and reached its state by the same transitions
    /// (`odpor-cs-ob`, ISSTA'19 Sec. 4.1: [`crate::algorithms::odpor_cs_ob::modulo_observers`]).
    pub sleep_added_modulo_observers: u64,
    /// Sleeping steps kept asleep though dependent (CDPOR line 17, csdpor's commutation check).
    pub sleep_extensions: u64,
    /// Executions cut because a sleeping step can never be woken (CSDPOR Sec. 5.3, opt. 1).
    pub cuts: u64,
    /// Guards of disabled processes analysed for races.
    pub probes: u64,
    /// Last steps of sequences proved to reach a covered state, whose races were
    /// analysed without running them (CDPOR line 12; see `Dpor::analyse_covered_steps`), and
    /// odpor-cs's and ocdpor's confirmed don't-do steps (`Dpor::block_unrun`).
    pub covered_unrun: u64,
    /// The longest execution.
    pub max_depth: u64,
    /// The largest sleep set of a node.
    pub max_sleep: u64,
    /// The most sleep entries the nodes of one execution held together, at its end
    /// (ISSTA'19's M_D; its M_S is `max_depth`).
    pub max_sleep_path: u64,
    /// Sequences inserted into wakeup trees (`odpor`, in place of line 10).
    pub wakeup_inserted: u64,
    /// The most steps the wakeup trees of the current path held at once (`odpor`).
    pub max_wakeup: u64,
    /// Wakeup-tree steps dropped because their process could not run there (a blocked
    /// `await`; `odpor` then chooses as Source-DPOR does).
    pub wakeup_dropped: u64,
    /// Wakeup sequences inserted although a process asleep there commutes with all
    /// of them, with some events only by what the search lifts beyond footprints
    /// (`ocdpor`'s `R`, odpor-ob's unobserved writes): not a weak initial (see
    /// [`crate::dpor::wakeup_tree::sleeper_covers`]). Besides processes whose identities
    /// `R` moves, the one known way `ocdpor --literal` may end executions blocked
    /// without `await`; counted per insertion, also where no execution ends blocked
    /// (about 10% of generated programs without `await`).
    pub wakeup_beside_commuting: u64,
    /// Reversals not inserted because a process done at a prefix comes first in them
    /// (`odpor-ob`: `redundant(E', done)` of ODPOR^ob, over `→ob`).
    pub redundant_races: u64,
    /// Steps of a thread of dl-spor or de-spor on `--jobs` to a state another thread
    /// was still expanding: the step's state is expanded whole, and what follows the
    /// state is read from the other thread's summary once there is one
    /// ([`crate::stateful::search`], "On threads"). Where the threads' states and
    /// transitions exceed one thread's, these are where the extra comes from.
    #[serde(default)]
    pub met_open: u64,
    /// Of those, the steps whose state the other thread had not finished with when
    /// this one needed its summary: what follows it was summarised from the program
    /// text ([`crate::stateful::may_follow`]), which holds more than the state's own
    /// summary would.
    #[serde(default)]
    pub summarised_from_text: u64,
}

/// Why an exploration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Every execution was explored.
    Complete,
    /// Stopped at the first violation, as asked.
    Violation,
    Timeout,
    MaxTraces,
    /// Stopped from outside ([`crate::Config::interrupt`]: Ctrl-C).
    Interrupted,
    /// The execution tree is full, and the run was made only for its picture
    /// ([`crate::TreeConfig::halt_when_full`]).
    TreeFull,
    /// The stored states of a stateful search took more than
    /// [`crate::Config::max_memory`].
    MemoryLimit,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub stats: Stats,
    pub violations: Vec<Violation>,
    pub stop: Stop,
    /// Fingerprints of the distinct final states, sorted: comparable across algorithms
    /// (the differential tests compare them with naive's).
    #[serde(skip)]
    pub finals: Vec<crate::fingerprint::Fingerprint>,
    /// The distinct final states themselves, each with its count and a schedule: the
    /// first [`crate::Config::max_outcomes`] found, sorted by how they print. Fewer
    /// than `finals` when capped ([`Report::outcomes_capped`]).
    #[serde(skip)]
    pub outcomes: Vec<Outcome>,
    /// The schedule of every complete execution, in exploration order (when asked).
    #[serde(skip)]
    pub schedules: Vec<String>,
    /// The reads-from classes of the complete executions explored, sorted (when asked,
    /// [`crate::Config::record_reads_from`]; see [`crate::reads_from`]).
    #[serde(skip)]
    pub reads_from: Vec<crate::fingerprint::Fingerprint>,
    /// The Mazurkiewicz traces of the complete executions, sorted (naive's count,
    /// [`Stats::mazurkiewicz`]): what the parts of a split naive add up as a set.
    #[serde(skip)]
    pub mazurkiewicz_traces: Vec<crate::fingerprint::Fingerprint>,
    /// The execution tree, when [`crate::Config::tree`] asked for it.
    #[serde(skip)]
    pub tree: Option<crate::tree::Tree>,
    /// Every final state of the program is among `finals`: not so with
    /// [`crate::Config::violations_only`] for the algorithms with observers, whose ends
    /// observe nothing then ([`crate::Algorithm::observes_the_end`]).
    pub finals_exhaustive: bool,
    /// What the events' footprints were: what they touched, or their transition
    /// footprints (the traces and the Mazurkiewicz count are of that dependency).
    #[serde(skip)]
    pub dependency: crate::dependency::footprint::Carried,
    /// How a parallel search was spread (`--jobs`); `None` for one thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel: Option<Parallel>,
}

impl Report {
    /// Everything was explored: the counts are exact, and no violation was missed.
    pub fn complete(&self) -> bool {
        self.stop == Stop::Complete
    }

    /// Some distinct final states are counted but not in [`Report::outcomes`].
    pub fn outcomes_capped(&self) -> bool {
        self.outcomes.len() < self.finals.len()
    }
}

/// How a parallel search was spread (`--jobs`, `--partition`, [`crate::parallel`]).
#[derive(Clone, Debug, Serialize)]
pub struct Parallel {
    /// The threads that explored units.
    pub jobs: usize,
    /// The units of the frontier.
    pub units: usize,
    /// The frontier's depth: the events of each unit's path.
    pub depth: usize,
    /// The shard this run explored, of a partitioned search; `None` for the whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::parallel::partition::Shard>,
    /// The shards merged into this report ([`crate::parallel::partition::combine`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<usize>,
    /// Whether the threads shared the top of the tree, `depth` events deep, rather
    /// than split it at a frontier ([`crate::parallel::shared_top`]): `units` are then
    /// the jobs they took, nodes of the top and subtrees below it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shared_top: bool,
}

/// A distinct final state — states compared as docs/soundness.md says of `final states`: the
/// globals plus the multiset of live processes — with how many explored complete
/// executions reached it and the schedule of the first one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Its entry in [`Report::finals`].
    #[serde(skip)]
    pub fingerprint: crate::fingerprint::Fingerprint,
    /// `x = 1, a = [0, 2]`, as states are printed.
    pub globals: String,
    /// The processes that have not ended (a deadlock), each `proc at block {live
    /// locals}`, with no identities, sorted; empty when every process has ended.
    pub processes: Vec<String>,
    /// Complete executions of this exploration that ended in it (with a reduced
    /// algorithm: those explored, not every interleaving).
    pub executions: u64,
    /// The first of them, as `ic-check --replay` takes it.
    pub schedule: String,
}

impl Outcome {
    /// One line: the globals, then ` | ` and the live processes if any.
    pub fn show(&self) -> String {
        let globals = if self.globals.is_empty() {
            "(no globals)"
        } else {
            &self.globals
        };
        if self.processes.is_empty() {
            globals.to_string()
        } else {
            format!("{globals} | {}", self.processes.join("; "))
        }
    }
}
