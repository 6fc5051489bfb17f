//! The pretty-printer against the parser: printing any tree and parsing the text back
//! gives the same tree (spans aside), so printing is a fixpoint after one round. Trees
//! are random (syntactic only: nothing here is meant to pass the checker) or parsed
//! from hand-written programs; a few exact outputs pin the layout and parentheses.

use frontend::ast::*;
use frontend::parser::{parse_expr, parse_program};
use frontend::pretty;
use frontend::value::Value;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

// ------------------------------------------------------------------ comparing trees

/// A tree's `Debug` text with every span blanked out: equal for the same shape.
fn shape(tree: &impl std::fmt::Debug) -> String {
    let text = format!("{tree:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        out.push('_');
        let close = rest[at..].find('}').expect("a span's Debug ends with `}`");
        rest = &rest[at + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Prints, parses back and prints again: the same tree and the same text.
fn check_program(ast: &Program) -> Result<(), TestCaseError> {
    let printed = pretty::program(ast);
    let parsed =
        parse_program(&printed).map_err(|d| TestCaseError::fail(format!("{d:?} in\n{printed}")))?;
    prop_assert_eq!(shape(&parsed), shape(ast), "printed as\n{}", printed);
    prop_assert_eq!(pretty::program(&parsed), printed);
    Ok(())
}

fn check_expr(e: &Expr) -> Result<(), TestCaseError> {
    let printed = pretty::expr(e);
    let parsed =
        parse_expr(&printed).map_err(|d| TestCaseError::fail(format!("{d:?} in {printed}")))?;
    prop_assert_eq!(shape(&parsed), shape(e), "printed as {}", printed);
    prop_assert_eq!(pretty::expr(&parsed), printed);
    Ok(())
}

// ------------------------------------------------------------------ random trees

/// Names that are no keywords; some start like one (`format`, `inner`, `trueish`),
/// some are builtins (the parser does not care).
const NAMES: &[&str] = &[
    "a", "b", "x", "y", "n", "l", "m", "p", "q", "f", "len", "_t", "i1", "inner", "format",
    "trueish",
];

fn at<T>(kind: T) -> (T, Span) {
    (kind, Span::default())
}

fn ident() -> impl Strategy<Value = Ident> {
    prop::sample::select(NAMES).prop_map(|n| Ident {
        name: n.to_string(),
        span: Span::default(),
    })
}

fn mk_expr(kind: ExprKind) -> Expr {
    let (kind, span) = at(kind);
    Expr { kind, span }
}

fn mk_stmt(kind: StmtKind) -> Stmt {
    let (kind, span) = at(kind);
    Stmt { kind, span }
}

fn mk_block(stmts: Vec<Stmt>) -> Block {
    Block {
        stmts,
        span: Span::default(),
    }
}

fn mk_type(kind: TypeKind) -> TypeExpr {
    let (kind, span) = at(kind);
    TypeExpr { kind, span }
}

fn binop() -> impl Strategy<Value = BinOp> {
    prop::sample::select(vec![
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::Concat,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
    ])
}

/// Expressions as the parser builds them: literals are never negative.
fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0i64..20).prop_map(ExprKind::Int),
        (0..=i64::MAX).prop_map(ExprKind::Int),
        any::<bool>().prop_map(ExprKind::Bool),
        ident().prop_map(ExprKind::Var),
        // `x'`: the other block's local in an independence constraint.
        ident().prop_map(|v| ExprKind::Var(Ident {
            name: format!("{}'", v.name),
            ..v
        })),
    ]
    .prop_map(mk_expr);
    leaf.prop_recursive(5, 40, 3, |inner| {
        let boxed = || inner.clone().prop_map(Box::new);
        prop_oneof![
            1 => vec(inner.clone(), 0..3).prop_map(ExprKind::List),
            1 => (boxed(), boxed()).prop_map(|(b, i)| ExprKind::Index(b, i)),
            1 => (ident(), vec(inner.clone(), 0..3)).prop_map(|(f, a)| ExprKind::Call(f, a)),
            2 => (prop_oneof![Just(UnOp::Neg), Just(UnOp::Not)], boxed())
                .prop_map(|(op, e)| ExprKind::Unary(op, e)),
            4 => (binop(), boxed(), boxed()).prop_map(|(op, l, r)| ExprKind::Binary(op, l, r)),
            1 => (boxed(), boxed(), boxed()).prop_map(|(c, a, b)| ExprKind::Cond(c, a, b)),
        ]
        .prop_map(mk_expr)
    })
}

/// A smaller expression for statements and declarations, to keep programs readable.
fn small_expr() -> impl Strategy<Value = Expr> {
    expr().prop_filter("small", |e| pretty::expr(e).len() < 60)
}

fn call() -> impl Strategy<Value = Expr> {
    (ident(), vec(small_expr(), 0..3)).prop_map(|(f, a)| mk_expr(ExprKind::Call(f, a)))
}

fn value_type() -> impl Strategy<Value = TypeExpr> {
    prop::sample::select(vec![
        TypeKind::Int,
        TypeKind::Bool,
        TypeKind::List,
        TypeKind::Map,
    ])
    .prop_map(mk_type)
}

fn global_type() -> impl Strategy<Value = TypeExpr> {
    prop_oneof![
        value_type(),
        (value_type(), small_expr())
            .prop_map(|(t, n)| mk_type(TypeKind::Array(Box::new(t), Box::new(n)))),
    ]
}

/// Assertion messages: anything, with the escaped characters over-represented.
fn message() -> impl Strategy<Value = String> {
    prop_oneof![
        "[\"\\\\\n\t\r a/*]{0,8}",
        vec(any::<char>(), 0..8).prop_map(String::from_iter),
    ]
}

fn simple_stmt() -> impl Strategy<Value = StmtKind> {
    prop_oneof![
        (value_type(), ident(), option::of(small_expr()))
            .prop_map(|(ty, name, init)| StmtKind::Local { ty, name, init }),
        (ident(), option::of(small_expr()), small_expr()).prop_map(|(name, index, value)| {
            let target = LValue {
                name,
                index,
                span: Span::default(),
            };
            StmtKind::Assign { target, value }
        }),
        Just(StmtKind::Break),
        Just(StmtKind::Continue),
        (ident(), vec(small_expr(), 0..3)).prop_map(|(proc, args)| StmtKind::Spawn { proc, args }),
        (small_expr(), option::of(message()))
            .prop_map(|(cond, message)| StmtKind::Assert { cond, message }),
        small_expr().prop_map(StmtKind::Await),
        Just(StmtKind::Yield),
        option::of(small_expr()).prop_map(StmtKind::Return),
        call().prop_map(StmtKind::Expr),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    simple_stmt()
        .prop_map(mk_stmt)
        .prop_recursive(3, 24, 3, |inner| {
            let block = || vec(inner.clone(), 0..3).prop_map(mk_block);
            prop_oneof![
                (small_expr(), block(), option::of(block())).prop_map(|(cond, then, otherwise)| {
                    StmtKind::If {
                        cond,
                        then,
                        otherwise,
                    }
                }),
                // An `else` block of one statement: an `else if` when that is an `if`.
                (small_expr(), block(), inner.clone()).prop_map(|(cond, then, only)| {
                    let otherwise = Some(mk_block(vec![only]));
                    StmtKind::If {
                        cond,
                        then,
                        otherwise,
                    }
                }),
                (small_expr(), block()).prop_map(|(cond, body)| StmtKind::While { cond, body }),
                (ident(), small_expr(), small_expr(), block())
                    .prop_map(|(var, lo, hi, body)| StmtKind::For { var, lo, hi, body }),
                block().prop_map(StmtKind::Block),
            ]
            .prop_map(mk_stmt)
        })
}

fn body() -> impl Strategy<Value = Block> {
    vec(stmt(), 0..4).prop_map(mk_block)
}

fn params() -> impl Strategy<Value = Vec<ParamSig>> {
    vec(
        (value_type(), ident()).prop_map(|(ty, name)| ParamSig { ty, name }),
        0..3,
    )
}

fn item() -> impl Strategy<Value = Item> {
    let span = Span::default();
    prop_oneof![
        (ident(), small_expr()).prop_map(move |(name, value)| Item::Param(ParamDecl {
            name,
            value,
            span
        })),
        (global_type(), ident(), option::of(small_expr())).prop_map(move |(ty, name, init)| {
            Item::Global(GlobalDecl {
                ty,
                name,
                init,
                span,
            })
        }),
        (ident(), params(), body()).prop_map(move |(name, params, body)| Item::Proc(ProcDecl {
            name,
            params,
            body,
            span
        })),
        (ident(), params(), value_type(), body()).prop_map(move |(name, params, ret, body)| {
            Item::Fun(FunDecl {
                name,
                params,
                ret,
                body,
                span,
            })
        }),
        body().prop_map(move |body| Item::Init(InitDecl { body, span })),
    ]
}

fn program() -> impl Strategy<Value = Program> {
    vec(item(), 0..6).prop_map(|items| Program { items })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_programs_round_trip(ast in program()) {
        check_program(&ast)?;
    }

    #[test]
    fn random_expressions_round_trip(e in expr()) {
        check_expr(&e)?;
    }
}

// ------------------------------------------------------------------ hand-written programs

const PROGRAMS: &[&str] = &[
    // docs/language.md's example.
    "// The working example of the CDPOR paper (Fig. 1).
global int x = -2;
global int z = -2;

proc p() { x = x + 1; }
proc q() { if (z >= 0) { z = x; } }
proc r() { x = x + 1; z = z + 1; }

init { spawn p(); spawn q(); spawn r(); }",
    // Every declaration and statement.
    "param N = 6;
global int x = 0; global bool f = false; global int[N] a; global int[3] b = [5, 1, 4];
global list l = [1, 2]; global map m; global bool[N * 2 + 1] c;
fun sum(list l, int acc) -> int {
    if (len(l) == 0) { return acc; } else if (head(l) < 0) { return -1; }
    else { return sum(tail(l), acc + head(l)); }
}
proc worker(int id, list todo) {
    await (f || x > id);
    int i = 0; bool done; list seen = [];
    while (!done) {
        for k in 0..len(todo) { if (k % 2 == 1) { continue; } seen = append(seen, k); }
        i = i + 1; done = i >= N;
        if (i > 100) { break; }
        yield;
    }
    { int local = x; a[id % N] = local; m[id] = has(m, id) ? m[id] + 1 : 1; }
    assert(sum(seen, 0) >= 0, \"sums are \\\"non-negative\\\"\\n\\tsince k >= 0 \\\\o/\");
    assert(x == x);
    return;
}
init { int k = 0; while (k < 3) { spawn worker(k, [k, k + 1] ++ l); k = k + 1; } f = true; }",
    // Nesting that the printer must keep: `else { if … }` stays a braced block.
    "init { if (a) { } else { if (b) { } } if (a) { } else { if (b) { } x = 1; } }",
    // Parentheses that matter, and some that do not.
    "init { x = (a - (b - c)) * -(-y) - ((p ? q : r) ? s : t ? u : v) + (a < b == (c == d));
            y = !(a && b) || !!c; z = (-a)[0] + -a[0] + [1, 2][f(x)] + ((1));
            for i in (a < b ? 0 : 1)..(n == 0 ? 1 : n) { } }",
];

#[test]
fn hand_written_programs_round_trip() {
    for src in PROGRAMS {
        let ast = parse_program(src).unwrap_or_else(|d| panic!("{d:?} in\n{src}"));
        check_program(&ast).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The output of `pretty::program` on the language page's example, exactly.
#[test]
fn layout() {
    let ast = parse_program(PROGRAMS[0]).unwrap();
    assert_eq!(
        pretty::program(&ast),
        "global int x = -2;
global int z = -2;

proc p() {
    x = x + 1;
}

proc q() {
    if (z >= 0) {
        z = x;
    }
}

proc r() {
    x = x + 1;
    z = z + 1;
}

init {
    spawn p();
    spawn q();
    spawn r();
}
"
    );
    let ast = parse_program(
        "proc p(int a, list b) { if (a > 0) { } else if (a < 0) { yield; } else { { } } }
         fun f() -> bool { return true; } param N = 1;",
    )
    .unwrap();
    assert_eq!(
        pretty::program(&ast),
        "proc p(int a, list b) {
    if (a > 0) {} else if (a < 0) {
        yield;
    } else {
        {}
    }
}

fun f() -> bool {
    return true;
}

param N = 1;
"
    );
    assert_eq!(pretty::program(&Program::default()), "");
    let ast = parse_program("global bool[(N + 1) * 2] c;").unwrap();
    let [Item::Global(c)] = ast.items.as_slice() else {
        panic!()
    };
    assert_eq!(pretty::type_expr(&c.ty), "bool[(N + 1) * 2]");
}

#[test]
fn statements_print_on_one_line_each() {
    let src = r#"init { assert(x, "a \"b\" \\ c
"); }"#;
    assert!(parse_program(src).is_err(), "a raw newline ends a string");
    let src = r#"init { int t; assert(x, "a \"b\" \\ c\n	d\t"); await (x); return 1 + 2; }"#;
    let ast = parse_program(src).unwrap();
    let [Item::Init(init)] = ast.items.as_slice() else {
        panic!()
    };
    let printed: Vec<String> = init.body.stmts.iter().map(pretty::stmt).collect();
    assert_eq!(
        printed,
        [
            "int t;",
            r#"assert(x, "a \"b\" \\ c\n\td\t");"#,
            "await (x);",
            "return 1 + 2;",
        ]
    );
}

// ------------------------------------------------------------------ parentheses

/// Parses, then prints: the canonical form of an expression.
fn canonical(src: &str) -> String {
    pretty::expr(&parse_expr(src).unwrap_or_else(|d| panic!("{d:?} in {src}")))
}

#[test]
fn parentheses_only_where_needed() {
    for (src, printed) in [
        ("z >= 0", "z >= 0"),
        ("((z >= 0))", "z >= 0"),
        ("1 + 2 * 3", "1 + 2 * 3"),
        ("(1 + 2) * 3", "(1 + 2) * 3"),
        ("(a - b) - c", "a - b - c"),
        ("a - (b - c)", "a - (b - c)"),
        ("a - (b + c)", "a - (b + c)"),
        ("a + (b - c)", "a + (b - c)"),
        ("(a * b) + (c / d)", "a * b + c / d"),
        ("a * (b % c)", "a * (b % c)"),
        ("l ++ (m ++ n)", "l ++ (m ++ n)"),
        ("(a < b) == (c >= d)", "a < b == c >= d"),
        ("(a == b) == c", "(a == b) == c"),
        ("a != (b == c)", "a != (b == c)"),
        ("(a < b) < c", "(a < b) < c"),
        ("a || (b && c)", "a || b && c"),
        ("(a || b) && c", "(a || b) && c"),
        ("a && (b && c)", "a && (b && c)"),
        ("-(a + b)", "-(a + b)"),
        ("-(-a)", "-(-a)"),
        ("- -a", "-(-a)"),
        ("-(-5)", "-(-5)"),
        ("-(!a)", "-!a"),
        ("!(-a)", "!-a"),
        ("(-a)[0]", "(-a)[0]"),
        ("-(a[0])", "-a[0]"),
        ("(a[0])[1]", "a[0][1]"),
        ("(a + b)[0]", "(a + b)[0]"),
        ("a - -b", "a - -b"),
        ("c ? (a ? b : d) : (e ? f : g)", "c ? a ? b : d : e ? f : g"),
        ("(c ? a : b) ? d : e", "(c ? a : b) ? d : e"),
        ("(c ? a : b) + 1", "(c ? a : b) + 1"),
        ("(a || b) ? 1 : 2", "a || b ? 1 : 2"),
        ("f((a), (b + 1))", "f(a, b + 1)"),
        ("[(c ? 1 : 2), (3)]", "[c ? 1 : 2, 3]"),
        ("a[(c ? 1 : 2)]", "a[c ? 1 : 2]"),
    ] {
        assert_eq!(canonical(src), printed, "{src}");
    }
}

/// Tools build negative literals (the parser never does): they print as negations
/// of literals, with the value they stand for.
#[test]
fn negative_literals() {
    let lit = |n| mk_expr(ExprKind::Int(n));
    let ge = |l, r| {
        mk_expr(ExprKind::Binary(
            BinOp::Ge,
            Box::new(mk_expr(ExprKind::Var(Ident {
                name: l,
                span: Span::default(),
            }))),
            Box::new(r),
        ))
    };
    assert_eq!(pretty::expr(&lit(-5)), "(-5)");
    assert_eq!(pretty::expr(&ge("z".into(), lit(-2))), "z >= (-2)");
    assert_eq!(pretty::expr(&lit(i64::MIN)), "(-9223372036854775807 - 1)");
    assert_eq!(
        pretty::expr(&mk_expr(ExprKind::Unary(UnOp::Neg, Box::new(lit(-1))))),
        "-(-1)"
    );
    for n in [0, 1, -1, -5, 42, i64::MAX, -i64::MAX, i64::MIN] {
        let src = format!("global int g = {}; init {{ }}", pretty::expr(&lit(n)));
        let program = frontend::load(&src, &[]).unwrap_or_else(|d| panic!("{d:?} in {src}"));
        assert_eq!(program.globals[0].init, [Value::Int(n)], "{src}");
    }
}
