//! Windows over a stream of samples. Counters are cumulative, so a window needs only the
//! first and last sample of each restart-free stretch inside it: accumulation is O(1) memory
//! whatever the window's length.

use super::delta::{same_incarnation, Delta, Parts};
use dgscope_model::sample::Sample;
use dgscope_model::timestamp::Timestamp;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Accumulates a window of one slot from samples pushed in time order.
#[derive(Debug, Clone, Default)]
pub struct WindowAcc {
    done: Option<Delta>,
    first: Option<Arc<Sample>>,
    last: Option<Arc<Sample>>,
    samples: usize,
}

impl WindowAcc {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next sample. Failed samples carry no counters and are skipped; a restart closes
    /// the current stretch and starts a new one.
    pub fn push(&mut self, s: &Arc<Sample>) {
        if s.is_error() {
            return;
        }
        if let Some(last) = &self.last {
            if s.t <= last.t {
                return;
            }
            if !same_incarnation(last, s) {
                self.close_stretch();
                self.first = Some(s.clone());
            }
        } else {
            self.first = Some(s.clone());
        }
        self.last = Some(s.clone());
        self.samples += 1;
    }

    fn close_stretch(&mut self) {
        if let (Some(a), Some(b)) = (&self.first, &self.last) {
            if let Some(d) = Delta::between(a, b) {
                match &mut self.done {
                    Some(done) => done.absorb(&d),
                    None => self.done = Some(d),
                }
            }
        }
    }

    /// Number of good samples seen.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// The window's delta, `None` until two samples of one incarnation were seen.
    pub fn delta(&self) -> Option<Delta> {
        self.delta_parts(Parts::All)
    }

    /// As [`WindowAcc::delta`], with `parts` of the open stretch (closed stretches are kept
    /// whole).
    pub(crate) fn delta_parts(&self, parts: Parts) -> Option<Delta> {
        let open = match (&self.first, &self.last) {
            (Some(a), Some(b)) => Delta::between_parts(a, b, parts),
            _ => None,
        };
        match (&self.done, open) {
            (Some(done), Some(open)) => {
                let mut d = done.clone();
                d.absorb(&open);
                Some(d)
            }
            (Some(done), None) => Some(done.clone()),
            (None, open) => open,
        }
    }
}

/// The windows a user cycles through with `w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Last(Duration),
    SinceBaseline,
    SinceStartup,
}

impl Window {
    pub const CYCLE: [Window; 6] = [
        Window::Last(Duration::from_secs(10)),
        Window::Last(Duration::from_secs(60)),
        Window::Last(Duration::from_secs(300)),
        Window::Last(Duration::from_secs(900)),
        Window::SinceBaseline,
        Window::SinceStartup,
    ];

    pub fn next(self) -> Window {
        let i = Self::CYCLE.iter().position(|w| *w == self).unwrap_or(0);
        Self::CYCLE[(i + 1) % Self::CYCLE.len()]
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Window::Last(d) if d.as_secs() % 60 == 0 => write!(f, "{}m", d.as_secs() / 60),
            Window::Last(d) => write!(f, "{}s", d.as_secs()),
            Window::SinceBaseline => f.write_str("since baseline"),
            Window::SinceStartup => f.write_str("since startup"),
        }
    }
}

/// One end of a user-given window: an offset from the first sample, or a clock time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowBound {
    Offset(Duration),
    At(Timestamp),
    Open,
}

/// `A..B` as typed on the command line: `0s..15m`, `980s..1960s`, RFC 3339 times, or an open
/// end (`15m..`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSpec {
    pub from: WindowBound,
    pub to: WindowBound,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowSpecError {
    #[error("window {0:?} must look like A..B, e.g. 0s..15m or 2026-11-30T05:00:00Z..2026-11-30T05:15:00Z")]
    Shape(String),
    #[error(
        "window {spec:?}: {part:?} is neither an offset like 15m or 980s nor an RFC 3339 time"
    )]
    Bound { spec: String, part: String },
    #[error("window {0:?} ends before it starts; swap the two ends")]
    Inverted(String),
    #[error("window {spec:?}: offset {part:?} is beyond {max}; offsets count from the first sample, use one inside the recording")]
    TooFar {
        spec: String,
        part: String,
        max: &'static str,
    },
}

/// The largest offset a window may name: far beyond any recording, small enough that adding
/// it to a time can never overflow (`18446744073709551615..` once wrapped to a wrong window).
pub(crate) const MAX_WINDOW_OFFSET: Duration = Duration::from_secs(100 * 366 * 86_400);

impl WindowSpec {
    pub fn whole() -> Self {
        WindowSpec {
            from: WindowBound::Open,
            to: WindowBound::Open,
        }
    }

    pub fn parse(spec: &str) -> Result<Self, WindowSpecError> {
        let (a, b) = spec
            .split_once("..")
            .ok_or_else(|| WindowSpecError::Shape(spec.into()))?;
        let bound = |part: &str| -> Result<WindowBound, WindowSpecError> {
            let part = part.trim();
            if part.is_empty() {
                return Ok(WindowBound::Open);
            }
            match parse_bound(part) {
                Some(WindowBound::Offset(d)) if d > MAX_WINDOW_OFFSET => {
                    Err(WindowSpecError::TooFar {
                        spec: spec.into(),
                        part: part.into(),
                        max: "100 years",
                    })
                }
                Some(b) => Ok(b),
                None => Err(WindowSpecError::Bound {
                    spec: spec.into(),
                    part: part.into(),
                }),
            }
        };
        let w = WindowSpec {
            from: bound(a)?,
            to: bound(b)?,
        };
        let inverted = match (w.from, w.to) {
            (WindowBound::Offset(x), WindowBound::Offset(y)) => y < x,
            (WindowBound::At(x), WindowBound::At(y)) => y < x,
            _ => false,
        };
        if inverted {
            return Err(WindowSpecError::Inverted(spec.into()));
        }
        Ok(w)
    }

    /// Clock times of both ends given the recording's first and last sample times.
    pub fn resolve(&self, first: Timestamp, last: Timestamp) -> (Timestamp, Timestamp) {
        let at = |b: WindowBound, open: Timestamp| match b {
            WindowBound::Offset(d) => {
                first.add_millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 4))
            }
            WindowBound::At(t) => t,
            WindowBound::Open => open,
        };
        (at(self.from, first), at(self.to, last))
    }
}

fn parse_bound(part: &str) -> Option<WindowBound> {
    if let Ok(secs) = part.parse::<u64>() {
        return Some(WindowBound::Offset(Duration::from_secs(secs)));
    }
    if let Ok(d) = humantime::parse_duration(part) {
        return Some(WindowBound::Offset(d));
    }
    Timestamp::parse(part).ok().map(WindowBound::At)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::sample::names::stat;
    use dgscope_model::sample::{DbInfo, Slot};
    use proptest::prelude::*;

    fn s(t: i64, startup: i64, commits: u64) -> Arc<Sample> {
        let mut s = Sample::new(Timestamp::from_millis(t * 1000), Slot::primary());
        s.db = Some(
            DbInfo {
                startup: Some(Timestamp::from_millis(startup)),
                ..DbInfo::default()
            }
            .into(),
        );
        s.stats.insert(stat::USER_COMMITS.into(), commits);
        Arc::new(s)
    }

    #[test]
    fn window_spanning_a_restart_sums_both_sides() {
        let mut w = WindowAcc::new();
        for x in [s(0, 1, 100), s(10, 1, 1100), s(20, 2, 50), s(30, 2, 550)] {
            w.push(&x);
        }
        let d = w.delta().unwrap();
        // 1000 commits in the first 10 s, 500 in the last 10 s; the restart interval is dropped.
        assert_eq!(d.stat(stat::USER_COMMITS), Some(1500));
        assert_eq!(d.secs, 20.0);
        assert_eq!(d.tps(), Some(75.0));
    }

    #[test]
    fn error_samples_and_single_samples_give_no_delta() {
        let mut w = WindowAcc::new();
        w.push(&Arc::new(Sample::failed(
            Timestamp::from_millis(0),
            Slot::primary(),
            dgscope_model::sample::SampleErrorKind::Timeout,
            "x".into(),
        )));
        w.push(&s(1, 1, 5));
        assert!(w.delta().is_none());
        w.push(&s(2, 1, 9));
        assert_eq!(w.delta().unwrap().stat(stat::USER_COMMITS), Some(4));
    }

    #[test]
    fn window_specs_parse_offsets_times_and_open_ends() {
        let w = WindowSpec::parse("0s..15m").unwrap();
        assert_eq!(w.from, WindowBound::Offset(Duration::ZERO));
        assert_eq!(w.to, WindowBound::Offset(Duration::from_secs(900)));
        let w = WindowSpec::parse("980..").unwrap();
        assert_eq!(w.to, WindowBound::Open);
        let w = WindowSpec::parse("2026-11-30T05:00:00Z..2026-11-30T05:15:00Z").unwrap();
        let first = Timestamp::parse("2026-11-30T04:00:00Z").unwrap();
        let (a, b) = w.resolve(first, first);
        assert_eq!(b.secs_since(a), 900.0);
        assert!(matches!(
            WindowSpec::parse("15m..0s"),
            Err(WindowSpecError::Inverted(_))
        ));
        assert!(matches!(
            WindowSpec::parse("15m"),
            Err(WindowSpecError::Shape(_))
        ));
        assert!(matches!(
            WindowSpec::parse("soon..later"),
            Err(WindowSpecError::Bound { .. })
        ));
    }

    #[test]
    fn window_cycle_visits_every_window() {
        let mut w = Window::CYCLE[0];
        let mut seen = vec![w];
        for _ in 0..5 {
            w = w.next();
            seen.push(w);
        }
        assert_eq!(seen, Window::CYCLE.to_vec());
        assert_eq!(w.next(), Window::CYCLE[0]);
        assert_eq!(Window::Last(Duration::from_secs(60)).to_string(), "1m");
    }

    proptest! {
        #[test]
        fn window_total_equals_sum_of_increments_within_each_incarnation(
            incs in proptest::collection::vec((0u64..1000, any::<bool>()), 2..60)
        ) {
            let mut w = WindowAcc::new();
            let mut startup = 1;
            let mut counter = 0u64;
            let mut expected = 0u64;
            for (i, (inc, restart)) in incs.iter().enumerate() {
                if *restart && i > 0 {
                    startup += 1;
                    counter = *inc; // counters restart near zero
                } else {
                    if i > 0 { expected += inc; }
                    counter += inc;
                }
                w.push(&s(i as i64, startup, counter));
            }
            let got = w.delta().and_then(|d| d.stat(stat::USER_COMMITS)).unwrap_or(0);
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn window_spec_parser_never_panics(spec in "\\PC{0,30}") {
            let _ = WindowSpec::parse(&spec);
        }
    }
}
