//! Symbolic terms: what a block computes, as expressions over the values of the
//! state before it runs.
//!
//! Integer terms are kept as linear combinations ([`Lin`]) of opaque integer terms
//! ([`IAtom`]): variables, array and map elements of the initial state, and
//! applications of uninterpreted functions ([`Fun`]) standing for what linear
//! arithmetic cannot express (Def. 7 of the CDPOR paper). Formulas ([`Form`]) are
//! boolean combinations of comparisons `lin <= 0`, `lin == 0` and boolean atoms.
//! The smart constructors fold constants and normalise, so that the same condition
//! reached on two paths is the same value.
//!
//! Coefficients are `i128`: a block's arithmetic on 64-bit values cannot overflow them
//! except through long chains of multiplications, which are then reported as
//! [`TooLarge`] rather than wrapped.

use crate::ir::{FunId, GlobalId, LocalId, Pc, ProcId, MAX_LIST_LEN};
use crate::value::Ty;

pub type Coef = i128;

/// Which process a local belongs to: 0 is the first block of a pair, 1 the second.
pub type Slot = u8;

/// Arithmetic whose coefficients do not fit in `i128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge;

/// A variable of the state before the block(s) run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Var {
    /// A `param` (index into `Program::params`): free, so that constraints hold for
    /// every value the params may be given.
    Param(u32),
    /// A scalar global (int, bool or list) before the run.
    Global(GlobalId),
    /// A local of the process in the slot, before the run.
    Local(Slot, LocalId),
}

/// What an uninterpreted function stands for. Its result sort comes from where the
/// application appears ([`IAtom::App`] is an int, [`Form::BApp`] a bool, …).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fun {
    /// `a * b` with neither side constant (arguments in canonical order).
    Mul,
    /// `a / b`, `a % b` with a divisor that is not a constant.
    Div,
    Mod,
    List(ListOp),
    /// A `fun` that is not inlined (it loops or recurses).
    Call(FunId),
    /// "This call of the fun ends normally" (no assertion or runtime error inside).
    CallOk(FunId),
    /// One output of a loop inside a block, entered at `pc` of the proc's code.
    Loop {
        proc: ProcId,
        pc: Pc,
        out: LoopOut,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ListOp {
    Len,
    Head,
    Tail,
    Append,
    Take,
    Drop,
    Concat,
    /// `l[i]`
    Get,
    /// `l` with element `i` replaced.
    Set,
    /// A list literal of this many elements.
    Lit(usize),
}

impl ListOp {
    pub fn name(self) -> &'static str {
        match self {
            ListOp::Len => "len",
            ListOp::Head => "head",
            ListOp::Tail => "tail",
            ListOp::Append => "append",
            ListOp::Take => "take",
            ListOp::Drop => "drop",
            ListOp::Concat => "concat",
            ListOp::Get => "get",
            ListOp::Set => "set",
            ListOp::Lit(_) => "lit",
        }
    }
}

/// The outputs of an abstracted loop (Def. 7): one function per variable it may
/// modify, plus which exit it takes, what it spawns, and whether it ends normally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LoopOut {
    Global(GlobalId),
    Local(LocalId),
    Exit,
    Spawns,
    Ok,
}

/// An opaque integer term.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IAtom {
    Var(Var),
    /// Element of an array (int elements).
    Select(Box<ArrBase>, Lin),
    /// Value of a map at a key (0 when absent).
    MapGet(Box<MapBase>, Lin),
    /// The length of an array whose size is not a linear expression of the params.
    ArrLen(GlobalId),
    /// `a / c` truncating toward zero, `c` a non-zero constant.
    DivC(Lin, i64),
    /// `a % c` with the sign of `a`, `c` a non-zero constant.
    ModC(Lin, i64),
    App(Fun, Vec<Val>),
}

/// `k + Σ c·t`, terms sorted and with non-zero coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lin {
    pub k: Coef,
    pub terms: Vec<(IAtom, Coef)>,
}

/// A formula over the state before the run.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    True,
    False,
    /// `lin <= 0`
    Le(Lin),
    /// `lin == 0`
    Eq(Lin),
    BVar(Var),
    /// Element of a bool array.
    BSelect(Box<ArrBase>, Lin),
    /// `has(m, k)`
    MapHas(Box<MapBase>, Lin),
    BApp(Fun, Vec<Val>),
    ListEq(ListT, ListT),
    /// Equality of two whole arrays (only used when their bases differ).
    ArrEq(Box<ArrVal>, Box<ArrVal>),
    MapEq(Box<MapVal>, Box<MapVal>),
    Not(Box<Form>),
    And(Vec<Form>),
    Or(Vec<Form>),
    Iff(Box<Form>, Box<Form>),
}

/// A list value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ListT {
    Var(Var),
    App(Fun, Vec<Val>),
    /// Element of an array of lists.
    Select(Box<ArrBase>, Lin),
}

/// The contents of an array before the writes of its log.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArrBase {
    Init(GlobalId),
    App(Fun, Vec<Val>),
}

/// An array: a base and the writes since, oldest first (indices in range).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArrVal {
    pub base: ArrBase,
    pub log: Vec<(Lin, Val)>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MapBase {
    Init(GlobalId),
    App(Fun, Vec<Val>),
}

/// A map: a base and the writes since (key, value), oldest first.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MapVal {
    pub base: MapBase,
    pub log: Vec<(Lin, Lin)>,
}

/// A value of any sort.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Val {
    Int(Lin),
    Bool(Form),
    List(ListT),
    Arr(ArrVal),
    Map(MapVal),
}

impl Val {
    pub fn int(&self) -> &Lin {
        match self {
            Val::Int(l) => l,
            other => unreachable!("the checker let a non-int through as int: {other:?}"),
        }
    }

    pub fn bool(&self) -> &Form {
        match self {
            Val::Bool(f) => f,
            other => unreachable!("the checker let a non-bool through as bool: {other:?}"),
        }
    }

    pub fn list(&self) -> &ListT {
        match self {
            Val::List(l) => l,
            other => unreachable!("the checker let a non-list through as list: {other:?}"),
        }
    }
}

// ------------------------------------------------------------------ linear terms

impl Lin {
    pub fn constant(k: Coef) -> Lin {
        Lin {
            k,
            terms: Vec::new(),
        }
    }

    pub fn atom(a: IAtom) -> Lin {
        Lin {
            k: 0,
            terms: vec![(a, 1)],
        }
    }

    pub fn var(v: Var) -> Lin {
        Lin::atom(IAtom::Var(v))
    }

    pub fn as_const(&self) -> Option<Coef> {
        self.terms.is_empty().then_some(self.k)
    }

    pub fn add(&self, other: &Lin) -> Result<Lin, TooLarge> {
        let k = self.k.checked_add(other.k).ok_or(TooLarge)?;
        let mut terms: Vec<(IAtom, Coef)> =
            Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let pick = match (self.terms.get(i), other.terms.get(j)) {
                (Some(a), Some(b)) => a.0.cmp(&b.0),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match pick {
                std::cmp::Ordering::Less => {
                    terms.push(self.terms[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    terms.push(other.terms[j].clone());
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let c = self.terms[i]
                        .1
                        .checked_add(other.terms[j].1)
                        .ok_or(TooLarge)?;
                    if c != 0 {
                        terms.push((self.terms[i].0.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        Ok(Lin { k, terms })
    }

    pub fn scale(&self, c: Coef) -> Result<Lin, TooLarge> {
        if c == 0 {
            return Ok(Lin::constant(0));
        }
        let k = self.k.checked_mul(c).ok_or(TooLarge)?;
        let terms = self
            .terms
            .iter()
            .map(|(a, x)| x.checked_mul(c).map(|x| (a.clone(), x)).ok_or(TooLarge))
            .collect::<Result<_, _>>()?;
        Ok(Lin { k, terms })
    }

    pub fn neg(&self) -> Result<Lin, TooLarge> {
        self.scale(-1)
    }

    pub fn sub(&self, other: &Lin) -> Result<Lin, TooLarge> {
        self.add(&other.neg()?)
    }

    pub fn add_const(&self, c: Coef) -> Result<Lin, TooLarge> {
        let mut out = self.clone();
        out.k = out.k.checked_add(c).ok_or(TooLarge)?;
        Ok(out)
    }

    fn gcd_of_coefs(&self) -> Coef {
        self.terms.iter().fold(0, |g, (_, c)| gcd(g, c.abs()))
    }
}

/// The smallest value of the language's 64-bit integers.
pub const INT_MIN: Coef = i64::MIN as Coef;
/// The largest value of the language's 64-bit integers.
pub const INT_MAX: Coef = i64::MAX as Coef;

/// The values an integer atom can take in any state, when it is bounded.
///
/// Everything a state holds is a 64-bit value (variables, array and map elements,
/// list elements, what a loop or a fun produced), so such atoms lie in
/// `[INT_MIN, INT_MAX]`; a list's length lies in `[0, MAX_LIST_LEN]`, since every
/// way to make a list longer fails beyond it ([`list_fits`]). The exception is [`Fun::Mul`]: it stands for the
/// mathematical product of its arguments, whose range is exactly what the "no
/// overflow" condition of a multiplication constrains, so it is unbounded here.
pub fn atom_range(a: &IAtom) -> Option<(Coef, Coef)> {
    match a {
        IAtom::App(Fun::Mul, _) => None,
        IAtom::App(Fun::List(ListOp::Len), _) => Some((0, MAX_LIST_LEN as Coef)),
        IAtom::ArrLen(_) => Some((0, crate::ir::MAX_ARRAY_LEN as Coef)),
        IAtom::ModC(_, c) => {
            let m = Coef::from(*c).abs() - 1;
            Some((-m, m))
        }
        IAtom::DivC(x, c) => {
            let (lo, hi) = lin_range(x)?;
            let c = Coef::from(*c);
            let (a, b) = (lo.checked_div(c)?, hi.checked_div(c)?);
            Some((a.min(b), a.max(b)))
        }
        IAtom::Var(_) | IAtom::Select(..) | IAtom::MapGet(..) | IAtom::App(..) => {
            Some((INT_MIN, INT_MAX))
        }
    }
}

/// Bounds of a linear term from the bounds of its atoms ([`atom_range`]); `None`
/// when an atom is unbounded or the bounds do not fit in a [`Coef`].
pub fn lin_range(l: &Lin) -> Option<(Coef, Coef)> {
    let (mut lo, mut hi) = (l.k, l.k);
    for (a, c) in &l.terms {
        let (alo, ahi) = atom_range(a)?;
        let (x, y) = (alo.checked_mul(*c)?, ahi.checked_mul(*c)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// The condition under which a list of length `len`, just made by `++` or
/// `append`, is no longer than the interpreter allows: it raises a runtime error
/// beyond [`MAX_LIST_LEN`] (`interp.rs`). No condition where the bounds of the
/// lengths already guarantee it (a literal); [`Form::False`] where a constant
/// length is beyond.
pub fn list_fits(len: &Lin) -> Result<Vec<Form>, TooLarge> {
    let max = MAX_LIST_LEN as Coef;
    match lin_range(len) {
        Some((_, hi)) if hi <= max => Ok(Vec::new()),
        _ => Ok(vec![Form::le(len.add_const(-max)?)]),
    }
}

/// The conditions under which `r`, the result of one 64-bit operation of the
/// interpreter (`+`, `-`, `*`, unary `-`, `abs`, `/`), does not overflow: the
/// interpreter raises a runtime error outside `[INT_MIN, INT_MAX]` (`interp.rs`,
/// `checked_*`). Sides that the bounds of the atoms already guarantee are left out
/// (`x + 1` only needs `x <= INT_MAX - 1`), so the common case adds one atom, not
/// two. A constant out of range gives [`Form::False`].
pub fn no_overflow(r: &Lin) -> Result<Vec<Form>, TooLarge> {
    let (lo, hi) = lin_range(r).unwrap_or((Coef::MIN, Coef::MAX));
    let mut out = Vec::new();
    if hi > INT_MAX {
        out.push(Form::le(r.add_const(-INT_MAX)?));
    }
    if lo < INT_MIN {
        out.push(Form::le(r.neg()?.add_const(INT_MIN)?));
    }
    Ok(out)
}

pub fn gcd(a: Coef, b: Coef) -> Coef {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

// ------------------------------------------------------------------ formulas

impl Form {
    /// `lin <= 0`, normalised: coefficients divided by their gcd (rounding the
    /// constant so that the integer solutions stay the same).
    pub fn le(lin: Lin) -> Form {
        if let Some(k) = lin.as_const() {
            return Form::from_bool(k <= 0);
        }
        let g = lin.gcd_of_coefs();
        let lin = if g > 1 {
            // Σ g·c'·t + k <= 0  ⇔  Σ c'·t <= floor(-k / g)  ⇔  Σ c'·t + ceil(k / g) <= 0
            Lin {
                k: div_ceil(lin.k, g),
                terms: lin.terms.into_iter().map(|(a, c)| (a, c / g)).collect(),
            }
        } else {
            lin
        };
        Form::Le(lin)
    }

    /// `lin == 0`, normalised: gcd divided out, first coefficient positive.
    pub fn eq(lin: Lin) -> Form {
        if let Some(k) = lin.as_const() {
            return Form::from_bool(k == 0);
        }
        let g = lin.gcd_of_coefs();
        if lin.k % g != 0 {
            return Form::False;
        }
        let sign = if lin.terms[0].1 < 0 { -1 } else { 1 };
        let d = g * sign;
        Form::Eq(Lin {
            k: lin.k / d,
            terms: lin.terms.into_iter().map(|(a, c)| (a, c / d)).collect(),
        })
    }

    /// `a <= b`
    pub fn int_le(a: &Lin, b: &Lin) -> Result<Form, TooLarge> {
        Ok(Form::le(a.sub(b)?))
    }

    /// `a < b`
    pub fn int_lt(a: &Lin, b: &Lin) -> Result<Form, TooLarge> {
        Ok(Form::le(a.sub(b)?.add_const(1)?))
    }

    pub fn int_eq(a: &Lin, b: &Lin) -> Result<Form, TooLarge> {
        Ok(Form::eq(a.sub(b)?))
    }

    pub fn from_bool(b: bool) -> Form {
        if b {
            Form::True
        } else {
            Form::False
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Form::True => Some(true),
            Form::False => Some(false),
            _ => None,
        }
    }

    // A smart constructor like `and`/`or`, not an operator: it simplifies.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Form {
        match self {
            Form::True => Form::False,
            Form::False => Form::True,
            Form::Not(f) => *f,
            f => Form::Not(Box::new(f)),
        }
    }

    pub fn and(items: impl IntoIterator<Item = Form>) -> Form {
        let mut out = Vec::new();
        for f in items {
            match f {
                Form::True => {}
                Form::False => return Form::False,
                Form::And(inner) => out.extend(inner),
                f => out.push(f),
            }
        }
        out.sort();
        out.dedup();
        for f in &out {
            if let Form::Not(g) = f {
                if out.binary_search(g).is_ok() {
                    return Form::False;
                }
            }
        }
        match out.len() {
            0 => Form::True,
            1 => out.pop().unwrap_or(Form::True),
            _ => Form::And(out),
        }
    }

    pub fn or(items: impl IntoIterator<Item = Form>) -> Form {
        let mut out = Vec::new();
        for f in items {
            match f {
                Form::False => {}
                Form::True => return Form::True,
                Form::Or(inner) => out.extend(inner),
                f => out.push(f),
            }
        }
        out.sort();
        out.dedup();
        for f in &out {
            if let Form::Not(g) = f {
                if out.binary_search(g).is_ok() {
                    return Form::True;
                }
            }
        }
        match out.len() {
            0 => Form::False,
            1 => out.pop().unwrap_or(Form::False),
            _ => Form::Or(out),
        }
    }

    pub fn iff(a: Form, b: Form) -> Form {
        if a == b {
            return Form::True;
        }
        match (a.as_bool(), b.as_bool()) {
            (Some(true), _) => b,
            (Some(false), _) => b.not(),
            (_, Some(true)) => a,
            (_, Some(false)) => a.not(),
            _ => {
                if a == b.clone().not() {
                    return Form::False;
                }
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                Form::Iff(Box::new(a), Box::new(b))
            }
        }
    }

    /// The leaf atoms of a formula (comparisons and boolean atoms), each once.
    pub fn atoms(&self, out: &mut Vec<Form>) {
        match self {
            Form::True | Form::False => {}
            Form::Not(f) => f.atoms(out),
            Form::And(fs) | Form::Or(fs) => fs.iter().for_each(|f| f.atoms(out)),
            Form::Iff(a, b) => {
                a.atoms(out);
                b.atoms(out);
            }
            leaf => {
                if !out.contains(leaf) {
                    out.push(leaf.clone());
                }
            }
        }
    }
}

/// Ceiling of `a / b` for `b > 0`.
fn div_ceil(a: Coef, b: Coef) -> Coef {
    let q = a.div_euclid(b);
    if q * b == a {
        q
    } else {
        q + 1
    }
}

/// Equality of two lists: decided structurally for literals of known elements.
pub fn list_eq(a: &ListT, b: &ListT) -> Result<Form, TooLarge> {
    if a == b {
        return Ok(Form::True);
    }
    if let (ListT::App(Fun::List(ListOp::Lit(n)), xs), ListT::App(Fun::List(ListOp::Lit(m)), ys)) =
        (a, b)
    {
        if n != m {
            return Ok(Form::False);
        }
        let mut parts = Vec::new();
        for (x, y) in xs.iter().zip(ys) {
            parts.push(Form::int_eq(x.int(), y.int())?);
        }
        return Ok(Form::and(parts));
    }
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    Ok(Form::ListEq(a.clone(), b.clone()))
}

/// Equality of two values of the same sort.
pub fn val_eq(a: &Val, b: &Val) -> Result<Form, TooLarge> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Form::int_eq(x, y),
        (Val::Bool(x), Val::Bool(y)) => Ok(Form::iff(x.clone(), y.clone())),
        (Val::List(x), Val::List(y)) => list_eq(x, y),
        (Val::Arr(x), Val::Arr(y)) => arr_eq(x, y),
        (Val::Map(x), Val::Map(y)) => map_eq(x, y),
        _ => unreachable!("values of different sorts compared"),
    }
}

/// The cases of reading element `k` of an array: for each write of the log that may
/// be the last one at `k`, the condition and the value, then the base.
pub fn array_read(arr: &ArrVal, k: &Lin, elem: Ty) -> Result<Vec<(Vec<Form>, Val)>, TooLarge> {
    let mut out = Vec::new();
    let mut missed = Vec::new();
    for (idx, v) in arr.log.iter().rev() {
        let hit = Form::int_eq(k, idx)?;
        match hit {
            Form::True => {
                out.push((missed, v.clone()));
                return Ok(out);
            }
            Form::False => {}
            hit => {
                let mut c = missed.clone();
                c.push(hit.clone());
                out.push((c, v.clone()));
                missed.push(hit.not());
            }
        }
    }
    let base = Box::new(arr.base.clone());
    let v = match elem {
        Ty::Int => Val::Int(Lin::atom(IAtom::Select(base, k.clone()))),
        Ty::Bool => Val::Bool(Form::BSelect(base, k.clone())),
        Ty::List => Val::List(ListT::Select(base, k.clone())),
    };
    out.push((missed, v));
    Ok(out)
}

/// The cases of `m[k]` (value) and `has(m, k)`.
pub fn map_read(m: &MapVal, k: &Lin, has: bool) -> Result<Vec<(Vec<Form>, Val)>, TooLarge> {
    let mut out = Vec::new();
    let mut missed = Vec::new();
    for (key, v) in m.log.iter().rev() {
        let value = if has {
            Val::Bool(Form::True)
        } else {
            Val::Int(v.clone())
        };
        match Form::int_eq(k, key)? {
            Form::True => {
                out.push((missed, value));
                return Ok(out);
            }
            Form::False => {}
            hit => {
                let mut c = missed.clone();
                c.push(hit.clone());
                out.push((c, value));
                missed.push(hit.not());
            }
        }
    }
    let base = Box::new(m.base.clone());
    let v = if has {
        Val::Bool(Form::MapHas(base, k.clone()))
    } else {
        Val::Int(Lin::atom(IAtom::MapGet(base, k.clone())))
    };
    out.push((missed, v));
    Ok(out)
}

/// A value read through cases, as one formula `∨ (cond ∧ f(value))`.
fn cases_form(
    cases: Vec<(Vec<Form>, Val)>,
    f: impl Fn(&Val) -> Result<Form, TooLarge>,
) -> Result<Form, TooLarge> {
    let mut out = Vec::new();
    for (c, v) in cases {
        let mut parts = c;
        parts.push(f(&v)?);
        out.push(Form::and(parts));
    }
    Ok(Form::or(out))
}

/// Two arrays are equal when they agree at every index either log wrote (the rest
/// is the base, when the bases are the same).
pub fn arr_eq(a: &ArrVal, b: &ArrVal) -> Result<Form, TooLarge> {
    if a == b {
        return Ok(Form::True);
    }
    if a.base != b.base {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        return Ok(Form::ArrEq(Box::new(a.clone()), Box::new(b.clone())));
    }
    // The bases are the same and the arrays differ: some log holds a write, of the
    // array's element type.
    let elem = match a.log.iter().chain(&b.log).map(|(_, v)| v).next() {
        Some(Val::Int(_)) => Ty::Int,
        Some(Val::Bool(_)) => Ty::Bool,
        Some(Val::List(_)) => Ty::List,
        other => unreachable!("an array element written as {other:?}"),
    };
    let mut keys: Vec<&Lin> = a.log.iter().chain(&b.log).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let mut parts = Vec::new();
    for k in keys {
        let ra = array_read(a, k, elem)?;
        let rb = array_read(b, k, elem)?;
        parts.push(cases_form(ra, |va| {
            cases_form(rb.clone(), |vb| val_eq(va, vb))
        })?);
    }
    Ok(Form::and(parts))
}

pub fn map_eq(a: &MapVal, b: &MapVal) -> Result<Form, TooLarge> {
    if a == b {
        return Ok(Form::True);
    }
    if a.base != b.base {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        return Ok(Form::MapEq(Box::new(a.clone()), Box::new(b.clone())));
    }
    let mut keys: Vec<&Lin> = a.log.iter().chain(&b.log).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let mut parts = Vec::new();
    for k in keys {
        for has in [true, false] {
            let ra = map_read(a, k, has)?;
            let rb = map_read(b, k, has)?;
            parts.push(cases_form(ra, |va| {
                cases_form(rb.clone(), |vb| val_eq(va, vb))
            })?);
        }
    }
    Ok(Form::and(parts))
}
