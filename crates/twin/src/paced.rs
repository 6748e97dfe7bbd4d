//! The demo's clock: a thread that advances the twin so virtual time tracks wall-clock ×
//! speed, sends every sample and mark to the app, and takes scenario switches from the fault
//! menu between ticks.

use super::{Scenario, Twin};
use dgscope_model::source::{PullSource, SourceEvent};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the app can ask of a running paced twin.
#[derive(Debug, Clone, PartialEq)]
pub enum TwinControl {
    /// Switch scenario from the current virtual time on (counters stay cumulative).
    SetScenario(Scenario),
    /// Virtual seconds per wall second (1.0 = real time); values ≤ 0 are ignored.
    SetSpeed(f64),
    /// End the thread (it also ends when the app drops the receiver or the control sender).
    Stop,
}

/// Runs `twin` in its own thread. Each tick's samples go out as `SourceEvent::Sample`, marks
/// as `SourceEvent::Mark`; `SourceEvent::End` is sent when stopped. Build the twin with
/// [`Twin::starting_at`]`(…, Timestamp::now())` for wall-clock timestamps.
pub fn spawn_paced(
    twin: Twin,
    speed: f64,
    tx: tokio::sync::mpsc::Sender<SourceEvent>,
    control: Receiver<TwinControl>,
) -> std::io::Result<JoinHandle<()>> {
    spawn_paced_after(twin, 0, speed, tx, control)
}

/// As [`spawn_paced`], after `preroll` ticks sent as fast as the twin makes them: the demo's
/// first frame shows a filled window instead of a minute of warming up. Start the twin
/// `preroll` intervals before now ([`Twin::starting_at`]) so the last of them is stamped now.
pub fn spawn_paced_after(
    mut twin: Twin,
    preroll: u64,
    speed: f64,
    tx: tokio::sync::mpsc::Sender<SourceEvent>,
    control: Receiver<TwinControl>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("dgscope-twin".into())
        .spawn(move || {
            let mut speed = if speed > 0.0 { speed } else { 1.0 };
            let interval = twin.interval();
            // Virtual time is measured from a wall-clock anchor that moves on speed changes;
            // the pre-rolled ticks are due already.
            let mut anchor = Instant::now()
                .checked_sub(interval.mul_f64(preroll as f64 / speed))
                .unwrap_or_else(Instant::now);
            let mut ticks_at_anchor = 0u64;
            let mut ticks = 0u64;
            // Said once, when the pre-rolled ticks are out and the first wait begins.
            let mut caught_up = false;
            loop {
                loop {
                    match control.try_recv() {
                        Ok(TwinControl::SetScenario(s)) => twin.set_scenario(s),
                        Ok(TwinControl::SetSpeed(x)) if x > 0.0 => {
                            speed = x;
                            anchor = Instant::now();
                            ticks_at_anchor = ticks;
                        }
                        Ok(TwinControl::SetSpeed(_)) => {}
                        Ok(TwinControl::Stop) | Err(TryRecvError::Disconnected) => {
                            let _ = tx.blocking_send(SourceEvent::End);
                            return;
                        }
                        Err(TryRecvError::Empty) => break,
                    }
                }
                let due = anchor + interval.mul_f64((ticks - ticks_at_anchor + 1) as f64 / speed);
                let now = Instant::now();
                if due > now {
                    if !caught_up {
                        caught_up = true;
                        if tx.blocking_send(SourceEvent::CaughtUp).is_err() {
                            return;
                        }
                    }
                    // Sleep in short slices so control messages are seen promptly.
                    std::thread::sleep((due - now).min(Duration::from_millis(50)));
                    continue;
                }
                let Some(tick) = twin.next_tick() else {
                    let _ = tx.blocking_send(SourceEvent::End);
                    return;
                };
                ticks += 1;
                for m in tick.marks {
                    if tx.blocking_send(SourceEvent::Mark(m)).is_err() {
                        return;
                    }
                }
                for s in tick.samples {
                    if tx.blocking_send(SourceEvent::Sample(Box::new(s))).is_err() {
                        return;
                    }
                }
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_twin_sends_samples_switches_scenario_and_stops() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(64);
        let (ctl, ctl_rx) = std::sync::mpsc::channel();
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
