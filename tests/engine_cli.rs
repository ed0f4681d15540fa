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
    assert_eq!(two_kings.status.code(), Some(2));
    assert!(
        stderr(&two_kings).contains("2 King pieces, but the game starts with 1"),
        "{}",
        stderr(&two_kings)
    );
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
            .contains("may never land: line 37, `only the king may enter the corners`"),
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
    assert_eq!(json["rule"]["line"], 51);
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
