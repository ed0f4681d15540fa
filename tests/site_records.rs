//! aagenielsen.dk's game records (tests/fixtures/aagenielsen/: the first 20 games of each tafl
//! type with 100 or more games in the published copy, see its README): read, replayed through
//! the bundled variants by `tafl games site`, and checked one variant at a time by `tafl games
//! check`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    PathBuf::from("tests/fixtures/aagenielsen")
}

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The sample's report: which file replays each type's games, the first place each game it
/// does not replay departs from the rules, and the site's balance. A variant file that comes to
/// replay a type (or stops replaying one) changes this snapshot.
#[test]
fn every_site_type_of_the_sample_is_checked_against_every_bundled_variant() {
    let output = tafl(&[
        "games",
        "site",
        "tests/fixtures/aagenielsen",
        "--min-games",
        "20",
    ]);
    let text = stdout(&output);
    // Not every type is covered yet: exit 1, as the command documents.
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    insta::assert_snapshot!("site_sample", text);
}

#[test]
fn the_report_in_json_gives_each_type_its_file_and_the_sites_figures() {
    let output = tafl(&[
        "games",
        "site",
        "tests/fixtures/aagenielsen",
        "--min-games",
        "20",
        "--type",
        "16",
        "--type",
        "53",
        "--json",
    ]);
    // Both types asked for are covered by their files: exit 0.
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["checked_types"], 2);
    assert_eq!(report["covered_types"], 2);
    let types = report["types"].as_array().unwrap();
    let copenhagen = types.iter().find(|t| t["key"] == 16).unwrap();
    assert_eq!(copenhagen["variant"], "copenhagen");
    assert_eq!(copenhagen["replayed"], 20);
    assert_eq!(copenhagen["name"], "Copenhagen Hnefatafl 11x11");
    let site = &copenhagen["site"];
    let decided = site["attackers"].as_u64().unwrap() + site["defenders"].as_u64().unwrap();
    assert_eq!(
        decided + site["draws"].as_u64().unwrap() + site["ongoing"].as_u64().unwrap(),
        20
    );
    let share = site["attackers_share"]["rate"].as_f64().unwrap();
    assert!((share - site["attackers"].as_f64().unwrap() / decided as f64).abs() < 1e-9);
    // Types not asked for are counted, not checked.
    let fetlar = types.iter().find(|t| t["key"] == 4).unwrap();
    assert_eq!(fetlar["checked"], false);
    assert_eq!(fetlar["games"], 20);
}

#[test]
fn games_check_reads_a_folder_of_site_records() {
    let output = tafl(&[
        "games",
        "check",
        "copenhagen",
        "tests/fixtures/aagenielsen/16",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 20);
    assert!(files
        .iter()
        .all(|f| f["format"] == "aagenielsen" && f["agrees"] == 1));
    // The same games under other rules disagree, and say where.
    let output = tafl(&[
        "games",
        "check",
        "historical-hnefatafl",
        "tests/fixtures/aagenielsen/16",
    ]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn bad_paths_and_bad_records_are_reported_without_a_panic() {
    let output = tafl(&["games", "site", "no/such/folder"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no/such/folder"));

    let dir = std::env::temp_dir().join(format!("tafl-site-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut sample: Vec<PathBuf> = std::fs::read_dir(fixtures().join("53"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    sample.sort();
    let game = std::fs::read_to_string(&sample[0]).unwrap();
    std::fs::write(dir.join("a.json"), &game).unwrap();
    // A game with a word that is no move, one that is not JSON, one that is not UTF-8.
    let first_move = game
        .split("\"Moves\": [")
        .nth(1)
        .unwrap()
        .split('"')
        .nth(1)
        .unwrap();
    std::fs::write(dir.join("b.json"), game.replacen(first_move, "zz9", 1)).unwrap();
    std::fs::write(dir.join("c.json"), "{ \"AageGameTypeKey\": 53, ").unwrap();
    std::fs::write(dir.join("d.json"), [0xff, 0xfe, b'{']).unwrap();
    let output = tafl(&[
        "games",
        "site",
        dir.to_str().unwrap(),
        "--min-games",
        "1",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["unreadable"], 3);
    let brandubh = &report["types"][0];
    assert_eq!(brandubh["key"], 53);
    // The game that is no JSON object names no type; the one with a bad move counts against
    // its type.
    assert_eq!(brandubh["games"], 2);
    assert_eq!(brandubh["replayed"], 1);
    assert_eq!(brandubh["of"], 2);
    let verdicts: Vec<&str> = brandubh["departures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["unreadable"]);
    // The file that is not text is named on standard error.
    assert!(stderr.contains("d.json"), "{stderr}");
    assert_eq!(output.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tafl list` shows which of the site's types each file plays (variants/aagenielsen/
/// site-types.json), and the sample bears each one out: the file named replays at least 18 of
/// the type's 20 sample games, as it replayed at least 90 of the first 100 of the whole copy.
#[test]
fn the_list_names_the_site_types_each_file_plays_and_the_sample_bears_them_out() {
    let output = tafl(&["list", "--json"]);
    assert!(output.status.success());
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let copenhagen = entries.iter().find(|e| e["name"] == "copenhagen").unwrap();
    let types = copenhagen["site_types"].as_array().unwrap();
    assert_eq!(types[0]["key"], 16);
    assert_eq!(types[0]["name"], "Copenhagen Hnefatafl 11x11");
    let linnaeus = entries.iter().find(|e| e["name"] == "linnaeus").unwrap();
    assert_eq!(linnaeus["site_types"], serde_json::json!([]));
    let table = stdout(&tafl(&["list"]));
    let row = table
        .lines()
        .find(|l| l.starts_with("copenhagen "))
        .unwrap();
    assert!(row.contains("Copenhagen Hnefatafl 11x11 (98%)"), "{row}");

    for site in tafl::site_types() {
        let folder = fixtures().join(site.key.to_string());
        let output = tafl(&[
            "games",
            "check",
            &site.variant,
            folder.to_str().unwrap(),
            "--json",
        ]);
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let agree: u64 = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["agrees"].as_u64().unwrap())
            .sum();
        assert!(
            agree >= 18,
            "{} replays {agree} of type {}'s sample",
            site.variant,
            site.key
        );
    }
}

/// The public copy holds the Copenhagen games twice (`gamesJSON` and `CopenhagenGamesJSON`): the
/// same file name with the same text is one game, but the same name with another text is not.
#[test]
fn a_game_found_twice_in_the_copy_counts_once() {
    let dir = std::env::temp_dir().join(format!("tafl-site-twice-{}", std::process::id()));
    let folder = fixtures().join("16");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    games.sort();
    let (one, other) = (&games[0], &games[1]);
    let name = one.file_name().unwrap();
    for sub in ["gamesJSON", "CopenhagenGamesJSON", "elsewhere"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(manifest.join(one), dir.join("gamesJSON").join(name)).unwrap();
    std::fs::copy(
        manifest.join(one),
        dir.join("CopenhagenGamesJSON").join(name),
    )
    .unwrap();
    // Another game under the same name: a different game, counted.
    std::fs::copy(manifest.join(other), dir.join("elsewhere").join(name)).unwrap();
    let output = tafl(&[
        "games",
        "site",
        dir.to_str().unwrap(),
        "--min-games",
        "1",
        "--type",
        "16",
        "--json",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games"], 2, "{}", stdout(&output));
    let copenhagen = report["types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"] == 16)
        .unwrap();
    assert_eq!(copenhagen["games"], 2);
}
