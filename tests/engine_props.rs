//! Properties of the engine over random games (proptest picks the seeds and lengths).

use std::sync::Arc;

use proptest::prelude::*;
use tafl::engine::{Engine, Rng, Setup};
use tafl::ir::{AccessCondition, Square};
use tafl::{Game, Variant};

fn engine(name: &str) -> Arc<Engine> {
    Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap())
}

/// A game of up to `plies` random plies.
fn random_game(engine: &Arc<Engine>, seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(engine.clone());
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// One legality: the explaining path (`why_illegal`) finds a reason for exactly the moves
    /// that generation leaves out, over every from/to pair of the board, in every bundled
    /// variant; and `Game::play` accepts exactly the generated moves.
    #[test]
    fn explanation_agrees_with_generation(seed in any::<u64>(), plies in 0usize..150, variant in prop::sample::select(tafl::bundled_names().collect::<Vec<_>>())) {
        let engine = engine(variant);
        let game = random_game(&engine, seed, plies);
        let position = game.position();
        let generated = engine.legal_moves(position);
        let (w, h) = (engine.width(), engine.height());
        let squares: Vec<Square> = (0..h).flat_map(|r| (0..w).map(move |f| Square::new(f, r))).collect();
        for &from in &squares {
            for &to in &squares {
                let mv = tafl::Move::new(from, to);
                let legal = generated.binary_search_by_key(&(from.file, from.rank, to.file, to.rank), |m| (m.from.file, m.from.rank, m.to.file, m.to.rank)).is_ok();
                prop_assert_eq!(engine.is_legal(position, mv), legal, "{} in {}", mv, variant);
                let explained = engine.why_illegal(position, mv);
                prop_assert_eq!(explained.is_none(), legal, "{} in {}: generation says {}, explanation {:?}", mv, variant, legal, explained);
                if !game.is_over() {
                    prop_assert_eq!(game.check(mv).is_ok(), legal);
                }
            }
        }
    }

    /// Undo walks back through exactly the positions the game went through, one ply at a time,
    /// to the start, and playing the same moves again reaches the same positions: the game's
    /// bookkeeping of positions, plies and endings stays in step.
    #[test]
    fn undo_walks_back_through_every_position_played(seed in any::<u64>(), plies in 0usize..120, variant in prop::sample::select(vec!["linnaeus", "brettspielnetz", "fetlar", "copenhagen"])) {
        let engine = engine(variant);
        let mut rng = Rng::new(seed);
        let mut game = Game::new(engine.clone());
        let mut seen = vec![*game.position()];
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.play(mv).unwrap();
            seen.push(*game.position());
            moves.push(mv);
        }
        for i in (0..moves.len()).rev() {
            prop_assert!(game.undo().is_some());
            prop_assert_eq!(*game.position(), seen[i]);
            prop_assert_eq!(engine.hash(game.position()), engine.full_hash(&seen[i]));
            prop_assert_eq!(game.plies().len(), i);
            prop_assert!(!game.is_over());
        }
        prop_assert!(game.undo().is_none());
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).unwrap();
            prop_assert_eq!(*game.position(), seen[i + 1]);
        }
    }

    #[test]
    fn incremental_hash_equals_full_hash(seed in any::<u64>(), plies in 0usize..200, variant in prop::sample::select(vec!["linnaeus", "brettspielnetz", "brandubh", "fetlar"])) {
        let engine = engine(variant);
        let game = random_game(&engine, seed, plies);
        prop_assert_eq!(engine.hash(game.position()), engine.full_hash(game.position()));
    }

    #[test]
    fn mirrored_positions_have_as_many_moves(seed in any::<u64>(), plies in 0usize..80, variant in prop::sample::select(vec!["linnaeus", "brettspielnetz", "fetlar", "brandubh"])) {
        let engine = engine(variant);
        let game = random_game(&engine, seed, plies);
        let (w, h) = (engine.width(), engine.height());
        let pieces = engine.pieces(game.position());
        let side = game.to_move();
        // Fresh positions (no history) on both sides, so once-left and shuttle state match.
        let setup = |pieces: Vec<(Square, usize)>| engine.setup(&Setup { pieces, to_move: side }).unwrap();
        let plain = setup(pieces.clone());
        let transforms: [fn(Square, u8, u8) -> Square; 3] = [
            |s, w, _| Square::new(w - 1 - s.file, s.rank),
            |s, _, h| Square::new(s.file, h - 1 - s.rank),
            |s, _, h| Square::new(h - 1 - s.rank, s.file),
        ];
        for transform in transforms {
            let moved: Vec<_> = pieces.iter().map(|&(s, k)| (transform(s, w, h), k)).collect();
            let image = setup(moved);
            prop_assert_eq!(engine.count_moves(&plain), engine.count_moves(&image));
        }
    }

    #[test]
    fn no_move_lands_where_an_unconditional_rule_forbids(seed in any::<u64>(), plies in 0usize..150, variant in prop::sample::select(vec!["linnaeus", "brettspielnetz", "fetlar", "brandubh", "ashton"])) {
        let engine = engine(variant);
        let rules = engine.rules().clone();
        let game = random_game(&engine, seed, plies);
        for mv in game.legal_moves() {
            let kind = engine.piece_at(game.position(), mv.from).unwrap();
            let name = &rules.pieces[kind].name;
            for rule in rules.access.iter().filter(|r| r.condition == AccessCondition::Always && r.action.includes_landing()) {
                if rule.pieces.contains(name) {
                    let region = rules.region(&rule.region).unwrap();
                    prop_assert!(!region.squares.contains(&mv.to), "{} lands on {} ({})", mv, mv.to, rule.region);
                }
            }
        }
    }

    #[test]
    fn every_capture_is_beside_the_moved_piece(seed in any::<u64>(), variant in prop::sample::select(vec!["linnaeus", "brettspielnetz", "fetlar", "brandubh", "ashton"])) {
        let engine = engine(variant);
        let game = random_game(&engine, seed, 400);
        for ply in game.plies() {
            for captured in &ply.captured {
                let distance = (i32::from(captured.file) - i32::from(ply.mv.to.file)).abs()
                    + (i32::from(captured.rank) - i32::from(ply.mv.to.rank)).abs();
                prop_assert_eq!(distance, 1, "{} captured {}", ply.mv, captured);
            }
        }
    }
}
