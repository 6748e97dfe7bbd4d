//! The `Sample` contract (docs/RECORDINGS.md describes its file form): what every source emits,
//! raw cumulative counters exactly as Oracle reports them, and what a recording line holds.

pub mod ahead;
pub mod changes;
mod entry;
mod enums;
mod flat_map;
pub mod index;
pub mod lineparse;
mod name;
pub mod names;
pub mod order;
pub mod recording;
pub mod release;
pub mod slow;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_support;
pub mod vocab;
pub mod zst;

pub use enums::{DestStatus, LogStatus, OpenMode, Role, SampleErrorKind, TransmitMode};
pub use flat_map::FlatMap;
pub use name::Name;

/// Slots one reader keeps: a primary and the 31 destinations a recording may list
/// (`LOG_ARCHIVE_DEST_2`..`_31` and spares), with room for cascaded standbys and far syncs.
/// Samples of further slots are skipped and counted: memory is the window's for this many
/// slots, whatever a file claims (issue 17.7: 10,000 standby slots).
pub const MAX_SLOTS: usize = 64;

use crate::timestamp::Timestamp;
use crate::units::{Micros, Secs};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Which connection a sample came from: `primary`, `standby`, or `standby:<name>`. The
/// database's own role lives in `db.role` because a switchover swaps roles, not slots.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Slot(pub Name);

impl Slot {
    pub fn primary() -> Self {
        Slot("primary".into())
    }
    pub fn standby() -> Self {
        Slot("standby".into())
    }
    pub fn named_standby(name: &str) -> Self {
        Slot(format!("standby:{name}").into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    pub fn is_standby(&self) -> bool {
        self.0 == "standby" || self.0.starts_with("standby:")
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Slot {
    fn from(s: &str) -> Self {
        Slot(s.into())
    }
}

impl From<String> for Slot {
    fn from(s: String) -> Self {
        Slot(s.into())
    }
}

/// One sample of one database. Absent data is `None`/empty and is never written as zero.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub t: Timestamp,
    pub slot: Slot,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_us: Option<Micros>,
    /// Shared with the samples before it while it does not change (the engine and a
    /// recording's reader see to that): 528 bytes, kept once instead of in every sample of
    /// the raw span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<Arc<DbInfo>>,
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub events: FlatMap<Name, Event>,
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub stats: FlatMap<Name, u64>,
    /// `V$SYS_TIME_MODEL`: cumulative µs by statistic (`DB time`, `DB CPU`).
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub time_model: FlatMap<Name, u64>,
    #[serde(
        default,
        skip_serializing_if = "FlatMap::is_empty",
        serialize_with = "integral_as_int"
    )]
    pub os: FlatMap<Name, f64>,
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub iostat: FlatMap<Name, IoStat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dests: Vec<Dest>,
    /// Slow-changing parts may be fetched every 60 s only; `None` means "not fetched this time".
    /// The slow parts that hold lists or texts are shared (`Arc`; `fra` is a few numbers,
    /// copied): the engine carries the latest read into every sample after it (`slow::fill`),
    /// which is then a count, not a copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logs: Option<Arc<Logs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches: Option<Arc<Vec<LogSwitch>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dg: Option<DgStats>,
    /// Only an Active Data Guard standby fills this; a mounted standby has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lag_hist: Option<Vec<LagHistRow>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Recovery>,
    #[serde(default, skip_serializing_if = "none_running")]
    pub processes: Arc<Vec<Process>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Arc<BTreeMap<Name, Name>>>,
    /// Standby: `V$ARCHIVE_GAP`. `None` = not read; an empty list = read, no gap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gaps: Option<Vec<Gap>>,
    /// `V$RECOVERY_FILE_DEST`: the recovery area's limit and use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fra: Option<Fra>,
    /// `V$DATAGUARD_STATUS` rows newer than the previous sample's, each message once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dg_messages: Option<Vec<DgMessage>>,
    /// RAC only: each instance's rows before summing (the top level stays the cluster sum).
    /// Sorted by `inst_id`; `None` on a single-instance database or when nothing was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<Vec<InstanceSample>>,
    /// `V$DATAGUARD_CONFIG` (12.2+): every member of the configuration and the member that
    /// sends it redo (`parent`), as seen from this database. The first row is this database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dg_config: Option<Arc<Vec<DgMember>>>,
    /// `V$DATABASE.CDB` (12.1+): the database is a multitenant container database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cdb: Option<bool>,
    /// `V$DATAFILE` files whose `UNRECOVERABLE_CHANGE#` is set (a NOLOGGING change the
    /// standby could not receive), read once a minute: `None` = not read, empty = none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrecoverable: Option<Arc<Vec<Unrecoverable>>>,
    /// `V$SESSION`: what sessions wait on now (in-flight, non-idle waits, background
    /// processes included), grouped by event, longest first, at most [`WAITS_NOW_MAX`]
    /// events. Read every sample: `None` = not read, empty = read, nobody waiting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits_now: Option<Vec<WaitNow>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<PartError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<SampleError>,
}

/// `processes` is left out of a sample's JSON when it holds none (most primaries).
fn none_running(p: &Arc<Vec<Process>>) -> bool {
    p.is_empty()
}

impl Sample {
    /// An empty sample: a starting point for sources and fixtures.
    pub fn new(t: Timestamp, slot: Slot) -> Self {
        Sample {
            t,
            slot,
            query_us: None,
            db: None,
            events: FlatMap::new(),
            stats: FlatMap::new(),
            time_model: FlatMap::new(),
            os: FlatMap::new(),
            iostat: FlatMap::new(),
            dests: Vec::new(),
            logs: None,
            switches: None,
            dg: None,
            lag_hist: None,
            recovery: None,
            processes: Arc::default(),
            params: None,
            gaps: None,
            fra: None,
            dg_messages: None,
            instances: None,
            dg_config: None,
            cdb: None,
            unrecoverable: None,
            waits_now: None,
            errors: Vec::new(),
            error: None,
        }
    }

    /// A sample that failed as a whole (connection lost, timeout …): data, not a crash.
    pub fn failed(t: Timestamp, slot: Slot, kind: SampleErrorKind, message: String) -> Self {
        let mut s = Sample::new(t, slot);
        s.error = Some(SampleError { kind, message });
        s
    }

    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Gives back the spare capacity its maps and lists were built with: a sample the engine
    /// keeps for its raw span is kept for minutes, hundreds of them per pair. A sample cloned
    /// from another (a recording's reader) has none, and this costs it a comparison per part.
    pub fn shrink_to_fit(&mut self) {
        self.events.shrink_to_fit();
        self.stats.shrink_to_fit();
        self.time_model.shrink_to_fit();
        self.os.shrink_to_fit();
        self.iostat.shrink_to_fit();
        self.dests.shrink_to_fit();
        if self.processes.capacity() > self.processes.len() {
            if let Some(p) = Arc::get_mut(&mut self.processes) {
                p.shrink_to_fit();
            }
        }
        for i in self.instances.iter_mut().flatten() {
            i.events.shrink_to_fit();
            i.stats.shrink_to_fit();
            i.os.shrink_to_fit();
        }
    }

    pub fn startup(&self) -> Option<Timestamp> {
        self.db.as_ref().and_then(|d| d.startup)
    }

    pub fn role(&self) -> Option<&Role> {
        self.db.as_ref().and_then(|d| d.role.as_ref())
    }

    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats.get(name).copied()
    }

    /// A remote SYNC (or FASTSYNC) destination that is not inactive: 11.2's `LNS wait on
    /// SENDREQ` is a commit-path (SYNC remote) wait only then; under ASYNC it is the
    /// shipping process's own wait.
    pub fn has_sync_dest(&self) -> bool {
        self.dests
            .iter()
            .any(|d| d.mode.is_sync() && d.status != DestStatus::Inactive)
    }
}

/// `V$DATABASE` + `V$INSTANCE` identity. `startup` changing means counters were reset.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DbInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_mode: Option<OpenMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection_mode: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection_level: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
    /// `V$DATABASE.SWITCHOVER_STATUS` as spelled (`TO STANDBY`, `SESSIONS ACTIVE`,
    /// `NOT ALLOWED`, `TO PRIMARY`, `RECOVERY NEEDED` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switchover_status: Option<Name>,
    /// `V$DATABASE.DATAGUARD_BROKER`: `ENABLED` or `DISABLED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataguard_broker: Option<Name>,
    /// `V$DATABASE.FS_FAILOVER_STATUS` (`DISABLED`, `SYNCHRONIZED`, `UNSYNCHRONIZED`,
    /// `TARGET UNDER LAG LIMIT`, `TARGET OVER LAG LIMIT`, `BYSTANDER`, `SUSPENDED`, `STALLED`,
    /// `LOADING DICTIONARY`, `PRIMARY UNOBSERVED`, `REINSTATE REQUIRED` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_status: Option<Name>,
    /// `V$DATABASE.FS_FAILOVER_CURRENT_TARGET`: the DB_UNIQUE_NAME of the failover target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_target: Option<Name>,
    /// `V$DATABASE.FS_FAILOVER_THRESHOLD` in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_threshold_s: Option<u64>,
    /// `V$DATABASE.FS_FAILOVER_OBSERVER_PRESENT` (`YES`/`NO`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_observer_present: Option<bool>,
    /// `V$DATABASE.FS_FAILOVER_OBSERVER_HOST`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_observer_host: Option<Name>,
    /// The broker's `FastStartFailoverLagLimit` in seconds, where the source knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_failover_lag_limit_s: Option<u64>,
    /// `V$DATABASE.FORCE_LOGGING` as spelled (`YES`, `NO`; 18c+ also the standby
    /// NOLOGGING modes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_logging: Option<Name>,
    /// `V$DATABASE.FLASHBACK_ON` (`YES`, `NO`, `RESTORE POINT ONLY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flashback_on: Option<Name>,
    /// The broker's intended state of this member (`APPLY-ON`, `APPLY-OFF`,
    /// `TRANSPORT-ON`, `TRANSPORT-OFF`), where the source knows it (the twin, recordings);
    /// docs/ORACLE.md says why the Oracle source leaves it absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended_state: Option<Name>,
}

/// One RAC instance's share of a sample: the same shapes as the sample's top level
/// (`events`, `stats`, `os`), read from the GV$ rows of that `INST_ID` only. Its `os` is
/// that host's own (`NUM_CPUS`, `LOAD` …), never a sum or a maximum over hosts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceSample {
    pub inst_id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<Name>,
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub events: FlatMap<Name, Event>,
    #[serde(default, skip_serializing_if = "FlatMap::is_empty")]
    pub stats: FlatMap<Name, u64>,
    #[serde(
        default,
        skip_serializing_if = "FlatMap::is_empty",
        serialize_with = "integral_as_int"
    )]
    pub os: FlatMap<Name, f64>,
}

/// A `V$DATAGUARD_CONFIG` row: a member of the Data Guard configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DgMember {
    /// `DB_UNIQUE_NAME`.
    pub name: Name,
    /// `PARENT_DBUN`: the member that supplies live redo to this one (none for the primary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<Name>,
    /// `DEST_ROLE` as spelled (`PRIMARY DATABASE`, `PHYSICAL STANDBY`, `FAR SYNC STANDBY` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Name>,
}

/// A wait event: cumulative `TOTAL_WAITS`, `TIME_WAITED_MICRO` and histogram buckets.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Event {
    pub waits: u64,
    pub us: Micros,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hist: Vec<Bucket>,
    /// `TOTAL_WAITS_FG`: the foreground share (background = `waits` − this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits_fg: Option<u64>,
    /// `TIME_WAITED_MICRO_FG`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub us_fg: Option<Micros>,
    /// `WAIT_CLASS`, on the events read as the top of the database's waits (not on the
    /// commit path's, which are read by name): such an event absent from an earlier sample
    /// was not among the top then, so it has no delta, rather than one from zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Name>,
}

/// `[exclusive upper bound in µs, cumulative wait count]`. The bucket with bound `b` holds waits
/// in `[b/2, b)`; the first bucket starts at 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket(pub Micros, pub u64);

impl Bucket {
    pub fn upper(&self) -> Micros {
        self.0
    }
    pub fn count(&self) -> u64 {
        self.1
    }
}

/// `V$IOSTAT_FILE` summed per file type; cumulative requests, megabytes and service ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IoStat {
    pub rreq: u64,
    pub wreq: u64,
    pub rmb: u64,
    pub wmb: u64,
    pub rms: u64,
    pub wms: u64,
}

/// A remote `LOG_ARCHIVE_DEST_n` as the primary sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dest {
    pub id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Name>,
    pub status: DestStatus,
    pub mode: TransmitMode,
    #[serde(default)]
    pub affirm: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net_timeout_s: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<Name>,
    #[serde(default)]
    pub error: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived_seq: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_seq: Option<u64>,
    /// `V$REDO_DEST_RESP_HISTOGRAM` as `[duration_s, cumulative frequency]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resp_hist: Vec<(u64, u64)>,
    /// `V$ARCHIVE_DEST.DB_UNIQUE_NAME`: match a destination to a standby by this, never by order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db_unique_name: Option<Name>,
    /// `V$ARCHIVE_DEST_STATUS.TYPE` as spelled (`PHYSICAL`, `FAR SYNC`, `LOGICAL`, `SNAPSHOT` …).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub dest_type: Option<Name>,
    /// `V$ARCHIVE_DEST.DELAY_MINS` (0 = no delay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_mins: Option<u32>,
    /// `V$ARCHIVE_DEST_STATUS.RECOVERY_MODE` as spelled (`MANAGED REAL TIME APPLY`, `IDLE` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery_mode: Option<Name>,
    /// `V$ARCHIVE_DEST_STATUS.DATABASE_MODE` (`MOUNTED-STANDBY`, `OPEN_READ-ONLY` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database_mode: Option<Name>,
    /// `V$ARCHIVE_DEST_STATUS.SYNCHRONIZATION_STATUS` (12.1+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synchronization_status: Option<Name>,
    /// `V$ARCHIVE_DEST_STATUS.STANDBY_LOGFILE_COUNT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub srl_count: Option<u32>,
    /// `V$ARCHIVE_DEST_STATUS.STANDBY_LOGFILE_ACTIVE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub srl_active: Option<u32>,
    /// `V$ARCHIVE_DEST.REOPEN_SECS`: how long a failed destination waits before a retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reopen_secs: Option<u64>,
    /// `V$ARCHIVE_DEST.MAX_FAILURE` (0 = retry without limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failure: Option<u32>,
    /// `V$ARCHIVE_DEST.FAILURE_COUNT`: consecutive failures so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_count: Option<u32>,
    /// `V$ARCHIVE_DEST.FAIL_DATE`: when the destination last failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_date: Option<Timestamp>,
    /// `V$ARCHIVE_DEST.BINDING` as spelled (`MANDATORY`, `OPTIONAL`): an online log cannot be
    /// reused until a MANDATORY destination has it, so a failing one stops the primary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<Name>,
}

impl Dest {
    /// `BINDING = MANDATORY`.
    pub fn is_mandatory(&self) -> bool {
        self.binding
            .as_deref()
            .is_some_and(|b| b.eq_ignore_ascii_case("MANDATORY"))
    }
}

impl Default for Dest {
    /// A blank destination for fixtures and sources to fill in (`VALID`, `ASYNC`).
    fn default() -> Self {
        Dest {
            id: 0,
            name: None,
            status: DestStatus::Valid,
            mode: TransmitMode::Async,
            affirm: false,
            compression: None,
            net_timeout_s: None,
            gap: None,
            error: None,
            archived_seq: None,
            applied_seq: None,
            resp_hist: Vec::new(),
            db_unique_name: None,
            dest_type: None,
            delay_mins: None,
            recovery_mode: None,
            database_mode: None,
            synchronization_status: None,
            srl_count: None,
            srl_active: None,
            reopen_secs: None,
            max_failure: None,
            failure_count: None,
            fail_date: None,
            binding: None,
        }
    }
}

impl Dest {
    pub fn has_gap(&self) -> bool {
        self.gap
            .as_deref()
            .is_some_and(|g| !g.trim().is_empty() && !g.eq_ignore_ascii_case("NO GAP"))
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Logs {
    #[serde(default)]
    pub online: Vec<Log>,
    #[serde(default)]
    pub standby: Vec<Log>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log {
    pub group: u32,
    pub thread: u32,
    pub sequence: u64,
    pub bytes: u64,
    pub members: u32,
    pub status: LogStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used: Option<u64>,
    /// `BLOCKSIZE` in bytes (512, 4096): an SRL of another block size than the online logs
    /// is never used by RFS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocksize: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogSwitch {
    pub thread: u32,
    pub sequence: u64,
    pub time: Timestamp,
}

/// `V$DATAGUARD_STATS`, lags parsed from interval strings; `None` when Oracle reports none.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DgStats {
    #[serde(default)]
    pub transport_lag_s: Option<Secs>,
    #[serde(default)]
    pub apply_lag_s: Option<Secs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_finish_s: Option<Secs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computed: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datum: Option<Timestamp>,
    /// The instance the figures were read from (on a RAC standby: the one running MRP0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inst_id: Option<u32>,
}

/// A `V$STANDBY_EVENT_HISTOGRAM` row, its bucket converted to seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LagHistRow {
    pub name: Name,
    pub lag_s: u64,
    pub count: u64,
}

/// `V$RECOVERY_PROGRESS` items of the current media recovery.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Recovery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_apply_kbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_apply_kbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_apply_kbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redo_applied_mb: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_applied: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply_time_per_log_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_time_per_log_s: Option<f64>,
}

/// A `V$DATAGUARD_PROCESS` (or `V$MANAGED_STANDBY`) row.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Process {
    pub name: Name,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<u64>,
    /// `DELAY_MINS` of the row (apply delay in minutes; 0 = none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_mins: Option<u32>,
    /// The instance (GV$) the process runs on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inst_id: Option<u32>,
}

/// A `V$ARCHIVE_GAP` row: the standby misses sequences `low..=high` of `thread`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gap {
    pub thread: u32,
    pub low: u64,
    pub high: u64,
}

impl Gap {
    /// How many archived logs are missing.
    pub fn missing(&self) -> u64 {
        self.high.saturating_sub(self.low).saturating_add(1)
    }
}

/// `V$RECOVERY_FILE_DEST`: `SPACE_LIMIT`, `SPACE_USED`, `SPACE_RECLAIMABLE`, `NUMBER_OF_FILES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fra {
    pub limit_bytes: u64,
    pub used_bytes: u64,
    #[serde(default)]
    pub reclaimable_bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<u64>,
}

impl Fra {
    /// Share of the limit in use net of what can be reclaimed, in percent; `None` without a
    /// limit (0 means no recovery area is configured).
    pub fn used_net_pct(&self) -> Option<f64> {
        (self.limit_bytes > 0).then(|| {
            self.used_bytes.saturating_sub(self.reclaimable_bytes) as f64 * 100.0
                / self.limit_bytes as f64
        })
    }
}

/// A `V$DATAFILE` row with an `UNRECOVERABLE_CHANGE#`: a NOLOGGING change the redo did not
/// carry, so the standby's copy of those blocks is not usable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unrecoverable {
    /// `FILE#`.
    pub file: u32,
    /// `UNRECOVERABLE_CHANGE#`.
    pub change: u64,
    /// `UNRECOVERABLE_TIME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Timestamp>,
}

/// The most events a sample keeps in [`Sample::waits_now`] (the longest waits first).
pub const WAITS_NOW_MAX: usize = 8;

/// One event that sessions of `V$SESSION` wait on now (`STATE = 'WAITING'`, `WAIT_CLASS`
/// not `Idle`): how many, for how long the longest has waited, and who blocks it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaitNow {
    /// `EVENT`, as spelled (`log file sync`, `log file switch (archiving needed)` …).
    pub event: Name,
    /// `WAIT_CLASS` (`Commit`, `Configuration`, `Concurrency` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Name>,
    /// Sessions waiting on it now (foreground and background).
    pub sessions: u32,
    /// The longest of those waits so far, seconds (`WAIT_TIME_MICRO`, 11g+).
    pub longest_s: f64,
    /// `PROGRAM` of the session blocking the longest waiter (`BLOCKING_SESSION`), e.g.
    /// `oracle@db1 (LGWR)`; absent when nothing blocks it or the blocker is not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocker: Option<Name>,
}

impl WaitNow {
    /// The blocker's process name: `LGWR` from `oracle@db1 (LGWR)`, else the program.
    pub fn blocker_short(&self) -> Option<&str> {
        let p = self.blocker.as_deref()?;
        Some(
            p.rfind('(')
                .and_then(|i| p[i + 1..].strip_suffix(')'))
                .filter(|s| !s.is_empty())
                .unwrap_or(p),
        )
    }
}

/// A `V$DATAGUARD_STATUS` row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DgMessage {
    pub time: Timestamp,
    /// As spelled: `Informational`, `Warning`, `Error`, `Fatal`, `Control`.
    pub severity: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facility: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dest_id: Option<u32>,
    pub message: String,
}

impl DgMessage {
    /// Severity `Error` or `Fatal`.
    pub fn is_error(&self) -> bool {
        self.severity.eq_ignore_ascii_case("error") || self.severity.eq_ignore_ascii_case("fatal")
    }
}

/// One part of a sample that failed while the rest worked (e.g. ORA-00942 on one view).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartError {
    pub part: String,
    pub code: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleError {
    pub kind: SampleErrorKind,
    pub message: String,
}

/// A note on the timeline: user marks and events such as "baseline set".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub t: Timestamp,
    pub text: String,
}

/// `V$OSSTAT` mixes integer counters (centiseconds) with a float (`LOAD`); write integral values
/// without a trailing `.0` so recordings read like the view.
fn integral_as_int<S: Serializer>(map: &FlatMap<Name, f64>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(map.len()))?;
    for (k, v) in map {
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            m.serialize_entry(k, &(*v as i64))?;
        } else {
            m.serialize_entry(k, v)?;
        }
    }
    m.end()
}
