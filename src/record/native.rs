//! This toolkit's own game record (docs/records.md): plain text a person can read and edit.
//!
//! ```text
//! # A tafl game record. Lines starting with # are comments.
//! variant: linnaeus
//! rules: fnv1a64:297108abaf4c7ff5
//! attackers: Ann
//! defenders: Bo
//! date: 2026-11-25
//! result: defenders_win (king_escaped)
//!
//! 1. a4-a3 e7-h7
//! 2. a3-a2 e6-c6xc7 {the first capture}
//! 3. (e5-e7 e7-g7) a2-a1
//! ```
//!
//! A line whose first word ends in `:` is a field; every other word is a move, read in order.
//! Move numbers (`1.`, `12...`) are optional and skipped; parentheses group the moves of one
//! berserk turn for the reader only; `xSQUARE` after a move lists what it captured; `{...}` after
//! a move is its comment; `#` starts a comment that runs to the end of the line. A line ends at
//! `\n`, `\r\n` or a lone `\r`; a byte-order mark opening the file is skipped.

use super::lines::{content_start, Locator};
use super::{
    limits, GameRecord, RecordError, RecordErrorKind, RecordedMove, RecordedOutcome,
    RecordedResult, Tags,
};
use crate::engine::Move;
use crate::ir::{Side, Square};
use crate::span::Span;

/// Whether `line` (trimmed) is a `key: value` field line.
pub fn is_tag_line(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .and_then(|word| word.split_once(':'))
        .is_some_and(|(key, _)| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
        })
}

/// Reads a native record.
///
/// # Errors
/// [`RecordError`] at the first word that is not a move, an unknown or repeated field, a result
/// that is not a result, or an unclosed comment.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord {
        span: Span::new(0, text.len()),
        line: 1,
        ..GameRecord::default()
    };
    // An error ends the reading: locating it from the start once costs no more than the read.
    let error = |kind, span: Span| RecordError::at(kind, span, text);
    if let Some(line) = limits::long_line(text) {
        let (kind, span) = RecordErrorKind::long_line(&line);
        return Err(error(kind, span));
    }
    // The moves are located in order, through one locator: linear in the file.
    let mut locator = Locator::new(text);
    let bytes = text.as_bytes();
    let mut seen: Vec<String> = Vec::new();
    let mut i = content_start(text);
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            // A lone `\r` ends a line too (old Mac files).
            b'\n' | b'\r' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' => i += 1,
            b'#' => i = end_of_line(text, i),
            b'{' => {
                let close = text[i..].find('}').ok_or_else(|| {
                    error(RecordErrorKind::Unclosed { open: '{' }, Span::new(i, i + 1))
                })?;
                let comment = text[i + 1..i + close].trim().to_string();
                match record.moves.last_mut() {
                    Some(last) => last.comment = Some(comment),
                    None => record.tags.other.push(("comment".to_string(), comment)),
                }
                i += close + 1;
                line_start = false;
            }
            b'}' => {
                return Err(error(
                    RecordErrorKind::Unopened { close: '}' },
                    Span::new(i, i + 1),
                ))
            }
            _ => {
                let end = text[i..]
                    .find(|c: char| c.is_whitespace() || c == '{' || c == '}' || c == '#')
                    .map_or(text.len(), |n| i + n);
                let word = &text[i..end];
                if line_start && is_tag_line(word) {
                    let stop = end_of_line(text, i);
                    field(&mut record, text, Span::new(i, stop), &mut seen)?;
                    i = stop;
                } else {
                    read_word(&mut record, &mut locator, word, Span::new(i, end))?;
                    i = end;
                }
                line_start = false;
            }
        }
    }
    Ok(record)
}

/// The offset of the end of the line that `i` is on (its `\n` or `\r`).
fn end_of_line(text: &str, i: usize) -> usize {
    text[i..].find(['\n', '\r']).map_or(text.len(), |n| i + n)
}

/// Reads a `key: value` line at `span`, `#` comments removed.
fn field(
    record: &mut GameRecord,
    text: &str,
    span: Span,
    seen: &mut Vec<String>,
) -> Result<(), RecordError> {
    let line = &text[span.start..span.end];
    let line = line.split('#').next().unwrap_or_default();
    // `is_tag_line` found the colon.
    let (key, value) = line.split_once(':').unwrap_or((line, ""));
    let key_span = Span::new(span.start, span.start + key.len());
    let value = value.trim().to_string();
    if seen.iter().any(|k| k == key) {
        return Err(RecordError::at(
            RecordErrorKind::DuplicateField {
                key: key.to_string(),
            },
            key_span,
            text,
        ));
    }
    seen.push(key.to_string());
    let tags = &mut record.tags;
    match key {
        "variant" => tags.variant = Some(value),
        "rules" => tags.rules_hash = Some(value),
        "attackers" => tags.attackers = Some(value),
        "defenders" => tags.defenders = Some(value),
        "date" => tags.date = Some(value),
        "event" => tags.event = Some(value),
        "site" => tags.site = Some(value),
        "result" => {
            let value_start = span.start + key.len() + 1;
            let value_span = Span::new(value_start, span.start + line.trim_end().len());
            tags.result = Some(parse_result(&value).ok_or_else(|| {
                RecordError::at(
                    RecordErrorKind::BadResult {
                        text: value.clone(),
                    },
                    value_span,
                    text,
                )
            })?);
            tags.result_span = Some(value_span);
        }
        other => {
            return Err(RecordError::at(
                RecordErrorKind::UnknownField {
                    key: other.to_string(),
                },
                key_span,
                text,
            ))
        }
    }
    Ok(())
}

/// `defenders_win (king_escaped)`, `draw`, `ongoing`.
pub fn parse_result(text: &str) -> Option<RecordedResult> {
    let (word, reason) = match text.split_once('(') {
        Some((word, rest)) => {
            let reason = rest.strip_suffix(')')?.trim();
            if reason.is_empty() || reason.contains(['(', ')']) {
                return None;
            }
            (word.trim(), Some(reason.to_string()))
        }
        None => (text.trim(), None),
    };
    Some(RecordedResult {
        outcome: RecordedOutcome::from_word(word)?,
        reason,
    })
}

/// One word among the moves: a move number, a move, or a move in berserk parentheses.
fn read_word(
    record: &mut GameRecord,
    locator: &mut Locator<'_>,
    word: &str,
    span: Span,
) -> Result<(), RecordError> {
    let bare = word.trim_start_matches('(').trim_end_matches(')');
    if bare.is_empty() {
        return Ok(());
    }
    // A move number: digits followed by one or more dots, or the dots alone.
    let digits = bare.trim_end_matches('.');
    if digits.len() < bare.len() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    let start = span.start + (word.len() - word.trim_start_matches('(').len());
    let bare_span = Span::new(start, start + bare.len());
    record
        .moves
        .push(RecordedMove::read(bare, bare_span, locator)?);
    Ok(())
}

/// One ply for [`write`]: the move, who made it, what it captured and a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenPly {
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub mover: Side,
    /// The squares of the pieces it captured.
    pub captures: Vec<Square>,
    /// A comment to write after it.
    pub comment: Option<String>,
}

impl WrittenPly {
    /// The plies of a game, with their captures.
    pub fn of_game(game: &crate::Game) -> Vec<WrittenPly> {
        game.plies()
            .iter()
            .map(|ply| WrittenPly {
                mv: ply.mv,
                mover: ply.mover,
                captures: ply.captured.clone(),
                comment: None,
            })
            .collect()
    }
}

/// Writes a native record: a header comment, the fields that are set, then one numbered line per
/// turn of each side, captures as `xSQUARE` and a berserk turn of several moves in parentheses.
pub fn write(tags: &Tags, plies: &[WrittenPly]) -> String {
    let mut text = String::from(
        "# A tafl game record (docs/records.md). Lines starting with # are comments.\n",
    );
    let result = tags.result.as_ref().map(RecordedResult::to_native);
    let fields = [
        ("variant", tags.variant.as_deref()),
        ("rules", tags.rules_hash.as_deref()),
        ("attackers", tags.attackers.as_deref()),
        ("defenders", tags.defenders.as_deref()),
        ("date", tags.date.as_deref()),
        ("event", tags.event.as_deref()),
        ("site", tags.site.as_deref()),
        ("result", result.as_deref()),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            // A field is one line: a newline in a value would start a move line.
            let value = value.replace(['\n', '\r'], " ");
            text.push_str(&format!("{key}: {value}\n"));
        }
    }
    text.push('\n');
    let mut turns: Vec<Vec<String>> = Vec::new();
    let mut last = None;
    for ply in plies {
        let mut word = ply.mv.to_string();
        for square in &ply.captures {
            word.push_str(&format!("x{square}"));
        }
        if let Some(comment) = &ply.comment {
            word.push_str(&format!(" {{{}}}", comment.replace(['{', '}'], "")));
        }
        match turns.last_mut() {
            Some(turn) if last == Some(ply.mover) => turn.push(word),
            _ => turns.push(vec![word]),
        }
        last = Some(ply.mover);
    }
    let written: Vec<String> = turns
        .iter()
        .map(|turn| match turn.as_slice() {
            [one] => one.clone(),
            _ => format!("({})", turn.join(" ")),
        })
        .collect();
    for (i, pair) in written.chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(mv: &str, mover: Side) -> WrittenPly {
        WrittenPly {
            mv: mv.parse().unwrap(),
            mover,
            captures: Vec::new(),
            comment: None,
        }
    }

    #[test]
    fn a_written_record_reads_back() {
        let mut plies = vec![
            ply("a4-a3", Side::Attackers),
            ply("e7-h7", Side::Defenders),
            ply("a3-a2", Side::Attackers),
        ];
        plies[1].captures = vec!["h8".parse().unwrap(), "g7".parse().unwrap()];
        plies[2].comment = Some("a quiet move".to_string());
        let tags = Tags {
            variant: Some("linnaeus".to_string()),
            attackers: Some("Ann".to_string()),
            result: parse_result("ongoing"),
            ..Tags::default()
        };
        let text = write(&tags, &plies);
        let record = parse(&text).unwrap();
        assert_eq!(record.tags.variant.as_deref(), Some("linnaeus"));
        assert_eq!(record.tags.attackers.as_deref(), Some("Ann"));
        assert_eq!(record.tags.result, parse_result("ongoing"));
        let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["a4-a3", "e7-h7", "a3-a2"]);
        assert_eq!(record.moves[1].captures.as_ref().unwrap().len(), 2);
        assert_eq!(record.moves[0].captures, None);
        assert_eq!(record.moves[2].comment.as_deref(), Some("a quiet move"));
        assert_eq!(record.moves[2].line, 7);
    }

    #[test]
    fn a_berserk_turn_is_one_parenthesised_turn_and_reads_back() {
        let plies = vec![
            ply("a4-a3", Side::Attackers),
            ply("e7-e5", Side::Defenders),
            ply("e5-c5", Side::Defenders),
            ply("a3-a2", Side::Attackers),
        ];
        let text = write(&Tags::default(), &plies);
        assert!(
            text.contains("1. a4-a3 (e7-e5 e5-c5)\n2. a3-a2\n"),
            "{text}"
        );
        let record = parse(&text).unwrap();
        assert_eq!(record.moves.len(), 4);
    }

    #[test]
    fn bad_records_are_errors_with_line_and_column() {
        let error = parse("variant: linnaeus\n\n1. a4-a3 e7h7 e4\n").unwrap_err();
        assert_eq!(error.kind, RecordErrorKind::NotAMove { word: "e4".into() });
        assert_eq!((error.line, error.column), (3, 15));
        let error = parse("colour: red\n").unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::UnknownField { .. }));
        assert_eq!(error.line, 1);
        let error = parse("result: won\n").unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::BadResult { .. }));
        assert_eq!((error.line, error.column), (1, 8));
        let error = parse("variant: a\nvariant: b\n").unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::DuplicateField { .. }));
        let error = parse("1. a1-a2 {never closed\n").unwrap_err();
        assert_eq!(error.kind, RecordErrorKind::Unclosed { open: '{' });
        let loose = parse("a4a3 e7-h7 # a comment\n12... a3-a2 {multi\nline}").unwrap();
        assert_eq!(loose.moves.len(), 3);
        assert_eq!(loose.moves[2].comment.as_deref(), Some("multi\nline"));
    }
}
