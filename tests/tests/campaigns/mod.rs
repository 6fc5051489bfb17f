//! Differential campaigns run by hand (`--ignored`): a survey of what the generated
//! programs exercise, a long campaign with timings, and one program from a file.

use super::*;

/// What the generated programs exercise (run by hand: `cargo test -p tests --test
/// differential survey -- --ignored --nocapture`): how many programs reach each kind
/// of violation, the sizes of their state spaces, and the time of each algorithm.
#[test]
#[ignore = "a report, not a check"]
fn survey() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    use std::time::Instant;
    let settings = proptest_config();
    let cases = settings.cases;
    let mut runner = TestRunner::new(settings);
    let strategy = strategy::program();
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut states: Vec<u64> = Vec::new();
    // The synthesis time of each program.
    let mut synth: Vec<Duration> = Vec::new();
    let mut slowest: Option<(Duration, String)> = None;
    let mut time: BTreeMap<String, Duration> = BTreeMap::new();
    let mut bump = |k: &str| *tally.entry(k.to_string()).or_default() += 1;
    for _ in 0..cases {
        let generated = strategy.new_tree(&mut runner).unwrap().current();
        let source = generated.source();
        let instances = generated.instances();
        bump(&format!("processes: {}", instances.len()));
        let blocks: u64 = instances.iter().map(|&j| generated.blocks(j)).sum();
        bump(&format!("blocks (upper bound): {blocks:>2}"));
        let program = frontend::load(&source, &[]).expect("loads");
        let start = Instant::now();
        let naive = explorer::explore(&program, &mut Naive::default(), config());
        *time.entry("naive".into()).or_default() += start.elapsed();
        let start = Instant::now();
        let constraints = ics(&program, &source);
        let took = start.elapsed();
        *time.entry("cdpor synthesis".into()).or_default() += took;
        synth.push(took);
        if slowest.as_ref().is_none_or(|(t, _)| *t < took) {
            slowest = Some((took, source.clone()));
        }
        for mode in modes() {
            let start = Instant::now();
            let config = Config {
                deps: mode.deps,
                ..config()
            };
            let report = explorer::explore(&program, &mut *mode.make(Some(&constraints)), config);
            *time.entry(mode.name()).or_default() += start.elapsed();
            if mode.name() == "csdpor"
                && report.stats.traces < naive.stats.mazurkiewicz.unwrap_or(0)
            {
                bump("csdpor explores fewer traces than Mazurkiewicz");
            }
        }
        states.push(naive.stats.states);
        let s = &naive.stats;
        if s.traces == 0 {
            bump("no complete execution");
        }
        if s.final_states > 1 {
            bump("several final states");
        }
        if s.mazurkiewicz.unwrap_or(0) > 1 {
            bump("several Mazurkiewicz traces");
        }
        if s.mazurkiewicz.unwrap_or(0) < s.traces {
            bump("interleavings > Mazurkiewicz traces");
        }
        let mut kinds = BTreeSet::new();
        for v in &naive.violations {
            let what = match v.kind {
                ViolationKind::Assert => "assertion".to_string(),
                ViolationKind::Deadlock => "deadlock".to_string(),
                ViolationKind::NonTermination => "non-terminating".to_string(),
                ViolationKind::Livelock => "livelock".to_string(),
                ViolationKind::DepthLimit => "depth limit".to_string(),
                ViolationKind::Runtime => {
                    let m = &v.message;
                    let cut = m.find(|c: char| c.is_ascii_digit()).unwrap_or(m.len());
                    format!("runtime: {}", m[..cut].trim_end())
                }
            };
            kinds.insert(what);
        }
        for k in kinds {
            bump(&k);
        }
        for (word, name) in [
            ("take(", "has take"),
            ("drop(", "has drop"),
            ("l[", "has list index"),
            ("await", "has await"),
            ("yield;", "has yield"),
            ("while", "has while"),
            ("for i", "has for"),
            ("fun f", "has fun"),
            ("for k", "init spawns in a loop"),
        ] {
            if source.contains(word) {
                bump(name);
            }
        }
        let procs_text = &source[..source.find("\ninit {").unwrap_or(source.len())];
        if procs_text.contains("spawn ") {
            bump("a proc spawns");
        }
        let procs = source.matches("\nproc ").count();
        bump(&format!("procs: {procs}"));
    }
    states.sort_unstable();
    let n = states.len();
    println!(
        "{cases} programs; naive states: median {}, 90% {}, max {}, total {}",
        states[n / 2],
        states[n * 9 / 10],
        states[n - 1],
        states.iter().sum::<u64>()
    );
    for (k, v) in &time {
        println!("time {k}: {v:?}");
    }
    if let Some((took, source)) = &slowest {
        println!("slowest synthesis ({took:?}):\n{source}");
    }
    synth.sort_unstable();
    let m = synth.len();
    println!(
        "synthesis per program: median {:?}, 90% {:?}, 99% {:?}, max {:?}",
        synth[m / 2],
        synth[m * 9 / 10],
        synth[m * 99 / 100],
        synth[m - 1],
    );
    for (k, v) in &tally {
        println!("{v:>5}  {k}");
    }
}

/// A campaign (run by hand, best in release): `IC_DIFF_CASES` programs of `IC_DIFF_SEED`
/// through [`differential`], going on after a disagreement; each one is shrunk as
/// proptest would, and every distinct one (by the modes and checks that failed) is
/// printed with its shrunk program at the end.
///
/// `IC_DIFF_CASES=3000 cargo test --release -p tests --test differential campaign --
/// --ignored --nocapture`
#[test]
#[ignore = "a campaign that reports every disagreement; run by hand"]
fn campaign() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    let settings = proptest_config();
    let cases = settings.cases;
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..settings
    });
    let strategy = strategy::program();
    // What failed (each "mode: check" line) -> (how many programs, shrunk source, error).
    let mut found: BTreeMap<Vec<String>, (u32, String, String)> = BTreeMap::new();
    let signature = |error: &str| -> Vec<String> {
        let mut lines: Vec<String> = error
            .lines()
            .filter_map(|l| l.strip_prefix("  - "))
            .map(|l| {
                let end = l
                    .find(|c: char| c.is_ascii_digit() || c == '[' || c == '(')
                    .unwrap_or(l.len());
                l[..end].trim_end().to_string()
            })
            .collect();
        lines.sort();
        lines.dedup();
        lines
    };
    for case in 0..cases {
        let mut tree = strategy
            .new_tree(&mut runner)
            .expect("the strategy always generates");
        let Err(mut error) = differential(&tree.current().source()) else {
            continue;
        };
        let mut shrunk = tree.current().source();
        let mut simplify = true;
        for _ in 0..2000 {
            if simplify && !tree.simplify() {
                break;
            }
            let source = tree.current().source();
            match differential(&source) {
                Err(e) => {
                    shrunk = source;
                    error = e;
                    simplify = true;
                }
                Ok(_) => {
                    if !tree.complicate() {
                        break;
                    }
                    simplify = false;
                }
            }
        }
        let key = signature(&error);
        eprintln!("case {case}: {key:?}");
        let entry = found
            .entry(key)
            .or_insert((0, shrunk.clone(), error.clone()));
        entry.0 += 1;
        if shrunk.len() < entry.1.len() {
            entry.1 = shrunk;
            entry.2 = error;
        }
    }
    println!(
        "{cases} programs (IC_DIFF_SEED={}), {} distinct disagreements",
        seed(),
        found.len()
    );
    for (key, (n, _, error)) in &found {
        println!("\n=== {n} programs: {key:?}\n{error}");
    }
}

/// Runs the differential comparison on the program in the file `IC_DIFF_FILE` (by
/// hand: `IC_DIFF_FILE=prog.ic cargo test -p tests --test differential one_file --
/// --ignored --nocapture`), printing what disagrees.
#[test]
#[ignore = "run by hand on a file"]
fn one_file() {
    let Ok(path) = std::env::var("IC_DIFF_FILE") else {
        panic!("set IC_DIFF_FILE to a program");
    };
    let source = std::fs::read_to_string(&path).expect("IC_DIFF_FILE is readable");
    match differential(&source) {
        Ok(outcome) => println!("{path}: {} modes agree with naive", outcome.reduced.len()),
        Err(e) => panic!("{e}"),
    }
}
