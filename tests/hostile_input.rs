//! Issue 62, the small ones: an empty `.otg` is no game, and a capture list with empty items
//! (`d6-c6xxxx`) is no move; both are refused with a message, not read as something.

use std::process::{Command, Output};

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_empty_otg_file_holds_no_game() {
    let dir = tempfile::tempdir().unwrap();
    for text in ["", "\n  \n"] {
        let path = dir.path().join("empty.otg");
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let check = tafl(&["games", "check", "brandubh", path]);
        assert_eq!(check.status.code(), Some(2), "{}", stderr(&check));
        assert!(
            stderr(&check).contains("the file is empty"),
            "{}",
            stderr(&check)
        );
        let stats = tafl(&["games", "stats", "brandubh", path, "--json"]);
        assert_ne!(stats.status.code(), Some(0), "{}", stderr(&stats));
        assert!(
            stderr(&stats).contains("the file is empty"),
            "{}",
            stderr(&stats)
        );
    }
}

#[test]
fn an_empty_capture_list_is_refused() {
    for word in ["d6-c6xxxx", "d6-c6xx", "d6-c6xc5x", "d6-c6xc5/"] {
        let output = tafl(&["replay", "brandubh", word]);
        assert_eq!(output.status.code(), Some(2), "{word}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(word),
            "{word}: {}",
            stderr(&output)
        );
    }
    // A bare `x` still says "a capture, somewhere" (some annotators write it), and checks
    // nothing: the move stands.
    let bare = tafl(&["replay", "brandubh", "d6-c6x"]);
    assert!(bare.status.success(), "{}", stderr(&bare));
    let plain = tafl(&["replay", "brandubh", "d6-c6"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
}
