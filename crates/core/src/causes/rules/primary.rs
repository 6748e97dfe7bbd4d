//! The primary's own outages (catalog part 3): an archiver that cannot archive, a recovery
//! area filling up, a primary whose commits have stopped, log switches waiting for a
//! checkpoint, sessions waiting for room in the log buffer. Part 1 explains a slow commit
//! path; these explain a *stopped* one. They judge states and stall waits, not commit
//! rates, so they speak while the rate findings warm up: a frozen primary has no commits to
//! average, and that is exactly when it must be judged.
//!
//! Most figures come from completed waits (`V$SYSTEM_EVENT`): a wait still in progress
//! shows nothing there until it ends. Oracle ends the switch and buffer waits on a short
//! timeout and waits again, so a pile-up still shows within seconds; `primary-hung` also
//! reads the waits in flight now (`V$SESSION`, [`super::waits_now`]), which show a hung
//! `log file sync` that never completes, and name the blocker.

use super::spec::{Hold, Kind, Reads, RuleSpec, Tier, BASE};
use super::waits_now;
use super::{ev, weigh, Draft};
use crate::causes::context::Context;
use crate::causes::decomposition::CommitPart;
use crate::causes::finding::{Evidence, Finding, Severity};
use crate::causes::impact::FindingKind;
use crate::causes::text::contains_ignore_case;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use crate::metrics::Window;
use dgscope_model::sample::names::{event, stat};
use dgscope_model::sample::{Dest, DestStatus, DgMessage, Fra};
use dgscope_model::timestamp::Timestamp;

pub(super) const PRIMARY_ARCHIVING_STUCK: &str = "primary-archiving-stuck";
pub(super) const PRIMARY_FRA_FULL: &str = "primary-fra-full";
pub(super) const PRIMARY_HUNG: &str = "primary-hung";
pub(super) const CHECKPOINT_INCOMPLETE: &str = "checkpoint-incomplete";
pub(super) const LOG_BUFFER_SPACE: &str = "log-buffer-space";

/// The recovery area counts as full from here (used net of reclaimable, % of the limit):
/// what is left is less than any archived log.
const FRA_FULL_PCT: f64 = 99.9;

/// The events a commit waits on when the primary cannot write redo: the switch waits, the
/// log buffer and the commit itself.
const COMMIT_PATH_STALLS: &[&str] = &[
    event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
    event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
    event::LOG_FILE_SWITCH_COMPLETION,
    event::LOG_BUFFER_SPACE,
];

const SYSTEM_EVENT: &str = "V$SYSTEM_EVENT";
const FRA_VIEW: &str = "V$RECOVERY_FILE_DEST";
const DG_STATUS: &str = "V$DATAGUARD_STATUS";

/// How far back `primary-hung` reads raw samples to see that commits stopped over the
/// in-flight wait it needs (twice that, for sampling intervals of several seconds).
pub(super) fn hung_span_s(th: &Thresholds) -> f64 {
    2.0 * th.primary_hung_wait_s
}

/// How far back the recovery area's growth is measured (its figures are read once a minute).
pub(super) fn fra_growth_s(th: &Thresholds) -> f64 {
    th.primary_fra_growth_s
}

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: PRIMARY_ARCHIVING_STUCK,
        eval: primary_archiving_stuck,
        severity: "CRIT",
        kind: Kind::State,
        tier: Tier::Root,
        reads: &[Reads::Window, Reads::Latest],
        verify: &[
            V::RecoveryArea,
            V::DgMessages,
            V::DestConfig,
            V::LogSwitches,
        ],
        ..BASE
    },
    RuleSpec {
        id: PRIMARY_FRA_FULL,
        eval: primary_fra_full,
        severity: "WARN at 85 %, CRIT at 97 %",
        kind: Kind::State,
        tier: Tier::Root,
        reads: &[Reads::Latest],
        verify: &[V::RecoveryArea, V::DgMessages, V::ArchiveGap],
        ..BASE
    },
    RuleSpec {
        id: PRIMARY_HUNG,
        eval: primary_hung,
        severity: "CRIT",
        kind: Kind::State,
        tier: Tier::Root,
        // A wait in flight for 10 s has held 10 s: CRIT within 10–20 s of the hang.
        hold: Hold::Evidence,
        reads: &[
            Reads::Window,
            Reads::WaitsNow,
            Reads::PrimaryRaw(hung_span_s),
        ],
        verify: &[
            V::SessionWaits,
            V::CommitPathAverages,
            V::LogSwitches,
            V::DgMessages,
        ],
        ..BASE
    },
    RuleSpec {
        id: CHECKPOINT_INCOMPLETE,
        eval: checkpoint_incomplete,
        severity: "WARN",
        kind: Kind::State,
        finding: FindingKind::Symptom,
        tier: Tier::Root,
        hold: Hold::Engine,
        reads: &[Reads::Window, Reads::Latest],
        verify: &[V::LogSwitches, V::OrlLayout, V::IoByFiletype],
        ..BASE
    },
    RuleSpec {
        id: LOG_BUFFER_SPACE,
        eval: log_buffer_space,
        severity: "WARN",
        kind: Kind::State,
        finding: FindingKind::Symptom,
        reads: &[Reads::Window, Reads::Latest],
        verify: &[V::CommitPathAverages, V::RedoSizing, V::IoByFiletype],
        ..BASE
    },
];

/// Waits and seconds waited on `name` by the primary over the window.
fn waited(ctx: &Context, name: &str) -> Option<(u64, f64)> {
    let e = ctx.p()?.event(name)?;
    (e.waits > 0 || e.us > 0).then_some((e.waits, e.us as f64 / 1e6))
}

/// The window's length in seconds (the causes window, or its span when unbounded).
fn window_secs(ctx: &Context) -> f64 {
    match ctx.window {
        Window::Last(d) => d.as_secs_f64(),
        _ => 3600.0,
    }
}

/// Seconds waited per second of the window: how many sessions waited on average.
fn per_s(ctx: &Context, secs: f64) -> f64 {
    secs / ctx.window_len_s().filter(|s| *s > 0.0).unwrap_or(1.0)
}

/// Evidence of one stall event: waits and the seconds waited per second of window.
fn wait_ev(
    ctx: &Context,
    name: &str,
    waits: u64,
    secs: f64,
    threshold: Option<String>,
) -> Evidence {
    ev(
        &format!("{name}: time waited per second ({waits} waits in the window)"),
        per_s(ctx, secs),
        "s/s",
        threshold,
        SYSTEM_EVENT,
    )
}

/// The primary has commit-path stall waits in the window: it is not idle but frozen, so the
/// engine judges it rather than saying "warming up" for want of commits.
pub(crate) fn primary_stalled(ctx: &Context) -> bool {
    COMMIT_PATH_STALLS
        .iter()
        .filter(|e| **e != event::LOG_FILE_SWITCH_COMPLETION)
        .any(|e| waited(ctx, e).is_some())
        || !waits_now::commit_path_stalled(ctx, STALLED_NOW_S).is_empty()
}

/// An in-flight commit-path wait this long means the primary is stalled now (a healthy
/// commit waits milliseconds).
const STALLED_NOW_S: f64 = 1.0;

/// No commit over the last `span` seconds of the primary's raw samples: `user commits` in
/// its newest sample equals the value in the newest sample at least `span` − 2 s older
/// (whatever the sampling interval), so commits stopped recently, whatever the longer
/// window holds.
fn commits_stopped_for(ctx: &Context, span: f64) -> bool {
    let Some(p) = ctx.primary else {
        return false;
    };
    let Some(last) = p.current() else {
        return false;
    };
    let from = last.t.add_millis(-(2.0 * span * 1000.0) as i64);
    let Some(first) = p
        .raw_samples_from(from)
        .take_while(|x| last.t.secs_since(x.t) >= span - 2.0)
        .last()
    else {
        return false;
    };
    let (Some(a), Some(b)) = (
        first.stat(stat::USER_COMMITS),
        last.stat(stat::USER_COMMITS),
    ) else {
        return false;
    };
    a == b
}

fn fra_bytes_net(f: &Fra) -> u64 {
    f.used_bytes.saturating_sub(f.reclaimable_bytes)
}

fn fra_evidence(f: &Fra) -> Vec<Evidence> {
    const GB: f64 = 1_073_741_824.0;
    let mut v = vec![ev(
        "recovery area used net of reclaimable (SPACE_USED − SPACE_RECLAIMABLE)",
        f.used_net_pct().unwrap_or(f64::NAN),
        "%",
        None,
        FRA_VIEW,
    )];
    v.push(ev(
        "recovery area limit (DB_RECOVERY_FILE_DEST_SIZE)",
        f.limit_bytes as f64 / GB,
        "GB",
        None,
        FRA_VIEW,
    ));
    v.push(ev(
        "recovery area reclaimable",
        f.reclaimable_bytes as f64 / GB,
        "GB",
        None,
        FRA_VIEW,
    ));
    v
}

/// The ORA- codes that say the primary cannot archive: 257 (archiver error), 16038 (log
/// cannot be archived), 19809 (recovery files limit exceeded), 19804 (cannot reclaim),
/// and 19815 when it reports the area 100 % used.
fn is_stuck_message(m: &DgMessage) -> bool {
    let code = m.error_code.unwrap_or(0).abs();
    let text = |needle: &str| contains_ignore_case(&m.message, needle);
    let has = |c: i64, s: &str| code == c || text(s);
    has(257, "ora-00257")
        || has(16038, "ora-16038")
        || has(19809, "ora-19809")
        || has(19804, "ora-19804")
        || ((code == 19815 || text("ora-19815")) && text("100.00%"))
}

fn message_text(m: &DgMessage) -> String {
    let code = m
        .error_code
        .filter(|&c| c != 0)
        .map(|c| format!("ORA-{:05}: ", c.abs()))
        .filter(|prefix| !m.message.trim_start().starts_with(prefix.trim_end()))
        .unwrap_or_default();
    format!("{code}{}", m.message.trim())
}

/// The primary's messages of the window that say it cannot archive, oldest first.
fn stuck_messages<'a>(ctx: &'a Context) -> Vec<&'a DgMessage> {
    let mut out: Vec<&DgMessage> = ctx
        .primary_with_messages(window_secs(ctx))
        .into_iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .filter(|m| is_stuck_message(m))
        .collect();
    out.sort_by_key(|m| m.time);
    out.dedup();
    out
}

/// Why the primary cannot archive, as far as the evidence says so.
struct Stuck {
    /// `log file switch (archiving needed)`: waits and seconds.
    waits: Option<(u64, f64)>,
    /// The recovery area is full.
    fra_full: Option<Fra>,
    messages: Vec<DgMessage>,
    /// MANDATORY destinations in error: no online log is reused until they have it.
    mandatory: Vec<Dest>,
}

fn stuck(ctx: &Context) -> Option<Stuck> {
    let waits = waited(ctx, event::LOG_FILE_SWITCH_ARCHIVING_NEEDED);
    let fra_full = ctx
        .p_last()
        .and_then(|s| s.fra)
        .filter(|f| f.used_net_pct().is_some_and(|p| p >= FRA_FULL_PCT));
    let messages: Vec<DgMessage> = stuck_messages(ctx).into_iter().cloned().collect();
    let mandatory: Vec<Dest> = ctx
        .dests()
        .iter()
        .filter(|d| d.is_mandatory() && d.status == DestStatus::Error)
        .cloned()
        .collect();
    (waits.is_some() || fra_full.is_some() || !messages.is_empty() || !mandatory.is_empty())
        .then_some(Stuck {
            waits,
            fra_full,
            messages,
            mandatory,
        })
}

pub(super) fn primary_archiving_stuck(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let s = stuck(ctx)?;
    let mut evidence = Vec::new();
    let mut why = Vec::new();
    if let Some((n, secs)) = s.waits {
        why.push(format!(
            "sessions waited {} for log file switch (archiving needed)",
            dgscope_model::display::dur(secs)
        ));
        evidence.push(wait_ev(
            ctx,
            event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
            n,
            secs,
            Some("any".into()),
        ));
    }
    if let Some(f) = &s.fra_full {
        why.push(format!(
            "its recovery area is {:.1} % used net of reclaimable",
            f.used_net_pct().unwrap_or(100.0)
        ));
        evidence.extend(fra_evidence(f));
    } else if let Some(f) = ctx.p_last().and_then(|s| s.fra) {
        evidence.extend(fra_evidence(&f).into_iter().take(1));
    }
    for d in &s.mandatory {
        let name = d.name.as_deref().unwrap_or("?");
        why.push(format!(
            "MANDATORY destination {} ({name}) is in error",
            d.id
        ));
        evidence.push(ev(
            &format!(
                "dest {} {name} BINDING MANDATORY, STATUS ERROR{}",
                d.id,
                d.error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            ),
            f64::NAN,
            "",
            None,
            "V$ARCHIVE_DEST",
        ));
    }
    if let Some(last) = s.messages.last() {
        why.push(format!("it reported {}", message_text(last)));
    }
    for m in s.messages.iter().rev().take(3) {
        evidence.push(ev(
            &format!("{} {}", m.severity, message_text(m)),
            f64::NAN,
            "",
            None,
            DG_STATUS,
        ));
    }
    let stall = s.waits.map_or(0.0, |w| w.1);
    Some(
        Draft {
            id: PRIMARY_ARCHIVING_STUCK,
            severity: Severity::Crit,
            title: format!("The primary cannot archive: {}", why.join("; ")),
            evidence,
            meaning: "The primary reuses an online log only once ARCn has archived it. When the archive destination (usually the recovery area) is full or failing, every log fills in turn and the next log switch waits: sessions wait on 'log file switch (archiving needed)', commits stop and the database hangs (ORA-00257). A standby that has been down for hours, with a deletion policy that keeps every log not yet applied, is the classic way to get there.",
            advice: &[
                "Find the full or failing destination: V$RECOVERY_FILE_DEST and V$RECOVERY_AREA_USAGE on the primary, V$ARCHIVE_DEST (STATUS, ERROR) for the local destinations.",
                "Free space without losing redo a standby still needs: check the RMAN ARCHIVELOG DELETION POLICY, back up archived logs (BACKUP ARCHIVELOG ALL DELETE INPUT only where the policy allows), and delete only what the policy reports as reclaimable (DELETE ARCHIVELOG ALL respects the policy). Never remove archived logs not yet applied on a standby by hand.",
                "If space cannot be freed quickly, raise DB_RECOVERY_FILE_DEST_SIZE (ALTER SYSTEM SET, dynamic) within what the file system holds; ARCn resumes by itself.",
                "A MANDATORY destination in error holds every online log until it has it: fix what its ERROR names, or, if the standby behind it can wait, make it OPTIONAL (the MANDATORY attribute of LOG_ARCHIVE_DEST_n; with the broker the member's LogShipping, or a protection mode that allows it) so the primary can go on.",
                "Then fix why the logs accumulated: a standby down or far behind keeps them under APPLIED ON ALL STANDBY.",
            ],
            impact: weigh::redo_stall(ctx, stall),
        }
        .finish(ctx),
    )
}

/// Growth of the used net bytes per second over the last `primary_fra_growth_s`, from the
/// first and last values read; `None` with fewer than two reads or when the limit changed.
fn fra_growth(ctx: &Context, th: &Thresholds) -> Option<f64> {
    let from = ctx.now.add_millis(-(fra_growth_s(th) * 1000.0) as i64);
    let reads: Vec<&(Timestamp, Fra)> = ctx.primary?.fra_reads().filter(|r| r.0 >= from).collect();
    let (first, last) = (reads.first()?, reads.last()?);
    if first.1.limit_bytes != last.1.limit_bytes {
        return None;
    }
    let dt = last.0.secs_since(first.0);
    let grew = fra_bytes_net(&last.1) as f64 - fra_bytes_net(&first.1) as f64;
    (dt > 0.0).then(|| grew / dt)
}

pub(super) fn primary_fra_full(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // Once archiving has stopped, primary-archiving-stuck speaks for the area: one outage,
    // one finding.
    if stuck(ctx).is_some() {
        return None;
    }
    let f = ctx.p_last()?.fra?;
    let pct = f.used_net_pct()?;
    let severity = if pct >= th.primary_fra_crit_pct {
        Severity::Crit
    } else if pct >= th.primary_fra_warn_pct {
        Severity::Warn
    } else {
        return None;
    };
    let mut evidence = fra_evidence(&f);
    evidence[0].threshold = Some(format!(
        "WARN ≥ {:.0} %, CRIT ≥ {:.0} %",
        th.primary_fra_warn_pct, th.primary_fra_crit_pct
    ));
    let growth = fra_growth(ctx, th).filter(|g| *g > 0.0);
    let mut to_full = None;
    if let Some(g) = growth {
        evidence.push(ev(
            "recovery area growth",
            g * 60.0 / 1_073_741_824.0,
            "GB/min",
            None,
            FRA_VIEW,
        ));
        let free = f.limit_bytes.saturating_sub(fra_bytes_net(&f)) as f64;
        let secs = free / g;
        to_full = Some(secs);
        evidence.push(ev(
            "time until the recovery area is full at this rate",
            secs,
            "s",
            None,
            FRA_VIEW,
        ));
    }
    let title = format!(
        "The primary's recovery area is {pct:.1} % used net of reclaimable{}",
        match to_full {
            Some(s) => format!(
                ", full in about {} at the current growth",
                dgscope_model::display::dur(s)
            ),
            None => String::new(),
        }
    );
    Some(
        Draft {
            id: PRIMARY_FRA_FULL,
            severity,
            title,
            evidence,
            meaning: "The primary archives its online logs into the recovery area. When the area is full ARCn stops, the online logs cannot be reused and the primary hangs on 'log file switch (archiving needed)'. Space counts net of what is reclaimable: files the RMAN deletion policy and retention allow Oracle to delete by itself.",
            advice: &[
                "See what fills it: V$RECOVERY_AREA_USAGE by file type on the primary.",
                "Check the RMAN ARCHIVELOG DELETION POLICY: under APPLIED ON ALL STANDBY (or SHIPPED TO) a standby that is down or behind keeps every log; fix the standby rather than the policy.",
                "Back up archived logs so the policy can make them reclaimable; delete only through RMAN, which respects the policy, never archived logs a standby has not applied.",
                "If time is short, raise DB_RECOVERY_FILE_DEST_SIZE (dynamic) within what the file system holds.",
            ],
            impact: weigh::risk(),
        }
        .finish(ctx),
    )
}

pub(super) fn primary_hung(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // In flight now: commit-path waits of at least primary_hung_wait_s while no commit
    // happened over that span. A wait in flight that long is the hang itself, seen before
    // any of those waits completes.
    let now = waits_now::commit_path_stalled(ctx, th.primary_hung_wait_s);
    let in_flight = !now.is_empty() && commits_stopped_for(ctx, th.primary_hung_wait_s);
    // Completed waits: commits read and none in the window, the stall waits piling up.
    let d = ctx.p();
    let no_commits = d.and_then(|d| d.stat(stat::USER_COMMITS)) == Some(0);
    // Asked at every instant by every commit-path rule: the usual answer (commits flow, no
    // wait in flight) is found before the stall waits are gathered.
    if !in_flight && !no_commits {
        return None;
    }
    let mut waits: Vec<(&str, u64, f64)> = COMMIT_PATH_STALLS
        .iter()
        .chain(std::iter::once(&event::LOG_FILE_SYNC))
        .filter_map(|e| waited(ctx, e).map(|(n, s)| (*e, n, s)))
        .collect();
    waits.sort_by(|a, b| b.2.total_cmp(&a.2));
    let total: f64 = waits.iter().map(|w| w.2).sum();
    let completed = no_commits && total >= th.primary_hung_wait_s;
    if !in_flight && !completed {
        return None;
    }
    let mut evidence = Vec::new();
    if in_flight {
        evidence.push(ev(
            "user commits over the longest wait in flight",
            0.0,
            "",
            Some("none while sessions wait".into()),
            "V$SYSSTAT",
        ));
        for (i, w) in now.iter().enumerate() {
            let threshold = (i == 0).then(|| format!("≥ {:.0} s", th.primary_hung_wait_s));
            evidence.push(waits_now::evidence(w, threshold));
        }
    }
    if completed {
        evidence.push(ev(
            "user commits in the window",
            0.0,
            "",
            Some("none while sessions wait".into()),
            "V$SYSSTAT",
        ));
    }
    if let Some(r) = d.and_then(|d| d.stat(stat::REDO_SIZE)) {
        evidence.push(ev(
            "redo generated in the window",
            r as f64 / 1_048_576.0,
            "MB",
            None,
            "V$SYSSTAT",
        ));
    }
    if total > 0.0 {
        evidence.push(ev(
            "seconds waited on the commit path in the window (completed waits)",
            total,
            "s",
            (!in_flight).then(|| format!("≥ {:.0} s", th.primary_hung_wait_s)),
            SYSTEM_EVENT,
        ));
    }
    for (e, n, s) in &waits {
        evidence.push(wait_ev(ctx, e, *n, *s, None));
    }
    let title = match now.first() {
        Some(w) if in_flight => format!(
            "The primary is hung: no commits for {} while {}",
            dgscope_model::display::dur(w.longest_s.floor()),
            waits_now::describe(w)
        ),
        _ => format!(
            "The primary is hung: no commits in {} while sessions waited {} on the commit path, most on {}",
            dgscope_model::display::dur(d.map_or(0.0, |d| d.secs)),
            dgscope_model::display::dur(total),
            waits.first().map_or("the commit path", |w| w.0)
        ),
    };
    let mut f = Draft {
        id: PRIMARY_HUNG,
        severity: Severity::Crit,
        title,
        evidence,
        meaning: "No transaction commits, yet sessions wait on the events a commit passes through: the primary is frozen, not idle. The wait it piles up on names the blocker: archiving needed (ARCn, the archive destination), checkpoint incomplete (DBWR), log buffer space or log file sync (LGWR, its storage or a SYNC destination). Waits in flight (V$SESSION) show the hang as it happens, with the session that blocks them; completed waits (V$SYSTEM_EVENT) show it only once they end.",
        advice: &[
            "Follow the blocking chain from the blocker named here: V$SESSION (EVENT, WAIT_TIME_MICRO, BLOCKING_SESSION, PROGRAM) on the primary, to LGWR, ARCn or the destination.",
            "The alert log of the primary names an archiver error (ORA-00257, ORA-16038, ORA-19809) or a checkpoint not complete.",
        ],
        // Commits have stopped: no average to split; the stall waits that completed.
        impact: weigh::redo_stall(ctx, total),
    }
    .finish(ctx);
    let switch_now = |name: &str| now.iter().any(|w| w.event == name);
    f.caused_by = if stuck(ctx).is_some() || switch_now(event::LOG_FILE_SWITCH_ARCHIVING_NEEDED) {
        Some(PRIMARY_ARCHIVING_STUCK)
    } else if waited(ctx, event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE).is_some()
        || switch_now(event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE)
    {
        Some(CHECKPOINT_INCOMPLETE)
    } else {
        None
    };
    if f.caused_by.is_some() {
        f.kind = FindingKind::Symptom;
    }
    Some(f)
}

pub(super) fn checkpoint_incomplete(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let ckpt = waited(ctx, event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE)
        .filter(|w| per_s(ctx, w.1) * 3600.0 >= th.checkpoint_incomplete_s_per_h);
    // A switch always takes a few milliseconds: `log file switch completion` counts only
    // when sessions spend a share of the window on it.
    let completion = waited(ctx, event::LOG_FILE_SWITCH_COMPLETION)
        .filter(|w| per_s(ctx, w.1) >= th.switch_wait_s_per_s);
    if ckpt.is_none() && completion.is_none() {
        return None;
    }
    let mut evidence = Vec::new();
    let mut secs = 0.0;
    if let Some((n, s)) = ckpt {
        secs += s;
        // Per hour, the unit its threshold is set in (per second it would read 0.0003 s/s).
        evidence.push(ev(
            &format!(
                "{}: time waited per hour ({n} waits in the window)",
                event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE
            ),
            per_s(ctx, s) * 3600.0,
            "s/h",
            Some(format!("≥ {} s/h", th.checkpoint_incomplete_s_per_h)),
            SYSTEM_EVENT,
        ));
    }
    if let Some((n, s)) = completion {
        secs += s;
        evidence.push(wait_ev(
            ctx,
            event::LOG_FILE_SWITCH_COMPLETION,
            n,
            s,
            Some(format!("≥ {} s/s", th.switch_wait_s_per_s)),
        ));
    }
    let all = crate::causes::rates::primary_switch_rates(ctx);
    let per_hour = crate::causes::rates::total_per_hour(&all);
    if per_hour > 0.0 {
        evidence.push(ev(
            "log switches per hour, all threads",
            per_hour,
            "/h",
            None,
            "V$LOG_HISTORY",
        ));
    }
    let orl = ctx.p_last().and_then(|s| s.logs.clone());
    if let Some(l) = orl.as_ref().filter(|l| !l.online.is_empty()) {
        let mb = l.online.iter().map(|g| g.bytes).max().unwrap_or(0) as f64 / 1_048_576.0;
        let threads: std::collections::BTreeSet<u32> = l.online.iter().map(|g| g.thread).collect();
        evidence.push(ev("online redo log size", mb, "MB", None, "V$LOG"));
        evidence.push(ev(
            "online redo log groups per thread",
            l.online.len() as f64 / threads.len().max(1) as f64,
            "",
            None,
            "V$LOG",
        ));
    }
    let what = if ckpt.is_some() {
        "log file switch (checkpoint incomplete)"
    } else {
        "log file switch completion"
    };
    Some(
        Draft {
            id: CHECKPOINT_INCOMPLETE,
            severity: Severity::Warn,
            title: format!(
                "Log switches stall the primary: sessions waited {} on {what} in the window",
                dgscope_model::display::dur(secs)
            ),
            evidence,
            meaning: "Before LGWR reuses an online log, the checkpoint that protects its changes must be complete. With too few or too small online logs, or DBWR writing too slowly, LGWR cycles back to a log whose checkpoint is still running and every session that generates redo waits ('Checkpoint not complete' in the alert log). 'log file switch completion' is the switch itself taking long.",
            advice: &[
                "Add online log groups or make them larger (ALTER DATABASE ADD LOGFILE GROUP … SIZE …), so a log lasts 15–20 minutes at peak redo and the checkpoint finishes in time; add standby redo logs to match.",
                "If the logs are already large, look at DBWR's write throughput (Data File writes in V$IOSTAT_FILE, 'free buffer waits', DB_WRITER_PROCESSES).",
            ],
            impact: weigh::redo_stall(ctx, secs),
        }
        .finish(ctx),
    )
    .map(|mut f| {
        // Logs that switch too often are why a checkpoint cannot keep up: when that finding
        // is raised too, it ranks first and this one under it.
        f.caused_by = Some(super::config::LOG_SWITCH_FREQUENT);
        f
    })
}

/// What holds LGWR, so that sessions wait for room in the log buffer: the largest part of
/// its write cycle in the commit decomposition, and the finding that owns it.
fn lgwr_held_by(ctx: &Context, th: &Thresholds) -> Option<(CommitPart, f64, &'static str)> {
    let c = ctx.commit(th)?;
    let p = c.largest_write_part()?;
    let id = match p.part {
        CommitPart::LocalWrite => "lgwr-write-slow",
        CommitPart::RemoteNetwork => "network-latency",
        CommitPart::RemoteRfs => "standby-redo-write-slow",
        _ => "sync-remote-leg",
    };
    Some((p.part, p.amount, id))
}

pub(super) fn log_buffer_space(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (n, secs) = waited(ctx, event::LOG_BUFFER_SPACE)?;
    let share = per_s(ctx, secs);
    // The sample has no DB time: the share is of the window's wall-clock seconds, i.e. the
    // sessions waiting on average.
    if share < th.log_buffer_space_s_per_s {
        return None;
    }
    let mut evidence = vec![wait_ev(
        ctx,
        event::LOG_BUFFER_SPACE,
        n,
        secs,
        Some(format!("≥ {} s/s", th.log_buffer_space_s_per_s)),
    )];
    if let Some(l) = ctx.lfpw() {
        evidence.push(ev(
            "log file parallel write average",
            l,
            "ms",
            None,
            SYSTEM_EVENT,
        ));
    }
    let held = lgwr_held_by(ctx, th);
    if let Some(r) = ctx.remote() {
        evidence.push(ev("SYNC Remote Write average", r, "ms", None, SYSTEM_EVENT));
    }
    if let Some((part, ms, _)) = held {
        evidence.push(ev(
            &format!("what holds LGWR's writes longest: {}", part.as_str()),
            ms,
            "ms",
            None,
            "dgscope commit decomposition",
        ));
    }
    let buffer = ctx
        .p_last()
        .and_then(|s| s.params.clone())
        .and_then(|p| p.get("log_buffer").and_then(|v| v.parse::<f64>().ok()));
    if let Some(b) = buffer {
        evidence.push(ev("log_buffer", b / 1_048_576.0, "MB", None, "V$PARAMETER"));
    }
    // The advice follows what holds LGWR: a slow SYNC round trip is not "faster local writes".
    let first: String = match held.map(|h| h.0) {
        Some(CommitPart::RemoteNetwork) => "LGWR waits for the SYNC standby's acknowledgement before it can free the buffer, and the round trip holds it longest, not the local write: shorten the network leg (see network-latency), or, if the RPO allows, ship ASYNC to that standby.".into(),
        Some(CommitPart::RemoteRfs) => "LGWR waits for the SYNC standby's acknowledgement before it can free the buffer, and the standby's standby redo log write holds it longest, not the local write: make that write faster (see standby-redo-write-slow), or use FASTSYNC if the RPO allows.".into(),
        Some(CommitPart::RemoteLeg) => "LGWR waits for the SYNC standby's acknowledgement before it can free the buffer, and that remote leg holds it longest, not the local write: measure the standby's redo log writes and the network to it (see sync-remote-leg).".into(),
        _ => "Make LGWR's writes faster first: the online logs on the fastest storage, not shared with data files or archives (log file parallel write should stay around a millisecond).".into(),
    };
    let mut f = Draft {
        id: LOG_BUFFER_SPACE,
        severity: Severity::Warn,
        title: format!(
            "Sessions wait for room in the log buffer: {} in the window ({share:.2} s per second)",
            dgscope_model::display::dur(secs)
        ),
        evidence,
        meaning: "Sessions copy their redo into the log buffer and LGWR empties it to the online logs. 'log buffer space' means the buffer is full: LGWR does not complete its writes fast enough for the redo being generated (its own write, or under SYNC the standby's acknowledgement it waits for), or the buffer is too small for bursts.",
        advice: &[],
        impact: weigh::redo_stall(ctx, secs),
    }
    .finish_advising(
        ctx,
        vec![
            first,
            "Only then raise LOG_BUFFER (static: SPFILE and a restart); a larger buffer absorbs bursts but does not make a slow write faster.".into(),
        ],
    );
    f.caused_by = held.map(|h| h.2);
    Some(f)
}
