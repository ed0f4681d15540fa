//! `tafl train VARIANT [--generations N] [--games N] [--depth D] [--pairs N] [--threads N]
//! [--out DIR] [--resume DIR] [--only-data] [--json]`: a network evaluation for a variant,
//! trained by self-play generation after generation (src/search/train/mod.rs says how), each
//! generation's positions, network and log line on disk so that a run goes on where it
//! stopped.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use super::load;
use crate::search::duel::OpeningMoves;
use crate::search::train::{fit::FitSettings, Generation, Run, Settings, Watch};

/// Arguments of `tafl train`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Generations to reach (with `--resume`, in all, counting those done).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub generations: Option<u32>,
    /// Self-play games a generation.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// The search depth of the self-play games and of the matches.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Pairs of games in each generation's match of the new network against the last player
    /// (0: keep every network unmatched).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub pairs: u64,
    /// Threads (games played at once, and the fit's); every core by default.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// The run's directory [default: train-VARIANT].
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Go on with the run in DIR (its settings are kept; `--generations` may raise the count).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write each generation's positions only (the hand evaluation playing): no fit, no match.
    #[arg(long)]
    pub only_data: bool,
    /// First-layer units per view [default: 64 up to 9x9, 128 above].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub accumulator: Option<u16>,
    /// Hidden units.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub hidden: u16,
    /// Passes over the positions in each fit.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub epochs: u16,
    /// How much of each position's target is its search score's winning chance (0 to 1; 0,
    /// the default, is the game's result alone).
    #[arg(long, default_value_t = 0.0)]
    pub blend: f32,
    /// Positions files (`.npy`, as `--only-data` or another run writes them, for this
    /// variant's board) added to every fit.
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Earlier generations whose positions each fit takes besides its own.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub window: u32,
    /// How each opening's random plies are drawn, in self-play and in the matches: uniformly
    /// among the legal moves, or among the moves a depth-2 search scores within half a soldier
    /// of the best (the openings a player might choose).
    #[arg(long, value_enum, default_value_t = OpeningMoves::Plausible)]
    pub opening_moves: OpeningMoves,
    /// Print one JSON object a generation.
    #[arg(long)]
    pub json: bool,
}

/// Generations of a new run unless `--generations` says.
const GENERATIONS: u32 = 4;

/// A progress bar on stderr when it is a terminal, and the `--json` or text lines on stdout.
struct Shown {
    bar: Option<indicatif::ProgressBar>,
    json: bool,
}

impl Watch for Shown {
    fn phase(&self, generation: u32, name: &'static str, total: u64) {
        if let Some(bar) = &self.bar {
            bar.reset();
            bar.set_length(total);
            bar.set_message(format!("generation {generation}: {name}"));
        }
    }

    fn step(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn generation(&self, record: &Generation) {
        let line = if self.json {
            // A record of numbers and strings always serialises.
            serde_json::to_string(record).expect("a generation serialises")
        } else {
            words(record)
        };
        match &self.bar {
            Some(bar) => bar.println(line),
            None => outln!("{line}"),
        }
    }
}

fn words(g: &Generation) -> String {
    let mut line = format!(
        "generation {}: {} played {} games ({} attackers' wins, {} defenders', {} drawn), {} positions",
        g.generation, g.player, g.games, g.attackers, g.defenders, g.draws, g.positions
    );
    if let (Some(before), Some(after)) = (g.loss_before, g.loss_after) {
        line += &format!(
            "; fit to {} positions, loss {before:.4} -> {after:.4}",
            g.fitted
        );
    }
    if let (Some(score), Some(network)) = (g.score, &g.network) {
        let elo = match (g.elo, g.elo_low, g.elo_high) {
            (Some(e), Some(lo), Some(hi)) => format!("{e:+.0} Elo ({lo:+.0} to {hi:+.0})"),
            _ => "Elo beyond measure".to_string(),
        };
        line += &format!(
            "; {network} scored {score:.3} over {} pairs, {elo}: {}",
            g.pairs,
            if g.kept { "kept" } else { "not kept" }
        );
    }
    line + &format!(" [{:.0} s]", g.seconds)
}

/// Runs `tafl train`.
pub fn run(args: Args) -> ExitCode {
    let Ok(loaded) = load::variant(&args.variant) else {
        return ExitCode::from(load::USAGE);
    };
    let rules = loaded.engine.rules();
    let key = crate::nnue::rule_key(rules);
    let run = match &args.resume {
        Some(dir) => Run::resume(dir).and_then(|mut run| {
            if run.settings.rule_key != key {
                return Err(crate::search::train::TrainError::Run(format!(
                    "the run in {} trains {} (rule key {}), not {} (rule key {key})",
                    dir.display(),
                    run.settings.variant,
                    run.settings.rule_key,
                    args.variant
                )));
            }
            if let Some(n) = args.generations {
                run.settings.generations = n;
            }
            Ok(run)
        }),
        None => {
            let squares = usize::from(rules.board.width) * usize::from(rules.board.height);
            let stem = std::path::Path::new(&args.variant).file_stem().map_or_else(
                || args.variant.clone(),
                |s| s.to_string_lossy().into_owned(),
            );
            let dir = args
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("train-{stem}")));
            let settings = Settings {
                variant: args.variant.clone(),
                rule_key: key,
                generations: args.generations.unwrap_or(GENERATIONS),
                games: args.games,
                depth: args.depth,
                pairs: args.pairs,
                seed: args.seed,
                only_data: args.only_data,
                accumulator: args
                    .accumulator
                    .map_or(FitSettings::for_board(squares).accumulator, usize::from),
                hidden: usize::from(args.hidden),
                epochs: usize::from(args.epochs),
                blend: args.blend.clamp(0.0, 1.0),
                data: args.data.clone(),
                window: args.window,
                opening_moves: args.opening_moves,
            };
            Run::create(&dir, settings)
        }
    };
    let mut run = match run {
        Ok(run) => run,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(load::USAGE);
        }
    };
    let shown = Shown {
        bar: std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(run.settings.games);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_message(format!("generation {}: games", run.done.len() + 1));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        }),
        json: args.json,
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let engine = loaded.engine.clone();
    let went = pool.install(|| run.go_on(&engine, &shown));
    if let Some(bar) = &shown.bar {
        bar.finish_and_clear();
    }
    match went {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
