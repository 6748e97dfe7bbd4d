//! Oracle's own spellings, as constants, so the twin, the Oracle source, metrics and causes
//! cannot drift apart by a typo.

pub mod event {
    pub const LOG_FILE_SYNC: &str = "log file sync";
    pub const LOG_FILE_PARALLEL_WRITE: &str = "log file parallel write";
    pub const SYNC_REMOTE_WRITE: &str = "SYNC Remote Write";
    /// The ASYNC transport process (TTnn) waiting to send redo over the network (12c+).
    pub const ASYNC_REMOTE_WRITE: &str = "ASYNC Remote Write";
    pub const LOG_FILE_SWITCH_COMPLETION: &str = "log file switch completion";
    /// Sessions wait for ARCn: the next online log is not archived yet.
    pub const LOG_FILE_SWITCH_ARCHIVING_NEEDED: &str = "log file switch (archiving needed)";
    /// Sessions wait for DBWR: the next online log's checkpoint has not completed.
    pub const LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE: &str =
        "log file switch (checkpoint incomplete)";
    /// Sessions wait for room in the log buffer (LGWR writes too slowly).
    pub const LOG_BUFFER_SPACE: &str = "log buffer space";
    pub const RFS_RANDOM_IO: &str = "RFS random i/o";
    pub const RFS_WRITE: &str = "RFS write";
    pub const CHECKPOINT_COMPLETED: &str = "checkpoint completed";
    pub const RECOVERY_READ: &str = "recovery read";
    pub const DB_FILE_SEQUENTIAL_READ: &str = "db file sequential read";
    pub const PARALLEL_RECOVERY_READ_BUFFER_FREE: &str = "parallel recovery read buffer free";
    pub const FREE_BUFFER_WAITS: &str = "free buffer waits";
    pub const DB_FILE_PARALLEL_WRITE: &str = "db file parallel write";
    /// LGWR waits for sessions still copying redo into the log buffer before it can write.
    pub const LGWR_WAIT_FOR_REDO_COPY: &str = "LGWR wait for redo copy";
    /// 11.2's name for the SYNC send wait (12c+: `SYNC Remote Write`).
    pub const LNS_WAIT_ON_SENDREQ: &str = "LNS wait on SENDREQ";
}

pub mod stat {
    pub const REDO_SIZE: &str = "redo size";
    pub const REDO_WRITES: &str = "redo writes";
    pub const REDO_BLOCKS_WRITTEN: &str = "redo blocks written";
    pub const USER_COMMITS: &str = "user commits";
    pub const USER_ROLLBACKS: &str = "user rollbacks";
    /// Centiseconds (V$SYSSTAT; an AWR report's Instance Activity Stats or its header).
    pub const DB_TIME: &str = "DB time";
    pub const REDO_SYNCH_WRITES: &str = "redo synch writes";
    pub const REDO_SYNCH_TIME_US: &str = "redo synch time (usec)";
    pub const REDO_SYNCH_POLL_WRITES: &str = "redo synch poll writes";
    pub const REDO_SYNCH_POLLS: &str = "redo synch polls";
    /// RAC broadcast on commit: latency beyond the log write (cs on 11.1, µs from 11.2).
    pub const REDO_WRITE_BROADCAST_ACK_TIME: &str = "redo write broadcast ack time";
}

/// `V$SYS_TIME_MODEL` statistics (µs).
pub mod time_model {
    pub const DB_TIME: &str = "DB time";
    pub const DB_CPU: &str = "DB CPU";
}

pub mod os {
    pub const BUSY_TIME: &str = "BUSY_TIME";
    pub const IDLE_TIME: &str = "IDLE_TIME";
    pub const NUM_CPUS: &str = "NUM_CPUS";
    pub const LOAD: &str = "LOAD";
}

pub mod filetype {
    pub const LOG_FILE: &str = "Log File";
    pub const DATA_FILE: &str = "Data File";
    pub const ARCHIVE_LOG: &str = "Archive Log";
    pub const CONTROL_FILE: &str = "Control File";
}
