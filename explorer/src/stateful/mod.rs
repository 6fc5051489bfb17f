//! What the stateful searches share beyond the store of visited states
//! ([`crate::visited`]): safe sets ([`safe_sets`]), the stored transitions of the
//! explored graph ([`graph`], the paper's `L_r`), the cycles closed in it
//! ([`cycles`]), the source sets computed over them ([`source_sets`]), what may follow
//! a finished state ([`summaries`]: the unions of footprints DL-S-POR reads,
//! [`unions`], and the actions DE-S-POR reads, [`reachable`]; what the program text
//! and the processes' locals let follow a state another thread explores,
//! [`may_follow`], and how threads exchange summaries, [`exchange`]), and the search
//! that puts these together ([`search`]) — the parts of seed paper 003's S-POR, DE-S-POR and
//! DL-S-POR (Cirisci, Enea, Farzan, Mutluergil, *A Pragmatic Approach to Stateful
//! Partial Order Reduction*).

pub mod cycles;
pub mod exchange;
pub mod graph;
pub mod may_follow;
pub mod reachable;
pub mod safe_sets;
pub mod search;
pub mod source_sets;
pub mod summaries;
pub mod unions;
