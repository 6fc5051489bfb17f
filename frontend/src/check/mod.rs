//! The checker: names, types, arity, shadowing, where `await`/`yield`/`spawn` may
//! appear, `fun` purity, `break` outside a loop, `init` rules — and, for a program
//! that passes, its compiled form ([`ir::Program`]): resolved expressions, flat code,
//! and the split into atomic blocks with the stable ids of docs/language.md.
//!
//! Checking and code emission share one walk so that scopes are resolved once.
//! Independent mistakes are all reported; an expression that failed to check yields
//! `None`, and its users stay silent rather than report a follow-on error.
//!
//! The walk by what it checks: `declarations.rs` the top-level names and the
//! constants they are computed from; `statements.rs` bodies, scopes, control flow
//! emitted as flat code (with `code_builder.rs`) and the split into blocks;
//! `expressions.rs` names, types, builtins and calls. Here: the checker's state and
//! what every part reports with (unknown names, globals where they are off limits,
//! "did you mean").

mod code_builder;
mod declarations;
mod expressions;
mod statements;

use crate::analysis::{overwrites, write_sets};
use crate::ast::{self, BinOp, Span};
use crate::diagnostic::Diagnostic;
use crate::ir::{self, Block, ExprKind, FunId, GlobalId, LocalId, ProcId};
use crate::value::{Ty, Value};
use code_builder::CodeBuilder;
use rustc_hash::FxHashMap;

const BUILTINS: &[&str] = &[
    "len", "head", "tail", "append", "take", "drop", "min", "max", "abs", "has", "all",
];

/// The longest array `all(a)` takes: it stands for one read per element.
pub const MAX_ALL_LEN: usize = 4096;

/// Checks a parsed program with `-D` overrides applied to its `param`s.
pub fn check(
    program: &ast::Program,
    defines: &[(String, i64)],
) -> Result<ir::Program, Vec<Diagnostic>> {
    let mut checker = Checker::default();
    checker.declare(program, defines);
    if !checker.diags.is_empty() {
        return Err(checker.diags);
    }
    checker.bodies(program);
    if checker.diags.is_empty() {
        let mut out = checker.out;
        analyse(&mut out);
        Ok(out)
    } else {
        Err(checker.diags)
    }
}

/// Fills in what the analyses know of the checked program: every block's read and
/// write sets ([`write_sets`]), and what state checks need to compare states modulo
/// dead globals ([`overwrites`]): each block's sure overwrites, each proc's reads.
fn analyse(program: &mut ir::Program) {
    program.sets = write_sets::write_sets(program);
    let reads = overwrites::proc_reads(program.procs.len(), &program.blocks, &program.sets);
    for (proc, reads) in program.procs.iter_mut().zip(reads) {
        proc.reads = reads;
    }
    for block in &mut program.blocks {
        block.overwrites = overwrites::overwrites(&program.procs[block.proc as usize].code, block);
    }
}

/// What a top-level name stands for.
#[derive(Clone, Copy)]
enum Top {
    Param(i64),
    Global(GlobalId),
    Proc(ProcId),
    Fun(FunId),
}

#[derive(Default)]
struct Checker {
    diags: Vec<Diagnostic>,
    top: FxHashMap<String, (Top, Span)>,
    out: ir::Program,
}

/// Where code is being checked: what it may do depends on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Proc(ProcId),
    Fun(FunId),
    Init,
    /// A `param` value, array size or global initialiser: only `param`s and literals.
    Const,
}

struct Scope {
    vars: Vec<(String, LocalId, Span)>,
}

struct Loop {
    breaks: Vec<ir::Pc>,
    continues: Vec<ir::Pc>,
}

/// The state of the walk over one body.
struct Body {
    context: Context,
    scopes: Vec<Scope>,
    code: CodeBuilder,
    loops: Vec<Loop>,
    /// Loop variables of enclosing `for`s: not assignable.
    loop_vars: Vec<LocalId>,
    /// Blocks of this proc after the entry block, in source order.
    blocks: Vec<Block>,
}

impl Body {
    fn new(context: Context) -> Self {
        Body {
            context,
            scopes: vec![Scope { vars: Vec::new() }],
            code: CodeBuilder::default(),
            loops: Vec::new(),
            loop_vars: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn lookup(&self, name: &str) -> Option<(LocalId, Span)> {
        self.scopes.iter().rev().find_map(|s| {
            s.vars
                .iter()
                .rev()
                .find(|(n, _, _)| n == name)
                .map(|(_, id, span)| (*id, *span))
        })
    }

    fn local_ty(&self, id: LocalId) -> Ty {
        self.code.local(id).ty
    }
}

impl Checker {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn not_indexable(&mut self, span: Span, name: &str, ty: String) {
        self.error(
            Diagnostic::error(
                span,
                format!("`{name}` is {}, it cannot be indexed", article(&ty)),
            )
            .with_label("indexed here")
            .with_help("only lists, arrays and maps have elements"),
        );
    }

    /// Globals are off limits in funs and constants.
    fn global_access(&mut self, body: &Body, name: &ast::Ident) -> Option<()> {
        match body.context {
            Context::Fun(f) => {
                let fun = self.out.funs[f as usize].name.clone();
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("fun `{fun}` uses global `{}`", name.name),
                    )
                    .with_label("funs may use only their arguments and locals")
                    .with_help("pass the value as an argument"),
                );
                None
            }
            Context::Const => {
                self.error(
                    Diagnostic::error(name.span, format!("global `{}` in a constant", name.name))
                        .with_label("not known when the program is loaded")
                        .with_help(
                            "constants may use only literals and `param`s declared before them",
                        ),
                );
                None
            }
            Context::Proc(_) | Context::Init => Some(()),
        }
    }

    fn unknown(&mut self, body: &Body, name: &ast::Ident) {
        let locals = body
            .scopes
            .iter()
            .flat_map(|s| &s.vars)
            .map(|(n, _, _)| n.as_str());
        let wanted = |t: Top| match body.context {
            // Funs and constants cannot use globals: suggesting one would lead to the next error.
            Context::Fun(_) | Context::Const => matches!(t, Top::Param(_)),
            Context::Proc(_) | Context::Init => matches!(t, Top::Global(_) | Top::Param(_)),
        };
        let tops = self
            .top
            .iter()
            .filter(|(_, (t, _))| wanted(*t))
            .map(|(n, _)| n.as_str());
        let n = &name.name;
        let help = closest(n, locals.chain(tops)).unwrap_or_else(|| match body.context {
            Context::Fun(_) => {
                format!("declare it first (`int {n} = 0;`) or pass it as a parameter")
            }
            Context::Const => format!("declare it: `param {n} = 0;`"),
            Context::Proc(_) | Context::Init => format!(
                "declare it first: a local `int {n} = 0;` or a global `global int {n} = 0;`"
            ),
        });
        self.error(
            Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                .with_label("not declared")
                .with_help(help),
        );
    }

    /// A "did you mean" for a misspelt top-level name of the wanted kind.
    fn suggest_top(&self, name: &str, wanted: impl Fn(Top) -> bool) -> Option<String> {
        let names = self
            .top
            .iter()
            .filter(|(_, (t, _))| wanted(*t))
            .map(|(n, _)| n.as_str());
        closest(name, names)
    }
}

fn constant(v: Value, span: Span) -> ir::Expr {
    let ty = v.ty();
    ir::Expr {
        kind: ExprKind::Const(v),
        ty,
        span,
    }
}

fn local(id: LocalId, ty: Ty, span: Span) -> ir::Expr {
    ir::Expr {
        kind: ExprKind::Local(id),
        ty,
        span,
    }
}

fn binary(op: BinOp, l: ir::Expr, r: ir::Expr, ty: Ty) -> ir::Expr {
    let span = l.span.to(r.span);
    ir::Expr {
        kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
        ty,
        span,
    }
}

fn end_of(span: Span) -> Span {
    Span::new(span.end.saturating_sub(1), span.end)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn article(ty: &str) -> String {
    match ty {
        "int" => "an int".to_string(),
        other => format!("a {other}"),
    }
}

fn conversion_help(found: Ty, wanted: Ty) -> String {
    match (found, wanted) {
        (Ty::Int, Ty::Bool) => "compare it to get a bool, e.g. `x != 0`".to_string(),
        (Ty::Bool, Ty::Int) => "use a conditional to get an int, e.g. `b ? 1 : 0`".to_string(),
        (Ty::List, Ty::Int) => {
            "take an element with `l[i]` or `head(l)`, or its length with `len(l)`".to_string()
        }
        (Ty::Int, Ty::List) => "make a one-element list with `[x]`".to_string(),
        _ => format!("write an expression of type {wanted}"),
    }
}

/// "did you mean `n`?" for the candidate closest to a misspelt name, if any is close.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|n| (edit_distance(n, name), n))
        .filter(|(d, n)| *d <= 2 && *d < n.chars().count() && *n != name)
        .min()
        .map(|(_, n)| format!("did you mean `{n}`?"))
}

/// Levenshtein distance, for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
