//! What may come next at the end of an unfinished clause: the grammar's own answer, for an
//! editor's completion.

use std::collections::BTreeSet;

use pest::Parser as _;

use super::grammar::{Rule, TaflParser};

/// What the grammar accepts after some text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// Keywords and punctuation that may come next (`land`, `rook`, `,`), sorted.
    pub keywords: Vec<String>,
    /// Whether a name (of a piece or a region) or a square may come next: the grammar does not
    /// tell them apart (the checker does), so the caller decides from the words before.
    pub name: bool,
}

/// What may follow `line`, the start of a clause (one line, without its line break). A
/// complete clause also accepts the end of the line, which is not listed.
pub fn expected_after(line: &str) -> Expected {
    pest::set_error_detail(true);
    // A character no clause accepts makes the parse fail exactly where the line ends.
    let probe = format!("{line}\u{1}");
    let Err(error) = TaflParser::parse(Rule::file, &probe) else {
        return Expected::default();
    };
    let Some(attempts) = error.parse_attempts() else {
        return Expected::default();
    };
    if attempts.max_position < line.len() {
        // The line already fails before its end: nothing sensible follows.
        return Expected::default();
    }
    let mut expected = Expected::default();
    let mut keywords = BTreeSet::new();
    for token in attempts.expected_tokens() {
        let text = token.to_string();
        // pest does not export its token type; its Display gives a literal's text and `a..z`
        // for a character range, which here always starts a name or a square.
        if text == "a..z" {
            expected.name = true;
            continue;
        }
        let is_keyword = text.chars().all(|c| c.is_ascii_alphabetic())
            || matches!(text.as_str(), "," | ":" | "=");
        if is_keyword && !text.is_empty() {
            keywords.insert(text.to_lowercase());
        }
    }
    expected.keywords = keywords.into_iter().collect();
    expected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_clauses_continue_with_their_actions_then_regions() {
        let after_may = expected_after("nobody may ");
        assert!(
            after_may.keywords.contains(&"land".to_string()),
            "{after_may:?}"
        );
        assert!(after_may.keywords.contains(&"enter".to_string()));
        assert!(!after_may.name);
        let after_on = expected_after("nobody may land on the ");
        assert!(after_on.name, "{after_on:?}");
    }

    #[test]
    fn one_sides_soldiers_are_offered_where_pieces_are_named() {
        let after_to = expected_after("the throne is hostile to ");
        for word in ["attacking", "defending", "everyone", "soldiers"] {
            assert!(
                after_to.keywords.contains(&word.to_string()),
                "{after_to:?}"
            );
        }
    }

    #[test]
    fn piece_sets_and_squares_are_recognised() {
        assert!(
            expected_after("").name,
            "a clause may start with a piece name"
        );
        assert!(expected_after("").keywords.contains(&"board".to_string()));
        assert!(expected_after("region camps = ").name);
        let after_like = expected_after("everyone moves like a ");
        assert_eq!(after_like.keywords, vec!["rook".to_string()]);
    }

    #[test]
    fn jump_and_berserk_clauses_offer_their_continuations() {
        // After the comma, the list of jumped pieces may go on, or the clause's own tail begins:
        // `capturing` and `only` are reserved, so they are not read as piece names.
        let after_comma = expected_after("the knight may jump over an attacker, ");
        for word in ["capturing", "only"] {
            assert!(
                after_comma.keywords.contains(&word.to_string()),
                "{after_comma:?}"
            );
        }
        let after_piece = expected_after("after a capture, the capturing piece ");
        assert_eq!(after_piece.keywords, ["moves", "must"]);
        let after_between = expected_after("the king is also captured between two commanders, ");
        for word in ["counting", "except"] {
            assert!(
                after_between.keywords.contains(&word.to_string()),
                "{after_between:?}"
            );
        }
    }

    #[test]
    fn a_line_broken_before_its_end_expects_nothing() {
        assert_eq!(expected_after("boadr 9 x "), Expected::default());
    }
}
