//! Exploration of `.ic` programs: states, events, happens-before, the algorithms
//! (each behind [`Algorithm`]), statistics and witnesses.

pub mod cdpor;
pub mod csdpor;
pub mod dpor;
pub mod executor;
pub mod exploration;
pub mod fingerprint;
pub mod footprint;
pub mod future;
pub mod happens_before;
pub mod independence;
pub mod lasso;
pub mod left_out;
pub mod modulo_observers;
pub mod naive;
pub mod observers;
pub mod ocdpor;
pub mod odpor;
pub mod odpor_cs;
pub mod odpor_cs_ob;
pub mod odpor_ob;
pub mod pid;
pub mod race;
pub mod reads_from;
pub mod registry;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod sdpor;
pub mod sleep;
pub mod state;
pub mod tree;
pub mod wakeup_tree;

pub use exploration::{
    explore, explore_with_progress, show_final, Algorithm, Config, Deps, Progress, MAX_DEPTH,
};
pub use report::{Outcome, Pruning, Report, Stats, Stop, Violation, ViolationKind};
pub use tree::{Tree, TreeConfig};
