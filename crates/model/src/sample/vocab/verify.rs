//! What a DBA should look at to verify a finding, named but not spelled out. The causes engine
//! knows *which* facts back a finding; the SQL text depends on the database's release (view
//! names, event names, RAC) and lives with the rest of dgscope's SQL in the Oracle source,
//! which resolves these keys for the release of the newest sample. The key sits here, below
//! both, so neither imports the other (the rules still name it `causes::verify::VerifyKey`).

use serde::Serialize;

/// One verification query, by what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerifyKey {
    /// `log file sync`, `log file parallel write` and the SYNC remote write averages.
    CommitPathAverages,
    LfsHistogram,
    LfpwHistogram,
    /// RFS write latency on the standby.
    RfsLatency,
    SrlLayout,
    OrlLayout,
    /// Remote destinations: status, transport mode, gap, recovery mode, error.
    DestConfig,
    /// `LOG_ARCHIVE_DEST_STATE_n` and `LOG_ARCHIVE_DEST_n` as set.
    DestParams,
    /// The SYNC response-time histogram.
    DestResponse,
    PollingStats,
    CpuLoad,
    IoByFiletype,
    LogSwitches,
    DgLags,
    ApplyRate,
    ApplyWaits,
    /// MRP0, RFS and the other Data Guard processes.
    ApplyProcesses,
    ArchiveGap,
    RedoSizing,
    /// The standby's recovery area: limit, used, reclaimable.
    RecoveryArea,
    /// Error and Fatal rows of the Data Guard status log.
    DgMessages,
    /// Protection mode and level.
    ProtectionMode,
    /// `standby_file_management` and the recovery-area parameters on the standby.
    StandbyParams,
    /// Role-transition readiness: switchover status, the broker, fast-start failover.
    FailoverReadiness,
    /// NOLOGGING changes: datafiles with an unrecoverable change, and FORCE_LOGGING.
    Unrecoverable,
    /// The sessions waiting now (`V$SESSION`), longest first, with their blockers' programs.
    SessionWaits,
    /// Where DB time goes: DB time and DB CPU, and the foreground waits by time.
    TopWaits,
}

impl VerifyKey {
    /// Every key, for the contract tests that check each query on each release.
    pub const ALL: &'static [VerifyKey] = &[
        VerifyKey::CommitPathAverages,
        VerifyKey::LfsHistogram,
        VerifyKey::LfpwHistogram,
        VerifyKey::RfsLatency,
        VerifyKey::SrlLayout,
        VerifyKey::OrlLayout,
        VerifyKey::DestConfig,
        VerifyKey::DestParams,
        VerifyKey::DestResponse,
        VerifyKey::PollingStats,
        VerifyKey::CpuLoad,
        VerifyKey::IoByFiletype,
        VerifyKey::LogSwitches,
        VerifyKey::DgLags,
        VerifyKey::ApplyRate,
        VerifyKey::ApplyWaits,
        VerifyKey::ApplyProcesses,
        VerifyKey::ArchiveGap,
        VerifyKey::RedoSizing,
        VerifyKey::RecoveryArea,
        VerifyKey::DgMessages,
        VerifyKey::ProtectionMode,
        VerifyKey::StandbyParams,
        VerifyKey::FailoverReadiness,
        VerifyKey::Unrecoverable,
        VerifyKey::SessionWaits,
        VerifyKey::TopWaits,
    ];
}
