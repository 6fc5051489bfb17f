//! Memory of one run. Linux keeps the process's peak resident set size (`VmHWM` in
//! `/proc/self/status`) and resets it to the current size when `5` is written to
//! `/proc/self/clear_refs`. The peak alone would also count what the process held
//! before the run — the binary, z3's memory after a synthesis, pages the allocator
//! kept — which varies between runs by tens of MB and drowns small runs; so a run's
//! memory is how far its peak rose above the size at the reset. Elsewhere than on
//! Linux there is nothing to read.

/// Runs `f`, returning its result and how many megabytes the resident memory rose
/// above its size at the start, at its peak.
pub fn growth_during<T>(f: impl FnOnce() -> T) -> (T, Option<f64>) {
    let start = std::fs::write("/proc/self/clear_refs", "5")
        .ok()
        .and_then(|()| high_water_kb());
    let value = f();
    let growth = start
        .zip(high_water_kb())
        .map(|(start, peak)| peak.saturating_sub(start) as f64 / 1024.0);
    (value, growth)
}

/// The process's peak resident memory since the last reset, in kB.
fn high_water_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    high_water_line(&status)
}

/// The `VmHWM` line of a `/proc/<pid>/status` text, in kB.
fn high_water_line(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_high_water_mark() {
        let status = "Name:\ttable\nVmPeak:\t  200000 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(high_water_line(status), Some(12345));
        assert_eq!(high_water_line("Name:\ttable\n"), None);
    }

    #[test]
    fn sees_what_a_run_allocates() {
        let (sum, growth) = growth_during(|| {
            let block = vec![1u8; 64 << 20];
            block.iter().map(|&b| u64::from(b)).sum::<u64>()
        });
        assert_eq!(sum, 64 << 20);
        // Only where Linux lets us reset the peak.
        if let Some(mb) = growth {
            assert!((60.0..200.0).contains(&mb), "{mb} MB");
        }
    }
}
