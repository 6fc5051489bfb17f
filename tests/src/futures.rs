//! What a process may touch from its next block on, as
//! [`frontend::analysis::may_touch::process`] analyses it from the process's locals,
//! against what the process then touches: dl-spor's and de-spor's threads summarise
//! a state another thread is still expanding from these analyses
//! (`explorer/src/stateful/may_follow.rs`), and a summary that leaves out a location
//! some later step touches could drop a branch. The stateful differential test
//! cannot tell: a summary that holds nothing passed it (docs/known-gaps.md). So the
//! claim is checked on its own, on random schedules of generated programs.

use explorer::dependency::footprint::Footprint;
use explorer::executor::Executor;
use explorer::fingerprint::{fingerprint, Fingerprint};
use frontend::analysis::may_touch::{self, Touched, WHOLE};
use frontend::memory::Loc;
use frontend::value::Value;

/// Walks from the initial state, each of at most [`STEPS`] steps.
const WALKS: usize = 8;
const STEPS: usize = 40;

/// Whether `set` (sorted, a whole container covering its elements) holds `l`.
fn holds(set: &[Loc], l: Loc) -> bool {
    let whole = Loc {
        global: l.global,
        elem: WHOLE,
    };
    set.binary_search(&whole).is_ok() || set.binary_search(&l).is_ok()
}

/// Whether every location of `step`, which process `key` took or may take, is in
/// each analysis of that process in `said`; else which is left out, and where.
fn check(
    program: &frontend::ir::Program,
    said: &[(Fingerprint, usize, Touched)],
    key: Fingerprint,
    step: &Footprint,
    how: &str,
) -> Result<(), String> {
    let accesses =
        (step.reads.iter().map(|&l| (l, true))).chain(step.writes.iter().map(|&l| (l, false)));
    for (l, read) in accesses {
        let left_out = said
            .iter()
            .find(|(k, _, t)| *k == key && !holds(if read { &t.reads } else { &t.writes }, l));
        if let Some((_, at, _)) = left_out {
            let what = if read { "reads" } else { "writes" };
            return Err(format!(
                "a step its process {how} {what} {}, which the analysis of the process at \
                 step {at} left out",
                l.display(program)
            ));
        }
    }
    Ok(())
}

/// On [`WALKS`] random schedules of `source` (drawn from a generator seeded by its
/// text), every footprint a process's step records, and the transition footprint
/// of every live process's next step at each state (what a probe of a waiting
/// process records), holds only what the analysis of that process, at every
/// earlier state of the walk, said it may touch from there on: its reads among the
/// reads, its writes among the writes. `Err` names the walk, the step and the
/// location left out. A program whose `init` fails has no walk.
pub fn futures_hold_every_step(source: &str) -> Result<(), String> {
    let program = crate::differential::load_generated(source)?;
    let limits = crate::differential::config().limits;
    let Ok(mut ex) = Executor::new(&program, limits) else {
        return Ok(());
    };
    // xorshift64*, seeded by the text: the walks replay with the program.
    let mut seed = (fingerprint(source) as u64) | 1;
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let dependent = frontend::analysis::locality::state_dependent_footprints(&program);
    let mut enabled = Vec::new();
    for walk in 0..WALKS {
        // Each live process's analysis at each state of the walk: (process, depth).
        let mut said: Vec<(Fingerprint, usize, Touched)> = Vec::new();
        let mut schedule: Vec<usize> = Vec::new();
        while schedule.len() < STEPS {
            for q in &ex.state.procs {
                let Some(block) = q.next else { continue };
                let locals: Vec<Option<Value>> = q.locals.iter().cloned().map(Some).collect();
                let (machine, mem) = (&ex.machine, &ex.state.mem);
                let analysed = may_touch::process(machine, mem, &dependent, block, &locals);
                if let Some(touched) = analysed {
                    said.push((q.pid_key, schedule.len(), touched));
                }
            }
            // Each live process's next transition footprint, which a step or a
            // probe of a waiting process records.
            for (i, q) in ex.state.procs.iter().enumerate() {
                if q.next.is_some() {
                    let transition = ex.with_next_transition(i, Footprint::clone);
                    check(&program, &said, q.pid_key, &transition, "may take").map_err(|e| {
                        format!("walk {walk}, schedule {schedule:?}: {e}\n{source}")
                    })?;
                }
            }
            ex.enabled(&mut enabled);
            if enabled.is_empty() {
                break;
            }
            let p = enabled[(next() % enabled.len() as u64) as usize];
            let key = ex.state.procs[p].pid_key;
            let _ = ex.step(p);
            schedule.push(p);
            let step = &ex.events().last().expect("a step was just run").footprint;
            check(&program, &said, key, step, "took")
                .map_err(|e| format!("walk {walk}, schedule {schedule:?}: {e}\n{source}"))?;
        }
        for _ in &schedule {
            ex.back();
        }
    }
    Ok(())
}
