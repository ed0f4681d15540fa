//! Game records: games as people write them down, read into one shape and checked against a
//! variant's rules.
//!
//! Five formats are read, each into [`GameRecord`]s:
//!
//! - [`Format::Native`], this toolkit's own record (docs/records.md): tags such as
//!   `variant: copenhagen`, then numbered moves with their captures (`1. d1-d3xd4 h6-h9`);
//!   [`native::write`] writes it and `tafl play`'s `save`/`load` use it.
//! - [`Format::OpenTafl`], OpenTafl's `.otg` game records (its notation document,
//!   `opentafl-notation-spec.txt` in github.com/jslater89/OpenTafl): `[tag:value]` lines, numbered
//!   turns and bracketed commentary; [`otg::write`] writes them.
//! - [`Format::Csv`], the rows of the hnefatafl crate's game corpora
//!   (github.com/bunburya/hnefatafl-rs, `resources/test/games/`): one game a row.
//! - [`Format::MoveList`], plain move lists (`c5c6 d11-d10xe10 resigned`), one game a paragraph.
//! - [`Format::Site`], the game records of aagenielsen.dk as published in JSON, one game a file
//!   ([`site`]).
//!
//! Reading never panics: a problem is a [`RecordError`] with its line and column, and a file of
//! many games reports a bad game without losing the others. [`games`] reads a file's games one
//! at a time, in time linear in its size, so a file of any number of games is read in the
//! memory of one; lines longer than [`limits::MAX_LINE_BYTES`] are refused. A line ends at
//! `\n`, `\r\n` or a lone `\r`, and a byte-order mark opening the file is skipped
//! ([`lines`]). [`check::replay`] plays a record through a [`crate::Game`] and says where it
//! first disagrees with the rules.
//!
//! ```
//! use tafl::record::{parse, Format};
//! let games = parse("variant: linnaeus\n\n1. a4-a3 e7-h7\n", Format::Native);
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.tags.variant.as_deref(), Some("linnaeus"));
//! assert_eq!(game.moves.len(), 2);
//! ```

pub mod check;
pub mod csv;
pub mod limits;
pub mod lines;
pub mod native;
pub mod otg;
pub mod site;

pub use lines::line_column;

use std::fmt;

use crate::engine::Move;
use crate::ir::{Rules, Square};
use crate::span::Span;

/// The formats a record file may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// This toolkit's own record (docs/records.md).
    Native,
    /// OpenTafl's `.otg` game record.
    OpenTafl,
    /// The hnefatafl crate's corpus rows: `<plays>,<n>,<n>,<outcome>`.
    Csv,
    /// Plain move lists, one game a paragraph.
    MoveList,
    /// The game records of aagenielsen.dk, one JSON object a game ([`site`]).
    Site,
}

impl Format {
    /// The name used on the command line and in JSON (`native`, `otg`, `csv`, `moves`,
    /// `aagenielsen`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::OpenTafl => "otg",
            Format::Csv => "csv",
            Format::MoveList => "moves",
            Format::Site => "aagenielsen",
        }
    }

    /// Guesses a file's format from its name's extension, then from its content: `.otg` or a
    /// first line starting with `[` is OpenTafl; `.csv` or rows ending in an outcome column are
    /// CSV; a JSON object naming the site's game type is the site's; a `key: value` line is
    /// native; anything else is a move list.
    pub fn detect(path: Option<&str>, text: &str) -> Format {
        let extension = path
            .and_then(|p| p.rsplit_once('.'))
            .map(|(_, ext)| ext.to_ascii_lowercase());
        match extension.as_deref() {
            Some("otg") => return Format::OpenTafl,
            Some("csv") => return Format::Csv,
            _ => {}
        }
        if site::looks_like(text) {
            return Format::Site;
        }
        let first = lines::lines(text)
            .map(|l| l.text.trim())
            .find(|l| !l.is_empty() && !l.starts_with('#'));
        match first {
            Some(line) if line.starts_with('[') => Format::OpenTafl,
            Some(line) if line.contains(',') => Format::Csv,
            Some(line) if native::is_tag_line(line) => Format::Native,
            _ if lines::lines(text).any(|l| native::is_tag_line(l.text.trim())) => Format::Native,
            _ => Format::MoveList,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game as written in a record, before its moves are checked against any rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// The tags: variant, players, date, result and the rest.
    pub tags: Tags,
    /// The moves in the order played (a berserk turn's moves one after the other).
    pub moves: Vec<RecordedMove>,
    /// Where the game's text is in the file.
    pub span: Span,
    /// The game's first line (1-based).
    pub line: usize,
}

/// What a record says about its game besides the moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    /// The variant: a bundled name or a variant file.
    pub variant: Option<String>,
    /// The hash of the rules the game was played under ([`rules_hash`]), as written.
    pub rules_hash: Option<String>,
    /// OpenTafl's rules string, for `.otg` records.
    pub opentafl_rules: Option<String>,
    /// The attackers' player.
    pub attackers: Option<String>,
    /// The defenders' player.
    pub defenders: Option<String>,
    /// When the game was played, as written.
    pub date: Option<String>,
    /// The tournament or match.
    pub event: Option<String>,
    /// Where it was played (a place or a site).
    pub site: Option<String>,
    /// The result as written.
    pub result: Option<RecordedResult>,
    /// Where the result is written, to point at it.
    pub result_span: Option<Span>,
    /// Tags this toolkit does not interpret, in the order read (`round`, `annotator`, ...).
    pub other: Vec<(String, String)>,
}

/// A result as a record states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedResult {
    /// Who won, or that the record leaves the game unfinished.
    pub outcome: RecordedOutcome,
    /// How it ended, as written (`king_escaped`, `resignation`, `timeout`), if the record says.
    pub reason: Option<String>,
}

impl RecordedResult {
    /// The result as the native format writes it: `defenders_win (king_escaped)`.
    pub fn to_native(&self) -> String {
        match &self.reason {
            Some(reason) => format!("{} ({reason})", self.outcome.as_str()),
            None => self.outcome.as_str().to_string(),
        }
    }
}

/// Who won, as a record states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordedOutcome {
    /// The attackers won.
    AttackersWin,
    /// The defenders won.
    DefendersWin,
    /// Drawn.
    Draw,
    /// Not finished, or the record does not say.
    Ongoing,
    /// The side to move lost without a move: it resigned or ran out of time (a move list's
    /// `resigned` or `timeout`). Who that is, replaying the moves says.
    SideToMoveLoses,
}

impl RecordedOutcome {
    /// `attackers_win`, `defenders_win`, `draw` or `ongoing`, the words of [`crate::Status`].
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordedOutcome::AttackersWin => "attackers_win",
            RecordedOutcome::DefendersWin => "defenders_win",
            RecordedOutcome::Draw => "draw",
            RecordedOutcome::Ongoing => "ongoing",
            RecordedOutcome::SideToMoveLoses => "side_to_move_loses",
        }
    }

    /// Reads a status word (`attackers_win`, `defenders_win`, `draw`, `ongoing`).
    pub fn from_word(word: &str) -> Option<RecordedOutcome> {
        [
            RecordedOutcome::AttackersWin,
            RecordedOutcome::DefendersWin,
            RecordedOutcome::Draw,
            RecordedOutcome::Ongoing,
        ]
        .into_iter()
        .find(|o| o.as_str() == word)
    }

    /// The outcome of a game's status.
    pub const fn of(status: crate::Status) -> RecordedOutcome {
        match status {
            crate::Status::Ongoing => RecordedOutcome::Ongoing,
            crate::Status::AttackersWin => RecordedOutcome::AttackersWin,
            crate::Status::DefendersWin => RecordedOutcome::DefendersWin,
            crate::Status::Draw => RecordedOutcome::Draw,
        }
    }
}

/// One move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// The squares the record says it captured, when the format writes captures: `None` when
    /// the record does not say (a move written without `x` in a format where captures are
    /// optional). Kings may be left out: a king's capture is the end of the game.
    pub captures: Option<Vec<Square>>,
    /// The comment written after it, if any.
    pub comment: Option<String>,
    /// Where the move is written.
    pub span: Span,
    /// Its line and column (1-based).
    pub line: usize,
    /// Its column (1-based, in characters).
    pub column: usize,
}

impl RecordedMove {
    /// The move written as `word` at `span` (found by `locator`), with the captures the word
    /// writes (`None` when it writes no `x`: each format says what that means) and no comment;
    /// a word that is no move is an error pointing at it.
    pub fn read(
        word: &str,
        span: Span,
        locator: &mut lines::Locator<'_>,
    ) -> Result<RecordedMove, RecordError> {
        let Some((mv, captures)) = read_move_word(word) else {
            let kind = RecordErrorKind::NotAMove {
                word: word.to_string(),
            };
            return Err(RecordError::located(kind, span, locator));
        };
        let (line, column) = locator.locate(span.start);
        Ok(RecordedMove {
            mv,
            captures,
            comment: None,
            span,
            line,
            column,
        })
    }
}

/// Why a record, or one game of it, could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("line {line}, column {column}: {kind}")]
pub struct RecordError {
    /// What is wrong.
    pub kind: RecordErrorKind,
    /// Where, as a byte range of the file.
    #[label("here")]
    pub span: Span,
    /// The line (1-based).
    pub line: usize,
    /// The column (1-based, in characters).
    pub column: usize,
}

impl RecordError {
    /// An error of `kind` at `span` of `text`. This walks `text` from its start: a reader of
    /// many games uses [`RecordError::located`].
    pub fn at(kind: RecordErrorKind, span: Span, text: &str) -> RecordError {
        RecordError::located(kind, span, &mut lines::Locator::new(text))
    }

    /// An error of `kind` at `span` of the text `locator` walks.
    pub fn located(
        kind: RecordErrorKind,
        span: Span,
        locator: &mut lines::Locator<'_>,
    ) -> RecordError {
        let (line, column) = locator.locate(span.start);
        RecordError {
            kind,
            span,
            line,
            column,
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordErrorKind {
    /// A word where a move was expected that is not one.
    #[error(
        "`{}` is not a move: write two squares like `e1-e3`, with captures as `xe4`",
        limits::quoted(.word)
    )]
    NotAMove {
        /// The word.
        word: String,
    },
    /// A `key: value` line with a key the format does not have.
    #[error("unknown field `{}:` (a record has `variant:`, `rules:`, `attackers:`, `defenders:`, `date:`, `event:`, `site:`, `result:` and moves)", limits::quoted(.key))]
    UnknownField {
        /// The key.
        key: String,
    },
    /// A field given twice.
    #[error("`{}:` is given twice", limits::quoted(.key))]
    DuplicateField {
        /// The key.
        key: String,
    },
    /// A result that is not one of the words.
    #[error(
        "`{}` is not a result: write `attackers_win`, `defenders_win`, `draw` or `ongoing`, with a reason in parentheses if you like",
        limits::quoted(.text)
    )]
    BadResult {
        /// The text.
        text: String,
    },
    /// A bracket, brace or parenthesis opened and never closed.
    #[error("`{open}` is never closed")]
    Unclosed {
        /// The opening character.
        open: char,
    },
    /// A closing character with nothing open.
    #[error("`{close}` closes nothing")]
    Unopened {
        /// The closing character.
        close: char,
    },
    /// A file that holds nothing (an empty `.otg`): no game, rather than a game of no moves.
    #[error("the file is empty: it holds no game")]
    Empty,
    /// An OpenTafl tag that is not `[name:value]`.
    #[error("`{text}` is not an OpenTafl tag: write `[name:value]`")]
    BadTag {
        /// The tag's text.
        text: String,
    },
    /// A CSV row without its columns.
    #[error(
        "a row has {found} columns; the hnefatafl corpora have 4: `<plays>,<n>,<n>,<outcome>`"
    )]
    Columns {
        /// Columns found.
        found: usize,
    },
    /// A CSV outcome that is not one of the corpora's words.
    #[error(
        "`{}` is not an outcome: write `White`, `Black`, `Draw`, `Ongoing` or nothing",
        limits::quoted(.text)
    )]
    BadOutcome {
        /// The text.
        text: String,
    },
    /// Moves after a word that ends the game (`resigned`, `timeout`).
    #[error("`{word}` ends the game, but moves follow it")]
    AfterEnd {
        /// The ending word.
        word: String,
    },
    /// An OpenTafl tag given twice: which one holds is anyone's guess, so neither is taken.
    #[error("the tag `[{name}:...]` is given twice; give each tag once")]
    DuplicateTag {
        /// The tag's name.
        name: String,
    },
    /// A site record that is not the JSON object the site publishes.
    #[error("not a game of the site: {message}")]
    NotJson {
        /// What the JSON reader says.
        message: String,
    },
    /// A line longer than [`limits::MAX_LINE_BYTES`]: no record writes one, and the words of
    /// such a line could not be shown.
    #[error(
        "the line is {length} bytes long; a record's lines may be at most {} bytes",
        limits::MAX_LINE_BYTES
    )]
    LineTooLong {
        /// The line's length in bytes.
        length: usize,
    },
}

impl RecordErrorKind {
    /// The error for `line`, which is longer than [`limits::MAX_LINE_BYTES`], at its first
    /// character (a label further right would be drawn past any screen).
    pub(crate) fn long_line(line: &lines::Line<'_>) -> (RecordErrorKind, Span) {
        let first = line.text.chars().next().map_or(1, char::len_utf8);
        (
            RecordErrorKind::LineTooLong {
                length: line.text.len(),
            },
            Span::new(line.start, line.start + first),
        )
    }
}

/// Reads every game of `text`, each one a record or the error that stopped it. A file that is
/// one game (native, OpenTafl) gives one entry. [`games`] reads them one at a time.
pub fn parse(text: &str, format: Format) -> Vec<Result<GameRecord, RecordError>> {
    games(text, format).collect()
}

/// The games of `text`, read one at a time as the iterator is advanced, each one a record or
/// the error that stopped it: a file of many games is read in the memory of one game, in time
/// linear in the file's size. A file that is one game (native, OpenTafl) gives one item.
///
/// ```
/// use tafl::record::{games, Format};
/// let mut read = games("d1-d3,0,0,White\nzz,0,0,\n", Format::Csv);
/// assert_eq!(read.next().unwrap().unwrap().moves.len(), 1);
/// assert_eq!(read.next().unwrap().unwrap_err().line, 2);
/// assert!(read.next().is_none());
/// ```
pub fn games(text: &str, format: Format) -> Games<'_> {
    let reader = match format {
        Format::Native | Format::OpenTafl | Format::Site => Reader::One(Some((text, format))),
        Format::Csv => Reader::Rows(csv::rows(text)),
        Format::MoveList => Reader::Lists(csv::move_lists(text)),
    };
    Games { reader }
}

/// The iterator of [`games`].
#[derive(Debug)]
pub struct Games<'a> {
    reader: Reader<'a>,
}

#[derive(Debug)]
enum Reader<'a> {
    /// A file that is one game, not yet read.
    One(Option<(&'a str, Format)>),
    Rows(csv::Rows<'a>),
    Lists(csv::MoveLists<'a>),
}

impl Iterator for Games<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.reader {
            Reader::One(one) => one.take().map(|(text, format)| match format {
                Format::OpenTafl => otg::parse(text),
                Format::Site => site::parse(text),
                Format::Native | Format::Csv | Format::MoveList => native::parse(text),
            }),
            Reader::Rows(rows) => rows.next(),
            Reader::Lists(lists) => lists.next(),
        }
    }
}

/// A stable hash of the rules a game is played under, written `fnv1a64:` and 16 hex digits: the
/// 64-bit FNV-1a hash of the rules' IR as compact JSON (`tafl ir` prints it pretty), with the
/// variant's name, source and notes left out, since they are prose, not rules. Two files whose
/// clauses compile to the same IR have the same hash (clauses listed in another order may not);
/// a record whose hash differs from the variant's was played under other rules.
pub fn rules_hash(rules: &Rules) -> String {
    let mut bare = rules.clone();
    bare.name.clear();
    bare.source = None;
    bare.family = None;
    bare.notes.clear();
    // The IR is plain data (strings, numbers, vectors, structs): serialising cannot fail.
    let json = serde_json::to_string(&bare).expect("the IR serialises to JSON");
    format!("fnv1a64:{:016x}", fnv1a64(json.as_bytes()))
}

/// The 64-bit FNV-1a hash (offset basis 0xcbf29ce484222325, prime 0x100000001b3), chosen because
/// it is fixed by its published definition and never changes between Rust versions, unlike
/// `std::hash`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One word of a move as the corpora and our records write it: `d1-d3`, `d1d3`, `Kd1-d3`,
/// `d1-d3xd4xe5`, `d1-d3xd4/e5`, with OpenTafl's piece letters and `+`/`-` marks allowed.
/// Returns the move and its captures (`None` when no `x` is written).
pub fn read_move_word(word: &str) -> Option<(Move, Option<Vec<Square>>)> {
    // OpenTafl's check marks: `+`, `++`, `-`, `--` after the move.
    let word = word.trim_end_matches(['+', '-']);
    let (body, captures) = match word.split_once('x') {
        Some((body, rest)) => {
            // A bare `x` (`g7-g10x`, as some annotators write) says a capture without where;
            // an empty item in a list (`d1-c1xxxx`, `d1-c1xd2/`) is no square, and refused.
            let squares: Option<Vec<Square>> = if rest.is_empty() {
                Some(Vec::new())
            } else {
                rest.split(['x', '/'])
                    .map(|s| strip_piece_letter(s).parse().ok())
                    .collect()
            };
            let squares = squares?;
            (body, (!squares.is_empty()).then_some(squares))
        }
        None => (word, None),
    };
    // OpenTafl's jump and berserk marks (`^`, `=`, `^=`) join the squares like `-`.
    let body = strip_piece_letter(body)
        .replace("^=", "-")
        .replace(['^', '='], "-");
    let mv: Move = body.parse().ok()?;
    Some((mv, captures))
}

/// `Kd1` → `d1`: OpenTafl writes a letter for special pieces before a square (upper case for the
/// defenders', lower case for the attackers'). A square is a letter followed by digits, so a
/// leading letter followed by another letter is a piece letter.
fn strip_piece_letter(text: &str) -> &str {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => &text[1..],
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv): "" and "a".
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_hash_ignores_prose_but_not_rules() {
        let rules = crate::Variant::bundled("copenhagen").unwrap().rules;
        let mut renamed = rules.clone();
        renamed.name = "Another name".to_string();
        renamed.notes.push("a note".to_string());
        assert_eq!(rules_hash(&rules), rules_hash(&renamed));
        let other = crate::Variant::bundled("fetlar").unwrap().rules;
        assert_ne!(rules_hash(&rules), rules_hash(&other));
        assert!(rules_hash(&rules).starts_with("fnv1a64:"));
        assert_eq!(rules_hash(&rules).len(), "fnv1a64:".len() + 16);
    }

    #[test]
    fn move_words_read_in_every_spelling() {
        let (mv, captures) = read_move_word("d11-d10xe10").unwrap();
        assert_eq!(mv.to_string(), "d11-d10");
        assert_eq!(captures.unwrap().len(), 1);
        assert_eq!(read_move_word("c5c6").unwrap().0.to_string(), "c5-c6");
        // Empty items in a capture list are no squares: refused, not skipped (issue 62).
        for word in [
            "d1-c1xxxx",
            "d1-c1xx",
            "d1-c1xd2x",
            "d1-c1xd2/",
            "d1-c1x/d2",
            "d1-c1xd2//e2",
        ] {
            assert!(read_move_word(word).is_none(), "{word}");
        }
        assert_eq!(read_move_word("g7-g10x").unwrap().1, None);
        let (mv, captures) = read_move_word("Ke5-e1xd1/f1--").unwrap();
        assert_eq!(mv.to_string(), "e5-e1");
        assert_eq!(captures.unwrap().len(), 2);
        assert_eq!(read_move_word("Ne6^=e8").unwrap().0.to_string(), "e6-e8");
        assert_eq!(read_move_word("e1-e3x").unwrap().1, None);
        for bad in ["", "x", "e4", "e1-e3xz", "timeout", "---"] {
            let read = read_move_word(bad);
            assert!(read.is_none(), "{bad:?} read as {read:?}");
        }
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(Format::detect(Some("a.otg"), ""), Format::OpenTafl);
        assert_eq!(Format::detect(Some("a.CSV"), ""), Format::Csv);
        assert_eq!(Format::detect(None, "[rules:dim:7]\n"), Format::OpenTafl);
        assert_eq!(Format::detect(None, "d1-d3 e2-e3,0,0,White\n"), Format::Csv);
        assert_eq!(
            Format::detect(None, "# x\nvariant: x\n1. a1-a2\n"),
            Format::Native
        );
        assert_eq!(Format::detect(None, "1. a1-a2 b1-b2\n"), Format::MoveList);
        let site = "{\"AageGameTypeKey\": 16, \"Moves\": []}";
        assert_eq!(Format::detect(Some("game-16-1-1.json"), site), Format::Site);
    }

    #[test]
    fn formats_are_detected_past_a_byte_order_mark_and_lone_carriage_returns() {
        assert_eq!(
            Format::detect(None, "\u{feff}[rules:dim:7]\n"),
            Format::OpenTafl
        );
        assert_eq!(Format::detect(None, "\u{feff}variant: x\n"), Format::Native);
        assert_eq!(
            Format::detect(None, "# a comment\rd1-d3,0,0,White\r"),
            Format::Csv
        );
    }
}
