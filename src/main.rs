use std::process::ExitCode;

fn main() -> ExitCode {
    tafl::cli::run()
}
