//! Causes of standby lag: transport, apply, freshness, destination errors, an unreachable
//! standby (seed 002, MAA).

use super::{ev, Draft};
use crate::causes::context::Context;
use crate::causes::finding::{Finding, Severity};
use crate::causes::thresholds::Thresholds;
use crate::sample::names::event;
use crate::source::oracle::verify as sql;

pub const TRANSPORT_BANDWIDTH: &str = "transport-bandwidth";
pub const APPLY_BOUND: &str = "apply-bound";
pub const LAG_STALE: &str = "lag-stale";
pub const DEST_ERROR: &str = "dest-error";
pub const STANDBY_DOWN: &str = "standby-down";

fn lags(ctx: &Context) -> Option<(f64, f64)> {
    let dg = ctx.s_last()?.dg.as_ref()?;
    Some((dg.transport_lag_s?.0, dg.apply_lag_s?.0))
}

/// Change per second of a standby point series over the last `secs` seconds.
fn slope(
    ctx: &Context,
    secs: f64,
    f: impl Fn(&crate::metrics::Point) -> Option<f64>,
) -> Option<f64> {
    let points = ctx.standby_points();
    let recent = Context::recent(&points, ctx.now, secs);
    let first = recent.iter().find_map(|p| f(p).map(|v| (p.t, v)))?;
    let last = recent.iter().rev().find_map(|p| f(p).map(|v| (p.t, v)))?;
    let dt = last.0.secs_since(first.0);
    // Only a trend over most of the span counts ("for 30 s").
    (dt >= secs * 0.9).then(|| (last.1 - first.1) / dt)
}

fn fmt_lag(s: f64) -> String {
    if s >= 60.0 {
        format!("{} min {:02} s", (s / 60.0).floor(), (s % 60.0).round())
    } else {
        format!("{s:.0} s")
    }
}

/// Transport lag gained per second over the last `secs` seconds.
pub(crate) fn transport_lag_slope(ctx: &Context, secs: f64) -> Option<f64> {
    slope(ctx, secs, |p| p.transport_lag_s)
}

pub fn transport_bandwidth(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (transport, apply) = lags(ctx)?;
    let rising = slope(ctx, th.transport_rise_window_s, |p| p.transport_lag_s);
    let lagging = transport >= th.transport_lag_s
        || rising.is_some_and(|r| r >= th.transport_lag_rise_s_per_s);
    let keeps_up = apply - transport < th.apply_gap_s;
    let dest_ok = ctx
        .dests()
        .iter()
        .all(|d| d.error.as_deref().is_none_or(|e| e.trim().is_empty()));
    if !(lagging && keeps_up && dest_ok) {
        return None;
    }
    let mut evidence = vec![ev(
        "transport lag",
        transport,
        "s",
        Some(format!(
            "≥ {:.0} s or rising ≥ {} s/s",
            th.transport_lag_s, th.transport_lag_rise_s_per_s
        )),
        "V$DATAGUARD_STATS",
    )];
    if let Some(r) = rising {
        evidence.push(ev(
            "transport lag trend",
            r,
            "s/s",
            None,
            "V$DATAGUARD_STATS",
        ));
    }
    evidence.push(ev(
        "apply lag − transport lag",
        apply - transport,
        "s",
        Some(format!(
            "< {:.0} s (the standby applies what it receives)",
            th.apply_gap_s
        )),
        "V$DATAGUARD_STATS",
    ));
    if let Some(redo) = ctx.p.as_ref().and_then(|d| d.redo_mb_s()) {
        evidence.push(ev("primary redo rate", redo, "MB/s", None, "V$SYSSTAT"));
        let mbit = redo * 1048576.0 / 0.7 * 8.0 / 1e6;
        evidence.push(ev(
            "bandwidth needed (redo ÷ 0.7)",
            mbit,
            "Mbit/s",
            None,
            "V$SYSSTAT",
        ));
    }
    if let Some(d) = ctx.dests().iter().find(|d| !d.mode.is_sync()) {
        if let Some(c) = &d.compression {
            evidence.push(ev(
                &format!("dest {} compression {c}", d.id),
                f64::NAN,
                "",
                None,
                "V$ARCHIVE_DEST",
            ));
        }
    }
    let severity = if transport >= th.lag_crit_s {
        Severity::Crit
    } else {
        Severity::Warn
    };
    Some(
        Draft {
            id: TRANSPORT_BANDWIDTH,
            severity,
            title: format!(
                "Redo transport cannot keep up: transport lag {} and apply follows it (apply lag {})",
                fmt_lag(transport),
                fmt_lag(apply)
            ),
            evidence,
            meaning: "The standby applies what it receives, but redo arrives late: the primary generates redo faster than the network ships it. Seed 002 shipped a ~140 MB/s burst over a ~109 MB/s link and built 338 s of transport lag; with compression it stayed near 20 s. MAA expects transport lag under 10 s.",
            check: &[sql::DG_LAGS, sql::DEST_CONFIG, sql::ARCHIVE_GAP],
            advice: &[
                "Compare the redo rate with the link: needed Mbit/s ≈ redo bytes/s ÷ 0.7 × 8 / 10^6.",
                "Redo transport compression (ZLIB; LZO is not allowed with SYNC) trades CPU for bandwidth: about one core per 100 Mbit/s (MOS 729551.1), and it needs the Advanced Compression licence.",
                "Spread batch redo peaks, or add bandwidth; check for competing traffic on the link.",
            ],
            explains: transport,
        }
        .finish(ctx),
    )
}

pub fn apply_bound(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (transport, apply) = lags(ctx)?;
    let gap = apply - transport;
    let gap_trend = slope(ctx, th.transport_rise_window_s, |p| {
        Some(p.apply_lag_s? - p.transport_lag_s?)
    });
    let not_shrinking = gap_trend.is_none_or(|t| t >= -0.1);
    let by_gap = gap >= th.apply_gap_s && not_shrinking;
    // Apply slower than redo generation while transport keeps up, held for the rate window.
    let slow_apply = {
        let pp = ctx.primary_points();
        let sp = ctx.standby_points();
        let redo = Context::recent(&pp, ctx.now, th.apply_rate_window_s);
        let applied = Context::recent(&sp, ctx.now, th.apply_rate_window_s);
        let span = applied
            .first()
            .zip(applied.last())
            .map_or(0.0, |(a, b)| b.t.secs_since(a.t));
        let mean = |v: &[&crate::metrics::Point], f: fn(&crate::metrics::Point) -> Option<f64>| {
            let xs: Vec<f64> = v.iter().filter_map(|p| f(p)).collect();
            (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
        };
        match (
            mean(&redo, |p| p.redo_mb_s),
            mean(&applied, |p| p.apply_mb_s),
        ) {
            (Some(r), Some(a)) => {
                span >= th.apply_rate_window_s * 0.9
                    && a < 0.95 * r
                    && transport < th.transport_lag_s
            }
            _ => false,
        }
    };
    if !(by_gap || slow_apply) {
        return None;
    }
    let mut evidence = vec![
        ev(
            "apply lag − transport lag",
            gap,
            "s",
            Some(format!("≥ {:.0} s and not shrinking", th.apply_gap_s)),
            "V$DATAGUARD_STATS",
        ),
        ev("apply lag", apply, "s", None, "V$DATAGUARD_STATS"),
        ev("transport lag", transport, "s", None, "V$DATAGUARD_STATS"),
    ];
    let apply_rate = ctx
        .s_last()
        .and_then(|s| s.recovery.as_ref())
        .and_then(|r| r.active_apply_kbps)
        .map(|k| k / 1024.0);
    let redo_rate = ctx.p.as_ref().and_then(|d| d.redo_mb_s());
    if let Some(a) = apply_rate {
        evidence.push(ev(
            "active apply rate",
            a,
            "MB/s",
            None,
            "V$RECOVERY_PROGRESS",
        ));
    }
    if let Some(r) = redo_rate {
        evidence.push(ev("primary redo rate", r, "MB/s", None, "V$SYSSTAT"));
    }
    // What apply waits on, worst first: the advice depends on it.
    if let Some(s) = ctx.s.as_ref() {
        let mut waits: Vec<(&str, f64)> = [
            event::CHECKPOINT_COMPLETED,
            event::RECOVERY_READ,
            event::DB_FILE_SEQUENTIAL_READ,
            event::PARALLEL_RECOVERY_READ_BUFFER_FREE,
            event::FREE_BUFFER_WAITS,
        ]
        .iter()
        .filter_map(|&e| {
            s.event(e)
                .map(|d| (e, d.us as f64 / 1e6 / s.secs.max(1e-9)))
        })
        .filter(|w| w.1 > 0.0)
        .collect();
        waits.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (name, per_s) in waits.into_iter().take(3) {
            evidence.push(ev(
                &format!("standby wait '{name}'"),
                per_s,
                "s/s",
                None,
                "V$SYSTEM_EVENT",
            ));
        }
    }
    let severity = if apply >= th.lag_crit_s {
        Severity::Crit
    } else {
        Severity::Warn
    };
    Some(
        Draft {
            id: APPLY_BOUND,
            severity,
            title: format!(
                "Redo apply is the bottleneck: apply lag {} vs transport lag {}{}",
                fmt_lag(apply),
                fmt_lag(transport),
                match (apply_rate, redo_rate) {
                    (Some(a), Some(r)) => format!("; apply {a:.1} MB/s vs redo {r:.1} MB/s"),
                    _ => String::new(),
                }
            ),
            evidence,
            meaning: "Redo reaches the standby in time, but recovery applies it slower than the primary generates it. MAA names checkpoints as the heaviest I/O of recovery; reads of data blocks are next. Seed 004 shows the redo read rate is bound by I/O, not by read-buffer parameters.",
            check: &[sql::APPLY_RATE, sql::APPLY_WAITS, sql::DG_LAGS, sql::APPLY_PROCESSES],
            advice: &[
                "By the top standby wait: 'checkpoint completed' → more DB writers and larger logs (fewer checkpoints); 'recovery read' or 'db file sequential read' → faster datafile storage.",
                "Make sure the standby's storage and CPU match the primary's.",
                "Read-buffer hidden parameters rarely help: the redo read rate is I/O-bound (seed 004). Change hidden parameters only with Oracle Support.",
            ],
            explains: gap.max(0.0),
        }
        .finish(ctx),
    )
}

pub fn lag_stale(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let last = ctx.s_last()?;
    let dg = last.dg.as_ref()?;
    let age = match (dg.computed, dg.datum) {
        (Some(c), Some(d)) => Some(c.secs_since(d)),
        _ => None,
    };
    let redo_flowing = ctx
        .p
        .as_ref()
        .and_then(|d| d.redo_mb_s())
        .is_some_and(|r| r > 0.0);
    let frozen = redo_flowing
        && dg
            .datum
            .is_some_and(|datum| datum_unchanged_for(ctx, datum, th.stale_datum_s));
    let stale = age.is_some_and(|a| a >= th.stale_datum_s);
    if !(stale || frozen) {
        return None;
    }
    let age_s = age.unwrap_or(th.stale_datum_s);
    Some(
        Draft {
            id: LAG_STALE,
            severity: Severity::Crit,
            title: format!(
                "The standby's lag figures are stale: last data from the primary {age_s:.0} s before they were computed"
            ),
            evidence: vec![ev(
                "time computed − datum time",
                age_s,
                "s",
                Some(format!("≥ {:.0} s, or datum not advancing", th.stale_datum_s)),
                "V$DATAGUARD_STATS",
            )],
            meaning: "V$DATAGUARD_STATS computes lag from data the primary sends periodically. When DATUM_TIME stops advancing the standby is not receiving, and the lag values no longer describe reality (Oracle: the difference should stay under 30 s).",
            check: &[sql::DG_LAGS, sql::DEST_CONFIG, sql::APPLY_PROCESSES],
            advice: &[
                "Check the primary's destination status and error, the network path, and the RFS processes on the standby.",
                "Treat the displayed lag as unknown until DATUM_TIME moves again.",
            ],
            explains: age_s,
        }
        .finish(ctx),
    )
}

/// True when every standby sample of the last `secs` seconds carries the same datum time.
fn datum_unchanged_for(ctx: &Context, datum: crate::timestamp::Timestamp, secs: f64) -> bool {
    let Some(st) = ctx.standby else {
        return false;
    };
    let Some(last) = st.last_good() else {
        return false;
    };
    let from = last.t.add_millis(-(secs * 1000.0) as i64);
    let mut oldest = None;
    for s in st.raw_samples().rev() {
        if s.t < from {
            break;
        }
        if s.dg.as_ref().and_then(|d| d.datum) != Some(datum) {
            return false;
        }
        oldest = Some(s.t);
    }
    oldest.is_some_and(|o| last.t.secs_since(o) >= secs * 0.9)
}

pub fn dest_error(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let bad: Vec<_> = ctx
        .dests()
        .iter()
        .filter(|d| {
            d.status == crate::sample::DestStatus::Error
                || d.error.as_deref().is_some_and(|e| !e.trim().is_empty())
                || d.has_gap()
        })
        .collect();
    let first = bad.first()?;
    let mut evidence = Vec::new();
    for d in &bad {
        evidence.push(ev(
            &format!("LOG_ARCHIVE_DEST_{} status {}", d.id, d.status),
            f64::NAN,
            "",
            None,
            "V$ARCHIVE_DEST",
        ));
        if let Some(e) = d.error.as_deref().filter(|e| !e.trim().is_empty()) {
            evidence.push(ev(
                &format!("dest {} error: {e}", d.id),
                f64::NAN,
                "",
                None,
                "V$ARCHIVE_DEST",
            ));
        }
        if let Some(g) = d.gap.as_deref().filter(|_| d.has_gap()) {
            evidence.push(ev(
                &format!("dest {} gap status: {g}", d.id),
                f64::NAN,
                "",
                None,
                "V$ARCHIVE_DEST_STATUS",
            ));
        }
    }
    // A destination error while the standby itself is down is a consequence, not the cause.
    let explains = if ctx.standby_failed_since().is_some() {
        0.0
    } else {
        lags(ctx).map_or(1.0, |(t, _)| t.max(1.0))
    };
    Some(
        Draft {
            id: DEST_ERROR,
            severity: Severity::Crit,
            title: format!(
                "Redo transport to {} is failing: status {}{}",
                first.name.as_deref().unwrap_or("the standby"),
                first.status,
                first
                    .error
                    .as_deref()
                    .filter(|e| !e.trim().is_empty())
                    .map(|e| format!(", {e}"))
                    .or_else(|| first.gap.as_deref().filter(|_| first.has_gap()).map(|g| format!(", {g}")))
                    .unwrap_or_default()
            ),
            evidence,
            meaning: "The primary reports an error or a gap on a remote destination: redo is not reaching the standby (or not all of it). Under Maximum Availability the primary keeps running but the standby falls behind; under Maximum Protection commits stop.",
            check: &[sql::DEST_CONFIG, sql::ARCHIVE_GAP, sql::DG_LAGS],
            advice: &[
                "Read the destination's ERROR text; fix the network or standby problem it names.",
                "Once the destination is VALID again, watch the gap resolve (V$ARCHIVE_GAP on the standby).",
            ],
            explains,
        }
        .finish(ctx),
    )
}

pub fn standby_down(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let since = ctx.standby_failed_since()?;
    let last = ctx.standby?.last()?;
    let err = last.error.as_ref()?;
    let down_s = ctx.now.secs_since(since).max(0.0);
    Some(
        Draft {
            id: STANDBY_DOWN,
            severity: Severity::Crit,
            title: format!(
                "The standby is unreachable: {} ({}) for {down_s:.0} s",
                err.kind, err.message
            ),
            evidence: vec![ev(
                &format!("standby connection: {}", err.message),
                down_s,
                "s",
                None,
                "dgscope connection",
            )],
            meaning: "dgscope cannot sample the standby. If the standby instance or its host is down, redo accumulates on the primary and the gap must be shipped when it returns; under Maximum Protection the primary stops committing.",
            check: &[sql::DEST_CONFIG, sql::ARCHIVE_GAP],
            advice: &[
                "Bring the standby back (instance, listener, host, network).",
                "The primary's destination status shows what the primary sees; after the return watch the gap resolve and transport lag fall.",
            ],
            explains: down_s.max(1.0),
        }
        .finish(ctx),
    )
}
