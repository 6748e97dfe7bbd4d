//! Fake databases for tests and demos: a primary and standbys of each release dgscope has
//! SQL for, filled with rows as Oracle's Reference documents them (values made up but
//! plausible: a 19c SYNC pair with a 1–3 s apply lag), and the standby-state situations
//! DBAs meet most (a gap behind a full recovery area, a deferred destination, a delayed
//! apply, a RAC standby whose MRP0 runs on another instance than the session's). Where a
//! published output of a view was found, the rows follow its shape; the source is named.

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
    /// 21c: `V$DG_BROKER_PROPERTY` (the broker's properties as a fixed view) exists.
    R21,
}

impl Release {
    fn version(self) -> &'static str {
        match self {
            Release::R11_2 => "11.2.0.4.0",
            Release::R12_1_0_1 => "12.1.0.1.0",
            Release::R12_1 => "12.1.0.2.0",
            Release::R12_2 => "12.2.0.1.0",
            Release::R19 => "19.0.0.0.0",
            Release::R21 => "21.0.0.0.0",
        }
    }
    fn at_least_12_1(self) -> bool {
        self != Release::R11_2
    }
    fn has_micro(self) -> bool {
        !matches!(self, Release::R11_2 | Release::R12_1_0_1)
    }
    fn at_least_12_2(self) -> bool {
        matches!(self, Release::R12_2 | Release::R19 | Release::R21)
    }
    fn at_least_21(self) -> bool {
        self == Release::R21
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
        "V$ARCHIVE_GAP",
        "V$RECOVERY_FILE_DEST",
        "V$DATAGUARD_STATUS",
        "V$DATAFILE",
        "V$SESSION",
        "V$SYS_TIME_MODEL",
    ] {
        db.view(v);
    }
    // A database that logs everything: UNRECOVERABLE_CHANGE# 0 and no time on every file
    // (the Reference: set only when an unrecoverable operation completes in ARCHIVELOG mode).
    for f in 1..=5 {
        db.view("V$DATAFILE").push(vrow(&[
            ("FILE#", &f.to_string()),
            ("UNRECOVERABLE_CHANGE#", "0"),
        ]));
    }
    if rel.at_least_21() {
        broker_properties(&mut db);
    }
    // A healthy recovery area: 500 GiB, a quarter used, some of it reclaimable.
    db.view("V$RECOVERY_FILE_DEST").push(vrow(&[
        ("NAME", "+RECO"),
        ("SPACE_LIMIT", "536870912000"),
        ("SPACE_USED", "134217728000"),
        ("SPACE_RECLAIMABLE", "21474836480"),
        ("NUMBER_OF_FILES", "310"),
    ]));
    if rel.has_micro() {
        db.view("V$EVENT_HISTOGRAM_MICRO");
    }
    if rel.at_least_12_2() {
        db.view("V$DATAGUARD_PROCESS");
        // The view exists in every release; the columns dgscope reads come with 12.2.
        db.view("V$DATAGUARD_CONFIG");
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
        if rel == Release::R21 {
            r.insert("VERSION_FULL".into(), "21.3.0.0.0".into());
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
        db.view("V$SESSION").extend(quiet_sessions(&inst, &host));
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

/// A `V$SESSION` row: `(SID, PROGRAM, EVENT, WAIT_CLASS, STATE, WAIT_TIME_MICRO)` and the
/// blocker (`BLOCKING_INSTANCE`, `BLOCKING_SESSION`) when there is one.
fn session(
    inst: &str,
    sid: u32,
    program: &str,
    wait: (&str, &str, &str, u64),
    blocker: Option<(&str, u32)>,
) -> ViewRow {
    let (event, class, state, us) = wait;
    let sid = sid.to_string();
    let us = us.to_string();
    let mut r = vrow(&[
        ("INST_ID", inst),
        ("SID", &sid),
        ("PROGRAM", program),
        ("EVENT", event),
        ("WAIT_CLASS", class),
        ("STATE", state),
        ("WAIT_TIME_MICRO", &us),
    ]);
    if let Some((i, b)) = blocker {
        r.insert("BLOCKING_INSTANCE".into(), i.into());
        r.insert("BLOCKING_SESSION".into(), b.to_string());
    }
    r
}

/// A quiet instance's sessions: background processes and clients idle, one commit in
/// flight for under two milliseconds (its blocker LGWR, as 11.2+ reports for `log file
/// sync`), one session on CPU after a short read (`WAITED SHORT TIME`: EVENT is its last
/// wait, not a wait now). Programs spelled as `V$SESSION.PROGRAM` shows them
/// (`oracle@host (LGWR)` for a background process).
fn quiet_sessions(inst: &str, host: &str) -> Vec<ViewRow> {
    let bg = |p: &str| format!("oracle@{host} ({p})");
    let idle = |e: &'static str, us| (e, "Idle", "WAITING", us);
    vec![
        session(inst, 2, &bg("PMON"), idle("pmon timer", 2_310_000), None),
        session(inst, 8, &bg("LGWR"), idle("rdbms ipc message", 1_200), None),
        session(
            inst,
            12,
            &bg("ARC0"),
            idle("rdbms ipc message", 14_000_000),
            None,
        ),
        session(
            inst,
            147,
            "sqlplus@app1 (TNS V1-V3)",
            idle("SQL*Net message from client", 95_000_000),
            None,
        ),
        session(
            inst,
            201,
            "JDBC Thin Client",
            ("log file sync", "Commit", "WAITING", 1_850),
            Some((inst, 8)),
        ),
        session(
            inst,
            305,
            "JDBC Thin Client",
            (
                "db file sequential read",
                "User I/O",
                "WAITED SHORT TIME",
                380,
            ),
            None,
        ),
    ]
}

/// `V$DATABASE.CDB` exists from 12.1 (`NO` for a non-CDB); 11.2 has no such column.
fn not_a_cdb(rel: Release, db: &mut FakeDb) {
    if rel.at_least_12_1() {
        for r in db.view("V$DATABASE") {
            r.insert("CDB".into(), "NO".into());
        }
    }
}

/// `V$DATAGUARD_CONFIG` rows `(DB_UNIQUE_NAME, PARENT_DBUN, DEST_ROLE)`, this database
/// first (the Reference: "The first row of the view lists … the current database"); the
/// role spellings are the 19c Reference's. Only where the release has the view's columns.
/// The role-transition readiness columns of `V$DATABASE` (all 10.2+). Values as the Reference
/// lists them (SWITCHOVER_STATUS, FS_FAILOVER_STATUS) and as the Broker guide's
/// `SHOW FAST_START FAILOVER` example prints the configuration (threshold 30 seconds, an
/// active target, a registered observer):
/// https://docs.oracle.com/en/database/oracle/oracle-database/26/dgbkr/show-fast_start-failover.html
/// The 11.2 pair runs without the broker, as many 11.2 sites did: FSFO DISABLED, and the
/// target and observer columns NULL.
fn readiness(rel: Release, db: &mut FakeDb, switchover: &str, flashback: &str) {
    let broker = rel != Release::R11_2;
    for r in db.view("V$DATABASE") {
        r.insert("SWITCHOVER_STATUS".into(), switchover.into());
        r.insert("FORCE_LOGGING".into(), "YES".into());
        r.insert("FLASHBACK_ON".into(), flashback.into());
        if broker {
            r.insert("DATAGUARD_BROKER".into(), "ENABLED".into());
            r.insert("FS_FAILOVER_STATUS".into(), "SYNCHRONIZED".into());
            r.insert("FS_FAILOVER_CURRENT_TARGET".into(), "prod_b".into());
            r.insert("FS_FAILOVER_THRESHOLD".into(), "30".into());
            r.insert("FS_FAILOVER_OBSERVER_PRESENT".into(), "YES".into());
            r.insert("FS_FAILOVER_OBSERVER_HOST".into(), "obshost1".into());
        } else {
            r.insert("DATAGUARD_BROKER".into(), "DISABLED".into());
            r.insert("FS_FAILOVER_STATUS".into(), "DISABLED".into());
            r.insert("FS_FAILOVER_THRESHOLD".into(), "0".into());
        }
    }
}

/// 21c+: `V$DG_BROKER_PROPERTY` rows (columns as the 21c Reference documents them). The
/// configuration-scope rows carry the configuration's name in MEMBER. The lag limit is 0,
/// as the Broker guide's example prints it for a MaxAvailability configuration ("Lag Limit:
/// 0 seconds", the page cited at `readiness`); the threshold beside it is 30, so a mapper
/// that took the wrong row would be seen.
fn broker_properties(db: &mut FakeDb) {
    let p = |member: &str, role: &str, prop: &str, value: &str| {
        vrow(&[
            ("MEMBER", member),
            ("DATAGUARD_ROLE", role),
            ("PROPERTY", prop),
            ("PROPERTY_TYPE", "CONFIGURABLE"),
            ("VALUE", value),
            ("VALUE_TYPE", "INTEGER"),
        ])
    };
    db.view("V$DG_BROKER_PROPERTY").extend([
        p(
            "prod_cfg",
            "CONFIGURATION",
            "FastStartFailoverThreshold",
            "30",
        ),
        p(
            "prod_cfg",
            "CONFIGURATION",
            "FastStartFailoverLagLimit",
            "0",
        ),
        p("prod_a", "PRIMARY", "ApplyLagThreshold", "30"),
    ]);
}

fn config(db: &mut FakeDb, members: &[(&str, &str, &str)]) {
    let Some(rows) = db.views.get_mut("V$DATAGUARD_CONFIG") else {
        return;
    };
    rows.clear();
    for (name, parent, role) in members {
        let mut r = vrow(&[
            ("DB_UNIQUE_NAME", name),
            ("DEST_ROLE", role),
            ("CON_ID", "0"),
        ]);
        if !parent.is_empty() {
            r.insert("PARENT_DBUN".into(), parent.to_string());
        }
        rows.push(r);
    }
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

/// A `V$SYSTEM_EVENT` row; `fg` = the share of it waited by foreground sessions
/// (`log file sync` is all foreground, LGWR's and RFS's waits are all background).
fn ev(inst: &str, name: &str, waits: u64, us: u64, fg: bool) -> ViewRow {
    let (wf, uf) = if fg { (waits, us) } else { (0, 0) };
    vrow(&[
        ("INST_ID", inst),
        ("EVENT", name),
        ("TOTAL_WAITS", &waits.to_string()),
        ("TIME_WAITED_MICRO", &us.to_string()),
        ("TOTAL_WAITS_FG", &wf.to_string()),
        ("TIME_WAITED_MICRO_FG", &uf.to_string()),
        ("WAIT_CLASS", wait_class(name)),
    ])
}

/// The wait class `V$EVENT_NAME` gives an event (Oracle Database Reference, appendix "Oracle
/// Wait Events", classes as Antognini's "Troubleshooting Oracle Performance" lists them for
/// `log file sync`). Background waits have no foreground time, so no query here weighs them
/// by class: they are "Other" where the class does not matter.
fn wait_class(name: &str) -> &'static str {
    match name {
        "log file sync" => "Commit",
        "log file parallel write" => "System I/O",
        "db file sequential read" | "db file scattered read" => "User I/O",
        "library cache: mutex X" | "cursor: pin S wait on X" => "Concurrency",
        "SQL*Net message from client" | "rdbms ipc message" => "Idle",
        _ => "Other",
    }
}

/// `V$SYS_TIME_MODEL` of one instance (Oracle Database Reference, "V$SYS_TIME_MODEL":
/// `STAT_ID`, `STAT_NAME`, `VALUE` in µs since startup): DB time, and DB CPU within it.
fn time_model(inst: &str, db_time_us: u64, db_cpu_us: u64) -> [ViewRow; 2] {
    [
        vrow(&[
            ("INST_ID", inst),
            ("STAT_ID", "3649082374"),
            ("STAT_NAME", "DB time"),
            ("VALUE", &db_time_us.to_string()),
        ]),
        vrow(&[
            ("INST_ID", inst),
            ("STAT_ID", "2748282437"),
            ("STAT_NAME", "DB CPU"),
            ("VALUE", &db_cpu_us.to_string()),
        ]),
    ]
}

/// A `V$DATAGUARD_STATUS` row. TIMESTAMP is a DATE in the database's zone (see SYSDATE).
fn dg_status(
    inst: &str,
    num: u64,
    time: &str,
    severity: &str,
    facility: &str,
    error_code: u64,
    message: &str,
) -> ViewRow {
    vrow(&[
        ("INST_ID", inst),
        ("FACILITY", facility),
        ("SEVERITY", severity),
        ("DEST_ID", "0"),
        ("MESSAGE_NUM", &num.to_string()),
        ("ERROR_CODE", &error_code.to_string()),
        ("CALLOUT", "NO"),
        ("TIMESTAMP", time),
        ("MESSAGE", message),
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
    not_a_cdb(rel, &mut db);
    readiness(rel, &mut db, "TO STANDBY", "YES");
    config(
        &mut db,
        &[
            ("prod_a", "", "PRIMARY DATABASE"),
            ("prod_b", "prod_a", "PHYSICAL STANDBY"),
        ],
    );
    let sync_event = if rel.at_least_12_1() {
        "SYNC Remote Write"
    } else {
        "LNS wait on SENDREQ"
    };
    for i in 1..=instances {
        let inst = i.to_string();
        let k = u64::from(i);
        db.view("V$SYSTEM_EVENT").extend([
            ev(
                &inst,
                "log file sync",
                1_000_000 * k,
                2_500_000_000 * k,
                true,
            ),
            ev(
                &inst,
                "log file parallel write",
                1_200_000 * k,
                600_000_000 * k,
                false,
            ),
            ev(&inst, sync_event, 1_100_000 * k, 1_650_000_000 * k, false),
            ev(
                &inst,
                "db file sequential read",
                9_000_000,
                9_000_000_000,
                true,
            ),
            // An idle wait: never among the top waits.
            ev(
                &inst,
                "SQL*Net message from client",
                50_000_000,
                900_000_000_000,
                true,
            ),
        ]);
        // DB time: the commits' 2,500 s and reads' 9,000 s within 20,000 s per instance.
        db.view("V$SYS_TIME_MODEL").extend(time_model(
            &inst,
            20_000_000_000 * k,
            7_000_000_000 * k,
        ));
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
            d.insert("DELAY_MINS".into(), "0".into());
            // The retry settings every destination has (REOPEN 300 s is the default, and
            // MAX_FAILURE 0 means no limit: the Reference's LOG_ARCHIVE_DEST_n attributes).
            // FAIL_DATE is NULL until the destination fails; instance 2's failing dest 2
            // has failed three times, the last at 05:58:40 local.
            d.insert("REOPEN_SECS".into(), "300".into());
            d.insert("MAX_FAILURE".into(), "0".into());
            // OPTIONAL is the default binding of a remote destination.
            d.insert("BINDING".into(), "OPTIONAL".into());
            if i == 2 && id == "2" {
                d.insert("FAILURE_COUNT".into(), "3".into());
                d.insert("FAIL_DATE".into(), "2026-11-30 05:58:40".into());
            } else {
                d.insert("FAILURE_COUNT".into(), "0".into());
            }
            db.view("V$ARCHIVE_DEST").push(d);
            let remote = id == "2";
            let mut st = vrow(&[
                ("INST_ID", &inst),
                ("DEST_ID", id),
                ("STATUS", status),
                ("TYPE", if remote { "PHYSICAL" } else { "LOCAL" }),
                (
                    "DATABASE_MODE",
                    if remote { "MOUNTED-STANDBY" } else { "OPEN" },
                ),
                (
                    "RECOVERY_MODE",
                    if remote {
                        "MANAGED REAL TIME APPLY"
                    } else {
                        "IDLE"
                    },
                ),
                ("GAP_STATUS", "NO GAP"),
                ("STANDBY_LOGFILE_COUNT", if remote { "4" } else { "0" }),
                ("STANDBY_LOGFILE_ACTIVE", if remote { "1" } else { "0" }),
                ("ARCHIVED_SEQ#", &(810 + k).to_string()),
                ("APPLIED_SEQ#", &(809 + k).to_string()),
            ]);
            // The contract has SYNCHRONIZATION_STATUS from 12.1: an 11.2 row leaves it out.
            if rel.at_least_12_1() {
                st.insert(
                    "SYNCHRONIZATION_STATUS".into(),
                    if remote { "OK" } else { "NOT AVAILABLE" }.into(),
                );
            }
            db.view("V$ARCHIVE_DEST_STATUS").push(st);
        }
        // Transport messages of this instance: one older than dgscope's window, two in it.
        for (n, t, msg) in [
            (
                40,
                "2026-11-30 05:40:00",
                "LGWR: Standby redo logfile selected for thread 1 sequence 810 for destination LOG_ARCHIVE_DEST_2",
            ),
            (
                41,
                "2026-11-30 05:58:10",
                "LGWR: Standby redo logfile selected for thread 1 sequence 811 for destination LOG_ARCHIVE_DEST_2",
            ),
            (42, "2026-11-30 05:59:40", "Archived Log entry 1622 added for thread 1 sequence 810 ID 0x5a3c1f2b dest 1:"),
        ] {
            db.view("V$DATAGUARD_STATUS").push(dg_status(
                &inst,
                n,
                t,
                "Informational",
                "Log Transport Services",
                0,
                msg,
            ));
        }
        for g in 1..=3u64 {
            let grp = ((k - 1) * 3 + g).to_string();
            db.view("V$LOG").push(vrow(&[
                ("THREAD#", &inst),
                ("GROUP#", &grp),
                ("SEQUENCE#", &(810 + g).to_string()),
                ("BYTES", "1073741824"),
                ("BLOCKSIZE", "512"),
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
            ("BLOCKSIZE", "512"),
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
    standby_db(rel, open_mode, 1, 1)
}

/// A two-instance RAC standby whose MRP0 runs on instance 2, while a session lands on
/// instance 1 (the fake's `V$` rows are instance 1's). Instance 1's `V$DATAGUARD_STATS`
/// shows an apply lag of its own (10 min, stale), so a mapper that reads the session's
/// instance gives the wrong figure.
pub fn rac_standby(rel: Release, open_mode: &str) -> FakeDb {
    standby_db(rel, open_mode, 2, 2)
}

fn standby_db(rel: Release, open_mode: &str, instances: u32, mrp: u32) -> FakeDb {
    let mut db = base(rel, instances, "sbyhost", "2026-11-21 02:00:00");
    db.mounted = open_mode == "MOUNTED";
    let status = if db.mounted { "MOUNTED" } else { "OPEN" };
    for r in db.view("V$INSTANCE") {
        r.insert("STATUS".into(), status.into());
    }
    db.view("V$DATABASE").push(vrow(&[
        ("DATABASE_ROLE", "PHYSICAL STANDBY"),
        ("OPEN_MODE", open_mode),
        ("DB_UNIQUE_NAME", "prod_b"),
        ("PROTECTION_MODE", "MAXIMUM AVAILABILITY"),
        ("PROTECTION_LEVEL", "MAXIMUM AVAILABILITY"),
    ]));
    not_a_cdb(rel, &mut db);
    readiness(rel, &mut db, "NOT ALLOWED", "NO");
    config(
        &mut db,
        &[
            ("prod_b", "prod_a", "PHYSICAL STANDBY"),
            ("prod_a", "", "PRIMARY DATABASE"),
        ],
    );
    let mrp_inst = mrp.to_string();
    for i in 1..=instances {
        let inst = i.to_string();
        for (name, waits, us, fg) in [
            ("RFS random i/o", 1_100_000u64, 330_000_000u64, false),
            ("RFS write", 1_100_000, 440_000_000, false),
            ("checkpoint completed", 120, 60_000_000, false),
            ("log file sync", 5, 100, true),
        ] {
            db.view("V$SYSTEM_EVENT")
                .push(ev(&inst, name, waits, us, fg));
        }
        // The documented (11.2) formats; real outputs use lowercase names, docs print UPPER.
        // Only the applying instance's apply lag is meaningful (the Reference says so); the
        // other instance of a RAC standby here reports a stale figure of its own.
        let apply = if i == mrp {
            "+00 00:00:03"
        } else {
            "+00 00:10:00"
        };
        let stats = [
            (
                "transport lag",
                "+00 00:00:01",
                "day(2) to second(0) interval",
            ),
            ("APPLY LAG", apply, "day(2) to second(0) interval"),
            (
                "apply finish time",
                "+00 00:00:00.500",
                "day(2) to second(3) interval",
            ),
            ("estimated startup time", "28", "second"),
        ];
        for (name, value, unit) in stats {
            db.view("V$DATAGUARD_STATS").push(vrow(&[
                ("INST_ID", &inst),
                ("NAME", name),
                ("VALUE", value),
                ("UNIT", unit),
                ("TIME_COMPUTED", "11/30/2026 06:00:00"),
                ("DATUM_TIME", "11/30/2026 05:59:59"),
            ]));
        }
        if rel.at_least_12_2() {
            db.view("V$DATAGUARD_PROCESS").push(vrow(&[
                ("INST_ID", &inst),
                ("NAME", "RFS"),
                ("ROLE", "RFS sync"),
                ("ACTION", "IDLE"),
                ("THREAD#", "1"),
                ("SEQUENCE#", "813"),
                ("DELAY_MINS", "0"),
            ]));
        }
        // Shaped like the V$MANAGED_STANDBY output in "Sometimes Archive Gap is Just
        // Temporary" (logic.edchen.org): MRP0 APPLYING_LOG, RFS processes by sequence.
        db.view("V$MANAGED_STANDBY").push(vrow(&[
            ("INST_ID", &inst),
            ("PROCESS", "RFS"),
            ("STATUS", "IDLE"),
            ("CLIENT_PROCESS", "LGWR"),
            ("THREAD#", "1"),
            ("SEQUENCE#", "813"),
            ("DELAY_MINS", "0"),
        ]));
    }
    for (view, r) in hist(
        rel,
        "1",
        "RFS random i/o",
        &[(256, 700_000), (512, 400_000)],
    ) {
        db.view(view).push(r);
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
        // Populated only on the instance where MRP0 runs (Data Guard Concepts, RAC).
        let mut r = vrow(&[
            ("INST_ID", &mrp_inst),
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
        db.view("V$DATAGUARD_PROCESS").push(vrow(&[
            ("INST_ID", &mrp_inst),
            ("NAME", "MRP0"),
            ("ROLE", "managed recovery"),
            ("ACTION", "APPLYING_LOG"),
            ("THREAD#", "1"),
            ("SEQUENCE#", "813"),
            ("DELAY_MINS", "0"),
        ]));
    }
    db.view("V$MANAGED_STANDBY").push(vrow(&[
        ("INST_ID", &mrp_inst),
        ("PROCESS", "MRP0"),
        ("STATUS", "APPLYING_LOG"),
        ("CLIENT_PROCESS", "N/A"),
        ("THREAD#", "1"),
        ("SEQUENCE#", "813"),
        ("DELAY_MINS", "0"),
    ]));
    // Apply messages on the applying instance: one before the window, two in it.
    for (n, t, msg) in [
        (
            200,
            "2026-11-30 05:30:00",
            "Media Recovery Waiting for thread 1 sequence 812 (in transit)",
        ),
        (
            201,
            "2026-11-30 05:57:00",
            "Media Recovery Log +RECO/PROD_B/ARCHIVELOG/2026_11_30/thread_1_seq_812.301.1187654321",
        ),
        (
            202,
            "2026-11-30 05:59:50",
            "Media Recovery Waiting for thread 1 sequence 813 (in transit)",
        ),
    ] {
        db.view("V$DATAGUARD_STATUS").push(dg_status(
            &mrp_inst,
            n,
            t,
            "Informational",
            "Log Apply Services",
            0,
            msg,
        ));
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

/// Sets `col` on every row of `view` that `pick` selects. A view this release does not
/// have stays absent (creating it would make the release look newer).
fn set(db: &mut FakeDb, view: &str, pick: impl Fn(&ViewRow) -> bool, col: &str, value: &str) {
    let rows = db.views.get_mut(view).into_iter().flatten();
    for r in rows.filter(|r| pick(r)) {
        r.insert(col.into(), value.into());
    }
}

fn is(col: &'static str, value: &'static str) -> impl Fn(&ViewRow) -> bool {
    move |r| r.get(col).map(String::as_str) == Some(value)
}

/// A mounted standby that has stopped receiving because its recovery area is full: RFS
/// cannot archive, recovery waits for the gap, the transport lag is unknown (NULL) while
/// the apply lag keeps growing (`+01 17:00:00`).
///
/// Shapes: the `V$ARCHIVE_GAP` row as in "Gap Detection on Standby Database"
/// (reachdba.com; one row per thread, LOW..HIGH inclusive), the lag strings as in the
/// `V$DATAGUARD_STATS` outputs of Database Specialists' "Monitoring Standby Databases"
/// (September 2007), the ORA-19815 text as the alert log writes it.
pub fn standby_gap_fra_full(rel: Release) -> FakeDb {
    let mut db = standby(rel, "MOUNTED");
    for r in db.view("V$DATAGUARD_STATS") {
        match r.get("NAME").map(|n| n.to_ascii_lowercase()).as_deref() {
            Some("transport lag") => {
                r.remove("VALUE");
            }
            Some("apply lag") => {
                r.insert("VALUE".into(), "+01 17:00:00".into());
            }
            _ => {}
        }
    }
    set(
        &mut db,
        "V$DATAGUARD_PROCESS",
        is("NAME", "MRP0"),
        "ACTION",
        "WAIT_FOR_GAP",
    );
    set(
        &mut db,
        "V$MANAGED_STANDBY",
        is("PROCESS", "MRP0"),
        "STATUS",
        "WAIT_FOR_GAP",
    );
    set(
        &mut db,
        "V$DATAGUARD_PROCESS",
        is("NAME", "MRP0"),
        "SEQUENCE#",
        "2542",
    );
    set(
        &mut db,
        "V$MANAGED_STANDBY",
        is("PROCESS", "MRP0"),
        "SEQUENCE#",
        "2542",
    );
    db.view("V$ARCHIVE_GAP").push(vrow(&[
        ("THREAD#", "1"),
        ("LOW_SEQUENCE#", "2542"),
        ("HIGH_SEQUENCE#", "2550"),
    ]));
    // 99 % of 100 GiB, nothing reclaimable (the deletion policy keeps every archive).
    db.views.insert(
        "V$RECOVERY_FILE_DEST".into(),
        vec![vrow(&[
            ("NAME", "+RECO"),
            ("SPACE_LIMIT", "107374182400"),
            ("SPACE_USED", "106300440576"),
            ("SPACE_RECLAIMABLE", "0"),
            ("NUMBER_OF_FILES", "1822"),
        ])],
    );
    db.view("V$DATAGUARD_STATUS").extend([
        dg_status(
            "1",
            203,
            "2026-11-30 05:59:55",
            "Error",
            "Remote File Server",
            19815,
            "ORA-19815: WARNING: db_recovery_file_dest_size of 107374182400 bytes is 99.00% used, and has 1073741824 remaining bytes available.",
        ),
        dg_status(
            "1",
            204,
            "2026-11-30 05:59:56",
            "Warning",
            "Remote File Server",
            0,
            "RFS[3]: No standby redo logfiles available for T-1",
        ),
    ]);
    db
}

/// A primary after a NOLOGGING load with FORCE_LOGGING off: two data files carry an
/// UNRECOVERABLE_CHANGE#. The files are 14 and 32, as in the `REPORT UNRECOVERABLE DATABASE`
/// output of https://www.pythian.com/blog/technical-track/oracle-what-is-an-unrecoverable-data-file
/// (its V$ query reads these two columns); file 32's time is NULL, which the mapper keeps
/// absent.
pub fn primary_nologging(rel: Release) -> FakeDb {
    let mut db = primary(rel, 1);
    for r in db.view("V$DATABASE") {
        r.insert("FORCE_LOGGING".into(), "NO".into());
    }
    db.view("V$DATAFILE").extend([
        vrow(&[
            ("FILE#", "14"),
            ("UNRECOVERABLE_CHANGE#", "5965284131"),
            ("UNRECOVERABLE_TIME", "2026-11-30 05:41:12"),
        ]),
        vrow(&[("FILE#", "32"), ("UNRECOVERABLE_CHANGE#", "5965290077")]),
    ]);
    db
}

/// A primary whose archiver cannot archive: every session that generates redo waits on
/// `log file switch (archiving needed)` (wait class Configuration), blocked by LGWR, which
/// cannot switch into a log ARCn has not archived; a commit already in flight waits on
/// `log file sync`. Shapes: the wait list and the alert log of SAP Note 391 "Archiver stuck"
/// (https://project-support-basis.blogspot.com/2013/08/note-391-archiver-stuck.html: "The
/// following wait events occur: log file switch (archiving needed)"), and the
/// `GV$SESSION_WAIT` listing of non-idle in-flight waits (`WAIT_TIME = 0`,
/// `WAIT_CLASS <> 'Idle'`, several sessions on one `log file switch` event, class
/// Configuration) in https://rajiboracle.blogspot.com/2015/08/log-file-switch-checkpoint-incomplete.html.
/// Session numbers, programs and durations are made up but plausible.
pub fn primary_archiver_hung(rel: Release) -> FakeDb {
    let mut db = primary(rel, 1);
    let host = "dbhost1";
    let bg = |p: &str| format!("oracle@{host} ({p})");
    let v = db.view("V$SESSION");
    v.retain(|r| r.get("SID").map(String::as_str) != Some("201"));
    for (sid, us) in [
        (3408, 47_120_000),
        (5666, 46_980_000),
        (1290, 31_004_000),
        (2211, 12_500_000),
        (77, 3_020_000),
    ] {
        v.push(session(
            "1",
            sid,
            "JDBC Thin Client",
            (
                "log file switch (archiving needed)",
                "Configuration",
                "WAITING",
                us,
            ),
            Some(("1", 8)),
        ));
    }
    v.push(session(
        "1",
        4120,
        "JDBC Thin Client",
        ("log file sync", "Commit", "WAITING", 44_700_000),
        Some(("1", 8)),
    ));
    // ARC1 keeps retrying the full destination: not idle, not blocked by anyone.
    v.push(session(
        "1",
        13,
        &bg("ARC1"),
        ("Log archive I/O", "System I/O", "WAITING", 310_000),
        None,
    ));
    db
}

/// A primary whose destination 2 was deferred (`log_archive_dest_state_2=DEFER`): redo is
/// not shipped, and V$ARCHIVE_DEST says so in STATUS.
pub fn primary_dest_deferred(rel: Release) -> FakeDb {
    let mut db = primary(rel, 1);
    set(
        &mut db,
        "V$ARCHIVE_DEST",
        is("DEST_ID", "2"),
        "STATUS",
        "DEFERRED",
    );
    set(
        &mut db,
        "V$ARCHIVE_DEST_STATUS",
        is("DEST_ID", "2"),
        "STATUS",
        "DEFERRED",
    );
    set(
        &mut db,
        "V$PARAMETER",
        is("NAME", "log_archive_dest_state_2"),
        "VALUE",
        "DEFER",
    );
    db
}

/// A primary shipping to a destination with `DELAY=mins` (as in the Database Specialists
/// output above, where `DELAY=480` shows as an apply lag of eight hours on the standby).
pub fn primary_with_delay(rel: Release, mins: u32) -> FakeDb {
    let mut db = primary(rel, 1);
    set(
        &mut db,
        "V$ARCHIVE_DEST",
        is("DEST_ID", "2"),
        "DELAY_MINS",
        &mins.to_string(),
    );
    db
}

/// A standby applying with a delay: MRP0 reports DELAY_MINS and the apply lag includes it.
pub fn standby_with_delay(rel: Release, mins: u32) -> FakeDb {
    let mut db = standby(rel, "MOUNTED");
    let m = mins.to_string();
    set(
        &mut db,
        "V$DATAGUARD_PROCESS",
        is("NAME", "MRP0"),
        "DELAY_MINS",
        &m,
    );
    set(
        &mut db,
        "V$MANAGED_STANDBY",
        is("PROCESS", "MRP0"),
        "DELAY_MINS",
        &m,
    );
    let lag = format!("+00 {:02}:{:02}:01", (mins / 60).min(23), mins % 60);
    set(
        &mut db,
        "V$DATAGUARD_STATS",
        is("NAME", "APPLY LAG"),
        "VALUE",
        &lag,
    );
    db
}

/// A connect error every attempt (for the error-class tests).
pub fn unreachable(e: OraError) -> FakeDb {
    FakeDb {
        connect_always: Some(e),
        ..FakeDb::default()
    }
}

/// A two-instance RAC primary where node 1 is saturated and node 2 idle: `dbhost1` has a
/// load of 40 on 32 CPUs and most of its time busy, `dbhost2` a load of 0.3. Node 1's
/// `log file sync` is three times node 2's per wait, and both carry the broadcast-on-commit
/// statistics (`redo write broadcast ack time`, µs from 11.2, and its count; names and
/// unit as MOS 1064487.1's lfsdiag.sql and an oracle-l post of 2012 give them).
pub fn rac_primary_saturated(rel: Release) -> FakeDb {
    let mut db = primary(rel, 2);
    let osstat = db.view("V$OSSTAT");
    osstat.retain(|r| {
        !matches!(
            r.get("STAT_NAME").map(String::as_str),
            Some("NUM_CPUS" | "LOAD" | "BUSY_TIME" | "IDLE_TIME")
        )
    });
    for (inst, load, busy, idle) in [
        ("1", "40", "95000000", "5000000"),
        ("2", "0.3", "2000000", "98000000"),
    ] {
        osstat.extend([
            os(inst, "NUM_CPUS", "32"),
            os(inst, "LOAD", load),
            os(inst, "BUSY_TIME", busy),
            os(inst, "IDLE_TIME", idle),
        ]);
    }
    for r in db.view("V$SYSTEM_EVENT") {
        let inst = r.get("INST_ID").cloned().unwrap_or_default();
        if r.get("EVENT").map(String::as_str) == Some("log file sync") {
            // Both nodes commit as often; node 1 waits 9 ms a commit, node 2 3 ms.
            let us = if inst == "1" {
                "9000000000"
            } else {
                "3000000000"
            };
            r.insert("TOTAL_WAITS".into(), "1000000".into());
            r.insert("TOTAL_WAITS_FG".into(), "1000000".into());
            r.insert("TIME_WAITED_MICRO".into(), us.into());
            r.insert("TIME_WAITED_MICRO_FG".into(), us.into());
        }
    }
    for (inst, ack_us, ack_n) in [("1", "400000000", "90000"), ("2", "380000000", "88000")] {
        for (name, v) in [
            ("redo write broadcast ack time", ack_us),
            ("redo write broadcast ack count", ack_n),
        ] {
            db.view("V$SYSSTAT")
                .push(vrow(&[("INST_ID", inst), ("NAME", name), ("VALUE", v)]));
        }
    }
    db
}

/// A far sync instance `prod_fs` (12.1+): mounted, RFS receiving SYNC from `prod_a` into
/// its standby redo logs, forwarding ASYNC to the terminal standby `prod_c`. It has no
/// MRP0 and no media recovery; `V$RECOVERY_PROGRESS` is left with rows on purpose (an old
/// recovery, as a converted standby could show) so a far sync sampled with the standby
/// parts would report them. Its transport lag is the one figure of `V$DATAGUARD_STATS`
/// the broker shows for a far sync (`SHOW FAR_SYNC`: "Transport Lag").
pub fn far_sync(rel: Release) -> FakeDb {
    let mut db = standby(rel, "MOUNTED");
    for r in db.view("V$DATABASE") {
        r.insert("DATABASE_ROLE".into(), "FAR SYNC".into());
        r.insert("DB_UNIQUE_NAME".into(), "prod_fs".into());
    }
    for r in db.view("V$INSTANCE") {
        r.insert("HOST_NAME".into(), "fshost1".into());
    }
    db.view("V$DATAGUARD_STATS").retain(|r| {
        r.get("NAME")
            .is_some_and(|n| n.eq_ignore_ascii_case("transport lag"))
    });
    for v in ["V$DATAGUARD_PROCESS", "V$MANAGED_STANDBY"] {
        if let Some(rows) = db.views.get_mut(v) {
            rows.retain(|r| {
                !r.get("NAME")
                    .or(r.get("PROCESS"))
                    .is_some_and(|n| n.starts_with("MRP"))
            });
        }
    }
    if rel.at_least_12_2() {
        db.view("V$DATAGUARD_PROCESS").push(vrow(&[
            ("INST_ID", "1"),
            ("NAME", "TT00"),
            ("ROLE", "async ORL multi"),
            ("ACTION", "IDLE"),
            ("THREAD#", "1"),
            ("SEQUENCE#", "813"),
            ("DELAY_MINS", "0"),
        ]));
    }
    db.view("V$SYSTEM_EVENT").extend([
        ev("1", "ASYNC Remote Write", 900_000, 270_000_000, false),
        ev(
            "1",
            "log file parallel write",
            1_100_000,
            1_650_000_000,
            false,
        ),
    ]);
    for (view, r) in hist(
        rel,
        "1",
        "RFS write",
        &[(512, 500_000), (1024, 300_000), (8192, 300_000)],
    ) {
        db.view(view).push(r);
    }
    db.view("V$ARCHIVE_DEST").push(vrow(&[
        ("INST_ID", "1"),
        ("DEST_ID", "2"),
        ("STATUS", "VALID"),
        ("TARGET", "STANDBY"),
        ("TRANSMIT_MODE", "ASYNCHRONOUS"),
        ("AFFIRM", "NO"),
        ("COMPRESSION", "DISABLE"),
        ("NET_TIMEOUT", "30"),
        ("DB_UNIQUE_NAME", "prod_c"),
        ("DESTINATION", "prod_c"),
        ("DELAY_MINS", "0"),
    ]));
    let mut st = vrow(&[
        ("INST_ID", "1"),
        ("DEST_ID", "2"),
        ("STATUS", "VALID"),
        ("TYPE", "PHYSICAL"),
        ("DATABASE_MODE", "MOUNTED-STANDBY"),
        ("RECOVERY_MODE", "MANAGED REAL TIME APPLY"),
        ("GAP_STATUS", "NO GAP"),
        ("STANDBY_LOGFILE_COUNT", "4"),
        ("STANDBY_LOGFILE_ACTIVE", "1"),
        ("ARCHIVED_SEQ#", "812"),
        ("APPLIED_SEQ#", "811"),
    ]);
    st.insert("SYNCHRONIZATION_STATUS".into(), "NOT AVAILABLE".into());
    db.view("V$ARCHIVE_DEST_STATUS").push(st);
    config(
        &mut db,
        &[
            ("prod_fs", "prod_a", "FAR SYNC STANDBY"),
            ("prod_a", "", "PRIMARY DATABASE"),
            ("prod_c", "prod_fs", "PHYSICAL STANDBY"),
        ],
    );
    db
}

/// The terminal standby `prod_c` behind the far sync: its own `V$DATAGUARD_CONFIG` row
/// names `prod_fs` as the member that supplies its redo.
pub fn cascaded_standby(rel: Release) -> FakeDb {
    let mut db = standby(rel, "MOUNTED");
    for r in db.view("V$DATABASE") {
        r.insert("DB_UNIQUE_NAME".into(), "prod_c".into());
    }
    config(
        &mut db,
        &[
            ("prod_c", "prod_fs", "PHYSICAL STANDBY"),
            ("prod_a", "", "PRIMARY DATABASE"),
            ("prod_fs", "prod_a", "FAR SYNC STANDBY"),
        ],
    );
    db
}

/// A 19c-style primary that is a CDB (`V$DATABASE.CDB = 'YES'`) with the root (CON_ID 1),
/// PDB$SEED (2) and one PDB (3), each with data files in `V$IOSTAT_FILE`. With
/// `container_data` false the monitoring user is a common user without CONTAINER_DATA and
/// sees the root's rows only (Oracle Reference, "CDB_* Views": "By default, a user
/// connected to the root will only see data pertaining to the root").
pub fn cdb_primary(rel: Release, container_data: bool) -> FakeDb {
    let mut db = primary(rel, 1);
    for r in db.view("V$DATABASE") {
        r.insert("CDB".into(), "YES".into());
        r.insert("CON_ID".into(), "0".into());
    }
    let files = db.view("V$IOSTAT_FILE");
    for r in files.iter_mut() {
        // Log and control files belong to the whole CDB; data files below to a container.
        r.insert("CON_ID".into(), "0".into());
    }
    files.retain(|r| r.get("FILETYPE_NAME").map(String::as_str) != Some("Data File"));
    for (con, rreq, wreq, wms) in [
        ("1", 300_000u64, 10_000u64, 4_000u64),
        ("2", 1_000, 0, 0),
        ("3", 450_000, 20_000, 11_000),
    ] {
        let mut r = iof("1", "Data File", rreq, wreq, wms);
        r.insert("CON_ID".into(), con.into());
        db.view("V$IOSTAT_FILE").push(r);
    }
    db.root_only = !container_data;
    db
}

/// The primary of `primary(rel, 1)` with a second standby: SYNC AFFIRM to the near
/// `prod_b` (dest 2) and ASYNC to the far `prod_c` (dest 3, until now inactive). Only
/// dest 2 has `V$REDO_DEST_RESP_HISTOGRAM` rows: the view holds SYNC destinations only.
pub fn primary_two_standbys(rel: Release) -> FakeDb {
    let mut db = primary(rel, 1);
    for r in db.view("V$ARCHIVE_DEST") {
        if r.get("DEST_ID").map(String::as_str) == Some("3") {
            r.insert("STATUS".into(), "VALID".into());
            r.insert("DB_UNIQUE_NAME".into(), "prod_c".into());
            r.insert("DESTINATION".into(), "prod_c".into());
        }
    }
    for r in db.view("V$ARCHIVE_DEST_STATUS") {
        if r.get("DEST_ID").map(String::as_str) == Some("3") {
            for (k, v) in [
                ("STATUS", "VALID"),
                ("TYPE", "PHYSICAL"),
                ("DATABASE_MODE", "MOUNTED-STANDBY"),
                ("RECOVERY_MODE", "MANAGED REAL TIME APPLY"),
                ("STANDBY_LOGFILE_COUNT", "4"),
                ("STANDBY_LOGFILE_ACTIVE", "1"),
                ("ARCHIVED_SEQ#", "809"),
                ("APPLIED_SEQ#", "808"),
            ] {
                r.insert(k.into(), v.into());
            }
        }
    }
    db.view("V$PARAMETER").push(par(
        "log_archive_dest_3",
        "SERVICE=prod_c ASYNC NOAFFIRM DB_UNIQUE_NAME=prod_c",
        "FALSE",
    ));
    config(
        &mut db,
        &[
            ("prod_a", "", "PRIMARY DATABASE"),
            ("prod_b", "prod_a", "PHYSICAL STANDBY"),
            ("prod_c", "prod_a", "PHYSICAL STANDBY"),
        ],
    );
    db
}

/// `standby(rel, open_mode)` under another `DB_UNIQUE_NAME` (a second or third standby).
pub fn standby_named(rel: Release, open_mode: &str, name: &str) -> FakeDb {
    let mut db = standby(rel, open_mode);
    for r in db.view("V$DATABASE") {
        r.insert("DB_UNIQUE_NAME".into(), name.into());
    }
    if let Some(rows) = db.views.get_mut("V$DATAGUARD_CONFIG") {
        if let Some(first) = rows.first_mut() {
            first.insert("DB_UNIQUE_NAME".into(), name.into());
        }
    }
    db
}
