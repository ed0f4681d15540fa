//! `tafl show VARIANT`: the rules in plain words; with `--svg FILE`, a picture of the start
//! position instead.

use std::process::ExitCode;

/// Arguments of `tafl show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
    /// Write an SVG picture of the start position to FILE (`-` for standard output) instead of
    /// explaining the rules.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(variant) = super::load(&args.variant) else {
        return ExitCode::from(1);
    };
    match &args.svg {
        None => {
            print!("{}", crate::explain::explain(&variant.rules));
            ExitCode::SUCCESS
        }
        Some(path) => {
            let picture = crate::svg::start_position_svg(&variant.rules);
            if path.as_os_str() == "-" {
                print!("{picture}");
                return ExitCode::SUCCESS;
            }
            match std::fs::write(path, picture) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: cannot write `{}`: {error}", path.display());
                    ExitCode::FAILURE
                }
            }
        }
    }
}
