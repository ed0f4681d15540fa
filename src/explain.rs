//! The rules in plain words (work in progress).
use crate::ir::Rules;
/// Explains rules.
pub fn explain(rules: &Rules) -> String {
    format!("{}\n", rules.name)
}
