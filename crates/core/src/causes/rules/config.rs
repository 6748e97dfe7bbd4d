//! Causes in the configuration and the storage: log sizes and switches, standby redo logs,
//! the log buffer, standby disks (seed 000, seed 001, Data Guard docs).

use super::spec::{Reads, RuleSpec, BASE};
use super::{ev, ms, weigh, Draft};
use crate::causes::context::Context;
use crate::causes::finding::{Finding, Severity};
use crate::causes::impact::FindingKind;
use crate::causes::rates;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::sample::names::{event, filetype};
use dgscope_model::sample::vocab::whatif::Change;

pub(super) const LOG_SWITCH_FREQUENT: &str = "log-switch-frequent";
pub(super) const STANDBY_IO_SATURATED: &str = "standby-io-saturated";
pub(super) const SRL_CONFIG: &str = "srl-config";
pub(super) const REDO_SIZING: &str = "redo-sizing";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: LOG_SWITCH_FREQUENT,
        eval: log_switch_frequent,
        severity: "WARN",
        reads: &[Reads::Latest],
        what_ifs: |_| vec![Change::LogsFor20Min],
        verify: &[V::LogSwitches, V::OrlLayout, V::SrlLayout],
        ..BASE
    },
    RuleSpec {
        id: STANDBY_IO_SATURATED,
        eval: standby_io_saturated,
        severity: "WARN",
        // About the standby the commit path waits on, compared with the primary: judged
        // once, with the first standby.
        standby_judged: true,
        verify: &[V::IoByFiletype, V::RfsLatency, V::SrlLayout],
        ..BASE
    },
    RuleSpec {
        id: SRL_CONFIG,
        eval: srl_config,
        severity: "WARN if an SRL is smaller than the largest online log, else INFO",
        standby_judged: true,
        reads: &[Reads::Latest],
        verify: &[V::SrlLayout, V::OrlLayout],
        ..BASE
    },
    RuleSpec {
        id: REDO_SIZING,
        eval: redo_sizing,
        severity: "INFO",
        finding: FindingKind::Info,
        reads: &[Reads::Latest],
        verify: &[V::RedoSizing, V::OrlLayout],
        ..BASE
    },
];

const MB: f64 = 1048576.0;

/// Switches per hour of the busiest thread (thread, per hour, switches in the last hour),
/// from [`rates::switch_rates`]: the one computation the screen's total uses too.
pub(crate) fn switches_per_hour(ctx: &Context) -> Option<(u32, f64, usize)> {
    rates::busiest(&rates::primary_switch_rates(ctx)).map(|b| (b.thread, b.per_hour, b.in_hour))
}

pub(super) fn log_switch_frequent(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let (thread, per_hour, n) = switches_per_hour(ctx)?;
    if per_hour <= th.switches_per_hour {
        return None;
    }
    let all = rates::primary_switch_rates(ctx);
    let total = rates::total_per_hour(&all);
    let secs_per_log = 3600.0 / per_hour;
    // Every rate says whose it is: the busiest thread's, or all threads' together (the
    // screen's "/h total" is the same figure, from the same function).
    let mut evidence = vec![ev(
        &format!("log switches per hour on thread {thread} ({n} in the last hour)"),
        per_hour,
        "/h",
        Some(format!(
            "> {:.0} /h per thread (a log should last ≥ 10 min)",
            th.switches_per_hour
        )),
        "V$LOG_HISTORY",
    )];
    if all.len() > 1 {
        evidence.push(ev(
            &format!("log switches per hour in total ({} threads)", all.len()),
            total,
            "/h",
            None,
            "V$LOG_HISTORY",
        ));
    }
    let orl_mb = ctx
        .p_last()
        .and_then(|s| s.logs.as_ref())
        .and_then(|l| l.online.iter().map(|g| g.bytes).max())
        .map(|b| b as f64 / MB);
    if let Some(mb) = orl_mb {
        evidence.push(ev("online redo log size", mb, "MB", None, "V$LOG"));
    }
    let sizing = rates::log_size_for(ctx, 20.0);
    if let Some(z) = sizing {
        evidence.push(ev(
            "redo rate, all threads",
            z.total_mb_s,
            "MB/s",
            None,
            "V$SYSSTAT",
        ));
        if let Some(t) = z.thread.filter(|_| all.len() > 1) {
            evidence.push(ev(
                &format!("redo rate of thread {t} (its share of the log bytes switched)"),
                z.thread_mb_s,
                "MB/s",
                None,
                "V$SYSSTAT, V$LOG_HISTORY",
            ));
        }
        evidence.push(ev(
            &match z.thread {
                Some(t) => format!("log size for 20 min on thread {t} at the window's redo rate"),
                None => "log size for 20 min per thread at the window's redo rate".to_string(),
            },
            z.mb,
            "MB",
            None,
            "V$SYSSTAT",
        ));
    }
    evidence.push(ev(
        &format!("time per log on thread {thread}"),
        secs_per_log,
        "s",
        None,
        "V$LOG_HISTORY",
    ));
    // What the switches cost now: the sessions' waits on the switches themselves (log
    // file switch completion, checkpoint incomplete, private strand flush incomplete), a
    // part of the redo stalls. Sizing is a risk beyond that: each switch is also a
    // checkpoint on the standby.
    let switch_s: f64 = ctx.p().map_or(0.0, |d| {
        [
            event::LOG_FILE_SWITCH_COMPLETION,
            event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
            "log file switch (private strand flush incomplete)",
        ]
        .iter()
        .map(|n| weigh::fg_secs(d, n))
        .sum()
    });
    Some(
        Draft {
            id: LOG_SWITCH_FREQUENT,
            severity: Severity::Warn,
            title: format!(
                "Logs switch too often: {per_hour:.0} per hour on thread {thread} (one every {}){}{}",
                dgscope_model::display::dur(secs_per_log),
                if all.len() > 1 {
                    format!(", {total:.0} per hour in total")
                } else {
                    String::new()
                },
                orl_mb.map(|m| format!(", {m:.0} MB logs")).unwrap_or_default()
            ),
            evidence,
            meaning: "Each log switch makes the standby finish its standby redo log and run a full checkpoint, a burst of write I/O that slows RFS writes (and so SYNC commits) for seconds. MAA and seed 000 name frequent switches as a main source of log file sync outliers; logs should last 15–20 minutes at peak redo.",
            advice: &[],
            impact: weigh::redo_stall(ctx, switch_s),
        }
        .finish_advising(ctx, vec![
            format!(
                "Size online and standby redo logs so one lasts at least 15–20 minutes on its thread at peak redo (size ≈ the thread's peak MB/s × 1200){}.",
                sizing.map(|z| format!("; at this window's rate that is about {}", dgscope_model::display::evidence_value(z.mb, "MB"))).unwrap_or_default()
            ),
            "Resize the SRLs to the same size as the new ORLs, keeping one more SRL group per thread than ORL groups.".into(),
            "Avoid forced switches (ARCHIVE_LAG_TARGET too low, frequent manual switches).".into(),
        ]),
    )
}

/// The standby's file types whose writes are saturated against the primary's: `(file type,
/// standby w_await, primary w_await)`, worst first. A handful of slow requests in the window
/// is no saturation: the standby's average counts only over enough writes.
pub(super) fn saturated_file_types<'a>(ctx: &Context, th: &Thresholds) -> Vec<(&'a str, f64, f64)> {
    let writes = |ft: &str| {
        ctx.s_io()
            .and_then(|d| d.iostat.get(ft))
            .map_or(0, |io| io.wreq)
    };
    let mut out: Vec<(&str, f64, f64)> = [filetype::LOG_FILE, filetype::DATA_FILE]
        .into_iter()
        .filter_map(|ft| {
            let (Some(p), Some(s)) = ctx.w_await(ft) else {
                return None;
            };
            (s >= th.io_await_min_ms
                && s >= th.io_await_ratio * p
                && writes(ft) >= th.io_min_writes)
                .then_some((ft, s, p))
        })
        .collect();
    out.sort_by(|a, b| (b.1 - b.2).total_cmp(&(a.1 - a.2)));
    out
}

pub(super) fn standby_io_saturated(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let worst = saturated_file_types(ctx, th).first().copied();
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
    if let Some(io) = ctx.s().and_then(|d| d.io(ft)) {
        evidence.push(ev(
            &format!("standby {ft} writes"),
            io.w_s,
            "/s",
            None,
            "V$IOSTAT_FILE",
        ));
    }
    evidence.push(ev(
        &format!("standby {ft} write requests in the window"),
        ctx.s_io()
            .and_then(|d| d.iostat.get(ft))
            .map_or(0, |io| io.wreq) as f64,
        "",
        Some(format!("≥ {}", th.io_min_writes)),
        "V$IOSTAT_FILE",
    ));
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
            advice: &[
                "Look for other work on the standby host's storage: backups, other databases, reporting.",
                "Match the standby's storage to the primary's, especially for standby redo logs.",
            ],
            // A mismatch of storage is a risk to SYNC commits and apply (and to the
            // database after a role change), weighed in time by the findings of those.
            impact: weigh::risk(),
        }
        .finish(ctx),
    )
}

/// A thread with fewer usable SRL groups than its online groups + 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ShortThread {
    pub thread: u32,
    /// SRL groups usable by the thread: its own and the unassigned (thread 0) ones.
    pub srl: usize,
    pub orl: usize,
    pub unassigned: usize,
}

/// The standby redo logs against the recommendation, measured once for every finding that
/// speaks of them (`srl-config`, `standby-redo-write-slow`), so their advice follows the
/// same evidence.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SrlLayout {
    pub short: Vec<ShortThread>,
    /// The largest online log, bytes.
    pub orl_bytes: u64,
    /// The smallest SRL when smaller than the largest online log.
    pub smaller: Option<u64>,
    /// An SRL of another size than the online logs (when none is smaller).
    pub differs: Option<u64>,
    /// The most members any SRL group has.
    pub members: Option<u32>,
    /// (online logs' block size, an SRL's other block size) when they differ; only where both
    /// sides report `BLOCKSIZE`.
    pub blocksize: Option<(u32, u32)>,
}

impl SrlLayout {
    pub(crate) fn extra_members(&self) -> Option<u32> {
        self.members.filter(|&m| m > 1)
    }

    pub(crate) fn size_off(&self) -> bool {
        self.smaller.is_some() || self.differs.is_some() || self.blocksize.is_some()
    }

    /// Advice for exactly what is off, nothing else.
    pub(crate) fn advice(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(m) = self.extra_members() {
            out.push(format!("Drop the extra members: one member per standby redo log group ({m} now), on the standby's fastest storage; LGWR's SYNC write waits for RFS, and RFS for the slowest member."));
        }
        for t in &self.short {
            out.push(format!(
                "Add standby redo log groups for thread {}: {} usable for {} online groups, {} needed (one more than the online groups).",
                t.thread,
                t.srl,
                t.orl,
                t.orl + 1
            ));
        }
        if self.size_off() {
            out.push(format!(
                "Recreate the SRLs at the online log size ({:.0} MB, never smaller than the largest ORL) and with the same block size.",
                self.orl_bytes as f64 / MB
            ));
        }
        out
    }
}

/// Measures the standby's SRLs against the primary's online logs; `None` without both.
pub(crate) fn srl_layout(ctx: &Context) -> Option<SrlLayout> {
    let standby_logs = ctx.s_last()?.logs.as_ref()?;
    let online = ctx.p_last()?.logs.as_ref()?;
    if online.online.is_empty() {
        return None;
    }
    let srls = &standby_logs.standby;
    // An SRL of thread 0 is not yet assigned: RFS takes it for whichever thread needs one, so
    // it counts for every thread.
    let unassigned = srls.iter().filter(|l| l.thread == 0).count();
    let threads: std::collections::BTreeSet<u32> = online.online.iter().map(|l| l.thread).collect();
    let short = threads
        .into_iter()
        .filter_map(|t| {
            let orl = online.online.iter().filter(|l| l.thread == t).count();
            let srl = srls.iter().filter(|l| l.thread == t).count() + unassigned;
            (srl < orl + 1).then_some(ShortThread {
                thread: t,
                srl,
                orl,
                unassigned,
            })
        })
        .collect();
    let orl_bytes = online.online.iter().map(|l| l.bytes).max().unwrap_or(0);
    let smaller = srls
        .iter()
        .filter(|l| l.bytes < orl_bytes)
        .map(|l| l.bytes)
        .min();
    let differs = smaller
        .is_none()
        .then(|| srls.iter().find(|l| l.bytes != orl_bytes).map(|l| l.bytes))
        .flatten();
    Some(SrlLayout {
        short,
        orl_bytes,
        smaller,
        differs,
        members: srls.iter().map(|l| l.members).max(),
        blocksize: blocksize_mismatch(&online.online, srls),
    })
}

/// The online logs' block size and an SRL's other one. RFS only uses an SRL whose block size
/// matches the online log it receives; a mismatched SRL sits unused.
fn blocksize_mismatch(
    online: &[dgscope_model::sample::Log],
    srls: &[dgscope_model::sample::Log],
) -> Option<(u32, u32)> {
    let orl = online.iter().find_map(|l| l.blocksize)?;
    srls.iter()
        .filter_map(|l| l.blocksize)
        .find(|&b| b != orl)
        .map(|b| (orl, b))
}

pub(super) fn srl_config(ctx: &Context, _th: &Thresholds) -> Option<Finding> {
    let layout = srl_layout(ctx)?;
    let mut problems = Vec::new();
    let mut evidence = Vec::new();
    let mut severity = Severity::Info;
    for t in &layout.short {
        problems.push(format!(
            "thread {}: {} SRL groups{} for {} ORL groups",
            t.thread,
            t.srl,
            if t.unassigned > 0 {
                format!(" ({} unassigned)", t.unassigned)
            } else {
                String::new()
            },
            t.orl
        ));
        evidence.push(ev(
            &format!("SRL groups usable by thread {}", t.thread),
            t.srl as f64,
            "",
            Some(format!("≥ ORL groups + 1 = {}", t.orl + 1)),
            "V$STANDBY_LOG",
        ));
    }
    let orl_mb = layout.orl_bytes as f64 / MB;
    // Smaller than the largest online log: a log that does not fit is archived directly and
    // real-time apply stops for it (WARN). Larger works but wastes space (INFO).
    if let Some(b) = layout.smaller {
        severity = Severity::Warn;
        problems.push(format!(
            "SRL of {:.0} MB smaller than the largest ORL ({orl_mb:.0} MB)",
            b as f64 / MB
        ));
        evidence.push(ev(
            "smallest SRL",
            b as f64 / MB,
            "MB",
            Some(format!("≥ largest ORL ({orl_mb:.0} MB)")),
            "V$STANDBY_LOG",
        ));
    } else if let Some(b) = layout.differs {
        problems.push(format!(
            "SRL size {:.0} MB ≠ ORL size {orl_mb:.0} MB",
            b as f64 / MB
        ));
        evidence.push(ev(
            "SRL size",
            b as f64 / MB,
            "MB",
            Some(format!("= ORL size ({orl_mb:.0} MB)")),
            "V$STANDBY_LOG",
        ));
    }
    if let Some((orl, srl)) = layout.blocksize {
        // An SRL RFS cannot use is as good as a missing one: real-time apply suffers.
        severity = Severity::Warn;
        problems.push(format!(
            "SRL block size {srl} bytes ≠ ORL block size {orl} bytes"
        ));
        evidence.push(ev(
            "SRL block size",
            f64::from(srl),
            "bytes",
            Some(format!("= ORL block size ({orl} bytes)")),
            "V$STANDBY_LOG",
        ));
    }
    if let Some(m) = layout.extra_members() {
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
            advice: &[],
            impact: weigh::risk(),
        }
        .finish_advising(ctx, layout.advice()),
    )
}

pub(super) fn redo_sizing(ctx: &Context, th: &Thresholds) -> Option<Finding> {
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
                // The finding's condition, as every threshold shown (principle 3).
                Some(format!("< {:.0} MB", th.log_buffer_min_mb)),
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
                Some(format!("< {:.0} MB", th.orl_min_mb)),
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
            advice: &[
                "Set log_buffer to at least 16 MB (a restart is needed).",
                "Size online redo logs by peak redo rate so a log lasts 15–20 minutes.",
            ],
            impact: weigh::risk(),
        }
        .finish(ctx),
    )
}
