//! pest pairs to AST: one function per grammar rule.
//!
//! This file reads a whole file and recovers from syntax errors; [`parse_clause`] sends each
//! clause to the reader of its family (the same family names as in `check/rules/` and
//! `explain/`), and `read.rs` reads the parts clauses share (piece sets, region names, numbers).

mod capture;
mod declarations;
mod encirclement;
mod ending;
mod hostility;
mod jumps;
mod king_capture;
mod movement;
mod read;
mod repetition;
mod shieldwall;

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::{Clause, ClauseKind, File};
use std::ops::Range;

use super::error::{error_line, syntax_diagnostic, Recovery, MAX_SYNTAX_ERRORS};
use super::grammar::{Rule, TaflParser};
use crate::diagnostic::Diagnostic;
use crate::span::{Span, Spanned};
use read::{parse_number, parse_side, parse_string, span_of, Parts};

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
    let mut parts = Parts::of(pair);
    // Each reader takes exactly the children its grammar rule guarantees.
    let kind = match rule {
        // Declarations.
        Rule::name_clause => ClauseKind::Name(parse_string(parts.required())),
        Rule::source_clause => ClauseKind::Source(parse_string(parts.required())),
        Rule::family_clause => ClauseKind::Family(parse_string(parts.required())),
        Rule::note_clause => ClauseKind::Note(parse_string(parts.required())),
        Rule::board_clause => ClauseKind::Board {
            width: parse_number(parts.required()),
            height: parse_number(parts.required()),
        },
        Rule::side_name_clause => ClauseKind::SideName {
            side: parse_side(parts.required()),
            name: parse_string(parts.required()),
        },
        Rule::first_move_clause => ClauseKind::FirstMove(parse_side(parts.required())),
        Rule::piece_clause => declarations::piece(parts),
        Rule::region_clause => declarations::region(parts),
        Rule::setup_clause => declarations::setup(parts),
        // Movement and access.
        Rule::movement_clause => movement::movement(parts),
        Rule::access_clause => movement::access(parts),
        // Capture.
        Rule::armed_clause => capture::armed(parts),
        // Hostility.
        Rule::hostility_clause => hostility::hostility(parts),
        // Shieldwall.
        Rule::shieldwall_clause => shieldwall::shieldwall(parts),
        // King capture.
        Rule::king_capture_clause => king_capture::king_capture(parts),
        Rule::sandwich_clause => king_capture::sandwich(parts),
        // Jumps and berserk.
        Rule::jump_clause => jumps::jump(parts),
        Rule::berserk_clause => jumps::berserk(parts),
        // Reaching (escape), forts and decisive captures share the win clause.
        Rule::win_clause => ending::win(parts),
        Rule::announce_clause => ending::announce(parts),
        // Encirclement.
        Rule::encirclement_clause => encirclement::encirclement(parts),
        // Repetition and draws.
        Rule::side_loses_clause => repetition::side_loses(parts),
        Rule::no_moves_clause => ClauseKind::NoMovesLoses,
        Rule::repetition_loss_clause => repetition::repetition_loss(parts),
        Rule::draw_clause => repetition::draw(parts),
        Rule::back_and_forth_clause => ClauseKind::BackAndForth(parse_number(parts.required())),
        other => unreachable!("{other:?} is not a clause"),
    };
    Clause { kind, span }
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
        let (found, errors, broken) = kinds("bord many x 9\nattackers move first\n");
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
