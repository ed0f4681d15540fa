//! Compiling the rules: each clause family of [`Rules`] into the tables of [`Core`]. The
//! dispatcher, [`Core::compile`], names every field of the rules; each family has one function
//! here, in the order of the rule sheet: the board, movement and access, hostility, capture
//! (king capture, sandwiches, the shieldwall), jumps and berserk, then the endings (reaching,
//! decisive captures, forts, encirclement, repetition and draws).

use super::flood::Steps;
use super::{
    Access, CondHostility, Condition, Core, EscapeRule, FortRule, JumpAbility, Kind, KingRule,
    SandwichRule, WallRule, MAX_ONCE_LEFT, NONE,
};
use crate::engine::bitboard::Bits;
use crate::engine::CompileError;
use crate::ir::{
    AccessCondition, AccessRule, Board, DecisiveCapture, EdgeFort, Escape, Hostile, HostilityRule,
    JumpRule, KingCaptureMethod, KingCaptureRule, KingSandwich, MoveStyle, Outcome, PieceKind,
    Place, Resolved, Role, Rules, Shieldwall, ShieldwallTrigger, Side, Square, MAX_KINDS,
};

impl<B: Bits> Core<B> {
    /// Compiles resolved rules for this width (the engine picks a width that holds the board).
    ///
    /// # Errors
    /// [`CompileError`] when the rules exceed the engine's limits or leave a square without a
    /// king-capture rule.
    pub fn compile(resolved: &Resolved) -> Result<Core<B>, CompileError> {
        let rules = resolved.rules();
        // Every field of the rules is compiled below or left to another stage, as said here:
        // destructuring them makes a new field a compile error until the engine decides.
        let Rules {
            name: _,          // words only
            source: _,        // words only
            family: _,        // words only
            notes: _,         // words only
            board,            // `Geometry`
            sides: _,         // the sides' names: words only
            first_to_move: _, // the start position (`Engine::start`)
            pieces,           // `kinds`
            regions: _,       // resolved through the rules that name them
            setup: _,         // the start position (`Engine::start`)
            access,
            hostility,
            king_capture,
            king_sandwiches,
            shieldwall,
            jumps,
            berserk,
            outcome:
                Outcome {
                    escapes,
                    decisive_captures,
                    edge_forts, // engine/core/fort.rs judges them
                    encirclements,
                    no_moves,
                    repetition,
                    back_and_forth_limit,
                    no_capture_draw,
                    draw_by_agreement: _, // the game's (`Game::agree_draw`)
                },
            announcements: _, // the game's (`game::announce`)
        } = rules;
        let names = Names::new::<B>(resolved)?;
        let geometry = Geometry::<B>::new(board);
        let kinds = kinds_of(pieces);
        let access = AccessTables::compile(access, &names, &kinds, &geometry.neighbours)?;
        let hostility = HostilityTables::compile(hostility, &names, kinds.len());
        let (king_rule_of, king_rules) = king_capture_rules(king_capture, &names, &kinds)?;
        let forts = forts_of(edge_forts, &names);
        let encirclements: Vec<_> = encirclements
            .iter()
            .map(|r| (r.winner, r.reading))
            .collect();
        let (escapes, escape_any) = escapes_of(escapes, &names);
        let keys = Keys::new(geometry.squares);
        let sandwiches = sandwiches_of(king_sandwiches, &names);
        let counting_anywhere = hostility.anywhere()
            | king_rules
                .iter()
                .fold(B::EMPTY, |all, rule| all | rule.counting)
            | sandwiches
                .iter()
                .fold(B::EMPTY, |all, rule| all | rule.counting);
        Ok(Core {
            width: geometry.width,
            height: geometry.height,
            board: geometry.board,
            edge: geometry.edge,
            names: pieces.iter().map(|p| p.display.clone()).collect(),
            side_kinds: [Side::Attackers, Side::Defenders].map(|side| {
                (0..kinds.len())
                    .filter(|&k| kinds[k].side == side)
                    .collect()
            }),
            near: near_tables(&kinds, &geometry),
            neighbours: geometry.neighbours,
            neighbour_sets: geometry.neighbour_sets,
            steps: Steps::new(geometry.width, geometry.board),
            rays: geometry.rays,
            access: access.rules,
            land_always: access.land_always,
            pass_always: access.pass_always,
            has_conditional_access: access.has_conditional,
            once_left_regions: access.once_left_regions,
            hostile_always: hostility.always,
            hostile_empty: hostility.when_empty,
            hostile_cond: hostility.when_occupied,
            king_rule_of,
            together_any: king_rules
                .iter()
                .fold(B::EMPTY, |all, rule| all | rule.together),
            king_rules,
            has_own_move_capture: king_capture.iter().any(|rule| rule.after_own_move),
            counting_anywhere,
            sandwiches,
            shieldwall: shieldwall_of(shieldwall.as_ref(), &names),
            jumps: jumps_of(jumps, &names, &kinds),
            berserk: *berserk,
            escapes,
            escape_any,
            decisive: decisive_of(decisive_captures, &names),
            has_board_ends: !forts.is_empty() || !encirclements.is_empty(),
            forts,
            encirclements,
            flies: [Side::Attackers, Side::Defenders].map(|side| {
                pieces
                    .iter()
                    .any(|p| p.side == side && p.movement.style == MoveStyle::AnyEmptySquare)
            }),
            zobrist: keys.zobrist,
            side_key: keys.side_key,
            berserk_keys: keys.berserk,
            no_moves: *no_moves,
            repetition: repetition.map(|r| (r.occurrences, r.result, r.claim)),
            back_and_forth: *back_and_forth_limit,
            no_capture: no_capture_draw.map(|m| (m.moves.saturating_mul(2), m.claim)),
            kinds,
        })
    }
}

/// The names and squares of resolved rules as kind indices and square sets.
struct Names<'r> {
    resolved: &'r Resolved<'r>,
    rules: &'r Rules,
    width: usize,
}

impl<'r> Names<'r> {
    /// Checks the engine's limits, which every later table relies on.
    fn new<B: Bits>(resolved: &'r Resolved<'r>) -> Result<Names<'r>, CompileError> {
        let rules = resolved.rules();
        let Board { width, height, .. } = rules.board;
        debug_assert!(
            usize::from(width) * usize::from(height) <= B::CAPACITY,
            "the engine picks a width that holds the board"
        );
        if rules.pieces.len() > MAX_KINDS {
            return Err(CompileError::TooManyKinds(rules.pieces.len()));
        }
        Ok(Names {
            resolved,
            rules,
            width: usize::from(width),
        })
    }

    /// The index of a square (resolved rules keep every square on the board).
    fn index(&self, square: Square) -> usize {
        usize::from(square.rank) * self.width + usize::from(square.file)
    }

    fn kind(&self, name: &str) -> usize {
        self.resolved.kind(name)
    }

    fn kinds(&self, names: &[String]) -> u32 {
        names
            .iter()
            .fold(0, |mask, name| mask | 1 << self.kind(name))
    }

    fn region<B: Bits>(&self, name: &str) -> B {
        (self.resolved.region(name).iter())
            .fold(B::EMPTY, |set, &square| set | B::single(self.index(square)))
    }

    /// The union of the named regions.
    fn regions<B: Bits>(&self, names: &[String]) -> B {
        (names.iter()).fold(B::EMPTY, |set, name| set | self.region::<B>(name))
    }
}

/// The board's shape: neighbours, rays, the edge.
struct Geometry<B> {
    width: usize,
    height: usize,
    squares: usize,
    board: B,
    edge: B,
    neighbours: Vec<[u16; 4]>,
    neighbour_sets: Vec<B>,
    rays: Vec<[B; 4]>,
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl<B: Bits> Geometry<B> {
    fn new(board: &Board) -> Geometry<B> {
        let (width, height) = (usize::from(board.width), usize::from(board.height));
        let squares = width * height;
        let mut neighbours = vec![[NONE; 4]; squares];
        let mut neighbour_sets = vec![B::EMPTY; squares];
        let mut rays = vec![[B::EMPTY; 4]; squares];
        let on = |f: i32, r: i32| f >= 0 && r >= 0 && f < width as i32 && r < height as i32;
        for sq in 0..squares {
            let (file, rank) = ((sq % width) as i32, (sq / width) as i32);
            for (d, (df, dr)) in DIRS.iter().enumerate() {
                let (mut f, mut r) = (file + df, rank + dr);
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
        let mut edge = B::EMPTY;
        for (sq, around) in neighbours.iter().enumerate() {
            if around.contains(&NONE) {
                edge.set(sq);
            }
        }
        Geometry {
            width,
            height,
            squares,
            board: (0..squares).fold(B::EMPTY, |set, sq| set | B::single(sq)),
            edge,
            neighbours,
            neighbour_sets,
            rays,
        }
    }
}

fn kinds_of(pieces: &[PieceKind]) -> Vec<Kind> {
    pieces
        .iter()
        .map(|piece| Kind {
            side: piece.side,
            king: piece.role == Role::King,
            hammer: piece.armed.as_hammer(),
            anvil: piece.armed.as_anvil(),
            style: piece.movement.style,
            max_distance: piece.movement.max_distance,
        })
        .collect()
}

/// Per kind with a maximum distance, per square, the squares within that distance in a line.
fn near_tables<B: Bits>(kinds: &[Kind], geometry: &Geometry<B>) -> Vec<Option<Vec<B>>> {
    let (width, squares) = (geometry.width, geometry.squares);
    let within = |sq: usize, max: i32| {
        let (f0, r0) = ((sq % width) as i32, (sq / width) as i32);
        (0..squares).fold(B::EMPTY, |set, other| {
            let (f, r) = ((other % width) as i32, (other / width) as i32);
            if (f == f0 && (r - r0).abs() <= max) || (r == r0 && (f - f0).abs() <= max) {
                set | B::single(other)
            } else {
                set
            }
        })
    };
    kinds
        .iter()
        .map(|kind| {
            kind.max_distance
                .map(|max| (0..squares).map(|sq| within(sq, i32::from(max))).collect())
        })
        .collect()
}

/// Movement and access: who may land on or pass which squares, and when.
struct AccessTables<B> {
    rules: Vec<Access<B>>,
    land_always: [B; MAX_KINDS],
    pass_always: [B; MAX_KINDS],
    once_left_regions: Vec<B>,
    has_conditional: bool,
}

impl<B: Bits> AccessTables<B> {
    fn compile(
        rules: &[AccessRule],
        names: &Names,
        kinds: &[Kind],
        neighbours: &[[u16; 4]],
    ) -> Result<AccessTables<B>, CompileError> {
        let mut tables = AccessTables {
            rules: Vec::new(),
            land_always: [B::EMPTY; MAX_KINDS],
            pass_always: [B::EMPTY; MAX_KINDS],
            once_left_regions: Vec::new(),
            has_conditional: false,
        };
        for rule in rules {
            let kinds_bits = names.kinds(&rule.pieces);
            let set = names.region::<B>(&rule.region);
            let condition = match rule.condition {
                AccessCondition::Always => {
                    for k in (0..kinds.len()).filter(|k| kinds_bits & (1 << k) != 0) {
                        if rule.action.includes_landing() {
                            tables.land_always[k] |= set;
                        }
                        if rule.action.includes_passing() {
                            tables.pass_always[k] |= set;
                        }
                    }
                    Condition::Always
                }
                AccessCondition::OnceLeft => {
                    if tables.once_left_regions.len() == MAX_ONCE_LEFT {
                        return Err(CompileError::TooManyOnceLeftRules);
                    }
                    tables.has_conditional = true;
                    tables.once_left_regions.push(set);
                    Condition::OnceLeft(tables.once_left_regions.len() - 1)
                }
                AccessCondition::WhileGroupEmpty => {
                    tables.has_conditional = true;
                    Condition::WhileGroupEmpty(groups_of(set, neighbours))
                }
            };
            tables.rules.push(Access {
                kinds: kinds_bits,
                region: set,
                land: rule.action.includes_landing(),
                pass: rule.action.includes_passing(),
                condition,
            });
        }
        Ok(tables)
    }
}

/// Hostility: the squares that capture with a piece, per victim kind.
struct HostilityTables<B> {
    always: [B; MAX_KINDS],
    when_empty: [B; MAX_KINDS],
    when_occupied: Vec<CondHostility<B>>,
}

impl<B: Bits> HostilityTables<B> {
    /// Every square hostile to some kind under some condition.
    fn anywhere(&self) -> B {
        let mut all = B::EMPTY;
        for squares in self.always.iter().chain(&self.when_empty) {
            all |= *squares;
        }
        for rule in &self.when_occupied {
            all |= rule.region;
        }
        all
    }

    fn compile(rules: &[HostilityRule], names: &Names, kinds: usize) -> HostilityTables<B> {
        let mut tables = HostilityTables {
            always: [B::EMPTY; MAX_KINDS],
            when_empty: [B::EMPTY; MAX_KINDS],
            when_occupied: Vec::new(),
        };
        for rule in rules {
            let victims = names.kinds(&rule.victims);
            let set = names.region::<B>(&rule.region);
            let table = match &rule.when {
                Hostile::Always => &mut tables.always,
                Hostile::WhenEmpty => &mut tables.when_empty,
                Hostile::WhenOccupied { by, enemies_beside } => {
                    tables.when_occupied.push(CondHostility {
                        region: set,
                        victims,
                        by: names.kinds(by),
                        enemies_beside: *enemies_beside,
                    });
                    continue;
                }
            };
            for (k, mask) in table.iter_mut().enumerate().take(kinds) {
                if victims & (1 << k) != 0 {
                    *mask |= set;
                }
            }
        }
        tables
    }
}

/// King capture: the rules, and per square the rule that applies there (the first written).
fn king_capture_rules<B: Bits>(
    rules: &[KingCaptureRule],
    names: &Names,
    kinds: &[Kind],
) -> Result<(Vec<u8>, Vec<KingRule<B>>), CompileError> {
    let board = &names.rules.board;
    let squares = usize::from(board.width) * usize::from(board.height);
    let mut rule_of = vec![u8::MAX; squares];
    let mut compiled = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let together = match (&rule.method, &rule.place) {
            (KingCaptureMethod::EnclosedTogether, Place::Beside(region)) => names.region(region),
            _ => B::EMPTY,
        };
        compiled.push(KingRule {
            method: rule.method,
            together,
            counting: names.regions(&rule.counting),
            edge_counts: rule.edge_counts,
            after_own_move: rule.after_own_move,
        });
        for &square in &rule.squares {
            // The IR promises disjoint squares; should two rules claim a square, the first one
            // written wins, as a reader of the file would expect.
            let slot = &mut rule_of[names.index(square)];
            if *slot == u8::MAX {
                *slot = i as u8;
            }
        }
    }
    if kinds.iter().any(|kind| kind.king) {
        if let Some(sq) = rule_of.iter().position(|&r| r == u8::MAX) {
            let width = names.width;
            return Err(CompileError::NoKingCaptureRule(Square::new(
                (sq % width) as u8,
                (sq / width) as u8,
            )));
        }
    }
    Ok((rule_of, compiled))
}

fn sandwiches_of<B: Bits>(rules: &[KingSandwich], names: &Names) -> Vec<SandwichRule<B>> {
    let board = &names.rules.board;
    let squares = usize::from(board.width) * usize::from(board.height);
    let everywhere = (0..squares).fold(B::EMPTY, |set, sq| set | B::single(sq));
    rules
        .iter()
        .map(|rule| SandwichRule {
            kings: names.kinds(&rule.kings),
            captors: names.kinds(&rule.captors),
            counting: names.regions(&rule.counting),
            applies: everywhere & !names.regions::<B>(&rule.except_on),
        })
        .collect()
}

fn shieldwall_of<B: Bits>(wall: Option<&Shieldwall>, names: &Names) -> Option<WallRule<B>> {
    let wall = wall?;
    Some(WallRule {
        victims: names.kinds(&wall.victims),
        counting: names.regions(&wall.counting),
        any_move: match wall.trigger {
            ShieldwallTrigger::Flanking => false,
            ShieldwallTrigger::AnyMove => true,
        },
    })
}

fn jumps_of<B: Bits>(
    rules: &[JumpRule],
    names: &Names,
    kinds: &[Kind],
) -> [Option<JumpAbility<B>>; MAX_KINDS] {
    let mut jumps: [Option<JumpAbility<B>>; MAX_KINDS] = Default::default();
    for rule in rules {
        let via = if rule.only_from_or_to.is_empty() {
            None
        } else {
            Some(names.regions(&rule.only_from_or_to))
        };
        let over = names.kinds(&rule.over);
        for name in &rule.pieces {
            let k = names.kind(name);
            // Only enemies are jumped, whatever the IR says: a friendly kind in `over` would
            // make a jump a move through the piece's own side.
            let enemies = side_mask(kinds, kinds[k].side.opponent());
            jumps[k] = Some(JumpAbility {
                over: over & enemies,
                via,
                captures: rule.captures,
            });
        }
    }
    jumps
}

/// Reaching: the escape rules, and per kind the union of the squares that win for it.
fn escapes_of<B: Bits>(rules: &[Escape], names: &Names) -> (Vec<EscapeRule<B>>, [B; MAX_KINDS]) {
    let mut escapes = Vec::new();
    let mut any = [B::EMPTY; MAX_KINDS];
    for (rule, escape) in rules.iter().enumerate() {
        let kind = names.kind(&escape.piece);
        let region = names.region::<B>(&escape.region);
        any[kind] |= region;
        escapes.push(EscapeRule {
            rule,
            kind,
            region,
            winner: escape.winner,
        });
    }
    (escapes, any)
}

fn decisive_of(rules: &[DecisiveCapture], names: &Names) -> [Option<(Side, usize)>; MAX_KINDS] {
    let mut decisive = [None; MAX_KINDS];
    for (rule, capture) in rules.iter().enumerate() {
        decisive[names.kind(&capture.piece)] = Some((capture.winner, rule));
    }
    decisive
}

fn forts_of(rules: &[EdgeFort], names: &Names) -> Vec<FortRule> {
    rules
        .iter()
        .enumerate()
        .map(|(rule, fort)| FortRule {
            rule,
            kind: names.kind(&fort.piece),
            winner: fort.winner,
        })
        .collect()
}

/// The Zobrist keys.
struct Keys {
    zobrist: Vec<[u64; MAX_KINDS]>,
    side_key: u64,
    berserk: Vec<u64>,
}

impl Keys {
    fn new(squares: usize) -> Keys {
        // A fixed seed, so hashes are the same from run to run and machine to machine.
        let mut rng = crate::engine::Rng::new(0x7AF1_5EED_2024_0003);
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
        let berserk = (0..squares).map(|_| rng.next_u64()).collect();
        Keys {
            zobrist,
            side_key,
            berserk,
        }
    }
}

/// The kinds of `side`, as a mask.
fn side_mask(kinds: &[Kind], side: Side) -> u32 {
    kinds
        .iter()
        .enumerate()
        .filter(|(_, kind)| kind.side == side)
        .fold(0, |mask, (k, _)| mask | 1 << k)
}

/// The orthogonally connected groups of `region`.
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
