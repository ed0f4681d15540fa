use super::*;

const LINNAEUS: &str = include_str!("../../variants/linnaeus.tafl");

fn at(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the text"))
}

#[test]
fn a_clause_hovers_with_its_plain_words() {
    let analysis = Analysis::new("linnaeus.tafl", LINNAEUS);
    let offset = at(LINNAEUS, "captured on the throne when") + "captured ".len() - 3;
    let hover = analysis.hover(offset).expect("a hover on the clause");
    assert!(
        hover
            .text
            .contains("On the throne (e5): captured when enemies surround him on all four sides"),
        "{}",
        hover.text
    );
    let draw = analysis
        .hover(at(LINNAEUS, "drawn by agreement"))
        .expect("a hover");
    assert_eq!(draw.text, "The players may agree a draw.");
}

#[test]
fn jump_berserk_and_sandwich_clauses_hover_with_their_plain_words() {
    const BERSERK: &str = include_str!("../../variants/berserk.tafl");
    let analysis = Analysis::new("berserk.tafl", BERSERK);
    for (clause, words) in [
        (
            "the knight may jump over",
            "Jump: Knights may jump over an Attacker next to them",
        ),
        (
            "the king may jump over",
            "Jump: the King may jump over an Attacker next to him",
        ),
        (
            "after a capture the capturing piece",
            "Berserk: after a capture, while the capturing piece can capture again",
        ),
        (
            "the king is also captured between",
            "Also: the King is captured when a Commander moves next to him",
        ),
    ] {
        let hover = analysis
            .hover(at(BERSERK, clause) + 1)
            .unwrap_or_else(|| panic!("a hover on `{clause}`"));
        assert!(hover.text.starts_with(words), "{clause}: {}", hover.text);
    }
}

#[test]
fn a_name_hovers_with_its_declaration_and_uses() {
    let analysis = Analysis::new("linnaeus.tafl", LINNAEUS);
    let use_of_throne = at(LINNAEUS, "land on the throne") + "land on the ".len();
    let hover = analysis.hover(use_of_throne).expect("a hover on `throne`");
    let declared = LINNAEUS[..at(LINNAEUS, "square throne")]
        .matches('\n')
        .count()
        + 1;
    assert!(
        hover.text.starts_with("**region `throne`**: 1 square (e5)"),
        "{}",
        hover.text
    );
    assert!(
        hover
            .text
            .contains(&format!("Declared on line {declared}.")),
        "{}",
        hover.text
    );
    assert!(hover.text.contains("Used on lines"), "{}", hover.text);
}

#[test]
fn a_square_hovers_with_what_is_special_about_it() {
    let analysis = Analysis::new("linnaeus.tafl", LINNAEUS);
    let hover = analysis
        .hover(at(LINNAEUS, "e5") + 1)
        .expect("a hover on e5");
    assert!(
        hover
            .text
            .starts_with("**e5**, in `throne`; at the start: `K` King."),
        "{}",
        hover.text
    );
    assert!(
        hover.text.contains("No piece may land on the throne"),
        "{}",
        hover.text
    );
    // The king's cell in the diagram is e5 too.
    let diagram_king = at(LINNAEUS, "K T T t t");
    let cell = analysis
        .hover(diagram_king)
        .expect("a hover on the diagram");
    assert_eq!(cell.text, hover.text);
}

#[test]
fn definitions_and_references_follow_names() {
    let text = "board 7 x 7\npiece t muscovite: attacker soldier\npiece K king: defender king\n\
                region camps = d1 d7\nmuscovites may not enter the camps\nthe king moves like a rook\n\
                only the king may land on a camp\n";
    let analysis = Analysis::new("t.tafl", text);
    let use_of_camps = at(text, "the camps") + 4;
    let declaration = at(text, "camps =");
    assert_eq!(
        analysis.definition(use_of_camps),
        Some(Span::new(declaration, declaration + "camps".len()))
    );
    // `a camp` and `muscovites` resolve like the checker resolves them.
    let camp = at(text, "a camp") + 2;
    assert_eq!(analysis.references(use_of_camps, true).len(), 3);
    assert_eq!(analysis.references(camp, false).len(), 2);
    let muscovites = at(text, "muscovites");
    assert_eq!(
        analysis.definition(muscovites),
        Some(Span::new(
            at(text, "muscovite:"),
            at(text, "muscovite:") + 9
        ))
    );
    // Built-in regions have no declaration.
    let text = "board 7 x 7\nnobody may land on the throne\n";
    let analysis = Analysis::new("t.tafl", text);
    assert_eq!(analysis.definition(at(text, "throne")), None);
}

#[test]
fn completion_offers_pieces_to_jump_and_regions_to_jump_from() {
    let text = "board 7 x 7\npiece t muscovite: attacker soldier\npiece K king: defender king\n";
    // What kinds of name are offered at the end of `line`.
    let offered = |line: &str| -> (bool, bool) {
        let text = format!("{text}{line}");
        let completions = Analysis::new("t.tafl", &text).completions(text.len());
        let has = |kind| completions.iter().any(|completion| completion.kind == kind);
        (has(CompletionKind::Piece), has(CompletionKind::Region))
    };
    let pieces = (true, false);
    let regions = (false, true);
    assert_eq!(offered("the king may jump over "), pieces);
    assert_eq!(offered("the king may jump over a muscovite, "), pieces);
    assert_eq!(
        offered("the king may jump over a muscovite, only from or to the "),
        regions
    );
    assert_eq!(
        offered("the king may jump over a muscovite, only from or onto "),
        regions
    );
    assert_eq!(
        offered("the king may jump over a muscovite, only from or to the throne or "),
        regions
    );
    assert_eq!(offered("the king is also captured between two "), pieces);
    assert_eq!(
        offered("the king is also captured between two muscovites, counting corners, "),
        regions
    );
    assert_eq!(
        offered("the king is also captured between two muscovites, except on the throne or "),
        regions
    );
    assert_eq!(offered("nobody may pass over "), regions);
}

#[test]
fn completion_offers_keywords_then_names_in_context() {
    let text = "board 7 x 7\npiece t muscovite: attacker soldier\npiece K king: defender king\n\
                region camps = d1 d7\nnobody may \n";
    let analysis = Analysis::new("t.tafl", text);
    let labels = |offset: usize| -> Vec<(String, CompletionKind)> {
        analysis
            .completions(offset)
            .into_iter()
            .map(|completion| (completion.label, completion.kind))
            .collect()
    };
    let after_may = labels(at(text, "nobody may ") + "nobody may ".len());
    assert!(
        after_may.contains(&("land".to_string(), CompletionKind::Keyword)),
        "{after_may:?}"
    );
    assert!(!after_may
        .iter()
        .any(|(_, kind)| *kind == CompletionKind::Piece));

    let text = format!("{text}nobody may land on the c");
    let analysis = Analysis::new("t.tafl", &text);
    let regions: Vec<String> = analysis
        .completions(text.len())
        .into_iter()
        .filter(|completion| completion.kind == CompletionKind::Region)
        .map(|completion| completion.label)
        .collect();
    assert_eq!(regions, ["throne", "corners", "edge", "camps"]);

    let text =
        "board 7 x 7\npiece t muscovite: attacker soldier\npiece K king: defender king\nthe ";
    let analysis = Analysis::new("t.tafl", text);
    let pieces: Vec<String> = analysis
        .completions(text.len())
        .into_iter()
        .filter(|completion| completion.kind == CompletionKind::Piece)
        .map(|completion| completion.label)
        .collect();
    assert_eq!(pieces, ["muscovite", "king"]);

    let text = "board 5 x 5\nregion camps = ";
    let squares = Analysis::new("t.tafl", text).completions(text.len());
    assert_eq!(squares.len(), 25);
    assert!(squares
        .iter()
        .all(|completion| completion.kind == CompletionKind::Square));
}

#[test]
fn nothing_is_completed_in_comments_and_text() {
    let text = "board 7 x 7\nnobody may # land \nname \"the ";
    let analysis = Analysis::new("t.tafl", text);
    assert_eq!(analysis.completions(at(text, "# land") + 7), []);
    assert_eq!(analysis.completions(text.len()), []);
    assert!(!analysis.completions(at(text, "# land")).is_empty());
}

#[test]
fn the_outline_groups_clauses_by_family() {
    let analysis = Analysis::new("linnaeus.tafl", LINNAEUS);
    let symbols = analysis.symbols();
    let titles: Vec<&str> = symbols.iter().map(|symbol| symbol.name.as_str()).collect();
    assert_eq!(
        titles,
        [
            "About",
            "Board and sides",
            "Pieces",
            "Regions",
            "Moving",
            "Capturing",
            "Capturing the king",
            "End of the game"
        ]
    );
    let pieces: Vec<&str> = symbols[2]
        .children
        .iter()
        .map(|piece| piece.name.as_str())
        .collect();
    assert_eq!(pieces, ["muscovite", "swede", "king"]);
    assert_eq!(symbols[3].children[0].kind, SymbolKind::Region);
}

#[test]
fn a_broken_file_still_answers() {
    let text =
        "boadr 9 x 9\npiece K king: defender king\nthe king is armd\nthe king moves like a rook\n";
    let analysis = Analysis::new("t.tafl", text);
    assert!(analysis.diagnostics().has_errors());
    let king = at(text, "king moves");
    assert_eq!(
        analysis.definition(king),
        Some(Span::new(at(text, "king:"), at(text, "king:") + 4))
    );
    assert!(analysis.hover(king).is_some());
}
