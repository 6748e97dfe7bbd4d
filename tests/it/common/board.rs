//! A fleet board over twin pairs in virtual time (fixed seeds, judged every tick as the
//! screen judges them), for the board's snapshots and its benchmark.

use dgscope::app::{Fleet, Mode};
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::{PullSource, SourceEvent};
use dgscope::timestamp::Timestamp;
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{theme::Theme, Board};

/// The twins' start: 2026-01-05 09:00:00 UTC, so every clock on the board is fixed.
pub const T0_MS: i64 = 1_767_603_600_000;

/// `n` pairs as `demo --fleet n` draws them (pair `i` with seed `i + 1`), each run `secs`
/// virtual seconds; the board's clock is the newest sample's.
pub fn board(n: usize, secs: usize) -> (Board, Timestamp) {
    let mut pairs = Vec::with_capacity(n);
    let mut now = Timestamp::from_millis(T0_MS);
    for i in 0..n {
        let scenario = Scenario::for_fleet(i);
        let mut twin = Twin::starting_at(scenario, i as u64 + 1, Timestamp::from_millis(T0_MS));
        let opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
        let assessor = Box::new(|d: &mut dgscope::pipeline::Driver| {
            d.assess_now();
            d.assessment().clone()
        });
        let mut app = tui::build_app(&opts, Theme::all_builtin(false), assessor);
        for _ in 0..secs {
            let Some(tick) = twin.next_tick() else { break };
            for s in tick.samples {
                app.ingest(SourceEvent::Sample(Box::new(s)));
            }
            app.refresh();
        }
        let latest = app.engine().latest().unwrap_or(now);
        if latest > now {
            now = latest;
        }
        app.now = latest;
        pairs.push((format!("{:02} {}", i + 1, scenario.name()), app));
    }
    let mut b = Fleet::board(pairs, format!("DEMO, {n} simulated pairs"));
    for i in 0..n {
        b.refresh_row(i);
    }
    b.reorder();
    if let Some(&first) = b.order.first() {
        b.cursor = first;
    }
    (b, now)
}
