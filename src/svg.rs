//! A picture of a variant's start position as SVG text (`tafl show VARIANT --svg FILE`): the
//! board with coordinates, the special squares the rules use, coloured and named in a legend,
//! and the pieces, one colour per side, the king ringed in gold and any other piece whose
//! capture decides the game ringed in red.

use std::fmt::Write as _;

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
    let width = usize::from(rules.board.width);
    let height = usize::from(rules.board.height);
    let regions = marked_regions(rules);
    let legend_rows = regions.len() + rules.pieces.len();
    let board_px = (width * CELL, height * CELL);
    let total_w = (board_px.0 + 2 * MARGIN).max(360);
    let total_h = TITLE + board_px.1 + 2 * MARGIN + legend_rows * LEGEND_ROW + 8;
    let left = (total_w - board_px.0) / 2;
    let top = TITLE + MARGIN;

    let mut out = String::new();
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

    // Squares, special ones filled with their region's colour.
    let _ = writeln!(
        out,
        r##"<g id="squares" stroke="#6b5a3a" stroke-width="1">"##
    );
    for rank in 0..height {
        for file in 0..width {
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
            let (x, y) = corner(left, top, height, square);
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
        }
    }
    let _ = writeln!(out, "</g>");

    // Coordinates on all four sides.
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

    // Pieces.
    let _ = writeln!(
        out,
        r#"<g id="pieces" font-size="16" text-anchor="middle">"#
    );
    for &(square, piece) in pieces {
        let (x, y) = corner(left, top, height, square);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let _ = writeln!(
            out,
            "{}",
            piece_glyph(rules, piece.symbol, cx, cy, &square.to_string())
        );
    }
    let _ = writeln!(out, "</g>");

    // Legend: the special squares, then the pieces.
    let _ = writeln!(out, r#"<g id="legend" font-size="13">"#);
    let mut y = top + board_px.1 + MARGIN + 6;
    let lx = 16;
    for (name, squares, fill) in &regions {
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
            piece_glyph(rules, piece.symbol, lx + 8, y + 8, "legend")
                .replace(r#"r="15""#, r#"r="9""#)
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
    let _ = writeln!(out, "</svg>");
    out
}

/// The top-left pixel of `square` (rank 1 at the bottom).
fn corner(left: usize, top: usize, height: usize, square: Square) -> (usize, usize) {
    (
        left + usize::from(square.file) * CELL,
        top + (height - 1 - usize::from(square.rank)) * CELL,
    )
}

/// The special squares to colour: every region a rule uses but the edge, the throne and the
/// corners first, each with its fill.
fn marked_regions(rules: &Rules) -> Vec<(String, Vec<Square>, &'static str)> {
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
fn piece_glyph(rules: &Rules, symbol: char, cx: usize, cy: usize, id: &str) -> String {
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
        r#"<g class="piece" data-square="{id}"><circle cx="{cx}" cy="{cy}" r="15" fill="{fill}"{ring}/><text x="{cx}" y="{}" fill="{ink}" font-weight="{weight}">{symbol}</text></g>"#,
        cy + 5
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// One outcome of a set of games for [`balance_chart`]: how many games ended so, and the 95%
/// interval of its rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Games that ended so.
    pub count: u64,
    /// The interval's lower end, a proportion from 0 to 1.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// What `tafl selfplay --svg` draws: the games' outcomes and how they were played.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// The variant's name.
    pub variant: String,
    /// Games played.
    pub games: u64,
    /// Games the attackers won.
    pub attackers: Outcome,
    /// Games the defenders won.
    pub defenders: Outcome,
    /// Games drawn, the capped ones included.
    pub draws: Outcome,
    /// Of the draws, games stopped at the ply limit.
    pub capped: u64,
    /// The ply limit.
    pub cap: u32,
    /// How far each move was thought about, to follow "to" (`depth 3`, `500 ms`).
    pub budget: String,
    /// Random plies at the start of each game, and their seed.
    pub openings: u32,
    /// The seed of the openings.
    pub seed: u64,
    /// The mean length of a game, in plies.
    pub mean_plies: f64,
}

/// The outcomes of a set of games as a bar chart a player can read on any background: an
/// opaque white page, a percentage axis with a grid, one bar per outcome with its 95% interval
/// drawn as a whisker, and the figures written next to each bar (count, rate, interval), with
/// how the games were played above and what the whiskers mean below.
pub fn balance_chart(balance: &Balance) -> String {
    const WIDTH: f64 = 800.0;
    const LEFT: f64 = 130.0;
    const PLOT: f64 = 300.0;
    const BAR: f64 = 24.0;
    const ROW: f64 = 44.0;
    const TOP: f64 = 96.0;
    let x = |share: f64| LEFT + share.clamp(0.0, 1.0) * PLOT;
    let rows = [
        ("Attackers win", balance.attackers, "#b03030"),
        ("Defenders win", balance.defenders, "#3050b0"),
        ("Draws", balance.draws, "#808080"),
    ];
    let axis_y = TOP + rows.len() as f64 * ROW;
    let height = axis_y + 86.0;
    let games = balance.games.max(1) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" fill="#000000">"##
    );
    let title = format!(
        "{}: {} between equal computer players",
        balance.variant,
        crate::english::count(balance.games as usize, "game")
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    // Opaque, so that the black text shows in a viewer with a dark background.
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="16" y="26" font-size="16" font-weight="bold">{}</text>"#,
        escape(&title)
    );
    let _ = writeln!(
        out,
        r#"<text x="16" y="48" font-size="12">Each move thought about to {}, after {} random opening {} (seed {}).</text>"#,
        escape(&balance.budget),
        balance.openings,
        if balance.openings == 1 {
            "ply"
        } else {
            "plies"
        },
        balance.seed,
    );
    let _ = writeln!(
        out,
        r#"<text x="16" y="66" font-size="12">A game still going after {} plies counts as a draw. Mean length: {:.1} plies.</text>"#,
        balance.cap, balance.mean_plies
    );
    // The grid and the axis, every 25%.
    let _ = writeln!(
        out,
        r##"<g id="axis" font-size="11" text-anchor="middle">"##
    );
    for tick in 0..=4 {
        let share = f64::from(tick) / 4.0;
        let _ = writeln!(
            out,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{axis_y:.1}" stroke="#d0d0d0" stroke-width="1"/><text x="{0:.1}" y="{2:.1}">{3}%</text>"##,
            x(share),
            TOP - 10.0,
            axis_y + 16.0,
            tick * 25
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT:.1}" y1="{axis_y:.1}" x2="{:.1}" y2="{axis_y:.1}" stroke="#000000" stroke-width="1"/>"##,
        x(1.0)
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}">share of the games</text>"#,
        x(0.5),
        axis_y + 32.0
    );
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, r#"<g id="bars" font-size="13">"#);
    for (index, (label, outcome, colour)) in rows.iter().enumerate() {
        let top = TOP + index as f64 * ROW;
        let middle = top + BAR / 2.0;
        let rate = outcome.count as f64 / games;
        let _ = writeln!(
            out,
            r#"<text x="16" y="{:.1}">{label}</text>"#,
            middle + 5.0
        );
        let _ = writeln!(
            out,
            r#"<rect x="{LEFT:.1}" y="{top:.1}" width="{:.1}" height="{BAR:.1}" fill="{colour}"/>"#,
            x(rate) - LEFT
        );
        // The interval: a whisker with end caps.
        let (low, high) = (x(outcome.low), x(outcome.high));
        let _ = writeln!(
            out,
            r##"<path d="M{low:.1} {:.1}V{:.1}M{low:.1} {middle:.1}H{high:.1}M{high:.1} {:.1}V{:.1}" stroke="#000000" stroke-width="2" fill="none"/>"##,
            middle - 7.0,
            middle + 7.0,
            middle - 7.0,
            middle + 7.0
        );
        let mut figures = format!(
            "{} of {} ({:.1}%; 95%: {:.1}–{:.1}%)",
            outcome.count,
            balance.games,
            100.0 * rate,
            100.0 * outcome.low,
            100.0 * outcome.high
        );
        if *label == "Draws" && balance.capped > 0 {
            figures.push_str(&format!(", {} at the ply limit", balance.capped));
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
            x(1.0) + 12.0,
            middle + 4.0,
            escape(&figures)
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r#"<text x="16" y="{:.1}" font-size="11">Bars: the share of the games. Black lines: 95% Wilson intervals, the range where the</text>"#,
        height - 26.0
    );
    let _ = writeln!(
        out,
        r#"<text x="16" y="{:.1}" font-size="11">share over many more such games would lie with 95% confidence.</text>"#,
        height - 12.0
    );
    let _ = writeln!(out, "</svg>");
    out
}
