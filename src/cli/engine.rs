//! `tafl engine --protocol uci|gtp|opentafl`: the computer player over stdin and stdout, for
//! other programs (OpenTafl, hnefatafl-copenhagen, UCI-style tools). Searches run on a thread
//! so that `stop`, `isready` and `quit` are heard while thinking. A line that is not UTF-8, or
//! is longer than [`crate::protocol::line::MAX_LINE`], is answered as an error and the engine
//! goes on. The end of input stops the search in progress, which is still answered.

use std::collections::VecDeque;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::protocol::gtp::Gtp;
use crate::protocol::line::{LineError, LineReader};
use crate::protocol::opentafl::OpenTafl;
use crate::protocol::uci::Uci;
use crate::protocol::{run_job, Busy, Loaded, Protocol, Settings};
use crate::search::{CurrentMove, Progress, Report, SearchError};

/// Arguments of `tafl engine`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The protocol to speak.
    #[arg(long, value_enum)]
    pub protocol: ProtocolName,
    /// The variant (a bundled name or a .tafl file). UCI: the one played until `setoption name
    /// Variant` [default: copenhagen]. gtp: one per board size (repeat the option; default
    /// copenhagen for 11). OpenTafl ignores it: its `rules` command says the variant.
    #[arg(long, value_name = "VARIANT")]
    pub variant: Vec<String>,
    /// The deepest any search goes, in plies, unless UCI's `go depth` says otherwise; with no
    /// clock from the protocol, the whole limit (deterministic with one thread).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Thinking time per move when the protocol gives no clock and no --depth is set.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 32, value_name = "MIB")]
    pub hash: usize,
}

/// The protocols `tafl engine` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolName {
    /// UCI-like, any variant.
    Uci,
    /// hnefatafl-copenhagen's Hnefatafl Text Protocol.
    Gtp,
    /// The OpenTafl Engine Protocol.
    Opentafl,
}

/// Runs `tafl engine`.
pub fn run(args: &Args) -> ExitCode {
    let settings = Settings {
        variant: args
            .variant
            .first()
            .cloned()
            .unwrap_or_else(|| "copenhagen".to_string()),
        threads: usize::from(args.threads),
        hash_mb: args.hash,
        depth: args.depth,
        movetime: Duration::from_millis(args.movetime),
    };
    let result = match args.protocol {
        ProtocolName::Uci => {
            let variant = settings.variant.clone();
            match Uci::new(settings) {
                Ok(uci) => serve(uci),
                Err(error) => {
                    eprintln!("error: cannot load variant `{variant}`: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        ProtocolName::Gtp => {
            let names = if args.variant.is_empty() {
                vec!["copenhagen".to_string()]
            } else {
                args.variant.clone()
            };
            let mut boards = Vec::new();
            for name in &names {
                match Loaded::load(name) {
                    Ok(loaded) => boards.push(loaded),
                    Err(error) => {
                        eprintln!("error: cannot load variant `{name}`: {error}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            match Gtp::new(settings, boards) {
                Ok(gtp) => serve(gtp),
                Err(error) => {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        ProtocolName::Opentafl => serve(OpenTafl::new(settings)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The other program has closed the pipe: nothing more to say to it.
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A line from the host, or one that could not be read.
enum Input {
    Line(String),
    /// Not UTF-8, or too long: answered as the protocol answers an error, in its turn.
    Bad(LineError),
}

/// What the loop waits for.
enum Event {
    Input(Input),
    End,
    Progress(Report),
    Current(CurrentMove),
    Done(Result<Report, SearchError>),
}

/// The running search.
struct Running {
    stop: Arc<AtomicBool>,
    started: Instant,
    infinite: bool,
    /// The answer of an infinite search that ended before `stop`.
    held: Option<Result<Report, SearchError>>,
}

impl Running {
    /// Stops the search and takes its held answer, if it had already ended (an infinite
    /// search's answer waits for this).
    fn stop(&mut self) -> Option<Result<Report, SearchError>> {
        self.stop.store(true, Ordering::Relaxed);
        self.infinite = false;
        self.held.take()
    }
}

/// Serves `protocol` over stdin and stdout until it quits or stdin ends.
fn serve(mut protocol: impl Protocol) -> std::io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    std::thread::spawn(move || {
        for line in LineReader::new(std::io::stdin().lock()) {
            let input = match line {
                Ok(line) => Input::Line(line),
                // Stdin itself failed: no more input will come, as at its end.
                Err(LineError::Read(_)) => break,
                Err(bad) => Input::Bad(bad),
            };
            if reader.send(Event::Input(input)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::End);
    });
    let mut out = std::io::stdout().lock();
    write_lines(&mut out, &protocol.greeting())?;
    let mut running: Option<Running> = None;
    let mut deferred: VecDeque<Input> = VecDeque::new();
    let mut input_over = false;
    loop {
        if input_over && running.is_none() && deferred.is_empty() {
            return Ok(());
        }
        let event = match deferred.pop_front() {
            Some(input) if running.is_none() => Event::Input(input),
            Some(input) => {
                deferred.push_front(input);
                next(&inbox)
            }
            None => next(&inbox),
        };
        match event {
            Event::Input(input) => match (&mut running, input) {
                // Lines keep their order: behind a deferred line, every line waits.
                (Some(_), input) if !deferred.is_empty() => deferred.push_back(input),
                // A bad line is answered in its turn, like any command the search does not
                // handle.
                (Some(_), input @ Input::Bad(_)) => deferred.push_back(input),
                (Some(search), Input::Line(line)) => match protocol.handle_busy(&line) {
                    Busy::Reply(lines) => write_lines(&mut out, &lines)?,
                    Busy::Stop => {
                        if let Some(result) = search.stop() {
                            write_lines(&mut out, &protocol.finish(result))?;
                            running = None;
                        }
                    }
                    Busy::Limit(limit) => {
                        let wait = limit.saturating_sub(search.started.elapsed());
                        stop_after(&search.stop, wait);
                    }
                    Busy::Ponderhit(limit) => {
                        search.infinite = false;
                        if let Some(result) = search.held.take() {
                            write_lines(&mut out, &protocol.finish(result))?;
                            running = None;
                        } else if let Some(limit) = limit {
                            stop_after(&search.stop, limit);
                        }
                    }
                    Busy::Quit => {
                        search.stop.store(true, Ordering::Relaxed);
                        return Ok(());
                    }
                    Busy::Defer => deferred.push_back(Input::Line(line)),
                },
                (None, Input::Bad(error)) => {
                    write_lines(&mut out, &protocol.error_lines(&error.to_string()))?;
                }
                (None, Input::Line(line)) => {
                    let step = protocol.handle(&line);
                    write_lines(&mut out, &step.lines)?;
                    if step.quit {
                        return Ok(());
                    }
                    if let Some(job) = step.search {
                        // After the end of input nobody can say stop: a search asked for by
                        // the last lines stops at once and answers with what it has (the best
                        // root move finished, or the first).
                        let stop = Arc::new(AtomicBool::new(input_over));
                        running = Some(Running {
                            stop: stop.clone(),
                            started: Instant::now(),
                            infinite: job.infinite && !input_over,
                            held: None,
                        });
                        let events = events.clone();
                        std::thread::spawn(move || {
                            let result = run_job(&job, &stop, |said| {
                                let _ = events.send(match said {
                                    Progress::Depth(report) => Event::Progress(report.clone()),
                                    Progress::Current(current) => Event::Current(*current),
                                });
                            });
                            let _ = events.send(Event::Done(result));
                        });
                    }
                }
            },
            Event::Progress(report) => {
                if let Some(line) = protocol.progress(&report) {
                    write_lines(&mut out, &[line])?;
                }
            }
            Event::Current(current) => {
                if let Some(line) = protocol.current_move(&current) {
                    write_lines(&mut out, &[line])?;
                }
            }
            Event::Done(result) => {
                let hold = running
                    .as_ref()
                    .is_some_and(|r| r.infinite && !r.stop.load(Ordering::Relaxed));
                if hold {
                    if let Some(search) = &mut running {
                        search.held = Some(result);
                    }
                } else {
                    running = None;
                    write_lines(&mut out, &protocol.finish(result))?;
                }
            }
            Event::End => {
                // Input is over: nobody is left to say stop, and a search of absurd length
                // (`go depth 60`, a week's clock) would run on for nobody. The search in
                // progress stops now and is answered with what it found, and the lines waiting
                // for it are still answered, so a piped script gets every answer.
                input_over = true;
                if let Some(search) = &mut running {
                    if let Some(result) = search.stop() {
                        write_lines(&mut out, &protocol.finish(result))?;
                        running = None;
                    }
                }
            }
        }
    }
}

/// Sets `stop` once `wait` has passed. The flag belongs to one search only, so a late timer
/// cannot stop a later search.
fn stop_after(stop: &Arc<AtomicBool>, wait: Duration) {
    let stop = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(wait);
        stop.store(true, Ordering::Relaxed);
    });
}

fn next(inbox: &mpsc::Receiver<Event>) -> Event {
    // The reader thread holds a sender until it sends `End`, and the loop holds one too.
    inbox.recv().unwrap_or(Event::End)
}

fn write_lines(out: &mut impl Write, lines: &[String]) -> std::io::Result<()> {
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}
