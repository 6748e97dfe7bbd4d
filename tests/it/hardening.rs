//! Builds the hostile inputs of the hardening tests at run time (nothing large is committed):
//! recordings rewritten line by line, zero-filled tails (sparse, so they cost no disk), and
//! helpers to run the binary and read its one-line answer.

use serde_json::Value;
use std::path::Path;

/// A recording whose sample lines went through `edit(line_number_from_0, sample)`.
pub fn rewrite(src: &Path, mut edit: impl FnMut(usize, &mut Value)) -> tempfile::NamedTempFile {
    let text = std::fs::read_to_string(src).unwrap();
    crate::common::temp_file_written(|w| {
        for (i, line) in text.lines().enumerate() {
            let mut v: Value = serde_json::from_str(line).unwrap();
            if i > 0 && v.get("kind").is_none() {
                edit(i, &mut v);
            }
            writeln!(w, "{v}").unwrap();
        }
    })
}

/// A copy of `src` followed by `zeros` zero bytes (what a power loss leaves), sparse.
pub fn with_zero_tail(src: &Path, zeros: u64) -> tempfile::NamedTempFile {
    let out = tempfile::NamedTempFile::new().unwrap();
    std::fs::copy(src, out.path()).unwrap();
    let len = std::fs::metadata(out.path()).unwrap().len();
    out.as_file().set_len(len + zeros).unwrap();
    out
}

/// What a run said: exit code, stdout, stderr.
pub struct Ran {
    pub code: i32,
    pub out: String,
    pub err: String,
}

pub fn run(args: &[&str]) -> Ran {
    run_env(args, &[])
}

pub fn run_env(args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut cmd = assert_cmd::Command::cargo_bin("dgscope").unwrap();
    cmd.args(args).env_remove("DGSCOPE_CONFIG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    Ran {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

impl Ran {
    /// Exactly one line on stderr, containing `want`, and the exit code `code`.
    pub fn one_line(&self, code: i32, want: &str) {
        assert_eq!(self.code, code, "stderr: {}", self.err);
        assert_eq!(self.err.lines().count(), 1, "not one line: {:?}", self.err);
        assert!(self.err.contains(want), "{:?} lacks {want:?}", self.err);
    }
}
