//! Causes on the commit path: where `log file sync` time goes (seed 000, seed 001).

use super::spec::{Reads, RuleSpec, BASE};
use super::{ev, ms, weigh, Draft};
use crate::causes::context::{broadcast_ms, Context};
use crate::causes::decomposition::{CommitPart, TailCause};
use crate::causes::finding::{Evidence, Finding, Severity};
use crate::causes::impact::FindingKind;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use crate::metrics::Delta;
use dgscope_model::sample::names::{event, filetype, os, stat};
use dgscope_model::sample::vocab::whatif::Change;

pub(super) const STANDBY_REDO_WRITE_SLOW: &str = "standby-redo-write-slow";
pub(super) const NETWORK_LATENCY: &str = "network-latency";
pub(super) const ADAPTIVE_LFS_POLLING: &str = "adaptive-lfs-polling";
pub(super) const LGWR_CPU_STARVED: &str = "lgwr-cpu-starved";
pub(super) const LGWR_WRITE_SLOW: &str = "lgwr-write-slow";
pub(super) const LFS_OUTLIER_SKEW: &str = "lfs-outlier-skew";
pub(super) const SYNC_REMOTE_LEG: &str = "sync-remote-leg";
pub(super) const COMMIT_NOT_THE_PROBLEM: &str = "commit-not-the-problem";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: STANDBY_REDO_WRITE_SLOW,
        weighed: true,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, standby_redo_write_slow),
        severity: "WARN (CRIT at 5 ms)",
        standby_judged: true,
        what_ifs: |o| {
            let mut v = vec![Change::FastSync];
            if o.srl_members.is_some_and(|m| m > 1) {
                v.push(Change::OneSrlMember);
            }
            v
        },
        verify: &[
            V::CommitPathAverages,
            V::RfsLatency,
            V::SrlLayout,
            V::IoByFiletype,
        ],
        ..BASE
    },
    RuleSpec {
        id: SYNC_REMOTE_LEG,
        weighed: true,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, sync_remote_leg),
        severity: "WARN (CRIT at 5 ms)",
        verify: &[V::CommitPathAverages, V::RfsLatency, V::IoByFiletype],
        ..BASE
    },
    RuleSpec {
        id: NETWORK_LATENCY,
        weighed: true,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, network_latency),
        severity: "WARN",
        what_ifs: |o| {
            if o.sync_affirm == Some(true) {
                vec![Change::FastSync]
            } else {
                Vec::new()
            }
        },
        verify: &[V::CommitPathAverages, V::RfsLatency, V::DestConfig],
        ..BASE
    },
    RuleSpec {
        id: ADAPTIVE_LFS_POLLING,
        weighed: true,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, adaptive_lfs_polling),
        severity: "WARN",
        verify: &[V::PollingStats, V::CommitPathAverages, V::LfsHistogram],
        ..BASE
    },
    RuleSpec {
        id: LGWR_CPU_STARVED,
        weighed: true,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, lgwr_cpu_starved),
        severity: "WARN",
        verify: &[V::CpuLoad, V::CommitPathAverages, V::LfsHistogram],
        ..BASE
    },
    RuleSpec {
        id: LGWR_WRITE_SLOW,
        weighed: true,
        // The commit path's, and the log switches (below critical, frequent switches rank
        // first).
        reads: &[Reads::Window, Reads::WaitsNow, Reads::Latest],
        eval: |c, t| unless_negligible(c, t, lgwr_write_slow),
        severity: "WARN (CRIT at 10 ms)",
        verify: &[
            V::LfpwHistogram,
            V::CommitPathAverages,
            V::IoByFiletype,
            V::OrlLayout,
        ],
        ..BASE
    },
    RuleSpec {
        id: LFS_OUTLIER_SKEW,
        reads: super::waits_now::COMMIT_PATH_READS,
        eval: |c, t| unless_negligible(c, t, lfs_outlier_skew),
        severity: "INFO",
        finding: FindingKind::Symptom,
        verify: &[V::LfsHistogram, V::LogSwitches],
        ..BASE
    },
    RuleSpec {
        id: COMMIT_NOT_THE_PROBLEM,
        eval: commit_not_the_problem,
        severity: "INFO",
        finding: FindingKind::Info,
        verify: &[V::CommitPathAverages],
        ..BASE
    },
];

const V_SYSTEM_EVENT: &str = "V$SYSTEM_EVENT";

/// How much the window's commits weigh: user commits per hour of window and foreground
/// `log file sync` as a percentage of DB time (`None` where DB time is not read).
struct CommitWeight {
    per_h: f64,
    db_time_pct: Option<f64>,
    few: bool,
    small: bool,
}

/// The commits' weight when they are too few, or too small a part of DB time, for the commit
/// path to be anyone's problem (a data-warehouse window, a report of an idle hour); `None`
/// when they matter, are unknown, or stopped (no commit at all is idle or `primary-hung`,
/// never "not the problem").
fn negligible(ctx: &Context, th: &Thresholds) -> Option<CommitWeight> {
    let d = ctx.p()?;
    let commits = d.stat(stat::USER_COMMITS)?;
    if commits == 0 || d.secs <= 0.0 {
        return None;
    }
    let per_h = commits as f64 * 3600.0 / d.secs;
    // Commits wait in the foreground; a source without the split has the total.
    let lfs_us = d
        .event(event::LOG_FILE_SYNC)
        .map_or(0, |e| e.us_fg.unwrap_or(e.us));
    let db_time_pct = d
        .stat(stat::DB_TIME)
        .filter(|cs| *cs > 0)
        // µs ÷ (cs × 10,000 µs) × 100 %.
        .map(|cs| lfs_us as f64 / (cs as f64 * 100.0));
    let few = per_h < th.commit_min_per_h;
    let small = db_time_pct.is_some_and(|p| p < th.commit_min_db_time_pct);
    // A hung primary is never "not the problem"; asked last, as it is the dearer question.
    if !(few || small) || super::primary::primary_hung(ctx, th).is_some() {
        return None;
    }
    Some(CommitWeight {
        per_h,
        db_time_pct,
        few,
        small,
    })
}

/// `rule`, unless the commits are negligible: then no storage, CPU or transport finding is
/// made of a commit path nobody waits on (`commit-not-the-problem` says so instead).
pub(super) fn unless_negligible(
    ctx: &Context,
    th: &Thresholds,
    rule: fn(&Context, &Thresholds) -> Option<Finding>,
) -> Option<Finding> {
    match negligible(ctx, th) {
        Some(_) => None,
        None => rule(ctx, th),
    }
}

pub(super) fn commit_not_the_problem(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let w = negligible(ctx, th)?;
    let mut why = Vec::new();
    if let (true, Some(p)) = (w.small, w.db_time_pct) {
        why.push(format!("log file sync is {} of DB time", pct(p)));
    }
    if w.few {
        why.push(format!("{} user commits per hour", rate(w.per_h)));
    }
    // Both gates are shown; a threshold only on the ones that hold.
    let mut evidence = Vec::new();
    if let Some(p) = w.db_time_pct {
        evidence.push(ev(
            "foreground log file sync share of DB time",
            p,
            "%",
            w.small
                .then(|| format!("< {} %", th.commit_min_db_time_pct)),
            "V$SYSTEM_EVENT, V$SYSSTAT",
        ));
    }
    evidence.push(ev(
        "user commits per hour of window",
        w.per_h,
        "/h",
        w.few.then(|| format!("< {} /h", th.commit_min_per_h)),
        "V$SYSSTAT",
    ));
    if let Some(lfs) = ctx.lfs() {
        evidence.push(ev("log file sync avg", lfs, "ms", None, V_SYSTEM_EVENT));
    }
    Some(
        Draft {
            id: COMMIT_NOT_THE_PROBLEM,
            severity: Severity::Info,
            title: format!("Commit is not the problem here: {}", why.join(", ")),
            evidence,
            meaning: "Commits are too few, or take too small a part of the database's time, for the commit path to explain how the workload fares: whatever log file sync or log file parallel write average shows, making it faster would not be felt. The commit path's storage, CPU and transport findings stay silent for this window.",
            advice: &[
                "Look at what DB time is spent on instead: the report's Top Timed Events, or V$SYSTEM_EVENT ordered by time waited.",
                "A slow log file parallel write still matters to the next commit-heavy load: judge it over a window with commits.",
            ],
            impact: weigh::commit_context(ctx, th),
        }
        .finish(ctx),
    )
}

/// A percentage with the precision a small share needs (`0.018 %`, `2.4 %`).
fn pct(p: f64) -> String {
    if p < 0.1 {
        format!("{p:.3} %")
    } else {
        format!("{p:.1} %")
    }
}

/// A rate per hour: whole numbers from 10 on, one decimal below.
fn rate(r: f64) -> String {
    if r < 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.0}")
    }
}

/// A change of transport mode a finding may advise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModeChange {
    FastSync,
    Async,
}

trait ModeAdvice {
    fn with_mode_advice(self, ctx: &Context, changes: &[ModeChange]) -> Self;
}

impl ModeAdvice for Finding {
    /// Advice that changes the transport mode says what it does to the protection mode; under
    /// MAXIMUM PROTECTION it is not offered without that warning.
    fn with_mode_advice(mut self, ctx: &Context, changes: &[ModeChange]) -> Self {
        let mode = ctx
            .p_last()
            .and_then(|s| s.db.as_ref())
            .and_then(|d| d.protection_mode.as_deref())
            .map(|m| m.trim().to_ascii_uppercase());
        let max_protection = mode.as_deref() == Some("MAXIMUM PROTECTION");
        for c in changes {
            self.advice.push(match (c, max_protection) {
                (ModeChange::FastSync, false) => "If the RPO allows, FASTSYNC (SYNC NOAFFIRM) takes the standby's SRL write out of the commit path (not the round trip). Maximum Availability stays in force, but redo the standby acknowledged before writing it is lost if both sites fail at once.".into(),
                (ModeChange::FastSync, true) => "Under MAXIMUM PROTECTION FASTSYNC (NOAFFIRM) is not an option: that mode requires SYNC AFFIRM, so you would first have to lower the protection mode to Maximum Availability, accepting that the primary then no longer stops when no standby is synchronised.".into(),
                (ModeChange::Async, false) => "If the RPO allows, ASYNC takes the network out of the commit path entirely, but it means Maximum Performance: zero data loss is given up (Maximum Availability needs a SYNC destination).".into(),
                (ModeChange::Async, true) => "Under MAXIMUM PROTECTION ASYNC is not an option: the mode needs a SYNC standby. Switching would first mean lowering the protection mode to Maximum Performance and giving up zero data loss; decide that on purpose, not as tuning.".into(),
            });
        }
        self
    }
}

/// With several SYNC destinations `SYNC Remote Write` is one event over all of them: an
/// evidence line that says so, with each destination's own response histogram.
fn mixed_sync_evidence(ctx: &Context) -> Vec<Evidence> {
    let sync = ctx.sync_dests();
    if sync.len() < 2 {
        return Vec::new();
    }
    let names: Vec<String> = sync.iter().map(|d| dest_label(d)).collect();
    let mut out = vec![ev(
        &format!(
            "SYNC Remote Write mixes {} SYNC destinations ({})",
            sync.len(),
            names.join(", ")
        ),
        f64::NAN,
        "",
        None,
        "V$ARCHIVE_DEST",
    )];
    for d in sync {
        if let Some((n, slow)) = ctx.dest_resp(d.id) {
            out.push(ev(
                &format!("{} SYNC responses of 2 s or more (of {n})", dest_label(d)),
                slow as f64,
                "",
                None,
                "V$REDO_DEST_RESP_HISTOGRAM",
            ));
        }
    }
    out
}

fn dest_label(d: &dgscope_model::sample::Dest) -> String {
    d.db_unique_name
        .as_deref()
        .or(d.name.as_deref())
        .map_or_else(|| format!("dest {}", d.id), String::from)
}

pub(super) fn standby_redo_write_slow(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (remote, lfpw) = (ctx.remote()?, ctx.lfpw()?);
    // The remote leg first: it needs no member's window (asked at every instant).
    if !(remote >= th.remote_min_ms && remote >= th.remote_vs_lfpw_ratio * lfpw) {
        return None;
    }
    // Each SYNC AFFIRM destination is judged by the RFS writes of the member it ships to
    // (matched by DB_UNIQUE_NAME): an ASYNC standby's slow disk is never blamed for
    // commits, and with several the slowest holding one is named.
    let (dest, rfs) = ctx
        .sync_dests()
        .into_iter()
        .filter(|d| d.affirm)
        .filter_map(|d| Some((d, ctx.rfs_of(d)?)))
        .filter(|(_, rfs)| *rfs >= th.rfs_share_of_remote * remote)
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let far_sync = ctx.dest_is_far_sync(dest);
    let mut evidence = remote_leg_evidence(remote, lfpw, th).to_vec();
    evidence.extend([ev(
        &if far_sync {
            format!("RFS random i/o avg (far sync {})", dest_label(dest))
        } else {
            "RFS random i/o avg (standby)".to_string()
        },
        rfs,
        "ms",
        Some(format!(
            "≥ {:.0} % of SYNC Remote Write",
            th.rfs_share_of_remote * 100.0
        )),
        V_SYSTEM_EVENT,
    )]);
    evidence.extend(mixed_sync_evidence(ctx));
    let layout = super::srl_layout(ctx);
    if let Some(members) = layout.as_ref().and_then(|l| l.members) {
        evidence.push(ev(
            "SRL members per group",
            f64::from(members),
            "",
            Some("1 recommended".into()),
            "V$LOGFILE",
        ));
    }
    if let (Some(p), Some(s)) = ctx.log_file_w_await() {
        evidence.push(ev(
            "standby Log File w_await",
            s,
            "ms",
            None,
            "V$IOSTAT_FILE",
        ));
        evidence.push(ev(
            "primary Log File w_await",
            p,
            "ms",
            None,
            "V$IOSTAT_FILE",
        ));
    }
    let severity = remote_leg_severity(remote, th);
    // Advice follows the evidence: the member advice only with extra members, the group
    // advice only for a thread that is short of groups (the layout srl-config judges too).
    let mut advice = layout.as_ref().map(|l| l.advice()).unwrap_or_default();
    if layout.as_ref().and_then(|l| l.extra_members()).is_none() {
        advice.insert(0, "Move the standby redo logs to the standby's fastest storage: RFS writes them while every SYNC AFFIRM commit waits.".into());
    }
    advice.push(
        "Check what else writes to the SRL disks on the standby host (backups, other databases)."
            .into(),
    );
    Some(
        Draft {
            id: STANDBY_REDO_WRITE_SLOW,
            severity,
            title: format!(
                "Standby redo log writes are slow: SYNC Remote Write {} vs log file parallel write {} on the primary; RFS random i/o {} ({}{})",
                ms(remote),
                ms(lfpw),
                ms(rfs),
                if far_sync { "far sync " } else { "" },
                dest_label(dest)
            ),
            evidence,
            meaning: "With SYNC AFFIRM every commit waits until the standby's RFS has written the redo into a standby redo log. When that write is slower than the primary's own log write, the standby's disk sets the commit time. Seed 000 shows 2-member SRLs on a slow disk: RFS 2.89 ms, log file sync 4.60 ms and TPS −20 %; after moving to one member on fast storage RFS fell to 0.89 ms.",
            advice: &[],
            // The SRL write's part of the time a commit waits beyond its local write.
            // The RFS part of the leg beyond what a standby write as fast as the local one
            // would leave.
            impact: weigh::commit(ctx, th, None, |c| {
                (c.part(CommitPart::RemoteRfs) - c.healthy_rfs_part()).max(0.0)
            }),
        }
        .finish_advising(ctx, advice)
        .with_mode_advice(ctx, &[ModeChange::FastSync])
        .explained_by_storage(ctx, th),
    )
}

trait StorageCause {
    fn explained_by_storage(self, ctx: &Context, th: &Thresholds) -> Self;
}

impl StorageCause for Finding {
    /// When the standby's redo log and data file writes are both saturated, its storage as
    /// a whole is the cause and the slow RFS writes a symptom of it: standby-io-saturated
    /// ranks first, this finding right under it.
    fn explained_by_storage(mut self, ctx: &Context, th: &Thresholds) -> Self {
        if super::config::saturated_file_types(ctx, th).len() >= 2 {
            self.caused_by = Some(super::config::STANDBY_IO_SATURATED);
        }
        self
    }
}

pub(super) fn network_latency(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // With several SYNC destinations the one whose own response histogram is worst.
    let dest = ctx
        .sync_dests()
        .into_iter()
        .rev() // the first of equals
        .max_by_key(|d| ctx.dest_resp(d.id).map(|r| r.1))?;
    let remote = ctx.remote()?;
    // An RFS average is never negative, so the network's share is at most the remote time:
    // below both thresholds nothing holds, and no member's window is needed.
    if remote < th.network_share_ms && remote < th.network_remote_ms {
        return None;
    }
    // The RFS writes of the member this destination ships to, never another standby's. With
    // several SYNC AFFIRM destinations SYNC Remote Write mixes them and each commit waits for
    // the slowest: only what the slowest member's disk leaves unexplained can be network.
    let rfs = ctx
        .sync_dests()
        .into_iter()
        .filter(|d| d.affirm)
        .filter_map(|d| ctx.rfs_of(d))
        .max_by(f64::total_cmp)
        .or_else(|| ctx.rfs_of(dest));
    // With NOAFFIRM the standby acknowledges on receipt: the remote time is the network's.
    let network = match (dest.affirm, rfs) {
        (false, _) => Some(remote),
        (true, Some(r)) => Some(remote - r),
        (true, None) => None,
    };
    let rfs_small = rfs.is_some_and(|r| r < th.network_rfs_small_share * remote) || !dest.affirm;
    let holds = network.is_some_and(|n| n >= th.network_share_ms)
        || (remote >= th.network_remote_ms && rfs_small);
    if !holds {
        return None;
    }
    let network = network.unwrap_or(remote);
    let mut evidence = vec![
        ev(
            "network share of SYNC Remote Write",
            network,
            "ms",
            Some(format!("≥ {}", ms(th.network_share_ms))),
            V_SYSTEM_EVENT,
        ),
        ev("SYNC Remote Write avg", remote, "ms", None, V_SYSTEM_EVENT),
    ];
    if let Some(r) = rfs {
        evidence.push(ev(
            "RFS random i/o avg (standby)",
            r,
            "ms",
            None,
            V_SYSTEM_EVENT,
        ));
    }
    if let Some(t) = dest.net_timeout_s {
        evidence.push(ev("NET_TIMEOUT", t as f64, "s", None, "V$ARCHIVE_DEST"));
    }
    evidence.extend(mixed_sync_evidence(ctx));
    Some(
        Draft {
            id: NETWORK_LATENCY,
            severity: Severity::Warn,
            title: format!(
                "The network dominates SYNC: {} of the {} remote write is not the standby's disk ({} to {})",
                ms(network),
                ms(remote),
                if dest.affirm { "SYNC AFFIRM" } else { "SYNC NOAFFIRM" },
                dest_label(dest)
            ),
            evidence,
            meaning: "SYNC Remote Write is the round trip to the standby plus, with AFFIRM, the standby's redo log write. What is left after the RFS write is network: distance, congestion or small socket buffers. MAA expects a SYNC round trip under 5 ms; every millisecond adds to every commit.",
            advice: &[
                "Measure the path with oratcptest; compare with the round trip the application can afford.",
                "Size socket buffers (SDU, RECV_BUF_SIZE/SEND_BUF_SIZE) to at least 3 × bandwidth-delay product.",
            ],
            impact: weigh::commit(ctx, th, None, |c| {
                weigh::above(c, CommitPart::RemoteNetwork, th.healthy_network_ms)
            }),
        }
        .finish(ctx)
        .with_mode_advice(ctx, &[ModeChange::FastSync, ModeChange::Async]),
    )
}

/// The remote leg against its gate, as both rules that judge it show it: SYNC Remote Write
/// with its threshold (≥ the floor and ≥ a multiple of the local write), and the local write.
fn remote_leg_evidence(remote: f64, lfpw: f64, th: &Thresholds) -> [Evidence; 2] {
    [
        ev(
            "SYNC Remote Write avg",
            remote,
            "ms",
            Some(format!(
                "≥ {} and ≥ {} × log file parallel write ({})",
                ms(th.remote_min_ms),
                th.remote_vs_lfpw_ratio,
                ms(lfpw)
            )),
            V_SYSTEM_EVENT,
        ),
        ev(
            "log file parallel write avg",
            lfpw,
            "ms",
            None,
            V_SYSTEM_EVENT,
        ),
    ]
}

/// CRIT from `remote_crit_ms` of SYNC Remote Write, WARN below.
fn remote_leg_severity(remote: f64, th: &Thresholds) -> Severity {
    if remote >= th.remote_crit_ms {
        Severity::Crit
    } else {
        Severity::Warn
    }
}

/// A source with no standby side (an AWR or Statspack report, `watch` of a primary alone)
/// whose commits wait on `SYNC Remote Write`: the remote leg is named, network or the
/// standby's redo log write, which only the standby's figures can tell apart. With a standby
/// watched, `standby-redo-write-slow` and `network-latency` say which.
pub(super) fn sync_remote_leg(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    if ctx.standby_slot.is_some() {
        return None;
    }
    let (remote, lfpw) = (ctx.remote()?, ctx.lfpw()?);
    if remote < th.remote_min_ms || remote < th.remote_vs_lfpw_ratio * lfpw {
        return None;
    }
    let mut evidence = remote_leg_evidence(remote, lfpw, th).to_vec();
    if let Some(lfs) = ctx.lfs() {
        evidence.push(ev("log file sync avg", lfs, "ms", None, V_SYSTEM_EVENT));
    }
    let severity = remote_leg_severity(remote, th);
    Some(
        Draft {
            id: SYNC_REMOTE_LEG,
            severity,
            title: format!(
                "Commits wait on the remote leg: SYNC Remote Write {} vs log file parallel write {}; network or the standby's redo log write, which this source cannot tell apart",
                ms(remote),
                ms(lfpw)
            ),
            evidence,
            meaning: "SYNC Remote Write is the round trip to the standby plus, with AFFIRM, the standby's write of the redo to its standby redo logs. Every SYNC commit waits for it. Without the standby's own figures the two parts cannot be separated: the primary's report shows only their sum.",
            advice: &[
                "Measure on the standby: RFS random i/o in V$SYSTEM_EVENT and Log File writes in V$IOSTAT_FILE (its redo log disk), over the same period.",
                "Measure the network to it: the round trip (oratcptest, or ping between the hosts). Whichever part is near SYNC Remote Write is the leg to fix.",
                "Watch both sides live: dgscope watch --primary … --standby … names the part.",
            ],
            impact: weigh::commit(ctx, th, None, |c| {
                weigh::above(c, CommitPart::RemoteLeg, th.healthy_network_ms)
            }),
        }
        .finish(ctx),
    )
}

/// One LGWR's commit path: the cluster's on a single instance, each instance's on RAC
/// (its own LGWR, its own host's CPU and load).
/// A RAC instance: `(inst_id, host)`.
type Inst = (u32, Option<String>);

struct CommitPath {
    /// The instance on RAC; `None` for a single instance.
    inst: Option<Inst>,
    lfs: f64,
    /// The slowest write the commit waits for: local, or remote under SYNC.
    path: f64,
    /// RAC broadcast-on-commit ack per commit, taken out before CPU or polling is blamed.
    broadcast: f64,
    /// `lfs − broadcast − path`: the part of a commit's wait that no write explains.
    extra: f64,
    polled: Option<u64>,
    polling_share: Option<f64>,
    /// Host CPU busy % from `V$OSSTAT` busy and idle time.
    cpu: Option<f64>,
    /// `V$OSSTAT` LOAD: evidence only (see [`CommitPath::busy`]).
    load: Option<f64>,
    cpus: Option<f64>,
}

impl CommitPath {
    fn of(ctx: &Context, d: &Delta, inst: Option<Inst>) -> Option<Self> {
        let lfs = d.event_avg(event::LOG_FILE_SYNC)?.0;
        let lfpw = d.event_avg(event::LOG_FILE_PARALLEL_WRITE).map(|m| m.0);
        // 11.2's LNS wait is in the commit path only with a SYNC destination.
        let remote = d
            .event_avg(event::SYNC_REMOTE_WRITE)
            .or_else(|| {
                ctx.sync_dest()?;
                d.event_avg(event::LNS_WAIT_ON_SENDREQ)
            })
            .map(|m| m.0);
        let path = match (lfpw, remote) {
            (Some(l), Some(r)) => l.max(r),
            (l, r) => l.or(r)?,
        };
        let broadcast = broadcast_ms(d).unwrap_or(0.0);
        Some(CommitPath {
            inst,
            lfs,
            path,
            broadcast,
            extra: lfs - broadcast - path,
            polled: d.stat(stat::REDO_SYNCH_POLL_WRITES),
            polling_share: d.polling_share(),
            cpu: d.cpu_busy_pct(),
            load: d.os.get(os::LOAD).copied(),
            cpus: d.os.get(os::NUM_CPUS).copied(),
        })
    }

    /// `inst 2 on dbhost2: ` on RAC, nothing on a single instance.
    fn prefix(&self) -> String {
        match &self.inst {
            Some((id, h)) => format!(
                "{}: ",
                dgscope_model::display::instance_label(*id, h.as_deref())
            ),
            None => String::new(),
        }
    }

    fn source(&self, single: &'static str, rac: &'static str) -> &'static str {
        if self.inst.is_some() {
            rac
        } else {
            single
        }
    }

    /// The host's CPU is busy: `V$OSSTAT` busy time, never `LOAD` alone (Linux counts
    /// processes in uninterruptible I/O in the load average, so a storage stall raises it
    /// without using any CPU).
    fn busy(&self, th: &Thresholds) -> bool {
        self.cpu.is_some_and(|c| c >= th.cpu_busy_pct)
    }

    /// The normal group-commit queueing: a commit that arrives while LGWR writes waits for
    /// that write and then its own, about half a write more on average (lfs ≈ 1.5 × write
    /// on a healthy system).
    fn queueing(&self, th: &Thresholds) -> f64 {
        th.group_commit_queue_ratio * self.path
    }

    /// The part of `log file sync` that neither the writes, the broadcast ack nor the
    /// group-commit queueing explain: what CPU starvation could account for.
    fn unexplained(&self, th: &Thresholds) -> f64 {
        self.extra - self.queueing(th)
    }
}

/// The commit paths to judge: each instance's on RAC (never the cluster's sums: NUM_CPUS
/// summed over hosts against the busiest host's LOAD hides a saturated node, and an average
/// over LGWRs hides the slow one), the cluster's otherwise.
fn commit_paths(ctx: &Context) -> Vec<CommitPath> {
    let Some(d) = ctx.p() else {
        return Vec::new();
    };
    if d.instances.is_empty() {
        return CommitPath::of(ctx, d, None).into_iter().collect();
    }
    d.instances
        .iter()
        .filter_map(|(id, i)| {
            CommitPath::of(ctx, i, Some((*id, i.host.as_deref().map(String::from))))
        })
        .collect()
}

fn broadcast_evidence(c: &CommitPath) -> Option<Evidence> {
    (c.broadcast > 0.0).then(|| {
        ev(
            "redo write broadcast ack time per commit (RAC, not CPU)",
            c.broadcast,
            "ms",
            None,
            c.source("V$SYSSTAT", "GV$SYSSTAT"),
        )
    })
}

pub(super) fn adaptive_lfs_polling(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let secs = ctx.window_len_s().unwrap_or(1.0).max(1e-9);
    let c = commit_paths(ctx)
        .into_iter()
        .filter(|c| c.polled.is_some_and(|n| n > 0))
        .filter(|c| c.lfs >= th.lfs_vs_write_ratio * c.path && c.extra >= th.lfs_unexplained_ms)
        .max_by(|a, b| a.extra.total_cmp(&b.extra))?;
    let polled = c.polled.unwrap_or(0);
    let (sysstat, sysevent) = (
        c.source("V$SYSSTAT", "GV$SYSSTAT"),
        c.source(V_SYSTEM_EVENT, "GV$SYSTEM_EVENT"),
    );
    let mut evidence = vec![
        ev(
            "redo synch poll writes",
            polled as f64 / secs,
            "/s",
            Some("> 0".into()),
            sysstat,
        ),
        ev(
            "log file sync avg",
            c.lfs,
            "ms",
            Some(format!(
                "≥ {} × slowest write ({})",
                th.lfs_vs_write_ratio,
                ms(c.path)
            )),
            sysevent,
        ),
        ev(
            "slowest write (lfpw or remote)",
            c.path,
            "ms",
            None,
            sysevent,
        ),
    ];
    evidence.extend(broadcast_evidence(&c));
    if let Some(share) = c.polling_share {
        evidence.push(ev(
            "share of sync writes that polled",
            share * 100.0,
            "%",
            None,
            sysstat,
        ));
    }
    Some(
        Draft {
            id: ADAPTIVE_LFS_POLLING,
            severity: Severity::Warn,
            title: format!(
                "{}Sessions poll for commit completion: log file sync {} vs {} writes, {:.0} polled writes/s",
                c.prefix(),
                ms(c.lfs),
                ms(c.path),
                polled as f64 / secs
            ),
            evidence,
            meaning: "Adaptive log file sync (11.2.0.3+) switches foreground sessions from being posted by LGWR to sleeping and polling. A session then sees its commit only at its next poll, so log file sync grows towards the poll interval while the writes stay fast. Seed 001 saw 7–8 ms log file sync with 1–3 ms writes; disabling the feature brought it to about 3 ms.",
            advice: &[
                "Confirm in the LGWR trace file: lines like 'Log file sync switching to polling'.",
                "_use_adaptive_log_file_sync=FALSE keeps post/wait. It is a hidden parameter: change it only with Oracle Support's agreement.",
                "Fix what made LGWR slow enough to trigger the switch (write latency, CPU) so it does not recur.",
            ],
            impact: weigh::commit(ctx, th, c.inst.as_ref().map(|i| i.0), |d| {
                (d.part(CommitPart::AdaptivePolling) - weigh::queueing(d, th)).max(0.0)
            }),
        }
        .finish(ctx),
    )
}

pub(super) fn lgwr_cpu_starved(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    // Judged per LGWR: a saturated node with its own slow commits, the worst one named.
    let c = commit_paths(ctx)
        .into_iter()
        .filter(|c| c.polled.is_none_or(|n| n == 0))
        .filter(|c| c.busy(th) && c.unexplained(th) >= th.lfs_unexplained_ms)
        .max_by(|a, b| a.unexplained(th).total_cmp(&b.unexplained(th)))?;
    let unexplained = c.unexplained(th);
    let (osstat, sysevent) = (
        c.source("V$OSSTAT", "GV$OSSTAT"),
        c.source(V_SYSTEM_EVENT, "GV$SYSTEM_EVENT"),
    );
    let (cpu_label, load_label) = if c.inst.is_some() {
        ("its host CPU busy", "its host load average")
    } else {
        ("host CPU busy", "load average")
    };
    let mut evidence = vec![];
    if let Some(cpu) = c.cpu {
        evidence.push(ev(
            cpu_label,
            cpu,
            "%",
            Some(format!("≥ {:.0} %", th.cpu_busy_pct)),
            osstat,
        ));
    }
    // The load average is context only: it counts processes in I/O wait too.
    if let Some(l) = c.load {
        evidence.push(ev(
            &match c.cpus {
                Some(n) => format!("{load_label} (NUM_CPUS {n:.0}; counts I/O waits)"),
                None => format!("{load_label} (counts I/O waits)"),
            },
            l,
            "",
            None,
            osstat,
        ));
    }
    evidence.push(ev(
        "log file sync not explained by writes or group-commit queueing",
        unexplained,
        "ms",
        Some(format!("≥ {}", ms(th.lfs_unexplained_ms))),
        sysevent,
    ));
    evidence.push(ev(
        &format!(
            "expected group-commit queueing ({} × the write)",
            th.group_commit_queue_ratio
        ),
        c.queueing(th),
        "ms",
        None,
        sysevent,
    ));
    evidence.push(ev("log file sync avg", c.lfs, "ms", None, sysevent));
    evidence.push(ev(
        "slowest write (lfpw or remote)",
        c.path,
        "ms",
        None,
        sysevent,
    ));
    evidence.extend(broadcast_evidence(&c));
    Some(
        Draft {
            id: LGWR_CPU_STARVED,
            severity: Severity::Warn,
            title: format!(
                "{}LGWR and committers wait for CPU: log file sync {} but writes take {}; CPU {}",
                c.prefix(),
                ms(c.lfs),
                ms(c.path),
                c.cpu.map_or("–".into(), |x| format!("{} %", dgscope_model::display::busy_pct(x)))
            ),
            evidence,
            meaning: "When the host is saturated, LGWR waits for a CPU to start each write and committing sessions wait for a CPU to notice they were posted. log file sync then exceeds the write time by scheduler quanta (peaks near 10/20/30 ms), while log file parallel write stays fast. On RAC each instance has its own LGWR and host: one saturated node slows its own commits while the cluster's sums look fine.",
            advice: &[
                "Find what saturates the host (connection storms, runaway batch, other databases) and reduce it.",
                "Keep the run queue below the CPU count; a resource manager plan can protect foreground work.",
                "Raising LGWR's priority (_high_priority_processes) is a hidden parameter: only with Oracle Support's agreement.",
            ],
            // The scheduling delay beyond group-commit queueing, and the tail it makes: late
            // wake-ups by whole scheduler quanta are the long waits on a busy host.
            impact: weigh::commit(ctx, th, c.inst.as_ref().map(|i| i.0), |d| {
                (d.part(CommitPart::CpuScheduling) - weigh::queueing(d, th)).max(0.0)
                    + weigh::tail_of_cause(d, TailCause::Cpu)
            }),
        }
        .finish(ctx),
    )
}

pub(super) fn lgwr_write_slow(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let d = ctx.p()?;
    // On RAC each instance's LGWR writes its own thread: judge each, name the slowest.
    let lgwrs: Vec<(Option<Inst>, &Delta)> = if d.instances.is_empty() {
        vec![(None, d)]
    } else {
        d.instances
            .iter()
            .map(|(id, i)| (Some((*id, i.host.as_deref().map(String::from))), i))
            .collect()
    };
    // A large write legitimately takes longer: each threshold allows `lfpw_ms_per_mb` per
    // MB of the average write (batch loads write MBs at a time; OLTP tens of KB).
    let allowance = |x: &Delta| x.redo_write_kb().map_or(0.0, |kb| kb / 1024.0) * th.lfpw_ms_per_mb;
    let (inst, lfpw, p99, extra) = lgwrs
        .into_iter()
        .filter_map(|(inst, x)| {
            let lfpw = x.event_avg(event::LOG_FILE_PARALLEL_WRITE)?.0;
            let p99 = x
                .event(event::LOG_FILE_PARALLEL_WRITE)
                .and_then(|e| e.hist.percentile(0.99));
            Some((inst, lfpw, p99, allowance(x)))
        })
        .filter(|(_, lfpw, p99, extra)| {
            // In the open last bucket the bound is a lower one: over it is over the threshold.
            *lfpw >= th.lfpw_warn_ms + extra
                || p99.is_some_and(|p| p.ms() >= th.lfpw_p99_ms + extra)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let (warn_ms, p99_ms, crit_ms) = (
        th.lfpw_warn_ms + extra,
        th.lfpw_p99_ms + extra,
        th.lfpw_crit_ms + extra,
    );
    let prefix = match &inst {
        Some((id, h)) => format!(
            "{}: ",
            dgscope_model::display::instance_label(*id, h.as_deref())
        ),
        None => String::new(),
    };
    let (sysevent, hist) = if inst.is_some() {
        ("GV$SYSTEM_EVENT", "GV$EVENT_HISTOGRAM_MICRO")
    } else {
        (V_SYSTEM_EVENT, "V$EVENT_HISTOGRAM_MICRO")
    };
    // The threshold the average is judged by, with the allowance for the write size.
    let sized = |base: f64, at: f64| {
        if extra > 0.0 {
            format!(
                "≥ {} ({} + {} for the write size)",
                ms(at),
                ms(base),
                ms(extra)
            )
        } else {
            format!("≥ {}", ms(at))
        }
    };
    let mut evidence = vec![ev(
        "log file parallel write avg",
        lfpw,
        "ms",
        Some(sized(th.lfpw_warn_ms, warn_ms)),
        sysevent,
    )];
    if let Some(p) = p99 {
        evidence.push(ev(
            &format!("log file parallel write p99 {}", p.relation()),
            p.ms(),
            "ms",
            Some(sized(th.lfpw_p99_ms, p99_ms)),
            hist,
        ));
    }
    if let Some(w) = d.io(filetype::LOG_FILE).and_then(|io| io.w_await) {
        evidence.push(ev(
            "primary Log File w_await",
            w.0,
            "ms",
            None,
            "V$IOSTAT_FILE",
        ));
    }
    if let Some(kb) = d.redo_write_kb() {
        evidence.push(ev("redo per write", kb, "KB", None, "V$SYSSTAT"));
    }
    let severity = if lfpw >= crit_ms {
        Severity::Crit
    } else {
        Severity::Warn
    };
    // Below critical, logs that switch too often come first: each switch has the archiver
    // read the log just filled and a checkpoint write, on storage LGWR shares. The writes
    // are still named slow, under that finding.
    let switching = (severity == Severity::Warn)
        .then(|| super::config::switches_per_hour(ctx))
        .flatten()
        .filter(|s| s.1 > th.switches_per_hour);
    if let Some((thread, per_hour, _)) = switching {
        evidence.push(ev(
            &format!("log switches per hour on thread {thread}"),
            per_hour,
            "/h",
            Some(format!(
                "> {:.0} /h: each switch adds archiving and checkpoint I/O",
                th.switches_per_hour
            )),
            "V$LOG_HISTORY",
        ));
    }
    Some(
        Draft {
            id: LGWR_WRITE_SLOW,
            severity,
            title: format!(
                "{prefix}Local redo writes are slow: log file parallel write {}{}",
                ms(lfpw),
                p99.map(|p| format!(", p99 {} {} ms", p.relation(), p.ms()))
                    .unwrap_or_default()
            ),
            evidence,
            meaning: "log file parallel write is LGWR's own write to the online redo logs; every commit waits for it. Seed 001's storage SLA was 0.5 ms and it saw 1–3 ms, with a locking filesystem (VxFS without ODM) serialising the writes.",
            advice: &[
                "Put the online redo logs on the fastest storage, apart from datafiles and archive logs.",
                "Use direct/asynchronous I/O (ODM or filesystemio_options=SETALL) rather than a filesystem that locks per write.",
                "Check the I/O path's queue depth and other writers to the redo devices during the slow periods.",
            ],
            // The local write above a healthy one of its size.
            impact: weigh::commit(ctx, th, inst.as_ref().map(|i| i.0), |c| {
                weigh::above(
                    c,
                    CommitPart::LocalWrite,
                    th.healthy_local_write_ms + extra,
                )
            }),
        }
        .finish(ctx),
    )
    .map(|mut f| {
        f.caused_by = switching.map(|_| super::config::LOG_SWITCH_FREQUENT);
        f
    })
}

pub(super) fn lfs_outlier_skew(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let d = ctx.p()?;
    let e = d.event(event::LOG_FILE_SYNC)?;
    let h = &e.hist;
    if h.total() < th.outlier_min_waits {
        return None;
    }
    let below = h.share_below_ms(th.outlier_bound_ms)?;
    let outlier_share = 1.0 - below;
    let times = h.estimated_time_us();
    let total_time: f64 = times.iter().map(|t| t.1).sum();
    let outlier_time: f64 = times
        .iter()
        .filter(|t| dgscope_model::units::bound_ms(t.0) > th.outlier_bound_ms + 1e-9)
        .map(|t| t.1)
        .sum();
    if total_time <= 0.0 {
        return None;
    }
    let time_share = outlier_time / total_time;
    if !(outlier_share > 0.0
        && outlier_share <= th.outlier_max_wait_share
        && time_share >= th.outlier_min_time_share)
    {
        return None;
    }
    let p = |q: f64| h.percentile(q);
    let pct_ev = |label: &str, q: f64| {
        let p = p(q);
        ev(
            &format!("log file sync {label} {}", p.map_or("≤", |p| p.relation())),
            p.map_or(f64::NAN, |p| p.ms()),
            "ms",
            None,
            "V$EVENT_HISTOGRAM_MICRO",
        )
    };
    let bound = th.outlier_bound_ms;
    Some(
        Draft {
            id: LFS_OUTLIER_SKEW,
            severity: Severity::Info,
            title: format!(
                "log file sync average is skewed by outliers: {} % of waits < {bound} ms",
                dgscope_model::units::pct(below * 100.0)
            ),
            evidence: vec![
                ev(&format!("waits < {bound} ms"), below * 100.0, "%", None, "V$EVENT_HISTOGRAM_MICRO"),
                ev(
                    &format!("waits ≥ {bound} ms"),
                    outlier_share * 100.0,
                    "%",
                    Some(format!("≤ {:.0} %", th.outlier_max_wait_share * 100.0)),
                    "V$EVENT_HISTOGRAM_MICRO",
                ),
                ev(
                    &format!("estimated wait time in waits ≥ {bound} ms"),
                    time_share * 100.0,
                    "%",
                    Some(format!("≥ {:.0} %", th.outlier_min_time_share * 100.0)),
                    "V$EVENT_HISTOGRAM_MICRO",
                ),
                pct_ev("p50", 0.5),
                pct_ev("p90", 0.9),
            ],
            meaning: "A few long waits carry most of the wait time, so the log file sync average describes almost no commit. Seed 000's SYNC histogram had 91.4 % of waits under 8 ms while the average looked alarming. Judge SYNC's impact by TPS and redo rate, and chase the outliers separately.",
            advice: &[
                "Judge the impact of SYNC by TPS and redo rate, not by the log file sync average.",
                "Find what causes the outliers: I/O hiccups, log switches (each forces a standby checkpoint), network blips.",
            ],
            impact: weigh::commit(ctx, th, None, |c| c.part(CommitPart::Tail)),
        }
        .finish(ctx),
    )
}
