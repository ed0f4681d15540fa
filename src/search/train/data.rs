//! Training positions on disk: one `.npy` file a generation, which numpy reads as it is.
//!
//! The file is a NumPy format 1.0 array of one record a position, with the structured dtype
//! `[('board', 'u1', (S,)), ('to_move', 'u1'), ('result', 'i1'), ('score', '<i4'),
//! ('game', '<u4'), ('ply', '<u2')]` (packed, little-endian): `board` holds one byte a square
//! (square `rank × width + file` from a1, 0 for empty, else the piece's kind + 1 in the rules'
//! order), `to_move` 0 for the attackers and 1 for the defenders, `result` the game's end for
//! the attackers (1 won, -1 lost, 0 drawn or stopped at the ply cap), `score` the mover's
//! search score in hundredths of a soldier (±(1,000,000 − plies) for a forced result), `game`
//! the game's number in its generation and `ply` the position's ply in its game.
//! `np.load("positions.npy")["board"]` is then an `N × S` array (docs/strength.md).

use std::io::Write;
use std::path::Path;

use crate::ir::Side;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// One byte a square: 0 empty, else kind + 1.
    pub board: Vec<u8>,
    /// The side to move.
    pub to_move: Side,
    /// The game's end for the attackers: 1 won, -1 lost, 0 drawn or stopped.
    pub result: i8,
    /// The mover's search score.
    pub score: i32,
    /// The game's number.
    pub game: u32,
    /// The ply.
    pub ply: u16,
}

impl Sample {
    /// The pieces as (kind, square).
    pub fn pieces(&self) -> Vec<(usize, usize)> {
        self.board
            .iter()
            .enumerate()
            .filter(|(_, &b)| b != 0)
            .map(|(square, &b)| (usize::from(b) - 1, square))
            .collect()
    }

    /// The result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub fn mover_result(&self) -> f32 {
        let attackers = f32::from(self.result) * 0.5 + 0.5;
        match self.to_move {
            Side::Attackers => attackers,
            Side::Defenders => 1.0 - attackers,
        }
    }
}

/// The header's dtype for a board of `squares` squares.
fn descr(squares: usize) -> String {
    format!(
        "[('board', '|u1', ({squares},)), ('to_move', '|u1'), ('result', '|i1'), ('score', '<i4'), ('game', '<u4'), ('ply', '<u2')]"
    )
}

const MAGIC: &[u8] = b"\x93NUMPY\x01\x00";

/// Bytes a record takes on a board of `squares` squares.
fn record(squares: usize) -> usize {
    squares + 12
}

/// Writes `samples` (boards of `squares` squares) to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, squares: usize, samples: &[Sample]) -> std::io::Result<()> {
    let mut header = format!(
        "{{'descr': {}, 'fortran_order': False, 'shape': ({},), }}",
        descr(squares),
        samples.len()
    );
    // Magic, 2 bytes of length, the header and its newline pad to a multiple of 64.
    let unpadded = MAGIC.len() + 2 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut bytes = Vec::with_capacity(header.len() + 10 + samples.len() * record(squares));
    bytes.extend_from_slice(MAGIC);
    // The header of a board of at most 26 x 26 squares is far below 64 kB.
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for s in samples {
        bytes.extend_from_slice(&s.board);
        bytes.push(s.to_move.index() as u8);
        bytes.push(s.result as u8);
        bytes.extend_from_slice(&s.score.to_le_bytes());
        bytes.extend_from_slice(&s.game.to_le_bytes());
        bytes.extend_from_slice(&s.ply.to_le_bytes());
    }
    let mut file = std::fs::File::create(path)?;
    file.write_all(&bytes)
}

/// Reads the samples of a board of `squares` squares from `path`, as [`write()`] wrote them.
///
/// # Errors
/// The file cannot be read, or is not such a file, in words.
pub fn read(path: &Path, squares: usize) -> Result<Vec<Sample>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let bad = |why: &str| format!("`{}` is not a positions file: {why}", path.display());
    if bytes.len() < 10 || &bytes[..8] != MAGIC {
        return Err(bad("no NumPy 1.0 header"));
    }
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = bytes
        .get(10..10 + len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("a truncated header"))?;
    if !header.contains(&descr(squares)) {
        return Err(bad(&format!("not the records of a {squares}-square board")));
    }
    let size = record(squares);
    let body = &bytes[10 + len..];
    if body.len() % size != 0 {
        return Err(bad("a truncated record"));
    }
    Ok(body
        .chunks_exact(size)
        .map(|r| {
            let rest = &r[squares..];
            Sample {
                board: r[..squares].to_vec(),
                to_move: if rest[0] == 0 {
                    Side::Attackers
                } else {
                    Side::Defenders
                },
                result: rest[1] as i8,
                score: i32::from_le_bytes([rest[2], rest[3], rest[4], rest[5]]),
                game: u32::from_le_bytes([rest[6], rest[7], rest[8], rest[9]]),
                ply: u16::from_le_bytes([rest[10], rest[11]]),
            }
        })
        .collect())
}
