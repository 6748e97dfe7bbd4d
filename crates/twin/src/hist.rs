//! Cumulative wait-event accumulators shaped like `V$SYSTEM_EVENT` + `V$EVENT_HISTOGRAM_MICRO`:
//! a wait of `x` µs lands in the bucket whose bound is the next power of two above `x`
//! (bound `b` holds `[b/2, b)`, the first bucket `[0, 1)`).

use super::rng::lognormal_cdf;
use dgscope_model::sample::{Bucket, Event};
use dgscope_model::units::Micros;

const BUCKETS: usize = 40;

#[derive(Debug, Clone)]
pub(crate) struct EventAcc {
    pub waits: u64,
    pub us: u64,
    counts: [u64; BUCKETS],
}

impl Default for EventAcc {
    fn default() -> Self {
        EventAcc {
            waits: 0,
            us: 0,
            counts: [0; BUCKETS],
        }
    }
}

/// Index of the bucket for a wait of `us` microseconds; its bound is `1 << index`.
#[inline]
pub(crate) fn bucket_index(us: u64) -> usize {
    ((64 - us.leading_zeros()) as usize).min(BUCKETS - 1)
}

impl EventAcc {
    #[inline]
    pub(crate) fn add(&mut self, us: u64) {
        self.waits += 1;
        self.us += us;
        self.counts[bucket_index(us)] += 1;
    }

    /// Adds `n` waits whose latencies are lognormal (mean, σ) without drawing each one: the
    /// waits are split over the buckets by the distribution's CDF with cumulative rounding,
    /// so the bucket total is exactly `n`. For fluid-model events with thousands of waits per
    /// step.
    pub(crate) fn add_bulk(&mut self, n: u64, mean_us: f64, sigma: f64) {
        if n == 0 {
            return;
        }
        self.waits += n;
        self.us += (n as f64 * mean_us).round() as u64;
        let mut placed = 0u64;
        for (i, c) in self.counts.iter_mut().enumerate() {
            let upper = (1u64 << i) as f64;
            let cum = if i == BUCKETS - 1 {
                n
            } else {
                ((n as f64) * lognormal_cdf(upper, mean_us, sigma)).round() as u64
            };
            let cum = cum.clamp(placed, n);
            *c += cum - placed;
            placed = cum;
            if placed == n {
                break;
            }
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.waits == 0
    }

    pub(crate) fn to_event(&self) -> Event {
        let hist = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| Bucket(Micros(1u64 << i), c))
            .collect();
        Event {
            waits: self.waits,
            us: Micros(self.us),
            hist,
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_land_in_power_of_two_buckets() {
        assert_eq!(bucket_index(0), 0);
        assert_eq!(bucket_index(1), 1);
        assert_eq!(bucket_index(3), 2);
        assert_eq!(bucket_index(1023), 10);
        assert_eq!(bucket_index(1024), 11);
        let mut e = EventAcc::default();
        e.add(600);
        e.add(1024);
        e.add(1500);
        let ev = e.to_event();
        assert_eq!(ev.waits, 3);
        assert_eq!(ev.us, Micros(3124));
        assert_eq!(
            ev.hist,
            vec![Bucket(Micros(1024), 1), Bucket(Micros(2048), 2)]
        );
    }

    #[test]
    fn bulk_waits_keep_the_total_and_the_shape() {
        let mut e = EventAcc::default();
        e.add_bulk(10_000, 3000.0, 0.4);
        let ev = e.to_event();
        assert_eq!(ev.waits, 10_000);
        assert_eq!(ev.hist.iter().map(|b| b.1).sum::<u64>(), 10_000);
        assert_eq!(ev.us, Micros(30_000_000));
        // Most of a 3 ms lognormal sits in [2048, 4096).
        let top = ev.hist.iter().max_by_key(|b| b.1).unwrap();
        assert_eq!(top.0, Micros(4096));
        e.add_bulk(1, 3000.0, 0.4);
        assert_eq!(e.to_event().hist.iter().map(|b| b.1).sum::<u64>(), 10_001);
    }
}
