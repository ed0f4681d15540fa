//! Reaching (escape): the regions whose reaching wins, and the announcements of open routes
//! to them.

use super::words::Words;
use super::Section;
use crate::english::side_verb;
use crate::ir::{Announcement, Escape, RuleRef};

/// One sentence an escape.
pub(super) fn escapes(words: &Words, section: &mut Section, escapes: &[Escape]) {
    for (index, escape) in escapes.iter().enumerate() {
        section.push_for(
            format!(
                "{} when {} reaches {}.",
                side_verb(words.rules, escape.winner, "win"),
                words.piece_plural(&escape.piece),
                words.destination(&escape.region)
            ),
            [RuleRef::Escape(index)],
        );
    }
}

/// One sentence an announcement.
pub(super) fn announcements(words: &Words, section: &mut Section, announcements: &[Announcement]) {
    for (index, announcement) in announcements.iter().enumerate() {
        let routes = if announcement.routes == 1 {
            "one clear route".to_string()
        } else {
            format!("{} clear routes", announcement.routes)
        };
        section.push_for(
            format!(
                "Say \"{}\" when {} has {routes} to {}.",
                announcement.word,
                words.piece_plural(&announcement.piece),
                words.destination(&announcement.region)
            ),
            [RuleRef::Announcement(index)],
        );
    }
}
