//! `tafl diff A B`: the rule differences between two variants, in words.

use std::process::ExitCode;

/// Arguments of `tafl diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The variant you know: a bundled variant name or a path to a .tafl file.
    a: String,
    /// The variant you switch to: a bundled variant name or a path to a .tafl file.
    b: String,
}

pub fn run(args: &Args) -> ExitCode {
    let (Some(a), Some(b)) = (super::load(&args.a), super::load(&args.b)) else {
        return ExitCode::from(1);
    };
    out!(
        "{}",
        crate::diff::diff(&args.a, &a.rules, &args.b, &b.rules)
    );
    ExitCode::SUCCESS
}
