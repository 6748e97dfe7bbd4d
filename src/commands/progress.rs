//! Progress of a long headless run on stderr: only when stderr is a terminal (cron mail and
//! Nagios output stay clean), redrawn at most five times a second, erased at the end.

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    label: &'static str,
    total: Duration,
    shown: bool,
    last: Cell<Option<Instant>>,
}

impl Progress {
    pub fn new(label: &'static str, total: Duration) -> Self {
        Progress {
            label,
            total,
            shown: std::io::stderr().is_terminal(),
            last: Cell::new(None),
        }
    }

    /// `done` of simulated time has been produced.
    pub fn tick(&self, done: Duration) {
        if !self.shown {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .get()
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(200))
        {
            return;
        }
        self.last.set(Some(now));
        let frac = (done.as_secs_f64() / self.total.as_secs_f64().max(1e-9)).min(1.0);
        let filled = (frac * 30.0) as usize;
        let _ = write!(
            std::io::stderr(),
            "\r{} [{}{}] {} of {} simulated ",
            self.label,
            "#".repeat(filled),
            "-".repeat(30 - filled),
            humantime::format_duration(Duration::from_secs(done.as_secs())),
            humantime::format_duration(self.total)
        );
    }

    pub fn done(&self) {
        if self.shown && self.last.get().is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}
