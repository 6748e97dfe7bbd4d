//! The stale rule, answered once for every consumer (screen, `check`, causes, reports): a
//! slot whose newest sample failed has no current figures; its last good ones are stale, with
//! their age on the source's clock.

use dgscope_model::timestamp::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Freshness {
    /// The newest sample has data: its figures describe now.
    Current,
    /// The newest sample(s) failed. `last_good` is when the figures on hand were read (`None`
    /// when no sample ever succeeded); `age_s` is how old they are at the source's newest
    /// instant, `failing_since` when the failures started.
    Stale {
        last_good: Option<Timestamp>,
        age_s: Option<f64>,
        failing_since: Timestamp,
    },
    /// Nothing seen from the slot yet.
    NoData,
}

impl Freshness {
    pub fn is_current(&self) -> bool {
        matches!(self, Freshness::Current)
    }

    pub fn is_stale(&self) -> bool {
        matches!(self, Freshness::Stale { .. })
    }

    /// Age of the figures on hand in seconds; 0 when current, `None` without any.
    pub fn age_s(&self) -> Option<f64> {
        match self {
            Freshness::Current => Some(0.0),
            Freshness::Stale { age_s, .. } => *age_s,
            Freshness::NoData => None,
        }
    }
}
