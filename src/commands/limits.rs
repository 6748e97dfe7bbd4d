//! The ranges headless commands accept for values that size their work: a duration sizes the
//! simulation, an interval the number of ticks. Checked where the flag enters, with the limit
//! named, so no input makes a command run for days or fill memory.

use std::time::Duration;

/// Longest twin run `check`/`record --twin` simulate: a day of virtual time.
pub const MAX_TWIN_DURATION: Duration = Duration::from_secs(24 * 3600);
/// Sampling intervals, the same for the twin as for live databases (`live::plan`).
pub const MIN_INTERVAL: Duration = Duration::from_millis(100);
pub const MAX_INTERVAL: Duration = Duration::from_secs(3600);

fn fmt(d: Duration) -> humantime::FormattedDuration {
    humantime::format_duration(d)
}

/// `--interval` for the twin: as for live.
pub fn interval(d: Duration) -> Result<(), String> {
    if d < MIN_INTERVAL || d > MAX_INTERVAL {
        return Err(format!(
            "--interval {} is out of range: use {} to {}",
            fmt(d),
            fmt(MIN_INTERVAL),
            fmt(MAX_INTERVAL)
        ));
    }
    Ok(())
}

/// `--duration` of a twin run: more than zero, at most a day.
pub fn twin_duration(d: Duration) -> Result<(), String> {
    if d.is_zero() {
        return Err("--duration 0s: use a duration such as 90s, 10m or 1h".into());
    }
    if d > MAX_TWIN_DURATION {
        return Err(format!(
            "--duration {} is longer than the twin's limit of {} (24h); record several runs with different seeds instead",
            fmt(d),
            fmt(MAX_TWIN_DURATION)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_name_themselves() {
        assert!(interval(Duration::from_secs(1)).is_ok());
        let e = interval(Duration::from_secs(36_000_000_000)).unwrap_err();
        assert!(e.contains("out of range: use 100ms to 1h"), "{e}");
        assert!(twin_duration(Duration::from_secs(86_400)).is_ok());
        let e = twin_duration(Duration::from_secs(86_401)).unwrap_err();
        assert!(e.contains("limit of 1day (24h)"), "{e}");
    }
}
