//! The limits of the language and the engine, each checked where a file first passes it and
//! reported as a diagnostic on the clause that passes it, so that `tafl lint` (not a later
//! command) says what is too large.
//!
//! The text limits are checked before parsing and stop the other checks: they keep the work
//! of a lint linear in the file's size, and keep every column a renderer must draw small.
//! The count limits are checked on the built rules.

use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{AccessCondition, Rules};
use crate::ir::{RuleRef, SourceMap};
use crate::span::Span;

/// The largest variant file, in bytes (1 MiB): a 19x19 variant with every comment it could
/// want is a few kilobytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The longest line, in characters: a clause or a diagram row is well under 200.
pub const MAX_LINE_CHARS: usize = 1_000;

/// The most piece kinds (the engine keeps one bit set per kind).
pub const MAX_PIECE_KINDS: usize = crate::ir::MAX_KINDS;

/// The most named regions, built-in ones included.
pub const MAX_REGIONS: usize = 64;

/// The most access rules with the condition `once left` (the engine keeps one bit set per rule
/// in every position).
pub const MAX_ONCE_LEFT_RULES: usize = 4;

/// The largest count a clause takes (moves without capture, occurrences of a position, times
/// back and forth, routes): far beyond any game, and small enough that the engine's counts in
/// plies (twice the moves) cannot overflow. A larger number is an error with its span, never
/// clamped.
pub const MAX_COUNT: u32 = 1_000_000;

/// The most diagnostics reported for one file; the rest are counted in one last note.
pub const MAX_DIAGNOSTICS: usize = 100;

/// The text limits: file size and line length. A file that passes one is not parsed.
pub(super) fn text(text: &str) -> Vec<Diagnostic> {
    if text.len() > MAX_FILE_BYTES {
        return vec![Diagnostic::error(
            Code::Limit,
            format!(
                "the file is {} bytes long; variant files may have at most {MAX_FILE_BYTES} (1 MiB)",
                text.len()
            ),
        )
        // The first character: a label far into a huge line would be costly to draw.
        .label(first_char(text, 0), "the file starts here")
        .help("a variant file is a few kilobytes: check that this is the file you meant")];
    }
    let mut found = Vec::new();
    let mut start = 0;
    for (number, line) in text.split('\n').enumerate() {
        if line.chars().nth(MAX_LINE_CHARS).is_some() {
            found.push(
                Diagnostic::error(
                    Code::Limit,
                    format!(
                        "line {} is longer than {MAX_LINE_CHARS} characters",
                        number + 1
                    ),
                )
                // The line's start: a label far to the right would be drawn past any screen.
                .label(
                    first_char(text, start),
                    format!("this line has {} characters", line.chars().count()),
                )
                .help("break the clause or the comment over several lines"),
            );
        }
        start += line.len() + 1;
    }
    found
}

/// The count limits: piece kinds, regions, once-left rules. Each is reported on the first
/// clause past the limit.
pub(super) fn counts(rules: &Rules, source_map: &SourceMap) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut past = |count: usize, most: usize, what: &str, help: &str, rule: RuleRef| {
        if count <= most {
            return;
        }
        let mut diagnostic = Diagnostic::error(
            Code::Limit,
            format!("{count} {what}; the engine supports at most {most}"),
        )
        .help(help.to_string());
        if let Some(span) = source_map.span(rule) {
            diagnostic = diagnostic.label(span, format!("number {} of them", most + 1));
        }
        found.push(diagnostic);
    };
    past(
        rules.pieces.len(),
        MAX_PIECE_KINDS,
        "kinds of piece are declared",
        "merge kinds that differ only in name, or drop one",
        RuleRef::Piece(MAX_PIECE_KINDS),
    );
    past(
        rules.regions.len(),
        MAX_REGIONS,
        "regions are defined (with the built-in ones)",
        "merge regions that the rules use together",
        RuleRef::Region(MAX_REGIONS),
    );
    let once_left: Vec<usize> = (rules.access.iter().enumerate())
        .filter(|(_, rule)| rule.condition == AccessCondition::OnceLeft)
        .map(|(i, _)| i)
        .collect();
    if let Some(&fifth) = once_left.get(MAX_ONCE_LEFT_RULES) {
        past(
            once_left.len(),
            MAX_ONCE_LEFT_RULES,
            "access rules have the condition `once left`",
            "give several pieces one rule (`kings and soldiers may not ... once left`)",
            RuleRef::Access(fifth),
        );
    }
    found
}

/// At most [`MAX_DIAGNOSTICS`] of `items` (in file order), and a note counting the rest.
pub(super) fn cap(mut items: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if items.len() <= MAX_DIAGNOSTICS {
        return items;
    }
    items.sort_by_key(|item| item.primary_span().map_or(0, |span| span.start));
    let hidden = items.len() - MAX_DIAGNOSTICS;
    let last = items[MAX_DIAGNOSTICS - 1].primary_span();
    items.truncate(MAX_DIAGNOSTICS);
    let mut note = Diagnostic::note(Code::Limit, format!("{hidden} more problems are not shown"))
        .help(format!(
        "only the first {MAX_DIAGNOSTICS} problems of a file are reported: fix these and lint again"
    ));
    if let Some(span) = last {
        note = note.label(span, "the last problem shown");
    }
    items.push(note);
    items
}

/// The span of the character at byte `offset` (or an empty span at the end of the text).
fn first_char(text: &str, offset: usize) -> Span {
    let len = text[offset..].chars().next().map_or(0, char::len_utf8);
    Span::new(offset, offset + len)
}

/// The text of the variant file (or IR, or diagram) at `path`, read no further than
/// [`MAX_FILE_BYTES`]: `/dev/zero` or a disk image given by mistake is refused after 1 MiB,
/// not read whole first.
///
/// # Errors
/// The file cannot be read, is larger than the limit, or is not UTF-8.
pub fn read_variant_file(path: impl AsRef<std::path::Path>) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(std::io::Error::other(
            "it is larger than 1 MiB, the most a variant file may be",
        ));
    }
    String::from_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}
