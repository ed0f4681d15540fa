//! OpenTafl rules strings: every built-in string imports, lints clean and gives OpenTafl's perft
//! counts; export then import gives the same rules; export names every rule it cannot say.
//!
//! The strings are OpenTafl's own serialisation of its built-in variants
//! (`RulesSerializer.getRulesRecord`, jslater89/OpenTafl at 6895051) and the extra built-ins it
//! ships in `unbuilt/external-rules.conf`. The perft counts were obtained by driving OpenTafl's
//! own move generator (`GameState`) from the start position; docs/opentafl.md lists them.

use tafl::opentafl::{export, import, ImportError};
use tafl::{Engine, Rules, Variant};

const COPENHAGEN_START: &str =
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const TABLUT_START: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// A built-in OpenTafl variant: its name, rules string (the start spelled out), and OpenTafl's
/// perft counts to depth 3 where they are known.
struct Builtin {
    name: &'static str,
    rules: String,
    perft: Option<[u64; 3]>,
}

fn builtins() -> Vec<Builtin> {
    let builtin = |name, rules: String, perft| Builtin { name, rules, perft };
    vec![
        builtin(
            "Sea Battle 9x9",
            format!("dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:{TABLUT_START}"),
            Some([80, 4_400, 353_200]),
        ),
        builtin(
            "Fetlar",
            format!("dim:11 name:Fetlar atkf:y nj:n cj:n start:{COPENHAGEN_START}"),
            Some([116, 6_788, 806_344]),
        ),
        builtin(
            "Copenhagen",
            format!("dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:{COPENHAGEN_START}"),
            Some([116, 6_788, 806_344]),
        ),
        builtin(
            "Copenhagen (relaxed shieldwall)",
            format!(
                "dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y \
                 start:{COPENHAGEN_START}"
            ),
            None,
        ),
        builtin(
            "Brandub",
            "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
                .into(),
            Some([40, 960, 39_512]),
        ),
        builtin(
            "Tawlbwrdd",
            "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: \
             start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/"
                .into(),
            None,
        ),
        builtin(
            "Tablut",
            format!(
                "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: \
                 cenhe:tcnkTCNK linc:y start:{TABLUT_START}"
            ),
            Some([80, 4_400, 353_200]),
        ),
        builtin(
            "Foteviken Tablut",
            format!(
                "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: \
                 afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK \
                 aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: start:{TABLUT_START}"
            ),
            None,
        ),
        builtin(
            "Magpie",
            "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, \
             start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
                .into(),
            None,
        ),
        builtin(
            "Computer Fetlar",
            format!("dim:11 name:Computer_Fetlar tfr:w start:{COPENHAGEN_START}"),
            None,
        ),
        builtin(
            "Tablut 15x15",
            "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: \
             start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/\
             t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/"
                .into(),
            None,
        ),
        builtin(
            "Sea Battle 13x13 (Parlett)",
            "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: \
             start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/\
             6t6/5t1t5/4ttttt4/"
                .into(),
            None,
        ),
        builtin("Berserk", BERSERK.into(), None),
        builtin(
            "Alea Evangelii",
            "dim:19 name:Alea_Evangelii esc:c atkf:y \
             cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK \
             cenh: cenhe:tcnkTCNK tfr:w \
             start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/\
             4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/\
             7t1t1t7/t4t7t4t/19/2t2t7t2t2/"
                .into(),
            None,
        ),
    ]
}

/// OpenTafl's Berserk: commanders, a knight, king jumps and berserk turns.
const BERSERK: &str = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c \
    start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

/// The warnings of a variant (notes, such as Berserk's asymmetric setup, are fine).
fn warnings(variant: &Variant) -> Vec<String> {
    variant
        .warnings
        .items()
        .iter()
        .filter(|item| item.severity == tafl::Severity::Warning)
        .map(|item| item.message.clone())
        .collect()
}

fn imported(rules_string: &str) -> Variant {
    let text = import(rules_string).unwrap_or_else(|error| panic!("{rules_string}: {error}"));
    Variant::from_text("imported.tafl", &text)
        .unwrap_or_else(|error| panic!("{text}\nhas errors: {error:?}"))
}

#[test]
fn every_builtin_string_imports_and_lints_clean() {
    for builtin in builtins() {
        let variant = imported(&builtin.rules);
        assert!(
            warnings(&variant).is_empty(),
            "{}: warnings {:?}",
            builtin.name,
            warnings(&variant)
        );
    }
}

#[test]
fn imported_builtins_give_opentafls_perft_counts() {
    let mut checked = 0;
    for builtin in builtins() {
        let Some(counts) = builtin.perft else {
            continue;
        };
        let rules = imported(&builtin.rules).rules;
        let engine = Engine::new(&rules).unwrap();
        let start = engine.start();
        for (depth, count) in (1..).zip(counts) {
            assert_eq!(
                engine.perft(&start, depth),
                count,
                "{} perft {depth}",
                builtin.name
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 5, "five built-ins have published OpenTafl counts");
}

#[test]
fn berserk_imports_with_its_jumps_berserk_turns_and_commanders() {
    let variant = imported(BERSERK);
    assert!(warnings(&variant).is_empty(), "{:?}", warnings(&variant));
    let rules = variant.rules;
    let names = |list: &[String]| list.join(" ");
    let jumps: Vec<String> = rules
        .jumps
        .iter()
        .map(|jump| {
            format!(
                "{} over {} via [{}] captures {}",
                names(&jump.pieces),
                names(&jump.over),
                names(&jump.only_from_or_to),
                jump.captures
            )
        })
        .collect();
    assert_eq!(
        jumps,
        [
            "king over attacker via [throne corners] captures false", // kj:r
            "knight over attacker via [] captures true",              // default nj:c
            "commander over defender via [] captures false",          // default cj:j
        ]
    );
    assert_eq!(
        rules.berserk,
        Some(tafl::ir::Berserk::MoveWhileItCanCapture)
    );
    let sandwich = &rules.king_sandwiches[0];
    assert_eq!(
        (
            names(&sandwich.captors),
            names(&sandwich.counting),
            names(&sandwich.except_on)
        ),
        ("commander".into(), "corners".into(), "throne".into())
    );
    assert_eq!(rules.first_to_move, tafl::Side::Defenders);
}

#[test]
fn jumps_berserk_moves_and_sandwiches_export_only_as_opentafl_plays_them() {
    let text = import(BERSERK).unwrap();
    for (from, to, refused) in [
        // `kj:r` also lets the king jump from or onto the throne.
        (
            "only from or to the throne or the corners",
            "only from or to the corners",
            "the jump only from or to `corners`",
        ),
        // Restricted jumps take nothing in OpenTafl.
        (
            "only from or to the throne or the corners",
            "only from or to the throne or the corners, capturing it",
            "the jump only from or to `throne`, `corners`",
        ),
        // Only plain men are jumped.
        (
            "knights may jump over an attacker, capturing it",
            "knights may jump over an attacker and a commander, capturing them",
            "the jump over `attacker`, `commander`",
        ),
        // OpenTafl spares the king on the throne and counts hostile corners.
        (
            "counting corners, except on the throne",
            "counting corners",
            "the king's capture between two pieces",
        ),
        (
            "counting corners, except on the throne",
            "except on the throne",
            "the king's capture between two pieces",
        ),
        (
            "the king is also captured between two commanders, counting corners, except on the throne",
            "",
            "a strong king with commanders or knights among the attackers",
        ),
        (
            "after a capture the capturing piece moves again while it can capture",
            "after a capture the capturing piece must capture again while it can",
            "berserk moves that must capture",
        ),
    ] {
        assert!(text.contains(from), "the import says `{from}`:\n{text}");
        let changed = text.replacen(from, to, 1);
        let rules = Variant::from_text("changed.tafl", &changed)
            .unwrap_or_else(|error| panic!("{changed}\nhas errors: {error:?}"))
            .rules;
        let error = export(&rules).expect_err(&format!("`{to}` exported")).to_string();
        assert!(error.contains(refused), "`{to}`: {error}");
    }
    let moves_again = text.replacen("moves again while it can capture", "moves again", 1);
    let rules = Variant::from_text("moves-again.tafl", &moves_again)
        .unwrap()
        .rules;
    assert!(export(&rules).unwrap().contains(" ber:m "));
}

#[test]
fn commanders_and_knights_of_both_sides_round_trip_whatever_their_jumps() {
    // Knights that jump only from or to special squares and take nothing, and commanders that
    // do not jump: their jumps alone would not tell their type.
    let string = "dim:7 name:Mixed kj:c nj:r cj:n start:/3t3/2ntc2/3T3/ttTKTtt/3C3/3N3/3t3/";
    let rules = imported(string).rules;
    let symbols: String = rules.pieces.iter().map(|piece| piece.symbol).collect();
    assert_eq!(symbols, "tcnTCNK");
    let exported = export(&rules).unwrap();
    for key in ["kj:c", "nj:r", "cj:n"] {
        assert!(exported.contains(key), "{exported}");
    }
    assert_eq!(imported(&exported).rules, rules, "exported as {exported}");

    // Both sides' knights share `nj`: one side's cannot jump while the other's do.
    let text = import(string).unwrap();
    let one_side =
        "attacker-knights may jump over a defender, only from or to the throne or the corners";
    assert!(text.contains(one_side), "{text}");
    let changed = text.replacen(one_side, "", 1);
    let rules = Variant::from_text("changed.tafl", &changed).unwrap().rules;
    let error = export(&rules).unwrap_err().to_string();
    assert!(error.contains("two jumps for `n` pieces"), "{error}");
}

#[test]
fn a_throne_named_only_by_a_restricted_jump_is_exported() {
    // Everyone may stop on the throne and it is hostile to nobody: only `kj:r` needs it.
    let string = "dim:7 name:Open_throne kj:r cens:tcnkmTCNKM cenh: cenhe: \
        start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let rules = imported(string).rules;
    assert_eq!(rules.jumps[0].only_from_or_to, ["throne", "corners"]);
    let exported = export(&rules).unwrap();
    assert_eq!(imported(&exported).rules, rules, "exported as {exported}");
}

#[test]
fn mercenaries_and_guards_are_refused_by_name() {
    let Err(ImportError::Unsupported(rules)) =
        import("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3m3/3g3/")
    else {
        panic!("mercenaries and guards imported");
    };
    let keys: Vec<&str> = rules.iter().map(|rule| rule.key.as_str()).collect();
    assert_eq!(keys, ["start (m)", "start (g)"]);
}

#[test]
fn every_key_of_a_string_shows_in_a_comment() {
    for builtin in builtins() {
        let text = import(&builtin.rules).unwrap();
        let comments: String = text
            .lines()
            .skip(4) // the header quotes the whole string
            .filter_map(|line| line.split_once('#').map(|(_, comment)| comment))
            .collect();
        for entry in builtin.rules.split_whitespace() {
            let key = entry.split_once(':').map_or(entry, |(key, _)| key);
            if ["nj", "cj", "start"].contains(&key) {
                continue; // no knights or commanders on the board; the setup says `start`
            }
            assert!(
                comments.contains(&format!("{key}:")),
                "{}: no clause names `{key}`:\n{text}",
                builtin.name
            );
        }
    }
}

#[test]
fn export_then_import_gives_the_same_rules_for_every_builtin() {
    for builtin in builtins() {
        let rules = imported(&builtin.rules).rules;
        let string = export(&rules).unwrap_or_else(|error| panic!("{}: {error}", builtin.name));
        let again = imported(&string).rules;
        assert_eq!(rules, again, "{}: exported as {string}", builtin.name);
    }
}

/// The rules a rules string carries: names, notes, sources and draw offers are not part of it,
/// and pieces are known by their OpenTafl letter.
fn opentafl_view(rules: &Rules) -> serde_json::Value {
    let mut json = rules.to_json();
    for piece in &rules.pieces {
        let name = match piece.symbol {
            't' => "attacker",
            'T' => "defender",
            _ => "king",
        };
        json = json.replace(&format!("\"{}\"", piece.name), &format!("\"{name}\""));
    }
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    for field in ["name", "source", "family", "notes", "sides"] {
        value[field] = serde_json::Value::Null;
    }
    value["outcome"]["draw_by_agreement"] = serde_json::Value::Null;
    for piece in value["pieces"].as_array_mut().unwrap() {
        piece["display"] = serde_json::Value::Null;
    }
    for list in ["access", "hostility"] {
        value[list]
            .as_array_mut()
            .unwrap()
            .sort_by_key(ToString::to_string);
    }
    // Both encirclement endings give the same result; a rules string has no order for them.
    value["outcome"]["encirclements"]
        .as_array_mut()
        .unwrap()
        .sort_by_key(ToString::to_string);
    let used = |region: &str| {
        region == "edge" || {
            let text = value.to_string();
            text.matches(&format!("\"{region}\"")).count() > 1
        }
    };
    let regions: Vec<serde_json::Value> = value["regions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|region| used(region["name"].as_str().unwrap()))
        .cloned()
        .collect();
    value["regions"] = serde_json::Value::Array(regions);
    value
}

#[test]
fn bundled_variants_opentafl_can_express_round_trip() {
    let mut expressible = Vec::new();
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).unwrap().rules;
        let Ok(string) = export(&rules) else { continue };
        let again = imported(&string).rules;
        assert_eq!(
            opentafl_view(&rules),
            opentafl_view(&again),
            "{name}: exported as {string}"
        );
        expressible.push(name);
    }
    assert!(
        expressible.contains(&"brandubh"),
        "brandubh is OpenTafl's Brandub and must export: {expressible:?}"
    );
}

#[test]
fn exporting_names_every_rule_opentafl_cannot_say() {
    let mut report = String::new();
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).unwrap().rules;
        match export(&rules) {
            Ok(string) => report += &format!("{name}: {string}\n"),
            Err(error) => report += &format!("{name}: {error}\n"),
        }
    }
    insta::assert_snapshot!(report);
}

fn tafl(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_import_writes_a_file_that_plays_as_the_string() {
    let brandub = &builtins()[4];
    assert_eq!(brandub.name, "Brandub");
    let dir = std::env::temp_dir().join(format!("tafl-opentafl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("brandub.tafl");
    let file_arg = file.to_str().unwrap();
    let output = tafl(&["import", "--opentafl", &brandub.rules, "-o", file_arg]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stdout.is_empty());
    let output = tafl(&["perft", file_arg, "3"]);
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "39512");
    let printed = tafl(&["import", "--opentafl", &brandub.rules]);
    assert_eq!(printed.stdout, std::fs::read(&file).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_import_rejects_bad_strings_with_the_reason() {
    for (rules, says) in [
        (
            "dim:7 name:X start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/",
            "6 rows for a board of 7",
        ),
        (
            "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ ks:q",
            "`ks:q`",
        ),
        (
            "dim:7 foo:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "unknown key `foo`",
        ),
        ("name:X start:/3t3/", "no `dim`"),
        (
            "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3m3/3t3/",
            "mercenaries",
        ),
        ("dim:5 start:/5/5/2KK1/5/5/", "2 kings are set up"),
    ] {
        let output = tafl(&["import", "--opentafl", rules]);
        assert_eq!(output.status.code(), Some(1), "{rules}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{rules}: {stderr}");
    }
}

#[test]
fn cli_export_prints_the_string_or_every_rule_it_cannot_say() {
    let output = tafl(&["export", "--opentafl", "brandubh"]);
    assert!(output.status.success());
    let string = String::from_utf8_lossy(&output.stdout);
    assert!(string.starts_with("dim:7 name:Brandubh "), "{string}");
    let output = tafl(&["export", "--opentafl", "tafl-leaflet"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("announcement `Raichi`"), "{stderr}");
    assert!(stderr.contains("announcement `Tuichi`"), "{stderr}");
}

#[test]
fn the_nearest_string_of_every_bundled_variant_imports_and_names_every_difference() {
    for name in tafl::bundled_names() {
        let rules = Variant::bundled(name).unwrap().rules;
        let nearest = tafl::opentafl::export_nearest(&rules);
        match export(&rules) {
            Ok(exact) => {
                assert_eq!(nearest.rules_string, exact, "{name}");
                assert!(nearest.differences.is_empty(), "{name}");
            }
            Err(error) => assert_eq!(nearest.differences, error.rules, "{name}"),
        }
        // OpenTafl must be able to open it: our importer reads OpenTafl's strings as OpenTafl does.
        if let Err(error) = tafl::opentafl::import(&nearest.rules_string) {
            panic!(
                "{name}: the nearest string `{}` does not import: {error}",
                nearest.rules_string
            );
        }
    }
}

#[test]
fn cli_export_nearest_prints_copenhagen_and_lists_what_changes() {
    let refused = tafl(&["export", "--opentafl", "copenhagen"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    let output = tafl(&["export", "--opentafl", "--nearest", "copenhagen"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    // The repetition rule becomes OpenTafl's nearest (the side that repeats loses) and the fort
    // stays; the always-on "surrounded" ending is OpenTafl's default.
    assert!(
        stdout.contains(" tfr:w ") && stdout.contains(" efe:y "),
        "{stdout}"
    );
    assert!(stderr.contains("2 rule(s)"), "{stderr}");
    assert!(stderr.contains("written as `tfr:w` instead"), "{stderr}");
    assert!(stderr.contains("left to OpenTafl's default"), "{stderr}");
    let imported = tafl::opentafl::import(stdout.trim()).unwrap();
    assert!(imported.contains("edge fort"), "{imported}");
}
