//! A game of the variant in the editor: the position and what may be played, moves and their
//! refusals in the game's own words, undo, the computer's move and the record. Everything is
//! `tafl::Game`, `tafl::search` and `tafl::record`; this file only speaks JSON.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tafl::game::describe;
use tafl::ir::Role;
use tafl::record::native::{self, WrittenPly};
use tafl::record::{self, RecordedOutcome, RecordedResult, Tags};
use tafl::search::{self, Limits, Report};
use tafl::{Engine, Game, Move, Ply, Side, Variant};
use wasm_bindgen::prelude::*;

use crate::editor::load;
use crate::to_json;

/// A game of one variant, from its start position.
#[wasm_bindgen]
pub struct WebGame {
    variant: Variant,
    game: Game,
    /// What the record calls the variant.
    name: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct State<'a> {
    title: &'a str,
    width: u8,
    height: u8,
    sides: [&'a str; 2],
    to_move: &'static str,
    move_number: usize,
    status: &'static str,
    verdict: Option<String>,
    pieces: Vec<JsonPiece<'a>>,
    regions: Vec<JsonRegion<'a>>,
    escapes: Vec<&'a str>,
    legal: Vec<String>,
    plies: Vec<JsonPly>,
}

#[derive(Serialize)]
struct JsonPiece<'a> {
    square: String,
    file: u8,
    rank: u8,
    kind: &'a str,
    display: &'a str,
    symbol: char,
    side: &'static str,
    king: bool,
}

#[derive(Serialize)]
struct JsonRegion<'a> {
    name: &'a str,
    squares: Vec<String>,
}

#[derive(Serialize)]
struct JsonPly {
    #[serde(rename = "move")]
    mv: String,
    mover: &'static str,
    captures: Vec<String>,
    verdict: Option<String>,
}

impl JsonPly {
    /// A ply as the page shows it, its ending in the words of `tafl play`.
    fn new(ply: &Ply, variant: &Variant) -> JsonPly {
        JsonPly {
            mv: ply.mv.to_string(),
            mover: ply.mover.as_str(),
            captures: ply.captured.iter().map(|s| s.to_string()).collect(),
            verdict: ply
                .ending
                .map(|e| describe::verdict(&e, variant, ply.mover.opponent())),
        }
    }
}

#[derive(Serialize)]
struct JsonReport {
    #[serde(rename = "move")]
    mv: Option<String>,
    score: String,
    depth: u32,
    nodes: u64,
    ms: f64,
    nps: u64,
    pv: Vec<String>,
}

impl WebGame {
    /// How the game ended, in the words and with the clause of `tafl play`.
    fn verdict(&self) -> Option<String> {
        let ending = self.game.ending()?;
        Some(describe::verdict(
            &ending,
            &self.variant,
            self.game.to_move(),
        ))
    }

    fn search(&self, limits: &Limits) -> Result<String, JsError> {
        // Nothing stops a search from inside: the page stops the computer by ending its worker.
        let stop = AtomicBool::new(false);
        let report: Report = search::search(&self.game, limits, &stop, |_| {})
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(to_json(&JsonReport {
            mv: report.best.map(|m| m.to_string()),
            score: report.score.to_string(),
            depth: report.depth,
            nodes: report.nodes,
            ms: report.elapsed.as_secs_f64() * 1000.0,
            nps: report.nps(),
            pv: report.pv.iter().map(Move::to_string).collect(),
        }))
    }
}

#[wasm_bindgen]
impl WebGame {
    /// A game of the variant written in `text`; `name` is what its record calls it.
    ///
    /// # Errors
    /// The text's errors, or the engine's refusal to compile the rules.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, name: &str) -> Result<WebGame, JsError> {
        let variant = load(text)?;
        let engine = Engine::new(&variant.rules).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(WebGame {
            variant,
            game: Game::new(Arc::new(engine)),
            name: name.to_string(),
        })
    }

    /// A game of the variant written in `text` from `position` (`tafl moves --from`'s form:
    /// ranks from the top, `/`-separated, digits for empty squares, the variant's piece
    /// letters) with `side` (`attackers` or `defenders`) to move.
    ///
    /// # Errors
    /// The text's errors, a position that does not read or that the rules make impossible
    /// (a piece where it may never stand), or a side that is neither.
    #[wasm_bindgen(js_name = fromPosition)]
    pub fn from_position(
        text: &str,
        name: &str,
        position: &str,
        side: &str,
    ) -> Result<WebGame, JsError> {
        let variant = load(text)?;
        let engine = Engine::new(&variant.rules).map_err(|e| JsError::new(&e.to_string()))?;
        let side: Side = side.parse().map_err(|e| JsError::new(&format!("{e}")))?;
        let position = tafl::game::notation::parse_position(&engine, position.trim(), side)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(WebGame {
            game: Game::from_position(Arc::new(engine), position),
            variant,
            name: name.to_string(),
        })
    }

    /// The game as JSON: `title`, `width`, `height`, `sides` (the two sides' names, attackers
    /// first), `toMove`, `moveNumber`, `status` (`ongoing`, `attackers_win`, `defenders_win`,
    /// `draw`), `verdict` (who won and by which clause, or null), `pieces` (`square`, `file`,
    /// `rank` from 0, `kind`, `display`, `symbol`, `side`, `king`), `regions` (the named
    /// squares the rules use: `name`, `squares`), `escapes` (the regions a piece wins by
    /// reaching), `legal` (every legal move, `a4-a2`) and `plies` (`move`, `mover`,
    /// `captures`, `verdict`).
    pub fn state(&self) -> String {
        let rules = &self.variant.rules;
        let engine = self.game.engine();
        let pieces = engine
            .pieces(self.game.position())
            .into_iter()
            .filter_map(|(square, kind)| {
                let piece = rules.pieces.get(kind)?;
                Some(JsonPiece {
                    square: square.to_string(),
                    file: square.file,
                    rank: square.rank,
                    kind: &piece.name,
                    display: &piece.display,
                    symbol: piece.symbol,
                    side: piece.side.as_str(),
                    king: match piece.role {
                        Role::King => true,
                        Role::Soldier => false,
                    },
                })
            })
            .collect();
        // `used_regions` names a region once a clause that uses it.
        let mut used = tafl::explain::used_regions(rules);
        let mut seen = std::collections::HashSet::new();
        used.retain(|name| seen.insert(*name));
        let regions = used
            .into_iter()
            .filter_map(|name| rules.region(name))
            .map(|region| JsonRegion {
                name: &region.name,
                squares: region.squares.iter().map(|s| s.to_string()).collect(),
            })
            .collect();
        let plies = self
            .game
            .plies()
            .iter()
            .map(|ply| JsonPly::new(ply, &self.variant))
            .collect();
        to_json(&State {
            title: &rules.name,
            width: rules.board.width,
            height: rules.board.height,
            sides: [
                &rules.sides.get(Side::Attackers).name,
                &rules.sides.get(Side::Defenders).name,
            ],
            to_move: self.game.to_move().as_str(),
            move_number: self.game.move_number(),
            status: self.game.status().as_str(),
            verdict: self.verdict(),
            pieces,
            regions,
            escapes: rules
                .outcome
                .escapes
                .iter()
                .map(|e| e.region.as_str())
                .collect(),
            legal: self
                .game
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect(),
            plies,
        })
    }

    /// Plays `mv` (`e1-e3`) and returns the ply as JSON (`move`, `mover`, `captures`,
    /// `verdict`).
    ///
    /// # Errors
    /// A move that cannot be read, or one the rules refuse: the game's refusal, with the
    /// clause that forbids it (`e1-e5 is illegal: ... line 4, \`nobody may land on the
    /// throne\``). The game is unchanged.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        let mv: Move = mv
            .trim()
            .parse()
            .map_err(|e: tafl::game::notation::ParseMoveError| JsError::new(&e.to_string()))?;
        let ply = self
            .game
            .play(mv)
            .map_err(|e| JsError::new(&e.describe(Some(&self.variant))))?;
        Ok(to_json(&JsonPly::new(ply, &self.variant)))
    }

    /// Takes back the last ply; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.game.undo().is_some()
    }

    /// The computer's choice for the side to move within `ms` milliseconds, without playing
    /// it, as JSON: `move`, `score` (in words), `depth`, `nodes`, `ms`, `nps`, `pv`.
    ///
    /// # Errors
    /// When the game is over.
    pub fn think(&self, ms: u32) -> Result<String, JsError> {
        self.search(&Limits::time(Duration::from_millis(u64::from(ms.max(1)))))
    }

    /// The computer's choice searched to `depth` plies, as [`WebGame::think`] writes it: the
    /// same work on every machine, for comparing speeds.
    ///
    /// # Errors
    /// When the game is over.
    #[wasm_bindgen(js_name = thinkDepth)]
    pub fn think_depth(&self, depth: u32) -> Result<String, JsError> {
        self.search(&Limits::depth(depth.max(1)))
    }

    /// The game in the native record format (docs/records.md).
    pub fn record(&self) -> String {
        let outcome = RecordedOutcome::of(self.game.status());
        let tags = Tags {
            variant: Some(self.name.clone()),
            rules_hash: Some(record::rules_hash(&self.variant.rules)),
            result: Some(RecordedResult {
                outcome,
                reason: self.game.ending().map(|e| e.reason.as_str().to_string()),
            }),
            ..Tags::default()
        };
        native::write(&tags, &WrittenPly::of_game(&self.game))
    }
}

/// The number of move sequences of `depth` plies from the start of the variant in `text`
/// (`tafl perft`), on one thread.
///
/// # Errors
/// The text's errors, or the engine's refusal to compile the rules.
#[wasm_bindgen]
pub fn perft(text: &str, depth: u32) -> Result<f64, JsError> {
    let variant = load(text)?;
    let engine = Engine::new(&variant.rules).map_err(|e| JsError::new(&e.to_string()))?;
    // Counts fit an f64 exactly below 2^53, far beyond what a browser counts in a day.
    Ok(engine.perft(&engine.start(), depth) as f64)
}

/// The first game of a record file, as `tafl games` reads it (native, OpenTafl's `.otg`, the
/// hnefatafl corpus' CSV rows or a plain move list, told apart by `file_name`'s extension and
/// the text), as JSON: `moves` (`d1-d3`, in order), `variant` (the record's variant tag, or
/// null) and `format`.
///
/// # Errors
/// The reader's first error (`line 3, column 5: ...`), or a file without a game.
#[wasm_bindgen(js_name = recordMoves)]
pub fn record_moves(text: &str, file_name: &str) -> Result<String, JsError> {
    let format = record::Format::detect(Some(file_name), text);
    let game = record::games(text, format)
        .next()
        .ok_or_else(|| JsError::new("the file holds no game"))?
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(to_json(&JsonRecord {
        moves: game.moves.iter().map(|m| m.mv.to_string()).collect(),
        variant: game.tags.variant.as_deref(),
        format: format.as_str(),
    }))
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    moves: Vec<String>,
    variant: Option<&'a str>,
    format: &'static str,
}
