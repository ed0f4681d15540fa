//! Hostility and capture: custodial captures, the king's capture, sandwiches, the shieldwall,
//! and kings taken after their own side's move.

use super::{Core, KingRule, Pos, RawMove, WallRule, NONE};
use crate::engine::bitboard::Bits;
use crate::ir::{KingCaptureMethod, Side};

impl<B: Bits> Core<B> {
    /// Everything the move of the piece of kind `k` from `from` to `to` captures: the custodial
    /// captures where it lands, a shieldwall it completes, the enemy a capturing jump goes over.
    /// `pos` is the position before the move.
    pub fn move_captures(&self, pos: &Pos<B>, k: usize, from: usize, to: usize) -> B {
        let moved = self.moved(pos, k, from, to);
        self.captured_by(&moved, k, to, self.jump_victim(pos, k, from, to))
    }

    /// `pos` with the piece of kind `k` moved from `from` to `to` and nothing else changed:
    /// the board on which its captures are judged.
    #[inline]
    pub(super) fn moved(&self, pos: &Pos<B>, k: usize, from: usize, to: usize) -> Pos<B> {
        let mut moved = *pos;
        let bits = B::single(from) | B::single(to);
        moved.pieces[k] ^= bits;
        moved.sides[self.kinds[k].side.index()] ^= bits;
        moved
    }

    /// What the piece of kind `k` that moved to `to` captures on `moved` (the board after the
    /// move, every victim still on it): custodially, by a shieldwall it completes, and the
    /// piece its capturing jump went over (`jumped`).
    #[inline]
    pub(super) fn captured_by(
        &self,
        moved: &Pos<B>,
        k: usize,
        to: usize,
        jumped: Option<usize>,
    ) -> B {
        let mut captured = self.captures(moved, k, to);
        if let Some(wall) = &self.shieldwall {
            captured |= self.wall_captures(moved, wall, k, to);
        }
        if let Some(over) = jumped {
            captured.set(over);
        }
        captured
    }

    /// How many pieces `mv` would capture, without making it (for move ordering). It copies
    /// the position: ask it only of moves landing on [`Self::capture_landings`].
    #[inline]
    pub fn capture_count(&self, pos: &Pos<B>, mv: RawMove) -> u32 {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let Some(k) = self.kind_on(pos, from, pos.to_move) else {
            return 0;
        };
        // Custodial captures and jumps only: a cheap count for ordering moves, shieldwalls aside.
        let moved = self.moved(pos, k, from, to);
        let jumped = u32::from(self.jump_victim(pos, k, from, to).is_some());
        self.captures(&moved, k, to).count() + jumped
    }

    /// The squares where a move of the side to move may capture, a superset: beside an enemy
    /// with, beyond it, a piece, a square that may count against it, or the board's edge
    /// (every custodial capture, a king's included, needs one of these; a jump lands beside
    /// its victim with the jumper's square beyond). A search asks [`Self::capture_count`]
    /// only of moves landing there.
    #[inline]
    pub fn capture_landings(&self, pos: &Pos<B>) -> B {
        let enemy = pos.to_move.opponent();
        let enemies = pos.sides[enemy.index()];
        let occupied = pos.occupied();
        let mut landings = self
            .steps
            .flanking(enemies, occupied | self.counting_anywhere);
        if self.together_any.any() {
            // A king taken together with the empty square beside him: the last enemy may land
            // beside him or beside that square, with nothing in particular beyond.
            let kings = self.side_kinds[enemy.index()]
                .iter()
                .filter(|&&k| self.kinds[k].king)
                .fold(B::EMPTY, |all, &k| all | pos.pieces[k]);
            let open = self.together_any & !occupied & self.steps.beside(kings);
            landings |= self.steps.beside(open | (self.steps.beside(open) & kings));
        }
        landings
    }

    /// Whether the square `m` beside the king of kind `victim` counts against him under `rule`
    /// after the piece that moved to `to`: that piece, an anvil of its side, a square the rule
    /// counts, a square hostile to him, or beyond the edge where the edge counts.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn king_side_counts(
        &self,
        pos: &Pos<B>,
        rule: &KingRule<B>,
        victim: usize,
        to: usize,
        anvils: B,
        occupied: B,
        m: u16,
    ) -> bool {
        if m == NONE {
            return rule.edge_counts;
        }
        let m = usize::from(m);
        m == to || anvils.has(m) || rule.counting.has(m) || self.hostile(pos, m, victim, occupied)
    }

    /// Whether side `m` of the king on `sq` holds against him under `rule`, `counts` saying
    /// which squares count: it counts itself, or (a rule enclosing him together with the square
    /// beside him) it is an empty square of the rule's region whose every other side counts.
    #[inline]
    pub(super) fn side_holds(
        &self,
        rule: &KingRule<B>,
        sq: usize,
        m: u16,
        occupied: B,
        counts: &impl Fn(u16) -> bool,
    ) -> bool {
        if counts(m) {
            return true;
        }
        if m == NONE || rule.together.is_empty() {
            return false;
        }
        let t = usize::from(m);
        rule.together.has(t)
            && !occupied.has(t)
            && self.neighbours[t]
                .iter()
                .all(|&o| usize::from(o) == sq || counts(o))
    }

    /// The kings taken together with an empty square beside them that the piece of kind `k`
    /// just moved to `to` closes from the far side: kings two steps away, beside an empty
    /// square of their rule's region that is beside `to`. (Kings beside `to` are judged with
    /// the other victims in [`Self::captures`].)
    #[inline]
    fn taken_together_beyond(&self, pos: &Pos<B>, k: usize, to: usize, anvils: B) -> B {
        let enemy = self.kinds[k].side.opponent();
        let occupied = pos.occupied();
        let mut captured = B::EMPTY;
        for t in (self.together_any & self.neighbour_sets[to] & !occupied).iter() {
            for &n in &self.neighbours[t] {
                if n == NONE {
                    continue;
                }
                let n = usize::from(n);
                let Some(victim) = self.kind_on(pos, n, enemy) else {
                    continue;
                };
                if !self.kinds[victim].king {
                    continue;
                }
                let rule = &self.king_rules[usize::from(self.king_rule_of[n])];
                if !rule.together.has(t) {
                    continue;
                }
                let counts =
                    |m: u16| self.king_side_counts(pos, rule, victim, to, anvils, occupied, m);
                if self.neighbours[n]
                    .iter()
                    .all(|&m| self.side_holds(rule, n, m, occupied, &counts))
                {
                    captured.set(n);
                }
            }
        }
        captured
    }

    /// Whether `sq` acts as a captor against a piece of kind `victim` (hostile square rules).
    #[inline]
    pub(super) fn hostile(&self, pos: &Pos<B>, sq: usize, victim: usize, occupied: B) -> bool {
        if self.hostile_always[victim].has(sq)
            || (self.hostile_empty[victim].has(sq) && !occupied.has(sq))
        {
            return true;
        }
        let victim_side = self.kinds[victim].side;
        self.hostile_cond.iter().any(|rule| {
            rule.victims & (1 << victim) != 0
                && rule.region.has(sq)
                && (0..self.kinds.len()).any(|k| rule.by & (1 << k) != 0 && pos.pieces[k].has(sq))
                && (self.neighbour_sets[sq] & pos.sides[victim_side.opponent().index()]).count()
                    >= u32::from(rule.enemies_beside)
        })
    }

    /// The squares of the pieces the move just made to `to` by a piece of kind `k` captures.
    /// `pos` has the moved piece on `to` and still has every victim.
    #[inline]
    pub fn captures(&self, pos: &Pos<B>, k: usize, to: usize) -> B {
        let side = self.kinds[k].side;
        let enemy = side.opponent();
        let enemies = pos.sides[enemy.index()];
        let mut captured = B::EMPTY;
        let hammer = self.kinds[k].hammer;
        // A king taken together with the empty square beside him may be two steps from `to`.
        let together = hammer && (self.together_any & self.neighbour_sets[to]).any();
        if (self.neighbour_sets[to] & enemies).is_empty() && !together {
            return captured;
        }
        let occupied = pos.occupied();
        let mut anvils = B::EMPTY;
        for &a in &self.side_kinds[side.index()] {
            if self.kinds[a].anvil {
                anvils |= pos.pieces[a];
            }
        }
        if together {
            captured |= self.taken_together_beyond(pos, k, to, anvils);
        }
        for d in 0..4 {
            let n = self.neighbours[to][d];
            if n == NONE || !enemies.has(usize::from(n)) {
                continue;
            }
            let n = usize::from(n);
            let Some(victim) = self.kind_on(pos, n, enemy) else {
                continue;
            };
            let far = self.neighbours[n][d];
            if self.kinds[victim].king {
                let rule = &self.king_rules[usize::from(self.king_rule_of[n])];
                let side_counts =
                    |m: u16| self.king_side_counts(pos, rule, victim, to, anvils, occupied, m);
                let taken = hammer
                    && (match rule.method {
                        KingCaptureMethod::Custodial => side_counts(far),
                        KingCaptureMethod::Enclosed => {
                            self.neighbours[n].iter().all(|&m| side_counts(m))
                        }
                        KingCaptureMethod::EnclosedTogether => self.neighbours[n]
                            .iter()
                            .all(|&m| self.side_holds(rule, n, m, occupied, &side_counts)),
                    } || self.sandwiched(pos, k, victim, n, far));
                if taken {
                    captured.set(n);
                }
            } else if hammer && far != NONE {
                let far = usize::from(far);
                if anvils.has(far) || self.hostile(pos, far, victim, occupied) {
                    captured.set(n);
                }
            }
        }
        captured
    }

    /// Whether the king of kind `king` on `sq`, with the piece of kind `k` that just moved next
    /// to him and `far` the square opposite, is taken by a sandwich rule.
    #[inline]
    pub(super) fn sandwiched(
        &self,
        pos: &Pos<B>,
        k: usize,
        king: usize,
        sq: usize,
        far: u16,
    ) -> bool {
        if far == NONE {
            return false;
        }
        let far = usize::from(far);
        self.sandwiches.iter().any(|rule| {
            rule.kings & (1 << king) != 0
                && rule.captors & (1 << k) != 0
                && rule.applies.has(sq)
                && (rule.counting.has(far)
                    || (0..self.kinds.len()).any(|c| {
                        rule.captors & (1 << c) != 0
                            && self.kinds[c].side == self.kinds[k].side
                            && self.kinds[c].anvil
                            && pos.pieces[c].has(far)
                    }))
        })
    }

    /// The pieces a shieldwall takes after the piece of kind `k` moved to `to`. `pos` has the
    /// moved piece on `to` and every victim still on the board.
    pub(super) fn wall_captures(&self, pos: &Pos<B>, wall: &WallRule<B>, k: usize, to: usize) -> B {
        let side = self.kinds[k].side;
        let mut brackets = B::EMPTY;
        for &a in &self.side_kinds[side.index()] {
            if self.kinds[a].anvil {
                brackets |= pos.pieces[a];
            }
        }
        if self.kinds[k].hammer {
            brackets.set(to);
        }
        let mut captured = B::EMPTY;
        if wall.any_move {
            // Every bracket on the edge may close a row.
            for start in ((brackets | wall.counting) & self.edge).iter() {
                captured |= self.walls_from(pos, wall, side, start, brackets);
            }
        } else if self.kinds[k].hammer && self.edge.has(to) {
            captured = self.walls_from(pos, wall, side, to, brackets);
        }
        captured
    }

    /// The rows of enemies of `side` along the edge starting next to `start`, in either
    /// direction along the edge, that are bracketed at the far end (by `brackets` or a counting
    /// square) and fronted by `brackets` on every square: the victims among them.
    pub(super) fn walls_from(
        &self,
        pos: &Pos<B>,
        wall: &WallRule<B>,
        side: Side,
        start: usize,
        brackets: B,
    ) -> B {
        let enemies = pos.sides[side.opponent().index()];
        let (file, rank) = (start % self.width, start / self.width);
        let mut captured = B::EMPTY;
        for d in 0..4 {
            // The row runs along direction `d`; `front` points into the board from the row.
            let front = if d % 2 == 0 {
                if file == 0 {
                    1
                } else if file == self.width - 1 {
                    3
                } else {
                    continue;
                }
            } else if rank == 0 {
                0
            } else if rank == self.height - 1 {
                2
            } else {
                continue;
            };
            let mut row = B::EMPTY;
            let mut sq = self.neighbours[start][d];
            while sq != NONE && enemies.has(usize::from(sq)) {
                let here = usize::from(sq);
                let ahead = self.neighbours[here][front];
                if ahead == NONE || !brackets.has(usize::from(ahead)) {
                    row = B::EMPTY;
                    break;
                }
                row.set(here);
                sq = self.neighbours[here][d];
            }
            if row.count() < 2 || sq == NONE {
                continue;
            }
            let end = usize::from(sq);
            if !(brackets.has(end) || wall.counting.has(end)) {
                continue;
            }
            for victim in row.iter() {
                if let Some(kind) = self.kind_on(pos, victim, side.opponent()) {
                    if wall.victims & (1 << kind) != 0 {
                        captured.set(victim);
                    }
                }
            }
        }
        captured
    }

    /// The kings of `side` that stand enclosed under a king-capture rule checked after their own
    /// side's moves.
    pub(super) fn enclosed_own_kings(&self, pos: &Pos<B>, side: Side) -> B {
        let occupied = pos.occupied();
        let mut anvils = B::EMPTY;
        for &a in &self.side_kinds[side.opponent().index()] {
            if self.kinds[a].anvil {
                anvils |= pos.pieces[a];
            }
        }
        let mut taken = B::EMPTY;
        for &k in &self.side_kinds[side.index()] {
            if !self.kinds[k].king {
                continue;
            }
            for sq in pos.pieces[k].iter() {
                let rule = &self.king_rules[usize::from(self.king_rule_of[sq])];
                if !rule.after_own_move {
                    continue;
                }
                let counts = |m: u16| {
                    if m == NONE {
                        return rule.edge_counts;
                    }
                    let m = usize::from(m);
                    anvils.has(m) || rule.counting.has(m) || self.hostile(pos, m, k, occupied)
                };
                let sides = self.neighbours[sq];
                let enclosed = match rule.method {
                    KingCaptureMethod::Enclosed => sides.iter().all(|&m| counts(m)),
                    KingCaptureMethod::EnclosedTogether => sides
                        .iter()
                        .all(|&m| self.side_holds(rule, sq, m, occupied, &counts)),
                    KingCaptureMethod::Custodial => {
                        (counts(sides[0]) && counts(sides[2]))
                            || (counts(sides[1]) && counts(sides[3]))
                    }
                };
                if enclosed {
                    taken.set(sq);
                }
            }
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Compiled, Engine, Rng};
    use crate::Game;

    /// The count as the capture rules give it: the move made on a copy and its captures
    /// counted.
    fn copied_count<B: Bits>(core: &Core<B>, pos: &Pos<B>, mv: RawMove) -> u32 {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let Some(k) = core.kind_on(pos, from, pos.to_move) else {
            return 0;
        };
        let moved = core.moved(pos, k, from, to);
        core.captures(&moved, k, to).count()
            + u32::from(core.jump_victim(pos, k, from, to).is_some())
    }

    fn agree<B: Bits>(core: &Core<B>, pos: &Pos<B>) -> (usize, usize) {
        let mut moves = Vec::new();
        core.gen_moves(pos, &mut moves);
        let landings = core.capture_landings(pos);
        let mut captures = 0;
        for &mv in &moves {
            let exact = copied_count(core, pos, mv);
            assert_eq!(core.capture_count(pos, mv), exact, "{mv:?}");
            assert!(
                exact == 0 || landings.has(usize::from(mv.to)),
                "{mv:?} lands outside"
            );
            captures += usize::from(exact > 0);
        }
        (moves.len(), captures)
    }

    /// Over random games of every bundled variant, `capture_count` counts what the copy counts
    /// for every legal move, and every move that captures lands on one of `capture_landings`,
    /// the shortcut the search asks first.
    #[test]
    fn every_capture_lands_where_capture_landings_says() {
        for name in crate::bundled_names() {
            let variant = crate::Variant::bundled(name).expect("bundled variants load");
            let engine = std::sync::Arc::new(Engine::new(&variant.rules).expect("they compile"));
            let mut seen = (0, 0);
            for seed in 0..6 {
                let mut rng = Rng::new(seed);
                let mut game = Game::new(engine.clone());
                for _ in 0..80 {
                    let position = *game.position();
                    let (moves, captures) = match engine.compiled(&position) {
                        Some(Compiled::Narrow(core, pos)) => agree(core, &pos),
                        Some(Compiled::Wide(core, pos)) => agree(core, &pos),
                        None => unreachable!("the game's own engine"),
                    };
                    seen = (seen.0 + moves, seen.1 + captures);
                    let legal = game.legal_moves();
                    if legal.is_empty() || game.is_over() {
                        break;
                    }
                    game.play(legal[rng.below(legal.len())])
                        .expect("a legal move");
                }
            }
            // The games did reach captures, so the shortcut was asked of some.
            assert!(seen.1 > 0, "{name}: no capture in {} moves", seen.0);
        }
    }
}
