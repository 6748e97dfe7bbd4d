//! What-if figures from the twin: mirror the observed pair in the twin's parameters
//! ([`mirror`]), run it with and without the change, measure both runs with the metrics'
//! [`Delta`], and apply the twin's relative change to what was observed. Scaling by the
//! twin's own ratio keeps the twin's calibration gaps out of the answer. It lives here, where
//! the twin (a source) and the metrics meet, so the twin imports neither metrics nor causes.

use crate::metrics::Delta;
use dgscope_model::sample::names::event;
use dgscope_model::sample::vocab::whatif::{
    plausible, unavailable, Change, Observed, WhatIf, WhatIfModel,
};
use dgscope_model::source::PullSource;
use dgscope_twin::mirror::mirror;
use dgscope_twin::params::{Params, Transport, MB};
use dgscope_twin::{Scenario, Twin, EPOCH};
use std::time::{Duration, Instant};

/// Runs the twin for `secs` simulated seconds per side of a comparison, within `budget` of
/// wall time per what-if (both sides): past it the answer is "unavailable", never a stall.
#[derive(Debug, Clone, Copy)]
pub struct TwinWhatIf {
    pub secs: u64,
    pub seed: u64,
    pub budget: Duration,
}

/// Wall time one what-if may take. The plausible ranges keep a run near 0.1 s; this is the
/// backstop for inputs inside them that are still costly.
pub(crate) const WHAT_IF_BUDGET: Duration = Duration::from_secs(3);
/// Most simulated seconds per side.
pub(crate) const MAX_SECS: u64 = 600;

impl Default for TwinWhatIf {
    fn default() -> Self {
        TwinWhatIf {
            secs: 60,
            seed: 1,
            budget: WHAT_IF_BUDGET,
        }
    }
}

/// Why a simulation gave no figures.
enum SimError {
    /// The twin produced nothing to compare (no commits): no what-if, as before.
    NoFigures,
    /// The wall-time budget ran out.
    Budget(Duration),
}

/// log file sync average (ms) and TPS of `secs` simulated seconds after a short warm-up,
/// checking the deadline every simulated second.
fn simulate(
    p: Params,
    secs: u64,
    seed: u64,
    deadline: Instant,
    budget: Duration,
) -> Result<(f64, f64), SimError> {
    let mut twin = Twin::with_params(Scenario::HealthySync, p, seed, EPOCH);
    let primary = |twin: &mut Twin| {
        if Instant::now() > deadline {
            return Err(SimError::Budget(budget));
        }
        twin.next_tick()
            .and_then(|t| t.samples.into_iter().next())
            .ok_or(SimError::NoFigures)
    };
    for _ in 0..5 {
        primary(&mut twin)?;
    }
    let first = primary(&mut twin)?;
    let mut last = first.clone();
    for _ in 0..secs.min(MAX_SECS) {
        last = primary(&mut twin)?;
    }
    let d = Delta::between(&first, &last).ok_or(SimError::NoFigures)?;
    Ok((
        d.event_avg(event::LOG_FILE_SYNC)
            .ok_or(SimError::NoFigures)?
            .0,
        d.commits_per_s().ok_or(SimError::NoFigures)?,
    ))
}

fn commit_path(
    obs: &Observed,
    base: Params,
    changed: Params,
    m: &TwinWhatIf,
    change: Change,
) -> Option<WhatIf> {
    let deadline = Instant::now() + m.budget;
    let run = |p| match simulate(p, m.secs, m.seed, deadline, m.budget) {
        Ok(x) => Ok(x),
        Err(SimError::NoFigures) => Err(None),
        Err(SimError::Budget(b)) => Err(Some(unavailable(
            change,
            &format!("the model ran past its {} s budget", b.as_secs_f64()),
        ))),
    };
    let (lfs0, tps0) = match run(base) {
        Ok(x) => x,
        Err(w) => return w,
    };
    let (lfs1, tps1) = match run(changed) {
        Ok(x) => x,
        Err(w) => return w,
    };
    let lfs = obs.lfs_ms? * lfs1 / lfs0;
    let tps = obs.tps? * tps1 / tps0;
    Some(WhatIf {
        change: change.label(),
        outcome: format!(
            "log file sync {:.2} → {lfs:.2} ms, TPS {:.0} → {tps:.0} ({:+.0} %)",
            obs.lfs_ms?,
            obs.tps?,
            (tps1 / tps0 - 1.0) * 100.0
        ),
    })
}

impl WhatIfModel for TwinWhatIf {
    fn what_if(&self, obs: &Observed, change: Change) -> Option<WhatIf> {
        // Callers other than `annotate` get the same refusal.
        if let Err(reason) = obs.check_plausible() {
            return Some(unavailable(change, &reason));
        }
        match change {
            Change::FastSync => {
                let base = mirror(obs)?;
                if !matches!(base.transport, Transport::Sync { affirm: true }) {
                    return None;
                }
                let mut changed = base.clone();
                changed.transport = Transport::Sync { affirm: false };
                commit_path(obs, base, changed, self, change)
            }
            Change::OneSrlMember => {
                let base = mirror(obs)?;
                if base.srl.members <= 1 {
                    return None;
                }
                let mut changed = base.clone();
                changed.srl.members = 1;
                commit_path(obs, base, changed, self, change)
            }
            Change::LogsFor20Min => {
                let base = mirror(obs)?;
                let per_hour = obs.switches_per_hour.filter(|s| *s > 3.0)?;
                // The size the finding's evidence shows, from the same computation.
                let mb = obs.log_mb_for_20_min.filter(|m| *m > 0.0)?;
                let mut changed = base.clone();
                // Capped at the largest plausible log: the model is not asked for more.
                let max = plausible::ORL_MB_MAX;
                let mb = mb.min(max);
                changed.orl_bytes = (mb * MB) as u64;
                let mut w = commit_path(obs, base, changed, self, change)?;
                w.outcome = format!(
                    "{} logs, 3 switches per hour on the busiest thread instead of {per_hour:.0}: {}",
                    dgscope_model::display::evidence_value(mb, "MB"),
                    w.outcome
                );
                Some(w)
            }
            Change::Zlib { ratio } => {
                // The twin's fluid transport model: capacity C, with compression
                // min(C × ratio, compressor throughput).
                let redo = obs.redo_mb_s.filter(|r| *r > 0.0)?;
                let growth = obs.transport_lag_growth.filter(|g| *g > 0.0 && *g < 1.0)?;
                let capacity = redo * (1.0 - growth);
                let compressor = Scenario::BandwidthAsyncCompressed
                    .params()
                    .compression
                    .map_or(f64::INFINITY, |c| c.compressor_bps / MB);
                let compressed = (capacity * ratio).min(compressor);
                let lag = obs.transport_lag_s.unwrap_or(0.0);
                let outcome = if compressed > redo {
                    format!(
                        "shipping capacity {capacity:.0} → {compressed:.0} MB/s against {redo:.0} MB/s of redo: transport lag stops growing{}",
                        if lag > 0.0 {
                            format!(" and the {lag:.0} s backlog drains in about {:.0} s", lag * redo / (compressed - redo))
                        } else {
                            String::new()
                        }
                    )
                } else {
                    format!(
                        "shipping capacity {capacity:.0} → {compressed:.0} MB/s, still short of {redo:.0} MB/s: lag grows {:.2} s/s instead of {growth:.2}",
                        1.0 - compressed / redo
                    )
                };
                Some(WhatIf {
                    change: change.label(),
                    // MOS 729551.1 as it reads: about one CPU per transport process at
                    // 100 Mbit/s, and not recommended above 100 Mbit/s when RPO matters.
                    outcome: if capacity * 1048576.0 * 8.0 / 1e6 > 100.0 {
                        format!("{outcome}; but the link carries over 100 Mbit/s, where MOS 729551.1 does not recommend compression when RPO matters (it can lengthen the transfer, and costs CPU per transport process)")
                    } else {
                        format!("{outcome}; costs CPU on each transport process (MOS 729551.1: about a whole CPU at 100 Mbit/s)")
                    },
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_srl() -> Observed {
        // Seed 000 table 1 under SYNC on 2-member SRLs.
        Observed {
            tps: Some(6224.0),
            redo_mb_s: Some(19.0),
            lfs_ms: Some(4.6),
            lfpw_ms: Some(0.62),
            remote_ms: Some(3.45),
            rfs_ms: Some(2.89),
            sync_affirm: Some(true),
            srl_members: Some(2),
            ..Observed::default()
        }
    }

    fn parse_after_arrow(s: &str, unit: &str) -> f64 {
        let part = s.split(unit).next().unwrap();
        part.rsplit("→ ").next().unwrap().trim().parse().unwrap()
    }

    #[test]
    fn fastsync_removes_most_of_the_srl_wait() {
        let m = TwinWhatIf {
            secs: 20,
            seed: 3,
            ..TwinWhatIf::default()
        };
        let w = m.what_if(&slow_srl(), Change::FastSync).unwrap();
        let lfs = parse_after_arrow(&w.outcome, " ms");
        // TWIN-MODEL §4: FASTSYNC on T1 gives ~1 ms log file sync (from 5.3).
        assert!(lfs < 2.0, "{}", w.outcome);
        assert!(w.outcome.contains("TPS 6224 → "), "{}", w.outcome);
        let one = m.what_if(&slow_srl(), Change::OneSrlMember).unwrap();
        let lfs_one = parse_after_arrow(&one.outcome, " ms");
        assert!(lfs_one < 4.6 && lfs_one > lfs, "{}", one.outcome);
    }

    #[test]
    fn no_what_if_without_the_situation_it_changes() {
        let m = TwinWhatIf {
            secs: 5,
            seed: 1,
            ..TwinWhatIf::default()
        };
        let async_ = Observed {
            sync_affirm: None,
            ..slow_srl()
        };
        assert!(m.what_if(&async_, Change::FastSync).is_none());
        let one = Observed {
            srl_members: Some(1),
            ..slow_srl()
        };
        assert!(m.what_if(&one, Change::OneSrlMember).is_none());
        assert!(m.what_if(&Observed::default(), Change::FastSync).is_none());
    }

    #[test]
    fn implausible_inputs_are_refused_not_simulated() {
        let m = TwinWhatIf::default();
        let zero_logs = Observed {
            orl_mb: Some(0.0),
            switches_per_hour: Some(60.0),
            ..slow_srl()
        };
        let w = m.what_if(&zero_logs, Change::LogsFor20Min).unwrap();
        assert!(
            w.outcome
                .starts_with("what-if unavailable: observed online log size (MB) 0.00 is outside"),
            "{}",
            w.outcome
        );
        let one_byte = Observed {
            orl_mb: Some(1.0 / 1048576.0),
            ..slow_srl()
        };
        assert!(m
            .what_if(&one_byte, Change::FastSync)
            .unwrap()
            .outcome
            .starts_with("what-if unavailable:"));
        let members = Observed {
            srl_members: Some(u32::MAX),
            ..slow_srl()
        };
        let w = m.what_if(&members, Change::OneSrlMember).unwrap();
        assert!(
            w.outcome
                .contains("4294967295 members per standby redo log group"),
            "{}",
            w.outcome
        );
        let nan = Observed {
            lfs_ms: Some(f64::NAN),
            ..slow_srl()
        };
        assert!(m
            .what_if(&nan, Change::FastSync)
            .unwrap()
            .outcome
            .starts_with("what-if unavailable:"));
    }

    #[test]
    fn a_spent_budget_says_so() {
        let m = TwinWhatIf {
            budget: Duration::ZERO,
            ..TwinWhatIf::default()
        };
        let w = m.what_if(&slow_srl(), Change::FastSync).unwrap();
        assert_eq!(
            w.outcome,
            "what-if unavailable: the model ran past its 0 s budget"
        );
    }

    #[test]
    fn compression_closes_seed002s_gap() {
        // 140 MB/s of redo, lag growing 0.22 s/s: the link carries ~109 MB/s.
        let obs = Observed {
            redo_mb_s: Some(140.0),
            transport_lag_growth: Some(0.222),
            transport_lag_s: Some(251.0),
            ..Observed::default()
        };
        let w = TwinWhatIf::default()
            .what_if(&obs, Change::Zlib { ratio: 2.7 })
            .unwrap();
        // The compressor (137.7 MB/s per process) barely fails to keep up: lag grows 0.02 s/s,
        // about 20 s over seed 002's 20-minute burst instead of 338 s.
        assert!(w.outcome.contains("109 → 138 MB/s"), "{}", w.outcome);
        assert!(
            w.outcome.contains("lag grows 0.02 s/s instead of 0.22"),
            "{}",
            w.outcome
        );
        let slower = Observed {
            redo_mb_s: Some(120.0),
            ..obs
        };
        let w = TwinWhatIf::default()
            .what_if(&slower, Change::Zlib { ratio: 2.7 })
            .unwrap();
        assert!(
            w.outcome
                .contains("transport lag stops growing and the 251 s backlog drains"),
            "{}",
            w.outcome
        );
    }
}
