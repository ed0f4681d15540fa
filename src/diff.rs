//! The rule differences between two variants, in words: what a player must know when switching
//! from one to the other (`tafl diff A B`).
//!
//! The comparison is semantic. Board, sides, pieces, special squares and the start position are
//! compared field by field; the rules proper are compared as the plain-word sentences of
//! [`crate::explain::rule_sections`], part by part. Before that, the second variant's pieces and
//! sides take the first one's names where they are the same piece (same symbol, side and role),
//! so that renaming a piece is reported once, not in every sentence that mentions it.

use std::fmt::Write as _;

use crate::english::capitalise;
use crate::english::{count, count_with, piece_plural, side_noun, squares};
use crate::explain::{first_move_sentence, movement_words, rule_sections, used_regions, Section};
use crate::ir::{Role, Rules, Side, Square};

/// The differences between `a` (labelled `a_label`, e.g. its bundled name) and `b`, as text.
pub fn diff(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> String {
    for (label, rules) in [(a_label, a), (b_label, b)] {
        if let Err(error) = rules.validate() {
            return format!("The rules of {label} are malformed: {error}.\n");
        }
    }
    let mut out = String::new();
    let title = format!("{a_label} and {b_label}: the rules that differ");
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", "=".repeat(title.chars().count()));
    let _ = writeln!(out, "{a_label}: {}", a.name);
    let _ = writeln!(out, "{b_label}: {}", b.name);
    let renamed = with_names_of(b, a);
    let mut topics = declared_topics(a_label, a, b_label, b);
    topics.extend(rule_topics(a_label, a, b_label, b, &renamed));
    if topics.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "The rules are the same.");
        return out;
    }
    if renamed.pieces != b.pieces || renamed.sides != b.sides {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "(Rules of {b_label} are worded with {a_label}'s names for the same pieces and sides.)"
        );
    }
    for (title, lines) in topics {
        let _ = writeln!(out);
        let _ = writeln!(out, "{title}");
        let _ = writeln!(out, "{}", "-".repeat(title.chars().count()));
        for line in lines {
            bullet(&mut out, &line);
        }
    }
    out
}

/// A topic of the comparison: its title and one line a difference.
type Topic = (String, Vec<String>);

/// What the declarations say differently: board, first move, side names, pieces, special
/// squares, start position.
fn declared_topics(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> Vec<Topic> {
    let mut topics: Vec<Topic> = Vec::new();

    if a.board != b.board {
        topics.push((
            "Board".into(),
            vec![
                format!("{a_label}: {} x {} squares.", a.board.width, a.board.height),
                format!("{b_label}: {} x {} squares.", b.board.width, b.board.height),
            ],
        ));
    }
    if a.first_to_move != b.first_to_move {
        topics.push((
            "First move".into(),
            vec![
                format!("{a_label}: {}", first_move_sentence(a)),
                format!("{b_label}: {}", first_move_sentence(b)),
            ],
        ));
    }
    let names: Vec<String> = Side::BOTH
        .iter()
        .filter(|side| a.sides.get(**side).name != b.sides.get(**side).name)
        .map(|side| {
            format!(
                "The {side} are {} in {a_label}, {} in {b_label}.",
                side_noun(a, *side),
                side_noun(b, *side)
            )
        })
        .collect();
    if !names.is_empty() {
        topics.push(("Side names".into(), names));
    }
    let pieces = piece_differences(a_label, a, b_label, b);
    if !pieces.is_empty() {
        topics.push(("Pieces".into(), pieces));
    }
    let squares = region_differences(a_label, a, b_label, b);
    if !squares.is_empty() {
        topics.push(("Special squares".into(), squares));
    }
    let setup = setup_differences(a_label, a, b_label, b);
    if !setup.is_empty() {
        topics.push(("Start position".into(), setup));
    }
    topics
}

/// What the rules say differently, part by part of the rule sheet, `b`'s sentences worded with
/// `a`'s names (`renamed`).
fn rule_topics(a_label: &str, a: &Rules, b_label: &str, b: &Rules, renamed: &Rules) -> Vec<Topic> {
    let mut topics: Vec<Topic> = Vec::new();
    // For comparing only: `b`'s rules on `a`'s squares, so that a region that moved (the throne
    // on another board) is reported once, under special squares, and not in every rule about it.
    let on_a_squares = on_squares_of(renamed, a);
    let mine_sections = rule_sections(a);
    let theirs_sections = rule_sections(renamed);
    let compare_sections = rule_sections(&on_a_squares);
    for mine in mine_sections {
        // Every variant has the same sections under the same keys (`rule_sections`); looking
        // them up by key, rather than zipping three lists, cannot drop a section silently.
        let by_key = |sections: &[Section]| {
            sections
                .iter()
                .find(|section| section.key == mine.key)
                .cloned()
                .unwrap_or_else(|| Section {
                    key: mine.key,
                    title: mine.title.clone(),
                    sentences: Vec::new(),
                    rules: Vec::new(),
                })
        };
        let theirs = by_key(&theirs_sections);
        let compare = by_key(&compare_sections);
        let mut lines = Vec::new();
        if mine.key == "movement" {
            // Piece by piece: "every piece moves like a rook" against a list says too much.
            lines = movement_differences(a_label, a, b_label, b);
            if !lines.is_empty() {
                topics.push(("Movement".into(), lines));
            }
            continue;
        }
        for sentence in mine
            .sentences
            .iter()
            .filter(|s| !compare.sentences.contains(s))
        {
            lines.push(format!("only in {a_label}: {}", capitalise(sentence)));
        }
        for (sentence, compared) in theirs.sentences.iter().zip(&compare.sentences) {
            if !mine.sentences.contains(compared) {
                lines.push(format!("only in {b_label}: {}", capitalise(sentence)));
            }
        }
        if !lines.is_empty() {
            let title = if mine.key == "access" {
                "Where pieces may go".to_string()
            } else {
                mine.title.clone()
            };
            topics.push((title, lines));
        }
    }
    topics
}

/// `b`'s rules with `a`'s squares for the regions both have, for comparing sentences only: a
/// region that moved (the throne of another board) is then reported once, under special
/// squares, and not in every rule about it. The copy stands on a board as wide and as high as
/// the larger of the two, with an empty diagram, so that every square of either variant lies on
/// it and the copy keeps the IR's invariants whichever board is larger (on `b`'s own board, the
/// squares of a larger `a` fall off it, and the copy would have no rule sentences at all).
fn on_squares_of(b: &Rules, a: &Rules) -> Rules {
    let mut copy = b.clone();
    copy.board.width = a.board.width.max(b.board.width);
    copy.board.height = a.board.height.max(b.board.height);
    copy.setup = vec![".".repeat(usize::from(copy.board.width)); usize::from(copy.board.height)];
    for region in &mut copy.regions {
        if let Some(same) = a.region(&region.name) {
            region.squares.clone_from(&same.squares);
        }
    }
    copy
}

/// `b` with the display names of `a`'s matching pieces (same symbol, side and role) and `a`'s
/// side names: its rules read in `a`'s words.
fn with_names_of(b: &Rules, a: &Rules) -> Rules {
    let mut renamed = b.clone();
    for piece in &mut renamed.pieces {
        if let Some(same) = a.piece_by_symbol(piece.symbol) {
            if same.side == piece.side && same.role == piece.role {
                piece.display.clone_from(&same.display);
            }
        }
    }
    renamed.sides = a.sides.clone();
    renamed
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Soldier => "soldier",
    }
}

fn describe(rules: &Rules, symbol: char) -> String {
    rules
        .piece_by_symbol(symbol)
        .map_or_else(String::new, |piece| {
            format!(
                "{symbol} {} (a {} of {})",
                piece.display,
                role_word(piece.role),
                side_noun(rules, piece.side)
            )
        })
}

/// Pieces by symbol: present in one variant only, or changed in side, role or name.
fn piece_differences(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> Vec<String> {
    let mut symbols: Vec<char> = a.pieces.iter().map(|piece| piece.symbol).collect();
    for piece in &b.pieces {
        if !symbols.contains(&piece.symbol) {
            symbols.push(piece.symbol);
        }
    }
    let mut lines = Vec::new();
    for symbol in symbols {
        match (a.piece_by_symbol(symbol), b.piece_by_symbol(symbol)) {
            (Some(_), None) => lines.push(format!("only in {a_label}: {}.", describe(a, symbol))),
            (None, Some(_)) => lines.push(format!("only in {b_label}: {}.", describe(b, symbol))),
            (Some(mine), Some(theirs)) if mine.side != theirs.side || mine.role != theirs.role => {
                lines.push(format!(
                    "{symbol} is {} in {a_label}, {} in {b_label}.",
                    describe(a, symbol),
                    describe(b, symbol)
                ));
            }
            (Some(mine), Some(theirs)) if mine.display != theirs.display => {
                lines.push(format!(
                    "{symbol} is called {} in {a_label}, {} in {b_label}.",
                    mine.display, theirs.display
                ));
            }
            _ => {}
        }
    }
    lines
}

/// The pieces (by symbol, in both variants) that move differently.
fn movement_differences(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    for mine in &a.pieces {
        if let Some(theirs) = b.piece_by_symbol(mine.symbol) {
            if mine.movement != theirs.movement {
                lines.push(format!(
                    "{} {}: moves {} in {a_label}; {} in {b_label}.",
                    mine.symbol,
                    mine.display,
                    movement_words(mine.movement),
                    movement_words(theirs.movement)
                ));
            }
        }
    }
    lines
}

/// Regions some rule uses, present in one variant only or on other squares.
fn region_differences(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> Vec<String> {
    let (used_a, used_b) = (used_regions(a), used_regions(b));
    let mut names: Vec<&str> = used_a.clone();
    names.extend(used_b.iter().copied());
    names.retain(|name| *name != "edge");
    let mut seen = Vec::new();
    let mut lines = Vec::new();
    for name in names {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let mine = a.region(name).filter(|_| used_a.contains(&name));
        let theirs = b.region(name).filter(|_| used_b.contains(&name));
        match (mine, theirs) {
            (Some(region), None) => lines.push(format!(
                "only in {a_label}: rules about the {name} ({}).",
                squares(&region.squares)
            )),
            (None, Some(region)) => lines.push(format!(
                "only in {b_label}: rules about the {name} ({}).",
                squares(&region.squares)
            )),
            (Some(mine), Some(theirs)) if mine.squares != theirs.squares => lines.push(format!(
                "The {name}: {} in {a_label}, {} in {b_label}.",
                squares(&mine.squares),
                squares(&theirs.squares)
            )),
            _ => {}
        }
    }
    lines
}

/// The squares whose starting piece differs by role (an attacker, a defender, a king, or the
/// piece's name where a side has several kinds of that role), or the pieces counted by role (by
/// name where a side has several kinds of it) when the boards differ. Letters are not compared: `a` and `t` for the attackers' soldier are the
/// same start.
fn setup_differences(a_label: &str, a: &Rules, b_label: &str, b: &Rules) -> Vec<String> {
    if a.board != b.board {
        let counted = |rules: &Rules| -> String {
            rules
                .pieces
                .iter()
                .map(|piece| {
                    let n = rules
                        .start_pieces()
                        .iter()
                        .filter(|(_, placed)| placed.name == piece.name)
                        .count();
                    let kinds = (rules.pieces.iter())
                        .filter(|other| other.side == piece.side && other.role == piece.role)
                        .count();
                    if kinds > 1 {
                        // A side with several kinds of soldier: each by its own name.
                        count_with(n, &piece.display, &piece_plural(piece))
                    } else {
                        count(n, &role_of(rules, piece.symbol).unwrap_or_default())
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        return vec![
            format!("{a_label}: {}.", counted(a)),
            format!("{b_label}: {}.", counted(b)),
        ];
    }
    let height = a.setup.len();
    let mut lines = Vec::new();
    for (row, (mine, theirs)) in a.setup.iter().zip(&b.setup).enumerate() {
        for (file, (x, y)) in mine.chars().zip(theirs.chars()).enumerate() {
            if !same_start(a, x, b, y) {
                let square = Square::new(file as u8, (height - 1 - row) as u8);
                let say = |rules: &Rules, symbol: char| {
                    if symbol == '.' {
                        "empty".to_string()
                    } else {
                        describe(rules, symbol)
                    }
                };
                lines.push(format!(
                    "{square}: {} in {a_label}, {} in {b_label}.",
                    say(a, x),
                    say(b, y)
                ));
            }
        }
    }
    lines
}

/// Whether `x` of `a` and `y` of `b` start the same: both empty, or pieces of the same side and
/// role, and of the same name where either variant has several kinds of that side and role
/// (Berserk's commanders are not Copenhagen's attackers, its attackers are).
fn same_start(a: &Rules, x: char, b: &Rules, y: char) -> bool {
    match (a.piece_by_symbol(x), b.piece_by_symbol(y)) {
        (None, None) => true,
        (Some(mine), Some(theirs)) if mine.side == theirs.side && mine.role == theirs.role => {
            let kinds = |rules: &Rules| {
                (rules.pieces.iter())
                    .filter(|piece| piece.side == mine.side && piece.role == mine.role)
                    .count()
            };
            (kinds(a) == 1 && kinds(b) == 1) || mine.name == theirs.name
        }
        _ => false,
    }
}

/// The role of the piece of `symbol`, as counted at the start: `attacker`, `defender`, `king`
/// (`attacker king` for a king of the attackers). `None` for an empty square.
fn role_of(rules: &Rules, symbol: char) -> Option<String> {
    let piece = rules.piece_by_symbol(symbol)?;
    let side = match piece.side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    };
    Some(match piece.role {
        Role::Soldier => side.to_string(),
        Role::King if piece.side == Side::Defenders => "king".to_string(),
        Role::King => format!("{side} king"),
    })
}

fn bullet(out: &mut String, text: &str) {
    // Wrap at 92 columns, continuation lines indented under the text.
    let mut line = String::from("  -");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 92 && line.len() > 4 {
            let _ = writeln!(out, "{line}");
            line = String::from("   ");
        }
        line.push(' ');
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}");
}
