//! Positions: what a [`Position`] is, how one is made from a [`Setup`] and checked against the
//! rules, and what an engine reads off one (the pieces, the side to move, how it stands decided).

use super::bitboard::Bits;
use super::core::Pos;
use super::{bitboard::Wide, EndReason, Ending, Engine, GameOutcome, Inner};
use crate::ir::{RuleRef, Side, Square};

/// A position: where the pieces stand, whose move it is, and the little history the rules need
/// (which pieces have left a once-left region, the back-and-forth counters, plies since the last
/// capture).
///
/// Positions are made only by an [`Engine`]: its start, [`Engine::setup`] (which validates a
/// [`Setup`] against the rules) and its moves. A position remembers which engine made it; any
/// other engine treats it as an empty board with no moves (see [`Engine::owns`]), never
/// panicking and never reading it with the wrong geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) inner: PosInner,
    /// The [`Engine::id`] of the engine that made it.
    pub(super) engine: u32,
}

/// A position as plain data, not yet checked against any rules: pieces by square and kind
/// (an index into `Rules::pieces`), and the side to move. [`Engine::setup`] turns it into a
/// [`Position`] or says why the rules make it impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces: square and kind.
    pub pieces: Vec<(Square, usize)>,
    /// The side to move.
    pub to_move: Side,
}

/// Why a [`Setup`] is not a position of the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece stands off the board.
    #[error("{square} is outside the board")]
    OffBoard {
        /// The square.
        square: Square,
    },
    /// A piece kind the rules do not declare.
    #[error("piece kind #{kind} is not declared by the rules")]
    UnknownKind {
        /// The index given.
        kind: usize,
    },
    /// Two pieces on one square.
    #[error("two pieces stand on {square}")]
    SharedSquare {
        /// The square.
        square: Square,
    },
    /// More pieces of a kind than the game starts with (pieces are never added).
    #[error(
        "the position has {found} {piece} {}, but the game starts with {most}",
        crate::english::noun(*.found, "piece")
    )]
    TooMany {
        /// The piece's name.
        piece: String,
        /// How many the setup has.
        found: usize,
        /// How many the start position has.
        most: usize,
    },
    /// A piece on a square its kind may never land on, and did not start on.
    #[error("the {piece} on {square} stands where it may never land")]
    Forbidden {
        /// The piece's name.
        piece: String,
        /// The square.
        square: Square,
        /// The access rule that forbids it.
        rule: RuleRef,
    },
}

// Positions are `Copy` and never allocate, so copy-make stays cheap on 9x9 and 11x11; the price
// is that every position is as large as a 19x19 one (about 700 bytes), which only matters for
// games kept in a history.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum PosInner {
    Narrow(Pos<u128>),
    Wide(Pos<Wide>),
}

impl Engine {
    /// Whether `position` was made by this engine (or a clone of it). Every method treats a
    /// position it does not own as an empty board with no moves.
    pub fn owns(&self, position: &Position) -> bool {
        position.engine == self.id
    }

    /// The position `setup` describes, with no history: every piece standing in a once-left
    /// region counts as never having left it.
    ///
    /// # Errors
    /// [`PositionError`] when the rules make the setup impossible: a piece off the board or of
    /// an unknown kind, two on one square, more pieces of a kind than the game starts with
    /// (two kings), or a piece on a square its kind may never land on and did not start on (a
    /// soldier on a throne nobody may land on, an attacker on a corner only the king may enter).
    /// A position that is legal but already decided is accepted; see
    /// [`Engine::standing_ending`].
    pub fn setup(&self, setup: &Setup) -> Result<Position, PositionError> {
        let start = self.pieces(&self.start);
        let kinds = &self.rules.pieces;
        let mut seen = std::collections::BTreeSet::new();
        let mut counts = vec![0usize; kinds.len()];
        for &(square, kind) in &setup.pieces {
            if !self.is_on(square) {
                return Err(PositionError::OffBoard { square });
            }
            if kind >= kinds.len() {
                return Err(PositionError::UnknownKind { kind });
            }
            if !seen.insert((square.file, square.rank)) {
                return Err(PositionError::SharedSquare { square });
            }
            counts[kind] += 1;
            if !start.contains(&(square, kind)) {
                if let Some(rule) = self.never_lands(kind, square) {
                    return Err(PositionError::Forbidden {
                        piece: kinds[kind].display.clone(),
                        square,
                        rule,
                    });
                }
            }
        }
        for (kind, &found) in counts.iter().enumerate() {
            let most = start.iter().filter(|(_, k)| *k == kind).count();
            if found > most {
                return Err(PositionError::TooMany {
                    piece: kinds[kind].display.clone(),
                    found,
                    most,
                });
            }
        }
        Ok(self.position_unchecked(&setup.pieces, setup.to_move))
    }

    /// The access rule that forbids a piece of `kind` ever to land on `square`, if one does
    /// (conditional rules do not: a once-left or group condition may allow it).
    fn never_lands(&self, kind: usize, square: Square) -> Option<RuleRef> {
        let name = &self.rules.pieces[kind].name;
        self.rules.access.iter().enumerate().find_map(|(i, rule)| {
            let region = self.rules.region(&rule.region)?;
            (rule.condition == crate::ir::AccessCondition::Always
                && rule.action.includes_landing()
                && rule.pieces.contains(name)
                && region.squares.contains(&square))
            .then_some(RuleRef::Access(i))
        })
    }

    /// A position with `pieces` on the board (squares on it, known kinds: callers check) and
    /// `to_move` to play, with no history.
    pub(super) fn position_unchecked(&self, pieces: &[(Square, usize)], to_move: Side) -> Position {
        let raw: Vec<(usize, usize)> = pieces
            .iter()
            .filter(|(square, kind)| self.is_on(*square) && *kind < self.rules.pieces.len())
            .map(|&(square, kind)| (self.index(square), kind))
            .collect();
        let inner = match &self.inner {
            Inner::Narrow(core) => PosInner::Narrow(core.setup(&raw, to_move)),
            Inner::Wide(core) => PosInner::Wide(core.setup(&raw, to_move)),
        };
        Position {
            inner,
            engine: self.id,
        }
    }

    /// `position` with the other side to move (the pieces and their history unchanged): what
    /// the position would offer the side that just moved.
    /// A berserk move due in `position` is dropped: the side given moves freely.
    /// A position this engine does not own is returned as it is: its berserker square indexes
    /// another board's tables.
    pub fn with_side_to_move(&self, position: &Position, side: Side) -> Position {
        let mut flipped = *position;
        if !self.owns(position) {
            return flipped;
        }
        match (&self.inner, &mut flipped.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => core.set_to_move(pos, side),
            (Inner::Wide(core), PosInner::Wide(pos)) => core.set_to_move(pos, side),
            // An owned position always has this engine's width.
            _ => {}
        }
        flipped
    }

    /// How `position` already stands decided, before anyone moves in it: a piece stands on a
    /// square its escape rule wins on, a piece whose capture decides is missing from the board,
    /// or the side to move has no legal move. `None` for a position where play goes on.
    pub fn standing_ending(&self, position: &Position) -> Option<Ending> {
        if !self.owns(position) {
            return None;
        }
        let pieces = self.pieces(position);
        let kind_of = |name: &str| self.rules.pieces.iter().position(|p| p.name == name);
        for (i, escape) in self.rules.outcome.escapes.iter().enumerate() {
            let (Some(kind), Some(region)) =
                (kind_of(&escape.piece), self.rules.region(&escape.region))
            else {
                continue;
            };
            if pieces
                .iter()
                .any(|(square, k)| *k == kind && region.squares.contains(square))
            {
                let reason = if self.rules.pieces[kind].role == crate::ir::Role::King {
                    EndReason::KingEscaped
                } else {
                    EndReason::PieceEscaped
                };
                return Some(Ending {
                    outcome: GameOutcome::Win(escape.winner),
                    reason,
                    rule: Some(RuleRef::Escape(i)),
                });
            }
        }
        let start = self.pieces(&self.start);
        for (i, capture) in self.rules.outcome.decisive_captures.iter().enumerate() {
            let Some(kind) = kind_of(&capture.piece) else {
                continue;
            };
            let present = |list: &[(Square, usize)]| list.iter().any(|(_, k)| *k == kind);
            if present(&start) && !present(&pieces) {
                let reason = if self.rules.pieces[kind].role == crate::ir::Role::King {
                    EndReason::KingCaptured
                } else {
                    EndReason::LeaderCaptured
                };
                return Some(Ending {
                    outcome: GameOutcome::Win(capture.winner),
                    reason,
                    rule: Some(RuleRef::DecisiveCapture(i)),
                });
            }
        }
        let board = match (&self.inner, &position.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => core.board_ending(pos, None),
            (Inner::Wide(core), PosInner::Wide(pos)) => core.board_ending(pos, None),
            // `owns` above guarantees the position was made by this engine's width.
            _ => None,
        };
        if board.is_some() {
            return board;
        }
        (!self.has_moves(position)).then(|| self.no_moves_ending(position))
    }

    /// The square of the piece that has just captured and must move again (a berserk move),
    /// if one is due in `position`; its side is the side to move.
    pub fn berserker(&self, position: &Position) -> Option<Square> {
        let berserker = match &position.inner {
            PosInner::Narrow(pos) => pos.berserker,
            PosInner::Wide(pos) => pos.berserker,
        };
        (berserker != super::core::NONE && self.owns(position))
            .then(|| self.square(usize::from(berserker)))
    }

    /// The side to move in `position`.
    pub fn to_move(&self, position: &Position) -> Side {
        match &position.inner {
            PosInner::Narrow(pos) => pos.to_move,
            PosInner::Wide(pos) => pos.to_move,
        }
    }

    /// The Zobrist hash of `position` (pieces and side to move), kept up to date move by move.
    pub fn hash(&self, position: &Position) -> u64 {
        match &position.inner {
            PosInner::Narrow(pos) => pos.hash,
            PosInner::Wide(pos) => pos.hash,
        }
    }

    /// The Zobrist hash of `position` computed from scratch; always equal to [`Engine::hash`].
    pub fn full_hash(&self, position: &Position) -> u64 {
        with_core!(self, position, |core, pos| core.full_hash(pos), else 0)
    }

    /// Plies since the last capture (or since the position was set up).
    pub fn quiet_plies(&self, position: &Position) -> u32 {
        match &position.inner {
            PosInner::Narrow(pos) => pos.quiet_plies,
            PosInner::Wide(pos) => pos.quiet_plies,
        }
    }

    /// The piece on `square`, as an index into `Rules::pieces`.
    pub fn piece_at(&self, position: &Position, square: Square) -> Option<usize> {
        if !self.is_on(square) {
            return None;
        }
        let index = self.index(square);
        with_core!(self, position, |core, pos| core.piece_on(pos, index), else None)
    }

    /// Every piece: its square and kind (index into `Rules::pieces`), by rank then file.
    pub fn pieces(&self, position: &Position) -> Vec<(Square, usize)> {
        // Each kind's set of squares, then sorted by square: a board holds far fewer pieces
        // than squares, and testing every square against every kind was a sixth of a step of
        // Python's vectorised environment. Squares hold one piece each, so the order is total.
        let mut found: Vec<(usize, usize)> = with_core!(self, position, |core, pos| (0..core.kinds.len())
            .flat_map(|k| pos.pieces[k].iter().map(move |sq| (sq, k)))
            .collect(), else Vec::new());
        found.sort_unstable();
        found
            .into_iter()
            .map(|(sq, k)| (self.square(sq), k))
            .collect()
    }
}
