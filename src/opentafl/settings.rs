//! Reading a rules string into typed settings, every key resolved to its value or OpenTafl's
//! default.

use crate::ir::{Square, MAX_BOARD_SIDE, MIN_BOARD_SIDE};

/// OpenTafl's piece letters, in the order of its type lists and per-type speed lists:
/// taflman, commander, knight, king, mercenary, guard; attackers lowercase, defenders uppercase.
pub(crate) const LETTERS: [char; 12] = ['t', 'c', 'n', 'k', 'm', 'g', 'T', 'C', 'N', 'K', 'M', 'G'];

/// A set of OpenTafl piece types (`tcnkmgTCNKMG`), as the space-property keys list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeSet(u16);

impl TypeSet {
    /// Every type.
    pub const ALL: TypeSet = TypeSet(0xfff);
    /// No type.
    pub const NONE: TypeSet = TypeSet(0);

    fn of(letters: &str) -> TypeSet {
        let mut set = TypeSet::NONE;
        for letter in letters.chars() {
            if let Some(index) = LETTERS.iter().position(|&known| known == letter) {
                set.0 |= 1 << index;
            }
        }
        set
    }

    /// Whether the set holds the type written `letter`.
    pub fn has(self, letter: char) -> bool {
        LETTERS
            .iter()
            .position(|&known| known == letter)
            .is_some_and(|index| self.0 & (1 << index) != 0)
    }

    /// Adds the type written `letter`.
    pub fn insert(&mut self, letter: char) {
        if let Some(index) = LETTERS.iter().position(|&known| known == letter) {
            self.0 |= 1 << index;
        }
    }

    /// The set in OpenTafl's letters and order (`tcnkTCNK`).
    pub fn letters(self) -> String {
        LETTERS.iter().filter(|&&letter| self.has(letter)).collect()
    }
}

/// The properties of one kind of special square (centre, corners, attacker or defender forts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceProperties {
    /// Types that may move through (`cenp`, `corp`, `aforp`, `dforp`).
    pub pass: TypeSet,
    /// Types that may stop on (`cens`, `cors`, `afors`, `dfors`).
    pub stop: TypeSet,
    /// Types the square is hostile to; for the centre, while occupied (`cenh`, `corh`, `aforh`,
    /// `dforh`). Only the `t` and `T` entries count: OpenTafl asks per side.
    pub hostile: TypeSet,
    /// Types the empty centre is hostile to (`cenhe`); unused for the other kinds.
    pub hostile_empty: TypeSet,
    /// Types that may enter from a square of another kind (`cenre`, `corre`, `aforre`,
    /// `dforre`).
    pub reenter: TypeSet,
}

/// Where the king escapes (`esc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeTo {
    /// `c`: a corner square.
    Corners,
    /// `e`: any edge square.
    Edge,
}

/// What the third occurrence of a position does (`tfr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threefold {
    /// `d` (and `i`, which OpenTafl's loader reads as `d`).
    Draw,
    /// `w`: the side to move in the repeated position wins, so the player who repeated loses.
    MoverLoses,
    /// `l`: the player who repeated wins.
    MoverWins,
}

/// How the king fights (`ka`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingArmed {
    /// `y`
    Yes,
    /// `n`
    No,
    /// `a`: only as the standing piece.
    Anvil,
    /// `h`: only as the moving piece.
    Hammer,
}

/// How the king is captured (`ks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingStrength {
    /// `s` (or `y`): four hostile sides.
    Strong,
    /// `c`: strong on or beside the centre, weak elsewhere.
    StrongByCentre,
    /// `m`: every on-board neighbour hostile (three on the edge).
    Middleweight,
    /// `w` (or `n`): between two, like a man.
    Weak,
}

/// A jump ability (`kj`, `nj`, `cj`, `mj`, `gj`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    /// `n`
    None,
    /// `r`: restricted to jumps to or from special squares.
    Restricted,
    /// `j`: jumps over an enemy.
    Over,
    /// `c`: jumps and captures.
    Capture,
}

/// The shieldwall rule (`sw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShieldwallMode {
    /// `n`
    None,
    /// `w`: corners do not close a wall.
    Weak,
    /// `s`: corners close a wall.
    Strong,
}

/// The berserk rule (`ber`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Berserk {
    /// `n`
    None,
    /// `c`: after a capture, the capturer moves again to capture.
    Capture,
    /// `m`: after a capture, the capturer moves again.
    AnyMove,
}

/// A rules string read: every key's value, OpenTafl's default where the string is silent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `dim`: the board's side.
    pub dim: u8,
    /// `name`, underscores read as spaces.
    pub name: Option<String>,
    /// `esc`
    pub escape: EscapeTo,
    /// `surf`: encirclement wins for the attackers.
    pub surround_fatal: bool,
    /// `atkf`: the attackers move first.
    pub attackers_first: bool,
    /// `tfr`
    pub threefold: Threefold,
    /// `ka`
    pub king_armed: KingArmed,
    /// `ks`
    pub king_strength: KingStrength,
    /// `kj nj cj mj gj`: the jump ability of king, knight, commander, mercenary, guard.
    pub jumps: [(char, Jump); 5],
    /// `spd`: the longest move of each type in [`LETTERS`] order, `None` for no limit.
    pub speeds: [Option<u8>; 12],
    /// `cor`
    pub corners: Vec<Square>,
    /// `cen`
    pub centre: Vec<Square>,
    /// `afor`
    pub attacker_forts: Vec<Square>,
    /// `dfor`
    pub defender_forts: Vec<Square>,
    /// `cenp cens cenh cenhe cenre`
    pub centre_props: SpaceProperties,
    /// `corp cors corh corre`
    pub corner_props: SpaceProperties,
    /// `aforp afors aforh aforre`
    pub attacker_fort_props: SpaceProperties,
    /// `dforp dfors dforh dforre`
    pub defender_fort_props: SpaceProperties,
    /// `sw`
    pub shieldwall: ShieldwallMode,
    /// `swf`: only a flanking move closes a shieldwall.
    pub shieldwall_flanking: bool,
    /// `efe`: an edge fort wins for the king.
    pub edge_fort_escape: bool,
    /// `linc`: Linnaeus' capture against the throned king.
    pub linnaean_capture: bool,
    /// `ber`
    pub berserk: Berserk,
    /// `start`/`starti`: the start position, the top rank first, `None` for an empty square.
    pub start: Vec<Vec<Option<char>>>,
    /// The keys the string gave, in its order, with their values as written.
    pub given: Vec<(String, String)>,
}

/// Why a rules string cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// `dim` is missing.
    #[error("the rules string has no `dim` key (the board's size)")]
    MissingDim,
    /// Both `start` and `starti` are missing.
    #[error("the rules string has no `start` or `starti` key (the start position)")]
    MissingStart,
    /// A key OpenTafl does not know.
    #[error("unknown key `{key}`")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A key given twice.
    #[error("the key `{key}` is given twice")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// A value the key does not take.
    #[error("`{key}:{value}` is not a valid value; expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// A board size the toolkit does not support.
    #[error("`dim:{0}`: the board must be {MIN_BOARD_SIDE} to {MAX_BOARD_SIDE} squares a side")]
    BadDimension(String),
    /// A square list item that is not a square of the board.
    #[error("`{key}`: `{item}` is not a square of a {dim}x{dim} board")]
    BadSquare {
        /// The key.
        key: String,
        /// The item as written.
        item: String,
        /// The board's side.
        dim: u8,
    },
    /// A malformed start position.
    #[error("`{key}`: {problem}")]
    BadPosition {
        /// `start` or `starti`.
        key: String,
        /// What is wrong.
        problem: String,
    },
}

const KEYS: &[&str] = &[
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "gj", "spd",
    "cor", "cen", "afor", "dfor", "cenp", "cens", "cenh", "cenhe", "cenre", "corp", "cors", "corh",
    "corre", "aforp", "afors", "aforh", "aforre", "dforp", "dfors", "dforh", "dforre", "sw", "swf",
    "efe", "linc", "ber", "start", "starti",
];

impl std::str::FromStr for Settings {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Settings, ParseError> {
        let given = Given::read(text)?;
        let dim_text = given.get("dim").ok_or(ParseError::MissingDim)?;
        let dim = dim_text
            .parse::<u8>()
            .ok()
            .filter(|dim| (MIN_BOARD_SIDE..=MAX_BOARD_SIDE).contains(dim))
            .ok_or_else(|| ParseError::BadDimension(dim_text.into()))?;
        let start = match (given.get("starti"), given.get("start")) {
            (Some(rows), _) => position("starti", rows, dim, false)?,
            (None, Some(rows)) => position("start", rows, dim, true)?,
            (None, None) => return Err(ParseError::MissingStart),
        };
        let top = dim - 1;
        let middle = (dim - 1) / 2;
        // The fields are read in this order, so the first bad value is the one reported.
        Ok(Settings {
            dim,
            name: given.get("name").map(|name| name.replace('_', " ")),
            escape: match given.choice("esc", "c or e", 'c')? {
                'e' => EscapeTo::Edge,
                _ => EscapeTo::Corners,
            },
            surround_fatal: given.yes("surf", true)?,
            attackers_first: given.yes("atkf", true)?,
            threefold: match given.choice("tfr", "d, w, l or i", 'd')? {
                'w' => Threefold::MoverLoses,
                'l' => Threefold::MoverWins,
                // OpenTafl's loader reads `i` (ignore) as a draw, and so do we.
                _ => Threefold::Draw,
            },
            king_armed: given.king_armed()?,
            king_strength: given.king_strength()?,
            jumps: [
                ('k', given.jump("kj", 'n')?),
                ('n', given.jump("nj", 'c')?),
                ('c', given.jump("cj", 'j')?),
                ('m', given.jump("mj", 'n')?),
                ('g', given.jump("gj", 'n')?),
            ],
            speeds: speeds(given.get("spd"))?,
            corners: given.squares(
                "cor",
                vec![
                    Square::new(0, 0),
                    Square::new(top, 0),
                    Square::new(0, top),
                    Square::new(top, top),
                ],
                dim,
            )?,
            centre: given.squares("cen", vec![Square::new(middle, middle)], dim)?,
            attacker_forts: given.squares("afor", Vec::new(), dim)?,
            defender_forts: given.squares("dfor", Vec::new(), dim)?,
            centre_props: given.centre_props()?,
            corner_props: given.props("cor", "K", "K", ALL)?,
            attacker_fort_props: given.props("afor", ALL, ALL, DEFENDERS)?,
            defender_fort_props: given.props("dfor", ALL, DEFENDERS, ATTACKERS)?,
            shieldwall: match given.choice("sw", "n, w or s", 'n')? {
                's' => ShieldwallMode::Strong,
                'w' => ShieldwallMode::Weak,
                _ => ShieldwallMode::None,
            },
            shieldwall_flanking: given.yes("swf", true)?,
            edge_fort_escape: given.yes("efe", false)?,
            linnaean_capture: given.yes("linc", false)?,
            berserk: match given.choice("ber", "n, c or m", 'n')? {
                'c' => Berserk::Capture,
                'm' => Berserk::AnyMove,
                _ => Berserk::None,
            },
            start,
            given: given.pairs,
        })
    }
}

/// OpenTafl's piece types of the attackers, of the defenders, and of both, as its lists write
/// them.
const ATTACKERS: &str = "tcnkm";
const DEFENDERS: &str = "TCNKM";
const ALL: &str = "tcnkmTCNKM";

/// The `key:value` pairs of a rules string, in the order given, read into values with
/// OpenTafl's defaults for the keys not given.
struct Given {
    pairs: Vec<(String, String)>,
}

impl Given {
    /// The pairs of `text`; an unknown or repeated key is an error.
    fn read(text: &str) -> Result<Given, ParseError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for entry in text.split_whitespace() {
            let (key, value) = entry.split_once(':').unwrap_or((entry, ""));
            if !KEYS.contains(&key) {
                return Err(ParseError::UnknownKey { key: key.into() });
            }
            if pairs.iter().any(|(known, _)| known == key) {
                return Err(ParseError::DuplicateKey { key: key.into() });
            }
            pairs.push((key.to_string(), value.to_string()));
        }
        Ok(Given { pairs })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(known, _)| known == key)
            .map(|(_, value)| value.as_str())
    }

    /// A one-letter value among `expected`, or `default` when the key is not given.
    fn choice(
        &self,
        key: &'static str,
        expected: &'static str,
        default: char,
    ) -> Result<char, ParseError> {
        let value = self.get(key).unwrap_or("");
        let mut chars = value.chars();
        match (chars.next(), chars.next()) {
            (None, _) if self.get(key).is_none() => Ok(default),
            (Some(letter), None) if expected.contains(letter) => Ok(letter),
            _ => Err(ParseError::BadValue {
                key: key.into(),
                value: value.into(),
                expected,
            }),
        }
    }

    fn yes(&self, key: &'static str, default: bool) -> Result<bool, ParseError> {
        self.choice(key, "y or n", if default { 'y' } else { 'n' })
            .map(|letter| letter == 'y')
    }

    /// The piece types the key lists (letters of `tcnkmgTCNKMG`), or `default`. A letter that
    /// names no type is refused: dropping it would give a square other rules than the string's.
    fn types(&self, key: &str, default: &str) -> Result<TypeSet, ParseError> {
        let letters = self.get(key).unwrap_or(default);
        if letters.chars().any(|letter| !LETTERS.contains(&letter)) {
            return Err(ParseError::BadValue {
                key: key.into(),
                value: letters.into(),
                expected: "piece-type letters among tcnkmgTCNKMG (t taflman, c commander, n knight, k king, m mercenary, g guard; upper case the defenders')",
            });
        }
        Ok(TypeSet::of(letters))
    }

    fn squares(&self, key: &str, default: Vec<Square>, dim: u8) -> Result<Vec<Square>, ParseError> {
        match self.get(key) {
            None => Ok(default),
            Some(list) => square_list(key, list, dim),
        }
    }

    fn jump(&self, key: &'static str, default: char) -> Result<Jump, ParseError> {
        self.choice(key, "n, r, j or c", default)
            .map(|letter| match letter {
                'r' => Jump::Restricted,
                'j' => Jump::Over,
                'c' => Jump::Capture,
                _ => Jump::None,
            })
    }

    fn king_armed(&self) -> Result<KingArmed, ParseError> {
        Ok(match self.choice("ka", "y, n, a or h", 'y')? {
            'n' => KingArmed::No,
            'a' => KingArmed::Anvil,
            'h' => KingArmed::Hammer,
            _ => KingArmed::Yes,
        })
    }

    fn king_strength(&self) -> Result<KingStrength, ParseError> {
        Ok(match self.choice("ks", "s, c, m, w, y or n", 's')? {
            'c' => KingStrength::StrongByCentre,
            'm' => KingStrength::Middleweight,
            'w' | 'n' => KingStrength::Weak,
            _ => KingStrength::Strong,
        })
    }

    /// The centre's properties: the only square kind hostile differently when empty.
    fn centre_props(&self) -> Result<SpaceProperties, ParseError> {
        Ok(SpaceProperties {
            pass: self.types("cenp", ALL)?,
            stop: self.types("cens", "K")?,
            hostile: self.types("cenh", ATTACKERS)?,
            hostile_empty: self.types("cenhe", ALL)?,
            reenter: self.types("cenre", ALL)?,
        })
    }

    /// The properties of the square kind `prefix` (`cor`, `afor`, `dfor`), with its defaults.
    fn props(
        &self,
        prefix: &str,
        pass: &str,
        stop: &str,
        hostile: &str,
    ) -> Result<SpaceProperties, ParseError> {
        Ok(SpaceProperties {
            pass: self.types(&format!("{prefix}p"), pass)?,
            stop: self.types(&format!("{prefix}s"), stop)?,
            hostile: self.types(&format!("{prefix}h"), hostile)?,
            hostile_empty: TypeSet::NONE,
            reenter: self.types(&format!("{prefix}re"), ALL)?,
        })
    }
}

impl Settings {
    /// The value the string gave for `key`, if it gave one.
    pub fn given(&self, key: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(known, _)| known == key)
            .map(|(_, value)| value.as_str())
    }

    /// `key:value` as the string wrote it, or `default key:value` when it fell back on
    /// OpenTafl's default: the comment an imported clause carries.
    pub fn source_of(&self, key: &str, default: &str) -> String {
        match self.given(key) {
            Some(value) => format!("{key}:{value}"),
            None => format!("default {key}:{default}"),
        }
    }
}

/// `spd`: `-1` (no limits), `N` (every piece), `A,D` (attackers, defenders) or one entry per
/// type, 12 (`tcnkmgTCNKMG`) or 10 (`tcnkmTCNKM`, before guards existed).
fn speeds(value: Option<&str>) -> Result<[Option<u8>; 12], ParseError> {
    let bad = || ParseError::BadValue {
        key: "spd".into(),
        value: value.unwrap_or("").into(),
        expected: "-1, a number of squares, `attackers,defenders`, or one number per piece type",
    };
    let Some(value) = value else {
        return Ok([None; 12]);
    };
    let numbers = value
        .split(',')
        .filter(|item| !item.is_empty())
        .map(|item| match item.parse::<i32>() {
            Ok(-1) => Ok(None),
            Ok(speed) if (1..=i32::from(MAX_BOARD_SIDE)).contains(&speed) => Ok(Some(speed as u8)),
            _ => Err(bad()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut speeds = [None; 12];
    match numbers.as_slice() {
        [all] => speeds = [*all; 12],
        // OpenTafl's loader ignores a two-number list; its document (and its writer) mean
        // attackers then defenders, which is what we read.
        [attackers, defenders] => {
            speeds[..6].fill(*attackers);
            speeds[6..].fill(*defenders);
        }
        list if list.len() == 12 => speeds.copy_from_slice(list),
        list if list.len() == 10 => {
            speeds[..5].copy_from_slice(&list[..5]);
            speeds[6..11].copy_from_slice(&list[5..]);
        }
        _ => return Err(bad()),
    }
    Ok(speeds)
}

/// `a1,b2,` (the trailing comma is optional).
fn square_list(key: &str, list: &str, dim: u8) -> Result<Vec<Square>, ParseError> {
    let mut squares: Vec<Square> = Vec::new();
    for item in list.split(',').filter(|item| !item.is_empty()) {
        let square = item
            .parse::<Square>()
            .ok()
            .filter(|square| square.file < dim && square.rank < dim)
            .ok_or_else(|| ParseError::BadSquare {
                key: key.into(),
                item: item.into(),
                dim,
            })?;
        if !squares.contains(&square) {
            squares.push(square);
        }
    }
    squares.sort_by_key(|square| (square.rank, square.file));
    Ok(squares)
}

/// A position record, `/3t3/.../`: rank 1 first for `start`, the top rank first for `starti`.
/// Returns the rows top first.
fn position(
    key: &str,
    text: &str,
    dim: u8,
    bottom_first: bool,
) -> Result<Vec<Vec<Option<char>>>, ParseError> {
    let bad = |problem: String| ParseError::BadPosition {
        key: key.into(),
        problem,
    };
    let mut rows = Vec::new();
    for (index, row) in text.trim_matches('/').split('/').enumerate() {
        let mut cells = Vec::new();
        let mut run = String::new();
        for symbol in row.chars() {
            if symbol.is_ascii_digit() {
                run.push(symbol);
                continue;
            }
            if !run.is_empty() {
                let empty: usize = run.parse().map_err(|_| bad(format!("bad run `{run}`")))?;
                cells.extend(std::iter::repeat_n(None, empty.min(usize::from(dim) + 1)));
                run.clear();
            }
            if !LETTERS.contains(&symbol) {
                return Err(bad(format!(
                    "`{symbol}` is not a piece letter (`tcnkmgTCNKMG`)"
                )));
            }
            cells.push(Some(symbol));
        }
        if !run.is_empty() {
            let empty: usize = run.parse().map_err(|_| bad(format!("bad run `{run}`")))?;
            cells.extend(std::iter::repeat_n(None, empty.min(usize::from(dim) + 1)));
        }
        if cells.len() != usize::from(dim) {
            return Err(bad(format!(
                "row {} has {} squares, the board {dim}",
                index + 1,
                cells.len()
            )));
        }
        rows.push(cells);
    }
    if rows.len() != usize::from(dim) {
        return Err(bad(format!("{} rows for a board of {dim}", rows.len())));
    }
    if bottom_first {
        rows.reverse();
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    fn read(keys: &str) -> Settings {
        format!("dim:7 {keys} {START}").parse().unwrap()
    }

    #[test]
    fn a_type_letter_that_names_no_piece_is_refused() {
        // Issue 47: `cenh:zzz` was read as an empty list, a throne hostile to nobody.
        let refused = format!("dim:7 cenh:zzz {START}").parse::<Settings>();
        assert!(
            matches!(&refused, Err(ParseError::BadValue { key, value, .. }) if key == "cenh" && value == "zzz"),
            "{refused:?}"
        );
        assert!(format!("dim:7 corh:tX {START}")
            .parse::<Settings>()
            .is_err());
        // Empty lists and known letters still read.
        assert!(!read("cenh:").centre_props.hostile.has('t'));
        assert!(read("cenh:tcK").centre_props.hostile.has('K'));
    }

    #[test]
    fn tfr_i_reads_as_a_draw_as_opentafls_loader_does() {
        assert_eq!(read("tfr:i").threefold, Threefold::Draw);
        assert_eq!(read("tfr:w").threefold, Threefold::MoverLoses);
        assert_eq!(read("tfr:l").threefold, Threefold::MoverWins);
    }

    #[test]
    fn speed_lists_of_every_length() {
        assert_eq!(read("spd:2").speeds, [Some(2); 12]);
        let by_side = read("spd:3,-1,").speeds;
        assert_eq!(by_side[0], Some(3));
        assert_eq!(by_side[9], None);
        let magpie = read("spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,").speeds;
        assert_eq!(magpie[9], Some(1), "K is the tenth type");
        assert_eq!(magpie[6], None);
        let old = read("spd:-1,-1,-1,-1,-1,-1,-1,-1,2,-1,").speeds;
        assert_eq!(old[9], Some(2), "a 10-entry list has no guards");
        assert!("dim:7 spd:1,2,3 start:/7/7/7/7/7/7/7/"
            .parse::<Settings>()
            .is_err());
    }

    #[test]
    fn re_entry_lists_are_read_without_cenre() {
        assert!(!read("corre:").corner_props.reenter.has('K'));
        assert!(read("cenre:").corner_props.reenter.has('K'));
    }

    #[test]
    fn start_lists_rank_one_first_and_starti_the_top_rank_first() {
        let start: Settings = "dim:5 start:/t4/5/2K2/5/4T/".parse().unwrap();
        let starti: Settings = "dim:5 starti:/4T/5/2K2/5/t4/".parse().unwrap();
        assert_eq!(start.start, starti.start);
        assert_eq!(start.start[4][0], Some('t'), "a1 is the bottom-left square");
    }

    #[test]
    fn empty_values_and_defaults() {
        let settings = read("cor: cenh:");
        assert!(settings.corners.is_empty());
        assert_eq!(settings.centre_props.hostile, TypeSet::NONE);
        assert!(settings.centre_props.hostile_empty.has('T'));
        assert_eq!(settings.given("cor"), Some(""));
        assert_eq!(settings.source_of("ks", "s"), "default ks:s");
    }

    #[test]
    fn bad_strings_say_what_is_wrong() {
        let error = |text: &str| text.parse::<Settings>().unwrap_err();
        assert_eq!(error(START), ParseError::MissingDim);
        assert_eq!(error("dim:7"), ParseError::MissingStart);
        assert!(matches!(
            error("dim:7 dim:7"),
            ParseError::DuplicateKey { .. }
        ));
        assert!(matches!(
            error(&format!("dim:7 esc:x {START}")),
            ParseError::BadValue { .. }
        ));
        assert!(matches!(
            error(&format!("dim:7 cen:h9 {START}")),
            ParseError::BadSquare { .. }
        ));
    }
}
