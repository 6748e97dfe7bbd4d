//! The standby's own state (catalog part 2): apply stopped, waiting for a gap, a full
//! recovery area, lag Oracle cannot compute, a destination that does not ship, protection
//! below its mode, SYNC stalls, Data Guard errors, a deliberate apply delay. Part 1 explains
//! *slow*; these explain *stopped*, *not shipping* and *not protected*, and are usually the
//! root cause of the lag part 1 measures, so the findings they cause name them.

// Durations in titles in the screen's one format ("42 s", "5m22s").
use super::spec::{Hold, Kind, Reads, RuleSpec, Scope, Tier, BASE};
use super::{ev, weigh, Draft};
use crate::causes::context::{held_for, Context};
use crate::causes::decomposition::{ApplyPart, CommitPart, TransportPart};
use crate::causes::finding::{Finding, Severity};
use crate::causes::impact::FindingKind;
use crate::causes::standby_facts::{apply_stopped_held, fra_full, state_hold_s, window_secs};
use crate::causes::text::starts_with_ignore_case;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::display::dur as fmt_lag;
use dgscope_model::sample::{Dest, DgMessage, Sample};
use std::sync::Arc;

pub(super) const APPLY_STOPPED: &str = "apply-stopped";
pub(super) const APPLY_WAITING_FOR_GAP: &str = "apply-waiting-for-gap";
pub(crate) const STANDBY_FRA_FULL: &str = "standby-fra-full";
pub(super) const TRANSPORT_LAG_UNKNOWN: &str = "transport-lag-unknown";
pub(super) const DEST_DEFERRED: &str = "dest-deferred";
pub(super) const PROTECTION_DEGRADED: &str = "protection-degraded";
pub(super) const SYNC_STALL: &str = "sync-stall";
pub(super) const DG_ERROR: &str = "dg-error";
pub(super) const APPLY_DELAYED: &str = "apply-delayed";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: APPLY_STOPPED,
        eval: apply_stopped,
        severity: "CRIT",
        kind: Kind::State,
        scope: Scope::EachStandby,
        apply: true,
        standby_judged: true,
        tier: Tier::Root,
        hold: Hold::State,
        reads: &[Reads::Window, Reads::StandbyRaw(state_hold_s)],
        verify: &[
            V::ApplyProcesses,
            V::DestConfig,
            V::DgMessages,
            V::StandbyParams,
            V::DgLags,
        ],
        ..BASE
    },
    RuleSpec {
        id: APPLY_WAITING_FOR_GAP,
        eval: apply_waiting_for_gap,
        severity: "CRIT",
        kind: Kind::State,
        scope: Scope::EachStandby,
        apply: true,
        tier: Tier::Root,
        reads: &[Reads::Latest, Reads::StandbyRaw(state_hold_s)],
        verify: &[
            V::ArchiveGap,
            V::ApplyProcesses,
            V::DestConfig,
            V::RecoveryArea,
            V::DgMessages,
        ],
        ..BASE
    },
    RuleSpec {
        id: STANDBY_FRA_FULL,
        eval: standby_fra_full,
        severity: "WARN at 85 %, CRIT at 97 %",
        kind: Kind::State,
        scope: Scope::EachStandby,
        standby_judged: true,
        tier: Tier::Root,
        reads: &[Reads::Window, Reads::Latest],
        verify: &[
            V::RecoveryArea,
            V::DgMessages,
            V::StandbyParams,
            V::ArchiveGap,
        ],
        ..BASE
    },
    RuleSpec {
        id: TRANSPORT_LAG_UNKNOWN,
        eval: transport_lag_unknown,
        severity: "CRIT",
        kind: Kind::State,
        scope: Scope::EachStandby,
        standby_judged: true,
        tier: Tier::Root,
        hold: Hold::State,
        reads: &[Reads::StandbyRaw(state_hold_s)],
        verify: &[
            V::DgLags,
            V::DestConfig,
            V::ApplyProcesses,
            V::ArchiveGap,
            V::RecoveryArea,
        ],
        ..BASE
    },
    RuleSpec {
        id: DEST_DEFERRED,
        eval: dest_deferred,
        severity: "CRIT",
        kind: Kind::State,
        tier: Tier::Root,
        reads: &[Reads::Latest],
        verify: &[V::DestConfig, V::DestParams, V::DgLags],
        ..BASE
    },
    RuleSpec {
        id: PROTECTION_DEGRADED,
        eval: protection_degraded,
        severity: "CRIT",
        kind: Kind::State,
        tier: Tier::Root,
        hold: Hold::State,
        reads: &[Reads::PrimaryRaw(state_hold_s)],
        verify: &[V::ProtectionMode, V::DestConfig, V::DgMessages],
        ..BASE
    },
    RuleSpec {
        id: SYNC_STALL,
        eval: sync_stall,
        severity: "WARN (CRIT at half of NET_TIMEOUT)",
        kind: Kind::State,
        verify: &[
            V::DestResponse,
            V::DestConfig,
            V::RfsLatency,
            V::IoByFiletype,
        ],
        ..BASE
    },
    RuleSpec {
        id: DG_ERROR,
        eval: dg_error,
        severity: "WARN",
        kind: Kind::State,
        verify: &[V::DgMessages],
        ..BASE
    },
    RuleSpec {
        id: APPLY_DELAYED,
        eval: apply_delayed,
        severity: "INFO",
        finding: FindingKind::Info,
        kind: Kind::State,
        scope: Scope::EachStandby,
        apply: true,
        reads: &[Reads::Latest],
        verify: &[V::DestConfig, V::ApplyProcesses, V::DgLags],
        ..BASE
    },
];

const DG_STATUS: &str = "V$DATAGUARD_STATUS";
fn redo_flowing(ctx: &Context) -> bool {
    ctx.p().and_then(|d| d.redo_mb_s()).is_some_and(|r| r > 0.0)
}

fn text(metric: String, source: &str) -> crate::causes::finding::Evidence {
    ev(&metric, f64::NAN, "", None, source)
}

fn message_text(m: &DgMessage) -> String {
    // Oracle's text often starts with the code itself: say it once ("ORA-16037: …").
    let code = m
        .error_code
        .filter(|&c| c != 0)
        .map(|c| format!("ORA-{:05}: ", c.abs()))
        .filter(|prefix| !m.message.trim_start().starts_with(prefix.trim_end()));
    format!(
        "{}{}{}",
        m.facility
            .as_deref()
            .map(|f| format!("{f}: "))
            .unwrap_or_default(),
        code.unwrap_or_default(),
        m.message.trim()
    )
}

/// Data Guard status messages of the window: the primary's, and the standby's while its
/// samples are current; oldest first, each once.
fn messages<'a>(ctx: &'a Context, include_primary: bool) -> Vec<&'a DgMessage> {
    let secs = window_secs(ctx);
    // Only samples that carry messages can add one: the others are not walked.
    let mut samples: Vec<&Arc<Sample>> = ctx.standby_with_messages(secs);
    if include_primary {
        samples.extend(ctx.primary_with_messages(secs));
    }
    let mut out: Vec<&DgMessage> = samples
        .iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .collect();
    out.sort_by_key(|m| m.time);
    out.dedup();
    out
}

/// An archive gap the standby cannot close by itself: MRP0 `WAIT_FOR_GAP`, rows in
/// `V$ARCHIVE_GAP`, or the primary's destination reporting an unresolvable gap.
///
/// A `V$ARCHIVE_GAP` row alone is evidence, not the finding: the view lists a log briefly
/// while it is being registered, and MRP0 may be applying that very sequence. It counts
/// only when it has lasted the state hold with MRP0 not applying a sequence inside it.
fn unresolvable_gap(ctx: &Context, th: &Thresholds) -> bool {
    let mrp_waits = crate::causes::state::mrp_waits_for_gap(ctx);
    mrp_waits || ctx.dests().iter().any(dest_gap_unresolvable) || gap_rows_held(ctx, th)
}

/// `V$ARCHIVE_GAP` rows in every sample of the state hold, none of them being applied.
fn gap_rows_held(ctx: &Context, th: &Thresholds) -> bool {
    let hold = state_hold_s(th);
    let stuck = |s: &Sample| {
        let Some(gaps) = s.gaps.as_ref().filter(|g| !g.is_empty()) else {
            return false;
        };
        let applying = s.processes.iter().find(|p| {
            (starts_with_ignore_case(&p.name, "MRP") || p.name.eq_ignore_ascii_case("MR(FG)"))
                && p.action
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case("APPLYING_LOG"))
        });
        !gaps.iter().any(|g| {
            applying.is_some_and(|p| {
                p.thread.is_none_or(|t| t == g.thread)
                    && p.sequence.is_some_and(|q| (g.low..=g.high).contains(&q))
            })
        })
    };
    held_for(&ctx.standby_recent(hold), hold, stuck)
}

fn dest_gap_unresolvable(d: &Dest) -> bool {
    d.gap
        .as_deref()
        .is_some_and(|g| g.to_ascii_uppercase().contains("UNRESOLVABLE"))
}

/// What stops the standby receiving, for the findings it causes to name: the root's id and
/// the words "because …".
pub(crate) fn not_receiving_cause(
    ctx: &Context,
    th: &Thresholds,
) -> Option<(&'static str, String)> {
    if fra_full(ctx, th).is_some() {
        return Some((
            STANDBY_FRA_FULL,
            "because the standby's recovery area is full".into(),
        ));
    }
    if let Some(d) = ctx.not_shipping().first() {
        return Some((
            DEST_DEFERRED,
            format!(
                "because LOG_ARCHIVE_DEST_{} is {} on the primary",
                d.id, d.status
            ),
        ));
    }
    if unresolvable_gap(ctx, th) {
        return Some((APPLY_WAITING_FOR_GAP, "because of an archive gap".into()));
    }
    None
}

/// Apply is stopped now and has been for the hold time.
pub(crate) fn apply_stopped_now(ctx: &Context, th: &Thresholds) -> Option<String> {
    // Off by design (a snapshot standby, broker APPLY-OFF, a deliberate cancel) is not
    // stopped: `apply-off` says so, and `lag-high` speaks once the lag passes its threshold.
    if crate::causes::state::apply_off(ctx).is_some() {
        return None;
    }
    apply_stopped_held(ctx, th)
}

pub(super) fn apply_stopped(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let reason = apply_stopped_now(ctx, th)?;
    let s = ctx.s_last()?;
    let mut evidence = vec![text(format!("redo apply: {reason}"), "V$DATAGUARD_PROCESS")];
    evidence.extend(mrp_evidence(ctx));
    if let Some(m) = ctx.standby_dest().and_then(|d| d.recovery_mode.as_deref()) {
        evidence.push(text(format!("recovery mode {m}"), "V$ARCHIVE_DEST_STATUS"));
    }
    let apply = ctx.apply_lag();
    if let Some(a) = apply {
        evidence.push(ev("apply lag", a, "s", None, "V$DATAGUARD_STATS"));
    }
    if let Some(v) = s
        .params
        .as_ref()
        .and_then(|p| p.get("standby_file_management"))
    {
        evidence.push(text(
            format!("standby_file_management = {v}"),
            "V$PARAMETER",
        ));
    }
    if let Some(m) = messages(ctx, false)
        .into_iter()
        .rev()
        .find(|m| m.is_error())
    {
        evidence.push(text(
            format!("last Data Guard error: {}", message_text(m)),
            DG_STATUS,
        ));
    }
    Some(
        Draft {
            id: APPLY_STOPPED,
            severity: Severity::Crit,
            title: format!(
                "Redo apply is stopped on the standby: {reason}{}",
                apply.map(|a| format!("; apply lag {}", fmt_lag(a))).unwrap_or_default()
            ),
            evidence,
            meaning: "Redo still reaches the standby, but nothing applies it: the apply lag grows by one second every second and a failover would first have to apply all of it. The usual causes are a stopped or crashed MRP0 (after an error such as a datafile added on the primary with standby_file_management=MANUAL) or apply switched off in the broker.",
            advice: &[
                "Read the last Data Guard error (V$DATAGUARD_STATUS, the standby's alert log) and fix it first.",
                "A datafile added on the primary that the standby could not create (ORA-01274, a file named UNNAMEDnnnnn in V$DATAFILE; it happens under MANUAL and also under AUTO, e.g. with a full or missing path): keep or set standby_file_management=MANUAL, since CREATE DATAFILE is refused under AUTO (ORA-01275); ALTER DATABASE CREATE DATAFILE '<…UNNAMEDnnnnn>' AS NEW (or AS '<path>'); then set it back to AUTO. On 12c+ RMAN RESTORE DATAFILE n FROM SERVICE <primary> is an alternative.",
                "Then restart apply: ALTER DATABASE RECOVER MANAGED STANDBY DATABASE DISCONNECT (broker: EDIT DATABASE … SET STATE='APPLY-ON').",
                "A restarted apply catches up at the apply rate: watch the apply lag fall.",
            ],
            impact: weigh::apply(ctx, th, &[ApplyPart::Stopped]),
        }
        .finish(ctx),
    )
}

pub(super) fn apply_waiting_for_gap(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    if !unresolvable_gap(ctx, th) {
        return None;
    }
    let mut evidence = Vec::new();
    let mut missing = 0;
    if let Some(gaps) = ctx.s_last().and_then(|s| s.gaps.as_ref()) {
        for g in gaps {
            missing += g.missing();
            evidence.push(ev(
                &format!(
                    "archive gap thread {}: sequences {}..{}",
                    g.thread, g.low, g.high
                ),
                g.missing() as f64,
                "logs",
                None,
                "V$ARCHIVE_GAP",
            ));
        }
    }
    evidence.extend(mrp_evidence(ctx));
    for d in ctx.dests().iter().filter(|d| d.has_gap()) {
        evidence.push(text(
            format!(
                "LOG_ARCHIVE_DEST_{} gap status {}",
                d.id,
                d.gap.as_deref().unwrap_or("")
            ),
            "V$ARCHIVE_DEST_STATUS",
        ));
    }
    if let Some(fal) = ctx
        .s_last()
        .and_then(|s| s.params.as_ref())
        .and_then(|p| p.get("fal_server"))
    {
        evidence.push(text(format!("fal_server = {fal}"), "V$PARAMETER"));
    }
    let apply = ctx.apply_lag();
    if let Some(a) = apply {
        evidence.push(ev("apply lag", a, "s", None, "V$DATAGUARD_STATS"));
    }
    let cause = fra_full(ctx, th)
        .map(|_| {
            (
                STANDBY_FRA_FULL,
                "because the standby's recovery area is full".to_string(),
            )
        })
        .or_else(|| {
            ctx.not_shipping().first().map(|d| {
                (
                    DEST_DEFERRED,
                    format!("because LOG_ARCHIVE_DEST_{} is {}", d.id, d.status),
                )
            })
        });
    let mut f = Draft {
        id: APPLY_WAITING_FOR_GAP,
        severity: Severity::Crit,
        title: format!(
            "Redo apply waits for missing archived logs{}{}",
            if missing > 0 {
                format!(" ({missing} missing)")
            } else {
                String::new()
            },
            cause
                .as_ref()
                .map(|c| format!(", {}", c.1))
                .unwrap_or_default()
        ),
        evidence,
        meaning: "The standby lacks archived logs between what it has applied and what it has received, and apply cannot go past the hole: every second adds to the apply lag until the logs are fetched (FAL) or restored. Often the standby could not archive what it received (a full recovery area) or the primary stopped shipping for a while.",
        advice: &[
            "Check that the primary still has the missing sequences (archived and not deleted) and can ship them: FAL_SERVER on the standby names it, the network must allow it.",
            "If the standby could not archive (recovery area full), free space there first; the gap then resolves by itself.",
            "If the logs are gone from the primary, restore them from backup and register them on the standby, or roll the standby forward from the primary (RECOVER STANDBY DATABASE FROM SERVICE, 18c+).",
        ],
        impact: weigh::apply(ctx, th, &[ApplyPart::WaitingForGap]),
    }
    .finish(ctx);
    f.caused_by = cause.map(|c| c.0);
    Some(f)
}

pub(super) fn standby_fra_full(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let full = fra_full(ctx, th)?;
    let fra = ctx.s_last().and_then(|s| s.fra);
    let mut evidence = Vec::new();
    if let (Some(p), Some(f)) = (full.used_pct, fra) {
        evidence.push(ev(
            "recovery area used, net of reclaimable",
            p,
            "%",
            Some(format!(
                "WARN ≥ {:.0} %, CRIT ≥ {:.0} %",
                th.fra_warn_pct, th.fra_crit_pct
            )),
            "V$RECOVERY_FILE_DEST",
        ));
        let gb = |b: u64| b as f64 / 1_073_741_824.0;
        evidence.push(ev(
            "recovery area limit",
            gb(f.limit_bytes),
            "GB",
            None,
            "V$RECOVERY_FILE_DEST",
        ));
        evidence.push(ev(
            "used",
            gb(f.used_bytes),
            "GB",
            None,
            "V$RECOVERY_FILE_DEST",
        ));
        evidence.push(ev(
            "reclaimable",
            gb(f.reclaimable_bytes),
            "GB",
            None,
            "V$RECOVERY_FILE_DEST",
        ));
    }
    if let Some(m) = &full.message {
        evidence.push(text(message_text(m), DG_STATUS));
    }
    Some(
        Draft {
            id: STANDBY_FRA_FULL,
            severity: full.severity,
            title: format!(
                "The standby's recovery area is full{}{}",
                full.used_pct
                    .map(|p| format!(": {p:.0} % used net of reclaimable"))
                    .unwrap_or_default(),
                full.message
                    .as_ref()
                    .map(|m| format!("; {}", message_text(m)))
                    .unwrap_or_default()
            ),
            evidence,
            meaning: "When the recovery area cannot take another archived log, RFS cannot archive the standby redo logs it filled, no SRL becomes free for new redo, receipt stops and an archive gap forms: transport lag becomes unknown and apply waits for the gap. It is the root of that chain, so fix it first.",
            advice: &[
                "Reclaimable near 0 points at the deletion policy first: on the standby, RMAN CONFIGURE ARCHIVELOG DELETION POLICY TO APPLIED ON ALL STANDBY (or SHIPPED TO / BACKED UP … as your backups need) makes applied logs reclaimable, and the recovery area then deletes them by itself.",
                "To free space now, delete only logs already applied (and backed up, if the standby is backed up): with that policy RMAN DELETE ARCHIVELOG ALL skips what is not yet applied. Never delete by age alone (COMPLETED BEFORE …): on a standby more than that far behind it deletes logs apply still needs, and the gap then needs a restore.",
                "Or grow the area: ALTER SYSTEM SET db_recovery_file_dest_size = … (the disk must have the room); then watch the gap resolve by itself.",
            ],
            // Receipt stops first: the time nothing has shipped (the lag is often NULL then).
            impact: weigh::transport(ctx, th, Some(TransportPart::NotShipping)),
        }
        .finish(ctx),
    )
}

pub(super) fn transport_lag_unknown(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let recent = ctx.standby_recent(state_hold_s(th));
    let null = |s: &Sample| s.dg.as_ref().is_some_and(|d| d.transport_lag_s.is_none());
    if !(redo_flowing(ctx) && held_for(&recent, state_hold_s(th), null)) {
        return None;
    }
    let cause = not_receiving_cause(ctx, th);
    let mut evidence = vec![text(
        "transport lag: NULL (Oracle cannot compute it)".into(),
        "V$DATAGUARD_STATS",
    )];
    let apply = ctx.apply_lag();
    if let Some(a) = apply {
        evidence.push(ev("apply lag", a, "s", None, "V$DATAGUARD_STATS"));
    }
    let rfs: Vec<String> = ctx
        .processes()
        .iter()
        .filter(|p| starts_with_ignore_case(&p.name, "RFS"))
        .map(|p| format!("{} {}", p.name, p.action.as_deref().unwrap_or("–")))
        .collect();
    evidence.push(text(
        if rfs.is_empty() {
            "no RFS process".into()
        } else {
            format!("RFS: {}", rfs.join(", "))
        },
        "V$DATAGUARD_PROCESS",
    ));
    if let Some(d) = ctx.standby_dest() {
        evidence.push(text(
            format!("LOG_ARCHIVE_DEST_{} status {}", d.id, d.status),
            "V$ARCHIVE_DEST",
        ));
    }
    let mut f = Draft {
        id: TRANSPORT_LAG_UNKNOWN,
        severity: Severity::Crit,
        title: format!(
            "The standby's transport lag is unknown (NULL) while the primary generates redo{}{}",
            cause.as_ref().map(|c| format!(", {}", c.1)).unwrap_or_default(),
            apply.map(|a| format!("; apply lag {}", fmt_lag(a))).unwrap_or_default()
        ),
        evidence,
        meaning: "V$DATAGUARD_STATS has no transport lag when the standby has not received redo it can date: nothing is arriving, or a gap stops the computation. The data at risk is unknown, not zero; the apply lag is judged on its own.",
        advice: &[
            "On the primary: the destination's status and error. On the standby: RFS processes, V$ARCHIVE_GAP, the recovery area and the alert log.",
            "A full recovery area or an archive gap is the usual cause; fix that and the lag becomes known again.",
        ],
        // The transport lag is NULL: how much of it nothing ships is not known.
        impact: weigh::transport(ctx, th, None),
    }
    .finish(ctx);
    f.caused_by = cause.map(|c| c.0);
    Some(f)
}

pub(super) fn dest_deferred(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let off = ctx.not_shipping();
    let first = *off.first()?;
    let params = ctx.p_last().and_then(|s| s.params.as_ref());
    let mut evidence = Vec::new();
    for d in &off {
        evidence.push(text(
            format!(
                "LOG_ARCHIVE_DEST_{} ({}) status {}",
                d.id,
                d.db_unique_name
                    .as_deref()
                    .or(d.name.as_deref())
                    .unwrap_or("–"),
                d.status
            ),
            "V$ARCHIVE_DEST",
        ));
        if let Some(v) =
            params.and_then(|p| p.get(format!("log_archive_dest_state_{}", d.id).as_str()))
        {
            evidence.push(text(
                format!("log_archive_dest_state_{} = {v}", d.id),
                "V$PARAMETER",
            ));
        }
    }
    let transport = ctx.transport_lag();
    if let Some(t) = transport {
        evidence.push(ev("transport lag", t, "s", None, "V$DATAGUARD_STATS"));
    }
    Some(
        Draft {
            id: DEST_DEFERRED,
            severity: Severity::Crit,
            title: format!(
                "Redo is not shipped to {}: LOG_ARCHIVE_DEST_{} is {}",
                first
                    .db_unique_name
                    .as_deref()
                    .or(first.name.as_deref())
                    .unwrap_or("a standby"),
                first.id,
                first.status
            ),
            evidence,
            meaning: "The primary does not send redo to this destination at all (deferred, disabled, or a parameter error): the standby falls further behind every second and the data loss on failover grows with it. Not a slow link: nothing is on the link.",
            advice: &[
                "If it was not on purpose, re-enable it. With the broker, for this one standby: EDIT DATABASE '<standby>' SET PROPERTY LogShipping=ON (it corresponds to ENABLE/DEFER of LOG_ARCHIVE_DEST_STATE_n; TRANSPORT-ON/OFF is the primary's state for every member, and an ALTER SYSTEM behind the broker's back leaves an inconsistent property). Without the broker: ALTER SYSTEM SET log_archive_dest_state_N = ENABLE.",
                "BAD PARAM means LOG_ARCHIVE_DEST_N itself needs fixing.",
                "If the standby is retired on purpose, remove the destination so the configuration says so.",
                "After re-enabling, the gap is shipped first: expect transport lag to fall from a peak.",
            ],
            impact: weigh::transport(ctx, th, Some(TransportPart::NotShipping)),
        }
        .finish(ctx),
    )
}

/// Protection modes by strength; RESYNCHRONIZATION and UNPROTECTED are below them all.
fn protection_rank(m: &str) -> u8 {
    match m.trim().to_ascii_uppercase().as_str() {
        "MAXIMUM PROTECTION" => 3,
        "MAXIMUM AVAILABILITY" => 2,
        "MAXIMUM PERFORMANCE" => 1,
        _ => 0,
    }
}

fn degraded(s: &Sample) -> Option<(String, String)> {
    let db = s.db.as_ref()?;
    let (mode, level) = (
        db.protection_mode.as_deref()?,
        db.protection_level.as_deref()?,
    );
    // Only the zero-data-loss modes promise something a lower level breaks.
    (protection_rank(mode) >= 2 && protection_rank(level) < protection_rank(mode))
        .then(|| (mode.to_string(), level.to_string()))
}

pub(super) fn protection_degraded(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let recent = ctx.primary_recent(state_hold_s(th));
    let (mode, level) = degraded(recent.first()?)?;
    if !held_for(&recent, state_hold_s(th), |s| degraded(s).is_some()) {
        return None;
    }
    let mut evidence = vec![
        text(format!("protection mode {mode}"), "V$DATABASE"),
        text(format!("protection level {level}"), "V$DATABASE"),
    ];
    for d in ctx.dests().iter().filter(|d| d.mode.is_sync()) {
        evidence.push(text(
            format!(
                "SYNC LOG_ARCHIVE_DEST_{} status {}{}",
                d.id,
                d.status,
                d.synchronization_status
                    .as_deref()
                    .map(|s| format!(", {s}"))
                    .unwrap_or_default()
            ),
            "V$ARCHIVE_DEST_STATUS",
        ));
    }
    let why = if ctx.standby_failed_since().is_some() {
        ": the standby is unreachable"
    } else if ctx
        .dests()
        .iter()
        .any(|d| d.mode.is_sync() && d.error.as_deref().is_some_and(|e| !e.trim().is_empty()))
    {
        ": the SYNC destination reports an error"
    } else {
        ""
    };
    let mut f = Draft {
            id: PROTECTION_DEGRADED,
            severity: Severity::Crit,
            title: format!("Zero data loss is not in force: protection level {level} under {mode}{why}"),
            evidence,
            meaning: "The configuration promises zero data loss, but right now no SYNC standby is synchronised, so a failover would lose the redo the standby has not received. Under Maximum Availability the primary keeps committing without the standby; it resynchronises by itself once the destination is healthy again.",
            advice: &[
                "Find why the SYNC standby is not synchronised: the destination's status and error, the network, the standby itself.",
                "Once the destination is healthy the level returns to the mode by itself; until then, avoid a failover if you can, or know what it loses.",
            ],
            impact: weigh::risk(),
        }
        .finish(ctx);
    // An unreachable standby is the root: protection is degraded because it is down.
    f.caused_by = standby_down_root(ctx);
    Some(f)
}

fn standby_down_root(ctx: &Context) -> Option<&'static str> {
    ctx.standby_failed_since().map(|_| super::ids::STANDBY_DOWN)
}

/// Responses of at least `min_s` seconds added in the window, per bucket, for one SYNC dest.
fn stalls(newest: &Dest, oldest: Option<&Dest>, min_s: u64) -> Vec<(u64, u64)> {
    newest
        .resp_hist
        .iter()
        .filter(|(secs, _)| *secs >= min_s)
        .filter_map(|&(secs, n)| {
            let before = oldest
                .and_then(|o| o.resp_hist.iter().find(|b| b.0 == secs))
                .map_or(0, |b| b.1);
            let added = n.saturating_sub(before);
            (added > 0).then_some((secs, added))
        })
        .collect()
}

pub(super) fn sync_stall(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let secs = window_secs(ctx);
    let newest = ctx.primary_newest(secs)?;
    // The oldest sample of the same incarnation: counters restart with the instance.
    let oldest = ctx.primary_oldest(secs, |s| {
        s.startup() == newest.startup() && !Arc::ptr_eq(s, newest)
    })?;
    let mut worst: Option<(&Dest, Vec<(u64, u64)>)> = None;
    for d in newest.dests.iter().filter(|d| d.mode.is_sync()) {
        let before = oldest.dests.iter().find(|o| o.id == d.id);
        let s = stalls(d, before, th.sync_stall_s);
        if !s.is_empty()
            && worst
                .as_ref()
                .is_none_or(|w| s.iter().map(|x| x.0).max() > w.1.iter().map(|x| x.0).max())
        {
            worst = Some((d, s));
        }
    }
    let (dest, buckets) = worst?;
    let longest = buckets.iter().map(|b| b.0).max().unwrap_or(0);
    let count: u64 = buckets.iter().map(|b| b.1).sum();
    let timeout = dest.net_timeout_s;
    let severity = if timeout.is_some_and(|t| t > 0 && longest * 2 >= t) {
        Severity::Crit
    } else {
        Severity::Warn
    };
    let mut evidence: Vec<_> = buckets
        .iter()
        .map(|&(secs, n)| {
            ev(
                &format!("SYNC responses of {secs} s (dest {})", dest.id),
                n as f64,
                "",
                Some(format!("≥ {} s", th.sync_stall_s)),
                "V$REDO_DEST_RESP_HISTOGRAM",
            )
        })
        .collect();
    if let Some(t) = timeout {
        evidence.push(ev(
            "NET_TIMEOUT",
            t as f64,
            "s",
            Some("CRIT when a stall reaches half of it".into()),
            "V$ARCHIVE_DEST",
        ));
    }
    let mut f = Draft {
            id: SYNC_STALL,
            severity,
            title: format!(
                "SYNC redo transport stalled: {} of {} s to LOG_ARCHIVE_DEST_{} in the window",
                dgscope_model::display::count(count, "response"),
                // One length, one figure: "30 s", never "30–30 s".
                match buckets.iter().map(|b| b.0).min().unwrap_or(longest) {
                    shortest if shortest == longest => longest.to_string(),
                    shortest => format!("{shortest}–{longest}"),
                },
                dest.id
            ),
            evidence,
            meaning: "Each SYNC response that took seconds held every commit on the primary for those seconds: averages hide it, V$REDO_DEST_RESP_HISTOGRAM shows it. Near NET_TIMEOUT the primary gives up on the standby and, under Maximum Availability, protection drops until it resynchronises.",
            advice: &[
                "Find what stalls: standby I/O hiccups on the standby redo logs (RFS write latency, other work on those disks) or network blips; oratcptest measures the path.",
                "Tune NET_TIMEOUT with care: lower detaches a stalled standby sooner (commits resume, protection drops); Oracle recommends not below 8–10 s.",
            ],
            // Every commit waits out each stall: the commit time's tail.
            impact: weigh::commit(ctx, th, None, |c| c.part(CommitPart::Tail)),
        }
        .finish(ctx);
    // A standby that went down stalls SYNC responses up to NET_TIMEOUT: a consequence.
    f.caused_by = standby_down_root(ctx);
    Some(f)
}

pub(super) fn dg_error(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // A deliberate cancel of managed recovery (ORA-16037) is logged with severity Error,
    // yet it is an operator's or the broker's choice: `apply-off` speaks for it.
    let errors: Vec<&DgMessage> = messages(ctx, true)
        .into_iter()
        .filter(|m| m.is_error() && !crate::metrics::is_recovery_cancel(m))
        .collect();
    let last = *errors.last()?;
    let mut evidence: Vec<_> = errors
        .iter()
        .rev()
        .take(5)
        .map(|m| text(format!("{} {}", m.severity, message_text(m)), DG_STATUS))
        .collect();
    if errors.len() > 5 {
        evidence.push(ev(
            "more errors in the window",
            (errors.len() - 5) as f64,
            "",
            None,
            DG_STATUS,
        ));
    }
    let mut f = Draft {
        id: DG_ERROR,
        severity: Severity::Warn,
        title: format!(
            "Data Guard reported {} error{} in the window; the last: {}",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            message_text(last)
        ),
        evidence,
        meaning: "V$DATAGUARD_STATUS logs what Data Guard's own processes report. Error and Fatal rows name the facility (Log Transport Services, Log Apply Services, Remote File Server …) and the ORA- code; they often say plainly why transport or apply stopped.",
        advice: &[
            "Read the messages in order: the first error usually names the cause, later ones its consequences.",
            "Look up each ORA- code, and the alert log of the database that reported it for context.",
        ],
        impact: weigh::risk(),
    }
    .finish(ctx);
    f.caused_by = fra_full(ctx, th)
        .map(|_| STANDBY_FRA_FULL)
        .or_else(|| apply_stopped_now(ctx, th).map(|_| APPLY_STOPPED))
        .or_else(|| standby_down_root(ctx));
    Some(f)
}

pub(super) fn apply_delayed(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let delay = ctx.delay_s();
    if delay <= 0.0 {
        return None;
    }
    let mut evidence = vec![ev(
        "apply delay (DELAY_MINS)",
        delay / 60.0,
        "min",
        None,
        "V$ARCHIVE_DEST",
    )];
    let apply = ctx.apply_lag();
    if let Some(a) = apply {
        evidence.push(ev("apply lag", a, "s", None, "V$DATAGUARD_STATS"));
        evidence.push(ev(
            "apply lag net of the delay",
            (a - delay).max(0.0),
            "s",
            None,
            "V$DATAGUARD_STATS",
        ));
    }
    Some(
        Draft {
            id: APPLY_DELAYED,
            severity: Severity::Info,
            title: format!(
                "Apply is delayed on purpose by {:.0} min{}",
                delay / 60.0,
                apply
                    .map(|a| format!("; apply lag net of it {}", fmt_lag(a - delay)))
                    .unwrap_or_default()
            ),
            evidence,
            meaning: "DELAY_MINS holds redo back before it is applied (a guard against logical errors). The apply lag then includes the delay by design; dgscope judges the apply lag net of it. Transport is not delayed: the redo is already on the standby.",
            advice: &[
                "Judge the apply lag net of the delay. A failover must first apply the delayed redo (or skip it on purpose), so plan its time into the RTO.",
                "Before a switchover to this standby, set the delay to 0 (broker property DelayMins=0): a switchover to a delayed standby fails with ORA-16497.",
            ],
            // A deliberate delay is not part of the apply lag judged (net of DELAY).
            impact: weigh::apply(ctx, th, &[]).with_amount(Some(0.0)),
        }
        .finish(ctx),
    )
}

/// MRP0's state as evidence ("MRP0 WAIT_FOR_GAP (thread 1, sequence 2542)"), when it runs.
fn mrp_evidence(ctx: &Context) -> Option<crate::causes::finding::Evidence> {
    let p = ctx.mrp()?;
    Some(text(
        format!(
            "MRP0 {}{}",
            p.action.as_deref().unwrap_or("–"),
            p.sequence
                .map(|q| format!(" (thread {}, sequence {q})", p.thread.unwrap_or(1)))
                .unwrap_or_default()
        ),
        "V$DATAGUARD_PROCESS",
    ))
}
