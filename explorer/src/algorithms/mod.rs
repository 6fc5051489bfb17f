//! The algorithms, one module each: `naive` and `stateful`, the references for
//! programs whose executions all end and for those whose state space has cycles, and
//! the DPOR algorithms, each the skeleton of [`crate::dpor`] with the parts and
//! additions of its paper (see [`crate::registry`] for the list users choose from).

pub mod cdpor;
pub mod csdpor;
pub mod despor;
pub mod dlspor;
pub mod naive;
pub mod ocdpor;
pub mod odpor;
pub mod odpor_cs;
pub mod odpor_cs_ob;
pub mod odpor_ob;
pub mod sdpor;
pub mod spor;
pub mod stateful;
