//! Rules written out in Rust for tests, doc tests and benchmarks, independent of the language
//! front end. They follow the sources in `shared/sources/` (Linnaeus per Cyningstan,
//! brettspielnetz.de) and OpenTafl's Fetlar/Copenhagen board for an 11x11 benchmark.
//!
//! Not part of the stable API.

use crate::ir::*;

fn squares(names: &[&str]) -> Vec<Square> {
    // The names below are literals of valid squares, so parsing cannot fail.
    let mut list: Vec<Square> = names
        .iter()
        .map(|n| n.parse().expect("valid square literal"))
        .collect();
    list.sort_by_key(|s| (s.rank, s.file));
    list
}

fn region(name: &str, squares: Vec<Square>) -> Region {
    Region {
        name: name.into(),
        squares,
    }
}

fn piece(name: &str, symbol: char, side: Side, role: Role, armed: Armed) -> PieceKind {
    PieceKind {
        name: name.into(),
        display: name.into(),
        symbol,
        side,
        role,
        armed,
        movement: Movement {
            style: MoveStyle::Rook,
            max_distance: None,
        },
    }
}

fn edge(size: u8) -> Vec<Square> {
    let mut list = Vec::new();
    for rank in 0..size {
        for file in 0..size {
            if rank == 0 || file == 0 || rank == size - 1 || file == size - 1 {
                list.push(Square::new(file, rank));
            }
        }
    }
    list
}

fn neighbours_of(center: Square) -> Vec<Square> {
    let mut list = vec![
        Square::new(center.file, center.rank + 1),
        Square::new(center.file + 1, center.rank),
        Square::new(center.file, center.rank - 1),
        Square::new(center.file - 1, center.rank),
    ];
    list.sort_by_key(|s| (s.rank, s.file));
    list
}

fn all_but(size: u8, excluded: &[Square]) -> Vec<Square> {
    let mut list = Vec::new();
    for rank in 0..size {
        for file in 0..size {
            let square = Square::new(file, rank);
            if !excluded.contains(&square) {
                list.push(square);
            }
        }
    }
    list
}

const TABLUT_SETUP: [&str; 9] = [
    "...ttt...",
    "....t....",
    "....T....",
    "t...T...t",
    "ttTTKTTtt",
    "t...T...t",
    "....T....",
    "....t....",
    "...ttt...",
];

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Linnaeus' Tablut as Cyningstan publishes it (13 rules).
pub fn linnaeus() -> Rules {
    let throne = squares(&["e5"]);
    let beside = neighbours_of(Square::new(4, 4));
    let mut elsewhere_excluded = throne.clone();
    elsewhere_excluded.extend(beside.iter().copied());
    Rules {
        name: "Linnaeus' Tablut".into(),
        source: Some("Cyningstan, Rules for Tablut".into()),
        notes: vec![],
        board: Board {
            width: 9,
            height: 9,
        },
        sides: BySide {
            attackers: SideInfo {
                name: "Muscovites".into(),
            },
            defenders: SideInfo {
                name: "Swedes".into(),
            },
        },
        first_to_move: Side::Attackers,
        pieces: vec![
            piece("muscovite", 't', Side::Attackers, Role::Soldier, Armed::Yes),
            piece("swede", 'T', Side::Defenders, Role::Soldier, Armed::Yes),
            piece("king", 'K', Side::Defenders, Role::King, Armed::Yes),
        ],
        regions: vec![region("throne", throne.clone()), region("edge", edge(9))],
        setup: TABLUT_SETUP.iter().map(|s| s.to_string()).collect(),
        access: vec![
            AccessRule {
                pieces: names(&["muscovite", "swede"]),
                action: Action::Land,
                region: "throne".into(),
                condition: AccessCondition::Always,
            },
            AccessRule {
                pieces: names(&["king"]),
                action: Action::Land,
                region: "throne".into(),
                condition: AccessCondition::OnceLeft,
            },
        ],
        hostility: vec![
            HostilityRule {
                region: "throne".into(),
                victims: names(&["muscovite", "swede"]),
                when: Hostile::WhenEmpty,
            },
            HostilityRule {
                region: "throne".into(),
                victims: names(&["swede"]),
                when: Hostile::WhenOccupied {
                    by: names(&["king"]),
                    enemies_beside: 3,
                },
            },
        ],
        king_capture: vec![
            KingCaptureRule {
                place: Place::On("throne".into()),
                squares: throne.clone(),
                method: KingCaptureMethod::Enclosed,
                counting: vec![],
                edge_counts: false,
            },
            KingCaptureRule {
                place: Place::Beside("throne".into()),
                squares: beside,
                method: KingCaptureMethod::Enclosed,
                counting: names(&["throne"]),
                edge_counts: false,
            },
            KingCaptureRule {
                place: Place::Elsewhere,
                squares: all_but(9, &elsewhere_excluded),
                method: KingCaptureMethod::Custodial,
                counting: vec![],
                edge_counts: false,
            },
        ],
        outcome: Outcome {
            escapes: vec![Escape {
                piece: "king".into(),
                region: "edge".into(),
                winner: Side::Defenders,
            }],
            decisive_captures: vec![DecisiveCapture {
                piece: "king".into(),
                winner: Side::Attackers,
            }],
            no_moves: NoMoves::Draw,
            repetition: Some(Repetition {
                occurrences: 2,
                result: RepetitionResult::Draw,
                claim: Claim::Automatic,
            }),
            back_and_forth_limit: None,
            no_capture_draw: None,
            draw_by_agreement: true,
        },
        announcements: vec![],
    }
}

/// Tablut as brettspielnetz.de plays it: Swedes first, corner escape, unarmed king.
pub fn brettspielnetz() -> Rules {
    let throne = squares(&["e5"]);
    let corners = squares(&["a1", "a9", "i1", "i9"]);
    Rules {
        name: "Tablut (brettspielnetz.de)".into(),
        source: Some("https://www.brettspielnetz.de/rules/tablut.php".into()),
        notes: vec![],
        board: Board {
            width: 9,
            height: 9,
        },
        sides: BySide {
            attackers: SideInfo {
                name: "Muscovites".into(),
            },
            defenders: SideInfo {
                name: "Swedes".into(),
            },
        },
        first_to_move: Side::Defenders,
        pieces: vec![
            piece("muscovite", 't', Side::Attackers, Role::Soldier, Armed::Yes),
            piece("swede", 'T', Side::Defenders, Role::Soldier, Armed::Yes),
            piece("king", 'K', Side::Defenders, Role::King, Armed::No),
        ],
        regions: vec![region("throne", throne), region("corners", corners)],
        setup: TABLUT_SETUP.iter().map(|s| s.to_string()).collect(),
        access: vec![
            AccessRule {
                pieces: names(&["muscovite", "swede"]),
                action: Action::Land,
                region: "throne".into(),
                condition: AccessCondition::Always,
            },
            AccessRule {
                pieces: names(&["muscovite", "swede"]),
                action: Action::Land,
                region: "corners".into(),
                condition: AccessCondition::Always,
            },
        ],
        hostility: vec![
            HostilityRule {
                region: "corners".into(),
                victims: names(&["muscovite", "swede"]),
                when: Hostile::Always,
            },
            HostilityRule {
                region: "throne".into(),
                victims: names(&["muscovite", "swede", "king"]),
                when: Hostile::WhenEmpty,
            },
        ],
        king_capture: vec![KingCaptureRule {
            place: Place::Elsewhere,
            squares: all_but(9, &[]),
            method: KingCaptureMethod::Enclosed,
            counting: names(&["throne"]),
            edge_counts: true,
        }],
        outcome: Outcome {
            escapes: vec![Escape {
                piece: "king".into(),
                region: "corners".into(),
                winner: Side::Defenders,
            }],
            decisive_captures: vec![DecisiveCapture {
                piece: "king".into(),
                winner: Side::Attackers,
            }],
            no_moves: NoMoves::Loses,
            repetition: Some(Repetition {
                occurrences: 3,
                result: RepetitionResult::Draw,
                claim: Claim::Claimable,
            }),
            back_and_forth_limit: Some(3),
            no_capture_draw: Some(MoveLimit {
                moves: 50,
                claim: Claim::Claimable,
            }),
            draw_by_agreement: true,
        },
        announcements: vec![],
    }
}

/// An 11x11 game on the Fetlar/Copenhagen board: corner escape, only the king on throne and
/// corners, both hostile, armed king captured by four (or three and the throne). No shieldwall
/// or exit fort: the IR has neither.
pub fn fetlar11() -> Rules {
    let throne = squares(&["f6"]);
    let corners = squares(&["a1", "a11", "k1", "k11"]);
    let mut restricted = throne.clone();
    restricted.extend(corners.iter().copied());
    restricted.sort_by_key(|s| (s.rank, s.file));
    Rules {
        name: "Fetlar-like 11x11".into(),
        source: None,
        notes: vec![],
        board: Board {
            width: 11,
            height: 11,
        },
        sides: BySide {
            attackers: SideInfo {
                name: "Attackers".into(),
            },
            defenders: SideInfo {
                name: "Defenders".into(),
            },
        },
        first_to_move: Side::Attackers,
        pieces: vec![
            piece("attacker", 't', Side::Attackers, Role::Soldier, Armed::Yes),
            piece("defender", 'T', Side::Defenders, Role::Soldier, Armed::Yes),
            piece("king", 'K', Side::Defenders, Role::King, Armed::Yes),
        ],
        regions: vec![
            region("throne", throne),
            region("corners", corners),
            region("restricted", restricted),
        ],
        setup: [
            "...ttttt...",
            ".....t.....",
            "...........",
            "t....T....t",
            "t...TTT...t",
            "tt.TTKTT.tt",
            "t...TTT...t",
            "t....T....t",
            "...........",
            ".....t.....",
            "...ttttt...",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        access: vec![AccessRule {
            pieces: names(&["attacker", "defender"]),
            action: Action::Land,
            region: "restricted".into(),
            condition: AccessCondition::Always,
        }],
        hostility: vec![
            HostilityRule {
                region: "corners".into(),
                victims: names(&["attacker", "defender"]),
                when: Hostile::Always,
            },
            HostilityRule {
                region: "throne".into(),
                victims: names(&["attacker", "defender"]),
                when: Hostile::WhenEmpty,
            },
        ],
        king_capture: vec![KingCaptureRule {
            place: Place::Elsewhere,
            squares: all_but(11, &[]),
            method: KingCaptureMethod::Enclosed,
            counting: names(&["throne"]),
            edge_counts: false,
        }],
        outcome: Outcome {
            escapes: vec![Escape {
                piece: "king".into(),
                region: "corners".into(),
                winner: Side::Defenders,
            }],
            decisive_captures: vec![DecisiveCapture {
                piece: "king".into(),
                winner: Side::Attackers,
            }],
            no_moves: NoMoves::Loses,
            repetition: Some(Repetition {
                occurrences: 3,
                result: RepetitionResult::MoverLoses,
                claim: Claim::Automatic,
            }),
            back_and_forth_limit: None,
            no_capture_draw: None,
            draw_by_agreement: true,
        },
        announcements: vec![],
    }
}
