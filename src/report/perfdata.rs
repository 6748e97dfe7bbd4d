//! Nagios performance data for `check`'s text output: what follows `|` on the first line,
//! in the plugin guidelines' format `'label'=value[UOM];[warn];[crit];[min];[max]`.
//!
//! Units are the guidelines' (`s`, `ms`; none for counts and rates). `warn` and `crit` are
//! the configured thresholds at which the findings on that figure raise WARN and turn CRIT,
//! left empty where no threshold on the figure alone applies. Every figure is at least 0.
//! A figure dgscope could not determine (a standby that stopped answering, no commits in
//! the window) is left out, never written as 0.

use super::check::CheckMetrics;
use crate::causes::Thresholds;

/// One `label=value...` term.
struct Term {
    label: &'static str,
    value: Option<f64>,
    uom: &'static str,
    warn: Option<f64>,
    crit: Option<f64>,
}

/// The performance data for a run's figures, space-separated; empty when no figure is
/// known.
pub fn perfdata(m: &CheckMetrics, t: &Thresholds) -> String {
    let term = |label, value, uom, warn, crit| Term {
        label,
        value,
        uom,
        warn,
        crit,
    };
    let terms = [
        term(
            "transport_lag",
            m.transport_lag_s,
            "s",
            Some(t.transport_lag_s),
            Some(t.lag_crit_s),
        ),
        term("apply_lag", m.apply_lag_s, "s", None, Some(t.lag_crit_s)),
        term("log_file_sync", m.log_file_sync_ms, "ms", None, None),
        term(
            "log_file_parallel_write",
            m.log_file_parallel_write_ms,
            "ms",
            Some(t.lfpw_warn_ms),
            Some(t.lfpw_crit_ms),
        ),
        term(
            "sync_remote_write",
            m.sync_remote_write_ms,
            "ms",
            Some(t.remote_min_ms),
            Some(t.remote_crit_ms),
        ),
        term("rfs_random_io", m.rfs_random_io_ms, "ms", None, None),
        term("tps", m.tps, "", None, None),
        term("redo_mb_per_s", m.redo_rate_mb_s, "", None, None),
    ];
    terms
        .iter()
        .filter_map(|x| {
            let v = x.value.filter(|v| v.is_finite())?;
            let opt = |o: Option<f64>| o.filter(|v| v.is_finite()).map(number).unwrap_or_default();
            let s = format!(
                "{}={}{};{};{};0",
                x.label,
                number(v),
                x.uom,
                opt(x.warn),
                opt(x.crit)
            );
            Some(s)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with ` | perfdata` at the end of its first line (unchanged when `perf` is empty).
pub fn append_to_first_line(text: &str, perf: &str) -> String {
    if perf.is_empty() {
        return text.to_string();
    }
    match text.split_once('\n') {
        Some((first, rest)) => format!("{first} | {perf}\n{rest}"),
        None => format!("{text} | {perf}"),
    }
}

/// A value in the guidelines' class `[-0-9.]`: fixed point, no exponent, at most three
/// decimals, trailing zeros dropped.
pub fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" | "" => "0".to_string(),
        s => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_plain_decimals() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(3.4200001), "3.42");
        assert_eq!(number(0.0004), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(1e12), "1000000000000");
        assert_eq!(number(0.5), "0.5");
    }

    #[test]
    fn unknown_figures_are_left_out_and_thresholds_follow_the_config() {
        let m = CheckMetrics {
            transport_lag_s: Some(12.0),
            apply_lag_s: None,
            log_file_sync_ms: Some(5.3),
            ..CheckMetrics::default()
        };
        let t = Thresholds {
            transport_lag_s: 20.0,
            ..Thresholds::default()
        };
        assert_eq!(
            perfdata(&m, &t),
            format!(
                "transport_lag=12s;20;{};0 log_file_sync=5.3ms;;;0",
                number(t.lag_crit_s)
            )
        );
        assert_eq!(perfdata(&CheckMetrics::default(), &t), "");
    }

    #[test]
    fn appended_to_the_first_line_only() {
        assert_eq!(append_to_first_line("a\nb\n", "x=1"), "a | x=1\nb\n");
        assert_eq!(append_to_first_line("a", "x=1"), "a | x=1");
        assert_eq!(append_to_first_line("a\nb\n", ""), "a\nb\n");
    }
}
