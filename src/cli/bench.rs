//! `tafl bench VARIANT`: perft and playout speed, one thread and all threads.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use super::load;

/// Arguments of `tafl bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Perft depth (the deepest that takes under about a second is chosen by default).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Random games per measurement.
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Ply cap of a random game.
    #[arg(long, default_value_t = 500)]
    pub cap: u32,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also time the search with this network evaluation (a file as `tafl train` writes it,
    /// or `rules` for the bundled one the rules choose), after the hand evaluation's, in the
    /// same run.
    #[arg(long, value_name = "FILE|rules")]
    pub network: Option<String>,
}

fn progress(text: &str) {
    eprint!("{text}");
    // Progress is best effort: a closed stderr must not stop the benchmark.
    let _ = std::io::stderr().flush();
}

/// Runs `tafl bench`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load::variant(&args.variant) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let engine = &loaded.engine;
    let start = engine.start();
    let threads = rayon::current_num_threads();

    // The deepest perft whose predicted time stays under about three seconds.
    let depth = args.depth.unwrap_or_else(|| {
        progress("choosing a perft depth");
        let mut depth = 1;
        loop {
            let timer = Instant::now();
            let nodes = engine.perft(&start, depth);
            let seconds = timer.elapsed().as_secs_f64();
            progress(".");
            let next = engine.count_moves(&start).max(2) as f64;
            if seconds * next > 3.0 || depth >= 8 || nodes == 0 {
                break depth;
            }
            depth += 1;
        }
    });
    progress(&format!("\nperft {depth}, 1 thread…"));
    let timer = Instant::now();
    let nodes = engine.perft(&start, depth);
    let single = timer.elapsed().as_secs_f64();
    progress(&format!(" {threads} threads…"));
    let timer = Instant::now();
    let nodes_parallel = engine.perft_parallel(&start, depth);
    let parallel = timer.elapsed().as_secs_f64();
    progress("\n");
    if nodes != nodes_parallel {
        eprintln!(
            "error: perft disagrees between 1 and {threads} threads: {nodes} vs {nodes_parallel}"
        );
        return ExitCode::FAILURE;
    }
    outln!("variant: {}", engine.rules().name);
    outln!("perft({depth}) = {nodes}");
    outln!(
        "  1 thread:   {:>8.3} s  {:>8.1} M leaves/s",
        single,
        nodes as f64 / single / 1e6
    );
    outln!(
        "  {threads} threads:  {:>8.3} s  {:>8.1} M leaves/s",
        parallel,
        nodes as f64 / parallel / 1e6
    );

    progress(&format!(
        "{} random games (cap {}), 1 thread…",
        args.games, args.cap
    ));
    let timer = Instant::now();
    let summary = engine.playouts(&start, args.games, args.seed, args.cap);
    let single = timer.elapsed().as_secs_f64();
    progress(&format!(" {threads} threads…"));
    let timer = Instant::now();
    let summary_parallel = engine.playouts_parallel(&start, args.games, args.seed, args.cap);
    let parallel = timer.elapsed().as_secs_f64();
    progress("\n");
    if summary != summary_parallel {
        eprintln!("error: playouts disagree between 1 and {threads} threads");
        return ExitCode::FAILURE;
    }
    outln!(
        "playouts: {}, {} ({:.1} per game); attackers {} defenders {} draws {} capped {}",
        crate::english::count(summary.games as usize, "game"),
        crate::english::count(summary.plies as usize, "ply"),
        summary.plies as f64 / summary.games.max(1) as f64,
        summary.attackers_win,
        summary.defenders_win,
        summary.draw,
        summary.capped
    );
    for (label, seconds) in [
        ("1 thread: ", single),
        (&format!("{threads} threads:") as &str, parallel),
    ] {
        outln!(
            "  {label} {:>8.3} s  {:>9.0} games/s  {:>6.2} M plies/s",
            seconds,
            summary.games as f64 / seconds,
            summary.plies as f64 / seconds / 1e6
        );
    }

    // The search from the start: time to each depth, and nodes per second, with the hand
    // evaluation and then (if asked) the network.
    let mut evaluations = vec![("hand evaluation".to_string(), crate::nnue::Choice::Hand)];
    if let Some(name) = &args.network {
        match super::best::network_choice(Some(name), engine.rules()) {
            Ok(choice) => match choice.network(engine.rules()) {
                Some(net) => evaluations.push((format!("network {}", net.name()), choice)),
                None => eprintln!("no bundled network fits {}", engine.rules().name),
            },
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(load::USAGE);
            }
        }
    }
    for (label, choice) in evaluations {
        search_speed(engine, &label, choice);
    }
    ExitCode::SUCCESS
}

/// The search from the start for 3 s with `choice`'s evaluation: nodes per second, and the time
/// to each depth.
fn search_speed(
    engine: &std::sync::Arc<crate::engine::Engine>,
    label: &str,
    choice: crate::nnue::Choice,
) {
    progress(&format!("search from the start, 1 thread, {label}…"));
    let game = crate::game::Game::new(engine.clone());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut lines = Vec::new();
    let limits =
        crate::search::Limits::time(std::time::Duration::from_secs(3)).with_network(choice);
    let report = crate::search::search(&game, &limits, &stop, |report| {
        lines.push(format!(
            "  depth {:>2}: {:>8.3} s  {:>10} nodes  {:>6.2} M nodes/s  {}",
            report.depth,
            report.elapsed.as_secs_f64(),
            report.nodes,
            report.nps() as f64 / 1e6,
            report.best.map(|m| m.to_string()).unwrap_or_default()
        ));
    });
    progress("\n");
    if let Ok(report) = report {
        outln!(
            "search, {label}: {} nodes in {:.3} s, {:.2} M nodes/s (1 thread, evaluation included)",
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nps() as f64 / 1e6
        );
        for line in lines {
            outln!("{line}");
        }
    }
}
