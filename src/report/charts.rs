//! The report's charts, drawn with plotters into SVG text: who won (each share with its 95%
//! interval), how long games last, the attackers' evaluation, the choices, the pieces and the
//! king's distance to escape over the game, and where the moves went on the board.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::Measures;

/// A chart that plotters could not draw.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the `{chart}` chart: {message}")]
pub struct ChartError {
    /// Which chart.
    pub chart: &'static str,
    /// plotters' words.
    pub message: String,
}

const SIZE: (u32, u32) = (640, 360);
const FONT: &str = "sans-serif";
const ATTACKERS: RGBColor = RGBColor(0x3b, 0x3b, 0x3b);
const DEFENDERS: RGBColor = RGBColor(0xc0, 0x8a, 0x2e);
const DRAWS: RGBColor = RGBColor(0x8c, 0x9d, 0xb5);
const LINE: RGBColor = RGBColor(0x2b, 0x5c, 0x9e);

/// Every chart of the report of `variant`, as (file stem, SVG document), in the order a page
/// shows them.
///
/// # Errors
/// A chart plotters cannot draw (never seen: the figures are finite and the ranges non-empty).
pub fn charts(variant: &str, m: &Measures) -> Result<Vec<(&'static str, String)>, ChartError> {
    let name = printable(variant);
    let c = &m.curves;
    let kings: Vec<(f64, f64)> = c
        .king_distance
        .iter()
        .enumerate()
        .filter_map(|(ply, d)| d.map(|d| (ply as f64, d)))
        .collect();
    let mut out = vec![
        ("outcome", outcome(&name, m)?),
        ("duration", duration(&name, m)?),
        (
            "evaluation",
            lines(
                "evaluation",
                &format!("{name}: the attackers' evaluation (soldiers), mean over games"),
                "ply",
                &[("attackers' evaluation", LINE, indexed(&c.eval))],
            )?,
        ),
        (
            "branching",
            lines(
                "branching",
                &format!("{name}: legal moves a position"),
                "ply",
                &[("legal moves", LINE, indexed(&c.branching))],
            )?,
        ),
        (
            "pieces",
            lines(
                "pieces",
                &format!("{name}: pieces on the board"),
                "ply",
                &[
                    ("attackers", ATTACKERS, indexed(&c.attackers)),
                    ("defenders", DEFENDERS, indexed(&c.defenders)),
                ],
            )?,
        ),
    ];
    if !kings.is_empty() {
        out.push((
            "king",
            lines(
                "king",
                &format!("{name}: the king's distance to escape (steps)"),
                "ply",
                &[("distance", DEFENDERS, kings)],
            )?,
        ));
    }
    out.push(("board", board(&name, m)?));
    Ok(out)
}

/// The text as every face shows it (a control character as its escape, `\u{1b}`): a
/// variant's name comes from its file, and XML allows no control character. plotters escapes
/// `<`, `>` and `&` itself.
fn printable(text: &str) -> String {
    crate::printable::shown(text)
        .chars()
        .map(|c| match c {
            c if c.is_control() => '\u{fffd}',
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

fn indexed(values: &[f64]) -> Vec<(f64, f64)> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as f64, v))
        .collect()
}

/// plotters' error in words, for `chart`.
fn failed<E: std::fmt::Debug>(chart: &'static str) -> impl Fn(E) -> ChartError {
    move |e| ChartError {
        chart,
        message: format!("{e:?}"),
    }
}

/// Each result's share as a bar, its 95% interval as a whisker.
fn outcome(name: &str, m: &Measures) -> Result<String, ChartError> {
    let fail = failed("outcome");
    let o = &m.outcome;
    let bars = [
        ("attackers win", o.attackers, ATTACKERS),
        ("defenders win", o.defenders, DEFENDERS),
        ("draws", o.draws, DRAWS),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(&fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{name}: who won {} games (95% intervals)", m.games),
                (FONT, 18),
            )
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(48)
            .build_cartesian_2d((0u32..3u32).into_segmented(), 0f64..100f64)
            .map_err(&fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc("% of games")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => bars
                    .get(*i as usize)
                    .map_or(String::new(), |b| b.0.to_string()),
                SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
            })
            .draw()
            .map_err(&fail)?;
        chart
            .draw_series(bars.iter().zip(0u32..).map(|((_, rate, color), i)| {
                Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), 100.0 * rate.rate),
                    ],
                    color.filled(),
                )
            }))
            .map_err(&fail)?;
        chart
            .draw_series(bars.iter().zip(0u32..).map(|((_, rate, _), i)| {
                PathElement::new(
                    vec![
                        (SegmentValue::CenterOf(i), 100.0 * rate.low),
                        (SegmentValue::CenterOf(i), 100.0 * rate.high),
                    ],
                    RED.stroke_width(2),
                )
            }))
            .map_err(&fail)?;
        root.present().map_err(&fail)?;
    }
    Ok(svg)
}

/// The games' lengths as a histogram of twelve bins.
fn duration(name: &str, m: &Measures) -> Result<String, ChartError> {
    let fail = failed("duration");
    let lengths: Vec<usize> = m.per_game.iter().map(|g| g.plies as usize).collect();
    let bins = 12usize;
    let top = lengths.iter().copied().max().unwrap_or(0) + 1;
    let step = top.div_ceil(bins).max(1);
    let mut counts = vec![0u32; bins];
    for &n in &lengths {
        counts[(n / step).min(bins - 1)] += 1;
    }
    let highest = f64::from(counts.iter().copied().max().unwrap_or(0).max(1));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(&fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{name}: game length, median {} plies", m.duration.median),
                (FONT, 18),
            )
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(40)
            .build_cartesian_2d((0u32..bins as u32).into_segmented(), 0f64..highest * 1.1)
            .map_err(&fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("plies")
            .y_desc("games")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => format!("{}", *i as usize * step),
                SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
            })
            .draw()
            .map_err(&fail)?;
        chart
            .draw_series(counts.iter().zip(0u32..).map(|(&count, i)| {
                Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), f64::from(count)),
                    ],
                    LINE.mix(0.8).filled(),
                )
            }))
            .map_err(&fail)?;
        root.present().map_err(&fail)?;
    }
    Ok(svg)
}

/// One line of a chart: its name in the legend, its colour, its points.
type Series<'a> = (&'a str, RGBColor, Vec<(f64, f64)>);

/// Lines over the game, each named in a legend.
fn lines(
    chart_name: &'static str,
    title: &str,
    x_desc: &str,
    series: &[Series<'_>],
) -> Result<String, ChartError> {
    let fail = failed(chart_name);
    let points = series.iter().flat_map(|s| s.2.iter());
    let (mut x_max, mut y_min, mut y_max) = (1.0f64, 0.0f64, 1.0f64);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    let pad = (y_max - y_min) * 0.05;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(&fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 18))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..x_max, (y_min - pad)..(y_max + pad))
            .map_err(&fail)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .draw()
            .map_err(&fail)?;
        for (label, color, values) in series {
            let color = *color;
            chart
                .draw_series(LineSeries::new(
                    values.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(&fail)?
                .label(*label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(&fail)?;
        root.present().map_err(&fail)?;
    }
    Ok(svg)
}

/// The board, each square shaded by how many moves ended on it.
fn board(name: &str, m: &Measures) -> Result<String, ChartError> {
    let fail = failed("board");
    let landed = &m.board_coverage.landed;
    let height = landed.len() as u32;
    let width = landed.first().map_or(0, Vec::len) as u32;
    let most = f64::from(landed.iter().flatten().copied().max().unwrap_or(0).max(1));
    let side = 28 * width.max(height).max(1) + 100;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side, side + 30)).into_drawing_area();
        root.fill(&WHITE).map_err(&fail)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{name}: where moves ended"), (FONT, 16))
            .margin(12)
            .x_label_area_size(24)
            .y_label_area_size(28)
            .build_cartesian_2d(
                (0u32..width.max(1)).into_segmented(),
                (0u32..height.max(1)).into_segmented(),
            )
            .map_err(&fail)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(width as usize)
            .y_labels(height as usize)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => {
                    char::from_u32(u32::from(b'a') + *i).map_or(String::new(), String::from)
                }
                SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
            })
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => (i + 1).to_string(),
                SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
            })
            .draw()
            .map_err(&fail)?;
        let cells = landed.iter().zip(0u32..).flat_map(|(row, rank)| {
            row.iter().zip(0u32..).map(move |(&n, file)| {
                let heat = f64::from(n) / most;
                Rectangle::new(
                    [
                        (SegmentValue::Exact(file), SegmentValue::Exact(rank)),
                        (SegmentValue::Exact(file + 1), SegmentValue::Exact(rank + 1)),
                    ],
                    LINE.mix(0.05 + 0.95 * heat).filled(),
                )
            })
        });
        chart.draw_series(cells).map_err(&fail)?;
        root.present().map_err(&fail)?;
    }
    Ok(svg)
}
