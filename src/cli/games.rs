//! `tafl games check|stats VARIANT FILE...`: the games of record files, replayed through a
//! variant's rules.
//!
//! `check` reports, per game, the first place a record and the rules part (docs/records.md);
//! `stats` counts who won, with 95% intervals, how the games ended and how long they were,
//! over the games the rules accept (a game that disagrees with them is left out, and counted).
//! Exit status of both: 0 when every game was read and agrees or only ends earlier here than
//! the players stopped, 1 when a game disagrees (`check` reports it, `stats` leaves it out),
//! 2 when a file or a game cannot be read (that game is reported and the others go on).
//!
//! The games are streamed: one file's text and a few hundred games are in memory at a time,
//! and only what the report needs is kept of each game.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use super::record_file::{self, Problems, ReadError, SizeLimit};
use crate::engine::Engine;
use crate::record::check::{replay, stated_outcome, Replay, Verdict};
use crate::record::{self, Format, GameRecord, RecordedOutcome};
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
    ///
    /// Games that disagree with the rules (an illegal move, other captures, another result,
    /// other rules) are left out and counted. Exit status: 0, 1 when games were left out, 2
    /// when a file or a game cannot be read.
    Stats(StatsArgs),
    /// Which bundled variant replays the games of each of aagenielsen.dk's game types, from
    /// folders of the site's JSON records, and the site's balance beside each.
    ///
    /// Exit status: 0 when every type checked is covered (a file replays at least 99% of its
    /// first games), 1 when one is not, 2 when a path cannot be read (docs/records.md).
    Site(super::site::SiteArgs),
}

/// The files and how to read them.
#[derive(Debug, clap::Args)]
struct Files {
    /// A bundled variant's name or a variant file: the rules to replay the games under.
    variant: String,
    /// Record files, or folders of them (read to any depth): native records, OpenTafl `.otg`,
    /// hnefatafl-rs `.csv` rows, move lists, or aagenielsen.dk's JSON games.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Read every file in this format instead of guessing from its name and content.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limit: SizeLimit,
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
    /// aagenielsen.dk's games, one JSON object a file.
    Aagenielsen,
}

impl FormatArg {
    const fn format(self) -> Format {
        match self {
            FormatArg::Native => Format::Native,
            FormatArg::Otg => Format::OpenTafl,
            FormatArg::Csv => Format::Csv,
            FormatArg::Moves => Format::MoveList,
            FormatArg::Aagenielsen => Format::Site,
        }
    }
}

/// Runs `tafl games`.
pub fn run(args: Args) -> ExitCode {
    match args.command {
        GamesCommand::Check(mut files) => match expand(&mut files) {
            Some(()) => check(&files),
            None => ExitCode::from(2),
        },
        GamesCommand::Stats(mut stats) => match expand(&mut stats.files) {
            Some(()) => self::stats(&stats),
            None => ExitCode::from(2),
        },
        GamesCommand::Site(site) => super::site::run(&site),
    }
}

/// Folders among the files become the files under them, in natural order; `None` when a path
/// cannot be read (the problem has been printed).
fn expand(files: &mut Files) -> Option<()> {
    if !files.files.iter().any(|p| p.is_dir()) {
        return Some(());
    }
    let mut expanded = Vec::new();
    for path in &files.files {
        if path.is_dir() {
            let mut under = Vec::new();
            if let Err(error) = record_file::walk(path, &mut under) {
                eprintln!("error: cannot read `{}`: {error}", path.display());
                return None;
            }
            record_file::sort_naturally(&mut under);
            expanded.extend(under);
        } else {
            expanded.push(path.clone());
        }
    }
    files.files = expanded;
    Some(())
}

/// One game, read and replayed: what the reports are made from, then dropped.
struct Checked<'a> {
    /// Index of its file in the arguments.
    file: usize,
    /// Its number in the file (1-based).
    number: usize,
    record: &'a GameRecord,
    replay: &'a Replay,
}

/// Games read and replayed at once: enough to keep every core busy, few enough that their
/// records and games (about 50 KB a game of Copenhagen) take little memory.
const BATCH: usize = 512;

/// What reading the files gave, besides what each game was summarised to.
struct Reading {
    engine: Arc<Engine>,
    /// Per file: its name, format (`None` when it could not be read) and unreadable games.
    files: Vec<(String, Option<Format>, usize)>,
    /// Files and games that could not be read, shown up to a limit.
    problems: Problems,
}

impl Reading {
    fn unreadable(&self) -> bool {
        self.problems.count() > 0
    }
}

/// The engine of the variant the games are replayed under; `None` when it cannot be loaded
/// (the problem has been printed).
fn engine(files: &Files) -> Option<Arc<Engine>> {
    let variant = super::load(&files.variant)?;
    match Engine::new(&variant.rules) {
        Ok(engine) => Some(Arc::new(engine)),
        Err(error) => {
            eprintln!("error: `{}`: {error}", files.variant);
            None
        }
    }
}

/// Reads every game of the files, replays it, and hands `take` what `summarise` makes of it,
/// in file order. The files are read one at a time and their games [`BATCH`] at a time,
/// replayed in parallel: memory holds one file's text and one batch's games, however many
/// games there are. A file or a game that cannot be read is shown on standard error (up to a
/// limit) and the others go on.
fn each_game<T: Send>(
    files: &Files,
    engine: Arc<Engine>,
    summarise: impl Fn(&Checked<'_>) -> T + Sync,
    mut take: impl FnMut(usize, T),
) -> Reading {
    let mut reading = Reading {
        engine,
        files: Vec::new(),
        problems: Problems::default(),
    };
    let sizes: Vec<u64> = files
        .files
        .iter()
        .map(|path| std::fs::metadata(path).map_or(0, |m| m.len()))
        .collect();
    let progress = super::load::progress(
        sizes.iter().sum(),
        "{bar:40} {binary_bytes}/{binary_total_bytes}, {elapsed}",
        files.json,
    );
    let limit = files.limit.bytes();
    let mut done = 0;
    for (index, path) in files.files.iter().enumerate() {
        let name = path.display().to_string();
        let text = match record_file::read(path, limit) {
            Ok(text) => text,
            Err(error) => {
                let hint = match error {
                    ReadError::TooLarge { .. } => "; --max-file-size raises the limit",
                    _ => "",
                };
                reading
                    .problems
                    .line(format_args!("cannot read `{name}`: {error}{hint}"));
                reading.files.push((name, None, 0));
                continue;
            }
        };
        let format = files
            .format
            .map_or_else(|| Format::detect(Some(&name), &text), FormatArg::format);
        let mut unreadable = 0;
        let mut games = record::games(&text, format).enumerate().peekable();
        while games.peek().is_some() {
            let mut batch = Vec::with_capacity(BATCH);
            for (number, game) in games.by_ref().take(BATCH) {
                match game {
                    Ok(game) => batch.push((number + 1, game)),
                    Err(error) => {
                        unreadable += 1;
                        reading.problems.record_error(&error, &name, &text);
                    }
                }
            }
            let read_to = batch.last().map(|(_, game)| game.span.end);
            let engine = &reading.engine;
            let summaries: Vec<T> = batch
                .par_iter()
                .map(|(number, record)| {
                    let replay = replay(engine, record);
                    summarise(&Checked {
                        file: index,
                        number: *number,
                        record,
                        replay: &replay,
                    })
                })
                .collect();
            for summary in summaries {
                take(index, summary);
            }
            if let (Some(bar), Some(read_to)) = (&progress, read_to) {
                bar.set_position(done + read_to as u64);
            }
        }
        done += sizes[index];
        reading.files.push((name, Some(format), unreadable));
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    reading.problems.finish();
    reading
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

/// What `check` keeps of a game: its verdict, and its report line unless it simply agrees.
struct CheckedGame {
    category: &'static str,
    /// The rule that ends it early, if one does.
    early: Option<&'static str>,
    disagrees: bool,
    report: Option<GameReport>,
}

fn check(files: &Files) -> ExitCode {
    let Some(engine) = engine(files) else {
        return ExitCode::from(2);
    };
    let summarise = |game: &Checked<'_>| {
        let verdict = &game.replay.verdict;
        let report = (*verdict != Verdict::Agrees).then(|| {
            let at = game.replay.at(game.record).map(|m| (m.line, m.column));
            GameReport {
                file: files.files[game.file].display().to_string(),
                game: game.number,
                line: at.map_or(game.record.line, |(line, _)| line),
                verdict: verdict.category(),
                ply: verdict.ply(),
                at,
                message: game.replay.describe(),
            }
        });
        CheckedGame {
            category: verdict.category(),
            early: match verdict {
                Verdict::EndsEarly { reason, .. } => Some(reason.as_str()),
                _ => None,
            },
            disagrees: verdict.is_disagreement(),
            report,
        }
    };
    let mut summaries: Vec<FileSummary> = files
        .files
        .iter()
        .map(|path| FileSummary {
            file: path.display().to_string(),
            ..FileSummary::default()
        })
        .collect();
    let mut counts = BTreeMap::new();
    let mut reports = Vec::new();
    let mut disagreements = 0;
    let take = |file: usize, game: CheckedGame| {
        let summary = &mut summaries[file];
        summary.games += 1;
        *counts.entry(game.category.to_string()).or_insert(0) += 1;
        if let Some(reason) = game.early {
            summary.ends_early += 1;
            *counts.entry(format!("ends_early:{reason}")).or_insert(0) += 1;
        } else if game.disagrees {
            summary.disagrees += 1;
            disagreements += 1;
        } else {
            summary.agrees += 1;
        }
        if let Some(report) = game.report {
            // The report for people is printed as the games come: only JSON, one document,
            // must wait for the end, and keeps one short line a game that does not agree.
            if files.json {
                reports.push(report);
            } else {
                print_game(&report);
            }
        }
    };
    let reading = each_game(files, engine, summarise, take);
    for (summary, (_, format, unreadable)) in summaries.iter_mut().zip(&reading.files) {
        summary.format = format.map_or("", Format::as_str);
        summary.unreadable = *unreadable;
    }
    let report = CheckReport {
        variant: files.variant.clone(),
        rules: record::rules_hash(reading.engine.rules()),
        files: summaries,
        counts,
        games: reports,
    };
    if files.json {
        // Plain data with string keys: serialising cannot fail.
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).expect("the report serialises")
        );
    } else {
        print_check(&report, reading.problems.count());
    }
    if reading.unreadable() {
        ExitCode::from(2)
    } else if disagreements > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A game that does not simply agree, as one line: `FILE:LINE:COLUMN: game N: VERDICT: details`.
fn print_game(game: &GameReport) {
    let place = match game.at {
        Some((line, column)) => format!("{}:{line}:{column}", game.file),
        None => format!("{}:{}", game.file, game.line),
    };
    let kind = game.verdict.replace('_', " ");
    outln!("{place}: game {}: {kind}: {}", game.game, game.message);
}

/// The table of files and the games ending early, after the games' lines.
fn print_check(report: &CheckReport, unreadable: usize) {
    if report.files.iter().any(|f| f.games > f.agrees) {
        outln!();
    }
    let width = report
        .files
        .iter()
        .map(|f| f.file.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    outln!(
        "{:<width$}  {:>6}  {:>6}  {:>10}  {:>8}  {:>10}",
        "file",
        "games",
        "agree",
        "ends early",
        "disagree",
        "unreadable"
    );
    for f in &report.files {
        outln!(
            "{:<width$}  {:>6}  {:>6}  {:>10}  {:>8}  {:>10}",
            f.file,
            f.games,
            f.agrees,
            f.ends_early,
            f.disagrees,
            f.unreadable
        );
    }
    let early: Vec<String> = report
        .counts
        .iter()
        .filter_map(|(k, n)| k.strip_prefix("ends_early:").map(|r| format!("{r} {n}")))
        .collect();
    if !early.is_empty() {
        outln!("Ending earlier here, by rule: {}.", early.join(", "));
    }
    if unreadable > 0 {
        outln!("{unreadable} could not be read (see the errors above).");
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
    /// Games left out of every count above because they disagree with the rules (as `check`
    /// reports them), and how many by verdict.
    left_out: usize,
    left_out_by_verdict: BTreeMap<String, usize>,
}

#[derive(Serialize, Default)]
struct Lengths {
    min: usize,
    median: usize,
    mean: f64,
    max: usize,
}

/// What `stats` keeps of a game.
enum Counted {
    /// A game the rules accept (it agrees, or ends earlier here): who won, how it ended, its
    /// length in plies.
    Game {
        outcome: RecordedOutcome,
        ending: String,
        plies: usize,
    },
    /// A game that disagrees with the rules, by its verdict: it says nothing about them.
    LeftOut(&'static str),
}

fn stats(args: &StatsArgs) -> ExitCode {
    let files = &args.files;
    let Some(engine) = engine(files) else {
        return ExitCode::from(2);
    };
    let mut tally = Tally::default();
    let reading = each_game(files, engine, count, |_, game| tally.add(game));
    let stats = tally.stats(&files.variant);
    let rules = reading.engine.rules();
    if files.json {
        // Plain data with string keys: serialising cannot fail.
        outln!(
            "{}",
            serde_json::to_string_pretty(&stats).expect("the stats serialise")
        );
    } else {
        print_stats(&stats, rules);
    }
    // A chart of what could be read would be taken for the chart of every file: none is
    // written when a file or game could not be read, and a chart is written whole or not at all.
    if let Some(path) = args.svg.as_ref().filter(|_| !reading.unreadable()) {
        let svg = chart(&stats, rules);
        if let Err(error) = super::output::write(path, svg) {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    } else if let Some(path) = &args.svg {
        eprintln!(
            "error: `{}` not written: some input could not be read",
            path.display()
        );
    }
    if reading.unreadable() {
        ExitCode::from(2)
    } else if stats.left_out > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What a game counts for in `stats`.
fn count(game: &Checked<'_>) -> Counted {
    let verdict = &game.replay.verdict;
    if verdict.is_disagreement() {
        return Counted::LeftOut(verdict.category());
    }
    let ours = &game.replay.game;
    let outcome = match stated_outcome(game.record, ours) {
        Some(RecordedOutcome::Ongoing) | None => RecordedOutcome::of(ours.status()),
        Some(outcome) => outcome,
    };
    let ending = match (ours.reason(), game.record.tags.result.as_ref()) {
        (Some(reason), _) => reason.as_str().to_string(),
        (None, Some(result)) => match (&result.reason, result.outcome) {
            (Some(reason), _) => ending_name(reason),
            (None, RecordedOutcome::Ongoing) => UNFINISHED.to_string(),
            (None, _) => NOT_RECORDED.to_string(),
        },
        (None, None) => UNFINISHED.to_string(),
    };
    Counted::Game {
        outcome,
        ending,
        plies: game.record.moves.len(),
    }
}

/// The ending of a game that stopped before any rule or stated result ended it.
const UNFINISHED: &str = "unfinished";
/// The ending of a game whose result is stated but which no move ended: a resignation or a
/// loss on time, most likely, that the record does not name.
const NOT_RECORDED: &str = "not_recorded";

/// A record's own word for how a game ended in the spelling of the JSON's names: lower case,
/// words joined by `_` (`Time out` is `time_out`).
fn ending_name(recorded: &str) -> String {
    let lower = recorded.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    if words.is_empty() {
        NOT_RECORDED.to_string()
    } else {
        words.join("_")
    }
}

/// How the games ended, in words, the most common first.
fn endings_in_words(stats: &Stats) -> Vec<(String, usize)> {
    let mut endings: Vec<(String, usize)> = stats
        .endings
        .iter()
        .map(|(name, &n)| (ending_words(name), n))
        .collect();
    endings.sort_by(|(a, m), (b, n)| n.cmp(m).then_with(|| a.cmp(b)));
    endings
}

/// An ending's name in words, for the table and the chart.
fn ending_words(name: &str) -> String {
    if let Some(reason) = crate::engine::EndReason::from_name(name) {
        return reason.words().to_string();
    }
    match name {
        NOT_RECORDED => "not in the moves (resigned or lost on time)".to_string(),
        UNFINISHED => "unfinished".to_string(),
        "timeout" | "time" | "time_out" => "lost on time".to_string(),
        "resigned" | "resign" => "a player resigned".to_string(),
        other => other.replace('_', " "),
    }
}

/// The counts of `stats`, kept as the games come: a few numbers and two small maps, however
/// many games there are.
#[derive(Default)]
struct Tally {
    /// Attackers' wins, defenders' wins, draws, unfinished.
    outcomes: [usize; 4],
    endings: BTreeMap<String, usize>,
    /// Games by length in plies (for the median without keeping every length).
    lengths: BTreeMap<usize, usize>,
    left_out: BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, game: Counted) {
        let (outcome, ending, plies) = match game {
            Counted::Game {
                outcome,
                ending,
                plies,
            } => (outcome, ending, plies),
            Counted::LeftOut(category) => {
                *self.left_out.entry(category.to_string()).or_insert(0) += 1;
                return;
            }
        };
        let slot = match outcome {
            RecordedOutcome::AttackersWin => 0,
            RecordedOutcome::DefendersWin => 1,
            RecordedOutcome::Draw => 2,
            RecordedOutcome::Ongoing | RecordedOutcome::SideToMoveLoses => 3,
        };
        self.outcomes[slot] += 1;
        *self.endings.entry(ending).or_insert(0) += 1;
        *self.lengths.entry(plies).or_insert(0) += 1;
    }

    fn stats(self, variant: &str) -> Stats {
        let outcomes = self.outcomes;
        let games: usize = self.lengths.values().sum();
        let plies = match (
            self.lengths.first_key_value(),
            self.lengths.last_key_value(),
        ) {
            (Some((&min, _)), Some((&max, _))) => {
                // The length at index games / 2 of the sorted lengths.
                let mut seen = 0;
                let median = self
                    .lengths
                    .iter()
                    .find(|(_, &n)| {
                        seen += n;
                        seen > games / 2
                    })
                    .map_or(max, |(&length, _)| length);
                let total: usize = self.lengths.iter().map(|(length, n)| length * n).sum();
                Lengths {
                    min,
                    median,
                    mean: total as f64 / games as f64,
                    max,
                }
            }
            _ => Lengths::default(),
        };
        let decided = outcomes[0] + outcomes[1] + outcomes[2];
        let rate = |n: usize| wilson(n as u64, decided as u64);
        Stats {
            variant: variant.to_string(),
            games,
            decided,
            attackers_win: outcomes[0],
            defenders_win: outcomes[1],
            draw: outcomes[2],
            unfinished: outcomes[3],
            attackers: rate(outcomes[0]),
            defenders: rate(outcomes[1]),
            draws: rate(outcomes[2]),
            endings: self.endings,
            plies,
            left_out: self.left_out.values().sum(),
            left_out_by_verdict: self.left_out,
        }
    }
}

fn print_stats(stats: &Stats, rules: &crate::Rules) {
    let names = [
        rules.sides.attackers.name.as_str(),
        rules.sides.defenders.name.as_str(),
        "Draws",
    ];
    outln!(
        "{} games of {}, {} with a result:",
        stats.games,
        rules.name,
        stats.decided
    );
    let rows = [
        (names[0], stats.attackers_win, stats.attackers),
        (names[1], stats.defenders_win, stats.defenders),
        (names[2], stats.draw, stats.draws),
    ];
    for (name, n, rate) in rows {
        outln!(
            "  {name:<12} {n:>6}  {:>5.1}%  (95%: {:.1}% to {:.1}%)",
            rate.rate * 100.0,
            rate.low * 100.0,
            rate.high * 100.0
        );
    }
    if stats.unfinished > 0 {
        outln!("  {:<12} {:>6}", "Unfinished", stats.unfinished);
    }
    outln!("How they ended:");
    let endings = endings_in_words(stats);
    let width = endings
        .iter()
        .map(|(words, _)| words.chars().count())
        .max()
        .unwrap_or(0);
    for (words, n) in endings {
        outln!("  {words:<width$}  {n:>6}");
    }
    outln!(
        "Length in plies: {} to {}, median {}, mean {:.1}.",
        stats.plies.min,
        stats.plies.max,
        stats.plies.median,
        stats.plies.mean
    );
    if stats.left_out > 0 {
        let by: Vec<String> = stats
            .left_out_by_verdict
            .iter()
            .map(|(verdict, n)| format!("{} {n}", verdict.replace('_', " ")))
            .collect();
        outln!(
            "Left out: {} {} that {} with the rules of {} ({}): `tafl games check` says where.",
            stats.left_out,
            if stats.left_out == 1 { "game" } else { "games" },
            if stats.left_out == 1 {
                "disagrees"
            } else {
                "disagree"
            },
            rules.name,
            by.join(", ")
        );
    }
}

/// The results as an SVG chart: who won, with 95% intervals, and how the games ended.
fn chart(stats: &Stats, rules: &crate::Rules) -> String {
    let outcome = |count: usize, rate: &Rate| crate::svg::Outcome {
        count: count as u64,
        low: rate.low,
        high: rate.high,
    };
    crate::svg::records_chart(&crate::svg::RecordsChart {
        variant: rules.name.clone(),
        games: stats.games as u64,
        decided: stats.decided as u64,
        sides: [
            rules.sides.attackers.name.clone(),
            rules.sides.defenders.name.clone(),
        ],
        results: [
            outcome(stats.attackers_win, &stats.attackers),
            outcome(stats.defenders_win, &stats.defenders),
            outcome(stats.draw, &stats.draws),
        ],
        endings: endings_in_words(stats)
            .into_iter()
            .map(|(words, n)| (words, n as u64))
            .collect(),
        plies: [stats.plies.min, stats.plies.median, stats.plies.max],
    })
}
