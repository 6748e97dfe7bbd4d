use super::{print, Failure};
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

pub fn run(args: CheckArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    let config = super::load_config(config_flag).map_err(unknown)?;
    let Some(path) = &args.replay else {
        return Err(unknown(
            "check needs a source: --replay FILE (a recording to judge)",
        ));
    };
    let reader = RecordingReader::open(path).map_err(unknown)?;
    let result = run_check(reader, args.duration, config.thresholds).map_err(unknown)?;
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
