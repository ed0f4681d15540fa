//! Edge forts (Copenhagen's exit fort): whether a piece on the edge stands in a fort that the
//! enemy can never break.
//!
//! The rule sheet's words are "the king has contact with the board edge, is able to move, and it
//! is impossible for the attackers to break the fort" (aagenielsen.dk, Copenhagen rule 9). We
//! read "impossible" as a property of the position the players can check:
//!
//! 1. The king stands on the edge beside an empty square. The empty squares he can walk to, and
//!    his own, are the fort's *inside*; every piece next to the inside (the *wall*) is his own.
//! 2. A man of his side is *safe* unless some sequence of enemy moves could capture him while
//!    every other safe man still stands. That is a greatest fixed point: start with every man
//!    safe and take away only those that are provably capturable, until nothing changes. So two
//!    men that guard each other (each can only be taken after the other) both stay safe.
//! 3. A man is capturable when, on one of his lines, one neighbour could hold a capturing enemy
//!    and the other an enemy or a square hostile to him; or when he stands in a row along the
//!    edge that a shieldwall could take: both ends reachable (or counting squares) and every man
//!    of the row faced by a square an enemy could reach. An enemy can reach a square when it is
//!    connected to one of its pieces through squares that are not inside the fort and not held
//!    by a safe man (so a capturable man's square counts as open), and it may stand there.
//! 4. The fort holds when every wall man is safe: then no enemy can ever capture one, so none
//!    can ever enter the inside.
//!
//! The reading is deliberately cautious where the rules give enemies more than rook moves: an
//! enemy kind that flies, or that may jump over one of the king's men, could enter the inside
//! over the wall, so no fort holds against it. Movement limits (a maximum distance) and
//! position-dependent access rules are ignored, which can only overstate what the enemy
//! reaches. docs/language.md ("Winning by an edge fort") shows the shapes with diagrams.

use super::{Core, Pos, NONE};
use crate::engine::bitboard::Bits;
use crate::ir::Side;

/// What the enemy could do around a fort, given the men currently taken as safe.
struct EnemyReach<B> {
    /// Squares where a capturing enemy piece (a hammer) could come to stand.
    hammers: B,
    /// Squares where an enemy piece that captures against others (an anvil) could stand.
    anvils: B,
}

/// One round of the fixed point: what stands and what the enemy reaches, the same for every
/// man judged in it.
struct Round<B> {
    /// The fort's side.
    side: Side,
    /// The king's square and the empty squares he can reach.
    inside: B,
    /// The men still taken as safe.
    safe: B,
    /// Squares certainly occupied while the safe men stand (the others may be emptied by
    /// captures), for squares hostile only when empty.
    standing: B,
    reach: EnemyReach<B>,
}

impl<B: Bits> Core<B> {
    /// Whether the piece of kind `k` on `king` holds an edge fort (see the module docs).
    pub(crate) fn holds_fort(&self, pos: &Pos<B>, k: usize, king: usize) -> bool {
        if !self.edge.has(king) {
            return false;
        }
        let side = self.kinds[k].side;
        let enemy = side.opponent();
        let empty = self.board & !pos.occupied();
        let exits = self.neighbour_sets[king] & empty;
        if exits.is_empty() {
            return false;
        }
        // No enemy may stand next to the inside. Most positions fail that within a step or two
        // of the king, so ask it with a flood that stops there before flooding the whole inside.
        let beside_enemies = self.beside(pos.sides[enemy.index()]);
        if beside_enemies.has(king)
            || self.steps.reaches(exits, empty, beside_enemies)
            || self.enemy_crosses_walls(enemy, side)
        {
            return false;
        }
        let inside = self.flood(exits, empty) | B::single(king);
        let wall = self.beside(inside) & !inside;
        // The greatest fixed point: every man of the side but the king starts safe.
        let mut safe = pos.sides[side.index()] & !B::single(king);
        loop {
            let round = Round {
                side,
                inside,
                safe,
                standing: (pos.occupied() & (inside | safe)) | pos.sides[enemy.index()],
                reach: self.enemy_reach(pos, enemy, inside | safe),
            };
            let mut taken = B::EMPTY;
            for man in safe.iter() {
                if self.capturable(pos, man, &round) {
                    taken.set(man);
                }
            }
            if (taken & wall).any() {
                return false;
            }
            if taken.is_empty() {
                return true;
            }
            safe &= !taken;
        }
    }

    /// Whether some enemy kind can get over a wall of `side`'s men: it flies, or it may jump
    /// one of them.
    fn enemy_crosses_walls(&self, enemy: Side, side: Side) -> bool {
        let mut men = 0u32;
        for &k in &self.side_kinds[side.index()] {
            men |= 1 << k;
        }
        self.flies[enemy.index()]
            || self.side_kinds[enemy.index()].iter().any(|&e| {
                self.jumps[e]
                    .as_ref()
                    .is_some_and(|jump| jump.over & men != 0)
            })
    }

    /// The squares the enemy's pieces could come to stand on, moving through any square that is
    /// not `closed` (the fort's inside and the safe men) and that their kind may pass.
    fn enemy_reach(&self, pos: &Pos<B>, enemy: Side, closed: B) -> EnemyReach<B> {
        let open = self.board & !closed;
        let mut reach = EnemyReach {
            hammers: B::EMPTY,
            anvils: B::EMPTY,
        };
        for &e in &self.side_kinds[enemy.index()] {
            let pieces = pos.pieces[e];
            if pieces.is_empty() {
                continue;
            }
            let passable = open & !self.pass_always[e];
            let seeds = pieces | (self.beside(pieces) & passable);
            let stands = (self.flood(seeds, passable | pieces) & !self.land_always[e]) | pieces;
            if self.kinds[e].hammer {
                reach.hammers |= stands;
            }
            if self.kinds[e].anvil {
                reach.anvils |= stands;
            }
        }
        reach
    }

    /// Whether the safe man on `man` could be captured while the round's other safe men stand.
    fn capturable(&self, pos: &Pos<B>, man: usize, round: &Round<B>) -> bool {
        let Round {
            side,
            inside,
            safe,
            standing,
            reach,
        } = round;
        let Some(victim) = self.kind_on(pos, man, *side) else {
            // `safe` only ever holds squares of the side's pieces.
            return false;
        };
        let captor = |n: u16, arriving: bool| -> bool {
            if n == NONE {
                return false;
            }
            let n = usize::from(n);
            if safe.has(n) {
                return false;
            }
            let enemy_there = if arriving {
                reach.hammers.has(n)
            } else {
                reach.anvils.has(n)
            };
            self.hostile(pos, n, victim, *standing) || (!inside.has(n) && enemy_there)
        };
        for axis in 0..2 {
            let (a, b) = (self.neighbours[man][axis], self.neighbours[man][axis + 2]);
            if (captor(a, true) && captor(b, false)) || (captor(b, true) && captor(a, false)) {
                return true;
            }
        }
        self.in_breakable_shieldwall(pos, man, victim, round)
    }

    /// Whether the man on `man` (of kind `victim`) stands in a row along the edge that a
    /// shieldwall could take: two or more of `side`'s pieces in a row, every one faced by a
    /// square an enemy could stand on, both ends an enemy's reachable square or a counting
    /// square, and the row never crossing the fort's inside.
    fn in_breakable_shieldwall(
        &self,
        pos: &Pos<B>,
        man: usize,
        victim: usize,
        round: &Round<B>,
    ) -> bool {
        let Round {
            side,
            inside,
            safe,
            reach,
            ..
        } = round;
        let Some(wall) = &self.shieldwall else {
            return false;
        };
        if wall.victims & (1 << victim) == 0 || !self.edge.has(man) {
            return false;
        }
        let own = pos.sides[side.index()];
        let fronted = |sq: usize, front: usize| -> bool {
            let ahead = self.neighbours[sq][front];
            own.has(sq) && !inside.has(sq) && ahead != NONE && reach.anvils.has(usize::from(ahead))
        };
        let bracket = |n: u16| -> bool {
            if n == NONE {
                return false;
            }
            let n = usize::from(n);
            wall.counting.has(n)
                || (!inside.has(n) && !safe.has(n) && (reach.anvils | reach.hammers).has(n))
        };
        for front in 0..4 {
            // A row along the edge runs across `front`, the direction into the board.
            let outward = self.neighbours[man][(front + 2) % 4];
            if outward != NONE || !fronted(man, front) {
                continue;
            }
            let (left_dir, right_dir) = ((front + 1) % 4, (front + 3) % 4);
            // The men of the row on each side of `man`, nearest first, as long as each is
            // faced; every prefix of them is a possible row end.
            let extend = |dir: usize| -> Vec<usize> {
                let mut run = Vec::new();
                let mut sq = self.neighbours[man][dir];
                while sq != NONE && fronted(usize::from(sq), front) {
                    run.push(usize::from(sq));
                    sq = self.neighbours[usize::from(sq)][dir];
                }
                run
            };
            let (left, right) = (extend(left_dir), extend(right_dir));
            let end_beyond = |run: &[usize], take: usize, dir: usize| -> u16 {
                let last = if take == 0 { man } else { run[take - 1] };
                self.neighbours[last][dir]
            };
            for l in 0..=left.len() {
                if !bracket(end_beyond(&left, l, left_dir)) {
                    continue;
                }
                for r in 0..=right.len() {
                    if l + r >= 1 && bracket(end_beyond(&right, r, right_dir)) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
