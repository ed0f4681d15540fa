//! Jumps, berserk moves and the king's sandwich between two commanders, played by the engine on
//! rules built directly as IR (Copenhagen's board with Berserk's pieces), and checked against the
//! slow reference along random games.

mod reference;

use std::sync::Arc;

use reference::agree::agree_along_random_games;
use reference::Reference;
use tafl::engine::{EndReason, Engine, IllegalReason};
use tafl::game::notation::parse_position;
use tafl::ir::{Armed, Berserk, JumpRule, KingSandwich, Movement, PieceKind, Role, Rules};
use tafl::{Game, Side, Status, Variant};

/// Copenhagen's board and special squares with Berserk's pieces (aagenielsen.dk/berserk_rules.php):
/// commanders (`c`) among the attackers, a knight (`N`) among the defenders; the king jumps an
/// enemy soldier only from or to the throne or a corner, the knight's jump captures, the
/// commanders' does not; the king is also taken between two commanders (or a commander and a
/// corner) off the throne. The shieldwall, forts and encirclement are dropped.
fn berserk_rules(berserk: Option<Berserk>) -> Rules {
    let mut rules = Variant::bundled("copenhagen").unwrap().rules;
    let kind = |name: &str, symbol: char, side: Side| PieceKind {
        name: name.to_string(),
        display: format!("{}{}", name[..1].to_uppercase(), &name[1..]),
        plural: None,
        symbol,
        side,
        role: Role::Soldier,
        armed: Armed::Yes,
        movement: Movement {
            style: tafl::ir::MoveStyle::Rook,
            max_distance: None,
        },
    };
    rules.pieces.push(kind("commander", 'c', Side::Attackers));
    rules.pieces.push(kind("knight", 'N', Side::Defenders));
    for rule in &mut rules.access {
        rule.pieces
            .extend(["commander".to_string(), "knight".to_string()]);
    }
    for rule in &mut rules.hostility {
        if rule.victims.contains(&"attacker".to_string()) {
            rule.victims.push("commander".to_string());
        }
        if rule.victims.contains(&"defender".to_string()) {
            rule.victims.push("knight".to_string());
        }
        if let tafl::ir::Hostile::WhenOccupied { by, .. } = &mut rule.when {
            by.extend(["commander".to_string(), "knight".to_string()]);
        }
    }
    rules.shieldwall = None;
    rules.outcome.edge_forts.clear();
    rules.outcome.encirclements.clear();
    rules.setup = "/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/"
        .trim_matches('/')
        .split('/')
        .map(expand)
        .collect();
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    rules.jumps = vec![
        JumpRule {
            pieces: names(&["king"]),
            over: names(&["attacker"]),
            only_from_or_to: names(&["throne", "corners"]),
            captures: false,
        },
        JumpRule {
            pieces: names(&["knight"]),
            over: names(&["attacker"]),
            only_from_or_to: Vec::new(),
            captures: true,
        },
        JumpRule {
            pieces: names(&["commander"]),
            over: names(&["defender"]),
            only_from_or_to: Vec::new(),
            captures: false,
        },
    ];
    rules.king_sandwiches = vec![KingSandwich {
        kings: names(&["king"]),
        captors: names(&["commander"]),
        counting: names(&["corners"]),
        except_on: names(&["throne"]),
    }];
    rules.berserk = berserk;
    rules.validate().unwrap();
    rules
}

/// `3ttttt3` -> `...ttttt...`
fn expand(row: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d as usize;
        } else {
            out.push_str(&".".repeat(count));
            count = 0;
            out.push(c);
        }
    }
    out.push_str(&".".repeat(count));
    out
}

fn game(rules: &Rules, position: &str, side: Side) -> Game {
    let engine = Arc::new(Engine::new(rules).unwrap());
    let position = parse_position(&engine, position, side).unwrap();
    Game::from_position(engine, position)
}

fn play(game: &mut Game, mv: &str) -> Vec<String> {
    let ply = game
        .play(mv.parse().unwrap())
        .unwrap_or_else(|e| panic!("{mv}: {e}"));
    ply.captured.iter().map(|s| s.to_string()).collect()
}

fn refusal(game: &Game, mv: &str) -> IllegalReason {
    game.check(mv.parse().unwrap()).unwrap_err().reason
}

#[test]
fn a_commander_jumps_a_soldier_without_taking_it() {
    let rules = berserk_rules(None);
    // c e5, T e6, empty e7; the king far away.
    let mut g = game(
        &rules,
        "11/11/11/11/11/4T6/4c6/11/11/11/1K9",
        Side::Attackers,
    );
    assert!(g.legal_moves().contains(&"e5-e7".parse().unwrap()));
    assert!(play(&mut g, "e5-e7").is_empty());
    assert_eq!(g.to_move(), Side::Defenders);
}

#[test]
fn a_jump_needs_an_empty_square_beyond_and_a_plain_enemy() {
    let rules = berserk_rules(None);
    // Beyond e6 stands a defender: no jump. Over the knight on f5: no jump.
    let g = game(
        &rules,
        "11/11/11/11/4T6/4T6/4cN5/11/11/11/1K9",
        Side::Attackers,
    );
    assert!(matches!(
        refusal(&g, "e5-e7"),
        IllegalReason::Occupied { .. }
    ));
    assert!(matches!(
        refusal(&g, "e5-g5"),
        IllegalReason::Blocked { .. }
    ));
    // A plain attacker does not jump.
    let g = game(
        &rules,
        "11/11/11/11/11/4T6/4t6/11/11/11/1K9",
        Side::Attackers,
    );
    assert!(matches!(
        refusal(&g, "e5-e7"),
        IllegalReason::Blocked { .. }
    ));
}

#[test]
fn the_knights_jump_captures_the_jumped_soldier() {
    let rules = berserk_rules(None);
    let mut g = game(
        &rules,
        "11/11/11/11/11/4t6/4N6/11/11/11/1K9",
        Side::Defenders,
    );
    assert_eq!(play(&mut g, "e5-e7"), ["e6"]);
}

#[test]
fn the_king_jumps_only_from_or_to_the_throne_or_a_corner() {
    let rules = berserk_rules(None);
    // King on the throne f6, attacker f7: he may jump to f8.
    let g = game(
        &rules,
        "11/11/11/11/5t5/5K5/11/11/11/11/11",
        Side::Defenders,
    );
    assert!(g.check("f6-f8".parse().unwrap()).is_ok());
    // King on c6, attacker c7, nothing special: no jump.
    let g = game(
        &rules,
        "11/11/11/11/2t8/2K8/11/11/11/11/11",
        Side::Defenders,
    );
    assert!(g.check("c6-c8".parse().unwrap()).is_err());
    // King on a3, attacker a2: he jumps into the corner a1 and wins.
    let mut g = game(
        &rules,
        "11/11/11/11/11/11/11/11/K10/t10/11",
        Side::Defenders,
    );
    play(&mut g, "a3-a1");
    assert_eq!(g.status(), Status::DefendersWin);
}

#[test]
fn berserk_capture_again_keeps_the_turn_for_the_capturing_piece() {
    let rules = berserk_rules(Some(Berserk::CaptureAgain));
    // The attacker c4 goes to c5, taking d5 against e5; from c5 its only capture is c5-c8,
    // landing next to d8 with the attacker e8 beyond.
    let mut g = game(
        &rules,
        "11/11/11/3Tt6/11/11/3Tt6/2t8/11/11/5K5",
        Side::Attackers,
    );
    assert_eq!(play(&mut g, "c4-c5"), ["d5"]);
    assert_eq!(
        g.to_move(),
        Side::Attackers,
        "the capturing piece goes berserk"
    );
    assert_eq!(
        g.engine().berserker(g.position()),
        Some("c5".parse().unwrap())
    );
    // Only the berserker moves, and only to capture.
    assert!(matches!(
        refusal(&g, "e5-f5"),
        IllegalReason::BerserkerMovesAgain { .. }
    ));
    assert!(matches!(
        refusal(&g, "c5-c7"),
        IllegalReason::BerserkMustCapture
    ));
    assert_eq!(g.legal_moves(), ["c5-c8".parse().unwrap()]);
    assert_eq!(play(&mut g, "c5-c8"), ["d8"]);
    // Nothing more to take from c8: the turn passes.
    assert_eq!(g.to_move(), Side::Defenders);
    assert_eq!(g.plies().last().unwrap().mover, Side::Attackers);
}

#[test]
fn berserk_as_opentafl_plays_it_lets_any_move_follow() {
    let rules = berserk_rules(Some(Berserk::MoveWhileItCanCapture));
    let mut g = game(
        &rules,
        "11/11/11/3Tt6/11/11/3Tt6/2t8/11/11/5K5",
        Side::Attackers,
    );
    play(&mut g, "c4-c5");
    assert_eq!(g.to_move(), Side::Attackers);
    // A quiet move of the berserker is accepted, and the turn passes.
    assert!(play(&mut g, "c5-c7").is_empty());
    assert_eq!(g.to_move(), Side::Defenders);
}

#[test]
fn berserk_move_again_grants_one_move_after_a_capture_even_without_a_second_capture() {
    let rules = berserk_rules(Some(Berserk::MoveAgain));
    let mut g = game(
        &rules,
        "11/11/11/11/11/11/3Tt6/2t8/11/11/5K5",
        Side::Attackers,
    );
    play(&mut g, "c4-c5");
    assert_eq!(g.to_move(), Side::Attackers);
    play(&mut g, "c5-c7");
    assert_eq!(g.to_move(), Side::Defenders);
    // Without the rule the turn passes at once.
    let rules = berserk_rules(None);
    let mut g = game(
        &rules,
        "11/11/11/11/11/11/3Tt6/2t8/11/11/5K5",
        Side::Attackers,
    );
    play(&mut g, "c4-c5");
    assert_eq!(g.to_move(), Side::Defenders);
}

#[test]
fn a_knights_jump_capture_starts_a_berserk_turn() {
    let rules = berserk_rules(Some(Berserk::CaptureAgain));
    // N e5 jumps t e6 to e7 (taking it); from e7 it can jump t e8 to e9, taking again.
    let mut g = game(
        &rules,
        "11/11/11/4t6/11/4t6/4N6/11/11/11/1K9",
        Side::Defenders,
    );
    assert_eq!(play(&mut g, "e5-e7"), ["e6"]);
    assert_eq!(g.to_move(), Side::Defenders);
    assert_eq!(play(&mut g, "e7-e9"), ["e8"]);
    assert_eq!(g.to_move(), Side::Attackers);
}

#[test]
fn the_king_is_taken_between_two_commanders_but_not_by_a_commander_and_a_soldier() {
    let rules = berserk_rules(None);
    // King d8, commander c8 beside him; a commander arriving on e8 takes him.
    let mut g = game(
        &rules,
        "11/11/11/2cK7/11/11/11/4c6/11/11/11",
        Side::Attackers,
    );
    play(&mut g, "e4-e8");
    assert_eq!(g.status(), Status::AttackersWin);
    assert_eq!(g.ending().unwrap().reason, EndReason::KingCaptured);
    // A plain attacker on c8: the commander's arrival does not take him.
    let mut g = game(
        &rules,
        "11/11/11/2tK7/11/11/11/4c6/11/11/11",
        Side::Attackers,
    );
    play(&mut g, "e4-e8");
    assert_eq!(g.status(), Status::Ongoing);
    // A plain attacker arriving beside a commander does not either.
    let mut g = game(
        &rules,
        "11/11/11/2cK7/11/11/11/4t6/11/11/11",
        Side::Attackers,
    );
    play(&mut g, "e4-e8");
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn a_commander_and_a_corner_take_the_king_but_not_on_the_throne() {
    let rules = berserk_rules(None);
    // King b1 beside the corner a1; a commander arrives on c1.
    let mut g = game(
        &rules,
        "11/11/11/11/11/11/11/11/11/2c8/1K9",
        Side::Attackers,
    );
    play(&mut g, "c2-c1");
    assert_eq!(g.status(), Status::AttackersWin);
    // On the throne f6, between commanders e6 and g6: safe.
    let mut g = game(
        &rules,
        "11/11/11/11/11/4cK5/11/6c4/11/11/11",
        Side::Attackers,
    );
    play(&mut g, "g4-g6");
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn engine_and_reference_agree_along_random_berserk_games() {
    for berserk in [
        None,
        Some(Berserk::CaptureAgain),
        Some(Berserk::MoveWhileItCanCapture),
        Some(Berserk::MoveAgain),
    ] {
        let games = if cfg!(debug_assertions) { 4 } else { 20 };
        let name = format!("{berserk:?}");
        let seen = agree_along_random_games(&name, &berserk_rules(berserk), games, true);
        // The games must have exercised the rules they check.
        assert!(seen.jumps > 0, "{name}: no jump was played");
        assert_eq!(
            seen.berserk_moves > 0,
            berserk.is_some(),
            "{name}: {} berserk moves",
            seen.berserk_moves
        );
    }
}

/// `rules` with the attackers winning when no defender can reach the edge.
fn with_encirclement(mut rules: Rules) -> Rules {
    rules.outcome.encirclements = vec![tafl::ir::Encirclement {
        winner: Side::Attackers,
        reading: tafl::ir::EncirclementReading::NoEdgeAccess,
    }];
    rules
}

#[test]
fn a_knight_that_can_jump_out_of_a_ring_is_not_enclosed() {
    let rules = with_encirclement(berserk_rules(None));
    // The knight on h7 stands in a ring of h8, g7, i7 and h6; the attacker arriving on c7 shuts
    // the king in round c9 and c8. With a plain attacker on g7 the knight can jump it to f7 and
    // get out, so the defenders are not enclosed.
    let mut g = game(
        &rules,
        "11/2t8/1tKt7/1t1t3c3/6tNc2/7c3/11/11/11/2t8/11",
        Side::Attackers,
    );
    play(&mut g, "c2-c7");
    assert_eq!(g.status(), Status::Ongoing, "{:?}", g.ending());
    // With commanders all round the knight (no one jumps a commander): enclosed.
    let mut g = game(
        &rules,
        "11/2t8/1tKt7/1t1t3c3/6cNc2/7c3/11/11/11/2t8/11",
        Side::Attackers,
    );
    play(&mut g, "c2-c7");
    assert_eq!(g.status(), Status::AttackersWin);
    assert_eq!(g.ending().unwrap().reason, EndReason::Encircled);
}

#[test]
fn engine_and_reference_agree_with_jumps_and_encirclement() {
    let rules = with_encirclement(berserk_rules(Some(Berserk::CaptureAgain)));
    let games = if cfg!(debug_assertions) { 4 } else { 20 };
    let seen = agree_along_random_games("encirclement", &rules, games, true);
    assert!(seen.jumps > 0);
}

#[test]
fn perft_agrees_with_the_reference_from_the_berserk_start() {
    let rules = berserk_rules(Some(Berserk::CaptureAgain));
    let engine = Engine::new(&rules).unwrap();
    let reference = Reference::new(&rules);
    for depth in 1..=2 {
        assert_eq!(
            engine.perft(&engine.start(), depth),
            reference.perft(&reference.start(), depth, &mut Vec::new()),
            "perft {depth}"
        );
    }
}

/// One legality while a berserk move is due: over every from/to pair, `why_illegal` finds a
/// reason for exactly the moves generation leaves out, in positions reached by games that prefer
/// captures (so that berserk moves come up), for every berserk reading.
#[test]
fn explanation_agrees_with_generation_while_a_berserk_move_is_due() {
    for berserk in [
        Berserk::CaptureAgain,
        Berserk::MoveWhileItCanCapture,
        Berserk::MoveAgain,
    ] {
        let rules = berserk_rules(Some(berserk));
        let engine = Arc::new(Engine::new(&rules).unwrap());
        let squares: Vec<tafl::Square> = (0..11)
            .flat_map(|r| (0..11).map(move |f| tafl::Square::new(f, r)))
            .collect();
        let mut checked = 0;
        for seed in 0..6 {
            let mut rng = tafl::engine::Rng::new(seed);
            let mut g = Game::new(engine.clone());
            for _ in 0..200 {
                if g.is_over() {
                    break;
                }
                let position = *g.position();
                let moves = g.legal_moves();
                if engine.berserker(&position).is_some() {
                    checked += 1;
                    for &from in &squares {
                        for &to in &squares {
                            let mv = tafl::Move::new(from, to);
                            let legal = moves.contains(&mv);
                            assert_eq!(engine.is_legal(&position, mv), legal, "{mv}");
                            let why = engine.why_illegal(&position, mv);
                            assert_eq!(why.is_none(), legal, "{berserk:?} {mv}: {why:?}");
                        }
                    }
                }
                let capturing: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut h = g.clone();
                        !h.play(m).unwrap().captured.is_empty()
                    })
                    .collect();
                let pool = if capturing.is_empty() {
                    &moves
                } else {
                    &capturing
                };
                g.play(pool[rng.below(pool.len())]).unwrap();
            }
        }
        assert!(checked > 0, "{berserk:?}: no berserk move came up");
    }
}
