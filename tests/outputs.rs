//! Issue 62: what the program does to a path the user names for its output (`show --svg`,
//! `import -o`), through the real binary. A regular file is replaced whole; a symlink is
//! written through; a FIFO or a device is written in place; a directory is refused; nobody who
//! can write to the folder can redirect the write through a planted temporary name.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;
use std::process::{Command, Output};

/// A rules string `tafl import` turns into a variant file.
const RULES: &str =
    "dim:7 name:Brandubh atkf:y surf:n ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// `show brandubh --svg PATH`.
fn svg(path: &Path) -> Output {
    tafl(&["show", "brandubh", "--svg", path.to_str().unwrap()])
}

/// `import --opentafl RULES -o PATH`.
fn import(path: &Path) -> Output {
    tafl(&["import", "--opentafl", RULES, "-o", path.to_str().unwrap()])
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A command that writes to a path, and a word that shows in what it writes.
type Writer = (fn(&Path) -> Output, &'static str);

/// Both writers.
fn writers() -> [Writer; 2] {
    [(svg, "<svg"), (import, "board 7")]
}

#[test]
fn a_symlink_to_a_file_is_written_through() {
    for (write, mark) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "old").unwrap();
        let link = dir.path().join("out");
        symlink(&target, &link).unwrap();
        let output = write(&link);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::read_to_string(&target).unwrap().contains(mark));
    }
}

#[test]
fn a_planted_temporary_name_does_not_redirect_the_write() {
    for (write, mark) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        // The old writer used `.NAME.PID.partial`: an attacker who can write to the folder
        // plants it as a symlink for every likely process id.
        let next = fs::read_to_string("/proc/sys/kernel/ns_last_pid")
            .ok()
            .and_then(|pid| pid.trim().parse::<u32>().ok())
            .unwrap_or(std::process::id());
        for pid in next..next + 200 {
            symlink(&victim, dir.path().join(format!(".out.{pid}.partial"))).unwrap();
        }
        let output = write(&dir.path().join("out"));
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert!(fs::read_to_string(dir.path().join("out"))
            .unwrap()
            .contains(mark));
    }
}

/// Whether this process runs as root, where a writer that replaced its path would replace the
/// machine's own `/dev/null`: such a run reaches the device only through a symlink in a
/// temporary folder, which a faulty writer would replace instead of the device. (Unknown counts
/// as root.)
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self").map_or(true, |m| m.uid() == 0)
}

/// `device` as the writers should be given it: itself where a faulty writer could not replace
/// it, else a symlink to it in `dir`.
fn device_path(dir: &Path, device: &str) -> std::path::PathBuf {
    if is_root() {
        let link = dir.join("device");
        symlink(device, &link).unwrap();
        link
    } else {
        device.into()
    }
}

#[test]
fn dev_null_stays_a_character_device() {
    for (write, _) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = device_path(dir.path(), "/dev/null");
        let output = write(&path);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(fs::metadata(&path).unwrap().file_type().is_char_device());
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }
}

/// `-o /dev/stdout` writes to standard output, whatever it is: here a pipe, which
/// `/proc/self/fd/1` names as `pipe:[...]`, no path to follow.
#[test]
fn dev_stdout_is_written_through_to_a_pipe() {
    let output = tafl(&["import", "--opentafl", RULES, "-o", "/dev/stdout"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("board 7"));
    let output = tafl(&["show", "brandubh", "--svg", "/dev/stdout"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("<svg"));
}

#[test]
fn a_fifo_is_written_through() {
    for (write, mark) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        let output = write(&fifo);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(reader.join().unwrap().contains(mark));
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
}

#[test]
fn a_directory_is_refused() {
    for (write, _) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let output = write(dir.path());
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains("is a directory"),
            "{}",
            stderr(&output)
        );
        assert!(fs::metadata(dir.path()).unwrap().is_dir());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

#[test]
fn a_full_device_is_an_error_exit() {
    for (write, _) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = device_path(dir.path(), "/dev/full");
        let output = write(&path);
        assert!(!output.status.success());
        let message = stderr(&output);
        assert!(message.contains("cannot write `"), "{message}");
        assert!(message.contains("No space left on device"), "{message}");
        assert!(fs::metadata(&path).unwrap().file_type().is_char_device());
        assert!(!message.contains("panicked"), "{message}");
        assert!(fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }
}

#[test]
fn a_regular_file_is_replaced_whole() {
    for (write, mark) in writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        fs::write(&path, "x".repeat(100_000)).unwrap();
        let output = write(&path);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(mark) && !text.contains("xxxx"), "{text}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

/// Issue 62, item 6: standard output on a full disk. Every command says so on standard error
/// and fails; none panics (`println!` did, exit 101).
#[test]
fn a_standard_output_that_cannot_be_written_is_an_error_not_a_panic() {
    let commands: &[&[&str]] = &[
        &["list"],
        &["list", "--json"],
        &["show", "copenhagen"],
        &["show", "brandubh", "--svg"],
        &["ir", "brandubh"],
        &["export", "--opentafl", "brandubh"],
        &["diff", "brandubh", "copenhagen"],
        &["moves", "brandubh"],
        &["perft", "brandubh", "2"],
        &["import", "--opentafl", RULES],
        &["lint", "brandubh"],
    ];
    for args in commands {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .args(*args)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::from(full))
            .output()
            .expect("the binary runs");
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {message}");
        assert!(
            message.contains("cannot write to standard output"),
            "{args:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

/// A reader that stops early (`tafl list | head -1`) ends the program quietly, as before.
#[test]
fn a_closed_pipe_stays_quiet() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The only reader goes at once: the first write meets a closed pipe.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let message = stderr(&output);
    assert!(!message.contains("panicked"), "{message}");
    assert!(!message.contains("error"), "{message}");
    assert!(
        output.status.signal() == Some(13) || output.status.code() == Some(141),
        "{:?}",
        output.status
    );
}
