//! One file per cause family. A rule looks at the context and, when its condition holds now,
//! returns the finding it would raise; hysteresis and ranking happen in the engine.

mod commit_path;
mod config;
mod lag;
mod standby_state;

pub(crate) use config::{srl_layout, switches_per_hour};
pub(crate) use lag::transport_lag_slope;

use super::context::Context;
use super::finding::{Evidence, Finding, Severity};
use super::thresholds::Thresholds;
use super::verify::VerifyKey;

pub type Rule = fn(&Context, &Thresholds) -> Option<Finding>;

/// Every rule with its catalog id, in catalog order (part 2, the standby's own state, after
/// part 1).
pub const RULES: &[(&str, Rule)] = &[
    (
        commit_path::STANDBY_REDO_WRITE_SLOW,
        commit_path::standby_redo_write_slow,
    ),
    (commit_path::NETWORK_LATENCY, commit_path::network_latency),
    (
        commit_path::ADAPTIVE_LFS_POLLING,
        commit_path::adaptive_lfs_polling,
    ),
    (commit_path::LGWR_CPU_STARVED, commit_path::lgwr_cpu_starved),
    (commit_path::LGWR_WRITE_SLOW, commit_path::lgwr_write_slow),
    (commit_path::LFS_OUTLIER_SKEW, commit_path::lfs_outlier_skew),
    (config::LOG_SWITCH_FREQUENT, config::log_switch_frequent),
    (lag::TRANSPORT_BANDWIDTH, lag::transport_bandwidth),
    (lag::APPLY_BOUND, lag::apply_bound),
    (config::STANDBY_IO_SATURATED, config::standby_io_saturated),
    (lag::LAG_STALE, lag::lag_stale),
    (lag::DEST_ERROR, lag::dest_error),
    (lag::STANDBY_DOWN, lag::standby_down),
    (config::SRL_CONFIG, config::srl_config),
    (config::REDO_SIZING, config::redo_sizing),
    (standby_state::APPLY_STOPPED, standby_state::apply_stopped),
    (
        standby_state::APPLY_WAITING_FOR_GAP,
        standby_state::apply_waiting_for_gap,
    ),
    (
        standby_state::STANDBY_FRA_FULL,
        standby_state::standby_fra_full,
    ),
    (
        standby_state::TRANSPORT_LAG_UNKNOWN,
        standby_state::transport_lag_unknown,
    ),
    (standby_state::DEST_DEFERRED, standby_state::dest_deferred),
    (
        standby_state::PROTECTION_DEGRADED,
        standby_state::protection_degraded,
    ),
    (standby_state::SYNC_STALL, standby_state::sync_stall),
    (standby_state::DG_ERROR, standby_state::dg_error),
    (standby_state::APPLY_DELAYED, standby_state::apply_delayed),
];

/// Rules that judge a state rather than rates: they speak even while metrics warm up.
pub const STATE_RULES: &[&str] = &[
    lag::STANDBY_DOWN,
    lag::DEST_ERROR,
    lag::LAG_STALE,
    standby_state::APPLY_STOPPED,
    standby_state::APPLY_WAITING_FOR_GAP,
    standby_state::STANDBY_FRA_FULL,
    standby_state::TRANSPORT_LAG_UNKNOWN,
    standby_state::DEST_DEFERRED,
    standby_state::PROTECTION_DEGRADED,
    standby_state::SYNC_STALL,
    standby_state::DG_ERROR,
    standby_state::APPLY_DELAYED,
];

/// Rules judged from the standby's own figures alone. When the standby's samples start to
/// fail those figures are stale, so a finding of these clears at once instead of lingering
/// through the 30 s clear delay as if it still described now.
pub const STANDBY_JUDGED: &[&str] = &[
    commit_path::STANDBY_REDO_WRITE_SLOW,
    lag::TRANSPORT_BANDWIDTH,
    lag::APPLY_BOUND,
    config::STANDBY_IO_SATURATED,
    lag::LAG_STALE,
    config::SRL_CONFIG,
    standby_state::APPLY_STOPPED,
    standby_state::STANDBY_FRA_FULL,
    standby_state::TRANSPORT_LAG_UNKNOWN,
];

/// What a standby after the first is judged for: its own state and lag. The primary's side
/// (commit path, log switches, its destinations) is judged once, with the first standby
/// (`pipeline::Judge`), not again for every standby; so is the storage comparison with the
/// primary (`standby-io-saturated`), which is about the standby the commit path waits on.
pub const OTHER_STANDBY_RULES: &[&str] = &[
    lag::STANDBY_DOWN,
    lag::LAG_STALE,
    lag::TRANSPORT_BANDWIDTH,
    lag::APPLY_BOUND,
    standby_state::APPLY_STOPPED,
    standby_state::APPLY_WAITING_FOR_GAP,
    standby_state::STANDBY_FRA_FULL,
    standby_state::TRANSPORT_LAG_UNKNOWN,
    standby_state::APPLY_DELAYED,
];

/// Rules about redo apply. A far sync instance applies nothing (it only receives and
/// forwards redo), so none of these is judged when the standby's role is `FAR SYNC`: no
/// "MRP not running" for a member that never runs MRP.
pub const APPLY_RULES: &[&str] = &[
    lag::APPLY_BOUND,
    standby_state::APPLY_STOPPED,
    standby_state::APPLY_WAITING_FOR_GAP,
    standby_state::APPLY_DELAYED,
];

/// The standby's own state (catalog part 2): when one of these holds it is usually the root
/// cause of the lag part 1 measures, so it ranks ahead of part-1 findings of equal severity.
pub const ROOT_TIER: &[&str] = &[
    standby_state::APPLY_STOPPED,
    standby_state::APPLY_WAITING_FOR_GAP,
    standby_state::STANDBY_FRA_FULL,
    standby_state::TRANSPORT_LAG_UNKNOWN,
    standby_state::DEST_DEFERRED,
    standby_state::PROTECTION_DEGRADED,
];

pub(crate) use standby_state::STANDBY_FRA_FULL;

pub(crate) fn ev(
    metric: &str,
    value: f64,
    unit: &str,
    threshold: Option<String>,
    source: &str,
) -> Evidence {
    Evidence {
        metric: metric.to_string(),
        value,
        unit: unit.to_string(),
        threshold,
        source: source.to_string(),
    }
}

/// The parts every finding has; rules fill in the rest.
pub(crate) struct Draft {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    pub evidence: Vec<Evidence>,
    pub meaning: &'static str,
    pub check: &'static [VerifyKey],
    pub advice: &'static [&'static str],
    pub explains: f64,
}

impl Draft {
    pub fn finish(self, ctx: &Context) -> Finding {
        Finding {
            id: self.id,
            severity: self.severity,
            title: self.title,
            evidence: self.evidence,
            meaning: self.meaning.to_string(),
            verify: self.check.to_vec(),
            advice: self.advice.iter().map(|s| s.to_string()).collect(),
            what_if: Vec::new(),
            explains: self.explains.max(0.0),
            since: ctx.now,
            caused_by: None,
            standby: None,
        }
    }
}

impl Draft {
    /// As [`Draft::finish`], with advice built from the finding's own evidence instead of
    /// the static list (advice must never contradict what the evidence shows).
    pub fn finish_advising(self, ctx: &Context, advice: Vec<String>) -> Finding {
        let mut f = self.finish(ctx);
        f.advice = advice;
        f
    }
}

pub(crate) fn ms(v: f64) -> String {
    format!("{v:.2} ms")
}
