//! Movement and access, jumps and berserk moves: where a piece may go, the move list, and why
//! a move is refused.

use super::{Condition, Core, JumpAbility, Pos, RawMove, NONE};
use crate::engine::bitboard::Bits;
use crate::engine::IllegalReason;
use crate::ir::{Berserk, MoveStyle, RuleRef, Side, Square, MAX_KINDS};

impl<B: Bits> Core<B> {
    /// Squares where the pieces of each group rule may not go right now, per kind.
    pub(super) fn group_bans(&self, pos: &Pos<B>) -> ([B; MAX_KINDS], [B; MAX_KINDS]) {
        let mut land = [B::EMPTY; MAX_KINDS];
        let mut pass = [B::EMPTY; MAX_KINDS];
        let occupied = pos.occupied();
        for rule in &self.access {
            if let Condition::WhileGroupEmpty(groups) = &rule.condition {
                let mut empty = B::EMPTY;
                for &group in groups {
                    if (group & occupied).is_empty() {
                        empty |= group;
                    }
                }
                for k in 0..self.kinds.len() {
                    if rule.kinds & (1 << k) != 0 {
                        if rule.land {
                            land[k] |= empty;
                        }
                        if rule.pass {
                            pass[k] |= empty;
                        }
                    }
                }
            }
        }
        (land, pass)
    }

    /// The squares the piece of kind `k` on `from` may move to, `land` and `pass` being the
    /// squares it may not land on or pass by the unconditional and group access rules. The
    /// layers, in order: its slides (geometry and blockers, [`Core::slides`]), its jumps, the
    /// landing bans, the back-and-forth limit ([`Core::shuttle_ban`]); the berserk rule comes
    /// last, in [`Core::targets_from`]. `why_illegal` asks the same layers in the same order.
    // Always inlined: move generation calls it once a piece, and across the files of `core`
    // LLVM stopped inlining it on its own (+12% instructions in playouts, callgrind).
    #[inline(always)]
    pub(super) fn targets(
        &self,
        pos: &Pos<B>,
        k: usize,
        from: usize,
        occupied: B,
        land: B,
        pass: B,
    ) -> B {
        let (land, pass) = self.once_left_bans(pos, k, from, land, pass);
        let mut targets = self.slides(k, from, occupied, pass);
        if let Some(jump) = &self.jumps[k] {
            targets |= self.jump_targets(pos, jump, from, occupied);
        }
        targets &= !land;
        if let Some(back) = self.shuttle_ban(pos, k, from) {
            targets.clear(back);
        }
        targets
    }

    /// `land` and `pass` with the once-left access rules added: the regions the piece on `from`
    /// may no longer enter, having left them.
    #[inline(always)]
    fn once_left_bans(&self, pos: &Pos<B>, k: usize, from: usize, land: B, pass: B) -> (B, B) {
        let (mut land, mut pass) = (land, pass);
        if self.has_conditional_access {
            for rule in &self.access {
                if let Condition::OnceLeft(i) = rule.condition {
                    if rule.kinds & (1 << k) != 0 && !pos.stayed[i].has(from) {
                        if rule.land {
                            land |= rule.region;
                        }
                        if rule.pass {
                            pass |= rule.region;
                        }
                    }
                }
            }
        }
        (land, pass)
    }

    /// Layers 1 and 2, geometry and blockers: the empty squares the piece of kind `k` slides to
    /// from `from`, along its lines up to the first piece or square it may not `pass`, within
    /// its distance; any empty square for a piece that flies.
    #[inline(always)]
    fn slides(&self, k: usize, from: usize, occupied: B, pass: B) -> B {
        match self.kinds[k].style {
            MoveStyle::Rook => {
                let blockers = occupied | pass;
                let rays = &self.rays[from];
                let mut targets = B::EMPTY;
                for (d, &ray) in rays.iter().enumerate() {
                    let hit = ray & blockers;
                    if hit.is_empty() {
                        targets |= ray;
                    } else {
                        let first = if d < 2 { hit.lowest() } else { hit.highest() };
                        targets |= ray ^ self.rays[first][d];
                    }
                }
                if let Some(near) = &self.near[k] {
                    targets &= near[from];
                }
                targets & !occupied
            }
            MoveStyle::AnyEmptySquare => self.board & !occupied,
        }
    }

    /// Layer 4, the back-and-forth limit: the square the piece of kind `k` on `from` may not
    /// go back to, having shuttled between the two as often as the rule allows.
    #[inline(always)]
    fn shuttle_ban(&self, pos: &Pos<B>, k: usize, from: usize) -> Option<usize> {
        let limit = self.back_and_forth?;
        let shuttle = pos.shuttle[self.kinds[k].side.index()];
        (usize::from(shuttle.to) == from && shuttle.count >= limit)
            .then(|| usize::from(shuttle.from))
    }

    /// The squares `jump` takes the piece on `from` to: over an adjacent enemy of a jumpable
    /// kind onto the empty square beyond (before the access rules of the landing square).
    pub(super) fn jump_targets(
        &self,
        pos: &Pos<B>,
        jump: &JumpAbility<B>,
        from: usize,
        occupied: B,
    ) -> B {
        self.jump_landings(jump, self.jumpable(pos, jump), from, occupied)
    }

    /// The pieces `jump` may go over.
    pub(super) fn jumpable(&self, pos: &Pos<B>, jump: &JumpAbility<B>) -> B {
        let mut jumpable = B::EMPTY;
        for (k, set) in pos.pieces.iter().enumerate().take(self.kinds.len()) {
            if jump.over & (1 << k) != 0 {
                jumpable |= *set;
            }
        }
        jumpable
    }

    /// The squares a piece on `from` lands on by `jump` over one of the `jumpable` squares, when
    /// the square beyond is not `blocked` and the jump's region restriction allows it.
    pub(super) fn jump_landings(
        &self,
        jump: &JumpAbility<B>,
        jumpable: B,
        from: usize,
        blocked: B,
    ) -> B {
        let mut targets = B::EMPTY;
        if (self.neighbour_sets[from] & jumpable).is_empty() {
            return targets;
        }
        for d in 0..4 {
            let over = self.neighbours[from][d];
            if over == NONE || !jumpable.has(usize::from(over)) {
                continue;
            }
            let to = self.neighbours[usize::from(over)][d];
            if to == NONE || blocked.has(usize::from(to)) {
                continue;
            }
            let to = usize::from(to);
            if jump.via.is_some_and(|via| !via.has(from) && !via.has(to)) {
                continue;
            }
            targets.set(to);
        }
        targets
    }

    /// The square of the enemy a capturing jump from `from` to `to` by kind `k` takes, if the
    /// move is such a jump.
    #[inline]
    pub(super) fn jump_victim(
        &self,
        pos: &Pos<B>,
        k: usize,
        from: usize,
        to: usize,
    ) -> Option<usize> {
        let jump = self.jumps[k].as_ref().filter(|jump| jump.captures)?;
        let d = (0..4).find(|&d| {
            let over = self.neighbours[from][d];
            over != NONE && self.neighbours[usize::from(over)][d] == to as u16
        })?;
        let over = usize::from(self.neighbours[from][d]);
        let enemy = self.kinds[k].side.opponent();
        let victim = self.kind_on(pos, over, enemy)?;
        (jump.over & (1 << victim) != 0).then_some(over)
    }

    /// The targets of the berserker on `from` that the berserk rule allows now.
    pub(super) fn berserk_targets(&self, pos: &Pos<B>, k: usize, from: usize, targets: B) -> B {
        match self.berserk {
            Some(Berserk::CaptureAgain) => {
                let mut capturing = B::EMPTY;
                for to in targets.iter() {
                    if self.move_captures(pos, k, from, to).any() {
                        capturing.set(to);
                    }
                }
                capturing
            }
            Some(Berserk::MoveWhileItCanCapture | Berserk::MoveAgain) | None => targets,
        }
    }

    /// Calls `f(from, targets)` for every piece of the side to move with its target squares.
    pub fn for_each_targets(&self, pos: &Pos<B>, mut f: impl FnMut(usize, B)) {
        if pos.berserker != NONE {
            // A berserk move: only the piece that captured moves.
            let from = usize::from(pos.berserker);
            f(from, self.targets_from(pos, from));
            return;
        }
        let side = pos.to_move.index();
        let occupied = pos.occupied();
        let bans;
        let (land_dyn, pass_dyn) = if self.has_conditional_access {
            bans = self.group_bans(pos);
            (&bans.0, &bans.1)
        } else {
            (&[B::EMPTY; MAX_KINDS], &[B::EMPTY; MAX_KINDS])
        };
        for &k in &self.side_kinds[side] {
            let land = self.land_always[k] | land_dyn[k];
            let pass = self.pass_always[k] | pass_dyn[k];
            for from in pos.pieces[k].iter() {
                let targets = self.targets(pos, k, from, occupied, land, pass);
                f(from, targets);
            }
        }
    }

    /// Whether `mv` is among the legal moves: the same computation as move generation, for the
    /// one piece on `mv.from`. This is the one definition of legality.
    #[inline]
    pub fn is_legal(&self, pos: &Pos<B>, mv: RawMove) -> bool {
        self.targets_from(pos, usize::from(mv.from))
            .has(usize::from(mv.to))
    }

    /// The squares the piece of kind `k` on `from` could stand on after a second move of its
    /// own, `first` being the squares it may move to now ([`Core::targets_from`]) and the
    /// other side not moving in between: where a king could be in two moves. `pos` has the
    /// piece's side to move.
    pub fn reach_in_two(&self, pos: &Pos<B>, k: usize, from: usize, first: B) -> B {
        if self.slides_plainly(k) && pos.berserker == NONE {
            let left = pos.occupied() ^ B::single(from);
            // Every second move at once: the piece slides from all its first squares together,
            // through the squares it leaves empty (its own old square among them). Another
            // first square is empty while it stands on one, so the slides pass it, as each
            // second move's own generation would.
            let empty = self.board & !left;
            let through = empty & !self.pass_always[k];
            return self.steps.slide_reach(first, through, empty) & !self.land_always[k];
        }
        self.reach_in_two_move_by_move(pos, k, from, first)
    }

    /// [`Core::reach_in_two`] the long way, for any movement rule: each first move made on a
    /// copy, and the piece's moves from there generated.
    fn reach_in_two_move_by_move(&self, pos: &Pos<B>, k: usize, from: usize, first: B) -> B {
        first.iter().fold(B::EMPTY, |second, to| {
            second | self.targets_from(&self.moved(pos, k, from, to), to)
        })
    }

    /// Whether the moves of kind `k` are its slides and the access rules that never change
    /// (no distance limit, no jump, no rule that depends on the position, no back-and-forth
    /// limit): then its moves from a whole set of squares are one sliding flood.
    fn slides_plainly(&self, k: usize) -> bool {
        matches!(self.kinds[k].style, MoveStyle::Rook)
            && self.near[k].is_none()
            && self.jumps[k].is_none()
            && !self.has_conditional_access
            && self.back_and_forth.is_none()
    }

    /// The squares the piece of the side to move on `from` may move to (none when no such
    /// piece stands there): what move generation gives that piece.
    #[inline]
    pub fn targets_from(&self, pos: &Pos<B>, from: usize) -> B {
        if pos.berserker != NONE && usize::from(pos.berserker) != from {
            return B::EMPTY;
        }
        let Some(k) = self.kind_on(pos, from, pos.to_move) else {
            return B::EMPTY;
        };
        let targets = self.piece_targets(pos, k, from);
        if pos.berserker == NONE {
            targets
        } else {
            self.berserk_targets(pos, k, from, targets)
        }
    }

    /// The squares the piece of kind `k` on `from` could move to were its `side` to move: what
    /// [`Core::targets_from`] gives with the move handed over, without copying the position.
    /// With the other side to move, a berserk move due is no longer due, so only the mover's
    /// own berserk move restricts its pieces.
    #[inline]
    pub fn targets_as(&self, pos: &Pos<B>, side: Side, k: usize, from: usize) -> B {
        if pos.to_move == side {
            self.targets_from(pos, from)
        } else if pos.pieces[k].has(from) {
            self.piece_targets(pos, k, from)
        } else {
            B::EMPTY
        }
    }

    /// Every square the piece of kind `k` on `from` may move to, the berserk rule aside.
    #[inline]
    pub(super) fn piece_targets(&self, pos: &Pos<B>, k: usize, from: usize) -> B {
        let (mut land, mut pass) = (self.land_always[k], self.pass_always[k]);
        if self.has_conditional_access {
            let (land_dyn, pass_dyn) = self.group_bans(pos);
            land |= land_dyn[k];
            pass |= pass_dyn[k];
        }
        self.targets(pos, k, from, pos.occupied(), land, pass)
    }

    /// The number of legal moves of the side to move.
    #[inline]
    pub fn count_moves(&self, pos: &Pos<B>) -> u64 {
        let mut count = 0u64;
        self.for_each_targets(pos, |_, targets| count += u64::from(targets.count()));
        count
    }

    /// Appends the legal moves of the side to move to `out`.
    #[inline]
    pub fn gen_moves(&self, pos: &Pos<B>, out: &mut Vec<RawMove>) {
        self.for_each_targets(pos, |from, targets| {
            for to in targets.iter() {
                out.push(RawMove {
                    from: from as u16,
                    to: to as u16,
                });
            }
        });
    }

    /// Whether the side to move has a legal move.
    #[inline]
    pub fn has_moves(&self, pos: &Pos<B>) -> bool {
        let mut any = false;
        self.for_each_targets(pos, |_, targets| any |= targets.any());
        any
    }

    /// Why `mv` is illegal for the side to move, with the rule that forbids it where one does.
    /// This is the slow, explaining path: after the checks on the piece moved, it asks the
    /// layers of move generation ([`Core::targets`]) in their order and explains the first that
    /// removes the square; `None` when none does. A property test checks that the two agree.
    pub fn why_illegal(
        &self,
        pos: &Pos<B>,
        mv: RawMove,
    ) -> Option<(IllegalReason, Option<RuleRef>)> {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let k = match self.moving_piece(pos, from, to) {
            Ok(k) => k,
            Err(refusal) => return Some(refusal),
        };
        let occupied = pos.occupied();
        let (land_dyn, pass_dyn) = self.group_bans(pos);
        let (land, pass) = self.once_left_bans(
            pos,
            k,
            from,
            self.land_always[k] | land_dyn[k],
            self.pass_always[k] | pass_dyn[k],
        );
        let jumps = self.jumps[k].as_ref().map_or(B::EMPTY, |jump| {
            self.jump_targets(pos, jump, from, occupied)
        });
        // Layers 1 and 2 with the jumps: where the piece can go at all.
        if !(self.slides(k, from, occupied, pass) | jumps).has(to) {
            return self.why_not_reached(k, from, to, occupied, |sq| {
                self.access_barring(pos, k, from, sq, false, &pass_dyn)
            });
        }
        // Layer 3, the landing bans.
        if land.has(to) {
            let rule = self.access_barring(pos, k, from, to, true, &land_dyn);
            return Some((
                IllegalReason::MayNotLand {
                    piece: self.names[k].clone(),
                    square: self.square_of(to),
                },
                rule.map(RuleRef::Access),
            ));
        }
        // Layer 4, the back-and-forth limit.
        if self.shuttle_ban(pos, k, from) == Some(to) {
            let limit = self.back_and_forth.unwrap_or_default();
            return Some((
                IllegalReason::BackAndForth { limit },
                Some(RuleRef::BackAndForth),
            ));
        }
        // Layer 5, the berserk rule.
        if pos.berserker != NONE
            && self.berserk == Some(Berserk::CaptureAgain)
            && self.move_captures(pos, k, from, to).is_empty()
        {
            return Some((IllegalReason::BerserkMustCapture, Some(RuleRef::Berserk)));
        }
        None
    }

    /// The square of index `sq`.
    fn square_of(&self, sq: usize) -> Square {
        Square::new((sq % self.width) as u8, (sq / self.width) as u8)
    }

    /// The kind of the piece `mv` moves, or why no move from `from` to `to` can be made: no
    /// piece, the other side's, not the berserker when a berserk move is due, or no move at all.
    fn moving_piece(
        &self,
        pos: &Pos<B>,
        from: usize,
        to: usize,
    ) -> Result<usize, (IllegalReason, Option<RuleRef>)> {
        let square = self.square_of(from);
        let Some(k) = self.piece_on(pos, from) else {
            return Err((IllegalReason::NoPiece { square }, None));
        };
        if self.kinds[k].side != pos.to_move {
            return Err((IllegalReason::NotYourPiece { square }, None));
        }
        if pos.berserker != NONE && usize::from(pos.berserker) != from {
            let square = self.square_of(usize::from(pos.berserker));
            return Err((
                IllegalReason::BerserkerMovesAgain { square },
                Some(RuleRef::Berserk),
            ));
        }
        if from == to {
            return Err((IllegalReason::NullMove, None));
        }
        Ok(k)
    }

    /// Why the piece of kind `k` on `from` cannot reach `to` by sliding or jumping (layers 1
    /// and 2): the square is taken, not in line, blocked by a piece or by a square the piece
    /// may not pass (`barring` names the access rule), or too far.
    fn why_not_reached(
        &self,
        k: usize,
        from: usize,
        to: usize,
        occupied: B,
        barring: impl Fn(usize) -> Option<usize>,
    ) -> Option<(IllegalReason, Option<RuleRef>)> {
        if occupied.has(to) {
            let square = self.square_of(to);
            return Some((IllegalReason::Occupied { square }, None));
        }
        if self.kinds[k].style != MoveStyle::Rook {
            return None;
        }
        let Some(d) = (0..4).find(|&d| self.rays[from][d].has(to)) else {
            return Some((IllegalReason::NotInLine, None));
        };
        let mut sq = usize::from(self.neighbours[from][d]);
        let mut distance = 1;
        while sq != to {
            let square = self.square_of(sq);
            if occupied.has(sq) {
                return Some((IllegalReason::Blocked { square }, None));
            }
            if let Some(i) = barring(sq) {
                let piece = self.names[k].clone();
                return Some((
                    IllegalReason::MayNotPass { piece, square },
                    Some(RuleRef::Access(i)),
                ));
            }
            sq = usize::from(self.neighbours[sq][d]);
            distance += 1;
        }
        match self.kinds[k].max_distance {
            Some(max) if distance > u32::from(max) => {
                let piece = self.names[k].clone();
                Some((
                    IllegalReason::TooFar { piece, max },
                    Some(RuleRef::Movement(k)),
                ))
            }
            _ => None,
        }
    }

    /// The first access rule that bars the piece of kind `k` (which started on `from`) from
    /// landing on (`landing`) or passing `sq` now; `group_bans` are the squares the group
    /// rules bar now, for that action.
    fn access_barring(
        &self,
        pos: &Pos<B>,
        k: usize,
        from: usize,
        sq: usize,
        landing: bool,
        group_bans: &[B; MAX_KINDS],
    ) -> Option<usize> {
        self.access.iter().position(|rule| {
            let action = if landing { rule.land } else { rule.pass };
            if rule.kinds & (1 << k) == 0 || !rule.region.has(sq) || !action {
                return false;
            }
            match &rule.condition {
                Condition::Always => true,
                Condition::OnceLeft(i) => !pos.stayed[*i].has(from),
                Condition::WhileGroupEmpty(_) => group_bans[k].has(sq),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Compiled, Engine, Rng};
    use crate::Game;

    /// Checks [`Core::reach_in_two`] against the move-by-move reading for every piece of the
    /// side to move; returns how many pieces slide plainly.
    fn agree<B: Bits>(core: &Core<B>, pos: &Pos<B>) -> usize {
        let mut plain = 0;
        for from in pos.sides[pos.to_move.index()].iter() {
            let Some(k) = core.kind_on(pos, from, pos.to_move) else {
                continue;
            };
            let first = core.targets_from(pos, from);
            let slow = core.reach_in_two_move_by_move(pos, k, from, first);
            assert!(
                core.reach_in_two(pos, k, from, first) == slow,
                "piece on {from}"
            );
            plain += usize::from(core.slides_plainly(k) && pos.berserker == NONE);
        }
        plain
    }

    /// Over random games of every bundled variant, the one sliding flood of
    /// [`Core::reach_in_two`] finds the squares that making each first move and generating the
    /// second finds, for every piece (kings, soldiers, pieces with bans on squares).
    #[test]
    fn the_two_move_flood_agrees_with_making_each_move() {
        let mut plain = 0;
        for name in crate::bundled_names() {
            let variant = crate::Variant::bundled(name).expect("bundled variants load");
            let engine = std::sync::Arc::new(Engine::new(&variant.rules).expect("they compile"));
            for seed in 0..3 {
                let mut rng = Rng::new(seed);
                let mut game = Game::new(engine.clone());
                for _ in 0..60 {
                    let position = *game.position();
                    plain += match engine.compiled(&position) {
                        Some(Compiled::Narrow(core, pos)) => agree(core, &pos),
                        Some(Compiled::Wide(core, pos)) => agree(core, &pos),
                        None => unreachable!("the game's own engine"),
                    };
                    let legal = game.legal_moves();
                    if legal.is_empty() || game.is_over() {
                        break;
                    }
                    game.play(legal[rng.below(legal.len())])
                        .expect("a legal move");
                }
            }
        }
        // The flood itself was asked, not only the long way.
        assert!(plain > 1000, "{plain} plain pieces");
    }
}
