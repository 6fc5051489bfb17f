//! Schedules as users read and write them: one step per process run, separated by
//! spaces. A step is the proc's name (`p`), or `name@pid` (`worker@1.2`) when several
//! processes run the same proc; `@pid` alone is accepted too.

use crate::pid::Pid;
use crate::state::State;
use frontend::ir::Program;

/// Prints a schedule of process indices of `state` (which must hold every process they name).
pub fn format(program: &Program, state: &State, procs: impl IntoIterator<Item = usize>) -> String {
    procs
        .into_iter()
        .map(|i| state.process_name(program, i))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One parsed step, resolved against a state with [`resolve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRef {
    pub name: Option<String>,
    pub pid: Option<Pid>,
    pub text: String,
}

pub fn parse(text: &str) -> Result<Vec<StepRef>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (name, pid) = match t.split_once('@') {
                Some((name, pid)) => (name, Some(pid)),
                None if t.starts_with(|c: char| c.is_ascii_digit()) => ("", Some(t)),
                None => (t, None),
            };
            let pid = match pid {
                Some(p) => Some(Pid::parse(p).ok_or_else(|| {
                    format!("`{t}`: `{p}` is not a process identity (like `1` or `2.1`)")
                })?),
                None => None,
            };
            let name = (!name.is_empty()).then(|| name.to_string());
            Ok(StepRef {
                name,
                pid,
                text: t.to_string(),
            })
        })
        .collect()
}

/// The index of the process a step names in `state`.
pub fn resolve(program: &Program, state: &State, step: &StepRef) -> Result<usize, String> {
    let proc_name = |i: usize| program.procs[state.procs[i].proc as usize].name.as_str();
    let candidates: Vec<usize> = (0..state.procs.len())
        .filter(|&i| {
            step.pid
                .as_ref()
                .is_none_or(|pid| &state.procs[i].pid == pid)
        })
        .filter(|&i| step.name.as_deref().is_none_or(|n| proc_name(i) == n))
        .collect();
    match candidates.as_slice() {
        [i] => Ok(*i),
        [] => {
            let existing: Vec<String> = (0..state.procs.len())
                .map(|i| format!("{}@{}", proc_name(i), state.procs[i].pid))
                .collect();
            Err(format!(
                "step `{}`: no such process here (processes: {})",
                step.text,
                existing.join(", ")
            ))
        }
        _ => Err(format!(
            "step `{}` is ambiguous: several processes run this proc; write `name@pid`",
            step.text
        )),
    }
}
