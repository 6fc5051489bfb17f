//! Synthesis time of every benchmark program at its default size, so that a change
//! that slows the SMT encoding or AllSAT shows up. Run with `cargo bench -p benches`.

use criterion::{criterion_group, criterion_main, Criterion};

fn synthesis(c: &mut Criterion) {
    let mut files: Vec<String> = std::fs::read_dir(benches::PROGRAMS)
        .expect("the benchmark programs are in the repository")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".ic"))
        .collect();
    files.sort();
    let mut g = c.benchmark_group("synthesis");
    g.sample_size(10);
    for file in files {
        let source = std::fs::read_to_string(format!("{}/{file}", benches::PROGRAMS))
            .expect("the benchmark program is readable");
        let program = benches::program(&file, &[]);
        g.bench_function(&file, |b| {
            b.iter(|| ic_synth::synthesize(&program, &source, &ic_synth::Options::default()))
        });
    }
    g.finish();
}

criterion_group!(benches, synthesis);
criterion_main!(benches);
