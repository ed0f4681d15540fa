//! The English of `tafl show` over every bundled variant: articles agree with the words they
//! stand before (`an Attacker`, never `a Attacker`), counts with their nouns (`1 square`,
//! `3 squares`), and a plural subject is not taken up by `it` (`the corners ... are hostile ...:
//! each of them can stand in`).

use tafl::Variant;

/// Words that start with a vowel letter but a consonant sound, or the reverse: none of them is
/// in the rule sheets today, listed so that one can be added without tripping the check.
const SOUNDS_UNLIKE_SPELT: &[&str] = &["one", "once", "unit", "union", "use", "usual", "hour"];

/// The nouns the rule sheets count.
const COUNTED: &[(&str, &str)] = &[
    ("square", "squares"),
    ("move", "moves"),
    ("time", "times"),
    ("enemy", "enemies"),
    ("piece", "pieces"),
    ("route", "routes"),
    ("side", "sides"),
    ("attacker", "attackers"),
    ("defender", "defenders"),
    ("king", "kings"),
];

/// The words of `text`, in order, with digits kept as words and hyphenated compounds whole
/// (`25-piece` is an adjective, not a count).
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|word| !word.is_empty())
        .collect()
}

/// Every slip of agreement in `text`, quoted.
fn slips(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words = words(text);
    for pair in words.windows(2) {
        let (first, next) = (pair[0], pair[1].to_lowercase());
        let vowel = next.starts_with(['a', 'e', 'i', 'o', 'u'])
            || next.starts_with(['8']) // an 8, an 11, an 18
            || next == "11"
            || next == "18";
        let unlike = SOUNDS_UNLIKE_SPELT.contains(&next.as_str());
        match first {
            "a" | "A" if vowel != unlike => found.push(format!("{first} {}", pair[1])),
            "an" | "An" if vowel == unlike => found.push(format!("{first} {}", pair[1])),
            _ => {}
        }
        if let Ok(number) = first.parse::<u32>() {
            for (singular, plural) in COUNTED {
                let wrong = if number == 1 { plural } else { singular };
                if next == *wrong {
                    found.push(format!("{first} {}", pair[1]));
                }
            }
        }
    }
    // A sentence about several squares is not taken up by `it`, nor one square by `each`.
    for sentence in text.split(['.', '\n']) {
        if let Some((subject, rest)) = sentence.split_once(':') {
            let rest = rest.trim_start();
            if subject.contains(" are hostile") && rest.starts_with("it can") {
                found.push(sentence.trim().to_string());
            }
            if subject.contains(" is hostile") && rest.starts_with("each of them") {
                found.push(sentence.trim().to_string());
            }
        }
    }
    found
}

#[test]
fn the_checker_finds_each_kind_of_slip() {
    for bad in [
        "A Attacker moves.",
        "an corner",
        "1 squares",
        "3 square",
        "The corners (a1, g1) are hostile to every piece: it can stand in.",
        "The throne (e5) is hostile to every piece: each of them can stand in.",
    ] {
        assert_eq!(slips(bad).len(), 1, "{bad}: {:?}", slips(bad));
    }
    for good in [
        "An Attacker moves.",
        "a corner, an edge, an 8, a one",
        "1 square, 3 squares, 2 enemies",
        "The corners (a1, g1) are hostile to every piece: each of them can stand in.",
    ] {
        assert_eq!(slips(good), Vec::<String>::new(), "{good}");
    }
}

/// `tafl show`'s text for every bundled variant, wrapped lines joined, has no slip.
#[test]
fn show_agrees_articles_and_plurals_for_every_bundled_variant() {
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).expect("bundled").rules;
        let sheet = tafl::explain::explain(&rules);
        // Join the lines a bullet was wrapped over, so that a sentence is read whole.
        let joined = sheet.replace("\n    ", " ");
        assert_eq!(slips(&joined), Vec::<String>::new(), "{name}:\n{sheet}");
    }
}

/// `tafl diff`'s text, for every ordered pair of bundled variants, has no slip either: it
/// words pieces, counts and starts of its own.
#[test]
fn diff_agrees_articles_and_plurals_for_every_pair() {
    let names: Vec<&str> = tafl::bundled_names().collect();
    let rules: Vec<_> = names
        .iter()
        .map(|name| Variant::bundled(name).expect("bundled").rules)
        .collect();
    for (a, mine) in names.iter().zip(&rules) {
        for (b, theirs) in names.iter().zip(&rules) {
            let report = tafl::diff::diff(a, mine, b, theirs);
            let joined = report.replace("\n    ", " ");
            assert_eq!(slips(&joined), Vec::<String>::new(), "{a} {b}:\n{report}");
        }
    }
}
