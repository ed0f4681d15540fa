//! The engine commands through the real binary: exit codes, messages, output forms.

use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that a command was refused as a usage error (exit 2) with `message` on stderr.
fn refused_with(out: &Output, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "wanted {message:?} in: {err}");
}

#[test]
fn moves_lists_the_80_opening_moves_sorted() {
    let out = tafl(&["moves", "linnaeus"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 80);
    assert_eq!(lines[0], "a4-a1");
}

#[test]
fn perft_prints_the_count() {
    let out = tafl(&["perft", "linnaeus", "2"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "4400");
    let out = tafl(&["perft", "brettspielnetz", "2", "--threads", "2"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "3968");
}

#[test]
fn replay_prints_one_json_object() {
    let out = tafl(&["replay", "linnaeus", "e2-c2", "e3e2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["to_move"], "attackers");
    assert_eq!(json["status"], "ongoing");
    assert_eq!(json["reason"], serde_json::Value::Null);
    assert_eq!(json["plies"][1]["move"], "e3-e2");
    assert_eq!(
        json["position"],
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/9/2t1T4/3ttt3/"
    );
}

#[test]
fn replay_reports_the_end_and_captures() {
    let out = tafl(&[
        "replay",
        "linnaeus",
        "--from",
        "9/9/9/9/9/9/1tK6/9/3t5",
        "--side",
        "attackers",
        "d1-d3",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "attackers_win");
    assert_eq!(json["reason"], "king_captured");
    assert_eq!(json["plies"][0]["captured"][0], "c3");
}

#[test]
fn moves_may_be_written_as_records_write_them_and_their_captures_are_checked() {
    // `tafl match` and the game records write captures after the move (`d1-d3xc3`); the
    // commands that take moves read them and check what is written against what the move takes.
    let from = ["--from", "9/9/9/9/9/9/1tK6/9/3t5", "--side", "attackers"];
    let replay = |mv: &str| tafl(&[&["replay", "linnaeus"][..], &from, &[mv, "--json"]].concat());
    let out = replay("d1-d3xc3");
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["reason"], "king_captured");
    refused_with(
        &replay("d1-d3xd2"),
        "ply 1: `d1-d3xd2` writes the capture of d2, but the move takes c3",
    );
    refused_with(&replay("d1-d3xz"), "write the captured squares after `x`");
    // A soldier's capture, written and taken.
    let soldier = [
        "replay",
        "linnaeus",
        "--from",
        "9/9/9/9/4K4/9/9/tT7/2t6",
        "--side",
        "attackers",
        "c1-c2xb2",
        "--json",
    ];
    let out = tafl(&soldier);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["plies"][0]["captured"][0], "b2");
    // A soldier's capture written where the move takes nothing, in a line for `best`.
    refused_with(
        &tafl(&["best", "brandubh", "d2-c2", "c4-c3xc2", "--depth", "1"]),
        "ply 2: `c4-c3xc2` writes the capture of c2, but the move takes nothing",
    );
}

#[test]
fn an_illegal_move_exits_2_naming_the_ply_and_the_reason() {
    let out = tafl(&["replay", "linnaeus", "e2-c2", "e5-e4", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("ply 2: e5-e4 is illegal: e4 is occupied"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_refusal_by_a_clause_cites_its_line() {
    let out = tafl(&[
        "replay",
        "linnaeus",
        "--from",
        "9/9/9/9/9/4K4/9/9/t8",
        "--side",
        "defenders",
        "e4-e5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("ply 1: e4-e5 is illegal: the King may not land on e5: line "),
        "{err}"
    );
}

#[test]
fn a_move_after_the_end_is_refused() {
    let out = tafl(&[
        "replay",
        "linnaeus",
        "--from",
        "9/9/9/9/9/9/2K6/9/9",
        "--side",
        "defenders",
        "c3-c1",
        "b1-b2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("ply 2: b1-b2 is illegal: the game is over"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn malformed_input_gets_a_clear_error_not_a_panic() {
    for args in [
        &["replay", "linnaeus", "e2-"][..],
        &["replay", "linnaeus", "zz9-a1"],
        &["replay", "linnaeus", "e2-e99"],
        &["replay", "linnaeus", "--from", "x/y/z"],
        &["moves", "linnaeus", "--from", "9/9/9/9/9/9/9/9/10"],
        &[
            "moves",
            "linnaeus",
            "--from",
            "99999999999999999999999/9/9/9/9/9/9/9/9",
        ],
        &["perft", "linnaeus", "2", "--from", "//////"],
        &["moves", "linnaeus", "--side", "sideways"],
    ] {
        let out = tafl(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(!err.trim().is_empty(), "{args:?} gave no message");
    }
}

#[test]
fn playouts_print_the_summary_keys() {
    let out = tafl(&["playouts", "linnaeus", "5", "--seed", "3"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "games",
        "plies",
        "attackers_win",
        "defenders_win",
        "draw",
        "capped",
        "seconds",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["games"], 5);
}

#[test]
fn an_encirclement_ends_the_game_and_stands_in_a_given_position() {
    // Copenhagen: eight attackers in a ring around the king and his last defender.
    let ring_open = "/11/11/11/5t5/4tTt4/3t1K1t3/4t1t4/11/11/5t5/11/";
    let out = tafl(&[
        "replay",
        "copenhagen",
        "--from",
        ring_open,
        "--side",
        "attackers",
        "f2-f4",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "attackers_win");
    assert_eq!(json["reason"], "encircled");

    let ring_closed = "/11/11/11/5t5/4tTt4/3t1K1t3/4t1t4/5t5/11/11/11/";
    let out = tafl(&[
        "replay",
        "copenhagen",
        "--from",
        ring_closed,
        "--side",
        "defenders",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "attackers_win");
    assert_eq!(json["reason"], "encircled");
}

#[test]
fn hnefatafl_is_another_name_for_copenhagen() {
    let out = tafl(&["perft", "hnefatafl", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "6788");
}

/// `--from` positions the rules make impossible are refused with exit 2 and the reason.
#[test]
fn impossible_positions_are_refused() {
    let two_kings = tafl(&[
        "replay",
        "linnaeus",
        "--from",
        "/9/9/9/9/4K4/9/2K6/9/9/",
        "--side",
        "attackers",
        "--json",
    ]);
    refused_with(&two_kings, "2 King pieces, but the game starts with 1");
    // A man on a corner only the king may enter: the clause is cited.
    let cornered = tafl(&[
        "moves",
        "brettspielnetz",
        "--from",
        "/t8/9/9/9/4K4/9/9/9/9/",
        "--side",
        "attackers",
    ]);
    assert_eq!(cornered.status.code(), Some(2));
    assert!(
        stderr(&cornered)
            .contains("may never land: line 38, `only the king may enter the corners`"),
        "{}",
        stderr(&cornered)
    );
    // The king on the throne he started on is fine, though nobody may land there.
    let home = tafl(&[
        "moves",
        "linnaeus",
        "--from",
        "/9/9/9/9/4K4/9/9/9/t8/",
        "--side",
        "attackers",
    ]);
    assert!(home.status.success(), "{}", stderr(&home));
}

/// A position that is already decided says so: replay reports the status and the rule, moves
/// lists nothing, perft counts no children.
#[test]
fn decided_positions_report_their_status() {
    let won = ["--from", "/K8/9/9/9/9/9/9/9/t8/", "--side", "attackers"];
    let replay = tafl(&[&["replay", "linnaeus", "--json"][..], &won].concat());
    assert!(replay.status.success(), "{}", stderr(&replay));
    let json: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(json["status"], "defenders_win");
    assert_eq!(json["reason"], "king_escaped");
    assert_eq!(json["rule"]["line"], 52);
    assert_eq!(
        json["rule"]["clause"],
        "defenders win when the king reaches the edge"
    );
    let moves = tafl(&[&["moves", "linnaeus"][..], &won].concat());
    assert!(moves.status.success());
    assert!(moves.stdout.is_empty());
    assert!(stderr(&moves).contains("already over: defenders_win (king_escaped)"));
    let perft = tafl(&[&["perft", "linnaeus", "2"][..], &won].concat());
    assert_eq!(String::from_utf8_lossy(&perft.stdout).trim(), "0");
    // Playing on is refused.
    let on = tafl(&[&["replay", "linnaeus", "a1-a2", "--json"][..], &won].concat());
    assert_eq!(on.status.code(), Some(2));
    assert!(stderr(&on).contains("the game is over"), "{}", stderr(&on));
}

/// The ending cites the rule that decided it, not the first rule with the same winner: with an
/// edge clause and a corner clause, a king on an edge square wins by the edge clause.
#[test]
fn endings_cite_the_rule_that_ended_the_game() {
    use std::sync::Arc;
    use tafl::game::describe::verdict;
    let text = tafl::BUNDLED
        .iter()
        .find(|(name, _)| *name == "linnaeus")
        .unwrap()
        .1
        .replace(
            "defenders win when the king reaches the edge",
            "defenders win when the king reaches a corner\ndefenders win when the king reaches the edge",
        );
    let variant = tafl::Variant::from_text("two-escapes.tafl", &text).unwrap();
    let engine = Arc::new(tafl::Engine::new(&variant.rules).unwrap());
    let position = tafl::game::notation::parse_position(
        &engine,
        "/9/9/9/9/9/9/4K4/9/t8/",
        tafl::Side::Defenders,
    )
    .unwrap();
    let mut game = tafl::Game::from_position(engine, position);
    game.play("e3-i3".parse().unwrap()).unwrap();
    let ending = game.ending().expect("the king escaped");
    assert_eq!(ending.rule, Some(tafl::RuleRef::Escape(1)));
    let said = verdict(&ending, &variant, game.to_move());
    assert!(said.contains("reached the edge of the board"), "{said}");
    assert!(
        said.contains("`defenders win when the king reaches the edge`"),
        "{said}"
    );
}

#[test]
fn best_answers_with_one_json_object() {
    let out = tafl(&["best", "brandubh", "--depth", "2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["move", "score", "depth", "nodes", "nps", "pv"] {
        assert!(json.get(key).is_some(), "no `{key}` in {json}");
    }
    assert_eq!(json["depth"], 2);
    assert_eq!(json["pv"][0], json["move"]);
    // After the game's moves: the search knows whose turn it is.
    let after = tafl(&["best", "brandubh", "d2-c2", "--depth", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&after.stdout).unwrap();
    let mv = json["move"].as_str().unwrap();
    let moves = tafl(&["replay", "brandubh", "d2-c2", mv, "--json"]);
    assert!(
        moves.status.success(),
        "the suggested move {mv} is legal: {}",
        stderr(&moves)
    );
    // A decided game: no move, the status, exit 0.
    let won = tafl(&[
        "best",
        "linnaeus",
        "--from",
        "/K8/9/9/9/9/9/9/9/t8/",
        "--side",
        "attackers",
        "--json",
    ]);
    assert!(won.status.success());
    let json: serde_json::Value = serde_json::from_slice(&won.stdout).unwrap();
    assert!(json["move"].is_null());
    assert_eq!(json["status"], "defenders_win");
    // An illegal move in the game exits 2, as replay does.
    let bad = tafl(&["best", "brandubh", "a1-a2", "--depth", "1"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn selfplay_json_is_complete_and_deterministic() {
    let args = [
        "selfplay", "brandubh", "--games", "4", "--depth", "1", "--seed", "7", "--json",
    ];
    let first = tafl(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let a: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&tafl(&args).stdout).unwrap();
    for key in [
        "games",
        "attackers_win",
        "defenders_win",
        "draw",
        "capped",
        "attackers",
        "defenders",
        "mean_plies",
        "reasons",
    ] {
        assert!(a.get(key).is_some(), "no `{key}` in {a}");
        if key != "seconds" {
            assert_eq!(
                a[key], b[key],
                "`{key}` differs between two runs with one seed"
            );
        }
    }
    let total = a["attackers_win"].as_u64().unwrap()
        + a["defenders_win"].as_u64().unwrap()
        + a["draw"].as_u64().unwrap();
    assert_eq!(total, 4);
    let low = a["attackers"]["low"].as_f64().unwrap();
    let high = a["attackers"]["high"].as_f64().unwrap();
    assert!(low <= a["attackers"]["rate"].as_f64().unwrap() && high >= low);
}

#[test]
fn selfplay_with_a_resignation_rule_counts_resignations_and_names_the_rule() {
    let args = [
        "selfplay", "brandubh", "--games", "6", "--depth", "2", "--seed", "3", "--resign", "300,2",
        "--json",
    ];
    let out = tafl(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["resign"], "300,2");
    let resigned = json["reasons"]["resignation"].as_u64().unwrap_or(0);
    assert!(
        resigned > 0,
        "no resignation at a margin of 3 soldiers: {json}"
    );
    // A resignation is a win, never a draw.
    let wins = json["attackers_win"].as_u64().unwrap() + json["defenders_win"].as_u64().unwrap();
    assert!(wins >= resigned, "{json}");
}

#[test]
fn a_bad_resignation_rule_is_refused_before_any_game() {
    for rule in ["400", "0,3", "400,0", "four,3"] {
        for command in ["selfplay", "compare"] {
            let mut args = vec![command, "brandubh"];
            if command == "compare" {
                args.push("brandubh");
            }
            args.extend(["--depth", "1", "--resign", rule]);
            let out = tafl(&args);
            assert_eq!(out.status.code(), Some(2), "{command} --resign {rule}");
            assert!(stderr(&out).contains("--resign"), "{}", stderr(&out));
        }
    }
    // Another program's scores are not read, so a match with one cannot resign by them.
    let out = tafl(&[
        "match",
        "brandubh",
        "--a",
        "depth=1",
        "--b",
        "engine=false,protocol=uci,depth=1",
        "--resign",
        "1000,3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("another program"), "{}", stderr(&out));
}

/// A file for `--from`, in a fresh folder named after the test.
fn diagram(test: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-from-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("position.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn from_reads_a_diagram_file_like_the_setup_block() {
    let middle = "# a middle game\n. . . t . . .\n...t...\n. . . T . . .\nt t T K . t t\n\
                  . . . T T . .\n. . . t . . .\n. . . t . . .\n";
    let path = diagram("middle", middle);
    let file = path.to_str().unwrap();
    // The same position as its string: the same moves.
    let from_file = tafl(&["moves", "brandubh", "--from", file]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let from_string = tafl(&[
        "moves",
        "brandubh",
        "--from",
        "/3t3/3t3/3T3/ttTK1tt/3TT2/3t3/3t3/",
    ]);
    assert_eq!(from_file.stdout, from_string.stdout);
    // `setup` and `end` lines, as copied from a variant file, are fine.
    let block = diagram("block", &format!("setup\n{middle}end\n"));
    let out = tafl(&["moves", "brandubh", "--from", block.to_str().unwrap()]);
    assert_eq!(out.stdout, from_string.stdout, "{}", stderr(&out));
    // A short row is reported with its line; a defender on a corner with the clause.
    let short = diagram("short", &middle.replace("t t T K . t t", "t t T K . t"));
    let out = tafl(&["moves", "brandubh", "--from", short.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 5: 6 squares"),
        "{}",
        stderr(&out)
    );
    let corner = diagram(
        "corner",
        &middle.replacen(". . . t . . .", "T . . t . . .", 1),
    );
    let out = tafl(&["moves", "brandubh", "--from", corner.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the Defender on a7 stands where it may never land"),
        "{}",
        stderr(&out)
    );
    for path in [path, block, short, corner] {
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}

#[test]
fn show_draws_a_position_and_writes_svg_to_standard_output() {
    let out = tafl(&[
        "show",
        "brandubh",
        "--from",
        "/3t3/3t3/3T3/ttTK1tt/3TT2/3t3/3t3/",
        "--side",
        "defenders",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("   3  .  .  .  T  T  .  .  3"), "{text}");
    assert!(text.contains("The Defenders to move."), "{text}");
    assert!(
        text.contains("/3t3/3t3/3T3/ttTK1tt/3TT2/3t3/3t3/"),
        "{text}"
    );
    // `--svg` with no file writes the picture to standard output.
    let out = tafl(&["show", "brandubh", "--svg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("<svg"));
    // ... and of the position, with `--from`.
    let out = tafl(&[
        "show",
        "brandubh",
        "--svg",
        "-",
        "--from",
        "/3t3/3t3/3T3/ttTK1tt/3TT2/3t3/3t3/",
    ]);
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(
        svg.contains("<title>Brandubh: the Attackers to move</title>"),
        "{svg}"
    );
    assert_eq!(
        svg.matches("data-square=\"e3\"").count(),
        1,
        "a piece on e3: {svg}"
    );
    let on_board =
        svg.matches("data-square=").count() - svg.matches("data-square=\"legend\"").count();
    assert_eq!(on_board, 13, "13 pieces: {svg}");
}
