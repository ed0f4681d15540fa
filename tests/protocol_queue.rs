//! The engine session's queue (issue 62, items 5 and 8): while a search runs, `stop`,
//! `isready` and `quit` (OpenTafl's `finish`) are answered at once whatever lines wait before
//! them, and the other lines are answered in order once the search is over. The session runs
//! in-process ([`tafl::protocol::serve::serve`]) on a pipe the test writes into, line by line,
//! and reads from as the session writes.

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use proptest::prelude::*;
use tafl::protocol::opentafl::OpenTafl;
use tafl::protocol::serve::serve;
use tafl::protocol::uci::Uci;
use tafl::protocol::{Protocol, Settings};

/// What the session reads: the lines the test sends, until the test drops its end.
struct Input {
    lines: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// What the session writes, passed on to the test.
struct Output(Sender<Vec<u8>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // A test that has stopped reading no longer cares.
        let _ = self.0.send(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A session running on its own thread, and the test's ends of its pipes.
struct Session {
    send: Sender<Vec<u8>>,
    written: Receiver<Vec<u8>>,
    partial: Vec<u8>,
    /// The session's result, once it has ended.
    ended: Receiver<std::io::Result<()>>,
}

/// Longer than any answer here takes: only a session that never answers reaches it, and then
/// the test fails instead of hanging.
const HANG: Duration = Duration::from_secs(120);

impl Session {
    fn start(protocol: impl Protocol + Send + 'static) -> Session {
        let (send, lines) = mpsc::channel();
        let (out, written) = mpsc::channel();
        let input = BufReader::new(Input {
            lines,
            pending: Vec::new(),
        });
        let (done, ended) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(serve(protocol, input, Output(out)));
        });
        Session {
            send,
            written,
            partial: Vec::new(),
            ended,
        }
    }

    fn send(&self, line: &str) {
        self.send.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// The next line the session writes.
    fn line(&mut self) -> String {
        loop {
            if let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.partial.drain(..=end).collect();
                return String::from_utf8(line).unwrap().trim_end().to_string();
            }
            match self.written.recv_timeout(HANG) {
                Ok(bytes) => self.partial.extend(bytes),
                Err(RecvTimeoutError::Timeout) => panic!("the session did not answer"),
                Err(RecvTimeoutError::Disconnected) => panic!("the session ended"),
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let found = line.starts_with(prefix);
            lines.push(line);
            if found {
                return lines;
            }
        }
    }

    /// Waits for the session to end by itself (not by the end of its input, which the test
    /// still holds open).
    fn ended(self) -> std::io::Result<()> {
        let result = self
            .ended
            .recv_timeout(HANG)
            .expect("the session did not end");
        drop(self.send);
        result
    }
}

fn uci() -> Session {
    let settings = Settings {
        variant: "brandubh".to_string(),
        hash_mb: 1,
        ..Settings::default()
    };
    Session::start(Uci::new(settings).unwrap())
}

/// A line sent while the search thinks.
#[derive(Clone, Debug)]
enum Sent {
    Unknown(String),
    IsReady,
    Position,
    Blank,
}

impl Sent {
    fn text(&self) -> String {
        match self {
            Sent::Unknown(word) => word.clone(),
            Sent::IsReady => "isready".to_string(),
            Sent::Position => "position startpos moves d1c1".to_string(),
            Sent::Blank => "   ".to_string(),
        }
    }
}

fn sent() -> impl Strategy<Value = Sent> {
    prop_oneof![
        // Words UCI does not know (`x` first, so never one of its commands).
        "x[a-z]{0,8}".prop_map(Sent::Unknown),
        Just(Sent::IsReady),
        Just(Sent::Position),
        Just(Sent::Blank),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any lines sent during `go infinite`: every `isready` is answered `readyok` while the
    /// search still thinks, `stop` brings the best move, the unknown words are answered after
    /// it, in order, and `quit` ends the session.
    #[test]
    fn urgent_lines_are_answered_whatever_waits_before_them(lines in prop::collection::vec(sent(), 0..12)) {
        let mut session = uci();
        session.send("position startpos");
        session.send("go infinite");
        session.until("info depth 1 ");
        for line in &lines {
            session.send(&line.text());
        }
        let ready = lines.iter().filter(|l| matches!(l, Sent::IsReady)).count();
        let mut before_stop = Vec::new();
        for _ in 0..ready {
            before_stop.extend(session.until("readyok"));
        }
        // An infinite search never answers by itself: no best move before `stop`.
        prop_assert!(before_stop.iter().all(|l| !l.starts_with("bestmove")), "{before_stop:?}");
        session.send("stop");
        let answer = session.until("bestmove ");
        prop_assert!(answer.iter().all(|l| !l.starts_with("info string error")), "{answer:?}");
        // Then the lines that waited, in order: one error for each unknown word.
        session.send("isready");
        let after = session.until("readyok");
        let errors: Vec<&String> = after.iter().filter(|l| l.starts_with("info string error")).collect();
        let unknown: Vec<&String> = lines
            .iter()
            .filter_map(|l| match l { Sent::Unknown(word) => Some(word), _ => None })
            .collect();
        prop_assert_eq!(errors.len(), unknown.len(), "{:?}", after);
        for (error, word) in errors.iter().zip(&unknown) {
            prop_assert!(error.contains(&format!("`{word}`")), "{error} for {word}");
        }
        session.send("quit");
        prop_assert!(session.ended().is_ok());
    }
}

#[test]
fn quit_behind_an_unknown_word_ends_a_search_at_once() {
    let mut session = uci();
    session.send("go infinite");
    session.until("info depth 1 ");
    session.send("bogus");
    session.send("quit");
    assert!(session.ended().is_ok());
}

#[test]
fn opentafl_finish_behind_an_unknown_word_ends_the_analysis() {
    let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let settings = Settings {
        hash_mb: 1,
        ..Settings::default()
    };
    let mut session = Session::start(OpenTafl::new(settings).unwrap());
    session.send(&format!("rules {rules}"));
    // An analysis of a thousand million seconds, unless `finish` ends it.
    session.send("analyze 1 1000000000000");
    session.send("bogus");
    session.send("finish");
    // Once the analysis is over, the waiting line is answered.
    let lines = session.until("error");
    assert!(lines.last().unwrap().contains("`bogus`"), "{lines:?}");
    session.send("goodbye");
    assert!(session.ended().is_ok());
}
