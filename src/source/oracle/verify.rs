//! SQL a DBA pastes to verify a finding (shown in drill-downs and incident reports). It lives
//! here with the rest of dgscope's SQL so the SELECT-only and column-contract tests cover it.
//! dgscope never runs these itself.

/// A named verification query and the database it belongs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifySql {
    pub name: &'static str,
    pub run_on: RunOn,
    pub sql: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOn {
    Primary,
    Standby,
}

impl RunOn {
    pub fn as_str(self) -> &'static str {
        match self {
            RunOn::Primary => "primary",
            RunOn::Standby => "standby",
        }
    }
}

pub const COMMIT_PATH_AVERAGES: VerifySql = VerifySql {
    name: "commit path averages",
    run_on: RunOn::Primary,
    sql: "SELECT event, total_waits,\n       ROUND(time_waited_micro / NULLIF(total_waits, 0) / 1000, 3) AS avg_ms\nFROM v$system_event\nWHERE event IN ('log file sync', 'log file parallel write', 'SYNC Remote Write')\nORDER BY event;",
};

pub const LFS_HISTOGRAM: VerifySql = VerifySql {
    name: "log file sync histogram",
    run_on: RunOn::Primary,
    sql: "SELECT wait_time_format, wait_count\nFROM v$event_histogram_micro\nWHERE event = 'log file sync'\nORDER BY wait_time_micro;",
};

pub const LFPW_HISTOGRAM: VerifySql = VerifySql {
    name: "log file parallel write histogram",
    run_on: RunOn::Primary,
    sql: "SELECT wait_time_format, wait_count\nFROM v$event_histogram_micro\nWHERE event = 'log file parallel write'\nORDER BY wait_time_micro;",
};

pub const RFS_LATENCY: VerifySql = VerifySql {
    name: "RFS write latency",
    run_on: RunOn::Standby,
    sql: "SELECT event, total_waits,\n       ROUND(time_waited_micro / NULLIF(total_waits, 0) / 1000, 3) AS avg_ms\nFROM v$system_event\nWHERE event IN ('RFS write', 'RFS random i/o', 'RFS sequential i/o')\nORDER BY event;",
};

pub const SRL_LAYOUT: VerifySql = VerifySql {
    name: "standby redo log groups, sizes and members",
    run_on: RunOn::Standby,
    sql: "SELECT s.thread#, s.group#, s.bytes / 1048576 AS mb, COUNT(f.member) AS members\nFROM v$standby_log s JOIN v$logfile f ON f.group# = s.group#\nGROUP BY s.thread#, s.group#, s.bytes\nORDER BY s.thread#, s.group#;",
};

pub const ORL_LAYOUT: VerifySql = VerifySql {
    name: "online redo log groups, sizes and members",
    run_on: RunOn::Primary,
    sql: "SELECT thread#, group#, bytes / 1048576 AS mb, members, status\nFROM v$log\nORDER BY thread#, group#;",
};

pub const DEST_CONFIG: VerifySql = VerifySql {
    name: "redo transport destinations",
    run_on: RunOn::Primary,
    sql: "SELECT d.dest_id, d.db_unique_name, d.status, d.transmit_mode, d.affirm,\n       d.net_timeout, d.compression, s.gap_status, d.error\nFROM v$archive_dest d JOIN v$archive_dest_status s ON s.dest_id = d.dest_id\nWHERE d.target = 'STANDBY';",
};

pub const DEST_RESPONSE: VerifySql = VerifySql {
    name: "SYNC response-time histogram (whole seconds)",
    run_on: RunOn::Primary,
    sql: "SELECT dest_id, duration, frequency, time\nFROM v$redo_dest_resp_histogram\nWHERE frequency > 0\nORDER BY dest_id, duration;",
};

pub const POLLING_STATS: VerifySql = VerifySql {
    name: "adaptive log file sync: polling vs post/wait",
    run_on: RunOn::Primary,
    sql: "SELECT name, value\nFROM v$sysstat\nWHERE name IN ('redo synch writes', 'redo synch poll writes', 'redo synch polls')\nORDER BY name;",
};

pub const CPU_LOAD: VerifySql = VerifySql {
    name: "host CPU and load",
    run_on: RunOn::Primary,
    sql: "SELECT stat_name, value\nFROM v$osstat\nWHERE stat_name IN ('NUM_CPUS', 'LOAD', 'BUSY_TIME', 'IDLE_TIME')\nORDER BY stat_name;",
};

pub const IO_BY_FILETYPE: VerifySql = VerifySql {
    name: "write latency per file type (run on both databases)",
    run_on: RunOn::Standby,
    sql: "SELECT filetype_name,\n       SUM(small_write_reqs + large_write_reqs) AS writes,\n       ROUND(SUM(small_write_servicetime + large_write_servicetime)\n             / NULLIF(SUM(small_write_reqs + large_write_reqs), 0), 3) AS w_await_ms\nFROM v$iostat_file\nGROUP BY filetype_name\nORDER BY filetype_name;",
};

pub const LOG_SWITCHES: VerifySql = VerifySql {
    name: "log switches per hour (last 24 h)",
    run_on: RunOn::Primary,
    sql: "SELECT thread#, TRUNC(first_time, 'HH24') AS hour, COUNT(*) AS switches\nFROM v$log_history\nWHERE first_time > SYSDATE - 1\nGROUP BY thread#, TRUNC(first_time, 'HH24')\nORDER BY hour, thread#;",
};

pub const DG_LAGS: VerifySql = VerifySql {
    name: "transport and apply lag",
    run_on: RunOn::Standby,
    sql: "SELECT name, value, time_computed, datum_time\nFROM v$dataguard_stats\nWHERE name IN ('transport lag', 'apply lag', 'apply finish time');",
};

pub const APPLY_RATE: VerifySql = VerifySql {
    name: "redo apply rate and checkpoint time per log",
    run_on: RunOn::Standby,
    sql: "SELECT item, units, sofar, total, timestamp\nFROM v$recovery_progress\nWHERE item IN ('Active Apply Rate', 'Average Apply Rate', 'Maximum Apply Rate',\n               'Apply Time per Log', 'Checkpoint Time per Log', 'Last Applied Redo');",
};

pub const APPLY_WAITS: VerifySql = VerifySql {
    name: "what redo apply waits on",
    run_on: RunOn::Standby,
    sql: "SELECT event, total_waits,\n       ROUND(time_waited_micro / NULLIF(total_waits, 0) / 1000, 3) AS avg_ms\nFROM v$system_event\nWHERE event IN ('checkpoint completed', 'recovery read', 'db file sequential read',\n                'parallel recovery read buffer free', 'free buffer waits')\nORDER BY time_waited_micro DESC;",
};

pub const APPLY_PROCESSES: VerifySql = VerifySql {
    name: "Data Guard processes (12.2+)",
    run_on: RunOn::Standby,
    sql: "SELECT name, role, action, thread#, sequence#\nFROM v$dataguard_process\nORDER BY name;",
};

pub const ARCHIVE_GAP: VerifySql = VerifySql {
    name: "archive gaps",
    run_on: RunOn::Standby,
    sql: "SELECT thread#, low_sequence#, high_sequence#\nFROM v$archive_gap;",
};

pub const REDO_SIZING: VerifySql = VerifySql {
    name: "log buffer and online redo log sizes",
    run_on: RunOn::Primary,
    sql: "SELECT name, display_value\nFROM v$parameter\nWHERE name IN ('log_buffer', 'cpu_count');",
};

/// Every verification statement, for the contract tests.
pub const ALL: &[VerifySql] = &[
    COMMIT_PATH_AVERAGES,
    LFS_HISTOGRAM,
    LFPW_HISTOGRAM,
    RFS_LATENCY,
    SRL_LAYOUT,
    ORL_LAYOUT,
    DEST_CONFIG,
    DEST_RESPONSE,
    POLLING_STATS,
    CPU_LOAD,
    IO_BY_FILETYPE,
    LOG_SWITCHES,
    DG_LAGS,
    APPLY_RATE,
    APPLY_WAITS,
    APPLY_PROCESSES,
    ARCHIVE_GAP,
    REDO_SIZING,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verify_statement_is_a_select() {
        for v in ALL {
            let head = v.sql.trim_start().to_ascii_uppercase();
            assert!(head.starts_with("SELECT"), "{}", v.name);
            for word in [
                "INSERT", "UPDATE ", "DELETE", "MERGE", "ALTER", "DROP", "GRANT", "EXECUTE",
                "BEGIN",
            ] {
                assert!(!head.contains(word), "{} contains {word}", v.name);
            }
        }
    }
}
