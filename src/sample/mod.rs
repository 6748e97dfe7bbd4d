//! The `Sample` contract (../shared/design/SAMPLE-AND-RECORDING.md): what every source emits,
//! raw cumulative counters exactly as Oracle reports them, and what a recording line holds.

mod enums;
pub mod index;
pub mod names;
pub mod recording;

pub use enums::{DestStatus, LogStatus, OpenMode, Role, SampleErrorKind, TransmitMode};

use crate::timestamp::Timestamp;
use crate::units::{Micros, Secs};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// Which connection a sample came from: `primary`, `standby`, or `standby:<name>`. The
/// database's own role lives in `db.role` because a switchover swaps roles, not slots.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Slot(pub String);

impl Slot {
    pub fn primary() -> Self {
        Slot("primary".into())
    }
    pub fn standby() -> Self {
        Slot("standby".into())
    }
    pub fn named_standby(name: &str) -> Self {
        Slot(format!("standby:{name}"))
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
        Slot(s.to_string())
    }
}

/// One sample of one database. Absent data is `None`/empty and is never written as zero.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub t: Timestamp,
    pub slot: Slot,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<DbInfo>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub events: BTreeMap<String, Event>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, u64>,
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        serialize_with = "integral_as_int"
    )]
    pub os: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub iostat: BTreeMap<String, IoStat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dests: Vec<Dest>,
    /// Slow-changing parts may be fetched every 60 s only; `None` means "not fetched this time".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logs: Option<Logs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches: Option<Vec<LogSwitch>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dg: Option<DgStats>,
    /// Only an Active Data Guard standby fills this; a mounted standby has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lag_hist: Option<Vec<LagHistRow>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Recovery>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub processes: Vec<Process>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<PartError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<SampleError>,
}

impl Sample {
    /// An empty sample: a starting point for sources and fixtures.
    pub fn new(t: Timestamp, slot: Slot) -> Self {
        Sample {
            t,
            slot,
            query_us: None,
            db: None,
            events: BTreeMap::new(),
            stats: BTreeMap::new(),
            os: BTreeMap::new(),
            iostat: BTreeMap::new(),
            dests: Vec::new(),
            logs: None,
            switches: None,
            dg: None,
            lag_hist: None,
            recovery: None,
            processes: Vec::new(),
            params: None,
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

    pub fn startup(&self) -> Option<Timestamp> {
        self.db.as_ref().and_then(|d| d.startup)
    }

    pub fn role(&self) -> Option<&Role> {
        self.db.as_ref().and_then(|d| d.role.as_ref())
    }

    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats.get(name).copied()
    }
}

/// `V$DATABASE` + `V$INSTANCE` identity. `startup` changing means counters were reset.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DbInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_mode: Option<OpenMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection_level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
}

/// A wait event: cumulative `TOTAL_WAITS`, `TIME_WAITED_MICRO` and histogram buckets.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Event {
    pub waits: u64,
    pub us: Micros,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hist: Vec<Bucket>,
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
    pub name: Option<String>,
    pub status: DestStatus,
    pub mode: TransmitMode,
    #[serde(default)]
    pub affirm: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net_timeout_s: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived_seq: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_seq: Option<u64>,
    /// `V$REDO_DEST_RESP_HISTOGRAM` as `[duration_s, cumulative frequency]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resp_hist: Vec<(u64, u64)>,
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
}

/// A `V$STANDBY_EVENT_HISTOGRAM` row, its bucket converted to seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LagHistRow {
    pub name: String,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Process {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<u64>,
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
fn integral_as_int<S: Serializer>(map: &BTreeMap<String, f64>, s: S) -> Result<S::Ok, S::Error> {
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
