//! English for messages: plurals, counts, lists and the indefinite article, in one place.
//!
//! Every sentence the toolkit writes for a person (explanations, diagnostics, the REPL) builds
//! its counts and lists here, so "1 squares" or "a escape" cannot creep back in one corner of
//! the code while being fixed in another.
//!
//! ```
//! use tafl::english::{count, join_and, join_or, plural, with_article};
//!
//! assert_eq!(count(1, "square"), "1 square");
//! assert_eq!(count(3, "square"), "3 squares");
//! assert_eq!(plural("barrow"), "barrows");
//! assert_eq!(plural("Black Draug"), "Black Draugs");
//! assert_eq!(join_and(&["a1", "a9", "i1"]), "a1, a9 and i1");
//! assert_eq!(join_or(&["`attackers`", "`defenders`"]), "`attackers` or `defenders`");
//! assert_eq!(with_article("edge square"), "an edge square");
//! ```

use crate::ir::{PieceKind, Rules, Side, Square};

/// The regular English plural of a noun or of a noun phrase (its last word): `square` →
/// `squares`, `box` → `boxes`, `ally` → `allies`, `Black Draug` → `Black Draugs`.
///
/// A word that is already plural is not recognised: pass singulars. Irregular nouns are not
/// known either; a piece clause may state its plural for that reason.
pub fn plural(noun: &str) -> String {
    let lower = noun.to_ascii_lowercase();
    let ends_with_consonant_y = lower.ends_with('y')
        && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u'])
        && lower.len() > 1;
    if lower.is_empty() {
        String::new()
    } else if ends_with_consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|ending| lower.ends_with(ending))
    {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// `singular` for one, its plural otherwise: `noun(1, "move")` is `move`, `noun(0, "move")`
/// is `moves`.
pub fn noun(number: usize, singular: &str) -> String {
    if number == 1 {
        singular.to_string()
    } else {
        plural(singular)
    }
}

/// A number and its noun: `count(1, "square")` is `1 square`, `count(2, "square")` is
/// `2 squares`.
pub fn count(number: usize, singular: &str) -> String {
    format!("{number} {}", noun(number, singular))
}

/// Like [`count`], with the plural given: `count_with(2, "man", "men")` is `2 men`.
pub fn count_with(number: usize, singular: &str, plural: &str) -> String {
    let noun = if number == 1 { singular } else { plural };
    format!("{number} {noun}")
}

/// `a` or `an` before `word`, by its first letter (`an edge`, `a corner`, `an 8`).
///
/// Spelling stands in for sound, which is right for the words of this toolkit (no `hour`,
/// `unit` or `one`).
pub fn article(word: &str) -> &'static str {
    match word
        .trim_start()
        .chars()
        .next()
        .map(|c| c.to_ascii_lowercase())
    {
        Some('a' | 'e' | 'i' | 'o' | 'u' | '8') => "an",
        _ => "a",
    }
}

/// `word` after its indefinite article: `an edge square`, `a king`.
pub fn with_article(word: &str) -> String {
    format!("{} {word}", article(word))
}

/// Items joined as a list ending in `and`: `a`, `a and b`, `a, b and c`; empty for none.
pub fn join_and<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "and")
}

/// Items joined as a list ending in `or`: `a`, `a or b`, `a, b or c`; empty for none.
pub fn join_or<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "or")
}

fn join<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} {conjunction} {}", init.join(", "), last.as_ref())
        }
    }
}

/// The plural of a piece kind shown to players: the declared one, or the regular English
/// plural of its display name ("Black Draugs").
pub fn piece_plural(piece: &PieceKind) -> String {
    piece
        .plural
        .clone()
        .unwrap_or_else(|| plural(&piece.display))
}

/// Whether `word`, as written in a clause, names `piece`: its name, or a plural of it
/// (`muscovites`, or the declared plural as a name: `men` for `plural "Men"`).
pub fn names_piece(word: &str, piece: &PieceKind) -> bool {
    let declared_plural = piece
        .plural
        .as_ref()
        .map(|plural| plural.to_lowercase().replace(' ', "-"));
    word == piece.name
        || word == plural(&piece.name)
        || word.strip_suffix('s') == Some(piece.name.as_str())
        || declared_plural.as_deref() == Some(word)
}

/// Squares as a list for a sentence: `a1, a9, i1` (no `and`: the list is usually in
/// parentheses after the name of the region).
pub fn squares(list: &[Square]) -> String {
    list.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `text` with its first letter in upper case.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A side as a sentence's subject, by the variant's name for it: `the Muscovites` for a plural
/// name, `White` for a singular one (side names are plural when they end in `s`).
pub fn side_noun(rules: &Rules, side: Side) -> String {
    name_noun(side_name(rules, side))
}

/// A side as the subject of `verb` (given in its plural form): `the Muscovites win`,
/// `White wins`; `have` agrees as `has` and `are` as `is`.
pub fn side_verb(rules: &Rules, side: Side, verb: &str) -> String {
    name_verb(side_name(rules, side), verb)
}

/// A side's name with the side it plays in parentheses, `the Muscovites (attackers)`, unless
/// the name already says it (`the Attackers`, `Black (attackers)`): never the side twice.
pub fn side_label(rules: &Rules, side: Side) -> String {
    name_label(side_name(rules, side), side.as_str())
}

/// A side's name as an owner: `the Muscovites'`, `Black's`.
pub fn side_possessive(rules: &Rules, side: Side) -> String {
    name_possessive(side_name(rules, side))
}

fn side_name(rules: &Rules, side: Side) -> &str {
    &rules.sides.get(side).name
}

fn name_noun(name: &str) -> String {
    if is_plural_name(name) {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

fn name_verb(name: &str, verb: &str) -> String {
    let verb = match (is_plural_name(name), verb) {
        (true, verb) => verb.to_string(),
        (false, "have") => "has".to_string(),
        (false, "are") => "is".to_string(),
        (false, verb) => format!("{verb}s"),
    };
    format!("{} {verb}", name_noun(name))
}

fn name_label(name: &str, side_word: &str) -> String {
    let noun = name_noun(name);
    if name.to_lowercase().contains(side_word) {
        noun
    } else {
        format!("{noun} ({side_word})")
    }
}

fn name_possessive(name: &str) -> String {
    if is_plural_name(name) {
        format!("{}'", name_noun(name))
    } else {
        format!("{name}'s")
    }
}

/// One player of `side` in the rules' own words: `attacker`, `defender` (the plural is
/// [`Side::as_str`]).
pub fn side_singular(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

fn is_plural_name(name: &str) -> bool {
    name.ends_with('s')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_labelled_once() {
        assert_eq!(
            name_label("Muscovites", "attackers"),
            "the Muscovites (attackers)"
        );
        assert_eq!(name_label("White", "defenders"), "White (defenders)");
        assert_eq!(name_label("Attackers", "attackers"), "the Attackers");
        assert_eq!(
            name_label("Black (attackers)", "attackers"),
            "Black (attackers)"
        );
        assert_eq!(name_possessive("Black"), "Black's");
        assert_eq!(name_possessive("Swedes"), "the Swedes'");
    }

    #[test]
    fn plurals_follow_the_spelling_rules() {
        assert_eq!(plural("king"), "kings");
        assert_eq!(plural("box"), "boxes");
        assert_eq!(plural("match"), "matches");
        assert_eq!(plural("ally"), "allies");
        assert_eq!(plural("day"), "days");
        assert_eq!(plural("muscovite"), "muscovites");
        assert_eq!(plural(""), "");
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(0, "move"), "0 moves");
        assert_eq!(count(1, "move"), "1 move");
        assert_eq!(count(2, "route"), "2 routes");
        assert_eq!(count_with(1, "man", "men"), "1 man");
        assert_eq!(count_with(5, "man", "men"), "5 men");
    }

    #[test]
    fn lists_read_as_english() {
        let none: [&str; 0] = [];
        assert_eq!(join_and(&none), "");
        assert_eq!(join_and(&["a1"]), "a1");
        assert_eq!(join_and(&["a1", "b2"]), "a1 and b2");
        assert_eq!(join_or(&["x", "y", "z"]), "x, y or z");
    }

    #[test]
    fn articles_follow_the_first_letter() {
        assert_eq!(with_article("escape"), "an escape");
        assert_eq!(with_article("corner"), "a corner");
        assert_eq!(article("Attacker"), "an");
        assert_eq!(capitalise("the king"), "The king");
    }
}
