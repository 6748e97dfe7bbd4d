//! Causes of standby lag: transport, apply, freshness, destination errors, an unreachable
//! standby (seed 002, MAA).

// Durations in titles in the screen's one format ("42 s", "5m22s").
use super::ids::STANDBY_DOWN;
use super::spec::{Chart, Kind, Reads, RuleSpec, Scope, BASE};
use super::standby_state::{apply_stopped_now, not_receiving_cause};
use super::{ev, weigh, Draft, STANDBY_FRA_FULL};
use crate::causes::context::Context;
use crate::causes::decomposition::{ApplyPart, TransportPart};
use crate::causes::finding::{Finding, Severity};
use crate::causes::impact::{FindingKind, Impact, Symptom};
use crate::causes::standby_facts::{fra_full, slope};
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::display::dur as fmt_lag;
use dgscope_model::sample::names::event;
use dgscope_model::sample::vocab::whatif::Change;
use dgscope_model::sample::{Dest, DestStatus};

pub(super) const TRANSPORT_BANDWIDTH: &str = "transport-bandwidth";
pub(super) const APPLY_BOUND: &str = "apply-bound";
pub(super) const LAG_STALE: &str = "lag-stale";
pub(super) const DEST_ERROR: &str = "dest-error";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: TRANSPORT_BANDWIDTH,
        weighed: true,
        eval: transport_bandwidth,
        severity: "WARN (CRIT at 5 min)",
        scope: Scope::EachStandby,
        standby_judged: true,
        reads: &[Reads::Window, Reads::Trend(|th| th.transport_rise_window_s)],
        chart: Chart::Lag,
        what_ifs: |_| vec![Change::Zlib { ratio: 2.7 }],
        verify: &[V::DgLags, V::DestConfig, V::ArchiveGap],
        ..BASE
    },
    RuleSpec {
        id: APPLY_BOUND,
        weighed: true,
        eval: apply_bound,
        severity: "WARN (CRIT at 5 min)",
        scope: Scope::EachStandby,
        apply: true,
        standby_judged: true,
        reads: &[
            Reads::Window,
            Reads::Trend(|th| th.transport_rise_window_s.max(th.apply_rate_window_s)),
        ],
        chart: Chart::Lag,
        verify: &[V::ApplyRate, V::ApplyWaits, V::DgLags, V::ApplyProcesses],
        ..BASE
    },
    RuleSpec {
        id: LAG_STALE,
        eval: lag_stale,
        severity: "CRIT",
        kind: Kind::State,
        scope: Scope::EachStandby,
        standby_judged: true,
        reads: &[Reads::StandbyRaw(|th| th.stale_datum_s)],
        chart: Chart::Lag,
        verify: &[V::DgLags, V::DestConfig, V::ApplyProcesses],
        ..BASE
    },
    RuleSpec {
        id: DEST_ERROR,
        eval: dest_error,
        severity: "CRIT for an error, WARN for a resolvable gap, INFO for a short log switch gap",
        kind: Kind::State,
        // A LOG SWITCH GAP is aged by the engine as samples arrive: no raw history.
        reads: &[Reads::Latest],
        chart: Chart::Lag,
        verify: &[V::DestConfig, V::ArchiveGap, V::DgLags],
        ..BASE
    },
    RuleSpec {
        id: STANDBY_DOWN,
        eval: standby_down,
        severity: "CRIT",
        kind: Kind::State,
        scope: Scope::EachStandby,
        reads: &[Reads::Latest],
        chart: Chart::Lag,
        verify: &[V::DestConfig, V::ArchiveGap],
        ..BASE
    },
];

/// The destination ships: `VALID` without an error. The standby's own destination when it
/// can be matched, else every remote destination (and at least one).
fn dest_valid(ctx: &Context) -> bool {
    let ok = |d: &Dest| {
        d.status == DestStatus::Valid && d.error.as_deref().is_none_or(|e| e.trim().is_empty())
    };
    match ctx.standby_dest() {
        Some(d) => ok(d),
        None => !ctx.dests().is_empty() && ctx.dests().iter().all(ok),
    }
}

/// A known apply rate: `Active Apply Rate` is 0 under Multi-Instance Redo Apply (and on a
/// RAC standby's other instances), which means unknown, not zero.
fn apply_rate_unknown_if_zero(ctx: &Context) -> bool {
    ctx.mira()
        || ctx
            .s_last()
            .and_then(|s| s.db.as_ref())
            .and_then(|d| d.instances)
            .is_some_and(|n| n > 1)
}

/// Change per second of a standby point series over the last `secs` seconds.
/// Principle 2 (a lag is explained before it is blamed): bandwidth needs redo that ships,
/// measurably, over a VALID ASYNC destination with no gap. Transport lag grows 1 s/s when
/// nothing ships (a gap, an error, a stall, the standby down): that is never bandwidth; and a
/// SYNC or FASTSYNC destination short of bandwidth shows as commit latency, not transport lag.
fn shipping_too_slowly(ctx: &Context, th: &Thresholds, rising: Option<f64>) -> bool {
    use crate::causes::state::{explain_transport, TransportWhy};
    let dest = ctx.standby_dest();
    let asynchronous = match dest {
        Some(d) => !d.mode.is_sync(),
        None => ctx.sync_dest().is_none(),
    };
    let no_gap = dest.is_none_or(|d| !d.has_gap());
    // A measured, non-zero shipped rate (principle 2): the lag's trend over the rise window
    // against the redo rate. Without a trend nothing is measured yet; at (nearly) the
    // clock's rate nothing arrives.
    let redo = ctx.p().and_then(|d| d.redo_mb_s()).unwrap_or(0.0);
    let something_ships = redo > 0.0 && rising.is_some_and(|r| r < 0.9);
    // RFS writes into the standby redo logs: a measured zero is not a slow link.
    let rfs_writes_zero = ctx
        .s()
        .and_then(|d| d.io(dgscope_model::sample::names::filetype::LOG_FILE))
        .is_some_and(|io| io.w_mb_s <= 0.0);
    let explained_elsewhere = matches!(
        explain_transport(ctx, th),
        TransportWhy::NotShipping { .. }
            | TransportWhy::Stalled { .. }
            | TransportWhy::CatchingUp { .. }
    );
    asynchronous && no_gap && something_ships && !rfs_writes_zero && !explained_elsewhere
}

pub(super) fn transport_bandwidth(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // A cascaded standby is judged against the member it receives from (a far sync): only
    // the lag of its own hop of the chain is this link's.
    let hop = ctx.hop_transport_lag();
    let transport = match &hop {
        Some((_, h)) => *h,
        None => ctx.transport_lag()?,
    };
    let behind = hop
        .as_ref()
        .map(|(n, _)| format!(" behind {n}"))
        .unwrap_or_default();
    // Judged on its own: an unknown apply lag does not hide a transport lag.
    let apply = ctx.apply_lag();
    let rising = slope(ctx, th.transport_rise_window_s, |p| p.transport_lag_s);
    let lagging = transport >= th.transport_lag_s
        || rising.is_some_and(|r| r >= th.transport_lag_rise_s_per_s);
    let net_apply = apply.map(|a| (a - ctx.delay_s()).max(0.0));
    // The apply lag counts from the primary, like the standby's whole transport lag.
    let total = ctx.transport_lag().unwrap_or(transport);
    let keeps_up = net_apply.is_none_or(|a| a - total < th.apply_gap_s);
    // A lag that drains faster than redo arrives means the link has headroom: the shipped
    // rate is not flat below the redo rate (catching up after an outage, say).
    let not_draining = rising.is_none_or(|r| r >= -th.transport_drain_s_per_s);
    // Lag built up by a stopped apply or a destination that does not ship is not bandwidth.
    if !(lagging
        && keeps_up
        && not_draining
        && dest_valid(ctx)
        && apply_stopped_now(ctx, th).is_none()
        && shipping_too_slowly(ctx, th, rising))
    {
        return None;
    }
    let apply = apply.unwrap_or(f64::NAN);
    let mut evidence = vec![ev(
        &format!("transport lag{behind}"),
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
    if let Some(a) = net_apply {
        evidence.push(ev(
            "apply lag − transport lag",
            a - total,
            "s",
            Some(format!(
                "< {:.0} s (the standby applies what it receives)",
                th.apply_gap_s
            )),
            "V$DATAGUARD_STATS",
        ));
    }
    if let Some(redo) = ctx.p().and_then(|d| d.redo_mb_s()) {
        evidence.push(ev("primary redo rate", redo, "MB/s", None, "V$SYSSTAT"));
        if let Some(r) = rising {
            // What reaches the standby: the redo of (1 − lag growth) seconds per second.
            evidence.push(ev(
                "shipped rate (from the lag trend)",
                redo * (1.0 - r).max(0.0),
                "MB/s",
                Some("below the redo rate, not draining".into()),
                "V$DATAGUARD_STATS",
            ));
        }
        let mbit = redo * 1048576.0 / 0.7 * 8.0 / 1e6;
        evidence.push(ev(
            "bandwidth needed (redo ÷ 0.7)",
            mbit,
            "Mbit/s",
            None,
            "V$SYSSTAT",
        ));
    }
    if let Some(t) = ctx.transport_lag().filter(|_| hop.is_some()) {
        evidence.push(ev(
            "transport lag behind the primary",
            t,
            "s",
            None,
            "V$DATAGUARD_STATS",
        ));
    }
    let ships = ctx
        .standby_dest()
        .filter(|_| hop.is_some())
        .or_else(|| ctx.dests().iter().find(|d| !d.mode.is_sync()));
    if let Some(d) = ships {
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
    // Where the time goes on an ASYNC link: the transport process waiting on the network
    // send (12c+ `ASYNC Remote Write`), and the standby's RFS writing what arrives. A slow
    // send next to fast RFS writes puts the limit on the link, not on the standby's disk.
    if let Some(m) = ctx.p().and_then(|d| d.event_avg(event::ASYNC_REMOTE_WRITE)) {
        evidence.push(ev(
            "ASYNC Remote Write avg",
            m.0,
            "ms",
            None,
            "V$SYSTEM_EVENT (primary)",
        ));
    }
    if let Some(rfs) = ctx.rfs() {
        evidence.push(ev(
            "standby RFS write avg",
            rfs,
            "ms",
            None,
            "V$SYSTEM_EVENT (standby)",
        ));
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
            title: if apply.is_nan() {
                format!(
                    "Redo transport cannot keep up: transport lag {}{behind}",
                    fmt_lag(transport)
                )
            } else {
                format!(
                    "Redo transport cannot keep up: transport lag {}{behind} and apply follows it (apply lag {})",
                    fmt_lag(transport),
                    fmt_lag(apply)
                )
            },
            evidence,
            meaning: "The standby applies what it receives, but redo arrives late: the primary generates redo faster than the network ships it. Seed 002 shipped a ~140 MB/s burst over a ~109 MB/s link and built 338 s of transport lag; with compression it stayed near 20 s. MAA expects transport lag under 10 s.",
            advice: &[
                "Compare the redo rate with the link: needed Mbit/s ≈ redo bytes/s ÷ 0.7 × 8 / 10^6.",
                "First make sure the link's capacity is usable: TCP socket buffers (RECV_BUF_SIZE/SEND_BUF_SIZE in sqlnet.ora or the TNS descriptor) of at least 3 × the bandwidth-delay product; measure the path with oratcptest before and after.",
                "Then consider redo transport compression (ZLIB; LZO is not allowed with SYNC; needs the Advanced Compression licence). MOS 729551.1: in its gap-resolution tests a 100 Mbit/s network consumed an entire CPU per transport (ARCH) process, half a CPU at about 50 Mbit/s; and if reducing RPO is the priority, compression is not recommended for network bandwidths above 100 Mbit/s, since compressing can increase the overall transfer time.",
                "Spread batch redo peaks, or add bandwidth; check for competing traffic on the link.",
            ],
            impact: weigh::transport(ctx, th, Some(TransportPart::ShippingShort)),
        }
        .finish(ctx),
    )
}

pub(super) fn apply_bound(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let raw_apply = ctx.apply_lag()?;
    // A deliberate delay is not apply falling behind: judge the lag net of it.
    let delay = ctx.delay_s();
    let apply = (raw_apply - delay).max(0.0);
    // Judged on its own: an unknown transport lag does not hide an apply lag.
    let transport_known = ctx.transport_lag();
    let transport = transport_known.unwrap_or(0.0);
    let gap = apply - transport;
    let applying = ctx
        .mrp()
        .and_then(|p| p.action.as_deref())
        .is_some_and(|a| a.eq_ignore_ascii_case("APPLYING_LOG"));
    // Asked at every instant: the trend and the rates are read only for an applying MRP.
    if !applying {
        return None;
    }
    let gap_trend = slope(ctx, th.transport_rise_window_s, |p| {
        Some(p.apply_lag_s? - p.transport_lag_s.unwrap_or(0.0))
    });
    let growing = gap_trend.is_some_and(|t| t >= th.apply_lag_rise_s_per_s);
    let at_threshold = gap >= th.apply_gap_s && gap_trend.is_none_or(|t| t >= -0.1);
    if !(growing || at_threshold) {
        return None;
    }
    // A known apply rate slower than redo generation, held for the rate window.
    let zero_is_unknown = apply_rate_unknown_if_zero(ctx);
    let rates = {
        let redo = ctx.primary_points(th.apply_rate_window_s);
        let applied: Vec<&crate::metrics::Point> = ctx
            .standby_points(th.apply_rate_window_s)
            .into_iter()
            .filter(|p| p.apply_mb_s.is_some_and(|a| !(zero_is_unknown && a == 0.0)))
            .collect();
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
            (Some(r), Some(a)) if span >= th.apply_rate_window_s * 0.9 => Some((a, r)),
            _ => None,
        }
    };
    let slow_apply = rates.is_some_and(|(a, r)| a < 0.95 * r);
    if !slow_apply {
        return None;
    }
    let mut evidence = vec![
        ev(
            "apply lag − transport lag",
            gap,
            "s",
            Some(format!(
                "≥ {:.0} s and not shrinking, or growing",
                th.apply_gap_s
            )),
            "V$DATAGUARD_STATS",
        ),
        ev("apply lag", raw_apply, "s", None, "V$DATAGUARD_STATS"),
    ];
    if delay > 0.0 {
        evidence.push(ev(
            "apply lag net of DELAY_MINS",
            apply,
            "s",
            None,
            "V$ARCHIVE_DEST",
        ));
    }
    if let Some(t) = transport_known {
        evidence.push(ev("transport lag", t, "s", None, "V$DATAGUARD_STATS"));
    }
    if let Some(t) = gap_trend {
        evidence.push(ev("apply lag trend", t, "s/s", None, "V$DATAGUARD_STATS"));
    }
    let apply_rate = rates.map(|r| r.0);
    let redo_rate = rates.map(|r| r.1);
    if let Some(a) = apply_rate {
        evidence.push(ev(
            "active apply rate (window mean)",
            a,
            "MB/s",
            Some("< 95 % of the redo rate".into()),
            "V$RECOVERY_PROGRESS",
        ));
    }
    if let Some(r) = redo_rate {
        evidence.push(ev(
            "primary redo rate (window mean)",
            r,
            "MB/s",
            None,
            "V$SYSSTAT",
        ));
    }
    // What apply waits on, worst first: the advice depends on it. Background processes
    // only (total − foreground): on an Active Data Guard standby the queries' own reads
    // are not apply's.
    if let Some(s) = ctx.s() {
        let mut waits: Vec<(&str, f64)> = [
            event::CHECKPOINT_COMPLETED,
            event::RECOVERY_READ,
            event::DB_FILE_SEQUENTIAL_READ,
            event::PARALLEL_RECOVERY_READ_BUFFER_FREE,
            event::FREE_BUFFER_WAITS,
        ]
        .iter()
        .filter_map(|&e| s.background_s_per_s(e).map(|per_s| (e, per_s)))
        .filter(|w| w.1 > 0.0)
        .collect();
        waits.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (name, per_s) in waits.into_iter().take(3) {
            evidence.push(ev(
                &format!("standby background wait '{name}'"),
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
                transport_known.map_or("unknown".into(), fmt_lag),
                match (apply_rate, redo_rate) {
                    (Some(a), Some(r)) => format!("; apply {a:.1} MB/s vs redo {r:.1} MB/s (last {:.0} s)", th.apply_rate_window_s),
                    _ => String::new(),
                }
            ),
            evidence,
            meaning: "Redo reaches the standby in time, but recovery applies it slower than the primary generates it. MAA names checkpoints as the heaviest I/O of recovery; reads of data blocks are next. Seed 004 shows the redo read rate is bound by I/O, not by read-buffer parameters.",
            advice: &[
                "By the top standby wait: 'checkpoint completed' → more DB writers and larger logs (fewer checkpoints); 'recovery read' or 'db file sequential read' → faster datafile storage.",
                "Make sure the standby's storage and CPU match the primary's.",
                "'parallel recovery read buffer free' among the top waits: MAA's redo apply tuning raises _log_read_buffers (up to 256) for it; a hidden parameter, so with Oracle Support. 'log file sequential read' → the SRL/archived log storage.",
                "PR00 (the recovery coordinator) near a full CPU (~70 % or more): one instance cannot apply faster; consider Multi-Instance Redo Apply on a RAC standby.",
                "A standby buffer cache smaller than the primary's, and DB_LOST_WRITE_PROTECT (TYPICAL/FULL, and AUTO from 19.26 and 26ai) or DB_BLOCK_CHECKING on the standby add apply work: compare them with the primary's.",
            ],
            impact: weigh::apply(ctx, th, &[ApplyPart::SlowerThanArrival]),
        }
        .finish(ctx),
    )
}

pub(super) fn lag_stale(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let last = ctx.s_last()?;
    let dg = last.dg.as_ref()?;
    let age = match (dg.computed, dg.datum) {
        (Some(c), Some(d)) => Some(c.secs_since(d)),
        _ => None,
    };
    let redo_flowing = ctx.p().and_then(|d| d.redo_mb_s()).is_some_and(|r| r > 0.0);
    let frozen = redo_flowing
        && dg
            .datum
            .is_some_and(|datum| datum_unchanged_for(ctx, datum, th.stale_datum_s));
    let stale = age.is_some_and(|a| a >= th.stale_datum_s);
    if !(stale || frozen) {
        return None;
    }
    let age_s = age.unwrap_or(th.stale_datum_s);
    let cause = not_receiving_cause(ctx, th);
    let mut f = Draft {
            id: LAG_STALE,
            severity: Severity::Crit,
            title: format!(
                "The standby's lag figures are stale: last data from the primary {} before they were computed{}",
                fmt_lag(age_s),
                cause.as_ref().map(|c| format!(", {}", c.1)).unwrap_or_default()
            ),
            evidence: vec![ev(
                "time computed − datum time",
                age_s,
                "s",
                Some(format!("≥ {:.0} s, or datum not advancing", th.stale_datum_s)),
                "V$DATAGUARD_STATS",
            )],
            meaning: "V$DATAGUARD_STATS computes lag from data the primary sends periodically. When DATUM_TIME stops advancing the standby is not receiving, and the lag values no longer describe reality (Oracle: the difference should stay under 30 s).",
            advice: &[
                "Check the primary's destination status and error, the network path, and the RFS processes on the standby.",
                "Treat the displayed lag as unknown until DATUM_TIME moves again.",
            ],
            // Nothing has arrived for at least that long; the lag itself is not known.
            impact: Impact::of(Symptom::TransportLag, Some(age_s), None, None)
                .for_standby(ctx.standby_slot.as_ref().map(|s| s.to_string())),
        }
        .finish(ctx);
    f.caused_by = cause.map(|c| c.0);
    Some(f)
}

/// True when every standby sample of the last `secs` seconds carries the same datum time.
fn datum_unchanged_for(
    ctx: &Context,
    datum: dgscope_model::timestamp::Timestamp,
    secs: f64,
) -> bool {
    let Some(st) = ctx.standby else {
        return false;
    };
    // Current samples only: a stale standby says nothing about now.
    let Some(last) = st.current() else {
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

/// How serious one destination's trouble is, and why: an error is CRIT; `RESOLVABLE GAP`
/// WARN; `LOG SWITCH GAP` is routine under ASYNC (the standby is a log behind at each switch)
/// so INFO, WARN only when it outlasts two log switches or 10 min. The unresolvable gaps are
/// `apply-waiting-for-gap`'s (CRIT), not repeated here.
fn dest_trouble(ctx: &Context, th: &Thresholds, d: &Dest) -> Option<Severity> {
    if let Some(s) = forwarding_trouble(d) {
        return Some(s);
    }
    if !(d.has_gap() && gap_status(d) == "LOG SWITCH GAP") {
        return None;
    }
    let (lasted_s, switches) = log_switch_gap_age(ctx, d);
    if lasted_s >= th.log_switch_gap_max_s || switches >= th.log_switch_gap_switches {
        Some(Severity::Warn)
    } else {
        Some(Severity::Info)
    }
}

fn gap_status(d: &Dest) -> String {
    d.gap.as_deref().unwrap_or("").trim().to_ascii_uppercase()
}

/// How long (s) the primary's samples have shown `d`'s current gap status without a break,
/// and how many log switches happened meanwhile.
fn log_switch_gap_age(ctx: &Context, d: &Dest) -> (f64, u32) {
    let (Some(newest), Some(since)) =
        (ctx.primary_newest(f64::MAX / 4.0), ctx.primary_gap_since(d))
    else {
        return (0.0, 0);
    };
    let switches = newest
        .switches
        .as_ref()
        .map_or(0, |v| v.iter().filter(|s| s.time > since).count() as u32);
    (newest.t.secs_since(since), switches)
}

/// What a destination's own row says: an error is CRIT, a gap other than the routine LOG
/// SWITCH GAP of ASYNC transport WARN. This is all that is judged on the destinations a far
/// sync or cascading standby forwards redo on; the primary's own also have their LOG SWITCH
/// GAP aged on the primary's samples ([`dest_trouble`]), a history not kept for a sender.
fn forwarding_trouble(d: &Dest) -> Option<Severity> {
    if d.status == DestStatus::Error || d.error.as_deref().is_some_and(|e| !e.trim().is_empty()) {
        return Some(Severity::Crit);
    }
    let gap = gap_status(d);
    (d.has_gap() && gap != "LOG SWITCH GAP" && !gap.contains("UNRESOLVABLE"))
        .then_some(Severity::Warn)
}

pub(super) fn dest_error(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // The primary's own destinations (no sender named), then those a far sync or cascading
    // standby forwards on, named by their sender.
    let mut bad: Vec<(Option<&str>, &Dest, Severity)> = ctx
        .dests()
        .iter()
        .filter_map(|d| dest_trouble(ctx, th, d).map(|s| (None, d, s)))
        .collect();
    bad.extend(
        ctx.forwarding_dests()
            .into_iter()
            .filter_map(|(from, d)| forwarding_trouble(d).map(|s| (Some(from), d, s))),
    );
    let severity = bad.iter().map(|b| b.2).max()?;
    let (first_from, first) = bad.iter().find(|b| b.2 == severity).map(|b| (b.0, b.1))?;
    let mut evidence = Vec::new();
    for (from, d, _) in &bad {
        let of = from.map_or(String::new(), |f| format!("{f} "));
        evidence.push(ev(
            &format!("{of}LOG_ARCHIVE_DEST_{} status {}", d.id, d.status),
            f64::NAN,
            "",
            None,
            "V$ARCHIVE_DEST",
        ));
        if let Some(e) = d.error.as_deref().filter(|e| !e.trim().is_empty()) {
            evidence.push(ev(
                &format!("{of}dest {} error: {e}", d.id),
                f64::NAN,
                "",
                None,
                "V$ARCHIVE_DEST",
            ));
        }
        evidence.extend(reopen_evidence(ctx, d, &of));
        if let Some(g) = d.gap.as_deref().filter(|_| d.has_gap()) {
            let (lasted, switches) = if from.is_none() {
                log_switch_gap_age(ctx, d)
            } else {
                (f64::NAN, 0)
            };
            evidence.push(ev(
                &format!("{of}dest {} gap status: {g}", d.id),
                lasted,
                if lasted.is_nan() { "" } else { "s" },
                (from.is_none() && g.eq_ignore_ascii_case("LOG SWITCH GAP")).then(|| {
                    format!(
                        "WARN after {:.0} s or {} log switches ({switches} so far)",
                        th.log_switch_gap_max_s, th.log_switch_gap_switches
                    )
                }),
                "V$ARCHIVE_DEST_STATUS",
            ));
        }
    }
    // A destination error while the standby itself is down is a consequence, not the cause.
    let consequence = ctx.standby_failed_since().is_some();
    let impact = if consequence {
        Impact::of(Symptom::TransportLag, None, None, None)
            .for_standby(ctx.standby_slot.as_ref().map(|s| s.to_string()))
    } else {
        weigh::transport(ctx, th, Some(TransportPart::NotShipping))
    };
    let meaning = match (severity == Severity::Crit, first_from.is_some()) {
        (true, false) => "The primary reports an error on a remote destination: redo is not reaching the standby (or not all of it). Under Maximum Availability the primary keeps running but the standby falls behind; under Maximum Protection commits stop.",
        (false, false) => "The primary reports a gap on a remote destination: the standby misses some redo. Under ASYNC a LOG SWITCH GAP at each log switch is routine and closes by itself; a gap that lasts, or a RESOLVABLE GAP, means the standby is fetching logs it missed.",
        (true, true) => "A far sync or cascading standby reports an error on the destination it forwards redo on: it still receives redo, but the members behind it do not, so they fall behind while the primary's own transport looks healthy.",
        (false, true) => "A far sync or cascading standby reports a gap on the destination it forwards redo on: the member behind it misses some redo and is fetching the logs it missed.",
    };
    let failing = if severity == Severity::Crit {
        "Redo transport is failing"
    } else {
        "Redo transport has a gap"
    };
    let to = first.name.as_deref().unwrap_or("the standby");
    let mut f = Draft {
            id: DEST_ERROR,
            severity,
            title: format!(
                "{failing} {}: status {}{}",
                match first_from {
                    Some(from) => format!("from {from} to {to}"),
                    None => format!("to {to}"),
                },
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
            meaning,
            advice: &[
                "Read the destination's ERROR text; fix the network or standby problem it names.",
                "A failed destination is retried only every REOPEN seconds (REOPEN_SECS, 300 by default; broker property ReopenSecs) and given up after MAX_FAILURE retries when that is not 0: after the link returns, redo and, under Maximum Availability, zero data loss wait for the next retry. Lower REOPEN for a SYNC standby if minutes without protection are too long; ALTER SYSTEM SET log_archive_dest_state_N=ENABLE retries at once.",
                "Once the destination is VALID again, watch the gap resolve (V$ARCHIVE_GAP on the standby).",
            ],
            impact,
        }
        .finish(ctx);
    f.caused_by = fra_full(ctx, th).map(|_| STANDBY_FRA_FULL);
    if consequence {
        f.kind = FindingKind::Symptom;
        f.caused_by = f.caused_by.or(Some(STANDBY_DOWN));
    } else if f.caused_by.is_some() {
        f.kind = FindingKind::Symptom;
    }
    Some(f)
}

/// Why a failed destination stays down: its REOPEN retry and failure count
/// (`V$ARCHIVE_DEST.REOPEN_SECS`, `FAILURE_COUNT`, `MAX_FAILURE`, `FAIL_DATE`).
fn reopen_evidence(ctx: &Context, d: &Dest, of: &str) -> Vec<crate::causes::finding::Evidence> {
    if d.status != DestStatus::Error {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(r) = d.reopen_secs {
        let next = d
            .fail_date
            .map(|f| f.add_millis(r.min(86_400 * 365) as i64 * 1000));
        let next = next
            .map(|n| {
                let wait = n.secs_since(ctx.now);
                if wait > 0.0 {
                    format!(
                        " (next retry {}, in {})",
                        n.clock(),
                        dgscope_model::display::dur(wait)
                    )
                } else {
                    format!(" (a retry was due {})", n.clock())
                }
            })
            .unwrap_or_default();
        out.push(ev(
            &format!("{of}dest {} REOPEN{next}", d.id),
            r as f64,
            "s",
            None,
            "V$ARCHIVE_DEST",
        ));
    }
    if let Some(c) = d.failure_count {
        out.push(ev(
            &format!("{of}dest {} failures", d.id),
            f64::from(c),
            "",
            d.max_failure
                .filter(|m| *m > 0)
                .map(|m| format!("given up after {m} (MAX_FAILURE)")),
            "V$ARCHIVE_DEST",
        ));
    }
    out
}

pub(super) fn standby_down(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let since = ctx.standby_failed_since()?;
    let last = ctx.standby?.last()?;
    let err = last.error.as_ref()?;
    let down_s = ctx.now.secs_since(since).max(0.0);
    Some(
        Draft {
            id: STANDBY_DOWN,
            severity: Severity::Crit,
            title: format!(
                "The standby is unreachable: {} ({}) for {}",
                err.kind,
                err.message,
                fmt_lag(down_s)
            ),
            evidence: vec![ev(
                &format!("standby connection: {}", err.message),
                down_s,
                "s",
                None,
                "dgscope connection",
            )],
            meaning: "dgscope cannot sample the standby. If the standby instance or its host is down, redo accumulates on the primary and the gap must be shipped when it returns; under Maximum Protection the primary stops committing.",
            advice: &[
                "Bring the standby back (instance, listener, host, network).",
                "The primary's destination status shows what the primary sees; after the return watch the gap resolve and transport lag fall.",
            ],
            // Nothing has shipped for at least that long; the lag itself is not known.
            impact: Impact::of(Symptom::TransportLag, Some(down_s), None, None)
                .for_standby(ctx.standby_slot.as_ref().map(|s| s.to_string())),
        }
        .finish(ctx),
    )
}
