//! Exploration throughput (events per second), so a change that slows the hot path
//! shows up. Run with `cargo bench -p benches`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use explorer::naive::Naive;
use explorer::Config;

fn naive(c: &mut Criterion) {
    // 3 workers of 4 blocks: 12! / (4!)^3 = 34,650 interleavings, 106,000 events.
    let program = benches::program("interleave.ic", &[("K", 3)]);
    let events = explorer::explore(&program, &mut Naive::default(), Config::default())
        .stats
        .states
        - 1;
    let mut group = c.benchmark_group("naive");
    group.throughput(Throughput::Elements(events));
    group.sample_size(10);
    group.bench_function("interleave K=3", |b| {
        b.iter(|| explorer::explore(&program, &mut Naive::default(), Config::default()))
    });
    group.finish();
}

criterion_group!(benches, naive);
criterion_main!(benches);
