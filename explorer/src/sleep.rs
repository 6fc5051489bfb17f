//! Sleep sets of sequences (CSDPOR Sec. 5.1): each entry is a sequence of process
//! steps that need not be explored from its node. Plain Source-DPOR only ever holds
//! single steps. A step names its process by its identity key (stable across
//! interleavings) and carries the footprint its event had, which stays valid while
//! the entry travels down through independent events.
//!
//! A sequence added because it reaches a state already reached (CSDPOR line 14, CDPOR
//! line 12) does not put its last step to sleep: that step runs — its races are
//! analysed like any event's — and the execution is blocked right after it, as in the
//! paper's implementation (Sec. 6.2). Putting it to sleep instead loses the races only
//! that step would show: the differential test found csdpor missing a final state
//! that way (`x = 2 + z` racing with `z = -2` on a path it never ran).

use crate::fingerprint::Fingerprint;
use crate::footprint::Footprint;

#[derive(Clone, Debug)]
pub struct Step {
    /// The process's [`crate::state::Process::pid_key`].
    pub process: Fingerprint,
    pub footprint: Footprint,
}

#[derive(Clone, Debug)]
struct Entry {
    steps: Vec<Step>,
    /// The last step runs and then blocks (a sequence justified by state equality).
    last_runs: bool,
}

#[derive(Clone, Debug, Default)]
pub struct SleepSet {
    entries: Vec<Entry>,
}

impl SleepSet {
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The process is asleep: a single-step entry names it.
    pub fn asleep(&self, process: Fingerprint) -> bool {
        self.single(process).is_some()
    }

    /// The single-step entry of a process, if it is asleep.
    pub fn single(&self, process: Fingerprint) -> Option<&Step> {
        self.entries
            .iter()
            .find(|e| !e.last_runs && e.steps.len() == 1 && e.steps[0].process == process)
            .map(|e| &e.steps[0])
    }

    /// Running the process ends a sequence justified by state equality: the
    /// execution is blocked after it.
    pub fn blocks_after(&self, process: Fingerprint) -> bool {
        self.entries
            .iter()
            .any(|e| e.last_runs && e.steps.len() == 1 && e.steps[0].process == process)
    }

    /// Puts steps to sleep (line 19 of Alg. 1, and what propagates from it).
    pub fn insert(&mut self, steps: Vec<Step>) {
        self.add(Entry {
            steps,
            last_runs: false,
        });
    }

    /// Adds a sequence that reaches a state already reached (CSDPOR line 14, CDPOR
    /// line 12): its last step runs, then blocks.
    pub fn insert_equivalent(&mut self, steps: Vec<Step>) {
        self.add(Entry {
            steps,
            last_runs: true,
        });
    }

    fn add(&mut self, entry: Entry) {
        debug_assert!(!entry.steps.is_empty());
        let same = |e: &Entry| {
            e.last_runs == entry.last_runs
                && e.steps.len() == entry.steps.len()
                && e.steps
                    .iter()
                    .zip(&entry.steps)
                    .all(|(a, b)| a.process == b.process)
        };
        if !self.entries.iter().any(same) {
            self.entries.push(entry);
        }
    }

    /// CSDPOR Alg. 1, line 12: some entry `w` is a prefix of `seq` (`w ≤ seq`).
    pub fn has_prefix_of(&self, seq: &[Fingerprint]) -> bool {
        self.entries.iter().any(|w| {
            w.steps.len() <= seq.len() && w.steps.iter().zip(seq).all(|(s, p)| s.process == *p)
        })
    }

    /// The length of the shortest entry that starts with `process` (for guiding the
    /// exploration by sleep sequences, CSDPOR Sec. 5.3, optimisation 2).
    pub fn shortest_headed_by(&self, process: Fingerprint) -> Option<usize> {
        self.entries
            .iter()
            .filter(|e| e.steps[0].process == process)
            .map(|e| e.steps.len())
            .min()
    }

    /// The sleep set of `E.p` from that of `E`, where `p` ran an event with footprint `n`:
    /// - CSDPOR line 15: entries independent of `n` (no step of `p`, no step in conflict);
    /// - CSDPOR line 16: `x` for each entry `p.x`;
    /// - CDPOR line 17: single steps that `keep` declares independent of `n` in `s[E]`,
    ///   with the footprint it gives (the step's footprint after `n`); kept by state
    ///   equality rather than independence, they run and then block (see above).
    pub fn after(
        &self,
        p: Fingerprint,
        n: &Footprint,
        mut keep: impl FnMut(&Step) -> Option<Footprint>,
        out: &mut SleepSet,
    ) {
        out.clear();
        for entry in &self.entries {
            let steps = &entry.steps;
            if steps[0].process == p {
                if steps.len() > 1 {
                    out.add(Entry {
                        steps: steps[1..].to_vec(),
                        last_runs: entry.last_runs,
                    });
                }
            } else if steps
                .iter()
                .all(|s| s.process != p && !s.footprint.conflicts(n))
            {
                out.add(entry.clone());
            } else if let [x] = steps.as_slice() {
                // Kept by state equality, not by independence: it runs, then blocks.
                if let Some(footprint) = keep(x) {
                    out.add(Entry {
                        steps: vec![Step {
                            process: x.process,
                            footprint,
                        }],
                        last_runs: true,
                    });
                }
            }
        }
    }
}
