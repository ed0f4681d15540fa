//! Every example the `--help` texts show runs as the text says: each line under `Examples:` of
//! `tafl --help` and of each command's help is run from the repository's root, and exits 0, or
//! the code its comment names (`# exits 1: ...`).

use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn help(args: &[&str]) -> String {
    let output = tafl(args);
    assert!(output.status.success(), "{args:?} exits 0");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The commands `tafl --help` lists.
fn commands() -> Vec<String> {
    let top = help(&["--help"]);
    let listed = top
        .split("Commands:\n")
        .nth(1)
        .expect("tafl --help lists its commands");
    listed
        .lines()
        .take_while(|line| !line.is_empty())
        // A command's line starts two spaces in; its description's continuations further.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The examples of a help text: each line under `Examples:` that starts with `tafl`, and the
/// exit code its comment names (0 without one).
fn examples(text: &str) -> Vec<(Vec<String>, i32)> {
    let Some(section) = text.split("Examples:\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| {
            let (command, comment) = line.split_once('#').unwrap_or((line, ""));
            let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
            if words.first().map(String::as_str) != Some("tafl") {
                return None;
            }
            let code = comment
                .trim()
                .strip_prefix("exits ")
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|digits| digits.parse().ok())
                .unwrap_or(0);
            Some((words[1..].to_vec(), code))
        })
        .collect()
}

#[test]
fn the_extractor_reads_commands_and_codes() {
    let text = "About\n\nExamples:\n  tafl show brandubh\n  tafl lint bad.tafl   # exits 1: an error\n\nMore\n  tafl not-an-example\n";
    assert_eq!(
        examples(text),
        vec![
            (vec!["show".to_string(), "brandubh".to_string()], 0),
            (vec!["lint".to_string(), "bad.tafl".to_string()], 1),
        ]
    );
}

#[test]
fn every_help_example_runs_as_documented() {
    let commands = commands();
    assert!(commands.len() > 20, "{commands:?}");
    let mut run = 0;
    for command in &commands {
        for (args, code) in examples(&help(&[command, "--help"])) {
            assert_eq!(
                &args[0], command,
                "an example of `{command}` runs `{command}`"
            );
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let output = tafl(&args);
            assert_eq!(
                output.status.code(),
                Some(code),
                "tafl {}: {}{}",
                args.join(" "),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            run += 1;
        }
    }
    // The commands whose help shows examples today: lint (3), show, diff, moves, replay, best
    // (2 each), export (1).
    assert!(run >= 14, "{run} examples");
}

/// `tafl replay` prints text without `--json`, as its help says, and JSON with it.
#[test]
fn replay_prints_text_and_json_as_its_help_says() {
    let text = tafl(&["replay", "brandubh", "a4-a3"]);
    assert!(text.status.success());
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        serde_json::from_str::<serde_json::Value>(&stdout).is_err(),
        "{stdout}"
    );
    assert!(stdout.contains("to move"), "{stdout}");
    let json = tafl(&["replay", "--json", "brandubh", "a4-a3"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["plies"][0]["move"], "a4-a3");
    let help = help(&["replay", "--help"]);
    assert!(!help.contains("only output"), "{help}");
}
