//! Text to syntax tree: the pest grammar (`grammar/tafl.pest`) and a typed, spanned AST.
//!
//! [`parse_recovering`] reports every syntax error of a file, not just the first: after an error
//! it blanks the offending clause (keeping byte offsets), or corrects a misspelt keyword in
//! place, and parses again, so the clauses around the error can still be checked.

pub mod ast;
mod complete;
mod error;
mod grammar;
mod parser;

pub use complete::{expected_after, Expected};
pub use parser::{parse, parse_recovering};
