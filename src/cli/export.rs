//! `tafl export --opentafl VARIANT`: the OpenTafl rules string of a variant.

use std::process::ExitCode;

/// Arguments of `tafl export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the variant as an OpenTafl rules string (the only format so far).
    #[arg(long, required = true)]
    opentafl: bool,
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(variant) = super::load(&args.variant) else {
        return ExitCode::from(1);
    };
    debug_assert!(args.opentafl);
    match crate::opentafl::export(&variant.rules) {
        Ok(rules_string) => {
            println!("{rules_string}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(1)
        }
    }
}
