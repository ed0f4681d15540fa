//! The computer in the REPL: its turns, `hint` and `eval`.
//!
//! Scores are said one way everywhere: who is ahead and by about how many men, or who can
//! force a win, never a signed number whose sign depends on whose turn it is. While it thinks
//! on a terminal, a live line on stderr (cut to the terminal's width) shows the depth, the
//! time used of the time allowed, who is ahead and the line so far; keys typed meanwhile are
//! not echoed. Ctrl-C stops the thinking and the best move found is played, or, when the
//! computer plays both sides, stops the game and hands it back. From a pipe it prints only its
//! moves, as plain lines like a player's.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::terminal::{self, Keyboard};
use super::{capitalise, moving, reason, Session};
use crate::english;
use crate::search::{self, standing, Report};

/// Set by Ctrl-C; the search polls it.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Set by Ctrl-C too, and cleared only before the computer's turns: whether the user asked the
/// computer to stop, as opposed to a search that ended by itself.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The most plies the computer plays in a row (both sides its own) before it hands back.
const MOST_IN_A_ROW: usize = 500;

/// How often the live line is redrawn while the computer thinks.
const TICK: Duration = Duration::from_millis(200);

/// `1.2 s`, with a no-break space so that wrapping keeps the number and its unit together.
fn seconds(elapsed: Duration) -> String {
    format!("{:.1}\u{a0}s", elapsed.as_secs_f64())
}

/// The live line: `The Swedes are slightly better · depth 5 · 1.2 s of 2.0 s · e3-e4 ...`, cut
/// to the terminal's width. What matters most comes first, so that a narrow terminal cuts the
/// expected line and the clock, never who stands better.
fn live_line(session: &Session, report: &Report, elapsed: Duration) -> String {
    let allowed = match (session.budget.depth, session.budget.time) {
        (Some(depth), _) => format!(" (to depth {depth})"),
        (None, time) => format!(
            " of {}",
            seconds(Duration::from_millis(time.unwrap_or(2000)))
        ),
    };
    let line: Vec<String> = report.pv.iter().take(8).map(|m| m.to_string()).collect();
    let text = format!(
        "{} · depth {} · {}{allowed} · {}",
        capitalise(&standing(
            session.rules(),
            report.score,
            session.game.to_move()
        )),
        report.depth,
        seconds(elapsed),
        line.join(" ")
    );
    // One column short of the width: a line that fills the last column wraps on some terminals.
    terminal::truncate(&text, terminal::width().saturating_sub(1))
}

/// Searches the current position within the session's budget. `keys`, when the caller
/// already keeps the keyboard quiet, is left to it; otherwise the keyboard is quiet while it
/// thinks.
pub fn think(session: &Session, keys: Option<&mut Keyboard>) -> Option<Report> {
    STOP.store(false, Ordering::Relaxed);
    if !session.live {
        let result = search::search(&session.game, &session.budget.limits(), &STOP, |_| {});
        return result.ok();
    }
    // Keys typed while it thinks are not echoed onto the live line.
    let _quiet = keys.is_none().then(Keyboard::quiet);
    let start = Instant::now();
    // The latest report and whether the search is over; the ticker redraws the line with the
    // time going on between reports (a depth can take seconds), and the condition variable
    // wakes it at once when the search ends.
    let state: Mutex<(Option<Report>, bool)> = Mutex::new((None, false));
    let wake = Condvar::new();
    let draw = |report: &Report| {
        // \r and the erase-line code keep the live line on one row.
        eprint!("\r\x1b[2K{}", live_line(session, report, start.elapsed()));
        let _ = std::io::stderr().flush();
    };
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            // A poisoned lock means the search thread panicked: stop drawing.
            let Ok(mut guard) = state.lock() else { return };
            loop {
                let Ok((next, _)) = wake.wait_timeout(guard, TICK) else {
                    return;
                };
                guard = next;
                match &*guard {
                    (_, true) => return,
                    (Some(report), false) => draw(report),
                    (None, false) => {}
                }
            }
        });
        let result = search::search(&session.game, &session.budget.limits(), &STOP, |report| {
            if let Ok(mut guard) = state.lock() {
                draw(report);
                guard.0 = Some(report.clone());
            }
        });
        if let Ok(mut guard) = state.lock() {
            guard.1 = true;
        }
        wake.notify_all();
        result
    });
    eprint!("\r\x1b[2K");
    let _ = std::io::stderr().flush();
    STOP.store(false, Ordering::Relaxed);
    result.ok()
}

/// Plays the computer's moves while it has the move, handing each move's text to `print` as it
/// is played. Between moves of a game it plays against itself it waits the session's delay;
/// Ctrl-C, or `ai off` typed at the terminal meanwhile, stops it.
pub fn play_turns(session: &mut Session, print: &mut dyn FnMut(String)) {
    INTERRUPTED.store(false, Ordering::Relaxed);
    let mut played = 0;
    if session.is_over() || !session.computer[session.game.to_move().index()] {
        // Not the computer's move: the keyboard is left alone, so what is typed ahead waits
        // for the prompt.
        return;
    }
    // One quiet keyboard for all the moves in a row, so that `ai off` can be typed while the
    // computer thinks; what else was typed is run at the prompt when it hands back.
    let mut keyboard = session.live.then(Keyboard::quiet);
    while !session.is_over() && session.computer[session.game.to_move().index()] {
        let both = session.computer == [true, true];
        if both && played > 0 {
            // Watching: a pause to follow the game, and a chance to stop it.
            if wait(session.delay, keyboard.as_mut()) {
                session.computer = [false, false];
                print(stopped(session));
                return;
            }
        }
        if played == MOST_IN_A_ROW {
            print(format!(
                "The computer stops after {MOST_IN_A_ROW} moves in a row: type a move, or `ai off`.\n"
            ));
            return;
        }
        let Some(report) = think(session, keyboard.as_mut()) else {
            return;
        };
        if both && INTERRUPTED.load(Ordering::Relaxed) {
            session.computer = [false, false];
            print(stopped(session));
            return;
        }
        let Some(mv) = report.best else { return };
        let side = session.game.to_move();
        let mut text = format!(
            "The computer ({}) plays {mv} after {}, depth {}: {}.\n",
            session.side_name(side),
            seconds(report.elapsed),
            report.depth,
            standing(session.rules(), report.score, side)
        );
        match moving::play(session, &mv.to_string()) {
            Ok(super::Reply::Text(played)) => text.push_str(&played),
            // The search only returns legal moves; should one be refused, hand back.
            _ => return,
        }
        print(text);
        played += 1;
    }
}

/// Waits `delay`, reading the keyboard; whether the user asked to stop (Ctrl-C, or a line
/// `ai off`).
fn wait(delay: Duration, mut keys: Option<&mut Keyboard>) -> bool {
    let until = Instant::now() + delay;
    loop {
        if INTERRUPTED.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(keys) = keys.as_deref_mut() {
            let lines = keys.lines();
            if lines.iter().any(|l| l.split_whitespace().eq(["ai", "off"])) {
                return true;
            }
            if !lines.is_empty() {
                eprintln!(
                    "(the computer plays both sides: type `ai off` or press Ctrl-C to stop it)"
                );
            }
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}

fn stopped(session: &Session) -> String {
    format!(
        "The computer stops; it plays neither side now. {} to move: type a move, or `ai both` to let it go on.\n",
        capitalise(&english::side_noun(session.rules(), session.game.to_move()))
    )
}

/// `hint`: the move the computer would play, what it does, and how the game then stands.
pub fn hint(session: &Session) -> Result<String, String> {
    let report = think(session, None).ok_or("the game is over: there is nothing to hint")?;
    let mv = report.best.ok_or("no move to suggest")?;
    let side = session.game.to_move();
    let does = reason::what_it_does(session, mv)?;
    Ok(format!(
        "Hint: {mv}. {}.\nAfter the expected line {}, {} (depth {}, {}).",
        capitalise(&does),
        line(&report),
        standing(session.rules(), report.score, side),
        report.depth,
        seconds(report.elapsed),
    ))
}

/// `eval`: who stands better, and the expected line.
pub fn eval(session: &Session) -> Result<String, String> {
    let report = think(session, None).ok_or("the game is over: there is nothing to evaluate")?;
    let side = session.game.to_move();
    Ok(format!(
        "{} (depth {}, {} nodes, {}). Expected line: {}.",
        capitalise(&standing(session.rules(), report.score, side)),
        report.depth,
        report.nodes,
        seconds(report.elapsed),
        line(&report)
    ))
}

fn line(report: &Report) -> String {
    let moves: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}
