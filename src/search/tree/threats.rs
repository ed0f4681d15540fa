//! Threats the evaluation cannot weigh: a runner's (a king's) routes to its escape region,
//! open or a move away, and the squares where an edge fort may go up. Apart from the
//! techniques they serve because each is asked by several: the pruning is lifted by them,
//! reductions and late-move pruning spare the moves that make them, extensions follow them,
//! and quiescence searches them.

use super::Worker;
use crate::engine::bitboard::Bits;
use crate::engine::core::{Pos, RawMove};
use crate::ir::{KingCaptureMethod, Side};
use crate::search::eval::SMALL_REGION;

/// Fort watch: how many orthogonal steps from a fort builder on the edge a move must land to be
/// watched. The men that closed the fort of docs/data/match-1s/copenhagen-lmp-seed1.csv
/// (opening 5) landed one to four steps from the king; three keeps the watched zone to a score
/// of squares (a judgement, not measured against two or four).
const FORT_WATCH_STEPS: usize = 3;

/// What a runner (a king) threatens, for the side against it, to move: [`Worker::threat`].
pub(super) enum Threat<B> {
    /// A route is open: with its side to move, the runner escapes. Only a move landing on its
    /// reach (the route's squares are among them) can close it.
    Open { reach: B },
    /// No route is open, but the runner could move to a fork next; `stops` are the squares
    /// where a move might stop it (its reach, and the lines to its region).
    Fork { stops: B },
    /// Neither.
    Quiet,
}

impl<B> Threat<B> {
    /// Whether the runner threatens anything.
    pub(super) fn any(&self) -> bool {
        !matches!(self, Threat::Quiet)
    }
}

impl<B: Bits> Worker<'_, B> {
    /// Whether a runner (a king) of `side` has an open route to its escape region in `pos`:
    /// with `side` to move, it would escape.
    pub(super) fn open_route(&self, pos: &Pos<B>, side: Side) -> bool {
        matches!(self.threat(pos, side, false), Threat::Open { .. })
    }

    /// Whether a runner (a king) of `side` has an open route in `pos`, or its side could open
    /// one to a small escape region (corners) with its next move: a square the king could move
    /// to lies on a clear line to the region, or the king stands on a line to it that only his
    /// own men block (one stepping aside opens it). A king two moves from an open corner is a
    /// threat the evaluation cannot weigh (it scored a lost Copenhagen position +8 soldiers,
    /// and reverse futility cut the attackers' node there: docs/strength.md), and so is a king
    /// whose own man stands between him and the corner ("A route the king's men open").
    /// Not for a region as large as the edge, from which a king is nearly always two moves
    /// away: there the guard would turn pruning off (Linnaeus, depth 8: 4.68 M nodes instead of
    /// 2.80 M). The lines are a rook's, not asked of the variant's bans, and a line blocked by
    /// two men counts as one: this may say yes where no move opens a route. It guards pruning,
    /// where a yes only costs a search.
    pub(super) fn route_within_two(&self, pos: &Pos<B>, side: Side) -> bool {
        let empty = self.core.all_squares() & !pos.occupied();
        let own = pos.sides[side.index()];
        self.runners[side.index()].iter().any(|&(kind, region)| {
            let small = region.count() <= SMALL_REGION;
            // The king's own men count as open: one of them may step off the line.
            if small && (pos.pieces[kind] & self.core.rook_reach(region, empty | own)).any() {
                return true;
            }
            let lines = if small {
                region | self.core.rook_reach(region, empty)
            } else {
                region
            };
            pos.pieces[kind]
                .iter()
                .any(|sq| (self.core.targets_as(pos, side, kind, sq) & lines).any())
        })
    }

    /// The squares within [`FORT_WATCH_STEPS`] orthogonal steps of a piece of `side` that wins
    /// by an edge fort and stands on the edge beside an empty square (where the rules' fort
    /// begins: docs/language.md, "Winning by an edge fort"): where that side's wall may go up,
    /// and where the other side's men must go to stop it. Empty where `fort-watch` is off and
    /// where no fort is watched, as in every variant without the rule.
    pub(super) fn fort_zone(&self, pos: &Pos<B>, side: Side) -> B {
        if !self.settings.fort_watch {
            return B::EMPTY;
        }
        let builders = self.fort_builders[side.index()]
            .iter()
            .fold(B::EMPTY, |all, &kind| all | pos.pieces[kind]);
        let empty = self.core.all_squares() & !pos.occupied();
        let mut zone = builders & self.core.edge() & self.core.beside(empty);
        for _ in 0..FORT_WATCH_STEPS {
            if zone.is_empty() {
                break;
            }
            zone = zone | self.core.beside(zone);
        }
        zone
    }

    /// What a runner (a king) of `side` threatens in `pos`, each king's moves generated once:
    /// an open route; or, asked with `chase` where the corner chase is on and the runner
    /// escapes to a small region (corners), a fork a move away (a square the king could move
    /// to with clear lines to two squares of the region, which no single move blocks); or
    /// neither. The fork's lines are a rook's, not asked of the variant's bans.
    pub(super) fn threat(&self, pos: &Pos<B>, side: Side, chase: bool) -> Threat<B> {
        let chase = chase && self.settings.corner_chase;
        let empty = self.core.all_squares() & !pos.occupied();
        let (mut reach, mut stops) = (B::EMPTY, B::EMPTY);
        let (mut open, mut forked) = (false, false);
        for &(kind, region) in &self.runners[side.index()] {
            if pos.pieces[kind].is_empty() {
                continue;
            }
            // The squares on a clear line to one square of the region, and to two.
            let (mut once, mut twice) = (B::EMPTY, B::EMPTY);
            if chase && region.count() <= SMALL_REGION {
                for goal in region.iter() {
                    let line = self.core.rook_reach(B::single(goal), empty);
                    twice |= once & line;
                    once |= line;
                }
            }
            for sq in pos.pieces[kind].iter() {
                let targets = self.core.targets_as(pos, side, kind, sq);
                open |= (targets & region).any();
                reach |= targets;
                if (targets & twice).any() {
                    forked = true;
                    stops |= targets | once;
                }
            }
        }
        if open {
            Threat::Open { reach }
        } else if forked {
            Threat::Fork { stops }
        } else {
            Threat::Quiet
        }
    }

    /// Whether the other side could take a piece of `side` whose capture decides the game (a
    /// king) with its next move in `pos`: the king's "check", where quiescence may not stand on
    /// the evaluation (`king-threat`). Only kings already held on enough sides are looked at
    /// (one for a custodial king, three for an enclosed one), and only the other side's moves
    /// that land beside him or beside an empty square beside him, each played on a copy: a yes
    /// is a capture the rules make. Pieces that reach such a square off a rook's line (a jump)
    /// and the extra sandwich rules (which take a king held on fewer sides) are not looked for:
    /// a no may miss one, as standing on the evaluation did.
    pub(super) fn king_threatened(&self, pos: &Pos<B>, side: Side) -> bool {
        let enemy = side.opponent();
        let empty = self.core.all_squares() & !pos.occupied();
        for &kind in &self.decisive[side.index()] {
            for sq in pos.pieces[kind].iter() {
                let (held, method) = self.core.sides_held(pos, kind, sq, enemy);
                let needed = match method {
                    KingCaptureMethod::Custodial => 1,
                    KingCaptureMethod::Enclosed | KingCaptureMethod::EnclosedTogether => 3,
                };
                if held < needed {
                    continue;
                }
                let king = B::single(sq);
                let near = self.core.beside(king | (self.core.beside(king) & empty)) & empty;
                let asking = self.core.asking_for(pos, enemy);
                for to in near.iter() {
                    // Beside the squares a rook's line from `to` crosses: every piece that
                    // may move there along a line, and some that may not (asked below).
                    let line = self.core.rook_reach(B::single(to), empty) | B::single(to);
                    let captors = self.core.beside(line) & pos.sides[enemy.index()];
                    for from in captors.iter() {
                        let Some(captor) = self.core.kind_on(pos, from, enemy) else {
                            continue;
                        };
                        if !self.core.targets_as(pos, enemy, captor, from).has(to) {
                            continue;
                        }
                        let mut taken = asking;
                        let mv = RawMove {
                            from: from as u16,
                            to: to as u16,
                        };
                        self.core.step(&mut taken, mv, &[]);
                        if !taken.pieces[kind].has(sq) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a runner of `side` escapes to a small region (a king to the corners): set once
    /// per variant, in [`Worker::new`].
    pub(super) fn corner_runner(&self, side: Side) -> bool {
        self.corner_runners[side.index()]
    }

    /// Whether `mv` moves a runner (a king) of the side to move.
    pub(super) fn is_runner(&self, pos: &Pos<B>, mv: RawMove) -> bool {
        let from = usize::from(mv.from);
        self.runners[pos.to_move.index()]
            .iter()
            .any(|&(kind, _)| pos.pieces[kind].has(from))
    }
}
