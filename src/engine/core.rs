//! The compiled rules and the position for one bit-set width. Everything here is generic over
//! [`Bits`] and monomorphised per width; [`super::Engine`] picks the width once.

use super::bitboard::Bits;
use super::{CompileError, EndReason, Ending, GameOutcome, IllegalReason};
use crate::ir::{
    AccessCondition, Berserk, BySide, Claim, EncirclementReading, KingCaptureMethod, MoveStyle,
    NoMoves, Outcome, RepetitionResult, Role, RuleRef, Rules, ShieldwallTrigger, Side, Square,
    MAX_KINDS,
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

/// What one ply did: the position it reached, the pieces it took, and how it ended the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step<B: Bits> {
    pub child: Pos<B>,
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
    pub width: usize,
    /// Every square of the board.
    pub board: B,
    pub kinds: Vec<Kind>,
    /// The display name of each kind, for refusals.
    pub names: Vec<String>,
    /// The kind indices of each side.
    pub side_kinds: [Vec<usize>; 2],
    /// Per square, the neighbour in each direction (north, east, south, west) or [`NONE`].
    pub neighbours: Vec<[u16; 4]>,
    /// Per square, the set of its on-board neighbours.
    pub neighbour_sets: Vec<B>,
    /// Per square and direction, the squares from it (exclusive) to the board's edge.
    pub rays: Vec<[B; 4]>,
    /// Per kind with a maximum distance, per square, the squares within that distance.
    pub near: Vec<Option<Vec<B>>>,
    pub access: Vec<Access<B>>,
    /// Landing and passing forbidden unconditionally, per kind (from `access`).
    pub land_always: [B; MAX_KINDS],
    pub pass_always: [B; MAX_KINDS],
    /// Whether any access rule has a condition that depends on the position.
    pub has_conditional_access: bool,
    pub once_left_regions: Vec<B>,
    pub hostile_always: [B; MAX_KINDS],
    pub hostile_empty: [B; MAX_KINDS],
    pub hostile_cond: Vec<CondHostility<B>>,
    pub king_rule_of: Vec<u8>,
    pub king_rules: Vec<KingRule<B>>,
    pub escapes: Vec<EscapeRule<B>>,
    /// Per kind, the squares that win for it when it lands there (union of its escapes).
    pub escape_any: [B; MAX_KINDS],
    /// Per kind, the side its capture wins for and the index of that rule in
    /// `Rules::outcome.decisive_captures`.
    pub decisive: [Option<(Side, usize)>; MAX_KINDS],
    pub zobrist: Vec<[u64; MAX_KINDS]>,
    pub side_key: u64,
    /// The squares on the board's edge.
    pub edge: B,
    pub height: usize,
    pub shieldwall: Option<WallRule<B>>,
    pub forts: Vec<FortRule>,
    /// Per encirclement rule: the winner and the reading.
    pub encirclements: Vec<(Side, EncirclementReading)>,
    /// Whether any end check beyond escapes and decisive captures runs after a move (forts,
    /// encirclement): variants without them pay one branch.
    pub has_board_ends: bool,
    /// Per side, whether one of its kinds flies to any empty square (so its own move can take it
    /// into an enclosure).
    pub flies: [bool; 2],
    /// Whether some king-capture rule is checked after the king's own side moves.
    pub has_own_move_capture: bool,
    pub sandwiches: Vec<SandwichRule<B>>,
    /// Per kind, its jump, if it may jump.
    pub jumps: [Option<JumpAbility<B>>; MAX_KINDS],
    pub berserk: Option<Berserk>,
    /// Per square, the hash key of a berserker standing there.
    pub berserk_keys: Vec<u64>,
    pub no_moves: BySide<NoMoves>,
    pub repetition: Option<(u32, RepetitionResult, Claim)>,
    pub back_and_forth: Option<u32>,
    /// No-capture limit in plies (moves by each side x 2), and whether it ends the game itself.
    pub no_capture: Option<(u32, Claim)>,
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl<B: Bits> Core<B> {
    pub fn compile(rules: &Rules) -> Result<Core<B>, CompileError> {
        // Every field of the rules is compiled below or left to another stage, as said here:
        // destructuring them makes a new field a compile error until the engine decides.
        let Rules {
            name: _,            // words only
            source: _,          // words only
            notes: _,           // words only
            board: _,           // the square tables
            sides: _,           // the sides' names: words only
            first_to_move: _,   // the start position (`Engine::start`)
            pieces: _,          // `kinds`
            regions: _,         // resolved through the rules that name them
            setup: _,           // the start position (`Engine::start`)
            access: _,          // `access`, `land_always`, `pass_always`
            hostility: _,       // `hostile_*`
            king_capture: _,    // `king_rules`
            king_sandwiches: _, // `sandwiches`
            shieldwall: _,      // `shieldwall`
            jumps: _,           // `jumps`
            berserk: _,         // `berserk`
            outcome:
                Outcome {
                    escapes: _,              // `escapes`, `escape_any`
                    decisive_captures: _,    // `decisive`
                    edge_forts: _,           // `forts` (engine/fort.rs)
                    encirclements: _,        // `encirclements`
                    no_moves: _,             // `no_moves`
                    repetition: _,           // `repetition`
                    back_and_forth_limit: _, // `back_and_forth`
                    no_capture_draw: _,      // `no_capture`
                    draw_by_agreement: _,    // the game's (`Game::agree_draw`)
                },
            announcements: _, // the game's (`game::announce`)
        } = rules;
        let width = usize::from(rules.board.width);
        let height = usize::from(rules.board.height);
        let squares = width * height;
        if squares > B::CAPACITY {
            return Err(CompileError::BoardTooLarge {
                width: rules.board.width,
                height: rules.board.height,
            });
        }
        if rules.pieces.len() > MAX_KINDS {
            return Err(CompileError::TooManyKinds(rules.pieces.len()));
        }
        let index = |square: Square| usize::from(square.rank) * width + usize::from(square.file);
        let kind_index = |name: &str| {
            rules
                .pieces
                .iter()
                .position(|piece| piece.name == name)
                .ok_or_else(|| CompileError::UnknownPiece(name.to_string()))
        };
        let kinds_mask = |names: &[String]| -> Result<u32, CompileError> {
            let mut mask = 0;
            for name in names {
                mask |= 1 << kind_index(name)?;
            }
            Ok(mask)
        };
        let set_of = |list: &[Square]| -> Result<B, CompileError> {
            let mut set = B::EMPTY;
            for &square in list {
                if !square.is_on(rules.board.width, rules.board.height) {
                    return Err(CompileError::SquareOffBoard(square));
                }
                set.set(index(square));
            }
            Ok(set)
        };
        let region = |name: &str| -> Result<B, CompileError> {
            let region = rules
                .region(name)
                .ok_or_else(|| CompileError::UnknownRegion(name.to_string()))?;
            set_of(&region.squares)
        };

        // Geometry.
        let mut neighbours = vec![[NONE; 4]; squares];
        let mut neighbour_sets = vec![B::EMPTY; squares];
        let mut rays = vec![[B::EMPTY; 4]; squares];
        for sq in 0..squares {
            let (file, rank) = ((sq % width) as i32, (sq / width) as i32);
            for (d, (df, dr)) in DIRS.iter().enumerate() {
                let (mut f, mut r) = (file + df, rank + dr);
                let on = |f: i32, r: i32| f >= 0 && r >= 0 && f < width as i32 && r < height as i32;
                if on(f, r) {
                    let n = r as usize * width + f as usize;
                    neighbours[sq][d] = n as u16;
                    neighbour_sets[sq].set(n);
                }
                while on(f, r) {
                    rays[sq][d].set(r as usize * width + f as usize);
                    f += df;
                    r += dr;
                }
            }
        }

        let kinds: Vec<Kind> = rules
            .pieces
            .iter()
            .map(|piece| Kind {
                side: piece.side,
                king: piece.role == Role::King,
                hammer: piece.armed.as_hammer(),
                anvil: piece.armed.as_anvil(),
                style: piece.movement.style,
                max_distance: piece.movement.max_distance,
            })
            .collect();
        let mut side_kinds = [Vec::new(), Vec::new()];
        for (k, kind) in kinds.iter().enumerate() {
            side_kinds[kind.side.index()].push(k);
        }
        let near = kinds
            .iter()
            .map(|kind| {
                kind.max_distance.map(|max| {
                    let max = i32::from(max);
                    (0..squares)
                        .map(|sq| {
                            let mut set = B::EMPTY;
                            let (f0, r0) = ((sq % width) as i32, (sq / width) as i32);
                            for other in 0..squares {
                                let (f, r) = ((other % width) as i32, (other / width) as i32);
                                if (f == f0 && (r - r0).abs() <= max)
                                    || (r == r0 && (f - f0).abs() <= max)
                                {
                                    set.set(other);
                                }
                            }
                            set
                        })
                        .collect()
                })
            })
            .collect();

        // Access.
        let mut access = Vec::new();
        let mut land_always = [B::EMPTY; MAX_KINDS];
        let mut pass_always = [B::EMPTY; MAX_KINDS];
        let mut once_left_regions = Vec::new();
        let mut has_conditional_access = false;
        for rule in &rules.access {
            let kinds_bits = kinds_mask(&rule.pieces)?;
            let set = region(&rule.region)?;
            let condition = match rule.condition {
                AccessCondition::Always => {
                    for k in 0..kinds.len() {
                        if kinds_bits & (1 << k) != 0 {
                            if rule.action.includes_landing() {
                                land_always[k] |= set;
                            }
                            if rule.action.includes_passing() {
                                pass_always[k] |= set;
                            }
                        }
                    }
                    Condition::Always
                }
                AccessCondition::OnceLeft => {
                    if once_left_regions.len() == MAX_ONCE_LEFT {
                        return Err(CompileError::TooManyOnceLeftRules);
                    }
                    has_conditional_access = true;
                    once_left_regions.push(set);
                    Condition::OnceLeft(once_left_regions.len() - 1)
                }
                AccessCondition::WhileGroupEmpty => {
                    has_conditional_access = true;
                    Condition::WhileGroupEmpty(groups_of(set, &neighbours))
                }
            };
            access.push(Access {
                kinds: kinds_bits,
                region: set,
                land: rule.action.includes_landing(),
                pass: rule.action.includes_passing(),
                condition,
            });
        }

        // Hostility.
        let mut hostile_always = [B::EMPTY; MAX_KINDS];
        let mut hostile_empty = [B::EMPTY; MAX_KINDS];
        let mut hostile_cond = Vec::new();
        for rule in &rules.hostility {
            let victims = kinds_mask(&rule.victims)?;
            let set = region(&rule.region)?;
            match &rule.when {
                crate::ir::Hostile::Always | crate::ir::Hostile::WhenEmpty => {
                    let table = if rule.when == crate::ir::Hostile::Always {
                        &mut hostile_always
                    } else {
                        &mut hostile_empty
                    };
                    for (k, mask) in table.iter_mut().enumerate().take(kinds.len()) {
                        if victims & (1 << k) != 0 {
                            *mask |= set;
                        }
                    }
                }
                crate::ir::Hostile::WhenOccupied { by, enemies_beside } => {
                    hostile_cond.push(CondHostility {
                        region: set,
                        victims,
                        by: kinds_mask(by)?,
                        enemies_beside: *enemies_beside,
                    });
                }
            }
        }

        // King capture, by square.
        let mut king_rule_of = vec![u8::MAX; squares];
        let mut king_rules = Vec::new();
        for (i, rule) in rules.king_capture.iter().enumerate() {
            let mut counting = B::EMPTY;
            for name in &rule.counting {
                counting |= region(name)?;
            }
            king_rules.push(KingRule {
                method: rule.method,
                counting,
                edge_counts: rule.edge_counts,
                after_own_move: rule.after_own_move,
            });
            for &square in &rule.squares {
                if !square.is_on(rules.board.width, rules.board.height) {
                    return Err(CompileError::SquareOffBoard(square));
                }
                // The IR promises disjoint squares; should two rules claim a square, the first
                // one written wins, as a reader of the file would expect.
                let slot = &mut king_rule_of[index(square)];
                if *slot == u8::MAX {
                    *slot = i as u8;
                }
            }
        }
        let has_king = kinds.iter().any(|kind| kind.king);
        if has_king && king_rule_of.contains(&u8::MAX) {
            if let Some(sq) = king_rule_of.iter().position(|&r| r == u8::MAX) {
                return Err(CompileError::NoKingCaptureRule(Square::new(
                    (sq % width) as u8,
                    (sq / width) as u8,
                )));
            }
        }

        // Outcome.
        let mut escapes = Vec::new();
        let mut escape_any = [B::EMPTY; MAX_KINDS];
        for (rule, escape) in rules.outcome.escapes.iter().enumerate() {
            let kind = kind_index(&escape.piece)?;
            let set = region(&escape.region)?;
            escape_any[kind] |= set;
            escapes.push(EscapeRule {
                rule,
                kind,
                region: set,
                winner: escape.winner,
            });
        }
        let mut decisive = [None; MAX_KINDS];
        for (rule, capture) in rules.outcome.decisive_captures.iter().enumerate() {
            decisive[kind_index(&capture.piece)?] = Some((capture.winner, rule));
        }

        let mut edge = B::EMPTY;
        for (sq, around) in neighbours.iter().enumerate() {
            if around.contains(&NONE) {
                edge.set(sq);
            }
        }
        let shieldwall = match &rules.shieldwall {
            Some(wall) => {
                let mut counting = B::EMPTY;
                for name in &wall.counting {
                    counting |= region(name)?;
                }
                Some(WallRule {
                    victims: kinds_mask(&wall.victims)?,
                    counting,
                    any_move: match wall.trigger {
                        ShieldwallTrigger::Flanking => false,
                        ShieldwallTrigger::AnyMove => true,
                    },
                })
            }
            None => None,
        };
        let mut forts = Vec::new();
        for (rule, fort) in rules.outcome.edge_forts.iter().enumerate() {
            forts.push(FortRule {
                rule,
                kind: kind_index(&fort.piece)?,
                winner: fort.winner,
            });
        }
        let encirclements: Vec<(Side, EncirclementReading)> = rules
            .outcome
            .encirclements
            .iter()
            .map(|rule| (rule.winner, rule.reading))
            .collect();

        let mut sandwiches = Vec::new();
        for rule in &rules.king_sandwiches {
            let mut counting = B::EMPTY;
            for name in &rule.counting {
                counting |= region(name)?;
            }
            let mut applies = (0..squares).fold(B::EMPTY, |set, sq| set | B::single(sq));
            for name in &rule.except_on {
                applies &= !region(name)?;
            }
            sandwiches.push(SandwichRule {
                kings: kinds_mask(&rule.kings)?,
                captors: kinds_mask(&rule.captors)?,
                counting,
                applies,
            });
        }
        let mut jumps: [Option<JumpAbility<B>>; MAX_KINDS] = Default::default();
        for rule in &rules.jumps {
            let mut via = None;
            for name in &rule.only_from_or_to {
                via = Some(via.unwrap_or(B::EMPTY) | region(name)?);
            }
            let over = kinds_mask(&rule.over)?;
            for name in &rule.pieces {
                let k = kind_index(name)?;
                // Only enemies are jumped, whatever the IR says: a friendly kind in `over` would
                // make a jump a move through the piece's own side.
                let enemies = side_mask(&kinds, kinds[k].side.opponent());
                jumps[k] = Some(JumpAbility {
                    over: over & enemies,
                    via,
                    captures: rule.captures,
                });
            }
        }

        // A fixed seed, so hashes are the same from run to run and machine to machine.
        let mut rng = super::Rng::new(0x7AF1_5EED_2024_0003);
        let zobrist = (0..squares)
            .map(|_| {
                let mut keys = [0; MAX_KINDS];
                for key in &mut keys {
                    *key = rng.next_u64();
                }
                keys
            })
            .collect();
        let side_key = rng.next_u64();
        // Drawn after every earlier key, so adding them changed no existing hash.
        let berserk_keys = (0..squares).map(|_| rng.next_u64()).collect();

        Ok(Core {
            width,
            board: (0..squares).fold(B::EMPTY, |set, sq| set | B::single(sq)),
            kinds,
            names: rules.pieces.iter().map(|p| p.display.clone()).collect(),
            side_kinds,
            neighbours,
            neighbour_sets,
            rays,
            near,
            access,
            land_always,
            pass_always,
            has_conditional_access,
            once_left_regions,
            hostile_always,
            hostile_empty,
            hostile_cond,
            king_rule_of,
            king_rules,
            escapes,
            escape_any,
            decisive,
            zobrist,
            side_key,
            edge,
            height,
            has_board_ends: !forts.is_empty() || !encirclements.is_empty(),
            flies: [Side::Attackers, Side::Defenders].map(|side| {
                rules
                    .pieces
                    .iter()
                    .any(|p| p.side == side && p.movement.style == MoveStyle::AnyEmptySquare)
            }),
            has_own_move_capture: rules.king_capture.iter().any(|rule| rule.after_own_move),
            sandwiches,
            jumps,
            berserk: rules.berserk,
            berserk_keys,
            shieldwall,
            forts,
            encirclements,
            no_moves: rules.outcome.no_moves,
            repetition: rules
                .outcome
                .repetition
                .map(|r| (r.occurrences, r.result, r.claim)),
            back_and_forth: rules.outcome.back_and_forth_limit,
            no_capture: rules
                .outcome
                .no_capture_draw
                .map(|m| (m.moves.saturating_mul(2), m.claim)),
        })
    }

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
    pub fn piece_on(&self, pos: &Pos<B>, sq: usize) -> Option<usize> {
        (0..self.kinds.len()).find(|&k| pos.pieces[k].has(sq))
    }

    /// Squares where the pieces of each group rule may not go right now, per kind.
    fn group_bans(&self, pos: &Pos<B>) -> ([B; MAX_KINDS], [B; MAX_KINDS]) {
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
    #[inline]
    fn targets(
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
    fn jump_targets(&self, pos: &Pos<B>, jump: &JumpAbility<B>, from: usize, occupied: B) -> B {
        self.jump_landings(jump, self.jumpable(pos, jump), from, occupied)
    }

    /// The pieces `jump` may go over.
    fn jumpable(&self, pos: &Pos<B>, jump: &JumpAbility<B>) -> B {
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
    fn jump_landings(&self, jump: &JumpAbility<B>, jumpable: B, from: usize, blocked: B) -> B {
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
    fn jump_victim(&self, pos: &Pos<B>, k: usize, from: usize, to: usize) -> Option<usize> {
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
    fn moved(&self, pos: &Pos<B>, k: usize, from: usize, to: usize) -> Pos<B> {
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
    fn captured_by(&self, moved: &Pos<B>, k: usize, to: usize, jumped: Option<usize>) -> B {
        let mut captured = self.captures(moved, k, to);
        if let Some(wall) = &self.shieldwall {
            captured |= self.wall_captures(moved, wall, k, to);
        }
        if let Some(over) = jumped {
            captured.set(over);
        }
        captured
    }

    /// The targets of the berserker on `from` that the berserk rule allows now.
    fn berserk_targets(&self, pos: &Pos<B>, k: usize, from: usize, targets: B) -> B {
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
    #[inline]
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
    pub fn is_legal(&self, pos: &Pos<B>, mv: RawMove) -> bool {
        self.targets_from(pos, usize::from(mv.from))
            .has(usize::from(mv.to))
    }

    /// The squares the piece of the side to move on `from` may move to (none when no such
    /// piece stands there): what move generation gives that piece.
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
    fn piece_targets(&self, pos: &Pos<B>, k: usize, from: usize) -> B {
        let (mut land, mut pass) = (self.land_always[k], self.pass_always[k]);
        if self.has_conditional_access {
            let (land_dyn, pass_dyn) = self.group_bans(pos);
            land |= land_dyn[k];
            pass |= pass_dyn[k];
        }
        self.targets(pos, k, from, pos.occupied(), land, pass)
    }

    /// How many pieces `mv` would capture, without making it (for move ordering).
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

    /// The number of legal moves of the side to move.
    pub fn count_moves(&self, pos: &Pos<B>) -> u64 {
        let mut count = 0u64;
        self.for_each_targets(pos, |_, targets| count += u64::from(targets.count()));
        count
    }

    /// Appends the legal moves of the side to move to `out`.
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
    pub fn has_moves(&self, pos: &Pos<B>) -> bool {
        let mut any = false;
        self.for_each_targets(pos, |_, targets| any |= targets.any());
        any
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
        if (self.neighbour_sets[to] & enemies).is_empty() {
            return captured;
        }
        let hammer = self.kinds[k].hammer;
        let occupied = pos.occupied();
        let mut anvils = B::EMPTY;
        for &a in &self.side_kinds[side.index()] {
            if self.kinds[a].anvil {
                anvils |= pos.pieces[a];
            }
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
                let side_counts = |m: u16| {
                    if m == NONE {
                        return rule.edge_counts;
                    }
                    let m = usize::from(m);
                    m == to
                        || anvils.has(m)
                        || rule.counting.has(m)
                        || self.hostile(pos, m, victim, occupied)
                };
                let taken = hammer
                    && (match rule.method {
                        KingCaptureMethod::Custodial => side_counts(far),
                        KingCaptureMethod::Enclosed => {
                            self.neighbours[n].iter().all(|&m| side_counts(m))
                        }
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
    fn sandwiched(&self, pos: &Pos<B>, k: usize, king: usize, sq: usize, far: u16) -> bool {
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

    /// The move itself, for [`Core::step`]: the captured squares and the ending the move makes,
    /// if it makes one (repetition aside: that needs the history, which `step` is given).
    #[inline]
    fn make(&self, pos: &mut Pos<B>, mv: RawMove) -> (B, Option<Ending>) {
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
                let step = self.step(pos, mv, &history);
                match step.ending {
                    Some(_) => 0,
                    None => self.perft(&step.child, depth - 1, &mut history),
                }
            })
            .sum()
    }

    /// One ply as the rules judge it, in the rule sheet's order: the move and its captures,
    /// the endings the move makes (a decisive capture, an escape, a fort or an encirclement, an
    /// automatic move limit), then an automatic repetition, counted against `history`: the
    /// hashes of the positions before the child, oldest first, `pos` last (an empty history
    /// judges no repetition).
    ///
    /// Every caller that plays a ply goes through here: the game, perft, the random playouts
    /// and the search. "No legal move" is judged at the start of the next turn, by whoever
    /// lists that turn's moves: [`Core::no_moves_ending`] when the list is empty.
    ///
    /// `mv` must be legal in `pos` (generated for it); an illegal move gives a position that
    /// may break the rules, never a panic.
    pub fn step(&self, pos: &Pos<B>, mv: RawMove, history: &[u64]) -> Step<B> {
        let mut child = *pos;
        let (captured, mut ending) = self.make(&mut child, mv);
        if ending.is_none() && self.tracks_repetition() {
            ending = self.repetition_ending(child.to_move, occurrences(&child, history));
        }
        Step {
            child,
            captured,
            ending,
        }
    }

    /// After a capture by the piece of kind `k` now on `to`, gives its side another move with
    /// it when the berserk rule says so. `pos` has the other side to move.
    fn grant_berserk(&self, pos: &mut Pos<B>, k: usize, to: usize) {
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

    /// The kings of `side` that stand enclosed under a king-capture rule checked after their own
    /// side's moves.
    fn enclosed_own_kings(&self, pos: &Pos<B>, side: Side) -> B {
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

    /// Whether orthogonal steps through `passable` squares lead from `seeds` to `target`.
    fn reaches(&self, seeds: B, passable: B, target: B) -> bool {
        if (seeds & target).any() {
            return true;
        }
        let mut reached = seeds;
        let mut frontier = seeds;
        while frontier.any() {
            let mut next = B::EMPTY;
            for sq in frontier.iter() {
                next |= self.neighbour_sets[sq];
            }
            next &= passable & !reached;
            if (next & target).any() {
                return true;
            }
            reached |= next;
            frontier = next;
        }
        false
    }

    /// Whether some piece of `loser` can ever reach the board's edge, stepping through `passable`
    /// squares and, for the kinds that jump, jumping the enemies they may jump (a knight can jump
    /// out of a ring of men).
    fn reaches_edge(&self, pos: &Pos<B>, loser: Side, passable: B) -> bool {
        let seeds = pos.sides[loser.index()];
        let jumpers: Vec<usize> = self.side_kinds[loser.index()]
            .iter()
            .copied()
            .filter(|&k| self.jumps[k].is_some() && pos.pieces[k].any())
            .collect();
        if jumpers.is_empty() {
            return self.reaches(seeds, passable, self.edge);
        }
        // Per jumping kind, the squares one of its pieces can get to; they grow with each jump.
        let mut reach: Vec<B> = jumpers
            .iter()
            .map(|&k| self.flood(pos.pieces[k], passable))
            .collect();
        let mut region = self.flood(seeds, passable);
        loop {
            for &r in &reach {
                region |= r;
            }
            if (region & self.edge).any() {
                return true;
            }
            let mut grew = false;
            for (i, &k) in jumpers.iter().enumerate() {
                let Some(jump) = &self.jumps[k] else { continue };
                let jumpable = self.jumpable(pos, jump);
                // A landing square the winner holds or the jumper may never land on blocks.
                let blocked = !passable | self.land_always[k];
                let mut landed = B::EMPTY;
                for from in reach[i].iter() {
                    landed |= self.jump_landings(jump, jumpable, from, blocked);
                }
                if (landed & !reach[i]).any() {
                    reach[i] = self.flood(reach[i] | landed, passable);
                    grew = true;
                }
            }
            if !grew {
                return false;
            }
        }
    }

    /// The squares reachable from `seeds` by orthogonal steps through `passable` squares (the
    /// seeds themselves included where passable).
    pub(super) fn flood(&self, seeds: B, passable: B) -> B {
        let mut reached = seeds & passable;
        let mut frontier = reached;
        while frontier.any() {
            let mut next = B::EMPTY;
            for sq in frontier.iter() {
                next |= self.neighbour_sets[sq];
            }
            next &= passable & !reached;
            reached |= next;
            frontier = next;
        }
        reached
    }

    /// The pieces a shieldwall takes after the piece of kind `k` moved to `to`. `pos` has the
    /// moved piece on `to` and every victim still on the board.
    fn wall_captures(&self, pos: &Pos<B>, wall: &WallRule<B>, k: usize, to: usize) -> B {
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
    fn walls_from(
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

    /// The ending that stands in `pos` by a fort or an encirclement, if any. `mover` is the side
    /// whose move led to `pos`, when known: the enclosed side's own rook moves and captures can
    /// only widen its way to the edge, so the no-edge-access reading is not checked after them
    /// (unless one of its pieces flies, and could fly into an enclosure).
    pub fn board_ending(&self, pos: &Pos<B>, mover: Option<Side>) -> Option<Ending> {
        for fort in &self.forts {
            for king in pos.pieces[fort.kind].iter() {
                if self.holds_fort(pos, fort.kind, king) {
                    return Some(Ending {
                        outcome: GameOutcome::Win(fort.winner),
                        reason: EndReason::EdgeFort,
                        rule: Some(RuleRef::EdgeFort(fort.rule)),
                    });
                }
            }
        }
        for (rule, &(winner, reading)) in self.encirclements.iter().enumerate() {
            let enclosed = pos.sides[winner.opponent().index()];
            if enclosed.is_empty() {
                continue;
            }
            let holds = match reading {
                EncirclementReading::NoEdgeAccess => {
                    let loser = winner.opponent();
                    (mover != Some(loser) || self.flies[loser.index()])
                        && !self.reaches_edge(pos, loser, self.board & !pos.sides[winner.index()])
                }
                EncirclementReading::EverySurrounded => {
                    let empty = self.board & !pos.occupied();
                    enclosed
                        .iter()
                        .all(|sq| (self.neighbour_sets[sq] & empty).is_empty())
                }
            };
            if holds {
                return Some(Ending {
                    outcome: GameOutcome::Win(winner),
                    reason: EndReason::Encircled,
                    rule: Some(RuleRef::Encirclement(rule)),
                });
            }
        }
        None
    }

    /// The ending when `stuck`, the side to move, has no legal move.
    pub fn no_moves_ending(&self, stuck: Side) -> Ending {
        let outcome = match self.no_moves.get(stuck) {
            NoMoves::Loses => GameOutcome::Win(stuck.opponent()),
            NoMoves::Draw => GameOutcome::Draw,
        };
        Ending {
            outcome,
            reason: EndReason::NoMoves,
            rule: Some(RuleRef::NoMoves(stuck)),
        }
    }

    /// The ending a repetition causes, for the position just reached by a move of
    /// `to_move.opponent()`, when it occurred `occurrences` times (this time included).
    pub fn repetition_ending(&self, to_move: Side, occurrences: u32) -> Option<Ending> {
        let (needed, result, claim) = self.repetition?;
        if claim != Claim::Automatic || occurrences < needed {
            return None;
        }
        let outcome = match result {
            RepetitionResult::Draw => GameOutcome::Draw,
            RepetitionResult::MoverLoses => GameOutcome::Win(to_move),
            RepetitionResult::MoverWins => GameOutcome::Win(to_move.opponent()),
            RepetitionResult::Loses(loser) => GameOutcome::Win(loser.opponent()),
        };
        Some(Ending {
            outcome,
            reason: EndReason::Repetition,
            rule: Some(RuleRef::Repetition),
        })
    }

    /// Whether an automatic repetition rule exists (so callers need to keep hashes).
    pub fn tracks_repetition(&self) -> bool {
        matches!(self.repetition, Some((_, _, Claim::Automatic)))
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
            let step = self.step(pos, mv, history);
            if step.ending.is_none() {
                total += self.perft(&step.child, depth - 1, history);
            }
        }
        history.pop();
        total
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

/// The orthogonally connected groups of `region`.
/// The kinds of `side`, as a mask.
fn side_mask(kinds: &[Kind], side: Side) -> u32 {
    kinds
        .iter()
        .enumerate()
        .filter(|(_, kind)| kind.side == side)
        .fold(0, |mask, (k, _)| mask | 1 << k)
}

fn groups_of<B: Bits>(region: B, neighbours: &[[u16; 4]]) -> Vec<B> {
    let mut left = region;
    let mut groups = Vec::new();
    while left.any() {
        let start = left.lowest();
        let mut group = B::single(start);
        let mut frontier = vec![start];
        while let Some(sq) = frontier.pop() {
            for &n in &neighbours[sq] {
                if n != NONE && region.has(usize::from(n)) && !group.has(usize::from(n)) {
                    group.set(usize::from(n));
                    frontier.push(usize::from(n));
                }
            }
        }
        left &= !group;
        groups.push(group);
    }
    groups
}
