//! `tafl play` at a real (pseudo-)terminal: what a player types ahead, in one go, all runs in
//! order (issue 48: the lines after the first move were flushed away).
#![cfg(unix)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::pty::openpty;

/// Runs `tafl play ARGS` on a fresh pseudo-terminal, types each of `keys` in one write (a
/// pause of `between` after each), and returns everything it printed until it exits (or 60 s
/// pass: then the test fails).
fn play_at_a_terminal(args: &[&str], keys: &[&str], between: Duration) -> String {
    let pty = openpty(None, None).expect("a pseudo-terminal");
    let slave = || Stdio::from(pty.slave.try_clone().expect("the slave side again"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .arg("play")
        .args(args)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .stdin(slave())
        .stdout(slave())
        .stderr(slave())
        .spawn()
        .expect("tafl starts");
    // Only the child holds the slave side now, so reading the master ends when it exits.
    drop(pty.slave);
    let mut master = std::fs::File::from(pty.master);
    let mut writer = master.try_clone().expect("the master side again");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        // EIO once the child has gone: the output is complete.
        while let Ok(n @ 1..) = master.read(&mut buf) {
            out.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&out).into_owned()
    });
    // Let the program reach its prompt, then type everything at once, as a paste or a fast
    // typist does.
    std::thread::sleep(Duration::from_millis(500));
    for typed in keys {
        writer.write_all(typed.as_bytes()).expect("typed");
        std::thread::sleep(between);
    }
    let started = Instant::now();
    loop {
        if child.try_wait().expect("waits").is_some() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "tafl play did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("the reader ends")
}

#[test]
fn every_line_typed_ahead_runs_in_order() {
    let out = play_at_a_terminal(
        &["linnaeus"],
        &["a6-a7\re3-f3\rboard\rhistory\rquit\rquit\r"],
        Duration::ZERO,
    );
    assert!(out.contains("1. a6-a7  e3-f3"), "{out}");
    assert!(!out.contains("error"), "{out}");
}

#[test]
fn lines_typed_while_the_computer_thinks_run_after_its_move() {
    // The computer thinks 1.5 s for the Swedes; `history` and `quit` are typed meanwhile, and
    // the start of a line (`qu`) waits at the next prompt for its end.
    let out = play_at_a_terminal(
        &["linnaeus", "--ai", "defenders", "--time", "1500"],
        &["a6-a7\r", "history\rquit\rqu", "it\r"],
        Duration::from_millis(400),
    );
    assert!(out.contains("2 plies (the Muscovites first)"), "{out}");
    assert!(out.contains("The game (2 plies) is not saved"), "{out}");
}

#[test]
fn moves_on_one_line_and_in_capitals_are_played_in_turn() {
    let out = play_at_a_terminal(
        &["linnaeus"],
        &["A6-A7 e3-f3\rhistory\rquit\rquit\r"],
        Duration::ZERO,
    );
    assert!(out.contains("1. a6-a7  e3-f3"), "{out}");
}
