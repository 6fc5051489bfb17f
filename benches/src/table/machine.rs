//! What the numbers were measured on and how, printed above the tables: times mean
//! little without the machine, the command and the date.

/// The header facts of a run of the harness.
#[derive(Debug)]
pub struct Machine {
    /// Threads the machine offers this process (`std::thread::available_parallelism`).
    pub cores: usize,
    /// The `model name` of `/proc/cpuinfo`, or `unknown`.
    pub cpu: String,
    /// The command line, quoted so that it can be pasted back into a shell.
    pub command: String,
    /// Now, in UTC.
    pub date: String,
}

impl Machine {
    pub fn describe() -> Machine {
        let args: Vec<String> = std::env::args().collect();
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu: cpu_model().unwrap_or_else(|| "unknown".to_string()),
            command: args
                .iter()
                .map(|a| shell_quote(a))
                .collect::<Vec<_>>()
                .join(" "),
            date: utc(seconds),
        }
    }
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("model name"))?;
    Some(line.split_once(':')?.1.trim().to_string())
}

/// `arg` as a shell reads it back: bare when it is made of safe characters only.
fn shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// `YYYY-MM-DD HH:MM UTC` of a Unix time: the standard library has no calendar, and
/// one date is not worth a dependency.
fn utc(unix_seconds: u64) -> String {
    let days = unix_seconds / 86_400;
    let minute = unix_seconds % 86_400 / 60;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        minute / 60,
        minute % 60
    )
}

/// The Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`,
/// for days on or after the epoch).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_704_067_200 + 3_600 + 120), "2024-01-01 01:02 UTC");
        assert_eq!(utc(1_709_164_800), "2024-02-29 00:00 UTC");
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("--sizes=6,7"), "--sizes=6,7");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
