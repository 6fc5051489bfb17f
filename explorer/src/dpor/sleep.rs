//! Sleep sets of sequences (CSDPOR Sec. 5.1): each entry is a sequence of process
//! steps that need not be explored from its node. Plain Source-DPOR only ever holds
//! single steps. A step names its process by its identity key (stable across
//! interleavings) and carries the footprint its event had, which stays valid while
//! the entry travels down through independent events.
//!
//! A sequence added because it reaches a state already reached (CSDPOR line 14, CDPOR
//! line 12) puts its last step to sleep only once that step's races are analysed:
//! putting it to sleep without them loses the races only that step would show (the
//! differential test found csdpor missing a final state that way: `x = 2 + z` racing
//! with `z = -2` on a path it never ran). A sequence *proved* to reach the state (by a
//! constraint, or by comparing states: [`Ending::Blocks`]) needs no run of its last
//! step, unless that step may leave a process at an `await` whose probe may race
//! (`leaves_a_raced_waiter` in [`crate::dpor::covered`]): its races are analysed with its
//! transition footprint, without running it (`Dpor::analyse_covered_steps`), and it sleeps. csdpor's entries carry the state they
//! must reach (Sec. 6.2: the reversed sequence is never run just to compare states):
//! the last step runs, and the execution is blocked if it reached that state.

use crate::dependency::footprint::Footprint;
use crate::fingerprint::Fingerprint;
use rustc_hash::{FxHashMap, FxHasher};
use std::collections::hash_map::Entry as MapEntry;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Step {
    /// The process's [`crate::state::Process::pid_key`].
    pub process: Fingerprint,
    pub footprint: Footprint,
}

/// What happens at the last step of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// It is asleep (Source-DPOR's sleep sets: Mazurkiewicz-equivalent).
    Asleep,
    /// It is asleep because another unit of a parallel search explores it
    /// ([`crate::parallel::frontier`]): it does not run while asleep, but it covers no
    /// wakeup sequence. An optimal search leaves a sequence out when a process asleep
    /// is a weak initial of it because the subtree that process slept after was
    /// explored by the same search, guided by the wakeup sequences it inserted above
    /// (JACM Alg. 2, line 6); another unit's subtree got none from this one. Taken as
    /// covering, odpor explored 264 of a program's 300 traces on two threads.
    Elsewhere,
    /// It is asleep because it is a branch of an ancestor that another job of a
    /// search whose top the threads share is exploring
    /// ([`crate::parallel::shared_top`]): it covers a wakeup sequence it runs in, not
    /// one it is beside ([`SleepSet::covering_steps`]).
    Running,
    /// It is asleep because it is a branch of an ancestor that jobs of a search
    /// whose top the threads share explored for good before this branch was taken,
    /// with everything left of it ([`crate::parallel::shared_top`]): it covers as
    /// [`Ending::Asleep`] does, as long as nothing left of the path is being
    /// explored where a branch below is taken ([`SleepSet::distrust_settled`]).
    Settled,
    /// Its races are analysed without running it, then it sleeps (equivalence
    /// proved).
    Blocks,
    /// It runs, then the execution is blocked if it reached this state
    /// ([`crate::state::State::check_fingerprint`]).
    BlocksAt(Fingerprint),
}

/// A sequence of the set: a suffix (`from` on) of a shared list of steps, so that
/// handing an entry down, whole or without its head (line 16), copies no step. Sleep
/// sets grow to thousands of entries (DB_backup(12) under cdpor: 3,082) and are handed
/// down at every node.
#[derive(Clone, Debug)]
struct Entry {
    shared: Arc<[Step]>,
    from: usize,
    ending: Ending,
    /// [`Entry::key`], kept for the duplicate check.
    key: u64,
    /// The first step's process and the length, kept here for the scans that look
    /// for entries of one process without reading the shared steps.
    head: Fingerprint,
    len: usize,
    /// The processes whose steps ran before the rest of the sequence on the way
    /// down (its steps already taken, lifted past, or the event a sleeping step was
    /// kept past by state equality): in the covering executions they may have run
    /// after the step that blocks ([`Ends::partners`]).
    /// `None`: none (and none recorded where no reduction reads them).
    partners: Option<Arc<[Fingerprint]>>,
}

impl Entry {
    /// Whether its last step only sleeps (it stands for no state reached).
    fn asleep(&self) -> bool {
        matches!(
            self.ending,
            Ending::Asleep | Ending::Elsewhere | Ending::Running | Ending::Settled
        )
    }

    fn new(steps: Vec<Step>, ending: Ending) -> Entry {
        Entry::suffix(steps.into(), 0, ending, None)
    }

    fn suffix(
        shared: Arc<[Step]>,
        from: usize,
        ending: Ending,
        partners: Option<Arc<[Fingerprint]>>,
    ) -> Entry {
        let key = Entry::key(&shared[from..], ending);
        Entry {
            head: shared[from].process,
            len: shared.len() - from,
            shared,
            from,
            ending,
            key,
            partners,
        }
    }

    fn partners(&self) -> &[Fingerprint] {
        self.partners.as_deref().unwrap_or(&[])
    }

    /// The entry's partners and `more`.
    fn partners_and(&self, more: &[Fingerprint]) -> Option<Arc<[Fingerprint]>> {
        let mine = self.partners();
        let mut added = more.iter().filter(|p| !mine.contains(p)).peekable();
        if added.peek().is_none() {
            return self.partners.clone();
        }
        Some(mine.iter().chain(added).copied().collect())
    }

    /// The entry's partners once process `p`'s step ran on the way down: with it
    /// where they are recorded (`chase`: some reduction reads them).
    fn partners_after(&self, p: Fingerprint, chase: bool) -> Option<Arc<[Fingerprint]>> {
        if chase {
            self.partners_and(&[p])
        } else {
            self.partners.clone()
        }
    }

    fn steps(&self) -> &[Step] {
        &self.shared[self.from..]
    }

    /// What two entries must share to be the same: their processes and ending.
    fn key(steps: &[Step], ending: Ending) -> u64 {
        let mut h = FxHasher::default();
        ending.hash(&mut h);
        for s in steps {
            s.process.hash(&mut h);
        }
        h.finish()
    }

    fn same(&self, other: &Entry) -> bool {
        self.key == other.key
            && self.ending == other.ending
            && self.len == other.len
            && self
                .steps()
                .iter()
                .zip(other.steps())
                .all(|(a, b)| a.process == b.process)
    }
}

/// Why a sleeping step in conflict with the event just run stays asleep.
#[derive(Clone, Debug)]
pub enum Kept {
    /// The two events commute whatever the state: the step sleeps on as it is.
    Independent,
    /// They commute in the state where they meet: the step ends, with this
    /// footprint, as a proved sequence does (settled unrun, or run and blocked with
    /// `--literal`).
    Equivalent(Footprint),
}

/// What a process's next step ends, at a node: sequences reaching a covered state.
#[derive(Debug, Default)]
pub struct Ends {
    /// Proved to reach one: the step is settled without running.
    pub always: bool,
    /// Blocked after it if it reaches one of these states.
    pub at: Vec<Fingerprint>,
    /// The partners of those sequences: the processes whose steps they ran before
    /// this one, some of which the executions that reached the covered state ran
    /// after it (an over-approximation). What those processes do next may race with
    /// this step there only through them, here directly: `Dpor::future_races`
    /// analyses their futures.
    pub partners: Vec<Fingerprint>,
}

#[derive(Clone, Debug, Default)]
pub struct SleepSet {
    entries: Vec<Entry>,
    /// The entries' keys, once there are [`SCANNED`] entries, each with the index of
    /// the first entry that has it: a new entry is then compared with that one (and
    /// with the others only in the rare case of two entries sharing a key), not with
    /// every entry.
    keys: FxHashMap<u64, u32>,
    /// Single-step entries ending [`Ending::Blocks`].
    proved: usize,
    /// The indices of the entries certain to block (not ending
    /// [`Ending::BlocksAt`]): the sets of the optimal context-sensitive searches hold
    /// thousands of don't-do sequences that block only where they reach a state,
    /// beside a few of these, which every race and wakeup sequence asks for (measured
    /// on an odpor-cs-ob run whose sets held 2,400 entries: 2.4 s scanning every
    /// entry, 0.94 s with this index).
    certain: Vec<u32>,
}

/// Entries below which a new one is compared with each, without hashing.
const SCANNED: usize = 16;

impl SleepSet {
    pub fn clear(&mut self) {
        self.entries.clear();
        self.keys.clear();
        self.proved = 0;
        self.certain.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sequences and their endings, oldest first (for pictures of the exploration,
    /// [`crate::tree`]).
    pub fn entries(&self) -> impl Iterator<Item = (&[Step], Ending)> {
        self.entries.iter().map(|e| (e.steps(), e.ending))
    }

    /// The process is asleep: a single-step entry names it.
    pub fn asleep(&self, process: Fingerprint) -> bool {
        self.single(process).is_some()
    }

    /// The single-step entry of a process, if it is asleep.
    pub fn single(&self, process: Fingerprint) -> Option<&Step> {
        self.asleep_steps().find(|s| s.process == process)
    }

    /// The steps asleep: the single-step entries ending [`Ending::Asleep`],
    /// [`Ending::Elsewhere`], [`Ending::Running`] or [`Ending::Settled`].
    pub fn asleep_steps(&self) -> impl Iterator<Item = &Step> {
        self.certain_entries()
            .filter(|e| e.asleep() && e.len == 1)
            .map(|e| &e.steps()[0])
    }

    /// Whether a step sleeps because another unit or job explores it
    /// ([`Ending::Elsewhere`], [`Ending::Running`]).
    pub fn has_elsewhere(&self) -> bool {
        self.certain_entries()
            .any(|e| matches!(e.ending, Ending::Elsewhere | Ending::Running))
    }

    /// The steps asleep that may cover a wakeup sequence (not
    /// [`Ending::Elsewhere`]), with whether they may cover one they are beside (not
    /// [`Ending::Running`]: see [`crate::parallel::shared_top::Held::lend`]).
    pub fn covering_steps(&self) -> impl Iterator<Item = (&Step, bool)> {
        let covering = |e: &&Entry| {
            let ending = matches!(e.ending, Ending::Asleep | Ending::Running | Ending::Settled);
            ending && e.len == 1
        };
        (self.certain_entries().filter(covering))
            .map(|e| (&e.steps()[0], e.ending != Ending::Running))
    }

    fn certain_entries(&self) -> impl Iterator<Item = &Entry> {
        self.certain.iter().map(|&i| &self.entries[i as usize])
    }

    /// What running the process ends: sequences justified by state equality whose last
    /// step it is.
    pub fn ends(&self, process: Fingerprint) -> Ends {
        let mut ends = Ends::default();
        for e in &self.entries {
            if e.len == 1 && e.head == process {
                match e.ending {
                    Ending::Asleep | Ending::Elsewhere | Ending::Running | Ending::Settled => {
                        continue
                    }
                    Ending::Blocks => ends.always = true,
                    Ending::BlocksAt(state) => ends.at.push(state),
                }
                for p in e.partners() {
                    if !ends.partners.contains(p) {
                        ends.partners.push(*p);
                    }
                }
            }
        }
        ends
    }

    /// Adds the entries of `other`.
    pub fn join(&mut self, other: &SleepSet) {
        for entry in &other.entries {
            self.add(entry.clone());
        }
    }

    /// Puts steps to sleep (line 19 of Alg. 1, and what propagates from it).
    pub fn insert(&mut self, steps: Vec<Step>) {
        self.add(Entry::new(steps, Ending::Asleep));
    }

    /// Puts a step to sleep that another unit of a parallel search explores
    /// ([`Ending::Elsewhere`]).
    pub fn insert_elsewhere(&mut self, step: Step) {
        self.add(Entry::new(vec![step], Ending::Elsewhere));
    }

    /// Puts a step to sleep whose subtree another job is exploring
    /// ([`Ending::Running`]).
    pub fn insert_running(&mut self, step: Step) {
        self.add(Entry::new(vec![step], Ending::Running));
    }

    /// Puts a step to sleep whose subtree jobs explored for good, with everything
    /// left of it ([`Ending::Settled`]).
    pub fn insert_settled(&mut self, step: Step) {
        self.add(Entry::new(vec![step], Ending::Settled));
    }

    /// Where a branch is taken with something left of it still being explored (or
    /// below a leaf that may have swallowed what a settled branch asked for): the
    /// settled steps cover only what they run in there, as running ones do. Their
    /// covering what they are beside rests on every sequence asked for left of the
    /// branch being in its tree when it starts, through whichever subtree the
    /// asking goes.
    pub fn distrust_settled(&mut self) {
        let mut changed = false;
        for e in &mut self.entries {
            if e.ending == Ending::Settled {
                e.key = Entry::key(e.steps(), Ending::Running);
                e.ending = Ending::Running;
                changed = true;
            }
        }
        if changed {
            self.keys.clear();
        }
    }

    /// Adds a sequence proved to reach a state already reached (CDPOR line 12): its
    /// last step is settled without running ([`Ending::Blocks`]).
    /// `partners`: those of the sequences that made it so ([`Ends::partners`]), for a
    /// step recorded as blocking where it blocked.
    pub fn insert_equivalent(&mut self, steps: Vec<Step>, partners: &[Fingerprint]) {
        self.add(Entry::suffix(
            steps.into(),
            0,
            Ending::Blocks,
            (!partners.is_empty()).then(|| partners.into()),
        ));
    }

    /// Adds a sequence that may reach `state`, already reached (CSDPOR lines 13–14,
    /// checked lazily): its last step runs, then blocks if it did.
    pub fn insert_if_reaching(&mut self, steps: Vec<Step>, state: Fingerprint) {
        self.add(Entry::new(steps, Ending::BlocksAt(state)));
    }

    fn add(&mut self, entry: Entry) {
        debug_assert!(!entry.steps().is_empty());
        match self.find(&entry) {
            // The same sequence come another way: its partners are both ways'.
            Some(i) => {
                let known = &mut self.entries[i];
                known.partners = known.partners_and(entry.partners());
            }
            None => {
                self.proved += usize::from(entry.len == 1 && entry.ending == Ending::Blocks);
                if !matches!(entry.ending, Ending::BlocksAt(_)) {
                    self.certain.push(self.entries.len() as u32);
                }
                self.entries.push(entry);
            }
        }
    }

    /// The index of the entry that is the same as `entry`, if any; if none, once
    /// keys are indexed, `entry`'s key is registered for the index [`SleepSet::add`]
    /// then pushes it at.
    fn find(&mut self, entry: &Entry) -> Option<usize> {
        // Most sleep sets hold a few entries: a scan beats hashing them.
        if self.entries.len() < SCANNED {
            return self.entries.iter().position(|e| e.same(entry));
        }
        if self.keys.is_empty() {
            for (i, e) in self.entries.iter().enumerate() {
                self.keys.entry(e.key).or_insert(i as u32);
            }
        }
        let next = self.entries.len() as u32;
        match self.keys.entry(entry.key) {
            MapEntry::Vacant(v) => {
                v.insert(next);
                None
            }
            MapEntry::Occupied(o) => {
                let first = *o.get() as usize;
                if self.entries[first].same(entry) {
                    Some(first)
                } else {
                    self.entries.iter().position(|e| e.same(entry))
                }
            }
        }
    }

    /// Some single step of the set ends a sequence proved to reach a covered state
    /// ([`Ending::Blocks`]): cheap, so that nodes without one skip looking for them.
    pub fn has_proved_step(&self) -> bool {
        self.proved > 0
    }

    /// CSDPOR Alg. 1, line 12: some entry `w` is a prefix of `seq` (`w ≤ seq`).
    pub fn has_prefix_of(&self, seq: &[Fingerprint]) -> bool {
        // Only entries certain to block count: one that blocks only if it reaches a
        // state may not, and would hide the sequence the race asks for.
        self.certain_entries().any(|w| {
            seq.first() == Some(&w.head)
                && w.len <= seq.len()
                && w.steps().iter().zip(seq).all(|(s, p)| s.process == *p)
        })
    }

    /// The length of the shortest entry that starts with `process` (for guiding the
    /// exploration by sleep sequences, CSDPOR Sec. 5.3, optimisation 2).
    pub fn shortest_headed_by(&self, process: Fingerprint) -> Option<usize> {
        self.entries
            .iter()
            .filter(|e| e.head == process)
            .map(|e| e.len)
            .min()
    }

    /// The sleep set of `E.p` from that of `E`, where `p` ran an event with footprint `n`:
    /// - CSDPOR line 15: entries independent of `n` (no step of `p`, no step in conflict);
    /// - CSDPOR line 16: `x` for each entry `p.x`;
    /// - with `lift` (the optimal searches' don't-do sets, ISSTA'19 Sec. 4.2): `u.w` for
    ///   each entry `u.p.w` whose steps `u` are independent of `n`;
    /// - single steps in conflict that `keep` keeps: [`Kept::Independent`] ones (the
    ///   two events commute as events: ocdpor's `R`) stay asleep as they are; with
    ///   [`Kept::Equivalent`] (CDPOR line 17: they commute in `s[E]`), with the
    ///   footprint it gives (the step's after `n`), kept by state equality rather than
    ///   independence, they end as proved sequences do ([`Ending::Blocks`]);
    /// - with `chase` (a reduction that reads them, `Parts::chases_partners`), `p`
    ///   joins the partners of each entry whose step it ran, lifted or kept past.
    pub fn after(
        &self,
        p: Fingerprint,
        n: &Footprint,
        (lift, chase): (bool, bool),
        mut keep: impl FnMut(&Step) -> Option<Kept>,
        out: &mut SleepSet,
    ) {
        out.clear();
        for entry in &self.entries {
            let steps = entry.steps();
            if steps[0].process == p {
                if steps.len() > 1 {
                    out.add(Entry::suffix(
                        entry.shared.clone(),
                        entry.from + 1,
                        entry.ending,
                        entry.partners_after(p, chase),
                    ));
                }
            } else if steps
                .iter()
                .all(|s| s.process != p && !s.footprint.conflicts(n))
            {
                out.add(entry.clone());
            } else if let Some(k) = lift
                .then(|| first_step_of_after_independent(steps, p, n))
                .flatten()
            {
                // ISSTA'19 Sec. 4.2 (refined inheritance of don't-do sequences), its
                // first case: `u.p.w` goes down as `u.w` when `p`'s event commutes
                // with every step of `u`. (Only in the optimal searches: in csdpor and
                // cdpor the longer-lived sequences made QS_shared(13) explore 33k
                // states instead of 29k, in three times the time.) Then `E.p.u.w` is Mazurkiewicz-equivalent to
                // `E.u.p.w`: `p`'s next step is this event (`u` changes neither its
                // locals nor, not writing what it reads, its guard), the steps of `u`
                // run with the same locals and read the same values, and both orders
                // end in the same state (processes compared as a multiset, with their
                // identities). So what the entry says of `E.u.p.w` — asleep, proved
                // or checked to reach a covered state — holds of `E.p.u.w`. The
                // footprints stay valid: each is its step's transition footprint
                // (or its block's), a property of the step's local state.
                let rest: Vec<Step> = steps[..k].iter().chain(&steps[k + 1..]).cloned().collect();
                out.add(Entry::suffix(
                    rest.into(),
                    0,
                    entry.ending,
                    // `p`'s step was the sequence's own: a partner if it blocks.
                    entry.partners_after(p, chase),
                ));
            } else if let ([x], false) = (steps, matches!(entry.ending, Ending::BlocksAt(_))) {
                // Kept by state equality, not by independence: it ends as proved.
                // (An entry that blocks only at a given state cannot be carried past a
                // dependent event: the state it would reach is unknown.)
                match keep(x) {
                    Some(Kept::Independent) => out.add(entry.clone()),
                    Some(Kept::Equivalent(footprint)) => out.add(Entry::suffix(
                        Arc::from([Step {
                            process: x.process,
                            footprint,
                        }]),
                        0,
                        Ending::Blocks,
                        entry.partners_after(p, chase),
                    )),
                    None => {}
                }
            }
        }
    }
}

/// The position of `p`'s first step in `steps`, if `p` has one (not the first) and
/// every step before it is of another process and independent of `n`.
fn first_step_of_after_independent(steps: &[Step], p: Fingerprint, n: &Footprint) -> Option<usize> {
    let k = steps.iter().position(|s| s.process == p)?;
    (k > 0 && steps[..k].iter().all(|s| !s.footprint.conflicts(n))).then_some(k)
}
