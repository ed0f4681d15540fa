//! The balance chart of `tafl selfplay --svg`: how a set of games between equal players ended.

use std::fmt::Write as _;

use super::escape;

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
    let rows = [
        ("Attackers win", balance.attackers, "#b03030"),
        ("Defenders win", balance.defenders, "#3050b0"),
        ("Draws", balance.draws, "#808080"),
    ];
    let axis_y = TOP + rows.len() as f64 * ROW;
    let height = axis_y + 86.0;
    // Writing into a String cannot fail; the `let _ =` in these functions discard that error.
    let mut out = String::new();
    write_heading(&mut out, balance, height);
    write_axis(&mut out, axis_y);
    let _ = writeln!(out, r#"<g id="bars" font-size="13">"#);
    for (index, row) in rows.iter().enumerate() {
        write_bar(&mut out, balance, TOP + index as f64 * ROW, row);
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

/// The page's width, the bars' left end and full length, a bar's thickness, a row's height and
/// the first row's top, in pixels.
const WIDTH: f64 = 800.0;
const LEFT: f64 = 130.0;
const PLOT: f64 = 300.0;
const BAR: f64 = 24.0;
const ROW: f64 = 44.0;
const TOP: f64 = 96.0;

/// The x of a share of the games, from 0 to 1.
fn x(share: f64) -> f64 {
    LEFT + share.clamp(0.0, 1.0) * PLOT
}

/// The document's opening tag, the white page, the title and how the games were played.
fn write_heading(out: &mut String, balance: &Balance, height: f64) {
    let title = format!(
        "{}: {} between equal computer players",
        balance.variant,
        crate::english::count(balance.games as usize, "game")
    );
    super::chart_page(out, WIDTH, height, &title);
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
}

/// The grid and the axis, every 25%.
fn write_axis(out: &mut String, axis_y: f64) {
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
}

/// One outcome's bar at `top`: its label, the bar, the interval's whisker and the figures.
fn write_bar(
    out: &mut String,
    balance: &Balance,
    top: f64,
    (label, outcome, colour): &(&str, Outcome, &str),
) {
    let games = balance.games.max(1) as f64;
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
