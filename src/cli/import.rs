//! `tafl import --opentafl STRING [-o FILE]`: a variant file from an OpenTafl rules string.

use std::process::ExitCode;

/// Arguments of `tafl import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The OpenTafl rules string, e.g. 'dim:7 name:Brandub ks:w start:/3t3/.../'.
    #[arg(long, value_name = "RULES")]
    opentafl: String,
    /// Write the variant file here instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let text = match crate::opentafl::import(&args.opentafl) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(1);
        }
    };
    match &args.output {
        None => {
            out!("{text}");
            ExitCode::SUCCESS
        }
        Some(path) => match super::output::write(std::path::Path::new(path), text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::from(1)
            }
        },
    }
}
