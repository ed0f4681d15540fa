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
//! order; parentheses group the moves of one berserk turn, `(e5-e7 e7-g7)`, for the reader only.
//! docs/repl.md describes the format.

use crate::engine::Move;
use crate::ir::Side;

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
            let word = word.trim_start_matches('(').trim_end_matches(')');
            if word.is_empty() {
                continue;
            }
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

/// Writes a record: the variant, the result and the moves with the side that made each, one
/// turn of each side to a numbered line. A turn of several moves (berserk) is put in
/// parentheses.
pub fn write(variant: &str, result: &str, moves: &[(Move, Side)]) -> String {
    let mut text =
        String::from("# A tafl game record (docs/repl.md). Lines starting with # are comments.\n");
    text.push_str(&format!("variant: {variant}\nresult: {result}\n\n"));
    let mut turns: Vec<Vec<Move>> = Vec::new();
    let mut last = None;
    for &(mv, side) in moves {
        match turns.last_mut() {
            Some(turn) if last == Some(side) => turn.push(mv),
            _ => turns.push(vec![mv]),
        }
        last = Some(side);
    }
    let written: Vec<String> = turns
        .iter()
        .map(|turn| {
            let words: Vec<String> = turn.iter().map(Move::to_string).collect();
            match words.as_slice() {
                [one] => one.clone(),
                _ => format!("({})", words.join(" ")),
            }
        })
        .collect();
    for (i, pair) in written.chunks(2).enumerate() {
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
        let sides = [Side::Attackers, Side::Defenders, Side::Attackers];
        let played: Vec<(Move, Side)> = moves.iter().copied().zip(sides).collect();
        let text = write("linnaeus", "ongoing", &played);
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
    fn a_berserk_turn_is_one_parenthesised_turn_and_reads_back() {
        let moves: Vec<Move> = ["a4-a3", "e7-e5", "e5-c5", "a3-a2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let sides = [
            Side::Attackers,
            Side::Defenders,
            Side::Defenders,
            Side::Attackers,
        ];
        let played: Vec<(Move, Side)> = moves.iter().copied().zip(sides).collect();
        let text = write("berserk", "ongoing", &played);
        assert!(
            text.contains("1. a4-a3 (e7-e5 e5-c5)\n2. a3-a2\n"),
            "{text}"
        );
        let record = parse(&text).unwrap();
        assert_eq!(
            record.moves.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
            moves
        );
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
