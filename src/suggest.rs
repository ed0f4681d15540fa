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

/// A way authors phrase a rule, and where the language says it, or that it cannot.
pub(crate) struct Phrasing {
    /// Word sequences that signal the phrasing; a word matches itself and its longer forms
    /// (`surround` matches `surrounded`), or only itself plus `s` when it is short.
    pub triggers: &'static [&'static str],
    /// Words that, when the line has one, mean the phrasing is not this one (`the king is
    /// captured between two enemies` is the king's capture, not a soldier's default).
    pub unless: &'static [&'static str],
    /// What the rule is to the language.
    pub kind: Kind,
    /// What to write instead, or where to read about it.
    pub hint: &'static str,
}

/// What a phrased rule is to the language: how the parser answers a line that uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A rule the language says in other words: the hint names the clause.
    Reworded,
    /// A rule the language cannot say (named here, as "a win by counting pieces"): the line is
    /// refused with one diagnostic naming the rule, and the hint points to the nearest thing
    /// the language can say.
    Unsayable(&'static str),
    /// A rule every variant has without a clause (named here): the line is read as the
    /// default it restates, with a note to delete it.
    Default(&'static str),
}

/// The docs' section on the rules the language does not say, cited by every unsayable rule.
pub(crate) const UNSAID_SECTION: &str =
    "docs/language.md, \"What the language does not say, and why\"";

/// The phrasings, most specific first: the first whose trigger occurs in a line gives the hint.
pub(crate) const PHRASINGS: &[Phrasing] = &[
    Phrasing {
        triggers: &["remain", "left on the board", "pieces left", "pieces are left"],
        unless: &[],
        kind: Kind::Unsayable("a win by counting pieces"),
        hint: "the language counts no pieces; a side wins by capturing the king or a named piece \
               (`attackers win when the king is captured`), by reaching a region, by an edge fort or by \
               encirclement, and a side left without a move loses (`a side that cannot move loses`)",
    },
    Phrasing {
        triggers: &["promot", "crowned", "becomes a king", "become a king", "turns into", "turn into"],
        unless: &[],
        kind: Kind::Unsayable("promotion"),
        hint: "a piece keeps its kind all game; declare each kind it could be from the start, with a \
               `piece` clause and rules of its own (docs/language.md, \"4.4 Pieces\")",
    },
    Phrasing {
        triggers: &["diagonal", "like a bishop", "like a queen", "like a knight", "like a king"],
        unless: &[],
        kind: Kind::Unsayable("diagonal moves"),
        hint: "pieces move along ranks and files: `moves like a rook`, `moves like a rook, at most 1 \
               square`, or `moves to any empty square` (docs/language.md, \"4.7 Movement\")",
    },
    Phrasing {
        triggers: &["forward", "backward", "sideways", "toward", "one direction"],
        unless: &[],
        kind: Kind::Unsayable("moves in one direction only"),
        hint: "a piece moves alike in all four directions along ranks and files (`moves like a rook \
               [, at most 2 squares]`); to keep pieces out of squares, bar them: `attackers may not \
               enter camps` (docs/language.md, \"4.8 Access\")",
    },
    Phrasing {
        triggers: &[
            "return to the board", "return to play", "return into play", "back on the board",
            "back onto the board", "back into play", "back into the game", "re enter the board",
            "reenter the board", "drop", "dropped", "in hand", "reinforcement",
        ],
        unless: &[],
        kind: Kind::Unsayable("pieces returning to the board (drops)"),
        hint: "a captured piece leaves the game for good, and a game starts from its `setup` diagram \
               alone: keep the source's rule in a `note` so that players know it",
    },
    Phrasing {
        triggers: &["up to", "or fewer", "or less", "less than", "fewer than", "no more than", "one square at a time"],
        unless: &[],
        kind: Kind::Reworded,
        hint: "a move of limited length reads `the king moves like a rook, at most 3 squares` \
               (docs/language.md, \"4.7 Movement\")",
    },
    Phrasing {
        triggers: &["return", "come back", "go back"],
        unless: &[],
        kind: Kind::Reworded,
        hint: "a piece that may not come back to squares once it has left them reads `attackers may not \
               enter camps once they have left them` (docs/language.md, \"4.8 Access\")",
    },
    Phrasing {
        triggers: &["approach", "withdraw", "moving away", "moves away", "move away"],
        unless: &[],
        kind: Kind::Unsayable("capture by approach or withdrawal"),
        hint: "a capture encloses a piece between two enemies on a line, made by the moving piece \
               (the default, which needs no clause); squares can stand in for a captor (`the throne is \
               hostile to everyone`) and `armed` says which pieces take part (docs/language.md, \
               \"4.9 Capture\")",
    },
    Phrasing {
        triggers: &["sandwich", "two opposite sides", "opposite sides", "between two enemies", "two sides", "2 sides", "custodial"],
        unless: &["king", "kings", "throne", "corner", "corners", "shieldwall"],
        kind: Kind::Default("custodial capture of soldiers between two enemies"),
        hint: "every piece is captured between two enemies on a line, by the enemy's move, without a \
               clause; `tafl show` says so first under \"Capturing\" (docs/language.md, \"4.9 Capture\")",
    },
    Phrasing {
        triggers: &["repeat"],
        unless: &[],
        kind: Kind::Reworded,
        hint: "a repetition is counted by the times the position stands, the first included: \
               `when a position occurs 3 times`, as in `the defenders lose when a position occurs 3 \
               times`; `when a position repeats` means its second time (docs/language.md, \
               \"Repeated positions\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Unsayable("a draw when neither side can win any more"),
        triggers: &["neither side can win", "neither side", "nobody can win", "cannot win", "can't win"],
        hint: "no rule can tell from a position that a win will never come; write `the game is drawn by \
               agreement` and, for games between programs, `the game is drawn after 100 moves without \
               capture` (docs/language.md, \"When neither side can win\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["exit fort"],
        hint: "an exit fort reads `defenders win when the king holds an edge fort` \
               (docs/language.md, \"Winning by an edge fort\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["berserk", "move again", "moves again", "another move", "capture again"],
        hint: "berserk moves read `after a capture the capturing piece must capture again while it can` \
               (or `moves again while it can capture`, or `moves again`) (docs/language.md, \"Berserk moves\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["jump", "leap"],
        hint: "a jump reads `the knight may jump over an attacker [, only from or to the throne] \
               [, capturing it]` (docs/language.md, \"Jumps\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["commander", "two commanders"],
        hint: "the commanders' capture of the king reads `the king is also captured between two \
               commanders [, counting corners] [, except on the throne]` (docs/language.md, \
               \"Capturing a king between two commanders\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["shieldwall", "shield wall", "shield-wall"],
        hint: "the shieldwall reads `soldiers are captured in a shieldwall [, counting corners]` \
               (docs/language.md, \"Shieldwall\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["encircle", "encirclement", "surround all", "surrounds all", "surround every"],
        hint: "encirclement reads `attackers win when no defender can reach the edge` or \
               `attackers win when every defender is surrounded` (docs/language.md, \"Winning by encirclement\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["three sides", "3 sides", "two sides", "2 sides"],
        hint: "the king is captured when surrounded on four sides, some of which may be squares: \
               `the king is captured beside the throne when surrounded on four sides, counting the throne` \
               (docs/language.md, \"Capturing the king\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["surround"],
        hint: "the king's capture reads `the king is captured <on the throne | beside the throne | elsewhere | anywhere> \
               when surrounded on four sides` (docs/language.md, \"Capturing the king\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["cannot move", "can't move", "no legal move", "no moves", "stalemate", "blocked"],
        hint: "write `a side that cannot move loses` or `the game is drawn when a side cannot move` \
               (docs/language.md, \"A side that cannot move\")",
    },
    Phrasing {
        unless: &[],
        kind: Kind::Reworded,
        triggers: &["loses", "lose", "lost"],
        hint: "say who wins instead, e.g. `attackers win when the king is captured`; the clauses with `loses` are \
               `a side that cannot move loses` and `a side that makes a position occur 3 times loses` \
               (docs/language.md, \"The end of the game\")",
    },
];

/// The hint for the first phrasing that `text` uses, if any.
pub(crate) fn phrasing_hint(text: &str) -> Option<&'static str> {
    phrasing(text).map(|phrasing| phrasing.hint)
}

/// The first phrasing that `text` uses, if any; text in double quotes (a note, a name) is not
/// read.
pub(crate) fn phrasing(text: &str) -> Option<&'static Phrasing> {
    let unquoted: String = text.split('"').step_by(2).collect::<Vec<_>>().join(" ");
    let words: Vec<String> = unquoted
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    PHRASINGS.iter().find(|phrasing| {
        let uses = |triggers: &[&str]| {
            triggers
                .iter()
                .any(|trigger| contains_phrase(&words, trigger))
        };
        uses(phrasing.triggers) && !uses(phrasing.unless)
    })
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
    fn each_rule_the_language_cannot_say_is_named() {
        let kind = |text: &str| phrasing(text).map(|phrasing| phrasing.kind);
        for (text, rule) in [
            (
                "attackers win when only 3 defenders remain",
                "a win by counting pieces",
            ),
            ("a soldier on the far edge is promoted", "promotion"),
            ("the king moves diagonally", "diagonal moves"),
            (
                "attackers move only forwards",
                "moves in one direction only",
            ),
            (
                "a captured piece returns to the board",
                "pieces returning to the board (drops)",
            ),
            (
                "pieces capture by withdrawal",
                "capture by approach or withdrawal",
            ),
        ] {
            assert_eq!(kind(text), Some(Kind::Unsayable(rule)), "{text}");
        }
        let short = phrasing_hint("the king moves up to 3 squares");
        assert!(short.is_some_and(|hint| hint.contains("at most 3 squares")));
        // A return to the throne or the camps is said by `once left`; a king sandwiched is the
        // king's capture, not the soldiers' default; quoted text is not read.
        assert_eq!(
            kind("the king may not return to the throne"),
            Some(Kind::Reworded)
        );
        assert_eq!(
            kind("soldiers are captured when sandwiched"),
            Some(Kind::Default(
                "custodial capture of soldiers between two enemies"
            ))
        );
        assert_ne!(
            kind("the king is captured when sandwiched")
                .map(|kind| matches!(kind, Kind::Default(_))),
            Some(true)
        );
        assert_eq!(kind("note \"pieces remain on the board\" x"), None);
    }

    #[test]
    fn back_and_forth_is_not_a_fort() {
        assert_eq!(phrasing_hint("a piece may move back and forth"), None);
    }
}
