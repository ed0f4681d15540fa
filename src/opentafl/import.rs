//! OpenTafl rules string → variant file, one commented clause per rule.

use std::fmt::Write as _;

use super::settings::{
    Berserk, EscapeTo, Jump, KingArmed, KingStrength, ParseError, Settings, ShieldwallMode,
    SpaceProperties, Threefold, TypeSet,
};
use crate::ir::Square;

/// A rule of a rules string that the language cannot say yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// The key (or `start`) the rule came from, as written (`ber:c`).
    pub key: String,
    /// What the language lacks.
    pub reason: String,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.key, self.reason)
    }
}

/// Why a rules string cannot be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The string is malformed.
    #[error("cannot read the rules string: {0}")]
    Parse(#[from] ParseError),
    /// The string is well formed but has rules the language cannot say; every one is listed.
    #[error("the rules string has rules the variant language cannot say yet:\n  {}",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  "))]
    Unsupported(Vec<Unsupported>),
    /// The string reads, but its game is not playable (no king, no attackers, two kings...):
    /// the checker's errors on the written file.
    #[error("the rules string does not make a playable variant:\n  {}", .0.join("\n  "))]
    Unplayable(Vec<String>),
}

/// The variant file for an OpenTafl rules string.
///
/// Each clause carries a comment naming the key it came from (`# ks:c`, or `# default ks:s` when
/// the string relies on OpenTafl's default). The file plays as OpenTafl plays the string, except
/// where OpenTafl's code has a defect that docs/opentafl.md lists; there the file follows
/// OpenTafl's document.
///
/// # Errors
/// [`ImportError::Parse`] for a malformed string; [`ImportError::Unsupported`] naming every key
/// whose rule the language cannot say (jumps, berserk, knights, commanders, mercenaries, guards);
/// [`ImportError::Unplayable`] when the position cannot be played (no king, a side without pieces).
///
/// # Examples
/// ```
/// let text = tafl::opentafl::import(
///     "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
/// )
/// .unwrap();
/// let variant = tafl::Variant::from_text("brandub.tafl", &text).unwrap();
/// assert_eq!(variant.rules.board.width, 7);
/// ```
pub fn import(rules_string: &str) -> Result<String, ImportError> {
    let settings: Settings = rules_string.parse()?;
    refuse_unsupported(&settings)?;
    // The comments quote the rules string: a control character in it is written as its escape
    // (`\u{1b}`), so that the file, printed or opened, shows it rather than obeys it.
    let text = crate::printable::shown(&Writer::new(&settings, rules_string).write()).into_owned();
    let checked = crate::check::check_text("imported.tafl", &text);
    if checked.diagnostics.has_errors() {
        return Err(ImportError::Unplayable(
            checked
                .diagnostics
                .items()
                .iter()
                .filter(|item| item.severity == crate::Severity::Error)
                .map(|item| item.message.clone())
                .collect(),
        ));
    }
    Ok(text)
}

/// Every rule the language cannot say yet, all at once.
fn refuse_unsupported(settings: &Settings) -> Result<(), ImportError> {
    let mut unsupported = Vec::new();
    let mut present = TypeSet::NONE;
    settings
        .start
        .iter()
        .flatten()
        .flatten()
        .for_each(|&letter| present.insert(letter));
    for (letter, what) in [
        ('m', "mercenaries"),
        ('g', "guards"),
        ('k', "an attacking king"),
    ] {
        for letter in [letter, letter.to_ascii_uppercase()] {
            if present.has(letter) && (letter != 'K') {
                unsupported.push(Unsupported {
                    key: format!("start ({letter})"),
                    reason: format!(
                        "{what} are not pieces of the language yet (t, c, n, T, C, N and K are)"
                    ),
                });
            }
        }
    }
    if unsupported.is_empty() {
        Ok(())
    } else {
        Err(ImportError::Unsupported(unsupported))
    }
}

/// The piece kinds the importer can declare: (OpenTafl letter, our name). The man of each side
/// and the king always; commanders and knights when the start position has them.
const ALL_PIECES: [(char, &str); 7] = [
    ('t', "attacker"),
    ('c', "commander"),
    ('n', "attacker-knight"),
    ('T', "defender"),
    ('C', "defender-commander"),
    ('N', "knight"),
    ('K', "king"),
];

/// One kind of special square, as the file declares it.
struct SpaceKind<'a> {
    /// Our region name.
    region: &'static str,
    /// OpenTafl's key prefix (`cen`, `cor`, `afor`, `dfor`).
    prefix: &'static str,
    squares: &'a [Square],
    props: SpaceProperties,
    /// OpenTafl's defaults for pass, stop, hostile and re-entry, for the comments.
    defaults: [&'static str; 4],
}

struct Writer<'a> {
    settings: &'a Settings,
    /// The kinds declared: [`ALL_PIECES`] that are always there or on the start position.
    pieces: Vec<(char, &'static str)>,
    original: &'a str,
    body: String,
    used_regions: Vec<&'static str>,
}

impl<'a> Writer<'a> {
    fn new(settings: &'a Settings, original: &'a str) -> Writer<'a> {
        let mut present = TypeSet::NONE;
        settings
            .start
            .iter()
            .flatten()
            .flatten()
            .for_each(|&letter| present.insert(letter));
        let pieces = ALL_PIECES
            .into_iter()
            .filter(|(letter, _)| matches!(letter, 't' | 'T' | 'K') || present.has(*letter))
            .collect();
        Writer {
            settings,
            pieces,
            original,
            body: String::new(),
            used_regions: Vec::new(),
        }
    }

    /// Writes `clause` with `# comment`, aligned.
    fn clause(&mut self, clause: &str, comment: &str) {
        // Writing to a String cannot fail.
        let _ = writeln!(self.body, "{clause:<56} # {comment}");
    }

    fn comment(&mut self, comment: &str) {
        let _ = writeln!(self.body, "# {comment}");
    }

    fn use_region(&mut self, region: &'static str) {
        if !self.used_regions.contains(&region) {
            self.used_regions.push(region);
        }
    }

    fn write(mut self) -> String {
        let s = self.settings;
        let spaces = self.space_kinds();
        self.movement();
        for kind in &spaces {
            self.access(kind);
        }
        self.jumps(&spaces);
        self.capture(&spaces);
        self.king_capture();
        self.outcome();

        let mut head = String::new();
        let _ = writeln!(
            head,
            "# Imported by `tafl import --opentafl` from the OpenTafl rules string\n#   {}\n\
             # Each comment names the key a clause comes from (`default` where the string relies on\n\
             # OpenTafl's default). docs/opentafl.md explains the mapping.\n",
            self.original.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        let name = s.name.clone().unwrap_or_else(|| "Unknown Tafl".into());
        let _ = writeln!(
            head,
            "{:<56} # {}",
            format!("name {:?}", name.replace('"', "'")),
            s.source_of("name", "Unknown_Tafl")
        );
        let _ = writeln!(
            head,
            "source \"OpenTafl rules string (jslater89/OpenTafl)\"\n"
        );
        let _ = writeln!(
            head,
            "{:<56} # {}",
            format!("board {0} x {0}", s.dim),
            s.source_of("dim", "")
        );
        let first = if s.attackers_first {
            "attackers"
        } else {
            "defenders"
        };
        let _ = writeln!(
            head,
            "{:<56} # {}\n",
            format!("{first} move first"),
            s.source_of("atkf", "y")
        );
        for &(letter, name) in &self.pieces {
            let side = if letter.is_ascii_lowercase() {
                "attacker"
            } else {
                "defender"
            };
            let role = if letter == 'K' { "king" } else { "soldier" };
            let _ = writeln!(head, "piece {letter} {name}: {side} {role}");
        }
        head.push('\n');
        for kind in &spaces {
            if self.used_regions.contains(&kind.region) {
                let squares: Vec<String> = kind.squares.iter().map(ToString::to_string).collect();
                let _ = writeln!(
                    head,
                    "{:<56} # {}",
                    format!("region {} = {}", kind.region, squares.join(" ")),
                    kind_source(s, kind.prefix)
                );
            }
        }
        for (prefix, what) in [
            ("cen", "centre"),
            ("cor", "corner"),
            ("afor", "attacker fort"),
            ("dfor", "defender fort"),
        ] {
            if spaces.iter().any(|kind| kind.prefix == prefix) {
                continue;
            }
            let keys: Vec<String> = s
                .given
                .iter()
                .filter(|(key, _)| key.starts_with(prefix))
                .map(|(key, value)| format!("{key}:{value}"))
                .collect();
            if !keys.is_empty() {
                let _ = writeln!(head, "# no {what} squares: {}", keys.join(" "));
            }
        }
        let start_key = if s.given("starti").is_some() {
            "starti"
        } else {
            "start"
        };
        let _ = writeln!(
            head,
            "\nsetup                                                    # {start_key}"
        );
        for row in &s.start {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| cell.unwrap_or('.').to_string())
                .collect();
            let _ = writeln!(head, "  {}", cells.join(" "));
        }
        let _ = writeln!(head, "end\n");
        head + &self.body
    }

    fn space_kinds(&self) -> Vec<SpaceKind<'a>> {
        let s = self.settings;
        let mut kinds = Vec::new();
        for (region, prefix, squares, props, defaults) in [
            (
                "throne",
                "cen",
                &s.centre,
                s.centre_props,
                ["tcnkmTCNKM", "K", "tcnkm", "tcnkmTCNKM"],
            ),
            (
                "corners",
                "cor",
                &s.corners,
                s.corner_props,
                ["K", "K", "tcnkmTCNKM", "tcnkmTCNKM"],
            ),
            (
                "attacker-forts",
                "afor",
                &s.attacker_forts,
                s.attacker_fort_props,
                ["tcnkmTCNKM", "tcnkmTCNKM", "TCNKM", "tcnkmTCNKM"],
            ),
            (
                "defender-forts",
                "dfor",
                &s.defender_forts,
                s.defender_fort_props,
                ["tcnkmTCNKM", "TCNKM", "tcnkm", "tcnkmTCNKM"],
            ),
        ] {
            if !squares.is_empty() {
                kinds.push(SpaceKind {
                    region,
                    prefix,
                    squares,
                    props,
                    defaults,
                });
            }
        }
        kinds
    }

    fn movement(&mut self) {
        let s = self.settings;
        let source = s.source_of("spd", "-1");
        let speed_of = |letter: char| {
            let index = super::settings::LETTERS
                .iter()
                .position(|&known| known == letter)
                .unwrap_or(0);
            s.speeds[index]
        };
        let speeds: Vec<Option<u8>> = self
            .pieces
            .iter()
            .map(|(letter, _)| speed_of(*letter))
            .collect();
        if speeds.iter().all(|speed| *speed == speeds[0]) {
            self.clause(&format!("everyone moves {}", rook(speeds[0])), &source);
        } else {
            for ((_, name), speed) in self.pieces.clone().iter().zip(speeds) {
                self.clause(&format!("{name} moves {}", rook(speed)), &source);
            }
        }
    }

    /// Where pieces may not go on one kind of special square: OpenTafl's may-pass, may-stop and
    /// may-re-enter lists, turned into prohibitions.
    fn access(&mut self, kind: &SpaceKind<'_>) {
        let s = self.settings;
        let pass_key = format!("{}p", kind.prefix);
        let stop_key = format!("{}s", kind.prefix);
        let re_key = format!("{}re", kind.prefix);
        let source = format!(
            "{}, {}",
            s.source_of(&pass_key, kind.defaults[0]),
            s.source_of(&stop_key, kind.defaults[1])
        );
        let mut restricted = false;
        for (action, forbidden) in [
            ("enter", (false, false)),
            ("land on", (true, false)),
            ("pass through", (false, true)),
        ] {
            let barred: Vec<&str> = self
                .pieces
                .iter()
                .filter(|(letter, _)| {
                    (kind.props.pass.has(*letter), kind.props.stop.has(*letter)) == forbidden
                })
                .map(|(_, name)| *name)
                .collect();
            if barred.is_empty() {
                continue;
            }
            restricted = true;
            self.use_region(kind.region);
            let allowed: Vec<&str> = self
                .pieces
                .iter()
                .map(|(_, name)| *name)
                .filter(|name| !barred.contains(name))
                .collect();
            let clauses = match allowed.as_slice() {
                // "Nobody may enter" would also bar a piece that starts there (OpenTafl lets a
                // king start on a throne nobody may stop on, as Ashton's does): say both halves.
                [] if action == "enter" => vec![
                    format!("nobody may land on the {}", kind.region),
                    format!("nobody may pass through the {}", kind.region),
                ],
                [] => vec![format!("nobody may {action} the {}", kind.region)],
                [one] => vec![format!("only the {one} may {action} the {}", kind.region)],
                _ => vec![format!(
                    "{} may not {action} the {}",
                    barred.join(" and "),
                    kind.region
                )],
            };
            for clause in clauses {
                self.clause(&clause, &source);
            }
        }
        if !restricted {
            self.comment(&format!(
                "every piece may pass through and land on the {} ({source})",
                kind.region
            ));
        }
        let barred: Vec<&str> = self
            .pieces
            .iter()
            .filter(|(letter, _)| {
                !kind.props.reenter.has(*letter)
                    && (kind.props.pass.has(*letter) || kind.props.stop.has(*letter))
            })
            .map(|(_, name)| *name)
            .collect();
        if !barred.is_empty() {
            self.use_region(kind.region);
            let who = if barred.len() == self.pieces.len() {
                "nobody may".to_string()
            } else {
                format!("{} may not", barred.join(" and "))
            };
            self.clause(
                &format!("{who} enter the {} once left", kind.region),
                &s.source_of(&re_key, kind.defaults[3]),
            );
        } else if s.given(&re_key).is_some() {
            self.comment(&format!(
                "the pieces that may enter the {} may also come back ({})",
                kind.region,
                s.source_of(&re_key, kind.defaults[3])
            ));
        }
    }

    /// `kj nj cj`: the jumps of the king, knights and commanders; `ber`: berserk moves.
    fn jumps(&mut self, spaces: &[SpaceKind<'_>]) {
        let s = self.settings;
        for (type_letter, jump) in s.jumps {
            let key = format!("{type_letter}j");
            let default = match type_letter {
                'n' => "c",
                'c' => "j",
                _ => "n",
            };
            let source = s.source_of(&key, default);
            let jumpers: Vec<(char, &'static str)> = self
                .pieces
                .iter()
                .copied()
                .filter(|(letter, _)| letter.to_ascii_lowercase() == type_letter)
                .collect();
            for (letter, name) in jumpers {
                // Only a plain man of the other side may be jumped in OpenTafl.
                let over = if letter.is_ascii_lowercase() {
                    "a defender"
                } else {
                    "an attacker"
                };
                let subject = if letter == 'K' {
                    "the king".to_string()
                } else {
                    format!("{}s", name)
                };
                match jump {
                    Jump::None => {}
                    Jump::Over => self.clause(&format!("{subject} may jump over {over}"), &source),
                    Jump::Capture => self.clause(
                        &format!("{subject} may jump over {over}, capturing it"),
                        &source,
                    ),
                    Jump::Restricted => {
                        // OpenTafl: "jumping from or landing on a throne, corner, or fort space";
                        // a side's fort is its own.
                        let own_fort = if letter.is_ascii_lowercase() {
                            "afor"
                        } else {
                            "dfor"
                        };
                        let regions: Vec<&'static str> = spaces
                            .iter()
                            .filter(|kind| {
                                matches!(kind.prefix, "cen" | "cor") || kind.prefix == own_fort
                            })
                            .map(|kind| kind.region)
                            .collect();
                        if regions.is_empty() {
                            self.comment(&format!(
                                "{source}: {subject} jump only from or to a special square, and there is none"
                            ));
                            continue;
                        }
                        for region in &regions {
                            self.use_region(region);
                        }
                        let places: Vec<String> = regions
                            .iter()
                            .map(|region| format!("the {region}"))
                            .collect();
                        self.clause(
                            &format!(
                                "{subject} may jump over {over}, only from or to {}",
                                places.join(" or ")
                            ),
                            &source,
                        );
                    }
                }
            }
        }
        let source = s.source_of("ber", "n");
        match s.berserk {
            Berserk::None => {}
            Berserk::Capture => self.clause(
                "after a capture the capturing piece moves again while it can capture",
                &source,
            ),
            Berserk::AnyMove => {
                self.clause("after a capture the capturing piece moves again", &source)
            }
        }
    }

    fn capture(&mut self, spaces: &[SpaceKind<'_>]) {
        let s = self.settings;
        let (armed, ka) = match s.king_armed {
            KingArmed::Yes => ("armed", "y"),
            KingArmed::No => ("unarmed", "n"),
            KingArmed::Anvil => ("armed only when still", "a"),
            KingArmed::Hammer => ("armed only when moving", "h"),
        };
        self.clause(&format!("the king is {armed}"), &s.source_of("ka", ka));
        for kind in spaces {
            let hostile_key = format!("{}h", kind.prefix);
            let source = s.source_of(&hostile_key, kind.defaults[2]);
            // OpenTafl asks whether a square is hostile to a *side*: only `t` and `T` count.
            let sides = |set: TypeSet| (set.has('t'), set.has('T'));
            if kind.prefix == "cen" {
                let occupied = sides(kind.props.hostile);
                let empty = sides(kind.props.hostile_empty);
                let source = format!("{source}, {}", s.source_of("cenhe", "tcnkmTCNKM"));
                for (set, when) in [(empty, " when empty"), (occupied, " when occupied")] {
                    if let Some(victims) = victims(set) {
                        self.use_region(kind.region);
                        self.clause(
                            &format!("the {} is hostile to {victims}{when}", kind.region),
                            &source,
                        );
                    }
                }
                if empty == (false, false) && occupied == (false, false) {
                    self.comment(&format!(
                        "the {} is hostile to nobody, empty or not ({source})",
                        kind.region
                    ));
                }
            } else if let Some(victims) = victims(sides(kind.props.hostile)) {
                self.use_region(kind.region);
                let verb = if kind.region == "throne" { "is" } else { "are" };
                self.clause(
                    &format!("the {} {verb} hostile to {victims}", kind.region),
                    &source,
                );
            } else {
                self.comment(&format!(
                    "the {} are hostile to nobody ({source})",
                    kind.region
                ));
            }
        }
        if s.linnaean_capture {
            // OpenTafl's Linnaean capture is tied to the board's middle square, whatever `cen` says.
            let middle = Square::new(s.dim / 2, s.dim / 2);
            if s.centre == [middle] {
                self.use_region("throne");
                self.clause(
                    "the throne is hostile to defenders when occupied by the king with 3 enemies beside it",
                    "linc:y",
                );
            } else {
                self.comment("linc:y has no effect here: the centre is not the middle square");
            }
        }
        match s.shieldwall {
            ShieldwallMode::None => {}
            mode => {
                let counting = if mode == ShieldwallMode::Strong && !s.corners.is_empty() {
                    self.use_region("corners");
                    ", counting corners"
                } else {
                    ""
                };
                let trigger = if s.shieldwall_flanking {
                    ""
                } else {
                    ", after any move"
                };
                self.clause(
                    &format!("soldiers are captured in a shieldwall{counting}{trigger}"),
                    &format!("{}, {}", s.source_of("sw", "n"), s.source_of("swf", "y")),
                );
            }
        }
    }

    fn king_capture(&mut self) {
        let s = self.settings;
        let source = s.source_of("ks", "s");
        match s.king_strength {
            KingStrength::Strong => self.clause(
                "the king is captured anywhere when surrounded on four sides",
                &source,
            ),
            KingStrength::Middleweight => self.clause(
                "the king is captured anywhere when surrounded on four sides, counting the edge",
                &source,
            ),
            KingStrength::Weak => {
                self.clause("the king is captured anywhere like a soldier", &source)
            }
            KingStrength::StrongByCentre if s.centre.is_empty() => {
                self.clause(
                    "the king is captured anywhere like a soldier",
                    &format!("{source}, and there is no centre (cen:)"),
                );
            }
            KingStrength::StrongByCentre => {
                self.use_region("throne");
                self.clause(
                    "the king is captured on the throne when surrounded on four sides",
                    &source,
                );
                self.clause(
                    "the king is captured beside the throne when surrounded on four sides",
                    &source,
                );
                self.clause("the king is captured elsewhere like a soldier", &source);
            }
        }
        // OpenTafl's commander sandwich (`Taflman.checkSandwichCapture`): a strong king is also
        // taken between two of the attackers' commanders or knights, or one and a hostile
        // corner, never on the throne nor against it.
        let strong = matches!(
            s.king_strength,
            KingStrength::Strong | KingStrength::StrongByCentre
        );
        let captors: Vec<&str> = self
            .pieces
            .iter()
            .filter(|(letter, _)| matches!(letter, 'c' | 'n'))
            .map(|(_, name)| *name)
            .collect();
        if strong
            && !captors.is_empty()
            && !(s.king_strength == KingStrength::StrongByCentre && s.centre.is_empty())
        {
            let mut clause = format!(
                "the king is also captured between two {}",
                captors
                    .iter()
                    .map(|name| format!("{name}s"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            );
            if !s.corners.is_empty() && s.corner_props.hostile.has('T') {
                self.use_region("corners");
                clause.push_str(", counting corners");
            }
            if !s.centre.is_empty() {
                self.use_region("throne");
                clause.push_str(", except on the throne");
            }
            self.clause(
                &clause,
                &format!("{source}, with commanders or knights among the attackers"),
            );
        }
    }

    fn outcome(&mut self) {
        let s = self.settings;
        self.body.push('\n');
        let escape = s.source_of("esc", "c");
        match s.escape {
            EscapeTo::Edge => self.clause("defenders win when the king reaches the edge", &escape),
            EscapeTo::Corners if s.corners.is_empty() => self.comment(&format!(
                "{escape} with no corner squares (cor:): the king cannot escape"
            )),
            EscapeTo::Corners => {
                self.use_region("corners");
                self.clause("defenders win when the king reaches a corner", &escape);
            }
        }
        if s.edge_fort_escape {
            self.clause(
                "defenders win when the king holds an edge fort",
                &s.source_of("efe", "n"),
            );
        }
        self.clause(
            "attackers win when the king is captured",
            "OpenTafl: the king captured",
        );
        self.clause(
            "attackers win when every defender is surrounded",
            "OpenTafl always: no defender has an empty neighbour",
        );
        if s.surround_fatal {
            self.clause(
                "attackers win when no defender can reach the edge",
                &s.source_of("surf", "y"),
            );
        } else {
            self.comment(&format!(
                "{}: no encirclement beyond every defender surrounded",
                s.source_of("surf", "y")
            ));
        }
        self.clause(
            "a side that cannot move loses",
            "OpenTafl has no rule here (the game stalls); the usual reading",
        );
        let (clause, tfr) = match s.threefold {
            Threefold::Draw => ("the game is drawn when a position occurs 3 times", "d"),
            Threefold::MoverLoses => ("a side that makes a position occur 3 times loses", "w"),
            Threefold::MoverWins => ("a side that makes a position occur 3 times wins", "l"),
        };
        let _ = tfr;
        self.clause(clause, &s.source_of("tfr", "d"));
    }
}

/// `like a rook`, with the speed limit if any.
fn rook(speed: Option<u8>) -> String {
    match speed {
        None => "like a rook".into(),
        Some(1) => "like a rook, at most 1 square".into(),
        Some(squares) => format!("like a rook, at most {squares} squares"),
    }
}

/// The victims of a per-side hostility: (attackers, defenders).
fn victims((attackers, defenders): (bool, bool)) -> Option<&'static str> {
    match (attackers, defenders) {
        (true, true) => Some("everyone"),
        (true, false) => Some("attackers"),
        (false, true) => Some("defenders"),
        (false, false) => None,
    }
}

/// The comment on a region declaration: the key its squares came from.
fn kind_source(settings: &Settings, prefix: &str) -> String {
    match (prefix, settings.given(prefix)) {
        ("cen", None) => "default cen: the middle square".into(),
        ("cor", None) => "default cor: the four corners".into(),
        (key, _) => settings.source_of(key, ""),
    }
}
