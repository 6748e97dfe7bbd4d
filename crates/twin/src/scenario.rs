//! The scenario catalog (CAUSES.md): each a small edit of the calibrated base, named as
//! `dgscope demo --scenario`, `check --twin`, `record --twin` and the fault menu spell it.

use super::params::{
    ApplyOff, ApplyOffKind, Compression, CpuParams, FraParams, Fsfo, Member, Outage, Params,
    Profile, Spikes, Stalls, SyncStalls, Topology, Transport, Workload, GB, KB, MB,
};

/// A library cache mutex storm's DB time: most of it waiting on the mutex and its cursor
/// pins, some reads, the rest CPU.
const MUTEX_STORM: &[(&str, &str, f64, f64)] = &[
    ("library cache: mutex X", "Concurrency", 0.36, 2_000.0),
    ("cursor: pin S wait on X", "Concurrency", 0.12, 5_000.0),
    ("db file sequential read", "User I/O", 0.10, 600.0),
];
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scenario {
    HealthySync,
    Fastsync,
    HealthyAsync,
    SlowSrl,
    SyncHighRtt,
    AdaptivePolling,
    LgwrStorage,
    CpuStarved,
    FrequentSwitches,
    BandwidthAsync,
    BandwidthAsyncCompressed,
    ApplyIoBound,
    StandbyIoContention,
    StandbyDown,
    OutlierSkew,
    ApplyStopped,
    GapFraFull,
    DelayedApply,
    DestDeferred,
    ProtectionResync,
    MiraApply,
    SyncStall,
    RacNodeSaturated,
    TwoStandbys,
    FarSync,
    SnapshotStandby,
    ApplyOff,
    GapTransient,
    CatchUp,
    SyncNetTimeout,
    FsfoOverLagLimit,
    Nologging,
    TwoSyncOneSlow,
    ArchiverStuck,
    PrimaryFraFilling,
    CheckpointIncomplete,
    CommitTail,
    MutexStorm,
    SyncHoldsLgwr,
}

/// An unknown scenario name; the message lists the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown twin scenario {name:?}; valid scenarios: {}", Scenario::names().join(", "))]
pub struct UnknownScenario {
    pub name: String,
}

impl Scenario {
    pub const ALL: [Scenario; 39] = [
        Scenario::HealthySync,
        Scenario::Fastsync,
        Scenario::HealthyAsync,
        Scenario::SlowSrl,
        Scenario::SyncHighRtt,
        Scenario::AdaptivePolling,
        Scenario::LgwrStorage,
        Scenario::CpuStarved,
        Scenario::FrequentSwitches,
        Scenario::BandwidthAsync,
        Scenario::BandwidthAsyncCompressed,
        Scenario::ApplyIoBound,
        Scenario::StandbyIoContention,
        Scenario::StandbyDown,
        Scenario::OutlierSkew,
        Scenario::ApplyStopped,
        Scenario::GapFraFull,
        Scenario::DelayedApply,
        Scenario::DestDeferred,
        Scenario::ProtectionResync,
        Scenario::MiraApply,
        Scenario::SyncStall,
        Scenario::RacNodeSaturated,
        Scenario::TwoStandbys,
        Scenario::FarSync,
        Scenario::SnapshotStandby,
        Scenario::ApplyOff,
        Scenario::GapTransient,
        Scenario::CatchUp,
        Scenario::SyncNetTimeout,
        Scenario::FsfoOverLagLimit,
        Scenario::Nologging,
        Scenario::TwoSyncOneSlow,
        Scenario::ArchiverStuck,
        Scenario::PrimaryFraFilling,
        Scenario::CheckpointIncomplete,
        Scenario::CommitTail,
        Scenario::MutexStorm,
        Scenario::SyncHoldsLgwr,
    ];

    /// The scenario of pair `i` of a simulated fleet (`demo --fleet`): a realistic fleet is
    /// mostly healthy, so every other pair is one of the healthy configurations; the rest
    /// step through the catalog's faults six at a time (six shares no factor with their 35),
    /// so a dozen pairs already mix commit, transport, apply and primary faults and a large
    /// fleet meets every one.
    pub fn for_fleet(i: usize) -> Scenario {
        const HEALTHY: [Scenario; 4] = [
            Scenario::HealthySync,
            Scenario::HealthyAsync,
            Scenario::Fastsync,
            Scenario::TwoStandbys,
        ];
        if i.is_multiple_of(2) {
            return HEALTHY[(i / 2) % HEALTHY.len()];
        }
        let faults: Vec<Scenario> = Scenario::ALL
            .iter()
            .copied()
            .filter(|s| !HEALTHY.contains(s))
            .collect();
        faults[(i / 2 * 6) % faults.len()]
    }

    pub fn name(self) -> &'static str {
        match self {
            Scenario::HealthySync => "healthy-sync",
            Scenario::Fastsync => "fastsync",
            Scenario::HealthyAsync => "healthy-async",
            Scenario::SlowSrl => "slow-srl",
            Scenario::SyncHighRtt => "sync-high-rtt",
            Scenario::AdaptivePolling => "adaptive-polling",
            Scenario::LgwrStorage => "lgwr-storage",
            Scenario::CpuStarved => "cpu-starved",
            Scenario::FrequentSwitches => "frequent-switches",
            Scenario::BandwidthAsync => "bandwidth-async",
            Scenario::BandwidthAsyncCompressed => "bandwidth-async-compressed",
            Scenario::ApplyIoBound => "apply-io-bound",
            Scenario::StandbyIoContention => "standby-io-contention",
            Scenario::StandbyDown => "standby-down",
            Scenario::OutlierSkew => "outlier-skew",
            Scenario::ApplyStopped => "apply-stopped",
            Scenario::GapFraFull => "gap-fra-full",
            Scenario::DelayedApply => "delayed-apply",
            Scenario::DestDeferred => "dest-deferred",
            Scenario::ProtectionResync => "protection-resync",
            Scenario::MiraApply => "mira-apply",
            Scenario::SyncStall => "sync-stall",
            Scenario::RacNodeSaturated => "rac-node-saturated",
            Scenario::TwoStandbys => "two-standbys",
            Scenario::FarSync => "far-sync",
            Scenario::SnapshotStandby => "snapshot-standby",
            Scenario::ApplyOff => "apply-off",
            Scenario::GapTransient => "gap-transient",
            Scenario::CatchUp => "catch-up",
            Scenario::SyncNetTimeout => "sync-net-timeout",
            Scenario::FsfoOverLagLimit => "fsfo-over-lag-limit",
            Scenario::Nologging => "nologging",
            Scenario::TwoSyncOneSlow => "two-sync-one-slow",
            Scenario::ArchiverStuck => "archiver-stuck",
            Scenario::PrimaryFraFilling => "primary-fra-filling",
            Scenario::CheckpointIncomplete => "checkpoint-incomplete",
            Scenario::CommitTail => "commit-tail",
            Scenario::MutexStorm => "mutex-storm",
            Scenario::SyncHoldsLgwr => "sync-holds-lgwr",
        }
    }

    pub fn names() -> Vec<&'static str> {
        Scenario::ALL.iter().map(|s| s.name()).collect()
    }

    /// One line for `dgscope twin list` and the fault menu.
    pub fn description(self) -> &'static str {
        match self {
            Scenario::HealthySync => "SYNC AFFIRM, 0.3 ms network, fast single-member SRLs (~7.5k TPS, 24 MB/s redo)",
            Scenario::Fastsync => "as healthy-sync with FASTSYNC (SYNC NOAFFIRM): no standby disk write in the commit path",
            Scenario::HealthyAsync => "ASYNC with ample bandwidth, Active Data Guard standby",
            Scenario::SlowSrl => "SYNC to 2-member SRLs on a slow disk (seed 000 table 1): remote write ~3.4 ms",
            Scenario::SyncHighRtt => "SYNC over a 6 ms round trip",
            Scenario::AdaptivePolling => "LGWR stuck in adaptive log file sync polling, 7 ms interval",
            Scenario::LgwrStorage => "primary redo log writes 2-3 ms with periodic latency spikes",
            Scenario::CpuStarved => "host CPU saturated: 10 ms scheduling delays for LGWR and committers",
            Scenario::FrequentSwitches => "1 GB logs: a switch every ~2 min per thread, standby checkpoint bursts",
            Scenario::BandwidthAsync => "ASYNC, 140 MB/s redo burst over a ~109 MB/s link (seed 002)",
            Scenario::BandwidthAsyncCompressed => "as bandwidth-async with ZLIB transport compression (ratio 2.7)",
            Scenario::ApplyIoBound => "redo apply limited to 47 MB/s by standby reads under ~60 MB/s redo",
            Scenario::StandbyIoContention => "another workload on the standby's disks: slow standby datafile I/O",
            Scenario::StandbyDown => "standby unreachable for 10 min after the first minute, then gap resolution",
            Scenario::OutlierSkew => "healthy averages with rare 16-64 ms log write stalls (seed 000 histogram)",
            Scenario::ApplyStopped => "MRP0 dies after 1 min (datafile added, standby_file_management=MANUAL); redo keeps arriving",
            Scenario::GapFraFull => "ASYNC; the standby's recovery area fills: no archiving, no free SRL, transport lag unknown, gap",
            Scenario::DelayedApply => "healthy SYNC with DELAY=30 on the destination: apply lag ~30 min by design",
            Scenario::DestDeferred => "ASYNC; log_archive_dest_state_2=DEFER after 1 min: nothing ships, transport lag grows",
            Scenario::ProtectionResync => "MaxAvailability; the SYNC link drops for 90 s, REOPEN 300 s: RESYNCHRONIZATION, then back",
            Scenario::MiraApply => "healthy, Multi-Instance Redo Apply on a 2-instance standby (Active Apply Rate reads 0)",
            Scenario::SyncStall => "SYNC with a 3-6 s response stall about every 50 s",
            Scenario::RacNodeSaturated => "3-instance RAC primary, one host at 100 % CPU: its log file sync ~3x the others'",
            Scenario::TwoStandbys => "SYNC to a near standby with fast SRLs, ASYNC to a far one with a slow SRL disk",
            Scenario::FarSync => "primary -> far sync (SYNC, slow SRL disk) -> terminal standby (ASYNC)",
            Scenario::SnapshotStandby => "the standby converted to a snapshot standby after 1 min: READ WRITE, no MRP, redo still received",
            Scenario::ApplyOff => "broker APPLY-OFF for maintenance after 1 min: mounted standby, no MRP, redo still received",
            Scenario::GapTransient => "healthy SYNC; for 20 s a V$ARCHIVE_GAP row names the very log MRP0 is applying",
            Scenario::CatchUp => "the standby back from a 2-day outage, gap fetched: apply lag ~2 d, applied at 3x real time",
            Scenario::SyncNetTimeout => "MaxAvailability; the SYNC link stalls 70 s past NET_TIMEOUT: ORA-16198, REOPEN 300 s, resync",
            Scenario::FsfoOverLagLimit => "fast-start failover to an ASYNC target on a 15 MB/s link: lag passes the 30 s lag limit",
            Scenario::TwoSyncOneSlow => "SYNC to two standbys; the second's 2-member SRLs write in ~4 ms: every commit waits for it",
            Scenario::ArchiverStuck => "ASYNC; the primary's recovery area fills at minute 2, ARCn stops (ORA-19809, ORA-16038, ORA-00257), sessions pile up on log file switch (archiving needed), commits stop",
            Scenario::PrimaryFraFilling => "ASYNC; the primary's recovery area grows from 80 % to 96 % in 7 min: the deletion policy keeps every archived log not yet applied and backed up",
            Scenario::CheckpointIncomplete => "small online logs and a slow DBWR: LGWR cycles back to a log still being checkpointed, log file switch (checkpoint incomplete) stalls",
            Scenario::Nologging => "a NOLOGGING load on the primary with FORCE_LOGGING off: unrecoverable changes in V$DATAFILE",
            Scenario::CommitTail => "1 ms local writes, but LGWR stalls 1-2.5 s every ~12 s (LGWR wait for redo copy) on a host whose load quadrupled: a multi-second commit tail",
            Scenario::MutexStorm => "a library cache mutex storm takes a third of DB time; commits, on 3 ms local writes, are 1 % of it",
            Scenario::SyncHoldsLgwr => "SYNC over a 5 ms round trip with fast local writes and a small log buffer: sessions wait for log buffer space while LGWR waits for the standby",
        }
    }

    pub fn params(self) -> Params {
        let mut p = Params::calibrated();
        match self {
            Scenario::HealthySync => {}
            Scenario::Fastsync => p.transport = Transport::Sync { affirm: false },
            Scenario::HealthyAsync => {
                p.transport = Transport::Async;
                p.ship_bw_bps = 500.0 * MB;
                p.active_dg = true;
            }
            Scenario::SlowSrl => {
                p.net0_us = 560.0;
                p.srl.members = 2;
                p.srl.s0_us = 2450.0;
                p.srl.sigma = 0.2;
            }
            Scenario::SyncHighRtt => p.net0_us = 6_000.0,
            Scenario::AdaptivePolling => {
                p.log.l0_us = 1_100.0;
                p.log.sigma = 0.5;
                p.post.start_polling_us = Some(7_000.0);
                p.post.polling_stuck = true;
            }
            Scenario::LgwrStorage => {
                p.log.l0_us = 2_200.0;
                p.log.sigma = 0.45;
                p.spikes = Some(Spikes {
                    every_s: 15.0,
                    len_s: 1.0,
                    factor: 6.0,
                });
            }
            Scenario::CpuStarved => {
                p.cpu.busy = 0.97;
                p.cpu.load_per_cpu = 1.6;
                p.cpu.p_delay = 0.08;
                // Adaptive sync disabled on this site, so starvation shows as late posts, not polls.
                p.post.adaptive = false;
            }
            Scenario::FrequentSwitches => {
                p.orl_bytes = GB;
                p.ckpt.factor = 35.0;
                p.ckpt.dur_s = 14.0;
                p.ckpt.tail_p = 0.005;
                p.apply.ckpt_s_per_log = 4.0;
            }
            Scenario::BandwidthAsync | Scenario::BandwidthAsyncCompressed => {
                p.transport = Transport::Async;
                p.active_dg = true;
                p.redo_per_commit = 64.0 * KB;
                // Tuned so the closed loop makes 140.0 MB/s: with compression the peak lag is
                // 1183 s × (140 / 137.7 − 1), so 0.3 % more redo would add 5 s to it.
                p.think_us = 52_610.0;
                p.ship_bw_bps = 108.9 * MB;
                p.orl_bytes = 16 * GB;
                p.profile = Some(Profile {
                    burst_s: 1183.0,
                    quiet_s: 900.0,
                    quiet_think_factor: 8.0,
                });
                if self == Scenario::BandwidthAsyncCompressed {
                    p.compression = Some(Compression {
                        ratio: 2.7,
                        compressor_bps: 137.7 * MB,
                    });
                }
            }
            Scenario::ApplyIoBound => {
                p.redo_per_commit = 8.0 * KB;
                p.orl_bytes = 16 * GB;
                // Slow datafile reads hold MRP to ~47 MB/s (11g OLTP, TWIN-MODEL §1.4).
                p.apply.io_bound = 0.45;
                p.apply.ckpt_s_per_log = 6.0;
                p.standby_io.data_read_us = 9_000.0;
            }
            Scenario::StandbyIoContention => {
                p.standby_io.data_read_us = 9_000.0;
                p.standby_io.data_write_us = 6_500.0;
                p.standby_io.archive_write_us = 8_000.0;
                p.srl.s0_us = 520.0;
            }
            Scenario::StandbyDown => {
                p.outage = Some(Outage {
                    start_s: 60.0,
                    len_s: 600.0,
                });
            }
            Scenario::OutlierSkew => {
                p.stalls = Some(Stalls {
                    p_per_write: 0.003,
                    mean_us: 45_000.0,
                    sigma: 0.35,
                });
            }
            Scenario::ApplyStopped => p.apply_stop_s = Some(60.0),
            Scenario::GapFraFull => {
                p.transport = Transport::Async;
                p.ship_bw_bps = 500.0 * MB;
                // A 50 GB area at 97.2 %: ~1.4 GB left, about a minute of archived redo. Time is
                // compressed: on a real standby RFS runs out of SRLs a few log switches after
                // the area fills; the twin lets that happen at once.
                p.standby_fra = FraParams {
                    limit_bytes: 50 << 30,
                    used_bytes: (50u64 << 30) / 1000 * 972,
                    reclaimable_bytes: 0,
                    files: 212,
                    fills: true,
                };
            }
            Scenario::DelayedApply => p.delay_mins = 30,
            Scenario::DestDeferred => {
                p.transport = Transport::Async;
                p.ship_bw_bps = 500.0 * MB;
                p.defer_at_s = Some(60.0);
            }
            Scenario::ProtectionResync => {
                // The redo network alone drops: dgscope still reaches the standby. LGWR waits
                // NET_TIMEOUT, then retries only every REOPEN (300 s, the default), so the
                // level stays RESYNCHRONIZATION well after the link is back.
                p.link_outage = Some(Outage {
                    start_s: 60.0,
                    len_s: 90.0,
                });
            }
            Scenario::MiraApply => {
                p.apply.instances = 2;
                p.apply.merge_s = 1.0;
            }
            Scenario::SyncStall => {
                p.sync_stalls = Some(SyncStalls {
                    every_s: 50.0,
                    min_s: 3.0,
                    max_s: 5.8,
                })
            }
            Scenario::RacNodeSaturated => {
                // Instance 2's host saturated (as cpu-starved, on one node only); adaptive
                // sync off so its starvation shows as late posts, not polls.
                p.post.adaptive = false;
                p.topology = Topology::Rac {
                    hot: Some((
                        1,
                        CpuParams {
                            busy: 0.995,
                            load_per_cpu: 1.6,
                            p_delay: 0.05,
                            ..p.cpu
                        },
                    )),
                };
            }
            Scenario::TwoStandbys => {
                // The far standby's SRL disk writes in ~4 ms; it is ASYNC, so no commit
                // waits for it.
                p.topology = Topology::TwoStandbys {
                    far: Member {
                        srl_us: 4_000.0,
                        srl_sigma: 0.3,
                        srl_members: 1,
                        ship_bw_bps: 200.0 * MB,
                    },
                };
            }
            Scenario::FarSync => {
                // The far sync is the SYNC member, its SRLs as slow-srl's; it forwards
                // ASYNC to a terminal standby with fast SRLs.
                p.net0_us = 560.0;
                p.srl.members = 2;
                p.srl.s0_us = 2450.0;
                p.srl.sigma = 0.2;
                p.topology = Topology::FarSync {
                    terminal: Member {
                        srl_us: 500.0,
                        srl_sigma: 0.2,
                        srl_members: 1,
                        ship_bw_bps: 200.0 * MB,
                    },
                };
            }
            Scenario::SnapshotStandby => {
                p.apply_off = Some(ApplyOff {
                    at_s: 60.0,
                    kind: ApplyOffKind::Snapshot,
                });
            }
            Scenario::ApplyOff => {
                p.apply_off = Some(ApplyOff {
                    at_s: 60.0,
                    kind: ApplyOffKind::Broker,
                });
            }
            Scenario::GapTransient => {
                p.transient_gap = Some(Outage {
                    start_s: 60.0,
                    len_s: 20.0,
                });
            }
            Scenario::CatchUp => {
                // Two days of redo wait on the standby; apply runs at 3x the redo rate, so
                // it works through 3 s of the primary's time each second (the lag shrinks
                // 2 s/s) and its recovery area holds every unapplied log.
                p.catch_up_s = 2.0 * 86_400.0;
                let redo = p.nominal_redo_bps();
                p.apply.rate_bps = 3.0 * redo;
                let backlog = (p.catch_up_s * redo) as u64;
                p.standby_fra = FraParams {
                    limit_bytes: 8 << 40,
                    used_bytes: backlog + (600 << 30),
                    reclaimable_bytes: 40 << 30,
                    files: 1610 + backlog / p.orl_bytes,
                    fills: false,
                };
            }
            Scenario::SyncNetTimeout => {
                // The link black-holes (no reset): LGWR waits NET_TIMEOUT, fails the
                // destination with ORA-16198; the link is back after 70 s but the next
                // REOPEN try is 300 s after the failure.
                p.net_stall = Some(Outage {
                    start_s: 60.0,
                    len_s: 70.0,
                });
            }
            Scenario::FsfoOverLagLimit => {
                // MaxPerformance FSFO (ASYNC target) over a WAN link short of the redo rate.
                p.transport = Transport::Async;
                p.ship_bw_bps = 15.0 * MB;
                p.fsfo = Some(Fsfo {
                    threshold_s: 30,
                    lag_limit_s: 30,
                    observer_host: "obshost1",
                });
            }
            Scenario::Nologging => p.nologging = true,
            Scenario::ArchiverStuck => {
                p.transport = Transport::Async;
                p.ship_bw_bps = 500.0 * MB;
                p.active_dg = true;
                // Two minutes of archived redo left in a 64 GB area, nothing reclaimable (a
                // standby was down for hours under APPLIED ON ALL STANDBY). Time is
                // compressed: a real primary hangs once every online log waits for ARCn,
                // the twin the moment the area is full.
                let left = (120.0 * p.nominal_redo_bps()) as u64;
                p.primary_fra = FraParams {
                    limit_bytes: 64 << 30,
                    used_bytes: (64u64 << 30) - left,
                    reclaimable_bytes: 0,
                    files: 3120,
                    fills: true,
                };
            }
            Scenario::PrimaryFraFilling => {
                p.transport = Transport::Async;
                p.ship_bw_bps = 500.0 * MB;
                p.active_dg = true;
                // Sized so the archived redo adds 16 % of the limit in 7 minutes: 80 % → 96 %.
                let limit = p.nominal_redo_bps() * 420.0 / 0.16;
                p.primary_fra = FraParams {
                    limit_bytes: limit as u64,
                    used_bytes: (limit * 0.80) as u64,
                    reclaimable_bytes: 0,
                    files: 2870,
                    fills: true,
                };
            }
            Scenario::CheckpointIncomplete => {
                // 256 MB logs last ~30 s per thread; DBWR needs 110 s to checkpoint one, so
                // LGWR comes back to a log (after 3 others) before its checkpoint completes.
                p.orl_bytes = 256 * MB as u64;
                p.primary_ckpt_s = Some(110.0);
            }
            Scenario::CommitTail => {
                // A batch-like commit rate (100 sessions, 0.5 s apart): a stall holds every
                // session, so the few commits caught in it carry the average.
                p.sessions = 100;
                p.think_us = 500_000.0;
                p.log.l0_us = 1_000.0;
                p.cpu.load_per_cpu *= 4.0;
                p.lgwr_stalls = Some(SyncStalls {
                    every_s: 12.0,
                    min_s: 1.0,
                    max_s: 2.5,
                });
            }
            Scenario::MutexStorm => {
                // Few commits on slow-ish redo writes, and 160 sessions that never commit,
                // spinning on the library cache: commits are a sliver of DB time.
                p.sessions = 24;
                p.think_us = 50_000.0;
                p.log.l0_us = 2_900.0;
                p.cpu.busy = 0.75;
                p.workload = Workload {
                    in_db: 0.35,
                    other_aas: 160.0,
                    waits: MUTEX_STORM,
                };
            }
            Scenario::SyncHoldsLgwr => {
                // Larger transactions into a small log buffer: while LGWR waits for the SYNC
                // acknowledgement, the buffer fills.
                p.net0_us = 5_000.0;
                p.log.l0_us = 400.0;
                p.redo_per_commit = 24.0 * KB;
                p.log_buffer = 512 * 1024;
                // Logs sized for the redo rate (a switch every ~20 min), so that nothing but
                // the round trip holds LGWR.
                p.orl_bytes = 40 * GB;
            }
            Scenario::TwoSyncOneSlow => {
                // The near standby as healthy-sync; the second SYNC standby's SRL groups
                // have two members on a slow disk, each write ~4 ms.
                p.topology = Topology::TwoSync {
                    second: Member {
                        srl_us: 3_300.0,
                        srl_sigma: 0.25,
                        srl_members: 2,
                        ship_bw_bps: 200.0 * MB,
                    },
                };
            }
        }
        p
    }
}

impl FromStr for Scenario {
    type Err = UnknownScenario;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let want = s.trim().to_ascii_lowercase().replace('_', "-");
        Scenario::ALL
            .iter()
            .copied()
            .find(|sc| sc.name() == want)
            .ok_or_else(|| UnknownScenario {
                name: s.to_string(),
            })
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Half the fleet healthy, and 70 pairs meet every fault of the catalog.
    #[test]
    fn a_fleet_is_half_healthy_and_meets_every_fault() {
        let fleet: Vec<Scenario> = (0..70).map(Scenario::for_fleet).collect();
        let healthy = [
            Scenario::HealthySync,
            Scenario::HealthyAsync,
            Scenario::Fastsync,
            Scenario::TwoStandbys,
        ];
        assert_eq!(fleet.iter().filter(|s| healthy.contains(s)).count(), 35);
        for s in Scenario::ALL {
            assert!(fleet.contains(&s), "{s:?} never drawn");
        }
        // A dozen already mixes the commit path with transport and apply.
        let twelve: Vec<&str> = fleet[..12].iter().map(|s| s.name()).collect();
        for want in ["slow-srl", "bandwidth-async", "apply-stopped"] {
            assert!(twelve.contains(&want), "{twelve:?}");
        }
    }

    #[test]
    fn names_round_trip_and_unknown_lists_all() {
        for s in Scenario::ALL {
            assert_eq!(s.name().parse::<Scenario>().unwrap(), s);
            assert!(!s.description().is_empty());
        }
        assert_eq!("SLOW_SRL".parse::<Scenario>().unwrap(), Scenario::SlowSrl);
        let err = "nope".parse::<Scenario>().unwrap_err().to_string();
        assert!(err.contains("\"nope\""));
        for n in Scenario::names() {
            assert!(err.contains(n), "{err}");
        }
        assert_eq!(Scenario::names().len(), Scenario::ALL.len());
    }

    #[test]
    fn slow_standby_reads_slow_apply_down() {
        let rate = |s: Scenario| {
            let p = s.params();
            p.apply.effective_bps(&p.standby_io) / MB
        };
        assert!((rate(Scenario::HealthySync) - 300.0).abs() < 1e-6);
        assert!((45.0..=50.0).contains(&rate(Scenario::ApplyIoBound)));
        // Contention slows apply too, but it still outruns 24 MB/s of redo.
        assert!((40.0..=80.0).contains(&rate(Scenario::StandbyIoContention)));
    }

    #[test]
    fn every_scenario_differs_from_the_base_except_the_base() {
        let base = Scenario::HealthySync.params();
        for s in Scenario::ALL.into_iter().skip(1) {
            assert_ne!(s.params(), base, "{s}");
        }
    }
}
