//! Nagios performance data for `check`'s text output: what follows `|` on the first line,
//! in the plugin guidelines' format `'label'=value[UOM];[warn];[crit];[min];[max]`.
//!
//! Units are the guidelines' (`s`, `ms`; none for counts and rates). `warn` and `crit` are
//! the configured thresholds at which the findings on that figure raise WARN and turn CRIT,
//! left empty where no threshold on the figure alone applies. Every figure is at least 0.
//! A figure dgscope could not determine (a standby that stopped answering, no commits in
//! the window) is left out, never written as 0.
//!
//! The primary's figures have plain labels (`log_file_sync`); each standby's carry its name
//! (`transport_lag_prod_b`, quoted when the name needs it), so two standbys, or a far sync
//! and the terminal standby behind it, never share a label. The apply lag is net of the
//! standby's DELAY, against `lag-high`'s levels: what the verdict judges.

use super::overview::{member_label, net_apply_lag};
use super::range::{Figure, Limits, Range};
use dgscope_core::causes::{Overview, Status, Thresholds};
use dgscope_core::pipeline::CheckMetrics;

/// One `label=value...` term.
pub(crate) struct Term {
    pub label: String,
    pub value: Option<f64>,
    pub uom: &'static str,
    warn: Option<f64>,
    crit: Option<f64>,
    /// The `-w`/`-c` figure this term is, when ranges may judge it.
    pub figure: Option<Figure>,
}

/// A figure outside its `-w` or `-c` range.
#[derive(Debug, Clone, PartialEq)]
pub struct Breach {
    pub label: String,
    pub value: f64,
    pub uom: &'static str,
    pub status: Status,
    pub range: String,
}

/// A label as the guidelines allow it: no `=` or `'` (nor a `|`, which would end the
/// performance data, nor control characters), quoted when it holds a space.
pub(crate) fn label(raw: &str) -> String {
    let clean: String = raw
        .chars()
        .map(|c| {
            if c == '=' || c == '\'' || c == '|' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if clean.contains(' ') {
        format!("'{clean}'")
    } else {
        clean
    }
}

/// Every figure of a run once: the performance data and the `-w`/`-c` verdict read the
/// same terms.
pub(crate) fn terms(m: &CheckMetrics, o: &Overview, t: &Thresholds) -> Vec<Term> {
    let term = |label: &str, value, uom, warn, crit| Term {
        label: label.to_string(),
        value,
        uom,
        warn,
        crit,
        figure: None,
    };
    let judged = |figure: Figure, t: Term| Term {
        figure: Some(figure),
        ..t
    };
    let mut terms = vec![
        judged(
            Figure::LogFileSync,
            term("log_file_sync", m.log_file_sync_ms, "ms", None, None),
        ),
        judged(
            Figure::LogFileParallelWrite,
            term(
                "log_file_parallel_write",
                m.log_file_parallel_write_ms,
                "ms",
                Some(t.lfpw_warn_ms),
                Some(t.lfpw_crit_ms),
            ),
        ),
        judged(
            Figure::SyncRemoteWrite,
            term(
                "sync_remote_write",
                m.sync_remote_write_ms,
                "ms",
                Some(t.remote_min_ms),
                Some(t.remote_crit_ms),
            ),
        ),
        term("tps", m.tps, "", None, None),
        term("redo_mb_per_s", m.redo_rate_mb_s, "", None, None),
    ];
    let (tw, tc) = t.transport_lag_levels();
    let (aw, ac) = t.apply_lag_levels();
    for sb in &o.standbys {
        let name = member_label(sb);
        let rfs = m
            .standbys
            .iter()
            .find(|f| f.slot == sb.slot)
            .and_then(|f| f.rfs_random_io_ms);
        terms.extend([
            judged(
                Figure::TransportLag,
                term(
                    &format!("transport_lag_{name}"),
                    sb.transport_lag_s,
                    "s",
                    Some(tw),
                    Some(tc),
                ),
            ),
            judged(
                Figure::ApplyLag,
                term(
                    &format!("apply_lag_{name}"),
                    net_apply_lag(sb),
                    "s",
                    Some(aw),
                    Some(ac),
                ),
            ),
            term(
                &format!("apply_finish_{name}"),
                sb.apply_finish_s,
                "s",
                None,
                None,
            ),
            term(&format!("rfs_random_io_{name}"), rfs, "ms", None, None),
        ]);
    }
    terms
}

/// The performance data for a run's figures, space-separated; empty when no figure is
/// known. A `-w`/`-c` range given for a figure replaces dgscope's own threshold in its
/// `warn`/`crit` field, written as given.
pub(crate) fn perfdata(m: &CheckMetrics, o: &Overview, t: &Thresholds, limits: &Limits) -> String {
    terms(m, o, t)
        .iter()
        .filter_map(|x| {
            let v = x.value.filter(|v| v.is_finite())?;
            let level = |given: Option<&Range>, own: Option<f64>| match given {
                Some(r) => r.to_string(),
                None => own
                    .filter(|v| v.is_finite())
                    .map(number)
                    .unwrap_or_default(),
            };
            let s = format!(
                "{}={}{};{};{};0",
                label(&x.label),
                number(v.max(0.0)),
                x.uom,
                level(x.figure.and_then(|f| limits.warn.get(f)), x.warn),
                level(x.figure.and_then(|f| limits.crit.get(f)), x.crit),
            );
            Some(s)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The figures outside their `-c` (CRIT) or `-w` (WARN) range, in the performance data's
/// order. A figure dgscope could not determine is never judged (nor called OK).
pub(crate) fn breaches(terms: &[Term], limits: &Limits) -> Vec<Breach> {
    terms
        .iter()
        .filter_map(|x| {
            let v = x.value.filter(|v| v.is_finite())?;
            let f = x.figure?;
            let (status, r) = if let Some(r) = limits.crit.get(f).filter(|r| r.alerts(v)) {
                (Status::Crit, r)
            } else {
                (Status::Warn, limits.warn.get(f).filter(|r| r.alerts(v))?)
            };
            Some(Breach {
                label: x.label.clone(),
                value: v,
                uom: x.uom,
                status,
                range: r.to_string(),
            })
        })
        .collect()
}

/// `text` with ` | perfdata` at the end of its first line (unchanged when `perf` is empty).
pub(crate) fn append_to_first_line(text: &str, perf: &str) -> String {
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
pub(crate) fn number(v: f64) -> String {
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
            log_file_sync_ms: Some(5.3),
            sync_remote_write_ms: None,
            ..CheckMetrics::default()
        };
        let t = Thresholds {
            lfpw_warn_ms: 2.0,
            ..Thresholds::default()
        };
        assert_eq!(
            perfdata(&m, &Overview::default(), &t, &Limits::default()),
            "log_file_sync=5.3ms;;;0"
        );
        let m = CheckMetrics {
            log_file_parallel_write_ms: Some(0.5),
            ..m
        };
        assert!(
            perfdata(&m, &Overview::default(), &t, &Limits::default()).ends_with(&format!(
                "log_file_parallel_write=0.5ms;2;{};0",
                number(t.lfpw_crit_ms)
            ))
        );
        assert_eq!(
            perfdata(
                &CheckMetrics::default(),
                &Overview::default(),
                &t,
                &Limits::default()
            ),
            ""
        );
    }

    #[test]
    fn labels_follow_the_guidelines() {
        assert_eq!(label("transport_lag_prod_b"), "transport_lag_prod_b");
        assert_eq!(label("apply_lag_my db"), "'apply_lag_my db'");
        assert_eq!(label("x='a|b"), "x__a_b");
        assert_eq!(label("x\nb"), "x_b");
    }

    #[test]
    fn appended_to_the_first_line_only() {
        assert_eq!(append_to_first_line("a\nb\n", "x=1"), "a | x=1\nb\n");
        assert_eq!(append_to_first_line("a", "x=1"), "a | x=1");
        assert_eq!(append_to_first_line("a\nb\n", ""), "a\nb\n");
    }
}
