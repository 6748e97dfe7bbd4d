//! Causes you can page on: a lag over its threshold whatever explains it, apply off by
//! design, fast-start failover that would not happen, and NOLOGGING changes the standby
//! never received. Each consults the member's state first (`causes::state`).

use super::spec::{Chart, Hold, Kind, Reads, RuleSpec, Scope, Tier, BASE};
use super::{ev, weigh, Draft};
use crate::causes::context::{held_for, Context};
use crate::causes::decomposition::ApplyPart;
use crate::causes::finding::{Evidence, Finding, Severity};
use crate::causes::impact::{FindingKind, Impact, Symptom};
use crate::causes::standby_facts::state_hold_s;
use crate::causes::state::{
    apply_finish_s, apply_off, apply_off_in, explain_apply, explain_transport, ApplyOff, ApplyWhy,
    TransportWhy,
};
use crate::causes::text::starts_with_ignore_case;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::display::dur;
use dgscope_model::sample::{Role, Sample};

pub(super) const LAG_HIGH: &str = "lag-high";
pub(super) const APPLY_OFF: &str = "apply-off";
pub(super) const FSFO_NOT_READY: &str = "fsfo-not-ready";
pub(super) const UNRECOVERABLE_CHANGES: &str = "unrecoverable-changes";

/// How far back a NOLOGGING change still counts as news.
const UNRECOVERABLE_RECENT_S: f64 = 3600.0;

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: LAG_HIGH,
        eval: lag_high,
        severity: "WARN at 30 s transport or 5 min apply net of DELAY, CRIT at 4×",
        kind: Kind::State,
        finding: FindingKind::Symptom,
        scope: Scope::EachStandby,
        standby_judged: true,
        hold: Hold::State,
        reads: &[
            Reads::StandbyRaw(state_hold_s),
            Reads::Trend(|th| th.transport_rise_window_s),
        ],
        chart: Chart::Lag,
        verify: &[V::DgLags, V::DestConfig, V::ApplyProcesses],
        ..BASE
    },
    RuleSpec {
        id: APPLY_OFF,
        eval: apply_off_rule,
        severity: "INFO",
        kind: Kind::State,
        finding: FindingKind::Info,
        scope: Scope::EachStandby,
        standby_judged: true,
        tier: Tier::Root,
        reads: &[Reads::Window, Reads::Latest],
        chart: Chart::Lag,
        verify: &[V::ApplyProcesses, V::DgMessages, V::DgLags],
        ..BASE
    },
    RuleSpec {
        id: FSFO_NOT_READY,
        eval: fsfo_not_ready,
        severity: "WARN (CRIT when the observer is absent)",
        kind: Kind::State,
        tier: Tier::Root,
        hold: Hold::State,
        reads: &[Reads::PrimaryRaw(state_hold_s)],
        chart: Chart::Lag,
        verify: &[V::FailoverReadiness, V::DgLags, V::DestConfig],
        ..BASE
    },
    RuleSpec {
        id: UNRECOVERABLE_CHANGES,
        eval: unrecoverable_changes,
        severity: "WARN",
        kind: Kind::State,
        tier: Tier::Root,
        reads: &[Reads::Latest],
        chart: Chart::Lag,
        verify: &[V::Unrecoverable],
        ..BASE
    },
];

fn text(metric: String, source: &str) -> Evidence {
    ev(&metric, f64::NAN, "", None, source)
}

/// One lag judged against its levels: (which, value, warn, crit).
struct Over {
    which: &'static str,
    lag: f64,
    warn: f64,
    crit: f64,
}

fn dg_lag(s: &Sample, apply: bool) -> Option<f64> {
    let dg = s.dg.as_ref()?;
    if apply {
        dg.apply_lag_s.map(|v| v.0)
    } else {
        dg.transport_lag_s.map(|v| v.0)
    }
}

pub(super) fn lag_high(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let delay = ctx.delay_s();
    let hold = state_hold_s(th);
    let recent = ctx.standby_recent(hold);
    let (tw, tc) = th.transport_lag_levels();
    let (aw, ac) = th.apply_lag_levels();
    // Each lag on its own, over its threshold for the whole hold (a one-sample spike is not
    // a page); the apply lag net of a deliberate DELAY.
    let transport_over = held_for(&recent, hold, |s| dg_lag(s, false).is_some_and(|l| l >= tw));
    // A snapshot standby applies nothing by design: its apply lag grows without limit and is
    // no page (apply-off says how much waits); its transport lag is still judged.
    let snapshot = ctx.s_last().and_then(|s| s.role()) == Some(&Role::SnapshotStandby);
    let apply_over = !snapshot
        && held_for(&recent, hold, |s| {
            dg_lag(s, true).is_some_and(|l| l - delay >= aw)
        });
    let mut over = Vec::new();
    if transport_over {
        over.push(Over {
            which: "transport",
            lag: ctx.transport_lag()?,
            warn: tw,
            crit: tc,
        });
    }
    if apply_over {
        over.push(Over {
            which: "apply",
            lag: (ctx.apply_lag()? - delay).max(0.0),
            warn: aw,
            crit: ac,
        });
    }
    // The worse of the two by how far over its own threshold it is.
    let worst = over
        .iter()
        .max_by(|a, b| (a.lag / a.warn).total_cmp(&(b.lag / b.warn)))?;
    let severity = if over.iter().any(|o| o.lag >= o.crit) {
        Severity::Crit
    } else {
        Severity::Warn
    };
    let apply_why = apply_over.then(|| explain_apply(ctx, th));
    let transport_why = explain_transport(ctx, th);
    // The explanation of the worst lag; an apply lag that follows transport is transport's.
    let (because, finding, eta_s) = match (worst.which, &apply_why) {
        ("apply", Some(w)) if *w != ApplyWhy::FollowsTransport => (
            w.describe(),
            w.finding(),
            match w {
                ApplyWhy::CatchingUp { eta_s } => *eta_s,
                _ => None,
            },
        ),
        _ => (
            transport_why.describe(),
            transport_why.finding(),
            match transport_why {
                TransportWhy::CatchingUp { eta_s } => eta_s,
                _ => None,
            },
        ),
    };
    let mut evidence = Vec::new();
    for o in &over {
        evidence.push(ev(
            &format!(
                "{} lag{}",
                o.which,
                if o.which == "apply" && delay > 0.0 {
                    " net of DELAY"
                } else {
                    ""
                }
            ),
            o.lag,
            "s",
            Some(format!("WARN ≥ {}, CRIT ≥ {}", dur(o.warn), dur(o.crit))),
            "V$DATAGUARD_STATS",
        ));
    }
    if delay > 0.0 {
        evidence.push(ev("DELAY", delay, "s", None, "V$ARCHIVE_DEST"));
    }
    if let Some(f) = apply_finish_s(ctx) {
        evidence.push(ev("apply finish time", f, "s", None, "V$DATAGUARD_STATS"));
    }
    evidence.push(text(format!("why: {because}"), "dgscope state model"));
    let explained = match (finding, eta_s) {
        (_, Some(e)) => format!("catching up, done in ≈ {}", dur(e)),
        (Some(id), None) => format!("{because} (see {id})"),
        (None, None) => because.to_string(),
    };
    let mut f = Draft {
        id: LAG_HIGH,
        severity,
        title: format!(
            "{} lag {} is over its threshold ({}): {explained}",
            if worst.which == "apply" {
                "Apply"
            } else {
                "Transport"
            },
            dur(worst.lag),
            dur(worst.warn)
        ),
        evidence,
        meaning: "A lag over its threshold is never OK, whatever its cause: a failover now would lose (transport lag) or first have to apply (apply lag) this much redo. The finding names what explains the lag when dgscope can tell; when the lag shrinks it gives the time to catch up.",
        advice: &[
            "Follow the explaining finding named in the title; it ranks ahead of this one.",
            "When catching up: wait and watch the ETA fall; Oracle's own estimate is the apply finish time in V$DATAGUARD_STATS.",
            "The thresholds are lag_high_transport_s, lag_high_apply_s and lag_high_crit_factor in the config's [thresholds]; check's perfdata uses the same numbers.",
        ],
        // The lag itself: a symptom, which the finding it names explains.
        impact: Impact::of(
            if worst.which == "apply" {
                Symptom::ApplyLag
            } else {
                Symptom::TransportLag
            },
            Some(worst.lag),
            Some(worst.lag),
            None,
        )
        .for_standby(ctx.standby_slot.as_ref().map(|s| s.to_string())),
    }
    .finish(ctx);
    f.caused_by = finding.filter(|id| *id != LAG_HIGH);
    Some(f)
}

pub(super) fn apply_off_rule(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let off = apply_off(ctx)?;
    let s = ctx.s_last()?;
    let db = s.db.as_ref();
    let mut evidence = Vec::new();
    if let Some(r) = db.and_then(|d| d.role.as_ref()) {
        evidence.push(text(format!("database role {r}"), "V$DATABASE"));
    }
    if let Some(o) = db.and_then(|d| d.open_mode.as_ref()) {
        evidence.push(text(format!("open mode {o}"), "V$DATABASE"));
    }
    if let Some(i) = db.and_then(|d| d.intended_state.as_deref()) {
        evidence.push(text(
            format!("broker intended state {i}"),
            "Data Guard broker",
        ));
    }
    evidence.push(text(
        if ctx.mrp().is_some() {
            "MRP0 present".to_string()
        } else {
            "no MRP0 running".to_string()
        },
        "V$DATAGUARD_PROCESS",
    ));
    // How long it has been off, as far as the kept samples reach.
    let off_in = |s: &Sample| {
        apply_off_in(s).is_some()
            || (!s.processes.is_empty()
                && !s
                    .processes
                    .iter()
                    .any(|p| starts_with_ignore_case(&p.name, "MRP")))
    };
    let off_since = ctx
        .standby
        .and_then(|st| st.raw_samples().rev().take_while(|s| off_in(s)).last())
        .map_or(ctx.now, |s| s.t);
    let for_s = ctx.now.secs_since(off_since);
    evidence.push(ev("off for at least", for_s, "s", None, "dgscope samples"));
    let apply = ctx.apply_lag();
    if let Some(a) = apply {
        evidence.push(ev("apply lag", a, "s", None, "V$DATAGUARD_STATS"));
    }
    let snapshot = off == ApplyOff::SnapshotStandby;
    // How much redo waits to be applied: the apply lag at the primary's redo rate of the
    // window (an estimate: Oracle reports the lag in time, not bytes).
    let waiting_mb = apply
        .zip(ctx.p().and_then(|d| d.redo_mb_s()))
        .map(|(a, r)| a * r);
    if let Some(mb) = waiting_mb {
        evidence.push(ev(
            "redo waiting to be applied (≈ apply lag × primary redo rate)",
            mb,
            "MB",
            None,
            "V$DATAGUARD_STATS, V$SYSSTAT",
        ));
    }
    if snapshot {
        if let Some(t) = ctx.transport_lag() {
            evidence.push(ev(
                "transport lag (still judged)",
                t,
                "s",
                None,
                "V$DATAGUARD_STATS",
            ));
        }
    }
    let waiting = waiting_mb
        .map(|mb| {
            format!(
                "; ≈ {} of redo waits to be applied",
                dgscope_model::display::evidence_value(mb, "MB")
            )
        })
        .unwrap_or_default();
    let draft = Draft {
        id: APPLY_OFF,
        severity: Severity::Info,
        title: if snapshot {
            format!(
                "Redo apply is off by design on a snapshot standby (for at least {}): nothing is applied until it is converted back{waiting}",
                dur(for_s)
            )
        } else {
            format!(
                "Redo apply is off by design: {} (for at least {})",
                off.describe(),
                dur(for_s)
            )
        },
        evidence,
        meaning: if snapshot {
            "A snapshot standby is open read-write and applies nothing by design: redo still arrives and is kept, and the apply lag grows without limit. That is no page, and its apply finish time is no recovery time: a switchover or failover to it must first convert it back to a physical standby, which discards its local changes, and then apply all the waiting redo. Its transport lag is still judged: redo must keep arriving."
        } else {
            "Apply is off on purpose, not broken: redo still arrives and is kept, and the apply lag grows until apply is switched back on. No alarm while it is intended; lag-high still speaks once the apply lag passes its threshold, because a failover would first have to apply all of it."
        },
        advice: if snapshot {
            &[
                "Before a switchover or failover to this standby, convert it back: DGMGRL CONVERT DATABASE … TO PHYSICAL STANDBY (without the broker: ALTER DATABASE CONVERT TO PHYSICAL STANDBY, then restart it mounted and start managed recovery). Its local changes are discarded.",
                "After the conversion apply works through the waiting redo; only then is the apply finish time a recovery time.",
            ]
        } else {
            &[
                "Nothing to do while it is intended; turn apply back on when the work is done (broker: EDIT DATABASE … SET STATE='APPLY-ON'; without the broker: ALTER DATABASE RECOVER MANAGED STANDBY DATABASE DISCONNECT).",
                "A snapshot standby applies nothing until it is converted back (broker: CONVERT DATABASE … TO PHYSICAL STANDBY), which discards its local changes.",
            ]
        },
        impact: weigh::apply(ctx, th, &[ApplyPart::OffByDesign]),
    };
    Some(draft.finish(ctx))
}

/// Fast-start failover as the primary (else the standby) reports it.
fn fsfo_db<'a>(ctx: &'a Context) -> Option<&'a dgscope_model::sample::DbInfo> {
    let has = |s: &&std::sync::Arc<Sample>| {
        s.db.as_ref()
            .is_some_and(|d| d.fs_failover_status.is_some())
    };
    ctx.p_last()
        .filter(has)
        .or_else(|| ctx.s_last().filter(has))?
        .db
        .as_deref()
}

fn fsfo_ready(status: &str) -> bool {
    let s = status.trim().to_ascii_uppercase();
    s == "SYNCHRONIZED" || s == "TARGET UNDER LAG LIMIT"
}

fn fsfo_enabled(status: &str) -> bool {
    let s = status.trim();
    !s.is_empty() && !s.eq_ignore_ascii_case("DISABLED")
}

pub(super) fn fsfo_not_ready(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let db = fsfo_db(ctx)?;
    let status = db.fs_failover_status.as_deref()?;
    if !fsfo_enabled(status) {
        return None;
    }
    let no_observer = db.fs_failover_observer_present == Some(false);
    let not_ready = !fsfo_ready(status);
    if !(not_ready || no_observer) {
        return None;
    }
    // Held on the primary's samples: a status flickering for one sample is not a page.
    let hold = state_hold_s(th);
    let recent = ctx.primary_recent(hold);
    let lasted = recent.is_empty()
        || held_for(&recent, hold, |s| {
            s.db.as_ref().is_some_and(|d| {
                d.fs_failover_status.as_deref().is_some_and(|st| {
                    fsfo_enabled(st)
                        && (!fsfo_ready(st) || d.fs_failover_observer_present == Some(false))
                })
            })
        });
    if !lasted {
        return None;
    }
    let mut evidence = vec![text(format!("FS_FAILOVER_STATUS {status}"), "V$DATABASE")];
    if let Some(t) = db.fs_failover_target.as_deref() {
        evidence.push(text(format!("failover target {t}"), "V$DATABASE"));
    }
    if let Some(t) = db.fs_failover_threshold_s {
        evidence.push(ev(
            "FastStartFailoverThreshold",
            t as f64,
            "s",
            None,
            "V$DATABASE",
        ));
    }
    match (
        db.fs_failover_observer_present,
        db.fs_failover_observer_host.as_deref(),
    ) {
        (Some(true), Some(h)) => {
            evidence.push(text(format!("observer present on {h}"), "V$DATABASE"))
        }
        (Some(true), None) => evidence.push(text("observer present".into(), "V$DATABASE")),
        (Some(false), h) => evidence.push(text(
            format!(
                "observer NOT present{}",
                h.map(|h| format!(" (last on {h})")).unwrap_or_default()
            ),
            "V$DATABASE",
        )),
        (None, _) => {}
    }
    let lag = ctx.transport_lag().or(ctx.apply_lag());
    if let Some(l) = lag {
        evidence.push(ev(
            "target lag",
            l,
            "s",
            db.fs_failover_lag_limit_s
                .map(|m| format!("FastStartFailoverLagLimit {m} s")),
            "V$DATAGUARD_STATS",
        ));
    }
    let severity = if no_observer {
        Severity::Crit
    } else {
        Severity::Warn
    };
    Some(
        Draft {
            id: FSFO_NOT_READY,
            severity,
            title: if no_observer {
                format!("Fast-start failover is enabled but the observer is not present (status {status})")
            } else {
                format!(
                    "Fast-start failover would not happen now: status {status}{}",
                    db.fs_failover_target
                        .as_deref()
                        .map(|t| format!(", target {t}"))
                        .unwrap_or_default()
                )
            },
            evidence,
            meaning: "Fast-start failover is enabled, so the configuration is expected to fail over by itself when the primary is lost. It can do so only while the target is SYNCHRONIZED (or, for an ASYNC target, under FastStartFailoverLagLimit) and an observer watches both databases. Right now one of those does not hold: losing the primary would need a manual failover, with more data lost than the limit allows.",
            advice: &[
                "TARGET OVER LAG LIMIT or UNSYNCHRONIZED: find why the target lags (the lag findings name it) and bring it back under the limit.",
                "Observer not present: restart it (DGMGRL START OBSERVER, in the background or as a service) and check it can reach both databases; SHOW FAST_START FAILOVER in DGMGRL shows its state.",
            ],
            impact: weigh::risk(),
        }
        .finish(ctx),
    )
}

pub(super) fn unrecoverable_changes(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let p = ctx.p_last()?;
    let db = p.db.as_ref()?;
    let force = db.force_logging.as_deref()?;
    if force.trim().eq_ignore_ascii_case("YES") {
        return None;
    }
    let files = p.unrecoverable.as_ref()?;
    let since = ctx
        .now
        .add_millis(-(UNRECOVERABLE_RECENT_S * 1000.0) as i64);
    // Recent by its own time, or advanced since the oldest read dgscope kept.
    let oldest = ctx.primary_oldest(UNRECOVERABLE_RECENT_S, |s| s.unrecoverable.is_some());
    let before = |file: u32| {
        oldest
            .and_then(|o| o.unrecoverable.as_ref())
            .and_then(|v| v.iter().find(|u| u.file == file).map(|u| u.change))
    };
    let fresh: Vec<_> = files
        .iter()
        .filter(|u| {
            u.time.is_some_and(|t| t >= since)
                || oldest.is_some_and(|o| o.t < p.t) && before(u.file).is_none_or(|c| u.change > c)
        })
        .collect();
    if fresh.is_empty() {
        return None;
    }
    let mut evidence = vec![text(format!("FORCE_LOGGING {force}"), "V$DATABASE")];
    for u in fresh.iter().take(5) {
        evidence.push(ev(
            &format!(
                "file {} UNRECOVERABLE_CHANGE#{}",
                u.file,
                u.time
                    .map(|t| format!(" at {}", t.text()))
                    .unwrap_or_default()
            ),
            u.change as f64,
            "",
            None,
            "V$DATAFILE",
        ));
    }
    Some(
        Draft {
            id: UNRECOVERABLE_CHANGES,
            severity: Severity::Warn,
            title: format!(
                "NOLOGGING changes on the primary: {} datafile{} changed without redo while FORCE_LOGGING is {force}",
                fresh.len(),
                if fresh.len() == 1 { "" } else { "s" }
            ),
            evidence,
            meaning: "A NOLOGGING operation (a direct-path load, an index build …) wrote blocks on the primary without redo. The standby received nothing for them: its copies of those blocks are marked invalid, and a query or a failover there meets ORA-01578/ORA-26040. The standby looks healthy by every lag figure.",
            advice: &[
                "Stop it happening again: ALTER DATABASE FORCE LOGGING on the primary (Data Guard Concepts and Administration recommends it for every Data Guard primary).",
                "Repair the standby's copies: on 18c+ RECOVER DATABASE NONLOGGED BLOCK (or RECOVER DATAFILE n NONLOGGED BLOCK) on the standby; on any release, restore the files from the primary (RMAN RESTORE DATAFILE n FROM SERVICE, 12c+).",
            ],
            impact: weigh::risk(),
        }
        .finish(ctx),
    )
}
