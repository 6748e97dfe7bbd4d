//! Builds the primary's and the standby's `Sample` from the twin's state, filling what a real
//! pair of this kind fills: a RAC primary with `K` redo threads, a single-instance physical
//! standby (mounted, or Active Data Guard where the scenario says so).

use super::hist::EventAcc;
use super::link::LinkState;
use super::params::{FraParams, Params, Transport, MB};
use super::put::{put_event, put_receiver_events, Waiter};
use super::Twin;
use dgscope_model::sample::names::{event, filetype, os, stat, time_model};
use dgscope_model::sample::{
    Bucket, DbInfo, Dest, DestStatus, DgStats, Event, Fra, Gap, IoStat, LagHistRow, Log, LogStatus,
    LogSwitch, Logs, Name, OpenMode, Process, Recovery, Role, Sample, SampleErrorKind, Slot,
    TransmitMode, Unrecoverable, WaitNow,
};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{Micros, Secs};
use std::collections::BTreeMap;
use std::sync::Arc;

const VERSION: &str = "19.21.0.0.0";
const PRIMARY: &str = "prod_a";
const STANDBY: &str = "prod_b";
const UNREACHABLE: &str = "ORA-12543: TNS:destination host unreachable";
const NO_SRL: &str = "ORA-16086: Redo data cannot be written to the standby redo log";
const TIMED_OUT: &str = "ORA-16198: Timeout incurred on internal channel during remote archival";
/// MRP0 shows ERROR this long after it died, then its row is gone.
const MRP_ERROR_ROW_S: f64 = 5.0;

/// Redo block size of every log the twin reports (the platform default on Linux).
const REDO_BLOCKSIZE: u32 = 512;
fn startup(twin: &Twin) -> Timestamp {
    // The instances started with the run, so counters since startup are the run's counters.
    twin.epoch
}

/// The Data Guard state columns of `V$DATABASE` (and the broker's intended state) that do
/// not depend on the side's identity: broker ENABLED, fast-start failover DISABLED unless
/// the scenario enables it, FORCE_LOGGING and FLASHBACK_ON as MAA has them.
pub(super) fn db_state(twin: &Twin, p: &Params, primary: bool) -> DbInfo {
    let since = since_scenario_s(twin);
    let link = &twin.cp.link;
    let deferred = matches!(p.transport, Transport::Defer) || p.deferred(since);
    let switchover = if !primary {
        // A physical standby says so until the primary's switchover request arrives.
        "NOT ALLOWED"
    } else if deferred || link.is_error() {
        // No valid, enabled standby destination.
        "NOT ALLOWED"
    } else if link.resolving_gap {
        "RESOLVABLE GAP"
    } else {
        "TO STANDBY"
    };
    let intended = if primary {
        // A DEFER set by SQL behind the broker's back leaves its intended state alone.
        "TRANSPORT-ON"
    } else if p.apply_off_now(since).is_some() {
        "APPLY-OFF"
    } else {
        "APPLY-ON"
    };
    let mut db = DbInfo {
        switchover_status: Some(switchover.into()),
        dataguard_broker: Some("ENABLED".into()),
        fs_failover_status: Some("DISABLED".into()),
        force_logging: Some(if p.nologging { "NO" } else { "YES" }.into()),
        flashback_on: Some("YES".into()),
        intended_state: Some(intended.into()),
        ..DbInfo::default()
    };
    if let Some(f) = p.fsfo {
        // The broker compares the target's lag with FastStartFailoverLagLimit.
        let lag = twin.sb.apply_lag_s;
        db.fs_failover_status = Some(
            if lag > f.lag_limit_s as f64 {
                "TARGET OVER LAG LIMIT"
            } else {
                "TARGET UNDER LAG LIMIT"
            }
            .into(),
        );
        db.fs_failover_target = Some(STANDBY.into());
        db.fs_failover_threshold_s = Some(f.threshold_s);
        db.fs_failover_observer_present = Some(true);
        db.fs_failover_observer_host = Some(f.observer_host.into());
        db.fs_failover_lag_limit_s = Some(f.lag_limit_s);
    }
    db
}

/// `V$DATAFILE` rows with an unrecoverable change: none, or under a NOLOGGING load the
/// files it writes, their change# and time those of the latest direct-path write.
fn unrecoverable(twin: &Twin, p: &Params, t: Timestamp) -> Vec<Unrecoverable> {
    if !p.nologging {
        return Vec::new();
    }
    // The SCN moves with the commits; the load's last NOLOGGING write was moments ago.
    let scn = 14_250_000_000 + twin.cp.c.user_commits * 2;
    [(7u32, 0u64, 3_000i64), (8, 4_200, 1_000)]
        .into_iter()
        .map(|(file, back, ms)| Unrecoverable {
            file,
            change: scn.saturating_sub(back),
            time: Some(Timestamp::from_millis(t.ms - ms - t.ms.rem_euclid(1000))),
        })
        .collect()
}

/// `V$SESSION`'s in-flight waits on the primary: the commits waiting for LGWR (`log file
/// sync`, a few milliseconds when all is well), the sessions piled up behind a stuck
/// archiver or a switch waiting for its checkpoint. LGWR is the blocker of all three, as
/// `BLOCKING_SESSION` reports it for these events (11.2+).
fn waits_now(twin: &Twin) -> Vec<WaitNow> {
    let cp = &twin.cp;
    let w = cp.waits_now();
    let lgwr = "oracle@dbhost1 (LGWR)";
    let mut out: Vec<WaitNow> = [
        (
            event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
            "Configuration",
            w.archiving_needed,
        ),
        (
            event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
            "Configuration",
            w.checkpoint_incomplete,
        ),
        (event::LOG_FILE_SYNC, "Commit", w.log_file_sync),
    ]
    .into_iter()
    .filter(|(_, _, f)| f.sessions > 0)
    .map(|(e, class, f)| WaitNow {
        event: e.into(),
        class: Some(class.into()),
        sessions: f.sessions,
        // Microseconds, as WAIT_TIME_MICRO reports them.
        longest_s: ((cp.now - f.oldest.min(cp.now)) / 1000) as f64 / 1e6,
        blocker: Some(lgwr.into()),
    })
    .collect();
    out.sort_by(|a, b| b.longest_s.total_cmp(&a.longest_s));
    out
}

fn protection(p: &Params) -> &'static str {
    if p.transport.is_sync() {
        "MAXIMUM AVAILABILITY"
    } else {
        "MAXIMUM PERFORMANCE"
    }
}

fn fra(f: &FraParams, used: f64, extra_files: u64) -> Fra {
    Fra {
        limit_bytes: f.limit_bytes,
        used_bytes: used as u64,
        reclaimable_bytes: f.reclaimable_bytes,
        files: Some(f.files + extra_files),
    }
}

fn since_scenario_s(twin: &Twin) -> f64 {
    (twin.cp.now - twin.cp.scenario_start.min(twin.cp.now)) as f64 / 1e9
}

fn io(rreq: u64, wreq: u64, rbytes: f64, wbytes: f64, rus: f64, wus: f64) -> IoStat {
    IoStat {
        rreq,
        wreq,
        rmb: (rbytes / MB) as u64,
        wmb: (wbytes / MB) as u64,
        rms: (rus / 1000.0) as u64,
        wms: (wus / 1000.0) as u64,
    }
}

fn dest_attrs(p: &Params) -> (TransmitMode, bool, &'static str) {
    match p.transport {
        Transport::Sync { affirm: true } => (TransmitMode::Sync, true, "SYNC AFFIRM"),
        Transport::Sync { affirm: false } => (TransmitMode::Sync, false, "SYNC NOAFFIRM"),
        Transport::Async | Transport::Defer => (TransmitMode::Async, false, "ASYNC NOAFFIRM"),
    }
}

fn log_archive_dest_2(p: &Params) -> String {
    let (_, _, mode) = dest_attrs(p);
    let comp = if p.compression.is_some() {
        " COMPRESSION=ENABLE"
    } else {
        ""
    };
    let delay = if p.delay_mins > 0 {
        format!(" DELAY={}", p.delay_mins)
    } else {
        String::new()
    };
    format!(
        "SERVICE={STANDBY} {mode}{comp}{delay} NET_TIMEOUT={} REOPEN={} VALID_FOR=(ONLINE_LOGFILES,PRIMARY_ROLE) DB_UNIQUE_NAME={STANDBY}",
        p.net_timeout_s as u64, p.reopen_s as u64
    )
}

fn cpu_tick(twin: &mut Twin, busy_share: f64, primary: bool) -> (f64, f64) {
    let p = twin.cp.params().clone();
    let secs = twin.interval_ns as f64 / 1e9;
    let jitter = (twin.emit_rng.uniform() - 0.5) * 0.02;
    let util = (busy_share + jitter).clamp(0.0, 0.995);
    let total = f64::from(p.cpu.num_cpus) * 100.0 * secs;
    let acc = if primary {
        &mut twin.cpu_primary
    } else {
        &mut twin.cpu_standby
    };
    acc.0 += (total * util).round();
    acc.1 += (total * (1.0 - util)).round();
    *acc
}

fn online_logs(twin: &Twin, p: &Params) -> Vec<Log> {
    let mut out = Vec::new();
    for (th, lg) in twin.cp.lgwr.iter().enumerate() {
        let groups = p.orl_groups.max(2);
        let recent_switch = twin.switches[th]
            .back()
            .is_some_and(|s| twin.now().secs_since(s.1) < 60.0);
        for back in 0..groups {
            let seq = lg.sequence.saturating_sub(u64::from(back));
            let group = th as u32 * groups + (seq % u64::from(groups)) as u32 + 1;
            let (status, used) = match back {
                0 => (LogStatus::Current, Some(lg.log_used)),
                1 if recent_switch => (LogStatus::Active, None),
                _ => (LogStatus::Inactive, None),
            };
            out.push(Log {
                group,
                thread: th as u32 + 1,
                sequence: seq,
                bytes: p.orl_bytes,
                members: p.log.members,
                status,
                used,
                blocksize: Some(REDO_BLOCKSIZE),
            });
        }
    }
    out.sort_by_key(|l| l.group);
    out
}

/// SRLs; on the standby the one receiving each thread's current log is ACTIVE. When RFS is
/// blocked every SRL is ACTIVE: full, and waiting for an archival that cannot happen.
fn standby_logs(twin: &Twin, p: &Params, receiving: bool) -> Vec<Log> {
    let orl_total = twin.cp.lgwr.len() as u32 * p.orl_groups.max(2);
    let mut out = Vec::new();
    if let (Some(blocked), true) = (&twin.blocked_seq, twin.sb.rfs_blocked()) {
        for (th, &seq) in blocked.iter().enumerate() {
            for g in 0..p.srl.groups {
                out.push(Log {
                    group: orl_total + th as u32 * p.srl.groups + g + 1,
                    thread: th as u32 + 1,
                    sequence: seq.saturating_sub(u64::from(g)),
                    bytes: p.orl_bytes,
                    members: p.srl.members,
                    status: LogStatus::Active,
                    used: Some(p.orl_bytes),
                    blocksize: Some(REDO_BLOCKSIZE),
                });
            }
        }
        return out;
    }
    for (th, lg) in twin.cp.lgwr.iter().enumerate() {
        for g in 0..p.srl.groups {
            let active = receiving && g == (lg.sequence % u64::from(p.srl.groups.max(1))) as u32;
            out.push(Log {
                group: orl_total + th as u32 * p.srl.groups + g + 1,
                thread: th as u32 + 1,
                sequence: if active { lg.sequence } else { 0 },
                bytes: p.orl_bytes,
                members: p.srl.members,
                status: if active {
                    LogStatus::Active
                } else {
                    LogStatus::Unassigned
                },
                used: active.then_some(lg.log_used),
                blocksize: Some(REDO_BLOCKSIZE),
            });
        }
    }
    out
}

fn switches(twin: &Twin) -> Vec<LogSwitch> {
    let mut v: Vec<LogSwitch> = twin
        .switches
        .iter()
        .enumerate()
        .flat_map(|(th, d)| {
            d.iter().map(move |&(sequence, time)| LogSwitch {
                thread: th as u32 + 1,
                sequence,
                time,
            })
        })
        .collect();
    v.sort_by_key(|s| (s.time, s.thread));
    v
}

/// Logs of the backlog still to ship / apply, to offset archived and applied sequences.
fn logs_behind(bytes: f64, p: &Params) -> u64 {
    (bytes / p.orl_bytes as f64 / f64::from(p.threads.max(1))).floor() as u64
}

/// The primary's sample, dressed for the topology played (members.rs).
pub(crate) fn primary(twin: &mut Twin, t: Timestamp) -> Sample {
    let mut s = pair_primary(twin, t);
    super::members::dress_primary(twin, &mut s);
    s
}

fn pair_primary(twin: &mut Twin, t: Timestamp) -> Sample {
    let p = twin.cp.params().clone();
    let c = twin.cp.c.clone();
    let mut s = Sample::new(t, Slot::primary());
    s.query_us = Some(Micros(2000 + (twin.emit_rng.uniform() * 3000.0) as u64));
    // LGWR waits out NET_TIMEOUT still synchronised; the level drops once it gives up on
    // the destination, and returns when the gap is shipped.
    let resync = p.transport.is_sync() && (twin.cp.link.is_error() || twin.cp.link.resolving_gap);
    s.db = Some(
        DbInfo {
            name: Some(PRIMARY.into()),
            role: Some(Role::Primary),
            open_mode: Some(OpenMode::ReadWrite),
            protection_mode: Some(protection(&p).into()),
            protection_level: Some(
                if resync {
                    "RESYNCHRONIZATION"
                } else {
                    protection(&p)
                }
                .into(),
            ),
            version: Some(VERSION.into()),
            startup: Some(startup(twin)),
            host: Some("dbhost1".into()),
            instances: Some(p.threads),
            ..db_state(twin, &p, true)
        }
        .into(),
    );
    use Waiter::{Background, Foreground};
    put_event(&mut s, event::LOG_FILE_SYNC, &c.log_file_sync, Foreground);
    put_event(
        &mut s,
        event::LOG_FILE_PARALLEL_WRITE,
        &c.log_file_parallel_write,
        Background,
    );
    put_event(
        &mut s,
        event::SYNC_REMOTE_WRITE,
        &c.sync_remote_write,
        Background,
    );
    // Sessions wait for the switch; LGWR's own share is in its write time.
    put_event(
        &mut s,
        event::LOG_FILE_SWITCH_COMPLETION,
        &c.log_file_switch_completion,
        Foreground,
    );
    for (name, acc) in [
        (
            event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
            &c.log_file_switch_archiving_needed,
        ),
        (
            event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
            &c.log_file_switch_checkpoint_incomplete,
        ),
    ] {
        // V$SYSTEM_EVENT has a row only once the event was waited on.
        if !acc.is_empty() {
            put_event(&mut s, name, acc, Foreground);
        }
    }
    put_event(
        &mut s,
        event::LOG_BUFFER_SPACE,
        &c.log_buffer_space,
        Foreground,
    );
    put_event(
        &mut s,
        event::LGWR_WAIT_FOR_REDO_COPY,
        &c.lgwr_wait_for_redo_copy,
        Background,
    );
    // DB time: the commit path's foreground waits and the workload's own time (its waits,
    // read with their wait class as the top of V$SYSTEM_EVENT, and DB CPU).
    let fg_us = |e: &EventAcc| e.us as f64;
    let commit_us = fg_us(&c.log_file_sync)
        + fg_us(&c.log_file_switch_completion)
        + fg_us(&c.log_file_switch_archiving_needed)
        + fg_us(&c.log_file_switch_checkpoint_incomplete)
        + fg_us(&c.log_buffer_space);
    let work_us: f64 = c.db_cpu_us + c.work_waits.values().map(|w| w.us).sum::<f64>();
    for (name, w) in &c.work_waits {
        let us = w.us.round() as u64;
        let waits = w.waits.round() as u64;
        // One bucket, the one of the average wait: the workload's waits are not simulated
        // one by one, only their time and count.
        let avg = us.checked_div(waits).unwrap_or(0);
        let bound = 1u64 << super::hist::bucket_index(avg);
        s.events.insert(
            (*name).into(),
            Event {
                waits,
                us: Micros(us),
                hist: if waits > 0 {
                    vec![Bucket(Micros(bound), waits)]
                } else {
                    Vec::new()
                },
                // All foreground: the foreground columns would repeat the totals in every
                // line of a recording.
                waits_fg: None,
                us_fg: None,
                class: Some(w.class.into()),
            },
        );
    }
    let db_time_us = (commit_us + work_us).round() as u64;
    s.time_model.insert(time_model::DB_TIME.into(), db_time_us);
    s.time_model
        .insert(time_model::DB_CPU.into(), c.db_cpu_us.round() as u64);
    let stats = [
        (stat::USER_COMMITS, c.user_commits),
        (stat::REDO_SIZE, c.redo_size),
        (stat::REDO_WRITES, c.redo_writes),
        (stat::REDO_BLOCKS_WRITTEN, c.redo_blocks_written),
        (stat::REDO_SYNCH_WRITES, c.redo_synch_writes),
        (stat::REDO_SYNCH_TIME_US, c.redo_synch_time_us),
        (stat::REDO_SYNCH_POLL_WRITES, c.redo_synch_poll_writes),
        (stat::REDO_SYNCH_POLLS, c.redo_synch_polls),
    ];
    for (k, v) in stats {
        s.stats.insert(k.into(), v);
    }
    let (busy, idle) = cpu_tick(twin, p.cpu.busy, true);
    s.os.insert(os::BUSY_TIME.into(), busy);
    s.os.insert(os::IDLE_TIME.into(), idle);
    s.os.insert(os::NUM_CPUS.into(), f64::from(p.cpu.num_cpus));
    let load =
        f64::from(p.cpu.num_cpus) * p.cpu.load_per_cpu * (0.97 + 0.06 * twin.emit_rng.uniform());
    s.os.insert(os::LOAD.into(), (load * 100.0).round() / 100.0);
    // Per-file-type I/O: LGWR writes every member; ARCn reads the logs back and writes the
    // archives; sessions read and DBWR writes data files; the control file sees a trickle.
    let redo = c.redo_written as f64;
    let wbytes = (c.redo_blocks_written * 512 * u64::from(p.log.members)) as f64;
    let arch = (redo / MB) as u64;
    let elapsed = twin.cp.now as f64 / 1e9;
    s.iostat.insert(
        filetype::LOG_FILE.into(),
        io(
            arch,
            c.log_write_reqs,
            redo,
            wbytes,
            arch as f64 * 1500.0,
            c.log_write_us as f64,
        ),
    );
    s.iostat.insert(
        filetype::ARCHIVE_LOG.into(),
        io(0, arch, 0.0, redo, 0.0, arch as f64 * 2000.0),
    );
    let reads = c.user_commits * 2;
    let dbw = c.redo_size / 16384;
    s.iostat.insert(
        filetype::DATA_FILE.into(),
        io(
            reads,
            dbw,
            reads as f64 * 8192.0,
            dbw as f64 * 8192.0,
            reads as f64 * p.primary_data_read_us,
            dbw as f64 * p.primary_data_write_us,
        ),
    );
    let cf = (elapsed * 4.0) as u64;
    s.iostat.insert(
        filetype::CONTROL_FILE.into(),
        io(
            cf * 2,
            cf,
            cf as f64 * 2.0 * 16384.0,
            cf as f64 * 16384.0,
            cf as f64 * 1000.0,
            cf as f64 * 1200.0,
        ),
    );
    s.dests.push(primary_dest(twin, &p, &c));
    s.logs = Some(Arc::new(Logs {
        online: online_logs(twin, &p),
        standby: standby_logs(twin, &p, false),
    }));
    s.switches = Some(Arc::new(switches(twin)));
    let mut params: BTreeMap<Name, Name> = BTreeMap::new();
    params.insert("cpu_count".into(), p.cpu.num_cpus.to_string().into());
    params.insert("db_unique_name".into(), PRIMARY.into());
    params.insert("log_buffer".into(), p.log_buffer.to_string().into());
    params.insert(
        "log_archive_config".into(),
        format!("DG_CONFIG=({PRIMARY},{STANDBY})").into(),
    );
    params.insert("log_archive_dest_2".into(), log_archive_dest_2(&p).into());
    let since = since_scenario_s(twin);
    params.insert(
        "log_archive_dest_state_2".into(),
        if matches!(p.transport, Transport::Defer) || p.deferred(since) {
            "DEFER"
        } else {
            "ENABLE"
        }
        .into(),
    );
    if !p.post.adaptive {
        params.insert("_use_adaptive_log_file_sync".into(), "FALSE".into());
    }
    s.params = Some(Arc::new(params));
    let archived = (twin.cp.primary_fra_used() - p.primary_fra.used_bytes as f64).max(0.0);
    s.fra = Some(fra(
        &p.primary_fra,
        twin.cp.primary_fra_used(),
        (archived / p.orl_bytes as f64) as u64,
    ));
    s.unrecoverable = Some(Arc::new(unrecoverable(twin, &p, t)));
    s.waits_now = Some(waits_now(twin));
    s.dg_messages = Some(twin.msgs.take_primary());
    s
}

/// `LOG_ARCHIVE_DEST_2` as `V$ARCHIVE_DEST` + `V$ARCHIVE_DEST_STATUS` show it on the primary.
fn primary_dest(twin: &Twin, p: &Params, c: &super::commit::CommitCounters) -> Dest {
    let (mode, affirm, _) = dest_attrs(p);
    let link = &twin.cp.link;
    let since = since_scenario_s(twin);
    let deferred = matches!(p.transport, Transport::Defer) || p.deferred(since);
    let (status, error) = match link.state {
        _ if deferred => (DestStatus::Deferred, None),
        LinkState::Down { .. } if twin.sb.rfs_blocked() => {
            (DestStatus::Error, Some(NO_SRL.to_string()))
        }
        LinkState::Down { .. } if p.net_stall.is_some() => {
            (DestStatus::Error, Some(TIMED_OUT.to_string()))
        }
        LinkState::Down { .. } => (DestStatus::Error, Some(UNREACHABLE.to_string())),
        _ => (DestStatus::Valid, None),
    };
    let gap = if link.is_error() || link.resolving_gap {
        "RESOLVABLE GAP"
    } else {
        "NO GAP"
    };
    let top_seq = twin.cp.lgwr.iter().map(|l| l.sequence).max().unwrap_or(0);
    let archived = top_seq.saturating_sub(1 + logs_behind(twin.sb.send.bytes, p));
    let applied = archived.saturating_sub(logs_behind(twin.sb.apply.bytes, p) + 1);
    // The primary learns the standby's modes over the redo connection: without one they
    // are UNKNOWN.
    let in_contact = !deferred && !link.is_error();
    let recovery_mode = if !in_contact {
        "UNKNOWN"
    } else if !p.apply_running(since) {
        "IDLE"
    } else if p.delay_mins > 0 {
        // A delay turns real-time apply off: redo is applied from archived logs.
        "MANAGED"
    } else {
        "MANAGED REAL TIME APPLY"
    };
    let snapshot = p.snapshot_now(since);
    let database_mode = if !in_contact {
        "UNKNOWN"
    } else if snapshot {
        // A snapshot standby is open read/write.
        "OPEN"
    } else if p.active_dg {
        "OPEN_READ-ONLY"
    } else {
        "MOUNTED-STANDBY"
    };
    let sync_status = if deferred {
        "NOT AVAILABLE"
    } else if !p.transport.is_sync() {
        "CHECK CONFIGURATION"
    } else if link.is_connected() && !link.resolving_gap {
        "OK"
    } else {
        "CHECK NETWORK"
    };
    let srl_count = p.srl.groups * twin.cp.lgwr.len() as u32;
    let srl_active = if twin.sb.rfs_blocked() {
        srl_count
    } else if twin.receiving() {
        twin.cp.lgwr.len() as u32
    } else {
        0
    };
    Dest {
        id: 2,
        name: Some(STANDBY.into()),
        status,
        mode,
        affirm,
        compression: Some(
            if p.compression.is_some() {
                "ZLIB"
            } else {
                "DISABLE"
            }
            .into(),
        ),
        net_timeout_s: Some(p.net_timeout_s as u64),
        gap: Some(gap.into()),
        error: error.map(Name::from),
        archived_seq: Some(archived),
        applied_seq: Some(applied),
        resp_hist: if p.transport.is_sync() || !c.resp_hist.is_empty() {
            c.resp_hist.clone()
        } else {
            Vec::new()
        },
        db_unique_name: Some(STANDBY.into()),
        dest_type: Some(if snapshot { "SNAPSHOT" } else { "PHYSICAL" }.into()),
        delay_mins: Some(p.delay_mins),
        recovery_mode: Some(recovery_mode.into()),
        database_mode: Some(database_mode.into()),
        synchronization_status: Some(sync_status.into()),
        srl_count: Some(srl_count),
        srl_active: Some(srl_active),
        reopen_secs: Some(p.reopen_s as u64),
        max_failure: Some(0),
        failure_count: Some(link.failure_count),
        fail_date: link.fail_at.map(|ns| twin.at(ns)),
        // The twin's destinations are OPTIONAL, Oracle's default; not written, so the
        // recordings of every scenario stay as they were.
        binding: None,
    }
}

fn lag_bucket(lag_s: u64) -> u64 {
    // V$STANDBY_EVENT_HISTOGRAM: seconds up to a minute, then minutes, then hours.
    if lag_s < 60 {
        lag_s
    } else if lag_s < 3600 {
        lag_s.div_ceil(60) * 60
    } else {
        lag_s.div_ceil(3600) * 3600
    }
}

/// The simulated member's sample, dressed for the topology played (members.rs).
pub(crate) fn standby(twin: &mut Twin, t: Timestamp) -> Sample {
    let mut s = pair_standby(twin, t);
    super::members::dress_standby(twin, &mut s);
    s
}

fn pair_standby(twin: &mut Twin, t: Timestamp) -> Sample {
    let p = twin.cp.params().clone();
    let since = since_scenario_s(twin);
    // The standby's CPU counters keep running while we cannot reach it.
    let busy_share = 0.12 + 0.25 * (twin.sb.c.apply_busy_s / (twin.cp.now as f64 / 1e9).max(1.0));
    let (busy, idle) = cpu_tick(twin, busy_share, false);
    if !p.standby_up(since) {
        return Sample::failed(
            t,
            Slot::standby(),
            SampleErrorKind::ConnectionLost,
            UNREACHABLE.into(),
        );
    }
    let sb = &twin.sb;
    let c = &twin.cp.c;
    let mut s = Sample::new(t, Slot::standby());
    s.query_us = Some(Micros(2500 + (twin.emit_rng.uniform() * 4000.0) as u64));
    let snapshot = p.snapshot_now(since);
    s.db = Some(
        DbInfo {
            name: Some(STANDBY.into()),
            role: Some(if snapshot {
                Role::SnapshotStandby
            } else {
                Role::PhysicalStandby
            }),
            open_mode: Some(if snapshot {
                OpenMode::ReadWrite
            } else if p.active_dg {
                OpenMode::ReadOnlyWithApply
            } else {
                OpenMode::Mounted
            }),
            protection_mode: Some(protection(&p).into()),
            protection_level: Some(protection(&p).into()),
            version: Some(VERSION.into()),
            startup: Some(startup(twin)),
            host: Some("dbhost2".into()),
            instances: Some(p.apply.instances.max(1)),
            ..db_state(twin, &p, false)
        }
        .into(),
    );
    // RFS, MRP, the recovery slaves and DBWR are all background processes.
    let bg = Waiter::Background;
    put_event(&mut s, event::RFS_RANDOM_IO, &c.rfs_random_io, bg);
    put_receiver_events(&mut s, &sb.c);
    s.os.insert(os::BUSY_TIME.into(), busy);
    s.os.insert(os::IDLE_TIME.into(), idle);
    s.os.insert(os::NUM_CPUS.into(), f64::from(p.cpu.num_cpus));
    s.os.insert(
        os::LOAD.into(),
        (f64::from(p.cpu.num_cpus) * busy_share * 100.0).round() / 100.0,
    );
    s.iostat.insert(
        filetype::LOG_FILE.into(),
        io(
            sb.c.log_rreq,
            c.srl_write_reqs + sb.c.log_wreq,
            sb.c.log_rbytes,
            c.srl_write_bytes as f64 + sb.c.log_wbytes,
            sb.c.log_rus,
            c.srl_write_us as f64 + sb.c.log_wus,
        ),
    );
    s.iostat.insert(
        filetype::DATA_FILE.into(),
        io(
            sb.c.data_rreq,
            sb.c.data_wreq,
            sb.c.data_rbytes,
            sb.c.data_wbytes,
            sb.c.data_rus,
            sb.c.data_wus,
        ),
    );
    s.iostat.insert(
        filetype::ARCHIVE_LOG.into(),
        io(0, sb.c.arch_wreq, 0.0, sb.c.arch_wbytes, 0.0, sb.c.arch_wus),
    );
    let elapsed = twin.cp.now as f64 / 1e9;
    let cf = (elapsed * 3.0) as u64;
    s.iostat.insert(
        filetype::CONTROL_FILE.into(),
        io(
            cf * 2,
            cf,
            cf as f64 * 2.0 * 16384.0,
            cf as f64 * 16384.0,
            cf as f64 * 900.0,
            cf as f64 * 1100.0,
        ),
    );
    let secs_of = |ts: Timestamp| Timestamp::from_millis(ts.ms - ts.ms.rem_euclid(1000));
    let received_at = twin
        .epoch
        .add_millis((sb.c.last_received_s * 1000.0) as i64);
    let tl = sb.transport_lag_s.floor();
    let al = sb.apply_lag_s.floor();
    let shipping = !matches!(p.transport, Transport::Defer);
    let t_s = twin.cp.now as f64 / 1e9;
    // Only redo old enough to apply counts towards the finish time (a DELAY holds the rest).
    let due = if p.apply_hold_s() > 0.0 {
        sb.apply.bytes_older(t_s - p.apply_hold_s())
    } else {
        sb.apply.bytes
    };
    s.dg = Some(DgStats {
        // With RFS unable to write, the standby cannot tell how far behind it is.
        transport_lag_s: (!sb.rfs_blocked()).then_some(Secs(tl)),
        apply_lag_s: Some(Secs(al)),
        apply_finish_s: Some(Secs(
            ((due / p.apply.effective_bps(&p.standby_io)) * 1000.0).round() / 1000.0,
        )),
        computed: Some(secs_of(t)),
        datum: Some(secs_of(if shipping && sb.c.received > 0.0 {
            received_at
        } else {
            twin.epoch
        })),
        // MRP0's instance: the coordinator under multi-instance apply.
        inst_id: Some(1),
    });
    if p.active_dg {
        for (name, lag) in [("apply lag", al as u64), ("transport lag", tl as u64)] {
            *twin.lag_hist.entry((name, lag_bucket(lag))).or_default() += 1;
        }
        s.lag_hist = Some(
            twin.lag_hist
                .iter()
                .map(|(&(name, lag_s), &count)| LagHistRow {
                    name: name.into(),
                    lag_s,
                    count,
                })
                .collect(),
        );
    }
    let sb = &twin.sb;
    let apply_bps = p.apply.effective_bps(&p.standby_io);
    let last_applied = twin
        .epoch
        .add_millis((sb.c.last_applied_gen_s * 1000.0) as i64);
    // V$RECOVERY_PROGRESS has rows only while media recovery runs.
    let running = p.apply_running(since);
    let mira = p.apply.instances > 1;
    s.recovery = running.then(|| {
        // MIRA reports its per-instance rates, and so these items, as 0.
        let (active, per_log, ckpt) = if mira {
            (0.0, 0.0, 0.0)
        } else {
            (
                (apply_bps / 1024.0).round(),
                (p.orl_bytes as f64 / apply_bps).round(),
                p.apply.ckpt_s_per_log,
            )
        };
        Recovery {
            active_apply_kbps: Some(active),
            average_apply_kbps: Some((sb.c.applied / elapsed.max(1.0) / 1024.0).round()),
            max_apply_kbps: Some(active),
            redo_applied_mb: Some((sb.c.applied / MB).floor()),
            last_applied: Some(last_applied),
            apply_time_per_log_s: Some(per_log),
            checkpoint_time_per_log_s: Some(ckpt),
        }
    });
    s.processes = standby_processes(twin, &p, since).into();
    s.gaps = Some(archive_gaps(twin, &p));
    // A physical standby keeps ORLs for a role change; V$LOG shows them unused.
    let online = online_logs(twin, &p)
        .into_iter()
        .map(|l| Log {
            sequence: 0,
            status: LogStatus::Unused,
            used: None,
            ..l
        })
        .collect();
    s.logs = Some(Arc::new(Logs {
        online,
        standby: standby_logs(twin, &p, twin.cp.link.is_connected()),
    }));
    let mut params: BTreeMap<Name, Name> = BTreeMap::new();
    params.insert("cpu_count".into(), p.cpu.num_cpus.to_string().into());
    params.insert("db_unique_name".into(), STANDBY.into());
    params.insert("log_buffer".into(), p.log_buffer.to_string().into());
    params.insert(
        "log_archive_config".into(),
        format!("DG_CONFIG=({PRIMARY},{STANDBY})").into(),
    );
    params.insert("fal_server".into(), PRIMARY.into());
    params.insert(
        "standby_file_management".into(),
        if p.apply_stop_s.is_some() {
            "MANUAL"
        } else {
            "AUTO"
        }
        .into(),
    );
    s.params = Some(Arc::new(params));
    let archived_logs =
        ((twin.sb.fra_used - p.standby_fra.used_bytes as f64).max(0.0) / p.orl_bytes as f64) as u64;
    let mut f = fra(&p.standby_fra, twin.sb.fra_used, archived_logs);
    if p.standby_fra.fills {
        // Nothing is reclaimable: the deletion policy keeps every archived log.
        f.reclaimable_bytes = 0;
    }
    s.fra = Some(f);
    s.dg_messages = Some(twin.msgs.take_standby());
    s
}

/// `V$DATAGUARD_PROCESS` over every instance (GV$): ARCn per instance, an RFS per primary
/// thread, MRP0 and its recovery slaves (per instance under MIRA).
fn standby_processes(twin: &Twin, p: &Params, since: f64) -> Vec<Process> {
    let sb = &twin.sb;
    let instances = p.apply.instances.max(1);
    let mut procs = Vec::new();
    for inst in 1..=instances {
        for (name, role) in [("ARC0", "archive local"), ("ARC1", "archive redo")] {
            procs.push(Process {
                name: name.into(),
                role: Some(role.into()),
                action: Some("IDLE".into()),
                delay_mins: Some(0),
                inst_id: Some(inst),
                ..Default::default()
            });
        }
    }
    let rfs_role = if p.transport.is_sync() {
        "RFS sync"
    } else {
        "RFS async"
    };
    let receiving = twin.receiving();
    let behind = logs_behind(sb.send.bytes, p);
    for (th, lg) in twin.cp.lgwr.iter().enumerate() {
        procs.push(Process {
            name: "RFS".into(),
            role: Some(rfs_role.into()),
            action: Some(if receiving { "RECEIVING" } else { "IDLE" }.into()),
            thread: Some(th as u32 + 1),
            sequence: Some(lg.sequence.saturating_sub(behind)),
            delay_mins: Some(0),
            // The primary's transport connects to the instances in turn.
            inst_id: Some(th as u32 % instances + 1),
        });
    }
    let mrp_seq = mrp_sequence(twin, p);
    let running = p.apply_running(since);
    let action = if p.apply_off_now(since).is_some() {
        // Cancelled on request: MRP0 is gone, not in error.
        None
    } else if !running {
        let stopped_for = since - p.apply_stop_s.unwrap_or(since);
        (stopped_for < MRP_ERROR_ROW_S).then_some("ERROR")
    } else if receiving || sb.apply.bytes > 0.0 {
        Some("APPLYING_LOG")
    } else if twin.sb.rfs_blocked() || twin.cp.link.resolving_gap {
        Some("WAIT_FOR_GAP")
    } else {
        Some("WAIT_FOR_LOG")
    };
    if let Some(action) = action {
        procs.push(Process {
            name: "MRP0".into(),
            role: Some("managed recovery".into()),
            action: Some(action.into()),
            thread: Some(1),
            sequence: Some(mrp_seq),
            delay_mins: Some(p.delay_mins),
            inst_id: Some(1),
        });
    }
    if running {
        for inst in 1..=instances {
            for n in ["PR00", "PR01", "PR02"] {
                procs.push(Process {
                    name: n.into(),
                    role: Some("recovery apply slave".into()),
                    action: Some("IDLE".into()),
                    delay_mins: Some(0),
                    inst_id: Some(inst),
                    ..Default::default()
                });
            }
        }
    }
    procs
}

/// The sequence (thread 1) MRP0 applies: behind the primary's by what is still to ship and
/// to apply.
fn mrp_sequence(twin: &Twin, p: &Params) -> u64 {
    let sb = &twin.sb;
    twin.cp.lgwr.first().map_or(0, |l| {
        l.sequence
            .saturating_sub(logs_behind(sb.send.bytes, p) + logs_behind(sb.apply.bytes, p))
    })
}

/// `V$ARCHIVE_GAP`: what the standby knows it misses. With RFS blocked, every thread from
/// the log it could not finish up to the primary's current one; while an outage's backlog
/// ships, the whole logs still behind.
fn archive_gaps(twin: &Twin, p: &Params) -> Vec<Gap> {
    let lgwr = &twin.cp.lgwr;
    if let (Some(blocked), true) = (&twin.blocked_seq, twin.sb.rfs_blocked()) {
        return blocked
            .iter()
            .zip(lgwr)
            .enumerate()
            .map(|(th, (&low, lg))| Gap {
                thread: th as u32 + 1,
                low,
                high: lg.sequence.max(low),
            })
            .collect();
    }
    if p.transient_gap
        .is_some_and(|g| g.contains(since_scenario_s(twin)))
    {
        // The view lists a log that has arrived and that MRP0 is applying right now (seen
        // in the field: logic.edchen.org, "Sometimes Archive Gap is Just Temporary").
        let seq = mrp_sequence(twin, p);
        return vec![Gap {
            thread: 1,
            low: seq,
            high: seq,
        }];
    }
    let behind = logs_behind(twin.sb.send.bytes, p);
    if !twin.cp.link.resolving_gap || behind == 0 {
        return Vec::new();
    }
    lgwr.iter()
        .enumerate()
        .map(|(th, lg)| Gap {
            thread: th as u32 + 1,
            low: lg.sequence.saturating_sub(behind),
            high: lg.sequence.saturating_sub(1),
        })
        .collect()
}
