//! Text from outside (a file's name, a record's word, a variant file's line) made safe to print:
//! a control character written to a terminal is an instruction to it (ESC sequences set the
//! window's title, clear the screen, move the cursor), so what the user gave is shown, never
//! obeyed.

use std::borrow::Cow;

/// Whether `c` would act on a terminal rather than show: C0 controls other than tab, newline
/// and carriage return, DEL, and the C1 controls (U+0080 to U+009F). Every face shows such a
/// character as a Rust-style escape, `\u{1b}`: visible, unambiguous, and the form the
/// language's own diagnostics use.
pub fn acts(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || ('\u{80}'..='\u{9f}').contains(&c)
}

/// `text` for quoting in one line of a message: every control character, newlines included,
/// written as a Rust-style escape (`\u{1b}`, `\n`).
pub fn quoted(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || acts(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if acts(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` for showing as it is, lines and all: only the characters that would act on a terminal
/// are written as escapes (`\u{1b}`).
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` for showing as source lines under byte spans: each character that would act on a
/// terminal becomes as many `?` as it has bytes, so that every span still points at the same
/// place; tabs and line breaks stay.
pub fn same_length(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if acts(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        let title = "\u{1b}]0;pwned\u{7}";
        assert_eq!(quoted(title), "\\u{1b}]0;pwned\\u{7}");
        assert_eq!(quoted("a\nb\u{9b}c"), "a\\nb\\u{9b}c");
        assert!(matches!(quoted("e3-f3 king"), Cow::Borrowed(_)));
        assert_eq!(shown("line\n\u{1b}[2J"), "line\n\\u{1b}[2J");
        let source = "board 9 x 9 \u{1b}[2J\n\u{9b}x\tend";
        let shown = same_length(source);
        assert_eq!(shown.len(), source.len());
        assert_eq!(shown, "board 9 x 9 ?[2J\n??x\tend");
        assert!(!shown.chars().any(acts));
    }
}
