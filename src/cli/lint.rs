//! `tafl lint FILE...`: every problem of each file.

use std::process::ExitCode;

use serde::Serialize;

use super::render::{render_diagnostics, Style};
use crate::check::check_text;
use crate::diagnostic::{Diagnostics, Severity};
use crate::variant::BUNDLED;

/// Arguments of `tafl lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant files to check (a bundled variant's name checks the bundled file).
    #[arg(required = true)]
    files: Vec<String>,
    /// `human` for rendered reports, `json` for one JSON array of diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
}

/// One diagnostic in `--format json`.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    severity: Severity,
    code: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    line: usize,
    column: usize,
    labels: Vec<JsonLabel<'a>>,
    /// Present only when one replacement fixes the problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    start: usize,
    end: usize,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    text: &'a str,
}

pub fn run(args: &Args) -> ExitCode {
    let mut any_errors = false;
    let mut all = Vec::new();
    for file in &args.files {
        let (origin, text) = match BUNDLED.iter().find(|(name, _)| name == file) {
            Some((name, text)) if !std::path::Path::new(file).exists() => {
                (format!("bundled:{name}.tafl"), text.to_string())
            }
            _ => match crate::check::limits::read_variant_file(file) {
                Ok(text) => (file.clone(), text),
                Err(error) => {
                    eprintln!(
                        "error: cannot read `{}`: {error}",
                        crate::printable::quoted(file)
                    );
                    any_errors = true;
                    continue;
                }
            },
        };
        let checked = check_text(&origin, &text);
        any_errors |= checked.diagnostics.has_errors();
        all.push(checked.diagnostics);
    }
    match args.format {
        Format::Human => {
            let style = super::render::terminal_style();
            for diagnostics in &all {
                print_human(diagnostics, style);
            }
        }
        Format::Json => {
            let json: Vec<JsonDiagnostic<'_>> = all.iter().flat_map(json_diagnostics).collect();
            // Plain data with string keys: serialising cannot fail.
            outln!(
                "{}",
                serde_json::to_string_pretty(&json).expect("diagnostics serialise")
            );
        }
    }
    if any_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_human(diagnostics: &Diagnostics, style: Style) {
    if diagnostics.is_empty() {
        outln!("{}: no problems", diagnostics.origin());
        return;
    }
    out!("{}", render_diagnostics(diagnostics, style));
    let count = |severity| {
        diagnostics
            .items()
            .iter()
            .filter(|item| item.severity == severity)
            .count()
    };
    outln!(
        "{}: {} error(s), {} warning(s), {} note(s)",
        diagnostics.origin(),
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note)
    );
}

fn json_diagnostics(diagnostics: &Diagnostics) -> Vec<JsonDiagnostic<'_>> {
    diagnostics
        .items()
        .iter()
        .map(|item| {
            let (line, column) =
                diagnostics.line_column(item.primary_span().map_or(0, |span| span.start));
            JsonDiagnostic {
                file: diagnostics.origin(),
                severity: item.severity,
                code: item.code.as_str(),
                message: &item.message,
                help: item.help.as_deref(),
                line,
                column,
                labels: item
                    .labels
                    .iter()
                    .map(|label| {
                        let (line, column) = diagnostics.line_column(label.span.start);
                        JsonLabel {
                            start: label.span.start,
                            end: label.span.end,
                            line,
                            column,
                            text: &label.text,
                        }
                    })
                    .collect(),
                fix: item.fix.as_ref().map(|fix| JsonFix {
                    start: fix.span.start,
                    end: fix.span.end,
                    replacement: &fix.replacement,
                }),
            }
        })
        .collect()
}
