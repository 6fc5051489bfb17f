//! `sdpor`: Source-DPOR with source sets and sleep sets (Abdulla et al., POPL'14),
//! exactly the skeleton of [`crate::dpor`] — the black code of Alg. 1 in the CSDPOR
//! paper. With sleep sets it explores one complete execution per Mazurkiewicz trace.

use crate::dpor::{Parts, Reduction};

#[derive(Default)]
pub struct SourceDpor;

impl Reduction for SourceDpor {
    fn name(&self) -> &'static str {
        "sdpor"
    }

    fn parts(&self) -> Parts {
        Parts::SOURCE_DPOR
    }
}
