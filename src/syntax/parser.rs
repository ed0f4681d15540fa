//! pest pairs to AST: one function per grammar rule.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::*;
use std::ops::Range;

use super::error::{error_line, syntax_diagnostic, Recovery, MAX_SYNTAX_ERRORS};
use super::grammar::{Rule, TaflParser};
use crate::diagnostic::Diagnostic;
use crate::ir::Side;
use crate::span::{Span, Spanned};

/// Parses a variant file.
///
/// # Errors
/// Every syntax error found, as diagnostics; see [`parse_recovering`] for the clauses that
/// could be read around them.
pub fn parse(text: &str) -> Result<File, Vec<Diagnostic>> {
    match parse_recovering(text) {
        (Some(file), errors) if errors.is_empty() => Ok(file),
        (_, errors) => Err(errors),
    }
}

/// Parses a variant file as far as it can be read: every syntax error, and the file without
/// the clauses they broke (their lines are listed in [`File::broken`]) so that the rest can
/// still be checked. A misspelt keyword with a near match (`boadr` for `board`) is reported
/// and read as that keyword.
///
/// The file is `None` when the errors leave nothing to check: a diagram without `end`
/// swallows the rest of the file, and after a few dozen errors the text is probably not a
/// variant file at all.
pub fn parse_recovering(text: &str) -> (Option<File>, Vec<Diagnostic>) {
    // Detailed attempts let errors name the keywords expected, not just grammar rules.
    pest::set_error_detail(true);
    let mut errors = Vec::new();
    let mut broken: Vec<Spanned<String>> = Vec::new();
    let mut corrected: Vec<Range<usize>> = Vec::new();
    let mut attempt = text.to_string();
    loop {
        match TaflParser::parse(Rule::file, &attempt) {
            Ok(mut pairs) => {
                // The grammar's top rule always yields one `file` pair on success.
                let file = pairs.next().expect("a parsed file has a `file` pair");
                let mut file = parse_file(file);
                if !corrected.is_empty() {
                    snap_to_characters(&mut file, text);
                }
                broken.sort_by_key(|line| line.span.start);
                file.broken = broken;
                return (Some(file), errors);
            }
            Err(error) => {
                // A line read again with a correction that still fails: its error is already
                // reported, so leave the line out quietly.
                let line = error_line(&error, &attempt);
                if corrected.contains(&line) {
                    leave_out(&mut attempt, &mut broken, text, line);
                    continue;
                }
                let (diagnostic, recovery) = syntax_diagnostic(&error, &attempt);
                errors.push(diagnostic);
                if errors.len() >= MAX_SYNTAX_ERRORS {
                    return (None, errors);
                }
                match recovery {
                    Recovery::Stop => return (None, errors),
                    Recovery::Blank(line) => leave_out(&mut attempt, &mut broken, text, line),
                    // The range is on character boundaries and at least as long as the word.
                    Recovery::Replace { line, range, with } => {
                        let padded = format!("{with:<width$}", width = range.len());
                        attempt.replace_range(range, &padded);
                        corrected.push(line);
                    }
                }
            }
        }
    }
}

/// Widens each clause's span to whole characters of `text`. A corrected keyword is padded to
/// the byte length of the word it replaced, so later offsets stay true, but the clause then ends
/// where the shorter keyword ends, which can fall inside a character of the original word
/// (`ti𝔸mes` read as `times`).
fn snap_to_characters(file: &mut File, text: &str) {
    for clause in &mut file.clauses {
        let mut end = clause.span.end.min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        clause.span = Span::new(clause.span.start, end);
    }
}

/// Blanks a broken line of `attempt` (a space per byte, newlines kept) so that parsing again
/// reads on without it and later errors keep their true offsets; remembers the line's original
/// text. `line` runs from a line start to a line end, both character boundaries, so
/// `replace_range` cannot panic.
fn leave_out(
    attempt: &mut String,
    broken: &mut Vec<Spanned<String>>,
    text: &str,
    line: Range<usize>,
) {
    let span = Span::new(line.start, line.end);
    broken.push(Spanned::new(text[line.clone()].to_string(), span));
    let blanked = blank_out(&attempt[line.clone()]);
    attempt.replace_range(line, &blanked);
}

/// `text` with every byte but line breaks turned into a space.
fn blank_out(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let fill = if c == '\n' { '\n' } else { ' ' };
            std::iter::repeat_n(fill, c.len_utf8())
        })
        .collect()
}

/// `text` without the spaces, comments and blank lines at its end.
fn without_trailing_comment(text: &str) -> &str {
    let mut text = text.trim_end();
    loop {
        let line_start = text.rfind('\n').map_or(0, |newline| newline + 1);
        let code = super::error::code_part(&text[line_start..]).trim_end();
        let trimmed = text[..line_start + code.len()].trim_end();
        if trimmed.len() == text.len() {
            return text;
        }
        text = trimmed;
    }
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    pair.as_span().into()
}

fn spanned_str(pair: &Pair<'_, Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

/// The pairs inside `pair`, without the articles the grammar reads for fluency.
fn inner(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|child| child.as_rule() != Rule::article)
}

fn parse_file(pair: Pair<'_, Rule>) -> File {
    let clauses = pair
        .into_inner()
        .filter(|clause| clause.as_rule() != Rule::EOI)
        .map(parse_clause)
        .collect();
    File {
        clauses,
        broken: Vec::new(),
    }
}

fn parse_clause(pair: Pair<'_, Rule>) -> Clause {
    // pest lets a clause's span run over the spaces and comment after its last token (they are
    // skipped before trying an optional part): cut them off, so a clause's text is just the rule.
    let span = span_of(&pair);
    let span = Span::new(
        span.start,
        span.start + without_trailing_comment(pair.as_str()).len(),
    );
    let rule = pair.as_rule();
    let mut parts = inner(pair);
    // Each arm takes exactly the children its grammar rule guarantees.
    let mut next = || parts.next().expect("the grammar guarantees this child");
    let kind = match rule {
        Rule::name_clause => ClauseKind::Name(parse_string(next())),
        Rule::source_clause => ClauseKind::Source(parse_string(next())),
        Rule::note_clause => ClauseKind::Note(parse_string(next())),
        Rule::board_clause => ClauseKind::Board {
            width: parse_number(next()),
            height: parse_number(next()),
        },
        Rule::side_name_clause => ClauseKind::SideName {
            side: parse_side(next()),
            name: parse_string(next()),
        },
        Rule::first_move_clause => ClauseKind::FirstMove(parse_side(next())),
        Rule::piece_clause => {
            let symbol = next();
            let symbol = Spanned::new(
                symbol.as_str().chars().next().unwrap_or('?'),
                span_of(&symbol),
            );
            let name = spanned_str(&next());
            let side = parse_side(next());
            let role = next();
            let role_word = if role.as_str() == "king" {
                RoleWord::King
            } else {
                RoleWord::Soldier
            };
            let role = Spanned::new(role_word, span_of(&role));
            let mut display = None;
            let mut plural = None;
            for part in parts.by_ref() {
                let text = parse_string(first_child(part.clone()));
                match part.as_rule() {
                    Rule::piece_called => display = Some(text),
                    Rule::piece_plural => plural = Some(text),
                    other => unreachable!("{other:?} in a piece clause"),
                }
            }
            ClauseKind::Piece(PieceDecl {
                symbol,
                name,
                side,
                role,
                display,
                plural,
            })
        }
        Rule::region_clause => {
            let _keyword = next();
            let name = spanned_str(&next());
            let squares = next().into_inner().map(parse_square_item).collect();
            ClauseKind::Region { name, squares }
        }
        Rule::setup_clause => ClauseKind::Setup(
            parts
                .by_ref()
                .filter(|row| row.as_rule() == Rule::setup_row)
                .map(parse_setup_row)
                .collect(),
        ),
        Rule::movement_clause => {
            let pieces = parse_piece_set(next());
            let movement = parse_movement(next());
            ClauseKind::Movement { pieces, movement }
        }
        Rule::access_clause => {
            let who = parse_who(next());
            let mut action = next();
            let allowed = action.as_rule() != Rule::negation;
            if !allowed {
                action = next();
            }
            let action = Spanned::new(
                match action.as_rule() {
                    Rule::land => AccessAction::Land,
                    Rule::pass => AccessAction::Pass,
                    Rule::enter => AccessAction::Enter,
                    other => unreachable!("{other:?} as an access action"),
                },
                span_of(&action),
            );
            let region = parse_region_ref(next());
            let condition = parts.next().map(|condition| {
                let when = match condition.as_rule() {
                    Rule::once_left => AccessWhen::OnceLeft,
                    Rule::while_group_empty => AccessWhen::WhileGroupEmpty,
                    other => unreachable!("{other:?} as an access condition"),
                };
                Spanned::new(when, span_of(&condition))
            });
            ClauseKind::Access {
                who,
                allowed,
                action,
                region,
                condition,
            }
        }
        Rule::armed_clause => {
            let pieces = parse_piece_set(next());
            let armed = next();
            let armedness = match armed.as_rule() {
                Rule::hammer => Armedness::Hammer,
                Rule::anvil => Armedness::Anvil,
                Rule::unarmed => Armedness::Unarmed,
                Rule::armed => Armedness::Armed,
                other => unreachable!("{other:?} as armedness"),
            };
            ClauseKind::Armed {
                pieces,
                armed: Spanned::new(armedness, span_of(&armed)),
            }
        }
        Rule::hostility_clause => {
            let region = parse_region_ref(next());
            let victims = parse_piece_set(next());
            let when = parts.next().map(parse_hostile_when);
            ClauseKind::Hostility {
                region,
                victims,
                when,
            }
        }
        Rule::king_capture_clause => {
            let pieces = parse_piece_set(next());
            let place_pair = next();
            let place_span = span_of(&place_pair);
            let place = match place_pair.as_rule() {
                Rule::place_on => PlaceSpec::On(parse_region_ref(first_child(place_pair))),
                Rule::place_beside => PlaceSpec::Beside(parse_region_ref(first_child(place_pair))),
                Rule::place_anywhere => PlaceSpec::Anywhere,
                Rule::place_elsewhere => PlaceSpec::Elsewhere,
                other => unreachable!("{other:?} as a place of capture"),
            };
            let method_pair = next();
            let method_span = span_of(&method_pair);
            let (method, counting) = match method_pair.as_rule() {
                Rule::enclosed => {
                    let counting = method_pair
                        .into_inner()
                        .filter(|child| child.as_rule() == Rule::counting)
                        .flat_map(|counting| counting.into_inner().map(parse_region_ref))
                        .collect();
                    (CaptureSpec::Enclosed, counting)
                }
                Rule::custodial => (CaptureSpec::Custodial, Vec::new()),
                other => unreachable!("{other:?} as a capture method"),
            };
            let own_move = parts.next().map(|part| span_of(&part));
            ClauseKind::KingCapture {
                pieces,
                place: Spanned::new(place, place_span),
                method: Spanned::new(method, method_span),
                counting,
                own_move,
            }
        }
        Rule::win_clause => {
            let side = parse_side(next());
            let pieces = parse_piece_set(next());
            let event = next();
            let event = match event.as_rule() {
                Rule::reaches => WinEvent::Reaches(parse_region_ref(first_child(event))),
                Rule::holds_fort => WinEvent::HoldsFort(span_of(&event)),
                Rule::is_captured => WinEvent::Captured(span_of(&event)),
                other => unreachable!("{other:?} as a winning event"),
            };
            ClauseKind::Win {
                side,
                pieces,
                event,
            }
        }
        Rule::shieldwall_clause => {
            let victims = parse_piece_set(next());
            let mut counting = Vec::new();
            let mut after_any_move = None;
            for part in parts.by_ref() {
                match part.as_rule() {
                    Rule::counting => counting.extend(part.into_inner().map(parse_region_ref)),
                    Rule::after_any_move => after_any_move = Some(span_of(&part)),
                    other => unreachable!("{other:?} in a shieldwall clause"),
                }
            }
            ClauseKind::Shieldwall {
                victims,
                counting,
                after_any_move,
            }
        }
        Rule::encirclement_clause => {
            let side = parse_side(next());
            let words = next();
            let reading = match words.as_rule() {
                Rule::no_edge_access => EnclosureWords::NoEdgeAccess,
                Rule::every_surrounded => EnclosureWords::EverySurrounded,
                other => unreachable!("{other:?} as an encirclement"),
            };
            let enclosed = parse_side(first_child(words));
            ClauseKind::Encirclement {
                side,
                enclosed,
                reading,
            }
        }
        Rule::side_loses_clause => {
            let side = parse_side(next());
            let condition = next();
            let condition_span = span_of(&condition);
            let condition = match condition.as_rule() {
                Rule::they_cannot_move => SideLossCondition::NoMoves(condition_span),
                Rule::position_repeats => {
                    SideLossCondition::Repetition(Spanned::new(2, condition_span))
                }
                Rule::position_occurs => {
                    SideLossCondition::Repetition(parse_number(first_child(condition)))
                }
                other => unreachable!("{other:?} as a losing condition"),
            };
            ClauseKind::SideLoses { side, condition }
        }
        Rule::no_moves_clause => ClauseKind::NoMovesLoses,
        Rule::repetition_loss_clause => {
            let count = parse_number(next());
            let mover_wins = next().as_rule() == Rule::wins;
            ClauseKind::RepetitionLoses { count, mover_wins }
        }
        Rule::draw_clause => {
            let condition = next();
            let condition_span = span_of(&condition);
            let condition = match condition.as_rule() {
                Rule::position_repeats => {
                    DrawCondition::Repetition(Spanned::new(2, condition_span))
                }
                Rule::position_occurs => {
                    DrawCondition::Repetition(parse_number(first_child(condition)))
                }
                Rule::side_cannot_move => {
                    let side = condition
                        .into_inner()
                        .find(|part| part.as_rule() == Rule::side);
                    DrawCondition::NoMoves(side.map(parse_side))
                }
                Rule::no_capture_moves => {
                    DrawCondition::NoCapture(parse_number(first_child(condition)))
                }
                Rule::by_agreement => DrawCondition::Agreement(condition_span),
                other => unreachable!("{other:?} as a draw condition"),
            };
            let on_claim = parts.next().map(|claim| span_of(&claim));
            ClauseKind::Draw {
                condition,
                on_claim,
            }
        }
        Rule::back_and_forth_clause => ClauseKind::BackAndForth(parse_number(next())),
        Rule::jump_clause => {
            let pieces = parse_piece_set(next());
            let over = parse_piece_set(next());
            let mut only_from_or_to = Vec::new();
            let mut captures = None;
            for part in parts.by_ref() {
                match part.as_rule() {
                    Rule::jump_only => {
                        only_from_or_to.extend(part.into_inner().map(parse_region_ref))
                    }
                    Rule::jump_captures => captures = Some(span_of(&part)),
                    other => unreachable!("{other:?} in a jump clause"),
                }
            }
            ClauseKind::Jump {
                pieces,
                over,
                only_from_or_to,
                captures,
            }
        }
        Rule::berserk_clause => {
            let words = next();
            let span = span_of(&words);
            let words = match words.as_rule() {
                Rule::capture_again => BerserkWords::CaptureAgain,
                Rule::move_while_capture => BerserkWords::MoveWhileItCanCapture,
                Rule::move_again => BerserkWords::MoveAgain,
                other => unreachable!("{other:?} as a berserk reading"),
            };
            ClauseKind::Berserk(Spanned::new(words, span))
        }
        Rule::sandwich_clause => {
            let kings = parse_piece_set(next());
            let captors = parse_piece_set(next());
            let mut counting = Vec::new();
            let mut except_on = Vec::new();
            for part in parts.by_ref() {
                match part.as_rule() {
                    Rule::counting => counting.extend(part.into_inner().map(parse_region_ref)),
                    Rule::except_on => except_on.extend(part.into_inner().map(parse_region_ref)),
                    other => unreachable!("{other:?} in a sandwich clause"),
                }
            }
            ClauseKind::Sandwich {
                kings,
                captors,
                counting,
                except_on,
            }
        }
        Rule::announce_clause => {
            let word = parse_string(next());
            let piece = spanned_str(&first_child(next()));
            let routes = parse_number(next());
            let region = parse_region_ref(next());
            ClauseKind::Announce {
                word,
                piece,
                routes,
                region,
            }
        }
        other => unreachable!("{other:?} is not a clause"),
    };
    Clause { kind, span }
}

fn first_child(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    // Called only on rules whose grammar has a mandatory first child.
    inner(pair).next().expect("the grammar guarantees a child")
}

fn parse_string(pair: Pair<'_, Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let text = pair
        .into_inner()
        .next()
        .map_or(String::new(), |text| text.as_str().to_string());
    Spanned::new(text, span)
}

fn parse_number(pair: Pair<'_, Rule>) -> Spanned<u32> {
    // A number too large for u32 is saturated: every check rejects it as out of range.
    let value = pair.as_str().parse().unwrap_or(u32::MAX);
    Spanned::new(value, span_of(&pair))
}

fn parse_side(pair: Pair<'_, Rule>) -> Spanned<Side> {
    let side = if pair.as_str().starts_with("attacker") {
        Side::Attackers
    } else {
        Side::Defenders
    };
    Spanned::new(side, span_of(&pair))
}

fn parse_square_item(pair: Pair<'_, Rule>) -> SquareItem {
    match pair.as_rule() {
        Rule::square_range => {
            let mut ends = pair.into_inner();
            // A range has exactly two squares.
            let from = spanned_str(&ends.next().expect("range start"));
            let to = spanned_str(&ends.next().expect("range end"));
            SquareItem::Range(from, to)
        }
        Rule::square => SquareItem::Single(spanned_str(&pair)),
        other => unreachable!("{other:?} as a square item"),
    }
}

fn parse_setup_row(pair: Pair<'_, Rule>) -> SetupRow {
    let span = span_of(&pair);
    let cells = pair
        .into_inner()
        .map(|cell| Spanned::new(cell.as_str().chars().next().unwrap_or(' '), span_of(&cell)))
        .collect();
    SetupRow { cells, span }
}

fn parse_piece_set(pair: Pair<'_, Rule>) -> PieceSet {
    let span = span_of(&pair);
    let items = inner(pair)
        .map(|item| {
            let value = match item.as_rule() {
                Rule::everyone => PieceSetItem::Everyone,
                Rule::side => PieceSetItem::Side(parse_side(item.clone()).value),
                Rule::role_set => PieceSetItem::Role(if item.as_str() == "kings" {
                    RoleWord::King
                } else {
                    RoleWord::Soldier
                }),
                Rule::side_role => {
                    let text = item.as_str();
                    let side = if text.starts_with("attack") {
                        Side::Attackers
                    } else {
                        Side::Defenders
                    };
                    let role = if text.ends_with("kings") {
                        RoleWord::King
                    } else {
                        RoleWord::Soldier
                    };
                    PieceSetItem::SideRole(side, role)
                }
                Rule::piece_ref => PieceSetItem::Named(item.as_str().to_string()),
                other => unreachable!("{other:?} in a piece set"),
            };
            Spanned::new(value, span_of(&item))
        })
        .collect();
    PieceSet { items, span }
}

fn parse_who(pair: Pair<'_, Rule>) -> Who {
    let span = span_of(&pair);
    let mut parts = inner(pair);
    // `who` always has a first child: `nobody`, `only` or a piece set.
    let first = parts.next().expect("who has a child");
    match first.as_rule() {
        Rule::nobody => Who::Nobody(span),
        Rule::only => Who::Only(parse_piece_set(
            parts.next().expect("only is followed by a set"),
        )),
        Rule::piece_set => Who::Pieces(parse_piece_set(first)),
        other => unreachable!("{other:?} as who"),
    }
}

fn parse_region_ref(pair: Pair<'_, Rule>) -> Spanned<String> {
    let identifier = first_child(pair);
    spanned_str(&identifier)
}

fn parse_movement(pair: Pair<'_, Rule>) -> Spanned<MovementSpec> {
    let span = span_of(&pair);
    let movement = match pair.as_rule() {
        Rule::rook_move => MovementSpec::Rook {
            max: pair.into_inner().next().map(parse_number),
        },
        Rule::any_empty_move => MovementSpec::AnyEmptySquare,
        other => unreachable!("{other:?} as a movement"),
    };
    Spanned::new(movement, span)
}

fn parse_hostile_when(pair: Pair<'_, Rule>) -> Spanned<HostileWhen> {
    let span = span_of(&pair);
    let when = match pair.as_rule() {
        Rule::when_empty => HostileWhen::Empty,
        Rule::when_occupied => {
            let mut by = None;
            let mut enemies_beside = None;
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::piece_set => by = Some(parse_piece_set(part)),
                    Rule::enemies_beside => enemies_beside = Some(parse_number(first_child(part))),
                    other => unreachable!("{other:?} in `when occupied`"),
                }
            }
            HostileWhen::Occupied { by, enemies_beside }
        }
        other => unreachable!("{other:?} as a hostility condition"),
    };
    Spanned::new(when, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Vec<String>, usize, usize) {
        let (file, errors) = parse_recovering(text);
        let file = file.expect("the file can be read around its errors");
        let kinds = file
            .clauses
            .iter()
            .map(|clause| {
                format!("{:?}", clause.kind)
                    .split([' ', '(', '{'])
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        (kinds, errors.len(), file.broken.len())
    }

    #[test]
    fn a_misspelt_keyword_is_reported_and_read_as_the_keyword() {
        // Shorter, equal and longer misspellings; a longer keyword takes the spaces after it.
        let (found, errors, broken) = kinds("bord 9 x 9\natackers  move first\nboardd 9 x 9\n");
        assert_eq!(found, ["Board", "FirstMove", "Board"]);
        assert_eq!((errors, broken), (3, 0));
    }

    #[test]
    fn a_clause_that_cannot_be_corrected_is_left_out() {
        let (found, errors, broken) = kinds("board 9 x 9\ncastle is d4\nattackers move first\n");
        assert_eq!(found, ["Board", "FirstMove"]);
        assert_eq!((errors, broken), (1, 1));
        // A correction that still does not parse leaves the line out without a second error.
        let (found, errors, broken) = kinds("bord nine x 9\nattackers move first\n");
        assert_eq!(found, ["FirstMove"]);
        assert_eq!((errors, broken), (1, 1));
    }

    #[test]
    fn an_unclosed_diagram_stops_the_reading() {
        let (file, errors) = parse_recovering("board 5 x 5\nsetup\n . . . . .\n");
        assert!(file.is_none());
        assert_eq!(errors.len(), 1);
    }
}
