//! tafl: tafl (hnefatafl, tablut) variants written as plain text files, then linted, explained,
//! played and analysed.
//!
//! The pipeline, one module a stage:
//!
//! ```text
//! variant file ─ syntax ─▶ AST ─ check ─▶ Rules (IR) ─ engine ─▶ Engine ─ game ─▶ Game
//! ```
//!
//! Beside it: [`explain`] puts the rules back into words, [`lsp`] answers an editor's questions
//! about a file (hover, completion, definitions), [`protocol`] speaks the engine protocols
//! (OpenTafl's, hnefatafl-copenhagen's, UCI-like) both ways, and [`english`] holds the English
//! helpers (plurals, counts, lists) every message uses.
//!
//! ```
//! let variant = tafl::Variant::bundled("linnaeus").unwrap();
//! assert_eq!(variant.rules.board.width, 9);
//! assert_eq!(variant.rules.first_to_move, tafl::Side::Attackers);
//! ```
#![warn(missing_docs)]

pub mod check;
mod diagnostic;
pub mod diff;
pub mod engine;
pub mod english;
pub mod explain;
pub mod game;
pub mod ir;
pub mod lsp;
pub mod nnue;
pub mod opentafl;
pub mod printable;
pub mod protocol;
pub mod record;
pub mod report;
pub mod search;
pub mod span;
mod suggest;
pub mod svg;
pub mod syntax;
mod variant;

#[cfg(feature = "cli")]
pub mod cli;

pub use diagnostic::{Code, Diagnostic, Diagnostics, Fix, Label, Report, Severity};
pub use engine::{
    CompileError, EndReason, Ending, Engine, GameOutcome, IllegalReason, Move, MoveEffects,
    Position, PositionError, Setup,
};
pub use game::{DrawError, Game, IllegalMove, Ply, Status, Undone};
pub use ir::{BySide, Rules, Side, Square};
pub use ir::{RuleRef, SourceMap};
pub use variant::{bundled_names, site_types, LoadError, SiteType, Variant, BUNDLED};
