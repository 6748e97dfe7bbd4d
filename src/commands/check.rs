use super::{print, Failure};
use crate::cli::{CheckArgs, CheckFormat};
use crate::pipeline::check::{run_check, Checked};
use crate::report::check::pull_entries;
use crate::sample::recording::Entry;
use crate::sample::recording::RecordingReader;
use crate::source::twin::whatif::TwinWhatIf;
use crate::source::twin::{Scenario, Twin};
use crate::source::SourceEvent;
use std::convert::Infallible;
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

/// Samples live databases for the duration (default 60 s) and judges them.
fn live(args: &CheckArgs, thresholds: crate::causes::Thresholds) -> Result<Checked, Failure> {
    // Anything that stops a check from judging is UNKNOWN, whatever `start` would exit with.
    let mut src = super::live::start(&args.conn).map_err(|f| unknown(f.message))?;
    let duration = args.duration.unwrap_or(Duration::from_secs(60));
    let entries = std::iter::from_fn(|| loop {
        match src.rx.blocking_recv()? {
            SourceEvent::Sample(s) => return Some(Ok::<_, Infallible>(Entry::Sample(s))),
            SourceEvent::Mark(m) => return Some(Ok(Entry::Mark(m))),
            SourceEvent::Status { .. } => continue,
            SourceEvent::End => return None,
        }
    });
    let Ok(r) = run_check(
        entries,
        Some(duration),
        thresholds,
        Some(&TwinWhatIf::default()),
    );
    src.collector.stop();
    Ok(r)
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
    } else if args.conn.primary.is_some() {
        live(&args, config.thresholds)?
    } else {
        return Err(unknown(
            "check needs a source: --primary CONN (live), --twin SCENARIO (the simulator) or --replay FILE (a recording)",
        ));
    };
    let pair = crate::pipeline::check::pair_of(&args);
    print(&match args.format {
        CheckFormat::Json => result.json(),
        CheckFormat::Text => result.text(),
        CheckFormat::OpenMetrics => {
            result.exposition(&pair, crate::exposition::Format::OpenMetrics)
        }
    })?;
    if let Some(dir) = &args.textfile {
        result.write_textfile(dir, &pair).map_err(unknown)?;
    }
    Ok(ExitCode::from(result.exit_code(args.fail_on)))
}
