//! The games of a generation: self-play for data, and the paired match that decides whether
//! a new network replaces the last.

use std::sync::Arc;

use rayon::prelude::*;

use super::data::Sample;
use crate::engine::{Engine, Rng};
use crate::game::{Game, Status};
use crate::ir::Side;
use crate::search::duel::{
    half_points, opening_drawn, play_out, Adjudication, Opening, OpeningMoves,
};
use crate::search::stats::{Estimate, Pentanomial, Sprt, Verdict};
use crate::search::Limits;

/// A game still going after this many plies counts as a draw.
pub const CAP: usize = 300;

/// The random plies an opening may take on a board of `squares` squares: from a sixth of the
/// squares to a third, within 8 to 32 (Brandubh 8 to 16, 9x9 13 to 27, 11x11 20 to 32), so a
/// generation's games spread over many positions and not the start's few lines.
pub fn opening_plies(squares: usize) -> (u32, u32) {
    let most = (squares / 3).clamp(8, 32) as u32;
    let least = (squares / 6).clamp(8, 32) as u32;
    (least.min(most), most)
}

/// The start of game `index` of a run seeded with `seed`: a number of random plies within
/// [`opening_plies`], drawn from the seed, each drawn as `moves` says.
pub fn start(engine: &Arc<Engine>, seed: u64, index: u64, moves: OpeningMoves) -> Game {
    let squares = usize::from(engine.width()) * usize::from(engine.height());
    let (least, most) = opening_plies(squares);
    let mut rng = Rng::for_game(seed ^ 0x005E_ED0F_0DD5, index);
    let plies = least + rng.below((most - least + 1) as usize) as u32;
    opening_drawn(engine, seed, index, Opening { plies, moves })
}

/// How a generation's self-play games ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Results {
    /// Games the attackers won.
    pub attackers: u64,
    /// Games the defenders won.
    pub defenders: u64,
    /// Drawn, or stopped at the cap.
    pub draws: u64,
}

impl Results {
    /// The results of the games whose positions are `samples` (a game with no position
    /// searched is not counted).
    pub fn of(samples: &[Sample]) -> Results {
        let mut seen = std::collections::BTreeMap::new();
        for s in samples {
            seen.insert(s.game, s.result);
        }
        let mut results = Results::default();
        for result in seen.into_values() {
            match result {
                1 => results.attackers += 1,
                -1 => results.defenders += 1,
                _ => results.draws += 1,
            }
        }
        results
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.attackers + self.defenders + self.draws
    }
}

/// The attackers' result of a game's status: 1 won, -1 lost, 0 otherwise.
fn result_of(status: Status) -> i8 {
    match status {
        Status::AttackersWin => 1,
        Status::DefendersWin => -1,
        Status::Draw | Status::Ongoing => 0,
    }
}

/// Self-play game `index` of a generation seeded with `seed`, both sides searching with
/// `limits`, from an opening drawn as `openings` says: every position a side searched,
/// labelled with the game's result.
pub fn selfplay(
    engine: &Arc<Engine>,
    limits: &Limits,
    openings: OpeningMoves,
    seed: u64,
    index: u64,
) -> (Vec<Sample>, Status) {
    let mut seen: Vec<(Vec<u8>, Side, i32, u16)> = Vec::new();
    let squares = usize::from(engine.width()) * usize::from(engine.height());
    let game = play_out(
        start(engine, seed, index, openings),
        limits,
        limits,
        Adjudication::cap(CAP),
        |game, report| {
            let mut board = vec![0u8; squares];
            for (square, kind) in engine.pieces(game.position()) {
                // Kinds are fewer than MAX_KINDS (16), so kind + 1 fits a byte.
                board[engine.index(square)] = kind as u8 + 1;
            }
            let ply = u16::try_from(game.plies().len()).unwrap_or(u16::MAX);
            seen.push((board, game.to_move(), report.score.as_number(), ply));
        },
    );
    let status = game.status();
    let result = result_of(status);
    let game_number = u32::try_from(index).unwrap_or(u32::MAX);
    let samples = seen
        .into_iter()
        .map(|(board, to_move, score, ply)| Sample {
            board,
            to_move,
            result,
            score,
            game: game_number,
            ply,
        })
        .collect();
    (samples, status)
}

/// `games` self-play games on the current rayon pool, calling `done` after each.
pub fn selfplay_many(
    engine: &Arc<Engine>,
    limits: &Limits,
    openings: OpeningMoves,
    seed: u64,
    games: u64,
    done: &(dyn Fn() + Sync),
) -> (Vec<Sample>, Results) {
    let played: Vec<(Vec<Sample>, Status)> = (0..games)
        .into_par_iter()
        .map(|index| {
            let game = selfplay(engine, limits, openings, seed, index);
            done();
            game
        })
        .collect();
    let mut results = Results::default();
    let mut samples = Vec::new();
    for (game, status) in played {
        match result_of(status) {
            1 => results.attackers += 1,
            -1 => results.defenders += 1,
            _ => results.draws += 1,
        }
        samples.extend(game);
    }
    (samples, results)
}

/// A paired match's outcome for the new player.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Duel {
    /// Pairs by the new player's half-points in the pair (0 to 4).
    pub pentanomial: Pentanomial,
    /// Its score and Elo with their 95% intervals.
    pub estimate: Option<Estimate>,
    /// The SPRT of H0 = 0 Elo against H1 = [`GAIN`] Elo over the pairs played.
    pub sprt: Verdict,
    /// The new player's points as the attackers, out of `pairs`.
    pub attackers_points: f64,
}

/// The gain the match's SPRT tests for, in Elo.
pub const GAIN: f64 = 20.0;

impl Duel {
    /// Whether the new player won: more than half the points.
    pub fn won(&self) -> bool {
        self.estimate.as_ref().is_some_and(|e| e.score > 0.5)
    }
}

/// `pairs` pairs of games between `new` and `old` from the openings of `seed` drawn as
/// `openings` says (each opening once with each on each side), on the current rayon pool,
/// calling `done` after each pair.
pub fn paired_match(
    engine: &Arc<Engine>,
    new: &Limits,
    old: &Limits,
    openings: OpeningMoves,
    seed: u64,
    pairs: u64,
    done: &(dyn Fn() + Sync),
) -> Duel {
    let played: Vec<(usize, usize)> = (0..pairs)
        .into_par_iter()
        .map(|index| {
            let opening = start(engine, seed, index, openings);
            let as_attackers =
                play_out(opening.clone(), new, old, Adjudication::cap(CAP), |_, _| {});
            let as_defenders = play_out(opening, old, new, Adjudication::cap(CAP), |_, _| {});
            done();
            (
                half_points(as_attackers.status(), Side::Attackers),
                half_points(as_defenders.status(), Side::Defenders),
            )
        })
        .collect();
    let mut pentanomial = Pentanomial::default();
    let mut attackers_half = 0;
    for &(a, d) in &played {
        pentanomial.add(a + d);
        attackers_half += a;
    }
    Duel {
        pentanomial,
        estimate: pentanomial.estimate(),
        sprt: Sprt::new(0.0, GAIN).verdict(&pentanomial),
        attackers_points: attackers_half as f64 / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::duel::plausible_moves;

    /// Every ply of a plausible opening is one of the moves `plausible_moves` allows where it
    /// was played, and the uniform openings of the same seed go elsewhere at least once.
    #[test]
    fn plausible_openings_play_only_plausible_moves() {
        // The bundled file compiles.
        let variant = crate::Variant::bundled("brandubh").expect("bundled");
        let engine = Arc::new(Engine::new(&variant.rules).expect("compiles"));
        let mut differ = false;
        for index in 0..2 {
            let plausible = start(&engine, 3, index, OpeningMoves::Plausible);
            let any = start(&engine, 3, index, OpeningMoves::Any);
            differ |= plausible.plies() != any.plies();
            let mut replay = Game::new(engine.clone());
            for ply in plausible.plies() {
                let allowed = plausible_moves(&replay, &replay.legal_moves());
                assert!(allowed.contains(&ply.mv), "{:?} is not plausible", ply.mv);
                replay.play(ply.mv).expect("a legal move");
            }
        }
        assert!(differ, "the two ways of drawing gave the same openings");
    }
}
