//! Drawing the board: coordinates on all four sides, the last move in brackets, special squares
//! marked where empty; Unicode pieces or ASCII letters, ANSI colour or none.

use crate::engine::{Engine, Move, Position};
use crate::ir::{Place, Region, Role, Rules, Side, Square};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Unicode pieces (`●`, `○`, `♔`) rather than the variant's letters.
    pub unicode: bool,
    /// ANSI colours (only on a terminal, and never with `NO_COLOR`).
    pub colour: bool,
}

const RESET: &str = "\x1b[0m";
const DIM: &str = "\x1b[2m";
const ATTACKER: &str = "\x1b[1;31m";
const DEFENDER: &str = "\x1b[1;34m";
const KING: &str = "\x1b[1;33m";
const MARK: &str = "\x1b[32m";

/// The glyph that stands for piece kind `kind`.
pub fn glyph(rules: &Rules, kind: usize, style: Style) -> char {
    let piece = &rules.pieces[kind];
    if !style.unicode {
        return piece.symbol;
    }
    // A Unicode shape only where it is unambiguous: one kind of that side and role.
    let alike = rules
        .pieces
        .iter()
        .filter(|p| p.side == piece.side && p.role == piece.role)
        .count();
    if alike > 1 {
        return piece.symbol;
    }
    match (piece.side, piece.role) {
        (Side::Attackers, Role::Soldier) => '●',
        (Side::Defenders, Role::Soldier) => '○',
        (Side::Defenders, Role::King) => '♔',
        (Side::Attackers, Role::King) => '♚',
    }
}

/// Whether the rules refer to the region `name` (so that its squares are worth marking).
fn used(rules: &Rules, name: &str) -> bool {
    rules.region(name).is_some()
        && (rules.access.iter().any(|r| r.region == name)
            || rules.hostility.iter().any(|r| r.region == name)
            || rules.outcome.escapes.iter().any(|e| e.region == name)
            || rules.king_capture.iter().any(|k| {
                matches!(&k.place, Place::On(r) | Place::Beside(r) if r == name)
                    || k.counting.iter().any(|c| c == name)
            }))
}

/// The mark of each special region on empty squares: `+` the throne, `#` the corners, then
/// one mark per other region the rules use (barrows, camps, escape squares ...), in the file's
/// order. The edge is left unmarked: it is plain to see.
fn region_marks(rules: &Rules) -> Vec<(char, &Region)> {
    const OTHERS: [char; 8] = ['*', '^', '~', '=', '%', '&', '$', '@'];
    let mut others = OTHERS.iter();
    rules
        .regions
        .iter()
        .filter(|region| region.name != "edge" && used(rules, &region.name))
        .filter_map(|region| {
            let mark = match region.name.as_str() {
                "throne" => '+',
                "corners" => '#',
                _ => *others.next()?,
            };
            Some((mark, region))
        })
        .collect()
}

/// The board of `position`, with `last` marked, and its key wrapped to `columns` (between
/// entries, never inside one).
pub fn render(
    engine: &Engine,
    position: &Position,
    last: Option<Move>,
    style: Style,
    columns: usize,
) -> String {
    let rules = engine.rules();
    let (width, height) = (engine.width(), engine.height());
    let paint = |code: &str, text: String| {
        if style.colour {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let files: String = (0..width)
        .map(|file| format!(" {} ", (b'a' + file) as char))
        .collect();
    let files = format!("     {}", paint(DIM, files.trim_end().to_string()));
    let marks = region_marks(rules);
    let mut out = String::new();
    out.push_str(&files);
    out.push('\n');
    for rank in (0..height).rev() {
        let number = u32::from(rank) + 1;
        out.push_str(&paint(DIM, format!("{number:>4} ")));
        for file in 0..width {
            let square = Square::new(file, rank);
            let marked = last.is_some_and(|mv| mv.from == square || mv.to == square);
            let shown = match engine.piece_at(position, square) {
                Some(kind) => {
                    let code = match (rules.pieces[kind].side, rules.pieces[kind].role) {
                        (_, Role::King) => KING,
                        (Side::Attackers, _) => ATTACKER,
                        (Side::Defenders, _) => DEFENDER,
                    };
                    paint(code, glyph(rules, kind, style).to_string())
                }
                None => {
                    let special = marks
                        .iter()
                        .find(|(_, region)| region.squares.contains(&square))
                        .map(|(mark, _)| *mark);
                    let c = special.unwrap_or(if style.unicode { '·' } else { '.' });
                    paint(DIM, c.to_string())
                }
            };
            if marked {
                out.push_str(&paint(MARK, "[".into()));
                out.push_str(&shown);
                out.push_str(&paint(MARK, "]".into()));
            } else {
                out.push(' ');
                out.push_str(&shown);
                out.push(' ');
            }
        }
        out.push_str(&paint(DIM, format!(" {number}")));
        out.push('\n');
    }
    out.push_str(&files);
    out.push('\n');
    // The key: each side's pieces, and the marks.
    let mut key = Vec::new();
    for side in Side::BOTH {
        let pieces: Vec<String> = rules
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side)
            .map(|(kind, p)| format!("{} {}", glyph(rules, kind, style), p.display))
            .collect();
        key.push(format!(
            "{}: {}",
            rules.sides.get(side).name,
            pieces.join(", ")
        ));
    }
    for (mark, region) in &marks {
        let name = match region.name.as_str() {
            "corners" => "corner",
            name => name,
        };
        key.push(format!("{mark} {name}"));
    }
    if last.is_some() {
        key.push("[ ] last move".into());
    }
    out.push_str(&wrap_key(&key, columns));
    out
}

/// The key's entries on lines of at most `width` columns, indented like the board; an entry is
/// never split ("+ throne" stays whole), and one wider than the line has a line to itself.
fn wrap_key(entries: &[String], width: usize) -> String {
    const INDENT: &str = "     ";
    const GAP: &str = "   ";
    let mut out = String::new();
    let mut line = String::new();
    for entry in entries {
        let columns = |s: &str| s.chars().count();
        if !line.is_empty()
            && columns(INDENT) + columns(&line) + columns(GAP) + columns(entry) > width
        {
            out.push_str(&format!("{INDENT}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(GAP);
        }
        line.push_str(entry);
    }
    if !line.is_empty() {
        out.push_str(&format!("{INDENT}{line}\n"));
    }
    out
}
