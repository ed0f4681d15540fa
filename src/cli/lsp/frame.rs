//! The base protocol's frames (`Content-Length: N`, a blank line, N bytes of JSON) read from
//! input that may hold anything.
//!
//! lsp-server's reader ends the connection at the first frame it cannot read, and allocates
//! whatever length a header declares before it reads a byte of the body (a length of
//! 18446744073709551615 panicked, 2,000,000,000 aborted). This reader refuses a message over
//! [`MAX_MESSAGE`] and skips its body unread, reads a body only as its bytes arrive, and turns
//! anything else it cannot read into a [`FrameError`] that says what was skipped, with the id
//! of the request it was when that can still be read, so that the server can answer it and go
//! on.

use std::io::{self, BufRead, Read};

use lsp_server::{ErrorCode, Message};
use serde_json::Value;

/// The largest message body read, in bytes; a larger one is skipped. A variant file is at most
/// 1 MiB, so no message the server needs comes near it.
pub(crate) const MAX_MESSAGE: u64 = 64 * 1024 * 1024;

/// The longest header line kept whole, in bytes; of a longer line only the end is looked at
/// (where the next frame's `Content-Length` would be, after a body shorter than its length).
const MAX_HEADER_LINE: usize = 8 * 1024;

/// How much of an over-long header line is kept.
const KEPT_TAIL: usize = 256;

/// The header that frames a message, compared without regard to case as HTTP's are.
const CONTENT_LENGTH: &[u8] = b"content-length:";

/// What the reader found next in its input.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A message.
    Message(Message),
    /// Bytes that are not a message, skipped.
    Refused(FrameError),
}

/// Why bytes of the input were skipped. The message is one line for the server's log.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FrameError {
    /// A header declared a body over [`MAX_MESSAGE`]; the body is skipped unread.
    #[error(
        "a message of {length} bytes is over the limit of {}; its body was skipped",
        size(*.limit)
    )]
    TooLarge {
        /// The declared length.
        length: u64,
        /// The limit it is over.
        limit: u64,
    },
    /// A header block had no `Content-Length`, so where its body ends is unknown.
    #[error("a message header without Content-Length was skipped")]
    NoLength,
    /// `Content-Length` was not a number of bytes.
    #[error("a message header with Content-Length `{value}`, not a number of bytes, was skipped")]
    BadLength {
        /// The value as written (lossily decoded).
        value: String,
    },
    /// Bytes between frames that are no header.
    #[error("{bytes} bytes that are not a message header were skipped")]
    Garbage {
        /// How many.
        bytes: u64,
    },
    /// The input ended inside a body.
    #[error("the input ended {got} bytes into a message of {length} bytes")]
    Truncated {
        /// The declared length.
        length: u64,
        /// The bytes that came.
        got: u64,
        /// The request's id, when it could be read.
        id: Option<Value>,
    },
    /// The body ran into the next frame's header: its `Content-Length` was too long for it.
    /// The next frame is read from that header on.
    #[error(
        "a message's Content-Length ({length}) runs past its end into the next message; the message was skipped"
    )]
    Overrun {
        /// The declared length.
        length: u64,
        /// The request's id, when it could be read.
        id: Option<Value>,
    },
    /// The body is not UTF-8, which JSON must be.
    #[error("a message that is not UTF-8 was skipped: {error}")]
    NotUtf8 {
        /// Where the first bad byte is.
        error: std::str::Utf8Error,
        /// The request's id, when it could be read.
        id: Option<Value>,
    },
    /// The body is not JSON.
    #[error("a message that is not JSON was skipped: {error}")]
    NotJson {
        /// What the JSON reader says.
        error: serde_json::Error,
        /// The request's id, when it could be read.
        id: Option<Value>,
    },
    /// The body is JSON but no request, notification or response.
    #[error(
        "a message that is no JSON-RPC request, notification or response was skipped: {reason}"
    )]
    NotMessage {
        /// What is wrong with it.
        reason: String,
        /// The request's id, when it has one.
        id: Option<Value>,
    },
}

impl FrameError {
    /// The id of the request the skipped bytes were, when it could be read: the client waits
    /// for an answer to it.
    pub(crate) fn id(&self) -> Option<&Value> {
        match self {
            FrameError::Truncated { id, .. }
            | FrameError::Overrun { id, .. }
            | FrameError::NotUtf8 { id, .. }
            | FrameError::NotJson { id, .. }
            | FrameError::NotMessage { id, .. } => id.as_ref(),
            FrameError::TooLarge { .. }
            | FrameError::NoLength
            | FrameError::BadLength { .. }
            | FrameError::Garbage { .. } => None,
        }
    }

    /// The JSON-RPC error code that answers it: JSON that is no request is an invalid request,
    /// anything that could not be read as JSON a parse error.
    pub(crate) fn code(&self) -> i32 {
        match self {
            FrameError::NotMessage { .. } => ErrorCode::InvalidRequest as i32,
            FrameError::TooLarge { .. }
            | FrameError::NoLength
            | FrameError::BadLength { .. }
            | FrameError::Garbage { .. }
            | FrameError::Truncated { .. }
            | FrameError::Overrun { .. }
            | FrameError::NotUtf8 { .. }
            | FrameError::NotJson { .. } => ErrorCode::ParseError as i32,
        }
    }
}

/// Reads frames one after another, skipping what is not one, until the input ends.
pub(crate) struct FrameReader<R> {
    input: Rewind<R>,
    /// The largest body read.
    limit: u64,
    /// Bytes of a refused body still to be skipped.
    skip: u64,
    /// What was found but not yet returned (a frame after the garbage before it).
    found: std::collections::VecDeque<Frame>,
    /// The header line being read.
    line: Vec<u8>,
}

/// A header block as read: the body length it declares, or why there is none.
enum Head {
    Length(u64),
    Refused(FrameError),
    EndOfInput,
}

impl<R: BufRead> FrameReader<R> {
    /// A reader of `input` that refuses messages over [`MAX_MESSAGE`].
    pub(crate) fn new(input: R) -> FrameReader<R> {
        FrameReader::with_limit(input, MAX_MESSAGE)
    }

    /// A reader of `input` that refuses messages over `limit` bytes.
    pub(crate) fn with_limit(input: R, limit: u64) -> FrameReader<R> {
        FrameReader {
            input: Rewind {
                back: Vec::new(),
                at: 0,
                input,
            },
            limit,
            skip: 0,
            found: std::collections::VecDeque::new(),
            line: Vec::new(),
        }
    }

    /// The next frame, or `None` when the input has ended.
    ///
    /// # Errors
    ///
    /// When reading the input fails (not when it holds something that is not a frame).
    pub(crate) fn read(&mut self) -> io::Result<Option<Frame>> {
        if let Some(frame) = self.found.pop_front() {
            return Ok(Some(frame));
        }
        if self.skip > 0 {
            let skip = std::mem::take(&mut self.skip);
            io::copy(&mut (&mut self.input).take(skip), &mut io::sink())?;
        }
        let (length, garbage) = match self.read_head()? {
            (Head::Length(length), garbage) => (length, garbage),
            (Head::Refused(error), _) => return Ok(Some(Frame::Refused(error))),
            (Head::EndOfInput, _) => return Ok(None),
        };
        let frame = if length > self.limit {
            // Skipped on the next read, so that the refusal is known before the bytes come.
            self.skip = length;
            Frame::Refused(FrameError::TooLarge {
                length,
                limit: self.limit,
            })
        } else {
            self.read_body(length)?
        };
        if garbage > 0 {
            self.found.push_back(frame);
            return Ok(Some(Frame::Refused(FrameError::Garbage { bytes: garbage })));
        }
        Ok(Some(frame))
    }

    /// Reads header lines up to the blank line that ends them; also returns how many bytes
    /// before them were no header.
    fn read_head(&mut self) -> io::Result<(Head, u64)> {
        let mut length: Option<Result<u64, String>> = None;
        let mut garbage = 0;
        let mut headers = false;
        // Every byte of the block so far, for when the input ends inside it.
        let mut read = 0;
        loop {
            let Some(dropped) = self.read_line()? else {
                let head = if read > 0 {
                    Head::Refused(FrameError::Garbage { bytes: read })
                } else {
                    Head::EndOfInput
                };
                return Ok((head, 0));
            };
            read += dropped + self.line.len() as u64;
            let line = trim_line_end(&self.line);
            if line.is_empty() && dropped == 0 {
                if !headers && garbage == 0 {
                    // Blank lines between frames are harmless.
                    read = 0;
                    continue;
                }
                break;
            }
            if let Some(at) = find_ignoring_case(line, CONTENT_LENGTH) {
                // Anything before the header on its line is the end of something else: the
                // rest of a body shorter than its declared length, say.
                garbage += dropped + at as u64;
                headers = true;
                let value = line[at + CONTENT_LENGTH.len()..].trim_ascii();
                length = Some(
                    std::str::from_utf8(value)
                        .ok()
                        .and_then(|value| value.parse::<u64>().ok())
                        .ok_or_else(|| String::from_utf8_lossy(value).into_owned()),
                );
            } else if dropped == 0 && is_header(line) {
                // `Content-Type`, the only other header the protocol has, changes nothing.
                headers = true;
            } else {
                garbage += dropped + self.line.len() as u64;
            }
        }
        let head = match length {
            Some(Ok(length)) => Head::Length(length),
            Some(Err(value)) => Head::Refused(FrameError::BadLength { value }),
            None if headers => Head::Refused(FrameError::NoLength),
            None => Head::Refused(FrameError::Garbage { bytes: garbage }),
        };
        let garbage = if matches!(head, Head::Length(_)) {
            garbage
        } else {
            0
        };
        Ok((head, garbage))
    }

    /// Reads one line into `self.line`, keeping only the end of an over-long one; returns how
    /// many bytes were dropped from its start, or `None` at the end of the input.
    fn read_line(&mut self) -> io::Result<Option<u64>> {
        self.line.clear();
        let mut dropped = 0;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                // A signal, not the input: read again, as `read_until` would.
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                let ended = self.line.is_empty() && dropped == 0;
                return Ok((!ended).then_some(dropped));
            }
            let (taken, complete) = match available.iter().position(|&byte| byte == b'\n') {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            self.line.extend_from_slice(&available[..taken]);
            self.input.consume(taken);
            if self.line.len() > MAX_HEADER_LINE {
                let cut = self.line.len() - KEPT_TAIL;
                self.line.drain(..cut);
                dropped += cut as u64;
            }
            if complete {
                return Ok(Some(dropped));
            }
        }
    }

    /// Reads and parses a body of `length` bytes.
    fn read_body(&mut self, length: u64) -> io::Result<Frame> {
        // Bytes put back from an earlier body come first; only bytes after them may be put back
        // again, so that no byte is read more than twice.
        let replayed = self.input.pending();
        let mut body = Vec::new();
        // The buffer grows as bytes arrive: a declared length is no reason to allocate.
        (&mut self.input).take(length).read_to_end(&mut body)?;
        if (body.len() as u64) < length {
            let id = recover_id(&String::from_utf8_lossy(&body));
            return Ok(Frame::Refused(FrameError::Truncated {
                length,
                got: body.len() as u64,
                id,
            }));
        }
        Ok(match std::str::from_utf8(&body) {
            Ok(text) => match parse_message(text) {
                Ok(message) => Frame::Message(message),
                Err(error) => match error {
                    FrameError::NotJson { .. } => self.overrun(&body, replayed, length, error),
                    other => Frame::Refused(other),
                },
            },
            Err(error) => {
                let id = recover_id(&String::from_utf8_lossy(&body));
                self.overrun(&body, replayed, length, FrameError::NotUtf8 { error, id })
            }
        })
    }

    /// A body that could not be read: when it holds the next frame's header, its length ran
    /// past its end (a client that counted characters instead of bytes, say), and the next
    /// frame is read from that header on.
    fn overrun(&mut self, body: &[u8], replayed: usize, length: u64, error: FrameError) -> Frame {
        let from = replayed.min(body.len());
        let Some(at) = find_ignoring_case(&body[from..], CONTENT_LENGTH).map(|at| from + at) else {
            return Frame::Refused(error);
        };
        self.input.put_back(&body[at..]);
        let id = recover_id(&String::from_utf8_lossy(&body[..at]));
        Frame::Refused(FrameError::Overrun { length, id })
    }
}

/// Parses a body as a message.
fn parse_message(text: &str) -> Result<Message, FrameError> {
    match serde_json::from_str::<Message>(text) {
        // lsp-server reads an object with a method and an id it cannot hold (a float, a
        // number past 32 bits) as a notification: the client would wait for an answer forever.
        Ok(Message::Notification(_)) if recover_id(text).is_some() => Err(FrameError::NotMessage {
            reason: "its id is neither a string nor a 32-bit integer".to_string(),
            id: recover_id(text),
        }),
        Ok(message) => Ok(message),
        Err(error) => match serde_json::from_str::<Value>(text) {
            Ok(value) => Err(FrameError::NotMessage {
                reason: error.to_string(),
                id: value.get("id").filter(|id| is_id(id)).cloned(),
            }),
            Err(error) => Err(FrameError::NotJson {
                error,
                id: recover_id(text),
            }),
        },
    }
}

/// `bytes` in the largest whole unit.
fn size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Whether `value` can be a request's id: JSON-RPC allows a string or a number.
fn is_id(value: &Value) -> bool {
    matches!(value, Value::String(_) | Value::Number(_))
}

/// The id of the object `text` opens, read up to the id alone, so that a request cut short or
/// broken after its id can still be answered. Only the object's own `id` counts, not one
/// nested in its parameters; a number must be followed by more of the object (it may be cut
/// short itself).
pub(crate) fn recover_id(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let start = text.len() - text.trim_start().len();
    if bytes.get(start) != Some(&b'{') {
        return None;
    }
    let mut at = start + 1;
    let mut depth = 1usize;
    // Inside the object itself, whether the next string is a key.
    let mut key_next = true;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                let end = string_end(bytes, at)?;
                if depth == 1 && key_next && &bytes[at..end] == b"\"id\"" {
                    return id_after_key(&text[end..]);
                }
                key_next = false;
                at = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            b',' if depth == 1 => key_next = true,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The index just past the string that starts (with its quote) at `start`, or `None` when it
/// does not end.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// The value after an `"id"` key: `rest` starts just after the key.
fn id_after_key(rest: &str) -> Option<Value> {
    let rest = rest.trim_start().strip_prefix(':')?;
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let value = values.next()?.ok()?;
    let after = rest[values.byte_offset()..].trim_start();
    match value {
        Value::String(_) => Some(value),
        Value::Number(_) if after.starts_with(',') || after.starts_with('}') => Some(value),
        Value::Number(_) | Value::Null | Value::Bool(_) | Value::Array(_) | Value::Object(_) => {
            None
        }
    }
}

/// Whether `line` reads as `Name: value`, a header this server has no use for.
fn is_header(line: &[u8]) -> bool {
    let Some(colon) = line.iter().position(|&byte| byte == b':') else {
        return false;
    };
    let name = &line[..colon];
    !name.is_empty()
        && name
            .iter()
            .all(|&byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// `line` without its line ending (`\r\n`, or a bare `\n`).
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Where `needle` (lowercase ASCII) first occurs in `haystack`, in any case.
fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// A `BufRead` with bytes put back in front of its input: the part of a body that turned out
/// to be the next frame.
struct Rewind<R> {
    back: Vec<u8>,
    /// How much of `back` has been read.
    at: usize,
    input: R,
}

impl<R> Rewind<R> {
    /// Bytes put back and not yet read.
    fn pending(&self) -> usize {
        self.back.len() - self.at
    }

    /// Puts `bytes` back, to be read before anything else.
    fn put_back(&mut self, bytes: &[u8]) {
        let mut back = bytes.to_vec();
        back.extend_from_slice(&self.back[self.at..]);
        self.back = back;
        self.at = 0;
    }
}

impl<R: BufRead> Read for Rewind<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.fill_buf()?.read(buffer)?;
        self.consume(read);
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Rewind<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pending() > 0 {
            Ok(&self.back[self.at..])
        } else {
            self.input.fill_buf()
        }
    }

    fn consume(&mut self, amount: usize) {
        if self.pending() > 0 {
            self.at += amount;
            if self.pending() == 0 {
                self.back.clear();
                self.at = 0;
            }
        } else {
            self.input.consume(amount);
        }
    }
}

// Public to the server's modules for `cases()`, which the inbox's property test shares.
#[cfg(test)]
pub(super) mod tests;
