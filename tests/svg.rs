//! `tafl show VARIANT --svg FILE`: the start-position picture, and the pictures committed under
//! docs/img for docs/variants.md.

use tafl::Variant;

fn svg(name: &str) -> String {
    tafl::svg::start_position_svg(&Variant::bundled(name).expect("bundled").rules)
}

#[test]
fn brandubh_svg_snapshot() {
    insta::assert_snapshot!("svg_brandubh", svg("brandubh"));
}

/// Every tag is closed, in order, and the document is one `<svg>` element: XML enough for a
/// browser. Text may not hold a bare `<` or `&`.
fn assert_balanced(name: &str, text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text.trim();
    assert!(
        rest.starts_with("<svg "),
        "{name}: does not start with <svg"
    );
    let mut roots = 0;
    while let Some(open) = rest.find('<') {
        let between = &rest[..open];
        assert!(!between.contains('>'), "{name}: stray > in {between:?}");
        if let Some(amp) = between.find('&') {
            let entity = &between[amp..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "{name}: bare & in {between:?}"
            );
        }
        let close = rest[open..].find('>').expect("tag closed") + open;
        let tag = &rest[open + 1..close];
        if let Some(end) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("{name}: </{end}> without opening"));
            assert_eq!(top, end.trim(), "{name}: </{end}> closes <{top}>");
        } else if !tag.ends_with('/') {
            let element: String = tag.chars().take_while(|c| !c.is_whitespace()).collect();
            if stack.is_empty() {
                roots += 1;
            }
            stack.push(element);
        } else if stack.is_empty() {
            panic!("{name}: empty element outside the root");
        }
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "{name}: unbalanced quotes in <{tag}>"
        );
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "{name}: unclosed {stack:?}");
    assert_eq!(roots, 1, "{name}: one root element");
    assert!(rest.trim().is_empty(), "{name}: text after the root");
}

#[test]
fn every_bundled_svg_is_balanced_xml() {
    for name in tafl::bundled_names() {
        let text = svg(name);
        assert_balanced(name, &text);
        let pieces = Variant::bundled(name).unwrap().rules.start_pieces().len();
        assert_eq!(
            text.matches(r#"<g class="piece" data-square=""#).count()
                - text.matches(r#"data-square="legend""#).count(),
            pieces,
            "{name}: one glyph per piece"
        );
    }
}

#[test]
fn the_checker_rejects_broken_svg() {
    let broken = std::panic::catch_unwind(|| assert_balanced("broken", "<svg a=\"1\"><g></svg>"));
    assert!(broken.is_err());
}

/// docs/img/<variant>.svg is what `tafl show <variant> --svg` writes today. To refresh them:
/// `for v in $(tafl list | cut -d' ' -f1); do tafl show $v --svg docs/img/$v.svg; done`.
#[test]
fn committed_pictures_are_up_to_date() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/img");
    for name in tafl::bundled_names() {
        let path = format!("{dir}/{name}.svg");
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!("{path}: {error}; generate it with tafl show {name} --svg")
        });
        assert!(
            committed == svg(name),
            "{path} is out of date: run `tafl show {name} --svg docs/img/{name}.svg`"
        );
    }
}

#[test]
fn show_svg_writes_the_file() {
    let dir = std::env::temp_dir().join(format!("tafl-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("linnaeus.svg");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["show", "linnaeus", "--svg"])
        .arg(&path)
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), svg("linnaeus"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/variants.md has a section and the picture of every bundled variant, and a column in a
/// table of differences.
#[test]
fn the_catalogue_lists_every_variant() {
    let catalogue =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/variants.md")).unwrap();
    for name in tafl::bundled_names() {
        assert!(
            catalogue.contains(&format!("### {name}\n")),
            "{name}: no section"
        );
        assert!(
            catalogue.contains(&format!("(img/{name}.svg)")),
            "{name}: no picture"
        );
        assert!(
            catalogue
                .lines()
                .any(|line| line.starts_with("| rule |") && line.contains(&format!(" {name} "))),
            "{name}: no column in a table of differences"
        );
    }
}

/// docs/variants.md's table of the whole library is what `tafl list` says: one row a bundled
/// variant, with its family, board and escape (issue 46).
#[test]
fn the_library_table_is_the_list() {
    let catalogue =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/variants.md")).unwrap();
    let start = catalogue
        .find("<!-- library:start -->")
        .expect("docs/variants.md has the library table");
    let end = catalogue.find("<!-- library:end -->").unwrap();
    let rows: Vec<Vec<String>> = catalogue[start..end]
        .lines()
        .filter(|line| line.starts_with("| ["))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["list", "--json"])
        .output()
        .expect("the binary runs");
    let list: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(rows.len(), list.len(), "one row a bundled variant");
    for (row, entry) in rows.iter().zip(&list) {
        let name = entry["name"].as_str().unwrap();
        assert_eq!(row[0], format!("[{name}](#{name})"));
        assert_eq!(row[1], entry["family"].as_str().unwrap_or("-"), "{name}");
        assert_eq!(row[2], entry["board"].as_str().unwrap(), "{name}");
        assert_eq!(row[3], entry["escape"].as_str().unwrap(), "{name}");
    }
}

/// `tafl selfplay --svg`: the balance chart, with fixed figures.
fn chart() -> String {
    tafl::svg::balance_chart(&tafl::svg::Balance {
        variant: "Copenhagen".to_string(),
        games: 40,
        attackers: tafl::svg::Outcome {
            count: 14,
            low: 0.2215,
            high: 0.5057,
        },
        defenders: tafl::svg::Outcome {
            count: 21,
            low: 0.3769,
            high: 0.6714,
        },
        draws: tafl::svg::Outcome {
            count: 5,
            low: 0.0546,
            high: 0.2607,
        },
        capped: 3,
        cap: 400,
        budget: "depth 3".to_string(),
        openings: 4,
        seed: 1,
        mean_plies: 87.25,
    })
}

#[test]
fn balance_chart_snapshot() {
    let svg = chart();
    assert_balanced("chart", &svg);
    insta::assert_snapshot!("svg_balance_chart", svg);
}

#[test]
fn the_chart_reads_on_any_background_and_writes_its_figures() {
    let svg = chart();
    // An opaque page behind black text (drawn by plotters, which writes colours in capitals).
    assert!(svg.contains(r##"<rect x="0" y="0" width="800""##), "{svg}");
    assert!(svg.contains(r##"fill="#FFFFFF" stroke="none"/>"##), "{svg}");
    assert!(svg.contains(r##"fill="#000000""##), "{svg}");
    // The figures, the draws' interval, the capped games and the budget.
    for text in [
        "14 of 40 (35.0%; 95%: 22.1–50.6%)",
        "21 of 40 (52.5%; 95%: 37.7–67.1%)",
        "5 of 40 (12.5%; 95%: 5.5–26.1%), 3 at the ply limit",
        "to depth 3, after 4 random opening plies (seed 1)",
        "after 400 plies counts as a draw",
        ">\n0%\n<",
        ">\n100%\n<",
    ] {
        assert!(svg.contains(text), "`{text}` is not in {svg}");
    }
    // Three whiskers, one per outcome: the only lines drawn two wide.
    assert_eq!(svg.matches(r#"stroke-width="2""#).count(), 3);
}

/// Issue 62: a variant whose name, family and notes hold control characters (ESC, BEL, a C1
/// CSI) and XML's own `<&>`: every SVG a command writes for it parses as XML, and holds none of
/// those characters raw.
#[test]
fn every_svg_of_a_hostile_variant_is_well_formed_xml() {
    let dir = tempfile::tempdir().unwrap();
    let variant = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/lint/control_character.tafl"
    );
    let record = dir.path().join("game.txt");
    std::fs::write(&record, "d6-c6 c4-c5\n").unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let runs: Vec<(Vec<String>, Option<String>)> = vec![
        (
            vec![
                "show".into(),
                variant.into(),
                "--svg".into(),
                path("show.svg"),
            ],
            Some(path("show.svg")),
        ),
        (vec!["show".into(), variant.into(), "--svg".into()], None),
        (
            ["report", variant, "--games", "2", "--depth", "1", "--svg"]
                .map(String::from)
                .into_iter()
                .chain([path("report")])
                .collect(),
            Some(path("report/outcome.svg")),
        ),
        (
            ["selfplay", variant, "--games", "2", "--depth", "1", "--svg"]
                .map(String::from)
                .into_iter()
                .chain([path("selfplay.svg")])
                .collect(),
            Some(path("selfplay.svg")),
        ),
        (
            [
                "balance",
                variant,
                "--rungs",
                "5",
                "--games",
                "2",
                "--threads",
                "1",
                "--svg",
            ]
            .map(String::from)
            .into_iter()
            .chain([path("balance.svg")])
            .collect(),
            Some(path("balance.svg")),
        ),
        (
            vec![
                "games".into(),
                "stats".into(),
                variant.into(),
                record.to_str().unwrap().into(),
                "--svg".into(),
                path("stats.svg"),
            ],
            Some(path("stats.svg")),
        ),
    ];
    for (args, file) in runs {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
            .args(&args)
            .env("NO_COLOR", "1")
            .output()
            .expect("the binary runs");
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = match file {
            Some(file) => std::fs::read_to_string(file).unwrap(),
            None => String::from_utf8(output.stdout).unwrap(),
        };
        if let Err(error) = roxmltree::Document::parse(&text) {
            panic!("{args:?}: not XML ({error}):\n{text}");
        }
        assert!(
            !text
                .chars()
                .any(|c| c == '\u{1b}' || c == '\u{7}' || c == '\u{9b}'),
            "{args:?}: a control character:\n{text}"
        );
        assert!(
            text.contains("&lt;&amp;&gt;") || !text.contains("Hostile"),
            "{args:?}"
        );
    }
}
