//! What the command lines of `ic-synth` and `ic-check` share: `--completions SHELL`
//! and `--man`, generated from their clap declarations, and output to a stdout that
//! may be a pipe closed early.

use std::io::Write;

/// The exit status of output that cannot be written (as for bad input).
const CANNOT_WRITE: u8 = 2;

/// `--completions SHELL` or `--man`, when one is given: prints the completion script
/// or the manual page (roff) of `command` on stdout and gives the exit status; `None`
/// when neither is asked for.
pub fn generated(
    completions: Option<clap_complete::Shell>,
    man: bool,
    command: impl FnOnce() -> clap::Command,
) -> Option<u8> {
    if let Some(shell) = completions {
        let mut command = command();
        let name = command.get_name().to_string();
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut command, name, &mut script);
        return Some(finish(write_stdout(|out| out.write_all(&script)), 0));
    }
    if man {
        let mut page = Vec::new();
        let rendered = clap_mangen::Man::new(command()).render(&mut page);
        return Some(finish(
            rendered.and_then(|()| write_stdout(|out| out.write_all(&page))),
            0,
        ));
    }
    None
}

/// Writes to stdout through a buffer. A reader that went away (`… | head -1`) is an
/// error of kind `BrokenPipe`, which [`finish`] takes as the end of the output.
pub fn write_stdout(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'_>>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    write(&mut out)?;
    out.flush()
}

/// The exit status `code` of a run whose output was written with `written`: a closed
/// pipe keeps it; any other failure to write is a message on stderr and status 2.
pub fn finish(written: std::io::Result<()>, code: u8) -> u8 {
    match written {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
            CANNOT_WRITE
        }
    }
}
