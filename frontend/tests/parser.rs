//! The parser against docs/language.md: every construct parses into the expected tree
//! shape (written as an s-expression, so that a whole tree is asserted at once), with
//! the expected spans, and syntax errors point at the right place.
//!
//! Why one file of this length: one test per construct, in the order of
//! docs/language.md, sharing the s-expression printer at the top.

use frontend::ast::*;
use frontend::parser::{parse_expr, parse_program};
use frontend::Diagnostic;

// ------------------------------------------------------------------ shapes

/// An expression as an s-expression: `(+ 1 (* 2 3))`, `(idx a i)`, `(call f x)`.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Var(v) => v.name.clone(),
        ExprKind::List(items) => format!("[{}]", sxs(items)),
        ExprKind::Index(b, i) => format!("(idx {} {})", sx(b), sx(i)),
        ExprKind::Call(f, args) if args.is_empty() => format!("(call {})", f.name),
        ExprKind::Call(f, args) => format!("(call {} {})", f.name, sxs(args)),
        ExprKind::Unary(UnOp::Neg, e) => format!("(neg {})", sx(e)),
        ExprKind::Unary(UnOp::Not, e) => format!("(not {})", sx(e)),
        ExprKind::Binary(op, l, r) => format!("({} {} {})", op.symbol(), sx(l), sx(r)),
        ExprKind::Cond(c, a, b) => format!("(? {} {} {})", sx(c), sx(a), sx(b)),
    }
}

fn sxs(es: &[Expr]) -> String {
    es.iter().map(sx).collect::<Vec<_>>().join(" ")
}

fn ty(t: &TypeExpr) -> String {
    match &t.kind {
        TypeKind::Int => "int".into(),
        TypeKind::Bool => "bool".into(),
        TypeKind::List => "list".into(),
        TypeKind::Map => "map".into(),
        TypeKind::Array(elem, size) => format!("{}[{}]", ty(elem), sx(size)),
    }
}

fn opt(e: &Option<Expr>) -> String {
    e.as_ref().map_or("-".into(), sx)
}

fn block(b: &Block) -> String {
    let stmts: Vec<String> = b.stmts.iter().map(stmt).collect();
    format!("{{{}}}", stmts.join(" "))
}

fn stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Local { ty: t, name, init } => {
            format!("(local {} {} {})", ty(t), name.name, opt(init))
        }
        StmtKind::Assign { target, value } => match &target.index {
            None => format!("(set {} {})", target.name.name, sx(value)),
            Some(i) => format!("(set {}[{}] {})", target.name.name, sx(i), sx(value)),
        },
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => match otherwise {
            None => format!("(if {} {})", sx(cond), block(then)),
            Some(o) => format!("(if {} {} {})", sx(cond), block(then), block(o)),
        },
        StmtKind::While { cond, body } => format!("(while {} {})", sx(cond), block(body)),
        StmtKind::For { var, lo, hi, body } => {
            format!("(for {} {} {} {})", var.name, sx(lo), sx(hi), block(body))
        }
        StmtKind::Break => "break".into(),
        StmtKind::Continue => "continue".into(),
        StmtKind::Spawn { proc, args } => format!("(spawn {} [{}])", proc.name, sxs(args)),
        StmtKind::Assert { cond, message } => match message {
            None => format!("(assert {})", sx(cond)),
            Some(m) => format!("(assert {} {m:?})", sx(cond)),
        },
        StmtKind::Await(c) => format!("(await {})", sx(c)),
        StmtKind::Yield => "yield".into(),
        StmtKind::Return(e) => format!("(return {})", opt(e)),
        StmtKind::Expr(e) => format!("(expr {})", sx(e)),
        StmtKind::Block(b) => block(b),
    }
}

fn params(ps: &[ParamSig]) -> String {
    let ps: Vec<String> = ps
        .iter()
        .map(|p| format!("{} {}", ty(&p.ty), p.name.name))
        .collect();
    format!("({})", ps.join(", "))
}

fn item(i: &Item) -> String {
    match i {
        Item::Param(p) => format!("(param {} {})", p.name.name, sx(&p.value)),
        Item::Global(g) => format!("(global {} {} {})", ty(&g.ty), g.name.name, opt(&g.init)),
        Item::Proc(p) => format!(
            "(proc {} {} {})",
            p.name.name,
            params(&p.params),
            block(&p.body)
        ),
        Item::Fun(f) => format!(
            "(fun {} {} {} {})",
            f.name.name,
            params(&f.params),
            ty(&f.ret),
            block(&f.body)
        ),
        Item::Init(i) => format!("(init {})", block(&i.body)),
    }
}

// ------------------------------------------------------------------ helpers

fn program(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|d| panic!("{src:?} does not parse: {d:?}"))
}

fn items(src: &str) -> Vec<String> {
    program(src).items.iter().map(item).collect()
}

/// The statements of `init { <src> }`.
fn stmts(src: &str) -> Vec<String> {
    let p = program(&format!("init {{\n{src}\n}}"));
    let [Item::Init(init)] = p.items.as_slice() else {
        panic!("one init expected")
    };
    init.body.stmts.iter().map(stmt).collect()
}

fn e(src: &str) -> String {
    sx(&parse_expr(src).unwrap_or_else(|d| panic!("{src:?} does not parse: {d:?}")))
}

fn expr_error(src: &str) -> Diagnostic {
    match parse_expr(src) {
        Ok(e) => panic!("{src:?} parsed as {}", sx(&e)),
        Err(d) => d,
    }
}

fn program_error(src: &str) -> Diagnostic {
    match parse_program(src) {
        Ok(p) => panic!(
            "{src:?} parsed as {:?}",
            p.items.iter().map(item).collect::<Vec<_>>()
        ),
        Err(d) => d,
    }
}

/// The text a diagnostic points at.
fn pointed<'s>(src: &'s str, d: &Diagnostic) -> &'s str {
    let span = d.span.expect("a syntax error has a span");
    &src[span.start..span.end]
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

// ------------------------------------------------------------------ declarations

#[test]
fn declarations_of_every_form() {
    let src = "
        param N = 6;
        global int x = 0;
        global int y;
        global bool f = false;
        global bool g;
        global int[N] a;
        global int[3] b = [5, 1, 4];
        global bool[N + 1] c;
        global list l = [1, 2];
        global list e;
        global map m;
        proc p() { }
        proc q(int a, list b, bool c) { }
        fun sum(list l, int acc) -> int { return acc; }
        fun nothing() -> bool { }
        init { }
    ";
    assert_eq!(
        items(src),
        [
            "(param N 6)",
            "(global int x 0)",
            "(global int y -)",
            "(global bool f false)",
            "(global bool g -)",
            "(global int[N] a -)",
            "(global int[3] b [5 1 4])",
            "(global bool[(+ N 1)] c -)",
            "(global list l [1 2])",
            "(global list e -)",
            "(global map m -)",
            "(proc p () {})",
            "(proc q (int a, list b, bool c) {})",
            "(fun sum (list l, int acc) int {(return acc)})",
            "(fun nothing () bool {})",
            "(init {})",
        ]
    );
}

#[test]
fn declarations_in_any_order_and_empty_program() {
    assert_eq!(items(""), Vec::<String>::new());
    assert_eq!(items("  // nothing\n"), Vec::<String>::new());
    assert_eq!(
        items("init { } proc p() { } param K = 2; global map m;"),
        [
            "(init {})",
            "(proc p () {})",
            "(param K 2)",
            "(global map m -)"
        ]
    );
}

#[test]
fn declaration_spans() {
    let src =
        "param N = 6;\nglobal int[N] a = [1];\nproc p(int x) { }\nfun f() -> int { }\ninit { }";
    let p = program(src);
    let text = |s: Span| &src[s.start..s.end];
    let [Item::Param(n), Item::Global(a), Item::Proc(pr), Item::Fun(f), Item::Init(i)] =
        p.items.as_slice()
    else {
        panic!("five items expected")
    };
    assert_eq!(n.span, span(0, 12));
    assert_eq!(text(n.name.span), "N");
    assert_eq!(text(n.value.span), "6");
    assert_eq!(text(a.span), "global int[N] a = [1];");
    assert_eq!(text(a.ty.span), "int[N]");
    let TypeKind::Array(elem, size) = &a.ty.kind else {
        panic!("an array type expected")
    };
    assert_eq!(text(elem.span), "int");
    assert_eq!(text(size.span), "N");
    assert_eq!(text(a.name.span), "a");
    assert_eq!(text(a.init.as_ref().unwrap().span), "[1]");
    assert_eq!(text(pr.span), "proc p(int x) { }");
    assert_eq!(text(pr.params[0].ty.span), "int");
    assert_eq!(text(pr.params[0].name.span), "x");
    assert_eq!(text(pr.body.span), "{ }");
    assert_eq!(text(f.span), "fun f() -> int { }");
    assert_eq!(text(f.ret.span), "int");
    assert_eq!(text(i.span), "init { }");
    assert_eq!(text(i.body.span), "{ }");
}

// ------------------------------------------------------------------ statements

#[test]
fn local_declarations() {
    assert_eq!(
        stmts("int t = 1; int u; bool b = true; bool c; list l = [x]; list k;"),
        [
            "(local int t 1)",
            "(local int u -)",
            "(local bool b true)",
            "(local bool c -)",
            "(local list l [x])",
            "(local list k -)",
        ]
    );
}

#[test]
fn assignments() {
    assert_eq!(
        stmts("x = e; a[i] = e; m[k + 1] = -1; l[0] = l[1];"),
        [
            "(set x e)",
            "(set a[i] e)",
            "(set m[(+ k 1)] (neg 1))",
            "(set l[0] (idx l 1))",
        ]
    );
}

#[test]
fn if_else_and_else_if() {
    assert_eq!(
        stmts(
            "if (c) { x = 1; }
             if (c) { } else { y = 2; }
             if (a) { } else if (b) { } else { z = 3; }
             if (a) { } else if (b) { }"
        ),
        [
            "(if c {(set x 1)})",
            "(if c {} {(set y 2)})",
            "(if a {} {(if b {} {(set z 3)})})",
            "(if a {} {(if b {})})",
        ]
    );
}

/// `else if` is an `else` block holding one `if` with the block's own span; braces
/// written out give the block the span of the braces.
#[test]
fn else_if_encoding_spans() {
    let src = "init { if (a) { } else if (b) { } else { } if (a) { } else { if (b) { } } }";
    let p = program(src);
    let [Item::Init(init)] = p.items.as_slice() else {
        panic!()
    };
    let text = |s: Span| &src[s.start..s.end];
    let [first, second] = init.body.stmts.as_slice() else {
        panic!("two statements expected")
    };
    let StmtKind::If {
        otherwise: Some(o), ..
    } = &first.kind
    else {
        panic!()
    };
    assert_eq!(o.stmts.len(), 1);
    assert_eq!(o.stmts[0].span, o.span);
    assert_eq!(text(o.span), "if (b) { } else { }");
    assert_eq!(text(first.span), "if (a) { } else if (b) { } else { }");

    let StmtKind::If {
        otherwise: Some(o), ..
    } = &second.kind
    else {
        panic!()
    };
    assert_eq!(text(o.span), "{ if (b) { } }");
    assert_eq!(text(o.stmts[0].span), "if (b) { }");
}

#[test]
fn loops() {
    assert_eq!(
        stmts(
            "while (i < n) { i = i + 1; }
             for i in 0..n { break; continue; }
             for j in -1..n + 1 { }
             for k in lo * 2..f(hi) - 1 { }
             for i in (a < b ? 1 : 2)..3 { }"
        ),
        [
            "(while (< i n) {(set i (+ i 1))})",
            "(for i 0 n {break continue})",
            "(for j (neg 1) (+ n 1) {})",
            "(for k (* lo 2) (- (call f hi) 1) {})",
            "(for i (? (< a b) 1 2) 3 {})",
        ]
    );
}

#[test]
fn for_bounds_are_additive() {
    // A comparison as a bound must be parenthesised.
    let src = "init { for i in 0..a < b { } }";
    let d = program_error(src);
    assert_eq!(pointed(src, &d), "<");
}

#[test]
fn process_statements() {
    assert_eq!(
        stmts(
            "spawn p(); spawn q(1, x + 1, [2]);
             assert(x > 0); assert(x > 0, \"x is positive\");
             await (x == 1); yield; return; return x * 2;
             f(x); g();"
        ),
        [
            "(spawn p [])",
            "(spawn q [1 (+ x 1) [2]])",
            "(assert (> x 0))",
            "(assert (> x 0) \"x is positive\")",
            "(await (== x 1))",
            "yield",
            "(return -)",
            "(return (* x 2))",
            "(expr (call f x))",
            "(expr (call g))",
        ]
    );
}

#[test]
fn assert_message_escapes() {
    assert_eq!(
        stmts(r#"assert(false, "a \"q\" \\ b\n\tc // not /* a comment */");"#),
        [r#"(assert false "a \"q\" \\ b\n\tc // not /* a comment */")"#]
    );
    assert_eq!(stmts(r#"assert(false, "");"#), [r#"(assert false "")"#]);
}

#[test]
fn nested_blocks() {
    assert_eq!(
        stmts("{ } { int x = 1; { x = 2; } } while (true) { { yield; } }"),
        [
            "{}",
            "{(local int x 1) {(set x 2)}}",
            "(while true {{yield}})",
        ]
    );
}

#[test]
fn statement_spans() {
    let src = "init { int t = 1; a[i] = 2; assert(c, \"m\"); return; { } }";
    let p = program(src);
    let [Item::Init(init)] = p.items.as_slice() else {
        panic!()
    };
    let text = |s: Span| &src[s.start..s.end];
    let spans: Vec<&str> = init.body.stmts.iter().map(|s| text(s.span)).collect();
    assert_eq!(
        spans,
        [
            "int t = 1;",
            "a[i] = 2;",
            "assert(c, \"m\");",
            "return;",
            "{ }"
        ]
    );
    let StmtKind::Assign { target, value } = &init.body.stmts[1].kind else {
        panic!()
    };
    assert_eq!(text(target.span), "a[i]");
    assert_eq!(text(target.name.span), "a");
    assert_eq!(text(value.span), "2");
}

#[test]
fn whole_example_of_the_language_page() {
    let src = "
        // The working example of the CDPOR paper (Fig. 1).
        global int x = -2;
        global int z = -2;

        proc p() { x = x + 1; }
        proc q() { if (z >= 0) { z = x; } }
        proc r() { x = x + 1; z = z + 1; }

        init { spawn p(); spawn q(); spawn r(); }
    ";
    assert_eq!(
        items(src),
        [
            "(global int x (neg 2))",
            "(global int z (neg 2))",
            "(proc p () {(set x (+ x 1))})",
            "(proc q () {(if (>= z 0) {(set z x)})})",
            "(proc r () {(set x (+ x 1)) (set z (+ z 1))})",
            "(init {(spawn p []) (spawn q []) (spawn r [])})",
        ]
    );
}

// ------------------------------------------------------------------ expressions

#[test]
fn literals_and_names() {
    assert_eq!(e("0"), "0");
    assert_eq!(e("42"), "42");
    assert_eq!(e("9223372036854775807"), "9223372036854775807");
    assert_eq!(e("007"), "7");
    assert_eq!(e("true"), "true");
    assert_eq!(e("false"), "false");
    assert_eq!(e("x"), "x");
    assert_eq!(e("_a_1"), "_a_1");
    // Names that start with a keyword are names.
    assert_eq!(
        e("integer + format + iff + trueish"),
        "(+ (+ (+ integer format) iff) trueish)"
    );
}

#[test]
fn list_literals() {
    assert_eq!(e("[]"), "[]");
    assert_eq!(e("[1]"), "[1]");
    assert_eq!(e("[1, 2, x + 1]"), "[1 2 (+ x 1)]");
    assert_eq!(e("[[1], []]"), "[[1] []]");
    // The grammar's comma lists accept a trailing comma.
    assert_eq!(e("[1, 2,]"), "[1 2]");
}

#[test]
fn indexing_and_calls() {
    assert_eq!(e("a[i]"), "(idx a i)");
    assert_eq!(e("a[i][j + 1]"), "(idx (idx a i) (+ j 1))");
    assert_eq!(e("f()"), "(call f)");
    assert_eq!(e("f(x)[0]"), "(idx (call f x) 0)");
    assert_eq!(e("[1, 2][0]"), "(idx [1 2] 0)");
    assert_eq!(e("len(l)"), "(call len l)");
    assert_eq!(
        e("append(tail(l), head(l))"),
        "(call append (call tail l) (call head l))"
    );
    assert_eq!(
        e("take(l, 2) ++ drop(l, 3)"),
        "(++ (call take l 2) (call drop l 3))"
    );
    assert_eq!(
        e("has(m, k) && min(a, b) < max(a, abs(b))"),
        "(&& (call has m k) (< (call min a b) (call max a (call abs b))))"
    );
    assert_eq!(e("-a[i]"), "(neg (idx a i))");
    assert_eq!(e("(-a)[i]"), "(idx (neg a) i)");
}

#[test]
fn unary_operators() {
    assert_eq!(e("-x"), "(neg x)");
    assert_eq!(e("-5"), "(neg 5)");
    assert_eq!(e("!b"), "(not b)");
    assert_eq!(e("- -x"), "(neg (neg x))");
    assert_eq!(e("--x"), "(neg (neg x))");
    assert_eq!(e("!!b"), "(not (not b))");
    assert_eq!(e("-!x"), "(neg (not x))");
    assert_eq!(e("-x * y"), "(* (neg x) y)");
    assert_eq!(e("!a && b"), "(&& (not a) b)");
    // The magnitude of i64::MIN is no literal.
    assert_eq!(
        e("-9223372036854775807 - 1"),
        "(- (neg 9223372036854775807) 1)"
    );
}

#[test]
fn every_binary_operator() {
    for op in [
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
    ] {
        let src = format!("a {} b", op.symbol());
        let parsed = parse_expr(&src).unwrap();
        let ExprKind::Binary(got, l, r) = &parsed.kind else {
            panic!("{src}: not a binary expression")
        };
        assert_eq!(*got, op, "{src}");
        assert_eq!(
            (l.span, r.span, parsed.span),
            (
                span(0, 1),
                span(src.len() - 1, src.len()),
                span(0, src.len())
            )
        );
        // Without spaces, too.
        assert_eq!(
            e(&format!("a{}b", op.symbol())),
            format!("({} a b)", op.symbol())
        );
    }
}

#[test]
fn precedence() {
    assert_eq!(e("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(e("1 * 2 + 3"), "(+ (* 1 2) 3)");
    assert_eq!(e("(1 + 2) * 3"), "(* (+ 1 2) 3)");
    assert_eq!(e("a || b && c"), "(|| a (&& b c))");
    assert_eq!(e("a && b || c"), "(|| (&& a b) c)");
    assert_eq!(e("a == b && c != d"), "(&& (== a b) (!= c d))");
    assert_eq!(e("a < b == c >= d"), "(== (< a b) (>= c d))");
    assert_eq!(e("a + 1 <= b * 2"), "(<= (+ a 1) (* b 2))");
    assert_eq!(e("x % 2 == 0"), "(== (% x 2) 0)");
    assert_eq!(e("l ++ m"), "(++ l m)");
    assert_eq!(e("l ++ [1] ++ m"), "(++ (++ l [1]) m)");
    assert_eq!(e("a + b ++ c - d"), "(- (++ (+ a b) c) d)");
    assert_eq!(e("a / b * c % d"), "(% (* (/ a b) c) d)");
}

#[test]
fn left_associativity() {
    assert_eq!(e("a - b - c"), "(- (- a b) c)");
    assert_eq!(e("a - (b - c)"), "(- a (- b c))");
    assert_eq!(e("a / b / c"), "(/ (/ a b) c)");
    assert_eq!(e("a || b || c"), "(|| (|| a b) c)");
    assert_eq!(e("a && b && c"), "(&& (&& a b) c)");
}

#[test]
fn ternary() {
    assert_eq!(e("c ? a : b"), "(? c a b)");
    assert_eq!(e("a || b ? 1 : 2"), "(? (|| a b) 1 2)");
    assert_eq!(e("x < 0 ? -x : x"), "(? (< x 0) (neg x) x)");
    // Right-associative, and the middle operand is a whole expression.
    assert_eq!(e("a ? b : c ? d : e"), "(? a b (? c d e))");
    assert_eq!(e("a ? b ? c : d : e"), "(? a (? b c d) e)");
    assert_eq!(e("(a ? b : c) ? d : e"), "(? (? a b c) d e)");
    assert_eq!(e("(c ? 1 : 2) + 3"), "(+ (? c 1 2) 3)");
    assert_eq!(e("c ? 1 : 2 + 3"), "(? c 1 (+ 2 3))");
}

#[test]
fn expression_spans() {
    let src = "1 + 2 * 3";
    let parsed = parse_expr(src).unwrap();
    let ExprKind::Binary(_, l, r) = &parsed.kind else {
        panic!()
    };
    assert_eq!(
        (parsed.span, l.span, r.span),
        (span(0, 9), span(0, 1), span(4, 9))
    );

    let src = "c ? f(x, y) : -a[i]";
    let parsed = parse_expr(src).unwrap();
    let ExprKind::Cond(c, a, b) = &parsed.kind else {
        panic!()
    };
    assert_eq!(parsed.span, span(0, src.len()));
    assert_eq!(c.span, span(0, 1));
    assert_eq!(&src[a.span.start..a.span.end], "f(x, y)");
    assert_eq!(&src[b.span.start..b.span.end], "-a[i]");
    let ExprKind::Unary(UnOp::Neg, inner) = &b.kind else {
        panic!()
    };
    assert_eq!(&src[inner.span.start..inner.span.end], "a[i]");

    // Parentheses make no node: the span is that of the inner expression.
    assert_eq!(parse_expr(" (a + b) ").unwrap().span, span(2, 7));
}

#[test]
fn comments() {
    assert_eq!(e("1 + /* two */ 2"), "(+ 1 2)");
    assert_eq!(e("1 /**/ + /***/ 2 /* a * b / c **/"), "(+ 1 2)");
    assert_eq!(e("1 /* over\n lines */ + 2 // to the end"), "(+ 1 2)");
    assert_eq!(e("/*/ still a comment */ x"), "x");
    let src = "// a comment\nparam N = 1; // another\n/* block\n comment */ global int x; // last line, no newline";
    assert_eq!(items(src), ["(param N 1)", "(global int x -)"]);
    // A comment is not a string, a string is not a comment.
    assert_eq!(
        stmts("assert(x, \"/* not a comment\"); // \" not a string"),
        ["(assert x \"/* not a comment\")"]
    );
}

// ------------------------------------------------------------------ syntax errors

#[test]
fn comparisons_do_not_chain() {
    let d = expr_error("a < b < c");
    assert_eq!(d.message, "unexpected `<`");
    assert_eq!(d.span, Some(span(6, 7)));
    let d = expr_error("a == b != c");
    assert_eq!(d.message, "unexpected `!=`");
    assert_eq!(d.span, Some(span(7, 9)));
    let d = expr_error("a <= b > c");
    assert_eq!(d.span, Some(span(7, 8)));
}

#[test]
fn missing_semicolon() {
    let src = "proc p() { x = 1 }";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected `}`");
    assert_eq!(d.span, Some(span(17, 18)));

    let src = "init { x = 1\n y = 2; }";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected `y`");
    assert_eq!(pointed(src, &d), "y");

    let src = "param N = 1 global int x;";
    assert_eq!(pointed(src, &program_error(src)), "global");
}

#[test]
fn unknown_character() {
    let src = "init { x = 1 @ 2; }";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected character");
    assert_eq!(d.span, Some(span(13, 14)));
    assert_eq!(d.label, "not part of the language");
    // A character of several bytes is pointed at whole.
    let src = "init { x = é; }";
    let d = program_error(src);
    assert_eq!(pointed(src, &d), "é");
    for c in ["#", "$", "&", "|", "'", "\\", "~", "^", ".", ":"] {
        let src = format!("init {{ x = 1 {c} 2; }}");
        let d = program_error(&src);
        assert_eq!(pointed(&src, &d), c, "{src}");
    }
}

#[test]
fn integer_literal_too_large() {
    let src = "init { x = 1 + 9223372036854775808; }";
    let d = program_error(src);
    assert_eq!(d.message, "integer literal too large");
    assert_eq!(pointed(src, &d), "9223372036854775808");
    assert_eq!(d.label, "does not fit in 64 bits");
    // `-9223372036854775808` is a negation of a literal that does not fit.
    let d = expr_error("-9223372036854775808");
    assert_eq!(d.span, Some(span(1, 20)));
    let d = expr_error("123456789012345678901234567890");
    assert_eq!(d.span, Some(span(0, 30)));
}

#[test]
fn unterminated_comment() {
    let src = "init { }\n/* never closed\n";
    let d = program_error(src);
    assert_eq!(d.message, "unterminated comment");
    assert_eq!(d.span, Some(span(9, 11)));
    assert_eq!(d.help.as_deref(), Some("end it with `*/`"));
    // After an operator the lexer would complain about the `*`.
    let src = "init { x = a /* b; }";
    let d = program_error(src);
    assert_eq!(d.message, "unterminated comment");
    assert_eq!(pointed(src, &d), "/*");
    assert_eq!(expr_error("/*/").span, Some(span(0, 2)));
    assert_eq!(expr_error("1 /* */ /* ").span, Some(span(8, 10)));
    // An error before the comment is reported as such.
    let src = "init { x = ; } /*";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected `;`");
    // `/*` inside a string or a line comment opens nothing.
    let src = "init { assert(x, \"/*\") } // /*";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected `}`");
}

#[test]
fn unterminated_string() {
    let src = "init { assert(x, \"abc); }";
    let d = program_error(src);
    assert_eq!(d.message, "unterminated string");
    assert_eq!(d.span, Some(span(17, 18)));
    let src = "init { assert(x, \"a\nb\"); }";
    assert_eq!(program_error(src).message, "unterminated string");
}

#[test]
fn bad_escape() {
    let src = r#"init { assert(x, "a\qb"); }"#;
    let d = program_error(src);
    assert_eq!(d.message, "unknown escape in string");
    assert_eq!(pointed(src, &d), r#""a\qb""#);
}

#[test]
fn unexpected_end_of_file() {
    let src = "proc p() {";
    let d = program_error(src);
    assert_eq!(d.message, "unexpected end of file");
    assert_eq!(d.span, Some(span(10, 10)));
    let d = expr_error("1 +");
    assert_eq!(d.span, Some(span(3, 3)));
    let d = expr_error("");
    assert_eq!(d.span, Some(span(0, 0)));
}

#[test]
fn keywords_are_reserved() {
    for kw in [
        "param", "global", "proc", "fun", "init", "int", "bool", "list", "map", "if", "else",
        "while", "for", "in", "break", "continue", "spawn", "assert", "await", "yield", "return",
        "true", "false",
    ] {
        let src = format!("global int {kw};");
        let d = program_error(&src);
        assert_eq!(d.message, format!("unexpected `{kw}`"));
        assert_eq!(d.span, Some(span(11, 11 + kw.len())), "{src}");
    }
}

#[test]
fn misplaced_constructs() {
    // Statements outside a body, expressions as statements other than calls,
    // local arrays, a ternary condition without parentheses.
    for (src, at) in [
        ("x = 1;", "x"),
        ("init { x; }", ";"),
        ("init { 1 + f(); }", "1"),
        ("init { int[3] a; }", "["),
        ("proc p() -> int { }", "->"),
        ("fun f() { }", "{"),
        ("init { spawn p; }", ";"),
        ("init { await x; }", "x"),
        ("init { if x { } }", "x"),
        ("init { else { } }", "else"),
        ("init { for (i in 0..3) { } }", "("),
    ] {
        let d = program_error(src);
        assert_eq!(pointed(src, &d), at, "{src}: {d:?}");
    }
    let d = expr_error("a ? b ? c : d");
    assert_eq!(d.message, "unexpected end of file");
}
