//! Semantic tokens: what each word of the file is, for editors to colour from the same parser
//! that checks the file (Neovim and Helix have no TextMate grammar; VS Code gets both).
//!
//! Comments and quoted text come from a scan of each line; the diagram's cells from the setup
//! clause; piece and region names from the name uses; every other word is a square, a number, a
//! side or a word of the language.

use super::names::{NameKind, NameUse};
use crate::ir::{Role, Rules, Side, Square};
use crate::span::Span;
use crate::syntax::ast::{self, ClauseKind};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TokenKind {
    /// A word of the language (`board`, `may`, `hostile`).
    Keyword,
    /// From `#` to the end of the line.
    Comment,
    /// Quoted text.
    String,
    /// A number (`9` in `board 9 x 9`).
    Number,
    /// A square (`e5`).
    Square,
    /// `attackers`, `defenders`.
    Side,
    /// A piece's name.
    Piece,
    /// A region's name.
    Region,
    /// A cell of the setup diagram holding an attacker.
    AttackerCell,
    /// A cell holding a defender that is not a king.
    DefenderCell,
    /// A cell holding a king.
    KingCell,
    /// An empty cell (or a symbol no piece has).
    EmptyCell,
}

/// One token: where, and what it is. Tokens never span lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where.
    pub span: Span,
    /// What.
    pub kind: TokenKind,
}

/// The tokens of `text`, in order, not overlapping.
pub(super) fn tokens(
    text: &str,
    file: Option<&ast::File>,
    rules: Option<&Rules>,
    uses: &[NameUse],
) -> Vec<Token> {
    let mut tokens: Vec<Token> = Vec::new();
    // Spans already given a kind by the syntax tree: the diagram's rows and the names.
    let mut claimed: Vec<Span> = Vec::new();
    for clause in file.map_or(&[][..], |file| file.clauses.as_slice()) {
        match &clause.kind {
            ClauseKind::Setup(rows) => {
                for row in rows {
                    claimed.push(row.span);
                    for cell in &row.cells {
                        tokens.push(Token {
                            span: cell.span,
                            kind: cell_kind(rules, cell.value),
                        });
                    }
                }
            }
            // The symbol a piece is declared with (`K` in `piece K king`) is coloured as it
            // is in the diagram: one token type for a piece's letter everywhere.
            ClauseKind::Piece(piece) => {
                claimed.push(piece.symbol.span);
                tokens.push(Token {
                    span: piece.symbol.span,
                    kind: cell_kind(rules, piece.symbol.value),
                });
            }
            _ => {}
        }
    }
    for name in uses {
        claimed.push(name.span);
        tokens.push(Token {
            span: name.span,
            kind: match name.kind {
                NameKind::Piece => TokenKind::Piece,
                NameKind::Region => TokenKind::Region,
            },
        });
    }
    let is_claimed = |span: Span| {
        claimed
            .iter()
            .any(|c| c.start < span.end && span.start < c.end)
    };
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        scan_line(line, line_start, &is_claimed, &mut tokens);
        line_start += line.len();
    }
    tokens.sort_by_key(|token| (token.span.start, token.span.end));
    // A name use inside a comment cannot happen, but overlapping spans would break the
    // protocol's encoding: keep the first of any overlap.
    let mut kept: Vec<Token> = Vec::with_capacity(tokens.len());
    for token in tokens {
        if kept
            .last()
            .is_none_or(|last| last.span.end <= token.span.start)
            && token.span.start < token.span.end
        {
            kept.push(token);
        }
    }
    kept
}

fn cell_kind(rules: Option<&Rules>, symbol: char) -> TokenKind {
    match rules.and_then(|rules| rules.piece_by_symbol(symbol)) {
        Some(piece) => match (piece.role, piece.side) {
            (Role::King, _) => TokenKind::KingCell,
            (Role::Soldier, Side::Attackers) => TokenKind::AttackerCell,
            (Role::Soldier, Side::Defenders) => TokenKind::DefenderCell,
        },
        None => TokenKind::EmptyCell,
    }
}

/// The comment, quoted text and words of one line starting at byte `start`.
fn scan_line(line: &str, start: usize, is_claimed: &dyn Fn(Span) -> bool, tokens: &mut Vec<Token>) {
    let body = line.trim_end_matches(['\n', '\r']);
    let mut word_start: Option<usize> = None;
    let mut quote_start: Option<usize> = None;
    let end_word = |from: usize, to: usize, tokens: &mut Vec<Token>| {
        let span = Span::new(start + from, start + to);
        if !is_claimed(span) {
            if let Some(kind) = word_kind(&body[from..to]) {
                tokens.push(Token { span, kind });
            }
        }
    };
    for (index, c) in body.char_indices() {
        if let Some(open) = quote_start {
            if c == '"' {
                tokens.push(Token {
                    span: Span::new(start + open, start + index + 1),
                    kind: TokenKind::String,
                });
                quote_start = None;
            }
            continue;
        }
        let in_word = c.is_alphanumeric() || c == '_' || c == '-' || c == '\'';
        match (in_word, word_start) {
            (true, None) => word_start = Some(index),
            (false, Some(from)) => {
                end_word(from, index, tokens);
                word_start = None;
            }
            (true, Some(_)) | (false, None) => {}
        }
        if c == '"' {
            quote_start = Some(index);
        } else if c == '#' {
            let span = Span::new(start + index, start + body.len());
            if !is_claimed(span) {
                tokens.push(Token {
                    span,
                    kind: TokenKind::Comment,
                });
                return;
            }
        }
    }
    if let Some(from) = word_start {
        end_word(from, body.len(), tokens);
    }
    if let Some(open) = quote_start {
        // An unclosed quote runs to the end of the line (the diagnostics say so).
        tokens.push(Token {
            span: Span::new(start + open, start + body.len()),
            kind: TokenKind::String,
        });
    }
}

fn word_kind(word: &str) -> Option<TokenKind> {
    if word.chars().all(|c| c.is_ascii_digit()) {
        return Some(TokenKind::Number);
    }
    if word.parse::<Square>().is_ok() {
        return Some(TokenKind::Square);
    }
    match word.to_lowercase().as_str() {
        "attackers" | "defenders" | "attacker" | "defender" | "attacking" | "defending"
        | "attackers'" | "defenders'" => Some(TokenKind::Side),
        _ if word.chars().any(char::is_alphabetic) => Some(TokenKind::Keyword),
        _ => None,
    }
}
