//! Replaying a record through a [`Game`]: where, if anywhere, the record and the rules part.

use std::sync::Arc;

use super::{rules_hash, GameRecord, RecordedOutcome, Tags};
use crate::engine::{EndReason, Engine, Position};
use crate::game::{Game, Status};
use crate::ir::{Role, Side, Square};
use crate::opentafl::Settings;
use crate::span::Span;

/// What replaying a record found: the first disagreement, or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every move is legal, every written capture is ours, and the result does not contradict the
    /// moves.
    Agrees,
    /// The rules ended the game before the record's last move: the players went on (their server
    /// did not enforce this rule, or read it otherwise).
    EndsEarly {
        /// Plies played when the game ended.
        after: usize,
        /// How it ended.
        status: Status,
        /// Why.
        reason: EndReason,
        /// Moves of the record left unplayed.
        unplayed: usize,
    },
    /// A move the rules refuse.
    Illegal {
        /// Which ply (1-based).
        ply: usize,
        /// Why it is refused, in words.
        reason: String,
    },
    /// A move whose captures differ from those written (kings left out on both sides).
    Captures {
        /// Which ply (1-based).
        ply: usize,
        /// The squares written.
        written: Vec<Square>,
        /// The squares the rules capture.
        ours: Vec<Square>,
    },
    /// The result written contradicts how the moves end the game.
    Result {
        /// The result written.
        written: RecordedOutcome,
        /// How the rules end it.
        ours: Status,
        /// Why, when the rules ended it.
        reason: Option<EndReason>,
    },
    /// The record says it was played under other rules: its rules hash is not the variant's,
    /// or its OpenTafl rules string gives another board or start ([`other_rules`]).
    OtherRules {
        /// What the record writes (`fnv1a64:…`, `dim:11`, `start: an attacker on d1`).
        written: String,
        /// What the variant has, in the same terms.
        ours: String,
    },
}

impl Verdict {
    /// The category's word: `agrees`, `ends_early`, `illegal_move`, `captures_differ`,
    /// `result_differs` or `other_rules`.
    pub const fn category(&self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::EndsEarly { .. } => "ends_early",
            Verdict::Illegal { .. } => "illegal_move",
            Verdict::Captures { .. } => "captures_differ",
            Verdict::Result { .. } => "result_differs",
            Verdict::OtherRules { .. } => "other_rules",
        }
    }

    /// Whether this is a disagreement (not agreeing, not only ending early).
    pub const fn is_disagreement(&self) -> bool {
        match self {
            Verdict::Agrees | Verdict::EndsEarly { .. } => false,
            Verdict::Illegal { .. }
            | Verdict::Captures { .. }
            | Verdict::Result { .. }
            | Verdict::OtherRules { .. } => true,
        }
    }

    /// The ply the verdict is about (1-based), if it is about one.
    pub const fn ply(&self) -> Option<usize> {
        match self {
            Verdict::EndsEarly { after, .. } => Some(*after + 1),
            Verdict::Illegal { ply, .. } | Verdict::Captures { ply, .. } => Some(*ply),
            Verdict::Agrees | Verdict::Result { .. } | Verdict::OtherRules { .. } => None,
        }
    }
}

/// A replayed record: the verdict, and the game as far as the rules let it go.
#[derive(Clone, Debug)]
pub struct Replay {
    /// What the replay found.
    pub verdict: Verdict,
    /// The game, up to the end or the first disagreement.
    pub game: Game,
}

impl Replay {
    /// The verdict in words, as `tafl games check` and `tafl games site` print it.
    pub fn describe(&self) -> String {
        let squares = |list: &[crate::ir::Square]| {
            if list.is_empty() {
                "nothing".to_string()
            } else {
                list.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        match &self.verdict {
            Verdict::Agrees => "agrees".to_string(),
            Verdict::EndsEarly {
                after,
                status,
                reason,
                unplayed,
            } => format!(
                "the rules end the game after ply {after} ({status}, {}); the record plays {unplayed} more {}",
                reason.as_str(),
                if *unplayed == 1 { "move" } else { "moves" }
            ),
            Verdict::Illegal { ply, reason } => format!("ply {ply}: {reason}"),
            Verdict::Captures { ply, written, ours } => format!(
                "ply {ply}: the record captures {}, the rules capture {}",
                squares(written),
                squares(ours)
            ),
            Verdict::Result {
                written,
                ours,
                reason,
            } => format!(
                "the record's result is {}, the moves give {ours}{}",
                written.as_str(),
                reason.map(|r| format!(" ({})", r.as_str())).unwrap_or_default()
            ),
            Verdict::OtherRules { written, ours } => format!(
                "the record was played under other rules ({written}; {} has {ours})",
                self.game.engine().rules().name
            ),
        }
    }

    /// The move the verdict is about, with where the record writes it.
    pub fn at<'a>(&self, record: &'a GameRecord) -> Option<&'a super::RecordedMove> {
        self.verdict
            .ply()
            .and_then(|ply| record.moves.get(ply.saturating_sub(1)))
    }

    /// Where in the file the verdict points: the move, or the result, or the whole game.
    pub fn span(&self, record: &GameRecord) -> Span {
        match &self.verdict {
            Verdict::Result { .. } => record.tags.result_span.unwrap_or(record.span),
            _ => self.at(record).map_or(record.span, |m| m.span),
        }
    }
}

/// Plays `record` from the variant's start through a [`Game`] and reports the first place the
/// record and the rules part.
pub fn replay(engine: &Arc<Engine>, record: &GameRecord) -> Replay {
    let mut game = Game::new(engine.clone());
    if let Some((written, ours)) = other_rules(engine, &record.tags) {
        let verdict = Verdict::OtherRules { written, ours };
        return Replay { verdict, game };
    }
    for (i, recorded) in record.moves.iter().enumerate() {
        if let Some(ending) = game.ending() {
            let verdict = Verdict::EndsEarly {
                after: i,
                status: game.status(),
                reason: ending.reason,
                unplayed: record.moves.len() - i,
            };
            return Replay { verdict, game };
        }
        let before = *game.position();
        let captured = match game.play(recorded.mv) {
            Ok(ply) => ply.captured.clone(),
            Err(illegal) => {
                let verdict = Verdict::Illegal {
                    ply: i + 1,
                    reason: illegal.to_string(),
                };
                return Replay { verdict, game };
            }
        };
        if let Some(written) = &recorded.captures {
            let written = without_kings(engine, &before, written);
            let ours = without_kings(engine, &before, &captured);
            if written != ours {
                let verdict = Verdict::Captures {
                    ply: i + 1,
                    written,
                    ours,
                };
                return Replay { verdict, game };
            }
        }
    }
    let verdict = judge_result(&game, record);
    Replay { verdict, game }
}

/// Whether `tags` say the game was played under rules other than `engine`'s, and if so what
/// they write and what the variant has instead. A native record's `rules:` hash must be the
/// variant's. An OpenTafl record's `rules` tag must give the variant's board: its size
/// (`dim`), and on every square of its start (`start`) a piece of the same side, the king
/// where the king is. The rest of the string is not compared: OpenTafl and this toolkit word
/// some rules differently, and the replay finds a move the rules read otherwise. A `rules`
/// tag that cannot be read says nothing this can trust, and counts as other rules.
pub fn other_rules(engine: &Engine, tags: &Tags) -> Option<(String, String)> {
    if let Some(written) = &tags.rules_hash {
        let ours = rules_hash(engine.rules());
        if *written != ours {
            return Some((written.clone(), ours));
        }
    }
    let written = tags.opentafl_rules.as_deref()?;
    let (width, height) = (engine.width(), engine.height());
    let ours_dim = if width == height {
        format!("dim:{width}")
    } else {
        format!("a {width}x{height} board")
    };
    let settings: Settings = match written.parse() {
        Ok(settings) => settings,
        Err(error) => {
            return Some((
                format!("an OpenTafl rules string that cannot be read ({error})"),
                ours_dim,
            ))
        }
    };
    if settings.dim != width || settings.dim != height {
        return Some((format!("dim:{}", settings.dim), ours_dim));
    }
    let start = engine.start();
    let rules = engine.rules();
    // `start` is the top rank first; a square's rank counts from the bottom.
    for (row, letters) in settings.start.iter().enumerate() {
        for (file, letter) in letters.iter().enumerate() {
            let (Ok(file), Ok(rank)) = (
                u8::try_from(file),
                u8::try_from(usize::from(height) - 1 - row),
            ) else {
                continue;
            };
            let square = Square { file, rank };
            let theirs = letter.map(|letter| {
                let side = if letter.is_ascii_uppercase() {
                    Side::Defenders
                } else {
                    Side::Attackers
                };
                (side, letter.eq_ignore_ascii_case(&'k'))
            });
            let ours = engine.piece_at(&start, square).map(|kind| {
                let piece = &rules.pieces[kind];
                (piece.side, piece.role == Role::King)
            });
            if theirs != ours {
                let name = |piece: Option<(Side, bool)>| match piece {
                    None => "nothing".to_string(),
                    Some((_, true)) => "the king".to_string(),
                    Some((Side::Attackers, false)) => "an attacker".to_string(),
                    Some((Side::Defenders, false)) => "a defender".to_string(),
                };
                return Some((
                    format!("start: {} on {square}", name(theirs)),
                    format!("{} on {square}", name(ours)),
                ));
            }
        }
    }
    None
}

/// The squares, sorted and without repeats, leaving out any king (records differ on whether a
/// captured king is written; his capture ends the game, which the result compares).
pub(crate) fn without_kings(engine: &Engine, before: &Position, squares: &[Square]) -> Vec<Square> {
    let mut kept: Vec<Square> = squares
        .iter()
        .copied()
        .filter(|&square| {
            engine
                .piece_at(before, square)
                .is_none_or(|kind| engine.rules().pieces[kind].role != Role::King)
        })
        .collect();
    kept.sort_by_key(|s| (s.file, s.rank));
    kept.dedup();
    kept
}

/// Whether the written result contradicts the game's end. A record that leaves the result
/// unwritten or `ongoing` contradicts nothing; a win or draw written while the moves leave the
/// game going on is a declaration the moves do not show (a resignation, a timeout, an agreed
/// draw), unless the record names a rule the moves should have ended the game by.
fn judge_result(game: &Game, record: &GameRecord) -> Verdict {
    let Some(result) = &record.tags.result else {
        return Verdict::Agrees;
    };
    let ours = game.status();
    let written = result.outcome;
    let contradicts = match (written, ours) {
        (RecordedOutcome::Ongoing, _) => false,
        (RecordedOutcome::SideToMoveLoses, Status::Ongoing) => false,
        (RecordedOutcome::SideToMoveLoses, _) => true,
        (_, Status::Ongoing) => result.reason.as_deref().is_some_and(names_a_rule),
        (RecordedOutcome::AttackersWin, status) => status != Status::AttackersWin,
        (RecordedOutcome::DefendersWin, status) => status != Status::DefendersWin,
        (RecordedOutcome::Draw, status) => status != Status::Draw,
    };
    if contradicts {
        Verdict::Result {
            written,
            ours,
            reason: game.reason(),
        }
    } else {
        Verdict::Agrees
    }
}

/// Whether a written reason is one the rules decide by a move (a king escaped, captured, ...),
/// rather than one the players declare (a resignation, a timeout, an agreed or claimed draw).
/// A site record's win without an ending word ([`super::site::BY_THE_RULES`]) names no rule but
/// says one decided it.
fn names_a_rule(reason: &str) -> bool {
    reason == super::site::BY_THE_RULES
        || EndReason::from_name(reason).is_some_and(EndReason::decided_on_the_board)
}

/// The winner a record states, with a move list's `resigned`/`timeout` read against the game.
pub fn stated_outcome(record: &GameRecord, game: &Game) -> Option<RecordedOutcome> {
    let outcome = record.tags.result.as_ref()?.outcome;
    Some(match outcome {
        RecordedOutcome::SideToMoveLoses => match game.to_move() {
            Side::Attackers => RecordedOutcome::DefendersWin,
            Side::Defenders => RecordedOutcome::AttackersWin,
        },
        other => other,
    })
}
