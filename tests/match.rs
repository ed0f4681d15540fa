//! `tafl match`: the statistics against hand-computed values, and a small seeded match at a
//! fixed depth that is the same every time and writes games that replay to their results.

use std::process::Command;
use std::sync::Arc;

use tafl::engine::{Engine, Move};
use tafl::search::duel::{csv_row, opening, play_out, Adjudication, Resign};
use tafl::search::stats::{elo, expected_score, Pentanomial, Sprt, Trinomial, Verdict};
use tafl::search::{Limits, Settings};
use tafl::{Game, Side, Status, Variant};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

#[test]
fn elo_follows_the_logistic_model() {
    assert!(close(elo(0.5), 0.0));
    // 10 to 1 is 400 Elo.
    assert!(close(elo(10.0 / 11.0), 400.0));
    assert!(close(elo(1.0 / 11.0), -400.0));
    assert!(close(expected_score(400.0), 10.0 / 11.0));
    assert!(close(expected_score(elo(0.3)), 0.3));
}

#[test]
fn the_trinomial_interval_matches_a_hand_computation() {
    // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
    // (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16, half-width 1.96·√(0.16/100) = 0.0784;
    // Elo 400·log10(0.7/0.3) = 147.19, ends 400·log10(0.6216/0.3784) = 86.23 and
    // 400·log10(0.7784/0.2216) = 218.25.
    let e = Trinomial {
        wins: 60,
        draws: 20,
        losses: 20,
    }
    .estimate()
    .unwrap();
    assert!(close(e.score, 0.7), "{e:?}");
    assert!(close(e.elo.unwrap(), 147.19), "{e:?}");
    assert!(close(e.elo_low.unwrap(), 86.23), "{e:?}");
    assert!(close(e.elo_high.unwrap(), 218.25), "{e:?}");
}

#[test]
fn the_pentanomial_interval_matches_a_hand_computation() {
    // Pairs scoring 0, ½, 1, 1½, 2 points: 2, 5, 10, 8, 5 times (30 pairs). Halved pair scores
    // 0, .25, .5, .75, 1: mean 17.25/30 = 0.575, variance 0.079792; Elo 52.51, interval
    // -18.14 to 127.82.
    let pairs = Pentanomial([2, 5, 10, 8, 5]);
    let e = pairs.estimate().unwrap();
    assert!(close(e.score, 0.575), "{e:?}");
    assert!(close(e.elo.unwrap(), 52.51), "{e:?}");
    assert!(close(e.elo_low.unwrap(), -18.14), "{e:?}");
    assert!(close(e.elo_high.unwrap(), 127.82), "{e:?}");
}

#[test]
fn a_perfect_score_has_no_finite_elo() {
    let e = Trinomial {
        wins: 10,
        draws: 0,
        losses: 0,
    }
    .estimate()
    .unwrap();
    assert_eq!(e.elo, None);
    assert!(Trinomial::default().estimate().is_none());
}

#[test]
fn the_sprt_matches_a_hand_computation() {
    // The same pairs, H0: 0 Elo, H1: 50 Elo. s0 = 0.5, s1 = 1/(1 + 10^(-50/400)) = 0.571463;
    // LLR = 30·(s1 - s0)·(2·0.575 - s0 - s1)/(2·0.079792) = 1.0551.
    let sprt = Sprt::new(0.0, 50.0);
    let pairs = Pentanomial([2, 5, 10, 8, 5]);
    assert!(close(sprt.llr(&pairs), 1.0551), "{}", sprt.llr(&pairs));
    let (low, high) = sprt.bounds();
    assert!(close(low, -2.9444) && close(high, 2.9444));
    assert_eq!(sprt.verdict(&pairs), Verdict::Continue);
    // Three times the pairs, the same proportions: three times the LLR, past the bound.
    let more = Pentanomial([6, 15, 30, 24, 15]);
    assert!(close(sprt.llr(&more), 3.1653), "{}", sprt.llr(&more));
    assert_eq!(sprt.verdict(&more), Verdict::H1);
    // A losing record accepts H0.
    let worse = Pentanomial([15, 24, 30, 15, 6]);
    assert_eq!(sprt.verdict(&worse), Verdict::H0);
}

fn engine(name: &str) -> Arc<Engine> {
    Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap())
}

/// Replays a CSV row's moves from `start` and checks the result it gives.
fn replays(start: &Game, row: &str) {
    let fields: Vec<&str> = row.split(',').collect();
    assert_eq!(fields.len(), 4, "{row}");
    let mut game = start.clone();
    let skip = start.plies().len();
    for (i, play) in fields[0].split(' ').enumerate().skip(skip) {
        let mut parts = play.split('x');
        let mv: Move = parts.next().unwrap().parse().unwrap();
        let captured: Vec<String> = parts.map(str::to_string).collect();
        let ply = game
            .play(mv)
            .unwrap_or_else(|e| panic!("ply {i} {play}: {e:?}"));
        let got: Vec<String> = ply.captured.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, captured, "ply {i} {play}");
    }
    let result = match game.status() {
        Status::DefendersWin => "White",
        Status::AttackersWin => "Black",
        Status::Draw => "Draw",
        Status::Ongoing => "Ongoing",
    };
    assert_eq!(fields[3], result, "{row}");
}

#[test]
fn a_seeded_game_at_a_fixed_depth_is_the_same_every_time_and_replays() {
    let engine = engine("brandubh");
    let new = Limits::depth(2);
    let old = Limits::depth(2).with_settings(Settings::NONE);
    for index in 0..4 {
        let start = opening(&engine, 7, index, 4);
        assert_eq!(start.plies().len(), 4);
        let a = play_out(start.clone(), &new, &old, Adjudication::cap(200), |_, _| {});
        let b = play_out(start.clone(), &new, &old, Adjudication::cap(200), |_, _| {});
        assert_eq!(csv_row(&a), csv_row(&b));
        assert!(csv_row(&a).starts_with(&csv_row(&start).split(',').next().unwrap().to_string()));
        replays(&start, &csv_row(&a));
    }
}

#[test]
fn a_resignation_cuts_the_same_game_short_and_names_the_side_both_searches_call_lost() {
    let engine = engine("brandubh");
    let limits = Limits::depth(2);
    let rule = Resign {
        score: 300,
        moves: 2,
    };
    let mut resigned = 0;
    for index in 0..8 {
        let start = opening(&engine, 3, index, 4);
        // Each searched move of the game played out: who moved and the score its search gave.
        let mut scores = Vec::new();
        let full = play_out(
            start.clone(),
            &limits,
            &limits,
            Adjudication::cap(200),
            |game, report| scores.push((game.to_move(), report.score.as_number())),
        );
        // Where the rule, watching those scores, says a side resigns: after that move.
        let mut watch = rule.watch();
        let verdict = scores
            .iter()
            .enumerate()
            .find_map(|(i, &(mover, score))| watch.record(mover, score).map(|loser| (i, loser)));
        let adjudication = Adjudication {
            cap: 200,
            resign: Some(rule),
        };
        let cut = play_out(start.clone(), &limits, &limits, adjudication, |_, _| {});
        // The same deterministic game, stopped earlier or at the same ply.
        assert!(cut.plies().len() <= full.plies().len());
        assert_eq!(cut.plies(), &full.plies()[..cut.plies().len()]);
        if cut.reason() == Some(tafl::engine::EndReason::Resignation) {
            resigned += 1;
            let (move_index, loser) = verdict.expect("a resignation the scores do not show");
            assert_eq!(cut.plies().len(), start.plies().len() + move_index + 1);
            let winner = match loser {
                Side::Attackers => Status::DefendersWin,
                Side::Defenders => Status::AttackersWin,
            };
            assert_eq!(cut.status(), winner);
            assert!(cut.plies().len() < full.plies().len());
        } else {
            // The rule fired only where the move it followed ended the game, which stands.
            if let Some((move_index, _)) = verdict {
                assert_eq!(full.plies().len(), start.plies().len() + move_index + 1);
            }
            assert_eq!(csv_row(&cut), csv_row(&full));
        }
    }
    assert!(
        resigned > 0,
        "no game of 8 was resigned at a margin of 3 soldiers"
    );
}

fn run_match(games_file: &std::path::Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args([
            "match",
            "brandubh",
            "--a",
            "depth=2",
            "--b",
            "depth=1,off=all,weights=hand",
            "--pairs",
            "3",
            "--threads",
            "2",
            "--json",
            "--games",
        ])
        .arg(games_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json.as_object_mut().unwrap().remove("seconds");
    json
}

#[test]
fn a_tiny_seeded_match_is_deterministic_and_writes_its_games() {
    let dir = std::env::temp_dir().join(format!("tafl-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (first, second) = (dir.join("a.csv"), dir.join("b.csv"));
    let a = run_match(&first);
    let b = run_match(&second);
    assert_eq!(a, b);
    assert_eq!(a["games"], 6);
    assert_eq!(a["pairs"], 3);
    let results = &a["a_results"];
    let total = results["wins"].as_u64().unwrap()
        + results["draws"].as_u64().unwrap()
        + results["losses"].as_u64().unwrap();
    assert_eq!(total, 6);
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text, std::fs::read_to_string(&second).unwrap());
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 6);
    // Each row replays from the start to the result it states; the openings are in the rows.
    let start = Game::new(engine("brandubh"));
    for row in rows {
        replays(&start, row);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_player_spec_is_refused() {
    for spec in ["depth=0", "time=x", "off=fast", "colour=red", "off=all"] {
        let out = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .args(["match", "brandubh", "--a", spec, "--b", "depth=1"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{spec}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty(), "{spec}");
    }
}

fn sprt_match(a: &str, b: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args([
            "match", "brandubh", "--a", a, "--b", b, "--pairs", "200", "--sprt", "0,50", "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_sprt_stops_a_lopsided_match_early_either_way() {
    // Depth 2 against the plain depth-1 search: H1 long before 200 pairs; the other way round,
    // H0. Only whole pairs are counted.
    let strong = "depth=2";
    let weak = "depth=1,off=all,weights=hand";
    for (a, b, verdict) in [(strong, weak, "h1"), (weak, strong, "h0")] {
        let json = sprt_match(a, b);
        assert_eq!(json["sprt"]["verdict"], verdict, "{json}");
        let pairs = json["pairs"].as_u64().unwrap();
        assert!(pairs < 200, "{json}");
        assert_eq!(json["games"].as_u64().unwrap(), 2 * pairs);
        let llr = json["sprt"]["llr"].as_f64().unwrap();
        assert!(llr.abs() >= 2.94, "{json}");
    }
}

fn match_json(b: &str, games_file: Option<&std::path::Path>) -> serde_json::Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tafl"));
    command.args([
        "match", "brandubh", "--a", "depth=1", "--b", b, "--pairs", "2", "--json",
    ]);
    if let Some(file) = games_file {
        command.arg("--games").arg(file);
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn another_program_plays_through_each_protocol_refereed_by_our_engine() {
    let dir = std::env::temp_dir().join(format!("tafl-match-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tafl = env!("CARGO_BIN_EXE_tafl");
    for protocol in ["uci", "opentafl"] {
        let file = dir.join(format!("{protocol}.csv"));
        let b = format!("engine={tafl} engine --protocol {protocol},protocol={protocol},depth=1");
        let json = match_json(&b, Some(&file));
        assert_eq!(json["games"], 4, "{protocol}: {json}");
        assert_eq!(
            json["forfeits"].as_array().unwrap().len(),
            0,
            "{protocol}: {json}"
        );
        let text = std::fs::read_to_string(&file).unwrap();
        let start = Game::new(engine("brandubh"));
        for row in text.lines().filter(|l| !l.starts_with('#')) {
            replays(&start, row);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_program_that_cannot_play_loses_its_games_counted_apart() {
    // `false` exits at once: every game it should play is a forfeit, and the match goes on.
    let json = match_json("engine=false,protocol=uci,time=50", None);
    assert_eq!(json["games"], 4, "{json}");
    assert_eq!(json["a_results"]["wins"], 4, "{json}");
    let forfeits = json["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 4, "{json}");
    assert!(forfeits[0].as_str().unwrap().starts_with("B: "), "{json}");
    assert_eq!(json["reasons"]["forfeit"], 4, "{json}");
}

/// Issue 49, defect 7: `engine=yes,protocol=uci` never answers `uciok` but writes without end;
/// the match used to wait on it for ever, holding all it wrote. Each game is a forfeit once
/// the set-up's ten seconds are over.
#[cfg(unix)]
#[test]
fn a_program_that_writes_without_end_forfeits_in_time() {
    let out = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args([
            "match",
            "brandubh",
            "--a",
            "depth=1",
            "--b",
            "engine=yes,protocol=uci,time=50",
            "--pairs",
            "1",
            "--threads",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["a_results"]["wins"], 2, "{json}");
    let forfeits = json["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 2, "{json}");
    assert!(
        forfeits[0].as_str().unwrap().contains("did not answer"),
        "{json}"
    );
}

/// Issue 49, defect 4: hnefatafl-copenhagen's engine resigns with `= play defender resigns _`,
/// which `tafl match` counted as a protocol forfeit. It is a loss by resignation.
#[cfg(unix)]
#[test]
fn a_program_that_resigns_loses_by_resignation_not_by_forfeit() {
    let dir = std::env::temp_dir().join(format!("tafl-match-resigns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Answers every command as hnefatafl's protocol does, and resigns when asked for a move.
    let script = dir.join("resigner.sh");
    std::fs::write(
        &script,
        "while read -r line; do\n\
         case \"$line\" in\n\
         generate_move*) printf '= play defender resigns _\\n\\n' ;;\n\
         quit*) exit 0 ;;\n\
         *) printf '= \\n' ;;\n\
         esac\n\
         done\n",
    )
    .unwrap();
    let json = match_json(
        &format!("engine=sh {},protocol=gtp,depth=1", script.display()),
        None,
    );
    assert_eq!(json["games"], 4, "{json}");
    assert_eq!(json["a_results"]["wins"], 4, "{json}");
    assert_eq!(json["forfeits"].as_array().unwrap().len(), 0, "{json}");
    assert!(json["reasons"]["forfeit"].is_null(), "{json}");
    // Every game it had a move in (A may win in its first move after the opening).
    assert!(json["reasons"]["resignation"].as_u64() >= Some(1), "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `tafl match brandubh` with `args` after the players (depth 1 both); its output.
fn brandubh_match(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["match", "brandubh", "--a", "depth=1", "--b", "depth=1"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_match_from_a_book_starts_each_pair_where_a_book_game_stops() {
    let dir = std::env::temp_dir().join(format!("tafl-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two games of two plies each, as a move list (one game a paragraph): the first legal
    // moves, then the last ones.
    let mut openings = Vec::new();
    for pick_last in [false, true] {
        let mut game = Game::new(engine("brandubh"));
        let mut moves = Vec::new();
        for _ in 0..2 {
            let legal = game.legal_moves();
            let mv = if pick_last {
                legal[legal.len() - 1]
            } else {
                legal[0]
            };
            game.play(mv).unwrap();
            moves.push(mv.to_string());
        }
        openings.push(moves.join(" "));
    }
    let book = dir.join("book.txt");
    std::fs::write(&book, openings.join("\n\n") + "\n").unwrap();
    let games = dir.join("games.csv");
    let out = brandubh_match(&[
        "--book",
        book.to_str().unwrap(),
        "--cap",
        "6",
        "--json",
        "--games",
        games.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Without `--pairs`, one pair a book game.
    assert_eq!(json["pairs"], 2);
    assert_eq!(json["games"], 4);
    assert_eq!(json["openings"], 0);
    assert_eq!(json["book"], book.to_str().unwrap());
    let text = std::fs::read_to_string(&games).unwrap();
    assert!(text.starts_with("# tafl match brandubh: A = depth=1, B = depth=1; book "));
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 4);
    let start = Game::new(engine("brandubh"));
    for (i, row) in rows.iter().enumerate() {
        // Game 2k and 2k+1 start from book game k, each side once; the cap counts from there.
        let moves: Vec<&str> = row.split(',').next().unwrap().split_whitespace().collect();
        let book_moves: Vec<&str> = openings[i / 2].split_whitespace().collect();
        let played: Vec<String> = moves
            .iter()
            .map(|m| m.split('x').next().unwrap().to_string())
            .collect();
        assert_eq!(played[..2], book_moves[..], "game {i}");
        assert!(moves.len() <= 2 + 6, "game {i}: {} plies", moves.len());
        replays(&start, row);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_book_is_refused_with_where_and_why() {
    let dir = std::env::temp_dir().join(format!("tafl-bad-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.csv");
    let out = brandubh_match(&["--book", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the book"));
    // The second game moves a square with no piece on it.
    let illegal = dir.join("illegal.txt");
    let legal = Game::new(engine("brandubh")).legal_moves()[0].to_string();
    std::fs::write(&illegal, format!("{legal}\n\nc3-c2\n")).unwrap();
    let out = brandubh_match(&["--book", illegal.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 2 (line 3): ply 1:"), "{stderr}");
    // Every problem at once: a game that has ended and one the rules refuse, both named.
    let played = dir.join("played.csv");
    let out = brandubh_match(&["--pairs", "1", "--games", played.to_str().unwrap()]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&played).unwrap();
    let ended = text
        .lines()
        .find(|row| row.ends_with(",Black") || row.ends_with(",White"))
        .expect("a depth-1 game of Brandubh ends within the cap");
    let both = dir.join("both.csv");
    std::fs::write(&both, format!("{ended}\nc3-c2,0,0,\n")).unwrap();
    let out = brandubh_match(&["--book", both.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("game 1 (line 1): the game has ended"),
        "{stderr}"
    );
    assert!(stderr.contains("game 2 (line 2): ply 1:"), "{stderr}");
    // A book and random openings are two different starts: asking for both is an error.
    let out = brandubh_match(&["--book", illegal.to_str().unwrap(), "--seed", "3"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plausible_openings_start_each_pair_from_the_opening_selfplay_draws() {
    use tafl::search::duel::{opening_drawn, Opening, OpeningMoves};
    let dir = std::env::temp_dir().join(format!("tafl-match-plausible-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.csv");
    let out = brandubh_match(&[
        "--pairs",
        "3",
        "--seed",
        "2",
        "--opening-moves",
        "plausible",
        "--json",
        "--games",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["opening_moves"], "plausible");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("4 plausible random opening plies"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 6);
    let plausible = Opening {
        plies: 4,
        moves: OpeningMoves::Plausible,
    };
    let mut uniform_differs = false;
    for (game, row) in rows.iter().enumerate() {
        let pair = game as u64 / 2;
        let expected = opening_drawn(&engine("brandubh"), 2, pair, plausible);
        let first: Vec<String> = expected.plies().iter().map(|p| p.mv.to_string()).collect();
        let played: Vec<String> = row
            .split(',')
            .next()
            .unwrap()
            .split(' ')
            .take(4)
            .map(|play| play.split('x').next().unwrap().to_string())
            .collect();
        assert_eq!(played, first, "game {game}: {row}");
        uniform_differs |= opening(&engine("brandubh"), 2, pair, 4).plies() != expected.plies();
    }
    // The option is read: seed 2's uniform openings are other plies.
    assert!(uniform_differs);
    std::fs::remove_dir_all(&dir).unwrap();
}
