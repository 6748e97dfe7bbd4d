//! `dgscope record --primary … --standby … --duration D -o FILE`: headless recording of live
//! databases through the same collector as `watch`. Connection trouble is recorded (error
//! samples), reported on stderr, and never ends the recording early.

use super::live::LiveSource;
use super::{Failure, EXIT_BAD_INPUT};
use crate::cli::oracle::ConnArgs;
use crate::output::StreamFile;
use crate::sample::recording::Header;
use crate::source::{ConnState, SourceEvent};
use crate::timestamp::Timestamp;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// `record --primary`'s side of the one recorder ([`crate::pipeline::Recorder`]): opens the
/// file safely, names it in failures, and says on stderr what happened to the connections.
pub struct Recorder {
    rec: crate::pipeline::Recorder,
    path: PathBuf,
}

impl Recorder {
    /// Creates the file first, so a bad path fails before any connection. The file must be
    /// new (create-new, never through a symlink): an existing recording is never truncated.
    pub fn open(path: &Path) -> Result<File, Failure> {
        Ok(Self::open_stream(path, false)?.file)
    }

    /// As [`Recorder::open`]; with `force` an existing file is replaced when the recording
    /// is finished (see [`StreamFile`]).
    pub fn open_stream(path: &Path, force: bool) -> Result<StreamFile, Failure> {
        StreamFile::create(path, force).map_err(|e| Failure {
            message: format!("cannot create the recording: {e}"),
            code: EXIT_BAD_INPUT,
        })
    }

    pub fn start(file: File, path: &Path, src: &LiveSource) -> Result<Self, Failure> {
        Self::start_writer(Box::new(file), path, src)
    }

    /// Records to any writer (standard output for `-o -`).
    pub fn start_writer(
        out: Box<dyn Write + Send>,
        path: &Path,
        src: &LiveSource,
    ) -> Result<Self, Failure> {
        let header = Header::new(
            Timestamp::now(),
            src.interval.as_millis() as u64,
            &src.describe,
        );
        let zstd = !crate::output::is_stdout(path) && crate::sample::recording::wants_zstd(path);
        let rec = crate::pipeline::Recorder::new(out, &header, zstd)
            .map_err(|e| write_failure(path, &e))?;
        tracing::info!(
            path = %path.display(),
            interval_ms = ?header.interval_ms,
            source = %src.describe,
            "recording started"
        );
        Ok(Recorder {
            rec,
            path: path.to_path_buf(),
        })
    }

    /// Records samples and marks; returns a status line for the user when there is one.
    pub fn on_event(&mut self, ev: &SourceEvent) -> Result<Option<String>, Failure> {
        self.rec
            .on_event(ev)
            .map_err(|e| write_failure(&self.path, &e))?;
        Ok(match ev {
            SourceEvent::Sample(s) => s
                .error
                .as_ref()
                .map(|err| format!("{}: sample failed: {}", s.slot, err.message)),
            SourceEvent::Status { slot, state } => Some(status_line(slot.as_str(), state)),
            SourceEvent::Mark(_)
            | SourceEvent::End
            | SourceEvent::Checking(_)
            | SourceEvent::CaughtUp => None,
        })
    }

    /// Samples written, and how many of them failed.
    pub fn counts(&self) -> (u64, u64) {
        self.rec.counts()
    }
}

fn write_failure(path: &Path, e: &std::io::Error) -> Failure {
    Failure {
        message: format!(
            "{}: cannot write the recording: {e}; choose a writable path with -o",
            path.display()
        ),
        code: super::EXIT_BAD_INPUT,
    }
}

/// One line per connection state change, for stderr.
pub fn status_line(slot: &str, state: &ConnState) -> String {
    match state {
        ConnState::Connecting => format!("{slot}: connecting"),
        ConnState::Connected => format!("{slot}: connected"),
        ConnState::Reconnecting {
            next_try,
            attempt,
            reason,
        } => {
            let secs = (next_try.ms - Timestamp::now().ms).max(0) as f64 / 1000.0;
            format!("{slot}: retry {attempt} in {secs:.0} s — {reason}")
        }
        ConnState::Failed { reason } => format!("{slot}: gave up — {reason}"),
    }
}

/// The live half of `dgscope record`, callable from whatever argument struct `record`
/// ends up with (the twin's `record --twin` lives in `record.rs`).
pub fn run_live(
    conn: &ConnArgs,
    duration: Duration,
    output: &Path,
    force: bool,
    profile_password: Option<&crate::source::oracle::Secret>,
) -> Result<ExitCode, Failure> {
    if duration.is_zero() {
        return Err(Failure::bad_input(
            "--duration must be longer than 0s (e.g. 30m)",
        ));
    }
    let to_stdout = crate::output::is_stdout(output);
    let stream = if to_stdout {
        None
    } else {
        Some(Recorder::open_stream(output, force)?)
    };
    let src = match super::profile::start_live(conn, profile_password) {
        Ok(s) => s,
        Err(f) => {
            if let Some(s) = stream {
                s.discard();
            }
            return Err(f);
        }
    };
    let out: Box<dyn Write + Send> = match &stream {
        Some(s) => Box::new(s.try_clone().map_err(|e| write_failure(output, &e))?),
        None => Box::new(std::io::stdout()),
    };
    let code = match record_to(src, out, output, duration) {
        Ok(code) => code,
        Err(f) => {
            // A replacement's temporary file goes, a new file keeps what reached the disk
            // (an empty one goes too).
            if let Some(s) = stream {
                s.abandon();
            }
            return Err(f);
        }
    };
    if let Some(s) = stream {
        s.finish().map_err(|e| Failure {
            message: e.to_string(),
            code: super::EXIT_BAD_INPUT,
        })?;
    }
    Ok(code)
}

/// Records until `duration` has passed or Ctrl-C; prints status changes to stderr.
pub fn record(
    src: LiveSource,
    file: File,
    path: &Path,
    duration: Duration,
) -> Result<ExitCode, Failure> {
    record_to(src, Box::new(file), path, duration)
}

fn record_to(
    mut src: LiveSource,
    out: Box<dyn Write + Send>,
    path: &Path,
    duration: Duration,
) -> Result<ExitCode, Failure> {
    let mut rec = Recorder::start_writer(out, path, &src)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure {
            message: format!("cannot start the runtime: {e}"),
            code: 1,
        })?;
    let result: Result<(), Failure> = rt.block_on(async {
        let deadline = tokio::time::sleep(duration);
        let ctrl_c = tokio::signal::ctrl_c();
        tokio::pin!(deadline, ctrl_c);
        loop {
            tokio::select! {
                ev = src.rx.recv() => match ev {
                    Some(SourceEvent::End) | None => return Ok(()),
                    Some(ev) => {
                        if let Some(line) = rec.on_event(&ev)? {
                            // Database errors are quoted: no escape reaches the terminal.
                            eprintln!("dgscope: {}", crate::sanitize::field(&line));
                        }
                    }
                },
                _ = &mut deadline => return Ok(()),
                _ = &mut ctrl_c => return Ok(()),
            }
        }
    });
    src.collector.stop();
    let (samples, failed) = rec.counts();
    tracing::info!(
        path = %path.display(),
        samples,
        failed,
        ok = result.is_ok(),
        "recording stopped"
    );
    result?;
    eprintln!(
        "dgscope: recorded {} samples ({} failed) from {} database(s) to {}",
        samples,
        failed,
        src.slots.len(),
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}
