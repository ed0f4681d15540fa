//! Games between players of any [`Level`]: the model of people's moves draws each move from
//! its policy with a seeded generator, a search level plays its best move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::{draw, move_features, Level, Model};
use crate::engine::{Engine, Rng};
use crate::game::Game;
use crate::ir::Side;
use crate::search::duel::{opening_drawn, Adjudication, Opening, Played};
use crate::search::{search, Limits};

/// A player of one side: the model at a sharpness, or a search with its limits.
#[derive(Clone, Copy, Debug)]
pub enum Player<'a> {
    /// The model of people's moves.
    People {
        /// The model.
        model: &'a Model,
        /// The factor on its logits ([`Level::People`]).
        sharpness: f64,
    },
    /// The search.
    Search(Limits),
}

impl<'a> Player<'a> {
    /// The player of `level`: `engine` searches with `limits` as given (their time budget),
    /// `depth:N` with the same techniques and weights to depth N, without the clock.
    pub fn of(level: Level, model: &'a Model, limits: Limits) -> Player<'a> {
        match level {
            Level::People { sharpness } => Player::People { model, sharpness },
            Level::Depth(depth) => Player::Search(Limits {
                depth: Some(depth),
                time: None,
                ..limits
            }),
            Level::Engine => Player::Search(limits),
        }
    }
}

/// The seed stream of the people players' choices, apart from the openings' (the same
/// openings are played at every level).
const CHOICES: u64 = 0x5EED_0F9E_0B1E;

/// Plays `game` on, `attackers` and `defenders` choosing in turn, until the game ends, a side
/// resigns by `adjudication`'s rule or the cap stops it. A people player's choices come from
/// `rng`; a resignation reads each move's score for its mover: a search's own score, or for a
/// people player the hand evaluation of the position its move leaves. `moved` is called after
/// each move.
pub fn play_out(
    mut game: Game,
    attackers: Player,
    defenders: Player,
    adjudication: Adjudication,
    rng: &mut Rng,
    mut moved: impl FnMut(),
) -> Game {
    let stop = AtomicBool::new(false);
    let mut watch = adjudication.resign.map(|rule| rule.watch());
    while !game.is_over() && game.plies().len() < adjudication.cap {
        let mover = game.to_move();
        let player = match mover {
            Side::Attackers => attackers,
            Side::Defenders => defenders,
        };
        let chosen = match player {
            Player::People { model, sharpness } => {
                let moves = move_features(&game, model.depth);
                if moves.is_empty() {
                    break;
                }
                let policy = model.policy(mover, &moves, sharpness);
                let pick = &moves[draw(&policy, rng)];
                (pick.mv, pick.score)
            }
            Player::Search(limits) => {
                let Ok(report) = search(&game, &limits, &stop, |_| {}) else {
                    break;
                };
                let Some(mv) = report.best else { break };
                (mv, report.score.as_number())
            }
        };
        if game.play(chosen.0).is_err() {
            break;
        }
        moved();
        let Some(watch) = &mut watch else { continue };
        if let Some(loser) = watch.record(mover, chosen.1) {
            // Refused only where the move just ended the game, which keeps that ending.
            let _ = game.resign(loser);
        }
    }
    game
}

/// Game number `index` of a run seeded with `seed` at `level` for both sides: the run's
/// opening ([`opening_drawn`]), then the level's player, until the game ends or
/// `adjudication` stops it. `limits` are the engine's (with its time budget) for `engine` and
/// `depth:N`.
#[allow(clippy::too_many_arguments)] // a game's inputs, and the progress it reports
pub fn level_game(
    engine: &Arc<Engine>,
    level: Level,
    model: &Model,
    limits: Limits,
    seed: u64,
    index: u64,
    opening: Opening,
    adjudication: Adjudication,
    moved: impl FnMut(),
) -> Played {
    let start = opening_drawn(engine, seed, index, opening);
    let player = Player::of(level, model, limits);
    let mut rng = Rng::for_game(seed ^ CHOICES, index);
    Played::of(&play_out(
        start,
        player,
        player,
        adjudication,
        &mut rng,
        moved,
    ))
}
