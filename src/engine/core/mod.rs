//! The compiled rules and the position for one bit-set width. Everything here is generic over
//! [`Bits`] and monomorphised per width; [`super::Engine`] picks the width once.
//!
//! One file a clause family, the same families as the checker and the explanations:
//! `compile.rs` turns [`Rules`] into the tables below; `moves.rs` is movement and access, jumps
//! and berserk moves (what a piece may reach, and why not); `capture.rs` is hostility, custodial
//! capture, king capture, sandwiches and the shieldwall; `endings.rs` is reaching (escape),
//! encirclement, repetition and the other draws; `fort.rs` is the edge fort; `flood.rs` is the
//! flood fill those two and the evaluation's corner walls share; `step.rs` plays one ply through
//! all of them, the one place a move is made.

mod capture;
mod compile;
mod endings;
mod flood;
pub(super) mod fort;
mod moves;
mod step;
mod view;

use super::bitboard::Bits;
use super::Ending;
use crate::ir::{
    Berserk, BySide, Claim, EncirclementReading, KingCaptureMethod, MoveStyle, NoMoves,
    RepetitionResult, Side, MAX_KINDS,
};

/// No square: a neighbour off the board, or no previous move.
pub(crate) const NONE: u16 = u16::MAX;

/// The most once-left access rules a variant may have (each needs a set in the position).
pub(crate) const MAX_ONCE_LEFT: usize = 4;

/// A move by square indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RawMove {
    pub from: u16,
    pub to: u16,
}

/// The last move of one side and how many moves in a row it has shuttled between two squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shuttle {
    pub from: u16,
    pub to: u16,
    pub count: u32,
}

impl Shuttle {
    const START: Shuttle = Shuttle {
        from: NONE,
        to: NONE,
        count: 0,
    };
}

/// A position: the pieces, the side to move and the little history the rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos<B: Bits> {
    /// The squares of each piece kind, indexed like `Rules::pieces`.
    pub pieces: [B; MAX_KINDS],
    /// The squares of each side's pieces.
    pub sides: [B; 2],
    /// For each once-left access rule, the pieces that have stood in its region since the game
    /// began and never stopped outside it. The bit moves with the piece.
    pub stayed: [B; MAX_ONCE_LEFT],
    pub to_move: Side,
    /// Zobrist hash of the pieces and the side to move.
    pub hash: u64,
    /// Plies since the last capture (or since the start).
    pub quiet_plies: u32,
    /// Per side, for the back-and-forth limit.
    pub shuttle: [Shuttle; 2],
    /// The square of the piece that must move again after its capture (a berserk move), or
    /// [`NONE`]. The side to move is its side.
    pub berserker: u16,
}

/// What one ply did ([`Core::step`]): the pieces it took, and how it ended the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step<B: Bits> {
    /// The squares of the pieces it captured (both sides').
    pub captured: B,
    pub ending: Option<Ending>,
}

impl<B: Bits> Pos<B> {
    #[inline]
    pub fn occupied(&self) -> B {
        self.sides[0] | self.sides[1]
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Kind {
    pub side: Side,
    pub king: bool,
    pub hammer: bool,
    pub anvil: bool,
    pub style: MoveStyle,
    pub max_distance: Option<u8>,
}

#[derive(Clone, Debug)]
pub(crate) enum Condition<B> {
    Always,
    /// Index into `Pos::stayed`.
    OnceLeft(usize),
    /// The orthogonally connected groups of the region.
    WhileGroupEmpty(Vec<B>),
}

#[derive(Clone, Debug)]
pub(crate) struct Access<B> {
    pub kinds: u32,
    pub region: B,
    pub land: bool,
    pub pass: bool,
    pub condition: Condition<B>,
}

#[derive(Clone, Debug)]
pub(crate) struct CondHostility<B> {
    pub region: B,
    pub victims: u32,
    pub by: u32,
    pub enemies_beside: u8,
}

#[derive(Clone, Debug)]
pub(crate) struct KingRule<B> {
    pub method: KingCaptureMethod,
    /// For [`KingCaptureMethod::EnclosedTogether`], the squares of the region the king stands
    /// beside (the throne): one of them, empty, is enclosed together with him. Empty otherwise.
    pub together: B,
    pub counting: B,
    pub edge_counts: bool,
    /// Also checked after the king's own side moves (a king who moves into an enclosure).
    pub after_own_move: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct EscapeRule<B> {
    /// Index into `Rules::outcome.escapes`, so an ending can cite its clause.
    pub rule: usize,
    pub kind: usize,
    pub region: B,
    pub winner: Side,
}

/// The shieldwall capture, compiled.
#[derive(Clone, Debug)]
pub(crate) struct WallRule<B> {
    /// The kinds a wall takes.
    pub victims: u32,
    /// Squares that bracket a row like an enemy.
    pub counting: B,
    /// Whether any move may complete a wall (else only the flanking move).
    pub any_move: bool,
}

/// A kind's jump, compiled.
#[derive(Clone, Debug)]
pub(crate) struct JumpAbility<B> {
    /// The enemy kinds it may jump over.
    pub over: u32,
    /// When set, a jump must start or land on one of these squares.
    pub via: Option<B>,
    /// Whether the jumped piece is captured.
    pub captures: bool,
}

/// The sandwich of a king between two captors, compiled.
#[derive(Clone, Debug)]
pub(crate) struct SandwichRule<B> {
    pub kings: u32,
    pub captors: u32,
    pub counting: B,
    /// The squares where a king may be taken this way.
    pub applies: B,
}

/// An edge-fort win, compiled.
#[derive(Clone, Debug)]
pub(crate) struct FortRule {
    /// Index into `Rules::outcome.edge_forts`.
    pub rule: usize,
    pub kind: usize,
    pub winner: Side,
}

/// The rules compiled for one width.
#[derive(Clone, Debug)]
pub(crate) struct Core<B: Bits> {
    pub(in crate::engine) width: usize,
    /// Every square of the board.
    pub(in crate::engine) board: B,
    pub(in crate::engine) kinds: Vec<Kind>,
    /// The display name of each kind, for refusals.
    pub(in crate::engine) names: Vec<String>,
    /// The kind indices of each side.
    pub(in crate::engine) side_kinds: [Vec<usize>; 2],
    /// Per square, the neighbour in each direction (north, east, south, west) or [`NONE`].
    pub(in crate::engine) neighbours: Vec<[u16; 4]>,
    /// Per square, the set of its on-board neighbours.
    pub(in crate::engine) neighbour_sets: Vec<B>,
    /// Steps over whole sets of squares: flood fills for forts, encirclement and walls.
    pub(in crate::engine) steps: flood::Steps<B>,
    /// Per square and direction, the squares from it (exclusive) to the board's edge.
    pub(in crate::engine) rays: Vec<[B; 4]>,
    /// Per kind with a maximum distance, per square, the squares within that distance.
    pub(in crate::engine) near: Vec<Option<Vec<B>>>,
    pub(in crate::engine) access: Vec<Access<B>>,
    /// Landing and passing forbidden unconditionally, per kind (from `access`).
    pub(in crate::engine) land_always: [B; MAX_KINDS],
    pub(in crate::engine) pass_always: [B; MAX_KINDS],
    /// Whether any access rule has a condition that depends on the position.
    pub(in crate::engine) has_conditional_access: bool,
    pub(in crate::engine) once_left_regions: Vec<B>,
    pub(in crate::engine) hostile_always: [B; MAX_KINDS],
    pub(in crate::engine) hostile_empty: [B; MAX_KINDS],
    pub(in crate::engine) hostile_cond: Vec<CondHostility<B>>,
    pub(in crate::engine) king_rule_of: Vec<u8>,
    pub(in crate::engine) king_rules: Vec<KingRule<B>>,
    /// The union of the king rules' `together` squares: where a king may be taken together with
    /// the square beside him. Empty in most variants, which then skip that check.
    pub(in crate::engine) together_any: B,
    pub(in crate::engine) escapes: Vec<EscapeRule<B>>,
    /// Per kind, the squares that win for it when it lands there (union of its escapes).
    pub(in crate::engine) escape_any: [B; MAX_KINDS],
    /// Per kind, the side its capture wins for and the index of that rule in
    /// `Rules::outcome.decisive_captures`.
    pub(in crate::engine) decisive: [Option<(Side, usize)>; MAX_KINDS],
    pub(in crate::engine) zobrist: Vec<[u64; MAX_KINDS]>,
    pub(in crate::engine) side_key: u64,
    /// The squares on the board's edge.
    pub(in crate::engine) edge: B,
    pub(in crate::engine) height: usize,
    pub(in crate::engine) shieldwall: Option<WallRule<B>>,
    pub(in crate::engine) forts: Vec<FortRule>,
    /// Per encirclement rule: the winner and the reading.
    pub(in crate::engine) encirclements: Vec<(Side, EncirclementReading)>,
    /// Whether any end check beyond escapes and decisive captures runs after a move (forts,
    /// encirclement): variants without them pay one branch.
    pub(in crate::engine) has_board_ends: bool,
    /// Per side, whether one of its kinds flies to any empty square (so its own move can take it
    /// into an enclosure).
    pub(in crate::engine) flies: [bool; 2],
    /// Whether some king-capture rule is checked after the king's own side moves.
    pub(in crate::engine) has_own_move_capture: bool,
    /// Every square that may count against a piece in a custodial capture with no captor's
    /// piece on it: hostile squares (always, when empty, when occupied) and the squares a
    /// king's capture or sandwich rule counts. Lets [`Core::capture_landings`] rule out most moves.
    pub(in crate::engine) counting_anywhere: B,
    pub(in crate::engine) sandwiches: Vec<SandwichRule<B>>,
    /// Per kind, its jump, if it may jump.
    pub(in crate::engine) jumps: [Option<JumpAbility<B>>; MAX_KINDS],
    pub(in crate::engine) berserk: Option<Berserk>,
    /// Per square, the hash key of a berserker standing there.
    pub(in crate::engine) berserk_keys: Vec<u64>,
    pub(in crate::engine) no_moves: BySide<NoMoves>,
    pub(in crate::engine) repetition: Option<(u32, RepetitionResult, Claim)>,
    pub(in crate::engine) back_and_forth: Option<u32>,
    /// No-capture limit in plies (moves by each side x 2), and whether it ends the game itself.
    pub(in crate::engine) no_capture: Option<(u32, Claim)>,
}

impl<B: Bits> Core<B> {
    /// A position with no pieces, attackers to move.
    pub fn empty_pos() -> Pos<B> {
        Pos {
            pieces: [B::EMPTY; MAX_KINDS],
            sides: [B::EMPTY; 2],
            stayed: [B::EMPTY; MAX_ONCE_LEFT],
            to_move: Side::Attackers,
            hash: 0,
            quiet_plies: 0,
            shuttle: [Shuttle::START; 2],
            berserker: NONE,
        }
    }

    /// A position from pieces `(square index, kind)`, the side to move, with no history.
    pub fn setup(&self, pieces: &[(usize, usize)], to_move: Side) -> Pos<B> {
        let mut pos = Self::empty_pos();
        pos.to_move = to_move;
        for &(sq, k) in pieces {
            pos.pieces[k].set(sq);
            pos.sides[self.kinds[k].side.index()].set(sq);
        }
        let occupied = pos.occupied();
        for (i, region) in self.once_left_regions.iter().enumerate() {
            pos.stayed[i] = occupied & *region;
        }
        pos.hash = self.full_hash(&pos);
        pos
    }

    /// Gives the move to `side`, with no berserk move due, keeping the hash up to date.
    pub fn set_to_move(&self, pos: &mut Pos<B>, side: Side) {
        if pos.berserker != NONE {
            pos.hash ^= self.berserk_keys[usize::from(pos.berserker)];
            pos.berserker = NONE;
        }
        if pos.to_move != side {
            pos.to_move = side;
            pos.hash ^= self.side_key;
        }
    }

    /// The Zobrist hash computed from scratch (the position keeps it up to date incrementally).
    pub fn full_hash(&self, pos: &Pos<B>) -> u64 {
        let mut hash = if pos.to_move == Side::Defenders {
            self.side_key
        } else {
            0
        };
        if pos.berserker != NONE {
            hash ^= self.berserk_keys[usize::from(pos.berserker)];
        }
        for k in 0..self.kinds.len() {
            for sq in pos.pieces[k].iter() {
                hash ^= self.zobrist[sq][k];
            }
        }
        hash
    }

    /// The kind of the piece of `side` on `sq`, if any.
    #[inline]
    pub fn kind_on(&self, pos: &Pos<B>, sq: usize, side: Side) -> Option<usize> {
        self.side_kinds[side.index()]
            .iter()
            .copied()
            .find(|&k| pos.pieces[k].has(sq))
    }

    /// The kind of the piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, pos: &Pos<B>, sq: usize) -> Option<usize> {
        (0..self.kinds.len()).find(|&k| pos.pieces[k].has(sq))
    }
}

/// How many times `pos` has occurred, counting this time: `history` holds the earlier positions,
/// oldest first. Only the positions since the last capture can be equal (a capture changes the
/// material for good), so at most `pos.quiet_plies` entries are looked at.
pub(crate) fn occurrences<B: Bits>(pos: &Pos<B>, history: &[u64]) -> u32 {
    let back = (pos.quiet_plies as usize).min(history.len());
    1 + history[history.len() - back..]
        .iter()
        .filter(|&&h| h == pos.hash)
        .count() as u32
}
