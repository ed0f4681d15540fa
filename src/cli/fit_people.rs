//! `tafl fit-people [--corpus VARIANT=FILE]... [--every N] [--engine-depth D]
//! [--engine-positions N] [--out FILE] [--json]`: fits the model of people's moves
//! ([`crate::search::people`]) to the games of the corpora, every fifth game held out, and says
//! how well it and the engine's best move predict the held-out moves. `--out` writes the model
//! (`variants/people/model.json` is the bundled one; docs/people.md gives the command that made
//! it).

use std::path::PathBuf;
use std::process::ExitCode;

use super::load;
use crate::game::Game;
use crate::record::check::{replay, Verdict};
use crate::record::limits::DEFAULT_MAX_FILE_BYTES;
use crate::record::Format;
use crate::search::people::fit::{engine_figures, fit_side, predict, samples};
use crate::search::people::{feature_names, Figures, Model, FORMAT};

/// The corpora fitted on by default: the two in `tests/games/`.
const DEFAULT_CORPORA: [&str; 2] = [
    "copenhagen=tests/games/copenhagen.csv",
    "federation-brandubh=tests/games/brandubh.csv",
];

/// Arguments of `tafl fit-people`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A corpus of people's games and the variant that replays them, as VARIANT=FILE (any
    /// format `tafl games` reads); games the variant does not replay are left out.
    #[arg(long = "corpus", value_name = "VARIANT=FILE", default_values_t = DEFAULT_CORPORA.map(String::from))]
    corpora: Vec<String>,
    /// Positions of each corpus's fitted games to fit on at most, spread evenly over them
    /// (every move of each is searched, so this is what the fit's time grows with).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    positions: u64,
    /// Positions of each corpus's held-out games to measure the model on at most, spread evenly.
    #[arg(long, default_value_t = 1500, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    test_positions: u64,
    /// The depth each move's position is searched to for the model's `search` feature (0: the
    /// hand evaluation of it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=4))]
    depth: u32,
    /// The depth of the engine whose best move is measured beside the model.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    engine_depth: u32,
    /// Held-out positions of each corpus the engine searches (spread evenly over them).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    engine_positions: u64,
    /// Write the model here (JSON).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print the model as JSON instead of the figures in words.
    #[arg(long)]
    json: bool,
}

/// Runs `tafl fit-people`.
pub fn run(args: &Args) -> ExitCode {
    let mut corpora = Vec::new();
    for corpus in &args.corpora {
        let Some((variant, file)) = corpus.split_once('=') else {
            eprintln!("error: expected VARIANT=FILE for --corpus, not `{corpus}`");
            return ExitCode::from(load::USAGE);
        };
        let loaded = match load::variant(variant) {
            Ok(loaded) => loaded,
            Err(_) => return ExitCode::from(load::USAGE),
        };
        let games = match read_games(&loaded, file) {
            Ok(games) => games,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(load::USAGE);
            }
        };
        corpora.push((variant.to_string(), file.to_string(), games));
    }
    let mut fitted = Vec::new();
    let mut held_out = Vec::new();
    for (_, _, games) in &corpora {
        let (fit_games, test_games) = split(games);
        fitted.extend(samples(
            &fit_games,
            stride(&fit_games, args.positions),
            args.depth,
        ));
        held_out.push((fit_games.len(), test_games));
    }
    let sides = crate::ir::Side::BOTH.map(|side| fit_side(&fitted, side));
    let [attackers, defenders] = sides;
    let mut model = Model {
        format: FORMAT,
        about: "tafl's model of people's moves (docs/people.md): a softmax over the weighted \
                features of each legal move, one set of weights a side"
            .into(),
        command: command_line(args),
        fitted: crate::search::train::today(),
        fitted_on: args.corpora.clone(),
        depth: args.depth,
        features: feature_names(),
        attackers,
        defenders,
        figures: Vec::new(),
    };
    for ((variant, file, _), (games_fitted, test_games)) in corpora.iter().zip(&held_out) {
        let test_samples = samples(
            test_games,
            stride(test_games, args.test_positions),
            args.depth,
        );
        let (people, uniform) = predict(&model, &test_samples, 1.0);
        let positions: Vec<(usize, usize)> = test_games
            .iter()
            .enumerate()
            .flat_map(|(g, game)| (0..game.plies().len()).map(move |i| (g, i)))
            .collect();
        let stride = positions
            .len()
            .div_ceil(args.engine_positions as usize)
            .max(1);
        let searched: Vec<(usize, usize)> = positions.into_iter().step_by(stride).collect();
        let engine = engine_figures(&model, test_games, &searched, args.engine_depth);
        model.figures.push(Figures {
            corpus: file.clone(),
            variant: variant.clone(),
            games_fitted: *games_fitted,
            games_held_out: test_games.len(),
            positions: test_samples.len(),
            people_top1: people.top1,
            people_loglik: people.loglik,
            uniform_loglik: uniform,
            engine,
        });
    }
    if let Some(path) = &args.out {
        // Plain data with string keys: serialising cannot fail.
        let text = serde_json::to_string_pretty(&model).expect("a model serialises") + "\n";
        if let Err(error) = super::output::write(path, text) {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    }
    super::report(&model, args.json, words)
}

/// The replayed games of the corpus `file` under `loaded`'s rules, those the rules refuse left
/// out.
fn read_games(loaded: &load::Loaded, file: &str) -> Result<Vec<Game>, String> {
    let path = std::path::Path::new(file);
    let text = super::record_file::read(path, DEFAULT_MAX_FILE_BYTES)
        .map_err(|error| format!("cannot read the corpus `{file}`: {error}"))?;
    let format = Format::detect(Some(file), &text);
    let games: Vec<Game> = crate::record::games(&text, format)
        .filter_map(Result::ok)
        .map(|record| replay(&loaded.engine, &record))
        .filter(|replayed| {
            matches!(
                replayed.verdict,
                Verdict::Agrees | Verdict::Result { .. } | Verdict::EndsEarly { .. }
            )
        })
        .map(|replayed| replayed.game)
        .filter(|game| !game.plies().is_empty())
        .collect();
    if games.is_empty() {
        return Err(format!(
            "the corpus `{file}` has no game its variant replays"
        ));
    }
    Ok(games)
}

/// The games fitted on and those held out: every fifth (the 5th, 10th, ...) is held out.
fn split(games: &[Game]) -> (Vec<Game>, Vec<Game>) {
    let (mut fit, mut test) = (Vec::new(), Vec::new());
    for (i, game) in games.iter().enumerate() {
        if i % 5 == 4 {
            test.push(game.clone());
        } else {
            fit.push(game.clone());
        }
    }
    (fit, test)
}

/// The stride that takes at most `most` of the positions of `games`.
fn stride(games: &[Game], most: u64) -> usize {
    let positions: usize = games.iter().map(|game| game.plies().len()).sum();
    positions.div_ceil(most.max(1) as usize).max(1)
}

/// The command that makes this model again.
fn command_line(args: &Args) -> String {
    let mut line = String::from("tafl fit-people");
    for corpus in &args.corpora {
        line.push_str(&format!(" --corpus {corpus}"));
    }
    line.push_str(&format!(
        " --positions {} --test-positions {} --depth {} --engine-depth {} --engine-positions {}",
        args.positions, args.test_positions, args.depth, args.engine_depth, args.engine_positions
    ));
    line
}

fn words(model: &Model) -> String {
    let mut out =
        String::from("held-out games (every fifth): people's moves as each player predicts them\n");
    for f in &model.figures {
        out.push_str(&format!(
            "{} ({}): {} games fitted, {} held out, {} positions\n  \
             people model: plays people's move {:.1}% of the time, log-likelihood {:.3} a move \
             (uniform {:.3})\n  \
             on {} of them, the engine at depth {}: its best move is people's {:.1}% of the \
             time, log-likelihood {:.3} a move (ε = {:.3}); the model there: {:.1}%, {:.3}\n",
            f.variant,
            f.corpus,
            f.games_fitted,
            f.games_held_out,
            f.positions,
            100.0 * f.people_top1,
            f.people_loglik,
            f.uniform_loglik,
            f.engine.positions,
            f.engine.depth,
            100.0 * f.engine.engine.top1,
            f.engine.engine.loglik,
            f.engine.epsilon,
            100.0 * f.engine.people.top1,
            f.engine.people.loglik,
        ));
    }
    out
}
