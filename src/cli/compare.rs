//! `tafl compare A B --games N [--depth N | --time MS] [--openings K] [--opening-moves
//! any|plausible] [--seed S] [--threads N] [--json]`: how a rule change moves the balance. Both variants play the same seeded openings
//! (game i of B replays the opening plies of game i of A where they are legal in B, else B's own
//! opening of the same seed), the computer on both sides; the attackers' score in each, and the
//! difference B − A with a paired 95% interval (the mean of the per-opening differences ±
//! 1.96 standard errors), so that a designer sees whether a change matters beyond the noise.

use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use super::load;
use crate::engine::Move;
use crate::game::{Game, Status};
use crate::search::duel::{opening_drawn, play_out, Opening, OpeningMoves, Played, Tally};

/// Arguments of `tafl compare`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first variant (a bundled name or a file).
    pub a: String,
    /// The second variant, usually A with one rule changed.
    pub b: String,
    /// Openings; each is played once in each variant.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub games: u64,
    /// How each opening is drawn (played in both variants).
    #[command(flatten)]
    pub opening: super::best::OpeningArgs,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    pub cap: u32,
    /// How long each move is thought about; `--threads` plays that many games at once.
    #[command(flatten)]
    pub budget: super::best::Budget,
    /// Which search techniques and weights both variants' players use (by default the weights
    /// A's rules choose, for both: one player in every row).
    #[command(flatten)]
    pub player: super::best::PlayerArgs,
    /// When a side resigns.
    #[command(flatten)]
    pub adjudicate: super::best::ResignArgs,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// One variant's results: the figures of `tafl selfplay`, and the attackers' score.
#[derive(Serialize)]
struct Side {
    variant: String,
    #[serde(flatten)]
    tally: Tally,
    /// The attackers' points per game (a draw a half).
    attackers_score: f64,
}

#[derive(Serialize)]
struct Summary {
    /// The weights both variants are played with: a profile's name, `hand` or a file's path.
    evaluation: String,
    a: Side,
    b: Side,
    /// B's attackers' score minus A's, per opening, averaged.
    difference: f64,
    /// Its 95% interval.
    low: f64,
    high: f64,
    /// The random plies opening each game, and how they were drawn.
    #[serde(flatten)]
    opening: Opening,
    /// Openings that could not be replayed in B (B's own opening was used).
    unshared_openings: u64,
    games: u64,
    /// The resignation rule, `SCORE,MOVES`, if any.
    resign: Option<String>,
    seconds: f64,
}

/// Runs `tafl compare`.
pub fn run(args: Args) -> ExitCode {
    let (a, b) = match (load::variant(&args.a), load::variant(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    // One evaluation for both rows: the weights A's rules choose (or `--weights`), so that the
    // difference is the rule change's and not a change of player.
    let (limits, evaluation) = match args.player.apply(args.budget.limits(), a.engine.rules()) {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(load::USAGE);
        }
    };
    let limits = limits.for_one_of_many_games();
    let started = Instant::now();
    let adjudication = args.adjudicate.adjudication(args.cap);
    let opening = args.opening.opening(OpeningMoves::Plausible);
    let play_pair = |index: u64| {
        let start_a = opening_drawn(&a.engine, args.seed, index, opening);
        let (start_b, shared) = match replay(&b, &start_a) {
            Some(game) => (game, true),
            None => (opening_drawn(&b.engine, args.seed, index, opening), false),
        };
        let game_a = play_out(start_a, &limits, &limits, adjudication, |_, _| {});
        let game_b = play_out(start_b, &limits, &limits, adjudication, |_, _| {});
        (Played::of(&game_a), Played::of(&game_b), shared)
    };
    let results = match load::on_threads(
        usize::from(args.budget.threads),
        || (0..args.games).map(play_pair).collect::<Vec<_>>(),
        || {
            use rayon::prelude::*;
            (0..args.games).into_par_iter().map(play_pair).collect()
        },
    ) {
        Ok(results) => results,
        Err(code) => return code,
    };
    let differences: Vec<f64> = results
        .iter()
        .map(|(ga, gb, _)| attackers_points(gb.status) - attackers_points(ga.status))
        .collect();
    let n = differences.len() as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let variance = differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (variance / n).sqrt();
    let summary = Summary {
        evaluation: super::best::evaluation_field(&limits, &evaluation, a.engine.rules()),
        a: side(&a, results.iter().map(|r| r.0)),
        b: side(&b, results.iter().map(|r| r.1)),
        difference: mean,
        low: mean - half,
        high: mean + half,
        opening,
        unshared_openings: results.iter().filter(|r| !r.2).count() as u64,
        games: args.games,
        resign: args.adjudicate.resign.map(|rule| rule.to_string()),
        seconds: started.elapsed().as_secs_f64(),
    };
    super::report(&summary, args.json, |s| {
        format!(
            "evaluation, for both: {}\n{}",
            evaluation.describe(),
            words(s)
        )
    })
}

/// `game`'s plies replayed in `loaded`'s variant, or `None` where one is illegal there.
pub(super) fn replay(loaded: &load::Loaded, game: &Game) -> Option<Game> {
    let mut replayed = Game::new(loaded.engine.clone());
    for ply in game.plies() {
        let mv: Move = ply.mv;
        replayed.play(mv).ok()?;
    }
    Some(replayed)
}

/// The attackers' points for a game that ended (or was capped) in `status`: a draw a half.
fn attackers_points(status: Status) -> f64 {
    match status {
        Status::AttackersWin => 1.0,
        Status::DefendersWin => 0.0,
        Status::Draw | Status::Ongoing => 0.5,
    }
}

fn side(loaded: &load::Loaded, games: impl Iterator<Item = Played>) -> Side {
    let games: Vec<Played> = games.collect();
    let points: f64 = games.iter().map(|g| attackers_points(g.status)).sum();
    Side {
        variant: loaded.engine.rules().name.clone(),
        tally: Tally::of(&games),
        attackers_score: points / games.len().max(1) as f64,
    }
}

fn words(s: &Summary) -> String {
    let line = |side: &Side| {
        format!(
            "{}: attackers win {} ({:.1}%, 95% interval {:.1}% to {:.1}%), defenders {} ({:.1}%), \
             draws {}; mean length {:.1} plies\n",
            side.variant,
            side.tally.attackers_win,
            100.0 * side.tally.attackers.rate,
            100.0 * side.tally.attackers.low,
            100.0 * side.tally.attackers.high,
            side.tally.defenders_win,
            100.0 * side.tally.defenders.rate,
            side.tally.draw,
            side.tally.mean_plies
        )
    };
    format!(
        "{} openings of {}, each played in both variants{}\n{}{}\
         the attackers' score moves by {:+.1} points in 100 (95% interval {:+.1} to {:+.1}){}\n\
         {:.1} s\n",
        s.games,
        s.opening,
        if s.unshared_openings > 0 {
            format!(
                " ({} openings illegal in the second: its own used)",
                s.unshared_openings
            )
        } else {
            String::new()
        },
        line(&s.a),
        line(&s.b),
        100.0 * s.difference,
        100.0 * s.low,
        100.0 * s.high,
        if s.low > 0.0 || s.high < 0.0 {
            ": a real change"
        } else {
            ": within the noise"
        },
        s.seconds
    )
}
