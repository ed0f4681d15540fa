//! `tafl show VARIANT`: the rules in plain words.

use std::process::ExitCode;

/// Arguments of `tafl show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
}

pub fn run(args: &Args) -> ExitCode {
    match super::load(&args.variant) {
        Some(variant) => {
            print!("{}", crate::explain::explain(&variant.rules));
            ExitCode::SUCCESS
        }
        None => ExitCode::from(1),
    }
}
