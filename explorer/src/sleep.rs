//! Sleep sets of sequences (CSDPOR Sec. 5.1): each entry is a sequence of process
//! steps that need not be explored from its node. Plain Source-DPOR only ever holds
//! single steps. A step names its process by its identity key (stable across
//! interleavings) and carries the footprint its event had, which stays valid while
//! the entry travels down through independent events.

use crate::fingerprint::Fingerprint;
use crate::footprint::Footprint;

#[derive(Clone, Debug)]
pub struct Step {
    /// The process's [`crate::state::Process::pid_key`].
    pub process: Fingerprint,
    pub footprint: Footprint,
}

#[derive(Clone, Debug, Default)]
pub struct SleepSet {
    entries: Vec<Vec<Step>>,
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
        self.entries
            .iter()
            .any(|e| e.len() == 1 && e[0].process == process)
    }

    /// The single-step entry of a process, if it is asleep.
    pub fn single(&self, process: Fingerprint) -> Option<&Step> {
        self.entries
            .iter()
            .find(|e| e.len() == 1 && e[0].process == process)
            .map(|e| &e[0])
    }

    pub fn insert(&mut self, entry: Vec<Step>) {
        debug_assert!(!entry.is_empty());
        let same = |e: &Vec<Step>| {
            e.len() == entry.len() && e.iter().zip(&entry).all(|(a, b)| a.process == b.process)
        };
        if !self.entries.iter().any(same) {
            self.entries.push(entry);
        }
    }

    /// CSDPOR Alg. 1, line 12: some entry `w` is a prefix of `seq` (`w ≤ seq`).
    pub fn has_prefix_of(&self, seq: &[Fingerprint]) -> bool {
        self.entries
            .iter()
            .any(|w| w.len() <= seq.len() && w.iter().zip(seq).all(|(s, p)| s.process == *p))
    }

    /// The length of the shortest entry that starts with `process` (for guiding the
    /// exploration by sleep sequences, CSDPOR Sec. 5.3, optimisation 2).
    pub fn shortest_headed_by(&self, process: Fingerprint) -> Option<usize> {
        self.entries
            .iter()
            .filter(|e| e[0].process == process)
            .map(Vec::len)
            .min()
    }

    /// The sleep set of `E.p` from that of `E`, where `p` ran an event with footprint `n`:
    /// - CSDPOR line 15: entries independent of `n` (no step of `p`, no step in conflict);
    /// - CSDPOR line 16: `x` for each entry `p.x`;
    /// - CDPOR line 17: single steps that `keep` declares independent of `n` in `s[E]`,
    ///   with the footprint it gives (the step's footprint after `n`).
    pub fn after(
        &self,
        p: Fingerprint,
        n: &Footprint,
        mut keep: impl FnMut(&Step) -> Option<Footprint>,
        out: &mut SleepSet,
    ) {
        out.clear();
        for entry in &self.entries {
            if entry[0].process == p {
                if entry.len() > 1 {
                    out.insert(entry[1..].to_vec());
                }
            } else if entry
                .iter()
                .all(|s| s.process != p && !s.footprint.conflicts(n))
            {
                out.insert(entry.clone());
            } else if let [x] = entry.as_slice() {
                if let Some(footprint) = keep(x) {
                    out.insert(vec![Step {
                        process: x.process,
                        footprint,
                    }]);
                }
            }
        }
    }
}
