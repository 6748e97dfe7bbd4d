//! What-if figures, the plain data: what was observed ([`Observed`]), a change a DBA could
//! make ([`Change`]), what a model says it would do ([`WhatIf`]) and the model itself
//! ([`WhatIfModel`]). The causes engine fills [`Observed`] from its metrics and picks the
//! changes that fit a finding (`causes::whatif`); a model (the twin's) implements the trait
//! above both, so neither the causes nor the sources depend on the other.

use serde::Serialize;

/// A what-if figure computed by running the twin on parameters derived from the live metrics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhatIf {
    /// "FASTSYNC instead of SYNC"
    pub change: String,
    /// "log file sync 4.60 → 0.96 ms, TPS +23 %"
    pub outcome: String,
}

/// The observed figures a model needs to mirror the monitored pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observed {
    pub tps: Option<f64>,
    pub redo_mb_s: Option<f64>,
    pub lfs_ms: Option<f64>,
    pub lfpw_ms: Option<f64>,
    pub remote_ms: Option<f64>,
    pub rfs_ms: Option<f64>,
    /// `Some(affirm)` under SYNC, `None` for ASYNC or no destination.
    pub sync_affirm: Option<bool>,
    pub srl_members: Option<u32>,
    pub orl_mb: Option<f64>,
    pub switches_per_hour: Option<f64>,
    /// The log size (MB) that lasts 20 minutes on the busiest thread at the window's redo
    /// rate: the same figure `log-switch-frequent` shows (`causes::rates::log_size_for`).
    pub log_mb_for_20_min: Option<f64>,
    pub transport_lag_s: Option<f64>,
    /// Seconds of transport lag gained per second lately (> 0: the link is short).
    pub transport_lag_growth: Option<f64>,
}

/// Plausible ranges of the observed figures a model mirrors. Outside them a model would
/// simulate nonsense, or for ever (`bytes: 0` logs looped without end; 4 billion SRL members
/// looped 4 billion times per write; one byte per log made a 30 s check take 6.6 s): the
/// what-if says it is unavailable instead.
pub mod plausible {
    pub const TPS_MAX: f64 = 1_000_000.0;
    pub const REDO_MB_S_MAX: f64 = 10_000.0;
    pub const LATENCY_MS_MAX: f64 = 60_000.0;
    pub const SRL_MEMBERS_MAX: u32 = 16;
    /// Online logs from 1 MiB (Oracle's minimum is larger still) to 1 TiB.
    pub const ORL_MB_MIN: f64 = 1.0;
    pub const ORL_MB_MAX: f64 = 1_048_576.0;
    pub const SWITCHES_PER_HOUR_MAX: f64 = 36_000.0;
    pub const LAG_S_MAX: f64 = 31_536_000.0;
}

impl Observed {
    /// `Err(reason)` naming the figure when any observed value is outside what a model can
    /// sensibly mirror (see [`plausible`]).
    pub fn check_plausible(&self) -> Result<(), String> {
        use plausible::*;
        let range = |name: &str, v: Option<f64>, lo: f64, hi: f64| match v {
            Some(x) if !x.is_finite() || x < lo || x > hi => Err(format!(
                "observed {name} {} is outside the plausible {lo}..{hi}",
                if x != 0.0 && x.abs() < 0.01 {
                    format!("{x:.2e}")
                } else {
                    format!("{x:.2}")
                }
            )),
            _ => Ok(()),
        };
        range("TPS", self.tps, 0.0, TPS_MAX)?;
        range("redo rate (MB/s)", self.redo_mb_s, 0.0, REDO_MB_S_MAX)?;
        range("log file sync (ms)", self.lfs_ms, 0.0, LATENCY_MS_MAX)?;
        range(
            "log file parallel write (ms)",
            self.lfpw_ms,
            0.0,
            LATENCY_MS_MAX,
        )?;
        range(
            "SYNC Remote Write (ms)",
            self.remote_ms,
            0.0,
            LATENCY_MS_MAX,
        )?;
        range("RFS random i/o (ms)", self.rfs_ms, 0.0, LATENCY_MS_MAX)?;
        range("online log size (MB)", self.orl_mb, ORL_MB_MIN, ORL_MB_MAX)?;
        range(
            "log switches per hour",
            self.switches_per_hour,
            0.0,
            SWITCHES_PER_HOUR_MAX,
        )?;
        range("transport lag (s)", self.transport_lag_s, 0.0, LAG_S_MAX)?;
        range(
            "transport lag growth (s/s)",
            self.transport_lag_growth,
            -1e6,
            1e6,
        )?;
        if let Some(m) = self.srl_members.filter(|m| *m == 0 || *m > SRL_MEMBERS_MAX) {
            return Err(format!(
                "observed {m} members per standby redo log group is outside the plausible 1..{SRL_MEMBERS_MAX}"
            ));
        }
        Ok(())
    }
}

/// The what-if line for a change a model refused to simulate.
pub fn unavailable(change: Change, reason: &str) -> WhatIf {
    WhatIf {
        change: change.label(),
        outcome: format!("what-if unavailable: {reason}"),
    }
}

/// A change a DBA could make.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// SYNC NOAFFIRM: the standby acknowledges on receipt.
    FastSync,
    /// One member per standby redo log group.
    OneSrlMember,
    /// Redo transport compression with this ratio.
    Zlib { ratio: f64 },
    /// Online and standby logs sized to last 20 minutes at the observed redo rate.
    LogsFor20Min,
}

impl Change {
    pub fn label(self) -> String {
        match self {
            Change::FastSync => "FASTSYNC (SYNC NOAFFIRM) instead of SYNC".into(),
            Change::OneSrlMember => "one member per standby redo log group".into(),
            Change::Zlib { ratio } => format!("ZLIB redo transport compression (ratio {ratio})"),
            Change::LogsFor20Min => "logs sized to last 20 minutes".into(),
        }
    }
}

/// Computes what a change would do; `None` when the observed figures do not allow it.
pub trait WhatIfModel: Send + Sync {
    fn what_if(&self, observed: &Observed, change: Change) -> Option<WhatIf>;
}
