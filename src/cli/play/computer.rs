//! The computer in the REPL: its turns, `hint` and `eval`.
//!
//! While it thinks on a terminal, a live line on stderr shows the depth, the score and the line
//! so far; Ctrl-C stops the thinking and the best move found is played. From a pipe it prints
//! only its moves, as plain lines like a player's.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{capitalise, commands, Session};
use crate::search::{self, Report, Score};

/// Set by Ctrl-C; the search polls it.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// The most plies the computer plays in a row (both sides its own) before it hands back.
const MOST_IN_A_ROW: usize = 500;

/// Searches the current position within the session's budget.
pub fn think(session: &Session) -> Option<Report> {
    STOP.store(false, Ordering::Relaxed);
    let live = session.live;
    let result = search::search(&session.game, &session.budget.limits(), &STOP, |report| {
        if live {
            let line: Vec<String> = report.pv.iter().take(8).map(|m| m.to_string()).collect();
            // \r and the erase-line code keep the live line on one row.
            eprint!(
                "\r\x1b[2K  thinking: depth {}, {}, {} nodes: {}",
                report.depth,
                report.score,
                report.nodes,
                line.join(" ")
            );
            let _ = std::io::stderr().flush();
        }
    });
    if live {
        eprint!("\r\x1b[2K");
        let _ = std::io::stderr().flush();
    }
    STOP.store(false, Ordering::Relaxed);
    result.ok()
}

/// Plays the computer's moves while it has the move; returns what to print.
pub fn play_turns(session: &mut Session) -> String {
    let mut out = String::new();
    let mut played = 0;
    while !session.is_over() && session.computer[session.game.to_move().index()] {
        if played == MOST_IN_A_ROW {
            out.push_str(&format!(
                "The computer stops after {MOST_IN_A_ROW} moves in a row: type a move, or `ai off`.\n"
            ));
            break;
        }
        let Some(report) = think(session) else { break };
        let Some(mv) = report.best else { break };
        out.push_str(&format!(
            "The computer ({}) plays {mv}: {} at depth {}.\n",
            session.side_name(session.game.to_move()),
            report.score,
            report.depth
        ));
        match commands::play(session, &mv.to_string()) {
            Ok(super::Reply::Text(text)) => out.push_str(&text),
            // The search only returns legal moves; should one be refused, hand back.
            _ => break,
        }
        played += 1;
    }
    out
}

/// `hint`: the move the computer would play, with a one-line reason.
pub fn hint(session: &Session) -> Result<String, String> {
    let report = think(session).ok_or("the game is over: there is nothing to hint")?;
    let mv = report.best.ok_or("no move to suggest")?;
    let mut preview = session.game.clone();
    let ply = preview
        .play(mv)
        .map_err(|e| e.describe(Some(&session.variant)))?
        .clone();
    let why = match report.score {
        Score::Win(plies) => format!(
            "it wins in {}",
            crate::english::count(plies as usize, "ply")
        ),
        Score::Loss(plies) => format!(
            "every move loses; this one lasts longest ({})",
            crate::english::count(plies as usize, "ply")
        ),
        Score::Value(_) if !ply.captured.is_empty() => format!(
            "it captures on {}",
            crate::english::join_and(
                &ply.captured
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
            )
        ),
        Score::Value(_) => format!("it keeps the best score found, {}", report.score),
    };
    Ok(format!(
        "Hint: {mv}, because {why} (depth {}; line {}).",
        report.depth,
        line(&report)
    ))
}

/// `eval`: who stands better, and the expected line.
pub fn eval(session: &Session) -> Result<String, String> {
    let report = think(session).ok_or("the game is over: there is nothing to evaluate")?;
    let side = session.game.to_move();
    let who = match report.score {
        Score::Win(plies) => format!(
            "{} in {}",
            session.side_verb(side, "win"),
            crate::english::count(plies as usize, "ply")
        ),
        Score::Loss(plies) => format!(
            "{} in {}",
            session.side_verb(side.opponent(), "win"),
            crate::english::count(plies as usize, "ply")
        ),
        Score::Value(v) if v > 25 => format!("{} better", session.side_verb(side, "stand")),
        Score::Value(v) if v < -25 => {
            format!("{} better", session.side_verb(side.opponent(), "stand"))
        }
        Score::Value(_) => "the game is level".to_string(),
    };
    Ok(format!(
        "{}: {} for {} (depth {}, {} nodes). Expected line: {}.",
        capitalise(&who),
        report.score,
        session.side_noun(side),
        report.depth,
        report.nodes,
        line(&report)
    ))
}

fn line(report: &Report) -> String {
    let moves: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}
