//! Bad input never panics: the front end survives every mangling of the bundled files, and
//! always explains a rejection with at least one error.

use proptest::prelude::*;
use tafl::check::check_text;

fn bundled_texts() -> impl Iterator<Item = &'static str> {
    tafl::BUNDLED.iter().map(|(_, text)| *text)
}

/// Checks `text`; a text that does not load must say why.
fn check(text: &str) {
    let checked = check_text("mangled.tafl", text);
    if checked.rules.is_none() {
        assert!(
            checked.diagnostics.has_errors(),
            "rejected without an error:\n{text}"
        );
    }
    // Every label must lie inside the text, or rendering would fail.
    for item in checked.diagnostics.items() {
        for label in &item.labels {
            assert!(
                label.span.end <= text.len(),
                "label {label:?} beyond the text:\n{text}"
            );
            assert!(
                text.is_char_boundary(label.span.start) && text.is_char_boundary(label.span.end)
            );
        }
    }
}

#[test]
fn deleting_or_doubling_any_line_never_panics() {
    for text in bundled_texts() {
        let lines: Vec<&str> = text.lines().collect();
        for index in 0..lines.len() {
            let mut without = lines.clone();
            without.remove(index);
            check(&without.join("\n"));
            let mut doubled = lines.clone();
            doubled.insert(index, lines[index]);
            check(&doubled.join("\n"));
        }
    }
}

#[test]
fn truncating_anywhere_never_panics() {
    for text in bundled_texts() {
        // Every third byte keeps the run short while hitting every kind of clause mid-way.
        for end in (0..text.len())
            .step_by(3)
            .filter(|end| text.is_char_boundary(*end))
        {
            check(&text[..end]);
        }
    }
}

/// Found by the proptest below: a two-byte character just before a reserved word used as a name
/// made the error message slice inside the character.
#[test]
fn multibyte_characters_next_to_a_misused_name_never_panic() {
    for text in [
        "board 9 ×x 9\n",
        "name \"x\"\nboard 9 ×the 9\n",
        "region ×only = e5\n",
    ] {
        check(text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn inserting_text_anywhere_never_panics(
        variant in 0..tafl::BUNDLED.len(),
        at in any::<prop::sample::Index>(),
        inserted in "[a-z0-9 .,:=\"#\\n\\t×é-]{1,12}",
    ) {
        let text = tafl::BUNDLED[variant].1;
        let boundaries: Vec<usize> = (0..=text.len()).filter(|index| text.is_char_boundary(*index)).collect();
        let at = boundaries[at.index(boundaries.len())];
        let mangled = format!("{}{inserted}{}", &text[..at], &text[at..]);
        check(&mangled);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
    }
}
