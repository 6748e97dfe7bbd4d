//! Every knob of the twin, in one plain struct. Scenarios are small edits of
//! [`Params::calibrated`] (TWIN-MODEL.md §3, table 1 of seed 000). Units: µs, bytes, bytes/s.

pub const KB: f64 = 1024.0;
pub const MB: f64 = 1024.0 * 1024.0;
pub const GB: u64 = 1024 * 1024 * 1024;

/// How the primary ships redo to the standby (`LOG_ARCHIVE_DEST_2`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transport {
    /// SYNC; `affirm: false` is FASTSYNC (SYNC NOAFFIRM).
    Sync {
        affirm: bool,
    },
    Async,
    /// The destination is deferred: no redo leaves the primary (the "no SYNC" baselines).
    Defer,
}

impl Transport {
    pub fn is_sync(self) -> bool {
        matches!(self, Transport::Sync { .. })
    }
}

/// Redo transport compression (`COMPRESSION=ZLIB`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compression {
    pub ratio: f64,
    /// Input bytes per second one transport process can compress.
    pub compressor_bps: f64,
}

/// How committing sessions learn their redo is on disk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PostParams {
    /// `_use_adaptive_log_file_sync` (TRUE by default since 11.2.0.3).
    pub adaptive: bool,
    /// Start in polling with this interval (µs) instead of post/wait.
    pub start_polling_us: Option<f64>,
    /// The field-reported bug: once polling, never switch back.
    pub polling_stuck: bool,
    /// LGWR posts sessions one after another (µs each).
    pub post_us: f64,
    /// A posted foreground needs this long to run again (µs).
    pub fg_wake_us: f64,
    /// LGWR wakes this long after the first commit arrives when idle (µs).
    pub lgwr_wake_us: f64,
}

/// Scheduling delays: each wake is late with probability `p_delay` by a geometric number of
/// OS quanta (Savvinov's 10/20/30 ms peaks). The host figures feed `V$OSSTAT`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuParams {
    pub num_cpus: u32,
    /// Host CPU busy share (0..1) apart from this database's commits.
    pub busy: f64,
    /// Run-queue length as a multiple of NUM_CPUS (`LOAD`).
    pub load_per_cpu: f64,
    pub p_delay: f64,
    pub quantum_us: f64,
}

/// Local online redo log device.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogDevice {
    pub l0_us: f64,
    pub bw_bps: f64,
    pub sigma: f64,
    pub members: u32,
}

/// Periodic storage latency spikes on the primary's redo log device.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spikes {
    pub every_s: f64,
    pub len_s: f64,
    pub factor: f64,
}

/// Rare single-write stalls (I/O hiccups) on the primary's redo log device.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stalls {
    pub p_per_write: f64,
    pub mean_us: f64,
    pub sigma: f64,
}

/// The standby redo logs as RFS writes them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SrlParams {
    pub members: u32,
    pub s0_us: f64,
    pub bw_bps: f64,
    pub sigma: f64,
    /// SRL groups per thread.
    pub groups: u32,
}

/// The standby's full checkpoint at each log switch slows SRL writes for a while.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CkptParams {
    /// SRL latency factor right after the switch, decaying as e^(−3·dt/dur).
    pub factor: f64,
    pub dur_s: f64,
    /// Probability that a write inside the window also stalls for Exp(20 × its latency).
    pub tail_p: f64,
}

/// Standby I/O service times (µs per request) outside the SRL writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StandbyIo {
    pub data_read_us: f64,
    pub data_write_us: f64,
    pub archive_write_us: f64,
}

/// Media recovery (MRP) on the standby.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ApplyParams {
    /// Apply rate with datafile reads at [`BASE_READ_US`].
    pub rate_bps: f64,
    /// Share of apply time spent waiting on datafile reads at [`BASE_READ_US`]: slower reads
    /// stretch that share (seed 004: the redo apply rate is I/O-bound).
    pub io_bound: f64,
    /// Apply stops for this long at each standby log switch (checkpoint).
    pub ckpt_s_per_log: f64,
    /// Redo younger than this is not applied yet: the log merger of Multi-Instance Redo
    /// Apply orders every thread's redo before the instances apply it (≈ 1 s); 0 otherwise.
    pub merge_s: f64,
    /// Instances of the standby running apply (2+ = Multi-Instance Redo Apply). MIRA reports
    /// an Active Apply Rate of 0 in `V$RECOVERY_PROGRESS` (the known quirk).
    pub instances: u32,
}

/// Datafile read latency at which `ApplyParams::rate_bps` is measured.
pub const BASE_READ_US: f64 = 700.0;

impl ApplyParams {
    /// Apply rate given the standby's datafile read latency.
    pub fn effective_bps(&self, io: &StandbyIo) -> f64 {
        let stretch = 1.0 - self.io_bound + self.io_bound * io.data_read_us / BASE_READ_US;
        self.rate_bps / stretch.max(1e-3)
    }
}

/// Standby unreachable from `start_s` (after the scenario starts) for `len_s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outage {
    pub start_s: f64,
    pub len_s: f64,
}

impl Outage {
    pub fn contains(&self, since_scenario_s: f64) -> bool {
        since_scenario_s >= self.start_s && since_scenario_s < self.start_s + self.len_s
    }
}

/// SYNC response stalls (standby or network hiccups): about every `every_s` the remote write
/// hangs for a length drawn from `min_s..max_s`. Windows are fixed by the seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyncStalls {
    pub every_s: f64,
    pub min_s: f64,
    pub max_s: f64,
}

/// What sessions do in the database besides committing, for DB time (`V$SYS_TIME_MODEL`,
/// `V$SYSSTAT` DB time) and the top of `V$SYSTEM_EVENT`: the commit path's share of DB time
/// is what decides whether it matters at all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Workload {
    /// Of each committing session's time between commits (its think time), the share spent
    /// in database calls: CPU and the waits below.
    pub in_db: f64,
    /// Average active sessions that never commit (reports, a contention storm), all of it DB
    /// time.
    pub other_aas: f64,
    /// The non-commit DB time's waits: `(event, wait class, share of that DB time, average
    /// wait µs)`; the rest is DB CPU.
    pub waits: &'static [(&'static str, &'static str, f64, f64)],
}

/// An OLTP mix: most of the time on CPU, the rest mostly single-block reads.
pub const OLTP: &[(&str, &str, f64, f64)] = &[
    ("db file sequential read", "User I/O", 0.35, 600.0),
    (
        "enq: TX - row lock contention",
        "Application",
        0.04,
        3_000.0,
    ),
];

/// A recovery area (`V$RECOVERY_FILE_DEST`) at the start of the run. With `fills`, archived
/// logs are never reclaimed (a wrong deletion policy), so use grows with every archived byte
/// until the limit; then ARCn cannot archive and RFS has nowhere to write.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FraParams {
    pub limit_bytes: u64,
    pub used_bytes: u64,
    pub reclaimable_bytes: u64,
    pub files: u64,
    pub fills: bool,
}

/// Redo apply switched off by design from `at_s` seconds after the scenario starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ApplyOff {
    pub at_s: f64,
    pub kind: ApplyOffKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyOffKind {
    /// `CONVERT TO SNAPSHOT STANDBY`: open READ WRITE, redo received and archived only.
    Snapshot,
    /// The broker's `EDIT DATABASE … SET STATE='APPLY-OFF'` on a mounted physical standby.
    Broker,
}

/// Fast-start failover enabled, the simulated standby its target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fsfo {
    /// `FastStartFailoverThreshold` (`V$DATABASE.FS_FAILOVER_THRESHOLD`), seconds.
    pub threshold_s: u64,
    /// `FastStartFailoverLagLimit`, seconds.
    pub lag_limit_s: u64,
    /// The master observer's host.
    pub observer_host: &'static str,
}

/// Redo rate over time: `burst_s` at the nominal rate, then `quiet_s` with think time ×
/// `quiet_think_factor`, repeating. `None` is a constant load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub burst_s: f64,
    pub quiet_s: f64,
    pub quiet_think_factor: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    // workload
    pub sessions: u32,
    pub think_us: f64,
    pub think_cv: f64,
    pub redo_per_commit: f64,
    pub profile: Option<Profile>,
    pub workload: Workload,
    // primary
    pub threads: u32,
    pub post: PostParams,
    pub cpu: CpuParams,
    pub log: LogDevice,
    pub spikes: Option<Spikes>,
    pub stalls: Option<Stalls>,
    pub orl_bytes: u64,
    pub orl_groups: u32,
    pub log_buffer: u64,
    /// LGWR's own time to switch to the next online log (µs).
    pub switch_us: f64,
    pub primary_data_read_us: f64,
    pub primary_data_write_us: f64,
    // transport
    pub transport: Transport,
    pub net0_us: f64,
    pub net_bw_bps: f64,
    /// Bandwidth for ASYNC shipping and gap resolution.
    pub ship_bw_bps: f64,
    pub compression: Option<Compression>,
    pub net_timeout_s: f64,
    pub reopen_s: f64,
    // standby
    pub srl: SrlParams,
    pub ckpt: CkptParams,
    pub standby_io: StandbyIo,
    pub apply: ApplyParams,
    pub outage: Option<Outage>,
    /// The redo transport network alone is down (the standby still answers dgscope).
    pub link_outage: Option<Outage>,
    /// `log_archive_dest_state_2=DEFER` from this many seconds after the scenario starts:
    /// redo queues on the primary, nothing ships.
    pub defer_at_s: Option<f64>,
    /// `DELAY=n` on the destination (minutes): MRP applies redo only once it is that old,
    /// and real-time apply is off.
    pub delay_mins: u32,
    /// MRP0 dies this many seconds after the scenario starts (a datafile added on the
    /// primary under `standby_file_management=MANUAL`) and nobody restarts it.
    pub apply_stop_s: Option<f64>,
    pub sync_stalls: Option<SyncStalls>,
    /// LGWR stalls before a write (it waits for sessions still copying redo, `LGWR wait for
    /// redo copy`): about every `every_s`, for `min_s..max_s`, windows fixed by the seed.
    pub lgwr_stalls: Option<SyncStalls>,
    /// The SYNC link stops answering (no reset, packets lost) for this window: LGWR waits
    /// NET_TIMEOUT, then the destination fails with ORA-16198, not ORA-12543.
    pub net_stall: Option<Outage>,
    /// Apply off by design (snapshot standby, broker APPLY-OFF).
    pub apply_off: Option<ApplyOff>,
    /// A lone `V$ARCHIVE_GAP` row for the sequence MRP0 is applying, in this window.
    pub transient_gap: Option<Outage>,
    /// Seconds of redo the standby had received but not applied when the run began (it
    /// returns from a long outage with its gap already fetched).
    pub catch_up_s: f64,
    pub fsfo: Option<Fsfo>,
    /// A NOLOGGING load on the primary with FORCE_LOGGING off: `V$DATAFILE` shows
    /// unrecoverable changes.
    pub nologging: bool,
    /// The primary's recovery area. With `fills`, every archived byte of redo stays in it
    /// (the deletion policy keeps logs not yet applied and backed up); once full, ARCn
    /// stops and sessions wait on `log file switch (archiving needed)`.
    pub primary_fra: FraParams,
    pub standby_fra: FraParams,
    /// The primary's DBWR needs this many seconds to complete the checkpoint of a log it
    /// switched out of: LGWR reusing that log earlier waits `log file switch (checkpoint
    /// incomplete)`. `None`: checkpoints always complete in time.
    pub primary_ckpt_s: Option<f64>,
    /// Active Data Guard (READ ONLY WITH APPLY): the standby has `lag_hist`.
    pub active_dg: bool,
    /// The configuration the twin plays (issue 13's topologies).
    pub topology: Topology,
}

/// Which Data Guard configuration the twin's samples describe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Topology {
    /// One primary (its threads summed, as one `V$` view) and one standby.
    Pair,
    /// A RAC primary reported per instance (`Sample.instances`, one instance per redo thread,
    /// each on its own host); `hot`: the 0-based thread whose host has other CPU figures.
    Rac { hot: Option<(u32, CpuParams)> },
    /// SYNC to the simulated near standby, ASYNC to a far standby with its own SRL disk.
    TwoStandbys { far: Member },
    /// The simulated SYNC member is a far sync instance that forwards ASYNC to a terminal
    /// standby.
    FarSync { terminal: Member },
    /// SYNC to the simulated near standby and SYNC AFFIRM to a second one: LGWR waits for
    /// both remote writes, so every commit waits for the slower.
    TwoSync { second: Member },
}

/// A member beside the simulated one: fed ASYNC (the far standby, the terminal standby
/// behind a far sync) or SYNC (the second SYNC standby).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Member {
    /// Its SRL write latency (µs, lognormal median) and spread.
    pub srl_us: f64,
    pub srl_sigma: f64,
    /// Members per SRL group (RFS waits for the slowest).
    pub srl_members: u32,
    /// Shipping bandwidth to it (bytes/s).
    pub ship_bw_bps: f64,
}

impl Params {
    /// The CPU figures of thread `th`'s host.
    pub fn cpu_of(&self, th: u32) -> CpuParams {
        match self.topology {
            Topology::Rac {
                hot: Some((hot, cpu)),
            } if hot == th => cpu,
            _ => self.cpu,
        }
    }
}

impl Params {
    /// Seed 000 table 1 with SYNC on a fast single-member SRL: the healthy base. N and Z come
    /// from Little's law on the published TPS (TWIN-MODEL.md §1.3).
    pub fn calibrated() -> Self {
        Params {
            sessions: 120,
            think_us: 14_660.0,
            think_cv: 1.0,
            redo_per_commit: 3.2 * KB,
            profile: None,
            workload: Workload {
                in_db: 0.35,
                other_aas: 0.0,
                waits: OLTP,
            },
            threads: 3,
            post: PostParams {
                adaptive: true,
                start_polling_us: None,
                polling_stuck: false,
                post_us: 3.0,
                fg_wake_us: 20.0,
                lgwr_wake_us: 20.0,
            },
            cpu: CpuParams {
                num_cpus: 32,
                busy: 0.42,
                load_per_cpu: 0.45,
                p_delay: 0.0,
                quantum_us: 10_000.0,
            },
            log: LogDevice {
                // TWIN-MODEL §3 has 515 µs + s/200 MB/s; a faster size term keeps lfpw within
                // seed 000's +9 % when SYNC doubles the write size (the prototype gave +16 %).
                l0_us: 535.0,
                bw_bps: 400.0 * MB,
                sigma: 0.35,
                members: 2,
            },
            spikes: None,
            stalls: None,
            orl_bytes: 8 * GB,
            orl_groups: 4,
            log_buffer: 64 * 1024 * 1024,
            switch_us: 3_000.0,
            primary_data_read_us: 600.0,
            primary_data_write_us: 900.0,
            transport: Transport::Sync { affirm: true },
            net0_us: 300.0,
            net_bw_bps: 1200.0 * MB,
            ship_bw_bps: 200.0 * MB,
            compression: None,
            net_timeout_s: 30.0,
            reopen_s: 300.0,
            srl: SrlParams {
                members: 1,
                s0_us: 450.0,
                bw_bps: 200.0 * MB,
                sigma: 0.5,
                groups: 5,
            },
            ckpt: CkptParams {
                factor: 1.5,
                dur_s: 2.0,
                tail_p: 0.0,
            },
            standby_io: StandbyIo {
                data_read_us: BASE_READ_US,
                data_write_us: 1_000.0,
                archive_write_us: 1_500.0,
            },
            apply: ApplyParams {
                rate_bps: 300.0 * MB,
                io_bound: 0.3,
                ckpt_s_per_log: 2.0,
                merge_s: 0.0,
                instances: 1,
            },
            outage: None,
            link_outage: None,
            defer_at_s: None,
            delay_mins: 0,
            apply_stop_s: None,
            sync_stalls: None,
            lgwr_stalls: None,
            net_stall: None,
            apply_off: None,
            transient_gap: None,
            catch_up_s: 0.0,
            fsfo: None,
            nologging: false,
            // 2 TB recovery areas, steady: the primary's archives are backed up and deleted,
            // the standby's are reclaimable once applied.
            primary_fra: FraParams {
                limit_bytes: 2 << 40,
                used_bytes: 901 << 30,
                reclaimable_bytes: 262 << 30,
                files: 1843,
                fills: false,
            },
            standby_fra: FraParams {
                limit_bytes: 2 << 40,
                used_bytes: 786 << 30,
                reclaimable_bytes: 611 << 30,
                files: 1610,
                fills: false,
            },
            primary_ckpt_s: None,
            active_dg: false,
            topology: Topology::Pair,
        }
    }

    /// Nominal redo bytes per second (all threads) from Little's law with an assumed 1 ms
    /// commit wait; only used to back-date the log switch history before the run.
    pub fn nominal_redo_bps(&self) -> f64 {
        let think = match self.profile {
            Some(p) => self.think_us * p.quiet_think_factor,
            None => self.think_us,
        };
        f64::from(self.sessions) / ((think + 1000.0) * 1e-6) * self.redo_per_commit
    }

    /// Bytes per second the transport can move, counted as uncompressed redo.
    pub fn ship_capacity_bps(&self) -> f64 {
        match self.compression {
            Some(c) => (self.ship_bw_bps * c.ratio).min(c.compressor_bps),
            None => self.ship_bw_bps,
        }
    }

    /// Is the standby reachable at `t_s` seconds after the scenario started?
    pub fn standby_up(&self, since_scenario_s: f64) -> bool {
        match self.outage {
            Some(o) => !(since_scenario_s >= o.start_s && since_scenario_s < o.start_s + o.len_s),
            None => true,
        }
    }

    /// Is the redo transport network up at `since_scenario_s`? (The standby itself may be
    /// reachable while it is not.)
    pub fn link_up(&self, since_scenario_s: f64) -> bool {
        let inside = |o: Option<Outage>| o.is_some_and(|o| o.contains(since_scenario_s));
        self.standby_up(since_scenario_s) && !inside(self.link_outage) && !inside(self.net_stall)
    }

    /// Has `log_archive_dest_state_2` been set to DEFER by `since_scenario_s`?
    pub fn deferred(&self, since_scenario_s: f64) -> bool {
        self.defer_at_s.is_some_and(|d| since_scenario_s >= d)
    }

    /// Is MRP running at `since_scenario_s`?
    pub fn apply_running(&self, since_scenario_s: f64) -> bool {
        !self.mrp_died(since_scenario_s) && self.apply_off_now(since_scenario_s).is_none()
    }

    /// Has MRP0 died on an error by `since_scenario_s` (not stopped by design)?
    pub fn mrp_died(&self, since_scenario_s: f64) -> bool {
        self.apply_stop_s.is_some_and(|s| since_scenario_s >= s)
    }

    /// Apply off by design at `since_scenario_s`, and how.
    pub fn apply_off_now(&self, since_scenario_s: f64) -> Option<ApplyOffKind> {
        self.apply_off
            .filter(|a| since_scenario_s >= a.at_s)
            .map(|a| a.kind)
    }

    /// A snapshot standby at `since_scenario_s`.
    pub fn snapshot_now(&self, since_scenario_s: f64) -> bool {
        self.apply_off_now(since_scenario_s) == Some(ApplyOffKind::Snapshot)
    }

    /// How old redo must be before MRP applies it: the destination's DELAY plus MIRA's merge.
    pub fn apply_hold_s(&self) -> f64 {
        f64::from(self.delay_mins) * 60.0 + self.apply.merge_s
    }

    /// Think-time multiplier at `t_s` seconds after the scenario started.
    pub fn think_factor(&self, since_scenario_s: f64) -> f64 {
        match self.profile {
            Some(p) => {
                let cycle = p.burst_s + p.quiet_s;
                if since_scenario_s.rem_euclid(cycle) < p.burst_s {
                    1.0
                } else {
                    p.quiet_think_factor
                }
            }
            None => 1.0,
        }
    }
}
