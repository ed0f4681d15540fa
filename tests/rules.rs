//! Behaviour snapshots: every bundled variant plays as its source says, clause by clause.
//!
//! Each file `tests/rules/<variant>/<name>.txt` is one scenario for the bundled variant named by
//! its folder. The runner loads the variant, sets up the position, plays the moves through
//! [`Game`], snapshots a readable report and checks the `expect:` lines, so a regression fails
//! even if someone accepts the snapshots without reading them.
//!
//! # Scenario format
//!
//! ```text
//! # Free comments start with `#` (outside the diagram).
//! source: "6. A piece other than the king is captured when it is surrounded ..."
//! claim: a defender between two attackers is taken when the second attacker arrives
//! to move: attackers
//! position:
//!      a b c d e f g h i
//!   9  . . . . . . . . .
//!   ...
//!   1  . . . . . . . . K
//! moves: a4-d4
//! expect: ongoing
//! captured: d3
//! ```
//!
//! - `source:` (one or more lines): the sentence of the source text the scenario checks, quoted.
//! - `claim:` one line: what the scenario shows.
//! - `to move:` `attackers` or `defenders`.
//! - `position: start` for the variant's own start position (then `to move:` is optional and,
//!   when given, checked against who moves first), or `position:` followed by the diagram, one row per rank, top rank first. Cells are the
//!   variant's piece symbols or `.`, separated by spaces. A header line of file letters
//!   (`a b c ...`) and a rank number at the start of each row are optional and ignored.
//! - `moves:` the moves in order (`e1-e3`), possibly none. Two words stand for actions that are
//!   not moves: `claim` (the side to move claims a draw) and `agree` (the players agree a draw).
//! - `expect:` the result after the last move:
//!   - `ongoing`, or `<status> <reason>` such as `attackers_win king_captured`,
//!     `defenders_win king_escaped`, `draw repetition`, `draw no_moves` (status and reason as
//!     the CLI's `replay --json` spells them);
//!   - `illegal [<why>]`: the *last* move is refused (every earlier one must be legal); `<why>` is
//!     the refusal's kind in snake case (`may_not_land`, `may_not_pass`, `back_and_forth`,
//!     `occupied`, `blocked`, ...), and when given it must match;
//!   - `claim_refused`: the last action, a `claim`, is refused.
//! - `captured:` (optional) the squares the last legal move captured, or `none`.
//! - `disagrees:` (optional) a known disagreement: `expect:`/`captured:` then say what the
//!   *source* says, the test asserts that the engine does *not* do it (so the scenario fails, and
//!   asks for the line to go, once the engine or the variant file is fixed), and the report ends
//!   with `DISAGREEMENT: <text>`.
//!
//! The report shows the quoted sentence, the claim, the position before, every move with its
//! captures (or the refusal with the variant clause and line that forbids it, as `tafl replay`
//! words it), the board after, the side to move, and the status with its reason.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use tafl::engine::{Engine, IllegalReason, Position};
use tafl::game::notation::parse_position;
use tafl::{Game, Move, Side, Variant};

/// A scenario file, read.
struct Scenario {
    sources: Vec<String>,
    claim: String,
    to_move: Option<Side>,
    /// `position: start`: the variant's own start position.
    start: bool,
    rows: Vec<Vec<char>>,
    moves: Vec<String>,
    expect: Expect,
    captured: Option<Vec<String>>,
    /// `disagrees:` a known disagreement between the source and the engine or variant file.
    disagrees: Option<String>,
}

#[derive(Debug, PartialEq, Eq)]
enum Expect {
    /// `status` and, unless ongoing, the reason.
    Outcome {
        status: String,
        reason: Option<String>,
    },
    /// The last move is refused, for this reason when given.
    Illegal(Option<String>),
    /// The last action, a claim, is refused.
    ClaimRefused,
}

fn parse_scenario(name: &str, text: &str) -> Scenario {
    let mut sources = Vec::new();
    let mut claim = None;
    let mut to_move = None;
    let mut rows = Vec::new();
    let mut moves = None;
    let mut expect = None;
    let mut captured = None;
    let mut disagrees = None;
    let mut in_diagram = false;
    let mut start = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some((key, value)) = key_value(trimmed) {
            in_diagram = false;
            match key {
                "source" => sources.push(value.to_string()),
                "claim" => claim = Some(value.to_string()),
                "to move" => {
                    to_move = Some(match value {
                        "attackers" => Side::Attackers,
                        "defenders" => Side::Defenders,
                        other => panic!("{name}: `to move: {other}`: write attackers or defenders"),
                    })
                }
                "position" if value == "start" => start = true,
                "position" => {
                    assert!(
                        value.is_empty(),
                        "{name}: the diagram starts on the next line"
                    );
                    in_diagram = true;
                }
                "moves" => moves = Some(value.split_whitespace().map(str::to_string).collect()),
                "expect" => expect = Some(parse_expect(name, value)),
                "captured" => {
                    captured = Some(if value == "none" {
                        Vec::new()
                    } else {
                        value.split_whitespace().map(str::to_string).collect()
                    })
                }
                "disagrees" => disagrees = Some(value.to_string()),
                other => panic!("{name}: unknown key `{other}:`"),
            }
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        } else if in_diagram {
            let cells: Vec<&str> = trimmed.split_whitespace().collect();
            let header = cells
                .iter()
                .enumerate()
                .all(|(i, cell)| *cell == ((b'a' + i as u8) as char).to_string());
            if header {
                continue;
            }
            let cells = match cells.first() {
                Some(first) if first.chars().all(|c| c.is_ascii_digit()) => &cells[1..],
                _ => &cells[..],
            };
            let row = cells
                .iter()
                .map(|cell| {
                    let mut chars = cell.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => c,
                        _ => panic!("{name}: diagram cell `{cell}` is not one symbol"),
                    }
                })
                .collect();
            rows.push(row);
        } else {
            panic!("{name}: line `{trimmed}` is neither a key nor part of the diagram");
        }
    }
    let sources = if sources.is_empty() {
        panic!("{name}: quote the source sentence with `source: \"...\"`")
    } else {
        sources
    };
    for source in &sources {
        assert!(
            source.starts_with('"') && source.ends_with('"') && source.len() > 2,
            "{name}: quote the source sentence in double quotes"
        );
    }
    Scenario {
        sources,
        claim: claim.unwrap_or_else(|| panic!("{name}: say what it shows with `claim:`")),
        to_move: if start {
            to_move
        } else {
            Some(to_move.unwrap_or_else(|| panic!("{name}: `to move:` is missing")))
        },
        start,
        rows,
        moves: moves.unwrap_or_else(|| panic!("{name}: `moves:` is missing (it may be empty)")),
        expect: expect.unwrap_or_else(|| panic!("{name}: `expect:` is missing")),
        captured,
        disagrees,
    }
}

/// `key: value` for the known keys; the diagram's rows never contain a colon.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    (!key.is_empty() && key.chars().all(|c| c.is_ascii_lowercase() || c == ' '))
        .then(|| (key, value.trim()))
}

fn parse_expect(name: &str, value: &str) -> Expect {
    let words: Vec<&str> = value.split_whitespace().collect();
    match words.as_slice() {
        ["ongoing"] => Expect::Outcome {
            status: "ongoing".into(),
            reason: None,
        },
        ["illegal"] => Expect::Illegal(None),
        ["illegal", why] => Expect::Illegal(Some(why.to_string())),
        ["claim_refused"] => Expect::ClaimRefused,
        [status @ ("attackers_win" | "defenders_win" | "draw"), reason] => Expect::Outcome {
            status: status.to_string(),
            reason: Some(reason.to_string()),
        },
        _ => panic!("{name}: `expect: {value}` is not understood"),
    }
}

/// The snake-case kind of a refusal, as `expect: illegal <why>` names it.
fn reason_kind(reason: &IllegalReason) -> &'static str {
    match reason {
        IllegalReason::NoPiece { .. } => "no_piece",
        IllegalReason::NotYourPiece { .. } => "not_your_piece",
        IllegalReason::NullMove => "null_move",
        IllegalReason::OffBoard { .. } => "off_board",
        IllegalReason::Occupied { .. } => "occupied",
        IllegalReason::NotInLine => "not_in_line",
        IllegalReason::Blocked { .. } => "blocked",
        IllegalReason::TooFar { .. } => "too_far",
        IllegalReason::MayNotLand { .. } => "may_not_land",
        IllegalReason::MayNotPass { .. } => "may_not_pass",
        IllegalReason::BackAndForth { .. } => "back_and_forth",
        IllegalReason::BerserkerMovesAgain { .. } => "berserker_moves_again",
        IllegalReason::BerserkMustCapture => "berserk_must_capture",
        IllegalReason::GameOver => "game_over",
        IllegalReason::ForeignPosition => "foreign_position",
        IllegalReason::NotGenerated => "not_generated",
    }
}

/// The position string (`/3t3/.../`, top rank first) of the diagram.
fn position_string(rows: &[Vec<char>]) -> String {
    let mut out = String::from("/");
    for row in rows {
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    write!(out, "{empty}").unwrap();
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        out.push('/');
    }
    out
}

/// The board with file letters above and rank numbers on the left.
fn board(engine: &Engine, position: &Position) -> String {
    let (width, height) = (engine.width(), engine.height());
    let mut cells = vec![vec!['.'; usize::from(width)]; usize::from(height)];
    for (square, kind) in engine.pieces(position) {
        cells[usize::from(square.rank)][usize::from(square.file)] =
            engine.rules().pieces[kind].symbol;
    }
    let mut out = String::from("     ");
    let files: Vec<String> = (0..width)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect();
    out.push_str(&files.join(" "));
    out.push('\n');
    for rank in (0..height).rev() {
        let row: Vec<String> = cells[usize::from(rank)]
            .iter()
            .map(char::to_string)
            .collect();
        writeln!(out, "  {:>2} {}", rank + 1, row.join(" ")).unwrap();
    }
    out
}

fn piece_name(engine: &Engine, position: &Position, mv: &Move) -> String {
    engine
        .piece_at(position, mv.from)
        .map(|kind| engine.rules().pieces[kind].display.clone())
        .unwrap_or_else(|| "no piece".into())
}

/// Plays the scenario, returns the report, and checks the `expect:`/`captured:` lines.
fn run(variant_name: &str, name: &str, scenario: &Scenario) -> String {
    let variant = Variant::bundled(variant_name)
        .unwrap_or_else(|e| panic!("{name}: bundled variant `{variant_name}`: {e}"));
    let engine = Arc::new(Engine::new(&variant.rules).expect("a bundled variant compiles"));
    let position = if scenario.start {
        assert!(
            scenario.rows.is_empty(),
            "{name}: `position: start` takes no diagram"
        );
        let start = engine.start();
        if let Some(side) = scenario.to_move {
            assert_eq!(engine.to_move(&start), side, "{name}: who moves first");
        }
        start
    } else {
        let text = position_string(&scenario.rows);
        let side = scenario.to_move.expect("checked when read");
        parse_position(&engine, &text, side)
            .unwrap_or_else(|e| panic!("{name}: the diagram ({text}): {e}"))
    };
    let mut game = Game::from_position(engine.clone(), position);

    let mut out = String::new();
    writeln!(out, "variant: {variant_name} ({})", variant.rules.name).unwrap();
    for source in &scenario.sources {
        writeln!(out, "source: {source}").unwrap();
    }
    writeln!(out, "claim: {}", scenario.claim).unwrap();
    writeln!(out).unwrap();
    let origin = if scenario.start {
        "the variant's start position"
    } else {
        "before"
    };
    writeln!(out, "{origin}, {} to move:", game.to_move().as_str()).unwrap();
    out.push_str(&board(&engine, game.position()));
    writeln!(out).unwrap();

    // What happened to the last action: refused (with its kind) or not.
    let mut refused: Option<&'static str> = None;
    let mut claim_refused = false;
    let mut last_captured: Option<Vec<String>> = None;
    writeln!(out, "moves:").unwrap();
    if scenario.moves.is_empty() {
        writeln!(out, "  (none)").unwrap();
    }
    for (i, word) in scenario.moves.iter().enumerate() {
        assert!(
            refused.is_none() && !claim_refused,
            "{name}: an action before `{word}` was refused; put the refused move last"
        );
        let ply = i + 1;
        let side = game.to_move().as_str();
        match word.as_str() {
            "claim" => match game.claim_draw() {
                Ok(ending) => writeln!(
                    out,
                    "  {ply}. {side} claim a draw: granted ({})",
                    ending.reason.as_str()
                )
                .unwrap(),
                Err(e) => {
                    writeln!(out, "  {ply}. {side} claim a draw: refused: {e}").unwrap();
                    claim_refused = true;
                }
            },
            "agree" => match game.agree_draw() {
                Ok(ending) => writeln!(
                    out,
                    "  {ply}. the players agree a draw: granted ({})",
                    ending.reason.as_str()
                )
                .unwrap(),
                Err(e) => {
                    writeln!(out, "  {ply}. the players agree a draw: refused: {e}").unwrap();
                    claim_refused = true;
                }
            },
            text => {
                let mv: Move = text
                    .parse()
                    .unwrap_or_else(|e| panic!("{name}: move {ply}: {e}"));
                let piece = piece_name(&engine, game.position(), &mv);
                match game.play(mv) {
                    Ok(played) => {
                        let captured: Vec<String> =
                            played.captured.iter().map(|s| s.to_string()).collect();
                        let shown = if captured.is_empty() {
                            "no capture".to_string()
                        } else {
                            format!("captures {}", captured.join(" "))
                        };
                        let ending = played
                            .ending
                            .map(|e| {
                                format!(
                                    "; game over: {} ({})",
                                    e.outcome.as_str(),
                                    e.reason.as_str()
                                )
                            })
                            .unwrap_or_default();
                        writeln!(out, "  {ply}. {side} {mv} ({piece}): {shown}{ending}").unwrap();
                        last_captured = Some(captured);
                    }
                    Err(illegal) => {
                        writeln!(out, "  {ply}. {side} {mv} ({piece}): REFUSED").unwrap();
                        writeln!(out, "     {}", illegal.describe(Some(&variant))).unwrap();
                        refused = Some(reason_kind(&illegal.reason));
                    }
                }
            }
        }
    }
    writeln!(out).unwrap();
    writeln!(out, "after, {} to move:", game.to_move().as_str()).unwrap();
    out.push_str(&board(&engine, game.position()));
    writeln!(out).unwrap();
    let status = game.status().as_str();
    let reason = game.reason().map(|r| r.as_str());
    match reason {
        Some(reason) => writeln!(out, "status: {status} ({reason})").unwrap(),
        None => writeln!(out, "status: {status}").unwrap(),
    }
    if !game.is_over() {
        writeln!(
            out,
            "legal moves for {}: {}",
            game.to_move().as_str(),
            game.legal_moves().len()
        )
        .unwrap();
    }

    // The assertions, independent of the snapshot. With `disagrees:` the source's expectation
    // must *fail*: the scenario records a known disagreement, and fails once it is resolved.
    if let Some(why) = &scenario.disagrees {
        let holds = std::panic::catch_unwind(|| {
            check(
                name,
                scenario,
                refused,
                claim_refused,
                status,
                reason,
                &last_captured,
                &out,
            )
        })
        .is_ok();
        assert!(
            !holds,
            "{name}: the engine now does what the source says; remove the `disagrees:` line"
        );
        writeln!(out).unwrap();
        writeln!(out, "DISAGREEMENT: {why}").unwrap();
        return out;
    }
    check(
        name,
        scenario,
        refused,
        claim_refused,
        status,
        reason,
        &last_captured,
        &out,
    );
    out
}

/// Checks the `expect:` and `captured:` lines against what happened.
#[allow(clippy::too_many_arguments)]
fn check(
    name: &str,
    scenario: &Scenario,
    refused: Option<&str>,
    claim_refused: bool,
    status: &str,
    reason: Option<&str>,
    last_captured: &Option<Vec<String>>,
    out: &str,
) {
    match &scenario.expect {
        Expect::Illegal(why) => {
            let kind = refused.unwrap_or_else(|| {
                panic!("{name}: expected the last move to be refused, but every move was played")
            });
            if let Some(why) = why {
                assert_eq!(kind, why, "{name}: the move was refused for another reason");
            }
        }
        Expect::ClaimRefused => {
            assert!(
                claim_refused,
                "{name}: expected the last claim to be refused"
            );
        }
        Expect::Outcome {
            status: want,
            reason: want_reason,
        } => {
            assert!(
                refused.is_none() && !claim_refused,
                "{name}: an action was refused:\n{out}"
            );
            assert_eq!(status, want, "{name}: status\n{out}");
            assert_eq!(
                reason.map(str::to_string),
                *want_reason,
                "{name}: reason\n{out}"
            );
        }
    }
    if let Some(want) = &scenario.captured {
        let got = last_captured
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: `captured:` given but no move was played"));
        assert_eq!(got, want, "{name}: captures of the last move\n{out}");
    }
}

#[test]
fn scenarios() {
    insta::glob!("rules/*/*.txt", |path| {
        let variant = path
            .parent()
            .and_then(Path::file_name)
            .expect("a scenario sits in a variant's folder")
            .to_string_lossy()
            .into_owned();
        let name = format!(
            "{variant}/{}",
            path.file_name()
                .expect("a scenario has a name")
                .to_string_lossy()
        );
        let text = std::fs::read_to_string(path)
            .expect("scenario is readable")
            .replace("\r\n", "\n");
        let scenario = parse_scenario(&name, &text);
        let report = run(&variant, &name, &scenario);
        insta::assert_snapshot!(report);
    });
}

/// Every bundled variant has its scenarios, at least as many as the issue asks.
#[test]
fn every_bundled_variant_has_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules");
    for name in tafl::bundled_names() {
        let dir = root.join(name);
        let count = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
                    .count()
            })
            .unwrap_or(0);
        let want = match name {
            "linnaeus" | "brettspielnetz" | "thrones-and-bones" => 12,
            _ => 8,
        };
        assert!(
            count >= want,
            "{name}: {count} scenarios in tests/rules/{name}/, want at least {want}"
        );
    }
}
