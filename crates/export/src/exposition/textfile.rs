//! `check --textfile DIR`: the exposition for node_exporter's textfile collector, written
//! atomically. The content goes to a hidden temporary file in the same directory (not ending
//! in `.prom`, so the collector never reads it), is flushed to disk, then renamed over the
//! target: a reader sees the old file or the new one, never part of one.

use std::path::{Path, PathBuf};

/// A file name for a pair: `dgscope_<pair>.prom`, characters outside `[A-Za-z0-9_.-]` as `_`.
pub(crate) fn file_name(pair: &str) -> String {
    let clean: String = pair
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("dgscope_{}.prom", clean.trim_start_matches('.'))
}

/// Writes `content` to `dir/name` through a temporary file and a rename. The temporary file
/// is created new under an unpredictable name (`dgscope_model::output`: `O_EXCL`, which never
/// follows a symlink), so a link planted at a temporary name cannot redirect the write. On
/// any error the temporary file is removed and the previous `dir/name`, if any, is left as
/// it was.
pub(crate) fn write_atomic(dir: &Path, name: &str, content: &str) -> std::io::Result<PathBuf> {
    let target = dir.join(name);
    dgscope_model::output::write_file(&target, content.as_bytes(), true).map_err(|e| match e {
        dgscope_model::output::OutputError::Io { source, .. } => source,
        other => std::io::Error::other(other.to_string()),
    })?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn file_names_are_safe_and_end_in_prom() {
        assert_eq!(file_name("twin-slow-srl"), "dgscope_twin-slow-srl.prom");
        assert_eq!(file_name("../etc/x y"), "dgscope__etc_x_y.prom");
    }

    #[test]
    fn readers_see_the_old_or_the_new_file_never_a_part() {
        let dir = tempfile::tempdir().unwrap();
        let a = "a".repeat(1 << 20) + "\n# A\n";
        let b = "b".repeat(3 << 19) + "\n# B\n";
        write_atomic(dir.path(), "x.prom", &a).unwrap();
        let path = dir.path().join("x.prom");
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (path, stop, a, b) = (path.clone(), stop.clone(), a.clone(), b.clone());
            std::thread::spawn(move || {
                let mut reads = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let got = fs::read_to_string(&path).unwrap();
                    assert!(
                        got == a || got == b,
                        "a partial file of {} bytes",
                        got.len()
                    );
                    reads += 1;
                }
                reads
            })
        };
        for i in 0..40 {
            write_atomic(dir.path(), "x.prom", if i % 2 == 0 { &b } else { &a }).unwrap();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(reader.join().unwrap() > 0);
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(
            names,
            vec!["x.prom".to_string()],
            "no temporary file is left"
        );
    }

    /// The review's attack: a symlink planted at the temporary name the writer used to pick
    /// (`.NAME.PID.tmp`, predictable) made it overwrite the link's target. Links at every name
    /// of that form, for this and the next pids, leave their targets untouched.
    #[cfg(unix)]
    #[test]
    fn a_symlink_planted_at_a_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let pid = std::process::id();
        for p in pid..pid + 4 {
            for n in 0..64 {
                for name in [format!(".x.prom.{p}.tmp"), format!(".x.prom.{p}.{n}.tmp")] {
                    let _ = std::os::unix::fs::symlink(&victim, dir.path().join(name));
                }
            }
        }
        write_atomic(dir.path(), "x.prom", "new\n").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(
            fs::read_to_string(dir.path().join("x.prom")).unwrap(),
            "new\n"
        );
        assert!(!fs::symlink_metadata(dir.path().join("x.prom"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        write_atomic(dir.path(), "x.prom", "old\n").unwrap();
        // The rename cannot replace a directory: the write fails after the data was written.
        fs::create_dir(dir.path().join("y.prom")).unwrap();
        fs::write(dir.path().join("y.prom").join("keep"), "").unwrap();
        assert!(write_atomic(dir.path(), "y.prom", "new\n").is_err());
        assert_eq!(
            fs::read_to_string(dir.path().join("x.prom")).unwrap(),
            "old\n"
        );
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, vec!["x.prom".to_string(), "y.prom".to_string()]);
        assert!(write_atomic(&dir.path().join("missing"), "z.prom", "x").is_err());
    }
}
