//! What the Oracle collector writes to the log: connects and disconnects, the probe's answer
//! and the SQL variant it chose, every ORA-/DPI- code with its classification, parts dropped
//! for a missing grant, and the reconnect backoff. One function per event so the collector
//! carries one line per event and the log's wording lives here.
//!
//! Connect strings are logged as `ConnSpec` displays them (no password can be in one: they
//! are refused at parsing); nothing here ever sees a `Secret`.

use super::errors::{Explanation, OraError};
use super::probe::Probe;
use super::sql::{self, Features};
use dgscope_model::sample::Slot;
use std::time::Duration;

/// The `sql::variants` label whose features the probe found, or the features themselves
/// when they match no named release (a mix dgscope has no contract test for).
pub fn variant_label(f: Features) -> String {
    sql::variants()
        .into_iter()
        .find(|v| v.features == f)
        .map(|v| v.label.to_string())
        .unwrap_or_else(|| format!("custom {f:?}"))
}

pub fn connecting(slot: &Slot, target: &str, privilege: &str) {
    tracing::info!(slot = %slot, target, privilege, "connecting");
}

pub fn connected(slot: &Slot, probe: &Probe) {
    tracing::info!(
        slot = %slot,
        version = probe.version_full.as_deref().unwrap_or(&probe.version),
        role = probe.role.as_str(),
        open_mode = probe.open_mode.as_str(),
        db_unique_name = probe.db_unique_name.as_deref().unwrap_or("?"),
        instances = probe.instances,
        cdb = ?probe.cdb,
        variant = variant_label(probe.features),
        "connected; probe chose SQL variant {}",
        variant_label(probe.features)
    );
}

/// A role change (switchover, failover) probed again.
pub fn reprobed(slot: &Slot, probe: &Probe) {
    tracing::info!(
        slot = %slot,
        role = probe.role.as_str(),
        variant = variant_label(probe.features),
        "role changed; probed again"
    );
}

/// Any ORA-/DPI- error that ended a connect or a sample, with how dgscope classified it.
pub fn error(slot: &Slot, e: &OraError, ex: &Explanation) {
    tracing::warn!(
        slot = %slot,
        code = %e.code,
        class = ex.kind.as_str(),
        give_up = ex.give_up,
        "{}",
        ex.one_line()
    );
}

/// A part of the sample refused (missing grant, missing view): dropped until a retry works.
pub fn part_denied(slot: &Slot, part: &str, e: &OraError, ex: &Explanation) {
    tracing::warn!(
        slot = %slot,
        part,
        code = %e.code,
        class = ex.kind.as_str(),
        "part dropped: {}",
        ex.one_line()
    );
}

pub fn part_restored(slot: &Slot, part: &str) {
    tracing::info!(slot = %slot, part, "part readable again");
}

pub fn disconnected(slot: &Slot, why: &str) {
    tracing::info!(slot = %slot, "disconnected: {why}");
}

pub fn backoff(slot: &Slot, attempt: u32, delay: Duration) {
    tracing::info!(
        slot = %slot,
        attempt,
        delay_ms = delay.as_millis() as u64,
        "reconnecting after backoff"
    );
}

pub fn gave_up(slot: &Slot, reason: &str) {
    tracing::error!(slot = %slot, "gave up: {reason}");
}
