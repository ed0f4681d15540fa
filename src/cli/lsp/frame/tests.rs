use std::io::Cursor;

use proptest::prelude::*;

use super::*;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// A notification whose text is `label`.
fn message(label: &str) -> Vec<u8> {
    serde_json::json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": { "textDocument": { "uri": "file:///a.tafl", "version": 1 },
                    "contentChanges": [{ "text": label }] },
    })
    .to_string()
    .into_bytes()
}

/// Every frame in `input`, with messages as their labels and refusals as `Err`.
fn read_all(input: &[u8], limit: u64) -> Vec<Result<String, FrameError>> {
    let mut reader = FrameReader::with_limit(Cursor::new(input), limit);
    let mut frames = Vec::new();
    // Every frame consumes at least a byte, and no byte is read more than twice: more frames
    // than that is a loop.
    for _ in 0..2 * input.len() + 2 {
        match reader.read().expect("a byte slice reads") {
            Some(Frame::Message(Message::Notification(notification))) => {
                frames.push(Ok(notification.params["contentChanges"][0]["text"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string()))
            }
            Some(Frame::Message(other)) => frames.push(Ok(format!("{other:?}"))),
            Some(Frame::Refused(error)) => frames.push(Err(error)),
            None => return frames,
        }
    }
    panic!("the reader did not end: {frames:?}");
}

fn labels(frames: &[Result<String, FrameError>]) -> Vec<&str> {
    frames
        .iter()
        .filter_map(|frame| frame.as_ref().ok().map(String::as_str))
        .collect()
}

#[test]
fn frames_are_read_with_any_header_case_and_line_ending() {
    let mut input = frame(&message("one"));
    let two = message("two…");
    input.extend(
        format!(
            "content-length: {}\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n",
            two.len()
        )
        .as_bytes(),
    );
    input.extend(two);
    input.extend(b"\r\n");
    input.extend(frame(&message("three")));
    let frames = read_all(&input, MAX_MESSAGE);
    assert_eq!(labels(&frames), ["one", "two…", "three"]);
    assert_eq!(frames.len(), 3, "{frames:?}");
}

/// The issue's lengths: a panic ("capacity overflow"), an abort and 1.5 GB allocated before
/// the body was read. Each is refused as soon as its header is read, without reading on.
#[test]
fn a_length_over_the_limit_is_refused_before_its_body_is_read() {
    for length in [u64::MAX, 2_000_000_000, 1_500_000_000, MAX_MESSAGE + 1] {
        let input = format!("Content-Length: {length}\r\n\r\n{{\"jsonrpc\"");
        let mut reader = FrameReader::new(Cursor::new(input.as_bytes()));
        let Ok(Some(Frame::Refused(error))) = reader.read() else {
            panic!("{length} is refused");
        };
        assert!(
            matches!(error, FrameError::TooLarge { length: l, limit: MAX_MESSAGE } if l == length)
        );
        assert_eq!(
            error.to_string(),
            format!(
                "a message of {length} bytes is over the limit of 64 MiB; its body was skipped"
            )
        );
        assert!(matches!(reader.read(), Ok(None)), "the rest is its body");
    }
    let frames = read_all(b"Content-Length: 18446744073709551616\r\n\r\n", MAX_MESSAGE);
    assert!(
        matches!(&frames[..], [Err(FrameError::BadLength { value })] if value == "18446744073709551616"),
        "{frames:?}"
    );
}

#[test]
fn the_body_of_a_message_over_the_limit_is_skipped_and_the_next_is_read() {
    let mut input = frame(&[b'x'; 1000]);
    input.extend(frame(&message("after")));
    let frames = read_all(&input, 999);
    assert!(matches!(
        frames[0],
        Err(FrameError::TooLarge {
            length: 1000,
            limit: 999
        })
    ));
    assert_eq!(labels(&frames), ["after"]);
    assert_eq!(
        frames[0].as_ref().map_err(ToString::to_string).unwrap_err(),
        "a message of 1000 bytes is over the limit of 999 bytes; its body was skipped"
    );
}

#[test]
fn a_request_that_cannot_be_read_keeps_its_id_when_it_can_be_found() {
    let cases: [(&[u8], Option<Value>, i32); 7] = [
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"textDocument/hov",
            Some(7.into()),
            -32700,
        ),
        (
            b"{\"id\": \"seven\", \"method\": \"x\", \"params\": \xff}",
            Some("seven".into()),
            -32700,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":5}",
            Some(9.into()),
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}",
            Some(serde_json::json!(1.5)),
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":3000000000,\"method\":\"x\"}",
            Some(serde_json::json!(3_000_000_000u64)),
            -32600,
        ),
        (b"{{{{{", None, -32700),
        (b"\xff\xfe{}", None, -32700),
    ];
    for (body, id, code) in cases {
        let frames = read_all(&frame(body), MAX_MESSAGE);
        let [Err(error)] = &frames[..] else {
            panic!("{frames:?}");
        };
        assert_eq!(error.id(), id.as_ref(), "{error}");
        assert_eq!(error.code(), code, "{error}");
    }
}

#[test]
fn recovering_an_id_reads_only_the_object_s_own() {
    assert_eq!(recover_id(r#" {"id": 12, "method""#), Some(12.into()));
    assert_eq!(
        recover_id(r#"{"method": "x", "id": "a\"b", "#),
        Some("a\"b".into())
    );
    assert_eq!(recover_id(r#"{"id": "cut"#), None);
    // The number may be cut short itself: 12 of 123.
    assert_eq!(recover_id(r#"{"id": 12"#), None);
    assert_eq!(
        recover_id(r#"{"params": {"id": 4}, "x": "\"id\": 5", "#),
        None
    );
    assert_eq!(
        recover_id(r#"{"params": [{"id": 4}], "id": 6}"#),
        Some(6.into())
    );
    assert_eq!(recover_id(r#"{"id": null, "#), None);
    assert_eq!(recover_id(r#"[{"id": 1}]"#), None);
    assert_eq!(recover_id(r#"{"a": "id", "b": 1}"#), None);
}

#[test]
fn header_blocks_without_a_usable_length_are_skipped() {
    let mut input = b"Content-Type: text/plain\r\n\r\n".to_vec();
    input.extend(b"Content-Length: twelve\r\n\r\n");
    input.extend(b"hello there\r\nnot a header\r\n\r\n");
    input.extend(frame(&message("after")));
    let frames = read_all(&input, MAX_MESSAGE);
    assert!(matches!(frames[0], Err(FrameError::NoLength)), "{frames:?}");
    assert!(matches!(&frames[1], Err(FrameError::BadLength { value }) if value == "twelve"));
    assert!(
        matches!(frames[2], Err(FrameError::Garbage { bytes: 27 })),
        "{frames:?}"
    );
    assert_eq!(labels(&frames), ["after"]);
}

/// A client that counts characters instead of bytes declares a body too short for it; one
/// that counts too many declares one running into the next frame. Either way the next frame is
/// read whole.
#[test]
fn a_wrong_length_loses_only_its_own_message() {
    let long = message("é é é");
    let mut input = format!("Content-Length: {}\r\n\r\n", long.len() - 3).into_bytes();
    input.extend(&long);
    input.extend(frame(&message("after a short length")));
    let frames = read_all(&input, MAX_MESSAGE);
    assert!(
        matches!(frames[0], Err(FrameError::NotJson { .. })),
        "{frames:?}"
    );
    assert!(
        matches!(frames[1], Err(FrameError::Garbage { bytes: 3 })),
        "{frames:?}"
    );
    assert_eq!(labels(&frames), ["after a short length"]);

    let cut = br#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","par"#;
    let mut input = format!("Content-Length: {}\r\n\r\n", cut.len() + 30).into_bytes();
    input.extend(cut);
    input.extend(frame(&message("after a long length")));
    input.extend(frame(&message("and the next")));
    let frames = read_all(&input, MAX_MESSAGE);
    assert!(
        matches!(&frames[0], Err(FrameError::Overrun { id: Some(id), .. }) if *id == 3),
        "{frames:?}"
    );
    assert_eq!(labels(&frames), ["after a long length", "and the next"]);
}

#[test]
fn the_input_may_end_anywhere() {
    let whole = frame(&message("whole"));
    for end in 0..whole.len() {
        let frames = read_all(&whole[..end], MAX_MESSAGE);
        assert!(frames.iter().all(Result::is_err), "{end}: {frames:?}");
        assert!(frames.len() <= 1, "{end}: {frames:?}");
    }
    let cut = br#"{"jsonrpc":"2.0","id":"x","met"#;
    let mut input = format!("Content-Length: {}\r\n\r\n", cut.len() + 10).into_bytes();
    input.extend(cut);
    let frames = read_all(&input, MAX_MESSAGE);
    let [Err(FrameError::Truncated { length, got, id })] = &frames[..] else {
        panic!("{frames:?}");
    };
    assert_eq!((*length, *got), (cut.len() as u64 + 10, cut.len() as u64));
    assert_eq!(id.as_ref(), Some(&Value::from("x")));
}

#[test]
fn a_long_garbage_line_costs_no_more_than_its_end() {
    let mut input = vec![b'x'; 1_000_000];
    input.extend(frame(&message("after")));
    let frames = read_all(&input, MAX_MESSAGE);
    assert!(
        matches!(frames[0], Err(FrameError::Garbage { bytes: 1_000_000 })),
        "{frames:?}"
    );
    assert_eq!(labels(&frames), ["after"]);
}

/// Something in the stream that is no message, followed by a message.
#[derive(Clone, Debug)]
enum Hostile {
    /// A line that is no header.
    Line(String),
    /// A well-framed body that is not JSON.
    Body(Vec<u8>),
    /// A body over the limit.
    Large(usize),
    /// A header block without a length.
    NoLength,
    /// A length that is no number.
    BadLength(String),
    /// A request cut short whose length runs this far into the next frame.
    Overrun(usize),
    /// A message whose length is this much short of its body.
    Short(usize),
}

/// The limit the property tests read with.
const LIMIT: u64 = 400;

fn hostile() -> impl Strategy<Value = Hostile> {
    prop_oneof![
        "[^:\r\n]{1,40}".prop_map(Hostile::Line),
        prop::collection::vec(any::<u8>().prop_filter("no header", |&b| b != b':'), 0..60)
            .prop_map(Hostile::Body),
        (LIMIT as usize + 1..800).prop_map(Hostile::Large),
        Just(Hostile::NoLength),
        "[a-z-]{1,8}".prop_map(Hostile::BadLength),
        (CONTENT_LENGTH.len()..40).prop_map(Hostile::Overrun),
        (1usize..30).prop_map(Hostile::Short),
    ]
}

/// Writes `hostile` and then the message `label`.
fn write(input: &mut Vec<u8>, hostile: &Hostile, label: &str) {
    let next = frame(&message(label));
    match hostile {
        Hostile::Line(line) => {
            input.extend(line.as_bytes());
            input.extend(b"\r\n");
        }
        Hostile::Body(body) => {
            // A body that happens to be JSON is refused all the same, as no message.
            input.extend(frame(body));
        }
        Hostile::Large(length) => input.extend(frame(&vec![b'{'; *length])),
        Hostile::NoLength => input.extend(b"Content-Type: x\r\n\r\n"),
        Hostile::BadLength(value) => {
            input.extend(format!("Content-Length: {value}\r\n\r\n").as_bytes());
        }
        Hostile::Overrun(into) => {
            let cut = br#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"#;
            let into = (*into).min(next.len());
            input.extend(format!("Content-Length: {}\r\n\r\n", cut.len() + into).as_bytes());
            input.extend(cut);
        }
        Hostile::Short(short) => {
            let body = message("cut short");
            input.extend(format!("Content-Length: {}\r\n\r\n", body.len() - short).as_bytes());
            input.extend(body);
        }
    }
    input.extend(next);
}

/// `TAFL_FUZZ_CASES` cases a property, as in `tests/fuzz.rs`: 256 unless told.
pub(crate) fn cases() -> u32 {
    std::env::var("TAFL_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Any bytes at all: the reader ends, without a panic.
    #[test]
    fn any_bytes_are_read_to_their_end(
        parts in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(any::<u8>(), 0..40),
                Just(b"Content-Length: ".to_vec()),
                Just(b"\r\n\r\n".to_vec()),
                (0u64..80).prop_map(|n| n.to_string().into_bytes()),
                Just(br#"{"jsonrpc":"2.0","id":1,"method":"x"}"#.to_vec()),
            ],
            0..20,
        )
    ) {
        let input = parts.concat();
        read_all(&input, 64);
    }

    /// Messages with hostile frames between them: every message is read, in order, and
    /// every hostile frame is refused.
    #[test]
    fn every_message_after_a_hostile_frame_is_read(
        sent in prop::collection::vec((hostile(), "[a-zé𝔸 ]{0,12}"), 0..12)
    ) {
        let mut input = frame(&message("first"));
        for (hostile, label) in &sent {
            write(&mut input, hostile, label);
        }
        let frames = read_all(&input, LIMIT);
        let expected: Vec<&str> = std::iter::once("first")
            .chain(sent.iter().map(|(_, label)| label.as_str()))
            .collect();
        prop_assert_eq!(labels(&frames), expected);
        let refused = frames.iter().filter(|frame| frame.is_err()).count();
        prop_assert!(refused >= sent.len(), "{:?}", frames);
    }
}
