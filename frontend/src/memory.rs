//! Global memory at run time, its locations, and an undo log.
//!
//! Every scalar and every array element has a slot; each map is an ordered map. A
//! [`Loc`] names what an event reads or writes at the finest grain the language has:
//! a scalar, one array element, one map key, or a whole list. Writes record the old
//! value in an [`UndoLog`], so an explorer can step back without copying the memory.

use crate::analysis::may_touch::WHOLE;
use crate::ir::{GlobalId, GlobalKind, Program};
use crate::map::Map;
use crate::value::Value;
use rustc_hash::FxHashSet;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// One location of global memory: `elem` is the array index or map key (0 for a scalar or a list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub global: GlobalId,
    pub elem: i64,
}

impl Loc {
    pub fn whole(global: GlobalId) -> Loc {
        Loc { global, elem: 0 }
    }

    /// `x`, `a[3]` or `m[-1]`.
    pub fn display(self, program: &Program) -> String {
        let g = &program.globals[self.global as usize];
        match g.kind {
            GlobalKind::Scalar(_) => g.name.clone(),
            GlobalKind::Array { .. } | GlobalKind::Map => format!("{}[{}]", g.name, self.elem),
        }
    }
}

#[derive(Debug, Default)]
pub struct Memory {
    slots: Vec<Value>,
    /// Shared by the copies, and hashed as written ([`Map`] says why).
    maps: Vec<Map>,
    /// For each global, its first slot (scalars, arrays) or its map index.
    base: Arc<[usize]>,
}

/// `clone_from` reuses the slots' buffer (explorers copy memories at almost every
/// step), and writes only the slots that differ: a search that keeps a state per node
/// (csdpor, cdpor, odpor-cs) copies it over the one it kept at that depth on an
/// earlier path, which most slots still equal, and reading a slot costs less than
/// writing it (cdpor on filesystem(22), 116 slots: 9% faster).
impl Clone for Memory {
    fn clone(&self) -> Self {
        Memory {
            slots: self.slots.clone(),
            maps: self.maps.clone(),
            base: self.base.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if self.slots.len() == source.slots.len() {
            for (to, from) in self.slots.iter_mut().zip(&source.slots) {
                if to != from {
                    *to = from.clone();
                }
            }
        } else {
            self.slots.clone_from(&source.slots);
        }
        self.maps.clone_from(&source.maps);
        self.base.clone_from(&source.base);
    }
}

/// Two memories are equal when their contents are (the layout is the program's).
impl PartialEq for Memory {
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots && self.maps == other.maps
    }
}

impl Eq for Memory {}

impl std::hash::Hash for Memory {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slots.hash(state);
        self.maps.hash(state);
    }
}

impl Memory {
    /// Equality except for the values of the globals `ignored` (scalars, arrays or
    /// maps of `program`): a state check modulo dead values (see
    /// [`crate::analysis::overwrites`]).
    pub fn same_except(&self, other: &Memory, program: &Program, ignored: &[GlobalId]) -> bool {
        if ignored.is_empty() {
            return self == other;
        }
        self.maps
            .iter()
            .zip(&other.maps)
            .enumerate()
            .all(|(m, (a, b))| a == b || self.ignores_map(program, ignored, m))
            && self.slots.len() == other.slots.len()
            && self
                .slots
                .iter()
                .zip(&other.slots)
                .enumerate()
                .all(|(i, (a, b))| a == b || self.ignores_slot(program, ignored, i))
    }

    /// The hash of the memory with the globals `ignored` read as `false` (a map as
    /// empty): equal for memories [`Memory::same_except`] finds equal.
    pub fn hash_except<H: std::hash::Hasher>(
        &self,
        program: &Program,
        ignored: &[GlobalId],
        state: &mut H,
    ) {
        use std::hash::Hash;
        if ignored.is_empty() {
            return self.hash(state);
        }
        state.write_usize(self.slots.len());
        for (i, v) in self.slots.iter().enumerate() {
            if self.ignores_slot(program, ignored, i) {
                Value::Bool(false).hash(state);
            } else {
                v.hash(state);
            }
        }
        for (m, map) in self.maps.iter().enumerate() {
            if self.ignores_map(program, ignored, m) {
                Map::new().hash(state);
            } else {
                map.hash(state);
            }
        }
    }

    /// Whether slot `i` holds a scalar or an element of an array of `ignored`.
    fn ignores_slot(&self, program: &Program, ignored: &[GlobalId], i: usize) -> bool {
        ignored.iter().any(|&g| {
            let base = self.base[g as usize];
            match program.globals[g as usize].kind {
                GlobalKind::Scalar(_) => base == i,
                GlobalKind::Array { len, .. } => (base..base + len).contains(&i),
                GlobalKind::Map => false,
            }
        })
    }

    /// Whether map `m` is one of `ignored`.
    fn ignores_map(&self, program: &Program, ignored: &[GlobalId], m: usize) -> bool {
        ignored.iter().any(|&g| {
            matches!(program.globals[g as usize].kind, GlobalKind::Map)
                && self.base[g as usize] == m
        })
    }
}

/// What a write replaced.
#[derive(Clone, Debug)]
enum Old {
    Slot(usize, Value),
    Map(usize, i64, Option<i64>),
}

impl Old {
    fn cell(&self) -> Cell {
        match *self {
            Old::Slot(slot, _) => Cell::Slot(slot),
            Old::Map(m, key, _) => Cell::Key(m, key),
        }
    }
}

/// The memory of a subsequence of a logged execution, computed from the memory after
/// all of it without running anything (`Memory::rewind`), whole or a location at a
/// time: a search that asks what a few locations hold there need not copy the
/// memory.
pub struct Rewound<'a> {
    after: &'a Memory,
    log: &'a UndoLog,
    /// The log range of each event after the subsequence's common prefix, newest
    /// first, and whether the subsequence keeps it.
    events: Vec<(Range<usize>, bool)>,
}

impl<'a> Rewound<'a> {
    /// The subsequence of the execution logged in `log` that ended in `after`:
    /// `events` are the log range of each event after the subsequence's common
    /// prefix, newest first, and whether the subsequence keeps it.
    pub fn new(after: &'a Memory, log: &'a UndoLog, events: Vec<(Range<usize>, bool)>) -> Self {
        Rewound { after, log, events }
    }

    /// The whole memory.
    pub fn memory(&self) -> Memory {
        let mut mem = self.after.clone();
        // Fx, not std's SipHash: this runs for many races (odpor's reversals past an
        // `await`), and hashing the cells took 5% of odpor's time on abs(5).
        let mut fixed = FxHashSet::default();
        for (range, kept) in &self.events {
            mem.rewind(self.log, range.clone(), *kept, &mut fixed);
        }
        mem
    }

    /// The log entry whose old value `cell` holds, `Memory::rewind`'s walk for one
    /// cell: the oldest write undone before a kept write fixes the cell; none where
    /// no write was undone (it holds its value in `after`).
    fn undone(&self, cell: Cell) -> Option<&'a Old> {
        let log = self.log;
        let mut holding = None;
        for (range, kept) in &self.events {
            for old in log.entries[range.clone()].iter().rev() {
                if old.cell() != cell {
                    continue;
                }
                if *kept {
                    return holding;
                }
                holding = Some(old);
            }
        }
        holding
    }

    fn slot(&self, slot: usize) -> &Value {
        match self.undone(Cell::Slot(slot)) {
            Some(Old::Slot(_, v)) => v,
            _ => &self.after.slots[slot],
        }
    }

    fn key(&self, m: usize, key: i64) -> Option<i64> {
        match self.undone(Cell::Key(m, key)) {
            Some(Old::Map(_, _, v)) => *v,
            _ => self.after.maps[m].get(&key).copied(),
        }
    }

    /// Hashes the value at `loc` of `program` (an element outside an array, or
    /// [`WHOLE`], stands for them all): memories that hold the same values there
    /// hash alike, and each location's words say where they end (a list's and a
    /// whole map's start with their length), so the hashes of several locations in
    /// a row are those of their values together.
    pub fn hash_at<H: std::hash::Hasher>(&self, program: &Program, loc: Loc, state: &mut H) {
        use std::hash::Hash;
        let g = loc.global;
        let base = self.after.base[g as usize];
        match program.globals[g as usize].kind {
            GlobalKind::Scalar(_) => self.slot(base).hash(state),
            GlobalKind::Array { len, .. } => match usize::try_from(loc.elem) {
                Ok(i) if i < len => self.slot(base + i).hash(state),
                _ => (base..base + len).for_each(|i| self.slot(i).hash(state)),
            },
            GlobalKind::Map if loc.elem == WHOLE => {
                // Every key the map has after, or had before a write in the log.
                let logged = self.events.iter().flat_map(|(range, _)| {
                    self.log.entries[range.clone()]
                        .iter()
                        .filter_map(|old| match *old {
                            Old::Map(m, key, _) if m == base => Some(key),
                            _ => None,
                        })
                });
                let keys: std::collections::BTreeSet<i64> = self.after.maps[base]
                    .keys()
                    .copied()
                    .chain(logged)
                    .collect();
                let held: Vec<(i64, i64)> = (keys.into_iter())
                    .filter_map(|key| Some((key, self.key(base, key)?)))
                    .collect();
                // With its length, as a list hashes: what follows cannot be taken
                // for more of the map.
                held.hash(state);
            }
            GlobalKind::Map => self.key(base, loc.elem).hash(state),
        }
    }
}

/// A location as the undo log names it: a slot, or one key of one map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Slot(usize),
    Key(usize, i64),
}

/// Old values of the writes since the log was last cleared, newest last.
#[derive(Clone, Debug, Default)]
pub struct UndoLog {
    entries: Vec<Old>,
}

impl UndoLog {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Memory {
    /// The memory after the global initialisers (before `init` runs).
    pub fn initial(program: &Program) -> Memory {
        let mut slots = Vec::new();
        let mut maps = Vec::new();
        let mut base = Vec::with_capacity(program.globals.len());
        for g in &program.globals {
            match g.kind {
                GlobalKind::Map => {
                    base.push(maps.len());
                    maps.push(Map::new());
                }
                GlobalKind::Scalar(_) | GlobalKind::Array { .. } => {
                    base.push(slots.len());
                    slots.extend(g.init.iter().cloned());
                }
            }
        }
        Memory {
            slots,
            maps,
            base: base.into(),
        }
    }

    /// A scalar or list global.
    pub fn scalar(&self, g: GlobalId) -> &Value {
        &self.slots[self.base[g as usize]]
    }

    /// Element `i` of an array, which the caller has bounds-checked.
    pub fn element(&self, g: GlobalId, i: usize) -> &Value {
        &self.slots[self.base[g as usize] + i]
    }

    pub fn map(&self, g: GlobalId) -> &Map {
        &self.maps[self.base[g as usize]]
    }

    /// Whether two memories of `program` hold the same value at `loc` (an absent map
    /// key is a value too; an element outside an array, or [`WHOLE`], stands for
    /// them all).
    pub fn same_at(&self, other: &Memory, program: &Program, loc: Loc) -> bool {
        let g = loc.global;
        match program.globals[g as usize].kind {
            GlobalKind::Scalar(_) => self.scalar(g) == other.scalar(g),
            GlobalKind::Array { len, .. } => match usize::try_from(loc.elem) {
                Ok(i) if i < len => self.element(g, i) == other.element(g, i),
                _ => (0..len).all(|i| self.element(g, i) == other.element(g, i)),
            },
            GlobalKind::Map if loc.elem == WHOLE => self.map(g) == other.map(g),
            GlobalKind::Map => self.map(g).get(&loc.elem) == other.map(g).get(&loc.elem),
        }
    }

    pub fn set_scalar(&mut self, g: GlobalId, v: Value, log: &mut UndoLog) {
        self.set_slot(self.base[g as usize], v, log);
    }

    pub fn set_element(&mut self, g: GlobalId, i: usize, v: Value, log: &mut UndoLog) {
        self.set_slot(self.base[g as usize] + i, v, log);
    }

    fn set_slot(&mut self, slot: usize, v: Value, log: &mut UndoLog) {
        let old = std::mem::replace(&mut self.slots[slot], v);
        log.entries.push(Old::Slot(slot, old));
    }

    pub fn set_map(&mut self, g: GlobalId, key: i64, v: i64, log: &mut UndoLog) {
        let m = self.base[g as usize];
        let old = self.maps[m].insert(key, v);
        log.entries.push(Old::Map(m, key, old));
    }

    /// One step of computing the memory of a subsequence of the logged execution from
    /// the memory after all of it, without running anything: walks the log entries
    /// `range` (one event's writes) from newest to oldest. An event of the subsequence
    /// (`kept`) fixes the value its write left, if no later kept write fixed it first;
    /// another event's write is undone where no kept write fixed the location. Called
    /// for every event after the subsequence's common prefix, newest first, this
    /// leaves each location with the value of its last write in the subsequence.
    fn rewind(
        &mut self,
        log: &UndoLog,
        range: Range<usize>,
        kept: bool,
        fixed: &mut FxHashSet<Cell>,
    ) {
        for old in log.entries[range].iter().rev() {
            let cell = old.cell();
            if kept {
                fixed.insert(cell);
                continue;
            }
            if fixed.contains(&cell) {
                continue;
            }
            match old {
                Old::Slot(slot, v) => self.slots[*slot] = v.clone(),
                Old::Map(m, key, Some(v)) => {
                    self.maps[*m].insert(*key, *v);
                }
                Old::Map(m, key, None) => {
                    self.maps[*m].remove(key);
                }
            }
        }
    }

    /// Restores the memory to what it was when the log had `mark` entries.
    pub fn undo_to(&mut self, log: &mut UndoLog, mark: usize) {
        while log.entries.len() > mark {
            match log.entries.pop() {
                Some(Old::Slot(slot, v)) => self.slots[slot] = v,
                Some(Old::Map(m, key, Some(v))) => {
                    self.maps[m].insert(key, v);
                }
                Some(Old::Map(m, key, None)) => {
                    self.maps[m].remove(&key);
                }
                None => break,
            }
        }
    }

    /// Every global with its current value, for reports.
    pub fn show<'a>(&'a self, program: &'a Program) -> ShowMemory<'a> {
        ShowMemory {
            memory: self,
            program,
        }
    }
}

/// `x = 1, a = [0, 2], m = {3: 4}`
pub struct ShowMemory<'a> {
    memory: &'a Memory,
    program: &'a Program,
}

impl fmt::Display for ShowMemory<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.program.globals.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} = ", g.name)?;
            write_global(f, self.memory, i as GlobalId, &g.kind)?;
        }
        Ok(())
    }
}

/// The value of one global as the user writes it.
pub fn write_global(
    f: &mut impl fmt::Write,
    memory: &Memory,
    g: GlobalId,
    kind: &GlobalKind,
) -> fmt::Result {
    match kind {
        GlobalKind::Scalar(_) => write!(f, "{}", memory.scalar(g)),
        GlobalKind::Array { len, .. } => {
            f.write_str("[")?;
            for i in 0..*len {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{}", memory.element(g, i))?;
            }
            f.write_str("]")
        }
        GlobalKind::Map => {
            f.write_str("{")?;
            for (i, (k, v)) in memory.map(g).iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{k}: {v}")?;
            }
            f.write_str("}")
        }
    }
}
