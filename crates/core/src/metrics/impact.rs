//! The impact table of seed 000: each metric in a baseline window and a compare window, and the
//! change in percent. The same rows feed `report impact`, the impact view and incident reports.

use super::delta::Delta;
use dgscope_model::sample::names::event;

/// Deltas of one window for the slots the table reads.
#[derive(Debug, Clone, Default)]
pub struct WindowDeltas {
    pub primary: Option<Delta>,
    pub standby: Option<Delta>,
}

/// The rows, in the order the MAA tables print them. Ids are stable (JSON, tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImpactMetric {
    RedoRate,
    LogFileSync,
    LogFileParallelWrite,
    Tps,
    RfsRandomIo,
    SyncRemoteWrite,
    RedoWritesPerSec,
    RedoWriteSize,
}

impl ImpactMetric {
    pub const ALL: [ImpactMetric; 8] = [
        ImpactMetric::RedoRate,
        ImpactMetric::LogFileSync,
        ImpactMetric::LogFileParallelWrite,
        ImpactMetric::Tps,
        ImpactMetric::RfsRandomIo,
        ImpactMetric::SyncRemoteWrite,
        ImpactMetric::RedoWritesPerSec,
        ImpactMetric::RedoWriteSize,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ImpactMetric::RedoRate => "redo_rate_mb_s",
            ImpactMetric::LogFileSync => "log_file_sync_ms",
            ImpactMetric::LogFileParallelWrite => "log_file_parallel_write_ms",
            ImpactMetric::Tps => "tps",
            ImpactMetric::RfsRandomIo => "rfs_random_io_ms",
            ImpactMetric::SyncRemoteWrite => "sync_remote_write_ms",
            ImpactMetric::RedoWritesPerSec => "redo_writes_per_s",
            ImpactMetric::RedoWriteSize => "redo_write_kb",
        }
    }

    /// The label a DBA knows from AWR and the MAA tables.
    pub fn label(self) -> &'static str {
        match self {
            ImpactMetric::RedoRate => "redo rate",
            ImpactMetric::LogFileSync => "log file sync avg",
            ImpactMetric::LogFileParallelWrite => "log file parallel write avg",
            ImpactMetric::Tps => "TPS (commits + rollbacks/s)",
            ImpactMetric::RfsRandomIo => "RFS random i/o avg (standby)",
            ImpactMetric::SyncRemoteWrite => "SYNC Remote Write avg",
            ImpactMetric::RedoWritesPerSec => "redo writes",
            ImpactMetric::RedoWriteSize => "redo write size",
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            ImpactMetric::RedoRate => "MB/s",
            ImpactMetric::LogFileSync
            | ImpactMetric::LogFileParallelWrite
            | ImpactMetric::RfsRandomIo
            | ImpactMetric::SyncRemoteWrite => "ms",
            ImpactMetric::Tps => "1/s",
            ImpactMetric::RedoWritesPerSec => "1/s",
            ImpactMetric::RedoWriteSize => "KB",
        }
    }

    pub fn value(self, w: &WindowDeltas) -> Option<f64> {
        let p = w.primary.as_ref();
        match self {
            ImpactMetric::RedoRate => p?.redo_mb_s(),
            ImpactMetric::LogFileSync => p?.event_avg(event::LOG_FILE_SYNC).map(|m| m.0),
            ImpactMetric::LogFileParallelWrite => {
                p?.event_avg(event::LOG_FILE_PARALLEL_WRITE).map(|m| m.0)
            }
            ImpactMetric::Tps => p?.tps(),
            ImpactMetric::RfsRandomIo => w.standby.as_ref()?.rfs_avg().map(|m| m.0),
            ImpactMetric::SyncRemoteWrite => p?.sync_remote_avg().map(|m| m.0),
            ImpactMetric::RedoWritesPerSec => p?.redo_writes_per_s(),
            ImpactMetric::RedoWriteSize => p?.redo_write_kb(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImpactRow {
    pub metric: ImpactMetric,
    pub baseline: Option<f64>,
    pub compare: Option<f64>,
    /// `(compare − baseline) / baseline × 100`; `None` when either is missing or baseline is 0.
    pub change_pct: Option<f64>,
}

pub fn impact_table(baseline: &WindowDeltas, compare: &WindowDeltas) -> Vec<ImpactRow> {
    ImpactMetric::ALL
        .iter()
        .map(|&metric| {
            let b = metric.value(baseline);
            let c = metric.value(compare);
            let change_pct = match (b, c) {
                (Some(b), Some(c)) if b != 0.0 => Some((c - b) / b * 100.0),
                _ => None,
            };
            ImpactRow {
                metric,
                baseline: b,
                compare: c,
                change_pct,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::sample::names::stat;
    use dgscope_model::sample::FlatMap;

    fn delta(secs: f64, commits: u64) -> Delta {
        let mut stats = FlatMap::new();
        stats.insert(stat::USER_COMMITS.into(), commits);
        Delta {
            secs,
            stats,
            ..Delta::default()
        }
    }

    #[test]
    fn change_is_relative_to_baseline_and_missing_data_is_null() {
        let base = WindowDeltas {
            primary: Some(delta(10.0, 1000)),
            standby: None,
        };
        let cmp = WindowDeltas {
            primary: Some(delta(10.0, 800)),
            standby: None,
        };
        let rows = impact_table(&base, &cmp);
        assert_eq!(rows.len(), 8);
        let tps = rows.iter().find(|r| r.metric == ImpactMetric::Tps).unwrap();
        assert_eq!(tps.baseline, Some(100.0));
        assert_eq!(tps.compare, Some(80.0));
        assert!((tps.change_pct.unwrap() + 20.0).abs() < 1e-9);
        let rfs = rows
            .iter()
            .find(|r| r.metric == ImpactMetric::RfsRandomIo)
            .unwrap();
        assert_eq!(
            (rfs.baseline, rfs.compare, rfs.change_pct),
            (None, None, None)
        );
        let ids: Vec<&str> = rows.iter().map(|r| r.metric.id()).collect();
        assert_eq!(
            ids,
            [
                "redo_rate_mb_s",
                "log_file_sync_ms",
                "log_file_parallel_write_ms",
                "tps",
                "rfs_random_io_ms",
                "sync_remote_write_ms",
                "redo_writes_per_s",
                "redo_write_kb"
            ]
        );
    }
}
