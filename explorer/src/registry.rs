//! The algorithms the toolchain offers, in one list: `ic-check --algo`, the benchmark
//! tables and the tests all choose from [`ALGORITHMS`], so adding an algorithm is one
//! entry here (and its module).

use crate::algorithms::cdpor::Constrained;
use crate::algorithms::csdpor::ContextSensitive;
use crate::algorithms::despor::Despor;
use crate::algorithms::dlspor::Dlspor;
use crate::algorithms::naive::Naive;
use crate::algorithms::ocdpor::OptimalConstrained;
use crate::algorithms::odpor::OptimalDpor;
use crate::algorithms::odpor_cs::OptimalContextSensitive;
use crate::algorithms::odpor_cs_ob::OptimalContextSensitiveObservers;
use crate::algorithms::odpor_ob::OptimalObservers;
use crate::algorithms::sdpor::SourceDpor;
use crate::algorithms::spor::Spor;
use crate::algorithms::stateful::Stateful;
use crate::dpor::Dpor;
use crate::exploration::Algorithm;
use frontend::ics::ResolvedIcs;
use std::sync::Arc;

/// One algorithm: how users name it, what it is, and how to build it.
#[derive(Debug)]
pub struct AlgorithmSpec {
    /// The name `ic-check --algo` takes.
    pub name: &'static str,
    /// The name the papers' tables give it (column headers).
    pub title: &'static str,
    /// One line for `--help` and the docs.
    pub summary: &'static str,
    /// Whether it needs cdpor's independence constraints (`--ics`, or synthesised).
    pub uses_constraints: bool,
    /// Whether `--literal` changes what it does.
    pub has_literal: bool,
    /// Whether `--violations-only` changes what it does (its end observes nothing).
    pub has_violations_only: bool,
    build: Build,
}

/// How an algorithm is made from the options that shape it.
#[derive(Debug)]
enum Build {
    Plain(fn(literal: bool) -> Box<dyn Algorithm>),
    Constrained(fn(ics: Arc<ResolvedIcs>, literal: bool) -> Box<dyn Algorithm>),
}

impl AlgorithmSpec {
    /// The algorithm, with `--literal` when `literal`; `constraints` is asked only of
    /// an algorithm that [`uses_constraints`](Self::uses_constraints).
    pub fn build<E>(
        &self,
        literal: bool,
        constraints: impl FnOnce() -> Result<Arc<ResolvedIcs>, E>,
    ) -> Result<Box<dyn Algorithm>, E> {
        Ok(match self.build {
            Build::Plain(make) => make(literal),
            Build::Constrained(make) => make(constraints()?, literal),
        })
    }
}

impl PartialEq for AlgorithmSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for AlgorithmSpec {}

/// csdpor's state checks, to the letter of the papers or with the commutation of
/// sleeping steps (the default).
fn context(literal: bool) -> ContextSensitive {
    if literal {
        ContextSensitive::literal()
    } else {
        ContextSensitive::new()
    }
}

pub static NAIVE: AlgorithmSpec = AlgorithmSpec {
    name: "naive",
    title: "naive",
    summary: "every interleaving, the reference semantics; counts Mazurkiewicz traces",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Naive::default())),
};

pub static STATEFUL: AlgorithmSpec = AlgorithmSpec {
    name: "stateful",
    title: "stateful",
    summary: "every reachable state once, stored: the reference for programs that loop",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Stateful)),
};

pub static SPOR: AlgorithmSpec = AlgorithmSpec {
    name: "spor",
    title: "S-POR",
    summary: "stateful, each state expanded by one invisible step where there is one (S-POR)",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Spor)),
};

pub static DE_SPOR: AlgorithmSpec = AlgorithmSpec {
    name: "de-spor",
    title: "DE-S-POR",
    summary: "stateful, each state expanded by a source set computed eagerly (DE-S-POR)",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Despor)),
};

pub static DL_SPOR: AlgorithmSpec = AlgorithmSpec {
    name: "dl-spor",
    title: "DL-S-POR",
    summary: "stateful, each state expanded by a source set computed lazily, when the search backs up to it (DL-S-POR)",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Dlspor)),
};

pub static SDPOR: AlgorithmSpec = AlgorithmSpec {
    name: "sdpor",
    title: "SDPOR",
    summary: "Source-DPOR with sleep sets (POPL'14): one execution per Mazurkiewicz trace",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Dpor::new(SourceDpor))),
};

pub static ODPOR: AlgorithmSpec = AlgorithmSpec {
    name: "odpor",
    title: "ODPOR",
    summary: "Optimal-DPOR with wakeup trees (JACM'17): no execution blocked in a sleep set",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: false,
    build: Build::Plain(|_| Box::new(Dpor::new(OptimalDpor))),
};

pub static ODPOR_OB: AlgorithmSpec = AlgorithmSpec {
    name: "odpor-ob",
    title: "ODPOR-OB",
    summary: "Optimal-DPOR with observers (TACAS'18): writes reordered only where a read sees it",
    uses_constraints: false,
    has_literal: false,
    has_violations_only: true,
    build: Build::Plain(|_| Box::new(Dpor::new(OptimalObservers))),
};

pub static ODPOR_CS: AlgorithmSpec = AlgorithmSpec {
    name: "odpor-cs",
    title: "ODPOR_cs",
    summary: "optimal context-sensitive DPOR (ISSTA'19, Alg. 1): odpor plus state checks",
    uses_constraints: false,
    has_literal: true,
    has_violations_only: false,
    build: Build::Plain(|literal| {
        Box::new(Dpor::new(OptimalContextSensitive::new(context(literal))))
    }),
};

pub static ODPOR_CS_OB: AlgorithmSpec = AlgorithmSpec {
    name: "odpor-cs-ob",
    title: "ODPOR_cs-OB",
    summary: "optimal context-sensitive DPOR with observers (ISSTA'19, Alg. 2)",
    uses_constraints: false,
    has_literal: true,
    has_violations_only: true,
    build: Build::Plain(|literal| {
        Box::new(Dpor::new(OptimalContextSensitiveObservers::new(context(
            literal,
        ))))
    }),
};

pub static CSDPOR: AlgorithmSpec = AlgorithmSpec {
    name: "csdpor",
    title: "CSDPOR",
    summary: "context-sensitive DPOR (CAV'17): reversed races checked for state equality",
    uses_constraints: false,
    has_literal: true,
    has_violations_only: false,
    build: Build::Plain(|literal| Box::new(Dpor::new(context(literal)))),
};

pub static CDPOR: AlgorithmSpec = AlgorithmSpec {
    name: "cdpor",
    title: "CDPOR",
    summary: "constrained DPOR (CAV'18): csdpor plus independence constraints from SMT",
    uses_constraints: true,
    has_literal: true,
    has_violations_only: false,
    build: Build::Constrained(|ics, literal| {
        Box::new(Dpor::new(Constrained::new(ics, context(literal))))
    }),
};

pub static OCDPOR: AlgorithmSpec = AlgorithmSpec {
    name: "ocdpor",
    title: "OCDPOR",
    summary: "odpor whose dependency leaves out the pairs cdpor's constraints prove independent",
    uses_constraints: true,
    has_literal: true,
    has_violations_only: false,
    build: Build::Constrained(|ics, literal| {
        if literal {
            Box::new(Dpor::new(OptimalConstrained::new(ics)))
        } else {
            Box::new(Dpor::new(OptimalConstrained::context_sensitive(
                ics,
                context(false),
            )))
        }
    }),
};

/// Every algorithm, the references first, then each before those that refine it.
pub static ALGORITHMS: [&AlgorithmSpec; 13] = [
    &NAIVE,
    &STATEFUL,
    &SPOR,
    &DE_SPOR,
    &DL_SPOR,
    &SDPOR,
    &ODPOR,
    &ODPOR_OB,
    &ODPOR_CS,
    &ODPOR_CS_OB,
    &CSDPOR,
    &CDPOR,
    &OCDPOR,
];

/// The algorithm `ic-check` runs when none is named.
pub static DEFAULT: &AlgorithmSpec = &CDPOR;

/// The algorithm `ic-check` switches to, when none is named, once [`DEFAULT`] finds
/// a state that recurs: the reduced stateful search (`stateful` is its reference).
pub static DEFAULT_CYCLIC: &AlgorithmSpec = &DL_SPOR;

/// The algorithm called `name`.
pub fn named(name: &str) -> Option<&'static AlgorithmSpec> {
    ALGORITHMS.iter().copied().find(|a| a.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_built_algorithms_answer_to_them() {
        let ics = || -> Result<Arc<ResolvedIcs>, ()> { Ok(Arc::new(ResolvedIcs::default())) };
        for (i, spec) in ALGORITHMS.iter().enumerate() {
            assert_eq!(named(spec.name), Some(*spec));
            assert!(ALGORITHMS[..i].iter().all(|other| other.name != spec.name));
            for literal in [false, true] {
                assert_eq!(spec.build(literal, ics).unwrap().name(), spec.name);
            }
        }
        assert_eq!(named("dpor"), None);
    }
}
