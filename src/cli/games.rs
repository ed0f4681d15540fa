//! `tafl games check|stats VARIANT FILE...`: the games of record files, replayed through a
//! variant's rules.
//!
//! `check` reports, per game, the first place a record and the rules part (docs/records.md);
//! `stats` counts who won, with 95% intervals, how the games ended and how long they were.
//! Exit status of both: 0 when every game was read (and, for `check`, agrees or only ends
//! earlier here than the players stopped), 1 when `check` finds a disagreement, 2 when a file
//! or a game cannot be read (that game is reported and the others go on).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::engine::Engine;
use crate::record::check::{replay, stated_outcome, Replay, Verdict};
use crate::record::{self, Format, GameRecord, RecordError, RecordedOutcome};
use crate::search::stats::{wilson, Rate};

/// Arguments of `tafl games`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: GamesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum GamesCommand {
    /// Replay every game and report the first disagreement of each with the rules.
    ///
    /// Exit status: 0 when every game agrees or only ends earlier here than the players stopped,
    /// 1 when a game disagrees, 2 when a file or a game cannot be read (docs/records.md).
    Check(Files),
    /// Who won how often (95% intervals), how the games ended, and how long they were.
    Stats(StatsArgs),
}

/// The files and how to read them.
#[derive(Debug, clap::Args)]
struct Files {
    /// A bundled variant's name or a variant file: the rules to replay the games under.
    variant: String,
    /// Record files: native records, OpenTafl `.otg`, hnefatafl-rs `.csv` rows or move lists.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Read every file in this format instead of guessing from its name and content.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct StatsArgs {
    #[command(flatten)]
    files: Files,
    /// Also draw the results as an SVG chart into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// The record formats, as `--format` names them.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FormatArg {
    /// This toolkit's own record (docs/records.md).
    Native,
    /// OpenTafl's `.otg`.
    Otg,
    /// The hnefatafl-rs corpus rows.
    Csv,
    /// Plain move lists, one game a paragraph.
    Moves,
}

impl FormatArg {
    const fn format(self) -> Format {
        match self {
            FormatArg::Native => Format::Native,
            FormatArg::Otg => Format::OpenTafl,
            FormatArg::Csv => Format::Csv,
            FormatArg::Moves => Format::MoveList,
        }
    }
}

/// Runs `tafl games`.
pub fn run(args: Args) -> ExitCode {
    match args.command {
        GamesCommand::Check(files) => check(&files),
        GamesCommand::Stats(stats) => self::stats(&stats),
    }
}

/// One game, read and replayed.
struct Checked {
    /// Index of its file in the arguments.
    file: usize,
    /// Its number in the file (1-based).
    number: usize,
    record: GameRecord,
    replay: Replay,
}

/// What reading the files gave: the replayed games, and what could not be read.
struct Loaded {
    games: Vec<Checked>,
    /// Per file: its name, text (when read) and format.
    files: Vec<(String, Option<String>, Format)>,
    /// Per file, the games that could not be read.
    unreadable: Vec<Vec<RecordError>>,
    /// Files that could not be read at all, with why.
    missing: Vec<(usize, String)>,
    engine: Arc<Engine>,
}

fn load(files: &Files) -> Result<Loaded, ExitCode> {
    let Some(variant) = super::load(&files.variant) else {
        return Err(ExitCode::from(2));
    };
    let engine = match Engine::new(&variant.rules) {
        Ok(engine) => Arc::new(engine),
        Err(error) => {
            eprintln!("error: `{}`: {error}", files.variant);
            return Err(ExitCode::from(2));
        }
    };
    let mut loaded = Loaded {
        games: Vec::new(),
        files: Vec::new(),
        unreadable: Vec::new(),
        missing: Vec::new(),
        engine,
    };
    let mut records = Vec::new();
    for (index, path) in files.files.iter().enumerate() {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) => {
                loaded.missing.push((index, error.to_string()));
                loaded.files.push((name, None, Format::Native));
                loaded.unreadable.push(Vec::new());
                continue;
            }
        };
        let format = files
            .format
            .map_or_else(|| Format::detect(Some(&name), &text), FormatArg::format);
        let mut bad = Vec::new();
        for (number, game) in record::parse(&text, format).into_iter().enumerate() {
            match game {
                Ok(game) => records.push((index, number + 1, game)),
                Err(error) => bad.push(error),
            }
        }
        loaded.files.push((name, Some(text), format));
        loaded.unreadable.push(bad);
    }
    let progress = super::load::progress(
        records.len() as u64,
        "{bar:40} {pos}/{len} games, {elapsed}",
        files.json,
    );
    let engine = &loaded.engine;
    loaded.games = records
        .into_par_iter()
        .map(|(file, number, record)| {
            let replay = replay(engine, &record);
            if let Some(bar) = &progress {
                bar.inc(1);
            }
            Checked {
                file,
                number,
                record,
                replay,
            }
        })
        .collect();
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(loaded)
}

impl Loaded {
    /// Prints why files or games could not be read, as diagnostics on standard error; returns
    /// whether anything was unreadable.
    fn report_unreadable(&self) -> bool {
        for (index, why) in &self.missing {
            eprintln!("error: cannot read `{}`: {why}", self.files[*index].0);
        }
        for ((name, text, _), bad) in self.files.iter().zip(&self.unreadable) {
            for error in bad {
                super::render::eprint_diagnostic(
                    error.clone(),
                    name,
                    text.as_deref().unwrap_or_default(),
                );
            }
        }
        !self.missing.is_empty() || self.unreadable.iter().any(|bad| !bad.is_empty())
    }

    fn unreadable_games(&self) -> usize {
        self.unreadable.iter().map(Vec::len).sum()
    }
}

/// One game in `check --json`.
#[derive(Serialize)]
struct GameReport {
    file: String,
    game: usize,
    line: usize,
    verdict: &'static str,
    /// The ply the verdict is about (1-based).
    ply: Option<usize>,
    /// Where that move is written (line, column).
    at: Option<(usize, usize)>,
    message: String,
}

#[derive(Serialize, Default)]
struct FileSummary {
    file: String,
    format: &'static str,
    games: usize,
    agrees: usize,
    ends_early: usize,
    disagrees: usize,
    unreadable: usize,
}

#[derive(Serialize)]
struct CheckReport {
    variant: String,
    rules: String,
    files: Vec<FileSummary>,
    /// Games by verdict, and games ending early by the rule that ends them (`ends_early:repetition`).
    counts: BTreeMap<String, usize>,
    /// Every game that does not simply agree.
    games: Vec<GameReport>,
}

fn check(files: &Files) -> ExitCode {
    let loaded = match load(files) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let unreadable = loaded.report_unreadable();
    let mut summaries: Vec<FileSummary> = loaded
        .files
        .iter()
        .zip(&loaded.unreadable)
        .map(|((name, _, format), bad)| FileSummary {
            file: name.clone(),
            format: format.as_str(),
            unreadable: bad.len(),
            ..FileSummary::default()
        })
        .collect();
    let mut counts = BTreeMap::new();
    let mut reports = Vec::new();
    let mut disagreements = 0;
    for game in &loaded.games {
        let summary = &mut summaries[game.file];
        summary.games += 1;
        let verdict = &game.replay.verdict;
        *counts.entry(verdict.category().to_string()).or_insert(0) += 1;
        match verdict {
            Verdict::Agrees => summary.agrees += 1,
            Verdict::EndsEarly { reason, .. } => {
                summary.ends_early += 1;
                *counts
                    .entry(format!("ends_early:{}", reason.as_str()))
                    .or_insert(0) += 1;
            }
            Verdict::Illegal { .. }
            | Verdict::Captures { .. }
            | Verdict::Result { .. }
            | Verdict::OtherRules { .. } => {
                summary.disagrees += 1;
                disagreements += 1;
            }
        }
        if *verdict != Verdict::Agrees {
            let at = game.replay.at(&game.record).map(|m| (m.line, m.column));
            reports.push(GameReport {
                file: loaded.files[game.file].0.clone(),
                game: game.number,
                line: at.map_or(game.record.line, |(line, _)| line),
                verdict: verdict.category(),
                ply: verdict.ply(),
                at,
                message: describe(&loaded.engine, &game.replay),
            });
        }
    }
    let report = CheckReport {
        variant: files.variant.clone(),
        rules: record::rules_hash(loaded.engine.rules()),
        files: summaries,
        counts,
        games: reports,
    };
    if files.json {
        // Plain data with string keys: serialising cannot fail.
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("the report serialises")
        );
    } else {
        print_check(&report, loaded.unreadable_games() + loaded.missing.len());
    }
    if unreadable {
        ExitCode::from(2)
    } else if disagreements > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A verdict in words.
pub(super) fn describe(engine: &Engine, replay: &Replay) -> String {
    let squares = |list: &[crate::ir::Square]| {
        if list.is_empty() {
            "nothing".to_string()
        } else {
            list.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    match &replay.verdict {
        Verdict::Agrees => "agrees".to_string(),
        Verdict::EndsEarly {
            after,
            status,
            reason,
            unplayed,
        } => format!(
            "the rules end the game after ply {after} ({status}, {}); the record plays {unplayed} more {}",
            reason.as_str(),
            if *unplayed == 1 { "move" } else { "moves" }
        ),
        Verdict::Illegal { ply, reason } => format!("ply {ply}: {reason}"),
        Verdict::Captures { ply, written, ours } => format!(
            "ply {ply}: the record captures {}, the rules capture {}",
            squares(written),
            squares(ours)
        ),
        Verdict::Result {
            written,
            ours,
            reason,
        } => format!(
            "the record's result is {}, the moves give {ours}{}",
            written.as_str(),
            reason.map(|r| format!(" ({})", r.as_str())).unwrap_or_default()
        ),
        Verdict::OtherRules { written, ours } => format!(
            "the record was played under other rules ({written}; {} has {ours})",
            engine.rules().name
        ),
    }
}

fn print_check(report: &CheckReport, unreadable: usize) {
    for game in &report.games {
        let place = match game.at {
            Some((line, column)) => format!("{}:{line}:{column}", game.file),
            None => format!("{}:{}", game.file, game.line),
        };
        let kind = game.verdict.replace('_', " ");
        println!("{place}: game {}: {kind}: {}", game.game, game.message);
    }
    if !report.games.is_empty() {
        println!();
    }
    let width = report
        .files
        .iter()
        .map(|f| f.file.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    println!(
        "{:<width$}  {:>6}  {:>6}  {:>10}  {:>8}  {:>10}",
        "file", "games", "agree", "ends early", "disagree", "unreadable"
    );
    for f in &report.files {
        println!(
            "{:<width$}  {:>6}  {:>6}  {:>10}  {:>8}  {:>10}",
            f.file, f.games, f.agrees, f.ends_early, f.disagrees, f.unreadable
        );
    }
    let early: Vec<String> = report
        .counts
        .iter()
        .filter_map(|(k, n)| k.strip_prefix("ends_early:").map(|r| format!("{r} {n}")))
        .collect();
    if !early.is_empty() {
        println!("Ending earlier here, by rule: {}.", early.join(", "));
    }
    if unreadable > 0 {
        println!("{unreadable} could not be read (see the errors above).");
    }
}

/// `stats --json`.
#[derive(Serialize)]
struct Stats {
    variant: String,
    games: usize,
    /// Games with a known result (a win or a draw).
    decided: usize,
    attackers_win: usize,
    defenders_win: usize,
    draw: usize,
    unfinished: usize,
    attackers: Rate,
    defenders: Rate,
    draws: Rate,
    /// How the games ended: the rule that ended them here, or what the record says.
    endings: BTreeMap<String, usize>,
    plies: Lengths,
}

#[derive(Serialize, Default)]
struct Lengths {
    min: usize,
    median: usize,
    mean: f64,
    max: usize,
}

fn stats(args: &StatsArgs) -> ExitCode {
    let files = &args.files;
    let loaded = match load(files) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let unreadable = loaded.report_unreadable();
    let stats = tally(&files.variant, &loaded.games);
    if files.json {
        // Plain data with string keys: serialising cannot fail.
        println!(
            "{}",
            serde_json::to_string_pretty(&stats).expect("the stats serialise")
        );
    } else {
        print_stats(&stats, loaded.engine.rules());
    }
    if let Some(path) = &args.svg {
        let svg = chart(&stats, loaded.engine.rules());
        if let Err(error) = std::fs::write(path, svg) {
            eprintln!("error: cannot write `{}`: {error}", path.display());
            return ExitCode::from(2);
        }
    }
    if unreadable {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

fn tally(variant: &str, games: &[Checked]) -> Stats {
    let mut outcomes = [0usize; 4];
    let mut endings = BTreeMap::new();
    let mut lengths: Vec<usize> = Vec::new();
    for game in games {
        let ours = &game.replay.game;
        let outcome = match stated_outcome(&game.record, ours) {
            Some(RecordedOutcome::Ongoing) | None => RecordedOutcome::of(ours.status()),
            Some(outcome) => outcome,
        };
        let slot = match outcome {
            RecordedOutcome::AttackersWin => 0,
            RecordedOutcome::DefendersWin => 1,
            RecordedOutcome::Draw => 2,
            RecordedOutcome::Ongoing | RecordedOutcome::SideToMoveLoses => 3,
        };
        outcomes[slot] += 1;
        let ending = match (ours.reason(), game.record.tags.result.as_ref()) {
            (Some(reason), _) => reason.as_str().to_string(),
            (None, Some(result)) => match (&result.reason, result.outcome) {
                (Some(reason), _) => reason.clone(),
                (None, RecordedOutcome::Ongoing) => "unfinished".to_string(),
                (None, _) => "not in the moves (resignation or time)".to_string(),
            },
            (None, None) => "unfinished".to_string(),
        };
        *endings.entry(ending).or_insert(0) += 1;
        lengths.push(game.record.moves.len());
    }
    lengths.sort_unstable();
    let plies = if lengths.is_empty() {
        Lengths::default()
    } else {
        Lengths {
            min: lengths[0],
            median: lengths[lengths.len() / 2],
            mean: lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
            max: lengths[lengths.len() - 1],
        }
    };
    let decided = outcomes[0] + outcomes[1] + outcomes[2];
    let rate = |n: usize| wilson(n as u64, decided as u64);
    Stats {
        variant: variant.to_string(),
        games: games.len(),
        decided,
        attackers_win: outcomes[0],
        defenders_win: outcomes[1],
        draw: outcomes[2],
        unfinished: outcomes[3],
        attackers: rate(outcomes[0]),
        defenders: rate(outcomes[1]),
        draws: rate(outcomes[2]),
        endings,
        plies,
    }
}

fn print_stats(stats: &Stats, rules: &crate::Rules) {
    let names = [
        rules.sides.attackers.name.as_str(),
        rules.sides.defenders.name.as_str(),
        "Draws",
    ];
    println!(
        "{} games of {}, {} with a result:",
        stats.games, rules.name, stats.decided
    );
    let rows = [
        (names[0], stats.attackers_win, stats.attackers),
        (names[1], stats.defenders_win, stats.defenders),
        (names[2], stats.draw, stats.draws),
    ];
    for (name, n, rate) in rows {
        println!(
            "  {name:<12} {n:>6}  {:>5.1}%  (95%: {:.1}% to {:.1}%)",
            rate.rate * 100.0,
            rate.low * 100.0,
            rate.high * 100.0
        );
    }
    if stats.unfinished > 0 {
        println!("  {:<12} {:>6}", "Unfinished", stats.unfinished);
    }
    println!("How they ended:");
    for (ending, n) in &stats.endings {
        println!("  {ending:<40} {n:>6}");
    }
    println!(
        "Length in plies: {} to {}, median {}, mean {:.1}.",
        stats.plies.min, stats.plies.max, stats.plies.median, stats.plies.mean
    );
}

/// The results as an SVG chart: one bar per result with its 95% interval and count, then one
/// bar per way the games ended, on an opaque white background so it reads on dark viewers too.
fn chart(stats: &Stats, rules: &crate::Rules) -> String {
    let (left, bar_width, row) = (300.0, 360.0, 30.0);
    let endings: Vec<(&String, &usize)> = stats.endings.iter().collect();
    let height = 120.0 + row * 3.0 + 60.0 + row * endings.len() as f64 + 40.0;
    // Room on the right for the counts and intervals written after the bars.
    let width = left + bar_width + 260.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"14\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
         <text x=\"20\" y=\"30\" font-size=\"18\" fill=\"#111111\">{} games of {}: who won ({} with a result)</text>\n",
        stats.games,
        escape(&rules.name),
        stats.decided
    );
    // The axis: 0 to 100% under the result bars.
    let axis_y = 60.0 + row * 3.0 + 10.0;
    svg.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{axis_y}\" x2=\"{}\" y2=\"{axis_y}\" stroke=\"#111111\"/>\n",
        left + bar_width
    ));
    for tick in 0..=4 {
        let x = left + bar_width * f64::from(tick) / 4.0;
        svg.push_str(&format!(
            "<line x1=\"{x}\" y1=\"{axis_y}\" x2=\"{x}\" y2=\"{}\" stroke=\"#111111\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"#111111\">{}%</text>\n",
            axis_y + 5.0,
            axis_y + 20.0,
            tick * 25
        ));
    }
    let results = [
        (
            rules.sides.attackers.name.as_str(),
            stats.attackers_win,
            stats.attackers,
            "#b03a2e",
        ),
        (
            rules.sides.defenders.name.as_str(),
            stats.defenders_win,
            stats.defenders,
            "#2e6fb0",
        ),
        ("Draws", stats.draw, stats.draws, "#7a7a7a"),
    ];
    for (i, (name, n, rate, colour)) in results.into_iter().enumerate() {
        let y = 50.0 + row * i as f64;
        let (w, low, high) = (
            bar_width * rate.rate,
            left + bar_width * rate.low,
            left + bar_width * rate.high,
        );
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#111111\">{}</text>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"18\" fill=\"{colour}\"/>\
             <line x1=\"{low:.1}\" y1=\"{}\" x2=\"{high:.1}\" y2=\"{}\" stroke=\"#111111\" stroke-width=\"2\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"#111111\">{n} ({:.1}%, 95%: {:.1} to {:.1})</text>\n",
            left - 10.0,
            y + 14.0,
            escape(name),
            y + 9.0,
            y + 9.0,
            left + bar_width + 10.0,
            y + 14.0,
            rate.rate * 100.0,
            rate.low * 100.0,
            rate.high * 100.0,
        ));
    }
    let top = axis_y + 50.0;
    svg.push_str(&format!(
        "<text x=\"20\" y=\"{top}\" font-size=\"16\" fill=\"#111111\">How the games ended (plies: median {}, {} to {})</text>\n",
        stats.plies.median, stats.plies.min, stats.plies.max
    ));
    let most = endings.iter().map(|(_, &n)| n).max().unwrap_or(1).max(1);
    for (i, (ending, &n)) in endings.into_iter().enumerate() {
        let y = top + 15.0 + row * i as f64;
        let w = bar_width * n as f64 / most as f64;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#111111\">{}</text>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"18\" fill=\"#5b8c5a\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"#111111\">{n}</text>\n",
            left - 10.0,
            y + 14.0,
            escape(&ending.replace('_', " ")),
            left + w + 8.0,
            y + 14.0,
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
