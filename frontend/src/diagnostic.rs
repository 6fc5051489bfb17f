//! Diagnostics: what the user did wrong, where, and what to do about it.
//!
//! Every error the front end reports — syntax, names, types, `-D` values — is a
//! [`Diagnostic`] with a primary span; [`render`] prints it the way rustc does (file,
//! line, column, the source line with a caret) through `codespan-reporting`.

use crate::ast::Span;
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::Buffer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, in one line.
    pub message: String,
    /// Where it is wrong; `None` for mistakes outside the file (a bad `-D` option).
    pub span: Option<Span>,
    /// A short label under the caret.
    pub label: String,
    /// Related places (for example the first declaration of a duplicate name).
    pub secondary: Vec<(Span, String)>,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span: Some(span),
            label: String::new(),
            secondary: Vec::new(),
            help: None,
        }
    }

    /// A mistake that has no place in the source (command-line options).
    pub fn global(message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span: None,
            label: String::new(),
            secondary: Vec::new(),
            help: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
    (line, col)
}

/// Whether to colour what is written to a stream: only a terminal, and never when the
/// environment sets `NO_COLOR` to a non-empty value (<https://no-color.org>).
pub fn use_color(is_terminal: bool) -> bool {
    color_choice(is_terminal, std::env::var_os("NO_COLOR").as_deref())
}

/// [`use_color`] given the value of `NO_COLOR`.
pub fn color_choice(is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    is_terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Renders diagnostics as text, with colours when `color` is set.
pub fn render(file: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    let files = SimpleFile::new(file, source);
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = term::Config::default();
    for d in diagnostics {
        let mut report = Report::error().with_message(&d.message);
        let mut labels = Vec::new();
        if let Some(span) = d.span {
            labels.push(Label::primary((), clamp(span, source)).with_message(&d.label));
        }
        for (span, text) in &d.secondary {
            labels.push(Label::secondary((), clamp(*span, source)).with_message(text));
        }
        report = report.with_labels(labels);
        if let Some(help) = &d.help {
            report = report.with_notes(vec![format!("help: {help}")]);
        }
        if d.span.is_none() {
            report = report.with_notes(vec![format!("in {file}")]);
        }
        // Writing into an in-memory buffer fails only on a span outside the file,
        // which `clamp` rules out.
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &report);
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

fn clamp(span: Span, source: &str) -> std::ops::Range<usize> {
    let mut start = span.start.min(source.len());
    let mut end = span.end.clamp(start, source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}
