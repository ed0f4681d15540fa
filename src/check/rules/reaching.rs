//! Reaching (escape): a piece that reaches a region wins, and the announcements of open routes
//! to it.

use super::{positive, Pass};
use crate::check::limits::MAX_COUNT;
use crate::ir::{Announcement, Escape, RuleRef, Side};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `defenders win when the king reaches a corner`
    pub(super) fn escape(
        &mut self,
        span: Span,
        winner: Side,
        pieces: Vec<usize>,
        region: &ast::RegionRef,
    ) {
        let Some(region) = self.checker.region(region) else {
            self.checker.meant_to_win.push(winner);
            return;
        };
        for piece in pieces {
            let escapes = &mut self.rules.outcome.escapes;
            self.checker
                .source_map
                .insert(RuleRef::Escape(escapes.len()), span);
            escapes.push(Escape {
                piece: self.checker.pieces[piece].name.clone(),
                region: self.checker.regions[region].name.clone(),
                winner,
            });
        }
    }

    /// `announce "raichi" when the king has 1 clear route to corners`
    pub(super) fn announce(
        &mut self,
        span: Span,
        word: &Spanned<String>,
        piece: &Spanned<String>,
        routes: &Spanned<u32>,
        region: &ast::RegionRef,
    ) {
        let checker = &mut *self.checker;
        let piece_index = checker.piece_index(&piece.value);
        if piece_index.is_none() {
            // Reported as an unknown piece, with the same words as any other piece set.
            let set = ast::PieceSet {
                items: vec![Spanned::new(
                    ast::PieceSetItem::Named(piece.value.clone()),
                    piece.span,
                )],
                span: piece.span,
            };
            checker.piece_set(&set);
        }
        let region = checker.region(region);
        let routes = positive(checker, routes, (1, MAX_COUNT), "the number of routes");
        if let (Some(piece), Some(region), Some(routes)) = (piece_index, region, routes) {
            let announcements = &mut self.rules.announcements;
            checker
                .source_map
                .insert(RuleRef::Announcement(announcements.len()), span);
            announcements.push(Announcement {
                word: word.value.clone(),
                piece: checker.pieces[piece].name.clone(),
                routes,
                region: checker.regions[region].name.clone(),
            });
        }
    }
}
