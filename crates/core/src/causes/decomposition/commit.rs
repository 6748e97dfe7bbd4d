//! The commit decomposition (docs/FINDINGS.md, "Impact"): the window's average foreground
//! `log file sync` split into disjoint parts that sum to it. A commit posts LGWR, LGWR wakes,
//! writes locally and (SYNC) ships to the standby in parallel, posts back, and the session
//! wakes: the local write, the remote leg beyond it, RAC's broadcast ack, the tail a few long
//! waits add, and what is left after the writes (polling, CPU scheduling, or unexplained).
//!
//! A pure function of the window's delta and what is known of the SYNC standby: it reads no
//! context, so the screen, the rules, the reports and the exporter all read one answer.

use crate::causes::thresholds::Thresholds;
use crate::metrics::{Delta, Histogram};
use dgscope_model::sample::names::{event, os, stat};
use dgscope_model::units::bound_ms;
use serde::Serialize;
use std::collections::BTreeMap;

/// One named part of a commit's average wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CommitPart {
    /// `log file parallel write`: LGWR's own write to the online logs.
    LocalWrite,
    /// SYNC: the round trip to the standby beyond the local write, less its RFS write.
    RemoteNetwork,
    /// SYNC AFFIRM: the standby's RFS write into its standby redo logs, beyond the local
    /// write.
    RemoteRfs,
    /// SYNC without the standby's figures: network and RFS write together.
    RemoteLeg,
    /// RAC: waiting for the other instances' acknowledgement (broadcast on commit).
    RacBroadcast,
    /// A few long waits beyond what they would have cost at a typical commit.
    Tail,
    /// The rest after the writes, with sessions polling for completion.
    AdaptivePolling,
    /// The rest after the writes, on a busy host or behind LGWR waiting for redo copy.
    CpuScheduling,
    /// The rest after the writes with no mechanism seen: posting, waking and group-commit
    /// queueing (about half a write on a healthy system).
    Unexplained,
}

impl CommitPart {
    pub const ALL: [CommitPart; 9] = [
        CommitPart::LocalWrite,
        CommitPart::RemoteNetwork,
        CommitPart::RemoteRfs,
        CommitPart::RemoteLeg,
        CommitPart::RacBroadcast,
        CommitPart::Tail,
        CommitPart::AdaptivePolling,
        CommitPart::CpuScheduling,
        CommitPart::Unexplained,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CommitPart::LocalWrite => "local-write",
            CommitPart::RemoteNetwork => "remote-network",
            CommitPart::RemoteRfs => "remote-rfs",
            CommitPart::RemoteLeg => "remote-leg",
            CommitPart::RacBroadcast => "rac-broadcast",
            CommitPart::Tail => "tail",
            CommitPart::AdaptivePolling => "adaptive-polling",
            CommitPart::CpuScheduling => "cpu-scheduling",
            CommitPart::Unexplained => "unexplained",
        }
    }

    /// The short label the screen's stacked bar uses.
    pub fn label(self) -> &'static str {
        match self {
            CommitPart::LocalWrite => "local",
            CommitPart::RemoteNetwork => "network",
            CommitPart::RemoteRfs => "RFS",
            CommitPart::RemoteLeg => "remote",
            CommitPart::RacBroadcast => "bcast",
            CommitPart::Tail => "tail",
            CommitPart::AdaptivePolling => "polling",
            CommitPart::CpuScheduling => "CPU",
            CommitPart::Unexplained => "other",
        }
    }

    /// The parts after the writes: the post-wake rest, named by what was seen.
    pub fn is_post_wake(self) -> bool {
        matches!(
            self,
            CommitPart::AdaptivePolling | CommitPart::CpuScheduling | CommitPart::Unexplained
        )
    }
}

/// What is known of the remote leg besides the primary's own figures.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RemoteSide {
    /// The RFS write of the SYNC AFFIRM standby the commits wait for (the slowest of them),
    /// ms; `None` without the standby's figures.
    pub rfs_ms: Option<f64>,
    /// Every SYNC destination acknowledges on receipt (FASTSYNC): no RFS write in the leg.
    pub noaffirm: bool,
    /// A SYNC destination's responses took seconds in the window.
    pub sync_stalls: bool,
}

/// The tail of the `log file sync` histogram: what a few long waits add to the average.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Tail {
    /// The typical commit: the histogram's median bucket bound, ms.
    pub p50_ms: f64,
    /// The 99th percentile's bucket bound, ms (a lower bound in the open last bucket).
    pub p99_ms: f64,
    /// Waits at or above this count as the tail: max(floor, factor × p50), ms.
    pub threshold_ms: f64,
    /// Share of the waits in the tail.
    pub wait_share: f64,
    /// Share of the estimated wait time in the tail waits.
    pub time_share: f64,
    /// The part of the tail (ms of the average) in waits of `tail_stall_ms` and more:
    /// longer than any healthy outlier (seed 000's histogram ends in the 64–128 ms bucket),
    /// commits held by a stall.
    pub stall_ms: f64,
    /// What the tail comes from, as far as the window shows.
    pub cause: TailCause,
}

/// What makes a few commits wait long, in the order the window's figures are asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TailCause {
    /// SYNC responses of seconds (`V$REDO_DEST_RESP_HISTOGRAM`): every commit waits them out.
    SyncStalls,
    /// The host's CPU is busy: wake-ups late by scheduler quanta.
    Cpu,
    /// LGWR's own writes have waits as long as the tail (I/O hiccups).
    Writes,
    /// Sessions waited on log switches in the window.
    Switches,
    /// LGWR waited for redo copy, or the run queue exceeds the CPUs: LGWR stalls.
    LgwrStall,
    /// Nothing in the window says.
    Unknown,
}

impl TailCause {
    pub fn as_str(self) -> &'static str {
        match self {
            TailCause::SyncStalls => "sync-stalls",
            TailCause::Cpu => "cpu",
            TailCause::Writes => "writes",
            TailCause::Switches => "switches",
            TailCause::LgwrStall => "lgwr-stall",
            TailCause::Unknown => "unknown",
        }
    }

    /// For a sentence: "LGWR's own writes stall (I/O hiccups)".
    pub fn describe(self) -> &'static str {
        match self {
            TailCause::SyncStalls => "SYNC responses stall for seconds",
            TailCause::Cpu => "the host is short of CPU",
            TailCause::Writes => "LGWR's own writes stall (I/O hiccups)",
            TailCause::Switches => "log switches hold LGWR",
            TailCause::LgwrStall => {
                "LGWR stalls (it waits for redo copy, or the run queue exceeds the CPUs)"
            }
            TailCause::Unknown => "the cause is not in the window's figures",
        }
    }
}

/// The window's commit, split.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommitDecomposition {
    /// The symptom: average foreground `log file sync`, ms.
    pub amount: f64,
    pub unit: &'static str,
    /// Foreground `log file sync` waits in the window.
    pub waits: u64,
    /// The parts, in the order a commit meets them; each ≥ 0, summing to `amount`.
    pub components: Vec<Component>,
    /// Foreground `log file sync` time as a share of DB time, where DB time is read.
    pub db_time_share: Option<f64>,
    /// The slowest write LGWR waits for: the local write, or the SYNC remote write.
    pub write_ms: f64,
    /// What the parts were computed from, for the drill-down's arithmetic: `log file
    /// parallel write`, `SYNC Remote Write` and the SYNC standby's RFS write averages, ms.
    pub local_ms: Option<f64>,
    pub remote_ms: Option<f64>,
    pub rfs_ms: Option<f64>,
    /// `None` without a histogram of the waits.
    pub tail: Option<Tail>,
    /// RAC: each instance's own commits (its LGWR, its host), by `inst_id`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub instances: BTreeMap<u32, CommitDecomposition>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Component {
    #[serde(rename = "name")]
    pub part: CommitPart,
    pub amount: f64,
}

impl CommitDecomposition {
    /// The decomposition of `d`'s commits (and of each RAC instance's), `None` without
    /// `log file sync` waits.
    pub fn of(d: &Delta, remote: RemoteSide, th: &Thresholds) -> Option<Self> {
        let mut whole = Self::one(d, remote, th, None)?;
        for (id, inst) in &d.instances {
            if let Some(x) = Self::one(inst, remote, th, d.db_time_s()) {
                whole.instances.insert(*id, x);
            }
        }
        Some(whole)
    }

    /// The decomposition of one window's deltas (`report impact`, a report's window): the
    /// standby's RFS write from its delta where there is one. What a delta alone cannot say
    /// (which destinations acknowledge on receipt, SYNC stalls) is taken as not seen.
    pub fn of_window(w: &crate::metrics::WindowDeltas, th: &Thresholds) -> Option<Self> {
        let remote = RemoteSide {
            rfs_ms: w.standby.as_ref().and_then(|s| s.rfs_avg()).map(|m| m.0),
            noaffirm: false,
            sync_stalls: false,
        };
        Self::of(w.primary.as_ref()?, remote, th)
    }

    fn one(
        d: &Delta,
        remote: RemoteSide,
        th: &Thresholds,
        cluster_db_time_s: Option<f64>,
    ) -> Option<Self> {
        let (lfs, waits, lfs_us) = d.lfs_fg()?;
        let db_time_share = d
            .db_time_s()
            .or(cluster_db_time_s)
            .map(|db| (lfs_us / 1e6 / db).clamp(0.0, 1.0));
        let local_ms = d.event_avg(event::LOG_FILE_PARALLEL_WRITE).map(|m| m.0);
        let local = local_ms.unwrap_or(0.0);
        let remote_ms = d.sync_remote_avg().map(|m| m.0);
        let leg = remote_ms.map_or(0.0, |r| (r - local).max(0.0));
        // The leg's RFS part in proportion to the RFS write's part of the remote write (the
        // rest of the round trip is network), never more than the RFS write itself.
        let (rfs_part, network_part, unsplit) = match (remote_ms, remote.rfs_ms) {
            _ if leg <= 0.0 => (0.0, 0.0, false),
            _ if remote.noaffirm => (0.0, leg, false),
            (Some(r), Some(rfs)) if r > 0.0 => {
                let part = (leg * (rfs / r).clamp(0.0, 1.0)).min(rfs);
                (part, leg - part, false)
            }
            _ => (0.0, 0.0, true),
        };
        let broadcast = d.broadcast_ack_ms().unwrap_or(0.0);
        let mut writes = vec![(CommitPart::LocalWrite, local)];
        if remote_ms.is_some() {
            if unsplit {
                writes.push((CommitPart::RemoteLeg, leg));
            } else {
                writes.push((CommitPart::RemoteNetwork, network_part));
                if !remote.noaffirm {
                    writes.push((CommitPart::RemoteRfs, rfs_part));
                }
            }
        }
        if d.stat(stat::REDO_WRITE_BROADCAST_ACK_TIME).is_some() {
            writes.push((CommitPart::RacBroadcast, broadcast));
        }
        // Averaging noise can make the writes exceed the commit: scaled down, never a
        // negative rest.
        let sum: f64 = writes.iter().map(|w| w.1).sum();
        if sum > lfs && sum > 0.0 {
            let k = lfs / sum;
            writes.iter_mut().for_each(|w| w.1 *= k);
        }
        let rest = (lfs - writes.iter().map(|w| w.1).sum::<f64>()).max(0.0);
        let hist = d.event(event::LOG_FILE_SYNC).map(|e| &e.hist);
        let tail = hist.and_then(|h| tail_of(h, lfs, th)).map(|(mut t, ms)| {
            t.cause = tail_cause(d, remote, t.threshold_ms, th);
            (t, ms)
        });
        let tail_ms = tail.map_or(0.0, |(_, ms)| ms.min(rest));
        let post = rest - tail_ms;
        let mut components: Vec<Component> = writes
            .into_iter()
            .map(|(part, amount)| Component { part, amount })
            .collect();
        if tail.is_some() {
            components.push(Component {
                part: CommitPart::Tail,
                amount: tail_ms,
            });
        }
        components.push(Component {
            part: post_wake_part(d, th),
            amount: post,
        });
        Some(CommitDecomposition {
            amount: lfs,
            unit: "ms",
            waits,
            components,
            db_time_share,
            write_ms: local.max(remote_ms.unwrap_or(0.0)),
            local_ms,
            remote_ms,
            rfs_ms: remote
                .rfs_ms
                .filter(|_| remote_ms.is_some() && !remote.noaffirm),
            tail: tail.map(|(mut t, ms)| {
                // The stall part is a part of the tail part, scaled as it is.
                if ms > 0.0 {
                    t.stall_ms = t.stall_ms * tail_ms / ms;
                }
                t
            }),
            instances: BTreeMap::new(),
        })
    }

    /// The amount of one part (0 when the decomposition has no such part).
    pub fn part(&self, p: CommitPart) -> f64 {
        self.components
            .iter()
            .filter(|c| c.part == p)
            .map(|c| c.amount)
            .sum()
    }

    pub fn has(&self, p: CommitPart) -> bool {
        self.components.iter().any(|c| c.part == p)
    }

    /// The post-wake rest and what it was named after.
    pub fn post_wake(&self) -> Option<&Component> {
        self.components.iter().find(|c| c.part.is_post_wake())
    }

    /// The decomposition of one RAC instance, or the whole one.
    pub fn of_instance(&self, inst: Option<u32>) -> Option<&CommitDecomposition> {
        match inst {
            Some(id) => self.instances.get(&id),
            None => Some(self),
        }
    }

    /// The RFS part the leg would keep with a standby write no slower than the local write
    /// (the healthy reference of `standby-redo-write-slow`), ms.
    pub fn healthy_rfs_part(&self) -> f64 {
        let (Some(l), Some(r), Some(f)) = (self.local_ms, self.remote_ms, self.rfs_ms) else {
            return 0.0;
        };
        let rfs = f.min(l);
        let net = (r - f).max(0.0);
        let remote = net + rfs;
        if remote <= 0.0 {
            return 0.0;
        }
        (remote - l).max(0.0) * rfs / remote
    }

    /// The part that holds LGWR longest: its write phase's largest component.
    pub fn largest_write_part(&self) -> Option<&Component> {
        self.components
            .iter()
            .filter(|c| {
                matches!(
                    c.part,
                    CommitPart::LocalWrite
                        | CommitPart::RemoteNetwork
                        | CommitPart::RemoteRfs
                        | CommitPart::RemoteLeg
                )
            })
            .max_by(|a, b| a.amount.total_cmp(&b.amount))
    }
}

/// What the rest after the writes is named after: sessions that polled, a host short of CPU
/// (busy, a run queue over the CPUs, LGWR waiting for redo copy), or nothing seen.
fn post_wake_part(d: &Delta, th: &Thresholds) -> CommitPart {
    if d.stat(stat::REDO_SYNCH_POLL_WRITES).is_some_and(|n| n > 0) {
        return CommitPart::AdaptivePolling;
    }
    let busy = d.cpu_busy_pct().is_some_and(|c| c >= th.cpu_busy_pct);
    let queue = match (d.os.get(os::LOAD), d.os.get(os::NUM_CPUS)) {
        (Some(l), Some(n)) => *n > 0.0 && l > n,
        _ => false,
    };
    let redo_copy = d
        .event(event::LGWR_WAIT_FOR_REDO_COPY)
        .is_some_and(|e| e.waits > 0);
    if busy || queue || redo_copy {
        CommitPart::CpuScheduling
    } else {
        CommitPart::Unexplained
    }
}

/// What the tail comes from: SYNC stalls, a busy CPU, LGWR's own writes as long as the
/// tail, log switch waits, LGWR waiting for redo copy or a run queue over the CPUs.
fn tail_cause(d: &Delta, remote: RemoteSide, threshold_ms: f64, th: &Thresholds) -> TailCause {
    if remote.sync_stalls {
        return TailCause::SyncStalls;
    }
    if d.cpu_busy_pct().is_some_and(|c| c >= th.cpu_busy_pct) {
        return TailCause::Cpu;
    }
    let long_writes = d
        .event(event::LOG_FILE_PARALLEL_WRITE)
        .map(|e| &e.hist)
        .is_some_and(|h| {
            h.buckets()
                .iter()
                .any(|(b, n)| *n > 0 && bound_ms(*b) / 2.0 + 1e-9 >= threshold_ms)
        });
    if long_writes {
        return TailCause::Writes;
    }
    let switches = [
        event::LOG_FILE_SWITCH_COMPLETION,
        event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
        event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
    ]
    .iter()
    .any(|n| d.event(n).is_some_and(|e| e.waits > 0));
    if switches {
        return TailCause::Switches;
    }
    let redo_copy = d
        .event(event::LGWR_WAIT_FOR_REDO_COPY)
        .is_some_and(|e| e.waits > 0);
    let queue = match (d.os.get(os::LOAD), d.os.get(os::NUM_CPUS)) {
        (Some(l), Some(n)) => *n > 0.0 && l > n,
        _ => false,
    };
    if redo_copy || queue {
        TailCause::LgwrStall
    } else {
        TailCause::Unknown
    }
}

/// The tail of a `log file sync` histogram and what it adds to the average `lfs` (ms): the
/// waits at or above max(`tail_floor_ms`, `tail_p50_factor` × p50), beyond what they would
/// have cost at the median. The histogram's estimate is scaled to the measured average, so
/// its rounding never adds to the parts.
fn tail_of(h: &Histogram, lfs: f64, th: &Thresholds) -> Option<(Tail, f64)> {
    let total = h.total();
    if total == 0 {
        return None;
    }
    let [p50, p99] = h.percentiles([0.5, 0.99]);
    let (p50, p99) = (p50?, p99?);
    let p50_ms = p50.ms();
    let threshold = th.tail_floor_ms.max(th.tail_p50_factor * p50_ms);
    let times = h.estimated_time_us();
    let est_total: f64 = times.iter().map(|t| t.1).sum();
    if est_total <= 0.0 {
        return None;
    }
    // The typical commit's cost: the estimate of the median bucket per wait.
    let typical_us = times
        .iter()
        .zip(h.buckets())
        .find(|(t, _)| t.0 == p50.bound())
        .map_or(0.0, |(t, b)| t.1 / b.1.max(1) as f64);
    let (mut tail_waits, mut tail_time, mut excess, mut stall) = (0u64, 0.0, 0.0, 0.0);
    for ((b, est), (_, n)) in times.iter().zip(h.buckets()) {
        // The bucket's lower edge (half its bound) at or above the threshold: every wait
        // in it is a tail wait.
        let lower = bound_ms(*b) / 2.0 + 1e-9;
        if lower >= threshold {
            tail_waits += n;
            tail_time += est;
            let x = (est - *n as f64 * typical_us).max(0.0);
            excess += x;
            if lower >= th.tail_stall_ms {
                stall += x;
            }
        }
    }
    let est_avg_ms = est_total / total as f64 / 1000.0;
    let scale = if est_avg_ms > 0.0 {
        lfs / est_avg_ms
    } else {
        0.0
    };
    let per_commit = |us: f64| (us / total as f64 / 1000.0 * scale).max(0.0);
    Some((
        Tail {
            p50_ms,
            p99_ms: p99.ms(),
            threshold_ms: threshold,
            wait_share: tail_waits as f64 / total as f64,
            time_share: tail_time / est_total,
            stall_ms: per_commit(stall),
            cause: TailCause::Unknown,
        },
        per_commit(excess),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::EventDelta;
    use dgscope_model::units::Micros;

    fn ev(waits: u64, avg_ms: f64, hist: Vec<(u64, u64)>) -> EventDelta {
        EventDelta {
            waits,
            us: (waits as f64 * avg_ms * 1000.0) as u64,
            hist: Histogram::from_buckets(hist.into_iter().map(|(b, n)| (Micros(b), n)).collect()),
            waits_fg: None,
            us_fg: None,
        }
    }

    fn delta(lfs: f64, lfpw: f64, remote: Option<f64>) -> Delta {
        let mut d = Delta {
            secs: 60.0,
            ..Delta::default()
        };
        d.events
            .insert(event::LOG_FILE_SYNC.into(), ev(1000, lfs, vec![]));
        d.events
            .insert(event::LOG_FILE_PARALLEL_WRITE.into(), ev(900, lfpw, vec![]));
        if let Some(r) = remote {
            d.events
                .insert(event::SYNC_REMOTE_WRITE.into(), ev(900, r, vec![]));
        }
        d
    }

    fn sum(c: &CommitDecomposition) -> f64 {
        c.components.iter().map(|c| c.amount).sum()
    }

    #[test]
    fn the_parts_sum_to_the_commit_and_the_leg_splits_by_the_rfs_write() {
        let th = Thresholds::default();
        // Seed 000's slow SRLs: lfs 4.6, lfpw 0.6, remote 3.4 with RFS 2.9.
        let d = delta(4.6, 0.6, Some(3.4));
        let remote = RemoteSide {
            rfs_ms: Some(2.9),
            noaffirm: false,
            sync_stalls: false,
        };
        let c = CommitDecomposition::of(&d, remote, &th).unwrap();
        assert!((sum(&c) - 4.6).abs() < 1e-9, "{c:?}");
        let leg = 3.4 - 0.6;
        assert!((c.part(CommitPart::RemoteRfs) - leg * 2.9 / 3.4).abs() < 1e-9);
        assert!((c.part(CommitPart::RemoteNetwork) - leg * 0.5 / 3.4).abs() < 1e-9);
        assert_eq!(c.post_wake().unwrap().part, CommitPart::Unexplained);
        assert!((c.write_ms - 3.4).abs() < 1e-12);
        // FASTSYNC: no RFS write in the leg; without the standby: one unsplit leg.
        let fast = RemoteSide {
            rfs_ms: Some(2.9),
            noaffirm: true,
            sync_stalls: false,
        };
        let f = CommitDecomposition::of(&d, fast, &th).unwrap();
        assert!(
            !f.has(CommitPart::RemoteRfs) && (f.part(CommitPart::RemoteNetwork) - leg).abs() < 1e-9
        );
        let u = CommitDecomposition::of(&d, RemoteSide::default(), &th).unwrap();
        assert!((u.part(CommitPart::RemoteLeg) - leg).abs() < 1e-9);
        assert!(!u.has(CommitPart::RemoteNetwork));
    }

    #[test]
    fn writes_over_the_commit_are_scaled_down_never_a_negative_rest() {
        let th = Thresholds::default();
        let d = delta(1.0, 1.2, None);
        let c = CommitDecomposition::of(&d, RemoteSide::default(), &th).unwrap();
        assert!(c.components.iter().all(|c| c.amount >= 0.0));
        assert!((sum(&c) - 1.0).abs() < 1e-9);
        assert!((c.part(CommitPart::LocalWrite) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_multi_second_tail_over_a_fast_write_is_the_tail() {
        let th = Thresholds::default();
        // 95 % of 10,000 commits under 2 ms; 500 wait 1–2 s: lfs ≈ 76 ms, lfpw 1 ms.
        let mut d = delta(76.0, 1.0, None);
        d.events.insert(
            event::LOG_FILE_SYNC.into(),
            ev(
                10_000,
                76.0,
                vec![(1024, 3000), (2048, 6500), (2_097_152, 500)],
            ),
        );
        let c = CommitDecomposition::of(&d, RemoteSide::default(), &th).unwrap();
        let tail = c.tail.unwrap();
        assert!((tail.wait_share - 0.05).abs() < 1e-12);
        assert!(tail.time_share > 0.95, "{tail:?}");
        assert!(c.part(CommitPart::Tail) > 0.9 * 75.0, "{c:?}");
        // Waits of 1–2 s are stalls, beyond any healthy outlier; nothing in the window says
        // why.
        assert!(
            (tail.stall_ms - c.part(CommitPart::Tail)).abs() < 1e-9,
            "{tail:?}"
        );
        assert_eq!(tail.cause, TailCause::Unknown);
        assert!((sum(&c) - 76.0).abs() < 1e-9);
        // No histogram: no tail part at all (unknown, not 0).
        let plain =
            CommitDecomposition::of(&delta(5.0, 1.0, None), RemoteSide::default(), &th).unwrap();
        assert!(!plain.has(CommitPart::Tail));
    }

    #[test]
    fn the_rest_is_named_by_what_was_seen() {
        let th = Thresholds::default();
        let mut d = delta(8.0, 1.0, None);
        d.stats.insert(stat::REDO_SYNCH_POLL_WRITES.into(), 40);
        let c = CommitDecomposition::of(&d, RemoteSide::default(), &th).unwrap();
        assert_eq!(c.post_wake().unwrap().part, CommitPart::AdaptivePolling);
        let mut busy = delta(8.0, 1.0, None);
        busy.os.insert(os::BUSY_TIME.into(), 97.0);
        busy.os.insert(os::IDLE_TIME.into(), 3.0);
        let c = CommitDecomposition::of(&busy, RemoteSide::default(), &th).unwrap();
        assert_eq!(c.post_wake().unwrap().part, CommitPart::CpuScheduling);
    }

    #[test]
    fn db_time_share_is_the_foreground_commit_time() {
        let th = Thresholds::default();
        let mut d = delta(2.0, 1.0, None);
        // 1,000 commits × 2 ms = 2 s of 100 s of DB time (10,000 cs).
        d.stats.insert(stat::DB_TIME.into(), 10_000);
        let c = CommitDecomposition::of(&d, RemoteSide::default(), &th).unwrap();
        assert!((c.db_time_share.unwrap() - 0.02).abs() < 1e-9);
    }
}
