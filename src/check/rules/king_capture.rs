//! King capture: where and how a king is taken, kings taken between two captors, and the
//! captures that end the game.

use std::collections::BTreeMap;

use super::{contradiction, region_names, same_side, Pass};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{
    DecisiveCapture, KingCaptureMethod, KingCaptureRule, KingSandwich, Place, Role, RuleRef, Side,
    Square,
};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `the king is captured beside the throne when surrounded on four sides, counting the
    /// throne`. Kept until every clause is read: [`Pass::resolve_king_capture`] gives each
    /// square its rule.
    pub(super) fn king_capture(
        &mut self,
        span: Span,
        pieces: &ast::PieceSet,
        place: &Spanned<ast::PlaceSpec>,
        method: &Spanned<ast::CaptureSpec>,
        counting: &[ast::RegionRef],
        own_move: bool,
    ) {
        let checker = &mut *self.checker;
        let kings = checker.piece_set(pieces);
        for &piece in &kings {
            if checker.pieces[piece].role != Role::King {
                let name = checker.pieces[piece].name.clone();
                checker.report(
                    Diagnostic::error(Code::NotAKing, format!("`{name}` is not a king"))
                        .label(pieces.span, "king-capture clauses are about kings")
                        .help(format!(
                            "soldiers are captured between two enemies; to make `{name}` a king, declare it `piece <symbol> {name}: <side> king`"
                        )),
                );
            }
        }
        let place_ir = match &place.value {
            ast::PlaceSpec::On(region) => checker
                .region(region)
                .map(|index| Place::On(checker.regions[index].name.clone())),
            ast::PlaceSpec::Beside(region) => checker
                .region(region)
                .map(|index| Place::Beside(checker.regions[index].name.clone())),
            ast::PlaceSpec::Elsewhere | ast::PlaceSpec::Anywhere => Some(Place::Elsewhere),
        };
        let mut counted = Vec::new();
        let mut edge_counts = false;
        for region in counting {
            if region.value == "edge" {
                edge_counts = true;
            } else if let Some(index) = checker.region(region) {
                counted.push(checker.regions[index].name.clone());
            }
        }
        let method_ir = match &method.value {
            ast::CaptureSpec::Enclosed => KingCaptureMethod::Enclosed,
            ast::CaptureSpec::Custodial => KingCaptureMethod::Custodial,
            ast::CaptureSpec::Together(region) => {
                // The square taken with the king is one of the region's beside him: the clause
                // must apply beside that same region (NorseAmerica's king beside the throne).
                let together = checker
                    .region(region)
                    .map(|index| checker.regions[index].name.clone());
                if let (Some(together), Some(place_ir)) = (&together, &place_ir) {
                    if *place_ir != Place::Beside(together.clone()) {
                        let name = &region.value;
                        checker.report(
                            Diagnostic::error(
                                Code::TogetherNotBeside,
                                format!("the king is taken together with the {name} only where he stands beside it"),
                            )
                            .label(place.span, format!("this place is not beside the {name}"))
                            .label(method.span, format!("the king and a square of the {name} beside him, enclosed as one"))
                            .help(format!(
                                "say where the rule applies: `the king is captured beside the {name} when surrounded together with the {name}`"
                            ))
                            .fix(place.span, format!("beside the {name}")),
                        );
                    }
                }
                if together.is_none() {
                    return;
                }
                KingCaptureMethod::EnclosedTogether
            }
        };
        if method_ir == KingCaptureMethod::EnclosedTogether
            && !matches!(place_ir, Some(Place::Beside(_)))
        {
            // Reported above; the rule is left out rather than given a place it cannot have.
            return;
        }
        let method = method_ir;
        if let Some(place_ir) = place_ir {
            let rule = KingCaptureRule {
                place: place_ir,
                squares: Vec::new(),
                method,
                counting: counted,
                edge_counts,
                after_own_move: own_move,
            };
            self.king_places.push((place.value.clone(), span, rule));
        }
    }

    /// `the king is also captured between two commanders`
    pub(super) fn sandwich(
        &mut self,
        span: Span,
        kings: &ast::PieceSet,
        captors: &ast::PieceSet,
        counting: &[ast::RegionRef],
        except_on: &[ast::RegionRef],
    ) {
        let checker = &mut *self.checker;
        let king_kinds = checker.piece_set(kings);
        let captor_kinds = checker.piece_set(captors);
        let mut broken = false;
        for &k in &king_kinds {
            if checker.pieces[k].role != Role::King {
                let name = checker.pieces[k].name.clone();
                checker.report(
                    Diagnostic::error(Code::NotAKing, format!("`{name}` is not a king"))
                        .label(kings.span, "this clause takes kings between two captors")
                        .help(format!("soldiers are captured between two enemies already; to make `{name}` a king, declare it `piece <symbol> {name}: <side> king`")),
                );
                broken = true;
            }
        }
        let friends = same_side(checker, &captor_kinds, &king_kinds);
        if !friends.is_empty() {
            let names = checker.names(&friends).join("`, `");
            checker.report(
                Diagnostic::error(
                    Code::NotAnEnemy,
                    format!("a king is captured by enemies, and `{names}` fight on his side"),
                )
                .label(captors.span, "these would capture him")
                .help(
                    "name the enemy pieces that take him this way, e.g. `between two commanders`",
                ),
            );
            broken = true;
        }
        let counting = region_names(checker, counting);
        let except_on = region_names(checker, except_on);
        if broken || king_kinds.is_empty() || captor_kinds.is_empty() {
            return;
        }
        checker.source_map.insert(
            RuleRef::KingSandwich(self.rules.king_sandwiches.len()),
            span,
        );
        self.rules.king_sandwiches.push(KingSandwich {
            kings: checker.names(&king_kinds),
            captors: checker.names(&captor_kinds),
            counting,
            except_on,
        });
    }

    /// `attackers win when the king is captured`
    pub(super) fn decisive_capture(&mut self, span: Span, winner: Side, pieces: Vec<usize>) {
        for piece in pieces {
            let captures = &mut self.rules.outcome.decisive_captures;
            self.checker
                .source_map
                .insert(RuleRef::DecisiveCapture(captures.len()), span);
            captures.push(DecisiveCapture {
                piece: self.checker.pieces[piece].name.clone(),
                winner,
            });
        }
    }

    /// Gives every square exactly one king-capture rule: clauses in file order, `elsewhere`
    /// last, each square to the first clause whose place covers it; uncovered squares get the
    /// default, capture like a soldier.
    pub(super) fn resolve_king_capture(&mut self) {
        let places = std::mem::take(&mut self.king_places);
        let checker = &mut *self.checker;
        let rules = &mut *self.rules;
        let Some(board) = checker.board else { return };
        let all: Vec<Square> = (0..board.height)
            .flat_map(|rank| (0..board.width).map(move |file| Square::new(file, rank)))
            .collect();
        let mut seen: Vec<(Place, Span, KingCaptureRule)> = Vec::new();
        let mut owner: BTreeMap<Square, Span> = BTreeMap::new();
        let anywhere = places
            .iter()
            .find(|(place, _, _)| *place == ast::PlaceSpec::Anywhere)
            .map(|(_, span, _)| *span);

        let (specific, general): (Vec<_>, Vec<_>) =
            places.into_iter().partition(|(place, _, _)| {
                matches!(place, ast::PlaceSpec::On(_) | ast::PlaceSpec::Beside(_))
            });
        for (place, span, mut rule) in specific.into_iter().chain(general) {
            // `elsewhere` and `anywhere` both resolve to `Place::Elsewhere`: one general clause
            // only.
            if let Some((_, first, first_rule)) =
                seen.iter().find(|(other, _, _)| *other == rule.place)
            {
                let diagnostic = if *first_rule == rule {
                    Diagnostic::error(
                        Code::DuplicateClause,
                        "the same king-capture clause is given twice",
                    )
                    .label(span, "given again here")
                    .label(*first, "first given here")
                    .help("delete one of the two")
                } else {
                    contradiction(span, *first, "how the king is captured there")
                };
                checker.report(diagnostic);
                continue;
            }
            if let (Some(anywhere), false) = (anywhere, place == ast::PlaceSpec::Anywhere) {
                checker.report(
                    contradiction(span, anywhere, "where each king-capture rule applies")
                        .help("`anywhere` already covers every square: say `elsewhere` for the squares no other clause covers"),
                );
                continue;
            }
            seen.push((rule.place.clone(), span, rule.clone()));
            let covered: Vec<Square> = match &rule.place {
                Place::On(region) => region_squares(checker, region),
                Place::Beside(region) => {
                    let squares = region_squares(checker, region);
                    all.iter()
                        .copied()
                        .filter(|square| {
                            !squares.contains(square)
                                && squares.iter().any(|other| adjacent(*square, *other))
                        })
                        .collect()
                }
                Place::Elsewhere => all.clone(),
            };
            rule.squares = covered
                .into_iter()
                .filter(|square| !owner.contains_key(square))
                .collect();
            if rule.squares.is_empty() {
                checker.report(
                    Diagnostic::warning(Code::DeadRule, "this king-capture clause applies nowhere")
                        .label(
                            span,
                            "every square it names is covered by an earlier clause",
                        )
                        .help(
                            "delete it, or make its place more specific than the clauses before it",
                        ),
                );
                continue;
            }
            for square in &rule.squares {
                owner.insert(*square, span);
            }
            checker
                .source_map
                .insert(RuleRef::KingCapture(rules.king_capture.len()), span);
            rules.king_capture.push(rule);
        }
        let rest: Vec<Square> = all
            .into_iter()
            .filter(|square| !owner.contains_key(square))
            .collect();
        if !rest.is_empty() {
            rules.king_capture.push(KingCaptureRule {
                place: Place::Elsewhere,
                squares: rest,
                method: KingCaptureMethod::Custodial,
                counting: Vec::new(),
                edge_counts: false,
                after_own_move: false,
            });
        }
    }
}

fn region_squares(checker: &super::Checker, name: &str) -> Vec<Square> {
    checker
        .regions
        .iter()
        .find(|region| region.name == name)
        .map(|region| region.squares.clone())
        .unwrap_or_default()
}

fn adjacent(a: Square, b: Square) -> bool {
    a.file.abs_diff(b.file) + a.rank.abs_diff(b.rank) == 1
}
