//! Test support: a primary/standby pair with chosen averages, rates and states, turned into
//! cumulative samples and fed through the metrics engine exactly as a source would.

use crate::metrics::Engine;
use dgscope_model::sample::names::{event, filetype, os, stat};
use dgscope_model::sample::{
    Bucket, DbInfo, Dest, DestStatus, DgMessage, DgStats, Event, Fra, Gap, IoStat, Log, LogStatus,
    LogSwitch, Logs, Name, Process, Recovery, Role, Sample, SampleErrorKind, Slot, TransmitMode,
};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{Micros, Secs};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub(crate) struct Pair {
    pub tps: f64,
    pub lfs_ms: f64,
    pub lfpw_ms: f64,
    pub remote_ms: Option<f64>,
    pub rfs_ms: Option<f64>,
    pub affirm: bool,
    pub sync: bool,
    pub writes_per_s: f64,
    pub redo_mb_s: f64,
    pub poll_writes_per_s: f64,
    pub cpu_pct: f64,
    pub load: f64,
    pub num_cpus: f64,
    pub transport_lag_s: f64,
    pub apply_lag_s: f64,
    /// Seconds of lag added per second of run (a growing lag).
    pub transport_lag_growth: f64,
    pub apply_lag_growth: f64,
    pub apply_mb_s: f64,
    pub primary_log_w_ms: f64,
    pub standby_log_w_ms: f64,
    pub primary_data_w_ms: f64,
    pub standby_data_w_ms: f64,
    /// Data File write requests per second on the standby.
    pub standby_data_writes_per_s: f64,
    pub switch_every_s: f64,
    pub orl_mb: u64,
    pub orl_groups: u32,
    pub srl_groups: u32,
    pub srl_mb: u64,
    pub srl_members: u32,
    /// `V$STANDBY_LOG.BLOCKSIZE` (the online logs are 512).
    pub srl_blocksize: u32,
    pub log_buffer_mb: u64,
    pub dest_status: DestStatus,
    pub dest_error: Option<String>,
    pub gap: String,
    pub datum_frozen: bool,
    /// `log file sync` histogram per second as (bound µs, waits); default: all in one bucket.
    pub lfs_hist: Option<Vec<(u64, u64)>>,
    pub standby_down_from_s: Option<i64>,
    /// `V$DATAGUARD_STATS` reports no transport lag (NULL) / no apply lag.
    pub transport_lag_null: bool,
    pub apply_lag_null: bool,
    /// MRP0's action (`APPLYING_LOG`, `WAIT_FOR_GAP`, `ERROR` …); `None`: no MRP0 row.
    pub mrp_action: Option<String>,
    /// RFS receiving on the standby.
    pub rfs_receiving: bool,
    /// Write the standby's process rows at all (an empty list = the view was not read).
    pub processes: bool,
    /// `DELAY_MINS` on the destination and MRP0.
    pub delay_mins: u32,
    /// The destination's `RECOVERY_MODE`.
    pub recovery_mode: String,
    pub protection_mode: Option<String>,
    pub protection_level: Option<String>,
    /// The standby's recovery area: (limit GB, used %, reclaimable %).
    pub fra: Option<(u64, f64, f64)>,
    /// `V$DATAGUARD_STATUS` rows (at second, severity, ORA code, text) on the standby.
    pub standby_messages: Vec<(i64, String, i64, String)>,
    /// `V$ARCHIVE_GAP` rows on the standby.
    pub gaps: Vec<Gap>,
    /// Multi-Instance Redo Apply on a 2-instance standby: recovery on both instances, Active
    /// Apply Rate 0.
    pub mira: bool,
    /// Thread of every SRL (0 = unassigned) and of the ORLs, as (orl threads).
    pub srl_thread: u32,
    pub orl_threads: u32,
    /// A SYNC response of `.1` seconds every `.0` seconds (`V$REDO_DEST_RESP_HISTOGRAM`).
    pub stall: Option<(i64, u64)>,
    pub version: Option<String>,
    /// The standby's role (physical standby unless set).
    pub standby_role: Option<Role>,
    /// The broker's intended state reported for the standby.
    pub intended_state: Option<String>,
    /// The standby's apply finish time (s), when Oracle reports one.
    pub apply_finish_s: Option<f64>,
    /// The primary's `V$DATABASE` fast-start failover status, observer present, lag limit.
    pub fsfo: Option<(String, bool, u64)>,
    /// The primary's FORCE_LOGGING.
    pub force_logging: Option<String>,
    /// The primary's `V$DATAFILE` unrecoverable rows as (file, change# at 0 s, change#
    /// gained per second, seconds before now of its time).
    pub unrecoverable: Option<Vec<(u32, u64, u64, i64)>>,
    /// The primary's recovery area: (limit GB, used % at 0 s, reclaimable %), and the used
    /// share it gains per minute.
    pub primary_fra: Option<(u64, f64, f64)>,
    pub primary_fra_pct_per_min: f64,
    /// `V$DATAGUARD_STATUS` rows (at second, severity, ORA code, text) on the primary.
    pub primary_messages: Vec<(i64, String, i64, String)>,
    /// Further primary waits per second as (event, waits, average ms): the switch and
    /// buffer stalls.
    pub primary_waits: Vec<(&'static str, f64, f64)>,
    /// The destination's `BINDING` (`MANDATORY`, `OPTIONAL`); `None`: not read.
    pub dest_binding: Option<&'static str>,
    /// The primary's `V$SESSION` waits in flight as (event, sessions, blocker's program),
    /// each begun at second `waits_now_since` (its longest wait is the time since, at least
    /// a millisecond); `None`: not read.
    pub waits_now: Option<Vec<(&'static str, u32, Option<&'static str>)>>,
    pub waits_now_since: i64,
}

impl Default for Pair {
    /// A healthy SYNC pair: nothing above INFO.
    fn default() -> Self {
        Pair {
            tps: 7500.0,
            lfs_ms: 1.3,
            lfpw_ms: 0.55,
            remote_ms: Some(0.85),
            rfs_ms: Some(0.5),
            affirm: true,
            sync: true,
            writes_per_s: 2000.0,
            redo_mb_s: 25.0,
            poll_writes_per_s: 0.0,
            cpu_pct: 55.0,
            load: 3.0,
            num_cpus: 16.0,
            transport_lag_s: 0.0,
            apply_lag_s: 1.0,
            transport_lag_growth: 0.0,
            apply_lag_growth: 0.0,
            apply_mb_s: 60.0,
            primary_log_w_ms: 0.5,
            standby_log_w_ms: 0.7,
            primary_data_w_ms: 1.0,
            standby_data_w_ms: 1.1,
            standby_data_writes_per_s: 400.0,
            switch_every_s: 1200.0,
            orl_mb: 32768,
            orl_groups: 4,
            srl_groups: 5,
            srl_mb: 32768,
            srl_members: 1,
            srl_blocksize: 512,
            log_buffer_mb: 64,
            dest_status: DestStatus::Valid,
            dest_error: None,
            gap: "NO GAP".into(),
            datum_frozen: false,
            lfs_hist: None,
            standby_down_from_s: None,
            transport_lag_null: false,
            apply_lag_null: false,
            mrp_action: Some("APPLYING_LOG".into()),
            rfs_receiving: true,
            processes: true,
            delay_mins: 0,
            recovery_mode: "MANAGED REAL TIME APPLY".into(),
            protection_mode: None,
            protection_level: None,
            fra: None,
            standby_messages: vec![],
            gaps: vec![],
            mira: false,
            srl_thread: 1,
            orl_threads: 1,
            stall: None,
            version: None,
            standby_role: None,
            intended_state: None,
            apply_finish_s: None,
            fsfo: None,
            force_logging: None,
            unrecoverable: None,
            primary_fra: None,
            primary_fra_pct_per_min: 0.0,
            primary_messages: vec![],
            primary_waits: vec![],
            dest_binding: None,
            waits_now: Some(Vec::new()),
            waits_now_since: 0,
        }
    }
}

fn t0() -> Timestamp {
    Timestamp::parse("2026-11-30T05:00:00Z").unwrap()
}

/// Waits, microseconds and histogram (bound → count) of one event.
type EventAcc = (f64, f64, BTreeMap<u64, f64>);

/// Cumulative counters, advanced one second at a time from the pair's current rates, so a
/// test can change the pair mid-run (a spike, a fault) and counters stay monotone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Acc {
    pub secs: f64,
    events: BTreeMap<(&'static str, &'static str), EventAcc>,
    stats: BTreeMap<&'static str, f64>,
    os: BTreeMap<&'static str, f64>,
    io: BTreeMap<(&'static str, &'static str), (f64, f64)>,
}

impl Acc {
    fn event(
        &mut self,
        slot: &'static str,
        name: &'static str,
        waits: f64,
        avg_ms: f64,
        hist: &[(u64, f64)],
    ) {
        let e = self.events.entry((slot, name)).or_default();
        e.0 += waits;
        e.1 += waits * avg_ms * 1000.0;
        if hist.is_empty() {
            let bound = ((avg_ms * 1000.0).max(1.0) as u64).next_power_of_two();
            *e.2.entry(bound).or_default() += waits;
        } else {
            for &(b, c) in hist {
                *e.2.entry(b).or_default() += c;
            }
        }
    }

    fn get_event(&self, slot: &'static str, name: &'static str) -> Option<Event> {
        let (w, us, h) = self.events.get(&(slot, name))?;
        Some(Event {
            waits: *w as u64,
            us: Micros(*us as u64),
            hist: h
                .iter()
                .map(|(&b, &c)| Bucket(Micros(b), c as u64))
                .collect(),
            ..Default::default()
        })
    }

    fn io(&mut self, slot: &'static str, ft: &'static str, writes: f64, w_ms: f64) {
        let e = self.io.entry((slot, ft)).or_default();
        e.0 += writes;
        e.1 += writes * w_ms;
    }

    fn get_io(&self, slot: &'static str, ft: &'static str) -> Option<IoStat> {
        let (w, ms) = self.io.get(&(slot, ft))?;
        Some(IoStat {
            rreq: (*w / 10.0) as u64,
            wreq: *w as u64,
            rmb: 1,
            wmb: (*w / 100.0) as u64,
            rms: (*w / 10.0) as u64,
            wms: *ms as u64,
        })
    }

    /// One second of the pair's activity.
    pub(crate) fn advance(&mut self, p: &Pair) {
        self.secs += 1.0;
        let lfs_hist: Vec<(u64, f64)> = p
            .lfs_hist
            .as_ref()
            .map(|h| h.iter().map(|&(b, c)| (b, c as f64)).collect())
            .unwrap_or_default();
        let lfs_waits = if lfs_hist.is_empty() {
            p.tps
        } else {
            lfs_hist.iter().map(|h| h.1).sum()
        };
        self.event("p", event::LOG_FILE_SYNC, lfs_waits, p.lfs_ms, &lfs_hist);
        self.event(
            "p",
            event::LOG_FILE_PARALLEL_WRITE,
            p.writes_per_s,
            p.lfpw_ms,
            &[],
        );
        if let Some(r) = p.remote_ms {
            self.event("p", event::SYNC_REMOTE_WRITE, p.writes_per_s, r, &[]);
        }
        if let Some(r) = p.rfs_ms {
            self.event("s", event::RFS_RANDOM_IO, p.writes_per_s, r, &[]);
        }
        self.event("s", event::CHECKPOINT_COMPLETED, 0.01, 500.0, &[]);
        for &(name, waits, ms) in &p.primary_waits {
            self.event("p", name, waits, ms, &[]);
        }
        for (k, v) in [
            (stat::USER_COMMITS, p.tps),
            (stat::REDO_SIZE, p.redo_mb_s * 1048576.0),
            (stat::REDO_WRITES, p.writes_per_s),
            (stat::REDO_SYNCH_WRITES, p.tps),
            (stat::REDO_SYNCH_POLL_WRITES, p.poll_writes_per_s),
        ] {
            *self.stats.entry(k).or_default() += v;
        }
        *self.os.entry(os::BUSY_TIME).or_default() += p.cpu_pct;
        *self.os.entry(os::IDLE_TIME).or_default() += 100.0 - p.cpu_pct;
        self.io("p", filetype::LOG_FILE, p.writes_per_s, p.primary_log_w_ms);
        self.io("p", filetype::DATA_FILE, 400.0, p.primary_data_w_ms);
        self.io("s", filetype::LOG_FILE, p.writes_per_s, p.standby_log_w_ms);
        self.io(
            "s",
            filetype::DATA_FILE,
            p.standby_data_writes_per_s,
            p.standby_data_w_ms,
        );
    }
}

impl Pair {
    /// The primary's sample at `i` seconds from the accumulated counters.
    pub(crate) fn primary(&self, i: i64, acc: &Acc) -> Sample {
        let t = t0().add_millis(i * 1000);
        let mut s = Sample::new(t, Slot::primary());
        s.db = Some(
            DbInfo {
                name: Some("prod_a".into()),
                role: Some(Role::Primary),
                startup: Some(t0().add_millis(-86_400_000)),
                protection_mode: self.protection_mode.as_deref().map(Name::from),
                protection_level: self.protection_level.as_deref().map(Name::from),
                version: self.version.as_deref().map(Name::from),
                fs_failover_status: self.fsfo.as_ref().map(|f| Name::from(f.0.as_str())),
                fs_failover_observer_present: self.fsfo.as_ref().map(|f| f.1),
                fs_failover_lag_limit_s: self.fsfo.as_ref().map(|f| f.2),
                fs_failover_target: self.fsfo.as_ref().map(|_| Name::from("prod_b")),
                force_logging: self.force_logging.as_deref().map(Name::from),
                ..DbInfo::default()
            }
            .into(),
        );
        if let Some(rows) = &self.unrecoverable {
            s.unrecoverable = Some(std::sync::Arc::new(
                rows.iter()
                    .map(
                        |&(file, c0, per_s, ago)| dgscope_model::sample::Unrecoverable {
                            file,
                            change: c0 + per_s * i.max(0) as u64,
                            time: Some(t.add_millis(-ago * 1000)),
                        },
                    )
                    .collect(),
            ));
        }
        for name in [
            event::LOG_FILE_SYNC,
            event::LOG_FILE_PARALLEL_WRITE,
            event::SYNC_REMOTE_WRITE,
            event::ASYNC_REMOTE_WRITE,
            event::LOG_FILE_SWITCH_COMPLETION,
            event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
            event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
            event::LOG_BUFFER_SPACE,
        ] {
            if let Some(e) = acc.get_event("p", name) {
                s.events.insert(name.into(), e);
            }
        }
        for (k, v) in &acc.stats {
            s.stats.insert((*k).into(), *v as u64);
        }
        s.os.insert(
            os::BUSY_TIME.into(),
            acc.os.get(os::BUSY_TIME).copied().unwrap_or(0.0).round(),
        );
        s.os.insert(
            os::IDLE_TIME.into(),
            acc.os.get(os::IDLE_TIME).copied().unwrap_or(0.0).round(),
        );
        s.os.insert(os::LOAD.into(), self.load);
        s.os.insert(os::NUM_CPUS.into(), self.num_cpus);
        for ft in [filetype::LOG_FILE, filetype::DATA_FILE] {
            if let Some(io) = acc.get_io("p", ft) {
                s.iostat.insert(ft.into(), io);
            }
        }
        s.dests.push(Dest {
            id: 2,
            name: Some("prod_b".into()),
            status: self.dest_status.clone(),
            mode: if self.sync {
                TransmitMode::Sync
            } else {
                TransmitMode::Async
            },
            affirm: self.affirm && self.sync,
            compression: Some("DISABLE".into()),
            net_timeout_s: Some(30),
            gap: Some(self.gap.as_str().into()),
            error: self.dest_error.as_deref().map(Name::from),
            archived_seq: None,
            applied_seq: None,
            // Cumulative: one 1 s bucket of every write, and the stalls so far.
            resp_hist: {
                let mut h = vec![(1, (acc.secs * self.writes_per_s) as u64)];
                if let Some((every, secs)) = self.stall {
                    let n = (i.max(0) / every.max(1)) as u64;
                    if n > 0 {
                        h.push((secs, n));
                    }
                }
                h
            },
            db_unique_name: Some("prod_b".into()),
            delay_mins: Some(self.delay_mins),
            recovery_mode: Some(self.recovery_mode.as_str().into()),
            binding: self.dest_binding.map(Name::from),
            ..Default::default()
        });
        s.logs = Some(std::sync::Arc::new(Logs {
            online: (1..=self.orl_groups * self.orl_threads.max(1))
                .map(|g| Log {
                    group: g,
                    thread: 1 + (g - 1) / self.orl_groups.max(1),
                    sequence: 100 + u64::from(g),
                    bytes: self.orl_mb * 1048576,
                    members: 2,
                    status: LogStatus::Inactive,
                    used: None,
                    blocksize: Some(512),
                })
                .collect(),
            standby: vec![],
        }));
        // Switches of the last hour at the configured pace, on every thread with online logs
        // (thread 1 at the pace, each further thread half as often, so the busiest is known).
        let mut switches = Vec::new();
        for thread in 1..=self.orl_threads.max(1) {
            let every = self.switch_every_s * f64::from(1 << (thread - 1).min(8));
            let mut k = 0;
            loop {
                let at = t.add_millis(-((k as f64 * every * 1000.0) as i64));
                if t.secs_since(at) >= 3600.0 {
                    break;
                }
                switches.push(LogSwitch {
                    thread,
                    sequence: 5000 - k,
                    time: at,
                });
                k += 1;
            }
        }
        s.switches = Some(std::sync::Arc::new(switches));
        let mut params = BTreeMap::new();
        params.insert(
            "log_buffer".into(),
            (self.log_buffer_mb * 1048576).to_string().into(),
        );
        s.params = Some(std::sync::Arc::new(params));
        if let Some((gb, used, recl)) = self.primary_fra {
            let limit = gb * 1_073_741_824;
            // Read once a minute, as the Oracle source reads it.
            let minute = (i.max(0) / 60 * 60) as f64 / 60.0;
            let used = (used + self.primary_fra_pct_per_min * minute).min(100.0);
            s.fra = Some(Fra {
                limit_bytes: limit,
                used_bytes: (limit as f64 * used / 100.0) as u64,
                reclaimable_bytes: (limit as f64 * recl / 100.0) as u64,
                files: Some(1843),
            });
        }
        s.waits_now = self.waits_now.as_ref().map(|v| {
            v.iter()
                .map(|&(e, sessions, blocker)| dgscope_model::sample::WaitNow {
                    event: e.into(),
                    class: None,
                    sessions,
                    longest_s: ((i - self.waits_now_since) as f64).max(0.001),
                    blocker: blocker.map(Name::from),
                })
                .collect()
        });
        s.dg_messages = Some(
            self.primary_messages
                .iter()
                .filter(|m| m.0 == i)
                .map(|(at, sev, code, text)| DgMessage {
                    time: t0().add_millis(at * 1000),
                    severity: sev.clone(),
                    facility: Some("Log Transport Services".into()),
                    error_code: Some(*code),
                    dest_id: Some(1),
                    message: text.clone(),
                })
                .collect(),
        );
        s
    }

    pub(crate) fn standby(&self, i: i64, acc: &Acc) -> Sample {
        let t = t0().add_millis(i * 1000);
        if self.standby_down_from_s.is_some_and(|d| i >= d) {
            return Sample::failed(
                t,
                Slot::standby(),
                SampleErrorKind::ConnectionLost,
                "ORA-03113: end-of-file on communication channel".into(),
            );
        }
        let mut s = Sample::new(t, Slot::standby());
        s.db = Some(
            DbInfo {
                name: Some("prod_b".into()),
                role: Some(self.standby_role.clone().unwrap_or(Role::PhysicalStandby)),
                intended_state: self.intended_state.as_deref().map(Name::from),
                startup: Some(t0().add_millis(-86_400_000)),
                instances: Some(if self.mira { 2 } else { 1 }),
                version: self.version.as_deref().map(Name::from),
                ..DbInfo::default()
            }
            .into(),
        );
        for name in [event::RFS_RANDOM_IO, event::CHECKPOINT_COMPLETED] {
            if let Some(e) = acc.get_event("s", name) {
                s.events.insert(name.into(), e);
            }
        }
        for ft in [filetype::LOG_FILE, filetype::DATA_FILE] {
            if let Some(io) = acc.get_io("s", ft) {
                s.iostat.insert(ft.into(), io);
            }
        }
        let tl = self.transport_lag_s + self.transport_lag_growth * i as f64;
        let al = self.apply_lag_s + self.apply_lag_growth * i as f64;
        let datum = if self.datum_frozen {
            t0()
        } else {
            t.add_millis(-1000)
        };
        s.dg = Some(DgStats {
            transport_lag_s: (!self.transport_lag_null).then(|| Secs(tl.round())),
            apply_lag_s: (!self.apply_lag_null).then(|| Secs(al.round())),
            apply_finish_s: self.apply_finish_s.map(Secs),
            computed: Some(t),
            datum: Some(datum),
            ..Default::default()
        });
        s.recovery = Some(Recovery {
            active_apply_kbps: Some(if self.mira {
                0.0
            } else {
                self.apply_mb_s * 1024.0
            }),
            ..Recovery::default()
        });
        if self.processes {
            std::sync::Arc::make_mut(&mut s.processes).push(Process {
                name: "RFS".into(),
                role: Some("RFS async".into()),
                action: Some(
                    if self.rfs_receiving {
                        "RECEIVING"
                    } else {
                        "IDLE"
                    }
                    .into(),
                ),
                thread: Some(1),
                inst_id: Some(1),
                ..Default::default()
            });
            if let Some(a) = &self.mrp_action {
                std::sync::Arc::make_mut(&mut s.processes).push(Process {
                    name: "MRP0".into(),
                    role: Some("managed recovery".into()),
                    action: Some(a.as_str().into()),
                    thread: Some(1),
                    sequence: Some(800),
                    delay_mins: Some(self.delay_mins),
                    inst_id: Some(1),
                });
            }
            for inst in 1..=if self.mira { 2 } else { 1 } {
                std::sync::Arc::make_mut(&mut s.processes).push(Process {
                    name: format!("PR0{inst}").into(),
                    role: Some("recovery apply slave".into()),
                    action: Some("IDLE".into()),
                    inst_id: Some(inst),
                    ..Default::default()
                });
            }
        }
        if let Some((gb, used, recl)) = self.fra {
            let limit = gb * 1_073_741_824;
            s.fra = Some(Fra {
                limit_bytes: limit,
                used_bytes: (limit as f64 * used / 100.0) as u64,
                reclaimable_bytes: (limit as f64 * recl / 100.0) as u64,
                files: Some(1200),
            });
        }
        s.gaps = Some(self.gaps.clone());
        s.dg_messages = Some(
            self.standby_messages
                .iter()
                .filter(|m| m.0 == i)
                .map(|(at, sev, code, text)| DgMessage {
                    time: t0().add_millis(at * 1000),
                    severity: sev.clone(),
                    facility: Some("Log Transport Services".into()),
                    error_code: Some(*code),
                    dest_id: Some(0),
                    message: text.clone(),
                })
                .collect(),
        );
        s.logs = Some(std::sync::Arc::new(Logs {
            online: vec![],
            standby: (1..=self.srl_groups)
                .map(|g| Log {
                    group: 10 + g,
                    thread: self.srl_thread,
                    sequence: 0,
                    bytes: self.srl_mb * 1048576,
                    members: self.srl_members,
                    status: LogStatus::Unassigned,
                    used: None,
                    blocksize: Some(self.srl_blocksize),
                })
                .collect(),
        }));
        s
    }
}

/// A pair running through time: counters, the metrics engine and the clock.
#[derive(Debug, Default)]
pub(crate) struct Run {
    pub engine: Engine,
    pub acc: Acc,
    pub i: i64,
}

impl Run {
    /// Feeds one second of `pair`.
    pub(crate) fn step(&mut self, pair: &Pair) {
        self.acc.advance(pair);
        self.engine
            .push_sample(Arc::new(pair.primary(self.i, &self.acc)));
        self.engine
            .push_sample(Arc::new(pair.standby(self.i, &self.acc)));
        self.i += 1;
    }
}

/// A finding for the ranking tests: weighed by its share of one commit symptom 1000 long (the
/// larger `explains`, the earlier among equals).
pub(crate) fn ranked_finding(
    id: &'static str,
    severity: super::Severity,
    explains: f64,
    caused_by: Option<&'static str>,
) -> super::Finding {
    super::Finding {
        id,
        severity,
        title: String::new(),
        evidence: vec![],
        meaning: String::new(),
        verify: vec![],
        advice: vec![],
        what_if: vec![],
        kind: super::impact::FindingKind::Problem,
        impact: super::impact::Impact::of(
            super::impact::Symptom::Commit,
            Some(explains),
            Some(1000.0),
            None,
        ),
        since: Timestamp::default(),
        caused_by,
        standby: None,
    }
}
