//! Every benchmark program at a small size: naive finds no violation and the final
//! states the program's header comment promises, and each reduced algorithm reaches
//! the same final states. The trace counts pin down what each reduction achieves on
//! it today, so that a change in the reductions shows up here first.

use explorer::cdpor::Constrained;
use explorer::csdpor::ContextSensitive;
use explorer::dpor::Dpor;
use explorer::naive::Naive;
use explorer::sdpor::SourceDpor;
use explorer::{Algorithm, Config, Report};

fn run(file: &str, n: i64, algorithm: &mut dyn Algorithm) -> Report {
    let program = benches::program(file, &[("N", n)]);
    let report = explorer::explore(&program, algorithm, Config::default());
    assert!(report.complete(), "{file} N={n}: {:?}", report.stop);
    assert!(
        report.violations.is_empty(),
        "{file}: {:?}",
        report.violations
    );
    report
}

/// Runs naive, sdpor, csdpor and cdpor (dynamic dependencies) on `file` at size `n`
/// and checks (final states, [traces of each algorithm]).
fn check(file: &str, n: i64, finals: u64, traces: [u64; 4]) {
    let path = format!("{}/{file}", benches::PROGRAMS);
    let source = std::fs::read_to_string(path).expect("the program is in the repository");
    let program = benches::program(file, &[("N", n)]);
    let ics = benches::table::measure::synthesise(&program, &source, file)
        .expect("synthesised constraints fit")
        .ics;
    let mut algorithms: [Box<dyn Algorithm>; 4] = [
        Box::new(Naive::default()),
        Box::new(Dpor::new(SourceDpor)),
        Box::new(Dpor::new(ContextSensitive::new())),
        Box::new(Dpor::new(Constrained::new(ics, ContextSensitive::new()))),
    ];
    let reports: Vec<Report> = algorithms
        .iter_mut()
        .map(|a| run(file, n, a.as_mut()))
        .collect();
    for r in &reports {
        assert_eq!(r.finals, reports[0].finals, "{file}: final states differ");
        assert_eq!(r.stats.final_states, finals, "{file}: final states");
    }
    let got: Vec<u64> = reports.iter().map(|r| r.stats.traces).collect();
    assert_eq!(
        got, traces,
        "{file} N={n}: traces of naive, sdpor, csdpor, cdpor"
    );
}

#[test]
fn fib() {
    // fib(3): 5 fib and 5 res events; one final state (r = 2).
    check("fib.ic", 3, 1, [278, 12, 12, 3]);
}

#[test]
fn qs() {
    check("qs.ic", 4, 1, [127_608, 24, 1, 1]);
}

#[test]
fn ms() {
    check("ms.ic", 4, 1, [280, 8, 1, 1]);
}

#[test]
fn pi() {
    // 3 workers of 2 blocks each and the master: 6! / 2^3 = 90 interleavings; the
    // 3! orders of the accumulations are the Mazurkiewicz traces.
    check("pi.ic", 3, 1, [90, 6, 1, 1]);
}

#[test]
fn ps() {
    check("ps.ic", 3, 1, [18, 18, 8, 1]);
}

#[test]
fn reg() {
    check("reg.ic", 3, 1, [90, 36, 1, 1]);
}

#[test]
fn dbp() {
    // Each of the 3 writes lands before or after the snapshot: 2^3 final states,
    // and every reduction must explore one execution for each.
    check("dbp.ic", 3, 8, [24, 24, 8, 8]);
}

#[test]
fn bb() {
    check("bb.ic", 3, 1, [144, 144, 4, 4]);
}

#[test]
fn pc() {
    // CSDPOR Sec. 4: C(6, 3) = 20 executions for Source-DPOR, 2^3 final states.
    check("pc.ic", 3, 8, [20, 20, 8, 8]);
}
