//! Syntax tree to IR: name resolution, defaults made explicit, and every semantic check.
//!
//! [`check_text`] runs the whole front end on a file's text. It never stops at the first
//! problem: every clause is checked, and every problem is reported, each as a [`Diagnostic`]
//! with the span it concerns and a hint on how to fix it. Syntax errors stop the semantic checks
//! (their clauses are missing, so most semantic findings would be noise).
//!
//! The checker works in three passes over the clauses:
//! 1. declarations ([`declare`]): board, sides, pieces, regions, setup;
//! 2. rules ([`rules`]): every other clause, resolved against the declarations into IR rules;
//! 3. lints ([`lints`]): checks of the rules as a whole (an unreachable escape, a side with no
//!    pieces, an asymmetric setup ...).

mod declare;
pub mod limits;
mod lints;
mod rules;

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::ir::{Board, BySide, NoMoves, Outcome, PieceKind, Region, Rules, Side, SideInfo};
use crate::span::Span;
use crate::syntax::{self, ast};
use crate::variant::SourceMap;

/// What checking a file produced: the rules when they could be built, and every problem.
#[derive(Debug)]
pub struct Checked {
    /// The rules and where each was written; `None` when errors prevented building them.
    /// Present rules may still come with errors in `diagnostics`: only use them when
    /// `!diagnostics.has_errors()`.
    pub rules: Option<(Rules, SourceMap)>,
    /// Every problem found, in file order.
    pub diagnostics: Diagnostics,
}

/// Parses and checks a variant file's text. `origin` names the file in diagnostics.
pub fn check_text(origin: &str, text: &str) -> Checked {
    let too_large = limits::text(text);
    let (rules, items) = if !too_large.is_empty() {
        (None, too_large)
    } else {
        match syntax::parse(text) {
            Ok(file) => check_file(&file),
            Err(errors) => (None, errors),
        }
    };
    Checked {
        rules,
        diagnostics: Diagnostics::new(origin, text, limits::cap(items)),
    }
}

/// Checks a parsed file.
pub fn check_file(file: &ast::File) -> (Option<(Rules, SourceMap)>, Vec<Diagnostic>) {
    let mut checker = Checker::default();
    let declared = declare::declarations(&mut checker, file);
    let Some(declared) = declared else {
        return (None, checker.diagnostics);
    };
    let mut rules = Rules {
        name: declared.name,
        source: declared.source,
        notes: declared.notes,
        board: declared.board,
        sides: declared.sides,
        first_to_move: declared.first_to_move,
        pieces: checker.pieces.clone(),
        regions: Vec::new(),
        setup: declared.setup,
        access: Vec::new(),
        hostility: Vec::new(),
        king_capture: Vec::new(),
        shieldwall: None,
        outcome: Outcome {
            escapes: Vec::new(),
            decisive_captures: Vec::new(),
            edge_forts: Vec::new(),
            encirclements: Vec::new(),
            no_moves: BySide {
                attackers: NoMoves::Loses,
                defenders: NoMoves::Loses,
            },
            repetition: None,
            back_and_forth_limit: None,
            no_capture_draw: None,
            draw_by_agreement: true,
        },
        announcements: Vec::new(),
    };
    rules::rules(&mut checker, file, &mut rules);
    rules.pieces = checker.pieces.clone();
    rules.regions = checker.regions.clone();
    lints::lints(&mut checker, file, &rules);
    let source_map = std::mem::take(&mut checker.source_map);
    checker
        .diagnostics
        .extend(limits::counts(&rules, &source_map));
    (Some((rules, source_map)), checker.diagnostics)
}

/// What the passes share: the declarations resolved so far, the problems found, the source map.
#[derive(Default)]
pub(crate) struct Checker {
    diagnostics: Vec<Diagnostic>,
    board: Option<Board>,
    pieces: Vec<PieceKind>,
    /// Where each piece was declared (`None` for a default piece).
    piece_spans: Vec<Option<Span>>,
    regions: Vec<Region>,
    /// Where each region was defined (`None` for a built-in one).
    region_spans: Vec<Option<Span>>,
    /// Whether some rule refers to each region.
    region_used: Vec<bool>,
    source_map: SourceMap,
}

impl Checker {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The index of the region called `name`, accepting a singular for a plural (`a corner`
    /// for `corners`), and marking it used. Reports it when unknown.
    fn region(&mut self, name: &ast::RegionRef) -> Option<usize> {
        let plural = format!("{}s", name.value);
        let index = self
            .regions
            .iter()
            .position(|region| region.name == name.value)
            .or_else(|| self.regions.iter().position(|region| region.name == plural));
        match index {
            Some(index) => {
                self.region_used[index] = true;
                Some(index)
            }
            None => {
                let known: Vec<&str> = self
                    .regions
                    .iter()
                    .map(|region| region.name.as_str())
                    .collect();
                let mut diagnostic = Diagnostic::error(
                    Code::UnknownRegion,
                    format!("no region is called `{}`", name.value),
                )
                .label(name.span, "not defined");
                diagnostic = if name.value == "throne" {
                    let example = self.board.map_or_else(
                        || "e5".to_string(),
                        |board| {
                            crate::ir::Square::new(board.width / 2, board.height / 2).to_string()
                        },
                    );
                    diagnostic.help(format!(
                        "this board has no single centre square, so there is no built-in throne: define one, e.g. `square throne = {example}`"
                    ))
                } else if self.pieces.iter().any(|piece| piece.name == name.value) {
                    diagnostic.help(format!(
                        "`{}` is a piece; here a region is needed: {}",
                        name.value,
                        known.join(", ")
                    ))
                } else {
                    diagnostic.help(format!(
                        "define it with `region {} = <squares>`, or use one of: {}",
                        name.value,
                        known.join(", ")
                    ))
                };
                if name.value == "throne" {
                    diagnostic.code = Code::NoCentre;
                    diagnostic.message =
                        "`throne` names no square: the board has no centre square".to_string();
                }
                self.report(diagnostic);
                None
            }
        }
    }

    /// The pieces a set names, in declaration order. Reports unknown names.
    fn piece_set(&mut self, set: &ast::PieceSet) -> Vec<usize> {
        let mut chosen = vec![false; self.pieces.len()];
        for item in &set.items {
            match &item.value {
                ast::PieceSetItem::Everyone => chosen.iter_mut().for_each(|chosen| *chosen = true),
                ast::PieceSetItem::Side(side) => {
                    for (index, piece) in self.pieces.iter().enumerate() {
                        chosen[index] |= piece.side == *side;
                    }
                }
                ast::PieceSetItem::Role(role) => {
                    let role = declare::role_of(*role);
                    for (index, piece) in self.pieces.iter().enumerate() {
                        chosen[index] |= piece.role == role;
                    }
                }
                ast::PieceSetItem::Named(name) => match self.piece_index(name) {
                    Some(index) => chosen[index] = true,
                    None => {
                        let known: Vec<&str> = self
                            .pieces
                            .iter()
                            .map(|piece| piece.name.as_str())
                            .collect();
                        let help = if self.regions.iter().any(|region| &region.name == name) {
                            format!(
                                "`{name}` is a region; here pieces are needed: {}",
                                known.join(", ")
                            )
                        } else {
                            format!(
                                "declare it with `piece <symbol> {name}: <side> <soldier|king>`, or use one of: {}, \
                                 `everyone`, `attackers`, `defenders`, `soldiers`, `kings`",
                                known.join(", ")
                            )
                        };
                        self.report(
                            Diagnostic::error(
                                Code::UnknownPiece,
                                format!("no piece is called `{name}`"),
                            )
                            .label(item.span, "not declared")
                            .help(help),
                        );
                    }
                },
            }
        }
        chosen
            .iter()
            .enumerate()
            .filter(|(_, chosen)| **chosen)
            .map(|(index, _)| index)
            .collect()
    }

    fn piece_index(&self, name: &str) -> Option<usize> {
        // Accept a plural for a name (`muscovites`), as a player would write it.
        self.pieces
            .iter()
            .position(|piece| piece.name == name)
            .or_else(|| {
                name.strip_suffix('s').and_then(|singular| {
                    self.pieces.iter().position(|piece| piece.name == singular)
                })
            })
    }

    fn names(&self, pieces: &[usize]) -> Vec<String> {
        pieces
            .iter()
            .map(|&index| self.pieces[index].name.clone())
            .collect()
    }
}

/// The default names of the sides.
fn default_sides() -> BySide<SideInfo> {
    BySide {
        attackers: SideInfo {
            name: "Attackers".to_string(),
        },
        defenders: SideInfo {
            name: "Defenders".to_string(),
        },
    }
}

/// The span covering the first clause, or the start of the file: where to point when something
/// is missing from the whole file.
fn file_start(file: &ast::File) -> Span {
    file.clauses
        .first()
        .map_or(Span::new(0, 0), |clause| clause.span)
}

#[allow(dead_code)]
fn side_word(side: Side) -> &'static str {
    side.as_str()
}
