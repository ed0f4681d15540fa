//! A network file: one line of JSON, the [`Header`], then the weights in binary.
//!
//! The header says what the network reads (board, piece kinds), the rules it was trained under
//! (their key), its sizes, its integer units and the training run, so a reader can tell
//! without the weights whether it fits a variant, and a person can read it with `head -1`.
//! The weights follow the newline, little-endian, in this order: the first layer (`i16`,
//! `inputs × H`, one row an input), its bias (`i16`, `H`), the hidden layer (`i16`, `L × 2H`,
//! one row a unit), its bias (`i32`, `L`), the output weights (`i16`, `L`) and the output bias
//! (`i32`). A Copenhagen network of 128 units is 190 kB this way and over 600 kB as JSON
//! numbers, which no one reviews line by line either; the header is the reviewable part.

use super::network::{Header, Network, Weights};

/// The file's bytes.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    // A header of strings and numbers always serialises.
    let mut bytes = serde_json::to_vec(net.header()).expect("a header serialises");
    bytes.push(b'\n');
    let w = net.weights();
    for part in [&w.first, &w.first_bias, &w.second] {
        for v in part.iter() {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    for v in &w.second_bias {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in &w.out {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&w.out_bias.to_le_bytes());
    bytes
}

/// The network in `bytes`.
///
/// # Errors
/// No header line, a header that is not a network's, or weights of the wrong length, in words.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
    let newline = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("no header line (a network file starts with one line of JSON)")?;
    let header: Header = serde_json::from_slice(&bytes[..newline])
        .map_err(|e| format!("the header is not a network's: {e}"))?;
    let (h, l) = (header.accumulator, header.hidden);
    let inputs = header.layout.inputs();
    let mut rest = Reader(&bytes[newline + 1..]);
    let sizes = inputs
        .checked_mul(h)
        .and_then(|first| Some((first, l.checked_mul(2)?.checked_mul(h)?)))
        .ok_or("the header's sizes overflow")?;
    let want = 2 * (sizes.0 + h + sizes.1 + l) + 4 * (l + 1);
    if rest.0.len() != want {
        return Err(format!(
            "{} bytes of weights where the header's sizes need {want}",
            rest.0.len()
        ));
    }
    let weights = Weights {
        first: rest.i16s(sizes.0),
        first_bias: rest.i16s(h),
        second: rest.i16s(sizes.1),
        second_bias: rest.i32s(l),
        out: rest.i16s(l),
        out_bias: rest.i32s(1)[0],
    };
    Network::new(header, weights)
}

/// Little-endian numbers off the front of a slice whose length was checked.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let (take, rest) = self.0.split_at(2 * n);
        self.0 = rest;
        take.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        let (take, rest) = self.0.split_at(4 * n);
        self.0 = rest;
        take.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }
}
