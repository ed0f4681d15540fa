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

/// The rules a report names, direction aside: for each section, the number of lines that say a
/// rule is only in one variant or the other, and the other lines (pieces, squares, starts). The
/// sentences themselves are worded with the first variant's names, so they are not compared.
fn named_rules(report: &str, first: &str, second: &str) -> Vec<(String, usize, usize, usize)> {
    let mut sections: Vec<(String, usize, usize, usize)> = Vec::new();
    let lines: Vec<&str> = report.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        let underline = lines.get(index + 1).is_some_and(|next| {
            !next.is_empty() && next.chars().all(|c| c == '-') && next.len() == line.chars().count()
        });
        if underline {
            // The king's section is titled with the first variant's name for him.
            let title = if line.starts_with("Capturing the ") {
                "Capturing the king"
            } else {
                line
            };
            sections.push((title.to_string(), 0, 0, 0));
        } else if let (Some(bullet), Some(section)) =
            (line.strip_prefix("  - "), sections.last_mut())
        {
            if bullet.starts_with(&format!("only in {first}: ")) {
                section.1 += 1;
            } else if bullet.starts_with(&format!("only in {second}: ")) {
                section.2 += 1;
            } else {
                section.3 += 1;
            }
        }
    }
    sections.sort();
    sections
}

/// `diff A B` and `diff B A` name the same rules, whichever board is larger: the rule sections
/// (movement, capture, the king, the end of the game) are compared whatever the boards' sizes.
#[test]
fn diff_names_the_same_rules_both_ways_for_every_pair() {
    let names: Vec<&str> = tafl::bundled_names().collect();
    for a in &names {
        for b in &names {
            if a >= b {
                continue;
            }
            let forward = named_rules(&diff(a, b), a, b);
            let backward: Vec<_> = named_rules(&diff(b, a), b, a)
                .into_iter()
                .map(|(title, only_b, only_a, other)| (title, only_a, only_b, other))
                .collect();
            assert_eq!(forward, backward, "diff {a} {b} against diff {b} {a}");
        }
    }
    // Copenhagen (11 x 11) against Brandubh (7 x 7): the larger board first used to lose every
    // rule section.
    let report = diff("copenhagen", "brandubh");
    for title in ["Capturing", "Capturing the King", "End of the game"] {
        assert!(
            report.contains(&format!("\n{title}\n")),
            "{title} missing from\n{report}"
        );
    }
}

/// Start positions are compared by role: the same start written with other letters (`a` and
/// `D` for the attackers' and defenders' soldiers instead of `t` and `T`) is no difference.
#[test]
fn start_positions_are_compared_by_role_not_letter() {
    let brandubh = Variant::bundled("brandubh").expect("bundled");
    let relettered = brandubh
        .text
        .lines()
        .map(|line| {
            let row = line.trim_start();
            let is_row = !row.is_empty() && row.chars().all(|c| ".tTK ".contains(c));
            if is_row {
                line.replace('t', "a").replace('T', "D")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let text = relettered
        .replace("piece t attacker:", "piece a attacker:")
        .replace("piece T defender:", "piece D defender:");
    let changed = Variant::from_text("relettered.tafl", &text).expect("the relettered file loads");
    let report = tafl::diff::diff("brandubh", &brandubh.rules, "relettered", &changed.rules);
    assert!(!report.contains("Start position"), "{report}");
    assert!(report.contains("Pieces"), "the letters differ: {report}");
}

/// Where a side has several kinds of soldier, starts are compared by kind as well: Berserk's
/// commanders differ from Copenhagen's attackers on the same squares, its attackers do not.
#[test]
fn starts_with_several_kinds_of_soldier_are_compared_by_name() {
    let report = diff("berserk", "copenhagen");
    let start = report
        .split("Start position\n")
        .nth(1)
        .expect("the starts differ")
        .split("\n\n")
        .next()
        .unwrap_or_default();
    assert!(start.contains("f10: c Commander"), "{start}");
    assert!(start.contains("e5: N Knight"), "{start}");
    assert!(
        !start.contains("t Attacker (a soldier of the Attackers) in berserk"),
        "{start}"
    );
}
