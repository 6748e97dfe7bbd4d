//! The log file (`--log-file FILE`, `DGSCOPE_LOG`, config `log_file`): `tracing` events as one
//! line each, appended to a file. A small subscriber of our own: dgscope logs events, never
//! spans, and needs no filtering beyond a level, so `tracing-subscriber` would only add
//! dependencies. Nothing is ever written to the terminal (the screen owns it).
//!
//! Never log a password or a wallet secret: callers log connect strings as `ConnSpec`
//! displays them (a password is refused before a connect string gets that far) and database
//! errors as Oracle words them. Every value goes through `sanitize::field`, so a line is one
//! line whatever a database sent.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// `--log-level` and config `log_level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    pub fn level(self) -> Level {
        match self {
            LogLevel::Error => Level::ERROR,
            LogLevel::Warn => Level::WARN,
            LogLevel::Info => Level::INFO,
            LogLevel::Debug => Level::DEBUG,
            LogLevel::Trace => Level::TRACE,
        }
    }
}

/// Writes each enabled event as `TIME LEVEL target: message key=value …`.
pub struct FileLog {
    max: Level,
    out: Mutex<std::fs::File>,
}

/// Why the log could not be opened, for the one-line error.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot open the log file: {source}; choose a writable path with --log-file")]
pub struct LogError {
    path: String,
    source: std::io::Error,
}

impl FileLog {
    /// Opens `path` for appending (created mode 0600: a log names hosts and users).
    pub fn open(path: &Path, level: LogLevel) -> Result<Self, LogError> {
        let mut o = std::fs::OpenOptions::new();
        o.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let file = o.open(path).map_err(|source| LogError {
            path: path.display().to_string(),
            source,
        })?;
        Ok(FileLog {
            max: level.level(),
            out: Mutex::new(file),
        })
    }
}

/// Collects an event's fields: the message first, then `key=value`.
struct Line {
    message: String,
    fields: String,
}

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = self.record(field, &format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = self.record(field, value);
    }
}

impl Line {
    fn record(&mut self, field: &Field, value: &str) -> std::fmt::Result {
        let value = crate::sanitize::field(value);
        if field.name() == "message" {
            self.message = value;
            Ok(())
        } else if value.contains(' ') || value.is_empty() {
            write!(self.fields, " {}={value:?}", field.name())
        } else {
            write!(self.fields, " {}={value}", field.name())
        }
    }
}

impl Subscriber for FileLog {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        // tracing orders levels by verbosity: TRACE is the greatest.
        *metadata.level() <= self.max
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::from_level(self.max))
    }
    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        // dgscope logs no spans; every span gets the same id and is ignored.
        Id::from_u64(1)
    }
    fn record(&self, _span: &Id, _values: &Record<'_>) {}
    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut line = Line {
            message: String::new(),
            fields: String::new(),
        };
        event.record(&mut line);
        let meta = event.metadata();
        let text = format!(
            "{} {:<5} {}: {}{}\n",
            crate::timestamp::Timestamp::now(),
            meta.level(),
            meta.target().trim_start_matches("dgscope::"),
            line.message,
            line.fields
        );
        if let Ok(mut f) = self.out.lock() {
            // A full disk must not stop monitoring: the log is best effort.
            let _ = f.write_all(text.as_bytes());
        }
    }
    fn enter(&self, _span: &Id) {}
    fn exit(&self, _span: &Id) {}
}

/// Where the log goes and how much of it: `--log-file`/`DGSCOPE_LOG`, else the config's.
#[derive(Debug, Clone, Default)]
pub struct LogSettings {
    pub file: Option<PathBuf>,
    pub level: Option<LogLevel>,
}

/// Installs the file log for the whole process (the collector logs from its own threads).
/// Without a file nothing is installed and every event costs a relaxed load.
pub fn init(settings: &LogSettings) -> Result<(), LogError> {
    let Some(path) = &settings.file else {
        return Ok(());
    };
    let log = FileLog::open(path, settings.level.unwrap_or(LogLevel::Info))?;
    // Only the first call wins (tests that install it twice keep the first).
    let _ = tracing::subscriber::set_global_default(log);
    Ok(())
}

/// The last `n` lines of a log file, for `dgscope bugreport`.
pub fn tail(path: &Path, n: usize) -> std::io::Result<Vec<String>> {
    // A log can be large: read at most its last 256 KiB.
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    let from = len.saturating_sub(256 * 1024);
    f.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.lines().collect();
    if from > 0 && !lines.is_empty() {
        lines.remove(0); // cut in the middle
    }
    let skip = lines.len().saturating_sub(n);
    Ok(lines[skip..].iter().map(|l| l.to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_become_one_line_each_at_the_level_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.log");
        let log = FileLog::open(&path, LogLevel::Info).unwrap();
        tracing::subscriber::with_default(log, || {
            tracing::info!(slot = "primary", reason = "two words", "connected");
            tracing::debug!("not at info");
            tracing::warn!(code = "ORA-01017", "bad\nline");
        });
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].ends_with(" INFO  log::tests: connected slot=primary reason=\"two words\""),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("WARN  log::tests: bad␊line code=ORA-01017"),
            "{}",
            lines[1]
        );
        assert_eq!(tail(&path, 1).unwrap(), vec![lines[1].to_string()]);
    }
}
