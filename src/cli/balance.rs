//! `tafl balance VARIANT [--rungs MS,MS,...] [--games N] [--threads N] [--json] [--svg FILE]`:
//! the designer's question, "is it fair?", answered by self-play at a ladder of budgets
//! ([`crate::search::ladder`]): at each rung the attackers' and defenders' wins, the draws and
//! how the games ended, and the attackers' share of the decisive games with its 95% interval;
//! then the verdict, settled where the top two rungs agree, else still moving and which way.
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
use crate::search::profile::{Escape, Features};
use crate::search::Limits;

/// Arguments of `tafl balance`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
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

#[derive(Serialize)]
struct Summary {
    variant: String,
    /// The weights both sides play with: a profile's name, `hand` or a file's path.
    evaluation: String,
    /// The search techniques turned off and on (`--off`, `--on`); both empty: the defaults.
    off: Vec<String>,
    on: Vec<String>,
    #[serde(flatten)]
    ladder: Ladder,
    /// The verdict in words.
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
    let mut rungs = args.rungs.clone();
    rungs.sort_unstable();
    rungs.dedup();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let opening = args.opening.opening(OpeningMoves::Plausible);
    if !args.json {
        outln!(
            "{}: {} games at each of {} ms a move from {} (seed {}), {} at once; evaluation: {}",
            loaded.engine.rules().name,
            args.games,
            rungs
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
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
    // The longest games first, so that the last ones to finish are short and every core
    // stays busy to the end.
    let jobs: Vec<(u64, u64)> = rungs
        .iter()
        .rev()
        .flat_map(|&ms| (0..args.games).map(move |index| (ms, index)))
        .collect();
    let progress = load::GamesProgress::new(jobs.len() as u64, args.json);
    let started = Instant::now();
    let play_one = |&(ms, index): &(u64, u64)| {
        let limits = Limits {
            time: Some(Duration::from_millis(ms)),
            ..player
        }
        .for_one_of_many_games();
        progress.start();
        let played = selfplay_game_watched(
            &loaded.engine,
            &limits,
            args.seed,
            index,
            opening,
            adjudication,
            || progress.moved(),
        );
        progress.finish();
        (ms, played)
    };
    let played: Vec<(u64, Played)> = match load::on_threads(
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
    let ladder = Ladder::of(
        rungs
            .iter()
            .map(|&ms| {
                let games: Vec<Played> = played
                    .iter()
                    .filter(|(rung, _)| *rung == ms)
                    .map(|(_, game)| *game)
                    .collect();
                Rung::of(ms, &games)
            })
            .collect(),
    );
    let summary = Summary {
        variant: loaded.engine.rules().name.clone(),
        evaluation: super::best::evaluation_field(&player, &evaluation, loaded.engine.rules()),
        off: args.player.off.clone(),
        on: args.player.on.clone(),
        verdict: ladder.verdict(),
        caveat: (Features::of(loaded.engine.rules()).escape == Escape::Corners)
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

fn words(s: &Summary) -> String {
    let mut out = String::new();
    out.push_str("  ms a move   games  attackers  defenders  draws (capped)  attackers' share of decisive games\n");
    for rung in &s.ladder.rungs {
        let share = match rung.share {
            Some(share) => format!("{share:.2} ({:.2} to {:.2})", rung.low, rung.high),
            None => "none: no decisive game".to_string(),
        };
        out.push_str(&format!(
            "{:>11} {:>7} {:>10} {:>10} {:>6} ({:>3})    {share}\n",
            rung.ms, rung.games, rung.attackers_win, rung.defenders_win, rung.draws, rung.capped,
        ));
    }
    for rung in &s.ladder.rungs {
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
    out.push_str(&format!("{}\n", s.verdict));
    if let Some(caveat) = s.caveat {
        out.push_str(&format!("note: {caveat}\n"));
    }
    out.push_str(&format!("{:.1} s\n", s.seconds));
    out
}

/// The ladder as the chart of [`crate::svg::ladder_chart`].
fn chart(s: &Summary) -> String {
    crate::svg::ladder_chart(&crate::svg::LadderChart {
        variant: s.variant.clone(),
        rungs: s
            .ladder
            .rungs
            .iter()
            .map(|r| crate::svg::LadderPoint {
                ms: r.ms,
                games: r.games,
                share: r.share,
                low: r.low,
                high: r.high,
            })
            .collect(),
        verdict: s.verdict.clone(),
    })
}
