//! Every place a file names a piece or a region: declarations and uses, for go to definition,
//! find references and hover.

use crate::span::Span;
use crate::syntax::ast::{self, ClauseKind};

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// A piece kind (`king`, `muscovite`).
    Piece,
    /// A region (`throne`, `corners`).
    Region,
}

/// One occurrence of a name in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameUse {
    /// The name as written (`corner` for the region `corners`, `muscovites` for `muscovite`).
    pub written: String,
    /// Where.
    pub span: Span,
    /// A piece or a region.
    pub kind: NameKind,
    /// Whether this is the declaration (`piece K king: ...`, `region camps = ...`).
    pub is_declaration: bool,
}

/// The names of `file`, in file order.
pub fn name_uses(file: &ast::File) -> Vec<NameUse> {
    let mut uses = Vec::new();
    for clause in &file.clauses {
        collect(&clause.kind, &mut uses);
    }
    uses.sort_by_key(|name| name.span.start);
    uses
}

fn piece(uses: &mut Vec<NameUse>, written: &str, span: Span) {
    uses.push(NameUse {
        written: written.to_string(),
        span,
        kind: NameKind::Piece,
        is_declaration: false,
    });
}

fn region(uses: &mut Vec<NameUse>, reference: &ast::RegionRef) {
    uses.push(NameUse {
        written: reference.value.clone(),
        span: reference.span,
        kind: NameKind::Region,
        is_declaration: false,
    });
}

fn piece_set(uses: &mut Vec<NameUse>, set: &ast::PieceSet) {
    for item in &set.items {
        match &item.value {
            ast::PieceSetItem::Named(name) => piece(uses, name, item.span),
            ast::PieceSetItem::Everyone
            | ast::PieceSetItem::Side(_)
            | ast::PieceSetItem::Role(_)
            | ast::PieceSetItem::SideRole(..) => {}
        }
    }
}

/// No `_` arm: a new clause does not compile until this says which names it holds.
fn collect(kind: &ClauseKind, uses: &mut Vec<NameUse>) {
    match kind {
        ClauseKind::Name(_)
        | ClauseKind::Source(_)
        | ClauseKind::Family(_)
        | ClauseKind::Note(_)
        | ClauseKind::Board { .. }
        | ClauseKind::SideName { .. }
        | ClauseKind::FirstMove(_)
        | ClauseKind::Setup(_)
        | ClauseKind::NoMovesLoses
        | ClauseKind::RepetitionLoses { .. }
        | ClauseKind::Encirclement { .. }
        | ClauseKind::SideLoses { .. }
        | ClauseKind::Draw { .. }
        | ClauseKind::BackAndForth(_)
        | ClauseKind::Berserk(_) => {}
        ClauseKind::Jump {
            pieces,
            over,
            only_from_or_to,
            ..
        } => {
            piece_set(uses, pieces);
            piece_set(uses, over);
            for at in only_from_or_to {
                region(uses, at);
            }
        }
        ClauseKind::Sandwich {
            kings,
            captors,
            counting,
            except_on,
        } => {
            piece_set(uses, kings);
            piece_set(uses, captors);
            for at in counting.iter().chain(except_on) {
                region(uses, at);
            }
        }
        ClauseKind::Shieldwall {
            victims, counting, ..
        } => {
            piece_set(uses, victims);
            for at in counting {
                region(uses, at);
            }
        }
        ClauseKind::Piece(declaration) => uses.push(NameUse {
            written: declaration.name.value.clone(),
            span: declaration.name.span,
            kind: NameKind::Piece,
            is_declaration: true,
        }),
        ClauseKind::Region { name, .. } => uses.push(NameUse {
            written: name.value.clone(),
            span: name.span,
            kind: NameKind::Region,
            is_declaration: true,
        }),
        ClauseKind::Movement { pieces, .. } | ClauseKind::Armed { pieces, .. } => {
            piece_set(uses, pieces)
        }
        ClauseKind::Access {
            who, region: at, ..
        } => {
            match who {
                ast::Who::Nobody(_) => {}
                ast::Who::Only(set) | ast::Who::Pieces(set) => piece_set(uses, set),
            }
            region(uses, at);
        }
        ClauseKind::Hostility {
            region: at,
            victims,
            when,
        } => {
            region(uses, at);
            piece_set(uses, victims);
            if let Some(ast::HostileWhen::Occupied { by: Some(by), .. }) =
                when.as_ref().map(|when| &when.value)
            {
                piece_set(uses, by);
            }
        }
        ClauseKind::KingCapture {
            pieces,
            place,
            counting,
            ..
        } => {
            piece_set(uses, pieces);
            match &place.value {
                ast::PlaceSpec::On(at) | ast::PlaceSpec::Beside(at) => region(uses, at),
                ast::PlaceSpec::Elsewhere | ast::PlaceSpec::Anywhere => {}
            }
            for at in counting {
                region(uses, at);
            }
        }
        ClauseKind::Win { pieces, event, .. } => {
            piece_set(uses, pieces);
            match event {
                ast::WinEvent::Reaches(at) => region(uses, at),
                ast::WinEvent::Captured(_) | ast::WinEvent::HoldsFort(_) => {}
            }
        }
        ClauseKind::Announce {
            piece: name,
            region: at,
            ..
        } => {
            piece(uses, &name.value, name.span);
            region(uses, at);
        }
    }
}
