//! Hand-built findings matching the synthetic incident (seed 000's slow SRL), for the causes
//! pane and the drill-down until the causes engine lands.

use dgscope::causes::{
    Evidence, Finding, FindingKind, Impact, Severity, Symptom, VerifyKey, WhatIf,
};
use dgscope::timestamp::Timestamp;

fn ev(metric: &str, value: f64, unit: &str, threshold: Option<&str>, source: &str) -> Evidence {
    Evidence {
        metric: metric.into(),
        value,
        unit: unit.into(),
        threshold: threshold.map(str::to_string),
        source: source.into(),
    }
}

pub fn slow_srl(since: Timestamp) -> Vec<Finding> {
    vec![
        Finding {
            id: "standby-redo-write-slow",
            severity: Severity::Warn,
            title: "Standby redo log writes are slow: SYNC Remote Write 3.45 ms vs log file parallel write 0.62 ms on the primary; RFS random i/o 2.89 ms".into(),
            evidence: vec![
                ev("SYNC Remote Write avg", 3.45, "ms", Some("≥ 2 × lfpw (1.24 ms)"), "V$SYSTEM_EVENT (primary)"),
                ev("log file parallel write avg", 0.62, "ms", None, "V$SYSTEM_EVENT (primary)"),
                ev("RFS random i/o avg", 2.89, "ms", Some("≥ 50 % of remote (1.73 ms)"), "V$SYSTEM_EVENT (standby)"),
                ev("SRL members per group", 2.0, "", Some("1 recommended"), "V$LOGFILE (standby)"),
            ],
            meaning: "With SYNC AFFIRM every commit waits until the standby has written the redo to its standby redo log. The standby's RFS write takes 2.89 ms against 0.62 ms for the primary's log file parallel write, so most of the 4.60 ms log file sync is spent on the standby's disk, not on the network.".into(),
            verify: vec![VerifyKey::SrlLayout, VerifyKey::RfsLatency],
            advice: vec![
                // As the engine advises it: the members the evidence shows, no group advice
                // (no thread is short of groups here).
                "Drop the extra members: one member per standby redo log group (2 now), on the standby's fastest storage; LGWR's SYNC write waits for RFS, and RFS for the slowest member.".into(),
                "Check what else writes to the SRL disks on the standby host (backups, other databases).".into(),
            ],
            what_if: vec![WhatIf {
                change: "FASTSYNC (SYNC NOAFFIRM) instead of SYNC AFFIRM".into(),
                outcome: "log file sync 4.60 → 0.96 ms, TPS +23 %".into(),
            }],
            kind: FindingKind::Problem,
            // The RFS part of the 4.60 ms commit beyond a standby write as fast as the local
            // one: 2.83 of 4.60 ms.
            impact: Impact::of(Symptom::Commit, Some(2.83), Some(4.60), None),
            since,
            caused_by: None,
            standby: None,
        },
        Finding {
            id: "lfs-outlier-skew",
            severity: Severity::Info,
            title: "log file sync average is skewed by outliers: 91.4 % of waits < 8 ms".into(),
            evidence: vec![ev("log file sync waits < 8 ms", 91.4, "%", Some("≥ 85 %"), "V$EVENT_HISTOGRAM (primary)")],
            meaning: "Most commits are fast; a few slow ones pull the average up. Judge SYNC's cost by TPS and redo rate rather than by the average alone.".into(),
            verify: vec![VerifyKey::LfsHistogram],
            advice: vec!["Find what causes the outliers: I/O hiccups, log switches.".into()],
            what_if: vec![],
            kind: FindingKind::Symptom,
            impact: Impact::of(Symptom::Commit, Some(0.4), Some(4.60), None),
            since,
            caused_by: None,
            standby: None,
        },
    ]
}
