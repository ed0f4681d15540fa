//! Reading a protocol's lines from a byte stream, whatever the bytes are.
//!
//! Both directions read lines from another program: `tafl engine` reads its host's commands,
//! [`super::client`] an engine's answers. Neither can trust the bytes: a host may send a byte
//! that is not UTF-8 (a Latin-1 name in a comment), and an engine may write without end. So a
//! line that is not UTF-8 is a bad line, reported and skipped, not the end of the input; and a
//! line is read only up to [`MAX_LINE`] bytes, the rest of it thrown away unread into memory.
//!
//! ```
//! use tafl::protocol::line::{LineError, LineReader};
//! let mut lines = LineReader::new(&b"isready\n\xe9t\xe9\r\nisready"[..]);
//! assert_eq!(lines.next().unwrap().unwrap(), "isready");
//! assert!(matches!(lines.next(), Some(Err(LineError::NotUtf8))));
//! assert_eq!(lines.next().unwrap().unwrap(), "isready");
//! assert!(lines.next().is_none());
//! ```

use std::io::{BufRead, ErrorKind};

/// The longest line read, in bytes: 1 MiB. The longest line a protocol needs is a UCI
/// `position` with a whole game's moves (a few bytes a ply) or an OpenTafl rules string (a
/// few hundred bytes); a megabyte leaves room for any of them and bounds what a program that
/// writes without end can make us hold.
pub const MAX_LINE: usize = 1 << 20;

/// Why a line could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The line's bytes are not UTF-8 text. The next line is read as usual.
    #[error("the line is not UTF-8 text")]
    NotUtf8,
    /// The line went on past the limit. The rest of it, up to its end, is skipped.
    #[error("the line is longer than {0} bytes")]
    TooLong(usize),
    /// The stream itself failed; nothing more is read.
    #[error("cannot read: {0}")]
    Read(std::io::Error),
}

/// The lines of a byte stream, each without its `\n` or `\r\n`, as an iterator of
/// `Result<String, LineError>`. A bad line is an `Err` and the iterator goes on; a read error is
/// an `Err` and the last item. A last line without a line end is a line.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    line: Vec<u8>,
    /// Inside a line already reported too long: bytes are thrown away up to its end.
    skipping: bool,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of at most [`MAX_LINE`] bytes.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_limit(inner, MAX_LINE)
    }

    /// Lines of at most `limit` bytes.
    pub fn with_limit(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            limit,
            line: Vec::new(),
            skipping: false,
            done: false,
        }
    }

    /// The line read so far as text, without its `\r`.
    fn take_line(&mut self) -> Result<String, LineError> {
        let mut bytes = std::mem::take(&mut self.line);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        String::from_utf8(bytes).map_err(|_| LineError::NotUtf8)
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = Result<String, LineError>;

    fn next(&mut self) -> Option<Result<String, LineError>> {
        if self.done {
            return None;
        }
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => {
                    self.done = true;
                    return Some(Err(LineError::Read(error)));
                }
            };
            if available.is_empty() {
                self.done = true;
                // The end of the input ends the last line, unless it was empty or skipped.
                let last = !self.skipping && !self.line.is_empty();
                return last.then(|| self.take_line());
            }
            let end = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..end.unwrap_or(available.len())];
            let room = (self.limit + 1).saturating_sub(self.line.len());
            if !self.skipping {
                // One byte past the limit is enough to know the line is too long: the rest is
                // never copied.
                self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            let used = end.map_or(available.len(), |i| i + 1);
            self.inner.consume(used);
            if end.is_some() && self.skipping {
                self.skipping = false;
                continue;
            }
            if !self.skipping && self.line.len() > self.limit {
                self.line.clear();
                // Report it now, not at its end, which may never come.
                self.skipping = end.is_none();
                return Some(Err(LineError::TooLong(self.limit)));
            }
            if end.is_some() {
                return Some(self.take_line());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], limit: usize) -> Vec<Result<String, String>> {
        LineReader::with_limit(bytes, limit)
            .map(|line| line.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn lines_end_at_newlines_and_at_the_end_of_input() {
        assert_eq!(
            read(b"a\r\nb\n\nc", 10),
            vec![
                Ok("a".into()),
                Ok("b".into()),
                Ok(String::new()),
                Ok("c".into())
            ]
        );
        assert!(read(b"", 10).is_empty());
    }

    #[test]
    fn a_bad_line_is_reported_and_the_next_is_read() {
        assert_eq!(
            read(b"\xff\nok\n", 10),
            vec![Err("the line is not UTF-8 text".into()), Ok("ok".into())]
        );
    }

    #[test]
    fn a_long_line_is_reported_once_and_skipped_to_its_end() {
        let long = [b'x'; 25];
        let mut input = long.to_vec();
        input.extend_from_slice(b"\nok\n0123456789\n");
        assert_eq!(
            read(&input, 10),
            vec![
                Err("the line is longer than 10 bytes".into()),
                Ok("ok".into()),
                Ok("0123456789".into())
            ]
        );
        // A line that never ends is reported, and nothing more comes from it.
        assert_eq!(
            read(&long, 10),
            vec![Err("the line is longer than 10 bytes".into())]
        );
    }

    #[test]
    fn a_long_line_in_small_pieces_is_still_cut() {
        // A reader that hands out one byte at a time: the limit holds across reads.
        let input: Vec<u8> = [b'y'; 30].iter().chain(b"\nz\n").copied().collect();
        let slow = std::io::BufReader::with_capacity(1, &input[..]);
        let lines: Vec<_> = LineReader::with_limit(slow, 8)
            .map(|l| l.map_err(|e| e.to_string()))
            .collect();
        assert_eq!(
            lines,
            vec![
                Err("the line is longer than 8 bytes".into()),
                Ok("z".into())
            ]
        );
    }
}
