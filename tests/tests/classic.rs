//! The classic family (`benches/programs/classic/`) against the Mazurkiewicz trace
//! counts the literature publishes for it (the formulas and sources are in each
//! program's header): naive's count at a small size, and Source-DPOR's complete
//! executions, which are the Mazurkiewicz traces once footprints are location-precise
//! (each of these programs branches only on a value its block has just read).

use explorer::algorithms::cdpor::Constrained;
use explorer::algorithms::csdpor::ContextSensitive;
use explorer::algorithms::naive::Naive;
use explorer::algorithms::odpor::OptimalDpor;
use explorer::algorithms::sdpor::SourceDpor;
use explorer::dpor::Dpor;
use explorer::{Algorithm, Config, Report};
use tests::{benchmark, constraints, load};

/// Explores `classic/<name>.ic` at size `n`, stopping after `max_traces` complete
/// executions if given; it must run without violation.
fn explore(name: &str, n: i64, algorithm: &mut dyn Algorithm, max_traces: Option<u64>) -> Report {
    let program = load(&benchmark(&format!("classic/{name}.ic")), &[("N", n)]);
    let config = Config {
        max_traces,
        ..Config::default()
    };
    let report = explorer::explore(&program, algorithm, config);
    assert!(
        report.violations.is_empty(),
        "{name}({n}): {:?}",
        report.violations
    );
    report
}

/// Naive counts `published` Mazurkiewicz traces of `name` at size `n`.
fn naive(name: &str, n: i64, published: u64) {
    let report = explore(name, n, &mut Naive::default(), None);
    assert!(report.complete(), "{name}({n}): {:?}", report.stop);
    assert_eq!(
        report.stats.mazurkiewicz,
        Some(published),
        "{name}({n}): naive's Mazurkiewicz traces"
    );
}

/// Source-DPOR explores `published` complete executions of `name` at size `n`, and
/// csdpor and cdpor no more; each is stopped as soon as it explores more, so that a
/// wrong count fails fast. Optimal-DPOR explores them too, and none blocked in a
/// sleep set, `await`s included (dining, lastzero).
fn sdpor(name: &str, n: i64, published: u64) {
    let report = explore(name, n, &mut Dpor::new(SourceDpor), Some(published + 1));
    assert_eq!(
        (report.stats.traces, report.complete()),
        (published, true),
        "{name}({n}): sdpor's complete executions (stopped at {} + 1)",
        published
    );
    let optimal = explore(name, n, &mut Dpor::new(OptimalDpor), Some(published + 1));
    assert!(
        optimal.complete() && optimal.stats.traces == published && optimal.stats.blocked == 0,
        "{name}({n}): odpor explores {} executions and {} blocked, sdpor {published} and {}",
        optimal.stats.traces,
        optimal.stats.blocked,
        report.stats.blocked
    );
    let source = benchmark(&format!("classic/{name}.ic"));
    let ics = constraints(&source, &load(&source, &[("N", n)]));
    let mut reduced: [(&str, Box<dyn Algorithm>); 2] = [
        ("csdpor", Box::new(Dpor::new(ContextSensitive::new()))),
        (
            "cdpor",
            Box::new(Dpor::new(Constrained::new(ics, ContextSensitive::new()))),
        ),
    ];
    for (algo, algorithm) in &mut reduced {
        let report = explore(name, n, algorithm.as_mut(), Some(published + 1));
        assert!(
            report.complete() && report.stats.traces <= published,
            "{name}({n}): {algo} explores {} executions, sdpor {published}",
            report.stats.traces
        );
    }
}

/// Lastzero: (N + 3) 2^(N - 2).
fn lastzero_traces(n: u32) -> u64 {
    u64::from(n + 3) << (n - 2)
}

#[test]
fn lastzero() {
    assert_eq!(
        [3, 5, 8, 10].map(lastzero_traces),
        [12, 64, 704, 3328],
        "the published values"
    );
    naive("lastzero", 3, 12);
    sdpor("lastzero", 3, 12);
    sdpor("lastzero", 5, 64);
    sdpor("lastzero", 8, 704);
}

/// Indexer: threads tid and tid + 11 share 3 messages, so 2^(3 (N - 11)) from N = 12
/// on and 1 below.
#[test]
fn indexer() {
    naive("indexer", 2, 1);
    sdpor("indexer", 2, 1);
    sdpor("indexer", 12, 8);
    sdpor("indexer", 13, 64);
}

/// Filesystem: threads i and i + 13 share a first block, so 2^(N - 13) from N = 13 on
/// and 1 below.
#[test]
fn filesystem() {
    naive("filesystem", 2, 1);
    sdpor("filesystem", 2, 1);
    sdpor("filesystem", 14, 2);
    sdpor("filesystem", 16, 8);
}

/// Readers: 2^N.
#[test]
fn readers() {
    naive("readers", 3, 8);
    sdpor("readers", 3, 8);
    sdpor("readers", 8, 256);
}

/// Lastwrite: N!.
#[test]
fn lastwrite() {
    naive("lastwrite", 3, 6);
    sdpor("lastwrite", 3, 6);
    sdpor("lastwrite", 5, 120);
}

/// Dining philosophers: 2^N - 2, derived in the program's header (no published count).
#[test]
fn dining() {
    naive("dining", 4, 14);
    sdpor("dining", 4, 14);
    sdpor("dining", 8, 254);
}

/// GenMC's casrot (`classic/casrot.ic`): N threads each `CAS(x, i - 1, i)`. With
/// `--deps accesses` a failed CAS only reads, and the traces are GenMC's executions
/// under sequential consistency (its `expected.sc.mo.in`: 2, 5, 14, 43, 144, 523,
/// 2,048, 8,597 for N = 2..9): naive counts them, sdpor and odpor explore one
/// execution each. With transition footprints (`--deps dynamic`) a failed CAS may
/// write, every two threads race, and there are N! traces.
#[test]
fn casrot_has_genmc_s_executions_when_a_failed_cas_only_reads() {
    let genmc: [u64; 8] = [2, 5, 14, 43, 144, 523, 2048, 8597];
    let run = |n: i64, deps: explorer::Deps, algorithm: &mut dyn Algorithm| {
        let program = load(&benchmark("classic/casrot.ic"), &[("N", n)]);
        let config = Config {
            deps,
            ..Config::default()
        };
        let report = explorer::explore(&program, algorithm, config);
        assert!(report.complete() && report.violations.is_empty());
        report
    };
    let accesses = explorer::Deps::Accesses;
    for (n, &expected) in (2..=9).zip(&genmc) {
        let sdpor = run(n, accesses, &mut Dpor::new(SourceDpor));
        assert_eq!(sdpor.stats.traces, expected, "sdpor({n})");
        if n <= 6 {
            let naive = run(n, accesses, &mut Naive::default());
            assert_eq!(naive.stats.mazurkiewicz, Some(expected), "naive({n})");
        }
    }
    for (n, &expected) in (2..=9).zip(&genmc) {
        let odpor = run(n, accesses, &mut Dpor::new(OptimalDpor));
        assert_eq!(odpor.stats.traces, expected, "odpor({n})");
        assert_eq!(odpor.stats.blocked, 0, "odpor({n}) ends none blocked");
    }
    let factorial = [2, 6, 24, 120, 720];
    for (n, &expected) in (2..=6).zip(&factorial) {
        let odpor = run(n, explorer::Deps::Dynamic, &mut Dpor::new(OptimalDpor));
        assert_eq!(
            odpor.stats.traces, expected,
            "odpor({n}) with transition footprints"
        );
    }
}
