//! Diagnostics rendered for people: miette's graphical report, with or without colour.

use std::io::IsTerminal;

use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::diagnostic::Diagnostics;

/// How to render: the width to wrap at and whether to use colour.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Columns to wrap at.
    pub width: usize,
    /// ANSI colours.
    pub colour: bool,
}

/// The style for standard error: colour only on a terminal and without `NO_COLOR`.
pub(super) fn terminal_style() -> Style {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    Style { width: 100, colour }
}

/// miette's graphical report handler, drawing in `style`.
fn handler(style: Style) -> GraphicalReportHandler {
    let theme = if style.colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
}

/// Prints `diagnostic` on standard error in the terminal's style, with its source lines from
/// `text`, the file called `name`.
pub(super) fn eprint_diagnostic<D>(diagnostic: D, name: &str, text: &str)
where
    D: miette::Diagnostic + Send + Sync + 'static,
{
    let report = miette::Report::new(diagnostic)
        .with_source_code(miette::NamedSource::new(name, text.to_string()));
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = handler(terminal_style()).render_report(&mut out, report.as_ref());
    eprintln!("{out}");
}

/// Every diagnostic of `diagnostics` rendered with its source lines, in file order.
pub fn render_diagnostics(diagnostics: &Diagnostics, style: Style) -> String {
    let handler = handler(style);
    let mut out = String::new();
    for report in diagnostics.reports() {
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
    }
    out
}
