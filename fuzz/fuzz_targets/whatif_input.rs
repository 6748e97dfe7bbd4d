//! The what-if model's input mapping: observed figures (any f64, any member count) →
//! plausibility check → the twin's parameters. Only plausible inputs reach the mapping, and
//! what it maps them to is finite and positive where the simulation divides or loops.
#![no_main]

use dgscope::causes::whatif::{changes_for, Observed};
use dgscope::source::twin::mirror::mirror;
use libfuzzer_sys::fuzz_target;

fn f(bytes: &[u8], i: usize) -> Option<f64> {
    let b = bytes.get(i * 9..i * 9 + 9)?;
    (b[0] & 1 == 1).then(|| f64::from_le_bytes(b[1..9].try_into().unwrap()))
}

fuzz_target!(|data: &[u8]| {
    let obs = Observed {
        tps: f(data, 0),
        redo_mb_s: f(data, 1),
        lfs_ms: f(data, 2),
        lfpw_ms: f(data, 3),
        remote_ms: f(data, 4),
        rfs_ms: f(data, 5),
        sync_affirm: data.get(108).filter(|b| *b & 2 == 2).map(|b| b & 1 == 1),
        srl_members: data
            .get(109..113)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap())),
        orl_mb: f(data, 6),
        switches_per_hour: f(data, 7),
        log_mb_for_20_min: f(data, 8),
        transport_lag_s: f(data, 9),
        transport_lag_growth: f(data, 10),
    };
    for id in ["standby-redo-write-slow", "log-switch-frequent", "transport-lag", "commit-local-write-slow"] {
        let _ = changes_for(id, &obs);
    }
    if obs.check_plausible().is_err() {
        return;
    }
    if let Some(p) = mirror(&obs) {
        assert!(p.redo_per_commit.is_finite() && p.redo_per_commit > 0.0);
        assert!(p.log.l0_us.is_finite() && p.log.l0_us > 0.0);
        assert!((1..=16).contains(&p.srl.members), "{}", p.srl.members);
    }
});
