//! Text to syntax tree (work in progress).
