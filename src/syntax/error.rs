//! pest errors to diagnostics: where the clause went wrong, what was expected there (in words),
//! and which part of the text to blank before parsing again.

use std::collections::BTreeSet;
use std::ops::Range;

use pest::error::{Error, InputLocation};

use super::grammar::{Rule, NUMBER_WORDS};
use crate::diagnostic::{Code, Diagnostic};
use crate::english::join_or;
use crate::span::Span;
use crate::suggest::{nearest, phrasing, phrasing_hint, Kind, UNSAID_SECTION};

/// After this many syntax errors the parser stops: the file is probably not a variant file.
pub(super) const MAX_SYNTAX_ERRORS: usize = 25;

/// The words a clause can start with, for the `unknown_clause` help.
const CLAUSE_STARTS: &[&str] = &[
    "name",
    "source",
    "note",
    "board",
    "piece",
    "region",
    "square",
    "setup",
    "announce",
    "a",
    "an",
    "the",
    "The",
    "game",
    "attackers",
    "defenders",
    "nobody",
    "only",
    "everyone",
    "everybody",
    "all",
    "soldiers",
    "kings",
    "throne",
    "corners",
    "corner",
    "edge",
];

/// The rule's meaning in words, for "expected ..." messages. No `_` arm: a new rule does not
/// compile until it has a name here.
fn rule_in_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::identifier | Rule::piece_ref | Rule::region_ref => "a name",
        Rule::square | Rule::square_list | Rule::square_range => "a square (like `e5`)",
        Rule::number | Rule::number_word => "a number",
        Rule::string | Rule::string_text => "text in double quotes",
        Rule::symbol => "a piece symbol (one letter)",
        Rule::side => "`attackers` or `defenders`",
        Rule::side_singular => "`attacker` or `defender`",
        Rule::role => "`soldier` or `king`",
        Rule::piece_set | Rule::everyone | Rule::role_set | Rule::side_role => {
            "pieces (`everyone`, a side, or piece names)"
        }
        Rule::setup_row | Rule::cell => "a row of the diagram",
        Rule::setup_end => "`end`",
        Rule::nobody => "`nobody`",
        Rule::only => "`only`",
        Rule::negation => "`not`",
        Rule::EOI => "the end of the file",
        Rule::WHITESPACE
        | Rule::COMMENT
        | Rule::file
        | Rule::clause
        | Rule::ident_char
        | Rule::reserved
        | Rule::article
        | Rule::name_clause
        | Rule::source_clause
        | Rule::family_clause
        | Rule::note_clause
        | Rule::board_clause
        | Rule::side_name_clause
        | Rule::first_move_clause
        | Rule::piece_clause
        | Rule::piece_called
        | Rule::piece_plural
        | Rule::region_clause
        | Rule::region_keyword
        | Rule::square_item
        | Rule::setup_clause
        | Rule::piece_set_item
        | Rule::movement_clause
        | Rule::movement
        | Rule::rook_move
        | Rule::any_empty_move
        | Rule::access_clause
        | Rule::who
        | Rule::action
        | Rule::land
        | Rule::pass
        | Rule::enter
        | Rule::access_condition
        | Rule::once_left
        | Rule::while_group_empty
        | Rule::armed_clause
        | Rule::armedness
        | Rule::hammer
        | Rule::anvil
        | Rule::armed
        | Rule::unarmed
        | Rule::hostility_clause
        | Rule::hostile_when
        | Rule::when_empty
        | Rule::when_occupied
        | Rule::enemies_beside
        | Rule::king_capture_clause
        | Rule::place
        | Rule::place_on
        | Rule::place_beside
        | Rule::place_elsewhere
        | Rule::place_anywhere
        | Rule::capture_method
        | Rule::enclosed
        | Rule::together
        | Rule::counting
        | Rule::custodial
        | Rule::win_clause
        | Rule::win_event
        | Rule::reaches
        | Rule::is_captured
        | Rule::no_moves_clause
        | Rule::repetition_loss_clause
        | Rule::draw_clause
        | Rule::draw_condition
        | Rule::position_repeats
        | Rule::position_occurs
        | Rule::side_cannot_move
        | Rule::no_capture_moves
        | Rule::by_agreement
        | Rule::on_claim
        | Rule::back_and_forth_clause
        | Rule::announce_clause
        | Rule::shieldwall_clause
        | Rule::after_any_move
        | Rule::holds_fort
        | Rule::encirclement_clause
        | Rule::no_edge_access
        | Rule::every_surrounded
        | Rule::side_loses_clause
        | Rule::they_cannot_move
        | Rule::loses
        | Rule::wins
        | Rule::list_end
        | Rule::own_move
        | Rule::jump_clause
        | Rule::jump_only
        | Rule::jump_captures
        | Rule::berserk_clause
        | Rule::capture_again
        | Rule::move_while_capture
        | Rule::move_again
        | Rule::sandwich_clause
        | Rule::except_on => return None,
    })
}

/// What to do with the text before parsing again after an error.
#[derive(Debug)]
pub(super) enum Recovery {
    /// Give up: the rest of the file cannot be read (an unclosed diagram swallows it).
    Stop,
    /// Blank this line (a line start to a line end) and read on without its clause.
    Blank(Range<usize>),
    /// Read the line again with a misspelt word corrected: `range` (within `line`, on character
    /// boundaries, at least as long as `with`) becomes `with`, padded with spaces.
    Replace {
        line: Range<usize>,
        range: Range<usize>,
        with: &'static str,
    },
}

/// The diagnostic for `error` in `text`, and how to recover before trying again.
pub(super) fn syntax_diagnostic(error: &Error<Rule>, text: &str) -> (Diagnostic, Recovery) {
    let (mut diagnostic, blank) = diagnose(error, text);
    // A label one character wide at the end of the text would point past it: keep every label
    // inside the text and on character boundaries.
    for label in &mut diagnostic.labels {
        label.span.end = floor_boundary(text, label.span.end.min(text.len()));
        label.span.start = floor_boundary(text, label.span.start.min(label.span.end));
    }
    (diagnostic, blank)
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// The line of the error at `error`'s furthest position.
pub(super) fn error_line(error: &Error<Rule>, text: &str) -> Range<usize> {
    line_around(text, error_position(error))
}

fn error_position(error: &Error<Rule>) -> usize {
    match (error.parse_attempts(), &error.location) {
        (Some(attempts), _) => attempts.max_position,
        (None, InputLocation::Pos(position)) => *position,
        (None, InputLocation::Span((start, _))) => *start,
    }
}

/// How to read on after `word` at `start`: with `suggestion` in its place when it fits (the
/// spaces after the word make room for a longer one), else without the line.
fn correct(
    text: &str,
    line: Range<usize>,
    start: usize,
    word: &str,
    suggestion: Option<&'static str>,
) -> Recovery {
    let Some(with) = suggestion else {
        return Recovery::Blank(line);
    };
    let end = start + word.len();
    let spaces = text[end..line.end]
        .bytes()
        .take_while(|byte| *byte == b' ' || *byte == b'\t')
        .count();
    // The keyword may take every space after the word: pest's literals need no space after
    // them (`board9`), and where a word rule does, the corrected line fails again and is left
    // out quietly, its error already reported.
    let extra = with.len().saturating_sub(word.len());
    if extra <= spaces {
        Recovery::Replace {
            line,
            range: start..end + extra,
            with,
        }
    } else {
        Recovery::Blank(line)
    }
}

/// Keywords a clause may start with, likelier ones first: the candidates for "did you mean".
const KEYWORDS: &[&str] = &[
    "board",
    "piece",
    "region",
    "square",
    "setup",
    "name",
    "source",
    "note",
    "announce",
    "attackers",
    "defenders",
    "nobody",
    "only",
    "everyone",
    "the",
    "game",
    "soldiers",
    "kings",
];

fn diagnose(error: &Error<Rule>, text: &str) -> (Diagnostic, Recovery) {
    let position = error_position(error);
    let line = line_around(text, position);
    let line_text = &text[line.clone()];

    if let Some(setup_start) = open_setup_before(text, position) {
        if text[position..].trim().is_empty() {
            let keyword = Span::new(setup_start, setup_start + "setup".len());
            let diagnostic =
                Diagnostic::error(Code::UnclosedSetup, "the setup diagram has no `end`")
                    .label(keyword, "this diagram is never closed")
                    .help("write `end` on a line of its own after the last row of the diagram");
            return (diagnostic, Recovery::Stop);
        }
    }

    if let Some(quote) = unterminated_quote(line_text) {
        let start = line.start + quote;
        let code_end = line.start + code_part(line_text).trim_end().len();
        let diagnostic =
            Diagnostic::error(Code::UnterminatedString, "this text has no closing `\"`")
                .label(
                    Span::new(start, code_end.max(start + 1)),
                    "the text starts here and runs to the end of the line",
                )
                .help("end the text with `\"` on the same line");
        return (diagnostic, Recovery::Blank(line));
    }

    if let Some(diagnostic) = unsaid_rule(text, line.clone()) {
        return (diagnostic, Recovery::Blank(line));
    }

    let first_word: String = line_text
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let at_line_start = text[line.start..position].trim().is_empty();
    let known_start =
        CLAUSE_STARTS.contains(&first_word.as_str()) || declared_names(text).contains(&first_word);
    if at_line_start || !known_start {
        return unknown_clause(text, line, &first_word);
    }

    if let Some(diagnostic) = misused_word(text, position) {
        return (diagnostic, Recovery::Blank(line));
    }
    unexpected(error, text, position, line, &first_word)
}

/// A line that phrases a rule the language cannot say, or one every variant has by default:
/// one diagnostic that names the rule, whichever word the grammar stumbled on. The rules and
/// their words are the table of `suggest::PHRASINGS`, the one place to change when the language
/// learns one of them.
fn unsaid_rule(text: &str, line: Range<usize>) -> Option<Diagnostic> {
    let line_text = &text[line.clone()];
    let code = code_part(line_text);
    let phrasing = phrasing(code)?;
    let start = line.start + (code.len() - code.trim_start().len());
    let span = Span::new(start, (line.start + code.trim_end().len()).max(start + 1));
    match phrasing.kind {
        Kind::Reworded => None,
        Kind::Unsayable(rule) => Some(
            Diagnostic::error(
                Code::NotInLanguage,
                format!("the language cannot say {rule}"),
            )
            .label(span, format!("{rule}: no clause says this"))
            .help(format!(
                "{}; why the language stops here: {UNSAID_SECTION}",
                phrasing.hint
            )),
        ),
        Kind::Default(rule) => {
            // The fix deletes the whole line, its line break included when it has one.
            let end = if text[line.end..].starts_with("\r\n") {
                line.end + 2
            } else if text[line.end..].starts_with('\n') {
                line.end + 1
            } else {
                line.end
            };
            Some(
                Diagnostic::note(
                    Code::DefaultRestated,
                    format!("{rule} is the default: delete the line"),
                )
                .label(span, "read as the default, which needs no clause")
                .help(phrasing.hint)
                .fix(Span::new(line.start, end), ""),
            )
        }
    }
}

/// A line that does not start a clause: the nearest keyword or name, or how clauses start.
fn unknown_clause(text: &str, line: Range<usize>, first_word: &str) -> (Diagnostic, Recovery) {
    let line_text = &text[line.clone()];
    let word_start = line.start + (line_text.len() - line_text.trim_start().len());
    let shown = if first_word.is_empty() {
        line_text.trim().chars().take(1).collect()
    } else {
        first_word.to_string()
    };
    let names = declared_names(text);
    let side_name = side_called(text, first_word);
    let suggestion = side_name.or_else(|| {
        nearest(
            first_word,
            KEYWORDS
                .iter()
                .copied()
                .chain(names.iter().map(String::as_str)),
        )
    });
    let help = match (side_name, suggestion) {
        (Some(side), _) => format!(
            "clauses call the sides `attackers` and `defenders`, whatever their names: write `{side}`"
        ),
        (None, Some(word)) => format!("did you mean `{word}`?"),
        (None, None) => phrasing_hint(line_text).map_or_else(
            || "a clause starts with `name`, `source`, `note`, `board`, `piece`, `region`, `square`, `setup`, \
                `announce`, a side (`attackers ...`), `nobody`, `only`, `the game is drawn ...`, \
                or a piece or region name; see docs/language.md"
                .to_string(),
            str::to_string,
        ),
    };
    // A keyword can be read again in place of the misspelling; a declared name lives only
    // in this text, so the line is left out instead.
    let keyword = suggestion.and_then(|word| KEYWORDS.iter().copied().find(|k| *k == word));
    let recovery = correct(text, line.clone(), word_start, first_word, keyword);
    let word_span = Span::new(word_start, word_start + shown.len().max(1));
    let mut diagnostic = Diagnostic::error(
        Code::UnknownClause,
        format!("no clause starts with `{shown}`"),
    )
    .label(word_span, "not the start of a clause")
    .help(help);
    if let (Some(replacement), false) = (suggestion, first_word.is_empty()) {
        diagnostic = diagnostic.fix(word_span, replacement);
    }
    (diagnostic, recovery)
}

/// A clause that goes wrong after its start: what was expected there, and the nearest keyword.
fn unexpected(
    error: &Error<Rule>,
    text: &str,
    position: usize,
    line: Range<usize>,
    first_word: &str,
) -> (Diagnostic, Recovery) {
    let line_text = &text[line.clone()];
    let expected = expected_in_words(error);
    let found = found_at(text, position);
    let message = match &found {
        Some(word) => format!("unexpected `{word}` in this clause"),
        None => "this clause ends too early".to_string(),
    };
    let label_text = if expected.is_empty() {
        "not understood here".to_string()
    } else {
        format!("expected {}", join_or(&expected))
    };
    let width = found.as_ref().map_or(1, |word| word.len());
    // A word that phrases a rule in other words (`loses`, `surrounded`) gets the phrasing's
    // hint, not the nearest keyword.
    let phrased = found.as_deref().and_then(phrasing_hint).is_some();
    let keyword = found.as_deref().filter(|_| !phrased).and_then(|word| {
        let expected_keywords = expected
            .iter()
            .filter_map(|word| word.strip_prefix('`')?.strip_suffix('`'));
        let near = nearest(word, expected_keywords)?;
        // Leak-free `'static`: the keyword is one of the grammar's literals, listed here.
        GRAMMAR_WORDS.iter().copied().find(|known| *known == near)
    });
    let help = match (keyword, phrasing_hint(line_text), clause_form(first_word)) {
        (Some(word), _, _) => format!("did you mean `{word}`?"),
        (None, Some(hint), _) => hint.to_string(),
        (None, None, Some(form)) => format!("this clause reads `{form}`; see docs/language.md"),
        (None, None, None) => {
            "compare the clause with its form in docs/language.md; a `#` starts a comment"
                .to_string()
        }
    };
    let recovery = match &found {
        Some(word) => correct(text, line.clone(), position, word, keyword),
        None => Recovery::Blank(line),
    };
    let found_span = Span::new(position, position + width);
    let mut diagnostic = Diagnostic::error(Code::Unexpected, message)
        .label(found_span, label_text)
        .help(help);
    if let Some(keyword) = keyword {
        diagnostic = diagnostic.fix(found_span, keyword);
    }
    (diagnostic, recovery)
}

/// The grammar's keywords after a clause's first word, for "did you mean" inside a clause.
const GRAMMAR_WORDS: &[&str] = &[
    "x",
    "by",
    "are",
    "called",
    "move",
    "moves",
    "first",
    "like",
    "rook",
    "to",
    "any",
    "empty",
    "square",
    "squares",
    "at",
    "most",
    "may",
    "not",
    "land",
    "on",
    "pass",
    "through",
    "over",
    "enter",
    "once",
    "left",
    "while",
    "group",
    "is",
    "armed",
    "unarmed",
    "only",
    "when",
    "moving",
    "still",
    "hostile",
    "occupied",
    "with",
    "enemies",
    "enemy",
    "beside",
    "it",
    "captured",
    "elsewhere",
    "anywhere",
    "surrounded",
    "together",
    "all",
    "four",
    "sides",
    "counting",
    "soldier",
    "king",
    "attacker",
    "defender",
    "win",
    "wins",
    "reaches",
    "reach",
    "side",
    "that",
    "cannot",
    "loses",
    "makes",
    "position",
    "occur",
    "times",
    "game",
    "drawn",
    "repeats",
    "occurs",
    "after",
    "without",
    "capture",
    "agreement",
    "claim",
    "piece",
    "back",
    "and",
    "forth",
    "between",
    "two",
    "has",
    "clear",
    "route",
    "routes",
    "each",
    "end",
    "the",
    "plural",
];

/// The form of the clauses that start with a keyword of their own.
fn clause_form(first_word: &str) -> Option<&'static str> {
    Some(match first_word {
        "name" => "name \"<text>\"",
        "source" => "source \"<text>\"",
        "note" => "note \"<text>\"",
        "board" => "board <width> x <height>",
        "piece" => {
            "piece <one letter> <name>: <attacker|defender> <soldier|king>[, called \"<text>\"][, plural \"<text>\"]"
        }
        "region" => "region <name> = <squares>",
        "square" => "square <name> = <square>",
        "announce" => "announce \"<word>\" when <piece> has <number> clear routes to <region>",
        _ => return None,
    })
}

/// The words the grammar reserves (its `reserved` rule): they cannot be names.
const RESERVED: &[&str] = &[
    "nobody",
    "everyone",
    "attackers",
    "defenders",
    "soldiers",
    "kings",
    "only",
    "the",
    "may",
    "is",
    "are",
    "and",
    "not",
    "when",
    "win",
    "wins",
    "moves",
    "move",
];

/// A reserved word or a square name where a name was expected (`region only = e5`): the grammar
/// fails at the word's end, which would otherwise give a puzzling message.
fn misused_word(text: &str, position: usize) -> Option<Diagnostic> {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let before = &text[..position.min(text.len())];
    // The word's first byte: just after the last character that cannot be part of a name
    // (which may be several bytes long, like `×`).
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let end = position
        + text[position..]
            .find(|c: char| !is_name_char(c))
            .unwrap_or(text.len() - position);
    let word = &text[start..end];
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let first_word = text[line_start..].split_whitespace().next().unwrap_or("");
    // Only the word in the name's place: `region <name> = ...`, `piece <symbol> <name>: ...`.
    let words_before = text[line_start..start].split_whitespace().count();
    let declares = match first_word {
        "region" | "square" => words_before == 1,
        "piece" => words_before == 2,
        _ => false,
    };
    if word.is_empty() || !declares {
        return None;
    }
    let square_like = word.len() >= 2
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word[1..].bytes().all(|b| b.is_ascii_digit());
    let why = if RESERVED.contains(&word) {
        "a reserved word of the language"
    } else if square_like {
        "a square's name"
    } else {
        return None;
    };
    Some(
        Diagnostic::error(
            Code::Unexpected,
            format!("`{word}` cannot be a name: it is {why}"),
        )
        .label(Span::new(start, end), "not allowed as a name")
        .help(format!(
            "choose another name, e.g. `{word}-squares` or `my-{word}`; reserved words: {}",
            RESERVED.join(", ")
        )),
    )
}

/// What pest expected at the error, as words: literal keywords in backticks, rules by meaning.
fn expected_in_words(error: &Error<Rule>) -> Vec<String> {
    let mut words = BTreeSet::new();
    if let Some(attempts) = error.parse_attempts() {
        // pest does not export its token type; its Display gives the literal text, `a..z` for
        // character ranges (which the rule names below cover) and BUILTIN_RULE for builtins.
        for token in attempts.expected_tokens() {
            match token.to_string().as_str() {
                "\n" | "\r\n" | "\r" => words.insert("the end of the line".to_string()),
                // Whitespace, comments and the inside of names are never what a reader missed.
                " " | "\t" | "#" | "-" | "_" | "BUILTIN_RULE" => false,
                range if range.chars().count() == 4 && range.contains("..") => false,
                other => words.insert(format!("`{}`", other.to_lowercase())),
            };
        }
        // Articles are optional filler: listing them before the word really needed misleads.
        if words.len() > 1 {
            for article in ["`a`", "`an`", "`any`", "`the`"] {
                words.remove(article);
            }
        }
        for stack in attempts.call_stacks() {
            let deepest = stack.deepest.get_rule().copied();
            if let Some(meaning) = [deepest, stack.parent]
                .into_iter()
                .flatten()
                .find_map(rule_in_words)
            {
                words.insert(meaning.to_string());
            }
        }
        // Where a number may stand, its words are said once, as "a number", not as
        // twenty-eight keywords (`four` stays where only `four` may stand: `on four sides`).
        if words.contains("a number") {
            words.retain(|word| {
                !NUMBER_WORDS
                    .iter()
                    .any(|(number, _)| *word == format!("`{number}`"))
            });
        }
    }
    words.into_iter().collect()
}

/// The word (or character) at `position`, or `None` at the end of a line or of the text.
fn found_at(text: &str, position: usize) -> Option<String> {
    let rest = text.get(position..)?;
    let first = rest.chars().next()?;
    if first == '\n' || first == '\r' {
        return None;
    }
    if first.is_alphanumeric() {
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                .collect(),
        )
    } else {
        Some(first.to_string())
    }
}

/// The byte range of the line holding `position`, without its line break.
fn line_around(text: &str, position: usize) -> Range<usize> {
    let position = position.min(text.len());
    let start = text[..position]
        .rfind('\n')
        .map_or(0, |newline| newline + 1);
    let end = text[position..]
        .find('\n')
        .map_or(text.len(), |newline| position + newline);
    let end = if text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    start..end.max(start)
}

/// The part of a line before its comment (a `#` outside quotes).
pub(super) fn code_part(line: &str) -> &str {
    let mut in_string = false;
    for (index, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..index],
            _ => {}
        }
    }
    line
}

/// The offset of an opening `"` that is never closed on this line.
fn unterminated_quote(line: &str) -> Option<usize> {
    let code = code_part(line);
    let quotes: Vec<usize> = code.match_indices('"').map(|(index, _)| index).collect();
    (quotes.len() % 2 == 1).then(|| quotes[quotes.len() - 1])
}

/// The offset of a `setup` keyword before `position` whose diagram has no `end` before it.
fn open_setup_before(text: &str, position: usize) -> Option<usize> {
    let mut open = None;
    let mut offset = 0;
    for line in text[..position.min(text.len())].split_inclusive('\n') {
        let code = code_part(line).trim();
        if code == "setup" {
            open = Some(offset + line.find("setup").unwrap_or(0));
        } else if code == "end" {
            open = None;
        }
        offset += line.len();
    }
    open
}

/// The side (`attackers` or `defenders`) whose name, given by `attackers are called "..."`,
/// `word` is or nearly is (`Swedes`, `swede`, `Muscovits`).
fn side_called(text: &str, word: &str) -> Option<&'static str> {
    text.lines().find_map(|line| {
        let code = code_part(line).trim();
        let (side, rest) = code.split_once(char::is_whitespace)?;
        let side = match side {
            "attackers" => "attackers",
            "defenders" => "defenders",
            _ => return None,
        };
        let name = rest
            .trim()
            .strip_prefix("are")?
            .trim()
            .strip_prefix("called")?
            .trim()
            .trim_matches('"')
            .to_lowercase();
        let word = word.to_lowercase();
        let singular = name.strip_suffix('s').unwrap_or(&name);
        let near =
            word == name || word == singular || nearest(&word, [name.as_str(), singular]).is_some();
        (near && !word.is_empty()).then_some(side)
    })
}

/// Names the file declares with `piece` and `region`/`square` clauses, and the built-in ones.
fn declared_names(text: &str) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = ["king", "attacker", "defender"]
        .iter()
        .map(|name| name.to_string())
        .collect();
    for line in text.lines() {
        let words: Vec<&str> = code_part(line).split_whitespace().collect();
        match words.as_slice() {
            ["piece", _, name, ..] => {
                names.insert(name.trim_end_matches(':').to_string());
            }
            ["region" | "square", name, ..] => {
                names.insert(name.to_string());
            }
            _ => {}
        }
    }
    names
}
