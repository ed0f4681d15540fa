//! `tafl ir VARIANT`: the resolved rules as JSON.

use std::process::ExitCode;

/// Arguments of `tafl ir`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
}

pub fn run(args: &Args) -> ExitCode {
    match super::load(&args.variant) {
        Some(variant) => {
            outln!("{}", variant.rules.to_json());
            ExitCode::SUCCESS
        }
        None => ExitCode::from(1),
    }
}
