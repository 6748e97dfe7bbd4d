//! Issue 13's topologies on top of the simulated pair. The commit path and the SYNC member
//! stay the calibrated simulation; this file dresses their samples for the configuration
//! played (a RAC primary per instance; the SYNC member as a far sync instance) and emits
//! the one extra member a topology has: the far ASYNC standby of `two-standbys`, or the
//! terminal standby behind the far sync. That member is a second fluid standby fed the same
//! redo as the first, over its own ASYNC link onto its own SRL disk.

use super::fluid::Standby;
use super::params::{Member, Params, Topology, Transport, MB};
use super::put::{put_event, put_receiver_events, Waiter};
use super::Twin;
use dgscope_model::sample::names::{event, filetype, os, stat};
use dgscope_model::sample::{
    DbInfo, Dest, DestStatus, DgMember, DgStats, FlatMap, InstanceSample, IoStat, Log, LogStatus,
    Logs, Name, OpenMode, Process, Recovery, Role, Sample, SampleErrorKind, Slot, TransmitMode,
};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::{Micros, Secs};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) const PRIMARY: &str = "prod_a";
/// The simulated SYNC member's name in a plain pair.
pub(crate) const NEAR: &str = "prod_b";
pub(crate) const FAR_SYNC: &str = "prod_fs";
/// The extra member: the far standby, or the terminal standby behind the far sync.
pub(crate) const FAR: &str = "prod_c";

/// The extra member of the topology, if it has one.
pub(crate) fn extra_member(p: &Params) -> Option<Member> {
    match p.topology {
        Topology::TwoStandbys { far } => Some(far),
        Topology::FarSync { terminal } => Some(terminal),
        Topology::TwoSync { second } => Some(second),
        Topology::Pair | Topology::Rac { .. } => None,
    }
}

/// The extra member's parameters: the base's apply and I/O, its own ASYNC link and SRLs,
/// none of the scenario's faults (they belong to the simulated member).
pub(crate) fn member_params(p: &Params, m: &Member) -> Params {
    let mut q = p.clone();
    // The second SYNC standby's redo lands with each remote write; the others' ships ASYNC.
    q.transport = match p.topology {
        Topology::TwoSync { .. } => Transport::Sync { affirm: true },
        _ => Transport::Async,
    };
    q.ship_bw_bps = m.ship_bw_bps;
    q.compression = None;
    q.srl.s0_us = m.srl_us;
    q.srl.sigma = m.srl_sigma;
    q.srl.members = m.srl_members.max(1);
    q.outage = None;
    q.link_outage = None;
    q.defer_at_s = None;
    q.delay_mins = 0;
    q.apply_stop_s = None;
    q.standby_fra.fills = false;
    q.active_dg = false;
    q
}

fn member(name: &str, parent: Option<&str>, role: &str) -> DgMember {
    DgMember {
        name: name.into(),
        parent: parent.map(Name::from),
        role: Some(role.into()),
    }
}

/// `V$DATAGUARD_CONFIG` as `me` sees it (its own row first).
fn dg_config(p: &Params, me: &str) -> Option<Arc<Vec<DgMember>>> {
    let mut all = vec![member(PRIMARY, None, "PRIMARY DATABASE")];
    match p.topology {
        Topology::TwoStandbys { .. } | Topology::TwoSync { .. } => {
            all.push(member(NEAR, Some(PRIMARY), "PHYSICAL STANDBY"));
            all.push(member(FAR, Some(PRIMARY), "PHYSICAL STANDBY"));
        }
        Topology::FarSync { .. } => {
            all.push(member(FAR_SYNC, Some(PRIMARY), "FAR SYNC STANDBY"));
            all.push(member(FAR, Some(FAR_SYNC), "PHYSICAL STANDBY"));
        }
        Topology::Pair | Topology::Rac { .. } => return None,
    }
    let at = all.iter().position(|m| m.name == me)?;
    let mine = all.remove(at);
    all.insert(0, mine);
    Some(Arc::new(all))
}

/// `V$OSSTAT` of one host after `elapsed_s`: busy and idle centiseconds at its busy share.
fn host_os(cpus: u32, busy: f64, load_per_cpu: f64, elapsed_s: f64) -> FlatMap<Name, f64> {
    let total = f64::from(cpus) * 100.0 * elapsed_s;
    let mut m = FlatMap::new();
    m.insert(os::BUSY_TIME.into(), (total * busy).round());
    m.insert(os::IDLE_TIME.into(), (total * (1.0 - busy)).round());
    m.insert(os::NUM_CPUS.into(), f64::from(cpus));
    m.insert(
        os::LOAD.into(),
        (f64::from(cpus) * load_per_cpu * 100.0).round() / 100.0,
    );
    m
}

/// The primary's sample for the topology: per instance on RAC (the top level stays the
/// cluster: CPUs summed, the busiest host's load), its destinations named for the members.
pub(crate) fn dress_primary(twin: &Twin, s: &mut Sample) {
    let p = twin.cp.params();
    match p.topology {
        Topology::Pair => {}
        Topology::Rac { .. } => {
            let elapsed = twin.cp.now as f64 / 1e9;
            let insts: Vec<InstanceSample> = twin
                .cp
                .c
                .per_thread
                .iter()
                .enumerate()
                .map(|(th, c)| {
                    let cpu = p.cpu_of(th as u32);
                    let mut i = Sample::new(s.t, s.slot.clone());
                    use Waiter::{Background, Foreground};
                    put_event(&mut i, event::LOG_FILE_SYNC, &c.log_file_sync, Foreground);
                    put_event(
                        &mut i,
                        event::LOG_FILE_PARALLEL_WRITE,
                        &c.log_file_parallel_write,
                        Background,
                    );
                    put_event(
                        &mut i,
                        event::SYNC_REMOTE_WRITE,
                        &c.sync_remote_write,
                        Background,
                    );
                    // The instance's DB time: its commits' waits and its share of the work.
                    let db_time_cs = ((c.log_file_sync.us as f64 + c.db_work_us) / 10_000.0) as u64;
                    for (k, v) in [
                        (stat::USER_COMMITS, c.user_commits),
                        (stat::REDO_SIZE, c.redo_size),
                        (stat::REDO_WRITES, c.redo_writes),
                        (stat::REDO_SYNCH_WRITES, c.redo_synch_writes),
                        (stat::REDO_SYNCH_POLL_WRITES, c.redo_synch_poll_writes),
                        (stat::DB_TIME, db_time_cs),
                    ] {
                        i.stats.insert(k.into(), v);
                    }
                    InstanceSample {
                        inst_id: th as u32 + 1,
                        host: Some(format!("dbhost{}", th + 1).into()),
                        events: i.events,
                        stats: i.stats,
                        os: host_os(cpu.num_cpus, cpu.busy, cpu.load_per_cpu, elapsed),
                    }
                })
                .collect();
            let sum = |k: &str| insts.iter().filter_map(|i| i.os.get(k)).sum::<f64>();
            let max = |k: &str| {
                insts
                    .iter()
                    .filter_map(|i| i.os.get(k).copied())
                    .fold(0.0, f64::max)
            };
            for k in [os::BUSY_TIME, os::IDLE_TIME, os::NUM_CPUS] {
                s.os.insert(k.into(), sum(k));
            }
            s.os.insert(os::LOAD.into(), max(os::LOAD));
            s.instances = Some(insts);
        }
        Topology::FarSync { .. } => {
            for d in &mut s.dests {
                d.name = Some(FAR_SYNC.into());
                d.db_unique_name = Some(FAR_SYNC.into());
                d.dest_type = Some("FAR SYNC".into());
                // A far sync has no datafiles: the primary sees no recovery mode there.
                d.recovery_mode = Some("IDLE".into());
                d.database_mode = Some("MOUNTED-STANDBY".into());
            }
            rename_params(s, NEAR, FAR_SYNC);
            s.dg_config = dg_config(p, PRIMARY);
        }
        Topology::TwoSync { .. } => {
            let near = s.dests.first().cloned();
            if let (Some(near), Some(x)) = (near, twin.extra.as_ref()) {
                let mut d = async_dest(3, FAR, near.srl_count, &x.sb, p);
                d.mode = TransmitMode::Sync;
                d.affirm = true;
                d.gap = Some("NO GAP".into());
                d.synchronization_status = Some("OK".into());
                d.resp_hist = twin.cp.c.second.resp_hist.clone();
                d.archived_seq = near.archived_seq;
                d.applied_seq = near.applied_seq;
                s.dests.push(d);
            }
            if let Some(pm) = s.params.as_mut().map(Arc::make_mut) {
                pm.insert(
                    "log_archive_dest_3".into(),
                    format!(
                        "SERVICE={FAR} SYNC AFFIRM NET_TIMEOUT={} REOPEN={} VALID_FOR=(ONLINE_LOGFILES,PRIMARY_ROLE) DB_UNIQUE_NAME={FAR}",
                        p.net_timeout_s as u64, p.reopen_s as u64
                    )
                    .into(),
                );
                pm.insert("log_archive_dest_state_3".into(), "ENABLE".into());
                pm.insert(
                    "log_archive_config".into(),
                    format!("DG_CONFIG=({PRIMARY},{NEAR},{FAR})").into(),
                );
            }
            s.dg_config = dg_config(p, PRIMARY);
        }
        Topology::TwoStandbys { .. } => {
            let far = twin.extra.as_ref().map(|x| &x.sb);
            let near = s.dests.first().cloned();
            if let (Some(near), Some(far)) = (near, far) {
                s.dests.push(async_dest(3, FAR, near.srl_count, far, p));
            }
            if let Some(pm) = s.params.as_mut().map(Arc::make_mut) {
                pm.insert(
                    "log_archive_dest_3".into(),
                    format!("SERVICE={FAR} ASYNC NOAFFIRM VALID_FOR=(ONLINE_LOGFILES,PRIMARY_ROLE) DB_UNIQUE_NAME={FAR}").into(),
                );
                pm.insert("log_archive_dest_state_3".into(), "ENABLE".into());
                pm.insert(
                    "log_archive_config".into(),
                    format!("DG_CONFIG=({PRIMARY},{NEAR},{FAR})").into(),
                );
            }
            s.dg_config = dg_config(p, PRIMARY);
        }
    }
}

fn rename_params(s: &mut Sample, from: &str, to: &str) {
    if let Some(pm) = s.params.as_mut().map(Arc::make_mut) {
        for v in pm.values_mut() {
            *v = v.replace(from, to).into();
        }
    }
}

/// An ASYNC destination to a member fed by `sb`.
fn async_dest(id: u32, name: &str, srl_count: Option<u32>, sb: &Standby, p: &Params) -> Dest {
    Dest {
        id,
        name: Some(name.into()),
        status: DestStatus::Valid,
        mode: TransmitMode::Async,
        affirm: false,
        compression: Some("DISABLE".into()),
        net_timeout_s: Some(p.net_timeout_s as u64),
        gap: Some(if sb.send.bytes > p.orl_bytes as f64 {
            "RESOLVABLE GAP".into()
        } else {
            "NO GAP".into()
        }),
        error: None,
        db_unique_name: Some(name.into()),
        dest_type: Some("PHYSICAL".into()),
        delay_mins: Some(0),
        recovery_mode: Some("MANAGED REAL TIME APPLY".into()),
        database_mode: Some("MOUNTED-STANDBY".into()),
        synchronization_status: Some("CHECK CONFIGURATION".into()),
        srl_count,
        srl_active: Some(p.threads),
        reopen_secs: Some(p.reopen_s as u64),
        max_failure: Some(0),
        failure_count: Some(0),
        fail_date: None,
        ..Dest::default()
    }
}

/// The simulated member's sample for the topology: under `far-sync` it is the far sync
/// instance: role `FAR SYNC`, mounted, no datafiles, no MRP0, no apply figures, and a
/// destination of its own to the terminal standby.
pub(crate) fn dress_standby(twin: &Twin, s: &mut Sample) {
    let p = twin.cp.params();
    match p.topology {
        Topology::Pair | Topology::Rac { .. } => {}
        Topology::TwoStandbys { .. } | Topology::TwoSync { .. } => s.dg_config = dg_config(p, NEAR),
        Topology::FarSync { .. } => {
            if s.is_error() {
                return;
            }
            if let Some(db) = s.db.as_mut().map(std::sync::Arc::make_mut) {
                db.name = Some(FAR_SYNC.into());
                db.role = Some(Role::FarSync);
                db.open_mode = Some(OpenMode::Mounted);
                db.host = Some("fshost1".into());
                // A far sync instance forwards redo: the broker has it TRANSPORT-ON.
                db.intended_state = Some("TRANSPORT-ON".into());
            }
            for e in [
                event::RECOVERY_READ,
                event::DB_FILE_SEQUENTIAL_READ,
                event::DB_FILE_PARALLEL_WRITE,
                event::CHECKPOINT_COMPLETED,
            ] {
                s.events.remove(e);
            }
            s.iostat.remove(filetype::DATA_FILE);
            if let Some(dg) = &mut s.dg {
                dg.apply_lag_s = None;
                dg.apply_finish_s = None;
            }
            s.recovery = None;
            s.lag_hist = None;
            let procs = Arc::make_mut(&mut s.processes);
            procs.retain(|x| {
                let n = x.name.to_ascii_uppercase();
                !(n.starts_with("MRP") || n.starts_with("PR"))
            });
            procs.push(Process {
                name: "TT00".into(),
                role: Some("async ORL multi".into()),
                action: Some("IDLE".into()),
                thread: Some(1),
                inst_id: Some(1),
                ..Process::default()
            });
            if let Some(term) = twin.extra.as_ref() {
                let srls = Some(term.params.srl.groups * p.threads);
                s.dests = vec![async_dest(2, FAR, srls, &term.sb, &term.params)];
            }
            rename_params(s, NEAR, FAR_SYNC);
            s.dg_config = dg_config(p, FAR_SYNC);
        }
    }
}

/// The extra member: its own fluid standby and parameters.
pub(crate) struct Extra {
    pub sb: Standby,
    pub params: Params,
    /// The scenario switched to one without this member: its slot now reports failed
    /// samples, so its last figures go stale instead of passing for current.
    pub retired: bool,
}

impl Extra {
    pub(crate) fn new(p: &Params) -> Option<Self> {
        let m = extra_member(p)?;
        let params = member_params(p, &m);
        Some(Extra {
            sb: Standby::new(&params),
            params,
            retired: false,
        })
    }

    /// The extra member after a scenario switch: the new scenario's, or the old one retired.
    pub(crate) fn switch(old: Option<Extra>, p: &Params) -> Option<Self> {
        Extra::new(p).or_else(|| {
            old.map(|mut x| {
                x.retired = true;
                x
            })
        })
    }
}

/// The extra member's sample (slot `standby:prod_c`), or none for a pair.
pub(crate) fn extra_sample(twin: &Twin, t: Timestamp) -> Option<Sample> {
    let x = twin.extra.as_ref()?;
    if x.retired {
        return Some(Sample::failed(
            t,
            Slot::named_standby(FAR),
            SampleErrorKind::InstanceDown,
            format!(
                "{FAR} is not part of the twin's scenario {}",
                twin.scenario.name()
            ),
        ));
    }
    let (p, sb) = (&x.params, &x.sb);
    let elapsed = twin.cp.now as f64 / 1e9;
    let mut s = Sample::new(t, Slot::named_standby(FAR));
    s.query_us = Some(Micros(3000));
    s.db = Some(
        DbInfo {
            name: Some(FAR.into()),
            role: Some(Role::PhysicalStandby),
            open_mode: Some(OpenMode::Mounted),
            protection_mode: Some("MAXIMUM AVAILABILITY".into()),
            protection_level: Some("MAXIMUM AVAILABILITY".into()),
            version: Some("19.21.0.0.0".into()),
            startup: Some(twin.epoch),
            host: Some("dbhost3".into()),
            instances: Some(1),
            switchover_status: Some("NOT ALLOWED".into()),
            dataguard_broker: Some("ENABLED".into()),
            fs_failover_status: Some("DISABLED".into()),
            force_logging: Some(if p.nologging { "NO" } else { "YES" }.into()),
            flashback_on: Some("YES".into()),
            intended_state: Some("APPLY-ON".into()),
            ..DbInfo::default()
        }
        .into(),
    );
    put_receiver_events(&mut s, &sb.c);
    let sync2 = matches!(twin.cp.params().topology, Topology::TwoSync { .. });
    let second = &twin.cp.c.second;
    if sync2 {
        // Its SRL writes happen in the primary's commit path, where they are counted.
        put_event(
            &mut s,
            event::RFS_RANDOM_IO,
            &second.rfs_random_io,
            Waiter::Background,
        );
    }
    let busy = 0.12 + 0.25 * (sb.c.apply_busy_s / elapsed.max(1.0));
    s.os = host_os(p.cpu.num_cpus, busy, busy, elapsed);
    let io = |rreq: u64, wreq: u64, rb: f64, wb: f64, rus: f64, wus: f64| IoStat {
        rreq,
        wreq,
        rmb: (rb / MB) as u64,
        wmb: (wb / MB) as u64,
        rms: (rus / 1000.0) as u64,
        wms: (wus / 1000.0) as u64,
    };
    let c = &sb.c;
    s.iostat.insert(
        filetype::LOG_FILE.into(),
        io(
            c.log_rreq,
            c.log_wreq + second.srl_write_reqs * u64::from(sync2),
            c.log_rbytes,
            c.log_wbytes + (second.srl_write_bytes * u64::from(sync2)) as f64,
            c.log_rus,
            c.log_wus + (second.srl_write_us * u64::from(sync2)) as f64,
        ),
    );
    s.iostat.insert(
        filetype::DATA_FILE.into(),
        io(
            c.data_rreq,
            c.data_wreq,
            c.data_rbytes,
            c.data_wbytes,
            c.data_rus,
            c.data_wus,
        ),
    );
    let secs_of = |ts: Timestamp| Timestamp::from_millis(ts.ms - ts.ms.rem_euclid(1000));
    let received = twin.epoch.add_millis((c.last_received_s * 1000.0) as i64);
    let apply_bps = p.apply.effective_bps(&p.standby_io);
    s.dg = Some(DgStats {
        transport_lag_s: Some(Secs(sb.transport_lag_s.floor())),
        apply_lag_s: Some(Secs(sb.apply_lag_s.floor())),
        apply_finish_s: Some(Secs(
            ((sb.apply.bytes / apply_bps) * 1000.0).round() / 1000.0,
        )),
        computed: Some(secs_of(t)),
        datum: Some(secs_of(if c.received > 0.0 {
            received
        } else {
            twin.epoch
        })),
        inst_id: Some(1),
    });
    s.recovery = Some(Recovery {
        active_apply_kbps: Some((apply_bps / 1024.0).round()),
        average_apply_kbps: Some((c.applied / elapsed.max(1.0) / 1024.0).round()),
        max_apply_kbps: Some((apply_bps / 1024.0).round()),
        redo_applied_mb: Some((c.applied / MB).floor()),
        last_applied: Some(
            twin.epoch
                .add_millis((c.last_applied_gen_s * 1000.0) as i64),
        ),
        apply_time_per_log_s: Some((p.orl_bytes as f64 / apply_bps).round()),
        checkpoint_time_per_log_s: Some(p.apply.ckpt_s_per_log),
    });
    let seqs: Vec<u64> = twin.cp.lgwr.iter().map(|l| l.sequence).collect();
    let procs = Arc::make_mut(&mut s.processes);
    for (th, seq) in seqs.iter().enumerate() {
        procs.push(Process {
            name: "RFS".into(),
            role: Some(if sync2 { "RFS sync" } else { "RFS async" }.into()),
            action: Some("RECEIVING".into()),
            thread: Some(th as u32 + 1),
            sequence: Some(*seq),
            inst_id: Some(1),
            ..Process::default()
        });
    }
    procs.push(Process {
        name: "MRP0".into(),
        role: Some("managed recovery".into()),
        action: Some("APPLYING_LOG".into()),
        thread: Some(1),
        sequence: seqs.first().copied(),
        delay_mins: Some(0),
        inst_id: Some(1),
    });
    s.gaps = Some(Vec::new());
    let groups = p.orl_groups.max(2);
    let orl_total = seqs.len() as u32 * groups;
    s.logs = Some(Arc::new(Logs {
        online: Vec::new(),
        standby: (0..seqs.len() as u32)
            .flat_map(|th| {
                (0..p.srl.groups).map(move |g| Log {
                    group: orl_total + th * p.srl.groups + g + 1,
                    thread: th + 1,
                    sequence: 0,
                    bytes: p.orl_bytes,
                    members: p.srl.members,
                    status: LogStatus::Unassigned,
                    used: None,
                    blocksize: Some(512),
                })
            })
            .collect(),
    }));
    let mut params: BTreeMap<Name, Name> = BTreeMap::new();
    params.insert("db_unique_name".into(), FAR.into());
    params.insert("cpu_count".into(), p.cpu.num_cpus.to_string().into());
    params.insert("log_buffer".into(), p.log_buffer.to_string().into());
    params.insert("standby_file_management".into(), "AUTO".into());
    params.insert(
        "fal_server".into(),
        match p.topology {
            Topology::FarSync { .. } => FAR_SYNC,
            _ => PRIMARY,
        }
        .into(),
    );
    s.params = Some(Arc::new(params));
    s.dg_messages = Some(Vec::new());
    s.dg_config = dg_config(p, FAR);
    Some(s)
}
