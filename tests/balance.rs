//! `tafl balance`: the ladder's figures add up, the verdict follows the rungs, the contract's
//! JSON keys are there, and bad input exits 2 without writing a chart.

use std::process::Command;

fn tafl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_short_ladder_reports_each_rung_and_a_verdict() {
    let dir = std::env::temp_dir().join(format!("tafl-balance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("ladder.svg");
    let out = tafl(&[
        "balance",
        "brandubh",
        "--rungs",
        "10,5",
        "--games",
        "6",
        "--threads",
        "2",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rungs = json["rungs"].as_array().unwrap();
    // Sorted by budget, whatever order they were given in.
    let budgets: Vec<u64> = rungs.iter().map(|r| r["ms"].as_u64().unwrap()).collect();
    assert_eq!(budgets, [5, 10]);
    for rung in rungs {
        let count = |key: &str| rung[key].as_u64().unwrap();
        assert_eq!(count("games"), 6);
        assert_eq!(
            count("attackers_win") + count("defenders_win") + count("draws"),
            6
        );
        let decisive = count("attackers_win") + count("defenders_win");
        let (low, high) = (
            rung["low"].as_f64().unwrap(),
            rung["high"].as_f64().unwrap(),
        );
        assert!(low <= high);
        match rung["share"].as_f64() {
            Some(share) => {
                assert!(decisive > 0);
                assert!((share - count("attackers_win") as f64 / decisive as f64).abs() < 1e-9);
                assert!(low <= share && share <= high);
            }
            None => assert_eq!(decisive, 0),
        }
    }
    // The figure to read is the top rung's; settled means the two rungs agree.
    assert_eq!(json["share"], rungs[1]["share"]);
    let agrees = |a: &serde_json::Value, b: &serde_json::Value| match a["share"].as_f64() {
        Some(share) => b["low"].as_f64().unwrap() <= share && share <= b["high"].as_f64().unwrap(),
        None => false,
    };
    let settled = agrees(&rungs[0], &rungs[1]) && agrees(&rungs[1], &rungs[0]);
    assert_eq!(json["settled"].as_bool().unwrap(), settled);
    assert_eq!(json["evaluation"], "small-corners");
    // The designer's figure is read from openings people would play.
    assert_eq!(json["opening_moves"], "plausible");
    // A corner-escape variant's figure carries the warning that the attackers' plan is missing.
    assert!(json["caveat"].as_str().unwrap().contains("corners"));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("10 ms a move"));
}

/// One game of Brandubh at 1 ms, one thread, with `more` arguments: for tests that read the
/// summary, not the games.
fn one_game(more: &[&str]) -> std::process::Output {
    let args = [
        "balance",
        "brandubh",
        "--rungs",
        "1",
        "--games",
        "1",
        "--threads",
        "1",
    ];
    tafl(&[&args[..], more].concat())
}

#[test]
fn the_words_say_how_the_openings_were_drawn() {
    let out = one_game(&[]);
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.contains("from 4 plausible random opening plies (seed 1)"),
        "{words}"
    );
    let out = one_game(&["--opening-moves", "any", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["opening_moves"], "any");
    // The default techniques are said by empty lists, and no line of words.
    assert_eq!(json["off"], serde_json::json!([]));
    assert_eq!(json["on"], serde_json::json!([]));
    assert!(!words.contains("search techniques"), "{words}");
}

#[test]
fn the_search_techniques_can_be_chosen_and_are_said() {
    // A designer comparing players, or the player before a technique: `--off`, `--on`.
    let chosen = ["--off", "corner-chase,futility", "--on", "fort-watch"];
    let out = one_game(&chosen);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.contains("search techniques turned off: corner-chase, futility; on: fort-watch"),
        "{words}"
    );
    let out = one_game(&[&chosen[..], &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["off"], serde_json::json!(["corner-chase", "futility"]));
    assert_eq!(json["on"], serde_json::json!(["fort-watch"]));
    // A name that is no technique is bad input.
    let out = tafl(&["balance", "brandubh", "--off", "cleverness"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cleverness"));
}

#[test]
fn bad_input_exits_2_and_writes_no_chart() {
    let dir = std::env::temp_dir().join(format!("tafl-balance-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("never.svg");
    let out = tafl(&["balance", "no-such-variant", "--svg", svg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!svg.exists());
    // An edge-escape variant has no such warning.
    let out = tafl(&[
        "balance", "ard-ri", "--rungs", "1", "--games", "1", "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["caveat"].is_null());
    let out = tafl(&["balance", "brandubh", "--rungs", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tafl(&["balance", "brandubh", "--resign", "many"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SCORE,MOVES"));
    let out = tafl(&["balance", "brandubh", "--weights", "nowhere.json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn each_level_has_its_figure_and_the_first_is_the_headline() {
    let out = tafl(&[
        "balance",
        "brandubh",
        "--level",
        "people,depth:1,engine",
        "--rungs",
        "2",
        "--games",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["level"], "people");
    let levels = json["levels"].as_array().unwrap();
    let names: Vec<&str> = levels
        .iter()
        .map(|l| l["level"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["people", "depth:1", "engine"]);
    for level in levels {
        assert_eq!(level["games"].as_u64(), Some(3));
        let (low, high) = (
            level["low"].as_f64().unwrap(),
            level["high"].as_f64().unwrap(),
        );
        assert!(0.0 <= low && low <= high && high <= 1.0);
        match level["share"].as_f64() {
            Some(share) => assert!(low <= share && share <= high),
            None => assert_eq!(level["decisive"].as_u64(), Some(0)),
        }
    }
    // The engine's figure is its ladder's top rung.
    assert_eq!(levels[2]["share"], json["rungs"][0]["share"]);
    assert!(json["meaning"].as_str().unwrap().contains("for people"));
    // Without the engine there is no ladder.
    let out = tafl(&[
        "balance",
        "brandubh",
        "--level",
        "people",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["levels"].as_array().unwrap().len(), 1);
    assert!(json.get("rungs").is_none());
    assert!(json["verdict"].as_str().unwrap().contains("people level"));
}

#[test]
fn a_level_that_is_none_exits_2_and_names_the_levels() {
    for bad in ["peple", "depth:0", "people:0", "engine:1", ""] {
        let out = tafl(&["balance", "brandubh", "--level", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains("people") && message.contains("engine"),
            "{bad}: {message}"
        );
    }
    let out = tafl(&["balance", "brandubh", "--model", "nowhere.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere.json"));
}
