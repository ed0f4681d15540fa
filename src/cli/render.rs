//! Diagnostics rendered for people: miette's graphical report, with or without colour.

use std::io::IsTerminal;

use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::diagnostic::Diagnostics;
use crate::record::{lines, RecordError};

/// How to render: the width to wrap at and whether to use colour.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Columns to wrap at.
    pub width: usize,
    /// ANSI colours.
    pub colour: bool,
}

/// The style for standard error: colour only on a terminal and without `NO_COLOR`.
pub(super) fn terminal_style() -> Style {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    Style { width: 100, colour }
}

/// miette's graphical report handler, drawing in `style`.
fn handler(style: Style) -> GraphicalReportHandler {
    let theme = if style.colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
}

/// Prints a record's `error` on standard error in the terminal's style, with the lines around
/// it from `text`, the file called `name`. Only those lines go to the renderer, at most
/// [`WINDOW`] bytes either side of the error: the file may be hundreds of megabytes (copying
/// it, and finding the error's line in it, for each of a hundred errors would take minutes),
/// and a line far longer than a screen (miette's renderer panics on a label past column
/// 65,535).
pub(super) fn eprint_record_error(error: &RecordError, name: &str, text: &str) {
    eprintln!(
        "{}",
        render_record_error(error, name, text, terminal_style())
    );
}

/// A record's `error` rendered in `style`, as [`eprint_record_error`] prints it.
fn render_record_error(error: &RecordError, name: &str, text: &str, style: Style) -> String {
    let excerpt = Excerpt::around(error, name, text);
    let (low, high) = (excerpt.start, excerpt.end());
    let mut shown = error.clone();
    // A label that runs past the excerpt (a whole row of a corpus) is drawn to its end.
    shown.span.start = shown.span.start.max(low).min(high);
    shown.span.end = shown.span.end.max(shown.span.start).min(high);
    let report = miette::Report::new(shown).with_source_code(excerpt);
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = handler(style).render_report(&mut out, report.as_ref());
    out
}

/// How far either side of an error [`eprint_record_error`] shows, in bytes: a corpus row whole
/// (the longest is 2,203 bytes), and a label at most 16,384 columns in even when every byte
/// before it is a tab (drawn 4 wide).
const WINDOW: usize = 4096;

/// The lines of a record around an error, as the renderer reads them: the error's line with
/// the one before and the one after, cut to [`WINDOW`] bytes either side of the error. The
/// renderer is told the excerpt's first line and column, so that it numbers the lines as the
/// file does.
struct Excerpt {
    name: String,
    /// The text, a lone `\r` made `\n` (miette's renderer breaks lines at `\n` and `\r\n`
    /// only, but counts a lone `\r` as a break when it locates a label).
    data: String,
    /// Where `data` starts in the file.
    start: usize,
    /// The line and column of `data`'s start, 0-based.
    line: usize,
    column: usize,
}

impl Excerpt {
    fn around(error: &RecordError, name: &str, text: &str) -> Excerpt {
        let floor = |mut at: usize| {
            at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let first = lines::content_start(text);
        let at = floor(error.span.start).max(first);
        let is_break = |c: char| c == '\n' || c == '\r';
        // Back: the start of the error's line, then of the line before, within the window.
        let low = floor(at.saturating_sub(WINDOW)).max(first);
        let line_start = |end: usize| text[low..end].rfind(is_break).map(|i| low + i + 1);
        let start = match line_start(at) {
            Some(own) => {
                // The break that ends the line before: `\r\n` is one.
                let mut before = own - 1;
                if before > low
                    && text.as_bytes()[before - 1] == b'\r'
                    && text.as_bytes()[before] == b'\n'
                {
                    before -= 1;
                }
                line_start(before).unwrap_or(if low == first { first } else { own })
            }
            None => low,
        };
        // Forward: the end of the error's line, then of the line after, within the window.
        let high = floor(at.saturating_add(WINDOW));
        let line_end = |from: usize, to: usize| text[from..to].find(is_break).map(|i| from + i);
        let end = match line_end(at, high) {
            Some(own) => {
                let next = if text[own..].starts_with("\r\n") {
                    own + 2
                } else {
                    own + 1
                };
                // `\r\n` may straddle the window's end: keep it whole.
                let high = high.max(next);
                line_end(next, high).unwrap_or(high)
            }
            None => high,
        };
        // The line and column of `start`, counted back from the error's.
        let mut walk = lines::Locator::new(&text[start..at]);
        let (down, across) = walk.locate(at - start);
        let line = error.line.saturating_sub(down);
        let column = if down == 1 {
            error.column.saturating_sub(across)
        } else {
            0
        };
        let mut data = text[start..end].to_string();
        // Same length: every offset stays.
        if data.contains('\r') {
            let bytes: Vec<u8> = data
                .bytes()
                .enumerate()
                .map(|(i, b)| match b {
                    b'\r' if text.as_bytes().get(start + i + 1) != Some(&b'\n') => b'\n',
                    b => b,
                })
                .collect();
            // Only ASCII bytes changed, for ASCII bytes.
            data = String::from_utf8(bytes).unwrap_or(data);
        }
        // Shown on a terminal: a control character in the record is drawn, not obeyed (same
        // length, so every offset stays).
        let data = crate::printable::same_length(&data).into_owned();
        Excerpt {
            name: crate::printable::quoted(name).into_owned(),
            data,
            start,
            line,
            column,
        }
    }

    fn end(&self) -> usize {
        self.start + self.data.len()
    }

    /// The 0-based line and column of `offset` of the excerpt.
    fn locate(&self, offset: usize) -> (usize, usize) {
        let (down, across) = lines::Locator::new(&self.data).locate(offset);
        if down == 1 {
            (self.line, self.column + across - 1)
        } else {
            (self.line + down - 1, across - 1)
        }
    }
}

impl miette::SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let from = span
            .offset()
            .checked_sub(self.start)
            .filter(|&from| from + span.len() <= self.data.len())
            .ok_or(miette::MietteError::OutOfBounds)?;
        let breaks = |data: &[u8]| data.iter().filter(|&&b| b == b'\n').count();
        if context_lines_before == 0 && context_lines_after == 0 {
            // The span alone: where the header says the error is.
            let (line, column) = self.locate(from);
            let data = &self.data.as_bytes()[from..from + span.len()];
            return Ok(Box::new(miette::MietteSpanContents::new_named(
                self.name.clone(),
                data,
                *span,
                line,
                column,
                breaks(data) + 1,
            )));
        }
        // With context: the excerpt holds the lines around the error already.
        let data = self.data.as_bytes();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            data,
            (self.start, data.len()).into(),
            self.line,
            self.column,
            breaks(data) + 1,
        )))
    }
}

/// Every diagnostic of `diagnostics` rendered with its source lines, in file order.
pub fn render_diagnostics(diagnostics: &Diagnostics, style: Style) -> String {
    let handler = handler(style);
    let mut out = String::new();
    for report in diagnostics.reports() {
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RecordError, RecordErrorKind};
    use crate::span::Span;

    /// An error at every character of texts with every kind of line end, a byte-order mark,
    /// wide characters, tabs and lines longer than the window renders without a panic, its
    /// header naming the line and column the error says.
    #[test]
    fn an_error_anywhere_renders_with_its_own_line_and_column() {
        let style = Style {
            width: 80,
            colour: false,
        };
        let texts = [
            "d6-c6 e4-e1,0,0,Ongoing\nd6-c6 zz,0,0,White\n".to_string(),
            "\u{feff}a\r\rb c\r\nd é漢\te\r".to_string(),
            format!("x\n{}zz\n{}\ny", "\t".repeat(9_000), "é".repeat(5_000)),
            format!("{} zz", " ".repeat(70_000)),
        ];
        for text in &texts {
            let step = if text.len() > 1_000 { 89 } else { 1 };
            for start in (0..=text.len()).step_by(step) {
                if !text.is_char_boundary(start) {
                    continue;
                }
                let end = text[start..]
                    .chars()
                    .next()
                    .map_or(start, |c| start + c.len_utf8());
                let error = RecordError::at(
                    RecordErrorKind::NotAMove {
                        word: "zz".to_string(),
                    },
                    Span::new(start, end),
                    text,
                );
                let out = render_record_error(&error, "t.txt", text, style);
                let header = format!("[t.txt:{}:{}]", error.line, error.column);
                assert!(out.contains(&header), "{start}: {header} in {out}");
            }
        }
    }
}
