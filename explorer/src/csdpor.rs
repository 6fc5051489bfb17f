//! `csdpor`: context-sensitive DPOR (Albert et al., CAV'17, Alg. 1). On top of
//! Source-DPOR: when a race `e ⋖ n` is found, the reversed sequence `v.u` is run from
//! `E'` and, if it reaches the state `E.p` reached, `v.u` goes to `sleep(E')`
//! (lines 11–14); sleep entries are sequences, consumed step by step (line 16,
//! in [`crate::sleep::SleepSet::after`]).

use crate::dpor::{Race, Reduction};
use crate::race;
use crate::sleep::Step;

#[derive(Default)]
pub struct ContextSensitive;

impl Reduction for ContextSensitive {
    fn name(&self) -> &'static str {
        "csdpor"
    }

    fn snapshots(&self) -> bool {
        true
    }

    fn sleep_after_race(&mut self, r: &mut Race<'_, '_>) -> Option<Vec<Step>> {
        // Line 11: u = dep(e, E); v = notdep(e, E).p.
        let mut v = race::notdep(r.events, r.hb, r.e);
        v.push(r.n());
        let u = race::dep_after(r.events, r.hb, r.e);
        let mut sequence = r.processes(&v);
        sequence.extend(r.processes(&u));
        // Line 12: nothing to do when sleep(E') already blocks a prefix of v.u.
        if r.sleep.has_prefix_of(&sequence) {
            return None;
        }
        // Line 13: s[E.p] = s[E'.v.u]? Processes are compared with their identities:
        // the soundness argument (Lemma 1) continues both states with the same steps.
        let (reached, steps) = r.run_from_prefix(&sequence)?;
        (reached.fingerprint_with_identities(r.program)
            == r.state.fingerprint_with_identities(r.program))
        .then_some(steps)
    }

    fn guided(&self) -> bool {
        true
    }
}
