//! Pass 3: checks of the rules as a whole, each pointing at the clauses involved.

use super::{broken_line_mentions, file_start, Checker};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::RuleRef;
use crate::ir::{AccessCondition, Role, Rules, Side, Square};
use crate::span::Span;
use crate::syntax::ast::{self, ClauseKind};

pub(super) fn lints(checker: &mut Checker, file: &ast::File, rules: &Rules) {
    let setup_span = checker
        .source_map
        .span(RuleRef::Setup)
        .unwrap_or_else(|| file_start(file));
    // The checks of the start position need a diagram that could be read.
    if checker.setup_ok {
        let placed = rules.start_pieces();
        kings(checker, file, rules, &placed, setup_span);
        sides(checker, rules, &placed, setup_span);
        forbidden_starts(checker, file, rules, &placed, setup_span);
        symmetry(checker, rules, setup_span);
    }
    escapes(checker, rules);
    first_move(checker, file);
    wins(checker, rules, file);
    unused_regions(checker, file);
}

/// The span of the diagram cell for `square`.
fn cell_span(file: &ast::File, rules: &Rules, square: Square) -> Option<Span> {
    file.clauses.iter().find_map(|clause| {
        let ClauseKind::Setup(rows) = &clause.kind else {
            return None;
        };
        let row = usize::from(rules.board.height - 1 - square.rank);
        rows.get(row)?
            .cells
            .get(usize::from(square.file))
            .map(|cell| cell.span)
    })
}

fn kings(
    checker: &mut Checker,
    file: &ast::File,
    rules: &Rules,
    placed: &[(Square, &crate::ir::PieceKind)],
    setup: Span,
) {
    let king_names: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|piece| piece.role == Role::King)
        .map(|piece| piece.name.as_str())
        .collect();
    let needs_king = !king_names.is_empty()
        && (rules
            .outcome
            .escapes
            .iter()
            .any(|escape| king_names.contains(&escape.piece.as_str()))
            || rules
                .outcome
                .decisive_captures
                .iter()
                .any(|capture| king_names.contains(&capture.piece.as_str()))
            || checker.source_map.span(RuleRef::KingCapture(0)).is_some());
    let kings_placed: Vec<Square> = placed
        .iter()
        .filter(|(_, piece)| piece.role == Role::King)
        .map(|(square, _)| *square)
        .collect();
    if needs_king && kings_placed.is_empty() {
        let symbols: Vec<String> = rules
            .pieces
            .iter()
            .filter(|piece| piece.role == Role::King)
            .map(|piece| format!("`{}`", piece.symbol))
            .collect();
        let rule_span = (0..rules.outcome.escapes.len())
            .map(RuleRef::Escape)
            .chain((0..rules.outcome.decisive_captures.len()).map(RuleRef::DecisiveCapture))
            .chain(std::iter::once(RuleRef::KingCapture(0)))
            .find_map(|rule| checker.source_map.span(rule));
        let mut diagnostic =
            Diagnostic::error(Code::NoKing, "the rules need a king but none is set up")
                .label(setup, "no king in this diagram")
                .help(format!(
                    "put the king ({}) on its start square in the diagram",
                    symbols.join(" or ")
                ));
        if let Some(rule_span) = rule_span {
            diagnostic = diagnostic.label(rule_span, "this rule is about the king");
        }
        checker.report(diagnostic);
    }
    if kings_placed.len() > 1 {
        let mut diagnostic = Diagnostic::error(
            Code::SeveralKings,
            format!(
                "{} kings are set up; the rules about the king need exactly one",
                kings_placed.len()
            ),
        );
        for square in &kings_placed {
            let span = cell_span(file, rules, *square).unwrap_or(setup);
            diagnostic = diagnostic.label(span, format!("a king on {square}"));
        }
        checker
            .report(diagnostic.help("keep one king; other royal pieces need a kind of their own"));
    }
}

fn sides(
    checker: &mut Checker,
    rules: &Rules,
    placed: &[(Square, &crate::ir::PieceKind)],
    setup: Span,
) {
    for side in Side::BOTH {
        if !placed.iter().any(|(_, piece)| piece.side == side) {
            let symbols: Vec<String> = rules
                .pieces
                .iter()
                .filter(|piece| piece.side == side)
                .map(|piece| format!("`{}`", piece.symbol))
                .collect();
            checker.report(
                Diagnostic::error(
                    Code::EmptySide,
                    format!("the {side} have no pieces on the board"),
                )
                .label(setup, format!("no {side} in this diagram"))
                .help(format!(
                    "set up the {side}' pieces ({}) in the diagram",
                    symbols.join(", ")
                )),
            );
        }
    }
}

/// Whether an unconditional access rule bars `piece` from ever being on `square`.
fn never_enters(rules: &Rules, piece: &str, square: Square) -> Option<usize> {
    rules.access.iter().position(|rule| {
        rule.condition == AccessCondition::Always
            && rule.action.includes_landing()
            && rule.action.includes_passing()
            && rule.pieces.iter().any(|name| name == piece)
            && rules
                .region(&rule.region)
                .is_some_and(|region| region.squares.contains(&square))
    })
}

fn forbidden_starts(
    checker: &mut Checker,
    file: &ast::File,
    rules: &Rules,
    placed: &[(Square, &crate::ir::PieceKind)],
    setup: Span,
) {
    // `only X may enter R` describes R as X's privilege: pieces the author sets up inside R
    // anyway are evidently meant to start there (Thrones and Bones' draugs on their mounds) and
    // may only leave. A clause that names the barred pieces (`defenders may not enter R`) is
    // about them, and setting one of them up in R is a mistake.
    let from_only = |span: Span| {
        file.clauses.iter().any(|clause| {
            clause.span == span
                && matches!(
                    &clause.kind,
                    ClauseKind::Access {
                        who: ast::Who::Only(_),
                        ..
                    }
                )
        })
    };
    for (square, piece) in placed {
        if let Some(rule) = never_enters(rules, &piece.name, *square) {
            let Some(rule_span) = checker.source_map.span(RuleRef::Access(rule)) else {
                continue;
            };
            if from_only(rule_span) {
                continue;
            }
            checker.report(
                Diagnostic::error(Code::ForbiddenStart, format!("`{}` starts on {square}, where it may never be", piece.name))
                    .label(cell_span(file, rules, *square).unwrap_or(setup), format!("`{}` on {square}", piece.symbol))
                    .label(rule_span, "this clause bars it from that square")
                    .help(match entered_region(file, rule_span) {
                        Some(region) => format!("move the piece in the diagram, or write `land on the {region}` instead of `enter the {region}` in the clause: a piece that starts there may then leave"),
                        None => "move the piece in the diagram, or name in the clause only the pieces it is about".to_string(),
                    }),
            );
        }
    }
}

/// The region of the access clause at `span` when the clause bars entering it (`nobody may
/// enter the camps`), where barring landing only would let a piece that starts there leave.
fn entered_region(file: &ast::File, span: Span) -> Option<&str> {
    let clause = file.clauses.iter().find(|clause| clause.span == span)?;
    let ClauseKind::Access { action, region, .. } = &clause.kind else {
        return None;
    };
    (action.value == ast::AccessAction::Enter).then_some(region.value.as_str())
}

fn escapes(checker: &mut Checker, rules: &Rules) {
    for (index, escape) in rules.outcome.escapes.iter().enumerate() {
        let Some(region) = rules.region(&escape.region) else {
            continue;
        };
        let blocking: Vec<usize> = rules
            .access
            .iter()
            .enumerate()
            .filter(|(_, rule)| {
                rule.condition == AccessCondition::Always
                    && rule.action.includes_landing()
                    && rule.pieces.contains(&escape.piece)
                    && rules.region(&rule.region).is_some_and(|barred| {
                        barred
                            .squares
                            .iter()
                            .any(|square| region.squares.contains(square))
                    })
            })
            .map(|(index, _)| index)
            .collect();
        let reachable = region.squares.iter().any(|square| {
            !blocking.iter().any(|&rule| {
                rules
                    .region(&rules.access[rule].region)
                    .is_some_and(|r| r.squares.contains(square))
            })
        });
        if !reachable && !region.squares.is_empty() {
            let span = checker
                .source_map
                .span(RuleRef::Escape(index))
                .unwrap_or_default();
            let mut diagnostic = Diagnostic::error(
                Code::UnreachableEscape,
                format!(
                    "`{}` wins on reaching {}, but may land on none of its squares",
                    escape.piece, escape.region
                ),
            )
            .label(span, "this escape can never happen");
            for rule in blocking {
                if let Some(rule_span) = checker.source_map.span(RuleRef::Access(rule)) {
                    diagnostic = diagnostic.label(rule_span, "this clause forbids it");
                }
            }
            checker.report(diagnostic.help(format!(
                "let the piece land there, e.g. `only the {} may land on the {}`, or change the escape",
                escape.piece, escape.region
            )));
        }
    }
}

fn first_move(checker: &mut Checker, file: &ast::File) {
    if checker.source_map.span(RuleRef::FirstToMove).is_none()
        && !broken_line_mentions(file, &["first"])
    {
        let board = checker.source_map.span(RuleRef::Board);
        let span = board.unwrap_or_else(|| file_start(file));
        // The fix writes the default on the line after the board clause (or first of all).
        let (at, text) = match board {
            Some(board) => (Span::new(board.end, board.end), "\nattackers move first"),
            None => (Span::new(span.start, span.start), "attackers move first\n"),
        };
        checker.report(
            Diagnostic::warning(Code::MissingFirstMove, "the file does not say who moves first; the attackers will")
                .label(span, "no `attackers move first` or `defenders move first` in this file")
                .help("say it, e.g. `attackers move first`, even when it is the default: many sources differ")
                .fix(at, text),
        );
    }
}

fn wins(checker: &mut Checker, rules: &Rules, file: &ast::File) {
    for side in Side::BOTH {
        let can_win = rules
            .outcome
            .escapes
            .iter()
            .any(|escape| escape.winner == side)
            || rules
                .outcome
                .decisive_captures
                .iter()
                .any(|capture| capture.winner == side);
        // A broken win clause may name the side by its own name (`Swedes win when ...`).
        let own_name = rules.sides.get(side).name.to_lowercase();
        let own_name = own_name.split_whitespace().last().unwrap_or("");
        let meant = checker.meant_to_win.contains(&side)
            || broken_line_mentions(file, &[side.as_str(), "win"])
            || broken_line_mentions(file, &[own_name, "win"]);
        if !can_win && !meant {
            let span = checker
                .source_map
                .span(RuleRef::Board)
                .unwrap_or_else(|| file_start(file));
            let example = match side {
                Side::Attackers => "`attackers win when the king is captured`",
                Side::Defenders => "`defenders win when the king reaches the edge`",
            };
            checker.report(
                Diagnostic::warning(
                    Code::NoWin,
                    format!("the {side} can win only when the other side cannot move"),
                )
                .label(span, format!("no clause says how the {side} win"))
                .help(format!("add a win clause such as {example}")),
            );
        }
    }
}

fn unused_regions(checker: &mut Checker, file: &ast::File) {
    let unused: Vec<(String, Span)> = checker
        .regions
        .iter()
        .zip(&checker.region_spans)
        .zip(&checker.region_used)
        .filter_map(|((region, span), used)| {
            span.filter(|_| !used)
                .map(|span| (region.name.clone(), span))
        })
        .collect();
    for (name, span) in unused {
        if broken_line_mentions(file, &[&name]) {
            continue;
        }
        checker.report(
            Diagnostic::warning(
                Code::UnusedRegion,
                format!("the region `{name}` is never used"),
            )
            .label(span, "defined here, used by no rule")
            .help(format!(
                "use it in a rule (e.g. `nobody may land on {name}`) or delete the definition"
            )),
        );
    }
}

fn symmetry(checker: &mut Checker, rules: &Rules, setup: Span) {
    let rows: Vec<Vec<char>> = rules
        .setup
        .iter()
        .map(|row| row.chars().collect())
        .collect();
    let mirrored_left_right = rows.iter().all(|row| row.iter().eq(row.iter().rev()));
    let mirrored_top_bottom = rows.iter().eq(rows.iter().rev());
    if !(mirrored_left_right && mirrored_top_bottom) {
        let axis = match (mirrored_left_right, mirrored_top_bottom) {
            (false, false) => "neither left to right nor top to bottom",
            (false, true) => "not left to right",
            _ => "not top to bottom",
        };
        checker.report(
            Diagnostic::note(Code::AsymmetricSetup, format!("the setup is {axis} symmetric"))
                .label(setup, "this diagram")
                .help("fine if the source says so (a leader piece, say); otherwise check the diagram for a misplaced piece"),
        );
    }
}

/// A warning for each line (up to the diagnostics' cap) holding a character that would act on a
/// terminal (ESC, BEL, a C1 control): in a string it reaches every face, which shows it as its
/// escape (`\u{1b}`); in a comment it is only noise. It is named, and labelled where it stands.
pub(super) fn control_characters(text: &str) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut start = 0;
    for line in text.split('\n') {
        if found.len() == super::limits::MAX_DIAGNOSTICS {
            break;
        }
        if let Some((at, c)) = line
            .char_indices()
            .find(|&(_, c)| crate::printable::acts(c))
        {
            let mut named: Vec<String> = Vec::new();
            for c in line.chars().filter(|&c| crate::printable::acts(c)) {
                let name = format!("U+{:04X}", u32::from(c));
                if !named.contains(&name) {
                    named.push(name);
                }
            }
            let span = Span::new(start + at, start + at + c.len_utf8());
            found.push(
                Diagnostic::warning(
                    Code::ControlCharacter,
                    format!("a control character ({}) in the text", named.join(", ")),
                )
                .label(span, format!("U+{:04X} here", u32::from(c)))
                .help(format!(
                    "every face shows it as `{}`, never as what it would do to a terminal; delete it",
                    crate::printable::quoted(&c.to_string())
                )),
            );
        }
        start += line.len() + 1;
    }
    found
}
