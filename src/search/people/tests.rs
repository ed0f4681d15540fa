use super::fit::{fit_side, log_likelihood, predict, samples};
use super::play::{level_game, play_out, Player};
use super::*;
use crate::search::duel::{Adjudication, Opening};
use crate::Variant;

fn engine(name: &str) -> Arc<Engine> {
    // Bundled variants compile.
    let variant = Variant::bundled(name).expect("bundled");
    Arc::new(Engine::new(&variant.rules).expect("compiles"))
}

/// The first `count` games of the Brandubh corpus, replayed by the variant it was played under.
fn corpus_games(count: usize) -> Vec<Game> {
    let engine = engine("federation-brandubh");
    let text = include_str!("../../../tests/games/brandubh.csv");
    crate::record::games(text, crate::record::Format::Csv)
        .filter_map(Result::ok)
        .map(|record| crate::record::check::replay(&engine, &record).game)
        .filter(|game| game.plies().len() > 4)
        .take(count)
        .collect()
}

/// A model of `attackers` and `defenders` weights, the rest of the file empty.
fn model_of(attackers: Vec<f64>, defenders: Vec<f64>, depth: u32) -> Model {
    Model {
        format: FORMAT,
        about: String::new(),
        command: String::new(),
        fitted: String::new(),
        fitted_on: Vec::new(),
        depth,
        features: feature_names(),
        attackers,
        defenders,
        figures: Vec::new(),
    }
}

#[test]
fn the_bundled_model_reads() {
    let model = Model::bundled();
    assert_eq!(model.features, feature_names());
    assert_eq!(model.attackers.len(), FEATURES);
}

#[test]
fn a_model_of_other_features_or_format_is_refused() {
    let mut model = model_of(vec![0.0; FEATURES], vec![0.0; FEATURES], 0);
    let good = serde_json::to_string(&model).unwrap();
    assert!(Model::from_json(&good).is_ok());
    model.attackers.pop();
    let short = serde_json::to_string(&model).unwrap();
    assert!(matches!(
        Model::from_json(&short),
        Err(ModelError::Features)
    ));
    model.attackers.push(0.0);
    model.format = FORMAT + 1;
    let later = serde_json::to_string(&model).unwrap();
    assert!(matches!(
        Model::from_json(&later),
        Err(ModelError::Format(_))
    ));
    assert!(matches!(
        Model::from_json("[1, 2]"),
        Err(ModelError::Json(_))
    ));
}

#[test]
fn the_fit_predicts_held_out_moves_better_than_a_uniform_choice() {
    let games = corpus_games(25);
    let (fitted, held_out) = games.split_at(20);
    // Depth 0 (the hand evaluation of each move's position) keeps the test quick.
    let train = samples(fitted, 1, 0);
    let test = samples(held_out, 1, 0);
    assert!(train.len() > 200 && !test.is_empty());
    let model = model_of(
        fit_side(&train, Side::Attackers),
        fit_side(&train, Side::Defenders),
        0,
    );
    for side in Side::BOTH {
        assert!(model.weights(side).iter().any(|&w| w != 0.0), "{side:?}");
    }
    let (people, uniform) = predict(&model, &test, 1.0);
    assert!(
        people.loglik > uniform,
        "fitted {} against uniform {uniform}",
        people.loglik
    );
    // On the moves it was fitted to, the fit is at least as likely as no weights at all
    // (the uniform choice): it maximises that likelihood, less a small ridge.
    let zero = vec![0.0; FEATURES];
    for side in Side::BOTH {
        let mine: Vec<_> = train.iter().filter(|s| s.side == side).collect();
        let fitted: f64 = mine
            .iter()
            .map(|s| log_likelihood(s, model.weights(side), 1.0))
            .sum();
        let flat: f64 = mine.iter().map(|s| log_likelihood(s, &zero, 1.0)).sum();
        assert!(fitted > flat, "{side:?}: {fitted} against {flat}");
    }
}

#[test]
fn a_sharper_level_picks_its_favourite_move_more_often() {
    let game = Game::new(engine("brandubh"));
    let moves = move_features(&game, 0);
    let model = Model::bundled();
    let top = |sharpness| {
        model
            .policy(game.to_move(), &moves, sharpness)
            .into_iter()
            .fold(0.0, f64::max)
    };
    let sum: f64 = model.policy(game.to_move(), &moves, 1.0).iter().sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(top(4.0) >= top(1.0));
}

#[test]
fn the_people_player_plays_legal_moves_and_is_reproducible_from_its_seed() {
    let engine = engine("brandubh");
    let model = model_of(vec![0.3; FEATURES], vec![-0.2; FEATURES], 0);
    let player = Player::People {
        model: &model,
        sharpness: 1.0,
    };
    let play = |seed| {
        let mut rng = Rng::new(seed);
        play_out(
            Game::new(engine.clone()),
            player,
            player,
            Adjudication::cap(60),
            &mut rng,
            || {},
        )
    };
    let moves = |game: &Game| game.plies().iter().map(|p| p.mv).collect::<Vec<_>>();
    let first = play(7);
    assert!(!first.plies().is_empty());
    assert_eq!(moves(&first), moves(&play(7)));
    assert_ne!(moves(&first), moves(&play(8)));
    // Every move is legal where it was played.
    let mut again = Game::new(engine.clone());
    for mv in moves(&first) {
        assert!(again.legal_moves().contains(&mv), "{mv}");
        again.play(mv).unwrap();
    }
    // A run's game depends on its seed and index alone.
    let opening = Opening::from(2);
    let game = |index| {
        level_game(
            &engine,
            Level::PEOPLE,
            &model,
            crate::search::Limits::depth(1),
            3,
            index,
            opening,
            Adjudication::cap(80),
            || {},
        )
    };
    assert_eq!(game(1), game(1));
}

#[test]
fn a_level_is_read_and_written_back_by_its_name() {
    for (text, level) in [
        ("people", Level::PEOPLE),
        ("people:2", Level::People { sharpness: 2.0 }),
        ("people:0.5", Level::People { sharpness: 0.5 }),
        ("depth:3", Level::Depth(3)),
        ("engine", Level::Engine),
    ] {
        assert_eq!(text.parse::<Level>(), Ok(level), "{text}");
        assert_eq!(level.to_string(), text);
    }
    assert_eq!("people:1".parse::<Level>(), Ok(Level::PEOPLE));
    for bad in [
        "",
        "peple",
        "people:",
        "people:0",
        "people:nan",
        "people:-1",
        "depth",
        "depth:0",
        "depth:13",
        "engine:2",
        "depth:x",
    ] {
        let error = bad.parse::<Level>().unwrap_err();
        assert!(error.contains("expected a level"), "{bad}: {error}");
    }
}

#[test]
fn a_move_that_wins_at_once_is_told_apart() {
    // The king on d1 of Brandubh, the first rank empty: his moves to a1 and g1 win at once,
    // and no other move does.
    let engine = engine("brandubh");
    let position = crate::game::notation::parse_position(
        &engine,
        "/3t3/3t3/7/t4tt/3T3/7/3K3/",
        Side::Defenders,
    )
    .expect("a legal position");
    let game = Game::from_position(engine, position);
    let moves = move_features(&game, 1);
    let winning: Vec<&Described> = moves
        .iter()
        .filter(|m| m.features[TERMS + 1] == 1.0)
        .collect();
    assert!(!winning.is_empty());
    for m in winning {
        assert!(
            m.mv.to.rank == 0 && (m.mv.to.file == 0 || m.mv.to.file == 6),
            "{}",
            m.mv
        );
    }
}
