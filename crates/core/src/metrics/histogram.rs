//! Histogram math with bucket-bound semantics: a percentile is the upper bound of the first
//! bucket whose cumulative share reaches it ("p99 ≤ 32 ms"), never an interpolated guess.

use dgscope_model::sample::Bucket;
use dgscope_model::units::{bound_ms, Micros};

/// The bound of Oracle's open-ended last bucket: 2^32 µs (V$EVENT_HISTOGRAM_MICRO; the
/// millisecond view's last bucket is larger still). A wait counted there is only known to
/// be at least the bucket below's bound, never "at most" this one.
pub const OPEN_BOUND_US: u64 = 1 << 32;

/// A percentile read from a histogram: the bound of the bucket it falls in ("p99 ≤ 32 ms"),
/// or, in the open-ended last bucket, only a lower bound ("p99 > 2 097 152 ms").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Percentile {
    /// At most this bound (a finite bucket).
    AtMost(Micros),
    /// Above this bound: the last finite one (the open bucket's lower edge).
    Above(Micros),
}

impl Percentile {
    /// The bound: the upper one of a finite bucket, the lower one of the open bucket.
    pub fn bound(self) -> Micros {
        match self {
            Percentile::AtMost(b) | Percentile::Above(b) => b,
        }
    }

    /// [`Percentile::bound`] in Oracle's millisecond labelling (see `units::bound_ms`).
    pub fn ms(self) -> f64 {
        bound_ms(self.bound())
    }

    /// The finite upper bound in ms; `None` in the open bucket (no upper bound is known).
    pub fn at_most_ms(self) -> Option<f64> {
        match self {
            Percentile::AtMost(b) => Some(bound_ms(b)),
            Percentile::Above(_) => None,
        }
    }

    pub fn is_open(self) -> bool {
        matches!(self, Percentile::Above(_))
    }

    /// "≤" for a finite bucket, ">" for the open one.
    pub fn relation(self) -> &'static str {
        match self {
            Percentile::AtMost(_) => "≤",
            Percentile::Above(_) => ">",
        }
    }
}

/// Whether a bucket is Oracle's open-ended last one.
pub(crate) fn is_open_bucket(upper: Micros) -> bool {
    upper.0 >= OPEN_BOUND_US
}

/// The lower edge of a bucket: Oracle's buckets double, so half its bound.
fn lower_edge(upper: Micros) -> Micros {
    Micros(upper.0 / 2)
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Histogram {
    /// `(exclusive upper bound, count)`, ascending by bound, zero buckets omitted.
    buckets: Vec<(Micros, u64)>,
    /// The buckets' sum, counted once when they are set: screens ask for it (shares,
    /// percentiles) at every draw, of histograms that can hold 100,000 buckets.
    total: u64,
}

/// One bucket as reports show it.
#[derive(Debug, Clone, PartialEq)]
pub struct BucketRow {
    pub upper: Micros,
    pub count: u64,
    pub share_pct: f64,
    pub cum_pct: f64,
}

impl Histogram {
    /// Builds from arbitrary buckets: sorts, merges equal bounds, drops zeros.
    pub fn from_buckets(mut buckets: Vec<(Micros, u64)>) -> Self {
        buckets.sort_by_key(|b| b.0);
        let mut out: Vec<(Micros, u64)> = Vec::with_capacity(buckets.len());
        for (b, c) in buckets {
            match out.last_mut() {
                Some(last) if last.0 == b => last.1 += c,
                _ => out.push((b, c)),
            }
        }
        out.retain(|b| b.1 > 0);
        Histogram::of(out)
    }

    fn of(buckets: Vec<(Micros, u64)>) -> Self {
        let total = buckets.iter().map(|b| b.1).sum();
        Histogram { buckets, total }
    }

    /// Bucket-wise `later − earlier` of two cumulative histograms of the same event. A bucket
    /// missing from `earlier` had no waits yet; a bucket that went down (never in one
    /// incarnation of an instance) counts as zero rather than negative.
    pub fn delta(earlier: &[Bucket], later: &[Bucket]) -> Self {
        let mut out = Vec::with_capacity(later.len());
        let mut i = 0;
        for b in later {
            while i < earlier.len() && earlier[i].0 < b.0 {
                i += 1;
            }
            let before = if i < earlier.len() && earlier[i].0 == b.0 {
                earlier[i].1
            } else {
                0
            };
            let d = b.1.saturating_sub(before);
            if d > 0 {
                out.push((b.0, d));
            }
        }
        // `later` is ascending by contract; if a hand-built file is not, normalise.
        if out.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Histogram::from_buckets(out);
        }
        Histogram::of(out)
    }

    pub fn add(&mut self, other: &Histogram) {
        if other.buckets.is_empty() {
            return;
        }
        let mut all = std::mem::take(&mut self.buckets);
        all.extend_from_slice(&other.buckets);
        *self = Histogram::from_buckets(all);
    }

    pub fn buckets(&self) -> &[(Micros, u64)] {
        &self.buckets
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The first bucket whose cumulative share reaches `p` (0 < p ≤ 1): at most its upper
    /// bound, or, in the open-ended last bucket, above its lower edge.
    pub fn percentile(&self, p: f64) -> Option<Percentile> {
        let [x] = self.percentiles([p]);
        x
    }

    /// Several percentiles in one walk of the buckets (a screen asks for p50, p90 and p99
    /// of histograms that can hold 100,000 buckets), each as [`Histogram::percentile`].
    pub fn percentiles<const N: usize>(&self, ps: [f64; N]) -> [Option<Percentile>; N] {
        let total = self.total();
        let mut out = [None; N];
        if total == 0 {
            return out;
        }
        let target = ps.map(|p| p.clamp(0.0, 1.0) * total as f64);
        let of = |bound: Micros| {
            if is_open_bucket(bound) {
                Percentile::Above(lower_edge(bound))
            } else {
                Percentile::AtMost(bound)
            }
        };
        let mut left = N;
        let mut cum = 0u64;
        for &(bound, count) in &self.buckets {
            cum += count;
            for (o, t) in out.iter_mut().zip(target) {
                // Tolerance so that p = 0.9 of 10 waits is reached at exactly 9.
                if o.is_none() && cum as f64 + 1e-9 >= t {
                    *o = Some(of(bound));
                    left -= 1;
                }
            }
            if left == 0 {
                return out;
            }
        }
        let last = self.buckets.last().map(|b| of(b.0));
        out.map(|o| o.or(last))
    }

    /// Share (0..=1) of waits in buckets whose bound is at most `ms` milliseconds, in Oracle's
    /// labelling: "< 8 ms" covers the 8 ms bucket of either histogram view.
    pub fn share_below_ms(&self, ms: f64) -> Option<f64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let below: u64 = self
            .buckets
            .iter()
            .filter(|b| bound_ms(b.0) <= ms + 1e-9)
            .map(|b| b.1)
            .sum();
        Some(below as f64 / total as f64)
    }

    /// Estimated wait time per bucket, using the bucket midpoint (`0.75 × bound`, the first
    /// bucket `0.5 × bound`), in microseconds. The open-ended last bucket has no midpoint:
    /// its waits count at its lower edge, a lower estimate.
    pub fn estimated_time_us(&self) -> Vec<(Micros, f64)> {
        self.buckets
            .iter()
            .enumerate()
            .map(|(i, &(b, c))| {
                let at = if is_open_bucket(b) {
                    lower_edge(b).0 as f64
                } else if i == 0 && b.0 <= 1024 {
                    0.5 * b.0 as f64
                } else {
                    0.75 * b.0 as f64
                };
                (b, at * c as f64)
            })
            .collect()
    }

    pub fn rows(&self) -> Vec<BucketRow> {
        let total = self.total().max(1) as f64;
        let mut cum = 0u64;
        self.buckets
            .iter()
            .map(|&(upper, count)| {
                cum += count;
                BucketRow {
                    upper,
                    count,
                    share_pct: count as f64 * 100.0 / total,
                    cum_pct: cum as f64 * 100.0 / total,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Seed 000's `log file sync` histogram under SYNC (V$EVENT_HISTOGRAM, ms buckets).
    pub(crate) fn seed000() -> Histogram {
        let counts = [17610, 43670, 8394, 4072, 4344, 2109, 460, 6];
        Histogram::from_buckets(
            counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (Micros(1000 << i), c))
                .collect(),
        )
    }

    #[test]
    fn seed000_shares_and_percentiles() {
        let h = seed000();
        assert_eq!(h.total(), 80_665);
        let below8 = h.share_below_ms(8.0).unwrap() * 100.0;
        let below4 = h.share_below_ms(4.0).unwrap() * 100.0;
        assert!((below8 - 91.4).abs() < 0.05, "{below8}");
        assert!((below4 - 86.4).abs() < 0.05, "{below4}");
        let ms = |p| h.percentile(p).and_then(Percentile::at_most_ms);
        assert_eq!(ms(0.5), Some(2.0));
        assert_eq!(ms(0.9), Some(8.0));
        assert_eq!(ms(0.99), Some(32.0));
        assert_eq!(ms(0.999), Some(64.0));
    }

    #[test]
    fn micro_buckets_read_with_oracle_labels() {
        let h = Histogram::from_buckets(vec![(Micros(4096), 9), (Micros(8192), 1)]);
        assert_eq!(h.share_below_ms(4.0), Some(0.9));
        assert_eq!(h.percentile(0.95).map(Percentile::ms), Some(8.0));
    }

    #[test]
    fn percentile_lands_exactly_on_a_bucket_edge() {
        let h = Histogram::from_buckets(vec![(Micros(1000), 9), (Micros(2000), 1)]);
        assert_eq!(h.percentile(0.9), Some(Percentile::AtMost(Micros(1000))));
        assert_eq!(h.percentile(0.91), Some(Percentile::AtMost(Micros(2000))));
        assert_eq!(Histogram::default().percentile(0.5), None);
        assert_eq!(Histogram::default().share_below_ms(8.0), None);
    }

    /// Review #18: a percentile in Oracle's open-ended last bucket (2^32 µs) is only known
    /// to be above the last finite bound, never "≤ 4 194 304 ms"; its waits count at that
    /// lower edge in the time estimate, not at 0.75 × an unbounded bound.
    #[test]
    fn the_open_last_bucket_gives_a_lower_bound() {
        let open = Micros(OPEN_BOUND_US);
        let h = Histogram::from_buckets(vec![(Micros(1024), 90), (Micros(2048), 5), (open, 5)]);
        assert_eq!(h.percentile(0.9), Some(Percentile::AtMost(Micros(1024))));
        let p99 = h.percentile(0.99).unwrap();
        assert_eq!(p99, Percentile::Above(Micros(OPEN_BOUND_US / 2)));
        assert!(p99.is_open());
        assert_eq!(p99.at_most_ms(), None);
        assert_eq!(p99.relation(), ">");
        assert_eq!(p99.ms(), 2_097_152.0);
        let est = h.estimated_time_us();
        assert_eq!(est[2], (open, (OPEN_BOUND_US / 2) as f64 * 5.0));
        assert_eq!(est[1], (Micros(2048), 0.75 * 2048.0 * 5.0));
    }

    #[test]
    fn delta_handles_new_and_shrinking_buckets() {
        let a = vec![Bucket(Micros(1000), 10), Bucket(Micros(4000), 5)];
        let b = vec![
            Bucket(Micros(1000), 15),
            Bucket(Micros(2000), 3),
            Bucket(Micros(4000), 4),
        ];
        let d = Histogram::delta(&a, &b);
        assert_eq!(d.buckets(), &[(Micros(1000), 5), (Micros(2000), 3)]);
    }

    fn arb_hist() -> impl Strategy<Value = Vec<u64>> {
        proptest::collection::vec(0u64..10_000, 1..16)
    }

    proptest! {
        #[test]
        fn percentiles_are_monotone_and_within_range(counts in arb_hist()) {
            let h = Histogram::from_buckets(counts.iter().enumerate().map(|(i, &c)| (Micros(1 << i), c)).collect());
            prop_assume!(h.total() > 0);
            let ps = [0.01, 0.5, 0.9, 0.99, 0.999, 1.0];
            let vals: Vec<Micros> = ps.iter().map(|&p| h.percentile(p).unwrap().bound()).collect();
            prop_assert!(vals.windows(2).all(|w| w[0] <= w[1]));
            prop_assert!(h.buckets().iter().any(|b| b.0 == vals[5]));
            // The reported bound really holds at least p of the waits.
            for (&p, v) in ps.iter().zip(&vals) {
                let at_or_below: u64 = h.buckets().iter().filter(|b| b.0 <= *v).map(|b| b.1).sum();
                prop_assert!(at_or_below as f64 >= p * h.total() as f64 - 1e-6);
            }
        }

        #[test]
        fn percentiles_in_one_walk_match_the_smallest_bucket_holding_each(
            counts in arb_hist(),
            ps in proptest::collection::vec(0.0f64..=1.0, 4),
        ) {
            let h = Histogram::from_buckets(counts.iter().enumerate().map(|(i, &c)| (Micros(1 << i), c)).collect());
            let got = h.percentiles([ps[0], ps[1], ps[2], ps[3]]);
            for (p, g) in ps.iter().zip(got) {
                // The first bucket whose running count reaches p of the waits, in any order
                // the ps are asked.
                let target = p * h.total() as f64;
                let mut cum = 0;
                let want = (h.total() > 0).then(|| {
                    h.buckets().iter().find(|b| { cum += b.1; cum as f64 + 1e-9 >= target }).map_or(h.buckets().last().unwrap().0, |b| b.0)
                });
                prop_assert_eq!(g.map(|x| x.bound()), want);
                prop_assert_eq!(g, h.percentile(*p));
            }
        }

        #[test]
        fn delta_of_cumulative_growth_recovers_the_increment(base in arb_hist(), inc in arb_hist()) {
            let n = base.len().min(inc.len());
            let a: Vec<Bucket> = (0..n).map(|i| Bucket(Micros(1 << i), base[i])).collect();
            let b: Vec<Bucket> = (0..n).map(|i| Bucket(Micros(1 << i), base[i] + inc[i])).collect();
            let d = Histogram::delta(&a, &b);
            prop_assert_eq!(d.total(), inc[..n].iter().sum::<u64>());
            let rows = d.rows();
            if let Some(last) = rows.last() {
                prop_assert!((last.cum_pct - 100.0).abs() < 1e-9);
            }
        }

        #[test]
        fn shares_are_fractions(counts in arb_hist(), ms in 0.0f64..100.0) {
            let h = Histogram::from_buckets(counts.iter().enumerate().map(|(i, &c)| (Micros(1000 << i), c)).collect());
            if let Some(s) = h.share_below_ms(ms) {
                prop_assert!((0.0..=1.0).contains(&s));
            }
        }
    }
}
