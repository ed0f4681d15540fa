//! The hnefatafl crate's game corpora (github.com/bunburya/hnefatafl-rs,
//! `resources/test/games/*.csv`) and plain move lists.
//!
//! A corpus row is one game: `<plays separated by spaces>,<n>,<n>,<outcome>`. A play is `d1-d3`
//! with `x<square>` appended for every piece other than the king it captured; `timeout` may stand
//! as the last play. The outcome is `White` (the defenders won), `Black` (the attackers won),
//! `Draw`, `Ongoing` or empty. Lines starting with `#` are comments; the two numbers are not used.
//!
//! A move list is one game a paragraph (games are separated by blank lines): moves such as `c5c6`
//! or `d11-d10xe10`, optional move numbers (`1.`), and at the end `resigned` (the side to move
//! resigned) or `timeout` (the side to move ran out of time). `#` starts a comment.

use super::limits::MAX_LINE_BYTES;
use super::lines::{lines, Line, Lines, Locator};
use super::{
    GameRecord, RecordError, RecordErrorKind, RecordedMove, RecordedOutcome, RecordedResult,
};
use crate::span::Span;

/// Reads every row of a corpus file; a bad row is an error in its place and the others are read.
pub fn parse_csv(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    rows(text).collect()
}

/// The rows of a corpus file, read one at a time; a bad row is an error in its place and the
/// others are read.
pub fn rows(text: &str) -> Rows<'_> {
    Rows {
        lines: lines(text),
        locator: Locator::new(text),
    }
}

/// The iterator of [`rows`].
#[derive(Clone, Debug)]
pub struct Rows<'a> {
    lines: Lines<'a>,
    /// Every position is located through this one locator, in order: linear in the file.
    locator: Locator<'a>,
}

impl Iterator for Rows<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = self.lines.next()?;
            if line.text.len() > MAX_LINE_BYTES {
                let (kind, span) = RecordErrorKind::long_line(&line);
                return Some(Err(RecordError::located(kind, span, &mut self.locator)));
            }
            let row = line.text;
            if row.trim().is_empty() || row.trim_start().starts_with('#') {
                continue;
            }
            return Some(parse_row(&mut self.locator, row, line.start));
        }
    }
}

fn parse_row(
    locator: &mut Locator<'_>,
    row: &str,
    start: usize,
) -> Result<GameRecord, RecordError> {
    let columns: Vec<&str> = row.split(',').collect();
    let row_span = Span::new(start, start + row.len());
    if columns.len() != 4 {
        return Err(RecordError::located(
            RecordErrorKind::Columns {
                found: columns.len(),
            },
            row_span,
            locator,
        ));
    }
    let outcome_text = columns[3].trim();
    let outcome_start = start + row.len() - columns[3].len();
    let outcome_span = Span::new(outcome_start, start + row.len());
    let outcome = match outcome_text {
        "White" => Some(RecordedOutcome::DefendersWin),
        "Black" => Some(RecordedOutcome::AttackersWin),
        "Draw" => Some(RecordedOutcome::Draw),
        "Ongoing" => Some(RecordedOutcome::Ongoing),
        "" => None,
        other => {
            return Err(RecordError::located(
                RecordErrorKind::BadOutcome {
                    text: other.to_string(),
                },
                outcome_span,
                locator,
            ))
        }
    };
    let mut record = GameRecord {
        span: row_span,
        line: locator.locate(start).0,
        ..GameRecord::default()
    };
    let ended = read_moves(&mut record, locator, columns[0], start, true)?;
    record.tags.result = outcome.map(|outcome| RecordedResult {
        outcome,
        reason: ended,
    });
    record.tags.result_span = Some(outcome_span);
    Ok(record)
}

/// Reads the move words of `moves` (at byte `start` of the located text) into `record`; returns
/// the ending word (`timeout`, `resigned`) if one closes the game. `every_capture` says the
/// format writes every capture, so a move without `x` captured nothing.
fn read_moves(
    record: &mut GameRecord,
    locator: &mut Locator<'_>,
    moves: &str,
    start: usize,
    every_capture: bool,
) -> Result<Option<String>, RecordError> {
    let mut ended: Option<String> = None;
    let mut offset = 0;
    for word in moves.split_inclusive(char::is_whitespace) {
        let word_start = start + offset;
        offset += word.len();
        let bare = word.trim();
        if bare.is_empty() {
            continue;
        }
        let span = Span::new(word_start, word_start + bare.len());
        if let Some(end) = &ended {
            return Err(RecordError::located(
                RecordErrorKind::AfterEnd { word: end.clone() },
                span,
                locator,
            ));
        }
        let digits = bare.trim_end_matches('.');
        if digits.len() < bare.len() && digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if matches!(bare, "timeout" | "resigned") {
            ended = Some(bare.to_string());
            continue;
        }
        let mut recorded = RecordedMove::read(bare, span, locator)?;
        if every_capture && recorded.captures.is_none() {
            recorded.captures = Some(Vec::new());
        }
        record.moves.push(recorded);
    }
    Ok(ended)
}

/// Reads a file of move lists, one game a paragraph.
pub fn parse_move_lists(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    move_lists(text).collect()
}

/// The games of a file of move lists, one a paragraph, read one at a time.
pub fn move_lists(text: &str) -> MoveLists<'_> {
    MoveLists {
        text,
        lines: lines(text),
        locator: Locator::new(text),
    }
}

/// The iterator of [`move_lists`].
#[derive(Clone, Debug)]
pub struct MoveLists<'a> {
    text: &'a str,
    lines: Lines<'a>,
    locator: Locator<'a>,
}

impl Iterator for MoveLists<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        // The paragraph's lines, `#` comments cut off; its start; a line too long to read.
        let mut paragraph: Vec<(usize, &str)> = Vec::new();
        let mut start = None;
        let mut too_long: Option<Line<'_>> = None;
        let mut end = self.text.len();
        for raw in self.lines.by_ref() {
            if raw.text.len() > MAX_LINE_BYTES {
                // Its words cannot be read: the game it is in is refused.
                start.get_or_insert(raw.start);
                too_long.get_or_insert(raw);
                continue;
            }
            let line = raw.text.split('#').next().unwrap_or_default();
            if line.trim().is_empty() {
                // A blank line ends a game; a comment line does not.
                if raw.text.trim().is_empty() && start.is_some() {
                    end = raw.start;
                    break;
                }
                continue;
            }
            start.get_or_insert(raw.start);
            paragraph.push((raw.start, line));
        }
        let start = start?;
        if let Some(line) = too_long {
            let (kind, span) = RecordErrorKind::long_line(&line);
            return Some(Err(RecordError::located(kind, span, &mut self.locator)));
        }
        Some(move_list(&mut self.locator, start, end, &paragraph))
    }
}

fn move_list(
    locator: &mut Locator<'_>,
    start: usize,
    end: usize,
    lines: &[(usize, &str)],
) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord {
        span: Span::new(start, end),
        line: locator.locate(start).0,
        ..GameRecord::default()
    };
    let mut ended: Option<String> = None;
    for &(line_start, line) in lines {
        if let Some(end) = &ended {
            let word = line.split_whitespace().next().unwrap_or_default();
            let at = line_start + line.find(word).unwrap_or(0);
            return Err(RecordError::located(
                RecordErrorKind::AfterEnd { word: end.clone() },
                Span::new(at, at + word.len()),
                locator,
            ));
        }
        ended = read_moves(&mut record, locator, line, line_start, false)?;
    }
    if let Some(word) = ended {
        record.tags.result = Some(RecordedResult {
            outcome: RecordedOutcome::SideToMoveLoses,
            reason: Some(word),
        });
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_rows_read_with_their_outcomes() {
        let text =
            "# a comment\nd1-d3 e2-f2xf3xf3 timeout,0,0,White\nd1-d3,1,2,\n\nb4-b3,0,0,Black\n";
        let games = parse_csv(text);
        assert_eq!(games.len(), 3);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.moves.len(), 2);
        assert_eq!(first.moves[0].captures, Some(Vec::new()));
        assert_eq!(first.moves[1].captures.as_ref().unwrap().len(), 2);
        let result = first.tags.result.as_ref().unwrap();
        assert_eq!(result.outcome, RecordedOutcome::DefendersWin);
        assert_eq!(result.reason.as_deref(), Some("timeout"));
        assert_eq!(first.line, 2);
        assert_eq!(games[1].as_ref().unwrap().tags.result, None);
        assert_eq!(
            games[2]
                .as_ref()
                .unwrap()
                .tags
                .result
                .as_ref()
                .unwrap()
                .outcome,
            RecordedOutcome::AttackersWin
        );
    }

    #[test]
    fn a_bad_row_does_not_stop_the_others() {
        let games = parse_csv("d1-d3,0,0,Blue\nd1-d9 zz,0,0,White\nd1\nd1-d3,0,0,Draw\n");
        let error = games[0].as_ref().unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::BadOutcome { .. }));
        assert_eq!((error.line, error.column), (1, 11));
        let error = games[1].as_ref().unwrap_err();
        assert_eq!((error.line, error.column), (2, 7));
        assert!(matches!(
            games[2].as_ref().unwrap_err().kind,
            RecordErrorKind::Columns { found: 1 }
        ));
        assert!(games[3].is_ok());
        let games = parse_csv("timeout d1-d2,0,0,White\n");
        let error = &games[0].as_ref().unwrap_err().kind;
        assert!(matches!(error, RecordErrorKind::AfterEnd { .. }));
    }

    /// Every move's line and column is found by walking the file once in all, not from its
    /// start for every move (7,000 games took 40 s that way).
    #[test]
    fn reading_many_games_walks_the_file_once() {
        let text = "d1-d3 e5-e2 g1-g3 timeout,0,0,White\n".repeat(3_000);
        let mut read = rows(&text);
        assert_eq!(read.by_ref().filter(Result::is_ok).count(), 3_000);
        assert!(
            read.locator.walked() <= text.len(),
            "{}",
            read.locator.walked()
        );
        let text = "1. d1-d3 e5-e2\n2. g1-g3 zz\n\n".repeat(3_000);
        let mut read = move_lists(&text);
        assert_eq!(read.by_ref().filter(Result::is_err).count(), 3_000);
        assert!(
            read.locator.walked() <= text.len(),
            "{}",
            read.locator.walked()
        );
    }

    #[test]
    fn move_lists_are_paragraphs() {
        let games =
            parse_move_lists("# game one\n1. c5c6 d11-d10xe10\n2. a1-a2\nresigned\n\n\ne1-e2\n");
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.moves.len(), 3);
        assert_eq!(first.moves[0].captures, None);
        assert_eq!(
            first.tags.result.as_ref().unwrap().outcome,
            RecordedOutcome::SideToMoveLoses
        );
        assert_eq!(games[1].as_ref().unwrap().line, 7);
        let games = parse_move_lists("e1-e2 timeout\ne2-e3\n");
        assert!(matches!(
            games[0].as_ref().unwrap_err().kind,
            RecordErrorKind::AfterEnd { .. }
        ));
    }
}
