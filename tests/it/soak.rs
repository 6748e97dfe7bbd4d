//! Resource bounds (issue 7): 24 simulated hours of the demo pipeline — twin → metrics →
//! causes — keep memory flat: every history is a bounded ring. The twin runs a light load
//! (a few hundred commits per second) so a day of virtual time fits in a test. It measures
//! the resident memory of its process: it runs alone in one (`common::alone`).

use crate::common;

use dgscope::causes::CauseEngine;
use dgscope::metrics::{Engine, EngineConfig, Window};
use dgscope::sample::Slot;
use dgscope::source::twin::{Scenario, Twin, EPOCH};
use dgscope::source::PullSource;
use std::sync::Arc;
use std::time::Duration;

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1048576.0
}

#[test]
fn a_day_of_the_demo_pipeline_keeps_memory_flat() {
    if !common::alone() {
        return;
    }
    let mut p = Scenario::HealthySync.params();
    p.sessions = 6;
    let mut twin = Twin::with_params(Scenario::HealthySync, p, 5, EPOCH);
    let config = EngineConfig::default();
    let mut engine = Engine::new(config);
    let mut causes = CauseEngine::default();
    let window = Window::Last(Duration::from_secs(60));
    let mut at_hour = Vec::new();
    for second in 1..=24 * 3600u32 {
        let tick = twin.next_tick().unwrap();
        for s in tick.samples {
            engine.push_sample(Arc::new(s));
        }
        // The app assesses on every new sample.
        let a = causes.assess(&engine, window);
        assert!(a
            .findings
            .iter()
            .all(|f| f.severity < dgscope::causes::Severity::Warn));
        if second % 3600 == 0 {
            at_hour.push(rss_mb());
        }
    }
    let primary = engine.slot(&Slot::primary()).unwrap();
    assert_eq!(primary.points().len(), config.history_len);
    assert!(primary.raw_samples().count() <= config.raw_span.as_secs() as usize + 16);
    assert!(engine.marks().len() <= engine.marks().capacity());
    // After the rings fill (first hour), resident memory stays within a few MB.
    let (h2, h24) = (at_hour[1], at_hour[23]);
    eprintln!("RSS by hour (MB): {at_hour:.1?}");
    assert!(
        h24 - h2 < 8.0,
        "RSS grew from {h2:.1} MB at 2 h to {h24:.1} MB at 24 h"
    );
}
