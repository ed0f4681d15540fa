//! A picture of a variant's start position as SVG text (`tafl show VARIANT --svg FILE`): the
//! board with coordinates, the special squares the rules use, coloured and named in a legend,
//! and the pieces, one colour per side, the king ringed in gold and any other piece whose
//! capture decides the game ringed in red.

mod balance;
mod ladder;
mod records;

use std::fmt::Write as _;

#[cfg(feature = "charts")]
pub use balance::balance_chart;
pub use balance::{Balance, Outcome};
pub use ladder::{ladder_chart, LadderChart, LadderPoint};
pub use records::{records_chart, RecordsChart};

use crate::explain::used_regions;
use crate::ir::{PieceKind, Role, Rules, Side, Square};

const CELL: usize = 40;
const MARGIN: usize = 28;
const TITLE: usize = 34;
const LEGEND_ROW: usize = 22;

/// Fill colours for the special squares: the throne, the corners, then other regions in order.
const THRONE_FILL: &str = "#e8c66a";
const CORNER_FILL: &str = "#8c8c8c";
const REGION_FILLS: [&str; 4] = ["#b7cfe8", "#c9e3b5", "#e7b9c9", "#d8c8ef"];
const LIGHT_SQUARE: &str = "#f3e9d2";
const DARK_SQUARE: &str = "#eadcbc";

/// The start position of `rules` as a standalone SVG document (for malformed rules, a document
/// saying what is wrong with them).
pub fn start_position_svg(rules: &Rules) -> String {
    position_svg(rules, &rules.start_pieces(), &rules.name)
}

/// A position of `rules`, the pieces given by square, as a standalone SVG document titled
/// `title` (for malformed rules, a document saying what is wrong with them).
pub fn position_svg(rules: &Rules, pieces: &[(Square, &PieceKind)], title: &str) -> String {
    if let Err(error) = rules.validate() {
        return format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"40\"><text x=\"8\" y=\"24\">malformed rules: {}</text></svg>\n",
            escape(&error.to_string())
        );
    }
    let regions = marked_regions(rules);
    let layout = Layout::new(rules, regions.len() + rules.pieces.len());
    // Writing into a String cannot fail; the `let _ =` in these functions discard that error.
    let mut out = String::new();
    write_frame(&mut out, &layout, title);
    write_squares(&mut out, &layout, &regions);
    write_coordinates(&mut out, &layout);
    write_pieces(&mut out, &layout, rules, pieces);
    write_legend(&mut out, &layout, rules, &regions);
    let _ = writeln!(out, "</svg>");
    out
}

/// Where the parts of a position's picture go, in pixels.
struct Layout {
    /// Files and ranks.
    width: usize,
    height: usize,
    /// The board's size.
    board_px: (usize, usize),
    /// The whole picture's size.
    total_w: usize,
    total_h: usize,
    /// The board's top-left corner.
    left: usize,
    top: usize,
}

impl Layout {
    fn new(rules: &Rules, legend_rows: usize) -> Layout {
        let width = usize::from(rules.board.width);
        let height = usize::from(rules.board.height);
        let board_px = (width * CELL, height * CELL);
        let total_w = (board_px.0 + 2 * MARGIN).max(360);
        let total_h = TITLE + board_px.1 + 2 * MARGIN + legend_rows * LEGEND_ROW + 8;
        Layout {
            width,
            height,
            board_px,
            total_w,
            total_h,
            left: (total_w - board_px.0) / 2,
            top: TITLE + MARGIN,
        }
    }
}

/// The document's opening tag, title and white page.
fn write_frame(out: &mut String, layout: &Layout, title: &str) {
    let Layout {
        total_w, total_h, ..
    } = *layout;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{total_w}" height="{total_h}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="22" font-size="16" font-weight="bold" text-anchor="middle">{}</text>"#,
        total_w / 2,
        escape(title)
    );
}

/// The squares, special ones filled with their region's colour.
fn write_squares(out: &mut String, layout: &Layout, regions: &[MarkedRegion]) {
    let _ = writeln!(
        out,
        r##"<g id="squares" stroke="#6b5a3a" stroke-width="1">"##
    );
    for rank in 0..layout.height {
        for file in 0..layout.width {
            let square = Square::new(file as u8, rank as u8);
            let fill = regions
                .iter()
                .find(|(_, squares, _)| squares.contains(&square))
                .map_or(
                    if (file + rank) % 2 == 0 {
                        DARK_SQUARE
                    } else {
                        LIGHT_SQUARE
                    },
                    |(_, _, fill)| fill,
                );
            let (x, y) = corner(layout.left, layout.top, layout.height, square);
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
        }
    }
    let _ = writeln!(out, "</g>");
}

/// The coordinates on all four sides.
fn write_coordinates(out: &mut String, layout: &Layout) {
    let Layout {
        width,
        height,
        board_px,
        left,
        top,
        ..
    } = *layout;
    let _ = writeln!(
        out,
        r##"<g id="coordinates" font-size="12" fill="#444444" text-anchor="middle">"##
    );
    for file in 0..width {
        let x = left + file * CELL + CELL / 2;
        let letter = (b'a' + file as u8) as char;
        let _ = writeln!(out, r#"<text x="{x}" y="{}">{letter}</text>"#, top - 9);
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}">{letter}</text>"#,
            top + board_px.1 + 18
        );
    }
    for rank in 0..height {
        let y = top + (height - 1 - rank) * CELL + CELL / 2 + 4;
        let number = rank + 1;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}">{number}</text>"#,
            left - MARGIN / 2
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}">{number}</text>"#,
            left + board_px.0 + MARGIN / 2
        );
    }
    let _ = writeln!(out, "</g>");
}

/// The pieces on their squares.
fn write_pieces(out: &mut String, layout: &Layout, rules: &Rules, pieces: &[(Square, &PieceKind)]) {
    let _ = writeln!(
        out,
        r#"<g id="pieces" font-size="16" text-anchor="middle">"#
    );
    for &(square, piece) in pieces {
        let (x, y) = corner(layout.left, layout.top, layout.height, square);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let _ = writeln!(
            out,
            "{}",
            piece_glyph(
                rules,
                piece.symbol,
                (cx, cy, BOARD_PIECE),
                &square.to_string()
            )
        );
    }
    let _ = writeln!(out, "</g>");
}

/// The legend: the special squares, then the pieces.
fn write_legend(out: &mut String, layout: &Layout, rules: &Rules, regions: &[MarkedRegion]) {
    let _ = writeln!(out, r#"<g id="legend" font-size="13">"#);
    let mut y = layout.top + layout.board_px.1 + MARGIN + 6;
    let lx = 16;
    for (name, squares, fill) in regions {
        let _ = writeln!(
            out,
            r##"<rect x="{lx}" y="{}" width="16" height="16" fill="{fill}" stroke="#6b5a3a"/>"##,
            y
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{} ({})</text>"#,
            lx + 24,
            y + 13,
            escape(name),
            if squares.len() > 8 {
                crate::english::count(squares.len(), "square")
            } else {
                squares
                    .iter()
                    .map(Square::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        );
        y += LEGEND_ROW;
    }
    for piece in &rules.pieces {
        let _ = writeln!(
            out,
            "{}",
            piece_glyph(rules, piece.symbol, (lx + 8, y + 8, LEGEND_PIECE), "legend")
        );
        let role = match piece.role {
            Role::King => "king",
            Role::Soldier => "soldier",
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{} {}: {} of {}</text>"#,
            lx + 24,
            y + 13,
            piece.symbol,
            escape(&piece.display),
            role,
            escape(&rules.sides.get(piece.side).name)
        );
        y += LEGEND_ROW;
    }
    let _ = writeln!(out, "</g>");
}

/// The top-left pixel of `square` (rank 1 at the bottom).
fn corner(left: usize, top: usize, height: usize, square: Square) -> (usize, usize) {
    (
        left + usize::from(square.file) * CELL,
        top + (height - 1 - usize::from(square.rank)) * CELL,
    )
}

/// A special square's region as the picture shows it: name, squares, fill.
type MarkedRegion = (String, Vec<Square>, &'static str);

/// The special squares to colour: every region a rule uses but the edge, the throne and the
/// corners first, each with its fill.
fn marked_regions(rules: &Rules) -> Vec<MarkedRegion> {
    let used = used_regions(rules);
    let mut names: Vec<&str> = Vec::new();
    for name in ["throne", "corners"] {
        if used.contains(&name) {
            names.push(name);
        }
    }
    for region in &rules.regions {
        let name = region.name.as_str();
        if used.contains(&name) && name != "edge" && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut others = REGION_FILLS.iter().cycle();
    names
        .into_iter()
        .filter_map(|name| {
            let region = rules.region(name)?;
            let fill = match name {
                "throne" => THRONE_FILL,
                "corners" => CORNER_FILL,
                _ => others.next().copied().unwrap_or(REGION_FILLS[0]),
            };
            Some((name.to_string(), region.squares.clone(), fill))
        })
        .collect()
}

/// A side's piece colours (fill, outline, letter): from the side's name when it is a colour
/// ("Black", "White"), else dark attackers and light defenders.
fn side_colours(rules: &Rules, side: Side) -> (&'static str, &'static str, &'static str) {
    const DARK: (&str, &str, &str) = ("#2b2b2b", "#000000", "#ffffff");
    const LIGHT: (&str, &str, &str) = ("#fbfbf5", "#333333", "#000000");
    let name = rules.sides.get(side).name.to_lowercase();
    if name.starts_with("black") {
        DARK
    } else if name.starts_with("white") {
        LIGHT
    } else if side == Side::Attackers {
        DARK
    } else {
        LIGHT
    }
}

/// One piece: a disc in its side's colours with its symbol; a gold ring for a king, a red ring
/// for another piece whose capture decides the game.
/// A piece's radius on the board and in the legend, in pixels.
const BOARD_PIECE: usize = 15;
const LEGEND_PIECE: usize = 9;

/// A piece's circle and letter at `(cx, cy)` with radius `r`: the letter centred and sized to
/// the circle, so that it stays inside it at any radius.
fn piece_glyph(
    rules: &Rules,
    symbol: char,
    (cx, cy, r): (usize, usize, usize),
    id: &str,
) -> String {
    let Some(piece) = rules.piece_by_symbol(symbol) else {
        return String::new();
    };
    let (fill, stroke, ink) = side_colours(rules, piece.side);
    let decisive = rules
        .outcome
        .decisive_captures
        .iter()
        .any(|capture| capture.piece == piece.name && capture.winner != piece.side);
    let ring = if piece.role == Role::King {
        r##" stroke-width="4" stroke="#d4a017""##.to_string()
    } else if decisive {
        r##" stroke-width="4" stroke="#c0392b""##.to_string()
    } else {
        format!(r#" stroke-width="1.5" stroke="{stroke}""#)
    };
    let weight = if piece.role == Role::King {
        "bold"
    } else {
        "normal"
    };
    format!(
        r#"<g class="piece" data-square="{id}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}"{ring}/><text x="{cx}" y="{cy}" font-size="{}" text-anchor="middle" dominant-baseline="central" fill="{ink}" font-weight="{weight}">{symbol}</text></g>"#,
        // A capital is about 0.7 of the font size high: 1.1 r keeps it within the circle.
        r * 11 / 10
    )
}

/// A chart's opening: the document's tag, its `<title>`, an opaque white page (so that the black
/// text shows in a viewer with a dark background) and the title in bold at the top left.
fn chart_page(out: &mut String, width: f64, height: f64, title: &str) {
    // Writing into a String cannot fail; the `let _ =` discard that error.
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" fill="#000000">"##
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="16" y="26" font-size="16" font-weight="bold">{}</text>"#,
        escape(title)
    );
}

/// `text` with the characters XML 1.0 does not allow in a document made visible: a control
/// character as its escape (`\u{1b}`, as every face shows it), U+FFFE and U+FFFF as U+FFFD.
/// What the charts drawn by plotters (which escapes `<`, `&` and `>` itself) are given.
fn shown(text: &str) -> String {
    crate::printable::shown(text)
        .chars()
        .map(|c| match c {
            // Tab, newline and carriage return are all XML allows below U+0020; `shown` keeps
            // them, and the rest of C0 it has escaped.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => '\u{fffd}',
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// `text` with the characters XML gives a meaning escaped, and those XML 1.0 does not allow
/// in a document made visible: a control character as its escape (`\u{1b}`, as every face
/// shows it), U+FFFE and U+FFFF as U+FFFD, so that every picture stays well-formed.
fn escape(text: &str) -> String {
    shown(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}
