//! Standard output that may not be writable: a full disk (`tafl list > /dev/full`), a closed
//! pipe, a file on a device that fails. `println!` panics on a failed write; every command
//! prints through [`out!`] and [`outln!`] instead, which end the program with a message and a
//! failing exit code, and [`finish`] flushes what is still buffered before the program exits
//! (Rust's own flush at exit ignores errors, so a failure there would otherwise exit 0).

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// The exit code after a closed pipe (`tafl list | head -1` where SIGPIPE is ignored, as in
/// `tafl match`): what a shell reports for a process that SIGPIPE ended (128 + 13), so that the
/// reader's early stop looks the same whichever way it reached us.
const CLOSED_PIPE: i32 = 141;

/// Writes `text` to standard output; on an error, ends the program (see [`fail`]).
pub fn print(text: fmt::Arguments<'_>) {
    if let Err(error) = io::stdout().lock().write_fmt(text) {
        fail(&error);
    }
}

/// Flushes standard output at the end of a command: `code` when everything was written, else a
/// message and a failing code. A command that failed already keeps its code and its message
/// (`engine` and `lsp` report their own failed writes, whose bytes are still buffered here).
pub fn finish(code: ExitCode) -> ExitCode {
    match io::stdout().lock().flush() {
        Ok(()) => code,
        Err(_) if code != ExitCode::SUCCESS => code,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(CLOSED_PIPE as u8)
        }
        Err(error) => {
            eprintln!("error: cannot write to standard output: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Ends the program after standard output failed: quietly for a closed pipe (the reader stopped
/// on purpose), else with a message on standard error and exit code 1.
fn fail(error: &io::Error) -> ! {
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE);
    }
    eprintln!("error: cannot write to standard output: {error}");
    std::process::exit(1)
}

/// `print!` to standard output that ends the program with a message, not a panic, when the
/// write fails.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::print(format_args!($($arg)*))
    };
}

/// `println!` to standard output that ends the program with a message, not a panic, when the
/// write fails.
macro_rules! outln {
    () => {
        $crate::cli::stdout::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::stdout::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}
