//! A score in words a player can check against the board, as `best`, `play`'s `hint` and
//! `eval` and the computer's turns say it.

use super::Score;
use crate::english;
use crate::ir::{Rules, Side};

/// Below this many hundredths of a man either way the game is called level.
const LEVEL: i32 = 20;

/// Below this many hundredths of a soldier a side is "slightly better".
const SLIGHTLY: i32 = 60;

/// Below this many a side is "better"; from here "clearly better".
const CLEARLY: i32 = 250;

/// From this many a side is "much better": the search sees it winning.
const MUCH: i32 = 800;

/// Who stands better, in words a player can check against the board: `the Swedes are clearly
/// better`, `the game is about level`, `the Muscovites can force a win in 5 plies`. Never a
/// count of men: the score weighs the king's routes and the corners as well as material, so
/// "six men ahead" at the first move, with nothing taken, would be read as material.
pub fn standing(rules: &Rules, score: Score, to_move: Side) -> String {
    let plies = |n: u32| english::count(n as usize, "ply");
    match score {
        Score::Win(n) => format!("{} force a win in {}", can(rules, to_move), plies(n)),
        Score::Loss(n) => format!(
            "{} force a win in {}",
            can(rules, to_move.opponent()),
            plies(n)
        ),
        Score::Value(v) if v.abs() < LEVEL => "the game is about level".to_string(),
        Score::Value(v) => {
            let leader = if v > 0 { to_move } else { to_move.opponent() };
            let be = english::side_verb(rules, leader, "are");
            let how = match v.abs() {
                v if v < SLIGHTLY => "slightly better",
                v if v < CLEARLY => "better",
                v if v < MUCH => "clearly better",
                _ => "much better, winning by the computer's reckoning",
            };
            format!("{be} {how}")
        }
    }
}

/// `the Swedes can`, `White can`.
fn can(rules: &Rules, side: Side) -> String {
    format!("{} can", english::side_noun(rules, side))
}
