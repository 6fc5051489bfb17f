//! Reports: the human summary, the `--json` object, witnesses and replays.

use explorer::replay::{self, End, Replay};
use explorer::{Pruning, Report, Stop, Violation, ViolationKind};
use frontend::diagnostic::{line_col, render, Diagnostic};
use frontend::interp::Limits;
use frontend::ir::Program;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::time::Duration;

pub struct Output<'a> {
    pub file: &'a str,
    pub source: &'a str,
    pub program: &'a Program,
    pub limits: Limits,
}

fn result(report: &Report) -> &'static str {
    if !report.violations.is_empty() {
        "violation"
    } else if report.stop == Stop::Complete {
        "ok"
    } else {
        "incomplete"
    }
}

/// A count as the papers print it: `>N` when the exploration stopped early.
pub fn count(n: u64, exact: bool) -> String {
    if exact {
        n.to_string()
    } else {
        format!(">{n}")
    }
}

impl Output<'_> {
    pub fn human(
        &self,
        algorithm: &str,
        report: &Report,
        elapsed: Duration,
        stats: bool,
        finals: bool,
    ) -> String {
        let exact = report.complete();
        let s = &report.stats;
        let mut out = String::new();
        let stop = match report.stop {
            Stop::Complete | Stop::Violation => String::new(),
            Stop::Timeout => " (stopped by --timeout)".to_string(),
            Stop::MaxTraces => " (stopped by --max-traces)".to_string(),
            Stop::Interrupted => " (stopped by Ctrl-C)".to_string(),
            Stop::TreeFull => " (stopped: the tree is full)".to_string(),
            Stop::MemoryLimit => " (stopped by --max-memory)".to_string(),
        };
        let rows = [
            ("program", self.file.to_string()),
            ("algorithm", algorithm.to_string()),
            ("result", format!("{}{stop}", result(report))),
            ("traces", count(s.traces, exact)),
            ("blocked", count(s.blocked, exact)),
            ("states", count(s.states, exact)),
            ("final states", final_states(report)),
        ];
        for (k, v) in rows {
            let _ = writeln!(out, "{:<13} {v}", format!("{k}:"));
        }
        if let Some(m) = s.mazurkiewicz {
            let _ = writeln!(out, "{:<13} {}", "mazurkiewicz:", count(m, exact));
        }
        if let Some(stored) = s.stored {
            let each = s.stored_bytes as f64 / stored.max(1) as f64;
            let _ = writeln!(
                out,
                "{:<13} {} ({:.1} MB, {each:.0} bytes each)",
                "stored:",
                count(stored, exact),
                s.stored_bytes as f64 / 1e6
            );
        }
        let _ = writeln!(out, "{:<13} {:.3} s", "time:", elapsed.as_secs_f64());
        if let Some(p) = &report.parallel {
            let (what, n) = match p.shards {
                Some(shards) => ("shards:", shards),
                None => ("jobs:", p.jobs),
            };
            // No units: every execution ended above the frontier, or the search
            // stopped there.
            let units = match p.units {
                0 if p.shards.is_none() && s.stored.is_some() => "one store of states".to_string(),
                0 => "no units".to_string(),
                u if p.shared_top => format!("{u} jobs, sharing the top {} events", p.depth),
                u => format!("{u} units at depth {}", p.depth),
            };
            let _ = writeln!(out, "{what:<13} {n} ({units})");
        }
        if stats {
            out.push_str(&pruning(&s.pruning));
        }
        if finals {
            out.push('\n');
            out.push_str(&outcomes(report));
        }
        for v in &report.violations {
            out.push('\n');
            out.push_str(&self.witness(v));
        }
        out
    }

    /// One violation: what, where (with the source line), and the schedule with every state.
    fn witness(&self, v: &Violation) -> String {
        // Witnesses are replayed to show the states; a schedule the explorer produced always replays.
        // An execution without end is thousands of steps long: its schedule only.
        let endless = matches!(
            v.kind,
            ViolationKind::NonTermination | ViolationKind::DepthLimit
        );
        let replayed = (!endless && (!v.schedule.is_empty() || v.kind == ViolationKind::Deadlock))
            .then(|| replay::replay(self.program, self.limits, &v.schedule).ok())
            .flatten();
        let mut out = self.finding(v, replayed.as_ref());
        if v.kind == ViolationKind::NonTermination {
            out.push_str(
                "hint: the state space has a cycle; `--algo dl-spor` (or `stateful`, with no \
                 reduction) explores each state once (without --algo, ic-check switches to \
                 dl-spor by itself)\n",
            );
        }
        out
    }

    /// A violation as [`Output::witness`] shows it, with the states of `replayed`.
    pub fn finding(&self, v: &Violation, replayed: Option<&Replay>) -> String {
        let mut out = if v.block.is_empty() {
            format!("{}: {}\n", kind_name(v.kind), v.message)
        } else {
            format!("{}: {} (block {})\n", kind_name(v.kind), v.message, v.block)
        };
        if let Some(span) = v.span {
            let d = Diagnostic::error(span, v.message.clone())
                .with_label(format!("in block {}", v.block));
            out.push_str(&render(self.file, self.source, &[d], false));
        }
        let _ = writeln!(
            out,
            "schedule: {}",
            if v.schedule.is_empty() {
                "(in init)"
            } else {
                &v.schedule
            }
        );
        if let Some(r) = replayed {
            out.push_str(&self.replay(r));
        }
        out
    }

    /// Every state along a replayed schedule.
    pub fn replay(&self, r: &Replay) -> String {
        let mut out = String::new();
        if let End::InitFault(fault) = &r.end {
            let _ = writeln!(out, "init fails: {fault}");
            return out;
        }
        let _ = writeln!(out, "  0. initial\n    {}", r.initial);
        for (n, step) in r.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}. {} runs {}\n    {}",
                n + 1,
                step.process,
                step.block,
                step.state
            );
        }
        let n = r.steps.len() + 1;
        match &r.end {
            End::InitFault(_) => {}
            End::Fault {
                process,
                block,
                fault,
            } => {
                let (line, col) = line_col(self.source, fault.span().start);
                let _ = writeln!(
                    out,
                    "  {n}. {process} runs {block}: {fault} at {}:{line}:{col}",
                    self.file
                );
            }
            End::Final { deadlock: true } => {
                let _ = writeln!(
                    out,
                    "  deadlock: no process can run, and not all have ended"
                );
            }
            End::Final { deadlock: false } => {
                let _ = writeln!(out, "  final state: every process has ended");
            }
            End::Open { enabled } => {
                let _ = writeln!(out, "  (schedule ends; enabled: {})", enabled.join(" "));
            }
            End::Cycle { from } => {
                let _ = writeln!(
                    out,
                    "  cycle: steps {} to {} return to the state after step {from}, and can \
                     repeat for ever",
                    from + 1,
                    n - 1
                );
            }
        }
        out
    }

    pub fn json(
        &self,
        algorithm: &str,
        report: &Report,
        elapsed: Duration,
        stats: bool,
        schedules: bool,
    ) -> String {
        let s = &report.stats;
        let params: serde_json::Map<String, Value> = self
            .program
            .params
            .iter()
            .map(|p| (p.name.clone(), json!(p.value)))
            .collect();
        let violations: Vec<Value> = report
            .violations
            .iter()
            .map(|v| {
                let mut o = json!({
                    "kind": v.kind,
                    "message": v.message,
                    "block": v.block,
                    "schedule": v.schedule,
                });
                if let Some(span) = v.span {
                    let (line, column) = line_col(self.source, span.start);
                    o["line"] = json!(line);
                    o["column"] = json!(column);
                }
                o
            })
            .collect();
        let mut object = json!({
            "program": self.file,
            "algorithm": algorithm,
            "params": params,
            "result": result(report),
            "stop": report.stop,
            "traces": s.traces,
            "blocked": s.blocked,
            "states": s.states,
            "final_states": s.final_states,
            "mazurkiewicz": s.mazurkiewicz,
            "stored": s.stored,
            "stored_bytes": s.stored.map(|_| s.stored_bytes),
            "violations": violations,
            // Milliseconds to the microsecond: at most three decimals, no float noise.
            "time_ms": elapsed.as_micros() as f64 / 1000.0,
            "complete": report.complete(),
            "finals": report.outcomes,
            "finals_capped": report.outcomes_capped(),
            "finals_exhaustive": report.finals_exhaustive,
        });
        if let Some(p) = &report.parallel {
            object["parallel"] = json!(p);
        }
        if stats {
            object["pruning"] = json!(s.pruning);
        }
        if schedules {
            object["schedules"] = json!(report.schedules);
        }
        object.to_string()
    }
}

/// The summary's count of final states: `>N` when the run stopped early, and marked
/// when they are not all reached.
fn final_states(report: &Report) -> String {
    let n = count(report.stats.final_states, report.complete());
    if report.finals_exhaustive {
        n
    } else {
        format!("{n} (not all: --violations-only)")
    }
}

/// The `--finals` list: each distinct final state, how many executions reached it,
/// and the schedule of one.
fn outcomes(report: &Report) -> String {
    let mut out = String::new();
    let shown = report.outcomes.len();
    let counted = report.finals.len();
    let mut header = if counted == 0 {
        "final states: none".to_string()
    } else if shown < counted {
        format!("final states ({shown} of {counted} listed, the first found):")
    } else {
        format!("final states ({shown}):")
    };
    if !report.complete() {
        header.push_str(" (the run stopped early: there may be others)");
    } else if !report.finals_exhaustive {
        header.push_str(" (--violations-only: there may be others)");
    }
    let _ = writeln!(out, "{header}");
    for (n, o) in report.outcomes.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {}\n     executions: {}, schedule: {}",
            n + 1,
            o.show(),
            o.executions,
            if o.schedule.is_empty() {
                "(no step)"
            } else {
                &o.schedule
            }
        );
    }
    out
}

/// The `--stats` block of the human summary.
fn pruning(p: &Pruning) -> String {
    let rows = [
        ("races", p.races),
        ("irreversible races", p.irreversible_races),
        ("backtrack added", p.backtrack_added),
        ("  dropped unexplored", p.backtrack_dropped),
        ("ICs checked, line 9", p.ic_checks_line9),
        ("races pruned by ICs", p.races_pruned_by_ics),
        ("  where they meet", p.races_guarded_by_ics),
        ("    by running both orders", p.races_guarded_by_running),
        ("    in groups", p.races_guarded_in_groups),
        ("ICs checked, line 11", p.ic_checks_line11),
        ("sleep added by ICs", p.sleep_added_by_ics),
        ("ICs checked, line 17", p.ic_checks_line17),
        ("sleep added by state checks", p.sleep_added_by_states),
        (
            "sleep added modulo observers",
            p.sleep_added_modulo_observers,
        ),
        ("sleep extensions", p.sleep_extensions),
        ("cuts", p.cuts),
        ("disabled probes", p.probes),
        ("covered steps not run", p.covered_unrun),
        ("replayed events", p.replayed_events),
        ("max depth", p.max_depth),
        ("max sleep set", p.max_sleep),
        ("sleep entries on a path", p.max_sleep_path),
        ("wakeup sequences", p.wakeup_inserted),
        ("max wakeup tree", p.max_wakeup),
        ("wakeup steps dropped", p.wakeup_dropped),
        ("wakeup beside commuting", p.wakeup_beside_commuting),
        ("redundant reversals", p.redundant_races),
        ("met open on another thread", p.met_open),
        ("  summarised from the text", p.summarised_from_text),
    ];
    let mut out = String::from(
        "pruning:
",
    );
    for (k, v) in rows {
        let _ = writeln!(out, "  {:<28} {v}", format!("{k}:"));
    }
    out
}

fn kind_name(kind: ViolationKind) -> &'static str {
    match kind {
        ViolationKind::Assert => "assertion violation",
        ViolationKind::Runtime => "runtime error",
        ViolationKind::Deadlock => "deadlock",
        ViolationKind::NonTermination => "non-terminating execution",
        ViolationKind::DepthLimit => "depth limit",
        ViolationKind::Livelock => "livelock",
    }
}
