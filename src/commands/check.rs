use super::{print, Failure};
use crate::cli::{CheckArgs, CheckFormat};
use crate::report::check::{pull_entries, run_check};
use crate::sample::recording::RecordingReader;
use crate::source::twin::whatif::TwinWhatIf;
use crate::source::twin::{Scenario, Twin};
use std::process::ExitCode;
use std::time::Duration;

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
    let result = if let Some(name) = &args.twin {
        let scenario: Scenario = name.parse().map_err(unknown)?;
        let mut twin = Twin::new(scenario, args.seed);
        let duration = args.duration.unwrap_or(Duration::from_secs(60));
        let Ok(r) = run_check(
            pull_entries(&mut twin, duration),
            Some(duration),
            config.thresholds,
            Some(&TwinWhatIf::default()),
        );
        r
    } else if let Some(path) = &args.replay {
        let reader = RecordingReader::open(path).map_err(unknown)?;
        let r = run_check(
            reader,
            args.duration,
            config.thresholds,
            Some(&TwinWhatIf::default()),
        )
        .map_err(unknown)?;
        if r.samples == 0 {
            return Err(unknown(format!(
                "{}: the recording holds no samples",
                path.display()
            )));
        }
        r
    } else {
        return Err(unknown(
            "check needs a source: --twin SCENARIO (the simulator) or --replay FILE (a recording)",
        ));
    };
    print(&match args.format {
        CheckFormat::Json => result.json(),
        CheckFormat::Text => result.text(),
    })?;
    Ok(ExitCode::from(result.exit_code(args.fail_on)))
}
