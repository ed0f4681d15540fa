//! The command-line program.
use std::process::ExitCode;
/// Runs the program.
pub fn run() -> ExitCode {
    ExitCode::SUCCESS
}
