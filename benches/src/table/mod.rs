//! The paper-table harness behind `cargo run --release -p benches --bin table`: each
//! benchmark family at increasing sizes, explored by SDPOR, CSDPOR and CDPOR under
//! static and dynamic dependencies, printed in the shape of the CDPOR paper's Table 1
//! next to the papers' own numbers.

pub mod cyclic;
pub mod families;
pub mod machine;
pub mod markdown;
pub mod measure;
pub mod memory;
pub mod report;
pub mod speedup;
pub mod spin;
pub mod threads;
