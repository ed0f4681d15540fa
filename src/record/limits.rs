//! The limits of a record file, each checked where the file is first read, so that no later
//! stage (a reader, a replay, the renderer of a diagnostic) meets more than it was built for.
//! docs/fuzzing.md lists them with their messages.

use super::lines::{lines, Line};

/// The longest line, in bytes (64 KiB). The longest game of the Copenhagen corpus is a row of
/// 2,203 bytes; a game of 3,000 plies on a 19x19 board, captures written, still fits.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The largest record file, in bytes (256 MiB), unless the user asks for another limit
/// (`tafl games --max-file-size`): about 700,000 games of the Copenhagen corpus. The library
/// reads no files; the commands that do apply it.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The most unreadable games a command shows in full; a last line counts the rest.
pub const MAX_DIAGNOSTICS: usize = 100;

/// The most characters of a word quoted in a message: a word may be a whole line.
pub const MAX_QUOTED_CHARS: usize = 40;

/// The first line of `text` longer than [`MAX_LINE_BYTES`].
pub(crate) fn long_line(text: &str) -> Option<Line<'_>> {
    lines(text).find(|line| line.text.len() > MAX_LINE_BYTES)
}

/// `word` as a message quotes it: whole, or its first [`MAX_QUOTED_CHARS`] characters and `…`,
/// a control character in it written as an escape ([`crate::printable::quoted`]), so that a
/// record cannot act on the terminal that shows the message.
pub(crate) fn quoted(word: &str) -> String {
    let cut = match word.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &word[..cut]),
        None => word.to_string(),
    };
    crate::printable::quoted(&cut).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_found_and_long_words_shortened() {
        let text = format!("short\n{}\nshort", "x".repeat(MAX_LINE_BYTES + 1));
        assert_eq!(long_line(&text).map(|l| l.start), Some(6));
        assert_eq!(long_line(&"x".repeat(MAX_LINE_BYTES)), None);
        assert_eq!(quoted("d1-d3"), "d1-d3");
        let long = "é".repeat(100);
        assert_eq!(quoted(&long).chars().count(), MAX_QUOTED_CHARS + 1);
    }
}
