//! Perft: the engine's leaf counts against `tests/perft/*.perft` and against the slow reference
//! implementation in `tests/reference` (array board, no bit sets).

mod reference;

use reference::agree::agree_along_random_games;
use reference::Reference;
use tafl::engine::Engine;
use tafl::game::notation::parse_position;
use tafl::ir::{Rules, Side};

/// The rules of the bundled variant a `.perft` file names.
fn rules(name: &str) -> Rules {
    tafl::Variant::bundled(name)
        .unwrap_or_else(|error| panic!("`{name}` in a .perft file: {error}"))
        .rules
}

struct Entry {
    id: String,
    variant: String,
    position: String,
    side: Side,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let mut entries = Vec::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (key, value) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("{path:?}: bad line {line:?}"));
            match key {
                "id" => entries.push(Entry {
                    id: value.into(),
                    variant: String::new(),
                    position: String::new(),
                    side: Side::Attackers,
                    counts: vec![],
                }),
                "variant" => entries.last_mut().unwrap().variant = value.into(),
                "position" => entries.last_mut().unwrap().position = value.into(),
                "side" => entries.last_mut().unwrap().side = value.parse().unwrap(),
                "perft" => {
                    let (depth, count) = value.split_once(' ').unwrap();
                    entries
                        .last_mut()
                        .unwrap()
                        .counts
                        .push((depth.parse().unwrap(), count.parse().unwrap()));
                }
                other => panic!("{path:?}: unknown key {other}"),
            }
        }
    }
    entries
}

/// Largest count checked in a debug build (the release build checks every entry).
const DEBUG_NODE_LIMIT: u64 = 1_000_000;

#[test]
fn engine_matches_the_perft_files() {
    for entry in entries() {
        let engine = Engine::new(&rules(&entry.variant)).unwrap();
        let position = parse_position(&engine, &entry.position, entry.side).unwrap();
        for &(depth, count) in &entry.counts {
            if cfg!(debug_assertions) && count > DEBUG_NODE_LIMIT {
                continue;
            }
            assert_eq!(
                engine.perft(&position, depth),
                count,
                "{} perft {depth}",
                entry.id
            );
            assert_eq!(
                engine.perft_parallel(&position, depth),
                count,
                "{} parallel perft {depth}",
                entry.id
            );
        }
    }
}

/// Every bundled variant has a perft entry from its start position to depth 3 at least, so each
/// count below depth 4 is checked against the slow reference by the test after this one.
#[test]
fn every_bundled_variant_has_perft_to_depth_3() {
    let entries = entries();
    for name in tafl::bundled_names() {
        let rules = rules(name);
        let engine = Engine::new(&rules).unwrap();
        let covered = entries.iter().any(|entry| {
            entry.variant == name
                && entry.side == rules.first_to_move
                && parse_position(&engine, &entry.position, entry.side).unwrap() == engine.start()
                && (1..=3).all(|depth| entry.counts.iter().any(|(d, _)| *d == depth))
        });
        assert!(
            covered,
            "{name}: no perft entry from the start to depth 3 in tests/perft"
        );
    }
}

/// The slow reference agrees with every count to depth 3 (a few seconds even in a debug build).
#[test]
fn reference_matches_the_perft_files_to_depth_3() {
    for entry in entries() {
        let rules = rules(&entry.variant);
        let engine = Engine::new(&rules).unwrap();
        let reference = Reference::new(&rules);
        let position = parse_position(&engine, &entry.position, entry.side).unwrap();
        let mut board = vec![vec![None; rules.board.width as usize]; rules.board.height as usize];
        for (square, kind) in engine.pieces(&position) {
            board[square.rank as usize][square.file as usize] = Some(kind);
        }
        let start = reference.with_board(board, entry.side);
        // Depth 3 in every build: the reference counts the last ply in bulk, so even the 15x15
        // entry takes seconds in a debug build.
        for &(depth, count) in entry.counts.iter().filter(|(d, _)| *d <= 3) {
            assert_eq!(
                reference.perft(&start, depth, &mut Vec::new()),
                count,
                "{} reference perft {depth}",
                entry.id
            );
        }
    }
}

/// Plays random games with the engine's [`tafl::Game`] and the reference side by side: the same
/// legal moves, the same captures, the same endings, and the same perft(2) along the way.
#[test]
fn engine_and_reference_agree_along_random_games() {
    for name in tafl::bundled_names() {
        let games = if cfg!(debug_assertions) { 6 } else { 40 };
        agree_along_random_games(name, &rules(name), games, false);
    }
}

/// Bundled variants with their end-of-game and capture clauses swapped for the readings no bundled
/// variant uses (any-move shieldwall, both encirclements at once, the repeating side winning,
/// different no-move endings per side, a custodial king captured on his own move), on a small
/// board where random games reach them often.
#[test]
fn engine_and_reference_agree_on_the_other_readings() {
    let brandubh = tafl::Variant::bundled("brandubh").unwrap().text;
    let readings: [(&str, &[(&str, &str)]); 2] = [
        (
            "brandubh, any-move shieldwall and both encirclements",
            &[
                ("a side that cannot move loses", "the attackers lose when they cannot move\nthe game is drawn when the defenders cannot move"),
                ("attackers win when the king is captured", "attackers win when the king is captured\nsoldiers are captured in a shieldwall, counting corners and the throne, after any move\nattackers win when no defender can reach the edge"),
                ("the game is drawn when a position occurs 3 times", "the defenders lose when a position repeats"),
            ],
        ),
        (
            "brandubh, the repeating side wins, the king lost on his own move",
            &[
                ("the king is captured anywhere like a soldier", "the king is captured anywhere like a soldier, even when he moves there"),
                ("the game is drawn when a position occurs 3 times", "a side that makes a position occur 2 times wins"),
                ("attackers win when the king is captured", "attackers win when the king is captured\ndefenders are captured in a shieldwall\ndefenders win when the king holds an edge fort"),
            ],
        ),
    ];
    for (label, swaps) in readings {
        let mut text = brandubh.clone();
        for &(from, to) in swaps {
            assert!(text.contains(from), "{label}: `{from}` is in brandubh.tafl");
            text = text.replacen(from, to, 1);
        }
        let variant = tafl::Variant::from_text(label, &text)
            .unwrap_or_else(|error| panic!("{label}: {error}"));
        // Brandubh games are short: play many, so that the rarer endings come up.
        agree_along_random_games(label, &variant.rules, 100, false);
    }
}
