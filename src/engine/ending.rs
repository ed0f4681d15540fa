//! How a game ends: who won, why, and the rule that says so.

use crate::ir::{RuleRef, Side};

/// Who won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl GameOutcome {
    /// `attackers_win`, `defenders_win` or `draw`: the word of the CLI contract.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameOutcome::Win(Side::Attackers) => "attackers_win",
            GameOutcome::Win(Side::Defenders) => "defenders_win",
            GameOutcome::Draw => "draw",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A king reached an escape square.
    KingEscaped,
    /// A piece other than a king reached an escape square.
    PieceEscaped,
    /// A king was captured.
    KingCaptured,
    /// A decisive piece other than a king was captured.
    LeaderCaptured,
    /// The side to move had no legal move.
    NoMoves,
    /// The winner enclosed the other side.
    Encircled,
    /// A king held an edge fort.
    EdgeFort,
    /// A position was repeated (automatically, or claimed).
    Repetition,
    /// Too many moves without a capture.
    MoveLimit,
    /// The players agreed a draw.
    Agreement,
    /// A player resigned.
    Resignation,
}

impl EndReason {
    /// The reason word of the CLI contract (`king_escaped`, `no_moves`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::KingEscaped => "king_escaped",
            EndReason::PieceEscaped => "piece_escaped",
            EndReason::KingCaptured => "king_captured",
            EndReason::LeaderCaptured => "leader_captured",
            EndReason::NoMoves => "no_moves",
            EndReason::Encircled => "encircled",
            EndReason::EdgeFort => "edge_fort",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move_limit",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
        }
    }

    /// Whether a move on the board alone ends the game so (a king escaped or was captured, a
    /// side enclosed or left without a move), rather than something players may declare or
    /// claim (a resignation, an agreed draw, a repetition or a move limit, which some rules
    /// leave to a claim).
    pub const fn decided_on_the_board(self) -> bool {
        match self {
            EndReason::KingEscaped
            | EndReason::PieceEscaped
            | EndReason::KingCaptured
            | EndReason::LeaderCaptured
            | EndReason::NoMoves
            | EndReason::Encircled
            | EndReason::EdgeFort => true,
            EndReason::Repetition
            | EndReason::MoveLimit
            | EndReason::Agreement
            | EndReason::Resignation => false,
        }
    }

    /// Every reason, in the order of the enum.
    pub const ALL: [EndReason; 11] = [
        EndReason::KingEscaped,
        EndReason::PieceEscaped,
        EndReason::KingCaptured,
        EndReason::LeaderCaptured,
        EndReason::NoMoves,
        EndReason::Encircled,
        EndReason::EdgeFort,
        EndReason::Repetition,
        EndReason::MoveLimit,
        EndReason::Agreement,
        EndReason::Resignation,
    ];

    /// The reason whose word ([`EndReason::as_str`]) is `name`.
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.as_str() == name)
    }

    /// The reason in a few words for a list of how games ended ("the king escaped"), without
    /// the variant's own names, which a rule-citing sentence (`tafl play`) gives instead.
    pub const fn words(self) -> &'static str {
        match self {
            EndReason::KingEscaped => "the king escaped",
            EndReason::PieceEscaped => "a piece escaped",
            EndReason::KingCaptured => "the king was captured",
            EndReason::LeaderCaptured => "a leader was captured",
            EndReason::NoMoves => "a side could not move",
            EndReason::Encircled => "a side was enclosed",
            EndReason::EdgeFort => "an edge fort held",
            EndReason::Repetition => "a position was repeated",
            EndReason::MoveLimit => "too many moves without a capture",
            EndReason::Agreement => "the players agreed",
            EndReason::Resignation => "a player resigned",
        }
    }
}

/// How a game ended: the result, why, and the rule of the variant that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Who won.
    pub outcome: GameOutcome,
    /// Why.
    pub reason: EndReason,
    /// The rule that ended the game (cite it with [`crate::Variant::line_of`] and
    /// [`crate::Variant::clause_text`]). `None` only for a resignation, which no rule decides.
    pub rule: Option<RuleRef>,
}
