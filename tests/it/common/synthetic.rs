//! A deterministic synthetic primary + standby pair, one sample each per second, with the
//! counters Oracle would show: a healthy minute (SYNC AFFIRM to a fast standby redo log),
//! then seed 000's incident (a slow two-member SRL: SYNC Remote Write 3.45 ms, log file sync
//! 4.60 ms, RFS random i/o 2.89 ms). Counters are cumulative from non-zero starts.

use dgscope::sample::names::{event, filetype, os, stat};
use dgscope::sample::{
    Bucket, DbInfo, Dest, DestStatus, DgStats, Event, FlatMap, IoStat, LagHistRow, LogSwitch, Name,
    OpenMode, Process, Recovery, Role, Sample, Slot, TransmitMode,
};
use dgscope::timestamp::Timestamp;
use dgscope::units::{Micros, Secs};
use std::collections::BTreeMap;

/// 2026-11-30T05:00:00Z: the synthetic incident's first sample.
pub const T0_MS: i64 = 1_796_014_800_000;

/// Histogram bucket bounds in µs (V$EVENT_HISTOGRAM_MICRO style, powers of two).
const BOUNDS: [u64; 9] = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

#[derive(Clone, Copy)]
struct Phase {
    tps: f64,
    redo_writes: f64,
    write_kb: f64,
    lfs_ms: f64,
    lfs_shares: [f64; 9],
    lfpw_ms: f64,
    lfpw_shares: [f64; 9],
    remote_ms: f64,
    remote_shares: [f64; 9],
    rfs_ms: f64,
    cpu: f64,
    transport_lag: f64,
    apply_lag: f64,
    apply_mb_s: f64,
}

const LFPW: [f64; 9] = [0.45, 0.45, 0.08, 0.015, 0.005, 0.0, 0.0, 0.0, 0.0];

const HEALTHY: Phase = Phase {
    tps: 7815.0,
    redo_writes: 2360.0,
    write_kb: 10.6,
    lfs_ms: 0.68,
    lfs_shares: [0.30, 0.50, 0.15, 0.04, 0.01, 0.0, 0.0, 0.0, 0.0],
    lfpw_ms: 0.57,
    lfpw_shares: LFPW,
    remote_ms: 0.45,
    remote_shares: [0.60, 0.35, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    rfs_ms: 0.31,
    cpu: 58.0,
    transport_lag: 0.0,
    apply_lag: 1.0,
    apply_mb_s: 31.2,
};

/// Seed 000's `log file sync` histogram: 17610, 43670, 8394, 4072, 4344, 2109, 460, 6.
const SEED000_LFS: [f64; 9] = [
    0.0,
    17610.0 / 80665.0,
    43670.0 / 80665.0,
    8394.0 / 80665.0,
    4072.0 / 80665.0,
    4344.0 / 80665.0,
    2109.0 / 80665.0,
    460.0 / 80665.0,
    6.0 / 80665.0,
];

const SLOW_SRL: Phase = Phase {
    tps: 6224.0,
    redo_writes: 898.0,
    write_kb: 20.5,
    lfs_ms: 4.60,
    lfs_shares: SEED000_LFS,
    lfpw_ms: 0.62,
    lfpw_shares: LFPW,
    remote_ms: 3.45,
    remote_shares: [0.0, 0.03, 0.25, 0.55, 0.12, 0.05, 0.0, 0.0, 0.0],
    rfs_ms: 2.89,
    cpu: 62.0,
    transport_lag: 0.4,
    apply_lag: 1.2,
    apply_mb_s: 31.2,
};

pub struct Synth {
    rng: u64,
    i: i64,
    /// Second at which the slow SRL starts.
    pub incident_at: i64,
    /// Active Data Guard standby (fills the apply-lag histogram).
    pub adg: bool,
    p_stats: BTreeMap<Name, u64>,
    p_events: BTreeMap<Name, Event>,
    p_busy: f64,
    p_idle: f64,
    p_io: BTreeMap<Name, IoStat>,
    s_events: BTreeMap<Name, Event>,
    s_io: BTreeMap<Name, IoStat>,
    s_lag_hist: [u64; 4],
    seq: u64,
    io_frac: BTreeMap<String, [f64; 6]>,
}

impl Synth {
    pub fn new(seed: u64) -> Self {
        let mut p_stats = BTreeMap::new();
        for (k, v) in [
            (stat::USER_COMMITS, 912_345_678u64),
            (stat::REDO_SIZE, 88_123_456_789),
            (stat::REDO_WRITES, 301_234_567),
            (stat::REDO_SYNCH_WRITES, 899_001_234),
            (stat::REDO_SYNCH_TIME_US, 611_000_000_000),
            (stat::REDO_SYNCH_POLL_WRITES, 0),
            (stat::REDO_SYNCH_POLLS, 0),
        ] {
            p_stats.insert(k.into(), v);
        }
        Synth {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            i: 0,
            incident_at: 60,
            adg: false,
            p_stats,
            p_events: BTreeMap::new(),
            p_busy: 40_000_000.0,
            p_idle: 30_000_000.0,
            p_io: BTreeMap::new(),
            s_events: BTreeMap::new(),
            s_io: BTreeMap::new(),
            s_lag_hist: [500_000, 20_000, 900, 40],
            seq: 813,
            io_frac: BTreeMap::new(),
        }
    }

    /// ±`pct` % noise, deterministic (xorshift64*).
    fn noise(&mut self, pct: f64) -> f64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let r = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        let u = r as f64 / (1u64 << 53) as f64; // [0, 1)
        1.0 + (u * 2.0 - 1.0) * pct / 100.0
    }

    fn phase(&self) -> Phase {
        if self.i < self.incident_at {
            HEALTHY
        } else {
            SLOW_SRL
        }
    }

    pub fn t(&self) -> Timestamp {
        Timestamp::from_millis(T0_MS + self.i * 1000)
    }

    /// The next second's pair: (primary, standby).
    pub fn next_pair(&mut self) -> (Sample, Sample) {
        let ph = self.phase();
        let t = self.t();
        let p = self.primary(t, ph);
        let s = self.standby(t, ph);
        self.i += 1;
        (p, s)
    }

    fn add_stat(&mut self, name: &str, v: f64) {
        *self.p_stats.entry(name.into()).or_default() += v.round().max(0.0) as u64;
    }

    fn add_event(
        events: &mut BTreeMap<Name, Event>,
        name: &str,
        waits: f64,
        avg_ms: f64,
        shares: &[f64; 9],
    ) {
        let waits = waits.round().max(0.0) as u64;
        let e = events.entry(name.into()).or_insert_with(|| Event {
            waits: 1_000_000,
            us: Micros(1_000_000 * (avg_ms * 1000.0) as u64),
            hist: BOUNDS.iter().map(|b| Bucket(Micros(*b), 0)).collect(),
            ..Default::default()
        });
        e.waits += waits;
        e.us = Micros(e.us.0 + (waits as f64 * avg_ms * 1000.0).round() as u64);
        // Largest share takes the rounding remainder so the buckets sum to the waits.
        let mut counts: Vec<u64> = shares
            .iter()
            .map(|s| (s * waits as f64).floor() as u64)
            .collect();
        let rest = waits - counts.iter().sum::<u64>();
        let top = shares
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|x| x.0)
            .unwrap_or(0);
        counts[top] += rest;
        for (b, c) in e.hist.iter_mut().zip(counts) {
            b.1 += c;
        }
    }

    /// Adds one second of I/O to a file type: requests/s, MB/s and service times (ms).
    #[allow(clippy::too_many_arguments)]
    fn add_io(
        io: &mut BTreeMap<Name, IoStat>,
        frac: &mut BTreeMap<String, [f64; 6]>,
        key: String,
        r_s: f64,
        w_s: f64,
        r_mb: f64,
        w_mb: f64,
        r_ms: f64,
        w_ms: f64,
    ) {
        let x = io.entry(Name::from(&key)).or_insert(IoStat {
            rreq: 5_000_000,
            wreq: 9_000_000,
            rmb: 40_000,
            wmb: 90_000,
            rms: 4_000_000,
            wms: 6_000_000,
        });
        // Carry fractions so integer counters average out exactly over a window.
        let f = frac.entry(key).or_insert([0.0; 6]);
        let adds = [r_s, w_s, r_mb, w_mb, r_s * r_ms, w_s * w_ms];
        let mut whole = [0u64; 6];
        for k in 0..6 {
            f[k] += adds[k];
            whole[k] = f[k].floor() as u64;
            f[k] -= whole[k] as f64;
        }
        x.rreq += whole[0];
        x.wreq += whole[1];
        x.rmb += whole[2];
        x.wmb += whole[3];
        x.rms += whole[4];
        x.wms += whole[5];
    }

    fn primary(&mut self, t: Timestamp, ph: Phase) -> Sample {
        let tps = ph.tps * self.noise(3.0);
        let writes = ph.redo_writes * self.noise(3.0);
        let redo_bytes = writes * ph.write_kb * 1024.0 * self.noise(1.0);
        self.add_stat(stat::USER_COMMITS, tps);
        self.add_stat(stat::REDO_WRITES, writes);
        self.add_stat(stat::REDO_SIZE, redo_bytes);
        self.add_stat(stat::REDO_SYNCH_WRITES, tps * 0.98);
        self.add_stat(stat::REDO_SYNCH_TIME_US, tps * 0.98 * ph.lfs_ms * 1000.0);
        let (lfs, lfpw, remote) = (
            ph.lfs_ms * self.noise(4.0),
            ph.lfpw_ms * self.noise(4.0),
            ph.remote_ms * self.noise(4.0),
        );
        Self::add_event(
            &mut self.p_events,
            event::LOG_FILE_SYNC,
            tps * 0.98,
            lfs,
            &ph.lfs_shares,
        );
        Self::add_event(
            &mut self.p_events,
            event::LOG_FILE_PARALLEL_WRITE,
            writes,
            lfpw,
            &ph.lfpw_shares,
        );
        Self::add_event(
            &mut self.p_events,
            event::SYNC_REMOTE_WRITE,
            writes,
            remote,
            &ph.remote_shares,
        );
        let cpu = ph.cpu * self.noise(3.0);
        self.p_busy += 16.0 * cpu; // centiseconds over 16 CPUs in one second
        self.p_idle += 16.0 * (100.0 - cpu);
        let mb = redo_bytes / 1_048_576.0;
        Self::add_io(
            &mut self.p_io,
            &mut self.io_frac,
            format!("p:{}", filetype::LOG_FILE),
            2.0,
            writes,
            0.0,
            mb,
            0.4,
            lfpw * 0.95,
        );
        let (dr, dw) = (1450.0 * self.noise(5.0), 610.0 * self.noise(5.0));
        Self::add_io(
            &mut self.p_io,
            &mut self.io_frac,
            format!("p:{}", filetype::DATA_FILE),
            dr,
            dw,
            11.3,
            4.8,
            0.42,
            0.55,
        );
        Self::add_io(
            &mut self.p_io,
            &mut self.io_frac,
            format!("p:{}", filetype::CONTROL_FILE),
            12.0,
            3.0,
            0.2,
            0.05,
            0.2,
            0.6,
        );
        let mut s = Sample::new(t, Slot::primary());
        s.query_us = Some(Micros(4200));
        s.db = Some(
            DbInfo {
                name: Some("prod_a".into()),
                role: Some(Role::Primary),
                open_mode: Some(OpenMode::ReadWrite),
                protection_mode: Some("MAXIMUM AVAILABILITY".into()),
                protection_level: Some("MAXIMUM AVAILABILITY".into()),
                version: Some("19.21".into()),
                startup: Some(Timestamp::from_millis(T0_MS - 86_400_000 * 12)),
                host: Some("dbhost-a".into()),
                instances: Some(1),
                ..DbInfo::default()
            }
            .into(),
        );
        s.stats = self.p_stats.clone().into_iter().collect();
        s.events = self.p_events.clone().into_iter().collect();
        s.os.insert(os::BUSY_TIME.into(), self.p_busy.round());
        s.os.insert(os::IDLE_TIME.into(), self.p_idle.round());
        s.os.insert(os::NUM_CPUS.into(), 16.0);
        s.os.insert(os::LOAD.into(), 9.75);
        s.iostat = strip(&self.p_io, "p:");
        s.dests = vec![Dest {
            id: 2,
            name: Some("prod_b".into()),
            status: DestStatus::Valid,
            mode: TransmitMode::Sync,
            affirm: true,
            compression: None,
            net_timeout_s: Some(30),
            gap: Some("NO GAP".into()),
            error: None,
            archived_seq: Some(self.seq - 1),
            applied_seq: Some(self.seq - 1),
            resp_hist: vec![],
            ..Default::default()
        }];
        // V$LOG_HISTORY is slow-changing: fetched on the first sample and every 30 s.
        if self.i % 30 == 0 {
            let every = 15 * 60 * 1000;
            s.switches = Some(std::sync::Arc::new(
                (1..=5)
                    .map(|k| LogSwitch {
                        thread: 1,
                        sequence: self.seq - k,
                        time: Timestamp::from_millis(T0_MS - k as i64 * every + 7 * 60 * 1000),
                    })
                    .collect(),
            ));
        }
        s
    }

    fn standby(&mut self, t: Timestamp, ph: Phase) -> Sample {
        let writes = ph.redo_writes * self.noise(3.0);
        let rfs = ph.rfs_ms * self.noise(4.0);
        let rfs_shares = if ph.rfs_ms > 1.0 {
            [0.0, 0.05, 0.35, 0.50, 0.08, 0.02, 0.0, 0.0, 0.0]
        } else {
            [0.80, 0.18, 0.02, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        };
        Self::add_event(
            &mut self.s_events,
            event::RFS_RANDOM_IO,
            writes,
            rfs,
            &rfs_shares,
        );
        Self::add_event(
            &mut self.s_events,
            event::CHECKPOINT_COMPLETED,
            0.2,
            35.0,
            &[0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.6, 0.2, 0.0],
        );
        let mb = writes * ph.write_kb / 1024.0;
        Self::add_io(
            &mut self.s_io,
            &mut self.io_frac,
            format!("s:{}", filetype::LOG_FILE),
            31.0,
            writes,
            ph.apply_mb_s,
            mb,
            0.5,
            rfs * 0.98,
        );
        let (dr, dw) = (120.0 * self.noise(5.0), 410.0 * self.noise(5.0));
        Self::add_io(
            &mut self.s_io,
            &mut self.io_frac,
            format!("s:{}", filetype::DATA_FILE),
            dr,
            dw,
            0.9,
            3.2,
            0.8,
            1.1,
        );
        Self::add_io(
            &mut self.s_io,
            &mut self.io_frac,
            format!("s:{}", filetype::ARCHIVE_LOG),
            0.0,
            2.0,
            0.0,
            mb * 0.5,
            0.0,
            4.0,
        );
        let mut s = Sample::new(t, Slot::standby());
        s.query_us = Some(Micros(6100));
        s.db = Some(
            DbInfo {
                name: Some("prod_b".into()),
                role: Some(Role::PhysicalStandby),
                open_mode: Some(if self.adg {
                    OpenMode::ReadOnlyWithApply
                } else {
                    OpenMode::Mounted
                }),
                protection_mode: Some("MAXIMUM AVAILABILITY".into()),
                protection_level: Some("MAXIMUM AVAILABILITY".into()),
                version: Some("19.21".into()),
                startup: Some(Timestamp::from_millis(T0_MS - 86_400_000 * 3)),
                host: Some("dbhost-b".into()),
                instances: Some(1),
                ..DbInfo::default()
            }
            .into(),
        );
        s.events = self.s_events.clone().into_iter().collect();
        s.iostat = strip(&self.s_io, "s:");
        // Lags wobble by tenths of a second around the phase's level, as Oracle reports them.
        let tl = (ph.transport_lag * self.noise(10.0) * 10.0).round() / 10.0;
        let al = ((ph.apply_lag + ((self.i / 10) % 3) as f64 * 0.1) * 10.0).round() / 10.0;
        s.dg = Some(DgStats {
            transport_lag_s: Some(Secs(tl)),
            apply_lag_s: Some(Secs(al)),
            apply_finish_s: Some(Secs(0.1)),
            computed: Some(t.add_millis(-1000)),
            datum: Some(t.add_millis(-2000)),
            ..Default::default()
        });
        let kbps = ph.apply_mb_s * 1024.0 * self.noise(2.0);
        s.recovery = Some(Recovery {
            active_apply_kbps: Some((kbps * 10.0).round() / 10.0),
            average_apply_kbps: Some(30_900.0),
            max_apply_kbps: Some(98_000.0),
            redo_applied_mb: Some(1_234_567.0 + self.i as f64 * 31.2),
            last_applied: Some(t.add_millis(-1200)),
            apply_time_per_log_s: Some(16.2),
            checkpoint_time_per_log_s: Some(0.8),
        });
        s.processes = vec![
            Process {
                name: "MRP0".into(),
                role: Some("recovery apply slave".into()),
                action: Some("APPLYING_LOG".into()),
                thread: Some(1),
                sequence: Some(self.seq),
                ..Default::default()
            },
            Process {
                name: "RFS".into(),
                role: Some("RFS sync".into()),
                action: Some("RECEIVING".into()),
                thread: Some(1),
                sequence: Some(self.seq),
                ..Default::default()
            },
        ]
        .into();
        if self.adg {
            self.s_lag_hist[0] += 1;
            if self.i % 7 == 0 {
                self.s_lag_hist[1] += 1;
            }
            s.lag_hist = Some(
                self.s_lag_hist
                    .iter()
                    .enumerate()
                    .map(|(k, c)| LagHistRow {
                        name: "apply lag".into(),
                        lag_s: k as u64,
                        count: *c,
                    })
                    .collect(),
            );
        }
        s
    }
}

fn strip(io: &BTreeMap<Name, IoStat>, prefix: &str) -> FlatMap<Name, IoStat> {
    io.iter()
        .filter_map(|(k, v)| k.strip_prefix(prefix).map(|k| (Name::from(k), *v)))
        .collect()
}

/// `n` seconds of pairs from seed `seed`, in time order.
pub fn samples(seed: u64, n: usize) -> Vec<Sample> {
    let mut g = Synth::new(seed);
    let mut out = Vec::with_capacity(n * 2);
    for _ in 0..n {
        let (p, s) = g.next_pair();
        out.push(p);
        out.push(s);
    }
    out
}
