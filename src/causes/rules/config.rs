//! Causes in the configuration and the storage: log sizes and switches, standby redo logs,
//! the log buffer, standby disks (seed 000, seed 001, Data Guard docs).

use super::{ev, ms, Draft};
use crate::causes::context::Context;
use crate::causes::finding::{Finding, Severity};
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use crate::sample::names::{event, filetype};
use std::collections::BTreeMap;

pub const LOG_SWITCH_FREQUENT: &str = "log-switch-frequent";
pub const STANDBY_IO_SATURATED: &str = "standby-io-saturated";
pub const SRL_CONFIG: &str = "srl-config";
pub const REDO_SIZING: &str = "redo-sizing";

const MB: f64 = 1048576.0;

/// Switches per hour of the busiest thread, from the switches of the last hour. A short
/// history is scaled by the span it covers (the gaps between switches), so a fresh instance
/// is judged by its pace, not by its age.
pub(crate) fn switches_per_hour(ctx: &Context) -> Option<(u32, f64, usize)> {
    let p = ctx.p_last()?;
    let switches = p.switches.as_ref()?;
    let hour_ago = p.t.add_millis(-3_600_000);
    let mut by_thread: BTreeMap<u32, Vec<crate::timestamp::Timestamp>> = BTreeMap::new();
    for s in switches
        .iter()
        .filter(|s| s.time >= hour_ago && s.time <= p.t)
    {
        by_thread.entry(s.thread).or_default().push(s.time);
    }
    by_thread
        .into_iter()
        .filter_map(|(thread, mut times)| {
            times.sort();
            let n = times.len();
            if n < 2 {
                return None;
            }
            let span = times[n - 1].secs_since(times[0]);
            (span > 0.0).then(|| (thread, (n - 1) as f64 * 3600.0 / span, n))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

pub fn log_switch_frequent(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (thread, per_hour, n) = switches_per_hour(ctx)?;
    if per_hour <= th.switches_per_hour {
        return None;
    }
    let minutes_per_log = 60.0 / per_hour;
    let mut evidence = vec![ev(
        &format!("log switches per hour (thread {thread}, {n} in the last hour)"),
        per_hour,
        "/h",
        Some(format!(
            "> {:.0} /h (a log should last ≥ 10 min)",
            th.switches_per_hour
        )),
        "V$LOG_HISTORY",
    )];
    let orl_mb = ctx
        .p_last()
        .and_then(|s| s.logs.as_ref())
        .and_then(|l| l.online.iter().map(|g| g.bytes).max())
        .map(|b| b as f64 / MB);
    if let Some(mb) = orl_mb {
        evidence.push(ev("online redo log size", mb, "MB", None, "V$LOG"));
    }
    let redo = ctx.p.as_ref().and_then(|d| d.redo_mb_s());
    if let Some(r) = redo {
        evidence.push(ev("redo rate", r, "MB/s", None, "V$SYSSTAT"));
        evidence.push(ev(
            "log size for 20 min at this rate",
            r * 1200.0,
            "MB",
            None,
            "V$SYSSTAT",
        ));
    }
    evidence.push(ev(
        "time per log",
        minutes_per_log,
        "min",
        None,
        "V$LOG_HISTORY",
    ));
    // What the switches cost commits: the part of the log file sync average carried by waits
    // of 8 ms and more (standby checkpoint bursts after each switch).
    let tail_ms = ctx
        .p
        .as_ref()
        .and_then(|d| d.event(event::LOG_FILE_SYNC))
        .filter(|e| e.waits > 0)
        .map(|e| {
            let tail: f64 = e
                .hist
                .estimated_time_us()
                .iter()
                .filter(|t| crate::units::bound_ms(t.0) > th.outlier_bound_ms)
                .map(|t| t.1)
                .sum();
            tail / e.hist.total().max(1) as f64 / 1000.0
        })
        .unwrap_or(0.0);
    Some(
        Draft {
            id: LOG_SWITCH_FREQUENT,
            severity: Severity::Warn,
            title: format!(
                "Logs switch too often: {per_hour:.0} per hour on thread {thread} (one every {minutes_per_log:.1} min){}",
                orl_mb.map(|m| format!(", {m:.0} MB logs")).unwrap_or_default()
            ),
            evidence,
            meaning: "Each log switch makes the standby finish its standby redo log and run a full checkpoint, a burst of write I/O that slows RFS writes (and so SYNC commits) for seconds. MAA and seed 000 name frequent switches as a main source of log file sync outliers; logs should last 15–20 minutes at peak redo.",
            check: &[V::LogSwitches, V::OrlLayout, V::SrlLayout],
            advice: &[
                "Size online and standby redo logs so one lasts at least 15–20 minutes at peak redo rate (size ≈ peak MB/s × 1200).",
                "Resize the SRLs to the same size as the new ORLs, with one more group per thread.",
                "Avoid forced switches (ARCHIVE_LAG_TARGET too low, frequent manual switches).",
            ],
            explains: tail_ms.max(0.01),
        }
        .finish(ctx),
    )
}

pub fn standby_io_saturated(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let mut worst: Option<(&str, f64, f64)> = None;
    let mut saturated = 0;
    for ft in [filetype::LOG_FILE, filetype::DATA_FILE] {
        if let (Some(p), Some(s)) = ctx.w_await(ft) {
            if s >= th.io_await_min_ms && s >= th.io_await_ratio * p {
                saturated += 1;
                if worst.is_none_or(|w| s - p > w.1 - w.2) {
                    worst = Some((ft, s, p));
                }
            }
        }
    }
    let (ft, s, p) = worst?;
    let mut evidence = vec![];
    for f in [filetype::LOG_FILE, filetype::DATA_FILE] {
        if let (Some(pw), Some(sw)) = ctx.w_await(f) {
            evidence.push(ev(
                &format!("standby {f} w_await"),
                sw,
                "ms",
                Some(format!(
                    "≥ {} × primary ({}) and ≥ {}",
                    th.io_await_ratio,
                    ms(pw),
                    ms(th.io_await_min_ms)
                )),
                "V$IOSTAT_FILE",
            ));
            evidence.push(ev(
                &format!("primary {f} w_await"),
                pw,
                "ms",
                None,
                "V$IOSTAT_FILE",
            ));
        }
    }
    if let Some(io) = ctx.s.as_ref().and_then(|d| d.io(ft)) {
        evidence.push(ev(
            &format!("standby {ft} writes"),
            io.w_s,
            "/s",
            None,
            "V$IOSTAT_FILE",
        ));
    }
    // When both redo and data files are slow on the standby, its storage as a whole is the
    // cause, and the slow RFS writes are a symptom of it.
    let rfs = ctx.rfs().unwrap_or(0.0);
    let explains = if saturated >= 2 {
        (s - p).max(rfs + 0.01)
    } else {
        s - p
    };
    Some(
        Draft {
            id: STANDBY_IO_SATURATED,
            severity: Severity::Warn,
            title: format!(
                "Standby storage is slower than the primary's: {ft} writes {} vs {} on the primary",
                ms(s),
                ms(p)
            ),
            evidence,
            meaning: "The standby's disks take much longer per write than the primary's for the same kind of file. Redo receipt (and with SYNC AFFIRM every commit) and redo apply run at the speed of the standby's storage; seed 000 found the standby's redo logs on a slower disk.",
            check: &[V::IoByFiletype, V::RfsLatency, V::SrlLayout],
            advice: &[
                "Look for other work on the standby host's storage: backups, other databases, reporting.",
                "Match the standby's storage to the primary's, especially for standby redo logs.",
            ],
            explains,
        }
        .finish(ctx),
    )
}

pub fn srl_config(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let standby_logs = ctx.s_last()?.logs.as_ref()?;
    let online = ctx.p_last()?.logs.as_ref()?;
    if online.online.is_empty() {
        return None;
    }
    let mut problems = Vec::new();
    let mut evidence = Vec::new();
    let mut severity = Severity::Info;
    // An SRL of thread 0 is not yet assigned: RFS takes it for whichever thread needs one, so
    // it counts for every thread.
    let unassigned = standby_logs
        .standby
        .iter()
        .filter(|l| l.thread == 0)
        .count();
    let threads: std::collections::BTreeSet<u32> = online.online.iter().map(|l| l.thread).collect();
    for t in threads {
        let orl = online.online.iter().filter(|l| l.thread == t).count();
        let own = standby_logs
            .standby
            .iter()
            .filter(|l| l.thread == t)
            .count();
        let srl = own + unassigned;
        if srl < orl + 1 {
            problems.push(format!(
                "thread {t}: {srl} SRL groups{} for {orl} ORL groups",
                if unassigned > 0 {
                    format!(" ({unassigned} unassigned)")
                } else {
                    String::new()
                }
            ));
            evidence.push(ev(
                &format!("SRL groups usable by thread {t}"),
                srl as f64,
                "",
                Some(format!("≥ ORL groups + 1 = {}", orl + 1)),
                "V$STANDBY_LOG",
            ));
        }
    }
    let orl_bytes = online.online.iter().map(|l| l.bytes).max().unwrap_or(0);
    // Smaller than the largest online log: a log that does not fit is archived directly and
    // real-time apply stops for it (WARN). Larger works but wastes space (INFO).
    if let Some(l) = standby_logs
        .standby
        .iter()
        .filter(|l| l.bytes < orl_bytes)
        .min_by_key(|l| l.bytes)
    {
        severity = Severity::Warn;
        problems.push(format!(
            "SRL of {:.0} MB smaller than the largest ORL ({:.0} MB)",
            l.bytes as f64 / MB,
            orl_bytes as f64 / MB
        ));
        evidence.push(ev(
            "smallest SRL",
            l.bytes as f64 / MB,
            "MB",
            Some(format!("≥ largest ORL ({:.0} MB)", orl_bytes as f64 / MB)),
            "V$STANDBY_LOG",
        ));
    } else if let Some(l) = standby_logs.standby.iter().find(|l| l.bytes != orl_bytes) {
        problems.push(format!(
            "SRL size {:.0} MB ≠ ORL size {:.0} MB",
            l.bytes as f64 / MB,
            orl_bytes as f64 / MB
        ));
        evidence.push(ev(
            "SRL size",
            l.bytes as f64 / MB,
            "MB",
            Some(format!("= ORL size ({:.0} MB)", orl_bytes as f64 / MB)),
            "V$STANDBY_LOG",
        ));
    }
    if let Some(m) = standby_logs
        .standby
        .iter()
        .map(|l| l.members)
        .max()
        .filter(|&m| m > 1)
    {
        problems.push(format!("{m} members per SRL group"));
        evidence.push(ev(
            "SRL members per group",
            f64::from(m),
            "",
            Some("1".into()),
            "V$LOGFILE",
        ));
    }
    if problems.is_empty() {
        return None;
    }
    Some(
        Draft {
            id: SRL_CONFIG,
            severity,
            title: format!("Standby redo log layout differs from the recommendation: {}", problems.join("; ")),
            evidence,
            meaning: "Data Guard wants one more standby redo log group per thread than online log groups (unassigned SRLs, thread 0, serve any thread), each at least as large as the largest online log and preferably the same size; a log that finds no fitting SRL is written as an archive log instead and real-time apply waits for it. Every extra member is another write the SRL write waits for (seed 000). Block sizes of SRLs and ORLs must match too (V$STANDBY_LOG.BLOCKSIZE, V$LOG.BLOCKSIZE).",
            check: &[V::SrlLayout, V::OrlLayout],
            advice: &[
                "Add standby redo log groups until each thread has one more than its online groups.",
                "Recreate SRLs at the ORL size (never smaller than the largest ORL) and with the same block size, with a single member on fast storage.",
            ],
            explains: 0.0,
        }
        .finish(ctx),
    )
}

pub fn redo_sizing(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let p = ctx.p_last()?;
    let mut problems = Vec::new();
    let mut evidence = Vec::new();
    if let Some(lb) = p
        .params
        .as_ref()
        .and_then(|m| m.get("log_buffer"))
        .and_then(|v| v.trim().parse::<f64>().ok())
    {
        let mb = lb / MB;
        // No upper bound: large SGAs and MAA configurations use 256 MB and more.
        if mb < th.log_buffer_min_mb {
            problems.push(format!("log_buffer {mb:.0} MB"));
            evidence.push(ev(
                "log_buffer",
                mb,
                "MB",
                Some(format!("≥ {:.0} MB", th.log_buffer_min_mb)),
                "V$PARAMETER",
            ));
        }
    }
    if let Some(min) = p
        .logs
        .as_ref()
        .and_then(|l| l.online.iter().map(|g| g.bytes).min())
    {
        let mb = min as f64 / MB;
        if mb < th.orl_min_mb {
            problems.push(format!("online logs of {mb:.0} MB"));
            evidence.push(ev(
                "smallest online redo log",
                mb,
                "MB",
                Some(format!("≥ {:.0} MB", th.orl_min_mb)),
                "V$LOG",
            ));
        }
    }
    if problems.is_empty() {
        return None;
    }
    Some(
        Draft {
            id: REDO_SIZING,
            severity: Severity::Info,
            title: format!("Redo sizing outside the usual ranges: {}", problems.join(", ")),
            evidence,
            meaning: "Seed 001 recommends a log_buffer of at least 16 MB for busy OLTP (large SGAs and MAA configurations use 256 MB and more, which is fine); Oracle's guidance puts online redo logs at 300 MB or more, sized by peak redo rate.",
            check: &[V::RedoSizing, V::OrlLayout],
            advice: &[
                "Set log_buffer to at least 16 MB (a restart is needed).",
                "Size online redo logs by peak redo rate so a log lasts 15–20 minutes.",
            ],
            explains: 0.0,
        }
        .finish(ctx),
    )
}
