//! What the search cuts short: nodes that fail high unsearched (reverse futility, the null
//! move), quiet moves not searched near the horizon (late-move pruning), and how deep a late
//! move's reduction goes. Apart from the search loop because each is a switch of its own
//! ([`Settings`](crate::search::Settings)) with its own guards, and the only parts of the
//! search that may change its result for speed.

use super::{Place, Worker};
use crate::engine::bitboard::Bits;
use crate::engine::core::{Pos, NONE};
use crate::search::PROVEN;

/// A side with this many pieces or fewer may be in zugzwang: a null move's cutoff is verified.
const ZUGZWANG_PIECES: u32 = 4;
/// Reverse futility pruning applies this many plies from the horizon and closer.
const FUTILITY_DEPTH: i32 = 3;
/// How far above `beta` the evaluation must stand, a ply of depth left, for reverse futility
/// pruning to fail high: six tenths of a soldier (at 150 it cut almost no nodes).
const FUTILITY_MARGIN: i32 = 60;
/// Late-move pruning: at `depth` plies from the horizon (1 or 2), the quiet moves from this
/// index of the ordered list on are not searched, or from [`LATE_SHARE`] of the list where that
/// is later.
const LATE_MOVES: [usize; 3] = [usize::MAX, 12, 24];
/// Late-move pruning keeps at least this many fifths of the list at `depth` plies from the
/// horizon. The fixed index alone pruned four in five of an 11x11 side's 100-odd moves and
/// measured a loss in Copenhagen (−17 Elo at 200 ms); with a share it gains there (+13), and a
/// 9x9 side's 60-odd moves are pruned much as before (docs/strength.md).
const LATE_SHARE: [usize; 3] = [5, 1, 2];

/// Whether a node may fail high without its moves searched (reverse futility, the null move):
/// a node of a null window below the root, where no berserk move is due (it cannot be passed
/// or skipped) and no proven score is at stake (a bound from the evaluation proves no win).
fn cuttable<B: Bits>(pos: &Pos<B>, ply: usize, (alpha, beta): (i32, i32)) -> bool {
    ply > 0 && beta - alpha == 1 && pos.berserker == NONE && beta.abs() < PROVEN
}

impl<B: Bits> Worker<'_, B> {
    /// The score of a node that fails high without its moves searched: reverse futility, then
    /// the null move, both standing on the evaluation (at depth 3, the same one). Neither where
    /// the other side may be building a fort (`fort_ahead`, [`Self::fort_zone`]): there the
    /// evaluation weighs a standing that a few quiet moves will overturn. `None`: search it.
    pub(super) fn cut_unsearched(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        window: (i32, i32),
        null_ok: bool,
        fort_ahead: bool,
    ) -> Option<i32> {
        if fort_ahead {
            return None;
        }
        let mut static_eval = None;
        self.futile(pos, depth, ply, window, &mut static_eval)
            .or_else(|| self.null_move(pos, depth, ply, window, null_ok, &mut static_eval))
    }

    /// Reverse futility pruning at a node of a null window `depth` plies from the horizon:
    /// when the side to move stands [`FUTILITY_MARGIN`] a ply above `beta`, the node fails high
    /// unsearched, since the other side is not expected to win that much back in so few plies.
    /// Not where the other side's runner has an open route, or that side could open one to a
    /// corner with its next move ([`Self::route_within_two`]: the evaluation of such a position
    /// is a threat, not a standing), nor for proven scores. `None`: search the node.
    fn futile(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        static_eval: &mut Option<i32>,
    ) -> Option<i32> {
        if !self.settings.futility || depth > FUTILITY_DEPTH || !cuttable(pos, ply, (alpha, beta)) {
            return None;
        }
        if self.route_within_two(pos, pos.to_move.opponent()) {
            return None;
        }
        let margin = FUTILITY_MARGIN * depth;
        (self.static_eval(pos, ply, static_eval) - margin >= beta).then_some(beta)
    }

    /// The evaluation of `pos`, computed at most once a node: `cached` holds it once known.
    fn static_eval(&mut self, pos: &Pos<B>, ply: usize, cached: &mut Option<i32>) -> i32 {
        if let Some(score) = *cached {
            return score;
        }
        let score = self.evaluate(pos, ply);
        *cached = Some(score);
        score
    }

    /// Null-move pruning at a node of a null window: the side to move passes; if the other
    /// side, searched `R` plies shallower, still cannot reach `beta`, the node fails high.
    /// Where the side to move has few pieces (zugzwang is possible: passing may be better than
    /// any move) the cutoff is verified by a search of the node itself, `R` plies shallower and
    /// without null moves. Only `depth` 3 or more from the horizon, and not right after a null
    /// move (`null_ok` false). `None`: no cutoff, search the node.
    fn null_move(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        null_ok: bool,
        static_eval: &mut Option<i32>,
    ) -> Option<i32> {
        if !self.settings.null_move || !null_ok || depth < 3 || !cuttable(pos, ply, (alpha, beta)) {
            return None;
        }
        if self.static_eval(pos, ply, static_eval) < beta {
            return None;
        }
        let reduction = if depth >= 6 { 3 } else { 2 };
        let mut passed = *pos;
        self.core.set_to_move(&mut passed, pos.to_move.opponent());
        self.history.push(pos.hash);
        let score = -self.search(
            &passed,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            false,
        );
        self.history.pop();
        if self.aborted || score < beta {
            return None;
        }
        if pos.sides[pos.to_move.index()].count() > ZUGZWANG_PIECES {
            return Some(beta);
        }
        let verified = self.search(pos, depth - reduction, ply, alpha, beta, false);
        (!self.aborted && verified >= beta).then_some(verified)
    }

    /// Late-move pruning: near the horizon, at a node of a null window where the other side
    /// threatens no escape, the index in the ordered list of `moves` moves from which quiet
    /// moves are not searched; `None` where nothing is pruned. The search loop prunes from there
    /// only while some move searched so far escapes a forced loss.
    pub(super) fn late_moves_from(
        &self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        moves: usize,
    ) -> Option<usize> {
        (self.settings.late_move_pruning
            && ply > 0
            && beta - alpha == 1
            && depth < LATE_MOVES.len() as i32
            && !self.open_route(pos, pos.to_move.opponent()))
        .then(|| {
            let depth = depth as usize;
            LATE_MOVES[depth].max(moves * LATE_SHARE[depth] / 5)
        })
    }
}

/// How many plies deep reductions take off the late quiet move at `place` of a node `depth`
/// plies from the horizon: two where the node is 6 plies or more from the horizon and the
/// move comes in the last two thirds of the list, else one. By the share of the list, as
/// late-move pruning keeps a share of it: a side with a hundred moves and one with twenty
/// keep the same part of their lists at full depth (docs/strength.md, "Deeper reductions").
pub(super) fn deep_reduction(depth: i32, place: Place) -> i32 {
    if depth >= 6 && 3 * place.index >= place.of {
        2
    } else {
        1
    }
}
