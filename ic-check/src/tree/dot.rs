//! The tree as Graphviz DOT (`dot -Tsvg tree.dot`): one box per state, labelled as
//! in the SVG picture ([`super::label`]); pruned parts dotted. Every node carries a
//! `class` (its kind, `pruned`) and a `tooltip` (its schedule), which Graphviz passes on
//! to SVG output.

use super::label::{Kind, Label};
use explorer::tree::Tree;
use std::fmt::Write as _;

const FONT: &str = "DejaVu Sans Mono";
const PRUNED: &str = "#9e9e9e";

pub fn write(tree: &Tree, labels: &[Label], caption: &[String]) -> String {
    let mut out = String::from("digraph tree {\n");
    let _ = writeln!(
        out,
        "  graph [label=\"{}\", labelloc=t, labeljust=l, fontname=\"{FONT}\", fontsize=12, \
         nodesep=0.2, ranksep=0.3];",
        escape(&caption.join("\n"))
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fontname=\"{FONT}\", fontsize=10, \
         margin=\"0.08,0.04\"];"
    );
    let _ = writeln!(
        out,
        "  edge [fontname=\"{FONT}\", fontsize=10, arrowsize=0.6];"
    );
    // Preorder: each node right after the edge into it.
    let mut stack = vec![0usize];
    while let Some(id) = stack.pop() {
        let label = &labels[id];
        let node = &tree.nodes[id];
        if let Some(parent) = node.parent {
            let edge = label.edge.as_deref().unwrap_or_default();
            let style = if label.pruned {
                format!(", style=dotted, color=\"{PRUNED}\", fontcolor=\"{PRUNED}\"")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  s{parent} -> s{id} [label=\"{}\"{style}];",
                escape(edge)
            );
        }
        let _ = writeln!(out, "  s{id} [{}];", attributes(label));
        stack.extend(node.children.iter().rev());
    }
    out.push_str("}\n");
    out
}

fn attributes(label: &Label) -> String {
    // `\l` ends a left-justified line.
    let text: String = label
        .text_lines()
        .iter()
        .map(|l| format!("{}\\l", escape(l)))
        .collect();
    let (fill, stroke) = label.kind.colours();
    let mut attrs = format!("label=\"{text}\"");
    if label.pruned {
        let _ = write!(
            attrs,
            ", style=\"rounded,dotted\", color=\"{stroke}\", fontcolor=\"{PRUNED}\""
        );
    } else if label.kind != Kind::Plain {
        let _ = write!(attrs, ", fillcolor=\"{fill}\", color=\"{stroke}\"");
    } else {
        let _ = write!(attrs, ", fillcolor=\"{fill}\"");
    }
    if !label.classes.is_empty() {
        let _ = write!(attrs, ", class=\"{}\"", label.classes.join(" "));
    }
    let schedule = if label.schedule.is_empty() {
        "initial state"
    } else {
        &label.schedule
    };
    let _ = write!(attrs, ", tooltip=\"{}\"", escape(schedule));
    attrs
}

/// A DOT string's contents; a line break becomes a centred line break.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}
