//! Causes on the commit path: where `log file sync` time goes (seed 000, seed 001).

use super::{ev, ms, Draft};
use crate::causes::context::Context;
use crate::causes::finding::{Finding, Severity};
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use crate::sample::names::{event, filetype, os, stat};

pub const STANDBY_REDO_WRITE_SLOW: &str = "standby-redo-write-slow";
pub const NETWORK_LATENCY: &str = "network-latency";
pub const ADAPTIVE_LFS_POLLING: &str = "adaptive-lfs-polling";
pub const LGWR_CPU_STARVED: &str = "lgwr-cpu-starved";
pub const LGWR_WRITE_SLOW: &str = "lgwr-write-slow";
pub const LFS_OUTLIER_SKEW: &str = "lfs-outlier-skew";

const V_SYSTEM_EVENT: &str = "V$SYSTEM_EVENT";

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

pub fn standby_redo_write_slow(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let dest = ctx.sync_dest().filter(|d| d.affirm)?;
    let (remote, lfpw, rfs) = (ctx.remote()?, ctx.lfpw()?, ctx.rfs()?);
    let holds = remote >= th.remote_min_ms
        && remote >= th.remote_vs_lfpw_ratio * lfpw
        && rfs >= th.rfs_share_of_remote * remote;
    if !holds {
        return None;
    }
    let mut evidence = vec![
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
        ev(
            "RFS random i/o avg (standby)",
            rfs,
            "ms",
            Some(format!(
                "≥ {:.0} % of SYNC Remote Write",
                th.rfs_share_of_remote * 100.0
            )),
            V_SYSTEM_EVENT,
        ),
    ];
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
    let severity = if remote >= th.remote_crit_ms {
        Severity::Crit
    } else {
        Severity::Warn
    };
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
                "Standby redo log writes are slow: SYNC Remote Write {} vs log file parallel write {} on the primary; RFS random i/o {}{}",
                ms(remote),
                ms(lfpw),
                ms(rfs),
                dest.name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default()
            ),
            evidence,
            meaning: "With SYNC AFFIRM every commit waits until the standby's RFS has written the redo into a standby redo log. When that write is slower than the primary's own log write, the standby's disk sets the commit time. Seed 000 shows 2-member SRLs on a slow disk: RFS 2.89 ms, log file sync 4.60 ms and TPS −20 %; after moving to one member on fast storage RFS fell to 0.89 ms.",
            check: &[V::CommitPathAverages, V::RfsLatency, V::SrlLayout, V::IoByFiletype],
            advice: &[],
            // The SRL write's part of the time a commit waits beyond its local write.
            explains: rfs.min(remote - lfpw),
        }
        .finish_advising(ctx, advice)
        .with_mode_advice(ctx, &[ModeChange::FastSync]),
    )
}

pub fn network_latency(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let dest = ctx.sync_dest()?;
    let remote = ctx.remote()?;
    let rfs = ctx.rfs();
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
    Some(
        Draft {
            id: NETWORK_LATENCY,
            severity: Severity::Warn,
            title: format!(
                "The network dominates SYNC: {} of the {} remote write is not the standby's disk ({})",
                ms(network),
                ms(remote),
                if dest.affirm { "SYNC AFFIRM" } else { "SYNC NOAFFIRM" }
            ),
            evidence,
            meaning: "SYNC Remote Write is the round trip to the standby plus, with AFFIRM, the standby's redo log write. What is left after the RFS write is network: distance, congestion or small socket buffers. MAA expects a SYNC round trip under 5 ms; every millisecond adds to every commit.",
            check: &[V::CommitPathAverages, V::RfsLatency, V::DestConfig],
            advice: &[
                "Measure the path with oratcptest; compare with the round trip the application can afford.",
                "Size socket buffers (SDU, RECV_BUF_SIZE/SEND_BUF_SIZE) to at least 3 × bandwidth-delay product.",
            ],
            explains: network.min(remote - ctx.lfpw().unwrap_or(0.0)),
        }
        .finish(ctx)
        .with_mode_advice(ctx, &[ModeChange::FastSync, ModeChange::Async]),
    )
}

/// `lfs − max(lfpw, remote)`: the part of a commit's wait that no write explains.
fn unexplained(ctx: &Context) -> Option<(f64, f64, f64)> {
    let lfs = ctx.lfs()?;
    let path = ctx.write_path()?;
    Some((lfs, path, lfs - path))
}

fn polled_writes(ctx: &Context) -> Option<u64> {
    ctx.p.as_ref()?.stat(stat::REDO_SYNCH_POLL_WRITES)
}

pub fn adaptive_lfs_polling(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let polled = polled_writes(ctx).filter(|&n| n > 0)?;
    let (lfs, path, extra) = unexplained(ctx)?;
    if !(lfs >= th.lfs_vs_write_ratio * path && extra >= th.lfs_unexplained_ms) {
        return None;
    }
    let secs = ctx.window_len_s().unwrap_or(1.0).max(1e-9);
    let mut evidence = vec![
        ev(
            "redo synch poll writes",
            polled as f64 / secs,
            "/s",
            Some("> 0".into()),
            "V$SYSSTAT",
        ),
        ev(
            "log file sync avg",
            lfs,
            "ms",
            Some(format!(
                "≥ {} × slowest write ({})",
                th.lfs_vs_write_ratio,
                ms(path)
            )),
            V_SYSTEM_EVENT,
        ),
        ev(
            "slowest write (lfpw or remote)",
            path,
            "ms",
            None,
            V_SYSTEM_EVENT,
        ),
    ];
    if let Some(share) = ctx.p.as_ref().and_then(|d| d.polling_share()) {
        evidence.push(ev(
            "share of sync writes that polled",
            share * 100.0,
            "%",
            None,
            "V$SYSSTAT",
        ));
    }
    Some(
        Draft {
            id: ADAPTIVE_LFS_POLLING,
            severity: Severity::Warn,
            title: format!(
                "Sessions poll for commit completion: log file sync {} vs {} writes, {:.0} polled writes/s",
                ms(lfs),
                ms(path),
                polled as f64 / secs
            ),
            evidence,
            meaning: "Adaptive log file sync (11.2.0.3+) switches foreground sessions from being posted by LGWR to sleeping and polling. A session then sees its commit only at its next poll, so log file sync grows towards the poll interval while the writes stay fast. Seed 001 saw 7–8 ms log file sync with 1–3 ms writes; disabling the feature brought it to about 3 ms.",
            check: &[V::PollingStats, V::CommitPathAverages, V::LfsHistogram],
            advice: &[
                "Confirm in the LGWR trace file: lines like 'Log file sync switching to polling'.",
                "_use_adaptive_log_file_sync=FALSE keeps post/wait. It is a hidden parameter: change it only with Oracle Support's agreement.",
                "Fix what made LGWR slow enough to trigger the switch (write latency, CPU) so it does not recur.",
            ],
            explains: extra,
        }
        .finish(ctx),
    )
}

pub fn lgwr_cpu_starved(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    if polled_writes(ctx).is_some_and(|n| n > 0) {
        return None;
    }
    let d = ctx.p.as_ref()?;
    let cpu = d.cpu_busy_pct();
    let load = d.os.get(os::LOAD).copied();
    let cpus = d.os.get(os::NUM_CPUS).copied();
    let busy = cpu.is_some_and(|c| c >= th.cpu_busy_pct)
        || matches!((load, cpus), (Some(l), Some(n)) if n > 0.0 && l >= n);
    let (lfs, path, extra) = unexplained(ctx)?;
    if !(busy && extra >= th.lfs_unexplained_ms) {
        return None;
    }
    let mut evidence = vec![];
    if let Some(c) = cpu {
        evidence.push(ev(
            "host CPU busy",
            c,
            "%",
            Some(format!("≥ {:.0} %", th.cpu_busy_pct)),
            "V$OSSTAT",
        ));
    }
    if let (Some(l), Some(n)) = (load, cpus) {
        evidence.push(ev(
            "load average",
            l,
            "",
            Some(format!("≥ NUM_CPUS ({n:.0})")),
            "V$OSSTAT",
        ));
    }
    evidence.push(ev(
        "log file sync not explained by writes",
        extra,
        "ms",
        Some(format!("≥ {}", ms(th.lfs_unexplained_ms))),
        V_SYSTEM_EVENT,
    ));
    evidence.push(ev("log file sync avg", lfs, "ms", None, V_SYSTEM_EVENT));
    evidence.push(ev(
        "slowest write (lfpw or remote)",
        path,
        "ms",
        None,
        V_SYSTEM_EVENT,
    ));
    Some(
        Draft {
            id: LGWR_CPU_STARVED,
            severity: Severity::Warn,
            title: format!(
                "LGWR and committers wait for CPU: log file sync {} but writes take {}; CPU {}",
                ms(lfs),
                ms(path),
                cpu.map_or("–".into(), |c| format!("{c:.0} %"))
            ),
            evidence,
            meaning: "When the host is saturated, LGWR waits for a CPU to start each write and committing sessions wait for a CPU to notice they were posted. log file sync then exceeds the write time by scheduler quanta (peaks near 10/20/30 ms), while log file parallel write stays fast.",
            check: &[V::CpuLoad, V::CommitPathAverages, V::LfsHistogram],
            advice: &[
                "Find what saturates the host (connection storms, runaway batch, other databases) and reduce it.",
                "Keep the run queue below the CPU count; a resource manager plan can protect foreground work.",
                "Raising LGWR's priority (_high_priority_processes) is a hidden parameter: only with Oracle Support's agreement.",
            ],
            explains: extra,
        }
        .finish(ctx),
    )
}

pub fn lgwr_write_slow(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let d = ctx.p.as_ref()?;
    let lfpw = ctx.lfpw()?;
    let p99 = d
        .event(event::LOG_FILE_PARALLEL_WRITE)
        .and_then(|e| e.hist.percentile_ms(0.99));
    if !(lfpw >= th.lfpw_warn_ms || p99.is_some_and(|p| p >= th.lfpw_p99_ms)) {
        return None;
    }
    let mut evidence = vec![ev(
        "log file parallel write avg",
        lfpw,
        "ms",
        Some(format!("≥ {}", ms(th.lfpw_warn_ms))),
        V_SYSTEM_EVENT,
    )];
    if let Some(p) = p99 {
        evidence.push(ev(
            "log file parallel write p99 ≤",
            p,
            "ms",
            Some(format!("≥ {}", ms(th.lfpw_p99_ms))),
            "V$EVENT_HISTOGRAM_MICRO",
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
    let severity = if lfpw >= th.lfpw_crit_ms {
        Severity::Crit
    } else {
        Severity::Warn
    };
    Some(
        Draft {
            id: LGWR_WRITE_SLOW,
            severity,
            title: format!(
                "Local redo writes are slow: log file parallel write {}{}",
                ms(lfpw),
                p99.map(|p| format!(", p99 ≤ {p} ms")).unwrap_or_default()
            ),
            evidence,
            meaning: "log file parallel write is LGWR's own write to the online redo logs; every commit waits for it. Seed 001's storage SLA was 0.5 ms and it saw 1–3 ms, with a locking filesystem (VxFS without ODM) serialising the writes.",
            check: &[V::LfpwHistogram, V::CommitPathAverages, V::IoByFiletype, V::OrlLayout],
            advice: &[
                "Put the online redo logs on the fastest storage, apart from datafiles and archive logs.",
                "Use direct/asynchronous I/O (ODM or filesystemio_options=SETALL) rather than a filesystem that locks per write.",
                "Check the I/O path's queue depth and other writers to the redo devices during the slow periods.",
            ],
            explains: lfpw,
        }
        .finish(ctx),
    )
}

pub fn lfs_outlier_skew(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let d = ctx.p.as_ref()?;
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
        .filter(|t| crate::units::bound_ms(t.0) > th.outlier_bound_ms + 1e-9)
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
    let p = |q: f64| h.percentile_ms(q).unwrap_or(f64::NAN);
    let bound = th.outlier_bound_ms;
    Some(
        Draft {
            id: LFS_OUTLIER_SKEW,
            severity: Severity::Info,
            title: format!(
                "log file sync average is skewed by outliers: {} % of waits < {bound} ms",
                crate::units::pct(below * 100.0)
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
                ev("log file sync p50 ≤", p(0.5), "ms", None, "V$EVENT_HISTOGRAM_MICRO"),
                ev("log file sync p90 ≤", p(0.9), "ms", None, "V$EVENT_HISTOGRAM_MICRO"),
            ],
            meaning: "A few long waits carry most of the wait time, so the log file sync average describes almost no commit. Seed 000's SYNC histogram had 91.4 % of waits under 8 ms while the average looked alarming. Judge SYNC's impact by TPS and redo rate, and chase the outliers separately.",
            check: &[V::LfsHistogram, V::LogSwitches],
            advice: &[
                "Judge the impact of SYNC by TPS and redo rate, not by the log file sync average.",
                "Find what causes the outliers: I/O hiccups, log switches (each forces a standby checkpoint), network blips.",
            ],
            explains: e.avg().map_or(0.0, |a| a.0 * time_share),
        }
        .finish(ctx),
    )
}
