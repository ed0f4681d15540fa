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
            ("agrees:edge_fort", 48),
            ("agrees:encircled", 24),
            ("agrees:king_captured", 45),
            ("agrees:king_escaped", 233),
            ("agrees:no_moves", 20),
            ("agrees:unfinished", 1371),
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

/// Runs the real binary in `dir` with `args`, feeding `input`.
fn tafl(dir: &std::path::Path, args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `save`, `load` and `save` again write the same record: the game, its captures and its result
/// survive the round trip, and the record replays through `tafl games check`.
#[test]
fn repl_save_load_save_gives_the_same_record() {
    let dir = scratch("save-load");
    // Seven moves ending in the king's capture: a result the record must keep.
    let moves = "a4-a3\ne7-h7\na3-a2\ne6-c6\na2-a1\ne5-e7\ni6-e6\n";
    let script = format!("{moves}save one.txt\nnew\nload one.txt\nsave two.txt\n");
    let output = tafl(&dir, &["play", "linnaeus"], &script);
    assert!(output.status.success());
    let one = std::fs::read_to_string(dir.join("one.txt")).unwrap();
    let two = std::fs::read_to_string(dir.join("two.txt")).unwrap();
    assert_eq!(one, two);
    assert!(
        one.contains("result: attackers_win (king_captured)"),
        "{one}"
    );
    assert!(one.contains("rules: fnv1a64:"), "{one}");
    let game = record::native::parse(&one).unwrap();
    assert_eq!(game.moves.len(), 7);
    let check = tafl(
        &dir,
        &["games", "check", "linnaeus", "one.txt", "--json"],
        "",
    );
    assert_eq!(check.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(json["counts"]["agrees"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record saved under one variant is refused by another with other rules: the hash differs.
#[test]
fn a_record_is_never_replayed_under_other_rules() {
    let dir = scratch("other-rules");
    let output = tafl(&dir, &["play", "linnaeus"], "a4-a3\nsave one.txt\n");
    assert!(output.status.success());
    let text = std::fs::read_to_string(dir.join("one.txt")).unwrap();
    std::fs::write(
        dir.join("other.txt"),
        text.replace("variant: linnaeus", "variant: brettspielnetz"),
    )
    .unwrap();
    let output = tafl(&dir, &["play", "linnaeus"], "load other.txt\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        format!("{stdout}{stderr}").contains("was played under other rules"),
        "{stdout}{stderr}"
    );
    let check = tafl(&dir, &["games", "check", "brettspielnetz", "one.txt"], "");
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains("other rules"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `games check`: disagreements name the game, line and column and exit 1; an unreadable game is
/// a diagnostic with its line and column, the other games are still checked, and the exit is 2.
#[test]
fn games_check_reports_each_game_and_exits_by_the_worst() {
    let dir = scratch("check");
    // Game 1 agrees; game 2 plays a move from an empty square; game 3 writes a capture that
    // does not happen; game 4 is not readable; game 5 agrees.
    let rows = "d6-c6 e4-e1,0,0,Ongoing\n\
                d6-c6 a1-a2,0,0,Ongoing\n\
                d6-c6xc5,0,0,\n\
                d6-c6 zz,0,0,White\n\
                d2-e2,0,0,Black\n";
    std::fs::write(dir.join("games.csv"), rows).unwrap();
    let output = tafl(
        &dir,
        &["games", "check", "federation-brandubh", "games.csv"],
        "",
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("games.csv:2:7: game 2: illegal move"),
        "{stdout}"
    );
    assert!(
        stdout.contains("games.csv:3:1: game 3: captures differ"),
        "{stdout}"
    );
    assert!(stderr.contains("`zz` is not a move"), "{stderr}");
    assert!(stderr.contains("games.csv:4:7"), "{stderr}");
    // Without the unreadable row: disagreements alone exit 1.
    let readable: String = rows
        .lines()
        .filter(|l| !l.contains("zz"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("games.csv"), readable).unwrap();
    let output = tafl(
        &dir,
        &[
            "games",
            "check",
            "federation-brandubh",
            "games.csv",
            "--json",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["counts"]["agrees"], 2);
    assert_eq!(json["counts"]["illegal_move"], 1);
    assert_eq!(json["counts"]["captures_differ"], 1);
    assert_eq!(json["files"][0]["games"], 4);
    // A missing file is unreadable input.
    let output = tafl(
        &dir,
        &["games", "check", "federation-brandubh", "missing.csv"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `games stats`: the counts, Wilson intervals and endings agree with the corpus, and the chart
/// is an opaque SVG with the counts written on it.
#[test]
fn games_stats_counts_the_brandubh_corpus() {
    let dir = scratch("stats");
    let corpus = games_dir().join("brandubh.csv");
    let svg = dir.join("chart.svg");
    let output = tafl(
        &dir,
        &[
            "games",
            "stats",
            "federation-brandubh",
            corpus.to_str().unwrap(),
            "--json",
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The corpus README: 308 White (defenders), 208 Black (attackers), 2 Draw, 5 Ongoing, 2 blank.
    assert_eq!(json["games"], 525);
    assert_eq!(json["defenders_win"], 308);
    assert_eq!(json["attackers_win"], 208);
    assert_eq!(json["draw"], 2);
    assert_eq!(json["unfinished"], 7);
    let rate = json["defenders"]["rate"].as_f64().unwrap();
    assert!((rate - 308.0 / 518.0).abs() < 1e-9);
    let (low, high) = (
        json["defenders"]["low"].as_f64().unwrap(),
        json["defenders"]["high"].as_f64().unwrap(),
    );
    assert!(low < rate && rate < high && high - low < 0.1);
    assert_eq!(json["endings"]["king_captured"], 66);
    // One vocabulary: names in the JSON, the same endings in words in the chart.
    for name in json["endings"].as_object().unwrap().keys() {
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{name}"
        );
    }
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains(">the king was captured<"), "{chart}");
    assert!(chart.contains(">games<"), "the endings' own axis");
    assert!(chart.starts_with("<svg"));
    assert!(chart.contains("fill=\"#ffffff\""), "an opaque background");
    assert!(
        chart.contains(">308 ("),
        "the count is written on the chart"
    );
    assert!(chart.contains("100%"), "an axis");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--format` forces a reader: a move list in a `.csv`-named file reads as moves, and its
/// `resigned` makes the side to move lose, which contradicts nothing.
#[test]
fn games_check_reads_move_lists_and_forced_formats() {
    let dir = scratch("formats");
    std::fs::write(
        dir.join("list.csv"),
        "1. d6-c6 e4-e1\n2. c6-c5\nresigned\n\nd2-e2 d3-d2\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "games",
            "check",
            "federation-brandubh",
            "list.csv",
            "--json",
        ];
        args.extend_from_slice(extra);
        tafl(&dir, &args, "")
    };
    // Guessed from the extension, the file is read as corpus rows and refused.
    assert_eq!(run(&[]).status.code(), Some(2));
    let output = run(&["--format", "moves"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["files"][0]["format"], "moves");
    assert_eq!(json["counts"]["agrees"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Tafl Triathlon's Brandubh game (OpenTafl's `ks:c`: a king strong on and beside the
/// throne) replays through `federation-brandubh`, whose king is strong there too, and not through
/// the bundled `brandubh` (OpenTafl's Brandub, a weak king), where the king falls at ply 13.
#[test]
fn the_triathlon_brandubh_game_tells_the_two_brandubhs_apart() {
    let path = games_dir().join("opentafl/Animals-Xerxes-Brandub-Triathlon-2015.otg");
    let game = record::otg::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let strong = check::replay(&engine("federation-brandubh"), &game);
    assert_eq!(strong.verdict, check::Verdict::Agrees);
    let weak = check::replay(&engine("brandubh"), &game);
    assert_eq!(
        weak.verdict,
        check::Verdict::EndsEarly {
            after: 13,
            status: tafl::Status::AttackersWin,
            reason: tafl::engine::EndReason::KingCaptured,
            unplayed: game.moves.len() - 13,
        }
    );
}

/// The Tafl Triathlon 2015 games, played at aagenielsen.dk: the 9x9 game ("9x9 Tablut or Saami
/// Tafl", its commentary says) replays through `saami-tablut`, the site's rule sheet, every one
/// of its plies agreeing, and so does the Brandubh game through `brandubh-aagenielsen`, whose
/// king is taken by two except on the throne and never against the empty throne, as the site's
/// own records of its Brandubh show (tests/rules/brandubh-aagenielsen/); under OpenTafl's
/// Brandub, whose king is taken by two against the empty throne too, he falls at ply 13.
#[test]
fn the_triathlon_games_replay_through_the_sites_own_rules() {
    let path =
        games_dir().join("opentafl/Altti-Piirsoo-Steve-Lonsdale-Sea-Battle-Triathlon-2015.otg");
    let game = record::otg::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tablut = check::replay(&engine("saami-tablut"), &game);
    assert_eq!(tablut.verdict, check::Verdict::Agrees);
    let path = games_dir().join("opentafl/Animals-Xerxes-Brandub-Triathlon-2015.otg");
    let game = record::otg::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let site = check::replay(&engine("brandubh-aagenielsen"), &game);
    assert_eq!(site.verdict, check::Verdict::Agrees);
    let brandubh = check::replay(&engine("brandubh"), &game);
    assert_eq!(
        brandubh.verdict,
        check::Verdict::EndsEarly {
            after: 13,
            status: tafl::Status::AttackersWin,
            reason: tafl::engine::EndReason::KingCaptured,
            unplayed: game.moves.len() - 13,
        }
    );
}

// Hostile input (issue 47): every record format survives what a careless or hostile file can
// hold, and says what is wrong with it.

/// The text of `output`'s standard output and error, and a check that nothing panicked.
fn outputs(output: &std::process::Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !stderr.contains("panicked") && output.status.code() != Some(101),
        "a panic: {stderr}"
    );
    (stdout, stderr)
}

/// An OpenTafl record's `rules` tag is compared with the variant's board, as a native record's
/// rules hash is: an 11x11 game is not a Brandubh game, whatever its moves. A tag given twice
/// is refused, not silently replaced.
#[test]
fn an_opentafl_record_of_another_board_or_with_a_tag_twice_is_refused() {
    let dir = scratch("otg-rules");
    // No moves: nothing for the replay to refuse, only the rules tag to compare.
    std::fs::write(
        dir.join("eleven.otg"),
        "[result:?]\n[rules:dim:11 start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]\n",
    )
    .unwrap();
    let output = tafl(&dir, &["games", "check", "brandubh", "eleven.otg"], "");
    let (stdout, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "other rules: the record was played under other rules (dim:11; Brandubh has dim:7)"
        ),
        "{stdout}"
    );
    // `load` in `tafl play` refuses it too (its lines wrapped to the terminal).
    let output = tafl(&dir, &["play", "brandubh"], "load eleven.otg\n");
    let (stdout, stderr) = outputs(&output);
    let said = format!("{stdout}{stderr}")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.contains("the record's `rules` tag gives dim:11; brandubh has dim:7"),
        "{said}"
    );
    // The Triathlon game's own board is federation-brandubh's; without an attacker on d6 it is not.
    let triathlon = games_dir().join("opentafl/Animals-Xerxes-Brandub-Triathlon-2015.otg");
    let text = std::fs::read_to_string(&triathlon).unwrap();
    let moved = text.replace(
        "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "start:/3t3/3t3/3T3/ttTKTtt/3T3/7/3t3/",
    );
    assert_ne!(moved, text);
    let game = record::otg::parse(&moved).unwrap();
    assert_eq!(
        check::replay(&engine("federation-brandubh"), &game).verdict,
        check::Verdict::OtherRules {
            written: "start: nothing on d6".to_string(),
            ours: "an attacker on d6".to_string()
        }
    );
    // A tag twice.
    std::fs::write(
        dir.join("twice.otg"),
        text.replacen("[result:-1]", "[result:1]\n[result:-1]", 1),
    )
    .unwrap();
    let output = tafl(
        &dir,
        &["games", "check", "federation-brandubh", "twice.otg"],
        "",
    );
    let (_, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the tag `[result:...]` is given twice"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A word past column 65,536 panicked miette's renderer in every format. A line longer than
/// 64 KiB is now refused with a label at its start; a shorter one whose word is drawn far to
/// the right (tabs are drawn 4 wide) is shown around the word.
#[test]
fn a_word_far_to_the_right_is_an_error_in_every_format_not_a_panic() {
    let dir = scratch("columns");
    let far = format!("{}zz\n", " ".repeat(65_536));
    for (format, text) in [
        ("native", format!("variant: copenhagen\n{far}")),
        ("otg", format!("[rules:dim:11]\n{far}")),
        ("csv", far.clone()),
        ("moves", far.clone()),
    ] {
        std::fs::write(dir.join("col.txt"), &text).unwrap();
        let output = tafl(
            &dir,
            &[
                "games",
                "check",
                "copenhagen",
                "col.txt",
                "--format",
                format,
            ],
            "",
        );
        let (_, stderr) = outputs(&output);
        assert_eq!(output.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.contains("bytes long; a record's lines may be at most 65536 bytes"),
            "{format}: {stderr}"
        );
    }
    // Under the line limit, 20,000 tabs put the word at column 80,001 as drawn.
    std::fs::write(
        dir.join("tabs.csv"),
        format!(
            "d6-c6 e4-e1,0,0,Ongoing\n{}zz,0,0,White\n",
            "\t".repeat(20_000)
        ),
    )
    .unwrap();
    let output = tafl(
        &dir,
        &["games", "check", "federation-brandubh", "tabs.csv"],
        "",
    );
    let (_, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 2, column 20001: `zz` is not a move"),
        "{stderr}"
    );
    assert!(stderr.contains("[tabs.csv:2:20001]"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A byte-order mark is no part of the first word, and a file whose lines end in a lone `\r`
/// has its lines counted (miette's renderer used to number the lines of such a file from 0).
#[test]
fn byte_order_marks_and_lone_carriage_returns_are_read_as_editors_show_them() {
    let dir = scratch("line-ends");
    let rows = "d6-c6 e4-e1,0,0,Ongoing\nd6-c6 zz,0,0,White\n";
    for (name, text) in [
        ("bom.csv", format!("\u{feff}{rows}")),
        ("cr.csv", rows.replace('\n', "\r")),
        ("crlf.csv", rows.replace('\n', "\r\n")),
        (
            "bom-cr.csv",
            format!("\u{feff}{}", rows.replace('\n', "\r")),
        ),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
        let output = tafl(
            &dir,
            &["games", "check", "federation-brandubh", name, "--json"],
            "",
        );
        let (stdout, stderr) = outputs(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["counts"]["agrees"], 1, "{name}: {stdout}{stderr}");
        assert_eq!(json["files"][0]["unreadable"], 1, "{name}");
        assert!(
            stderr.contains("line 2, column 7: `zz` is not a move"),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("[{name}:2:7]")),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains(" 2 │ d6-c6 zz,0,0,White"),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains(" 0 │"), "{name}: {stderr}");
    }
    // The other formats: a native record and an OpenTafl one, each marked and ending its lines
    // in `\r`; a move list whose games are separated by a blank `\r` line.
    let native =
        record::native::parse("\u{feff}variant: linnaeus\r\r1. a4-a3 e7-h7\r2. zz\r").unwrap_err();
    assert_eq!((native.line, native.column), (4, 4));
    let native = record::native::parse("\u{feff}variant: linnaeus\r\r1. a4-a3 e7-h7\r").unwrap();
    assert_eq!(native.tags.variant.as_deref(), Some("linnaeus"));
    assert_eq!((native.moves[1].line, native.moves[1].column), (3, 10));
    let otg =
        "\u{feff}[result:1]\r[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\r\r1. d6-c6\r";
    assert_eq!(Format::detect(None, otg), Format::OpenTafl);
    let otg = record::otg::parse(otg).unwrap();
    assert_eq!((otg.moves[0].line, otg.moves[0].column), (4, 4));
    let lists = record::parse("d6-c6 e4-e1\r\rd2-e2\r", Format::MoveList);
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[1].as_ref().unwrap().line, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file is read up to a limit (`--max-file-size`, 256 MiB unless given), a device such as
/// /dev/zero included, and at most 100 unreadable games are shown, the rest counted.
#[test]
fn files_are_read_up_to_a_limit_and_problems_shown_up_to_a_limit() {
    let dir = scratch("limits");
    if std::path::Path::new("/dev/zero").exists() {
        let output = tafl(
            &dir,
            &[
                "games",
                "check",
                "copenhagen",
                "/dev/zero",
                "--max-file-size",
                "1M",
            ],
            "",
        );
        let (_, stderr) = outputs(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("cannot read `/dev/zero`: it goes on, more than the 1 MiB a record file may be; --max-file-size raises the limit"),
            "{stderr}"
        );
    }
    std::fs::write(dir.join("big.csv"), "d6-c6 e4-e1,0,0,Ongoing\n".repeat(100)).unwrap();
    let run = |limit: &str| {
        tafl(
            &dir,
            &[
                "games",
                "check",
                "federation-brandubh",
                "big.csv",
                "--max-file-size",
                limit,
            ],
            "",
        )
    };
    let output = run("1K");
    let (_, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("it is 2400 bytes, more than the 1 KiB a record file may be"),
        "{stderr}"
    );
    assert_eq!(run("3K").status.code(), Some(0));
    // 150 unreadable games: 100 shown, 50 counted.
    std::fs::write(dir.join("bad.csv"), "d6-c6 zz,0,0,White\n".repeat(150)).unwrap();
    let output = tafl(
        &dir,
        &["games", "check", "federation-brandubh", "bad.csv"],
        "",
    );
    let (stdout, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr.matches("is not a move").count(), 100, "{stderr}");
    assert!(
        stderr.contains("note: 50 more problems are not shown: only the first 100 are"),
        "{stderr}"
    );
    assert!(stdout.contains("150 could not be read"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game is streamed: memory holds one batch of games, not every game read. The peak
/// resident memory of `games stats` over the Copenhagen corpus twice (3,504 games) stays under
/// 64 MB; keeping every replayed game took about 200 MB.
#[cfg(target_os = "linux")]
#[test]
// The child is reaped by `wait4` below, which clippy does not know.
#[allow(clippy::zombie_processes)]
fn games_are_streamed_not_kept() {
    let dir = scratch("memory");
    let corpus = std::fs::read_to_string(games_dir().join("copenhagen.csv")).unwrap();
    std::fs::write(dir.join("twice.csv"), corpus.repeat(2)).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["games", "stats", "copenhagen", "twice.csv", "--json"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // wait4 gives this child's own peak, where getrusage would give the largest of all the
    // children the tests run in parallel.
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain C structs filled in by the kernel.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    // Kilobytes on Linux.
    let peak_mb = usage.ru_maxrss / 1024;
    println!("peak resident memory: {peak_mb} MB");
    assert!(peak_mb < 64, "peak resident memory {peak_mb} MB");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `games stats` counts only the games the rules accept: the Copenhagen corpus read as Brandubh
/// games is no Brandubh statistic. The games left out are counted, and the exit status is 1.
#[test]
fn games_stats_leaves_out_the_games_the_rules_refuse() {
    let dir = scratch("stats-illegal");
    let corpus = games_dir().join("copenhagen.csv");
    let output = tafl(
        &dir,
        &[
            "games",
            "stats",
            "brandubh",
            corpus.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    let (stdout, stderr) = outputs(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 0, "{stdout}");
    assert_eq!(json["left_out"], 1752);
    assert_eq!(json["left_out_by_verdict"]["illegal_move"], 1752);
    // Two games agree, one plays an illegal move and one writes a capture that does not happen.
    std::fs::write(
        dir.join("mixed.csv"),
        "d6-c6 e4-e1,0,0,Ongoing\nd6-c6 a1-a2,0,0,White\nd6-c6xc5,0,0,\nd2-e2,0,0,Black\n",
    )
    .unwrap();
    let output = tafl(
        &dir,
        &["games", "stats", "federation-brandubh", "mixed.csv"],
        "",
    );
    let (stdout, _) = outputs(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.starts_with("2 games of "), "{stdout}");
    assert!(
        stdout.contains("Left out: 2 games that disagree with the rules of Federation Brandubh (captures differ 1, illegal move 1): `tafl games check` says where."),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// Property tests of every record reader: what a writer writes reads back, whatever the line
// ends and with or without a byte-order mark, and any text is read without a panic, with every
// position where a reference count puts it. Few cases each: a second or two in all.

use proptest::prelude::*;

/// Where byte `offset` of `text` is, counted independently of the library: lines end at
/// `\r\n`, `\r` or `\n`, columns count characters, a leading byte-order mark is no column.
fn reference_line_column(text: &str, offset: usize) -> (usize, usize) {
    let body = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let before = text[body..offset.max(body)]
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The bundled variants to play random games in, with their engines and OpenTafl rules
/// strings (for those OpenTafl can say).
fn playable() -> &'static [(Arc<Engine>, Option<String>)] {
    static PLAYABLE: std::sync::OnceLock<Vec<(Arc<Engine>, Option<String>)>> =
        std::sync::OnceLock::new();
    PLAYABLE.get_or_init(|| {
        tafl::bundled_names()
            .map(|name| {
                let engine = engine(name);
                let rules = tafl::opentafl::export(engine.rules()).ok();
                (engine, rules)
            })
            .collect()
    })
}

/// A game of up to `plies` moves, each picked from the legal ones by `picks`.
fn random_game(engine: &Arc<Engine>, picks: &[prop::sample::Index]) -> tafl::Game {
    let mut game = tafl::Game::new(engine.clone());
    for pick in picks {
        let legal = game.legal_moves();
        if legal.is_empty() || game.is_over() {
            break;
        }
        game.play(legal[pick.index(legal.len())]).unwrap();
    }
    game
}

/// A corpus row of `game`: every capture written, as the corpora and `tafl match` write them.
fn csv_row(game: &tafl::Game) -> String {
    let plays: Vec<String> = game
        .plies()
        .iter()
        .map(|ply| {
            let captures: String = ply.captured.iter().map(|sq| format!("x{sq}")).collect();
            format!("{}{captures}", ply.mv)
        })
        .collect();
    format!("{},0,0,", plays.join(" "))
}

/// `text` with its `\n` line ends made `end`, and a byte-order mark if `mark`.
fn dressed(text: &str, end: &str, mark: bool) -> String {
    let text = text.replace('\n', end);
    if mark {
        format!("\u{feff}{text}")
    } else {
        text
    }
}

/// The moves read, with their captures as the game made them when the format writes them.
fn moves_of(record: &record::GameRecord) -> Vec<tafl::Move> {
    record.moves.iter().map(|m| m.mv).collect()
}

/// Every move of every game of `text` read as `format` is where the reference puts it.
fn positions_hold(text: &str, format: Format) -> Result<(), TestCaseError> {
    let games: Vec<_> = record::games(text, format).collect();
    prop_assert_eq!(&games, &record::parse(text, format));
    for game in games {
        match game {
            Ok(game) => {
                for m in &game.moves {
                    prop_assert!(m.span.end <= text.len());
                    prop_assert_eq!(
                        (m.line, m.column),
                        reference_line_column(text, m.span.start)
                    );
                }
            }
            Err(error) => {
                prop_assert!(error.span.start <= error.span.end && error.span.end <= text.len());
                prop_assert_eq!(
                    (error.line, error.column),
                    reference_line_column(text, error.span.start),
                    "{:?}",
                    error
                );
            }
        }
    }
    Ok(())
}

fn line_end() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["\n", "\r\n", "\r"])
}

/// Text made of the pieces records are made of, and of what breaks them.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "d6-c6",
        "e4-e1",
        "d1-d3xd4",
        "Ke5-e1",
        "zz",
        "1.",
        "12...",
        "x",
        "timeout",
        "resigned",
        "---",
        " ",
        " ",
        "\t",
        ",",
        ",0,0,White",
        "\n",
        "\r",
        "\r\n",
        "#",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ":",
        "|",
        "variant:",
        "result:",
        "rules:",
        "[rules:dim:7]",
        "[date:x]",
        "\u{feff}",
        "é",
        "漢",
        "0",
    ]);
    (
        prop::collection::vec(piece, 0..40),
        any::<bool>(),
        prop::option::of(any::<prop::sample::Index>()),
    )
        .prop_map(|(pieces, mark, long)| {
            let mut text: String = pieces.concat();
            if let Some(at) = long {
                // Now and then a line past the limit, somewhere.
                let boundaries: Vec<usize> = (0..=text.len())
                    .filter(|&i| text.is_char_boundary(i))
                    .collect();
                let at = boundaries[at.index(boundaries.len())];
                text.insert_str(at, &"w".repeat(record::limits::MAX_LINE_BYTES + 1));
            }
            if mark {
                text.insert(0, '\u{feff}');
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Native records: `native::write` reads back, with the moves, captures and result, where
    /// the reference puts them, whatever the line ends.
    #[test]
    fn native_records_read_back(variant in any::<prop::sample::Index>(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..60), end in line_end(), mark in any::<bool>()) {
        let (engine, _) = &playable()[variant.index(playable().len())];
        let game = random_game(engine, &picks);
        let tags = record::Tags {
            rules_hash: Some(record::rules_hash(engine.rules())),
            result: record::native::parse_result("ongoing"),
            ..record::Tags::default()
        };
        let text = dressed(&record::native::write(&tags, &record::native::WrittenPly::of_game(&game)), end, mark);
        prop_assert_eq!(Format::detect(None, &text), Format::Native);
        let read = record::native::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text:?}")))?;
        prop_assert_eq!(moves_of(&read), game.plies().iter().map(|p| p.mv).collect::<Vec<_>>());
        prop_assert_eq!(check::replay(engine, &read).verdict, check::Verdict::Agrees);
        positions_hold(&text, Format::Native)?;
    }

    /// OpenTafl records: `otg::write` reads back and replays, its rules tag the variant's.
    #[test]
    fn opentafl_records_read_back(variant in any::<prop::sample::Index>(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..60), end in line_end(), mark in any::<bool>()) {
        let sayable: Vec<_> = playable().iter().filter(|(_, rules)| rules.is_some()).collect();
        let (engine, rules) = sayable[variant.index(sayable.len())];
        let game = random_game(engine, &picks);
        let rules = rules.as_deref().unwrap_or_default();
        let text = dressed(&record::otg::write(&record::Tags::default(), rules, &record::native::WrittenPly::of_game(&game)), end, mark);
        prop_assert_eq!(Format::detect(None, &text), Format::OpenTafl);
        let read = record::otg::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text:?}")))?;
        prop_assert_eq!(moves_of(&read), game.plies().iter().map(|p| p.mv).collect::<Vec<_>>());
        prop_assert_eq!(check::replay(engine, &read).verdict, check::Verdict::Agrees);
        positions_hold(&text, Format::OpenTafl)?;
    }

    /// Corpus rows and move lists: several games a file read back one by one, each where it
    /// was written, with its captures.
    #[test]
    fn corpus_rows_and_move_lists_read_back(variant in any::<prop::sample::Index>(), games in prop::collection::vec(prop::collection::vec(any::<prop::sample::Index>(), 1..40), 1..5), end in line_end(), mark in any::<bool>()) {
        let (engine, _) = &playable()[variant.index(playable().len())];
        let games: Vec<tafl::Game> = games.iter().map(|picks| random_game(engine, picks)).collect();
        let rows: String = games.iter().map(|g| format!("{}\n", csv_row(g))).collect();
        let lists: String = games
            .iter()
            .map(|g| g.plies().iter().map(|p| p.mv.to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n\n# the next game\n");
        for (text, format) in [(dressed(&rows, end, mark), Format::Csv), (dressed(&lists, end, mark), Format::MoveList)] {
            let read: Vec<_> = record::games(&text, format).collect();
            prop_assert_eq!(read.len(), games.len(), "{:?}", text);
            for (read, game) in read.iter().zip(&games) {
                let read = read.as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text:?}")))?;
                prop_assert_eq!(moves_of(read), game.plies().iter().map(|p| p.mv).collect::<Vec<_>>());
                let verdict = check::replay(engine, read).verdict;
                prop_assert!(!verdict.is_disagreement(), "{:?}", verdict);
            }
            positions_hold(&text, format)?;
        }
    }

    /// Any text, in every format: no panic, every game a record or an error, every position
    /// where the reference puts it, and every game read replays without a panic.
    #[test]
    fn any_text_reads_without_a_panic_in_every_format(text in hostile_text()) {
        let engine = engine("federation-brandubh");
        let engine = &engine;
        for format in [Format::Native, Format::OpenTafl, Format::Csv, Format::MoveList, Format::detect(None, &text)] {
            positions_hold(&text, format)?;
            for game in record::games(&text, format).flatten() {
                let replay = check::replay(engine, &game);
                prop_assert!(replay.span(&game).end <= text.len());
            }
        }
    }
}
