//! `tafl best VARIANT [--from POS --side SIDE] [MOVE...] [--depth N | --time MS] [--threads N]
//! [--json]`: the search's move for the side to move after the given moves.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use super::load;
use crate::english::{capitalise, side_noun};
use crate::nnue::Choice;
use crate::search::duel::{Adjudication, Opening, OpeningMoves, Resign};
use crate::search::profile::Evaluation;
use crate::search::standing;
use crate::search::{self, Limits, Report, Score, SearchError};

/// Arguments of `tafl best`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// The game's moves so far, like `e1-e3` (or as records write them, `e1-e3xe4`), played
    /// from the start (or from `--from`), so that the search knows the history its repetition
    /// rules need.
    pub moves: Vec<String>,
    #[command(flatten)]
    from: load::From,
    /// How long to think.
    #[command(flatten)]
    pub budget: Budget,
    /// Which search techniques and evaluation weights.
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// How long the computer thinks: a depth or a time, and threads.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Budget {
    /// Search to this depth in plies (deterministic with one thread).
    #[arg(long, value_name = "N", conflicts_with = "time", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Think for this long, in milliseconds, for the whole answer [default: 2000].
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

impl Budget {
    /// The search limits these options ask for.
    pub fn limits(self) -> Limits {
        let limits = match (self.depth, self.time) {
            (Some(depth), _) => Limits::depth(depth),
            (None, Some(ms)) => Limits::time(Duration::from_millis(ms)),
            (None, None) => Limits::time(Duration::from_millis(2000)),
        };
        limits.with_threads(usize::from(self.threads))
    }
}

/// Resignation for games between computer players: `--resign`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct ResignArgs {
    /// A side resigns when its own search has scored the game at SCORE hundredths of a soldier
    /// or worse for MOVES of its moves in a row, and the other side's search agreed for as many
    /// of its own (both players must see it decided); off unless given (docs/balance.md).
    #[arg(long, value_name = "SCORE,MOVES")]
    pub resign: Option<Resign>,
}

impl ResignArgs {
    /// When a game stops: after `cap` plies, or when a side resigns by this rule.
    pub fn adjudication(self, cap: u32) -> Adjudication {
        Adjudication {
            cap: cap as usize,
            resign: self.resign,
        }
    }
}

/// How each game of a run starts: `--openings` and `--opening-moves`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct OpeningArgs {
    /// Random plies at the start of each game, so that games differ.
    #[arg(long, default_value_t = 4, value_name = "K")]
    pub openings: u32,
    /// How the opening plies are drawn: `any` legal move, or `plausible` ones only (within
    /// half a soldier of the best a depth-2 search finds; docs/balance.md) [default:
    /// `plausible` for `balance` and `compare`, which judge a variant's fairness; `any` for
    /// `selfplay` and `match`]
    #[arg(long, value_enum, value_name = "any|plausible")]
    pub opening_moves: Option<OpeningMoves>,
}

impl OpeningArgs {
    /// The openings these arguments ask for, the plies drawn as `default` says unless
    /// `--opening-moves` was given.
    pub fn opening(self, default: OpeningMoves) -> Opening {
        Opening {
            plies: self.openings,
            moves: self.opening_moves.unwrap_or(default),
        }
    }
}

/// The search techniques and the evaluation's weights: `--off` and `--weights`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayerArgs {
    /// Turn search techniques off, comma-separated: quiescence, null-move, reductions,
    /// aspiration, extensions, time-management, futility, late-move-pruning, deep-reductions,
    /// deeper-entries, fort-watch, partial-iterations, learned, corner-chase, king-threat, or
    /// `all` (the plain alpha-beta search).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub off: Vec<String>,
    /// Turn search techniques on (after `--off`), the same names; `all` for every one.
    /// Time management, extensions, fort-watch, learned (the correction `tafl learn` fits)
    /// and king-threat are off by default.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub on: Vec<String>,
    /// The evaluation's weights: `rules` (the default) for those the variant's rules choose
    /// (where the king escapes, the board's size, how the king is captured; never its name),
    /// a profile's name (`small-corners`, `small-edge`, `corners`, `edge-soldier-king`,
    /// `edge`), `hand` for the hand-set weights, or a weights file as `tafl tune` writes it.
    #[arg(long, value_name = "FILE|NAME")]
    pub weights: Option<String>,
    /// The network evaluation: `rules` (the default) for the bundled network the variant's
    /// rules choose (its board, pieces and rules; never its name), if there is one, else the
    /// hand evaluation; `none` for the hand evaluation; or a network file as `tafl train`
    /// writes it (one for another board or other pieces is refused, exit 2).
    #[arg(long, value_name = "FILE|rules|none")]
    pub network: Option<String>,
}

impl PlayerArgs {
    /// `limits` with these settings, and the weights for a variant with `rules`.
    ///
    /// # Errors
    /// An unknown technique, or a weights file that cannot be read.
    pub fn apply(
        &self,
        limits: Limits,
        rules: &crate::ir::Rules,
    ) -> Result<(Limits, Evaluation), String> {
        let settings = limits
            .settings
            .turned(&self.off, &self.on)
            .map_err(|e| e.to_string())?;
        let evaluation = evaluation(self.weights.as_deref(), rules)?;
        let network = network_choice(self.network.as_deref(), rules)?;
        Ok((
            limits
                .with_settings(settings)
                .with_weights(evaluation.weights)
                .with_network(network),
            evaluation,
        ))
    }
}

/// The network `--network` (or a match spec's `network=`) names for a variant with `rules`:
/// `rules` or nothing for the one the rules choose, `none` (or `hand`) for the hand
/// evaluation, else a network file's path.
///
/// # Errors
/// A file that cannot be read, is not a network file or does not fit the variant, in words.
pub fn network_choice(name: Option<&str>, rules: &crate::ir::Rules) -> Result<Choice, String> {
    match name.unwrap_or("rules") {
        "rules" => Ok(Choice::Rules),
        "none" | "hand" => Ok(Choice::Hand),
        path => crate::nnue::load_for(std::path::Path::new(path), rules)
            .map(Choice::Network)
            .map_err(|e| e.to_string()),
    }
}

/// The `evaluation` of `selfplay`, `compare` and `balance`'s JSON: `network:<file name>` where
/// a network plays, else the weights' label as before networks (a profile, `hand` or a file).
pub fn evaluation_field(
    limits: &Limits,
    evaluation: &Evaluation,
    rules: &crate::ir::Rules,
) -> String {
    match limits.network.network(rules) {
        Some(net) => format!("network:{}", net.name()),
        None => evaluation.label.clone(),
    }
}

/// Which evaluation plays, as JSON reports it: `network:<file name>` where a network plays,
/// else `hand:<weights>` (a profile's name, `hand`, or a weights file).
pub fn evaluation_label(
    limits: &Limits,
    evaluation: Option<&Evaluation>,
    rules: &crate::ir::Rules,
) -> String {
    match limits.network.network(rules) {
        Some(net) => format!("network:{}", net.name()),
        None => format!(
            "hand:{}",
            evaluation.map_or_else(
                || crate::search::profile::Profile::of(rules)
                    .name()
                    .to_string(),
                |e| e.label.clone()
            )
        ),
    }
}

/// The weights `--weights` names (`None`: `rules`) for a variant with `rules`
/// ([`Evaluation::named`]).
///
/// # Errors
/// A file that cannot be read or is not a weights file.
pub fn evaluation(name: Option<&str>, rules: &crate::ir::Rules) -> Result<Evaluation, String> {
    Evaluation::named(name.unwrap_or("rules"), rules)
}

#[derive(Serialize)]
struct Answer {
    #[serde(rename = "move")]
    mv: Option<String>,
    score: Option<i32>,
    /// Plies to a forced result: positive when the side to move wins, negative when it loses.
    win_in: Option<i64>,
    depth: u32,
    nodes: u64,
    nps: u64,
    pv: Vec<String>,
    status: &'static str,
    reason: Option<&'static str>,
    /// Which evaluation played: `network:<file name>` or `hand:<weights>`.
    evaluation: String,
}

/// Runs `tafl best`.
pub fn run(args: Args) -> ExitCode {
    let (loaded, position) = match load::variant_and_position(&args.variant, &args.from) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let game = match load::game_after(&loaded, position, &args.moves) {
        Ok(game) => game,
        Err(code) => return code,
    };
    let (limits, evaluation) = match args
        .player
        .apply(args.budget.limits(), loaded.engine.rules())
    {
        Ok(settled) => settled,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(load::USAGE);
        }
    };
    let stop = AtomicBool::new(false);
    let label = evaluation_label(&limits, Some(&evaluation), loaded.engine.rules());
    let rules = loaded.engine.rules();
    let mut report_score = Score::Value(0);
    let answer = match search::search(&game, &limits, &stop, |_| {}) {
        Ok(report) => {
            report_score = report.score;
            answer(&report, label)
        }
        Err(SearchError::GameOver(ending)) => Answer {
            mv: None,
            score: None,
            win_in: None,
            depth: 0,
            nodes: 0,
            nps: 0,
            pv: Vec::new(),
            status: crate::game::Status::of(Some(ending)).as_str(),
            reason: Some(ending.reason.as_str()),
            evaluation: label,
        },
    };
    if args.json {
        // Plain data with string keys: serialising cannot fail.
        outln!(
            "{}",
            serde_json::to_string(&answer).expect("answer serialises")
        );
    } else {
        match &answer.mv {
            Some(mv) => {
                outln!("{mv}");
                // In words first, as the REPL's `hint` says it, then the number and whose it is.
                let to_move = game.to_move();
                let score = match answer.win_in {
                    Some(n) if n > 0 => format!("wins in {n} for {}", side_noun(rules, to_move)),
                    Some(n) => format!("loses in {} for {}", -n, side_noun(rules, to_move)),
                    None => format!(
                        "score {:+.2} for {}, to move, in soldiers",
                        f64::from(answer.score.unwrap_or(0)) / 100.0,
                        side_noun(rules, to_move)
                    ),
                };
                eprintln!(
                    "{} ({score}) at depth {}, {} nodes ({} nodes/s); line: {}",
                    capitalise(&standing(rules, report_score, to_move)),
                    answer.depth,
                    answer.nodes,
                    answer.nps,
                    answer.pv.join(" ")
                );
            }
            None => outln!(
                "no move: the game is over ({}, {})",
                answer.status,
                answer.reason.unwrap_or("")
            ),
        }
    }
    ExitCode::SUCCESS
}

fn answer(report: &Report, evaluation: String) -> Answer {
    let win_in = match report.score {
        Score::Win(plies) => Some(i64::from(plies)),
        Score::Loss(plies) => Some(-i64::from(plies)),
        Score::Value(_) => None,
    };
    Answer {
        mv: report.best.map(|m| m.to_string()),
        score: Some(report.score.as_number()),
        win_in,
        depth: report.depth,
        nodes: report.nodes,
        nps: report.nps(),
        pv: report.pv.iter().map(|m| m.to_string()).collect(),
        status: "ongoing",
        reason: None,
        evaluation,
    }
}
