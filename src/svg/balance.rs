//! The balance chart of `tafl selfplay --svg`: how a set of games between equal players ended,
//! drawn with plotters (the first of the hand-written charts of `src/svg/` to move to it).

#[cfg(feature = "charts")]
use plotters::prelude::*;

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
/// how the games were played above and what the whiskers mean below. Drawn with plotters;
/// where plotters fails (never seen), a page saying so.
#[cfg(feature = "charts")]
pub fn balance_chart(balance: &Balance) -> String {
    let mut svg = String::new();
    match draw(balance, &mut svg) {
        Ok(()) => svg,
        Err(e) => format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"40\"><text x=\"8\" y=\"24\">cannot draw the chart: {}</text></svg>\n",
            super::escape(&format!("{e:?}"))
        ),
    }
}

#[cfg(feature = "charts")]
const WIDTH: u32 = 800;
#[cfg(feature = "charts")]
const HEIGHT: u32 = 330;
#[cfg(feature = "charts")]
const FONT: &str = "sans-serif";

/// Draws the chart into `svg`; the rows from the top: attackers, defenders, draws.
#[cfg(feature = "charts")]
fn draw(balance: &Balance, svg: &mut String) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let rows = [
        (
            "Attackers win",
            balance.attackers,
            RGBColor(0xb0, 0x30, 0x30),
        ),
        (
            "Defenders win",
            balance.defenders,
            RGBColor(0x30, 0x50, 0xb0),
        ),
        ("Draws", balance.draws, RGBColor(0x80, 0x80, 0x80)),
    ];
    let root = SVGBackend::with_string(svg, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let shown = |text: &str| super::shown(text);
    let title = format!(
        "{}: {} between equal computer players",
        shown(&balance.variant),
        crate::english::count(balance.games as usize, "game")
    );
    let text = |size: u32| TextStyle::from((FONT, size).into_font()).color(&BLACK);
    root.draw(&Text::new(
        title,
        (16, 12),
        (FONT, 20).into_font().style(FontStyle::Bold).color(&BLACK),
    ))?;
    root.draw(&Text::new(
        format!(
            "Each move thought about to {}, after {} random opening {} (seed {}).",
            shown(&balance.budget),
            balance.openings,
            if balance.openings == 1 {
                "ply"
            } else {
                "plies"
            },
            balance.seed,
        ),
        (16, 40),
        text(15),
    ))?;
    root.draw(&Text::new(
        format!(
            "A game still going after {} plies counts as a draw. Mean length: {:.1} plies.",
            balance.cap, balance.mean_plies
        ),
        (16, 58),
        text(15),
    ))?;
    root.draw(&Text::new(
        "Bars: the share of the games. Black lines: 95% Wilson intervals, the range where the",
        (16, HEIGHT as i32 - 40),
        text(14),
    ))?;
    root.draw(&Text::new(
        "share over many more such games would lie with 95% confidence.",
        (16, HEIGHT as i32 - 24),
        text(14),
    ))?;
    let plot = root.margin(80, 50, 0, 0);
    let mut chart = ChartBuilder::on(&plot)
        .margin_left(16)
        .margin_right(340)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0f64..100f64, 0f64..3f64)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(11)
        .x_label_formatter(&|v| format!("{v:.0}%"))
        .x_desc("share of the games")
        .label_style(text(14))
        .axis_desc_style(text(14))
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(0xd0, 0xd0, 0xd0))
        .draw()?;
    let games = balance.games.max(1) as f64;
    // Row i stands at y = 2.5 - i, so that the attackers are on top.
    let centre = |i: usize| 2.5 - i as f64;
    chart.draw_series(rows.iter().enumerate().map(|(i, (_, outcome, colour))| {
        let share = 100.0 * outcome.count as f64 / games;
        Rectangle::new(
            [
                (0.0, centre(i) - 0.27),
                (share.clamp(0.0, 100.0), centre(i) + 0.27),
            ],
            colour.filled(),
        )
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, (_, outcome, _))| {
        let (low, high, y) = (100.0 * outcome.low, 100.0 * outcome.high, centre(i));
        PathElement::new(
            vec![
                (low, y - 0.16),
                (low, y + 0.16),
                (low, y),
                (high, y),
                (high, y - 0.16),
                (high, y + 0.16),
            ],
            BLACK.stroke_width(2),
        )
    }))?;
    for (i, (label, outcome, _)) in rows.iter().enumerate() {
        let rate = outcome.count as f64 / games;
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
        chart.draw_series([
            EmptyElement::at((0.0, centre(i))) + Text::new(label.to_string(), (-104, -7), text(16)),
            EmptyElement::at((100.0, centre(i))) + Text::new(figures, (12, -6), text(15)),
        ])?;
    }
    root.present()
}
