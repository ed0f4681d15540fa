//! The frames read and not yet handled, in order, without the changes that a newer change of
//! the same document makes pointless.
//!
//! An editor sends a change per keystroke, and checking each version of a large file in turn
//! leaves the server seconds behind; so a change followed by a newer change of the same
//! document, with no request in between (a request may be about the older version), is never
//! checked. That is decided as each frame arrives, in constant time: looking through the
//! frames after each change instead made 10,000 changes of different documents take seconds
//! (issue 47), the queue being read once per change.

use std::collections::{HashMap, VecDeque};

use lsp_server::{Message, Notification};
use lsp_types::notification::{DidChangeTextDocument, Notification as NotificationKind};

use super::frame::Frame;

/// The frames waiting to be handled.
#[derive(Default)]
pub(crate) struct Inbox {
    /// Every frame not yet handled, in order of arrival; `None` where a change was superseded.
    queue: VecDeque<Option<Frame>>,
    /// How many frames have left the queue: frame number `n` is at `queue[n - taken]`.
    taken: u64,
    /// The number of the last request (or unreadable frame, which may have been one): changes
    /// before it stand.
    fence: Option<u64>,
    /// For each document, the number of its last change, while nothing but changes of other
    /// documents has followed it.
    last_change: HashMap<String, u64>,
}

impl Inbox {
    /// Adds `frame` to the end of the queue, dropping the document's previous change when
    /// `frame` makes it pointless.
    pub(crate) fn push(&mut self, frame: Frame) {
        let number = self.taken + self.queue.len() as u64;
        match &frame {
            Frame::Message(Message::Request(_)) | Frame::Refused(_) => self.fence = Some(number),
            Frame::Message(Message::Notification(notification)) => {
                if let Some(uri) = document(notification) {
                    if notification.method == DidChangeTextDocument::METHOD {
                        let earlier = self.last_change.insert(uri.to_string(), number);
                        if let Some(earlier) = earlier.filter(|&earlier| self.is_pending(earlier)) {
                            if let Some(entry) = self.queue.get_mut((earlier - self.taken) as usize)
                            {
                                *entry = None;
                            }
                        }
                    } else {
                        // Opened, closed or saved: the change before it is that version.
                        self.last_change.remove(uri);
                    }
                }
            }
            Frame::Message(Message::Response(_)) => {}
        }
        self.queue.push_back(Some(frame));
    }

    /// Whether frame number `number` is a change still waiting with no request after it.
    fn is_pending(&self, number: u64) -> bool {
        number >= self.taken && self.fence.is_none_or(|fence| number > fence)
    }

    /// The next frame to handle.
    pub(crate) fn pop(&mut self) -> Option<Frame> {
        while let Some(entry) = self.queue.pop_front() {
            let number = self.taken;
            self.taken += 1;
            let Some(frame) = entry else {
                continue;
            };
            // Forget the change once handled, so that the map holds only waiting changes.
            if let Frame::Message(Message::Notification(notification)) = &frame {
                if let Some(uri) = document(notification) {
                    if self.last_change.get(uri) == Some(&number) {
                        self.last_change.remove(uri);
                    }
                }
            }
            return Some(frame);
        }
        None
    }
}

/// The document a notification is about, if any.
fn document(notification: &Notification) -> Option<&str> {
    notification.params["textDocument"]["uri"].as_str()
}

#[cfg(test)]
mod tests;
