//! SQL a DBA pastes to verify a finding (shown in drill-downs, incident reports and `check`'s
//! JSON). The causes engine names what to verify ([`VerifyKey`]); this module spells it for
//! the release the DBA runs it on, so the numbers they get are the numbers dgscope shows:
//! no `V$EVENT_HISTOGRAM_MICRO` before 12.1.0.2, no `V$DATAGUARD_PROCESS` before 12.2,
//! `LNS wait on SENDREQ` on 11.2 where later releases have `SYNC Remote Write`, and `GV$` with
//! `INST_ID` on RAC for the views that are per instance. It lives here with the rest of
//! dgscope's SQL so the SELECT-only and column-contract tests cover every variant. dgscope
//! never runs these itself.

use dgscope_model::sample::names::event;
pub use dgscope_model::sample::release::{Release, Releases};
use dgscope_model::sample::vocab::VerifyKey;

/// Which database a query belongs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOn {
    Primary,
    Standby,
    /// The same query on each, to compare (e.g. write latency per file type).
    Both,
}

impl RunOn {
    pub fn as_str(self) -> &'static str {
        match self {
            RunOn::Primary => "run on the primary",
            RunOn::Standby => "run on the standby",
            RunOn::Both => "run on both databases",
        }
    }
}

/// A verification query for one release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifySql {
    pub name: &'static str,
    pub run_on: RunOn,
    pub sql: String,
}

impl VerifySql {
    /// As shown to the DBA: a comment naming it and where to run it, then the statement.
    pub fn text(&self) -> String {
        format!("-- {} ({})\n{}", self.name, self.run_on.as_str(), self.sql)
    }
}

/// Where `key`'s query runs.
pub fn run_on(key: VerifyKey) -> RunOn {
    use VerifyKey::*;
    match key {
        CommitPathAverages | LfsHistogram | LfpwHistogram | OrlLayout | DestConfig | DestParams
        | DestResponse | PollingStats | CpuLoad | LogSwitches | RedoSizing | ProtectionMode
        | FailoverReadiness | Unrecoverable | SessionWaits | TopWaits => RunOn::Primary,
        RfsLatency | SrlLayout | DgLags | ApplyRate | ApplyWaits | ApplyProcesses | ArchiveGap
        | RecoveryArea | StandbyParams => RunOn::Standby,
        IoByFiletype | DgMessages => RunOn::Both,
    }
}

/// `key` spelled for the release of the database it runs on.
pub fn resolve(key: VerifyKey, releases: &Releases) -> VerifySql {
    let on = run_on(key);
    let r = match on {
        RunOn::Primary => releases.primary,
        RunOn::Standby => releases.standby,
        RunOn::Both => Release::common(releases.primary, releases.standby),
    };
    VerifySql {
        name: name(key, r),
        run_on: on,
        sql: sql(key, r),
    }
}

/// The texts a finding's consumers show, in the finding's order.
pub fn texts(keys: &[VerifyKey], releases: &Releases) -> Vec<String> {
    keys.iter().map(|&k| resolve(k, releases).text()).collect()
}

fn name(key: VerifyKey, r: Release) -> &'static str {
    use VerifyKey::*;
    match key {
        CommitPathAverages => "commit path averages",
        LfsHistogram => "log file sync histogram",
        LfpwHistogram => "log file parallel write histogram",
        RfsLatency => "RFS write latency",
        SrlLayout => "standby redo log groups, sizes, block sizes and members",
        OrlLayout => "online redo log groups, sizes and block sizes",
        DestConfig => "redo transport destinations",
        DestParams => "destination parameters and states",
        DestResponse => "SYNC response-time histogram (whole seconds)",
        PollingStats => "adaptive log file sync: polling vs post/wait",
        CpuLoad => "host CPU and load",
        IoByFiletype => "write latency per file type",
        LogSwitches => "log switches per hour (last 24 h)",
        DgLags => "transport and apply lag",
        ApplyRate => "redo apply rate and checkpoint time per log",
        ApplyWaits => "what redo apply waits on",
        ApplyProcesses if r.dg_process => "Data Guard processes",
        ApplyProcesses => "Data Guard processes (V$MANAGED_STANDBY before 12.2)",
        ArchiveGap => "archive gaps",
        RedoSizing => "log buffer",
        RecoveryArea => "recovery area usage",
        DgMessages => "Data Guard errors (newest first)",
        ProtectionMode => "protection mode and level",
        FailoverReadiness => "switchover status, broker and fast-start failover",
        Unrecoverable => "datafiles with NOLOGGING (unrecoverable) changes, and force logging",
        SessionWaits => "sessions waiting now (longest first) and who blocks them",
        TopWaits => "where DB time goes: DB time, DB CPU and the foreground waits, since startup",
        StandbyParams => "standby apply and recovery-area parameters",
    }
}

/// `v$x`, or `gv$x` on RAC, and the `inst_id` column to select and order by with it.
struct Per {
    rac: bool,
}

impl Per {
    fn view(&self, v: &str) -> String {
        if self.rac {
            format!("gv${v}")
        } else {
            format!("v${v}")
        }
    }
    /// `inst_id, ` on RAC, nothing otherwise (select lists and ORDER BY).
    fn inst(&self) -> &'static str {
        if self.rac {
            "inst_id, "
        } else {
            ""
        }
    }
}

fn sql(key: VerifyKey, r: Release) -> String {
    use VerifyKey::*;
    let p = Per { rac: r.rac };
    let i = p.inst();
    let avg = "ROUND(time_waited_micro / NULLIF(total_waits, 0) / 1000, 3) AS avg_ms";
    let events = |names: &[&str], order: &str| {
        let list = names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "SELECT {i}event, total_waits,\n       {avg}\nFROM {}\nWHERE event IN ({list})\nORDER BY {i}{order};",
            p.view("system_event")
        )
    };
    let hist = |e: &str| {
        if r.micro_hist {
            format!(
                "SELECT {i}wait_time_format, wait_count\nFROM {}\nWHERE event = '{e}'\nORDER BY {i}wait_time_micro;",
                p.view("event_histogram_micro")
            )
        } else {
            format!(
                "SELECT {i}wait_time_milli, wait_count\nFROM {}\nWHERE event = '{e}'\nORDER BY {i}wait_time_milli;",
                p.view("event_histogram")
            )
        }
    };
    let remote = if r.lns_events {
        event::LNS_WAIT_ON_SENDREQ
    } else {
        event::SYNC_REMOTE_WRITE
    };
    match key {
        CommitPathAverages => events(
            &[event::LOG_FILE_SYNC, event::LOG_FILE_PARALLEL_WRITE, remote],
            "event",
        ),
        LfsHistogram => hist(event::LOG_FILE_SYNC),
        LfpwHistogram => hist(event::LOG_FILE_PARALLEL_WRITE),
        RfsLatency => events(&["RFS write", "RFS random i/o", "RFS sequential i/o"], "event"),
        ApplyWaits => events(
            &[
                event::CHECKPOINT_COMPLETED,
                event::RECOVERY_READ,
                event::DB_FILE_SEQUENTIAL_READ,
                event::PARALLEL_RECOVERY_READ_BUFFER_FREE,
                event::FREE_BUFFER_WAITS,
            ],
            "time_waited_micro DESC",
        ),
        // The log views come from the control file: the same on every instance, so V$.
        SrlLayout => "SELECT s.thread#, s.group#, s.bytes / 1048576 AS mb, s.blocksize, s.status,\n       COUNT(f.member) AS members\nFROM v$standby_log s JOIN v$logfile f ON f.group# = s.group#\nGROUP BY s.thread#, s.group#, s.bytes, s.blocksize, s.status\nORDER BY s.thread#, s.group#;".into(),
        OrlLayout => "SELECT thread#, group#, bytes / 1048576 AS mb, blocksize, members, status\nFROM v$log\nORDER BY thread#, group#;".into(),
        LogSwitches => "SELECT thread#, TRUNC(first_time, 'HH24') AS hour, COUNT(*) AS switches\nFROM v$log_history\nWHERE first_time > SYSDATE - 1\nGROUP BY thread#, TRUNC(first_time, 'HH24')\nORDER BY hour, thread#;".into(),
        ArchiveGap => "SELECT thread#, low_sequence#, high_sequence#\nFROM v$archive_gap;".into(),
        // V$ARCHIVE_DEST describes the current instance: every instance on RAC.
        DestConfig => {
            let (d, s) = (p.view("archive_dest"), p.view("archive_dest_status"));
            let (di, join) = if r.rac {
                ("d.inst_id, ", " AND s.inst_id = d.inst_id")
            } else {
                ("", "")
            };
            // SYNCHRONIZATION_STATUS is documented from 12.1 on (11.x: the same release gate
            // as the LNS event names).
            let sync = if r.lns_events {
                ""
            } else {
                "s.synchronization_status, "
            };
            format!(
                "SELECT {di}d.dest_id, d.db_unique_name, d.status, d.transmit_mode, d.affirm,\n       d.net_timeout, d.compression, d.delay_mins, s.type, s.database_mode,\n       s.recovery_mode, s.protection_mode, {sync}s.gap_status, d.error\nFROM {d} d JOIN {s} s ON s.dest_id = d.dest_id{join}\nWHERE d.target = 'STANDBY'\nORDER BY {di}d.dest_id;"
            )
        }
        DestParams => format!(
            "SELECT {i}name, value\nFROM {}\nWHERE name LIKE 'log_archive_dest_%'\n  AND value IS NOT NULL\nORDER BY {i}name;",
            p.view("parameter")
        ),
        DestResponse => format!(
            "SELECT {i}dest_id, duration, frequency, time\nFROM {}\nWHERE frequency > 0\nORDER BY {i}dest_id, duration;",
            p.view("redo_dest_resp_histogram")
        ),
        PollingStats => format!(
            "SELECT {i}name, value\nFROM {}\nWHERE name IN ('redo synch writes', 'redo synch poll writes', 'redo synch polls')\nORDER BY {i}name;",
            p.view("sysstat")
        ),
        CpuLoad => format!(
            "SELECT {i}stat_name, value\nFROM {}\nWHERE stat_name IN ('NUM_CPUS', 'LOAD', 'BUSY_TIME', 'IDLE_TIME')\nORDER BY {i}stat_name;",
            p.view("osstat")
        ),
        IoByFiletype => format!(
            "SELECT {i}filetype_name,\n       SUM(small_write_reqs + large_write_reqs) AS writes,\n       ROUND(SUM(small_write_servicetime + large_write_servicetime)\n             / NULLIF(SUM(small_write_reqs + large_write_reqs), 0), 3) AS w_await_ms\nFROM {}\nGROUP BY {i}filetype_name\nORDER BY {i}filetype_name;",
            p.view("iostat_file")
        ),
        // Apply lag is meaningful only on the instance running MRP0: INST_ID says which.
        DgLags => format!(
            "SELECT {i}name, value, time_computed, datum_time\nFROM {}\nWHERE name IN ('transport lag', 'apply lag', 'apply finish time')\nORDER BY {i}name;",
            p.view("dataguard_stats")
        ),
        ApplyRate => format!(
            "SELECT {i}item, units, sofar, total, timestamp\nFROM {}\nWHERE item IN ('Active Apply Rate', 'Average Apply Rate', 'Maximum Apply Rate',\n               'Apply Time per Log', 'Checkpoint Time per Log', 'Last Applied Redo')\nORDER BY {i}item;",
            p.view("recovery_progress")
        ),
        ApplyProcesses if r.dg_process => format!(
            "SELECT {i}name, role, action, thread#, sequence#\nFROM {}\nORDER BY {i}name;",
            p.view("dataguard_process")
        ),
        ApplyProcesses => format!(
            "SELECT {i}process, status, thread#, sequence#, delay_mins\nFROM {}\nORDER BY {i}process;",
            p.view("managed_standby")
        ),
        RedoSizing => format!(
            "SELECT {i}name, display_value\nFROM {}\nWHERE name IN ('log_buffer', 'cpu_count')\nORDER BY {i}name;",
            p.view("parameter")
        ),
        RecoveryArea => "SELECT name, space_limit / 1048576 AS limit_mb, space_used / 1048576 AS used_mb,\n       space_reclaimable / 1048576 AS reclaimable_mb, number_of_files\nFROM v$recovery_file_dest;".into(),
        DgMessages => format!(
            "SELECT {i}timestamp, facility, severity, error_code, dest_id, message\nFROM {}\nWHERE severity IN ('Error', 'Fatal')\nORDER BY timestamp DESC;",
            p.view("dataguard_status")
        ),
        ProtectionMode => "SELECT db_unique_name, database_role, protection_mode, protection_level\nFROM v$database;".into(),
        FailoverReadiness => "SELECT db_unique_name, switchover_status, dataguard_broker,\n       fs_failover_status, fs_failover_current_target, fs_failover_threshold,\n       fs_failover_observer_present, fs_failover_observer_host\nFROM v$database;".into(),
        Unrecoverable => "SELECT d.file#, d.name, d.unrecoverable_change#, d.unrecoverable_time,\n       (SELECT force_logging FROM v$database) force_logging\nFROM v$datafile d\nWHERE d.unrecoverable_change# > 0\nORDER BY d.unrecoverable_time DESC;".into(),
        // One statement: the time model's two figures and the non-idle foreground waits,
        // largest first (cumulative since startup: run it twice and subtract for a window).
        TopWaits => format!(
            "SELECT {i}stat_name AS name, 'time model' AS wait_class,\n       ROUND(value / 1000000) AS seconds\nFROM {}\nWHERE stat_name IN ('DB time', 'DB CPU')\nUNION ALL\nSELECT {i}event, wait_class, ROUND(time_waited_micro_fg / 1000000)\nFROM {}\nWHERE wait_class <> 'Idle' AND time_waited_micro_fg > 0\nORDER BY seconds DESC;",
            p.view("sys_time_model"),
            p.view("system_event")
        ),
        SessionWaits => "SELECT w.inst_id, w.sid, w.program, w.event, w.wait_class,\n       ROUND(w.wait_time_micro / 1000000, 1) AS waited_s,\n       w.blocking_instance, w.blocking_session, b.program AS blocker_program\nFROM gv$session w LEFT JOIN gv$session b\n  ON b.inst_id = w.blocking_instance AND b.sid = w.blocking_session\nWHERE w.state = 'WAITING' AND w.wait_class <> 'Idle'\nORDER BY w.wait_time_micro DESC;".into(),
        StandbyParams => format!(
            "SELECT {i}name, value\nFROM {}\nWHERE name IN ('standby_file_management', 'db_recovery_file_dest',\n               'db_recovery_file_dest_size', 'fal_server')\nORDER BY {i}name;",
            p.view("parameter")
        ),
    }
}

/// The releases the contract tests check every query against: the release it targets as in
/// `columns.tsv`'s "since" column, and its flags, single instance and RAC.
pub fn variants() -> Vec<(&'static str, &'static str, Release)> {
    let mut out = Vec::new();
    for (label, version) in [
        ("11.2", "11.2.0.4"),
        ("12.1.0.1", "12.1.0.1"),
        ("12.1.0.2", "12.1.0.2"),
        ("12.2", "12.2.0.1"),
        ("19c", "19.0"),
    ] {
        for rac in [false, true] {
            let r = Release::from_db(Some(version), Some(if rac { 2 } else { 1 }));
            out.push((label, version, r));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_every_statement_is_a_select() {
        for (label, _, r) in variants() {
            for &k in VerifyKey::ALL {
                let v = resolve(
                    k,
                    &Releases {
                        primary: r,
                        standby: r,
                    },
                );
                let head = v.sql.trim_start().to_ascii_uppercase();
                assert!(head.starts_with("SELECT"), "{label} {}", v.name);
                for word in [
                    "INSERT", "UPDATE ", "DELETE", "MERGE", "ALTER", "DROP", "GRANT", "EXECUTE",
                    "BEGIN",
                ] {
                    assert!(!head.contains(word), "{label} {} contains {word}", v.name);
                }
            }
        }
    }

    #[test]
    fn the_release_picks_views_and_event_names() {
        let r = |v: &str, n: u32| Release::from_db(Some(v), Some(n));
        let on = |k, rel: Release| {
            resolve(
                k,
                &Releases {
                    primary: rel,
                    standby: rel,
                },
            )
            .sql
        };
        let old = r("11.2.0.4.0", 1);
        assert!(old.lns_events && !old.micro_hist && !old.dg_process && !old.rac);
        assert!(on(VerifyKey::CommitPathAverages, old).contains("'LNS wait on SENDREQ'"));
        assert!(!on(VerifyKey::CommitPathAverages, old).contains("SYNC Remote Write"));
        assert!(on(VerifyKey::LfsHistogram, old).contains("FROM v$event_histogram\n"));
        assert!(on(VerifyKey::ApplyProcesses, old).contains("v$managed_standby"));
        // 12.1.0.1 predates the micro histogram; 12.1.0.2 has it.
        assert!(!r("12.1.0.1.0", 1).micro_hist);
        assert!(
            on(VerifyKey::LfpwHistogram, r("12.1.0.2.0", 1)).contains("v$event_histogram_micro")
        );
        let new = r("19.21.0.0.0", 1);
        assert!(on(VerifyKey::CommitPathAverages, new).contains("'SYNC Remote Write'"));
        assert!(on(VerifyKey::ApplyProcesses, new).contains("v$dataguard_process"));
        let rac = r("19.21.0.0.0", 2);
        let s = on(VerifyKey::DgLags, rac);
        assert!(
            s.contains("gv$dataguard_stats") && s.starts_with("SELECT inst_id, "),
            "{s}"
        );
        // Control-file views stay V$ on RAC (GV$ would repeat each row per instance).
        assert!(on(VerifyKey::SrlLayout, rac).contains("FROM v$standby_log"));
        // An unknown version is a current release.
        assert_eq!(Release::from_db(None, None), new);
    }

    #[test]
    fn every_release_names_one_database_per_query() {
        // Issue 12: "(run on both databases) (run on the standby)" must never recur, whatever
        // releases and instance counts the pair mixes.
        let versions = ["11.2.0.4", "12.1.0.1", "12.1.0.2", "12.2.0.1", "19.21.0.0"];
        for p in versions {
            for st in versions {
                for inst in [1, 2] {
                    let rel = Releases {
                        primary: Release::from_db(Some(p), Some(inst)),
                        standby: Release::from_db(Some(st), Some(inst)),
                    };
                    for t in texts(VerifyKey::ALL, &rel) {
                        assert_eq!(t.matches("(run on").count(), 1, "{p}/{st}/{inst}: {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn each_text_names_one_database() {
        let rel = Releases::default();
        for &k in VerifyKey::ALL {
            let t = resolve(k, &rel).text();
            let first = t.lines().next().unwrap();
            let n = [
                "run on the primary",
                "run on the standby",
                "run on both databases",
            ]
            .iter()
            .filter(|w| first.contains(*w))
            .count();
            assert_eq!(n, 1, "{first}");
            assert_eq!(t.matches("(run on").count(), 1, "{t}");
        }
    }

    #[test]
    fn a_query_on_both_databases_uses_what_both_have() {
        let rel = Releases {
            primary: Release::from_db(Some("19.3.0.0.0"), Some(2)),
            standby: Release::from_db(Some("19.3.0.0.0"), Some(1)),
        };
        assert!(resolve(VerifyKey::IoByFiletype, &rel)
            .sql
            .contains("gv$iostat_file"));
        // The standby's own queries follow the standby's release.
        assert!(resolve(VerifyKey::DgLags, &rel)
            .sql
            .contains("FROM v$dataguard_stats"));
    }
}
