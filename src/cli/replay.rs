//! `tafl replay VARIANT [--from POS --side SIDE] [MOVE...] --json`: plays the moves and prints
//! where the game stands.

use std::process::ExitCode;

use serde::Serialize;

use super::load;
use crate::game::describe::{cite, Citation};
use crate::game::notation::position_to_string;

/// Arguments of `tafl replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// The moves, like `e1-e3` (or `e1e3`, or as records write them, `e1-e3xe4`).
    pub moves: Vec<String>,
    #[command(flatten)]
    from: load::From,
    /// Print one JSON object (position, side to move, status, reason, the rule that ended the
    /// game, every ply and its captures) instead of the text: the position and a line saying
    /// who is to move and how the game stands.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report {
    position: String,
    to_move: &'static str,
    status: &'static str,
    reason: Option<&'static str>,
    /// The clause of the variant file that ended the game, when the file writes it.
    rule: Option<Citation>,
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
    let game = match load::game_after(&loaded, position, &args.moves) {
        Ok(game) => game,
        Err(code) => return code,
    };
    let engine = game.engine();
    let report = Report {
        position: position_to_string(engine, game.position()),
        to_move: game.to_move().as_str(),
        status: game.status().as_str(),
        reason: game.reason().map(|r| r.as_str()),
        rule: game
            .ending()
            .and_then(|ending| ending.rule)
            .zip(loaded.variant.as_ref())
            .and_then(|(rule, variant)| cite(variant, rule)),
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
        outln!(
            "{}",
            serde_json::to_string(&report).expect("report serialises")
        );
    } else {
        outln!("{}", report.position);
        outln!(
            "{} to move; {}{}",
            report.to_move,
            report.status,
            report.reason.map(|r| format!(" ({r})")).unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}
