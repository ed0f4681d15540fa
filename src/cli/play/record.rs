//! The game record `save` writes and `load` reads: plain text a person can read and edit.
//!
//! ```text
//! # A tafl game record. Lines starting with # are comments.
//! variant: linnaeus
//! result: defenders_win (king_escaped)
//!
//! 1. a4-a3 e7-h7
//! 2. a3-a2 e6-c6
//! ```
//!
//! `variant:` names a bundled variant or a variant file; `result:` is `ongoing`, or a status and a
//! reason in parentheses. Move numbers (`1.`) are optional: every other word is a move, read in
//! order. docs/repl.md describes the format.

use crate::engine::Move;

/// A record as read, before its moves are checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The variant, as written after `variant:`.
    pub variant: Option<String>,
    /// The result line's text and line number.
    pub result: Option<(String, usize)>,
    /// Each move with the line it is on.
    pub moves: Vec<(Move, usize)>,
}

/// Reads a record; the error names the line and what is wrong with it.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut record = Record::default();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim().to_string();
            match key.trim() {
                "variant" => record.variant = Some(value),
                "result" => record.result = Some((value, number)),
                other => {
                    return Err(format!(
                        "line {number}: unknown field `{other}:` (a record has `variant:`, `result:` and moves)"
                    ))
                }
            }
            continue;
        }
        for word in line.split_whitespace() {
            // A move number: digits followed by one or more dots.
            let digits = word.trim_end_matches('.');
            if digits.len() < word.len() && digits.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let mv: Move = word.parse().map_err(|e| format!("line {number}: {e}"))?;
            record.moves.push((mv, number));
        }
    }
    Ok(record)
}

/// Writes a record: the variant, the result and the moves, two to a numbered line.
pub fn write(variant: &str, result: &str, moves: &[Move]) -> String {
    let mut text =
        String::from("# A tafl game record (docs/repl.md). Lines starting with # are comments.\n");
    text.push_str(&format!("variant: {variant}\nresult: {result}\n\n"));
    for (i, pair) in moves.chunks(2).enumerate() {
        let pair: Vec<String> = pair.iter().map(Move::to_string).collect();
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_record_reads_back() {
        let moves: Vec<Move> = ["a4-a3", "e7-h7", "a3-a2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let text = write("linnaeus", "ongoing", &moves);
        let record = parse(&text).unwrap();
        assert_eq!(record.variant.as_deref(), Some("linnaeus"));
        assert_eq!(record.result, Some(("ongoing".to_string(), 3)));
        assert_eq!(
            record.moves.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
            moves
        );
        assert_eq!(record.moves[2].1, 6);
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            parse("variant: linnaeus\n\n1. a4-a3 e7h7 e4\n"),
            Err("line 3: `e4` is not a move: write two squares like `e1-e3`".to_string())
        );
        assert!(parse("colour: red\n").unwrap_err().starts_with("line 1:"));
        let loose = parse("a4a3 e7-h7 # a comment\n12... a3-a2").unwrap();
        assert_eq!(loose.moves.len(), 3);
    }
}
