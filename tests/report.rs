//! `tafl report`: the designer's report through the binary. The measures themselves are tested
//! on hand-made games in `src/report/`; here, what a user gets: the JSON's shape, the page and
//! the charts as files, two variants side by side, and bad input.

use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let output = tafl(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Every figure the contract (docs/cli.md) names, consistent with the others.
fn assert_report(report: &serde_json::Value, games: u64) {
    for key in [
        "outcome",
        "duration",
        "decisiveness",
        "lead_changes",
        "branching",
        "board_coverage",
        "endings",
        "openings",
    ] {
        assert!(report.get(key).is_some(), "no `{key}` in {report}");
    }
    let o = &report["outcome"];
    let counted = ["attackers_win", "defenders_win", "draw"]
        .map(|k| o[k].as_u64().expect("a count"))
        .iter()
        .sum::<u64>();
    assert_eq!(counted, games);
    let endings: u64 = report["endings"]
        .as_object()
        .expect("endings by name")
        .values()
        .map(|n| n.as_u64().expect("a count"))
        .sum();
    assert_eq!(endings, games);
    let rate = o["attackers"]["rate"].as_f64().unwrap();
    assert!(o["attackers"]["low"].as_f64().unwrap() <= rate);
    assert!(rate <= o["attackers"]["high"].as_f64().unwrap());
    let d = &report["duration"];
    assert!(d["min"].as_u64().unwrap() as f64 <= d["median"].as_f64().unwrap());
    assert!(d["median"].as_f64().unwrap() <= d["max"].as_u64().unwrap() as f64);
    // Brandubh offers dozens of moves a position, and every game uses some of the board.
    assert!(report["branching"]["mean"]["mean"].as_f64().unwrap() > 1.0);
    let used = report["board_coverage"]["mean"]["mean"].as_f64().unwrap();
    assert!(used > 0.0 && used <= 1.0, "{used}");
    assert_eq!(
        report["board_coverage"]["landed"].as_array().unwrap().len(),
        7
    );
}

#[test]
fn the_json_has_every_measure_and_the_player() {
    let report = json(&[
        "report",
        "brandubh",
        "--games",
        "3",
        "--depth",
        "1",
        "--ideal-plies",
        "40",
        "--json",
    ]);
    assert_report(&report, 3);
    assert_eq!(report["variant"], "Brandubh");
    assert_eq!(report["games"], 3);
    assert_eq!(report["depth"], 1);
    assert_eq!(report["duration"]["ideal"], 40);
    assert!(report["duration"]["ideal_distance"].as_f64().is_some());
    // The evaluation as `best --json` names it.
    let best = json(&["best", "brandubh", "--depth", "1", "--json"]);
    assert_eq!(report["evaluation"], best["evaluation"]);
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let args = [
        "report", "brandubh", "--games", "2", "--depth", "1", "--json",
    ];
    let mut first = json(&args);
    let mut second = json(&args);
    first["seconds"] = 0.into();
    second["seconds"] = 0.into();
    assert_eq!(first, second);
}

#[test]
fn the_page_holds_everything_and_the_charts_are_files() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let charts = dir.path().join("charts");
    let output = tafl(&[
        "report",
        "brandubh",
        "--games",
        "2",
        "--depth",
        "1",
        "--html",
        page.to_str().unwrap(),
        "--svg",
        charts.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let words = String::from_utf8(output.stdout).unwrap();
    assert!(words.contains("lead changes"), "{words}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Self-contained: nothing fetched (the SVG namespace is a name, not a fetch).
    for fetch in ["src=", "href=", "url(", "@import", "<link", "<script"] {
        assert!(!html.contains(fetch), "the page fetches: {fetch}");
    }
    let names = [
        "outcome",
        "duration",
        "evaluation",
        "branching",
        "pieces",
        "king",
        "board",
    ];
    for name in names {
        let file = charts.join(format!("{name}.svg"));
        let svg = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(html.contains(&format!("<figure id=\"{name}\">")), "{name}");
    }
    assert_eq!(std::fs::read_dir(&charts).unwrap().count(), names.len());
}

#[test]
fn two_variants_side_by_side_from_the_same_openings() {
    let report = json(&[
        "report",
        "brandubh",
        "brandubh-aagenielsen",
        "--games",
        "3",
        "--depth",
        "1",
        "--json",
    ]);
    assert_report(&report["a"], 3);
    assert_report(&report["b"], 3);
    assert_eq!(report["a"]["variant"], "Brandubh");
    let d = &report["differences"];
    for key in [
        "attackers_score",
        "plies",
        "lead_changes",
        "branching",
        "board_coverage",
    ] {
        let (mean, low, high) = (
            d[key]["mean"].as_f64().unwrap(),
            d[key]["low"].as_f64().unwrap(),
            d[key]["high"].as_f64().unwrap(),
        );
        assert!(low <= mean && mean <= high, "{key}: {}", d[key]);
    }
    // A variant against itself, from the same openings, plays the same games: every
    // difference is nought.
    let same = json(&[
        "report", "brandubh", "brandubh", "--games", "2", "--depth", "1", "--json",
    ]);
    assert_eq!(same["differences"]["plies"]["mean"], 0.0);
    assert_eq!(same["unshared_openings"], 0);
}

#[test]
fn an_unreadable_variant_exits_2() {
    for args in [
        vec!["report", "no-such-variant"],
        vec!["report", "brandubh", "no-such-variant"],
        vec!["report", "tests/lint/setup_width.tafl"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?} says why");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    // A chart folder that cannot be made: a clear error, nothing printed as if it had worked.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let output = tafl(&[
        "report",
        "brandubh",
        "--games",
        "1",
        "--depth",
        "1",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("error"));
    assert!(output.stdout.is_empty());
}
