//! Parsing: source text to [`ast::Program`], with lalrpop's errors turned into
//! [`Diagnostic`]s in this one place.

use crate::ast::{self, Span};
use crate::diagnostic::Diagnostic;
use lalrpop_util::{lalrpop_mod, ParseError};

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens)]
    grammar
);

/// How deeply brackets, statements and expressions may nest. Far beyond what people
/// write (and what the tests' generators make); well within what the checker, the
/// interpreter and the synthesis can recurse on.
pub const MAX_NESTING: usize = 1000;

/// Errors raised by the grammar's own actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralError {
    IntegerTooLarge(Span),
    BadEscape(Span),
}

/// Parses a whole program.
///
/// Nesting — of brackets, of statements and of expressions (`- - x`, a chain of
/// operators) — deeper than [`MAX_NESTING`] is a syntax error: what checks and runs a
/// program recurses on its nesting.
pub fn parse_program(source: &str) -> Result<ast::Program, Diagnostic> {
    bracket_depth(source)?;
    let program = grammar::ProgramParser::new()
        .parse(source)
        .map_err(|e| to_diagnostic(source, e))?;
    if let Err(d) = program.items.iter().try_for_each(Nesting::item) {
        // Dropping a tree recurses on its nesting too: a tree nested too deeply is
        // leaked rather than dropped (it is refused, and the caller about to say so).
        std::mem::forget(program);
        return Err(d);
    }
    Ok(program)
}

/// Parses one expression (constraints in `ics.json` are expressions of the language).
pub fn parse_expr(source: &str) -> Result<ast::Expr, Diagnostic> {
    bracket_depth(source)?;
    let expr = grammar::ExprParser::new()
        .parse(source)
        .map_err(|e| to_diagnostic(source, e))?;
    if let Err(d) = Nesting::expr(&expr, 0) {
        std::mem::forget(expr);
        return Err(d);
    }
    Ok(expr)
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
    scan_code(source, |_, _| true).err()
}

/// Walks `source` the way the lexer does, calling `code` with the index of every
/// byte outside string literals and comments, until it returns `false`. `Err(at)`:
/// the `/*` at `at` is never closed.
fn scan_code(source: &str, mut code: impl FnMut(usize, u8) -> bool) -> Result<(), usize> {
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
                None => return Err(i),
            },
            (b, _) => {
                if !code(i, b) {
                    return Ok(());
                }
                i += 1;
            }
        }
    }
    Ok(())
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

fn too_deep(at: usize, what: &str) -> Diagnostic {
    Diagnostic::error(Span::new(at, at + 1), format!("{what} nested too deeply"))
        .with_label(format!("more than {MAX_NESTING} levels deep here"))
        .with_help(format!(
            "nesting is limited to {MAX_NESTING} levels (a chain of operators nests too): \
             name intermediate results with locals, or move code into a `fun`"
        ))
}

/// Fails at the first bracket `(`, `[` or `{` that opens more than [`MAX_NESTING`]
/// levels deep, skipping comments and strings as the lexer does. Run before parsing,
/// so that the parser never builds such a tree.
fn bracket_depth(source: &str) -> Result<(), Diagnostic> {
    let mut depth = 0usize;
    let mut too_deep_at = None;
    // An unclosed comment is the parser's to report.
    let _ = scan_code(source, |i, b| {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    too_deep_at = Some(i);
                    return false;
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        true
    });
    match too_deep_at {
        Some(at) => Err(too_deep(at, "brackets")),
        None => Ok(()),
    }
}

/// The nesting of statements and expressions of a parsed tree, recursing at most
/// [`MAX_NESTING`] levels deep.
struct Nesting;

impl Nesting {
    fn item(item: &ast::Item) -> Result<(), Diagnostic> {
        match item {
            ast::Item::Param(p) => Self::expr(&p.value, 0),
            ast::Item::Global(g) => {
                if let ast::TypeKind::Array(_, size) = &g.ty.kind {
                    Self::expr(size, 0)?;
                }
                g.init.as_ref().map_or(Ok(()), |e| Self::expr(e, 0))
            }
            ast::Item::Proc(p) => Self::params(&p.params).and_then(|()| Self::block(&p.body, 0)),
            ast::Item::Fun(f) => Self::params(&f.params).and_then(|()| Self::block(&f.body, 0)),
            ast::Item::Init(i) => Self::block(&i.body, 0),
        }
    }

    fn params(params: &[ast::ParamSig]) -> Result<(), Diagnostic> {
        params.iter().try_for_each(|p| match &p.ty.kind {
            ast::TypeKind::Array(_, size) => Self::expr(size, 0),
            _ => Ok(()),
        })
    }

    fn block(block: &ast::Block, depth: usize) -> Result<(), Diagnostic> {
        block
            .stmts
            .iter()
            .try_for_each(|s| Self::stmt(s, depth + 1))
    }

    fn stmt(stmt: &ast::Stmt, depth: usize) -> Result<(), Diagnostic> {
        use ast::StmtKind as S;
        if depth > MAX_NESTING {
            return Err(too_deep(stmt.span.start, "statements"));
        }
        let e = |e: &ast::Expr| Self::expr(e, depth);
        match &stmt.kind {
            S::Local { ty, init, .. } => {
                if let ast::TypeKind::Array(_, size) = &ty.kind {
                    e(size)?;
                }
                init.as_ref().map_or(Ok(()), e)
            }
            S::Assign { target, value } => {
                target.index.as_ref().map_or(Ok(()), e)?;
                e(value)
            }
            S::If {
                cond,
                then,
                otherwise,
            } => {
                e(cond)?;
                Self::block(then, depth)?;
                otherwise.as_ref().map_or(Ok(()), |b| Self::block(b, depth))
            }
            S::While { cond, body } => e(cond).and_then(|()| Self::block(body, depth)),
            S::For { lo, hi, body, .. } => {
                e(lo)?;
                e(hi)?;
                Self::block(body, depth)
            }
            S::Spawn { args, .. } => args.iter().try_for_each(e),
            S::Assert { cond, .. } | S::Await(cond) | S::Expr(cond) => e(cond),
            S::Return(value) => value.as_ref().map_or(Ok(()), e),
            S::Block(b) => Self::block(b, depth),
            S::Break | S::Continue | S::Yield => Ok(()),
        }
    }

    fn expr(expr: &ast::Expr, depth: usize) -> Result<(), Diagnostic> {
        use ast::ExprKind as E;
        let depth = depth + 1;
        if depth > MAX_NESTING {
            return Err(too_deep(expr.span.start, "expression"));
        }
        let e = |x: &ast::Expr| Self::expr(x, depth);
        match &expr.kind {
            E::Int(_) | E::Bool(_) | E::Var(_) => Ok(()),
            E::List(xs) | E::Call(_, xs) => xs.iter().try_for_each(e),
            E::Index(a, b) | E::Binary(_, a, b) => e(a).and_then(|()| e(b)),
            E::Unary(_, a) => e(a),
            E::Cond(c, a, b) => e(c).and_then(|()| e(a)).and_then(|()| e(b)),
        }
    }
}
