//! Which weights a variant is played with: read from its rules, never from its name.
//!
//! The evaluation's terms come from the rules already ([`super::eval`]); what the rules also
//! decide here is how much each term weighs. A designer's own file, a renamed copy of a bundled
//! variant and a one-clause change of it are played by the same computer player as the bundled
//! variant whenever the rules that matter to the weights are the same, so that a balance
//! difference (`tafl compare`, a Python sweep) measures the rule change and not a change of
//! player.
//!
//! Three things about the rules choose the weights, because the matches that chose the shipped
//! weights divided along them (docs/strength.md, "A neighbour's weights"):
//!
//! - **where the king escapes**: to a few squares (the corners), which the attackers can wall
//!   off, or to the whole edge, which they cannot;
//! - **the board**: 7x7 and smaller, where a fit to self-play found other weights worth 200
//!   Elo (Brandubh's, Magpie's), or larger;
//! - **whether the king is captured like a soldier** somewhere (between two enemies): such a
//!   king runs at more risk, and Linnaeus' fit, made for him, won in every such edge game it
//!   was tried in and lost where the king is taken only by four (Sea Battle 13x13: −168).
//!
//! Each [`Profile`] names a weights file in `variants/weights/`, built into the binary; the
//! file's `fitted` field says how its weights were chosen.

use super::eval::{WeightsFile, SMALL_REGION};
use super::Weights;
use crate::ir::{KingCaptureMethod, Rules};

/// The weights a search uses by default for `rules`: those of the [`Profile`] its rules fall in
/// (where the king escapes, the board's size, how the king is captured), never chosen by the
/// variant's name, so that a renamed or changed copy of a bundled variant is played by the
/// same player wherever those rules are the same.
pub fn weights_for(rules: &crate::ir::Rules) -> Weights {
    Profile::of(rules).weights()
}

/// Where a variant's runner (its king) wins by going.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Escape {
    /// A small region (at most eight squares: the corners) the attackers can wall off.
    Corners,
    /// A larger region (the edge; Alea Evangelii's corners of three squares each) no wall
    /// closes.
    Edge,
    /// No piece wins by reaching a region.
    None,
}

/// The rules that choose a variant's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Features {
    /// Where the king escapes.
    pub escape: Escape,
    /// Whether the board is 7x7 or smaller (its longer side at most [`SMALL_BOARD`]).
    pub small_board: bool,
    /// Whether a king is captured like a soldier, between two enemies, on some square.
    pub soldier_king: bool,
}

/// The longest side of a small board.
pub const SMALL_BOARD: u8 = 7;

impl Features {
    /// The features of `rules`.
    pub fn of(rules: &Rules) -> Features {
        let region_size = |name: &str| {
            rules
                .regions
                .iter()
                .find(|r| r.name == name)
                .map_or(0, |r| r.squares.len())
        };
        let escapes: Vec<usize> = rules
            .outcome
            .escapes
            .iter()
            .map(|e| region_size(&e.region))
            .collect();
        let escape = if escapes.is_empty() {
            Escape::None
        } else if escapes.iter().all(|&n| n <= SMALL_REGION as usize) {
            Escape::Corners
        } else {
            Escape::Edge
        };
        Features {
            escape,
            small_board: rules.board.width.max(rules.board.height) <= SMALL_BOARD,
            soldier_king: rules
                .king_capture
                .iter()
                .any(|rule| rule.method == KingCaptureMethod::Custodial),
        }
    }
}

/// A family of variants that share weights, and the file that holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// A small board, escape to the corners (Brandubh, Magpie): Brandubh's fit.
    SmallCorners,
    /// A small board, escape to the edge (Ard Ri): Ard Ri's fit.
    SmallEdge,
    /// A larger board, escape to the corners (Copenhagen, Fetlar, Tablut of brettspielnetz):
    /// the hand-set weights with Copenhagen's corner walls, ring and endgame terms.
    Corners,
    /// A larger board, escape to the edge, a king captured like a soldier somewhere (Linnaeus'
    /// Tablut, Tawlbwrdd): Linnaeus' fit.
    EdgeSoldierKing,
    /// Any other variant: a larger board, escape to the edge, a king taken only by four (Sea
    /// Battle, the Tafl leaflet), or no escape at all: the hand-set weights with the smaller
    /// side's men priced.
    Edge,
}

/// Each profile with its file's text, `variants/weights/NAME.json`, built in.
macro_rules! built_in {
    ($($profile:ident => $name:literal),* $(,)?) => {
        &[$((Profile::$profile, $name, include_str!(concat!("../../variants/weights/", $name, ".json")))),*]
    };
}

/// Every profile, its name and its weights file.
const FILES: &[(Profile, &str, &str)] = built_in![
    SmallCorners => "small-corners",
    SmallEdge => "small-edge",
    Corners => "corners",
    EdgeSoldierKing => "edge-soldier-king",
    Edge => "edge",
];

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 5] = [
        Profile::SmallCorners,
        Profile::SmallEdge,
        Profile::Corners,
        Profile::EdgeSoldierKing,
        Profile::Edge,
    ];

    /// The profile whose weights play `rules`.
    pub fn of(rules: &Rules) -> Profile {
        Profile::for_features(Features::of(rules))
    }

    /// The profile of variants with these features.
    pub fn for_features(features: Features) -> Profile {
        match (features.escape, features.small_board) {
            (Escape::Corners, true) => Profile::SmallCorners,
            (Escape::Edge, true) => Profile::SmallEdge,
            (Escape::Corners, false) => Profile::Corners,
            (Escape::Edge, false) if features.soldier_king => Profile::EdgeSoldierKing,
            (Escape::Edge, false) | (Escape::None, _) => Profile::Edge,
        }
    }

    /// The profile's name, as `--weights` takes it and its file is called.
    pub fn name(self) -> &'static str {
        self.file().1
    }

    /// The profile called `name`.
    pub fn named(name: &str) -> Option<Profile> {
        FILES.iter().find(|f| f.1 == name).map(|f| f.0)
    }

    /// What the profile is for, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Profile::SmallCorners => "a board of 7x7 or smaller, escape to the corners",
            Profile::SmallEdge => "a board of 7x7 or smaller, escape to the edge",
            Profile::Corners => "a board larger than 7x7, escape to the corners",
            Profile::EdgeSoldierKing => {
                "a board larger than 7x7, escape to the edge, a king captured like a soldier somewhere"
            }
            Profile::Edge => {
                "a board larger than 7x7, escape to the edge (or none), a king taken only by enclosing him"
            }
        }
    }

    /// The text of the profile's weights file.
    pub fn file_text(self) -> &'static str {
        self.file().2
    }

    /// The profile's weights file, read.
    pub fn weights_file(self) -> WeightsFile {
        // The files are built in and `tests/tune.rs` reads each one: they parse.
        serde_json::from_str(self.file_text()).expect("a built-in weights file parses")
    }

    /// The profile's weights.
    pub fn weights(self) -> Weights {
        static READ: std::sync::OnceLock<Vec<(Profile, Weights)>> = std::sync::OnceLock::new();
        let read = READ.get_or_init(|| {
            Profile::ALL
                .iter()
                .map(|&p| (p, p.weights_file().weights))
                .collect()
        });
        read.iter()
            .find(|(p, _)| *p == self)
            .map(|(_, w)| *w)
            // ALL lists every profile, and READ holds one entry for each.
            .expect("every profile is read")
    }

    fn file(self) -> &'static (Profile, &'static str, &'static str) {
        FILES
            .iter()
            .find(|f| f.0 == self)
            // FILES has one entry for every variant of the enum (the test of ALL checks it).
            .expect("every profile has a file")
    }
}

/// The weights a player uses and where they come from, for a report to say which.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The weights.
    pub weights: Weights,
    /// Where they come from: a profile's name, `hand`, or a file's path.
    pub label: String,
}

impl Evaluation {
    /// The evaluation the rules choose.
    pub fn of(rules: &Rules) -> Evaluation {
        Evaluation::profile(Profile::of(rules))
    }

    /// A profile's evaluation.
    pub fn profile(profile: Profile) -> Evaluation {
        Evaluation {
            weights: profile.weights(),
            label: profile.name().to_string(),
        }
    }

    /// The hand-set weights.
    pub fn hand() -> Evaluation {
        Evaluation {
            weights: super::WEIGHTS,
            label: "hand".to_string(),
        }
    }

    /// The evaluation `name` names for a variant with `rules`: `rules` (and `tuned`, its older
    /// name) for the profile the rules choose, a profile's name, `hand`, or the path of a
    /// weights file as `tafl tune` writes it.
    ///
    /// # Errors
    /// A file that cannot be read or is not a weights file, in words.
    pub fn named(name: &str, rules: &Rules) -> Result<Evaluation, String> {
        Ok(Evaluation::fixed(name)?.unwrap_or_else(|| Evaluation::of(rules)))
    }

    /// The evaluation `name` names where that does not depend on the variant (a profile,
    /// `hand`, a file); `None` for `rules` and `tuned`, which the variant's rules decide.
    ///
    /// # Errors
    /// A file that cannot be read or is not a weights file, in words.
    pub fn fixed(name: &str) -> Result<Option<Evaluation>, String> {
        if let Some(profile) = Profile::named(name) {
            return Ok(Some(Evaluation::profile(profile)));
        }
        match name {
            "rules" | "tuned" => Ok(None),
            "hand" => Ok(Some(Evaluation::hand())),
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!(
                        "cannot read weights file `{path}`: {e} (weights are `rules`, `hand`, \
                         a profile ({}) or a weights file)",
                        Profile::ALL.map(Profile::name).join(", ")
                    )
                })?;
                let file: WeightsFile = serde_json::from_str(&text)
                    .map_err(|e| format!("`{path}` is not a weights file: {e}"))?;
                Ok(Some(Evaluation {
                    weights: file.weights,
                    label: path.to_string(),
                }))
            }
        }
    }

    /// The evaluation in words: its label, and for a profile the rules it is for.
    pub fn describe(&self) -> String {
        match Profile::named(&self.label) {
            Some(profile) => format!("{} ({})", profile.name(), profile.describe()),
            None if self.label == "hand" => "hand (the hand-set weights)".to_string(),
            None => format!("the weights file {}", self.label),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_has_a_file_named_for_it() {
        for profile in Profile::ALL {
            assert_eq!(Profile::named(profile.name()), Some(profile));
            assert!(!profile.weights_file().fitted.is_empty());
        }
        assert_eq!(FILES.len(), Profile::ALL.len());
        assert_eq!(Profile::named("copenhagen"), None);
    }
}
