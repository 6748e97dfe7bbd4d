//! One file per cause family. A rule looks at the context and, when its condition holds now,
//! returns the finding it would raise; hysteresis and ranking happen in the engine.

mod commit_path;
mod config;
mod lag;

pub(crate) use config::switches_per_hour;
pub(crate) use lag::transport_lag_slope;

use super::context::Context;
use super::finding::{Evidence, Finding, Severity};
use super::thresholds::Thresholds;
use crate::source::oracle::verify::VerifySql;

pub type Rule = fn(&Context, &Thresholds) -> Option<Finding>;

/// Every rule with its catalog id, in catalog order.
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
];

/// Rules that judge a state rather than rates: they speak even while metrics warm up.
pub const STATE_RULES: &[&str] = &[lag::STANDBY_DOWN, lag::DEST_ERROR, lag::LAG_STALE];

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

pub(crate) fn sql(items: &[VerifySql]) -> Vec<String> {
    items
        .iter()
        .map(|v| {
            format!(
                "-- {} (run on the {})\n{}",
                v.name,
                v.run_on.as_str(),
                v.sql
            )
        })
        .collect()
}

/// The parts every finding has; rules fill in the rest.
pub(crate) struct Draft {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    pub evidence: Vec<Evidence>,
    pub meaning: &'static str,
    pub check: &'static [VerifySql],
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
            check_sql: sql(self.check),
            advice: self.advice.iter().map(|s| s.to_string()).collect(),
            what_if: Vec::new(),
            explains: self.explains.max(0.0),
            since: ctx.now,
        }
    }
}

pub(crate) fn ms(v: f64) -> String {
    format!("{v:.2} ms")
}
