//! `tafl play` driven through a pipe: each script in `tests/repl/*.txt` is fed to the real binary
//! and its output compared with an insta snapshot. A script's first line, `# args: ...`, gives
//! the command-line arguments after `play`; an optional second line `# columns: N` the width the
//! output is fitted to (80 otherwise, as from a pipe). Times the computer reports (`0.4 s`)
//! vary from run to run and are written `‹time›` in the snapshots. Scripts run in a fresh temporary folder holding copies
//! of `tests/repl/records/*`, so `save`/`load` use relative paths and no path reaches a snapshot.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder with the fixture records in it.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-repl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(manifest().join("tests/repl/records")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

fn play(args: &[&str], input: &str, dir: &Path) -> Output {
    play_at(args, input, dir, 80)
}

fn play_at(args: &[&str], input: &str, dir: &Path, columns: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", columns.to_string())
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn transcripts() {
    insta::glob!("repl/*.txt", |path| {
        let script = std::fs::read_to_string(path).unwrap();
        let args: Vec<&str> = script
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("# args:"))
            .expect("a script starts with `# args: ...`")
            .split_whitespace()
            .collect();
        let columns: usize = script
            .lines()
            .nth(1)
            .and_then(|line| line.strip_prefix("# columns:"))
            .map_or(80, |n| {
                n.trim().parse().expect("`# columns: N` is a number")
            });
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = workdir(&name);
        let output = play_at(&args, &script, &dir, columns);
        let _ = std::fs::remove_dir_all(&dir);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(output.status.success(), "{name}: {stderr}");
        assert!(stderr.is_empty(), "{name} wrote to stderr: {stderr}");
        assert!(
            !stdout.contains('\x1b'),
            "{name}: escape codes in piped output"
        );
        assert!(!stdout.contains("> "), "{name}: a prompt in piped output");
        for line in stdout.lines() {
            assert!(
                line.chars().count() <= columns || line.trim_start().starts_with(char::is_numeric),
                "{name}: a line wider than {columns} columns that is not a board row: {line}"
            );
        }
        // The REPL joins a time and its unit with a no-break space.
        let times = regex::Regex::new(r"\b\d+\.\d\u{a0}s\b").unwrap();
        let stdout = times.replace_all(&stdout, "‹time›");
        insta::assert_snapshot!(format!("{script}\n----- output -----\n{stdout}"));
    });
}

#[test]
fn strict_stops_at_the_first_invalid_command_with_exit_1() {
    let dir = workdir("strict");
    let output = play(&["linnaeus", "--strict"], "a4-a3\nfoo\ne7-h7\n", &dir);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("error: unknown command `foo`"));
    assert!(!stdout.contains("play e7-h7"), "went on after the error");
    // Without --strict the same script goes on and exits 0.
    let output = play(&["linnaeus"], "a4-a3\nfoo\ne7-h7\n", &dir);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("The Swedes play e7-h7"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_with_errors_is_refused_with_its_diagnostics() {
    let dir = workdir("broken");
    std::fs::write(dir.join("broken.tafl"), "board 9 x 9\nsetup\nend\n").unwrap();
    let output = play(&["broken.tafl"], "", &dir);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("has errors"), "{stderr}");
    assert!(stderr.contains("tafl lint broken.tafl"), "{stderr}");
    let output = play(&["no-such-variant"], "", &dir);
    assert_eq!(output.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn end_of_input_and_quit_exit_0_and_nothing_panics_on_garbage() {
    let dir = workdir("garbage");
    let mut input = String::from("quit now\n\n   \n");
    for junk in [
        "\u{1F600}",
        "é1-e3",
        "-",
        "--",
        "a",
        "a99-a1",
        "e1-e3 x",
        "moves 0",
        "why -",
    ] {
        input.push_str(junk);
        input.push('\n');
    }
    input.push_str("quit\nthis line is never read\n");
    let output = play(&["linnaeus"], &input, &dir);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.matches("error:").count(), 10, "{stdout}");
    assert!(!stdout.contains("never read"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--ai both` prints each move as it is played, not all at the end: the first move is on
/// standard output while the game is still going (the delay after each move keeps it going).
#[test]
fn the_computer_playing_itself_prints_each_move_as_it_is_played() {
    use std::io::{BufRead, BufReader};
    let dir = workdir("both");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["play", "brandubh", "--ascii", "--ai", "both"])
        .args(["--depth", "1", "--delay", "2000"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines
        .by_ref()
        .map(|line| line.unwrap())
        .find(|line| line.starts_with("The computer (Attackers) plays"));
    assert!(first.is_some(), "no move was printed");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the game ended before its first move was read: moves are not printed as played"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
