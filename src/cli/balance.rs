//! `tafl balance VARIANT [--level LEVEL,...] [--rungs MS,MS,...] [--games N] [--threads N]
//! [--json] [--svg FILE]`: the designer's question, "is it fair?", answered by self-play at
//! levels of play ([`crate::search::people::Level`]). The first level is the headline figure:
//! `people` by default, the model of people's moves fitted to their games
//! ([`crate::search::people`]), with the `engine`'s beside it. The engine level plays a ladder
//! of budgets ([`crate::search::ladder`]): at each rung the attackers' and defenders' wins, the
//! draws and how the games ended, and the attackers' share of the decisive games with its 95%
//! interval; then the verdict, settled where the top two rungs agree, else still moving and
//! which way. Every other level plays `--games` games.
//!
//! Every rung plays the same seeded openings (game i of each rung starts from the same random
//! plies), with the weights the variant's rules choose (or `--weights`), one thread a game and
//! all cores by default. A side resigns as `--resign` says (by default 3000,5, the rule that
//! never stopped a game its resigning side went on to save in docs/balance.md's checks).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::load;
use crate::search::duel::{
    selfplay_game_watched, Adjudication, Opening, OpeningMoves, Played, Resign,
};
use crate::search::ladder::{Ladder, Rung, DEFAULT_RUNGS};
use crate::search::people::play::level_game;
use crate::search::people::{Level, Model};
use crate::search::profile::{Escape, Features};
use crate::search::stats::wilson;
use crate::search::Limits;

/// The levels played by default: people's first (the designer's figure), the engine's beside.
const DEFAULT_LEVELS: [&str; 2] = ["people", "engine"];

/// Arguments of `tafl balance`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// The levels of play, comma-separated, the headline first: `people` (the model of
    /// people's moves), `people:S` (its logits times S: a keener player), `depth:N` (the
    /// engine's best move at depth N) or `engine` (the full player, at each rung's budget).
    #[arg(long = "level", value_name = "LEVEL,...", value_delimiter = ',',
          default_values_t = DEFAULT_LEVELS.map(String::from),
          value_parser = parse_level)]
    pub levels: Vec<String>,
    /// The model of people's moves to play: a file `tafl fit-people --out` wrote [default:
    /// the bundled one, variants/people/model.json].
    #[arg(long, value_name = "FILE")]
    pub model: Option<std::path::PathBuf>,
    /// The budgets of the rungs, milliseconds a move, comma-separated.
    #[arg(long, value_name = "MS,MS,...", value_delimiter = ',', default_values_t = DEFAULT_RUNGS,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub rungs: Vec<u64>,
    /// Games at each rung.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Games played at once, one thread each [default: every core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// How each game starts.
    #[command(flatten)]
    pub opening: super::best::OpeningArgs,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub cap: u32,
    /// A side resigns when both searches have scored the game at SCORE hundredths of a soldier
    /// against it for MOVES moves each; `off` plays every game to its end or the cap.
    #[arg(long, value_name = "SCORE,MOVES|off", default_value = "3000,5")]
    pub resign: String,
    /// Which search techniques and evaluation weights both sides play with.
    #[command(flatten)]
    pub player: super::best::PlayerArgs,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also draw the ladder as an SVG chart into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// `--level`'s values: each a [`Level`], kept as written back by its name.
pub(super) fn parse_level(text: &str) -> Result<String, String> {
    text.parse::<Level>().map(|level| level.to_string())
}

/// One level's figure, as the JSON's `levels` lists it.
#[derive(Clone, Debug, Serialize)]
struct LevelFigure {
    /// The level's name.
    level: String,
    /// The attackers' share of the decisive games (`None`: none was decisive); for `engine`,
    /// the top rung's.
    share: Option<f64>,
    low: f64,
    high: f64,
    /// Games played at this level (at the top rung for `engine`).
    games: u64,
    /// Decisive games among them.
    decisive: u64,
}

#[derive(Serialize)]
struct Summary {
    variant: String,
    /// The headline level, the first of `--level`.
    level: String,
    /// Each level's figure, in the order asked.
    levels: Vec<LevelFigure>,
    /// What the figures mean, in words.
    meaning: String,
    /// The weights both sides play with: a profile's name, `hand` or a file's path.
    evaluation: String,
    /// The search techniques turned off and on (`--off`, `--on`); both empty: the defaults.
    off: Vec<String>,
    on: Vec<String>,
    /// The engine's ladder, where `engine` is one of the levels.
    #[serde(flatten)]
    ladder: Option<Ladder>,
    /// The verdict in words: the engine's ladder's, or the headline level's figure.
    verdict: String,
    /// What the figure cannot be trusted for, where that is known: in corner-escape games the
    /// computer's attackers do not yet play the blockade people play (docs/balance.md).
    caveat: Option<&'static str>,
    /// The random plies opening each game, and how they were drawn.
    #[serde(flatten)]
    opening: Opening,
    seed: u64,
    cap: u32,
    resign: Option<String>,
    threads: usize,
    seconds: f64,
}

/// Said beside the figure of a variant whose king escapes to the corners.
const CORNER_CAVEAT: &str = "the king escapes to the corners here, and between equal computer \
     players he finds his double threats more often than people do: on 11x11 and larger read the \
     share as the attackers' lower bound, and climb the rungs (Copenhagen: 0.00 to 0.15 at \
     25 ms to 4 s a move here, 0.44 in people's games, about 0.25 where the computer plays on \
     from people's resignations; docs/balance.md). On 7x7 the figure meets people's (Brandubh \
     0.35, people 0.40). Compare such variants with each other (tafl compare) rather than with \
     people";

/// Runs `tafl balance`.
pub fn run(args: Args) -> ExitCode {
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(load::USAGE)
    };
    // An unreadable variant is bad input: exit 2, as the contract says (docs/cli.md).
    let Ok(loaded) = load::variant(&args.variant) else {
        return ExitCode::from(load::USAGE);
    };
    let resign = match args.resign.as_str() {
        "off" | "none" => None,
        text => match text.parse::<Resign>() {
            Ok(rule) => Some(rule),
            Err(message) => return usage(message),
        },
    };
    // The techniques and weights every rung plays with, in limits whose time each rung sets.
    let (player, evaluation) = match args
        .player
        .apply(Limits::time(Duration::ZERO), loaded.engine.rules())
    {
        Ok(chosen) => chosen,
        Err(message) => return usage(message),
    };
    let mut levels: Vec<Level> = Vec::new();
    for text in &args.levels {
        // Each was read by `parse_level`, which writes back only what parses.
        let level: Level = text.parse().expect("a level `parse_level` accepted");
        if !levels.contains(&level) {
            levels.push(level);
        }
    }
    let model = match &args.model {
        None => Model::bundled().clone(),
        Some(path) => match super::record_file::read(path, 1 << 20)
            .map_err(|e| e.to_string())
            .and_then(|text| Model::from_json(&text).map_err(|e| e.to_string()))
        {
            Ok(model) => model,
            Err(message) => return usage(format!("`{}`: {message}", path.display())),
        },
    };
    let with_engine = levels.iter().any(|level| level.is_engine());
    let mut rungs = if with_engine {
        args.rungs.clone()
    } else {
        Vec::new()
    };
    rungs.sort_unstable();
    rungs.dedup();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let opening = args.opening.opening(OpeningMoves::Plausible);
    if !args.json {
        let names: Vec<String> = levels.iter().map(Level::to_string).collect();
        let budgets = if with_engine {
            format!(
                " (the engine at {} ms a move)",
                rungs
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        outln!(
            "{}: {} games at each level, {}{budgets}, from {} (seed {}), {} at once; evaluation: {}",
            loaded.engine.rules().name,
            args.games,
            names.join(", "),
            opening,
            args.seed,
            threads,
            evaluation.describe()
        );
        let player = &args.player;
        if !player.off.is_empty() || !player.on.is_empty() {
            let list = |names: &[String]| match names {
                [] => "none".to_string(),
                names => names.join(", "),
            };
            outln!(
                "search techniques turned off: {}; on: {}",
                list(&player.off),
                list(&player.on)
            );
        }
    }
    let adjudication = Adjudication {
        cap: args.cap as usize,
        resign,
    };
    // The engine's longest games first, so that the last ones to finish are short and every
    // core stays busy to the end; then the other levels' games.
    let mut jobs: Vec<Job> = rungs
        .iter()
        .rev()
        .flat_map(|&ms| (0..args.games).map(move |index| Job::Rung(ms, index)))
        .collect();
    for (i, level) in levels.iter().enumerate() {
        if !level.is_engine() {
            jobs.extend((0..args.games).map(|index| Job::Level(i, index)));
        }
    }
    let progress = load::GamesProgress::new(jobs.len() as u64, args.json);
    let started = Instant::now();
    let play_one = |job: &Job| {
        progress.start();
        let played = match *job {
            Job::Rung(ms, index) => {
                let limits = Limits {
                    time: Some(Duration::from_millis(ms)),
                    ..player
                }
                .for_one_of_many_games();
                selfplay_game_watched(
                    &loaded.engine,
                    &limits,
                    args.seed,
                    index,
                    opening,
                    adjudication,
                    || progress.moved(),
                )
            }
            Job::Level(i, index) => level_game(
                &loaded.engine,
                levels[i],
                &model,
                player.for_one_of_many_games(),
                args.seed,
                index,
                opening,
                adjudication,
                || progress.moved(),
            ),
        };
        progress.finish();
        (*job, played)
    };
    let played: Vec<(Job, Played)> = match load::on_threads(
        threads,
        || jobs.iter().map(play_one).collect(),
        || {
            use rayon::prelude::*;
            jobs.par_iter().map(play_one).collect()
        },
    ) {
        Ok(played) => played,
        Err(code) => return code,
    };
    progress.clear();
    let ladder = with_engine.then(|| {
        Ladder::of(
            rungs
                .iter()
                .map(|&ms| {
                    let games: Vec<Played> = played
                        .iter()
                        .filter(|(job, _)| matches!(job, Job::Rung(rung, _) if *rung == ms))
                        .map(|(_, game)| *game)
                        .collect();
                    Rung::of(ms, &games)
                })
                .collect(),
        )
    });
    let figures: Vec<LevelFigure> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let rung = match (level, &ladder) {
                (Level::Engine, Some(ladder)) => ladder.rungs.last().cloned(),
                _ => None,
            };
            let rung = rung.unwrap_or_else(|| {
                let games: Vec<Played> = played
                    .iter()
                    .filter(|(job, _)| matches!(job, Job::Level(j, _) if *j == i))
                    .map(|(_, game)| *game)
                    .collect();
                Rung::of(0, &games)
            });
            let decisive = rung.attackers_win + rung.defenders_win;
            let interval = wilson(rung.attackers_win, decisive);
            LevelFigure {
                level: level.to_string(),
                share: rung.share,
                low: interval.low,
                high: interval.high,
                games: rung.games,
                decisive,
            }
        })
        .collect();
    let verdict = match &ladder {
        Some(ladder) if levels[0].is_engine() => ladder.verdict(),
        _ => headline(&figures[0]),
    };
    let summary = Summary {
        variant: loaded.engine.rules().name.clone(),
        level: figures[0].level.clone(),
        meaning: meaning(&figures, rungs.last().copied()),
        levels: figures,
        evaluation: super::best::evaluation_field(&player, &evaluation, loaded.engine.rules()),
        off: args.player.off.clone(),
        on: args.player.on.clone(),
        verdict,
        caveat: (with_engine && Features::of(loaded.engine.rules()).escape == Escape::Corners)
            .then_some(CORNER_CAVEAT),
        ladder,
        opening,
        seed: args.seed,
        cap: args.cap,
        resign: resign.map(|rule| rule.to_string()),
        threads,
        seconds: started.elapsed().as_secs_f64(),
    };
    super::chart_and_report(&summary, args.json, (args.svg.as_deref(), chart), words)
}

/// A game of the run: game `index` at a rung's budget (ms) of the engine, or at level number
/// `i` of `--level`.
#[derive(Clone, Copy, Debug)]
enum Job {
    Rung(u64, u64),
    Level(usize, u64),
}

/// The headline figure in words, where no ladder gives the verdict.
fn headline(figure: &LevelFigure) -> String {
    match figure.share {
        Some(share) => format!(
            "at the {} level the attackers win {share:.2} of the decisive games ({:.2} to {:.2}, {} of {} games decisive)",
            figure.level, figure.low, figure.high, figure.decisive, figure.games
        ),
        None => format!(
            "at the {} level no game of {} was decisive: no share to read",
            figure.level, figure.games
        ),
    }
}

/// What the levels' figures mean, in one sentence per kind of level played.
fn meaning(figures: &[LevelFigure], top_ms: Option<u64>) -> String {
    let mut said = Vec::new();
    for figure in figures {
        let level: Level = match figure.level.parse() {
            Ok(level) => level,
            Err(_) => continue,
        };
        let share = figure
            .share
            .map_or("no share".to_string(), |s| format!("{s:.2}"));
        said.push(match level {
            Level::People { sharpness: 1.0 } => format!(
                "{} ({share}) is the figure for people: both sides play as the model fitted to \
                 people's moves plays (docs/people.md), which is what a designer writes for",
                figure.level
            ),
            Level::People { sharpness } => format!(
                "{} ({share}) is a keener player than people's model: its choices' logits times \
                 {sharpness}, so it picks its favourite move more often",
                figure.level
            ),
            Level::Depth(depth) => format!(
                "{} ({share}) is the engine's best move at depth {depth} for both sides",
                figure.level
            ),
            Level::Engine => format!(
                "engine ({share}) is equal full computer players at {} ms a move: what strong \
                 engines find, who see the king's double threats that people miss",
                top_ms.unwrap_or(0)
            ),
        });
    }
    said.join("; ")
}

fn words(s: &Summary) -> String {
    let mut out = String::new();
    out.push_str("  level        games  decisive  attackers' share of decisive games\n");
    for figure in &s.levels {
        let share = match figure.share {
            Some(share) => format!("{share:.2} ({:.2} to {:.2})", figure.low, figure.high),
            None => "none: no decisive game".to_string(),
        };
        out.push_str(&format!(
            "  {:<12} {:>5} {:>9}  {share}\n",
            figure.level, figure.games, figure.decisive
        ));
    }
    out.push_str(&format!("{}.\n", s.meaning));
    let Some(ladder) = &s.ladder else {
        out.push_str(&format!("{}\n", s.verdict));
        out.push_str(&format!("{:.1} s\n", s.seconds));
        return out;
    };
    out.push_str("the engine's ladder:\n  ms a move   games  attackers  defenders  draws (capped)  attackers' share of decisive games\n");
    for rung in &ladder.rungs {
        let share = match rung.share {
            Some(share) => format!("{share:.2} ({:.2} to {:.2})", rung.low, rung.high),
            None => "none: no decisive game".to_string(),
        };
        out.push_str(&format!(
            "{:>11} {:>7} {:>10} {:>10} {:>6} ({:>3})    {share}\n",
            rung.ms, rung.games, rung.attackers_win, rung.defenders_win, rung.draws, rung.capped,
        ));
    }
    for rung in &ladder.rungs {
        let endings: Vec<String> = rung
            .reasons
            .iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        out.push_str(&format!(
            "at {} ms: {:.0} plies a game on average; endings: {}\n",
            rung.ms,
            rung.mean_plies,
            endings.join(", ")
        ));
    }
    out.push_str(&format!("the engine: {}\n", ladder.verdict()));
    if s.verdict != ladder.verdict() {
        out.push_str(&format!("{}\n", s.verdict));
    }
    if let Some(caveat) = s.caveat {
        out.push_str(&format!("note: {caveat}\n"));
    }
    out.push_str(&format!("{:.1} s\n", s.seconds));
    out
}

/// The ladder as the chart of [`crate::svg::ladder_chart`].
fn chart(s: &Summary) -> String {
    // The chart draws the engine's rungs; the other levels' figures, which have no budget,
    // lead the line under it.
    let others: Vec<String> = s
        .levels
        .iter()
        .filter(|figure| figure.level != "engine")
        .map(|figure| match figure.share {
            Some(share) => format!(
                "{} {share:.2} ({:.2} to {:.2})",
                figure.level, figure.low, figure.high
            ),
            None => format!("{}: no decisive game", figure.level),
        })
        .collect();
    let verdict = match (&s.ladder, others.is_empty()) {
        (Some(_), true) => s.verdict.clone(),
        (Some(ladder), false) => format!("{}; engine: {}", others.join("; "), ladder.verdict()),
        (None, _) => s.verdict.clone(),
    };
    crate::svg::ladder_chart(&crate::svg::LadderChart {
        variant: s.variant.clone(),
        rungs: s
            .ladder
            .iter()
            .flat_map(|ladder| &ladder.rungs)
            .map(|r| crate::svg::LadderPoint {
                ms: r.ms,
                games: r.games,
                share: r.share,
                low: r.low,
                high: r.high,
            })
            .collect(),
        verdict,
    })
}
