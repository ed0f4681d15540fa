//! docs/tutorial.md as a CLI transcript: each file it shows is a fixture of
//! `tests/fixtures/tutorial/`, and each command it quotes (`$ tafl lint tablut.tafl`) is run on
//! that fixture, copied as `tablut.tafl`, and must print what the page says. With
//! `UPDATE_TUTORIAL=1` the test writes the real answers into the page instead (read the diff).

use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "<!-- tutorial: ";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/fixtures/tutorial").join(name))
        .unwrap_or_else(|error| panic!("tests/fixtures/tutorial/{name}: {error}"))
        .replace("\r\n", "\n")
}

/// Runs `tafl ARGS` in a fresh folder holding `name` as `tablut.tafl`: its stdout.
fn run(name: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "tafl-tutorial-{}-{}",
        std::process::id(),
        name.trim_end_matches(".tafl")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("tablut.tafl"), fixture(name)).expect("the file is written");
    let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Lines without their trailing spaces: a page's editor may strip them.
fn trimmed(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// One quoted block of the page: the fixture it is about, its fence's language, where its
/// body lies in the page, and the body.
struct Block {
    fixture: String,
    language: String,
    body: std::ops::Range<usize>,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(start) = page[at..].find(MARKER) {
        let marker = at + start + MARKER.len();
        let end = marker
            + page[marker..]
                .find(" -->")
                .expect("a marker ends with ` -->`");
        let fixture = page[marker..end].to_string();
        let fence = end
            + page[end..]
                .find("```")
                .expect("a fenced block after the marker");
        let info_end = fence + page[fence..].find('\n').expect("the fence's line ends");
        let language = page[fence + 3..info_end].trim().to_string();
        let body_start = info_end + 1;
        let body_end = body_start
            + page[body_start..]
                .find("```")
                .expect("the fenced block is closed");
        found.push(Block {
            fixture,
            language,
            body: body_start..body_end,
        });
        at = body_end + 3;
    }
    found
}

/// What a block should hold: the fixture itself, or the command's line and its output.
fn expected(block: &Block, body: &str) -> String {
    match block.language.as_str() {
        "tafl" => fixture(&block.fixture),
        "text" => {
            let command = body.lines().next().unwrap_or_default();
            let args: Vec<&str> = command
                .strip_prefix("$ tafl ")
                .unwrap_or_else(|| panic!("a text block starts with `$ tafl ...`: {command}"))
                .split_whitespace()
                .collect();
            format!("{command}\n{}", run(&block.fixture, &args))
        }
        other => panic!("a tutorial block is `tafl` or `text`, not `{other}`"),
    }
}

#[test]
fn the_tutorial_quotes_the_real_files_and_answers() {
    let path = root().join("docs/tutorial.md");
    let page = std::fs::read_to_string(&path)
        .expect("docs/tutorial.md exists")
        .replace("\r\n", "\n");
    let blocks = blocks(&page);
    assert!(blocks.len() >= 8, "{} blocks", blocks.len());
    let update = std::env::var_os("UPDATE_TUTORIAL").is_some();
    let mut written = String::new();
    let mut last = 0;
    for block in &blocks {
        let body = &page[block.body.clone()];
        let want = expected(block, body);
        if update {
            written.push_str(&page[last..block.body.start]);
            written.push_str(&want);
            if !want.ends_with('\n') && !want.is_empty() {
                written.push('\n');
            }
            last = block.body.end;
        } else {
            assert_eq!(
                trimmed(body),
                trimmed(&want),
                "docs/tutorial.md, the block about {} (run with UPDATE_TUTORIAL=1 to rewrite)",
                block.fixture
            );
        }
    }
    if update {
        written.push_str(&page[last..]);
        std::fs::write(&path, written).expect("docs/tutorial.md is written");
    }
    // Every fixture is shown, and the last is a clean, playable file.
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/fixtures/tutorial"))
        .expect("the fixtures' folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    for name in &names {
        assert!(
            blocks
                .iter()
                .any(|block| &block.fixture == name && block.language == "tafl"),
            "docs/tutorial.md does not show {name}"
        );
    }
    let last_file = names.last().expect("fixtures");
    assert_eq!(
        run(last_file, &["lint", "tablut.tafl"]),
        "tablut.tafl: no problems\n"
    );
    assert!(!run(last_file, &["moves", "tablut.tafl"]).is_empty());
}

/// The tutorial is linked from the README and from the language's reference.
#[test]
fn the_tutorial_is_linked() {
    for (file, link) in [
        ("README.md", "docs/tutorial.md"),
        ("docs/language.md", "tutorial.md"),
    ] {
        let text = std::fs::read_to_string(Path::new(&root()).join(file)).expect("readable");
        assert!(text.contains(link), "{file} links {link}");
    }
}
