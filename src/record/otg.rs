//! OpenTafl's game records (`.otg`), as its notation document describes them
//! (`opentafl-notation-spec.txt` in github.com/jslater89/OpenTafl, "4. Game Records"):
//!
//! ```text
//! [event:Grandmasters' Tournament 2015]
//! [attackers:Tim Millar]
//! [result:-1]
//! [rules:dim:11 atkf:y sw:s efe:y start:/3ttttt3/.../]
//!
//! 1. d1-d3 h6-h9
//! [comment on d1-d3|comment on h6-h9]
//! 2. k4-i4 f8-c8
//! ```
//!
//! Tags are `[name:value]` (a value may run over several lines, as OpenTafl's `start-comment`
//! does); the rules tag comes last. Turns are numbered `1.`; a bracketed block after a turn holds
//! one comment per move, separated by `|`. Variations (turns numbered like `12b.1.1a.`) are side
//! lines, not the game: they are skipped. Moves may carry OpenTafl's piece letters (`Ke5-e1`),
//! jump marks (`^`, `=`), captures (`xe4/f5`) and check marks (`+`, `--`); `---` is a
//! resignation. `result` is `1` (the attackers won), `-1` (the defenders won), `0` (a draw) or `?`.
//!
//! Each tag may be given once. [`check::replay`](super::check::replay) compares the `rules` tag's
//! board (`dim`, `start`) with the variant's, as the native format's `rules:` hash is compared.

use std::collections::HashSet;

use super::lines::{content_start, Locator};
use super::{
    limits, GameRecord, RecordError, RecordErrorKind, RecordedMove, RecordedOutcome,
    RecordedResult, Tags,
};
use crate::record::native::WrittenPly;
use crate::span::Span;

/// Reads an OpenTafl game record; only the principal line of play is kept.
///
/// # Errors
/// [`RecordError`] at a word that is not a move, a bracket never closed, or a tag that is not
/// `[name:value]`.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord {
        span: Span::new(0, text.len()),
        line: 1,
        ..GameRecord::default()
    };
    // An error ends the reading: locating it from the start once costs no more than the read.
    let error = |kind, span: Span| RecordError::at(kind, span, text);
    if text.trim().is_empty() {
        return Err(error(RecordErrorKind::Empty, Span::new(0, text.len())));
    }
    if let Some(line) = limits::long_line(text) {
        let (kind, span) = RecordErrorKind::long_line(&line);
        return Err(error(kind, span));
    }
    // The moves are located in order, through one locator: linear in the file.
    let mut locator = Locator::new(text);
    // The tags read so far: a tag given twice is refused, not silently replaced.
    let mut seen: HashSet<&str> = HashSet::new();
    let bytes = text.as_bytes();
    let mut in_moves = false;
    let mut in_variation = false;
    let mut turn_start = 0;
    let mut i = content_start(text);
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'[' => {
                let close = text[i..].find(']').ok_or_else(|| {
                    error(RecordErrorKind::Unclosed { open: '[' }, Span::new(i, i + 1))
                })?;
                let inside = &text[i + 1..i + close];
                if !in_moves {
                    // A tag may run over lines; the label stays on its first.
                    let first_line = inside.find(['\n', '\r']).map_or(close + 1, |n| n + 1);
                    let span = Span::new(i, i + first_line);
                    let name = tag(&mut record.tags, inside).ok_or_else(|| {
                        error(
                            RecordErrorKind::BadTag {
                                text: limits::quoted(inside),
                            },
                            span,
                        )
                    })?;
                    if !seen.insert(name) {
                        return Err(error(
                            RecordErrorKind::DuplicateTag {
                                name: name.to_string(),
                            },
                            span,
                        ));
                    }
                } else if !in_variation {
                    for (moved, comment) in
                        record.moves[turn_start..].iter_mut().zip(inside.split('|'))
                    {
                        let comment = comment.trim();
                        if !comment.is_empty() {
                            moved.comment = Some(comment.to_string());
                        }
                    }
                }
                i += close + 1;
            }
            b']' => {
                return Err(error(
                    RecordErrorKind::Unopened { close: ']' },
                    Span::new(i, i + 1),
                ))
            }
            _ => {
                let end = text[i..]
                    .find(|c: char| c.is_whitespace() || c == '[' || c == ']')
                    .map_or(text.len(), |n| i + n);
                let word = &text[i..end];
                let span = Span::new(i, end);
                i = end;
                if let Some(principal) = turn_number(word) {
                    in_moves = true;
                    in_variation = !principal;
                    turn_start = record.moves.len();
                    continue;
                }
                if in_variation || word.bytes().all(|b| b == b'.') {
                    continue;
                }
                if word == "---" {
                    // A resignation by the side to move; the result tag says who won.
                    continue;
                }
                in_moves = true;
                record
                    .moves
                    .push(RecordedMove::read(word, span, &mut locator)?);
            }
        }
    }
    Ok(record)
}

/// `Some(true)` for a turn number of the principal line (`12.`), `Some(false)` for a variation's
/// (`12b.1.1a.`), `None` for anything else.
fn turn_number(word: &str) -> Option<bool> {
    let first = word.chars().next()?;
    if !first.is_ascii_digit() || !word.ends_with('.') || word.bytes().all(|b| b == b'.') {
        return None;
    }
    let digits = word.trim_end_matches('.');
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some(true);
    }
    // A variation address: digits, letters and dots only, starting with a digit.
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.')
        .then_some(false)
}

/// Reads one `name:value` tag into `tags` and returns its name; `None` when it is not a tag.
fn tag<'a>(tags: &mut Tags, inside: &'a str) -> Option<&'a str> {
    let (name, value) = inside.split_once(':')?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return None;
    }
    let value = value.trim().to_string();
    match name {
        "rules" => tags.opentafl_rules = Some(value),
        "variant" => tags.variant = Some(value),
        "attackers" => tags.attackers = Some(value),
        "defenders" => tags.defenders = Some(value),
        "date" => tags.date = Some(value),
        "event" => tags.event = Some(value),
        "site" => tags.site = Some(value),
        "result" => {
            let outcome = match value.as_str() {
                "1" => RecordedOutcome::AttackersWin,
                "-1" => RecordedOutcome::DefendersWin,
                "0" => RecordedOutcome::Draw,
                _ => RecordedOutcome::Ongoing,
            };
            tags.result = Some(RecordedResult {
                outcome,
                reason: None,
            });
        }
        other => tags.other.push((other.to_string(), value)),
    }
    Some(name)
}

/// Writes an OpenTafl game record: the tags that are set (`rules_string` last, as the notation
/// requires), then one numbered turn per line with captures as `xd4/e5` and the moves' comments
/// in brackets below it.
pub fn write(tags: &Tags, rules_string: &str, plies: &[WrittenPly]) -> String {
    let mut text = String::new();
    let result = tags.result.as_ref().map(|r| match r.outcome {
        RecordedOutcome::AttackersWin => "1",
        RecordedOutcome::DefendersWin => "-1",
        RecordedOutcome::Draw => "0",
        RecordedOutcome::Ongoing | RecordedOutcome::SideToMoveLoses => "?",
    });
    let fields = [
        ("event", tags.event.as_deref()),
        ("site", tags.site.as_deref()),
        ("date", tags.date.as_deref()),
        ("attackers", tags.attackers.as_deref()),
        ("defenders", tags.defenders.as_deref()),
        ("result", result),
        ("variant", tags.variant.as_deref()),
    ];
    let mut tag_line = |name: &str, value: &str| {
        // A `]` would end the tag early.
        text.push_str(&format!("[{name}:{}]\n", value.replace(']', ")")));
    };
    for (name, value) in fields {
        if let Some(value) = value {
            tag_line(name, value);
        }
    }
    for (name, value) in &tags.other {
        tag_line(name, value);
    }
    tag_line("rules", rules_string);
    text.push('\n');
    // One OpenTafl turn is a turn of each side; a berserk side turn is several moves.
    let mut side_turns: Vec<Vec<&WrittenPly>> = Vec::new();
    for ply in plies {
        match side_turns.last_mut() {
            Some(turn) if turn[0].mover == ply.mover => turn.push(ply),
            _ => side_turns.push(vec![ply]),
        }
    }
    for (n, pair) in side_turns.chunks(2).enumerate() {
        let moves: Vec<&WrittenPly> = pair.iter().flatten().copied().collect();
        let words: Vec<String> = moves.iter().map(|ply| move_word(ply)).collect();
        text.push_str(&format!("{}. {}\n", n + 1, words.join(" ")));
        if moves.iter().any(|ply| ply.comment.is_some()) {
            let comments: Vec<String> = moves
                .iter()
                .map(|ply| {
                    ply.comment
                        .as_deref()
                        .unwrap_or_default()
                        .replace(['[', ']', '|'], " ")
                })
                .collect();
            text.push_str(&format!("[{}]\n", comments.join("|")));
        }
    }
    text
}

fn move_word(ply: &WrittenPly) -> String {
    let mut word = ply.mv.to_string();
    if !ply.captures.is_empty() {
        let squares: Vec<String> = ply.captures.iter().map(ToString::to_string).collect();
        word.push_str(&format!("x{}", squares.join("/")));
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[date:2015.01.07]\n[event:Test]\n[result:-1]\n[start-comment:two\nlines]\n\
        [rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n\
        1. d1-d3 Kd4-d2xc2/e2 \n[first|second]\n\n\
        2. a1-a2\n2a.1.1a. ..... b1-b2\n[ignored]\n3. b2-b3 ---\n";

    #[test]
    fn tags_moves_comments_and_variations() {
        let record = parse(GAME).unwrap();
        assert_eq!(record.tags.date.as_deref(), Some("2015.01.07"));
        assert_eq!(
            record.tags.result.as_ref().unwrap().outcome,
            RecordedOutcome::DefendersWin
        );
        assert!(record
            .tags
            .opentafl_rules
            .as_deref()
            .unwrap()
            .starts_with("dim:7"));
        assert_eq!(
            record.tags.other,
            [("start-comment".to_string(), "two\nlines".to_string())]
        );
        let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["d1-d3", "d4-d2", "a1-a2", "b2-b3"]);
        assert_eq!(record.moves[1].captures.as_ref().unwrap().len(), 2);
        assert_eq!(record.moves[1].comment.as_deref(), Some("second"));
        assert_eq!(record.moves[2].comment, None);
    }

    #[test]
    fn bad_records_say_where() {
        let error = parse("[rules:dim:7\n1. a1-a2").unwrap_err();
        assert_eq!(error.kind, RecordErrorKind::Unclosed { open: '[' });
        let error = parse("[no colon]\n").unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::BadTag { .. }));
        let error = parse("[rules:dim:7]\n\n1. a1-a2 zz\n").unwrap_err();
        assert_eq!((error.line, error.column), (3, 10));
        let error = parse("[date:1]\n[event:x]\n[date:2]\n").unwrap_err();
        let name = "date".to_string();
        assert_eq!(error.kind, RecordErrorKind::DuplicateTag { name });
        assert_eq!(error.line, 3);
    }
}
