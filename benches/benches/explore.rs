//! Exploration throughput (events per second) of every algorithm, so that a change
//! that slows the hot path shows up. Run with `cargo bench -p benches`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use explorer::cdpor::Constrained;
use explorer::csdpor::ContextSensitive;
use explorer::dpor::Dpor;
use explorer::naive::Naive;
use explorer::sdpor::SourceDpor;
use explorer::{Algorithm, Config, Deps};
use std::sync::Arc;

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
    g.sample_size(10);
    let name = format!("{file} {defines:?}");
    g.bench_function(name, |b| {
        b.iter(|| explorer::explore(&program, &mut *make(), Config::default()))
    });
    g.finish();
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
    bench(c, "sdpor", "pc.ic", &[("N", 9)], &|| {
        Box::new(Dpor::new(SourceDpor))
    });
    bench(c, "csdpor", "pc.ic", &[("N", 9)], &|| {
        Box::new(Dpor::new(ContextSensitive::new()))
    });
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/programs/pc.ic"))
        .expect("the benchmark program is in the repository");
    let program = benches::program("pc.ic", &[("N", 9)]);
    let synthesis = ic_synth::synthesize(&program, &source, &ic_synth::Options::default());
    let ics = ic_synth::to_ics(&program, &source, "pc.ic", &synthesis);
    let ics = Arc::new(ics.resolve(&program).expect("synthesised constraints fit"));
    bench(c, "cdpor", "pc.ic", &[("N", 9)], &|| {
        Box::new(Dpor::new(Constrained::new(
            ics.clone(),
            ContextSensitive::new(),
            Deps::Dynamic,
        )))
    });
}

criterion_group!(benches, algorithms);
criterion_main!(benches);
