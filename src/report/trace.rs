//! One game as the report reads it: what stood on the board at each ply, how many moves each
//! position offered, and what the searching side thought of it.

use std::sync::Arc;

use crate::engine::Engine;
use crate::game::{Game, Status};
use crate::ir::{Role, Rules, Side, Square};
use crate::search::Score;

/// The largest evaluation a trace keeps, in hundredths of a soldier: ten soldiers. A forced win
/// scores a million; kept as it is, one such score would outweigh a game of ordinary ones in
/// every mean and change the report reads.
pub const EVAL_CAP: i32 = 1000;

/// One game, position by position.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The game's result (`Ongoing` when the ply cap stopped it).
    pub status: Status,
    /// How it ended (`king_escaped`, `repetition`, ...), or `capped`.
    pub reason: &'static str,
    /// The side that made the game's first move.
    pub first_mover: Side,
    /// Random plies before the players took over.
    pub opening_plies: usize,
    /// The evaluation of each searched position, for the attackers, capped at ±[`EVAL_CAP`]:
    /// entry `k` is the position before ply `opening_plies + k`.
    pub evals: Vec<i32>,
    /// Legal moves in each position before a ply was played (one entry a ply).
    pub branching: Vec<u32>,
    /// The attackers' and the defenders' pieces in each position, the start's and the last's
    /// included (one entry more than plies).
    pub pieces: Vec<[u32; 2]>,
    /// In each position, how many orthogonal steps the nearest king stands from the nearest
    /// square it escapes to; `None` where no king stands or none escapes.
    pub king_distance: Vec<Option<u32>>,
    /// The board's width in squares (the boards below are rows of this many).
    pub width: usize,
    /// The squares some piece stood on at some point, as a board (rank by rank, `a1` first).
    pub occupied: Vec<bool>,
    /// How many moves ended on each square, as a board.
    pub landed: Vec<u32>,
    /// The position's hash once the players took over: games with the same hash began alike.
    pub opening_hash: u64,
}

impl Trace {
    /// The trace of `game`, whose first `opening_plies` plies were drawn at random and whose
    /// searched positions were scored `scores` (each for the side to move there, in order).
    pub fn record(game: &Game, opening_plies: usize, scores: &[(Side, Score)]) -> Trace {
        let engine = game.engine();
        let rules = engine.rules();
        let targets = escape_targets(rules);
        let width = usize::from(engine.width());
        let squares = width * usize::from(engine.height());
        let mut occupied = vec![false; squares];
        let mut landed = vec![0; squares];
        let mut pieces = Vec::with_capacity(game.positions().len());
        let mut king_distance = Vec::with_capacity(game.positions().len());
        for position in game.positions() {
            let mut count = [0u32; 2];
            let mut nearest: Option<u32> = None;
            for (square, kind) in engine.pieces(position) {
                let Some(piece) = rules.pieces.get(kind) else {
                    continue;
                };
                count[piece.side.index()] += 1;
                occupied[index(square, width)] = true;
                if let Some(goal) = targets.get(kind).and_then(Option::as_ref) {
                    let distance = goal.iter().map(|&to| manhattan(square, to)).min();
                    nearest = match (nearest, distance) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
            }
            pieces.push(count);
            king_distance.push(nearest);
        }
        for ply in game.plies() {
            landed[index(ply.mv.to, width)] += 1;
        }
        let branching = game.positions()[..game.plies().len()]
            .iter()
            .map(|position| u32::try_from(engine.count_moves(position)).unwrap_or(u32::MAX))
            .collect();
        let evals = scores
            .iter()
            .map(|&(mover, score)| {
                let own = score.as_number().clamp(-EVAL_CAP, EVAL_CAP);
                match mover {
                    Side::Attackers => own,
                    Side::Defenders => -own,
                }
            })
            .collect();
        let opening = opening_plies.min(game.positions().len().saturating_sub(1));
        Trace {
            status: game.status(),
            reason: game.reason().map_or("capped", |r| r.as_str()),
            first_mover: engine.to_move(&game.positions()[0]),
            opening_plies,
            evals,
            branching,
            pieces,
            king_distance,
            width,
            occupied,
            landed,
            opening_hash: engine.hash(&game.positions()[opening]),
        }
    }

    /// Plies played, the opening's included.
    pub fn plies(&self) -> usize {
        self.branching.len()
    }

    /// The side that won, if one did.
    pub fn winner(&self) -> Option<Side> {
        match self.status {
            Status::AttackersWin => Some(Side::Attackers),
            Status::DefendersWin => Some(Side::Defenders),
            Status::Draw | Status::Ongoing => None,
        }
    }
}

/// Plays game number `index` of a run seeded with `seed` as `tafl selfplay` does (the same
/// opening, the same player on both sides, the same cap), and traces it.
pub fn play(
    engine: &Arc<Engine>,
    limits: &crate::search::Limits,
    (seed, index): (u64, u64),
    opening: crate::search::duel::Opening,
    adjudication: crate::search::duel::Adjudication,
) -> Trace {
    let start = crate::search::duel::opening_drawn(engine, seed, index, opening);
    play_from(start, limits, adjudication)
}

/// Plays `start` on with `limits` on both sides, and traces the game; the plies `start` already
/// has count as its opening.
pub fn play_from(
    start: Game,
    limits: &crate::search::Limits,
    adjudication: crate::search::duel::Adjudication,
) -> Trace {
    let opening_plies = start.plies().len();
    let mut scores = Vec::new();
    let game = crate::search::duel::play_out(start, limits, limits, adjudication, |g, report| {
        scores.push((g.to_move(), report.score));
    });
    Trace::record(&game, opening_plies, &scores)
}

/// For each kind of piece, the squares reaching which wins the game for its side, where some
/// escape rule names a king of that kind.
fn escape_targets(rules: &Rules) -> Vec<Option<Vec<Square>>> {
    rules
        .pieces
        .iter()
        .map(|piece| {
            if piece.role != Role::King {
                return None;
            }
            let squares: Vec<Square> = rules
                .outcome
                .escapes
                .iter()
                .filter(|escape| escape.piece == piece.name)
                .filter_map(|escape| rules.region(&escape.region))
                .flat_map(|region| region.squares.iter().copied())
                .collect();
            (!squares.is_empty()).then_some(squares)
        })
        .collect()
}

fn manhattan(a: Square, b: Square) -> u32 {
    u32::from(a.file.abs_diff(b.file)) + u32::from(a.rank.abs_diff(b.rank))
}

fn index(square: Square, width: usize) -> usize {
    usize::from(square.rank) * width + usize::from(square.file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn a_game_is_traced_position_by_position() {
        let variant = Variant::bundled("brandubh").expect("bundled");
        let engine = Arc::new(Engine::new(&variant.rules).expect("compiles"));
        let mut game = Game::new(engine.clone());
        for text in ["d6-f6", "d5-d6"] {
            let mv = game
                .legal_moves()
                .into_iter()
                .find(|m| m.to_string() == text);
            game.play(mv.expect("legal in brandubh")).expect("legal");
        }
        let trace = Trace::record(&game, 1, &[(Side::Defenders, Score::Value(40))]);
        assert_eq!(trace.plies(), 2);
        assert_eq!(trace.pieces.len(), 3);
        // Brandubh: eight attackers, four defenders and the king; nobody captured yet.
        assert_eq!(trace.pieces[0], [8, 5]);
        assert_eq!(trace.pieces[2], [8, 5]);
        // The defenders' +0.40 is the attackers' -0.40.
        assert_eq!(trace.evals, vec![-40]);
        // The king on d4 is three steps from the nearest corner's file and three from its rank.
        assert_eq!(trace.king_distance[0], Some(6));
        assert_eq!(trace.first_mover, Side::Attackers);
        assert_eq!(trace.status, Status::Ongoing);
        assert_eq!(trace.landed.iter().sum::<u32>(), 2);
        // Thirteen start squares, and f6 where an attacker went.
        assert_eq!(trace.occupied.iter().filter(|&&b| b).count(), 14);
        assert!(trace.branching.iter().all(|&n| n > 0));
    }

    #[test]
    fn forced_results_are_capped() {
        let variant = Variant::bundled("brandubh").expect("bundled");
        let engine = Arc::new(Engine::new(&variant.rules).expect("compiles"));
        let game = Game::new(engine);
        let trace = Trace::record(&game, 0, &[(Side::Attackers, Score::Loss(3))]);
        assert_eq!(trace.evals, vec![-EVAL_CAP]);
    }
}
