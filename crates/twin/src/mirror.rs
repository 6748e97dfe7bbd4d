//! The twin's side of the what-if figures: its parameters for an observed pair. The runs
//! with and without a change, measured by the metrics, are `pipeline::whatif`'s.

use super::params::{Params, Transport, MB};
use super::Scenario;
use dgscope_model::sample::vocab::Observed;

/// The lowest TPS [`mirror`] mirrors (one commit per 100 s).
pub const MIN_MIRROR_TPS: f64 = 0.01;

/// How much slower the slowest of `m` SRL members is than one (the twin's lognormal σ 0.2).
fn members_factor(m: u32) -> f64 {
    1.0 + 0.18 * f64::from(m.saturating_sub(1))
}

/// The twin's parameters for the observed pair, or `None` without commits to mirror.
pub fn mirror(obs: &Observed) -> Option<Params> {
    // Fewer than one commit per 100 s is no load to mirror; a subnormal TPS (fuzzing found
    // 3e-317) made redo per commit and think time infinite.
    let tps = obs.tps.filter(|t| *t >= MIN_MIRROR_TPS)?;
    let lfs = obs.lfs_ms?;
    let mut p = Params::calibrated();
    if let Some(redo) = obs.redo_mb_s {
        p.redo_per_commit = (redo * MB / tps).max(512.0);
    }
    if let Some(l) = obs.lfpw_ms {
        p.log.l0_us = (l * 1000.0 * 0.9).max(50.0);
    }
    let members = obs.srl_members.unwrap_or(1).max(1);
    p.srl.members = members;
    match obs.sync_affirm {
        Some(affirm) => {
            p.transport = Transport::Sync { affirm };
            match (obs.remote_ms, obs.rfs_ms) {
                (Some(r), Some(f)) if affirm => {
                    p.srl.s0_us = (f * 1000.0 / members_factor(members)).max(50.0);
                    p.net0_us = ((r - f) * 1000.0).max(50.0);
                }
                (Some(r), _) => p.net0_us = (r * 1000.0).max(50.0),
                _ => {}
            }
        }
        None => p.transport = Transport::Async,
    }
    p.think_us = (f64::from(p.sessions) * 1e6 / tps - lfs * 1000.0).max(100.0);
    if let Some(mb) = obs.orl_mb {
        p.orl_bytes = (mb * MB) as u64;
    }
    if obs.switches_per_hour.is_some_and(|s| s > 6.0) {
        // Frequent switches: each forces a standby checkpoint that slows SRL writes.
        p.ckpt = Scenario::FrequentSwitches.params().ckpt;
    }
    Some(p)
}
