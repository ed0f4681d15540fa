//! The terminal the REPL talks to: how wide it is, fitting text to that width, and keeping
//! the keyboard quiet while the computer thinks.

use std::io::IsTerminal;

/// The width used when standard output is not a terminal and `COLUMNS` is not set.
const DEFAULT_WIDTH: usize = 80;

/// Narrower than this, text is still wrapped as if the terminal were this wide: a word per line
/// helps nobody.
const NARROWEST: usize = 30;

/// The width to fit output to: the terminal's when standard output is one, else `COLUMNS`
/// (so a script or a test can fix it), else 80. Read each time, so a resized terminal counts.
pub fn width() -> usize {
    let from_terminal = std::io::stdout()
        .is_terminal()
        .then(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
        .flatten();
    let from_env = || {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&w| w > 0)
    };
    from_terminal
        .or_else(from_env)
        .unwrap_or(DEFAULT_WIDTH)
        .max(NARROWEST)
}

/// `text` with every line longer than `width` word-wrapped; a wrapped line's continuation is
/// indented like the line itself. Lines that fit are left exactly as they are (the board, the
/// help table), so wrapping twice changes nothing.
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if textwrap::core::display_width(body) <= width {
            out.push_str(line);
            continue;
        }
        let indent = &body[..body.len() - body.trim_start().len()];
        out.push_str(&wrap_indented(body.trim_start(), width, indent, indent));
        out.push_str(newline);
    }
    out
}

/// `text` wrapped to `width`, its first line starting with `first` and the others with `rest`.
pub fn wrap_indented(text: &str, width: usize, first: &str, rest: &str) -> String {
    let options = textwrap::Options::new(width)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(text, options).join("\n")
}

/// `text` cut to at most `width` columns, for a line that must stay on one row.
pub fn truncate(text: &str, width: usize) -> String {
    if textwrap::core::display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = textwrap::core::display_width(c.encode_utf8(&mut [0; 4]));
        // One column is kept for the ellipsis.
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// What was typed while the keyboard was quiet and not yet run: whole lines, in order, and the
/// start of a line not yet ended. The prompt runs the lines and offers the start for editing,
/// so nothing typed ahead is lost.
static TYPED_AHEAD: std::sync::Mutex<TypedAhead> = std::sync::Mutex::new(TypedAhead {
    lines: std::collections::VecDeque::new(),
    partial: String::new(),
});

/// Lines typed ahead of the prompt, and the unfinished one.
struct TypedAhead {
    lines: std::collections::VecDeque<String>,
    partial: String,
}

/// The next line typed ahead, if a whole one is waiting.
pub fn next_typed_line() -> Option<String> {
    TYPED_AHEAD.lock().ok()?.lines.pop_front()
}

/// The start of a line typed ahead without its Enter, taken (empty when there is none).
pub fn take_typed_partial() -> String {
    TYPED_AHEAD
        .lock()
        .map(|mut typed| std::mem::take(&mut typed.partial))
        .unwrap_or_default()
}

/// While it lives, keys typed at the terminal are neither echoed nor left for the prompt: the
/// computer's live line stays clean, and [`Keyboard::lines`] hands over what was typed. Ctrl-C
/// still interrupts (the terminal keeps sending the signal). What was typed and not taken is
/// queued for the prompt when it is dropped ([`next_typed_line`]). Does nothing when standard
/// input is not a terminal.
pub struct Keyboard {
    #[cfg(unix)]
    saved: Option<nix::sys::termios::Termios>,
    typed: String,
}

impl Keyboard {
    /// Turns echo and line editing off until dropped.
    pub fn quiet() -> Keyboard {
        #[cfg(unix)]
        {
            use nix::sys::termios::{
                tcgetattr, tcsetattr, LocalFlags, SetArg, SpecialCharacterIndices,
            };
            let stdin = std::io::stdin();
            let saved = if stdin.is_terminal() {
                tcgetattr(&stdin).ok()
            } else {
                None
            };
            if let Some(saved) = &saved {
                let mut quiet = saved.clone();
                quiet
                    .local_flags
                    .remove(LocalFlags::ECHO | LocalFlags::ICANON);
                // Reads return at once with what is there, possibly nothing.
                quiet.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
                quiet.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
                // A terminal that refuses keeps echoing: untidy, not wrong.
                let _ = tcsetattr(&stdin, SetArg::TCSANOW, &quiet);
            }
            Keyboard {
                saved,
                typed: String::new(),
            }
        }
        #[cfg(not(unix))]
        Keyboard {
            typed: String::new(),
        }
    }

    /// The whole lines typed since the last call (Enter ends a line), trimmed.
    pub fn lines(&mut self) -> Vec<String> {
        #[cfg(unix)]
        if self.saved.is_some() {
            let mut buf = [0u8; 256];
            while let Ok(n @ 1..) = nix::unistd::read(std::io::stdin(), &mut buf) {
                self.typed.push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        }
        split_lines(&mut self.typed)
    }
}

/// The whole lines at the start of `typed` (Enter ends one), trimmed and without the empty ones,
/// taken out of it; what follows the last Enter stays.
fn split_lines(typed: &mut String) -> Vec<String> {
    let mut lines = Vec::new();
    while let Some(end) = typed.find(['\n', '\r']) {
        let line: String = typed.drain(..=end).collect();
        let line = line.trim();
        if !line.is_empty() {
            lines.push(line.to_string());
        }
    }
    lines
}

impl Drop for Keyboard {
    fn drop(&mut self) {
        // Typed ahead while the computer thought: run at the prompt, in order, never dropped.
        let lines = self.lines();
        if let Ok(mut typed) = TYPED_AHEAD.lock() {
            typed.lines.extend(lines);
            typed.partial.push_str(self.typed.trim_start());
        }
        #[cfg(unix)]
        if let Some(saved) = &self.saved {
            use nix::sys::termios::{tcsetattr, SetArg};
            let _ = tcsetattr(std::io::stdin(), SetArg::TCSANOW, saved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_wraps_long_lines_at_words_and_keeps_their_indent() {
        let text = "short\n  one two three four five six seven\n";
        let fitted = fit(text, 16);
        assert_eq!(fitted, "short\n  one two three\n  four five six\n  seven\n");
        assert_eq!(fit(&fitted, 16), fitted, "wrapping twice changes nothing");
    }

    #[test]
    fn typed_lines_are_split_in_order_and_the_unfinished_one_kept() {
        let mut typed = "a6-a7\r\ne3-f3\n\n  board \nf3".to_string();
        assert_eq!(split_lines(&mut typed), ["a6-a7", "e3-f3", "board"]);
        assert_eq!(typed, "f3");
    }

    #[test]
    fn fit_never_breaks_a_word() {
        let fitted = fit("a throne-and-corner-word here", 10);
        assert!(fitted.lines().any(|l| l == "a"), "{fitted}");
        assert!(fitted.contains("throne-and-corner-word"), "{fitted}");
    }

    #[test]
    fn truncate_keeps_within_the_width() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdefgh", 6), "abcde…");
        assert_eq!(textwrap::core::display_width(&truncate("● ● ● ● ●", 4)), 4);
    }
}
