//! What makes two events dependent.

pub mod constraints;
pub mod footprint;
pub mod future;
pub mod happens_before;
pub mod observers;
pub mod races;
