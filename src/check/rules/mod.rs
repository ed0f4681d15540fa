//! Pass 2: every rule clause resolved against the declarations into IR rules, with the
//! contradictions between clauses reported.
//!
//! [`rules`] is a dispatcher: each clause goes to the file of its family (the same family
//! names as in `explain/` and the engine), which resolves it and reports its problems.
//! What a family must remember across clauses (a value set once, the clauses of a kind seen
//! so far) lives in [`Pass`].

mod capture;
mod encirclement;
mod forts;
mod hostility;
mod jumps;
mod king_capture;
mod movement;
mod reaching;
mod repetition;
mod shieldwall;

use std::collections::BTreeMap;

use super::Checker;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{
    Armed, Berserk, Encirclement, KingCaptureRule, MoveLimit, Movement, NoMoves, Repetition, Rules,
    Shieldwall, Square,
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

/// `number` when it lies from `minimum` to `maximum`; else an error with its span (a number too
/// large for the clause is refused, never clamped).
fn positive(
    checker: &mut Checker,
    number: &Spanned<u32>,
    (minimum, maximum): (u32, u32),
    what: &str,
) -> Option<u32> {
    if number.value < minimum {
        checker.report(
            Diagnostic::error(
                Code::BadNumber,
                format!("{what} must be at least {minimum}"),
            )
            .label(number.span, format!("{} is too small", number.value))
            .help(format!("write a number from {minimum} to {maximum}")),
        );
        None
    } else if number.value > maximum {
        // Not the value in the label: the parser saturates a number too large for u32, so it
        // could misquote the text under the label.
        checker.report(
            Diagnostic::error(Code::BadNumber, format!("{what} may be at most {maximum}"))
                .label(number.span, "too large")
                .help(format!("write a number from {minimum} to {maximum}")),
        );
        None
    } else {
        Some(number.value)
    }
}

/// The state of pass 2: the checker, the rules being built, and what the clauses read so far
/// have set, to report a later clause that contradicts them.
struct Pass<'a> {
    checker: &'a mut Checker,
    rules: &'a mut Rules,
    movement: Vec<SetBy<Movement>>,
    armed: Vec<SetBy<Armed>>,
    /// (piece, square, landing?) → (allowed, clause span), for unconditional access verdicts.
    verdicts: BTreeMap<(usize, Square, bool), (bool, Span)>,
    no_moves: [SetBy<NoMoves>; 2],
    encirclements: Vec<(Encirclement, Span)>,
    shieldwall: SetBy<Shieldwall>,
    berserk: SetBy<Berserk>,
    /// Per piece kind, the jump clause that gave it its jump and that jump's index in
    /// `rules.jumps`.
    jumper: Vec<Option<(Span, usize)>>,
    repetition: SetBy<Repetition>,
    back_and_forth: SetBy<u32>,
    no_capture: SetBy<MoveLimit>,
    /// King-capture clauses, resolved to squares once all are read.
    king_places: Vec<(ast::PlaceSpec, Span, KingCaptureRule)>,
}

pub(super) fn rules(checker: &mut Checker, file: &ast::File, rules: &mut Rules) {
    let piece_count = checker.pieces.len();
    let mut pass = Pass {
        checker,
        rules,
        movement: vec![None; piece_count],
        armed: vec![None; piece_count],
        verdicts: BTreeMap::new(),
        no_moves: [None, None],
        encirclements: Vec::new(),
        shieldwall: None,
        berserk: None,
        jumper: vec![None; piece_count],
        repetition: None,
        back_and_forth: None,
        no_capture: None,
        king_places: Vec::new(),
    };
    for clause in &file.clauses {
        pass.clause(clause.span, &clause.kind);
    }
    pass.finish();
}

impl Pass<'_> {
    /// Sends one clause to its family.
    fn clause(&mut self, span: Span, kind: &ClauseKind) {
        match kind {
            // Movement and access.
            ClauseKind::Movement { pieces, movement } => self.movement(span, pieces, movement),
            ClauseKind::Access {
                who,
                allowed,
                action,
                region,
                condition,
            } => self.access(span, who, *allowed, action, region, condition),
            // Capture.
            ClauseKind::Armed { pieces, armed } => self.armed(span, pieces, armed),
            // Hostility.
            ClauseKind::Hostility {
                region,
                victims,
                when,
            } => self.hostility(span, region, victims, when),
            // Shieldwall.
            ClauseKind::Shieldwall {
                victims,
                counting,
                after_any_move,
            } => self.shieldwall(span, victims, counting, after_any_move.is_some()),
            // King capture.
            ClauseKind::KingCapture {
                pieces,
                place,
                method,
                counting,
                own_move,
            } => self.king_capture(span, pieces, place, method, counting, own_move.is_some()),
            ClauseKind::Sandwich {
                kings,
                captors,
                counting,
                except_on,
            } => self.sandwich(span, kings, captors, counting, except_on),
            // Jumps and berserk.
            ClauseKind::Jump {
                pieces,
                over,
                only_from_or_to,
                captures,
            } => self.jump(span, pieces, over, only_from_or_to, captures.is_some()),
            ClauseKind::Berserk(words) => self.berserk(span, words),
            // Reaching (escape), forts and decisive captures: one clause, three families.
            ClauseKind::Win {
                side,
                pieces,
                event,
            } => self.win(span, side, pieces, event),
            ClauseKind::Announce {
                word,
                piece,
                routes,
                region,
            } => self.announce(span, word, piece, routes, region),
            // Encirclement.
            ClauseKind::Encirclement {
                side,
                enclosed,
                reading,
            } => self.encirclement(span, side, enclosed, reading),
            // Repetition and draws.
            ClauseKind::NoMovesLoses => self.no_moves_loses(span),
            ClauseKind::SideLoses { side, condition } => self.side_loses(span, side, condition),
            ClauseKind::RepetitionLoses { count, mover_wins } => {
                self.repetition_loses(span, count, *mover_wins)
            }
            ClauseKind::Draw {
                condition,
                on_claim,
            } => self.draw(span, condition, on_claim),
            ClauseKind::BackAndForth(count) => self.back_and_forth(span, count),
            // Declarations: read by `declare.rs` before the rules.
            ClauseKind::Name(_)
            | ClauseKind::Source(_)
            | ClauseKind::Family(_)
            | ClauseKind::Note(_)
            | ClauseKind::Board { .. }
            | ClauseKind::SideName { .. }
            | ClauseKind::FirstMove(_)
            | ClauseKind::Piece(_)
            | ClauseKind::Region { .. }
            | ClauseKind::Setup(_) => {}
        }
    }

    /// `<side> win when <pieces> <event>`: the event decides the family.
    fn win(
        &mut self,
        span: Span,
        side: &Spanned<crate::ir::Side>,
        pieces: &ast::PieceSet,
        event: &ast::WinEvent,
    ) {
        let pieces = self.checker.piece_set(pieces);
        if pieces.is_empty() {
            self.checker.meant_to_win.push(side.value);
        }
        match event {
            ast::WinEvent::Reaches(region) => self.escape(span, side.value, pieces, region),
            ast::WinEvent::HoldsFort(_) => self.edge_fort(span, side.value, pieces),
            ast::WinEvent::Captured(_) => self.decisive_capture(span, side.value, pieces),
        }
    }

    /// Writes the values set once into the rules, and gives each square its king-capture rule.
    fn finish(mut self) {
        let rules = &mut *self.rules;
        rules.berserk = self.berserk.map(|(value, _)| value);
        if let Some((value, _)) = self.no_moves[0] {
            rules.outcome.no_moves.attackers = value;
        }
        if let Some((value, _)) = self.no_moves[1] {
            rules.outcome.no_moves.defenders = value;
        }
        rules.outcome.encirclements = std::mem::take(&mut self.encirclements)
            .into_iter()
            .map(|(value, _)| value)
            .collect();
        rules.shieldwall = self.shieldwall.take().map(|(value, _)| value);
        rules.outcome.repetition = self.repetition.map(|(value, _)| value);
        rules.outcome.back_and_forth_limit = self.back_and_forth.map(|(value, _)| value);
        rules.outcome.no_capture_draw = self.no_capture.map(|(value, _)| value);
        self.resolve_king_capture();
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
