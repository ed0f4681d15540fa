//! Every bundled variant lints clean, its IR is snapshotted, and the IR survives a JSON round
//! trip unchanged.

use tafl::{Rules, Severity, Variant};

#[test]
fn every_bundled_variant_lints_clean() {
    for name in tafl::bundled_names() {
        let variant =
            Variant::bundled(name).unwrap_or_else(|error| panic!("{name} does not load: {error}"));
        let problems: Vec<String> = variant
            .warnings
            .items()
            .iter()
            .filter(|item| item.severity != Severity::Note)
            .map(|item| format!("{}: {}", item.code, item.message))
            .collect();
        assert!(problems.is_empty(), "{name} has warnings: {problems:#?}");
    }
}

#[test]
fn bundled_ir_snapshots() {
    for name in tafl::bundled_names() {
        let variant = Variant::bundled(name).expect("bundled variants load");
        insta::assert_json_snapshot!(format!("ir_{name}"), variant.rules);
    }
}

#[test]
fn ir_round_trips_through_json() {
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).expect("bundled variants load").rules;
        let json = rules.to_json();
        let back = Rules::from_json(&json).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(back, rules, "{name} changed in the round trip");
        assert_eq!(back.to_json(), json);
    }
}

#[test]
fn ir_json_rejects_unknown_fields() {
    let json = Variant::bundled("linnaeus")
        .expect("linnaeus loads")
        .rules
        .to_json();
    let tampered = json.replacen("\"name\":", "\"nmae\": \"typo\", \"name\":", 1);
    assert!(Rules::from_json(&tampered).is_err());
    let nested = json.replacen("\"width\":", "\"depth\": 3, \"width\":", 1);
    assert!(Rules::from_json(&nested).is_err());
}

#[test]
fn linnaeus_resolves_as_the_source_says() {
    let rules = Variant::bundled("linnaeus").expect("linnaeus loads").rules;
    assert_eq!(rules.first_to_move, tafl::Side::Attackers); // rule 3
    assert_eq!(rules.start_pieces().len(), 25); // rule 2
    let king = rules.piece("king").expect("a king");
    assert_eq!(king.armed, tafl::ir::Armed::Yes); // rule 6
    assert_eq!(rules.access.len(), 1); // rule 5: nobody lands on the castle
    assert_eq!(rules.access[0].pieces, ["muscovite", "swede", "king"]);
    // Rules 8-10: the king-capture rules cover the board exactly once.
    let covered: usize = rules
        .king_capture
        .iter()
        .map(|rule| rule.squares.len())
        .sum();
    assert_eq!(covered, 81);
    assert_eq!(rules.king_capture[0].squares, ["e5".parse().unwrap()]);
    assert_eq!(rules.king_capture[1].squares.len(), 4);
    assert_eq!(rules.outcome.no_moves.attackers, tafl::ir::NoMoves::Draw); // rule 13
    assert_eq!(rules.outcome.no_moves.defenders, tafl::ir::NoMoves::Draw);
}

#[test]
fn variant_load_errors_are_typed() {
    assert!(matches!(
        Variant::load("no-such-variant"),
        Err(tafl::LoadError::NotFound { .. })
    ));
    let broken = Variant::from_text("broken.tafl", "board 9 x 9\n");
    match broken {
        Err(tafl::LoadError::Invalid { diagnostics, .. }) => assert!(diagnostics.has_errors()),
        other => panic!("expected errors, got {other:?}"),
    }
}
