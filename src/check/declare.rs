//! Pass 1: the declarations every rule refers to: board, sides, pieces, regions and setup.

use std::collections::BTreeSet;

use super::{default_sides, file_start, Checker};
use crate::diagnostic::{Code, Diagnostic};
use crate::english::capitalise;
use crate::english::count;
use crate::ir::RuleRef;
use crate::ir::{
    Armed, Board, BySide, MoveStyle, Movement, PieceKind, Region, Role, Side, SideInfo, Square,
    MAX_BOARD_SIDE, MIN_BOARD_SIDE,
};
use crate::span::{Span, Spanned};
use crate::syntax::ast::{self, ClauseKind};

/// The declarations, resolved.
pub(super) struct Declared {
    pub name: String,
    pub source: Option<String>,
    pub family: Option<String>,
    pub notes: Vec<String>,
    pub board: Board,
    pub sides: BySide<SideInfo>,
    pub first_to_move: Side,
    pub setup: Vec<String>,
    /// Whether `setup` is the file's diagram; when not (missing or broken, and reported), it
    /// is an empty board, so that the rules can still be checked.
    pub setup_ok: bool,
}

pub(super) fn role_of(role: ast::RoleWord) -> Role {
    match role {
        ast::RoleWord::Soldier => Role::Soldier,
        ast::RoleWord::King => Role::King,
    }
}

/// Reports a second clause of a kind that may appear once.
fn once<T>(checker: &mut Checker, first: &mut Option<(T, Span)>, value: T, span: Span, what: &str) {
    match first {
        Some((_, first_span)) => {
            let first_span = *first_span;
            checker.report(
                Diagnostic::error(Code::DuplicateClause, format!("{what} is given twice"))
                    .label(span, "given again here")
                    .label(first_span, "first given here")
                    .help("keep one of the two clauses"),
            );
        }
        None => *first = Some((value, span)),
    }
}

/// Resolves the declarations. `None` when the board or setup is missing or unusable, since every
/// later check needs them.
pub(super) fn declarations(checker: &mut Checker, file: &ast::File) -> Option<Declared> {
    let mut name = None;
    let mut source = None;
    let mut family = None;
    let mut board = None;
    let mut first_move = None;
    let mut side_names: BySide<Option<(String, Span)>> = BySide::default();
    let mut setup = None;
    let mut notes = Vec::new();

    for clause in &file.clauses {
        match &clause.kind {
            ClauseKind::Name(text) => once(
                checker,
                &mut name,
                text.value.clone(),
                clause.span,
                "the name",
            ),
            ClauseKind::Source(text) => once(
                checker,
                &mut source,
                text.value.clone(),
                clause.span,
                "the source",
            ),
            ClauseKind::Family(text) => once(
                checker,
                &mut family,
                text.value.clone(),
                clause.span,
                "the family",
            ),
            ClauseKind::Note(text) => notes.push(text.value.clone()),
            ClauseKind::Board { width, height } => once(
                checker,
                &mut board,
                (width.clone(), height.clone()),
                clause.span,
                "the board size",
            ),
            ClauseKind::FirstMove(side) => once(
                checker,
                &mut first_move,
                side.value,
                clause.span,
                "who moves first",
            ),
            ClauseKind::SideName { side, name } => {
                let what = format!("the name of the {}", side.value);
                once(
                    checker,
                    side_names.get_mut(side.value),
                    name.value.clone(),
                    clause.span,
                    &what,
                )
            }
            ClauseKind::Setup(rows) => {
                once(checker, &mut setup, rows, clause.span, "the setup diagram")
            }
            // Pieces and regions are declared by `declare_pieces` and `declare_regions`.
            ClauseKind::Piece(_) | ClauseKind::Region { .. } => {}
            // Rule clauses: pass 2 (`rules/`).
            ClauseKind::Movement { .. }
            | ClauseKind::Access { .. }
            | ClauseKind::Armed { .. }
            | ClauseKind::Hostility { .. }
            | ClauseKind::KingCapture { .. }
            | ClauseKind::Win { .. }
            | ClauseKind::Shieldwall { .. }
            | ClauseKind::Encirclement { .. }
            | ClauseKind::SideLoses { .. }
            | ClauseKind::NoMovesLoses
            | ClauseKind::RepetitionLoses { .. }
            | ClauseKind::Draw { .. }
            | ClauseKind::Jump { .. }
            | ClauseKind::Berserk(_)
            | ClauseKind::Sandwich { .. }
            | ClauseKind::BackAndForth(_)
            | ClauseKind::Announce { .. } => {}
        }
    }

    let board = board_given(checker, file, board.map(|(size, _)| size));
    if let Some(board) = board {
        checker.board = Some(board);
    }

    declare_pieces(checker, file);
    if let Some(board) = board {
        declare_regions(checker, file, board);
    }

    let setup_rows = match (&setup, board) {
        (None, _) if super::broken_line_mentions(file, &["setup"]) => None,
        (None, _) => {
            checker.report(
                Diagnostic::error(Code::MissingSetup, "the file has no setup diagram")
                    .label(file_start(file), "no `setup` ... `end` diagram in this file")
                    .help("add the start position: `setup`, then one line per rank (top rank first) with a piece symbol or `.` per square, then `end`"),
            );
            None
        }
        (Some(_), None) => None,
        (Some((rows, span)), Some(board)) => {
            checker.source_map.insert(RuleRef::Setup, *span);
            check_setup(checker, file, rows, *span, board)
        }
    };

    let first_to_move = match first_move {
        Some((side, span)) => {
            checker.source_map.insert(RuleRef::FirstToMove, span);
            side
        }
        None => Side::Attackers,
    };
    if let Some((_, span)) = &board_span(file) {
        checker.source_map.insert(RuleRef::Board, *span);
    }

    let mut sides = default_sides();
    for side in Side::BOTH {
        if let Some((name, _)) = side_names.get(side) {
            sides.get_mut(side).name = name.clone();
        }
    }

    Some(Declared {
        name: name.map_or_else(|| "Unnamed variant".to_string(), |(name, _)| name),
        source: source.map(|(source, _)| source),
        family: family.map(|(family, _)| family),
        notes,
        board: board?,
        sides,
        first_to_move,
        setup_ok: setup_rows.is_some(),
        setup: setup_rows.unwrap_or_else(|| {
            let board = board.unwrap_or(Board {
                width: MIN_BOARD_SIDE,
                height: MIN_BOARD_SIDE,
            });
            let empty = ".".repeat(usize::from(board.width));
            vec![empty; usize::from(board.height)]
        }),
    })
}

/// The board the `board` clause gives, if it gives a usable one; a missing clause is reported.
fn board_given(
    checker: &mut Checker,
    file: &ast::File,
    size: Option<(Spanned<u32>, Spanned<u32>)>,
) -> Option<Board> {
    match size {
        // A `board` line with a syntax error is reported already.
        None if super::broken_line_mentions(file, &["board"]) => None,
        None => {
            checker.report(
                Diagnostic::error(
                    Code::MissingBoard,
                    "the file does not say how large the board is",
                )
                .label(file_start(file), "no `board` clause in this file")
                .help("add a clause such as `board 9 x 9`"),
            );
            None
        }
        Some((width, height)) => board_size(checker, &width, &height),
    }
}

fn board_span(file: &ast::File) -> Option<((), Span)> {
    file.clauses
        .iter()
        .find(|clause| matches!(clause.kind, ClauseKind::Board { .. }))
        .map(|clause| ((), clause.span))
}

fn board_size(checker: &mut Checker, width: &Spanned<u32>, height: &Spanned<u32>) -> Option<Board> {
    let range = u32::from(MIN_BOARD_SIDE)..=u32::from(MAX_BOARD_SIDE);
    let mut ok = true;
    for side in [width, height] {
        if !range.contains(&side.value) {
            ok = false;
            checker.report(
                Diagnostic::error(
                    Code::BoardSize,
                    // A number past u32 is read as u32::MAX (syntax::parser::read): its digits
                    // are under the label, and printing the saturated value would misquote them.
                    if side.value == u32::MAX {
                        "a board side this large is not supported".to_string()
                    } else {
                        format!("a board side of {} is not supported", count(side.value as usize, "square"))
                    },
                )
                    .label(side.span, format!("must be from {MIN_BOARD_SIDE} to {MAX_BOARD_SIDE}"))
                    .help(format!("tafl boards here are {MIN_BOARD_SIDE}x{MIN_BOARD_SIDE} to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}, e.g. `board 9 x 9`"))

            );
        }
    }
    // In range, so both fit in a u8.
    ok.then_some(Board {
        width: width.value as u8,
        height: height.value as u8,
    })
}

/// The pieces, declared or (when no `piece` clause is given) the three classic ones.
fn declare_pieces(checker: &mut Checker, file: &ast::File) {
    let declarations: Vec<&ast::PieceDecl> = file
        .clauses
        .iter()
        .filter_map(|clause| {
            if let ClauseKind::Piece(piece) = &clause.kind {
                Some(piece)
            } else {
                None
            }
        })
        .collect();
    if declarations.is_empty() {
        for (symbol, name, side, role) in [
            ('t', "attacker", Side::Attackers, Role::Soldier),
            ('T', "defender", Side::Defenders, Role::Soldier),
            ('K', "king", Side::Defenders, Role::King),
        ] {
            checker
                .pieces
                .push(piece_kind(name, None, symbol, side, role));
            checker.piece_spans.push(None);
        }
        return;
    }
    let clause_spans = file
        .clauses
        .iter()
        .filter(|clause| matches!(clause.kind, ClauseKind::Piece(_)))
        .map(|clause| clause.span);
    for (declaration, clause_span) in declarations.into_iter().zip(clause_spans) {
        let symbol = declaration.symbol.value;
        if let Some(other) = checker
            .pieces
            .iter()
            .position(|piece| piece.symbol == symbol)
        {
            let first = checker.piece_spans[other].unwrap_or(clause_span);
            checker.report(
                Diagnostic::error(
                    Code::DuplicateSymbol,
                    format!("two pieces are drawn as `{symbol}`"),
                )
                .label(declaration.symbol.span, "used again here")
                .label(
                    first,
                    format!("`{symbol}` is already `{}`", checker.pieces[other].name),
                )
                .help("give each piece its own letter"),
            );
            continue;
        }
        if let Some(other) = checker
            .pieces
            .iter()
            .position(|piece| piece.name == declaration.name.value)
        {
            let first = checker.piece_spans[other].unwrap_or(clause_span);
            checker.report(
                Diagnostic::error(
                    Code::DuplicatePiece,
                    format!("two pieces are called `{}`", declaration.name.value),
                )
                .label(declaration.name.span, "declared again here")
                .label(first, "first declared here")
                .help("give each piece its own name"),
            );
            continue;
        }
        let side = declaration.side.value;
        let right_case = match side {
            Side::Attackers => symbol.is_ascii_lowercase(),
            Side::Defenders => symbol.is_ascii_uppercase(),
        };
        if !right_case {
            let (case, fixed) = match side {
                Side::Attackers => ("lowercase", symbol.to_ascii_lowercase()),
                Side::Defenders => ("uppercase", symbol.to_ascii_uppercase()),
            };
            checker.report(
                Diagnostic::error(Code::SymbolCase, format!("the {side}' pieces are drawn with {case} letters"))
                    .label(declaration.symbol.span, format!("`{symbol}` is not {case}"))
                    .label(declaration.side.span, format!("a piece of the {side}"))
                    .help(format!(
                        "write `{fixed}`: position strings tell the sides apart by case (attackers lowercase, defenders uppercase)"
                    )),
            );
        }
        let role = role_of(declaration.role.value);
        let display = declaration
            .display
            .as_ref()
            .map(|display| display.value.clone());
        checker
            .source_map
            .insert(RuleRef::Piece(checker.pieces.len()), clause_span);
        let mut piece = piece_kind(&declaration.name.value, display, symbol, side, role);
        piece.plural = declaration
            .plural
            .as_ref()
            .map(|plural| plural.value.clone());
        checker.pieces.push(piece);
        checker.piece_spans.push(Some(clause_span));
    }
}

fn piece_kind(
    name: &str,
    display: Option<String>,
    symbol: char,
    side: Side,
    role: Role,
) -> PieceKind {
    PieceKind {
        name: name.to_string(),
        display: display.unwrap_or_else(|| display_name(name)),
        plural: None,
        symbol,
        side,
        role,
        armed: Armed::Yes,
        movement: Movement {
            style: MoveStyle::Rook,
            max_distance: None,
        },
    }
}

/// `black-draug` → `Black Draug`.
fn display_name(name: &str) -> String {
    name.split(['-', '_'])
        .filter(|word| !word.is_empty())
        .map(capitalise)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The built-in regions (`throne` on a board with a centre square, `corners`, `edge`), then the
/// file's own; a file may redefine a built-in once.
fn declare_regions(checker: &mut Checker, file: &ast::File, board: Board) {
    let (width, height) = (board.width, board.height);
    let mut builtins = Vec::new();
    if width % 2 == 1 && height % 2 == 1 {
        builtins.push(("throne", vec![Square::new(width / 2, height / 2)]));
    }
    let (right, top) = (width - 1, height - 1);
    builtins.push((
        "corners",
        vec![
            Square::new(0, 0),
            Square::new(right, 0),
            Square::new(0, top),
            Square::new(right, top),
        ],
    ));
    let edge = (0..height)
        .flat_map(|rank| (0..width).map(move |file| Square::new(file, rank)))
        .filter(|square| {
            square.file == 0 || square.rank == 0 || square.file == right || square.rank == top
        })
        .collect();
    builtins.push(("edge", edge));
    for (name, mut squares) in builtins {
        squares.sort_by_key(|square| (square.rank, square.file));
        checker.regions.push(Region {
            name: name.to_string(),
            squares,
        });
        checker.region_spans.push(None);
        checker.region_used.push(false);
    }

    for clause in &file.clauses {
        let ClauseKind::Region { name, squares } = &clause.kind else {
            continue;
        };
        let resolved = resolve_squares(checker, squares, board);
        let existing = checker
            .regions
            .iter()
            .position(|region| region.name == name.value);
        match existing {
            Some(index) if checker.region_spans[index].is_some() => {
                // Reported against the span of the first definition, which exists (checked above).
                let first = checker.region_spans[index].unwrap_or(clause.span);
                checker.report(
                    Diagnostic::error(
                        Code::DuplicateRegion,
                        format!("the region `{}` is defined twice", name.value),
                    )
                    .label(name.span, "defined again here")
                    .label(first, "first defined here")
                    .help("merge the two lists into one definition, or rename one of them"),
                );
            }
            Some(index) => {
                checker.regions[index].squares = resolved;
                checker.region_spans[index] = Some(clause.span);
                checker
                    .source_map
                    .insert(RuleRef::Region(index), clause.span);
            }
            None => {
                checker
                    .source_map
                    .insert(RuleRef::Region(checker.regions.len()), clause.span);
                checker.regions.push(Region {
                    name: name.value.clone(),
                    squares: resolved,
                });
                checker.region_spans.push(Some(clause.span));
                checker.region_used.push(false);
            }
        }
    }
}

/// The squares of a list, sorted and without repeats. Reports malformed and off-board squares.
fn resolve_squares(checker: &mut Checker, items: &[ast::SquareItem], board: Board) -> Vec<Square> {
    let mut squares = BTreeSet::new();
    for item in items {
        match item {
            ast::SquareItem::Single(text) => {
                if let Some(square) = square(checker, text, board) {
                    squares.insert((square.rank, square.file));
                }
            }
            ast::SquareItem::Range(from, to) => {
                let (Some(from), Some(to)) =
                    (square(checker, from, board), square(checker, to, board))
                else {
                    continue;
                };
                for rank in from.rank.min(to.rank)..=from.rank.max(to.rank) {
                    for file in from.file.min(to.file)..=from.file.max(to.file) {
                        squares.insert((rank, file));
                    }
                }
            }
        }
    }
    squares
        .into_iter()
        .map(|(rank, file)| Square::new(file, rank))
        .collect()
}

fn square(checker: &mut Checker, text: &Spanned<String>, board: Board) -> Option<Square> {
    let last_file = (b'a' + board.width - 1) as char;
    match text.value.parse::<Square>() {
        Ok(square) if square.is_on(board.width, board.height) => Some(square),
        Ok(_) | Err(crate::ir::ParseSquareError::OutOfRange(_)) => {
            checker.report(
                Diagnostic::error(
                    Code::OffBoard,
                    format!(
                        "`{}` is not on a {}x{} board",
                        text.value, board.width, board.height
                    ),
                )
                .label(text.span, "off the board")
                .help(format!(
                    "squares run from a1 (bottom left) to {last_file}{} (top right)",
                    board.height
                )),
            );
            None
        }
        Err(_) => {
            checker.report(
                Diagnostic::error(Code::BadSquare, format!("`{}` is not a square name", text.value))
                    .label(text.span, "not a square")
                    .help(format!("write a file letter and a rank number from 1, without leading zeros: `a1` to `{last_file}{}`", board.height)),
            );
            None
        }
    }
}

/// The diagram as IR rows, or `None` (reported) when its shape or symbols are wrong.
fn check_setup(
    checker: &mut Checker,
    file: &ast::File,
    rows: &[ast::SetupRow],
    span: Span,
    board: Board,
) -> Option<Vec<String>> {
    let mut ok = true;
    if rows.len() != usize::from(board.height) {
        ok = false;
        let (label_span, label) = match rows.get(usize::from(board.height)) {
            Some(extra) => (extra.span, "this row is one too many".to_string()),
            None => (span, format!("{} here", count(rows.len(), "row"))),
        };
        checker.report(
            Diagnostic::error(
                Code::SetupHeight,
                format!(
                    "the diagram has {} but the board has {}",
                    count(rows.len(), "row"),
                    count(usize::from(board.height), "rank")
                ),
            )
            .label(label_span, label)
            .help(format!(
                "draw one row per rank, {} in all, the top rank first",
                board.height
            )),
        );
    }
    // Rows past the board's height are reported once above; their squares are not checked.
    for (index, row) in rows.iter().enumerate().take(usize::from(board.height)) {
        if row.cells.len() != usize::from(board.width) {
            ok = false;
            let rank = usize::from(board.height).saturating_sub(index);
            checker.report(
                Diagnostic::error(
                    Code::SetupWidth,
                    format!(
                        "row {} of the diagram has {} but the board has {}",
                        index + 1,
                        count(row.cells.len(), "square"),
                        count(usize::from(board.width), "file")
                    ),
                )
                .label(
                    row.span,
                    format!("{} (rank {rank})", count(row.cells.len(), "square")),
                )
                .help(format!(
                    "give every row {} symbols: a piece letter or `.` for an empty square",
                    board.width
                )),
            );
        }
    }
    // One diagnostic per unknown symbol, at its first square: the same letter everywhere is one
    // mistake (usually a missing or misspelt `piece` clause).
    let mut unknown: Vec<(char, Span, usize)> = Vec::new();
    for cell in rows.iter().flat_map(|row| &row.cells) {
        let known = cell.value == '.'
            || checker
                .pieces
                .iter()
                .any(|piece| piece.symbol == cell.value);
        if known {
            continue;
        }
        ok = false;
        match unknown
            .iter_mut()
            .find(|(symbol, _, _)| *symbol == cell.value)
        {
            Some((_, _, count)) => *count += 1,
            None => unknown.push((cell.value, cell.span, 1)),
        }
    }
    // A `piece` line with a syntax error may declare any of them: it is reported already.
    if super::broken_line_mentions(file, &["piece"]) {
        unknown.clear();
    }
    for (symbol, span, squares) in unknown {
        let symbols: Vec<String> = checker
            .pieces
            .iter()
            .map(|piece| format!("`{}` {}", piece.symbol, piece.name))
            .collect();
        let label = if squares == 1 {
            "unknown symbol".to_string()
        } else {
            format!("unknown symbol, on {} in all", count(squares, "square"))
        };
        checker.report(
            Diagnostic::error(Code::UnknownSymbol, format!("`{symbol}` is not a piece of this variant"))
                .label(span, label)
                .help(format!(
                    "use `.` for an empty square or a declared piece: {}; or declare it with `piece {symbol} <name>: <side> <soldier|king>`",
                    symbols.join(", "),
                )),
        );
    }
    ok.then(|| {
        rows.iter()
            .map(|row| row.cells.iter().map(|cell| cell.value).collect())
            .collect()
    })
}
