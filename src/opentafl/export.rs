//! Rules → OpenTafl rules string, or every rule OpenTafl cannot say.

use crate::ir::{
    AccessCondition, Armed, Berserk, Claim, EncirclementReading, Hostile, KingCaptureMethod,
    KingCaptureRule, MoveStyle, NoMoves, Outcome, Place, RepetitionResult, Role, Rules,
    ShieldwallTrigger, Side, Square,
};

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
        self.pieces();
        self.outcome();
        self.capture();
        self.jumps();
        self.sandwiches();
        self.spaces();
        let start = self.start();
        self.out.push(format!("start:{start}"));
    }

    fn pieces(&mut self) {
        let rules = self.rules;
        let mut seen = Vec::new();
        for piece in &rules.pieces {
            match self.letter(&piece.name) {
                None => self.cannot(
                    format!("piece `{}`", piece.name),
                    "OpenTafl has no attacking king",
                ),
                Some(letter) if seen.contains(&letter) => self.cannot(
                    format!("piece `{}`", piece.name),
                    "OpenTafl has one kind of man per side and one king",
                ),
                Some(letter) => seen.push(letter),
            }
            if piece.role == Role::Soldier && piece.armed != Armed::Yes {
                self.cannot(
                    format!("piece `{}` is not fully armed", piece.name),
                    "OpenTafl's men always capture",
                );
            }
            if piece.movement.style != MoveStyle::Rook {
                self.cannot(
                    format!("piece `{}` moves to any empty square", piece.name),
                    "OpenTafl pieces move like rooks",
                );
            }
        }
        let speed = |letter: char| {
            rules
                .pieces
                .iter()
                .find(|piece| self.letter(&piece.name) == Some(letter))
                .and_then(|piece| piece.movement.max_distance)
        };
        let (t, defender, king) = (speed('t'), speed('T'), speed('K'));
        let write =
            |speed: Option<u8>| speed.map_or("-1".to_string(), |squares| squares.to_string());
        if t.is_some() || defender.is_some() || king.is_some() {
            let value = if t == defender && defender == king {
                write(t)
            } else {
                // One entry per type, `tcnkmgTCNKMG`; absent types take the side's men's limit.
                let attackers = [t, t, t, t, t, t];
                let defenders = [defender, defender, defender, king, defender, defender];
                attackers
                    .iter()
                    .chain(defenders.iter())
                    .map(|speed| write(*speed) + ",")
                    .collect()
            };
            self.key("spd", value);
        }
        self.key(
            "atkf",
            if rules.first_to_move == Side::Attackers {
                'y'
            } else {
                'n'
            },
        );
    }

    fn outcome(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        let mut esc = None;
        for escape in &outcome.escapes {
            let is_king = self.letter(&escape.piece) == Some('K');
            match (escape.region.as_str(), is_king, escape.winner) {
                ("edge", true, Side::Defenders) if esc.is_none() => esc = Some('e'),
                ("corners", true, Side::Defenders) if esc.is_none() => esc = Some('c'),
                (region, _, _) => self.cannot(
                    format!("escape of `{}` to `{region}`", escape.piece),
                    "OpenTafl's king escapes to the corners or to the edge, once",
                ),
            }
        }
        if esc == Some('e') {
            self.key("esc", 'e');
        }
        let king_captured = outcome.decisive_captures.iter().any(|capture| {
            self.letter(&capture.piece) == Some('K') && capture.winner == Side::Attackers
        });
        if !king_captured || outcome.decisive_captures.len() != 1 {
            self.cannot(
                "decisive captures",
                "in OpenTafl exactly the king's capture wins, for the attackers",
            );
        }
        let mut every_surrounded = false;
        let mut surrounding_fatal = false;
        for encirclement in &outcome.encirclements {
            match (encirclement.winner, encirclement.reading) {
                (Side::Attackers, EncirclementReading::EverySurrounded) => every_surrounded = true,
                (Side::Attackers, EncirclementReading::NoEdgeAccess) => surrounding_fatal = true,
                (Side::Defenders, _) => self.cannot(
                    "encirclement by the defenders",
                    "in OpenTafl only the attackers win by encirclement",
                ),
            }
        }
        if !every_surrounded {
            self.cannot(
                "no 'every defender is surrounded' ending",
                "OpenTafl always ends the game when no defender has an empty neighbour \
                 (say `attackers win when every defender is surrounded`)",
            );
        }
        if !surrounding_fatal {
            self.key("surf", 'n');
        }
        match outcome.edge_forts.as_slice() {
            [] => {}
            [fort] if self.letter(&fort.piece) == Some('K') && fort.winner == Side::Defenders => {
                self.key("efe", 'y');
            }
            _ => self.cannot("edge forts", "in OpenTafl only the king's edge fort wins"),
        }
        for (side, result) in [
            (Side::Attackers, outcome.no_moves.attackers),
            (Side::Defenders, outcome.no_moves.defenders),
        ] {
            if result == NoMoves::Draw {
                self.cannot(
                    format!("a draw when the {side} cannot move"),
                    "OpenTafl has no rule for a side that cannot move",
                );
            }
        }
        match outcome.repetition {
            Some(repetition) if repetition.occurrences == 3 && repetition.claim == Claim::Automatic => {
                match repetition.result {
                    RepetitionResult::Draw => {}
                    RepetitionResult::MoverLoses => self.key("tfr", 'w'),
                    RepetitionResult::MoverWins => self.key("tfr", 'l'),
                    RepetitionResult::Loses(side) => self.cannot_but_nearly(
                        format!("the {side} lose on a threefold repetition"),
                        "OpenTafl's threefold rule is a draw, or a loss or win for the side that repeats",
                        "tfr",
                        'w',
                    ),
                }
            }
            Some(repetition) => self.cannot(
                format!(
                    "repetition at {} occurrences{}",
                    repetition.occurrences,
                    if repetition.claim == Claim::Claimable { ", on claim" } else { "" }
                ),
                "OpenTafl's repetition rule acts, by itself, at the third occurrence",
            ),
            None => self.cannot(
                "no repetition rule",
                "OpenTafl always acts on a threefold repetition",
            ),
        }
        if let Some(limit) = outcome.back_and_forth_limit {
            self.cannot(
                format!("back-and-forth limit of {limit}"),
                "OpenTafl has no such limit",
            );
        }
        if let Some(limit) = outcome.no_capture_draw {
            self.cannot(
                format!("draw after {} moves without capture", limit.moves),
                "OpenTafl has no move-count draw",
            );
        }
        for announcement in &rules.announcements {
            self.cannot(
                format!("announcement `{}`", announcement.word),
                "OpenTafl has no announcements",
            );
        }
    }

    fn capture(&mut self) {
        let rules = self.rules;
        if let Some(king) = rules.pieces.iter().find(|piece| piece.role == Role::King) {
            match king.armed {
                Armed::Yes => {}
                Armed::No => self.key("ka", 'n'),
                Armed::Anvil => self.key("ka", 'a'),
                Armed::Hammer => self.key("ka", 'h'),
            }
        }
        let ks = self.king_strength();
        if let Some(ks) = ks.filter(|ks| *ks != 's') {
            self.key("ks", ks);
        }
        if let Some(wall) = &rules.shieldwall {
            let soldiers: Vec<&str> = rules
                .pieces
                .iter()
                .filter(|piece| piece.role == Role::Soldier)
                .map(|piece| piece.name.as_str())
                .collect();
            if wall
                .victims
                .iter()
                .map(String::as_str)
                .ne(soldiers.iter().copied())
            {
                self.cannot(
                    "shieldwall victims",
                    "OpenTafl's shieldwall takes every man, never the king",
                );
            }
            match wall.counting.as_slice() {
                [] => self.key("sw", 'w'),
                [corners] if corners == "corners" => self.key("sw", 's'),
                _ => self.cannot(
                    "shieldwall counting",
                    "OpenTafl's shieldwall counts the corners or nothing",
                ),
            }
            if wall.trigger == ShieldwallTrigger::AnyMove {
                self.key("swf", 'n');
            }
        }
    }

    /// `kj nj cj` and `ber`. OpenTafl jumps go over the enemy's plain men only; a restricted jump
    /// (`r`) starts or lands on any special square and takes nothing. Both sides' pieces of a
    /// type share one jump, `n` for none.
    fn jumps(&mut self) {
        let rules = self.rules;
        let mut keys: Vec<(char, char)> = Vec::new();
        for piece in &rules.pieces {
            let Some(letter) = self.letter(&piece.name) else {
                continue;
            };
            let jump = rules
                .jumps
                .iter()
                .find(|jump| jump.pieces.contains(&piece.name));
            let value = match jump {
                None => 'n',
                Some(jump) => match self.jump_value(letter, jump) {
                    Some(value) => value,
                    None => continue,
                },
            };
            let type_letter = letter.to_ascii_lowercase();
            match keys.iter().find(|(known, _)| *known == type_letter) {
                Some((_, other)) if *other != value => self.cannot(
                    format!("two jumps for `{type_letter}` pieces"),
                    "OpenTafl gives both sides' pieces of a type one jump",
                ),
                Some(_) => {}
                None => keys.push((type_letter, value)),
            }
        }
        // OpenTafl's defaults, for the types no piece has: `kj:n nj:c cj:j`.
        for (type_letter, default) in [('k', 'n'), ('n', 'c'), ('c', 'j')] {
            let value = keys
                .iter()
                .find(|(known, _)| *known == type_letter)
                .map_or(default, |(_, value)| *value);
            if value != default {
                self.key(&format!("{type_letter}j"), value);
            }
        }
        match rules.berserk {
            None => {}
            Some(Berserk::MoveWhileItCanCapture) => self.key("ber", 'c'),
            Some(Berserk::MoveAgain) => self.key("ber", 'm'),
            Some(Berserk::CaptureAgain) => self.cannot(
                "berserk moves that must capture",
                "OpenTafl's `ber:c` accepts any move of the berserker while it can capture",
            ),
        }
    }

    /// The `kj nj cj` value of `jump` for a piece of OpenTafl letter `letter`, or `None` (and
    /// the reason recorded) when OpenTafl cannot play it.
    fn jump_value(&mut self, letter: char, jump: &crate::ir::JumpRule) -> Option<char> {
        let plain_enemy = if letter.is_ascii_lowercase() {
            'T'
        } else {
            't'
        };
        if self.letters(&jump.over) != [plain_enemy] {
            self.cannot(
                format!("the jump over `{}`", jump.over.join("`, `")),
                "OpenTafl's pieces jump over the enemy's plain men only",
            );
        }
        // OpenTafl's restricted jump starts or lands on any special square: the centre, a
        // corner or one of the jumper's own side's forts.
        let own_forts = if letter.is_ascii_lowercase() {
            "attacker-forts"
        } else {
            "defender-forts"
        };
        let mut restricted: Vec<&str> = ["throne", "corners", own_forts]
            .into_iter()
            .filter(|region| !self.special_squares(region).is_empty())
            .collect();
        restricted.sort_unstable();
        let mut only: Vec<&str> = jump.only_from_or_to.iter().map(String::as_str).collect();
        only.sort_unstable();
        match (only.is_empty(), jump.captures) {
            (true, false) => Some('j'),
            (true, true) => Some('c'),
            (false, false) if only == restricted => Some('r'),
            (false, _) => {
                self.cannot(
                    format!(
                        "the jump only from or to `{}`",
                        jump.only_from_or_to.join("`, `")
                    ),
                    "OpenTafl's restricted jump starts or lands on any special square (the \
                     centre, a corner, the side's own forts) and takes nothing",
                );
                None
            }
        }
    }

    /// OpenTafl takes a strong king between two of the attackers' commanders or knights (or one
    /// and a hostile corner), never on the throne: the variant must say exactly that.
    fn sandwiches(&mut self) {
        let rules = self.rules;
        let captors: Vec<String> = rules
            .pieces
            .iter()
            .filter(|piece| matches!(self.letter(&piece.name), Some('c' | 'n')))
            .map(|piece| piece.name.clone())
            .collect();
        let strong = rules
            .king_capture
            .iter()
            .any(|rule| rule.method == KingCaptureMethod::Enclosed);
        let expected = strong && !captors.is_empty();
        // OpenTafl counts a corner hostile to the king, and spares him on and against the centre.
        let corners_count = !self.special_squares("corners").is_empty()
            && self.hostile_to_defenders_when_empty("corners");
        let counting: &[&str] = if corners_count { &["corners"] } else { &[] };
        let except_on: &[&str] = if self.special_squares("throne").is_empty() {
            &[]
        } else {
            &["throne"]
        };
        let kings: Vec<&str> = rules
            .pieces
            .iter()
            .filter(|piece| piece.role == Role::King)
            .map(|piece| piece.name.as_str())
            .collect();
        let matches = |sandwich: &crate::ir::KingSandwich| {
            sandwich.kings == kings
                && sandwich.captors == captors
                && sandwich.counting == counting
                && sandwich.except_on == except_on
        };
        match rules.king_sandwiches.as_slice() {
            [] if !expected => {}
            [sandwich] if expected && matches(sandwich) => {}
            [] => self.cannot(
                "a strong king with commanders or knights among the attackers",
                "OpenTafl then also takes him between two of them (say `the king is also \
                 captured between two commanders, counting corners, except on the throne`)",
            ),
            _ => self.cannot(
                "the king's capture between two pieces",
                "OpenTafl's only such rule: a strong king between two of the attackers' \
                 commanders or knights, or one and a corner, never on the throne",
            ),
        }
    }

    /// `ks`, from the king-capture rules.
    fn king_strength(&mut self) -> Option<char> {
        let rules = self.rules;
        let strong_on_throne = |place: &Place| {
            rules.king_capture.iter().any(|rule| {
                rule.place == *place
                    && rule.method == KingCaptureMethod::Enclosed
                    && !rule.edge_counts
            })
        };
        let method = |place: &Place| {
            rules
                .king_capture
                .iter()
                .find(|rule| rule.place == *place)
                .map(|rule| (rule.method, rule.edge_counts))
        };
        for rule in &rules.king_capture {
            for region in &rule.counting {
                if !self.hostile_to_defenders_when_empty(region) {
                    self.cannot(
                        format!("the king's capture counting `{region}`"),
                        "OpenTafl counts a square against the king only when it is hostile to the defenders",
                    );
                }
            }
        }
        let places: Vec<&Place> = rules.king_capture.iter().map(|rule| &rule.place).collect();
        let throne = Place::On("throne".into());
        let beside = Place::Beside("throne".into());
        let ks = match places.as_slice() {
            [Place::Elsewhere] => match method(&Place::Elsewhere) {
                Some((KingCaptureMethod::Custodial, false)) => Some('w'),
                Some((KingCaptureMethod::Enclosed, false)) => Some('s'),
                Some((KingCaptureMethod::Enclosed, true)) => Some('m'),
                _ => None,
            },
            list if list.len() == 3
                && list.contains(&&throne)
                && list.contains(&&beside)
                && strong_on_throne(&throne)
                && strong_on_throne(&beside)
                && method(&Place::Elsewhere) == Some((KingCaptureMethod::Custodial, false)) =>
            {
                Some('c')
            }
            _ => None,
        };
        if ks.is_none() && rules.pieces.iter().any(|piece| piece.role == Role::King) {
            self.cannot(
                "the king's capture",
                "OpenTafl's king is captured by four anywhere (ks:s), by all his on-board \
                 neighbours (m), by two (w), or by four on and beside the centre and two elsewhere (c)",
            );
        }
        ks
    }

    /// Whether the hostility rules make the empty `region` hostile to every defender.
    fn hostile_to_defenders_when_empty(&self, region: &str) -> bool {
        let defenders: Vec<&str> = self
            .rules
            .pieces
            .iter()
            .filter(|piece| piece.side == Side::Defenders)
            .map(|piece| piece.name.as_str())
            .collect();
        self.rules.hostility.iter().any(|rule| {
            rule.region == region
                && matches!(rule.when, Hostile::Always | Hostile::WhenEmpty)
                && defenders
                    .iter()
                    .all(|name| rule.victims.iter().any(|victim| victim == name))
        })
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

    /// The special squares: `cor cen afor dfor` and their properties.
    fn spaces(&mut self) {
        let rules = self.rules;
        let known = |region: &str| KINDS.iter().any(|(name, _)| *name == region);
        for rule in &rules.access {
            if !known(&rule.region) {
                self.cannot(
                    format!("access to `{}`", rule.region),
                    "OpenTafl's special squares are the centre, the corners and forts",
                );
            }
            if rule.condition == AccessCondition::WhileGroupEmpty {
                self.cannot(
                    format!("access to `{}` while its group is empty", rule.region),
                    "OpenTafl has no such condition",
                );
            }
        }
        for rule in &rules.hostility {
            if !known(&rule.region) {
                self.cannot(
                    format!("hostility of `{}`", rule.region),
                    "OpenTafl's hostile squares are the centre, the corners and forts",
                );
            }
        }
        let dim = rules.board.width;
        let (top, middle) = (dim.saturating_sub(1), dim.saturating_sub(1) / 2);
        let mut default_corners = vec![
            Square::new(0, 0),
            Square::new(top, 0),
            Square::new(0, top),
            Square::new(top, top),
        ];
        default_corners.sort_by_key(|square| (square.rank, square.file));
        for (region, prefix) in KINDS {
            let squares = self.special_squares(region);
            let default: Vec<Square> = match prefix {
                "cen" => vec![Square::new(middle, middle)],
                "cor" => default_corners.clone(),
                _ => Vec::new(),
            };
            if squares != default {
                let list: String = squares.iter().map(|square| format!("{square},")).collect();
                self.key(prefix, list);
            }
            if !squares.is_empty() {
                self.space_properties(region, prefix);
            }
        }
    }

    /// `<prefix>p <prefix>s <prefix>h [cenhe] <prefix>re` for one kind of square.
    fn space_properties(&mut self, region: &str, prefix: &str) {
        let rules = self.rules;
        let letters = ['t', 'T', 'K'];
        let mut pass = letters.to_vec();
        let mut stop = letters.to_vec();
        let mut reenter = letters.to_vec();
        for rule in rules.access.iter().filter(|rule| rule.region == region) {
            let barred = self.letters(&rule.pieces);
            let keep = |list: &mut Vec<char>| list.retain(|letter| !barred.contains(letter));
            match rule.condition {
                AccessCondition::Always => {
                    if rule.action.includes_passing() {
                        keep(&mut pass);
                    }
                    if rule.action.includes_landing() {
                        keep(&mut stop);
                    }
                }
                AccessCondition::OnceLeft
                    if rule.action.includes_passing() && rule.action.includes_landing() =>
                {
                    keep(&mut reenter)
                }
                AccessCondition::OnceLeft => self.cannot(
                    format!("`{region}`: a ban on only landing or only passing once left"),
                    "OpenTafl's re-entry rule bars both",
                ),
                AccessCondition::WhileGroupEmpty => {}
            }
        }
        // A piece that may neither pass nor stop needs no re-entry entry.
        for letter in letters {
            if !pass.contains(&letter) && !stop.contains(&letter) && !reenter.contains(&letter) {
                reenter.push(letter);
            }
        }
        let (mut hostile_occupied, mut hostile_empty) = (Vec::new(), Vec::new());
        let mut linnaean = false;
        for rule in rules.hostility.iter().filter(|rule| rule.region == region) {
            let victims = self.letters(&rule.victims);
            let side_letters = |side: char| -> Vec<char> {
                if side == 't' {
                    vec!['t']
                } else {
                    vec!['T', 'K']
                }
            };
            let mut sides = Vec::new();
            for side in ['t', 'T'] {
                let wanted = side_letters(side);
                let present: Vec<char> = wanted
                    .iter()
                    .copied()
                    .filter(|letter| {
                        rules
                            .pieces
                            .iter()
                            .any(|piece| self.letter(&piece.name) == Some(*letter))
                    })
                    .collect();
                let hit = present
                    .iter()
                    .filter(|letter| victims.contains(letter))
                    .count();
                if hit == present.len() && hit > 0 {
                    sides.push(side);
                } else if hit > 0 {
                    self.cannot(
                        format!(
                            "hostility of `{region}` to some {} only",
                            if side == 't' {
                                "attackers"
                            } else {
                                "defenders"
                            }
                        ),
                        "OpenTafl's hostility is per side",
                    );
                }
            }
            let all_pieces: Vec<&str> = rules
                .pieces
                .iter()
                .map(|piece| piece.name.as_str())
                .collect();
            match &rule.when {
                Hostile::Always => {
                    hostile_occupied.extend(&sides);
                    hostile_empty.extend(&sides);
                }
                Hostile::WhenEmpty if prefix == "cen" => hostile_empty.extend(&sides),
                Hostile::WhenOccupied { by, enemies_beside: 0 }
                    if prefix == "cen" && by.iter().map(String::as_str).eq(all_pieces.iter().copied()) =>
                {
                    hostile_occupied.extend(&sides)
                }
                Hostile::WhenOccupied { by, enemies_beside: 3 }
                    if prefix == "cen"
                        && sides == ['T']
                        && self.letters(by) == ['K']
                        && rules.region(region).is_some_and(|r| {
                            r.squares == [Square::new(rules.board.width / 2, rules.board.width / 2)]
                        }) =>
                {
                    linnaean = true;
                }
                _ => self.cannot(
                    format!("conditional hostility of `{region}`"),
                    "OpenTafl's special squares are hostile always, or (the centre) when empty or \
                     occupied; its one conditional rule is Linnaeus' capture beside the throned king",
                ),
            }
        }
        if prefix != "cen" && hostile_occupied != hostile_empty {
            self.cannot(
                format!("hostility of `{region}` when empty or occupied"),
                "only OpenTafl's centre tells empty from occupied",
            );
        }
        let set = |list: &[char]| -> String {
            // OpenTafl's lists hold every type of a side; write all of them, in its order.
            let mut text = String::new();
            if list.contains(&'t') {
                text += "tcnkm";
            }
            if list.contains(&'T') {
                text += "TCNKM";
            }
            text
        };
        let pieces_set = |list: &[char]| -> String {
            ['t', 'T', 'K']
                .iter()
                .filter(|letter| list.contains(letter))
                .collect()
        };
        let (pass_default, stop_default, hostile_default): (&str, &str, &str) = match prefix {
            "cen" => ("tTK", "K", "tcnkm"),
            "cor" => ("K", "K", "tcnkmTCNKM"),
            "afor" => ("tTK", "tTK", "TCNKM"),
            _ => ("tTK", "TK", "tcnkm"),
        };
        let pass = pieces_set(&pass);
        let stop = pieces_set(&stop);
        if pass != pass_default {
            self.key(&format!("{prefix}p"), pass);
        }
        if stop != stop_default {
            self.key(&format!("{prefix}s"), stop);
        }
        let hostile = set(&hostile_occupied);
        if hostile != hostile_default {
            self.key(&format!("{prefix}h"), hostile);
        }
        if prefix == "cen" {
            let empty = set(&hostile_empty);
            if empty != "tcnkmTCNKM" {
                self.key("cenhe", empty);
            }
        }
        let reenter = pieces_set(&reenter);
        if reenter != "tTK" {
            self.key(&format!("{prefix}re"), reenter);
        }
        if linnaean {
            self.key("linc", 'y');
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
