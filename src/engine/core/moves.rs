//! Movement and access, jumps and berserk moves: where a piece may go, the move list, and why
//! a move is refused.

use super::{Access, Condition, Core, JumpAbility, Pos, RawMove, NONE};
use crate::engine::bitboard::Bits;
use crate::engine::IllegalReason;
use crate::ir::{Berserk, MoveStyle, RuleRef, Square, MAX_KINDS};

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

    /// The squares the piece of kind `k` on `from` may move to.
    // Always inlined: move generation calls it once a piece, and across the files of `core`
    // LLVM stopped inlining it on its own (+12% instructions in playouts, callgrind).
    #[inline(always)]
    pub(super) fn targets(
        &self,
        pos: &Pos<B>,
        k: usize,
        from: usize,
        occupied: B,
        mut land: B,
        mut pass: B,
    ) -> B {
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
        let kind = &self.kinds[k];
        let mut targets = match kind.style {
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
        };
        if let Some(jump) = &self.jumps[k] {
            targets |= self.jump_targets(pos, jump, from, occupied);
        }
        targets &= !land;
        if let Some(limit) = self.back_and_forth {
            let shuttle = pos.shuttle[kind.side.index()];
            if shuttle.to as usize == from && shuttle.count >= limit {
                targets.clear(usize::from(shuttle.from));
            }
        }
        targets
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
    /// This is the slow, explaining path; move generation is the fast one, and the two must agree
    /// (a test checks that).
    pub fn why_illegal(
        &self,
        pos: &Pos<B>,
        mv: RawMove,
    ) -> Option<(IllegalReason, Option<RuleRef>)> {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let side = pos.to_move;
        let square = |sq: usize| Square::new((sq % self.width) as u8, (sq / self.width) as u8);
        let occupied = pos.occupied();
        let Some(k) = self.piece_on(pos, from) else {
            return Some((
                IllegalReason::NoPiece {
                    square: square(from),
                },
                None,
            ));
        };
        if self.kinds[k].side != side {
            return Some((
                IllegalReason::NotYourPiece {
                    square: square(from),
                },
                None,
            ));
        }
        if pos.berserker != NONE && usize::from(pos.berserker) != from {
            return Some((
                IllegalReason::BerserkerMovesAgain {
                    square: square(usize::from(pos.berserker)),
                },
                Some(RuleRef::Berserk),
            ));
        }
        if from == to {
            return Some((IllegalReason::NullMove, None));
        }
        if occupied.has(to) {
            return Some((IllegalReason::Occupied { square: square(to) }, None));
        }
        let (land_dyn, pass_dyn) = self.group_bans(pos);
        let barred = |rule: &Access<B>, sq: usize, landing: bool| -> bool {
            if rule.kinds & (1 << k) == 0
                || !rule.region.has(sq)
                || !(if landing { rule.land } else { rule.pass })
            {
                return false;
            }
            match &rule.condition {
                Condition::Always => true,
                Condition::OnceLeft(i) => !pos.stayed[*i].has(from),
                Condition::WhileGroupEmpty(_) => {
                    (if landing { land_dyn[k] } else { pass_dyn[k] }).has(sq)
                }
            }
        };
        let jump = self.jumps[k]
            .as_ref()
            .is_some_and(|jump| self.jump_targets(pos, jump, from, occupied).has(to));
        if self.kinds[k].style == MoveStyle::Rook && !jump {
            let d = (0..4).find(|&d| self.rays[from][d].has(to));
            let Some(d) = d else {
                return Some((IllegalReason::NotInLine, None));
            };
            let mut sq = usize::from(self.neighbours[from][d]);
            let mut distance = 1;
            while sq != to {
                if occupied.has(sq) {
                    return Some((IllegalReason::Blocked { square: square(sq) }, None));
                }
                if let Some(i) = self.access.iter().position(|rule| barred(rule, sq, false)) {
                    let piece = self.names[k].clone();
                    return Some((
                        IllegalReason::MayNotPass {
                            piece,
                            square: square(sq),
                        },
                        Some(RuleRef::Access(i)),
                    ));
                }
                sq = usize::from(self.neighbours[sq][d]);
                distance += 1;
            }
            if let Some(max) = self.kinds[k].max_distance {
                if distance > u32::from(max) {
                    let piece = self.names[k].clone();
                    return Some((
                        IllegalReason::TooFar { piece, max },
                        Some(RuleRef::Movement(k)),
                    ));
                }
            }
        }
        if let Some(i) = self.access.iter().position(|rule| barred(rule, to, true)) {
            let piece = self.names[k].clone();
            return Some((
                IllegalReason::MayNotLand {
                    piece,
                    square: square(to),
                },
                Some(RuleRef::Access(i)),
            ));
        }
        if let Some(limit) = self.back_and_forth {
            let shuttle = pos.shuttle[side.index()];
            if shuttle.to == mv.from && shuttle.from == mv.to && shuttle.count >= limit {
                return Some((
                    IllegalReason::BackAndForth { limit },
                    Some(RuleRef::BackAndForth),
                ));
            }
        }
        if pos.berserker != NONE
            && self.berserk == Some(Berserk::CaptureAgain)
            && self.move_captures(pos, k, from, to).is_empty()
        {
            return Some((IllegalReason::BerserkMustCapture, Some(RuleRef::Berserk)));
        }
        None
    }
}
