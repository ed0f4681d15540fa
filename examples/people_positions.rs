//! A book of positions from games people played, for `tafl match --book`: where each game
//! stood after a given ply, or where it stopped, so that the computer can play on from
//! people's own positions (docs/balance.md, "What people's figure is made of").
//!
//! ```text
//! cargo run --release --example people_positions -- copenhagen tests/games/copenhagen.csv \
//!     --winner attackers --at end --count 60 --seed 7 > stopped.csv
//! tafl match copenhagen --a time=50 --b time=50 --book stopped.csv --cap 200 --threads 2
//! ```
//!
//! Arguments: a bundled variant, a record file in any format `tafl games` reads, then
//! - `--winner attackers|defenders|any`: the games whose record names that winner (`any`:
//!   every decided game);
//! - `--at N|end`: the position after N plies, from games at least ten plies longer, or the
//!   position where the record stops, from games of 20 plies or more whose moves do not end
//!   the game themselves (a resignation, a clock, an abandoned game);
//! - `--count K` and `--seed S`: K of those games (all of them when there are fewer), drawn
//!   with seed S.
//!
//! Games that disagree with the variant's rules (`tafl games check`) are left out. Prints one
//! hnefatafl-rs CSV row a position (its plies, then `,0,0,Ongoing`), after a `#`
//! line saying how it was drawn. A position the rules have already ended is never printed:
//! `tafl match` would refuse it.

use std::sync::Arc;

use tafl::engine::Rng;
use tafl::record::check::replay;
use tafl::record::{parse, Format, RecordedOutcome};
use tafl::search::duel::csv_row_with;
use tafl::{Engine, Game, Status, Variant};

/// Where in each game the position is taken.
#[derive(Clone, Copy)]
enum At {
    Ply(usize),
    End,
}

/// A game is long enough to cut at `N` when it has ten plies after it; a stopped game
/// shorter than this is left out (mostly openings abandoned at once).
const MORE_AFTER_CUT: usize = 10;
const SHORTEST_STOPPED: usize = 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: people_positions VARIANT RECORDS --winner attackers|defenders|any \
                 --at N|end --count K --seed S";
    let [variant, path, rest @ ..] = &args[..] else {
        return Err(usage.into());
    };
    let mut winner = None;
    let mut at = At::End;
    let mut count = usize::MAX;
    let mut seed = 1;
    for pair in rest.chunks(2) {
        let [flag, value] = pair else {
            return Err(usage.into());
        };
        match flag.as_str() {
            "--winner" => {
                winner = match value.as_str() {
                    "attackers" => Some(RecordedOutcome::AttackersWin),
                    "defenders" => Some(RecordedOutcome::DefendersWin),
                    "any" => None,
                    _ => return Err(usage.into()),
                }
            }
            "--at" => {
                at = match value.as_str() {
                    "end" => At::End,
                    n => At::Ply(n.parse().map_err(|_| usage)?),
                }
            }
            "--count" => count = value.parse().map_err(|_| usage)?,
            "--seed" => seed = value.parse().map_err(|_| usage)?,
            _ => return Err(usage.into()),
        }
    }
    let variant =
        Variant::bundled(variant).map_err(|_| format!("`{variant}`: no such bundled variant"))?;
    let engine = Arc::new(Engine::new(&variant.rules).map_err(|e| format!("{e:?}"))?);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;

    let mut positions = Vec::new();
    for record in parse(&text, Format::detect(Some(path), &text)) {
        // A record the toolkit cannot read, or one played under other rules (a capture the
        // variant does not make), does not give a position people reached under these rules.
        let Ok(record) = record else { continue };
        if replay(&engine, &record).verdict.is_disagreement() {
            continue;
        }
        let outcome = record.tags.result.as_ref().map(|r| r.outcome);
        let decided = matches!(
            outcome,
            Some(RecordedOutcome::AttackersWin | RecordedOutcome::DefendersWin)
        );
        if !decided || (winner.is_some() && outcome != winner) {
            continue;
        }
        let plies = match at {
            At::Ply(n) if record.moves.len() >= n + MORE_AFTER_CUT => n,
            At::End if record.moves.len() >= SHORTEST_STOPPED => record.moves.len(),
            _ => continue,
        };
        let mut game = Game::new(engine.clone());
        let replayed = record.moves[..plies]
            .iter()
            .all(|recorded| !game.is_over() && game.play(recorded.mv).is_ok());
        if replayed && !game.is_over() {
            positions.push(csv_row_with(&game, Status::Ongoing));
        }
    }

    // A partial Fisher-Yates shuffle: the first `count` rows are a uniform sample.
    let mut rng = Rng::for_game(seed, 0);
    let count = count.min(positions.len());
    for i in 0..count {
        let j = i + rng.below(positions.len() - i);
        positions.swap(i, j);
    }
    let at = match at {
        At::Ply(n) => format!("after ply {n}"),
        At::End => "where the record stops".to_string(),
    };
    println!(
        "# {count} of {} positions of {path} ({}), {at}, seed {seed}",
        positions.len(),
        match winner {
            Some(RecordedOutcome::AttackersWin) => "games the attackers won",
            Some(_) => "games the defenders won",
            None => "decided games",
        },
    );
    for row in &positions[..count] {
        println!("{row}");
    }
    Ok(())
}
