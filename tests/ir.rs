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

/// Berserk's file with some of its jump, berserk and sandwich clauses replaced.
fn berserk_with(replacements: &[(&str, &str)]) -> Variant {
    let mut text = Variant::bundled("berserk").expect("berserk loads").text;
    for (from, to) in replacements {
        assert!(text.contains(from), "berserk.tafl says `{from}`");
        text = text.replacen(from, to, 1);
    }
    Variant::from_text("berserk-reworded.tafl", &text)
        .unwrap_or_else(|error| panic!("{text}\ndoes not load: {error}"))
}

#[test]
fn jumps_berserk_and_sandwiches_read_the_same_in_their_other_wordings() {
    let bundled = Variant::bundled("berserk").expect("berserk loads");
    let reworded = berserk_with(&[
        // Not `over attackers`: that is the whole side, commanders included.
        (
            "the king may jump over an attacker, only from or to the throne or a corner",
            "the king may jump over attacker, only from or onto the throne, a corner",
        ),
        (
            "commanders may jump over a defender",
            "the commanders may jump over a defender",
        ),
        (
            "after a capture the capturing piece",
            "after a capture, the capturing piece",
        ),
        (
            "between two commanders, counting corners, except on the throne",
            "between two commanders, counting the corners, except on the throne",
        ),
    ]);
    assert_eq!(reworded.rules, bundled.rules);
    // Each clause is found again from its rule, for hovers and `tafl show`'s references.
    for (rule, start) in [
        (tafl::RuleRef::Jump(0), "the king may jump"),
        (tafl::RuleRef::Jump(1), "the knight may jump"),
        (tafl::RuleRef::Jump(2), "the commanders may jump"),
        (tafl::RuleRef::Berserk, "after a capture,"),
        (tafl::RuleRef::KingSandwich(0), "the king is also captured"),
    ] {
        let clause = reworded.clause_text(rule).unwrap_or_default();
        assert!(clause.starts_with(start), "{rule:?} maps to `{clause}`");
    }
}

#[test]
fn each_berserk_wording_gives_its_reading() {
    use tafl::ir::Berserk;
    let capture_again = "after a capture the capturing piece must capture again while it can";
    for (words, reading) in [
        (capture_again, Berserk::CaptureAgain),
        (
            "after a capture the capturing piece moves again while it can capture",
            Berserk::MoveWhileItCanCapture,
        ),
        (
            "after a capture the capturing piece moves again",
            Berserk::MoveAgain,
        ),
    ] {
        let rules = berserk_with(&[(capture_again, words)]).rules;
        assert_eq!(rules.berserk, Some(reading), "{words}");
    }
}

#[test]
fn a_sandwich_lists_several_regions_and_a_jump_goes_over_several_kinds() {
    let rules = berserk_with(&[
        (
            "counting corners, except on the throne",
            "counting corners and the throne, except on the throne or the corners",
        ),
        (
            "the knight may jump over an attacker, capturing it",
            "the knight may jump over an attacker and a commander, capturing them",
        ),
    ])
    .rules;
    let sandwich = &rules.king_sandwiches[0];
    assert_eq!(sandwich.kings, ["king"]);
    assert_eq!(sandwich.captors, ["commander"]);
    assert_eq!(sandwich.counting, ["corners", "throne"]);
    assert_eq!(sandwich.except_on, ["throne", "corners"]);
    let knight = &rules.jumps[1];
    assert_eq!(knight.pieces, ["knight"]);
    assert_eq!(knight.over, ["attacker", "commander"]);
    assert!(knight.only_from_or_to.is_empty());
    assert!(knight.captures);
}

/// `defending soldiers`, `the defenders' men`, `attacking kings` ...: one side's pieces of one
/// role, where `defenders` takes the king too and `soldiers` takes both sides' men.
#[test]
fn one_sides_soldiers_can_be_named_wherever_pieces_are() {
    let text = Variant::bundled("brandubh").expect("brandubh loads").text;
    let victims = |set: &str| {
        let clause = format!("the throne is hostile to {set} when empty\n");
        let variant = Variant::from_text("sides.tafl", &format!("{text}{clause}"))
            .unwrap_or_else(|error| panic!("`{clause}` does not load: {error}"));
        let rule = variant
            .rules
            .hostility
            .last()
            .expect("the clause adds a hostility rule")
            .clone();
        let mut victims = rule.victims;
        victims.sort();
        victims
    };
    assert_eq!(victims("defending soldiers"), ["defender"]);
    assert_eq!(victims("the defenders' men"), ["defender"]);
    assert_eq!(victims("the defenders' soldiers"), ["defender"]);
    assert_eq!(victims("attacking soldiers"), ["attacker"]);
    assert_eq!(
        victims("the attackers' men and defending kings"),
        ["attacker", "king"]
    );
    // The broader words keep their meaning.
    assert_eq!(victims("defenders"), ["defender", "king"]);
    assert_eq!(victims("soldiers"), ["attacker", "defender"]);
}

#[test]
fn rules_whose_win_or_capture_clauses_name_no_declared_piece_are_refused() {
    let rules = Variant::bundled("copenhagen").unwrap().rules;
    assert!(rules.validate().is_ok());
    // An edge fort, an escape and a decisive capture each name their piece; JSON written by
    // hand can name one that is not declared, and validation must say so before the engine
    // compiles it.
    let mut fort = rules.clone();
    fort.outcome.edge_forts[0].piece = "ghost".to_string();
    let mut escape = rules.clone();
    escape.outcome.escapes[0].piece = "ghost".to_string();
    for broken in [fort, escape] {
        let error = broken.validate().unwrap_err().to_string();
        assert!(error.contains("ghost"), "{error}");
    }
}
