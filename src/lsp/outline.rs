//! The outline of a file: its clauses grouped by rule family, in the order of `tafl show`.

use crate::span::Span;
use crate::syntax::ast::{self, ClauseKind};

/// What an outline entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A family of rules (`Moving`, `End of the game`), holding its clauses.
    Family,
    /// A piece declaration.
    Piece,
    /// A region definition.
    Region,
    /// Any other clause.
    Clause,
}

/// One entry of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// What to show: a family's title, a piece or region name, or a clause's text.
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// The text it covers (a family covers its first to its last clause).
    pub span: Span,
    /// The part to select when it is chosen (a declared name, or the clause).
    pub selection: Span,
    /// The entries inside it.
    pub children: Vec<Symbol>,
}

/// The families, in the order the outline shows them.
const FAMILIES: &[&str] = &[
    "About",
    "Board and sides",
    "Pieces",
    "Regions",
    "Moving",
    "Capturing",
    "Capturing the king",
    "End of the game",
    "Announcements",
];

/// The family of a clause, as an index into [`FAMILIES`]. No `_` arm: a new clause does not
/// compile until it has a place in the outline.
fn family(kind: &ClauseKind) -> usize {
    match kind {
        ClauseKind::Name(_)
        | ClauseKind::Source(_)
        | ClauseKind::Family(_)
        | ClauseKind::Note(_) => 0,
        ClauseKind::Board { .. }
        | ClauseKind::SideName { .. }
        | ClauseKind::FirstMove(_)
        | ClauseKind::Setup(_) => 1,
        ClauseKind::Piece(_) => 2,
        ClauseKind::Region { .. } => 3,
        ClauseKind::Movement { .. }
        | ClauseKind::Access { .. }
        | ClauseKind::BackAndForth(_)
        | ClauseKind::Jump { .. }
        | ClauseKind::Berserk(_) => 4,
        ClauseKind::Armed { .. } | ClauseKind::Hostility { .. } | ClauseKind::Shieldwall { .. } => {
            5
        }
        ClauseKind::KingCapture { .. } | ClauseKind::Sandwich { .. } => 6,
        ClauseKind::Win { .. }
        | ClauseKind::Encirclement { .. }
        | ClauseKind::SideLoses { .. }
        | ClauseKind::NoMovesLoses
        | ClauseKind::RepetitionLoses { .. }
        | ClauseKind::Draw { .. } => 7,
        ClauseKind::Announce { .. } => 8,
    }
}

/// A clause's first line as the outline shows it: without its comment, spaces collapsed.
fn clause_title(clause: &str) -> String {
    let line = clause.lines().next().unwrap_or("");
    let mut quoted = false;
    let end = line
        .char_indices()
        .find(|&(_, c)| {
            quoted ^= c == '"';
            c == '#' && !quoted
        })
        .map_or(line.len(), |(index, _)| index);
    line[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn symbols(text: &str, clauses: &[ast::Clause]) -> Vec<Symbol> {
    let mut families: Vec<Vec<Symbol>> = vec![Vec::new(); FAMILIES.len()];
    for clause in clauses {
        let first_line = clause_title(&text[clause.span.start..clause.span.end]);
        let (name, kind, selection) = match &clause.kind {
            ClauseKind::Piece(piece) => {
                (piece.name.value.clone(), SymbolKind::Piece, piece.name.span)
            }
            ClauseKind::Region { name, .. } => (name.value.clone(), SymbolKind::Region, name.span),
            ClauseKind::Name(_)
            | ClauseKind::Source(_)
            | ClauseKind::Family(_)
            | ClauseKind::Note(_)
            | ClauseKind::Board { .. }
            | ClauseKind::SideName { .. }
            | ClauseKind::FirstMove(_)
            | ClauseKind::Setup(_)
            | ClauseKind::Movement { .. }
            | ClauseKind::Access { .. }
            | ClauseKind::Armed { .. }
            | ClauseKind::Hostility { .. }
            | ClauseKind::KingCapture { .. }
            | ClauseKind::Win { .. }
            | ClauseKind::Shieldwall { .. }
            | ClauseKind::Encirclement { .. }
            | ClauseKind::SideLoses { .. }
            | ClauseKind::NoMovesLoses
            | ClauseKind::RepetitionLoses { .. }
            | ClauseKind::Draw { .. }
            | ClauseKind::Jump { .. }
            | ClauseKind::Berserk(_)
            | ClauseKind::Sandwich { .. }
            | ClauseKind::BackAndForth(_)
            | ClauseKind::Announce { .. } => (first_line, SymbolKind::Clause, clause.span),
        };
        families[family(&clause.kind)].push(Symbol {
            name,
            kind,
            span: clause.span,
            selection,
            children: Vec::new(),
        });
    }
    FAMILIES
        .iter()
        .zip(families)
        .filter(|(_, children)| !children.is_empty())
        .map(|(title, children)| {
            let span = children
                .iter()
                .map(|child| child.span)
                .reduce(Span::join)
                .unwrap_or_default();
            Symbol {
                name: title.to_string(),
                kind: SymbolKind::Family,
                span,
                selection: children[0].span,
                children,
            }
        })
        .collect()
}
