//! The TextMate grammar in `editors/vscode/syntaxes/` is valid and highlights every bundled
//! variant file and lint fixture completely: every pattern compiles, and every character that is
//! not a space falls in some token that is not `invalid.*`.
//!
//! Editors run TextMate grammars on Oniguruma. The patterns are compiled here with the `regex`
//! crate, which accepts no look-around and no back-references: a grammar that passes uses only
//! the syntax both engines share, so what is tested is what editors run. The tokenizer below is
//! the core of TextMate's algorithm (at each position the earliest match wins, ties go to the
//! earlier pattern, a `begin`/`end` rule pushes and pops a context across lines).

use std::path::Path;

use regex::Regex;
use serde_json::Value;

const GRAMMAR: &str = include_str!("../editors/vscode/syntaxes/tafl.tmLanguage.json");

/// One compiled rule: a single match, or a begin/end region with its own patterns.
#[derive(Debug)]
enum Pattern {
    Match {
        scope: String,
        regex: Regex,
    },
    Region {
        scope: String,
        begin: Regex,
        end: Regex,
        patterns: Vec<Pattern>,
    },
}

fn compile(source: &str) -> Regex {
    Regex::new(source)
        .unwrap_or_else(|error| panic!("pattern `{source}` does not compile: {error}"))
}

fn scope_of(rule: &Value) -> String {
    rule["name"].as_str().unwrap_or("").to_string()
}

/// The patterns of a `patterns` list, with `#name` includes resolved from the repository.
fn patterns(list: &Value, repository: &Value) -> Vec<Pattern> {
    list.as_array()
        .expect("`patterns` is a list")
        .iter()
        .map(|rule| {
            let rule = match rule["include"].as_str() {
                Some(include) => {
                    let name = include.strip_prefix('#').expect("a repository include");
                    let found = &repository[name];
                    assert!(found.is_object(), "`{include}` is not in the repository");
                    found
                }
                None => rule,
            };
            if let Some(source) = rule["match"].as_str() {
                Pattern::Match {
                    scope: scope_of(rule),
                    regex: compile(source),
                }
            } else {
                let begin = rule["begin"]
                    .as_str()
                    .expect("a rule has `match` or `begin`");
                let end = rule["end"].as_str().expect("a `begin` rule has an `end`");
                let inner = if rule["patterns"].is_array() {
                    patterns(&rule["patterns"], repository)
                } else {
                    Vec::new()
                };
                Pattern::Region {
                    scope: scope_of(rule),
                    begin: compile(begin),
                    end: compile(end),
                    patterns: inner,
                }
            }
        })
        .collect()
}

fn grammar() -> (Value, Vec<Pattern>) {
    let json: Value = serde_json::from_str(GRAMMAR).expect("the grammar is JSON");
    let root = patterns(&json["patterns"], &json["repository"]);
    (json, root)
}

/// What went wrong on a line: the text no pattern covers (`uncovered`) or that the grammar
/// marks `invalid`, with its 1-based column.
type Problems = Vec<(usize, &'static str, String)>;

fn problem(
    line: &str,
    start: usize,
    end: usize,
    kind: &'static str,
) -> Option<(usize, &'static str, String)> {
    let text = &line[start..end];
    let trimmed = text.trim_start();
    let column = start + (text.len() - trimmed.len()) + 1;
    let trimmed = trimmed.trim_end();
    (!trimmed.is_empty()).then(|| (column, kind, trimmed.to_string()))
}

/// Tokenizes `text` line by line; returns each line's problems.
fn tokenize<'a>(root: &'a [Pattern], text: &str) -> Vec<(usize, Problems)> {
    let mut stack: Vec<&'a Pattern> = Vec::new();
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut problems = Problems::new();
        let mut position = 0;
        while position < line.len() {
            let (candidates, end): (&[Pattern], Option<&Regex>) = match stack.last() {
                Some(Pattern::Region { patterns, end, .. }) => (patterns, Some(end)),
                _ => (root, None),
            };
            // The end of the region first: it wins ties, as in TextMate by default.
            let mut best: Option<(usize, usize, Option<&'a Pattern>, bool)> = end
                .and_then(|end| end.find_at(line, position))
                .map(|found| (found.start(), found.end(), None, true));
            for pattern in candidates {
                let (regex, scope) = match pattern {
                    Pattern::Match { regex, scope } => (regex, scope),
                    Pattern::Region { begin, scope, .. } => (begin, scope),
                };
                if let Some(found) = regex.find_at(line, position) {
                    if best.is_none_or(|(start, ..)| found.start() < start) {
                        let _ = scope;
                        best = Some((found.start(), found.end(), Some(pattern), false));
                    }
                }
            }
            let Some((start, end, pattern, is_end)) = best else {
                problems.extend(problem(line, position, line.len(), "uncovered"));
                break;
            };
            problems.extend(problem(line, position, start, "uncovered"));
            if is_end {
                stack.pop();
            } else if let Some(pattern) = pattern {
                let scope = match pattern {
                    Pattern::Match { scope, .. } | Pattern::Region { scope, .. } => scope,
                };
                if scope.starts_with("invalid") {
                    problems.extend(problem(line, start, end, "invalid"));
                }
                if matches!(pattern, Pattern::Region { .. }) {
                    stack.push(pattern);
                }
            }
            // An empty match (`$`) must still move on.
            position = if end > start {
                end
            } else {
                end + line[end..].chars().next().map_or(1, char::len_utf8)
            };
        }
        // A region that ends with the line (`"|$`) ends even when the line was empty there.
        if let Some(Pattern::Region { end, .. }) = stack.last() {
            if end.as_str().ends_with("|$") {
                stack.pop();
            }
        }
        if !problems.is_empty() {
            found.push((number + 1, problems));
        }
    }
    found
}

fn tafl_files(folder: &str) -> Vec<std::path::PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("the folder exists")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tafl"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_bundled_variant_is_highlighted_completely() {
    let (_, root) = grammar();
    let files = tafl_files("variants");
    assert!(files.len() >= 10, "the bundled variants are found");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let problems = tokenize(&root, &text);
        assert!(problems.is_empty(), "{}: {problems:?}", path.display());
    }
}

#[test]
fn the_lint_fixtures_are_highlighted_too() {
    // Broken files too: highlighting must not give up on a mistake. The grammar may mark a
    // wrong diagram symbol invalid, but leaves no text unhighlighted.
    let (_, root) = grammar();
    for path in tafl_files("tests/lint") {
        let text = std::fs::read_to_string(&path).expect("readable");
        for (line, problems) in tokenize(&root, &text) {
            for (column, kind, text) in problems {
                assert_eq!(
                    kind,
                    "invalid",
                    "{}:{line}:{column}: `{text}`",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_grammar_marks_what_it_should() {
    let (json, root) = grammar();
    assert_eq!(json["scopeName"], "source.tafl");
    // A stray symbol in a diagram is marked invalid; text outside any clause is not covered.
    let problems = tokenize(&root, "setup\n  . t ?\nend\n");
    assert_eq!(problems, vec![(2, vec![(7, "invalid", "?".to_string())])]);
    let problems = tokenize(&root, "board 9 x 9 ; oops\n");
    assert_eq!(
        problems,
        vec![(1, vec![(13, "uncovered", ";".to_string())])]
    );
}

/// The scope of the token a line starts with: the pattern matching earliest, ties to the earlier
/// pattern, as in `tokenize`.
fn first_scope<'a>(root: &'a [Pattern], line: &str) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for pattern in root {
        let (regex, scope) = match pattern {
            Pattern::Match { regex, scope } => (regex, scope),
            Pattern::Region { begin, scope, .. } => (begin, scope),
        };
        if let Some(found) = regex.find(line) {
            if best.is_none_or(|(start, _)| found.start() < start) {
                best = Some((found.start(), scope.as_str()));
            }
        }
    }
    best.map(|(_, scope)| scope)
}

#[test]
fn every_word_of_the_language_is_highlighted_as_a_word_not_a_name() {
    const PEST: &str = include_str!("../grammar/tafl.pest");
    let (_, root) = grammar();
    let literal = Regex::new(r#""([a-z]+)""#).unwrap();
    let mut words: Vec<&str> = literal
        .captures_iter(PEST)
        .map(|captures| captures.get(1).unwrap().as_str())
        .collect();
    words.sort_unstable();
    words.dedup();
    assert!(words.contains(&"jump"), "the grammar's words are found");
    // `edge` is also the built-in region's name, highlighted like `throne` and `corners`.
    let names: Vec<&str> = words
        .into_iter()
        .filter(|word| *word != "edge")
        .filter(|word| first_scope(&root, word).is_none_or(|scope| scope.contains(".name.")))
        .collect();
    assert!(
        names.is_empty(),
        "add these words of grammar/tafl.pest to the TextMate grammar's keywords: {names:?}"
    );
}
