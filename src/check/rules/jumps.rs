//! Jumps and berserk: pieces that jump over enemies, and moves that go on after a capture.

use super::{contradiction, region_names, same_side, set_once, Pass};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Berserk, JumpRule, RuleRef};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `the knight may jump over an attacker, capturing it`
    pub(super) fn jump(
        &mut self,
        span: Span,
        pieces: &ast::PieceSet,
        over: &ast::PieceSet,
        only_from_or_to: &[ast::RegionRef],
        captures: bool,
    ) {
        let checker = &mut *self.checker;
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
            return;
        }
        let regions = region_names(checker, only_from_or_to);
        if jumpers.is_empty() || jumped.is_empty() {
            return; // an unknown name, reported by `piece_set`
        }
        let jump = JumpRule {
            pieces: checker.names(&jumpers),
            over: checker.names(&jumped),
            only_from_or_to: regions,
            captures,
        };
        // One diagnostic a clause, for the first kind that already jumps.
        if let Some((k, (first, earlier))) = jumpers
            .iter()
            .find_map(|&k| self.jumper[k].map(|given| (k, given)))
        {
            let earlier = &self.rules.jumps[earlier];
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
            return;
        }
        for &k in &jumpers {
            self.jumper[k] = Some((span, self.rules.jumps.len()));
        }
        checker
            .source_map
            .insert(RuleRef::Jump(self.rules.jumps.len()), span);
        self.rules.jumps.push(jump);
    }

    /// `after a capture, the capturing piece may capture again`
    pub(super) fn berserk(&mut self, span: Span, words: &Spanned<ast::BerserkWords>) {
        let value = match words.value {
            ast::BerserkWords::CaptureAgain => Berserk::CaptureAgain,
            ast::BerserkWords::MoveWhileItCanCapture => Berserk::MoveWhileItCanCapture,
            ast::BerserkWords::MoveAgain => Berserk::MoveAgain,
        };
        if set_once(
            self.checker,
            &mut self.berserk,
            value,
            span,
            "the berserk rule",
        ) {
            self.checker.source_map.insert(RuleRef::Berserk, span);
        }
    }
}
