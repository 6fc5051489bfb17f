//! Schedules as users read and write them: one step per process run, separated by
//! spaces. A step is the proc's name (`p`), or `name@pid` (`worker@1.2`) when several
//! processes run the same proc; `@pid` alone is accepted too. A step followed by `xN`
//! runs N times (`worker@2 x996`): schedules print a run of three or more equal steps
//! so, as a spin loop makes them. (A process whose proc is named like a count, `x3`,
//! is printed with its identity, `x3@1`.) A livelock's schedule is a lasso,
//! `prefix ( cycle )`: the steps between the parentheses return to the state they
//! start from.

use crate::pid::Pid;
use crate::state::State;
use frontend::ir::Program;

/// Prints a schedule of process indices of `state` (which must hold every process they name).
pub fn format(program: &Program, state: &State, procs: impl IntoIterator<Item = usize>) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in procs {
        match runs.last_mut() {
            Some((last, n)) if *last == i => *n += 1,
            _ => runs.push((i, 1)),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (i, n) in runs {
        let mut name = state.process_name(program, i);
        if repeat_count(&name).is_some() {
            name = format!("{name}@{}", state.procs[i].pid);
        }
        if n >= 3 {
            out.push(format!("{name} x{n}"));
        } else {
            out.extend(std::iter::repeat_n(name, n));
        }
    }
    out.join(" ")
}

/// `N` of a token `xN` (`N` at least 1): the previous step runs N times.
fn repeat_count(token: &str) -> Option<usize> {
    let n = token.strip_prefix('x')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok().filter(|&n| n >= 1)
}

/// One parsed step, resolved against a state with [`resolve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRef {
    pub name: Option<String>,
    pub pid: Option<Pid>,
    pub text: String,
}

/// The steps of a schedule, a lasso's prefix and cycle one after the other.
pub fn parse(text: &str) -> Result<Vec<StepRef>, String> {
    parse_lasso(text).map(|(steps, _)| steps)
}

/// The steps of a schedule, and for a lasso (`prefix ( cycle )`) the index of its
/// cycle's first step: the cycle runs to the end.
pub fn parse_lasso(text: &str) -> Result<(Vec<StepRef>, Option<usize>), String> {
    let mut steps: Vec<StepRef> = Vec::new();
    let mut cycle = None;
    let mut closed = false;
    for t in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        if closed {
            return Err(format!(
                "`{t}` after `)`: a lasso's cycle ends the schedule"
            ));
        }
        match t {
            "(" if cycle.is_some() => return Err("a second `(`: a lasso has one cycle".into()),
            "(" => {
                cycle = Some(steps.len());
                continue;
            }
            ")" if cycle.is_none_or(|c| c == steps.len()) => {
                return Err("`)` closes no cycle: `prefix ( cycle )`, the cycle not empty".into())
            }
            ")" => {
                closed = true;
                continue;
            }
            _ => {}
        }
        if let Some(n) = repeat_count(t) {
            let Some(last) = steps.last().cloned() else {
                return Err(format!("`{t}` repeats a step, but no step comes before it"));
            };
            // Limits what a typo (`x99999999999`) may ask for.
            if n > MAX_REPEAT {
                return Err(format!("`{t}`: at most {MAX_REPEAT} repetitions of a step"));
            }
            steps.extend(std::iter::repeat_n(last, n - 1));
            continue;
        }
        steps.push(step(t)?);
    }
    if cycle.is_some() && !closed {
        return Err("`(` with no `)`: `prefix ( cycle )`".into());
    }
    Ok((steps, cycle))
}

/// The most times `xN` may repeat a step.
const MAX_REPEAT: usize = 10_000_000;

/// One step of a schedule, as written.
fn step(t: &str) -> Result<StepRef, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(steps: &[StepRef]) -> Vec<&str> {
        steps.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn a_count_repeats_the_step_before_it() {
        let steps = parse("p worker@2 x3 q").expect("parses");
        assert_eq!(
            names(&steps),
            ["p", "worker@2", "worker@2", "worker@2", "q"]
        );
        assert!(parse("x3 p").is_err(), "a count with no step before it");
        // `x0` counts nothing: it can only be a proc's name.
        assert_eq!(names(&parse("p x0").expect("parses")), ["p", "x0"]);
    }

    #[test]
    fn runs_of_three_or_more_print_with_a_count() {
        let program = frontend::load(
            "proc p() { } proc x3() { } init { spawn p(); spawn x3(); }",
            &[],
        )
        .expect("loads");
        let ex = crate::executor::Executor::new(&program, Default::default()).expect("runs");
        let state = &ex.state;
        assert_eq!(format(&program, state, [0, 0, 1]), "p p x3@2");
        assert_eq!(
            format(&program, state, [0, 0, 0, 1, 1, 1, 1]),
            "p x3 x3@2 x4"
        );
        let text = format(&program, state, [0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(parse(&text).expect("parses").len(), 7);
    }
}
