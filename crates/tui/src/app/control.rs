//! Pacing the source from the keyboard (`+`/`-`); the messages themselves are
//! [`dgscope_model::source::Control`].

pub use dgscope_model::source::Control;
use std::time::Duration;

/// How the source is paced, as the app last asked it to be; `+`/`-` change it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// Fixed by the source (nothing to change).
    Fixed,
    Speed(f64),
    Interval(Duration),
}

impl Pace {
    pub fn faster(self) -> Pace {
        match self {
            Pace::Fixed => Pace::Fixed,
            Pace::Speed(s) => Pace::Speed((s * 2.0).min(64.0)),
            Pace::Interval(i) => Pace::Interval((i / 2).max(Duration::from_secs(1))),
        }
    }

    pub fn slower(self) -> Pace {
        match self {
            Pace::Fixed => Pace::Fixed,
            Pace::Speed(s) => Pace::Speed((s / 2.0).max(0.25)),
            Pace::Interval(i) => Pace::Interval((i * 2).min(Duration::from_secs(60))),
        }
    }

    pub fn control(self) -> Option<Control> {
        match self {
            Pace::Fixed => None,
            Pace::Speed(s) => Some(Control::Speed(s)),
            Pace::Interval(i) => Some(Control::Interval(i)),
        }
    }
}
