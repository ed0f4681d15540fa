//! Announcements: the calls a variant asks players to make (Raichi, Tuichi).
//!
//! A variant's `announce "WORD" when the PIECE has N clear routes to the REGION` counts, for each
//! piece of that kind, its *clear routes*: the squares of the region it could reach in one rook
//! move along an empty line and may land on. The call whose number equals the count is made; a
//! count above every call's number makes the call with the largest number (three open routes are
//! still a Tuichi). Generic over the IR: any piece, any region.

use crate::engine::{Engine, Move, Position};
use crate::ir::{Side, Square};

/// One call to make in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The word to say ("Raichi").
    pub word: String,
    /// The piece kind's display name ("King").
    pub piece: String,
    /// The piece's side (the side that makes the call).
    pub side: Side,
    /// Where the piece stands.
    pub square: Square,
    /// The region squares it can reach, sorted (one per clear route).
    pub routes: Vec<Square>,
    /// The region's name.
    pub region: String,
}

/// The calls the variant's announcements make in `position`, one per piece that qualifies,
/// ordered by the square of the piece.
pub fn calls(engine: &Engine, position: &Position) -> Vec<Call> {
    let rules = engine.rules();
    let mut calls = Vec::new();
    // Group the announcements by piece and region: each group makes at most one call per piece.
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for announcement in &rules.announcements {
        let key = (announcement.piece.as_str(), announcement.region.as_str());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    for (piece_name, region_name) in groups {
        let (Some(kind), Some(region)) = (
            rules.pieces.iter().position(|p| p.name == piece_name),
            rules.region(region_name),
        ) else {
            continue;
        };
        let side = rules.pieces[kind].side;
        // Landing rules are asked of the engine with the piece's side to move.
        let asking = if engine.to_move(position) == side {
            *position
        } else {
            engine.with_side_to_move(position, side)
        };
        for (square, _) in engine
            .pieces(position)
            .into_iter()
            .filter(|(_, k)| *k == kind)
        {
            let routes = clear_routes(engine, &asking, square, &region.squares);
            let count = routes.len() as u32;
            if count == 0 {
                continue;
            }
            let best = rules
                .announcements
                .iter()
                .filter(|a| a.piece == piece_name && a.region == region_name)
                .filter(|a| a.routes <= count)
                .max_by_key(|a| a.routes);
            if let Some(announcement) = best {
                calls.push(Call {
                    word: announcement.word.clone(),
                    piece: rules.pieces[kind].display.clone(),
                    side,
                    square,
                    routes,
                    region: region_name.to_string(),
                });
            }
        }
    }
    calls.sort_by_key(|call| (call.square.file, call.square.rank));
    calls
}

/// The squares of `region` the piece on `from` reaches in one legal move along an empty line.
fn clear_routes(
    engine: &Engine,
    position: &Position,
    from: Square,
    region: &[Square],
) -> Vec<Square> {
    let mut reached = Vec::new();
    for (df, dr) in [(0i16, 1i16), (0, -1), (1, 0), (-1, 0)] {
        let (mut file, mut rank) = (i16::from(from.file), i16::from(from.rank));
        loop {
            file += df;
            rank += dr;
            if file < 0
                || rank < 0
                || file >= i16::from(engine.width())
                || rank >= i16::from(engine.height())
            {
                break;
            }
            // In range of the board, so both fit in a u8.
            let square = Square::new(file as u8, rank as u8);
            if engine.piece_at(position, square).is_some() {
                break;
            }
            if region.contains(&square)
                && engine
                    .why_illegal(position, Move::new(from, square))
                    .is_none()
            {
                reached.push(square);
            }
        }
    }
    reached.sort_by_key(|s| (s.file, s.rank));
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;
    use crate::Variant;

    fn leaflet() -> Engine {
        let variant = Variant::bundled("tafl-leaflet").unwrap();
        Engine::new(&variant.rules).unwrap()
    }

    #[test]
    fn no_call_at_the_start() {
        let engine = leaflet();
        assert!(calls(&engine, &engine.start()).is_empty());
    }

    #[test]
    fn one_route_is_raichi_two_are_tuichi() {
        let engine = leaflet();
        // King on c7: blocked north (c9), west (b7) and east (e7); south to c1 is open.
        let one = parse_position(&engine, "2t6/9/1tK1T4/9/9/9/9/9/9", Side::Attackers).unwrap();
        let found = calls(&engine, &one);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].word, "Raichi");
        assert_eq!(found[0].routes, vec![Square::new(2, 0)]);
        let two = parse_position(&engine, "2t6/9/2K1T4/9/9/9/9/9/9", Side::Attackers).unwrap();
        let found = calls(&engine, &two);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].word, "Tuichi");
        assert_eq!(found[0].routes, vec![Square::new(0, 6), Square::new(2, 0)]);
        // Four open lines are still a Tuichi, the largest call.
        let three = parse_position(&engine, "9/9/2K6/9/9/9/9/9/9", Side::Attackers).unwrap();
        assert_eq!(calls(&engine, &three)[0].word, "Tuichi");
        assert_eq!(calls(&engine, &three)[0].routes.len(), 4);
    }

    #[test]
    fn variants_without_announcements_never_call() {
        let variant = Variant::bundled("linnaeus").unwrap();
        let engine = Engine::new(&variant.rules).unwrap();
        let open = parse_position(&engine, "9/9/2K6/9/9/9/9/9/4t4", Side::Attackers).unwrap();
        assert!(calls(&engine, &open).is_empty());
    }
}
