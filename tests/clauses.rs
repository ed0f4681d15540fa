//! Every clause of the language is documented, used, explained and hovered.
//!
//! The clauses are read from the grammar itself (the alternatives of `clause` in
//! `grammar/tafl.pest`, and of the choices split in [`SPLIT`]), so a
//! clause added to the grammar fails this test until it has:
//! - an example in section 4 of `docs/language.md` (a code block line that parses as it);
//! - a fixture: a bundled variant or a `tests/` variant file that uses it;
//! - a sentence in `tafl show`: for a rule clause, a sentence of `explain::rule_sections` that
//!   cites the clause (through the source map); for a declaration, its words in the header;
//! - a hover in the language server over the clause that says more than "no rule".
//!
//! The last two are checked on the fixtures that use the clause and load without errors: one of
//! them is enough.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;
use tafl::explain::{explain, rule_sections};
use tafl::lsp::Analysis;

/// The language's own grammar, read again here so that the test sees what the parser sees.
#[derive(Parser)]
#[grammar = "../grammar/tafl.pest"]
struct Grammar;

const GRAMMAR: &str = include_str!("../grammar/tafl.pest");
const LANGUAGE: &str = include_str!("../docs/language.md");

/// The alternatives of a silent choice rule `name = _{ a | b | ... }` of the grammar.
fn alternatives(rule: &str) -> Vec<String> {
    let start = GRAMMAR
        .find(&format!("\n{rule} = _{{"))
        .unwrap_or_else(|| panic!("the grammar has no rule `{rule}`"));
    let body = &GRAMMAR[start..];
    let body = &body[body.find('{').expect("a rule has a body") + 1..];
    let body = &body[..body.find('}').expect("a rule body ends")];
    body.split('|')
        .map(|alternative| alternative.trim().to_string())
        .filter(|alternative| !alternative.is_empty())
        .collect()
}

/// Clauses whose alternatives say different rules, each checked on its own: the clause rule and
/// the silent choice inside it. The win clause's endings are three families (reaching, forts,
/// king capture); the draw clause's conditions are different draws; the king-capture clause's
/// methods are different captures (like a soldier, on four sides, together with the throne).
const SPLIT: &[(&str, &str)] = &[
    ("win_clause", "win_event"),
    ("draw_clause", "draw_condition"),
    ("king_capture_clause", "capture_method"),
];

/// Every clause the tests must find: the clause rules, with those of [`SPLIT`] split into their
/// alternatives (`win_clause/reaches`, ...).
fn clause_kinds() -> Vec<String> {
    let mut kinds = Vec::new();
    for clause in alternatives("clause") {
        match SPLIT.iter().find(|(rule, _)| *rule == clause) {
            Some((_, choice)) => {
                for alternative in alternatives(choice) {
                    kinds.push(format!("{clause}/{alternative}"));
                }
            }
            None => kinds.push(clause),
        }
    }
    assert!(kinds.len() > 20, "the clause rule was not read: {kinds:?}");
    kinds
}

/// The kind of a clause pair, as [`clause_kinds`] names it.
fn kind_of(pair: &Pair<'_, Rule>) -> String {
    let rule = format!("{:?}", pair.as_rule());
    let Some((_, choice)) = SPLIT.iter().find(|(split, _)| *split == rule) else {
        return rule;
    };
    let choices = alternatives(choice);
    let chosen = pair
        .clone()
        .into_inner()
        .map(|part| format!("{:?}", part.as_rule()))
        .find(|part| choices.contains(part))
        .unwrap_or_else(|| panic!("a {rule} has one of {choices:?}"));
    format!("{rule}/{chosen}")
}

/// The clauses of `text` with their byte ranges, or nothing when it does not parse.
fn clauses(text: &str) -> Vec<(String, usize, usize)> {
    let Ok(mut pairs) = Grammar::parse(Rule::file, text) else {
        return Vec::new();
    };
    let file = pairs.next().expect("a parsed file has a `file` pair");
    file.into_inner()
        .filter(|pair| pair.as_rule() != Rule::EOI)
        .map(|pair| (kind_of(&pair), pair.as_span().start(), pair.as_span().end()))
        .collect()
}

/// The clause kinds shown in the code blocks of section 4 of docs/language.md. A block is read
/// whole (a setup diagram spans lines), else line by line (blocks mix clauses with notation).
fn documented() -> BTreeSet<String> {
    let start = LANGUAGE
        .find("\n## 4. The clauses")
        .expect("docs/language.md has its section 4");
    let rest = &LANGUAGE[start + 1..];
    let section = &rest[..rest[3..].find("\n## ").map_or(rest.len(), |end| end + 3)];
    let mut kinds = BTreeSet::new();
    for block in section.split("```").skip(1).step_by(2) {
        // Drop the info string (`tafl`, `text`) on the fence's line.
        let code = block.split_once('\n').map_or("", |(_, code)| code);
        let whole = clauses(code);
        if whole.is_empty() {
            for line in code.lines() {
                kinds.extend(clauses(line).into_iter().map(|(kind, _, _)| kind));
            }
        } else {
            kinds.extend(whole.into_iter().map(|(kind, _, _)| kind));
        }
    }
    kinds
}

/// The variant files the tests use: the bundled variants and every `.tafl` under `tests/`.
fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("the folder can be read")
            .map(|entry| entry.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "tafl") {
                found.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    walk(&root.join("variants"), &mut found);
    walk(&root.join("tests"), &mut found);
    found
}

/// How one use of a clause fares in `tafl show` and in the language server.
struct Use {
    file: String,
    said: bool,
    hovered: bool,
}

/// Whether `tafl show` says the clause at `start..end` of `text`: a rule sentence citing it, or
/// for a declaration its words in the header.
fn said_by_show(kind: &str, text: &str, start: usize, end: usize) -> bool {
    let checked = tafl::check::check_text("fixture.tafl", text);
    let Some((rules, source_map)) = checked.rules.as_ref() else {
        return false;
    };
    let written = &text[start..end];
    let sheet = explain(rules);
    let quoted = || {
        written
            .split('"')
            .nth(1)
            .is_some_and(|quoted| sheet.contains(quoted))
    };
    match kind {
        "name_clause" | "source_clause" | "family_clause" | "note_clause" | "side_name_clause" => {
            quoted()
        }
        "board_clause" => sheet.contains(&format!(
            "A board of {} x {} squares",
            rules.board.width, rules.board.height
        )),
        "first_move_clause" => sheet.contains(" first."),
        "piece_clause" => rules.pieces.iter().any(|piece| {
            written.contains(&format!(" {}:", piece.name)) && sheet.contains(&piece.display)
        }),
        "region_clause" => rules.regions.iter().any(|region| {
            written.contains(&format!(" {} ", region.name))
                && sheet.contains(&format!("{} (", region.name))
        }),
        // The diagram writes each cell after a space, special empty squares marked.
        "setup_clause" => rules.setup.iter().all(|row| {
            let cells: String = row.chars().map(|cell| format!(" {cell}")).collect();
            sheet
                .lines()
                .any(|line| line.replace(['+', '#'], ".").contains(&cells))
        }),
        _ => {
            let cited: BTreeSet<_> = source_map
                .iter()
                .filter(|(_, span)| span.start == start)
                .map(|(rule, _)| rule)
                .collect();
            rule_sections(rules).iter().any(|section| {
                section
                    .rules
                    .iter()
                    .any(|stated| stated.iter().any(|rule| cited.contains(rule)))
            })
        }
    }
}

/// Whether the language server has a hover for the clause at `start..end` (some point of it
/// that is not a name or a square), beyond "this clause adds no rule".
fn hovered(text: &str, start: usize, end: usize) -> bool {
    let analysis = Analysis::new("fixture.tafl", text);
    (start..end)
        .filter(|offset| text.is_char_boundary(*offset))
        .filter_map(|offset| analysis.hover(offset))
        .any(|hover| {
            hover.span.start == start
                && !hover.text.is_empty()
                && !hover.text.contains("adds no rule of its own")
        })
}

#[test]
fn every_clause_is_documented_used_explained_and_hovered() {
    let kinds = clause_kinds();
    let documented = documented();
    let mut uses: BTreeMap<String, Vec<Use>> = BTreeMap::new();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("a fixture can be read");
        let loads = tafl::Variant::from_text("fixture.tafl", &text).is_ok();
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(&path)
            .display()
            .to_string();
        for (kind, start, end) in clauses(&text) {
            let entry = uses.entry(kind.clone()).or_default();
            // Only fixtures that load say anything; one that shows and hovers is enough.
            let done = entry.iter().any(|seen| seen.said && seen.hovered);
            let (said, hover) = if loads && !done {
                (
                    said_by_show(&kind, &text, start, end),
                    hovered(&text, start, end),
                )
            } else {
                (false, false)
            };
            entry.push(Use {
                file: name.clone(),
                said,
                hovered: hover,
            });
        }
    }
    let mut missing = Vec::new();
    for kind in &kinds {
        if !documented.contains(kind) {
            missing.push(format!(
                "{kind}: no example in section 4 of docs/language.md"
            ));
        }
        let Some(seen) = uses.get(kind) else {
            missing.push(format!(
                "{kind}: no fixture (a variant in variants/ or a .tafl file under tests/) uses it"
            ));
            continue;
        };
        let mut files: Vec<String> = seen.iter().map(|one| one.file.clone()).collect();
        files.dedup();
        if files.len() > 3 {
            let more = format!("{} more", files.len() - 3);
            files.truncate(3);
            files.push(more);
        }
        if !seen.iter().any(|one| one.said) {
            missing.push(format!(
                "{kind}: `tafl show` says nothing for it (fixtures: {})",
                files.join(", ")
            ));
        }
        if !seen.iter().any(|one| one.hovered) {
            missing.push(format!(
                "{kind}: no hover in the language server (fixtures: {})",
                files.join(", ")
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "clauses without their documentation, fixture, sentence or hover:\n{}",
        missing.join("\n")
    );
}
