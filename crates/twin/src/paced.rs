//! The demo's clock: a task that advances the twin so virtual time tracks wall-clock × speed,
//! sends every sample and mark to the app, and takes scenario switches from the fault menu
//! between ticks. The demo runs it on a thread of its own; `serve` and the fleet board run
//! every pair's on one small runtime.

use super::{Scenario, Twin};
use dgscope_model::source::{PullSource, SourceEvent};
use std::thread::JoinHandle;
use std::time::Instant;
use tokio::sync::mpsc::{self, error::TryRecvError};

/// What the app can ask of a running paced twin.
#[derive(Debug, Clone, PartialEq)]
pub enum TwinControl {
    /// Switch scenario from the current virtual time on (counters stay cumulative).
    SetScenario(Scenario),
    /// Virtual seconds per wall second (1.0 = real time); values ≤ 0 are ignored.
    SetSpeed(f64),
    /// End the twin (it also ends when the app drops the receiver or the control sender).
    Stop,
}

/// Runs `twin` in its own thread. Each tick's samples go out as `SourceEvent::Sample`, marks
/// as `SourceEvent::Mark`; `SourceEvent::End` is sent when stopped. Build the twin with
/// [`Twin::starting_at`]`(…, Timestamp::now())` for wall-clock timestamps.
pub fn spawn_paced(
    twin: Twin,
    speed: f64,
    tx: mpsc::Sender<SourceEvent>,
    control: mpsc::UnboundedReceiver<TwinControl>,
) -> std::io::Result<JoinHandle<()>> {
    spawn_paced_after(twin, 0, speed, tx, control)
}

/// As [`spawn_paced`], after `preroll` ticks sent as fast as the twin makes them: the demo's
/// first frame shows a filled window instead of a minute of warming up. Start the twin
/// `preroll` intervals before now ([`Twin::starting_at`]) so the last of them is stamped now.
pub fn spawn_paced_after(
    twin: Twin,
    preroll: u64,
    speed: f64,
    tx: mpsc::Sender<SourceEvent>,
    control: mpsc::UnboundedReceiver<TwinControl>,
) -> std::io::Result<JoinHandle<()>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    std::thread::Builder::new()
        .name("dgscope-twin".into())
        .spawn(move || rt.block_on(paced(twin, preroll, speed, tx, control)))
}

/// The paced twin as a task, for a process that runs many on one runtime (`serve` and the
/// fleet board): a thread per twin (and per pipeline) cost `serve` with 200 pairs 165 of its
/// 645 MB, in 400 threads' stacks and allocator arenas (benches/serve.rs). Same events and
/// controls as [`spawn_paced_after`].
pub async fn paced(
    mut twin: Twin,
    preroll: u64,
    speed: f64,
    tx: mpsc::Sender<SourceEvent>,
    mut control: mpsc::UnboundedReceiver<TwinControl>,
) {
    let mut speed = if speed > 0.0 { speed } else { 1.0 };
    let interval = twin.interval();
    // Virtual time is measured from a wall-clock anchor that moves on speed changes; the
    // pre-rolled ticks are due already.
    let mut anchor = Instant::now()
        .checked_sub(interval.mul_f64(preroll as f64 / speed))
        .unwrap_or_else(Instant::now);
    let mut ticks_at_anchor = 0u64;
    let mut ticks = 0u64;
    // Said once, when the pre-rolled ticks are out and the first wait begins.
    let mut caught_up = false;
    // A control that arrived while waiting, applied before the next tick.
    let mut arrived: Option<TwinControl> = None;
    loop {
        loop {
            let c = match arrived.take() {
                Some(c) => c,
                None => match control.try_recv() {
                    Ok(c) => c,
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => TwinControl::Stop,
                },
            };
            match c {
                TwinControl::SetScenario(s) => twin.set_scenario(s),
                TwinControl::SetSpeed(x) if x > 0.0 => {
                    speed = x;
                    anchor = Instant::now();
                    ticks_at_anchor = ticks;
                }
                TwinControl::SetSpeed(_) => {}
                TwinControl::Stop => {
                    let _ = tx.send(SourceEvent::End).await;
                    return;
                }
            }
        }
        let due = anchor + interval.mul_f64((ticks - ticks_at_anchor + 1) as f64 / speed);
        if due > Instant::now() {
            if !caught_up {
                caught_up = true;
                if tx.send(SourceEvent::CaughtUp).await.is_err() {
                    return;
                }
            }
            // Wait for the tick or a control, whichever comes first.
            match tokio::time::timeout_at(due.into(), control.recv()).await {
                Ok(Some(c)) => arrived = Some(c),
                Ok(None) => arrived = Some(TwinControl::Stop),
                Err(_elapsed) => {}
            }
            continue;
        }
        let Some(tick) = twin.next_tick() else {
            let _ = tx.send(SourceEvent::End).await;
            return;
        };
        ticks += 1;
        for m in tick.marks {
            if tx.send(SourceEvent::Mark(m)).await.is_err() {
                return;
            }
        }
        for s in tick.samples {
            if tx.send(SourceEvent::Sample(Box::new(s))).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_twin_sends_samples_switches_scenario_and_stops() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(64);
        let (ctl, ctl_rx) = tokio::sync::mpsc::unbounded_channel();
        let twin = Twin::new(Scenario::HealthySync, 1);
        // Fast enough that the test does not wait on the wall clock for long.
        let h = spawn_paced(twin, 200.0, tx, ctl_rx).unwrap();
        let mut samples = 0;
        let mut marks = Vec::new();
        // Wait for the switch's mark before stopping: sent back to back, the switch and the
        // stop could both be read before the next tick, and the mark comes with a tick.
        while samples < 6 || marks.is_empty() {
            assert!(samples < 2000, "no mark for the scenario switch: {marks:?}");
            match rx.blocking_recv() {
                Some(SourceEvent::Sample(_)) => {
                    samples += 1;
                    if samples == 2 {
                        ctl.send(TwinControl::SetScenario(Scenario::SlowSrl))
                            .unwrap();
                    }
                }
                Some(SourceEvent::Mark(m)) => marks.push(m.text),
                Some(_) => {}
                None => panic!("twin thread ended early"),
            }
        }
        ctl.send(TwinControl::Stop).unwrap();
        let mut ended = false;
        while let Some(ev) = rx.blocking_recv() {
            match ev {
                SourceEvent::End => ended = true,
                SourceEvent::Mark(m) => marks.push(m.text),
                _ => {}
            }
        }
        h.join().unwrap();
        assert!(ended);
        assert_eq!(marks, vec!["twin scenario: slow-srl".to_string()]);
    }
}
