//! Hints for an author's mistakes: the nearest known word ("did you mean `board`?") and a table
//! of common phrasings of tafl rules, each pointing to the clause that says it or to the docs.
//!
//! The table is [`PHRASINGS`], the one place to change when the language learns a rule: each hint
//! points at the clause that states the rule, or at docs/language.md's "Room to grow" for a rule
//! the language cannot state yet.

/// The candidate nearest to `word` by edit distance, when it is near enough to be a plausible
/// misspelling: at most one edit (a swap of two neighbours counts as one) for words of up to seven
/// letters, two up to twelve, three beyond; `loses` is not a misspelling of `moves`.
/// Case is ignored; a candidate equal to `word` is not a suggestion.
pub(crate) fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.to_lowercase();
    let limit = match word.chars().count() {
        0..=1 => return None,
        2..=7 => 1,
        8..=12 => 2,
        _ => 3,
    };
    candidates
        .into_iter()
        .filter(|candidate| candidate.to_lowercase() != word)
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&word, &candidate.to_lowercase());
            (distance, candidate)
        })
        .filter(|(distance, _)| *distance <= limit)
        // The first of equally near candidates wins: callers list the likelier ones first.
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// A way authors phrase a rule, and where the language says it.
pub(crate) struct Phrasing {
    /// Word sequences that signal the phrasing; a word matches itself and its longer forms
    /// (`surround` matches `surrounded`), or only itself plus `s` when it is short.
    pub triggers: &'static [&'static str],
    /// What to write instead, or where to read about it.
    pub hint: &'static str,
}

/// The phrasings, most specific first: the first whose trigger occurs in a line gives the hint.
pub(crate) const PHRASINGS: &[Phrasing] = &[
    Phrasing {
        triggers: &["neither side can win", "neither side", "nobody can win", "cannot win", "can't win"],
        hint: "the language has no clause for \"if neither side can win, the game is a draw\": no rule \
               can tell from a position that a win will never come; write `the game is drawn by agreement` \
               and, for games between programs, `the game is drawn after 100 moves without capture` \
               (docs/language.md, \"When neither side can win\")",
    },
    Phrasing {
        triggers: &["exit fort"],
        hint: "an exit fort reads `defenders win when the king holds an edge fort` \
               (docs/language.md, \"Winning by an edge fort\")",
    },
    Phrasing {
        triggers: &["berserk", "move again", "moves again", "another move", "capture again"],
        hint: "berserk moves read `after a capture the capturing piece must capture again while it can` \
               (or `moves again while it can capture`, or `moves again`) (docs/language.md, \"Berserk moves\")",
    },
    Phrasing {
        triggers: &["jump", "leap"],
        hint: "a jump reads `the knight may jump over an attacker [, only from or to the throne] \
               [, capturing it]` (docs/language.md, \"Jumps\")",
    },
    Phrasing {
        triggers: &["commander", "two commanders"],
        hint: "the commanders' capture of the king reads `the king is also captured between two \
               commanders [, counting corners] [, except on the throne]` (docs/language.md, \
               \"Capturing a king between two commanders\")",
    },
    Phrasing {
        triggers: &["shieldwall", "shield wall", "shield-wall"],
        hint: "the shieldwall reads `soldiers are captured in a shieldwall [, counting corners]` \
               (docs/language.md, \"Shieldwall\")",
    },
    Phrasing {
        triggers: &["encircle", "encirclement", "surround all", "surrounds all", "surround every"],
        hint: "encirclement reads `attackers win when no defender can reach the edge` or \
               `attackers win when every defender is surrounded` (docs/language.md, \"Winning by encirclement\")",
    },
    Phrasing {
        triggers: &["three sides", "3 sides", "two sides", "2 sides"],
        hint: "the king is captured when surrounded on four sides, some of which may be squares: \
               `the king is captured beside the throne when surrounded on four sides, counting the throne` \
               (docs/language.md, \"Capturing the king\")",
    },
    Phrasing {
        triggers: &["surround"],
        hint: "the king's capture reads `the king is captured <on the throne | beside the throne | elsewhere | anywhere> \
               when surrounded on four sides` (docs/language.md, \"Capturing the king\")",
    },
    Phrasing {
        triggers: &["cannot move", "can't move", "no legal move", "no moves", "stalemate", "blocked"],
        hint: "write `a side that cannot move loses` or `the game is drawn when a side cannot move` \
               (docs/language.md, \"A side that cannot move\")",
    },
    Phrasing {
        triggers: &["loses", "lose", "lost"],
        hint: "say who wins instead, e.g. `attackers win when the king is captured`; the clauses with `loses` are \
               `a side that cannot move loses` and `a side that makes a position occur 3 times loses` \
               (docs/language.md, \"The end of the game\")",
    },
];

/// The hint for the first phrasing that `text` uses, if any.
pub(crate) fn phrasing_hint(text: &str) -> Option<&'static str> {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    PHRASINGS
        .iter()
        .find(|phrasing| {
            phrasing
                .triggers
                .iter()
                .any(|trigger| contains_phrase(&words, trigger))
        })
        .map(|phrasing| phrasing.hint)
}

fn contains_phrase(words: &[String], trigger: &str) -> bool {
    let wanted: Vec<&str> = trigger
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    if wanted.is_empty() || wanted.len() > words.len() {
        return false;
    }
    words.windows(wanted.len()).any(|window| {
        window
            .iter()
            .zip(&wanted)
            .all(|(word, wanted)| word_matches(word, wanted))
    })
}

fn word_matches(word: &str, wanted: &str) -> bool {
    if wanted.len() >= 5 {
        word.starts_with(wanted)
    } else {
        word == wanted || word.strip_suffix('s') == Some(wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misspellings_are_suggested() {
        let keywords = ["board", "piece", "region", "setup"];
        assert_eq!(nearest("boadr", keywords), Some("board"));
        assert_eq!(nearest("bord", keywords), Some("board"));
        assert_eq!(nearest("peice", keywords), Some("piece"));
        assert_eq!(nearest("Regoin", keywords), Some("region"));
    }

    #[test]
    fn far_words_and_exact_words_are_not() {
        let keywords = ["board", "piece"];
        assert_eq!(nearest("castle", keywords), None);
        assert_eq!(nearest("board", keywords), None);
        assert_eq!(nearest("b", keywords), None);
        assert_eq!(nearest("loses", ["moves"]), None);
        assert_eq!(nearest("atackers", ["attackers"]), Some("attackers"));
    }

    #[test]
    fn phrasings_point_to_the_right_place() {
        let fort = phrasing_hint("defenders win when the king reaches an exit fort");
        assert!(fort.is_some_and(|hint| hint.contains("holds an edge fort")));
        let forts = phrasing_hint("defenders win when the king reaches exit-forts");
        assert_eq!(forts, fort);
        let three = phrasing_hint("the king is captured on three sides against the throne");
        assert!(three.is_some_and(|hint| hint.contains("counting the throne")));
        let encircled = phrasing_hint("attackers win when all defenders are encircled");
        assert!(encircled.is_some_and(|hint| hint.contains("no defender can reach the edge")));
        let stuck = phrasing_hint("a side that cannot move wins");
        assert!(stuck.is_some_and(|hint| hint.contains("a side that cannot move loses")));
        assert!(phrasing_hint("the king loses when captured").is_some());
        let leap = phrasing_hint("the king can leap over attackers");
        assert!(leap.is_some_and(|hint| hint.contains("may jump over")));
        let berserk = phrasing_hint("the berserker moves again after capturing");
        assert!(berserk.is_some_and(|hint| hint.contains("after a capture the capturing piece")));
        let neither = phrasing_hint("if neither side can win, the game is drawn");
        assert!(neither.is_some_and(|hint| hint.contains("When neither side can win")));
        let commanders = phrasing_hint("the king is captured by two commanders");
        assert!(commanders.is_some_and(|hint| hint.contains("also captured between two")));
    }

    #[test]
    fn back_and_forth_is_not_a_fort() {
        assert_eq!(phrasing_hint("a piece may move back and forth"), None);
    }
}
