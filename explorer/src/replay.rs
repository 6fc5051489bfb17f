//! Replaying a schedule (a witness, or one a user wrote) and recording every state:
//! what `ic-check --replay` prints, and what a violation report shows.

use crate::executor::Executor;
use crate::schedule;
use frontend::interp::{Fault, Limits};
use frontend::ir::Program;

pub struct Step {
    /// The process, as schedules name it.
    pub process: String,
    pub block: String,
    /// The state after the step, as [`crate::state::State::show`] prints it.
    pub state: String,
}

/// How the replay ended.
pub enum End {
    /// `init` itself failed.
    InitFault(Fault),
    /// The last step failed (an assertion or a runtime error).
    Fault {
        process: String,
        block: String,
        fault: Fault,
    },
    /// No process is enabled: a final state, a deadlock when some process has not ended.
    Final { deadlock: bool },
    /// The schedule ended while these processes could still run.
    Open { enabled: Vec<String> },
    /// The schedule is a lasso whose cycle, steps `from + 1` to the last, returned to
    /// the state after step `from`: it can repeat for ever.
    Cycle { from: usize },
}

pub struct Replay {
    pub initial: String,
    pub steps: Vec<Step>,
    pub end: End,
}

/// Runs `text` (see [`schedule`]) from the initial state. A step that names no
/// process, an ended one, or one whose guard does not hold is an error, and so is a
/// lasso whose cycle does not return to the state it started from.
pub fn replay(program: &Program, limits: Limits, text: &str) -> Result<Replay, String> {
    let (steps, cycle) = schedule::parse_lasso(text)?;
    let mut start = None;
    let mut ex = match Executor::new(program, limits) {
        Ok(ex) => ex,
        Err(fault) => {
            return Ok(Replay {
                initial: String::new(),
                steps: Vec::new(),
                end: End::InitFault(fault),
            })
        }
    };
    let initial = ex.state.show(program).to_string();
    let mut done = Vec::new();
    let mut enabled = Vec::new();
    for (n, step) in steps.iter().enumerate() {
        if cycle == Some(n) {
            start = Some(ex.state.fingerprint_with_identities());
        }
        let i = schedule::resolve(program, &ex.state, step)?;
        ex.enabled(&mut enabled);
        let p = &ex.state.procs[i];
        let Some(block) = p.next else {
            return Err(format!(
                "step {} (`{}`): the process has ended",
                n + 1,
                step.text
            ));
        };
        let block = program.blocks[block as usize].name.clone();
        if !enabled.contains(&i) {
            return Err(format!(
                "step {} (`{}`): {block} is not enabled here (its `await` condition is false)",
                n + 1,
                step.text
            ));
        }
        let process = ex.state.process_name(program, i);
        if let Err(fault) = ex.step(i) {
            if n + 1 < steps.len() {
                return Err(format!(
                    "step {} (`{}`) fails ({fault}); the schedule cannot go on",
                    n + 1,
                    step.text
                ));
            }
            return Ok(Replay {
                initial,
                steps: done,
                end: End::Fault {
                    process,
                    block,
                    fault,
                },
            });
        }
        done.push(Step {
            process,
            block,
            state: ex.state.show(program).to_string(),
        });
    }
    ex.enabled(&mut enabled);
    let end = if let (Some(from), Some(start)) = (cycle, start) {
        if ex.state.fingerprint_with_identities() != start {
            return Err(format!(
                "the cycle (steps {} to {}) does not return to the state after step {from}",
                from + 1,
                steps.len()
            ));
        }
        End::Cycle { from }
    } else if enabled.is_empty() {
        End::Final {
            deadlock: ex.state.procs.iter().any(|p| p.next.is_some()),
        }
    } else {
        End::Open {
            enabled: enabled
                .iter()
                .map(|&i| ex.state.process_name(program, i))
                .collect(),
        }
    };
    Ok(Replay {
        initial,
        steps: done,
        end,
    })
}
