//! Fuzzing that stays: proptest mutates seed inputs (the bundled variants, `tests/fuzz/*.txt`,
//! the saved games of `tests/repl/records/`, the game records of `tests/games/`) and feeds them to
//! every parser and to the REPL. No input may panic, and a refused input must leave the game as
//! it was.
//!
//! Each test runs `TAFL_FUZZ_CASES` cases (256 by default, a few seconds in CI). A long
//! campaign: `TAFL_FUZZ_CASES=200000 cargo test --release --test fuzz` (docs/fuzzing.md). A
//! failing case is written to `tests/fuzz.proptest-regressions`; commit it with the fix, so the
//! case is tried first from then on.

use std::sync::Arc;

use proptest::prelude::*;
use tafl::cli::play::{Reply, Session, Style};
use tafl::engine::Engine;
use tafl::game::notation::{parse_position, position_to_string};
use tafl::{Game, Move, Side, Variant};

fn cases() -> u32 {
    std::env::var("TAFL_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

/// The non-comment lines of a seed file of `tests/fuzz/`.
fn seeds(text: &'static str) -> Vec<&'static str> {
    text.lines().filter(|line| !line.starts_with('#')).collect()
}

fn position_seeds() -> Vec<&'static str> {
    seeds(include_str!("fuzz/positions.txt"))
}

fn line_seeds() -> Vec<&'static str> {
    seeds(include_str!("fuzz/repl-lines.txt"))
}

fn record_seeds() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/repl/records");
    let mut records: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/repl/records exists")
        .map(|entry| std::fs::read_to_string(entry.expect("an entry").path()).expect("readable"))
        .collect();
    records.sort();
    records
}

fn engines() -> Vec<Arc<Engine>> {
    tafl::bundled_names()
        .map(|name| Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap()))
        .collect()
}

/// One edit of a text: insert, delete or replace a short run of characters at a char boundary.
#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, String),
    Delete(prop::sample::Index, usize),
    Replace(prop::sample::Index, usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    let text = "[a-zA-Z0-9/ .:#()×é\\n\\t-]{1,6}";
    prop_oneof![
        (any::<prop::sample::Index>(), text).prop_map(|(at, s)| Edit::Insert(at, s)),
        (any::<prop::sample::Index>(), 1usize..8).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<prop::sample::Index>(), 1usize..4, text)
            .prop_map(|(at, n, s)| Edit::Replace(at, n, s)),
    ]
}

/// `text` with the edits applied in order.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let at = |index: &prop::sample::Index| boundaries[index.index(boundaries.len())];
        let end = |start: usize, n: usize| {
            boundaries
                .iter()
                .copied()
                .filter(|&b| b >= start)
                .nth(n)
                .unwrap_or(text.len())
        };
        match edit {
            Edit::Insert(index, s) => text.insert_str(at(index), s),
            Edit::Delete(index, n) => {
                let start = at(index);
                text.replace_range(start..end(start, *n), "");
            }
            Edit::Replace(index, n, s) => {
                let start = at(index);
                text.replace_range(start..end(start, *n), s);
            }
        }
    }
    text
}

/// What the REPL's game looks like from outside: every refused line must leave it so.
fn snapshot(session: &Session) -> (String, usize, Option<tafl::Ending>, Option<Side>) {
    (
        position_to_string(session.game.engine(), session.game.position()),
        session.game.plies().len(),
        session.game.ending(),
        session.game.draw_offer(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Position strings: mutated seeds never panic any variant's parser; an accepted position is
    /// a real position of the variant (moves, a ply, its string read back the same).
    #[test]
    fn position_strings(seed in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..4), side in prop::bool::ANY) {
        let seeds = position_seeds();
        let text = mutate(seeds[seed.index(seeds.len())], &edits);
        let side = if side { Side::Attackers } else { Side::Defenders };
        for engine in engines() {
            let Ok(position) = parse_position(&engine, &text, side) else { continue };
            let written = position_to_string(&engine, &position);
            let again = parse_position(&engine, &written, side).expect("a written position reads back");
            prop_assert_eq!(engine.pieces(&again), engine.pieces(&position));
            let game = Game::from_position(engine.clone(), position);
            if let Some(&mv) = game.legal_moves().first() {
                let mut game = game;
                game.play(mv).expect("a generated move is legal");
            }
            prop_assert!(engine.perft(&position, 2) <= 400 * 400);
        }
    }

    /// Move strings: any text either fails to read or reads as a move that a game plays or
    /// refuses, leaving the game unchanged.
    #[test]
    fn move_strings(text in "\\PC{0,12}|[a-t][0-9]{1,2}-?[a-t][0-9]{1,2}") {
        let engine = Arc::new(Engine::new(&Variant::bundled("linnaeus").unwrap().rules).unwrap());
        let mut game = Game::new(engine);
        if let Ok(mv) = text.parse::<Move>() {
            let before = *game.position();
            if game.play(mv).is_err() {
                prop_assert_eq!(*game.position(), before);
                prop_assert!(game.plies().is_empty());
            }
        }
    }

    /// The REPL: random sequences of (mutated) lines in a random bundled variant never panic,
    /// and a line refused with an error leaves the game exactly as it was.
    #[test]
    fn repl_lines(variant in any::<prop::sample::Index>(), picks in prop::collection::vec((any::<prop::sample::Index>(), prop::collection::vec(edit(), 0..2)), 1..40)) {
        let names: Vec<&str> = tafl::bundled_names().collect();
        let name = names[variant.index(names.len())];
        let style = Style { unicode: false, colour: false };
        let mut session = Session::new(name, Variant::bundled(name).unwrap(), style).unwrap();
        let seeds = line_seeds();
        for (pick, edits) in picks {
            // Half the time a legal move, so that games get somewhere.
            let legal = session.game.legal_moves();
            let line = if edits.len() == 1 && !legal.is_empty() {
                legal[pick.index(legal.len())].to_string()
            } else {
                mutate(seeds[pick.index(seeds.len())], &edits)
            };
            // `save` and `load` touch the disk (a mutated line would write files into the
            // working folder): the `save_files` fuzzer covers loading, in a temporary folder.
            if matches!(line.split_whitespace().next(), Some("save" | "load")) {
                continue;
            }
            let before = snapshot(&session);
            match session.execute(&line) {
                Ok(Reply::Quit) => break,
                Ok(Reply::Text(_)) => {}
                Err(message) => {
                    prop_assert!(!message.is_empty());
                    prop_assert_eq!(snapshot(&session), before, "`{}` was refused but changed the game", line);
                }
            }
        }
    }

    /// Saved games: a mutated record either loads, or is refused with the game unchanged.
    #[test]
    fn save_files(seed in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..5)) {
        let records = record_seeds();
        let text = mutate(&records[seed.index(records.len())], &edits);
        let dir = std::env::temp_dir().join(format!("tafl-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.txt");
        std::fs::write(&path, &text).unwrap();
        let style = Style { unicode: false, colour: false };
        let mut session = Session::new("brettspielnetz", Variant::bundled("brettspielnetz").unwrap(), style).unwrap();
        session.execute("e7-h7").unwrap();
        let before = snapshot(&session);
        if session.execute(&format!("load {}", path.display())).is_err() {
            prop_assert_eq!(snapshot(&session), before);
        }
    }

    /// Variant files: a line of one bundled file spliced into another, then mutated, never
    /// panics the front end, and a file that loads compiles and plays.
    #[test]
    fn variant_files(into in any::<prop::sample::Index>(), from in any::<prop::sample::Index>(), line in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..3)) {
        let bundled = tafl::BUNDLED;
        let target: Vec<&str> = bundled[into.index(bundled.len())].1.lines().collect();
        let donor: Vec<&str> = bundled[from.index(bundled.len())].1.lines().collect();
        let mut lines = target.clone();
        lines.insert(at.index(lines.len() + 1), donor[line.index(donor.len())]);
        let text = mutate(&lines.join("\n"), &edits);
        let checked = tafl::check::check_text("fuzzed.tafl", &text);
        if let (Some((rules, _)), false) = (checked.rules, checked.diagnostics.has_errors()) {
            let engine = Engine::new(&rules);
            prop_assert!(engine.is_ok(), "a file that lints clean must compile: {:?}", engine.err());
            let engine = Arc::new(engine.unwrap());
            let _ = engine.perft(&engine.start(), 2);
        }
    }
}

/// One structural change to rules as JSON: a value replaced by another of the file, an array
/// element removed, or a number changed.
fn mutate_json(
    value: &mut serde_json::Value,
    path: &[prop::sample::Index],
    choice: u8,
    number: i64,
) {
    use serde_json::Value;
    if let Some((index, rest)) = path.split_first() {
        match value {
            Value::Array(items) if !items.is_empty() => {
                let i = index.index(items.len());
                if choice.is_multiple_of(4) && rest.is_empty() {
                    items.remove(i);
                } else {
                    mutate_json(&mut items[i], rest, choice, number);
                }
                return;
            }
            Value::Object(map) if !map.is_empty() => {
                let key = map
                    .keys()
                    .nth(index.index(map.len()))
                    .cloned()
                    .unwrap_or_default();
                if let Some(child) = map.get_mut(&key) {
                    mutate_json(child, rest, choice, number);
                }
                return;
            }
            _ => {}
        }
    }
    let replacement = match (&*value, choice % 3) {
        (Value::Number(_), _) => Value::from(number),
        (Value::String(_), 0) => Value::from("nowhere"),
        (Value::String(_), 1) => Value::from("king"),
        (Value::String(s), _) => Value::from(format!("{s}{s}")),
        (Value::Bool(b), _) => Value::from(!b),
        (other, _) => other.clone(),
    };
    *value = replacement;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Rules read from JSON may say anything the types allow. Whatever they say, compiling
    /// them fails cleanly or gives an engine that plays; explaining, drawing and diffing them
    /// never panics.
    #[test]
    fn rules_json(variant in any::<prop::sample::Index>(), edits in prop::collection::vec((prop::collection::vec(any::<prop::sample::Index>(), 1..6), any::<u8>(), -3i64..400), 1..4)) {
        let names: Vec<&str> = tafl::bundled_names().collect();
        let rules = Variant::bundled(names[variant.index(names.len())]).unwrap().rules;
        let mut json: serde_json::Value = serde_json::from_str(&rules.to_json()).unwrap();
        for (path, choice, number) in &edits {
            mutate_json(&mut json, path, *choice, *number);
        }
        let Ok(rules) = tafl::Rules::from_json(&json.to_string()) else { return Ok(()) };
        let _ = tafl::explain::explain(&rules);
        let _ = tafl::svg::start_position_svg(&rules);
        let _ = tafl::diff::diff("a", &rules, "b", &rules);
        if let Ok(engine) = Engine::new(&rules) {
            let engine = Arc::new(engine);
            let start = engine.start();
            let _ = engine.perft(&start, 2);
            let _ = tafl::game::announce::calls(&engine, &start);
            let _ = engine.playouts(&start, 2, 1, 60);
        }
    }
}

/// Seeds for the game-record parsers: the REPL's records, OpenTafl's `.otg` files, the first
/// rows of each corpus and a move list.
fn game_record_seeds() -> Vec<String> {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games");
    let mut seeds = record_seeds();
    for entry in std::fs::read_dir(format!("{games}/opentafl")).expect("tests/games/opentafl") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "otg") {
            seeds.push(std::fs::read_to_string(path).expect("readable"));
        }
    }
    for corpus in ["copenhagen.csv", "brandubh.csv"] {
        let text = std::fs::read_to_string(format!("{games}/{corpus}")).expect("readable");
        seeds.push(text.lines().take(4).collect::<Vec<_>>().join("\n"));
    }
    seeds.push("1. c5c6 d11-d10xe10\n2. d1-d2\nresigned\n\ne1-e2 timeout\n".to_string());
    seeds.sort();
    seeds
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Game records: mutated records never panic any of the four readers; every error points
    /// inside the text at the line and column it names; every game read replays without panic.
    #[test]
    fn game_records(seed in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..5), variant in any::<prop::sample::Index>()) {
        use tafl::record::{self, check, Format};
        let seeds = game_record_seeds();
        let text = mutate(&seeds[seed.index(seeds.len())], &edits);
        let names = ["copenhagen", "federation-brandubh", "linnaeus", "berserk"];
        let name = names[variant.index(names.len())];
        let engine = Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap());
        let detected = Format::detect(None, &text);
        for format in [Format::Native, Format::OpenTafl, Format::Csv, Format::MoveList, detected] {
            for game in record::parse(&text, format) {
                match game {
                    Ok(game) => {
                        let replay = check::replay(&engine, &game);
                        prop_assert!(replay.game.plies().len() <= game.moves.len());
                        let span = replay.span(&game);
                        prop_assert!(span.end <= text.len());
                    }
                    Err(error) => {
                        prop_assert!(error.span.start <= error.span.end && error.span.end <= text.len(), "{:?}", error);
                        prop_assert_eq!(record::line_column(&text, error.span.start), (error.line, error.column));
                    }
                }
            }
        }
    }
}
