//! Pairs of blocks are independent problems: a pool of worker threads, each with a
//! symbolic executor of its own (an [`Exec`] caches per thread), takes them in turn.

use frontend::ir::Program;
use frontend::symbolic::Exec;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` on every item, on `jobs` threads (0: one per core), results in item order;
/// `None` for an item whose worker panicked.
pub fn each<T: Sync, R: Send>(
    program: &Program,
    source: &str,
    items: &[T],
    jobs: usize,
    f: impl Fn(&Exec<'_>, &T) -> R + Sync,
) -> Vec<Option<R>> {
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    }
    .clamp(1, items.len().max(1));
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let work = || {
        let exec = Exec::new(program, Some(source));
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            let r = f(&exec, item);
            if let Ok(mut all) = results.lock() {
                all[i] = Some(r);
            }
        }
    };
    if jobs == 1 {
        work();
    } else {
        // Encoding recurses on the nesting of expressions (up to the parser's
        // `MAX_NESTING`): the workers get the large stack the checker runs on.
        std::thread::scope(|s| {
            for _ in 0..jobs {
                let spawned = std::thread::Builder::new()
                    .stack_size(frontend::LARGE_STACK)
                    .spawn_scoped(s, work);
                if spawned.is_err() {
                    s.spawn(work);
                }
            }
        });
    }
    results
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
