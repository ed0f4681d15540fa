//! The line editor's helper: Tab completes command names, the legal moves of the side to move
//! (after `e1`, the destinations of the piece on e1), and file names after `save`/`load`.

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::engine::Move;

/// What completion knows: the command names and the legal moves, refreshed before each line.
pub struct TaflHelper {
    /// Every command name.
    pub commands: Vec<&'static str>,
    /// The legal moves of the side to move (none when the game is over).
    pub moves: Vec<Move>,
    files: FilenameCompleter,
}

impl TaflHelper {
    /// A helper for these command names.
    pub fn new(commands: Vec<&'static str>) -> TaflHelper {
        TaflHelper {
            commands,
            moves: Vec::new(),
            files: FilenameCompleter::new(),
        }
    }

    /// The completions of `word`, the first word of the line when `first`, else an argument of
    /// `command`.
    pub fn candidates(&self, command: Option<&str>, word: &str) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        let from_squares = || {
            let mut squares: Vec<String> = self.moves.iter().map(|m| m.from.to_string()).collect();
            squares.dedup();
            squares
        };
        match command {
            None => {
                found.extend(
                    self.commands
                        .iter()
                        .filter(|c| c.starts_with(word))
                        .map(|c| c.to_string()),
                );
                found.extend(self.move_candidates(word, &moves, from_squares()));
            }
            Some("moves") => {
                found.extend(from_squares().into_iter().filter(|s| s.starts_with(word)));
            }
            Some("why") => found.extend(self.move_candidates(word, &moves, from_squares())),
            Some("help") => found.extend(
                self.commands
                    .iter()
                    .filter(|c| c.starts_with(word))
                    .map(|c| c.to_string()),
            ),
            Some(_) => {}
        }
        found
    }

    /// A complete from-square gives its moves; a partial one the from-squares; a partial move the
    /// moves it begins.
    fn move_candidates(&self, word: &str, moves: &[String], squares: Vec<String>) -> Vec<String> {
        if word.is_empty() {
            return Vec::new();
        }
        if squares.iter().any(|s| s == word) {
            let longer: Vec<String> = squares
                .iter()
                .filter(|s| s.starts_with(word) && s.as_str() != word)
                .cloned()
                .collect();
            let mut out: Vec<String> = moves
                .iter()
                .filter(|m| m.starts_with(&format!("{word}-")))
                .cloned()
                .collect();
            // `a1` on a big board may also begin `a10`, `a11`.
            out.extend(longer);
            return out;
        }
        let dashed = moves
            .iter()
            .filter(|m| m.starts_with(word))
            .cloned()
            .collect::<Vec<_>>();
        if word.contains('-') {
            return dashed;
        }
        squares
            .into_iter()
            .filter(|s| s.starts_with(word))
            .collect()
    }
}

impl Completer for TaflHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let first = before[..start].split_whitespace().next();
        if matches!(first, Some("save" | "load")) {
            return self.files.complete(line, pos, ctx);
        }
        let pairs = self
            .candidates(first, word)
            .into_iter()
            .map(|c| Pair {
                display: c.clone(),
                replacement: c,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for TaflHelper {
    type Hint = String;
}

impl Highlighter for TaflHelper {}

impl Validator for TaflHelper {}

impl Helper for TaflHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> TaflHelper {
        let mut helper = TaflHelper::new(vec!["moves", "new", "help", "why"]);
        helper.moves = ["d1-d2", "d1-d3", "e2-c2", "e2-d2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        helper
    }

    #[test]
    fn commands_and_squares_complete() {
        let helper = helper();
        assert_eq!(helper.candidates(None, "m"), vec!["moves"]);
        assert_eq!(helper.candidates(None, "n"), vec!["new"]);
        assert_eq!(helper.candidates(None, "d"), vec!["d1"]);
        assert_eq!(helper.candidates(None, "e2"), vec!["e2-c2", "e2-d2"]);
        assert_eq!(helper.candidates(None, "d1-d"), vec!["d1-d2", "d1-d3"]);
        assert_eq!(helper.candidates(Some("moves"), ""), vec!["d1", "e2"]);
        assert_eq!(helper.candidates(Some("why"), "e2-c"), vec!["e2-c2"]);
        assert!(helper.candidates(None, "z").is_empty());
    }
}
