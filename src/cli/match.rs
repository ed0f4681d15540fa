//! `tafl match VARIANT --a SPEC --b SPEC [--pairs N] [--openings K] [--opening-moves M] [--seed S | --book FILE]
//! [--threads N] [--sprt ELO0,ELO1] [--games FILE] [--json]`: two computer players, paired
//! games from seeded openings or a book of positions (src/cli/book.rs; each opening once with
//! each player on each side), and the result as W/D/L,
//! score and Elo difference with a 95% interval (src/search/stats.rs gives the formulas).
//!
//! A player SPEC is comma-separated `key=value`s: `depth=N` or `time=MS` (a move), `off=A+B`
//! (search techniques off, `all` for the plain search), `on=A+B` (on, after `off`),
//! `weights=rules|PROFILE|hand|FILE` (default `rules`: the weights the variant's rules choose,
//! src/search/profile.rs), `network=rules|none|FILE` (default `rules`: the bundled network the
//! variant's rules choose, if any, src/nnue/mod.rs; `none`: the hand evaluation; or a network
//! file as `tafl train` writes it); e.g.
//! `time=100,off=reductions` or `depth=3,off=all,weights=hand`. A player may also be another
//! program: `engine=CMD ARGS,protocol=uci|gtp|opentafl,time=MS` (src/protocol/client.rs drives
//! it); our own engine referees, and a program that sends an illegal move, exits or overruns its
//! time loses that game, counted apart as a forfeit. A program that resigns (hnefatafl's
//! `= play ROLE resigns _`) loses by resignation, as a player does.

use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::load;
use crate::game::Game;
use crate::game::Status;
use crate::ir::Side;
use crate::protocol::client::{Client, ClientError, Kind, Think};
use crate::search::duel::{
    csv_row_with, half_points, opening_drawn, play_out, Adjudication, Opening, OpeningMoves,
};
use crate::search::profile::Evaluation;
use crate::search::stats::{Estimate, Pentanomial, Sprt, Trinomial, Verdict};
use crate::search::{Limits, Settings};

/// Arguments of `tafl match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Player A, e.g. `time=100` or `depth=4,off=reductions,weights=w.json`.
    #[arg(long, value_name = "SPEC")]
    pub a: PlayerSpec,
    /// Player B, e.g. `time=100,off=all,weights=hand` (the plain search and hand-set weights).
    #[arg(long, value_name = "SPEC")]
    pub b: PlayerSpec,
    /// How many openings; each is played twice, A taking each side once [default: 20, or every
    /// game of `--book`].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub pairs: Option<u64>,
    /// How each opening is drawn.
    #[command(flatten)]
    pub opening: super::best::OpeningArgs,
    /// Start from the positions the games of FILE reach instead of random openings (a record
    /// file in any format `tafl games` reads, such as the `--games` file of an earlier match):
    /// opening N is the position after the moves of game N, and the book is read round again
    /// when `--pairs` asks for more.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openings", "opening_moves", "seed"])]
    pub book: Option<std::path::PathBuf>,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw (plies after the book's position
    /// with `--book`).
    #[arg(long, default_value_t = 300)]
    pub cap: u32,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// When a side resigns (both players must be this program's search, whose scores are
    /// read).
    #[command(flatten)]
    pub adjudicate: super::best::ResignArgs,
    /// Stop as soon as a sequential probability ratio test accepts H0 (A gains at most ELO0)
    /// or H1 (A gains at least ELO1), α = β = 5%; `--pairs` is then the most played.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<SprtSpec>,
    /// Write the games to FILE, one hnefatafl-rs CSV row a game, each after a `#` line naming
    /// the opening and which player took which side.
    #[arg(long, value_name = "FILE")]
    pub games: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A player: how long it thinks, which techniques, which weights, or another program.
#[derive(Debug, Clone)]
pub struct PlayerSpec {
    /// The spec as given.
    pub text: String,
    /// The search limits it asks for (for another program, only its depth or time is used).
    pub limits: Limits,
    /// Another program playing instead of our search.
    pub external: Option<External>,
    /// The weights `weights=` named, if it named weights that do not depend on the variant;
    /// `None`: the variant's rules choose them ([`PlayerSpec::for_rules`]).
    pub evaluation: Option<Evaluation>,
    /// What `network=` named (`rules` when it is left out).
    pub network: String,
}

impl PlayerSpec {
    /// The spec with its weights and network settled for a variant with `rules`: those
    /// `weights=` and `network=` named, else those the rules choose.
    ///
    /// # Errors
    /// A network file that cannot be read or does not fit the variant's board and pieces.
    pub fn for_rules(mut self, rules: &crate::ir::Rules) -> Result<PlayerSpec, String> {
        let evaluation = self
            .evaluation
            .take()
            .unwrap_or_else(|| Evaluation::of(rules));
        self.limits.weights = Some(evaluation.weights);
        self.limits.network = super::best::network_choice(Some(&self.network), rules)?;
        self.evaluation = Some(evaluation);
        Ok(self)
    }

    /// The player's evaluation in words, or the program it is.
    fn evaluation_words(&self, rules: &crate::ir::Rules) -> String {
        match (&self.external, &self.evaluation) {
            (Some(external), _) => format!("the program `{}`", external.command.join(" ")),
            (None, _) if self.limits.network.network(rules).is_some() => {
                super::best::evaluation_label(&self.limits, self.evaluation.as_ref(), rules)
            }
            (None, Some(evaluation)) => evaluation.describe(),
            (None, None) => "the weights its variant's rules choose".to_string(),
        }
    }
}

/// Another engine program, spoken to over one of the protocols of `tafl engine`.
#[derive(Debug, Clone)]
pub struct External {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Kind,
}

impl External {
    /// How long it is asked to think for a move, from the spec's depth or time.
    fn think(limits: &Limits) -> Think {
        match (limits.time, limits.depth) {
            (Some(time), _) => Think::MoveTime(time),
            (None, depth) => Think::Depth(depth.unwrap_or(3)),
        }
    }

    /// The longest it may take for a move before it loses the game: three times its time and
    /// two seconds for start-up and pipes, or a minute at a fixed depth.
    fn timeout(limits: &Limits) -> Duration {
        limits.time.map_or(Duration::from_secs(60), |time| {
            3 * time + Duration::from_secs(2)
        })
    }
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let mut limits = Limits::depth(3);
        let mut budget = false;
        let mut command: Option<Vec<String>> = None;
        let mut protocol: Option<Kind> = None;
        let mut settings = Settings::DEFAULT;
        let mut evaluation = None;
        let mut network = "rules".to_string();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not key=value"))?;
            match key {
                "depth" => {
                    let depth: u32 = value
                        .parse()
                        .ok()
                        .filter(|d| (1..=100).contains(d))
                        .ok_or_else(|| format!("depth `{value}` is not 1 to 100"))?;
                    limits.depth = Some(depth);
                    limits.time = None;
                    budget = true;
                }
                "time" => {
                    let ms: u64 = value
                        .parse()
                        .ok()
                        .filter(|&ms| ms > 0)
                        .ok_or_else(|| format!("time `{value}` is not a number of ms"))?;
                    limits.time = Some(Duration::from_millis(ms));
                    limits.depth = None;
                    budget = true;
                }
                "off" | "on" => {
                    for name in value.split('+') {
                        settings
                            .turn(name, key == "on")
                            .map_err(|e| e.to_string())?;
                    }
                }
                "weights" => evaluation = Evaluation::fixed(value)?,
                "network" => network = value.to_string(),
                "engine" => {
                    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                    if words.is_empty() {
                        return Err("`engine=` needs a command, e.g. `engine=tafl engine`".into());
                    }
                    command = Some(words);
                }
                "protocol" => {
                    protocol = Some(match value {
                        "uci" => Kind::Uci,
                        "gtp" => Kind::Gtp,
                        "opentafl" => Kind::OpenTafl,
                        other => {
                            return Err(format!(
                                "protocol `{other}` is not one of uci, gtp, opentafl"
                            ))
                        }
                    })
                }
                other => {
                    return Err(format!(
                        "unknown key `{other}`: expected depth, time, off, on, weights, network, engine or protocol"
                    ))
                }
            }
        }
        if !budget {
            return Err("a player needs depth=N or time=MS".to_string());
        }
        limits.settings = settings;
        limits.weights = evaluation.as_ref().map(|e: &Evaluation| e.weights);
        let limits = limits.for_one_of_many_games();
        let external = match (command, protocol) {
            (Some(command), protocol) => Some(External {
                command,
                protocol: protocol.unwrap_or(Kind::Uci),
            }),
            (None, Some(_)) => return Err("`protocol=` goes with `engine=CMD`".to_string()),
            (None, None) => None,
        };
        Ok(PlayerSpec {
            text: text.to_string(),
            limits,
            external,
            evaluation,
            network,
        })
    }
}

/// `--sprt ELO0,ELO1`.
#[derive(Debug, Clone, Copy)]
pub struct SprtSpec(pub Sprt);

impl FromStr for SprtSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<SprtSpec, String> {
        let parse = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("`{s}` is not a number"))
        };
        let (a, b) = text
            .split_once(',')
            .ok_or_else(|| "expected ELO0,ELO1, e.g. 0,50".to_string())?;
        let (elo0, elo1) = (parse(a)?, parse(b)?);
        if elo1 <= elo0 {
            return Err("ELO1 must be greater than ELO0".to_string());
        }
        Ok(SprtSpec(Sprt::new(elo0, elo1)))
    }
}

/// The random openings of `args`: uniformly random plies unless `--opening-moves` says
/// otherwise, so that players meet positions of every kind.
fn random_opening(args: &Args) -> Opening {
    args.opening.opening(OpeningMoves::Any)
}

/// Where each pair starts.
enum Openings {
    /// Seeded random plies from the variant's start ([`opening_drawn`]).
    Random { seed: u64, opening: Opening },
    /// The positions a book's games reach, read round again when the pairs outnumber them.
    Book(Vec<Game>),
}

impl Openings {
    /// The game opening number `index` starts from.
    fn start(&self, engine: &Arc<crate::engine::Engine>, index: u64) -> Game {
        match self {
            Openings::Random { seed, opening } => opening_drawn(engine, *seed, index, *opening),
            // `book::read` refuses an empty book: the modulus is never 0.
            Openings::Book(games) => games[(index % games.len() as u64) as usize].clone(),
        }
    }
}

/// One finished game: its opening, A's side, the result, and its CSV row.
struct Played {
    index: u64,
    a_side: Side,
    status: Status,
    reason: String,
    /// The player (`A` or `B`) that lost by an illegal move, a crash or its time, and why.
    forfeit: Option<String>,
    plies: usize,
    row: String,
}

/// The running result, shared by the threads.
#[derive(Default)]
struct Board {
    games: Vec<Option<Played>>,
    pairs: Pentanomial,
    verdict: Option<Verdict>,
}

#[derive(Serialize)]
struct Summary {
    variant: String,
    a: String,
    b: String,
    /// Each player's evaluation: a profile's name, `hand` or a weights file's path (or the
    /// program, for another engine).
    a_evaluation: String,
    b_evaluation: String,
    games: u64,
    pairs: u64,
    /// A's results.
    a_results: Trinomial,
    /// A's pair results, from 0 to 2 points.
    pentanomial: Pentanomial,
    /// From the pairs (the pentanomial): the figure to quote.
    estimate: Option<Estimate>,
    /// From the games alone (the trinomial), for comparison.
    trinomial_estimate: Option<Estimate>,
    sprt: Option<SprtReport>,
    /// A's results as attackers and as defenders.
    a_as_attackers: Trinomial,
    a_as_defenders: Trinomial,
    mean_plies: f64,
    reasons: std::collections::BTreeMap<String, u64>,
    /// Games lost by an illegal move, a crash or running out of time, each with what happened.
    forfeits: Vec<String>,
    /// The random plies opening each pair (none with a book), and how they were drawn.
    #[serde(flatten)]
    opening: Opening,
    seed: u64,
    /// The book the pairs started from, if any.
    book: Option<String>,
    /// The resignation rule, `SCORE,MOVES`, if any.
    resign: Option<String>,
    seconds: f64,
}

#[derive(Serialize)]
struct SprtReport {
    elo0: f64,
    elo1: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    verdict: Verdict,
}

/// Runs `tafl match`.
pub fn run(mut args: Args) -> ExitCode {
    let loaded = match load::variant(&args.variant) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    for spec in [&mut args.a, &mut args.b] {
        match spec.clone().for_rules(loaded.engine.rules()) {
            Ok(settled) => *spec = settled,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(load::USAGE);
            }
        }
    }
    if args.adjudicate.resign.is_some() && (args.a.external.is_some() || args.b.external.is_some())
    {
        eprintln!(
            "error: `--resign` reads both players' scores, and another program's are not read; \
             leave it out with an `engine=` player"
        );
        return ExitCode::from(load::USAGE);
    }
    let openings = match &args.book {
        Some(path) => match super::book::read(path, &loaded.engine) {
            Ok(games) => Openings::Book(games),
            Err(code) => return code,
        },
        None => Openings::Random {
            seed: args.seed,
            opening: random_opening(&args),
        },
    };
    let pairs = args.pairs.unwrap_or(match &openings {
        Openings::Book(games) => games.len() as u64,
        Openings::Random { .. } => 20,
    });
    let started = Instant::now();
    let total = 2 * pairs;
    let board = Mutex::new(Board {
        games: (0..total).map(|_| None).collect(),
        ..Board::default()
    });
    let stop = AtomicBool::new(false);
    let progress = load::progress(
        total,
        "{bar:40} {pos}/{len} games, {msg} {elapsed}",
        args.json,
    );
    let play_one = |game_index: u64| {
        // With an SPRT verdict in, the games not yet started are not played.
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let played = play(&loaded, &args, &openings, game_index);
        // A poisoned lock means another game's thread panicked; its result is lost anyway.
        let Ok(mut board) = board.lock() else { return };
        let pair = (game_index / 2) as usize;
        board.games[game_index as usize] = Some(played);
        if let (Some(first), Some(second)) = (&board.games[2 * pair], &board.games[2 * pair + 1]) {
            let points =
                half_points(first.status, first.a_side) + half_points(second.status, second.a_side);
            board.pairs.add(points);
            if let Some(SprtSpec(sprt)) = args.sprt {
                let verdict = sprt.verdict(&board.pairs);
                if verdict != Verdict::Continue {
                    board.verdict = Some(verdict);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if let Some(bar) = &progress {
            bar.inc(1);
            if let Some(e) = board.pairs.estimate() {
                bar.set_message(format!("A {}", elo_text(e.elo)));
            }
        }
    };
    let threads = usize::from(args.threads);
    if let Err(code) = load::on_threads(
        threads,
        || (0..total).for_each(play_one),
        || {
            use rayon::prelude::*;
            (0..total).into_par_iter().for_each(play_one)
        },
    ) {
        return code;
    }
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let Ok(board) = board.into_inner() else {
        eprintln!("error: a game's thread failed");
        return ExitCode::FAILURE;
    };
    // Only complete pairs count: an SPRT stop may leave a pair half played.
    let played: Vec<&Played> = board
        .games
        .chunks(2)
        .filter(|pair| pair.iter().all(Option::is_some))
        .flatten()
        .flatten()
        .collect();
    if let Some(path) = &args.games {
        if let Err(e) = write_games(path, &played, &args) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let summary = summarise(&loaded, &args, &played, &board, started);
    super::report(&summary, args.json, words)
}

/// Plays game `game_index`: opening `game_index / 2`, A attacking in the even game.
fn play(loaded: &load::Loaded, args: &Args, openings: &Openings, game_index: u64) -> Played {
    let index = game_index / 2;
    let a_side = if game_index.is_multiple_of(2) {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let start = openings.start(&loaded.engine, index);
    let cap = args.cap as usize
        + match openings {
            Openings::Book(_) => start.plies().len(),
            Openings::Random { .. } => 0,
        };
    let (attackers, defenders) = match a_side {
        Side::Attackers => (&args.a, &args.b),
        Side::Defenders => (&args.b, &args.a),
    };
    let (game, forfeit) = if attackers.external.is_none() && defenders.external.is_none() {
        let adjudication = Adjudication {
            cap,
            resign: args.adjudicate.resign,
        };
        let game = play_out(
            start,
            &attackers.limits,
            &defenders.limits,
            adjudication,
            |_, _| {},
        );
        (game, None)
    } else {
        let names = match a_side {
            Side::Attackers => ["A", "B"],
            Side::Defenders => ["B", "A"],
        };
        play_with_programs(
            loaded,
            &args.variant,
            start,
            [attackers, defenders],
            names,
            cap,
        )
    };
    let (status, reason) = match &forfeit {
        Some((loser, _)) => (
            match loser {
                Side::Attackers => Status::DefendersWin,
                Side::Defenders => Status::AttackersWin,
            },
            "forfeit".to_string(),
        ),
        None => (
            game.status(),
            game.reason().map_or("capped", |r| r.as_str()).to_string(),
        ),
    };
    let row = csv_row_with(&game, status);
    Played {
        index,
        a_side,
        status,
        reason,
        forfeit: forfeit.map(|(_, why)| why),
        plies: game.plies().len(),
        row,
    }
}

/// Plays `game` on with at least one player another program, our engine as referee. Returns the
/// game and, when a program forfeited, its side and what happened (`A exited`, ...).
fn play_with_programs(
    loaded: &load::Loaded,
    variant: &str,
    mut game: Game,
    players: [&PlayerSpec; 2],
    names: [&str; 2],
    cap: usize,
) -> (Game, Option<(Side, String)>) {
    let mut clients: [Option<Client>; 2] = [None, None];
    for (i, player) in players.iter().enumerate() {
        if let Some(external) = &player.external {
            let started = Client::start(
                &external.command,
                external.protocol,
                variant,
                &loaded.engine,
                Duration::from_secs(10),
            );
            match started {
                Ok(client) => clients[i] = Some(client),
                Err(error) => {
                    let side = [Side::Attackers, Side::Defenders][i];
                    return (game, Some((side, format!("{}: {error}", names[i]))));
                }
            }
        }
    }
    let stop = AtomicBool::new(false);
    let mut forfeit = None;
    while !game.is_over() && game.plies().len() < cap {
        let side = game.to_move();
        let i = side.index();
        let player = players[i];
        let answer: Result<crate::Move, String> = match &mut clients[i] {
            Some(client) => match client.best_move(
                &game,
                External::think(&player.limits),
                External::timeout(&player.limits),
            ) {
                // A resignation is a loss by resignation, not a fault of the program.
                Err(ClientError::Resigned) => match game.resign(side) {
                    Ok(_) => break,
                    Err(error) => Err(format!("resigned, which cannot end the game: {error}")),
                },
                other => other.map_err(|error| error.to_string()),
            },
            None => crate::search::search(&game, &player.limits, &stop, |_| {})
                .map_err(|error| error.to_string())
                .and_then(|report| report.best.ok_or_else(|| "no move".to_string())),
        };
        match answer.and_then(|mv| {
            game.play(mv)
                .map(|_| ())
                .map_err(|error| format!("played {mv}, which is illegal: {error}"))
        }) {
            Ok(()) => {}
            Err(why) => {
                forfeit = Some((side, format!("{}: {why}", names[i])));
                break;
            }
        }
    }
    for client in clients.into_iter().flatten() {
        client.quit();
    }
    (game, forfeit)
}

/// Writes the games to `path` whole, or not at all on an error.
fn write_games(
    path: &std::path::Path,
    played: &[&Played],
    args: &Args,
) -> Result<(), super::output::OutputError> {
    use std::fmt::Write as _;
    // Writing to a String cannot fail: the results of `writeln!` below are always Ok.
    let mut out = String::new();
    let from = match &args.book {
        Some(book) => format!("book {}", book.display()),
        None => format!("seed {}, {}", args.seed, random_opening(args)),
    };
    let _ = writeln!(
        out,
        "# tafl match {}: A = {}, B = {}; {from}",
        args.variant, args.a.text, args.b.text
    );
    for game in played {
        let (attackers, defenders) = match game.a_side {
            Side::Attackers => ("A", "B"),
            Side::Defenders => ("B", "A"),
        };
        let forfeit = game
            .forfeit
            .as_ref()
            .map_or(String::new(), |why| format!("; forfeit, {why}"));
        let _ = writeln!(
            out,
            "# opening {}: attackers {attackers}, defenders {defenders}{forfeit}",
            game.index
        );
        let _ = writeln!(out, "{}", game.row);
    }
    super::output::write(path, out)
}

fn summarise(
    loaded: &load::Loaded,
    args: &Args,
    played: &[&Played],
    board: &Board,
    started: Instant,
) -> Summary {
    let mut a_results = Trinomial::default();
    let mut by_side = [Trinomial::default(), Trinomial::default()];
    let mut reasons = std::collections::BTreeMap::new();
    for game in played {
        let tally = |t: &mut Trinomial| match half_points(game.status, game.a_side) {
            2 => t.wins += 1,
            1 => t.draws += 1,
            _ => t.losses += 1,
        };
        tally(&mut a_results);
        tally(&mut by_side[game.a_side.index()]);
        *reasons.entry(game.reason.clone()).or_insert(0) += 1;
    }
    let forfeits = played
        .iter()
        .filter_map(|game| game.forfeit.clone())
        .collect();
    let sprt = args.sprt.map(|SprtSpec(sprt)| {
        let (lower, upper) = sprt.bounds();
        SprtReport {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            llr: sprt.llr(&board.pairs),
            lower,
            upper,
            verdict: board.verdict.unwrap_or(Verdict::Continue),
        }
    });
    Summary {
        variant: loaded.engine.rules().name.clone(),
        a: args.a.text.clone(),
        b: args.b.text.clone(),
        a_evaluation: args.a.evaluation_words(loaded.engine.rules()),
        b_evaluation: args.b.evaluation_words(loaded.engine.rules()),
        games: played.len() as u64,
        pairs: board.pairs.pairs(),
        a_results,
        pentanomial: board.pairs,
        estimate: board.pairs.estimate(),
        trinomial_estimate: a_results.estimate(),
        sprt,
        a_as_attackers: by_side[Side::Attackers.index()],
        a_as_defenders: by_side[Side::Defenders.index()],
        mean_plies: played.iter().map(|g| g.plies as f64).sum::<f64>() / played.len().max(1) as f64,
        reasons,
        forfeits,
        opening: Opening {
            plies: if args.book.is_some() {
                0
            } else {
                args.opening.openings
            },
            ..random_opening(args)
        },
        seed: args.seed,
        book: args.book.as_ref().map(|path| path.display().to_string()),
        resign: args.adjudicate.resign.map(|rule| rule.to_string()),
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn elo_text(elo: Option<f64>) -> String {
    elo.map_or("±inf".to_string(), |e| format!("{e:+.0}"))
}

fn words(s: &Summary) -> String {
    let mut out = format!(
        "{}: A ({}) against B ({}), {} games in {} pairs\n\
         A's evaluation: {}\n\
         B's evaluation: {}\n\
         A: {} wins, {} draws, {} losses; as attackers {}-{}-{}, as defenders {}-{}-{}\n",
        s.variant,
        s.a,
        s.b,
        s.games,
        s.pairs,
        s.a_evaluation,
        s.b_evaluation,
        s.a_results.wins,
        s.a_results.draws,
        s.a_results.losses,
        s.a_as_attackers.wins,
        s.a_as_attackers.draws,
        s.a_as_attackers.losses,
        s.a_as_defenders.wins,
        s.a_as_defenders.draws,
        s.a_as_defenders.losses,
    );
    if let Some(e) = s.estimate {
        out.push_str(&format!(
            "score {:.1}%, Elo {} (95% interval {} to {}), pairs {:?}\n",
            100.0 * e.score,
            elo_text(e.elo),
            elo_text(e.elo_low),
            elo_text(e.elo_high),
            s.pentanomial.0
        ));
    }
    if let Some(sprt) = &s.sprt {
        out.push_str(&format!(
            "SPRT {}..{} Elo: LLR {:.2} (bounds {:.2}, {:.2}): {}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.llr,
            sprt.lower,
            sprt.upper,
            match sprt.verdict {
                Verdict::H0 => "H0 accepted (no gain of ELO1)",
                Verdict::H1 => "H1 accepted (a gain)",
                Verdict::Continue => "no verdict yet",
            }
        ));
    }
    for forfeit in &s.forfeits {
        out.push_str(&format!("forfeit: {forfeit}\n"));
    }
    let reasons: Vec<String> = s.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    out.push_str(&format!(
        "mean length {:.1} plies; endings: {}; {:.1} s\n",
        s.mean_plies,
        reasons.join(", "),
        s.seconds
    ));
    out
}
