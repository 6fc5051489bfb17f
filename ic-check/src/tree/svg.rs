//! The tree as SVG, drawn without Graphviz: a title, a legend, then one card per state
//! ([`super::label`]), placed by [`super::layout`]. Text is monospace, so the width of
//! a card is known from its characters and nothing overlaps. Each edge runs from the
//! parent's card to a short vertical stub above the child, which carries the block's
//! name. Every card is a group with a `class` (its kind, `pruned`) and a `<title>` (its
//! schedule, shown on hover).

use super::label::{Kind, Label, Tone, COVERED, COVERED_IF};
use super::layout::{layout, Spacing};
use explorer::tree::{SleepEnding, Tree};
use std::fmt::Write as _;

const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
const FONT_SIZE: f64 = 12.0;
/// The advance of a monospace character (DejaVu Sans Mono: 0.602 em), rounded up.
const CHAR: f64 = 7.3;
const LINE: f64 = 15.0;
const PAD_X: f64 = 7.0;
const PAD_Y: f64 = 5.0;
/// The vertical end of an edge, above the child, where its label sits.
const STUB: f64 = 20.0;
const MARGIN: f64 = 16.0;
const SPACING: Spacing = Spacing {
    sibling: 16.0,
    row: 44.0,
};
const PRUNED: &str = "#9e9e9e";
/// The legend wraps past this width, or the tree's if wider.
const LEGEND: f64 = 640.0;

fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR
}

pub fn write(tree: &Tree, labels: &[Label], caption: &[String]) -> String {
    let cards: Vec<(f64, f64)> = labels.iter().map(card_size).collect();
    // A child's room is as wide as its card or its edge's label, whichever is wider.
    let room: Vec<(f64, f64)> = labels
        .iter()
        .zip(&cards)
        .map(|(l, &(w, h))| {
            let edge = l.edge.as_deref().map_or(0.0, |e| text_width(e) + 8.0);
            (w.max(edge), h)
        })
        .collect();
    let children: Vec<Vec<usize>> = tree.nodes.iter().map(|n| n.children.clone()).collect();
    let placed = layout(&children, &room, SPACING);

    let caption_width = caption
        .iter()
        .map(|c| text_width(c) * 14.0 / FONT_SIZE)
        .fold(0.0, f64::max);
    let legend = rows(
        legend(tree, labels),
        placed.width.max(caption_width).max(LEGEND),
    );
    let legend_width = legend
        .iter()
        .map(|row| row.iter().map(|(_, w)| w).sum::<f64>())
        .fold(0.0, f64::max);
    // The caption's lines, then the legend's rows.
    let header = 20.0 + 16.0 * caption.len().saturating_sub(1) as f64 + 18.0 * legend.len() as f64;
    let width = (placed.width.max(legend_width).max(caption_width) + 2.0 * MARGIN).ceil();
    let height = (header + placed.height + 2.0 * MARGIN + 12.0).ceil();
    // The tree's origin; a node's box is centred on x, its top at y.
    let origin = (MARGIN, MARGIN + header + 12.0);
    let at = |id: usize| (origin.0 + placed.x[id], origin.1 + placed.y[id]);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\" font-size=\"{FONT_SIZE}\" \
         xml:space=\"preserve\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    heading(&mut out, caption, &legend);
    out.push_str("<g class=\"edges\" fill=\"none\" stroke-width=\"1.2\">\n");
    for (id, node) in tree.nodes.iter().enumerate() {
        if let Some(parent) = node.parent {
            let (px, py) = at(parent);
            edge(
                &mut out,
                (px, py + cards[parent].1),
                at(id),
                labels[id].pruned,
            );
        }
    }
    out.push_str("</g>\n<g class=\"edge-labels\" text-anchor=\"middle\">\n");
    for (id, label) in labels.iter().enumerate() {
        if let Some(text) = &label.edge {
            edge_label(&mut out, at(id), text, label.pruned);
        }
    }
    out.push_str("</g>\n<g class=\"nodes\">\n");
    for (id, label) in labels.iter().enumerate() {
        let (x, top) = at(id);
        card(&mut out, id, label, (x - cards[id].0 / 2.0, top), cards[id]);
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// The (width, height) of a node's card: its longest line, its lines.
fn card_size(label: &Label) -> (f64, f64) {
    let widest = label
        .text_lines()
        .iter()
        .map(|t| text_width(t))
        .fold(0.0, f64::max);
    (
        widest + 2.0 * PAD_X,
        label.lines.len() as f64 * LINE + 2.0 * PAD_Y,
    )
}

/// The caption (title in bold, notes in red) and the legend's rows under it.
fn heading(out: &mut String, caption: &[String], legend: &[Vec<(String, f64)>]) {
    for (i, line) in caption.iter().enumerate() {
        let (size, weight, colour) = if i == 0 {
            (14, "bold", "#212121")
        } else {
            (12, "normal", "#c62828")
        };
        let _ = writeln!(
            out,
            "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"{size}\" font-weight=\"{weight}\" \
             fill=\"{colour}\">{}</text>",
            MARGIN + 14.0 + 16.0 * i as f64,
            xml(line)
        );
    }
    let mut y = MARGIN + 20.0 + 16.0 * caption.len() as f64;
    for row in legend {
        let mut x = MARGIN;
        for (item, w) in row {
            let _ = writeln!(out, "<g transform=\"translate({x:.1} {y:.1})\">{item}</g>");
            x += w;
        }
        y += 18.0;
    }
}

/// An edge from the bottom centre of the parent's card to the top of the child's,
/// ending in a vertical stub.
fn edge(out: &mut String, (px, pb): (f64, f64), (cx, ct): (f64, f64), pruned: bool) {
    let style = if pruned {
        format!("stroke=\"{PRUNED}\" stroke-dasharray=\"2 3\"")
    } else {
        "stroke=\"#455a64\"".to_string()
    };
    let _ = writeln!(
        out,
        "<path d=\"M{px:.1} {pb:.1} L{cx:.1} {:.1} L{cx:.1} {ct:.1}\" {style}/>",
        ct - STUB
    );
}

/// The block's name on the stub of the edge into the child at (`cx`, `ct`).
fn edge_label(out: &mut String, (cx, ct): (f64, f64), text: &str, pruned: bool) {
    let w = text_width(text) + 6.0;
    let colour = if pruned { PRUNED } else { "#263238" };
    let _ = writeln!(
        out,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"14\" fill=\"#ffffff\"/>\
         <text x=\"{cx:.1}\" y=\"{:.1}\" fill=\"{colour}\" font-weight=\"bold\">{}</text>",
        cx - w / 2.0,
        ct - STUB + 2.0,
        ct - STUB + 13.0,
        xml(text)
    );
}

/// One state: a rounded box with its lines.
fn card(out: &mut String, id: usize, label: &Label, (left, top): (f64, f64), (w, h): (f64, f64)) {
    let (fill, stroke) = label.kind.colours();
    let mut class = vec!["node"];
    class.extend(&label.classes);
    let _ = writeln!(out, "<g id=\"s{id}\" class=\"{}\">", class.join(" "));
    let title = if label.schedule.is_empty() {
        "initial state"
    } else {
        &label.schedule
    };
    let _ = writeln!(out, "<title>{}</title>", xml(title));
    let (fill, dash) = if label.pruned {
        ("#ffffff", " stroke-dasharray=\"3 3\"")
    } else {
        (fill, "")
    };
    let _ = writeln!(
        out,
        "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"6\" \
         fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.3\"{dash}/>"
    );
    for (i, line) in label.lines.iter().enumerate() {
        let colour = if label.pruned {
            PRUNED
        } else {
            line.tone.colour()
        };
        let x = left + PAD_X;
        let y = top + PAD_Y + LINE * i as f64 + 11.5;
        let text = if i == 0 {
            match label.number {
                Some(n) if line.text.is_empty() => {
                    format!("<tspan font-weight=\"bold\">{n}</tspan>")
                }
                Some(n) => format!(
                    "<tspan font-weight=\"bold\">{n}</tspan>  {}",
                    xml(&line.text)
                ),
                None => xml(&line.text),
            }
        } else {
            xml(&line.text)
        };
        let weight = if line.tone == Tone::Mark && !label.pruned {
            " font-style=\"italic\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" fill=\"{colour}\"{weight}>{text}</text>"
        );
    }
    out.push_str("</g>\n");
}

/// The legend's items (SVG fragments drawn at their own origin) and their widths: the
/// kinds of node the tree has, pruned parts if any, and what the sets' marks mean.
fn legend(tree: &Tree, labels: &[Label]) -> Vec<(String, f64)> {
    let mut items = Vec::new();
    let swatch = |fill: &str, stroke: &str, dash: &str, text: &str| {
        (
            format!(
                "<rect x=\"0\" y=\"-10\" width=\"16\" height=\"12\" rx=\"3\" fill=\"{fill}\" \
                 stroke=\"{stroke}\"{dash}/><text x=\"22\" y=\"0\" fill=\"#424242\">{}</text>",
                xml(text)
            ),
            22.0 + text_width(text) + 18.0,
        )
    };
    // A coloured sample, then what it means.
    let sample = |tone: Tone, sample: &str, meaning: &str| {
        let at = text_width(sample) + 6.0;
        (
            format!(
                "<text x=\"0\" y=\"0\" fill=\"{}\">{}</text>\
                 <text x=\"{at}\" y=\"0\" fill=\"#424242\">{}</text>",
                tone.colour(),
                xml(sample),
                xml(meaning)
            ),
            at + text_width(meaning) + 18.0,
        )
    };
    for kind in Kind::ALL {
        if labels.iter().any(|l| l.kind == kind) {
            let (fill, stroke) = kind.colours();
            items.push(swatch(fill, stroke, "", kind.legend()));
        }
    }
    if labels.iter().any(|l| l.pruned) {
        items.push(swatch(
            "#ffffff",
            PRUNED,
            " stroke-dasharray=\"3 3\"",
            "pruned (explored by naive only)",
        ));
    }
    if tree.nodes.iter().any(|n| !n.backtrack.is_empty()) {
        items.push(sample(Tone::Sleep, "sleep {..}", "sleep set"));
        items.push(sample(Tone::Backtrack, "back {..}", "backtrack set"));
    }
    let endings: Vec<SleepEnding> = tree
        .nodes
        .iter()
        .flat_map(|n| n.sleep.iter().map(|s| s.ending))
        .collect();
    for (ending, mark, meaning) in [
        (SleepEnding::Blocks, COVERED, "runs, then blocks"),
        (
            SleepEnding::BlocksIfReaching,
            COVERED_IF,
            "runs, then blocks if the state is covered",
        ),
    ] {
        if endings.contains(&ending) {
            items.push(sample(Tone::Sleep, &format!("p{mark}"), meaning));
        }
    }
    items
}

/// The legend's items in rows no wider than `width` (each row holds one at least).
fn rows(items: Vec<(String, f64)>, width: f64) -> Vec<Vec<(String, f64)>> {
    let mut rows: Vec<Vec<(String, f64)>> = Vec::new();
    let mut used = 0.0;
    for item in items {
        match rows.last_mut() {
            Some(row) if used + item.1 <= width => {
                used += item.1;
                row.push(item);
            }
            _ => {
                used = item.1;
                rows.push(vec![item]);
            }
        }
    }
    rows
}

/// Text as XML character data or attribute value.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
