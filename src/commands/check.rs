use super::{print, Failure};
use crate::causes::Thresholds;
use crate::cli::{CheckArgs, CheckFormat};
use crate::report::check::run_check;
use crate::sample::recording::RecordingReader;
use std::process::ExitCode;

/// Nagios UNKNOWN: `check` could not judge (bad flags, unreadable recording, no source).
pub const EXIT_UNKNOWN: u8 = 3;

fn unknown(e: impl std::fmt::Display) -> Failure {
    Failure {
        message: e.to_string(),
        code: EXIT_UNKNOWN,
    }
}

pub fn run(args: CheckArgs) -> Result<ExitCode, Failure> {
    let Some(path) = &args.replay else {
        return Err(unknown(
            "check needs a source: --replay FILE (a recording to judge)",
        ));
    };
    let reader = RecordingReader::open(path).map_err(unknown)?;
    let result = run_check(reader, args.duration, Thresholds::default()).map_err(unknown)?;
    if result.samples == 0 {
        return Err(unknown(format!(
            "{}: the recording holds no samples",
            path.display()
        )));
    }
    print(&match args.format {
        CheckFormat::Json => result.json(),
        CheckFormat::Text => result.text(),
    })?;
    Ok(ExitCode::from(result.exit_code(args.fail_on)))
}
