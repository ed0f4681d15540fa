//! Pass 2: every rule clause resolved against the declarations into IR rules, with the
//! contradictions between clauses reported.

use std::collections::BTreeMap;

use super::Checker;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::RuleRef;
use crate::ir::{
    AccessCondition, AccessRule, Action, Announcement, Armed, Berserk, Claim, DecisiveCapture,
    EdgeFort, Encirclement, EncirclementReading, Escape, Hostile, HostilityRule, JumpRule,
    KingCaptureMethod, KingCaptureRule, KingSandwich, MoveLimit, MoveStyle, Movement, NoMoves,
    Place, Repetition, RepetitionResult, Role, Rules, Shieldwall, ShieldwallTrigger, Side, Square,
};
use crate::span::{Span, Spanned};
use crate::syntax::ast::{self, ClauseKind};

/// A value set by a clause, remembered with the clause's span to report contradictions.
type SetBy<T> = Option<(T, Span)>;

/// Sets `slot` to `value` from the clause at `span`, reporting a clause that says otherwise.
fn set_once<T: PartialEq + Clone>(
    checker: &mut Checker,
    slot: &mut SetBy<T>,
    value: T,
    span: Span,
    what: &str,
) -> bool {
    match slot {
        Some((existing, first)) if *existing != value => {
            let first = *first;
            checker.report(contradiction(span, first, what));
            false
        }
        Some(_) => false,
        None => {
            *slot = Some((value, span));
            true
        }
    }
}

fn contradiction(span: Span, first: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::Contradiction,
        format!("two clauses disagree on {what}"),
    )
    .label(span, "contradicted here")
    .label(first, "first said here")
    .help("keep the clause the variant means and delete the other")
}

fn positive(checker: &mut Checker, number: &Spanned<u32>, minimum: u32, what: &str) -> Option<u32> {
    if number.value < minimum {
        checker.report(
            Diagnostic::error(
                Code::BadNumber,
                format!("{what} must be at least {minimum}"),
            )
            .label(number.span, format!("{} is too small", number.value))
            .help(format!("write a number from {minimum} up")),
        );
        None
    } else {
        Some(number.value)
    }
}

pub(super) fn rules(checker: &mut Checker, file: &ast::File, rules: &mut Rules) {
    let piece_count = checker.pieces.len();
    let mut movement: Vec<SetBy<Movement>> = vec![None; piece_count];
    let mut armed: Vec<SetBy<Armed>> = vec![None; piece_count];
    // (piece, square, landing?) → (allowed, clause span), for unconditional access verdicts.
    let mut verdicts: BTreeMap<(usize, Square, bool), (bool, Span)> = BTreeMap::new();
    let mut no_moves: [SetBy<NoMoves>; 2] = [None, None];
    let mut encirclements: Vec<(Encirclement, Span)> = Vec::new();
    let mut shieldwall: SetBy<Shieldwall> = None;
    let mut berserk: SetBy<Berserk> = None;
    // Per piece kind, the jump clause that gave it its jump and that jump's index in `rules.jumps`.
    let mut jumper: Vec<Option<(Span, usize)>> = vec![None; checker.pieces.len()];
    let mut repetition: SetBy<Repetition> = None;
    let mut back_and_forth: SetBy<u32> = None;
    let mut no_capture: SetBy<MoveLimit> = None;
    let mut king_places: Vec<(ast::PlaceSpec, Span, KingCaptureRule)> = Vec::new();

    for clause in &file.clauses {
        let span = clause.span;
        match &clause.kind {
            ClauseKind::Movement {
                pieces,
                movement: spec,
            } => {
                let pieces = checker.piece_set(pieces);
                let value = match &spec.value {
                    ast::MovementSpec::Rook { max: None } => Movement {
                        style: MoveStyle::Rook,
                        max_distance: None,
                    },
                    ast::MovementSpec::Rook { max: Some(max) } => {
                        let Some(max) = positive(checker, max, 1, "a move's length") else {
                            continue;
                        };
                        Movement {
                            style: MoveStyle::Rook,
                            max_distance: Some(max.min(255) as u8),
                        }
                    }
                    ast::MovementSpec::AnyEmptySquare => Movement {
                        style: MoveStyle::AnyEmptySquare,
                        max_distance: None,
                    },
                };
                for piece in pieces {
                    let what = format!("how `{}` moves", checker.pieces[piece].name);
                    if set_once(checker, &mut movement[piece], value, span, &what) {
                        checker.pieces[piece].movement = value;
                        checker.source_map.insert(RuleRef::Movement(piece), span);
                    }
                }
            }
            ClauseKind::Armed {
                pieces,
                armed: spec,
            } => {
                let pieces = checker.piece_set(pieces);
                let value = match spec.value {
                    ast::Armedness::Armed => Armed::Yes,
                    ast::Armedness::Unarmed => Armed::No,
                    ast::Armedness::Hammer => Armed::Hammer,
                    ast::Armedness::Anvil => Armed::Anvil,
                };
                for piece in pieces {
                    let what = format!("whether `{}` is armed", checker.pieces[piece].name);
                    if set_once(checker, &mut armed[piece], value, span, &what) {
                        checker.pieces[piece].armed = value;
                        checker.source_map.insert(RuleRef::Armed(piece), span);
                    }
                }
            }
            ClauseKind::Access {
                who,
                allowed,
                action,
                region,
                condition,
            } => {
                let Some(region) = checker.region(region) else {
                    continue;
                };
                // A permission bars nobody, so a condition on it has nothing to limit.
                if let (true, ast::Who::Pieces(_), Some(condition)) = (*allowed, who, condition) {
                    checker.report(
                        Diagnostic::warning(Code::DeadRule, "a condition on a clause that bars no piece has no effect")
                            .label(condition.span, "ignored")
                            .help("conditions say when pieces are barred: write the clause with `may not`, e.g. `attackers may not enter camps once they have left them`"),
                    );
                }
                if let (ast::Who::Nobody(nobody), false) = (who, *allowed) {
                    checker.report(
                        Diagnostic::warning(Code::DeadRule, "`nobody may not ...` bars no piece")
                            .label(*nobody, "this clause has no effect")
                            .help("to bar every piece write `nobody may ...`; to let every piece, delete the clause"),
                    );
                }
                let (barred, permitted) = match who {
                    // `nobody may not ...` says nothing; the grammar allows it, the rules ignore it.
                    ast::Who::Nobody(_) if !*allowed => (Vec::new(), Vec::new()),
                    ast::Who::Nobody(_) => ((0..piece_count).collect(), Vec::new()),
                    ast::Who::Only(set) => {
                        let only = checker.piece_set(set);
                        let others = (0..piece_count)
                            .filter(|piece| !only.contains(piece))
                            .collect();
                        if *allowed {
                            (others, only)
                        } else {
                            (only, others)
                        }
                    }
                    ast::Who::Pieces(set) => {
                        let pieces = checker.piece_set(set);
                        if *allowed {
                            (Vec::new(), pieces)
                        } else {
                            (pieces, Vec::new())
                        }
                    }
                };
                let action = match action.value {
                    ast::AccessAction::Land => Action::Land,
                    ast::AccessAction::Pass => Action::Pass,
                    ast::AccessAction::Enter => Action::Enter,
                };
                let condition_value = match condition.as_ref().map(|condition| condition.value) {
                    None => AccessCondition::Always,
                    Some(ast::AccessWhen::OnceLeft) => AccessCondition::OnceLeft,
                    Some(ast::AccessWhen::WhileGroupEmpty) => AccessCondition::WhileGroupEmpty,
                };
                if condition_value == AccessCondition::Always {
                    let squares = checker.regions[region].squares.clone();
                    let parts: Vec<bool> = match action {
                        Action::Land => vec![true],
                        Action::Pass => vec![false],
                        Action::Enter => vec![true, false],
                    };
                    'verdicts: for (pieces, verdict) in [(&barred, false), (&permitted, true)] {
                        for &piece in pieces {
                            for &square in &squares {
                                for &landing in &parts {
                                    match verdicts.get(&(piece, square, landing)) {
                                        Some(&(existing, first)) if existing != verdict => {
                                            let what = format!(
                                                "whether `{}` may {} {square}",
                                                checker.pieces[piece].name,
                                                if landing { "land on" } else { "pass through" }
                                            );
                                            checker.report(contradiction(span, first, &what));
                                            break 'verdicts;
                                        }
                                        Some(_) => {}
                                        None => {
                                            verdicts
                                                .insert((piece, square, landing), (verdict, span));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                if !barred.is_empty() {
                    checker
                        .source_map
                        .insert(RuleRef::Access(rules.access.len()), span);
                    rules.access.push(AccessRule {
                        pieces: checker.names(&barred),
                        action,
                        region: checker.regions[region].name.clone(),
                        condition: condition_value,
                    });
                }
            }
            ClauseKind::Hostility {
                region,
                victims,
                when,
            } => {
                let region = checker.region(region);
                let victims = checker.piece_set(victims);
                let when = match when.as_ref().map(|when| &when.value) {
                    None => Some(Hostile::Always),
                    Some(ast::HostileWhen::Empty) => Some(Hostile::WhenEmpty),
                    Some(ast::HostileWhen::Occupied { by, enemies_beside }) => {
                        let by = match by {
                            Some(set) => checker.piece_set(set),
                            None => (0..piece_count).collect(),
                        };
                        let enemies = match enemies_beside {
                            Some(number) if number.value > 4 => {
                                checker.report(
                                    Diagnostic::error(
                                        Code::BadNumber,
                                        "a square has at most 4 neighbours",
                                    )
                                    .label(
                                        number.span,
                                        format!(
                                            "{} enemies cannot stand beside one square",
                                            number.value
                                        ),
                                    )
                                    .help("write a number from 1 to 4"),
                                );
                                None
                            }
                            Some(number) => Some(number.value as u8),
                            None => Some(0),
                        };
                        enemies.map(|enemies_beside| Hostile::WhenOccupied {
                            by: checker.names(&by),
                            enemies_beside,
                        })
                    }
                };
                if let (Some(region), Some(when)) = (region, when) {
                    checker
                        .source_map
                        .insert(RuleRef::Hostility(rules.hostility.len()), span);
                    rules.hostility.push(HostilityRule {
                        region: checker.regions[region].name.clone(),
                        victims: checker.names(&victims),
                        when,
                    });
                }
            }
            ClauseKind::KingCapture {
                pieces,
                place,
                method,
                counting,
                own_move,
            } => {
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
                let method = match method.value {
                    ast::CaptureSpec::Enclosed => KingCaptureMethod::Enclosed,
                    ast::CaptureSpec::Custodial => KingCaptureMethod::Custodial,
                };
                if let Some(place_ir) = place_ir {
                    let rule = KingCaptureRule {
                        place: place_ir,
                        squares: Vec::new(),
                        method,
                        counting: counted,
                        edge_counts,
                        after_own_move: own_move.is_some(),
                    };
                    king_places.push((place.value.clone(), span, rule));
                }
            }
            ClauseKind::Win {
                side,
                pieces,
                event,
            } => {
                let pieces = checker.piece_set(pieces);
                if pieces.is_empty() {
                    checker.meant_to_win.push(side.value);
                }
                match event {
                    ast::WinEvent::Reaches(region) => {
                        let Some(region) = checker.region(region) else {
                            checker.meant_to_win.push(side.value);
                            continue;
                        };
                        for piece in pieces {
                            checker
                                .source_map
                                .insert(RuleRef::Escape(rules.outcome.escapes.len()), span);
                            rules.outcome.escapes.push(Escape {
                                piece: checker.pieces[piece].name.clone(),
                                region: checker.regions[region].name.clone(),
                                winner: side.value,
                            });
                        }
                    }
                    ast::WinEvent::HoldsFort(_) => {
                        for piece in pieces {
                            checker
                                .source_map
                                .insert(RuleRef::EdgeFort(rules.outcome.edge_forts.len()), span);
                            rules.outcome.edge_forts.push(EdgeFort {
                                piece: checker.pieces[piece].name.clone(),
                                winner: side.value,
                            });
                        }
                    }
                    ast::WinEvent::Captured(_) => {
                        for piece in pieces {
                            checker.source_map.insert(
                                RuleRef::DecisiveCapture(rules.outcome.decisive_captures.len()),
                                span,
                            );
                            rules.outcome.decisive_captures.push(DecisiveCapture {
                                piece: checker.pieces[piece].name.clone(),
                                winner: side.value,
                            });
                        }
                    }
                }
            }
            ClauseKind::NoMovesLoses => {
                for side in [Side::Attackers, Side::Defenders] {
                    set_no_moves(checker, &mut no_moves, side, NoMoves::Loses, span);
                }
            }
            ClauseKind::SideLoses { side, condition } => match condition {
                ast::SideLossCondition::NoMoves(_) => {
                    set_no_moves(checker, &mut no_moves, side.value, NoMoves::Loses, span);
                }
                ast::SideLossCondition::Repetition(count) => {
                    let Some(occurrences) =
                        positive(checker, count, 2, "the number of occurrences")
                    else {
                        continue;
                    };
                    let value = Repetition {
                        occurrences,
                        result: RepetitionResult::Loses(side.value),
                        claim: Claim::Automatic,
                    };
                    if set_once(checker, &mut repetition, value, span, "repeated positions") {
                        checker.source_map.insert(RuleRef::Repetition, span);
                    }
                }
            },
            ClauseKind::Encirclement {
                side,
                enclosed,
                reading,
            } => {
                if enclosed.value == side.value {
                    checker.report(
                        Diagnostic::error(
                            Code::Contradiction,
                            "a side cannot win by enclosing its own pieces",
                        )
                        .label(enclosed.span, "this names the winner's own side")
                        .help(format!(
                            "name the other side: `{} win when no {} can reach the edge`",
                            side_plural(side.value),
                            side_singular(side.value.opponent())
                        )),
                    );
                    continue;
                }
                let value = Encirclement {
                    winner: side.value,
                    reading: match reading {
                        ast::EnclosureWords::NoEdgeAccess => EncirclementReading::NoEdgeAccess,
                        ast::EnclosureWords::EverySurrounded => {
                            EncirclementReading::EverySurrounded
                        }
                    },
                };
                if let Some((_, first)) = encirclements.iter().find(|(seen, _)| *seen == value) {
                    checker.report(
                        Diagnostic::error(
                            Code::DuplicateClause,
                            "the same encirclement clause is given twice",
                        )
                        .label(span, "given again here")
                        .label(*first, "first given here")
                        .help("delete one of the two"),
                    );
                    continue;
                }
                checker
                    .source_map
                    .insert(RuleRef::Encirclement(encirclements.len()), span);
                encirclements.push((value, span));
            }
            ClauseKind::Shieldwall {
                victims,
                counting,
                after_any_move,
            } => {
                let victims = checker.piece_set(victims);
                let value = Shieldwall {
                    victims: checker.names(&victims),
                    counting: region_names(checker, counting),
                    trigger: if after_any_move.is_some() {
                        ShieldwallTrigger::AnyMove
                    } else {
                        ShieldwallTrigger::Flanking
                    },
                };
                if set_once(checker, &mut shieldwall, value, span, "the shieldwall") {
                    checker.source_map.insert(RuleRef::Shieldwall, span);
                }
            }
            ClauseKind::RepetitionLoses { count, mover_wins } => {
                let Some(occurrences) = positive(checker, count, 2, "the number of occurrences")
                else {
                    continue;
                };
                let value = Repetition {
                    occurrences,
                    result: if *mover_wins {
                        RepetitionResult::MoverWins
                    } else {
                        RepetitionResult::MoverLoses
                    },
                    claim: Claim::Automatic,
                };
                if set_once(checker, &mut repetition, value, span, "repeated positions") {
                    checker.source_map.insert(RuleRef::Repetition, span);
                }
            }
            ClauseKind::Draw {
                condition,
                on_claim,
            } => {
                let claim = if on_claim.is_some() {
                    Claim::Claimable
                } else {
                    Claim::Automatic
                };
                match condition {
                    ast::DrawCondition::Repetition(count) => {
                        let Some(occurrences) =
                            positive(checker, count, 2, "the number of occurrences")
                        else {
                            continue;
                        };
                        let value = Repetition {
                            occurrences,
                            result: RepetitionResult::Draw,
                            claim,
                        };
                        if set_once(checker, &mut repetition, value, span, "repeated positions") {
                            checker.source_map.insert(RuleRef::Repetition, span);
                        }
                    }
                    ast::DrawCondition::NoCapture(count) => {
                        let Some(moves) = positive(checker, count, 1, "the number of moves") else {
                            continue;
                        };
                        let value = MoveLimit { moves, claim };
                        if set_once(
                            checker,
                            &mut no_capture,
                            value,
                            span,
                            "moves without capture",
                        ) {
                            checker.source_map.insert(RuleRef::NoCaptureDraw, span);
                        }
                    }
                    ast::DrawCondition::NoMoves(_) | ast::DrawCondition::Agreement(_) => {
                        if let Some(claim_span) = on_claim {
                            checker.report(
                                Diagnostic::warning(Code::DeadRule, "`on claim` means nothing here")
                                    .label(*claim_span, "ignored")
                                    .help("only repetition and move-count draws can be claimed; delete `, on claim`"),
                            );
                        }
                        if let ast::DrawCondition::NoMoves(only) = condition {
                            let sides = match only {
                                Some(side) => vec![side.value],
                                None => vec![Side::Attackers, Side::Defenders],
                            };
                            for side in sides {
                                set_no_moves(checker, &mut no_moves, side, NoMoves::Draw, span);
                            }
                        } else {
                            checker.source_map.insert(RuleRef::DrawByAgreement, span);
                        }
                    }
                }
            }
            ClauseKind::BackAndForth(count) => {
                let Some(limit) = positive(checker, count, 1, "the number of times") else {
                    continue;
                };
                if set_once(
                    checker,
                    &mut back_and_forth,
                    limit,
                    span,
                    "moving back and forth",
                ) {
                    checker.source_map.insert(RuleRef::BackAndForth, span);
                }
            }
            ClauseKind::Announce {
                word,
                piece,
                routes,
                region,
            } => {
                let piece_index = checker.piece_index(&piece.value);
                if piece_index.is_none() {
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
                let routes = positive(checker, routes, 1, "the number of routes");
                if let (Some(piece), Some(region), Some(routes)) = (piece_index, region, routes) {
                    checker
                        .source_map
                        .insert(RuleRef::Announcement(rules.announcements.len()), span);
                    rules.announcements.push(Announcement {
                        word: word.value.clone(),
                        piece: checker.pieces[piece].name.clone(),
                        routes,
                        region: checker.regions[region].name.clone(),
                    });
                }
            }
            ClauseKind::Jump {
                pieces,
                over,
                only_from_or_to,
                captures,
            } => {
                let jumpers = checker.piece_set(pieces);
                let jumped = checker.piece_set(over);
                let friends = same_side(checker, &jumped, &jumpers);
                if !friends.is_empty() {
                    let names = checker.names(&friends).join("`, `");
                    checker.report(
                        Diagnostic::error(
                            Code::NotAnEnemy,
                            format!("a piece jumps only over enemies, and `{names}` fight on the jumper's side"),
                        )
                        .label(over.span, "these are jumped")
                        .label(pieces.span, "by these")
                        .help("name the enemy pieces that may be jumped, e.g. `the knight may jump over an attacker`"),
                    );
                    continue;
                }
                let regions = region_names(checker, only_from_or_to);
                if jumpers.is_empty() || jumped.is_empty() {
                    continue; // an unknown name, reported by `piece_set`
                }
                let jump = JumpRule {
                    pieces: checker.names(&jumpers),
                    over: checker.names(&jumped),
                    only_from_or_to: regions,
                    captures: captures.is_some(),
                };
                // One diagnostic a clause, for the first kind that already jumps.
                if let Some((k, (first, earlier))) = jumpers
                    .iter()
                    .find_map(|&k| jumper[k].map(|given| (k, given)))
                {
                    let earlier = &rules.jumps[earlier];
                    let same = earlier.over == jump.over
                        && earlier.only_from_or_to == jump.only_from_or_to
                        && earlier.captures == jump.captures;
                    let name = &checker.pieces[k].name;
                    let diagnostic = if same {
                        Diagnostic::error(
                            Code::DuplicateClause,
                            format!("the {name}'s jump is given twice"),
                        )
                        .label(span, "given again here")
                        .label(first, "first given here")
                        .help("delete one of the two")
                    } else {
                        contradiction(span, first, &format!("how the {name} jumps")).help(
                            "a piece has one jump clause: name in it every kind it may jump \
                             (`over attackers and commanders`)",
                        )
                    };
                    checker.report(diagnostic);
                    continue;
                }
                for &k in &jumpers {
                    jumper[k] = Some((span, rules.jumps.len()));
                }
                checker
                    .source_map
                    .insert(RuleRef::Jump(rules.jumps.len()), span);
                rules.jumps.push(jump);
            }
            ClauseKind::Berserk(words) => {
                let value = match words.value {
                    ast::BerserkWords::CaptureAgain => Berserk::CaptureAgain,
                    ast::BerserkWords::MoveWhileItCanCapture => Berserk::MoveWhileItCanCapture,
                    ast::BerserkWords::MoveAgain => Berserk::MoveAgain,
                };
                if set_once(checker, &mut berserk, value, span, "the berserk rule") {
                    checker.source_map.insert(RuleRef::Berserk, span);
                }
            }
            ClauseKind::Sandwich {
                kings,
                captors,
                counting,
                except_on,
            } => {
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
                        .help("name the enemy pieces that take him this way, e.g. `between two commanders`"),
                    );
                    broken = true;
                }
                let counting = region_names(checker, counting);
                let except_on = region_names(checker, except_on);
                if broken || king_kinds.is_empty() || captor_kinds.is_empty() {
                    continue;
                }
                checker
                    .source_map
                    .insert(RuleRef::KingSandwich(rules.king_sandwiches.len()), span);
                rules.king_sandwiches.push(KingSandwich {
                    kings: checker.names(&king_kinds),
                    captors: checker.names(&captor_kinds),
                    counting,
                    except_on,
                });
            }
            // Declarations: read by `declare.rs` before the rules.
            ClauseKind::Name(_)
            | ClauseKind::Source(_)
            | ClauseKind::Note(_)
            | ClauseKind::Board { .. }
            | ClauseKind::SideName { .. }
            | ClauseKind::FirstMove(_)
            | ClauseKind::Piece(_)
            | ClauseKind::Region { .. }
            | ClauseKind::Setup(_) => {}
        }
    }

    rules.berserk = berserk.map(|(value, _)| value);
    if let Some((value, _)) = no_moves[0] {
        rules.outcome.no_moves.attackers = value;
    }
    if let Some((value, _)) = no_moves[1] {
        rules.outcome.no_moves.defenders = value;
    }
    rules.outcome.encirclements = encirclements.into_iter().map(|(value, _)| value).collect();
    rules.shieldwall = shieldwall.map(|(value, _)| value);
    rules.outcome.repetition = repetition.map(|(value, _)| value);
    rules.outcome.back_and_forth_limit = back_and_forth.map(|(value, _)| value);
    rules.outcome.no_capture_draw = no_capture.map(|(value, _)| value);
    resolve_king_capture(checker, king_places, rules);
}

/// Gives every square exactly one king-capture rule: clauses in file order, `elsewhere` last,
/// each square to the first clause whose place covers it; uncovered squares get the default,
/// capture like a soldier.
fn resolve_king_capture(
    checker: &mut Checker,
    places: Vec<(ast::PlaceSpec, Span, KingCaptureRule)>,
    rules: &mut Rules,
) {
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

    let (specific, general): (Vec<_>, Vec<_>) = places.into_iter().partition(|(place, _, _)| {
        matches!(place, ast::PlaceSpec::On(_) | ast::PlaceSpec::Beside(_))
    });
    for (place, span, mut rule) in specific.into_iter().chain(general) {
        // `elsewhere` and `anywhere` both resolve to `Place::Elsewhere`: one general clause only.
        if let Some((_, first, first_rule)) = seen.iter().find(|(other, _, _)| *other == rule.place)
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
                    .help("delete it, or make its place more specific than the clauses before it"),
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

/// The names of the regions `list` refers to; unknown ones are reported and left out.
fn region_names(checker: &mut Checker, list: &[ast::RegionRef]) -> Vec<String> {
    let mut names = Vec::new();
    for region in list {
        if let Some(index) = checker.region(region) {
            names.push(checker.regions[index].name.clone());
        }
    }
    names
}

/// The kinds of `kinds` that fight on the side of one of `of`: a jump over them, or a sandwich
/// by them, would be by a piece's own side.
fn same_side(checker: &Checker, kinds: &[usize], of: &[usize]) -> Vec<usize> {
    kinds
        .iter()
        .copied()
        .filter(|&k| {
            of.iter()
                .any(|&o| checker.pieces[o].side == checker.pieces[k].side)
        })
        .collect()
}

/// Records what `side` does when it cannot move, from the clause at `span`.
fn set_no_moves(
    checker: &mut Checker,
    slots: &mut [SetBy<NoMoves>; 2],
    side: Side,
    value: NoMoves,
    span: Span,
) {
    let slot = match side {
        Side::Attackers => &mut slots[0],
        Side::Defenders => &mut slots[1],
    };
    let what = format!(
        "what happens to the {} when they cannot move",
        side_plural(side)
    );
    if set_once(checker, slot, value, span, &what) {
        checker.source_map.insert(RuleRef::NoMoves(side), span);
    }
}

fn side_plural(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

fn side_singular(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

fn region_squares(checker: &Checker, name: &str) -> Vec<Square> {
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
