//! Playing one move at the prompt: reading it, refusing it in words that cite the rule, or
//! making it and saying what it did. The commands (`commands.rs`), the computer (`computer.rs`)
//! and loading a record (`record.rs`) all play their moves through here, so a move reads the
//! same whoever makes it, and none of them needs the others.

use super::{capitalise, Outcome, Reply, Session};
use crate::engine::Move;
use crate::english;
use crate::english::count;
use crate::game::announce;
use crate::game::IllegalMove;
use crate::ir::RuleRef;
use crate::ir::Square;

/// A letter then a digit: the start of a square or a move.
pub(super) fn looks_like_square(word: &str) -> bool {
    let mut chars = word.chars();
    matches!((chars.next(), chars.next()), (Some(l), Some(d)) if l.is_ascii_alphabetic() && d.is_ascii_digit())
}

/// `z9-a1 is illegal: z9 is outside the board` for a move naming a square past the largest
/// board, worded as a square past this board is (one wording for both).
pub(super) fn off_board(text: &str) -> Option<String> {
    if let Err(crate::game::notation::ParseMoveError::Square {
        source: crate::ir::ParseSquareError::OutOfRange(square),
        ..
    }) = text.parse::<Move>()
    {
        Some(format!("{text} is illegal: {square} is outside the board"))
    } else {
        None
    }
}

pub(super) fn parse_move(text: &str) -> Result<Move, String> {
    if let Some(refusal) = off_board(text) {
        return Err(format!("{refusal}; `moves` lists the legal moves"));
    }
    if let Ok(square) = text.parse::<Square>() {
        return Err(format!(
            "`{square}` is only a square: add where the piece goes, like `{square}-…` (`moves {square}` lists them)"
        ));
    }
    text.parse::<Move>()
        .map_err(|e| format!("{e}; `moves` lists the legal moves"))
}

pub(super) fn game_over(session: &Session) -> String {
    let verdict = session.verdict().unwrap_or_default();
    let head = verdict.split(':').next().unwrap_or_default();
    format!(
        "the game is over ({head}): type `undo` to take back the last move, `new` for a new game, or `save FILE`"
    )
}

/// For a refusal no clause of the variant decides: the rule every tafl game shares that
/// forbids it, or the piece's own movement clause where the file has one.
pub(super) fn common_rule(session: &Session, illegal: &IllegalMove) -> String {
    use crate::engine::IllegalReason;
    if illegal.rule.is_some() {
        return String::new();
    }
    let movement = || {
        session
            .game
            .engine()
            .piece_at(session.game.position(), illegal.mv.from)
            .map(|kind| session.cite(RuleRef::Movement(kind)))
            .filter(|cited| !cited.is_empty())
    };
    let shared = match &illegal.reason {
        IllegalReason::NotInLine | IllegalReason::Blocked { .. } | IllegalReason::NullMove => {
            if let Some(cited) = movement() {
                return cited;
            }
            "pieces move like rooks, any distance along a rank or a file over empty squares"
        }
        IllegalReason::Occupied { .. } => "a piece lands only on an empty square",
        IllegalReason::TooFar { .. } => return movement().unwrap_or_default(),
        IllegalReason::NoPiece { .. } | IllegalReason::NotYourPiece { .. } => {
            "each side moves its own pieces, one move a turn"
        }
        // A clause decides these (and is cited), or the game's state does.
        IllegalReason::OffBoard { .. }
        | IllegalReason::MayNotLand { .. }
        | IllegalReason::MayNotPass { .. }
        | IllegalReason::BackAndForth { .. }
        | IllegalReason::BerserkerMovesAgain { .. }
        | IllegalReason::BerserkMustCapture
        | IllegalReason::GameOver
        | IllegalReason::ForeignPosition
        | IllegalReason::NotGenerated => return String::new(),
    };
    format!(" (the rule of every tafl game: {shared})")
}

/// The refusal of an illegal move, citing the clause, with what to type instead.
pub(super) fn refusal(session: &Session, illegal: &IllegalMove) -> String {
    let text = illegal.describe(Some(&session.variant));
    let hint = if session
        .game
        .legal_moves()
        .iter()
        .any(|m| m.from == illegal.mv.from)
    {
        format!("`moves {}` lists that piece's moves", illegal.mv.from)
    } else {
        "`moves` lists the legal moves".to_string()
    };
    format!("{text}; {hint}")
}

/// Plays the move `text`, with the board and what follows it.
pub(super) fn play(session: &mut Session, text: &str) -> Outcome {
    let mv = parse_move(text)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    let mut out = play_move(session, mv).map_err(|e| refusal(session, &e))?;
    if session.redo.last() == Some(&mv) {
        session.redo.pop();
    } else {
        session.redo.clear();
    }
    out.push_str(&session.show());
    out.push_str(&after_move(session));
    Ok(Reply::Text(out))
}

/// Plays `mv`; returns the line saying what happened.
pub(super) fn play_move(session: &mut Session, mv: Move) -> Result<String, IllegalMove> {
    let before = *session.game.position();
    let side = session.game.to_move();
    let offer = session.game.draw_offer();
    let ply = session.game.play(mv)?.clone();
    let mut line = format!(
        "{} {mv}",
        capitalise(&english::side_verb(session.rules(), side, "play"))
    );
    if !ply.captured.is_empty() {
        line.push_str(&format!(
            ", capturing {}",
            describe_captures(session, &before, &ply.captured)
        ));
    }
    line.push('.');
    match (offer, session.game.draw_offer()) {
        (Some(offerer), None) => line.push_str(&format!(
            " (The move declines the draw {} offered.)",
            english::side_noun(session.rules(), offerer)
        )),
        (_, Some(offerer)) if !session.is_over() => line.push_str(&format!(
            " ({} may accept the draw {} offered: type `draw`.)",
            capitalise(&english::side_noun(session.rules(), offerer.opponent())),
            english::side_noun(session.rules(), offerer)
        )),
        _ => {}
    }
    line.push('\n');
    Ok(line)
}

/// `the Swede on d4 and the Swede on f4`.
pub(super) fn describe_captures(
    session: &Session,
    before: &crate::engine::Position,
    squares: &[Square],
) -> String {
    let rules = session.game.engine().rules();
    let names: Vec<String> = squares
        .iter()
        .map(|&sq| match session.game.engine().piece_at(before, sq) {
            Some(kind) => format!("the {} on {sq}", rules.pieces[kind].display),
            None => sq.to_string(),
        })
        .collect();
    names.join(" and ")
}

/// Announcements, the result, or a claimable draw: what to say after a move.
pub(super) fn after_move(session: &Session) -> String {
    let mut out = String::new();
    if session.verdict().is_some() {
        out.push_str(
            "Type `new` for a new game, `undo` to take the move back, `save FILE` to keep it.\n",
        );
        return out;
    }
    // The side that just moved makes its calls.
    let Some(mover) = session.game.plies().last().map(|ply| ply.mover) else {
        return out;
    };
    if let Some(square) = session.game.engine().berserker(session.game.position()) {
        let piece = session
            .game
            .engine()
            .piece_at(session.game.position(), square)
            .map_or_else(String::new, |kind| {
                session.game.engine().rules().pieces[kind].display.clone()
            });
        out.push_str(&format!(
            "Berserk! The {piece} on {square} has captured and moves again{}.\n",
            if session.game.engine().rules().berserk == Some(crate::ir::Berserk::CaptureAgain) {
                ", and must capture"
            } else {
                ""
            }
        ));
    }
    let calls = announce::calls(session.game.engine(), session.game.position());
    for call in calls.into_iter().filter(|call| call.side == mover) {
        out.push_str(&format!(
            "{}! The {} on {} has {} to the {}: {}.\n",
            call.word,
            call.piece,
            call.square,
            count(call.routes.len(), "clear route"),
            call.region,
            english::squares(&call.routes)
        ));
    }
    if session.game.can_claim_draw() {
        out.push_str("A draw can be claimed now: type `claim`.\n");
    }
    out
}
