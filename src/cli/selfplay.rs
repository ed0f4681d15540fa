//! `tafl selfplay VARIANT --games N [--depth N | --time MS] [--openings K] [--threads N]
//! [--seed S] [--json] [--svg FILE]`: games between two equal computer players, for balance.
//!
//! Each game starts with K random plies drawn from a generator seeded by the seed and the
//! game's number (so games differ, and the same seed gives the same games), then the search
//! plays both sides. The summary gives each side's win rate with its 95% Wilson interval.

use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use super::load;
use crate::search::duel::{selfplay_game_watched, Opening, OpeningMoves, Played, Tally};
use crate::search::people::play::level_game;
use crate::search::people::{Level, Model};
use crate::search::stats::{wilson, Rate};

/// Arguments of `tafl selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// How many games.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// How each game starts.
    #[command(flatten)]
    pub opening: super::best::OpeningArgs,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Each game ends as a draw (`capped`) after this many plies.
    #[arg(long, default_value_t = 400)]
    pub cap: u32,
    /// How long each move is thought about; `--threads` plays that many games at once.
    #[command(flatten)]
    pub budget: super::best::Budget,
    /// Which search techniques and evaluation weights both players use.
    #[command(flatten)]
    pub player: super::best::PlayerArgs,
    /// When a side resigns.
    #[command(flatten)]
    pub adjudicate: super::best::ResignArgs,
    /// Who plays both sides: `engine` (the search at `--depth` or `--time`), `people` (the model
    /// of people's moves), `people:S` (its logits times S) or `depth:N` (docs/people.md).
    #[arg(long, default_value = "engine", value_parser = super::balance::parse_level)]
    pub level: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also draw the result as an SVG chart into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct Summary {
    variant: String,
    /// The weights both players use: a profile's name, `hand` or a weights file's path.
    evaluation: String,
    /// The search techniques turned off and on (`--off`, `--on`); both empty: the defaults.
    off: Vec<String>,
    on: Vec<String>,
    games: u64,
    /// Who played both sides (`--level`).
    level: String,
    #[serde(flatten)]
    tally: Tally,
    depth: Option<u32>,
    time_ms: Option<u64>,
    /// The random plies opening each game, and how they were drawn.
    #[serde(flatten)]
    opening: Opening,
    seed: u64,
    /// The resignation rule, `SCORE,MOVES`, if any.
    resign: Option<String>,
    seconds: f64,
}

/// Runs `tafl selfplay`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load::variant(&args.variant) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let started = Instant::now();
    let (limits, evaluation) = match args
        .player
        .apply(args.budget.limits(), loaded.engine.rules())
    {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(load::USAGE);
        }
    };
    let limits = limits.for_one_of_many_games();
    // From the first second on a terminal: the games under way and the moves played, not
    // only the games finished (a game of an 11x11 variant at a second a move takes minutes).
    let progress = load::GamesProgress::new(args.games, args.json);
    let adjudication = args.adjudicate.adjudication(args.cap);
    let opening = args.opening.opening(OpeningMoves::Any);
    // `parse_level` kept only what parses.
    let level: Level = args.level.parse().expect("a level `parse_level` accepted");
    let play_one = |index: u64| {
        progress.start();
        let played = match level {
            Level::Engine => selfplay_game_watched(
                &loaded.engine,
                &limits,
                args.seed,
                index,
                opening,
                adjudication,
                || progress.moved(),
            ),
            _ => level_game(
                &loaded.engine,
                level,
                Model::bundled(),
                limits,
                args.seed,
                index,
                opening,
                adjudication,
                || progress.moved(),
            ),
        };
        progress.finish();
        played
    };
    let threads = usize::from(args.budget.threads);
    let results: Vec<Played> = match load::on_threads(
        threads,
        || (0..args.games).map(play_one).collect(),
        || {
            use rayon::prelude::*;
            (0..args.games).into_par_iter().map(play_one).collect()
        },
    ) {
        Ok(results) => results,
        Err(code) => return code,
    };
    progress.clear();
    let summary = Summary {
        variant: loaded.engine.rules().name.clone(),
        evaluation: super::best::evaluation_field(&limits, &evaluation, loaded.engine.rules()),
        off: args.player.off.clone(),
        on: args.player.on.clone(),
        games: args.games,
        level: args.level.clone(),
        tally: Tally::of(&results),
        depth: limits.depth,
        time_ms: limits.time.map(|t| t.as_millis() as u64),
        opening,
        seed: args.seed,
        resign: args.adjudicate.resign.map(|rule| rule.to_string()),
        seconds: started.elapsed().as_secs_f64(),
    };
    super::chart_and_report(
        &summary,
        args.json,
        (args.svg.as_deref(), |s| chart(s, args.cap)),
        |s| format!("evaluation: {}\n{}", evaluation.describe(), words(s)),
    )
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn words(s: &Summary) -> String {
    let budget = match (s.depth, s.time_ms) {
        (Some(depth), _) => format!("depth {depth}"),
        (None, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => String::new(),
    };
    let reasons: Vec<String> = s
        .tally
        .reasons
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    format!(
        "{}: {} games at {budget}, {} (seed {})\n\
         attackers win {} ({}, 95% interval {} to {})\n\
         defenders win {} ({}, 95% interval {} to {})\n\
         draws {} (of which capped at the ply limit: {})\n\
         mean length {:.1} plies; endings: {}\n\
         {:.1} s\n",
        s.variant,
        s.games,
        s.opening,
        s.seed,
        s.tally.attackers_win,
        percent(s.tally.attackers.rate),
        percent(s.tally.attackers.low),
        percent(s.tally.attackers.high),
        s.tally.defenders_win,
        percent(s.tally.defenders.rate),
        percent(s.tally.defenders.low),
        percent(s.tally.defenders.high),
        s.tally.draw,
        s.tally.capped,
        s.tally.mean_plies,
        reasons.join(", "),
        s.seconds
    )
}

/// The result as the chart of [`crate::svg::balance_chart`].
fn chart(s: &Summary, cap: u32) -> String {
    let outcome = |count: u64, rate: Rate| crate::svg::Outcome {
        count,
        low: rate.low,
        high: rate.high,
    };
    let budget = match (s.depth, s.time_ms) {
        (Some(depth), _) => format!("depth {depth}"),
        (None, Some(ms)) => format!("{ms} ms"),
        (None, None) => "the default time".to_string(),
    };
    crate::svg::balance_chart(&crate::svg::Balance {
        variant: s.variant.clone(),
        games: s.games,
        attackers: outcome(s.tally.attackers_win, s.tally.attackers),
        defenders: outcome(s.tally.defenders_win, s.tally.defenders),
        draws: outcome(s.tally.draw, wilson(s.tally.draw, s.games)),
        capped: s.tally.capped,
        cap,
        budget,
        openings: s.opening.plies,
        seed: s.seed,
        mean_plies: s.tally.mean_plies,
    })
}
