//! Syntax tree to IR (work in progress).
use crate::diagnostic::Diagnostics;
use crate::ir::Rules;
use crate::variant::SourceMap;
/// Result of checking.
pub struct Checked {
    /// rules
    pub rules: Option<(Rules, SourceMap)>,
    /// diags
    pub diagnostics: Diagnostics,
}
/// Check a text.
pub fn check_text(origin: &str, text: &str) -> Checked {
    let items = match crate::syntax::parse(text) {
        Ok(_) => Vec::new(),
        Err(items) => items,
    };
    Checked {
        rules: None,
        diagnostics: Diagnostics::new(origin, text, items),
    }
}
