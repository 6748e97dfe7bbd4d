//! Every threshold of the cause catalog with its default (docs/FINDINGS.md explains the
//! findings, docs/CONFIG.md lists the keys). The config file's `[thresholds]` table
//! overrides any of them by name.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// A condition must hold this long before a finding is raised…
    pub raise_after_s: f64,
    /// …and be false this long before it clears.
    pub clear_after_s: f64,
    /// Fewer good samples than this in the window: "warming up", no findings.
    pub min_samples: usize,

    // standby-redo-write-slow
    pub remote_min_ms: f64,
    pub remote_vs_lfpw_ratio: f64,
    pub rfs_share_of_remote: f64,
    pub remote_crit_ms: f64,
    // network-latency
    pub network_share_ms: f64,
    pub network_remote_ms: f64,
    pub network_rfs_small_share: f64,
    // adaptive-lfs-polling, lgwr-cpu-starved
    pub lfs_vs_write_ratio: f64,
    pub lfs_unexplained_ms: f64,
    pub cpu_busy_pct: f64,
    /// lgwr-cpu-starved: the expected group-commit queueing, as a share of the slowest write,
    /// taken out of `log file sync` before the rest is called CPU.
    pub group_commit_queue_ratio: f64,
    // lgwr-write-slow
    pub lfpw_warn_ms: f64,
    pub lfpw_p99_ms: f64,
    pub lfpw_crit_ms: f64,
    /// lgwr-write-slow: ms added to each of its thresholds per MB of the average redo write
    /// (a large write legitimately takes longer).
    pub lfpw_ms_per_mb: f64,
    // lfs-outlier-skew
    pub outlier_bound_ms: f64,
    pub outlier_max_wait_share: f64,
    pub outlier_min_time_share: f64,
    pub outlier_min_waits: u64,
    // log-switch-frequent
    pub switches_per_hour: f64,
    // transport-bandwidth
    pub transport_lag_s: f64,
    pub transport_lag_rise_s_per_s: f64,
    pub transport_rise_window_s: f64,
    pub lag_crit_s: f64,
    /// transport-bandwidth: a transport lag shrinking faster than this (s/s) is being
    /// drained, i.e. the link ships more than the primary generates: not a bandwidth limit.
    pub transport_drain_s_per_s: f64,
    // apply-bound
    pub apply_gap_s: f64,
    pub apply_rate_window_s: f64,
    /// apply-bound: the apply lag (net of any delay) grows at least this fast (s/s).
    pub apply_lag_rise_s_per_s: f64,
    // standby-io-saturated
    pub io_await_ratio: f64,
    pub io_await_min_ms: f64,
    /// standby-io-saturated: write requests of the file type on the standby in the window,
    /// at least (a few slow requests are no saturation).
    pub io_min_writes: u64,
    // lag-stale
    pub stale_datum_s: f64,
    // redo-sizing (no upper bound on log_buffer: large SGAs and MAA use 256 MB and more)
    pub log_buffer_min_mb: f64,
    pub orl_min_mb: f64,
    /// dest-error: a `LOG SWITCH GAP` is routine under ASYNC; WARN only when it outlasts this
    /// many seconds…
    pub log_switch_gap_max_s: f64,
    /// …or this many log switches.
    pub log_switch_gap_switches: u32,
    /// apply-stopped, transport-lag-unknown, protection-degraded: how long the state must
    /// last in all (the engine's `raise_after_s` included).
    pub state_hold_s: f64,
    // standby-fra-full: used net of reclaimable, percent of the limit
    pub fra_warn_pct: f64,
    pub fra_crit_pct: f64,
    /// sync-stall: SYNC responses in buckets of at least this many seconds.
    pub sync_stall_s: u64,
    /// lag-high: a transport lag at or over this is WARN, whatever its cause…
    pub lag_high_transport_s: f64,
    /// …an apply lag net of any DELAY at or over this is WARN…
    pub lag_high_apply_s: f64,
    /// …and either at this many times its threshold is CRIT. `check`'s perfdata thresholds
    /// are these same numbers.
    pub lag_high_crit_factor: f64,
    /// primary-fra-full: the primary's recovery area used net of reclaimable, percent of the
    /// limit, WARN and CRIT…
    pub primary_fra_warn_pct: f64,
    pub primary_fra_crit_pct: f64,
    /// …and how far back its growth is measured (it is read once a minute).
    pub primary_fra_growth_s: f64,
    /// primary-hung: seconds of completed commit-path waits in a window without commits.
    pub primary_hung_wait_s: f64,
    /// checkpoint-incomplete: `log file switch completion` counts from this many seconds
    /// waited per second of window.
    pub switch_wait_s_per_s: f64,
    /// checkpoint-incomplete: `log file switch (checkpoint incomplete)` counts from this many
    /// seconds waited per hour of window (a tenth of a second in a six-day report is not a
    /// stall worth a finding; a checkpoint not complete in a live minute is).
    pub checkpoint_incomplete_s_per_h: f64,
    /// log-buffer-space: seconds waited per second of window (the sample has no DB time).
    pub log_buffer_space_s_per_s: f64,
    /// commit-not-the-problem: fewer user commits per hour of window than this…
    pub commit_min_per_h: f64,
    /// …or foreground `log file sync` under this percentage of DB time, and the commit path
    /// is no one's problem: its rules stay silent.
    pub commit_min_db_time_pct: f64,

    // Impact (docs/FINDINGS.md, "Impact"): a commit-path or rate finding is WARN or CRIT only
    // when it explains at least this share of its symptom…
    pub impact_min_share: f64,
    /// …and, where DB time is known, at least this percentage of DB time.
    pub impact_min_db_time_pct: f64,
    /// Healthy references, what "fixed" means for a finding's impact: a local redo write of
    /// this many ms (seed 001's storage SLA)…
    pub healthy_local_write_ms: f64,
    /// …the network part of a SYNC round trip on a healthy link, ms…
    pub healthy_network_ms: f64,
    /// …and no commit wait of this many ms or more: seed 000's healthy histogram, outliers
    /// and all, ends in its 64–128 ms bucket; longer waits are stalls.
    pub tail_stall_ms: f64,
    /// The tail: waits at or above max(`tail_floor_ms`, `tail_p50_factor` × p50).
    pub tail_floor_ms: f64,
    pub tail_p50_factor: f64,
    /// db-time-elsewhere: the commit path and the redo stalls take less than this percentage
    /// of DB time.
    pub db_time_elsewhere_pct: f64,
}

impl Thresholds {
    /// These thresholds for a source that is one observation of a whole window (an AWR or
    /// Statspack report: two samples, the snapshots): no warm-up count of samples and no
    /// hold time before raising, since what it shows held over the whole window.
    pub fn for_one_window(self) -> Self {
        Thresholds {
            min_samples: 2,
            raise_after_s: 0.0,
            ..self
        }
    }

    /// lag-high's (WARN, CRIT) for the transport lag, in seconds.
    pub fn transport_lag_levels(&self) -> (f64, f64) {
        let w = self.lag_high_transport_s;
        (w, w * self.lag_high_crit_factor)
    }

    /// lag-high's (WARN, CRIT) for the apply lag net of any DELAY, in seconds.
    pub fn apply_lag_levels(&self) -> (f64, f64) {
        let w = self.lag_high_apply_s;
        (w, w * self.lag_high_crit_factor)
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            raise_after_s: 15.0,
            clear_after_s: 30.0,
            min_samples: 5,
            remote_min_ms: 1.0,
            remote_vs_lfpw_ratio: 2.0,
            rfs_share_of_remote: 0.5,
            remote_crit_ms: 5.0,
            network_share_ms: 1.0,
            network_remote_ms: 5.0,
            network_rfs_small_share: 0.25,
            lfs_vs_write_ratio: 2.0,
            lfs_unexplained_ms: 1.0,
            cpu_busy_pct: 90.0,
            group_commit_queue_ratio: 0.5,
            lfpw_warn_ms: 1.0,
            lfpw_p99_ms: 16.0,
            lfpw_crit_ms: 10.0,
            lfpw_ms_per_mb: 2.0,
            outlier_bound_ms: 8.0,
            outlier_max_wait_share: 0.15,
            outlier_min_time_share: 0.5,
            outlier_min_waits: 100,
            switches_per_hour: 6.0,
            transport_lag_s: 10.0,
            transport_lag_rise_s_per_s: 0.5,
            transport_rise_window_s: 30.0,
            lag_crit_s: 300.0,
            transport_drain_s_per_s: 0.1,
            apply_gap_s: 10.0,
            apply_rate_window_s: 60.0,
            apply_lag_rise_s_per_s: 0.1,
            io_await_ratio: 2.0,
            io_await_min_ms: 2.0,
            io_min_writes: 100,
            stale_datum_s: 30.0,
            log_buffer_min_mb: 16.0,
            orl_min_mb: 300.0,
            log_switch_gap_max_s: 600.0,
            log_switch_gap_switches: 2,
            state_hold_s: 30.0,
            fra_warn_pct: 85.0,
            fra_crit_pct: 97.0,
            sync_stall_s: 2,
            lag_high_transport_s: 30.0,
            lag_high_apply_s: 300.0,
            lag_high_crit_factor: 4.0,
            primary_fra_warn_pct: 85.0,
            primary_fra_crit_pct: 97.0,
            primary_fra_growth_s: 300.0,
            primary_hung_wait_s: 10.0,
            switch_wait_s_per_s: 0.01,
            checkpoint_incomplete_s_per_h: 1.0,
            log_buffer_space_s_per_s: 0.01,
            commit_min_per_h: 3.0,
            commit_min_db_time_pct: 0.1,
            impact_min_share: 0.25,
            impact_min_db_time_pct: 2.0,
            healthy_local_write_ms: 0.5,
            healthy_network_ms: 1.0,
            tail_stall_ms: 128.0,
            tail_floor_ms: 8.0,
            tail_p50_factor: 8.0,
            db_time_elsewhere_pct: 10.0,
        }
    }
}
