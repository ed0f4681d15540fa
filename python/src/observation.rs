//! The board as planes of bytes: the one observation encoding that `Game.planes()`, the
//! PettingZoo environment, the vectorised environment and the OpenSpiel game all use.
//!
//! Planes, each `height x width` with row 0 the top rank and column 0 file `a`: one per piece
//! kind (in the variant's order, so each belongs to one side), then one per region (throne,
//! corners, edge, ...), then, when asked for, a plane of ones when the attackers are to move.

use tafl::{Engine, Position, Side, Square};

/// How many planes an observation of `engine` has, with or without the side-to-move plane.
pub fn plane_count(engine: &Engine, to_move: bool) -> usize {
    let rules = engine.rules();
    rules.pieces.len() + rules.regions.len() + usize::from(to_move)
}

/// The bytes of one plane.
pub fn plane_size(engine: &Engine) -> usize {
    usize::from(engine.width()) * usize::from(engine.height())
}

/// Writes the planes of `position` into `out`, which holds `plane_count * plane_size` bytes
/// (the caller sizes it; a shorter slice panics on the index, a bug of the caller's).
pub fn write_planes(engine: &Engine, position: &Position, to_move: bool, out: &mut [u8]) {
    let rules = engine.rules();
    let (w, h) = (usize::from(engine.width()), usize::from(engine.height()));
    let kinds = rules.pieces.len();
    let count = plane_count(engine, to_move);
    let out = &mut out[..count * w * h];
    out.fill(0);
    let cell = |plane: usize, sq: Square| {
        plane * w * h + (h - 1 - usize::from(sq.rank)) * w + usize::from(sq.file)
    };
    for (sq, kind) in engine.pieces(position) {
        out[cell(kind, sq)] = 1;
    }
    for (i, region) in rules.regions.iter().enumerate() {
        for &sq in &region.squares {
            if sq.is_on(engine.width(), engine.height()) {
                out[cell(kinds + i, sq)] = 1;
            }
        }
    }
    if to_move && engine.to_move(position) == Side::Attackers {
        out[(count - 1) * w * h..].fill(1);
    }
}

/// The names of the planes, in order: `attackers:soldier`, ..., `region:throne`, ...,
/// `to_move`.
pub fn plane_names(engine: &Engine, to_move: bool) -> Vec<String> {
    let rules = engine.rules();
    let mut names: Vec<String> = rules
        .pieces
        .iter()
        .map(|p| format!("{}:{}", p.side.as_str(), p.name))
        .collect();
    names.extend(rules.regions.iter().map(|r| format!("region:{}", r.name)));
    if to_move {
        names.push("to_move".to_string());
    }
    names
}
