//! `table --jobs N`: how much faster the searches that split (`ic-check --jobs`,
//! `explorer::parallel`) run on N threads, on every row where one thread took more
//! than [`LONGER_THAN`] seconds. Each such run is repeated on one thread and on N,
//! the fastest of [`RUNS`] each (the table's own cell is not reused: it ran once,
//! beside whatever else the machine was doing then), with the executions and states
//! of both: a split at a frontier explores more (it branches on every process, and a
//! unit starts with processes asleep that it may not run); threads that share the
//! top (sdpor, csdpor, cdpor) may too, less.
//!
//! The runs alternate, one thread then N, so that a machine whose speed drifts
//! while a row is measured (a shared host: a tenth within minutes) slows both
//! sides alike; run side by side, all of one side first, the speed-ups of one row
//! moved by a tenth from one table to the next.

use super::markdown::{count, Table};
use super::measure::{self, Algo, Run};
use explorer::Deps;
use frontend::ics::ResolvedIcs;
use frontend::ir::Program;
use std::sync::Arc;
use std::time::Duration;

/// Runs of each side; the fastest counts.
pub const RUNS: usize = 5;

/// The rows measured: those where one thread took longer (below, a split's fixed
/// cost, the frontier, weighs on what is measured).
pub const LONGER_THAN: f64 = 1.0;

/// One row on one thread and on N.
pub struct Measured {
    pub label: String,
    pub algo: Algo,
    pub one: Run,
    pub many: Run,
}

/// `algo` on `program` on one thread and on `jobs`, the fastest of [`RUNS`] each,
/// the two sides alternating.
pub fn measure(
    program: &Program,
    algo: Algo,
    deps: Deps,
    timeout: Duration,
    ics: Option<&Arc<ResolvedIcs>>,
    jobs: usize,
) -> Result<(Run, Run), String> {
    let mut best: [Option<Run>; 2] = [None, None];
    for _ in 0..RUNS {
        for (side, jobs) in [1, jobs].into_iter().enumerate() {
            let run = measure::run_on(program, algo, deps, timeout, ics, jobs)?;
            if best[side].as_ref().is_none_or(|b| run.seconds < b.seconds) {
                best[side] = Some(run);
            }
        }
    }
    match best {
        [Some(one), Some(many)] => Ok((one, many)),
        _ => Err("no run".to_string()),
    }
}

/// The markdown table of the rows measured on `jobs` threads.
pub fn table(jobs: usize, measured: &[Measured]) -> String {
    let (tr, s, t) = (
        format!("Tr {jobs}"),
        format!("S {jobs}"),
        format!("T {jobs}"),
    );
    let header = [
        "Row",
        "Algorithm",
        "Tr 1",
        &tr,
        "S 1",
        &s,
        "S +%",
        "T 1",
        &t,
        "speed-up",
    ];
    let mut table = Table::new(&header);
    for m in measured {
        let stopped = |r: &Run| !r.complete();
        let time = |r: &Run| {
            let t = format!("{:.2}", r.seconds);
            if stopped(r) {
                format!(">{t}")
            } else {
                t
            }
        };
        let extra = 100.0 * (m.many.states as f64 / m.one.states.max(1) as f64 - 1.0);
        let speedup = match (stopped(&m.one), stopped(&m.many)) {
            (false, false) => format!("{:.2}", m.one.seconds / m.many.seconds.max(1e-9)),
            _ => "?".to_string(),
        };
        table.push(vec![
            m.label.clone(),
            m.algo.title(),
            count(m.one.traces, stopped(&m.one)),
            count(m.many.traces, stopped(&m.many)),
            count(m.one.states, stopped(&m.one)),
            count(m.many.states, stopped(&m.many)),
            format!("{extra:+.0}"),
            time(&m.one),
            time(&m.many),
            speedup,
        ]);
    }
    table.render()
}
