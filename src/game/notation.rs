//! Reading and writing moves (`e1-e3`) and OpenTafl-style position strings.
//!
//! A position string lists the ranks from the top (rank N) down, separated by `/`; a run of
//! digits stands for that many empty squares; each piece is its kind's symbol. The outer slashes
//! are optional on input and always written on output: `/3ttt3/4t4/…/3ttt3/`.
//!
//! Parsing never panics: every malformed input is a typed error.

use std::str::FromStr;

use crate::engine::{Engine, Move, Position, PositionError, Setup};
use crate::ir::{ParseSquareError, Side, Square, MAX_BOARD_SIDE};

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is not two squares, `e1-e3` or `e1e3`.
    #[error("`{0}` is not a move: write two squares like `e1-e3`")]
    Malformed(String),
    /// One of the squares is not a square name.
    #[error("in move `{text}`: {source}")]
    Square {
        /// The whole move text.
        text: String,
        /// The square's error.
        source: ParseSquareError,
    },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `e1-e3` or `e1e3`.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let malformed = || ParseMoveError::Malformed(text.to_string());
        if !text.is_ascii() {
            return Err(malformed());
        }
        let (from, to) = match text.split_once('-') {
            Some(parts) => parts,
            None => {
                // Without a dash the second square starts at the second letter.
                let split = text
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| c.is_ascii_alphabetic())
                    .map(|(i, _)| i);
                let split = split.ok_or_else(malformed)?;
                text.split_at(split)
            }
        };
        let square = |part: &str| {
            part.parse::<Square>()
                .map_err(|source| ParseMoveError::Square {
                    text: text.to_string(),
                    source,
                })
        };
        Ok(Move::new(square(from)?, square(to)?))
    }
}

/// Why a position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// Nothing but slashes or spaces.
    #[error("the position is empty")]
    Empty,
    /// The number of ranks differs from the board's height.
    #[error("the position has {}; the board has {expected}", crate::english::count(*.found, "rank"))]
    RankCount {
        /// The board's height.
        expected: usize,
        /// Ranks in the string.
        found: usize,
    },
    /// A rank holds more or fewer squares than the board's width.
    #[error("rank {rank} has {}; the board is {expected} wide", crate::english::count(*.found, "square"))]
    RankWidth {
        /// The rank's number (1 = bottom).
        rank: usize,
        /// The board's width.
        expected: usize,
        /// Squares in the string's rank.
        found: usize,
    },
    /// A character that is neither a digit nor a piece symbol of the variant.
    #[error("`{symbol}` in rank {rank} is not a piece of this variant (known: {known})")]
    UnknownSymbol {
        /// The character.
        symbol: char,
        /// The rank's number (1 = bottom).
        rank: usize,
        /// The variant's symbols.
        known: String,
    },
    /// The position reads well but the variant's rules make it impossible.
    #[error("{0}")]
    Impossible(#[from] PositionError),
    /// A run of empty squares of length zero or longer than any board.
    #[error("`{run}` in rank {rank} is not a valid run of empty squares")]
    BadRun {
        /// The digits.
        run: String,
        /// The rank's number (1 = bottom).
        rank: usize,
    },
}

/// Reads a position string for `engine`'s variant, with `to_move` to play.
///
/// # Errors
/// [`ParsePositionError`] when the string does not describe a position on this board with this
/// variant's pieces.
pub fn parse_position(
    engine: &Engine,
    text: &str,
    to_move: Side,
) -> Result<Position, ParsePositionError> {
    let rules = engine.rules();
    let (width, height) = (usize::from(engine.width()), usize::from(engine.height()));
    let trimmed = text.trim().trim_matches('/');
    if trimmed.trim().is_empty() {
        return Err(ParsePositionError::Empty);
    }
    let rows: Vec<&str> = trimmed.split('/').collect();
    if rows.len() != height {
        return Err(ParsePositionError::RankCount {
            expected: height,
            found: rows.len(),
        });
    }
    let mut pieces = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank_number = height - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut run = String::from(c);
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    run.push(d);
                    chars.next();
                }
                let bad = || ParsePositionError::BadRun {
                    run: run.clone(),
                    rank: rank_number,
                };
                let count: usize = run.parse().map_err(|_| bad())?;
                if count == 0 || count > usize::from(MAX_BOARD_SIDE) {
                    return Err(bad());
                }
                file += count;
            } else {
                let kind = rules
                    .pieces
                    .iter()
                    .position(|p| p.symbol == c)
                    .ok_or_else(|| ParsePositionError::UnknownSymbol {
                        symbol: c,
                        rank: rank_number,
                        known: rules.pieces.iter().map(|p| p.symbol).collect(),
                    })?;
                if file < width {
                    pieces.push((Square::new(file as u8, (rank_number - 1) as u8), kind));
                }
                file += 1;
            }
        }
        if file != width {
            return Err(ParsePositionError::RankWidth {
                rank: rank_number,
                expected: width,
                found: file,
            });
        }
    }
    Ok(engine.setup(&Setup { pieces, to_move })?)
}

/// Writes `position` as a position string, outer slashes included.
pub fn position_to_string(engine: &Engine, position: &Position) -> String {
    let rules = engine.rules();
    let mut text = String::from("/");
    for rank in (0..engine.height()).rev() {
        let mut empty = 0;
        for file in 0..engine.width() {
            match engine.piece_at(position, Square::new(file, rank)) {
                Some(kind) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(rules.pieces[kind].symbol);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        text.push('/');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    #[test]
    fn moves_read_with_or_without_dash() {
        let expected = Move::new(Square::new(4, 0), Square::new(4, 2));
        assert_eq!("e1-e3".parse::<Move>(), Ok(expected));
        assert_eq!("e1e3".parse::<Move>(), Ok(expected));
        assert_eq!(
            "k11-k2".parse::<Move>().map(|m| m.to_string()),
            Ok("k11-k2".to_string())
        );
        assert_eq!(
            "k11k2".parse::<Move>().map(|m| m.to_string()),
            Ok("k11-k2".to_string())
        );
        for bad in [
            "", "e1", "e1-", "-e3", "e1-e3-e5", "e1--e3", "11-e3", "é1-e3", "e1 e3", "e0-e3",
            "z1-z3",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn the_start_position_round_trips() {
        let engine = Engine::new(&crate::Variant::bundled("linnaeus").unwrap().rules).unwrap();
        assert_eq!(position_to_string(&engine, &engine.start()), START);
        let parsed = parse_position(&engine, START.trim_matches('/'), Side::Attackers).unwrap();
        assert_eq!(parsed, engine.start());
    }

    #[test]
    fn malformed_positions_are_errors() {
        let engine = Engine::new(&crate::Variant::bundled("linnaeus").unwrap().rules).unwrap();
        for bad in [
            "",
            "//",
            "9/9",
            "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt2",
            "0/9/9/9/9/9/9/9/9",
            "x8/9/9/9/9/9/9/9/9",
            "99999999999999999999/9/9/9/9/9/9/9/9",
            "10/9/9/9/9/9/9/9/9",
        ] {
            assert!(
                parse_position(&engine, bad, Side::Attackers).is_err(),
                "{bad:?} parsed"
            );
        }
    }
}
