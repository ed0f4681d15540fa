//! The chart of `tafl balance --svg`: the attackers' share of the decisive games at each rung
//! of the ladder, with its 95% interval, against an even game's half.

use std::fmt::Write as _;

use super::escape;

/// One rung for [`ladder_chart`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderPoint {
    /// The budget of a move, in milliseconds.
    pub ms: u64,
    /// Games played at this rung.
    pub games: u64,
    /// The attackers' share of the decisive games; `None` when none was decisive.
    pub share: Option<f64>,
    /// The share's 95% interval.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// What `tafl balance --svg` draws.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderChart {
    /// The variant's name.
    pub variant: String,
    /// The rungs, lowest budget first.
    pub rungs: Vec<LadderPoint>,
    /// The verdict, in words, written under the chart.
    pub verdict: String,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 40.0;
const TOP: f64 = 70.0;
const PLOT: f64 = 250.0;

/// The y of a share from 0 to 1.
fn y(share: f64) -> f64 {
    TOP + (1.0 - share.clamp(0.0, 1.0)) * PLOT
}

/// The ladder as a standalone SVG document: one column a rung, equally spaced, the share as a
/// dot with its interval as a whisker, a dashed line at an even game, and the verdict below.
pub fn ladder_chart(chart: &LadderChart) -> String {
    let mut out = String::new();
    let title = format!(
        "{}: the attackers' share of the decisive games",
        chart.variant
    );
    super::chart_page(&mut out, WIDTH, HEIGHT, &title);
    // Writing into a String cannot fail; the `let _ =` discard that error.
    let _ = writeln!(
        out,
        r#"<text x="16" y="48" font-size="12">Self-play between equal computer players at rising budgets a move; whiskers: 95% Wilson intervals.</text>"#
    );
    // The axis, every 25%, and an even game's half dashed.
    for tick in 0..=4 {
        let share = f64::from(tick) / 4.0;
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="{2}" stroke-width="1"{3}/><text x="{4:.1}" y="{5:.1}" font-size="11" text-anchor="end">{6}%</text>"##,
            y(share),
            WIDTH - RIGHT,
            if tick == 2 { "#606060" } else { "#d8d8d8" },
            if tick == 2 {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            },
            LEFT - 8.0,
            y(share) + 4.0,
            tick * 25
        );
    }
    let columns = chart.rungs.len().max(1) as f64;
    let step = (WIDTH - LEFT - RIGHT) / columns;
    for (index, rung) in chart.rungs.iter().enumerate() {
        let x = LEFT + step * (index as f64 + 0.5);
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{} ms a move</text><text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle">{} games</text>"#,
            TOP + PLOT + 20.0,
            rung.ms,
            TOP + PLOT + 36.0,
            rung.games
        );
        match rung.share {
            Some(share) => {
                let _ = writeln!(
                    out,
                    r##"<path d="M{0:.1} {1:.1}H{2:.1}M{x:.1} {1:.1}V{3:.1}M{0:.1} {3:.1}H{2:.1}" stroke="#000000" stroke-width="2" fill="none"/><circle cx="{x:.1}" cy="{4:.1}" r="6" fill="#b03030"/><text x="{5:.1}" y="{6:.1}" font-size="12">{7:.2}</text>"##,
                    x - 8.0,
                    y(rung.high),
                    x + 8.0,
                    y(rung.low),
                    y(share),
                    x + 12.0,
                    y(share) + 4.0,
                    share
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">no decisive game</text>"#,
                    y(0.5) - 8.0
                );
            }
        }
    }
    let _ = writeln!(
        out,
        r#"<text x="16" y="{:.1}" font-size="12">{}</text>"#,
        HEIGHT - 28.0,
        escape(&chart.verdict)
    );
    let _ = writeln!(out, "</svg>");
    out
}
