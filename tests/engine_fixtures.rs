//! The IR fixtures in `tests/data/` (used by the CLI tests until the bundled variant files parse)
//! must equal the rules written in Rust in `tafl::engine::testing`. Run with `TAFL_BLESS=1` to
//! rewrite them.

use tafl::engine::testing;

#[test]
fn fixtures_match_the_rust_rules() {
    for (name, rules) in [
        ("linnaeus", testing::linnaeus()),
        ("brettspielnetz", testing::brettspielnetz()),
        ("fetlar11", testing::fetlar11()),
    ] {
        let path = format!("{}/tests/data/{name}.ir.json", env!("CARGO_MANIFEST_DIR"));
        let json = rules.to_json() + "\n";
        if std::env::var_os("TAFL_BLESS").is_some() {
            std::fs::write(&path, &json).unwrap();
        }
        let stored = std::fs::read_to_string(&path).unwrap();
        assert_eq!(stored, json, "{path} is stale: rerun with TAFL_BLESS=1");
        assert_eq!(tafl::Rules::from_json(&stored).unwrap(), rules);
    }
}
