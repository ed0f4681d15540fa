//! The REPL's commands: one table drives both dispatch and `help`, so they cannot drift apart.
//!
//! Every handler either succeeds and returns what to print, or returns one line saying what is
//! wrong and what to type instead, leaving the game as it was.

use super::moving::{
    common_rule, describe_captures, game_over, looks_like_square, off_board, parse_move, play,
    refusal,
};
use super::{capitalise, record, Outcome, Reply, Session};
use crate::engine::{EndReason, GameOutcome, Move};
use crate::english;
use crate::english::count;
use crate::game::{announce, describe, DrawError, Undone};
use crate::ir::RuleRef;
use crate::ir::Square;

/// One command of the REPL.
pub struct Command {
    /// What the user types.
    pub name: &'static str,
    /// Other names for it.
    pub aliases: &'static [&'static str],
    /// Its arguments, as `help` shows them.
    pub args: &'static str,
    /// One line for `help`.
    pub help: &'static str,
    /// What it does with the rest of the line.
    pub run: fn(&mut Session, &str) -> Outcome,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "moves",
        aliases: &[],
        args: "[SQUARE]",
        help: "list the legal moves of the side to move, or of the piece on SQUARE",
        run: moves,
    },
    Command {
        name: "history",
        aliases: &["movelist"],
        args: "",
        help: "the game's moves so far, numbered a turn of each side a line, captures marked `x`",
        run: history,
    },
    Command {
        name: "why",
        aliases: &[],
        args: "MOVE",
        help: "say why MOVE is illegal (citing the variant's rule), or what it would capture",
        run: why,
    },
    Command {
        name: "undo",
        aliases: &[],
        args: "",
        help: "take back the last move (or the resignation or draw that ended the game)",
        run: undo,
    },
    Command {
        name: "redo",
        aliases: &[],
        args: "",
        help: "play again a move taken back with undo",
        run: redo,
    },
    Command {
        name: "board",
        aliases: &[],
        args: "",
        help: "show the board",
        run: board,
    },
    Command {
        name: "rules",
        aliases: &[],
        args: "",
        help: "explain the variant's rules in plain words",
        run: rules,
    },
    Command {
        name: "new",
        aliases: &[],
        args: "",
        help: "start a new game of the same variant",
        run: new,
    },
    Command {
        name: "save",
        aliases: &[],
        args: "FILE",
        help: "save the game to FILE as a game record (docs/records.md)",
        run: record::save,
    },
    Command {
        name: "load",
        aliases: &[],
        args: "FILE",
        help: "load a game record (every move is checked; the computer and its settings stay)",
        run: record::load,
    },
    Command {
        name: "draw",
        aliases: &[],
        args: "",
        help: "offer a draw; the other side accepts by typing draw too, a move declines",
        run: draw,
    },
    Command {
        name: "claim",
        aliases: &[],
        args: "",
        help: "claim a draw the rules allow now (repetition, moves without capture)",
        run: claim,
    },
    Command {
        name: "resign",
        aliases: &[],
        args: "",
        help: "resign: the other side wins",
        run: resign,
    },
    Command {
        name: "ai",
        aliases: &[],
        args: "[attackers|defenders|both|off]",
        help: "let the computer play a side, both, or neither (it moves when it has the move); alone, say which it plays",
        run: ai,
    },
    Command {
        name: "hint",
        aliases: &[],
        args: "",
        help: "the move the computer would play, and why",
        run: hint,
    },
    Command {
        name: "eval",
        aliases: &[],
        args: "",
        help: "who stands better, by how much, and the expected line",
        run: eval,
    },
    Command {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or explain one",
        run: help,
    },
    Command {
        name: "quit",
        aliases: &["exit"],
        args: "",
        help: "leave (Ctrl-D too)",
        run: quit,
    },
];

/// The names Tab completes.
pub fn names() -> Vec<&'static str> {
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .collect()
}

fn find(name: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// What the REPL says first.
pub fn banner(session: &Session) -> String {
    let rules = session.game.engine().rules();
    let first = rules.first_to_move;
    format!(
        "{}: {} against {}; {} first.\n\
         Type a move like `{}`, `moves` for the legal moves, `help` for every command.",
        rules.name,
        capitalise(&english::side_label(
            session.rules(),
            crate::ir::Side::Attackers
        )),
        english::side_label(session.rules(), crate::ir::Side::Defenders),
        english::side_verb(session.rules(), first, "move"),
        session
            .game
            .legal_moves()
            .first()
            .map_or("e1-e3".to_string(), Move::to_string),
    )
}

/// Runs one line of input.
pub fn dispatch(session: &mut Session, line: &str) -> Outcome {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Reply::Text(String::new()));
    }
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    if let Some(command) = find(word) {
        if command.name != "quit" {
            // The warning about unsaved moves is given again after anything else.
            session.quit_warned = false;
        }
        return (command.run)(session, rest);
    }
    if looks_like_square(word) {
        if !rest.is_empty() {
            return Err(format!(
                "`{line}` is not a move: write the two squares without spaces, like `{word}-{}`",
                rest.split_whitespace().next().unwrap_or("e3")
            ));
        }
        // Squares are written in lower case; `E3-F3` means the same move.
        return play(session, &word.to_ascii_lowercase());
    }
    Err(format!(
        "unknown command `{word}`: type `help` for the commands, or a move like `e1-e3`"
    ))
}

/// `history`: the game's moves, numbered as tafl sites number them: a line for each move
/// number, the first side's move then the other's (`3. e3-f3 a6-a7xa5`), a berserk move's
/// second part beside its first.
fn history(session: &mut Session, args: &str) -> Outcome {
    no_args("history", args)?;
    let plies = session.game.plies();
    if plies.is_empty() {
        return Ok(Reply::Text("No moves yet.".to_string()));
    }
    let first = session.rules().first_to_move;
    let mut lines: Vec<String> = Vec::new();
    let mut previous = None;
    for ply in plies {
        let mut text = ply.mv.to_string();
        for square in &ply.captured {
            text.push_str(&format!("x{square}"));
        }
        match (lines.last_mut(), previous) {
            // The same side again (a berserk move): beside its first part.
            (Some(line), Some(side)) if side == ply.mover => {
                line.push(' ');
                line.push_str(&text);
            }
            // The second side's move completes the line.
            (Some(line), Some(_)) if ply.mover != first => {
                line.push_str("  ");
                line.push_str(&text);
            }
            _ => {
                let number = lines.len() + 1;
                // A game from a position where the second side moves first starts with `1. ...`.
                if ply.mover == first {
                    lines.push(format!("{number:>3}. {text}"));
                } else {
                    lines.push(format!("{number:>3}. ...  {text}"));
                }
            }
        }
        previous = Some(ply.mover);
    }
    Ok(Reply::Text(format!(
        "{} ({} first):\n{}",
        capitalise(&count(plies.len(), "ply")),
        english::side_noun(session.rules(), first),
        lines.join("\n")
    )))
}

/// The moves of a line that holds several (`e3-f3 a6-a7 f3-f2`, or a paste of a game's moves),
/// each to be played in turn; `None` for any other line, which runs as one command.
pub fn several_moves(line: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let is_move = |word: &&str| looks_like_square(word) && word.contains(['-', 'x']);
    (words.len() > 1 && find(words[0]).is_none() && words.iter().all(is_move)).then_some(words)
}

fn no_args(name: &str, args: &str) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("`{name}` takes no arguments: type `{name}` alone"))
    }
}

fn moves(session: &mut Session, args: &str) -> Outcome {
    if session.is_over() {
        return Err(game_over(session));
    }
    let side = session.game.to_move();
    let all = session.game.legal_moves();
    let mut words = args.split_whitespace();
    let (square, extra) = (words.next(), words.next());
    if extra.is_some() {
        return Err("`moves` takes one square at most: `moves` or `moves e1`".to_string());
    }
    let mut whose = capitalise(&english::side_verb(
        session.game.engine().rules(),
        side,
        "have",
    ));
    let chosen: Vec<Move> = match square {
        None => all,
        Some(text) => {
            let square: Square = text
                .parse()
                .map_err(|e| format!("{e}; `moves` alone lists every legal move"))?;
            let of_piece: Vec<Move> = all.into_iter().filter(|m| m.from == square).collect();
            if of_piece.is_empty() {
                let rules = session.game.engine().rules();
                let problem = match session
                    .game
                    .engine()
                    .piece_at(session.game.position(), square)
                {
                    None => format!("there is no piece on {square}"),
                    Some(kind) if rules.pieces[kind].side != side => format!(
                        "the {} on {square} belongs to {}, and {} are to move",
                        rules.pieces[kind].display,
                        english::side_noun(session.rules(), side.opponent()),
                        english::side_noun(session.rules(), side)
                    ),
                    Some(kind) => {
                        format!("the {} on {square} cannot move", rules.pieces[kind].display)
                    }
                };
                return Err(format!("{problem}; `moves` alone lists every legal move"));
            }
            if let Some(kind) = session
                .game
                .engine()
                .piece_at(session.game.position(), square)
            {
                whose = format!(
                    "The {} on {square} has",
                    session.game.engine().rules().pieces[kind].display
                );
            }
            of_piece
        }
    };
    let mut out = format!("{whose} {}:\n", count(chosen.len(), "legal move"));
    let mut i = 0;
    while i < chosen.len() {
        let from = chosen[i].from;
        let group: Vec<String> = chosen[i..]
            .iter()
            .take_while(|m| m.from == from)
            .map(Move::to_string)
            .collect();
        i += group.len();
        // A long list wraps under its moves, not under the square it starts from.
        let head = format!("  {from:>3}: ");
        let rest = " ".repeat(head.chars().count());
        out.push_str(&super::terminal::wrap_indented(
            &group.join(" "),
            super::terminal::width(),
            &head,
            &rest,
        ));
        out.push('\n');
    }
    Ok(Reply::Text(out))
}

fn why(session: &mut Session, args: &str) -> Outcome {
    if args.is_empty() || args.contains(char::is_whitespace) {
        return Err("`why` needs one move: `why e1-e3`".to_string());
    }
    if let Some(refusal) = off_board(args) {
        return Ok(Reply::Text(format!("{refusal}.")));
    }
    let mv = parse_move(args)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    if let Err(illegal) = session.game.check(mv) {
        let text = illegal.describe(Some(&session.variant));
        return Ok(Reply::Text(format!(
            "{text}{}.",
            common_rule(session, &illegal)
        )));
    }
    let position = session.game.position();
    let mut preview = session.game.clone();
    let played = preview.play(mv).map_err(|e| refusal(session, &e))?.clone();
    let mut text = format!("{mv} is legal");
    // A legal move two squares along a line over an occupied square is a jump: rook moves
    // stop at the first piece, so nothing else passes one.
    let (from, to) = (mv.from, mv.to);
    let straight = from.file == to.file || from.rank == to.rank;
    let two_apart = from.file.abs_diff(to.file) + from.rank.abs_diff(to.rank) == 2;
    let over = Square::new((from.file + to.file) / 2, (from.rank + to.rank) / 2);
    let jump = straight && two_apart && session.game.engine().piece_at(position, over).is_some();
    if jump {
        text.push_str(&format!(
            ": a jump over {},",
            describe_captures(session, position, &[over])
        ));
    }
    match (played.captured.is_empty(), jump) {
        (true, _) => text.push_str(" and captures nothing"),
        (false, true) => text.push_str(&format!(
            " capturing {}",
            describe_captures(session, position, &played.captured)
        )),
        (false, false) => text.push_str(&format!(
            ": it captures {}",
            describe_captures(session, position, &played.captured)
        )),
    }
    if let Some(ending) = preview.ending() {
        let verdict = describe::verdict(&ending, &session.variant, preview.to_move());
        text.push_str(&format!("; it ends the game. {verdict}"));
    } else {
        let calls = announce::calls(session.game.engine(), preview.position());
        if let Some(call) = calls.first() {
            text.push_str(&format!(", and would make {} ({})", call.word, call.piece));
        }
        text.push('.');
    }
    Ok(Reply::Text(text))
}

/// Takes back one ply or the declared ending; what was taken back, in words, and whether it
/// was a ply (which `redo` can play again).
fn undo_step(session: &mut Session) -> Option<(String, bool)> {
    match session.game.undo()? {
        Undone::Declared(ending) => Some((
            match (ending.reason, ending.outcome) {
                (EndReason::Resignation, GameOutcome::Win(winner)) => {
                    let noun = english::side_noun(session.rules(), winner.opponent());
                    let apostrophe = if noun.ends_with('s') { "'" } else { "'s" };
                    format!("{noun}{apostrophe} resignation")
                }
                (EndReason::Agreement, _) => "the agreed draw".to_string(),
                _ => "the claimed draw".to_string(),
            },
            false,
        )),
        Undone::Ply(ply) => {
            session.redo.push(ply.mv);
            let what = if session.computer[ply.mover.index()] {
                format!("the computer's {}", ply.mv)
            } else {
                ply.mv.to_string()
            };
            Some((what, true))
        }
    }
}

/// `undo`: against the computer, a whole turn (the computer's reply and the player's move
/// before it), so that the player has the move again and the computer waits.
fn undo(session: &mut Session, args: &str) -> Outcome {
    no_args("undo", args)?;
    let computer = session.computer;
    let against_computer = computer[0] != computer[1];
    if against_computer
        && session.game.declared().is_none()
        && !session
            .game
            .plies()
            .iter()
            .any(|ply| !computer[ply.mover.index()])
    {
        return Err(if session.game.plies().is_empty() {
            "nothing to undo: no move has been played yet".to_string()
        } else {
            "nothing of yours to undo: the computer's opening move stays (`new` starts again; `ai off` gives you both sides)".to_string()
        });
    }
    let mut took = Vec::new();
    let mut plies = false;
    while let Some((what, ply)) = undo_step(session) {
        took.push(what);
        plies |= ply;
        if !against_computer {
            break;
        }
        // Stop where a player's turn begins: the player has the move, and the ply before
        // (if any) was not the same player's (a berserk turn is several plies).
        let to_move = session.game.to_move();
        let mid_turn = session
            .game
            .plies()
            .last()
            .is_some_and(|ply| ply.mover == to_move);
        if !computer[to_move.index()] && !mid_turn {
            break;
        }
    }
    if took.is_empty() {
        return Err("nothing to undo: no move has been played yet".to_string());
    }
    let again = match session.redo.last() {
        Some(mv) if plies => format!(" (`redo` plays {mv} again.)"),
        _ => String::new(),
    };
    Ok(Reply::Text(format!(
        "Took back {}.{again}\n{}",
        crate::english::join_and(&took),
        session.show()
    )))
}

fn redo(session: &mut Session, args: &str) -> Outcome {
    no_args("redo", args)?;
    let Some(&mv) = session.redo.last() else {
        return Err(
            "nothing to redo: `redo` plays again the moves taken back with `undo`".to_string(),
        );
    };
    if session.is_over() {
        return Err(game_over(session));
    }
    play(session, &mv.to_string())
}

fn board(session: &mut Session, args: &str) -> Outcome {
    no_args("board", args)?;
    Ok(Reply::Text(session.show()))
}

fn rules(session: &mut Session, args: &str) -> Outcome {
    no_args("rules", args)?;
    Ok(Reply::Text(crate::explain::explain(
        session.game.engine().rules(),
    )))
}

fn new(session: &mut Session, args: &str) -> Outcome {
    no_args("new", args)?;
    session.restart();
    Ok(Reply::Text(format!(
        "A new game of {}.\n{}",
        session.game.engine().rules().name,
        session.show()
    )))
}

fn draw(session: &mut Session, args: &str) -> Outcome {
    no_args("draw", args)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    let side = session.game.to_move();
    if session.game.draw_offer() == Some(side.opponent()) {
        session.game.accept_draw().map_err(|e| e.to_string())?;
        let verdict = session.verdict().unwrap_or_default();
        return Ok(Reply::Text(format!("Draw accepted. {verdict}")));
    }
    match session.game.offer_draw() {
        Ok(()) => Ok(Reply::Text(format!(
            "{} a draw. Make your move; {} may accept on their turn by typing `draw`, or decline by moving.",
            capitalise(&english::side_verb(session.rules(), side, "offer")),
            english::side_noun(session.rules(), side.opponent())
        ))),
        Err(DrawError::NoAgreement) => {
            let claim = if session.game.can_claim_draw() {
                " (but a draw can be claimed now: type `claim`)"
            } else {
                ""
            };
            Err(format!(
                "this variant has no draw by agreement{claim}; play on, or `resign`"
            ))
        }
        Err(DrawError::AlreadyOffered) => Err(format!(
            "{} already offered a draw: make your move, and {} may accept it on their turn",
            english::side_noun(session.rules(), side),
            english::side_noun(session.rules(), side.opponent())
        )),
        Err(e) => Err(e.to_string()),
    }
}

fn claim(session: &mut Session, args: &str) -> Outcome {
    no_args("claim", args)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    if session.game.claim_draw().is_err() {
        let rules = session.game.engine().rules();
        let mut can = Vec::new();
        if matches!(rules.outcome.repetition, Some(r) if r.claim == crate::ir::Claim::Claimable) {
            can.push(format!("a repetition{}", session.cite(RuleRef::Repetition)));
        }
        if matches!(rules.outcome.no_capture_draw, Some(l) if l.claim == crate::ir::Claim::Claimable)
        {
            can.push(format!(
                "a run of moves without capture{}",
                session.cite(RuleRef::NoCaptureDraw)
            ));
        }
        let hint = if rules.outcome.draw_by_agreement {
            "; offer a draw with `draw`"
        } else {
            ""
        };
        return Err(if can.is_empty() {
            format!("this variant has no draw to claim{hint}")
        } else {
            format!(
                "no draw can be claimed now: only after {}{hint}",
                can.join(" or ")
            )
        });
    }
    Ok(Reply::Text(session.verdict().unwrap_or_default()))
}

fn resign(session: &mut Session, args: &str) -> Outcome {
    no_args("resign", args)?;
    let side = session.game.to_move();
    session.game.resign(side).map_err(|_| game_over(session))?;
    Ok(Reply::Text(format!(
        "{}\nType `new` for a new game, `undo` to take the resignation back.",
        session.verdict().unwrap_or_default()
    )))
}

fn help(_session: &mut Session, args: &str) -> Outcome {
    if !args.is_empty() {
        let command = find(args)
            .ok_or_else(|| format!("no command `{args}`: type `help` alone for the list"))?;
        let aliases = if command.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", command.aliases.join(", "))
        };
        let usage = format!("{} {}", command.name, command.args);
        return Ok(Reply::Text(format!(
            "{}{aliases}\n  {}",
            usage.trim_end(),
            command.help
        )));
    }
    let mut out = String::from("Commands:\n");
    let usage = |name: &str, args: &str| format!("{name} {args}").trim_end().to_string();
    let width = COMMANDS
        .iter()
        .map(|c| usage(c.name, c.args).len())
        .max()
        .unwrap_or(0)
        .max("e1-e3".len());
    let columns = super::terminal::width();
    // Each description wrapped in its own column, so the table stays a table when narrow;
    // below that the description goes under its command.
    let (indent, under) = if columns >= width + 4 + 24 {
        (" ".repeat(width + 4), false)
    } else {
        ("      ".to_string(), true)
    };
    let mut row = |name: &str, text: &str| {
        let head = if under {
            format!("  {name}\n{indent}")
        } else {
            format!("  {name:<width$}  ")
        };
        let wrapped = super::terminal::wrap_indented(text, columns, &indent, &indent);
        out.push_str(&head);
        out.push_str(wrapped.trim_start());
        out.push('\n');
    };
    row("e1-e3", "move the piece on e1 to e3 (`e1e3` works too)");
    for command in COMMANDS {
        row(&usage(command.name, command.args), command.help);
    }
    out.push_str("Squares are named from a1 at the bottom left.");
    Ok(Reply::Text(out))
}

fn ai(session: &mut Session, args: &str) -> Outcome {
    use clap::ValueEnum;
    if args.is_empty() {
        let now = match session.computer {
            [false, false] => "The computer plays neither side".to_string(),
            [true, true] => "The computer plays both sides".to_string(),
            [true, false] => format!(
                "The computer plays {}",
                english::side_noun(session.rules(), crate::ir::Side::Attackers)
            ),
            [false, true] => format!(
                "The computer plays {}",
                english::side_noun(session.rules(), crate::ir::Side::Defenders)
            ),
        };
        return Ok(Reply::Text(format!(
            "{now}. `ai attackers`, `ai defenders`, `ai both` or `ai off` changes it."
        )));
    }
    let choice = super::Computer::from_str(args.trim(), true).map_err(|_| {
        "`ai` takes one of `attackers`, `defenders`, `both`, `off`: `ai defenders`".to_string()
    })?;
    session.computer = choice.sides();
    let who = match choice {
        super::Computer::Off => "The computer plays neither side.".to_string(),
        super::Computer::Both => "The computer plays both sides.".to_string(),
        super::Computer::Attackers | super::Computer::Defenders => {
            let side = if choice == super::Computer::Attackers {
                crate::ir::Side::Attackers
            } else {
                crate::ir::Side::Defenders
            };
            format!(
                "The computer plays {}.",
                english::side_noun(session.rules(), side)
            )
        }
    };
    Ok(Reply::Text(who))
}

fn hint(session: &mut Session, args: &str) -> Outcome {
    no_args("hint", args)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    super::computer::hint(session).map(Reply::Text)
}

fn eval(session: &mut Session, args: &str) -> Outcome {
    no_args("eval", args)?;
    if session.is_over() {
        return Err(game_over(session));
    }
    super::computer::eval(session).map(Reply::Text)
}

/// Leaves, after one warning when the game has unsaved moves.
pub fn quit(session: &mut Session, args: &str) -> Outcome {
    no_args("quit", args)?;
    leave(session, "type `quit` again")
}

/// Leaves, after one warning when the game has unsaved moves; `again` says how to leave anyway
/// (`type quit again`, or at the terminal after Ctrl-D `press Ctrl-D again`).
pub fn leave(session: &mut Session, again: &str) -> Outcome {
    if session.is_unsaved() && !session.quit_warned {
        session.quit_warned = true;
        let plies = session.game.plies().len();
        return Ok(Reply::Text(format!(
            "The game ({}) is not saved: `save FILE` keeps it; {again} to leave without saving.",
            count(plies, "ply")
        )));
    }
    Ok(Reply::Quit)
}
