//! The terminal's raw/alternate-screen state, restored however the program ends: normal
//! quit, panic (hook), signals (the loop), and drop; handed back and taken again around a
//! suspend (Ctrl-Z, SIGTSTP) and after SIGCONT.

use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// Whether mouse capture was ever turned on: with `--no-mouse` (or `mouse = false`) no
/// mouse sequence is written at all, not even the one that turns it off.
static MOUSE_CAPTURED: AtomicBool = AtomicBool::new(false);

pub(crate) struct TerminalGuard {
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Capture the mouse (pane focus by click, wheel scrolling).
    mouse: bool,
}

/// Puts the terminal back: cursor shown, main screen, mouse off, cooked mode. Safe to call
/// twice.
pub(crate) fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, DisableBracketedPaste);
    if MOUSE_CAPTURED.load(Ordering::SeqCst) {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(out, LeaveAlternateScreen, Show);
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Restore first, or the panic message is lost in the alternate screen.
            restore();
            previous(info);
        }));
    });
}

/// Raw mode, the alternate screen, bracketed paste, the mouse when wanted, no cursor.
/// Idempotent: entering twice (after a suspend and its SIGCONT) is harmless.
fn take(mouse: bool) -> io::Result<()> {
    enable_raw_mode()?;
    let mut out = io::stdout();
    execute!(out, EnterAlternateScreen)?;
    if mouse {
        MOUSE_CAPTURED.store(true, Ordering::SeqCst);
        execute!(out, EnableMouseCapture)?;
    }
    execute!(out, EnableBracketedPaste, Hide)
}

impl TerminalGuard {
    pub(crate) fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        install_panic_hook();
        if let Err(e) = take(mouse) {
            restore();
            return Err(e);
        }
        let terminal = match Terminal::new(CrosstermBackend::new(io::stdout())) {
            Ok(t) => t,
            Err(e) => {
                restore();
                return Err(e);
            }
        };
        Ok(TerminalGuard { terminal, mouse })
    }

    /// Takes the terminal again (after a stop, or a SIGCONT from anyone) and forgets what
    /// was on it, so the next draw repaints every cell: the shell has written over it.
    pub(crate) fn resume(&mut self) -> io::Result<()> {
        if let Err(e) = take(self.mouse) {
            restore();
            return Err(e);
        }
        // Not `Terminal::clear`: it asks the terminal where the cursor is, and the answer
        // would race the input reader. Clear, then drop both buffers: the next frame is
        // diffed against nothing and writes every cell that is not blank.
        execute!(io::stdout(), Clear(ClearType::All))?;
        self.terminal.swap_buffers();
        Ok(())
    }

    /// Ctrl-Z and SIGTSTP: hands the terminal back, stops the process as the shell expects
    /// (SIGTSTP with its default action), and takes the terminal again when continued.
    /// Threads are stopped with the process and carry on where they were after `fg`.
    ///
    /// Returns `false`, leaving the screen as it is, when no job-control shell could
    /// continue the process (its process group is orphaned: started by `setsid`, as a
    /// `tmux`/`ssh -t` command...), where the kernel would discard the stop anyway.
    pub(crate) fn suspend(&mut self) -> io::Result<bool> {
        if !job_control() {
            return Ok(false);
        }
        restore();
        stop_self();
        self.resume()?;
        Ok(true)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// SIGTSTP to this process with the default action (stop), then the previous action back
/// (the runtime's handler, which is how an external SIGTSTP reaches the loop). Returns
/// after SIGCONT.
#[cfg(unix)]
fn stop_self() {
    // SAFETY: plain libc calls on a zeroed, then kernel-filled sigaction; the previous
    // action is put back unchanged.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut dfl.sa_mask);
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGTSTP, &dfl, &mut old) != 0 {
            return;
        }
        // Make sure it is not blocked in this thread, or raise would only leave it pending.
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTSTP);
        let mut old_mask: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, &mut old_mask);
        libc::raise(libc::SIGTSTP);
        libc::pthread_sigmask(libc::SIG_SETMASK, &old_mask, std::ptr::null_mut());
        libc::sigaction(libc::SIGTSTP, &old, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
fn stop_self() {}

/// Whether a shell can continue this process after a stop: its process group is not
/// orphaned. Walks up the ancestors in the same process group (`cargo run`, wrappers) to
/// the first one outside it, which must be in the same session (the shell). Without
/// `/proc` to walk, assumes so.
#[cfg(unix)]
pub(crate) fn job_control() -> bool {
    // SAFETY: getters without side effects.
    let (pgrp, sid) = unsafe { (libc::getpgrp(), libc::getsid(0)) };
    let mut pid = unsafe { libc::getppid() };
    for _ in 0..64 {
        if pid <= 0 {
            return false;
        }
        let group = unsafe { libc::getpgid(pid) };
        if group < 0 {
            return false;
        }
        if group != pgrp {
            return unsafe { libc::getsid(pid) } == sid;
        }
        match parent_of(pid) {
            Some(p) => pid = p,
            None => return true,
        }
    }
    false
}

#[cfg(not(unix))]
pub fn job_control() -> bool {
    false
}

/// The parent of `pid` from `/proc/PID/stat` (the field after the parenthesised command
/// name, which may itself hold spaces and parentheses).
#[cfg(unix)]
fn parent_of(pid: libc::pid_t) -> Option<libc::pid_t> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_ppid(&stat)
}

fn parse_ppid(stat: &str) -> Option<i32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let _state = fields.next()?;
    fields.next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ppid_from_stat_with_an_awkward_name() {
        assert_eq!(parse_ppid("42 (a b) c) S 7 42 42 0"), Some(7));
        assert_eq!(parse_ppid("1 (init) S 0 1 1"), Some(0));
        assert_eq!(parse_ppid("garbage"), None);
    }
}
