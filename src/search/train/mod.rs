//! Training a network by self-play, generation after generation (`tafl train`).
//!
//! A generation: the current player (the hand evaluation at first, then the last network
//! kept) plays `games` self-play games at a fixed shallow depth from random openings
//! ([`games`]); every position it searched is written with the game's result ([`data`]); a
//! network is fitted to the positions of this generation and the four before it (and of any
//! positions files the run was given; every tenth game held out to choose the epoch kept)
//! ([`fit`]), starting from the kept network's weights; then it plays a paired match against the current player,
//! and is kept only if it scores more than half the points. Everything a generation makes is
//! on disk under the run's directory, so a run goes on where it stopped ([`Run::resume`]):
//!
//! - `run.json`: the run's settings;
//! - `gen-NNN.npy`: the generation's positions;
//! - `gen-NNN.nnue`: its network, and `gen-NNN.f32` the same in floats (noru's format), to
//!   fit the next generation from;
//! - `log.jsonl`: one [`Generation`] a line.

pub mod data;
pub mod fit;
pub mod games;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use noru::trainer::TrainableWeights;

use crate::engine::Engine;
use crate::nnue::{file, Choice, Layout, NetRef, Training};
use crate::search::duel::OpeningMoves;
use crate::search::Limits;
use fit::FitSettings;
use games::{Duel, Results};

/// A run's settings, as `run.json` keeps them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The variant as given (a bundled name or a file).
    pub variant: String,
    /// Its rule key ([`crate::nnue::rule_key`]): a run goes on only with a variant of the same rules.
    pub rule_key: String,
    /// Generations to reach.
    pub generations: u32,
    /// Self-play games a generation.
    pub games: u64,
    /// The self-play and match search depth.
    pub depth: u32,
    /// Pairs of games in each generation's match.
    pub pairs: u64,
    /// The run's seed.
    pub seed: u64,
    /// Write the positions only: no fit, no match.
    pub only_data: bool,
    /// First-layer units per view.
    pub accumulator: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the positions a fit.
    pub epochs: usize,
    /// How much of the target is the search score (0: the result alone).
    pub blend: f32,
    /// Positions files (as `--only-data` writes them, or another run's) added to every fit.
    #[serde(default)]
    pub data: Vec<PathBuf>,
    /// Earlier generations whose positions each fit takes besides its own.
    #[serde(default = "default_window")]
    pub window: u32,
    /// How the random plies of every game's opening are drawn (self-play and matches). Runs
    /// made before the choice existed drew them uniformly, and resume so.
    #[serde(default)]
    pub opening_moves: OpeningMoves,
}

/// [`Settings::window`] unless a run says: the four generations before a fit's own.
pub fn default_window() -> u32 {
    4
}

impl Settings {
    /// The fit's settings.
    pub fn fit(&self, generation: u32) -> FitSettings {
        FitSettings {
            accumulator: self.accumulator,
            hidden: self.hidden,
            epochs: self.epochs,
            blend: self.blend,
            seed: self
                .seed
                .wrapping_mul(1000)
                .wrapping_add(u64::from(generation)),
            ..FitSettings::for_board(0)
        }
    }
}

/// One generation's record, one line of `log.jsonl` and of `--json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Generation {
    /// Its number, from 1.
    pub generation: u32,
    /// Which evaluation played its games: `hand:<profile>` or `network:<file>`.
    pub player: String,
    /// Self-play games.
    pub games: u64,
    /// Of which the attackers won, the defenders won, and drawn (or capped).
    pub attackers: u64,
    /// See `attackers`.
    pub defenders: u64,
    /// See `attackers`.
    pub draws: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions fitted to (the window's and the run's files', less the held-out games').
    pub fitted: u64,
    /// The fit's mean cross entropy before and after (`null` with `--only-data`).
    pub loss_before: Option<f64>,
    /// See `loss_before`.
    pub loss_after: Option<f64>,
    /// The same over the held-out games' positions (every tenth game), which choose the
    /// epoch kept.
    #[serde(default)]
    pub held_out_before: Option<f64>,
    /// See `held_out_before`.
    #[serde(default)]
    pub held_out_after: Option<f64>,
    /// The epoch whose weights were kept (0: the start's).
    #[serde(default)]
    pub epoch: Option<usize>,
    /// The network file, if one was fitted.
    pub network: Option<String>,
    /// Its match against the player: pairs, score, Elo and its 95% interval.
    pub pairs: u64,
    /// See `pairs`.
    pub score: Option<f64>,
    /// See `pairs`.
    pub elo: Option<f64>,
    /// See `pairs`.
    pub elo_low: Option<f64>,
    /// See `pairs`.
    pub elo_high: Option<f64>,
    /// Its points as the attackers, out of `pairs`.
    pub attackers_points: Option<f64>,
    /// The SPRT's verdict (H0: 0 Elo, H1: +20), over the pairs played.
    pub sprt: Option<String>,
    /// Whether it was kept (it scored more than half the points).
    pub kept: bool,
    /// Wall seconds the generation took.
    pub seconds: f64,
}

/// What a run tells its watcher, for a progress bar.
pub trait Watch: Sync {
    /// A phase begins (`games`, `fit`, `match`), of `total` steps.
    fn phase(&self, generation: u32, name: &'static str, total: u64);
    /// A step of the phase is done.
    fn step(&self);
    /// A generation is done.
    fn generation(&self, record: &Generation);
}

/// Why a run cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file of the run cannot be read or written.
    #[error("{0}")]
    Io(String),
    /// The directory is not a run's, or its files do not agree.
    #[error("{0}")]
    Run(String),
}

fn io(path: &Path, e: impl std::fmt::Display) -> TrainError {
    TrainError::Io(format!("{}: {e}", path.display()))
}

/// A run: its directory, settings and the generations done.
pub struct Run {
    /// The directory.
    pub dir: PathBuf,
    /// The settings.
    pub settings: Settings,
    /// The generations done, in order.
    pub done: Vec<Generation>,
}

impl Run {
    /// A new run in `dir` (created; a directory that already holds a run is refused).
    ///
    /// # Errors
    /// The directory cannot be made, or already holds a run.
    pub fn create(dir: &Path, settings: Settings) -> Result<Run, TrainError> {
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let path = dir.join("run.json");
        if path.exists() {
            return Err(TrainError::Run(format!(
                "{} already holds a run: go on with --resume {}",
                dir.display(),
                dir.display()
            )));
        }
        let text = serde_json::to_string_pretty(&settings).map_err(|e| io(&path, e))?;
        std::fs::write(&path, text + "\n").map_err(|e| io(&path, e))?;
        Ok(Run {
            dir: dir.to_path_buf(),
            settings,
            done: Vec::new(),
        })
    }

    /// The run in `dir`, to go on with.
    ///
    /// # Errors
    /// No `run.json`, or files that cannot be read.
    pub fn resume(dir: &Path) -> Result<Run, TrainError> {
        let path = dir.join("run.json");
        let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
        let settings: Settings = serde_json::from_str(&text).map_err(|e| {
            TrainError::Run(format!("{} is not a run's settings: {e}", path.display()))
        })?;
        let log = dir.join("log.jsonl");
        let mut done = Vec::new();
        if log.exists() {
            let text = std::fs::read_to_string(&log).map_err(|e| io(&log, e))?;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                done.push(serde_json::from_str(line).map_err(|e| {
                    TrainError::Run(format!(
                        "{} has a line that is no generation: {e}",
                        log.display()
                    ))
                })?);
            }
        }
        Ok(Run {
            dir: dir.to_path_buf(),
            settings,
            done,
        })
    }

    /// The file of generation `g` with `extension`.
    pub fn file(&self, g: u32, extension: &str) -> PathBuf {
        self.dir.join(format!("gen-{g:03}.{extension}"))
    }

    /// The generation whose network plays now: the last one kept.
    pub fn champion(&self) -> Option<u32> {
        self.done
            .iter()
            .rev()
            .find(|g| g.kept)
            .map(|g| g.generation)
    }

    /// Plays the generations still to do, up to `settings.generations`.
    ///
    /// # Errors
    /// A file that cannot be read or written.
    pub fn go_on(&mut self, engine: &Arc<Engine>, watch: &dyn Watch) -> Result<(), TrainError> {
        while (self.done.len() as u32) < self.settings.generations {
            let record = self.generation(engine, watch)?;
            let log = self.dir.join("log.jsonl");
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .map_err(|e| io(&log, e))?;
            let line = serde_json::to_string(&record).map_err(|e| io(&log, e))?;
            writeln!(file, "{line}").map_err(|e| io(&log, e))?;
            watch.generation(&record);
            self.done.push(record);
        }
        Ok(())
    }

    /// The player's limits: the champion's network, else the hand evaluation; and its label.
    fn player(
        &self,
        engine: &Engine,
    ) -> Result<(Limits, String, Option<TrainableWeights>), TrainError> {
        let base = Limits::depth(self.settings.depth).for_one_of_many_games();
        let Some(g) = self.champion() else {
            let profile = crate::search::profile::Profile::of(engine.rules());
            return Ok((
                base.with_network(Choice::Hand),
                format!("hand:{}", profile.name()),
                None,
            ));
        };
        let path = self.file(g, "nnue");
        let net = crate::nnue::read(&path).map_err(|e| TrainError::Run(e.to_string()))?;
        let name = format!("gen-{g:03}.nnue");
        let floats_path = self.file(g, "f32");
        let floats = std::fs::read(&floats_path).map_err(|e| io(&floats_path, e))?;
        let floats = TrainableWeights::load_from_bytes(&floats).map_err(|e| io(&floats_path, e))?;
        Ok((
            base.with_network(Choice::Network(NetRef::keep(net, &name))),
            format!("network:{name}"),
            Some(floats),
        ))
    }

    fn generation(
        &self,
        engine: &Arc<Engine>,
        watch: &dyn Watch,
    ) -> Result<Generation, TrainError> {
        let started = std::time::Instant::now();
        let s = &self.settings;
        let g = self.done.len() as u32 + 1;
        let layout = Layout::of(engine.rules());
        let (player, label, floats) = self.player(engine)?;
        let seed = s.seed.wrapping_mul(7919).wrapping_add(u64::from(g));

        let npy = self.file(g, "npy");
        // A run stopped after a generation's games goes on from its positions.
        let (samples, results) = if npy.exists() {
            let samples = data::read(&npy, layout.squares()).map_err(TrainError::Run)?;
            let results = Results::of(&samples);
            (samples, results)
        } else {
            watch.phase(g, "games", s.games);
            let played =
                games::selfplay_many(engine, &player, s.opening_moves, seed, s.games, &|| {
                    watch.step()
                });
            data::write(&npy, layout.squares(), &played.0).map_err(|e| io(&npy, e))?;
            played
        };
        let mut record = Generation::new(g, label, &results, samples.len() as u64);
        if s.only_data {
            record.seconds = started.elapsed().as_secs_f64();
            return Ok(record);
        }

        let mut fitted_to = samples;
        let mut more: Vec<PathBuf> = (g.saturating_sub(s.window).max(1)..g)
            .map(|earlier| self.file(earlier, "npy"))
            .filter(|path| path.exists())
            .collect();
        more.extend(s.data.iter().cloned());
        for path in &more {
            fitted_to.extend(data::read(path, layout.squares()).map_err(TrainError::Run)?);
        }
        let (held, fitted_to): (Vec<_>, Vec<_>) =
            fitted_to.into_iter().partition(|s| fit::held_out(s.game));
        let settings = s.fit(g);
        watch.phase(g, "fit", settings.epochs as u64);
        let fitted = fit::fit(&layout, floats, &fitted_to, &held, &settings, &|_, _| {
            watch.step()
        });
        let float = fit::to_float(&layout, &fitted.weights);
        let training = Training {
            variant: s.variant.clone(),
            generation: g,
            games: s.games,
            positions: fitted_to.len() as u64,
            seed: s.seed,
            depth: s.depth,
            date: today(),
        };
        let net = float
            .quantise(&crate::nnue::rule_key(engine.rules()), training)
            .map_err(TrainError::Run)?;
        let path = self.file(g, "nnue");
        std::fs::write(&path, file::to_bytes(&net)).map_err(|e| io(&path, e))?;
        let floats_path = self.file(g, "f32");
        std::fs::write(&floats_path, fitted.weights.save_to_bytes())
            .map_err(|e| io(&floats_path, e))?;
        record.fitted = fitted_to.len() as u64;
        record.loss_before = Some(fitted.loss_before);
        record.loss_after = Some(fitted.loss_after);
        record.held_out_before = Some(fitted.held_before);
        record.held_out_after = Some(fitted.held_after);
        record.epoch = Some(fitted.epoch);
        let name = format!("gen-{g:03}.nnue");
        record.network = Some(name.clone());

        if s.pairs > 0 {
            let new = player.with_network(Choice::Network(NetRef::keep(net, &name)));
            watch.phase(g, "match", s.pairs);
            let duel = games::paired_match(
                engine,
                &new,
                &player,
                s.opening_moves,
                seed ^ 0x0003_A7C4,
                s.pairs,
                &|| watch.step(),
            );
            record.set_duel(s.pairs, &duel);
        }
        record.seconds = started.elapsed().as_secs_f64();
        Ok(record)
    }
}

impl Generation {
    fn new(generation: u32, player: String, results: &Results, positions: u64) -> Generation {
        Generation {
            generation,
            player,
            games: results.games(),
            attackers: results.attackers,
            defenders: results.defenders,
            draws: results.draws,
            positions,
            fitted: 0,
            loss_before: None,
            loss_after: None,
            held_out_before: None,
            held_out_after: None,
            epoch: None,
            network: None,
            pairs: 0,
            score: None,
            elo: None,
            elo_low: None,
            elo_high: None,
            attackers_points: None,
            sprt: None,
            kept: false,
            seconds: 0.0,
        }
    }

    fn set_duel(&mut self, pairs: u64, duel: &Duel) {
        self.pairs = pairs;
        if let Some(e) = &duel.estimate {
            self.score = Some(e.score);
            self.elo = e.elo;
            self.elo_low = e.elo_low;
            self.elo_high = e.elo_high;
        }
        self.attackers_points = Some(duel.attackers_points);
        self.sprt = Some(format!("{:?}", duel.sprt));
        self.kept = duel.won();
    }
}

/// Today's date, UTC, as `YYYY-MM-DD`: the date a training run or a fit of people's moves
/// writes into its files.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
