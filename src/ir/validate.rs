//! What every [`Rules`] value must satisfy: the invariants the checker establishes for a variant
//! file, stated once, so that rules read from JSON (or built in code) can be checked too.
//!
//! The engine, `explain`, `svg` and `diff` rely on them: the board's size within limits, the
//! setup diagram the board's shape with declared symbols only, names unique, and every piece,
//! region and square a rule refers to existing and on the board.

use std::collections::{BTreeSet, HashMap};

use super::{Place, Region, Rules, Square, MAX_BOARD_SIDE, MIN_BOARD_SIDE};

/// Why rules break an invariant of the IR.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The board is smaller than 5x5 or larger than 19x19.
    #[error("a {width}x{height} board is not supported (from {MIN_BOARD_SIDE}x{MIN_BOARD_SIDE} to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE})")]
    BoardSize {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// The setup diagram does not have the board's shape.
    #[error("the setup has {rows} rows of lengths {lengths:?} for a {width}x{height} board")]
    SetupShape {
        /// Rows given.
        rows: usize,
        /// Their lengths in characters.
        lengths: Vec<usize>,
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// The setup uses a symbol no piece has.
    #[error("the setup uses `{0}`, which is no piece's symbol")]
    UnknownSymbol(char),
    /// Two pieces share a name or a symbol, or two regions a name.
    #[error("`{0}` names two things")]
    Duplicate(String),
    /// A rule names a piece that is not declared.
    #[error("a rule names the piece `{0}`, which is not declared")]
    UnknownPiece(String),
    /// A rule names a region that is not defined.
    #[error("a rule names the region `{0}`, which is not defined")]
    UnknownRegion(String),
    /// A square lies off the board.
    #[error("{0} is off the board")]
    OffBoard(Square),
    /// A king-capture rule encloses the king together with the square beside him, but does not
    /// apply beside a region (only there is a square of it beside the king).
    #[error("a king-capture rule encloses the king together with a square beside him, but its place is not beside a region")]
    TogetherNotBeside,
}

impl Rules {
    /// Checks the invariants of the IR (see the module documentation).
    ///
    /// # Errors
    /// The first invariant broken.
    pub fn validate(&self) -> Result<(), RulesError> {
        self.resolve().map(|_| ())
    }

    /// Checks the invariants of the IR and resolves the names the rules use, once: what the
    /// engine compiles from ([`Resolved`]), so that no later stage looks a name up and handles
    /// its absence again.
    ///
    /// # Errors
    /// The first invariant broken.
    pub fn resolve(&self) -> Result<Resolved<'_>, RulesError> {
        // Every field that names a piece, a region or a square is checked below; destructuring
        // the rules makes a new field a compile error until it is decided here.
        let Rules {
            name: _,
            source: _,
            family: _,
            notes: _,
            board: _,           // its size, and the squares of everything else
            sides: _,           // names only
            first_to_move: _,   // any side
            pieces: _,          // unique names and symbols
            regions: _,         // unique names, squares on the board
            setup: _,           // its shape and symbols
            access: _,          // pieces and regions named
            hostility: _,       // pieces and regions named
            king_capture: _,    // regions and squares named
            king_sandwiches: _, // pieces and regions named
            shieldwall: _,      // pieces and regions named
            jumps: _,           // pieces and regions named
            berserk: _,         // no names
            outcome:
                super::Outcome {
                    escapes: _,           // pieces and regions named
                    decisive_captures: _, // pieces named
                    edge_forts: _,        // pieces named
                    encirclements: _,     // no names
                    no_moves: _,
                    repetition: _,
                    back_and_forth_limit: _,
                    no_capture_draw: _,
                    draw_by_agreement: _,
                },
            announcements: _, // pieces and regions named
        } = self;
        let (width, height) = (self.board.width, self.board.height);
        let sides = MIN_BOARD_SIDE..=MAX_BOARD_SIDE;
        if !sides.contains(&width) || !sides.contains(&height) {
            return Err(RulesError::BoardSize { width, height });
        }
        let lengths: Vec<usize> = self.setup.iter().map(|row| row.chars().count()).collect();
        if lengths.len() != usize::from(height) || lengths.iter().any(|&l| l != usize::from(width))
        {
            return Err(RulesError::SetupShape {
                rows: lengths.len(),
                lengths,
                width,
                height,
            });
        }
        unique(self.pieces.iter().map(|p| p.name.clone()))?;
        unique(self.pieces.iter().map(|p| p.symbol.to_string()))?;
        unique(self.regions.iter().map(|r| r.name.clone()))?;
        if let Some(symbol) = self
            .setup
            .iter()
            .flat_map(|row| row.chars())
            .find(|&c| c != '.' && self.piece_by_symbol(c).is_none())
        {
            return Err(RulesError::UnknownSymbol(symbol));
        }
        let on_board = |square: &Square| {
            if square.is_on(width, height) {
                Ok(())
            } else {
                Err(RulesError::OffBoard(*square))
            }
        };
        for region in &self.regions {
            region.squares.iter().try_for_each(on_board)?;
        }
        let piece = |name: &String| match self.piece(name) {
            Some(_) => Ok(()),
            None => Err(RulesError::UnknownPiece(name.clone())),
        };
        let region = |name: &String| match self.region(name) {
            Some(_) => Ok(()),
            None => Err(RulesError::UnknownRegion(name.clone())),
        };
        for rule in &self.access {
            rule.pieces.iter().try_for_each(piece)?;
            region(&rule.region)?;
        }
        for rule in &self.hostility {
            rule.victims.iter().try_for_each(piece)?;
            region(&rule.region)?;
            if let super::Hostile::WhenOccupied { by, .. } = &rule.when {
                by.iter().try_for_each(piece)?;
            }
        }
        for rule in &self.king_capture {
            match &rule.place {
                Place::On(name) | Place::Beside(name) => region(name)?,
                Place::Elsewhere => {}
            }
            if rule.method == super::KingCaptureMethod::EnclosedTogether
                && !matches!(rule.place, Place::Beside(_))
            {
                return Err(RulesError::TogetherNotBeside);
            }
            rule.counting.iter().try_for_each(region)?;
            rule.squares.iter().try_for_each(on_board)?;
        }
        for rule in &self.king_sandwiches {
            rule.kings.iter().try_for_each(piece)?;
            rule.captors.iter().try_for_each(piece)?;
            rule.counting.iter().try_for_each(region)?;
            rule.except_on.iter().try_for_each(region)?;
        }
        if let Some(wall) = &self.shieldwall {
            wall.victims.iter().try_for_each(piece)?;
            wall.counting.iter().try_for_each(region)?;
        }
        for jump in &self.jumps {
            jump.pieces.iter().try_for_each(piece)?;
            jump.over.iter().try_for_each(piece)?;
            jump.only_from_or_to.iter().try_for_each(region)?;
        }
        for escape in &self.outcome.escapes {
            piece(&escape.piece)?;
            region(&escape.region)?;
        }
        for capture in &self.outcome.decisive_captures {
            piece(&capture.piece)?;
        }
        for fort in &self.outcome.edge_forts {
            piece(&fort.piece)?;
        }
        for call in &self.announcements {
            piece(&call.piece)?;
            region(&call.region)?;
        }
        Ok(Resolved {
            rules: self,
            kinds: (self.pieces.iter().enumerate())
                .map(|(k, piece)| (piece.name.as_str(), k))
                .collect(),
            regions: (self.regions.iter())
                .map(|region| (region.name.as_str(), region))
                .collect(),
        })
    }
}

/// Rules that passed [`Rules::resolve`]: every piece, region and square a rule names exists and
/// lies on the board, and the setup has the board's shape and declared symbols only. Its
/// lookups cannot fail for the names the rules use.
#[derive(Clone, Debug)]
pub struct Resolved<'r> {
    rules: &'r Rules,
    kinds: HashMap<&'r str, usize>,
    regions: HashMap<&'r str, &'r Region>,
}

impl<'r> Resolved<'r> {
    /// The rules.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The index in `Rules::pieces` of the piece a rule names.
    ///
    /// # Panics
    /// For a name no rule of these rules uses (a caller's mistake, not the rules'): `resolve`
    /// checked every name the rules use.
    pub fn kind(&self, name: &str) -> usize {
        self.kinds[name]
    }

    /// The squares of the region a rule names.
    ///
    /// # Panics
    /// As [`Resolved::kind`], for a region no rule uses.
    pub fn region(&self, name: &str) -> &'r [Square] {
        &self.regions[name].squares
    }

    /// The start position: the pieces of the setup diagram by square and kind, top rank first.
    pub fn start(&self) -> Vec<(Square, usize)> {
        let height = self.rules.setup.len();
        let mut pieces = Vec::new();
        for (row, text) in self.rules.setup.iter().enumerate() {
            let rank = (height - 1 - row) as u8;
            for (file, symbol) in text.chars().enumerate() {
                // `resolve` checked that every symbol but `.` is a piece's.
                if let Some(k) = self.rules.pieces.iter().position(|p| p.symbol == symbol) {
                    pieces.push((Square::new(file as u8, rank), k));
                }
            }
        }
        pieces
    }
}

/// `Ok` when no two of `names` are equal.
fn unique(names: impl Iterator<Item = String>) -> Result<(), RulesError> {
    let mut seen = BTreeSet::new();
    for name in names {
        if !seen.insert(name.clone()) {
            return Err(RulesError::Duplicate(name));
        }
    }
    Ok(())
}
