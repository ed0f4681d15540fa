//! The engine protocols: scripted sessions (tests/protocol/*.session, exact lines in and out),
//! malformed input (an error answer and no change of state), the protocol client against our own
//! engine, and a short game of `tafl engine` against itself through each protocol.

use std::sync::Arc;
use std::time::Duration;

use tafl::game::notation::position_to_string;
use tafl::protocol::client::{Client, ClientError, Kind, Think};
use tafl::protocol::gtp::Gtp;
use tafl::protocol::opentafl::OpenTafl;
use tafl::protocol::uci::Uci;
use tafl::protocol::{Driver, Loaded, Protocol, Settings};
use tafl::{BySide, Engine, Game, Variant};

/// Depth 2, one thread: every answer is deterministic.
fn settings(variant: &str) -> Settings {
    Settings {
        variant: variant.to_string(),
        depth: Some(2),
        ..Settings::default()
    }
}

/// Wall-clock numbers differ from run to run: they are replaced by `*`.
fn mask(line: &str) -> String {
    let timing = regex::Regex::new(r"(nps|time|delay milliseconds:) \d+").unwrap();
    timing.replace_all(line, "$1 *").into_owned()
}

/// Feeds every `>` line of a session file to `driver` and compares what comes back with the
/// `< ` lines that follow it (`<` alone is an empty line). UCI's `currmove` lines are left out:
/// they come only once a search has run a second, which a machine slow enough could reach.
fn check_session<P: Protocol>(name: &str, mut driver: Driver<P>) {
    let path = format!("{}/tests/protocol/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut expected: Vec<String> = Vec::new();
    let mut got: Vec<String> = driver.greeting();
    let mut transcript = Vec::new();
    for line in text.lines() {
        if let Some(input) = line.strip_prefix('>') {
            let input = input.strip_prefix(' ').unwrap_or(input);
            transcript.push(format!("> {input}"));
            let mut out = driver.feed(input);
            out.retain(|line| !line.contains(" currmove "));
            transcript.extend(out.iter().map(|l| format!("< {}", mask(l))));
            got.extend(out);
        } else if let Some(output) = line.strip_prefix('<') {
            expected.push(output.strip_prefix(' ').unwrap_or(output).to_string());
        }
    }
    let got: Vec<String> = got.iter().map(|l| mask(l)).collect();
    assert_eq!(
        got,
        expected,
        "{name}: the session went differently:\n{}",
        transcript.join("\n")
    );
}

#[test]
fn uci_session() {
    check_session(
        "uci.session",
        Driver::new(Uci::new(settings("brandubh")).unwrap()),
    );
}

#[test]
fn uci_hash_session() {
    check_session(
        "uci-hash.session",
        Driver::new(Uci::new(settings("brandubh")).unwrap()),
    );
}

#[test]
fn gtp_session() {
    let boards = vec![
        Loaded::load("copenhagen").unwrap(),
        Loaded::load("brandubh").unwrap(),
    ];
    let gtp = Gtp::new(settings("copenhagen"), boards).unwrap();
    check_session("gtp.session", Driver::new(gtp));
}

#[test]
fn opentafl_session() {
    check_session(
        "opentafl.session",
        Driver::new(OpenTafl::new(settings("brandubh")).unwrap()),
    );
}

/// What a session's state is, for comparing before and after a bad line.
fn state(game: Option<&Game>) -> Option<(String, tafl::Side, usize)> {
    game.map(|g| {
        (
            position_to_string(g.engine(), g.position()),
            g.to_move(),
            g.plies().len(),
        )
    })
}

#[test]
fn uci_bad_lines_are_errors_and_change_nothing() {
    let mut driver = Driver::new(Uci::new(settings("brandubh")).unwrap());
    driver.feed("position startpos moves d2c2 d3d2");
    let before = state(Some(driver.protocol().game()));
    assert_eq!(before.as_ref().map(|s| s.2), Some(2));
    for bad in [
        "position startpos moves d2c2 d3d2 a1a2",
        "position startpos moves zz",
        "position startpos nonsense",
        "position /3t3/ attackers",
        "position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ sideways",
        "setoption name Variant value no-such-variant",
        "setoption name Threads value 0",
        "setoption name Colour value red",
        "setoption Threads 2",
        "go depth zero",
        "go depth 0",
        "go mate 0",
        "frobnicate",
    ] {
        let out = driver.feed(bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{bad}: {out:?}");
        assert_eq!(
            state(Some(driver.protocol().game())),
            before,
            "{bad} changed the game"
        );
    }
    // The good line still works from the same place.
    let out = driver.feed("go depth 1");
    let best = out
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    let game = driver.protocol().game();
    assert!(
        game.legal_moves().contains(&best.parse().unwrap()),
        "{best}"
    );
}

#[test]
fn gtp_bad_lines_are_errors_and_change_nothing() {
    let gtp = Gtp::new(
        settings("copenhagen"),
        vec![Loaded::load("copenhagen").unwrap()],
    )
    .unwrap();
    let mut driver = Driver::new(gtp);
    assert_eq!(driver.feed("play attacker d1 d3"), vec!["= "]);
    let before = state(Some(driver.protocol().game()));
    for bad in [
        "play attacker d3 d5",
        "play defender f4 f4",
        "play defender z1 z2",
        "play defender",
        "play king f4 c4",
        "board_size 13",
        "board_size eleven",
        "time_settings fischer ten 5",
        "first_move nobody",
        "known_command",
        "unheard_of",
    ] {
        let out = driver.feed(bad);
        assert_eq!(out.len(), 2, "{bad}: {out:?}");
        assert!(out[0].starts_with("? "), "{bad}: {out:?}");
        assert_eq!(out[1], "", "{bad}");
        assert_eq!(
            state(Some(driver.protocol().game())),
            before,
            "{bad} changed the game"
        );
    }
    assert_eq!(driver.feed("play defender f4 c4"), vec!["= "]);
    assert_eq!(driver.protocol().game().plies().len(), 2);
}

#[test]
fn opentafl_bad_lines_are_errors_and_change_nothing() {
    let mut driver = Driver::new(OpenTafl::new(settings("brandubh")).unwrap());
    assert_eq!(
        driver.feed("play attackers"),
        vec!["error 0 no rules yet: send `rules <rules string>` first"]
    );
    let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    assert!(driver.feed(&format!("rules {brandub}")).is_empty());
    assert!(driver
        .feed("opponent-move d1-c1 /2t4/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
        .is_empty());
    let before = state(driver.protocol().game());
    assert_eq!(before.as_ref().map(|s| s.1), Some(tafl::Side::Defenders));
    for (bad, critical) in [
        ("rules dim:9 nonsense:y", true),
        // Issue 49, defect 1: under Berserk the engine lost the capturing piece's move still
        // due when it resynced from a position record, and looped on OpenTafl's `error 4`.
        (&format!("rules {brandub} ber:c"), true),
        (&format!("rules {brandub} ber:m"), true),
        ("rules dim:7 start:/7/7/7/7/7/7/7/", true),
        ("position /3t3/", false),
        ("side sideways", false),
        ("clock 100 200", false),
        ("clock a b 0 0 0", false),
        ("analyze many", false),
        ("opponent-move", false),
        ("lunch", false),
    ] {
        let out = driver.feed(bad);
        let code = if critical { "error -1 " } else { "error 0 " };
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with(code), "{bad}: {out:?}");
        assert_eq!(
            state(driver.protocol().game()),
            before,
            "{bad} changed the game"
        );
    }
    let out = driver.feed("play defenders");
    let mv = out[0].strip_prefix("move ").unwrap();
    let game = driver.protocol().game().unwrap();
    assert_eq!(game.plies().len(), 2, "the engine plays its own move");
    assert_eq!(game.plies()[1].mv.to_string(), mv);
}

#[test]
fn full_opentafl_notation_reads_as_the_simple_move() {
    use tafl::protocol::opentafl::read_move;
    for (full, simple) in [
        ("a4-a1", "a4-a1"),
        ("e5-e8xe9", "e5-e8"),
        ("Ke5-e1-", "e5-e1"),
        ("Ke1-a1--", "e1-a1"),
        ("a3-e3+", "a3-e3"),
        ("ce6^e8", "e6-e8"),
        ("Ne6^=e8xce7/ne9/f8/d8", "e6-e8"),
        ("k11-k2", "k11-k2"),
    ] {
        assert_eq!(
            read_move(full).map(|m| m.to_string()),
            Ok(simple.to_string()),
            "{full}"
        );
    }
    for bad in ["", "a4", "a4-", "-a1", "a4-a1?", "4a-1a"] {
        assert!(read_move(bad).is_err(), "{bad:?} read");
    }
}

fn tafl_engine(protocol: &str, extra: &[&str]) -> Vec<String> {
    let mut command = vec![
        env!("CARGO_BIN_EXE_tafl").to_string(),
        "engine".to_string(),
        "--protocol".to_string(),
        protocol.to_string(),
        "--depth".to_string(),
        "2".to_string(),
    ];
    command.extend(extra.iter().map(|s| (*s).to_string()));
    command
}

/// Two `tafl engine` processes play each other through `kind`, refereed by our own game: every
/// move must be legal, and the game must end or reach the ply cap.
fn self_match(kind: Kind, protocol: &str, variant: &str, extra: &[&str]) {
    let engine = Arc::new(Engine::new(&Variant::load(variant).unwrap().rules).unwrap());
    let timeout = Duration::from_secs(60);
    let mut players = BySide {
        attackers: Client::start(
            &tafl_engine(protocol, extra),
            kind,
            variant,
            &engine,
            timeout,
        )
        .unwrap(),
        defenders: Client::start(
            &tafl_engine(protocol, extra),
            kind,
            variant,
            &engine,
            timeout,
        )
        .unwrap(),
    };
    let mut game = Game::new(engine);
    let cap = 24;
    while !game.is_over() && game.plies().len() < cap {
        let side = game.to_move();
        let mv = players
            .get_mut(side)
            .best_move(&game, Think::Depth(2), timeout)
            .unwrap_or_else(|e| panic!("{protocol} {side} at ply {}: {e}", game.plies().len()));
        if let Err(e) = game.play(mv) {
            panic!(
                "{protocol} {side} played an illegal move at ply {}: {e}",
                game.plies().len()
            );
        }
    }
    assert!(game.is_over() || game.plies().len() == cap);
    let BySide {
        attackers,
        defenders,
    } = players;
    attackers.quit();
    defenders.quit();
}

#[test]
fn tafl_plays_itself_through_uci() {
    self_match(Kind::Uci, "uci", "brandubh", &[]);
}

#[test]
fn tafl_plays_itself_through_gtp() {
    self_match(Kind::Gtp, "gtp", "copenhagen", &[]);
}

#[test]
fn tafl_plays_itself_through_gtp_on_a_second_board_size() {
    self_match(
        Kind::Gtp,
        "gtp",
        "brandubh",
        &["--variant", "copenhagen", "--variant", "brandubh"],
    );
}

#[test]
fn tafl_plays_itself_through_opentafl() {
    self_match(Kind::OpenTafl, "opentafl", "brandubh", &[]);
}

#[test]
fn a_client_that_gets_no_answer_in_time_stops_the_engine() {
    let engine = Arc::new(Engine::new(&Variant::load("copenhagen").unwrap().rules).unwrap());
    let command = vec![
        env!("CARGO_BIN_EXE_tafl").to_string(),
        "engine".to_string(),
        "--protocol".to_string(),
        "uci".to_string(),
    ];
    let mut client = Client::start(
        &command,
        Kind::Uci,
        "copenhagen",
        &engine,
        Duration::from_secs(60),
    )
    .unwrap();
    let game = Game::new(engine);
    // An hour on the clock: the engine would think for about two minutes.
    let hour = Duration::from_secs(3600);
    let think = Think::Clock {
        left: BySide {
            attackers: hour,
            defenders: hour,
        },
        increment: Duration::ZERO,
    };
    let result = client.best_move(&game, think, Duration::from_millis(300));
    assert!(matches!(result, Err(ClientError::Timeout(_))), "{result:?}");
    // It has been stopped: the next question finds no engine.
    let again = client.best_move(&game, Think::Depth(1), Duration::from_secs(5));
    assert!(
        matches!(again, Err(ClientError::Write(_) | ClientError::Exited)),
        "{again:?}"
    );
}

#[test]
fn a_command_that_does_not_start_is_an_error() {
    let engine = Arc::new(Engine::new(&Variant::load("brandubh").unwrap().rules).unwrap());
    let command = vec!["/no/such/engine".to_string()];
    let result = Client::start(
        &command,
        Kind::Uci,
        "brandubh",
        &engine,
        Duration::from_secs(5),
    );
    assert!(matches!(result, Err(ClientError::Spawn(_))));
}

/// Runs `tafl engine ARGS` with `input` piped in whole, and returns its exit code and stdout.
fn piped(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    piped_bytes(args, input.as_bytes())
}

/// [`piped`] with any bytes, UTF-8 or not.
fn piped_bytes(args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_piped_script_gets_every_answer_even_behind_a_search() {
    // The lines after `generate_move` arrive while it thinks; they wait for it, in order, and
    // `quit` ends the engine only when its turn comes (`name` is never answered).
    let (code, out, _) = piped(
        &["--protocol", "gtp", "--depth", "2"],
        "generate_move\nfinal_status\nplay_undo\nfinal_status\nquit\nname\n",
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("= play attacker "), "{out}");
    assert_eq!(lines[1..], ["", "= ongoing", "= ", "= ongoing"], "{out}");
}

/// Issue 49, defect 9: after the end of input a search went on to its end, however far that
/// was (`go depth 60` ran for ever). It is stopped now, and still answered.
#[test]
fn the_end_of_input_stops_the_search_and_still_answers_it() {
    let (code, out, _) = piped_within(&["--protocol", "uci"], "go depth 60\n");
    assert_eq!(code, Some(0));
    // Stopped at once, inside the first depth too (issue 62: a first depth could outlast any
    // budget), and still answered with a legal move.
    let last = out.lines().last().unwrap_or_default();
    let played = last.strip_prefix("bestmove ").expect(&out);
    let game = Game::new(Arc::new(
        Engine::new(&Variant::bundled("copenhagen").unwrap().rules).unwrap(),
    ));
    assert!(
        game.legal_moves()
            .iter()
            .any(|mv| mv.to_string().replace('-', "") == played),
        "{out}"
    );
    let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let (code, out, _) = piped_within(
        &["--protocol", "opentafl"],
        &format!("rules {rules}\nanalyze 1 1000000000000\n"),
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "hello", "{out}");
    assert!(lines[1].starts_with("analysis 1 "), "{out}");
    // hnefatafl's protocol cannot interrupt `generate_move`; the end of input can.
    let (code, out, _) = piped_within(
        &["--protocol", "gtp"],
        "time_settings fischer 1000000000000 1000000000000\ngenerate_move\nfinal_status\n",
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "= ", "{out}");
    assert!(lines[1].starts_with("= play attacker "), "{out}");
    assert_eq!(lines[2..], ["", "= ongoing"], "{out}");
}

/// [`piped`], but a run still going after a minute is killed and fails the test instead of
/// hanging it: the searches asked for would take days.
fn piped_within(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Writing the input and closing the pipe is the end of input.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`tafl engine {args:?}` still ran a minute after its input ended");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), out, err)
}

/// Issue 49, defect 9: absurd times became a week's search. Every protocol's time is cut to
/// [`MAX_TIME`], ten minutes.
#[test]
fn absurd_times_are_cut_to_the_longest_a_move_may_think() {
    use tafl::protocol::MAX_TIME;
    assert_eq!(MAX_TIME, Duration::from_secs(600));
    let time = |step: tafl::protocol::Step| step.search.expect("a search").limits.time;
    let huge = 1_000_000_000_000u64;
    let mut uci = Uci::new(settings("brandubh")).unwrap();
    assert_eq!(
        time(uci.handle(&format!("go movetime {huge}"))),
        Some(MAX_TIME)
    );
    assert_eq!(
        time(uci.handle(&format!("go wtime {huge} btime {huge}"))),
        Some(MAX_TIME)
    );
    let boards = vec![Loaded::load("copenhagen").unwrap()];
    let mut gtp = Gtp::new(settings("copenhagen"), boards).unwrap();
    assert_eq!(
        gtp.handle(&format!("time_settings fischer {huge} {huge}"))
            .lines,
        ["= "]
    );
    assert_eq!(time(gtp.handle("generate_move")), Some(MAX_TIME));
    let mut opentafl = OpenTafl::new(settings("brandubh")).unwrap();
    let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    opentafl.handle(&format!("rules {rules}"));
    assert_eq!(
        time(opentafl.handle(&format!("analyze 1 {huge}"))),
        Some(MAX_TIME)
    );
    opentafl.handle(&format!("clock {huge} {huge} 0 0 0"));
    assert_eq!(time(opentafl.handle("play attackers")), Some(MAX_TIME));
}

#[test]
fn an_engine_that_cannot_load_its_variant_exits_1() {
    for protocol in ["uci", "gtp"] {
        let (code, out, err) = piped(
            &["--protocol", protocol, "--variant", "no-such-variant"],
            "",
        );
        assert_eq!(code, Some(1), "{protocol}");
        assert!(out.is_empty(), "{protocol}: {out}");
        assert!(err.contains("no-such-variant"), "{protocol}: {err}");
    }
}

/// A `tafl engine --protocol uci` process, for the tests that talk to it while it thinks.
struct UciProcess {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl UciProcess {
    fn start(variant: &str) -> UciProcess {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .args(["engine", "--protocol", "uci", "--variant", variant])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        UciProcess {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        use std::io::Write;
        writeln!(self.stdin, "{line}").unwrap();
    }

    fn next(&mut self) -> String {
        self.lines.next().unwrap().unwrap()
    }

    /// The next line that is not an `info` line.
    fn past_info(&mut self) -> String {
        loop {
            let line = self.next();
            if !line.starts_with("info ") {
                return line;
            }
        }
    }

    /// `stop`, and the move of the `bestmove` that answers it.
    fn stop(&mut self) -> tafl::Move {
        self.send("stop");
        let line = self.past_info();
        line.strip_prefix("bestmove ").unwrap().parse().unwrap()
    }

    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

#[test]
fn uci_answers_isready_and_stop_while_thinking() {
    let mut uci = UciProcess::start("copenhagen");
    uci.send("go infinite");
    // The search is under way once its first depth is reported.
    assert!(uci.next().starts_with("info depth 1 "));
    uci.send("isready");
    assert_eq!(
        uci.past_info(),
        "readyok",
        "isready is answered while the search goes on"
    );
    let best = uci.stop();
    let engine = Engine::new(&Variant::load("copenhagen").unwrap().rules).unwrap();
    assert!(engine.legal_moves(&engine.start()).contains(&best));
    uci.quit();
}

/// Issue 49: once a search has run a second, UCI says which root move it is on, one line a
/// move (`info depth D currmove M currmovenumber N`), as chess engines do. `go infinite` runs
/// as long as it takes to get there, and this reads until it has seen 20 such lines.
#[test]
fn uci_names_each_root_move_once_the_search_has_run_a_while() {
    let mut uci = UciProcess::start("copenhagen");
    let engine = Engine::new(&Variant::load("copenhagen").unwrap().rules).unwrap();
    let mut game = Game::new(Arc::new(engine));
    game.play("d1-d3".parse().unwrap()).unwrap();
    let legal = game.legal_moves();
    uci.send("position startpos moves d1d3");
    uci.send("go infinite");
    let shape = regex::Regex::new(
        r"^info depth ([1-9][0-9]*) currmove ([a-k](?:[1-9]|1[01])[a-k](?:[1-9]|1[01])) currmovenumber ([1-9][0-9]*)$",
    )
    .unwrap();
    let mut current: Vec<(u32, tafl::Move, usize)> = Vec::new();
    let mut depths_finished = 0;
    while current.len() < 20 {
        let line = uci.next();
        if line.contains(" currmove ") {
            let parts = shape
                .captures(&line)
                .unwrap_or_else(|| panic!("not a currmove line: {line}"));
            current.push((
                parts[1].parse().unwrap(),
                parts[2].parse().unwrap(),
                parts[3].parse().unwrap(),
            ));
        } else {
            assert!(line.starts_with("info depth "), "{line}");
            assert!(line.contains(" pv "), "{line}");
            depths_finished += 1;
        }
    }
    // The finished depths are reported as before; the moves come only after the first.
    assert!(depths_finished >= 1);
    for &(depth, mv, number) in &current {
        assert!(legal.contains(&mv), "{mv} is not legal here");
        assert!(
            number <= legal.len(),
            "move number {number} of {}",
            legal.len()
        );
        assert!(depth as usize > 0);
    }
    // The depth never falls; within a depth the numbers rise one a move, and start again from 1
    // only where the root is searched again (a new depth, or an aspiration window widened).
    for pair in current.windows(2) {
        let ((d1, m1, n1), (d2, m2, n2)) = (pair[0], pair[1]);
        assert!(d2 >= d1, "depth {d1} then {d2}");
        if d2 == d1 && n2 != 1 {
            assert_eq!(
                n2,
                n1 + 1,
                "move {m1} was number {n1}, then {m2} number {n2}"
            );
            assert_ne!(m1, m2);
        } else {
            assert_eq!(n2, 1, "a new search of the root starts from its first move");
        }
    }
    let best = uci.stop();
    assert!(legal.contains(&best));
    uci.quit();
}

#[test]
fn absurd_numbers_are_played_not_panicked_on() {
    let huge = u64::MAX;
    let mut uci = Driver::new(Uci::new(settings("brandubh")).unwrap());
    for go in [
        format!("go movetime {huge} depth 1"),
        format!("go wtime {huge} btime {huge} winc {huge} binc {huge} movestogo {huge} depth 1"),
        format!("go nodes {huge} depth 1"),
    ] {
        let out = uci.feed(&go);
        assert!(
            out.last().unwrap().starts_with("bestmove "),
            "{go}: {out:?}"
        );
    }
    let gtp = Gtp::new(
        settings("copenhagen"),
        vec![Loaded::load("copenhagen").unwrap()],
    )
    .unwrap();
    let mut gtp = Driver::new(gtp);
    assert_eq!(
        gtp.feed(&format!("time_settings fischer {huge} {huge}")),
        vec!["= "]
    );
    assert!(gtp.feed("generate_move")[0].starts_with("= play attacker "));
    assert!(gtp.feed("generate_move")[0].starts_with("= play defender "));
    let mut opentafl = Driver::new(OpenTafl::new(settings("brandubh")).unwrap());
    let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    opentafl.feed(&format!("rules {brandub}"));
    assert!(opentafl
        .feed(&format!(
            "clock {} {} {huge} {} 0",
            i64::MAX,
            i64::MAX,
            u32::MAX
        ))
        .is_empty());
    assert!(opentafl.feed("play attackers")[0].starts_with("move "));
    assert!(opentafl.feed(&format!("analyze 1 {huge}"))[0].starts_with("analysis 1 "));
}

/// Issue 49, defect 8: a byte that is not UTF-8 ended the engine (exit 0, nothing more
/// answered). It is a bad line now, answered with the protocol's error, and the next line is
/// read as usual; so is a line past the length limit.
#[test]
fn a_line_that_is_not_utf8_or_too_long_is_an_error_and_the_engine_goes_on() {
    let (code, out, _) = piped_bytes(
        &["--protocol", "uci", "--variant", "brandubh"],
        b"isready\n\xe9t\xe9\nisready\n",
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "readyok",
            "info string error: the line is not UTF-8 text",
            "readyok"
        ]
    );
    let (code, out, _) = piped_bytes(&["--protocol", "gtp"], b"name\n\xe9t\xe9\nname\n");
    assert_eq!(code, Some(0));
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["= tafl", "? the line is not UTF-8 text", "", "= tafl"]
    );
    let (code, out, _) = piped_bytes(&["--protocol", "opentafl"], b"\xe9t\xe9\nplay attackers\n");
    assert_eq!(code, Some(0));
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "hello",
            "error 0 the line is not UTF-8 text",
            "error 0 no rules yet: send `rules <rules string>` first"
        ]
    );
    // Two megabytes without a line end: one error, and the line after it is read.
    let mut long = b"isready\n".to_vec();
    long.extend(std::iter::repeat_n(b'x', 2 << 20));
    long.extend_from_slice(b"\nisready\n");
    let (code, out, _) = piped_bytes(&["--protocol", "uci", "--variant", "brandubh"], &long);
    assert_eq!(code, Some(0));
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "readyok",
            "info string error: the line is longer than 1048576 bytes",
            "readyok"
        ]
    );
}

/// A bad line that arrives while a search runs waits for it, as any command does, and is
/// answered after the search's answer (GTP answers in order).
#[test]
fn a_bad_line_behind_a_search_is_answered_in_its_turn() {
    let (code, out, _) = piped_bytes(
        &["--protocol", "gtp", "--depth", "2"],
        b"generate_move\n\xff\nfinal_status\n",
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("= play attacker "), "{out}");
    assert_eq!(
        lines[1..],
        ["", "? the line is not UTF-8 text", "", "= ongoing"],
        "{out}"
    );
}

/// An engine for the tests: `sh -c SCRIPT`.
fn sh(script: &str) -> Vec<String> {
    vec!["sh".to_string(), "-c".to_string(), script.to_string()]
}

/// Issue 49, defect 7: an engine that never stops writing kept `tafl match` waiting for ever
/// (every line restarted the wait) and buffering without limit (24 GB in five minutes). The
/// wait now ends at its deadline however many lines come, and no line is held past 64 KiB.
#[cfg(unix)]
#[test]
fn an_engine_that_writes_without_end_is_stopped_at_its_deadline_in_bounded_memory() {
    use tafl::protocol::line::LineError;
    let engine = Arc::new(Engine::new(&Variant::load("brandubh").unwrap().rules).unwrap());
    let start = |command: Vec<String>, timeout| {
        Client::start(&command, Kind::Uci, "brandubh", &engine, timeout)
    };
    // Short lines without pause, never `uciok`.
    let result = start(vec!["yes".to_string()], Duration::from_millis(500));
    assert!(matches!(result, Err(ClientError::Timeout(_))), "{result:?}");
    // One line without end.
    let result = start(
        vec!["cat".to_string(), "/dev/zero".to_string()],
        Duration::from_secs(60),
    );
    assert!(
        matches!(result, Err(ClientError::Unreadable(LineError::TooLong(_)))),
        "{result:?}"
    );
    // Set up properly, then asked for a move, it writes `info` lines for ever.
    let spammer = sh("echo uciok; read a; read b; read c; echo readyok; exec yes info string spam");
    let mut client = start(spammer, Duration::from_secs(10)).unwrap();
    let game = Game::new(engine.clone());
    let result = client.best_move(
        &game,
        Think::MoveTime(Duration::from_millis(50)),
        Duration::from_millis(500),
    );
    assert!(matches!(result, Err(ClientError::Timeout(_))), "{result:?}");
}

/// Issue 49, defect 2: `tafl match` sent an OpenTafl engine `play` and then `clock`, while
/// OpenTafl's own host sends `clock` first and OpenTafl's engine reads the clock when `play`
/// arrives (so it thought to its 10 s default and lost on time). The client's lines are logged
/// on their way to the engine: every `play` follows a `clock`, and (issue 45) an overtime-only
/// one, under which OpenTafl's engine thinks the same time on every move.
#[cfg(unix)]
#[test]
fn the_client_sends_an_opentafl_engine_the_clock_before_play() {
    let dir = std::env::temp_dir().join(format!("tafl-clock-first-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("sent.txt");
    let command = sh(&format!(
        "tee '{}' | '{}' engine --protocol opentafl --depth 1",
        log.display(),
        env!("CARGO_BIN_EXE_tafl")
    ));
    let engine = Arc::new(Engine::new(&Variant::load("brandubh").unwrap().rules).unwrap());
    let timeout = Duration::from_secs(30);
    let mut client = Client::start(&command, Kind::OpenTafl, "brandubh", &engine, timeout).unwrap();
    let mut game = Game::new(engine);
    for _ in 0..2 {
        let think = Think::MoveTime(Duration::from_millis(20));
        let mv = client.best_move(&game, think, timeout).unwrap();
        game.play(mv).unwrap();
        let answer = game.legal_moves()[0];
        game.play(answer).unwrap();
    }
    client.quit();
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let plays: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("play "))
        .collect();
    assert_eq!(plays.len(), 2, "{sent}");
    for i in plays {
        // Overtime alone, in whole-second periods: OpenTafl's engine thinks a period less
        // 750 ms on every move, where a main-time clock left it under its search's end pad.
        assert_eq!(lines[i - 1], "clock 0 0 1 9999 9999", "{sent}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, defect 11: `go ponder` was answered with an error and no `bestmove`. It searches
/// without a clock until `ponderhit`, then on the clock (its `movetime` here) and answers by
/// itself; or until `stop`.
#[test]
fn uci_ponders_until_ponderhit_or_stop_and_always_answers() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["engine", "--protocol", "uci", "--variant", "copenhagen"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Lines come through a channel, so that a missing answer fails the test, not hangs it.
    let (sender, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let next = || {
        lines
            .recv_timeout(Duration::from_secs(60))
            .expect("an answer within a minute")
    };
    let next_not_info = || loop {
        let line = next();
        if !line.starts_with("info ") {
            break line;
        }
    };
    for end in ["ponderhit", "stop"] {
        writeln!(stdin, "position startpos moves h1h3").unwrap();
        writeln!(stdin, "go ponder movetime 100").unwrap();
        let first = next();
        assert!(first.starts_with("info depth 1 "), "{end}: {first}");
        // Well past its movetime, the pondering search has not answered: it waits.
        std::thread::sleep(Duration::from_millis(400));
        writeln!(stdin, "isready").unwrap();
        assert_eq!(next_not_info(), "readyok", "{end}");
        writeln!(stdin, "{end}").unwrap();
        let answer = next_not_info();
        assert!(answer.starts_with("bestmove "), "{end}: {answer}");
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

/// Lines of arbitrary bytes for a protocol's line reader and commands: wholly random lines, and
/// lines that start with one of `words` followed by random bytes or by random text (so that
/// each command's own parser meets the junk, not only the reader).
fn junk(words: &'static [&'static str]) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let line = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..48),
        (prop::sample::select(words), "(?s).{0,32}")
            .prop_map(|(word, rest)| format!("{word} {rest}").into_bytes()),
        (
            prop::sample::select(words),
            prop::collection::vec(any::<u8>(), 0..32)
        )
            .prop_map(|(word, rest)| {
                let mut line = word.as_bytes().to_vec();
                line.push(b' ');
                line.extend(rest);
                line
            }),
    ];
    prop::collection::vec(line, 0..8).prop_map(|lines| lines.join(&b'\n'))
}

/// Settings for the fuzz: a small table (a session is made for every case) and depth 1.
fn fuzz_settings(variant: &str) -> Settings {
    Settings {
        hash_mb: 1,
        depth: Some(1),
        ..settings(variant)
    }
}

/// Every line written is one line: a host reads lines.
fn one_line_each(out: &[String]) -> bool {
    out.iter().all(|line| !line.contains(['\n', '\r']))
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(32))]

    /// Any bytes through UCI's line reader: no panic, every answer one line, and the engine
    /// still answers `isready`.
    #[test]
    fn uci_survives_arbitrary_bytes(bytes in junk(&[
        "uci", "isready", "setoption name", "setoption name Hash value", "ucinewgame",
        "position", "position startpos moves", "go", "go depth", "go mate", "stop", "ponderhit",
    ])) {
        let mut driver = Driver::new(Uci::new(fuzz_settings("brandubh")).unwrap());
        let out = driver.feed_bytes(&bytes);
        proptest::prop_assert!(one_line_each(&out), "{out:?}");
        if !driver.is_over() {
            proptest::prop_assert_eq!(driver.feed("isready"), vec!["readyok"]);
        }
    }

    /// Any bytes through hnefatafl's protocol: no panic, every answer one line, and the engine
    /// still answers `name`.
    #[test]
    fn gtp_survives_arbitrary_bytes(bytes in junk(&[
        "board_size", "first_move", "play", "play attacker", "play defender", "generate_move",
        "play_undo", "final_status", "show_board", "time_settings fischer", "known_command",
    ])) {
        let boards = vec![Loaded::load("brandubh").unwrap()];
        let gtp = Gtp::new(fuzz_settings("brandubh"), boards).unwrap();
        let mut driver = Driver::new(gtp);
        let out = driver.feed_bytes(&bytes);
        proptest::prop_assert!(one_line_each(&out), "{out:?}");
        if !driver.is_over() {
            proptest::prop_assert_eq!(driver.feed("name"), vec!["= tafl"]);
        }
    }

    /// Any bytes through the OpenTafl protocol, after a good `rules`: no panic, every answer
    /// one line, and the engine still answers.
    #[test]
    fn opentafl_survives_arbitrary_bytes(bytes in junk(&[
        "rules", "position", "side", "clock", "play", "play attackers", "analyze",
        "opponent-move", "move", "error", "finish",
    ])) {
        let mut driver = Driver::new(OpenTafl::new(fuzz_settings("brandubh")).unwrap());
        let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        driver.feed(&format!("rules {rules}"));
        let out = driver.feed_bytes(&bytes);
        proptest::prop_assert!(one_line_each(&out), "{out:?}");
        if !driver.is_over() {
            let answer = driver.feed("lunch");
            proptest::prop_assert_eq!(answer.len(), 1);
            proptest::prop_assert!(answer[0].starts_with("error 0 "), "{answer:?}");
        }
    }
}

/// Issue 62, item 5: a hash size whose memory cannot be had aborted the engine. Under a 1 GB
/// limit on the process's memory, 4096 MiB is now an error reply and the engine plays on; at
/// the start it is an error exit, and a size beyond what `setoption` takes is refused there
/// as here.
#[test]
fn a_hash_that_cannot_be_allocated_is_an_error_not_an_abort() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let limited = |args: &str, input: &str| {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1000000 && exec \"$0\" engine --protocol uci {args}"
            ))
            .arg(env!("CARGO_BIN_EXE_tafl"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, _) = limited(
        "--variant brandubh --hash 1",
        "setoption name Hash value 4096\nisready\nposition startpos\ngo depth 1\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "info string error: cannot allocate a transposition table of 4096 MiB: not enough memory"
    );
    assert_eq!(lines[1], "readyok");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    // No input: the engine may exit before it would read any.
    let (code, _, err) = limited("--hash 4096", "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("cannot allocate a transposition table of 4096 MiB"),
        "{err}"
    );
    let (code, _, err) = piped(&["--protocol", "uci", "--hash", "4097"], "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("4097 is not in 0..=4096"), "{err}");
}

/// Issue 62, item 5: GTP quoted a bad word whole, however long; every protocol now quotes
/// its first 64 characters and `...`.
#[test]
fn a_long_bad_word_is_quoted_in_part() {
    let long = "y".repeat(3000);
    let (_, out, _) = piped(
        &["--protocol", "gtp"],
        &format!("x{long}\nplay attacker a1{long} a2\nplay {long} a1 a2\n"),
    );
    let answers: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(answers.len(), 3, "{out}");
    let prefix = format!("x{}...", "y".repeat(63));
    assert_eq!(answers[0], format!("? unrecognized command: {prefix}"));
    for answer in &answers {
        assert!(answer.len() < 160, "{answer}");
        assert!(answer.contains("..."), "{answer}");
    }
    let (_, out, _) = piped(&["--protocol", "uci"], &format!("x{long}\n"));
    assert_eq!(
        out.trim_end(),
        format!("info string error: unknown command `{prefix}`")
    );
}
