//! The command-line contract of `lint`, `show`, `ir` and `list`: outputs and exit codes.

use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn show_linnaeus_snapshot() {
    let output = tafl(&["show", "linnaeus"]);
    assert!(output.status.success());
    insta::assert_snapshot!("show_linnaeus", stdout(&output));
}

#[test]
fn show_brettspielnetz_snapshot() {
    let output = tafl(&["show", "brettspielnetz"]);
    assert!(output.status.success());
    insta::assert_snapshot!("show_brettspielnetz", stdout(&output));
}

#[test]
fn show_berserk_snapshot() {
    // Jumps, the berserk move and the commanders' sandwich of the king, in words.
    let output = tafl(&["show", "berserk"]);
    assert!(output.status.success());
    insta::assert_snapshot!("show_berserk", stdout(&output));
}

#[test]
fn list_names_every_bundled_variant() {
    let output = tafl(&["list"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for name in tafl::bundled_names() {
        assert!(
            text.lines().any(|line| line.starts_with(name)),
            "{name} missing from:\n{text}"
        );
    }
}

/// Issue 46: a library of dozens needs filters. Each filter keeps exactly the variants its rule
/// picks, read from the JSON every entry of which carries the fields filtered on.
#[test]
fn list_filters_by_family_board_source_and_escape() {
    let entries = |args: &[&str]| -> Vec<serde_json::Value> {
        let output = tafl(&[&["list", "--json"], args].concat());
        assert!(output.status.success(), "{args:?}");
        serde_json::from_str(&stdout(&output)).expect("tafl list --json prints JSON")
    };
    let all = entries(&[]);
    assert_eq!(all.len(), tafl::bundled_names().count());
    for entry in &all {
        for field in [
            "name", "title", "family", "board", "escape", "from", "source",
        ] {
            assert!(entry.get(field).is_some(), "{field} missing from {entry}");
        }
    }
    let names = |list: &[serde_json::Value]| -> Vec<String> {
        list.iter()
            .map(|entry| entry["name"].as_str().unwrap().to_string())
            .collect()
    };
    let tablut = entries(&["--family", "Tablut"]);
    assert!(names(&tablut).contains(&"linnaeus".to_string()));
    assert!(tablut.iter().all(|entry| entry["family"] == "tablut"));
    let nine_corners = entries(&["--board", "9x9", "--escape", "corners"]);
    assert!(names(&nine_corners).contains(&"brettspielnetz".to_string()));
    assert!(nine_corners
        .iter()
        .all(|entry| entry["board"] == "9x9" && entry["escape"] == "corners"));
    assert_eq!(
        entries(&["--board", "9"]).len(),
        entries(&["--board", "9x9"]).len()
    );
    let site = entries(&["--source", "AAGENIELSEN"]);
    assert!(names(&site).contains(&"copenhagen".to_string()));
    assert!(!names(&site).contains(&"linnaeus".to_string()));
    assert!(site.len() < all.len());
    // The table: a header, then one row a variant; nothing matched is said, and exits 1.
    let table = stdout(&tafl(&["list", "--family", "brandubh"]));
    assert!(table.starts_with("NAME"), "{table}");
    assert!(
        table
            .lines()
            .skip(1)
            .all(|line| line.contains(" brandubh ")),
        "{table}"
    );
    let none = tafl(&["list", "--board", "8"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("No bundled variant matches"));
    let bad = tafl(&["list", "--board", "nine"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`9x9`"));
}

#[test]
fn ir_prints_parseable_json() {
    let output = tafl(&["ir", "brettspielnetz"]);
    assert!(output.status.success());
    let rules = tafl::Rules::from_json(&stdout(&output)).expect("tafl ir prints the IR");
    assert_eq!(rules.first_to_move, tafl::Side::Defenders);
}

#[test]
fn a_variant_given_by_path_works() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/linnaeus.tafl");
    let output = tafl(&["show", path]);
    assert!(output.status.success());
    assert!(stdout(&output).starts_with("Linnaeus' Tablut"));
}

#[test]
fn unknown_variant_is_a_clear_error() {
    let output = tafl(&["show", "no-such-variant"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no variant `no-such-variant`"), "{stderr}");
    assert!(
        stderr.contains("`tafl list`"),
        "the message says where the bundled names are: {stderr}"
    );
    // A misspelt bundled name (or alias) is named, instead of a list of dozens.
    let misspelt = tafl(&["show", "copenhagn"]);
    let stderr = String::from_utf8_lossy(&misspelt.stderr);
    assert!(stderr.contains("did you mean `copenhagen`?"), "{stderr}");
    let alias = tafl(&["show", "hnefatafel"]);
    let stderr = String::from_utf8_lossy(&alias.stderr);
    assert!(stderr.contains("did you mean `hnefatafl`?"), "{stderr}");
}

#[test]
fn broken_variant_is_refused_with_its_diagnostics() {
    let dir = std::env::temp_dir().join(format!("tafl-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("broken.tafl");
    std::fs::write(&path, "board 9 x 9\nsetup\n. . .\nend\n").expect("write");
    let path = path.to_string_lossy().into_owned();
    for command in ["show", "ir"] {
        let output = tafl(&[command, &path]);
        assert_eq!(output.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("tafl::check::setup_height"),
            "{command}: {stderr}"
        );
    }
    let output = tafl(&["lint", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("tafl::check::setup_width"));
}

#[test]
fn help_explains_variant_argument() {
    let output = tafl(&["--help"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for command in ["lint", "show", "ir", "list"] {
        assert!(text.contains(command), "--help lacks {command}");
    }
    assert!(text.contains("VARIANT"));
}

/// A reader that stops early (`tafl ir copenhagen | head -1`) closes the pipe: the program ends
/// quietly, as Unix tools do, instead of panicking on its next print.
#[cfg(unix)]
#[test]
fn a_closed_output_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    // The reading end is closed before the program starts, so its first print finds no reader.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["ir", "copenhagen"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("tafl runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.signal(), Some(13), "ended by SIGPIPE");
}

#[test]
fn a_from_that_names_no_readable_file_says_cannot_read() {
    // Issue 47: a missing file, a directory or an empty file was read as a one-rank position.
    let dir = std::env::temp_dir().join(format!("tafl-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let missing = dir.join("missing.txt");
    for (from, says) in [
        (missing.to_str().unwrap(), "no such file"),
        (dir.to_str().unwrap(), "it is a directory"),
        (empty.to_str().unwrap(), "holds no diagram"),
        ("position.txt", "no such file"),
    ] {
        let output = tafl(&["moves", "brandubh", "--from", from]);
        assert_eq!(output.status.code(), Some(2), "{from}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{from}: {stderr}");
        assert!(
            !stderr.contains("bad position"),
            "{from} read as a position: {stderr}"
        );
    }
    // A position string still reads as one.
    let output = tafl(&[
        "moves",
        "brandubh",
        "--from",
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_board_side_past_four_billion_is_not_misquoted() {
    // Issue 47: `board 99999999999999999999 x 9` was reported as a side of 4294967295.
    let dir = std::env::temp_dir().join(format!("tafl-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.tafl");
    std::fs::write(&path, "board 99999999999999999999 x 9\n").unwrap();
    let output = tafl(&["lint", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("a board side this large is not supported"),
        "{text}"
    );
    assert!(!text.contains("4294967295"), "{text}");
}

#[test]
fn control_characters_from_files_and_arguments_are_shown_not_obeyed() {
    // Issue 47: an escape sequence in a variant file or an argument reached the terminal raw
    // (it could set the window's title or clear the screen).
    let dir = std::env::temp_dir().join(format!("tafl-escapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("escapes.tafl");
    std::fs::write(
        &path,
        "board 9 x 9\n\u{1b}]0;pwned\u{7} kign\nthe \u{1b}[2Jking is armed\n",
    )
    .unwrap();
    let record = dir.join("escapes.txt");
    std::fs::write(&record, "d7-c7 \u{1b}]0;pwned\u{7}\n").unwrap();
    let runs = [
        tafl(&["games", "check", "brandubh", record.to_str().unwrap()]),
        tafl(&["lint", path.to_str().unwrap()]),
        tafl(&["lint", "\u{1b}[2Jmissing.tafl"]),
        tafl(&["moves", "brandubh", "--from", "/3t3/\u{1b}[2J/"]),
        tafl(&["replay", "brandubh", "\u{1b}[2J", "--json"]),
        tafl(&["show", "\u{1b}]0;title\u{7}"]),
    ];
    for output in runs {
        assert!(!output.status.success());
        for stream in [&output.stdout, &output.stderr] {
            assert!(
                !stream.iter().any(|&b| b == 0x1b || b == 0x07),
                "{}",
                String::from_utf8_lossy(stream)
            );
        }
        let said = String::from_utf8_lossy(&output.stderr).into_owned()
            + &String::from_utf8_lossy(&output.stdout);
        assert!(said.contains("\\u{1b}"), "the character is shown: {said}");
    }
}

#[test]
fn an_endless_file_is_refused_after_the_size_a_variant_may_be() {
    // Issue 47: `/dev/zero` was read to the end of memory before any check.
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    for command in ["lint", "show"] {
        let output = tafl(&[command, "/dev/zero"]);
        assert_eq!(output.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("larger than 1 MiB"), "{command}: {stderr}");
    }
    let output = tafl(&["playouts", "brandubh", "1", "--cap", "4294967295"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn games_stats_writes_no_chart_when_its_input_cannot_be_read() {
    // Issue 47: a missing input gave a "0 games" chart.
    let dir = std::env::temp_dir().join(format!("tafl-stats-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("chart.svg");
    let output = tafl(&[
        "games",
        "stats",
        "brandubh",
        dir.join("missing.csv").to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!svg.exists());
}

/// Issue 62: a variant whose name, family and notes hold ESC, BEL and a C1 CSI. Every face
/// prints them as escapes (`\u{1b}`), never raw, on either stream.
#[test]
fn control_characters_in_a_variant_are_printed_escaped_in_every_face() {
    let hostile = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/lint/control_character.tafl"
    );
    let rules = "dim:7 name:Bra\u{1b}]0;pwned\u{7}\u{9b}2J atkf:y surf:n ks:w cenh: cenhe: \
                 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let faces: &[&[&str]] = &[
        &["show", hostile],
        &["diff", hostile, "brandubh"],
        &["diff", "brandubh", hostile],
        &["export", "--opentafl", hostile],
        &["export", "--opentafl", "--nearest", hostile],
        &["import", "--opentafl", rules],
        &["ir", hostile],
        &["lint", hostile],
        &["lint", "--format", "json", hostile],
        &["moves", hostile],
    ];
    for args in faces {
        let output = tafl(args);
        let all = [output.stdout.as_slice(), output.stderr.as_slice()].concat();
        let text = String::from_utf8_lossy(&all);
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\u{9b}']),
            "{args:?} printed a control character:\n{text}"
        );
        assert!(
            text.contains("\\u{1b}") || args[0] == "moves",
            "{args:?} does not show the escape:\n{text}"
        );
    }
}

/// The IR as JSON skips the checker: a control character in one of its strings is refused.
#[test]
fn ir_json_with_a_control_character_is_refused() {
    let ir = tafl(&["ir", "brandubh"]);
    let text = stdout(&ir).replacen("\"Brandubh\"", "\"Bran\\u001b[2Jdubh\"", 1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.json");
    std::fs::write(&path, text).unwrap();
    let output = tafl(&["moves", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("control character"), "{message}");
    assert!(message.contains("Bran\\u{1b}[2Jdubh"), "{message}");
    assert!(!message.contains('\u{1b}'), "{message}");
}

/// `tafl best` says its score in words, as the REPL's `hint` does, and whose score it is.
#[test]
fn best_says_its_score_in_words_and_for_whom() {
    let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["best", "brandubh", "--depth", "2"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let in_words = ["about level", "better", "force a win"];
    assert!(
        in_words.iter().any(|words| stderr.contains(words)),
        "{stderr}"
    );
    // Brandubh's attackers move first: the score is theirs.
    assert!(stderr.contains("for the Attackers, to move"), "{stderr}");
    assert!(stderr.contains(" at depth 2, "), "{stderr}");
}
