//! The document the harness prints: our measurements in the shape of CDPOR Table 1,
//! with notes that explain every mark in them, and the papers' own numbers beside.

use super::families::{Family, Set};
use super::markdown::{self, Table};
use super::measure::{deps_name, Algo, Run};
use super::speedup::{Bound, Value};
use explorer::fingerprint::Fingerprint;
use explorer::Deps;

/// One cell group of a row: what became of one algorithm at one size.
#[derive(Debug)]
pub enum Cell {
    Ran(Run),
    /// Not run: the same algorithm timed out at a smaller size of the family.
    Skipped,
    /// Could not run (e.g. the synthesis failed); the message says why.
    Failed(String),
}

/// One row: a family at one size, in one deps mode.
#[derive(Debug)]
pub struct Row {
    pub family: &'static Family,
    pub n: i64,
    pub deps: Deps,
    /// The algorithms measured (`Algo::of_set`), in the table's order.
    pub algos: &'static [Algo],
    /// One per algorithm of `algos`.
    pub cells: Vec<Cell>,
    /// Seconds of the synthesis at this size; `None` when it was not run or failed.
    pub smt: Option<f64>,
}

impl Row {
    fn label(&self) -> String {
        format!("{}({})", self.family.label, self.n)
    }

    /// The published Mazurkiewicz traces at this size, if any.
    fn mazurkiewicz(&self) -> Option<&'static str> {
        self.family
            .paper
            .rows
            .iter()
            .find(|r| r.n == self.n)
            .map(|r| r.mazurkiewicz)
            .filter(|m| !m.is_empty())
    }

    /// The ISSTA paper's executions and states at this size for the algorithm printed
    /// beside ours ([`paper_column`]); empty where it gives none.
    fn paper_executions(&self, algo: Algo) -> [&'static str; 2] {
        let Some((_, run)) = paper_column(algo) else {
            return ["", ""];
        };
        self.family
            .paper
            .rows
            .iter()
            .find(|r| r.n == self.n)
            .map_or(["", ""], |r| [r.runs[run][0], r.runs[run][1]])
    }

    /// The command that reruns one cell, for the notes.
    fn command(&self, algo: Algo) -> String {
        let mut defines: Vec<String> = self
            .family
            .defines
            .iter()
            .map(|(name, v)| format!("-D {name}={v}"))
            .collect();
        defines.push(format!("-D {}={}", self.family.param, self.n));
        if let Some(flag) = algo.flag() {
            defines.insert(0, flag.to_string());
        }
        format!(
            "ic-check --algo {} --deps {} {} benches/programs/{}",
            algo.name(),
            deps_name(self.deps),
            defines.join(" "),
            self.family.file
        )
    }

    /// The time of a cell as a bound: a timeout is a lower bound, and a run stopped by
    /// a violation measured nothing.
    fn time(&self, algo: usize) -> Option<Value> {
        match &self.cells[algo] {
            Cell::Ran(run) if run.complete() => Some(Value::exact(run.seconds)),
            Cell::Ran(run) if run.timed_out() => Some(Value::at_least(run.seconds)),
            Cell::Ran(run) => Some(Value::unknown(run.seconds)),
            Cell::Skipped | Cell::Failed(_) => None,
        }
    }

    /// The cell of `algo`'s column, if the row measures it.
    fn index(&self, algo: Algo) -> Option<usize> {
        self.algos.iter().position(|a| *a == algo)
    }

    /// The time of `algo`'s cell, as `time`.
    fn time_of(&self, algo: Algo) -> Option<Value> {
        self.index(algo).and_then(|i| self.time(i))
    }

    /// G^s, G^cs and G^smt; `None` where a run is missing.
    fn speedups(&self) -> [Option<Value>; 3] {
        let cdpor = self.time_of(Algo::CDPOR);
        let with_smt = cdpor.zip(self.smt).map(|(t, s)| t.plus(Value::exact(s)));
        let sdpor = self.time_of(Algo::SDPOR);
        let csdpor = self.time_of(Algo::CSDPOR);
        [
            sdpor.zip(cdpor).map(|(a, b)| a.over(b)),
            csdpor.zip(cdpor).map(|(a, b)| a.over(b)),
            csdpor.zip(with_smt).map(|(a, b)| a.over(b)),
        ]
    }

    /// The CDPOR paper's layout (memory and speed-up columns), or the `odpor` set's
    /// (Tr, S, T of each algorithm, then T^smt).
    fn papers_layout(&self) -> bool {
        self.algos == Algo::ALL
    }

    /// The final states of the complete runs that must reach them all (not those with
    /// `--violations-only`).
    fn finals(&self) -> impl Iterator<Item = &Vec<Fingerprint>> {
        let cells = self.cells.iter().zip(self.algos);
        cells.filter_map(|(c, algo)| match c {
            Cell::Ran(run) if run.complete() && !algo.violations_only() => Some(&run.finals),
            _ => None,
        })
    }

    /// The complete runs disagree on the final states: a bug of some algorithm.
    fn finals_differ(&self) -> bool {
        let mut finals = self.finals();
        finals
            .next()
            .is_some_and(|first| finals.any(|other| other != first))
    }
}

/// The columns of our tables: CDPOR Table 1's, with a peak-memory column per algorithm.
const HEADER: [&str; 17] = [
    "Bench",
    "SDPOR Tr",
    "S",
    "T",
    "Mem",
    "CSDPOR Tr",
    "S",
    "T",
    "Mem",
    "CDPOR Tr",
    "S",
    "T",
    "Mem",
    "T^smt",
    "G^s",
    "G^cs",
    "G^smt",
];

/// The column of the published Mazurkiewicz traces, right after the benchmark's name.
const MAZURKIEWICZ: &str = "Maz.";

/// `HEADER` with the published Mazurkiewicz traces' column when `published`.
fn header(published: bool) -> Vec<&'static str> {
    let mut header = HEADER.to_vec();
    if published {
        header.insert(1, MAZURKIEWICZ);
    }
    header
}

/// The `odpor` set's columns: the final states, Tr, S and T of each algorithm of
/// `algos`, then T^smt.
fn optimal_header(algos: &[Algo], published: bool) -> Vec<String> {
    let mut header = vec!["Bench".to_string()];
    if published {
        header.push(MAZURKIEWICZ.to_string());
    }
    header.push(FINAL_STATES.to_string());
    for algo in algos {
        header.extend([format!("{} Tr", algo.title()), "S".into(), "T".into()]);
        if let Some((title, _)) = paper_column(*algo) {
            header.extend([PAPERS_STATES.to_string(), title.to_string(), "S".into()]);
        }
    }
    header.push("T^smt".to_string());
    header
}

/// The `odpor` set's column of the distinct final states (of any complete run: they
/// agree, or the row is flagged), right after the benchmark's name.
const FINAL_STATES: &str = "F";

/// The column of our states counted as the ISSTA paper counts them, before its
/// executions and states.
const PAPERS_STATES: &str = "S^p";

/// Our states `states` of a run of `traces` complete executions, counted as the ISSTA
/// paper counts them: `S - Tr + 1`, the final state of every complete execution but
/// one left out. Not a bound for a run that stopped early, so none is given then.
fn papers_states(run: &Run) -> String {
    if run.complete() {
        (run.states + 1).saturating_sub(run.traces).to_string()
    } else {
        String::new()
    }
}

/// The column of the ISSTA paper's ODPOR^ob executions (then its states), after our
/// `odpor-ob --violations-only`, which shares its equivalence.
const PAPER_ODPOR_OB: &str = "paper ODPOR^ob E";

/// The column of the ISSTA paper's ODPOR_cs^ob executions (then its states), after our
/// `odpor-cs-ob --violations-only`.
const PAPER_ODPOR_CS_OB: &str = "paper ODPOR_cs^ob E";

/// The paper's columns (executions, states) printed after `algo`'s, and which run of
/// the ISSTA paper's rows they show (DPOR_cs, ODPOR^ob, ODPOR_cs^ob).
fn paper_column(algo: Algo) -> Option<(&'static str, usize)> {
    if algo == Algo::ODPOR_OB_VO {
        Some((PAPER_ODPOR_OB, 1))
    } else if algo == Algo::ODPOR_CS_OB_VO {
        Some((PAPER_ODPOR_CS_OB, 2))
    } else {
        None
    }
}

/// The ISSTA 2019 paper's columns, for the `odpor` set's papers' numbers.
const ISSTA_HEADER: [&str; 15] = [
    "Bench",
    MAZURKIEWICZ,
    "DPOR_cs E",
    "S",
    "T",
    "ODPOR^ob E",
    "S",
    "T",
    "ODPOR_cs^ob E",
    "S",
    "T",
    "T^smt",
    "G^s",
    "G^cs",
    "G^smt",
];

/// Our table for one deps mode, then its notes. `problems` are things that kept rows
/// out of the table (a program that is missing or does not load), already phrased.
/// Also says whether anything was flagged as a bug. Rows of families with published
/// Mazurkiewicz counts show them beside ours.
/// All `rows` measure the same algorithms; the `odpor` set's (six algorithms) print
/// without the memory and speed-up columns.
pub fn measured(rows: &[Row], problems: &[String]) -> (String, bool) {
    let published = rows.iter().any(|r| r.mazurkiewicz().is_some());
    let papers_layout = rows.first().is_none_or(|r| r.papers_layout());
    let optimal: Vec<String>;
    let mut table = if papers_layout {
        Table::new(&header(published))
    } else {
        optimal = optimal_header(rows[0].algos, published);
        Table::new(&optimal.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let mut notes = Notes::default();
    if rows
        .iter()
        .any(|r| r.algos.iter().any(|a| a.violations_only()))
    {
        notes.lines.push(
            "vo: with `--violations-only`, the paper's setting: the end of a complete \
             execution observes nothing, so its executions need not reach every final \
             state (violations and deadlocks are all found). Without it our executions \
             end with an observer of the whole memory (the end reads every location): \
             two executions that differ only in a final value count as two (FR(3): 18 \
             classes of ODPOR-OB, not 13)."
                .to_string(),
        );
    }
    if rows
        .iter()
        .any(|r| r.algos.iter().any(|&a| paper_column(a).is_some()))
    {
        notes.lines.push(format!(
            "{PAPERS_STATES}: our S as the ISSTA paper counts states, S - Tr + 1 (the \
             final state of every complete execution but one left out; empty for a run \
             stopped early). So counted, ODPOR-OB vo's states are the paper's ODPOR^ob \
             states on every FR and FR-a row it completed (29, 247, 2k, 12k; 86, 680, \
             5k, with its thousands rounded up), as CSDPOR's are its DPOR_cs FR-a(4, \
             6) (107, 4k), and every algorithm's are the paper's on LW."
        ));
    }
    if rows.iter().any(|r| r.algos.contains(&Algo::ODPOR_OB_VO)) {
        notes.lines.push(format!(
            "{PAPER_ODPOR_OB}, S: the ISSTA paper's ODPOR^ob executions and states at \
             that size, beside ours with the same equivalence (vo). Its redundancy \
             check is ours (but for the weak initials with no step in the sequence, \
             which ours leaves out), while a leaf of its wakeup trees covers a \
             sequence inserted below it, which loses an assertion \
             (docs/algorithms/odpor-ob.md)."
        ));
    }
    if rows.iter().any(|r| r.algos.contains(&Algo::ODPOR_CS_OB_VO)) {
        notes.lines.push(format!(
            "{PAPER_ODPOR_CS_OB}, S: the ISSTA paper's ODPOR_cs^ob executions and states \
             at that size (its executions stopped by a don't-do sequence included, we \
             assume; our Tr counts complete ones only). \
             Ours has the paper's check modulo \
             observability (Sec. 4.1) in a stricter, sound form (every step of the \
             reversal the transition it was; the raced value dead after the observers), \
             and the first case of its refined don't-do inheritance (Sec. 4.2), not the \
             second (writes overwritten before a read)."
        ));
    }
    if !papers_layout {
        notes.lines.push(format!(
            "{FINAL_STATES}: the distinct final states, where some algorithm completed \
             (`–` where none did; the vo columns are not compared). Every execution \
             ends with an observer of the whole memory outside the vo columns, so no \
             sound algorithm explores fewer complete executions there."
        ));
    }
    if published {
        notes.lines.push(format!(
            "{MAZURKIEWICZ}: the program's published Mazurkiewicz traces at that size: what \
             an optimal DPOR explores, and SDPOR's Tr once footprints are location-precise \
             (sources under the papers' numbers)."
        ));
    }
    for row in rows {
        if row.cells.iter().all(|c| matches!(c, Cell::Skipped)) {
            notes.not_run.push(row.label());
            continue;
        }
        let differ = row.finals_differ();
        let mut cells = vec![row.label()];
        if published {
            cells.push(row.mazurkiewicz().unwrap_or_default().to_string());
        }
        if !papers_layout {
            let finals = row.finals().next().map(|f| f.len());
            cells.push(finals.map_or_else(|| "–".to_string(), |n| n.to_string()));
        }
        for (i, algo) in row.algos.iter().copied().enumerate() {
            let group = algorithm_cells(row, i, algo, differ, &mut notes);
            let keep = if papers_layout { 4 } else { 3 };
            cells.extend(group.into_iter().take(keep));
            if paper_column(algo).is_some() {
                cells.push(match &row.cells[i] {
                    Cell::Ran(run) => papers_states(run),
                    _ => String::new(),
                });
                cells.extend(row.paper_executions(algo).map(String::from));
            }
        }
        if differ {
            let counts: Vec<String> = row
                .cells
                .iter()
                .zip(row.algos.iter().copied())
                .filter_map(|(c, algo)| match c {
                    Cell::Ran(run) if run.complete() => {
                        Some(format!("{} {}", algo.title(), run.finals.len()))
                    }
                    _ => None,
                })
                .collect();
            notes.bug(format!(
                "`!` {}: the complete runs reached different sets of final states \
                 (distinct final states: {})",
                row.label(),
                counts.join(", ")
            ));
        }
        // The synthesis runs for the first algorithm that uses constraints.
        let with_ics = row.algos.iter().position(|a| a.uses_ics());
        cells.push(match (row.smt, with_ics.map(|i| &row.cells[i])) {
            (Some(smt), _) => markdown::seconds(Value::exact(smt)),
            (None, Some(Cell::Skipped) | None) => "–".to_string(),
            (None, _) => "err".to_string(),
        });
        if !papers_layout {
            table.push(cells);
            continue;
        }
        for g in row.speedups() {
            notes.unknown |= g.is_some_and(|g| g.bound == Bound::Unknown);
            cells.push(g.map_or_else(|| "–".to_string(), markdown::speedup));
        }
        table.push(cells);
    }
    for problem in problems {
        notes.bug(problem.clone());
    }
    (
        format!("{}{}", table.render(), notes.render()),
        notes.flagged,
    )
}

/// The notes under one of our tables, and whether any of them is a bug.
#[derive(Default)]
struct Notes {
    lines: Vec<String>,
    flagged: bool,
    /// Some cell is `–`.
    skipped: bool,
    /// Some speed-up is `?`.
    unknown: bool,
    /// Rows left out because every algorithm had timed out at a smaller size: a
    /// row of dashes would only say that at length.
    not_run: Vec<String>,
}

impl Notes {
    fn bug(&mut self, line: String) {
        self.flagged = true;
        self.lines.push(line);
    }

    /// The notes, each a list item, then the legend of the marks used.
    fn render(&self) -> String {
        let mut lines = self.lines.clone();
        if self.skipped {
            lines.push(
                "`–`: not run, because the same algorithm timed out at a smaller size of the \
                 family."
                    .to_string(),
            );
        }
        if self.unknown {
            lines.push("`?`: speed-up unknown (both runs were stopped).".to_string());
        }
        if !self.not_run.is_empty() {
            lines.push(format!(
                "Not run, every algorithm having timed out at a smaller size: {}.",
                self.not_run.join(", ")
            ));
        }
        let items: String = lines.iter().map(|l| format!("- {l}\n")).collect();
        if items.is_empty() {
            items
        } else {
            format!("\n{items}")
        }
    }
}

/// Tr, S, T and Mem of one algorithm in a row; `differ` when the row's complete runs
/// disagree on the final states.
fn algorithm_cells(
    row: &Row,
    i: usize,
    algo: Algo,
    differ: bool,
    notes: &mut Notes,
) -> [String; 4] {
    match &row.cells[i] {
        Cell::Ran(run) => {
            let stopped = !run.complete();
            let bug = run.violation.is_some() || (differ && run.complete());
            if let Some(violation) = &run.violation {
                notes.bug(format!(
                    "`!` {} {}: {violation}; rerun: `{}`",
                    row.label(),
                    algo.title(),
                    row.command(algo)
                ));
            }
            [
                format!(
                    "{}{}",
                    markdown::count(run.traces, stopped),
                    if bug { "!" } else { "" }
                ),
                markdown::count(run.states, stopped),
                markdown::seconds(row.time(i).unwrap_or(Value::unknown(0.0))),
                markdown::megabytes(run.mem_mb),
            ]
        }
        Cell::Skipped => {
            notes.skipped = true;
            ["–", "–", "–", "–"].map(String::from)
        }
        Cell::Failed(message) => {
            notes.bug(format!("`err` {} {}: {message}", row.label(), algo.title()));
            ["err", "", "", ""].map(String::from)
        }
    }
}

/// The papers' numbers for `families`, in the same columns (without memory, with the
/// published Mazurkiewicz traces), then where each family's numbers come from. A
/// column no paper fills is left out.
pub fn paper(families: &[&Family]) -> String {
    // Our own families (the harder shared-memory variants) have no paper rows.
    let families: Vec<&Family> = families
        .iter()
        .copied()
        .filter(|f| !f.paper.rows.is_empty())
        .collect();
    // The ISSTA paper's families have its three algorithms' columns instead.
    let header: Vec<&str> = if families.first().is_some_and(|f| f.set == Set::Odpor) {
        ISSTA_HEADER.to_vec()
    } else {
        header(true).into_iter().filter(|h| *h != "Mem").collect()
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for family in &families {
        for row in family.paper.rows {
            let mut cells = vec![
                format!("{}({})", family.label, row.n),
                row.mazurkiewicz.to_string(),
            ];
            cells.extend(row.runs.iter().flatten().map(|c| c.to_string()));
            cells.push(row.t_smt.to_string());
            cells.extend(row.speedups.iter().map(|c| c.to_string()));
            rows.push(cells);
        }
    }
    let filled: Vec<usize> = (0..header.len())
        .filter(|&i| i == 0 || rows.iter().any(|r| !r[i].is_empty()))
        .collect();
    let kept: Vec<&str> = filled.iter().map(|&i| header[i]).collect();
    let mut table = Table::new(&kept);
    for cells in rows {
        table.push(filled.iter().map(|&i| cells[i].clone()).collect());
    }
    let mut out = table.render();
    out.push('\n');
    // One line per source, naming its families in table order.
    let mut sources: Vec<(&str, Vec<&str>)> = Vec::new();
    for family in &families {
        match sources.iter_mut().find(|(s, _)| *s == family.paper.source) {
            Some((_, labels)) => labels.push(family.label),
            None => sources.push((family.paper.source, vec![family.label])),
        }
    }
    for (source, labels) in sources {
        out.push_str(&format!("- {}: {source}.\n", labels.join(", ")));
    }
    out.push_str(
        "- Empty: not in that paper. `?`: lost or garbled in our text copy of the paper. \
         T^smt: one synthesis per family, shown in its first row.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::families::FAMILIES;
    use explorer::Stop;

    fn run(traces: u64, states: u64, seconds: f64, stop: Stop, finals: &[u128]) -> Cell {
        Cell::Ran(Run {
            traces,
            states,
            seconds,
            stop,
            violation: None,
            finals: finals.to_vec(),
            mem_mb: Some(1.25),
            stored: None,
            failed: false,
        })
    }

    /// ODPOR-OB vo on FR(3) (13 executions in 41 states, measured) and FR-a(4) (33 in
    /// 118) as the paper counts them: its ODPOR^ob 29 and 86 states.
    #[test]
    fn states_as_the_paper_counts_them() {
        let states = |traces, states| match run(traces, states, 0.0, Stop::Complete, &[]) {
            Cell::Ran(run) => papers_states(&run),
            _ => unreachable!(),
        };
        assert_eq!(states(13, 41), "29");
        assert_eq!(states(33, 118), "86");
    }

    #[test]
    fn published_mazurkiewicz_counts_stand_beside_ours() {
        let readers = FAMILIES.iter().find(|f| f.name == "readers").unwrap();
        let row = Row {
            family: readers,
            n: 4,
            deps: Deps::Dynamic,
            algos: &Algo::ALL,
            cells: vec![
                run(16, 94, 0.001, Stop::Complete, &[1]),
                run(1, 55, 0.001, Stop::Complete, &[1]),
                run(1, 10, 0.001, Stop::Complete, &[1]),
            ],
            smt: Some(0.02),
        };
        let (text, flagged) = measured(&[row], &[]);
        assert!(!flagged);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("| Bench      | Maz. | SDPOR Tr |"),
            "{text}"
        );
        assert!(
            lines[2].starts_with("| Readers(4) |   16 |       16 |"),
            "{text}"
        );
        // The papers' table keeps only the columns some paper fills.
        let paper = paper(&[readers]);
        assert!(
            paper.starts_with(
                "| Bench       | Maz. |\n\
                 | ----------- | ---: |\n\
                 | Readers(4)  |   16 |\n"
            ),
            "{paper}"
        );
    }

    /// The `odpor` set shows the distinct final states once per row (of a complete
    /// run that must reach them all), `–` where no run completed, and the paper's
    /// executions and states after ours with `--violations-only`.
    #[test]
    fn the_optimal_layout_shows_the_final_states() {
        let fr = FAMILIES.iter().find(|f| f.name == "fr").unwrap();
        const ALGOS: [Algo; 2] = [Algo::ODPOR, Algo::ODPOR_CS_OB_VO];
        let row = |n, cells| Row {
            family: fr,
            n,
            deps: Deps::Dynamic,
            algos: &ALGOS,
            cells,
            smt: None,
        };
        let rows = [
            row(
                3,
                vec![
                    run(24, 65, 0.0, Stop::Complete, &[1, 2, 3]),
                    run(1, 44, 0.0, Stop::Complete, &[1]),
                ],
            ),
            row(
                9,
                vec![
                    run(9, 99, 3.0, Stop::Timeout, &[1]),
                    run(5, 50, 3.0, Stop::Timeout, &[1]),
                ],
            ),
        ];
        let (text, flagged) = measured(&rows, &[]);
        assert!(!flagged);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "| Bench |   F | ODPOR Tr |   S |     T | ODPOR_cs-OB vo Tr |   S |     T | S^p | \
             paper ODPOR_cs^ob E |   S | T^smt |"
        );
        // The vo run's single final state is not compared with odpor's three.
        assert!(lines[2].starts_with("| FR(3) |   3 |       24 |"), "{text}");
        // Its 44 states are 44 as the paper counts them (1 execution); 50 states of a
        // stopped run are no count of the paper's.
        assert!(
            lines[2].ends_with("|  44 |                   8 |  27 |     – |"),
            "{text}"
        );
        assert!(lines[3].starts_with("| FR(9) |   – |       >9 |"), "{text}");
        assert!(
            lines[3].ends_with("|     |                 129 |  2k |     – |"),
            "{text}"
        );
    }

    #[test]
    fn timeouts_skips_and_bugs_are_marked() {
        let pc = FAMILIES.iter().find(|f| f.name == "pc").unwrap();
        let mut violated = run(3, 40, 0.002, Stop::Violation, &[]);
        if let Cell::Ran(r) = &mut violated {
            r.violation = Some("assertion failed: r is fib(N) (in `check`)".to_string());
        }
        let rows = [
            Row {
                family: pc,
                n: 9,
                deps: Deps::Static,
                algos: &Algo::ALL,
                cells: vec![
                    run(642_831, 3_130_778, 10.0004, Stop::Timeout, &[]),
                    run(512, 20_659, 0.0213, Stop::Complete, &[1, 2]),
                    run(512, 20_659, 0.0101, Stop::Complete, &[1, 2]),
                ],
                smt: Some(0.3),
            },
            Row {
                family: pc,
                n: 11,
                deps: Deps::Static,
                algos: &Algo::ALL,
                cells: vec![
                    Cell::Skipped,
                    run(2048, 90_000, 12.5, Stop::Complete, &[1, 2]),
                    run(2048, 90_000, 0.5, Stop::Complete, &[1]),
                ],
                smt: Some(0.3),
            },
            Row {
                family: pc,
                n: 13,
                deps: Deps::Static,
                algos: &Algo::ALL,
                cells: vec![
                    Cell::Skipped,
                    violated,
                    Cell::Failed("no constraints".to_string()),
                ],
                smt: None,
            },
            Row {
                family: pc,
                n: 15,
                deps: Deps::Static,
                algos: &Algo::ALL,
                cells: vec![Cell::Skipped, Cell::Skipped, Cell::Skipped],
                smt: None,
            },
        ];
        let (text, flagged) = measured(
            &rows,
            &["QS: cannot read benches/programs/qs.ic".to_string()],
        );
        assert!(flagged);
        assert_eq!(
            text,
            "\
| Bench  | SDPOR Tr |     S |     T | Mem | CSDPOR Tr |   S |     T | Mem | CDPOR Tr |   S |     T | Mem | T^smt |  G^s | G^cs | G^smt |
| ------ | -------: | ----: | ----: | --: | --------: | --: | ----: | --: | -------: | --: | ----: | --: | ----: | ---: | ---: | ----: |
| PC(9)  |    >642k | >3.1M | >10.0 | 1.2 |       512 | 21k | 0.021 | 1.2 |      512 | 21k | 0.010 | 1.2 | 0.300 | >990 |  2.1 |   0.1 |
| PC(11) |        – |     – |     – |   – |     2048! | 90k |  12.5 | 1.2 |    2048! | 90k | 0.500 | 1.2 | 0.300 |    – | 25.0 |  15.6 |
| PC(13) |        – |     – |     – |   – |       >3! | >40 |     ? | 1.2 |      err |     |       |     |   err |    – |    – |     – |

- `!` PC(11): the complete runs reached different sets of final states (distinct final states: CSDPOR 2, CDPOR 1)
- `!` PC(13) CSDPOR: assertion failed: r is fib(N) (in `check`); rerun: `ic-check --algo csdpor --deps static -D N=13 benches/programs/pc.ic`
- `err` PC(13) CDPOR: no constraints
- QS: cannot read benches/programs/qs.ic
- `–`: not run, because the same algorithm timed out at a smaller size of the family.
- Not run, every algorithm having timed out at a smaller size: PC(15).
"
        );
    }
}
