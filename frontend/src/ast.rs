//! The abstract syntax tree of `.ic` programs, exactly as written, with source spans.
//!
//! Nothing here is resolved or typed: the checker (`check.rs`) turns this tree into
//! the executable program of `ir.rs`. The pretty-printer (`pretty.rs`) prints it back.

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

#[derive(Clone, Debug)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Param(ParamDecl),
    Global(GlobalDecl),
    Proc(ProcDecl),
    Fun(FunDecl),
    Init(InitDecl),
}

/// `param N = 6;`
#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

/// `global int[N] a = [..];` and the other global forms.
#[derive(Clone, Debug)]
pub struct GlobalDecl {
    pub ty: TypeExpr,
    pub name: Ident,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    Int,
    Bool,
    List,
    Map,
    /// `int[N]` or `bool[N]`: the element type and the size expression.
    Array(Box<TypeExpr>, Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct ParamSig {
    pub ty: TypeExpr,
    pub name: Ident,
}

/// `proc name(int a) { … }`
#[derive(Clone, Debug)]
pub struct ProcDecl {
    pub name: Ident,
    pub params: Vec<ParamSig>,
    pub body: Block,
    pub span: Span,
}

/// `fun name(int a) -> int { … }`
#[derive(Clone, Debug)]
pub struct FunDecl {
    pub name: Ident,
    pub params: Vec<ParamSig>,
    pub ret: TypeExpr,
    pub body: Block,
    pub span: Span,
}

/// `init { … }`
#[derive(Clone, Debug)]
pub struct InitDecl {
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `int t = e;` (the initialiser may be left out: zero, false or `[]`).
    Local {
        ty: TypeExpr,
        name: Ident,
        init: Option<Expr>,
    },
    /// `x = e;` or `a[i] = e;`
    Assign {
        target: LValue,
        value: Expr,
    },
    If {
        cond: Expr,
        then: Block,
        /// An `else` block; `else if` is an `else` block holding one `if`.
        otherwise: Option<Block>,
    },
    While {
        cond: Expr,
        body: Block,
    },
    /// `for i in lo..hi { … }`
    For {
        var: Ident,
        lo: Expr,
        hi: Expr,
        body: Block,
    },
    Break,
    Continue,
    Spawn {
        proc: Ident,
        args: Vec<Expr>,
    },
    Assert {
        cond: Expr,
        message: Option<String>,
    },
    Await(Expr),
    Yield,
    Return(Option<Expr>),
    /// An expression used as a statement (a call): always refused by the checker.
    Expr(Expr),
    /// A nested `{ … }`.
    Block(Block),
}

/// The left-hand side of an assignment: a variable, or one element of it.
#[derive(Clone, Debug)]
pub struct LValue {
    pub name: Ident,
    pub index: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Var(Ident),
    /// `[e1, e2]`
    List(Vec<Expr>),
    /// `e[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `f(e1, …)`: a builtin or a `fun`.
    Call(Ident, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Concat => "++",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Binding strength, higher binds tighter; the grammar and the printer agree on it.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::Add | BinOp::Sub | BinOp::Concat => 5,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 6,
        }
    }

    /// Comparisons do not chain: `a < b < c` is a syntax error.
    pub fn is_comparison(self) -> bool {
        matches!(self.precedence(), 3 | 4)
    }
}
