//! Game records against the rules: the human game corpora in tests/games/ replay through the
//! bundled variants, OpenTafl's own `.otg` files read and round-trip, and the record formats
//! agree with each other.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use tafl::engine::Engine;
use tafl::record::{self, check, Format};

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games")
}

fn engine(variant: &str) -> Arc<Engine> {
    let rules = tafl::Variant::bundled(variant).unwrap().rules;
    Arc::new(Engine::new(&rules).unwrap())
}

/// Replays every game of a corpus and counts the verdicts by category, and the games that end
/// early by the rule that ends them (`ends_early:repetition`).
fn tally(variant: &str, file: &str) -> BTreeMap<String, usize> {
    let engine = engine(variant);
    let text = std::fs::read_to_string(games_dir().join(file)).unwrap();
    let mut counts = BTreeMap::new();
    for game in record::parse(&text, Format::detect(Some(file), &text)) {
        let game = game.unwrap_or_else(|e| panic!("{file}: {e}"));
        let replay = check::replay(&engine, &game);
        let key = match &replay.verdict {
            check::Verdict::EndsEarly { reason, .. } => format!("ends_early:{}", reason.as_str()),
            check::Verdict::Agrees => match replay.game.reason() {
                Some(reason) => format!("agrees:{}", reason.as_str()),
                None => "agrees:unfinished".to_string(),
            },
            other => {
                println!("{file} line {}: {other:?}", game.line);
                other.category().to_string()
            }
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    println!("{variant} / {file}: {counts:#?}");
    counts
}

/// The expected tally, as `(category, games)`.
fn expected(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|&(k, n)| (k.to_string(), n)).collect()
}

/// Every one of the 1,752 Copenhagen games replays through the bundled `copenhagen`: every move
/// legal, every written capture ours, no result contradicted. `agrees:REASON` counts the games
/// that end at their last move by that rule (`unfinished`: the rules leave the game going on and
/// the record's result is a resignation or a timeout the moves do not show);
/// `ends_early:REASON` counts those the rules end before the players stopped. The figures change
/// when a rule's reading changes (the exit fort's, say): update them from the printed tally,
/// never by loosening a rule.
#[test]
fn every_copenhagen_game_replays_with_equal_captures_and_no_contradicting_result() {
    let counts = tally("copenhagen", "copenhagen.csv");
    assert_eq!(counts.values().sum::<usize>(), 1752);
    assert_eq!(
        counts,
        expected(&[
            ("agrees:edge_fort", 4),
            ("agrees:encircled", 24),
            ("agrees:king_captured", 45),
            ("agrees:king_escaped", 233),
            ("agrees:no_moves", 20),
            ("agrees:unfinished", 1415),
            ("ends_early:repetition", 11),
        ])
    );
}

/// Every one of the 525 Brandubh games replays through `federation-brandubh`, the hnefatafl
/// crate's preset the games were recorded under. Five games go on past a third repetition,
/// which the preset makes a loss (the crate's own test skips such games).
#[test]
fn every_brandubh_game_replays_through_federation_brandubh() {
    let counts = tally("federation-brandubh", "brandubh.csv");
    assert_eq!(counts.values().sum::<usize>(), 525);
    assert_eq!(
        counts,
        expected(&[
            ("agrees:king_captured", 66),
            ("agrees:king_escaped", 37),
            ("agrees:no_moves", 1),
            ("agrees:unfinished", 416),
            ("ends_early:repetition", 5),
        ])
    );
}

/// Leaf count with the hnefatafl crate (github.com/bunburya/hnefatafl-rs, the dev-dependency),
/// whose BRANDUBH preset `federation-brandubh` is written from: an independent implementation.
fn hnefatafl_perft<B: hnefatafl::board::state::BoardState>(
    logic: &hnefatafl::game::logic::GameLogic<B>,
    state: &hnefatafl::game::state::GameState<B>,
    depth: u32,
) -> u64 {
    let mut total = 0;
    for tile in state.board.occupied_by_side(state.side_to_play) {
        let Ok(plays) = logic.iter_plays(tile, state) else {
            continue;
        };
        for play in plays {
            if depth == 1 {
                total += 1;
                continue;
            }
            let next = logic.do_valid_play(play, *state).new_state;
            if next.status == hnefatafl::game::GameStatus::Ongoing {
                total += hnefatafl_perft(logic, &next, depth - 1);
            }
        }
    }
    total
}

#[test]
fn federation_brandubh_perft_matches_the_hnefatafl_crate() {
    use hnefatafl::preset::{boards, rules};
    let logic = hnefatafl::game::logic::GameLogic::new(rules::BRANDUBH, 7);
    let state = hnefatafl::game::state::GameState::<hnefatafl::aliases::SmallBasicBoardState>::new(
        boards::BRANDUBH,
        hnefatafl::pieces::Side::Attacker,
    )
    .unwrap();
    let engine = engine("federation-brandubh");
    for depth in 1..=4 {
        let theirs = hnefatafl_perft(&logic, &state, depth);
        let ours = engine.perft(&engine.start(), depth);
        assert_eq!(ours, theirs, "depth {depth}");
    }
}

fn otg_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(games_dir().join("opentafl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "otg"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    files
}

/// OpenTafl's own records read; written back and read again they give the same moves, captures,
/// comments and tags.
#[test]
fn opentafl_records_read_and_round_trip() {
    for path in otg_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        assert_eq!(Format::detect(path.to_str(), &text), Format::OpenTafl);
        let game = record::otg::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(game.moves.len() >= 19, "{name}: {} moves", game.moves.len());
        assert!(game.tags.result.is_some(), "{name}");
        let rules = game.tags.opentafl_rules.clone().unwrap();
        // Plies as the writer takes them; sides alternate in these games (no berserk).
        let plies: Vec<record::native::WrittenPly> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| record::native::WrittenPly {
                mv: m.mv,
                mover: if i % 2 == 0 {
                    tafl::Side::Attackers
                } else {
                    tafl::Side::Defenders
                },
                captures: m.captures.clone().unwrap_or_default(),
                comment: m.comment.clone(),
            })
            .collect();
        let written = record::otg::write(&game.tags, &rules, &plies);
        let again =
            record::otg::parse(&written).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
        assert_eq!(again.tags.opentafl_rules.as_deref(), Some(rules.as_str()));
        assert_eq!(again.tags.result, game.tags.result, "{name}");
        assert_eq!(again.tags.attackers, game.tags.attackers, "{name}");
        assert_eq!(again.tags.date, game.tags.date, "{name}");
        assert_eq!(again.tags.other.len(), game.tags.other.len(), "{name}");
        let moves = |g: &record::GameRecord| {
            g.moves
                .iter()
                .map(|m| {
                    (
                        m.mv,
                        m.captures.clone().unwrap_or_default(),
                        m.comment.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&again), moves(&game), "{name}");
    }
}

/// The Grandmasters' Tournament game (OpenTafl's `sw:s efe:y`: Copenhagen's shieldwall and edge
/// fort) replays through the bundled `copenhagen`, its written captures included.
#[test]
fn the_copenhagen_tournament_game_replays() {
    let engine = engine("copenhagen");
    let mut checked = 0;
    for path in otg_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.contains("Grandmasters") {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let game = record::otg::parse(&text).unwrap();
        let replay = check::replay(&engine, &game);
        println!(
            "{name}: {:?} after {} plies",
            replay.verdict,
            replay.game.plies().len()
        );
        assert_eq!(replay.verdict, check::Verdict::Agrees, "{name}");
        assert_eq!(replay.game.plies().len(), game.moves.len());
    }
    assert_eq!(checked, 1);
}
