//! `dgscope watch`: everything up to handing a running collector to the triage screen.

use super::live::{self, LiveSource, EXIT_UNKNOWN};
use super::Failure;
use crate::cli_oracle::WatchArgs;
use std::process::ExitCode;

/// Validates the flags, gets the passwords, loads the client library (DPI-1047 → exit 3
/// with the install help) and starts the collector. The TUI consumes `LiveSource.rx`; with
/// `args.record` it should tee samples into a recording (see `record_live::Recorder`).
pub fn prepare(args: &WatchArgs) -> Result<LiveSource, Failure> {
    live::start(&args.conn)
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
