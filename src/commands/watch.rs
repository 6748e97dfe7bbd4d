//! `dgscope watch`: everything up to handing a running collector to the triage screen.

use super::live::{self, LiveSource, EXIT_UNKNOWN};
use super::record_live::Recorder;
use super::Failure;
use crate::cli_oracle::WatchArgs;
use std::process::ExitCode;

/// Validates the flags (and that `--record FILE` can be created), gets the passwords, loads
/// the client library (DPI-1047 → exit 3 with the install help) and starts the collector.
/// The TUI consumes `LiveSource.rx` and, when `LiveSource.recording` is set, passes every
/// event to `Recorder::on_event` as well.
pub fn prepare(args: &WatchArgs) -> Result<LiveSource, Failure> {
    let file = match &args.record {
        Some(path) => Some((Recorder::open(path)?, path)),
        None => None,
    };
    let mut src = match live::start(&args.conn) {
        Ok(s) => s,
        Err(f) => {
            if let Some((file, path)) = file {
                drop(file);
                let _ = std::fs::remove_file(path);
            }
            return Err(f);
        }
    };
    if let Some((file, path)) = file {
        src.recording = Some(Recorder::start(file, path, &src)?);
    }
    Ok(src)
}

pub fn run(args: WatchArgs) -> Result<ExitCode, Failure> {
    let src = prepare(&args)?;
    src.collector.stop();
    Err(Failure {
        message: "the client library loaded and the collector started, but the live screen is \
                  still being integrated into this build; use `dgscope record` meanwhile"
            .into(),
        code: EXIT_UNKNOWN,
    })
}
