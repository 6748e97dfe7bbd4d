//! A child process on a pseudo-terminal of its own: what the PTY tests and the first-frame
//! bench need of one (spawn at a size, read without blocking, write keys, resize, signal,
//! wait), on libc alone. A PTY crate pulled in a regex engine and a second `nix` for these
//! few calls, most of the test build's dependency time after the screen's own.
//!
//! Both ends are opened close-on-exec, so a child that a concurrent test spawns never holds
//! this terminal open (the end of output would then never come).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};

pub struct PtyProcess {
    master: File,
    child: Child,
}

fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

impl PtyProcess {
    /// Starts `cmd` as a session leader whose controlling terminal (and stdin, stdout and
    /// stderr) is a new pseudo-terminal of `cols`×`rows`.
    pub fn spawn(mut cmd: Command, cols: u16, rows: u16) -> io::Result<PtyProcess> {
        // SAFETY: plain libc calls on descriptors this function owns; every result checked.
        let (master, slave) = unsafe {
            let m = check(libc::posix_openpt(
                libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
            ))?;
            let master = OwnedFd::from_raw_fd(m);
            check(libc::grantpt(m))?;
            check(libc::unlockpt(m))?;
            let mut name = [0 as libc::c_char; 128];
            let rc = libc::ptsname_r(m, name.as_mut_ptr(), name.len());
            if rc != 0 {
                return Err(io::Error::from_raw_os_error(rc));
            }
            let s = check(libc::open(
                name.as_ptr(),
                libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
            ))?;
            (master, OwnedFd::from_raw_fd(s))
        };
        let pty = File::from(master);
        set_size(&pty, cols, rows)?;
        cmd.stdin(Stdio::from(slave.try_clone()?))
            .stdout(Stdio::from(slave.try_clone()?))
            .stderr(Stdio::from(slave));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                check(libc::setsid())?;
                check(libc::ioctl(0, libc::TIOCSCTTY as _, 0))?;
                Ok(())
            });
        }
        let child = cmd.spawn()?;
        // The parent's copies of the terminal's end are `cmd`'s Stdio: closed here, so that
        // the end of output comes when the child (and what it spawned) closes its own.
        drop(cmd);
        // SAFETY: fcntl on the descriptor `pty` owns.
        unsafe {
            let fd = pty.as_raw_fd();
            let flags = check(libc::fcntl(fd, libc::F_GETFL))?;
            check(libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK))?;
        }
        Ok(PtyProcess { master: pty, child })
    }

    /// What the child wrote, without waiting: `WouldBlock` when there is nothing, `Ok(0)` or
    /// an error (EIO) once every holder of the terminal's end has closed it.
    pub fn try_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.master.read(buf)
    }

    /// Writes `bytes` as typed keys, all of them.
    pub fn send(&mut self, bytes: impl AsRef<[u8]>) -> io::Result<()> {
        let mut rest = bytes.as_ref();
        while !rest.is_empty() {
            match self.master.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Resizes the terminal; the kernel sends the child's process group SIGWINCH.
    pub fn set_window_size(&mut self, cols: u16, rows: u16) -> io::Result<()> {
        set_size(&self.master, cols, rows)
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Sends signal `sig` (`libc::SIGTERM` …) to the child.
    pub fn kill(&mut self, sig: libc::c_int) -> io::Result<()> {
        // SAFETY: kill(2) on our own child's pid, not yet reaped while `child` is ours.
        check(unsafe { libc::kill(self.pid(), sig) }).map(|_| ())
    }

    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits for the child: its exit code, or 128 + the signal that ended it, as a shell
    /// reports it.
    pub fn wait(&mut self) -> io::Result<i32> {
        let status = self.child.wait()?;
        Ok(status
            .code()
            .or_else(|| status.signal().map(|s| 128 + s))
            .unwrap_or(-1))
    }
}

fn set_size(pty: &File, cols: u16, rows: u16) -> io::Result<()> {
    let ws = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads one winsize from a pointer that lives through the call.
    check(unsafe { libc::ioctl(pty.as_raw_fd(), libc::TIOCSWINSZ, &ws) }).map(|_| ())
}
