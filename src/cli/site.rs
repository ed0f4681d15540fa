//! `tafl games site PATH...`: which bundled variant replays the games of each of aagenielsen.dk's
//! game types, and how many of them.
//!
//! The site's records (one JSON file a game, [`crate::record::site`]) are read from folders,
//! grouped by the site's type, and every type with enough games is checked: each bundled variant
//! (and any `--variant` file) replays the type's first few games, the best few replay its first
//! `--first` games, and the one that replays most is the type's file. A type is covered when that
//! file replays at least 99% of them move for move, captures and ending included; the games it
//! does not replay are listed with the first place each departs from the rules. Beside each
//! type stands the site's own balance: the attackers' share of its decided games, with and
//! without the games lost on time.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::ffi::OsString;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use super::record_file::{self, Problems, SizeLimit};
use crate::engine::Engine;
use crate::record::check::{replay, Verdict};
use crate::record::site;
use crate::record::{GameRecord, RecordedOutcome};
use crate::search::stats::{wilson, Rate};

/// Arguments of `tafl games site`.
#[derive(Debug, clap::Args)]
pub struct SiteArgs {
    /// Folders (read to any depth) or files of the site's JSON game records.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Check only types with at least this many games (the others are counted).
    #[arg(long, default_value_t = 100, value_name = "N")]
    min_games: usize,
    /// Check each type's first N games, in the order of their files' names.
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    first: u32,
    /// Also try this variant (a file or a bundled name) on every type; may be repeated.
    #[arg(long = "variant", value_name = "VARIANT")]
    variants: Vec<String>,
    /// Check only this type (the site's number, `AageGameTypeKey`); may be repeated.
    #[arg(long = "type", value_name = "KEY")]
    types: Vec<u32>,
    /// Leave out the games that do not replay; print only the table.
    #[arg(long)]
    summary: bool,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limit: SizeLimit,
}

/// The share of checked games a file must replay for its type to be covered: 99 in 100.
const COVERED: f64 = 0.99;

/// Games each variant replays of every type before the best few replay them all.
const SCREEN: usize = 10;

/// Variants kept after the screen.
const FINALISTS: usize = 3;

/// What the site's records say of one type, all its games counted.
#[derive(Serialize, Clone)]
struct SiteFigures {
    attackers: usize,
    defenders: usize,
    draws: usize,
    /// Games the record leaves unfinished.
    ongoing: usize,
    /// Decided games that ended by `timeout`.
    on_time: usize,
    /// Decided games that ended by `resigned`.
    resigned: usize,
    /// The attackers' share of the decided games.
    attackers_share: Rate,
    /// The same, leaving out the games lost on time.
    attackers_share_without_time: Rate,
}

/// One variant tried on a type.
#[derive(Serialize, Clone)]
struct Tried {
    variant: String,
    checked: usize,
    replayed: usize,
}

/// A checked game that the type's file does not replay.
#[derive(Serialize)]
struct Departure {
    file: String,
    verdict: &'static str,
    ply: Option<usize>,
    message: String,
}

/// One type of the site.
#[derive(Serialize)]
struct TypeReport {
    key: u32,
    name: String,
    games: usize,
    /// Games whose record could not be read.
    unreadable: usize,
    /// Whether this type was checked (enough games, and asked for).
    checked: bool,
    /// The variant that replays most of its first games, if one replays any.
    variant: Option<String>,
    replayed: usize,
    of: usize,
    share: f64,
    covered: bool,
    site: SiteFigures,
    /// The variants that replayed all the first games, best first.
    tried: Vec<Tried>,
    departures: Vec<Departure>,
}

#[derive(Serialize)]
struct SiteReport {
    games: usize,
    unreadable: usize,
    types: Vec<TypeReport>,
    checked_types: usize,
    covered_types: usize,
    checked_games: usize,
    covered_games: usize,
}

/// A type's games as read: every game counted, the first ones kept to replay.
#[derive(Default)]
struct Gathered {
    name: String,
    games: usize,
    unreadable: usize,
    /// Games that could not be read among the first `--first`, with why: they count as not
    /// replayed.
    unreadable_first: Vec<Departure>,
    kept: Vec<(String, GameRecord)>,
    tally: SiteTally,
}

#[derive(Default)]
struct SiteTally {
    attackers: usize,
    defenders: usize,
    draws: usize,
    ongoing: usize,
    attackers_on_time: usize,
    defenders_on_time: usize,
    resigned: usize,
}

impl SiteTally {
    fn add(&mut self, record: &GameRecord) {
        let Some(result) = &record.tags.result else {
            self.ongoing += 1;
            return;
        };
        let on_time = result.reason.as_deref() == Some("timeout");
        self.resigned += usize::from(result.reason.as_deref() == Some("resigned"));
        match result.outcome {
            RecordedOutcome::AttackersWin => {
                self.attackers += 1;
                self.attackers_on_time += usize::from(on_time);
            }
            RecordedOutcome::DefendersWin => {
                self.defenders += 1;
                self.defenders_on_time += usize::from(on_time);
            }
            RecordedOutcome::Draw => self.draws += 1,
            RecordedOutcome::Ongoing | RecordedOutcome::SideToMoveLoses => self.ongoing += 1,
        }
    }

    fn figures(&self) -> SiteFigures {
        let decided = self.attackers + self.defenders;
        let attackers_by_play = self.attackers - self.attackers_on_time;
        let decided_by_play = decided - self.attackers_on_time - self.defenders_on_time;
        SiteFigures {
            attackers: self.attackers,
            defenders: self.defenders,
            draws: self.draws,
            ongoing: self.ongoing,
            on_time: self.attackers_on_time + self.defenders_on_time,
            resigned: self.resigned,
            attackers_share: wilson(self.attackers as u64, decided as u64),
            attackers_share_without_time: wilson(attackers_by_play as u64, decided_by_play as u64),
        }
    }
}

/// Runs `tafl games site`.
pub fn run(args: &SiteArgs) -> ExitCode {
    let mut problems = Problems::default();
    let mut paths = Vec::new();
    for path in &args.paths {
        if let Err(error) = record_file::walk(path, &mut paths) {
            problems.line(format_args!("cannot read `{}`: {error}", path.display()));
        }
    }
    let unreadable_paths = problems.count();
    paths.retain(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    });
    record_file::sort_naturally(&mut paths);
    let Some(candidates) = candidates(&args.variants) else {
        return ExitCode::from(2);
    };
    let (gathered, unreadable, duplicates) = gather(&paths, args, &mut problems);
    problems.finish();
    let mut types = Vec::new();
    for (key, gathered) in gathered {
        let asked = if args.types.is_empty() {
            site::is_tafl(&gathered.name)
        } else {
            args.types.contains(&key)
        };
        let checked = asked && gathered.games >= args.min_games;
        types.push(check_type(key, gathered, checked, &candidates));
    }
    // The types with most games first, as the site's own lists rank them.
    types.sort_by(|a, b| b.games.cmp(&a.games).then(a.key.cmp(&b.key)));
    let checked: Vec<&TypeReport> = types.iter().filter(|t| t.checked).collect();
    let report = SiteReport {
        games: paths.len() - duplicates,
        unreadable,
        checked_types: checked.len(),
        covered_types: checked.iter().filter(|t| t.covered).count(),
        checked_games: checked.iter().map(|t| t.games).sum(),
        covered_games: checked.iter().filter(|t| t.covered).map(|t| t.games).sum(),
        types,
    };
    if args.json {
        // Plain data with string keys: serialising cannot fail.
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).expect("the report serialises")
        );
    } else {
        print_report(&report, args.summary);
    }
    if unreadable_paths > 0 {
        ExitCode::from(2)
    } else if report.covered_types < report.checked_types {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Every bundled variant, then the files asked for, each with its engine; `None` when a file
/// asked for cannot be loaded (the problem has been printed).
fn candidates(extra: &[String]) -> Option<Vec<(String, Arc<Engine>)>> {
    let mut engines = Vec::new();
    for name in crate::variant::bundled_names() {
        // A bundled variant that does not compile is a bug the bundled tests catch; it is
        // left out here rather than stopping the check.
        if let Some(engine) = crate::Variant::bundled(name)
            .ok()
            .and_then(|v| Engine::new(&v.rules).ok())
        {
            engines.push((name.to_string(), Arc::new(engine)));
        }
    }
    for name in extra {
        let variant = super::load(name)?;
        match Engine::new(&variant.rules) {
            Ok(engine) => engines.push((name.clone(), Arc::new(engine))),
            Err(error) => {
                eprintln!("error: `{name}`: {error}");
                return None;
            }
        }
    }
    Some(engines)
}

/// Reads every file, counting each type's games and keeping the first `--first` of each.
fn gather(
    paths: &[PathBuf],
    args: &SiteArgs,
    problems: &mut Problems,
) -> (BTreeMap<u32, Gathered>, usize, usize) {
    let progress = super::load::progress(
        paths.len() as u64,
        "{bar:40} {pos}/{len} files, {elapsed}",
        args.json,
    );
    let limit = args.limit.bytes();
    let first = args.first as usize;
    let mut types: BTreeMap<u32, Gathered> = BTreeMap::new();
    let mut unreadable = 0;
    // The public copy of the records holds the Copenhagen games twice, in `gamesJSON` and in
    // `CopenhagenGamesJSON`: a file whose name (the site's game number) and text are those of a
    // file already read is the same game, counted once. The text is kept as a hash: two different
    // games under one name colliding in 64 bits is not a risk worth the memory of every text.
    let mut seen: HashSet<(OsString, u64)> = HashSet::new();
    let mut duplicates = 0;
    // Read and parsed in parallel a slice at a time, tallied in file order.
    for chunk in paths.chunks(1024) {
        let read: Vec<_> = chunk
            .par_iter()
            .map(|path| {
                record_file::read(path, limit).map(|text| {
                    let record = site::parse(&text);
                    (text, record)
                })
            })
            .collect();
        for (path, read) in chunk.iter().zip(read) {
            if let (Some(file_name), Ok((text, _))) = (path.file_name(), &read) {
                let mut hasher = DefaultHasher::new();
                text.hash(&mut hasher);
                if !seen.insert((file_name.to_os_string(), hasher.finish())) {
                    duplicates += 1;
                    continue;
                }
            }
            let name = path.display().to_string();
            let record = match read {
                Ok((_, Ok(record))) => record,
                Ok((text, Err(error))) => {
                    unreadable += 1;
                    // A game of a known type still counts as one of its games.
                    if let Some((key, type_name)) = type_in(&text) {
                        let gathered = types.entry(key).or_default();
                        if gathered.name.is_empty() {
                            gathered.name = type_name;
                        }
                        gathered.games += 1;
                        gathered.unreadable += 1;
                        if gathered.kept.len() + gathered.unreadable_first.len() < first {
                            gathered.unreadable_first.push(Departure {
                                file: name,
                                verdict: "unreadable",
                                ply: None,
                                message: error.to_string(),
                            });
                        }
                    }
                    continue;
                }
                Err(error) => {
                    unreadable += 1;
                    problems.line(format_args!("cannot read `{name}`: {error}"));
                    continue;
                }
            };
            let Some((key, type_name)) = site::type_of(&record) else {
                continue;
            };
            let gathered = types.entry(key).or_default();
            if gathered.name.is_empty() {
                gathered.name = type_name.to_string();
            }
            gathered.games += 1;
            gathered.tally.add(&record);
            if gathered.kept.len() + gathered.unreadable_first.len() < first {
                gathered.kept.push((name, record));
            }
        }
        if let Some(bar) = &progress {
            bar.inc(chunk.len() as u64);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    (types, unreadable, duplicates)
}

/// The type (number and name) of a record that could not be read as a game, if its text is
/// JSON that gives one.
fn type_in(text: &str) -> Option<(u32, String)> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let key = u32::try_from(value.get("AageGameTypeKey")?.as_u64()?).ok()?;
    let name = value
        .get("AageGameTypeName")
        .and_then(serde_json::Value::as_str)
        .map_or_else(String::new, site::type_name);
    Some((key, name))
}

/// How many of `games` each engine replays, in parallel over the games.
fn replays(engine: &Arc<Engine>, games: &[(String, GameRecord)]) -> usize {
    games
        .par_iter()
        .filter(|(_, record)| replay(engine, record).verdict == Verdict::Agrees)
        .count()
}

/// The games of `games` that `engine` does not replay, each with where and why it departs.
fn departures(engine: &Arc<Engine>, games: &[(String, GameRecord)]) -> Vec<Departure> {
    games
        .par_iter()
        .filter_map(|(file, record)| {
            let replayed = replay(engine, record);
            (replayed.verdict != Verdict::Agrees).then(|| Departure {
                file: file.clone(),
                verdict: replayed.verdict.category(),
                ply: replayed.verdict.ply(),
                message: replayed.describe(),
            })
        })
        .collect()
}

/// Finds the variant that replays most of a type's kept games, and what it does not replay.
fn check_type(
    key: u32,
    gathered: Gathered,
    checked: bool,
    candidates: &[(String, Arc<Engine>)],
) -> TypeReport {
    let mut report = TypeReport {
        key,
        name: gathered.name,
        games: gathered.games,
        unreadable: gathered.unreadable,
        checked,
        variant: None,
        replayed: 0,
        of: gathered.kept.len() + gathered.unreadable_first.len(),
        share: 0.0,
        covered: false,
        site: gathered.tally.figures(),
        tried: Vec::new(),
        departures: gathered.unreadable_first,
    };
    if !checked {
        report.departures.clear();
        return report;
    }
    let games = &gathered.kept;
    let screen = &games[..games.len().min(SCREEN)];
    let mut screened: Vec<(usize, &(String, Arc<Engine>))> = candidates
        .iter()
        .map(|candidate| (replays(&candidate.1, screen), candidate))
        .filter(|(replayed, _)| *replayed > 0)
        .collect();
    // Best first; among equals, the list's order (bundled before files asked for).
    screened.sort_by_key(|(replayed, _)| std::cmp::Reverse(*replayed));
    screened.truncate(FINALISTS);
    // Each finalist replays every game once; the departures of the one that replays most are
    // the type's.
    let mut tried: Vec<(Tried, Vec<Departure>)> = screened
        .into_iter()
        .map(|(_, (name, engine))| {
            let departures = departures(engine, games);
            let tried = Tried {
                variant: name.clone(),
                checked: games.len(),
                replayed: games.len() - departures.len(),
            };
            (tried, departures)
        })
        .collect();
    tried.sort_by_key(|(tried, _)| std::cmp::Reverse(tried.replayed));
    if let Some((best, departures)) = tried.first_mut() {
        report.variant = Some(best.variant.clone());
        report.replayed = best.replayed;
        report.departures.append(departures);
    }
    report.share = if report.of == 0 {
        0.0
    } else {
        report.replayed as f64 / report.of as f64
    };
    report.covered = report.of > 0 && report.share >= COVERED;
    report.tried = tried.into_iter().map(|(tried, _)| tried).collect();
    report
}

fn print_report(report: &SiteReport, summary: bool) {
    let named = report.types.len();
    outln!(
        "{} games of {named} types read{}.",
        report.games,
        if report.unreadable > 0 {
            format!(" ({} could not be read)", report.unreadable)
        } else {
            String::new()
        }
    );
    if report.checked_types == 0 {
        outln!("No type has enough games to check: --min-games lowers the bar.");
        return;
    }
    outln!();
    let checked = || report.types.iter().filter(|t| t.checked);
    let name = |t: &TypeReport| crate::printable::quoted(&t.name).into_owned();
    let width = checked()
        .map(|t| name(t).chars().count())
        .max()
        .unwrap_or(0)
        .max("the site's name".len());
    outln!(
        "{:>4}  {:<width$}  {:>6}  {:<24}  {:>9}  {:>18}",
        "type",
        "the site's name",
        "games",
        "replayed by",
        "replays",
        "site: attackers"
    );
    for t in checked() {
        let share = &t.site.attackers_share;
        outln!(
            "{:>4}  {:<width$}  {:>6}  {:<24}  {:>9}  {:>18}",
            t.key,
            name(t),
            t.games,
            t.variant.as_deref().unwrap_or("none"),
            format!(
                "{}/{}{}",
                t.replayed,
                t.of,
                if t.covered { " ok" } else { "" }
            ),
            format!("{:.2} ({:.2}-{:.2})", share.rate, share.low, share.high),
        );
        if !summary {
            for d in &t.departures {
                outln!(
                    "      {}: {}: {}",
                    d.file,
                    d.verdict.replace('_', " "),
                    d.message
                );
            }
        }
    }
    outln!();
    outln!(
        "Covered (a file replays at least 99 of every 100 games checked): {} of {} types, {} of {} games.",
        report.covered_types, report.checked_types, report.covered_games, report.checked_games
    );
    outln!("\"site: attackers\" is the attackers' share of the type's decided games on the site, with its 95% interval.");
}
