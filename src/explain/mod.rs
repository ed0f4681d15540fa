//! The rules in plain words: what `tafl show` prints and the REPL's `rules` command will.
//!
//! The text follows the order a player learns a game in: board and sides, the start position,
//! how pieces move, how they are captured, how the king is captured, how the game ends.
//!
//! [`rule_sections`] is a dispatcher: each clause family's sentences are written by the file of
//! that family (the same family names as in `check/rules/` and the engine), and
//! [`words`] names pieces, sides and regions for all of them.

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
mod words;

use crate::english::{side_label, side_noun, side_verb};
use std::fmt::Write as _;

use crate::english::{capitalise, count, squares};
use crate::ir::RuleRef;
use crate::ir::{MoveStyle, Movement, Outcome, Place, Role, Rules, Side, Square};
use words::Words;

/// The rules of `rules` in plain words, with the start diagram.
pub fn explain(rules: &Rules) -> String {
    // Everything below relies on the IR's invariants; rules built by hand may break them.
    if let Err(error) = rules.validate() {
        return format!("These rules are malformed: {error}.\n");
    }
    let mut out = String::new();
    // Writing into a String cannot fail; the `let _ =` below discard that impossible error.
    let _ = write_all(&mut out, rules);
    out
}

fn write_all(out: &mut String, rules: &Rules) -> std::fmt::Result {
    let words = Words { rules };
    writeln!(out, "{}", rules.name)?;
    writeln!(out, "{}", "=".repeat(rules.name.chars().count()))?;
    if let Some(source) = &rules.source {
        writeln!(out, "Source: {source}")?;
    }
    if let Some(family) = &rules.family {
        writeln!(out, "Family: {family}")?;
    }
    writeln!(out)?;
    let first = rules.first_to_move;
    writeln!(
        out,
        "A board of {} x {} squares. {} against {}; {} first.",
        rules.board.width,
        rules.board.height,
        capitalise(&side_label(words.rules, Side::Attackers)),
        side_label(words.rules, Side::Defenders),
        side_verb(words.rules, first, "move"),
    )?;
    writeln!(out)?;
    writeln!(out, "Start position")?;
    writeln!(out)?;
    write_diagram(out, rules)?;
    writeln!(out)?;
    for piece in &rules.pieces {
        let count = rules
            .start_pieces()
            .iter()
            .filter(|(_, placed)| placed.name == piece.name)
            .count();
        let role = match piece.role {
            Role::King => "king",
            Role::Soldier => "soldier",
        };
        writeln!(
            out,
            "  {}  {}: a {role} of {}, {count} on the board",
            piece.symbol,
            piece.display,
            side_noun(words.rules, piece.side)
        )?;
    }
    let used = used_regions(rules);
    let special: Vec<String> = rules
        .regions
        .iter()
        .filter(|region| region.name != "edge" && used.contains(&region.name.as_str()))
        .map(|region| format!("{} {}", region.name, squares(&region.squares)))
        .collect();
    if !special.is_empty() {
        writeln!(out, "  Special squares: {}.", special.join("; "))?;
    }

    let mut title = "";
    let parts = rule_sections(rules);
    for part in &parts {
        if part.sentences.is_empty() {
            continue;
        }
        // Parts with the same title (movement and access) print under one heading.
        if part.title != title {
            section(out, &part.title)?;
            title = &part.title;
        }
        for sentence in &part.sentences {
            bullet(out, sentence)?;
        }
    }
    if !rules.notes.is_empty() {
        section(out, "Notes")?;
        for note in &rules.notes {
            bullet(out, note)?;
        }
    }
    Ok(())
}

/// Who moves first, as a sentence: "The Muscovites move first."
pub fn first_move_sentence(rules: &Rules) -> String {
    format!(
        "{} first.",
        capitalise(&side_verb(rules, rules.first_to_move, "move"))
    )
}

/// How a piece moves, after "moves": "any number of empty squares along a rank or file, like a
/// rook in chess".
pub fn movement_words(movement: Movement) -> String {
    match (movement.style, movement.max_distance) {
        (MoveStyle::Rook, None) => {
            "any number of empty squares along a rank or file, like a rook in chess".to_string()
        }
        (MoveStyle::Rook, Some(1)) => "one square along a rank or file".to_string(),
        (MoveStyle::Rook, Some(max)) => format!(
            "up to {} along a rank or file",
            count(usize::from(max), "empty square")
        ),
        (MoveStyle::AnyEmptySquare, _) => "to any empty square of the board".to_string(),
    }
}

/// One part of the rule sheet: a title and its rules, one plain-word sentence each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// A stable key for the part, the same in every variant: `movement`, `access`, `capturing`,
    /// `king`, `end`, `announcements`. Movement and access share the title "Moving".
    pub key: &'static str,
    /// The title shown to players ("Capturing the King").
    pub title: String,
    /// The rules, one sentence each, in the order `tafl show` prints them.
    pub sentences: Vec<String>,
    /// For each sentence, the rules of the IR it states (none for the general rules every
    /// variant shares): the link from a clause to its wording, for an editor's hover.
    pub rules: Vec<Vec<RuleRef>>,
}

impl Section {
    fn new(key: &'static str, title: &str) -> Section {
        Section {
            key,
            title: title.to_string(),
            sentences: Vec::new(),
            rules: Vec::new(),
        }
    }

    /// Adds a general sentence, stated by no clause of its own.
    fn push(&mut self, sentence: String) {
        self.push_for(sentence, []);
    }

    /// Adds a sentence that states `rules`.
    fn push_for(&mut self, sentence: String, rules: impl IntoIterator<Item = RuleRef>) {
        self.sentences.push(sentence);
        self.rules.push(rules.into_iter().collect());
    }
}

/// The rules after the start position, in plain words: how pieces move and where they may go,
/// how they are captured,
/// how the king is captured, how the game ends and the announcements, always in that order and
/// with those keys (a part may have no sentence). `tafl show` prints them; `tafl diff` compares
/// them sentence by sentence.
pub fn rule_sections(rules: &Rules) -> Vec<Section> {
    if rules.validate().is_err() {
        return Vec::new();
    }
    // Every field of the rules is said below or in the header; destructuring them here makes a
    // new field a compile error until `tafl show` (and so hover, outline and `tafl diff`) says it.
    let Rules {
        name: _,          // the header
        source: _,        // the header
        family: _,        // the header
        notes: _,         // the header
        board: _,         // the header and the picture
        sides: _,         // the names used in every sentence
        first_to_move: _, // the header
        pieces,           // "Moving", "Capturing", and the names used in every sentence
        regions: _,       // "Moving" (where pieces may go) and the picture
        setup: _,         // the picture
        access,           // "Moving" (where pieces may go)
        hostility,        // "Capturing"
        king_capture,     // "Capturing the king"
        king_sandwiches,  // "Capturing the king"
        shieldwall,       // "Capturing"
        jumps,            // "Moving"
        berserk,          // "Capturing"
        outcome:
            Outcome {
                escapes,
                decisive_captures,
                edge_forts,
                encirclements,
                no_moves,
                repetition,
                back_and_forth_limit, // "Moving" (where pieces may go)
                no_capture_draw,
                draw_by_agreement,
            }, // "End of the game"
        announcements,    // "Announcements"
    } = rules;
    let words = Words { rules };

    let mut movement = Section::new("movement", "Moving");
    movement::movement(&words, &mut movement, pieces, jumps);
    let mut moving = Section::new("access", "Moving");
    jumps::jumps(&words, &mut moving, jumps);
    movement::access(&words, &mut moving, access);
    repetition::back_and_forth(&mut moving, *back_and_forth_limit);

    let mut capturing = Section::new("capturing", "Capturing");
    capture::custodial(&words, &mut capturing, pieces);
    hostility::hostility(&words, &mut capturing, hostility);
    shieldwall::shieldwall(&words, &mut capturing, shieldwall.as_ref());
    jumps::berserk(&mut capturing, *berserk);

    let king = king_capture::section(&words, king_capture, king_sandwiches);

    let mut end = Section::new("end", "End of the game");
    reaching::escapes(&words, &mut end, escapes);
    king_capture::decisive(&words, &mut end, decisive_captures);
    forts::edge_forts(&words, &mut end, edge_forts);
    encirclement::encirclements(&words, &mut end, encirclements);
    repetition::no_moves(&words, &mut end, *no_moves);
    repetition::repetition(&words, &mut end, *repetition);
    repetition::no_capture_draw(&mut end, *no_capture_draw);
    repetition::agreement(&mut end, *draw_by_agreement);

    let mut announcements_section = Section::new("announcements", "Announcements");
    reaching::announcements(&words, &mut announcements_section, announcements);
    vec![
        movement,
        moving,
        capturing,
        king,
        end,
        announcements_section,
    ]
}

/// The regions some rule refers to: the special squares a player must know.
pub fn used_regions(rules: &Rules) -> Vec<&str> {
    let mut used: Vec<&str> = Vec::new();
    used.extend(rules.access.iter().map(|rule| rule.region.as_str()));
    used.extend(rules.hostility.iter().map(|rule| rule.region.as_str()));
    for rule in &rules.king_capture {
        if let Place::On(region) | Place::Beside(region) = &rule.place {
            used.push(region);
        }
        used.extend(rule.counting.iter().map(String::as_str));
    }
    used.extend(
        rules
            .outcome
            .escapes
            .iter()
            .map(|escape| escape.region.as_str()),
    );
    if let Some(wall) = &rules.shieldwall {
        used.extend(wall.counting.iter().map(String::as_str));
    }
    used.extend(
        rules
            .announcements
            .iter()
            .map(|announcement| announcement.region.as_str()),
    );
    used
}

fn section(out: &mut String, title: &str) -> std::fmt::Result {
    writeln!(out)?;
    writeln!(out, "{title}")?;
    writeln!(out, "{}", "-".repeat(title.chars().count()))
}

fn bullet(out: &mut String, text: &str) -> std::fmt::Result {
    // Wrap at 92 columns, continuation lines indented under the text.
    let text = capitalise(text);
    let mut line = String::from("  -");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 92 && line.len() > 4 {
            writeln!(out, "{line}")?;
            line = String::from("   ");
        }
        line.push(' ');
        line.push_str(word);
    }
    writeln!(out, "{line}")
}

/// The start position with coordinates on all four sides; special squares marked where empty.
fn write_diagram(out: &mut String, rules: &Rules) -> std::fmt::Result {
    let width = usize::from(rules.board.width);
    let files: String = (0..width)
        .map(|file| format!(" {}", (b'a' + file as u8) as char))
        .collect();
    writeln!(out, "     {files}")?;
    for (row, text) in rules.setup.iter().enumerate() {
        let rank = usize::from(rules.board.height) - row;
        let mut cells = String::new();
        for (file, symbol) in text.chars().enumerate() {
            let square = Square::new(file as u8, (rank - 1) as u8);
            let shown = if symbol == '.' {
                mark(rules, square)
            } else {
                symbol
            };
            cells.push(' ');
            cells.push(shown);
        }
        writeln!(out, "  {rank:>2} {cells}  {rank}")?;
    }
    writeln!(out, "     {files}")?;
    let used = used_regions(rules);
    let marks: Vec<&str> = [("throne", "+ throne"), ("corners", "# corner")]
        .iter()
        .filter(|(name, _)| used.contains(name))
        .map(|(_, legend)| *legend)
        .collect();
    if !marks.is_empty() {
        writeln!(out, "  (. empty, {})", marks.join(", "))?;
    }
    Ok(())
}

fn mark(rules: &Rules, square: Square) -> char {
    let used = used_regions(rules);
    let on = |name: &str| {
        used.contains(&name)
            && rules
                .region(name)
                .is_some_and(|region| region.squares.contains(&square))
    };
    if on("throne") {
        '+'
    } else if on("corners") {
        '#'
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brandubh with its sides renamed: its pieces are called `attacker` and `defender`.
    fn brandubh_as(attackers: &str, defenders: &str) -> String {
        let text = crate::Variant::bundled("brandubh")
            .expect("brandubh loads")
            .text
            .replace(
                "attackers are called \"Attackers\"",
                &format!("attackers are called \"{attackers}\""),
            )
            .replace(
                "defenders are called \"Defenders\"",
                &format!("defenders are called \"{defenders}\""),
            );
        let variant = crate::Variant::from_text("renamed.tafl", &text).expect("it loads");
        explain(&variant.rules)
    }

    #[test]
    fn renamed_sides_are_named_one_way_and_once() {
        let sheet = brandubh_as("Black", "White");
        assert!(
            sheet.contains("Black (attackers) against White (defenders)"),
            "{sheet}"
        );
        // The pieces called `attacker` and `defender` are not written as if they were sides.
        assert!(
            sheet.contains("The soldiers of both sides may not land on the throne"),
            "{sheet}"
        );
        assert!(!sheet.contains("Attackers and Defenders"), "{sheet}");
        // A name that already says its side is not followed by it again.
        let sheet = brandubh_as("Black (attackers)", "White (defenders)");
        assert!(!sheet.contains("(attackers) (attackers)"), "{sheet}");
        assert!(
            sheet.contains("Black (attackers) against White (defenders)"),
            "{sheet}"
        );
        // The default names are not repeated either.
        let sheet = brandubh_as("Attackers", "Defenders");
        assert!(
            sheet.contains("The Attackers against the Defenders"),
            "{sheet}"
        );
    }
}
