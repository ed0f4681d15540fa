//! The tafl library's face in the browser: wasm-bindgen functions over the library's own stages,
//! for the playground in `web/` (docs/web.md).
//!
//! Nothing here implements a rule, a diagnostic or a word of an explanation: the editor
//! functions ([`Document`], [`explain`], [`variants`]) call `tafl::lsp` and `tafl::explain`,
//! the game ([`WebGame`]) calls `tafl::Game` and `tafl::search`. What this crate adds is the
//! translation: JSON for JavaScript, offsets in the UTF-16 code units JavaScript strings count
//! beside the library's byte offsets, and errors as JavaScript exceptions with the library's
//! messages.
//!
//! Every function that can fail returns `Result<_, JsError>`, so bad input is an exception with
//! a message, never a panic; [`start`] installs `console_error_panic_hook` only so that a bug
//! would still say where it happened.

mod editor;
mod offsets;
mod play;
mod speed;

pub use editor::{explain, lint, rules_hash, variants, Document};
pub use offsets::Offsets;
pub use play::{perft, record_moves, WebGame};
pub use speed::{measure, speed, Measurement, CASES};

use wasm_bindgen::prelude::*;

/// Runs when the module is instantiated: a panic (a bug: every failure the library foresees is
/// an error) prints its message and place to the console instead of "unreachable".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// JSON of a value made of strings, numbers and vectors.
fn to_json<T: serde::Serialize>(value: &T) -> String {
    // The values serialised here are plain structs of strings, numbers, booleans and vectors
    // (no maps with non-string keys, no floats that could be NaN), which serde_json always
    // writes.
    serde_json::to_string(value).expect("plain data serialises")
}
