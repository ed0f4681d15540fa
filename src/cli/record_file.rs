//! Record files as the commands read them (`tafl games`, `tafl match --book`, `tafl tune
//! --records`, `load` in `tafl play`): read whole, but never past a size limit, and their
//! problems shown up to a limit, the rest counted (docs/fuzzing.md).

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::record::limits::{DEFAULT_MAX_FILE_BYTES, MAX_DIAGNOSTICS};
use crate::record::RecordError;

/// The `--max-file-size` option of the commands that read many record files.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SizeLimit {
    /// The largest record file to read, in bytes or with a unit: `512K`, `1G`, `300MiB`
    /// (units are powers of 1,024) [default: 256MiB].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
}

impl SizeLimit {
    /// The limit asked for, or the default.
    pub fn bytes(self) -> u64 {
        self.max_file_size.unwrap_or(DEFAULT_MAX_FILE_BYTES)
    }
}

/// Why a record file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// It cannot be opened or read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is larger than the limit.
    #[error("{}, more than the {} a record file may be", size.map_or_else(|| "it goes on".to_string(), |n| format!("it is {n} bytes")), describe_size(*limit))]
    TooLarge {
        /// Its size, when the file system says (not for a device or a pipe).
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
    /// It is not UTF-8 text.
    #[error("it is not UTF-8 text (byte {at} is not)")]
    NotText {
        /// The offset of the first byte that is not.
        at: usize,
    },
}

/// Reads the record file at `path` as text, never more than `limit` bytes of it: a file the
/// file system says is larger is refused before it is read, and a device or a pipe (which
/// says nothing) when it passes the limit.
///
/// # Errors
/// [`ReadError`]: the file cannot be read, is larger than `limit`, or is not UTF-8 text.
pub fn read(path: &Path, limit: u64) -> Result<String, ReadError> {
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_file() && metadata.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(metadata.len()),
            limit,
        });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    String::from_utf8(bytes).map_err(|error| ReadError::NotText {
        at: error.utf8_error().valid_up_to(),
    })
}

/// Adds `path` to `files`, or, when it is a folder, every file under it to any depth. Entries
/// whose names start with `.` are left out, and links to folders are not followed (a link may
/// lead back up the tree).
///
/// # Errors
/// The path, or a folder under it, cannot be read.
pub fn walk(path: &Path, files: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_dir() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            if kind.is_dir() {
                folders.push(entry.path());
            } else if !kind.is_symlink() || entry.path().is_file() {
                files.push(entry.path());
            }
        }
    }
    Ok(())
}

/// Sorts paths as people count: runs of digits compare as numbers, so `game-16-1-9.json`
/// comes before `game-16-1-10.json`.
pub fn sort_naturally(paths: &mut [std::path::PathBuf]) {
    paths.sort_by_cached_key(|path| natural_key(&path.to_string_lossy()));
}

/// The text cut into runs of digits (as numbers) and runs of anything else.
fn natural_key(text: &str) -> Vec<(String, u128)> {
    let mut key = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 {
            // A run too long for a number sorts after every number.
            key.push((String::new(), rest[..digits].parse().unwrap_or(u128::MAX)));
            rest = &rest[digits..];
        } else {
            let other = rest
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(rest.len());
            key.push((rest[..other].to_string(), 0));
            rest = &rest[other..];
        }
    }
    key
}

/// `n` in the largest unit that divides it: `256 MiB`, `1 KiB`, `1000 bytes`.
pub fn describe_size(n: u64) -> String {
    let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    units
        .iter()
        .find(|(unit, _)| n >= *unit && n.is_multiple_of(*unit))
        .map_or_else(
            || format!("{n} bytes"),
            |(unit, name)| format!("{} {name}", n / unit),
        )
}

/// Reads `--max-file-size`: a number of bytes, or a number and a unit (`K`, `M`, `G`, with or
/// without `iB` or `B`; powers of 1,024).
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("`{unit}` is not a unit: write K, M or G")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| "write a number of bytes, with K, M or G if you like: `512M`".to_string())?;
    n.checked_mul(1 << shift)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{text}` is not a size between 1 byte and 16 EiB"))
}

/// The problems of a command's record files, printed on standard error up to
/// [`MAX_DIAGNOSTICS`] in all; the rest are counted, and [`Problems::finish`] says how many.
#[derive(Debug, Default)]
pub struct Problems {
    shown: usize,
    hidden: usize,
}

impl Problems {
    /// Shows a game that cannot be read, with the lines around it, if the limit allows.
    pub fn record_error(&mut self, error: &RecordError, name: &str, text: &str) {
        if self.allow() {
            super::render::eprint_record_error(error, name, text);
        }
    }

    /// Shows a one-line problem (`error: …`), if the limit allows.
    pub fn line(&mut self, message: impl fmt::Display) {
        if self.allow() {
            eprintln!("error: {message}");
        }
    }

    fn allow(&mut self) -> bool {
        if self.shown < MAX_DIAGNOSTICS {
            self.shown += 1;
            true
        } else {
            self.hidden += 1;
            false
        }
    }

    /// Problems seen, shown or not.
    pub fn count(&self) -> usize {
        self.shown + self.hidden
    }

    /// Says how many problems were not shown, if any.
    pub fn finish(&self) {
        if self.hidden > 0 {
            eprintln!(
                "note: {} more problems are not shown: only the first {MAX_DIAGNOSTICS} are; fix these and run again",
                self.hidden
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_sort_as_people_count() {
        let mut paths: Vec<std::path::PathBuf> =
            ["g-16-10.json", "g-9-2.json", "g-16-9.json", "g-16-1.json"]
                .iter()
                .map(Into::into)
                .collect();
        sort_naturally(&mut paths);
        let sorted: Vec<_> = paths
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            sorted,
            ["g-9-2.json", "g-16-1.json", "g-16-9.json", "g-16-10.json"]
        );
    }

    #[test]
    fn folders_are_walked_to_any_depth_without_hidden_entries() {
        let dir = std::env::temp_dir().join(format!("tafl-walk-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        std::fs::create_dir_all(dir.join(".hidden")).unwrap();
        for file in [
            "top.json",
            "a/one.json",
            "a/b/two.json",
            ".hidden/no.json",
            ".no.json",
        ] {
            std::fs::write(dir.join(file), "{}").unwrap();
        }
        let mut files = Vec::new();
        walk(&dir, &mut files).unwrap();
        sort_naturally(&mut files);
        let names: Vec<_> = files
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a/b/two.json", "a/one.json", "top.json"]);
        assert!(walk(&dir.join("missing"), &mut files).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes_read_and_print_in_binary_units() {
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("300MiB"), Ok(300 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("99999999999G").is_err());
        assert_eq!(describe_size(DEFAULT_MAX_FILE_BYTES), "256 MiB");
        assert_eq!(describe_size(1536), "1536 bytes");
        assert_eq!(describe_size(3 << 10), "3 KiB");
    }
}
