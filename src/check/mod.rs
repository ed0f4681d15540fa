//! Syntax tree to IR (work in progress).
use crate::ir::Rules;
use crate::variant::SourceMap;
/// Severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// e
    Error,
    /// w
    Warning,
    /// n
    Note,
}
/// One problem.
#[derive(Clone, Debug)]
pub struct Diagnostic;
/// All problems.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics;
impl Diagnostics {
    /// any errors
    pub fn has_errors(&self) -> bool {
        false
    }
}
/// Result of checking.
pub struct Checked {
    /// rules
    pub rules: Option<(Rules, SourceMap)>,
    /// diags
    pub diagnostics: Diagnostics,
}
/// Check a text.
pub fn check_text(_origin: &str, _text: &str) -> Checked {
    Checked {
        rules: None,
        diagnostics: Diagnostics,
    }
}
