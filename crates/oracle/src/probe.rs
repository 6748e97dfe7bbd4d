//! The connect-time probe: who is this database, and which SQL variant fits it.

use super::driver::{Conn, Row};
use super::errors::{ErrCode, OraError};
use super::sql::{self, DbKind, Features};
use dgscope_model::sample::{OpenMode, Role};
use std::collections::BTreeSet;

/// What the probe found, once per connection.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub version: String,
    pub version_full: Option<String>,
    pub instance_number: Option<u32>,
    pub instance_status: Option<String>,
    pub role: Role,
    pub open_mode: OpenMode,
    pub db_unique_name: Option<String>,
    pub protection_mode: Option<String>,
    pub protection_level: Option<String>,
    pub instances: u32,
    /// `V$DATABASE.CDB = 'YES'` (12.1+); `None` before 12.1 or when it could not be read.
    pub cdb: Option<bool>,
    /// Fixed views (of those dgscope may use) that exist in this release.
    pub fixed_views: BTreeSet<String>,
    pub features: Features,
}

impl Probe {
    pub fn kind(&self) -> DbKind {
        match self.role {
            Role::Primary => DbKind::Primary,
            // A far sync instance must not be sampled as a standby: it has no MRP, no apply
            // and no V$RECOVERY_PROGRESS to read.
            Role::FarSync => DbKind::FarSync,
            _ => DbKind::Standby,
        }
    }

    pub fn major(&self) -> Option<u32> {
        major_version(&self.version)
    }

    /// The release string to show: `VERSION_FULL` (18c+) when read, else `VERSION`.
    pub fn release(&self) -> &str {
        self.version_full.as_deref().unwrap_or(&self.version)
    }
}

pub(crate) fn major_version(v: &str) -> Option<u32> {
    v.trim().split('.').next()?.parse().ok()
}

fn col(r: &Row, i: usize) -> Option<&str> {
    r.get(i).and_then(|c| c.as_deref()).map(str::trim)
}

/// Runs the probe statements (SQL from `sql.rs`) and picks the features.
pub fn run(conn: &mut dyn Conn) -> Result<Probe, OraError> {
    let rows = conn.query(sql::PROBE_IDENTITY)?;
    let r = rows.first().ok_or_else(|| {
        OraError::new(
            ErrCode::Other,
            "the probe of V$INSTANCE/V$DATABASE returned no row",
        )
    })?;
    let version = col(r, 0).unwrap_or("").to_string();
    let fixed: BTreeSet<String> = conn
        .query(&sql::probe_fixed_views())?
        .iter()
        .filter_map(|r| col(r, 0).map(str::to_ascii_uppercase))
        .collect();
    let major = major_version(&version);
    let yes = |v: &str| v.eq_ignore_ascii_case("YES");
    // Failures here are not worth losing the connection over: VERSION is enough, and an
    // unknown CDB flag only means the container warning cannot be given.
    let full = if major.is_some_and(|m| m >= 18) {
        conn.query(sql::PROBE_VERSION_FULL)
            .ok()
            .and_then(|rows| rows.into_iter().next())
    } else {
        None
    };
    let version_full = full.as_ref().and_then(|r| col(r, 0)).map(str::to_string);
    let mut cdb = full.as_ref().and_then(|r| col(r, 1)).map(yes);
    if cdb.is_none() && major.is_some_and(|m| m >= 12) {
        cdb = conn
            .query(sql::PROBE_CDB)
            .ok()
            .and_then(|rows| rows.first().and_then(|r| col(r, 0)).map(yes));
    }
    let features = Features {
        micro_hist: fixed.contains("GV$EVENT_HISTOGRAM_MICRO"),
        dg_process: fixed.contains("GV$DATAGUARD_PROCESS"),
        // Unknown version: assume a modern release (the 12c+ names are harmless there).
        lns_events: major.is_some_and(|m| m < 12),
        version_full: version_full.is_some(),
        // The contract has the column from 12.1; an unknown version is taken as modern, as
        // above (the dests part falls back without it on ORA-00904).
        sync_status: major.is_none_or(|m| m >= 12),
        con_id: major.is_none_or(|m| m >= 12),
        // The view exists in every release; PARENT_DBUN/DEST_ROLE come with 12.2, the same
        // release as GV$DATAGUARD_PROCESS.
        dg_config: fixed.contains("GV$DATAGUARD_PROCESS") && fixed.contains("V$DATAGUARD_CONFIG"),
        // 21c+: the broker's properties as a fixed view (FastStartFailoverLagLimit).
        broker_props: fixed.contains("V$DG_BROKER_PROPERTY"),
    };
    Ok(Probe {
        version,
        version_full,
        instance_number: col(r, 1).and_then(|s| s.parse().ok()),
        instance_status: col(r, 2).map(str::to_string),
        role: Role::from(col(r, 3).unwrap_or("UNKNOWN")),
        open_mode: OpenMode::from(col(r, 4).unwrap_or("UNKNOWN")),
        db_unique_name: col(r, 5).map(str::to_string),
        protection_mode: col(r, 6).map(str::to_string),
        protection_level: col(r, 7).map(str::to_string),
        instances: col(r, 8).and_then(|s| s.parse().ok()).unwrap_or(1),
        cdb,
        fixed_views: fixed,
        features,
    })
}
