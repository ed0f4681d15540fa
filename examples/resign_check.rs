//! How far to trust a resignation rule (`--resign SCORE,MOVES` of `tafl selfplay`, `match` and
//! `compare`): plays selfplay games to their end, as `tafl selfplay` opens and plays them, with
//! no rule, keeps each move's score, and asks of every rule given where it would have stopped
//! the game and whether the side it would have made resign went on to lose. A rule that named a
//! side which then drew or won would have changed a result.
//!
//! ```text
//! cargo run --release --example resign_check -- copenhagen time=50 100 400 1000,3 1000,5 2000,5
//! ```
//!
//! Arguments: a bundled variant, `time=MS` or `depth=N` a move, the number of games (seed 1, 4
//! random opening plies, games on every core), the ply cap, then the rules, `games=FILE` to
//! write the games (hnefatafl-rs CSV rows, game 0 first) and `weights=FILE` for a weights file
//! (as `tafl tune` writes it) instead of the variant's own. Prints one line a rule, with the games
//! whose resigning side went on to win (`game@ply`: its number, and the plies played when the
//! rule would have stopped it).

use std::sync::Arc;
use std::time::Duration;

use rayon::prelude::*;
use tafl::search::duel::{csv_row, opening, play_out, Adjudication, Resign};
use tafl::search::eval::WeightsFile;
use tafl::search::Limits;
use tafl::{Engine, Side, Status, Variant};

/// One game played out: each move's mover and its own search's score, the result, and the game
/// as a CSV row.
struct Played {
    scores: Vec<(Side, i32)>,
    status: Status,
    row: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, budget, games, cap, rules @ ..] = &args[..] else {
        return Err("usage: resign_check VARIANT time=MS|depth=N GAMES CAP SCORE,MOVES...".into());
    };
    let variant =
        Variant::bundled(variant).map_err(|_| format!("`{variant}`: no such bundled variant"))?;
    let engine = Arc::new(Engine::new(&variant.rules).map_err(|e| format!("{e:?}"))?);
    let mut limits = match budget.split_once('=') {
        Some(("time", ms)) => Limits::time(Duration::from_millis(ms.parse()?)),
        Some(("depth", n)) => Limits::depth(n.parse()?),
        _ => return Err(format!("`{budget}`: time=MS or depth=N").into()),
    };
    limits.threads = 1;
    limits.table_mb = 16;
    let games: u64 = games.parse()?;
    let cap: usize = cap.parse()?;
    let out = rules.iter().find_map(|arg| arg.strip_prefix("games="));
    if let Some(path) = rules.iter().find_map(|arg| arg.strip_prefix("weights=")) {
        let file: WeightsFile = serde_json::from_str(&std::fs::read_to_string(path)?)?;
        limits.weights = Some(file.weights);
    }
    let rules: Vec<Resign> = rules
        .iter()
        .filter(|arg| !arg.starts_with("games=") && !arg.starts_with("weights="))
        .map(|rule| rule.parse())
        .collect::<Result<_, String>>()?;
    let played: Vec<Played> = (0..games)
        .into_par_iter()
        .map(|index| {
            let start = opening(&engine, 1, index, 4);
            let mut scores = Vec::new();
            let game = play_out(
                start,
                &limits,
                &limits,
                Adjudication::cap(cap),
                |game, report| scores.push((game.to_move(), report.score.as_number())),
            );
            Played {
                scores,
                status: game.status(),
                row: csv_row(&game),
            }
        })
        .collect();
    if let Some(path) = out {
        let rows: Vec<&str> = played.iter().map(|game| game.row.as_str()).collect();
        std::fs::write(path, rows.join("\n") + "\n")?;
    }
    let count = |status: Status| played.iter().filter(|p| p.status == status).count();
    println!(
        "{games} games at {budget}, cap {cap}: attackers {}, defenders {}, drawn {}, capped {}",
        count(Status::AttackersWin),
        count(Status::DefendersWin),
        count(Status::Draw),
        count(Status::Ongoing)
    );
    for rule in rules {
        // Per game that the rule stops: (the side resigning, the ply, how it really ended, the
        // game's number).
        let verdicts: Vec<(Side, usize, Status, usize)> = played
            .iter()
            .enumerate()
            .filter_map(|(index, game)| {
                first_resignation(rule, &game.scores).map(|(s, p)| (s, p, game.status, index))
            })
            .collect();
        let lost = |side: Side, status: Status| {
            matches!(
                (side, status),
                (Side::Attackers, Status::DefendersWin) | (Side::Defenders, Status::AttackersWin)
            )
        };
        let confirmed = verdicts.iter().filter(|v| lost(v.0, v.2)).count();
        let capped = verdicts.iter().filter(|v| v.2 == Status::Ongoing).count();
        let drawn = verdicts.iter().filter(|v| v.2 == Status::Draw).count();
        let reversed: Vec<String> = verdicts
            .iter()
            .filter(|v| !lost(v.0, v.2) && !matches!(v.2, Status::Ongoing | Status::Draw))
            .map(|v| format!("{}@{}", v.3, v.1))
            .collect();
        let by = |side: Side| verdicts.iter().filter(|v| v.0 == side).count();
        println!(
            "--resign {rule}: stops {} games (attackers resign {}, defenders {}); the resigning side \
             then lost {confirmed}, reached the cap {capped}, drew {drawn}, won {}{}",
            verdicts.len(),
            by(Side::Attackers),
            by(Side::Defenders),
            reversed.len(),
            if reversed.is_empty() {
                String::new()
            } else {
                format!(" (game@ply: {})", reversed.join(" "))
            }
        );
    }
    Ok(())
}

/// Where `rule` would first make a side resign, given each move's mover and score: the side
/// and the number of moves played by then.
fn first_resignation(rule: Resign, scores: &[(Side, i32)]) -> Option<(Side, usize)> {
    let mut watch = rule.watch();
    scores
        .iter()
        .enumerate()
        .find_map(|(ply, &(mover, score))| watch.record(mover, score).map(|side| (side, ply + 1)))
}
