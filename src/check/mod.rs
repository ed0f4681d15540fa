//! Syntax tree to IR: name resolution, defaults made explicit, and every semantic check.
//!
//! [`check_text`] runs the whole front end on a file's text. It never stops at the first
//! problem: every clause is checked, and every problem is reported, each as a [`Diagnostic`]
//! with the span it concerns and a hint on how to fix it. A clause with a syntax error is left
//! out and the rest of the file is still checked; checks that the missing clause could have
//! satisfied ("no clause says who moves first") look at the broken lines before reporting, so
//! one mistake gives one diagnostic. Likewise a broken setup diagram skips only the checks of
//! the start position, and an unknown name skips only the checks that need it.
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
use crate::english;
use crate::ir::SourceMap;
use crate::ir::{Board, BySide, NoMoves, Outcome, PieceKind, Region, Rules, Side, SideInfo};
use crate::span::Span;
use crate::suggest::{nearest, phrasing_hint};
use crate::syntax::{self, ast};

/// What checking a file produced: the rules when they could be built, and every problem.
#[derive(Debug)]
pub struct Checked {
    /// The rules and where each was written; `None` when errors prevented building them.
    /// Present rules may still come with errors in `diagnostics`: only use them when
    /// `!diagnostics.has_errors()`.
    pub rules: Option<(Rules, SourceMap)>,
    /// Every problem found, in file order.
    pub diagnostics: Diagnostics,
    /// The syntax tree of the clauses that could be parsed (`None` when the syntax errors left
    /// nothing to read): what an editor needs to find names and their uses.
    pub file: Option<ast::File>,
}

/// Parses and checks a variant file's text. `origin` names the file in diagnostics.
pub fn check_text(origin: &str, text: &str) -> Checked {
    let too_large = limits::text(text);
    if !too_large.is_empty() {
        return Checked {
            rules: None,
            diagnostics: Diagnostics::new(origin, text, limits::cap(too_large)),
            file: None,
        };
    }
    let (file, mut items) = syntax::parse_recovering(text);
    items.extend(lints::control_characters(text));
    let rules = file.as_ref().and_then(|file| {
        let (rules, found) = check_file(file);
        items.extend(found);
        rules
    });
    Checked {
        rules,
        diagnostics: Diagnostics::new(origin, text, limits::cap(items)),
        file,
    }
}

/// Checks a parsed file.
pub fn check_file(file: &ast::File) -> (Option<(Rules, SourceMap)>, Vec<Diagnostic>) {
    let mut checker = Checker {
        broken_names: broken_declarations(file),
        ..Checker::default()
    };
    let declared = declare::declarations(&mut checker, file);
    let Some(declared) = declared else {
        return (None, checker.diagnostics);
    };
    checker.setup_ok = declared.setup_ok;
    let mut rules = Rules {
        name: declared.name,
        source: declared.source,
        family: declared.family,
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
        king_sandwiches: Vec::new(),
        shieldwall: None,
        jumps: Vec::new(),
        berserk: None,
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
    /// Whether the setup diagram was read without error (when not, the rules are checked
    /// against an empty board, and the checks of the start position are skipped).
    setup_ok: bool,
    /// Names that `piece` and `region` lines with syntax errors meant to declare: uses of
    /// them are not reported as unknown, since the syntax error already is.
    broken_names: Vec<String>,
    /// Sides with a win clause that could not be resolved (an unknown piece or region): the
    /// side is meant to win somehow, so "no clause says how they win" would be a cascade.
    meant_to_win: Vec<Side>,
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
            None if self.broken_names.contains(&name.value)
                || self.broken_names.contains(&plural) =>
            {
                None
            }
            None => {
                let diagnostic = self.unknown_region(name);
                self.report(diagnostic);
                None
            }
        }
    }

    /// The diagnostic for a region reference that names no region: the nearest name, a
    /// phrasing of a rule the language says otherwise, or how to define it.
    fn unknown_region(&mut self, name: &ast::RegionRef) -> Diagnostic {
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
        let singulars: Vec<String> = known
            .iter()
            .filter_map(|region| region.strip_suffix('s').map(str::to_string))
            .collect();
        let near = nearest(
            &name.value,
            known
                .iter()
                .copied()
                .chain(singulars.iter().map(String::as_str)),
        )
        .map(str::to_string);
        diagnostic = if name.value == "throne" {
            let example = self.board.map_or_else(
                || "e5".to_string(),
                |board| crate::ir::Square::new(board.width / 2, board.height / 2).to_string(),
            );
            diagnostic.help(format!(
                "this board has no single centre square, so there is no built-in throne: define one, e.g. `square throne = {example}`"
            ))
        } else if let Some(near) = near {
            // The region meant is used after all: do not also call it unused.
            let meant = self
                .regions
                .iter()
                .position(|region| region.name == near || region.name == format!("{near}s"));
            if let Some(meant) = meant {
                self.region_used[meant] = true;
            }
            diagnostic
                .help(format!("did you mean `{near}`?"))
                .fix(name.span, near)
        } else if self.pieces.iter().any(|piece| piece.name == name.value) {
            diagnostic.help(format!(
                "`{}` is a piece; here a region is needed: {}",
                name.value,
                known.join(", ")
            ))
        } else if let Some(hint) = phrasing_hint(&name.value) {
            diagnostic.help(hint)
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
        diagnostic
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
                ast::PieceSetItem::SideRole(side, role) => {
                    let role = declare::role_of(*role);
                    for (index, piece) in self.pieces.iter().enumerate() {
                        chosen[index] |= piece.side == *side && piece.role == role;
                    }
                }
                ast::PieceSetItem::Named(name) => match self.piece_index(name) {
                    Some(index) => chosen[index] = true,
                    None if self.broken_names.iter().any(|broken| {
                        broken == name || name.strip_suffix('s') == Some(broken.as_str())
                    }) => {}
                    None => {
                        let diagnostic = self.unknown_piece(name, item.span);
                        self.report(diagnostic);
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

    /// The diagnostic for a piece name (at `span`) that names no piece: the nearest name, or
    /// how to declare it.
    fn unknown_piece(&self, name: &str, span: Span) -> Diagnostic {
        let known: Vec<&str> = self
            .pieces
            .iter()
            .map(|piece| piece.name.as_str())
            .collect();
        let plurals: Vec<String> = known.iter().map(|piece| english::plural(piece)).collect();
        let near = nearest(
            name,
            known
                .iter()
                .copied()
                .chain(plurals.iter().map(String::as_str)),
        );
        let help = if let Some(near) = near {
            format!("did you mean `{near}`?")
        } else if self.regions.iter().any(|region| region.name == name) {
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
        let mut diagnostic =
            Diagnostic::error(Code::UnknownPiece, format!("no piece is called `{name}`"))
                .label(span, "not declared")
                .help(help);
        if let Some(near) = near {
            diagnostic = diagnostic.fix(span, near);
        }
        diagnostic
    }

    fn piece_index(&self, name: &str) -> Option<usize> {
        // Accept a plural for a name (`muscovites`, or a declared one), as a player would
        // write it; an exact name first, in case one piece's name is another's plural.
        self.pieces
            .iter()
            .position(|piece| piece.name == name)
            .or_else(|| {
                self.pieces
                    .iter()
                    .position(|piece| crate::english::names_piece(name, piece))
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

/// The names that the `piece`, `region` and `square` lines left out for syntax errors were
/// declaring (`piece t muscovite attacker soldier` → `muscovite`).
fn broken_declarations(file: &ast::File) -> Vec<String> {
    file.broken
        .iter()
        .filter_map(|line| {
            let words: Vec<&str> = line.value.split_whitespace().collect();
            let name = match words.as_slice() {
                ["piece", _, name, ..] => name,
                ["region" | "square", name, ..] => name,
                _ => return None,
            };
            let name = name.trim_end_matches([':', '=']);
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// Whether a line left out for a syntax error might have been a clause using all of `words`
/// (`["attackers", "win"]`): then a check that misses such a clause stays silent, since the
/// syntax error already points at the line.
fn broken_line_mentions(file: &ast::File, words: &[&str]) -> bool {
    file.broken.iter().any(|line| {
        let lower = line.value.to_lowercase();
        let line_words: Vec<&str> = lower
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .collect();
        words.iter().all(|word| {
            line_words
                .iter()
                .any(|found| found == word || found.strip_suffix('s') == Some(word))
        })
    })
}
