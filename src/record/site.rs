//! The game records of Aage Nielsen's site (aagenielsen.dk), as its public copy publishes them:
//! one JSON object a game (github.com/NeuroTafl/OpenTafl-Python,
//! `AageNielsen/AageNielsenData/GameJSONData/`).
//!
//! ```json
//! { "WhiteSidePlayerName": "Thord", "BlackSidePlayerName": "nath",
//!   "AageGameTypeKey": 16, "AageGameTypeName": "Copenhagen Hnefatafl 11x11",
//!   "WhoMovedFirst": "black", "Moves": ["h1-h3", "g5-g4", "f2-f1xe1", "resigned"],
//!   "WhoWon": "Black" }
//! ```
//!
//! Black is the attackers and White the defenders, as on the site's boards and in the hnefatafl
//! corpora (every one of the copy's 52,782 games says black moved first). A move written with a
//! dash has every capture written (`f2-f1xe1`), so one without `x` captured nothing; the site's
//! oldest records (833 games of the copy) write moves without a dash (`d1d3`) and no captures,
//! so theirs are not compared. The last word may be the
//! site's ending, `resigned` or `timeout` (the side to move gave up or ran out of time). A game
//! won without one was won on the board: its result is read as decided by the rules
//! ([`BY_THE_RULES`]), so a replay in which the game goes on contradicts it. A draw without one
//! may have been agreed, and contradicts nothing.

use serde::Deserialize;

use super::{
    GameRecord, RecordError, RecordErrorKind, RecordedMove, RecordedOutcome, RecordedResult,
};
use crate::span::Span;

/// The reason a site record gives a win with no ending word: the game was decided by a move,
/// under whichever rule. [`super::check`] holds it against a replay that leaves the game going on.
pub const BY_THE_RULES: &str = "by_the_rules";

/// The tag ([`super::Tags::other`]) that holds the site's number for the game's type.
pub const TYPE_KEY: &str = "aagenielsen_type";

/// The tag that holds the site's name for the game's type.
pub const TYPE_NAME: &str = "aagenielsen_type_name";

/// The fields of a game that this reader uses; the others are ignored.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct SiteGame {
    white_side_player_name: Option<String>,
    black_side_player_name: Option<String>,
    aage_game_type_key: u32,
    aage_game_type_name: Option<String>,
    #[serde(default)]
    who_moved_first: Option<String>,
    moves: Vec<String>,
    #[serde(default)]
    who_won: Option<String>,
}

/// Whether `text` looks like one of the site's game records: a JSON object naming its type.
pub fn looks_like(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
        && text.contains("\"AageGameTypeKey\"")
}

/// The site's type of a record this module read: its number and name.
pub fn type_of(record: &GameRecord) -> Option<(u32, &str)> {
    let tag = |key: &str| {
        record
            .tags
            .other
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let key = tag(TYPE_KEY)?.parse().ok()?;
    Some((key, tag(TYPE_NAME).unwrap_or("")))
}

/// The site's name of a type as people read it: its HTML entities (`Dald&oslash;s`) as their
/// letters, without the space the site leaves at its end.
pub fn type_name(written: &str) -> String {
    unescape_html(written.trim())
}

/// The site's games that are not tafl: Daldøs (a race game with dice), the Saami games Sáhkku
/// (a race game), Daabloe and Cuhkka, and Hex (the connection game: its records place a stone
/// a move, `f6`). Their records share the site's format; `tafl games site` counts them and
/// checks them only when asked for by number.
const NOT_TAFL: [&str; 5] = [
    "Daldøs",
    "Saami Sáhkku",
    "Saami Daabloe",
    "Saami Cuhkka",
    "Hex ",
];

/// Whether a type of the site, by its name ([`type_name`]), is a tafl game.
pub fn is_tafl(name: &str) -> bool {
    !NOT_TAFL.iter().any(|game| name.starts_with(game))
}

/// Reads one game of the site.
///
/// # Errors
/// A [`RecordError`]: the text is not such a JSON object ([`RecordErrorKind::NotJson`]), a
/// move is not one, the winner is not one of the site's words, moves follow the ending word,
/// or the game was not played with black (the attackers) moving first.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let whole = Span::new(0, text.len());
    let game: SiteGame = serde_json::from_str(text).map_err(|error| {
        let at = offset_of(text, error.line(), error.column());
        RecordError::at(
            RecordErrorKind::NotJson {
                message: error.to_string(),
            },
            Span::new(at, at),
            text,
        )
    })?;
    if let Some(first) = game.who_moved_first.as_deref() {
        if !first.eq_ignore_ascii_case("black") {
            return Err(RecordError::at(
                RecordErrorKind::BadOutcome {
                    text: format!("WhoMovedFirst: {first}"),
                },
                find_after(text, first, 0).unwrap_or(whole),
                text,
            ));
        }
    }
    let mut record = GameRecord {
        span: whole,
        line: 1,
        ..GameRecord::default()
    };
    record.tags.attackers = game.black_side_player_name;
    record.tags.defenders = game.white_side_player_name;
    record.tags.site = Some("aagenielsen.dk".to_string());
    record
        .tags
        .other
        .push((TYPE_KEY.to_string(), game.aage_game_type_key.to_string()));
    if let Some(name) = game.aage_game_type_name {
        record
            .tags
            .other
            .push((TYPE_NAME.to_string(), type_name(&name)));
    }
    // The moves are found in the text in order, to point at them; a move written with JSON
    // escapes is not found and points at the whole game.
    let mut cursor = text.find("\"Moves\"").unwrap_or(0);
    let mut ended: Option<String> = None;
    let mut locator = super::lines::Locator::new(text);
    for word in &game.moves {
        let span = find_after(text, word, cursor).unwrap_or(whole);
        if span != whole {
            cursor = span.end;
        }
        if let Some(end) = &ended {
            let kind = RecordErrorKind::AfterEnd { word: end.clone() };
            return Err(RecordError::at(kind, span, text));
        }
        let bare = word.trim();
        if matches!(bare, "resigned" | "timeout") {
            ended = Some(bare.to_string());
            continue;
        }
        let mut recorded = RecordedMove::read(bare, span, &mut locator)?;
        // The site writes every capture of a move written with a dash: no `x` is none. Its
        // oldest records write moves without one (`d1d3`) and no captures at all.
        if bare.contains('-') && recorded.captures.is_none() {
            recorded.captures = Some(Vec::new());
        }
        record.moves.push(recorded);
    }
    let won = game.who_won.unwrap_or_default();
    let outcome = match won.as_str() {
        "Black" => Some(RecordedOutcome::AttackersWin),
        "White" => Some(RecordedOutcome::DefendersWin),
        "Draw" => Some(RecordedOutcome::Draw),
        "Ongoing" => Some(RecordedOutcome::Ongoing),
        "" => None,
        other => {
            let span = find_after(text, other, 0).unwrap_or(whole);
            let kind = RecordErrorKind::BadOutcome {
                text: other.to_string(),
            };
            return Err(RecordError::at(kind, span, text));
        }
    };
    record.tags.result = outcome.map(|outcome| {
        let decided = matches!(
            outcome,
            RecordedOutcome::AttackersWin | RecordedOutcome::DefendersWin
        );
        RecordedResult {
            outcome,
            reason: ended.or_else(|| decided.then(|| BY_THE_RULES.to_string())),
        }
    });
    record.tags.result_span = text
        .find("\"WhoWon\"")
        .map(|start| Span::new(start, start + "\"WhoWon\"".len()));
    Ok(record)
}

/// Where `"word"` (quoted) first stands in `text` at or after byte `from`, without its quotes.
fn find_after(text: &str, word: &str, from: usize) -> Option<Span> {
    let quoted = format!("\"{word}\"");
    let at = text.get(from..)?.find(&quoted)? + from + 1;
    Some(Span::new(at, at + word.len()))
}

/// The byte offset of serde_json's 1-based line and column (0 and 0 when it gives none).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    let column = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    line_start + column
}

/// The site's type names carry HTML entities (`Dald&oslash;s`, `Saami S&aacute;hkku`): the
/// handful it uses are read as their letters, any other is left as written.
fn unescape_html(name: &str) -> String {
    const ENTITIES: [(&str, &str); 8] = [
        ("&oslash;", "ø"),
        ("&Oslash;", "Ø"),
        ("&aacute;", "á"),
        ("&aring;", "å"),
        ("&Aring;", "Å"),
        ("&aelig;", "æ"),
        ("&auml;", "ä"),
        ("&amp;", "&"),
    ];
    ENTITIES
        .iter()
        .fold(name.to_string(), |name, (entity, letter)| {
            name.replace(entity, letter)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"{
    "WhiteSidePlayerName": "Thord",
    "BlackSidePlayerName": "nath",
    "AageGameTypeKey": 16,
    "AageGameTypeName": "Copenhagen Hnefatafl 11x11",
    "WhoMovedFirst": "black",
    "Moves": ["h1-h3", "g5-g4", "f2-f1xe1", "timeout"],
    "WhoWon": "Black"
}"#;

    #[test]
    fn a_game_reads_with_its_type_players_moves_and_ending() {
        let record = parse(GAME).unwrap();
        assert_eq!(type_of(&record), Some((16, "Copenhagen Hnefatafl 11x11")));
        assert_eq!(record.tags.attackers.as_deref(), Some("nath"));
        assert_eq!(record.tags.defenders.as_deref(), Some("Thord"));
        assert_eq!(record.moves.len(), 3);
        assert_eq!(record.moves[0].captures, Some(vec![]));
        assert_eq!(record.moves[2].captures.as_ref().unwrap().len(), 1);
        assert_eq!(
            &GAME[record.moves[2].span.start..record.moves[2].span.end],
            "f2-f1xe1"
        );
        assert_eq!(record.moves[2].line, 7);
        let result = record.tags.result.unwrap();
        assert_eq!(result.outcome, RecordedOutcome::AttackersWin);
        assert_eq!(result.reason.as_deref(), Some("timeout"));
    }

    #[test]
    fn moves_written_without_a_dash_leave_their_captures_unsaid() {
        let old = GAME.replace("\"h1-h3\"", "\"h1h3\"");
        let record = parse(&old).unwrap();
        assert_eq!(record.moves[0].mv.to_string(), "h1-h3");
        assert_eq!(record.moves[0].captures, None);
        assert_eq!(record.moves[1].captures, Some(vec![]));
    }

    #[test]
    fn a_win_without_an_ending_word_was_won_by_the_rules() {
        let text = GAME
            .replace(", \"timeout\"", "")
            .replace("Black\"\n", "White\"\n");
        let result = parse(&text).unwrap().tags.result.unwrap();
        assert_eq!(result.outcome, RecordedOutcome::DefendersWin);
        assert_eq!(result.reason.as_deref(), Some(BY_THE_RULES));
        let draw = GAME
            .replace(", \"timeout\"", "")
            .replace("Black\"\n", "Draw\"\n");
        assert_eq!(parse(&draw).unwrap().tags.result.unwrap().reason, None);
    }

    #[test]
    fn bad_games_are_errors_that_point_at_the_fault() {
        let error = parse(&GAME.replace("g5-g4", "g5-zz")).unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::NotAMove { .. }));
        assert_eq!(error.line, 7);
        let error = parse(&GAME.replace("\"timeout\"]", "\"timeout\", \"a1-a2\"]")).unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::AfterEnd { .. }));
        let error = parse(&GAME.replace("\"Black\"\n", "\"Blue\"\n")).unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::BadOutcome { .. }));
        let error = parse(&GAME.replace("\"black\"", "\"white\"")).unwrap_err();
        assert!(matches!(error.kind, RecordErrorKind::BadOutcome { .. }));
        for broken in [
            "",
            "{",
            "[]",
            "{\"AageGameTypeKey\": \"x\"}",
            "{\"Moves\": []}",
        ] {
            let error = parse(broken).unwrap_err();
            assert!(
                matches!(error.kind, RecordErrorKind::NotJson { .. }),
                "{broken:?}"
            );
        }
    }

    #[test]
    fn the_sites_type_names_lose_their_entities() {
        assert_eq!(unescape_html("Dald&oslash;s 3x12"), "Daldøs 3x12");
        assert_eq!(
            unescape_html("Saami S&aacute;hkku 3x15 (K&aring;fjord)"),
            "Saami Sáhkku 3x15 (Kåfjord)"
        );
        assert_eq!(unescape_html("A &unknown; name"), "A &unknown; name");
    }

    #[test]
    fn the_sites_other_games_are_told_from_tafl() {
        assert!(is_tafl("Copenhagen Hnefatafl 11x11"));
        assert!(is_tafl("Historical Hnefatafl 9x9 (Saami Tablut)"));
        assert!(!is_tafl(&type_name("Dald&oslash;s 3x12 ")));
        assert!(!is_tafl("Saami Cuhkka 5x5"));
        assert!(!is_tafl("Hex 11x11"));
    }

    #[test]
    fn site_records_are_recognised() {
        assert!(looks_like(GAME));
        assert!(!looks_like("[rules:dim:7]"));
        assert!(!looks_like("{\"a\": 1}"));
    }
}
