//! Where the attackers' men stand in the games of a `tafl match` run that reached the ply cap
//! with player A attacking: at each ply asked, how many attackers stand on a corner's posts
//! (beside a corner or two orthogonal steps from it: the squares `blockade` and `seal` pay
//! for), how many are free to hunt, and how many defenders besides the king are left.
//!
//! ```text
//! cargo run --release --example men_at_the_cap -- copenhagen docs/data/match-1s/copenhagen-*.csv
//! ```
//!
//! Arguments: a bundled variant whose escape squares are the four corners, then the `--games`
//! files of `tafl match` runs (A attacks in the games whose `# opening` line says so). Prints
//! a line a capped game, then the medians and ranges at plies 40, 100, 200 and 300, and how
//! many of the capturing moves were exchanges (next to a capture by the other side).

use std::sync::Arc;

use tafl::ir::Role;
use tafl::record::{parse, Format};
use tafl::{Engine, Game, Side, Square, Status, Variant};

/// The plies at which the men are counted.
const PLIES: [usize; 4] = [40, 100, 200, 300];

/// The attackers on corner posts, the other attackers, and the defenders but the king.
#[derive(Clone, Copy)]
struct Men {
    guards: usize,
    hunters: usize,
    defenders: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, files @ ..] = &args[..] else {
        return Err("usage: men_at_the_cap VARIANT MATCH.csv...".into());
    };
    let variant =
        Variant::bundled(variant).map_err(|_| format!("`{variant}`: no such bundled variant"))?;
    let engine = Arc::new(Engine::new(&variant.rules).map_err(|e| format!("{e:?}"))?);
    let mut counted: Vec<[Men; PLIES.len()]> = Vec::new();
    // Capturing moves, and those a ply before or after a capture by the other side.
    let (mut captures, mut exchanges) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(path)?;
        // The match writes a `# opening N: attackers X, defenders Y` line a game, in order.
        let a_attacks = text
            .lines()
            .filter(|line| line.starts_with("# opening"))
            .map(|line| line.contains("attackers A"));
        for (record, a_attacks) in parse(&text, Format::detect(Some(path), &text))
            .into_iter()
            .zip(a_attacks)
        {
            let record = record?;
            if !a_attacks || record.moves.len() < PLIES[PLIES.len() - 1] {
                continue;
            }
            let mut game = Game::new(engine.clone());
            let mut men = Vec::new();
            let mut captured = Vec::new();
            for (ply, recorded) in record.moves.iter().enumerate() {
                if PLIES.contains(&ply) {
                    men.push(count(&engine, &game));
                }
                let played = game
                    .play(recorded.mv)
                    .map_err(|e| format!("{path}: ply {}: {e}", ply + 1))?;
                captured.push((played.mover, !played.captured.is_empty()));
            }
            if PLIES.contains(&record.moves.len()) {
                men.push(count(&engine, &game));
            }
            if game.status() != Status::Ongoing {
                continue;
            }
            let line: Vec<String> = PLIES
                .iter()
                .zip(&men)
                .map(|(ply, m)| format!("{ply}: {}h/{}g v {}", m.hunters, m.guards, m.defenders))
                .collect();
            println!("{path} game {}: {}", counted.len(), line.join(" | "));
            for (i, &(mover, took)) in captured.iter().enumerate() {
                if !took {
                    continue;
                }
                captures += 1;
                let answered = |j: usize| captured.get(j).is_some_and(|&(m, t)| t && m != mover);
                if answered(i + 1) || i.checked_sub(1).is_some_and(answered) {
                    exchanges += 1;
                }
            }
            counted.push(men.try_into().map_err(|_| "one count a ply")?);
        }
    }
    println!(
        "{} capped games with A attacking: {captures} capturing moves, {exchanges} of them exchanges",
        counted.len()
    );
    for (i, ply) in PLIES.iter().enumerate() {
        let column = |f: fn(&Men) -> usize| {
            let mut values: Vec<usize> = counted.iter().map(|men| f(&men[i])).collect();
            values.sort_unstable();
            match (values.first(), values.last()) {
                (Some(low), Some(high)) => {
                    format!("{} ({low}–{high})", values[values.len() / 2])
                }
                _ => "none".to_string(),
            }
        };
        println!(
            "ply {ply}: hunters {}, guards {}, defenders {} (median, range)",
            column(|m| m.hunters),
            column(|m| m.guards),
            column(|m| m.defenders)
        );
    }
    Ok(())
}

/// The men of `game`'s position: attackers within two orthogonal steps of a corner count as
/// guards.
fn count(engine: &Engine, game: &Game) -> Men {
    let (width, height) = (engine.width(), engine.height());
    let post = |square: Square| {
        [
            (0, 0),
            (width - 1, 0),
            (0, height - 1),
            (width - 1, height - 1),
        ]
        .iter()
        .any(|&(file, rank)| {
            let steps = square.file.abs_diff(file) + square.rank.abs_diff(rank);
            (1..=2).contains(&steps)
        })
    };
    let mut men = Men {
        guards: 0,
        hunters: 0,
        defenders: 0,
    };
    for (square, kind) in engine.pieces(game.position()) {
        let piece = &engine.rules().pieces[kind];
        match piece.side {
            Side::Attackers if post(square) => men.guards += 1,
            Side::Attackers => men.hunters += 1,
            Side::Defenders if piece.role == Role::King => {}
            Side::Defenders => men.defenders += 1,
        }
    }
    men
}
