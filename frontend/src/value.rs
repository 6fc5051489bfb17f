//! Runtime values. Lists are immutable and shared, so copying one (assignment, a
//! spawn argument, a saved state) is a reference-count increment.

use std::fmt;
use std::sync::Arc;

/// The type of a value (arrays and maps are not values: they exist only as globals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ty {
    Int,
    Bool,
    List,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::List => "list",
        })
    }
}

/// A tag of a word (`repr(u64)`): every value is three aligned words, which are
/// built and copied as words. With a one-byte tag, a `Bool` sat at byte 1, and
/// evaluating an expression or copying a slot took partial stores: `stateful` on
/// filter(4) spent 29% more in the interpreter's `eval` and 10% of its time copying
/// slots, and ran 18% slower. The size is 24 bytes either way, `Option<Value>` too.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u64)]
pub enum Value {
    Int(i64),
    Bool(bool),
    List(Arc<[i64]>),
}

/// Hashes the contents alone, not which variant holds them: wherever values are
/// hashed (a global's slots, a block's live locals, a spawn's arguments, a block's
/// locals as a cache key) each position has one static type (docs/language.md), so the
/// variant tells nothing the position does not, and state fingerprints, which hash
/// every slot and live local at every state, hash one word a value rather than two.
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            Value::Int(i) => h.write_i64(*i),
            Value::Bool(b) => h.write_u8(u8::from(*b)),
            Value::List(l) => l.hash(h),
        }
    }
}

impl Value {
    pub fn zero(ty: Ty) -> Value {
        match ty {
            Ty::Int => Value::Int(0),
            Ty::Bool => Value::Bool(false),
            Ty::List => Value::List(Arc::from(Vec::new())),
        }
    }

    pub fn ty(&self) -> Ty {
        match self {
            Value::Int(_) => Ty::Int,
            Value::Bool(_) => Ty::Bool,
            Value::List(_) => Ty::List,
        }
    }

    /// The integer inside; the checker guarantees the type, so a mismatch is a bug.
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            other => unreachable!("type checker let a {} through as int", other.ty()),
        }
    }

    pub fn bool(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            other => unreachable!("type checker let a {} through as bool", other.ty()),
        }
    }

    pub fn list(&self) -> &Arc<[i64]> {
        match self {
            Value::List(l) => l,
            other => unreachable!("type checker let a {} through as list", other.ty()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, n) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{n}")?;
                }
                f.write_str("]")
            }
        }
    }
}
