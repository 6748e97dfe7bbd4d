//! The state of every member, asked before any rate rule speaks (docs/FINDINGS.md, "State
//! before rates"): is apply running, stopped by an error or off by design; does the
//! destination ship, and if not why; and from those, why each lag is what it is. The rules
//! consult it first, and the configuration overview (DGMGRL `show configuration` in one
//! table) is built from it, so the screen, `check` and the exporter say the same thing.

use super::context::Context;
use super::decomposition::{ApplyCause, LagDecomposition, LagInputs, TransportCause};
use super::standby_facts::{apply_stopped_held, fra_full, transport_lag_slope};
use super::thresholds::Thresholds;
use crate::metrics::is_recovery_cancel;
use crate::metrics::{Engine, Window};
use dgscope_model::sample::{DestStatus, Role, Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use serde::Serialize;

/// Why redo apply is off on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApplyOff {
    /// A snapshot standby is open read-write and applies nothing until converted back.
    SnapshotStandby,
    /// The broker's intended state is APPLY-OFF.
    BrokerApplyOff,
    /// Managed recovery was cancelled by a user or the broker (ORA-16037), no error since.
    Cancelled,
}

impl ApplyOff {
    pub fn describe(self) -> &'static str {
        match self {
            ApplyOff::SnapshotStandby => {
                "snapshot standby: apply is off until it is converted back to a physical standby"
            }
            ApplyOff::BrokerApplyOff => "the broker's intended state is APPLY-OFF",
            ApplyOff::Cancelled => {
                "managed recovery was cancelled on purpose (ORA-16037), with no error since"
            }
        }
    }
}

/// Apply off by design, from the newest sample and the messages of the window.
pub(crate) fn apply_off(ctx: &Context) -> Option<ApplyOff> {
    let s = ctx.s_last()?;
    apply_off_in(s).or_else(|| {
        let procs = &s.processes;
        let no_mrp = !procs.is_empty() && ctx.mrp().is_none();
        // The newest message about managed recovery decides, however long ago: a cancel, or
        // an error after it.
        let last = ctx.standby?.last_recovery_message();
        (no_mrp && last.is_some_and(is_recovery_cancel)).then_some(ApplyOff::Cancelled)
    })
}

/// What one sample alone says: the role, or the broker's intended state.
pub(crate) fn apply_off_in(s: &Sample) -> Option<ApplyOff> {
    let db = s.db.as_ref()?;
    if db.role == Some(Role::SnapshotStandby) {
        return Some(ApplyOff::SnapshotStandby);
    }
    db.intended_state
        .as_deref()
        .filter(|i| i.trim().eq_ignore_ascii_case("APPLY-OFF"))
        .map(|_| ApplyOff::BrokerApplyOff)
}

/// What redo apply on a standby is doing now.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", content = "detail", rename_all = "kebab-case")]
pub enum ApplyState {
    /// MRP0 runs (applying, or idle and caught up).
    Running,
    /// MRP0 waits for an archive gap to be resolved.
    WaitingForGap,
    /// Apply is stopped and nobody meant it to be: why.
    Stopped(String),
    /// Apply is off by design.
    Off(ApplyOff),
    /// A far sync applies nothing: transport only.
    NotApplicable,
    /// Not known: the process list was not read, or the standby's figures are stale.
    Unknown,
}

impl ApplyState {
    pub fn label(&self) -> &'static str {
        match self {
            ApplyState::Running => "applying",
            ApplyState::WaitingForGap => "waiting for gap",
            ApplyState::Stopped(_) => "stopped",
            ApplyState::Off(_) => "off",
            ApplyState::NotApplicable => "n/a",
            ApplyState::Unknown => "unknown",
        }
    }
}

pub(crate) fn mrp_waits_for_gap(ctx: &Context) -> bool {
    ctx.mrp()
        .and_then(|p| p.action.as_deref())
        .is_some_and(|a| a.eq_ignore_ascii_case("WAIT_FOR_GAP"))
}

pub(crate) fn apply_state(ctx: &Context, th: &Thresholds) -> ApplyState {
    if ctx.standby_is_far_sync() {
        return ApplyState::NotApplicable;
    }
    if ctx.s_last().is_none() {
        return ApplyState::Unknown;
    }
    if let Some(off) = apply_off(ctx) {
        return ApplyState::Off(off);
    }
    if mrp_waits_for_gap(ctx) {
        return ApplyState::WaitingForGap;
    }
    // apply_off was ruled out above.
    if let Some(reason) = apply_stopped_held(ctx, th) {
        return ApplyState::Stopped(reason);
    }
    if ctx.mrp().is_some() {
        ApplyState::Running
    } else {
        ApplyState::Unknown
    }
}

/// Whether redo moves to a standby, as the primary's destination for it says.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", content = "detail", rename_all = "kebab-case")]
pub enum TransportState {
    /// `VALID`, no gap, no error.
    Shipping,
    /// `VALID` without error, but a gap status other than `NO GAP`.
    Gap(String),
    /// `ERROR`: the message, and when a retry is due (REOPEN_SECS after FAIL_DATE).
    Error {
        message: String,
        retry_at: Option<Timestamp>,
    },
    /// Not shipping on purpose or by configuration: `DEFERRED`, `DISABLED`, `BAD PARAM` …
    NotShipping(String),
    /// The standby itself does not answer.
    StandbyDown,
    /// No destination could be matched to this standby.
    Unknown,
}

impl TransportState {
    pub fn label(&self) -> &'static str {
        match self {
            TransportState::Shipping => "shipping",
            TransportState::Gap(_) => "gap",
            TransportState::Error { .. } => "error",
            TransportState::NotShipping(_) => "not shipping",
            TransportState::StandbyDown => "standby down",
            TransportState::Unknown => "unknown",
        }
    }

    pub fn ships(&self) -> bool {
        matches!(self, TransportState::Shipping)
    }
}

pub(crate) fn transport_state(ctx: &Context) -> TransportState {
    if ctx.standby_failed_since().is_some() {
        return TransportState::StandbyDown;
    }
    let Some(d) = ctx.standby_dest() else {
        return TransportState::Unknown;
    };
    let error = d.error.as_deref().map(str::trim).filter(|e| !e.is_empty());
    match d.status {
        DestStatus::Error => TransportState::Error {
            message: error.unwrap_or("ERROR").to_string(),
            retry_at: d
                .fail_date
                .zip(d.reopen_secs)
                .map(|(t, r)| t.add_millis(r.saturating_mul(1000).min(i64::MAX as u64) as i64)),
        },
        DestStatus::Valid if error.is_some() => TransportState::Error {
            message: error.unwrap_or_default().to_string(),
            retry_at: None,
        },
        DestStatus::Valid if d.has_gap() => {
            TransportState::Gap(d.gap.as_deref().unwrap_or_default().to_string())
        }
        DestStatus::Valid => TransportState::Shipping,
        ref other => TransportState::NotShipping(other.to_string()),
    }
}

/// Why a standby's transport lag is what it is (principle 2: a lag is explained before it
/// is blamed).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TransportWhy {
    /// Nothing ships: the state says why; the lag grows 1 s/s and is never bandwidth.
    NotShipping {
        because: String,
        finding: &'static str,
    },
    /// The destination is VALID but nothing arrives: the lag grows about 1 s/s.
    Stalled { sync: bool },
    /// Shipping, measurably, slower than the primary generates redo.
    TooSlow,
    /// Shrinking: the standby catches up.
    CatchingUp { eta_s: Option<f64> },
    /// None of the above could be shown.
    Undetermined,
}

/// Why a standby's apply lag (net of any DELAY) is what it is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ApplyWhy {
    Off(ApplyOff),
    Stopped(String),
    WaitingForGap,
    /// Apply keeps up with what arrives: the lag is transport's.
    FollowsTransport,
    /// Apply runs slower than redo arrives.
    TooSlow,
    CatchingUp {
        eta_s: Option<f64>,
    },
    Undetermined,
}

/// The apply lag's trend (s/s) over the trend window, net of nothing (a DELAY is constant).
fn apply_lag_slope(ctx: &Context, secs: f64) -> Option<f64> {
    let recent = ctx.standby_points(secs);
    let first = recent
        .iter()
        .find_map(|p| p.apply_lag_s.map(|v| (p.t, v)))?;
    let last = recent
        .iter()
        .rev()
        .find_map(|p| p.apply_lag_s.map(|v| (p.t, v)))?;
    let dt = last.0.secs_since(first.0);
    (dt >= secs * 0.9).then(|| (last.1 - first.1) / dt)
}

/// Seconds until a lag shrinking at `slope` s/s is gone (`None` unless it shrinks).
fn eta(lag: f64, slope: Option<f64>) -> Option<f64> {
    slope.filter(|s| *s < -0.05).map(|s| lag / -s)
}

/// The apply finish time Oracle estimates (`V$DATAGUARD_STATS`), when it reports one.
/// Not for a snapshot standby: it applies nothing until converted back, so the figure is no
/// time to recover.
pub(crate) fn apply_finish_s(ctx: &Context) -> Option<f64> {
    let s = ctx.s_last()?;
    if s.role() == Some(&Role::SnapshotStandby) {
        return None;
    }
    Some(s.dg.as_ref()?.apply_finish_s?.0)
}

pub(crate) fn explain_transport(ctx: &Context, th: &Thresholds) -> TransportWhy {
    let not = |because: String, finding| TransportWhy::NotShipping { because, finding };
    match transport_state(ctx) {
        TransportState::StandbyDown => {
            return not("the standby does not answer".into(), "standby-down")
        }
        TransportState::NotShipping(status) => {
            return not(
                format!("its destination is {status} on the primary"),
                "dest-deferred",
            )
        }
        TransportState::Error { message, .. } => {
            return not(
                format!("its destination is in error ({message})"),
                "dest-error",
            )
        }
        _ => {}
    }
    if fra_full(ctx, th).is_some() {
        return not(
            "the standby's recovery area is full".into(),
            "standby-fra-full",
        );
    }
    let slope = transport_lag_slope(ctx, th.transport_rise_window_s);
    if let Some(lag) = ctx.transport_lag() {
        if let Some(e) = eta(lag, slope).map(Some) {
            return TransportWhy::CatchingUp { eta_s: e };
        }
    }
    // Nothing arrives while the destination says VALID: a stall, not a slow link.
    if slope.is_some_and(|s| s >= 0.9) {
        let sync = ctx.standby_dest().is_some_and(|d| d.mode.is_sync());
        return TransportWhy::Stalled { sync };
    }
    let asyncish = ctx.standby_dest().is_none_or(|d| !d.mode.is_sync());
    if asyncish && slope.is_some_and(|s| s > -th.transport_drain_s_per_s) {
        return TransportWhy::TooSlow;
    }
    TransportWhy::Undetermined
}

pub(crate) fn explain_apply(ctx: &Context, th: &Thresholds) -> ApplyWhy {
    match apply_state(ctx, th) {
        ApplyState::Off(o) => return ApplyWhy::Off(o),
        ApplyState::Stopped(r) => return ApplyWhy::Stopped(r),
        ApplyState::WaitingForGap => return ApplyWhy::WaitingForGap,
        _ => {}
    }
    let Some(apply) = ctx.apply_lag() else {
        return ApplyWhy::Undetermined;
    };
    let net = (apply - ctx.delay_s()).max(0.0);
    let slope = apply_lag_slope(ctx, th.transport_rise_window_s);
    if eta(net, slope).is_some() {
        let e = apply_finish_s(ctx)
            .filter(|f| *f > 0.0)
            .or_else(|| eta(net, slope));
        return ApplyWhy::CatchingUp { eta_s: e };
    }
    match ctx.transport_lag() {
        Some(t) if net - t < th.apply_gap_s => ApplyWhy::FollowsTransport,
        _ if slope.is_some_and(|s| s > 0.0) => ApplyWhy::TooSlow,
        _ => ApplyWhy::Undetermined,
    }
}

impl ApplyWhy {
    /// The finding that explains it, when there is one to name.
    pub(crate) fn finding(&self) -> Option<&'static str> {
        match self {
            ApplyWhy::Off(_) => Some("apply-off"),
            ApplyWhy::Stopped(_) => Some("apply-stopped"),
            ApplyWhy::WaitingForGap => Some("apply-waiting-for-gap"),
            ApplyWhy::TooSlow => Some("apply-bound"),
            _ => None,
        }
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            ApplyWhy::Off(o) => format!("off by design: {}", o.describe()),
            ApplyWhy::Stopped(r) => format!("apply is stopped: {r}"),
            ApplyWhy::WaitingForGap => "apply waits for an archive gap".into(),
            ApplyWhy::FollowsTransport => {
                "apply keeps up with what arrives: the lag is transport's".into()
            }
            ApplyWhy::TooSlow => "apply runs slower than redo arrives".into(),
            ApplyWhy::CatchingUp { .. } => "catching up".into(),
            ApplyWhy::Undetermined => "cause not determined".into(),
        }
    }
}

impl TransportWhy {
    pub(crate) fn finding(&self) -> Option<&'static str> {
        match self {
            TransportWhy::NotShipping { finding, .. } => Some(finding),
            TransportWhy::Stalled { sync: true } => Some("sync-stall"),
            TransportWhy::TooSlow => Some("transport-bandwidth"),
            _ => None,
        }
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            TransportWhy::NotShipping { because, .. } => format!("nothing ships: {because}"),
            TransportWhy::Stalled { sync: true } => {
                "the SYNC destination is VALID but nothing arrives (stalled within NET_TIMEOUT)"
                    .into()
            }
            TransportWhy::Stalled { sync: false } => {
                "the destination is VALID but nothing arrives".into()
            }
            TransportWhy::TooSlow => "redo ships slower than the primary generates it".into(),
            TransportWhy::CatchingUp { .. } => "catching up".into(),
            TransportWhy::Undetermined => "cause not determined".into(),
        }
    }
}

/// The standby's lags split by its state (docs/FINDINGS.md, "Impact"), computed once per
/// context: the lag rules weigh their findings with it and the assessment carries it.
pub(crate) fn lags<'c>(ctx: &'c Context, th: &Thresholds) -> &'c LagDecomposition {
    ctx.lags.get_or_init(|| {
        if ctx.s_last().is_none() {
            // Stale is not now: a failed standby's lags are unknown.
            return LagDecomposition::default();
        }
        let transport = match explain_transport(ctx, th) {
            TransportWhy::NotShipping { finding, .. } => TransportCause::NotShipping {
                // Since when, where the state says: the destination's last failure.
                since_s: (finding == "dest-error")
                    .then(|| ctx.standby_dest().and_then(|d| d.fail_date))
                    .flatten()
                    .map(|t| ctx.now.secs_since(t)),
            },
            TransportWhy::Stalled { .. } => TransportCause::NotShipping { since_s: None },
            TransportWhy::TooSlow
            | TransportWhy::CatchingUp { .. }
            | TransportWhy::Undetermined => TransportCause::Shipping,
        };
        let apply = match explain_apply(ctx, th) {
            ApplyWhy::Off(_) => ApplyCause::OffByDesign,
            ApplyWhy::Stopped(_) => ApplyCause::Stopped,
            ApplyWhy::WaitingForGap => ApplyCause::WaitingForGap,
            ApplyWhy::FollowsTransport => ApplyCause::FollowsTransport,
            ApplyWhy::TooSlow => ApplyCause::SlowerThanArrival,
            ApplyWhy::CatchingUp { .. } => ApplyCause::CatchingUp,
            ApplyWhy::Undetermined => ApplyCause::Undetermined,
        };
        LagDecomposition::of(LagInputs {
            transport_lag_s: ctx.transport_lag(),
            apply_lag_s: ctx.apply_lag(),
            delay_s: ctx.delay_s(),
            transport,
            apply,
        })
    })
}

/// The configuration as DGMGRL `show configuration` gives it, one row per member.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Overview {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary: Option<PrimaryState>,
    pub standbys: Vec<MemberState>,
}

/// The primary's side: protection, the broker, fast-start failover, logging.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PrimaryState {
    pub name: Option<String>,
    /// The instant these figures describe (the newest good sample).
    pub as_of: Option<Timestamp>,
    /// The newest sample failed: the figures are the last good ones, not now.
    pub stale: bool,
    pub protection_mode: Option<String>,
    pub protection_level: Option<String>,
    pub switchover_status: Option<String>,
    pub broker: Option<String>,
    pub force_logging: Option<String>,
    pub flashback_on: Option<String>,
    pub fsfo: Option<Fsfo>,
}

/// Fast-start failover as `V$DATABASE` reports it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Fsfo {
    pub status: String,
    pub target: Option<String>,
    pub threshold_s: Option<u64>,
    pub observer_present: Option<bool>,
    pub observer_host: Option<String>,
    pub lag_limit_s: Option<u64>,
}

impl Fsfo {
    pub fn enabled(&self) -> bool {
        !self.status.trim().eq_ignore_ascii_case("DISABLED") && !self.status.trim().is_empty()
    }

    /// SYNCHRONIZED or TARGET UNDER LAG LIMIT: a failover now would lose at most the limit.
    pub fn ready(&self) -> bool {
        let s = self.status.trim().to_ascii_uppercase();
        s == "SYNCHRONIZED" || s == "TARGET UNDER LAG LIMIT"
    }
}

/// One standby (or far sync) of the configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemberState {
    pub slot: String,
    pub name: Option<String>,
    pub role: Option<String>,
    pub open_mode: Option<String>,
    /// The instant these figures describe.
    pub as_of: Option<Timestamp>,
    /// Its newest sample failed: what follows is its last good word, not now.
    pub stale: bool,
    /// `SYNC`, `ASYNC` or `FASTSYNC` as the primary ships to it, with the dest id.
    pub dest_id: Option<u32>,
    pub transport_mode: Option<String>,
    pub transport: TransportState,
    pub apply: ApplyState,
    pub transport_lag_s: Option<f64>,
    pub apply_lag_s: Option<f64>,
    pub apply_finish_s: Option<f64>,
    pub delay_s: Option<f64>,
    pub switchover_status: Option<String>,
    pub intended_state: Option<String>,
}

fn s(v: Option<&impl ToString>) -> Option<String> {
    v.map(ToString::to_string)
}

fn primary_state(engine: &Engine) -> Option<PrimaryState> {
    let st = engine.primary_slot().and_then(|s| engine.slot(s))?;
    let last = st.last_good();
    let db = last.and_then(|s| s.db.as_ref());
    let fsfo = db.and_then(|d| {
        Some(Fsfo {
            status: d.fs_failover_status.as_ref()?.to_string(),
            target: s(d.fs_failover_target.as_ref()),
            threshold_s: d.fs_failover_threshold_s,
            observer_present: d.fs_failover_observer_present,
            observer_host: s(d.fs_failover_observer_host.as_ref()),
            lag_limit_s: d.fs_failover_lag_limit_s,
        })
    });
    Some(PrimaryState {
        name: db.and_then(|d| s(d.name.as_ref())),
        as_of: last.map(|s| s.t),
        stale: st.current().is_none(),
        protection_mode: db.and_then(|d| s(d.protection_mode.as_ref())),
        protection_level: db.and_then(|d| s(d.protection_level.as_ref())),
        switchover_status: db.and_then(|d| s(d.switchover_status.as_ref())),
        broker: db.and_then(|d| s(d.dataguard_broker.as_ref())),
        force_logging: db.and_then(|d| s(d.force_logging.as_ref())),
        flashback_on: db.and_then(|d| s(d.flashback_on.as_ref())),
        fsfo,
    })
}

fn member_state(
    engine: &Engine,
    window: Window,
    slot: &Slot,
    th: &Thresholds,
) -> (MemberState, LagDecomposition) {
    let ctx = Context::new(engine, window, Some(slot));
    let last = ctx.standby.and_then(|st| st.last_good());
    let db = last.and_then(|s| s.db.as_ref());
    let stale = ctx.s_last().is_none();
    let dest = ctx.standby_dest();
    // Stale is never shown as now: the lags and states of a failed standby are unknown.
    let dg = ctx.s_last().and_then(|s| s.dg.as_ref());
    // A snapshot standby applies nothing until it is converted back: Oracle's apply finish
    // time is then no recovery time objective, and is not shown as one.
    let snapshot = db.and_then(|d| d.role.as_ref()) == Some(&Role::SnapshotStandby);
    let state = MemberState {
        slot: slot.to_string(),
        name: db.and_then(|d| s(d.name.as_ref())),
        role: db.and_then(|d| s(d.role.as_ref())),
        open_mode: db.and_then(|d| s(d.open_mode.as_ref())),
        as_of: last.map(|s| s.t),
        stale,
        dest_id: dest.map(|d| d.id),
        transport_mode: dest.map(|d| {
            if d.mode.is_sync() && !d.affirm {
                "FASTSYNC".to_string()
            } else {
                d.mode.to_string()
            }
        }),
        transport: transport_state(&ctx),
        apply: apply_state(&ctx, th),
        transport_lag_s: dg.and_then(|d| d.transport_lag_s).map(|v| v.0),
        apply_lag_s: dg.and_then(|d| d.apply_lag_s).map(|v| v.0),
        apply_finish_s: dg
            .and_then(|d| d.apply_finish_s)
            .map(|v| v.0)
            .filter(|_| !snapshot),
        delay_s: (!stale && dest.is_some()).then(|| ctx.delay_s()),
        switchover_status: db
            .filter(|_| !stale)
            .and_then(|d| s(d.switchover_status.as_ref())),
        intended_state: db
            .filter(|_| !stale)
            .and_then(|d| s(d.intended_state.as_ref())),
    };
    let lag = lags(&ctx, th).clone();
    (state, lag)
}

/// Every member's state at the engine's newest instant, and each standby's lags split by
/// that state.
pub(crate) fn overview(
    engine: &Engine,
    window: Window,
    th: &Thresholds,
) -> (
    Overview,
    std::collections::BTreeMap<String, LagDecomposition>,
) {
    let mut lags = std::collections::BTreeMap::new();
    let standbys = engine
        .standby_slots()
        .into_iter()
        .map(|slot| {
            let (m, l) = member_state(engine, window, slot, th);
            lags.insert(slot.to_string(), l);
            m
        })
        .collect();
    (
        Overview {
            primary: primary_state(engine),
            standbys,
        },
        lags,
    )
}
