//! Jumps and berserk: pieces that jump over enemies, and moves that go on after a capture.

use super::words::Words;
use super::Section;
use crate::english::join_or;
use crate::ir::{Berserk, JumpRule, Role, RuleRef};

/// One sentence a jump, said under "where pieces may go" (which `tafl diff` compares sentence
/// by sentence).
pub(super) fn jumps(words: &Words, section: &mut Section, jumps: &[JumpRule]) {
    for (index, jump) in jumps.iter().enumerate() {
        let only = if jump.only_from_or_to.is_empty() {
            String::new()
        } else {
            let regions: Vec<String> = jump
                .only_from_or_to
                .iter()
                .map(|region| words.region(region))
                .collect();
            format!(", only from or onto {}", join_or(&regions))
        };
        let taken = if jump.captures {
            "; the jumped piece is captured"
        } else {
            "; the jumped piece stays (the jump captures only as any move does, where it lands)"
        };
        let jumpers = words.pieces(&jump.pieces);
        // "the King ... next to him", "Knights ... next to them".
        let one_king = match jump.pieces.as_slice() {
            [only] => words
                .rules
                .piece(only)
                .is_some_and(|piece| piece.role == Role::King),
            _ => false,
        };
        let beside = if one_king { "him" } else { "them" };
        section.push_for(
            format!(
                "Jump: {jumpers} may jump over {} next to {beside} onto the empty square just beyond{only}{taken}.",
                words.pieces_or(&jump.over)
            ),
            [RuleRef::Jump(index)],
        );
    }
}

/// What the capturing piece must do after a capture, if the variant is berserk.
pub(super) fn berserk(section: &mut Section, berserk: Option<Berserk>) {
    if let Some(berserk) = berserk {
        let what = match berserk {
            Berserk::CaptureAgain => "Berserk: after a capture, while the capturing piece can capture again, its side must move it again, and that move must capture. The turn passes when it can capture no more",
            Berserk::MoveWhileItCanCapture => "Berserk: after a capture, while the capturing piece has a capturing move, its side must move it again, capturing or not. The turn passes after a move that captures nothing, or when it can capture no more",
            Berserk::MoveAgain => "Berserk: after a capture, the capturing piece must make one more move, any move, if it can move (and again after each further capture)",
        };
        section.push_for(format!("{what}."), [RuleRef::Berserk]);
    }
}
