//! Where things are in a record's text: its lines, and the line and column of a byte offset.
//!
//! Records come from every kind of editor, so a line ends at `\n`, at `\r\n` or at a lone `\r`
//! (old Mac files), and a UTF-8 byte-order mark at the start of a file (some Windows editors
//! write one) is not part of its first line. Every reader and every message counts lines this
//! way, as miette's renderer does, so the line and column in a message are those an editor
//! shows and those under the drawn source.

/// The UTF-8 byte-order mark.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

/// Where the text proper starts: after a byte-order mark, if there is one.
pub fn content_start(text: &str) -> usize {
    if text.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len_utf8()
    } else {
        0
    }
}

/// One line of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The offset of its first byte in the text.
    pub start: usize,
    /// Its text, without the line break.
    pub text: &'a str,
    /// The length of its line break in bytes: 0 (the last line, unended), 1 or 2 (`\r\n`).
    pub break_len: usize,
}

impl Line<'_> {
    /// The offset just past its text (where its line break is).
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// The offset just past its line break: where the next line starts.
    pub fn next_start(&self) -> usize {
        self.end() + self.break_len
    }
}

/// The lines of `text`, from after a byte-order mark. As with [`str::lines`], a text that ends
/// with a line break has no empty last line.
pub fn lines(text: &str) -> Lines<'_> {
    Lines {
        text,
        at: content_start(text),
    }
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a str,
    /// Where the next line starts.
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let start = self.at;
        let rest = self
            .text
            .as_bytes()
            .get(start..)
            .filter(|r| !r.is_empty())?;
        let (len, break_len) = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            None => (rest.len(), 0),
            Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => (i, 2),
            Some(i) => (i, 1),
        };
        self.at = start + len + break_len;
        // `len` stops before an ASCII byte or at the end: a character boundary.
        Some(Line {
            start,
            text: &self.text[start..start + len],
            break_len,
        })
    }
}

/// Turns byte offsets of a text into lines and columns (1-based; columns in characters).
///
/// Asked in increasing order, as the readers ask, it walks the text once in all, so that a
/// file of many games is located in time linear in its size; an earlier offset walks again
/// from the start of its line, or of the text.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    text: &'a str,
    /// The offset reached, and its line and column.
    at: usize,
    line: usize,
    column: usize,
    /// Where the line of `at` starts.
    line_start: usize,
    /// Bytes stepped over so far, all walks together.
    walked: usize,
}

impl<'a> Locator<'a> {
    /// A locator at the start of `text`.
    pub fn new(text: &'a str) -> Locator<'a> {
        let start = content_start(text);
        Locator {
            text,
            at: start,
            line: 1,
            column: 1,
            line_start: start,
            walked: 0,
        }
    }

    /// The line and column of byte `offset` (clamped to the text, and moved back to the start
    /// of the character it falls in).
    pub fn locate(&mut self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.at {
            if offset >= self.line_start {
                self.at = self.line_start;
                self.column = 1;
            } else {
                let walked = self.walked;
                *self = Locator::new(self.text);
                self.walked = walked;
            }
        }
        if offset <= self.at {
            // Only inside the byte-order mark: it is no column of the first line.
            return (self.line, self.column);
        }
        let bytes = self.text.as_bytes();
        for i in self.at..offset {
            match bytes[i] {
                // The `\n` of `\r\n`: the `\r` has ended the line already.
                b'\n' if i > 0 && bytes[i - 1] == b'\r' => self.line_start = i + 1,
                b'\n' | b'\r' => {
                    self.line += 1;
                    self.column = 1;
                    self.line_start = i + 1;
                }
                // A character's first byte (continuation bytes are 0b10xx_xxxx).
                b if b & 0xc0 != 0x80 => self.column += 1,
                _ => {}
            }
        }
        self.walked += offset - self.at;
        self.at = offset;
        (self.line, self.column)
    }

    /// The bytes stepped over so far: about the text's length when offsets were asked in
    /// order, the sign that locating stayed linear.
    pub fn walked(&self) -> usize {
        self.walked
    }
}

/// The line and column (1-based; the column in characters) of byte `offset` of `text`. One
/// call walks the text from its start: to locate many offsets, use one [`Locator`].
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    Locator::new(text).locate(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_ends_a_line() {
        let text = "a\nbb\r\nc\rd";
        let found: Vec<(usize, &str, usize)> = lines(text)
            .map(|l| (l.start, l.text, l.break_len))
            .collect();
        assert_eq!(found, [(0, "a", 1), (2, "bb", 2), (6, "c", 1), (8, "d", 0)]);
        assert_eq!(lines("a\n").count(), 1);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\n\n").map(|l| l.text).collect::<Vec<_>>(), ["", ""]);
    }

    #[test]
    fn lines_and_columns_count_characters_after_a_byte_order_mark() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é1\nx", 2), (1, 2));
        assert_eq!(line_column("", 10), (1, 1));
        assert_eq!(line_column("a\rb\r\nc", 5), (3, 1));
        assert_eq!(line_column("a\rb\r\nc", 2), (2, 1));
        let marked = "\u{feff}ab\ncd";
        assert_eq!(line_column(marked, 3), (1, 1));
        assert_eq!(line_column(marked, 4), (1, 2));
        assert_eq!(line_column(marked, 1), (1, 1));
        assert_eq!(lines(marked).next().map(|l| l.text), Some("ab"));
    }

    #[test]
    fn locating_in_order_walks_the_text_once() {
        let text = "d1-d3 e5-e2,0,0,White\n".repeat(2_000);
        let mut locator = Locator::new(&text);
        for (offset, _) in text.match_indices('e') {
            let found = locator.locate(offset);
            assert_eq!(found, line_column(&text, offset));
        }
        assert!(locator.walked() <= text.len());
        // Back within a line, and back to an earlier line, still right.
        assert_eq!(locator.locate(22 + 6), (2, 7));
        assert_eq!(locator.locate(1), (1, 2));
    }
}
