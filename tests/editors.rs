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
use std::process::Command;

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

/// The `.tafl` files in `folder` and its subfolders (`variants/aagenielsen/`), sorted.
fn tafl_files(folder: &str) -> Vec<std::path::PathBuf> {
    fn walk(folder: &Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(folder).expect("the folder exists") {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|ext| ext == "tafl") {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(folder),
        &mut files,
    );
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

/// The Vim syntax file (editors/vim/syntax/tafl.vim), which colours `.tafl` files in every Vim
/// and in Neovims too old for the language server's colours.
const VIM_SYNTAX: &str = include_str!("../editors/vim/syntax/tafl.vim");

/// The words of `syntax keyword GROUP ...` lines of the Vim syntax file.
fn vim_keywords(group: &str) -> Vec<String> {
    let prefix = format!("syntax keyword {group} ");
    let mut words: Vec<String> = VIM_SYNTAX
        .lines()
        .filter_map(|line| line.strip_prefix(&prefix))
        .flat_map(|rest| rest.split_whitespace().map(str::to_string))
        .collect();
    words.sort_unstable();
    words
}

/// The alternatives of a TextMate rule's `\b(a|b|c)\b` match.
fn textmate_words(rule: &str) -> Vec<String> {
    let (grammar, _) = grammar();
    let matched = grammar["repository"][rule]["match"].as_str().unwrap();
    let inner = Regex::new(r"\((.*)\)").unwrap();
    let mut words: Vec<String> = inner.captures(matched).unwrap()[1]
        .split('|')
        .map(str::to_string)
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

#[test]
fn the_vim_syntax_has_the_textmate_grammars_words() {
    for (group, rule) in [
        ("taflWord", "word"),
        ("taflSide", "side"),
        ("taflRole", "role"),
    ] {
        assert_eq!(vim_keywords(group), textmate_words(rule), "{group}");
    }
}

#[test]
fn vim_colours_every_character_of_every_bundled_variant() {
    // Where Vim is installed (Debian's vim, or any): each bundled file opened with the syntax
    // file on the runtimepath, and the syntax group of every visible character read back.
    let Ok(probe) = Command::new("vim").arg("--version").output() else {
        eprintln!("vim is not installed: the Vim syntax file is checked by its words only");
        return;
    };
    assert!(probe.status.success());
    let dir = std::env::temp_dir().join(format!("tafl-vim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("groups.txt");
    let script = dir.join("probe.vim");
    std::fs::write(
        &script,
        format!(
            "let out = []\n\
             for lnum in range(1, line('$'))\n\
             \x20 let text = getline(lnum)\n\
             \x20 for col in range(1, len(text))\n\
             \x20   if text[col-1] =~ '\\S'\n\
             \x20     call add(out, lnum . ':' . col . ':' . synIDattr(synID(lnum, col, 1), 'name'))\n\
             \x20   endif\n\
             \x20 endfor\n\
             endfor\n\
             call writefile(out, '{}')\n\
             qa!\n",
            out.display()
        ),
    )
    .unwrap();
    let runtime = format!("set rtp^={}/editors/vim", env!("CARGO_MANIFEST_DIR"));
    for path in tafl_files("variants") {
        let _ = std::fs::remove_file(&out);
        let status = Command::new("vim")
            .args(["-es", "-N", "-u", "NONE", "-i", "NONE", "--cmd", &runtime])
            .args(["-c", "filetype on", "-c", "syntax on"])
            .arg("-c")
            .arg(format!("edit {}", path.display()))
            .arg("-c")
            .arg(format!("source {}", script.display()))
            .status()
            .unwrap();
        assert!(status.success(), "{}", path.display());
        let groups = std::fs::read_to_string(&out).unwrap();
        let bare: Vec<&str> = groups
            .lines()
            .filter(|line| line.ends_with(':') || line.ends_with("taflBadCell"))
            .take(5)
            .collect();
        assert!(
            bare.is_empty(),
            "{}: characters Vim leaves uncoloured or marks bad (line:column:group): {bare:?}",
            path.display()
        );
        assert!(groups.lines().any(|l| l.ends_with(":taflStructure")));
        assert!(groups.lines().any(|l| l.ends_with(":taflDefenderCell")));
    }
}

#[test]
fn neovim_starts_the_server_and_colours_the_file_where_it_is_installed() {
    // Debian 12's Neovim is 0.7, which has neither vim.lsp.start nor semantic tokens:
    // editors/neovim/tafl.lua must start the server there with start_client, and the Vim
    // syntax file colour the file.
    let Ok(probe) = Command::new("nvim").arg("--version").output() else {
        eprintln!("nvim is not installed: the Neovim plugin is not run");
        return;
    };
    assert!(probe.status.success());
    let dir = std::env::temp_dir().join(format!("tafl-nvim-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("plugin")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/neovim/tafl.lua"),
        dir.join("plugin/tafl.lua"),
    )
    .unwrap();
    let file = dir.join("bad.tafl");
    std::fs::write(&file, "board 7 x 7\nthe kign is armed\n").unwrap();
    let result = dir.join("result.txt");
    let check = dir.join("check.lua");
    // The server's first diagnostics come within a second; ten are allowed on a loaded machine.
    std::fs::write(
        &check,
        format!(
            "local waited = 0\n\
             local function look()\n\
             \x20 local diags = vim.diagnostic.get(0)\n\
             \x20 if #diags == 0 and waited < 10000 then waited = waited + 200; vim.defer_fn(look, 200); return end\n\
             \x20 local f = io.open('{}', 'w')\n\
             \x20 f:write('clients ' .. #vim.lsp.get_active_clients() .. '\\n')\n\
             \x20 for _, d in ipairs(diags) do f:write(d.message .. '\\n') end\n\
             \x20 f:write('syntax ' .. (vim.b.current_syntax or 'none') .. '\\n')\n\
             \x20 f:close()\n\
             \x20 vim.cmd('qa!')\n\
             end\n\
             vim.defer_fn(look, 200)\n",
            result.display()
        ),
    )
    .unwrap();
    let tafl_dir = Path::new(env!("CARGO_BIN_EXE_tafl")).parent().unwrap();
    let path = format!(
        "{}:{}",
        tafl_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let runtime = format!(
        "set rtp^={},{}/editors/vim",
        dir.display(),
        env!("CARGO_MANIFEST_DIR")
    );
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "--cmd", &runtime])
        .args([
            "--cmd",
            "runtime plugin/tafl.lua",
            "-c",
            "filetype on",
            "-c",
            "syntax on",
        ])
        .arg("-c")
        .arg(format!("edit {}", file.display()))
        .arg("-c")
        .arg(format!("luafile {}", check.display()))
        .env("PATH", path)
        .status()
        .unwrap();
    assert!(status.success());
    let said = std::fs::read_to_string(&result).unwrap();
    assert!(said.starts_with("clients 1\n"), "{said}");
    assert!(said.contains("no piece is called `kign`"), "{said}");
    assert!(said.contains("syntax tafl"), "{said}");
}
