//! The harness that plays random games with the engine's [`tafl::Game`] and the reference side
//! by side: the same legal moves, captures, side to move and endings ply by ply, and the same
//! perft(2) every 25 plies.

use std::sync::Arc;

use tafl::engine::Engine;
use tafl::ir::Rules;

use super::{RefPos, Reference};

/// What the games exercised, so a caller can check that they reached the rules it cares about.
#[derive(Default)]
pub struct Exercised {
    /// Plies played.
    pub plies: usize,
    /// Jumps played (two squares in a line over a piece).
    pub jumps: usize,
    /// Plies played while a berserk move was due.
    pub berserk_moves: usize,
}

/// Whether `from`-`to` goes over a piece two squares away in a line: a jump.
fn is_jump(pos: &RefPos, from: (i32, i32), to: (i32, i32)) -> bool {
    (from.0 - to.0).abs() + (from.1 - to.1).abs() == 2
        && (from.0 == to.0 || from.1 == to.1)
        && pos.board[((from.1 + to.1) / 2) as usize][((from.0 + to.0) / 2) as usize].is_some()
}

/// Plays `games` seeded random games of at most 300 plies. With `prefer_tactics`, two moves in
/// three are drawn from the captures and jumps when there are any, so that berserk turns and
/// jumps come up often.
pub fn agree_along_random_games(
    name: &str,
    rules: &Rules,
    games: u64,
    prefer_tactics: bool,
) -> Exercised {
    let engine = Arc::new(Engine::new(rules).unwrap());
    let reference = Reference::new(rules);
    let mut seen = Exercised::default();
    for seed in 0..games {
        let mut rng = tafl::engine::Rng::new(seed);
        let mut game = tafl::Game::new(engine.clone());
        let mut pos = reference.start();
        let mut history = Vec::new();
        for ply in 0..300 {
            if game.is_over() {
                break;
            }
            let moves: Vec<_> = game
                .legal_moves()
                .iter()
                .map(|m| {
                    (
                        (m.from.file as i32, m.from.rank as i32),
                        (m.to.file as i32, m.to.rank as i32),
                    )
                })
                .collect();
            let mut sorted = moves.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                reference.moves(&pos),
                "{name} game {seed} ply {ply}: move lists differ"
            );
            if ply % 25 == 0 {
                assert_eq!(
                    engine.perft(game.position(), 2),
                    reference.perft(&pos, 2, &mut Vec::new()),
                    "{name} game {seed} ply {ply}: perft 2"
                );
            }
            let tactical: Vec<_> = if prefer_tactics {
                moves
                    .iter()
                    .copied()
                    .filter(|&(f, t)| {
                        is_jump(&pos, f, t) || !reference.play(&mut pos.clone(), f, t).0.is_empty()
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let pool = if !tactical.is_empty() && rng.below(3) > 0 {
                &tactical
            } else {
                &moves
            };
            let (from, to) = pool[rng.below(pool.len())];
            seen.plies += 1;
            seen.jumps += usize::from(is_jump(&pos, from, to));
            seen.berserk_moves += usize::from(pos.berserker.is_some());
            let mv = tafl::Move::new(
                tafl::Square::new(from.0 as u8, from.1 as u8),
                tafl::Square::new(to.0 as u8, to.1 as u8),
            );
            let played = game.play(mv).unwrap().clone();
            history.push(pos.clone());
            let (mut captured, mut end) = reference.play(&mut pos, from, to);
            let engine_captured: Vec<_> = played
                .captured
                .iter()
                .map(|s| (s.file as i32, s.rank as i32))
                .collect();
            captured.sort();
            assert_eq!(
                engine_captured, captured,
                "{name} game {seed} ply {ply}: captures of {mv}"
            );
            assert_eq!(
                game.to_move(),
                pos.to_move,
                "{name} game {seed} ply {ply}: side to move after {mv}"
            );
            if end.is_none() {
                end = reference.repetition(&pos, &history);
            }
            if end.is_none() && reference.moves(&pos).is_empty() {
                end = Some((None, "no_moves"));
            }
            assert_eq!(
                played.ending.map(|e| e.reason.as_str()),
                end.map(|e| e.1),
                "{name} game {seed} ply {ply}: ending after {mv}"
            );
        }
    }
    seen
}
