//! What a move does, in a player's words, for `hint`: it captures, wins, threatens to win or
//! to capture, stops the other side's threat, or takes a piece out of danger.
//!
//! A threat is what the side would do next if it moved again at once: the engine's position
//! with that side to move ([`Engine::with_side_to_move`]), one ply deep. That is what a player
//! sees on the board; the search's longer reasons are summed up by the score instead.

use std::collections::BTreeSet;

use super::Session;
use crate::engine::{Engine, GameOutcome, Move, Position};
use crate::english;
use crate::ir::{Side, Square};

/// What `side` could do at once in `position` if it had the move.
struct Threats {
    /// Moves that win on the spot.
    wins: Vec<Move>,
    /// Squares of enemy pieces some move captures.
    captures: BTreeSet<(u8, u8)>,
}

fn threats(engine: &Engine, position: &Position, side: Side) -> Threats {
    let position = engine.with_side_to_move(position, side);
    let mut wins = Vec::new();
    let mut captures = BTreeSet::new();
    for mv in engine.legal_moves(&position) {
        let (_, effects) = engine.play_unchecked(&position, mv);
        if effects
            .ending
            .is_some_and(|e| e.outcome == GameOutcome::Win(side))
        {
            wins.push(mv);
        }
        captures.extend(effects.captured.iter().map(|s| (s.file, s.rank)));
    }
    Threats { wins, captures }
}

/// `the Muscovite on d4`.
fn piece_on(session: &Session, position: &Position, square: Square) -> String {
    match session.game.engine().piece_at(position, square) {
        Some(kind) => format!(
            "the {} on {square}",
            session.game.engine().rules().pieces[kind].display
        ),
        None => square.to_string(),
    }
}

fn squares(set: &BTreeSet<(u8, u8)>) -> Vec<Square> {
    set.iter().map(|&(f, r)| Square::new(f, r)).collect()
}

/// What playing `mv` now does, as a clause: `it captures the Swede on d4 and threatens to win
/// with e5-e9`. Several effects are joined; a quiet move says so.
///
/// # Errors
/// The refusal, should `mv` not be legal (the search gives only legal moves).
pub fn what_it_does(session: &Session, mv: Move) -> Result<String, String> {
    let engine = session.game.engine();
    let before = *session.game.position();
    let side = session.game.to_move();
    let mut preview = session.game.clone();
    let ply = preview
        .play(mv)
        .map_err(|e| e.describe(Some(&session.variant)))?
        .clone();
    let after = *preview.position();
    let mut does = Vec::new();
    if !ply.captured.is_empty() {
        let taken: Vec<String> = ply
            .captured
            .iter()
            .map(|&sq| piece_on(session, &before, sq))
            .collect();
        does.push(format!("captures {}", crate::english::join_and(&taken)));
    }
    if let Some(ending) = preview.ending() {
        does.push(match ending.outcome {
            GameOutcome::Win(winner) if winner == side => "wins the game".to_string(),
            GameOutcome::Win(_) => "ends the game, lost".to_string(),
            GameOutcome::Draw => "ends the game in a draw".to_string(),
        });
        return Ok(format!("it {}", crate::english::join_and(&does)));
    }
    let theirs_before = threats(engine, &before, side.opponent());
    let theirs_after = threats(engine, &after, side.opponent());
    if !theirs_before.wins.is_empty() && theirs_after.wins.is_empty() {
        let moves: Vec<String> = theirs_before.wins.iter().map(Move::to_string).collect();
        does.push(format!(
            "stops {} winning with {}",
            english::side_noun(session.rules(), side.opponent()),
            crate::english::join_or(&moves)
        ));
    }
    // Our pieces the other side could take before and can no longer (the moved piece counts
    // on its new square, so a piece that steps out of danger is saved).
    let moved = |(f, r): (u8, u8)| {
        if (f, r) == (mv.from.file, mv.from.rank) {
            (mv.to.file, mv.to.rank)
        } else {
            (f, r)
        }
    };
    let saved: BTreeSet<(u8, u8)> = theirs_before
        .captures
        .iter()
        .map(|&s| moved(s))
        .filter(|s| !theirs_after.captures.contains(s))
        .collect();
    if !saved.is_empty() {
        let names: Vec<String> = squares(&saved)
            .into_iter()
            .map(|sq| piece_on(session, &after, sq))
            .collect();
        does.push(format!(
            "takes {} out of danger",
            crate::english::join_and(&names)
        ));
    }
    let ours_before = threats(engine, &before, side);
    let ours_after = threats(engine, &after, side);
    if let Some(win) = ours_after.wins.first() {
        does.push(format!("threatens to win with {win}"));
    }
    let new_targets: BTreeSet<(u8, u8)> = ours_after
        .captures
        .difference(&ours_before.captures)
        .copied()
        .collect();
    if !new_targets.is_empty() {
        let names: Vec<String> = squares(&new_targets)
            .into_iter()
            .map(|sq| piece_on(session, &after, sq))
            .collect();
        does.push(format!(
            "threatens to capture {}",
            crate::english::join_or(&names)
        ));
    }
    if does.is_empty() {
        return Ok("it is a quiet move: it captures and threatens nothing at once, and the search finds nothing better".to_string());
    }
    Ok(format!("it {}", crate::english::join_and(&does)))
}
