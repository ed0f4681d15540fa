//! `tafl learn VARIANT --records FILE... [--out FILE]`: fits the learned correction
//! ([`crate::search::learned`]) to the positions of recorded games, labelled by who won, and
//! says how much better than the evaluation alone it predicts games it was not fitted to.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::record::RecordedOutcome;
use crate::search::learned::{self, Sample};

/// Arguments of `tafl learn`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The variant the games were played under: a bundled name or a .tafl file.
    variant: String,
    /// Record files of games people played (any format `tafl games` reads); draws and
    /// unfinished games are left out.
    #[arg(long = "records", value_name = "FILE", required = true)]
    records: Vec<PathBuf>,
    /// Write the model here (JSON; `variants/learned/corners.json` is the built-in one).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The L2 penalty on the cells' weights.
    #[arg(long, default_value_t = 0.001)]
    ridge: f64,
    /// Rounds of gradient descent.
    #[arg(long, default_value_t = 400)]
    rounds: usize,
    /// Also write every labelled position as CSV, for fitting other models elsewhere
    /// (`python/examples/corner_network.py`): `game,held_out,attackers_won,evaluation,width,height,pieces`.
    #[arg(long, value_name = "FILE")]
    samples: Option<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(loaded) = super::load(&args.variant) else {
        return ExitCode::from(1);
    };
    let engine = match crate::engine::Engine::new(&loaded.rules) {
        Ok(engine) => std::sync::Arc::new(engine),
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(1);
        }
    };
    let rules = engine.rules().clone();
    let weights = crate::search::weights_for(&rules);
    let mut games = Vec::new();
    for path in &args.records {
        match super::book::replayed(path, &engine, "records", |_| None) {
            Ok(read) => games.extend(read),
            Err(code) => return code,
        }
    }
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let mut decided = 0;
    let mut attackers_wins = 0;
    // The `--samples` rows, gathered only when asked for.
    let mut csv = args.samples.as_ref().map(|_| String::from(SAMPLES_HEADER));
    for (index, (stated, game)) in games.iter().enumerate() {
        let attackers_won = match stated {
            Some(RecordedOutcome::AttackersWin) => true,
            Some(RecordedOutcome::DefendersWin) => false,
            _ => match game.status() {
                crate::game::Status::AttackersWin => true,
                crate::game::Status::DefendersWin => false,
                crate::game::Status::Draw | crate::game::Status::Ongoing => continue,
            },
        };
        decided += 1;
        attackers_wins += usize::from(attackers_won);
        for position in game.positions() {
            let Some(terms) = crate::search::eval::terms_of(&engine, position) else {
                continue;
            };
            let pieces = engine.pieces(position);
            let sample = Sample {
                features: learned::features(&rules, &pieces),
                hand: f64::from(terms.score(&weights)) / 100.0,
                attackers_won,
            };
            if let Some(csv) = &mut csv {
                csv.push_str(&sample_row(
                    &rules,
                    index,
                    attackers_won,
                    sample.hand,
                    &pieces,
                ));
            }
            if is_held_out(index) {
                held_out.push(sample);
            } else {
                train.push(sample);
            }
        }
    }
    if train.is_empty() || held_out.is_empty() {
        eprintln!("error: too few decided games to fit and to check ({decided})");
        return ExitCode::from(1);
    }
    if attackers_wins == 0 || attackers_wins == decided {
        // As `tune` warns: one outcome everywhere leaves the fit only its prior to learn.
        eprintln!(
            "warning: every game ended the same way ({} won all {decided}): the results carry \
             nothing to fit (records with both sides' wins may give some)",
            if attackers_wins == 0 {
                "the defenders"
            } else {
                "the attackers"
            }
        );
    }
    let alone = learned::fit(&train, 0.0, args.rounds, false);
    let mut model = learned::fit(&train, args.ridge, args.rounds, true);
    let before = alone.fit_on(&held_out, false);
    let after = model.fit_on(&held_out, true);
    let files: Vec<String> = args
        .records
        .iter()
        .map(|path| format!(" --records {}", path.display()))
        .collect();
    model.fitted = format!(
        "tafl learn {}{} --ridge {} --rounds {}: {decided} decided games, {} positions fitted, {} held out (every fifth game); held-out log-loss {:.4} (the evaluation alone {:.4}), winner called {:.1}% ({:.1}%)",
        args.variant,
        files.concat(),
        args.ridge,
        args.rounds,
        train.len(),
        held_out.len(),
        after.log_loss,
        before.log_loss,
        100.0 * after.accuracy,
        100.0 * before.accuracy,
    );
    outln!("{}", model.fitted);
    if let (Some(path), Some(csv)) = (&args.samples, &csv) {
        if let Err(error) = super::output::write(path, csv) {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    }
    if let Some(path) = &args.out {
        // The model is plain numbers and text: serialising cannot fail.
        let json = serde_json::to_string_pretty(&model).expect("a model serialises") + "\n";
        if let Err(error) = super::output::write(path, json) {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// The first line of `--samples`.
const SAMPLES_HEADER: &str = "game,held_out,attackers_won,evaluation,width,height,pieces\n";

/// Every fifth game is held out: the figures `tafl learn` prints are on games the fit never saw.
fn is_held_out(game: usize) -> bool {
    game % 5 == 4
}

/// One row of `--samples`: the game's index, whether it is held out (every fifth), who won, the
/// evaluation in soldiers for the attackers, the board, and each piece as `role@square` with
/// the role `a` (attacker), `d` (defender) or `k` (king), [`learned::ROLE_LETTERS`].
fn sample_row(
    rules: &crate::ir::Rules,
    game: usize,
    attackers_won: bool,
    evaluation: f64,
    pieces: &[(crate::ir::Square, usize)],
) -> String {
    let pieces: Vec<String> = pieces
        .iter()
        .filter_map(|&(square, kind)| {
            let role = learned::ROLE_LETTERS[learned::role(rules, kind)?];
            Some(format!("{role}@{square}"))
        })
        .collect();
    format!(
        "{game},{},{},{evaluation},{},{},{}\n",
        u8::from(is_held_out(game)),
        u8::from(attackers_won),
        rules.board.width,
        rules.board.height,
        pieces.join(" ")
    )
}
