//! The `.ic` language: parsing, checking, blocks, the interpreter and the `ics.json` format.
//!
//! [`load`] takes source text to a checked [`ir::Program`]; [`interp::Machine`] runs
//! its blocks.

pub mod ast;
pub mod check;
mod code;
pub mod diagnostic;
pub mod interp;
pub mod ir;
pub mod liveness;
pub mod memory;
pub mod parser;
pub mod pretty;
pub mod value;

pub use diagnostic::Diagnostic;

/// Parses and checks a program, with `-D NAME=VALUE` overrides of its `param`s.
pub fn load(source: &str, defines: &[(String, i64)]) -> Result<ir::Program, Vec<Diagnostic>> {
    let ast = parser::parse_program(source).map_err(|d| vec![d])?;
    check::check(&ast, defines)
}
