//! Scenario tests, one or more per clause of the bundled linnaeus and brettspielnetz variants, and
//! for the king taken together with the throne on variations of NorseAmerica's text:
//! a position, moves, and the expected captures and outcome.

use std::sync::Arc;

use tafl::engine::{EndReason, Engine, IllegalReason};
use tafl::game::notation::parse_position;
use tafl::{Game, Side, Status, Variant};

fn game(variant: &str, position: &str, side: Side) -> Game {
    let variant = Variant::bundled(variant).unwrap();
    let engine = Arc::new(Engine::new(&variant.rules).unwrap());
    let position = parse_position(&engine, position, side).unwrap();
    Game::from_position(engine, position)
}

fn play(game: &mut Game, mv: &str) -> Vec<String> {
    let ply = game
        .play(mv.parse().unwrap())
        .unwrap_or_else(|e| panic!("{mv}: {e}"));
    ply.captured.iter().map(|s| s.to_string()).collect()
}

// ---- Linnaeus (Cyningstan's 13 rules) ----

#[test]
fn linnaeus_6_custodial_capture_by_two() {
    // T d3 between t d2 and the t landing on d4. (Kings stand off the edge in these tests:
    // a king on an escape square would be a game already won.)
    let mut g = game("linnaeus", "9/9/7K1/9/t8/9/3T5/3t5/9", Side::Attackers);
    assert_eq!(play(&mut g, "a5-d5"), Vec::<String>::new());
    let mut g = game("linnaeus", "9/9/7K1/9/9/t8/3T5/3t5/9", Side::Attackers);
    assert_eq!(play(&mut g, "a4-d4"), ["d3"]);
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn linnaeus_6_moving_between_two_enemies_is_safe() {
    let mut g = game("linnaeus", "9/9/7K1/9/9/2t1t4/9/9/3T5", Side::Defenders);
    assert_eq!(play(&mut g, "d1-d4"), Vec::<String>::new());
    assert_eq!(
        g.engine().piece_at(g.position(), "d4".parse().unwrap()),
        Some(1)
    );
}

#[test]
fn linnaeus_6_the_king_captures_with_a_defender() {
    // t c3 between the king landing on b3 and the defender on d3.
    let mut g = game("linnaeus", "9/9/9/9/9/1K7/2tT5/9/9", Side::Defenders);
    assert_eq!(play(&mut g, "b4-b3"), ["c3"]);
}

#[test]
fn linnaeus_7_the_empty_castle_is_hostile() {
    // t e6 between the empty castle e5 and the T landing on e7.
    let mut g = game("linnaeus", "9/9/T8/4t4/9/9/9/7K1/9", Side::Defenders);
    assert_eq!(play(&mut g, "a7-e7"), ["e6"]);
}

#[test]
fn linnaeus_8_king_in_the_castle_needs_four() {
    let mut g = game("linnaeus", "9/9/9/4t4/3tKt3/9/4t4/9/9", Side::Attackers);
    play(&mut g, "e3-e4");
    assert_eq!(g.status(), Status::AttackersWin);
    assert_eq!(g.reason(), Some(EndReason::KingCaptured));
    let mut g = game("linnaeus", "9/9/9/9/3tKt3/9/4t4/9/9", Side::Attackers);
    assert_eq!(play(&mut g, "e3-e4"), Vec::<String>::new());
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn linnaeus_9_king_beside_the_castle_needs_three() {
    let mut g = game("linnaeus", "9/9/9/9/9/3tKt3/9/4t4/9", Side::Attackers);
    assert_eq!(play(&mut g, "e2-e3"), ["e4"]);
    assert_eq!(g.reason(), Some(EndReason::KingCaptured));
}

#[test]
fn linnaeus_10_king_elsewhere_is_taken_by_two() {
    let mut g = game("linnaeus", "9/9/9/9/9/9/1tK6/9/3t5", Side::Attackers);
    assert_eq!(play(&mut g, "d1-d3"), ["c3"]);
    assert_eq!(g.status(), Status::AttackersWin);
}

#[test]
fn linnaeus_11_defender_beside_the_castle_against_the_king() {
    let mut g = game("linnaeus", "9/9/9/4t4/3tKt3/4T4/9/4t4/9", Side::Attackers);
    assert_eq!(play(&mut g, "e2-e3"), ["e4"]);
    // With only two attackers around the king the castle is not hostile to the defender.
    let mut g = game("linnaeus", "9/9/9/9/3tKt3/4T4/9/4t4/9", Side::Attackers);
    assert_eq!(play(&mut g, "e2-e3"), Vec::<String>::new());
}

#[test]
fn linnaeus_12_the_king_wins_on_any_edge_square() {
    let mut g = game("linnaeus", "9/9/9/9/9/9/2K6/9/9", Side::Defenders);
    play(&mut g, "c3-c1");
    assert_eq!(g.status(), Status::DefendersWin);
    assert_eq!(g.reason(), Some(EndReason::KingEscaped));
    assert!(
        g.play("c1-c2".parse().unwrap()).is_err(),
        "no move after the end"
    );
}

#[test]
fn linnaeus_5_nobody_lands_on_the_castle_not_even_the_king() {
    let variant = Variant::bundled("linnaeus").unwrap();
    let mut g = game("linnaeus", "9/9/9/9/9/4K4/9/9/t8", Side::Defenders);
    let err = g.play("e4-e5".parse().unwrap()).unwrap_err();
    assert!(
        matches!(err.reason, IllegalReason::MayNotLand { .. }),
        "{err}"
    );
    let rule = err.rule.expect("a clause forbids it");
    assert!(variant.line_of(rule).is_some(), "the clause has a line");
    // Passing over the empty castle is allowed.
    assert!(g.play("e4-e6".parse().unwrap()).is_ok());
}

#[test]
fn linnaeus_13_a_repeated_position_is_a_draw() {
    let mut g = game(
        "linnaeus",
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        Side::Attackers,
    );
    for mv in ["a4-a3", "e3-d3", "a3-a4"] {
        play(&mut g, mv);
        assert_eq!(g.status(), Status::Ongoing);
    }
    play(&mut g, "d3-e3");
    assert_eq!(g.status(), Status::Draw);
    assert_eq!(g.reason(), Some(EndReason::Repetition));
    g.undo();
    assert_eq!(g.status(), Status::Ongoing);
}

// ---- brettspielnetz.de ----

#[test]
fn brettspielnetz_corners_are_hostile() {
    let mut g = game("brettspielnetz", "9/9/9/9/9/9/9/7K1/1t2T4", Side::Defenders);
    assert_eq!(play(&mut g, "e1-c1"), ["b1"]);
}

#[test]
fn brettspielnetz_the_king_does_not_capture() {
    // As the moving piece…
    let mut g = game("brettspielnetz", "9/9/9/9/9/9/3tT4/9/2K6", Side::Defenders);
    assert_eq!(play(&mut g, "c1-c3"), Vec::<String>::new());
    // …nor as the piece on the other side.
    let mut g = game("brettspielnetz", "9/9/9/9/9/9/2Kt5/9/4T4", Side::Defenders);
    assert_eq!(play(&mut g, "e1-e3"), Vec::<String>::new());
}

#[test]
fn brettspielnetz_king_taken_by_three_against_the_edge() {
    let g = game("brettspielnetz", "9/9/9/9/9/9/9/4t4/3tKt3", Side::Attackers);
    assert!(g.status() == Status::Ongoing);
    let mut g = game("brettspielnetz", "9/9/9/9/9/9/4t4/9/3tKt3", Side::Attackers);
    assert_eq!(play(&mut g, "e3-e2"), ["e1"]);
    assert_eq!(g.status(), Status::AttackersWin);
}

#[test]
fn brettspielnetz_the_king_escapes_to_a_corner_only() {
    let mut g = game("brettspielnetz", "9/9/9/9/9/9/9/9/2K3t2", Side::Defenders);
    play(&mut g, "c1-b1");
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, "g1-g2");
    play(&mut g, "b1-a1");
    assert_eq!(g.status(), Status::DefendersWin);
    assert_eq!(g.reason(), Some(EndReason::KingEscaped));
}

#[test]
fn brettspielnetz_three_back_and_forth_moves_at_most() {
    let mut g = game(
        "brettspielnetz",
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        Side::Defenders,
    );
    for mv in ["e3-d3", "d1-d2", "d3-e3", "d2-d1", "e3-d3", "d1-d2"] {
        play(&mut g, mv);
    }
    let err = g.play("d3-e3".parse().unwrap()).unwrap_err();
    assert!(
        matches!(err.reason, IllegalReason::BackAndForth { limit: 3 }),
        "{err}"
    );
    assert!(err.rule.is_some());
    // The position repeated twice so far: threefold is claimable, not automatic.
    assert!(!g.can_claim_draw());
    assert_eq!(g.status(), Status::Ongoing);
}

// ---- A king taken together with the throne (`when surrounded together with the throne`) ----

const NORSEAMERICA: &str =
    include_str!("../variants/aagenielsen/norseamerica-hnefatafl-11x11.tafl");

/// NorseAmerica's rules with every piece free to land on the throne, so that a piece may stand
/// there beside the king (the bundled file lets only the king land there).
fn open_throne_game(position: &str) -> Game {
    let text = NORSEAMERICA.replace("only the king may land on the throne", "");
    let variant = Variant::from_text("open-throne.tafl", &text).unwrap();
    let engine = Arc::new(Engine::new(&variant.rules).unwrap());
    let position = parse_position(&engine, position, Side::Attackers).unwrap();
    Game::from_position(engine, position)
}

#[test]
fn together_with_the_throne_a_defender_on_the_throne_protects_the_king() {
    // King e6, a defender on the throne f6; attackers d6, e5 and a7-e7 round the king, g6, f5,
    // f7 round the throne: the throne is not empty, so the king and it are not taken together.
    let mut g = open_throne_game("/11/11/11/11/t4t5/3tKTt4/4tt5/11/11/11/2T8/");
    assert_eq!(play(&mut g, "a7-e7"), Vec::<String>::new());
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn together_with_the_throne_an_attacker_on_the_throne_is_a_fourth_side() {
    // King e6, an attacker on the throne f6, d6 and e5: a7-e7 closes four enemies round him.
    let mut g = open_throne_game("/11/11/11/11/t10/3tKt5/4t6/11/11/11/2T8/");
    assert_eq!(play(&mut g, "a7-e7"), ["e6"]);
    assert_eq!(g.reason(), Some(EndReason::KingCaptured));
}

/// A 6x6 board whose throne is a3, on the edge, with the king taken together with it,
/// `counting` as written.
fn edge_throne_game(counting: &str, position: &str) -> Game {
    let text = format!(
        "name \"Edge throne\"
board 6 x 6
attackers move first
square throne = a3
piece t attacker: attacker soldier
piece T defender: defender soldier
piece K king: defender king
setup
  . t t t t .
  . . . . . .
  . . . . . .
  . . K . . .
  . . . . . .
  T . . . . t
end
everyone moves like a rook
only the king may land on the throne
defenders win when the king reaches the corners
attackers win when the king is captured
the king is captured beside the throne when surrounded together with the throne{counting}
the king is captured elsewhere when surrounded on four sides
"
    );
    let variant = Variant::from_text("edge-throne.tafl", &text).unwrap();
    let engine = Arc::new(Engine::new(&variant.rules).unwrap());
    let position = parse_position(&engine, position, Side::Attackers).unwrap();
    Game::from_position(engine, position)
}

#[test]
fn together_with_the_throne_beyond_the_edge_counts_only_when_the_edge_does() {
    // King b3 beside the throne a3 on the edge: b2, b4 and the attacker arriving f3-c3 round
    // him, a2 and a4 round the throne, whose third other side lies beyond the board.
    let position = "/6/6/tt4/1K3t/tt4/2T3/";
    let mut g = edge_throne_game(", counting the edge", position);
    assert_eq!(play(&mut g, "f3-c3"), ["b3"]);
    assert_eq!(g.reason(), Some(EndReason::KingCaptured));
    let mut g = edge_throne_game("", position);
    assert_eq!(play(&mut g, "f3-c3"), Vec::<String>::new());
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn together_with_the_throne_on_a_board_without_a_centre_names_the_missing_throne() {
    // 10x10 has no centre square, so no built-in throne: the clause cannot be read.
    let text = NORSEAMERICA
        .replace("board 11 x 11", "board 10 x 10")
        .replace("the king is captured elsewhere", "# ");
    let Err(tafl::LoadError::Invalid { diagnostics, .. }) = Variant::from_text("ten.tafl", &text)
    else {
        panic!("a 10x10 board has no throne");
    };
    assert!(
        diagnostics
            .items()
            .iter()
            .any(|d| d.code == tafl::Code::NoCentre),
        "{:?}",
        diagnostics.items()
    );
}
