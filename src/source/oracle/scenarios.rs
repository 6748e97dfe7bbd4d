//! Fake databases for tests and demos: a primary and standbys of each release dgscope has
//! SQL for, filled with rows as Oracle's Reference documents them (values made up but
//! plausible: a 19c SYNC pair with a 1–3 s apply lag).

use super::errors::OraError;
use super::fake::{vrow, FakeDb, ViewRow};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    R11_2,
    /// 12.1.0.1: before V$EVENT_HISTOGRAM_MICRO.
    R12_1_0_1,
    /// 12.1.0.2.
    R12_1,
    R12_2,
    R19,
}

impl Release {
    fn version(self) -> &'static str {
        match self {
            Release::R11_2 => "11.2.0.4.0",
            Release::R12_1_0_1 => "12.1.0.1.0",
            Release::R12_1 => "12.1.0.2.0",
            Release::R12_2 => "12.2.0.1.0",
            Release::R19 => "19.0.0.0.0",
        }
    }
    fn at_least_12_1(self) -> bool {
        self != Release::R11_2
    }
    fn has_micro(self) -> bool {
        !matches!(self, Release::R11_2 | Release::R12_1_0_1)
    }
    fn at_least_12_2(self) -> bool {
        matches!(self, Release::R12_2 | Release::R19)
    }
}

/// The database's clock: local time is UTC+1 (so tests see the zone conversion).
pub const SYSDATE: &str = "2026-11-30 06:00:01";
pub const UTC_NOW: &str = "2026-11-30 05:00:01";

fn base(rel: Release, instances: u32, host_prefix: &str, startup: &str) -> FakeDb {
    let mut db = FakeDb {
        sysdate: SYSDATE.into(),
        utc_now: UTC_NOW.into(),
        ..FakeDb::default()
    };
    // Every view exists in every release unless said otherwise below.
    for v in [
        "V$INSTANCE",
        "V$DATABASE",
        "V$FIXED_TABLE",
        "V$SYSTEM_EVENT",
        "V$EVENT_HISTOGRAM",
        "V$SYSSTAT",
        "V$OSSTAT",
        "V$IOSTAT_FILE",
        "V$PARAMETER",
        "V$LOG",
        "V$STANDBY_LOG",
        "V$LOGFILE",
        "V$LOG_HISTORY",
        "V$ARCHIVE_DEST",
        "V$ARCHIVE_DEST_STATUS",
        "V$REDO_DEST_RESP_HISTOGRAM",
        "V$DATAGUARD_STATS",
        "V$STANDBY_EVENT_HISTOGRAM",
        "V$RECOVERY_PROGRESS",
        "V$MANAGED_STANDBY",
    ] {
        db.view(v);
    }
    if rel.has_micro() {
        db.view("V$EVENT_HISTOGRAM_MICRO");
    }
    if rel.at_least_12_2() {
        db.view("V$DATAGUARD_PROCESS");
    }
    for i in 1..=instances {
        let inst = i.to_string();
        let host = format!("{host_prefix}{i}");
        let mut r = vrow(&[
            ("INST_ID", &inst),
            ("INSTANCE_NUMBER", &inst),
            ("STATUS", "OPEN"),
            ("VERSION", rel.version()),
            ("HOST_NAME", &host),
            ("STARTUP_TIME", startup),
        ]);
        if rel == Release::R19 {
            r.insert("VERSION_FULL".into(), "19.21.0.0.0".into());
        }
        db.view("V$INSTANCE").push(r);
        db.view("V$OSSTAT").extend([
            os(&inst, "NUM_CPUS", "16"),
            os(&inst, "BUSY_TIME", "4000000"),
            os(&inst, "IDLE_TIME", "36000000"),
            os(&inst, "IOWAIT_TIME", "120000"),
            os(&inst, "LOAD", if i == 1 { "2.5" } else { "4.25" }),
            os(&inst, "PHYSICAL_MEMORY_BYTES", "137438953472"),
        ]);
        db.view("V$IOSTAT_FILE").extend([
            iof(&inst, "Log File", 10, 900_000, 45_000),
            iof(&inst, "Data File", 500_000, 20_000, 9_000),
            iof(&inst, "Data File", 250_000, 10_000, 6_000),
            iof(&inst, "Control File", 7_000, 3_000, 300),
        ]);
    }
    db.view("V$PARAMETER").extend([
        par("db_writer_processes", "2", "TRUE"),
        par("cpu_count", "16", "TRUE"),
        par("db_block_size", "8192", "TRUE"),
        par("log_archive_dest_3", "", "TRUE"),
        par("log_archive_dest_state_4", "enable", "TRUE"),
    ]);
    db
}

fn os(inst: &str, name: &str, v: &str) -> ViewRow {
    vrow(&[("INST_ID", inst), ("STAT_NAME", name), ("VALUE", v)])
}

fn iof(inst: &str, ft: &str, rreq: u64, wreq: u64, wms: u64) -> ViewRow {
    let s = |n: u64| n.to_string();
    vrow(&[
        ("INST_ID", inst),
        ("FILETYPE_NAME", ft),
        ("SMALL_READ_REQS", &s(rreq)),
        ("LARGE_READ_REQS", "0"),
        ("SMALL_WRITE_REQS", &s(wreq / 2)),
        ("LARGE_WRITE_REQS", &s(wreq - wreq / 2)),
        ("SMALL_READ_MEGABYTES", &s(rreq / 128)),
        ("LARGE_READ_MEGABYTES", "0"),
        ("SMALL_WRITE_MEGABYTES", &s(wreq / 256)),
        ("LARGE_WRITE_MEGABYTES", &s(wreq / 64)),
        ("SMALL_READ_SERVICETIME", &s(rreq / 2)),
        ("LARGE_READ_SERVICETIME", "0"),
        ("SMALL_WRITE_SERVICETIME", &s(wms / 2)),
        ("LARGE_WRITE_SERVICETIME", &s(wms - wms / 2)),
    ])
}

fn par(name: &str, v: &str, isdefault: &str) -> ViewRow {
    vrow(&[("NAME", name), ("VALUE", v), ("ISDEFAULT", isdefault)])
}

fn ev(inst: &str, name: &str, waits: u64, us: u64) -> ViewRow {
    vrow(&[
        ("INST_ID", inst),
        ("EVENT", name),
        ("TOTAL_WAITS", &waits.to_string()),
        ("TIME_WAITED_MICRO", &us.to_string()),
        ("WAIT_CLASS", "Commit"),
    ])
}

fn hist(
    rel: Release,
    inst: &str,
    name: &str,
    buckets: &[(u64, u64)],
) -> Vec<(&'static str, ViewRow)> {
    buckets
        .iter()
        .map(|(bound_us, count)| {
            if rel.has_micro() {
                (
                    "V$EVENT_HISTOGRAM_MICRO",
                    vrow(&[
                        ("INST_ID", inst),
                        ("EVENT", name),
                        ("WAIT_TIME_MICRO", &bound_us.to_string()),
                        ("WAIT_COUNT", &count.to_string()),
                    ]),
                )
            } else {
                (
                    "V$EVENT_HISTOGRAM",
                    vrow(&[
                        ("INST_ID", inst),
                        ("EVENT", name),
                        ("WAIT_TIME_MILLI", &(bound_us / 1000).max(1).to_string()),
                        ("WAIT_COUNT", &count.to_string()),
                    ]),
                )
            }
        })
        .collect()
}

/// A primary with `instances` RAC instances (1 = single instance), SYNC to `prod_b`.
pub fn primary(rel: Release, instances: u32) -> FakeDb {
    let mut db = base(rel, instances, "dbhost", "2026-11-20 01:02:03");
    db.view("V$DATABASE").push(vrow(&[
        ("DATABASE_ROLE", "PRIMARY"),
        ("OPEN_MODE", "READ WRITE"),
        ("DB_UNIQUE_NAME", "prod_a"),
        ("PROTECTION_MODE", "MAXIMUM AVAILABILITY"),
        ("PROTECTION_LEVEL", "MAXIMUM AVAILABILITY"),
    ]));
    let sync_event = if rel.at_least_12_1() {
        "SYNC Remote Write"
    } else {
        "LNS wait on SENDREQ"
    };
    for i in 1..=instances {
        let inst = i.to_string();
        let k = u64::from(i);
        db.view("V$SYSTEM_EVENT").extend([
            ev(&inst, "log file sync", 1_000_000 * k, 2_500_000_000 * k),
            ev(
                &inst,
                "log file parallel write",
                1_200_000 * k,
                600_000_000 * k,
            ),
            ev(&inst, sync_event, 1_100_000 * k, 1_650_000_000 * k),
            ev(&inst, "db file sequential read", 9_000_000, 9_000_000_000),
        ]);
        for (view, r) in hist(
            rel,
            &inst,
            "log file sync",
            &[(1024, 10 * k), (2048, 600_000 * k), (4096, 399_990 * k)],
        )
        .into_iter()
        .chain(hist(
            rel,
            &inst,
            "log file parallel write",
            &[(512, 1_000_000 * k), (1024, 200_000 * k)],
        ))
        .chain(hist(rel, &inst, "log file sync", &[(8192, 0)]))
        {
            db.view(view).push(r);
        }
        for (name, v) in [
            ("redo size", 50_000_000_000 * k),
            ("redo writes", 1_200_000 * k),
            ("user commits", 1_000_000 * k),
            ("redo synch writes", 1_000_000 * k),
            ("redo synch poll writes", 0),
            ("redo write size count (   4KB)", 700_000 * k),
            ("session logical reads", 77),
        ] {
            db.view("V$SYSSTAT").push(vrow(&[
                ("INST_ID", &inst),
                ("NAME", name),
                ("VALUE", &v.to_string()),
            ]));
        }
        for (dur, freq) in [(1, 123_456 * k), (2, 3), (3, 0)] {
            db.view("V$REDO_DEST_RESP_HISTOGRAM").push(vrow(&[
                ("INST_ID", &inst),
                ("DEST_ID", "2"),
                ("DURATION", &dur.to_string()),
                ("FREQUENCY", &freq.to_string()),
            ]));
        }
        for (id, status, target, mode) in [
            ("1", "VALID", "PRIMARY", "SYNCHRONOUS"),
            ("2", "VALID", "STANDBY", "SYNCHRONOUS"),
            ("3", "INACTIVE", "STANDBY", "ASYNCHRONOUS"),
        ] {
            let mut d = vrow(&[
                ("INST_ID", &inst),
                ("DEST_ID", id),
                ("STATUS", status),
                ("TARGET", target),
                ("TRANSMIT_MODE", mode),
                ("AFFIRM", if id == "2" { "YES" } else { "NO" }),
                ("COMPRESSION", "DISABLE"),
                ("NET_TIMEOUT", "30"),
                ("DB_UNIQUE_NAME", if id == "2" { "prod_b" } else { "NONE" }),
                ("DESTINATION", if id == "2" { "prod_b" } else { "" }),
            ]);
            // Instance 2 of a RAC pair reports an error on dest 2: the dest shows it.
            if i == 2 && id == "2" {
                d.insert(
                    "ERROR".into(),
                    "ORA-16198: Timeout incurred on internal channel".into(),
                );
            }
            db.view("V$ARCHIVE_DEST").push(d);
            db.view("V$ARCHIVE_DEST_STATUS").push(vrow(&[
                ("INST_ID", &inst),
                ("DEST_ID", id),
                ("GAP_STATUS", "NO GAP"),
                ("ARCHIVED_SEQ#", &(810 + k).to_string()),
                ("APPLIED_SEQ#", &(809 + k).to_string()),
            ]));
        }
        for g in 1..=3u64 {
            let grp = ((k - 1) * 3 + g).to_string();
            db.view("V$LOG").push(vrow(&[
                ("THREAD#", &inst),
                ("GROUP#", &grp),
                ("SEQUENCE#", &(810 + g).to_string()),
                ("BYTES", "1073741824"),
                ("MEMBERS", "2"),
                ("ARCHIVED", if g == 3 { "NO" } else { "YES" }),
                ("STATUS", if g == 3 { "CURRENT" } else { "INACTIVE" }),
            ]));
        }
        for (seq, t) in [
            (809, "2026-11-30 05:20:00"),
            (810, "2026-11-30 05:40:00"),
            (811, "2026-11-30 05:55:00"),
            (700, "2026-11-29 05:55:00"),
        ] {
            db.view("V$LOG_HISTORY").push(vrow(&[
                ("THREAD#", &inst),
                ("SEQUENCE#", &seq.to_string()),
                ("FIRST_TIME", t),
            ]));
        }
    }
    db.view("V$PARAMETER").extend([
        par(
            "log_archive_dest_2",
            "SERVICE=prod_b SYNC AFFIRM DB_UNIQUE_NAME=prod_b",
            "FALSE",
        ),
        par("log_archive_dest_state_2", "ENABLE", "FALSE"),
        par("log_buffer", "268435456", "FALSE"),
    ]);
    for g in 11..=14u64 {
        db.view("V$STANDBY_LOG").push(vrow(&[
            ("THREAD#", "1"),
            ("GROUP#", &g.to_string()),
            ("SEQUENCE#", "0"),
            ("BYTES", "1073741824"),
            ("USED", "0"),
            ("ARCHIVED", "YES"),
            ("STATUS", "UNASSIGNED"),
        ]));
        db.view("V$LOGFILE")
            .push(vrow(&[("GROUP#", &g.to_string()), ("TYPE", "STANDBY")]));
    }
    for g in 1..=(3 * u64::from(instances)) {
        for _ in 0..2 {
            db.view("V$LOGFILE")
                .push(vrow(&[("GROUP#", &g.to_string()), ("TYPE", "ONLINE")]));
        }
    }
    db
}

/// A physical standby, `open_mode` `MOUNTED` or `READ ONLY WITH APPLY` (Active Data Guard).
pub fn standby(rel: Release, open_mode: &str) -> FakeDb {
    let mut db = base(rel, 1, "sbyhost", "2026-11-21 02:00:00");
    db.mounted = open_mode == "MOUNTED";
    let status = if db.mounted { "MOUNTED" } else { "OPEN" };
    db.view("V$INSTANCE")[0].insert("STATUS".into(), status.into());
    db.view("V$DATABASE").push(vrow(&[
        ("DATABASE_ROLE", "PHYSICAL STANDBY"),
        ("OPEN_MODE", open_mode),
        ("DB_UNIQUE_NAME", "prod_b"),
        ("PROTECTION_MODE", "MAXIMUM AVAILABILITY"),
        ("PROTECTION_LEVEL", "MAXIMUM AVAILABILITY"),
    ]));
    for (name, waits, us) in [
        ("RFS random i/o", 1_100_000u64, 330_000_000u64),
        ("RFS write", 1_100_000, 440_000_000),
        ("checkpoint completed", 120, 60_000_000),
        ("log file sync", 5, 100),
    ] {
        db.view("V$SYSTEM_EVENT").push(ev("1", name, waits, us));
    }
    for (view, r) in hist(
        rel,
        "1",
        "RFS random i/o",
        &[(256, 700_000), (512, 400_000)],
    ) {
        db.view(view).push(r);
    }
    // The documented (11.2) formats; real outputs use lowercase names, docs print UPPER.
    let stats = [
        (
            "transport lag",
            "+00 00:00:01",
            "day(2) to second(0) interval",
        ),
        ("APPLY LAG", "+00 00:00:03", "day(2) to second(0) interval"),
        (
            "apply finish time",
            "+00 00:00:00.500",
            "day(2) to second(3) interval",
        ),
        ("estimated startup time", "28", "second"),
    ];
    for (name, value, unit) in stats {
        db.view("V$DATAGUARD_STATS").push(vrow(&[
            ("NAME", name),
            ("VALUE", value),
            ("UNIT", unit),
            ("TIME_COMPUTED", "11/30/2026 06:00:00"),
            ("DATUM_TIME", "11/30/2026 05:59:59"),
        ]));
    }
    if !db.mounted {
        for (t, unit, count) in [
            ("0", "seconds", "3500"),
            ("1", "seconds", "40"),
            ("3", "seconds", "7"),
            ("2", "minutes", "1"),
            ("9", "seconds", "0"),
        ] {
            db.view("V$STANDBY_EVENT_HISTOGRAM").push(vrow(&[
                ("NAME", "apply lag"),
                ("TIME", t),
                ("UNIT", unit),
                ("COUNT", count),
                ("LAST_TIME_UPDATED", "11/30/2026 05:59:58"),
            ]));
        }
    }
    for (start, item, units, sofar, ts) in [
        (
            "2026-11-29 01:00:00",
            "Active Apply Rate",
            "KB/sec",
            "999",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Active Apply Rate",
            "KB/sec",
            "48000",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Average Apply Rate",
            "KB/sec",
            "9100",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Maximum Apply Rate",
            "KB/sec",
            "120000",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Redo Applied",
            "Megabytes",
            "812000",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Last Applied Redo",
            "SCN+Time",
            "0",
            "2026-11-30 05:59:58",
        ),
        (
            "2026-11-21 02:05:00",
            "Apply Time per Log",
            "Seconds",
            "12",
            "",
        ),
        (
            "2026-11-21 02:05:00",
            "Checkpoint Time per Log",
            "Seconds",
            "3",
            "",
        ),
    ] {
        let kind = if start.starts_with("2026-11-29") {
            "CRASH RECOVERY"
        } else {
            "Media Recovery"
        };
        let mut r = vrow(&[
            ("INST_ID", "1"),
            ("START_TIME", start),
            ("TYPE", kind),
            ("ITEM", item),
            ("UNITS", units),
            ("SOFAR", sofar),
            ("TOTAL", "0"),
        ]);
        if !ts.is_empty() {
            r.insert("TIMESTAMP".into(), ts.into());
        }
        db.view("V$RECOVERY_PROGRESS").push(r);
    }
    if rel.at_least_12_2() {
        for (name, role, action, seq) in [
            ("MRP0", "managed recovery", "APPLYING_LOG", "813"),
            ("RFS", "RFS sync", "IDLE", "813"),
        ] {
            db.view("V$DATAGUARD_PROCESS").push(vrow(&[
                ("INST_ID", "1"),
                ("NAME", name),
                ("ROLE", role),
                ("ACTION", action),
                ("THREAD#", "1"),
                ("SEQUENCE#", seq),
            ]));
        }
    }
    for (process, status, seq) in [("MRP0", "APPLYING_LOG", "813"), ("RFS", "IDLE", "813")] {
        db.view("V$MANAGED_STANDBY").push(vrow(&[
            ("INST_ID", "1"),
            ("PROCESS", process),
            ("STATUS", status),
            ("CLIENT_PROCESS", "LGWR"),
            ("THREAD#", "1"),
            ("SEQUENCE#", seq),
        ]));
    }
    for g in 11..=14u64 {
        db.view("V$STANDBY_LOG").push(vrow(&[
            ("THREAD#", "1"),
            ("GROUP#", &g.to_string()),
            ("SEQUENCE#", if g == 11 { "813" } else { "0" }),
            ("BYTES", "1073741824"),
            ("USED", if g == 11 { "52428800" } else { "0" }),
            ("ARCHIVED", if g == 11 { "YES" } else { "NO" }),
            ("STATUS", if g == 11 { "ACTIVE" } else { "UNASSIGNED" }),
        ]));
        db.view("V$LOGFILE")
            .push(vrow(&[("GROUP#", &g.to_string()), ("TYPE", "STANDBY")]));
    }
    db.view("V$PARAMETER")
        .push(par("standby_file_management", "AUTO", "FALSE"));
    db
}

/// A connect error every attempt (for the error-class tests).
pub fn unreachable(e: OraError) -> FakeDb {
    FakeDb {
        connect_always: Some(e),
        ..FakeDb::default()
    }
}
