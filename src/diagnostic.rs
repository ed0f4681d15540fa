//! Problems found in a variant file: errors, warnings and notes, each with a stable code, the
//! spans it concerns and a hint on how to fix it.
//!
//! Diagnostics are plain data (they serialise to JSON for `tafl lint --format json`); wrapped in
//! [`Diagnostics`] together with the file's text they implement [`miette::Diagnostic`], so any
//! miette handler renders them with the offending lines.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

use crate::span::Span;

/// How serious a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The file cannot be used: `tafl lint` exits 1.
    Error,
    /// The file works but probably not as meant.
    Warning,
    /// Worth knowing; nothing wrong.
    Note,
}

macro_rules! codes {
    ($( $(#[doc = $doc:literal])* $variant:ident => $code:literal, )*) => {
        /// The stable code of each kind of problem; `docs/diagnostics.md` explains each.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as printed: `tafl::check::setup_width`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $code, )*
                }
            }
        }
    };
}

codes! {
    /// A line that no clause starts like.
    UnknownClause => "tafl::syntax::unknown_clause",
    /// A clause that starts well but goes wrong.
    Unexpected => "tafl::syntax::unexpected",
    /// A `"` with no closing `"` on the same line.
    UnterminatedString => "tafl::syntax::unterminated_string",
    /// A `setup` diagram with no `end`.
    UnclosedSetup => "tafl::syntax::unclosed_setup",
    /// A rule the language cannot say (a win by counting pieces, promotion, diagonal moves,
    /// ...): the line is refused, and the help names the nearest thing the language says.
    NotInLanguage => "tafl::syntax::not_in_language",
    /// A line that restates a rule every variant has without a clause (soldiers captured between
    /// two enemies): a note, and the line is read as the default it states.
    DefaultRestated => "tafl::syntax::default_restated",
    /// No `board` clause.
    MissingBoard => "tafl::check::missing_board",
    /// A board smaller than 5x5 or larger than 19x19.
    BoardSize => "tafl::check::board_size",
    /// A clause that may appear once appears again.
    DuplicateClause => "tafl::check::duplicate_clause",
    /// No `setup` diagram.
    MissingSetup => "tafl::check::missing_setup",
    /// The diagram has more or fewer rows than the board has ranks.
    SetupHeight => "tafl::check::setup_height",
    /// A diagram row has more or fewer symbols than the board has files.
    SetupWidth => "tafl::check::setup_width",
    /// A diagram symbol that no piece declares.
    UnknownSymbol => "tafl::check::unknown_symbol",
    /// Two pieces with the same symbol.
    DuplicateSymbol => "tafl::check::duplicate_symbol",
    /// Two pieces with the same name.
    DuplicatePiece => "tafl::check::duplicate_piece",
    /// An attacker symbol that is not lowercase, or a defender symbol that is not uppercase.
    SymbolCase => "tafl::check::symbol_case",
    /// Rules about a king, but no king on the board.
    NoKing => "tafl::check::no_king",
    /// More than one king on the board.
    SeveralKings => "tafl::check::several_kings",
    /// A side with no piece on the board.
    EmptySide => "tafl::check::empty_side",
    /// A piece set up on a square the rules never let it enter.
    ForbiddenStart => "tafl::check::forbidden_start",
    /// A square written badly (`e0`, `e05`).
    BadSquare => "tafl::check::bad_square",
    /// A square beyond the board.
    OffBoard => "tafl::check::off_board",
    /// A region name that is not defined.
    UnknownRegion => "tafl::check::unknown_region",
    /// A piece name that is not declared.
    UnknownPiece => "tafl::check::unknown_piece",
    /// A region defined twice.
    DuplicateRegion => "tafl::check::duplicate_region",
    /// `throne` used on a board with no centre square, and not defined.
    NoCentre => "tafl::check::no_centre",
    /// Two clauses that say opposite things.
    Contradiction => "tafl::check::contradiction",
    /// A king-capture clause about a piece that is not a king.
    NotAKing => "tafl::check::not_a_king",
    /// A king enclosed together with a square of a region, by a clause whose place is not beside
    /// that region.
    TogetherNotBeside => "tafl::check::together_not_beside",
    /// A jump over, or a king's sandwich by, pieces of the jumper's or the king's own side.
    NotAnEnemy => "tafl::check::not_an_enemy",
    /// A number that makes no sense where it stands (`at most 0 squares`).
    BadNumber => "tafl::check::bad_number",
    /// An escape the piece can never make.
    UnreachableEscape => "tafl::check::unreachable_escape",
    /// A rule that can never apply.
    DeadRule => "tafl::check::dead_rule",
    /// No clause says who moves first.
    MissingFirstMove => "tafl::check::missing_first_move",
    /// A side that can never win.
    NoWin => "tafl::check::no_win",
    /// A region defined and never used.
    UnusedRegion => "tafl::check::unused_region",
    /// The setup is not symmetric.
    AsymmetricSetup => "tafl::check::asymmetric_setup",
    /// A control character (ESC, BEL, a C1 control) in the text.
    ControlCharacter => "tafl::check::control_character",
    /// A limit of the language or the engine is passed: file size, line length, piece kinds,
    /// regions, once-left rules, or the number of problems reported.
    Limit => "tafl::check::limit",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A span and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is wrong (or relevant) there.
    pub text: String,
}

/// A replacement that fixes a problem on its own: what an editor offers as a quick fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// The text to replace.
    pub span: Span,
    /// What to write instead.
    pub replacement: String,
}

/// One problem in a variant file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// How serious.
    pub severity: Severity,
    /// What is wrong, in one line: lowercase, no full stop.
    pub message: String,
    /// The spans concerned, the main one first.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// The fix, when one replacement makes it (a misspelt name: "did you mean `board`?").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A problem of `severity`, with `message` and one label.
    pub fn new(code: Code, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            fix: None,
        }
    }

    /// An error.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Error, message)
    }

    /// A warning.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Warning, message)
    }

    /// A note.
    pub fn note(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Note, message)
    }

    /// Adds a label.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Sets the help.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the fix: `replacement` instead of the text at `span`.
    pub fn fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fix = Some(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }

    /// The main span, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|label| label.span)
    }
}

/// Every problem found in one file, with the file's text, sorted by position.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    origin: String,
    text: Arc<String>,
    items: Vec<Diagnostic>,
    /// The byte offset where each line starts, so that finding a line is a binary search.
    line_starts: Vec<usize>,
}

impl Diagnostics {
    /// The problems `items` of the file `origin` whose text is `text`.
    pub fn new(origin: &str, text: &str, mut items: Vec<Diagnostic>) -> Self {
        items.sort_by_key(|item| {
            (
                item.primary_span().map_or(0, |span| span.start),
                item.severity,
            )
        });
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Diagnostics {
            origin: origin.to_string(),
            text: Arc::new(text.to_string()),
            items,
            line_starts,
        }
    }

    /// Where the text came from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The problems, in file order.
    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.severity == Severity::Error)
    }

    /// Whether there are no problems at all.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each problem as a [`miette::Diagnostic`] carrying the file's text, for rendering.
    pub fn reports(&self) -> impl Iterator<Item = Report<'_>> {
        // Shown on a terminal: a control character in the file is drawn, not obeyed.
        let text = match crate::printable::same_length(&self.text) {
            std::borrow::Cow::Borrowed(_) => Arc::clone(&self.text),
            std::borrow::Cow::Owned(shown) => Arc::new(shown),
        };
        let source =
            NamedSource::new(crate::printable::quoted(&self.origin), text).with_language("tafl");
        self.items.iter().map(move |item| Report {
            item,
            source: source.clone(),
        })
    }

    /// 1-based line and column of a byte offset in the text.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        // The last line starting at or before `offset`; line 0 starts at 0, so there is one.
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |before| before.chars().count());
        (line + 1, column + 1)
    }
}

/// One problem together with its file, ready for a miette handler.
#[derive(Debug)]
pub struct Report<'a> {
    item: &'a Diagnostic,
    source: NamedSource<Arc<String>>,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages quote the file's words: a control character among them is drawn, not obeyed.
        f.write_str(&crate::printable::shown(&self.item.message))
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.item.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.item.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Note => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.item
            .help
            .as_ref()
            .map(|help| Box::new(crate::printable::shown(help)) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.item.labels.iter().enumerate().map(|(index, label)| {
            let text = Some(crate::printable::shown(&label.text).into_owned())
                .filter(|text| !text.is_empty());
            if index == 0 {
                LabeledSpan::new_primary_with_span(text, label.span)
            } else {
                LabeledSpan::new_with_span(text, label.span)
            }
        });
        Some(Box::new(labels))
    }
}
