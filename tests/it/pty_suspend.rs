//! Job control and the mouse, end to end in a pseudo-terminal. Ctrl-Z and an external
//! SIGTSTP hand the terminal back and stop the process; `fg` (SIGCONT) takes it again and
//! repaints; `--no-mouse` and `mouse = false` never ask for mouse reports.
//!
//! A stop is only meaningful under a job-control shell: a process group without one (the
//! program started straight in a pty, as `Tui::spawn` does) is orphaned, and the kernel
//! discards SIGTSTP there. So the suspend tests run `dgscope demo` from an interactive bash
//! in the pty, as a user does, and resume it with `fg`.

use crate::common;
use crate::common::pty_process::PtyProcess;

use common::pty::Tui;
use std::process::Command;
use std::time::{Duration, Instant};

const HANG: Duration = Duration::from_secs(60);

const TITLES: [&str; 5] = [
    "1 Commit path",
    "2 Throughput",
    "3 Lag",
    "4 Standby I/O",
    "5 Suggested causes",
];

const MOUSE_ON: [&str; 4] = ["\x1b[?1000h", "\x1b[?1002h", "\x1b[?1003h", "\x1b[?1006h"];
const PROMPT: &str = "dgscope-test$ ";

/// The state letter of `/proc/PID/stat` (R, S, T, Z, ...), or None once the process is gone.
fn proc_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].trim_start().chars().next()
}

fn proc_ppid(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..]
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < HANG, "waited for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An interactive bash in a pty, its output through a vt100 parser.
struct Shell {
    session: PtyProcess,
    parser: vt100::Parser,
    raw: Vec<u8>,
    _dir: tempfile::TempDir,
}

impl Shell {
    fn spawn(cols: u16, rows: u16) -> Shell {
        let dir = tempfile::tempdir().unwrap();
        let inputrc = dir.path().join("inputrc");
        // Readline's own bracketed paste would blur what dgscope leaves behind.
        std::fs::write(&inputrc, "set enable-bracketed-paste off\n").unwrap();
        let mut cmd = Command::new("bash");
        cmd.args(["--norc", "--noprofile", "-i"])
            .current_dir(dir.path())
            .env("PS1", PROMPT)
            .env("HISTFILE", "/dev/null")
            .env("INPUTRC", &inputrc)
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR")
            .env_remove("COLORTERM")
            .env_remove("DGSCOPE_THEME")
            .env_remove("DGSCOPE_NO_MOUSE")
            .env_remove("DGSCOPE_CONFIG")
            // An empty config directory: no user settings leak in.
            .env("XDG_CONFIG_HOME", dir.path());
        let session = PtyProcess::spawn(cmd, cols, rows).expect("spawn bash in a pty");
        let mut sh = Shell {
            session,
            parser: vt100::Parser::new(rows, cols, 0),
            raw: Vec::new(),
            _dir: dir,
        };
        sh.wait_for("the prompt", |s| s.contents().contains(PROMPT.trim_end()));
        sh
    }

    fn pid(&self) -> i32 {
        self.session.pid()
    }

    fn pump(&mut self) {
        let mut buf = [0u8; 65536];
        while let Ok(n) = self.session.try_read(&mut buf) {
            if n == 0 {
                return;
            }
            self.raw.extend_from_slice(&buf[..n]);
            self.parser.process(&buf[..n]);
        }
    }

    fn wait_for(&mut self, what: &str, cond: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        loop {
            self.pump();
            if cond(self.parser.screen()) {
                return;
            }
            assert!(
                start.elapsed() < HANG,
                "waited for {what}; the screen:\n{}",
                self.parser.screen().contents()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, s: &str) {
        self.session.send(s).unwrap();
    }

    /// Runs `dgscope ARGS` from the shell and waits for the whole triage screen.
    fn start_dgscope(&mut self, args: &str) -> i32 {
        let bin = env!("CARGO_BIN_EXE_dgscope");
        self.send(&format!("'{bin}' {args}\r"));
        self.wait_for("the triage screen", |s| {
            s.alternate_screen() && TITLES.iter().all(|t| s.contents().contains(t))
        });
        let shell = self.pid();
        let mut pid = None;
        wait_until("dgscope among the shell's children", || {
            pid = std::fs::read_dir("/proc")
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
                .find(|&p| {
                    proc_ppid(p) == Some(shell)
                        && std::fs::read_to_string(format!("/proc/{p}/comm"))
                            .is_ok_and(|c| c.trim() == "dgscope")
                });
            pid.is_some()
        });
        pid.unwrap()
    }

    fn since(&self, mark: usize) -> String {
        String::from_utf8_lossy(&self.raw[mark..]).into_owned()
    }

    /// After a stop: the shell has the terminal, which dgscope handed back first.
    fn assert_handed_back(&mut self, pid: i32, mark: usize, mouse: bool) {
        wait_until("dgscope stopped (state T)", || proc_state(pid) == Some('T'));
        self.wait_for("the shell's job report", |s| {
            !s.alternate_screen() && s.contents().contains("Stopped")
        });
        let s = self.parser.screen();
        assert!(!s.hide_cursor(), "cursor still hidden");
        assert_eq!(
            s.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse reporting still on"
        );
        let out = self.since(mark);
        assert!(
            out.contains("\x1b[?1049l"),
            "never left the alternate screen"
        );
        assert!(out.contains("\x1b[?2004l"), "bracketed paste left on");
        assert!(out.contains("\x1b[?25h"), "cursor never shown");
        if mouse {
            assert!(
                out.contains("\x1b[?1000l"),
                "mouse capture never turned off"
            );
        }
    }

    /// `fg`: running again, on the alternate screen, every pane repainted.
    fn fg_and_see_the_screen(&mut self, pid: i32, mouse: bool) {
        let mark = self.raw.len();
        self.send("fg\r");
        wait_until("dgscope running again", || {
            proc_state(pid).is_some_and(|s| s != 'T')
        });
        // Entering the alternate screen clears it: the titles are there only if the whole
        // screen was drawn again, not just what changed.
        self.wait_for("the screen again", |s| {
            s.alternate_screen() && TITLES.iter().all(|t| s.contents().contains(t))
        });
        assert!(self.since(mark).contains("\x1b[?1049h"));
        if mouse {
            self.wait_for("mouse reporting back", |s| {
                s.mouse_protocol_mode() != vt100::MouseProtocolMode::None
            });
        } else {
            assert_eq!(
                self.parser.screen().mouse_protocol_mode(),
                vt100::MouseProtocolMode::None
            );
        }
        // Still live: the header's clock moves on (the twin's thread carried on).
        let header = self
            .parser
            .screen()
            .contents()
            .lines()
            .next()
            .map(String::from);
        self.wait_for("the header clock to move", |s| {
            s.contents().lines().next().map(String::from) != header
        });
        // Keys reach it (raw mode again): the help overlay opens and closes.
        self.send("?");
        self.wait_for("the help overlay", |s| {
            s.contents().contains("keys (Esc closes)")
        });
        self.send("\x1b");
        self.wait_for("the help closed", |s| {
            !s.contents().contains("keys (Esc closes)")
        });
    }

    fn quit_dgscope_and_exit(&mut self, pid: i32) {
        self.send("q");
        wait_until("dgscope gone", || proc_state(pid).is_none_or(|s| s == 'Z'));
        self.wait_for("the prompt after dgscope", |s| {
            !s.alternate_screen() && s.contents().contains(PROMPT.trim_end())
        });
        assert!(!self.parser.screen().hide_cursor());
        self.send("exit\r");
        let start = Instant::now();
        while self.session.is_alive() && start.elapsed() < HANG {
            self.pump();
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        if self.session.is_alive() {
            let _ = self.session.kill(libc::SIGKILL);
            let _ = self.session.wait();
        }
    }
}

#[test]
fn ctrl_z_hands_the_terminal_back_stops_and_fg_repaints() {
    let mut sh = Shell::spawn(120, 40);
    let pid = sh.start_dgscope("demo");
    let mark = sh.raw.len();
    sh.send("\x1a");
    sh.assert_handed_back(pid, mark, true);
    // Stopped a while; the shell works meanwhile.
    sh.send("echo shell-$((20 + 22))\r");
    sh.wait_for("the shell answering", |s| s.contents().contains("shell-42"));
    sh.fg_and_see_the_screen(pid, true);
    // Suspend twice in a row works as the first time.
    let mark = sh.raw.len();
    sh.send("\x1a");
    sh.assert_handed_back(pid, mark, true);
    sh.fg_and_see_the_screen(pid, true);
    sh.quit_dgscope_and_exit(pid);
}

#[test]
fn an_external_sigtstp_suspends_like_ctrl_z() {
    let mut sh = Shell::spawn(120, 40);
    let pid = sh.start_dgscope("demo");
    let mark = sh.raw.len();
    // SAFETY: a signal to our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTSTP) }, 0);
    sh.assert_handed_back(pid, mark, true);
    sh.fg_and_see_the_screen(pid, true);
    sh.quit_dgscope_and_exit(pid);
}

#[test]
fn suspend_and_resume_with_no_mouse_never_capture_it() {
    let mut sh = Shell::spawn(120, 40);
    let pid = sh.start_dgscope("demo --no-mouse");
    let mark = sh.raw.len();
    sh.send("\x1a");
    sh.assert_handed_back(pid, mark, false);
    sh.fg_and_see_the_screen(pid, false);
    sh.quit_dgscope_and_exit(pid);
    let out = sh.since(0);
    for seq in MOUSE_ON {
        assert!(!out.contains(seq), "{seq:?} written with --no-mouse");
    }
}

/// Without a job-control shell (an orphaned process group) a stop could never be undone:
/// Ctrl-Z keeps the screen and says why.
#[test]
fn ctrl_z_without_job_control_keeps_the_screen_and_says_so() {
    let mut t = Tui::spawn(&["demo"], 120, 40);
    t.wait_text("1 Commit path");
    t.send("\x1a");
    t.wait_text("no job-control shell");
    assert_ne!(proc_state(t.pid()), Some('T'));
    assert!(t.screen().alternate_screen());
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// SIGSTOP cannot be caught; SIGCONT after it repaints the whole screen from nothing.
#[test]
fn sigcont_repaints_the_whole_screen() {
    let mut t = Tui::spawn(&["demo"], 120, 40);
    for title in TITLES {
        t.wait_text(title);
    }
    let pid = t.pid();
    t.signal(libc::SIGSTOP);
    wait_until("stopped", || proc_state(pid) == Some('T'));
    t.pump();
    let mark = t.raw.len();
    t.signal(libc::SIGCONT);
    // A blank terminal fed only what came after SIGCONT shows every pane.
    let start = Instant::now();
    loop {
        t.pump();
        let mut fresh = vt100::Parser::new(40, 120, 0);
        fresh.process(&t.raw[mark..]);
        if TITLES.iter().all(|x| fresh.screen().contents().contains(x)) {
            break;
        }
        assert!(
            start.elapsed() < HANG,
            "no full repaint after SIGCONT:\n{}",
            fresh.screen().contents()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

fn assert_no_mouse(t: &Tui, why: &str) {
    let raw = String::from_utf8_lossy(&t.raw);
    for seq in MOUSE_ON {
        assert!(!raw.contains(seq), "{seq:?} written with {why}");
    }
    assert!(
        !raw.contains("\x1b[?1000l"),
        "a mouse sequence written with {why}"
    );
}

fn run_demo(args: &[&str], env: &[(&str, &str)]) -> Tui {
    let mut t = Tui::spawn_env(args, env, 120, 40);
    for title in TITLES {
        t.wait_text(title);
    }
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
    t
}

#[test]
fn the_mouse_is_captured_by_default() {
    let t = run_demo(&["demo"], &[("DGSCOPE_NO_MOUSE", "false")]);
    let raw = String::from_utf8_lossy(&t.raw);
    assert!(raw.contains("\x1b[?1000h"), "no mouse capture by default");
}

#[test]
fn no_mouse_flag_writes_no_mouse_sequence() {
    let t = run_demo(&["demo", "--no-mouse"], &[]);
    assert_no_mouse(&t, "--no-mouse");
}

#[test]
fn no_mouse_env_writes_no_mouse_sequence() {
    let t = run_demo(&["demo"], &[("DGSCOPE_NO_MOUSE", "true")]);
    assert_no_mouse(&t, "DGSCOPE_NO_MOUSE=true");
}

#[test]
fn config_mouse_false_writes_no_mouse_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, "mouse = false\n").unwrap();
    let t = run_demo(&["--config", cfg.to_str().unwrap(), "demo"], &[]);
    assert_no_mouse(&t, "mouse = false");
    // And replay reads it too.
    let f = common::pty::fixture("synthetic_slow_srl.jsonl");
    let t = run_demo(
        &[
            "--config",
            cfg.to_str().unwrap(),
            "replay",
            f.to_str().unwrap(),
        ],
        &[],
    );
    assert_no_mouse(&t, "mouse = false (replay)");
}
