//! Games between two computer players, as `tafl match`, `tafl selfplay`, `tafl compare` and
//! `tafl tune` play them: seeded random openings, then each side's search in turn, and the game
//! as one row of the hnefatafl-rs CSV format.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use super::stats::{wilson, Rate};
use super::{search, Limits};
use crate::engine::{Engine, Rng};
use crate::game::{Game, Status};
use crate::ir::Side;

/// The game that opening number `index` of a run seeded with `seed` starts from: `plies`
/// uniformly random plies from the start (fewer where the game ends first).
pub fn opening(engine: &Arc<Engine>, seed: u64, index: u64, plies: u32) -> Game {
    let mut rng = Rng::for_game(seed, index);
    let mut game = Game::new(engine.clone());
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        // A generated move is legal.
        let _ = game.play(moves[rng.below(moves.len())]);
    }
    game
}

/// Plays `game` on: the attackers search with `attackers`, the defenders with `defenders`,
/// until the game ends or has `cap` plies (then it stands `Ongoing`). `observe` sees each
/// position before its move is searched.
pub fn play_out(
    mut game: Game,
    attackers: &Limits,
    defenders: &Limits,
    cap: usize,
    mut observe: impl FnMut(&Game),
) -> Game {
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.plies().len() < cap {
        observe(&game);
        let limits = match game.to_move() {
            Side::Attackers => attackers,
            Side::Defenders => defenders,
        };
        let Ok(report) = search(&game, limits, &stop, |_| {}) else {
            break;
        };
        let Some(mv) = report.best else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}

/// One finished selfplay game: its result (`Ongoing` when the ply cap stopped it), how it ended
/// (`capped` for the cap) and its length in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game's result.
    pub status: Status,
    /// The ending's name (`king_escaped`, `repetition`, ...), or `capped`.
    pub reason: &'static str,
    /// Plies played, the opening's included.
    pub plies: usize,
}

/// Selfplay game number `index` of a run seeded with `seed`, as `tafl selfplay` and the Python
/// package play it: `openings` random plies ([`opening`]), then `limits` for both sides, until
/// the game ends or has `cap` plies.
pub fn selfplay_game(
    engine: &Arc<Engine>,
    limits: &Limits,
    seed: u64,
    index: u64,
    openings: u32,
    cap: u32,
) -> Played {
    let start = opening(engine, seed, index, openings);
    Played::of(&play_out(start, limits, limits, cap as usize, |_| {}))
}

impl Played {
    /// What `game`, stopped where it stands, counts as (`capped` if it is still going).
    pub fn of(game: &Game) -> Played {
        Played {
            status: game.status(),
            reason: game.reason().map_or("capped", |r| r.as_str()),
            plies: game.plies().len(),
        }
    }
}

/// The figures of a selfplay run: wins with their 95% intervals, draws (capped games count as
/// draws, and apart), the mean length and how the games ended.
#[derive(Clone, Debug, Serialize)]
pub struct Tally {
    /// Games the attackers won.
    pub attackers_win: u64,
    /// Games the defenders won.
    pub defenders_win: u64,
    /// Games drawn, capped ones included.
    pub draw: u64,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// The attackers' win rate.
    pub attackers: Rate,
    /// The defenders' win rate.
    pub defenders: Rate,
    /// Mean length in plies.
    pub mean_plies: f64,
    /// How the games ended: `king_escaped`, `king_captured`, `repetition`, `capped` ...
    pub reasons: BTreeMap<String, u64>,
}

impl Tally {
    /// The figures of `games` (none: all zero, with intervals from 0 to 1).
    pub fn of(games: &[Played]) -> Tally {
        let count = |status: Status| games.iter().filter(|p| p.status == status).count() as u64;
        let total = games.len() as u64;
        let mut reasons = BTreeMap::new();
        for played in games {
            *reasons.entry(played.reason.to_string()).or_insert(0) += 1;
        }
        let plies: usize = games.iter().map(|p| p.plies).sum();
        Tally {
            attackers_win: count(Status::AttackersWin),
            defenders_win: count(Status::DefendersWin),
            draw: count(Status::Draw) + count(Status::Ongoing),
            capped: count(Status::Ongoing),
            attackers: wilson(count(Status::AttackersWin), total),
            defenders: wilson(count(Status::DefendersWin), total),
            mean_plies: plies as f64 / total.max(1) as f64,
            reasons,
        }
    }
}

/// The game as a row of the hnefatafl-rs CSV format: the plies separated by spaces, each
/// `from-to` with `x<square>` for every piece it captured, then `,0,0,` and the result
/// (`White`: the defenders won, `Black`: the attackers, `Draw`, or `Ongoing`).
pub fn csv_row(game: &Game) -> String {
    csv_row_with(game, game.status())
}

/// The game as [`csv_row`] writes it, with `status` as its result: a game lost by forfeit
/// (`tafl match`) ends on the board still going.
pub fn csv_row_with(game: &Game, status: Status) -> String {
    let plies: Vec<String> = game
        .plies()
        .iter()
        .map(|ply| {
            let mut text = ply.mv.to_string();
            for square in &ply.captured {
                text.push('x');
                text.push_str(&square.to_string());
            }
            text
        })
        .collect();
    let result = match status {
        Status::DefendersWin => "White",
        Status::AttackersWin => "Black",
        Status::Draw => "Draw",
        Status::Ongoing => "Ongoing",
    };
    format!("{},0,0,{result}", plies.join(" "))
}

/// Half-points (0, 1 or 2) that the player of `side` won in a game that ended `status`; a game
/// still going at the cap counts as a draw.
pub fn half_points(status: Status, side: Side) -> usize {
    match (status, side) {
        (Status::AttackersWin, Side::Attackers) | (Status::DefendersWin, Side::Defenders) => 2,
        (Status::Draw | Status::Ongoing, _) => 1,
        (Status::AttackersWin, Side::Defenders) | (Status::DefendersWin, Side::Attackers) => 0,
    }
}
