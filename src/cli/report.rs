//! `tafl report VARIANT [B] [--games N] [--time MS] [--ideal-plies N] [--json] [--html FILE]
//! [--svg DIR]`: the designer's report. Self-play of today's player for the variant (its
//! network where one is bundled), traced position by position; the measures of
//! [`crate::report`] in words, as JSON, as one HTML page with the charts, or the charts alone.
//! With B, both variants from the same openings (as `tafl compare`), each measure's difference
//! with its paired 95% interval.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::load;
use crate::report::{Differences, Interval, Measures, Trace};
use crate::search::duel::{opening_drawn, Adjudication, Opening, OpeningMoves};
use crate::search::Limits;

/// Arguments of `tafl report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The variant (a bundled name or a file).
    pub variant: String,
    /// A second variant to set beside the first, from the same openings.
    pub b: Option<String>,
    /// Games (openings, with B: each played in both variants).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Milliseconds a move.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 100,
        conflicts_with = "depth"
    )]
    pub time: u64,
    /// Search to this depth instead of for a time (the same games on every machine).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Games played at once [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// How each game starts.
    #[command(flatten)]
    pub opening: super::best::OpeningArgs,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies stops, a draw (`capped`).
    #[arg(long, default_value_t = 400)]
    pub cap: u32,
    /// The length the designer wants a game to have, in plies: the report says how far the
    /// games are from it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub ideal_plies: Option<u32>,
    /// The evaluation both sides play with.
    #[command(flatten)]
    pub player: super::best::PlayerArgs,
    /// Print one JSON object.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the report as a Markdown section (as docs/report.md holds them).
    #[arg(long)]
    pub markdown: bool,
    /// Also write one self-contained HTML page with the words and the charts to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write each chart as an SVG file into DIR (made if missing).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

/// How the games were played, as the JSON names it.
#[derive(Serialize)]
struct Setup {
    /// Which evaluation played: `network:<file name>` or `hand:<weights>` (as `best --json`).
    evaluation: String,
    games: u64,
    time_ms: Option<u64>,
    depth: Option<u32>,
    #[serde(flatten)]
    opening: Opening,
    seed: u64,
    cap: u32,
    seconds: f64,
}

/// One variant's report.
#[derive(Serialize)]
struct One {
    variant: String,
    #[serde(flatten)]
    setup: Setup,
    #[serde(flatten)]
    measures: Measures,
}

/// Two variants' reports and their differences.
#[derive(Serialize)]
struct Two {
    #[serde(flatten)]
    setup: Setup,
    a: Named,
    b: Named,
    /// B − A, per opening, with paired 95% intervals.
    differences: Differences,
    /// Openings that could not be replayed in B (B's own opening of the same seed was used).
    unshared_openings: u64,
}

#[derive(Serialize)]
struct Named {
    variant: String,
    #[serde(flatten)]
    measures: Measures,
}

/// Runs `tafl report`.
pub fn run(args: Args) -> ExitCode {
    // An unreadable variant is bad input: exit 2, after the loader's own words.
    let unreadable = |_| ExitCode::from(load::USAGE);
    let a = match load::variant(&args.variant).map_err(unreadable) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let b = match args.b.as_deref().map(load::variant).transpose() {
        Ok(b) => b,
        Err(_) => return ExitCode::from(load::USAGE),
    };
    let budget = match args.depth {
        Some(depth) => Limits::depth(depth),
        None => Limits::time(Duration::from_millis(args.time)),
    };
    // One player for both variants: the one A's rules choose, so that a difference is the
    // rules' and not the player's.
    let (limits, evaluation) = match args.player.apply(budget, a.engine.rules()) {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(load::USAGE);
        }
    };
    let limits = limits.for_one_of_many_games();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let opening = args.opening.opening(OpeningMoves::Plausible);
    let adjudication = Adjudication::cap(args.cap as usize);
    let started = Instant::now();
    let progress = load::GamesProgress::new(
        args.games * if b.is_some() { 2 } else { 1 },
        args.json || args.markdown,
    );
    let play = |index: u64| -> (Trace, Option<(Trace, bool)>) {
        let start = opening_drawn(&a.engine, args.seed, index, opening);
        let other = b.as_ref().map(|b| match super::compare::replay(b, &start) {
            Some(game) => (game, true),
            None => (opening_drawn(&b.engine, args.seed, index, opening), false),
        });
        progress.start();
        let trace_a = crate::report::play_from(start, &limits, adjudication);
        progress.finish();
        let trace_b = other.map(|(game, shared)| {
            progress.start();
            let trace = crate::report::play_from(game, &limits, adjudication);
            progress.finish();
            (trace, shared)
        });
        (trace_a, trace_b)
    };
    let played = match load::on_threads(
        threads,
        || (0..args.games).map(play).collect::<Vec<_>>(),
        || {
            use rayon::prelude::*;
            (0..args.games).into_par_iter().map(play).collect()
        },
    ) {
        Ok(played) => played,
        Err(code) => return code,
    };
    progress.clear();
    let setup = Setup {
        evaluation: super::best::evaluation_label(&limits, Some(&evaluation), a.engine.rules()),
        games: args.games,
        time_ms: limits.time.map(|t| t.as_millis() as u64),
        depth: limits.depth,
        opening,
        seed: args.seed,
        cap: args.cap,
        seconds: started.elapsed().as_secs_f64(),
    };
    let traces_a: Vec<Trace> = played.iter().map(|p| p.0.clone()).collect();
    let measures_a = Measures::of(&traces_a, args.ideal_plies);
    let name_a = a.engine.rules().name.clone();
    let Some(b) = b else {
        let one = One {
            variant: name_a,
            setup,
            measures: measures_a,
        };
        return finish(&args, &one, &[(&one.variant, &one.measures)], || {
            words_one(&one)
        });
    };
    let traces_b: Vec<Trace> = played
        .iter()
        .filter_map(|p| p.1.as_ref().map(|t| t.0.clone()))
        .collect();
    let unshared = played
        .iter()
        .filter(|p| p.1.as_ref().is_some_and(|t| !t.1))
        .count() as u64;
    let measures_b = Measures::of(&traces_b, args.ideal_plies);
    let two = Two {
        differences: Differences::between(&measures_a, &measures_b),
        setup,
        a: Named {
            variant: name_a,
            measures: measures_a,
        },
        b: Named {
            variant: b.engine.rules().name.clone(),
            measures: measures_b,
        },
        unshared_openings: unshared,
    };
    finish(
        &args,
        &two,
        &[
            (&two.a.variant, &two.a.measures),
            (&two.b.variant, &two.b.measures),
        ],
        || words_two(&two),
    )
}

/// Writes the page and the charts where asked, then prints the report: JSON, Markdown or
/// words. A file that cannot be written fails the run before anything is printed.
fn finish<T: Serialize>(
    args: &Args,
    summary: &T,
    reports: &[(&String, &Measures)],
    words: impl Fn() -> String,
) -> ExitCode {
    let drawn = match draw(reports) {
        Ok(drawn) => drawn,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(dir) = &args.svg {
        if let Err(e) = write_svgs(dir, &drawn) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &args.html {
        let title = reports
            .iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>()
            .join(" and ");
        if let Err(e) = super::output::write(path, page(&title, &words(), &drawn)) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    if args.markdown {
        out!("{}", markdown(reports, &words()));
        return ExitCode::SUCCESS;
    }
    super::report(summary, args.json, |_| words())
}

/// The charts of each report, as (file name, SVG): `outcome.svg`, ..., or with two reports
/// `a-outcome.svg` and `b-outcome.svg`.
fn draw(reports: &[(&String, &Measures)]) -> Result<Vec<(String, String)>, String> {
    let mut drawn = Vec::new();
    for (i, (name, measures)) in reports.iter().enumerate() {
        let prefix = match (reports.len(), i) {
            (1, _) => "",
            (_, 0) => "a-",
            _ => "b-",
        };
        for (stem, svg) in
            crate::report::charts::charts(name, measures).map_err(|e| e.to_string())?
        {
            drawn.push((format!("{prefix}{stem}.svg"), svg));
        }
    }
    Ok(drawn)
}

fn write_svgs(dir: &Path, drawn: &[(String, String)]) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot make the folder `{}`: {e}", dir.display()))?;
    for (file, svg) in drawn {
        super::output::write(&dir.join(file), svg).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One HTML page holding everything: the words, then each chart inline (no script, no style
/// sheet, no image or font fetched from anywhere).
fn page(title: &str, words: &str, drawn: &[(String, String)]) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>tafl report: {t}</title>\n<style>body{{font-family:sans-serif;max-width:1340px;\
         margin:2em auto;padding:0 1em}}figure{{display:inline-block;margin:0.5em}}\
         pre{{background:#f6f6f2;padding:1em;white-space:pre-wrap}}</style>\n</head>\n<body>\n\
         <h1>tafl report: {t}</h1>\n<pre>{w}</pre>\n",
        t = escape(title),
        w = escape(words)
    );
    for (file, svg) in drawn {
        // The SVG is a document of its own; inline, its XML declaration has no place.
        let body = svg.trim_start_matches(|c| c != '<');
        let body = match body.strip_prefix("<?xml") {
            Some(rest) => rest.split_once("?>").map_or(rest, |(_, after)| after),
            None => body,
        };
        html.push_str(&format!(
            "<figure id=\"{}\">\n{}\n</figure>\n",
            escape(file.trim_end_matches(".svg")),
            body.trim()
        ));
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// `text` for HTML: a control character as every face shows it (`\u{1b}`), the characters
/// HTML gives a meaning escaped.
fn escape(text: &str) -> String {
    crate::printable::shown(text)
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn ci(i: &Interval, scale: f64, digits: usize) -> String {
    format!(
        "{:.d$} ({:.d$} to {:.d$})",
        i.mean * scale,
        i.low * scale,
        i.high * scale,
        d = digits
    )
}

fn budget(s: &Setup) -> String {
    match (s.depth, s.time_ms) {
        (Some(depth), _) => format!("depth {depth}"),
        (_, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => String::new(),
    }
}

/// One report in words: a line a measure, each figure with its 95% interval.
fn measures_words(name: &str, m: &Measures) -> String {
    let o = &m.outcome;
    let endings: Vec<String> = m.endings.iter().map(|(r, n)| format!("{r} {n}")).collect();
    let d = &m.duration;
    let c = &m.board_coverage;
    let king = match (c.king_distance_start, c.king_distance_end) {
        (Some(start), Some(end)) => {
            format!("; the king {start:.1} steps from escape at the start, {end:.1} at the end")
        }
        _ => String::new(),
    };
    let ideal = match (d.ideal, d.ideal_distance) {
        (Some(ideal), Some(distance)) => {
            format!("; {} from the ideal {ideal} on average", percent(distance))
        }
        _ => String::new(),
    };
    format!(
        "{name}\n\
         outcome: attackers win {} ({}, 95% interval {} to {}), defenders {} ({}, {} to {}), \
         draws {} (capped {})\n\
         endings: {}\n\
         first move ({}): {} points a game\n\
         duration: mean {} plies, median {:.0}, sd {:.1}, {} to {}{ideal}\n\
         decisiveness: {} of {} games decided before the end, at {} of the game; \
         the winner behind in {} of positions; the evaluation moves {} soldiers a move\n\
         lead changes: {} a game ({} games with one)\n\
         branching: {} moves a position, {} of positions with a choice, game tree 10^{}\n\
         board: {} of the squares used a game ({} over all games); pieces {:.1}/{:.1} at the \
         start, {:.1}/{:.1} at the end{king}\n\
         openings: {} different of {}\n",
        o.attackers_win,
        percent(o.attackers.rate),
        percent(o.attackers.low),
        percent(o.attackers.high),
        o.defenders_win,
        percent(o.defenders.rate),
        percent(o.defenders.low),
        percent(o.defenders.high),
        o.draw,
        o.capped,
        endings.join(", "),
        match o.first_mover {
            crate::ir::Side::Attackers => "the attackers",
            crate::ir::Side::Defenders => "the defenders",
        },
        ci(&o.first_mover_score, 1.0, 2),
        ci(&d.mean, 1.0, 1),
        d.median,
        d.sd,
        d.min,
        d.max,
        m.decisiveness.decided_games,
        m.games,
        ci(&m.decisiveness.decision, 1.0, 2),
        ci(&m.decisiveness.drama, 1.0, 2),
        ci(&m.decisiveness.instability, 1.0, 2),
        ci(&m.lead_changes.mean, 1.0, 2),
        m.lead_changes.games_with_a_change,
        ci(&m.branching.mean, 1.0, 1),
        ci(&m.branching.decision_moves, 1.0, 2),
        ci(&m.branching.log10_tree_size, 1.0, 0),
        ci(&c.mean, 1.0, 2),
        percent(c.all_games),
        c.pieces_start.attackers,
        c.pieces_start.defenders,
        c.pieces_end.attackers,
        c.pieces_end.defenders,
        m.openings.distinct,
        m.games,
    )
}

fn setup_words(s: &Setup) -> String {
    format!(
        "{} games at {}, {} (seed {}), cap {} plies; evaluation {}; {:.1} s\n",
        s.games,
        budget(s),
        s.opening,
        s.seed,
        s.cap,
        s.evaluation,
        s.seconds
    )
}

fn words_one(one: &One) -> String {
    format!(
        "{}{}",
        setup_words(&one.setup),
        measures_words(&one.variant, &one.measures)
    )
}

fn words_two(two: &Two) -> String {
    let d = &two.differences;
    let line = |what: &str, i: &Interval, scale: f64| {
        format!(
            "  {what}: {:+.2} ({:+.2} to {:+.2}){}\n",
            i.mean * scale,
            i.low * scale,
            i.high * scale,
            if i.excludes_zero() {
                ", beyond the noise"
            } else {
                ""
            }
        )
    };
    format!(
        "{}{}\n{}\n{} minus {}, per opening, with 95% intervals{}:\n{}{}{}{}{}{}{}{}",
        setup_words(&two.setup),
        measures_words(&two.a.variant, &two.a.measures),
        measures_words(&two.b.variant, &two.b.measures),
        two.b.variant,
        two.a.variant,
        if two.unshared_openings > 0 {
            format!(
                " ({} openings illegal in the second: its own used)",
                two.unshared_openings
            )
        } else {
            String::new()
        },
        line("attackers' points in 100", &d.attackers_score, 100.0),
        line("plies", &d.plies, 1.0),
        line("lead changes", &d.lead_changes, 1.0),
        line("decided at (share of the game)", &d.decision, 1.0),
        line("drama", &d.drama, 1.0),
        line("legal moves a position", &d.branching, 1.0),
        line("log10 game tree", &d.log10_tree_size, 1.0),
        line("board coverage", &d.board_coverage, 1.0),
    )
}

/// The report as a Markdown section: a heading, then the words as a block.
fn markdown(reports: &[(&String, &Measures)], words: &str) -> String {
    let title = reports
        .iter()
        .map(|r| r.0.as_str())
        .collect::<Vec<_>>()
        .join(" and ");
    format!("### {title}\n\n```text\n{}```\n", words)
}
