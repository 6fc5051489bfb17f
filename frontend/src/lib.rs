//! The `.ic` language: parsing, checking, blocks, the interpreter and the `ics.json` format.
//!
//! [`load`] takes source text to a checked [`ir::Program`]; [`interp::Machine`] runs
//! its blocks. [`analysis`] holds what is known of a program statically, [`symbolic`]
//! the symbolic execution of its blocks for the SMT queries.

pub mod analysis;
pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod ics;
pub mod interp;
pub mod ir;
pub mod map;
pub mod memory;
pub mod parser;
pub mod pretty;
pub mod symbolic;
pub mod value;

pub use diagnostic::Diagnostic;

/// Parses and checks a program, with `-D NAME=VALUE` overrides of its `param`s.
///
/// The checker recurses on the program's nesting, so it runs [`on_large_stack`]:
/// deeply nested input gets its diagnostics instead of overflowing the caller's stack
/// (a test thread has 2 MiB).
pub fn load(source: &str, defines: &[(String, i64)]) -> Result<ir::Program, Vec<Diagnostic>> {
    on_large_stack(|| {
        let ast = parser::parse_program(source).map_err(|d| vec![d])?;
        check::check(&ast, defines)
    })
    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Runs `f` on a thread with a large stack (virtual memory: pages are touched only as
/// deep as the recursion goes), or on this one if no thread can be started. `Err`
/// carries a panic of `f`.
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::thread::Result<T> {
    let job = std::sync::Mutex::new(Some(f));
    let run = || job.lock().ok().and_then(|mut j| j.take()).map(|f| f());
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .stack_size(LARGE_STACK)
            .spawn_scoped(scope, run)
        {
            Ok(handle) => handle.join(),
            Err(_) => Ok(run()),
        }
    })
    .map(|done| done.expect("the job runs exactly once"))
}

/// Parses a command-line `-D NAME=VALUE` (a `param` override) as the CLIs take it.
pub fn parse_define(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{value}` is not a 64-bit integer"))?;
    Ok((name.trim().to_string(), value))
}

/// The stack of [`on_large_stack`]'s thread.
pub const LARGE_STACK: usize = 512 << 20;
