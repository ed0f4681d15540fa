//! `tafl list`: the bundled variants.

use std::process::ExitCode;

use crate::variant::{Variant, BUNDLED};

pub fn run() -> ExitCode {
    let width = BUNDLED
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    for (name, _) in BUNDLED {
        let description = match Variant::bundled(name) {
            Ok(variant) => format!(
                "{} ({}x{})",
                variant.rules.name, variant.rules.board.width, variant.rules.board.height
            ),
            Err(_) => "(does not load: run `tafl lint` on it)".to_string(),
        };
        println!("{name:<width$}  {description}");
    }
    ExitCode::SUCCESS
}
