use std::collections::VecDeque;

use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::notification::{DidOpenTextDocument, DidSaveTextDocument};
use lsp_types::request::{HoverRequest, Request as RequestKind};
use proptest::prelude::*;

use super::*;
use crate::cli::lsp::frame::FrameError;

/// What a test sends: each becomes a frame labelled with its place in the sequence.
#[derive(Clone, Copy, Debug)]
enum Sent {
    Change(u8),
    Open(u8),
    Save(u8),
    Hover(u8),
    Unreadable,
    /// Not a message: the server takes the next frame here.
    Take,
}

fn frame(sent: Sent, label: usize) -> Option<Frame> {
    let notify = |method: &str, uri: u8| {
        Frame::Message(Message::Notification(Notification::new(
            method.to_string(),
            serde_json::json!({
                "textDocument": { "uri": format!("file:///{uri}.tafl"), "version": 1 },
                "contentChanges": [{ "text": label.to_string() }],
            }),
        )))
    };
    Some(match sent {
        Sent::Change(uri) => notify(DidChangeTextDocument::METHOD, uri),
        Sent::Open(uri) => notify(DidOpenTextDocument::METHOD, uri),
        Sent::Save(uri) => notify(DidSaveTextDocument::METHOD, uri),
        Sent::Hover(uri) => Frame::Message(Message::Request(Request::new(
            RequestId::from(label as i32),
            HoverRequest::METHOD.to_string(),
            serde_json::json!({
                "textDocument": { "uri": format!("file:///{uri}.tafl") },
                "position": { "line": 0, "character": 0 },
            }),
        ))),
        Sent::Unreadable => Frame::Refused(FrameError::Garbage {
            bytes: label as u64,
        }),
        Sent::Take => return None,
    })
}

/// Which sent frame `frame` is.
fn label(frame: &Frame) -> usize {
    match frame {
        Frame::Message(Message::Notification(notification)) => notification.params
            ["contentChanges"][0]["text"]
            .as_str()
            .and_then(|text| text.parse().ok())
            .unwrap_or(usize::MAX),
        Frame::Message(Message::Request(request)) => {
            request.id.to_string().parse().unwrap_or(usize::MAX)
        }
        Frame::Refused(FrameError::Garbage { bytes }) => *bytes as usize,
        Frame::Message(Message::Response(_)) | Frame::Refused(_) => usize::MAX,
    }
}

/// The rule as first written, kept as the reference: a change is skipped when, among the
/// frames after it, the first that is a request or about the same document is a change of it.
/// It reads the queue once per change, which made 10,000 changes take seconds.
fn is_superseded(frame: &Frame, later: &VecDeque<Frame>) -> bool {
    let Frame::Message(Message::Notification(changed)) = frame else {
        return false;
    };
    if changed.method != DidChangeTextDocument::METHOD {
        return false;
    }
    let Some(uri) = document(changed) else {
        return false;
    };
    for next in later {
        match next {
            Frame::Message(Message::Request(_)) | Frame::Refused(_) => return false,
            Frame::Message(Message::Notification(n)) if document(n) == Some(uri) => {
                return n.method == DidChangeTextDocument::METHOD;
            }
            Frame::Message(Message::Notification(_) | Message::Response(_)) => {}
        }
    }
    false
}

/// The labels of the frames handled, by the inbox and by the reference, when `sent` arrives in
/// order and the server takes a frame at each `Take` and all that is left at the end.
fn handled(sent: &[Sent]) -> (Vec<usize>, Vec<usize>) {
    let mut inbox = Inbox::default();
    let mut reference: VecDeque<Frame> = VecDeque::new();
    let (mut by_inbox, mut by_reference) = (Vec::new(), Vec::new());
    let take_reference = |reference: &mut VecDeque<Frame>, into: &mut Vec<usize>| {
        while let Some(frame) = reference.pop_front() {
            if !is_superseded(&frame, reference) {
                into.push(label(&frame));
                return;
            }
        }
    };
    for (index, &item) in sent.iter().enumerate() {
        if let (Some(a), Some(b)) = (frame(item, index), frame(item, index)) {
            inbox.push(a);
            reference.push_back(b);
        } else {
            by_inbox.extend(inbox.pop().as_ref().map(label));
            take_reference(&mut reference, &mut by_reference);
        }
    }
    while let Some(frame) = inbox.pop() {
        by_inbox.push(label(&frame));
    }
    while !reference.is_empty() {
        take_reference(&mut reference, &mut by_reference);
    }
    (by_inbox, by_reference)
}

#[test]
fn a_change_is_skipped_only_when_a_newer_change_of_the_same_file_follows_before_a_request() {
    use Sent::*;
    let kept = |sent: &[Sent]| handled(sent).0;
    assert_eq!(kept(&[Change(0), Change(0)]), [1]);
    assert_eq!(kept(&[Change(0), Change(1), Change(0)]), [1, 2]);
    assert_eq!(kept(&[Change(0), Change(1)]), [0, 1]);
    assert_eq!(kept(&[Change(0)]), [0]);
    assert_eq!(kept(&[Change(0), Hover(0), Change(0)]), [0, 1, 2]);
    assert_eq!(kept(&[Hover(0), Change(0)]), [0, 1]);
    assert_eq!(kept(&[Change(0), Save(0), Change(0)]), [0, 1, 2]);
    assert_eq!(kept(&[Change(0), Unreadable, Change(0)]), [0, 1, 2]);
    // Once taken, a change is handled whatever comes after it.
    assert_eq!(kept(&[Change(0), Take, Change(0)]), [0, 2]);
    assert_eq!(kept(&[Change(0), Change(0), Take, Change(0)]), [1, 3]);
}

#[test]
fn twenty_thousand_changes_of_many_documents_keep_each_documents_last() {
    let sent: Vec<Sent> = (0..2)
        .flat_map(|_| (0..10_000u32).map(|document| Sent::Change((document % 251) as u8)))
        .collect();
    let (by_inbox, by_reference) = handled(&sent);
    // Of each of the 251 documents' changes, only the last is left.
    assert_eq!(by_inbox.len(), 251);
    assert_eq!(by_inbox, by_reference);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(super::super::frame::tests::cases()))]

    /// Whatever arrives and whenever the server takes frames, the inbox hands over what the
    /// reference rule does.
    #[test]
    fn the_inbox_keeps_what_the_reference_rule_keeps(
        sent in prop::collection::vec(
            prop_oneof![
                4 => (0u8..3).prop_map(Sent::Change),
                1 => (0u8..3).prop_map(Sent::Open),
                1 => (0u8..3).prop_map(Sent::Save),
                1 => (0u8..3).prop_map(Sent::Hover),
                1 => Just(Sent::Unreadable),
                2 => Just(Sent::Take),
            ],
            0..40,
        )
    ) {
        let (by_inbox, by_reference) = handled(&sent);
        prop_assert_eq!(by_inbox, by_reference);
    }
}
