//! What the search may ask of the compiled rules: a narrow view, so that the search (and its
//! evaluation) depends on questions about the rules, not on how the engine stores its tables.
//! The fields of [`Core`] are the engine's own; this file is the search's door to them.

use super::{Core, Pos};
use crate::engine::bitboard::Bits;
use crate::ir::{Claim, EncirclementReading, KingCaptureMethod, NoMoves, Side};

/// An escape rule as the search sees it: a kind that wins for `winner` by reaching `region`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Goal<B> {
    pub kind: usize,
    /// The side the runner plays for.
    pub side: Side,
    pub region: B,
    pub winner: Side,
}

impl<B: Bits> Core<B> {
    /// The number of piece kinds.
    #[inline]
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// The side a kind plays for.
    #[inline]
    pub fn side_of(&self, kind: usize) -> Side {
        self.kinds[kind].side
    }

    /// The side whose win the capture of `kind` decides, if it decides one.
    #[inline]
    pub fn decides_for(&self, kind: usize) -> Option<Side> {
        self.decisive[kind].map(|(winner, _)| winner)
    }

    /// The escape rules.
    pub fn goals(&self) -> impl Iterator<Item = Goal<B>> + '_ {
        self.escapes.iter().map(|escape| Goal {
            kind: escape.kind,
            side: self.kinds[escape.kind].side,
            region: escape.region,
            winner: escape.winner,
        })
    }

    /// Whether the piece of `kind` wins by landing on `sq`.
    #[inline]
    pub fn wins_on_landing(&self, kind: usize, sq: usize) -> bool {
        self.escape_any[kind].has(sq)
    }

    /// The number of squares of the board.
    #[inline]
    pub fn square_count(&self) -> usize {
        self.neighbours.len()
    }

    /// Every square of the board.
    #[inline]
    pub fn all_squares(&self) -> B {
        self.board
    }

    /// The on-board neighbours of `sq`.
    #[inline]
    pub fn around(&self, sq: usize) -> B {
        self.neighbour_sets[sq]
    }

    /// The squares one orthogonal step from a square of `set` (members of `set` included where
    /// they stand beside one another).
    #[inline]
    pub fn beside(&self, set: B) -> B {
        self.steps.beside(set)
    }

    /// The squares one rook move from a member of `from` through `empty` squares (no rule of
    /// the variant asked: no banned square, no jump).
    #[inline]
    pub fn rook_reach(&self, from: B, empty: B) -> B {
        self.steps.rook_reach(from, empty)
    }

    /// The squares reachable from `seeds` by orthogonal steps through `passable` squares (the
    /// seeds themselves included where passable).
    #[inline]
    pub fn flood(&self, seeds: B, passable: B) -> B {
        self.steps.flood(seeds, passable)
    }

    /// The squares on the board's edge.
    #[inline]
    pub fn edge(&self) -> B {
        self.edge
    }

    /// The sides that win by walling every enemy piece off from the edge (the no-edge-access
    /// reading of encirclement), each once.
    pub fn encirclers(&self) -> impl Iterator<Item = Side> + '_ {
        Side::BOTH.into_iter().filter(|&side| {
            self.encirclements.iter().any(|&(winner, reading)| {
                winner == side && reading == EncirclementReading::NoEdgeAccess
            })
        })
    }

    /// The kinds that win by an edge fort, each once, with the side each wins for.
    pub fn fort_builders(&self) -> impl Iterator<Item = (usize, Side)> + '_ {
        self.forts
            .iter()
            .enumerate()
            .filter(|&(i, fort)| self.forts[..i].iter().all(|f| f.kind != fort.kind))
            .map(|(_, fort)| (fort.kind, fort.winner))
    }

    /// Whether `side` loses when it has no legal move (where it draws instead, leaving it
    /// without one is no plan).
    pub fn loses_without_moves(&self, side: Side) -> bool {
        *self.no_moves.get(side) == NoMoves::Loses
    }

    /// Whether the legal moves depend on state the Zobrist hash leaves out (once-left regions,
    /// the back-and-forth counters, an automatic move limit): then a table keyed on the hash
    /// must add that state.
    pub fn has_unhashed_state(&self) -> bool {
        !self.once_left_regions.is_empty()
            || self.back_and_forth.is_some()
            || self.counts_quiet_plies()
    }

    /// Whether an automatic no-capture limit ends games, so that the plies since the last
    /// capture change what may happen.
    pub fn counts_quiet_plies(&self) -> bool {
        matches!(self.no_capture, Some((_, Claim::Automatic)))
    }

    /// `pos` with `side` to move and nothing else changed (a berserk move due stays due): for
    /// asking what that side's pieces could do, never for playing on.
    #[inline]
    pub fn asking_for(&self, pos: &Pos<B>, side: Side) -> Pos<B> {
        let mut asking = *pos;
        if asking.to_move != side {
            asking.to_move = side;
            asking.hash ^= self.side_key;
        }
        asking
    }

    /// How many of the four sides of the decisive piece of `kind` on `sq` are held against it
    /// by `captors` (their pieces, squares that count as enemies for it, the edge where it
    /// counts), and the method of the king-capture rule of that square.
    pub fn sides_held(
        &self,
        pos: &Pos<B>,
        kind: usize,
        sq: usize,
        captors: Side,
    ) -> (usize, KingCaptureMethod) {
        let rule = &self.king_rules[usize::from(self.king_rule_of[sq])];
        let occupied = pos.occupied();
        let against = |n: u16| {
            if n == super::NONE {
                return rule.edge_counts;
            }
            let n = usize::from(n);
            pos.sides[captors.index()].has(n)
                || rule.counting.has(n)
                || self.hostile_always[kind].has(n)
                || (self.hostile_empty[kind].has(n) && !occupied.has(n))
        };
        // Under a rule that encloses him together with the empty square beside him, that
        // square is held when its other sides are.
        let held = self.neighbours[sq]
            .iter()
            .filter(|&&n| self.side_holds(rule, sq, n, occupied, &against))
            .count();
        (held, rule.method)
    }
}
