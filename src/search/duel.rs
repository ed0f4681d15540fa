//! Games between two computer players, as `tafl match`, `tafl selfplay`, `tafl compare` and
//! `tafl tune` play them: seeded random openings, then each side's search in turn, and the game
//! as one row of the hnefatafl-rs CSV format.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use super::stats::{wilson, Rate};
use super::{search, Limits, Report, Score};
use crate::engine::{Engine, Move, Rng};
use crate::game::{Game, Status};
use crate::ir::Side;

/// How the random plies of an opening are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum OpeningMoves {
    /// Uniformly among the legal moves.
    #[default]
    Any,
    /// Uniformly among the moves a depth-2 search scores within [`PLAUSIBLE_MARGIN`] of the
    /// best: the games still differ, but no side starts from a move a player would call a
    /// blunder. Uniform moves hand the defenders of a small corner game an advantage people's
    /// openings do not (docs/balance.md, "What people's figure is made of").
    Plausible,
}

impl OpeningMoves {
    /// Every way of drawing the plies, as the options list them.
    pub const ALL: [OpeningMoves; 2] = [OpeningMoves::Any, OpeningMoves::Plausible];

    /// The name `--opening-moves` and `opening_moves=` take, as JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            OpeningMoves::Any => "any",
            OpeningMoves::Plausible => "plausible",
        }
    }
}

/// How far below the best a plausible opening move may score: half a soldier.
pub const PLAUSIBLE_MARGIN: i32 = 50;

/// The openings of a run: how many random plies, and how they are drawn. A summary's JSON
/// writes them as `openings` and `opening_moves`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Opening {
    /// Random plies from the start (fewer where the game ends first).
    #[serde(rename = "openings")]
    pub plies: u32,
    /// How each is drawn.
    #[serde(rename = "opening_moves")]
    pub moves: OpeningMoves,
}

impl From<u32> for Opening {
    /// `plies` uniformly random plies, as runs were played before plausible openings.
    fn from(plies: u32) -> Opening {
        Opening {
            plies,
            moves: OpeningMoves::Any,
        }
    }
}

impl std::fmt::Display for Opening {
    /// How a summary names it: "4 random opening plies", "4 plausible random opening plies".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.moves {
            OpeningMoves::Any => "",
            OpeningMoves::Plausible => "plausible ",
        };
        write!(f, "{} {kind}random opening plies", self.plies)
    }
}

/// The game that opening number `index` of a run seeded with `seed` starts from: `plies`
/// uniformly random plies from the start (fewer where the game ends first).
pub fn opening(engine: &Arc<Engine>, seed: u64, index: u64, plies: u32) -> Game {
    opening_drawn(engine, seed, index, Opening::from(plies))
}

/// The game that opening number `index` of a run seeded with `seed` starts from, its plies
/// drawn as `opening` says.
pub fn opening_drawn(engine: &Arc<Engine>, seed: u64, index: u64, opening: Opening) -> Game {
    let mut rng = Rng::for_game(seed, index);
    let mut game = Game::new(engine.clone());
    for _ in 0..opening.plies {
        let mut moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        if opening.moves == OpeningMoves::Plausible {
            moves = plausible_moves(&game, &moves);
        }
        // A generated move is legal, and the plausible ones are some of them (never none: the
        // best scores within the margin of itself).
        let _ = game.play(moves[rng.below(moves.len())]);
    }
    game
}

/// The moves of `moves` (legal in `game`) that a depth-2 search scores within
/// [`PLAUSIBLE_MARGIN`] of the best, for the side to move, in their order.
pub fn plausible_moves(game: &Game, moves: &[Move]) -> Vec<Move> {
    // No table: a search per legal move, each too small to pay for allocating one.
    let limits = Limits {
        table_mb: 0,
        ..Limits::depth(2)
    };
    let stop = AtomicBool::new(false);
    let mover = game.to_move();
    let scored: Vec<(Move, i32)> = moves
        .iter()
        .filter_map(|&mv| {
            let mut child = game.clone();
            child.play(mv).ok()?;
            let score = match (child.status(), mover) {
                (Status::Ongoing, _) => match search(&child, &limits, &stop, |_| {}) {
                    Ok(report) => -report.score.as_number(),
                    Err(_) => 0,
                },
                (Status::Draw, _) => 0,
                (Status::AttackersWin, Side::Attackers)
                | (Status::DefendersWin, Side::Defenders) => Score::Win(1).as_number(),
                (Status::AttackersWin | Status::DefendersWin, _) => Score::Loss(1).as_number(),
            };
            Some((mv, score))
        })
        .collect();
    let Some(best) = scored.iter().map(|&(_, score)| score).max() else {
        return moves.to_vec();
    };
    scored
        .into_iter()
        .filter(|&(_, score)| score >= best.saturating_sub(PLAUSIBLE_MARGIN))
        .map(|(mv, _)| mv)
        .collect()
}

/// When a game between computer players stops short of the rules' own ending: at a ply cap
/// (the game stands `Ongoing`, counted a draw), and, where asked, when a side resigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The game stops, still going, after this many plies.
    pub cap: usize,
    /// The resignation rule, if any.
    pub resign: Option<Resign>,
}

impl Adjudication {
    /// Only the ply cap.
    pub fn cap(cap: usize) -> Adjudication {
        Adjudication { cap, resign: None }
    }
}

/// Resignation as engine testers adjudicate it (cutechess-cli's two-sided `-resign`): a side
/// resigns when, for `moves` of its moves in a row, its own search scored the position at
/// `-score` or worse, and for the same number of the other side's moves in a row the other
/// side's search scored it at `+score` or better. Both players must agree the game is decided;
/// people end most of their games so (docs/balance.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// The margin, in hundredths of a soldier.
    pub score: i32,
    /// Moves of each side in a row.
    pub moves: u32,
}

impl Resign {
    /// The rule of a margin of `score` hundredths of a soldier held for `moves` moves; both
    /// must be positive.
    pub fn new(score: i32, moves: u32) -> Result<Resign, String> {
        if score <= 0 || moves == 0 {
            return Err(format!(
                "the resignation margin and its moves must be positive, not `{score},{moves}`"
            ));
        }
        Ok(Resign { score, moves })
    }

    /// A watch over one game, fed each move's score.
    pub fn watch(self) -> Watch {
        Watch {
            rule: self,
            losing: [0; 2],
            winning: [0; 2],
        }
    }
}

impl std::str::FromStr for Resign {
    type Err = String;

    /// `SCORE,MOVES`, such as `1000,5`.
    fn from_str(text: &str) -> Result<Resign, String> {
        let usage = || format!("expected SCORE,MOVES such as `1000,5`, not `{text}`");
        let (score, moves) = text.split_once(',').ok_or_else(usage)?;
        let score: i32 = score.trim().parse().map_err(|_| usage())?;
        let moves: u32 = moves.trim().parse().map_err(|_| usage())?;
        Resign::new(score, moves)
    }
}

impl std::fmt::Display for Resign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.score, self.moves)
    }
}

/// A [`Resign`] rule over one game: each side's run of moves in a row whose own search scored
/// the game lost, and won.
pub struct Watch {
    rule: Resign,
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Watch {
    /// Records the score `mover`'s search gave its move (for `mover`); returns the side that
    /// resigns, if one now does.
    pub fn record(&mut self, mover: Side, score: i32) -> Option<Side> {
        let i = mover.index();
        let margin = self.rule.score;
        self.losing[i] = if score <= -margin {
            self.losing[i] + 1
        } else {
            0
        };
        self.winning[i] = if score >= margin {
            self.winning[i] + 1
        } else {
            0
        };
        Side::BOTH.into_iter().find(|side| {
            self.losing[side.index()] >= self.rule.moves
                && self.winning[side.opponent().index()] >= self.rule.moves
        })
    }
}

/// Plays `game` on: the attackers search with `attackers`, the defenders with `defenders`,
/// until the game ends, a side resigns by `adjudication`'s rule, or it has `adjudication.cap`
/// plies (then it stands `Ongoing`). `observe` sees each position with the mover's search of it,
/// before the move found is played.
pub fn play_out(
    mut game: Game,
    attackers: &Limits,
    defenders: &Limits,
    adjudication: Adjudication,
    mut observe: impl FnMut(&Game, &Report),
) -> Game {
    let stop = AtomicBool::new(false);
    let mut watch = adjudication.resign.map(Resign::watch);
    while !game.is_over() && game.plies().len() < adjudication.cap {
        let mover = game.to_move();
        let limits = match mover {
            Side::Attackers => attackers,
            Side::Defenders => defenders,
        };
        let Ok(report) = search(&game, limits, &stop, |_| {}) else {
            break;
        };
        observe(&game, &report);
        let Some(mv) = report.best else { break };
        if game.play(mv).is_err() {
            break;
        }
        let Some(watch) = &mut watch else { continue };
        if let Some(loser) = watch.record(mover, report.score.as_number()) {
            // Refused only where the move just ended the game, which keeps that ending.
            let _ = game.resign(loser);
        }
    }
    game
}

/// One finished selfplay game: its result (`Ongoing` when the ply cap stopped it), how it ended
/// (`capped` for the cap) and its length in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game's result.
    pub status: Status,
    /// The ending's name (`king_escaped`, `repetition`, ...), or `capped`.
    pub reason: &'static str,
    /// Plies played, the opening's included.
    pub plies: usize,
}

/// Selfplay game number `index` of a run seeded with `seed`, as `tafl selfplay` and the Python
/// package play it: `openings` random plies ([`opening`]), then `limits` for both sides, until
/// the game ends or `adjudication` stops it.
pub fn selfplay_game(
    engine: &Arc<Engine>,
    limits: &Limits,
    seed: u64,
    index: u64,
    openings: impl Into<Opening>,
    adjudication: Adjudication,
) -> Played {
    selfplay_game_watched(engine, limits, seed, index, openings, adjudication, || {})
}

/// [`selfplay_game`], calling `moved` after each move the search plays (for a progress bar).
pub fn selfplay_game_watched(
    engine: &Arc<Engine>,
    limits: &Limits,
    seed: u64,
    index: u64,
    openings: impl Into<Opening>,
    adjudication: Adjudication,
    mut moved: impl FnMut(),
) -> Played {
    let start = opening_drawn(engine, seed, index, openings.into());
    Played::of(&play_out(start, limits, limits, adjudication, |_, _| {
        moved()
    }))
}

impl Played {
    /// What `game`, stopped where it stands, counts as (`capped` if it is still going).
    pub fn of(game: &Game) -> Played {
        Played {
            status: game.status(),
            reason: game.reason().map_or("capped", |r| r.as_str()),
            plies: game.plies().len(),
        }
    }
}

/// The figures of a selfplay run: wins with their 95% intervals, draws (capped games count as
/// draws, and apart), the mean length and how the games ended.
#[derive(Clone, Debug, Serialize)]
pub struct Tally {
    /// Games the attackers won.
    pub attackers_win: u64,
    /// Games the defenders won.
    pub defenders_win: u64,
    /// Games drawn, capped ones included.
    pub draw: u64,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// The attackers' win rate.
    pub attackers: Rate,
    /// The defenders' win rate.
    pub defenders: Rate,
    /// Mean length in plies.
    pub mean_plies: f64,
    /// How the games ended: `king_escaped`, `king_captured`, `repetition`, `capped` ...
    pub reasons: BTreeMap<String, u64>,
}

impl Tally {
    /// The figures of `games` (none: all zero, with intervals from 0 to 1).
    pub fn of(games: &[Played]) -> Tally {
        Tally::counted(games.iter().map(|p| (p.status, p.reason, p.plies)))
    }

    /// The figures of games given as (result, ending, plies), `Ongoing` for a game the ply cap
    /// stopped: what [`Tally::of`] counts, and the balance ladder from its workers' games.
    pub fn counted<'a>(games: impl IntoIterator<Item = (Status, &'a str, usize)>) -> Tally {
        let (mut attackers_win, mut defenders_win, mut draw, mut capped) = (0, 0, 0, 0);
        let mut plies = 0;
        let mut reasons = BTreeMap::new();
        for (status, reason, length) in games {
            match status {
                Status::AttackersWin => attackers_win += 1,
                Status::DefendersWin => defenders_win += 1,
                Status::Draw => draw += 1,
                Status::Ongoing => {
                    draw += 1;
                    capped += 1;
                }
            }
            *reasons.entry(reason.to_string()).or_insert(0) += 1;
            plies += length;
        }
        let total = attackers_win + defenders_win + draw;
        Tally {
            attackers_win,
            defenders_win,
            draw,
            capped,
            attackers: wilson(attackers_win, total),
            defenders: wilson(defenders_win, total),
            mean_plies: plies as f64 / total.max(1) as f64,
            reasons,
        }
    }
}

/// The game as a row of the hnefatafl-rs CSV format: the plies separated by spaces, each
/// `from-to` with `x<square>` for every piece it captured, then `,0,0,` and the result
/// (`White`: the defenders won, `Black`: the attackers, `Draw`, or `Ongoing`).
pub fn csv_row(game: &Game) -> String {
    csv_row_with(game, game.status())
}

/// The game as [`csv_row`] writes it, with `status` as its result: a game lost by forfeit
/// (`tafl match`) ends on the board still going.
pub fn csv_row_with(game: &Game, status: Status) -> String {
    let plies: Vec<String> = game
        .plies()
        .iter()
        .map(|ply| {
            let mut text = ply.mv.to_string();
            for square in &ply.captured {
                text.push('x');
                text.push_str(&square.to_string());
            }
            text
        })
        .collect();
    let result = match status {
        Status::DefendersWin => "White",
        Status::AttackersWin => "Black",
        Status::Draw => "Draw",
        Status::Ongoing => "Ongoing",
    };
    format!("{},0,0,{result}", plies.join(" "))
}

/// Half-points (0, 1 or 2) that the player of `side` won in a game that ended `status`; a game
/// still going at the cap counts as a draw.
pub fn half_points(status: Status, side: Side) -> usize {
    match (status, side) {
        (Status::AttackersWin, Side::Attackers) | (Status::DefendersWin, Side::Defenders) => 2,
        (Status::Draw | Status::Ongoing, _) => 1,
        (Status::AttackersWin, Side::Defenders) | (Status::DefendersWin, Side::Attackers) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;
    use crate::Variant;

    #[test]
    fn each_way_of_drawing_openings_is_named_as_the_json_writes_it() {
        for moves in OpeningMoves::ALL {
            let json = serde_json::to_string(&moves).unwrap();
            assert_eq!(json, format!("\"{}\"", moves.name()));
        }
    }

    /// The game of Brandubh standing at `position` (rank 7 first), `to_move` to play.
    fn brandubh_at(position: &str, to_move: Side) -> Game {
        // The bundled file compiles, and the positions below are legal in it.
        let variant = Variant::bundled("brandubh").expect("bundled");
        let engine = Arc::new(Engine::new(&variant.rules).expect("compiles"));
        let position = parse_position(&engine, position, to_move).expect("a legal position");
        Game::from_position(engine, position)
    }

    fn names(moves: &[Move]) -> Vec<String> {
        let mut names: Vec<String> = moves.iter().map(ToString::to_string).collect();
        names.sort();
        names
    }

    #[test]
    fn a_move_that_lets_the_king_out_is_not_plausible() {
        // The attacker on b1 alone keeps the king on d1 from a1; moving it up the b file
        // opens the corner, which every other attacker's move does not.
        let game = brandubh_at("/3t3/3t3/7/t4tt/3T3/7/1t1K1t1/", Side::Attackers);
        let moves = game.legal_moves();
        let plausible = names(&plausible_moves(&game, &moves));
        assert!(!plausible.is_empty());
        for opens in ["b1-b2", "b1-b3", "b1-b4"] {
            assert!(
                names(&moves).contains(&opens.to_string()),
                "{opens} is legal"
            );
            assert!(
                !plausible.contains(&opens.to_string()),
                "{opens} lets the king out"
            );
        }
    }

    #[test]
    fn uniform_openings_are_the_runs_of_before() {
        let variant = Variant::bundled("copenhagen").expect("bundled");
        let engine = Arc::new(Engine::new(&variant.rules).expect("compiles"));
        for index in 0..4 {
            let plain = opening(&engine, 3, index, 4);
            let drawn = opening_drawn(&engine, 3, index, Opening::from(4));
            assert_eq!(plain.plies(), drawn.plies());
            let plausible = opening_drawn(
                &engine,
                3,
                index,
                Opening {
                    plies: 4,
                    moves: OpeningMoves::Plausible,
                },
            );
            assert_eq!(plausible.plies().len(), 4);
        }
    }

    #[test]
    fn a_rule_is_read_as_score_comma_moves() {
        assert_eq!(
            "1000,5".parse::<Resign>(),
            Ok(Resign {
                score: 1000,
                moves: 5
            })
        );
        assert_eq!(
            " 300 , 1 ".parse::<Resign>().map(|r| r.to_string()),
            Ok("300,1".into())
        );
        for bad in [
            "1000", "1000,", ",5", "x,5", "1000,5,2", "0,5", "1000,0", "-5,2",
        ] {
            assert!(bad.parse::<Resign>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_side_resigns_only_when_both_searches_agree_for_the_moves_asked() {
        let rule = Resign {
            score: 500,
            moves: 2,
        };
        let (a, d) = (Side::Attackers, Side::Defenders);
        // The defenders see themselves lost twice, but the attackers agree only once: no
        // resignation until the attackers' second agreeing move.
        let mut watch = rule.watch();
        assert_eq!(watch.record(a, 100), None);
        assert_eq!(watch.record(d, -600), None);
        assert_eq!(watch.record(a, 700), None);
        assert_eq!(watch.record(d, -500), None);
        assert_eq!(watch.record(a, 900), Some(d));
        // A move scored inside the margin starts the run again.
        let mut watch = rule.watch();
        assert_eq!(watch.record(a, -800), None);
        assert_eq!(watch.record(d, 800), None);
        assert_eq!(watch.record(a, -499), None);
        assert_eq!(watch.record(d, 800), None);
        assert_eq!(watch.record(a, -800), None);
        assert_eq!(watch.record(d, 800), None);
        assert_eq!(watch.record(a, -800), Some(a));
        // One side sure of winning is not enough when the other does not see itself lost.
        let mut watch = rule.watch();
        for _ in 0..10 {
            assert_eq!(watch.record(a, 2000), None);
            assert_eq!(watch.record(d, 0), None);
        }
    }
}
