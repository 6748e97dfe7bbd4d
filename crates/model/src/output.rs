//! Files dgscope writes (reports, recordings): no write may destroy a file. Outputs are created
//! with create-new semantics (`O_CREAT|O_EXCL`, which never follows a symlink, so a planted
//! link cannot redirect a write), an existing target is refused unless the user said `--force`,
//! an output that is one of the inputs is always refused, and a replaced file is replaced by a
//! rename from a complete temporary file in the same directory, so it is never half-written.
//! Text files dgscope reads (the config file, themes) are read bounded ([`read_bounded`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Why an output cannot be written; each names the path and what to do.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path}: already exists; choose another name or pass --force to replace it")]
    Exists { path: String },
    #[error("{path}: is the input {what}; writing there would destroy it, choose another name")]
    IsInput { path: String, what: String },
    #[error("{path}: is not a regular file (a directory, device or FIFO); choose a file name")]
    NotRegular { path: String },
    #[error("{path}: cannot write: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: was replaced by another writer while this one ran (two runs with --force to one name?); this one is kept as {kept}")]
    Replaced { path: String, kept: String },
}

/// What names a file on its file system: another writer replacing it changes this.
fn identity(path: &Path) -> Option<(u64, u64)> {
    let m = std::fs::symlink_metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((m.dev(), m.ino()))
    }
    // Elsewhere only whether it is there (dgscope runs on Linux).
    #[cfg(not(unix))]
    {
        let _ = m;
        Some((0, 0))
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// `-o -` means standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// True when `a` and `b` name the same existing file (through links, `./`, `..` or hard links).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            x.dev() == y.dev() && x.ino() == y.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok(),
        _ => false,
    }
}

/// Whether `path` is the null device: `-o /dev/null` discards, as a shell user expects.
pub fn is_null_device(path: &Path) -> bool {
    cfg!(unix) && same_file(path, Path::new("/dev/null"))
}

/// Refuses an output that is the input (`report incident X.jsonl -o X.jsonl`), or that exists
/// without `force`, or that is not a regular file. Run before any work, so nothing is lost.
pub fn check_target(path: &Path, inputs: &[(&Path, &str)], force: bool) -> Result<(), OutputError> {
    let display = path.display().to_string();
    for (input, what) in inputs {
        if same_file(path, input) {
            return Err(OutputError::IsInput {
                path: display,
                what: what.to_string(),
            });
        }
    }
    if is_null_device(path) {
        return Ok(());
    }
    match std::fs::symlink_metadata(path) {
        Ok(_) if !force => Err(OutputError::Exists { path: display }),
        // With --force a symlink is replaced (the rename replaces the link, not its target);
        // a directory or a device is never a report.
        Ok(m) if !(m.is_file() || m.file_type().is_symlink()) => {
            Err(OutputError::NotRegular { path: display })
        }
        _ => Ok(()),
    }
}

/// Creates `path` only if nothing (not even a dangling symlink) is there.
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A temporary name beside `path` (same directory, so the final rename stays on one file
/// system and is atomic), created new.
fn temp_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    for _ in 0..1000 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match create_new(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free temporary name"))
}

/// Moves a complete temporary file into place. Without `force` the move must not replace
/// anything (a hard link fails if the name exists, which closes the race a check-then-rename
/// would leave); with `force` a rename replaces the old file in one step.
fn publish(tmp: &Path, path: &Path, force: bool) -> Result<(), OutputError> {
    let display = path.display().to_string();
    let result = if force {
        std::fs::rename(tmp, path).map_err(io_err(path))
    } else {
        match std::fs::hard_link(tmp, path) {
            Ok(()) => {
                let _ = std::fs::remove_file(tmp);
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                Err(OutputError::Exists { path: display })
            }
            // File systems without hard links: fall back to a checked rename.
            Err(_) if std::fs::symlink_metadata(path).is_err() => {
                std::fs::rename(tmp, path).map_err(io_err(path))
            }
            Err(_) => Err(OutputError::Exists { path: display }),
        }
    };
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}

/// Writes a whole report: to stdout for `-`, else through a temporary file renamed into place.
pub fn write_file(path: &Path, bytes: &[u8], force: bool) -> Result<(), OutputError> {
    if is_null_device(path) {
        return Ok(());
    }
    let (tmp, mut f) = temp_beside(path).map_err(io_err(path))?;
    let written = f.write_all(bytes).and_then(|_| f.sync_all());
    drop(f);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(path)(e));
    }
    publish(&tmp, path, force)
}

/// A file written as a stream (a recording). A new name is created in place with create-new
/// (a crash leaves a readable prefix under the real name); a file replaced with `--force` is
/// written beside it and renamed over it by [`StreamFile::finish`], so the old one survives
/// until the new one is complete.
pub struct StreamFile {
    pub file: File,
    path: PathBuf,
    temp: Option<PathBuf>,
    force: bool,
    /// The file being replaced, as it was when this one started.
    replacing: Option<(u64, u64)>,
}

impl StreamFile {
    pub fn create(path: &Path, force: bool) -> Result<StreamFile, OutputError> {
        check_target(path, &[], force)?;
        if is_null_device(path) {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io_err(path))?;
            return Ok(StreamFile {
                file,
                path: path.to_path_buf(),
                temp: None,
                force,
                replacing: None,
            });
        }
        let exists = std::fs::symlink_metadata(path).is_ok();
        if exists {
            let (tmp, file) = temp_beside(path).map_err(io_err(path))?;
            return Ok(StreamFile {
                file,
                path: path.to_path_buf(),
                temp: Some(tmp),
                force,
                replacing: identity(path),
            });
        }
        match create_new(path) {
            Ok(file) => Ok(StreamFile {
                file,
                path: path.to_path_buf(),
                temp: None,
                force,
                replacing: None,
            }),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(OutputError::Exists {
                path: path.display().to_string(),
            }),
            Err(e) => Err(io_err(path)(e)),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A second handle on the file being written (for a writer that owns its `File`).
    pub fn try_clone(&self) -> io::Result<File> {
        self.file.try_clone()
    }

    /// Puts a replacement in place; a file created new is already there.
    pub fn finish(self) -> Result<(), OutputError> {
        let _ = self.file.sync_all();
        let Some(tmp) = &self.temp else {
            return Ok(());
        };
        // Another run replaced the same name meanwhile: renaming over it would lose its
        // recording without a word. Keep this one beside it under a name of its own.
        if identity(&self.path) != self.replacing {
            let dir = self.path.parent().unwrap_or(Path::new("."));
            let name = self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "out".into());
            for n in 1..10_000u32 {
                let kept = dir.join(format!("{name}.{n}"));
                if std::fs::hard_link(tmp, &kept).is_ok() {
                    let _ = std::fs::remove_file(tmp);
                    return Err(OutputError::Replaced {
                        path: self.path.display().to_string(),
                        kept: kept.display().to_string(),
                    });
                }
            }
            return Err(OutputError::Replaced {
                path: self.path.display().to_string(),
                kept: tmp.display().to_string(),
            });
        }
        publish(tmp, &self.path, self.force)
    }

    /// A write failed half-way: a replacement is dropped (the old file stays), a new file keeps
    /// the prefix written so far (readers tolerate a cut last line).
    pub fn abandon(self) {
        if let Some(tmp) = &self.temp {
            let _ = std::fs::remove_file(tmp);
        } else if self
            .file
            .metadata()
            .is_ok_and(|m| m.is_file() && m.len() == 0)
        {
            // Nothing reached the disk (a compressed recording on a full disk): an empty
            // file is no recording, only a name in the way of the next try.
            drop(self.file);
            let _ = std::fs::remove_file(&self.path);
        }
    }

    /// Removes what was written (the run failed before producing anything useful).
    pub fn discard(self) {
        let victim = self.temp.as_deref().unwrap_or(&self.path).to_path_buf();
        drop(self.file);
        let _ = std::fs::remove_file(victim);
    }
}

/// A new file in `dir` named `{prefix}-{YYYYMMDD-HHMMSS.mmm}[-N].{ext}`: milliseconds and a
/// counter, each name created new, so two screens in the same millisecond, or `r` pressed
/// three times in a second, or a symlink planted at the next name, never share or follow one.
pub fn create_unique(
    dir: &Path,
    prefix: &str,
    stamp: &str,
    ext: &str,
) -> io::Result<(PathBuf, File)> {
    for n in 0..10_000u32 {
        let name = if n == 0 {
            format!("{prefix}-{stamp}.{ext}")
        } else {
            format!("{prefix}-{stamp}-{n}.{ext}")
        };
        let path = dir.join(name);
        match create_new(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "no free name {prefix}-{stamp}-N.{ext} in {}",
        dir.display()
    )))
}

/// A whole file (a report) under a unique name as [`create_unique`] picks it, written to a
/// temporary file first and linked into place, so the name never shows half a report.
pub fn write_unique(
    dir: &Path,
    prefix: &str,
    stamp: &str,
    ext: &str,
    bytes: &[u8],
) -> io::Result<PathBuf> {
    let probe = dir.join(format!("{prefix}-{stamp}.{ext}"));
    let (tmp, mut f) = temp_beside(&probe)?;
    let written = f.write_all(bytes).and_then(|_| f.sync_all());
    drop(f);
    let result = written.and_then(|_| {
        for n in 0..10_000u32 {
            let path = if n == 0 {
                probe.clone()
            } else {
                dir.join(format!("{prefix}-{stamp}-{n}.{ext}"))
            };
            match std::fs::hard_link(&tmp, &path) {
                Ok(()) => return Ok(path),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("no free name"))
    });
    let _ = std::fs::remove_file(&tmp);
    result
}

/// `2026-11-30T05:03:12.345Z` → `20261130-050312.345`: milliseconds, safe in any file system.
pub fn file_stamp(t: crate::timestamp::Timestamp) -> String {
    let digits: String = t
        .to_string()
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect();
    if digits.len() >= 17 {
        format!("{}-{}.{}", &digits[..8], &digits[8..14], &digits[14..17])
    } else {
        digits
    }
}

/// Reads a text file of at most `max` bytes, reading no more than `max + 1` whatever it is
/// (a device, a symlink to `/dev/zero`, a huge file).
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::other("is a directory"));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "larger than {} KiB, the most dgscope reads from such a file; is it the right file?",
            max / 1024
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::other(format!(
            "not UTF-8 text (byte {} is invalid)",
            e.utf8_error().valid_up_to()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    #[test]
    fn existing_targets_are_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.md");
        write_file(&p, b"one", false).unwrap();
        let e = check_target(&p, &[], false).unwrap_err().to_string();
        assert!(
            e.ends_with("r.md: already exists; choose another name or pass --force to replace it"),
            "{e}"
        );
        assert!(matches!(
            write_file(&p, b"two", false),
            Err(OutputError::Exists { .. })
        ));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_file(&p, b"three", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"three");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn the_input_is_never_an_output() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.jsonl");
        std::fs::write(&p, "rec").unwrap();
        let alias = dir.path().join(".").join("x.jsonl");
        let e = check_target(&alias, &[(&p, "recording")], true).unwrap_err();
        assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join("dgscope-s.jsonl")).unwrap();
        let (path, _f) = create_unique(dir.path(), "dgscope", "s", "jsonl").unwrap();
        assert!(path.ends_with("dgscope-s-1.jsonl"), "{}", path.display());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        // Forcing a write over the link replaces the link, not the file it points at.
        write_file(&dir.path().join("dgscope-s.jsonl"), b"new", true).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    }

    #[test]
    fn unique_names_never_repeat() {
        let dir = tempfile::tempdir().unwrap();
        let names: std::collections::BTreeSet<_> = (0..5)
            .map(|_| {
                create_unique(dir.path(), "dgscope", "20261130-050312.123", "jsonl")
                    .unwrap()
                    .0
            })
            .collect();
        assert_eq!(names.len(), 5);
        let t = crate::timestamp::Timestamp::parse("2026-11-30T05:03:12.345Z").unwrap();
        assert_eq!(file_stamp(t), "20261130-050312.345");
    }

    #[test]
    fn reports_get_unique_names() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_unique(dir.path(), "dgscope-incident", "s", "md", b"a").unwrap();
        let b = write_unique(dir.path(), "dgscope-incident", "s", "md", b"b").unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::read(&a).unwrap(), b"a");
        assert_eq!(std::fs::read(&b).unwrap(), b"b");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_stream_replacing_a_file_keeps_the_old_one_until_finished() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, "old").unwrap();
        assert!(StreamFile::create(&p, false).is_err());
        let mut s = StreamFile::create(&p, true).unwrap();
        s.file.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        s.finish().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
    }
    #[test]
    fn the_null_device_discards_and_an_abandoned_empty_file_goes() {
        // `-o /dev/null`: accepted (it exists, but replacing it is not what is asked) and
        // written to, never renamed over.
        let null = Path::new("/dev/null");
        check_target(null, &[], false).unwrap();
        write_file(null, b"report", false).unwrap();
        let s = StreamFile::create(null, false).unwrap();
        s.finish().unwrap();
        assert!(std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device());
        // A new recording that got no byte onto the disk leaves no empty file behind; one
        // that got some keeps its prefix.
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("e.jsonl.zst");
        StreamFile::create(&empty, false).unwrap().abandon();
        assert!(!empty.exists());
        let some = dir.path().join("s.jsonl");
        let mut s = StreamFile::create(&some, false).unwrap();
        s.file.write_all(b"{\"format\"").unwrap();
        s.abandon();
        assert_eq!(std::fs::read(&some).unwrap(), b"{\"format\"");
    }
    #[test]
    fn two_forced_streams_to_one_name_lose_neither() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, "old").unwrap();
        let mut a = StreamFile::create(&p, true).unwrap();
        let mut b = StreamFile::create(&p, true).unwrap();
        a.file.write_all(b"a").unwrap();
        b.file.write_all(b"b").unwrap();
        a.finish().unwrap();
        let e = b.finish().unwrap_err().to_string();
        assert!(e.contains("was replaced by another writer"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("r.jsonl.1")).unwrap(),
            "b"
        );
    }
}
