//! Measures how `tafl engine` uses a game clock: two engine processes play one game through a
//! protocol, each move timed from the question to the answer (pipes included) and taken off
//! the mover's clock, as a host would. Prints every side's time use and whether a clock ever
//! ran out. Not a test: wall-clock figures vary with the machine.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example engine_clock -- target/release/tafl opentafl copenhagen 60000
//! ```
//!
//! Arguments: the `tafl` binary, the protocol (`uci` or `opentafl`: the two whose clock a host
//! sends with each move), the variant, and each side's time in milliseconds.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tafl::protocol::client::{Client, Kind, Think};
use tafl::{BySide, Engine, Game, Side, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [binary, protocol, variant, millis] = &args[..] else {
        return Err("usage: engine_clock TAFL_BINARY uci|opentafl VARIANT MILLISECONDS".into());
    };
    let kind = match protocol.as_str() {
        "uci" => Kind::Uci,
        "opentafl" => Kind::OpenTafl,
        other => return Err(format!("`{other}`: uci or opentafl").into()),
    };
    let start = Duration::from_millis(millis.parse()?);
    let engine = Arc::new(Engine::new(&Variant::load(variant)?.rules)?);
    let command = vec![
        binary.clone(),
        "engine".to_string(),
        "--protocol".to_string(),
        protocol.clone(),
    ];
    let setup = Duration::from_secs(30);
    let mut players = BySide {
        attackers: Client::start(&command, kind, variant, &engine, setup)?,
        defenders: Client::start(&command, kind, variant, &engine, setup)?,
    };
    let mut left = BySide {
        attackers: start,
        defenders: start,
    };
    let mut used: BySide<Vec<Duration>> = BySide::default();
    let mut game = Game::new(engine);
    let mut flagged = None;
    while !game.is_over() && game.plies().len() < 300 {
        let side = game.to_move();
        let think = Think::Clock {
            left,
            increment: Duration::ZERO,
        };
        let asked = Instant::now();
        // A host would wait no longer than the clock: a little more, to see by how much.
        let mv = players.get_mut(side).best_move(
            &game,
            think,
            *left.get(side) + Duration::from_secs(5),
        )?;
        let took = asked.elapsed();
        used.get_mut(side).push(took);
        if took > *left.get(side) {
            flagged = Some((side, game.plies().len(), took, *left.get(side)));
            break;
        }
        *left.get_mut(side) -= took;
        game.play(mv)?;
    }
    println!(
        "{variant} through {protocol}, {} ms each: {} plies, {}",
        start.as_millis(),
        game.plies().len(),
        game.status()
    );
    for side in Side::BOTH {
        let times = used.get(side);
        let total: Duration = times.iter().sum();
        let longest = times.iter().max().copied().unwrap_or_default();
        println!(
            "  {side}: {} moves, {} ms used, longest {} ms, {} ms left",
            times.len(),
            total.as_millis(),
            longest.as_millis(),
            left.get(side).as_millis()
        );
    }
    match flagged {
        Some((side, ply, took, had)) => println!(
            "  {side} ran out of time at ply {ply}: {} ms taken, {} ms left",
            took.as_millis(),
            had.as_millis()
        ),
        None => println!("  no clock ran out"),
    }
    let BySide {
        attackers,
        defenders,
    } = players;
    attackers.quit();
    defenders.quit();
    Ok(())
}
