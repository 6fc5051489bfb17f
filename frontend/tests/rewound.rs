//! `Rewound` read a location at a time holds what the whole rewound memory holds
//! there: the searches key what an event carries by the one and run it on the other.

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
        (0..4i64).prop_map(|v| Write(L, 0, v)),
        (0..3i64, 0..4i64).prop_map(|(i, v)| Write(A, i, v)),
        (0..4i64, 0..4i64).prop_map(|(k, v)| Write(M, k, v)),
    ]
}

fn apply(mem: &mut Memory, log: &mut UndoLog, Write(g, at, v): &Write) {
    match *g {
        X => mem.set_scalar(X, Value::Int(*v), log),
        L => mem.set_scalar(L, Value::List(vec![*v; *v as usize].into()), log),
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
    let mut h = DefaultHasher::new();
    mem.hash_at(program, loc, &mut h);
    h.finish()
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
}
