//! Why a move is refused.

use crate::ir::Square;

/// Why a move is not legal. Where a rule of the variant forbids it, [`Engine::why_illegal`](super::Engine::why_illegal)
/// returns that rule too.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// The from-square is empty.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The from-square.
        square: Square,
    },
    /// The piece on the from-square belongs to the other side.
    #[error("the piece on {square} belongs to the side not to move")]
    NotYourPiece {
        /// The from-square.
        square: Square,
    },
    /// The move goes nowhere.
    #[error("a move must go to another square")]
    NullMove,
    /// A square is outside the board.
    #[error("{square} is outside the board")]
    OffBoard {
        /// The square.
        square: Square,
    },
    /// The target square holds a piece.
    #[error("{square} is occupied")]
    Occupied {
        /// The target square.
        square: Square,
    },
    /// The squares are not on one rank or file.
    #[error("pieces move along a rank or a file")]
    NotInLine,
    /// A piece stands in the way.
    #[error("the way is blocked at {square}")]
    Blocked {
        /// The first occupied square on the way.
        square: Square,
    },
    /// The piece moves no further than this.
    #[error("the {piece} moves at most {}", crate::english::count(usize::from(*.max), "square"))]
    TooFar {
        /// The piece's name.
        piece: String,
        /// Its maximum distance.
        max: u8,
    },
    /// An access rule forbids landing there.
    #[error("the {piece} may not land on {square}")]
    MayNotLand {
        /// The piece's name.
        piece: String,
        /// The target square.
        square: Square,
    },
    /// An access rule forbids passing over a square on the way.
    #[error("the {piece} may not pass over {square}")]
    MayNotPass {
        /// The piece's name.
        piece: String,
        /// The square it would pass.
        square: Square,
    },
    /// The piece has shuttled between these two squares too often.
    #[error(
        "a piece may move back and forth between the same two squares only {} in a row",
        crate::english::count(*.limit as usize, "time")
    )]
    BackAndForth {
        /// The limit.
        limit: u32,
    },
    /// A berserk move is due: only the piece that just captured may move.
    #[error("the piece on {square} has just captured and must move again")]
    BerserkerMovesAgain {
        /// The berserker's square.
        square: Square,
    },
    /// A berserk move must capture.
    #[error("a berserk move must capture")]
    BerserkMustCapture,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The position was made by an engine for other rules (see [`Engine::owns`](super::Engine::owns)).
    #[error("the position belongs to another variant's engine")]
    ForeignPosition,
    /// Move generation refuses the move and the explaining path finds no reason. A property
    /// test checks that this never happens; it exists so that a disagreement is an error, not
    /// a panic or a wrongly accepted move.
    #[error("the move is not among the legal moves")]
    NotGenerated,
}
