//! The one way the program writes a file the user named (`--svg`, `-o`, `--out`, `--samples`,
//! the REPL's `save`): what stands at the path decides how.
//!
//! - Nothing, or a regular file: the contents go into a temporary file beside it, created
//!   exclusively under an unpredictable name (so that nobody who can write to the folder can
//!   plant a symlink where the temporary file will be), then renamed over the path. An error or
//!   an interruption never leaves a partial file where the user expects the result.
//! - A symlink: written through to its target, by the same rules (a dangling one creates its
//!   target), never replaced by a regular file.
//! - A FIFO, a device (`/dev/stdout`, `/dev/null`) or another file that is not regular: opened
//!   and written in place, never replaced.
//! - A directory: refused.

use std::fmt;
use std::fs::{self, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many symlinks a path may pass through before the write gives up, as the kernel's
/// `ELOOP` does (Linux allows 40).
const MAX_LINKS: usize = 40;

/// Why a file could not be written. Its message names the path as the user gave it, with any
/// control character escaped.
#[derive(Debug)]
pub struct OutputError {
    path: PathBuf,
    kind: ErrorKind,
}

/// What went wrong writing a path.
#[derive(Debug)]
pub enum ErrorKind {
    /// The path (or the end of its symlinks) is a directory.
    Directory,
    /// The path passes through more than [`MAX_LINKS`] symlinks (or a loop of them).
    TooManyLinks,
    /// The system refused: no room on the device, no permission, no such folder.
    Io(io::Error),
}

#[cfg(test)]
impl OutputError {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display().to_string();
        write!(f, "cannot write `{}`: ", crate::printable::quoted(&path))?;
        match &self.kind {
            ErrorKind::Directory => f.write_str("it is a directory; name a file (in it) instead"),
            ErrorKind::TooManyLinks => write!(
                f,
                "it passes through more than {MAX_LINKS} symbolic links (a loop?)"
            ),
            ErrorKind::Io(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for OutputError {}

/// Writes `contents` to `path` by the rules of this module (see its documentation).
///
/// # Errors
///
/// When `path` is a directory, passes through too many symlinks, or the system refuses a
/// step (a full device, a folder without write permission, a missing folder).
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), OutputError> {
    let fail = |kind| OutputError {
        path: path.to_path_buf(),
        kind,
    };
    let contents = contents.as_ref();
    let mut target = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let metadata = match fs::symlink_metadata(&target) {
            Ok(metadata) => Some(metadata),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(fail(ErrorKind::Io(error))),
        };
        match metadata {
            Some(metadata) if metadata.file_type().is_symlink() => {
                // What the kernel reaches through the links: a FIFO, a device or a pipe is
                // opened through them (`/dev/stdout` is a link to `/proc/self/fd/1`, whose
                // target may be `pipe:[...]`, no path at all); a file or nothing is followed
                // link by link below, to write the target whole.
                match fs::metadata(&target) {
                    Ok(reached) if reached.is_dir() => return Err(fail(ErrorKind::Directory)),
                    Ok(reached) if !reached.is_file() => {
                        return in_place(&target, contents).map_err(|e| fail(ErrorKind::Io(e)))
                    }
                    Ok(_) | Err(_) => {}
                }
                let link = fs::read_link(&target).map_err(|e| fail(ErrorKind::Io(e)))?;
                // A relative link is read from the link's own folder.
                target = match target.parent() {
                    Some(folder) => folder.join(link),
                    None => link,
                };
            }
            Some(metadata) if metadata.is_dir() => return Err(fail(ErrorKind::Directory)),
            Some(metadata) if metadata.is_file() => {
                return replace(&target, contents, Some(&metadata))
                    .map_err(|e| fail(ErrorKind::Io(e)))
            }
            Some(_) => return in_place(&target, contents).map_err(|e| fail(ErrorKind::Io(e))),
            None => return replace(&target, contents, None).map_err(|e| fail(ErrorKind::Io(e))),
        }
    }
    Err(fail(ErrorKind::TooManyLinks))
}

/// Writes a regular file (or one that does not exist yet) whole: a temporary file in the same
/// folder, so that the rename stays on one file system and is atomic. `tempfile` creates it
/// with `O_CREAT | O_EXCL` under a random name, so a symlink planted in the folder is never
/// followed, and removes it if anything fails before the rename.
fn replace(path: &Path, contents: &[u8], old: Option<&Metadata>) -> io::Result<()> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default();
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".partial");
    // A new file gets the usual mode (0666 less the umask) rather than tempfile's private
    // 0600; a replaced one keeps its own.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temporary = builder.tempfile_in(folder)?;
    temporary.write_all(contents)?;
    temporary.as_file().flush()?;
    if let Some(old) = old {
        temporary.as_file().set_permissions(old.permissions())?;
    }
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes a FIFO or a device where it stands: replacing it would turn `/dev/null` into a
/// regular file, and a reader waiting on a FIFO would never see the contents.
fn in_place(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(contents)?;
    file.flush()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::os::unix::fs::{symlink, FileTypeExt};

    /// A kind of thing that can stand at an output path.
    #[derive(Debug, Clone, Copy)]
    enum Kind {
        Missing,
        Regular,
        LinkToRegular,
        DanglingLink,
        LinkToNull,
        Directory,
        LinkToDirectory,
        Fifo,
        LinkLoop,
    }

    /// Makes `kind` at `path` (in `dir`) and says what a write of `contents` must leave.
    fn plant(dir: &Path, path: &Path, kind: Kind) {
        match kind {
            Kind::Missing => {}
            Kind::Regular => fs::write(path, "old").unwrap(),
            Kind::LinkToRegular => {
                fs::write(dir.join("target"), "old").unwrap();
                symlink("target", path).unwrap();
            }
            Kind::DanglingLink => symlink("nowhere", path).unwrap(),
            Kind::LinkToNull => symlink("/dev/null", path).unwrap(),
            Kind::Directory => fs::create_dir(path).unwrap(),
            Kind::LinkToDirectory => {
                fs::create_dir(dir.join("folder")).unwrap();
                symlink("folder", path).unwrap();
            }
            Kind::Fifo => nix::unistd::mkfifo(path, nix::sys::stat::Mode::S_IRWXU).unwrap(),
            Kind::LinkLoop => {
                symlink("b", path).unwrap();
                symlink(path.file_name().unwrap(), dir.join("b")).unwrap();
            }
        }
    }

    /// The names in `dir`, sorted, so that a test sees whether a temporary file was left.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn kind() -> impl Strategy<Value = Kind> {
        prop_oneof![
            Just(Kind::Missing),
            Just(Kind::Regular),
            Just(Kind::LinkToRegular),
            Just(Kind::DanglingLink),
            Just(Kind::LinkToNull),
            Just(Kind::Directory),
            Just(Kind::LinkToDirectory),
            Just(Kind::Fifo),
            Just(Kind::LinkLoop),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The writer's contract over every kind of path: what it writes is what a reader of
        /// the path then finds; symlinks, FIFOs and devices stay what they were; a directory or
        /// a loop is refused and left alone; no temporary file is left behind.
        #[test]
        fn every_kind_of_path_gets_the_contract(
            kind in kind(),
            contents in proptest::collection::vec(any::<u8>(), 0..2048),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("out.svg");
            plant(dir.path(), &path, kind);
            let before = names(dir.path());
            let reader = matches!(kind, Kind::Fifo).then(|| {
                let path = path.clone();
                std::thread::spawn(move || fs::read(path).unwrap())
            });
            let written = write(&path, &contents);
            match kind {
                Kind::Missing | Kind::Regular => {
                    prop_assert!(written.is_ok(), "{written:?}");
                    prop_assert!(fs::symlink_metadata(&path).unwrap().is_file());
                    prop_assert_eq!(fs::read(&path).unwrap(), contents);
                }
                Kind::LinkToRegular | Kind::DanglingLink => {
                    prop_assert!(written.is_ok(), "{written:?}");
                    prop_assert!(fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
                    prop_assert_eq!(fs::read(&path).unwrap(), contents);
                }
                Kind::LinkToNull => {
                    prop_assert!(written.is_ok(), "{written:?}");
                    prop_assert!(fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
                    prop_assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
                }
                Kind::Directory | Kind::LinkToDirectory => {
                    prop_assert!(
                        matches!(written.as_ref().map_err(OutputError::kind), Err(ErrorKind::Directory)),
                        "{written:?}"
                    );
                    prop_assert!(fs::metadata(&path).unwrap().is_dir());
                }
                Kind::Fifo => {
                    prop_assert!(written.is_ok(), "{written:?}");
                    prop_assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
                    prop_assert_eq!(reader.unwrap().join().unwrap(), contents);
                }
                Kind::LinkLoop => {
                    prop_assert!(
                        matches!(written.as_ref().map_err(OutputError::kind), Err(ErrorKind::TooManyLinks)),
                        "{written:?}"
                    );
                }
            }
            // A new name appears only where nothing stood (or a link pointed nowhere).
            let mut expected = before;
            match kind {
                Kind::Missing => expected.push("out.svg".into()),
                Kind::DanglingLink => expected.push("nowhere".into()),
                _ => {}
            }
            expected.sort();
            prop_assert_eq!(names(dir.path()), expected);
        }
    }

    #[test]
    fn a_planted_link_at_the_old_temporary_name_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let path = dir.path().join("out.svg");
        // The old writer's temporary name, planted for this process and its neighbours.
        for pid in std::process::id().saturating_sub(8)..std::process::id() + 8 {
            symlink(&victim, dir.path().join(format!(".out.svg.{pid}.partial"))).unwrap();
        }
        write(&path, "picture").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(fs::read_to_string(&path).unwrap(), "picture");
    }

    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("weights.json");
        fs::write(&path, "{}").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, "{\"a\": 1}").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn a_full_device_is_an_error_and_stays_a_device() {
        // Through a symlink: were the writer to replace what it is given, it would replace the
        // link, not the machine's /dev/full (tests may run as root).
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("full");
        symlink("/dev/full", &link).unwrap();
        let written = write(&link, "picture");
        let error = written.expect_err("/dev/full has no room");
        assert!(error.to_string().contains("No space left"), "{error}");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn a_path_with_a_control_character_is_quoted_in_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-folder/\u{1b}[2J.svg");
        let error = write(&path, "x").expect_err("the folder is missing");
        assert!(!error.to_string().contains('\u{1b}'), "{error}");
        assert!(error.to_string().contains("\\u{1b}[2J"), "{error}");
    }
}
