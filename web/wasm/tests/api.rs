//! The wasm API, run under Node by wasm-bindgen-test (`bash .ci/web`, docs/web.md): each
//! function answers what the library answers, in JSON, and bad input is an exception with the
//! library's words.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use tafl_wasm::{explain, lint, perft, record_moves, rules_hash, variants, Document, WebGame};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The message of a JavaScript exception.
fn message(error: wasm_bindgen::JsError) -> String {
    let value = JsValue::from(error);
    js_sys::Error::from(value).message().into()
}

fn bundled(name: &str) -> String {
    let all = json(&variants());
    let found = all
        .as_array()
        .and_then(|all| all.iter().find(|v| v["name"] == name))
        .unwrap_or_else(|| panic!("no bundled {name}"));
    found["text"].as_str().unwrap_or_default().to_string()
}

/// A one-line change of Brandubh's start: the king stands on d1 with a free road to a1.
fn king_near_corner() -> String {
    bundled("brandubh")
        .replace("  t t T K T t t\n", "  t t T . T t t\n")
        .replace("  . . . t . . .\nend", "  . . . K . . .\nend")
}

#[wasm_bindgen_test]
fn a_misspelt_name_is_diagnosed_with_spans_in_every_unit_and_a_fix() {
    // `é` in the comment is 2 bytes and 1 UTF-16 unit: the two offsets differ after it.
    let text = "# é\nboard 9 x 9\nthe kign is armed\n";
    let all = json(&lint(text));
    let misspelt = all
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|d| d["message"].as_str().unwrap_or("").contains("kign"))
        })
        .unwrap_or_else(|| panic!("no diagnostic about `kign`: {all}"));
    assert_eq!(misspelt["severity"], "error");
    assert!(misspelt["code"].as_str().is_some_and(|c| !c.is_empty()));
    let range = &misspelt["labels"][0]["range"];
    let byte = text.find("kign").unwrap_or_default();
    assert_eq!(range["start"], byte);
    assert_eq!(range["from"], byte - 1);
    assert_eq!(range["line"], 3);
    assert_eq!(range["column"], 5);
    let fix = &misspelt["fix"];
    assert_eq!(fix["replacement"], "king");
    assert_eq!(fix["range"]["from"], byte - 1);
    assert_eq!(fix["range"]["to"], byte - 1 + 4);
}

#[wasm_bindgen_test]
fn hovers_and_completions_come_from_the_language_server() {
    let text = "board 9 x 9\nnobody may land on the throne\n";
    let document = Document::new(text);
    let at = text.find("land").unwrap_or_default();
    let hover = json(&document.hover(at).unwrap_or_default());
    assert!(
        hover["text"]
            .as_str()
            .unwrap_or("")
            .starts_with("No piece may land on the throne"),
        "{hover}"
    );
    assert!(document.hover(0).is_some(), "`board` has a hover");
    let completions = json(&document.completions(text.len()));
    let labels: Vec<&str> = completions
        .as_array()
        .map(|all| all.iter().filter_map(|c| c["label"].as_str()).collect())
        .unwrap_or_default();
    assert!(labels.contains(&"attackers"), "{labels:?}");
}

#[wasm_bindgen_test]
fn a_game_starts_from_a_position_or_says_why_not() {
    let text = bundled("brandubh");
    let game = WebGame::from_position(&text, "brandubh", "/7/7/7/3K3/7/7/3t3/", "defenders")
        .unwrap_or_else(|e| panic!("{}", message(e)));
    let state = json(&game.state());
    assert_eq!(state["toMove"], "defenders");
    assert_eq!(state["pieces"].as_array().map(Vec::len), Some(2));
    let refused = message(
        WebGame::from_position(&text, "brandubh", "/7/7/7/3K3/7/7/", "defenders")
            .err()
            .unwrap_or_else(|| panic!("a short position read")),
    );
    assert!(!refused.is_empty());
    assert!(WebGame::from_position(&text, "brandubh", "/7/7/7/3K3/7/7/3t3/", "sideways").is_err());
}

#[wasm_bindgen_test]
fn a_record_file_gives_its_first_games_moves_in_any_format() {
    let native = json(
        &record_moves("variant: brandubh\n\n1. d1-c1 d3-d2\n", "game.txt")
            .unwrap_or_else(|e| panic!("{}", message(e))),
    );
    assert_eq!(native["moves"], serde_json::json!(["d1-c1", "d3-d2"]));
    assert_eq!(native["variant"], "brandubh");
    let csv = json(
        &record_moves("d1-c1 d3-d2,0,0,White\n", "games.csv")
            .unwrap_or_else(|e| panic!("{}", message(e))),
    );
    assert_eq!(csv["format"], "csv");
    assert_eq!(csv["moves"], serde_json::json!(["d1-c1", "d3-d2"]));
    let refused = message(
        record_moves("variant: brandubh\n\n1. d1-c1 banana\n", "game.txt")
            .err()
            .unwrap_or_else(|| panic!("a bad move read")),
    );
    assert!(refused.contains("banana"), "{refused}");
}

#[wasm_bindgen_test]
fn the_rules_hash_ignores_comments_and_names_but_not_a_rule() {
    let text = bundled("brandubh");
    let hash = rules_hash(&text).unwrap_or_else(|| panic!("brandubh has rules"));
    let commented = format!("# my own notes\n{}", text.replace("name \"", "name \"My "));
    assert_eq!(rules_hash(&commented), Some(hash.clone()));
    assert_ne!(rules_hash(&king_near_corner()), Some(hash));
    assert_eq!(rules_hash("board 9 x 9\nthe kign is armed\n"), None);
}

#[wasm_bindgen_test]
fn explain_speaks_tafl_show_words_and_refuses_a_broken_text() {
    let words = explain(&bundled("linnaeus")).unwrap_or_else(|e| panic!("{}", message(e)));
    assert!(words.contains("throne"), "{words}");
    let refused = message(
        explain("board 9 x 9\nthe kign is armed\n")
            .err()
            .unwrap_or_else(|| panic!("a text with errors explained")),
    );
    assert!(
        refused.contains("line 2") && refused.contains("kign"),
        "{refused}"
    );
}

#[wasm_bindgen_test]
fn every_bundled_variant_is_listed_with_its_title() {
    let all = json(&variants());
    let all = all.as_array().cloned().unwrap_or_default();
    assert_eq!(all.len(), tafl::BUNDLED.len());
    let linnaeus = all.iter().find(|v| v["name"] == "linnaeus");
    assert_eq!(
        linnaeus.map(|v| v["title"].clone()),
        Some(Value::from("Linnaeus' Tablut"))
    );
}

#[wasm_bindgen_test]
fn a_game_plays_refuses_with_the_clause_and_undoes() {
    let mut game =
        WebGame::new(&bundled("brandubh"), "brandubh").unwrap_or_else(|e| panic!("{}", message(e)));
    let start = json(&game.state());
    assert_eq!(start["width"], 7);
    assert_eq!(start["toMove"], "attackers");
    assert_eq!(start["pieces"].as_array().map(Vec::len), Some(13));
    let legal = start["legal"].as_array().cloned().unwrap_or_default();
    let regions: Vec<&str> = start["regions"]
        .as_array()
        .map(|all| all.iter().filter_map(|r| r["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        regions.contains(&"throne") && regions.contains(&"corners"),
        "{regions:?}"
    );

    // An attacker may not enter a corner: refused with the clause that says so.
    assert!(!legal.contains(&Value::from("d7-a7")));
    let refused = message(
        game.play("d7-a7")
            .err()
            .unwrap_or_else(|| panic!("d7-a7 played")),
    );
    assert!(refused.starts_with("d7-a7 is illegal"), "{refused}");
    assert!(
        refused.contains("only the king may enter the corners"),
        "{refused}"
    );
    let unreadable = message(
        game.play("d7")
            .err()
            .unwrap_or_else(|| panic!("`d7` played")),
    );
    assert!(unreadable.contains("d7"), "{unreadable}");
    assert_eq!(json(&game.state()), start, "a refused move changes nothing");

    let ply = json(
        &game
            .play("d7-c7")
            .unwrap_or_else(|e| panic!("{}", message(e))),
    );
    assert_eq!(ply["move"], "d7-c7");
    assert_eq!(ply["mover"], "attackers");
    let after = json(&game.state());
    assert_eq!(after["toMove"], "defenders");
    assert_eq!(after["plies"].as_array().map(Vec::len), Some(1));
    assert!(game.undo());
    assert_eq!(json(&game.state()), start);
    assert!(!game.undo(), "nothing left to take back");
}

#[wasm_bindgen_test]
fn the_ending_names_its_rule_and_the_record_reads_back() {
    let mut game = WebGame::new(&king_near_corner(), "corner test")
        .unwrap_or_else(|e| panic!("{}", message(e)));
    game.play("d6-e6")
        .unwrap_or_else(|e| panic!("{}", message(e)));
    let ply = json(
        &game
            .play("d1-a1")
            .unwrap_or_else(|e| panic!("{}", message(e))),
    );
    let verdict = ply["verdict"].as_str().unwrap_or_default();
    assert!(
        verdict.contains("defenders win when the king reaches a corner"),
        "{verdict}"
    );
    let state = json(&game.state());
    assert_eq!(state["status"], "defenders_win");
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(0));
    let over = message(
        game.think(10)
            .err()
            .unwrap_or_else(|| panic!("searched a finished game")),
    );
    assert!(over.contains("over"), "{over}");

    let record = game.record();
    let read = tafl::record::native::parse(&record).unwrap_or_else(|e| panic!("{e:?}: {record}"));
    assert_eq!(read.tags.variant.as_deref(), Some("corner test"));
    let moves: Vec<String> = read.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["d6-e6", "d1-a1"]);
    assert!(record.contains("defenders_win (king_escaped)"), "{record}");
}

#[wasm_bindgen_test]
fn the_computer_answers_with_a_legal_move_within_its_budget() {
    let game =
        WebGame::new(&bundled("brandubh"), "brandubh").unwrap_or_else(|e| panic!("{}", message(e)));
    let legal = json(&game.state())["legal"].clone();
    let report = json(&game.think(100).unwrap_or_else(|e| panic!("{}", message(e))));
    assert!(
        legal
            .as_array()
            .is_some_and(|l| l.contains(&report["move"])),
        "{report}"
    );
    assert!(report["depth"].as_u64().is_some_and(|d| d >= 1), "{report}");
    let fixed = json(
        &game
            .think_depth(2)
            .unwrap_or_else(|e| panic!("{}", message(e))),
    );
    assert_eq!(fixed["depth"], 2);
}

#[wasm_bindgen_test]
fn perft_matches_the_published_copenhagen_counts() {
    // tests/perft/copenhagen.perft: 116 and 6,788 (OpenTafl's move generator).
    let text = bundled("copenhagen");
    assert_eq!(perft(&text, 1).ok(), Some(116.0));
    assert_eq!(perft(&text, 2).ok(), Some(6788.0));
    assert!(perft("board 9 x 9\nthe kign is armed\n", 1).is_err());
}
