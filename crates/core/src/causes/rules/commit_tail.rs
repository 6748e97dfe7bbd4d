//! A few long commits carrying the commit time (docs/FINDINGS.md, `commit-tail`): most
//! commits are fast, the average is not, and the histogram shows why. The tail is a part of
//! the one commit decomposition; this finding owns the part of it in stalls, waits longer
//! than any healthy outlier, where nothing else owns them (a busy CPU is lgwr-cpu-starved's,
//! SYNC stalls are sync-stall's). It replaces a slow-write finding the local write does not
//! support: that one weighs only the write, which is then a small part.

use super::spec::{RuleSpec, BASE};
use super::{ev, ms, weigh, Draft};
use crate::causes::context::Context;
use crate::causes::decomposition::TailCause;
use crate::causes::finding::{Finding, Severity};
use crate::causes::impact::FindingKind;
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::sample::names::{event, os};

pub(super) const COMMIT_TAIL: &str = "commit-tail";

const V_SYSTEM_EVENT: &str = "V$SYSTEM_EVENT";
const HIST: &str = "V$EVENT_HISTOGRAM_MICRO";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[RuleSpec {
    id: COMMIT_TAIL,
    eval: |c, t| super::commit_path::unless_negligible(c, t, commit_tail),
    severity: "WARN",
    weighed: true,
    reads: super::waits_now::COMMIT_PATH_READS,
    verify: &[
        V::LfsHistogram,
        V::LfpwHistogram,
        V::CpuLoad,
        V::LogSwitches,
    ],
    ..BASE
}];

pub(super) fn commit_tail(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let c = ctx.commit(th)?;
    let t = c.tail?;
    // Their own findings own these tails, and say so with their evidence.
    if matches!(t.cause, TailCause::Cpu | TailCause::SyncStalls) {
        return None;
    }
    if t.stall_ms < th.lfs_unexplained_ms {
        return None;
    }
    let d = ctx.p()?;
    let pct = |x: f64| x * 100.0;
    let mut evidence = vec![
        ev("log file sync avg", c.amount, "ms", None, V_SYSTEM_EVENT),
        ev("log file sync p50 ≤", t.p50_ms, "ms", None, HIST),
        ev("log file sync p99 ≤", t.p99_ms, "ms", None, HIST),
        ev(
            &format!("waits of {} ms and more", t.threshold_ms),
            pct(t.wait_share),
            "%",
            None,
            HIST,
        ),
        ev(
            &format!(
                "estimated wait time in waits of {} ms and more",
                t.threshold_ms
            ),
            pct(t.time_share),
            "%",
            None,
            HIST,
        ),
        ev(
            &format!(
                "log file sync average in waits of {} ms and more (stalls)",
                th.tail_stall_ms
            ),
            t.stall_ms,
            "ms",
            Some(format!("≥ {}", ms(th.lfs_unexplained_ms))),
            HIST,
        ),
    ];
    if let Some(l) = c.local_ms {
        evidence.push(ev(
            "log file parallel write avg",
            l,
            "ms",
            None,
            V_SYSTEM_EVENT,
        ));
    }
    if let Some(p) = d
        .event(event::LOG_FILE_PARALLEL_WRITE)
        .and_then(|e| e.hist.percentile(0.99))
    {
        evidence.push(ev(
            &format!("log file parallel write p99 {}", p.relation()),
            p.ms(),
            "ms",
            None,
            HIST,
        ));
    }
    // LGWR's own waits and what holds it: redo copy, log switches, CPU and the run queue.
    if let Some(e) = d
        .event(event::LGWR_WAIT_FOR_REDO_COPY)
        .filter(|e| e.waits > 0)
    {
        evidence.push(ev(
            &format!("{} ({} waits)", event::LGWR_WAIT_FOR_REDO_COPY, e.waits),
            e.us as f64 / 1e6,
            "s",
            None,
            V_SYSTEM_EVENT,
        ));
    }
    let switch_s: f64 = [
        event::LOG_FILE_SWITCH_COMPLETION,
        event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
        event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
    ]
    .iter()
    .map(|n| weigh::fg_secs(d, n))
    .sum();
    if switch_s > 0.0 {
        evidence.push(ev(
            "sessions' time on log file switch waits",
            switch_s,
            "s",
            None,
            V_SYSTEM_EVENT,
        ));
    }
    if let Some((thread, per_hour, _)) = super::switches_per_hour(ctx) {
        evidence.push(ev(
            &format!("log switches per hour on thread {thread}"),
            per_hour,
            "/h",
            None,
            "V$LOG_HISTORY",
        ));
    }
    if let Some(cpu) = d.cpu_busy_pct() {
        evidence.push(ev("host CPU busy", cpu, "%", None, "V$OSSTAT"));
    }
    if let (Some(l), Some(n)) = (d.os.get(os::LOAD), d.os.get(os::NUM_CPUS)) {
        evidence.push(ev(
            &format!("load average (NUM_CPUS {n:.0}; counts I/O waits)"),
            *l,
            "",
            None,
            "V$OSSTAT",
        ));
    }
    let advice: Vec<String> = match t.cause {
        TailCause::Writes => vec![
            "LGWR's own writes stall now and then: look at the redo log devices during the stalls (other writers, the I/O path's queue, the storage's own latency log); the LGWR trace file warns of writes over 500 ms.".into(),
        ],
        TailCause::Switches => vec![
            "Sessions waited on log switches: see the switch findings (checkpoint-incomplete, log-switch-frequent) and size the online logs so a switch never waits.".into(),
        ],
        TailCause::LgwrStall => vec![
            "LGWR stalls between writes: 'LGWR wait for redo copy' means sessions hold the redo copy latches (CPU starvation of those sessions, a huge redo burst); a run queue over the CPUs delays LGWR itself. Reduce the load, or keep LGWR on a CPU (_high_priority_processes, only with Oracle Support's agreement).".into(),
        ],
        _ => vec![
            "Nothing in the window names the stalls' cause: read the LGWR trace file (warnings of slow writes, 'LGWR blocked'), the alert log and the OS's own figures for the stall times.".into(),
        ],
    }
    .into_iter()
    .chain([
        "Judge commits by their histogram, not by the average: most finish in the typical time; the stalls are what users feel, seconds at a time.".to_string(),
    ])
    .collect();
    // Commits held behind log switches: the switch findings explain them, and this one
    // ranks right after them as their symptom.
    let switch_cause = (t.cause == TailCause::Switches).then(|| {
        if weigh::fg_secs(d, event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE) > 0.0 {
            "checkpoint-incomplete"
        } else if weigh::fg_secs(d, event::LOG_FILE_SWITCH_ARCHIVING_NEEDED) > 0.0 {
            "primary-archiving-stuck"
        } else {
            "log-switch-frequent"
        }
    });
    let mut f = Draft {
            id: COMMIT_TAIL,
            severity: Severity::Warn,
            title: format!(
                "A few long commits carry the commit time: log file sync {} but p50 ≤ {} ms; {:.1} % of commits wait {} ms and more and carry {:.0} % of the time: {}",
                ms(c.amount),
                t.p50_ms,
                pct(t.wait_share),
                t.threshold_ms,
                pct(t.time_share),
                t.cause.describe()
            ),
            evidence,
            meaning: "Most commits finish in the typical time while a few wait for hundreds of milliseconds or seconds: the average describes almost no commit, and making the typical path faster would not be felt. Those stalls are longer than any healthy outlier (seed 000's histogram ends at 128 ms): LGWR itself stalls (its writes, a log switch, redo copy, the CPU) or the commits behind it wait for something the window does not show.",
            advice: &[],
            impact: weigh::commit(ctx, th, None, |c| c.tail.map_or(0.0, |t| t.stall_ms)),
        }
        .finish_advising(ctx, advice);
    if let Some(id) = switch_cause {
        f.kind = FindingKind::Symptom;
        f.caused_by = Some(id);
    }
    Some(f)
}
