//! The game's events in words: refusals, endings, and the clause of the variant file behind
//! each. One wording for the REPL, `tafl replay` and the tests.

use serde::Serialize;

use super::IllegalMove;
use crate::engine::{EndReason, Ending, GameOutcome};
use crate::english::capitalise;
use crate::ir::RuleRef;
use crate::ir::{Rules, Side};
use crate::variant::Variant;

/// Where a rule is written: its line and the clause's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Citation {
    /// The line of the variant file (1-based).
    pub line: usize,
    /// The clause, trimmed.
    pub clause: String,
}

/// The clause behind `rule`, when the variant file writes it (a default of the language is
/// written nowhere).
pub fn cite(variant: &Variant, rule: RuleRef) -> Option<Citation> {
    Some(Citation {
        line: variant.line_of(rule)?,
        clause: variant.clause_text(rule)?.trim().to_string(),
    })
}

impl IllegalMove {
    /// The refusal in words, with the clause that forbids the move when the variant file has
    /// one: ``b1-b3 is illegal: the way is blocked at b2``, or
    /// ``e1-e5 is illegal: the Swede may not land on e5: line 40, `nobody may land on the throne` ``.
    pub fn describe(&self, variant: Option<&Variant>) -> String {
        let mut text = self.to_string();
        if let Some(citation) = variant.zip(self.rule).and_then(|(v, rule)| cite(v, rule)) {
            text.push_str(&format!(": line {}, `{}`", citation.line, citation.clause));
        }
        text
    }
}

pub use crate::english::{side_noun, side_verb};

/// Who won and why, citing the rule: ``The Swedes win: the King reached a corner (line 17:
/// `defenders win when the king reaches a corner`).`` `stuck` is the side to move when the game
/// ended (the side that could not move, for a no-move ending).
pub fn verdict(ending: &Ending, variant: &Variant, stuck: Side) -> String {
    let rules = &variant.rules;
    let head = match ending.outcome {
        GameOutcome::Win(side) => capitalise(&side_verb(rules, side, "win")),
        GameOutcome::Draw => "The game is drawn".to_string(),
    };
    let cited = ending
        .rule
        .and_then(|rule| cite(variant, rule))
        .map(|c| format!(" (line {}: `{}`)", c.line, c.clause))
        .unwrap_or_default();
    format!("{head}: {}{cited}.", why(ending, rules, stuck))
}

/// The reason for `ending` in a few words, from the rule that ended the game.
fn why(ending: &Ending, rules: &Rules, stuck: Side) -> String {
    let piece_name = |name: &str| {
        rules
            .piece(name)
            .map_or(name.to_string(), |p| p.display.clone())
    };
    match (ending.reason, ending.rule) {
        (EndReason::KingEscaped | EndReason::PieceEscaped, Some(RuleRef::Escape(i))) => {
            match rules.outcome.escapes.get(i) {
                Some(escape) => {
                    let place = match escape.region.as_str() {
                        "edge" => "the edge of the board".to_string(),
                        "corners" => "a corner".to_string(),
                        region => format!("the {region}"),
                    };
                    format!("the {} reached {place}", piece_name(&escape.piece))
                }
                None => "a piece escaped".to_string(),
            }
        }
        (EndReason::KingEscaped | EndReason::PieceEscaped, _) => "a piece escaped".to_string(),
        (
            EndReason::KingCaptured | EndReason::LeaderCaptured,
            Some(RuleRef::DecisiveCapture(i)),
        ) => match rules.outcome.decisive_captures.get(i) {
            Some(capture) => format!("the {} was captured", piece_name(&capture.piece)),
            None => "the king was captured".to_string(),
        },
        (EndReason::KingCaptured | EndReason::LeaderCaptured, _) => {
            "the king was captured".to_string()
        }
        (EndReason::NoMoves, _) => format!("{} cannot move", side_noun(rules, stuck)),
        (EndReason::Encircled, _) => match ending.outcome {
            GameOutcome::Win(winner) => {
                format!("{} are enclosed", side_noun(rules, winner.opponent()))
            }
            GameOutcome::Draw => "a side is enclosed".to_string(),
        },
        (EndReason::EdgeFort, Some(RuleRef::EdgeFort(i))) => {
            match rules.outcome.edge_forts.get(i) {
                Some(fort) => format!(
                    "the {} holds an edge fort the enemy cannot break",
                    piece_name(&fort.piece)
                ),
                None => "an edge fort holds".to_string(),
            }
        }
        (EndReason::EdgeFort, _) => "an edge fort holds".to_string(),
        (EndReason::Repetition, _) => "a position was repeated".to_string(),
        (EndReason::MoveLimit, _) => "too many moves without a capture".to_string(),
        (EndReason::Agreement, _) => "the players agreed".to_string(),
        (EndReason::Resignation, _) => {
            let loser = match ending.outcome {
                GameOutcome::Win(winner) => winner.opponent(),
                GameOutcome::Draw => stuck,
            };
            format!("{} resigned", side_noun(rules, loser))
        }
    }
}
