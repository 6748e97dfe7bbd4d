//! Twin speed: simulated events per second, and the time for one simulated hour of
//! `healthy-sync` (~7.5k TPS) including building every sample. Prints measured figures; run
//! with `cargo bench --bench twin`. Events are commit requests, LGWR dispatches, write
//! completions and foreground wake-ups (the prototype's count, TWIN-MODEL.md §5).
//!
//! Wall time on a shared machine includes other processes' load, so the process CPU time
//! (Linux `/proc/self/stat`) is printed beside it.

use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use std::time::Instant;

/// User + system CPU seconds of this process, where the OS tells us.
fn cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

struct Measured {
    wall: f64,
    cpu: Option<f64>,
    events: u64,
    samples: usize,
}

fn run(scenario: Scenario, secs: u64) -> Measured {
    let mut twin = Twin::new(scenario, 1);
    let cpu0 = cpu_secs();
    let start = Instant::now();
    let mut samples = 0;
    for _ in 0..secs {
        let tick = twin.next_tick().expect("the twin never ends");
        samples += std::hint::black_box(tick.samples).len();
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0.zip(cpu_secs()).map(|(a, b)| b - a);
    Measured {
        wall,
        cpu,
        events: twin.events(),
        samples,
    }
}

fn report(label: &str, m: &Measured) {
    let cpu = m
        .cpu
        .map(|c| {
            format!(
                ", {c:.2} s CPU ({:.1} M events/CPU-s)",
                m.events as f64 / c.max(1e-3) / 1e6
            )
        })
        .unwrap_or_default();
    println!(
        "twin {label}: {} events, {} samples in {:.2} s wall ({:.1} M events/s){cpu}",
        m.events,
        m.samples,
        m.wall,
        m.events as f64 / m.wall / 1e6
    );
}

fn main() {
    let _ = run(Scenario::HealthySync, 30); // warm-up
    report(
        "healthy-sync, 1 simulated hour",
        &run(Scenario::HealthySync, 3600),
    );
    for scenario in [
        Scenario::SlowSrl,
        Scenario::FrequentSwitches,
        Scenario::BandwidthAsync,
        // Part 2: a 30 min DELAY keeps a long apply queue; SYNC stalls hold whole batches.
        Scenario::DelayedApply,
        Scenario::SyncStall,
        // Issue 13: per-instance counters, a second fluid standby, the far sync's dressing.
        Scenario::RacNodeSaturated,
        Scenario::TwoStandbys,
        Scenario::FarSync,
    ] {
        report(
            &format!("{scenario}, 10 simulated min"),
            &run(scenario, 600),
        );
    }
}
