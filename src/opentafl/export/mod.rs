//! Rules → OpenTafl rules string, or every rule OpenTafl cannot say.
//!
//! [`Exporter::run`] destructures the rules and calls each family's writer (the same family
//! names as in `check/rules/` and `explain/`) in the order of the string's keys.

mod access;
mod capture;
mod encirclement;
mod forts;
mod hostility;
mod jumps;
mod king_capture;
mod movement;
mod reaching;
mod repetition;
mod shieldwall;

use crate::ir::{KingCaptureRule, Outcome, Place, Role, Rules, Side, Square};

/// A rule of a variant that OpenTafl's rules strings cannot say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inexpressible {
    /// The rule, in the words of the variant's topic ("announcement `Raichi`").
    pub rule: String,
    /// Why OpenTafl cannot say it.
    pub reason: String,
    /// The key the nearest string writes in its place, if any (`tfr:w`); without one, OpenTafl's
    /// default for the rule applies.
    pub instead: Option<String>,
}

impl std::fmt::Display for Inexpressible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.rule, self.reason)
    }
}

/// The closest OpenTafl rules string to a variant, and every way OpenTafl will play it
/// differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nearest {
    /// The rules string: every rule OpenTafl can say, and for each one it cannot, the nearest key
    /// where there is one or else OpenTafl's default.
    pub rules_string: String,
    /// The rules that string changes, in rule-sheet order (empty when the export is exact).
    pub differences: Vec<Inexpressible>,
}

/// Why a variant has no OpenTafl rules string: every rule OpenTafl cannot say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("OpenTafl cannot express {} rule(s) of `{name}`:\n  {}", .rules.len(),
    .rules.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  "))]
pub struct ExportError {
    /// The variant's name.
    pub name: String,
    /// Every rule OpenTafl cannot say, in rule-sheet order.
    pub rules: Vec<Inexpressible>,
}

/// The OpenTafl rules string for `rules`, with the start position as `start:` (rank 1 first),
/// as OpenTafl writes it. Keys at OpenTafl's default are left out, except `name`, `atkf` and
/// `start`, which OpenTafl always writes.
///
/// Names are not part of a rules string: the variant's side and piece names, notes and source
/// are dropped, and regions are recognised by name (`throne` = `cen`, `corners` = `cor`,
/// `attacker-forts` = `afor`, `defender-forts` = `dfor`).
///
/// # Errors
/// [`ExportError`] listing every rule OpenTafl cannot say (a region of another name, conditional
/// hostility, announcements, a move-count draw, ...).
pub fn export(rules: &Rules) -> Result<String, ExportError> {
    let nearest = export_nearest(rules);
    if nearest.differences.is_empty() {
        Ok(nearest.rules_string)
    } else {
        Err(ExportError {
            name: rules.name.clone(),
            rules: nearest.differences,
        })
    }
}

/// The closest OpenTafl rules string to `rules`, with every rule it changes: what a player needs
/// to open a variant in OpenTafl knowing what will differ. [`export`] is the same string when
/// nothing differs.
pub fn export_nearest(rules: &Rules) -> Nearest {
    let mut exporter = Exporter {
        rules,
        problems: Vec::new(),
        out: Vec::new(),
    };
    exporter.run();
    Nearest {
        rules_string: exporter.out.join(" "),
        differences: exporter.problems,
    }
}

/// OpenTafl's kinds of special square: (our region name, key prefix).
const KINDS: [(&str, &str); 4] = [
    ("throne", "cen"),
    ("corners", "cor"),
    ("attacker-forts", "afor"),
    ("defender-forts", "dfor"),
];

struct Exporter<'a> {
    rules: &'a Rules,
    problems: Vec<Inexpressible>,
    out: Vec<String>,
}

impl Exporter<'_> {
    fn cannot(&mut self, rule: impl Into<String>, reason: impl Into<String>) {
        self.record(Inexpressible {
            rule: rule.into(),
            reason: reason.into(),
            instead: None,
        });
    }

    /// A rule OpenTafl cannot say, for which `key:value` is the nearest it can: the nearest
    /// string writes that key (an exact export is refused anyway).
    fn cannot_but_nearly(
        &mut self,
        rule: impl Into<String>,
        reason: impl Into<String>,
        key: &str,
        value: impl std::fmt::Display,
    ) {
        let instead = format!("{key}:{value}");
        self.record(Inexpressible {
            rule: rule.into(),
            reason: reason.into(),
            instead: Some(instead.clone()),
        });
        self.out.push(instead);
    }

    /// Notes `problem`, once.
    fn record(&mut self, problem: Inexpressible) {
        if !self.problems.contains(&problem) {
            self.problems.push(problem);
        }
    }

    fn key(&mut self, key: &str, value: impl std::fmt::Display) {
        self.out.push(format!("{key}:{value}"));
    }

    /// The OpenTafl letter of a piece kind, if it has one.
    fn letter(&self, name: &str) -> Option<char> {
        let piece = self.rules.piece(name)?;
        let jump = self
            .rules
            .jumps
            .iter()
            .find(|jump| jump.pieces.contains(&piece.name));
        let letter = match (piece.role, piece.symbol.to_ascii_lowercase(), jump) {
            (Role::King, _, _) => 'k',
            // An imported commander or knight keeps its letter as its symbol, and so its type
            // where its jump does not tell (`cj:n`, `nj:j`).
            (Role::Soldier, symbol @ ('c' | 'n'), _) => symbol,
            // Otherwise a soldier that jumps is a commander (its jump takes nothing) or a knight
            // (it does).
            (Role::Soldier, _, None) => 't',
            (Role::Soldier, _, Some(jump)) if jump.captures => 'n',
            (Role::Soldier, _, Some(_)) => 'c',
        };
        match (piece.side, letter) {
            (Side::Attackers, 'k') => None,
            (Side::Attackers, letter) => Some(letter),
            (Side::Defenders, letter) => Some(letter.to_ascii_uppercase()),
        }
    }

    fn letters(&self, names: &[String]) -> Vec<char> {
        names.iter().filter_map(|name| self.letter(name)).collect()
    }

    fn run(&mut self) {
        let rules = self.rules;
        // Every field of the rules is read below; destructuring them here makes a new field a
        // compile error until the exporter says whether OpenTafl can express it.
        let Rules {
            name: _,            // `name`
            source: _,          // not part of a rules string
            family: _,          // not part of a rules string
            notes: _,           // not part of a rules string
            board: _,           // `dim`
            sides: _,           // not part of a rules string
            first_to_move: _,   // `atkf`
            pieces: _,          // piece letters, `ka`, `spd`
            regions: _,         // `cor cen afor dfor`
            setup: _,           // `start`
            access: _,          // `*p *s *re`
            hostility: _,       // `*h cenhe linc`
            king_capture: _,    // `ks`
            shieldwall: _,      // `sw swf`
            king_sandwiches: _, // implied by commanders or knights and a strong king
            jumps: _,           // `kj nj cj`, and the letters `c` `n`
            berserk: _,         // `ber`
            outcome:
                Outcome {
                    escapes: _,           // `esc`
                    decisive_captures: _, // always the king
                    edge_forts: _,        // `efe`
                    encirclements: _,     // `surf`, and the always-on ending
                    no_moves: _,          // OpenTafl has no rule; we accept "loses"
                    repetition: _,        // `tfr`
                    back_and_forth_limit: _,
                    no_capture_draw: _,
                    draw_by_agreement: _, // not part of a rules string
                },
            announcements: _,
        } = rules;
        for rule in &rules.king_capture {
            let KingCaptureRule {
                place: _,
                squares: _,
                method: _,
                counting: _,
                edge_counts: _,
                after_own_move,
            } = rule;
            if *after_own_move {
                self.cannot(
                    "a king captured when he moves into an enclosure",
                    "in OpenTafl only the moving side captures",
                );
            }
        }
        if rules.board.width != rules.board.height {
            self.cannot(
                format!("board {} x {}", rules.board.width, rules.board.height),
                "OpenTafl boards are square",
            );
        }
        self.key("dim", rules.board.width);
        self.key("name", rules.name.replace(' ', "_"));
        // The order of the calls is the order of the string's keys and of the differences.
        self.pieces();
        self.escapes();
        self.decisive_captures();
        self.encirclements();
        self.edge_forts();
        self.draws();
        self.announcements();
        self.capture();
        self.shieldwall();
        self.jumps();
        self.berserk();
        self.sandwiches();
        self.spaces();
        let start = self.start();
        self.out.push(format!("start:{start}"));
    }

    /// The squares of `region` the string declares: none unless some rule uses the region
    /// (OpenTafl's default centre and corners exist whether or not a rule needs them).
    fn special_squares(&self, region: &str) -> Vec<Square> {
        let rules = self.rules;
        let named = |names: &[String]| names.iter().any(|name| name == region);
        let used = rules.access.iter().any(|rule| rule.region == region)
            || rules.hostility.iter().any(|rule| rule.region == region)
            || rules
                .outcome
                .escapes
                .iter()
                .any(|escape| escape.region == region)
            || rules.king_capture.iter().any(|rule| {
                matches!(&rule.place, Place::On(name) | Place::Beside(name) if name == region)
                    || named(&rule.counting)
            })
            || rules
                .shieldwall
                .as_ref()
                .is_some_and(|wall| named(&wall.counting))
            || rules.jumps.iter().any(|jump| named(&jump.only_from_or_to))
            || rules
                .king_sandwiches
                .iter()
                .any(|sandwich| named(&sandwich.counting) || named(&sandwich.except_on));
        match rules.region(region) {
            Some(found) if used => found.squares.clone(),
            _ => Vec::new(),
        }
    }

    /// The start position as OpenTafl's `start:` record: rank 1 first.
    fn start(&mut self) -> String {
        let rules = self.rules;
        let mut record = String::from("/");
        for row in rules.setup.iter().rev() {
            let mut empty = 0;
            for symbol in row.chars() {
                match rules
                    .piece_by_symbol(symbol)
                    .and_then(|piece| self.letter(&piece.name))
                {
                    Some(letter) => {
                        if empty > 0 {
                            record += &empty.to_string();
                            empty = 0;
                        }
                        record.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                record += &empty.to_string();
            }
            record.push('/');
        }
        record
    }
}
