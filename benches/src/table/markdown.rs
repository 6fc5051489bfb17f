//! How numbers and tables print: markdown tables padded so that they also read well
//! in a terminal, and counts, times and speed-ups in the papers' style.
//!
//! Counts: exact below 10,000 (small counts are the interesting ones, e.g. 2^N
//! executions), then whole thousands (`26k`, as the papers write), then millions with
//! one decimal (`3.1M`). A lower bound `>X` (a run stopped by the timeout) is rounded
//! *down*, so that it stays true; exact counts are rounded to the nearest.

use super::speedup::{Bound, Value};

/// A count as the tables print it; `lower_bound` for a run that was stopped.
pub fn count(n: u64, lower_bound: bool) -> String {
    let round = |unit: u64| {
        if lower_bound {
            n / unit
        } else {
            (n + unit / 2) / unit
        }
    };
    let body = if n < 10_000 {
        n.to_string()
    } else if round(1_000) < 1_000 {
        format!("{}k", round(1_000))
    } else {
        let tenths = round(100_000);
        format!("{}.{}M", tenths / 10, tenths % 10)
    };
    if lower_bound {
        format!(">{body}")
    } else {
        body
    }
}

/// `value` with `decimals` decimals, rounded in the direction of its bound so that
/// `>x` and `<x` stay true.
fn decimals(value: f64, decimals: i32, bound: Bound) -> String {
    let scale = 10f64.powi(decimals);
    // A little slack, so that 0.3 * 10 = 2.9999… still floors to 3.
    let rounded = match bound {
        Bound::AtLeast => (value * scale + 1e-9).floor() / scale,
        Bound::AtMost => (value * scale - 1e-9).ceil() / scale,
        Bound::Exact | Bound::Unknown => value,
    };
    format!("{rounded:.prec$}", prec = decimals.max(0) as usize)
}

fn prefix(bound: Bound) -> &'static str {
    match bound {
        Bound::AtLeast => ">",
        Bound::AtMost => "<",
        Bound::Exact | Bound::Unknown => "",
    }
}

/// Seconds: one decimal from 10 s on and two below, like the papers, and three below
/// one second, where our runs are much faster than theirs and two would often be 0.00.
pub fn seconds(t: Value) -> String {
    if t.bound == Bound::Unknown {
        return "?".to_string();
    }
    let places = if t.value < 1.0 {
        3
    } else if t.value < 10.0 {
        2
    } else {
        1
    };
    format!("{}{}", prefix(t.bound), decimals(t.value, places, t.bound))
}

/// A speed-up: whole numbers from 100 on, one decimal below, like the papers; `?` when
/// nothing is known (both runs timed out).
pub fn speedup(g: Value) -> String {
    if g.bound == Bound::Unknown {
        return "?".to_string();
    }
    let places = if g.value < 100.0 { 1 } else { 0 };
    format!("{}{}", prefix(g.bound), decimals(g.value, places, g.bound))
}

/// Megabytes: whole from 10 on, one decimal below; `?` where memory cannot be read.
pub fn megabytes(mb: Option<f64>) -> String {
    match mb {
        Some(mb) if mb < 10.0 => format!("{mb:.1}"),
        Some(mb) => format!("{mb:.0}"),
        None => "?".to_string(),
    }
}

/// A markdown table: the first column (the row's name) left-aligned, the numbers
/// right-aligned, every column padded to its widest cell.
#[derive(Debug)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    pub fn render(&self) -> String {
        let columns = self.header.len();
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
                .max(3)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = (0..columns)
                .map(|i| {
                    let cell = cells.get(i).map_or("", String::as_str);
                    let pad = " ".repeat(widths[i] - cell.chars().count());
                    if i == 0 {
                        format!("{cell}{pad}")
                    } else {
                        format!("{pad}{cell}")
                    }
                })
                .collect();
            format!("| {} |\n", padded.join(" | "))
        };
        let rule: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                if i == 0 {
                    "-".repeat(w)
                } else {
                    format!("{}:", "-".repeat(w - 1))
                }
            })
            .collect();
        let mut out = line(&self.header);
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_the_papers() {
        assert_eq!(count(0, false), "0");
        assert_eq!(count(3432, false), "3432");
        assert_eq!(count(25_600, false), "26k");
        assert_eq!(count(184_755, false), "185k");
        assert_eq!(count(999_600, false), "1.0M");
        assert_eq!(count(3_130_778, false), "3.1M");
        // Lower bounds round down, so that they stay true.
        assert_eq!(count(642_831, true), ">642k");
        assert_eq!(count(3_199_999, true), ">3.1M");
        assert_eq!(count(13_999, true), ">13k");
        assert_eq!(count(1, true), ">1");
    }

    #[test]
    fn times() {
        assert_eq!(seconds(Value::exact(0.0304)), "0.030");
        assert_eq!(seconds(Value::exact(1.234)), "1.23");
        assert_eq!(seconds(Value::exact(7.7)), "7.70");
        assert_eq!(seconds(Value::exact(11.53)), "11.5");
        assert_eq!(seconds(Value::at_least(10.000_3)), ">10.0");
        assert_eq!(seconds(Value::unknown(1.0)), "?");
    }

    #[test]
    fn speedups() {
        let s = |a: Value, b: Value| speedup(a.over(b));
        assert_eq!(s(Value::exact(7.7), Value::exact(0.03)), "257");
        assert_eq!(s(Value::exact(0.3), Value::exact(0.05)), "6.0");
        assert_eq!(s(Value::at_least(10.0), Value::exact(0.0123)), ">813");
        assert_eq!(s(Value::at_least(10.0), Value::exact(6.0)), ">1.6");
        assert_eq!(s(Value::exact(1.0), Value::at_least(10.0)), "<0.1");
        assert_eq!(s(Value::exact(1.0), Value::at_least(30.0)), "<0.1");
        assert_eq!(s(Value::at_least(10.0), Value::at_least(10.0)), "?");
        // G^smt = T(csdpor) / (T(cdpor) + T^smt), as Fib(9) of CDPOR Table 1.
        let g_smt = Value::exact(2.8).over(Value::exact(0.25).plus(Value::exact(0.12)));
        assert_eq!(speedup(g_smt), "7.6");
    }

    #[test]
    fn tables_pad_and_align() {
        let mut t = Table::new(&["Bench", "Tr", "T"]);
        t.push(vec!["Fib(6)".into(), ">642k".into(), "–".into()]);
        assert_eq!(
            t.render(),
            "| Bench  |    Tr |   T |\n\
             | ------ | ----: | --: |\n\
             | Fib(6) | >642k |   – |\n"
        );
    }
}
