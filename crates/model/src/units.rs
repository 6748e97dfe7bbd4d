//! Units as types. A latency is never a bare number of unknown unit: the sample contract stores
//! microseconds, the screens and reports speak milliseconds and seconds.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A duration in whole microseconds, as `TIME_WAITED_MICRO` and histogram bounds report it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Micros(pub u64);

impl Micros {
    pub fn as_millis(self) -> Millis {
        Millis(self.0 as f64 / 1000.0)
    }
}

/// A (usually derived, fractional) duration in milliseconds: averages, percentile bounds.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Millis(pub f64);

impl Millis {
    pub fn from_micros_f64(us: f64) -> Self {
        Millis(us / 1000.0)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_trimmed(f, self.0)?;
        f.write_str(" ms")
    }
}

/// A duration in seconds: lags, window lengths, sample intervals.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secs(pub f64);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_trimmed(f, self.0)?;
        f.write_str(" s")
    }
}

/// Binary megabyte (2^20 bytes), the unit of `redo_rate_mb_s`.
pub const MIB: f64 = 1024.0 * 1024.0;
/// Binary kilobyte (2^10 bytes), the unit of `redo_write_kb`.
pub const KIB: f64 = 1024.0;

/// Prints a value with up to two decimals and no trailing zeros ("4.6", "32", "0.57").
fn fmt_trimmed(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    f.write_str(s)
}

/// A percentage with one decimal that never rounds a share onto 0 % or 100 % it is not:
/// 99.96 reads "99.96", 99.9996 "> 99.99", 0.004 "< 0.01" (no outlier skew may read "100.0 %
/// of waits < 8 ms" while some waits are not).
pub fn pct(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    for dec in 1..=2 {
        let s = format!("{v:.dec$}");
        let r: f64 = s.parse().unwrap_or(v);
        let onto_edge = (r == 100.0 && v < 100.0) || (r == 0.0 && v > 0.0);
        if !onto_edge {
            return s;
        }
    }
    if v > 50.0 {
        "> 99.99".into()
    } else {
        "< 0.01".into()
    }
}

/// A histogram bucket bound in milliseconds, as Oracle labels it. Micro histograms
/// (`V$EVENT_HISTOGRAM_MICRO`) use powers of two microseconds and Oracle's `WAIT_TIME_FORMAT`
/// calls 1024 µs "1 millisecond" and 8192 µs "8 milliseconds"; the older milli view stores
/// `m * 1000`. Both must read as the same "≤ 8 ms" to a DBA.
pub fn bound_ms(upper: Micros) -> f64 {
    let us = upper.0;
    if us >= 1024 && us.is_power_of_two() {
        us as f64 / 1024.0
    } else {
        us as f64 / 1000.0
    }
}

/// Formats a bucket bound the way a DBA reads it: "512 µs", "8 ms", "2 s".
pub fn bound_label(upper: Micros) -> String {
    if upper.0 < 1000 {
        return format!("{} µs", upper.0);
    }
    let ms = bound_ms(upper);
    if ms >= 1000.0 {
        let s = ms / 1000.0;
        return if s.fract() == 0.0 {
            format!("{s:.0} s")
        } else {
            format!("{s:.2} s")
        };
    }
    if ms.fract() == 0.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.3}").trim_end_matches('0').to_string() + " ms"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_trim_trailing_zeros() {
        assert_eq!(Millis(4.60).to_string(), "4.6 ms");
        assert_eq!(Millis(32.0).to_string(), "32 ms");
        assert_eq!(Secs(0.57).to_string(), "0.57 s");
        assert_eq!(pct(91.44), "91.4");
        assert_eq!(pct(100.0), "100.0");
        assert_eq!(pct(99.96), "99.96");
        assert_eq!(pct(99.9996), "> 99.99");
        assert_eq!(pct(0.04), "0.04");
        assert_eq!(pct(0.0), "0.0");
        assert_eq!(Micros(1500).as_millis(), Millis(1.5));
    }

    #[test]
    fn bound_labels_pick_the_readable_unit() {
        assert_eq!(bound_label(Micros(512)), "512 µs");
        assert_eq!(bound_label(Micros(8000)), "8 ms");
        assert_eq!(bound_label(Micros(8192)), "8 ms");
        assert_eq!(bound_label(Micros(1500)), "1.5 ms");
        assert_eq!(bound_label(Micros(2_000_000)), "2 s");
        assert_eq!(bound_ms(Micros(32_000)), 32.0);
        assert_eq!(bound_ms(Micros(32_768)), 32.0);
    }
}
