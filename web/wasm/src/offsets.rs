//! Byte offsets (the library's spans) and UTF-16 offsets (JavaScript's string indices and
//! CodeMirror's positions), both ways, with 1-based lines and columns.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A text's offsets: byte offset to UTF-16 offset, line and column, and back.
#[wasm_bindgen]
pub struct Offsets {
    text: String,
}

/// A span of the text in every unit a caller may need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// First UTF-16 code unit (JavaScript's string index).
    pub from: usize,
    /// One past the last UTF-16 code unit.
    pub to: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, in characters.
    pub column: usize,
    /// 1-based line of `end`.
    pub end_line: usize,
    /// 1-based column of `end`, in characters.
    pub end_column: usize,
}

impl Offsets {
    /// The offsets of `text`.
    pub fn of(text: &str) -> Offsets {
        Offsets {
            text: text.to_string(),
        }
    }

    /// The UTF-16 offset of byte `byte` (clamped to the text, and back to a character's start).
    pub fn utf16(&self, byte: usize) -> usize {
        let byte = self.floor(byte);
        self.text[..byte].encode_utf16().count()
    }

    /// The byte offset of UTF-16 offset `unit` (clamped to the text; an offset inside a
    /// surrogate pair means the character's start).
    pub fn byte(&self, unit: usize) -> usize {
        let mut units = 0;
        for (byte, c) in self.text.char_indices() {
            if units + c.len_utf16() > unit {
                return byte;
            }
            units += c.len_utf16();
        }
        self.text.len()
    }

    /// The 1-based line and character column of byte `byte`.
    pub fn line_column(&self, byte: usize) -> (usize, usize) {
        let byte = self.floor(byte);
        let before = &self.text[..byte];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// The span `start..end` (bytes) in every unit.
    pub fn range(&self, start: usize, end: usize) -> Range {
        let (line, column) = self.line_column(start);
        let (end_line, end_column) = self.line_column(end);
        Range {
            start,
            end,
            from: self.utf16(start),
            to: self.utf16(end),
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// `byte` clamped to the text and moved back to the start of its character.
    fn floor(&self, byte: usize) -> usize {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }
}

#[wasm_bindgen]
impl Offsets {
    /// The offsets of `text`, for JavaScript.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Offsets {
        Offsets::of(text)
    }

    /// The UTF-16 offset of a byte offset.
    #[wasm_bindgen(js_name = toUtf16)]
    pub fn to_utf16(&self, byte: usize) -> usize {
        self.utf16(byte)
    }

    /// The byte offset of a UTF-16 offset.
    #[wasm_bindgen(js_name = toByte)]
    pub fn to_byte(&self, unit: usize) -> usize {
        self.byte(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test;

    // Under wasm-bindgen-test-runner on wasm32, as a plain test on the machine's own target.
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn offsets_count_utf16_units_and_characters() {
        // `é` is 2 bytes and 1 unit; `𝔞` is 4 bytes and 2 units.
        let offsets = Offsets::of("é𝔞x\nab");
        assert_eq!(offsets.utf16(2), 1);
        assert_eq!(offsets.utf16(6), 3);
        assert_eq!(offsets.byte(3), 6);
        assert_eq!(
            offsets.byte(2),
            2,
            "inside a surrogate pair: the character's start"
        );
        assert_eq!(offsets.line_column(6), (1, 3));
        assert_eq!(offsets.line_column(9), (2, 2));
        assert_eq!(offsets.utf16(100), 7, "past the end: the end");
        assert_eq!(offsets.utf16(1), 0, "inside a character: its start");
    }
}
