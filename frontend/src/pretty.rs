//! The pretty-printer: an AST back to source text that parses to the same tree.
//!
//! The layout is canonical — four spaces per level, one statement per line, a blank
//! line around `proc`, `fun` and `init` — so that printing, parsing and printing again
//! gives the same text. Parentheses are written only where the grammar needs them to
//! rebuild the same tree; whether an operand needs them is decided by comparing binding
//! levels (see `level`). The one tree that does not come back is a negative literal,
//! which the parser never builds: it comes back as the negation of a literal.
//!
//! The printer is also used for expressions the tools synthesise (independence
//! constraints such as `z >= 0`), hence [`expr`] on its own.

use crate::ast::{
    BinOp, Block, Expr, ExprKind, Item, ParamSig, Program, Stmt, StmtKind, TypeExpr, TypeKind, UnOp,
};

/// A whole program, one item after another, ending with a newline.
pub fn program(p: &Program) -> String {
    let mut printer = Printer::default();
    for (i, item) in p.items.iter().enumerate() {
        // One-line declarations stay together; bodies are set apart by a blank line.
        if i > 0 && (has_body(item) || has_body(&p.items[i - 1])) {
            printer.out.push('\n');
        }
        printer.item(item);
        printer.out.push('\n');
    }
    printer.out
}

/// One statement at indentation level zero, without the final newline.
pub fn stmt(s: &Stmt) -> String {
    let mut printer = Printer::default();
    printer.stmt(s);
    printer.out
}

/// One expression, with no parentheses around the whole (but a negative literal keeps
/// its own: `(-5)`).
pub fn expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, TERNARY);
    out
}

/// A type as written in a declaration: `int`, `list`, `bool[N]`, ….
pub fn type_expr(t: &TypeExpr) -> String {
    let mut out = String::new();
    write_type(&mut out, t);
    out
}

fn has_body(item: &Item) -> bool {
    matches!(item, Item::Proc(_) | Item::Fun(_) | Item::Init(_))
}

/// Statements are printed into one buffer at a current depth.
#[derive(Default)]
struct Printer {
    out: String,
    depth: usize,
}

impl Printer {
    fn item(&mut self, item: &Item) {
        let out = &mut self.out;
        match item {
            Item::Param(p) => {
                out.push_str("param ");
                out.push_str(&p.name.name);
                out.push_str(" = ");
                write_expr(out, &p.value, TERNARY);
                out.push(';');
            }
            Item::Global(g) => {
                out.push_str("global ");
                write_type(out, &g.ty);
                out.push(' ');
                out.push_str(&g.name.name);
                if let Some(init) = &g.init {
                    out.push_str(" = ");
                    write_expr(out, init, TERNARY);
                }
                out.push(';');
            }
            Item::Proc(p) => {
                out.push_str("proc ");
                out.push_str(&p.name.name);
                write_params(out, &p.params);
                out.push(' ');
                self.block(&p.body);
            }
            Item::Fun(f) => {
                out.push_str("fun ");
                out.push_str(&f.name.name);
                write_params(out, &f.params);
                out.push_str(" -> ");
                write_type(out, &f.ret);
                out.push(' ');
                self.block(&f.body);
            }
            Item::Init(i) => {
                out.push_str("init ");
                self.block(&i.body);
            }
        }
    }

    /// `{ … }` from the current position; the closing brace at the current depth.
    fn block(&mut self, b: &Block) {
        if b.stmts.is_empty() {
            self.out.push_str("{}");
            return;
        }
        self.out.push_str("{\n");
        self.depth += 1;
        for s in &b.stmts {
            self.indent();
            self.stmt(s);
            self.out.push('\n');
        }
        self.depth -= 1;
        self.indent();
        self.out.push('}');
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
    }

    /// One statement from the current position, without the final newline.
    fn stmt(&mut self, s: &Stmt) {
        let out = &mut self.out;
        match &s.kind {
            StmtKind::Local { ty, name, init } => {
                write_type(out, ty);
                out.push(' ');
                out.push_str(&name.name);
                if let Some(init) = init {
                    out.push_str(" = ");
                    write_expr(out, init, TERNARY);
                }
                out.push(';');
            }
            StmtKind::Assign { target, value } => {
                out.push_str(&target.name.name);
                if let Some(index) = &target.index {
                    out.push('[');
                    write_expr(out, index, TERNARY);
                    out.push(']');
                }
                out.push_str(" = ");
                write_expr(out, value, TERNARY);
                out.push(';');
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_ref()),
            StmtKind::While { cond, body } => {
                out.push_str("while (");
                write_expr(out, cond, TERNARY);
                out.push_str(") ");
                self.block(body);
            }
            StmtKind::For { var, lo, hi, body } => {
                // The grammar takes additive expressions as bounds, so that `..` and
                // the body's `{` cannot be mistaken for part of a bound.
                let bound = BinOp::Add.precedence();
                out.push_str("for ");
                out.push_str(&var.name);
                out.push_str(" in ");
                write_expr(out, lo, bound);
                out.push_str("..");
                write_expr(out, hi, bound);
                out.push(' ');
                self.block(body);
            }
            StmtKind::Break => out.push_str("break;"),
            StmtKind::Continue => out.push_str("continue;"),
            StmtKind::Spawn { proc, args } => {
                out.push_str("spawn ");
                out.push_str(&proc.name);
                write_args(out, args);
                out.push(';');
            }
            StmtKind::Assert { cond, message } => {
                out.push_str("assert(");
                write_expr(out, cond, TERNARY);
                if let Some(message) = message {
                    out.push_str(", ");
                    write_string(out, message);
                }
                out.push_str(");");
            }
            StmtKind::Await(cond) => {
                out.push_str("await (");
                write_expr(out, cond, TERNARY);
                out.push_str(");");
            }
            StmtKind::Yield => out.push_str("yield;"),
            StmtKind::Return(value) => {
                out.push_str("return");
                if let Some(value) = value {
                    out.push(' ');
                    write_expr(out, value, TERNARY);
                }
                out.push(';');
            }
            StmtKind::Expr(e) => {
                write_expr(out, e, TERNARY);
                out.push(';');
            }
            StmtKind::Block(b) => self.block(b),
        }
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Block, otherwise: Option<&Block>) {
        self.out.push_str("if (");
        write_expr(&mut self.out, cond, TERNARY);
        self.out.push_str(") ");
        self.block(then);
        let Some(otherwise) = otherwise else {
            return;
        };
        self.out.push_str(" else ");
        // The parser encodes `else if` as an `else` block holding only that `if`, with
        // the same span; a block written with braces keeps them.
        match otherwise.stmts.as_slice() {
            [Stmt {
                kind:
                    StmtKind::If {
                        cond,
                        then,
                        otherwise: nested,
                    },
                span,
            }] if *span == otherwise.span => self.if_stmt(cond, then, nested.as_ref()),
            _ => self.block(otherwise),
        }
    }
}

fn write_type(out: &mut String, t: &TypeExpr) {
    match &t.kind {
        TypeKind::Int => out.push_str("int"),
        TypeKind::Bool => out.push_str("bool"),
        TypeKind::List => out.push_str("list"),
        TypeKind::Map => out.push_str("map"),
        TypeKind::Array(elem, size) => {
            write_type(out, elem);
            out.push('[');
            write_expr(out, size, TERNARY);
            out.push(']');
        }
    }
}

/// `(int a, list b)`
fn write_params(out: &mut String, params: &[ParamSig]) {
    out.push('(');
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type(out, &p.ty);
        out.push(' ');
        out.push_str(&p.name.name);
    }
    out.push(')');
}

/// `(e1, e2)`
fn write_args(out: &mut String, args: &[Expr]) {
    out.push('(');
    write_list(out, args);
    out.push(')');
}

fn write_list(out: &mut String, items: &[Expr]) {
    for (i, e) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(out, e, TERNARY);
    }
}

/// A string literal with the escapes the lexer knows: `\" \\ \n \t`.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The loosest binding level: the ternary `c ? a : b`, accepted only where a whole
/// expression is (top level, brackets, arguments, its own branches).
const TERNARY: u8 = 0;
/// Unary `-` and `!`, just above the binary operators (levels of
/// [`BinOp::precedence`]).
const UNARY: u8 = 7;
/// Indexing and atoms (literals, names, calls, `[…]`, anything in parentheses).
const POSTFIX: u8 = 8;

/// How tightly an expression binds once printed: an operand position accepts
/// expressions of at least some level, and anything looser is parenthesised.
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Cond(..) => TERNARY,
        ExprKind::Binary(op, ..) => op.precedence(),
        ExprKind::Unary(..) => UNARY,
        // A negative literal prints with its own parentheses.
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Var(_)
        | ExprKind::List(_)
        | ExprKind::Index(..)
        | ExprKind::Call(..) => POSTFIX,
    }
}

/// Prints `e` in a position that accepts expressions of level `min` or tighter.
fn write_expr(out: &mut String, e: &Expr, min: u8) {
    if level(e) < min {
        out.push('(');
        write_bare(out, e);
        out.push(')');
    } else {
        write_bare(out, e);
    }
}

fn write_bare(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Int(n) => write_int(out, *n),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Var(v) => out.push_str(&v.name),
        ExprKind::List(items) => {
            out.push('[');
            write_list(out, items);
            out.push(']');
        }
        ExprKind::Index(base, index) => {
            write_expr(out, base, POSTFIX);
            out.push('[');
            write_expr(out, index, TERNARY);
            out.push(']');
        }
        ExprKind::Call(f, args) => {
            out.push_str(&f.name);
            write_args(out, args);
        }
        ExprKind::Unary(op, operand) => {
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '!',
            });
            // `- -x` would read as a typo for `--`: print `-(-x)`.
            let min = match (op, &operand.kind) {
                (UnOp::Neg, ExprKind::Unary(UnOp::Neg, _)) => POSTFIX,
                _ => UNARY,
            };
            write_expr(out, operand, min);
        }
        ExprKind::Binary(op, l, r) => {
            // Left-associative: a right operand of the same level needs parentheses;
            // comparisons do not chain, so neither operand may be one of their level.
            let p = op.precedence();
            let left_min = if op.is_comparison() { p + 1 } else { p };
            write_expr(out, l, left_min);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_expr(out, r, p + 1);
        }
        ExprKind::Cond(c, a, b) => {
            // `c ? a : b` takes an `||`-level condition and is right-associative.
            write_expr(out, c, BinOp::Or.precedence());
            out.push_str(" ? ");
            write_expr(out, a, TERNARY);
            out.push_str(" : ");
            write_expr(out, b, TERNARY);
        }
    }
}

/// Literals are non-negative in source: the parser reads `-5` as a negation. A
/// negative value (built by a tool, not parsed) is printed as a parenthesised
/// negation, and `i64::MIN`, whose magnitude is no literal, as a subtraction.
fn write_int(out: &mut String, n: i64) {
    if n == i64::MIN {
        out.push_str(&format!("(-{} - 1)", i64::MAX));
    } else if n < 0 {
        out.push_str(&format!("(-{})", -n));
    } else {
        out.push_str(&n.to_string());
    }
}
