//! One report of several explorations of disjoint parts of a search: the frontier
//! and its units ([`super::explore`]).

use crate::exploration::sort_outcomes;
use crate::fingerprint::Fingerprint;
use crate::report::{Outcome, Pruning, Report, Stats, Stop};
use rustc_hash::{FxHashMap, FxHashSet};

/// The report of the parts together, in their order: counters added (the peaks
/// are the largest), final states, reads-from classes and violations as sets (each
/// violation and outcome with the first part's schedule), `stop` as given. The
/// Mazurkiewicz count (naive's) is of the parts' traces together, where they count
/// them: two parts may reach one trace by two interleavings.
pub fn merge(parts: Vec<Report>, stop: Stop, max_outcomes: usize) -> Report {
    let mut stats = Stats::default();
    let mut finals: FxHashSet<Fingerprint> = FxHashSet::default();
    let mut reads_from: FxHashSet<Fingerprint> = FxHashSet::default();
    let mut traces: FxHashSet<Fingerprint> = FxHashSet::default();
    let mut counted = false;
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut outcome_index: FxHashMap<Fingerprint, usize> = FxHashMap::default();
    let mut violations = Vec::new();
    let mut seen = FxHashSet::default();
    let mut schedules = Vec::new();
    let mut finals_exhaustive = true;
    let mut dependency = None;
    for part in parts {
        add_stats(&mut stats, &part.stats);
        finals.extend(part.finals);
        reads_from.extend(part.reads_from);
        traces.extend(part.mazurkiewicz_traces);
        counted |= part.stats.mazurkiewicz.is_some();
        for outcome in part.outcomes {
            match outcome_index.get(&outcome.fingerprint) {
                Some(&i) => outcomes[i].executions += outcome.executions,
                None if outcomes.len() < max_outcomes => {
                    outcome_index.insert(outcome.fingerprint, outcomes.len());
                    outcomes.push(outcome);
                }
                None => {}
            }
        }
        for v in part.violations {
            if seen.insert((v.kind, v.message.clone(), v.block.clone(), v.span)) {
                violations.push(v);
            }
        }
        schedules.extend(part.schedules);
        finals_exhaustive &= part.finals_exhaustive;
        dependency.get_or_insert(part.dependency);
    }
    stats.final_states = finals.len() as u64;
    stats.mazurkiewicz = counted.then_some(traces.len() as u64);
    let mut mazurkiewicz_traces: Vec<Fingerprint> = traces.into_iter().collect();
    mazurkiewicz_traces.sort_unstable();
    let mut finals: Vec<Fingerprint> = finals.into_iter().collect();
    finals.sort_unstable();
    let mut reads_from: Vec<Fingerprint> = reads_from.into_iter().collect();
    reads_from.sort_unstable();
    sort_outcomes(&mut outcomes);
    Report {
        stats,
        violations,
        stop,
        finals,
        outcomes,
        schedules,
        reads_from,
        mazurkiewicz_traces,
        tree: None,
        finals_exhaustive,
        dependency: dependency.unwrap_or_default(),
        parallel: None,
    }
}

/// Adds the counters of `s` to `to` (the peaks: the larger).
pub(super) fn add_stats(to: &mut Stats, s: &Stats) {
    to.traces += s.traces;
    to.blocked += s.blocked;
    to.states += s.states;
    to.stored_bytes += s.stored_bytes;
    // Stores of several stateful explorations: states reached by more than one are
    // counted in each (what was explored).
    to.stored = match (to.stored, s.stored) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
    };
    add_pruning(&mut to.pruning, &s.pruning);
}

fn add_pruning(to: &mut Pruning, p: &Pruning) {
    let Pruning {
        races,
        irreversible_races,
        backtrack_added,
        backtrack_dropped,
        ic_checks_line9,
        races_pruned_by_ics,
        races_guarded_by_ics,
        races_guarded_by_running,
        races_guarded_in_groups,
        ic_checks_line11,
        replayed_events,
        ic_checks_line17,
        sleep_added_by_ics,
        sleep_added_by_states,
        sleep_added_modulo_observers,
        sleep_extensions,
        cuts,
        probes,
        covered_unrun,
        max_depth,
        max_sleep,
        max_sleep_path,
        wakeup_inserted,
        max_wakeup,
        wakeup_dropped,
        wakeup_beside_commuting,
        redundant_races,
        met_open,
        summarised_from_text,
    } = p;
    to.races += races;
    to.irreversible_races += irreversible_races;
    to.backtrack_added += backtrack_added;
    to.backtrack_dropped += backtrack_dropped;
    to.ic_checks_line9 += ic_checks_line9;
    to.races_pruned_by_ics += races_pruned_by_ics;
    to.races_guarded_by_ics += races_guarded_by_ics;
    to.races_guarded_by_running += races_guarded_by_running;
    to.races_guarded_in_groups += races_guarded_in_groups;
    to.ic_checks_line11 += ic_checks_line11;
    to.replayed_events += replayed_events;
    to.ic_checks_line17 += ic_checks_line17;
    to.sleep_added_by_ics += sleep_added_by_ics;
    to.sleep_added_by_states += sleep_added_by_states;
    to.sleep_added_modulo_observers += sleep_added_modulo_observers;
    to.sleep_extensions += sleep_extensions;
    to.cuts += cuts;
    to.probes += probes;
    to.covered_unrun += covered_unrun;
    to.max_depth = to.max_depth.max(*max_depth);
    to.max_sleep = to.max_sleep.max(*max_sleep);
    to.max_sleep_path = to.max_sleep_path.max(*max_sleep_path);
    to.wakeup_inserted += wakeup_inserted;
    to.max_wakeup = to.max_wakeup.max(*max_wakeup);
    to.wakeup_dropped += wakeup_dropped;
    to.wakeup_beside_commuting += wakeup_beside_commuting;
    to.redundant_races += redundant_races;
    to.met_open += met_open;
    to.summarised_from_text += summarised_from_text;
}
