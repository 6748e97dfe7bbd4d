//! `check -w/-c`: the monitoring-plugins threshold ranges on the figures of the performance
//! data. A range is the guidelines' `[@]start:end` (`10` is `0:10`, `10:` has no end, `~:10`
//! no start, `@` alerts inside instead of outside). A figure outside its `-c` range makes the
//! check CRIT, outside its `-w` range WARN; the ranges also fill the performance data's
//! `warn`/`crit` fields. They add to the findings, never take one away: a finding raised by
//! dgscope's own thresholds stands whatever the ranges say.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A figure a range can apply to: the ones whose value alone is a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Figure {
    /// Each standby's transport lag, seconds.
    TransportLag,
    /// Each standby's apply lag net of its DELAY, seconds.
    ApplyLag,
    /// The primary's `log file sync` average, ms.
    LogFileSync,
    /// The primary's `log file parallel write` average, ms.
    LogFileParallelWrite,
    /// The primary's `SYNC Remote Write` average, ms.
    SyncRemoteWrite,
}

impl Figure {
    pub const ALL: [Figure; 5] = [
        Figure::TransportLag,
        Figure::ApplyLag,
        Figure::LogFileSync,
        Figure::LogFileParallelWrite,
        Figure::SyncRemoteWrite,
    ];

    /// The name on the command line: the performance data's label (without the standby's
    /// name for the lags).
    pub fn name(self) -> &'static str {
        match self {
            Figure::TransportLag => "transport_lag",
            Figure::ApplyLag => "apply_lag",
            Figure::LogFileSync => "log_file_sync",
            Figure::LogFileParallelWrite => "log_file_parallel_write",
            Figure::SyncRemoteWrite => "sync_remote_write",
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Figure::TransportLag | Figure::ApplyLag => "s",
            _ => "ms",
        }
    }
}

/// One threshold range, kept with the text it was written as (the performance data repeats
/// it as given).
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    start: f64,
    end: f64,
    inside: bool,
    text: String,
}

impl Range {
    /// True when `v` alerts: outside `start..=end`, or inside it with `@`.
    pub fn alerts(&self, v: f64) -> bool {
        let within = v >= self.start && v <= self.end;
        within == self.inside
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for Range {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let (inside, body) = match text.strip_prefix('@') {
            Some(b) => (true, b),
            None => (false, text),
        };
        let num = |t: &str| -> Result<f64, String> {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{t:?} is not a number"))
        };
        let (start, end) = match body.split_once(':') {
            None => (0.0, num(body)?),
            Some((a, b)) => {
                let start = match a {
                    "~" => f64::NEG_INFINITY,
                    "" => 0.0,
                    a => num(a)?,
                };
                let end = if b.is_empty() { f64::INFINITY } else { num(b)? };
                (start, end)
            }
        };
        if start > end {
            return Err(format!("{text:?}: the start is above the end"));
        }
        Ok(Range {
            start,
            end,
            inside,
            text: text.to_string(),
        })
    }
}

/// The ranges of one of `-w` or `-c`: `FIGURE=RANGE[,FIGURE=RANGE…]`, or a bare range for
/// both lags (`-w 60`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranges(BTreeMap<Figure, Range>);

impl Ranges {
    pub fn get(&self, f: Figure) -> Option<&Range> {
        self.0.get(&f)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromStr for Ranges {
    type Err = String;

    fn from_str(spec: &str) -> Result<Self, String> {
        let names = || {
            Figure::ALL
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = BTreeMap::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((name, range)) => {
                    let figure = Figure::ALL
                        .into_iter()
                        .find(|f| f.name() == name.trim())
                        .ok_or_else(|| {
                            format!("unknown figure {:?}; one of {}", name.trim(), names())
                        })?;
                    out.insert(figure, range.parse()?);
                }
                None => {
                    let r: Range = part.parse()?;
                    out.insert(Figure::TransportLag, r.clone());
                    out.insert(Figure::ApplyLag, r);
                }
            }
        }
        if out.is_empty() {
            return Err(format!(
                "empty: give RANGE (both lags) or FIGURE=RANGE with FIGURE one of {}",
                names()
            ));
        }
        Ok(Ranges(out))
    }
}

/// `-w` and `-c` together.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    pub warn: Ranges,
    pub crit: Ranges,
}

impl Limits {
    pub fn is_empty(&self) -> bool {
        self.warn.is_empty() && self.crit.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Range {
        s.parse().unwrap()
    }

    /// The guidelines' table of examples, each with a value inside and one outside.
    #[test]
    fn ranges_alert_as_the_plugin_guidelines_say() {
        // 10: alert outside 0..10
        assert!(!r("10").alerts(0.0) && !r("10").alerts(10.0));
        assert!(r("10").alerts(10.5) && r("10").alerts(-1.0));
        // 10: alert below 10
        assert!(r("10:").alerts(9.9) && !r("10:").alerts(1e9));
        // ~:10 alert above 10
        assert!(!r("~:10").alerts(-1e9) && r("~:10").alerts(11.0));
        // 10:20 alert outside
        assert!(r("10:20").alerts(9.0) && !r("10:20").alerts(15.0) && r("10:20").alerts(21.0));
        // @10:20 alert inside
        assert!(!r("@10:20").alerts(9.0) && r("@10:20").alerts(10.0) && r("@10:20").alerts(20.0));
        assert!(!r("@10:20").alerts(20.5));
        assert_eq!(r(" 1.5:30 ").to_string(), "1.5:30");
    }

    #[test]
    fn bad_ranges_say_what_is_wrong() {
        assert!("20:10"
            .parse::<Range>()
            .unwrap_err()
            .contains("start is above the end"));
        assert!("abc".parse::<Range>().unwrap_err().contains("not a number"));
        assert!("inf".parse::<Range>().is_err());
        let e = "lag=10".parse::<Ranges>().unwrap_err();
        assert!(
            e.contains("unknown figure \"lag\"") && e.contains("transport_lag"),
            "{e}"
        );
        assert!(",".parse::<Ranges>().unwrap_err().contains("empty"));
    }

    #[test]
    fn a_bare_range_is_both_lags_and_named_ones_stay_apart() {
        let w: Ranges = "60".parse().unwrap();
        assert_eq!(w.get(Figure::TransportLag), Some(&r("60")));
        assert_eq!(w.get(Figure::ApplyLag), Some(&r("60")));
        assert_eq!(w.get(Figure::LogFileSync), None);
        let w: Ranges = "transport_lag=30, apply_lag=600,log_file_sync=~:5"
            .parse()
            .unwrap();
        assert_eq!(w.get(Figure::ApplyLag), Some(&r("600")));
        assert_eq!(w.get(Figure::LogFileSync), Some(&r("~:5")));
    }
}
