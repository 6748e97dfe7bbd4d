//! Facts about the standby that both the configuration's state (`state`) and the rules read:
//! apply stopped and held so, a full recovery area, the transport lag's slope. Below both,
//! so the state reads no rule and the rules read the state.

use crate::causes::context::{held_for, Context};
use crate::causes::severity::Severity;
use crate::causes::text::{contains_ignore_case, starts_with_ignore_case};
use crate::causes::thresholds::Thresholds;
use crate::metrics::Window;
use dgscope_model::sample::{Dest, DgMessage, Sample};

/// What the state rules check over raw samples: `state_hold_s` less the engine's own hold.
pub(crate) fn state_hold_s(th: &Thresholds) -> f64 {
    (th.state_hold_s - th.raise_after_s).max(0.0)
}

/// ORA-19809: limit exceeded for recovery files; ORA-19815: the recovery area is nearly full.
const ORA_FRA_LIMIT: i64 = 19809;
const ORA_FRA_WARNING: i64 = 19815;

/// How far back "in the window" reaches for messages and histogram deltas.
pub(crate) fn window_secs(ctx: &Context) -> f64 {
    match ctx.window {
        Window::Last(d) => d.as_secs_f64(),
        // The raw history bounds the longer windows anyway.
        _ => 3600.0,
    }
}

/// The standby's recovery area, as far as it is judged full.
pub(crate) struct FraFull {
    pub used_pct: Option<f64>,
    pub message: Option<DgMessage>,
    pub severity: Severity,
}

pub(crate) fn is_fra_message(m: &DgMessage) -> Option<Severity> {
    let code = m.error_code.unwrap_or(0);
    let text = |needle: &str| contains_ignore_case(&m.message, needle);
    if code == ORA_FRA_LIMIT || text("ora-19809") {
        Some(Severity::Crit)
    } else if code == ORA_FRA_WARNING
        || text("ora-19815")
        || text("no standby redo logfiles available")
    {
        Some(Severity::Warn)
    } else {
        None
    }
}

pub(crate) fn fra_full(ctx: &Context, th: &Thresholds) -> Option<FraFull> {
    let s = ctx.s_last()?;
    let used_pct = s.fra.as_ref().and_then(|f| f.used_net_pct());
    let by_pct = used_pct.and_then(|p| {
        if p >= th.fra_crit_pct {
            Some(Severity::Crit)
        } else if p >= th.fra_warn_pct {
            Some(Severity::Warn)
        } else {
            None
        }
    });
    let msg = ctx
        .standby_fra_message
        .get_or_init(|| {
            // The newest in time, the last read of equals: as the window's messages in time
            // order read backwards, without gathering and sorting them.
            let mut newest: Option<(&DgMessage, Severity)> = None;
            let window = ctx.standby_with_messages(window_secs(ctx));
            for m in window
                .iter()
                .filter_map(|s| s.dg_messages.as_ref())
                .flatten()
            {
                if newest.is_none_or(|(n, _)| m.time >= n.time) {
                    if let Some(sev) = is_fra_message(m) {
                        newest = Some((m, sev));
                    }
                }
            }
            newest.map(|(m, sev)| (m.clone(), sev))
        })
        .clone();
    let severity = by_pct.max(msg.as_ref().map(|m| m.1))?;
    Some(FraFull {
        used_pct,
        message: msg.map(|m| m.0),
        severity,
    })
}

/// Why apply is stopped, in the words of the evidence, when it is (one sample's view).
pub(crate) fn stopped_reason(s: &Sample, dest: Option<&Dest>) -> Option<String> {
    let procs = &s.processes;
    let mrp = procs
        .iter()
        .find(|p| starts_with_ignore_case(&p.name, "MRP") || p.name.eq_ignore_ascii_case("MR(FG)"));
    // An empty process list may be a view not read: "no MRP0" only when other processes show
    // the view was read.
    match mrp {
        None if !procs.is_empty() => return Some("no MRP0 is running".into()),
        Some(p)
            if p.action
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case("ERROR")) =>
        {
            return Some("MRP0 is in ERROR".into())
        }
        _ => {}
    }
    dest.and_then(|d| d.recovery_mode.as_deref())
        .filter(|m| m.trim().eq_ignore_ascii_case("IDLE"))
        .map(|_| "the primary reports recovery mode IDLE for this standby".into())
}

/// Redo reaches the standby: an RFS process receiving, or a transport lag Oracle can compute.
pub(crate) fn redo_arriving(s: &Sample) -> bool {
    let rfs = s.processes.iter().any(|p| {
        starts_with_ignore_case(&p.name, "RFS")
            && p.action
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case("RECEIVING"))
    });
    rfs || s.dg.as_ref().is_some_and(|d| d.transport_lag_s.is_some())
}

/// Apply is stopped now and has been for the hold time.
/// The caller has ruled out apply off by design (`state::apply_off`): that is not stopped.
pub(crate) fn apply_stopped_held(ctx: &Context, th: &Thresholds) -> Option<String> {
    let dest = ctx.standby_dest();
    // The newest sample first: the hold's samples are gathered only when it says stopped.
    let reason = stopped_reason(ctx.standby_newest(state_hold_s(th))?, dest)?;
    let recent = ctx.standby_recent(state_hold_s(th));
    let lasted = held_for(&recent, state_hold_s(th), |s| {
        redo_arriving(s) && stopped_reason(s, dest).is_some()
    });
    lasted.then_some(reason)
}

pub(crate) fn slope(
    ctx: &Context,
    secs: f64,
    f: impl Fn(&crate::metrics::Point) -> Option<f64>,
) -> Option<f64> {
    let recent = ctx.standby_points(secs);
    let first = recent.iter().find_map(|p| f(p).map(|v| (p.t, v)))?;
    let last = recent.iter().rev().find_map(|p| f(p).map(|v| (p.t, v)))?;
    let dt = last.0.secs_since(first.0);
    // Only a trend over most of the span counts ("for 30 s").
    (dt >= secs * 0.9).then(|| (last.1 - first.1) / dt)
}

/// Transport lag gained per second over the last `secs` seconds.
pub(crate) fn transport_lag_slope(ctx: &Context, secs: f64) -> Option<f64> {
    slope(ctx, secs, |p| p.transport_lag_s)
}
