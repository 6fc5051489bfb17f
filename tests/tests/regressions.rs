//! The regressions: the programs of `tests/regressions/`, one a file, each one on which
//! an algorithm once went wrong, with what to expect of it in its header
//! (`tests/regressions/README.md` describes the format).
//!
//! Why files rather than Rust tests: a regression is a program and some numbers. As a
//! `.ic` file it runs with `ic-check` as it is, reads without Rust around it, and a new
//! one is added by dropping a file in the folder.
//!
//! Each file is one test, named after it (`cargo test -p tests --test regressions
//! NAME`). Its header is parsed; naive runs and must give exactly the counts, the
//! violations and (where listed) the final states of the header; each other
//! expectation line runs its algorithm and checks what it lists; then every reduced
//! algorithm in every mode is compared with naive ([`tests::differential`]), unless
//! the header says why not. A failure names the file and lists every expectation not
//! met, by line.

use explorer::algorithms::naive::Naive;
use explorer::registry;
use explorer::{Algorithm, Config, Deps, Report, ViolationKind};
use frontend::ics::ResolvedIcs;
use libtest_mimic::{Arguments, Failed, Trial};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folder of the regressions.
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/regressions");

fn main() {
    let args = Arguments::from_args();
    let trials = regressions()
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            Trial::test(name.into_owned(), move || check(&path))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// Every `.ic` file of [`DIR`], by name.
fn regressions() -> Vec<PathBuf> {
    let entries = std::fs::read_dir(DIR).unwrap_or_else(|e| panic!("{DIR}: {e}"));
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("{DIR}: {e}")).path())
        .filter(|p| p.extension().is_some_and(|e| e == "ic"))
        .collect();
    files.sort();
    files
}

/// The algorithm `ic-check --algo NAME [--literal]` runs; `ics`, cdpor's constraints,
/// is called only by the algorithms that use them. The one place where a name becomes
/// an algorithm.
fn algorithm(
    name: &str,
    literal: bool,
    ics: &dyn Fn() -> Result<Arc<ResolvedIcs>, String>,
) -> Result<Box<dyn Algorithm>, String> {
    let spec = registry::named(name).ok_or_else(|| format!("no algorithm is called `{name}`"))?;
    if literal && !spec.has_literal {
        return Err(format!("{name} has no --literal"));
    }
    spec.build(literal, ics)
}

/// Every exploration of an expectation: the comparison's limits (all violations, 1,000
/// steps per block, depth 100: [`tests::differential::config`]) without its time limit,
/// which would only make a slow run fail less clearly; reads-from classes recorded
/// where they are counted or compared.
fn config(classes: bool, deps: Deps) -> Config {
    Config {
        timeout: None,
        record_reads_from: classes,
        deps,
        ..tests::differential::config()
    }
}

/// Runs one regression: `Err` lists every expectation it does not meet.
fn check(path: &Path) -> Result<(), Failed> {
    let file = format!(
        "tests/regressions/{}",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let source = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let header = Header::parse(&source).map_err(|(line, e)| {
        format!("{file}:{line}: {e}\n(the header's format: tests/regressions/README.md)")
    })?;
    let program = frontend::load(&source, &[])
        .map_err(|d| frontend::diagnostic::render(&file, &source, &d, false))?;
    let mut failures = Vec::new();
    let naive = check_naive(&header, &program, &mut failures);
    let constraints = OnceCell::new();
    let ics = || {
        constraints
            .get_or_init(|| match &header.constraints {
                Some(name) => stored_constraints(name, &program),
                None => Ok(tests::differential::ics_unhurried(&program, &source)),
            })
            .clone()
    };
    if let Some(line) = &header.finer {
        match ics() {
            Ok(ics) => {
                let mut finer = Naive::with_constraints(ics);
                let report = explorer::explore(&program, &mut finer, line.config(header.deps));
                let moved = Some(finer.identities_may_move());
                line.check(&report, &naive, moved, &mut failures);
            }
            Err(e) => failures.push(format!("line {}: {e}", line.number)),
        }
    }
    for line in &header.algorithms {
        let (name, literal) = match line.subject.strip_suffix(" --literal") {
            Some(name) => (name, true),
            None => (line.subject.as_str(), false),
        };
        match algorithm(name, literal, &ics) {
            Ok(mut algorithm) => {
                let report = explorer::explore(&program, &mut *algorithm, line.config(header.deps));
                line.check(&report, &naive, None, &mut failures);
            }
            Err(e) => failures.push(format!("line {}: {e}", line.number)),
        }
    }
    if !header.skip_comparison {
        if let Err(e) = tests::differential::differential(&source) {
            failures.push(format!(
                "every mode against naive (tests::differential): {e}"
            ));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    let mut message = format!("{file}: {} expectation(s) not met:", failures.len());
    for f in &failures {
        message.push_str("\n  ");
        message.push_str(&f.replace('\n', "\n    "));
    }
    Err(message.into())
}

/// Runs naive and checks its line, its violations and its final states; its report.
fn check_naive(
    header: &Header,
    program: &frontend::ir::Program,
    failures: &mut Vec<String>,
) -> Report {
    // Its classes are recorded where a line counts or compares them.
    let classes = std::iter::once(&header.naive)
        .chain(&header.algorithms)
        .any(Line::classes);
    let (naive, shown) = if header.finals.is_empty() {
        let report =
            explorer::explore(program, &mut Naive::default(), config(classes, header.deps));
        (report, None)
    } else {
        let config = config(classes, header.deps);
        let (report, shown) = tests::explore_shown(program, &mut Naive::default(), config);
        (report, Some(shown))
    };
    header.naive.check(&naive, &naive, None, failures);
    let found: Vec<String> = naive.violations.iter().map(show_violation).collect();
    let expected: Vec<String> = header.violations.iter().map(|(_, v)| v.clone()).collect();
    let mut wrong = differences("violation", &expected, &found);
    if !wrong.is_empty() {
        if found.is_empty() {
            wrong.push_str("\n  (naive found none: `violations: none`)");
        }
        let line = header.violations_line;
        failures.push(format!("line {line}, naive's violations differ:{wrong}"));
    }
    if let Some(shown) = shown {
        let found: Vec<String> = shown.into_values().collect();
        let expected: Vec<String> = header.finals.iter().map(|(_, s)| s.clone()).collect();
        let mut wrong = differences("final", &expected, &found);
        if found.len() as u64 != naive.stats.final_states {
            let (n, all) = (found.len(), naive.stats.final_states);
            wrong.push_str(&format!("\n  {n} of its {all} final states replay"));
        }
        if !wrong.is_empty() {
            let line = header.finals[0].0;
            failures.push(format!("line {line}, naive's final states differ:{wrong}"));
        }
    }
    naive
}

/// The lines `expected` has and `found` has not, and the other way round, as
/// `KEY: LINE`, each on a line of its own; empty if they hold the same lines.
fn differences(key: &str, expected: &[String], found: &[String]) -> String {
    let mut out = String::new();
    for e in expected.iter().filter(|e| !found.contains(e)) {
        out.push_str(&format!("\n  not found: {key}: {e}"));
    }
    for f in found.iter().filter(|f| !expected.contains(f)) {
        out.push_str(&format!("\n  not expected: {key}: {f}"));
    }
    if out.is_empty() && expected.len() != found.len() {
        out.push_str(&format!(
            "\n  {} expected, {} found",
            expected.len(),
            found.len()
        ));
    }
    out
}

/// The constraints of the file `name` of [`DIR`] (as `ic-synth` writes them).
fn stored_constraints(
    name: &str,
    program: &frontend::ir::Program,
) -> Result<Arc<ResolvedIcs>, String> {
    let path = Path::new(DIR).join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    frontend::ics::Ics::from_json(&text)
        .and_then(|ics| ics.resolve(program))
        .map(Arc::new)
        .map_err(|e| format!("{name}: {}", e.0))
}

/// The kinds of violations by name (as `ic-check --json` writes them).
const KINDS: [(&str, ViolationKind); 5] = [
    ("assert", ViolationKind::Assert),
    ("runtime", ViolationKind::Runtime),
    ("deadlock", ViolationKind::Deadlock),
    ("nontermination", ViolationKind::NonTermination),
    ("depthlimit", ViolationKind::DepthLimit),
];

/// A violation as a header states it: `KIND in BLOCK after "SCHEDULE": MESSAGE`.
fn show_violation(v: &explorer::Violation) -> String {
    let kind = KINDS
        .iter()
        .find(|(_, k)| *k == v.kind)
        .map_or("?", |(n, _)| n);
    format!(
        "{kind} in {} after \"{}\": {}",
        v.block, v.schedule, v.message
    )
}

/// The expectations of a file's header, each with its line.
struct Header {
    naive: Line,
    /// naive's violations, exactly, as [`show_violation`] shows them (none if empty).
    violations: Vec<(usize, String)>,
    /// The first line of the violations (or of `violations: none`).
    violations_line: usize,
    /// naive's final states, exactly, as [`tests::show_state`] shows them (unchecked
    /// if empty).
    finals: Vec<(usize, String)>,
    /// A file of [`DIR`] with the constraints of cdpor, ocdpor and naive with
    /// constraints (synthesised if none).
    constraints: Option<String>,
    /// naive with cdpor's constraints ([`Naive::with_constraints`]).
    finer: Option<Line>,
    algorithms: Vec<Line>,
    /// The comparison of every mode with naive is left out (the header says why).
    skip_comparison: bool,
    /// `--deps` of every run the header names (`deps: dynamic`; the default's
    /// otherwise). The comparison runs every mode whatever it is.
    deps: Deps,
}

/// A line `SUBJECT: ITEM, ITEM, ...` of naive, naive with constraints or an algorithm.
struct Line {
    number: usize,
    subject: String,
    items: Vec<Item>,
}

enum Item {
    /// `traces 12`: the counter, exactly.
    Count(Counter, u64),
    /// `same finals`: the same set as naive's.
    Same(Same),
    /// `identities-may-move yes` (naive with constraints:
    /// [`Naive::identities_may_move`]).
    IdentitiesMayMove(bool),
}

#[derive(Clone, Copy, PartialEq)]
enum Counter {
    Traces,
    Blocked,
    States,
    Finals,
    Mazurkiewicz,
    Classes,
    Violations,
    Deadlocks,
    WakeupBesideCommuting,
}

const COUNTERS: [(&str, Counter); 9] = [
    ("traces", Counter::Traces),
    ("blocked", Counter::Blocked),
    ("states", Counter::States),
    ("finals", Counter::Finals),
    ("mazurkiewicz", Counter::Mazurkiewicz),
    ("classes", Counter::Classes),
    ("violations", Counter::Violations),
    ("deadlocks", Counter::Deadlocks),
    ("wakeup-beside-commuting", Counter::WakeupBesideCommuting),
];

/// The name `x` has in a header, from its table of names.
fn name_in<T: PartialEq>(table: &[(&'static str, T)], x: T) -> &'static str {
    table.iter().find(|(_, y)| *y == x).map_or("?", |(n, _)| n)
}

impl Counter {
    fn name(self) -> &'static str {
        name_in(&COUNTERS, self)
    }

    fn of(self, r: &Report) -> Option<u64> {
        let s = &r.stats;
        let count = |kind| r.violations.iter().filter(|v| v.kind == kind).count() as u64;
        Some(match self {
            Counter::Traces => s.traces,
            Counter::Blocked => s.blocked,
            Counter::States => s.states,
            Counter::Finals => s.final_states,
            Counter::Mazurkiewicz => return s.mazurkiewicz,
            Counter::Classes => r.reads_from.len() as u64,
            Counter::Violations => r.violations.len() as u64,
            Counter::Deadlocks => count(ViolationKind::Deadlock),
            Counter::WakeupBesideCommuting => s.pruning.wakeup_beside_commuting,
        })
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Same {
    /// The same distinct final states.
    Finals,
    /// The same reads-from classes ([`explorer::reads_from`]).
    Classes,
    /// The same violations, as the comparison compares them
    /// ([`tests::differential::violation_set`]).
    Violations,
}

const SAMES: [(&str, Same); 3] = [
    ("finals", Same::Finals),
    ("classes", Same::Classes),
    ("violations", Same::Violations),
];

impl Same {
    fn name(self) -> &'static str {
        name_in(&SAMES, self)
    }

    /// How `report` differs from `naive`, if it does.
    fn differs(self, report: &Report, naive: &Report) -> Option<String> {
        let (ours, theirs) = match self {
            Same::Finals => (&report.finals, &naive.finals),
            Same::Classes => (&report.reads_from, &naive.reads_from),
            Same::Violations => {
                let ours = tests::differential::violation_set(report);
                let theirs = tests::differential::violation_set(naive);
                return (ours != theirs).then(|| format!("found {ours:?}, naive {theirs:?}"));
            }
        };
        let missed = theirs.iter().filter(|f| !ours.contains(f)).count();
        let extra = ours.iter().filter(|f| !theirs.contains(f)).count();
        (missed + extra > 0).then(|| {
            let all = theirs.len();
            format!("misses {missed} of naive's {all}, and has {extra} naive has not")
        })
    }
}

impl Line {
    /// Whether the line counts or compares reads-from classes.
    fn classes(&self) -> bool {
        let classes = |i: &Item| {
            matches!(
                i,
                Item::Count(Counter::Classes, _) | Item::Same(Same::Classes)
            )
        };
        self.items.iter().any(classes)
    }

    /// [`config`] for the line's run with the header's dependency.
    fn config(&self, deps: Deps) -> Config {
        config(self.classes(), deps)
    }

    /// Checks `report` (beside naive's, and whether identities may move for naive with
    /// constraints) against every item.
    fn check(
        &self,
        report: &Report,
        naive: &Report,
        identities_may_move: Option<bool>,
        failures: &mut Vec<String>,
    ) {
        let at = format!("line {}, {}:", self.number, self.subject);
        for item in &self.items {
            match *item {
                Item::Count(counter, expected) => {
                    let found = counter.of(report);
                    if found != Some(expected) {
                        let found = found.map_or("none".to_string(), |n| n.to_string());
                        let name = counter.name();
                        failures.push(format!("{at} {name} {expected}, found {found}"));
                    }
                }
                Item::Same(same) => {
                    if let Some(d) = same.differs(report, naive) {
                        let name = same.name();
                        failures.push(format!("{at} same {name} as naive, but it {d}"));
                    }
                }
                Item::IdentitiesMayMove(expected) => {
                    if identities_may_move != Some(expected) {
                        let yes_no = |b| if b { "yes" } else { "no" };
                        let found = identities_may_move.map_or("unknown", yes_no);
                        let expected = yes_no(expected);
                        failures.push(format!(
                            "{at} identities-may-move {expected}, found {found}"
                        ));
                    }
                }
            }
        }
    }
}

/// A mistake in a header: its line and what is wrong.
type HeaderError = (usize, String);

impl Line {
    /// The line, if its items are naive's: counters, of which naive counts no blocked
    /// executions.
    fn only_of_naive(self) -> Result<Line, HeaderError> {
        self.refusing(|i| !matches!(i, Item::Count(c, _) if *c != Counter::Blocked))
    }

    /// The line, if its items are an algorithm's: `mazurkiewicz` is naive's only, and
    /// `identities-may-move` naive with constraints'.
    fn of_an_algorithm(self) -> Result<Line, HeaderError> {
        self.refusing(|i| {
            matches!(
                i,
                Item::Count(Counter::Mazurkiewicz, _) | Item::IdentitiesMayMove(_)
            )
        })
    }

    /// The line, unless an item is `wrong` for its subject.
    fn refusing(self, wrong: impl Fn(&Item) -> bool) -> Result<Line, HeaderError> {
        match self.items.iter().find(|i| wrong(i)) {
            Some(i) => Err((
                self.number,
                format!("`{}` is not of {}", i.show(), self.subject),
            )),
            None => Ok(self),
        }
    }
}

impl Header {
    /// Parses the header: the comment lines (`//`) at the top of the file, in
    /// paragraphs separated by empty comment lines. The last paragraph holds the
    /// expectations, one a line; the ones before say why the regression exists.
    fn parse(source: &str) -> Result<Header, HeaderError> {
        let mut paragraphs: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
        for (i, line) in source.lines().enumerate() {
            let Some(text) = line.strip_prefix("//") else {
                break;
            };
            if text.trim().is_empty() {
                paragraphs.push(Vec::new());
            } else if let Some(last) = paragraphs.last_mut() {
                last.push((i + 1, text));
            }
        }
        paragraphs.retain(|p| !p.is_empty());
        let Some((expectations, why)) = paragraphs.split_last() else {
            let e = "no header: the file starts with comment lines (`//`) saying why the \
                     regression exists, then its expectations";
            return Err((1, e.into()));
        };
        let first = expectations[0].0;
        if why.is_empty() {
            let e = "the header says why the regression exists before its expectations \
                     (a paragraph of comment lines, then an empty `//` line)";
            return Err((first, e.into()));
        }
        let mut naive = None;
        let mut no_violations = None;
        let mut violations = Vec::new();
        let mut finals = Vec::new();
        let mut constraints = None;
        let mut finer = None;
        let mut algorithms = Vec::new();
        let mut skip_comparison = false;
        let mut deps = None;
        for &(number, text) in expectations {
            let text = text.strip_prefix(' ').unwrap_or(text);
            let (subject, rest) = text.split_once(": ").ok_or_else(|| {
                (
                    number,
                    format!("`{text}` is no expectation: `SUBJECT: WHAT`"),
                )
            })?;
            let line = || -> Result<Line, HeaderError> {
                let items: Result<_, _> = rest.split(", ").map(Item::parse).collect();
                Ok(Line {
                    number,
                    subject: subject.to_string(),
                    items: items.map_err(|e| (number, e))?,
                })
            };
            // A line that may come once, `taken` if it came before.
            let once = |taken: bool| {
                if taken {
                    Err((number, format!("a second `{subject}:` line")))
                } else {
                    Ok(())
                }
            };
            match subject {
                "naive" => {
                    once(naive.is_some())?;
                    naive = Some(line()?.only_of_naive()?);
                }
                "naive with constraints" => {
                    once(finer.is_some())?;
                    finer = Some(line()?);
                }
                "violation" => {
                    parse_violation(rest).map_err(|e| (number, e))?;
                    violations.push((number, rest.to_string()));
                }
                "violations" if rest == "none" => {
                    once(no_violations.is_some())?;
                    no_violations = Some(number);
                }
                "violations" => {
                    return Err((number, "`violations: none` or `violation:` lines".into()))
                }
                "final" => finals.push((number, rest.to_string())),
                "constraints" => {
                    once(constraints.is_some())?;
                    constraints = Some(rest.to_string());
                }
                "skip comparison" if rest.trim().is_empty() => {
                    return Err((number, "`skip comparison: WHY`".into()));
                }
                "skip comparison" => {
                    once(skip_comparison)?;
                    skip_comparison = true;
                }
                "deps" => {
                    once(deps.is_some())?;
                    deps = Some(match rest {
                        "dynamic" => Deps::Dynamic,
                        "static" => Deps::Static,
                        "accesses" => Deps::Accesses,
                        _ => {
                            let e = "`deps: dynamic`, `deps: static` or `deps: accesses`";
                            return Err((number, e.into()));
                        }
                    });
                }
                _ => {
                    let name = subject.strip_suffix(" --literal").unwrap_or(subject);
                    let word = |c: char| c.is_ascii_lowercase() || c == '-';
                    if name.is_empty() || !name.chars().all(word) {
                        let e = format!(
                            "`{subject}` is none of naive, naive with constraints, violation, \
                             violations, final, constraints, skip comparison, deps, or an algorithm \
                             as `ic-check --algo` names it (with `--literal` or not)"
                        );
                        return Err((number, e));
                    }
                    algorithms.push(line()?.of_an_algorithm()?);
                }
            }
        }
        let naive = naive.ok_or_else(|| {
            let e = "no `naive:` line (naive's traces, states, finals and mazurkiewicz)";
            (first, e.to_string())
        })?;
        for counter in [
            Counter::Traces,
            Counter::States,
            Counter::Finals,
            Counter::Mazurkiewicz,
        ] {
            if !naive
                .items
                .iter()
                .any(|i| matches!(i, Item::Count(c, _) if *c == counter))
            {
                let e = format!("the `naive:` line states no `{}`", counter.name());
                return Err((naive.number, e));
            }
        }
        let violations_line = match (no_violations, violations.first()) {
            (None, None) => {
                let e = "naive's violations are always stated: `violation:` lines, or \
                         `violations: none`";
                return Err((first, e.into()));
            }
            (Some(number), Some(_)) => {
                let e = "`violations: none` beside `violation:` lines";
                return Err((number, e.into()));
            }
            (Some(number), None) | (None, Some(&(number, _))) => number,
        };
        Ok(Header {
            naive,
            violations,
            violations_line,
            finals,
            constraints,
            finer,
            algorithms,
            skip_comparison,
            deps: deps.unwrap_or_default(),
        })
    }
}

impl Item {
    /// The item as a header writes it.
    fn show(&self) -> String {
        match *self {
            Item::Count(c, n) => format!("{} {n}", c.name()),
            Item::Same(same) => format!("same {}", same.name()),
            Item::IdentitiesMayMove(yes) => {
                format!("identities-may-move {}", if yes { "yes" } else { "no" })
            }
        }
    }

    fn parse(text: &str) -> Result<Item, String> {
        let bad = || {
            format!(
                "`{text}` is no item: `COUNTER NUMBER`, `same finals|classes|violations` or \
                 `identities-may-move yes|no`"
            )
        };
        let (key, value) = text.split_once(' ').ok_or_else(bad)?;
        match key {
            "same" => SAMES
                .iter()
                .find(|(n, _)| *n == value)
                .map(|&(_, s)| Item::Same(s))
                .ok_or_else(bad),
            "identities-may-move" => match value {
                "yes" => Ok(Item::IdentitiesMayMove(true)),
                "no" => Ok(Item::IdentitiesMayMove(false)),
                _ => Err(bad()),
            },
            _ => {
                let (_, counter) = COUNTERS.iter().find(|(n, _)| *n == key).ok_or_else(|| {
                    let names: Vec<&str> = COUNTERS.iter().map(|(n, _)| *n).collect();
                    format!("`{key}` is no counter: {}", names.join(", "))
                })?;
                Ok(Item::Count(*counter, value.parse().map_err(|_| bad())?))
            }
        }
    }
}

/// Checks the form of a violation line, `KIND in BLOCK after "SCHEDULE": MESSAGE`.
fn parse_violation(text: &str) -> Result<(), String> {
    let bad = || format!("`{text}` is no violation: `KIND in BLOCK after \"SCHEDULE\": MESSAGE`");
    let (kind, rest) = text.split_once(" in ").ok_or_else(bad)?;
    if !KINDS.iter().any(|(n, _)| *n == kind) {
        let names: Vec<&str> = KINDS.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "`{kind}` is no kind of violation: {}",
            names.join(", ")
        ));
    }
    let (_, rest) = rest.split_once(" after \"").ok_or_else(bad)?;
    rest.split_once("\": ").map(|_| ()).ok_or_else(bad)
}
