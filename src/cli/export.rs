//! `tafl export --opentafl VARIANT`: the OpenTafl rules string of a variant.

use std::process::ExitCode;

/// Arguments of `tafl export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the variant as an OpenTafl rules string (the only format so far).
    #[arg(long, required = true)]
    opentafl: bool,
    /// When OpenTafl cannot say every rule, print the closest string anyway and list every
    /// difference on standard error (by default the export is refused).
    #[arg(long)]
    nearest: bool,
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(variant) = super::load(&args.variant) else {
        return ExitCode::from(1);
    };
    debug_assert!(args.opentafl);
    if args.nearest {
        let nearest = crate::opentafl::export_nearest(&variant.rules);
        outln!("{}", nearest.rules_string);
        if !nearest.differences.is_empty() {
            eprintln!(
                "OpenTafl will play {} rule(s) of `{}` differently:",
                nearest.differences.len(),
                variant.rules.name
            );
            for difference in &nearest.differences {
                match &difference.instead {
                    Some(key) => eprintln!("  {difference} (written as `{key}` instead)"),
                    None => eprintln!("  {difference} (left to OpenTafl's default)"),
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    match crate::opentafl::export(&variant.rules) {
        Ok(rules_string) => {
            outln!("{rules_string}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            eprintln!("  (`--nearest` prints the closest string and lists these differences)");
            ExitCode::from(1)
        }
    }
}
