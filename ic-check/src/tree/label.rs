//! What each node and edge of a tree picture says, shared by the DOT and SVG writers so
//! that both pictures read the same: the state number and the globals that changed,
//! the sleep and backtrack sets, and how the execution ended.

use explorer::tree::{Blocked, End, Names, Node, SleepEnding, Tree};

/// How a node is drawn: the colour of its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Complete,
    Deadlock,
    Violation,
    /// A final state after an earlier violation (no trace).
    AfterViolation,
    Blocked,
}

impl Kind {
    /// Every kind, in the order of a legend.
    pub const ALL: [Kind; 5] = [
        Kind::Complete,
        Kind::Deadlock,
        Kind::Violation,
        Kind::AfterViolation,
        Kind::Blocked,
    ];

    /// (fill, stroke) colours.
    pub fn colours(self) -> (&'static str, &'static str) {
        match self {
            Kind::Plain => ("#ffffff", "#546e7a"),
            Kind::Complete => ("#e3f5e1", "#2e7d32"),
            Kind::Deadlock => ("#fff0d6", "#e65100"),
            Kind::Violation => ("#fde2e2", "#c62828"),
            Kind::AfterViolation => ("#f7eded", "#b77b7b"),
            Kind::Blocked => ("#ececec", "#757575"),
        }
    }

    /// What the legend calls it.
    pub fn legend(self) -> &'static str {
        match self {
            Kind::Plain => "state",
            Kind::Complete => "complete trace",
            Kind::Deadlock => "deadlock",
            Kind::Violation => "violation",
            Kind::AfterViolation => "final, after a violation",
            Kind::Blocked => "blocked",
        }
    }
}

/// A line of a node's text, with what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// The globals that changed (the first line starts with the state number).
    Changes,
    Sleep,
    Backtrack,
    /// How the execution ended, or why it stopped.
    Mark,
}

impl Tone {
    pub fn colour(self) -> &'static str {
        match self {
            Tone::Changes => "#212121",
            Tone::Sleep => "#1565c0",
            Tone::Backtrack => "#6a1b9a",
            Tone::Mark => "#424242",
        }
    }
}

pub struct Line {
    pub tone: Tone,
    pub text: String,
}

pub struct Label {
    /// The state number in exploration order (none for a pruned node).
    pub number: Option<u32>,
    /// The first line continues after the number, if any.
    pub lines: Vec<Line>,
    pub kind: Kind,
    pub pruned: bool,
    /// Words for the node's `class` attribute: its kind and end marks, `pruned`.
    pub classes: Vec<&'static str>,
    /// The label of the edge into the node.
    pub edge: Option<String>,
    /// The schedule from the root, for `ic-check --replay`.
    pub schedule: String,
}

impl Label {
    /// The first line, number included.
    pub fn header(&self) -> String {
        let rest = self.lines.first().map_or("", |l| l.text.as_str());
        match self.number {
            Some(n) if rest.is_empty() => n.to_string(),
            Some(n) => format!("{n}  {rest}"),
            None => rest.to_string(),
        }
    }

    /// Every line as text, the first with the number.
    pub fn text_lines(&self) -> Vec<String> {
        let mut lines = vec![self.header()];
        lines.extend(self.lines.iter().skip(1).map(|l| l.text.clone()));
        lines
    }
}

/// After a sleep entry whose last step runs, then blocks: the state it reaches is
/// covered (proved equal to one explored).
pub const COVERED: &str = "≡";
/// After a sleep entry whose last step runs, then blocks if it reaches the state
/// recorded with it (csdpor's lazy check).
pub const COVERED_IF: &str = "≡?";

/// Lines are wrapped past this many characters (at item boundaries).
const WIDTH: usize = 30;
/// Messages and values are cut past this many characters.
const MESSAGE: usize = 40;

/// The labels of every node, by node index.
pub fn labels(tree: &Tree) -> Vec<Label> {
    let names = tree.names();
    (0..tree.nodes.len())
        .map(|id| label(tree, &names, id))
        .collect()
}

fn label(tree: &Tree, names: &Names<'_>, id: usize) -> Label {
    let node = &tree.nodes[id];
    let mut lines = Vec::new();
    let changes: Vec<String> = node
        .changes
        .iter()
        .map(|c| shorten(&format!("{}={}", c.location, c.value)))
        .collect();
    let changes = wrap("", &changes, ", ");
    if changes.is_empty() && node.number.is_some() {
        // The number's line.
        lines.push(line(Tone::Changes, String::new()));
    }
    lines.extend(changes.into_iter().map(|t| line(Tone::Changes, t)));
    let sleep: Vec<String> = node
        .sleep
        .iter()
        .map(|entry| {
            let steps: Vec<String> = entry.processes.iter().map(|p| names.process(p)).collect();
            format!("{}{}", steps.join("."), ending(entry.ending))
        })
        .collect();
    let backtrack: Vec<String> = node.backtrack.iter().map(|p| names.process(p)).collect();
    for (tone, prefix, set) in [
        (Tone::Sleep, "sleep ", sleep),
        (Tone::Backtrack, "back ", backtrack),
    ] {
        if !set.is_empty() {
            lines.extend(wrap_set(prefix, &set).into_iter().map(|t| line(tone, t)));
        }
    }
    let (kind, mut classes, marks) = marks(node);
    lines.extend(marks.into_iter().map(|t| line(Tone::Mark, t)));
    if node.pruned() {
        classes.push("pruned");
    }
    Label {
        number: node.number,
        lines,
        kind,
        pruned: node.pruned(),
        classes,
        edge: node.step.as_ref().map(|s| names.step(s)),
        schedule: names.schedule(&tree.path(id)),
    }
}

/// The mark after a sleep entry: [`COVERED`] or [`COVERED_IF`] when its last step runs.
fn ending(e: SleepEnding) -> &'static str {
    match e {
        SleepEnding::Asleep => "",
        SleepEnding::Blocks => COVERED,
        SleepEnding::BlocksIfReaching => COVERED_IF,
    }
}

fn line(tone: Tone, text: String) -> Line {
    Line { tone, text }
}

/// The node's kind, its class words, and its mark lines.
fn marks(node: &Node) -> (Kind, Vec<&'static str>, Vec<String>) {
    let mut kind = Kind::Plain;
    let mut classes = Vec::new();
    let mut marks = Vec::new();
    if let Some(message) = &node.failure {
        kind = Kind::Violation;
        classes.push("violation");
        marks.push(format!("violation: {}", shorten(message)));
    }
    if let Some(why) = node.blocked {
        if kind == Kind::Plain {
            kind = Kind::Blocked;
        }
        classes.push("blocked");
        marks.push(
            match why {
                Blocked::Asleep => "blocked: all asleep",
                Blocked::Cut => "blocked: cut",
                Blocked::Covered => "blocked: state covered",
            }
            .to_string(),
        );
    }
    if let Some(end) = node.end {
        // A blocked node has an end only in a full tree: naive's.
        let complete = if node.blocked.is_some() {
            "complete for naive"
        } else {
            "complete"
        };
        let (k, class, text) = match end {
            End::Complete => (Kind::Complete, "complete", complete),
            End::Deadlock => (Kind::Deadlock, "deadlock", "deadlock"),
            End::AfterFailure => (
                Kind::AfterViolation,
                "after-violation",
                "final, after a violation",
            ),
        };
        if kind == Kind::Plain {
            kind = k;
        }
        classes.push(class);
        marks.push(text.to_string());
    }
    if node.truncated {
        marks.push("... (--tree-limit)".to_string());
    }
    (kind, classes, marks)
}

/// `message` (or a value), cut to [`MESSAGE`] characters.
fn shorten(message: &str) -> String {
    if message.chars().count() <= MESSAGE {
        message.to_string()
    } else {
        let cut: String = message.chars().take(MESSAGE - 3).collect();
        format!("{cut}...")
    }
}

/// `prefix{a, b, c}`, wrapped into lines of about [`WIDTH`] characters.
fn wrap_set(prefix: &str, items: &[String]) -> Vec<String> {
    let mut lines = wrap(&format!("{prefix}{{"), items, ", ");
    if let Some(last) = lines.last_mut() {
        last.push('}');
    }
    lines
}

/// `items` joined by `separator` after `prefix`, in lines of about [`WIDTH`]
/// characters; continuation lines are indented under the first item.
fn wrap(prefix: &str, items: &[String], separator: &str) -> Vec<String> {
    let indent = " ".repeat(prefix.chars().count());
    let mut lines: Vec<String> = Vec::new();
    let mut current = prefix.to_string();
    let mut first = true;
    for item in items {
        let len = current.chars().count();
        if !first && len + separator.len() + item.chars().count() > WIDTH {
            current.push_str(separator.trim_end());
            lines.push(std::mem::replace(&mut current, indent.clone()));
        } else if !first {
            current.push_str(separator);
        }
        current.push_str(item);
        first = false;
    }
    if !first {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sets_wrap_at_item_boundaries() {
        assert_eq!(
            wrap_set("sleep ", &strings(&["p", "q.r"])),
            ["sleep {p, q.r}"]
        );
        let many = strings(&["worker@1", "worker@2", "worker@3", "monitor"]);
        assert_eq!(
            wrap_set("back ", &many),
            ["back {worker@1, worker@2,", "      worker@3, monitor}"]
        );
        assert!(wrap("", &[], ", ").is_empty());
    }

    #[test]
    fn long_messages_are_cut() {
        let long = "assertion failed: two workers in the critical section";
        assert_eq!(shorten(long), "assertion failed: two workers in the ...");
        assert_eq!(shorten("x"), "x");
    }
}
