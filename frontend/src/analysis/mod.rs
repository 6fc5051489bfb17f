//! Static analyses of a checked program: what can be known of its blocks without
//! exploring it. Each file is one analysis; none of them changes the program.
//!
//! Computed by the checker, and kept in the [`crate::ir::Program`] it returns:
//!
//! - [`liveness`]: the locals still read from each block's entry point on
//!   ([`crate::ir::Block::live`]): state comparison looks at those alone.
//! - [`write_sets`]: each block's read and write sets, the globals its guard reads, and
//!   the transitive write set `W(b)` of the CDPOR paper ([`crate::ir::Program::sets`]):
//!   the explorer's guards, static footprints and futures, cdpor's constraints, and
//!   ic-synth's write sets and their recheck read them.
//! - [`overwrites`]: the scalar globals a block surely overwrites before reading them,
//!   and the globals a proc's processes may ever read ([`crate::ir::Block::overwrites`],
//!   [`crate::ir::Proc::reads`]): the explorer's state checks compare states modulo
//!   the values these make dead.
//!
//! Asked for by the explorer:
//!
//! - [`locality`]: which blocks touch locations that depend on the global state, not on
//!   their process's local state alone (`--deps dynamic` gives those their syntactic
//!   footprint).
//! - [`may_touch`]: the transition footprint of a block run from a local state, in any
//!   global state, and where the run may lead (the explorer's footprints per event,
//!   its futures and covered steps; [`local_states`]).
//! - [`local_states`]: the local states each block may start with from a given state,
//!   when the locals alone decide them ([`ranges`]).
//! - [`ranges`]: the reachable ranges of scalar `int` globals within a bound on the
//!   events, by symbolic execution of each block ([`crate::symbolic`]): cdpor's line 9
//!   evaluates constraints over them.

pub mod liveness;
pub mod local_states;
pub mod locality;
pub mod may_touch;
pub mod overwrites;
pub mod ranges;
pub mod write_sets;
