//! Parsing: source text to [`ast::Program`], with lalrpop's errors turned into
//! [`Diagnostic`]s in this one place.

use crate::ast::{self, Span};
use crate::diagnostic::Diagnostic;
use lalrpop_util::{lalrpop_mod, ParseError};

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens)]
    grammar
);

/// Errors raised by the grammar's own actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralError {
    IntegerTooLarge(Span),
    BadEscape(Span),
}

/// Parses a whole program.
pub fn parse_program(source: &str) -> Result<ast::Program, Diagnostic> {
    grammar::ProgramParser::new()
        .parse(source)
        .map_err(|e| to_diagnostic(source, e))
}

/// Parses one expression (constraints in `ics.json` are expressions of the language).
pub fn parse_expr(source: &str) -> Result<ast::Expr, Diagnostic> {
    grammar::ExprParser::new()
        .parse(source)
        .map_err(|e| to_diagnostic(source, e))
}

/// The text of a string literal, quotes removed, escapes `\" \\ \n \t` resolved.
pub fn unescape(literal: &str, span: Span) -> Result<String, LiteralError> {
    let inner = &literal[1..literal.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            _ => return Err(LiteralError::BadEscape(span)),
        }
    }
    Ok(out)
}

type LalrpopError<'s> = ParseError<usize, lalrpop_util::lexer::Token<'s>, LiteralError>;

fn to_diagnostic(source: &str, error: LalrpopError<'_>) -> Diagnostic {
    let at = match &error {
        ParseError::InvalidToken { location } | ParseError::UnrecognizedEof { location, .. } => {
            *location
        }
        ParseError::UnrecognizedToken { token, .. } | ParseError::ExtraToken { token } => token.0,
        ParseError::User {
            error: LiteralError::IntegerTooLarge(span) | LiteralError::BadEscape(span),
        } => span.start,
    };
    // The lexer reads an unclosed `/*` as the operators `/` and `*`, which fails at
    // or just after the `/`: say what the user actually did.
    if let Some(open) = unclosed_comment(source).filter(|&open| open <= at) {
        return Diagnostic::error(Span::new(open, open + 2), "unterminated comment")
            .with_label("this comment is never closed")
            .with_help("end it with `*/`");
    }
    match error {
        ParseError::InvalidToken { location } if source[location..].starts_with('"') => {
            Diagnostic::error(Span::new(location, location + 1), "unterminated string")
                .with_label("no closing `\"` on this line")
                .with_help("strings end on the line they start; write a line break as `\\n`")
        }
        ParseError::InvalidToken { location } => {
            let end = next_char_end(source, location);
            Diagnostic::error(Span::new(location, end), "unexpected character")
                .with_label("not part of the language")
                .with_help(
                    "identifiers, integers, operators, `//` and `/* */` comments are allowed here",
                )
        }
        ParseError::UnrecognizedEof { location, expected } => {
            Diagnostic::error(Span::new(location, location), "unexpected end of file")
                .with_label("the program stops here")
                .with_help(format!("expected {}", expected_list(&expected)))
        }
        ParseError::UnrecognizedToken {
            token: (start, token, end),
            expected,
        } => Diagnostic::error(Span::new(start, end), format!("unexpected `{}`", token.1))
            .with_label("not expected here")
            .with_help(format!("expected {}", expected_list(&expected))),
        ParseError::ExtraToken {
            token: (start, token, end),
        } => Diagnostic::error(Span::new(start, end), format!("unexpected `{}`", token.1))
            .with_label("extra text")
            .with_help("remove it"),
        ParseError::User {
            error: LiteralError::IntegerTooLarge(span),
        } => Diagnostic::error(span, "integer literal too large")
            .with_label("does not fit in 64 bits")
            .with_help(format!("integers range from {} to {}", i64::MIN, i64::MAX)),
        ParseError::User {
            error: LiteralError::BadEscape(span),
        } => Diagnostic::error(span, "unknown escape in string")
            .with_label("bad escape")
            .with_help(r#"the escapes are \" \\ \n and \t"#),
    }
}

/// Where a `/*` that no `*/` closes starts, skipping string literals and line
/// comments the way the lexer does.
fn unclosed_comment(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'"', _) => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            (b'/', Some(b'/')) => {
                i = source[i..].find('\n').map_or(bytes.len(), |nl| i + nl + 1);
            }
            (b'/', Some(b'*')) => match source[i + 2..].find("*/") {
                Some(close) => i += 2 + close + 2,
                None => return Some(i),
            },
            _ => i += 1,
        }
    }
    None
}

fn next_char_end(source: &str, at: usize) -> usize {
    source
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8())
}

/// lalrpop lists terminals as quoted strings or regexes; users get the quoted ones.
fn expected_list(expected: &[String]) -> String {
    let mut names: Vec<String> = expected
        .iter()
        .map(|e| {
            if e.starts_with("r#") {
                if e.contains("A-Za-z") {
                    "a name".to_string()
                } else if e.contains("0-9") {
                    "an integer".to_string()
                } else {
                    "a string".to_string()
                }
            } else {
                format!("`{}`", e.trim_matches('"'))
            }
        })
        .collect();
    names.dedup();
    match names.len() {
        0 => "nothing more".to_string(),
        1 => names.remove(0),
        n if n > 8 => format!("one of {}, …", names[..8].join(", ")),
        _ => format!("one of {}", names.join(", ")),
    }
}
