//! `Rewound` read a location at a time holds what the whole rewound memory holds
//! there: the searches key what an event carries by the one and run it on the other,
//! and the key of several locations is that of their values together.

use frontend::analysis::may_touch::WHOLE;
use frontend::ir::{GlobalId, Program};
use frontend::memory::{Loc, Memory, Rewound, UndoLog};
use frontend::value::Value;
use proptest::prelude::*;
use std::hash::{DefaultHasher, Hasher};

const SOURCE: &str = "
    global int x = 0;
    global list l = [];
    global int[3] a;
    global map m;
    proc p() { x = 1; }
    init { spawn p(); }
";

const X: GlobalId = 0;
const L: GlobalId = 1;
const A: GlobalId = 2;
const M: GlobalId = 3;

/// One write: which global, which element or key, which value.
#[derive(Clone, Debug)]
struct Write(GlobalId, i64, i64);

fn write() -> impl Strategy<Value = Write> {
    prop_oneof![
        (0..4i64).prop_map(|v| Write(X, 0, v)),
        (0..4i64, 0..4i64).prop_map(|(n, v)| Write(L, n, v)),
        (0..3i64, 0..4i64).prop_map(|(i, v)| Write(A, i, v)),
        (0..4i64, 0..4i64).prop_map(|(k, v)| Write(M, k, v)),
    ]
}

fn apply(mem: &mut Memory, log: &mut UndoLog, Write(g, at, v): &Write) {
    match *g {
        X => mem.set_scalar(X, Value::Int(*v), log),
        L => mem.set_scalar(L, Value::List(vec![*v; *at as usize].into()), log),
        A => mem.set_element(A, *at as usize, Value::Int(*v), log),
        _ => mem.set_map(M, *at, *v, log),
    }
}

/// Every location of the program, the whole array and the whole map included.
fn locations() -> Vec<Loc> {
    let at = |global, elem| Loc { global, elem };
    let mut locs = vec![at(X, 0), at(L, 0), at(A, WHOLE), at(A, 7), at(M, WHOLE)];
    locs.extend((0..3).map(|i| at(A, i)));
    locs.extend((0..5).map(|k| at(M, k)));
    locs
}

fn hash_at(mem: &Rewound<'_>, program: &Program, loc: Loc) -> u64 {
    hash_all(mem, program, &[loc])
}

/// The hash of the locations `locs` in a row, as an event's key hashes them.
fn hash_all(mem: &Rewound<'_>, program: &Program, locs: &[Loc]) -> u64 {
    let mut h = DefaultHasher::new();
    for &loc in locs {
        mem.hash_at(program, loc, &mut h);
    }
    h.finish()
}

fn memory_of(program: &Program, writes: &[Write], log: &mut UndoLog) -> Memory {
    let mut mem = Memory::initial(program);
    writes.iter().for_each(|w| apply(&mut mem, log, w));
    mem
}

proptest! {
    /// Events of random writes, a random subsequence kept after a common prefix.
    #[test]
    fn a_location_holds_what_the_whole_memory_holds(
        events in prop::collection::vec((prop::collection::vec(write(), 0..4), any::<bool>()), 0..8),
        prefix in 0usize..4,
    ) {
        let program = frontend::load(SOURCE, &[]).expect("the program compiles");
        let mut mem = Memory::initial(&program);
        let mut log = UndoLog::default();
        let mut ranges = Vec::new();
        for (writes, kept) in &events {
            let start = log.len();
            writes.iter().for_each(|w| apply(&mut mem, &mut log, w));
            ranges.push((start..log.len(), *kept));
        }
        let first = prefix.min(ranges.len());
        let after: Vec<_> = ranges.drain(first..).rev().collect();
        let rewound = Rewound::new(&mem, &log, after);
        let whole = rewound.memory();
        let read_off = Rewound::new(&whole, &log, Vec::new());
        for loc in locations() {
            prop_assert_eq!(
                hash_at(&rewound, &program, loc),
                hash_at(&read_off, &program, loc),
                "at {:?}", loc
            );
        }
    }

    /// Two memories hash apart over the whole map and the list in a row unless they
    /// hold the same values there: no map's pairs read as the next list's length
    /// and elements (`{2: 0}` then `[]` against `{}` then `[0, 0]`).
    #[test]
    fn locations_in_a_row_hash_apart_where_their_values_differ(
        one in prop::collection::vec(write(), 0..6),
        other in prop::collection::vec(write(), 0..6),
    ) {
        let program = frontend::load(SOURCE, &[]).expect("the program compiles");
        let mut log = UndoLog::default();
        let (a, b) = (memory_of(&program, &one, &mut log), memory_of(&program, &other, &mut log));
        let row = [Loc { global: M, elem: WHOLE }, Loc { global: L, elem: 0 }];
        let same = row.iter().all(|&loc| a.same_at(&b, &program, loc));
        let (ra, rb) = (Rewound::new(&a, &log, Vec::new()), Rewound::new(&b, &log, Vec::new()));
        prop_assert_eq!(same, hash_all(&ra, &program, &row) == hash_all(&rb, &program, &row));
    }
}

/// The pair the property above is about: a map's pairs and an empty list against an
/// empty map and a list whose length and elements are those pairs.
#[test]
fn a_whole_map_then_a_list_hash_apart_from_a_longer_list() {
    let program = frontend::load(SOURCE, &[]).expect("the program compiles");
    let mut log = UndoLog::default();
    let map = memory_of(&program, &[Write(M, 2, 0)], &mut log);
    let list = memory_of(&program, &[Write(L, 2, 0)], &mut log);
    let row = [
        Loc {
            global: M,
            elem: WHOLE,
        },
        Loc { global: L, elem: 0 },
    ];
    let hash = |mem: &Memory| hash_all(&Rewound::new(mem, &log, Vec::new()), &program, &row);
    assert_ne!(hash(&map), hash(&list));
}
