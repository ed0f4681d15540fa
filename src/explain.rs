//! The rules in plain words: what `tafl show` prints and the REPL's `rules` command will.
//!
//! The text follows the order a player learns a game in: board and sides, the start position,
//! how pieces move, how they are captured, how the king is captured, how the game ends.

use std::fmt::Write as _;

use crate::english::{capitalise, count, join_and, join_or};
use crate::ir::RuleRef;
use crate::ir::{
    AccessCondition, Action, Armed, Berserk, Claim, EncirclementReading, Hostile,
    KingCaptureMethod, MoveStyle, Movement, NoMoves, Outcome, Place, RepetitionResult, Role, Rules,
    ShieldwallTrigger, Side, Square,
};

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
    writeln!(out)?;
    let first = rules.first_to_move;
    writeln!(
        out,
        "A board of {} x {} squares. {} against {}; {} first.",
        rules.board.width,
        rules.board.height,
        capitalise(&words.side_label(Side::Attackers)),
        words.side_label(Side::Defenders),
        words.side_verb(first, "move"),
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
            words.side_noun(piece.side)
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
    let words = Words { rules };
    format!(
        "{} first.",
        capitalise(&words.side_verb(rules.first_to_move, "move"))
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

/// What a side is called, as a player says it: "the Muscovites", "White".
pub fn side_noun(rules: &Rules, side: Side) -> String {
    Words { rules }.side_noun(side)
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
        name: _,            // the header
        source: _,          // the header
        notes: _,           // the header
        board: _,           // the header and the picture
        sides: _,           // the names used in every sentence
        first_to_move: _,   // the header
        pieces: _,          // "Moving", and the names used in every sentence
        regions: _,         // "Moving" (where pieces may go) and the picture
        setup: _,           // the picture
        access: _,          // "Moving" (where pieces may go)
        hostility: _,       // "Capturing"
        king_capture: _,    // "Capturing the king"
        king_sandwiches: _, // "Capturing the king"
        shieldwall: _,      // "Capturing"
        jumps: _,           // "Moving"
        berserk: _,         // "Moving"
        outcome:
            Outcome {
                escapes: _,
                decisive_captures: _,
                edge_forts: _,
                encirclements: _,
                no_moves: _,
                repetition: _,
                back_and_forth_limit: _,
                no_capture_draw: _,
                draw_by_agreement: _,
            }, // "End of the game"
        announcements: _,   // "Announcements"
    } = rules;
    let words = Words { rules };
    let mut movement = Section::new("movement", "Moving");
    let same_movement = rules
        .pieces
        .windows(2)
        .all(|pair| pair[0].movement == pair[1].movement);
    for (index, piece) in rules.pieces.iter().enumerate() {
        let how = movement_words(piece.movement);
        if same_movement {
            let all = (0..rules.pieces.len()).map(RuleRef::Movement);
            movement.push_for(format!("Every piece moves {how}."), all);
            break;
        }
        movement.push_for(
            format!("{} moves {how}.", words.piece_plural(&piece.name)),
            [RuleRef::Movement(index)],
        );
    }
    if rules.jumps.is_empty() {
        movement.push("No piece jumps over another or lands on an occupied square.".to_string());
    } else {
        movement.push(
            "No piece lands on an occupied square, and only the jumps below go over a piece."
                .to_string(),
        );
    }
    // Said under "where pieces may go", which `tafl diff` compares sentence by sentence.
    let mut jumps = Vec::new();
    for (index, jump) in rules.jumps.iter().enumerate() {
        let only = if jump.only_from_or_to.is_empty() {
            String::new()
        } else {
            let regions: Vec<String> = jump
                .only_from_or_to
                .iter()
                .map(|region| words.region(region))
                .collect();
            format!(", only from or onto {}", join_or(&regions))
        };
        let taken = if jump.captures {
            "; the jumped piece is captured"
        } else {
            "; the jumped piece stays (the jump captures only as any move does, where it lands)"
        };
        let jumpers = words.pieces(&jump.pieces);
        // "the King ... next to him", "Knights ... next to them".
        let one_king = match jump.pieces.as_slice() {
            [only] => rules
                .piece(only)
                .is_some_and(|piece| piece.role == Role::King),
            _ => false,
        };
        let beside = if one_king { "him" } else { "them" };
        jumps.push((
            format!(
                "Jump: {jumpers} may jump over {} next to {beside} onto the empty square just beyond{only}{taken}.",
                words.pieces_or(&jump.over)
            ),
            RuleRef::Jump(index),
        ));
    }
    let mut moving = Section::new("access", "Moving");
    for (sentence, rule) in jumps {
        moving.push_for(sentence, [rule]);
    }
    for (index, rule) in rules.access.iter().enumerate() {
        let what = match rule.action {
            Action::Land => "land on",
            Action::Pass => "pass over",
            Action::Enter => "land on or pass over",
        };
        let when = match rule.condition {
            AccessCondition::Always => String::new(),
            AccessCondition::OnceLeft => {
                " once they have left them (or if they never stood there)".to_string()
            }
            AccessCondition::WhileGroupEmpty => {
                " while no piece stands in that group of squares".to_string()
            }
        };
        let who = words.pieces(&rule.pieces);
        let region = words.region(&rule.region);
        let sentence = if who == "every piece" {
            format!("No piece may {what} {region}{when}.")
        } else {
            let allowed = words.complement(&rule.pieces);
            // A conditional ban leaves the others free only while the condition lasts: say nothing.
            let others = if allowed.is_empty() || rule.condition != AccessCondition::Always {
                String::new()
            } else {
                format!(" (only {allowed} may)")
            };
            format!(
                "{} may not {what} {region}{when}{others}.",
                capitalise(&who)
            )
        };
        moving.push_for(sentence, [RuleRef::Access(index)]);
    }
    if let Some(limit) = rules.outcome.back_and_forth_limit {
        moving.push_for(format!(
            "A piece may move back and forth between the same two squares at most {} in a row; a further such move is not allowed.",
            count(limit as usize, "time")
        ), [RuleRef::BackAndForth]);
    }

    let mut capturing = Section::new("capturing", "Capturing");
    capturing.push("A piece is captured when the enemy moves a piece so that it stands between two enemies on opposite sides \
         (along a rank or file). Only the side that moved captures, and a piece may safely move between two enemies.".to_string());
    for (index, piece) in rules.pieces.iter().enumerate() {
        let sentence = match piece.armed {
            Armed::Yes if piece.role == Role::Soldier => continue,
            Armed::Yes => format!(
                "{} helps capture, like any other piece.",
                words.piece_plural(&piece.name)
            ),
            Armed::No => format!("{} never helps capture.", words.piece_plural(&piece.name)),
            Armed::Hammer => format!(
                "{} captures only as the piece that moves, not as the one standing still.",
                words.piece_plural(&piece.name)
            ),
            Armed::Anvil => format!(
                "{} captures only as the piece standing still, not as the one that moves.",
                words.piece_plural(&piece.name)
            ),
        };
        capturing.push_for(sentence, [RuleRef::Armed(index)]);
    }
    for (index, rule) in rules.hostility.iter().enumerate() {
        let when = match &rule.when {
            Hostile::Always => String::new(),
            Hostile::WhenEmpty => ", while empty,".to_string(),
            Hostile::WhenOccupied { by, enemies_beside } => {
                let who = match words.pieces(by) {
                    every if every == "every piece" => "any piece".to_string(),
                    who => who,
                };
                let mut text = format!(", while {who} stands on it");
                if *enemies_beside > 0 {
                    let _ = write!(
                        text,
                        " with {} of the captured piece beside it",
                        count(usize::from(*enemies_beside), "enemy")
                    );
                }
                text.push(',');
                text
            }
        };
        capturing.push_for(
            format!(
                "{}{when} {} hostile to {}: it can stand in for one of the two captors.",
                words.region(&rule.region),
                if rules
                    .region(&rule.region)
                    .is_some_and(|region| region.squares.len() > 1)
                {
                    "are"
                } else {
                    "is"
                },
                words.pieces(&rule.victims)
            ),
            [RuleRef::Hostility(index)],
        );
    }

    if let Some(wall) = &rules.shieldwall {
        let mut brackets = "enemies".to_string();
        if !wall.counting.is_empty() {
            let regions: Vec<String> = wall.counting.iter().map(|r| words.region(r)).collect();
            let _ = write!(brackets, " (or {})", join_and(&regions));
        }
        let trigger = match wall.trigger {
            ShieldwallTrigger::Flanking => {
                "The capturing move must be the one that brackets the row at one end"
            }
            ShieldwallTrigger::AnyMove => {
                "Any move of the capturing side that completes the wall takes it"
            }
        };
        capturing.push_for(
            format!(
                "Shieldwall: a row of two or more pieces along the board's edge, bracketed at both ends by {brackets} and with an enemy on the square in front of each of them, is captured at once; only {} in the row are taken. {trigger}.",
                words.pieces(&wall.victims)
            ),
            [RuleRef::Shieldwall],
        );
    }

    if let Some(berserk) = rules.berserk {
        let what = match berserk {
            Berserk::CaptureAgain => "Berserk: after a capture, while the capturing piece can capture again, its side must move it again, and that move must capture. The turn passes when it can capture no more",
            Berserk::MoveWhileItCanCapture => "Berserk: after a capture, while the capturing piece has a capturing move, its side must move it again, capturing or not. The turn passes after a move that captures nothing, or when it can capture no more",
            Berserk::MoveAgain => "Berserk: after a capture, the capturing piece must make one more move, any move, if it can move (and again after each further capture)",
        };
        capturing.push_for(format!("{what}."), [RuleRef::Berserk]);
    }

    let kings: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|piece| piece.role == Role::King)
        .map(|piece| piece.name.as_str())
        .collect();
    let mut king = Section::new(
        "king",
        &format!(
            "Capturing {}",
            words.pieces(
                &kings
                    .iter()
                    .map(|name| name.to_string())
                    .collect::<Vec<_>>()
            )
        ),
    );
    if !kings.is_empty() {
        let only_rule = rules.king_capture.len() == 1;
        for (index, rule) in rules.king_capture.iter().enumerate() {
            let place = match &rule.place {
                Place::On(region) => format!("On {}", words.region(region)),
                Place::Beside(region) => {
                    format!("Beside the {region} ({})", squares(&rule.squares))
                }
                Place::Elsewhere if only_rule => "Anywhere".to_string(),
                Place::Elsewhere => "Elsewhere".to_string(),
            };
            let method = match rule.method {
                KingCaptureMethod::Custodial => {
                    "captured like any other piece, between two enemies".to_string()
                }
                KingCaptureMethod::Enclosed => {
                    let mut counting: Vec<String> = rule
                        .counting
                        .iter()
                        .map(|region| words.region(region))
                        .collect();
                    if rule.edge_counts {
                        counting.push("the board's edge".to_string());
                    }
                    if counting.is_empty() {
                        "captured when enemies surround him on all four sides".to_string()
                    } else {
                        let each = if counting.len() > 1 { " each" } else { "" };
                        format!("captured when surrounded on all four sides, {}{each} counting as a side", counting.join(" and "))
                    }
                }
            };
            let own_move = if rule.after_own_move {
                ", even when he moves into the enclosure himself"
            } else {
                ""
            };
            king.push_for(
                format!("{place}: {method}{own_move}."),
                [RuleRef::KingCapture(index)],
            );
        }
        for (index, rule) in rules.king_sandwiches.iter().enumerate() {
            let captors = words.pieces_or(&rule.captors);
            let mut second = vec!["another such piece".to_string()];
            second.extend(rule.counting.iter().map(|region| words.destination(region)));
            let except = if rule.except_on.is_empty() {
                String::new()
            } else {
                let regions: Vec<String> = rule
                    .except_on
                    .iter()
                    .map(|region| words.region(region))
                    .collect();
                format!(", except on {}", join_or(&regions))
            };
            king.push_for(
                format!(
                    "Also: {} is captured when {captors} moves next to him and {} stands on the opposite side{except}.",
                    words.pieces_or(&rule.kings),
                    join_or(&second)
                ),
                [RuleRef::KingSandwich(index)],
            );
        }
    }

    let mut end = Section::new("end", "End of the game");
    for (index, escape) in rules.outcome.escapes.iter().enumerate() {
        end.push_for(
            format!(
                "{} when {} reaches {}.",
                words.side_verb(escape.winner, "win"),
                words.piece_plural(&escape.piece),
                words.destination(&escape.region)
            ),
            [RuleRef::Escape(index)],
        );
    }
    for (index, capture) in rules.outcome.decisive_captures.iter().enumerate() {
        end.push_for(
            format!(
                "{} when {} is captured.",
                words.side_verb(capture.winner, "win"),
                words.piece_plural(&capture.piece)
            ),
            [RuleRef::DecisiveCapture(index)],
        );
    }
    for (index, fort) in rules.outcome.edge_forts.iter().enumerate() {
        end.push_for(
            format!(
                "{} when {} stands on the edge of the board in a fort: he can move, and the enemy can neither capture a piece of the wall around him nor get in.",
                words.side_verb(fort.winner, "win"),
                words.piece_plural(&fort.piece)
            ),
            [RuleRef::EdgeFort(index)],
        );
    }
    for (index, encirclement) in rules.outcome.encirclements.iter().enumerate() {
        let enclosed = words.side_noun(encirclement.winner.opponent());
        let how = match encirclement.reading {
            EncirclementReading::NoEdgeAccess => format!(
                "they enclose {enclosed}: none of them stands on the edge of the board or can reach it, an unbroken ring holding them all"
            ),
            EncirclementReading::EverySurrounded => format!(
                "no piece of {enclosed}, king included, has an empty square beside it"
            ),
        };
        end.push_for(
            format!(
                "{} when {how}.",
                words.side_verb(encirclement.winner, "win")
            ),
            [RuleRef::Encirclement(index)],
        );
    }
    let no_moves = rules.outcome.no_moves;
    if no_moves.attackers == no_moves.defenders {
        end.push_for(
            match no_moves.attackers {
                NoMoves::Loses => "A side that cannot move on its turn loses.",
                NoMoves::Draw => "If a side cannot move on its turn, the game is drawn.",
            }
            .to_string(),
            [
                RuleRef::NoMoves(Side::Attackers),
                RuleRef::NoMoves(Side::Defenders),
            ],
        );
    } else {
        for side in Side::BOTH {
            end.push_for(
                match no_moves.get(side) {
                    NoMoves::Loses => format!(
                        "If {} cannot move on their turn, they lose.",
                        words.side_noun(side)
                    ),
                    NoMoves::Draw => format!(
                        "If {} cannot move on their turn, the game is drawn.",
                        words.side_noun(side)
                    ),
                },
                [RuleRef::NoMoves(side)],
            );
        }
    }
    if let Some(repetition) = rules.outcome.repetition {
        let when = if repetition.occurrences == 2 {
            "a position repeats (the same pieces on the same squares, with the same side to move)"
                .to_string()
        } else {
            format!("the same position (the same pieces on the same squares, the same side to move) occurs {} times", repetition.occurrences)
        };
        let what = match (repetition.result, repetition.claim) {
            (RepetitionResult::Draw, Claim::Automatic) => format!("The game is drawn when {when}."),
            (RepetitionResult::Draw, Claim::Claimable) => {
                format!("A player may claim a draw when {when}.")
            }
            (RepetitionResult::MoverLoses, _) => {
                format!("When {when}, the side that made it happen loses.")
            }
            (RepetitionResult::MoverWins, _) => {
                format!("When {when}, the side that made it happen wins.")
            }
            (RepetitionResult::Loses(loser), _) => {
                format!(
                    "When {when}, {}, whoever made it happen.",
                    words.side_verb(loser, "lose")
                )
            }
        };
        end.push_for(what, [RuleRef::Repetition]);
    }
    if let Some(limit) = rules.outcome.no_capture_draw {
        let what = match limit.claim {
            Claim::Automatic => format!(
                "The game is drawn after {} by each side without a capture.",
                count(limit.moves as usize, "move")
            ),
            Claim::Claimable => format!(
                "A player may claim a draw after {} by each side without a capture.",
                count(limit.moves as usize, "move")
            ),
        };
        end.push_for(what, [RuleRef::NoCaptureDraw]);
    }
    if rules.outcome.draw_by_agreement {
        end.push_for(
            "The players may agree a draw.".to_string(),
            [RuleRef::DrawByAgreement],
        );
    }

    let mut announcements = Section::new("announcements", "Announcements");
    {
        for (index, announcement) in rules.announcements.iter().enumerate() {
            let routes = if announcement.routes == 1 {
                "one clear route".to_string()
            } else {
                format!("{} clear routes", announcement.routes)
            };
            announcements.push_for(
                format!(
                    "Say \"{}\" when {} has {routes} to {}.",
                    announcement.word,
                    words.piece_plural(&announcement.piece),
                    words.destination(&announcement.region)
                ),
                [RuleRef::Announcement(index)],
            );
        }
    }
    vec![movement, moving, capturing, king, end, announcements]
}

/// Names of pieces, sides and regions as a player reads them.
struct Words<'a> {
    rules: &'a Rules,
}

impl Words<'_> {
    fn side(&self, side: Side) -> &str {
        &self.rules.sides.get(side).name
    }

    /// `the Muscovites` for a plural name, `White` for a singular one.
    fn side_noun(&self, side: Side) -> String {
        crate::english::side_noun(self.side(side))
    }

    /// `the Muscovites win` / `White wins`: a side as the subject of `verb`.
    fn side_verb(&self, side: Side, verb: &str) -> String {
        crate::english::side_verb(self.side(side), verb)
    }

    /// `the Muscovites (attackers)`, `the Attackers`: a side with what it plays, once.
    fn side_label(&self, side: Side) -> String {
        crate::english::side_label(self.side(side), &side.to_string())
    }

    /// The side whose soldiers `piece` is, when its name is only the generic `attacker` or
    /// `defender` and the side has a name of its own: then `Attackers` would read as the side,
    /// next to sentences that call the side `Black`. `None` for a piece with its own name.
    fn generic_soldier(&self, piece: &crate::ir::PieceKind) -> Option<Side> {
        let generic = matches!(
            piece.display.to_lowercase().as_str(),
            "attacker" | "defender"
        );
        let side_word = piece.side.to_string();
        let renamed = !self.side(piece.side).to_lowercase().contains(&side_word);
        (piece.role == Role::Soldier && generic && renamed).then_some(piece.side)
    }

    /// `the King`, `a Swede`, `a soldier of Black`: one piece kind, for sentences about each
    /// piece.
    fn piece_plural(&self, name: &str) -> String {
        match self.rules.piece(name) {
            Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
            Some(piece) => match self.generic_soldier(piece) {
                Some(side) => format!("a soldier of {}", self.side_noun(side)),
                None => format!("a {}", piece.display),
            },
            None => name.to_string(),
        }
    }

    /// A set of piece kinds: `every piece`, `the Swedes` (a whole side), or names joined by `and`.
    fn pieces(&self, names: &[String]) -> String {
        let all = &self.rules.pieces;
        if names.len() == all.len() {
            return "every piece".to_string();
        }
        for side in Side::BOTH {
            let of_side: Vec<&str> = all
                .iter()
                .filter(|piece| piece.side == side)
                .map(|piece| piece.name.as_str())
                .collect();
            if names.len() == of_side.len()
                && names.iter().all(|name| of_side.contains(&name.as_str()))
            {
                return self.side_noun(side);
            }
        }
        let soldiers: Vec<&str> = all
            .iter()
            .filter(|piece| piece.role == Role::Soldier)
            .map(|piece| piece.name.as_str())
            .collect();
        let sides_with_soldiers = Side::BOTH
            .iter()
            .filter(|&&side| {
                all.iter()
                    .any(|piece| piece.side == side && piece.role == Role::Soldier)
            })
            .count();
        // Said so only where a kind's own name would read as a side (`Attackers and
        // Defenders` next to `Black`); `Muscovites and Swedes` says more.
        let generic = all
            .iter()
            .any(|piece| self.generic_soldier(piece).is_some());
        if generic
            && sides_with_soldiers == 2
            && names.len() == soldiers.len()
            && names.iter().all(|name| soldiers.contains(&name.as_str()))
        {
            return "the soldiers of both sides".to_string();
        }
        let displays: Vec<String> = names
            .iter()
            .map(|name| match self.rules.piece(name) {
                Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
                Some(piece) => match self.generic_soldier(piece) {
                    Some(side) => format!(
                        "{} soldiers",
                        crate::english::side_possessive(self.side(side))
                    ),
                    None => piece.display_plural(),
                },
                None => name.clone(),
            })
            .collect();
        if displays.is_empty() {
            "no piece".to_string()
        } else {
            join_and(&displays)
        }
    }

    /// A set of piece kinds as alternatives: `Attacker` or `Attackers and Commanders` read as
    /// `an Attacker or a Commander`, for "jump over one ...".
    fn pieces_or(&self, names: &[String]) -> String {
        let each: Vec<String> = names
            .iter()
            .map(|name| match self.rules.piece(name) {
                Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
                Some(piece) => match self.generic_soldier(piece) {
                    Some(side) => format!("a soldier of {}", self.side_noun(side)),
                    None => crate::english::with_article(&piece.display),
                },
                None => name.clone(),
            })
            .collect();
        join_or(&each)
    }

    /// The pieces not in `names`.
    fn complement(&self, names: &[String]) -> String {
        let rest: Vec<String> = self
            .rules
            .pieces
            .iter()
            .filter(|piece| !names.contains(&piece.name))
            .map(|piece| piece.name.clone())
            .collect();
        if rest.is_empty() {
            String::new()
        } else {
            self.pieces(&rest)
        }
    }

    /// Where a piece goes: `the edge of the board`, `one of the corners (a1, ...)`.
    fn destination(&self, name: &str) -> String {
        match self.rules.region(name) {
            Some(region) if name != "edge" && region.squares.len() > 1 => {
                format!("one of {}", self.region(name))
            }
            _ => self.region(name),
        }
    }

    /// `the throne (e5)`, `the corners (a1, i1, a9, i9)`, `the edge`.
    fn region(&self, name: &str) -> String {
        match self.rules.region(name) {
            Some(_) if name == "edge" => "the edge of the board".to_string(),
            Some(region) if region.squares.len() <= 8 => {
                format!("the {name} ({})", squares(&region.squares))
            }
            Some(_) | None => format!("the {name}"),
        }
    }
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

fn squares(list: &[Square]) -> String {
    list.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ")
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
