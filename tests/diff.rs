//! `tafl diff A B`: the rule differences between two variants, in words.

use std::process::Command;

use tafl::Variant;

fn diff(a: &str, b: &str) -> String {
    let rules = |name: &str| Variant::bundled(name).expect("bundled").rules;
    tafl::diff::diff(a, &rules(a), b, &rules(b))
}

#[test]
fn diff_linnaeus_brettspielnetz() {
    insta::assert_snapshot!(
        "diff_linnaeus_brettspielnetz",
        diff("linnaeus", "brettspielnetz")
    );
}

#[test]
fn diff_dragonheelslair_v1_v3() {
    insta::assert_snapshot!(
        "diff_dragonheelslair-v1_dragonheelslair-v3",
        diff("dragonheelslair-v1", "dragonheelslair-v3")
    );
}

#[test]
fn diff_thrones_and_bones_readings() {
    insta::assert_snapshot!(
        "diff_thrones-and-bones_thrones-and-bones-pinshape",
        diff("thrones-and-bones", "thrones-and-bones-pinshape")
    );
}

#[test]
fn diff_linnaeus_fetlar_renames_and_resizes() {
    insta::assert_snapshot!("diff_linnaeus_fetlar", diff("linnaeus", "fetlar"));
}

#[test]
fn a_variant_does_not_differ_from_itself() {
    for name in tafl::bundled_names() {
        assert!(
            diff(name, name).ends_with("The rules are the same.\n"),
            "{name}"
        );
    }
}

#[test]
fn every_pair_differs_somewhere_and_the_cli_exits_0() {
    let names: Vec<&str> = tafl::bundled_names().collect();
    for a in &names {
        for b in &names {
            if a != b {
                assert!(
                    !diff(a, b).contains("The rules are the same."),
                    "{a} and {b} should differ"
                );
            }
        }
    }
    let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["diff", "linnaeus", "brettspielnetz"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        diff("linnaeus", "brettspielnetz")
    );
}

#[test]
fn diff_reports_jumps_berserk_moves_and_the_kings_sandwich() {
    let berserk = Variant::bundled("berserk").expect("bundled");
    let mut text = berserk.text.clone();
    for (from, to) in [
        (
            "the knight may jump over an attacker, capturing it",
            "the knight may jump over an attacker",
        ),
        (
            "after a capture the capturing piece must capture again while it can",
            "after a capture the capturing piece moves again",
        ),
        (
            "between two commanders, counting corners, except on the throne",
            "between two commanders, counting corners",
        ),
    ] {
        assert!(text.contains(from), "berserk.tafl says `{from}`");
        text = text.replacen(from, to, 1);
    }
    let changed = Variant::from_text("changed.tafl", &text).expect("the changed file loads");
    let report = tafl::diff::diff("berserk", &berserk.rules, "changed", &changed.rules);
    // One sentence a side for each of the three changed rules, and nothing else.
    let only_in = |label: &str, start: &str| {
        report
            .lines()
            .filter(|line| line.starts_with(&format!("  - only in {label}: {start}")))
            .count()
    };
    for start in [
        "Jump: Knights",
        "Berserk: after a capture",
        "Also: the King",
    ] {
        assert_eq!(only_in("berserk", start), 1, "{start}\n{report}");
        assert_eq!(only_in("changed", start), 1, "{start}\n{report}");
    }
    assert_eq!(report.matches("  - ").count(), 6, "{report}");
    assert!(report.contains("must capture"), "{report}");
    assert!(report.contains("one more move"), "{report}");
}
