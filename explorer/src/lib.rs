//! Exploration of `.ic` programs: states, events, happens-before, the algorithms
//! (each behind [`Algorithm`]), statistics and witnesses.

pub mod algorithms;
pub mod dependency;
pub mod dpor;
pub mod executor;
pub mod exploration;
pub mod fingerprint;
pub mod lasso;
pub mod livelock;
pub mod parallel;
pub mod pid;
pub mod reads_from;
pub mod registry;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod state;
pub mod stateful;
pub mod tree;
pub mod unit;
pub mod visited;

pub use dependency::footprint::Carried;
pub use exploration::{
    explore, explore_with_progress, show_final, Algorithm, Config, Deps, Progress, MAX_DEPTH,
};
pub use report::{Outcome, Pruning, Report, Stats, Stop, Violation, ViolationKind};
pub use tree::{Tree, TreeConfig};
