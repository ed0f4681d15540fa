//! A session over a byte stream, as `tafl engine` runs one on stdin and stdout: lines are read
//! on a thread, searches run on another, so that `stop`, `isready` and `quit` are heard while
//! thinking, whatever lines wait before them. A line that is not UTF-8, or is longer than
//! [`super::line::MAX_LINE`], is answered as an error and the session goes on. The end of
//! input stops the search in progress, which is still answered.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::line::{LineError, LineReader};
use super::{run_job, Busy, Protocol};
use crate::search::{CurrentMove, Progress, Report, SearchError};

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

/// Serves `protocol` on `input` and `out` (stdin and stdout for `tafl engine`) until it quits
/// or `input` ends.
///
/// # Errors
/// Writing to `out` failed (the host has closed the pipe).
pub fn serve(
    mut protocol: impl Protocol,
    input: impl BufRead + Send + 'static,
    mut out: impl Write,
) -> std::io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    std::thread::spawn(move || {
        for line in LineReader::new(input) {
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
                // A bad line is answered in its turn, like any command the search does not
                // handle.
                (Some(_), input @ Input::Bad(_)) => deferred.push_back(input),
                // Every line is offered to the search as it arrives, even behind deferred
                // lines: those the protocol answers while thinking (`stop`, `isready`, `quit`,
                // OpenTafl's `finish`) are answered at once, and only the others queue, in
                // order. Once every line waited behind a deferred one, so that one unknown word
                // during `go infinite` hid `stop` until the input closed (issue 62).
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
