//! Time for the collector threads, behind a seam so tests run hours of sampling instantly.

use dgscope_model::timestamp::Timestamp;
use std::cell::Cell;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A stop request shared by the collector threads; wakes sleepers at once.
#[derive(Debug, Clone, Default)]
pub struct StopSignal(Arc<(Mutex<bool>, Condvar)>);

impl StopSignal {
    pub fn stop(&self) {
        let (m, c) = &*self.0;
        *m.lock().unwrap_or_else(|e| e.into_inner()) = true;
        c.notify_all();
    }

    pub fn is_stopped(&self) -> bool {
        *self.0 .0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sleeps up to `d`; true when stopped meanwhile.
    fn wait(&self, d: Duration) -> bool {
        let (m, c) = &*self.0;
        let guard = m.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = c
            .wait_timeout_while(guard, d, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }
}

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Timestamp;
    /// Sleeps until `t` (or returns at once if past). False when stopped meanwhile.
    fn sleep_until(&self, t: Timestamp, stop: &StopSignal) -> bool;
}

/// Wall-clock time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }

    fn sleep_until(&self, t: Timestamp, stop: &StopSignal) -> bool {
        loop {
            if stop.is_stopped() {
                return false;
            }
            let left = t.ms - Timestamp::now().ms;
            if left <= 0 {
                return true;
            }
            if stop.wait(Duration::from_millis(left as u64)) {
                return false;
            }
        }
    }
}

thread_local! {
    static VIRTUAL_NOW: Cell<Option<i64>> = const { Cell::new(None) };
}

/// Virtual time for tests: each thread starts at `start` and sleeping jumps forward at
/// once. Per thread, so a slow standby thread's time never moves the primary's.
#[derive(Debug, Clone, Copy)]
pub struct VirtualClock {
    pub start: Timestamp,
}

impl Clock for VirtualClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_millis(VIRTUAL_NOW.with(|c| c.get()).unwrap_or(self.start.ms))
    }

    fn sleep_until(&self, t: Timestamp, stop: &StopSignal) -> bool {
        if stop.is_stopped() {
            return false;
        }
        let now = self.now().ms.max(t.ms);
        VIRTUAL_NOW.with(|c| c.set(Some(now)));
        // Let other threads run, as a real sleep would.
        std::thread::yield_now();
        !stop.is_stopped()
    }
}

/// The next sampling instant strictly after `now`: a multiple of `interval` since the epoch,
/// so every database thread samples at the same instants without talking to the others.
pub fn next_aligned(now: Timestamp, interval: Duration) -> Timestamp {
    let step = (interval.as_millis() as i64).max(1);
    Timestamp::from_millis((now.ms.div_euclid(step) + 1) * step)
}

/// Capped exponential backoff: `initial`, 2×, 4× … up to `max`.
pub fn backoff(attempt: u32, initial: Duration, max: Duration) -> Duration {
    let shift = attempt.saturating_sub(1).min(20);
    initial.saturating_mul(1u32 << shift).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_align_across_threads() {
        let i = Duration::from_secs(1);
        assert_eq!(next_aligned(Timestamp::from_millis(1_250), i).ms, 2_000);
        assert_eq!(next_aligned(Timestamp::from_millis(2_000), i).ms, 3_000);
        assert_eq!(next_aligned(Timestamp::from_millis(1_999), i).ms, 2_000);
    }

    #[test]
    fn backoff_doubles_then_caps() {
        let b = |n| backoff(n, Duration::from_secs(1), Duration::from_secs(30)).as_secs();
        assert_eq!(
            [b(1), b(2), b(3), b(4), b(5), b(6), b(7), b(60)],
            [1, 2, 4, 8, 16, 30, 30, 30]
        );
    }
}
