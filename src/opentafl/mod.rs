//! OpenTafl rules strings ("OTNR", jslater89/OpenTafl), both ways.
//!
//! OpenTafl describes a variant in one line of `key:value` entries:
//! `dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/.../`. [`import`] turns such
//! a string into a variant file of our language, one commented clause per rule, and
//! [`export`] turns [`Rules`](crate::Rules) back into a string, or names every rule OpenTafl
//! cannot say. What each key means is taken from OpenTafl's loader and rules code
//! (`RulesSerializer.java`, `GenericRules.java`, `GameState.java`); where that code departs from
//! OpenTafl's notation document, docs/opentafl.md says which reading we follow and why.

mod export;
mod import;
mod settings;

pub use export::{export, export_nearest, ExportError, Inexpressible, Nearest};
pub use import::{import, ImportError, Unsupported};
pub use settings::{ParseError, Settings};
