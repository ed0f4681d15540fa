//! One ply: the move made, its captures and its endings, then repetition ([`Core::step`]); and
//! perft, which counts plies.

use super::{occurrences, Core, Pos, RawMove, Step, NONE};
use crate::engine::bitboard::Bits;
use crate::engine::{EndReason, Ending, GameOutcome};
use crate::ir::{Berserk, Claim, RuleRef};

impl<B: Bits> Core<B> {
    /// The hash of the position after `mv` if it captures nothing and ends no berserk move:
    /// what [`Core::step`] gives for most moves, found without making the move, to fetch the
    /// table's slot for it ahead of time. Wrong for the other moves, and then only a wasted
    /// fetch.
    #[inline]
    pub fn quiet_hash(&self, pos: &Pos<B>, mv: RawMove) -> u64 {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let k = self.kind_on(pos, from, pos.to_move).unwrap_or(0);
        pos.hash ^ self.zobrist[from][k] ^ self.zobrist[to][k] ^ self.side_key
    }

    /// The move itself, for [`Core::step`]: the captured squares and the ending the move makes,
    /// if it makes one (repetition aside: that needs the history, which `step` is given).
    #[inline]
    pub(super) fn make(&self, pos: &mut Pos<B>, mv: RawMove) -> (B, Option<Ending>) {
        let side = pos.to_move;
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        // The caller promises a legal move, so a piece of the side to move stands on `from`;
        // kind 0 is a harmless fallback that keeps this function panic-free.
        let k = self.kind_on(pos, from, side).unwrap_or(0);
        let jumped = self.jump_victim(pos, k, from, to);
        if pos.berserker != NONE {
            pos.hash ^= self.berserk_keys[usize::from(pos.berserker)];
            pos.berserker = NONE;
        }
        let moved = B::single(from) | B::single(to);
        pos.pieces[k] ^= moved;
        pos.sides[side.index()] ^= moved;
        pos.hash ^= self.zobrist[from][k] ^ self.zobrist[to][k] ^ self.side_key;
        for (i, region) in self.once_left_regions.iter().enumerate() {
            if pos.stayed[i].has(from) {
                pos.stayed[i].clear(from);
                if region.has(to) {
                    pos.stayed[i].set(to);
                }
            }
        }
        let shuttle = &mut pos.shuttle[side.index()];
        shuttle.count = if shuttle.to == mv.from && shuttle.from == mv.to {
            shuttle.count + 1
        } else {
            1
        };
        shuttle.from = mv.from;
        shuttle.to = mv.to;

        let mut captured = self.captured_by(pos, k, to, jumped);
        let took = captured.any();
        // Kings of the moving side left enclosed, judged on the board before this move's captures
        // are removed, as the Thrones and Bones app judges its Jarl.
        let own_taken = if self.has_own_move_capture {
            self.enclosed_own_kings(pos, side)
        } else {
            B::EMPTY
        };
        let mut ending = None;
        if captured.is_empty() {
            pos.quiet_plies += 1;
        } else {
            pos.quiet_plies = 0;
            let enemy = side.opponent();
            for sq in captured.iter() {
                if let Some(victim) = self.kind_on(pos, sq, enemy) {
                    pos.pieces[victim].clear(sq);
                    pos.sides[enemy.index()].clear(sq);
                    pos.hash ^= self.zobrist[sq][victim];
                    for stayed in &mut pos.stayed {
                        stayed.clear(sq);
                    }
                    if let Some((winner, rule)) = self.decisive[victim] {
                        let reason = if self.kinds[victim].king {
                            EndReason::KingCaptured
                        } else {
                            EndReason::LeaderCaptured
                        };
                        ending = Some(Ending {
                            outcome: GameOutcome::Win(winner),
                            reason,
                            rule: Some(RuleRef::DecisiveCapture(rule)),
                        });
                    }
                }
            }
        }
        for sq in own_taken.iter() {
            if let Some(king) = self.kind_on(pos, sq, side) {
                pos.pieces[king].clear(sq);
                pos.sides[side.index()].clear(sq);
                pos.hash ^= self.zobrist[sq][king];
                for stayed in &mut pos.stayed {
                    stayed.clear(sq);
                }
                if let (None, Some((winner, rule))) = (&ending, self.decisive[king]) {
                    ending = Some(Ending {
                        outcome: GameOutcome::Win(winner),
                        reason: EndReason::KingCaptured,
                        rule: Some(RuleRef::DecisiveCapture(rule)),
                    });
                }
            }
        }
        captured |= own_taken;
        pos.to_move = side.opponent();
        if ending.is_none() && self.escape_any[k].has(to) {
            if let Some(escape) = self
                .escapes
                .iter()
                .find(|e| e.kind == k && e.region.has(to))
            {
                let reason = if self.kinds[k].king {
                    EndReason::KingEscaped
                } else {
                    EndReason::PieceEscaped
                };
                ending = Some(Ending {
                    outcome: GameOutcome::Win(escape.winner),
                    reason,
                    rule: Some(RuleRef::Escape(escape.rule)),
                });
            }
        }
        if ending.is_none() && self.has_board_ends {
            ending = self.board_ending(pos, Some(side));
        }
        if ending.is_none() {
            if let Some((plies, Claim::Automatic)) = self.no_capture {
                if pos.quiet_plies >= plies {
                    ending = Some(Ending {
                        outcome: GameOutcome::Draw,
                        reason: EndReason::MoveLimit,
                        rule: Some(RuleRef::NoCaptureDraw),
                    });
                }
            }
        }
        if ending.is_none() && took && self.berserk.is_some() && pos.pieces[k].has(to) {
            self.grant_berserk(pos, k, to);
        }
        (captured, ending)
    }

    /// One ply as the rules judge it, in the rule sheet's order: the move and its captures,
    /// the endings the move makes (a decisive capture, an escape, a fort or an encirclement, an
    /// automatic move limit), then an automatic repetition, counted against `history`: the
    /// hashes of the positions before the child, oldest first, the position moved from last (an
    /// empty history judges no repetition). `pos` becomes the child: copy-make, the caller
    /// keeps the copy it needs, and the child is copied once.
    ///
    /// Every caller that plays a ply goes through here: the game, perft, the random playouts
    /// and the search. "No legal move" is judged at the start of the next turn, by whoever
    /// lists that turn's moves: [`Core::no_moves_ending`] when the list is empty.
    ///
    /// `mv` must be legal in `pos` (generated for it); an illegal move gives a position that
    /// may break the rules, never a panic.
    #[inline]
    pub fn step(&self, pos: &mut Pos<B>, mv: RawMove, history: &[u64]) -> Step<B> {
        self.step_counted(pos, mv, |child| occurrences(child, history))
    }

    /// [`Core::step`], with the times the child has occurred (this time included) given by
    /// `occurrences`, asked only where an automatic repetition rule needs it: a game keeps a
    /// running count instead of a history to pass over ([`crate::engine::Repetitions`]).
    #[inline]
    pub fn step_counted(
        &self,
        pos: &mut Pos<B>,
        mv: RawMove,
        occurrences: impl FnOnce(&Pos<B>) -> u32,
    ) -> Step<B> {
        let (captured, mut ending) = self.make(pos, mv);
        if ending.is_none() && self.tracks_repetition() {
            ending = self.repetition_ending(pos.to_move, occurrences(pos));
        }
        Step { captured, ending }
    }

    /// After a capture by the piece of kind `k` now on `to`, gives its side another move with
    /// it when the berserk rule says so. `pos` has the other side to move.
    pub(super) fn grant_berserk(&self, pos: &mut Pos<B>, k: usize, to: usize) {
        let side = self.kinds[k].side;
        pos.to_move = side;
        let targets = self.piece_targets(pos, k, to);
        let granted = match self.berserk {
            Some(Berserk::CaptureAgain | Berserk::MoveWhileItCanCapture) => targets
                .iter()
                .any(|target| self.move_captures(pos, k, to, target).any()),
            Some(Berserk::MoveAgain) => targets.any(),
            None => false,
        };
        if granted {
            pos.berserker = to as u16;
            pos.hash ^= self.side_key ^ self.berserk_keys[to];
        } else {
            pos.to_move = side.opponent();
        }
    }

    /// Leaf count at `depth`, with `history` the hashes of the positions before `pos` (oldest
    /// first; `pos` itself not included).
    pub fn perft(&self, pos: &Pos<B>, depth: u32, history: &mut Vec<u64>) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_moves(pos);
        }
        let mut moves = Vec::with_capacity(128);
        self.gen_moves(pos, &mut moves);
        let mut total = 0;
        history.push(pos.hash);
        for &mv in &moves {
            let mut child = *pos;
            if self.step(&mut child, mv, history).ending.is_none() {
                total += self.perft(&child, depth - 1, history);
            }
        }
        history.pop();
        total
    }

    /// [`Core::perft`] from `pos` with no earlier history, split over the moves of the root on
    /// rayon's thread pool: the same count.
    pub fn perft_parallel(&self, pos: &Pos<B>, depth: u32) -> u64 {
        use rayon::prelude::*;
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::with_capacity(128);
        self.gen_moves(pos, &mut moves);
        moves
            .par_iter()
            .map(|&mv| {
                let mut history = vec![pos.hash];
                let mut child = *pos;
                match self.step(&mut child, mv, &history).ending {
                    Some(_) => 0,
                    None => self.perft(&child, depth - 1, &mut history),
                }
            })
            .sum()
    }
}
