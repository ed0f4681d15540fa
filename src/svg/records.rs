//! The chart of `tafl games stats --svg`: who won the recorded games and how they ended, in
//! the style of `tafl selfplay`'s chart (the same page, grid, whiskers and figures).

use std::fmt::Write as _;

use super::{escape, Outcome};

/// What `tafl games stats --svg` draws.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordsChart {
    /// The variant's name.
    pub variant: String,
    /// Games read.
    pub games: u64,
    /// Games with a result (a win or a draw): the whole of the first panel's shares.
    pub decided: u64,
    /// What the attackers and the defenders are called, for the first two bars.
    pub sides: [String; 2],
    /// The attackers' wins, the defenders' and the draws, with their 95% intervals.
    pub results: [Outcome; 3],
    /// How the games ended, in words, and how many ended so.
    pub endings: Vec<(String, u64)>,
    /// The games' lengths in plies: the shortest, the median and the longest.
    pub plies: [usize; 3],
}

/// The page's width; the bars' left end and full length; a bar's thickness and a row's height.
const WIDTH: f64 = 860.0;
const LEFT: f64 = 290.0;
const PLOT: f64 = 300.0;
const BAR: f64 = 20.0;
const ROW: f64 = 32.0;

/// Two panels on one page: the results as shares of the games with a result, each with its
/// 95% interval, on a percentage axis; then how the games ended, as counts of games on an axis
/// of its own, so that neither reads on the other's scale.
pub fn records_chart(chart: &RecordsChart) -> String {
    let results_top = 84.0;
    let results_axis = results_top + 3.0 * ROW;
    let endings_top = results_axis + 84.0;
    let endings_axis = endings_top + chart.endings.len().max(1) as f64 * ROW;
    let height = endings_axis + 48.0;
    let mut out = String::new();
    let title = format!(
        "{}: {} recorded",
        chart.variant,
        crate::english::count(chart.games as usize, "game")
    );
    super::chart_page(&mut out, WIDTH, height, &title);
    // Writing into a String cannot fail; the `let _ =` in this module discard that error.
    let _ = writeln!(
        out,
        r#"<text x="16" y="48" font-size="12">{} with a result; length in plies: median {}, {} to {}.</text>"#,
        chart.decided, chart.plies[1], chart.plies[0], chart.plies[2]
    );

    heading(&mut out, results_top - 16.0, "Who won");
    let share = |value: f64| LEFT + value.clamp(0.0, 1.0) * PLOT;
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|tick| (share(f64::from(tick) / 4.0), format!("{}%", tick * 25)))
        .collect();
    axis(
        &mut out,
        results_top,
        results_axis,
        &ticks,
        "share of the games with a result",
    );
    let names = [chart.sides[0].as_str(), chart.sides[1].as_str(), "Draws"];
    let colours = ["#b03030", "#3050b0", "#808080"];
    let decided = chart.decided.max(1) as f64;
    for (index, ((name, outcome), colour)) in
        names.iter().zip(chart.results).zip(colours).enumerate()
    {
        let top = results_top + 6.0 + index as f64 * ROW;
        let middle = top + BAR / 2.0;
        let rate = outcome.count as f64 / decided;
        label(&mut out, middle, name);
        let _ = writeln!(
            out,
            r#"<rect x="{LEFT:.1}" y="{top:.1}" width="{:.1}" height="{BAR:.1}" fill="{colour}"/>"#,
            share(rate) - LEFT
        );
        let (low, high) = (share(outcome.low), share(outcome.high));
        let _ = writeln!(
            out,
            r##"<path d="M{low:.1} {:.1}V{:.1}M{low:.1} {middle:.1}H{high:.1}M{high:.1} {:.1}V{:.1}" stroke="#000000" stroke-width="2" fill="none"/>"##,
            middle - 6.0,
            middle + 6.0,
            middle - 6.0,
            middle + 6.0
        );
        figures(
            &mut out,
            share(1.0),
            middle,
            &format!(
                "{} ({:.1}%; 95%: {:.1}–{:.1}%)",
                outcome.count,
                100.0 * rate,
                100.0 * outcome.low,
                100.0 * outcome.high
            ),
        );
    }

    heading(&mut out, endings_top - 16.0, "How the games ended");
    let most = chart.endings.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let step = tick_step(most);
    let top_tick = most.div_ceil(step).max(1) * step;
    let count = |n: u64| LEFT + PLOT * n as f64 / top_tick as f64;
    let ticks: Vec<(f64, String)> = (0..=top_tick / step)
        .map(|i| (count(i * step), (i * step).to_string()))
        .collect();
    axis(&mut out, endings_top, endings_axis, &ticks, "games");
    for (index, (words, n)) in chart.endings.iter().enumerate() {
        let top = endings_top + 6.0 + index as f64 * ROW;
        let middle = top + BAR / 2.0;
        label(&mut out, middle, words);
        let _ = writeln!(
            out,
            r##"<rect x="{LEFT:.1}" y="{top:.1}" width="{:.1}" height="{BAR:.1}" fill="#5b8c5a"/>"##,
            count(*n) - LEFT
        );
        figures(&mut out, share(1.0), middle, &n.to_string());
    }
    let _ = writeln!(out, "</svg>");
    out
}

/// A step of 1, 2 or 5 times a power of ten that divides `0..=most` into at most five steps.
fn tick_step(most: u64) -> u64 {
    let mut power = 1;
    loop {
        for step in [power, 2 * power, 5 * power] {
            if most.div_ceil(step) <= 5 {
                return step;
            }
        }
        power *= 10;
    }
}

/// A panel's heading.
fn heading(out: &mut String, y: f64, text: &str) {
    let _ = writeln!(
        out,
        r#"<text x="16" y="{y:.1}" font-size="14" font-weight="bold">{}</text>"#,
        escape(text)
    );
}

/// A panel's grid from `top` down to its axis at `bottom`, the ticks' labels under it and the
/// axis' name under those.
fn axis(out: &mut String, top: f64, bottom: f64, ticks: &[(f64, String)], name: &str) {
    let _ = writeln!(out, r#"<g font-size="11" text-anchor="middle">"#);
    for (x, text) in ticks {
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="#d0d0d0" stroke-width="1"/><text x="{x:.1}" y="{:.1}">{}</text>"##,
            bottom + 14.0,
            escape(text)
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT:.1}" y1="{bottom:.1}" x2="{:.1}" y2="{bottom:.1}" stroke="#000000" stroke-width="1"/>"##,
        LEFT + PLOT
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
        LEFT + PLOT / 2.0,
        bottom + 28.0,
        escape(name)
    );
    let _ = writeln!(out, "</g>");
}

/// A bar's label, right-aligned against the bars.
fn label(out: &mut String, middle: f64, text: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="end">{}</text>"#,
        LEFT - 10.0,
        middle + 4.5,
        escape(text)
    );
}

/// A bar's figures, after the panel's right end.
fn figures(out: &mut String, right: f64, middle: f64, text: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
        right + 12.0,
        middle + 4.0,
        escape(text)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_divide_the_largest_count_into_at_most_five_round_steps() {
        assert_eq!(tick_step(0), 1);
        assert_eq!(tick_step(4), 1);
        assert_eq!(tick_step(7), 2);
        assert_eq!(tick_step(426), 100);
        assert_eq!(tick_step(1069), 500);
        for most in 0..3000 {
            let step = tick_step(most);
            assert!(most.div_ceil(step) <= 5, "{most}: {step}");
        }
    }

    #[test]
    fn the_endings_have_their_own_count_axis_and_the_results_a_share_axis() {
        let outcome = |count| Outcome {
            count,
            low: 0.1,
            high: 0.6,
        };
        let svg = records_chart(&RecordsChart {
            variant: "Copenhagen & co".to_string(),
            games: 426,
            decided: 420,
            sides: ["Attackers".to_string(), "Defenders".to_string()],
            results: [outcome(200), outcome(210), outcome(10)],
            endings: vec![
                ("the king escaped".to_string(), 426),
                ("lost on time".to_string(), 3),
            ],
            plies: [5, 41, 300],
        });
        assert!(svg.contains("Copenhagen &amp; co: 426 games recorded"));
        assert!(svg.contains(">share of the games with a result<"));
        assert!(svg.contains(">games<"));
        // 426 games end at the count axis' 500 tick, not at a 100% one.
        assert!(svg.contains(">500<"));
        assert!(svg.contains(">the king escaped<"));
        assert!(svg.contains("200 (47.6%; 95%: 10.0–60.0%)"));
    }
}
