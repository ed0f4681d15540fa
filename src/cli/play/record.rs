//! `save` and `load`: the REPL's game as a native game record (docs/records.md), read and
//! written by [`crate::record`].
//!
//! `save FILE` writes the variant, the hash of its rules, the result and every move with its
//! captures; `save FILE.otg` writes OpenTafl's record instead, when OpenTafl can say the rules. `load FILE` reads a record in any format `tafl games` reads (the first game of the
//! file), checks every move and written capture against the rules and the result against the
//! moves, and keeps the session's settings: the computer's sides, its budget and the live
//! thinking line.

use super::moving::play_move;
use super::{Reply, Session};
use crate::cli::record_file;
use crate::engine::{EndReason, Ending, GameOutcome};
use crate::english;
use crate::ir::Side;
use crate::record::limits::DEFAULT_MAX_FILE_BYTES;
use crate::record::native::{self, WrittenPly};
use crate::record::otg;
use crate::record::{self, check, Format, RecordedOutcome, RecordedResult, Tags};
use crate::variant::Variant;

/// `the game at move 17 (33 plies)`: the move number the prompt shows, and the plies.
fn extent(session: &Session) -> String {
    let plies = match session.game.plies().len() {
        0 => "no moves played".to_string(),
        n => crate::english::count(n, "ply"),
    };
    let number = session.game.move_number();
    if session.is_over() {
        format!("the finished game, over at move {number} ({plies})")
    } else if session.game.plies().is_empty() {
        "the game before its first move".to_string()
    } else {
        format!("the game at move {number} ({plies})")
    }
}

/// `save FILE`.
pub fn save(session: &mut Session, args: &str) -> Result<Reply, String> {
    if args.is_empty() {
        return Err("`save` needs a file name: `save game.txt`".to_string());
    }
    let result = session.game.ending().map(|ending| RecordedResult {
        outcome: RecordedOutcome::of(crate::game::Status::of(Some(ending))),
        reason: Some(ending.reason.as_str().to_string()),
    });
    let tags = Tags {
        variant: Some(session.name.clone()),
        rules_hash: Some(record::rules_hash(session.game.engine().rules())),
        result: Some(result.unwrap_or(RecordedResult {
            outcome: RecordedOutcome::Ongoing,
            reason: None,
        })),
        ..Tags::default()
    };
    let plies = WrittenPly::of_game(&session.game);
    let text = if args.to_ascii_lowercase().ends_with(".otg") {
        // OpenTafl's record needs its rules string, which not every variant has.
        let rules = crate::opentafl::export(session.game.engine().rules()).map_err(|e| {
            format!(
                "cannot save {} as OpenTafl's .otg: {e}; save to a .txt file instead",
                session.name
            )
        })?;
        otg::write(&tags, &rules, &plies)
    } else {
        native::write(&tags, &plies)
    };
    crate::cli::output::write(std::path::Path::new(args), text)
        .map_err(|e| format!("{e}; give a path in a folder you can write to"))?;
    session.mark_saved();
    Ok(Reply::Text(format!("Saved {} to {args}.", extent(session))))
}

/// `load FILE`.
pub fn load(session: &mut Session, args: &str) -> Result<Reply, String> {
    if args.is_empty() {
        return Err("`load` needs a file name: `load game.txt`".to_string());
    }
    let text =
        record_file::read(std::path::Path::new(args), DEFAULT_MAX_FILE_BYTES).map_err(|e| {
            match e {
                record_file::ReadError::Io(_) => {
                    format!("cannot read `{args}`: {e}; check the name (`save FILE` writes one)")
                }
                // Too large, or not text: the name was right.
                _ => format!("cannot read `{args}`: {e}"),
            }
        })?;
    let format = Format::detect(Some(args), &text);
    let mut games = record::parse(&text, format);
    if games.len() != 1 {
        return Err(format!(
            "`{args}` holds {} games; `load` takes a file of one game (`tafl games check` reads many)",
            games.len()
        ));
    }
    let game = games
        .pop()
        .unwrap_or_else(|| unreachable!("one game, checked above"))
        .map_err(|e| format!("`{args}` {e}; fix that and load again"))?;
    // The record's variant, or the one being played.
    let mut fresh = match &game.tags.variant {
        Some(name) if name != &session.name => {
            let variant = Variant::load(name).map_err(|e| {
                format!("`{args}` names the variant `{name}`, which cannot be loaded: {e}")
            })?;
            Session::new(name, variant, session.style)?
        }
        _ => Session::new(&session.name, session.variant.clone(), session.style)?,
    };
    if let Some(written) = &game.tags.rules_hash {
        let ours = record::rules_hash(fresh.game.engine().rules());
        if *written != ours {
            return Err(format!(
                "`{args}` was played under other rules than {} has now (`rules: {written}`, now {ours}); \
                 load it with the variant file it was played under",
                fresh.name
            ));
        }
    }
    if game.tags.opentafl_rules.is_some() {
        if let Some((written, ours)) = check::other_rules(fresh.game.engine(), &game.tags) {
            return Err(format!(
                "`{args}` was played under other rules than {} has (the record's `rules` tag gives {written}; {} has {ours}); \
                 load it with the variant it was played under",
                fresh.name, fresh.name
            ));
        }
    }
    for recorded in &game.moves {
        let (line, column) = (recorded.line, recorded.column);
        let mv = recorded.mv;
        if fresh.game.is_over() {
            return Err(format!(
                "`{args}` line {line}: {mv} comes after the end of the game; remove the moves after it"
            ));
        }
        let before = *fresh.game.position();
        if let Err(illegal) = play_move(&mut fresh, mv) {
            let text = illegal.describe(Some(&fresh.variant));
            return Err(format!(
                "`{args}` line {line}, column {column}: {text}; fix that move and load again"
            ));
        }
        if let Some(written) = &recorded.captures {
            let ours = fresh.game.plies().last().map(|p| p.captured.clone());
            let ours = ours.unwrap_or_default();
            let kings = |list: &[crate::ir::Square]| {
                let mut kept: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&sq| {
                        fresh
                            .game
                            .engine()
                            .piece_at(&before, sq)
                            .is_none_or(|kind| {
                                fresh.game.engine().rules().pieces[kind].role
                                    != crate::ir::Role::King
                            })
                    })
                    .collect();
                kept.sort_by_key(|s| (s.file, s.rank));
                kept.dedup();
                kept
            };
            if kings(written) != kings(&ours) {
                return Err(format!(
                    "`{args}` line {line}, column {column}: {mv} captures other pieces than the record says; fix that move and load again"
                ));
            }
        }
    }
    if let (Format::Native, Some(result)) = (format, &game.tags.result) {
        apply_result(&mut fresh, result).map_err(|e| {
            let line = game
                .tags
                .result_span
                .map_or(1, |span| record::line_column(&text, span.start).0);
            format!("`{args}` line {line}: {e}; fix the result line or remove it")
        })?;
    }
    fresh.mark_saved();
    // A loaded game keeps how the session plays: who the computer is, how long it thinks.
    fresh.computer = session.computer;
    fresh.budget = session.budget;
    fresh.live = session.live;
    *session = fresh;
    Ok(Reply::Text(format!(
        "Loaded {} from {args}: {}.{}\n{}",
        session.game.engine().rules().name,
        extent(session),
        kept_settings(session),
        session.show()
    )))
}

/// ` The computer still plays the Swedes (depth 4).`: the settings a load keeps, when any
/// differ from a plain two-player session.
fn kept_settings(session: &Session) -> String {
    let who = match session.computer {
        [false, false] => return String::new(),
        [true, true] => "both sides".to_string(),
        [true, false] => english::side_noun(session.rules(), Side::Attackers),
        [false, true] => english::side_noun(session.rules(), Side::Defenders),
    };
    let budget = match (session.budget.depth, session.budget.time) {
        (Some(depth), _) => format!(", to depth {depth}"),
        (None, Some(ms)) => format!(", {ms} ms a move"),
        (None, None) => String::new(),
    };
    format!(" The computer still plays {who}{budget}.")
}

/// Checks a record's result against the moves, and applies a declared ending (a resignation, an
/// agreed or claimed draw).
fn apply_result(session: &mut Session, result: &RecordedResult) -> Result<(), String> {
    let written = result.to_native();
    let computed = session.result_word();
    if written == computed || result.outcome == RecordedOutcome::Ongoing && !session.is_over() {
        return Ok(());
    }
    let mismatch =
        || format!("the result `{written}` does not fit the moves (they give `{computed}`)");
    if session.game.is_over() || result.outcome == RecordedOutcome::Ongoing {
        return Err(mismatch());
    }
    let declared = [
        (GameOutcome::Win(Side::Attackers), EndReason::Resignation),
        (GameOutcome::Win(Side::Defenders), EndReason::Resignation),
        (GameOutcome::Draw, EndReason::Agreement),
        (GameOutcome::Draw, EndReason::Repetition),
        (GameOutcome::Draw, EndReason::MoveLimit),
    ];
    let (outcome, reason) = declared
        .into_iter()
        .find(|(outcome, reason)| format!("{} ({})", outcome.as_str(), reason.as_str()) == written)
        .ok_or_else(mismatch)?;
    session
        .game
        .declare(Ending {
            outcome,
            reason,
            rule: None,
        })
        .map_err(|_| mismatch())?;
    Ok(())
}
