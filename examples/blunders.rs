//! The attackers' lost moves: a suite of positions where a side played a move that a search
//! proves lost while another move was not, mined from finished games, and how many of them a
//! player avoids (docs/strength.md, "The moves that lost: a suite").
//!
//! ```text
//! cargo run --release --example blunders -- mine copenhagen docs/data/match-1s/copenhagen-cordon-seed*.csv > suite.txt
//! cargo run --release --example blunders -- solve copenhagen docs/data/blunders/copenhagen.txt --time 1000
//! ```
//!
//! **mine** `VARIANT RECORDS...`: for every game a record file holds that the defenders won
//! (any format `tafl games` reads; match files with `#` lines too), walks the attackers' moves
//! back from the end while a search of [`PROOF_DEPTH`] plies proves the position after each
//! lost. The first move of that run is the blunder when the same search does not prove the
//! position before it lost: another move held, as far as the search sees. Prints one line
//! a position, `AVOID;MOVES;WHERE` (the lost move, the game's moves before it, the file and
//! game), each position once.
//!
//! **solve** `VARIANT SUITE --time MS`: searches each position for `MS` with one thread and
//! the default techniques (changed by `--off` and `--on`, as `tafl best` takes them). A
//! position is held when the move chosen is not the lost one, and a search of
//! [`PROOF_DEPTH`] plies does not prove the position after it lost either. Prints each
//! position's move and verdict, then how many were held, the mean depth and nodes a second.

use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use tafl::record::{parse, Format, RecordedOutcome};
use tafl::search::{self, Limits, Score, Settings};
use tafl::{Engine, Game, Move, Side, Variant};

/// How deep the search that proves a position lost looks: the depth our player reaches on an
/// 11x11 board in about a second, so that every loss in the suite is one a player at that
/// budget could have seen.
const PROOF_DEPTH: u32 = 8;
/// Wall time a proving search may take at most; one cut short proves nothing.
const PROOF_TIME: Duration = Duration::from_secs(20);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: blunders mine VARIANT RECORDS... | blunders solve VARIANT SUITE \
                 --time MS [--off LIST] [--on LIST]";
    match args.first().map(String::as_str) {
        Some("mine") if args.len() >= 3 => mine(&args[1], &args[2..]),
        Some("solve") if args.len() >= 3 => solve(&args[1], &args[2], &args[3..]),
        _ => Err(usage.into()),
    }
}

fn engine_of(variant: &str) -> Result<Arc<Engine>, Box<dyn std::error::Error>> {
    let variant = Variant::load(variant).map_err(|e| format!("{variant}: {e:?}"))?;
    Ok(Arc::new(
        Engine::new(&variant.rules).map_err(|e| format!("{e:?}"))?,
    ))
}

/// The proving search's verdict on `game`'s position, for its side to move: a win or a loss
/// it proved (iterative deepening stops at a proof, whatever the depth), else a value.
fn prove(game: &Game) -> Score {
    let limits = Limits {
        time: Some(PROOF_TIME),
        ..Limits::depth(PROOF_DEPTH)
    };
    let stop = AtomicBool::new(false);
    search::search(game, &limits, &stop, |_| {}).map_or(Score::Value(0), |report| report.score)
}

fn mine(variant: &str, paths: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let engine = engine_of(variant)?;
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (index, record) in parse(&text, Format::detect(Some(path), &text))
            .into_iter()
            .enumerate()
        {
            let Ok(record) = record else { continue };
            let won_by_defenders = record
                .tags
                .result
                .as_ref()
                .is_some_and(|r| r.outcome == RecordedOutcome::DefendersWin);
            if !won_by_defenders {
                continue;
            }
            let moves: Vec<Move> = record.moves.iter().map(|recorded| recorded.mv).collect();
            let mut games = vec![Game::new(engine.clone())];
            for &mv in &moves {
                let mut next = games[games.len() - 1].clone();
                if next.is_over() || next.play(mv).is_err() {
                    break;
                }
                games.push(next);
            }
            if games.len() != moves.len() + 1 {
                continue; // a record our rules do not replay
            }
            // Back from the end: the attackers' moves after which the defenders win by force.
            let mut first_lost = None;
            for ply in (0..moves.len()).rev() {
                if games[ply].to_move() != Side::Attackers {
                    continue;
                }
                let after = &games[ply + 1];
                let lost = after.is_over() || matches!(prove(after), Score::Win(_));
                if !lost {
                    break;
                }
                first_lost = Some(ply);
            }
            let Some(ply) = first_lost else { continue };
            if matches!(prove(&games[ply]), Score::Loss(_)) {
                continue; // lost before this move too, deeper than the proof sees
            }
            let before: Vec<String> = moves[..ply].iter().map(Move::to_string).collect();
            let line = before.join(" ");
            if seen.insert(line.clone()) {
                println!("{};{line};{path} game {}", moves[ply], index + 1);
            }
        }
    }
    Ok(())
}

fn solve(variant: &str, suite: &str, rest: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let usage = "solve: --time MS [--off LIST] [--on LIST]";
    let engine = engine_of(variant)?;
    let mut settings = Settings::DEFAULT;
    let mut time = None;
    for pair in rest.chunks(2) {
        let [flag, value] = pair else {
            return Err(usage.into());
        };
        match flag.as_str() {
            "--time" => time = Some(Duration::from_millis(value.parse()?)),
            "--off" | "--on" => {
                for name in value.split(',') {
                    settings.turn(name, flag == "--on")?;
                }
            }
            _ => return Err(usage.into()),
        }
    }
    let limits = Limits::time(time.ok_or(usage)?).with_settings(settings);
    let text = std::fs::read_to_string(suite).map_err(|e| format!("{suite}: {e}"))?;
    let (mut held, mut total, mut depths, mut nps) = (0, 0u64, 0u64, 0u64);
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut fields = line.split(';');
        let (Some(avoid), Some(moves)) = (fields.next(), fields.next()) else {
            return Err(format!("{suite}: `{line}` is not AVOID;MOVES;WHERE").into());
        };
        let avoid = Move::from_str(avoid)?;
        let mut game = Game::new(engine.clone());
        for text in moves.split_whitespace() {
            game.play(Move::from_str(text)?)
                .map_err(|e| format!("{suite}: {text}: {e:?}"))?;
        }
        let stop = AtomicBool::new(false);
        let report = search::search(&game, &limits, &stop, |_| {})?;
        let Some(chosen) = report.best else { continue };
        let mut after = game.clone();
        after.play(chosen).map_err(|e| format!("{e:?}"))?;
        let verdict = if chosen == avoid {
            "the lost move"
        } else if after.is_over() || !matches!(prove(&after), Score::Win(_)) {
            held += 1;
            "held"
        } else {
            "another lost move"
        };
        total += 1;
        depths += u64::from(report.depth);
        nps += report.nps();
        println!(
            "{chosen} (avoid {avoid}): {verdict}, depth {}, score {}",
            report.depth, report.score
        );
    }
    let searched = total.max(1);
    println!(
        "held {held} of {total}; mean depth {:.1}, mean {} nodes/s",
        depths as f64 / searched as f64,
        nps / searched
    );
    Ok(())
}
