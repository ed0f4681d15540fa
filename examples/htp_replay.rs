//! Replays game records through `tafl`'s Hnefatafl Text Protocol session, as a driver written for
//! hnefatafl-copenhagen would send them, and counts how our Copenhagen agrees with the records.
//!
//! The records are hnefatafl-copenhagen's `tests/copenhagen.csv` (dcampbell24/hnefatafl, CC0):
//! one game a line, `moves,attacker captures,defender captures,result`, moves like `g3-e3xe2`
//! separated by spaces, possibly ending in `timeout`, result `Black` (attackers won), `White`
//! (defenders won), `Draw` or `Ongoing`.
//!
//! ```text
//! cargo run --release --example htp_replay -- copenhagen.csv
//! ```

use std::collections::BTreeMap;

use tafl::protocol::gtp::Gtp;
use tafl::protocol::{Driver, Loaded, Settings};
use tafl::Side;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: htp_replay RECORDS.csv")?;
    let text = std::fs::read_to_string(&path)?;
    let copenhagen = Loaded::load("copenhagen")?;
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        let [moves, _, _, result] = fields[..] else {
            *tally.entry("unreadable line".to_string()).or_default() += 1;
            continue;
        };
        let mut driver = Driver::new(Gtp::new(Settings::default(), vec![copenhagen.clone()])?);
        let mut refused = None;
        for record in moves.split_whitespace().take_while(|m| *m != "timeout") {
            let plain = record.split('x').next().unwrap_or(record);
            let Some((from, to)) = plain.split_once('-') else {
                refused = Some(format!("unreadable move {record}"));
                break;
            };
            let role = match driver.protocol().game().to_move() {
                Side::Attackers => "attacker",
                Side::Defenders => "defender",
            };
            let answer = driver.feed(&format!("play {role} {from} {to}"));
            if answer.first().is_some_and(|a| a.starts_with('?')) {
                refused = Some(answer[0].clone());
                break;
            }
        }
        let status = driver.feed("final_status").join("");
        let key = match refused {
            Some(why) => format!("a move refused: {why}"),
            None if status == "= ongoing" => format!("recorded {result}, not ended on the board"),
            None => {
                let expected = match result {
                    "Black" => "= attacker_wins",
                    "White" => "= defender_wins",
                    "Draw" => "= draw",
                    _ => "= ongoing",
                };
                if status == expected {
                    format!("recorded {result}, ended the same")
                } else {
                    format!("recorded {result}, ended {status}")
                }
            }
        };
        *tally.entry(key).or_default() += 1;
    }
    for (what, count) in tally {
        println!("{count:5}  {what}");
    }
    Ok(())
}
