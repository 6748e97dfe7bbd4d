//! `dgscope record`: run a source headless and write its samples to a recording. The twin is
//! virtual-time source; `--primary …` records live databases through `record_live`.

use super::{limits, settings, Failure};
use crate::cli::RecordArgs;
use crate::output::{is_stdout, OutputError, StreamFile};
use crate::pipeline::Recorder;
use crate::sample::recording::Header;
use crate::source::twin::{Scenario, Twin, EPOCH};
use crate::source::PullSource;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

fn parse_duration(flag: &str, text: &str) -> Result<Duration, Failure> {
    let d = humantime::parse_duration(text.trim()).map_err(|e| {
        Failure::bad_input(format!(
            "{flag} {text:?}: {e}; use a duration such as 90s, 10m or 1h"
        ))
    })?;
    if d.is_zero() {
        return Err(Failure::bad_input(format!(
            "{flag} {text:?} is zero; use a duration such as 90s, 10m or 1h"
        )));
    }
    Ok(d)
}

/// Picks the source the flags name. Only the twin exists for now.
fn source(a: &RecordArgs) -> Result<Box<dyn PullSource>, Failure> {
    let Some(name) = a.twin.as_deref() else {
        return Err(Failure::bad_input(
            "record needs a source: --twin SCENARIO (see `dgscope twin list`) or --primary CONN",
        ));
    };
    let scenario: Scenario = name.parse().map_err(Failure::bad_input)?;
    limits::interval(a.conn.interval()).map_err(Failure::bad_input)?;
    let mut twin = Twin::new(scenario, a.seed);
    twin.set_interval(a.conn.interval());
    Ok(Box::new(twin))
}

/// How long to record when nothing sets it.
const DEFAULT_DURATION: Duration = Duration::from_secs(600);

pub fn run(mut a: RecordArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    let config = super::load_config(config_flag).map_err(Failure::bad_input)?;
    let profile = match a.profile.clone() {
        Some(name) => {
            let (p, what) =
                super::profile::headless_profile(&mut a.conn, &name, &config, "record")?;
            if let super::profile::ProfileSource::Twin(scenario) = what {
                a.twin = Some(scenario);
            }
            Some(p)
        }
        None => {
            settings::fill_conn(&mut a.conn, None, &config)?;
            None
        }
    };
    let flag = a
        .duration
        .as_deref()
        .map(|d| parse_duration("--duration", d))
        .transpose()?;
    let duration = settings::duration(flag, profile.as_ref(), &config)?.unwrap_or(DEFAULT_DURATION);
    if a.twin.is_none() && a.conn.primary.is_some() {
        return super::record_live::run_live(
            &a.conn,
            duration,
            &a.output,
            a.force,
            profile.as_ref().and_then(|p| p.password.as_ref()),
        );
    }
    let mut src = source(&a)?;
    limits::twin_duration(duration).map_err(Failure::bad_input)?;
    let interval_ms = src.interval().as_millis() as u64;
    let ticks = (duration.as_millis() as u64).div_ceil(interval_ms.max(1));
    // Virtual-time sources stamp the header with their own epoch: reproducible files.
    let header = Header::new(EPOCH, interval_ms, &src.describe());
    let out = &a.output;
    let fail = |e: std::io::Error| Failure {
        message: format!(
            "{}: cannot write the recording: {e}; choose a writable path with -o",
            out.display()
        ),
        code: if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            super::EXIT_BAD_INPUT
        },
    };
    let (sink, stream): (Box<dyn Write + Send>, Option<StreamFile>) = if is_stdout(out) {
        (Box::new(std::io::stdout()), None)
    } else {
        let s = StreamFile::create(out, a.force).map_err(|e| match e {
            OutputError::Io { path, source } => Failure::bad_input(format!(
                "{path}: cannot write the recording: {source}; choose a writable path with -o"
            )),
            other => Failure::bad_input(other),
        })?;
        (Box::new(s.try_clone().map_err(fail)?), Some(s))
    };
    tracing::info!(
        path = %out.display(),
        source = %src.describe(),
        duration = %humantime::format_duration(duration),
        "recording started (virtual time)"
    );
    let progress = super::progress::Progress::new("record", duration);
    // `-o FILE.jsonl.zst` compresses; standard output stays plain text.
    let zstd = !is_stdout(out) && crate::sample::recording::wants_zstd(out);
    let mut w = Recorder::new(sink, &header, zstd).map_err(fail)?;
    let mut samples = 0u64;
    let mut slots = std::collections::BTreeSet::new();
    let written = (|| {
        for i in 0..ticks {
            let Some(tick) = src.next_tick() else { break };
            for m in &tick.marks {
                w.write_mark(m)?;
            }
            for s in &tick.samples {
                w.write_sample(s)?;
                samples += 1;
                slots.insert(s.slot.clone());
            }
            progress.tick(Duration::from_millis((i + 1) * interval_ms));
        }
        Ok(())
    })();
    progress.done();
    drop(w);
    tracing::info!(path = %out.display(), ok = written.is_ok(), "recording stopped");
    match (written, stream) {
        (Ok(()), Some(s)) => {
            s.finish().map_err(Failure::bad_input)?;
            // Say what was written, as `record` of live databases does (stderr: stdout may
            // be the recording itself).
            let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
            eprintln!(
                "dgscope: recorded {samples} samples of {} database(s), {} of simulated time, to {} ({})",
                slots.len(),
                humantime::format_duration(duration),
                crate::sanitize::field(&out.display().to_string()),
                super::recording::mb(size),
            );
        }
        (Ok(()), None) => {}
        (Err(e), stream) => {
            if let Some(s) = stream {
                s.abandon();
            }
            return Err(fail(e));
        }
    }
    Ok(ExitCode::SUCCESS)
}
