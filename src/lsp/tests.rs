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
        [Span::new(declaration, declaration + "camps".len())]
    );
    // `a camp` and `muscovites` resolve like the checker resolves them.
    let camp = at(text, "a camp") + 2;
    assert_eq!(analysis.references(use_of_camps, true).len(), 3);
    assert_eq!(analysis.references(camp, false).len(), 2);
    let muscovites = at(text, "muscovites");
    assert_eq!(
        analysis.definition(muscovites),
        [Span::new(
            at(text, "muscovite:"),
            at(text, "muscovite:") + 9
        )]
    );
    // Without a diagram a built-in region is defined nowhere in the file: an empty answer.
    let text = "board 7 x 7\nnobody may land on the throne\n";
    let analysis = Analysis::new("t.tafl", text);
    assert_eq!(analysis.definition(at(text, "throne")), []);
}

/// A 5 x 5 variant with built-in regions, a declared one, a comment, a string and squares.
const TINY: &str =
    "name \"Tiny\" # a test\nboard 5 x 5\nsetup\n  . . t . .\n  . . t . .\n  t t K t t\n\
                    . . t . .\n  . . t . .\nend\npiece t muscovite: attacker soldier\n\
                    piece K king: defender king\nregion camps = b2 d4\nattackers move first\n\
                    nobody may land on the throne\nthe camps are hostile to everyone\n\
                    defenders win when the king reaches a corner\n\
                    the king is captured on the throne when surrounded on four sides\n";

#[test]
fn built_in_regions_are_defined_by_their_squares_in_the_diagram() {
    let analysis = Analysis::new("tiny.tafl", TINY);
    let setup = analysis
        .clauses()
        .iter()
        .find(|clause| matches!(clause.kind, ClauseKind::Setup(_)))
        .expect("a diagram");
    // The throne is one cell: the king's, c3.
    let throne = analysis.definition(at(TINY, "the throne\n") + 4);
    assert_eq!(throne.len(), 1);
    assert_eq!(&TINY[throne[0].start..throne[0].end], "K");
    assert_eq!(throne[0].start, at(TINY, "K t t"));
    // The four corners are the diagram's corner cells.
    let corners = analysis.definition(at(TINY, "a corner") + 2);
    assert_eq!(corners.len(), 4);
    assert!(corners
        .iter()
        .all(|cell| setup.span.start < cell.start && &TINY[cell.start..cell.end] == "."));
    let a5 = at(TINY, ". . t . .\n");
    assert!(
        corners.iter().any(|cell| cell.start == a5),
        "a5 is a corner"
    );
    // The edge has 16 squares: the whole diagram.
    let text = format!("{TINY}nobody may land on the edge\n");
    let analysis = Analysis::new("tiny.tafl", &text);
    let edge = analysis.definition(at(&text, "the edge") + 4);
    assert_eq!(edge, [setup.span]);
}

#[test]
fn outline_entries_leave_out_comments_and_runs_of_spaces() {
    let text = "board 3 x 3\nsetup          # the start, drawn\n  . t .\n  t K t\n  . t .\nend\n\
                piece t muscovite: attacker soldier\npiece K king: defender king\n";
    let analysis = Analysis::new("t.tafl", text);
    let board = analysis
        .symbols()
        .into_iter()
        .find(|family| family.name == "Board and sides")
        .expect("a board family");
    let names: Vec<&str> = board.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["board 3 x 3", "setup"]);
}

#[test]
fn an_empty_square_names_the_king_in_its_capture_rule() {
    let analysis = Analysis::new("linnaeus.tafl", LINNAEUS);
    // a1 is an empty corner of the diagram; the king is captured there as elsewhere.
    let row1 = at(LINNAEUS, ". . . t t t . . .\nend");
    let hover = analysis.hover(row1).expect("a hover on a1");
    assert!(hover.text.starts_with("**a1**"), "{}", hover.text);
    assert!(
        hover.text.contains("- The King, elsewhere: captured"),
        "{}",
        hover.text
    );
    assert!(!hover.text.contains("- Elsewhere"), "{}", hover.text);
}

#[test]
fn tokens_colour_every_kind_of_word() {
    let text = TINY;
    let analysis = Analysis::new("tiny.tafl", text);
    let kind_of = |word: &str| {
        let start = at(text, word);
        analysis
            .tokens()
            .into_iter()
            .find(|token| token.span.start == start)
            .map(|token| (token.kind, &text[token.span.start..token.span.end]))
    };
    assert_eq!(kind_of("name"), Some((TokenKind::Keyword, "name")));
    assert_eq!(kind_of("\"Tiny\""), Some((TokenKind::String, "\"Tiny\"")));
    assert_eq!(kind_of("# a test"), Some((TokenKind::Comment, "# a test")));
    assert_eq!(kind_of("5 x"), Some((TokenKind::Number, "5")));
    assert_eq!(kind_of("K t t"), Some((TokenKind::KingCell, "K")));
    assert_eq!(kind_of("t t K"), Some((TokenKind::AttackerCell, "t")));
    assert_eq!(kind_of(". . t"), Some((TokenKind::EmptyCell, ".")));
    assert_eq!(kind_of("muscovite:"), Some((TokenKind::Piece, "muscovite")));
    // A piece's letter where it is declared is the same token as in the diagram.
    assert_eq!(kind_of("K king:"), Some((TokenKind::KingCell, "K")));
    assert_eq!(
        kind_of("t muscovite:"),
        Some((TokenKind::AttackerCell, "t"))
    );
    assert_eq!(
        kind_of("attackers move"),
        Some((TokenKind::Side, "attackers"))
    );
    assert_eq!(kind_of("throne\n"), Some((TokenKind::Region, "throne")));
    assert_eq!(kind_of("corner\n"), Some((TokenKind::Region, "corner")));
    assert_eq!(kind_of("camps ="), Some((TokenKind::Region, "camps")));
    assert_eq!(kind_of("b2"), Some((TokenKind::Square, "b2")));
    assert_eq!(kind_of("hostile"), Some((TokenKind::Keyword, "hostile")));
    let tokens = analysis.tokens();
    for pair in tokens.windows(2) {
        assert!(pair[0].span.end <= pair[1].span.start, "overlap: {pair:?}");
    }
    for token in &tokens {
        assert!(!text[token.span.start..token.span.end].contains('\n'));
    }
}
