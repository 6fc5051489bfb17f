//! Times that may be bounds, and their sums and ratios. A run stopped by the timeout
//! took *at least* its time, so a speed-up over it is only a bound, and which way it
//! points depends on the side of the ratio it is on: the papers print `>x` when the
//! slower baseline timed out; when CDPOR itself timed out the speed-up is at most `x`,
//! and when both did nothing is known.

/// What a number says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    AtLeast,
    AtMost,
    /// No bound (e.g. the ratio of two lower bounds).
    Unknown,
}

impl Bound {
    /// The direction of the bound: 0 exact, +1 at least, -1 at most.
    fn direction(self) -> Option<i8> {
        match self {
            Bound::Exact => Some(0),
            Bound::AtLeast => Some(1),
            Bound::AtMost => Some(-1),
            Bound::Unknown => None,
        }
    }

    fn from_direction(d: Option<i8>) -> Bound {
        match d {
            Some(0) => Bound::Exact,
            Some(1) => Bound::AtLeast,
            Some(-1) => Bound::AtMost,
            _ => Bound::Unknown,
        }
    }

    /// The bound of a result that grows with both operands: the same direction, or
    /// unknown when they disagree.
    fn combine(a: Bound, b: Bound) -> Bound {
        Bound::from_direction(match (a.direction(), b.direction()) {
            (Some(0), d) | (d, Some(0)) => d,
            (Some(x), Some(y)) if x == y => Some(x),
            _ => None,
        })
    }

    /// A denominator's bound turns around: dividing by at least `t` gives at most.
    fn flip(self) -> Bound {
        Bound::from_direction(self.direction().map(|d| -d))
    }
}

/// A number with what it says about the true value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub value: f64,
    pub bound: Bound,
}

impl Value {
    pub fn exact(value: f64) -> Value {
        Value {
            value,
            bound: Bound::Exact,
        }
    }

    pub fn at_least(value: f64) -> Value {
        Value {
            value,
            bound: Bound::AtLeast,
        }
    }

    /// A number known to be wrong as a measure (e.g. the time of a run stopped by a
    /// violation): anything computed from it is unknown.
    pub fn unknown(value: f64) -> Value {
        Value {
            value,
            bound: Bound::Unknown,
        }
    }

    pub fn plus(self, other: Value) -> Value {
        Value {
            value: self.value + other.value,
            bound: Bound::combine(self.bound, other.bound),
        }
    }

    /// `self / other`: the speed-up of the run of time `other` over that of `self`.
    pub fn over(self, other: Value) -> Value {
        Value {
            // Times are measured in nanoseconds, never exactly 0; the guard keeps the
            // result finite anyway.
            value: self.value / other.value.max(1e-9),
            bound: Bound::combine(self.bound, other.bound.flip()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_of_bounds() {
        let g = |a: Value, b: Value| a.over(b).bound;
        assert_eq!(g(Value::exact(7.7), Value::exact(0.03)), Bound::Exact);
        assert_eq!(g(Value::at_least(10.0), Value::exact(0.03)), Bound::AtLeast);
        assert_eq!(g(Value::exact(1.0), Value::at_least(10.0)), Bound::AtMost);
        assert_eq!(
            g(Value::at_least(10.0), Value::at_least(10.0)),
            Bound::Unknown
        );
        assert_eq!(g(Value::unknown(1.0), Value::exact(1.0)), Bound::Unknown);
        let g_smt = Value::at_least(10.0).over(Value::exact(0.5).plus(Value::exact(1.5)));
        assert_eq!(g_smt, Value::at_least(5.0));
        assert_eq!(
            Value::exact(1.0).plus(Value::at_least(10.0)),
            Value::at_least(11.0)
        );
    }
}
