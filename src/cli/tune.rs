//! `tafl tune VARIANT [--games N] [--rounds R] [--depth D | --time MS] [--openings K] [--seed S]
//! [--cap P] [--resign SCORE,MOVES] [--records FILE]... [--threads N] [--weights FILE]
//! [--label outcome|search] [--label-depth D] [--out FILE]`: fits the evaluation's weights to
//! the results of the computer's games against itself (or, with `--records`, of games already
//! played), or to a deeper search's scores of their positions (src/search/tune.rs), and writes
//! a weights file.
//!
//! Every fifth game is held out of the fit; the summary gives the held-out cross-entropy of
//! the starting weights and of the fitted ones, so a fit that learned nothing shows.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use super::load;
use crate::record::RecordedOutcome;
use crate::search::eval::{WeightsFile, TERM_NAMES};
use crate::search::tune::{
    fit, loss, recorded, result_for_attackers, self_play, Label, Plan, Sample,
};
use crate::search::{Limits, Weights};

/// Arguments of `tafl tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Games of self-play a round.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=1_000_000))]
    pub games: u64,
    /// Rounds: each plays new games with the last fit and refits on every position so far.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub rounds: u32,
    /// The self-play search depth [default: 2].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8), conflicts_with = "time")]
    pub depth: Option<u32>,
    /// Self-play at this many milliseconds a move instead of a depth (games then differ from
    /// run to run).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub time: Option<u64>,
    /// Random plies opening each game, so that games differ.
    #[arg(long, default_value_t = 8, value_name = "K")]
    pub openings: u32,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    pub cap: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// When a side of the self-play games resigns (its positions are labelled with the result).
    #[command(flatten)]
    pub adjudicate: super::best::ResignArgs,
    /// Start from these weights, and play the first round's games with them: `rules` (the
    /// default: those the variant's rules choose), a profile's name, `hand` or a weights file.
    #[arg(long, value_name = "FILE|NAME")]
    pub weights: Option<String>,
    /// What each position is labelled with: its game's result, or a search of it (σ of its
    /// score / 400; a proven win 1): `search` gives a target where every game ends the same way.
    #[arg(long, value_enum, default_value_t = LabelKind::Outcome)]
    pub label: LabelKind,
    /// The labelling search's depth (with `--label search`) [default: 3].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub label_depth: Option<u32>,
    /// Fit to the positions of these recorded games instead of playing games: any format
    /// `tafl games` reads (the CSV rows `tafl match --games` writes among them). Each position
    /// is labelled with the result its record states (a game left unfinished, such as one
    /// stopped at a ply cap, counts ½) or, with `--label search`, a search of it. A game the
    /// rules end before its record does (one played on past a third repetition) is used as far
    /// as the rules let it go, as `tafl games check` accepts it. Repeat the option for more
    /// files.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["games", "rounds", "depth", "time", "openings", "seed", "cap", "resign"]
    )]
    pub records: Vec<std::path::PathBuf>,
    /// Write the weights file here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

/// What `--label` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelKind {
    /// The game's result for the attackers.
    Outcome,
    /// A fixed-depth search's score of the position.
    Search,
}

/// The self-play depth when neither `--depth` nor `--time` is given.
const DEPTH: u32 = 2;

/// The labelling search's depth when `--label search` names none.
const LABEL_DEPTH: u32 = 3;

/// Runs `tafl tune`.
pub fn run(args: Args) -> ExitCode {
    let label = match (args.label, args.label_depth) {
        (LabelKind::Outcome, None) => Label::Outcome,
        (LabelKind::Outcome, Some(_)) => {
            eprintln!("error: --label-depth is the depth of `--label search`; add that");
            return ExitCode::from(load::USAGE);
        }
        (LabelKind::Search, depth) => Label::Search {
            depth: depth.unwrap_or(LABEL_DEPTH),
        },
    };
    let loaded = match load::variant(&args.variant) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut weights = match super::best::evaluation(args.weights.as_deref(), loaded.engine.rules())
    {
        Ok(evaluation) => {
            eprintln!("starting from: {}", evaluation.describe());
            evaluation.weights
        }
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(load::USAGE);
        }
    };
    if !args.records.is_empty() {
        return fit_records(&args, &loaded, weights, label);
    }
    let start = weights;
    let plan = Plan {
        games: args.games,
        openings: args.openings,
        seed: args.seed,
        adjudication: args.adjudicate.adjudication(args.cap),
        limits: match args.time {
            Some(ms) => Limits::time(std::time::Duration::from_millis(ms)),
            None => Limits::depth(args.depth.unwrap_or(DEPTH)),
        },
        label,
    };
    let engine: Arc<crate::engine::Engine> = loaded.engine.clone();
    let mut samples: Vec<Sample> = Vec::new();
    let mut constant = 0.0;
    for round in 0..args.rounds {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(args.games);
            bar.set_message(format!("round {} of {}", round + 1, args.rounds));
            bar
        });
        let first = u64::from(round) * args.games;
        let played = load::on_threads(
            usize::from(args.threads),
            || self_play(&engine, &plan, weights, first, || tick(&bar)),
            || self_play(&engine, &plan, weights, first, || tick(&bar)),
        );
        let Ok(new) = played else {
            return ExitCode::FAILURE;
        };
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let attackers = new.iter().filter(|s| s.outcome == 1.0).count();
        samples.extend(new);
        let (train, held): (Vec<Sample>, Vec<Sample>) =
            samples.iter().partition(|s| s.game % 5 != 0);
        let fitted = fit(&train, weights);
        let note = format!(
            "round {}: {} positions ({} from attackers' wins this round); held-out loss {:.4} \
             with the weights played, {:.4} fitted",
            round + 1,
            samples.len(),
            attackers,
            loss(&held, weights),
            loss(&held, fitted.weights)
        );
        eprintln!("{note}");
        if samples.iter().all(|s| s.result == samples[0].result) && label == Label::Outcome {
            eprintln!(
                "warning: every game ended the same way: the results carry nothing to fit \
                 (more games, other openings, another depth or `--label search` may give some)"
            );
        } else if fitted.weights.soldier <= 10 {
            eprintln!(
                "warning: the fit gave material a weight of {}: too little signal in these \
                 games to trust it (try more games or another depth)",
                fitted.weights.soldier
            );
        }
        weights = fitted.weights;
        constant = fitted.constant;
    }
    let budget = match (plan.limits.time, plan.limits.depth) {
        (Some(time), _) => format!("--time {}", time.as_millis()),
        (None, depth) => format!("--depth {}", depth.unwrap_or(DEPTH)),
    };
    let resign = args
        .adjudicate
        .resign
        .map_or(String::new(), |rule| format!(" --resign {rule}"));
    let command = format!(
        "tafl tune {}{} --games {} --rounds {} {budget} --openings {} --seed {} --cap {}{resign}{}",
        args.variant,
        starting(&args),
        args.games,
        args.rounds,
        args.openings,
        args.seed,
        args.cap,
        label_options(label),
    );
    let fitted = Fitted {
        start,
        weights,
        constant,
        samples: &samples,
    };
    write(&args, &loaded, &fitted, &command)
}

/// `tafl tune --records`: one fit to the positions of recorded games.
fn fit_records(args: &Args, loaded: &load::Loaded, start: Weights, label: Label) -> ExitCode {
    let mut games = Vec::new();
    for path in &args.records {
        match super::book::replayed(path, &loaded.engine, "records", |_| None) {
            Ok(read) => games.extend(read),
            Err(code) => return code,
        }
    }
    let labelled: Vec<(u64, f64, crate::game::Game)> = games
        .into_iter()
        .zip(0u64..)
        .map(|((stated, game), index)| {
            let outcome = match stated {
                Some(RecordedOutcome::AttackersWin) => 1.0,
                Some(RecordedOutcome::DefendersWin) => 0.0,
                Some(RecordedOutcome::Draw | RecordedOutcome::Ongoing) => 0.5,
                // `stated` has read a resignation against the game already; no word at all
                // leaves the moves to say.
                Some(RecordedOutcome::SideToMoveLoses) | None => {
                    result_for_attackers(game.status())
                }
            };
            (index, outcome, game)
        })
        .collect();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(labelled.len() as u64);
        bar.set_message("positions labelled");
        bar
    });
    let label_all = || {
        use rayon::prelude::*;
        labelled
            .par_iter()
            .flat_map_iter(|(index, outcome, game)| {
                let samples = recorded(game, *outcome, *index, label, start);
                tick(&bar);
                samples
            })
            .collect::<Vec<Sample>>()
    };
    let Ok(samples) = load::on_threads(usize::from(args.threads), label_all, label_all) else {
        return ExitCode::FAILURE;
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (train, _): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| s.game % 5 != 0);
    let fit = fit(&train, start);
    let wins = labelled.iter().filter(|(_, o, _)| *o == 1.0).count();
    let losses = labelled.iter().filter(|(_, o, _)| *o == 0.0).count();
    eprintln!(
        "{} games ({wins} won by the attackers, {losses} by the defenders, {} neither)",
        labelled.len(),
        labelled.len() - wins - losses
    );
    if label == Label::Outcome && (wins == labelled.len() || losses == labelled.len()) {
        eprintln!("warning: every game ended the same way: the results carry nothing to fit");
    } else if fit.weights.soldier <= 10 {
        eprintln!(
            "warning: the fit gave material a weight of {}: too little signal in these games \
             to trust it (try more games)",
            fit.weights.soldier
        );
    }
    let files: Vec<String> = args
        .records
        .iter()
        .map(|path| format!(" --records {}", path.display()))
        .collect();
    let command = format!(
        "tafl tune {}{}{}{}",
        args.variant,
        starting(args),
        files.concat(),
        label_options(label)
    );
    let fitted = Fitted {
        start,
        weights: fit.weights,
        constant: fit.constant,
        samples: &samples,
    };
    write(args, loaded, &fitted, &command)
}

/// ` --label search --label-depth D` for a fit to search labels; nothing for outcomes.
fn label_options(label: Label) -> String {
    match label {
        Label::Outcome => String::new(),
        Label::Search { depth } => format!(" --label search --label-depth {depth}"),
    }
}

/// ` --weights W` where the fit started from weights other than those the rules choose.
fn starting(args: &Args) -> String {
    args.weights
        .as_ref()
        .map_or(String::new(), |weights| format!(" --weights {weights}"))
}

/// A fit's outcome, for the summary and the weights file.
struct Fitted<'a> {
    /// The weights the fit started from.
    start: Weights,
    /// The fitted weights.
    weights: Weights,
    /// The fitted constant.
    constant: f64,
    /// Every position, the held-out ones (every fifth game) among them.
    samples: &'a [Sample],
}

fn tick(bar: &Option<indicatif::ProgressBar>) {
    if let Some(bar) = bar {
        bar.inc(1);
    }
}

/// Prints the weights' changes and writes the weights file, whose `fitted` line says the
/// `command`, the positions and the held-out cross-entropy before and after.
fn write(args: &Args, loaded: &load::Loaded, fitted: &Fitted, command: &str) -> ExitCode {
    let (_, held): (Vec<Sample>, Vec<Sample>) =
        fitted.samples.iter().partition(|s| s.game % 5 != 0);
    let summary = format!(
        "{command}: {} positions; held-out cross-entropy {:.4} with the starting weights, {:.4} \
         fitted; constant {:+.0} (the attackers' edge at this level of play)",
        fitted.samples.len(),
        loss(&held, fitted.start),
        loss(&held, fitted.weights),
        fitted.constant
    );
    for (name, (old, new)) in TERM_NAMES
        .iter()
        .zip(fitted.start.values().iter().zip(fitted.weights.values()))
    {
        eprintln!("{name:>16}: {old:>6} -> {new:>6}");
    }
    let file = WeightsFile {
        variant: loaded.engine.rules().name.clone(),
        fitted: summary,
        weights: fitted.weights,
    };
    // Plain data with string keys: serialising cannot fail.
    let text = serde_json::to_string_pretty(&file).expect("weights serialise") + "\n";
    match &args.out {
        Some(path) => {
            if let Err(e) = super::output::write(std::path::Path::new(path), text) {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => out!("{text}"),
    }
    ExitCode::SUCCESS
}
