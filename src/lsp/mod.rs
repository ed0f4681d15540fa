//! Editor services for a variant file: what a language server answers (diagnostics, hover,
//! completion, definitions, references, an outline), computed from the text alone.
//!
//! Everything here works in byte offsets and [`Span`]s, with no protocol types: `tafl lsp`
//! (`src/cli/lsp.rs`) converts to and from the Language Server Protocol. An [`Analysis`] is
//! built once per version of the text and then queried.
//!
//! ```
//! use tafl::lsp::Analysis;
//!
//! let text = "board 9 x 9\nnobody may land on the throne\nthe kign is armed\n";
//! let analysis = Analysis::new("my.tafl", text);
//! assert!(analysis.diagnostics().items().iter().any(|d| d.message.contains("kign")));
//! let hover = analysis.hover(text.find("land").unwrap()).unwrap();
//! assert!(hover.text.starts_with("No piece may land on the throne (e5)"));
//! ```

mod names;
mod outline;
mod tokens;

use std::collections::BTreeMap;

pub use names::{NameKind, NameUse};
pub use outline::{Symbol, SymbolKind};
pub use tokens::{Token, TokenKind};

use crate::check::{check_text, Checked};
use crate::diagnostic::Diagnostics;
use crate::english::{self, capitalise, count, join_and};
use crate::explain::{movement_words, rule_sections};
use crate::ir::RuleRef;
use crate::ir::{Role, Rules, Square};
use crate::span::Span;
use crate::syntax::ast::{self, ClauseKind};
use crate::syntax::expected_after;

/// A hover: the text under the cursor and what to show about it, in Markdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The part of the text the hover is about.
    pub span: Span,
    /// What to show, in Markdown.
    pub text: String,
}

/// What a completion inserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A word of the language.
    Keyword,
    /// A declared piece.
    Piece,
    /// A region, declared or built in.
    Region,
    /// A square of the board.
    Square,
}

/// One completion: the word to insert and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The text to insert.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A short description (`defender king`, `e5`).
    pub detail: Option<String>,
}

/// A piece or region known to the file: built in, or declared (with the declared name's span).
#[derive(Clone, Debug)]
struct Known {
    name: String,
    kind: NameKind,
    declaration: Option<Span>,
    detail: String,
}

/// One version of a file, checked, with what the queries need.
#[derive(Debug)]
pub struct Analysis {
    text: String,
    checked: Checked,
    uses: Vec<NameUse>,
    known: Vec<Known>,
    /// The plain-word sentence of each written rule (several for a clause such as `everyone
    /// moves like a rook`, which states one rule per piece).
    sentences: BTreeMap<RuleRef, String>,
}

impl Analysis {
    /// Parses and checks `text`; `origin` names the file in diagnostics.
    pub fn new(origin: &str, text: &str) -> Analysis {
        let checked = check_text(origin, text);
        let uses = checked
            .file
            .as_ref()
            .map(names::name_uses)
            .unwrap_or_default();
        let mut sentences = BTreeMap::new();
        if let Some((rules, _)) = &checked.rules {
            for section in rule_sections(rules) {
                for (sentence, refs) in section.sentences.iter().zip(&section.rules) {
                    // `tafl show` capitalises as it prints; so does the hover.
                    let sentence = capitalise(sentence);
                    for rule in refs {
                        sentences
                            .entry(*rule)
                            .and_modify(|text: &mut String| {
                                if !text.contains(sentence.as_str()) {
                                    text.push(' ');
                                    text.push_str(&sentence);
                                }
                            })
                            .or_insert_with(|| sentence.clone());
                    }
                }
            }
        }
        let known = known_names(&checked, &uses);
        Analysis {
            text: text.to_string(),
            checked,
            uses,
            known,
            sentences,
        }
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Every problem, exactly as `tafl lint` reports them.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.checked.diagnostics
    }

    /// The rules, when the file could be checked far enough to build them (they may come with
    /// errors).
    pub fn rules(&self) -> Option<&Rules> {
        self.checked.rules.as_ref().map(|(rules, _)| rules)
    }

    fn clauses(&self) -> &[ast::Clause] {
        self.checked
            .file
            .as_ref()
            .map_or(&[], |file| file.clauses.as_slice())
    }

    /// The piece or region the name `written` refers to, accepting a plural for a piece
    /// (`muscovites`) and a singular for a region (`a corner`), as the checker does.
    fn resolve(&self, written: &str, kind: NameKind) -> Option<&Known> {
        let of_kind = || self.known.iter().filter(move |known| known.kind == kind);
        of_kind()
            .find(|known| known.name == written)
            .or_else(|| match kind {
                NameKind::Piece => {
                    let rules = self.rules()?;
                    let piece = rules
                        .pieces
                        .iter()
                        .find(|piece| crate::english::names_piece(written, piece))?;
                    of_kind().find(|known| known.name == piece.name)
                }
                NameKind::Region => {
                    let plural = format!("{written}s");
                    of_kind().find(|known| known.name == plural)
                }
            })
    }

    fn use_at(&self, offset: usize) -> Option<&NameUse> {
        self.uses.iter().find(|name| contains(name.span, offset))
    }

    /// Where the piece or region named at `offset` is defined: its declaration; for a built-in
    /// region, its squares in the setup diagram (the whole diagram for one of more than four
    /// squares, such as the edge); for a default piece, the diagram. Empty for anything else
    /// at `offset`, or when the diagram did not parse.
    pub fn definition(&self, offset: usize) -> Vec<Span> {
        let Some(name) = self.use_at(offset) else {
            return Vec::new();
        };
        let Some(known) = self.resolve(&name.written, name.kind) else {
            return Vec::new();
        };
        if let Some(span) = known.declaration {
            return vec![span];
        }
        let Some(setup) = self.clauses().iter().find_map(|clause| {
            if let ClauseKind::Setup(rows) = &clause.kind {
                Some((clause.span, rows))
            } else {
                None
            }
        }) else {
            return Vec::new();
        };
        let (whole, rows) = setup;
        let region = match known.kind {
            NameKind::Region => self.rules().and_then(|rules| rules.region(&known.name)),
            NameKind::Piece => None,
        };
        match (region, self.rules()) {
            (Some(region), Some(rules)) if region.squares.len() <= 4 => {
                let height = usize::from(rules.board.height);
                let cells: Vec<Span> = region
                    .squares
                    .iter()
                    .filter_map(|square| {
                        let row = height.checked_sub(usize::from(square.rank) + 1)?;
                        let cell = rows.get(row)?.cells.get(usize::from(square.file))?;
                        Some(cell.span)
                    })
                    .collect();
                if cells.is_empty() {
                    vec![whole]
                } else {
                    cells
                }
            }
            _ => vec![whole],
        }
    }

    /// What each word of the file is, for colouring: see [`TokenKind`].
    pub fn tokens(&self) -> Vec<Token> {
        tokens::tokens(
            &self.text,
            self.checked.file.as_ref(),
            self.rules(),
            &self.uses,
        )
    }

    /// Every occurrence of the piece or region named at `offset`, in file order; with or
    /// without its declaration.
    pub fn references(&self, offset: usize, include_declaration: bool) -> Vec<Span> {
        let Some(name) = self.use_at(offset) else {
            return Vec::new();
        };
        let Some(target) = self.resolve(&name.written, name.kind) else {
            return Vec::new();
        };
        let target = target.name.clone();
        self.uses
            .iter()
            .filter(|other| other.kind == name.kind)
            .filter(|other| include_declaration || !other.is_declaration)
            .filter(|other| {
                self.resolve(&other.written, other.kind)
                    .is_some_and(|known| known.name == target)
            })
            .map(|other| other.span)
            .collect()
    }

    /// What to show at `offset`: a piece or region name's declaration and uses, a square's
    /// special roles, or a clause's meaning in the words of `tafl show`.
    pub fn hover(&self, offset: usize) -> Option<Hover> {
        if let Some(name) = self.use_at(offset) {
            return self.hover_name(name);
        }
        if let Some(hover) = self.hover_square(offset) {
            return Some(hover);
        }
        let clause = self
            .clauses()
            .iter()
            .find(|clause| contains(clause.span, offset))?;
        self.hover_clause(clause)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.checked.diagnostics.line_column(offset).0
    }

    fn hover_name(&self, name: &NameUse) -> Option<Hover> {
        let what = match name.kind {
            NameKind::Piece => "piece",
            NameKind::Region => "region",
        };
        let Some(known) = self.resolve(&name.written, name.kind) else {
            return Some(Hover {
                span: name.span,
                text: format!("no {what} is called `{}`", name.written),
            });
        };
        let mut text = format!("**{what} `{}`**: {}\n\n", known.name, known.detail);
        match known.declaration {
            Some(span) => text.push_str(&format!("Declared on line {}.", self.line_of(span.start))),
            None => text.push_str("Built in."),
        }
        let mut lines: Vec<String> = self
            .uses
            .iter()
            .filter(|other| !other.is_declaration && other.kind == name.kind)
            .filter(|other| {
                self.resolve(&other.written, other.kind)
                    .is_some_and(|found| found.name == known.name)
            })
            .map(|other| self.line_of(other.span.start).to_string())
            .collect();
        lines.dedup();
        if lines.is_empty() {
            text.push_str(" Used by no rule.");
        } else {
            let noun = if lines.len() == 1 { "line" } else { "lines" };
            text.push_str(&format!(" Used on {noun} {}.", join_and(&lines)));
        }
        Some(Hover {
            span: name.span,
            text,
        })
    }

    /// The square under `offset`: a square name in the text, or a cell of the diagram.
    fn square_at(&self, offset: usize) -> Option<(Square, Span)> {
        let rules = self.rules()?;
        for clause in self.clauses() {
            if let ClauseKind::Setup(rows) = &clause.kind {
                for (row, line) in rows.iter().enumerate() {
                    for (file, cell) in line.cells.iter().enumerate() {
                        if contains(cell.span, offset) {
                            let rank = usize::from(rules.board.height).checked_sub(row + 1)?;
                            let square = Square::new(u8::try_from(file).ok()?, rank as u8);
                            return Some((square, cell.span));
                        }
                    }
                }
            }
        }
        let span = word_at(&self.text, offset)?;
        let square: Square = self.text[span.start..span.end].parse().ok()?;
        square
            .is_on(rules.board.width, rules.board.height)
            .then_some((square, span))
    }

    fn hover_square(&self, offset: usize) -> Option<Hover> {
        let (square, span) = self.square_at(offset)?;
        let rules = self.rules()?;
        let mut text = format!("**{square}**");
        let regions: Vec<String> = rules
            .regions
            .iter()
            .filter(|region| region.squares.contains(&square))
            .map(|region| format!("`{}`", region.name))
            .collect();
        if !regions.is_empty() {
            text.push_str(&format!(", in {}", join_and(&regions)));
        }
        if rules.setup.len() == usize::from(rules.board.height) {
            let start = rules
                .start_pieces()
                .into_iter()
                .find(|(placed, _)| *placed == square);
            match start {
                Some((_, piece)) => text.push_str(&format!(
                    "; at the start: `{}` {}",
                    piece.symbol, piece.display
                )),
                None => text.push_str("; empty at the start"),
            }
        }
        text.push('.');
        let in_region = |name: &str| {
            rules
                .region(name)
                .is_some_and(|region| region.squares.contains(&square))
        };
        let mut rules_here: Vec<RuleRef> = Vec::new();
        rules_here.extend(
            (0..rules.access.len())
                .filter(|&index| in_region(&rules.access[index].region))
                .map(RuleRef::Access),
        );
        rules_here.extend(
            (0..rules.hostility.len())
                .filter(|&index| in_region(&rules.hostility[index].region))
                .map(RuleRef::Hostility),
        );
        rules_here.extend(
            (0..rules.king_capture.len())
                .filter(|&index| rules.king_capture[index].squares.contains(&square))
                .map(RuleRef::KingCapture),
        );
        rules_here.extend(
            (0..rules.outcome.escapes.len())
                .filter(|&index| in_region(&rules.outcome.escapes[index].region))
                .map(RuleRef::Escape),
        );
        // A king-capture sentence starts with its place (`Elsewhere: captured like ...`); on
        // its own under a square it needs its subject.
        let kings: Vec<String> = rules
            .pieces
            .iter()
            .filter(|piece| piece.role == Role::King)
            .map(|piece| format!("the {}", piece.display))
            .collect();
        for rule in &rules_here {
            let Some(sentence) = self.sentences.get(rule) else {
                continue;
            };
            let is_king_capture = matches!(rule, RuleRef::KingCapture(_));
            let sentence = match sentence.split_once(": ") {
                Some((place, how)) if is_king_capture && !kings.is_empty() => format!(
                    "{}, {}: {how}",
                    capitalise(&join_and(&kings)),
                    place.to_lowercase()
                ),
                Some(_) | None => sentence.clone(),
            };
            text.push_str(&format!("\n\n- {sentence}"));
        }
        Some(Hover { span, text })
    }

    fn hover_clause(&self, clause: &ast::Clause) -> Option<Hover> {
        let rules = self.rules();
        let (_, source_map) = self.checked.rules.as_ref()?;
        let mut said: Vec<&str> = source_map
            .iter()
            .filter(|(_, span)| *span == clause.span)
            .filter_map(|(rule, _)| self.sentences.get(&rule).map(String::as_str))
            .collect();
        said.dedup();
        let text = if !said.is_empty() {
            said.join("\n\n")
        } else {
            match &clause.kind {
                ClauseKind::Board { width, height } => format!(
                    "A board of {} x {} squares (files a to {}, ranks 1 to {}).",
                    width.value,
                    height.value,
                    char::from(b'a' + (width.value.clamp(1, 26) as u8) - 1),
                    height.value
                ),
                ClauseKind::FirstMove(side) => format!("The {} make the first move.", side.value),
                ClauseKind::SideName { side, name } => {
                    format!(
                        "The {} are called {} in this variant.",
                        side.value, name.value
                    )
                }
                ClauseKind::Piece(piece) => {
                    let known = self.resolve(&piece.name.value, NameKind::Piece)?;
                    format!("**piece `{}`**: {}", known.name, known.detail)
                }
                ClauseKind::Region { name, .. } => {
                    let known = self.resolve(&name.value, NameKind::Region)?;
                    format!("**region `{}`**: {}", known.name, known.detail)
                }
                ClauseKind::Setup(_) => {
                    let placed = rules.map_or(0, |rules| rules.start_pieces().len());
                    format!(
                        "The start position: {} on the board. Hover over a square for what is special about it.",
                        count(placed, "piece")
                    )
                }
                ClauseKind::Name(_) => {
                    "The variant's name: the title of `tafl show` and the name `tafl list` gives."
                        .to_string()
                }
                ClauseKind::Source(_) => {
                    "Where the rules come from: `tafl show` prints it under the title.".to_string()
                }
                ClauseKind::Family(_) => {
                    "The game this variant is a version of (tablut, brandubh, hnefatafl, ...): `tafl list --family` filters by it."
                        .to_string()
                }
                ClauseKind::Note(_) => {
                    "A note for players: `tafl show` prints it under \"Notes\", after the rules."
                        .to_string()
                }
                // A rule clause with no sentence of its own: it repeats or contradicts an
                // earlier clause, or names something unknown (the diagnostics say which).
                ClauseKind::Movement { .. }
                | ClauseKind::Access { .. }
                | ClauseKind::Armed { .. }
                | ClauseKind::Hostility { .. }
                | ClauseKind::Shieldwall { .. }
                | ClauseKind::KingCapture { .. }
                | ClauseKind::Jump { .. }
                | ClauseKind::Berserk(_)
                | ClauseKind::Sandwich { .. }
                | ClauseKind::Win { .. }
                | ClauseKind::Encirclement { .. }
                | ClauseKind::SideLoses { .. }
                | ClauseKind::NoMovesLoses
                | ClauseKind::RepetitionLoses { .. }
                | ClauseKind::Draw { .. }
                | ClauseKind::BackAndForth(_)
                | ClauseKind::Announce { .. } => {
                    "This clause adds no rule of its own (see the diagnostics).".to_string()
                }
            }
        };
        Some(Hover {
            span: clause.span,
            text,
        })
    }

    /// What may be written at `offset`: the keywords the grammar accepts there, and the pieces,
    /// regions or squares of this file where a name or square may come.
    pub fn completions(&self, offset: usize) -> Vec<Completion> {
        let offset = floor_boundary(&self.text, offset.min(self.text.len()));
        let line_start = self.text[..offset].rfind('\n').map_or(0, |index| index + 1);
        let in_setup = self.clauses().iter().any(|clause| {
            matches!(clause.kind, ClauseKind::Setup(_))
                && clause.span.start < line_start
                && offset < clause.span.end
        });
        if in_setup {
            return Vec::new();
        }
        let prefix = &self.text[line_start..offset];
        if in_comment_or_text(prefix) {
            return Vec::new();
        }
        // The word being typed is replaced by the completion: ask about the text before it.
        let typed = word_start(prefix);
        let before = &prefix[..typed];
        let expected = expected_after(before);
        let mut completions: Vec<Completion> = expected
            .keywords
            .iter()
            .filter(|word| word.chars().all(|c| c.is_ascii_alphabetic()))
            .map(|word| Completion {
                label: word.clone(),
                kind: CompletionKind::Keyword,
                detail: None,
            })
            .collect();
        if expected.name {
            let words: Vec<&str> = before.split_whitespace().collect();
            let declaring = matches!(words.first(), Some(&("region" | "square" | "piece")));
            if declaring && words.contains(&"=") {
                completions.extend(self.squares());
            } else if !declaring {
                let context = name_context(&words);
                for known in &self.known {
                    let wanted = match known.kind {
                        NameKind::Piece => context.pieces,
                        NameKind::Region => context.regions,
                    };
                    if wanted {
                        completions.push(Completion {
                            label: known.name.clone(),
                            kind: match known.kind {
                                NameKind::Piece => CompletionKind::Piece,
                                NameKind::Region => CompletionKind::Region,
                            },
                            detail: Some(known.detail.clone()),
                        });
                    }
                }
            }
        }
        completions
    }

    fn squares(&self) -> Vec<Completion> {
        let Some(rules) = self.rules() else {
            return Vec::new();
        };
        let mut squares = Vec::new();
        for rank in 0..rules.board.height {
            for file in 0..rules.board.width {
                let square = Square::new(file, rank);
                let regions: Vec<&str> = rules
                    .regions
                    .iter()
                    .filter(|region| region.squares.contains(&square))
                    .map(|region| region.name.as_str())
                    .collect();
                squares.push(Completion {
                    label: square.to_string(),
                    kind: CompletionKind::Square,
                    detail: (!regions.is_empty()).then(|| join_and(&regions)),
                });
            }
        }
        squares
    }

    /// The outline: the file's clauses grouped by rule family, pieces and regions by name.
    pub fn symbols(&self) -> Vec<Symbol> {
        outline::symbols(&self.text, self.clauses())
    }
}

/// Which names fit after `words` (the clause so far): regions after a word that leads to a
/// place (`on`, `reaches`, `counting` ...), pieces elsewhere; both at the start of a clause,
/// which may name a region (`the throne is hostile ...`) or pieces (`the king moves ...`).
struct NameContext {
    pieces: bool,
    regions: bool,
}

fn name_context(words: &[&str]) -> NameContext {
    const ARTICLES: &[&str] = &["the", "a", "an", "any"];
    const BEFORE_REGION: &[&str] = &[
        "on", "beside", "reaches", "reach", "enter", "through", "over", "counting", "to", "onto",
    ];
    // Words that open a list of regions running to the end of the clause, whose items are
    // joined by `and`, `or` or commas: `counting ...`, `except on ...`, `only from or to ...`.
    const REGION_LIST: &[&str] = &["counting", "except", "from"];
    let meaningful: Vec<&str> = words
        .iter()
        .copied()
        .filter(|word| !ARTICLES.contains(&word.to_lowercase().as_str()))
        .collect();
    let Some(&last) = meaningful.last() else {
        return NameContext {
            pieces: true,
            regions: true,
        };
    };
    // `may jump over` is followed by the pieces jumped, `pass over` by a region.
    let jumped =
        last == "over" && meaningful.len() >= 2 && meaningful[meaningful.len() - 2] == "jump";
    let in_list = matches!(last, "and" | "or" | ",") || last.ends_with(',');
    let region_list = in_list && meaningful.iter().any(|word| REGION_LIST.contains(word));
    let region = !jumped && (BEFORE_REGION.contains(&last) || region_list);
    NameContext {
        pieces: !region,
        regions: region,
    }
}

/// The pieces and regions the file knows: from the checked rules when there are any (with
/// the built-in regions and default pieces), else from the declarations that parsed.
fn known_names(checked: &Checked, uses: &[NameUse]) -> Vec<Known> {
    let declared = |name: &str, kind: NameKind| {
        uses.iter()
            .find(|found| found.is_declaration && found.kind == kind && found.written == name)
            .map(|found| found.span)
    };
    let mut known = Vec::new();
    if let Some((rules, _)) = &checked.rules {
        for piece in &rules.pieces {
            let role = match piece.role {
                Role::King => "king",
                Role::Soldier => "soldier",
            };
            let side = match piece.side {
                crate::ir::Side::Attackers => "an attacker",
                crate::ir::Side::Defenders => "a defender",
            };
            known.push(Known {
                name: piece.name.clone(),
                kind: NameKind::Piece,
                declaration: declared(&piece.name, NameKind::Piece),
                detail: format!(
                    "`{}` {}, {side} {role}; moves {}",
                    piece.symbol,
                    piece.display,
                    movement_words(piece.movement)
                ),
            });
        }
        for region in &rules.regions {
            let number = region.squares.len();
            let detail = if number <= 12 {
                format!(
                    "{} ({})",
                    count(number, "square"),
                    english::squares(&region.squares)
                )
            } else {
                count(number, "square")
            };
            known.push(Known {
                name: region.name.clone(),
                kind: NameKind::Region,
                declaration: declared(&region.name, NameKind::Region),
                detail,
            });
        }
    } else {
        for name in uses.iter().filter(|found| found.is_declaration) {
            known.push(Known {
                name: name.written.clone(),
                kind: name.kind,
                declaration: Some(name.span),
                detail: "declared here; fix the errors to see more".to_string(),
            });
        }
    }
    known
}

/// Whether the end of `prefix` (a line up to the cursor) is inside a comment or quoted text,
/// where nothing is completed.
fn in_comment_or_text(prefix: &str) -> bool {
    let mut quoted = false;
    for c in prefix.chars() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return true,
            _ => {}
        }
    }
    quoted
}

fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end && span.start < span.end
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// The word (letters, digits, `-`, `_`) touching `offset`.
fn word_at(text: &str, offset: usize) -> Option<Span> {
    let offset = floor_boundary(text, offset.min(text.len()));
    let start = word_start(&text[..offset]);
    let end = text[offset..]
        .find(|c: char| !is_word_char(c))
        .map_or(text.len(), |index| offset + index);
    (start < end).then(|| Span::new(start, end))
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Where the word at the end of `text` starts (just after the last character that cannot be
/// part of a word, which may be several bytes long).
fn word_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|(_, c)| !is_word_char(*c))
        .map_or(0, |(index, c)| index + c.len_utf8())
}

#[cfg(test)]
mod tests;
