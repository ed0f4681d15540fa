//! The grammar, compiled by pest: [`TaflParser`] and the [`Rule`] enum it derives from
//! `grammar/tafl.pest` (one variant per grammar rule, documented by the rule's `///` comment).
//! Its own module so that the parser (pairs to AST), the syntax errors (which name the rules
//! expected) and completion (which asks what may follow) all depend on it and not on each other.

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/tafl.pest"]
pub(super) struct TaflParser;
