//! SPIN, the peer of the stateful searches, on the Promela translations of the cyclic
//! set (`benches/promela/`): `benches/promela/run_spin.sh` runs it the standard way
//! (`spin -a`, `gcc -O2 -DSAFETY`, `./pan`, partial order reduction on) and prints one
//! line, which this reads back. The time is end to end, compilation included, as a
//! user of SPIN waits for it.

use std::path::Path;
use std::process::Command;

/// What one SPIN run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct SpinRun {
    /// `pan`'s "states, stored".
    pub stored: u64,
    /// Seconds from `spin -a` to the end of `pan`.
    pub seconds: f64,
    /// Whether `pan` reported an assertion violation.
    pub violation: bool,
}

/// Whether `spin` and `gcc` can be run here.
pub fn available() -> bool {
    let runs = |tool: &str, arg: &str| {
        Command::new(tool)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success() || !o.stdout.is_empty())
    };
    runs("spin", "-V") && runs("gcc", "--version")
}

/// Runs SPIN on `model` (under `benches/promela/`) with `N = n` when `n` is given.
pub fn run(promela: &Path, model: &str, n: Option<i64>) -> Result<SpinRun, String> {
    let script = promela.join("run_spin.sh");
    let mut command = Command::new("bash");
    command.arg(&script).arg(promela.join(model));
    if let Some(n) = n {
        command.arg(n.to_string());
    }
    let out = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{model}: SPIN failed: {}", err.trim()));
    }
    parse(&text).ok_or_else(|| format!("{model}: no result line from run_spin.sh: {text}"))
}

/// Reads `model N=n stored=S transitions=T seconds=X errors=E [(assertion violated)]`.
fn parse(line: &str) -> Option<SpinRun> {
    let field = |name: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
    };
    Some(SpinRun {
        stored: field("stored")?.parse().ok()?,
        seconds: field("seconds")?.parse().ok()?,
        violation: line.contains("(assertion violated)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_line_is_read_back() {
        let line = "ticket N=3 stored=1234 transitions=5678 seconds=0.81 errors=0\n";
        let run = SpinRun {
            stored: 1234,
            seconds: 0.81,
            violation: false,
        };
        assert_eq!(parse(line), Some(run));
        let line = "peterson_swapped N=2 stored=40 transitions=50 seconds=0.70 errors=1 \
                    (assertion violated)";
        assert!(parse(line).is_some_and(|r| r.violation));
        assert_eq!(parse("spin: error"), None);
    }
}
