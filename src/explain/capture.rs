//! Capture: the custodial capture every variant shares, and which kinds help in it.

use super::words::Words;
use super::Section;
use crate::ir::{Armed, PieceKind, Role, RuleRef};

/// The custodial capture, then each kind that is not simply armed.
pub(super) fn custodial(words: &Words, section: &mut Section, pieces: &[PieceKind]) {
    section.push("A piece is captured when the enemy moves a piece so that it stands between two enemies on opposite sides \
         (along a rank or file). Only the side that moved captures, and a piece may safely move between two enemies.".to_string());
    for (index, piece) in pieces.iter().enumerate() {
        let sentence = match piece.armed {
            Armed::Yes if piece.role == Role::Soldier => continue,
            Armed::Yes => format!(
                "{} helps capture, like any other piece.",
                words.piece_plural(&piece.name)
            ),
            Armed::No => format!("{} never helps capture.", words.piece_plural(&piece.name)),
            Armed::Hammer => format!(
                "{} captures only as the piece that moves, not as the one standing still.",
                words.piece_plural(&piece.name)
            ),
            Armed::Anvil => format!(
                "{} captures only as the piece standing still, not as the one that moves.",
                words.piece_plural(&piece.name)
            ),
        };
        section.push_for(sentence, [RuleRef::Armed(index)]);
    }
}
