//! The evaluation's terms of a position, and what each weighs under a weights file: why the
//! search likes a position.
//!
//! ```text
//! cargo run --release --example eval_terms -- copenhagen variants/weights/copenhagen.json e1-e3 h6-h8
//! ```
//!
//! Arguments: a bundled variant, a weights file (as `tafl tune` writes it), then the moves from
//! the start, as typed or as records write them (`e1-e3xe4`). Prints each term that is not 0: its count
//! from the attackers' side (a defenders' term counts negative), the weight and their product,
//! then the sum, the evaluation from the attackers' side in hundredths of a soldier
//! (docs/strength.md, "How the attackers lose at 1 s", reads two games with it).

use tafl::record::read_move_word;
use tafl::search::eval::{terms_of, WeightsFile, TERM_NAMES};
use tafl::{Engine, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, weights, moves @ ..] = &args[..] else {
        return Err("usage: eval_terms VARIANT WEIGHTS.json [MOVES...]".into());
    };
    let variant = Variant::bundled(variant).map_err(|_| format!("`{variant}`: no such variant"))?;
    let engine = Engine::new(&variant.rules).map_err(|e| format!("{e}"))?;
    let file: WeightsFile = serde_json::from_str(&std::fs::read_to_string(weights)?)?;
    let mut game = tafl::Game::new(std::sync::Arc::new(engine));
    for word in moves {
        // As typed or as records write it (`e1-e3xe4`); the written captures are not checked.
        let (mv, _) = read_move_word(word).ok_or_else(|| format!("`{word}`: not a move"))?;
        game.play(mv).map_err(|e| e.to_string())?;
    }
    let terms = terms_of(game.engine(), game.position()).ok_or("not a compiled position")?;
    let weights = file.weights.values();
    for ((name, value), weight) in TERM_NAMES.iter().zip(terms.values()).zip(weights) {
        if value != 0.0 {
            let part = value * f64::from(weight);
            println!("{name:>16} {value:>8.2} x {weight:>5} = {part:>9.0}");
        }
    }
    // The evaluation's own sum (material rounded as the search rounds it).
    let total = terms.score(&file.weights);
    println!("{:>16} {total:>36} (attackers' view)", "total");
    Ok(())
}
