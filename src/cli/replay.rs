//! `tafl replay VARIANT [--from POS --side SIDE] [MOVE...] --json`: plays the moves and prints
//! where the game stands.

use std::process::ExitCode;

use serde::Serialize;

use super::load;
use crate::engine::Move;
use crate::game::notation::position_to_string;
use crate::game::{Game, IllegalMove};
use crate::variant::Variant;

/// Arguments of `tafl replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// The moves, like `e1-e3` (or `e1e3`).
    pub moves: Vec<String>,
    #[command(flatten)]
    from: load::From,
    /// Print one JSON object (the only output form for now; the flag keeps the contract explicit).
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report {
    position: String,
    to_move: &'static str,
    status: &'static str,
    reason: Option<&'static str>,
    plies: Vec<PlyReport>,
}

#[derive(Serialize)]
struct PlyReport {
    #[serde(rename = "move")]
    mv: String,
    captured: Vec<String>,
}

/// Runs `tafl replay`.
pub fn run(args: Args) -> ExitCode {
    let (loaded, position) = match load::variant_and_position(&args.variant, &args.from) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut game = Game::from_position(loaded.engine.clone(), position);
    for (i, text) in args.moves.iter().enumerate() {
        let ply = i + 1;
        let mv: Move = match text.parse() {
            Ok(mv) => mv,
            Err(e) => {
                eprintln!("ply {ply}: {e}");
                return ExitCode::from(load::USAGE);
            }
        };
        if let Err(illegal) = game.play(mv) {
            eprintln!("ply {ply}: {}", describe(&illegal, loaded.variant.as_ref()));
            return ExitCode::from(load::USAGE);
        }
    }
    let engine = game.engine();
    let report = Report {
        position: position_to_string(engine, game.position()),
        to_move: game.to_move().as_str(),
        status: game.status().as_str(),
        reason: game.reason().map(|r| r.as_str()),
        plies: game
            .plies()
            .iter()
            .map(|ply| PlyReport {
                mv: ply.mv.to_string(),
                captured: ply.captured.iter().map(|s| s.to_string()).collect(),
            })
            .collect(),
    };
    if args.json {
        // Plain data with string keys: serialising cannot fail.
        println!(
            "{}",
            serde_json::to_string(&report).expect("report serialises")
        );
    } else {
        println!("{}", report.position);
        println!(
            "{} to move; {}{}",
            report.to_move,
            report.status,
            report.reason.map(|r| format!(" ({r})")).unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}

/// The refusal, citing the clause that forbids the move when the variant file has one.
pub fn describe(illegal: &IllegalMove, variant: Option<&Variant>) -> String {
    let mut text = illegal.to_string();
    if let (Some(rule), Some(variant)) = (illegal.rule, variant) {
        if let (Some(line), Some(clause)) = (variant.line_of(rule), variant.clause_text(rule)) {
            text.push_str(&format!(": line {line}, `{}`", clause.trim()));
        }
    }
    text
}
