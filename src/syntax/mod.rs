//! Text to syntax tree: the pest grammar (`grammar/tafl.pest`) and a typed, spanned AST.
//!
//! [`parse`] reports every syntax error of a file, not just the first: after an error it blanks
//! the offending clause (keeping byte offsets) and parses again.

pub mod ast;
mod error;
mod parser;

pub use parser::parse;
