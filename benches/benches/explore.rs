//! Exploration throughput (events per second) of every algorithm, so that a change
//! that slows the hot path shows up. Run with `cargo bench -p benches`.

use benches::table::measure::synthesise;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use explorer::algorithms::cdpor::Constrained;
use explorer::algorithms::csdpor::ContextSensitive;
use explorer::algorithms::naive::Naive;
use explorer::algorithms::sdpor::SourceDpor;
use explorer::dpor::Dpor;
use explorer::{Algorithm, Config};
use std::time::Duration;

/// Benchmarks `make()` on a program, counting its events as the throughput unit.
fn bench(
    c: &mut Criterion,
    group: &str,
    file: &str,
    defines: &[(&str, i64)],
    make: &dyn Fn() -> Box<dyn Algorithm>,
) {
    let program = benches::program(file, defines);
    let events = explorer::explore(&program, &mut *make(), Config::default())
        .stats
        .states
        - 1;
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(events));
    // Few, short samples: `cargo bench -p benches` should take minutes, not tens.
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    let name = format!("{file} {defines:?}");
    g.bench_function(name, |b| {
        b.iter(|| explorer::explore(&program, &mut *make(), Config::default()))
    });
    g.finish();
}

/// Benchmarks sdpor, csdpor and cdpor (with constraints synthesised beforehand, not
/// timed) on one program.
fn dpor_algorithms(c: &mut Criterion, file: &str, defines: &[(&str, i64)]) {
    bench(c, "sdpor", file, defines, &|| {
        Box::new(Dpor::new(SourceDpor))
    });
    bench(c, "csdpor", file, defines, &|| {
        Box::new(Dpor::new(ContextSensitive::new()))
    });
    let source = std::fs::read_to_string(format!("{}/{file}", benches::PROGRAMS))
        .expect("the benchmark program is in the repository");
    let program = benches::program(file, defines);
    let ics = synthesise(&program, &source, file)
        .expect("synthesised constraints fit")
        .ics;
    bench(c, "cdpor", file, defines, &|| {
        Box::new(Dpor::new(Constrained::new(
            ics.clone(),
            ContextSensitive::new(),
        )))
    });
}

fn algorithms(c: &mut Criterion) {
    // 3 workers of 4 blocks: 12! / (4!)^3 = 34,650 interleavings, 106,000 events.
    bench(c, "naive", "interleave.ic", &[("K", 3)], &|| {
        Box::new(Naive::default())
    });
    // 369,600 Mazurkiewicz traces.
    bench(c, "sdpor", "interleave.ic", &[("W", 4), ("K", 3)], &|| {
        Box::new(Dpor::new(SourceDpor))
    });
    // Producer-consumer, N = 9: sdpor 48,620 executions; csdpor and cdpor 2^9.
    dpor_algorithms(c, "pc.ic", &[("N", 9)]);
    // Concurrent Fibonacci, N = 4: sdpor and csdpor 2,880 traces, cdpor about 100.
    dpor_algorithms(c, "fib_shared.ic", &[("N", 4)]);
    // Quicksort of 7 elements: sdpor 5,040 traces, csdpor and cdpor 1.
    dpor_algorithms(c, "qs_shared.ic", &[("N", 7)]);
}

criterion_group!(benches, algorithms);
criterion_main!(benches);
