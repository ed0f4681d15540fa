//! The diagnostics of `tafl lint`, one broken variant file per code in `tests/lint/`.
//!
//! Each fixture is named after the code it shows (`setup_width.tafl`), or after the code and a
//! situation (`unexpected_end_of_clause.tafl`). The `many_problems*.tafl` fixtures each hold
//! several independent mistakes and list, in an `# expect:` line, exactly the codes the file
//! must report: every mistake found in one pass, and nothing that follows from another.
//! The rendered output of each is an insta snapshot in `tests/snapshots/`.

use std::path::Path;
use std::process::{Command, Output};

use tafl::cli::{render_diagnostics, Style};
use tafl::Code;

/// The stem that starts the fixtures with several mistakes rather than one.
const MANY_PROBLEMS: &str = "many_problems";

/// The codes a several-mistakes fixture declares in its `# expect: code code ...` line.
fn expected_codes(text: &str) -> Option<Vec<String>> {
    text.lines()
        .find_map(|line| line.strip_prefix("# expect:"))
        .map(|codes| codes.split_whitespace().map(str::to_string).collect())
}

/// The last part of a code: `tafl::check::setup_width` → `setup_width`.
fn short_name(code: Code) -> &'static str {
    let full = code.as_str();
    full.rsplit("::").next().unwrap_or(full)
}

/// The code a fixture is about: the longest code name that is the stem or starts it followed by
/// `_` (`unexpected_end_of_clause` → `unexpected`).
fn code_of_stem(stem: &str) -> Option<Code> {
    Code::ALL
        .iter()
        .copied()
        .filter(|&code| {
            let name = short_name(code);
            stem == name
                || stem
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('_'))
        })
        .max_by_key(|&code| short_name(code).len())
}

fn lint_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lint"))
}

/// The stems of every fixture, sorted.
fn fixture_stems() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(lint_dir())
        .expect("tests/lint exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tafl"))
        .map(|path| {
            path.file_stem()
                .expect("a fixture has a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    stems.sort();
    stems
}

#[test]
fn rendered_diagnostics() {
    insta::glob!("lint/*.tafl", |path| {
        let origin = path
            .file_name()
            .expect("a fixture has a name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path)
            .expect("fixture is readable")
            .replace("\r\n", "\n");
        assert!(
            text.starts_with('#'),
            "{origin}: start the fixture with a `#` comment saying what is wrong"
        );
        let checked = tafl::check::check_text(&origin, &text);
        let diagnostics = &checked.diagnostics;

        let stem = origin.trim_end_matches(".tafl");
        let codes: Vec<Code> = diagnostics.items().iter().map(|item| item.code).collect();
        if stem.starts_with(MANY_PROBLEMS) {
            let expected = expected_codes(&text).unwrap_or_else(|| {
                panic!("{origin}: list the codes it must report in an `# expect:` line")
            });
            let found: Vec<&str> = codes.iter().map(|&code| short_name(code)).collect();
            assert_eq!(
                found, expected,
                "{origin}: every mistake, in the order reported, and no follow-on diagnostic"
            );
            let mut distinct = found.clone();
            distinct.sort();
            distinct.dedup();
            assert!(
                distinct.len() >= 3,
                "{origin} should show several kinds of problem at once, shows {distinct:?}"
            );
        } else {
            let code = code_of_stem(stem).unwrap_or_else(|| {
                panic!("{origin}: name the fixture after a code (`<code>.tafl` or `<code>_<situation>.tafl`)")
            });
            assert!(
                codes.contains(&code),
                "{origin} is about {code} but reports {:?}",
                codes.iter().map(|code| code.as_str()).collect::<Vec<_>>()
            );
        }

        let rendered = render_diagnostics(
            diagnostics,
            Style {
                width: 80,
                colour: false,
            },
        )
        .replace("\r\n", "\n");
        insta::assert_snapshot!(rendered);
    });
}

#[test]
fn every_code_has_a_fixture() {
    let stems = fixture_stems();
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|&code| short_name(code))
        .filter(|name| !stems.iter().any(|stem| stem == name))
        .collect();
    assert!(
        missing.is_empty(),
        "add tests/lint/<code>.tafl for: {missing:?} (and an entry in docs/diagnostics.md)"
    );
}

#[test]
fn every_code_is_documented_in_order() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md"))
        .expect("docs/diagnostics.md exists");
    let headings: Vec<&str> = docs
        .lines()
        .filter_map(|line| line.strip_prefix("### `"))
        .filter_map(|rest| rest.strip_suffix('`'))
        .collect();
    let codes: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(
        headings, codes,
        "docs/diagnostics.md has one `### `code`` section per code, in the order of Code::ALL"
    );
}

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

#[test]
fn json_format_fields() {
    let path = "tests/lint/setup_width.tafl";
    let output = tafl(&["lint", "--format", "json", path]);
    assert_eq!(output.status.code(), Some(1), "an error exits 1");
    let stdout = String::from_utf8(output.stdout).expect("JSON is UTF-8");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is JSON");
    let items = json.as_array().expect("a JSON array");
    assert_eq!(items.len(), 1, "{stdout}");
    let item = &items[0];
    assert_eq!(item["file"], path);
    assert_eq!(item["severity"], "error");
    assert_eq!(item["code"], "tafl::check::setup_width");
    assert_eq!(
        item["message"],
        "row 3 of the diagram has 6 squares but the board has 7 files"
    );
    assert!(item["help"].as_str().is_some_and(|help| help.contains('7')));

    // The short row is the third row of the diagram; the position is 1-based.
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("fixture is readable")
        .replace("\r\n", "\n");
    let row = "  . . T . . .\n";
    let start = text.find(row).expect("the short row") + 2;
    let end = start + row.trim().len();
    let line = text[..start].matches('\n').count() + 1;
    assert_eq!(item["line"], line);
    assert_eq!(item["column"], 3);

    let labels = item["labels"].as_array().expect("labels array");
    assert_eq!(labels.len(), 1, "{stdout}");
    let label = &labels[0];
    assert_eq!(label["start"], start);
    assert_eq!(label["end"], end);
    assert_eq!(label["line"], line);
    assert_eq!(label["column"], 3);
    assert_eq!(label["text"], "6 squares (rank 5)");
}

#[test]
fn json_format_of_a_clean_file_is_an_empty_array() {
    let output = tafl(&["lint", "--format", "json", "variants/linnaeus.tafl"]);
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is JSON");
    assert_eq!(json, serde_json::json!([]));
}

#[test]
fn bundled_variant_lints_clean() {
    let output = tafl(&["lint", "variants/linnaeus.tafl"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn warnings_alone_exit_zero() {
    let path = "tests/lint/missing_first_move.tafl";
    let output = tafl(&["lint", path]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("tafl::check::missing_first_move"),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}");
}

#[test]
fn exit_code_follows_errors_for_every_fixture() {
    for stem in fixture_stems() {
        let path = format!("tests/lint/{stem}.tafl");
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path))
            .expect("fixture is readable");
        let has_errors = tafl::check::check_text(&path, &text)
            .diagnostics
            .has_errors();
        let output = tafl(&["lint", &path]);
        assert_eq!(
            output.status.code(),
            Some(i32::from(has_errors)),
            "{path}: errors exit 1, warnings and notes alone exit 0"
        );
    }
}

#[test]
fn a_declared_plural_names_the_piece_and_reads_in_explanations() {
    let text = "board 7 x 7\nattackers move first\npiece t man: attacker soldier, plural \"Men\"\n\
                piece l lady: attacker soldier\npiece K king: defender king\n\
                setup\n  . . . t . . .\n  . . . t . . .\n  . . . . . . .\n  t t . K . t t\n  . . . . . . .\n  . . . t . . .\n  . . . t . . .\nend\n\
                men may not enter the throne\nking moves like a rook\n\
                defenders win when the king reaches the edge\nattackers win when the king is captured\n";
    let checked = tafl::check::check_text("men.tafl", text);
    let codes: Vec<Code> = checked
        .diagnostics
        .items()
        .iter()
        .map(|item| item.code)
        .collect();
    assert!(
        !codes.contains(&Code::UnknownPiece),
        "`men` names the piece declared with plural \"Men\": {codes:?}"
    );
    let (rules, _) = checked.rules.expect("the rules are built");
    assert_eq!(tafl::english::piece_plural(&rules.pieces[0]), "Men");
    assert_eq!(tafl::english::piece_plural(&rules.pieces[1]), "Ladies");
    let explained = tafl::explain::explain(&rules);
    assert!(
        explained.contains("Men may not land on or pass over the throne"),
        "{explained}"
    );
    assert!(
        explained.contains("(only Ladies and the King may)"),
        "{explained}"
    );
    assert!(!explained.contains("Mans"), "{explained}");
}

/// The limits that need more text than a fixture should hold: a file over 1 MiB is refused
/// with one diagnostic on its first character, and a file with hundreds of problems reports
/// the first 100 and a note counting the rest, in time linear in its size.
#[test]
fn limits_of_size_and_number() {
    use tafl::check::limits::{MAX_DIAGNOSTICS, MAX_FILE_BYTES};
    let linnaeus = tafl::BUNDLED
        .iter()
        .find(|(name, _)| *name == "linnaeus")
        .expect("linnaeus is bundled")
        .1;
    let mut huge = linnaeus.to_string();
    while huge.len() <= MAX_FILE_BYTES {
        huge.push_str("# padding, padding, padding, padding, padding, padding, padding\n");
    }
    let checked = tafl::check::check_text("huge.tafl", &huge);
    let items = checked.diagnostics.items();
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0].code, Code::Limit);
    assert_eq!(checked.diagnostics.line_column(0), (1, 1));
    assert!(checked.rules.is_none());

    // 150 clauses naming a region that does not exist: 150 errors.
    let mut bad_rows = linnaeus.to_string();
    for _ in 0..150 {
        bad_rows.push_str("nobody may land on the nowhere\n");
    }
    let checked = tafl::check::check_text("bad.tafl", &bad_rows);
    let items = checked.diagnostics.items();
    assert_eq!(items.len(), MAX_DIAGNOSTICS + 1);
    let last = items.last().expect("the note");
    assert_eq!(last.code, Code::Limit);
    assert!(
        last.message.contains("more problems are not shown"),
        "{}",
        last.message
    );
}

#[test]
fn json_carries_the_fix_of_a_misspelling() {
    let path = "tests/lint/unknown_clause_typo.tafl";
    let output = tafl(&["lint", "--format", "json", path]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is JSON");
    let item = &json[0];
    assert_eq!(item["code"], "tafl::syntax::unknown_clause");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("fixture is readable")
        .replace("\r\n", "\n");
    let start = text.find("atackers move").expect("the misspelling");
    assert_eq!(
        item["fix"],
        serde_json::json!({"start": start, "end": start + "atackers".len(), "replacement": "attackers"})
    );
    // A problem with no single replacement has no `fix` field at all.
    let output = tafl(&["lint", "--format", "json", "tests/lint/setup_width.tafl"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is JSON");
    assert!(json[0].get("fix").is_none(), "{json}");
}

/// Issue 62: a number larger than its clause can hold is an error with a span on the number,
/// not a value silently clamped (a move limit of 99999999999 was read as 4294967295, a move's
/// length of 300 as 255).
#[test]
fn numbers_too_large_for_their_clause_are_errors_with_a_span() {
    let base = std::fs::read_to_string(lint_dir().join("unused_region.tafl"))
        .unwrap()
        .replace("region gates = a1 g1\n", "");
    let clauses = [
        (
            "the game is drawn after 99999999999 moves without capture",
            "99999999999",
        ),
        (
            "the game is drawn after 1000001 moves without capture",
            "1000001",
        ),
        (
            "the game is drawn when a position occurs 4294967296 times",
            "4294967296",
        ),
        (
            "a piece may move back and forth between two squares at most 99999999999 times",
            "99999999999",
        ),
        ("the king moves like a rook, at most 300 squares", "300"),
    ];
    for (clause, number) in clauses {
        let text = format!("{base}{clause}\n");
        let checked = tafl::check::check_text("numbers.tafl", &text);
        let start = text.rfind(number).unwrap();
        let error = checked
            .diagnostics
            .items()
            .iter()
            .find(|item| item.code == Code::BadNumber)
            .unwrap_or_else(|| panic!("`{clause}` accepted: {:?}", checked.diagnostics.items()));
        assert_eq!(error.severity, tafl::Severity::Error, "{clause}");
        assert!(
            error.message.contains("at most"),
            "{clause}: {}",
            error.message
        );
        assert_eq!(error.labels[0].span.start, start, "{clause}");
        assert_eq!(error.labels[0].span.end, start + number.len(), "{clause}");
        assert!(checked.diagnostics.has_errors(), "{clause}");
    }
    // The largest each clause holds is accepted.
    for text in [
        format!("{base}the game is drawn after 1000000 moves without capture\n"),
        base.replace(
            "everyone moves like a rook",
            "everyone moves like a rook, at most 255 squares",
        ),
    ] {
        let checked = tafl::check::check_text("numbers.tafl", &text);
        assert!(
            !checked.diagnostics.has_errors(),
            "{text}: {:?}",
            checked.diagnostics.items()
        );
    }
}

/// Numbers may be written in words wherever a number stands, and read as the number.
#[test]
fn numbers_in_words_read_as_numbers() {
    let brandubh = tafl::Variant::bundled("brandubh").expect("bundled");
    let text = brandubh
        .text
        .replace("a position occurs 3 times", "a position occurs three times")
        .replace(
            "everyone moves like a rook",
            "everyone moves like a rook, at most two squares",
        );
    let checked = tafl::check::check_text("words.tafl", &text);
    assert!(
        !checked.diagnostics.has_errors(),
        "{:?}",
        checked.diagnostics.items()
    );
    let (rules, _) = checked.rules.expect("the rules are built");
    assert_eq!(rules.outcome.repetition.map(|r| r.occurrences), Some(3));
    assert!(rules
        .pieces
        .iter()
        .all(|piece| piece.movement.max_distance == Some(2)));
}

/// `the defenders lose when a position repeats three times` is refused (is that three
/// occurrences or four?) with help on counting occurrences, not "say who wins instead":
/// `the defenders lose when ...` is a clause.
#[test]
fn repeats_with_a_count_is_helped_to_occurs() {
    let brandubh = tafl::Variant::bundled("brandubh").expect("bundled");
    let text = format!(
        "{}\nthe defenders lose when a position repeats three times\n",
        brandubh.text
    );
    let checked = tafl::check::check_text("repeats.tafl", &text);
    let items = checked.diagnostics.items();
    assert_eq!(items.len(), 1, "{items:?}");
    let help = items[0].help.clone().unwrap_or_default();
    assert!(help.contains("when a position occurs 3 times"), "{help}");
    assert!(!help.contains("say who wins instead"), "{help}");
}

/// A restated default is a note, the file loads, and the fix deletes the whole line.
#[test]
fn a_restated_default_loads_with_a_note_that_deletes_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/default_restated.tafl");
    let text = std::fs::read_to_string(path)
        .expect("fixture is readable")
        .replace("\r\n", "\n");
    let checked = tafl::check::check_text("default_restated.tafl", &text);
    let items = checked.diagnostics.items();
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0].code, Code::DefaultRestated);
    assert_eq!(items[0].severity, tafl::Severity::Note);
    assert!(checked.rules.is_some());
    let fix = items[0].fix.as_ref().expect("a fix");
    let line = "soldiers are captured when sandwiched\n";
    assert_eq!(&text[fix.span.start..fix.span.end], line);
    assert_eq!(fix.replacement, "");
}
