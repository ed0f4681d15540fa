//! `tafl show VARIANT`: the rules in plain words; with `--from POS`, a position drawn instead;
//! with `--svg [FILE]`, a picture of the start position (or of `--from`).

use std::process::ExitCode;

/// Arguments of `tafl show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant name or a path to a .tafl file.
    variant: String,
    /// Write an SVG picture of the start position (or of `--from`) to FILE instead of
    /// explaining the rules; without FILE, or with `-`, to standard output.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    svg: Option<std::path::PathBuf>,
    /// Draw this position instead of explaining the rules.
    #[command(flatten)]
    from: super::load::From,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(variant) = super::load(&args.variant) else {
        return ExitCode::from(1);
    };
    let position = if args.from.from.is_some() || args.from.side.is_some() {
        let engine = match crate::engine::Engine::new(&variant.rules) {
            Ok(engine) => engine,
            Err(e) => {
                eprintln!("error: `{}`: {e}", args.variant);
                return ExitCode::FAILURE;
            }
        };
        match super::load::position(&engine, Some(&variant), &args.from) {
            Ok(position) => Some((engine, position)),
            Err(code) => return code,
        }
    } else {
        None
    };
    match (&args.svg, position) {
        (None, None) => {
            out!("{}", crate::explain::explain(&variant.rules));
            ExitCode::SUCCESS
        }
        (None, Some((engine, position))) => {
            let side = engine.to_move(&position);
            out!("{}", super::play::draw_position(&engine, &position));
            outln!(
                "{} to move. As a position string: {}",
                crate::english::capitalise(&crate::english::side_noun(&variant.rules, side)),
                crate::game::notation::position_to_string(&engine, &position)
            );
            ExitCode::SUCCESS
        }
        (Some(path), position) => {
            let picture = match position {
                None => crate::svg::start_position_svg(&variant.rules),
                Some((engine, position)) => {
                    let rules = engine.rules();
                    let pieces: Vec<_> = engine
                        .pieces(&position)
                        .into_iter()
                        .map(|(square, kind)| (square, &rules.pieces[kind]))
                        .collect();
                    let side = engine.to_move(&position);
                    let title = format!(
                        "{}: {} to move",
                        rules.name,
                        crate::english::side_noun(rules, side)
                    );
                    crate::svg::position_svg(rules, &pieces, &title)
                }
            };
            if path.as_os_str() == "-" {
                out!("{picture}");
                return ExitCode::SUCCESS;
            }
            match super::output::write(std::path::Path::new(path), picture) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {error}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
