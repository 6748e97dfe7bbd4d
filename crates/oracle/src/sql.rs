//! Every statement dgscope sends to Oracle. SELECT only, fixed views only (they work on a
//! MOUNTED standby), no DUAL. One statement per database per sample: a UNION ALL of parts
//! that all return the same uniform row (VIEWS.md §7):
//!
//! `(src, inst_id, k1, k2, n1, n2, n3, n4, n5, n6, s1)`
//!
//! `src` tags the part, numbers stay numbers, several strings travel in `s1` joined with
//! CHR(31). DATE columns are turned into seconds since 1970 in the database's own time zone
//! ("naive"); the `instance` part reports SYSDATE both naive and as UTC so the mapper can
//! convert. The variant (which views, which event names) comes from the connect-time probe.

use dgscope_model::sample::names::{event, stat};
use dgscope_model::sample::WAITS_NOW_MAX;
use std::collections::{BTreeMap, BTreeSet};

/// Which set of parts: chosen from the probed `DATABASE_ROLE`, not from the slot, because a
/// switchover swaps roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DbKind {
    Primary,
    Standby,
    /// `DATABASE_ROLE = 'FAR SYNC'` (12.1+): receives redo into its standby redo logs and
    /// forwards it; it has no datafiles and never applies, so no apply parts.
    FarSync,
}

/// Release-dependent choices, from the probe (`V$FIXED_TABLE` and `V$INSTANCE.VERSION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// `GV$EVENT_HISTOGRAM_MICRO` exists (12.1.0.2+); else the millisecond view.
    pub micro_hist: bool,
    /// `GV$DATAGUARD_PROCESS` exists (12.2+); else `GV$MANAGED_STANDBY`.
    pub dg_process: bool,
    /// 11.x: SYNC transport waits are `LNS wait on SENDREQ` / `LGWR-LNS wait on channel`.
    pub lns_events: bool,
    /// 18c+: `V$INSTANCE.VERSION_FULL` exists.
    pub version_full: bool,
    /// 12.1+: `V$ARCHIVE_DEST_STATUS.SYNCHRONIZATION_STATUS` is read (the contract's
    /// release for it; 11.2 leaves it out rather than risk ORA-00904 on the whole part).
    pub sync_status: bool,
    /// 12.1+: the `CON_ID` columns exist (read from `V$IOSTAT_FILE` to tell whether a CDB
    /// common user sees the PDBs' files or only the root's).
    pub con_id: bool,
    /// 12.2+: `V$DATAGUARD_CONFIG.PARENT_DBUN`/`DEST_ROLE` (the contract's release; the 12.1
    /// Reference page was not confirmed). Taken from the probe with `GV$DATAGUARD_PROCESS`,
    /// which appears in the same release.
    pub dg_config: bool,
    /// 21c+: `V$DG_BROKER_PROPERTY` exists: the broker's `FastStartFailoverLagLimit` is read
    /// from it (no fixed view of an earlier release exposes it).
    pub broker_props: bool,
}

/// A named release whose SQL the contract test checks against the documented columns.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    pub label: &'static str,
    /// The release the variant targets, as in `columns.tsv`'s "since" column.
    pub version: &'static str,
    pub features: Features,
}

/// The releases dgscope has SQL for.
pub fn variants() -> Vec<Variant> {
    let f = |micro_hist, dg_process, lns_events, version_full| Features {
        micro_hist,
        dg_process,
        lns_events,
        version_full,
        sync_status: !lns_events,
        con_id: !lns_events,
        dg_config: dg_process,
        broker_props: false,
    };
    vec![
        Variant {
            label: "11.2",
            version: "11.2.0.4",
            features: f(false, false, true, false),
        },
        // 12.1.0.1 predates V$EVENT_HISTOGRAM_MICRO (added 02/2014, 12.1.0.2).
        Variant {
            label: "12.1.0.1",
            version: "12.1.0.1",
            features: f(false, false, false, false),
        },
        Variant {
            label: "12.1.0.2",
            version: "12.1.0.2",
            features: f(true, false, false, false),
        },
        Variant {
            label: "12.2",
            version: "12.2.0.1",
            features: f(true, true, false, false),
        },
        Variant {
            label: "19c",
            version: "19.0",
            features: f(true, true, false, true),
        },
        // 21c adds V$DG_BROKER_PROPERTY (the Reference: "available starting with Oracle
        // Database 21c"); 23ai/26ai use this SQL.
        Variant {
            label: "21c",
            version: "21.0",
            features: Features {
                broker_props: true,
                ..f(true, true, false, true)
            },
        },
    ]
}

/// One branch of the UNION ALL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Name used in `Sample.errors[].part` (`iostat`, `dg`, …).
    pub name: &'static str,
    /// The `src` value of its rows.
    pub tag: &'static str,
    /// Fixed views it reads, as `GV$X`/`V$X`; ORA-00942 on the part names these.
    pub views: Vec<&'static str>,
    /// Slow-changing: fetched on the 60 s tick only.
    pub slow: bool,
    pub sql: String,
    /// Used instead when `sql` fails with ORA-00904: the same rows without a column whose
    /// presence in every release the documentation leaves open.
    pub alt_sql: Option<String>,
}

const NN: &str = "TO_NUMBER(NULL)";
const NC: &str = "TO_CHAR(NULL)";
/// Seconds since 1970 of a DATE, in the database's time zone.
fn epoch(col: &str) -> String {
    format!("({col} - DATE '1970-01-01') * 86400")
}

/// The uniform select list; `ns` holds up to six numbers, the rest are typed NULLs.
fn select(tag: &str, inst: &str, k1: &str, k2: &str, ns: &[&str], s1: &str) -> String {
    let mut cols = vec![format!("'{tag}'"), inst.into(), k1.into(), k2.into()];
    for i in 0..6 {
        cols.push(ns.get(i).copied().unwrap_or(NN).to_string());
    }
    cols.push(s1.into());
    format!("SELECT {}", cols.join(", "))
}

/// `'a','b'` with quotes doubled.
fn in_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{}'", n.replace('\'', "''")))
        .collect::<Vec<_>>()
        .join(",")
}

fn primary_events(f: Features) -> Vec<&'static str> {
    let mut v = vec![
        event::LOG_FILE_SYNC,
        event::LOG_FILE_PARALLEL_WRITE,
        "LGWR wait for redo copy",
        event::LOG_FILE_SWITCH_COMPLETION,
        event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
        event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
        event::LOG_BUFFER_SPACE,
    ];
    if f.lns_events {
        v.extend([event::LNS_WAIT_ON_SENDREQ, "LGWR-LNS wait on channel"]);
    } else {
        v.extend([
            event::SYNC_REMOTE_WRITE,
            "Redo Transport MISC",
            "Redo Writer Remote Sync Complete",
            "ASYNC Remote Write",
        ]);
    }
    v
}

fn primary_hist_events(f: Features) -> Vec<&'static str> {
    let sync = if f.lns_events {
        event::LNS_WAIT_ON_SENDREQ
    } else {
        event::SYNC_REMOTE_WRITE
    };
    vec![event::LOG_FILE_SYNC, event::LOG_FILE_PARALLEL_WRITE, sync]
}

/// Every wait event whose histogram a recording can hold (the primary's in either
/// release's spelling, a standby's, a far sync's), once each: what `report histogram --event`
/// completes.
pub fn histogram_events() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    let mut add = |names: &[&'static str], side: &'static str| {
        for n in names {
            if !out.iter().any(|(k, _)| k == n) {
                out.push((n, side));
            }
        }
    };
    add(
        &[
            event::LOG_FILE_SYNC,
            event::LOG_FILE_PARALLEL_WRITE,
            event::SYNC_REMOTE_WRITE,
        ],
        "primary",
    );
    add(&[event::LNS_WAIT_ON_SENDREQ], "primary, 11.2");
    add(STANDBY_HIST_EVENTS, "standby");
    add(FAR_SYNC_HIST_EVENTS, "far sync");
    out
}

const STANDBY_EVENTS: &[&str] = &[
    event::RFS_WRITE,
    event::RFS_RANDOM_IO,
    "RFS sequential i/o",
    "RFS dispatch",
    event::LOG_FILE_PARALLEL_WRITE,
    "log file sequential read",
    event::CHECKPOINT_COMPLETED,
    event::RECOVERY_READ,
    event::PARALLEL_RECOVERY_READ_BUFFER_FREE,
    "parallel recovery change buffer free",
    event::FREE_BUFFER_WAITS,
    event::DB_FILE_PARALLEL_WRITE,
    event::DB_FILE_SEQUENTIAL_READ,
    "recovery apply pending",
    "recovery receive buffer free",
    "MRP redo arrival",
];

/// A far sync instance: RFS receives into its SRLs, then its own transport processes
/// forward to the terminal standbys (far sync exists from 12.1: 12c event names only).
const FAR_SYNC_EVENTS: &[&str] = &[
    event::RFS_WRITE,
    event::RFS_RANDOM_IO,
    "RFS sequential i/o",
    "RFS dispatch",
    event::LOG_FILE_PARALLEL_WRITE,
    "log file sequential read",
    event::SYNC_REMOTE_WRITE,
    "ASYNC Remote Write",
    "Redo Transport MISC",
];

const FAR_SYNC_HIST_EVENTS: &[&str] = &[
    event::RFS_WRITE,
    event::RFS_RANDOM_IO,
    event::LOG_FILE_PARALLEL_WRITE,
    event::SYNC_REMOTE_WRITE,
];

const STANDBY_HIST_EVENTS: &[&str] = &[
    event::RFS_WRITE,
    event::RFS_RANDOM_IO,
    event::LOG_FILE_PARALLEL_WRITE,
    event::CHECKPOINT_COMPLETED,
    event::DB_FILE_PARALLEL_WRITE,
    event::RECOVERY_READ,
];

const STATS: &[&str] = &[
    stat::REDO_SIZE,
    stat::REDO_WRITES,
    "redo write time",
    "redo write time (usec)",
    stat::REDO_BLOCKS_WRITTEN,
    "redo wastage",
    stat::USER_COMMITS,
    stat::USER_ROLLBACKS,
    // Centiseconds: the share of it commits take says whether the commit path matters.
    stat::DB_TIME,
    "execute count",
    stat::REDO_SYNCH_WRITES,
    "redo synch time",
    stat::REDO_SYNCH_TIME_US,
    "redo synch long waits",
    stat::REDO_SYNCH_POLL_WRITES,
    stat::REDO_SYNCH_POLLS,
    "redo synch time overhead (usec)",
    // RAC broadcast on commit: the latency LGWR waits for the SCN acknowledgement beyond
    // its own write (µs from 11.2, centiseconds in 11.1: MOS 1064487.1's lfsdiag.sql), and
    // how often the ack was still outstanding when the write completed. Part of `log file
    // sync` on RAC that is neither CPU nor polling.
    "redo write broadcast ack time",
    "redo write broadcast ack count",
];

const OS_STATS: &[&str] = &[
    "NUM_CPUS",
    "BUSY_TIME",
    "IDLE_TIME",
    "IOWAIT_TIME",
    "USER_TIME",
    "SYS_TIME",
    "LOAD",
];

const PARAMS: &[&str] = &[
    "log_buffer",
    "cpu_count",
    "db_writer_processes",
    "data_guard_sync_latency",
    "_use_adaptive_log_file_sync",
    "standby_file_management",
    "log_archive_max_processes",
];

fn part(
    name: &'static str,
    tag: &'static str,
    views: &[&'static str],
    slow: bool,
    sql: String,
) -> Part {
    Part {
        name,
        tag,
        views: views.to_vec(),
        slow,
        sql,
        alt_sql: None,
    }
}

fn instance_part() -> Part {
    let utc_now = "CAST(SYS_EXTRACT_UTC(SYSTIMESTAMP) AS DATE)";
    part(
        "instance",
        "CLK",
        &["GV$INSTANCE"],
        false,
        format!(
            "{} FROM gv$instance",
            select(
                "CLK",
                "inst_id",
                "status",
                "version",
                &[&epoch("startup_time"), &epoch("SYSDATE"), &epoch(utc_now)],
                "host_name"
            )
        ),
    )
}

/// The database's role and state. Every column here is in `V$DATABASE` from 10.2 on (the
/// contract), so the text is the same in every release; the fast-start failover columns are
/// deprecated in 26ai (in favour of `V$FAST_START_FAILOVER_CONFIG`) but still there.
fn db_part() -> Part {
    // Positions in s1 are the mapper's contract (map.rs `db_info`); a NULL keeps its place.
    let s1 = [
        "db_unique_name",
        "protection_mode",
        "protection_level",
        "switchover_status",
        "dataguard_broker",
        "fs_failover_status",
        "fs_failover_current_target",
        "fs_failover_observer_present",
        "fs_failover_observer_host",
        "force_logging",
        "flashback_on",
    ]
    .join("||CHR(31)||");
    part(
        "db",
        "DB",
        &["V$DATABASE"],
        false,
        format!(
            "{} FROM v$database",
            select(
                "DB",
                NN,
                "database_role",
                "open_mode",
                &["fs_failover_threshold"],
                &s1
            )
        ),
    )
}

/// 21c+: the broker's `FastStartFailoverLagLimit` (a configuration property, seconds), one
/// row. On the primary only, where the broker decides whether the target is within it.
fn fsfo_lag_limit_part() -> Part {
    part(
        "fsfo_lag_limit",
        "FSL",
        &["V$DG_BROKER_PROPERTY"],
        false,
        format!(
            "{} FROM v$dg_broker_property WHERE property = 'FastStartFailoverLagLimit'",
            select("FSL", NN, "property", NC, &[], "value")
        ),
    )
}

fn events_part(names: &[&str]) -> Part {
    part(
        "events",
        "EVT",
        &["GV$SYSTEM_EVENT"],
        false,
        format!(
            "{} FROM gv$system_event WHERE event IN ({})",
            select(
                "EVT",
                "inst_id",
                "event",
                NC,
                // The _FG columns (11.2+, every release dgscope has SQL for) split the
                // waits of foreground sessions from those of background processes.
                &[
                    "total_waits",
                    "time_waited_micro",
                    "total_waits_fg",
                    "time_waited_micro_fg"
                ],
                NC
            ),
            in_list(names)
        ),
    )
}

/// How many of the database's top waits are read with each sample.
pub const TOP_WAITS_MAX: usize = 15;

/// The primary's top waits: the non-idle events with the most foreground time since startup,
/// summed over the instances, with their wait class, at most [`TOP_WAITS_MAX`] rows. They say
/// where DB time goes besides the commit path (`db-time-elsewhere`); an event only newly
/// hot is named once its time since startup puts it among them.
fn top_waits_part() -> Part {
    part(
        "top_waits",
        "TOPW",
        &["GV$SYSTEM_EVENT"],
        false,
        format!(
            "{} FROM (SELECT e.event AS ev, MAX(e.wait_class) AS cls, \
             SUM(e.total_waits) AS w, SUM(e.time_waited_micro) AS us, \
             SUM(e.total_waits_fg) AS wfg, SUM(e.time_waited_micro_fg) AS usfg \
             FROM gv$system_event e WHERE e.wait_class <> 'Idle' \
             GROUP BY e.event ORDER BY SUM(e.time_waited_micro_fg) DESC) \
             WHERE ROWNUM <= {TOP_WAITS_MAX}",
            select("TOPW", NN, "ev", "cls", &["w", "us", "wfg", "usfg"], NC)
        ),
    )
}

/// DB time and DB CPU (`V$SYS_TIME_MODEL`, µs), summed over the instances: what the
/// commit path's share of the database's time is judged against.
fn time_model_part() -> Part {
    part(
        "time_model",
        "TM",
        &["GV$SYS_TIME_MODEL"],
        false,
        format!(
            "{} FROM gv$sys_time_model WHERE stat_name IN ('DB time', 'DB CPU') GROUP BY stat_name",
            select("TM", NN, "stat_name", NC, &["SUM(value)"], NC)
        ),
    )
}

fn hist_part(f: Features, names: &[&str]) -> Part {
    // The millisecond view's bound is stored as m*1000 µs (the contract's rule).
    let (view, unit, col, from) = if f.micro_hist {
        (
            "GV$EVENT_HISTOGRAM_MICRO",
            "'us'",
            "wait_time_micro",
            "gv$event_histogram_micro",
        )
    } else {
        (
            "GV$EVENT_HISTOGRAM",
            "'ms'",
            "wait_time_milli",
            "gv$event_histogram",
        )
    };
    part(
        "histograms",
        "HIST",
        &[view],
        false,
        format!(
            "{} FROM {from} WHERE event IN ({}) AND wait_count > 0",
            select("HIST", "inst_id", "event", unit, &[col, "wait_count"], NC),
            in_list(names)
        ),
    )
}

fn stats_part() -> Part {
    part(
        "stats",
        "STAT",
        &["GV$SYSSTAT"],
        false,
        format!(
            "{} FROM gv$sysstat WHERE name IN ({}) OR name LIKE 'redo write size count%'",
            select("STAT", "inst_id", "name", NC, &["value"], NC),
            in_list(STATS)
        ),
    )
}

fn resp_part() -> Part {
    part(
        "resp_hist",
        "RESP",
        &["GV$REDO_DEST_RESP_HISTOGRAM"],
        false,
        format!(
            "{} FROM gv$redo_dest_resp_histogram WHERE frequency > 0",
            select(
                "RESP",
                "inst_id",
                "TO_CHAR(dest_id)",
                NC,
                &["duration", "frequency"],
                NC
            )
        ),
    )
}

/// `compression`/`sync_status`: whether to name those columns (see `dests_part`).
fn dests_sql(compression: bool, sync_status: bool) -> String {
    let fail_date = format!("TO_CHAR(ROUND({}))", epoch("d.fail_date"));
    // Positions in s1 are the mapper's contract (map.rs `dests`); a NULL keeps its place.
    let s1 = [
        "d.status",
        "d.affirm",
        if compression { "d.compression" } else { NC },
        "d.db_unique_name",
        "d.destination",
        "s.gap_status",
        "NVL(d.error, s.error)",
        "s.type",
        "s.recovery_mode",
        "s.database_mode",
        if sync_status {
            "s.synchronization_status"
        } else {
            NC
        },
        // The retry settings and failure state (10.1+, every release): no numeric slot is
        // left, so whole numbers as text (TO_CHAR of an integer has no decimal separator
        // whatever NLS_NUMERIC_CHARACTERS says).
        "TO_CHAR(d.reopen_secs)",
        "TO_CHAR(d.max_failure)",
        "TO_CHAR(d.failure_count)",
        &fail_date,
        // MANDATORY or OPTIONAL (10.1+): a failing MANDATORY destination stops the primary.
        "d.binding",
    ]
    .join("||CHR(31)||");
    format!(
        "{} FROM gv$archive_dest d JOIN gv$archive_dest_status s \
         ON s.inst_id = d.inst_id AND s.dest_id = d.dest_id \
         WHERE d.status <> 'INACTIVE' AND d.target IN ('STANDBY','REMOTE')",
        select(
            "DEST",
            "d.inst_id",
            "TO_CHAR(d.dest_id)",
            "d.transmit_mode",
            &[
                "d.net_timeout",
                "s.archived_seq#",
                "s.applied_seq#",
                "d.delay_mins",
                "s.standby_logfile_count",
                "s.standby_logfile_active"
            ],
            &s1
        )
    )
}

fn dests_part(f: Features) -> Part {
    let mut p = part(
        "dests",
        "DEST",
        &["GV$ARCHIVE_DEST", "GV$ARCHIVE_DEST_STATUS"],
        false,
        dests_sql(true, f.sync_status),
    );
    // VIEWS.md: V$ARCHIVE_DEST.COMPRESSION on 11.2 is unverified, and the release that
    // introduced SYNCHRONIZATION_STATUS is not settled either; without them the dest
    // status, gap and error still matter more than losing the whole part.
    p.alt_sql = Some(dests_sql(false, false));
    p
}

fn os_part() -> Part {
    part(
        "os",
        "OS",
        &["GV$OSSTAT"],
        false,
        format!(
            "{} FROM gv$osstat WHERE stat_name IN ({})",
            select("OS", "inst_id", "stat_name", NC, &["value"], NC),
            in_list(OS_STATS)
        ),
    )
}

fn iostat_part(f: Features) -> Part {
    part(
        "iostat",
        "IOF",
        &["GV$IOSTAT_FILE"],
        false,
        format!(
            "{} FROM gv$iostat_file GROUP BY inst_id, filetype_name",
            select(
                "IOF",
                "inst_id",
                "filetype_name",
                NC,
                &[
                    "SUM(small_read_reqs + large_read_reqs)",
                    "SUM(small_write_reqs + large_write_reqs)",
                    "SUM(small_read_megabytes + large_read_megabytes)",
                    "SUM(small_write_megabytes + large_write_megabytes)",
                    "SUM(small_read_servicetime + large_read_servicetime)",
                    "SUM(small_write_servicetime + large_write_servicetime)",
                ],
                // In a CDB a common user without CONTAINER_DATA sees the root's rows only
                // (CON_ID 0/1); the largest CON_ID of the data files tells the mapper.
                if f.con_id { "TO_CHAR(MAX(con_id))" } else { NC }
            )
        ),
    )
}

fn dg_part() -> Part {
    // GV$, tagged with the instance: on a RAC standby only the instance running MRP0 has a
    // meaningful apply lag (V$DATAGUARD_STATS: "relevant only to the applying instance"),
    // and the session may have landed on another one. The mapper picks the instance.
    part(
        "dg",
        "DGS",
        &["GV$DATAGUARD_STATS"],
        false,
        format!(
            "{} FROM gv$dataguard_stats",
            select(
                "DGS",
                "inst_id",
                "LOWER(name)",
                "unit",
                &[],
                "value||CHR(31)||time_computed||CHR(31)||datum_time"
            )
        ),
    )
}

fn recovery_part() -> Part {
    part(
        "recovery",
        "RP",
        &["GV$RECOVERY_PROGRESS"],
        false,
        format!(
            "{} FROM gv$recovery_progress WHERE UPPER(type) = 'MEDIA RECOVERY' AND start_time = \
             (SELECT MAX(start_time) FROM gv$recovery_progress WHERE UPPER(type) = 'MEDIA RECOVERY')",
            select(
                "RP",
                "inst_id",
                "item",
                "units",
                &["sofar", "total", &epoch("\"TIMESTAMP\"")],
                NC
            )
        ),
    )
}

fn dg_process_sql(delay: bool) -> String {
    format!(
        "{} FROM gv$dataguard_process",
        select(
            "PROC",
            "inst_id",
            "name",
            "role",
            &[
                "thread#",
                "sequence#",
                if delay { "delay_mins" } else { NN }
            ],
            "action"
        )
    )
}

fn processes_part(f: Features) -> Part {
    if f.dg_process {
        let mut p = part(
            "processes",
            "PROC",
            &["GV$DATAGUARD_PROCESS"],
            false,
            dg_process_sql(true),
        );
        // DELAY_MINS of V$DATAGUARD_PROCESS is described in the 23ai Reference; that 12.2
        // has it is known from public scripts only. Without it MRP0's state still counts.
        p.alt_sql = Some(dg_process_sql(false));
        p
    } else {
        part(
            "processes",
            "PROC",
            &["GV$MANAGED_STANDBY"],
            false,
            format!(
                "{} FROM gv$managed_standby",
                select(
                    "PROC",
                    "inst_id",
                    "process",
                    NC,
                    &["thread#", "sequence#", "delay_mins"],
                    "status"
                )
            ),
        )
    }
}

/// Standby: the archived logs recovery is waiting for. State, so read every sample.
fn gaps_part() -> Part {
    part(
        "gaps",
        "GAP",
        &["V$ARCHIVE_GAP"],
        false,
        format!(
            "{} FROM v$archive_gap",
            select(
                "GAP",
                "thread#",
                NC,
                NC,
                &["low_sequence#", "high_sequence#"],
                NC
            )
        ),
    )
}

/// The recovery area's limit and use (both roles). It fills over minutes, not seconds, so
/// the once-a-minute cadence is enough.
fn fra_part() -> Part {
    part(
        "fra",
        "FRA",
        &["V$RECOVERY_FILE_DEST"],
        true,
        format!(
            "{} FROM v$recovery_file_dest",
            select(
                "FRA",
                NN,
                "name",
                NC,
                &[
                    "space_limit",
                    "space_used",
                    "space_reclaimable",
                    "number_of_files"
                ],
                NC
            )
        ),
    )
}

/// Primary: data files with a NOLOGGING change the redo did not carry (the standby's copy of
/// those blocks is unusable). Files change rarely, so once a minute like the other slow
/// parts; one row per such file, none on a database that logs everything.
fn unrecoverable_part() -> Part {
    part(
        "unrecoverable",
        "UNR",
        &["V$DATAFILE"],
        true,
        format!(
            "{} FROM v$datafile WHERE unrecoverable_change# > 0",
            select(
                "UNR",
                NN,
                NC,
                NC,
                &[
                    "file#",
                    "unrecoverable_change#",
                    &epoch("unrecoverable_time")
                ],
                NC
            )
        ),
    )
}

/// What sessions wait on now (every role): `V$SESSION`'s in-flight waits (`STATE =
/// 'WAITING'`; the other states mean the session is on CPU and `EVENT` is its last wait),
/// idle ones left out, background processes kept (a hung LGWR or ARCn is the point), grouped
/// by event across the instances, the longest [`WAITS_NOW_MAX`] first. `WAIT_TIME_MICRO`
/// (11.1+) is the time spent so far in the current wait; the blocker is the `PROGRAM` of
/// the session that blocks the longest blocked waiter (`BLOCKING_INSTANCE`/`_SESSION`,
/// a self-join, so a RAC blocker on another instance is found too). Completed waits
/// (`V$SYSTEM_EVENT`) show nothing of a wait still in progress: this is how a hang shows.
/// Bounded: at most [`WAITS_NOW_MAX`] rows per sample, whatever the session count.
fn waits_now_part() -> Part {
    part(
        "waits_now",
        "WAIT",
        &["GV$SESSION"],
        false,
        format!(
            "{} FROM (SELECT w.event AS ev, MAX(w.wait_class) AS cls, COUNT(*) AS n, \
             MAX(w.wait_time_micro) AS longest_us, \
             MAX(b.program) KEEP (DENSE_RANK LAST ORDER BY NVL2(b.program, 1, 0), w.wait_time_micro) AS blocker \
             FROM gv$session w LEFT JOIN gv$session b \
             ON b.inst_id = w.blocking_instance AND b.sid = w.blocking_session \
             WHERE w.state = 'WAITING' AND w.wait_class <> 'Idle' \
             GROUP BY w.event ORDER BY MAX(w.wait_time_micro) DESC) \
             WHERE ROWNUM <= {WAITS_NOW_MAX}",
            select("WAIT", NN, "ev", "cls", &["n", "longest_us"], "blocker")
        ),
    )
}

/// How far back `V$DATAGUARD_STATUS` is read, in minutes. The text must not change from
/// sample to sample (a new literal each time would be a hard parse each time), so the
/// "newer than the previous sample" filter is the mapper's (`messages.rs`, by
/// MESSAGE_NUM); this window bounds what a first sample or a reconnect can bring back.
pub const DG_MESSAGE_WINDOW_MIN: u32 = 5;

/// Data Guard messages of every instance (MRP0 may run on another one than the session's).
fn dg_messages_part() -> Part {
    part(
        "dg_messages",
        "DGM",
        &["GV$DATAGUARD_STATUS"],
        false,
        format!(
            "{} FROM gv$dataguard_status WHERE \"TIMESTAMP\" > SYSDATE - {DG_MESSAGE_WINDOW_MIN}/1440",
            select(
                "DGM",
                "inst_id",
                "severity",
                "facility",
                &[
                    "message_num",
                    "error_code",
                    "dest_id",
                    &epoch("\"TIMESTAMP\"")
                ],
                "message"
            )
        ),
    )
}

/// The members of the configuration and who sends redo to whom (`PARENT_DBUN`): on a
/// cascaded terminal standby, its own row names the member it receives from. The same on
/// every instance, so V$; it changes only with the configuration, so once a minute.
fn dg_config_part() -> Part {
    part(
        "dg_config",
        "DGC",
        &["V$DATAGUARD_CONFIG"],
        true,
        format!(
            "{} FROM v$dataguard_config",
            select("DGC", NN, "db_unique_name", "dest_role", &[], "parent_dbun")
        ),
    )
}

fn lag_hist_part() -> Part {
    part(
        "lag_hist",
        "SEH",
        &["V$STANDBY_EVENT_HISTOGRAM"],
        false,
        format!(
            "{} FROM v$standby_event_histogram WHERE \"COUNT\" > 0",
            select(
                "SEH",
                NN,
                "LOWER(name)",
                "unit",
                &["\"TIME\"", "\"COUNT\""],
                NC
            )
        ),
    )
}

fn params_part() -> Part {
    part(
        "params",
        "PAR",
        &["V$PARAMETER"],
        true,
        format!(
            "{} FROM v$parameter WHERE (name LIKE 'log\\_archive\\_dest\\_%' ESCAPE '\\' \
             AND value IS NOT NULL AND isdefault = 'FALSE') OR name IN ({})",
            select("PAR", NN, "name", NC, &[], "value"),
            in_list(PARAMS)
        ),
    )
}

fn logs_part() -> Part {
    part(
        "logs",
        "LOG",
        &["V$LOG"],
        true,
        format!(
            "{} FROM v$log",
            select(
                "LOG",
                "thread#",
                "TO_CHAR(group#)",
                "status",
                // n4 is the SRL part's USED; both parts carry BLOCKSIZE (11.2+) in n5.
                &["bytes", "sequence#", "members", NN, "blocksize"],
                "archived"
            )
        ),
    )
}

fn standby_logs_part() -> Part {
    part(
        "standby_logs",
        "SRL",
        &["V$STANDBY_LOG", "V$LOGFILE"],
        true,
        format!(
            "{} FROM v$standby_log l",
            select(
                "SRL",
                "l.thread#",
                "TO_CHAR(l.group#)",
                "l.status",
                &[
                    "l.bytes",
                    "l.sequence#",
                    "(SELECT COUNT(*) FROM v$logfile f WHERE f.group# = l.group#)",
                    "l.used",
                    "l.blocksize"
                ],
                "l.archived"
            )
        ),
    )
}

fn switches_part() -> Part {
    part(
        "switches",
        "SW",
        &["V$LOG_HISTORY"],
        true,
        format!(
            "{} FROM v$log_history WHERE first_time > SYSDATE - 1/24",
            select(
                "SW",
                "thread#",
                NC,
                NC,
                &["sequence#", &epoch("first_time")],
                NC
            )
        ),
    )
}

/// Every part a database of this kind is sampled with, fast and slow.
pub fn parts(kind: DbKind, f: Features) -> Vec<Part> {
    let mut v = base_parts(kind, f);
    if f.dg_config {
        v.push(dg_config_part());
    }
    if f.broker_props && kind == DbKind::Primary {
        v.push(fsfo_lag_limit_part());
    }
    v
}

fn base_parts(kind: DbKind, f: Features) -> Vec<Part> {
    match kind {
        DbKind::Primary => vec![
            instance_part(),
            db_part(),
            events_part(&primary_events(f)),
            hist_part(f, &primary_hist_events(f)),
            stats_part(),
            resp_part(),
            dests_part(f),
            os_part(),
            iostat_part(f),
            dg_messages_part(),
            fra_part(),
            params_part(),
            logs_part(),
            standby_logs_part(),
            switches_part(),
            unrecoverable_part(),
            waits_now_part(),
            top_waits_part(),
            time_model_part(),
        ],
        DbKind::Standby => vec![
            instance_part(),
            db_part(),
            events_part(STANDBY_EVENTS),
            hist_part(f, STANDBY_HIST_EVENTS),
            os_part(),
            iostat_part(f),
            dg_part(),
            recovery_part(),
            processes_part(f),
            gaps_part(),
            dg_messages_part(),
            lag_hist_part(),
            fra_part(),
            params_part(),
            logs_part(),
            standby_logs_part(),
            waits_now_part(),
        ],
        // Transport only: no V$RECOVERY_PROGRESS, no apply lag histogram, no log switch
        // history (the primary's rate is read on the primary); the dg part for its transport lag (Oracle's broker and
        // Enterprise Manager report a far sync's transport lag), its processes for RFS and
        // the forwarding ones, its destinations to the terminal standbys.
        DbKind::FarSync => vec![
            instance_part(),
            db_part(),
            events_part(FAR_SYNC_EVENTS),
            hist_part(f, FAR_SYNC_HIST_EVENTS),
            resp_part(),
            dests_part(f),
            os_part(),
            iostat_part(f),
            dg_part(),
            processes_part(f),
            gaps_part(),
            dg_messages_part(),
            fra_part(),
            params_part(),
            // V$LOG as on a standby: whatever online logs it has (none is a real answer).
            logs_part(),
            standby_logs_part(),
            waits_now_part(),
        ],
    }
}

/// The kinds of database a release can have: far sync instances exist from 12.1.
pub fn kinds(v: &Variant) -> Vec<DbKind> {
    if v.features.lns_events {
        vec![DbKind::Primary, DbKind::Standby]
    } else {
        vec![DbKind::Primary, DbKind::Standby, DbKind::FarSync]
    }
}

/// The one statement for a set of parts.
pub fn statement<'a>(parts: impl IntoIterator<Item = &'a Part>) -> String {
    parts
        .into_iter()
        .map(|p| p.sql.as_str())
        .collect::<Vec<_>>()
        .join("\nUNION ALL\n")
}

/// Views the probe reads (all releases).
pub const PROBE_VIEWS: &[&str] = &["V$INSTANCE", "V$DATABASE", "GV$INSTANCE", "V$FIXED_TABLE"];

/// Connect-time probe, step 1: identity and role. Works on a MOUNTED database.
pub const PROBE_IDENTITY: &str = "SELECT i.version, i.instance_number, i.status, \
d.database_role, d.open_mode, d.db_unique_name, d.protection_mode, d.protection_level, \
(SELECT COUNT(*) FROM gv$instance) FROM v$instance i, v$database d";

/// Step 3 (18c+ only; VERSION_FULL does not exist before): the exact release update, and
/// whether this is a container database (`V$DATABASE.CDB`, 12.1+), in one statement.
pub const PROBE_VERSION_FULL: &str = "SELECT i.version_full, d.cdb FROM v$instance i, v$database d";

/// Step 3 on 12.1–12.2 (and on 18c+ when the statement above failed): the CDB column alone.
pub const PROBE_CDB: &str = "SELECT cdb FROM v$database";

/// Step 2: which of the fixed views dgscope can use exist in this release.
pub fn probe_fixed_views() -> String {
    let names: BTreeSet<&str> = all_parts().into_iter().flat_map(|(_, p)| p.views).collect();
    format!(
        "SELECT name FROM v$fixed_table WHERE name IN ({})",
        in_list(&names.into_iter().collect::<Vec<_>>())
    )
}

/// Every part of every variant and kind, labelled `variant/kind`.
pub fn all_parts() -> Vec<(String, Part)> {
    let mut out = Vec::new();
    for v in variants() {
        for kind in kinds(&v) {
            for p in parts(kind, v.features) {
                out.push((format!("{}/{:?}", v.label, kind), p));
            }
        }
    }
    out
}

/// Every statement text dgscope can send, with a label: probes, each variant's full
/// statement, and each part alone (the ORA-00942 fallback). For the SELECT-only test.
pub fn all_statements() -> Vec<(String, String)> {
    let mut out = vec![
        ("probe/identity".to_string(), PROBE_IDENTITY.to_string()),
        ("probe/fixed_views".to_string(), probe_fixed_views()),
        (
            "probe/version_full".to_string(),
            PROBE_VERSION_FULL.to_string(),
        ),
        ("probe/cdb".to_string(), PROBE_CDB.to_string()),
    ];
    for v in variants() {
        for kind in kinds(&v) {
            let ps = parts(kind, v.features);
            out.push((format!("{}/{:?}/all", v.label, kind), statement(&ps)));
            out.push((
                format!("{}/{:?}/fast", v.label, kind),
                statement(ps.iter().filter(|p| !p.slow)),
            ));
            for p in &ps {
                out.push((format!("{}/{:?}/{}", v.label, kind, p.name), p.sql.clone()));
                if let Some(alt) = &p.alt_sql {
                    out.push((
                        format!("{}/{:?}/{}/alt", v.label, kind, p.name),
                        alt.clone(),
                    ));
                }
            }
        }
    }
    out
}

/// How each view is used, for `dgscope grants`: the parts that read it and the variants
/// (releases) whose SQL references it.
#[derive(Debug, Clone, Default)]
pub struct ViewUse {
    pub parts: BTreeSet<&'static str>,
    pub variants: Vec<&'static str>,
}

/// Every view any statement reads (probes included), from the same part list the SQL uses.
pub fn all_views() -> BTreeMap<&'static str, ViewUse> {
    let mut m: BTreeMap<&'static str, ViewUse> = BTreeMap::new();
    for v in variants() {
        let mut seen = BTreeSet::new();
        for kind in kinds(&v) {
            for p in parts(kind, v.features) {
                for view in p.views {
                    let u = m.entry(view).or_default();
                    u.parts.insert(p.name);
                    seen.insert(view);
                }
            }
        }
        for &probe in PROBE_VIEWS {
            m.entry(probe).or_default().parts.insert("probe");
            seen.insert(probe);
        }
        for view in seen {
            m.get_mut(view)
                .expect("inserted above")
                .variants
                .push(v.label);
        }
    }
    m
}

/// The object a GRANT names: `GV$X` → `SYS.GV_$X`, `V$X` → `SYS.V_$X` (grants on the public
/// `V$` synonyms fail).
pub fn grant_object(view: &str) -> String {
    format!("SYS.{}", view.to_ascii_uppercase().replacen('$', "_$", 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_pick_their_views_and_events() {
        let v = variants();
        let s11 = statement(&parts(DbKind::Primary, v[0].features));
        assert!(s11.contains("gv$event_histogram WHERE"));
        assert!(s11.contains("'LNS wait on SENDREQ'"));
        assert!(!s11.contains("SYNC Remote Write"));
        let s19 = statement(&parts(DbKind::Primary, v[4].features));
        assert!(s19.contains("gv$event_histogram_micro"));
        assert!(s19.contains("'SYNC Remote Write'"));
        let sb12 = statement(&parts(DbKind::Standby, v[2].features));
        assert!(sb12.contains("gv$managed_standby") && !sb12.contains("gv$dataguard_process"));
        let sb19 = statement(&parts(DbKind::Standby, v[4].features));
        assert!(sb19.contains("gv$dataguard_process"));
    }

    #[test]
    fn every_part_has_eleven_columns() {
        for (label, p) in all_parts() {
            // Count top-level commas of the select list (up to the depth-0 FROM).
            let mut depth = 0;
            let mut commas = 0;
            for (i, c) in p.sql.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => commas += 1,
                    ' ' if depth == 0 && p.sql[i..].starts_with(" FROM ") => break,
                    _ => {}
                }
            }
            assert_eq!(commas, 10, "{label} {}", p.name);
            assert!(p.sql.starts_with(&format!("SELECT '{}'", p.tag)));
        }
    }

    #[test]
    fn a_far_sync_has_no_apply_parts_and_exists_from_12_1() {
        let v = variants();
        assert_eq!(kinds(&v[0]), vec![DbKind::Primary, DbKind::Standby]);
        for var in &v[1..] {
            assert!(kinds(var).contains(&DbKind::FarSync), "{}", var.label);
            let names: Vec<&str> = parts(DbKind::FarSync, var.features)
                .iter()
                .map(|p| p.name)
                .collect();
            for apply in ["recovery", "lag_hist", "switches", "stats"] {
                assert!(!names.contains(&apply), "{}: {apply}", var.label);
            }
            for transport in ["dg", "dests", "processes", "gaps", "standby_logs", "events"] {
                assert!(names.contains(&transport), "{}: {transport}", var.label);
            }
            assert_eq!(names.contains(&"dg_config"), var.features.dg_config);
        }
    }

    #[test]
    fn unrecoverable_is_a_slow_primary_part_and_the_lag_limit_needs_21c() {
        for v in variants() {
            for kind in kinds(&v) {
                let ps = parts(kind, v.features);
                let unr = ps.iter().find(|p| p.name == "unrecoverable");
                assert_eq!(unr.is_some(), kind == DbKind::Primary, "{}", v.label);
                if let Some(p) = unr {
                    assert!(p.slow, "{}", v.label);
                    assert!(p.sql.contains("WHERE unrecoverable_change# > 0"));
                }
                let fsl = ps.iter().find(|p| p.name == "fsfo_lag_limit");
                assert_eq!(
                    fsl.is_some(),
                    kind == DbKind::Primary && v.label == "21c",
                    "{}/{kind:?}",
                    v.label
                );
                // Every release reads the readiness columns and the retry state.
                let all = statement(&ps);
                assert!(all.contains("fs_failover_observer_present"), "{}", v.label);
                if kind != DbKind::Standby {
                    assert!(all.contains("d.fail_date"), "{}", v.label);
                }
            }
        }
    }

    #[test]
    fn grant_objects() {
        assert_eq!(grant_object("GV$SYSSTAT"), "SYS.GV_$SYSSTAT");
        assert_eq!(grant_object("V$DATAGUARD_STATS"), "SYS.V_$DATAGUARD_STATS");
    }
}
