//! `tafl tune`, weights files and `tafl compare`: a small seeded fit writes a weights file the
//! search accepts; the rules, never the name, choose the weights a variant plays with; a
//! variant compared with itself moves nothing.

use std::process::Command;

use tafl::search::eval::WeightsFile;
use tafl::search::profile::Profile;
use tafl::search::{weights_for, WEIGHTS};
use tafl::Variant;

fn tafl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .unwrap()
}

/// `tafl` with `args`, which must succeed (else the test fails showing its stderr).
fn tafl_ok(args: &[&str]) -> std::process::Output {
    let out = tafl(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A fresh directory for a test's files, named for the test and this process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_small_fit_writes_a_weights_file_the_search_accepts() {
    let dir = scratch("tafl-tune");
    let file = dir.join("brandubh.json");
    let path = file.to_str().unwrap();
    tafl_ok(&[
        "tune", "brandubh", "--games", "12", "--rounds", "1", "--depth", "1", "--out", path,
    ]);
    let written: WeightsFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written.variant, "Brandubh");
    assert!(written.fitted.starts_with("tafl tune brandubh --games 12"));
    // The fit keeps a soldier at 100 and the fixed terms as they were.
    assert_eq!(written.weights.soldier, 100);
    assert_eq!(written.weights.escape_now, WEIGHTS.escape_now);
    // The same seed gives the same file.
    let again = dir.join("again.json");
    let out = tafl_ok(&[
        "tune",
        "brandubh",
        "--games",
        "12",
        "--rounds",
        "1",
        "--depth",
        "1",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
    let best = tafl(&[
        "best",
        "brandubh",
        "--depth",
        "2",
        "--weights",
        path,
        "--json",
    ]);
    assert!(
        best.status.success(),
        "{}",
        String::from_utf8_lossy(&best.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_weights_file_or_technique_is_refused() {
    let out = tafl(&[
        "best",
        "brandubh",
        "--depth",
        "1",
        "--weights",
        "/no/such.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read weights file"));
    let out = tafl(&[
        "best",
        "brandubh",
        "--depth",
        "1",
        "--weights",
        "Cargo.toml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a weights file"));
    let out = tafl(&["best", "brandubh", "--depth", "1", "--off", "magic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown search technique"));
}

#[test]
fn the_rules_choose_the_weights_and_a_renamed_or_reworded_copy_plays_the_same() {
    // Every file in variants/weights is a profile's, built in.
    let files: Vec<String> = std::fs::read_dir("variants/weights")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), Profile::ALL.len(), "{files:?}");
    for name in &files {
        let profile = Profile::named(name).unwrap_or_else(|| panic!("{name}: no such profile"));
        let text = std::fs::read_to_string(format!("variants/weights/{name}.json")).unwrap();
        assert_eq!(profile.file_text(), text, "{name}: not built in");
        let file: WeightsFile = serde_json::from_str(&text).unwrap();
        assert_eq!(profile.weights(), file.weights, "{name}");
    }
    // The families the matches divided along (docs/strength.md).
    let profile = |name: &str| Profile::of(&Variant::bundled(name).unwrap().rules);
    assert_eq!(profile("copenhagen"), Profile::Corners);
    assert_eq!(profile("fetlar"), Profile::Corners);
    assert_eq!(profile("brandubh"), Profile::SmallCorners);
    assert_eq!(profile("ard-ri"), Profile::SmallEdge);
    assert_eq!(profile("linnaeus"), Profile::EdgeSoldierKing);
    assert_eq!(profile("sea-battle-9x9"), Profile::Edge);
    // Every bundled variant's rules choose the weights its search uses.
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).unwrap().rules;
        assert_eq!(weights_for(&rules), Profile::of(&rules).weights(), "{name}");
    }
    // Another name, a source, a note: the same player.
    let mut rules = Variant::bundled("brandubh").unwrap().rules;
    rules.name.push_str(" (mine)");
    rules.notes.push("my house rules".to_string());
    assert_eq!(weights_for(&rules), Profile::SmallCorners.weights());
    // A file that changes a rule the weights do not follow (who moves first) keeps them too;
    // one that moves the escape from the corners to the edge gets the edge's.
    let text = std::fs::read_to_string("variants/copenhagen.tafl").unwrap();
    let swapped = text.replace("attackers move first", "defenders move first");
    assert_ne!(swapped, text);
    let swapped = Variant::from_text("mine.tafl", &swapped).unwrap().rules;
    assert_eq!(weights_for(&swapped), Profile::Corners.weights());
    let edge = text.replace(
        "defenders win when the king reaches a corner",
        "defenders win when the king reaches the edge",
    );
    assert_ne!(edge, text);
    let edge = Variant::from_text("mine.tafl", &edge).unwrap().rules;
    assert_eq!(Profile::of(&edge), Profile::Edge);
    assert_ne!(weights_for(&edge), Profile::Corners.weights());
}

#[test]
fn a_variant_compared_with_itself_moves_nothing() {
    let out = tafl(&[
        "compare", "brandubh", "brandubh", "--games", "6", "--depth", "1", "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["difference"], 0.0);
    assert_eq!(json["unshared_openings"], 0);
    assert_eq!(json["a"]["attackers_win"], json["b"]["attackers_win"]);
    // Each side's games are counted as `tafl selfplay` counts them: every game has one ending.
    let endings: u64 = json["a"]["reasons"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(endings, 6);
    assert_eq!(json["a"]["reasons"], json["b"]["reasons"]);
    // A designer's command: plausible openings unless told otherwise, said in the JSON and
    // the words.
    assert_eq!(json["opening_moves"], "plausible");
    let out = tafl(&[
        "compare", "brandubh", "brandubh", "--games", "2", "--depth", "1",
    ]);
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.contains("2 openings of 4 plausible random opening plies"),
        "{words}"
    );
    // Uniform openings are shared the same way.
    let out = tafl(&[
        "compare",
        "brandubh",
        "brandubh",
        "--games",
        "4",
        "--depth",
        "1",
        "--opening-moves",
        "any",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["difference"], 0.0);
    assert_eq!(json["opening_moves"], "any");
}

#[test]
fn compare_reports_the_change_in_the_attackers_score() {
    // Brandubh against Ard Ri (both 7x7): the difference is B's attackers' score minus A's,
    // and its interval is ordered.
    let out = tafl_ok(&[
        "compare", "brandubh", "ard-ri", "--games", "8", "--depth", "1", "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (a, b) = (
        json["a"]["attackers_score"].as_f64().unwrap(),
        json["b"]["attackers_score"].as_f64().unwrap(),
    );
    assert!((json["difference"].as_f64().unwrap() - (b - a)).abs() < 1e-9);
    assert!(json["low"].as_f64().unwrap() <= json["high"].as_f64().unwrap());
}

#[test]
fn a_renamed_copy_is_played_by_the_same_player_in_selfplay_and_compare() {
    // The reproduction: a copy of brandubh.tafl with only its name changed played with
    // the hand-set weights, so its self-play differed from Brandubh's.
    let dir = scratch("tafl-renamed");
    let text = std::fs::read_to_string("variants/brandubh.tafl").unwrap();
    let renamed = text.replacen("name \"", "name \"My ", 1);
    assert_ne!(renamed, text);
    let path = dir.join("renamed.tafl");
    std::fs::write(&path, renamed).unwrap();
    let path = path.to_str().unwrap();
    let selfplay = |variant: &str, weights: &[&str]| {
        let mut args = vec![
            "selfplay", variant, "--games", "12", "--depth", "2", "--seed", "1", "--json",
        ];
        args.extend_from_slice(weights);
        let out = tafl_ok(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            json["evaluation"].as_str().unwrap().to_string(),
            [
                json["attackers_win"].clone(),
                json["defenders_win"].clone(),
                json["draw"].clone(),
                json["mean_plies"].clone(),
            ],
        )
    };
    let (label, bundled) = selfplay("brandubh", &[]);
    assert_eq!(label, "small-corners");
    assert_eq!(selfplay(path, &[]), (label, bundled.clone()));
    // `--weights` still picks another player, and says so.
    let (label, _) = selfplay(path, &["--weights", "hand"]);
    assert_eq!(label, "hand");

    // compare plays both rows with A's evaluation: a renamed copy moves nothing.
    let out = tafl_ok(&[
        "compare", "brandubh", path, "--games", "6", "--depth", "1", "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["evaluation"], "small-corners");
    assert_eq!(json["difference"], 0.0);
    // Even where B's own rules would choose other weights (Ard Ri escapes to the edge), both
    // rows are played with A's, and the words say so.
    let out = tafl_ok(&[
        "compare", "brandubh", "ard-ri", "--games", "2", "--depth", "1",
    ]);
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.contains("evaluation, for both: small-corners"),
        "{words}"
    );
}

#[test]
fn a_fit_on_search_labels_names_them_and_a_stray_label_depth_is_refused() {
    let dir = scratch("tafl-tune-search");
    let file = dir.join("brandubh.json");
    tafl_ok(&[
        "tune",
        "brandubh",
        "--games",
        "10",
        "--rounds",
        "1",
        "--depth",
        "1",
        "--label",
        "search",
        "--label-depth",
        "2",
        "--out",
        file.to_str().unwrap(),
    ]);
    let written: WeightsFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        written
            .fitted
            .contains("--cap 300 --label search --label-depth 2:"),
        "{}",
        written.fitted
    );
    assert_eq!(written.weights.soldier, 100);
    assert_eq!(written.weights.escape_now, WEIGHTS.escape_now);
    std::fs::remove_dir_all(&dir).unwrap();

    let out = tafl(&["tune", "brandubh", "--games", "10", "--label-depth", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--label search"));
}

#[test]
fn a_fit_on_timed_games_with_resignations_says_so_and_depth_and_time_exclude_each_other() {
    let dir = scratch("tafl-tune-time");
    let file = dir.join("brandubh.json");
    let out = tafl_ok(&[
        "tune",
        "brandubh",
        "--games",
        "10",
        "--rounds",
        "1",
        "--time",
        "5",
        "--resign",
        "400,1",
        "--threads",
        "2",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let written: WeightsFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        written.fitted.contains("--time 5 ") && written.fitted.contains("--resign 400,1:"),
        "{}",
        written.fitted
    );
    // Ten games at 5 ms a move are not the same games twice: the fit either scales a soldier
    // back to 100 or keeps what it found and says why it cannot be trusted (material too small
    // to scale by, or every game ending the same way).
    let err = String::from_utf8_lossy(&out.stderr);
    let warned = err.contains("the fit gave material a weight")
        || err.contains("every game ended the same way");
    assert!(
        written.weights.soldier == 100 || warned,
        "soldier {} without a warning: {err}",
        written.weights.soldier
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let out = tafl(&["tune", "brandubh", "--depth", "2", "--time", "50"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tafl(&["tune", "brandubh", "--resign", "400"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_fit_on_recorded_games_reads_every_position_and_refuses_what_it_cannot_read() {
    let dir = scratch("tafl-tune-records");
    // Games as `tafl match --games` writes them, some stopped at the ply cap (`Ongoing`).
    let games = dir.join("games.csv");
    let games_path = games.to_str().unwrap();
    tafl_ok(&[
        "match", "brandubh", "--a", "depth=1", "--b", "depth=2", "--pairs", "3", "--cap", "40",
        "--games", games_path,
    ]);
    let text = std::fs::read_to_string(&games).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 6);
    let plies: usize = rows
        .iter()
        .map(|row| row.split(',').next().unwrap().split_whitespace().count())
        .sum();
    let count = |word: &str| rows.iter().filter(|row| row.ends_with(word)).count();
    let (black, white) = (count(",Black"), count(",White"));

    let file = dir.join("fit.json");
    let out = tafl_ok(&[
        "tune",
        "brandubh",
        "--weights",
        "hand",
        "--records",
        games_path,
        "--records",
        games_path,
        "--out",
        file.to_str().unwrap(),
    ]);
    // Each file is read: the games twice over, every position before a move of each.
    let err = String::from_utf8_lossy(&out.stderr);
    let said = format!(
        "12 games ({} won by the attackers, {} by the defenders, {} neither)",
        2 * black,
        2 * white,
        12 - 2 * (black + white)
    );
    assert!(err.contains(&said), "{err}\nwanted: {said}");
    let written: WeightsFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let named = format!(
        "tafl tune brandubh --weights hand --records {games_path} --records {games_path}: "
    );
    assert!(written.fitted.starts_with(&named), "{}", written.fitted);
    assert!(
        written
            .fitted
            .contains(&format!(": {} positions;", 2 * plies)),
        "{} (plies {plies})",
        written.fitted
    );
    assert_eq!(written.weights.escape_now, WEIGHTS.escape_now);
    // The same positions labelled by a search of each.
    let searched = dir.join("searched.json");
    tafl_ok(&[
        "tune",
        "brandubh",
        "--records",
        games_path,
        "--label",
        "search",
        "--label-depth",
        "1",
        "--out",
        searched.to_str().unwrap(),
    ]);
    let written: WeightsFile =
        serde_json::from_str(&std::fs::read_to_string(&searched).unwrap()).unwrap();
    let named = format!(
        "tafl tune brandubh --records {games_path} --label search --label-depth 1: {plies} positions;"
    );
    assert!(written.fitted.starts_with(&named), "{}", written.fitted);

    // A game the rules refuse is named, with its line, and nothing is written.
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, format!("{}\nd4-d9,0,0,White\n", rows[0])).unwrap();
    let refused = dir.join("refused.json");
    let out = tafl(&[
        "tune",
        "brandubh",
        "--records",
        bad.to_str().unwrap(),
        "--out",
        refused.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2 (line 2)"), "{err}");
    assert!(!refused.exists());
    // A file that is not there, and self-play's options beside records, are refused too.
    let out = tafl(&["tune", "brandubh", "--records", "no-such-file.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file.csv"));
    let out = tafl(&["tune", "brandubh", "--records", games_path, "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tune --records` takes the games `tafl games check` accepts: the corpora's games that the
/// rules end by repetition before their records stop are used as far as the rules let them go,
/// not refused (they made both bundled corpora unusable). Here the Brandubh corpus's five
/// such games and the five games before the first of them.
#[test]
fn a_fit_on_recorded_games_takes_the_games_the_rules_end_early() {
    use tafl::record::{self, check, Format};
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/brandubh.csv");
    let text = std::fs::read_to_string(corpus).unwrap();
    let rules = Variant::bundled("federation-brandubh").unwrap().rules;
    let engine = std::sync::Arc::new(tafl::engine::Engine::new(&rules).unwrap());
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let early: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, row)| {
            let game = record::parse(row, Format::Csv).remove(0).unwrap();
            matches!(
                check::replay(&engine, &game).verdict,
                check::Verdict::EndsEarly { .. }
            )
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(early.len(), 5);
    let picked: String = (0..5)
        .chain(early.iter().copied())
        .map(|i| format!("{}\n", rows[i]))
        .collect();
    let dir = scratch("tafl-tune-early");
    let games = dir.join("early.csv");
    std::fs::write(&games, picked).unwrap();
    let out = tafl(&[
        "tune",
        "federation-brandubh",
        "--records",
        games.to_str().unwrap(),
        "--out",
        dir.join("fit.json").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("10 games ("), "{err}");
    assert!(dir.join("fit.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 45: `tafl learn` fits the learned correction to people's games and says, on games it
/// did not fit, how it predicts the winner beside the evaluation alone; the model it writes
/// reads back with a weight for every feature.
#[test]
fn learn_fits_people_s_games_and_checks_on_games_held_out() {
    let dir = std::env::temp_dir().join(format!("tafl-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("model.json");
    let samples = dir.join("samples.csv");
    let output = tafl(&[
        "learn",
        "federation-brandubh",
        "--records",
        "tests/games/brandubh.csv",
        "--out",
        out.to_str().unwrap(),
        "--samples",
        samples.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    let number = |after: &str| -> f64 {
        let at = said
            .find(after)
            .unwrap_or_else(|| panic!("{after} in {said}"))
            + after.len();
        said[at..]
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (learned, alone) = (
        number("held-out log-loss "),
        number("(the evaluation alone "),
    );
    assert!(learned < alone, "{said}");
    // `--samples`: one row a position fitted or held out, every fifth game held out.
    let rows = std::fs::read_to_string(&samples).unwrap();
    let mut lines = rows.lines();
    assert_eq!(
        lines.next(),
        Some("game,held_out,attackers_won,evaluation,width,height,pieces")
    );
    let (mut fitted, mut held) = (0.0, 0.0);
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let game: usize = fields[0].parse().unwrap();
        assert_eq!(fields[1], if game % 5 == 4 { "1" } else { "0" }, "{line}");
        assert!(
            fields[6]
                .split(' ')
                .all(|p| p.len() >= 4 && "adk".contains(&p[..1])),
            "{line}"
        );
        if fields[1] == "1" {
            held += 1.0
        } else {
            fitted += 1.0
        }
    }
    // "... 516 decided games, 9193 positions fitted, 2362 held out ..."
    assert_eq!(fitted, number("decided games, "), "{said}");
    assert_eq!(held, number("positions fitted, "), "{said}");
    let model: tafl::search::learned::Model =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(model.weights.len(), tafl::search::learned::FEATURES);
    assert!(model.fitted.starts_with("tafl learn federation-brandubh"));
    // Without records there is nothing to fit.
    let bare = tafl(&["learn", "federation-brandubh"]);
    assert_eq!(bare.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 62: `learn` warns, as `tune` does, when every game of its records ended the same way;
/// records with both sides' wins give no such warning.
#[test]
fn learn_warns_when_every_game_ended_the_same_way() {
    let corpus = std::fs::read_to_string("tests/games/brandubh.csv").unwrap();
    let defenders: String = corpus
        .lines()
        .filter(|line| line.ends_with(",White"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(defenders.lines().count() > 100);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("defenders.csv");
    std::fs::write(&path, defenders).unwrap();
    let warning = "every game ended the same way";
    let one_sided = tafl_ok(&[
        "learn",
        "federation-brandubh",
        "--records",
        path.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&one_sided.stderr);
    assert!(stderr.contains(warning), "{stderr}");
    let mixed = tafl_ok(&[
        "learn",
        "federation-brandubh",
        "--records",
        "tests/games/brandubh.csv",
    ]);
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(!stderr.contains(warning), "{stderr}");
}
