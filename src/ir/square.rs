//! Squares, sides and the small value types every stage shares.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest board side the toolkit supports (Alea Evangelii is 19x19).
pub const MAX_BOARD_SIDE: u8 = 19;
/// The smallest board side the toolkit supports.
pub const MIN_BOARD_SIDE: u8 = 5;

/// One square, by file (column, `a` = 0, from the left) and rank (row, `1` = 0, from the bottom).
///
/// Written `a1` for the bottom-left square; `k11` on an 11x11 board. In JSON a square is its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Column from the left, 0-based.
    pub file: u8,
    /// Row from the bottom, 0-based.
    pub rank: u8,
}

impl Square {
    /// The square at `file` (0 = `a`) and `rank` (0 = `1`).
    pub const fn new(file: u8, rank: u8) -> Self {
        Square { file, rank }
    }

    /// Whether the square lies on a board of `width` x `height`.
    pub const fn is_on(self, width: u8, height: u8) -> bool {
        self.file < width && self.rank < height
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Files past `z` exist only on no board; they print as the letters after it rather
        // than overflow.
        let file = char::from_u32(u32::from(b'a') + u32::from(self.file)).unwrap_or('?');
        write!(f, "{file}{}", u32::from(self.rank) + 1)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    /// The text does not have the form letter + number (`e5`).
    #[error("`{0}` is not a square: write a file letter then a rank number, like `e5`")]
    Malformed(String),
    /// The letter or number is beyond the largest supported board.
    #[error("`{0}` is beyond the largest supported board (s19)")]
    OutOfRange(String),
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || ParseSquareError::Malformed(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        if !letter.is_ascii_lowercase() {
            return Err(malformed());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        // Two ASCII digits at most, so this fits in a u8 and cannot fail.
        let rank: u8 = digits.parse().map_err(|_| malformed())?;
        let file = letter as u8 - b'a';
        if rank == 0 || digits.starts_with('0') {
            return Err(malformed());
        }
        if file >= MAX_BOARD_SIDE || rank > MAX_BOARD_SIDE {
            return Err(ParseSquareError::OutOfRange(text.to_string()));
        }
        Ok(Square::new(file, rank - 1))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The two sides of every tafl game. The attackers surround; the defenders guard the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The besieging side (Muscovites in tablut).
    Attackers,
    /// The king's side (Swedes in tablut).
    Defenders,
}

impl Side {
    /// Both sides, attackers first.
    pub const BOTH: [Side; 2] = [Side::Attackers, Side::Defenders];

    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// The word used on the command line and in JSON: `attackers` or `defenders`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// 0 for the attackers, 1 for the defenders: an index into per-side tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a side name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side: write `attackers` or `defenders`")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "attackers" | "attacker" => Ok(Side::Attackers),
            "defenders" | "defender" => Ok(Side::Defenders),
            _ => Err(ParseSideError(text.to_string())),
        }
    }
}

/// A value for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BySide<T> {
    /// The attackers' value.
    pub attackers: T,
    /// The defenders' value.
    pub defenders: T,
}

impl<T> BySide<T> {
    /// The value for `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }

    /// The value for `side`, mutably.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Attackers => &mut self.attackers,
            Side::Defenders => &mut self.defenders,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for text in ["a1", "e5", "i9", "k11", "s19"] {
            let square: Square = text.parse().unwrap();
            assert_eq!(square.to_string(), text);
        }
        assert_eq!("a1".parse::<Square>().unwrap(), Square::new(0, 0));
        assert_eq!("k11".parse::<Square>().unwrap(), Square::new(10, 10));
    }

    #[test]
    fn bad_square_names_are_errors() {
        for text in ["", "e", "5e", "E5", "e0", "e05", "e123", "é5"] {
            assert!(text.parse::<Square>().is_err(), "{text:?} parsed");
        }
        assert!(matches!(
            "t1".parse::<Square>(),
            Err(ParseSquareError::OutOfRange(_))
        ));
        assert!(matches!(
            "a20".parse::<Square>(),
            Err(ParseSquareError::OutOfRange(_))
        ));
    }
}
