//! The editor's questions about a variant text: its problems, hovers, completions, its rules in
//! words, and the bundled variants. Answers come from `tafl::lsp`, the same analysis `tafl lsp`
//! serves to editors, with spans in bytes, UTF-16 units and lines and columns.

use serde::Serialize;
use tafl::lsp::{Analysis, CompletionKind};
use tafl::{Diagnostic, Severity, Variant};
use wasm_bindgen::prelude::*;

use crate::offsets::{Offsets, Range};
use crate::to_json;

/// The name the playground's text goes by in messages.
const ORIGIN: &str = "playground.tafl";

/// One version of a variant text, analysed once and then asked about.
#[wasm_bindgen]
pub struct Document {
    analysis: Analysis,
    offsets: Offsets,
}

/// A diagnostic as JSON: the library's, with every span in every unit.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    labels: Vec<JsonLabel<'a>>,
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    range: Range,
    text: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    range: Range,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonHover<'a> {
    range: Range,
    text: &'a str,
}

#[derive(Serialize)]
struct JsonCompletion<'a> {
    label: &'a str,
    kind: &'static str,
    detail: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonVariant<'a> {
    name: &'a str,
    title: String,
    text: &'a str,
}

impl Document {
    fn diagnostic<'a>(&self, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
        JsonDiagnostic {
            code: diagnostic.code.as_str(),
            severity: diagnostic.severity,
            message: &diagnostic.message,
            help: diagnostic.help.as_deref(),
            labels: diagnostic
                .labels
                .iter()
                .map(|label| JsonLabel {
                    range: self.offsets.range(label.span.start, label.span.end),
                    text: &label.text,
                })
                .collect(),
            fix: diagnostic.fix.as_ref().map(|fix| JsonFix {
                range: self.offsets.range(fix.span.start, fix.span.end),
                replacement: &fix.replacement,
            }),
        }
    }
}

#[wasm_bindgen]
impl Document {
    /// Analyses `text`.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Document {
        Document {
            analysis: Analysis::new(ORIGIN, text),
            offsets: Offsets::of(text),
        }
    }

    /// Every problem of the text, as a JSON array: `code`, `severity` (`error`, `warning`,
    /// `note`), `message`, `help`, `labels` (`range`, `text`) and `fix` (`range`,
    /// `replacement`) or null. A `range` has `start`/`end` (bytes), `from`/`to` (UTF-16
    /// units), `line`/`column` and `endLine`/`endColumn` (1-based).
    pub fn diagnostics(&self) -> String {
        let items: Vec<JsonDiagnostic<'_>> = self
            .analysis
            .diagnostics()
            .items()
            .iter()
            .map(|d| self.diagnostic(d))
            .collect();
        to_json(&items)
    }

    /// Whether the text has errors (a game cannot start from it).
    #[wasm_bindgen(js_name = hasErrors)]
    pub fn has_errors(&self) -> bool {
        self.analysis.diagnostics().has_errors()
    }

    /// What to show about the text at UTF-16 offset `at`, as JSON (`range`, `text` in Markdown),
    /// or `undefined` where there is nothing to say.
    pub fn hover(&self, at: usize) -> Option<String> {
        let hover = self.analysis.hover(self.offsets.byte(at))?;
        Some(to_json(&JsonHover {
            range: self.offsets.range(hover.span.start, hover.span.end),
            text: &hover.text,
        }))
    }

    /// What may be written at UTF-16 offset `at`, as a JSON array of `label`, `kind`
    /// (`keyword`, `piece`, `region`, `square`) and `detail`.
    pub fn completions(&self, at: usize) -> String {
        let completions = self.analysis.completions(self.offsets.byte(at));
        let items: Vec<JsonCompletion<'_>> = completions
            .iter()
            .map(|c| JsonCompletion {
                label: &c.label,
                kind: match c.kind {
                    CompletionKind::Keyword => "keyword",
                    CompletionKind::Piece => "piece",
                    CompletionKind::Region => "region",
                    CompletionKind::Square => "square",
                },
                detail: c.detail.as_deref(),
            })
            .collect();
        to_json(&items)
    }
}

/// Every problem of `text`, as [`Document::diagnostics`] writes them.
#[wasm_bindgen]
pub fn lint(text: &str) -> String {
    Document::new(text).diagnostics()
}

/// The rules of `text` in plain words, as `tafl show` writes them.
///
/// # Errors
/// The first problems of the text when it has errors.
#[wasm_bindgen]
pub fn explain(text: &str) -> Result<String, JsError> {
    let variant = load(text)?;
    Ok(tafl::explain::explain(&variant.rules))
}

/// The hash of the rules `text` compiles to, as a record stores it
/// ([`tafl::record::rules_hash`]): equal for two texts whose rules are equal, whatever their
/// comments, layout, name, source or notes; `undefined` for a text with errors. The page keeps
/// its game across an edit that leaves it unchanged.
#[wasm_bindgen(js_name = rulesHash)]
pub fn rules_hash(text: &str) -> Option<String> {
    load(text)
        .ok()
        .map(|variant| tafl::record::rules_hash(&variant.rules))
}

/// The bundled variants, as a JSON array of `name`, `title` (the variant's own name) and
/// `text`, in `tafl list`'s order.
#[wasm_bindgen]
pub fn variants() -> String {
    let items: Vec<JsonVariant<'_>> = tafl::BUNDLED
        .iter()
        .map(|(name, text)| JsonVariant {
            name,
            // The bundled files are checked by the library's tests; a name stands in for a
            // title should one ever fail to load.
            title: Variant::bundled(name).map_or_else(|_| name.to_string(), |v| v.rules.name),
            text,
        })
        .collect();
    to_json(&items)
}

/// The variant written in `text`.
///
/// # Errors
/// The library's load error (its problems, one a line) as a JavaScript `Error`.
pub(crate) fn load(text: &str) -> Result<Variant, JsError> {
    Variant::from_text(ORIGIN, text).map_err(|e| JsError::new(&load_message(text, &e)))
}

/// A load error in a few lines: each error of the text with its line and code.
fn load_message(text: &str, error: &tafl::LoadError) -> String {
    match error {
        tafl::LoadError::Invalid { diagnostics, .. } => {
            let offsets = Offsets::of(text);
            let errors: Vec<String> = diagnostics
                .items()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| {
                    let line = d
                        .primary_span()
                        .map(|s| format!("line {}: ", offsets.line_column(s.start).0))
                        .unwrap_or_default();
                    format!("{line}{} [{}]", d.message, d.code.as_str())
                })
                .collect();
            format!("{error}:\n{}", errors.join("\n"))
        }
        tafl::LoadError::NotFound { .. } | tafl::LoadError::Io { .. } => error.to_string(),
    }
}
