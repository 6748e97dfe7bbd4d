//! The real binary in a pseudo-terminal, its output fed to a vt100 parser, so tests read the
//! screen a user would see. Timeouts only stop a hung test; nothing asserts on elapsed time.

use super::pty_process::PtyProcess;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine; only reached when something is broken.
const HANG: Duration = Duration::from_secs(60);

pub struct Tui {
    session: PtyProcess,
    parser: vt100::Parser,
    /// Everything the program wrote, for checks on raw escape sequences.
    pub raw: Vec<u8>,
    eof: bool,
    /// The working directory (recordings and reports land here).
    pub dir: tempfile::TempDir,
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

impl Tui {
    /// Starts `dgscope ARGS` in a `cols`×`rows` terminal.
    pub fn spawn(args: &[&str], cols: u16, rows: u16) -> Tui {
        Tui::spawn_env(args, &[], cols, rows)
    }

    /// As [`Tui::spawn`], with extra environment variables.
    pub fn spawn_env(args: &[&str], env: &[(&str, &str)], cols: u16, rows: u16) -> Tui {
        Tui::spawn_at(None, args, env, cols, rows)
    }

    /// As [`Tui::spawn`], working in `cwd` (another screen's directory) instead of a new one.
    pub fn spawn_in(cwd: &std::path::Path, args: &[&str], cols: u16, rows: u16) -> Tui {
        Tui::spawn_at(Some(cwd), args, &[], cols, rows)
    }

    fn spawn_at(
        cwd: Option<&std::path::Path>,
        args: &[&str],
        env: &[(&str, &str)],
        cols: u16,
        rows: u16,
    ) -> Tui {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_dgscope"));
        cmd.args(args)
            .current_dir(cwd.unwrap_or(dir.path()))
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR")
            .env_remove("COLORTERM")
            .env_remove("COLORFGBG")
            .env_remove("DGSCOPE_THEME")
            .envs(env.iter().copied());
        let session = PtyProcess::spawn(cmd, cols, rows).expect("spawn dgscope in a pty");
        Tui {
            session,
            parser: vt100::Parser::new(rows, cols, 0),
            raw: Vec::new(),
            eof: false,
            dir,
        }
    }

    /// `dgscope replay` of the committed synthetic incident, fast enough to reach its end in
    /// a few seconds (180 recorded seconds at ×64).
    pub fn replay(cols: u16, rows: u16) -> Tui {
        let f = fixture("synthetic_slow_srl.jsonl");
        Tui::spawn(
            &["replay", f.to_str().unwrap(), "--speed", "64"],
            cols,
            rows,
        )
    }

    /// Reads whatever is available into the parser.
    pub fn pump(&mut self) {
        let mut buf = [0u8; 65536];
        loop {
            match self.session.try_read(&mut buf) {
                Ok(0) => {
                    self.eof = true;
                    return;
                }
                Ok(n) => {
                    self.raw.extend_from_slice(&buf[..n]);
                    self.parser.process(&buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                // EIO: the child closed the pty.
                Err(_) => {
                    self.eof = true;
                    return;
                }
            }
        }
    }

    pub fn pid(&self) -> i32 {
        self.session.pid()
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub fn text(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits until `cond` holds on the screen; panics with the screen if it never does.
    pub fn wait_for(&mut self, what: &str, cond: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        loop {
            self.pump();
            if cond(self.parser.screen()) {
                return;
            }
            if self.eof || start.elapsed() > HANG {
                panic!(
                    "waited for {what} (eof: {}); the screen:\n{}",
                    self.eof,
                    self.text()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_text(&mut self, s: &str) {
        let owned = s.to_string();
        self.wait_for(&format!("{s:?}"), move |sc| sc.contents().contains(&owned));
    }

    /// Whether `s` shows within `limit` (the screen as it is when it does not).
    pub fn shows_within(&mut self, s: &str, limit: Duration) -> bool {
        let start = Instant::now();
        loop {
            self.pump();
            if self.parser.screen().contents().contains(s) {
                return true;
            }
            if self.eof || start.elapsed() > limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_gone(&mut self, s: &str) {
        let owned = s.to_string();
        self.wait_for(&format!("{s:?} to go"), move |sc| {
            !sc.contents().contains(&owned)
        });
    }

    /// The replay reached the end of the recording: the screen will not change by itself.
    pub fn wait_replay_end(&mut self) {
        self.wait_text("REPLAY END");
    }

    pub fn send(&mut self, keys: &str) {
        self.session.send(keys).unwrap();
    }

    /// Bytes as a terminal would send them, valid UTF-8 or not, in one write.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.session.send(bytes).unwrap();
    }

    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.parser.screen_mut().set_size(rows, cols);
        self.session.set_window_size(cols, rows).unwrap();
    }

    /// Sends the child signal `s` (`libc::SIGTERM` …).
    pub fn signal(&mut self, s: libc::c_int) {
        self.session.kill(s).unwrap();
    }

    /// Reads to the end of output and returns the exit code (or 128+signal if killed).
    pub fn wait_exit(&mut self) -> i32 {
        let start = Instant::now();
        while !self.eof && start.elapsed() < HANG {
            self.pump();
            std::thread::sleep(Duration::from_millis(10));
        }
        if !self.eof {
            let _ = self.session.kill(libc::SIGKILL);
            panic!("dgscope did not exit; the screen:\n{}", self.text());
        }
        self.session.wait().unwrap()
    }

    /// Whether the terminal was handed back: main screen, cursor visible, and the sequences
    /// that do it actually written.
    pub fn assert_restored(&self) {
        let s = self.parser.screen();
        assert!(!s.alternate_screen(), "still on the alternate screen");
        assert!(!s.hide_cursor(), "cursor still hidden");
        let raw = String::from_utf8_lossy(&self.raw);
        assert!(
            raw.contains("\x1b[?1049l"),
            "never left the alternate screen"
        );
        assert!(raw.contains("\x1b[?25h"), "never showed the cursor");
        let leave = raw.rfind("\x1b[?1049l").unwrap();
        assert!(
            raw.rfind("\x1b[?1049h").is_none_or(|enter| enter < leave),
            "re-entered the alternate screen after leaving it"
        );
    }
}

impl Tui {
    /// For errors caught before the screen starts: the terminal was never touched.
    pub fn assert_never_entered_alternate_screen(&self) {
        let raw = String::from_utf8_lossy(&self.raw);
        assert!(!raw.contains("\x1b[?1049h"), "entered the alternate screen");
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        // A failed test must not leave a dgscope running.
        if self.session.is_alive() {
            let _ = self.session.kill(libc::SIGKILL);
            let _ = self.session.wait();
        }
    }
}
