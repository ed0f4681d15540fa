//! `tafl train`: a tiny run on a 7x7 variant writes its files, goes on where it stopped, and
//! its fit lowers its loss; the network it writes plays through `--network`, and one for
//! another board is refused naming both.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .expect("tafl runs")
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn log(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("log.jsonl"))
        .expect("a log")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn train(extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "brandubh",
        "--games",
        "8",
        "--pairs",
        "2",
        "--epochs",
        "20",
        "--threads",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    tafl(&args)
}

#[test]
fn a_tiny_run_writes_its_files_resumes_and_its_fit_lowers_the_loss() {
    let dir = scratch("run");
    let out = dir.to_str().expect("a UTF-8 path");
    let first = train(&["--generations", "1", "--out", out]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    for file in [
        "run.json",
        "log.jsonl",
        "gen-001.npy",
        "gen-001.nnue",
        "gen-001.f32",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    // The openings are drawn among plausible moves unless a run says otherwise.
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).expect("run.json"))
            .expect("JSON");
    assert_eq!(run["opening_moves"], "plausible");
    let lines = log(&dir);
    assert_eq!(lines.len(), 1);
    let g = &lines[0];
    assert_eq!(g["generation"], 1);
    assert_eq!(g["games"], 8);
    assert_eq!(g["player"], "hand:small-corners");
    assert_eq!(g["pairs"], 2);
    let before = g["loss_before"].as_f64().expect("a loss");
    let after = g["loss_after"].as_f64().expect("a loss");
    assert!(after < before, "the fit went from {before} to {after}");
    // --json printed the same record.
    let printed: serde_json::Value = serde_json::from_slice(&first.stdout).expect("one JSON line");
    assert_eq!(&printed, g);
    // The positions file: a NumPy header, then 49 + 12 bytes a position.
    let npy = std::fs::read(dir.join("gen-001.npy")).expect("positions");
    assert!(npy.starts_with(b"\x93NUMPY\x01\x00"));
    let header = usize::from(u16::from_le_bytes([npy[8], npy[9]]));
    let positions = g["positions"].as_u64().expect("a count") as usize;
    assert!(positions > 8, "{positions}");
    assert_eq!(npy.len(), 10 + header + positions * 61);

    // A second run into the same directory is refused; --resume goes on.
    let again = train(&["--generations", "1", "--out", out]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = train(&["--generations", "2", "--resume", out]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let lines = log(&dir);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["generation"], 2);
    let player = if lines[0]["kept"] == true {
        "network:gen-001.nnue"
    } else {
        "hand:small-corners"
    };
    assert_eq!(lines[1]["player"], player);
    assert!(dir.join("gen-002.nnue").exists());
    // The second fit started from the positions of both generations.
    assert_eq!(
        lines[1]["fitted"].as_u64(),
        Some(lines[0]["positions"].as_u64().unwrap() + lines[1]["positions"].as_u64().unwrap())
    );

    // The network plays through --network, and JSON says so; another board refuses it.
    let net = dir.join("gen-001.nnue");
    let net = net.to_str().expect("a UTF-8 path");
    let best = tafl(&[
        "best",
        "brandubh",
        "--depth",
        "2",
        "--json",
        "--network",
        net,
    ]);
    assert!(
        best.status.success(),
        "{}",
        String::from_utf8_lossy(&best.stderr)
    );
    let answer: serde_json::Value = serde_json::from_slice(&best.stdout).expect("JSON");
    assert_eq!(answer["evaluation"], "network:gen-001.nnue");
    let refused = tafl(&["best", "copenhagen", "--depth", "1", "--network", net]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("gen-001.nnue") && said.contains("Copenhagen"),
        "{said}"
    );
    assert!(said.contains("7x7") && said.contains("11x11"), "{said}");
    // A match spec takes it too.
    let spec = format!("depth=1,network={net}");
    let matched = tafl(&[
        "match",
        "brandubh",
        "--a",
        &spec,
        "--b",
        "depth=1,network=none",
        "--pairs",
        "1",
        "--json",
    ]);
    assert!(
        matched.status.success(),
        "{}",
        String::from_utf8_lossy(&matched.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&matched.stdout).expect("JSON");
    assert_eq!(summary["a_evaluation"], "network:gen-001.nnue");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_network_the_hand_evaluation_plays_and_says_so() {
    let best = tafl(&["best", "brandubh", "--depth", "1", "--json"]);
    assert!(best.status.success());
    let answer: serde_json::Value = serde_json::from_slice(&best.stdout).expect("JSON");
    assert_eq!(answer["evaluation"], "hand:small-corners");
    let broken = scratch("broken");
    std::fs::create_dir_all(&broken).expect("a directory");
    let file = broken.join("broken.nnue");
    std::fs::write(&file, b"{\"format\":\"tafl-network\"}\nxx").expect("written");
    let refused = tafl(&[
        "best",
        "brandubh",
        "--network",
        file.to_str().expect("UTF-8"),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is not a network file"));
    let _ = std::fs::remove_dir_all(&broken);
}

#[test]
fn only_data_writes_the_positions_alone() {
    let dir = scratch("data");
    let out = dir.to_str().expect("a UTF-8 path");
    let run = train(&["--generations", "1", "--only-data", "--out", out]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(dir.join("gen-001.npy").exists());
    assert!(!dir.join("gen-001.nnue").exists());
    let lines = log(&dir);
    assert_eq!(lines[0]["loss_before"], serde_json::Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_variant_exits_2() {
    let out = tafl(&["train", "no-such-variant.tafl", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
}
